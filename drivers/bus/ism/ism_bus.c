/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The ism bus: which names are ours (-a/-b), probe and remove, hotplug,
 * DMA mapping and cleanup. The sysfs scan is in ism_sysfs.c, the vfio
 * set-up in ism_vfio.c.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_vfio.h>

#include <eal_export.h>

#include "private.h"

int
ism_bus_addr_parse(const char *name, struct rte_pci_addr *addr)
{
	char buf[PCI_PRI_STR_SIZE];
	size_t len;

	if (strncmp(name, ISM_BUS_NAME_PREFIX,
			strlen(ISM_BUS_NAME_PREFIX)) == 0)
		name += strlen(ISM_BUS_NAME_PREFIX);
	len = strcspn(name, ",");
	if (len == 0 || len >= sizeof(buf))
		return -1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	return rte_pci_addr_parse(buf, addr) == 0 ? 0 : -1;
}

/*
 * EAL gives -a/-b names to the first registered bus whose parse() accepts
 * them. A plain PCI address is ours only if sysfs says it is an ISM
 * function: every other address belongs to the pci bus. "ism:<address>" is
 * always ours (EAL passes it whole when the pci bus registered first).
 */
static int
ism_bus_parse(const char *name, void *addr)
{
	struct rte_pci_addr pa;

	if (name == NULL || ism_bus_addr_parse(name, &pa) != 0)
		return 1;
	if (strncmp(name, ISM_BUS_NAME_PREFIX,
			strlen(ISM_BUS_NAME_PREFIX)) != 0 &&
			!ism_sysfs_is_ism(&pa))
		return 1;
	if (addr != NULL)
		*(struct rte_pci_addr *)addr = pa;
	return 0;
}

/*
 * The layered form: -a bus=ism,addr=<PCI address>[,fabric=ivshmem]. The
 * bus layer takes no other key: fabric= is the bus's own choice (which
 * functions it takes), but EAL gives the driver only the driver layer
 * (after "/driver="), so a device argument here would be dropped without
 * a word. It is refused instead, with the form that passes it.
 */
static int
ism_bus_devargs_parse(struct rte_devargs *da)
{
	struct rte_pci_addr pa;
	struct rte_kvargs *kv;
	const char *s;
	unsigned int i;
	int ret = 0;

	if (da == NULL || da->bus_str == NULL)
		return 0;
	kv = rte_kvargs_parse(da->bus_str, NULL);
	if (kv == NULL) {
		ISM_BUS_LOG(ERR, "cannot parse \"%s\"", da->bus_str);
		return -EINVAL;
	}
	for (i = 0; i < kv->count; i++) {
		if (strcmp(kv->pairs[i].key, "bus") == 0 ||
		    strcmp(kv->pairs[i].key, "addr") == 0 ||
		    strcmp(kv->pairs[i].key, RTE_ISM_BUS_FABRIC_KEY) == 0)
			continue;
		ISM_BUS_LOG(ERR, "\"%s\": the bus layer takes addr= and "
			    RTE_ISM_BUS_FABRIC_KEY "= only, not "
			    "\"%s\"; give device arguments as "
			    "ism:<PCI address>,%s=...", da->bus_str,
			    kv->pairs[i].key, kv->pairs[i].key);
		rte_kvargs_free(kv);
		return -EINVAL;
	}
	/* No addr: "bus=ism" alone, as in an iterator filter. */
	s = rte_kvargs_get(kv, "addr");
	if (s != NULL) {
		if (rte_pci_addr_parse(s, &pa) == 0) {
			rte_pci_device_name(&pa, da->name, sizeof(da->name));
		} else {
			ISM_BUS_LOG(ERR, "\"%s\": addr is not a PCI address",
				da->bus_str);
			ret = -EINVAL;
		}
	}
	rte_kvargs_free(kv);
	return ret;
}

struct rte_devargs *
ism_bus_devargs_lookup(const struct rte_pci_addr *addr)
{
	struct rte_devargs *da;
	struct rte_pci_addr pa;

	RTE_EAL_DEVARGS_FOREACH(ism_bus.bus.name, da) {
		if (ism_bus_addr_parse(da->name, &pa) == 0 &&
				rte_pci_addr_cmp(&pa, addr) == 0)
			return da;
	}
	return NULL;
}

bool
ism_bus_ignored(const struct rte_pci_addr *addr)
{
	struct rte_devargs *da = ism_bus_devargs_lookup(addr);

	if (ism_bus.bus.conf.scan_mode == RTE_BUS_SCAN_ALLOWLIST)
		return da == NULL || da->policy != RTE_DEV_ALLOWED;
	return da != NULL && da->policy == RTE_DEV_BLOCKED;
}

