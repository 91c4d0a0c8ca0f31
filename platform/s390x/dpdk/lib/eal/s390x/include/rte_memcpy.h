/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_MEMCPY_S390X_H
#define RTE_MEMCPY_S390X_H

#include <stdint.h>
#include <string.h>

#include "rte_common.h"
#include "generic/rte_memcpy.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * MOVE (MVC) copies up to 256 bytes in one instruction; the compiler emits
 * it for a memcpy() of a constant size, and the C library's memcpy() uses
 * MVC and MVCLE for the others. Nothing is gained by copying in registers.
 */
static inline void
rte_mov16(uint8_t *dst, const uint8_t *src)
{
	memcpy(dst, src, 16);
}

static inline void
rte_mov32(uint8_t *dst, const uint8_t *src)
{
	memcpy(dst, src, 32);
}

static inline void
rte_mov48(uint8_t *dst, const uint8_t *src)
{
	memcpy(dst, src, 48);
}

static inline void
rte_mov64(uint8_t *dst, const uint8_t *src)
{
	memcpy(dst, src, 64);
}

static inline void
rte_mov128(uint8_t *dst, const uint8_t *src)
{
	memcpy(dst, src, 128);
}

static inline void
rte_mov256(uint8_t *dst, const uint8_t *src)
{
	memcpy(dst, src, 256);
}

#define rte_memcpy(d, s, n) memcpy((d), (s), (n))

#ifdef __cplusplus
}
#endif

#endif /* RTE_MEMCPY_S390X_H */
