/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_EAL_EXPORT_H
#define ISM_EAL_EXPORT_H

/*
 * The export marks of the tree's sources (RTE_EXPORT_EXPERIMENTAL_SYMBOL,
 * RTE_EXPORT_INTERNAL_SYMBOL before each exported definition) are those of
 * DPDK from 25.07 on, whose build reads them to write a library's version
 * script; its eal_export.h, which defines them as nothing, is private to
 * DPDK's tree. Out of DPDK's tree this header, found ahead of nothing of
 * DPDK's (config/ is on the include path of the tree's builds only),
 * defines them the same way, and devtools/gen-version-map.py writes the
 * version scripts from the same lines. Inside DPDK's tree
 * (devtools/dpdk-intree.sh) DPDK's own header is found instead.
 */
#define RTE_EXPORT_EXPERIMENTAL_SYMBOL(symbol, ver)
#define RTE_EXPORT_INTERNAL_SYMBOL(symbol)
#define RTE_EXPORT_SYMBOL(symbol)

#endif /* ISM_EAL_EXPORT_H */
