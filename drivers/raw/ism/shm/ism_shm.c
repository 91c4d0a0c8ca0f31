/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * shm backend (vdev "ism_shm"): ISM devices in different processes of one
 * host, or containers sharing a directory. Devices whose devarg dir= names
 * the same directory (and that have the same CHID) form a fabric. See
 * ism_shm.h for the design.
 *
 * Fast path: the token names the owner's fabric slot and the DMB index;
 * the writer finds the owner's view in views[slot] and the entry at the
 * index, compares the whole token and copies into its mapping of the
 * owner's memfd. No system call, no lock.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <rte_malloc.h>

#include <ism_compat.h>
#include <bus_vdev_driver.h>

#include "ism_shm.h"
#include "ism_sw_move.h"

static inline int
shm_lookup(const struct shm_dev *d, uint64_t token,
		const struct shm_view **vp, const struct shm_view_ent **ep)
{
	uint32_t idx = ism_sw_tok_idx(token);
	const struct shm_view *v;
	const struct shm_view_ent *e;

	v = rte_atomic_load_explicit(&d->views[ism_sw_tok_slot(token)],
			rte_memory_order_acquire);
	if (unlikely(v == NULL || idx - SHM_IDX_FIRST >= v->max_dmbs))
		return -ENOENT;
	e = &v->ent[idx];
	if (unlikely(rte_atomic_load_explicit(&e->token, rte_memory_order_acquire) != token))
		return -ENOENT;
	if (unlikely(e->writable == 0))
		return -EACCES;
	*vp = v;
	*ep = e;
	return 0;
}

/* Resolve a token for the writer ctx (struct shm_dev). */
static inline int
shm_target(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	const struct shm_view_ent *e;
	const struct shm_view *v;
	int ret = shm_lookup(ctx, token, &v, &e);

	if (likely(ret == 0)) {
		t->addr = e->addr;
		t->len = e->len;
		t->dmb_idx = ism_sw_tok_idx(token);
		t->sba = v->sba;
	}
	return ret;
}

/*
 * Fast-path resolution (ism_sw_move_data_fast): the checks of shm_lookup
 * without the errno and the SBA. fp_ent[] holds a table of SHM_NB_IDX
 * entries for every slot, so no test of the view or of the index; an
 * entry not in use has token 0 and len 0 (token 0, index 0, is never
 * given out: it fits in no move).
 */
static __rte_always_inline bool
shm_find(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	const struct shm_dev *d = ctx;
	const struct shm_view_ent *e;

	/* Relaxed: the entry is read through the pointer (an address
	 * dependency, as rcu_dereference()). */
	e = rte_atomic_load_explicit(d->fp_ent + ism_sw_tok_slot(token),
			rte_memory_order_relaxed);
	e += ism_sw_tok_idx(token);
	/* A plain load, folded into the compare; the fence makes it an
	 * acquire (x86: no instruction): the fields below are those
	 * published with this token. */
	if (unlikely(e->token != token))
		return false;
	rte_atomic_thread_fence(rte_memory_order_acquire);
	if (unlikely(e->writable == 0))
		return false;
	t->addr = e->addr;
	t->len = e->len;
	return true;
}

/* Every case: non-EAL threads, signals, errors, the fence fallback. */
static __rte_noinline int
shm_move_data_full(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data(ctx, shm_target, token, idx, sf, offset, data,
			len);
}

static int
shm_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data_fast(ctx, shm_find, shm_move_data_full, token,
			idx, sf, offset, data, len);
}

static int
shm_move_burst(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		const struct rte_ism_move_seg *segs, uint16_t nb_segs)
{
	return ism_sw_move_burst(ctx, shm_target, token, idx, sf, segs,
			nb_segs);
}

/* Poll one SBA; keep only indices whose DMB that writer may write. */
static uint16_t
shm_poll_sba(struct shm_dev *d, unsigned int wslot, struct ism_sw_sba *sba,
		struct rte_ism_signal *sigs, uint16_t nb)
{
	uint16_t got, i, n = 0;
	uint32_t idx;

	if (!ism_sw_sba_pending(sba))
		return 0;
	got = ism_sw_sba_poll(sba, sigs, nb);
	for (i = 0; i < got; i++) {
		idx = sigs[i].dmb_idx;
		/* A peer may scribble over its SBA: it is dropped here. The
		 * poll reports indices below SHM_NB_IDX only. */
		if (rte_atomic_load_explicit(&d->writer_slot[idx], rte_memory_order_relaxed) ==
		    wslot)
			sigs[n++] = sigs[i];
	}
	return n;
}

/* Visits our own SBA and one per writer peer: the cost depends on the
 * number of peers, not of DMBs. Starts where the last full poll stopped. */
