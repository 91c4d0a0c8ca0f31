/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The ring protocol (layout in rte_ism_ring.h): set-up and control steps;
 * the send side is in ism_ring_tx.c, the receive side in ism_ring_rx.c.
 * Everything the peer wrote is read once and checked before use: a
 * confused or hostile peer can make us drop packets, never read or write
 * outside our DMB. Failures a peer can cause again and again are logged at
 * debug level only (the handshake reports them, rate-limited).
 */

#include <errno.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <ism_compat.h>

#include "ism_ring_private.h"

RTE_LOG_REGISTER_DEFAULT(ism_ring_logtype, NOTICE);

uint32_t
rte_ism_ring_slots_off(const struct rte_ism_ring_geom *g)
{
	return RTE_ALIGN_CEIL(RTE_ISM_RING_DESC_OFF +
			g->nb_slots * sizeof(struct rte_ism_ring_desc),
			RTE_CACHE_LINE_SIZE);
}

uint64_t
rte_ism_ring_dmb_len(const struct rte_ism_ring_geom *g)
{
	return rte_ism_ring_slots_off(g) + (uint64_t)g->nb_slots * g->slot_size;
}

int
rte_ism_ring_geom_check(const struct rte_ism_ring_geom *g)
{
	if (g == NULL || !rte_is_power_of_2(g->nb_slots) ||
	    !rte_is_power_of_2(g->slot_size) ||
	    g->nb_slots < RTE_ISM_RING_SLOTS_MIN ||
	    g->nb_slots > RTE_ISM_RING_SLOTS_MAX ||
	    g->slot_size < RTE_ISM_RING_SLOT_MIN ||
	    g->slot_size > RTE_ISM_RING_SLOT_MAX ||
	    rte_ism_ring_dmb_len(g) > UINT32_MAX / 2)
		return -EINVAL;
	return 0;
}

