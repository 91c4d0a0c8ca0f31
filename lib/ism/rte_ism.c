/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * librte_ism: device registry, fast-path table and the checked control API.
 * Every public function validates its arguments here, logs what was wrong
 * and only then calls the driver through its ops.
 */

#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_string_fns.h>

#include "ism_private.h"
#include "ism_driver_sync.h"

RTE_LOG_REGISTER_DEFAULT(ism_logtype, INFO);

struct rte_ism_fp_ops rte_ism_fp_ops[RTE_ISM_MAX_DEVS];

static struct rte_ism_dev ism_devs[RTE_ISM_MAX_DEVS];
/* Serialises allocate/release/start/stop. */
static pthread_mutex_t ism_registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Set once a dummy has complained about a slot, so the log is not flooded. */
static bool fp_dummy_warned[RTE_ISM_MAX_DEVS];

/*
 * Fast-path dummies. dev_private holds the slot number, or, after a stop,
 * still the driver's context (so that a racing caller that read the old
 * function and the new context, or the reverse, never hands a driver a
 * slot number): find the slot by its context.
 */
static int
dummy_warn(void *ctx)
{
	uint16_t id;

	for (id = 0; id < RTE_ISM_MAX_DEVS; id++)
		if (rte_ism_fp_ops[id].dev_private == ctx)
			break;
	if (id < RTE_ISM_MAX_DEVS && !fp_dummy_warned[id]) {
		fp_dummy_warned[id] = true;
		ISM_LOG(ERR, "ISM device %u is not started or does not exist",
			(unsigned int)id);
	}
	return -ENODEV;
}

static int
dummy_move_data(void *ctx, uint64_t token __rte_unused,
		uint32_t idx __rte_unused, uint32_t sf __rte_unused,
		uint32_t offset __rte_unused, const void *data __rte_unused,
		uint32_t len __rte_unused)
{
	return dummy_warn(ctx);
}

static int
dummy_move_burst(void *ctx, uint64_t token __rte_unused,
		uint32_t idx __rte_unused, uint32_t sf __rte_unused,
		const struct rte_ism_move_seg *segs __rte_unused,
		uint16_t nb_segs __rte_unused)
{
	return dummy_warn(ctx);
}

static int
dummy_signal_poll(void *ctx, struct rte_ism_signal *sigs __rte_unused,
		uint16_t nb __rte_unused)
{
	return dummy_warn(ctx);
}

/* Point the functions of entry id at the dummies; the context stays. */
static void
fp_stop(uint16_t id)
{
	struct rte_ism_fp_ops *fp = &rte_ism_fp_ops[id];

	fp->move_data = dummy_move_data;
	fp->move_burst = dummy_move_burst;
	fp->signal_poll = dummy_signal_poll;
}

static void
fp_reset(uint16_t id)
{
	struct rte_ism_fp_ops *fp = &rte_ism_fp_ops[id];

	fp_stop(id);
	fp->dev_private = (void *)(uintptr_t)id;
	memset(fp->reserved, 0, sizeof(fp->reserved));
}

RTE_INIT(ism_init)
{
	uint16_t i;

	for (i = 0; i < RTE_ISM_MAX_DEVS; i++)
		fp_reset(i);
	ism_telemetry_init();
}

struct rte_ism_dev *
ism_dev_lookup(uint16_t dev_id)
{
	if (dev_id >= RTE_ISM_MAX_DEVS || !ism_devs[dev_id].attached)
		return NULL;
	return &ism_devs[dev_id];
}

/* Control-path device lookup with the log line every caller needs. */
static struct rte_ism_dev *
dev_get(uint16_t dev_id, const char *caller)
{
	struct rte_ism_dev *dev = ism_dev_lookup(dev_id);

	if (dev == NULL)
		rte_log(RTE_LOG_ERR, ism_logtype,
			"ISM: %s(): no ISM device with id %u\n", caller, dev_id);
	return dev;
}

#define DEV_OR_RET(dev, id) do { \
	(dev) = dev_get((id), __func__); \
	if ((dev) == NULL) \
		return -ENODEV; \
} while (0)

