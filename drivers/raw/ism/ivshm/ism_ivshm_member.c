/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Membership of one device in the fabric of its region, as a state
 * machine stepped by every control pass (so that no step blocks):
 *
 *   CLAIM     take a slot: FREE or DEAD, not still in anyone's view or
 *             pinned (a live member may still move into, or map, memory of
 *             its previous incarnation); state word CAS to JOINING with
 *             the next epoch; reset the member area, DMB table and SBA.
 *   CHECK     the GID must be unique among live members of our CHID: a
 *             live one with our GID fails the join (-EEXIST); one whose
 *             heartbeat stopped is declared gone; two joiners with one GID
 *             both see each other (each writes its GID, then looks), the
 *             one in the higher slot gives up.
 *   ANNOUNCE  state word LIVE; wait until every live member of our CHID
 *             took us into its view (view_epoch), or is declared gone.
 *   LIVE      heartbeat; if our state word is no longer LIVE(epoch) the
 *             others declared us gone (we did not run for longer than the
 *             liveness timeout): expelled. We retire everyone, our DMBs
 *             are revoked (BUF_OWNER_ERROR each, DEV_ERROR_STATE once) and
 *             we join again from CLAIM, preferring the same slot.
 *   LEAVING   state word LEAVING; the others retire us; then FREE.
 *
 * From CHECK to LEAVING (while our state word shows a member to joiners)
 * every pass writes back the region header we joined with if another
 * member changed it: a joiner must find the fabric we are in, not format
 * the region under us or take another CHID or liveness timeout. A CLAIM
 * (a rejoin) waits while the header is not that one.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include <rte_atomic.h>

#include <ism_compat.h>

#include "ism_ivshm.h"

/* How long a join may take before it fails: the others need up to one
 * liveness timeout to be declared gone, plus their acknowledgments.
 */
static uint64_t
join_deadline_ns(const struct ivshm_dev *d)
{
	return 2 * d->liveness_ns + IVSHM_ACK_TIMEOUT_MS * 1000000ULL;
}

static void
set_phase(struct ivshm_dev *d, enum ivshm_phase ph, uint64_t now)
{
	d->phase = ph;
	d->phase_ns = now;
}

static void
beat(struct ivshm_dev *d)
{
	rte_atomic_store_explicit(&d->me->beat, ++d->beat, rte_memory_order_release);
}

/*
 * May slot s, whose state word is w, be taken? Not while a member that
 * may be running still has its incarnation in view or pinned.
 */
static bool
slot_free(const struct ivshm_dev *d, unsigned int s, uint64_t w)
{
	uint64_t e = ivshm_state_epoch(w), mw;
	unsigned int st = ivshm_state_st(w), o, ost;
	struct ivshm_member *m;

	if (st != IVSHM_ST_FREE && st != IVSHM_ST_DEAD)
		return false;
	if (e == 0)
		return true;	/* never used */
	for (o = 0; o < d->lay.members; o++) {
		if (o == s)
			continue;
		m = ivshm_member(d->base, o);
		if (!ism_ivshm_state_read(m, &mw))
			continue;
		ost = ivshm_state_st(mw);
		if (ost != IVSHM_ST_JOINING && ost != IVSHM_ST_LIVE &&
		    ost != IVSHM_ST_LEAVING)
			continue;
		if (rte_atomic_load_explicit(&m->view_epoch[s], rte_memory_order_acquire) == e ||
		    rte_atomic_load_explicit(&m->pinned[s], rte_memory_order_acquire) == e)
			return false;
	}
	return true;
}

