/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Rx interrupts of net_ism (dev_conf.intr_conf.rxq): an Rx queue's
 * interrupt is its ISM device's wake-up (rte_ism.h, "Waiting without
 * spinning"). With Rx interrupts the receive rings ask their senders to
 * raise a signal with each publication (rte_ism_ring_conf rx_signals):
 * the device's summary bit then goes from clear to set at the first
 * publication after the receiver last drained the signals, and that raise
 * wakes the device's descriptor when the device is armed. While nobody is
 * armed a sender makes no system call.
 *
 * The descriptor is the device's, so every Rx queue of every port on one
 * ISM device wakes with it. The port puts it in an epoll instance of its
 * own with an eventfd of its own (our wake-ups: a ring with something
 * when enabling, the link going down), and efds[q] of the port's
 * interrupt handle is a dup() of that epoll instance per queue (one epoll
 * instance may hold them all; epoll keys on the file and the fd number).
 * The eventfd is never passed to anyone, and stays readable after the ISM
 * device (and its descriptor) went away: a queue asleep when the device
 * is removed wakes. EAL adds the efds edge-triggered and, with a counter
 * size of 0, never reads them: the device's descriptor and our eventfd
 * are cleared when the last queue of the device is disabled
 * (rte_ism_intr_disable()), so one queue's disable never swallows
 * another's wake-up. We never read or write the device's descriptor.
 *
 * Enabling queue q (rx_queue_intr_enable, on the lcore that polls it):
 * drain the device's signals (their only use here is the wake-up: the
 * rings are read by their cursors), arm the device, then look at ring q:
 * if it has something, write our eventfd. A publication after
 * the drain sets the summary bit and so wakes; one before it is in the
 * ring, which is looked at after arming.
 */

#include <fcntl.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

#include <rte_interrupts.h>

#include "ism_ethdev.h"

/* Per ISM device: the Rx queues (of every port on it) with their
 * interrupt enabled; the device is armed while there are any.
 */
static struct {
	rte_spinlock_t lock;	/* zero: unlocked */
	uint32_t enabled;
} intr_devs[RTE_ISM_MAX_DEVS];

static void
kick(struct ism_eth_port *p)
{
	uint64_t one = 1;

	/* own-fd: the port's eventfd (EFD_NONBLOCK), never passed. EAGAIN:
	 * at the counter's maximum, readable anyway.
	 */
	if (write(p->intr_kick, &one, sizeof(one)) < 0 && errno != EAGAIN)
		ISM_ETH_LOG(ERR, "%s: Rx interrupt eventfd: %s",
			    p->dev->data->name, strerror(errno));
}

static void
kick_clear(struct ism_eth_port *p)
{
	uint64_t n;

	/* own-fd: the port's eventfd (EFD_NONBLOCK), never passed. */
	while (read(p->intr_kick, &n, sizeof(n)) == sizeof(n))
		;
}

/* The port's epoll instance with the device's descriptor and our eventfd
 * in it: 0 or a negative errno, nothing left on failure.
 */
static int
port_ep_open(struct ism_eth_port *p, int dev_fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ret;

	p->intr_ep = epoll_create1(EPOLL_CLOEXEC);
	p->intr_kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (p->intr_ep >= 0 && p->intr_kick >= 0 &&
	    epoll_ctl(p->intr_ep, EPOLL_CTL_ADD, dev_fd, &ev) == 0 &&
	    epoll_ctl(p->intr_ep, EPOLL_CTL_ADD, p->intr_kick, &ev) == 0)
		return 0;
	ret = -errno;
	if (p->intr_ep >= 0)
		close(p->intr_ep);
	if (p->intr_kick >= 0)
		close(p->intr_kick);
	p->intr_ep = -1;
	p->intr_kick = -1;
	return ret;
}

bool
ism_eth_intr_wanted(const struct rte_eth_dev *dev)
{
	const struct ism_eth_port *p = dev->data->dev_private;
	struct rte_ism_dev_info info;

	return dev->data->dev_conf.intr_conf.rxq != 0 &&
		rte_ism_info_get(p->args.dev_id, &info) == 0 &&
		(info.capa & RTE_ISM_CAPA_INTR) != 0;
}

