/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_ETHDEV_H
#define ISM_ETHDEV_H

/*
 * net_ism: an ethdev over any ISM device (doc/guides/nics/ism.rst).
 *
 * A port talks to one peer (a GID) through one ISM device. Queue pair i is
 * ring i of librte_ism_ring: its receive side (our DMB i) is rx queue i,
 * its send side (the peer's DMB i) tx queue i. A control thread of the
 * driver (ism_ctl.c) runs the handshake of every port, dispatching the
 * events of each ISM device to the ports that use it, and turns the state
 * of each link into the port's link status. The burst functions take no
 * lock and share nothing with it: the ring library hands each connection
 * over to them (lib/ism_ring/ism_ring_private.h).
 *
 * A port holds its ISM device through a removal callback of librte_ism
 * (ism_ctl.c): when the device is closed or removed, the port says goodbye
 * to its peer, gives its DMBs back, takes its link down (LSC event) and
 * never uses the device's id again; every later call that needs the
 * device fails with -ENODEV (doc/guides/nics/ism.rst).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <ethdev_driver.h>
#include <rte_ether.h>

#include <rte_ism.h>
#include <rte_ism_ring.h>

#include <ism_compat.h>

extern int ism_eth_logtype;
#define RTE_LOGTYPE_NET_ISM ism_eth_logtype
#define ISM_ETH_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, NET_ISM, fmt, ##__VA_ARGS__)

#define ISM_ETH_MAX_QUEUES	RTE_ISM_RING_MAX_RINGS
#define ISM_ETH_MAX_MTU		9000
/* Frame overhead the ethdev layer adds to the MTU (header and CRC). */
#define ISM_ETH_OVERHEAD	(RTE_ETHER_HDR_LEN + RTE_ETHER_CRC_LEN)
#define ISM_ETH_DEFAULT_SLOT	128
/* Default ring: as many slots as fit in this and in the device's DMBs. */
#define ISM_ETH_DEFAULT_DMB	(1u << 20)

/* The devargs (ism_devargs.c), for RTE_PMD_REGISTER_PARAM_STRING. */
#define ISM_ETH_PARAMS \
	"ism=<ISM device name> " \
	"peer=<peer GID> " \
	"zero-copy=yes|no " \
	"queues=<1-16> " \
	"slot-size=<64-32768, power of 2> " \
	"ring-slots=<16-524288, power of 2> " \
	"mac=<xx:xx:xx:xx:xx:xx>"

/* The devargs, checked. */
struct ism_eth_args {
	char ism[RTE_ISM_NAME_LEN];	/* ISM device name */
	uint16_t dev_id;		/* its id */
	struct rte_ism_gid gid;		/* its GID */
	struct rte_ism_gid peer;
	bool zero_copy;
	uint16_t max_queues;
	struct rte_ism_ring_geom geom;	/* of each receive ring */
	struct rte_ether_addr mac;
};

struct ism_eth_port;

/*
 * Rate limit of a port's link lines, which a peer can make repeat (one
 * that breaks the ring protocol after each new connection, or restarts
 * again and again): at most ISM_ETH_LINK_LOG_BURST lines per
 * ISM_ETH_LINK_LOG_WINDOW_S; the number held back is logged when the
 * window ends (the control thread's round). The control thread's, under
 * its lock.
 */
#define ISM_ETH_LINK_LOG_BURST		10
#define ISM_ETH_LINK_LOG_WINDOW_S	5

struct ism_eth_log_rl {
	uint64_t window_end;	/* timer cycles */
	uint32_t printed;	/* lines in this window */
	uint64_t suppressed;	/* lines held back in this window */
};

