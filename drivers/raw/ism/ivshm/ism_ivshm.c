/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * ivshmem backend: the fast path and the control ops. See ism_ivshm.h for
 * the design.
 *
 * Fast path: as on the shm backend, the token names the owner's slot and
 * the DMB index; the writer finds its view of the owner in views[slot],
 * compares the whole token with the entry at the index and copies into
 * the region through its own mapping. The view is this device's own copy,
 * checked when it was taken from the region: a move never reads anything
 * another member wrote, besides the DMB bytes it writes and the SBA.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <rte_cycles.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include <ism_compat.h>

#include "ism_ivshm.h"

static inline int
ivshm_target(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	const struct ivshm_dev *d = ctx;

	return ism_sw_view_target(rte_atomic_load_explicit(
			&d->views[ism_sw_tok_slot(token)],
			rte_memory_order_acquire), token, t);
}

/* Fast-path resolution (ism_sw_move_data_fast): fp_ent[] holds a table
 * of IVSHM_NB_IDX entries for every slot (ism_sw_view.h).
 */
static __rte_always_inline bool
ivshm_find(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	const struct ivshm_dev *d = ctx;

	return ism_sw_view_find(d->fp_ent, token, t);
}

/* Every other case (non-EAL threads, errors, the fence fallback), signalled
 * or not.
 */
static __rte_noinline int
ivshm_move_data_full(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data(ctx, ivshm_target, token, idx, sf, offset,
			data, len);
}

/* A signalled move: lookup with the SBA and the wake-up, then the raise. */
static __rte_noinline int
ivshm_move_data_sig(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_signal_fast(ctx, ivshm_target, ivshm_move_data_full,
			token, idx, sf, offset, data, len);
}

static int
ivshm_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data_fast(ctx, ivshm_find, ivshm_move_data_sig,
			ivshm_move_data_full, token, idx, sf, offset, data,
			len);
}

static int
ivshm_move_burst(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		const struct rte_ism_move_seg *segs, uint16_t nb_segs)
{
	return ism_sw_move_burst(ctx, ivshm_target, token, idx, sf, segs,
			nb_segs);
}

/*
 * One SBA per member, raised by every writer: the cost is one line read
 * when nothing is pending, whatever the number of DMBs and peers. Any
 * member may scribble over it: indices this device has no DMB at are
 * dropped (the SBA reports indices below IVSHM_NB_IDX only). No control
 * work: the passes run on the control thread alone (ism_ivshm_ctl.c), as
 * the shm backend's (devtools/check-fastpath.py keeps it so).
 */
static int
ivshm_signal_poll(void *ctx, struct rte_ism_signal *sigs, uint16_t nb)
{
	struct ivshm_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	struct ism_sw_sba *sba;
	uint16_t got, i, n = 0;

	/* In the bracket: after an expulsion the old SBA may become another
	 * member's, once rte_ism_pmd_synchronize() says no poll uses it.
	 */
	rte_ism_pmd_move_enter(slot);
	sba = rte_atomic_load_explicit(&d->sba, rte_memory_order_acquire);
	if (ism_sw_sba_pending(sba)) {
		got = ism_sw_sba_poll(sba, sigs, nb);
		for (i = 0; i < got; i++)
			if (rte_atomic_load_explicit(&d->own_live[sigs[i].dmb_idx],
					    rte_memory_order_relaxed))
				sigs[n++] = sigs[i];
	}
	rte_ism_pmd_move_exit(slot);
	return n;
}

/* Control ops: op_lock (one waiting op per device), then the control
 * lock, which waits release between their checks.
 */

static void
op_lock(struct ivshm_dev *d)
{
	pthread_mutex_lock(&d->op_lock);
	pthread_mutex_lock(&ism_ivshm_ctl_lock);
}

static void
op_unlock(struct ivshm_dev *d)
{
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
	pthread_mutex_unlock(&d->op_lock);
}

struct ivshm_own *
ism_ivshm_own_find(struct ivshm_dev *d, uint64_t token)
{
	uint32_t idx = ism_sw_tok_idx(token);

	if (token == 0 || idx < IVSHM_IDX_FIRST ||
	    idx - IVSHM_IDX_FIRST >= d->max_dmbs ||
	    d->own[idx].token != token)
		return NULL;
	return &d->own[idx];
}

