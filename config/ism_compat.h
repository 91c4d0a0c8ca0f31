/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_COMPAT_H
#define ISM_COMPAT_H

/**
 * @file
 * What differs between the DPDK versions this tree builds against (22.11,
 * 24.11, 25.11), in one place. The code is written for the newest one:
 * where an older DPDK lacks a name, this header provides it; where a name
 * changed meaning, an ism_ name covers every version. Nothing else in the
 * tree tests the DPDK version (doc/guides/prog_guide/ism_lib.rst, "DPDK
 * versions"). Internal: for the tree's libraries, drivers, programs and tests;
 * installed because an installed header includes it (bus_ism_driver.h).
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_lcore.h>
#include <rte_thread.h>
#include <rte_version.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Driver name export (read by pmdinfogen). Up to 24.11 rte_dev.h defines
 * RTE_PMD_EXPORT_NAME(name, idx), with a unique index per object, over
 * RTE_PMD_EXPORT_NAME_ARRAY; 25.11 moved it to dev_driver.h as
 * RTE_PMD_EXPORT_NAME(name).
 */
#ifdef RTE_PMD_EXPORT_NAME_ARRAY
#define ISM_PMD_EXPORT_NAME(nm) RTE_PMD_EXPORT_NAME(nm, __COUNTER__)
#else
#define ISM_PMD_EXPORT_NAME(nm) RTE_PMD_EXPORT_NAME(nm)
#endif

/*
 * Packed structures: 25.03 replaced the one attribute (an error from 25.11
 * on) with a pair, one before the structure's name and one after its body.
 */
#if !defined(__rte_packed_begin) && !defined(__rte_packed_end)
#define __rte_packed_begin
#define __rte_packed_end __rte_packed
#endif

/*
 * Atomics: 23.11 added rte_stdatomic.h (rte_atomic_*_explicit and
 * rte_memory_order_*, over C11 stdatomic or the compiler's builtins), and
 * DPDK's checkpatches.sh has since refused the builtins themselves. Before
 * 23.11 the same names map onto the builtins, as rte_stdatomic.h does when
 * DPDK is built without enable_stdatomic. 22.11 already has
 * rte_atomic_thread_fence() (rte_atomic.h).
 */
#if RTE_VERSION_NUM(23, 11, 0, 0) <= RTE_VERSION
#include <rte_stdatomic.h>
#else
#include <rte_atomic.h>

#define RTE_ATOMIC(type) type
#define __rte_atomic
#define rte_memory_order_relaxed __ATOMIC_RELAXED
#define rte_memory_order_consume __ATOMIC_CONSUME
#define rte_memory_order_acquire __ATOMIC_ACQUIRE
#define rte_memory_order_release __ATOMIC_RELEASE
#define rte_memory_order_acq_rel __ATOMIC_ACQ_REL
#define rte_memory_order_seq_cst __ATOMIC_SEQ_CST
#define rte_atomic_load_explicit(ptr, mo) __atomic_load_n(ptr, mo)
#define rte_atomic_store_explicit(ptr, val, mo) __atomic_store_n(ptr, val, mo)
#define rte_atomic_exchange_explicit(ptr, val, mo) \
	__atomic_exchange_n(ptr, val, mo)
#define rte_atomic_compare_exchange_strong_explicit(ptr, exp, des, succ, fail) \
	__atomic_compare_exchange_n(ptr, exp, des, 0, succ, fail)
#define rte_atomic_compare_exchange_weak_explicit(ptr, exp, des, succ, fail) \
	__atomic_compare_exchange_n(ptr, exp, des, 1, succ, fail)
#define rte_atomic_fetch_add_explicit(ptr, val, mo) \
	__atomic_fetch_add(ptr, val, mo)
#define rte_atomic_fetch_sub_explicit(ptr, val, mo) \
	__atomic_fetch_sub(ptr, val, mo)
#define rte_atomic_fetch_and_explicit(ptr, val, mo) \
	__atomic_fetch_and(ptr, val, mo)
#define rte_atomic_fetch_or_explicit(ptr, val, mo) \
	__atomic_fetch_or(ptr, val, mo)
#define rte_atomic_fetch_xor_explicit(ptr, val, mo) \
	__atomic_fetch_xor(ptr, val, mo)
#endif

/*
 * Logging: 23.11 added RTE_LOG_LINE (a message without its newline, the
 * line ended by the macro) and 25.11's checkpatches.sh refuses rte_log()
 * and RTE_LOG() in drivers and libraries. Before 23.11 it is RTE_LOG with
 * the newline appended.
 */