static int
shm_signal_poll(void *ctx, struct rte_ism_signal *sigs, uint16_t nb)
{
	struct shm_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	uint64_t act, hi;
	struct ism_sw_sba *sba;
	unsigned int s, start = d->poll_next % SHM_MAX_SLOTS;
	uint16_t n = 0;

	rte_ism_pmd_move_enter(slot);
	act = rte_atomic_load_explicit(&d->rx_active, rte_memory_order_acquire);
	hi = act & (UINT64_MAX << start);
	act &= ~(UINT64_MAX << start);
	while ((hi | act) != 0 && n < nb) {
		if (hi == 0) {
			hi = act;
			act = 0;
		}
		s = rte_bsf64(hi);
		hi &= hi - 1;
		sba = rte_atomic_load_explicit(&d->rx_sba[s], rte_memory_order_acquire);
		if (sba != NULL)
			n += shm_poll_sba(d, s, sba, sigs + n, nb - n);
		if (n == nb)
			d->poll_next = s + 1;
	}
	rte_ism_pmd_move_exit(slot);
	return n;
}

static const char *const shm_xstat_names[] = {
	"peers",
	"protocol_errors",
	"handshakes_pending",
	"handshakes_expired",
	"connections_refused",
	"peers_unresponsive",
	"events_summarised",
	"events_held",
	"events_lost",
	"ctl_turn_work_max",
};

static uint64_t
shm_xstat_get(struct ism_pmd_dev *common, unsigned int i)
{
	struct shm_dev *d = (struct shm_dev *)common;
	struct shm_peer *p;
	uint64_t v = 0;

	shm_ctl_lock();
	switch (i) {
	case 0:
		TAILQ_FOREACH(p, &d->conns, next)
			v += p->up;
		break;
	case 1:
		v = d->protocol_errors;
		break;
	case 2:
		TAILQ_FOREACH(p, &d->conns, next)
			v += !p->up;
		break;
	case 3:
		v = d->handshakes_expired;
		break;
	case 4:
		v = d->conns_refused;
		break;
	case 5:
		TAILQ_FOREACH(p, &d->conns, next)
			v += p->unresponsive;
		break;
	case 6:
		v = d->ev_summarised;
		break;
	case 7:
		v = d->ev_held;
		break;
	case 8:
		v = d->ev_lost;
		break;
	default:
		v = shm_loop_work_max();
		break;
	}
	shm_ctl_unlock();
	return v;
}

/* Leave the fabric (good-bye to every peer) and free everything. */
static void
shm_close(struct ism_pmd_dev *common)
{
	struct shm_dev *d = (struct shm_dev *)common;
	uint64_t ids[2 * SHM_MAX_SLOTS];
	int status[2 * SHM_MAX_SLOTS];
	struct shm_peer *p, *tmp;
	struct shm_msg m;
	unsigned int n = 0;
	uint32_t idx, seq;

	if (d->attached) {
		/* op_lock: d->wait is for one op at a time (the control
		 * thread takes only shm_ctl.lock, so it cannot deadlock). */
		shm_op_lock(d);
		/* Peers drop our DMBs and post their events before they
		 * answer, so they are done when we go. */
		seq = shm_next_seq(d);
		TAILQ_FOREACH(p, &d->conns, next) {
			if (!p->up)
				continue;
			shm_msg_init(&m, SHM_MSG_BYE, seq);
			if (shm_send(p, &m, -1) == 0)
				ids[n++] = p->id;
		}
		shm_wait_answers(d, seq, ids, status, n);
		RTE_TAILQ_FOREACH_SAFE(p, &d->conns, next, tmp)
			shm_peer_down(p, SHM_DOWN_CLOSE);
		shm_listen_stop(d);
		shm_reclaim(d);
		shm_events_free(d);
		shm_op_unlock(d);
	}
	shm_fabric_leave(d);
	if (d->dirfd >= 0)
		close(d->dirfd);
	d->dirfd = -1;
	shm_ctl_detach(d);
	for (idx = SHM_IDX_FIRST; d->own != NULL &&
	     idx < SHM_IDX_FIRST + d->max_dmbs; idx++)
		if (d->own[idx].token != 0)
			shm_own_free(d, idx);
	ism_sw_orphans_free(&d->orphans, shm_mem_free);
	shm_view_free(d->own_view);
	rte_free(d->own);
	rte_free(d->sba);
	d->own_view = NULL;
	d->own = NULL;
	d->sba = NULL;
	pthread_mutex_destroy(&d->op_lock);
}

