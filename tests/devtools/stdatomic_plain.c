/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * For devtools/check-stdatomic.sh's selftest: an object accessed with
 * rte_atomic_*_explicit but declared without RTE_ATOMIC(T), which clang
 * with RTE_ENABLE_STDATOMIC refuses (GCC's build takes it).
 */

#include <stdint.h>

#include <rte_stdatomic.h>

struct stdatomic_plain {
	uint32_t word;
};

uint32_t stdatomic_plain_load(struct stdatomic_plain *p);

uint32_t
stdatomic_plain_load(struct stdatomic_plain *p)
{
	return rte_atomic_load_explicit(&p->word, rte_memory_order_relaxed);
}
