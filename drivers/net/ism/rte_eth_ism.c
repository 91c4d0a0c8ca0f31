/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * net_ism: the ethdev operations, the burst functions and the vdev
 * driver. The rings are set up at the first start (one DMB per queue pair,
 * kept until close or reconfiguration), the handshake runs from start to
 * stop (ism_ctl.c).
 *
 * Secondary processes: the port's data (ethdev's, and ours in dev_private,
 * the queues and their counters) is in DPDK's shared memory, so a
 * secondary process (dpdk-proc-info, dpdk-dumpcap) attaches to the port
 * and reads its information, link and counters. It changes nothing: the
 * primary runs the port, its handshake and its rings, whose ISM device
 * (its mappings, its fast path) belongs to the primary; so the queues
 * receive and send nothing in a secondary (doc/guides/nics/ism.rst).
 */

#include <errno.h>
#include <string.h>

#include <ethdev_vdev.h>
#include <rte_errno.h>
#include <rte_malloc.h>

#include "ism_ethdev.h"

RTE_LOG_REGISTER_DEFAULT(ism_eth_logtype, NOTICE);

/* Burst functions: the ring's, RTE_ISM_RING_MAX_BURST at a time. No lock:
 * a control step of the handshake (ism_ctl.c) never waits for them, nor
 * they for it.
 */

static uint16_t
ism_eth_rx(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rte_ism_ring *r = ((struct ism_eth_queue *)queue)->ring;
	uint16_t got = 0, n, want;

	do {
		want = RTE_MIN(nb_pkts - got, RTE_ISM_RING_MAX_BURST);
		n = rte_ism_ring_recv(r, pkts + got, want);
		got += n;
	} while (n == want && got < nb_pkts);
	return got;
}

static uint16_t
ism_eth_tx(void *queue, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rte_ism_ring *r = ((struct ism_eth_queue *)queue)->ring;
	uint16_t sent = 0, n, want;

	do {
		want = RTE_MIN(nb_pkts - sent, RTE_ISM_RING_MAX_BURST);
		n = rte_ism_ring_send(r, pkts + sent, want);
		sent += n;
	} while (n == want && sent < nb_pkts);
	return sent;
}

/* Free the rings and the queues. A ring whose zero-copy mbufs are still
 * in use stays allocated, its DMB registered (their free callbacks use
 * it): -EBUSY, logged.
 */
static int
queues_free(struct ism_eth_port *p)
{
	bool busy = false;
	uint16_t i;

	for (i = 0; p->queues != NULL && i < p->nb_queues; i++) {
		if (rte_ism_ring_free(p->queues[i].ring) == -EBUSY)
			busy = true;	/* left behind on purpose */
		p->queues[i].ring = NULL;
	}
	if (busy)
		ISM_ETH_LOG(WARNING, "%s: zero-copy mbufs of the port are "
			    "still in use: their DMBs stay registered",
			    p->dev->data->name);
	rte_free(p->queues);
	p->queues = NULL;
	p->nb_queues = 0;
	return busy ? -EBUSY : 0;
}

static int
ism_eth_configure(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;
	uint16_t n = RTE_MAX(dev->data->nb_rx_queues,
			dev->data->nb_tx_queues);
	uint16_t i;
	int ret;

	ret = ism_ctl_dev_check(p, "configure");
	if (ret < 0)
		return ret;
	if (n == 0 || n > p->args.max_queues) {
		ISM_ETH_LOG(ERR, "%s: %u queue pairs: from 1 to %u (devarg "
			    "queues)", dev->data->name, n, p->args.max_queues);
		return -EINVAL;
	}
	/* Rings still holding zero-copy mbufs stay behind (logged); the new
	 * configuration gets new ones.
	 */
	ism_eth_intr_teardown(dev);
	queues_free(p);
	p->queues = rte_zmalloc_socket("net_ism_queues",
			n * sizeof(*p->queues), RTE_CACHE_LINE_SIZE,
			dev->data->numa_node);
	if (p->queues == NULL)
		return -ENOMEM;
	p->nb_queues = n;
	for (i = 0; i < n; i++) {
		p->queues[i].port = p;
		p->queues[i].qid = i;
	}
	return 0;
}

static int
ism_eth_rx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		uint16_t nb_desc __rte_unused, unsigned int socket __rte_unused,
		const struct rte_eth_rxconf *conf __rte_unused,
		struct rte_mempool *pool)
{
	struct ism_eth_port *p = dev->data->dev_private;
	struct ism_eth_queue *q = &p->queues[qid];
	int ret;

