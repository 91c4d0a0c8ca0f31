/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Access to the BARs of a function the bus set up through vfio. A BAR the
 * kernel lets us mmap is accessed through the mapping; otherwise (IBM Z,
 * where ism_vfio_pci turns each write into one PCI store block and each
 * read into 8/4/2/1-byte PCI loads) through pread/pwrite on the vfio
 * device fd at the region's offset.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_io.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "private.h"

/*
 * A failing access is logged at most once a second, with the number of
 * those not logged: a peer that unregisters a DMB, or hands out a token
 * the device never issued, makes every move to it fail, as often as the
 * sender tries.
 */
static RTE_ATOMIC(uint64_t) io_log_next;	/* TSC of the next allowed line */
static RTE_ATOMIC(uint64_t) io_log_dropped;

static void
io_log_failure(const struct rte_ism_bus_device *dev, unsigned int bar,
		const char *op, size_t len, uint64_t off, const char *why)
{
	uint64_t now = rte_get_timer_cycles();
	uint64_t next = rte_atomic_load_explicit(&io_log_next, rte_memory_order_relaxed);
	uint64_t dropped;

	if (now < next || !rte_atomic_compare_exchange_strong_explicit(&io_log_next, &next,
			now + rte_get_timer_hz(), rte_memory_order_relaxed,
			rte_memory_order_relaxed)) {
		rte_atomic_fetch_add_explicit(&io_log_dropped, 1, rte_memory_order_relaxed);
		return;
	}
	dropped = rte_atomic_exchange_explicit(&io_log_dropped, 0, rte_memory_order_relaxed);
	ISM_BUS_LOG(ERR, "%s: BAR%u: %s of %zu bytes at 0x%" PRIx64 " failed: %s (%" PRIu64 " earlier failures not logged)",
		dev->name, bar, op, len, off, why, dropped);
}

int
ism_vfio_pio(int fd, void *buf, size_t len, uint64_t pos, bool write)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len > 0) {
		/* own-fd: this process's VFIO device file, never passed. */
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

/*
 * A BAR write is one pwrite(): on ism_vfio_pci that is one PCI store
 * block, and a second call for the rest would be a second store block the
 * caller did not ask for. A short write is an error.
 */
static int
pio_write_once(int fd, const void *buf, size_t len, uint64_t pos)
{
	ssize_t n;

	do {
		/* own-fd: this process's VFIO device file, never passed. */
		n = pwrite(fd, buf, len, pos);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
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
	if (bar >= RTE_ISM_BUS_NB_BARS || dev->regions[bar].size == 0) {
		ISM_BUS_LOG(ERR, "%s: region %s: no BAR%u (is it set up through vfio?)",
			dev->name, op, bar);
		return NULL;
	}
	r = &dev->regions[bar];
	/*
	 * Also what keeps an offset inside its region: vfio-pci puts region
	 * i at i << 40 (ism_vfio_pci at i << 48), so an offset past the BAR
	 * would reach the next region.
	 */
	if (off > r->size || len > r->size - off) {
		io_log_failure(dev, bar, op, len, off, "beyond the end of the BAR");
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
	if (len == 0)
		return 0;
	if (write)
		ret = pio_write_once(dev->vfio_dev_fd, buf, len,
				r->offset + off);
	else
		ret = ism_vfio_pio(dev->vfio_dev_fd, buf, len,
				r->offset + off, false);
	if (ret != 0)
		io_log_failure(dev, bar, op, len, off, strerror(-ret));
	return ret;
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_bus_region_read)
int
rte_ism_bus_region_read(struct rte_ism_bus_device *dev, unsigned int bar,
		void *buf, size_t len, uint64_t off)
{
	return ism_region_access(dev, bar, buf, len, off, false);
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_bus_region_write)
int
rte_ism_bus_region_write(struct rte_ism_bus_device *dev, unsigned int bar,
		const void *buf, size_t len, uint64_t off)
{
	/* Not written to: ism_region_access only reads buf for a write. */
	return ism_region_access(dev, bar, (void *)(uintptr_t)buf, len, off,
		true);
}
