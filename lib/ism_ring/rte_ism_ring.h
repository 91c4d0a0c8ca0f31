/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_ISM_RING_H
#define RTE_ISM_RING_H

/**
 * @file
 *
 * A packet ring over ISM, one per direction, written with remote writes
 * only (never remote reads): the ring protocol of the ``net_ism`` ethdev
 * and of the ``ism_fwd`` sample (see doc/guides/nics/ism.rst).
 *
 * @warning
 * @b EXPERIMENTAL:
 * All functions in this file may be changed or removed without prior notice.
 *
 * Each side of a ring registers ONE DMB that only its peer may write. It
 * holds the ring the peer sends into, plus the credits of the ring in the
 * peer's DMB:
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
 * rte_ism_move_burst() (with a signal if the receiver polls signals). The
 * receiver reads its own DMB and moves its consumer cursor into the
 * sender's DMB every sixteenth of the ring or whenever it finds nothing
 * new. The layout is the same in copy and zero-copy mode, so the two sides
 * choose their modes independently.
 *
 * Threading: rte_ism_ring_send() and rte_ism_ring_recv() may run at the
 * same time on two threads (one each). The control functions (peer_set,
 * announce, tx_start, peer_clear, set_max_len) take rx_lock and tx_lock;
 * a caller that runs send or recv on another thread than the control
 * functions holds the matching lock around each call (a trylock: if the
 * control path has it, there is nothing to do this time).
 *
 * The peers find each other with the handshake of struct rte_ism_ring_link
 * (below), over ISM events only: no side channel.
 */

#include <stdalign.h>
#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_compat.h>
#include <rte_mbuf.h>
#include <rte_spinlock.h>

#include <rte_ism.h>

#include <ism_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RTE_ISM_RING_PROD_OFF	0	/**< producer cursor (line 0) */
#define RTE_ISM_RING_CREDIT_OFF	64	/**< credits of the peer's ring */
#define RTE_ISM_RING_DESC_OFF	128	/**< descriptors */

#define RTE_ISM_RING_MAX_BURST	64	/**< packets per send/recv call */
#define RTE_ISM_RING_MAX_SEGS	256	/**< segments per move burst */
#define RTE_ISM_RING_SLOT_MIN	64	/**< smallest slot, bytes */
#define RTE_ISM_RING_SLOT_MAX	32768	/**< zero-copy: buf_len is 16 bits */
#define RTE_ISM_RING_SLOTS_MIN	16	/**< fewest slots per ring */
#define RTE_ISM_RING_SLOTS_MAX	(1u << 19) /**< most slots per ring */
#define RTE_ISM_RING_MAX_RINGS	16	/**< rings of one link */

/** Line 1 of a DMB: written by the peer's receive side. */
struct rte_ism_ring_credit {
	uint32_t cons;		/**< peer consumed up to here */
	uint32_t start;		/**< our first prod after the handshake */
};

/** One per packet, at the index of its first slot. */
struct rte_ism_ring_desc {
	uint32_t len;		/**< packet length in bytes */
	uint32_t flags;		/**< 0, reserved */
};

/** Geometry of one ring; the receiver chooses it, the sender learns it in
 * the handshake. Both are powers of two. */
struct rte_ism_ring_geom {
	uint32_t nb_slots;	/**< slots of the ring */
	uint32_t slot_size;	/**< bytes per slot */
};

/** Receive-side counters (written by rte_ism_ring_recv() only). */
struct rte_ism_ring_rx_stats {
	uint64_t pkts;		/**< packets received */
	uint64_t bytes;		/**< their bytes */
	uint64_t bursts;	/**< non-empty receive calls */
	uint64_t no_mbuf;	/**< receive waited for mbufs */
	uint64_t bad;		/**< protocol errors (bad cursor/desc) */
	uint64_t bad_slots;	/**< slots skipped after an error */
	uint64_t credit_moves;	/**< consumer cursor updates sent */
	uint64_t move_errors;	/**< failed credit moves */
};

/** Send-side counters (written by rte_ism_ring_send() only). */
struct rte_ism_ring_tx_stats {
	uint64_t pkts;		/**< packets sent */
	uint64_t bytes;		/**< their bytes */
	uint64_t bursts;	/**< published bursts */
	uint64_t ring_full;	/**< send stopped for lack of credits */
	uint64_t too_big;	/**< dropped: above the length limit */
	uint64_t empty;		/**< dropped: zero length */
	uint64_t move_errors;	/**< failed moves */
};

