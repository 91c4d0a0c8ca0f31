/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The ring protocol of ism_fwd (layout in ism_ring.h). Everything the peer
 * wrote is read once and checked before use: a confused or hostile peer can
 * make us drop packets, never read or write outside our DMB.
 */

#include <errno.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_malloc.h>
#include <rte_memcpy.h>
#include <rte_memory.h>
#include <rte_prefetch.h>

#include "ism_ring.h"

/* At most this many mbufs per received burst (copy: a packet of len bytes
 * needs ceil(len / data room) of them). */
#define RX_MAX_MBUFS	512

struct desc_run {
	uint32_t first;		/* descriptor index */
	uint32_t n;		/* consecutive descriptors */
};

struct rx_pkt {
	uint32_t slot;		/* first slot (cursor value) */
	uint32_t len;
	uint16_t nb_mbufs;
};

uint32_t
ism_ring_slots_off(const struct ism_ring_geom *g)
{
	return RTE_ALIGN_CEIL(ISM_RING_DESC_OFF +
			g->nb_slots * sizeof(struct ism_ring_desc),
			RTE_CACHE_LINE_SIZE);
}

uint64_t
ism_ring_dmb_len(const struct ism_ring_geom *g)
{
	return ism_ring_slots_off(g) + (uint64_t)g->nb_slots * g->slot_size;
}

int
ism_ring_geom_check(const struct ism_ring_geom *g)
{
	if (!rte_is_power_of_2(g->nb_slots) || !rte_is_power_of_2(g->slot_size)
	    || g->nb_slots < ISM_RING_SLOTS_MIN ||
	    g->nb_slots > ISM_RING_SLOTS_MAX ||
	    g->slot_size < ISM_RING_SLOT_MIN ||
	    g->slot_size > ISM_RING_SLOT_MAX ||
	    ism_ring_dmb_len(g) > UINT32_MAX / 2)
		return -EINVAL;
	return 0;
}

/* Slots a packet of len bytes takes. */
static inline uint32_t
pkt_slots(uint32_t len, uint32_t shift)
{
	return (len + (1u << shift) - 1) >> shift;
}

/* glibc's memcpy (AVX, ERMS) beats the SSE rte_memcpy that pkg-config's
 * -march=corei7 selects once copies reach a few hundred bytes; below that
 * the inline copy saves a call. */
static __rte_always_inline void
copy(void *dst, const void *src, uint32_t len)
{
	if (len <= 256)
		rte_memcpy(dst, src, len);
	else
		memcpy(dst, src, len);
}

static inline volatile struct ism_ring_credit *
own_credit(const struct ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, ISM_RING_CREDIT_OFF);
}

static inline uint32_t *
own_prod(const struct ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, ISM_RING_PROD_OFF);
}

static void
zc_free_cb(void *addr, void *opaque)
{
	struct ism_ring *r = opaque;
	uint32_t i = RTE_PTR_DIFF(addr, r->rx_slots) >> r->rx_shift;

	/* May run on any lcore that frees the mbuf. */
	__atomic_store_n(&r->freed[i], 1, __ATOMIC_RELEASE);
}

/* A slot's IOVA if DPDK knows the memory (e.g. registered with
 * rte_extmem_register()), else RTE_BAD_IOVA: fine for software ports. */
static rte_iova_t
slot_iova(const void *va)
{
	if (rte_mem_virt2memseg(va, NULL) == NULL)
		return RTE_BAD_IOVA;
	return rte_mem_virt2iova(va);
}

static void
zc_arrays_free(struct ism_ring *r)
{
	rte_free(r->shinfo);
	rte_free(r->run);
	rte_free(r->freed);
	rte_free(r->iova);
	r->shinfo = NULL;
	r->run = NULL;
	r->freed = NULL;
	r->iova = NULL;
}

