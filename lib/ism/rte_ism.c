/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * librte_ism: the one registry of ISM devices (ids, names, private areas),
 * the fast-path table, and the life cycle of a device (allocate,
 * probing_finish = visible and started, stop, start, close, release).
 *
 * What every process must see of a device is in a memzone (struct
 * ism_dev_data, as ethdev's rte_eth_dev_data), written by the primary;
 * each process keeps its own struct rte_ism_dev beside it (ops, fast-path
 * functions, removal callbacks: addresses that mean something in that
 * process only). A secondary process attaches to the devices its drivers
 * probe there, and checks on every call that the primary has not closed
 * or removed them meanwhile (the device's serial).
 *
 * The control calls on DMBs, events and VLANs are in ism_ctrl.c, the
 * counters in ism_stats.c, the removal callbacks in ism_dev_cb.c.
 */

#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_memzone.h>
#include <rte_string_fns.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_private.h"
#include "ism_driver_sync.h"

RTE_LOG_REGISTER_DEFAULT(ism_logtype, INFO);

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_fp_ops, 26.03)
struct rte_ism_fp_ops rte_ism_fp_ops[RTE_ISM_MAX_DEVS];

static struct rte_ism_dev ism_devs[RTE_ISM_MAX_DEVS];
/* The memzone of struct ism_shared, once reserved (primary) or found
 * (secondary); NULL before.
 */
static struct ism_shared *ism_shared;
static pthread_mutex_t ism_reg_lock = PTHREAD_MUTEX_INITIALIZER;
/* Set once a dummy has complained about a slot, so the log is not flooded. */
static RTE_ATOMIC(bool) fp_dummy_warned[RTE_ISM_MAX_DEVS];
/* "No ISM device with id N" per id, and one for ids out of range. */
static struct ism_log_rl nodev_log[RTE_ISM_MAX_DEVS + 1];

void
ism_registry_lock(void)
{
	pthread_mutex_lock(&ism_reg_lock);
}

void
ism_registry_unlock(void)
{
	pthread_mutex_unlock(&ism_reg_lock);
}

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
	struct ism_dev_data *data;

	if (id >= RTE_ISM_MAX_DEVS)
		return -ENODEV;
	data = ism_devs[id].data;
	if (is_move && data != NULL)
		rte_atomic_fetch_add_explicit(&data->no_device, 1,
				rte_memory_order_relaxed);
	if (!rte_atomic_load_explicit(&fp_dummy_warned[id], rte_memory_order_relaxed)) {
		rte_atomic_store_explicit(&fp_dummy_warned[id], true, rte_memory_order_relaxed);
		ISM_LOG(ERR, "ISM device %u is not started%s or does not exist",
			(unsigned int)id, ism_is_primary() ? "" :
			" (nor usable in a secondary process)");
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

/* The shared data: reserved by the primary at its first device, found by
 * a secondary. Called with the registry lock held.
 */
static struct ism_shared *
shared_get(bool create)
{
	const struct rte_memzone *mz;

	if (ism_shared != NULL)
		return ism_shared;
	mz = rte_memzone_lookup(ISM_DEV_DATA_MZ);
	if (mz == NULL && create && ism_is_primary()) {
		mz = rte_memzone_reserve(ISM_DEV_DATA_MZ,
				sizeof(struct ism_shared), SOCKET_ID_ANY, 0);
		if (mz != NULL) {
			memset(mz->addr, 0, sizeof(struct ism_shared));
			((struct ism_shared *)mz->addr)->next_serial = 1;
		}
	}
	if (mz != NULL)
		ism_shared = mz->addr;
	return ism_shared;
}

/* In a secondary process, a device stays usable while the primary's slot
 * still holds it: attached, with the serial we attached to.
 */
static bool
primary_holds(const struct rte_ism_dev *dev)
{
	const struct ism_dev_data *d = dev->data;

	return rte_atomic_load_explicit(&d->state, rte_memory_order_acquire) ==
		ISM_DEV_ATTACHED &&
		rte_atomic_load_explicit(&d->serial, rte_memory_order_relaxed) ==
		dev->serial;
}

struct rte_ism_dev *
ism_dev_lookup(uint16_t dev_id)
{
	struct rte_ism_dev *dev;

	if (dev_id >= RTE_ISM_MAX_DEVS)
		return NULL;
	dev = &ism_devs[dev_id];
	if (!rte_atomic_load_explicit(&dev->attached, rte_memory_order_acquire))
		return NULL;
	if (!ism_is_primary() && !primary_holds(dev))
		return NULL;
	return dev;
}

struct rte_ism_dev *
ism_dev_get(uint16_t dev_id, const char *caller)
{
	struct rte_ism_dev *dev = ism_dev_lookup(dev_id);
	struct ism_log_rl *rl;
	char more[64] = "";
	uint64_t quiet;

	if (dev != NULL)
		return dev;
	rl = &nodev_log[RTE_MIN(dev_id, RTE_ISM_MAX_DEVS)];
	if (ism_log_rl_ok(rl, &quiet)) {
		if (quiet > 0)
			snprintf(more, sizeof(more), " (and %" PRIu64
				 " such calls not logged)", quiet);
		RTE_LOG_LINE(ERR, ISM, "%s(): no ISM device with id %u%s",
			caller, dev_id, more);
	}
	return NULL;
}

int
ism_primary_only(const struct rte_ism_dev *dev, const char *caller)
{
	if (ism_is_primary())
		return 0;
	RTE_LOG_LINE(ERR, ISM, "%s(): %s: not allowed in a secondary process "
		"(only the primary changes a device or polls its events)",
		caller, dev != NULL ? dev->name : "?");
	return -E_RTE_SECONDARY;
}

static bool
name_ok(const char *name)
{
	if (name == NULL || name[0] == '\0' ||
	    strnlen(name, RTE_ISM_NAME_LEN) == RTE_ISM_NAME_LEN) {
		ISM_LOG(ERR, "device name missing or longer than %d chars",
			RTE_ISM_NAME_LEN - 1);
		return false;
	}
	return true;
}

/* A slot of this process taken from allocation (or attach) to release,
 * not only while the device is visible: a driver may probe in between,
 * and a closed device keeps its id and name until it is removed.
 */
static bool
slot_taken(const struct rte_ism_dev *dev)
{
	return dev->data != NULL;
}

/* Driver side. */

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_allocate)
struct rte_ism_dev *
rte_ism_pmd_allocate(const char *name, int socket_id, size_t priv_size)
{
	struct rte_ism_dev *dev = NULL;
	struct ism_event_queue *evq = NULL;
	struct ism_dev_data *data;
	struct ism_shared *sh;
	void *priv = NULL;
	uint16_t i, free_id = RTE_ISM_MAX_DEVS;

	if (!ism_is_primary()) {
		ISM_LOG(ERR, "%s: devices are created by the primary process",
			name != NULL ? name : "?");
		rte_errno = E_RTE_SECONDARY;
		return NULL;
	}
	if (!name_ok(name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	/* On the device's node, where its driver and client use them;
	 * anywhere rather than no device if that node has no memory left.
	 */
	evq = ism_evq_create(socket_id);
	if (priv_size > 0) {
		priv = rte_zmalloc_socket("ism_dev_private", priv_size,
				RTE_CACHE_LINE_SIZE, socket_id);
		if (priv == NULL && socket_id != SOCKET_ID_ANY)
			priv = rte_zmalloc("ism_dev_private", priv_size,
					RTE_CACHE_LINE_SIZE);
	}
	if (evq == NULL || (priv_size > 0 && priv == NULL)) {
		ISM_LOG(ERR, "%s: no memory for the device (%zu bytes of "
			"private data and its event queue)", name, priv_size);
		rte_errno = ENOMEM;
		goto out_free;
	}

	ism_registry_lock();
	ism_sync_init();
	sh = shared_get(true);
	if (sh == NULL) {
		ISM_LOG(ERR, "%s: cannot reserve memzone %s: %s", name,
			ISM_DEV_DATA_MZ, rte_strerror(rte_errno));
		rte_errno = ENOMEM;
		goto out;
	}
	for (i = 0; i < RTE_ISM_MAX_DEVS; i++) {
		if (!slot_taken(&ism_devs[i])) {
			if (free_id == RTE_ISM_MAX_DEVS)
				free_id = i;
		} else if (strcmp(ism_devs[i].name, name) == 0) {
			ISM_LOG(ERR, "an ISM device named %s exists", name);
			rte_errno = EEXIST;
			goto out;
		}
	}
	if (free_id == RTE_ISM_MAX_DEVS) {
		ISM_LOG(ERR, "%s: all %d ISM device ids in use", name,
			RTE_ISM_MAX_DEVS);
		rte_errno = ENOSPC;
		goto out;
	}
	data = &sh->devs[free_id];
	memset(data, 0, sizeof(*data));
	rte_strlcpy(data->name, name, sizeof(data->name));
	data->socket_id = socket_id;
	data->dev_private = priv;
	data->evq = evq;
	data->state = ISM_DEV_PROBING;
	rte_atomic_store_explicit(&data->serial, sh->next_serial++,
			rte_memory_order_release);

	dev = &ism_devs[free_id];
	memset(dev, 0, sizeof(*dev));
	TAILQ_INIT(&dev->cbs);
	rte_strlcpy(dev->name, name, sizeof(dev->name));
	dev->dev_id = free_id;
	dev->socket_id = socket_id;
	dev->dev_private = priv;
	dev->evq = evq;
	dev->serial = data->serial;
	dev->data = data;
	/* Not attached (visible) until probing_finish. */
	priv = NULL;
	evq = NULL;
out:
	ism_registry_unlock();
out_free:
	rte_free(priv);
	ism_evq_free(evq);
	return dev;
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_attach_secondary)
struct rte_ism_dev *
rte_ism_pmd_attach_secondary(const char *name)
{
	struct rte_ism_dev *dev = NULL;
	struct ism_dev_data *data;
	struct ism_shared *sh;
	uint16_t i;

	if (ism_is_primary()) {
		ISM_LOG(ERR, "%s: the primary process allocates its devices",
			name != NULL ? name : "?");
		rte_errno = E_RTE_SECONDARY;
		return NULL;
	}
	if (!name_ok(name)) {
		rte_errno = EINVAL;
		return NULL;
	}
	ism_registry_lock();
	sh = shared_get(false);
	for (i = 0; sh != NULL && i < RTE_ISM_MAX_DEVS; i++) {
		data = &sh->devs[i];
		if (rte_atomic_load_explicit(&data->state,
				rte_memory_order_acquire) == ISM_DEV_ATTACHED &&
		    strncmp(data->name, name, sizeof(data->name)) == 0)
			break;
	}
	if (sh == NULL || i == RTE_ISM_MAX_DEVS) {
		ISM_LOG(ERR, "%s: the primary process has no such ISM device",
			name);
		rte_errno = ENODEV;
		goto out;
	}
	if (slot_taken(&ism_devs[i])) {
		ISM_LOG(ERR, "%s: attached already", name);
		rte_errno = EEXIST;
		goto out;
	}
	dev = &ism_devs[i];
	memset(dev, 0, sizeof(*dev));
	TAILQ_INIT(&dev->cbs);
	/* The identity as the primary published it. */
	rte_strlcpy(dev->name, data->name, sizeof(dev->name));
	dev->dev_id = i;
	dev->socket_id = data->socket_id;
	dev->driver_name = data->driver_name;
	dev->backend = data->backend;
	dev->gid = data->gid;
	dev->chid = data->chid;
	dev->max_dmbs = data->max_dmbs;
	dev->max_dmb_len = data->max_dmb_len;
	dev->capa = data->capa;
	dev->dev_private = data->dev_private;
	dev->evq = data->evq;
	dev->serial = data->serial;
	dev->data = data;
out:
	ism_registry_unlock();
	return dev;
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_get_named_dev)
struct rte_ism_dev *
rte_ism_pmd_get_named_dev(const char *name)
{
	struct rte_ism_dev *dev = NULL;
	uint16_t i;

	if (name == NULL)
		return NULL;
	ism_registry_lock();
	for (i = 0; i < RTE_ISM_MAX_DEVS; i++)
		if (slot_taken(&ism_devs[i]) &&
		    strcmp(ism_devs[i].name, name) == 0) {
			dev = &ism_devs[i];
			break;
		}
	ism_registry_unlock();
	return dev;
}

static bool
dev_is_allocated(const struct rte_ism_dev *dev)
{
	return dev >= ism_devs && dev < ism_devs + RTE_ISM_MAX_DEVS &&
		dev == &ism_devs[dev->dev_id] && slot_taken(dev);
}

/* The field the driver forgot, or NULL. */
static const char *
missing_field(const struct rte_ism_dev *dev)
{
	const struct rte_ism_dev_ops *ops = dev->dev_ops;

	if (ops == NULL)
		return "dev_ops";
	if (!ism_is_primary())
		return NULL;	/* the rest is the primary's */
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
	dev->data->started = true;
	return 0;
}

/* Called with the registry lock held. The fast path is off whatever the
 * driver says; its error is returned (and logged).
 */
static int
dev_stop_locked(struct rte_ism_dev *dev)
{
	int ret = 0;

	if (!dev->started)
		return 0;
	fp_stop(dev->dev_id);
	dev->started = false;
	dev->data->started = false;
	/* No move may still be inside the driver when stop returns. */
	rte_ism_pmd_synchronize();
	if (dev->dev_ops->dev_stop != NULL)
		ret = dev->dev_ops->dev_stop(dev);
	if (ret < 0)
		ISM_LOG(ERR, "%s: driver stop failed: %s (the fast path is off "
			"all the same)", dev->name, strerror(-ret));
	return ret;
}

/* What a secondary process reads of the device, once the driver set it. */
static void
publish(struct rte_ism_dev *dev)
{
	struct ism_dev_data *d = dev->data;

	rte_strlcpy(d->driver_name, dev->driver_name != NULL ?
		    dev->driver_name : "", sizeof(d->driver_name));
	rte_strlcpy(d->backend, dev->backend != NULL ? dev->backend : "",
		    sizeof(d->backend));
	d->gid = dev->gid;
	d->chid = dev->chid;
	d->max_dmbs = dev->max_dmbs;
	d->max_dmb_len = dev->max_dmb_len;
	d->capa = dev->capa;
	rte_atomic_store_explicit(&d->state, ISM_DEV_ATTACHED,
			rte_memory_order_release);
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_probing_finish)
int
rte_ism_pmd_probing_finish(struct rte_ism_dev *dev)
{
	const char *missing;
	int ret = 0;

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
	ism_registry_lock();
	if (ism_is_primary()) {
		/* Probed means ready: applications that use only rte_ism_*
		 * find the fast path enabled.
		 */
		ret = dev_start_locked(dev);
		if (ret == 0)
			publish(dev);
	}
	if (ret == 0)
		rte_atomic_store_explicit(&dev->attached, true,
				rte_memory_order_release);
	ism_registry_unlock();
	return ret;
}

/* The holders first (the device still works for them), then stop, hide,
 * and let the driver free the backend (outside the lock: a driver may
 * wait for its peers there).
 */
static int
dev_close(struct rte_ism_dev *dev, const char *caller)
{
	int ret = 0, ret2;

	ism_registry_lock();
	if (!dev->attached || dev->closing) {
		ism_registry_unlock();
		if (dev->closing)
			RTE_LOG_LINE(ERR, ISM, "%s(): %s is being closed",
				caller, dev->name);
		else
			ism_dev_get(dev->dev_id, caller);
		return dev->closing ? -EBUSY : -ENODEV;
	}
	dev->closing = true;
	ism_registry_unlock();

	ism_dev_cb_run(dev);

	ism_registry_lock();
	ret = dev_stop_locked(dev);
	rte_atomic_store_explicit(&dev->attached, false,
			rte_memory_order_release);
	dev->closed = true;
	rte_atomic_store_explicit(&dev->data->state, ISM_DEV_CLOSED,
			rte_memory_order_release);
	/* The driver's context is about to go: the entry keeps only the
	 * slot number, as for a slot without a device.
	 */
	fp_reset(dev->dev_id);
	ism_registry_unlock();
	if (dev->dev_ops->dev_close != NULL) {
		ret2 = dev->dev_ops->dev_close(dev);
		if (ret2 < 0)
			ISM_LOG(ERR, "%s: driver close failed: %s (closed all "
				"the same)", dev->name, strerror(-ret2));
		if (ret == 0)
			ret = ret2;
	}
	return ret;
}

/* A secondary process forgets a device: its holders first. */
static void
dev_detach_secondary(struct rte_ism_dev *dev)
{
	ism_registry_lock();
	dev->closing = true;
	ism_registry_unlock();
	if (dev->attached)
		ism_dev_cb_run(dev);
	else
		ism_dev_cb_drop(dev);
	ism_registry_lock();
	memset(dev, 0, sizeof(*dev));
	ism_registry_unlock();
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_release)
int
rte_ism_pmd_release(struct rte_ism_dev *dev)
{
	struct ism_event_queue *evq;
	struct ism_dev_data *data;
	bool attached;
	void *priv;
	uint16_t id;

	ism_registry_lock();
	if (dev == NULL || !dev_is_allocated(dev)) {
		ism_registry_unlock();
		ISM_LOG(ERR, "not an allocated ISM device (released twice?)");
		return -EINVAL;
	}
	attached = dev->attached;
	ism_registry_unlock();
	if (!ism_is_primary()) {
		dev_detach_secondary(dev);
		return 0;
	}
	if (attached)
		dev_close(dev, __func__);
	else
		ism_dev_cb_drop(dev);

	ism_registry_lock();
	evq = dev->evq;
	priv = dev->dev_private;
	data = dev->data;
	id = dev->dev_id;
	/* A secondary that still looks at the slot sees it free. */
	rte_atomic_store_explicit(&data->state, ISM_DEV_FREE,
			rte_memory_order_release);
	rte_atomic_store_explicit(&data->serial, 0, rte_memory_order_release);
	memset(dev, 0, sizeof(*dev));
	fp_reset(id);
	fp_dummy_warned[id] = false;
	ism_registry_unlock();
	ism_evq_free(evq);
	rte_free(priv);
	return 0;
}

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_event_post)
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

RTE_EXPORT_INTERNAL_SYMBOL(rte_ism_pmd_event_space)
uint32_t
rte_ism_pmd_event_space(struct rte_ism_dev *dev)
{
	return dev != NULL && dev->evq != NULL ? ism_evq_space(dev->evq) : 0;
}

/* Client side: discovery and life cycle. */

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_count, 26.03)
uint16_t
rte_ism_dev_count(void)
{
	uint16_t i, n = 0;

	for (i = 0; i < RTE_ISM_MAX_DEVS; i++)
		if (ism_dev_lookup(i) != NULL)
			n++;
	return n;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_is_valid_dev, 26.03)
bool
rte_ism_is_valid_dev(uint16_t dev_id)
{
	return ism_dev_lookup(dev_id) != NULL;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_next, 26.03)
uint16_t
rte_ism_dev_next(uint16_t start)
{
	while (start < RTE_ISM_MAX_DEVS && ism_dev_lookup(start) == NULL)
		start++;
	return start;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_get_dev_id, 26.03)
int
rte_ism_get_dev_id(const char *name)
{
	struct rte_ism_dev *dev;
	uint16_t i;

	if (name == NULL) {
		ISM_LOG(ERR, "NULL name");
		return -EINVAL;
	}
	for (i = 0; i < RTE_ISM_MAX_DEVS; i++) {
		dev = ism_dev_lookup(i);
		if (dev != NULL && strcmp(dev->name, name) == 0)
			return i;
	}
	ISM_LOG(ERR, "no ISM device named \"%s\"", name);
	return -ENODEV;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_info_get, 26.03)
int
rte_ism_info_get(uint16_t dev_id, struct rte_ism_dev_info *info)
{
	struct rte_ism_dev *dev;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
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
	/* The device's state, which is the primary's. */
	info->started = rte_atomic_load_explicit(&dev->data->started,
			rte_memory_order_relaxed);
	info->serial = dev->serial;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_start, 26.03)
int
rte_ism_dev_start(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret = -ENODEV;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ism_registry_lock();
	dev = ism_dev_lookup(dev_id);
	if (dev != NULL)
		ret = dev_start_locked(dev);
	ism_registry_unlock();
	if (dev == NULL)
		ism_dev_get(dev_id, __func__);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_stop, 26.03)
int
rte_ism_dev_stop(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret = -ENODEV;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	ism_registry_lock();
	dev = ism_dev_lookup(dev_id);
	if (dev != NULL)
		ret = dev_stop_locked(dev);
	ism_registry_unlock();
	if (dev == NULL)
		ism_dev_get(dev_id, __func__);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_close, 26.03)
int
rte_ism_dev_close(uint16_t dev_id)
{
	struct rte_ism_dev *dev;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	return dev_close(dev, __func__);
}
