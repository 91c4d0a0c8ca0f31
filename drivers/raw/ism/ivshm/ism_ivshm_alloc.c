/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Placement of a device's DMBs in its partition of the region: first fit
 * over a sorted array of free extents, kept in the device's own memory
 * (never in the region, where another member could change it). Every
 * allocation splits at most one extent, so max_dmbs + 1 entries suffice.
 */

#include <errno.h>
#include <string.h>

#include <rte_malloc.h>

#include "ism_ivshm.h"

int
ism_ivshm_alloc_init(struct ivshm_alloc *a, uint32_t cap, uint64_t units)
{
	a->ext = rte_zmalloc("ism_ivshm_alloc", sizeof(*a->ext) * cap, 0);
	if (a->ext == NULL)
		return -ENOMEM;
	a->cap = cap;
	ism_ivshm_alloc_reset(a, units);
	return 0;
}

void
ism_ivshm_alloc_reset(struct ivshm_alloc *a, uint64_t units)
{
	a->nb = units > 0;
	a->ext[0].off = 0;
	a->ext[0].len = units;
}

int64_t
ism_ivshm_alloc_take(struct ivshm_alloc *a, uint64_t units)
{
	uint64_t off;
	uint32_t i;

	for (i = 0; i < a->nb; i++) {
		if (a->ext[i].len < units)
			continue;
		off = a->ext[i].off;
		a->ext[i].off += units;
		a->ext[i].len -= units;
		if (a->ext[i].len == 0) {
			memmove(&a->ext[i], &a->ext[i + 1],
				(a->nb - i - 1) * sizeof(a->ext[0]));
			a->nb--;
		}
		return (int64_t)off;
	}
	return -1;
}

void
ism_ivshm_alloc_give(struct ivshm_alloc *a, uint64_t off, uint64_t units)
{
	uint32_t i;
	bool prev, next;

	for (i = 0; i < a->nb && a->ext[i].off < off; i++)
		;
	prev = i > 0 && a->ext[i - 1].off + a->ext[i - 1].len == off;
	next = i < a->nb && off + units == a->ext[i].off;
	if (prev && next) {
		a->ext[i - 1].len += units + a->ext[i].len;
		memmove(&a->ext[i], &a->ext[i + 1],
			(a->nb - i - 1) * sizeof(a->ext[0]));
		a->nb--;
	} else if (prev) {
		a->ext[i - 1].len += units;
	} else if (next) {
		a->ext[i].off = off;
		a->ext[i].len += units;
	} else if (a->nb < a->cap) {
		memmove(&a->ext[i + 1], &a->ext[i],
			(a->nb - i) * sizeof(a->ext[0]));
		a->ext[i].off = off;
		a->ext[i].len = units;
		a->nb++;
	} else {
		/* Cannot happen: at most max_dmbs allocations exist, so at
		 * most max_dmbs + 1 free extents.
		 */
		ISM_PMD_LOG(ERR, "DMB space of %" PRIu64 " units lost: "
			    "extent table full", units);
	}
}

void
ism_ivshm_alloc_fini(struct ivshm_alloc *a)
{
	rte_free(a->ext);
	a->ext = NULL;
	a->nb = a->cap = 0;
}