static int
zc_arrays_alloc(struct ism_ring *r)
{
	uint32_t i, n = r->rx_geom.nb_slots;

	r->shinfo = rte_zmalloc("ism_fwd_shinfo", n * sizeof(*r->shinfo), 0);
	r->run = rte_zmalloc("ism_fwd_run", n * sizeof(*r->run), 0);
	r->freed = rte_zmalloc("ism_fwd_freed", n, 0);
	r->iova = rte_zmalloc("ism_fwd_iova", n * sizeof(*r->iova), 0);
	if (r->shinfo == NULL || r->run == NULL || r->freed == NULL ||
	    r->iova == NULL) {
		zc_arrays_free(r);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		r->shinfo[i].free_cb = zc_free_cb;
		r->shinfo[i].fcb_opaque = r;
		r->iova[i] = slot_iova(r->rx_slots + (i << r->rx_shift));
	}
	return 0;
}

int
ism_ring_init(struct ism_ring *r, const struct ism_ring_conf *conf)
{
	uint32_t mbuf_room;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = ism_ring_geom_check(&conf->geom);
	if (ret < 0)
		return ret;
	mbuf_room = rte_pktmbuf_data_room_size(conf->pool);
	if (mbuf_room <= RTE_PKTMBUF_HEADROOM)
		return -EINVAL;
	r->dev_id = conf->dev_id;
	r->zero_copy = conf->zero_copy;
	r->pool = conf->pool;
	r->room = mbuf_room - RTE_PKTMBUF_HEADROOM;
	r->rx_geom = conf->geom;
	r->rx_shift = rte_bsf32(conf->geom.slot_size);
	r->rx_idx_mask = conf->geom.nb_slots - 1;
	r->credit_batch = RTE_MAX(conf->geom.nb_slots / 16, 1u);
	r->rx_ring_mask = conf->geom.nb_slots * conf->geom.slot_size - 1;

	r->dmb.len = ism_ring_dmb_len(&conf->geom);
	r->dmb.rgid = conf->peer;
	ret = rte_ism_dmb_register(r->dev_id, &r->dmb);
	if (ret < 0)
		return ret;
	r->rx_desc = RTE_PTR_ADD(r->dmb.addr, ISM_RING_DESC_OFF);
	r->rx_slots = RTE_PTR_ADD(r->dmb.addr, ism_ring_slots_off(&r->rx_geom));
	if (r->zero_copy) {
		ret = zc_arrays_alloc(r);
		if (ret < 0) {
			rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
			r->dmb.token = 0;
			return ret;
		}
	}
	return 0;
}

static void
zc_reclaim(struct ism_ring *r)
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

void
ism_ring_fini(struct ism_ring *r)
{
	ism_ring_peer_clear(r);
	if (r->dmb.token == 0)
		return;
	if (r->zero_copy) {
		zc_reclaim(r);
		if (ism_ring_rx_held(r) != 0) {
			/* Leak rather than let mbufs point to freed memory. */
			fprintf(stderr, "ism_fwd: %u slots still held by mbufs; "
				"keeping the DMB registered\n",
				ism_ring_rx_held(r));
			return;
		}
		zc_arrays_free(r);
	}
	rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
	r->dmb.token = 0;
}

/* Our receive ring restarts where we stopped handing out slots; whatever
 * the old peer published beyond that is dropped. Only we write our DMB
 * here, at a time when no peer may write it (none is connected). */
static void
rx_restart(struct ism_ring *r)
{
	r->rx_prod = r->rx_next;
	r->rx_start = r->rx_next;
	r->credit_sent = r->rx_cons;
	__atomic_store_n(own_prod(r), r->rx_next, __ATOMIC_RELEASE);
}

void
ism_ring_peer_clear(struct ism_ring *r)
{
	if (r->tx_map != NULL)
		rte_ism_dmb_detach(r->dev_id, r->peer_token);
	r->tx_map = NULL;
	rte_free(r->tx_desc);
	r->tx_desc = NULL;
	r->peer_token = 0;
	r->tx_ready = false;
	r->nb_segs = 0;
	r->last_error = 0;
	if (r->dmb.token != 0)
		rx_restart(r);
}

