/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The checked control calls of a device: DMBs, nocopy, software events,
 * reachability, VLANs, dump and selftest. Every function validates its
 * arguments here, logs what was wrong and only then calls the driver
 * through its ops.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_private.h"

/*
 * signal_event fails each time its target is gone (-ENETUNREACH), which a
 * peer causes and a caller may repeat (a HELLO every 100 ms while it waits
 * for the peer): the first failure of a device is logged, then at most one
 * line per period with the count of those not logged.
 */
static struct ism_log_rl signal_event_log[RTE_ISM_MAX_DEVS];

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dmb_register, 26.03)
int
rte_ism_dmb_register(uint16_t dev_id, struct rte_ism_dmb *dmb)
{
	struct rte_ism_dev *dev;
	struct rte_ism_dmb d;
	unsigned int i;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	if (dmb == NULL) {
		ISM_LOG(ERR, "%s: NULL dmb", dev->name);
		return -EINVAL;
	}
	for (i = 0; i < RTE_DIM(dmb->reserved); i++)
		if (dmb->reserved[i] != 0) {
			ISM_LOG(ERR, "%s: dmb.reserved must be zero", dev->name);
			return -EINVAL;
		}
	if (dmb->len == 0) {
		ISM_LOG(ERR, "%s: DMB length 0", dev->name);
		return -EINVAL;
	}
	if (dmb->len > dev->max_dmb_len) {
		ISM_LOG(ERR, "%s: DMB length %u above the device maximum %u",
			dev->name, dmb->len, dev->max_dmb_len);
		return -E2BIG;
	}
	if (ism_gid_is_zero(&dmb->rgid)) {
		ISM_LOG(ERR, "%s: DMB without a writer (rgid is zero)",
			dev->name);
		return -EINVAL;
	}
	if (dmb->idx != 0 && (dmb->idx < RTE_ISM_DMB_IDX_FIRST ||
	    dmb->idx - RTE_ISM_DMB_IDX_FIRST >= dev->max_dmbs)) {
		ISM_LOG(ERR, "%s: DMB index %u outside [%u, %u] (0 = pick)",
			dev->name, dmb->idx, RTE_ISM_DMB_IDX_FIRST,
			RTE_ISM_DMB_IDX_FIRST + dev->max_dmbs - 1);
		return -EINVAL;
	}
	if (dmb->vlan_valid) {
		if (!(dev->capa & RTE_ISM_CAPA_VLAN)) {
			ISM_LOG(ERR, "%s: device has no VLAN support",
				dev->name);
			return -ENOTSUP;
		}
		if (dmb->vlan_id > RTE_ISM_VLAN_ID_MAX) {
			ISM_LOG(ERR, "%s: VLAN id %u above %u", dev->name,
				dmb->vlan_id, RTE_ISM_VLAN_ID_MAX);
			return -EINVAL;
		}
	}
	/* The driver works on a copy: a failed call leaves *dmb untouched. */
	d = *dmb;
	d.token = 0;
	d.addr = NULL;
	ret = dev->dev_ops->dmb_register(dev, &d);
	if (ret < 0) {
		ISM_LOG(ERR, "%s: cannot register a DMB of %u bytes: %s",
			dev->name, dmb->len, strerror(-ret));
		return ret;
	}
	*dmb = d;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dmb_unregister, 26.03)
int
rte_ism_dmb_unregister(uint16_t dev_id, uint64_t token)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ret = dev->dev_ops->dmb_unregister(dev, token);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot unregister DMB 0x%" PRIx64 ": %s",
			dev->name, token, strerror(-ret));
	return ret;
}

static int
check_capa(const struct rte_ism_dev *dev, uint64_t capa, const char *what,
		const char *caller)
{
	if (dev->capa & capa)
		return 0;
	RTE_LOG_LINE(ERR, ISM, "%s(): %s: device does not support %s", caller,
		dev->name, what);
	return -ENOTSUP;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dmb_attach, 26.03)
