/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Basic and extended statistics of net_ism, from the counters of the
 * rings (each written by one side of the data path only; read here without
 * locks, 64-bit loads, rte_ism_ring_stats_get()). A reset takes a
 * snapshot that later reads subtract, so the data path never sees its
 * counters written by another thread.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ism_ethdev.h"

struct xstat_def {
	const char *name;	/* after "rx_qN_" / "tx_qN_" */
	size_t off;		/* in the ring's rx or tx stats */
};

#define RX_STAT(f) { #f, offsetof(struct rte_ism_ring_rx_stats, f) }
#define TX_STAT(f) { #f, offsetof(struct rte_ism_ring_tx_stats, f) }

/* Packets and bytes per queue are added by ethdev (AUTOFILL). */
static const struct xstat_def rx_xstats[] = {
	RX_STAT(bursts),
	RX_STAT(no_mbuf),
	RX_STAT(bad),
	RX_STAT(bad_slots),
	RX_STAT(credit_moves),
	RX_STAT(move_errors),
};

static const struct xstat_def tx_xstats[] = {
	TX_STAT(bursts),
	TX_STAT(ring_full),
	TX_STAT(too_big),
	TX_STAT(empty),
	TX_STAT(move_errors),
	TX_STAT(bad),
};

static const char *const port_xstats[] = {
	"link_up_count",
	"link_down_count",
};

static uint64_t
field(const void *st, size_t off)
{
	return *(const uint64_t *)RTE_PTR_ADD(st, off);
}

/* Counters of queue pair i since the last reset (zero without a ring). */
static void
queue_stats(const struct ism_eth_queue *q, struct rte_ism_ring_rx_stats *rx,
		struct rte_ism_ring_tx_stats *tx)
{
	memset(rx, 0, sizeof(*rx));
	memset(tx, 0, sizeof(*tx));
	if (q->ring != NULL)
		rte_ism_ring_stats_get(q->ring, rx, tx);
}

static uint16_t
nb_rxq(const struct rte_eth_dev *dev)
{
	const struct ism_eth_port *p = dev->data->dev_private;

	return p->queues == NULL ? 0 :
		RTE_MIN(dev->data->nb_rx_queues, p->nb_queues);
}

static uint16_t
nb_txq(const struct rte_eth_dev *dev)
{
	const struct ism_eth_port *p = dev->data->dev_private;

	return p->queues == NULL ? 0 :
		RTE_MIN(dev->data->nb_tx_queues, p->nb_queues);
}

int
ism_eth_stats_get(struct rte_eth_dev *dev, ISM_ETH_STATS_PARAMS(st))
{
	struct ism_eth_port *p = dev->data->dev_private;
	ISM_ETH_QSTATS_T *qs = ISM_ETH_QSTATS(st);
	const struct ism_eth_queue *q;
	struct rte_ism_ring_rx_stats rx;
	struct rte_ism_ring_tx_stats tx;
	uint64_t pkts, bytes;
	uint16_t i;

	for (i = 0; i < nb_rxq(dev); i++) {
		q = &p->queues[i];
		queue_stats(q, &rx, &tx);
		pkts = rx.pkts - q->rx_base.pkts;
		bytes = rx.bytes - q->rx_base.bytes;
		st->ipackets += pkts;
		st->ibytes += bytes;
		st->ierrors += rx.bad - q->rx_base.bad;
		st->rx_nombuf += rx.no_mbuf - q->rx_base.no_mbuf;
		if (qs != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_ipackets[i] = pkts;
			qs->q_ibytes[i] = bytes;
		}
	}
	for (i = 0; i < nb_txq(dev); i++) {
		q = &p->queues[i];
		queue_stats(q, &rx, &tx);
		pkts = tx.pkts - q->tx_base.pkts;
		bytes = tx.bytes - q->tx_base.bytes;
		st->opackets += pkts;
		st->obytes += bytes;
		st->oerrors += tx.too_big - q->tx_base.too_big +
			tx.empty - q->tx_base.empty +
			tx.move_errors - q->tx_base.move_errors +
			tx.bad - q->tx_base.bad;
		if (qs != NULL && i < RTE_ETHDEV_QUEUE_STAT_CNTRS) {
			qs->q_opackets[i] = pkts;
			qs->q_obytes[i] = bytes;
		}
	}
	return 0;
}

int
ism_eth_stats_reset(struct rte_eth_dev *dev)
{
	struct ism_eth_port *p = dev->data->dev_private;
	uint16_t i;

	for (i = 0; p->queues != NULL && i < p->nb_queues; i++)
		queue_stats(&p->queues[i], &p->queues[i].rx_base,
			    &p->queues[i].tx_base);
	p->link_up_base = p->link_up_count;
	p->link_down_base = p->link_down_count;
	return 0;
}

static unsigned int
xstats_count(const struct rte_eth_dev *dev)
{
	return RTE_DIM(port_xstats) + nb_rxq(dev) * RTE_DIM(rx_xstats) +
		nb_txq(dev) * RTE_DIM(tx_xstats);
}

int
ism_eth_xstats_get_names(struct rte_eth_dev *dev,
		struct rte_eth_xstat_name *names, unsigned int size)
{
	unsigned int n = xstats_count(dev), k = 0, j;
	uint16_t i;

	if (names == NULL || size < n)
		return n;
	for (j = 0; j < RTE_DIM(port_xstats); j++)
		snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE, "%s",
			 port_xstats[j]);
	for (i = 0; i < nb_rxq(dev); i++)
		for (j = 0; j < RTE_DIM(rx_xstats); j++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				 "rx_q%u_%s", i, rx_xstats[j].name);
	for (i = 0; i < nb_txq(dev); i++)
		for (j = 0; j < RTE_DIM(tx_xstats); j++)
			snprintf(names[k++].name, RTE_ETH_XSTATS_NAME_SIZE,
				 "tx_q%u_%s", i, tx_xstats[j].name);
	return n;
}

int
ism_eth_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		unsigned int size)
{
	struct ism_eth_port *p = dev->data->dev_private;
	unsigned int n = xstats_count(dev), k = 0, j;
	const struct ism_eth_queue *q;
	struct rte_ism_ring_rx_stats rx;
	struct rte_ism_ring_tx_stats tx;
	uint16_t i;

	if (xs == NULL || size < n)
		return n;
	xs[k].id = k;
	xs[k].value = p->link_up_count - p->link_up_base;
	k++;
	xs[k].id = k;
	xs[k].value = p->link_down_count - p->link_down_base;
	k++;
	for (i = 0; i < nb_rxq(dev); i++) {
		q = &p->queues[i];
		queue_stats(q, &rx, &tx);
		for (j = 0; j < RTE_DIM(rx_xstats); j++, k++) {
			xs[k].id = k;
			xs[k].value = field(&rx, rx_xstats[j].off) -
				field(&q->rx_base, rx_xstats[j].off);
		}
	}
	for (i = 0; i < nb_txq(dev); i++) {
		q = &p->queues[i];
		queue_stats(q, &rx, &tx);
		for (j = 0; j < RTE_DIM(tx_xstats); j++, k++) {
			xs[k].id = k;
			xs[k].value = field(&tx, tx_xstats[j].off) -
				field(&q->tx_base, tx_xstats[j].off);
		}
	}
	return n;
}
