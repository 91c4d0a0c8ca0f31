/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * librte_ism: device registry, fast-path table and the life cycle of a
 * device (allocate, probing_finish = visible and started, stop, start,
 * close, release). The control calls on DMBs, events and VLANs are in
 * ism_ctrl.c, the counters in ism_stats.c.
 */

#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_string_fns.h>

#include <ism_compat.h>

#include "ism_private.h"
#include "ism_driver_sync.h"

RTE_LOG_REGISTER_DEFAULT(ism_logtype, INFO);

struct rte_ism_fp_ops rte_ism_fp_ops[RTE_ISM_MAX_DEVS];

static struct rte_ism_dev ism_devs[RTE_ISM_MAX_DEVS];
struct ism_slot ism_slots[RTE_ISM_MAX_DEVS];
/* Serialises allocate/release and every change of state (start, stop,
 * close); never held while a driver op runs that may wait on a peer. */
static pthread_mutex_t ism_registry_lock = PTHREAD_MUTEX_INITIALIZER;
/* Set once a dummy has complained about a slot, so the log is not flooded. */
static bool fp_dummy_warned[RTE_ISM_MAX_DEVS];

/*
 * Fast-path dummies. dev_private holds the slot number, or, after a stop,
 * still the driver's context (so that a racing caller that read the old
 * function and the new context, or the reverse, never hands a driver a
 * slot number): find the slot by its context. Refused moves are counted
 * for the slot (errors_no_device); a poll is no move.
 */
static uint16_t
dummy_slot(void *ctx)
{
	uint16_t id;

	if ((uintptr_t)ctx < RTE_ISM_MAX_DEVS)
		return (uintptr_t)ctx;
	for (id = 0; id < RTE_ISM_MAX_DEVS; id++)
		if (rte_ism_fp_ops[id].dev_private == ctx)
			break;
	return id;
}