static bool
gid_is_zero(const struct rte_ism_gid *g)
{
	return g->gid == 0 && g->gid_ext == 0;
}

/* Driver side. */

struct rte_ism_dev *
rte_ism_pmd_allocate(const char *name, int socket_id)
{
	struct rte_ism_dev *dev = NULL;
	struct ism_event_queue *evq;
	uint16_t i, free_id = RTE_ISM_MAX_DEVS;

	if (name == NULL || name[0] == '\0' ||
	    strnlen(name, RTE_ISM_NAME_LEN) == RTE_ISM_NAME_LEN) {
		ISM_LOG(ERR, "device name missing or longer than %d chars",
			RTE_ISM_NAME_LEN - 1);
		rte_errno = EINVAL;
		return NULL;
	}
	evq = ism_evq_create();
	if (evq == NULL) {
		ISM_LOG(ERR, "%s: no memory for the event queue", name);
		rte_errno = ENOMEM;
		return NULL;
	}

	pthread_mutex_lock(&ism_registry_lock);
	ism_sync_init();
	/* A slot is taken from allocation on (evq set), not only once the
	 * device is attached: a driver may probe in between. */
	for (i = 0; i < RTE_ISM_MAX_DEVS; i++) {
		if (ism_devs[i].evq == NULL) {
			if (free_id == RTE_ISM_MAX_DEVS)
				free_id = i;
		} else if (strcmp(ism_devs[i].name, name) == 0) {
			ISM_LOG(ERR, "an ISM device named %s exists", name);
			rte_errno = EEXIST;
			goto out;
		}
	}
	if (free_id == RTE_ISM_MAX_DEVS) {
		ISM_LOG(ERR, "%s: all %d ISM device slots in use", name,
			RTE_ISM_MAX_DEVS);
		rte_errno = ENOSPC;
		goto out;
	}
	dev = &ism_devs[free_id];
	memset(dev, 0, sizeof(*dev));
	rte_strlcpy(dev->name, name, sizeof(dev->name));
	dev->dev_id = free_id;
	dev->socket_id = socket_id;
	dev->evq = evq;
	evq = NULL;
	/* Not attached (visible) until probing_finish. */
out:
	pthread_mutex_unlock(&ism_registry_lock);
	ism_evq_free(evq);
	return dev;
}

int
rte_ism_pmd_probing_finish(struct rte_ism_dev *dev)
{
	const char *missing = NULL;

	if (dev == NULL || dev->evq == NULL) {
		ISM_LOG(ERR, "not a device from rte_ism_pmd_allocate()");
		return -EINVAL;
	}
	if (dev->dev_ops == NULL)
		missing = "dev_ops";
	else if (dev->dev_ops->dmb_register == NULL)
		missing = "dmb_register";
	else if (dev->dev_ops->dmb_unregister == NULL)
		missing = "dmb_unregister";
	else if (dev->dev_ops->query_remote_gid == NULL)
		missing = "query_remote_gid";
	else if (dev->fp.move_data == NULL)
		missing = "fp.move_data";
	else if (dev->fp.move_burst == NULL)
		missing = "fp.move_burst";
	else if (dev->fp.signal_poll == NULL)
		missing = "fp.signal_poll";
	else if (gid_is_zero(&dev->gid))
		missing = "gid";
	else if (dev->max_dmbs == 0 ||
		 dev->max_dmbs > UINT32_MAX - RTE_ISM_DMB_IDX_FIRST)
		missing = "max_dmbs";
	else if (dev->max_dmb_len == 0)
		missing = "max_dmb_len";
	else if ((dev->capa & RTE_ISM_CAPA_NOCOPY) &&
		 (dev->dev_ops->dmb_attach == NULL ||
		  dev->dev_ops->dmb_detach == NULL))
		missing = "dmb_attach/dmb_detach for RTE_ISM_CAPA_NOCOPY";
	else if ((dev->capa & RTE_ISM_CAPA_VLAN) &&
		 (dev->dev_ops->vlan_add == NULL ||
		  dev->dev_ops->vlan_del == NULL))
		missing = "vlan_add/vlan_del for RTE_ISM_CAPA_VLAN";
	else if ((dev->capa & RTE_ISM_CAPA_SIGNAL_EVENT) &&
		 dev->dev_ops->signal_event == NULL)
		missing = "signal_event for RTE_ISM_CAPA_SIGNAL_EVENT";
	if (missing != NULL) {
		ISM_LOG(ERR, "%s: driver did not set %s", dev->name, missing);
		return -EINVAL;
	}
	pthread_mutex_lock(&ism_registry_lock);
	dev->attached = true;
	pthread_mutex_unlock(&ism_registry_lock);
	return 0;
}

