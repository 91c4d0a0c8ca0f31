/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Loopback backend (vdev "ism_lo"): ISM devices inside one process. All of
 * them share one fabric per CHID and can reach each other and themselves.
 * Unlike Linux loopback-ism it enforces the writer GID, VLANs and bounds.
 *
 * Tokens (sw/ism_sw_token.h) name the owner's device slot and the DMB
 * index; the fast path decodes both, compares the whole token with the
 * DMB's current one and copies: O(1), no lock. Control operations hold the
 * fabric lock; memory that a move may be using is freed only after
 * rte_ism_pmd_synchronize().
 */

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_malloc.h>

#include <ism_compat.h>
#include <bus_vdev_driver.h>

#include "ism_pmd.h"
#include "ism_sw_dmb.h"
#include "ism_sw_move.h"
#include "ism_wake.h"

#define LO_DRIVER_NAME	"ism_lo"
#define LO_MAX_DEVS	32

_Static_assert(LO_MAX_DEVS <= 1 << ISM_SW_TOK_SLOT_BITS, "token slot field");

struct lo_dev;

/* One per DMB index; one cache line, so that a move reads one line. */
struct __rte_cache_aligned lo_dmb {
	/* Read by the fast path. */
	RTE_ATOMIC(uint64_t) token;	/* current token, 0 = not writable */
	void *addr;
	uint64_t len;		/* 64 bits: the fast path's bound */
	/* The device of the fabric whose GID is rgid, NULL while there is
	 * none: the fast path compares one pointer, not the 16-byte GIDs.
	 * Kept by the control path (register, join, leave); GIDs are
	 * unique in a fabric and never change.
	 */
	RTE_ATOMIC(const struct lo_dev *) writer;
	struct rte_ism_gid rgid;
	uint16_t vlan_id;
	uint8_t vlan_valid;
	/* Control path, under the fabric lock. */
	bool registered;	/* the owner still holds it */
	uint32_t attach_cnt;	/* attachments by the writer device */
	uint64_t id_token;	/* token while memory lives (detach) */
};
_Static_assert(sizeof(struct lo_dmb) == RTE_CACHE_LINE_SIZE,
	       "a move reads one line of the DMB table");

struct lo_dev {
	struct ism_pmd_dev common;	/* first: fast-path context */
	struct rte_ism_gid gid;
	uint16_t chid;
	uint8_t slot;
	uint32_t max_dmbs;
	/* [ISM_SW_NB_IDX]: every index a token can name, so the fast path
	 * needs no range check (those past max_dmbs stay empty).
	 */
	struct lo_dmb *dmbs;
	struct ism_sw_sba *sba;
	RTE_ATOMIC(uint64_t) vlans[(RTE_ISM_VLAN_ID_MAX + 1) / 64];
	struct ism_sw_dmb_ids ids;	/* indices and generations */
	/* DMBs this device attached whose owner closed: until detach. */
	struct ism_sw_orphan_list orphans;
	/* Fast path: the DMB table of the device in each fabric slot of
	 * this device's CHID, lo_no_dmbs for the others (empty slots, other
	 * CHIDs). Written under the fabric lock, read with atomics.
	 */
	RTE_ATOMIC(struct lo_dmb *) reach[1 << ISM_SW_TOK_SLOT_BITS];
	/* Interrupt mode: the flag in the tail of sba. */
	struct ism_wake wake;
};

/* What reach[] holds for a slot without a device of the same CHID: every
 * entry empty (len 0, which no move fits in).
 */
static struct lo_dmb lo_no_dmbs[ISM_SW_NB_IDX];

static struct {
	pthread_mutex_t lock;
	/* By slot; fast path: atomic loads. As many as a token can name,
	 * so that no slot needs a bounds check; LO_MAX_DEVS used.
	 */
	RTE_ATOMIC(struct lo_dev *) devs[1 << ISM_SW_TOK_SLOT_BITS];
} lo_fabric = { .lock = PTHREAD_MUTEX_INITIALIZER };

static inline uint32_t
tok_slot(uint64_t token)
{
	return ism_sw_tok_slot(token);
}

static inline uint32_t
tok_idx(uint64_t token)
{
	return ism_sw_tok_idx(token);
}

static inline bool
lo_vlan_member(const struct lo_dev *d, uint16_t vlan_id)
{
	return (rte_atomic_load_explicit(&d->vlans[vlan_id / 64],
			rte_memory_order_relaxed) >> (vlan_id % 64)) & 1;
}