int
ism_ring_peer_set(struct ism_ring *r, uint64_t token,
		const struct ism_ring_geom *geom)
{
	if (token == 0 || ism_ring_geom_check(geom) < 0)
		return -EINVAL;
	ism_ring_peer_clear(r);
	if (!r->zero_copy) {
		r->tx_desc = rte_zmalloc("ism_fwd_tx_desc",
				geom->nb_slots * sizeof(*r->tx_desc), 0);
		if (r->tx_desc == NULL)
			return -ENOMEM;
	}
	r->peer_token = token;
	r->tx_geom = *geom;
	r->tx_shift = rte_bsf32(geom->slot_size);
	r->tx_idx_mask = geom->nb_slots - 1;
	r->tx_ring_mask = geom->nb_slots * geom->slot_size - 1;
	r->tx_slots_off = ism_ring_slots_off(geom);
	return 0;
}

static int
move_error(struct ism_ring *r, int ret)
{
	r->stats.move_errors++;
	r->last_error = ret;
	return ret;
}

int
ism_ring_announce(struct ism_ring *r)
{
	struct ism_ring_credit c = {
		.cons = r->rx_cons,
		.start = r->rx_start,
	};
	int ret;

	if (r->peer_token == 0)
		return -ENOTCONN;
	ret = rte_ism_move_data(r->dev_id, r->peer_token, 0, 0,
			ISM_RING_CREDIT_OFF, &c, sizeof(c));
	if (ret < 0)
		return move_error(r, ret);
	r->credit_sent = c.cons;
	return 0;
}

int
ism_ring_tx_start(struct ism_ring *r)
{
	volatile struct ism_ring_credit *c = own_credit(r);
	struct rte_ism_dmb peer;
	uint32_t cons, start;
	int ret;

	if (r->peer_token == 0)
		return -ENOTCONN;
	cons = __atomic_load_n(&c->cons, __ATOMIC_ACQUIRE);
	start = c->start;
	if (start - cons > r->tx_geom.nb_slots)
		return -EPROTO;
	if (r->zero_copy && r->tx_map == NULL) {
		ret = rte_ism_dmb_attach(r->dev_id, r->peer_token, &peer);
		if (ret < 0)
			return ret;
		if (peer.len < ism_ring_dmb_len(&r->tx_geom)) {
			rte_ism_dmb_detach(r->dev_id, r->peer_token);
			return -EPROTO;
		}
		r->tx_map = peer.addr;
	}
	r->tx_prod = start;
	r->tx_cons = cons;
	r->tx_ready = true;
	return 0;
}

/* Send side. */

static int
seg_flush(struct ism_ring *r, uint32_t sf)
{
	int ret;

	if (r->nb_segs == 0)
		return 0;
	ret = rte_ism_move_burst(r->dev_id, r->peer_token, 0, sf, r->segs,
			r->nb_segs);
	r->nb_segs = 0;
	return ret < 0 ? move_error(r, ret) : 0;
}

static __rte_always_inline void
seg_add(struct ism_ring *r, const void *data, uint32_t offset, uint32_t len)
{
	struct rte_ism_move_seg *s;

	/* The cursor is not among these, so moving early is harmless. */
	if (unlikely(r->nb_segs == ISM_RING_MAX_SEGS))
		seg_flush(r, 0);
	s = &r->segs[r->nb_segs++];
	s->data = data;
	s->offset = offset;
	s->len = len;
}

/* Put len bytes at off in the peer's slot area (no wrap). */
static __rte_always_inline void
tx_put_linear(struct ism_ring *r, uint32_t off, const void *src, uint32_t len)
{
	if (len == 0)
		return;
	off += r->tx_slots_off;
	if (r->tx_map != NULL)
		copy(r->tx_map + off, src, len);
	else
		seg_add(r, src, off, len);
}