/* We own slot s at epoch: fill in our area, clear our table and SBA. */
static void
take_slot(struct ivshm_dev *d, unsigned int s, uint64_t epoch)
{
	struct ivshm_member *m = ivshm_member(d->base, s);
	struct ivshm_ent *t = ivshm_table(d->base, &d->lay, s);
	uint32_t x;

	d->slot = s;
	d->epoch = epoch;
	d->me = m;
	d->chg_head = 0;
	memset(&d->peers[s], 0, sizeof(d->peers[s]));
	/* Everything but the state word, which says JOINING already. */
	memset((char *)m + 8, 0, sizeof(*m) - 8);
	m->gid = d->gid.gid;
	m->gid_ext = d->gid.gid_ext;
	m->max_dmbs = d->max_dmbs;
	m->max_dmb_len = d->max_dmb_len;
	m->chid = d->chid;
	m->kind = d->kind;
	m->pid = getpid();
	m->liveness_ms = d->lay.liveness_ms;
	memset(t, 0, IVSHM_TABLE_SIZE);
	memset(ivshm_sba(d->base, &d->lay, s), 0, IVSHM_SBA_SIZE);
	/* A new partition: DMBs of an earlier slot stay where they were
	 * until unregistered, but are no longer ours to place.
	 */
	if (d->alloc_slot != s) {
		ism_ivshm_alloc_reset(&d->alloc, d->lay.part_size /
				IVSHM_DMB_ALIGN);
		d->alloc_slot = s;
		for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + d->max_dmbs;
		     x++)
			d->own[x].slot = IVSHM_NO_SLOT;
	}
	/* GID before looking at the others' (CHECK). */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
}

/* Write back the header we joined with, if it changed. */
static void
repair_header(struct ivshm_dev *d)
{
	struct ivshm_hdr *h = ivshm_hdr(d->base);

	if (ism_ivshm_hdr_same(h, &d->lay))
		return;
	ism_ivshm_bad(d, -1, "the region header was changed; written back");
	ism_ivshm_hdr_write(h, &d->lay);
}

static bool
try_claim(struct ivshm_dev *d, unsigned int s)
{
	struct ivshm_member *m = ivshm_member(d->base, s);
	uint64_t w, nw;

	if (!ism_ivshm_state_read(m, &w) || !slot_free(d, s, w))
		return false;
	nw = ivshm_state_make(ivshm_state_epoch(w) + 1, IVSHM_ST_JOINING);
	if (!rte_atomic_compare_exchange_strong_explicit(&m->state, &w, nw,
			rte_memory_order_acq_rel, rte_memory_order_relaxed))
		return false;
	take_slot(d, s, ivshm_state_epoch(nw));
	return true;
}

static void
join_failed(struct ivshm_dev *d, int err, uint64_t now)
{
	uint64_t w;

	if (d->rejoin)
		ISM_PMD_LOG(ERR, "%s: joining again failed (%s); trying again "
			    "in %" PRIu64 " ms", d->name, strerror(-err),
			    d->liveness_ns / 1000000);
	if (d->slot != IVSHM_NO_SLOT) {
		w = ivshm_state_make(d->epoch, IVSHM_ST_JOINING);
		rte_atomic_compare_exchange_strong_explicit(&d->me->state, &w,
			ivshm_state_make(d->epoch, IVSHM_ST_FREE),
			rte_memory_order_acq_rel, rte_memory_order_relaxed);
		d->slot = IVSHM_NO_SLOT;
	}
	d->join_err = err;
	set_phase(d, IVSHM_PH_FAILED, now);
}

static void
step_claim(struct ivshm_dev *d, uint64_t now)
{
	unsigned int s, pass;
	uint64_t w;

	/* The region still holds the fabric whose geometry we use (a member
	 * that was in it writes a forged header back, ourselves once we
	 * claimed a slot).
	 */
	if (!ism_ivshm_hdr_same(ivshm_hdr(d->base), &d->lay))
		goto wait;
	/* Our old slot first (a rejoin keeps its partition), then slots
	 * never used or left cleanly, then those of dead members.
	 */
	if (d->prev_slot != IVSHM_NO_SLOT && try_claim(d, d->prev_slot))
		goto claimed;
	for (pass = 0; pass < 2; pass++)
		for (s = 0; s < d->lay.members; s++) {
			if (!ism_ivshm_state_read(ivshm_member(d->base, s),
						  &w) ||
			    ivshm_state_st(w) != (pass == 0 ? IVSHM_ST_FREE :
						  IVSHM_ST_DEAD))
				continue;
			if (try_claim(d, s))
				goto claimed;
		}
wait:
	if (now - d->phase_ns > join_deadline_ns(d)) {
		if (!ism_ivshm_hdr_same(ivshm_hdr(d->base), &d->lay))
			ISM_PMD_LOG(ERR, "%s: the header of %s is no longer "
				    "that of fabric 0x%016" PRIx64 ", which "
				    "this device was in", d->name, d->where,
				    d->lay.fabric_id);
		else
			ISM_PMD_LOG(ERR, "%s: no free slot among the %u of %s "
				    "(slots of members that left are taken "
				    "again once every member has let go of "
				    "them)", d->name, d->lay.members,
				    d->where);
		join_failed(d, -ENOSPC, now);
	}
	return;
claimed:
	set_phase(d, IVSHM_PH_CHECK, now);
}