static const struct ism_backend shm_backend = {
	.name = "shm",
	.ops = &shm_ops,
	.close = shm_close,
	.nb_xstats = RTE_DIM(shm_xstat_names),
	.xstat_names = shm_xstat_names,
	.xstat_get = shm_xstat_get,
	.xstat_gauges = RTE_BIT64(0),	/* peers: a level, never reset */
};

/* The devargs cap max_dmb_len at what the wire format takes. */
_Static_assert(ISM_SW_MAX_DMB_LEN <= SHM_MAX_DMB_LEN, "max_dmb_len cap");

static const char *const shm_valid_args[] = {
	"dir", "gid", "chid", "max_dmbs", "max_dmb_len", "allow_uid",
	"allow_gid", "socket", NULL
};

/*
 * Every DMB keeps one fd. Make room for the ones this device may need if
 * the hard limit allows (the soft limit is often 1024).
 */
static void
raise_fd_limit(const char *name, uint32_t max_dmbs)
{
	struct rlimit rl;
	rlim_t want;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	want = rl.rlim_cur + max_dmbs + 4 * SHM_MAX_SLOTS;
	if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
		want = rl.rlim_max;
	if (want <= rl.rlim_cur)
		return;
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
		ISM_PMD_LOG(INFO, "%s: open-file limit raised to %" PRIu64
			    " for DMB memfds", name, (uint64_t)want);
}

/* Publish our own memory, listen, greet every device found. */
static int
shm_start(struct shm_dev *d, struct shm_fabric_peer *fp, unsigned int nfp,
		int lfd)
{
	uint64_t ids[SHM_MAX_SLOTS];
	struct shm_peer *p;
	unsigned int i, n = 0;
	int ret;

	shm_ctl_lock();
	d->own_view->sba = d->sba;
	shm_view_publish(d, d->slot, d->own_view);
	rte_atomic_store_explicit(&d->rx_sba[d->slot], d->sba, rte_memory_order_release);
	rte_atomic_fetch_or_explicit(&d->rx_active, RTE_BIT64(d->slot), rte_memory_order_release);
	ret = shm_listen_start(d, lfd);
	for (i = 0; i < nfp; i++) {
		if (ret < 0) {
			close(fp[i].fd);
			continue;
		}
		p = shm_conn_new(d, fp[i].fd, true);
		if (p == NULL)
			continue;
		p->gid = fp[i].gid;
		p->slot = fp[i].slot;
		p->pid = fp[i].pid;
		if (shm_peer_greet(p) < 0)
			shm_peer_down(p, SHM_DOWN_LOST);
		else
			ids[n++] = p->id;
	}
	/* Up when each has answered with its own HELLO .. READY. */
	if (ret == 0)
		shm_wait_up(d, ids, n);
	shm_ctl_unlock();
	return ret;
}

