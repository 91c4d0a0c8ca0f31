/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_RING_PRIVATE_H
#define ISM_RING_PRIVATE_H

/*
 * What the files of librte_ism_ring share, and the ring itself; not
 * installed (the unit tests of tests/ism_ring include it to look inside).
 *
 * Who writes what. A ring has three writers, and each field one of them:
 *
 * - the control functions (rte_ism_ring.c: peer_set, announce, tx_start,
 *   peer_clear, set_max_len; serialised by ctl.lock, which nothing else
 *   takes) own struct ism_ring_ctl and publish each connection to the two
 *   sides through a sequence count (rte_seqcount.h): rx_pub for the
 *   receive side, tx_pub for the send side;
 * - the receive side (rte_ism_ring_recv(), ism_ring_rx.c) owns the rx_*
 *   fields; it publishes rx_next and rx_cons for the control functions,
 *   rx_err for the link, and rx_busy and rx_sn (below);
 * - the send side (rte_ism_ring_send(), ism_ring_tx.c) owns the tx_*
 *   fields; it publishes tx_err, tx_busy and tx_sn.
 *
 * Each side compares the published sequence number with the one it took
 * last, once per call (one load of a line that only changes with the
 * connection), and takes the new state at the start of a call.
 *
 * When a connection ends, the control functions wait until neither side
 * can still be in a call on it (ism_ring_quiesce()): a side marks itself
 * busy for the length of each call, with a full fence between that store
 * and its load of the sequence number, and the control functions fence
 * between publishing and reading busy (Dekker's pattern: one of the two
 * sees the other's store). So once rte_ism_ring_peer_clear() returns,
 * nothing of the old connection is written any more (the peer may start a
 * new one on the same slots), the peer's attached DMB can go, and our own
 * is not read until the next connection. The wait lasts one call at most,
 * and nothing when the side is idle. The removal of the ring's ISM device
 * ends the connection the same way (ring_dev_removed() in rte_ism_ring.c).
 */

#include <stdalign.h>
#include <string.h>

#include <rte_log.h>
#include <rte_memcpy.h>
#include <rte_seqcount.h>
#include <rte_spinlock.h>
#include <ism_compat.h>

#include "rte_ism_ring.h"

extern int ism_ring_logtype;
#define RTE_LOGTYPE_ISM_RING ism_ring_logtype
#define RING_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_RING, fmt, ##__VA_ARGS__)

/* A connection as the receive side takes it (rx_pub). */
struct ism_ring_rx_sess {
	uint64_t token;		/* the peer's DMB; 0: none, do not receive */
	uint32_t start;		/* the first slot it sends into */
	uint32_t cons;		/* the credits it was given */
};

/* A connection as the send side takes it (tx_pub). */
struct ism_ring_tx_sess {
	uint64_t token;		/* the peer's DMB; 0: none, do not send */
	uint8_t *map;		/* zero copy: the peer's DMB, attached */
	struct rte_ism_ring_geom geom;	/* of the peer's ring */
	uint32_t start;		/* our first producer cursor */
	uint32_t cons;		/* the credits it gave */
	uint32_t sf;		/* 1: signal each publication */
};

/* The control functions' own state; neither side reads it. */
struct ism_ring_ctl {
	rte_spinlock_t lock;
	uint64_t token;		/* the peer's DMB; 0: no peer */
	struct rte_ism_ring_geom geom;	/* of the peer's ring */
	bool announced;		/* rx_pub holds this peer */
	bool tx_started;	/* tx_pub holds this peer */
	int err;		/* announce's move failed (for the link) */
	struct ism_ring_rx_sess rx;	/* what rx_pub holds */
	uint32_t rx_sn;		/* sequence numbers of rx_pub, tx_pub */
	uint32_t tx_sn;
	uint64_t map_token;	/* zero copy: the peer's DMB, attached */
	/* The ISM device was removed (set once, by the removal callback;
	 * the link reads it without the lock).
	 */
	RTE_ATOMIC(bool) dev_gone;
};

struct __rte_cache_aligned rte_ism_ring {
	/* Set at create; read by all. */
	uint16_t dev_id;
	uint16_t port;
	bool zero_copy;
	bool poll_cursor;
	bool rx_signals;		/* poll_cursor, but the sender signals */
	uint16_t room;			/* data bytes per pool mbuf */
	struct rte_mempool *pool;
	/* data_off, refcnt, nb_segs, port of a fresh mbuf; 0: allocate
	 * with rte_pktmbuf_alloc_bulk() (pinned external buffers).
	 */
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
	__rte_atomic uint8_t *freed;	/* run at this slot is free */
	rte_iova_t *iova;		/* of each slot, or RTE_BAD_IOVA */

	/* The control functions'. */
	alignas(RTE_CACHE_LINE_SIZE) struct ism_ring_ctl ctl;

	/* Published to the receive side (written under ctl.lock). */
	alignas(RTE_CACHE_LINE_SIZE) rte_seqcount_t rx_seq;
	struct ism_ring_rx_sess rx_pub;

	/* Published to the send side (written under ctl.lock). */
	alignas(RTE_CACHE_LINE_SIZE) rte_seqcount_t tx_seq;
	struct ism_ring_tx_sess tx_pub;
	RTE_ATOMIC(uint32_t) max_len;	/* the user's limit; UINT32_MAX: none */
	RTE_ATOMIC(bool) tx_ready;	/* tx_pub holds a peer */