/* Called with the registry lock held. */
static void
dev_stop_locked(struct rte_ism_dev *dev)
{
	if (!dev->started)
		return;
	fp_stop(dev->dev_id);
	dev->started = false;
	/* No move may still be inside the driver when stop returns. */
	rte_ism_pmd_synchronize();
	if (dev->dev_ops->dev_stop != NULL)
		dev->dev_ops->dev_stop(dev);
}

int
rte_ism_pmd_release(struct rte_ism_dev *dev)
{
	struct ism_event_queue *evq;
	uint16_t id;

	if (dev == NULL || dev < ism_devs || dev >= ism_devs + RTE_ISM_MAX_DEVS) {
		ISM_LOG(ERR, "not a device from rte_ism_pmd_allocate()");
		return -EINVAL;
	}
	pthread_mutex_lock(&ism_registry_lock);
	if (dev->evq == NULL) {
		pthread_mutex_unlock(&ism_registry_lock);
		ISM_LOG(ERR, "ISM device slot %u is not allocated (released "
			"twice?)", (unsigned int)(dev - ism_devs));
		return -EINVAL;
	}
	if (dev->attached)
		dev_stop_locked(dev);
	evq = dev->evq;
	id = dev - ism_devs;
	memset(dev, 0, sizeof(*dev));
	fp_reset(id);
	fp_dummy_warned[id] = false;
	pthread_mutex_unlock(&ism_registry_lock);
	ism_evq_free(evq);
	return 0;
}

int
rte_ism_pmd_event_post(struct rte_ism_dev *dev, const struct rte_ism_event *ev)
{
	uint64_t posted, dropped;
	int ret;

	if (dev == NULL || ev == NULL || dev->evq == NULL) {
		ISM_LOG(ERR, "NULL %s", ev == NULL ? "event" : "device");
		return -EINVAL;
	}
	ret = ism_evq_post(dev->evq, ev);
	if (ret == -ENOSPC) {
		ism_evq_counters(dev->evq, &posted, &dropped);
		/* Say it at 1, 2, 4, 8... drops: visible, not a flood. */
		if ((dropped & (dropped - 1)) == 0)
			ISM_LOG(WARNING, "%s: event queue full (%d): %" PRIu64
				" events dropped so far; poll events with "
				"rte_ism_event_poll()", dev->name,
				RTE_ISM_EVENT_QUEUE_SIZE, dropped);
	}
	return ret;
}

uint32_t
rte_ism_pmd_event_space(struct rte_ism_dev *dev)
{
	return dev != NULL && dev->evq != NULL ? ism_evq_space(dev->evq) : 0;
}

/* Client side. */

uint16_t
rte_ism_dev_count(void)
{
	uint16_t i, n = 0;

	for (i = 0; i < RTE_ISM_MAX_DEVS; i++)
		if (ism_devs[i].attached)
			n++;
	return n;
}

bool
rte_ism_is_valid_dev(uint16_t dev_id)
{
	return ism_dev_lookup(dev_id) != NULL;
}

uint16_t
rte_ism_dev_next(uint16_t start)
{
	while (start < RTE_ISM_MAX_DEVS && !ism_devs[start].attached)
		start++;
	return start;
}

