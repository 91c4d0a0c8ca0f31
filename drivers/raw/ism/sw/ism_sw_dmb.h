/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_DMB_H
#define ISM_SW_DMB_H

/*
 * What the software backends (loopback, shm, ivshmem) share about an
 * owner's DMBs, on the control path: which indices are taken (also the PCI
 * backend's choice of index), the token of each new registration
 * (ism_sw_token.h), the orphans: DMBs a writer attached (nocopy) whose
 * owner unregistered them or left, which live on in the writer's list
 * until it detaches; and what an attach returns. The caller serializes
 * (its control lock).
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_ism.h>

#include "ism_sw_token.h"

/* Indices a token can name; RTE_ISM_DMB_IDX_FIRST of them reserved. */
#define ISM_SW_NB_IDX	(ISM_SW_TOK_IDX_MASK + 1)

/* The DMB indices of one device that are taken. */
struct ism_sw_idx_set {
	uint32_t max_dmbs;		/* [FIRST, FIRST + max_dmbs) */
	uint64_t used[ISM_SW_NB_IDX / 64];
};

/* Empty set of max_dmbs (at most ISM_SW_NB_IDX - FIRST) indices. */
void ism_sw_idx_init(struct ism_sw_idx_set *set, uint32_t max_dmbs);

/*
 * Take index want (0: the lowest free one). Returns it, or -EBUSY (want is
 * taken) or -ENOSPC (all are), logged with name. want must be in range
 * (the library checks it).
 */
int ism_sw_idx_take(struct ism_sw_idx_set *set, uint32_t want,
		const char *name);

/* Give idx back. */
static inline void
ism_sw_idx_put(struct ism_sw_idx_set *set, uint32_t idx)
{
	set->used[idx / 64] &= ~(UINT64_C(1) << (idx % 64));
}

static inline bool
ism_sw_idx_taken(const struct ism_sw_idx_set *set, uint32_t idx)
{
	return (set->used[idx / 64] >> (idx % 64)) & 1;
}

/* The DMB indices of one owner and the generation counter of each. */
struct ism_sw_dmb_ids {
	struct ism_sw_tok_key key;	/* random, per device */
	struct ism_sw_idx_set set;
	uint32_t ctr[ISM_SW_NB_IDX];	/* registrations of each index */
};

/* Empty set of max_dmbs indices with a fresh random key. */
void ism_sw_ids_init(struct ism_sw_dmb_ids *ids, uint32_t max_dmbs);

/*
 * Take index want (0: the lowest free one). Returns it, or -EBUSY (want is
 * taken) or -ENOSPC (all are), logged with name. want must be in range
 * (the library checks it).
 */
int ism_sw_ids_take(struct ism_sw_dmb_ids *ids, uint32_t want,
		const char *name);

/* The token of a new registration of taken index idx for slot. */
uint64_t ism_sw_ids_token(struct ism_sw_dmb_ids *ids, unsigned int slot,
		uint32_t idx);

/* Give idx back; its next registration gets the next generation. */
static inline void
ism_sw_ids_put(struct ism_sw_dmb_ids *ids, uint32_t idx)
{
	ism_sw_idx_put(&ids->set, idx);
}

static inline bool
ism_sw_ids_taken(const struct ism_sw_dmb_ids *ids, uint32_t idx)
{
	return ism_sw_idx_taken(&ids->set, idx);
}

/* A DMB no longer registered for this writer, still attached by it. */
struct ism_sw_orphan {
	TAILQ_ENTRY(ism_sw_orphan) next;
	uint64_t token;
	void *addr;
	size_t len;
	uint32_t attach_cnt;
	bool owner_gone;	/* else the owner keeps the memory for us */
	uint64_t owner_tag;	/* owner's incarnation (ivshmem: epoch) */
};
TAILQ_HEAD(ism_sw_orphan_list, ism_sw_orphan);

/* Frees the memory of an orphan (rte_free, munmap); NULL where the
 * memory is not the writer's to free (ivshmem: in the region).
 */
typedef void (*ism_sw_mem_free_t)(void *addr, size_t len);

/* Keep an attached DMB; NULL (nothing kept) if no memory. */
struct ism_sw_orphan *ism_sw_orphan_new(struct ism_sw_orphan_list *l,
		uint64_t token, void *addr, size_t len, uint32_t attach_cnt,
		bool owner_gone, uint64_t owner_tag);

/* Keep an attached DMB whose owner left; -ENOMEM (nothing kept) if no
 * memory.
 */
static inline int
ism_sw_orphan_add(struct ism_sw_orphan_list *l, uint64_t token, void *addr,
		size_t len, uint32_t attach_cnt)
{
	return ism_sw_orphan_new(l, token, addr, len, attach_cnt, true, 0) ==
		NULL ? -ENOMEM : 0;
}

/* The orphan with token, or NULL. */
struct ism_sw_orphan *ism_sw_orphan_find(struct ism_sw_orphan_list *l,
		uint64_t token);

/* Drop one attachment of orphan o; with the last, o is freed (and its
 * memory, with mem_free): true then.
 */
bool ism_sw_orphan_drop(struct ism_sw_orphan_list *l, struct ism_sw_orphan *o,
		ism_sw_mem_free_t mem_free);

/* Drop one attachment of the orphan with token (freed with the last);
 * false if there is none.
 */
bool ism_sw_orphan_detach(struct ism_sw_orphan_list *l, uint64_t token,
		ism_sw_mem_free_t mem_free);

/* Free every orphan (the writer closes). */
void ism_sw_orphans_free(struct ism_sw_orphan_list *l,
		ism_sw_mem_free_t mem_free);

/* What rte_ism_dmb_attach() returns for a DMB of token, whose writer is
 * the attaching device (rgid).
 */
static inline void
ism_sw_dmb_attached(struct rte_ism_dmb *out, uint64_t token, void *addr,
		uint32_t len, const struct rte_ism_gid *rgid)
{
	out->token = token;
	out->addr = addr;
	out->len = len;
	out->idx = ism_sw_tok_idx(token);
	out->rgid = *rgid;
}

#endif /* ISM_SW_DMB_H */
