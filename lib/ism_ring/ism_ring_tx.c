/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The send side of the ring protocol (layout in rte_ism_ring.h).
 *
 * Copy mode: each packet becomes a segment of one rte_ism_move_burst()
 * that ends with the descriptors (one segment, two where the ring wraps)
 * and the producer cursor. Zero copy: the packets and descriptors are
 * written into the attached DMB of the peer, then the cursor is moved. The
 * hot loop keeps the ring's geometry in locals: its stores (segments,
 * descriptors) could alias the fields of the ring as far as the compiler
 * knows, which would reload them per packet.
 *
 * Nothing here takes a lock: the connection comes from the control
 * functions through tx_pub, taken at the start of a call (tx_adopt()).
 * The credits the peer writes are read once and checked; credits beyond
 * what we published stop the send side (tx_fail()), and the link starts
 * over.
 */

#include <rte_atomic.h>
#include <rte_branch_prediction.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_ring_private.h"

/* Stop sending until the next connection; the link sees err (the
 * connection it belongs to is tx_sn).
 */
static __rte_noinline int
tx_fail(struct rte_ism_ring *r, int err)
{
	r->tx_token = 0;
	rte_atomic_store_explicit(&r->tx_err, ism_ring_err_word(
			rte_atomic_load_explicit(&r->tx_sn,
				rte_memory_order_relaxed), err),
			rte_memory_order_release);
	return err;
}

static int
tx_move_error(struct rte_ism_ring *r, int ret)
{
	r->tx_stats.move_errors++;
	return tx_fail(r, ret);
}

/* Take the connection the control functions published last (sequence
 * number sn, changed since the last call): tx_pub read under its sequence
 * count; if it is being written, the next call tries again.
 */
static __rte_noinline void
tx_adopt(struct rte_ism_ring *r, uint32_t sn)
{
	struct ism_ring_tx_sess s;

	r->tx_token = 0;	/* the old connection is over */
	r->tx_map = NULL;
	if (sn & 1)
		return;
	s = r->tx_pub;
	if (rte_seqcount_read_retry(&r->tx_seq, sn))
		return;
	rte_atomic_store_explicit(&r->tx_sn, sn, rte_memory_order_release);
	if (s.token == 0)
		return;
	r->tx_token = s.token;
	r->tx_map = s.map;
	r->tx_sf = s.sf;
	r->tx_shift = rte_bsf32(s.geom.slot_size);
	r->tx_idx_mask = s.geom.nb_slots - 1;
	r->tx_ring_bytes = s.geom.nb_slots * s.geom.slot_size;
	r->tx_slots_off = rte_ism_ring_slots_off(&s.geom);
	r->tx_prod = s.start;
	r->tx_cons = s.cons;
	r->tx_pkt = 0;
}

/* Move the pending segments (cursor not among them unless sf). */
static int
seg_flush(struct rte_ism_ring *r, uint16_t nb_segs, uint32_t sf)
{
	int ret;

	if (nb_segs == 0)
		return 0;
	ret = rte_ism_move_burst(r->dev_id, r->tx_token, 0, sf, r->segs,
			nb_segs);
	return ret < 0 ? tx_move_error(r, ret) : 0;
}

/* One piece of a packet into the peer's slot area at off (no wrap):
 * copied into the mapping, or added as a segment. The segment array
 * full, what it holds is moved at once: the cursor is not among it.
 */
static __rte_always_inline uint16_t
put_linear(struct rte_ism_ring *r, uint8_t *map, uint32_t off,
		const void *src, uint32_t len, uint16_t nb_segs)
{
	struct rte_ism_move_seg *s;

	if (map != NULL) {
		ism_ring_copy(map + off, src, len);
		return nb_segs;
	}
	if (unlikely(nb_segs == RTE_ISM_RING_MAX_SEGS)) {
		seg_flush(r, nb_segs, 0);
		nb_segs = 0;
	}
	s = &r->segs[nb_segs];
	s->data = src;
	s->offset = off;
	s->len = len;
	return nb_segs + 1;
}