/* Queue pair i: rx queue i and tx queue i of the port. */
struct __rte_cache_aligned ism_eth_queue {
	/* Ring i, created at the first start (DMB registered), kept until
	 * close or reconfiguration; the burst functions use nothing else.
	 */
	struct rte_ism_ring *ring;
	struct ism_eth_port *port;
	struct rte_mempool *pool;	/* of rx queue i */
	struct rte_mempool *ring_pool;	/* the ring's, when it was created */
	uint16_t qid;
	bool intr_on;			/* Rx interrupt enabled (ism_intr.c) */
	/* Counters at the last stats reset. */
	struct rte_ism_ring_rx_stats rx_base;
	struct rte_ism_ring_tx_stats tx_base;
};

/* dev_private of a port. */
struct ism_eth_port {
	TAILQ_ENTRY(ism_eth_port) next;	/* in the control thread's list */
	struct rte_eth_dev *dev;
	struct ism_eth_args args;
	uint16_t nb_queues;		/* ring pairs: max(rx, tx) queues */
	struct ism_eth_queue *queues;	/* [nb_queues] */
	/* Below: the control thread's, under its lock. */
	struct rte_ism_ring_link link;
	bool announcing;		/* started: the link is run */
	bool dev_gone;			/* its ISM device was removed */
	bool link_up;			/* as the port reports it */
	uint64_t link_up_count;
	uint64_t link_down_count;
	uint64_t link_up_base, link_down_base;	/* at the last reset */
	struct ism_eth_log_rl link_log;	/* of the link lines */
	/* Rx interrupts (ism_intr.c), while dev->intr_handle is set: the
	 * queues' epoll instance (the device's descriptor and our own
	 * eventfd in it) and that eventfd.
	 */
	int intr_ep;
	int intr_kick;
};

/* ism_devargs.c */
int ism_eth_args_parse(const char *name, const char *params,
		struct ism_eth_args *a);

/* ism_ctl.c */
int ism_ctl_port_add(struct ism_eth_port *p);
void ism_ctl_port_del(struct ism_eth_port *p);
int ism_ctl_port_start(struct ism_eth_port *p);
void ism_ctl_port_stop(struct ism_eth_port *p);
/* Another port of the process already talks to this peer on this device. */
const char *ism_ctl_peer_taken(const struct ism_eth_args *a);
/* 0, or -ENODEV (logged) once the port's ISM device was removed. */
int ism_ctl_dev_check(struct ism_eth_port *p, const char *what);
/* The port's ISM device was removed (no log: for calls made often). */
bool ism_ctl_dev_gone(struct ism_eth_port *p);

/* ism_intr.c: Rx interrupts. */
/* intr_conf.rxq asked and the ISM device has the interrupt mode. */
bool ism_eth_intr_wanted(const struct rte_eth_dev *dev);
/* dev->intr_handle for the Rx queues (at start; 0 also without). */
int ism_eth_intr_setup(struct rte_eth_dev *dev);
void ism_eth_intr_teardown(struct rte_eth_dev *dev);
int ism_eth_rx_intr_enable(struct rte_eth_dev *dev, uint16_t qid);
int ism_eth_rx_intr_disable(struct rte_eth_dev *dev, uint16_t qid);
/* Wake whoever waits for the port's Rx queues (link down). */
void ism_eth_intr_kick(struct ism_eth_port *p);

/* ism_stats.c */
int ism_eth_stats_get(struct rte_eth_dev *dev, ISM_ETH_STATS_PARAMS(st));
int ism_eth_stats_reset(struct rte_eth_dev *dev);
int ism_eth_xstats_get_names(struct rte_eth_dev *dev,
		struct rte_eth_xstat_name *names, unsigned int size);
int ism_eth_xstats_get(struct rte_eth_dev *dev, struct rte_eth_xstat *xs,
		unsigned int n);

/* Longest packet the port sends at this MTU (one or two VLAN tags). */
static inline uint32_t
ism_eth_max_len(uint16_t mtu)
{
	return mtu + RTE_ETHER_HDR_LEN + 2 * RTE_VLAN_HLEN;
}

#endif /* ISM_ETHDEV_H */
