/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The receive side of the ring protocol (layout in rte_ism_ring.h). Only
 * our own DMB is read; every cursor and descriptor the peer wrote is read
 * once and checked before use.
 */

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_prefetch.h>

#include "ism_ring_private.h"

/* At most this many mbufs per received burst (copy: a packet of len bytes
 * needs ceil(len / data room) of them). */
#define RX_MAX_MBUFS	512

struct rx_pkt {
	uint32_t slot;		/* first slot (cursor value) */
	uint32_t len;
	uint16_t nb_mbufs;
};

void
ism_ring_zc_reclaim(struct rte_ism_ring *r)
{
	uint32_t i;

	while (r->rx_cons != r->rx_next) {
		i = r->rx_cons & r->rx_idx_mask;
		if (!__atomic_load_n(&r->freed[i], __ATOMIC_ACQUIRE))
			break;
		r->freed[i] = 0;
		r->rx_cons += r->run[i];
	}
}

/* Copy len bytes at off in our slot area, wrapping at its end. */
static __rte_always_inline void
rx_read(const struct rte_ism_ring *r, uint32_t off, void *dst, uint32_t len)
{
	uint32_t room = r->rx_ring_mask + 1 - off;

	if (likely(len <= room)) {
		ism_ring_copy(dst, r->rx_slots + off, len);
		return;
	}
	ism_ring_copy(dst, r->rx_slots + off, room);
	ism_ring_copy(RTE_PTR_ADD(dst, room), r->rx_slots, len - room);
}

/* Copy mode: the packet into a chain of freshly allocated mbufs. */
static void
rx_copy(const struct rte_ism_ring *r, const struct rx_pkt *p,
		struct rte_mbuf **segs)
{
	uint32_t off = (p->slot & r->rx_idx_mask) << r->rx_shift;
	uint32_t left = p->len, chunk;
	struct rte_mbuf *m, *prev = NULL;
	uint16_t n;

	for (n = 0; n < p->nb_mbufs; n++) {
		m = segs[n];
		chunk = RTE_MIN(left, r->room);
		rx_read(r, off, rte_pktmbuf_mtod(m, void *), chunk);
		m->data_len = chunk;
		off = (off + chunk) & r->rx_ring_mask;
		left -= chunk;
		if (prev != NULL)
			prev->next = m;
		prev = m;
	}
	segs[0]->pkt_len = p->len;
	segs[0]->nb_segs = p->nb_mbufs;
}

/* Zero copy: slots of one mbuf, at most up to the ring's end and what an
 * mbuf's 16-bit buf_len can describe. */
static inline uint32_t
zc_run(const struct rte_ism_ring *r, uint32_t i, uint32_t slots)
{
	uint32_t max = UINT16_MAX >> r->rx_shift;

	return RTE_MIN(RTE_MIN(slots, r->rx_geom.nb_slots - i), max);
}

