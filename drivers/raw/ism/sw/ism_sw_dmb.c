/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* DMB indices, tokens and orphans of the software backends (and the PCI
 * backend's choice of index).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <rte_random.h>

#include "ism_pmd.h"
#include "ism_sw_dmb.h"
#include "ism_sw_view.h"

_Static_assert(ISM_SW_NB_IDX == (ISM_SW_MAX_DMBS + RTE_ISM_DMB_IDX_FIRST),
	       "a token's index field covers every software DMB index");

const struct ism_sw_view_ent ism_sw_view_no_ent[ISM_SW_NB_IDX];

void
ism_sw_idx_init(struct ism_sw_idx_set *set, uint32_t max_dmbs)
{
	unsigned int i;

	memset(set, 0, sizeof(*set));
	set->max_dmbs = max_dmbs;
	/* Reserved and out-of-range indices look taken to the search. */
	for (i = 0; i < ISM_SW_NB_IDX; i++)
		if (i < RTE_ISM_DMB_IDX_FIRST ||
		    i - RTE_ISM_DMB_IDX_FIRST >= max_dmbs)
			set->used[i / 64] |= RTE_BIT64(i % 64);
}

int
ism_sw_idx_take(struct ism_sw_idx_set *set, uint32_t want, const char *name)
{
	uint32_t w, idx;
	uint64_t free_bits;

	if (want != 0) {
		if (ism_sw_idx_taken(set, want)) {
			ISM_PMD_LOG(ERR, "%s: DMB index %u is in use", name,
				    want);
			return -EBUSY;
		}
		idx = want;
	} else {
		idx = ISM_SW_NB_IDX;
		for (w = 0; w < RTE_DIM(set->used); w++) {
			free_bits = ~set->used[w];
			if (free_bits != 0) {
				idx = w * 64 + rte_bsf64(free_bits);
				break;
			}
		}
		if (idx == ISM_SW_NB_IDX) {
			ISM_PMD_LOG(ERR, "%s: all %u DMB indices are in use",
				    name, set->max_dmbs);
			return -ENOSPC;
		}
	}
	set->used[idx / 64] |= RTE_BIT64(idx % 64);
	return idx;
}

void
ism_sw_ids_init(struct ism_sw_dmb_ids *ids, uint32_t max_dmbs)
{
	unsigned int i;

	memset(ids, 0, sizeof(*ids));
	ism_sw_idx_init(&ids->set, max_dmbs);
	/* The kernel's entropy if it has some at once, else DPDK's. */
	if (getrandom(&ids->key, sizeof(ids->key), GRND_NONBLOCK) !=
	    (ssize_t)sizeof(ids->key))
		for (i = 0; i < RTE_DIM(ids->key.k); i++)
			ids->key.k[i] = rte_rand();
}

int
ism_sw_ids_take(struct ism_sw_dmb_ids *ids, uint32_t want, const char *name)
{
	return ism_sw_idx_take(&ids->set, want, name);
}

uint64_t
ism_sw_ids_token(struct ism_sw_dmb_ids *ids, unsigned int slot, uint32_t idx)
{
	uint32_t gen = ism_sw_tok_gen(&ids->key, idx, ids->ctr[idx]);

	ids->ctr[idx] = (ids->ctr[idx] + 1) & (ISM_SW_TOK_HORIZON - 1);
	return ism_sw_tok_make(slot, idx, gen);
}

struct ism_sw_orphan *
ism_sw_orphan_new(struct ism_sw_orphan_list *l, uint64_t token, void *addr,
		size_t len, uint32_t attach_cnt, bool owner_gone,
		uint64_t owner_tag)
{
	struct ism_sw_orphan *o = calloc(1, sizeof(*o));

	if (o == NULL)
		return NULL;
	o->token = token;
	o->addr = addr;
	o->len = len;
	o->attach_cnt = attach_cnt;
	o->owner_gone = owner_gone;
	o->owner_tag = owner_tag;
	TAILQ_INSERT_TAIL(l, o, next);
	return o;
}

struct ism_sw_orphan *
ism_sw_orphan_find(struct ism_sw_orphan_list *l, uint64_t token)
{
	struct ism_sw_orphan *o;

	TAILQ_FOREACH(o, l, next)
		if (o->token == token)
			return o;
	return NULL;
}

static void
orphan_free(struct ism_sw_orphan_list *l, struct ism_sw_orphan *o,
		ism_sw_mem_free_t mem_free)
{
	TAILQ_REMOVE(l, o, next);
	if (mem_free != NULL)
		mem_free(o->addr, o->len);
	free(o);
}

bool
ism_sw_orphan_drop(struct ism_sw_orphan_list *l, struct ism_sw_orphan *o,
		ism_sw_mem_free_t mem_free)
{
	if (--o->attach_cnt > 0)
		return false;
	orphan_free(l, o, mem_free);
	return true;
}

bool
ism_sw_orphan_detach(struct ism_sw_orphan_list *l, uint64_t token,
		ism_sw_mem_free_t mem_free)
{
	struct ism_sw_orphan *o = ism_sw_orphan_find(l, token);

	if (o == NULL)
		return false;
	ism_sw_orphan_drop(l, o, mem_free);
	return true;
}

void
ism_sw_orphans_free(struct ism_sw_orphan_list *l, ism_sw_mem_free_t mem_free)
{
	struct ism_sw_orphan *o;

	while ((o = TAILQ_FIRST(l)) != NULL)
		orphan_free(l, o, mem_free);
}
