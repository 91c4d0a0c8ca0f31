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
#include <rte_random.h>
#include <bus_vdev_driver.h>

#include "ism_shm.h"
#include "ism_sw_move.h"

static inline int
shm_lookup(const struct shm_dev *d, uint64_t token,
		const struct shm_view **vp, const struct shm_view_ent **ep)
{
	uint32_t idx = shm_tok_idx(token);
	const struct shm_view *v;
	const struct shm_view_ent *e;

	v = __atomic_load_n(&d->views[shm_tok_slot(token)], __ATOMIC_ACQUIRE);
	if (unlikely(v == NULL || idx - SHM_IDX_FIRST >= v->max_dmbs))
		return -ENOENT;
	e = &v->ent[idx];
	if (unlikely(__atomic_load_n(&e->token, __ATOMIC_ACQUIRE) != token))
		return -ENOENT;
	if (unlikely(!e->writable))
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
		t->dmb_idx = shm_tok_idx(token);
		t->sba = v->sba;
	}
	return ret;
}

static int
shm_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data(ctx, shm_target, token, idx, sf, offset, data,
			len);
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
		if (__atomic_load_n(&d->writer_slot[idx], __ATOMIC_RELAXED) ==
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
	act = __atomic_load_n(&d->rx_active, __ATOMIC_ACQUIRE);
	hi = act & (UINT64_MAX << start);
	act &= ~(UINT64_MAX << start);
	while ((hi | act) != 0 && n < nb) {
		if (hi == 0) {
			hi = act;
			act = 0;
		}
		s = rte_bsf64(hi);
		hi &= hi - 1;
		sba = __atomic_load_n(&d->rx_sba[s], __ATOMIC_ACQUIRE);
		if (sba != NULL)
			n += shm_poll_sba(d, s, sba, sigs + n, nb - n);
		if (n == nb)
			d->poll_next = s + 1;
	}
	rte_ism_pmd_move_exit(slot);
	return n;
}

/* Control ops. */

/* Wait for the answers to a request sent to n connections. */
static void
wait_all(struct shm_dev *d, uint32_t seq, const uint64_t *ids, unsigned int n)
{
	int status[2 * SHM_MAX_SLOTS];

	shm_wait_answers(d, seq, ids, status, n);
}

static void
op_lock(struct shm_dev *d)
{
	pthread_mutex_lock(&d->op_lock);
	pthread_mutex_lock(&shm_ctl.lock);
}

static void
op_unlock(struct shm_dev *d)
{
	pthread_mutex_unlock(&shm_ctl.lock);
	pthread_mutex_unlock(&d->op_lock);
}

/* The answer of the DMB's writer (rgid) among n answers: an error means
 * it could not map the DMB (out of memory or fds there). Not answering in
 * time is logged and not held against the registration; the answers of
 * other peers do not count. */
static int
writer_status(struct shm_dev *d, const struct rte_ism_gid *rgid,
		const uint64_t *ids, const int *status, unsigned int n)
{
	struct shm_peer *p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (status[i] >= 0 || status[i] == -ETIMEDOUT)
			continue;
		p = shm_conn_find(d, ids[i]);
		if (p != NULL && rte_ism_gid_equal(&p->gid, rgid))
			return status[i];
	}
	return 0;
}

static int dmb_unregister(struct shm_dev *d, uint64_t token);

