/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The shm protocol: what a device does with each message of a peer, and
 * the tables that result (the view of each peer's DMBs, the SBAs shared
 * with it), and what happens when a peer goes. Runs under the control lock.
 *
 * A message comes from another process and is checked here against the
 * connection's state: only a verified peer may announce DMBs, only in its
 * own fabric slot and index range, with an fd exactly when this device is
 * the rgid, and that fd must be a sealed memfd of the announced size.
 * Anything else ends the connection (the caller logs and counts it).
 * A failure of ours (out of memory or fds) is not the peer's: a DMB we
 * cannot map is answered with the error, and the connection stays.
 *
 * A departure (ism_shm_peer_down()) does at once what the fast path and the
 * client must see: the peer's memory unreachable, its DMBs' events, its
 * DEV_DISABLED; the unmapping of what it had granted us, which may be
 * thousands of mappings, is left to the control thread (ism_shm_reclaim()),
 * within its budget per turn.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_malloc.h>

#include <ism_compat.h>

#include "ism_log_rl.h"
#include "ism_shm_mem.h"
#include "ism_shm_peer.h"
#include "ism_shm_wake.h"

static void peer_retry(struct ism_shm_dev *d, uint8_t slot,
		const struct rte_ism_gid *gid);
static void retry_reset(struct ism_shm_dev *d, uint8_t slot);

static void
gid_from_wire(struct rte_ism_gid *g, const struct shm_msg_gid *w)
{
	g->gid = w->gid;
	g->gid_ext = w->gid_ext;
}

static void
gid_to_wire(struct shm_msg_gid *w, const struct rte_ism_gid *g)
{
	w->gid = g->gid;
	w->gid_ext = g->gid_ext;
}

struct shm_view *
ism_shm_view_new(uint32_t max_dmbs)
{
	size_t head = RTE_ALIGN_CEIL(sizeof(struct shm_view),
			RTE_CACHE_LINE_SIZE);
	struct shm_view *v;

	v = rte_zmalloc("ism_shm_view", head + SHM_NB_IDX * sizeof(*v->ent) +
			(SHM_IDX_FIRST + max_dmbs) * sizeof(*v->ctl),
			RTE_CACHE_LINE_SIZE);
	if (v == NULL)
		return NULL;
	v->max_dmbs = max_dmbs;
	v->wake_peer.fd = -1;
	v->ent = RTE_PTR_ADD(v, head);
	v->ctl = (struct shm_view_ctl *)(v->ent + SHM_NB_IDX);
	return v;
}

void
ism_shm_view_publish(struct ism_shm_dev *d, unsigned int slot,
		struct shm_view *v)
{
	rte_atomic_store_explicit(&d->fp_ent[slot],
			ism_sw_view_fp_ent(v != NULL ? v->ent : NULL),
			 rte_memory_order_release);
	rte_atomic_store_explicit(&d->views[slot], v, rte_memory_order_release);
}

void
ism_shm_view_free(struct shm_view *v)
{
	if (v != NULL && v->wake_peer.fd >= 0)
		close(v->wake_peer.fd);
	rte_free(v);
}

/* Answer request seq of p; a peer that does not read its answers gets
 * the connection dropped.
 */
static int
answer(struct ism_shm_peer *p, uint32_t seq, int32_t status, const char **why)
{
	if (ism_shm_conn_send_ack(&p->c, seq, status) == 0)
		return 0;
	*why = "more requests unanswered than the window (answers not read)";
	return -EPROTO;
}

/* A connection whose peer has this GID and knows of our DMBs. */
struct ism_shm_peer *
ism_shm_peer_by_gid(struct ism_shm_dev *d, const struct rte_ism_gid *gid)
{
	struct ism_shm_peer *p;

	ISM_SHM_PEER_FOREACH(p, d)
		if ((p->c.initiator || p->hello_rcvd) &&
		    rte_ism_gid_equal(&p->gid, gid))
			return p;
	return NULL;
}

uint8_t
ism_shm_writer_slot(struct ism_shm_dev *d, const struct rte_ism_gid *rgid)
{
	struct ism_shm_peer *p;

	if (rte_ism_gid_equal(rgid, &d->gid))
		return d->slot;
	p = ism_shm_peer_by_gid(d, rgid);
	return p != NULL && p->hello_sent ? p->slot : ISM_SHM_NO_SLOT;
}