	/* Receive side. */
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) rx_busy; /* in a call */
	RTE_ATOMIC(uint32_t) rx_sn;	/* rx_pub taken last */
	uint64_t rx_token;		/* the peer's DMB; 0: do not receive */
	uint32_t rx_prod;		/* last producer cursor read */
	RTE_ATOMIC(uint32_t) rx_next;	/* next slot to hand out */
	RTE_ATOMIC(uint32_t) rx_cons;	/* slots given back (credited) */
	uint32_t rx_pkt;		/* packets received in this connection */
	uint32_t credit_sent;		/* rx_cons last moved to the peer */
	/* The error that stopped the receive side: rx_sn << 32 | -errno. */
	RTE_ATOMIC(uint64_t) rx_err;
	struct rte_ism_ring_rx_stats rx_stats;

	/* Send side. */
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint32_t) tx_busy; /* in a call */
	RTE_ATOMIC(uint32_t) tx_sn;	/* tx_pub taken last */
	uint64_t tx_token;		/* the peer's DMB; 0: do not send */
	uint32_t tx_sf;			/* 1: signal each publication */
	uint32_t tx_shift;		/* log2(slot_size) */
	uint32_t tx_idx_mask;		/* nb_slots - 1 */
	uint32_t tx_ring_bytes;		/* bytes of its slot area */
	uint32_t tx_slots_off;
	uint32_t tx_prod;		/* published cursor */
	uint32_t tx_cons;		/* last credits read */
	uint32_t tx_pkt;		/* packets sent in this connection */
	uint8_t *tx_map;		/* zero copy: its DMB, attached */
	/* The error that stopped the send side: tx_sn << 32 | -errno. */
	RTE_ATOMIC(uint64_t) tx_err;
	struct rte_ism_ring_tx_stats tx_stats;
	struct rte_ism_move_seg segs[RTE_ISM_RING_MAX_SEGS];
};

static inline volatile struct rte_ism_ring_credit *
ism_ring_own_credit(const struct rte_ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_CREDIT_OFF);
}

/* The wire structures (rte_ism_ring.h) are plain: the fields that one
 * side stores while the other reads them are reached as atomics here.
 */
static inline __rte_atomic uint32_t *
ism_ring_own_cons(const struct rte_ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_CREDIT_OFF +
			offsetof(struct rte_ism_ring_credit, cons));
}

static inline __rte_atomic uint32_t const *
ism_ring_desc_len(const struct rte_ism_ring_desc *d)
{
	return (const __rte_atomic uint32_t *)&d->len;
}

static inline __rte_atomic uint32_t *
ism_ring_own_prod(const struct rte_ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_PROD_OFF);
}

/* The start and the end of a call of a side (rx_busy or tx_busy): the
 * fence orders the busy store before the loads of the call (the sequence
 * number first); see ism_ring_quiesce().
 */
static __rte_always_inline void
ism_ring_enter(__rte_atomic uint32_t *busy)
{
	rte_atomic_store_explicit(busy, 1, rte_memory_order_relaxed);
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
}

static __rte_always_inline void
ism_ring_leave(__rte_atomic uint32_t *busy)
{
	rte_atomic_store_explicit(busy, 0, rte_memory_order_release);
}

/* Slots a packet of len bytes takes; len is below 2^31 (a checked
 * descriptor, or a length within the ring), so this cannot wrap.
 */
static inline uint32_t
ism_ring_pkt_slots(uint32_t len, uint32_t shift)
{
	return (len + (1u << shift) - 1) >> shift;
}

/* An error word of a side: the connection it stopped, and the errno. */
static inline uint64_t
ism_ring_err_word(uint32_t sn, int err)
{
	return (uint64_t)sn << 32 | (uint32_t)-err;
}

/* Zero copy: packets up to this length are copied on receive, not
 * attached: attaching, and freeing through the external-buffer callback,
 * costs more instructions than copying a few cache lines.
 */
#define ISM_RING_ZC_COPY_MAX	256

/* glibc's memcpy (AVX, ERMS) beats the SSE rte_memcpy that pkg-config's
 * -march=corei7 selects once copies reach a few hundred bytes; below that
 * the inline copy saves a call.
 */
static __rte_always_inline void
ism_ring_copy(void *dst, const void *src, uint32_t len)
{
	if (len <= 256)
		rte_memcpy(dst, src, len);
	else
		memcpy(dst, src, len);
}

/* The 8 bytes at rearm_data of a fresh mbuf of a direct pool (data_off,
 * refcnt, nb_segs, port), as NIC drivers write them.
 */
static inline uint64_t
ism_ring_rearm_data(uint16_t port)
{
	struct rte_mbuf mb = { .data_off = RTE_PKTMBUF_HEADROOM };
	uint64_t v;

	rte_mbuf_refcnt_set(&mb, 1);
	mb.nb_segs = 1;
	mb.port = port;
	memcpy(&v, RTE_PTR_ADD(&mb, offsetof(struct rte_mbuf, rearm_data)),
	       sizeof(v));
	return v;
}

/* Zero copy: give back the slots of the mbufs freed in order (receive
 * side, or rte_ism_ring_free()).
 */
void ism_ring_zc_reclaim(struct rte_ism_ring *r);

#endif /* ISM_RING_PRIVATE_H */