/*
 * Fast-path lookup of a DMB that src may write. Returns 0 and sets *dstp and
 * *dmbp, or the errno. Must run between move_enter and move_exit.
 */
static inline int
lo_lookup(const struct lo_dev *src, uint64_t token, struct lo_dev **dstp,
		struct lo_dmb **dmbp)
{
	struct lo_dev *dst;
	struct lo_dmb *dmb;
	uint32_t idx = tok_idx(token);

	dst = rte_atomic_load_explicit(&lo_fabric.devs[tok_slot(token)],
			rte_memory_order_acquire);
	if (unlikely(dst == NULL || dst->chid != src->chid ||
		     idx - RTE_ISM_DMB_IDX_FIRST >= dst->max_dmbs))
		return -ENOENT;
	dmb = &dst->dmbs[idx];
	if (unlikely(rte_atomic_load_explicit(&dmb->token, rte_memory_order_acquire) != token))
		return -ENOENT;
	if (unlikely(!rte_ism_gid_equal(&dmb->rgid, &src->gid) ||
		     (dmb->vlan_valid && !lo_vlan_member(src, dmb->vlan_id))))
		return -EACCES;
	*dstp = dst;
	*dmbp = dmb;
	return 0;
}

/* Resolve a token for the writer ctx (struct lo_dev). */
static inline int
lo_target(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	struct lo_dev *dst;
	struct lo_dmb *dmb;
	int ret = lo_lookup(ctx, token, &dst, &dmb);

	if (likely(ret == 0)) {
		t->addr = dmb->addr;
		t->len = dmb->len;
		t->dmb_idx = tok_idx(token);
		t->sba = dst->sba;
		t->wake = &dst->wake.self;
	}
	return ret;
}

/*
 * Fast-path resolution (ism_sw_move_data_fast): the same checks as
 * lo_lookup, cheaper. reach[] already restricts to devices of the writer's
 * CHID and holds a table of ISM_SW_NB_IDX entries for every slot, so no
 * test of the device or of the index. An entry not in use has token 0
 * and len 0: token 0 (slot 0, index 0, always empty) matches such an
 * entry but fits in no move. The writer check is dmb->writer == src: the
 * device whose GID is rgid (lo_dmb); where it is not set yet, the full
 * path compares the GIDs.
 */
static __rte_always_inline bool
lo_find(const void *ctx, uint64_t token, struct ism_sw_target *t)
{
	const struct lo_dev *src = ctx;
	const struct lo_dmb *dmb;

	/* Relaxed: the entry is read through the pointer (an address
	 * dependency, as rcu_dereference()).
	 */
	dmb = rte_atomic_load_explicit(src->reach + tok_slot(token), rte_memory_order_relaxed);
	dmb += tok_idx(token);
	/* Plain loads, which the compiler folds into the compares (it
	 * keeps an atomic load apart: one more instruction each); the fence
	 * makes the token's an acquire (x86: no instruction), so that the
	 * fields below are those published with this token.
	 */
	if (unlikely(dmb->token != token))
		return false;
	rte_atomic_thread_fence(rte_memory_order_acquire);
	if (unlikely(dmb->writer != src ||
		     (dmb->vlan_valid && !lo_vlan_member(src, dmb->vlan_id))))
		return false;
	t->addr = dmb->addr;
	t->len = dmb->len;
	return true;
}

/* Every other case (non-EAL threads, errors, the fence fallback), signalled
 * or not.
 */
static __rte_noinline int
lo_move_data_full(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data(ctx, lo_target, token, idx, sf, offset, data,
			len);
}

/* A signalled move: lookup with the SBA and the wake-up, then the raise. */
static __rte_noinline int
lo_move_data_sig(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_signal_fast(ctx, lo_target, lo_move_data_full,
			token, idx, sf, offset, data, len);
}

static int
lo_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	return ism_sw_move_data_fast(ctx, lo_find, lo_move_data_sig,
			lo_move_data_full, token, idx, sf, offset, data, len);
}

static int
lo_move_burst(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		const struct rte_ism_move_seg *segs, uint16_t nb_segs)
{
	return ism_sw_move_burst(ctx, lo_target, token, idx, sf, segs,
			nb_segs);
}