void
ism_ivshm_own_free(struct ivshm_dev *d, uint32_t idx)
{
	struct ivshm_own *o = &d->own[idx];

	/* A DMB of an earlier slot (before an expulsion) is not in the
	 * allocator's partition.
	 */
	if (o->slot == d->alloc_slot)
		ism_ivshm_alloc_give(&d->alloc, o->off / IVSHM_DMB_ALIGN,
				RTE_ALIGN_CEIL(o->len, IVSHM_DMB_ALIGN) /
				IVSHM_DMB_ALIGN);
	ism_sw_ids_put(&d->ids, idx);
	o->token = 0;
	o->addr = NULL;
	o->len = 0;
	o->attach_cnt = 0;
	o->registered = false;
	o->live = false;
}

void
ism_ivshm_publish(struct ivshm_dev *d, uint32_t idx)
{
	struct ivshm_member *m = d->me;

	rte_atomic_store_explicit(&m->chg_idx[d->chg_head % IVSHM_CHG_RING], idx,
			 rte_memory_order_relaxed);
	rte_atomic_store_explicit(&m->chg_head, ++d->chg_head, rte_memory_order_release);
}

/*
 * Another member may change our DMB table: its readers would take a token
 * of ours for unregistered, or a forged one for ours. Check a part of it
 * each pass against what we registered; write back what differs (the
 * fields, the token last) and announce it, so that the readers read it
 * again (and find a token they took for unregistered back: they start
 * over with us, ism_ivshm_peer.c).
 */
void
ism_ivshm_own_audit(struct ivshm_dev *d)
{
	struct ivshm_ent *t = ivshm_table(d->base, &d->lay, d->slot), *tab_ent;
	uint32_t k, idx;
	struct ivshm_own *o;
	uint64_t want;

	for (k = 0; k < RTE_MIN(d->max_dmbs, (uint32_t)IVSHM_AUDIT_ENTRIES);
	     k++) {
		idx = IVSHM_IDX_FIRST + d->audit_next;
		d->audit_next = (d->audit_next + 1) % d->max_dmbs;
		o = &d->own[idx];
		tab_ent = &t[idx];
		want = o->live ? o->token : 0;
		if (rte_atomic_load_explicit(&tab_ent->token,
				rte_memory_order_relaxed) == want &&
		    (want == 0 ||
		     (rte_atomic_load_explicit(&tab_ent->rgid,
				rte_memory_order_relaxed) == o->rgid.gid &&
		      rte_atomic_load_explicit(&tab_ent->rgid_ext,
				rte_memory_order_relaxed) == o->rgid.gid_ext &&
		      rte_atomic_load_explicit(&tab_ent->off64,
				rte_memory_order_relaxed) ==
				o->off / IVSHM_DMB_ALIGN &&
		      rte_atomic_load_explicit(&tab_ent->len,
				rte_memory_order_relaxed) == o->len)))
			continue;
		ism_ivshm_bad(d, -1, "an entry of our DMB table was changed");
		/* The token last, as at registration: a reader that loads it
		 * sees the fields (a token that stayed was not read again).
		 */
		if (want != 0) {
			tab_ent->rgid = o->rgid.gid;
			tab_ent->rgid_ext = o->rgid.gid_ext;
			tab_ent->off64 = o->off / IVSHM_DMB_ALIGN;
			tab_ent->len = o->len;
		}
		rte_atomic_store_explicit(&tab_ent->token, want,
				rte_memory_order_release);
		ism_ivshm_publish(d, idx);
	}
}

/* Until every member in our view has applied our last DMB change (or is
 * gone): then the writer can use a new token, no one an old one, and the
 * others answer -EACCES rather than -ENOENT, as on the other backends.
 */
static bool
peers_applied(struct ivshm_dev *d, void *arg __rte_unused)
{
	struct ivshm_member *m;
	unsigned int s;

	if (!ivshm_in_fabric(d))
		return true;
	for (s = 0; s < d->lay.members; s++) {
		if (s == d->slot || !d->peers[s].up)
			continue;
		m = ivshm_member(d->base, s);
		if (rte_atomic_load_explicit(&m->view_epoch[d->slot],
				    rte_memory_order_acquire) != d->epoch ||
		    rte_atomic_load_explicit(&m->seen_chg[d->slot],
				    rte_memory_order_acquire) < d->chg_head)
			return false;
	}
	return true;
}

