/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * vdev "ism_pcimodel" (tests only): one emulated ISM function (the device
 * core of tests/ism_device/core, in process) with the real PCI backend on
 * top, so that every suite that runs on a software backend runs on the
 * PCI backend code too:
 *   --vdev=ism_pcimodel0,gid=0x...,chid=...,max_dmbs=...,max_dmb_len=...,
 *          maxstbl=<32..4096>,bar0=<2^29..2^48>,quirks=<name>[+<name>...]
 * with the quirks no_s, mask0, qi_fail, qi_short and tok20
 * (ISM_MODEL_Q_*).
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <bus_vdev_driver.h>

#include "ism_pmd.h"
#include "ism_pci.h"
#include "ism_pci_model_priv.h"

#define MODEL_DRIVER_NAME "ism_pcimodel"

static const char *const model_valid_args[] = {
	"gid", "chid", "max_dmbs", "max_dmb_len", "maxstbl", "bar0", "quirks",
	NULL
};

static const struct {
	const char *name;
	uint32_t flag;
} model_quirks[] = {
	{ "no_s", ISM_MODEL_Q_NO_S },
	{ "mask0", ISM_MODEL_Q_MASK0 },
	{ "qi_fail", ISM_MODEL_Q_QI_FAIL },
	{ "qi_short", ISM_MODEL_Q_QI_SHORT },
	{ "tok20", ISM_MODEL_Q_TOK20 },
};

/* "name+name+...": every name known, none twice. */
static int
parse_quirks(const char *dev, const char *v, uint32_t *out)
{
	size_t len;
	unsigned int i;

	*out = 0;
	while (v != NULL && *v != '\0') {
		len = strcspn(v, "+");
		for (i = 0; i < RTE_DIM(model_quirks); i++)
			if (strlen(model_quirks[i].name) == len &&
			    strncmp(model_quirks[i].name, v, len) == 0)
				break;
		if (i == RTE_DIM(model_quirks) || (*out & model_quirks[i].flag)) {
			MODEL_LOG(ERR, "%s: devarg quirks: \"%.*s\" unknown or "
				  "given twice (no_s, mask0, qi_fail, qi_short, "
				  "tok20)", dev, (int)len, v);
			return -EINVAL;
		}
		*out |= model_quirks[i].flag;
		v += len + (v[len] == '+');
	}
	return 0;
}

static int
model_args_get(const char *name, struct rte_kvargs *kv,
		struct ism_pci_model_cfg *mc)
{
	const char *v;
	unsigned long n;
	char *end;

	v = rte_kvargs_get(kv, "maxstbl");
	if (v != NULL) {
		errno = 0;
		n = strtoul(v, &end, 0);
		if (errno != 0 || end == v || *end != '\0' || v[0] == '-' ||
		    n < MODEL_STORE_MIN || n > MODEL_STORE_MAX) {
			MODEL_LOG(ERR, "%s: devarg maxstbl=\"%s\": want %u to "
				  "%u", name, v, MODEL_STORE_MIN,
				  MODEL_STORE_MAX);
			return -EINVAL;
		}
		mc->maxstbl = n;
	}
	v = rte_kvargs_get(kv, "bar0");
	if (v != NULL) {
		errno = 0;
		n = strtoul(v, &end, 0);
		if (errno != 0 || end == v || *end != '\0' || v[0] == '-' ||
		    n < ISM_DEV_BAR0_SIZE_MIN || n > ISM_DEV_BAR0_SIZE_HW ||
		    (n & (n - 1)) != 0) {
			MODEL_LOG(ERR, "%s: devarg bar0=\"%s\": want a power "
				  "of two from 2^29 to 2^48", name, v);
			return -EINVAL;
		}
		mc->bar0_size = n;
	}
	return parse_quirks(name, rte_kvargs_get(kv, "quirks"), &mc->quirks);
}

static int
model_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct ism_common_args a = { .chid = 0 };
	struct ism_pci_config cfg = { .driver_name = MODEL_DRIVER_NAME };
	struct ism_pci_platform p = { .io.ops = &ism_pci_model_io_ops };
	struct ism_pci_model_cfg mc = { .maxstbl = 0 };
	struct ism_pci_model_fn *fn;
	struct rte_kvargs *kv;
	int ret;

	kv = ism_kvargs_parse(name, rte_vdev_device_args(vdev),
			model_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(name, kv, &a);
	if (ret == 0)
		ret = model_args_get(name, kv, &mc);
	rte_kvargs_free(kv);
	if (ret < 0)
		return ret;
	if (a.gid.gid_ext != 0) {
		MODEL_LOG(ERR, "%s: devarg gid: ISM PCI GIDs have 64 bits "
			  "(use 0x<up to 16 hex digits>)", name);
		return -EINVAL;
	}
	/* GID 0: the function draws one. */
	ret = ism_pci_model_fn_create(name, a.gid.gid, a.chid, &mc, &fn);
	if (ret < 0)
		return ret;

	p.io.ctx = fn;
	p.chid = a.chid;
	p.maxstbl = mc.maxstbl;
	p.bar0_size = ism_pci_model_bar0_size(fn);
	p.dma_window = ism_pci_model_window(fn);
	p.intr = ism_pci_model_intr(fn);
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
	"max_dmb_len=<1..1048576> maxstbl=<32..4096> bar0=<2^29..2^48> "
	"quirks=<no_s|mask0|qi_fail|qi_short|tok20>[+...]");