struct shm_own_dmb *
ism_shm_own_find(struct ism_shm_dev *d, uint64_t token)
{
	uint32_t idx = ism_sw_tok_idx(token);
	struct shm_own_dmb *o;

	if (token == 0 || ism_sw_tok_slot(token) != d->slot ||
	    idx - SHM_IDX_FIRST >= d->max_dmbs)
		return NULL;
	o = &d->own[idx];
	return o->token == token ? o : NULL;
}

void
ism_shm_own_free(struct ism_shm_dev *d, uint32_t idx)
{
	struct shm_own_dmb *o = &d->own[idx];
	struct ism_sw_view_ent *e = &d->own_view->ent[idx];

	ism_shm_unmap(o->addr, o->map_len);
	if (o->fd >= 0)
		close(o->fd);
	e->addr = NULL;
	e->len = 0;
	e->writable = 0;
	o->token = 0;
	o->addr = NULL;
	o->fd = -1;
	o->len = 0;
	o->map_len = 0;
	o->attach_cnt = 0;
	o->registered = false;
	ism_sw_ids_put(&d->ids, idx);
}

void
ism_shm_mem_free(void *addr, size_t len)
{
	ism_shm_unmap(addr, len);
}

uint32_t
ism_shm_announce(struct ism_shm_dev *d, struct shm_msg *m, uint64_t *ids,
		unsigned int *n, bool grant)
{
	uint32_t seq = ism_shm_next_seq(d);
	struct rte_ism_gid rgid;
	struct ism_shm_peer *p;
	int ret;

	m->hdr.seq = seq;
	rgid.gid = m->u.dmb.rgid.gid;
	rgid.gid_ext = m->u.dmb.rgid.gid_ext;
	*n = 0;
	ISM_SHM_PEER_FOREACH(p, d) {
		if (!p->hello_sent)
			continue;
		ret = grant && rte_ism_gid_equal(&p->gid, &rgid) ?
			ism_shm_conn_send_grant(&p->c, m) :
			ism_shm_conn_send(&p->c, m, -1);
		if (ret < 0 || *n == 2 * SHM_MAX_SLOTS)
			continue;
		ids[(*n)++] = p->c.id;
	}
	return seq;
}

static int
send_dmb_add(struct ism_shm_peer *p, uint32_t idx)
{
	struct shm_own_dmb *o = &p->dev->own[idx];
	struct shm_msg m;

	ism_shm_msg_init(&m, SHM_MSG_DMB_ADD, ism_shm_next_seq(p->dev));
	m.u.dmb.token = o->token;
	m.u.dmb.idx = idx;
	m.u.dmb.len = o->len;
	gid_to_wire(&m.u.dmb.rgid, &o->rgid);
	return rte_ism_gid_equal(&o->rgid, &p->gid) ?
		ism_shm_conn_send_grant(&p->c, &m) :
		ism_shm_conn_send(&p->c, &m, -1);
}

/*
 * Our side of the handshake: HELLO with the SBA the peer will raise our
 * signals in, every registered DMB, READY. From here on the peer's
 * signals are polled and it hears of new DMBs.
 */
static int
peer_greet(struct ism_shm_peer *p)
{
	struct ism_shm_dev *d = p->dev;
	struct shm_msg m;
	void *addr;
	uint32_t idx;
	int fd, ret;

	/* Ours to poll: on our node, like our DMBs. */
	ret = ism_shm_memfd_new("ism_shm_sba", sizeof(struct ism_sw_sba),
			d->common.ism->socket_id, &fd, &addr);
	if (ret < 0)
		return ret;
	p->rx_sba = addr;
	/* Our armed flag, before the peer can raise in it. */
	ism_shm_wake_sba_add(d, p->slot, p->rx_sba);
	ism_shm_msg_init(&m, SHM_MSG_HELLO, 0);
	gid_to_wire(&m.u.hello.gid, &d->gid);
	m.u.hello.max_dmbs = d->max_dmbs;
	m.u.hello.max_dmb_len = d->max_dmb_len;
	m.u.hello.chid = d->chid;
	m.u.hello.slot = d->slot;
	ret = ism_shm_conn_send(&p->c, &m, fd);
	close(fd);
	if (ret < 0)
		return ret;
	p->hello_sent = true;
	ret = ism_shm_wake_send(p);
	if (ret < 0)
		return ret;

	for (idx = SHM_IDX_FIRST; idx < SHM_IDX_FIRST + d->max_dmbs; idx++) {
		if (!d->own[idx].registered)
			continue;
		if (rte_ism_gid_equal(&d->own[idx].rgid, &p->gid))
			d->writer_slot[idx] = p->slot;
		ret = send_dmb_add(p, idx);
		if (ret < 0)
			return ret;
	}
	rte_atomic_store_explicit(&d->rx_sba[p->slot], p->rx_sba, rte_memory_order_release);
	rte_atomic_fetch_or_explicit(&d->rx_active, RTE_BIT64(p->slot), rte_memory_order_release);
	ism_shm_wake_rx_published(d, p->rx_sba);
	ism_shm_msg_init(&m, SHM_MSG_READY, 0);
	return ism_shm_conn_send(&p->c, &m, -1);
}