/*
 * The value of key "fabric" in the devargs of a function (the legacy form
 * ism:<address>,fabric=..., or the layered bus=ism,addr=...,fabric=...)
 * into val; false if there is none.
 */
bool
ism_bus_devargs_fabric(const struct rte_devargs *da, char *val, size_t size)
{
	const char *strs[2] = { da->bus_str != NULL ? NULL : da->args,
		da->bus_str };
	struct rte_kvargs *kv;
	const char *v;
	unsigned int i;
	bool found = false;

	for (i = 0; i < RTE_DIM(strs) && !found; i++) {
		if (strs[i] == NULL)
			continue;
		kv = rte_kvargs_parse(strs[i], NULL);
		v = kv != NULL ? rte_kvargs_get(kv, RTE_ISM_BUS_FABRIC_KEY) : NULL;
		if (v != NULL) {
			snprintf(val, size, "%s", v);
			found = true;
		}
		rte_kvargs_free(kv);
	}
	return found;
}

/* Whether drv takes dev (its id table; by default ISM functions only). */
static bool
ism_bus_drv_match(const struct rte_ism_bus_driver *drv,
		const struct rte_ism_bus_device *dev)
{
	const struct rte_ism_bus_id *id = drv->id_table;

	if (id == NULL)
		return dev->vendor_id == RTE_ISM_BUS_PCI_VENDOR_IBM &&
			dev->device_id == RTE_ISM_BUS_PCI_DEVICE_ISM;
	for (; id->vendor_id != 0; id++)
		if (id->vendor_id == dev->vendor_id &&
		    id->device_id == dev->device_id)
			return true;
	return false;
}

/* Whether a registered driver needs the vfio set-up. */
static bool
ism_bus_vfio_wanted(void)
{
	struct rte_ism_bus_driver *drv;

	FOREACH_DRIVER_ON_ISM_BUS(drv)
		if (drv->drv_flags & RTE_ISM_BUS_DRV_NEED_VFIO)
			return true;
	return false;
}

bool
ism_bus_kdrv_is_vfio(const struct rte_ism_bus_device *dev)
{
	return strcmp(dev->kdriver, ISM_BUS_KDRV_ISM_VFIO) == 0 ||
		strcmp(dev->kdriver, ISM_BUS_KDRV_VFIO) == 0;
}

/*
 * Say why dev is skipped and how to bind it. The commands are the sysfs
 * ones: dpdk-devbind.py lists devices by PCI class and may not know an
 * ISM function. Variant drivers such as ism_vfio_pci bind only through
 * driver_override.
 */
static void
ism_bus_log_binding(const struct rte_ism_bus_device *dev, const char *why,
		const char *want)
{
	const char *mod = strcmp(want, ISM_BUS_KDRV_ISM_VFIO) == 0 ?
		ISM_BUS_KMOD_ISM_VFIO : want;
	char unbind[PCI_PRI_STR_SIZE + 64] = "";

	if (dev->kdriver[0] != '\0')
		snprintf(unbind, sizeof(unbind),
			"echo %s > " ISM_BUS_SYSFS_DEFAULT "/%s/driver/unbind; ",
			dev->name, dev->name);
	ISM_BUS_LOG(NOTICE, "%s: %s; skipped. To use it: modprobe %s; echo %s > "
		ISM_BUS_SYSFS_DEFAULT "/%s/driver_override; %secho %s > /sys/bus/pci/drivers_probe",
		dev->name, why, mod, want, dev->name, unbind, dev->name);
}

/*
 * A driver that needs vfio gets functions bound to ism_vfio_pci, the only
 * driver that reaches ISM on IBM Z, and elsewhere also those bound to
 * plain vfio-pci (the stand-ins of tests; no ISM function exists outside
 * IBM Z). On IBM Z plain vfio-pci cannot do ISM I/O: its BAR writes are
 * not PCI store blocks and its region offsets (40 bits) cannot reach all
 * of BAR 0.
 */
static int
ism_bus_check_binding(const struct rte_ism_bus_device *dev)
{
	const char *want = dev->zpci ? ISM_BUS_KDRV_ISM_VFIO :
		ISM_BUS_KDRV_VFIO;
	char why[128];

	if (strcmp(dev->kdriver, ISM_BUS_KDRV_ISM_VFIO) == 0 ||
	    (!dev->zpci && strcmp(dev->kdriver, ISM_BUS_KDRV_VFIO) == 0))
		return 0;
	if (dev->kdriver[0] == '\0')
		snprintf(why, sizeof(why), "not bound to any kernel driver");
	else if (strcmp(dev->kdriver, ISM_BUS_KDRV_VFIO) == 0)
		snprintf(why, sizeof(why), "bound to vfio-pci, which cannot do ISM I/O on IBM Z (no PCI store blocks): it needs %s",
			want);
	else
		snprintf(why, sizeof(why), "bound to kernel driver %s, not %s",
			dev->kdriver, want);
	ism_bus_log_binding(dev, why, want);
	return 1;
}