static int
shm_dmb_register(struct rte_ism_dev *idev, struct rte_ism_dmb *req)
{
	struct shm_dev *d = shm_dev_of(idev);
	uint32_t idx, end = SHM_IDX_FIRST + d->max_dmbs;
	uint64_t ids[2 * SHM_MAX_SLOTS];
	int status[2 * SHM_MAX_SLOTS];
	struct shm_view_ent *e;
	struct shm_own_dmb *o;
	char mname[32];
	struct shm_msg m;
	unsigned int n;
	uint32_t rnd, seq;
	int ret;

	op_lock(d);
	if (req->idx != 0) {
		idx = req->idx;
		if (d->own[idx].token != 0) {
			ISM_PMD_LOG(ERR, "%s: DMB index %u is in use", d->name,
				    idx);
			ret = -EBUSY;
			goto out;
		}
	} else {
		for (idx = SHM_IDX_FIRST; idx < end; idx++)
			if (d->own[idx].token == 0)
				break;
		if (idx == end) {
			ISM_PMD_LOG(ERR, "%s: all %u DMB indices are in use",
				    d->name, d->max_dmbs);
			ret = -ENOSPC;
			goto out;
		}
	}
	o = &d->own[idx];
	do {
		rnd = rte_rand() & SHM_TOK_RND_MASK;
	} while (rnd == o->last_rnd);
	o->token = shm_tok_make(d->slot, idx, rnd);
	snprintf(mname, sizeof(mname), "ism_dmb_%016" PRIx64, o->token);
	ret = shm_memfd_new(mname, req->len, &o->fd, &o->addr);
	if (ret < 0) {
		o->token = 0;
		o->fd = -1;
		goto out;
	}
	o->last_rnd = rnd;
	o->len = req->len;
	o->map_len = shm_map_len(req->len);
	o->rgid = req->rgid;
	o->attach_cnt = 0;
	o->registered = true;
	d->writer_slot[idx] = shm_writer_slot(d, &req->rgid);

	e = &d->own_view->ent[idx];
	e->addr = o->addr;
	e->len = o->len;
	e->writable = rte_ism_gid_equal(&req->rgid, &d->gid);
	__atomic_store_n(&e->token, o->token, __ATOMIC_RELEASE);

	/* Tell everyone it exists; the rgid gets the memfd. When they have
	 * answered, the writer can use the token. */
	shm_msg_init(&m, SHM_MSG_DMB_ADD, 0);
	m.u.dmb.token = o->token;
	m.u.dmb.idx = idx;
	m.u.dmb.len = o->len;
	m.u.dmb.rgid.gid = o->rgid.gid;
	m.u.dmb.rgid.gid_ext = o->rgid.gid_ext;
	seq = shm_announce(d, &m, ids, &n, true);
	shm_wait_answers(d, seq, ids, status, n);
	ret = writer_status(d, &req->rgid, ids, status, n);
	if (ret < 0) {
		/* Its token would not work for the writer: undo. */
		ISM_PMD_LOG(ERR, "%s: the writer cannot map DMB %u (%s): "
			    "registration undone", d->name, idx,
			    strerror(-ret));
		dmb_unregister(d, o->token);
		ret = -ENOMEM;
		goto out;
	}

	req->token = o->token;
	req->addr = o->addr;
	req->idx = idx;
	ret = 0;
out:
	op_unlock(d);
	return ret;
}

/* Unregister own DMB token; op_lock() held. */
static int
dmb_unregister(struct shm_dev *d, uint64_t token)
{
	uint64_t ids[2 * SHM_MAX_SLOTS];
	uint32_t idx = shm_tok_idx(token), seq;
	struct shm_own_dmb *o;
	struct shm_msg m;
	unsigned int n;
	uint8_t ws;

	o = shm_own_find(d, token);
	if (o == NULL || !o->registered)
		return -ENOENT;
	o->registered = false;
	__atomic_store_n(&d->own_view->ent[idx].token, 0, __ATOMIC_RELEASE);
	ws = d->writer_slot[idx];
	d->writer_slot[idx] = SHM_NO_SLOT;

	/* When the writer answers, it has stopped using the token. */
	shm_msg_init(&m, SHM_MSG_DMB_DEL, 0);
	m.u.tok.token = token;
	seq = shm_announce(d, &m, ids, &n, false);
	wait_all(d, seq, ids, n);
	rte_ism_pmd_synchronize();

	/* No late signal of this DMB is reported for the next one. */
	if (ws != SHM_NO_SLOT && d->rx_sba[ws] != NULL)
		ism_sw_sba_clear(d->rx_sba[ws], idx);
	ism_sw_sba_clear(d->sba, idx);
	/* An attached DMB lives on until the writer detaches (which may
	 * have happened while we waited: then it is freed already). */
	if (o->token == token && o->attach_cnt == 0)
		shm_own_free(d, idx);
	return 0;
}

static int
shm_dmb_unregister(struct rte_ism_dev *idev, uint64_t token)
{
	struct shm_dev *d = shm_dev_of(idev);
	int ret;

	op_lock(d);
	ret = dmb_unregister(d, token);
	op_unlock(d);
	return ret;
}

/* Send a request about a token to p; its seq, or 0 if it failed. */
static uint32_t
send_token(struct shm_dev *d, struct shm_peer *p, enum shm_msg_type type,
		uint64_t token)
{
	struct shm_msg m;

	shm_msg_init(&m, type, shm_next_seq(d));
	m.u.tok.token = token;
	return shm_send(p, &m, -1) < 0 ? 0 : m.hdr.seq;
}