int
rte_ism_get_dev_id(const char *name)
{
	uint16_t i;

	if (name == NULL) {
		ISM_LOG(ERR, "NULL name");
		return -EINVAL;
	}
	for (i = 0; i < RTE_ISM_MAX_DEVS; i++)
		if (ism_devs[i].attached && strcmp(ism_devs[i].name, name) == 0)
			return i;
	ISM_LOG(ERR, "no ISM device named \"%s\"", name);
	return -ENODEV;
}

int
rte_ism_info_get(uint16_t dev_id, struct rte_ism_dev_info *info)
{
	struct rte_ism_dev *dev;

	DEV_OR_RET(dev, dev_id);
	if (info == NULL) {
		ISM_LOG(ERR, "NULL info for device %u", dev_id);
		return -EINVAL;
	}
	memset(info, 0, sizeof(*info));
	rte_strlcpy(info->name, dev->name, sizeof(info->name));
	info->driver_name = dev->driver_name;
	info->backend = dev->backend;
	info->gid = dev->gid;
	info->chid = dev->chid;
	info->socket_id = dev->socket_id;
	info->max_dmbs = dev->max_dmbs;
	info->max_dmb_len = dev->max_dmb_len;
	info->capa = dev->capa;
	info->started = dev->started;
	return 0;
}

int
rte_ism_dev_start(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret = 0;

	DEV_OR_RET(dev, dev_id);
	pthread_mutex_lock(&ism_registry_lock);
	if (dev->started)
		goto out;
	if (dev->dev_ops->dev_start != NULL) {
		ret = dev->dev_ops->dev_start(dev);
		if (ret < 0) {
			ISM_LOG(ERR, "%s: driver start failed: %s", dev->name,
				strerror(-ret));
			goto out;
		}
	}
	rte_ism_fp_ops[dev_id] = dev->fp;
	fp_dummy_warned[dev_id] = false;
	dev->started = true;
out:
	pthread_mutex_unlock(&ism_registry_lock);
	return ret;
}

int
rte_ism_dev_stop(uint16_t dev_id)
{
	struct rte_ism_dev *dev;

	DEV_OR_RET(dev, dev_id);
	pthread_mutex_lock(&ism_registry_lock);
	dev_stop_locked(dev);
	pthread_mutex_unlock(&ism_registry_lock);
	return 0;
}

