/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The control ops of an shm device (rte_ism_dev_ops). Each takes the
 * device's op lock (one op waiting for answers at a time) and
 * the control lock, sends its request to the peers concerned and waits for
 * their answers (ism_shm_conn.c bounds the wait).
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <ism_compat.h>

#include "ism_log_rl.h"
#include "ism_shm_mem.h"
#include "ism_shm_ops.h"
#include "ism_shm_peer.h"
#include "ism_shm_wake.h"

/* Wait for the answers to a request sent to n connections. */
static void
wait_all(struct ism_shm_dev *d, uint32_t seq, const uint64_t *ids,
		unsigned int n)
{
	int status[2 * SHM_MAX_SLOTS];

	ism_shm_conn_wait_answers(&d->conns, seq, ids, status, n);
}

void
ism_shm_op_lock(struct ism_shm_dev *d)
{
	pthread_mutex_lock(&d->op_lock);
	ism_shm_ctl_lock();
}

void
ism_shm_op_unlock(struct ism_shm_dev *d)
{
	ism_shm_ctl_unlock();
	pthread_mutex_unlock(&d->op_lock);
}

/* The answer of the DMB's writer (rgid) among n answers: an error means
 * it could not map the DMB (out of memory or fds there). Not answering in
 * time is logged and not held against the registration; the answers of
 * other peers do not count.
 */
static int
writer_status(struct ism_shm_dev *d, const struct rte_ism_gid *rgid,
		const uint64_t *ids, const int *status, unsigned int n)
{
	struct ism_shm_peer *p;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (status[i] >= 0 || status[i] == -ETIMEDOUT)
			continue;
		p = ism_shm_peer_of(ism_shm_conn_find(&d->conns, ids[i]));
		if (p != NULL && rte_ism_gid_equal(&p->gid, rgid))
			return status[i];
	}
	return 0;
}

static int dmb_unregister(struct ism_shm_dev *d, uint64_t token);