/* The rare cases: a chain of mbufs, or a packet across the ring's end. */
static __rte_noinline uint16_t
put_any(struct rte_ism_ring *r, struct rte_mbuf *s, uint32_t off,
		uint16_t nb_segs)
{
	const uint32_t ring_bytes = r->tx_ring_bytes;
	uint8_t *map = r->tx_map;
	uint32_t len, room;
	const uint8_t *src;

	for (; s != NULL; s = s->next) {
		src = rte_pktmbuf_mtod(s, const uint8_t *);
		len = s->data_len;
		room = ring_bytes - off;
		if (len > room) {
			nb_segs = put_linear(r, map, r->tx_slots_off + off,
					src, room, nb_segs);
			src += room;
			len -= room;
			off = 0;
		}
		if (len > 0)
			nb_segs = put_linear(r, map, r->tx_slots_off + off,
					src, len, nb_segs);
		off = (off + len) & (ring_bytes - 1);
	}
	return nb_segs;
}

/* Credits left, re-reading what the peer last gave back; 0 if what it
 * wrote breaks the protocol (the send side stops).
 */
static uint32_t
tx_credits(struct rte_ism_ring *r, uint32_t prod)
{
	uint32_t cons = rte_atomic_load_explicit(ism_ring_own_cons(r),
			rte_memory_order_acquire);

	/* Checked once, used as read: between what we knew and what we
	 * have published.
	 */
	if (unlikely(cons - r->tx_cons > r->tx_prod - r->tx_cons)) {
		r->tx_stats.bad++;
		tx_fail(r, -EPROTO);
		return 0;
	}
	r->tx_cons = cons;
	return (r->tx_idx_mask + 1) - (prod - cons);
}

/* Descriptors, then the producer cursor (with the signal if wanted). */
static int
tx_publish(struct rte_ism_ring *r, uint32_t prod, uint16_t nb_segs,
		const struct rte_ism_ring_desc *descs, uint32_t first,
		uint32_t n, uint64_t errors_before)
{
	const uint32_t nb_desc = r->tx_idx_mask + 1;
	uint32_t cursor = prod, run;
	int ret;

	if (unlikely(r->tx_token == 0))	/* the credits broke the protocol */
		return -EPROTO;
	if (r->tx_map != NULL) {
		/* Our stores into the mapping before the cursor's. */
		rte_atomic_thread_fence(rte_memory_order_release);
		ret = rte_ism_move_data(r->dev_id, r->tx_token, 0, r->tx_sf,
				RTE_ISM_RING_PROD_OFF, &cursor, sizeof(cursor));
		return ret < 0 ? tx_move_error(r, ret) : 0;
	}
	if (r->tx_stats.move_errors != errors_before)	/* an early flush */
		return -EIO;
	/* The burst's descriptors are consecutive: one segment, two where
	 * the ring of descriptors wraps.
	 */
	run = RTE_MIN(n, nb_desc - first);
	nb_segs = put_linear(r, NULL, RTE_ISM_RING_DESC_OFF +
			first * sizeof(*descs), descs, run * sizeof(*descs),
			nb_segs);
	if (run < n)
		nb_segs = put_linear(r, NULL, RTE_ISM_RING_DESC_OFF, descs + run,
				(n - run) * sizeof(*descs), nb_segs);
	nb_segs = put_linear(r, NULL, RTE_ISM_RING_PROD_OFF, &cursor,
			sizeof(cursor), nb_segs);
	return seg_flush(r, nb_segs, r->tx_sf);
}

/* Free what was sent. Mbufs of one pool, direct, not shared, single
 * segment (what a generator or a copying receiver hands us) go back in
 * one put, as rte_pktmbuf_free() would leave them; anything else goes the
 * general way.
 */
static __rte_always_inline void
tx_free(struct rte_mbuf **pkts, uint16_t n)
{
	struct rte_mempool *mp;
	struct rte_mbuf *m;
	uint16_t i;

	if (n == 0)
		return;
	mp = pkts[0]->pool;
	for (i = 0; i < n; i++) {
		m = pkts[i];
		if (unlikely(m->pool != mp || m->next != NULL ||
			     !RTE_MBUF_DIRECT(m) ||
			     rte_mbuf_refcnt_read(m) != 1)) {
			rte_pktmbuf_free_bulk(pkts, n);
			return;
		}
	}
	rte_mempool_put_bulk(mp, (void **)pkts, n);
}

