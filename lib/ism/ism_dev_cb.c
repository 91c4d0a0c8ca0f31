/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Removal callbacks: how the holders of a device (a net_ism port, a ring,
 * an application) learn that it is being closed or removed, while it still
 * works, so that they stop using its id before its memory goes and before
 * the id can name another device. The rule is written in rte_ism.h
 * ("Holders of a device id") and in the programmer's guide.
 *
 * Each process keeps its own list per device (function pointers mean
 * something in one process only). The list is changed under the registry
 * lock; a callback runs without any lock of the library, on the thread
 * that closes or removes the device, so that it may call rte_ism_* on the
 * device (unregister its DMBs, say goodbye to its peers) and unregister
 * callbacks, its own included.
 */

#include <pthread.h>
#include <stdlib.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_private.h"

struct ism_dev_cb {
	TAILQ_ENTRY(ism_dev_cb) next;
	rte_ism_dev_remove_cb_t fn;
	void *arg;
	bool running;		/* being called now */
	pthread_t thread;	/* by this thread */
};

/* The device of this id whose list may be changed, or NULL. Called with
 * the registry lock held.
 */
static struct rte_ism_dev *
cb_dev(uint16_t dev_id)
{
	struct rte_ism_dev *dev = ism_dev_lookup(dev_id);

	return dev != NULL && !dev->closing ? dev : NULL;
}

static struct ism_dev_cb *
cb_find(struct rte_ism_dev *dev, rte_ism_dev_remove_cb_t fn, void *arg)
{
	struct ism_dev_cb *cb;

	TAILQ_FOREACH(cb, &dev->cbs, next)
		if (cb->fn == fn && cb->arg == arg)
			return cb;
	return NULL;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_remove_callback_register, 26.03)
int
rte_ism_dev_remove_callback_register(uint16_t dev_id,
		rte_ism_dev_remove_cb_t fn, void *arg)
{
	struct rte_ism_dev *dev;
	struct ism_dev_cb *cb;
	int ret = 0;

	if (fn == NULL) {
		ISM_LOG(ERR, "NULL callback for device %u", dev_id);
		return -EINVAL;
	}
	cb = calloc(1, sizeof(*cb));
	if (cb == NULL)
		return -ENOMEM;
	cb->fn = fn;
	cb->arg = arg;
	ism_registry_lock();
	dev = cb_dev(dev_id);
	if (dev == NULL)
		ret = -ENODEV;
	else if (cb_find(dev, fn, arg) != NULL)
		ret = -EEXIST;
	else
		TAILQ_INSERT_TAIL(&dev->cbs, cb, next);
	ism_registry_unlock();
	if (ret == 0)
		return 0;
	free(cb);
	if (ret == -ENODEV)
		ism_dev_get(dev_id, __func__);
	else
		ISM_LOG(ERR, "%s: callback registered already", dev->name);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_dev_remove_callback_unregister, 26.03)
int
rte_ism_dev_remove_callback_unregister(uint16_t dev_id,
		rte_ism_dev_remove_cb_t fn, void *arg)
{
	struct rte_ism_dev *dev;
	struct ism_dev_cb *cb = NULL;
	int ret = -ENOENT;

	if (dev_id >= RTE_ISM_MAX_DEVS)
		return -ENOENT;
	ism_registry_lock();
	/* Also while the callbacks run (closing): a callback may drop
	 * others, or itself.
	 */
	dev = ism_dev_lookup(dev_id);
	if (dev != NULL)
		cb = cb_find(dev, fn, arg);
	if (cb != NULL && !cb->running) {
		TAILQ_REMOVE(&dev->cbs, cb, next);
		free(cb);
		ret = 0;
	} else if (cb != NULL) {
		/* From the callback's own thread it is dropped once it
		 * returns; another thread must wait for that (as
		 * rte_eth_dev_callback_unregister()).
		 */
		ret = pthread_equal(cb->thread, pthread_self()) ? 0 : -EAGAIN;
	}
	ism_registry_unlock();
	/* No entry is no error worth a line: a holder may unregister after
	 * the device went (its callback then ran already).
	 */
	return ret;
}

void
ism_dev_cb_run(struct rte_ism_dev *dev)
{
	struct ism_dev_cb *cb;

	for (;;) {
		ism_registry_lock();
		cb = TAILQ_FIRST(&dev->cbs);
		if (cb != NULL) {
			cb->running = true;
			cb->thread = pthread_self();
		}
		ism_registry_unlock();
		if (cb == NULL)
			return;
		cb->fn(dev->dev_id, cb->arg);
		ism_registry_lock();
		TAILQ_REMOVE(&dev->cbs, cb, next);
		ism_registry_unlock();
		free(cb);
	}
}

void
ism_dev_cb_drop(struct rte_ism_dev *dev)
{
	struct ism_dev_cb *cb;

	ism_registry_lock();
	while ((cb = TAILQ_FIRST(&dev->cbs)) != NULL) {
		TAILQ_REMOVE(&dev->cbs, cb, next);
		free(cb);
	}
	ism_registry_unlock();
}