static int
shm_dmb_register(struct rte_ism_dev *idev, struct rte_ism_dmb *req)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	uint64_t ids[2 * SHM_MAX_SLOTS], token;
	int status[2 * SHM_MAX_SLOTS];
	struct ism_sw_view_ent *e;
	struct shm_own_dmb *o;
	char mname[32];
	struct shm_msg m;
	unsigned int n;
	uint32_t idx, seq;
	int ret;

	ism_shm_op_lock(d);
	ret = ism_sw_ids_take(&d->ids, req->idx, d->name);
	if (ret < 0)
		goto out;
	idx = ret;
	o = &d->own[idx];
	token = ism_sw_ids_token(&d->ids, d->slot, idx);
	snprintf(mname, sizeof(mname), "ism_dmb_%016" PRIx64, token);
	ret = ism_shm_memfd_new(mname, req->len, idev->socket_id, &o->fd,
			&o->addr);
	if (ret < 0) {
		o->fd = -1;
		ism_sw_ids_put(&d->ids, idx);
		goto out;
	}
	o->token = token;
	o->len = req->len;
	o->map_len = ism_shm_map_len(req->len);
	o->rgid = req->rgid;
	o->attach_cnt = 0;
	o->registered = true;
	d->writer_slot[idx] = ism_shm_writer_slot(d, &req->rgid);

	e = &d->own_view->ent[idx];
	e->addr = o->addr;
	e->len = o->len;
	e->writable = rte_ism_gid_equal(&req->rgid, &d->gid);
	rte_atomic_store_explicit(&e->token, o->token, rte_memory_order_release);

	/* Tell everyone it exists; the rgid gets the memfd. When they have
	 * answered, the writer can use the token.
	 */
	ism_shm_msg_init(&m, SHM_MSG_DMB_ADD, 0);
	m.u.dmb.token = o->token;
	m.u.dmb.idx = idx;
	m.u.dmb.len = o->len;
	m.u.dmb.rgid.gid = o->rgid.gid;
	m.u.dmb.rgid.gid_ext = o->rgid.gid_ext;
	seq = ism_shm_announce(d, &m, ids, &n, true);
	ism_shm_conn_wait_answers(&d->conns, seq, ids, status, n);
	ret = writer_status(d, &req->rgid, ids, status, n);
	if (ret < 0) {
		/* Its token would not work for the writer: undo. */
		ISM_PMD_LOG_RL(ERR, "%s: the writer cannot map DMB %u (%s): "
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
	ism_shm_op_unlock(d);
	return ret;
}

/* Unregister own DMB token; op_lock() held. */
static int
dmb_unregister(struct ism_shm_dev *d, uint64_t token)
{
	uint64_t ids[2 * SHM_MAX_SLOTS];
	uint32_t idx = ism_sw_tok_idx(token), seq;
	struct shm_own_dmb *o;
	struct shm_msg m;
	unsigned int n;
	uint8_t ws;

	o = ism_shm_own_find(d, token);
	if (o == NULL || !o->registered)
		return -ENOENT;
	o->registered = false;
	rte_atomic_store_explicit(&d->own_view->ent[idx].token, 0, rte_memory_order_release);
	ws = d->writer_slot[idx];
	d->writer_slot[idx] = ISM_SHM_NO_SLOT;
	/* The writer hears of it, be it this device itself (the others
	 * post it when our DMB_DEL reaches them).
	 */
	if (rte_ism_gid_equal(&o->rgid, &d->gid))
		ism_shm_event_post(&d->ev, RTE_ISM_EVENT_BUF,
				   RTE_ISM_BUF_UNREGISTERED,
			 &d->gid, token, 0);

	/* When the writer answers, it has stopped using the token. */
	ism_shm_msg_init(&m, SHM_MSG_DMB_DEL, 0);
	m.u.tok.token = token;
	seq = ism_shm_announce(d, &m, ids, &n, false);
	wait_all(d, seq, ids, n);
	/* Our own moves into it (a DMB we write ourselves): without the
	 * control lock, as a thread without an lcore id that never pauses
	 * can make this wait long, and the control thread must go on
	 * answering the peers meanwhile (what it may do to this DMB
	 * meanwhile, it may do while we wait for the answers too).
	 */
	ism_shm_ctl_unlock();
	rte_ism_pmd_synchronize();
	ism_shm_ctl_lock();

	/* No late signal of this DMB is reported for the next one. */
	if (ws != ISM_SHM_NO_SLOT && d->rx_sba[ws] != NULL)
		ism_sw_sba_clear(d->rx_sba[ws], idx);
	ism_sw_sba_clear(d->sba, idx);
	/* An attached DMB lives on until the writer detaches (which may
	 * have happened while we waited: then it is freed already).
	 */
	if (o->token == token && o->attach_cnt == 0)
		ism_shm_own_free(d, idx);
	return 0;
}

static int
shm_dmb_unregister(struct rte_ism_dev *idev, uint64_t token)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	int ret;

	ism_shm_op_lock(d);
	ret = dmb_unregister(d, token);
	ism_shm_op_unlock(d);
	return ret;
}

/* Send a request about a token to p; its seq, or 0 if it failed. */
static uint32_t
send_token(struct ism_shm_dev *d, struct ism_shm_peer *p,
		enum shm_msg_type type,
		uint64_t token)
{
	struct shm_msg m;

	ism_shm_msg_init(&m, type, ism_shm_next_seq(d));
	m.u.tok.token = token;
	return ism_shm_conn_send(&p->c, &m, -1) < 0 ? 0 : m.hdr.seq;
}

/* Ask the owner of a DMB (request type) and wait for its answer. */
static int
ask_owner(struct ism_shm_dev *d, struct ism_shm_peer *p, enum shm_msg_type type,
		uint64_t token)
{
	uint32_t seq = send_token(d, p, type, token);
	uint64_t id = p->c.id;
	int status;

	if (seq == 0)
		return -ENOMEM;
	ism_shm_conn_wait_answers(&d->conns, seq, &id, &status, 1);
	return status;
}