/* Another connection claims slot or GID: if it is dead, see it now. */
static bool
identity_taken(struct ism_shm_peer *p, uint8_t slot,
		const struct rte_ism_gid *gid)
{
	struct ism_shm_dev *d = p->dev;
	struct ism_shm_peer *o, *tmp;

	ISM_SHM_PEER_FOREACH_SAFE(o, d, tmp) {
		if (o == p || !(o->c.initiator || o->hello_rcvd))
			continue;
		if (o->slot != slot && !rte_ism_gid_equal(&o->gid, gid))
			continue;
		/* A peer that restarted may find our end of its old
		 * connection not yet read: read it, EOF ends it.
		 */
		if (ism_shm_conn_drain(&o->c))
			return true;
	}
	return false;
}

static int
on_hello(struct ism_shm_peer *p, const struct shm_msg *m, int fd,
		const char **why)
{
	char gs[RTE_ISM_GID_STRLEN];
	const struct shm_msg_hello *h = &m->u.hello;
	struct ism_shm_dev *d = p->dev;
	struct rte_ism_gid gid;
	void *addr;
	int ret;

	gid_from_wire(&gid, &h->gid);
	ret = -EPROTO;
	if (p->hello_rcvd)
		*why = "second HELLO";
	else if (h->chid != d->chid)
		*why = "HELLO from another fabric (CHID)";
	else if (rte_ism_gid_equal(&gid, &d->gid) || h->slot == d->slot)
		*why = "HELLO with our own GID or slot";
	else if (p->c.initiator && (h->slot != p->slot ||
				  !rte_ism_gid_equal(&gid, &p->gid)))
		*why = "HELLO does not match the peer's socket name";
	else if (identity_taken(p, h->slot, &gid))
		*why = "HELLO with a slot or GID of a connected peer";
	else if (!p->c.initiator &&
		 !ism_shm_fabric_verify(&d->fab, h->slot, &gid, p->c.pid,
					p->c.pid_ino))
		*why = "HELLO claims a socket the sender does not hold";
	else if (fd == ISM_SHM_FD_LOST) {
		*why = "cannot receive the peer's SBA";
		ret = -EMFILE;
	} else
		ret = ism_shm_memfd_map(fd, sizeof(struct ism_sw_sba), &addr,
				why);
	if (fd >= 0)
		close(fd);
	if (ret < 0)
		return ret;
	p->view = ism_shm_view_new(h->max_dmbs);
	if (p->view == NULL) {
		ism_shm_unmap(addr, sizeof(struct ism_sw_sba));
		*why = "no memory for the peer's DMB table";
		return -ENOMEM;
	}
	p->tx_sba = addr;
	p->view->sba = addr;
	p->gid = gid;
	p->slot = h->slot;
	p->max_dmbs = h->max_dmbs;
	p->max_dmb_len = h->max_dmb_len;
	p->hello_rcvd = true;
	rte_ism_gid_format(&gid, gs, sizeof(gs));
	ism_shm_conn_identify(&p->c, gs);
	d->peers[p->slot] = p;
	ism_shm_view_publish(d, p->slot, p->view);
	return 0;
}