static void
step_check(struct ivshm_dev *d, uint64_t now)
{
	char gs[RTE_ISM_GID_STRLEN];
	struct ivshm_member *m;
	struct ivshm_peer *p;
	bool wait = false;
	unsigned int s, st;
	uint64_t w;

	for (s = 0; s < d->lay.members; s++) {
		if (s == d->slot)
			continue;
		m = ivshm_member(d->base, s);
		p = &d->peers[s];
		if (!ism_ivshm_state_read(m, &w))
			continue;
		st = ivshm_state_st(w);
		if (st != IVSHM_ST_JOINING && st != IVSHM_ST_LIVE &&
		    st != IVSHM_ST_LEAVING)
			continue;
		if (rte_atomic_load_explicit(&m->gid, rte_memory_order_relaxed) != d->gid.gid ||
		    rte_atomic_load_explicit(&m->gid_ext, rte_memory_order_relaxed) !=
		    d->gid.gid_ext ||
		    rte_atomic_load_explicit(&m->chid, rte_memory_order_relaxed) != d->chid)
			continue;
		/* Declared gone by ism_ivshm_peers_step() when it is dead. */
		if (ism_ivshm_peer_dead(d, p, now))
			continue;
		if (st == IVSHM_ST_LEAVING ||
		    !ism_ivshm_peer_alive(d, p, now) ||
		    (st == IVSHM_ST_JOINING && s > d->slot)) {
			wait = true;
			continue;
		}
		rte_ism_gid_format(&d->gid, gs, sizeof(gs));
		ISM_PMD_LOG(ERR, "%s: GID %s is already used by the %s member "
			    "in slot %u of fabric 0x%04x in %s", d->name, gs,
			    st == IVSHM_ST_LIVE ? "live" : "joining", s,
			    d->chid, d->where);
		join_failed(d, -EEXIST, now);
		return;
	}
	if (wait) {
		if (now - d->phase_ns > join_deadline_ns(d)) {
			ISM_PMD_LOG(ERR, "%s: could not tell whether GID is "
				    "unique in time", d->name);
			join_failed(d, -ETIMEDOUT, now);
		}
		return;
	}
	rte_atomic_store_explicit(&d->me->state, ivshm_state_make(d->epoch,
			 IVSHM_ST_LIVE), rte_memory_order_release);
	/* Our SBA for polls, our DMBs for moves to ourselves. */
	d->own_view->sw.sba = ivshm_sba(d->base, &d->lay, d->slot);
	ism_ivshm_view_publish(d, d->slot, d->own_view);
	rte_atomic_store_explicit(&d->sba, d->own_view->sw.sba,
			rte_memory_order_release);
	set_phase(d, IVSHM_PH_ANNOUNCE, now);
}

/* Has every live member of our CHID taken us in (or been declared gone)? */
static void
step_announce(struct ivshm_dev *d, uint64_t now)
{
	struct ivshm_member *m;
	unsigned int s;
	uint64_t w;

	for (s = 0; s < d->lay.members; s++) {
		if (s == d->slot)
			continue;
		m = ivshm_member(d->base, s);
		if (!ism_ivshm_state_read(m, &w) ||
		    ivshm_state_st(w) != IVSHM_ST_LIVE ||
		    rte_atomic_load_explicit(&m->chid, rte_memory_order_relaxed) != d->chid ||
		    ism_ivshm_peer_dead(d, &d->peers[s], now))
			continue;
		if (rte_atomic_load_explicit(&m->view_epoch[d->slot],
				    rte_memory_order_acquire) == d->epoch)
			continue;
		if (now - d->phase_ns <= join_deadline_ns(d))
			return;
		ISM_PMD_LOG(WARNING, "%s: the member in slot %u did not take "
			    "us in within %" PRIu64 " ms", d->name, s,
			    join_deadline_ns(d) / 1000000);
	}
	set_phase(d, IVSHM_PH_LIVE, now);
}