static void
fill_attached(struct rte_ism_dmb *out, uint64_t token, void *addr,
		uint32_t len, const struct rte_ism_gid *rgid)
{
	out->token = token;
	out->addr = addr;
	out->len = len;
	out->idx = ism_sw_tok_idx(token);
	out->rgid = *rgid;
}

/* Drop one local attachment of a remote DMB; false if there is none. */
static bool
detach_local(struct ism_shm_dev *d, uint64_t token)
{
	unsigned int oslot = ism_sw_tok_slot(token);
	uint32_t idx = ism_sw_tok_idx(token);
	struct shm_view *v = d->views[oslot];
	struct shm_view_ctl *c;

	if (v != NULL && idx - SHM_IDX_FIRST < v->max_dmbs &&
	    v->ctl[idx].id_token == token && v->ctl[idx].attach_cnt > 0) {
		c = &v->ctl[idx];
		/* Still mapped for moves unless the owner revoked it. */
		if (--c->attach_cnt == 0 && v->ent[idx].token != token) {
			ism_shm_unmap(c->addr, c->map_len);
			memset(c, 0, sizeof(*c));
		}
		return true;
	}
	return ism_sw_orphan_detach(&d->orphans, token, ism_shm_mem_free);
}

static int
shm_dmb_attach(struct rte_ism_dev *idev, uint64_t token,
		struct rte_ism_dmb *out)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	uint32_t idx = ism_sw_tok_idx(token);
	unsigned int oslot = ism_sw_tok_slot(token);
	struct shm_own_dmb *o;
	struct shm_view *v;
	struct shm_view_ctl *c;
	struct ism_shm_peer *p;
	uint64_t id;
	int ret;

	ism_shm_op_lock(d);
	if (oslot == d->slot) {
		o = ism_shm_own_find(d, token);
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
	 * request keeps the mapping; undone if the owner says no.
	 */
	c = &v->ctl[idx];
	c->attach_cnt++;
	fill_attached(out, token, c->addr, v->ent[idx].len, &d->gid);
	id = p->c.id;
	ret = ask_owner(d, p, SHM_MSG_ATTACH, token);
	if (ret == 0)
		goto out;
	/* Refused, or the owner left meanwhile (then it is an orphan), or
	 * it did not answer: undo; a DETACH behind the ATTACH keeps a slow
	 * owner's count right.
	 */
	detach_local(d, token);
	p = ism_shm_peer_of(ism_shm_conn_find(&d->conns, id));
	if (ret == -ETIMEDOUT && p != NULL)
		send_token(d, p, SHM_MSG_DETACH, token);
	if (ret == -ENETUNREACH)
		ret = -ENOENT;
out:
	ism_shm_op_unlock(d);
	return ret;
}

static int
shm_dmb_detach(struct rte_ism_dev *idev, uint64_t token)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	unsigned int oslot = ism_sw_tok_slot(token);
	uint32_t idx = ism_sw_tok_idx(token);
	struct shm_view *v;
	struct shm_own_dmb *o;
	struct ism_shm_peer *p;
	bool owner_knows;
	int ret = 0;

	ism_shm_op_lock(d);
	if (oslot == d->slot) {
		o = ism_shm_own_find(d, token);
		if (o == NULL || o->attach_cnt == 0 ||
		    !rte_ism_gid_equal(&o->rgid, &d->gid))
			ret = -ENOENT;
		else if (--o->attach_cnt == 0 && !o->registered)
			ism_shm_own_free(d, idx);
		goto out;
	}
	v = d->views[oslot];
	p = d->peers[oslot];
	owner_knows = v != NULL && idx - SHM_IDX_FIRST < v->max_dmbs &&
		v->ctl[idx].id_token == token && p != NULL;
	/* Ours first: once the owner has our answer it may reuse the
	 * index, and its next DMB_ADD there must find it clean.
	 */
	if (!detach_local(d, token))
		ret = -ENOENT;
	else if (owner_knows)
		ask_owner(d, p, SHM_MSG_DETACH, token);
