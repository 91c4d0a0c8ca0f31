/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Interrupt mode of the client API (rte_ism.h, "Waiting without
 * spinning"): the checks, then the driver's ops. Signals are the driver's
 * (its armed flag is where the writers can read it); events are queued by
 * the library, which tells the driver after each one.
 */

#include <string.h>

#include <rte_epoll.h>
#include <rte_interrupts.h>

#include <eal_export.h>

#include "ism_private.h"

/* The device, if it has the interrupt mode; logs why not. */
static struct rte_ism_dev *
intr_dev_get(uint16_t dev_id, const char *caller, int *err)
{
	struct rte_ism_dev *dev = ism_dev_get(dev_id, caller);

	*err = -ENODEV;
	if (dev == NULL)
		return NULL;
	/* The descriptor and the armed flag are the primary's user's; a
	 * secondary's device has no such ops.
	 */
	*err = ism_primary_only(dev, caller);
	if (*err < 0)
		return NULL;
	if (!(dev->capa & RTE_ISM_CAPA_INTR)) {
		RTE_LOG_LINE(ERR, ISM, "%s(): %s (%s) has no interrupt mode",
			caller, dev->name, dev->driver_name);
		*err = -ENOTSUP;
		return NULL;
	}
	return dev;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_intr_fd_get, 26.03)
int
rte_ism_intr_fd_get(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret, fd;

	dev = intr_dev_get(dev_id, __func__, &ret);
	if (dev == NULL)
		return ret;
	fd = rte_intr_fd_get(dev->dev_ops->intr_handle_get(dev));
	if (fd < 0) {
		ISM_LOG(ERR, "%s: no wake-up descriptor", dev->name);
		return -EIO;
	}
	return fd;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_intr_enable, 26.03)
int
rte_ism_intr_enable(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = intr_dev_get(dev_id, __func__, &ret);
	if (dev == NULL)
		return ret;
	/* The driver's arm ends with a full barrier: an event queued before
	 * the flag was visible is seen here, one queued after it sees the
	 * flag (ism_intr_event_posted).
	 */
	ret = dev->dev_ops->intr_arm(dev, true);
	if (ret < 0) {
		ISM_LOG(ERR, "%s: cannot arm the wake-up: %s", dev->name,
			strerror(-ret));
		return ret;
	}
	if (rte_ism_pmd_event_space(dev) < RTE_ISM_EVENT_QUEUE_SIZE)
		dev->dev_ops->intr_event(dev);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_intr_disable, 26.03)
int
rte_ism_intr_disable(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = intr_dev_get(dev_id, __func__, &ret);
	if (dev == NULL)
		return ret;
	ret = dev->dev_ops->intr_arm(dev, false);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot disarm the wake-up: %s", dev->name,
			strerror(-ret));
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_intr_kick, 26.03)
int
rte_ism_intr_kick(uint16_t dev_id)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = intr_dev_get(dev_id, __func__, &ret);
	if (dev == NULL)
		return ret;
	/* What the driver does for a queued event: wake if armed. */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	dev->dev_ops->intr_event(dev);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_intr_ctl, 26.03)
int
rte_ism_intr_ctl(uint16_t dev_id, int epfd, int op, void *data)
{
	struct rte_ism_dev *dev;
	int ret;

	dev = intr_dev_get(dev_id, __func__, &ret);
	if (dev == NULL)
		return ret;
	if (op != RTE_INTR_EVENT_ADD && op != RTE_INTR_EVENT_DEL) {
		ISM_LOG(ERR, "%s: op %d is neither RTE_INTR_EVENT_ADD nor "
			"RTE_INTR_EVENT_DEL", dev->name, op);
		return -EINVAL;
	}
	/* Vector RTE_INTR_VEC_RXTX_OFFSET is efds[0], the descriptor. */
	ret = rte_intr_rx_ctl(dev->dev_ops->intr_handle_get(dev), epfd, op,
			RTE_INTR_VEC_RXTX_OFFSET, data);
	if (ret < 0)
		ISM_LOG(ERR, "%s: cannot %s the wake-up descriptor %s epoll "
			"instance %d: %s", dev->name,
			op == RTE_INTR_EVENT_ADD ? "add" : "remove",
			op == RTE_INTR_EVENT_ADD ? "to" : "from", epfd,
			ret == -EEXIST ? "added already" : strerror(-ret));
	return ret;
}

void
ism_intr_event_posted(struct rte_ism_dev *dev)
{
	if (!(dev->capa & RTE_ISM_CAPA_INTR))
		return;
	/* The event is in the queue (a spinlock's release store) before the
	 * driver loads its armed flag: without a full barrier that load could
	 * pass the store, and a client arming at that moment would neither
	 * find the event nor be woken.
	 */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	dev->dev_ops->intr_event(dev);
}
