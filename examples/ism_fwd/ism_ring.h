/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_RING_H
#define ISM_RING_H

/*
 * A packet ring between two ISM devices, one per direction, written with
 * remote writes only (never remote reads).
 *
 * Each side registers ONE DMB that only its peer may write. It holds the
 * ring the peer sends into, plus the credits of the ring in the peer's DMB:
 *
 *   offset 0     line 0: prod   slots the peer has published in this ring
 *   offset 64    line 1: cons   slots of the ring in the PEER's DMB that the
 *                               peer has consumed (credits for our sends)
 *                        start  where our sending starts (handshake only)
 *   offset 128   desc[nb_slots] one descriptor per packet, at its first slot
 *   slots_off    slot[nb_slots] slot_size bytes each
 *
 * Cursors are free-running 32-bit slot counts. A packet of len bytes takes
 * ceil(len / slot_size) consecutive slots, so its bytes are contiguous in
 * the DMB except where the ring wraps. The sender moves packet data and
 * descriptors, then the producer cursor as the last segment of the same
 * rte_ism_move_burst() with sf=1: one signal per burst. The receiver polls
 * its signals, reads its own DMB, and moves its consumer cursor into the
 * sender's DMB (sf=0: the sender reads it from its own memory only when it
 * runs out of credits, so a signal would cost a poll for nothing), every
 * sixteenth of the ring or whenever it finds nothing new.
 *
 * The layout is the same in copy and zero-copy mode, so the two sides may
 * choose their modes independently.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_mbuf.h>

#include <rte_ism.h>

#define ISM_RING_PROD_OFF	0
#define ISM_RING_CREDIT_OFF	64
#define ISM_RING_DESC_OFF	128

#define ISM_RING_MAX_BURST	64	/* packets per send/recv call */
#define ISM_RING_MAX_SEGS	256	/* move segments per rte_ism_move_burst */
#define ISM_RING_SLOT_MIN	64
#define ISM_RING_SLOT_MAX	32768	/* zero-copy: mbuf buf_len is 16 bits */
#define ISM_RING_SLOTS_MIN	16
#define ISM_RING_SLOTS_MAX	(1u << 20)

/* Line 1 of a DMB: written by the peer's receive side. */
struct ism_ring_credit {
	uint32_t cons;		/* peer consumed up to here */
	uint32_t start;		/* our first prod after the handshake */
};

struct ism_ring_desc {
	uint32_t len;		/* packet length in bytes */
	uint32_t flags;		/* 0, reserved */
};

/* Geometry of one ring; the receiver chooses it, the sender learns it in
 * the handshake. Both are powers of two. */
struct ism_ring_geom {
	uint32_t nb_slots;
	uint32_t slot_size;
};

struct ism_ring_stats {
	uint64_t tx_pkts, tx_bytes;	/* sent into the peer's ring */
	uint64_t rx_pkts, rx_bytes;	/* received from our ring */
	uint64_t tx_bursts, rx_bursts;	/* signalled bursts */
	uint64_t tx_ring_full;		/* send stopped for lack of credits */
	uint64_t tx_too_big;		/* dropped: larger than the ring */
	uint64_t tx_empty;		/* dropped: zero length */
	uint64_t rx_no_mbuf;		/* receive waited for mbufs */
	uint64_t rx_bad;		/* protocol errors (bad cursor/desc) */
	uint64_t rx_bad_slots;		/* slots skipped after an error */
	uint64_t credit_moves;		/* consumer cursor updates sent */
	uint64_t move_errors;		/* failed moves */
};

struct ism_ring_conf {
	uint16_t dev_id;		/* ISM device */
	struct rte_ism_gid peer;	/* the one GID allowed to write us */
	struct ism_ring_geom geom;	/* of our receive ring */
	struct rte_mempool *pool;	/* receive mbufs */
	bool zero_copy;			/* attach instead of copy */
};

struct ism_ring {
	uint16_t dev_id;
	bool zero_copy;
	struct rte_mempool *pool;
	uint16_t room;			/* data bytes per pool mbuf */
	int last_error;			/* a move failed: peer gone? */