/* 0 probed, 1 not for this driver (or not usable: skipped), <0 error. */
static int
ism_bus_probe_one(struct rte_ism_bus_driver *drv,
		struct rte_ism_bus_device *dev)
{
	bool vfio = (drv->drv_flags & RTE_ISM_BUS_DRV_NEED_VFIO) != 0;
	int ret;

	if (!ism_bus_drv_match(drv, dev))
		return 1;
	if (vfio) {
		ret = ism_bus_check_binding(dev);
		if (ret == 0)
			ret = ism_vfio_setup(dev);
		if (ret != 0)
			return ret;
	}
	ISM_BUS_LOG(INFO, "%s: probing with driver %s (NUMA node %d)",
		dev->name, drv->driver.name, dev->device.numa_node);
	dev->driver = drv;
	ret = drv->probe(drv, dev);
	if (ret != 0) {
		dev->driver = NULL;
		if (vfio)
			ism_vfio_release(dev);
		if (ret < 0)
			ISM_BUS_LOG(ERR, "%s: driver %s failed: %s", dev->name,
				drv->driver.name, strerror(-ret));
		return ret;
	}
	dev->device.driver = &drv->driver;
	return 0;
}

/* 0 probed, 1 no driver took it, <0 error. */
static int
ism_bus_probe_all_drivers(struct rte_ism_bus_device *dev)
{
	struct rte_ism_bus_driver *drv;
	int ret;

	if (rte_dev_is_probed(&dev->device))
		return -EEXIST;
	if (dev->device.devargs != NULL &&
			dev->device.devargs->policy == RTE_DEV_BLOCKED)
		return 1;
	FOREACH_DRIVER_ON_ISM_BUS(drv) {
		ret = ism_bus_probe_one(drv, dev);
		if (ret <= 0)
			return ret;
	}
	return 1;
}

static int
ism_bus_probe(void)
{
	struct rte_ism_bus_device *dev;
	unsigned int tried = 0, failed = 0;

	FOREACH_DEVICE_ON_ISM_BUS(dev) {
		if (rte_dev_is_probed(&dev->device))
			continue;
		tried++;
		if (ism_bus_probe_all_drivers(dev) < 0)
			failed++;
	}
	return tried > 0 && failed == tried ? -1 : 0;
}

/* Driver remove and vfio release; the device stays on the list. */
static int
ism_bus_detach(struct rte_ism_bus_device *dev)
{
	struct rte_ism_bus_driver *drv = dev->driver;
	int ret;

	if (drv != NULL && drv->remove != NULL) {
		ret = drv->remove(dev);
		if (ret < 0) {
			ISM_BUS_LOG(ERR, "%s: driver %s cannot remove it: %s",
				dev->name, drv->driver.name, strerror(-ret));
			return ret;
		}
	}
	dev->driver = NULL;
	dev->device.driver = NULL;
	ism_vfio_release(dev);
	return 0;
}

static int
ism_bus_plug(struct rte_device *d)
{
	return ism_bus_probe_all_drivers(ISM_DEV(d));
}

static int
ism_bus_unplug(struct rte_device *d)
{
	struct rte_ism_bus_device *dev = ISM_DEV(d);
	int ret;

	ret = ism_bus_detach(dev);
	if (ret != 0)
		return ret;
	TAILQ_REMOVE(&ism_bus.device_list, dev, next);
	rte_devargs_remove(d->devargs);
	free(dev);
	return 0;
}

static struct rte_device *
ism_bus_find_device(const struct rte_device *start, rte_dev_cmp_t cmp,
		const void *data)
{
	struct rte_ism_bus_device *dev;

	if (start != NULL)
		dev = TAILQ_NEXT(ISM_DEV_CONST(start), next);
	else
		dev = TAILQ_FIRST(&ism_bus.device_list);
	for (; dev != NULL; dev = TAILQ_NEXT(dev, next))
		if (cmp(&dev->device, data) == 0)
			return &dev->device;
	return NULL;
}