static int
shm_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct ism_common_args a = {
		.max_dmbs = ISM_DEFAULT_MAX_DMBS,
		.max_dmb_len = ISM_DEFAULT_MAX_DMB_LEN,
	};
	struct shm_fabric_peer fp[SHM_MAX_SLOTS];
	char dir[PATH_MAX];
	struct rte_kvargs *kv;
	struct rte_ism_dev *ism;
	struct shm_dev *d;
	int socket = rte_socket_id();
	unsigned int nfp, i;
	uint32_t uid[SHM_MAX_ALLOW], gid[SHM_MAX_ALLOW];
	int ret, lfd, nb_uid, nb_gid;
	bool chid_set;
	const char *v;

	/* A secondary process sees the primary's device, read-only (it has
	 * no devargs: the bus gives the name only). */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return ism_pmd_attach_secondary(name, &vdev->device);
	kv = ism_kvargs_parse(name, rte_vdev_device_args(vdev),
			shm_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(name, kv, &a);
	if (ret == 0)
		ret = ism_socket_arg_get(name, kv, &socket);
	v = rte_kvargs_get(kv, "dir");
	if (ret == 0 && (v == NULL || v[0] == '\0')) {
		ISM_PMD_LOG(ERR, "%s: devarg dir=<rendezvous directory> is "
			    "required", name);
		ret = -EINVAL;
	}
	if (ret == 0)
		snprintf(dir, sizeof(dir), "%s", v);
	chid_set = rte_kvargs_get(kv, "chid") != NULL;
	nb_uid = nb_gid = 0;
	v = rte_kvargs_get(kv, "allow_uid");
	if (ret == 0 && v != NULL && (nb_uid = shm_policy_parse(v, uid)) < 0)
		ret = -EINVAL;
	v = rte_kvargs_get(kv, "allow_gid");
	if (ret == 0 && v != NULL && (nb_gid = shm_policy_parse(v, gid)) < 0)
		ret = -EINVAL;
	if (nb_uid < 0 || nb_gid < 0)
		ISM_PMD_LOG(ERR, "%s: allow_uid= and allow_gid= take up to %d "
			    "numeric ids: 1000, or [1000,1001], or 1000:1001",
			    name, SHM_MAX_ALLOW);
	rte_kvargs_free(kv);
	if (ret < 0)
		return ret;
	if (a.gid.gid == 0 && a.gid.gid_ext == 0)
		ism_random_gid(&a.gid);
	raise_fd_limit(name, a.max_dmbs);

	d = (struct shm_dev *)ism_pmd_create(name, socket, &vdev->device,
			SHM_DRIVER_NAME, &shm_backend, sizeof(*d));
	if (d == NULL)
		return -rte_errno;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->gid = a.gid;
	d->chid = a.chid;
	d->max_dmbs = a.max_dmbs;
	d->max_dmb_len = a.max_dmb_len;
	memcpy(d->allow_uid, uid, nb_uid * sizeof(uid[0]));
	memcpy(d->allow_gid, gid, nb_gid * sizeof(gid[0]));
	d->nb_allow_uid = nb_uid;
	d->nb_allow_gid = nb_gid;
	d->slot = SHM_NO_SLOT;
	d->dirfd = -1;
	d->reaper_fd = -1;
	ism_sw_ids_init(&d->ids, a.max_dmbs);
	TAILQ_INIT(&d->conns);
	TAILQ_INIT(&d->orphans);
	TAILQ_INIT(&d->reclaim);
	STAILQ_INIT(&d->outbox);
	pthread_mutex_init(&d->op_lock, NULL);
	memset(d->writer_slot, SHM_NO_SLOT, sizeof(d->writer_slot));
	for (i = 0; i < SHM_MAX_SLOTS; i++)
		d->fp_ent[i] = shm_no_ent;
	d->own = rte_zmalloc_socket("ism_shm_own", sizeof(*d->own) *
			(SHM_IDX_FIRST + a.max_dmbs), 0, socket);
	d->sba = rte_zmalloc_socket("ism_shm_sba", sizeof(*d->sba), 0, socket);
	d->own_view = shm_view_new(a.max_dmbs);
	if (d->own == NULL || d->sba == NULL || d->own_view == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory for the DMB tables", name);
		ret = -ENOMEM;
		goto err;
	}
	ret = shm_fabric_open(d, dir, chid_set);
	if (ret < 0)
		goto err;
	ret = shm_ctl_attach(d);
	if (ret < 0)
		goto err;
	ret = shm_fabric_join(d, fp, &nfp, &lfd);
	if (ret < 0)
		goto err;
	ret = shm_start(d, fp, nfp, lfd);
	if (ret < 0)
		goto err;

	ism = d->common.ism;
	ism->gid = d->gid;
	ism->chid = d->chid;
	ism->max_dmbs = d->max_dmbs;
	ism->max_dmb_len = d->max_dmb_len;
	ism->capa = RTE_ISM_CAPA_NOCOPY | RTE_ISM_CAPA_SIGNAL_EVENT |
		RTE_ISM_CAPA_CROSS_PROCESS;
	/* The fast path assumes membarrier(2) (ism_sw_move_data_fast). */
	ism->fp.move_data = rte_ism_pmd_need_fence ? shm_move_data_full :
		shm_move_data;
	ism->fp.move_burst = shm_move_burst;
	ism->fp.signal_poll = shm_signal_poll;
	ret = ism_pmd_finish(&d->common);
	if (ret < 0)
		goto err;
	ISM_PMD_LOG(INFO, "%s: shm ISM device %u in %s (chid 0x%04x, slot %u), "
		    "%u DMBs of up to %u bytes, %u peers", name, ism->dev_id,
		    d->dir, d->chid, d->slot, d->max_dmbs, d->max_dmb_len,
		    (unsigned int)shm_xstat_get(&d->common, 0));
	return 0;
err:
	ism_pmd_destroy(&d->common);
	return ret;
}

static struct rte_vdev_driver ism_shm_driver = {
	.probe = shm_probe,
	.remove = ism_pmd_vdev_remove,
};

RTE_PMD_REGISTER_VDEV(ism_shm, ism_shm_driver);
RTE_PMD_REGISTER_PARAM_STRING(ism_shm,
	"dir=<rendezvous directory> gid=<0x hex|32 hex|uuid> "
	"chid=<0..65535> max_dmbs=<1..4064> max_dmb_len=<bytes> "
	"allow_uid=<uid|[uid,...]> allow_gid=<gid|[gid,...]> "
	"socket=<NUMA node>");