static int
on_ready(struct ism_shm_peer *p, const char **why)
{
	struct ism_shm_dev *d = p->dev;
	int ret;

	if (!p->hello_rcvd || p->ready_rcvd) {
		*why = "READY out of order";
		return -EPROTO;
	}
	p->ready_rcvd = true;
	p->up = true;
	ism_shm_conn_establish(&p->c);
	if (p->c.initiator)
		retry_reset(d, p->slot);
	/* Before our answer: when the newcomer sees our READY, our
	 * DEV_ENABLED is queued already.
	 */
	ism_shm_event_post(&d->ev, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ENABLED,
			   &p->gid, 0, 0);
	if (!p->c.initiator) {
		ret = peer_greet(p);
		if (ret < 0) {
			*why = "cannot answer the handshake";
			return ret;
		}
	}
	return 0;
}

static int
on_dmb_add(struct ism_shm_peer *p, const struct shm_msg *m, int fd,
		const char **why)
{
	const struct shm_msg_dmb *a = &m->u.dmb;
	struct ism_shm_dev *d = p->dev;
	struct ism_sw_view_ent *e;
	struct shm_view_ctl *c;
	struct rte_ism_gid rgid;
	void *addr = NULL;
	bool mine, has_fd = fd >= 0 || fd == ISM_SHM_FD_LOST;
	int ret = -EPROTO;

	gid_from_wire(&rgid, &a->rgid);
	mine = rte_ism_gid_equal(&rgid, &d->gid);
	if (ism_sw_tok_slot(a->token) != p->slot)
		*why = "DMB token of another device";
	else if (a->idx - SHM_IDX_FIRST >= p->max_dmbs ||
		 a->len > p->max_dmb_len)
		*why = "DMB index or length beyond the peer's limits";
	else if (p->view->ent[a->idx].token != 0 ||
		 p->view->ctl[a->idx].id_token != 0)
		*why = "DMB index already in use";
	else if (mine != has_fd)
		*why = mine ? "DMB granted without its fd" :
			"fd of a DMB granted to someone else";
	else if (!mine)
		ret = 0;
	else if (fd == ISM_SHM_FD_LOST) {
		*why = "cannot receive the DMB's memfd";
		ret = -EMFILE;
	} else
		ret = ism_shm_memfd_map(fd, a->len, &addr, why);
	if (fd >= 0)
		close(fd);
	if (ret == -EPROTO)
		return ret;
	if (ret < 0) {
		/* Ours, not the peer's fault: the answer tells the owner,
		 * whose register then fails; the DMB stays unknown here.
		 */
		ISM_PMD_LOG_RL(ERR, "%s: DMB 0x%" PRIx64 " granted by pid %d: "
			       "%s: %s", d->name, a->token, (int)p->c.pid, *why,
			       strerror(-ret));
		return answer(p, m->hdr.seq, ret, why);
	}
	e = &p->view->ent[a->idx];
	c = &p->view->ctl[a->idx];
	if (mine) {
		c->id_token = a->token;
		c->addr = addr;
		c->map_len = ism_shm_map_len(a->len);
		c->attach_cnt = 0;
	}
	e->addr = addr;
	e->len = a->len;
	e->writable = mine;
	/* Publish last: a move trusts the fields once it sees the token. */
	rte_atomic_store_explicit(&e->token, a->token, rte_memory_order_release);
	return answer(p, m->hdr.seq, 0, why);
}

/* Drop a mapping of p's view that no move can use any more. */
static void
view_unmap(struct shm_view *v, uint32_t idx)
{
	struct shm_view_ctl *c = &v->ctl[idx];

	ism_shm_unmap(c->addr, c->map_len);
	memset(c, 0, sizeof(*c));
}

static int
on_dmb_del(struct ism_shm_peer *p, const struct shm_msg *m, const char **why)
{
	uint64_t token = m->u.tok.token;
	uint32_t idx = ism_sw_tok_idx(token);
	struct ism_sw_view_ent *e;
	int status = -ENOENT;

	if (ism_sw_tok_slot(token) == p->slot &&
	    idx - SHM_IDX_FIRST < p->max_dmbs &&
	    p->view->ent[idx].token == token) {
		e = &p->view->ent[idx];
		rte_atomic_store_explicit(&e->token, 0, rte_memory_order_release);
		if (e->writable) {
			/* Moves that saw the token end before we unmap. */
			rte_ism_pmd_synchronize();
			e->writable = 0;
			e->addr = NULL;
			if (p->view->ctl[idx].attach_cnt == 0)
				view_unmap(p->view, idx);
			ism_shm_event_post(&p->dev->ev, RTE_ISM_EVENT_BUF,
				 RTE_ISM_BUF_UNREGISTERED, &p->gid, token, 0);
		}
		status = 0;
	}
	return answer(p, m->hdr.seq, status, why);
}

