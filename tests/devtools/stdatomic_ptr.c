/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * For devtools/check-stdatomic.sh's selftest: an object declared
 * RTE_ATOMIC(T) whose address goes into a plain T pointer without a cast,
 * which clang with RTE_ENABLE_STDATOMIC warns about and DPDK's -Werror
 * build refuses (GCC's build takes it).
 */

#include <stdint.h>

#include <rte_stdatomic.h>

struct stdatomic_ptr {
	RTE_ATOMIC(uint64_t) seq;
};

void stdatomic_ptr_bump(struct stdatomic_ptr *p);

void
stdatomic_ptr_bump(struct stdatomic_ptr *p)
{
	uint64_t *seq = &p->seq;

	(*seq)++;
}
