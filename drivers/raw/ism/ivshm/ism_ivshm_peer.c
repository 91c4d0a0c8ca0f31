/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * What a device learns of the other members through the region, once per
 * control pass: whether each slot is alive (its state word or heartbeat
 * changed within the liveness timeout), which members of its CHID are up
 * (taken into the view, with events), what their DMB tables hold, and
 * their requests (events, attach, detach). A member that stops is declared
 * gone here: its state word is set to DEAD (by whichever device sees it
 * first) and every device retires it.
 *
 * Every value read from the region goes through the checked readers of
 * ism_ivshm_layout.c; what fails a check is ignored and counted
 * (protocol_errors), never used.
 *
 * Recovery: another member may write anything anywhere, so what a device
 * told its client about a peer may be wrong (a forged change of a DMB, a
 * forged twin or state word). The rules that bring honest members back
 * together once such writes stop:
 *   - one GID, one slot: a LIVE slot with the GID of one in the view (or
 *     our own) is not taken up;
 *   - a slot that misbehaves (such a twin, an invalid identity, an epoch
 *     that changes under us, an incarnation we retired LIVE again) is
 *     fenced: not taken up for a liveness timeout, time for a forged one
 *     that nobody beats for to be declared gone;
 *   - an invalid DMB entry leaves our checked copy as it is (its owner
 *     writes it back: ism_ivshm_own_audit()); a token that comes back after
 *     we reported it unregistered (tokens never repeat) proves that
 *     another member wrote it;
 *   - where our client may have been misled (a fenced incarnation taken
 *     up after all, a token that came back), the pair starts over: both
 *     devices retire each other and take each other up again (resync),
 *     so both clients get RTE_ISM_DEV_DISABLED then RTE_ISM_DEV_ENABLED,
 *     as after a restart of the other; at most once a liveness timeout,
 *     and on both sides even when the request was forged (resync_step());
 *   - entries of every table are read again, IVSHM_AUDIT_ENTRIES a pass,
 *     and the owners' ring heads are written back by their owners, so no
 *     forged change outlives its writer for long.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_malloc.h>

#include <ism_compat.h>

#include "ism_ivshm.h"

struct ivshm_view *
ism_ivshm_view_new(uint32_t max_dmbs)
{
	uint32_t n = IVSHM_IDX_FIRST + max_dmbs;
	struct ivshm_view *v;

	/* Entries for every index a token can name (the fast path's table,
	 * fp_ent[]); those past max_dmbs stay empty.
	 */
	v = rte_zmalloc("ism_ivshm_view", sizeof(*v) + IVSHM_NB_IDX *
			sizeof(*v->sw.ent) + n * sizeof(*v->ctl),
			RTE_CACHE_LINE_SIZE);
	if (v == NULL)
		return NULL;
	v->sw.max_dmbs = max_dmbs;
	v->sw.ent = (struct ism_sw_view_ent *)(v + 1);
	v->ctl = (struct ivshm_view_ctl *)(v->sw.ent + IVSHM_NB_IDX);
	return v;
}

void
ism_ivshm_view_publish(struct ivshm_dev *d, unsigned int slot,
		struct ivshm_view *v)
{
	rte_atomic_store_explicit(&d->fp_ent[slot],
			ism_sw_view_fp_ent(v != NULL ? v->sw.ent : NULL),
			rte_memory_order_release);
	rte_atomic_store_explicit(&d->views[slot], v != NULL ? &v->sw : NULL,
			rte_memory_order_release);
}

void
ism_ivshm_view_free(struct ivshm_view *v)
{
	rte_free(v);
}

bool
ism_ivshm_peer_dead(const struct ivshm_dev *d, const struct ivshm_peer *p,
		uint64_t now)
{
	return p->seen && now - p->t_change >= d->liveness_ns;
}

bool
ism_ivshm_peer_alive(const struct ivshm_dev *d, const struct ivshm_peer *p,
		uint64_t now)
{
	return p->seen && p->moved && now - p->t_change < d->liveness_ns;
}

int
ism_ivshm_peer_by_gid(const struct ivshm_dev *d, const struct rte_ism_gid *gid)
{
	unsigned int s;

	for (s = 0; s < d->lay.members; s++)
		if (d->peers[s].up && d->peers[s].id.gid == gid->gid &&
		    d->peers[s].id.gid_ext == gid->gid_ext)
			return s;
	return -1;
}

