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
 *   offset 128   desc[nb_slots] one descriptor per packet, in packet order:
 *                               the n-th packet since the handshake at
 *                               n mod nb_slots
 *   slots_off    slot[nb_slots] slot_size bytes each
 *
 * Cursors are free-running 32-bit slot counts. A packet of len bytes takes
 * ceil(len / slot_size) consecutive slots, so its bytes are contiguous in
 * the DMB except where the ring wraps; its descriptor follows the one of
 * the packet before, so the descriptors of a burst are contiguous too. The
 * sender moves packet data and descriptors, then the producer cursor as
 * the last segment of the same rte_ism_move_burst() (with a signal if the
 * receiver polls signals). The receiver reads its own DMB and moves its
 * consumer cursor into the sender's DMB every sixteenth of the ring or
 * whenever it finds nothing new. The layout is the same in copy and
 * zero-copy mode, so the two sides choose their modes independently.
 *
 * Everything the peer writes into our DMB (the producer cursor, the
 * descriptors, the credits and start) is read once and checked against the
 * ring's own geometry before it is used. A value that breaks the protocol
 * stops that side of the ring at once (counted once in the bad counters)
 * and rte_ism_ring_link_tick() then takes the link down, says BYE, and
 * starts the handshake again: a peer can make us drop what it sent, never
 * read or write outside our DMB, and never count an error more than once
 * per connection.
 *
 * Threading: rte_ism_ring_send() and rte_ism_ring_recv() may run at the
 * same time on two threads (one each), and neither takes a lock or waits.
 * The control functions (peer_set, announce, tx_start, peer_clear,
 * set_max_len) may run on any other thread at the same time: they never
 * write what the send or receive side owns, they publish the new state of
 * the connection, which each side takes at the start of its next call
 * (single-writer fields, acquire/release). When a connection ends
 * (rte_ism_ring_peer_clear(), also inside peer_set), the control function
 * waits until neither side is still in a call on it, which lasts one call
 * at most and nothing for an idle side; then nothing of the old connection
 * is written any more, the peer's DMB attached in zero-copy mode is
 * detached, and our own DMB is not read until the next connection.
 * rte_ism_ring_free() must not run at the same time as any other call on
 * the ring (as rte_eth_dev_close() with the burst functions).
 *
 * The peers find each other with the handshake of struct rte_ism_ring_link
 * (below), over ISM events only: no side channel.
 *
 * A ring holds its ISM device with a removal callback of librte_ism (see
 * "Holders of a device id" in rte_ism.h): when the device is closed or
 * removed, the ring ends the connection as rte_ism_ring_peer_clear() does
 * (waiting for the send and receive side to leave their calls on it) and
 * gives its DMB back while the device still works, and never uses the
 * device's id again. Afterwards rte_ism_ring_send() and rte_ism_ring_recv()
 * return 0, the handshake steps -ENODEV, the link functions report the
 * peer lost once (why: the device was removed) and send nothing, and
 * rte_ism_ring_free() frees the rest. Zero-copy mbufs still held then point
 * into memory the device took with it: free them before removing the
 * device.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_compat.h>
#include <rte_mbuf.h>

#include <rte_ism.h>

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

/** One per packet, in packet order. */
struct rte_ism_ring_desc {
	uint32_t len;		/**< packet length in bytes */
	uint32_t flags;		/**< 0, reserved */
};

/** Geometry of one ring; the receiver chooses it, the sender learns it in
 * the handshake. Both are powers of two.
 */
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
	/** Errors: the peer broke the protocol (a cursor or descriptor that
	 * does not fit the ring, counted once: the receive side stops until
	 * the next handshake), or a packet needed more mbufs than a chain
	 * may have (dropped).
	 */
	uint64_t bad;
	uint64_t bad_slots;	/**< published slots dropped with them */
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
	/** The peer broke the protocol (credits beyond what we published,
	 * counted once: the send side stops until the next handshake).
	 */
	uint64_t bad;
};

/** Parameters of rte_ism_ring_create(). */
struct rte_ism_ring_conf {
	uint16_t dev_id;		/**< ISM device */
	uint16_t port;			/**< mbuf->port of received packets */
	struct rte_ism_gid peer;	/**< the one GID allowed to write us */
	struct rte_ism_ring_geom geom;	/**< of our receive ring */
	/** Receive mbufs; the ring's memory is on the pool's NUMA node. */
	struct rte_mempool *pool;
	bool zero_copy;			/**< attach instead of copy */
	/** Receive by reading the producer cursor instead of polling the
	 * device's signals, which one ring cannot share with others of the
	 * same device; the sender is told not to raise signals.
	 */
	bool poll_cursor;
	/** With poll_cursor: have the sender raise a signal with each
	 * publication all the same, for a receiver that sleeps on the
	 * device's interrupt mode (rte_ism_intr_enable()) when idle; the
	 * signals themselves are not polled by rte_ism_ring_recv().
	 */
	bool rx_signals;
};