/** Parameters of rte_ism_ring_init(). */
struct rte_ism_ring_conf {
	uint16_t dev_id;		/**< ISM device */
	uint16_t port;			/**< mbuf->port of received packets */
	struct rte_ism_gid peer;	/**< the one GID allowed to write us */
	struct rte_ism_ring_geom geom;	/**< of our receive ring */
	struct rte_mempool *pool;	/**< receive mbufs */
	bool zero_copy;			/**< attach instead of copy */
	/** Receive by reading the producer cursor instead of polling the
	 * device's signals, which one ring cannot share with others of the
	 * same device; the sender is told not to raise signals. */
	bool poll_cursor;
	/** With poll_cursor: have the sender raise a signal with each
	 * publication all the same, for a receiver that sleeps on the
	 * device's interrupt mode (rte_ism_intr_enable()) when idle; the
	 * signals themselves are not polled by rte_ism_ring_recv(). */
	bool rx_signals;
};

/**
 * One ring pair: our receive ring (in our DMB) and the peer's (which we
 * send into). The fields are private; the layout keeps what the receive
 * and the send side write in separate cache lines.
 */
struct __rte_cache_aligned rte_ism_ring {
	/* Set at init; read by all. */
	uint16_t dev_id;
	uint16_t port;
	bool zero_copy;
	bool poll_cursor;
	bool rx_signals;
	uint16_t room;			/* data bytes per pool mbuf */
	struct rte_mempool *pool;
	/* data_off, refcnt, nb_segs, port of a fresh mbuf; 0: allocate
	 * with rte_pktmbuf_alloc_bulk() (pinned external buffers). */
	uint64_t mbuf_rearm;
	struct rte_ism_dmb dmb;		/* ours: the ring the peer sends into */
	struct rte_ism_ring_geom rx_geom;
	uint32_t rx_shift;		/* log2(slot_size) */
	uint32_t rx_idx_mask;		/* nb_slots - 1 */
	uint32_t rx_ring_mask;		/* bytes of the slot area - 1 */
	uint32_t credit_batch;		/* slots worth a credit update */
	uint8_t *rx_slots;
	const struct rte_ism_ring_desc *rx_desc;
	/* Zero copy: an mbuf per packet run, freed out of order. */
	struct rte_mbuf_ext_shared_info *shinfo;	/* [nb_slots] */
	uint32_t *run;			/* slots held by the run at a slot */
	uint8_t *freed;			/* run at this slot is free */
	rte_iova_t *iova;		/* of each slot, or RTE_BAD_IOVA */
	/* Written by the control functions only, under both locks. */
	uint64_t peer_token;		/* the peer's DMB; 0: no peer */

	/* Receive side. */
	alignas(RTE_CACHE_LINE_SIZE) rte_spinlock_t rx_lock;
	int rx_error;			/* a credit move failed: peer gone? */
	uint32_t rx_prod;		/* last producer cursor read */
	uint32_t rx_next;		/* next slot to hand out */
	uint32_t rx_cons;		/* slots given back (credited) */
	uint32_t rx_start;		/* rx_next when the peer connected */
	uint32_t credit_sent;		/* rx_cons last moved to the peer */
	struct rte_ism_ring_rx_stats rx_stats;