/* The peer (writer) attaches or detaches one of our DMBs. */
static int
on_attach(struct ism_shm_peer *p, const struct shm_msg *m, bool attach,
		const char **why)
{
	struct ism_shm_dev *d = p->dev;
	struct shm_own_dmb *o = ism_shm_own_find(d, m->u.tok.token);
	int status = 0;

	if (o == NULL || (attach && !o->registered) ||
	    (!attach && o->attach_cnt == 0))
		status = -ENOENT;
	else if (!rte_ism_gid_equal(&o->rgid, &p->gid))
		status = -EACCES;
	else if (attach)
		o->attach_cnt++;
	else if (--o->attach_cnt == 0 && !o->registered)
		ism_shm_own_free(d, ism_sw_tok_idx(o->token));
	return answer(p, m->hdr.seq, status, why);
}

/* The device we connected to refuses us: say why, and whether we try
 * again (a passing reason).
 */
static int
on_refuse(struct ism_shm_peer *p, const struct shm_msg *m, const char **why)
{
	int reason = m->u.refuse.reason;
	char gs[RTE_ISM_GID_STRLEN];

	if (!p->c.initiator || p->hello_rcvd) {
		*why = "REFUSE out of place";
		return -EPROTO;
	}
	rte_ism_gid_format(&p->gid, gs, sizeof(gs));
	p->retry = reason == -EBUSY;
	if (p->retry)
		ISM_PMD_LOG_RL(WARNING, "%s: device %s (slot %u, pid %d) is "
			       "busy with other handshakes: connecting again "
			       "later", p->dev->name, gs, p->slot,
			       (int)p->c.pid);
	else
		ISM_PMD_LOG_RL(ERR, "%s: device %s (slot %u, pid %d) refused "
			       "us: %s (its log says why)", p->dev->name, gs,
			       p->slot, (int)p->c.pid, strerror(-reason));
	ism_shm_peer_down(p, ISM_SHM_DOWN_LOST);
	return 1;
}

static int
peer_handle(struct ism_shm_peer *p, const struct shm_msg *m, int fd,
		const char **why)
{
	if (m->hdr.type == SHM_MSG_REFUSE)
		return on_refuse(p, m, why);
	if (m->hdr.type != SHM_MSG_HELLO && !p->hello_rcvd) {
		if (fd >= 0)
			close(fd);
		*why = "message before HELLO";
		return -EPROTO;
	}
	switch (m->hdr.type) {
	case SHM_MSG_HELLO:
		return on_hello(p, m, fd, why);
	case SHM_MSG_READY:
		return on_ready(p, why);
	case SHM_MSG_WAKE:
		return ism_shm_wake_on_msg(p, fd, why);
	case SHM_MSG_DMB_ADD:
		return on_dmb_add(p, m, fd, why);
	case SHM_MSG_DMB_DEL:
		return on_dmb_del(p, m, why);
	case SHM_MSG_ATTACH:
	case SHM_MSG_DETACH:
		return on_attach(p, m, m->hdr.type == SHM_MSG_ATTACH, why);
	case SHM_MSG_EVENT:
		ism_shm_event_post(&p->dev->ev, RTE_ISM_EVENT_SW,
				   m->u.event.code, &p->gid, 0,
			 m->u.event.info);
		return answer(p, m->hdr.seq, 0, why);
	case SHM_MSG_BYE:
		/* Answered by ism_shm_peer_down(), once our events are
		 * posted.
		 */
		p->bye_seq = m->hdr.seq;
		ism_shm_peer_down(p, ISM_SHM_DOWN_BYE);
		return 1;
	}
	/* Not reached: the parser passes known types only, ACK is the
	 * caller's.
	 */
	return -EPROTO;
}

/* p's DMBs as we mapped them: their events; what we attached lives on
 * as orphans, the other mappings are left to ism_shm_reclaim().
 */
