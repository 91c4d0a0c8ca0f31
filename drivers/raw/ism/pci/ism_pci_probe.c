/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Glue between the ism bus and the PCI backend: a function the bus set up
 * through vfio becomes an ISM device named after its PCI address. The bus
 * owns everything vfio: register access goes through
 * rte_ism_bus_region_read/_write, the one MSI is the bus's interrupt
 * handle, and the zPCI capabilities it read give the function type, the
 * DMA window and the largest store block.
 *
 * Not exercised against hardware (see doc/guides/rawdevs/ism_pci.rst): the
 * tests drive the same backend code through the device model instead.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <rte_devargs.h>
#include <rte_eal.h>

#include "bus_ism_driver.h"
#include "ism_pmd.h"
#include "ism_pci.h"
#include "ism_pci_hw.h"

#define PCI_DRIVER_NAME "ism_pci"

/* Per probed function: what the platform callbacks need. */
struct pci_glue {
	struct rte_ism_bus_device *bdev;
	struct ism_pci_dma_window window;	/* zPCI DMA window */
	struct pci_glue *next;
};

static pthread_mutex_t glue_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pci_glue *glue_list;

static int
glue_read(void *ctx, unsigned int bar, uint64_t off, void *buf, size_t len)
{
	struct pci_glue *g = ctx;

	return rte_ism_bus_region_read(g->bdev, bar, buf, len, off);
}

static int
glue_write(void *ctx, unsigned int bar, uint64_t off, const void *buf,
		size_t len)
{
	struct pci_glue *g = ctx;

	return rte_ism_bus_region_write(g->bdev, bar, buf, len, off);
}

static const struct ism_pci_io_ops glue_io_ops = {
	.read = glue_read,
	.write = glue_write,
};

static const char *const pci_valid_args[] = {
	"max_dmbs", "max_dmb_len", NULL
};

/*
 * What vfio says of the function, where it says anything (IBM Z): it must
 * be an ISM function, and its limits go to the backend.
 */
static int
glue_zpci(const struct rte_ism_bus_device *bdev, struct pci_glue *g,
		struct ism_pci_platform *p)
{
	const struct rte_ism_bus_zpci *z = &bdev->zpci_info;

	if (z->base && z->pft != ISM_BUS_ZPCI_PFT_ISM) {
		ISM_PMD_LOG(ERR, "%s: zPCI function type 0x%02x, not ISM "
			    "(0x%02x)", bdev->name, z->pft,
			    ISM_BUS_ZPCI_PFT_ISM);
		return -ENODEV;
	}
	if (z->base) {
		g->window.start = z->start_dma;
		g->window.end = z->end_dma;
		p->dma_window = &g->window;
	}
	if (z->group && z->maxstbl != 0)
		p->maxstbl = RTE_MIN(z->maxstbl, ISM_PCI_STORE_MAX);
	return 0;
}

static int
pci_probe(struct rte_ism_bus_driver *drv __rte_unused,
		struct rte_ism_bus_device *bdev)
{
	struct ism_common_args a = { .max_dmbs = 0 };
	struct ism_pci_config cfg = { .driver_name = PCI_DRIVER_NAME };
	struct ism_pci_platform p = {
		.io.ops = &glue_io_ops,
		.capa = RTE_ISM_CAPA_CROSS_PROCESS,
	};
	struct rte_devargs *da = bdev->device.devargs;
	struct rte_kvargs *kv;
	struct pci_glue *g;
	int ret;

	if (bdev->vendor_id != ISM_BUS_PCI_VENDOR_IBM ||
	    bdev->device_id != ISM_BUS_PCI_DEVICE_ISM)
		return 1;
	/*
	 * Bring-up takes the function's interrupt for this process and
	 * registers an SBA and IEQ in its memory: in a secondary that would
	 * take the device away from the primary.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ISM_PMD_LOG(ERR, "%s: the PCI backend runs in the primary "
			    "process only", bdev->name);
		return -ENOTSUP;
	}
	if (bdev->regions[ISM_PCI_BAR_DATA].size == 0 ||
	    bdev->regions[ISM_PCI_BAR_CMD].size == 0) {
		ISM_PMD_LOG(ERR, "%s: no BAR %u and %u: not set up through "
			    "vfio, or not an ISM function", bdev->name,
			    ISM_PCI_BAR_DATA, ISM_PCI_BAR_CMD);
		return -ENODEV;
	}
	kv = ism_kvargs_parse(bdev->name, da != NULL ? da->args : NULL,
			pci_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(bdev->name, kv, &a);
	rte_kvargs_free(kv);
	if (ret < 0)
		return ret;
	cfg.max_dmbs = a.max_dmbs;
	cfg.max_dmb_len = a.max_dmb_len;

	g = calloc(1, sizeof(*g));
	if (g == NULL)
		return -ENOMEM;
	g->bdev = bdev;
	ret = glue_zpci(bdev, g, &p);
	if (ret < 0) {
		free(g);
		return ret;
	}
	p.io.ctx = g;
	p.intr = bdev->intr_handle;
	p.bar0_size = bdev->regions[ISM_PCI_BAR_DATA].size;
	/* The zPCI PCHID, read by the bus's scan; 0 off s390. */
	p.chid = bdev->pchid;
	ret = ism_pci_dev_create(bdev->name, &bdev->device,
			bdev->device.numa_node, &p, &cfg);
	if (ret < 0) {
		free(g);
		return ret;
	}
	pthread_mutex_lock(&glue_lock);
	g->next = glue_list;
	glue_list = g;
	pthread_mutex_unlock(&glue_lock);
	return 0;
}

static int
pci_remove(struct rte_ism_bus_device *bdev)
{
	struct pci_glue **pp, *g = NULL;
	int ret;

	pthread_mutex_lock(&glue_lock);
	for (pp = &glue_list; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->bdev == bdev) {
			g = *pp;
			*pp = g->next;
			break;
		}
	pthread_mutex_unlock(&glue_lock);
	if (g == NULL)
		return -ENODEV;
	/* Turns the interrupt off and unregisters from it. */
	ret = ism_pci_dev_destroy(bdev->name);
	free(g);
	return ret;
}

static struct rte_ism_bus_driver ism_pci_driver = {
	.probe = pci_probe,
	.remove = pci_remove,
	.drv_flags = ISM_BUS_DRV_NEED_VFIO,
};

/*
 * The functions the ism bus gives this driver (it matches them itself), as
 * a PCI id table for pmdinfogen: dpdk-pmdinfo.py lists 1014:04ed.
 */
static const struct rte_pci_id ism_pci_id_map[] __rte_used = {
	{
		.class_id = RTE_CLASS_ANY_ID,
		.vendor_id = ISM_BUS_PCI_VENDOR_IBM,
		.device_id = ISM_BUS_PCI_DEVICE_ISM,
		.subsystem_vendor_id = RTE_PCI_ANY_ID,
		.subsystem_device_id = RTE_PCI_ANY_ID,
	},
	{ .vendor_id = 0 },
};

RTE_PMD_REGISTER_ISM(ism_pci, ism_pci_driver);
RTE_PMD_REGISTER_PCI_TABLE(ism_pci, ism_pci_id_map);
RTE_PMD_REGISTER_KMOD_DEP(ism_pci, "ism_vfio_pci | vfio-pci");
RTE_PMD_REGISTER_PARAM_STRING(ism_pci,
	"max_dmbs=<1..1888> max_dmb_len=<1..1048576>");