int
rte_ism_dmb_attach(uint16_t dev_id, uint64_t token, struct rte_ism_dmb *dmb)
{
	struct rte_ism_dev *dev;
	struct rte_ism_dmb d;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	/* Arguments first: a NULL dmb is -EINVAL whatever the device. */
	if (dmb == NULL) {
		ISM_LOG(ERR, "%s: NULL dmb", dev->name);
		return -EINVAL;
	}
	ret = check_capa(dev, RTE_ISM_CAPA_NOCOPY, "nocopy attach", __func__);
	if (ret < 0)
		return ret;
	memset(&d, 0, sizeof(d));
	ret = dev->dev_ops->dmb_attach(dev, token, &d);
	if (ret < 0) {
		ISM_LOG(ERR, "%s: cannot attach DMB 0x%" PRIx64 ": %s",
			dev->name, token, strerror(-ret));
		return ret;
	}
	*dmb = d;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dmb_detach, 26.03)
int
rte_ism_dmb_detach(uint16_t dev_id, uint64_t token)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ret = check_capa(dev, RTE_ISM_CAPA_NOCOPY, "nocopy detach", __func__);
	if (ret < 0)
		return ret;
	ret = dev->dev_ops->dmb_detach(dev, token);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot detach DMB 0x%" PRIx64 ": %s",
			dev->name, token, strerror(-ret));
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_signal_event, 26.03)
int
rte_ism_signal_event(uint16_t dev_id, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	struct rte_ism_dev *dev;
	char more[64] = "";
	uint64_t quiet;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ret = check_capa(dev, RTE_ISM_CAPA_SIGNAL_EVENT, "signal_event",
			__func__);
	if (ret < 0)
		return ret;
	if (rgid == NULL || ism_gid_is_zero(rgid)) {
		ISM_LOG(ERR, "%s: %s target GID", dev->name,
			rgid == NULL ? "NULL" : "zero");
		return -EINVAL;
	}
	ret = dev->dev_ops->signal_event(dev, rgid, trigger_irq, code, info);
	if (ret < 0 && ism_log_rl_ok(&signal_event_log[dev_id], &quiet)) {
		if (quiet > 0)
			snprintf(more, sizeof(more), " (and %" PRIu64
				 " failures not logged)", quiet);
		ISM_LOG(ERR, "%s: cannot signal event 0x%x to %016" PRIx64
			"%016" PRIx64 ": %s%s", dev->name, code, rgid->gid,
			rgid->gid_ext, strerror(-ret), more);
	}
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_event_poll, 26.03)
int
rte_ism_event_poll(uint16_t dev_id, struct rte_ism_event *ev, uint16_t nb)
{
	struct rte_ism_dev *dev;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	if (ev == NULL) {
		ISM_LOG(ERR, "%s: NULL event array", dev->name);
		return -EINVAL;
	}
	return ism_evq_poll(dev->evq, ev, nb);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_query_remote_gid, 26.03)
int
rte_ism_query_remote_gid(uint16_t dev_id, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id)
{
	struct rte_ism_dev *dev;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	if (rgid == NULL || ism_gid_is_zero(rgid)) {
		ISM_LOG(ERR, "%s: %s GID", dev->name,
			rgid == NULL ? "NULL" : "zero");
		return -EINVAL;
	}
	if (vlan_valid && vlan_id > RTE_ISM_VLAN_ID_MAX) {
		ISM_LOG(ERR, "%s: VLAN id %u above %u", dev->name, vlan_id,
			RTE_ISM_VLAN_ID_MAX);
		return -EINVAL;
	}
	/* Unreachable is an answer, not an error: no log line. */
	return dev->dev_ops->query_remote_gid(dev, rgid, vlan_valid, vlan_id);
}

