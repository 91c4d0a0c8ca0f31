/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_PAUSE_S390X_H
#define RTE_PAUSE_S390X_H

#include "rte_atomic.h"
#include "generic/rte_pause.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * z/Architecture has no spin-wait hint for a problem-state program (Linux's
 * cpu_relax() on s390 is a compiler barrier too): the loop reads memory
 * again on every pass.
 */
static inline void
rte_pause(void)
{
	rte_compiler_barrier();
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_PAUSE_S390X_H */
