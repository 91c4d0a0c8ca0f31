/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * An shm device: setting it up and closing it, its xstats, and its fast
 * path. See ism_shm.h for the design and the layers.
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

#include "ism_log_rl.h"
#include "ism_shm.h"
#include "ism_shm_ops.h"
#include "ism_shm_peer.h"
#include "ism_shm_wake.h"
#include "ism_sw_move.h"

static inline int
shm_lookup(const struct ism_shm_dev *d, uint64_t token,
		const struct shm_view **vp, const struct ism_sw_view_ent **ep)
{
	uint32_t idx = ism_sw_tok_idx(token);
	const struct shm_view *v;
	const struct ism_sw_view_ent *e;

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
	const struct ism_sw_view_ent *e;
	const struct shm_view *v;
	int ret = shm_lookup(ctx, token, &v, &e);

	if (likely(ret == 0)) {
		t->addr = e->addr;
		t->len = e->len;
		t->dmb_idx = ism_sw_tok_idx(token);
		t->sba = v->sba;
		t->wake = rte_atomic_load_explicit(&v->wake,
				rte_memory_order_acquire);
	}
	return ret;
}

/* Fast-path resolution (ism_sw_move_data_fast): fp_ent[] holds a table
 * of SHM_NB_IDX entries for every slot (ism_sw_view.h).
 */
static __rte_always_inline bool
shm_find(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	const struct ism_shm_dev *d = ctx;

	return ism_sw_view_find(d->fp_ent, token, t);
}

/* Every other case (non-EAL threads, errors, the fence fallback), signalled
 * or not.
 */
static __rte_noinline int
shm_move_data_full(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data(ctx, shm_target, token, idx, sf, offset, data,
			len);
}

/* A signalled move: lookup with the SBA and the wake-up, then the raise. */
static __rte_noinline int
shm_move_data_sig(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_signal_fast(ctx, shm_target, shm_move_data_full,
			token, idx, sf, offset, data, len);
}

static int
shm_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data_fast(ctx, shm_find, shm_move_data_sig,
			shm_move_data_full, token, idx, sf, offset, data, len);
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
shm_poll_sba(struct ism_shm_dev *d, unsigned int wslot, struct ism_sw_sba *sba,
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
		 * poll reports indices below SHM_NB_IDX only.
		 */
		if (rte_atomic_load_explicit(&d->writer_slot[idx], rte_memory_order_relaxed) ==
		    wslot)
			sigs[n++] = sigs[i];
	}
	return n;
}

/* Visits our own SBA and one per writer peer: the cost depends on the
 * number of peers, not of DMBs. Starts where the last full poll stopped.
 */
static int
shm_signal_poll(void *ctx, struct rte_ism_signal *sigs, uint16_t nb)
{
	struct ism_shm_dev *d = ctx;
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
	struct ism_shm_dev *d = (struct ism_shm_dev *)common;
	struct ism_shm_peer *p;
	uint64_t v = 0;

	ism_shm_ctl_lock();
	switch (i) {
	case 0:
		ISM_SHM_PEER_FOREACH(p, d)
			v += p->up;
		break;
	case 1:
		v = d->conns.protocol_errors;
		break;
	case 2:
		ISM_SHM_PEER_FOREACH(p, d)
			v += !p->up;
		break;
	case 3:
		v = d->conns.handshakes_expired;
		break;
	case 4:
		v = d->conns.refused;
		break;
	case 5:
		ISM_SHM_PEER_FOREACH(p, d)
			v += p->c.unresponsive;
		break;
	case 6:
		v = d->ev.summarised;
		break;
	case 7:
		v = d->ev.held;
		break;
	case 8:
		v = d->ev.lost;
		break;
	default:
		v = ism_shm_loop_work_max();
		break;
	}
	ism_shm_ctl_unlock();
	return v;
}