	ret = ism_ctl_dev_check(p, "rx queue setup");
	if (ret < 0)
		return ret;
	if (rte_pktmbuf_data_room_size(pool) <= RTE_PKTMBUF_HEADROOM) {
		ISM_ETH_LOG(ERR, "%s: rx queue %u: the mbufs of %s have no "
			    "data room", dev->data->name, qid, pool->name);
		return -EINVAL;
	}
	/* A ring set up with another pool is set up again at start. */
	if (q->ring != NULL && q->ring_pool != pool) {
		if (rte_ism_ring_free(q->ring) < 0) {
			ISM_ETH_LOG(ERR, "%s: rx queue %u: zero-copy mbufs of "
				    "the old pool are still in use",
				    dev->data->name, qid);
			return -EBUSY;
		}
		q->ring = NULL;
	}
	q->pool = pool;
	dev->data->rx_queues[qid] = q;
	return 0;
}

static int
ism_eth_tx_queue_setup(struct rte_eth_dev *dev, uint16_t qid,
		uint16_t nb_desc __rte_unused, unsigned int socket __rte_unused,
		const struct rte_eth_txconf *conf __rte_unused)
{
	struct ism_eth_port *p = dev->data->dev_private;
	int ret;

	ret = ism_ctl_dev_check(p, "tx queue setup");
	if (ret < 0)
		return ret;
	dev->data->tx_queues[qid] = &p->queues[qid];
	return 0;
}

/* Register the DMB of every ring not yet set up. */
static int
rings_init(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;
	struct rte_ism_ring_conf c = {
		.dev_id = p->args.dev_id,
		.port = dev->data->port_id,
		.peer = p->args.peer,
		.geom = p->args.geom,
		.zero_copy = p->args.zero_copy,
		.poll_cursor = true,	/* rings share the device's signals */
		/* Signals then only wake a sleeping receiver (ism_intr.c). */
		.rx_signals = ism_eth_intr_wanted(dev),
	};
	uint16_t room = UINT16_MAX, i;
	struct ism_eth_queue *q;
	int ret;

	for (i = 0; i < p->nb_queues; i++) {
		q = &p->queues[i];
		/* A ring without an rx queue takes its pool from queue 0;
		 * nothing polls it, so it never allocates.
		 */
		c.pool = q->pool != NULL ? q->pool : p->queues[0].pool;
		if (c.pool == NULL) {
			ISM_ETH_LOG(ERR, "%s: queue pair %u: the port needs an "
				    "rx queue 0 (its mempool)", dev->data->name,
				    i);
			return -EINVAL;
		}
		room = RTE_MIN(room, rte_pktmbuf_data_room_size(c.pool) -
			       RTE_PKTMBUF_HEADROOM);
		if (q->ring != NULL)
			continue;
		q->ring = rte_ism_ring_create(&c);
		if (q->ring == NULL) {
			ret = -rte_errno;
			ISM_ETH_LOG(ERR, "%s: queue pair %u: cannot register "
				    "a DMB of %" PRIu64 " bytes on %s: %s",
				    dev->data->name, i,
				    rte_ism_ring_dmb_len(&c.geom), p->args.ism,
				    strerror(-ret));
			return ret;
		}
		q->ring_pool = c.pool;
	}
	/* Copy mode chains mbufs for a frame longer than their data room. */
	dev->data->scattered_rx = !p->args.zero_copy &&
		dev->data->mtu + ISM_ETH_OVERHEAD > room;
	return 0;
}

static int
ism_eth_start(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;
	uint16_t i;
	int ret;

	/* Never register a ring on an id that may be another device's. */
	ret = ism_ctl_dev_check(p, "start");
	if (ret < 0)
		return ret;
	ret = rings_init(dev);
	if (ret < 0)
		return ret;
	for (i = 0; i < p->nb_queues; i++)
		rte_ism_ring_set_max_len(p->queues[i].ring,
				ism_eth_max_len(dev->data->mtu));
	ret = ism_eth_intr_setup(dev);
	if (ret < 0)
		return ret;
	ret = ism_ctl_port_start(p);
	if (ret < 0)
		return ret;
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STARTED;
	return 0;
}

