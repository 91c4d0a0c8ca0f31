/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * vfio-pci set-up of an ISM function and access to its BARs. A BAR the
 * kernel lets us mmap is accessed through the mapping; otherwise (IBM Z,
 * where PCI memory is reached by special instructions the kernel issues)
 * through pread/pwrite on the vfio device fd at the region's offset.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <linux/pci_regs.h>
#include <linux/vfio.h>

#include <rte_byteorder.h>
#include <rte_common.h>
#include <rte_eal.h>
#include <rte_io.h>
#include <rte_vfio.h>

#include "private.h"

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

/* Whole-buffer pread/pwrite on the device fd. */
static int
ism_vfio_pio(int fd, void *buf, size_t len, uint64_t pos, bool write)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len > 0) {
		n = write ? pwrite(fd, p, len, pos) : pread(fd, p, len, pos);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= n;
		pos += n;
	}
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
				cfg.offset + PCI_COMMAND, false);
	if (ret == 0) {
		/* Config space is little-endian, also on s390x (big-endian). */
		cmd = rte_le_to_cpu_16(cmd);
		cmd = on ? cmd | PCI_COMMAND_MASTER : cmd & ~PCI_COMMAND_MASTER;
		cmd = rte_cpu_to_le_16(cmd);
		ret = ism_vfio_pio(dev->vfio_dev_fd, &cmd, sizeof(cmd),
				cfg.offset + PCI_COMMAND, true);
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

	for (i = 0; i < ISM_BUS_NB_BARS; i++) {
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

int
ism_vfio_setup(struct rte_ism_bus_device *dev)
{
	struct vfio_device_info info = { .argsz = sizeof(info) };
	unsigned int i;
	int fd, ret;

	/* Our reading of the group link is stricter than EAL's. */
	if (dev->iommu_group < 0) {
		ISM_BUS_LOG(NOTICE, "%s: bound to vfio-pci but in no IOMMU group (is the IOMMU on?); skipped",
			dev->name);
		return 1;
	}
	ret = rte_vfio_setup_device(ism_sysfs_root(), dev->name, &fd, &info);
	if (ret > 0) {
		ISM_BUS_LOG(NOTICE, "%s: bound to vfio-pci but not VFIO-managed (no /dev/vfio/%d); skipped",
			dev->name, dev->iommu_group);
		return 1;
	}
	if (ret < 0) {
		ISM_BUS_LOG(ERR, "%s: vfio set-up failed (see the EAL messages above)",
			dev->name);
		return -EIO;
	}
	dev->vfio_dev_fd = fd;
	if (!(info.flags & VFIO_DEVICE_FLAGS_PCI) ||
			info.num_regions <= VFIO_PCI_CONFIG_REGION_INDEX) {
		ISM_BUS_LOG(ERR, "%s: vfio does not present it as a PCI function",
			dev->name);
		ret = -ENODEV;
		goto fail;
	}
	ret = ism_vfio_map_bars(dev);
	/* The primary owns the device state; a secondary only maps it. */
	if (ret == 0 && rte_eal_process_type() == RTE_PROC_PRIMARY)
		ret = ism_vfio_bus_master(dev, true);
	if (ret != 0)
		goto fail;
	for (i = 0; i < ISM_BUS_NB_BARS; i++)
		if (dev->regions[i].size != 0)
			ISM_BUS_LOG(DEBUG, "%s: BAR%u: 0x%" PRIx64 " bytes, %s",
				dev->name, i, dev->regions[i].size,
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
	for (i = 0; i < ISM_BUS_NB_BARS; i++) {
		r = &dev->regions[i];
		if (r->addr != NULL)
			munmap(r->addr, r->size);
		memset(r, 0, sizeof(*r));
	}
	if (rte_vfio_release_device(ism_sysfs_root(), dev->name,
			dev->vfio_dev_fd) != 0)
		ISM_BUS_LOG(WARNING, "%s: vfio release failed", dev->name);
	dev->vfio_dev_fd = -1;
}

/* Check an access; the region, or NULL after logging why not. */
static const struct rte_ism_bus_region *
ism_region_check(const struct rte_ism_bus_device *dev, unsigned int bar,
		const void *buf, size_t len, uint64_t off, const char *op)
{
	const struct rte_ism_bus_region *r;

	if (dev == NULL || (buf == NULL && len != 0)) {
		ISM_BUS_LOG(ERR, "region %s: NULL %s", op,
			dev == NULL ? "device" : "buffer");
		return NULL;
	}
	if (bar >= ISM_BUS_NB_BARS || dev->regions[bar].size == 0) {
		ISM_BUS_LOG(ERR, "%s: region %s: no BAR%u (is it set up through vfio?)",
			dev->name, op, bar);
		return NULL;
	}
	r = &dev->regions[bar];
	if (off > r->size || len > r->size - off) {
		ISM_BUS_LOG(ERR, "%s: region %s: %zu bytes at 0x%" PRIx64 " exceed BAR%u (0x%" PRIx64 " bytes)",
			dev->name, op, len, off, bar, r->size);
		return NULL;
	}
	return r;
}

/* The widest naturally aligned access (8, 4, 2 or 1 bytes) that fits. */
static size_t
mmio_width(uintptr_t addr, size_t len)
{
	size_t w;

	for (w = 8; w > 1; w /= 2)
		if (len >= w && (addr & (w - 1)) == 0)
			break;
	return w;
}

/* A register (1, 2, 4, 8 aligned bytes) is read in one access. */
static void
mmio_read(const volatile uint8_t *src, uint8_t *dst, size_t len)
{
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	size_t w;

	for (; len > 0; src += w, dst += w, len -= w) {
		w = mmio_width((uintptr_t)src, len);
		switch (w) {
		case 8:
			v64 = rte_read64_relaxed(src);
			memcpy(dst, &v64, w);
			break;
		case 4:
			v32 = rte_read32_relaxed(src);
			memcpy(dst, &v32, w);
			break;
		case 2:
			v16 = rte_read16_relaxed(src);
			memcpy(dst, &v16, w);
			break;
		default:
			*dst = rte_read8_relaxed(src);
		}
	}
	rte_io_rmb();
}

static void
mmio_write(volatile uint8_t *dst, const uint8_t *src, size_t len)
{
	uint64_t v64;
	uint32_t v32;
	uint16_t v16;
	size_t w;

	/* Earlier stores to host memory first: the device may read them. */
	rte_io_wmb();
	for (; len > 0; src += w, dst += w, len -= w) {
		w = mmio_width((uintptr_t)dst, len);
		switch (w) {
		case 8:
			memcpy(&v64, src, w);
			rte_write64_relaxed(v64, dst);
			break;
		case 4:
			memcpy(&v32, src, w);
			rte_write32_relaxed(v32, dst);
			break;
		case 2:
			memcpy(&v16, src, w);
			rte_write16_relaxed(v16, dst);
			break;
		default:
			rte_write8_relaxed(*src, dst);
		}
	}
	rte_io_wmb();
}

static int
ism_region_access(struct rte_ism_bus_device *dev, unsigned int bar,
		void *buf, size_t len, uint64_t off, bool write)
{
	const char *op = write ? "write" : "read";
	const struct rte_ism_bus_region *r;
	int ret;

	r = ism_region_check(dev, bar, buf, len, off, op);
	if (r == NULL)
		return -EINVAL;
	if (r->addr != NULL) {
		if (write)
			mmio_write(RTE_PTR_ADD(r->addr, off), buf, len);
		else
			mmio_read(RTE_PTR_ADD(r->addr, off), buf, len);
		return 0;
	}
	ret = ism_vfio_pio(dev->vfio_dev_fd, buf, len, r->offset + off, write);
	if (ret != 0)
		ISM_BUS_LOG(ERR, "%s: BAR%u: %s of %zu bytes at 0x%" PRIx64 " failed: %s",
			dev->name, bar, op, len, off, strerror(-ret));
	return ret;
}

int
rte_ism_bus_region_read(struct rte_ism_bus_device *dev, unsigned int bar,
		void *buf, size_t len, uint64_t off)
{
	return ism_region_access(dev, bar, buf, len, off, false);
}

int
rte_ism_bus_region_write(struct rte_ism_bus_device *dev, unsigned int bar,
		const void *buf, size_t len, uint64_t off)
{
	/* Not written to: ism_region_access only reads buf for a write. */
	return ism_region_access(dev, bar, (void *)(uintptr_t)buf, len, off,
		true);
}