/* Ask the owner of a DMB (request type) and wait for its answer. */
static int
ask_owner(struct shm_dev *d, struct shm_peer *p, enum shm_msg_type type,
		uint64_t token)
{
	uint32_t seq = send_token(d, p, type, token);
	uint64_t id = p->id;
	int status;

	if (seq == 0)
		return -ENOMEM;
	shm_wait_answers(d, seq, &id, &status, 1);
	return status;
}

static void
fill_attached(struct rte_ism_dmb *out, uint64_t token, void *addr,
		uint32_t len, const struct rte_ism_gid *rgid)
{
	out->token = token;
	out->addr = addr;
	out->len = len;
	out->idx = shm_tok_idx(token);
	out->rgid = *rgid;
}

/* Drop one local attachment of a remote DMB; false if there is none. */
static bool
detach_local(struct shm_dev *d, uint64_t token)
{
	unsigned int oslot = shm_tok_slot(token);
	uint32_t idx = shm_tok_idx(token);
	struct shm_view *v = d->views[oslot];
	struct shm_orphan *orph;
	struct shm_view_ctl *c;

	if (v != NULL && idx - SHM_IDX_FIRST < v->max_dmbs &&
	    v->ctl[idx].id_token == token && v->ctl[idx].attach_cnt > 0) {
		c = &v->ctl[idx];
		/* Still mapped for moves unless the owner revoked it. */
		if (--c->attach_cnt == 0 && v->ent[idx].token != token) {
			shm_unmap(c->addr, c->map_len);
			memset(c, 0, sizeof(*c));
		}
		return true;
	}
	TAILQ_FOREACH(orph, &d->orphans, next) {
		if (orph->token != token)
			continue;
		if (--orph->attach_cnt == 0) {
			TAILQ_REMOVE(&d->orphans, orph, next);
			shm_unmap(orph->addr, orph->map_len);
			free(orph);
		}
		return true;
	}
	return false;
}

static int
shm_dmb_attach(struct rte_ism_dev *idev, uint64_t token,
		struct rte_ism_dmb *out)
{
	struct shm_dev *d = shm_dev_of(idev);
	uint32_t idx = shm_tok_idx(token);
	unsigned int oslot = shm_tok_slot(token);
	struct shm_own_dmb *o;
	struct shm_view *v;
	struct shm_view_ctl *c;
	struct shm_peer *p;
	uint64_t id;
	int ret;

	op_lock(d);
	if (oslot == d->slot) {
		o = shm_own_find(d, token);
		ret = o == NULL || !o->registered ? -ENOENT :
			!rte_ism_gid_equal(&o->rgid, &d->gid) ? -EACCES : 0;
		if (ret == 0) {
			o->attach_cnt++;
			fill_attached(out, token, o->addr, o->len, &d->gid);
		}
		goto out;
	}
	v = d->views[oslot];
	p = d->peers[oslot];
	if (v == NULL || p == NULL || idx - SHM_IDX_FIRST >= v->max_dmbs ||
	    v->ent[idx].token != token) {
		ret = -ENOENT;
		goto out;
	}
	if (!v->ent[idx].writable) {
		ret = -EACCES;
		goto out;
	}
	/* Counted before asking, so that an unregister crossing our
	 * request keeps the mapping; undone if the owner says no. */
	c = &v->ctl[idx];
	c->attach_cnt++;
	fill_attached(out, token, c->addr, v->ent[idx].len, &d->gid);
	id = p->id;
	ret = ask_owner(d, p, SHM_MSG_ATTACH, token);
	if (ret == 0)
		goto out;
	/* Refused, or the owner left meanwhile (then it is an orphan), or
	 * it did not answer: undo; a DETACH behind the ATTACH keeps a slow
	 * owner's count right. */
	detach_local(d, token);
	p = shm_conn_find(d, id);
	if (ret == -ETIMEDOUT && p != NULL)
		send_token(d, p, SHM_MSG_DETACH, token);
	if (ret == -ENETUNREACH)
		ret = -ENOENT;
out:
	op_unlock(d);
	return ret;
}