/* Put len bytes at off in the peer's slot area, wrapping at its end. */
static __rte_always_inline void
tx_put(struct ism_ring *r, uint32_t off, const void *src, uint32_t len)
{
	uint32_t room = r->tx_ring_mask + 1 - off;

	if (likely(len <= room)) {
		tx_put_linear(r, off, src, len);
		return;
	}
	tx_put_linear(r, off, src, room);
	tx_put_linear(r, 0, RTE_PTR_ADD(src, room), len - room);
}

static __rte_always_inline void
desc_put(struct ism_ring *r, uint32_t prod, uint32_t len,
		struct desc_run *runs, unsigned int *nb_runs)
{
	uint32_t i = prod & r->tx_idx_mask;
	struct ism_ring_desc *d;

	if (r->tx_map != NULL) {
		d = (struct ism_ring_desc *)(r->tx_map + ISM_RING_DESC_OFF) + i;
		d->len = len;
		d->flags = 0;
		return;
	}
	r->tx_desc[i].len = len;
	r->tx_desc[i].flags = 0;
	/* Consecutive one-slot packets: one segment for all descriptors. */
	if (*nb_runs > 0 && runs[*nb_runs - 1].first + runs[*nb_runs - 1].n == i)
		runs[*nb_runs - 1].n++;
	else
		runs[(*nb_runs)++] = (struct desc_run){ .first = i, .n = 1 };
}

/* Credits left, re-reading what the peer last gave back. */
static uint32_t
tx_credits(struct ism_ring *r, uint32_t prod)
{
	uint32_t cons = __atomic_load_n(&own_credit(r)->cons, __ATOMIC_ACQUIRE);

	/* Valid: between what we knew and what we have published. */
	if (likely(cons - r->tx_cons <= r->tx_prod - r->tx_cons))
		r->tx_cons = cons;
	return r->tx_geom.nb_slots - (prod - r->tx_cons);
}

/* Descriptors, then the producer cursor with the signal. */
static int
tx_publish(struct ism_ring *r, uint32_t prod, const struct desc_run *runs,
		unsigned int nb_runs, uint64_t errors_before)
{
	uint32_t cursor = prod;
	unsigned int i;
	int ret;

	if (r->tx_map != NULL) {
		/* Our stores into the mapping before the cursor's. */
		rte_atomic_thread_fence(__ATOMIC_RELEASE);
		ret = rte_ism_move_data(r->dev_id, r->peer_token, 0, 1,
				ISM_RING_PROD_OFF, &cursor, sizeof(cursor));
		return ret < 0 ? move_error(r, ret) : 0;
	}
	if (r->stats.move_errors != errors_before) {	/* an early flush */
		r->nb_segs = 0;
		return r->last_error;
	}
	for (i = 0; i < nb_runs; i++)
		seg_add(r, &r->tx_desc[runs[i].first],
			ISM_RING_DESC_OFF +
			runs[i].first * sizeof(struct ism_ring_desc),
			runs[i].n * sizeof(struct ism_ring_desc));
	seg_add(r, &cursor, ISM_RING_PROD_OFF, sizeof(cursor));
	return seg_flush(r, 1);
}