static inline uint16_t
zc_mbufs(const struct rte_ism_ring *r, uint32_t slot, uint32_t slots)
{
	uint32_t i = slot & r->rx_idx_mask, run;
	uint16_t n = 0;

	if (likely(zc_run(r, i, slots) == slots))
		return 1;
	while (slots > 0) {
		run = zc_run(r, i, slots);
		slots -= run;
		i = (i + run) & r->rx_idx_mask;
		n++;
	}
	return n;
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

/* Zero copy: mbufs attached to the packet's slots, freed out of order. */
static void
rx_attach(struct rte_ism_ring *r, const struct rx_pkt *p,
		struct rte_mbuf **segs)
{
	uint32_t i = p->slot & r->rx_idx_mask, left = p->len, run;
	uint32_t slots = ism_ring_pkt_slots(p->len, r->rx_shift);
	struct rte_mbuf *m, *prev = NULL;
	uint16_t n;

	for (n = 0; n < p->nb_mbufs; n++) {
		m = segs[n];
		run = zc_run(r, i, slots);
		zc_attach(r, m, i, run, RTE_MIN(left, run << r->rx_shift));
		left -= m->data_len;
		slots -= run;
		i = (i + run) & r->rx_idx_mask;
		if (prev != NULL)
			prev->next = m;
		prev = m;
	}
	segs[0]->pkt_len = p->len;
	segs[0]->nb_segs = p->nb_mbufs;
}

/* Drop n slots after a protocol error. */
static void
rx_skip(struct rte_ism_ring *r, uint32_t n)
{
	uint32_t i = r->rx_next & r->rx_idx_mask;

	r->rx_stats.bad++;
	r->rx_stats.bad_slots += n;
	if (r->zero_copy) {
		r->run[i] = n;
		r->freed[i] = 1;
	}
	r->rx_next += n;
}

/* Has the peer signalled our DMB? Polls the device's signals, which is
 * only right when this ring is the only one polling them. */
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

/* Slots the peer has published beyond rx_next; looks at the DMB only when
 * we have caught up, so a busy receiver costs no poll. */
static uint32_t
rx_avail(struct rte_ism_ring *r)
{
	uint32_t prod;

	if (r->rx_prod != r->rx_next)
		return r->rx_prod - r->rx_next;
	if (!r->poll_cursor && !rx_signalled(r))
		return 0;
	prod = __atomic_load_n(ism_ring_own_prod(r), __ATOMIC_ACQUIRE);
	if (prod == r->rx_next)
		return 0;
	/* Valid: not behind us, not beyond the credits we gave. */
	if (unlikely((int32_t)(prod - r->rx_next) < 0 ||
		     prod - r->rx_cons > r->rx_geom.nb_slots)) {
		r->rx_stats.bad++;
		return 0;
	}
	r->rx_prod = prod;
	return prod - r->rx_next;
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
	uint32_t pending = r->rx_cons - r->credit_sent;
	int ret;

	if (pending == 0 || (!idle && pending < r->credit_batch))
		return;
	/* Our reads of the slots before the peer may overwrite them. */
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	ret = rte_ism_move_data(r->dev_id, r->peer_token, 0, 0,
			RTE_ISM_RING_CREDIT_OFF, &r->rx_cons, sizeof(r->rx_cons));
	if (ret < 0) {
		r->rx_stats.move_errors++;
		__atomic_store_n(&r->rx_error, ret, __ATOMIC_RELAXED);
		return;
	}
	r->credit_sent = r->rx_cons;
	r->rx_stats.credit_moves++;
}

/* Mbufs a packet needs. */
static inline uint16_t
rx_nb_mbufs(const struct rte_ism_ring *r, uint32_t slot, uint32_t len,
		uint32_t need)
{
	if (r->zero_copy)
		return zc_mbufs(r, slot, need);
	return likely(len <= r->room) ? 1 : (len + r->room - 1) / r->room;
}

uint16_t
rte_ism_ring_recv(struct rte_ism_ring *r, struct rte_mbuf **pkts,
		uint16_t nb_pkts)
{
	struct rx_pkt p[RTE_ISM_RING_MAX_BURST];
	struct rte_mbuf *mbufs[RX_MAX_MBUFS], *m;
	uint32_t avail, next, len, need, skip = 0;
	unsigned int nb_mbufs = 0, mi = 0;
	uint64_t bytes = 0;
	uint16_t k, j;

	if (unlikely(r->peer_token == 0))
		return 0;
	if (r->zero_copy)
		ism_ring_zc_reclaim(r);
	avail = rx_avail(r);
	nb_pkts = RTE_MIN(nb_pkts, RTE_ISM_RING_MAX_BURST);
	next = r->rx_next;
	/* Pass 1: descriptors (each read once), and the data on its way. */
	for (k = 0; k < nb_pkts && avail > 0; k++) {
		len = __atomic_load_n(&r->rx_desc[next & r->rx_idx_mask].len,
				__ATOMIC_RELAXED);
		need = ism_ring_pkt_slots(len, r->rx_shift);
		if (unlikely(len == 0 || need > avail)) {
			skip = avail;	/* lost track: drop all we have */
			break;
		}
		p[k].slot = next;
		p[k].len = len;
		p[k].nb_mbufs = rx_nb_mbufs(r, next, len, need);
		if (unlikely(nb_mbufs + p[k].nb_mbufs > RX_MAX_MBUFS)) {
			if (k == 0)
				skip = need;	/* absurdly large: drop it */
			break;
		}
		if (!r->zero_copy)
			rte_prefetch0(r->rx_slots +
				((next & r->rx_idx_mask) << r->rx_shift));
		nb_mbufs += p[k].nb_mbufs;
		next += need;
		avail -= need;
	}
	/* Published descriptors of the next burst: on their way meanwhile. */
	for (j = 0; j < RTE_MIN(avail, (uint32_t)RTE_ISM_RING_MAX_BURST); j += 8)
		rte_prefetch0(&r->rx_desc[(next + j) & r->rx_idx_mask]);
	if (k > 0 && rte_pktmbuf_alloc_bulk(r->pool, mbufs, nb_mbufs) != 0) {
		r->rx_stats.no_mbuf++;
		k = 0;
		skip = 0;	/* try again next time, same state */
		next = r->rx_next;
	}
	/* Pass 2: build the mbufs. */
	for (j = 0; j < k; j++) {
		m = mbufs[mi];
		if (r->zero_copy && likely(p[j].nb_mbufs == 1)) {
			zc_attach(r, m, p[j].slot & r->rx_idx_mask,
				  ism_ring_pkt_slots(p[j].len, r->rx_shift),
				  p[j].len);
			m->pkt_len = p[j].len;
		} else if (r->zero_copy) {
			rx_attach(r, &p[j], &mbufs[mi]);
		} else if (likely(p[j].nb_mbufs == 1)) {
			rx_read(r, (p[j].slot & r->rx_idx_mask) << r->rx_shift,
				rte_pktmbuf_mtod(m, void *), p[j].len);
			m->data_len = p[j].len;
			m->pkt_len = p[j].len;
		} else {
			rx_copy(r, &p[j], &mbufs[mi]);
		}
		m->port = r->port;
		pkts[j] = m;
		mi += p[j].nb_mbufs;
		bytes += p[j].len;
	}
	r->rx_next = next;
	if (unlikely(skip != 0))
		rx_skip(r, skip);
	if (!r->zero_copy)
		r->rx_cons = r->rx_next;
	else if (skip != 0)
		ism_ring_zc_reclaim(r);
	if (k > 0) {
		r->rx_stats.pkts += k;
		r->rx_stats.bytes += bytes;
		r->rx_stats.bursts++;
	}
	rx_credit(r, k == 0);
	return k;
}