static bool
gid_is(const struct rte_ism_gid *g, uint64_t gid, uint64_t ext)
{
	return g->gid == gid && g->gid_ext == ext;
}

/* Write this device's acknowledgment of slot s: seen_chg before the
 * epoch, which the owner checks first.
 */
static void
ack(struct ivshm_dev *d, unsigned int s, uint64_t epoch, uint64_t seen)
{
	rte_atomic_store_explicit(&d->me->seen_chg[s], seen, rte_memory_order_release);
	rte_atomic_store_explicit(&d->me->view_epoch[s], epoch, rte_memory_order_release);
}

/* Keep an attachment of a DMB that leaves the view (unregistered, or its
 * owner gone): the memory stays valid until we detach.
 */
static void
orphan_add(struct ivshm_dev *d, struct ivshm_peer *p, uint32_t idx,
		uint64_t token, bool owner_gone)
{
	struct ivshm_view *v = p->view;

	if (ism_sw_orphan_new(&d->orphans, token, v->sw.ent[idx].addr,
			      v->sw.ent[idx].len, v->ctl[idx].attach,
			      owner_gone, p->epoch) == NULL)
		/* The attachment is forgotten: a detach gets -ENOENT. The
		 * memory may be reused while the client still writes it.
		 */
		ISM_PMD_LOG(ERR, "%s: no memory to keep attached DMB 0x%"
			    PRIx64, d->name, token);
	else if (owner_gone)
		rte_atomic_store_explicit(
				&d->me->pinned[ism_sw_tok_slot(token)],
				ism_ivshm_pin(d, ism_sw_tok_slot(token)),
				rte_memory_order_release);
	v->ctl[idx].attach = 0;
}

/* What view_update() did. */
#define VIEW_REMOVED	1u	/* token removed: synchronize, then ack */
#define VIEW_MISLED	2u	/* a token reported unregistered is back */

/* Set view entry idx of p from what its table holds now (VIEW_* flags). An
 * invalid entry leaves the entry as it is: only another member writes
 * one, and the owner writes its own back.
 */
static unsigned int
view_update(struct ivshm_dev *d, unsigned int s, uint32_t idx)
{
	struct ivshm_peer *p = &d->peers[s];
	struct ivshm_view *v = p->view;
	struct ism_sw_view_ent *e = &v->sw.ent[idx];
	struct ivshm_view_ctl *c = &v->ctl[idx];
	struct rte_ism_gid gid = { p->id.gid, p->id.gid_ext };
	struct ivshm_dmb_view dv;
	const char *why = NULL;
	unsigned int ret_flags = 0;
	int ret;

	ret = ism_ivshm_ent_read(ivshm_table(d->base, &d->lay, s), &d->lay, s,
			idx, &p->id, &dv, &why);
	if (ret < 0) {
		/* (A torn read: the owner is changing it, and says so.) */
		if (strcmp(why, "DMB entry changed while read") != 0)
			ism_ivshm_bad(d, s, why);
		return 0;
	}
	if (ret == 1 && e->token == dv.token)
		return 0;
	if (e->token != 0) {
		/* Only the writer is told (as on the other backends); only
		 * the writer can have attached it.
		 */
		if (e->writable) {
			ism_pmd_post(&d->common, RTE_ISM_EVENT_BUF,
				     RTE_ISM_BUF_UNREGISTERED, &gid, e->token,
				     0);
			c->gone = e->token;
		}
		if (c->attach > 0)
			orphan_add(d, p, idx, e->token, false);
		ism_sw_view_ent_clear(e);
		ret_flags |= VIEW_REMOVED;
	}
	if (ret != 1)
		return ret_flags;
	/* An owner never issues a token twice (ism_sw_token.h): this one
	 * was taken away by another member's writes.
	 */
	if (dv.token == c->gone) {
		ism_ivshm_bad(d, s, "a DMB reported unregistered is back");
		ret_flags |= VIEW_MISLED;
	}
	c->gone = 0;
	ism_sw_view_ent_set(e, dv.token,
			RTE_PTR_ADD(ivshm_part(d->base, &d->lay, s), dv.off),
			dv.len, gid_is(&d->gid, dv.rgid, dv.rgid_ext));
	return ret_flags;
}

