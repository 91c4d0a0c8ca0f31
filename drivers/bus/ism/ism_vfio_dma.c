/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The vfio container of an ISM function: one of its own, with EAL's
 * memory mapped into it after the function's group joined it.
 *
 * Why not EAL's default container: its memory is mapped when the first
 * group joins it; a later group is attached to the same IOMMU domain,
 * whose entries are already valid. On zPCI the kernel does not refresh a
 * function's translations when it attaches it to a domain that has
 * mappings (s390_iommu_attach_device() in Linux's
 * drivers/iommu/s390-iommu.c registers the table, no RPCIT), so a
 * function whose hypervisor shadows the translations (the zPCI "refresh
 * required" flag; QEMU's s390 PCI bridge) has none of them: the second
 * ISM function of a process could not write its SBA. A mapping made
 * while the function is attached is refreshed for it (iotlb_sync_map).
 *
 * Only the primary process with IOVA as VA does this: a secondary uses
 * the primary's container through the group (and cannot map into it:
 * rte_dev_dma_map() of a function is the primary's), and IOVA as PA
 * means vfio without an IOMMU (nothing to map). Each mapping is one of
 * EAL's user mappings of the container, of which EAL keeps a fixed
 * number (EAL_VFIO_MAX_USER_MEM_MAPS, 256, in DPDK 25.11's
 * eal_vfio.c): memory that grows in many small steps can run out of
 * them, which the log says.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_eal.h>
#include <rte_eal_memconfig.h>
#include <rte_errno.h>
#include <rte_memory.h>
#include <rte_vfio.h>

#include "private.h"

int
ism_vfio_container_of(const struct rte_ism_bus_device *dev)
{
	return dev->vfio_container_fd >= 0 ? dev->vfio_container_fd :
		RTE_VFIO_DEFAULT_CONTAINER_FD;
}

void
ism_vfio_container_open(struct rte_ism_bus_device *dev)
{
	int fd;

	dev->vfio_container_fd = -1;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY ||
			rte_eal_iova_mode() != RTE_IOVA_VA)
		return;
	/* Without vfio, or its group (no /dev/vfio/<group>), EAL's
	 * container is left to rte_vfio_setup_device(), which says why.
	 */
	fd = rte_vfio_container_create();
	if (fd < 0) {
		ISM_BUS_LOG(DEBUG, "%s: no vfio container of its own",
			dev->name);
		return;
	}
	if (rte_vfio_container_group_bind(fd, dev->iommu_group) < 0) {
		ISM_BUS_LOG(DEBUG, "%s: IOMMU group %d not in a container of its own",
			dev->name, dev->iommu_group);
		rte_vfio_container_destroy(fd);
		return;
	}
	dev->vfio_container_fd = fd;
}

static void
dma_event_name(const struct rte_ism_bus_device *dev, char *name, size_t size)
{
	snprintf(name, size, "ism_bus_%s", dev->name);
}

static int
dma_map_contig(const struct rte_memseg_list *msl, const struct rte_memseg *ms,
		size_t len, void *arg)
{
	const struct rte_ism_bus_device *dev = arg;

	/* External memory is mapped by its owner (rte_dev_dma_map). */
	if (msl->external)
		return 0;
	if (rte_vfio_container_dma_map(dev->vfio_container_fd, ms->addr_64,
			ms->iova, len) != 0) {
		ISM_BUS_LOG(ERR, "%s: cannot map 0x%zx bytes at 0x%" PRIx64 " for DMA",
			dev->name, len, ms->iova);
		return -1;
	}
	return 0;
}

static void
dma_mem_event(enum rte_mem_event type, const void *addr, size_t len,
		void *arg)
{
	const struct rte_ism_bus_device *dev = arg;
	const struct rte_memseg_list *msl = rte_mem_virt2memseg_list(addr);
	uint64_t va = (uintptr_t)addr;
	int ret;

	if (msl == NULL || msl->external)
		return;
	/* IOVA as VA: the range is one mapping. */
	if (type == RTE_MEM_EVENT_ALLOC)
		ret = rte_vfio_container_dma_map(dev->vfio_container_fd, va,
			va, len);
	else
		ret = rte_vfio_container_dma_unmap(dev->vfio_container_fd, va,
			va, len);
	if (ret != 0)
		ISM_BUS_LOG(ERR, "%s: cannot %s 0x%zx bytes at 0x%" PRIx64 " for DMA",
			dev->name, type == RTE_MEM_EVENT_ALLOC ? "map" : "unmap",
			len, va);
}

int
ism_vfio_container_map(struct rte_ism_bus_device *dev)
{
	char name[RTE_DEV_NAME_MAX_LEN + 16];
	int ret;

	if (dev->vfio_container_fd < 0)
		return 0;
	dma_event_name(dev, name, sizeof(name));
	/* No memory comes or goes between the walk and the callback. */
	rte_mcfg_mem_read_lock();
	ret = rte_memseg_contig_walk_thread_unsafe(dma_map_contig, dev);
	if (ret == 0 && rte_mem_event_callback_register(name, dma_mem_event,
			dev) != 0 && rte_errno != ENOTSUP) {
		ISM_BUS_LOG(ERR, "%s: cannot follow EAL's memory for DMA: %s",
			dev->name, rte_strerror(rte_errno));
		ret = -1;
	}
	rte_mcfg_mem_read_unlock();
	return ret == 0 ? 0 : -EIO;
}

void
ism_vfio_container_close(struct rte_ism_bus_device *dev)
{
	char name[RTE_DEV_NAME_MAX_LEN + 16];

	if (dev->vfio_container_fd < 0)
		return;
	dma_event_name(dev, name, sizeof(name));
	rte_mem_event_callback_unregister(name, dev);
	/* Unbinds the group and closes the container with its mappings. */
	if (rte_vfio_container_destroy(dev->vfio_container_fd) != 0)
		ISM_BUS_LOG(WARNING, "%s: vfio container release failed",
			dev->name);
	dev->vfio_container_fd = -1;
}