/** A ring pair: our receive ring (in our DMB) and the peer's (which we
 * send into). Opaque: rte_ism_ring_create() makes one.
 */
struct rte_ism_ring;

/** What rte_ism_ring_info_get() reports. */
struct rte_ism_ring_info {
	uint16_t dev_id;		/**< ISM device */
	bool zero_copy;			/**< receive by attaching */
	bool poll_cursor;		/**< receive by reading the cursor */
	struct rte_ism_ring_geom geom;	/**< of our receive ring */
	uint64_t token;			/**< of our DMB */
	uint32_t dmb_len;		/**< bytes of our DMB */
	uint64_t peer_token;		/**< the peer's DMB, 0: no peer */
	/** Geometry of the ring we send into, 0 without a peer. */
	struct rte_ism_ring_geom peer_geom;
	bool tx_ready;			/**< the handshake let us send */
	/** Zero copy: slots held by received mbufs the application has
	 * not freed (as of the last receive call).
	 */
	uint32_t rx_held;
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Where the slots start in a DMB holding a ring of this geometry.
 *
 * @param g the ring's geometry (checked by rte_ism_ring_geom_check())
 * @return the offset of slot 0
 */
__rte_experimental
uint32_t rte_ism_ring_slots_off(const struct rte_ism_ring_geom *g);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Bytes of a DMB holding a ring of this geometry.
 *
 * @param g the ring's geometry (checked by rte_ism_ring_geom_check())
 * @return the DMB's length
 */
__rte_experimental
uint64_t rte_ism_ring_dmb_len(const struct rte_ism_ring_geom *g);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @param g a geometry
 * @return 0 if both fields are powers of two within limits and the DMB
 *   length fits in 31 bits, else -EINVAL.
 */
__rte_experimental
int rte_ism_ring_geom_check(const struct rte_ism_ring_geom *g);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Allocate a ring, register our DMB (rgid conf->peer) and set up the
 * receive side; the ring holds the device from now on (a removal
 * callback, dropped by rte_ism_ring_free()).
 *
 * @param conf the ring's parameters
 * @return the ring, or NULL with rte_errno set: EINVAL (NULL argument,
 *   bad geometry, a pool without data room, zero copy on a pool of pinned
 *   external buffers), ENODEV (no such device), ENOMEM, or the error of
 *   rte_ism_dmb_register().
 */
__rte_experimental
struct rte_ism_ring *rte_ism_ring_create(const struct rte_ism_ring_conf *conf);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Forget the peer, unregister our DMB, let the device go, free the ring
 * (after a removal of the device: what is left). No other call on the
 * ring may run at the same time.
 *
 * @param r the ring (NULL: nothing to do)
 * @return 0, or -EBUSY: zero-copy mbufs still point into the DMB; it stays
 *   registered and r allocated (their free callbacks use it); call again
 *   once they are freed.
 */
__rte_experimental
int rte_ism_ring_free(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handshake step: a peer announced its ring (token, geometry). Any
 * previous peer is forgotten (rte_ism_ring_peer_clear()); nothing is
 * received from the new one before rte_ism_ring_announce().
 *
 * @param r the ring
 * @param token the peer's DMB
 * @param geom the geometry of the ring in it
 * @return 0, -EINVAL (NULL ring, zero token, bad geometry), -ENODEV (the
 *   device was removed).
 */
__rte_experimental
int rte_ism_ring_peer_set(struct rte_ism_ring *r, uint64_t token,
		const struct rte_ism_ring_geom *geom);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handshake step: our receive ring restarts where the receive side is,
 * {cons, start} of it go into the peer's DMB, and receiving from the peer
 * starts. Once per peer: later calls for the same peer move nothing (the
 * receive side keeps the credits up to date) and return 0.
 *
 * @param r the ring
 * @return 0, -EINVAL (NULL ring), -ENOTCONN (no peer), -ENODEV (the
 *   device was removed), or the error of the move.
 */
__rte_experimental
int rte_ism_ring_announce(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Handshake step: the peer confirmed; read {cons, start} from our DMB and
 * start sending (attaching the peer's DMB in zero-copy mode). Once per
 * peer: later calls return 0.
 *
 * @param r the ring
 * @param signal raise a signal with each publication (the peer polls them)
 * @return 0, -EINVAL (NULL ring), -ENOTCONN (no peer), -ENODEV (the
 *   device was removed), -EPROTO (bad credits or a peer DMB shorter
 *   than its ring), or the error of rte_ism_dmb_attach().
 */
__rte_experimental
int rte_ism_ring_tx_start(struct rte_ism_ring *r, bool signal);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The peer is gone: stop sending, drop what it sent but we did not
 * receive. Returns once neither the send nor the receive side is in a call
 * on the old connection (see "Threading" above), its DMB detached.
 *
 * @param r the ring (NULL: nothing to do)
 */
__rte_experimental
void rte_ism_ring_peer_clear(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Longest packet rte_ism_ring_send() sends (0: as long as the peer's ring
 * can hold); longer ones are dropped and counted (tx too_big).
 *
 * @param r the ring (NULL: nothing to do)
 * @param max_len the limit in bytes, 0 for none
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
 *
 * @param r the ring
 * @param pkts the packets
 * @param nb_pkts their number; at most RTE_ISM_RING_MAX_BURST are taken
 * @return packets taken
 */
__rte_experimental
uint16_t rte_ism_ring_send(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Like rte_eth_rx_burst(); also gives credits back to the peer. Copy mode:
 * a packet longer than the pool's data room comes as a chain of mbufs.
 * Zero copy: a packet longer than 256 bytes comes as an mbuf attached to
 * the ring's slots (external buffer; two or more where the ring wraps),
 * whose slots come back when it is freed; shorter ones are copied, which
 * costs less.
 *
 * @param r the ring
 * @param pkts where the packets go
 * @param nb_pkts room in pkts; at most RTE_ISM_RING_MAX_BURST are received
 * @return packets received
 */
__rte_experimental
uint16_t rte_ism_ring_recv(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Why the current connection stopped, if it did: a side of the ring that
 * meets an error stops until the next connection (rte_ism_ring_peer_set()
 * and the steps after it). rte_ism_ring_link_tick() asks this of every
 * ring of a link; an application with a handshake of its own asks it
 * between bursts.
 *
 * @param r the ring
 * @return 0 (no error, or no connection), -EINVAL (NULL ring), -EPROTO
 *   (the peer broke the protocol: a cursor, descriptor or credit it wrote
 *   does not fit the ring), -ESTALE (a receive call ran on the old
 *   connection while the new one was set up), or the error of a failed
 *   move (the peer's DMB is gone, say).
 */
__rte_experimental
int rte_ism_ring_error(struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Has the peer published slots that rte_ism_ring_recv() has not taken
 * yet? Reads only the producer cursor in our DMB and what the receive
 * side published, so any thread may ask (to decide whether to wake up a
 * receiver, say); the answer may be stale by the time it is used.
 *
 * @param r the ring
 * @return true if there is something to receive
 */
__rte_experimental
bool rte_ism_ring_rx_pending(const struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Zero copy: slots still held by mbufs the application has not freed (as
 * of the last receive call).
 *
 * @param r the ring
 * @return slots held
 */
__rte_experimental
uint32_t rte_ism_ring_rx_held(const struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Has the handshake completed for sending?
 *
 * @param r the ring
 * @return true once rte_ism_ring_tx_start() succeeded for the current peer
 */
__rte_experimental
bool rte_ism_ring_tx_ready(const struct rte_ism_ring *r);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The ring's set-up and connection.
 *
 * @param r the ring
 * @param info filled in
 * @return 0, -EINVAL (NULL argument)
 */
__rte_experimental
int rte_ism_ring_info_get(struct rte_ism_ring *r,
		struct rte_ism_ring_info *info);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The counters of both sides, read without stopping them (each a 64-bit
 * load).
 *
 * @param r the ring
 * @param rx the receive side's (may be NULL)
 * @param tx the send side's (may be NULL)
 * @return 0, -EINVAL (NULL ring)
 */
__rte_experimental
int rte_ism_ring_stats_get(const struct rte_ism_ring *r,
		struct rte_ism_ring_rx_stats *rx, struct rte_ism_ring_tx_stats *tx);

/**
 * Handshake and peer tracking of a set of rings to one peer (a link), over
 * ISM events (rte_ism_signal_event()) only. Ring i of one side pairs with
 * ring i of the other.
 *
 * Event code of the messages: 0xf5 in bits 31-24, version 3 in bits 23-20,
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
 *
 * A peer that breaks the ring protocol (rte_ism_ring_link_tick()) again
 * and again is not let back at once: after RTE_ISM_RING_LINK_FREE_RESTARTS
 * such restarts in a row the link ignores the peer (its messages, and
 * sends no HELLO) for 50 ms, then twice as long after each further one,
 * at most RTE_ISM_RING_LINK_MAX_QUIET_MS; a link that stays up that long
 * clears the count. Once the peer behaves, the link comes up again within
 * that time.
 */

/** Restarts after protocol violations in a row that are not delayed. */
#define RTE_ISM_RING_LINK_FREE_RESTARTS	3
/** The longest a link ignores a peer that keeps breaking the protocol. */
#define RTE_ISM_RING_LINK_MAX_QUIET_MS	1000

/** Link changes reported by the link functions (bits). */
#define RTE_ISM_RING_LINK_UP	0x1	/**< every ring connected */
#define RTE_ISM_RING_LINK_LOST	0x2	/**< the peer is gone (not cleanly) */
#define RTE_ISM_RING_LINK_BYE	0x4	/**< the peer left cleanly */

/** What the link reports to its callback, one change at a time. */
struct rte_ism_ring_link_report {
	unsigned int what;		/**< one RTE_ISM_RING_LINK_* bit */
	const char *why;		/**< LOST, BYE: what told us */
	/** LOST, BYE: the event that told us, NULL if none (a move failed,
	 * or a new token from the peer).
	 */
	const struct rte_ism_event *ev;
};

/** Called for each change, from the link function that found it. */
typedef void (*rte_ism_ring_link_cb_t)(void *arg,
		const struct rte_ism_ring_link_report *report);

/** The handshake state of one link, filled in by rte_ism_ring_link_init()
 * and kept by the link functions; the application reads none of it but
 * through rte_ism_ring_link_up().
 */
struct rte_ism_ring_link {
	uint16_t dev_id;			/**< the ISM device */
	uint16_t nb_rings;			/**< rings of the link */
	struct rte_ism_gid gid;			/**< the peer's GID */
	struct rte_ism_ring *rings[RTE_ISM_RING_MAX_RINGS]; /**< the rings */
	uint64_t peer_token[RTE_ISM_RING_MAX_RINGS];	/**< 0: none */
	bool confirmed[RTE_ISM_RING_MAX_RINGS];	/**< it echoed our token */
	uint16_t peer_nb_rings;			/**< 0: not known yet */
	bool up;				/**< every ring connected */
	uint64_t next_hello;			/**< TSC */
	uint64_t hello_period;			/**< TSC ticks */
	uint64_t next_warn;			/**< TSC, rate limit */
	uint64_t nb_up;				/**< times the link came up */
	uint64_t nb_lost;			/**< losses and clean exits */
	int last_send_error;			/**< to log each error once */
	/** Protocol violations of the peer in a row (none since a link
	 * that lasted): past a few, each restart waits longer.
	 */
	uint32_t nb_violations;
	uint64_t quiet_until;			/**< TSC: the peer ignored */
	uint64_t up_since;			/**< TSC of the last link up */
	bool extra_rings_told;			/**< "not used" logged */
	rte_ism_ring_link_cb_t cb;		/**< told of each change */
	void *cb_arg;				/**< its argument */
};

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Set up the handshake of nb_rings rings with the device of GID peer.
 * Nothing is sent before the first rte_ism_ring_link_tick().
 * @param l the link, filled in
 * @param dev_id the ISM device of every ring
 * @param peer the peer's GID
 * @param rings the rings, from rte_ism_ring_create(); ring i pairs with
 *   the peer's ring i
 * @param nb_rings their number
 * @param cb called for each change (may be NULL)
 * @param cb_arg its first argument
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
 * @param l the link
 * @param ev the event
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
 * gone even if no event said so) and a peer that broke the ring protocol
 * (both: BYE to the peer, which starts over, and the link goes down).
 * Call about once a millisecond.
 * @param l the link
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
 * @param l the link
 * @param now rte_rdtsc()
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
 * @param l the link
 */
__rte_experimental
void rte_ism_ring_link_bye(struct rte_ism_ring_link *l);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Is every ring of the link connected both ways?
 * @param l the link
 * @return true if the link is up
 */
__rte_experimental
static inline bool
rte_ism_ring_link_up(const struct rte_ism_ring_link *l)
{
	return l->up;
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_ISM_RING_H */