/* Apply what p changed in its table since we last looked, and read
 * IVSHM_AUDIT_ENTRIES more of its entries again; VIEW_MISLED if our
 * client was told of a change that another member forged.
 */
static unsigned int
sync_table(struct ivshm_dev *d, unsigned int s)
{
	struct ivshm_peer *p = &d->peers[s];
	uint32_t nb = p->id.max_dmbs, x, k;
	uint16_t idx[IVSHM_CHG_RING];
	unsigned int n = 0, i, bad = 0, flags = 0;
	uint64_t head;
	int full;

	full = ism_ivshm_chg_read(ivshm_member(d->base, s), p->seen_chg, nb,
			idx, &n, &head, &bad);
	if (bad > 0)
		ism_ivshm_bad(d, s, "DMB index out of range in the change "
			      "ring");
	if (head != p->seen_chg && full) {
		for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + nb; x++)
			flags |= view_update(d, s, x);
	} else {
		for (i = 0; i < n; i++)
			flags |= view_update(d, s, idx[i]);
	}
	/* Changes written without an announcement (or behind a forged
	 * one) are found within nb / IVSHM_AUDIT_ENTRIES passes.
	 */
	for (k = 0; k < RTE_MIN(nb, (uint32_t)IVSHM_AUDIT_ENTRIES); k++) {
		flags |= view_update(d, s, IVSHM_IDX_FIRST + p->audit);
		p->audit = (p->audit + 1) % nb;
	}
	/* Whoever moved with a removed token has finished before we say
	 * so: then the owner may reuse the memory.
	 */
	if (flags & VIEW_REMOVED)
		rte_ism_pmd_synchronize();
	if (head != p->seen_chg) {
		p->seen_chg = head;
		ack(d, s, p->epoch, head);
	}
	return flags;
}

/* Take up the member in slot s (epoch, identity read and checked). */
static void
peer_up(struct ivshm_dev *d, unsigned int s, uint64_t epoch,
		const struct ivshm_ident *id)
{
	struct ivshm_peer *p = &d->peers[s];
	struct ivshm_view *v;
	uint32_t x;

	v = ism_ivshm_view_new(id->max_dmbs);
	if (v == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory for the DMB table of slot %u",
			    d->name, s);
		return;
	}
	v->sw.sba = ivshm_sba(d->base, &d->lay, s);
	p->view = v;
	p->id = *id;
	/* Its request we answered last, if it is that incarnation's (taken
	 * up again: resync), is not served twice.
	 */
	p->last_req = rte_atomic_load_explicit(&d->me->ans[s].seq,
			rte_memory_order_relaxed);
	p->audit = 0;
	/* Resync counters count from 0 for each pair of incarnations (the
	 * other reads ours once it sees our acknowledgment below).
	 */
	if (epoch != p->epoch) {
		p->resync_out = 0;
		p->resync_due = false;
		rte_atomic_store_explicit(&d->me->resync[s], 0,
				rte_memory_order_relaxed);
	}
	p->epoch = epoch;
	p->seen_chg = rte_atomic_load_explicit(&ivshm_member(d->base, s)->chg_head,
			rte_memory_order_acquire);
	for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + id->max_dmbs; x++)
		view_update(d, s, x);
	p->up = true;
	ism_ivshm_view_publish(d, s, v);
	ack(d, s, epoch, p->seen_chg);
	ism_pmd_post(&d->common, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ENABLED,
		     &(struct rte_ism_gid){ id->gid, id->gid_ext }, 0, 0);
}

/*
 * Take slot s out of the view. bounce: it stays (resync, peer_bounce()):
 * the attachments on either side are kept, as its device keeps ours.
 */
