/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Device iteration: RTE_DEV_FOREACH(dev, "bus=ism[,addr=<PCI address>]"). */

#include <errno.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_kvargs.h>

#include "private.h"

static const char *const ism_params_keys[] = {
	"addr",
	NULL,
};

static int
ism_addr_kv_cmp(const char *key __rte_unused, const char *value, void *opaque)
{
	const struct rte_pci_addr *addr = opaque;
	struct rte_pci_addr pa;

	if (rte_pci_addr_parse(value, &pa) != 0)
		return -1;
	return rte_pci_addr_cmp(&pa, addr) == 0 ? 0 : -1;
}

/* 0 if dev matches every filter in kvlist. */
static int
ism_dev_match(const struct rte_device *dev, const void *kvlist)
{
	const struct rte_ism_bus_device *idev = ISM_DEV_CONST(dev);

	if (kvlist == NULL)
		return 0;
	return rte_kvargs_process(kvlist, "addr", ism_addr_kv_cmp,
			(void *)(uintptr_t)&idev->addr) == 0 ? 0 : 1;
}

void *
ism_bus_dev_iterate(const void *start, const char *str,
		const struct rte_dev_iterator *it __rte_unused)
{
	struct rte_kvargs *kvargs = NULL;
	struct rte_device *dev;

	if (str != NULL && str[0] != '\0') {
		kvargs = rte_kvargs_parse(str, ism_params_keys);
		if (kvargs == NULL) {
			ISM_BUS_LOG(ERR, "cannot parse \"%s\": only addr=<PCI address> filters ISM devices",
				str);
			rte_errno = EINVAL;
			return NULL;
		}
	}
	dev = ism_bus.bus.find_device(start, ism_dev_match, kvargs);
	rte_kvargs_free(kvargs);
	return dev;
}