static __rte_always_inline uint16_t
tx_burst(struct rte_ism_ring *r, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	/* Copy mode: the burst's descriptors, moved with it. */
	struct rte_ism_ring_desc ldesc[RTE_ISM_RING_MAX_BURST];
	const uint32_t sn = rte_seqcount_read_begin(&r->tx_seq);
	uint64_t errors_before, bytes = 0;
	uint32_t shift, idx_mask, max_len, slots_off, ring_bytes;
	uint32_t prod, credits, need, len, idx, off, pkt;
	struct rte_ism_ring_desc *desc;
	uint16_t i, sent = 0, nb_segs = 0;
	struct rte_mbuf *s;
	uint8_t *map;

	if (unlikely(sn != rte_atomic_load_explicit(&r->tx_sn,
			rte_memory_order_relaxed)))
		tx_adopt(r, sn);
	if (unlikely(r->tx_token == 0))
		return 0;
	errors_before = r->tx_stats.move_errors;
	shift = r->tx_shift;
	idx_mask = r->tx_idx_mask;
	slots_off = r->tx_slots_off;
	ring_bytes = r->tx_ring_bytes;
	max_len = RTE_MIN(rte_atomic_load_explicit(&r->max_len,
			rte_memory_order_relaxed), ring_bytes);
	map = r->tx_map;
	prod = r->tx_prod;
	pkt = r->tx_pkt;
	nb_pkts = RTE_MIN(nb_pkts, RTE_ISM_RING_MAX_BURST);
	credits = (idx_mask + 1) - (prod - r->tx_cons);
	desc = map != NULL ? (struct rte_ism_ring_desc *)
		(map + RTE_ISM_RING_DESC_OFF) : NULL;
	for (i = 0; i < nb_pkts; i++) {
		s = pkts[i];
		len = rte_pktmbuf_pkt_len(s);
		/* One test for both: 0 - 1 is above any limit. */
		if (unlikely(len - 1 >= max_len)) {
			if (len == 0)
				r->tx_stats.empty++;
			else
				r->tx_stats.too_big++;
			continue;	/* freed with the others */
		}
		need = ism_ring_pkt_slots(len, shift);
		if (need > credits) {
			credits = tx_credits(r, prod);
			if (need > credits) {
				/* Not when the credits broke the protocol. */
				r->tx_stats.ring_full += r->tx_token != 0;
				break;
			}
		}
		idx = prod & idx_mask;
		off = idx << shift;
		if (likely(s->next == NULL && len <= ring_bytes - off))
			nb_segs = put_linear(r, map, slots_off + off,
					rte_pktmbuf_mtod(s, void *), len,
					nb_segs);
		else
			nb_segs = put_any(r, s, off, nb_segs);
		if (map != NULL) {
			desc[(pkt + sent) & idx_mask].len = len;
			desc[(pkt + sent) & idx_mask].flags = 0;
		} else {
			ldesc[sent].len = len;
			ldesc[sent].flags = 0;
		}
		prod += need;
		credits -= need;
		bytes += len;
		sent++;
	}
	if (sent > 0) {
		if (tx_publish(r, prod, nb_segs, ldesc, pkt & idx_mask, sent,
			       errors_before) < 0)
			return 0;	/* nothing published: caller keeps all */
		r->tx_prod = prod;
		r->tx_pkt = pkt + sent;
		r->tx_stats.pkts += sent;
		r->tx_stats.bytes += bytes;
		r->tx_stats.bursts++;
	}
	tx_free(pkts, i);
	return i;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_send, 26.03)
uint16_t
rte_ism_ring_send(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts)
{
	uint16_t n;

	ism_ring_enter(&r->tx_busy);
	n = tx_burst(r, pkts, nb_pkts);
	ism_ring_leave(&r->tx_busy);
	return n;
}