/* The others declared us gone: start again. */
static void
expelled(struct ivshm_dev *d, uint64_t w, uint64_t now)
{
	struct ivshm_own *o;
	unsigned int s;
	uint32_t x;

	ISM_PMD_LOG(ERR, "%s: declared gone by the other members (state "
		    "word 0x%" PRIx64 ", was epoch %" PRIu64 " of slot %u): "
		    "it did not run for more than %" PRIu64 " ms. Its DMBs "
		    "are revoked; joining again", d->name, w, d->epoch,
		    d->slot, d->liveness_ns / 1000000);
	d->expulsions++;
	for (s = 0; s < d->lay.members; s++)
		ism_ivshm_peer_retire(d, s, true);
	ism_ivshm_view_publish(d, d->slot, NULL);
	rte_atomic_store_explicit(&d->sba, &d->quiet_sba, rte_memory_order_release);
	for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + d->max_dmbs; x++)
		rte_atomic_store_explicit(&d->own_live[x], 0, rte_memory_order_relaxed);
	rte_ism_pmd_synchronize();
	for (x = IVSHM_IDX_FIRST; x < IVSHM_IDX_FIRST + d->max_dmbs; x++) {
		o = &d->own[x];
		if (o->token == 0)
			continue;
		ism_sw_view_ent_clear(&d->own_view->sw.ent[x]);
		if (o->live && o->registered)
			ism_pmd_post(&d->common, RTE_ISM_EVENT_BUF,
				     RTE_ISM_BUF_OWNER_ERROR, &d->gid,
				     o->token, 0);
		o->live = false;
		o->attach_cnt = 0;
		if (!o->registered)
			ism_ivshm_own_free(d, x);
	}
	ism_pmd_post(&d->common, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ERROR_STATE,
		     &d->gid, 0, 0);
	d->prev_slot = d->slot;
	d->slot = IVSHM_NO_SLOT;
	d->rejoin = true;
	d->me = NULL;
	memset(d->peers, 0, sizeof(d->peers));
	set_phase(d, IVSHM_PH_CLAIM, now);
}

static void
fix64(__rte_atomic uint64_t *p, uint64_t want)
{
	if (rte_atomic_load_explicit(p, rte_memory_order_relaxed) != want)
		rte_atomic_store_explicit(p, want, rte_memory_order_release);
}

/*
 * Any member may overwrite our area. What the others read from it is
 * written again when it differs from what we know: identity, the head of
 * our change ring, our acknowledgments, pins and resync requests. (Our
 * DMB table is checked a part at a time: ism_ivshm_own_audit().)
 */
static void
repair(struct ivshm_dev *d)
{
	struct ivshm_member *m = d->me;
	struct ivshm_peer *p;
	unsigned int s;

	if (m->gid != d->gid.gid || m->gid_ext != d->gid.gid_ext ||
	    m->max_dmbs != d->max_dmbs || m->max_dmb_len != d->max_dmb_len ||
	    m->chid != d->chid || m->kind != d->kind ||
	    m->liveness_ms != d->lay.liveness_ms) {
		m->gid = d->gid.gid;
		m->gid_ext = d->gid.gid_ext;
		m->max_dmbs = d->max_dmbs;
		m->max_dmb_len = d->max_dmb_len;
		m->chid = d->chid;
		m->kind = d->kind;
		m->liveness_ms = d->lay.liveness_ms;
	}
	fix64(&m->chg_head, d->chg_head);
	for (s = 0; s < d->lay.members; s++) {
		p = &d->peers[s];
		fix64(&m->pinned[s], ism_ivshm_pin(d, s));
		if (s == d->slot)
			continue;
		fix64(&m->resync[s], p->resync_out);
		fix64(&m->seen_chg[s], p->up ? p->seen_chg : 0);
		fix64(&m->view_epoch[s], p->up ? p->epoch : 0);
	}
}