static void
view_release(struct ism_shm_peer *p, bool events)
{
	struct ism_shm_dev *d = p->dev;
	struct shm_view *v = p->view;
	struct shm_view_ctl *c;
	uint32_t idx;

	for (idx = SHM_IDX_FIRST; idx < SHM_IDX_FIRST + v->max_dmbs; idx++) {
		c = &v->ctl[idx];
		if (c->id_token == 0)
			continue;
		if (events && v->ent[idx].token != 0 &&
		    !ism_shm_event_post(&d->ev, RTE_ISM_EVENT_BUF,
					RTE_ISM_BUF_UNREGISTERED,
			      &p->gid, c->id_token, 0))
			p->ev_summarised++;
		if (c->attach_cnt == 0)
			continue;
		/* Attached: the mapping lives until detach. */
		if (ism_sw_orphan_add(&d->orphans, c->id_token, c->addr,
				      c->map_len, c->attach_cnt) < 0) {
			ISM_PMD_LOG_RL(ERR, "%s: no memory to keep attached DMB "
				       "0x%" PRIx64 ": unmapped", d->name,
				       c->id_token);
			continue;
		}
		memset(c, 0, sizeof(*c));
	}
	p->view = NULL;
	v->reclaim_idx = SHM_IDX_FIRST;
	TAILQ_INSERT_TAIL(&d->reclaim, v, reclaim_next);
}

bool
ism_shm_reclaim(struct ism_shm_dev *d)
{
	struct shm_view_ctl *c;
	struct shm_view *v;

	while ((v = TAILQ_FIRST(&d->reclaim)) != NULL) {
		for (; v->reclaim_idx < SHM_IDX_FIRST + v->max_dmbs;
		     v->reclaim_idx++) {
			c = &v->ctl[v->reclaim_idx];
			if (c->id_token == 0)
				continue;
			if (!ism_shm_loop_budget_left())
				return true;
			ism_shm_unmap(c->addr, c->map_len);
			memset(c, 0, sizeof(*c));
			ism_shm_loop_work(1);
		}
		TAILQ_REMOVE(&d->reclaim, v, reclaim_next);
		ism_shm_view_free(v);
	}
	return false;
}

/* Our DMBs that the departed peer (gid, slot) could write: still ours,
 * reported; its attachments end with it.
 */
static void
own_release(struct ism_shm_peer *p, uint8_t slot, bool events)
{
	struct ism_shm_dev *d = p->dev;
	struct shm_own_dmb *o;
	uint32_t idx;

	for (idx = SHM_IDX_FIRST; idx < SHM_IDX_FIRST + d->max_dmbs; idx++) {
		o = &d->own[idx];
		if (o->token == 0 || !rte_ism_gid_equal(&o->rgid, &p->gid))
			continue;
		if (d->writer_slot[idx] == slot)
			d->writer_slot[idx] = ISM_SHM_NO_SLOT;
		if (events && o->registered &&
		    !ism_shm_event_post(&d->ev, RTE_ISM_EVENT_BUF,
					RTE_ISM_BUF_USER_DISABLED,
			      &p->gid, o->token, 0))
			p->ev_summarised++;
		if (!p->hello_rcvd)
			continue;
		o->attach_cnt = 0;
		if (!o->registered)
			ism_shm_own_free(d, idx);
	}
}

void
ism_shm_peer_down(struct ism_shm_peer *p, enum ism_shm_peer_how how)
{
	struct ism_shm_dev *d = p->dev;
	bool events = how != ISM_SHM_DOWN_CLOSE && p->up;
	struct rte_ism_gid gid = p->gid;
	uint8_t slot = p->slot;

	/* Unreachable for the fast path first, then wait out moves and
	 * polls that may still use its memory.
	 */
	if (slot != ISM_SHM_NO_SLOT) {
		if (d->views[slot] == p->view && p->view != NULL)
			ism_shm_view_publish(d, slot, NULL);
		if (d->rx_sba[slot] == p->rx_sba && p->rx_sba != NULL) {
			rte_atomic_fetch_and_explicit(&d->rx_active, ~RTE_BIT64(slot),
					   rte_memory_order_release);
			rte_atomic_store_explicit(&d->rx_sba[slot], NULL,
					 rte_memory_order_release);
		}
		if (d->peers[slot] == p)
			d->peers[slot] = NULL;
	}
	if (how != ISM_SHM_DOWN_CLOSE)
		rte_ism_pmd_synchronize();

	if (p->view != NULL)
		view_release(p, events);
	ism_shm_wake_sba_del(d, slot, p->rx_sba);
	ism_shm_unmap(p->tx_sba, sizeof(struct ism_sw_sba));
	ism_shm_unmap(p->rx_sba, sizeof(struct ism_sw_sba));
	if (how != ISM_SHM_DOWN_CLOSE && slot != ISM_SHM_NO_SLOT)
		own_release(p, slot, events);
	/* Never summarised; its info says how many DMB events about the
	 * peer were (0 normally).
	 */
	if (events)
		ism_shm_event_post(&d->ev, RTE_ISM_EVENT_DEV,
				   RTE_ISM_DEV_DISABLED, &gid, 0,
			 p->ev_summarised);
	if (how == ISM_SHM_DOWN_LOST && p->hello_rcvd)
		ism_shm_fabric_reap(&d->fab, slot, &gid);
	/* Refused, or closed before its HELLO (busy, out of fds, or it
	 * did not believe us yet): a join must not fail for good.
	 */
	if (how == ISM_SHM_DOWN_LOST && p->c.initiator && p->retry)
		peer_retry(d, slot, &gid);
	/* A closing peer returns when it has this answer: only now are our
	 * events about it posted.
	 */
	if (how == ISM_SHM_DOWN_BYE)
		ism_shm_conn_send_ack(&p->c, p->bye_seq, 0);
	ism_shm_conn_fini(&p->c);
	free(p);
}

