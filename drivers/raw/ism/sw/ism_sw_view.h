/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_VIEW_H
#define ISM_SW_VIEW_H

/*
 * A writer's view of one owner's DMBs, in the writer's own memory: what
 * the fast path of a software backend whose owners are elsewhere (shm: in
 * other processes; ivshmem: in other members of a region) reads to
 * resolve a token, and nothing the owner could change under it. The
 * control path fills an entry when the owner announces a DMB the writer
 * checked (ism_sw_view_ent_set) and empties it when the DMB goes
 * (ism_sw_view_ent_clear, then a synchronize before the memory is reused).
 * A backend's view embeds struct ism_sw_view first (shm has a view of its
 * own around the same entries).
 *
 * The fast path (ism_sw_view_find) does not go through the view: the
 * backend keeps, by owner slot, a pointer to the view's entries (every
 * index a token can name, ISM_SW_NB_IDX of them), or to
 * ism_sw_view_no_ent where it has no view of that slot, published with
 * the view and cleared with it (ism_sw_view_fp_ent).
 */

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "ism_sw_dmb.h"
#include "ism_sw_move.h"
#include "ism_sw_token.h"

/* One DMB index of the owner. */
struct ism_sw_view_ent {
	RTE_ATOMIC(uint64_t) token;	/* current token; 0 = none */
	void *addr;		/* where the writer's moves go */
	uint64_t len;		/* 64 bits: the fast path's bound */
	uint32_t writable;	/* the writer is the rgid */
	uint32_t pad;
};
_Static_assert(sizeof(struct ism_sw_view_ent) == 32, "fast-path entry");

/* The DMBs of one owner. */
struct ism_sw_view {
	struct ism_sw_sba *sba;	/* where to raise the owner's signals */
	uint32_t max_dmbs;	/* indices [FIRST, FIRST + max_dmbs) */
	struct ism_sw_view_ent *ent;	/* by DMB index */
};

/* Every entry empty (token 0, len 0): the table of a slot without a view.
 * Token 0 (slot 0, index 0) matches its entries but fits in no move.
 */
extern const struct ism_sw_view_ent ism_sw_view_no_ent[ISM_SW_NB_IDX];

/* What the fast path's table holds for a slot whose entries are ent
 * (ISM_SW_NB_IDX of them), NULL if there is no view.
 */
static inline struct ism_sw_view_ent const *
ism_sw_view_fp_ent(const struct ism_sw_view_ent *ent)
{
	return ent != NULL ? ent : ism_sw_view_no_ent;
}

/* The fields, then the token: a move that finds the token sees them. */
static inline void
ism_sw_view_ent_set(struct ism_sw_view_ent *e, uint64_t token, void *addr,
		uint64_t len, bool writable)
{
	e->addr = addr;
	e->len = len;
	e->writable = writable;
	rte_atomic_store_explicit(&e->token, token, rte_memory_order_release);
}

/* No move finds the DMB any more (those in flight: synchronize). */
static inline void
ism_sw_view_ent_clear(struct ism_sw_view_ent *e)
{
	rte_atomic_store_explicit(&e->token, 0, rte_memory_order_release);
}

/*
 * Resolve token in view v (NULL: no owner there) for a move: 0 and *t, or
 * -ENOENT (no such DMB, or a stale token) or -EACCES (not the writer).
 * The lookup of ism_sw_move_data(); runs inside the move's bracket.
 */
static __rte_always_inline int
ism_sw_view_target(const struct ism_sw_view *v, uint64_t token,
		struct ism_sw_target *t)
{
	uint32_t idx = ism_sw_tok_idx(token);
	const struct ism_sw_view_ent *e;

	if (unlikely(v == NULL ||
		     idx - RTE_ISM_DMB_IDX_FIRST >= v->max_dmbs))
		return -ENOENT;
	e = &v->ent[idx];
	if (unlikely(rte_atomic_load_explicit(&e->token,
			rte_memory_order_acquire) != token))
		return -ENOENT;
	if (unlikely(e->writable == 0))
		return -EACCES;
	t->addr = e->addr;
	t->len = e->len;
	t->dmb_idx = idx;
	t->sba = v->sba;
	return 0;
}

/*
 * Fast-path resolution (ism_sw_move_data_fast) of token in the table
 * fp_ent (by owner slot, see above): the checks of ism_sw_view_target()
 * without the errno and the SBA. Every slot has a table of every index,
 * so no test of the view or of the index: an entry not in use has token 0
 * and len 0.
 */
static __rte_always_inline bool
ism_sw_view_find(RTE_ATOMIC(const struct ism_sw_view_ent *) const *fp_ent,
		uint64_t token, struct ism_sw_target *t)
{
	const struct ism_sw_view_ent *e;

	/* Relaxed: the entry is read through the pointer (an address
	 * dependency, as rcu_dereference()).
	 */
	e = rte_atomic_load_explicit(fp_ent + ism_sw_tok_slot(token),
			rte_memory_order_relaxed);
	e += ism_sw_tok_idx(token);
	/* A plain load, folded into the compare; the fence makes it an
	 * acquire (x86: no instruction): the fields below are those
	 * published with this token.
	 */
	if (unlikely(e->token != token))
		return false;
	rte_atomic_thread_fence(rte_memory_order_acquire);
	if (unlikely(e->writable == 0))
		return false;
	t->addr = e->addr;
	t->len = e->len;
	return true;
}

#endif /* ISM_SW_VIEW_H */