/* rte_eal_cleanup: every driver removes its device, then vfio lets go. */
static int
ism_bus_cleanup(void)
{
	struct rte_ism_bus_device *dev;
	int ret = 0;

	while ((dev = TAILQ_FIRST(&ism_bus.device_list)) != NULL) {
		if (ism_bus_detach(dev) != 0) {
			/* Free it anyway: the process is going away. */
			ret = -1;
			dev->driver = NULL;
			ism_vfio_release(dev);
		}
		TAILQ_REMOVE(&ism_bus.device_list, dev, next);
		free(dev);
	}
	return ret;
}

/* External memory (rte_extmem_*) for a device's DMA: the vfio container. */
static bool
ism_bus_dma_capable(const struct rte_ism_bus_device *dev, const char *op)
{
	if (dev->vfio_dev_fd < 0) {
		ISM_BUS_LOG(ERR, "%s: DMA %s: not set up through vfio",
			dev->name, op);
		rte_errno = ENOTSUP;
		return false;
	}
	/* With IOVA as VA the function's container is the primary's own
	 * (ism_vfio_dma.c), which a secondary cannot reach.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY &&
			rte_eal_iova_mode() == RTE_IOVA_VA) {
		ISM_BUS_LOG(ERR, "%s: DMA %s: in the primary process only",
			dev->name, op);
		rte_errno = ENOTSUP;
		return false;
	}
	return true;
}

static int
ism_bus_dma_map(struct rte_device *d, void *addr, uint64_t iova, size_t len)
{
	if (!ism_bus_dma_capable(ISM_DEV(d), "map"))
		return -1;
	return rte_vfio_container_dma_map(ism_vfio_container_of(ISM_DEV(d)),
		(uintptr_t)addr, iova, len);
}

static int
ism_bus_dma_unmap(struct rte_device *d, void *addr, uint64_t iova, size_t len)
{
	if (!ism_bus_dma_capable(ISM_DEV(d), "unmap"))
		return -1;
	return rte_vfio_container_dma_unmap(ism_vfio_container_of(ISM_DEV(d)),
		(uintptr_t)addr, iova, len);
}

/*
 * The ISM function reads and writes host memory by IOVA. Behind an IOMMU
 * any IOVA mode works; vfio without IOMMU (noiommu) needs physical
 * addresses.
 */
static enum rte_iova_mode
ism_bus_get_iommu_class(void)
{
	struct rte_ism_bus_device *dev;

	if (!ism_bus_vfio_wanted())
		return RTE_IOVA_DC;
	FOREACH_DEVICE_ON_ISM_BUS(dev) {
		if (!ism_bus_kdrv_is_vfio(dev))
			continue;
		if (rte_vfio_noiommu_is_enabled() == 1) {
			ISM_BUS_LOG(INFO, "vfio in no-IOMMU mode: ISM functions need IOVA as PA");
			return RTE_IOVA_PA;
		}
		break;
	}
	return RTE_IOVA_DC;
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_bus_register)
void
rte_ism_bus_register(struct rte_ism_bus_driver *drv)
{
	if (drv == NULL || drv->probe == NULL) {
		ISM_BUS_LOG(ERR, "register: driver %s without a probe function",
			drv == NULL ? "(NULL)" : drv->driver.name);
		return;
	}
	TAILQ_INSERT_TAIL(&ism_bus.driver_list, drv, next);
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_bus_unregister)
void
rte_ism_bus_unregister(struct rte_ism_bus_driver *drv)
{
	struct rte_ism_bus_driver *d;

	FOREACH_DRIVER_ON_ISM_BUS(d) {
		if (d == drv) {
			TAILQ_REMOVE(&ism_bus.driver_list, drv, next);
			return;
		}
	}
	ISM_BUS_LOG(ERR, "unregister: driver %s is not registered",
		drv == NULL ? "(NULL)" : drv->driver.name);
}

struct ism_bus ism_bus = {
	.bus = {
		.scan = ism_bus_scan,
		.probe = ism_bus_probe,
		.find_device = ism_bus_find_device,
		.plug = ism_bus_plug,
		.unplug = ism_bus_unplug,
		.parse = ism_bus_parse,
		.devargs_parse = ism_bus_devargs_parse,
		.dma_map = ism_bus_dma_map,
		.dma_unmap = ism_bus_dma_unmap,
		.get_iommu_class = ism_bus_get_iommu_class,
		.dev_iterate = ism_bus_dev_iterate,
		.cleanup = ism_bus_cleanup,
	},
	.device_list = TAILQ_HEAD_INITIALIZER(ism_bus.device_list),
	.driver_list = TAILQ_HEAD_INITIALIZER(ism_bus.driver_list),
};

RTE_REGISTER_BUS(ism, ism_bus.bus);
RTE_LOG_REGISTER_DEFAULT(ism_bus_logtype, INFO);