static void
zc_free_cb(void *addr, void *opaque)
{
	struct rte_ism_ring *r = opaque;
	uint32_t i = RTE_PTR_DIFF(addr, r->rx_slots) >> r->rx_shift;

	/* May run on any lcore that frees the mbuf. */
	rte_atomic_store_explicit(&r->freed[i], 1, rte_memory_order_release);
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
zc_arrays_free(struct rte_ism_ring *r)
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
zc_arrays_alloc(struct rte_ism_ring *r)
{
	uint32_t i, n = r->rx_geom.nb_slots;

	r->shinfo = rte_zmalloc("ism_ring_shinfo", n * sizeof(*r->shinfo), 0);
	r->run = rte_zmalloc("ism_ring_run", n * sizeof(*r->run), 0);
	r->freed = rte_zmalloc("ism_ring_freed", n, 0);
	r->iova = rte_zmalloc("ism_ring_iova", n * sizeof(*r->iova), 0);
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
rte_ism_ring_init(struct rte_ism_ring *r, const struct rte_ism_ring_conf *conf)
{
	uint32_t mbuf_room;
	int ret;

	if (r == NULL || conf == NULL || conf->pool == NULL) {
		RING_LOG(ERR, "NULL ring, configuration or pool");
		return -EINVAL;
	}
	memset(r, 0, sizeof(*r));
	ret = rte_ism_ring_geom_check(&conf->geom);
	if (ret < 0) {
		RING_LOG(ERR, "bad ring geometry: %u slots of %u bytes",
			 conf->geom.nb_slots, conf->geom.slot_size);
		return ret;
	}
	mbuf_room = rte_pktmbuf_data_room_size(conf->pool);
	if (mbuf_room <= RTE_PKTMBUF_HEADROOM) {
		RING_LOG(ERR, "mbufs of pool %s have no data room",
			 conf->pool->name);
		return -EINVAL;
	}
	rte_spinlock_init(&r->rx_lock);
	rte_spinlock_init(&r->tx_lock);
	r->dev_id = conf->dev_id;
	r->port = conf->port;
	r->zero_copy = conf->zero_copy;
	r->poll_cursor = conf->poll_cursor;
	r->rx_signals = conf->rx_signals;
	r->pool = conf->pool;
	r->room = mbuf_room - RTE_PKTMBUF_HEADROOM;
	/* Pools of pinned external buffers keep a flag the short mbuf
	 * initialisation of the receive side would clear. */
	if (rte_pktmbuf_priv_flags(conf->pool) &
	    RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF) {
		if (conf->zero_copy) {
			RING_LOG(ERR, "zero copy needs a pool of direct mbufs, "
				 "%s has pinned external buffers",
				 conf->pool->name);
			return -EINVAL;
		}
	} else {
		r->mbuf_rearm = ism_ring_rearm_data(conf->port);
	}
	r->rx_geom = conf->geom;
	r->rx_shift = rte_bsf32(conf->geom.slot_size);
	r->rx_idx_mask = conf->geom.nb_slots - 1;
	r->credit_batch = RTE_MAX(conf->geom.nb_slots / 16, 1u);
	r->rx_ring_mask = conf->geom.nb_slots * conf->geom.slot_size - 1;

	r->dmb.len = rte_ism_ring_dmb_len(&conf->geom);
	r->dmb.rgid = conf->peer;
	ret = rte_ism_dmb_register(r->dev_id, &r->dmb);
	if (ret < 0)
		return ret;
	r->rx_desc = RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_DESC_OFF);
	r->rx_slots = RTE_PTR_ADD(r->dmb.addr,
			rte_ism_ring_slots_off(&r->rx_geom));
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

int
rte_ism_ring_fini(struct rte_ism_ring *r)
{
	if (r == NULL || r->dmb.token == 0)
		return 0;
	rte_ism_ring_peer_clear(r);
	if (r->zero_copy) {
		rte_spinlock_lock(&r->rx_lock);
		ism_ring_zc_reclaim(r);
		rte_spinlock_unlock(&r->rx_lock);
		if (rte_ism_ring_rx_held(r) != 0) {
			/* Leak rather than let mbufs point to freed memory. */
			RING_LOG(WARNING, "%u slots still held by mbufs: "
				 "the DMB stays registered",
				 rte_ism_ring_rx_held(r));
			return -EBUSY;
		}
		zc_arrays_free(r);
	}
	rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
	r->dmb.token = 0;
	return 0;
}

static void
ctl_lock(struct rte_ism_ring *r)
{
	rte_spinlock_lock(&r->rx_lock);
	rte_spinlock_lock(&r->tx_lock);
}

static void
ctl_unlock(struct rte_ism_ring *r)
{
	rte_spinlock_unlock(&r->tx_lock);
	rte_spinlock_unlock(&r->rx_lock);
}

/* Our receive ring restarts where we stopped handing out slots; whatever
 * the old peer published beyond that is dropped. Only we write our DMB
 * here, at a time when no peer may write it (none is connected). */
static void
rx_restart(struct rte_ism_ring *r)
{
	r->rx_prod = r->rx_next;
	r->rx_start = r->rx_next;
	r->credit_sent = r->rx_cons;
	rte_atomic_store_explicit(ism_ring_own_prod(r), r->rx_next, rte_memory_order_release);
}

static void
peer_clear_locked(struct rte_ism_ring *r)
{
	if (r->tx_map != NULL)
		rte_ism_dmb_detach(r->dev_id, r->peer_token);
	r->tx_map = NULL;
	rte_free(r->tx_desc);
	r->tx_desc = NULL;
	r->peer_token = 0;
	rte_atomic_store_explicit(&r->tx_ready, false, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&r->tx_error, 0, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&r->rx_error, 0, rte_memory_order_relaxed);
	if (r->dmb.token != 0)
		rx_restart(r);
}

void
rte_ism_ring_peer_clear(struct rte_ism_ring *r)
{
	if (r == NULL)
		return;
	ctl_lock(r);
	peer_clear_locked(r);
	ctl_unlock(r);
}

/* The longest packet we send: the user's limit, and what the peer's ring
 * can hold. */
static void
tx_max_len_update(struct rte_ism_ring *r)
{
	uint32_t ring = r->tx_geom.nb_slots * r->tx_geom.slot_size;

	r->tx_max_len = r->max_len != 0 ? RTE_MIN(r->max_len, ring) : ring;
}

int
rte_ism_ring_peer_set(struct rte_ism_ring *r, uint64_t token,
		const struct rte_ism_ring_geom *geom)
{
	struct rte_ism_ring_desc *desc = NULL;

	if (r == NULL || token == 0 || rte_ism_ring_geom_check(geom) < 0) {
		RING_LOG(DEBUG, "peer_set: no ring, zero token or bad geometry");
		return -EINVAL;
	}
	if (!r->zero_copy) {
		desc = rte_zmalloc("ism_ring_tx_desc",
				geom->nb_slots * sizeof(*desc), 0);
		if (desc == NULL) {
			RING_LOG(ERR, "no memory for %u descriptors",
				 geom->nb_slots);
			return -ENOMEM;
		}
	}
	ctl_lock(r);
	peer_clear_locked(r);
	r->tx_desc = desc;
	r->peer_token = token;
	r->tx_geom = *geom;
	r->tx_shift = rte_bsf32(geom->slot_size);
	r->tx_idx_mask = geom->nb_slots - 1;
	r->tx_ring_mask = geom->nb_slots * geom->slot_size - 1;
	r->tx_slots_off = rte_ism_ring_slots_off(geom);
	tx_max_len_update(r);
	ctl_unlock(r);
	return 0;
}

void
rte_ism_ring_set_max_len(struct rte_ism_ring *r, uint32_t max_len)
{
	if (r == NULL)
		return;
	ctl_lock(r);
	r->max_len = max_len;
	tx_max_len_update(r);
	ctl_unlock(r);
}

int
rte_ism_ring_announce(struct rte_ism_ring *r)
{
	struct rte_ism_ring_credit c;
	int ret = 0;

	if (r == NULL) {
		RING_LOG(ERR, "announce: NULL ring");
		return -EINVAL;
	}
	ctl_lock(r);
	if (r->peer_token == 0) {
		RING_LOG(DEBUG, "announce: no peer");
		ret = -ENOTCONN;
		goto out;
	}
	c.cons = r->rx_cons;
	c.start = r->rx_start;
	ret = rte_ism_move_data(r->dev_id, r->peer_token, 0, 0,
			RTE_ISM_RING_CREDIT_OFF, &c, sizeof(c));
	if (ret < 0) {
		RING_LOG(DEBUG, "announce: move failed: %s", strerror(-ret));
		r->rx_stats.move_errors++;
		rte_atomic_store_explicit(&r->rx_error, ret, rte_memory_order_relaxed);
		goto out;
	}
	r->credit_sent = c.cons;
out:
	ctl_unlock(r);
	return ret;
}

int
rte_ism_ring_tx_start(struct rte_ism_ring *r, bool signal)
{
	volatile struct rte_ism_ring_credit *c;
	struct rte_ism_dmb peer;
	uint32_t cons, start;
	int ret = 0;

	if (r == NULL) {
		RING_LOG(ERR, "tx_start: NULL ring");
		return -EINVAL;
	}
	ctl_lock(r);
	if (r->peer_token == 0) {
		RING_LOG(DEBUG, "tx_start: no peer");
		ret = -ENOTCONN;
		goto out;
	}
	c = ism_ring_own_credit(r);
	cons = rte_atomic_load_explicit(&c->cons, rte_memory_order_acquire);
	start = c->start;
	if (start - cons > r->tx_geom.nb_slots) {
		RING_LOG(DEBUG, "tx_start: the peer's credits %u..%u make no "
			 "sense", cons, start);
		ret = -EPROTO;
		goto out;
	}
	if (r->zero_copy && r->tx_map == NULL) {
		ret = rte_ism_dmb_attach(r->dev_id, r->peer_token, &peer);
		if (ret < 0)
			goto out;
		if (peer.len < rte_ism_ring_dmb_len(&r->tx_geom)) {
			RING_LOG(DEBUG, "tx_start: the peer's DMB (%u bytes) "
				 "is shorter than its ring", peer.len);
			rte_ism_dmb_detach(r->dev_id, r->peer_token);
			ret = -EPROTO;
			goto out;
		}
		r->tx_map = peer.addr;
	}
	r->tx_sf = signal ? 1 : 0;
	r->tx_prod = start;
	r->tx_cons = cons;
	rte_atomic_store_explicit(&r->tx_ready, true, rte_memory_order_relaxed);
out:
	ctl_unlock(r);
	return ret;
}
