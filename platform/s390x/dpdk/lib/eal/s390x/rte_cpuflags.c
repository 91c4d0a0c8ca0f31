/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <errno.h>
#include <string.h>

#include <eal_export.h>
#include <rte_common.h>

#include "rte_cpuflags.h"

#ifndef AT_HWCAP
#define AT_HWCAP 16
#endif

/* Every flag is one bit of AT_HWCAP: the bit is the flag's value. */
static const char * const s390x_flag_names[] = {
	[RTE_CPUFLAG_ESAN3] = "ESAN3",
	[RTE_CPUFLAG_ZARCH] = "ZARCH",
	[RTE_CPUFLAG_STFLE] = "STFLE",
	[RTE_CPUFLAG_MSA] = "MSA",
	[RTE_CPUFLAG_LDISP] = "LDISP",
	[RTE_CPUFLAG_EIMM] = "EIMM",
	[RTE_CPUFLAG_DFP] = "DFP",
	[RTE_CPUFLAG_HPAGE] = "HPAGE",
	[RTE_CPUFLAG_ETF3EH] = "ETF3EH",
	[RTE_CPUFLAG_HIGH_GPRS] = "HIGH_GPRS",
	[RTE_CPUFLAG_TE] = "TE",
	[RTE_CPUFLAG_VXRS] = "VXRS",
	[RTE_CPUFLAG_VXRS_BCD] = "VXRS_BCD",
	[RTE_CPUFLAG_VXRS_EXT] = "VXRS_EXT",
	[RTE_CPUFLAG_GS] = "GS",
	[RTE_CPUFLAG_VXRS_EXT2] = "VXRS_EXT2",
	[RTE_CPUFLAG_VXRS_PDE] = "VXRS_PDE",
	[RTE_CPUFLAG_SORT] = "SORT",
	[RTE_CPUFLAG_DFLT] = "DFLT",
	[RTE_CPUFLAG_VXRS_PDE2] = "VXRS_PDE2",
	[RTE_CPUFLAG_NNPA] = "NNPA",
	[RTE_CPUFLAG_PCI_MIO] = "PCI_MIO",
	[RTE_CPUFLAG_SIE] = "SIE",
};

RTE_EXPORT_SYMBOL(rte_cpu_get_flag_enabled)
int
rte_cpu_get_flag_enabled(enum rte_cpu_flag_t feature)
{
	if ((unsigned int)feature >= RTE_DIM(s390x_flag_names))
		return -ENOENT;
	return (rte_cpu_getauxval(AT_HWCAP) >> feature) & 1;
}

RTE_EXPORT_SYMBOL(rte_cpu_get_flag_name)
const char *
rte_cpu_get_flag_name(enum rte_cpu_flag_t feature)
{
	if ((unsigned int)feature >= RTE_DIM(s390x_flag_names))
		return NULL;
	return s390x_flag_names[feature];
}

/* No power-management intrinsics (see rte_power_intrinsics.c). */
RTE_EXPORT_SYMBOL(rte_cpu_get_intrinsics_support)
void
rte_cpu_get_intrinsics_support(struct rte_cpu_intrinsics *intrinsics)
{
	memset(intrinsics, 0, sizeof(*intrinsics));
}
