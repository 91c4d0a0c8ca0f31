/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_BUS_PRIVATE_H
#define ISM_BUS_PRIVATE_H

/*
 * Private to the ism bus: the bus object with its device and driver lists,
 * the sysfs scan, the vfio set-up and the helpers they share.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_log.h>
#include <rte_pci.h>
#include <bus_driver.h>
#include <dev_driver.h>
#include <ism_compat.h>

#include "bus_ism_driver.h"

extern int ism_bus_logtype;

#define RTE_LOGTYPE_ISM_BUS ism_bus_logtype
#define ISM_BUS_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_BUS, fmt, ##__VA_ARGS__)

/* Sysfs root: first set of these variables, else the kernel's tree. */
#define ISM_BUS_SYSFS_ENV	"ISM_BUS_SYSFS_ROOT"
#define ISM_BUS_SYSFS_PCI_ENV	"SYSFS_PCI_DEVICES"
#define ISM_BUS_SYSFS_DEFAULT	"/sys/bus/pci/devices"

/* Prefix of the explicit device name form "ism:<PCI address>". */
#define ISM_BUS_NAME_PREFIX	"ism:"

/*
 * The kernel drivers that give a function to vfio (RTE_ISM_BUS_DRV_NEED_VFIO):
 * Linux's vfio-pci variant for ISM (drivers/vfio/pci/ism, module
 * ism-vfio-pci), the only one that can do ISM I/O on IBM Z, and plain
 * vfio-pci, which cannot there (its BAR writes are not PCI store blocks)
 * but serves the stand-ins of other platforms (an ivshmem function in a
 * VM test).
 */
#define ISM_BUS_KDRV_ISM_VFIO	"ism_vfio_pci"
#define ISM_BUS_KMOD_ISM_VFIO	"ism-vfio-pci"
#define ISM_BUS_KDRV_VFIO	"vfio-pci"
/* A sysfs attribute that only zPCI functions have (arch/s390/pci). */
#define ISM_BUS_ZPCI_ATTR	"function_id"

struct ism_bus {
	struct rte_bus bus;
	TAILQ_HEAD(, rte_ism_bus_device) device_list;	/* sorted by address */
	TAILQ_HEAD(, rte_ism_bus_driver) driver_list;
};

extern struct ism_bus ism_bus;

#define FOREACH_DEVICE_ON_ISM_BUS(p) \
	TAILQ_FOREACH(p, &ism_bus.device_list, next)
#define FOREACH_DRIVER_ON_ISM_BUS(p) \
	TAILQ_FOREACH(p, &ism_bus.driver_list, next)

#define ISM_DEV(d) container_of(d, struct rte_ism_bus_device, device)
#define ISM_DEV_CONST(d) \
	container_of(d, const struct rte_ism_bus_device, device)

/* ism_sysfs.c */

/* The sysfs directory holding one entry per PCI function. */
const char *ism_sysfs_root(void);

/* Whether <root>/<addr> has the ISM vendor and device ids (quietly);
 * an ivshmem function is not one (it is taken only when named).
 */
bool ism_sysfs_is_ism(const struct rte_pci_addr *addr);

/* Scan the sysfs tree (again): add new ISM functions, refresh devargs. */
int ism_bus_scan(void);

/* ism_bus.c */

/*
 * Parse a device name: "<PCI address>" or "ism:<PCI address>", up to the
 * first ','. 0 and *addr on success, -1 otherwise (nothing logged).
 */
int ism_bus_addr_parse(const char *name, struct rte_pci_addr *addr);

/* The -a/-b entry of the ism bus for addr, or NULL. */
struct rte_devargs *ism_bus_devargs_lookup(const struct rte_pci_addr *addr);

/* Whether -a/-b exclude the function at addr. */
bool ism_bus_ignored(const struct rte_pci_addr *addr);

/* The value of devargs key "fabric" into val; false if absent. */
bool ism_bus_devargs_fabric(const struct rte_devargs *da, char *val,
		size_t size);

/* Whether dev is bound to one of the vfio drivers above. */
bool ism_bus_kdrv_is_vfio(const struct rte_ism_bus_device *dev);

/* ism_vfio.c */

/*
 * Open the function through vfio, fill dev->regions, dev->zpci_info and
 * dev->intr_handle, enable bus mastering. 0 on success, 1 if the function
 * is not VFIO-managed (skip), or a negative errno.
 */
int ism_vfio_setup(struct rte_ism_bus_device *dev);

/* Undo ism_vfio_setup; a no-op for a function that is not set up. */
void ism_vfio_release(struct rte_ism_bus_device *dev);

/* ism_vfio_dma.c: the function's own vfio container (see there). */
void ism_vfio_container_open(struct rte_ism_bus_device *dev);
int ism_vfio_container_map(struct rte_ism_bus_device *dev);
void ism_vfio_container_close(struct rte_ism_bus_device *dev);
/* The container its DMA mappings go to: its own or EAL's. */
int ism_vfio_container_of(const struct rte_ism_bus_device *dev);

/* ism_region.c */

/* pread/pwrite of a whole buffer on the vfio device fd. */
int ism_vfio_pio(int fd, void *buf, size_t len, uint64_t pos, bool write);

/* ism_params.c */

void *ism_bus_dev_iterate(const void *start, const char *str,
		const struct rte_dev_iterator *it);

#endif /* ISM_BUS_PRIVATE_H */
