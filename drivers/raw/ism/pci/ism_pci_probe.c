/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Glue between the ism bus and the PCI backend: a function the bus set up
 * through vfio-pci becomes an ISM device named after its PCI address.
 * Register access goes through rte_ism_bus_region_read/_write; the one MSI
 * of the function is an eventfd handled on the EAL interrupt thread.
 *
 * Not exercised against hardware (see doc/guides/rawdevs/ism_pci.rst): the
 * tests drive the same backend code through the device model instead.
 */

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/vfio.h>

#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_interrupts.h>

#include "bus_ism_driver.h"
#include "ism_pmd.h"
#include "ism_pci.h"
#include "ism_pci_hw.h"

#define PCI_DRIVER_NAME "ism_pci"

/* Per probed function: what the platform callbacks need. */
struct pci_glue {
	struct rte_ism_bus_device *bdev;
	struct rte_intr_handle *intr;
	int efd;
	void (*handler)(void *arg);
	void *arg;
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

static void
glue_irq_cb(void *arg)
{
	struct pci_glue *g = arg;

	/* EAL has read the eventfd counter (VFIO_MSI handle type). */
	g->handler(g->arg);
}

/* Route the function's MSI (vector 0) to an eventfd, or turn it off. */
static int
msi_set(struct pci_glue *g, bool on)
{
	char buf[sizeof(struct vfio_irq_set) + sizeof(int)];
	struct vfio_irq_set *set = (struct vfio_irq_set *)buf;

	memset(buf, 0, sizeof(buf));
	set->argsz = sizeof(buf);
	set->flags = VFIO_IRQ_SET_ACTION_TRIGGER | (on ?
		VFIO_IRQ_SET_DATA_EVENTFD : VFIO_IRQ_SET_DATA_NONE);
	set->index = VFIO_PCI_MSI_IRQ_INDEX;
	set->start = 0;
	set->count = on ? 1 : 0;
	if (on)
		memcpy(set->data, &g->efd, sizeof(int));
	return ioctl(g->bdev->vfio_dev_fd, VFIO_DEVICE_SET_IRQS, set) < 0 ?
		-errno : 0;
}

static void
glue_irq_free(struct pci_glue *g)
{
	rte_intr_instance_free(g->intr);
	g->intr = NULL;
	if (g->efd >= 0)
		close(g->efd);
	g->efd = -1;
}

static int
glue_irq_enable(void *ctx, void (*handler)(void *arg), void *arg)
{
	struct pci_glue *g = ctx;
	int ret;

	g->handler = handler;
	g->arg = arg;
	g->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	/* Saved now: the allocation below may overwrite errno. */
	ret = g->efd < 0 ? -errno : 0;
	g->intr = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (g->efd < 0 || g->intr == NULL) {
		if (ret == 0)
			ret = -ENOMEM;
		goto err;
	}
	if (rte_intr_fd_set(g->intr, g->efd) != 0 ||
	    rte_intr_type_set(g->intr, RTE_INTR_HANDLE_VFIO_MSI) != 0) {
		ret = -EINVAL;
		goto err;
	}
	ret = msi_set(g, true);
	if (ret < 0)
		goto err;
	ret = rte_intr_callback_register(g->intr, glue_irq_cb, g);
	if (ret < 0) {
		msi_set(g, false);
		goto err;
	}
	return 0;
err:
	glue_irq_free(g);
	return ret;
}

static void
glue_irq_disable(void *ctx)
{
	struct pci_glue *g = ctx;

	msi_set(g, false);
	/* Waits for a handler that is running. */
	rte_intr_callback_unregister_sync(g->intr, glue_irq_cb, g);
	glue_irq_free(g);
}

static const char *const pci_valid_args[] = {
	"max_dmbs", "max_dmb_len", NULL
};

static int
pci_probe(struct rte_ism_bus_driver *drv __rte_unused,
		struct rte_ism_bus_device *bdev)
{
	struct ism_common_args a = { .max_dmbs = 0 };
	struct ism_pci_config cfg = { .driver_name = PCI_DRIVER_NAME };
	struct ism_pci_platform p = {
		.io.ops = &glue_io_ops,
		.capa = RTE_ISM_CAPA_CROSS_PROCESS,
		.irq_enable = glue_irq_enable,
		.irq_disable = glue_irq_disable,
	};
	struct rte_devargs *da = bdev->device.devargs;
	struct rte_kvargs *kv;
	struct pci_glue *g;
	int ret;

	if (bdev->vendor_id != ISM_PCI_VENDOR_IBM ||
	    bdev->device_id != ISM_PCI_DEVICE_ISM)
		return 1;
	/*
	 * Bring-up reroutes the function's MSI to an eventfd of this process
	 * and registers an SBA and IEQ in its memory: in a secondary that
	 * would take the device away from the primary.
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ISM_PMD_LOG(ERR, "%s: the PCI backend runs in the primary "
			    "process only", bdev->name);
		return -ENOTSUP;
	}
	if (bdev->vfio_dev_fd < 0) {
		ISM_PMD_LOG(ERR, "%s: not set up through vfio-pci", bdev->name);
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
	g->efd = -1;
	p.io.ctx = g;
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
	ret = ism_pci_dev_destroy(bdev->name);
	free(g);
	return ret;
}

static struct rte_ism_bus_driver ism_pci_driver = {
	.probe = pci_probe,
	.remove = pci_remove,
	.drv_flags = ISM_BUS_DRV_NEED_VFIO,
};

RTE_PMD_REGISTER_ISM(ism_pci, ism_pci_driver);
RTE_PMD_REGISTER_KMOD_DEP(ism_pci, "vfio-pci");
RTE_PMD_REGISTER_PARAM_STRING(ism_pci,
	"max_dmbs=<1..1888> max_dmb_len=<1..1048576>");
