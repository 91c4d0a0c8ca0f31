/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include "eal_private.h"
#include "rte_cycles.h"

/* The TOD clock's rate is architected: no measurement (rte_cycles.h). */
uint64_t
get_tsc_freq_arch(void)
{
	return RTE_S390X_TOD_HZ;
}