uint32_t
ism_shm_next_seq(struct ism_shm_dev *d)
{
	if (++d->seq == 0)
		d->seq = 1;
	return d->seq;
}

/* Connections we made that ended before they were up (refused as busy,
 * closed before the peer's HELLO): made again later, the back-off
 * doubling from one attempt to the next until one is up, or another
 * device is at that slot.
 */
static void
peer_retry(struct ism_shm_dev *d, uint8_t slot, const struct rte_ism_gid *gid)
{
	uint32_t ms;

	if (slot >= SHM_MAX_SLOTS)
		return;
	if (d->retry_ms[slot] != 0 &&
	    rte_ism_gid_equal(&d->retry_gid[slot], gid))
		ms = RTE_MIN(2u * d->retry_ms[slot],
			     (uint32_t)ISM_SHM_RETRY_MAX_MS);
	else
		ms = ISM_SHM_RETRY_MIN_MS;
	d->retry_slots |= RTE_BIT64(slot);
	d->retry_gid[slot] = *gid;
	d->retry_ms[slot] = ms;
	d->retry_ns[slot] = ism_now_ns() + ms * 1000000ULL;
	ism_shm_loop_arm(d->retry_ns[slot]);
}

/* A connection we made to slot is up: the next failure starts afresh. */
static void
retry_reset(struct ism_shm_dev *d, uint8_t slot)
{
	if (slot < SHM_MAX_SLOTS && !(d->retry_slots & RTE_BIT64(slot)))
		d->retry_ms[slot] = 0;
}

/* Connect to slot again; false once there is nothing to retry. */
static bool
retry_one(struct ism_shm_dev *d, uint8_t slot)
{
	const struct rte_ism_gid *gid = &d->retry_gid[slot];
	char gs[RTE_ISM_GID_STRLEN];
	struct ism_shm_peer *p;
	pid_t pid = 0;
	int fd;

	/* It joined us meanwhile (a restart), or it is there already. */
	ISM_SHM_PEER_FOREACH(p, d)
		if (p->slot == slot || rte_ism_gid_equal(&p->gid, gid))
			return false;
	fd = ism_shm_fabric_connect(&d->fab, slot, gid, &pid);
	if (fd == -EAGAIN)	/* its backlog is full: later */
		return true;
	rte_ism_gid_format(gid, gs, sizeof(gs));
	if (fd < 0) {
		ISM_PMD_LOG_RL(INFO, "%s: not connecting again to GID %s "
			       "(slot %u): %s", d->name, gs, slot,
			       strerror(-fd));
		return false;
	}
	ISM_PMD_LOG_RL(INFO, "%s: connecting again to GID %s (slot %u)",
		       d->name, gs, slot);
	/* A failure at once schedules the next try itself. */
	if (ism_shm_peer_connect(d, fd, slot, gid, pid) == NULL &&
	    !(d->retry_slots & RTE_BIT64(slot)))
		return true;
	return false;
}

