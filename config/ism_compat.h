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
 * installed with the driver-facing headers (bus_ism_driver.h uses it).
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>

#include <rte_common.h>
#include <rte_dev.h>
#include <rte_lcore.h>
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
 * Packed structures: 25.03 replaced __rte_packed (an error from 25.11 on)
 * with __rte_packed_begin before the name and __rte_packed_end after the
 * body.
 */
#ifndef __rte_packed_begin
#define __rte_packed_begin
#define __rte_packed_end __rte_packed
#endif

/*
 * Telemetry: 23.03 renamed rte_tel_data_add_dict_u64() to
 * rte_tel_data_add_dict_uint(); 25.11 has only the new name.
 */
#if RTE_VERSION < RTE_VERSION_NUM(23, 3, 0, 0)
#define rte_tel_data_add_dict_uint rte_tel_data_add_dict_u64
#endif

/*
 * ethdev's stats_get callback: up to 25.07 the per-queue counters are in
 * struct rte_eth_stats; 25.11 passes them apart, in struct eth_queue_stats
 * (ethdev_driver.h), which may be NULL. A driver declares its callback
 * with ISM_ETH_QSTATS_PARAM after the stats argument and fills the queue
 * counters of ISM_ETH_QSTATS(stats), of type ISM_ETH_QSTATS_T, when not
 * NULL.
 */
#if RTE_VERSION >= RTE_VERSION_NUM(25, 11, 0, 0)
struct eth_queue_stats;
#define ISM_ETH_QSTATS_T struct eth_queue_stats
#define ISM_ETH_QSTATS_PARAM , struct eth_queue_stats *ism_qstats
#define ISM_ETH_QSTATS(stats) (ism_qstats)
#else
#define ISM_ETH_QSTATS_T struct rte_eth_stats
#define ISM_ETH_QSTATS_PARAM
#define ISM_ETH_QSTATS(stats) (stats)
#endif

/**
 * Start a control thread (EAL's control CPU set, not on an lcore), joined
 * with pthread_join(). rte_ctrl_thread_create() of 22.11 was replaced in
 * 23.11 by rte_thread_create_control(), which takes an rte_thread_t and a
 * function returning uint32_t; on Linux the rte_thread_t holds the
 * pthread_t (lib/eal/unix/rte_thread.c).
 *
 * @return 0, or a negative errno.
 */
static inline int
ism_ctrl_thread_create(pthread_t *thread, const char *name,
		void *(*start)(void *), void *arg);

#if RTE_VERSION < RTE_VERSION_NUM(23, 11, 0, 0)

static inline int
ism_ctrl_thread_create(pthread_t *thread, const char *name,
		void *(*start)(void *), void *arg)
{
	/* A negative errno on failure (lib/eal/common/eal_common_thread.c). */
	return rte_ctrl_thread_create(thread, name, NULL, start, arg);
}

#else

#include <rte_thread.h>

struct ism_compat_ctrl_start {
	void *(*start)(void *);
	void *arg;
};

static inline uint32_t
ism_compat_ctrl_main(void *p)
{
	struct ism_compat_ctrl_start s = *(struct ism_compat_ctrl_start *)p;

	free(p);
	s.start(s.arg);
	return 0;
}

static inline int
ism_ctrl_thread_create(pthread_t *thread, const char *name,
		void *(*start)(void *), void *arg)
{
	struct ism_compat_ctrl_start *s = malloc(sizeof(*s));
	rte_thread_t t;
	int ret;

	if (s == NULL)
		return -ENOMEM;
	s->start = start;
	s->arg = arg;
	/* A positive errno on failure. */
	ret = rte_thread_create_control(&t, name, ism_compat_ctrl_main, s);
	if (ret != 0) {
		free(s);
		return -ret;
	}
	*thread = (pthread_t)t.opaque_id;
	return 0;
}

#endif

#ifdef __cplusplus
}
#endif

#endif /* ISM_COMPAT_H */
