/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_DMB_H
#define ISM_SW_DMB_H

/*
 * What the software backends (loopback, shm) share about an owner's DMBs,
 * on the control path: which indices are taken, the token of each new
 * registration (ism_sw_token.h), and the orphans: DMBs of an owner that
 * left while their writer had them attached (nocopy), which live on in the
 * writer's list until it detaches. The caller serializes (its control
 * lock).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include "ism_sw_token.h"

/* Indices a token can name; RTE_ISM_DMB_IDX_FIRST of them reserved. */
#define ISM_SW_NB_IDX	(ISM_SW_TOK_IDX_MASK + 1)

/* The DMB indices of one owner and the generation counter of each. */
struct ism_sw_dmb_ids {
	struct ism_sw_tok_key key;	/* random, per device */
	uint32_t max_dmbs;		/* [FIRST, FIRST + max_dmbs) */
	uint64_t used[ISM_SW_NB_IDX / 64];
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
void ism_sw_ids_put(struct ism_sw_dmb_ids *ids, uint32_t idx);

static inline bool
ism_sw_ids_taken(const struct ism_sw_dmb_ids *ids, uint32_t idx)
{
	return (ids->used[idx / 64] >> (idx % 64)) & 1;
}

/* A DMB whose owner is gone, still attached by this writer. */
struct ism_sw_orphan {
	TAILQ_ENTRY(ism_sw_orphan) next;
	uint64_t token;
	void *addr;
	size_t len;
	uint32_t attach_cnt;
};
TAILQ_HEAD(ism_sw_orphan_list, ism_sw_orphan);

/* Frees the memory of an orphan (rte_free, munmap). */
typedef void (*ism_sw_mem_free_t)(void *addr, size_t len);

/* Keep an attached DMB; -ENOMEM (nothing kept) if no memory. */
int ism_sw_orphan_add(struct ism_sw_orphan_list *l, uint64_t token,
		void *addr, size_t len, uint32_t attach_cnt);

/* Drop one attachment of the orphan with token (freed with the last);
 * false if there is none. */
bool ism_sw_orphan_detach(struct ism_sw_orphan_list *l, uint64_t token,
		ism_sw_mem_free_t mem_free);

/* Free every orphan (the writer closes). */
void ism_sw_orphans_free(struct ism_sw_orphan_list *l,
		ism_sw_mem_free_t mem_free);

#endif /* ISM_SW_DMB_H */