int
rte_ism_dmb_register(uint16_t dev_id, struct rte_ism_dmb *dmb)
{
	struct rte_ism_dev *dev;
	struct rte_ism_dmb d;
	unsigned int i;
	int ret;

	DEV_OR_RET(dev, dev_id);
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
	if (gid_is_zero(&dmb->rgid)) {
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

int
rte_ism_dmb_unregister(uint16_t dev_id, uint64_t token)
{
	struct rte_ism_dev *dev;
	int ret;

	DEV_OR_RET(dev, dev_id);
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
	rte_log(RTE_LOG_ERR, ism_logtype,
		"ISM: %s(): %s: device does not support %s\n", caller,
		dev->name, what);
	return -ENOTSUP;
}

int
rte_ism_dmb_attach(uint16_t dev_id, uint64_t token, struct rte_ism_dmb *dmb)
{
	struct rte_ism_dev *dev;
	struct rte_ism_dmb d;
	int ret;

	DEV_OR_RET(dev, dev_id);
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

int
rte_ism_dmb_detach(uint16_t dev_id, uint64_t token)
{
	struct rte_ism_dev *dev;
	int ret;

	DEV_OR_RET(dev, dev_id);
	ret = check_capa(dev, RTE_ISM_CAPA_NOCOPY, "nocopy detach", __func__);
	if (ret < 0)
		return ret;
	ret = dev->dev_ops->dmb_detach(dev, token);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot detach DMB 0x%" PRIx64 ": %s",
			dev->name, token, strerror(-ret));
	return ret;
}

int
rte_ism_signal_event(uint16_t dev_id, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	struct rte_ism_dev *dev;
	int ret;

	DEV_OR_RET(dev, dev_id);
	ret = check_capa(dev, RTE_ISM_CAPA_SIGNAL_EVENT, "signal_event",
			__func__);
	if (ret < 0)
		return ret;
	if (rgid == NULL || gid_is_zero(rgid)) {
		ISM_LOG(ERR, "%s: %s target GID", dev->name,
			rgid == NULL ? "NULL" : "zero");
		return -EINVAL;
	}
	ret = dev->dev_ops->signal_event(dev, rgid, trigger_irq, code, info);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot signal event 0x%x to %016" PRIx64
			"%016" PRIx64 ": %s", dev->name, code, rgid->gid,
			rgid->gid_ext, strerror(-ret));
	return ret;
}

int
rte_ism_event_poll(uint16_t dev_id, struct rte_ism_event *ev, uint16_t nb)
{
	struct rte_ism_dev *dev;

	DEV_OR_RET(dev, dev_id);
	if (ev == NULL) {
		ISM_LOG(ERR, "%s: NULL event array", dev->name);
		return -EINVAL;
	}
	return ism_evq_poll(dev->evq, ev, nb);
}

int
rte_ism_query_remote_gid(uint16_t dev_id, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id)
{
	struct rte_ism_dev *dev;

	DEV_OR_RET(dev, dev_id);
	if (rgid == NULL || gid_is_zero(rgid)) {
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
	if (vlan_id > RTE_ISM_VLAN_ID_MAX) {
		rte_log(RTE_LOG_ERR, ism_logtype,
			"ISM: %s(): %s: VLAN id %u above %u\n", caller,
			dev->name, vlan_id, RTE_ISM_VLAN_ID_MAX);
		return -EINVAL;
	}
	return 0;
}

int
rte_ism_vlan_add(uint16_t dev_id, uint16_t vlan_id)
{
	struct rte_ism_dev *dev;
	int ret;

	DEV_OR_RET(dev, dev_id);
	ret = vlan_check(dev, vlan_id, __func__);
	if (ret != 0)
		return ret;
	ret = dev->dev_ops->vlan_add(dev, vlan_id);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot join VLAN %u: %s", dev->name,
			vlan_id, strerror(-ret));
	return ret;
}

int
rte_ism_vlan_del(uint16_t dev_id, uint16_t vlan_id)
{
	struct rte_ism_dev *dev;
	int ret;

	DEV_OR_RET(dev, dev_id);
	ret = vlan_check(dev, vlan_id, __func__);
	if (ret != 0)
		return ret;
	ret = dev->dev_ops->vlan_del(dev, vlan_id);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot leave VLAN %u: %s", dev->name,
			vlan_id, strerror(-ret));
	return ret;
}

int
rte_ism_stats_get(uint16_t dev_id, struct rte_ism_stats *stats)
{
	struct rte_ism_dev *dev;
	int ret = 0;

	DEV_OR_RET(dev, dev_id);
	if (stats == NULL) {
		ISM_LOG(ERR, "%s: NULL stats", dev->name);
		return -EINVAL;
	}
	memset(stats, 0, sizeof(*stats));
	if (dev->dev_ops->stats_get != NULL)
		ret = dev->dev_ops->stats_get(dev, stats);
	ism_evq_counters(dev->evq, &stats->events, &stats->events_dropped);
	return ret;
}

int
rte_ism_stats_reset(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret = 0;

	DEV_OR_RET(dev, dev_id);
	if (dev->dev_ops->stats_reset != NULL)
		ret = dev->dev_ops->stats_reset(dev);
	ism_evq_reset_counters(dev->evq);
	return ret;
}

int
rte_ism_dump(uint16_t dev_id, FILE *f)
{
	struct rte_ism_dev *dev;
	char gid[RTE_ISM_GID_STRLEN];
	uint64_t posted, dropped;

	DEV_OR_RET(dev, dev_id);
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
		dev->started ? "started" : "stopped");
	fprintf(f, "  max_dmbs %u max_dmb_len %u capa 0x%" PRIx64 "\n",
		dev->max_dmbs, dev->max_dmb_len, dev->capa);
	fprintf(f, "  events queued %" PRIu64 " dropped %" PRIu64 "\n",
		posted, dropped);
	if (dev->dev_ops->dump != NULL)
		return dev->dev_ops->dump(dev, f);
	return 0;
}