/* Leave the fabric (good-bye to every peer) and free everything. */
static void
shm_close(struct ism_pmd_dev *common)
{
	struct ism_shm_dev *d = (struct ism_shm_dev *)common;
	uint64_t ids[2 * SHM_MAX_SLOTS];
	int status[2 * SHM_MAX_SLOTS];
	struct ism_shm_peer *p, *tmp;
	struct shm_msg m;
	unsigned int n = 0;
	uint32_t idx, seq;

	if (d->ticker.attached) {
		/* op_lock: the wait is for one op at a time (the control
		 * thread takes only the control lock: no deadlock).
		 */
		ism_shm_op_lock(d);
		/* Peers drop our DMBs and post their events before they
		 * answer, so they are done when we go.
		 */
		seq = ism_shm_next_seq(d);
		ISM_SHM_PEER_FOREACH(p, d) {
			if (!p->up)
				continue;
			ism_shm_msg_init(&m, SHM_MSG_BYE, seq);
			if (ism_shm_conn_send(&p->c, &m, -1) == 0)
				ids[n++] = p->c.id;
		}
		ism_shm_conn_wait_answers(&d->conns, seq, ids, status, n);
		ISM_SHM_PEER_FOREACH_SAFE(p, d, tmp)
			ism_shm_peer_down(p, ISM_SHM_DOWN_CLOSE);
		ism_shm_conn_listen_stop(&d->conns);
		ism_shm_reclaim(d);
		ism_shm_events_free(&d->ev);
		ism_shm_op_unlock(d);
	}
	ism_shm_fabric_leave(&d->fab);
	ism_shm_loop_detach(&d->ticker);
	for (idx = SHM_IDX_FIRST; d->own != NULL &&
	     idx < SHM_IDX_FIRST + d->max_dmbs; idx++)
		if (d->own[idx].token != 0)
			ism_shm_own_free(d, idx);
	ism_sw_orphans_free(&d->orphans, ism_shm_mem_free);
	ism_shm_view_free(d->own_view);
	/* Our flag is in sba; nobody raises there any more. */
	ism_shm_wake_fini(d);
	rte_free(d->own);
	rte_free(d->sba);
	d->own_view = NULL;
	d->own = NULL;
	d->sba = NULL;
	pthread_mutex_destroy(&d->op_lock);
}

const struct ism_backend ism_shm_backend = {
	.name = "shm",
	.ops = &ism_shm_ops,
	.close = shm_close,
	.nb_xstats = RTE_DIM(shm_xstat_names),
	.xstat_names = shm_xstat_names,
	.xstat_get = shm_xstat_get,
	.xstat_gauges = RTE_BIT64(0),	/* peers: a level, never reset */
};

/* Publish our own memory, listen, greet every device found. */
static int
shm_start(struct ism_shm_dev *d, struct ism_shm_fabric_peer *fp,
		unsigned int nfp, int lfd)
{
	uint64_t ids[SHM_MAX_SLOTS];
	struct ism_shm_peer *p;
	unsigned int i, n = 0;
	int ret;

	ism_shm_ctl_lock();
	d->own_view->sba = d->sba;
	d->own_view->wake = &d->wake.self;
	ism_shm_view_publish(d, d->slot, d->own_view);
	rte_atomic_store_explicit(&d->rx_sba[d->slot], d->sba,
			rte_memory_order_release);
	rte_atomic_fetch_or_explicit(&d->rx_active, RTE_BIT64(d->slot),
			rte_memory_order_release);
	ret = ism_shm_conn_listen(&d->conns, lfd);
	for (i = 0; i < nfp; i++) {
		if (ret < 0) {
			close(fp[i].fd);
			continue;
		}
		p = ism_shm_peer_connect(d, fp[i].fd, fp[i].slot, &fp[i].gid,
				fp[i].pid);
		if (p != NULL)
			ids[n++] = p->c.id;
	}
	/* Up when each has answered with its own HELLO .. READY. */
	if (ret == 0)
		ism_shm_conn_wait_up(&d->conns, ids, n);
	ism_shm_ctl_unlock();
	return ret;
}