static void
wait_peers(struct ivshm_dev *d)
{
	/* Not answering in time is logged and not held against the
	 * registration (as on the shm backend).
	 */
	if (ism_ivshm_wait(d, peers_applied, NULL,
		       IVSHM_ACK_TIMEOUT_MS * 1000000ULL) < 0)
		ISM_PMD_LOG(WARNING, "%s: not every member applied a DMB "
			    "change within %u ms", d->name,
			    IVSHM_ACK_TIMEOUT_MS);
}

static int
ivshm_dmb_register(struct rte_ism_dev *idev, struct rte_ism_dmb *req)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	uint64_t units = RTE_ALIGN_CEIL((uint64_t)req->len, IVSHM_DMB_ALIGN) /
		IVSHM_DMB_ALIGN;
	struct ivshm_ent *tab_ent;
	struct ivshm_own *o;
	int64_t off;
	uint32_t idx;
	int ret;

	op_lock(d);
	if (!ivshm_in_fabric(d)) {
		ISM_PMD_LOG(ERR, "%s: not in the fabric now (declared gone, "
			    "joining again)", d->name);
		ret = -EAGAIN;
		goto out;
	}
	ret = ism_sw_ids_take(&d->ids, req->idx, d->name);
	if (ret < 0)
		goto out;
	idx = ret;
	off = ism_ivshm_alloc_take(&d->alloc, units);
	if (off < 0) {
		ISM_PMD_LOG(ERR, "%s: no room for a DMB of %u bytes in its "
			    "%" PRIu64 "-byte share of %s", d->name, req->len,
			    d->lay.part_size, d->where);
		ism_sw_ids_put(&d->ids, idx);
		ret = -ENOMEM;
		goto out;
	}
	o = &d->own[idx];
	o->token = ism_sw_ids_token(&d->ids, d->slot, idx);
	o->rgid = req->rgid;
	o->off = (uint64_t)off * IVSHM_DMB_ALIGN;
	o->addr = RTE_PTR_ADD(ivshm_part(d->base, &d->lay, d->slot), o->off);
	o->len = req->len;
	o->attach_cnt = 0;
	o->slot = d->slot;
	o->registered = true;
	o->live = true;
	memset(o->addr, 0, o->len);

	ism_sw_view_ent_set(&d->own_view->sw.ent[idx], o->token, o->addr,
			o->len, rte_ism_gid_equal(&req->rgid, &d->gid));
	rte_atomic_store_explicit(&d->own_live[idx], 1, rte_memory_order_release);

	/* The entry, its token last; then tell the others it changed. */
	tab_ent = &ivshm_table(d->base, &d->lay, d->slot)[idx];
	tab_ent->rgid = o->rgid.gid;
	tab_ent->rgid_ext = o->rgid.gid_ext;
	tab_ent->off64 = o->off / IVSHM_DMB_ALIGN;
	tab_ent->len = o->len;
	rte_atomic_store_explicit(&tab_ent->token, o->token, rte_memory_order_release);
	ism_ivshm_publish(d, idx);
	wait_peers(d);

	req->token = o->token;
	req->addr = o->addr;
	req->idx = idx;
	ret = 0;
out:
	op_unlock(d);
	return ret;
}

static int
ivshm_dmb_unregister(struct rte_ism_dev *idev, uint64_t token)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	uint32_t idx = ism_sw_tok_idx(token);
	struct ivshm_own *o;
	int ret = 0;

	op_lock(d);
	o = ism_ivshm_own_find(d, token);
	if (o == NULL || !o->registered) {
		ret = -ENOENT;
		goto out;
	}
	o->registered = false;
	/* The writer hears of it, be it this device itself (the others
	 * post it when they apply the change), as on the other backends.
	 */
	if (o->live && rte_ism_gid_equal(&o->rgid, &d->gid))
		ism_pmd_post(&d->common, RTE_ISM_EVENT_BUF,
			     RTE_ISM_BUF_UNREGISTERED, &d->gid, token, 0);
	if (o->live) {
		o->live = false;
		ism_sw_view_ent_clear(&d->own_view->sw.ent[idx]);
		rte_atomic_store_explicit(&d->own_live[idx], 0, rte_memory_order_release);
		rte_atomic_store_explicit(&ivshm_table(d->base, &d->lay,
				 d->slot)[idx].token, 0, rte_memory_order_release);
		ism_ivshm_publish(d, idx);
		/* When the writer has applied it, it no longer moves
		 * with the token (it synchronizes before it says so).
		 */
		wait_peers(d);
		rte_ism_pmd_synchronize();
		/* No late signal of this DMB reported for the next one. */
		ism_sw_sba_clear(d->sba, idx);
	}
	/* The writer may have detached while we waited. */
	if (o->token == token && o->attach_cnt == 0)
		ism_ivshm_own_free(d, idx);