	/* Send side. */
	alignas(RTE_CACHE_LINE_SIZE) rte_spinlock_t tx_lock;
	int tx_error;			/* a move failed: peer gone? */
	bool tx_ready;			/* handshake done */
	uint32_t tx_sf;			/* 1: signal each publication */
	struct rte_ism_ring_geom tx_geom;
	uint32_t tx_shift;		/* log2(slot_size) */
	uint32_t tx_idx_mask;		/* nb_slots - 1 */
	uint32_t tx_ring_mask;		/* bytes of its slot area - 1 */
	uint32_t tx_slots_off;
	uint32_t tx_max_len;		/* longest packet sent */
	uint32_t max_len;		/* limit set by the user, 0: none */
	uint32_t tx_prod;		/* published cursor */
	uint32_t tx_cons;		/* last credits read */
	struct rte_ism_ring_desc *tx_desc; /* copy: mirror of its descs */
	uint8_t *tx_map;		/* zero copy: its DMB, attached */
	struct rte_ism_ring_tx_stats tx_stats;
	struct rte_ism_move_seg segs[RTE_ISM_RING_MAX_SEGS];
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Where the slots start in a DMB holding a ring of this geometry.
 */
__rte_experimental
uint32_t rte_ism_ring_slots_off(const struct rte_ism_ring_geom *g);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Bytes of a DMB holding a ring of this geometry.
 */
__rte_experimental
uint64_t rte_ism_ring_dmb_len(const struct rte_ism_ring_geom *g);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return 0 if both fields are powers of two within limits and the DMB
 *   length fits in 31 bits, else -EINVAL.
 */
__rte_experimental
int rte_ism_ring_geom_check(const struct rte_ism_ring_geom *g);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Register our DMB (rgid conf->peer) and set up the receive side.
 * @return 0, -EINVAL (NULL argument, bad geometry, a pool without data
 *   room), -ENOMEM, or the error of rte_ism_dmb_register().
 */
__rte_experimental
int rte_ism_ring_init(struct rte_ism_ring *r,
		const struct rte_ism_ring_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Forget the peer, unregister our DMB, free everything.
 * @return 0, or -EBUSY: zero-copy mbufs still point into the DMB; it stays
 *   registered and r must stay allocated (their free callbacks use it);
 *   call again once they are freed.
 */
__rte_experimental
int rte_ism_ring_fini(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handshake step: a peer announced its ring (token, geometry). Our receive
 * ring restarts at the next slot to hand out; we may receive.
 * @return 0, -EINVAL (zero token, bad geometry), -ENOMEM.
 */
__rte_experimental
int rte_ism_ring_peer_set(struct rte_ism_ring *r, uint64_t token,
		const struct rte_ism_ring_geom *geom);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handshake step: move {cons, start} of our receive ring into the peer's
 * DMB, before confirming.
 * @return 0, -ENOTCONN (no peer), or the error of the move.
 */
__rte_experimental
int rte_ism_ring_announce(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handshake step: the peer confirmed; read {cons, start} from our DMB and
 * start sending (attaching the peer's DMB in zero-copy mode).
 * @param signal raise a signal with each publication (the peer polls them)
 * @return 0, -ENOTCONN (no peer), -EPROTO (bad credits or peer DMB), or the
 *   error of rte_ism_dmb_attach().
 */
__rte_experimental
int rte_ism_ring_tx_start(struct rte_ism_ring *r, bool signal);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The peer is gone: stop sending, drop what it sent but we did not
 * receive, detach its DMB.
 */
__rte_experimental
void rte_ism_ring_peer_clear(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Longest packet rte_ism_ring_send() sends (0: as long as the peer's ring
 * can hold); longer ones are dropped and counted (tx too_big).
 */
__rte_experimental
void rte_ism_ring_set_max_len(struct rte_ism_ring *r, uint32_t max_len);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Like rte_eth_tx_burst(): returns how many of pkts were taken (sent, or
 * dropped and counted if empty or too long); those mbufs are freed. The
 * rest stay with the caller (the ring is full, or the peer is not ready).
 * At most RTE_ISM_RING_MAX_BURST per call.
 */
__rte_experimental
uint16_t rte_ism_ring_send(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Like rte_eth_rx_burst(), at most RTE_ISM_RING_MAX_BURST per call; also
 * gives credits back to the peer. Copy mode: a packet longer than the
 * pool's data room comes as a chain of mbufs. Zero copy: a packet longer
 * than 256 bytes comes as an mbuf attached to the ring's slots (external
 * buffer; two or more where the ring wraps), whose slots come back when it
 * is freed; shorter ones are copied, which costs less.
 */
__rte_experimental
uint16_t rte_ism_ring_recv(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts);

/** Zero copy: slots still held by mbufs the application has not freed
 * (as of the last receive call). */
static inline uint32_t
rte_ism_ring_rx_held(const struct rte_ism_ring *r)
{
	return r->rx_next - r->rx_cons;
}

/**
 * Is there something to receive (a publication rte_ism_ring_recv() has not
 * taken yet)? For a receiver about to sleep: after arming the device's
 * wake-up (rte_ism_intr_enable()), look here before sleeping. On the
 * receiving thread, or under rx_lock.
 */
static inline bool
rte_ism_ring_rx_pending(const struct rte_ism_ring *r)
{
	const uint32_t *cursor = RTE_PTR_ADD(r->dmb.addr,
			RTE_ISM_RING_PROD_OFF);
	uint32_t prod;

	if (r->rx_prod != r->rx_next)
		return true;
	prod = rte_atomic_load_explicit(cursor, rte_memory_order_acquire);
	/* What rte_ism_ring_recv() would take: ahead of us, within the
	 * credits we gave (a peer writing nonsense wakes nobody). */
	return (int32_t)(prod - r->rx_next) > 0 &&
		prod - r->rx_cons <= r->rx_geom.nb_slots;
}

/** Has the handshake completed for sending? */
static inline bool
rte_ism_ring_tx_ready(const struct rte_ism_ring *r)
{
	return rte_atomic_load_explicit(&r->tx_ready, rte_memory_order_relaxed);
}

/**
 * Handshake and peer tracking of a set of rings to one peer (a link), over
 * ISM events (rte_ism_signal_event()) only. Ring i of one side pairs with
 * ring i of the other.
 *
 * Event code of the messages: 0xf5 in bits 31-24, version 2 in bits 23-20,
 * the type in bits 19-16, then:
 *
 *   HELLO  info = my token of ring i    "write here"; repeated every
 *          bits 15-12 i, 11-8 my ring count - 1, 7-4 log2(nb_slots) - 4,
 *          3-0 log2(slot_size) - 6       100 ms until the peer confirms
 *   READY  info = your token of ring i  "got it; your credits and start
 *          bit 0: do not signal me       are in your DMB" (moved just
 *                                        before)
 *   BYE    info = my token of ring 0    clean exit
 *
 * A HELLO with a new token means the peer restarted: the old one is
 * treated as lost first. Sending on ring i starts on READY; receiving as
 * soon as the peer's HELLO for it was handled. The link is up when every
 * ring both sides have is.
 */

/** Link changes reported by the link functions (bits). */
#define RTE_ISM_RING_LINK_UP	0x1	/**< every ring connected */
#define RTE_ISM_RING_LINK_LOST	0x2	/**< the peer is gone (not cleanly) */
#define RTE_ISM_RING_LINK_BYE	0x4	/**< the peer left cleanly */

/** What the link reports to its callback, one change at a time. */
struct rte_ism_ring_link_report {
	unsigned int what;		/**< one RTE_ISM_RING_LINK_* bit */
	const char *why;		/**< LOST, BYE: what told us */
	/** LOST, BYE: the event that told us, NULL if none (a move failed,
	 * or a new token from the peer). */
	const struct rte_ism_event *ev;
};

/** Called for each change, from the link function that found it. */
typedef void (*rte_ism_ring_link_cb_t)(void *arg,
		const struct rte_ism_ring_link_report *report);

/** The handshake state of one link. The fields are private. */
struct rte_ism_ring_link {
	uint16_t dev_id;
	uint16_t nb_rings;
	struct rte_ism_gid gid;			/* the peer's GID */
	struct rte_ism_ring *rings[RTE_ISM_RING_MAX_RINGS];
	uint64_t peer_token[RTE_ISM_RING_MAX_RINGS];	/* 0: none */
	bool confirmed[RTE_ISM_RING_MAX_RINGS];	/* it echoed our token */
	uint16_t peer_nb_rings;			/* 0: not known yet */
	bool up;
	uint64_t next_hello;			/* TSC */
	uint64_t hello_period;			/* TSC ticks */
	uint64_t next_warn;			/* TSC, rate limit */
	uint64_t nb_up;				/* times the link came up */
	uint64_t nb_lost;			/* losses and clean exits */
	int last_send_error;			/* to log each error once */
	rte_ism_ring_link_cb_t cb;
	void *cb_arg;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Set up the handshake of nb_rings initialised rings with the device of
 * GID peer. Nothing is sent before the first rte_ism_ring_link_tick().
 * @param cb called for each change (may be NULL)
 * @return 0, or -EINVAL (NULL argument, nb_rings 0 or above
 *   RTE_ISM_RING_MAX_RINGS, a ring of another device).
 */
__rte_experimental
int rte_ism_ring_link_init(struct rte_ism_ring_link *l, uint16_t dev_id,
		const struct rte_ism_gid *peer, struct rte_ism_ring **rings,
		uint16_t nb_rings, rte_ism_ring_link_cb_t cb, void *cb_arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handle one event of the link's device; events of other peers and DMBs
 * are ignored, so a device's events may be given to all its links.
 * @return RTE_ISM_RING_LINK_* bits.
 */
__rte_experimental
unsigned int rte_ism_ring_link_event(struct rte_ism_ring_link *l,
		const struct rte_ism_event *ev);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Periodic work: repeat HELLO, notice failed moves (the peer's DMB is
 * gone even if no event said so). Call about once a millisecond.
 * @param now rte_rdtsc()
 * @return RTE_ISM_RING_LINK_* bits.
 */
__rte_experimental
unsigned int rte_ism_ring_link_tick(struct rte_ism_ring_link *l,
		uint64_t now);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * For a link that owns its device's events: poll them all, hand them to
 * rte_ism_ring_link_event(), then rte_ism_ring_link_tick().
 * @return RTE_ISM_RING_LINK_* bits.
 */
__rte_experimental
unsigned int rte_ism_ring_link_poll(struct rte_ism_ring_link *l,
		uint64_t now);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Clean exit (or stop): tell the peer, forget it. Announcing starts again
 * with the next rte_ism_ring_link_tick().
 */
__rte_experimental
void rte_ism_ring_link_bye(struct rte_ism_ring_link *l);

/** Is every ring of the link connected both ways? */
static inline bool
rte_ism_ring_link_up(const struct rte_ism_ring_link *l)
{
	return l->up;
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_ISM_RING_H */