int
ism_shm_dev_setup(struct ism_shm_dev *d, const struct ism_shm_args *a)
{
	struct ism_shm_fabric_peer fp[SHM_MAX_SLOTS];
	int socket = d->common.ism->socket_id;
	struct rte_ism_dev *ism;
	unsigned int nfp, i;
	int ret, lfd;

	d->gid = a->common.gid;
	d->max_dmbs = a->common.max_dmbs;
	d->max_dmb_len = a->common.max_dmb_len;
	d->slot = ISM_SHM_NO_SLOT;
	d->pol.name = d->name;
	memcpy(d->pol.allow_uid, a->allow_uid, sizeof(a->allow_uid));
	memcpy(d->pol.allow_gid, a->allow_gid, sizeof(a->allow_gid));
	d->pol.nb_allow_uid = a->nb_allow_uid;
	d->pol.nb_allow_gid = a->nb_allow_gid;
	ism_shm_fabric_init(&d->fab, d->name, &d->pol, &d->gid,
			a->common.chid);
	ism_shm_conns_init(&d->conns, d->name, &ism_shm_peer_conn_ops, &d->pol,
			d);
	ism_shm_events_init(&d->ev, d->common.ism, d->name);
	d->ticker.tick = ism_shm_dev_tick;
	d->ticker.arg = d;
	ism_sw_ids_init(&d->ids, d->max_dmbs);
	TAILQ_INIT(&d->orphans);
	TAILQ_INIT(&d->reclaim);
	pthread_mutex_init(&d->op_lock, NULL);
	memset(d->writer_slot, ISM_SHM_NO_SLOT, sizeof(d->writer_slot));
	for (i = 0; i < SHM_MAX_SLOTS; i++)
		d->fp_ent[i] = ism_sw_view_no_ent;
	d->own = rte_zmalloc_socket("ism_shm_own", sizeof(*d->own) *
			(SHM_IDX_FIRST + d->max_dmbs), 0, socket);
	d->sba = rte_zmalloc_socket("ism_shm_sba", sizeof(*d->sba), 0, socket);
	d->own_view = ism_shm_view_new(d->max_dmbs);
	if (d->own == NULL || d->sba == NULL || d->own_view == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory for the DMB tables", d->name);
		return -ENOMEM;
	}
	ret = ism_shm_wake_init(d);
	if (ret < 0)
		return ret;
	ret = ism_shm_policy_ids_init(&d->pol);
	if (ret < 0)
		return ret;
	ret = ism_shm_fabric_open(&d->fab, a->dir, a->chid_set);
	if (ret < 0)
		return ret;
	d->chid = d->fab.chid;
	ret = ism_shm_loop_attach(&d->ticker);
	if (ret < 0)
		return ret;
	ret = ism_shm_fabric_join(&d->fab, fp, &nfp, &lfd);
	if (ret < 0)
		return ret;
	d->slot = d->fab.slot;
	ret = shm_start(d, fp, nfp, lfd);
	if (ret < 0)
		return ret;

	ism = d->common.ism;
	ism->gid = d->gid;
	ism->chid = d->chid;
	ism->max_dmbs = d->max_dmbs;
	ism->max_dmb_len = d->max_dmb_len;
	ism->capa = RTE_ISM_CAPA_NOCOPY | RTE_ISM_CAPA_SIGNAL_EVENT |
		RTE_ISM_CAPA_CROSS_PROCESS | RTE_ISM_CAPA_INTR;
	/* The fast path assumes membarrier(2) (ism_sw_move_data_fast). */
	ism->fp.move_data = rte_ism_pmd_need_fence ? shm_move_data_full :
		shm_move_data;
	ism->fp.move_burst = shm_move_burst;
	ism->fp.signal_poll = shm_signal_poll;
	ISM_PMD_LOG(INFO, "%s: shm ISM device %u in %s (chid 0x%04x, slot %u), "
		    "%u DMBs of up to %u bytes, %u peers", d->name,
		    ism->dev_id, d->fab.dir, d->chid, d->slot, d->max_dmbs,
		    d->max_dmb_len, (unsigned int)shm_xstat_get(&d->common, 0));
	return 0;
}