static int
shm_dmb_detach(struct rte_ism_dev *idev, uint64_t token)
{
	struct shm_dev *d = shm_dev_of(idev);
	unsigned int oslot = shm_tok_slot(token);
	uint32_t idx = shm_tok_idx(token);
	struct shm_view *v;
	struct shm_own_dmb *o;
	struct shm_peer *p;
	bool owner_knows;
	int ret = 0;

	op_lock(d);
	if (oslot == d->slot) {
		o = shm_own_find(d, token);
		if (o == NULL || o->attach_cnt == 0 ||
		    !rte_ism_gid_equal(&o->rgid, &d->gid))
			ret = -ENOENT;
		else if (--o->attach_cnt == 0 && !o->registered)
			shm_own_free(d, idx);
		goto out;
	}
	v = d->views[oslot];
	p = d->peers[oslot];
	owner_knows = v != NULL && idx - SHM_IDX_FIRST < v->max_dmbs &&
		v->ctl[idx].id_token == token && p != NULL;
	/* Ours first: once the owner has our answer it may reuse the
	 * index, and its next DMB_ADD there must find it clean. */
	if (!detach_local(d, token))
		ret = -ENOENT;
	else if (owner_knows)
		ask_owner(d, p, SHM_MSG_DETACH, token);
out:
	op_unlock(d);
	return ret;
}

static int
shm_signal_event(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	struct shm_dev *d = shm_dev_of(idev);
	struct shm_peer *p;
	struct shm_msg m;
	uint64_t id;
	int ret;

	op_lock(d);
	if (rte_ism_gid_equal(rgid, &d->gid)) {
		ism_pmd_post(&d->common, RTE_ISM_EVENT_SW, code, &d->gid, 0,
			     info);
		ret = 0;
		goto out;
	}
	p = shm_peer_by_gid(d, rgid);
	if (p == NULL || !p->up) {
		ret = -ENETUNREACH;
		goto out;
	}
	shm_msg_init(&m, SHM_MSG_EVENT, shm_next_seq(d));
	m.u.event.code = code;
	m.u.event.info = info;
	m.u.event.trigger = trigger_irq != 0;
	ret = shm_send(p, &m, -1);
	if (ret < 0)
		goto out;
	id = p->id;
	shm_wait_answers(d, m.hdr.seq, &id, &ret, 1);
out:
	op_unlock(d);
	return ret;
}

static int
shm_query_remote_gid(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id __rte_unused)
{
	struct shm_dev *d = shm_dev_of(idev);
	struct shm_peer *p;
	int ret = 0;

	/* No VLANs here: no device is a member of any. */
	if (vlan_valid)
		return -ENETUNREACH;
	pthread_mutex_lock(&shm_ctl.lock);
	if (!rte_ism_gid_equal(rgid, &d->gid)) {
		p = shm_peer_by_gid(d, rgid);
		if (p == NULL || !p->up)
			ret = -ENETUNREACH;
	}
	pthread_mutex_unlock(&shm_ctl.lock);
	return ret;
}

static int
shm_dump(struct rte_ism_dev *idev, FILE *f)
{
	struct shm_dev *d = shm_dev_of(idev);
	char gid[RTE_ISM_GID_STRLEN];
	struct shm_own_dmb *o;
	struct shm_peer *p;
	uint32_t idx, n = 0;

	pthread_mutex_lock(&shm_ctl.lock);
	fprintf(f, "  shm fabric %s slot %u socket %s\n", d->dir, d->slot,
		d->sock_name);
	TAILQ_FOREACH(p, &d->conns, next) {
		rte_ism_gid_format(&p->gid, gid, sizeof(gid));
		fprintf(f, "  peer %s slot %d pid %d %s%s\n",
			p->hello_rcvd || p->initiator ? gid : "?",
			p->slot == SHM_NO_SLOT ? -1 : p->slot, (int)p->pid,
			p->up ? "up" : "handshake",
			p->initiator ? " (we connected)" : "");
	}
	for (idx = SHM_IDX_FIRST; idx < SHM_IDX_FIRST + d->max_dmbs; idx++) {
		o = &d->own[idx];
		if (o->token == 0)
			continue;
		rte_ism_gid_format(&o->rgid, gid, sizeof(gid));
		fprintf(f, "  dmb %u token 0x%016" PRIx64 " len %u rgid %s"
			"%s%s\n", idx, o->token, o->len, gid,
			o->registered ? "" : " unregistered",
			o->attach_cnt ? " attached" : "");
		n++;
	}
	fprintf(f, "  %u DMBs, %" PRIu64 " protocol errors\n", n,
		d->protocol_errors);
	pthread_mutex_unlock(&shm_ctl.lock);
	return 0;
}