static int
lo_signal_poll(void *ctx, struct rte_ism_signal *sigs, uint16_t nb)
{
	struct lo_dev *d = ctx;

	return ism_sw_sba_poll(d->sba, sigs, nb);
}

/* Control path. All helpers below run with lo_fabric.lock held. */

static struct lo_dev *
lo_dev_of(struct rte_ism_dev *idev)
{
	return idev->dev_private;
}

static struct lo_dev *
lo_find_gid(uint16_t chid, const struct rte_ism_gid *gid)
{
	unsigned int i;
	struct lo_dev *d;

	for (i = 0; i < LO_MAX_DEVS; i++) {
		d = lo_fabric.devs[i];
		if (d != NULL && d->chid == chid &&
		    rte_ism_gid_equal(&d->gid, gid))
			return d;
	}
	return NULL;
}

static void
lo_dmb_free(struct lo_dev *owner, uint32_t idx)
{
	struct lo_dmb *dmb = &owner->dmbs[idx];

	/* The token is already 0: wait out moves that saw the old one. */
	rte_ism_pmd_synchronize();
	ism_sw_sba_clear(owner->sba, idx);
	rte_free(dmb->addr);
	dmb->addr = NULL;
	dmb->len = 0;
	rte_atomic_store_explicit(&dmb->writer, NULL, rte_memory_order_relaxed);
	dmb->id_token = 0;
	dmb->attach_cnt = 0;
	ism_sw_ids_put(&owner->ids, idx);
}

/* Frees an orphan's memory (ism_sw_dmb.h). */
static void
lo_mem_free(void *addr, size_t len __rte_unused)
{
	rte_free(addr);
}

static int
lo_dmb_register(struct rte_ism_dev *idev, struct rte_ism_dmb *req)
{
	struct lo_dev *d = lo_dev_of(idev);
	struct lo_dmb *dmb;
	uint64_t token;
	void *mem;
	int ret = 0, idx;

	pthread_mutex_lock(&lo_fabric.lock);
	idx = ism_sw_ids_take(&d->ids, req->idx, idev->name);
	if (idx < 0) {
		ret = idx;
		goto out;
	}
	dmb = &d->dmbs[idx];
	mem = rte_zmalloc_socket("ism_lo_dmb", req->len, RTE_CACHE_LINE_SIZE,
			idev->socket_id);
	if (mem == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory for a DMB of %u bytes",
			    idev->name, req->len);
		ism_sw_ids_put(&d->ids, idx);
		ret = -ENOMEM;
		goto out;
	}
	token = ism_sw_ids_token(&d->ids, d->slot, idx);
	dmb->addr = mem;
	dmb->len = req->len;
	dmb->rgid = req->rgid;
	rte_atomic_store_explicit(&dmb->writer, lo_find_gid(d->chid, &req->rgid),
			rte_memory_order_relaxed);
	dmb->vlan_valid = req->vlan_valid;
	dmb->vlan_id = req->vlan_id;
	dmb->id_token = token;
	dmb->attach_cnt = 0;
	dmb->registered = true;
	/* Publish last: the fast path trusts the fields once it sees it. */
	rte_atomic_store_explicit(&dmb->token, token, rte_memory_order_release);
	req->token = token;
	req->addr = mem;
	req->idx = idx;
out:
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

/* The DMB registered on d under token, or NULL. */
static struct lo_dmb *
lo_own_dmb(struct lo_dev *d, uint64_t token)
{
	uint32_t idx = tok_idx(token);
	struct lo_dmb *dmb;

	if (token == 0 || tok_slot(token) != d->slot ||
	    idx - RTE_ISM_DMB_IDX_FIRST >= d->max_dmbs)
		return NULL;
	dmb = &d->dmbs[idx];
	return dmb->registered && dmb->id_token == token ? dmb : NULL;
}