static void
retire(struct ivshm_dev *d, unsigned int s, bool events, bool bounce)
{
	struct ivshm_peer *p = &d->peers[s];
	struct rte_ism_gid gid = { p->id.gid, p->id.gid_ext };
	struct ivshm_view *v = p->view;
	struct ism_sw_orphan *orph;
	struct ivshm_own *o;
	uint32_t x;

	if (!p->up)
		return;
	/* Unreachable for the fast path, then wait out moves using it. */
	ism_ivshm_view_publish(d, s, NULL);
	rte_ism_pmd_synchronize();
	for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + v->sw.max_dmbs; x++) {
		if (v->sw.ent[x].token == 0 || !v->sw.ent[x].writable)
			continue;
		if (events)
			ism_pmd_post(&d->common, RTE_ISM_EVENT_BUF,
				     RTE_ISM_BUF_UNREGISTERED, &gid,
				     v->sw.ent[x].token, 0);
		if (v->ctl[x].attach > 0)
			orphan_add(d, p, x, v->sw.ent[x].token, !bounce);
	}
	/* Attachments of its DMBs it had unregistered: now nobody keeps
	 * that memory for us but the pin.
	 */
	TAILQ_FOREACH(orph, &d->orphans, next) {
		if (bounce || ism_sw_tok_slot(orph->token) != s ||
		    orph->owner_tag != p->epoch || orph->owner_gone)
			continue;
		orph->owner_gone = true;
		rte_atomic_store_explicit(&d->me->pinned[s],
				ism_ivshm_pin(d, s), rte_memory_order_release);
	}
	/* Our DMBs it could write: still ours, reported; its attachments
	 * end with it.
	 */
	for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + d->max_dmbs; x++) {
		o = &d->own[x];
		if (o->token == 0 || !rte_ism_gid_equal(&o->rgid, &gid))
			continue;
		if (events && o->registered)
			ism_pmd_post(&d->common, RTE_ISM_EVENT_BUF,
				     RTE_ISM_BUF_USER_DISABLED, &gid, o->token,
				     0);
		if (bounce)
			continue;
		o->attach_cnt = 0;
		if (!o->registered)
			ism_ivshm_own_free(d, x);
	}
	if (events)
		ism_pmd_post(&d->common, RTE_ISM_EVENT_DEV,
			     RTE_ISM_DEV_DISABLED, &gid, 0, 0);
	p->up = false;
	p->view = NULL;
	ism_ivshm_view_free(v);
	ack(d, s, 0, 0);
	if (bounce)
		return;
	p->retired = p->epoch;
	d->peers_gone++;
}

void
ism_ivshm_peer_retire(struct ivshm_dev *d, unsigned int s, bool events)
{
	retire(d, s, events, false);
}

/*
 * Slot s (epoch) misbehaved: not taken up for a liveness timeout, and our
 * client may have been misled about it (broke).
 */
static void
peer_fence(struct ivshm_dev *d, unsigned int s, uint64_t epoch,
		uint64_t now, const char *why)
{
	struct ivshm_peer *p = &d->peers[s];

	ism_ivshm_bad(d, s, why);
	p->fence_ns = now + d->liveness_ns + 2 * IVSHM_PERIOD_US * 1000ULL;
	p->broke = true;
	p->broke_epoch = epoch;
}

/*
 * Resync: our client may have been misled about up peer s (view_update()
 * found a forged change; a fenced incarnation was taken up after all), so
 * both clients start over with each other: each device retires the other
 * and takes it up again (peer_bounce()). Each device counts in its
 * resync[s] the resyncs with s it made or followed; a device whose peer's
 * counter is ahead of its own (serial order) follows: it bounces the peer
 * and takes the peer's count. So once the counters stop moving both are
 * equal, and the device that was behind bounced last: after the one
 * ahead, whose client sent its new token after its own bounce, and whose
 * requests wait meanwhile (resync_pending()), so the follower's client
 * hears of the token after it started over.
 *
 * Any member can write the counters. A forged one ahead of ours makes us
 * bounce and take it: then ours is ahead of the peer's (its own, which
 * it writes back), and the peer follows: the pair starts over on both
 * sides, never on one. A flood of them costs at most one bounce a
 * liveness timeout (resync_gap()) on each side, each with a bounded
 * number of events.
 */
static bool
resync_after(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) > 0;
}

static uint64_t
resync_gap(const struct ivshm_dev *d)
{
	return RTE_MIN(d->liveness_ns, IVSHM_RESYNC_GAP_MAX_MS * 1000000ULL);
}

/* Up peer s's resync counter for us, or ours if it is not about us (it
 * does not have this incarnation of ours in view).
 */
static uint64_t
resync_theirs(struct ivshm_dev *d, unsigned int s)
{
	struct ivshm_member *m = ivshm_member(d->base, s);

	if (rte_atomic_load_explicit(&m->view_epoch[d->slot],
			rte_memory_order_acquire) != d->epoch)
		return d->peers[s].resync_out;
	return rte_atomic_load_explicit(&m->resync[d->slot],
			rte_memory_order_acquire);
}