out:
	op_unlock(d);
	return ret;
}

uint64_t
ism_ivshm_pin(const struct ivshm_dev *d, unsigned int s)
{
	const struct ism_sw_orphan *o;
	uint64_t e = 0;

	TAILQ_FOREACH(o, &d->orphans, next)
		if (o->owner_gone && ism_sw_tok_slot(o->token) == s &&
		    (e == 0 || o->owner_tag < e))
			e = o->owner_tag;
	return e;
}

/*
 * Drop one local attachment of a remote DMB: 1 if the owner must be told
 * (DETACH to slot *s of epoch *epoch), 0 if not, -ENOENT if none.
 */
static int
detach_local(struct ivshm_dev *d, uint64_t token, unsigned int *s,
		uint64_t *epoch)
{
	unsigned int oslot = ism_sw_tok_slot(token);
	uint32_t idx = ism_sw_tok_idx(token);
	struct ivshm_peer *p = &d->peers[oslot];
	struct ivshm_view *v = p->up ? p->view : NULL;
	struct ism_sw_orphan *o;
	bool gone;

	*s = oslot;
	if (v != NULL && idx - IVSHM_IDX_FIRST < v->sw.max_dmbs &&
	    v->sw.ent[idx].token == token && v->ctl[idx].attach > 0) {
		v->ctl[idx].attach--;
		*epoch = p->epoch;
		return 1;
	}
	o = ism_sw_orphan_find(&d->orphans, token);
	if (o == NULL)
		return -ENOENT;
	*epoch = o->owner_tag;
	gone = o->owner_gone;
	/* The memory is the owner's: nothing to free here. */
	if (ism_sw_orphan_drop(&d->orphans, o, NULL) && gone &&
	    d->me != NULL)
		rte_atomic_store_explicit(&d->me->pinned[oslot],
				ism_ivshm_pin(d, oslot),
				rte_memory_order_release);
	return !gone;
}

/* Tell the owner of token we dropped an attachment, if it is still the
 * incarnation we attached to.
 */
static void
tell_detach(struct ivshm_dev *d, unsigned int s, uint64_t epoch,
		uint64_t token)
{
	if (d->peers[s].up && d->peers[s].epoch == epoch)
		ism_ivshm_request(d, s, IVSHM_REQ_DETACH, 0, token, 0);
}

static int
ivshm_dmb_attach(struct rte_ism_dev *idev, uint64_t token,
		struct rte_ism_dmb *out)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	unsigned int oslot = ism_sw_tok_slot(token), s;
	uint32_t idx = ism_sw_tok_idx(token);
	struct ism_sw_view_ent *e;
	struct ivshm_view *v;
	struct ivshm_own *o;
	struct ivshm_peer *p;
	uint64_t epoch;
	int ret;

	op_lock(d);
	if (ivshm_in_fabric(d) && oslot == d->slot) {
		o = ism_ivshm_own_find(d, token);
		ret = o == NULL || !o->registered || !o->live ? -ENOENT :
			!rte_ism_gid_equal(&o->rgid, &d->gid) ? -EACCES : 0;
		if (ret == 0) {
			o->attach_cnt++;
			ism_sw_dmb_attached(out, token, o->addr, o->len,
					&d->gid);
		}
		goto out;
	}
	p = &d->peers[oslot];
	v = p->up ? p->view : NULL;
	if (!ivshm_in_fabric(d) || v == NULL ||
	    idx - IVSHM_IDX_FIRST >= v->sw.max_dmbs ||
	    v->sw.ent[idx].token != token) {
		ret = -ENOENT;
		goto out;
	}
	e = &v->sw.ent[idx];
	if (!e->writable) {
		ret = -EACCES;
		goto out;
	}
	/* Counted before asking, so that an unregister crossing our
	 * request keeps the memory; undone if the owner says no.
	 */
	v->ctl[idx].attach++;
	ism_sw_dmb_attached(out, token, e->addr, e->len, &d->gid);
	ret = ism_ivshm_request(d, oslot, IVSHM_REQ_ATTACH, 0, token, 0);
	if (ret == 0)
		goto out;
	/* Refused, owner gone or silent: undo; a DETACH behind a request
	 * it did not answer in time keeps a slow owner's count right.
	 */
	if (detach_local(d, token, &s, &epoch) == 1 && ret == -ETIMEDOUT)
		tell_detach(d, s, epoch, token);
	if (ret == -ENETUNREACH)
		ret = -ENOENT;
