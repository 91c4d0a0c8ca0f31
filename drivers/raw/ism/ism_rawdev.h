/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_RAWDEV_H
#define ISM_RAWDEV_H

/*
 * The rawdev adapter of an ISM device (ism_rawdev.c): a rawdev of the same
 * name whose ops call the rte_ism_* function of the device, so that DPDK's
 * rawdev management plane (info, configure, start/stop, close, dump,
 * xstats, selftest, telemetry /rawdev/...) reaches it. It is a client of
 * librte_ism like any other and knows nothing of the PMD; the PMD's common
 * code (ism_pmd.c) registers it once a device is probed and removes it
 * before the device. Nothing depends on it: a device without a rawdev (the
 * rawdev library's ids all taken) works the same through rte_ism_*.
 */

#include <stdint.h>

struct rte_device;

/* Register the rawdev of ISM device ism_id (same name); 0, or a negative
 * errno (logged: the device works without it).
 */
int ism_rawdev_create(uint16_t ism_id, struct rte_device *device,
		const char *driver_name);

/* Remove the rawdev of the ISM device called name, if it has one. */
void ism_rawdev_destroy(const char *name);

#endif /* ISM_RAWDEV_H */
