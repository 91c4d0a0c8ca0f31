/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_BYTEORDER_S390X_H
#define RTE_BYTEORDER_S390X_H

#include <stdint.h>
#include <rte_common.h>
#include "generic/rte_byteorder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* z/Architecture is big-endian: network order is the CPU's. */
#ifndef RTE_BYTE_ORDER
#define RTE_BYTE_ORDER RTE_BIG_ENDIAN
#endif

#define rte_cpu_to_be_16(x) (x)
#define rte_cpu_to_be_32(x) (x)
#define rte_cpu_to_be_64(x) (x)

#define rte_be_to_cpu_16(x) (x)
#define rte_be_to_cpu_32(x) (x)
#define rte_be_to_cpu_64(x) (x)

/* The compiler's byte swaps become LRVR/LRVGR (or LRV/LRVG loads). */
#define rte_cpu_to_le_16(x) rte_bswap16(x)
#define rte_cpu_to_le_32(x) rte_bswap32(x)
#define rte_cpu_to_le_64(x) rte_bswap64(x)

#define rte_le_to_cpu_16(x) rte_bswap16(x)
#define rte_le_to_cpu_32(x) rte_bswap32(x)
#define rte_le_to_cpu_64(x) rte_bswap64(x)

#ifdef __cplusplus
}
#endif

#endif /* RTE_BYTEORDER_S390X_H */
