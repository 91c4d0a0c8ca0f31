/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * vfio set-up of an ISM function: the device fd (rte_vfio_setup_device),
 * its BARs (mmapped where the kernel allows it, but never an ISM
 * function's BAR 0; ism_vfio_pci maps none),
 * the zPCI capabilities, the interrupt handle, bus mastering, and the
 * release of all of it. BAR access is in ism_region.c.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/vfio.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_vfio.h>

#include "private.h"
#include "ism_vfio_irq.h"
#include "ism_zpci.h"

/* Largest VFIO_DEVICE_GET_INFO answer we accept (caps included). */
#define ISM_VFIO_INFO_MAX 65536

static int
ism_vfio_region_info(int fd, unsigned int index,
		struct vfio_region_info *info)
{
	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	info->index = index;
	if (ioctl(fd, VFIO_DEVICE_GET_REGION_INFO, info) != 0)
		return -errno;
	return 0;
}

/* The device reads and writes host memory: it must be a bus master. */
static int
ism_vfio_bus_master(struct rte_ism_bus_device *dev, bool on)
{
	struct vfio_region_info cfg;
	uint16_t cmd;
	int ret;

	ret = ism_vfio_region_info(dev->vfio_dev_fd,
			VFIO_PCI_CONFIG_REGION_INDEX, &cfg);
	if (ret == 0)
		ret = ism_vfio_pio(dev->vfio_dev_fd, &cmd, sizeof(cmd),
				cfg.offset + RTE_PCI_COMMAND, false);
	if (ret == 0) {
		/* Config space is little-endian, also on s390x (big-endian). */
		cmd = rte_le_to_cpu_16(cmd);
		cmd = on ? cmd | RTE_PCI_COMMAND_MASTER : cmd & ~RTE_PCI_COMMAND_MASTER;
		cmd = rte_cpu_to_le_16(cmd);
		ret = ism_vfio_pio(dev->vfio_dev_fd, &cmd, sizeof(cmd),
				cfg.offset + RTE_PCI_COMMAND, true);
	}
	if (ret != 0)
		ISM_BUS_LOG(ERR, "%s: cannot %s bus mastering: %s", dev->name,
			on ? "enable" : "disable", strerror(-ret));
	return ret;
}

static int
ism_vfio_map_bars(struct rte_ism_bus_device *dev)
{
	struct rte_ism_bus_region *r;
	struct vfio_region_info info;
	unsigned int i;
	void *addr;
	int ret;

	for (i = 0; i < RTE_ISM_BUS_NB_BARS; i++) {
		ret = ism_vfio_region_info(dev->vfio_dev_fd,
				VFIO_PCI_BAR0_REGION_INDEX + i, &info);
		if (ret != 0) {
			ISM_BUS_LOG(ERR, "%s: BAR%u: cannot get region info: %s",
				dev->name, i, strerror(-ret));
			return ret;
		}
		r = &dev->regions[i];
		r->size = info.size;
		r->offset = info.offset;
		r->flags = info.flags;
		r->addr = NULL;
		if (info.size == 0 || !(info.flags & VFIO_REGION_INFO_FLAG_MMAP))
			continue;
		/*
		 * An ISM function's BAR 0 takes store blocks: one write is
		 * one store block, whose signal (sf) comes after its last
		 * byte. Through a mapping a write becomes several CPU stores
		 * the device cannot tell apart, and the signal may come
		 * before the last of them; a write(2) to the region is one
		 * call (ism_vfio_pci: one store block; plain vfio-pci, an
		 * emulated function: stores in one uninterrupted kernel
		 * loop). So it is never mapped, where vfio-pci would let it.
		 */
		if (i == 0 && dev->vendor_id == RTE_ISM_BUS_PCI_VENDOR_IBM &&
		    dev->device_id == RTE_ISM_BUS_PCI_DEVICE_ISM)
			continue;
		addr = mmap(NULL, info.size, PROT_READ | PROT_WRITE, MAP_SHARED,
				dev->vfio_dev_fd, info.offset);
		if (addr == MAP_FAILED)
			ISM_BUS_LOG(INFO, "%s: BAR%u: mmap failed (%s): using region read/write",
				dev->name, i, strerror(errno));
		else
			r->addr = addr;
	}
	return 0;
}

/*
 * The zPCI capabilities, when the kernel reports them (IBM Z): function
 * type, DMA window, largest store block. rte_vfio_setup_device() asked
 * for the fixed part only; ask again with room for the chain.
 */
static void
ism_vfio_read_zpci(struct rte_ism_bus_device *dev)
{
	struct rte_ism_bus_zpci *z = &dev->zpci_info;
	struct vfio_device_info *info = NULL;
	uint32_t len = 1024;
	int ret = 0;

	memset(z, 0, sizeof(*z));
	for (;;) {
		free(info);
		info = calloc(1, len);
		if (info == NULL) {
			ret = -ENOMEM;
			break;
		}
		info->argsz = len;
		if (ioctl(dev->vfio_dev_fd, VFIO_DEVICE_GET_INFO, info) != 0) {
			ret = -errno;
			break;
		}
		if (info->argsz <= len || info->argsz > ISM_VFIO_INFO_MAX)
			break;
		len = info->argsz;
	}
	if (ret == 0)
		ret = ism_zpci_caps_parse(info, RTE_MIN(len, info->argsz), z);
	free(info);
	if (ret != 0) {
		ISM_BUS_LOG(WARNING, "%s: cannot read the zPCI capabilities: %s; taken as absent",
			dev->name, strerror(-ret));
		return;
	}
	if (z->base || z->group)
		ISM_BUS_LOG(INFO, "%s: zPCI function type 0x%02x, DMA window 0x%"
			PRIx64 "-0x%" PRIx64 ", store blocks of up to %u bytes",
			dev->name, z->pft, z->start_dma, z->end_dma,
			z->maxstbl);
}

static void
ism_vfio_intr_free(struct rte_ism_bus_device *dev)
{
	int fd;

	if (dev->intr_handle == NULL)
		return;
	fd = rte_intr_fd_get(dev->intr_handle);
	if (fd >= 0)
		close(fd);
	rte_intr_instance_free(dev->intr_handle);
	dev->intr_handle = NULL;
}

/*
 * The interrupt handle: vector 0 of MSI, or of MSI-X where the function
 * has no MSI (ism_vfio_irq_pick()), on an eventfd, with the vfio device
 * fd for rte_intr_enable(), which routes the vector to the eventfd with
 * VFIO_DEVICE_SET_IRQS. (DPDK's pci bus prefers MSI-X; ISM's interrupt is
 * its one MSI, and that is what Linux's ism driver takes.) A function
 * without either has no handle.
 */
static int
ism_vfio_intr_setup(struct rte_ism_bus_device *dev)
{
	struct vfio_irq_info irq[2];	/* MSI, MSI-X */
	static const uint32_t index[2] = {
		VFIO_PCI_MSI_IRQ_INDEX, VFIO_PCI_MSIX_IRQ_INDEX
	};
	static const char *const name[2] = { "MSI", "MSI-X" };
	unsigned int i;
	int efd, ret, pick;

	for (i = 0; i < RTE_DIM(irq); i++) {
		memset(&irq[i], 0, sizeof(irq[i]));
		irq[i].argsz = sizeof(irq[i]);
		irq[i].index = index[i];
		if (ioctl(dev->vfio_dev_fd, VFIO_DEVICE_GET_IRQ_INFO,
			  &irq[i]) != 0) {
			ret = -errno;
			ISM_BUS_LOG(ERR, "%s: cannot get %s information: %s",
				dev->name, name[i], strerror(-ret));
			return ret;
		}
	}
	pick = ism_vfio_irq_pick(&irq[0], &irq[1]);
	if (pick < 0) {
		ISM_BUS_LOG(DEBUG, "%s: no MSI or MSI-X: no interrupt",
			dev->name);
		return 0;
	}
	i = pick == VFIO_PCI_MSI_IRQ_INDEX ? 0 : 1;
	dev->intr_handle = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ret = efd < 0 ? -errno : 0;
	if (dev->intr_handle == NULL || ret != 0 ||
	    rte_intr_fd_set(dev->intr_handle, efd) != 0 ||
	    rte_intr_dev_fd_set(dev->intr_handle, dev->vfio_dev_fd) != 0 ||
	    rte_intr_type_set(dev->intr_handle, i == 0 ?
			RTE_INTR_HANDLE_VFIO_MSI :
			RTE_INTR_HANDLE_VFIO_MSIX) != 0) {
		ISM_BUS_LOG(ERR, "%s: cannot set up an interrupt handle: %s",
			dev->name, ret != 0 ? strerror(-ret) :
			rte_strerror(rte_errno));
		/* Not in the handle yet if a setter failed. */
		if (efd >= 0 && (dev->intr_handle == NULL ||
		    rte_intr_fd_get(dev->intr_handle) != efd))
			close(efd);
		ism_vfio_intr_free(dev);
		return ret != 0 ? ret : -ENOMEM;
	}
	ISM_BUS_LOG(DEBUG, "%s: interrupt: vector 0 of %u %s", dev->name,
		irq[i].count, name[i]);
	return 0;
}

int
ism_vfio_setup(struct rte_ism_bus_device *dev)
{
	struct vfio_device_info info = { .argsz = sizeof(info) };
	unsigned int i;
	int fd, ret;

	/* Our reading of the group link is stricter than EAL's. */
	if (dev->iommu_group < 0) {
		ISM_BUS_LOG(NOTICE, "%s: bound to %s but in no IOMMU group (is the IOMMU on?); skipped",
			dev->name, dev->kdriver);
		return 1;
	}
	ism_vfio_container_open(dev);
	ret = rte_vfio_setup_device(ism_sysfs_root(), dev->name, &fd, &info);
	if (ret > 0) {
		ISM_BUS_LOG(NOTICE, "%s: bound to %s but not VFIO-managed (no /dev/vfio/%d); skipped",
			dev->name, dev->kdriver, dev->iommu_group);
		ism_vfio_container_close(dev);
		return 1;
	}
	if (ret < 0) {
		ISM_BUS_LOG(ERR, "%s: vfio set-up failed (see the EAL messages above)",
			dev->name);
		ism_vfio_container_close(dev);
		return -EIO;
	}
	dev->vfio_dev_fd = fd;
	ret = ism_vfio_container_map(dev);
	if (ret != 0)
		goto fail;
	if (!(info.flags & VFIO_DEVICE_FLAGS_PCI) ||
			info.num_regions <= VFIO_PCI_CONFIG_REGION_INDEX) {
		ISM_BUS_LOG(ERR, "%s: vfio does not present it as a PCI function",
			dev->name);
		ret = -ENODEV;
		goto fail;
	}
	ret = ism_vfio_map_bars(dev);
	if (ret == 0)
		ism_vfio_read_zpci(dev);
	if (ret == 0)
		ret = ism_vfio_intr_setup(dev);
	/* The primary owns the device state; a secondary only maps it. */
	if (ret == 0 && rte_eal_process_type() == RTE_PROC_PRIMARY)
		ret = ism_vfio_bus_master(dev, true);
	if (ret != 0)
		goto fail;
	for (i = 0; i < RTE_ISM_BUS_NB_BARS; i++)
		if (dev->regions[i].size != 0)
			ISM_BUS_LOG(DEBUG, "%s: BAR%u: 0x%" PRIx64
				" bytes at region offset 0x%" PRIx64 ", %s",
				dev->name, i, dev->regions[i].size,
				dev->regions[i].offset,
				dev->regions[i].addr != NULL ? "mapped" :
				"region read/write");
	return 0;
fail:
	ism_vfio_release(dev);
	return ret;
}

void
ism_vfio_release(struct rte_ism_bus_device *dev)
{
	struct rte_ism_bus_region *r;
	unsigned int i;

	if (dev->vfio_dev_fd < 0)
		return;
	/* Stop the device's DMA before the memory it targets goes away. */
	if (rte_eal_process_type() == RTE_PROC_PRIMARY)
		ism_vfio_bus_master(dev, false);
	/* The driver has unregistered its callbacks; closing the device
	 * fd below turns the vectors off in the kernel.
	 */
	ism_vfio_intr_free(dev);
	for (i = 0; i < RTE_ISM_BUS_NB_BARS; i++) {
		r = &dev->regions[i];
		if (r->addr != NULL)
			munmap(r->addr, r->size);
		memset(r, 0, sizeof(*r));
	}
	memset(&dev->zpci_info, 0, sizeof(dev->zpci_info));
	if (rte_vfio_release_device(ism_sysfs_root(), dev->name,
			dev->vfio_dev_fd) != 0)
		ISM_BUS_LOG(WARNING, "%s: vfio release failed", dev->name);
	dev->vfio_dev_fd = -1;
	ism_vfio_container_close(dev);
}