uint16_t
ism_ring_send(struct ism_ring *r, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct desc_run runs[ISM_RING_MAX_BURST];
	unsigned int nb_runs = 0;
	const uint64_t errors_before = r->stats.move_errors;
	uint32_t prod = r->tx_prod, credits, need, len, off;
	uint64_t bytes = 0;
	struct rte_mbuf *s;
	uint16_t i, sent = 0;

	if (unlikely(!r->tx_ready))
		return 0;
	nb_pkts = RTE_MIN(nb_pkts, ISM_RING_MAX_BURST);
	credits = r->tx_geom.nb_slots - (prod - r->tx_cons);
	for (i = 0; i < nb_pkts; i++) {
		s = pkts[i];
		len = rte_pktmbuf_pkt_len(s);
		need = pkt_slots(len, r->tx_shift);
		if (unlikely(len == 0 || need > r->tx_geom.nb_slots)) {
			if (len == 0)
				r->stats.tx_empty++;
			else
				r->stats.tx_too_big++;
			continue;	/* freed with the others */
		}
		if (need > credits) {
			credits = tx_credits(r, prod);
			if (need > credits) {
				r->stats.tx_ring_full++;
				break;
			}
		}
		off = (prod & r->tx_idx_mask) << r->tx_shift;
		if (likely(s->next == NULL)) {
			tx_put(r, off, rte_pktmbuf_mtod(s, void *), len);
		} else {
			for (; s != NULL; s = s->next) {
				tx_put(r, off, rte_pktmbuf_mtod(s, void *),
				       s->data_len);
				off = (off + s->data_len) & r->tx_ring_mask;
			}
		}
		desc_put(r, prod, len, runs, &nb_runs);
		prod += need;
		credits -= need;
		bytes += len;
		sent++;
	}
	if (sent > 0) {
		if (tx_publish(r, prod, runs, nb_runs, errors_before) < 0)
			return 0;	/* nothing published: caller keeps all */
		r->tx_prod = prod;
		r->stats.tx_pkts += sent;
		r->stats.tx_bytes += bytes;
		r->stats.tx_bursts++;
	}
	rte_pktmbuf_free_bulk(pkts, i);
	return i;
}

/* Receive side. */

/* Copy len bytes at off in our slot area, wrapping at its end. */
static __rte_always_inline void
rx_read(const struct ism_ring *r, uint32_t off, void *dst, uint32_t len)
{
	uint32_t room = r->rx_ring_mask + 1 - off;

	if (likely(len <= room)) {
		copy(dst, r->rx_slots + off, len);
		return;
	}
	copy(dst, r->rx_slots + off, room);
	copy(RTE_PTR_ADD(dst, room), r->rx_slots, len - room);
}