	/* Our DMB: the ring the peer sends into. */
	struct rte_ism_dmb dmb;
	struct ism_ring_geom rx_geom;
	uint32_t rx_shift;		/* log2(slot_size) */
	uint32_t rx_idx_mask;		/* nb_slots - 1 */
	uint32_t rx_ring_mask;		/* bytes of the slot area - 1 */
	uint8_t *rx_slots;
	const struct ism_ring_desc *rx_desc;
	uint32_t rx_prod;		/* last producer cursor read */
	uint32_t rx_next;		/* next slot to hand out */
	uint32_t rx_cons;		/* slots given back (credited) */
	uint32_t rx_start;		/* rx_next when the peer connected */
	uint32_t credit_sent;		/* rx_cons last moved to the peer */
	uint32_t credit_batch;		/* slots worth a credit update */
	/* Zero copy: an mbuf per packet run, freed out of order. */
	struct rte_mbuf_ext_shared_info *shinfo;	/* [nb_slots] */
	uint32_t *run;			/* slots held by the run at a slot */
	uint8_t *freed;			/* run at this slot is free */
	rte_iova_t *iova;		/* of each slot, or RTE_BAD_IOVA */

	/* The peer's DMB: the ring we send into. */
	uint64_t peer_token;		/* 0: no peer */
	bool tx_ready;			/* handshake done */
	struct ism_ring_geom tx_geom;
	uint32_t tx_shift;		/* log2(slot_size) */
	uint32_t tx_idx_mask;		/* nb_slots - 1 */
	uint32_t tx_ring_mask;		/* bytes of its slot area - 1 */
	uint32_t tx_slots_off;
	uint32_t tx_prod;		/* published cursor */
	uint32_t tx_cons;		/* last credits read */
	struct ism_ring_desc *tx_desc;	/* copy: local mirror of its descs */
	uint8_t *tx_map;		/* zero copy: its DMB, attached */
	struct rte_ism_move_seg segs[ISM_RING_MAX_SEGS];
	uint16_t nb_segs;

	struct ism_ring_stats stats;
};

/* Bytes of a DMB holding a ring of this geometry, and where slots start. */
uint32_t ism_ring_slots_off(const struct ism_ring_geom *g);
uint64_t ism_ring_dmb_len(const struct ism_ring_geom *g);
/* 0 if both fields are powers of two within limits, else -EINVAL. */
int ism_ring_geom_check(const struct ism_ring_geom *g);

/* Register our DMB (rgid = conf->peer). 0 or a negative errno. */
int ism_ring_init(struct ism_ring *r, const struct ism_ring_conf *conf);
/* Forget the peer, detach, unregister our DMB, free everything.
 * Zero-copy mbufs still pointing into the DMB must be freed before. */
void ism_ring_fini(struct ism_ring *r);

/*
 * Handshake steps (see handshake.c):
 * peer_set    a peer (token, geometry of its ring) announced itself; our
 *             receive ring restarts at rx_next; we may receive;
 * announce    move {cons, start} into its DMB (before confirming);
 * tx_start    it confirmed: read {cons, start} from our DMB, start sending;
 * peer_clear  it is gone: stop sending, drop what it sent but we did not
 *             receive, detach.
 */
int ism_ring_peer_set(struct ism_ring *r, uint64_t token,
		const struct ism_ring_geom *geom);
int ism_ring_announce(struct ism_ring *r);
int ism_ring_tx_start(struct ism_ring *r);
void ism_ring_peer_clear(struct ism_ring *r);

/*
 * Like rte_eth_tx_burst(): returns how many of pkts were taken (sent, or
 * dropped and counted if empty or too big); those mbufs are freed. The rest
 * stay with the caller (the ring is full, or the peer is not ready).
 */
uint16_t ism_ring_send(struct ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts);

/* Like rte_eth_rx_burst(); also gives credits back to the peer. */
uint16_t ism_ring_recv(struct ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts);

/* Zero copy: slots still held by mbufs the application has not freed. */
static inline uint32_t
ism_ring_rx_held(const struct ism_ring *r)
{
	return r->rx_next - r->rx_cons;
}

static inline bool
ism_ring_tx_ready(const struct ism_ring *r)
{
	return r->tx_ready;
}

#endif /* ISM_RING_H */