out:
	op_unlock(d);
	return ret;
}

static int
ivshm_dmb_detach(struct rte_ism_dev *idev, uint64_t token)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	unsigned int s;
	struct ivshm_own *o;
	uint64_t epoch;
	int ret;

	op_lock(d);
	o = ism_ivshm_own_find(d, token);
	if (o != NULL && rte_ism_gid_equal(&o->rgid, &d->gid) &&
	    o->attach_cnt > 0 && o->slot == d->slot &&
	    ism_sw_tok_slot(token) == d->slot) {
		if (--o->attach_cnt == 0 && !o->registered)
			ism_ivshm_own_free(d, ism_sw_tok_idx(token));
		ret = 0;
		goto out;
	}
	/* Ours first: once the owner has our answer it may reuse the
	 * memory.
	 */
	ret = detach_local(d, token, &s, &epoch);
	if (ret == 1)
		tell_detach(d, s, epoch, token);
	ret = ret < 0 ? ret : 0;
out:
	op_unlock(d);
	return ret;
}

static int
ivshm_signal_event(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	int s, ret;

	op_lock(d);
	if (rte_ism_gid_equal(rgid, &d->gid)) {
		ism_pmd_post(&d->common, RTE_ISM_EVENT_SW, code, &d->gid, 0,
			     info);
		ret = 0;
		goto out;
	}
	s = ivshm_in_fabric(d) ? ism_ivshm_peer_by_gid(d, rgid) : -1;
	if (s < 0) {
		ret = -ENETUNREACH;
		goto out;
	}
	ret = ism_ivshm_request(d, s, IVSHM_REQ_EVENT, code, info,
			trigger_irq != 0);
out:
	op_unlock(d);
	return ret;
}

static int
ivshm_query_remote_gid(struct rte_ism_dev *idev,
		const struct rte_ism_gid *rgid, uint32_t vlan_valid,
		uint16_t vlan_id __rte_unused)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	int ret = 0;

	/* No VLANs here: no device is a member of any. */
	if (vlan_valid)
		return -ENETUNREACH;
	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	if (!rte_ism_gid_equal(rgid, &d->gid) &&
	    (!ivshm_in_fabric(d) || ism_ivshm_peer_by_gid(d, rgid) < 0))
		ret = -ENETUNREACH;
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
	return ret;
}

static const char *const phase_names[] = {
	[IVSHM_PH_CLAIM] = "claiming a slot",
	[IVSHM_PH_CHECK] = "checking its GID",
	[IVSHM_PH_ANNOUNCE] = "announcing itself",
	[IVSHM_PH_LIVE] = "live",
	[IVSHM_PH_LEAVING] = "leaving",
	[IVSHM_PH_FAILED] = "out",
};