/* Is a resync with up peer s to be made (now, or when the gap is over)? */
static bool
resync_pending(struct ivshm_dev *d, unsigned int s)
{
	struct ivshm_peer *p = &d->peers[s];

	return p->resync_due || resync_after(resync_theirs(d, s),
					     p->resync_out);
}

/* Retire up peer s and take it up again at once: its client hears
 * RTE_ISM_DEV_DISABLED, then RTE_ISM_DEV_ENABLED, as after a restart.
 */
static void
peer_bounce(struct ivshm_dev *d, unsigned int s)
{
	struct ivshm_peer *p = &d->peers[s];
	struct ivshm_ident id = p->id;
	uint64_t epoch = p->epoch;

	retire(d, s, true, true);
	peer_up(d, s, epoch, &id);
	if (p->up)		/* else no memory: taken up by a later pass */
		d->resyncs++;
}

/* Make the resync with up peer s that is pending, unless the last one
 * was less than resync_gap() ago (meanwhile its requests wait).
 */
static void
resync_step(struct ivshm_dev *d, unsigned int s, uint64_t now)
{
	struct ivshm_peer *p = &d->peers[s];
	uint64_t theirs = resync_theirs(d, s);
	bool behind = resync_after(theirs, p->resync_out);

	if ((!behind && !p->resync_due) || now - p->resync_ns < resync_gap(d))
		return;
	peer_bounce(d, s);
	if (!p->up)
		return;
	p->resync_ns = now;
	if (behind)
		p->resync_out = theirs;
	if (p->resync_due)
		p->resync_out++;	/* ahead: it follows */
	p->resync_due = false;
	rte_atomic_store_explicit(&d->me->resync[s], p->resync_out,
			rte_memory_order_release);
}

/* Answer a request of up peer s. */
static int
serve(struct ivshm_dev *d, unsigned int s, const struct ivshm_req *r)
{
	struct ivshm_peer *p = &d->peers[s];
	struct rte_ism_gid gid = { p->id.gid, p->id.gid_ext };
	uint32_t type = r->type;
	struct ivshm_own *o;

	switch (type) {
	case IVSHM_REQ_EVENT:
		ism_pmd_post(&d->common, RTE_ISM_EVENT_SW, r->code, &gid, 0,
			     r->arg);
		return 0;
	case IVSHM_REQ_ATTACH:
		o = ism_ivshm_own_find(d, r->arg);
		if (o == NULL || !o->registered || !o->live)
			return -ENOENT;
		if (!rte_ism_gid_equal(&o->rgid, &gid))
			return -EACCES;
		o->attach_cnt++;
		return 0;
	default:	/* IVSHM_REQ_DETACH */
		o = ism_ivshm_own_find(d, r->arg);
		if (o == NULL || o->attach_cnt == 0 ||
		    !rte_ism_gid_equal(&o->rgid, &gid))
			return -ENOENT;
		if (--o->attach_cnt == 0 && !o->registered)
			ism_ivshm_own_free(d, ism_sw_tok_idx(o->token));
		return 0;
	}
}

static void
serve_requests(struct ivshm_dev *d, unsigned int s)
{
	struct ivshm_peer *p = &d->peers[s];
	struct ivshm_ans *a = &d->me->ans[s];
	const char *why = NULL;
	struct ivshm_req r;
	int ret;

	ret = ism_ivshm_req_read(ivshm_member(d->base, s), d->slot, p->epoch,
			d->epoch, p->last_req, &r, &why);
	if (ret == 0)
		return;
	/* A resync it asked for before this request (read after it) comes
	 * first: its client's token is for our client's next session.
	 */
	if (resync_pending(d, s))
		return;
	p->last_req = r.seq;
	if (ret < 0) {
		ism_ivshm_bad(d, s, why);
		ret = -EPROTO;
	} else {
		ret = serve(d, s, &r);
	}
	rte_atomic_store_explicit(&a->status, ret, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&a->seq, r.seq, rte_memory_order_release);
}

