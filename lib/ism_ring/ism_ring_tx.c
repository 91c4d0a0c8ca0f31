/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The send side of the ring protocol (layout in rte_ism_ring.h).
 *
 * Copy mode: each packet becomes a segment of one rte_ism_move_burst()
 * that ends with the descriptors and the producer cursor. Zero copy: the
 * packets and descriptors are written into the attached DMB of the peer,
 * then the cursor is moved. The hot loop keeps the ring's geometry in
 * locals: its stores (segments, descriptors) could alias the fields of
 * the ring as far as the compiler knows, which would reload them per
 * packet.
 */

#include <rte_atomic.h>
#include <rte_branch_prediction.h>

#include <ism_compat.h>

#include "ism_ring_private.h"

/* Consecutive descriptors written by one send call. */
struct desc_run {
	uint32_t first;		/* descriptor index */
	uint32_t n;		/* consecutive descriptors */
};

static int
tx_move_error(struct rte_ism_ring *r, int ret)
{
	r->tx_stats.move_errors++;
	rte_atomic_store_explicit(&r->tx_error, ret, rte_memory_order_relaxed);
	return ret;
}

/* Move the pending segments (cursor not among them unless sf). */
static int
seg_flush(struct rte_ism_ring *r, uint16_t nb_segs, uint32_t sf)
{
	int ret;

	if (nb_segs == 0)
		return 0;
	ret = rte_ism_move_burst(r->dev_id, r->peer_token, 0, sf, r->segs,
			nb_segs);
	return ret < 0 ? tx_move_error(r, ret) : 0;
}

/* One piece of a packet into the peer's slot area at off (no wrap):
 * copied into the mapping, or added as a segment. The segment array
 * full, what it holds is moved at once: the cursor is not among it. */
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
	const uint32_t ring_bytes = r->tx_ring_mask + 1;
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
		off = (off + len) & r->tx_ring_mask;
	}
	return nb_segs;
}

/* Credits left, re-reading what the peer last gave back. */
static uint32_t
tx_credits(struct rte_ism_ring *r, uint32_t prod)
{
	uint32_t cons = rte_atomic_load_explicit(&ism_ring_own_credit(r)->cons,
			rte_memory_order_acquire);

	/* Valid: between what we knew and what we have published. */
	if (likely(cons - r->tx_cons <= r->tx_prod - r->tx_cons))
		r->tx_cons = cons;
	return r->tx_geom.nb_slots - (prod - r->tx_cons);
}

/* Descriptors, then the producer cursor (with the signal if wanted). */
static int
tx_publish(struct rte_ism_ring *r, uint32_t prod, uint16_t nb_segs,
		const struct desc_run *runs, unsigned int nb_runs,
		uint64_t errors_before)
{
	uint32_t cursor = prod;
	unsigned int i;
	int ret;

	if (r->tx_map != NULL) {
		/* Our stores into the mapping before the cursor's. */
		rte_atomic_thread_fence(rte_memory_order_release);
		ret = rte_ism_move_data(r->dev_id, r->peer_token, 0, r->tx_sf,
				RTE_ISM_RING_PROD_OFF, &cursor, sizeof(cursor));
		return ret < 0 ? tx_move_error(r, ret) : 0;
	}
	if (r->tx_stats.move_errors != errors_before)	/* an early flush */
		return r->tx_error;
	for (i = 0; i < nb_runs; i++)
		nb_segs = put_linear(r, NULL, RTE_ISM_RING_DESC_OFF +
				runs[i].first * sizeof(struct rte_ism_ring_desc),
				&r->tx_desc[runs[i].first],
				runs[i].n * sizeof(struct rte_ism_ring_desc),
				nb_segs);
	nb_segs = put_linear(r, NULL, RTE_ISM_RING_PROD_OFF, &cursor,
			sizeof(cursor), nb_segs);
	return seg_flush(r, nb_segs, r->tx_sf);
}

/* Free what was sent. Mbufs of one pool, direct, not shared, single
 * segment (what a generator or a copying receiver hands us) go back in
 * one put, as rte_pktmbuf_free() would leave them; anything else goes the
 * general way. */
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

uint16_t
rte_ism_ring_send(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts)
{
	struct desc_run runs[RTE_ISM_RING_MAX_BURST];
	const uint64_t errors_before = r->tx_stats.move_errors;
	const uint32_t shift = r->tx_shift, idx_mask = r->tx_idx_mask;
	const uint32_t max_len = r->tx_max_len, slots_off = r->tx_slots_off;
	const uint32_t ring_bytes = r->tx_ring_mask + 1;
	uint8_t *const map = r->tx_map;
	struct rte_ism_ring_desc *const mirror = r->tx_desc;
	struct rte_ism_ring_desc *desc;
	uint32_t prod = r->tx_prod, credits, need, len, idx, off;
	unsigned int nb_runs = 0;
	uint16_t i, sent = 0, nb_segs = 0;
	uint64_t bytes = 0;
	struct rte_mbuf *s;

	if (unlikely(!r->tx_ready))
		return 0;
	nb_pkts = RTE_MIN(nb_pkts, RTE_ISM_RING_MAX_BURST);
	credits = r->tx_geom.nb_slots - (prod - r->tx_cons);
	desc = map != NULL ? (struct rte_ism_ring_desc *)
		(map + RTE_ISM_RING_DESC_OFF) : mirror;
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
				r->tx_stats.ring_full++;
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
		desc[idx].len = len;
		desc[idx].flags = 0;
		/* Copy mode: consecutive one-slot packets share a segment of
		 * descriptors. */
		if (map == NULL) {
			if (nb_runs > 0 &&
			    runs[nb_runs - 1].first + runs[nb_runs - 1].n == idx)
				runs[nb_runs - 1].n++;
			else
				runs[nb_runs++] = (struct desc_run){ idx, 1 };
		}
		prod += need;
		credits -= need;
		bytes += len;
		sent++;
	}
	if (sent > 0) {
		if (tx_publish(r, prod, nb_segs, runs, nb_runs,
			       errors_before) < 0)
			return 0;	/* nothing published: caller keeps all */
		r->tx_prod = prod;
		r->tx_stats.pkts += sent;
		r->tx_stats.bytes += bytes;
		r->tx_stats.bursts++;
	}
	tx_free(pkts, i);
	return i;
}