static uint64_t
retry_tick(struct ism_shm_dev *d, uint64_t now)
{
	uint64_t left, next = UINT64_MAX;
	unsigned int slot;

	for (left = d->retry_slots; left != 0; left &= left - 1) {
		slot = rte_bsf64(left);
		if (now < d->retry_ns[slot]) {
			next = RTE_MIN(next, d->retry_ns[slot]);
			continue;
		}
		if (!ism_shm_loop_budget_left())
			return now;
		ism_shm_loop_work(1);
		d->retry_slots &= ~RTE_BIT64(slot);
		if (retry_one(d, slot))
			/* Not now: again after the back-off. */
			peer_retry(d, slot, &d->retry_gid[slot]);
		if (d->retry_slots & RTE_BIT64(slot))
			next = RTE_MIN(next, d->retry_ns[slot]);
	}
	return next;
}

uint64_t
ism_shm_dev_tick(void *arg, uint64_t now)
{
	struct ism_shm_dev *d = arg;
	uint64_t next;

	next = ism_shm_conns_tick(&d->conns, now);
	next = RTE_MIN(next, ism_shm_events_tick(&d->ev, now));
	next = RTE_MIN(next, ism_shm_fabric_tick(&d->fab, now));
	next = RTE_MIN(next, retry_tick(d, now));
	if (ism_shm_reclaim(d))
		next = 0;
	return next;
}

struct ism_shm_peer *
ism_shm_peer_connect(struct ism_shm_dev *d, int fd, uint8_t slot,
		const struct rte_ism_gid *gid, pid_t pid)
{
	char gs[RTE_ISM_GID_STRLEN];
	struct ism_shm_peer *p = calloc(1, sizeof(*p));

	if (p == NULL) {
		ISM_PMD_LOG_RL(ERR, "%s: no memory for a connection", d->name);
		close(fd);
		return NULL;
	}
	p->dev = d;
	if (ism_shm_conn_init(&p->c, &d->conns, fd, true) < 0) {
		free(p);
		return NULL;
	}
	p->gid = *gid;
	p->slot = slot;
	p->c.pid = pid;
	rte_ism_gid_format(gid, gs, sizeof(gs));
	ism_shm_conn_identify(&p->c, gs);
	if (peer_greet(p) < 0) {
		ism_shm_peer_down(p, ISM_SHM_DOWN_LOST);	/* retried */
		return NULL;
	}
	return p;
}

/* The transport's calls, through ism_shm_peer_conn_ops. */

static int
peer_recv(struct ism_shm_conn *c, const struct shm_msg *m, int fd,
		const char **why)
{
	return peer_handle(ism_shm_peer_of(c), m, fd, why);
}

static void
peer_conn_down(struct ism_shm_conn *c, enum ism_shm_conn_end why)
{
	struct ism_shm_peer *p = ism_shm_peer_of(c);

	/* Closed before its HELLO (busy, out of fds, or it did not
	 * believe us yet), or not up by the handshake's deadline (a peer
	 * stopped or starved of CPU that long; it does not connect to us,
	 * we joined after it): connect again, or the two stay apart for
	 * as long as both live.
	 */
	if (why == ISM_SHM_END_EOF)
		p->retry = p->c.initiator && !p->hello_rcvd;
	else if (why == ISM_SHM_END_LATE)
		p->retry = p->c.initiator;
	ism_shm_peer_down(p, ISM_SHM_DOWN_LOST);
}

static void
peer_accept(struct ism_shm_conns *set, int fd, pid_t pid, uint64_t pid_ino)
{
	struct ism_shm_dev *d = set->owner;
	struct ism_shm_peer *p = calloc(1, sizeof(*p));

	if (p == NULL) {
		ISM_PMD_LOG_RL(ERR, "%s: no memory for a connection", d->name);
		close(fd);
		return;
	}
	p->dev = d;
	p->slot = ISM_SHM_NO_SLOT;
	if (ism_shm_conn_init(&p->c, set, fd, false) < 0) {
		free(p);
		return;
	}
	p->c.pid = pid;
	p->c.pid_ino = pid_ino;
}

static int
peer_grant_fd(struct ism_shm_conn *c, uint64_t token)
{
	struct shm_own_dmb *o = ism_shm_own_find(ism_shm_peer_of(c)->dev,
			token);

	return o != NULL && o->registered ? o->fd : -1;
}

const struct ism_shm_conn_ops ism_shm_peer_conn_ops = {
	.recv = peer_recv,
	.down = peer_conn_down,
	.accept = peer_accept,
	.grant_fd = peer_grant_fd,
};