/* Is the member in slot s, found live in epoch, someone we take up? */
static void
maybe_up(struct ivshm_dev *d, unsigned int s, uint64_t epoch, uint64_t now)
{
	struct ivshm_peer *p = &d->peers[s];
	struct ivshm_member *m = ivshm_member(d->base, s);
	struct rte_ism_gid gid;
	struct ivshm_ident id;
	const char *why = NULL;
	bool acked;
	uint64_t w;
	int o;

	if (now < p->fence_ns)
		return;
	/* Proof that it runs: it changed since we first looked, or it saw
	 * us (a member found live at our join may be a dead one).
	 */
	acked = rte_atomic_load_explicit(&m->view_epoch[d->slot], rte_memory_order_acquire) ==
		d->epoch;
	if (!acked && !ism_ivshm_peer_alive(d, p, now))
		return;
	if (epoch == p->retired) {
		/* An honest member that left or was declared gone joins
		 * again with the next epoch: this state word was written
		 * back by another member. After the fence, a stale one is
		 * declared gone (nobody beats for it); one that still runs
		 * is taken up again.
		 */
		p->retired = 0;
		peer_fence(d, s, epoch, now, "a member we retired is LIVE "
			   "again in the same epoch");
		return;
	}
	if (ism_ivshm_ident_read(m, &d->lay, &id, &why) < 0) {
		/* Maybe a moment's scribbling, which its owner undoes. */
		peer_fence(d, s, epoch, now, why);
		return;
	}
	if (id.chid != d->chid)
		return;
	gid.gid = id.gid;
	gid.gid_ext = id.gid_ext;
	/* A member declared gone that joined again in another slot: this
	 * pass may have read its old slot before the old state word
	 * changed.
	 */
	o = ism_ivshm_peer_by_gid(d, &gid);
	if (o >= 0 && (!ism_ivshm_state_read(ivshm_member(d->base, o), &w) ||
		       w != ivshm_state_make(d->peers[o].epoch,
					     IVSHM_ST_LIVE))) {
		ism_ivshm_peer_retire(d, o, true);
		o = -1;
	}
	if (rte_ism_gid_equal(&gid, &d->gid) || o >= 0) {
		/* One of the two was forged: the one in view stays, and the
		 * other is taken up once the first is gone.
		 */
		peer_fence(d, s, epoch, now, "the GID of another member");
		return;
	}
	peer_up(d, s, epoch, &id);
	if (p->up && p->broke && p->broke_epoch == epoch) {
		/* Its client may think we have it in view since it joined,
		 * and our client heard of another with its GID meanwhile:
		 * taken up now, we are ahead and it follows (resync_step()).
		 */
		d->resyncs++;
		p->resync_ns = now;
		rte_atomic_store_explicit(&d->me->resync[s], ++p->resync_out,
				rte_memory_order_release);
	}
	p->broke = false;
}

void
ism_ivshm_peers_step(struct ivshm_dev *d, uint64_t now)
{
	struct ivshm_member *m;
	struct ivshm_peer *p;
	unsigned int s, st;
	uint64_t w, b, e;
	bool valid, serving;

	serving = ivshm_in_fabric(d);
	for (s = 0; s < d->lay.members; s++) {
		if (s == d->slot)
			continue;
		m = ivshm_member(d->base, s);
		p = &d->peers[s];
		valid = ism_ivshm_state_read(m, &w);
		b = rte_atomic_load_explicit(&m->beat, rte_memory_order_relaxed);
		if (!p->seen) {
			p->seen = true;
			p->word = w;
			p->beat = b;
			p->t_change = now;
		} else if (w != p->word || b != p->beat) {
			p->word = w;
			p->beat = b;
			p->t_change = now;
			p->moved = true;
		}
		if (!valid) {
			ism_ivshm_bad(d, s, "unknown member state");
			ism_ivshm_peer_retire(d, s, serving);
			/* Garbage that stays: a dead slot, to be reused. */
			if (ism_ivshm_peer_dead(d, p, now))
				rte_atomic_compare_exchange_strong_explicit(&m->state, &w,
					ivshm_state_make(ivshm_state_epoch(w),
					IVSHM_ST_DEAD),
					rte_memory_order_acq_rel, rte_memory_order_relaxed);
			continue;
		}
		st = ivshm_state_st(w);
		e = ivshm_state_epoch(w);
		if (p->up && (st != IVSHM_ST_LIVE || e != p->epoch)) {
			/* It left or was declared gone. Another epoch (or
			 * JOINING) while in our view is not a member's doing:
			 * the slot is taken again only once nobody has it in
			 * view.
			 */
			if (e != p->epoch || st == IVSHM_ST_JOINING)
				peer_fence(d, s, e, now, "state word of "
					   "another epoch in a slot in our "
					   "view");
			ism_ivshm_peer_retire(d, s, serving);
		}
		if ((st == IVSHM_ST_LIVE || st == IVSHM_ST_JOINING ||
		     st == IVSHM_ST_LEAVING) &&
		    ism_ivshm_peer_dead(d, p, now)) {
			/* No heartbeat for the liveness timeout: gone. The
			 * first device to see it says so for everyone.
			 */
			if (rte_atomic_compare_exchange_strong_explicit(&m->state, &w,
					ivshm_state_make(e, IVSHM_ST_DEAD),
					rte_memory_order_acq_rel,
					rte_memory_order_relaxed))
				ISM_PMD_LOG(NOTICE, "%s: member in slot %u "
					    "(epoch %" PRIu64 ") declared "
					    "gone: no heartbeat for %" PRIu64
					    " ms", d->name, s, e,
					    d->liveness_ns / 1000000);
			ism_ivshm_peer_retire(d, s, serving);
			continue;
		}
		if (!serving)
			continue;
		if (!p->up && st == IVSHM_ST_LIVE)
			maybe_up(d, s, e, now);
		if (p->up)
			resync_step(d, s, now);
		if (p->up && (sync_table(d, s) & VIEW_MISLED) != 0)
			p->resync_due = true;
		if (p->up)
			serve_requests(d, s);
	}
}

