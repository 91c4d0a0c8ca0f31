/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include "eal_private.h"

/* Dynamic address translation is always on for a Linux program. */
bool
eal_mmu_supported(void)
{
	return true;
}