/* Copy mode: the packet into a chain of freshly allocated mbufs. */
static void
rx_copy(const struct ism_ring *r, const struct rx_pkt *p,
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
zc_run(const struct ism_ring *r, uint32_t i, uint32_t slots)
{
	uint32_t max = UINT16_MAX >> r->rx_shift;

	return RTE_MIN(RTE_MIN(slots, r->rx_geom.nb_slots - i), max);
}

static inline uint16_t
zc_mbufs(const struct ism_ring *r, uint32_t slot, uint32_t slots)
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
zc_attach(struct ism_ring *r, struct rte_mbuf *m, uint32_t i, uint32_t run,
		uint32_t data_len)
{
	rte_mbuf_ext_refcnt_set(&r->shinfo[i], 1);
	rte_pktmbuf_attach_extbuf(m, r->rx_slots + (i << r->rx_shift),
			r->iova[i], run << r->rx_shift, &r->shinfo[i]);
	m->data_len = data_len;
	r->run[i] = run;
}

/* Zero copy: mbufs attached to the packet's slots, freed out of order. */
static void
rx_attach(struct ism_ring *r, const struct rx_pkt *p, struct rte_mbuf **segs)
{
	uint32_t i = p->slot & r->rx_idx_mask, left = p->len, run;
	uint32_t slots = pkt_slots(p->len, r->rx_shift);
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
rx_skip(struct ism_ring *r, uint32_t n)
{
	uint32_t i = r->rx_next & r->rx_idx_mask;

	r->stats.rx_bad++;
	r->stats.rx_bad_slots += n;
	if (r->zero_copy) {
		r->run[i] = n;
		r->freed[i] = 1;
	}
	r->rx_next += n;
}

/* Slots the peer has published beyond rx_next; polls the signal only when
 * we have caught up, so a busy receiver costs no poll. */
static uint32_t
rx_avail(struct ism_ring *r)
{
	struct rte_ism_signal sig[4];
	bool hit = false;
	uint32_t prod;
	int n, i;

	if (r->rx_prod != r->rx_next)
		return r->rx_prod - r->rx_next;
	n = rte_ism_signal_poll(r->dev_id, sig, RTE_DIM(sig));
	for (i = 0; i < n; i++)
		hit |= sig[i].dmb_idx == r->dmb.idx;
	if (!hit)
		return 0;
	prod = __atomic_load_n(own_prod(r), __ATOMIC_ACQUIRE);
	/* Valid: not behind us, not beyond the credits we gave. */
	if (unlikely((int32_t)(prod - r->rx_next) < 0 ||
		     prod - r->rx_cons > r->rx_geom.nb_slots)) {
		r->stats.rx_bad++;
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
rx_credit(struct ism_ring *r, bool idle)
{
	uint32_t pending = r->rx_cons - r->credit_sent;
	int ret;

	if (pending == 0 || (!idle && pending < r->credit_batch))
		return;
	/* Our reads of the slots before the peer may overwrite them. */
	rte_atomic_thread_fence(__ATOMIC_RELEASE);
	ret = rte_ism_move_data(r->dev_id, r->peer_token, 0, 0,
			ISM_RING_CREDIT_OFF, &r->rx_cons, sizeof(r->rx_cons));
	if (ret < 0) {
		move_error(r, ret);
		return;
	}
	r->credit_sent = r->rx_cons;
	r->stats.credit_moves++;
}

/* Mbufs a packet needs. */
static inline uint16_t
rx_nb_mbufs(const struct ism_ring *r, uint32_t slot, uint32_t len,
		uint32_t need)
{
	if (r->zero_copy)
		return zc_mbufs(r, slot, need);
	return likely(len <= r->room) ? 1 : (len + r->room - 1) / r->room;
}

uint16_t
ism_ring_recv(struct ism_ring *r, struct rte_mbuf **pkts, uint16_t nb_pkts)
{
	struct rx_pkt p[ISM_RING_MAX_BURST];
	struct rte_mbuf *mbufs[RX_MAX_MBUFS], *m;
	uint32_t avail, next, len, need, skip = 0;
	unsigned int nb_mbufs = 0, mi = 0;
	uint64_t bytes = 0;
	uint16_t k, j;

	if (unlikely(r->peer_token == 0))
		return 0;
	if (r->zero_copy)
		zc_reclaim(r);
	avail = rx_avail(r);
	nb_pkts = RTE_MIN(nb_pkts, ISM_RING_MAX_BURST);
	next = r->rx_next;
	/* Pass 1: descriptors (each read once), and the data on its way. */
	for (k = 0; k < nb_pkts && avail > 0; k++) {
		len = __atomic_load_n(&r->rx_desc[next & r->rx_idx_mask].len,
				__ATOMIC_RELAXED);
		need = pkt_slots(len, r->rx_shift);
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
	for (j = 0; j < RTE_MIN(avail, (uint32_t)ISM_RING_MAX_BURST); j += 8)
		rte_prefetch0(&r->rx_desc[(next + j) & r->rx_idx_mask]);
	if (k > 0 && rte_pktmbuf_alloc_bulk(r->pool, mbufs, nb_mbufs) != 0) {
		r->stats.rx_no_mbuf++;
		k = 0;
		skip = 0;	/* try again next time, same state */
		next = r->rx_next;
	}
	/* Pass 2: build the mbufs. */
	for (j = 0; j < k; j++) {
		m = mbufs[mi];
		if (r->zero_copy && likely(p[j].nb_mbufs == 1)) {
			zc_attach(r, m, p[j].slot & r->rx_idx_mask,
				  pkt_slots(p[j].len, r->rx_shift), p[j].len);
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
		zc_reclaim(r);
	if (k > 0) {
		r->stats.rx_pkts += k;
		r->stats.rx_bytes += bytes;
		r->stats.rx_bursts++;
	}
	rx_credit(r, k == 0);
	return k;
}
