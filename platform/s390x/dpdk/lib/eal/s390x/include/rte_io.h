/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_IO_S390X_H
#define RTE_IO_S390X_H

/*
 * The generic accessors: plain loads and stores with rte_io_*mb(). They
 * reach a PCI BAR only where it is mapped with the PCI memory-I/O (MIO)
 * instructions, which the kernel provides from z15 on (RTE_CPUFLAG_PCI_MIO);
 * functions without MIO are reached through the kernel (vfio region
 * reads and writes), not through these.
 */
#include "generic/rte_io.h"

#endif /* RTE_IO_S390X_H */