static int
dummy_refuse(void *ctx, bool is_move)
{
	uint16_t id = dummy_slot(ctx);

	if (id >= RTE_ISM_MAX_DEVS)
		return -ENODEV;
	if (is_move)
		rte_atomic_fetch_add_explicit(&ism_slots[id].no_device, 1,
				rte_memory_order_relaxed);
	if (!rte_atomic_load_explicit(&fp_dummy_warned[id], rte_memory_order_relaxed)) {
		rte_atomic_store_explicit(&fp_dummy_warned[id], true, rte_memory_order_relaxed);
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
	return dummy_refuse(ctx, true);
}

static int
dummy_move_burst(void *ctx, uint64_t token __rte_unused,
		uint32_t idx __rte_unused, uint32_t sf __rte_unused,
		const struct rte_ism_move_seg *segs __rte_unused,
		uint16_t nb_segs __rte_unused)
{
	return dummy_refuse(ctx, true);
}

static int
dummy_signal_poll(void *ctx, struct rte_ism_signal *sigs __rte_unused,
		uint16_t nb __rte_unused)
{
	return dummy_refuse(ctx, false);
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

struct rte_ism_dev *
ism_dev_get(uint16_t dev_id, const char *caller)
{
	struct rte_ism_dev *dev = ism_dev_lookup(dev_id);

	if (dev == NULL)
		RTE_LOG_LINE(ERR, ISM, "%s(): no ISM device with id %u", caller,
			dev_id);
	return dev;
}

/* Driver side. */

/* Allocate in slot want, or in the first free one if want is
 * RTE_ISM_MAX_DEVS. */
static struct rte_ism_dev *
dev_allocate(const char *name, int socket_id, uint16_t want)
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
	evq = ism_evq_create(socket_id);
	if (evq == NULL) {
		ISM_LOG(ERR, "%s: no memory for the event queue", name);
		rte_errno = ENOMEM;
		return NULL;
	}

	pthread_mutex_lock(&ism_registry_lock);
	ism_sync_init();
	/* A slot is taken from allocation on (evq set) until release, not
	 * only while the device is visible: a driver may probe in between,
	 * and a closed device keeps its id and name until it is removed. */
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
	if (want < RTE_ISM_MAX_DEVS) {
		if (ism_devs[want].evq != NULL) {
			ISM_LOG(ERR, "%s: ISM device id %u is taken by %s", name,
				want, ism_devs[want].name);
			rte_errno = EBUSY;
			goto out;
		}
		free_id = want;
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
	ism_stats_slot_init(free_id);
	/* Not attached (visible) until probing_finish. */
out:
	pthread_mutex_unlock(&ism_registry_lock);
	ism_evq_free(evq);
	return dev;
}

struct rte_ism_dev *
rte_ism_pmd_allocate(const char *name, int socket_id)
{
	return dev_allocate(name, socket_id, RTE_ISM_MAX_DEVS);
}

struct rte_ism_dev *
rte_ism_pmd_allocate_id(const char *name, int socket_id, uint16_t dev_id)
{
	if (dev_id >= RTE_ISM_MAX_DEVS) {
		ISM_LOG(ERR, "%s: device id %u not below %d",
			name != NULL ? name : "?", dev_id, RTE_ISM_MAX_DEVS);
		rte_errno = EINVAL;
		return NULL;
	}
	return dev_allocate(name, socket_id, dev_id);
}

static bool
dev_is_allocated(const struct rte_ism_dev *dev)
{
	return dev >= ism_devs && dev < ism_devs + RTE_ISM_MAX_DEVS &&
		dev == &ism_devs[dev->dev_id] && dev->evq != NULL;
}

/* The field the driver forgot, or NULL. */
static const char *
missing_field(const struct rte_ism_dev *dev)
{
	const struct rte_ism_dev_ops *ops = dev->dev_ops;

	if (ops == NULL)
		return "dev_ops";
	if (ops->dmb_register == NULL)
		return "dmb_register";
	if (ops->dmb_unregister == NULL)
		return "dmb_unregister";
	if (ops->query_remote_gid == NULL)
		return "query_remote_gid";
	if (dev->fp.move_data == NULL)
		return "fp.move_data";
	if (dev->fp.move_burst == NULL)
		return "fp.move_burst";
	if (dev->fp.signal_poll == NULL)
		return "fp.signal_poll";
	if (ism_gid_is_zero(&dev->gid))
		return "gid";
	if (dev->max_dmbs == 0 ||
	    dev->max_dmbs > UINT32_MAX - RTE_ISM_DMB_IDX_FIRST)
		return "max_dmbs";
	if (dev->max_dmb_len == 0)
		return "max_dmb_len";
	if ((dev->capa & RTE_ISM_CAPA_NOCOPY) &&
	    (ops->dmb_attach == NULL || ops->dmb_detach == NULL))
		return "dmb_attach/dmb_detach for RTE_ISM_CAPA_NOCOPY";
	if ((dev->capa & RTE_ISM_CAPA_VLAN) &&
	    (ops->vlan_add == NULL || ops->vlan_del == NULL))
		return "vlan_add/vlan_del for RTE_ISM_CAPA_VLAN";
	if ((dev->capa & RTE_ISM_CAPA_SIGNAL_EVENT) &&
	    ops->signal_event == NULL)
		return "signal_event for RTE_ISM_CAPA_SIGNAL_EVENT";
	if ((ops->xstats_names_get == NULL) != (ops->xstats_get == NULL))
		return "both xstats_names_get and xstats_get, or neither";
	if ((dev->capa & RTE_ISM_CAPA_INTR) &&
	    (ops->intr_handle_get == NULL || ops->intr_arm == NULL ||
	     ops->intr_event == NULL))
		return "intr_handle_get/intr_arm/intr_event for RTE_ISM_CAPA_INTR";
	return NULL;
}

/* Enable the fast path; called with the registry lock held. */
static int
dev_start_locked(struct rte_ism_dev *dev)
{
	int ret;

	if (dev->started)
		return 0;
	if (dev->dev_ops->dev_start != NULL) {
		ret = dev->dev_ops->dev_start(dev);
		if (ret < 0) {
			ISM_LOG(ERR, "%s: driver start failed: %s", dev->name,
				strerror(-ret));
			return ret;
		}
	}
	rte_ism_fp_ops[dev->dev_id] = dev->fp;
	fp_dummy_warned[dev->dev_id] = false;
	dev->started = true;
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
rte_ism_pmd_probing_finish(struct rte_ism_dev *dev)
{
	const char *missing;
	int ret;

	if (dev == NULL || !dev_is_allocated(dev) || dev->attached ||
	    dev->closed) {
		ISM_LOG(ERR, "not a device from rte_ism_pmd_allocate() in "
			"probing");
		return -EINVAL;
	}
	missing = missing_field(dev);
	if (missing != NULL) {
		ISM_LOG(ERR, "%s: driver did not set %s", dev->name, missing);
		return -EINVAL;
	}
	ret = ism_stats_probe(dev);
	if (ret < 0)
		return ret;
	/* Probed means ready: applications that use only rte_ism_* find
	 * the fast path enabled. */
	pthread_mutex_lock(&ism_registry_lock);
	ret = dev_start_locked(dev);
	if (ret == 0)
		dev->attached = true;
	pthread_mutex_unlock(&ism_registry_lock);
	return ret;
}

/* Stop, hide, then let the driver free the backend (outside the lock: a
 * driver may wait for its peers there). */
static int
dev_close(struct rte_ism_dev *dev, const char *caller)
{
	int ret = 0;

	pthread_mutex_lock(&ism_registry_lock);
	if (!dev->attached) {
		pthread_mutex_unlock(&ism_registry_lock);
		RTE_LOG_LINE(ERR, ISM, "%s(): no ISM device with id %u", caller,
			dev->dev_id);
		return -ENODEV;
	}
	dev_stop_locked(dev);
	dev->attached = false;
	dev->closed = true;
	/* The driver's context is about to go: the entry keeps only the
	 * slot number, as for a slot without a device. */
	fp_reset(dev->dev_id);
	pthread_mutex_unlock(&ism_registry_lock);
	if (dev->dev_ops->dev_close != NULL)
		ret = dev->dev_ops->dev_close(dev);
	if (ret < 0)
		ISM_LOG(ERR, "%s: driver close failed: %s (closed all the "
			"same)", dev->name, strerror(-ret));
	return ret;
}

int
rte_ism_pmd_release(struct rte_ism_dev *dev)
{
	struct ism_event_queue *evq;
	bool attached;
	uint16_t id;

	pthread_mutex_lock(&ism_registry_lock);
	if (dev == NULL || !dev_is_allocated(dev)) {
		pthread_mutex_unlock(&ism_registry_lock);
		ISM_LOG(ERR, "not an allocated ISM device (released twice?)");
		return -EINVAL;
	}
	attached = dev->attached;
	pthread_mutex_unlock(&ism_registry_lock);
	if (attached)
		dev_close(dev, __func__);

	pthread_mutex_lock(&ism_registry_lock);
	evq = dev->evq;
	id = dev->dev_id;
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
	/* Nobody can poll a closed device's events. */
	if (dev->closed)
		return -ENODEV;
	ret = ism_evq_post(dev->evq, ev);
	if (ret == 0)
		ism_intr_event_posted(dev);
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

/* Client side: discovery and life cycle. */

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

	ISM_DEV_OR_RET(dev, dev_id);
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
	int ret = -ENODEV;

	pthread_mutex_lock(&ism_registry_lock);
	dev = ism_dev_lookup(dev_id);
	if (dev != NULL)
		ret = dev_start_locked(dev);
	pthread_mutex_unlock(&ism_registry_lock);
	if (dev == NULL)
		ISM_LOG(ERR, "no ISM device with id %u", dev_id);
	return ret;
}

int
rte_ism_dev_stop(uint16_t dev_id)
{
	struct rte_ism_dev *dev;

	pthread_mutex_lock(&ism_registry_lock);
	dev = ism_dev_lookup(dev_id);
	if (dev != NULL)
		dev_stop_locked(dev);
	pthread_mutex_unlock(&ism_registry_lock);
	if (dev == NULL) {
		ISM_LOG(ERR, "no ISM device with id %u", dev_id);
		return -ENODEV;
	}
	return 0;
}

int
rte_ism_dev_close(uint16_t dev_id)
{
	if (dev_id >= RTE_ISM_MAX_DEVS) {
		ISM_LOG(ERR, "no ISM device with id %u", dev_id);
		return -ENODEV;
	}
	return dev_close(&ism_devs[dev_id], __func__);
}
