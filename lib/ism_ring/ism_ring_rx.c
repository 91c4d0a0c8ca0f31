/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The receive side of the ring protocol (layout in rte_ism_ring.h). Only
 * our own DMB is read; every cursor and descriptor the peer wrote is read
 * once and checked against the ring's geometry before use. A value that
 * does not fit stops the receive side (rx_fail()): counted once, and the
 * link starts over (rte_ism_ring_link_tick()). Nothing here takes a lock:
 * the connection comes from the control functions through rx_pub, taken
 * at the start of a call (rx_adopt()).
 *
 * One pass over the burst: the mbufs are taken from the pool in bulk up
 * front, one per published slot at most, and what is left goes back. A
 * packet that fits one mbuf is copied (in zero-copy mode too when it is
 * short: attaching, and later freeing through the external-buffer
 * callback, costs more than copying a few cache lines); the rest (chains,
 * the ring's end, zero-copy attachments) takes the slow path.
 */

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_ring_private.h"

/* Slots ahead whose data is prefetched (exact for one-slot packets, still
 * the current packet's data for longer ones).
 */
#define PREFETCH_AHEAD	4
/* Most mbufs for one packet; a longer one (tiny mbufs) is dropped. */
#define RX_MAX_SEGS	512

void
ism_ring_zc_reclaim(struct rte_ism_ring *r)
{
	uint32_t cons = rte_atomic_load_explicit(&r->rx_cons,
			rte_memory_order_relaxed);
	const uint32_t next = rte_atomic_load_explicit(&r->rx_next,
			rte_memory_order_relaxed);
	uint32_t i;

	while (cons != next) {
		i = cons & r->rx_idx_mask;
		if (!rte_atomic_load_explicit(&r->freed[i],
				rte_memory_order_acquire))
			break;
		rte_atomic_store_explicit(&r->freed[i], 0,
				rte_memory_order_relaxed);
		cons += r->run[i];
	}
	rte_atomic_store_explicit(&r->rx_cons, cons, rte_memory_order_release);
}

/* Stop receiving until the next connection; the link sees err (the
 * connection it belongs to is rx_sn). A broken protocol is counted here,
 * once, with the published slots it drops.
 */
static __rte_noinline void
rx_fail(struct rte_ism_ring *r, int err, uint32_t dropped)
{
	r->rx_token = 0;
	if (err == -EPROTO) {
		r->rx_stats.bad++;
		r->rx_stats.bad_slots += dropped;
	}
	rte_atomic_store_explicit(&r->rx_err, ism_ring_err_word(
			rte_atomic_load_explicit(&r->rx_sn,
				rte_memory_order_relaxed), err),
			rte_memory_order_release);
}

/* Take the connection the control functions published last (sequence
 * number sn, changed since the last call): rx_pub read under its
 * sequence count; if it is being written, the next call tries again.
 */
static __rte_noinline void
rx_adopt(struct rte_ism_ring *r, uint32_t sn)
{
	struct ism_ring_rx_sess s;

	r->rx_token = 0;	/* the old connection is over */
	if (sn & 1)
		return;
	s = r->rx_pub;
	if (rte_seqcount_read_retry(&r->rx_seq, sn))
		return;
	rte_atomic_store_explicit(&r->rx_sn, sn, rte_memory_order_release);
	if (s.token == 0)
		return;
	/* rte_ism_ring_announce() read rx_next after the end of the old
	 * connection (rte_ism_ring_peer_clear() waits for the calls on it):
	 * had a call taken slots since, the peer would write over them.
	 * Checked all the same: start over then.
	 */
	if (s.start != rte_atomic_load_explicit(&r->rx_next,
			rte_memory_order_relaxed)) {
		rx_fail(r, -ESTALE, 0);
		return;
	}
	r->rx_token = s.token;
	r->rx_prod = s.start;
	r->credit_sent = s.cons;
	r->rx_pkt = 0;
}

/* Copy len bytes at off in our slot area, wrapping at its end. */
static __rte_always_inline void
rx_read(const uint8_t *slots, uint32_t ring_bytes, uint32_t off, void *dst,
		uint32_t len)
{
	uint32_t room = ring_bytes - off;

	if (likely(len <= room)) {
		ism_ring_copy(dst, slots + off, len);
		return;
	}
	ism_ring_copy(dst, slots + off, room);
	ism_ring_copy(RTE_PTR_ADD(dst, room), slots, len - room);
}

/* A fresh mbuf made ready for len bytes of a packet of pkt_len: what
 * rte_pktmbuf_reset() does, in the few stores NIC drivers use. An mbuf of
 * a pool has next NULL and nothing else to reset on its second line; the
 * VLAN fields mean nothing without their ol_flags. A pool of pinned
 * external buffers went through rte_pktmbuf_alloc_bulk() instead.
 */
static __rte_always_inline void
rx_mbuf_init(struct rte_mbuf *m, uint64_t rearm, uint16_t port,
		uint32_t pkt_len, uint16_t len)
{
	if (likely(rearm != 0)) {
		/* One 8-byte store (memcpy: no type punning). */
		memcpy(RTE_PTR_ADD(m, offsetof(struct rte_mbuf, rearm_data)),
		       &rearm, sizeof(rearm));
		m->ol_flags = 0;
		m->packet_type = 0;
	} else {
		m->port = port;
	}
	m->pkt_len = pkt_len;
	m->data_len = len;
}

/* Fresh mbufs: the pool's objects as they are, made ready one by one
 * (rx_mbuf_init()), or fully reset for pools of pinned buffers.
 */
static __rte_always_inline int
rx_alloc(const struct rte_ism_ring *r, struct rte_mbuf **m, unsigned int n)
{
	if (likely(r->mbuf_rearm != 0))
		return rte_mempool_get_bulk(r->pool, (void **)m, n);
	return rte_pktmbuf_alloc_bulk(r->pool, m, n);
}

/* Zero copy: slots of one mbuf, at most up to the ring's end and what an
 * mbuf's 16-bit buf_len can describe.
 */
static inline uint32_t
zc_run(const struct rte_ism_ring *r, uint32_t i, uint32_t slots)
{
	uint32_t max = UINT16_MAX >> r->rx_shift;

	return RTE_MIN(RTE_MIN(slots, r->rx_geom.nb_slots - i), max);
}

/* Zero copy: one mbuf attached to run slots from index i. */
static __rte_always_inline void
zc_attach(struct rte_ism_ring *r, struct rte_mbuf *m, uint32_t i,
		uint32_t run, uint32_t data_len)
{
	rte_mbuf_ext_refcnt_set(&r->shinfo[i], 1);
	rte_pktmbuf_attach_extbuf(m, r->rx_slots + (i << r->rx_shift),
			r->iova[i], run << r->rx_shift, &r->shinfo[i]);
	m->data_len = data_len;
	r->run[i] = run;
}

/* Link the chain segs[0..n) into one packet of len bytes. */
static void
chain(struct rte_mbuf **segs, uint16_t n, uint32_t len)
{
	uint16_t i;

	for (i = 1; i < n; i++)
		segs[i - 1]->next = segs[i];
	segs[0]->pkt_len = len;
	segs[0]->nb_segs = n;
}

/*
 * The packets the fast path does not take: a zero-copy attachment (one
 * mbuf, more where the ring wraps or runs exceed 64 KiB), a copy into a
 * chain of mbufs, a copy across the ring's end. m is the mbuf taken for
 * the packet; more come from the pool here. Returns 1 if the packet was
 * attached, 0 if copied, -ENOMEM without the mbufs it needs (nothing is
 * consumed then), -E2BIG if it needs more than RX_MAX_SEGS.
 */
static __rte_noinline int
rx_slow(struct rte_ism_ring *r, struct rte_mbuf *m, uint32_t slot,
		uint32_t len)
{
	struct rte_mbuf *segs[RX_MAX_SEGS];
	uint32_t i = slot & r->rx_idx_mask, left = len, run, chunk, off;
	uint32_t slots = ism_ring_pkt_slots(len, r->rx_shift);
	const bool attach = r->zero_copy && len > ISM_RING_ZC_COPY_MAX;
	uint16_t n, k;

	if (attach) {
		n = 0;
		for (run = slots, k = i; run > 0; n++) {
			chunk = zc_run(r, k, run);
			run -= chunk;
			k = (k + chunk) & r->rx_idx_mask;
		}
	} else {
		n = (len + r->room - 1) / r->room;
	}
	if (n > RTE_DIM(segs))
		return -E2BIG;
	segs[0] = m;
	if (n > 1 && rx_alloc(r, segs + 1, n - 1) != 0)
		return -ENOMEM;
	off = i << r->rx_shift;
	for (k = 0; k < n; k++) {
		rx_mbuf_init(segs[k], r->mbuf_rearm, r->port, 0, 0);
		if (attach) {
			run = zc_run(r, i, slots);
			zc_attach(r, segs[k], i, run,
				  RTE_MIN(left, run << r->rx_shift));
			slots -= run;
			i = (i + run) & r->rx_idx_mask;
		} else {
			chunk = RTE_MIN(left, r->room);
			rx_read(r->rx_slots, r->rx_ring_mask + 1, off,
				rte_pktmbuf_mtod(segs[k], void *), chunk);
			segs[k]->data_len = chunk;
			off = (off + chunk) & r->rx_ring_mask;
		}
		left -= segs[k]->data_len;
	}
	chain(segs, n, len);
	return attach ? 1 : 0;
}

/* Has the peer signalled our DMB? Polls the device's signals, which is
 * only right when this ring is the only one polling them.
 */
static bool
rx_signalled(const struct rte_ism_ring *r)
{
	struct rte_ism_signal sig[4];
	bool hit = false;
	int n, i;

	n = rte_ism_signal_poll(r->dev_id, sig, RTE_DIM(sig));
	for (i = 0; i < n; i++)
		hit |= sig[i].dmb_idx == r->dmb.idx;
	return hit;
}

/* Slots the peer has published beyond next; looks at the DMB only when
 * we have caught up, so a busy receiver costs no poll.
 */
static __rte_always_inline uint32_t
rx_avail(struct rte_ism_ring *r, uint32_t next)
{
	uint32_t prod;

	if (r->rx_prod != next)
		return r->rx_prod - next;
	if (!r->poll_cursor && !rx_signalled(r))
		return 0;
	prod = rte_atomic_load_explicit(ism_ring_own_prod(r),
			rte_memory_order_acquire);
	if (prod == next)
		return 0;
	/* Checked once, used as read: not behind us, not beyond the
	 * credits we gave (credit_sent <= next <= credit_sent + nb_slots),
	 * so at most nb_slots ahead.
	 */
	if (unlikely(prod - next > r->credit_sent + r->rx_geom.nb_slots -
		     next)) {
		rx_fail(r, -EPROTO, 0);
		return 0;
	}
	r->rx_prod = prod;
	return prod - next;
}

/*
 * Give the consumed slots back. Not after every burst: the sender reads
 * this line while it waits, so each update costs a cache-line transfer.
 * Once a sixteenth of the ring, or whenever we found nothing to receive
 * (a sender waiting for credits then gets them at once).
 */
static void
rx_credit(struct rte_ism_ring *r, bool idle)
{
	const uint32_t cons = rte_atomic_load_explicit(&r->rx_cons,
			rte_memory_order_relaxed);
	uint32_t pending = cons - r->credit_sent;
	int ret;

	if (pending == 0 || (!idle && pending < r->credit_batch))
		return;
	/* Our reads of the slots before the peer may overwrite them. */
	rte_atomic_thread_fence(rte_memory_order_release);
	ret = rte_ism_move_data(r->dev_id, r->rx_token, 0, 0,
			RTE_ISM_RING_CREDIT_OFF, &cons, sizeof(cons));
	if (ret < 0) {
		r->rx_stats.move_errors++;
		rx_fail(r, ret, 0);
		return;
	}
	r->credit_sent = cons;
	r->rx_stats.credit_moves++;
}

static __rte_always_inline uint16_t
rx_burst(struct rte_ism_ring *r, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rte_mbuf *mbufs[RTE_ISM_RING_MAX_BURST], *m;
	/* In locals: the stores into mbufs could alias the ring's fields. */
	const struct rte_ism_ring_desc *const desc = r->rx_desc;
	const uint8_t *const slots = r->rx_slots;
	const uint32_t idx_mask = r->rx_idx_mask, shift = r->rx_shift;
	const uint32_t slot_mask = (1u << shift) - 1;
	const uint32_t ring_bytes = r->rx_ring_mask + 1;
	const uint64_t rearm = r->mbuf_rearm;
	const uint16_t port = r->port;
	const bool zc = r->zero_copy;
	/* Longest packet copied into one mbuf on the fast path. */
	const uint32_t copy_max = zc ? RTE_MIN((uint32_t)ISM_RING_ZC_COPY_MAX,
			r->room) : r->room;
	uint32_t avail, next, len, need, idx, off, cons, pkt, sn;
	uint64_t bytes = 0;
	bool in_order, bad = false;
	uint16_t k = 0, nb;
	int ret;

	sn = rte_seqcount_read_begin(&r->rx_seq);
	if (unlikely(sn != rte_atomic_load_explicit(&r->rx_sn,
			rte_memory_order_relaxed)))
		rx_adopt(r, sn);
	if (zc)
		ism_ring_zc_reclaim(r);
	if (unlikely(r->rx_token == 0))
		return 0;
	next = rte_atomic_load_explicit(&r->rx_next, rte_memory_order_relaxed);
	avail = rx_avail(r, next);
	/* At most one packet per published slot. */
	nb = RTE_MIN(nb_pkts, (uint16_t)RTE_ISM_RING_MAX_BURST);
	if (avail < nb)
		nb = avail;
	if (nb > 0 && unlikely(rx_alloc(r, mbufs, nb) != 0)) {
		r->rx_stats.no_mbuf++;
		nb = 0;	/* try again next time, same state */
	}
	/* Zero copy: copied packets give their slots back at once while
	 * no attached one is before them.
	 */
	cons = rte_atomic_load_explicit(&r->rx_cons, rte_memory_order_relaxed);
	in_order = cons == next;
	pkt = r->rx_pkt;
	for (idx = 0; idx < PREFETCH_AHEAD && idx < nb; idx++)
		rte_prefetch0(slots + (((next + idx) & idx_mask) << shift));
	while (k < nb && avail > 0) {
		len = rte_atomic_load_explicit(
				ism_ring_desc_len(&desc[pkt & idx_mask]),
				rte_memory_order_relaxed);
		/* Checked once, used as read: from 1 byte to what was
		 * published (which the geometry keeps below 2^31), so the
		 * slot count below cannot wrap.
		 */
		if (unlikely(len - 1 >= avail << shift)) {
			bad = true;
			break;
		}
		need = (len + slot_mask) >> shift;
		idx = next & idx_mask;
		rte_prefetch0(slots + (((next + PREFETCH_AHEAD) & idx_mask) <<
				       shift));
		m = mbufs[k];
		off = idx << shift;
		if (likely(len <= copy_max && len <= ring_bytes - off)) {
			rx_mbuf_init(m, rearm, port, len, len);
			ism_ring_copy(rte_pktmbuf_mtod(m, void *), slots + off,
				      len);
			ret = 0;
		} else if (zc && len > copy_max &&
			   likely(zc_run(r, idx, need) == need)) {
			/* One mbuf attached to the packet's slots. */
			rx_mbuf_init(m, rearm, port, len, len);
			zc_attach(r, m, idx, need, len);
			ret = 1;
		} else {
			ret = rx_slow(r, m, next, len);
			if (unlikely(ret == -ENOMEM)) {
				r->rx_stats.no_mbuf++;
				break;
			}
		}
		if (zc) {
			if (ret > 0) {
				in_order = false;
			} else if (in_order) {
				cons = next + need;
			} else {
				r->run[idx] = need;
				rte_atomic_store_explicit(&r->freed[idx], 1,
						rte_memory_order_relaxed);
			}
		}
		if (likely(ret >= 0)) {
			pkts[k++] = m;
			bytes += len;
		} else {
			/* More mbufs than a chain may have: dropped; m
			 * serves the next packet.
			 */
			r->rx_stats.bad++;
			r->rx_stats.bad_slots += need;
		}
		next += need;
		avail -= need;
		pkt++;
	}
	/* The next descriptors: on their way meanwhile. */
	if (avail > 0)
		rte_prefetch0(&desc[pkt & idx_mask]);
	if (k < nb)
		rte_mempool_put_bulk(r->pool, (void **)&mbufs[k], nb - k);
	r->rx_pkt = pkt;
	rte_atomic_store_explicit(&r->rx_next, next, rte_memory_order_release);
	rte_atomic_store_explicit(&r->rx_cons, zc ? cons : next,
			rte_memory_order_release);
	if (k > 0) {
		r->rx_stats.pkts += k;
		r->rx_stats.bytes += bytes;
		r->rx_stats.bursts++;
	}
	if (unlikely(bad)) {
		/* What came before the bad descriptor was delivered. */
		rx_fail(r, -EPROTO, avail);
		return k;
	}
	rx_credit(r, k == 0);
	return k;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_recv, 26.03)
uint16_t
rte_ism_ring_recv(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts)
{
	uint16_t n;

	ism_ring_enter(&r->rx_busy);
	n = rx_burst(r, pkts, nb_pkts);
	ism_ring_leave(&r->rx_busy);
	return n;
}