#ifndef RTE_LOG_LINE
#define RTE_LOG_LINE(level, type, ...) \
	RTE_LOG(level, type, RTE_FMT(RTE_FMT_HEAD(__VA_ARGS__ ,) "\n", \
		RTE_FMT_TAIL(__VA_ARGS__ ,)))
#endif

/*
 * Telemetry: 23.03 renamed rte_tel_data_add_dict_u64() to
 * rte_tel_data_add_dict_uint(); 25.11 has only the new name.
 */
#if RTE_VERSION_NUM(23, 3, 0, 0) > RTE_VERSION
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#endif

/*
 * ethdev's stats_get callback: up to 25.07 the per-queue counters are in
 * struct rte_eth_stats; 25.11 passes them apart, in struct eth_queue_stats
 * (ethdev_driver.h), which may be NULL. A driver declares its callback's
 * stats argument(s) with ISM_ETH_STATS_PARAMS(stats) and fills the queue
 * counters of ISM_ETH_QSTATS(stats), of type ISM_ETH_QSTATS_T, when not
 * NULL.
 */
#if RTE_VERSION_NUM(25, 11, 0, 0) <= RTE_VERSION
struct eth_queue_stats;
#define ISM_ETH_QSTATS_T struct eth_queue_stats
#define ISM_ETH_STATS_PARAMS(stats) \
	struct rte_eth_stats *stats, struct eth_queue_stats *ism_qstats
#define ISM_ETH_QSTATS(stats) ((void)(stats), ism_qstats)
#else
#define ISM_ETH_QSTATS_T struct rte_eth_stats
#define ISM_ETH_STATS_PARAMS(stats) struct rte_eth_stats *stats
#define ISM_ETH_QSTATS(stats) (stats)
#endif

/**
 * Start a control thread of the tree's drivers: on EAL's control CPU set,
 * not on an lcore, named "dpdk-<name>" from 23.11 on (name: at most
 * RTE_THREAD_INTERNAL_NAME_SIZE - 1 = 10 characters), joined with
 * rte_thread_join(). 23.11 replaced rte_ctrl_thread_create() (a pthread_t
 * and a function returning void *) with rte_thread_create_control() and
 * its internal form for drivers; 22.11 already has rte_thread_join() and
 * rte_thread_detach(), and on Linux an rte_thread_t holds the pthread_t
 * (lib/eal/unix/rte_thread.c).
 *
 * @return 0, or a negative errno.
 */
static inline int
ism_ctrl_thread_create(rte_thread_t *thread, const char *name,
		uint32_t (*start)(void *), void *arg);

#if RTE_VERSION_NUM(23, 11, 0, 0) > RTE_VERSION

struct ism_compat_ctrl_start {
	uint32_t (*start)(void *arg);
	void *arg;
};

static inline void *
ism_compat_ctrl_main(void *p)
{
	struct ism_compat_ctrl_start s = *(struct ism_compat_ctrl_start *)p;

	free(p);
	return (void *)(uintptr_t)s.start(s.arg);
}

static inline int
ism_ctrl_thread_create(rte_thread_t *thread, const char *name,
		uint32_t (*start)(void *), void *arg)
{
	/* The cast: the header compiles as C++ too. */
	struct ism_compat_ctrl_start *s =
		(struct ism_compat_ctrl_start *)malloc(sizeof(*s));
	pthread_t t;
	int ret;

	if (s == NULL)
		return -ENOMEM;
	s->start = start;
	s->arg = arg;
	/* A negative errno on failure (lib/eal/common/eal_common_thread.c). */
	ret = rte_ctrl_thread_create(&t, name, NULL, ism_compat_ctrl_main, s);
	if (ret != 0) {
		free(s);
		return ret > 0 ? -ret : ret;
	}
	thread->opaque_id = (uintptr_t)t;
	return 0;
}

#else

static inline int
ism_ctrl_thread_create(rte_thread_t *thread, const char *name,
		uint32_t (*start)(void *), void *arg)
{
	/* Negative errnos, and the thread's own positive one
	 * (lib/eal/common/eal_common_thread.c).
	 */
	int ret = rte_thread_create_internal_control(thread, name, start, arg);

	return ret > 0 ? -ret : ret;
}

#endif

#ifdef __cplusplus
}
#endif

#endif /* ISM_COMPAT_H */
