/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * vdev "ism_pcimodel" (tests only): one function of the ISM PCI DEVICE
 * MODEL with the real PCI backend on top, so that every suite that runs on
 * a software backend runs on the PCI backend code too:
 *   --vdev=ism_pcimodel0,gid=0x...,chid=...,max_dmbs=...,max_dmb_len=...
 */

#include <inttypes.h>

#include <rte_random.h>
#include <bus_vdev_driver.h>

#include "ism_pmd.h"
#include "ism_pci.h"
#include "ism_pci_model_priv.h"

#define MODEL_DRIVER_NAME "ism_pcimodel"

static const char *const model_valid_args[] = {
	"gid", "chid", "max_dmbs", "max_dmb_len", NULL
};

static int
model_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct ism_common_args a = { .chid = 0 };
	struct ism_pci_config cfg = { .driver_name = MODEL_DRIVER_NAME };
	struct ism_pci_platform p = {
		.io.ops = &ism_pci_model_io_ops,
		.irq_enable = ism_pci_model_irq_enable,
		.irq_disable = ism_pci_model_irq_disable,
	};
	struct ism_pci_model_fn *fn;
	struct rte_kvargs *kv;
	bool random_gid;
	int ret;

	kv = ism_kvargs_parse(name, rte_vdev_device_args(vdev),
			model_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(name, kv, &a);
	rte_kvargs_free(kv);
	if (ret < 0)
		return ret;
	if (a.gid.gid_ext != 0) {
		MODEL_LOG(ERR, "%s: devarg gid: ISM PCI GIDs have 64 bits "
			  "(use 0x<up to 16 hex digits>)", name);
		return -EINVAL;
	}
	random_gid = a.gid.gid == 0;
	do {
		while (random_gid && a.gid.gid == 0)
			a.gid.gid = rte_rand();
		ret = ism_pci_model_fn_create(name, a.gid.gid, a.chid, &fn);
		a.gid.gid = 0;
	} while (random_gid && ret == -EEXIST);
	if (ret < 0)
		return ret;

	p.io.ctx = fn;
	p.chid = a.chid;
	cfg.max_dmbs = a.max_dmbs;
	cfg.max_dmb_len = a.max_dmb_len;
	ret = ism_pci_dev_create(name, &vdev->device, rte_socket_id(), &p,
			&cfg);
	if (ret < 0)
		ism_pci_model_fn_destroy(fn);
	return ret;
}

static int
model_remove(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct ism_pci_model_fn *fn = ism_pci_model_fn_find(name);
	int ret = ism_pci_dev_destroy(name);

	/* The backend has let go of the function (UNREG_IEQ, UNREG_SBA). */
	ism_pci_model_fn_destroy(fn);
	return ret;
}

static struct rte_vdev_driver ism_pcimodel_driver = {
	.probe = model_probe,
	.remove = model_remove,
};

RTE_PMD_REGISTER_VDEV(ism_pcimodel, ism_pcimodel_driver);
RTE_PMD_REGISTER_PARAM_STRING(ism_pcimodel,
	"gid=<0x up to 16 hex digits> chid=<0..65535> max_dmbs=<1..1888> "
	"max_dmb_len=<1..1048576>");
