/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_ATOMIC_S390X_H
#define RTE_ATOMIC_S390X_H

#ifndef RTE_FORCE_INTRINSICS
#  error Platform must be built with RTE_FORCE_INTRINSICS
#endif

#include <stdint.h>
#include <rte_common.h>
#include <rte_config.h>
#include "generic/rte_atomic.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The s390 memory model is strongly ordered: stores are not reordered with
 * older stores, loads not with older loads, stores not with older loads.
 * Only a load may pass an older store to another location (the store
 * buffer), which a serialization stops. "bcr 14,0" is the fast
 * serialization of the fast-BCR-serialization facility (z196 and later,
 * part of the z13 baseline); it orders everything, including the PCI
 * store and load instructions (z/Architecture Principles of Operation,
 * "Serialization"; Linux arch/s390/include/asm/barrier.h uses the same).
 */
#define rte_s390x_serialize() asm volatile("bcr 14,0" : : : "memory")

#define rte_mb() rte_s390x_serialize()

/* Stores are already ordered with stores, loads with loads. */
#define rte_wmb() rte_compiler_barrier()

#define rte_rmb() rte_compiler_barrier()

#define rte_smp_mb() rte_s390x_serialize()

#define rte_smp_wmb() rte_compiler_barrier()

#define rte_smp_rmb() rte_compiler_barrier()

/*
 * Device accesses: a full serialization, so that a store to memory is
 * visible before a device is told about it and a device's completion is
 * seen before the data it wrote.
 */
#define rte_io_mb() rte_s390x_serialize()

#define rte_io_wmb() rte_s390x_serialize()

#define rte_io_rmb() rte_s390x_serialize()

static __rte_always_inline void
rte_atomic_thread_fence(rte_memory_order memorder)
{
	__rte_atomic_thread_fence(memorder);
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_ATOMIC_S390X_H */