int
ism_eth_intr_setup(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;
	uint16_t nb = dev->data->nb_rx_queues, q;
	struct rte_intr_handle *h;
	int fd, efd, ret = -ENOMEM;

	if (dev->intr_handle != NULL || nb == 0 ||
	    dev->data->dev_conf.intr_conf.rxq == 0)
		return 0;
	if (!ism_eth_intr_wanted(dev)) {
		ISM_ETH_LOG(WARNING, "%s: %s has no interrupt mode: no Rx "
			    "interrupts (the queues are polled)",
			    dev->data->name, p->args.ism);
		return 0;
	}
	fd = rte_ism_intr_fd_get(p->args.dev_id);
	if (fd < 0)
		return fd;
	ret = port_ep_open(p, fd);
	if (ret < 0) {
		ISM_ETH_LOG(ERR, "%s: cannot set up the Rx interrupts: %s",
			    dev->data->name, strerror(-ret));
		return ret;
	}
	fd = p->intr_ep;
	ret = -ENOMEM;
	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (h == NULL || rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_efd_counter_size_set(h, 0) != 0 ||
	    rte_intr_vec_list_alloc(h, "net_ism_intr_vec", nb) != 0)
		goto err;
	for (q = 0; q < nb; q++) {
		efd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (efd < 0) {
			ret = -errno;
			goto err;
		}
		if (rte_intr_efds_index_set(h, q, efd) != 0) {
			close(efd);
			goto err;
		}
		rte_intr_nb_efd_set(h, q + 1);
		if (rte_intr_vec_list_index_set(h, q,
				RTE_INTR_VEC_RXTX_OFFSET + q) != 0)
			goto err;
	}
	rte_intr_max_intr_set(h, nb + 1);
	dev->intr_handle = h;
	return 0;
err:
	ISM_ETH_LOG(ERR, "%s: cannot set up the Rx interrupts: %s",
		    dev->data->name, strerror(-ret));
	for (q = 0; h != NULL && (int)q < rte_intr_nb_efd_get(h); q++)
		close(rte_intr_efds_index_get(h, q));
	rte_intr_vec_list_free(h);
	rte_intr_instance_free(h);
	close(p->intr_ep);
	close(p->intr_kick);
	return ret;
}

void
ism_eth_intr_teardown(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;
	struct rte_intr_handle *h = dev->intr_handle;
	uint16_t q;

	for (q = 0; p->queues != NULL && q < p->nb_queues; q++)
		if (p->queues[q].intr_on)
			ism_eth_rx_intr_disable(dev, q);
	if (h == NULL)
		return;
	dev->intr_handle = NULL;
	for (q = 0; (int)q < rte_intr_nb_efd_get(h); q++)
		close(rte_intr_efds_index_get(h, q));
	rte_intr_vec_list_free(h);
	rte_intr_instance_free(h);
	close(p->intr_ep);
	close(p->intr_kick);
}

int
ism_eth_rx_intr_enable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct ism_eth_port *p = dev->data->dev_private;
	struct ism_eth_queue *q = &p->queues[qid];
	uint16_t id = p->args.dev_id;
	struct rte_ism_signal sig[32];
	bool pending;
	int ret;

	if (dev->intr_handle == NULL || qid >= p->nb_queues)
		return -ENOTSUP;
	/* The id of a removed device may be another's now. */
	if (ism_ctl_dev_gone(p))
		return -ENODEV;
	rte_spinlock_lock(&intr_devs[id].lock);
	/* Drained, the summary bit is clear: the next raise wakes. */
	while (rte_ism_signal_poll(id, sig, RTE_DIM(sig)) ==
	       (int)RTE_DIM(sig))
		;
	ret = rte_ism_intr_enable(id);
	if (ret == 0 && !q->intr_on) {
		q->intr_on = true;
		intr_devs[id].enabled++;
	}
	rte_spinlock_unlock(&intr_devs[id].lock);
	if (ret < 0)
		return ret;
	/* Armed: what was published before the drain is in the ring (any
	 * thread may ask the ring; no ring yet: nothing to receive).
	 */
	pending = q->ring != NULL && rte_ism_ring_rx_pending(q->ring);
	if (pending)
		kick(p);
	return 0;
}

int
ism_eth_rx_intr_disable(struct rte_eth_dev *dev, uint16_t qid)
{
	struct ism_eth_port *p = dev->data->dev_private;
	struct ism_eth_queue *q;
	uint16_t id = p->args.dev_id;
	int ret = 0;

	if (qid >= p->nb_queues)
		return -ENOTSUP;
	q = &p->queues[qid];
	rte_spinlock_lock(&intr_devs[id].lock);
	if (q->intr_on) {
		q->intr_on = false;
		/* The last one clears the descriptors: nobody else waits. */
		if (--intr_devs[id].enabled == 0) {
			kick_clear(p);
			if (!ism_ctl_dev_gone(p))
				ret = rte_ism_intr_disable(id);
		}
	}
	rte_spinlock_unlock(&intr_devs[id].lock);
	return ret;
}

void
ism_eth_intr_kick(struct ism_eth_port *p)
{
	/* The queues share our eventfd. */
	if (p->dev->intr_handle != NULL)
		kick(p);
}