/* The answer to our request seq in s's area: its status, or 1 if none. */
static int
answer_of(struct ivshm_dev *d, unsigned int s, uint64_t seq)
{
	const struct ivshm_ans *a = &ivshm_member(d->base, s)->ans[d->slot];
	int64_t st;

	if (rte_atomic_load_explicit(&a->seq, rte_memory_order_acquire) != seq)
		return 1;
	st = rte_atomic_load_explicit(&a->status, rte_memory_order_relaxed);
	/* An errno, or 0; anything else is not an answer we trust. */
	return st <= 0 && st >= -4095 ? (int)st : -EPROTO;
}

struct req_wait {
	unsigned int slot;
	uint64_t epoch;
	unsigned int my_slot;		/* ours when we asked */
	uint64_t my_epoch;
	uint64_t seq;
	int status;
};

static bool
req_done(struct ivshm_dev *d, void *arg)
{
	struct req_wait *w = arg;
	struct ivshm_peer *p = &d->peers[w->slot];

	/* The control pass runs while we wait: if it found us expelled, the
	 * request died with our slot (whose answers, d->slot, are no longer
	 * ours to read: NO_SLOT while out).
	 */
	if (d->slot != w->my_slot || d->epoch != w->my_epoch) {
		w->status = -ENETUNREACH;
		return true;
	}
	/* An answer counts even if the peer left right after it. */
	w->status = answer_of(d, w->slot, w->seq);
	if (w->status != 1)
		return true;
	if (!p->up || p->epoch != w->epoch || !ivshm_in_fabric(d)) {
		w->status = -ENETUNREACH;
		return true;
	}
	return false;
}

int
ism_ivshm_request(struct ivshm_dev *d, unsigned int s, uint32_t type,
		uint32_t code, uint64_t arg, uint32_t trigger)
{
	struct req_wait w = { .slot = s, .epoch = d->peers[s].epoch,
		.my_slot = d->slot, .my_epoch = d->epoch };
	struct ivshm_req *q;
	int ret;

	if (!ivshm_in_fabric(d) || d->me == NULL)
		return -ENETUNREACH;
	q = &d->me->req[s];
	if (++d->req_ctr == 0)
		d->req_ctr = 1;
	w.seq = ((d->epoch & UINT32_MAX) << 32) | d->req_ctr;
	q->to_epoch = w.epoch;
	q->type = type;
	q->code = code;
	q->arg = arg;
	q->trigger = trigger;
	rte_atomic_store_explicit(&q->seq, w.seq, rte_memory_order_release);
	ret = ism_ivshm_wait(d, req_done, &w,
			IVSHM_ACK_TIMEOUT_MS * 1000000ULL);
	if (ret < 0) {
		ISM_PMD_LOG(ERR, "%s: no answer from slot %u in %u ms",
			    d->name, s, IVSHM_ACK_TIMEOUT_MS);
		return ret;
	}
	return w.status;
}