static int
ism_eth_stop(struct rte_eth_dev *dev)
{
	uint16_t i;

	ism_ctl_port_stop(dev->data->dev_private);
	for (i = 0; i < dev->data->nb_rx_queues; i++)
		dev->data->rx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	for (i = 0; i < dev->data->nb_tx_queues; i++)
		dev->data->tx_queue_state[i] = RTE_ETH_QUEUE_STATE_STOPPED;
	return 0;
}

static int
ism_eth_close(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return 0;
	ism_ctl_port_stop(p);
	ism_ctl_port_del(p);
	ism_eth_intr_teardown(dev);
	/* The rings are freed here (kept, with a warning, while zero-copy
	 * mbufs point into them); ethdev frees dev_private and the MAC
	 * address when it releases the port.
	 */
	queues_free(p);
	return 0;
}

static int
ism_eth_info(struct rte_eth_dev *dev, struct rte_eth_dev_info *info)
{
	struct ism_eth_port *p = dev->data->dev_private;

	info->max_mac_addrs = 1;
	info->max_rx_queues = p->args.max_queues;
	info->max_tx_queues = p->args.max_queues;
	info->min_mtu = RTE_ETHER_MIN_MTU;
	info->max_mtu = ISM_ETH_MAX_MTU;
	info->max_rx_pktlen = ISM_ETH_MAX_MTU + ISM_ETH_OVERHEAD;
	info->min_rx_bufsize = 0;
	info->rx_offload_capa = RTE_ETH_RX_OFFLOAD_SCATTER;
	info->tx_offload_capa = RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	info->speed_capa = RTE_ETH_LINK_SPEED_FIXED;
	info->default_rxportconf.burst_size = 32;
	info->default_txportconf.burst_size = 32;
	info->default_rxportconf.nb_queues = 1;
	info->default_txportconf.nb_queues = 1;
	return 0;
}

/* The control thread keeps dev_link up to date. */
static int
ism_eth_link_update(struct rte_eth_dev *dev __rte_unused,
		int wait_to_complete __rte_unused)
{
	return 0;
}

static int
ism_eth_mtu_set(struct rte_eth_dev *dev, uint16_t mtu)
{
	struct ism_eth_port *p = dev->data->dev_private;
	uint16_t i;
	int ret;

	ret = ism_ctl_dev_check(p, "MTU");
	if (ret < 0)
		return ret;
	for (i = 0; p->queues != NULL && i < p->nb_queues; i++)
		rte_ism_ring_set_max_len(p->queues[i].ring,
				ism_eth_max_len(mtu));
	return 0;
}

