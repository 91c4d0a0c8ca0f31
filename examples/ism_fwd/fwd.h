/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_FWD_H
#define ISM_FWD_H

#include <stdbool.h>
#include <stdint.h>

#include <rte_mbuf.h>

#include <rte_ism_ring.h>

/* Largest packet the generator builds and the checker reads. */
#define FWD_MAX_PKT	9728

enum fwd_mode {
	FWD_IOFWD,		/* port -> ISM -> peer; peer -> ISM -> port */
	FWD_TXONLY,		/* generate packets into ISM */
	FWD_RXONLY,		/* receive from ISM, count, free */
	FWD_LOOPBACK_CHECK,	/* generate numbered packets, verify returns */
};

struct fwd_conf {
	enum fwd_mode mode;
	const char *ism_dev;		/* NULL: the first ISM device */
	struct rte_ism_gid peer;
	uint16_t port;			/* iofwd */
	bool zero_copy;
	uint16_t burst;
	struct rte_ism_ring_geom geom;	/* 0: derived from the device */
	uint32_t pkt_min, pkt_max;	/* generated sizes */
	uint64_t nb_pkts;		/* to generate, 0: no limit */
	uint64_t stop_after_rx;		/* 0: no limit */
	double stats_period;		/* seconds, 0: only at exit */
	double drain_time;		/* loopback-check: wait for returns */
	bool exit_on_peer_loss;
	uint32_t nb_mbufs;
};

struct fwd_stats {
	uint64_t port_rx, port_tx;
	uint64_t port_full;		/* port took fewer than offered */
	uint64_t gen_pkts;		/* generated */
	uint64_t gen_no_mbuf;		/* generator waited for mbufs */
	uint64_t peer_down_drops;	/* queued for a peer that went away */
	uint64_t delivered;		/* from the peer, handled */
	uint64_t chk_ok, chk_lost, chk_corrupt, chk_reordered;
};

/* Packets taken from a source, not yet accepted by the sink. */
struct pkt_queue {
	struct rte_mbuf *m[RTE_ISM_RING_MAX_BURST];
	uint16_t head;
	uint16_t n;
};

struct fwd_ctx {
	const struct fwd_conf *conf;
	struct rte_ism_ring *ring;
	struct rte_mempool *pool;
	bool has_port;
	struct fwd_stats st;
	struct pkt_queue to_ism;	/* port or generator -> ring */
	struct pkt_queue to_port;	/* ring -> port */
	uint64_t gen_seq;		/* next sequence number to generate */
	uint64_t chk_next;		/* next sequence number expected */
	uint64_t last_rx_tsc;		/* loopback-check drain */
	uint8_t tmpl[64];		/* Ethernet/IPv4/UDP header template */
};

/* modes.c */
void fwd_ctx_init(struct fwd_ctx *c, const struct fwd_conf *conf,
		struct rte_ism_ring *ring, struct rte_mempool *pool, bool has_port);
void fwd_iteration(struct fwd_ctx *c);
void fwd_peer_gone(struct fwd_ctx *c);
bool fwd_done(struct fwd_ctx *c, uint64_t now);
void fwd_flush(struct fwd_ctx *c);
int fwd_exit_status(const struct fwd_ctx *c);

/* stats.c */
struct stats_snap {
	uint64_t tsc;
	struct rte_ism_ring_rx_stats rx;
	struct rte_ism_ring_tx_stats tx;
	struct fwd_stats fwd;
};
void stats_snap(struct stats_snap *s, const struct fwd_ctx *c, uint64_t now);
void stats_print_period(const struct stats_snap *prev,
		const struct stats_snap *cur, double since_start);
void stats_print_final(const struct stats_snap *first,
		const struct stats_snap *last, const struct fwd_ctx *c);

#endif /* ISM_FWD_H */
