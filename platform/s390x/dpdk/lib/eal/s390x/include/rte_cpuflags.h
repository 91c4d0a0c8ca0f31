/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_CPUFLAGS_S390X_H
#define RTE_CPUFLAGS_S390X_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The facilities Linux reports in the auxiliary vector's AT_HWCAP, in the
 * order of their bits (HWCAP_S390_* of glibc's <bits/hwcap.h> and Linux's
 * arch/s390/include/asm/elf.h).
 */
enum rte_cpu_flag_t {
	RTE_CPUFLAG_ESAN3 = 0,	/* ESA/390 instructions, N3 */
	RTE_CPUFLAG_ZARCH,	/* z/Architecture mode */
	RTE_CPUFLAG_STFLE,	/* STORE FACILITY LIST EXTENDED */
	RTE_CPUFLAG_MSA,	/* message-security assist */
	RTE_CPUFLAG_LDISP,	/* long displacement */
	RTE_CPUFLAG_EIMM,	/* extended immediate */
	RTE_CPUFLAG_DFP,	/* decimal floating point */
	RTE_CPUFLAG_HPAGE,	/* large (1 MiB) pages */
	RTE_CPUFLAG_ETF3EH,	/* extended translation 3 enhancement */
	RTE_CPUFLAG_HIGH_GPRS,	/* 64-bit registers in 31-bit mode */
	RTE_CPUFLAG_TE,		/* transactional execution */
	RTE_CPUFLAG_VXRS,	/* vector facility (z13) */
	RTE_CPUFLAG_VXRS_BCD,	/* vector packed decimal */
	RTE_CPUFLAG_VXRS_EXT,	/* vector enhancements 1 (z14) */
	RTE_CPUFLAG_GS,		/* guarded storage */
	RTE_CPUFLAG_VXRS_EXT2,	/* vector enhancements 2 (z15) */
	RTE_CPUFLAG_VXRS_PDE,	/* vector packed decimal enhancement */
	RTE_CPUFLAG_SORT,	/* enhanced sort */
	RTE_CPUFLAG_DFLT,	/* deflate conversion */
	RTE_CPUFLAG_VXRS_PDE2,	/* vector packed decimal enhancement 2 */
	RTE_CPUFLAG_NNPA,	/* neural network processing assist */
	RTE_CPUFLAG_PCI_MIO,	/* PCI memory-I/O instructions */
	RTE_CPUFLAG_SIE,	/* start interpretive execution */
};

#include "generic/rte_cpuflags.h"

#ifdef __cplusplus
}
#endif

#endif /* RTE_CPUFLAGS_S390X_H */