static int
ivshm_dump(struct rte_ism_dev *idev, FILE *f)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	char gid[RTE_ISM_GID_STRLEN];
	struct ivshm_peer *p;
	struct ivshm_own *o;
	unsigned int s;
	uint32_t idx, n = 0;

	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	fprintf(f, "  ivshmem fabric %s (id 0x%016" PRIx64 ", %u slots, %"
		PRIu64 " bytes per member, liveness %u ms)\n", d->where,
		d->lay.fabric_id, d->lay.members, d->lay.part_size,
		d->lay.liveness_ms);
	fprintf(f, "  %s, slot %d, epoch %" PRIu64 ", chid 0x%04x\n",
		phase_names[d->phase],
		d->slot == IVSHM_NO_SLOT ? -1 : (int)d->slot, d->epoch,
		d->chid);
	for (s = 0; s < d->lay.members; s++) {
		p = &d->peers[s];
		if (!p->up)
			continue;
		rte_ism_gid_format(&(struct rte_ism_gid){ p->id.gid,
				   p->id.gid_ext }, gid, sizeof(gid));
		fprintf(f, "  peer %s slot %u epoch %" PRIu64 " %s pid %u\n",
			gid, s, p->epoch, p->id.kind == IVSHM_KIND_PCI ?
			"guest" : "host", p->id.pid);
	}
	for (idx = IVSHM_IDX_FIRST; idx < IVSHM_IDX_FIRST + d->max_dmbs;
	     idx++) {
		o = &d->own[idx];
		if (o->token == 0)
			continue;
		rte_ism_gid_format(&o->rgid, gid, sizeof(gid));
		fprintf(f, "  dmb %u token 0x%016" PRIx64 " len %u rgid %s%s%s"
			"%s\n", idx, o->token, o->len, gid,
			o->registered ? "" : " unregistered",
			o->live ? "" : " revoked",
			o->attach_cnt ? " attached" : "");
		n++;
	}
	fprintf(f, "  %u DMBs, %" PRIu64 " protocol errors, %" PRIu64
		" expulsions\n", n, d->protocol_errors, d->expulsions);
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
	return 0;
}

static const struct rte_ism_dev_ops ivshm_ops = {
	.dmb_register = ivshm_dmb_register,
	.dmb_unregister = ivshm_dmb_unregister,
	.dmb_attach = ivshm_dmb_attach,
	.dmb_detach = ivshm_dmb_detach,
	.signal_event = ivshm_signal_event,
	.query_remote_gid = ivshm_query_remote_gid,
	.stats_get = ism_pmd_stats_get,
	.stats_reset = ism_pmd_stats_reset,
	.dump = ivshm_dump,
	.intr_handle_get = ism_ivshm_intr_handle_get,
	.intr_arm = ism_ivshm_intr_arm,
	.intr_event = ism_ivshm_intr_event,
};

static const char *const ivshm_xstat_names[] = {
	"peers",
	"protocol_errors",
	"expulsions",
	"peers_gone",
	"resyncs",
};

static uint64_t
ivshm_xstat_get(struct ism_pmd_dev *common, unsigned int i)
{
	struct ivshm_dev *d = (struct ivshm_dev *)common;
	unsigned int s;
	uint64_t v = 0;

	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	switch (i) {
	case 0:
		for (s = 0; s < d->lay.members; s++)
			v += d->peers[s].up;
		break;
	case 1:
		v = d->protocol_errors;
		break;
	case 2:
		v = d->expulsions;
		break;
	case 3:
		v = d->peers_gone;
		break;
	default:
		v = d->resyncs;
		break;
	}
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
	return v;
}

/* Leave the fabric and free everything. */
static void
ivshm_close(struct ism_pmd_dev *common)
{
	struct ivshm_dev *d = (struct ivshm_dev *)common;

	if (d->attached) {
		pthread_mutex_lock(&d->op_lock);
		ism_ivshm_member_leave(d);
		pthread_mutex_unlock(&d->op_lock);
		ism_ivshm_ctl_detach(d);
	}
	/* No control pass relays any more. */
	ism_ivshm_wake_fini(d);
	/* Their memory is in the region. */
	ism_sw_orphans_free(&d->orphans, NULL);
	ism_ivshm_view_free(d->own_view);
	d->own_view = NULL;
	rte_free(d->own);
	d->own = NULL;
	ism_ivshm_alloc_fini(&d->alloc);
	if (d->map != NULL)
		munmap(d->map, d->map_len);
	d->map = NULL;
	pthread_mutex_destroy(&d->op_lock);
}

const struct ism_backend ism_ivshm_backend = {
	.name = "ivshmem",
	.ops = &ivshm_ops,
	.close = ivshm_close,
	.nb_xstats = RTE_DIM(ivshm_xstat_names),
	.xstat_names = ivshm_xstat_names,
	.xstat_get = ivshm_xstat_get,
	.xstat_gauges = RTE_BIT64(0),	/* peers: a level, never reset */
};

void
ism_ivshm_fast_path(struct rte_ism_dev *ism)
{
	/* The fast path assumes membarrier(2) (ism_sw_move_data_fast). */
	ism->fp.move_data = rte_ism_pmd_need_fence ? ivshm_move_data_full :
		ivshm_move_data;
	ism->fp.move_burst = ivshm_move_burst;
	ism->fp.signal_poll = ivshm_signal_poll;
}
