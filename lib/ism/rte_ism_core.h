/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_ISM_CORE_H
#define RTE_ISM_CORE_H

/**
 * @file
 *
 * ISM fast-path table.
 *
 * This header holds what the inline fast path of rte_ism.h needs: the
 * function types a driver implements and the per-device table entry.
 * Applications must not use it directly; it is included by rte_ism.h.
 */

#include <stdint.h>

#include <rte_common.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Maximum number of ISM devices of a DPDK application (every process of
 * it): the size of the fast-path table rte_ism_fp_ops[], and one more than
 * the highest device id. librte_ism gives the ids; no other library's
 * limit bounds them.
 *
 * Part of the ABI: the inline fast path of an application indexes the
 * table with ids below this value, so a library built with another value
 * needs the application rebuilt.
 */
#define RTE_ISM_MAX_DEVS 64

struct rte_ism_move_seg;
struct rte_ism_signal;

/** @internal Driver function behind rte_ism_move_data(). */
typedef int (*rte_ism_move_data_t)(void *dev_private, uint64_t token,
		uint32_t idx, uint32_t sf, uint32_t offset, const void *data,
		uint32_t len);

/** @internal Driver function behind rte_ism_move_burst(). */
typedef int (*rte_ism_move_burst_t)(void *dev_private, uint64_t token,
		uint32_t idx, uint32_t sf, const struct rte_ism_move_seg *segs,
		uint16_t nb_segs);

/** @internal Driver function behind rte_ism_signal_poll(). */
typedef int (*rte_ism_signal_poll_t)(void *dev_private,
		struct rte_ism_signal *sigs, uint16_t nb_sigs);

/**
 * @internal
 * One fast-path entry per device, exactly one cache line: the driver
 * context and the function pointers are read from the same line, so a
 * call costs one load for the function, one for the context and the
 * indirect call. Unused or stopped slots hold dummies that return
 * -ENODEV (and count it for the device), so the fast path never tests
 * for NULL. The library fills an entry at device start and resets it at
 * stop, close and release. Its size (one cache line) is part of the ABI.
 */
struct __rte_cache_aligned rte_ism_fp_ops {
	void *dev_private;			/**< driver context */
	rte_ism_move_data_t move_data;		/**< rte_ism_move_data() */
	rte_ism_move_burst_t move_burst;	/**< rte_ism_move_burst() */
	rte_ism_signal_poll_t signal_poll;	/**< rte_ism_signal_poll() */
	uintptr_t reserved[4];			/**< pads to one cache line */
};

/**
 * @internal
 * The table itself: a statically sized array, so that an application
 * built as PIE reaches an entry without loading a base pointer first.
 */
extern struct rte_ism_fp_ops rte_ism_fp_ops[RTE_ISM_MAX_DEVS];

#ifdef __cplusplus
}
#endif

#endif /* RTE_ISM_CORE_H */