static const struct rte_ism_dev_ops shm_ops = {
	.dmb_register = shm_dmb_register,
	.dmb_unregister = shm_dmb_unregister,
	.dmb_attach = shm_dmb_attach,
	.dmb_detach = shm_dmb_detach,
	.signal_event = shm_signal_event,
	.query_remote_gid = shm_query_remote_gid,
	.stats_get = ism_pmd_stats_get,
	.stats_reset = ism_pmd_stats_reset,
	.dump = shm_dump,
};

static const char *const shm_xstat_names[] = {
	"peers",
	"protocol_errors",
};

static uint64_t
shm_xstat_get(struct ism_pmd_dev *common, unsigned int i)
{
	struct shm_dev *d = (struct shm_dev *)common;
	struct shm_peer *p;
	uint64_t v = 0;

	pthread_mutex_lock(&shm_ctl.lock);
	if (i == 0) {
		TAILQ_FOREACH(p, &d->conns, next)
			v += p->up;
	} else {
		v = d->protocol_errors;
	}
	pthread_mutex_unlock(&shm_ctl.lock);
	return v;
}

/* Leave the fabric (good-bye to every peer) and free everything. */
static void
shm_close(struct ism_pmd_dev *common)
{
	struct shm_dev *d = (struct shm_dev *)common;
	uint64_t ids[2 * SHM_MAX_SLOTS];
	struct shm_peer *p, *tmp;
	struct shm_msg m;
	unsigned int n = 0;
	uint32_t idx, seq;

	if (d->attached) {
		/* op_lock: d->wait is for one op at a time (the control
		 * thread takes only shm_ctl.lock, so it cannot deadlock). */
		op_lock(d);
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
		wait_all(d, seq, ids, n);
		RTE_TAILQ_FOREACH_SAFE(p, &d->conns, next, tmp)
			shm_peer_down(p, SHM_DOWN_CLOSE);
		shm_watch_del(d->lw);
		d->lw = NULL;
		op_unlock(d);
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
	shm_orphans_free(d);
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
	"dir", "gid", "chid", "max_dmbs", "max_dmb_len", NULL
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

	pthread_mutex_lock(&shm_ctl.lock);
	d->own_view->sba = d->sba;
	__atomic_store_n(&d->views[d->slot], d->own_view, __ATOMIC_RELEASE);
	__atomic_store_n(&d->rx_sba[d->slot], d->sba, __ATOMIC_RELEASE);
	__atomic_fetch_or(&d->rx_active, RTE_BIT64(d->slot), __ATOMIC_RELEASE);
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
	pthread_mutex_unlock(&shm_ctl.lock);
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
	unsigned int nfp;
	bool chid_set;
	const char *v;
	int ret, lfd;

	kv = ism_kvargs_parse(name, rte_vdev_device_args(vdev),
			shm_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(name, kv, &a);
	v = rte_kvargs_get(kv, "dir");
	if (ret == 0 && (v == NULL || v[0] == '\0')) {
		ISM_PMD_LOG(ERR, "%s: devarg dir=<rendezvous directory> is "
			    "required", name);
		ret = -EINVAL;
	}
	if (ret == 0)
		snprintf(dir, sizeof(dir), "%s", v);
	chid_set = rte_kvargs_get(kv, "chid") != NULL;
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
	d->slot = SHM_NO_SLOT;
	d->dirfd = -1;
	d->wd_fd = -1;
	TAILQ_INIT(&d->conns);
	TAILQ_INIT(&d->orphans);
	pthread_mutex_init(&d->op_lock, NULL);
	memset(d->writer_slot, SHM_NO_SLOT, sizeof(d->writer_slot));
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
	ism->fp.move_data = shm_move_data;
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

static int
shm_remove(struct rte_vdev_device *vdev)
{
	struct ism_pmd_dev *dev = ism_pmd_find(rte_vdev_device_name(vdev));

	if (dev == NULL)
		return -ENODEV;
	ism_pmd_destroy(dev);
	return 0;
}

static struct rte_vdev_driver ism_shm_driver = {
	.probe = shm_probe,
	.remove = shm_remove,
};

RTE_PMD_REGISTER_VDEV(ism_shm, ism_shm_driver);
RTE_PMD_REGISTER_PARAM_STRING(ism_shm,
	"dir=<rendezvous directory> gid=<0x hex|32 hex|uuid> "
	"chid=<0..65535> max_dmbs=<1..4064> max_dmb_len=<bytes>");