void
ism_ivshm_member_step(struct ivshm_dev *d, uint64_t now)
{
	uint64_t w;

	switch (d->phase) {
	case IVSHM_PH_CLAIM:
		step_claim(d, now);
		break;
	case IVSHM_PH_CHECK:
		beat(d);
		repair_header(d);
		step_check(d, now);
		break;
	case IVSHM_PH_ANNOUNCE:
	case IVSHM_PH_LIVE:
		beat(d);
		ism_ivshm_state_read(d->me, &w);
		if (w != ivshm_state_make(d->epoch, IVSHM_ST_LIVE)) {
			expelled(d, w, now);
			break;
		}
		repair_header(d);
		repair(d);
		ism_ivshm_own_audit(d);
		if (d->phase == IVSHM_PH_ANNOUNCE)
			step_announce(d, now);
		break;
	case IVSHM_PH_LEAVING:
		beat(d);
		repair_header(d);
		break;
	case IVSHM_PH_FAILED:
		/* A device that was in the fabric keeps trying: whatever
		 * stopped it (a member with its GID, no slot) may go.
		 */
		if (d->rejoin && now - d->phase_ns > d->liveness_ns)
			set_phase(d, IVSHM_PH_CLAIM, now);
		break;
	}
}

static bool
joined(struct ivshm_dev *d, void *arg __rte_unused)
{
	return d->phase == IVSHM_PH_LIVE || d->phase == IVSHM_PH_FAILED;
}

static bool
all_let_go(struct ivshm_dev *d, void *arg __rte_unused)
{
	uint64_t now = ism_ivshm_now_ns();
	struct ivshm_member *m;
	unsigned int s;
	uint64_t w;

	for (s = 0; s < d->lay.members; s++) {
		if (s == d->slot || !d->peers[s].up)
			continue;
		m = ivshm_member(d->base, s);
		if (!ism_ivshm_state_read(m, &w) ||
		    ivshm_state_st(w) != IVSHM_ST_LIVE ||
		    ism_ivshm_peer_dead(d, &d->peers[s], now))
			continue;
		if (rte_atomic_load_explicit(&m->view_epoch[d->slot],
				    rte_memory_order_acquire) == d->epoch)
			return false;
	}
	return true;
}

int
ism_ivshm_member_join(struct ivshm_dev *d)
{
	int ret;

	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	ret = ism_ivshm_wait(d, joined, NULL, 2 * join_deadline_ns(d) +
			1000000000ULL);
	if (ret == 0 && d->phase == IVSHM_PH_FAILED)
		ret = d->join_err;
	else if (ret < 0)
		ISM_PMD_LOG(ERR, "%s: join not finished in time", d->name);
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
	return ret;
}

void
ism_ivshm_member_leave(struct ivshm_dev *d)
{
	unsigned int s;
	uint64_t w;

	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	if (d->slot == IVSHM_NO_SLOT) {
		d->phase = IVSHM_PH_FAILED;
		goto out;
	}
	if (d->phase == IVSHM_PH_ANNOUNCE || d->phase == IVSHM_PH_LIVE) {
		w = ivshm_state_make(d->epoch, IVSHM_ST_LIVE);
		if (rte_atomic_compare_exchange_strong_explicit(&d->me->state, &w,
				ivshm_state_make(d->epoch, IVSHM_ST_LEAVING),
				rte_memory_order_acq_rel, rte_memory_order_relaxed)) {
			set_phase(d, IVSHM_PH_LEAVING, ism_ivshm_now_ns());
			/* They post their events, then let go of us. */
			if (ism_ivshm_wait(d, all_let_go, NULL,
				       IVSHM_ACK_TIMEOUT_MS * 1000000ULL) < 0)
				ISM_PMD_LOG(WARNING, "%s: not every member "
					    "acknowledged our leaving in "
					    "time", d->name);
		}
	}
	d->phase = IVSHM_PH_LEAVING;
	for (s = 0; s < d->lay.members; s++)
		ism_ivshm_peer_retire(d, s, false);
	/* Free for the next member, unless we were declared gone (then it is
	 * DEAD already, or taken again).
	 */
	ism_ivshm_state_read(d->me, &w);
	if (ivshm_state_epoch(w) == d->epoch &&
	    ivshm_state_st(w) != IVSHM_ST_FREE)
		rte_atomic_compare_exchange_strong_explicit(&d->me->state, &w,
			ivshm_state_make(d->epoch, IVSHM_ST_FREE),
			rte_memory_order_acq_rel, rte_memory_order_relaxed);
	d->phase = IVSHM_PH_FAILED;
out:
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
}