static int
vlan_check(struct rte_ism_dev *dev, uint16_t vlan_id, const char *caller)
{
	int ret = check_capa(dev, RTE_ISM_CAPA_VLAN, "VLANs", caller);

	if (ret < 0)
		return ret;
	if (vlan_id > RTE_ISM_VLAN_ID_MAX &&
	    vlan_id != RTE_ISM_VLAN_ID_RESERVED) {
		RTE_LOG_LINE(ERR, ISM, "%s(): %s: VLAN id %u above %u", caller,
			dev->name, vlan_id, RTE_ISM_VLAN_ID_MAX);
		return -EINVAL;
	}
	return 0;
}

/*
 * The reserved id is SMC's ISMv2 probe (add at device registration, del
 * at removal), not a VLAN: the library answers it the same way for every
 * device with VLANs, whatever its backend keeps in its VLAN table.
 */
RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_vlan_add, 26.03)
int
rte_ism_vlan_add(uint16_t dev_id, uint16_t vlan_id)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ret = vlan_check(dev, vlan_id, __func__);
	if (ret != 0)
		return ret;
	if (vlan_id == RTE_ISM_VLAN_ID_RESERVED) {
		rte_atomic_store_explicit(&dev->data->vlan_reserved, true,
				rte_memory_order_relaxed);
		return 0;
	}
	ret = dev->dev_ops->vlan_add(dev, vlan_id);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot join VLAN %u: %s", dev->name,
			vlan_id, strerror(-ret));
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_vlan_del, 26.03)
int
rte_ism_vlan_del(uint16_t dev_id, uint16_t vlan_id)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ret = vlan_check(dev, vlan_id, __func__);
	if (ret != 0)
		return ret;
	if (vlan_id == RTE_ISM_VLAN_ID_RESERVED)
		ret = rte_atomic_exchange_explicit(&dev->data->vlan_reserved,
				false, rte_memory_order_relaxed) ? 0 : -ENOENT;
	else
		ret = dev->dev_ops->vlan_del(dev, vlan_id);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot leave VLAN %u: %s", dev->name,
			vlan_id, strerror(-ret));
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dump, 26.03)
int
rte_ism_dump(uint16_t dev_id, FILE *f)
{
	struct rte_ism_dev *dev;
	char gid[RTE_ISM_GID_STRLEN];
	uint64_t posted, dropped;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (f == NULL) {
		ISM_LOG(ERR, "%s: NULL FILE", dev->name);
		return -EINVAL;
	}
	rte_ism_gid_format(&dev->gid, gid, sizeof(gid));
	ism_evq_counters(dev->evq, &posted, &dropped);
	fprintf(f, "ISM device %u: %s (driver %s, backend %s)\n", dev_id,
		dev->name, dev->driver_name ? dev->driver_name : "?",
		dev->backend ? dev->backend : "?");
	fprintf(f, "  gid %s chid 0x%04x %s\n", gid, dev->chid,
		dev->data->started ? "started" : "stopped");
	fprintf(f, "  max_dmbs %u max_dmb_len %u capa 0x%" PRIx64 "\n",
		dev->max_dmbs, dev->max_dmb_len, dev->capa);
	fprintf(f, "  events queued %" PRIu64 " dropped %" PRIu64 "\n",
		posted, dropped);
	/* The driver's state lives in the primary process. */
	if (!ism_is_primary())
		fprintf(f, "  (driver state: dump it in the primary process)\n");
	else if (dev->dev_ops->dump != NULL)
		return dev->dev_ops->dump(dev, f);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_selftest, 26.03)
int
rte_ism_dev_selftest(uint16_t dev_id)
{
	struct rte_ism_dev *dev;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	if (dev->dev_ops->dev_selftest == NULL) {
		ISM_LOG(ERR, "%s: driver %s has no selftest", dev->name,
			dev->driver_name ? dev->driver_name : "?");
		return -ENOTSUP;
	}
	if (!dev->started) {
		ISM_LOG(ERR, "%s: device stopped: the selftest moves data, "
			"start it first", dev->name);
		return -ENETDOWN;
	}
	return dev->dev_ops->dev_selftest(dev);
}