/* No filtering to switch: every packet of the peer is for this port. */
static int
ism_eth_nop(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

static int
ism_eth_mac_set(struct rte_eth_dev *dev __rte_unused,
		struct rte_ether_addr *addr __rte_unused)
{
	return 0;
}

/* A secondary process: no data path (see the file comment). */
static uint16_t
ism_eth_burst_secondary(void *queue __rte_unused,
		struct rte_mbuf **pkts __rte_unused, uint16_t nb __rte_unused)
{
	static bool __rte_atomic warned;

	if (!rte_atomic_exchange_explicit(&warned, true,
			rte_memory_order_relaxed))
		ISM_ETH_LOG(WARNING, "net_ism: the queues of a port carry "
			    "packets in the primary process only");
	return 0;
}

/* A secondary process: it closes its view of the port only. */
static int
ism_eth_close_secondary(struct rte_eth_dev *dev __rte_unused)
{
	return 0;
}

/* What a secondary process may call: it reads, the primary writes. */
static const struct eth_dev_ops ism_eth_ops_secondary = {
	.dev_close = ism_eth_close_secondary,
	.dev_infos_get = ism_eth_info,
	.link_update = ism_eth_link_update,
	.promiscuous_enable = ism_eth_nop,
	.promiscuous_disable = ism_eth_nop,
	.allmulticast_enable = ism_eth_nop,
	.allmulticast_disable = ism_eth_nop,
	.stats_get = ism_eth_stats_get,
	.xstats_get = ism_eth_xstats_get,
	.xstats_get_names = ism_eth_xstats_get_names,
};

static int
ism_eth_probe_secondary(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_eth_dev *dev;

	dev = rte_eth_dev_attach_secondary(name);
	if (dev == NULL) {
		ISM_ETH_LOG(ERR, "%s: the primary process has no such port",
			    name);
		return -ENODEV;
	}
	dev->device = &vdev->device;
	dev->dev_ops = &ism_eth_ops_secondary;
	dev->rx_pkt_burst = ism_eth_burst_secondary;
	dev->tx_pkt_burst = ism_eth_burst_secondary;
	rte_eth_dev_probing_finish(dev);
	return 0;
}

static const struct eth_dev_ops ism_eth_ops = {
	.dev_configure = ism_eth_configure,
	.dev_start = ism_eth_start,
	.dev_stop = ism_eth_stop,
	.dev_close = ism_eth_close,
	.dev_infos_get = ism_eth_info,
	.rx_queue_setup = ism_eth_rx_queue_setup,
	.tx_queue_setup = ism_eth_tx_queue_setup,
	.link_update = ism_eth_link_update,
	.mtu_set = ism_eth_mtu_set,
	.promiscuous_enable = ism_eth_nop,
	.promiscuous_disable = ism_eth_nop,
	.allmulticast_enable = ism_eth_nop,
	.allmulticast_disable = ism_eth_nop,
	.mac_addr_set = ism_eth_mac_set,
	.stats_get = ism_eth_stats_get,
	.stats_reset = ism_eth_stats_reset,
	.xstats_get = ism_eth_xstats_get,
	.xstats_get_names = ism_eth_xstats_get_names,
	.xstats_reset = ism_eth_stats_reset,
	.rx_queue_intr_enable = ism_eth_rx_intr_enable,
	.rx_queue_intr_disable = ism_eth_rx_intr_disable,
};

static int
ism_eth_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct rte_ether_addr *mac;
	struct rte_eth_dev *dev;
	struct ism_eth_port *p;
	struct ism_eth_args a;
	int ret;

	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return ism_eth_probe_secondary(vdev);
	ret = ism_eth_args_parse(name, rte_vdev_device_args(vdev), &a);
	if (ret < 0)
		return ret;
	mac = rte_zmalloc_socket(name, sizeof(*mac), 0,
			vdev->device.numa_node);
	if (mac == NULL)
		return -ENOMEM;
	dev = rte_eth_vdev_allocate(vdev, sizeof(*p));
	if (dev == NULL) {
		rte_free(mac);
		return -ENOMEM;
	}
	*mac = a.mac;
	p = dev->data->dev_private;
	p->dev = dev;
	p->args = a;
	dev->data->mac_addrs = mac;
	dev->data->dev_link.link_status = RTE_ETH_LINK_DOWN;
	dev->data->dev_link.link_duplex = RTE_ETH_LINK_FULL_DUPLEX;
	dev->data->dev_link.link_autoneg = RTE_ETH_LINK_FIXED;
	dev->data->promiscuous = 1;
	dev->data->all_multicast = 1;
	dev->data->dev_flags |= RTE_ETH_DEV_INTR_LSC |
		RTE_ETH_DEV_AUTOFILL_QUEUE_XSTATS;
	dev->dev_ops = &ism_eth_ops;
	dev->rx_pkt_burst = ism_eth_rx;
	dev->tx_pkt_burst = ism_eth_tx;
	ret = ism_ctl_port_add(p);
	if (ret < 0) {
		rte_eth_dev_release_port(dev);
		return ret;
	}
	rte_eth_dev_probing_finish(dev);
	ISM_ETH_LOG(INFO, "%s: over %s, %s, up to %u queue pairs, rings of "
		    "%u slots of %u bytes", name, a.ism,
		    a.zero_copy ? "zero-copy" : "copy", a.max_queues,
		    a.geom.nb_slots, a.geom.slot_size);
	return 0;
}

static int
ism_eth_remove(struct rte_vdev_device *vdev)
{
	struct rte_eth_dev *dev;

	dev = rte_eth_dev_allocated(rte_vdev_device_name(vdev));
	if (dev == NULL)
		return 0;
	/* A secondary process forgets its view of the port. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return rte_eth_dev_release_port(dev);
	/* Hot-unplug of a running port: ethdev closes stopped ports only. */
	if (dev->data->dev_started)
		rte_eth_dev_stop(dev->data->port_id);
	return rte_eth_dev_close(dev->data->port_id);
}

static struct rte_vdev_driver ism_eth_driver = {
	.probe = ism_eth_probe,
	.remove = ism_eth_remove,
};

RTE_PMD_REGISTER_VDEV(net_ism, ism_eth_driver);
RTE_PMD_REGISTER_PARAM_STRING(net_ism, ISM_ETH_PARAMS);