out:
	ism_shm_op_unlock(d);
	return ret;
}

static int
shm_signal_event(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	struct ism_shm_peer *p;
	struct shm_msg m;
	uint64_t id;
	int ret;

	ism_shm_op_lock(d);
	if (rte_ism_gid_equal(rgid, &d->gid)) {
		ism_shm_event_post(&d->ev, RTE_ISM_EVENT_SW, code, &d->gid, 0,
				   info);
		ret = 0;
		goto out;
	}
	p = ism_shm_peer_by_gid(d, rgid);
	if (p == NULL || !p->up) {
		ret = -ENETUNREACH;
		goto out;
	}
	ism_shm_msg_init(&m, SHM_MSG_EVENT, ism_shm_next_seq(d));
	m.u.event.code = code;
	m.u.event.info = info;
	m.u.event.trigger = trigger_irq != 0;
	ret = ism_shm_conn_send(&p->c, &m, -1);
	if (ret < 0)
		goto out;
	id = p->c.id;
	ism_shm_conn_wait_answers(&d->conns, m.hdr.seq, &id, &ret, 1);
out:
	ism_shm_op_unlock(d);
	return ret;
}

static int
shm_query_remote_gid(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id __rte_unused)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	struct ism_shm_peer *p;
	int ret = 0;

	/* No VLANs here: no device is a member of any. */
	if (vlan_valid)
		return -ENETUNREACH;
	ism_shm_ctl_lock();
	if (!rte_ism_gid_equal(rgid, &d->gid)) {
		p = ism_shm_peer_by_gid(d, rgid);
		if (p == NULL || !p->up)
			ret = -ENETUNREACH;
	}
	ism_shm_ctl_unlock();
	return ret;
}

static int
shm_dump(struct rte_ism_dev *idev, FILE *f)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	char gid[RTE_ISM_GID_STRLEN];
	struct shm_own_dmb *o;
	struct ism_shm_peer *p;
	uint32_t idx, n = 0;

	ism_shm_ctl_lock();
	fprintf(f, "  shm fabric %s slot %u socket %s\n", d->fab.dir, d->slot,
		d->fab.sock_name);
	ISM_SHM_PEER_FOREACH(p, d) {
		rte_ism_gid_format(&p->gid, gid, sizeof(gid));
		fprintf(f, "  peer %s slot %d pid %d %s%s\n",
			p->hello_rcvd || p->c.initiator ? gid : "?",
			p->slot == ISM_SHM_NO_SLOT ? -1 : p->slot,
			(int)p->c.pid,
			p->up ? "up" : "handshake",
			p->c.initiator ? " (we connected)" : "");
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
	fprintf(f, "  %u DMBs, %" PRIu64 " protocol errors, %" PRIu64
		" connections refused, %" PRIu64 " handshakes expired\n", n,
		d->conns.protocol_errors, d->conns.refused,
		d->conns.handshakes_expired);
	ism_shm_ctl_unlock();
	return 0;
}

const struct rte_ism_dev_ops ism_shm_ops = {
	.dmb_register = shm_dmb_register,
	.dmb_unregister = shm_dmb_unregister,
	.dmb_attach = shm_dmb_attach,
	.dmb_detach = shm_dmb_detach,
	.signal_event = shm_signal_event,
	.query_remote_gid = shm_query_remote_gid,
	.stats_get = ism_pmd_stats_get,
	.stats_reset = ism_pmd_stats_reset,
	.dump = shm_dump,
	.intr_handle_get = ism_shm_intr_handle_get,
	.intr_arm = ism_shm_intr_arm,
	.intr_event = ism_shm_intr_event,
};
