/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_ZPCI_H
#define ISM_ZPCI_H

/*
 * The zPCI capabilities in a VFIO_DEVICE_GET_INFO answer (Linux
 * drivers/vfio/pci/vfio_pci_zdev.c, include/uapi/linux/vfio_zdev.h). Pure
 * parsing, no logging and no EAL, so that a unit test can feed it
 * hand-made answers (tests/bus_ism/test_zpci_caps.c).
 */

#include <stddef.h>

#include "bus_ism_driver.h"

/* A chain longer than this is taken as a loop. */
#define ISM_ZPCI_MAX_CAPS 16

/*
 * Fill z from the answer info of len bytes (a struct vfio_device_info
 * followed by its capability chain). Capabilities other than ZPCI_BASE and
 * ZPCI_GROUP are skipped. Returns 0, or -EINVAL if the chain is malformed
 * (an offset outside the answer or misaligned, a capability cut short, a
 * loop); z is then all zero.
 */
int ism_zpci_caps_parse(const void *info, size_t len,
		struct rte_ism_bus_zpci *z);

#endif /* ISM_ZPCI_H */