static int
lo_dmb_unregister(struct rte_ism_dev *idev, uint64_t token)
{
	struct lo_dev *d = lo_dev_of(idev), *writer;
	struct lo_dmb *dmb;
	int ret = 0;

	pthread_mutex_lock(&lo_fabric.lock);
	dmb = lo_own_dmb(d, token);
	if (dmb == NULL) {
		ret = -ENOENT;
		goto out;
	}
	dmb->registered = false;
	rte_atomic_store_explicit(&dmb->token, 0, rte_memory_order_release);
	/* The writer hears of it, be it this device itself. */
	writer = lo_find_gid(d->chid, &dmb->rgid);
	if (writer != NULL)
		ism_pmd_post(&writer->common, RTE_ISM_EVENT_BUF,
			     RTE_ISM_BUF_UNREGISTERED, &d->gid, token, 0);
	/* An attached DMB lives on until the writer detaches. */
	if (dmb->attach_cnt == 0)
		lo_dmb_free(d, tok_idx(token));
out:
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

static int
lo_dmb_attach(struct rte_ism_dev *idev, uint64_t token, struct rte_ism_dmb *out)
{
	struct lo_dev *d = lo_dev_of(idev), *owner;
	struct lo_dmb *dmb;
	int ret;

	/* The same checks as a move; every change to devices and tokens
	 * is made under this lock, so nothing changes meanwhile.
	 */
	pthread_mutex_lock(&lo_fabric.lock);
	ret = lo_lookup(d, token, &owner, &dmb);
	if (ret == 0) {
		dmb->attach_cnt++;
		out->token = token;
		out->addr = dmb->addr;
		out->len = dmb->len;
		out->idx = tok_idx(token);
		out->rgid = dmb->rgid;
		out->vlan_valid = dmb->vlan_valid;
		out->vlan_id = dmb->vlan_id;
	}
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

static int
lo_dmb_detach(struct rte_ism_dev *idev, uint64_t token)
{
	struct lo_dev *d = lo_dev_of(idev), *owner;
	uint32_t idx = tok_idx(token);
	struct lo_dmb *dmb;
	int ret = -ENOENT;

	pthread_mutex_lock(&lo_fabric.lock);
	owner = lo_fabric.devs[tok_slot(token)];
	if (token != 0 && owner != NULL && owner->chid == d->chid &&
	    idx - RTE_ISM_DMB_IDX_FIRST < owner->max_dmbs) {
		dmb = &owner->dmbs[idx];
		if (dmb->id_token == token && dmb->attach_cnt > 0 &&
		    rte_ism_gid_equal(&dmb->rgid, &d->gid)) {
			if (--dmb->attach_cnt == 0 && !dmb->registered)
				lo_dmb_free(owner, idx);
			ret = 0;
		}
	}
	if (ret != 0 && ism_sw_orphan_detach(&d->orphans, token, lo_mem_free))
		ret = 0;
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

static int
lo_signal_event(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq __rte_unused, uint32_t code, uint64_t info)
{
	struct lo_dev *d = lo_dev_of(idev), *to;
	int ret = 0;

	pthread_mutex_lock(&lo_fabric.lock);
	to = lo_find_gid(d->chid, rgid);
	if (to == NULL)
		ret = -ENETUNREACH;
	else
		ism_pmd_post(&to->common, RTE_ISM_EVENT_SW, code, &d->gid, 0,
			     info);
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

static int
lo_query_remote_gid(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id)
{
	struct lo_dev *d = lo_dev_of(idev), *peer;
	int ret = 0;

	pthread_mutex_lock(&lo_fabric.lock);
	peer = lo_find_gid(d->chid, rgid);
	if (peer == NULL || (vlan_valid && !lo_vlan_member(peer, vlan_id)))
		ret = -ENETUNREACH;
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

static int
lo_vlan_add(struct rte_ism_dev *idev, uint16_t vlan_id)
{
	struct lo_dev *d = lo_dev_of(idev);

	/* Atomic: the fast path of other lcores reads the bitmap. */
	rte_atomic_fetch_or_explicit(&d->vlans[vlan_id / 64], RTE_BIT64(vlan_id % 64),
			rte_memory_order_release);
	return 0;
}

static int
lo_vlan_del(struct rte_ism_dev *idev, uint16_t vlan_id)
{
	struct lo_dev *d = lo_dev_of(idev);
	uint64_t old;

	old = rte_atomic_fetch_and_explicit(&d->vlans[vlan_id / 64],
			~RTE_BIT64(vlan_id % 64), rte_memory_order_release);
	return (old & RTE_BIT64(vlan_id % 64)) ? 0 : -ENOENT;
}

static int
lo_dump(struct rte_ism_dev *idev, FILE *f)
{
	struct lo_dev *d = lo_dev_of(idev);
	char gid[RTE_ISM_GID_STRLEN];
	struct lo_dmb *dmb;
	uint32_t idx, n = 0;

	pthread_mutex_lock(&lo_fabric.lock);
	fprintf(f, "  loopback fabric slot %u\n", d->slot);
	for (idx = RTE_ISM_DMB_IDX_FIRST;
	     idx < RTE_ISM_DMB_IDX_FIRST + d->max_dmbs; idx++) {
		dmb = &d->dmbs[idx];
		if (dmb->id_token == 0)
			continue;
		rte_ism_gid_format(&dmb->rgid, gid, sizeof(gid));
		fprintf(f, "  dmb %u token 0x%016" PRIx64 " len %" PRIu64
			" rgid %s%s%s\n",
			idx, dmb->id_token, dmb->len, gid,
			dmb->registered ? "" : " unregistered",
			dmb->attach_cnt ? " attached" : "");
		n++;
	}
	fprintf(f, "  %u DMBs\n", n);
	pthread_mutex_unlock(&lo_fabric.lock);
	return 0;
}

/* Interrupt mode (ism_wake.h). */
static struct rte_intr_handle *
lo_intr_handle_get(struct rte_ism_dev *idev)
{
	return lo_dev_of(idev)->wake.intr;
}

static int
lo_intr_arm(struct rte_ism_dev *idev, bool on)
{
	struct lo_dev *d = lo_dev_of(idev);

	ism_wake_arm(&d->wake, on);
	if (on && ism_sw_sba_pending(d->sba))
		ism_wake_kick(d->wake.self.fd);
	return 0;
}

static void
lo_intr_event(struct rte_ism_dev *idev)
{
	ism_wake_event(&lo_dev_of(idev)->wake);
}

static const struct rte_ism_dev_ops lo_ops = {
	.dmb_register = lo_dmb_register,
	.dmb_unregister = lo_dmb_unregister,
	.dmb_attach = lo_dmb_attach,
	.dmb_detach = lo_dmb_detach,
	.signal_event = lo_signal_event,
	.query_remote_gid = lo_query_remote_gid,
	.vlan_add = lo_vlan_add,
	.vlan_del = lo_vlan_del,
	.stats_get = ism_pmd_stats_get,
	.stats_reset = ism_pmd_stats_reset,
	.dump = lo_dump,
	.intr_handle_get = lo_intr_handle_get,
	.intr_arm = lo_intr_arm,
	.intr_event = lo_intr_event,
};

/* Tell everyone else in the fabric that d is gone; drop what it held. */
static void
lo_leave_fabric(struct lo_dev *d)
{
	struct lo_dev *o;
	struct lo_dmb *dmb;
	unsigned int i;
	uint32_t idx, end;

	/* Unreachable first, then no move can still be inside its DMBs. */
	rte_atomic_store_explicit(&lo_fabric.devs[d->slot], NULL, rte_memory_order_release);
	for (i = 0; i < LO_MAX_DEVS; i++) {
		o = lo_fabric.devs[i];
		if (o != NULL)
			rte_atomic_store_explicit(&o->reach[d->slot], lo_no_dmbs,
					rte_memory_order_release);
	}
	rte_ism_pmd_synchronize();

	end = RTE_ISM_DMB_IDX_FIRST + d->max_dmbs;
	for (idx = RTE_ISM_DMB_IDX_FIRST; idx < end; idx++) {
		dmb = &d->dmbs[idx];
		if (dmb->id_token == 0)
			continue;
		o = lo_find_gid(d->chid, &dmb->rgid);
		if (dmb->registered && o != NULL && o != d)
			ism_pmd_post(&o->common, RTE_ISM_EVENT_BUF,
				     RTE_ISM_BUF_UNREGISTERED, &d->gid,
				     dmb->id_token, 0);
		/* Only the writer attaches: it keeps an attached DMB until
		 * it detaches (a writer that left has no attachment).
		 */
		if (dmb->attach_cnt == 0 || o == NULL || o == d)
			rte_free(dmb->addr);
		else if (ism_sw_orphan_add(&o->orphans, dmb->id_token,
					   dmb->addr, dmb->len,
					   dmb->attach_cnt) < 0)
			ISM_PMD_LOG(ERR, "%s: no memory to keep attached "
				    "DMB 0x%" PRIx64 "; leaking it",
				    d->common.ism->name, dmb->id_token);
		dmb->id_token = 0;
	}

	for (i = 0; i < LO_MAX_DEVS; i++) {
		o = lo_fabric.devs[i];
		if (o == NULL || o->chid != d->chid)
			continue;
		/* Attachments d made to o's DMBs, and o's DMBs d could write. */
		for (idx = RTE_ISM_DMB_IDX_FIRST;
		     idx < RTE_ISM_DMB_IDX_FIRST + o->max_dmbs; idx++) {
			dmb = &o->dmbs[idx];
			if (dmb->id_token == 0 ||
			    !rte_ism_gid_equal(&dmb->rgid, &d->gid))
				continue;
			/* Before d's memory can be reused by another device. */
			rte_atomic_store_explicit(&dmb->writer, NULL, rte_memory_order_relaxed);
			if (dmb->registered)
				ism_pmd_post(&o->common, RTE_ISM_EVENT_BUF,
					     RTE_ISM_BUF_USER_DISABLED, &d->gid,
					     dmb->id_token, 0);
			if (dmb->attach_cnt > 0) {
				dmb->attach_cnt = 0;
				if (!dmb->registered)
					lo_dmb_free(o, idx);
			}
		}
		ism_pmd_post(&o->common, RTE_ISM_EVENT_DEV,
			     RTE_ISM_DEV_DISABLED, &d->gid, 0, 0);
	}
}

static void
lo_close(struct ism_pmd_dev *common)
{
	struct lo_dev *d = (struct lo_dev *)common;

	pthread_mutex_lock(&lo_fabric.lock);
	if (lo_fabric.devs[d->slot] != d)
		goto out;	/* never joined (probe failed) */
	lo_leave_fabric(d);
	/* The DMBs of owners gone that d still had attached. */
	ism_sw_orphans_free(&d->orphans, lo_mem_free);
out:
	pthread_mutex_unlock(&lo_fabric.lock);
	/* No move raises into d any more (lo_leave_fabric). */
	ism_wake_fini(&d->wake);
	rte_free(d->dmbs);
	rte_free(d->sba);
	d->dmbs = NULL;
	d->sba = NULL;
}

static const struct ism_backend lo_backend = {
	.name = "loopback",
	.ops = &lo_ops,
	.close = lo_close,
};

static const char *const lo_valid_args[] = {
	"gid", "chid", "max_dmbs", "max_dmb_len", "socket", NULL
};

/* d is the writer of o's DMBs whose rgid is its GID (d joins). */
static void
lo_set_writer(struct lo_dev *o, const struct lo_dev *d)
{
	struct lo_dmb *dmb;
	uint32_t idx;

	for (idx = RTE_ISM_DMB_IDX_FIRST;
	     idx < RTE_ISM_DMB_IDX_FIRST + o->max_dmbs; idx++) {
		dmb = &o->dmbs[idx];
		if (dmb->id_token != 0 &&
		    rte_ism_gid_equal(&dmb->rgid, &d->gid))
			rte_atomic_store_explicit(&dmb->writer, d, rte_memory_order_relaxed);
	}
}

/* Join the fabric: unique GID, free slot; announce to the others. */
static int
lo_join_fabric(struct lo_dev *d, const char *name)
{
	struct lo_dev *o;
	unsigned int i, slot = LO_MAX_DEVS;
	int ret = 0;

	pthread_mutex_lock(&lo_fabric.lock);
	for (i = 0; i < LO_MAX_DEVS; i++) {
		o = lo_fabric.devs[i];
		if (o == NULL) {
			if (slot == LO_MAX_DEVS)
				slot = i;
		} else if (o->chid == d->chid &&
			   rte_ism_gid_equal(&o->gid, &d->gid)) {
			ISM_PMD_LOG(ERR, "%s: GID already used by %s in fabric "
				    "0x%04x", name, o->common.ism->name,
				    d->chid);
			ret = -EEXIST;
			goto out;
		}
	}
	if (slot == LO_MAX_DEVS) {
		ISM_PMD_LOG(ERR, "%s: all %d loopback device slots in use",
			    name, LO_MAX_DEVS);
		ret = -ENOSPC;
		goto out;
	}
	d->slot = slot;
	rte_atomic_store_explicit(&d->reach[slot], d->dmbs, rte_memory_order_release);
	for (i = 0; i < LO_MAX_DEVS; i++) {
		o = lo_fabric.devs[i];
		if (o != NULL && o->chid == d->chid) {
			lo_set_writer(o, d);
			rte_atomic_store_explicit(&d->reach[i], o->dmbs,
					rte_memory_order_release);
			rte_atomic_store_explicit(&o->reach[slot], d->dmbs,
					rte_memory_order_release);
			ism_pmd_post(&o->common, RTE_ISM_EVENT_DEV,
				     RTE_ISM_DEV_ENABLED, &d->gid, 0, 0);
		}
	}
	rte_atomic_store_explicit(&lo_fabric.devs[slot], d, rte_memory_order_release);
out:
	pthread_mutex_unlock(&lo_fabric.lock);
	return ret;
}

static int
lo_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct ism_common_args a = {
		.chid = RTE_ISM_CHID_LOOPBACK,
		.max_dmbs = ISM_DEFAULT_MAX_DMBS,
		.max_dmb_len = ISM_DEFAULT_MAX_DMB_LEN,
	};
	struct rte_kvargs *kv;
	struct lo_dev *d;
	struct rte_ism_dev *ism;
	int socket = rte_socket_id();
	unsigned int i;
	int ret;

	/* A secondary process sees the primary's device, read-only. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return ism_pmd_attach_secondary(name, &vdev->device);
	kv = ism_kvargs_parse(name, rte_vdev_device_args(vdev), lo_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(name, kv, &a);
	if (ret == 0)
		ret = ism_socket_arg_get(name, kv, &socket);
	rte_kvargs_free(kv);
	if (ret < 0)
		return ret;
	if (a.gid.gid == 0 && a.gid.gid_ext == 0)
		ism_random_gid(&a.gid);

	d = (struct lo_dev *)ism_pmd_create(name, socket, &vdev->device,
			LO_DRIVER_NAME, &lo_backend, sizeof(*d));
	if (d == NULL)
		return -rte_errno;
	d->gid = a.gid;
	d->chid = a.chid;
	d->max_dmbs = a.max_dmbs;
	ism_sw_ids_init(&d->ids, a.max_dmbs);
	TAILQ_INIT(&d->orphans);
	for (i = 0; i < RTE_DIM(d->reach); i++)
		d->reach[i] = lo_no_dmbs;
	d->dmbs = rte_zmalloc_socket("ism_lo_dmbs", sizeof(*d->dmbs) *
			ISM_SW_NB_IDX, 0, socket);
	d->sba = rte_zmalloc_socket("ism_lo_sba", sizeof(*d->sba), 0, socket);
	if (d->dmbs == NULL || d->sba == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory for the DMB table", name);
		ret = -ENOMEM;
		goto err;
	}
	ret = ism_wake_init(&d->wake, name, socket, ism_sw_sba_armed(d->sba));
	if (ret < 0)
		goto err;
	ism = d->common.ism;
	ism->gid = a.gid;
	ism->chid = a.chid;
	ism->max_dmbs = a.max_dmbs;
	ism->max_dmb_len = a.max_dmb_len;
	ism->capa = RTE_ISM_CAPA_NOCOPY | RTE_ISM_CAPA_VLAN |
		RTE_ISM_CAPA_SIGNAL_EVENT | RTE_ISM_CAPA_INTR;
	/* The fast path assumes membarrier(2) (ism_sw_move_data_fast). */
	ism->fp.move_data = rte_ism_pmd_need_fence ? lo_move_data_full :
		lo_move_data;
	ism->fp.move_burst = lo_move_burst;
	ism->fp.signal_poll = lo_signal_poll;

	ret = lo_join_fabric(d, name);
	if (ret < 0)
		goto err;
	ret = ism_pmd_finish(&d->common);
	if (ret < 0)
		goto err;
	ISM_PMD_LOG(INFO, "%s: loopback ISM device %u, chid 0x%04x, %u DMBs "
		    "of up to %u bytes", name, ism->dev_id, a.chid, a.max_dmbs,
		    a.max_dmb_len);
	return 0;
err:
	ism_pmd_destroy(&d->common);
	return ret;
}

static struct rte_vdev_driver ism_lo_driver = {
	.probe = lo_probe,
	.remove = ism_pmd_vdev_remove,
};

RTE_PMD_REGISTER_VDEV(ism_lo, ism_lo_driver);
RTE_PMD_REGISTER_PARAM_STRING(ism_lo,
	"gid=<0x hex|32 hex|uuid> chid=<0..65535> "
	"max_dmbs=<1..4064> max_dmb_len=<bytes> socket=<NUMA node>");
