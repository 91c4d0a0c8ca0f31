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
 *
 * The control steps never write what the send or the receive side owns
 * (ism_ring_private.h): they publish each connection (rx_pub, tx_pub) and
 * each side takes it at the start of its next call.
 *
 * A ring holds its ISM device with a removal callback (ring_dev_removed):
 * the callback ends the connection as rte_ism_ring_peer_clear() does
 * (waiting for the two sides to leave their calls on it), gives our DMB
 * back and sets dev_gone under ctl.lock; from then on nothing here uses
 * the device's id or our DMB's memory again.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <rte_atomic.h>
#include <rte_branch_prediction.h>
#include <rte_cycles.h>
#include <rte_errno.h>
#include <rte_pause.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_ring_private.h"

RTE_LOG_REGISTER_DEFAULT(ism_ring_logtype, NOTICE);

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_slots_off, 26.03)
uint32_t
rte_ism_ring_slots_off(const struct rte_ism_ring_geom *g)
{
	return RTE_ALIGN_CEIL(RTE_ISM_RING_DESC_OFF +
			g->nb_slots * sizeof(struct rte_ism_ring_desc),
			RTE_CACHE_LINE_SIZE);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_dmb_len, 26.03)
uint64_t
rte_ism_ring_dmb_len(const struct rte_ism_ring_geom *g)
{
	return rte_ism_ring_slots_off(g) + (uint64_t)g->nb_slots * g->slot_size;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_geom_check, 26.03)
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
 * rte_extmem_register()), else RTE_BAD_IOVA: fine for software ports.
 */
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
	r->freed = rte_zmalloc("ism_ring_freed", n * sizeof(*r->freed), 0);
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

static void ring_dev_removed(uint16_t dev_id, void *arg);

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_create, 26.03)
struct rte_ism_ring *
rte_ism_ring_create(const struct rte_ism_ring_conf *conf)
{
	struct rte_ism_ring *r;
	uint32_t mbuf_room;
	int ret;

	if (conf == NULL || conf->pool == NULL) {
		RING_LOG(ERR, "NULL configuration or pool");
		rte_errno = EINVAL;
		return NULL;
	}
	if (rte_ism_ring_geom_check(&conf->geom) < 0) {
		RING_LOG(ERR, "bad ring geometry: %u slots of %u bytes",
			 conf->geom.nb_slots, conf->geom.slot_size);
		rte_errno = EINVAL;
		return NULL;
	}
	mbuf_room = rte_pktmbuf_data_room_size(conf->pool);
	if (mbuf_room <= RTE_PKTMBUF_HEADROOM) {
		RING_LOG(ERR, "mbufs of pool %s have no data room",
			 conf->pool->name);
		rte_errno = EINVAL;
		return NULL;
	}
	/* Pools of pinned external buffers keep a flag the short mbuf
	 * initialisation of the receive side would clear.
	 */
	if (conf->zero_copy && (rte_pktmbuf_priv_flags(conf->pool) &
				RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF)) {
		RING_LOG(ERR, "zero copy needs a pool of direct mbufs, %s has "
			 "pinned external buffers", conf->pool->name);
		rte_errno = EINVAL;
		return NULL;
	}
	r = rte_zmalloc_socket("ism_ring", sizeof(*r), RTE_CACHE_LINE_SIZE,
			conf->pool->socket_id);
	if (r == NULL) {
		RING_LOG(ERR, "no memory for a ring");
		rte_errno = ENOMEM;
		return NULL;
	}
	rte_spinlock_init(&r->ctl.lock);
	rte_seqcount_init(&r->rx_seq);
	rte_seqcount_init(&r->tx_seq);
	rte_atomic_store_explicit(&r->max_len, UINT32_MAX,
			rte_memory_order_relaxed);
	r->dev_id = conf->dev_id;
	r->port = conf->port;
	r->zero_copy = conf->zero_copy;
	r->poll_cursor = conf->poll_cursor;
	r->rx_signals = conf->rx_signals;
	r->pool = conf->pool;
	r->room = mbuf_room - RTE_PKTMBUF_HEADROOM;
	if (!(rte_pktmbuf_priv_flags(conf->pool) &
	      RTE_PKTMBUF_POOL_F_PINNED_EXT_BUF))
		r->mbuf_rearm = ism_ring_rearm_data(conf->port);
	r->rx_geom = conf->geom;
	r->rx_shift = rte_bsf32(conf->geom.slot_size);
	r->rx_idx_mask = conf->geom.nb_slots - 1;
	r->credit_batch = RTE_MAX(conf->geom.nb_slots / 16, 1u);
	r->rx_ring_mask = conf->geom.nb_slots * conf->geom.slot_size - 1;

	r->dmb.len = rte_ism_ring_dmb_len(&conf->geom);
	r->dmb.rgid = conf->peer;
	ret = rte_ism_dmb_register(r->dev_id, &r->dmb);
	if (ret < 0) {
		rte_free(r);
		rte_errno = -ret;
		return NULL;
	}
	r->rx_desc = RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_DESC_OFF);
	r->rx_slots = RTE_PTR_ADD(r->dmb.addr,
			rte_ism_ring_slots_off(&r->rx_geom));
	if (r->zero_copy && zc_arrays_alloc(r) < 0) {
		RING_LOG(ERR, "no memory for %u zero-copy slots",
			 r->rx_geom.nb_slots);
		rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
		rte_free(r);
		rte_errno = ENOMEM;
		return NULL;
	}
	ret = rte_ism_dev_remove_callback_register(r->dev_id, ring_dev_removed,
			r);
	if (ret < 0) {
		RING_LOG(ERR, "cannot hold ISM device %u: %s", r->dev_id,
			 strerror(-ret));
		zc_arrays_free(r);
		rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
		rte_free(r);
		rte_errno = -ret;
		return NULL;
	}
	return r;
}

static void
rx_publish(struct rte_ism_ring *r, const struct ism_ring_rx_sess *s)
{
	rte_seqcount_write_begin(&r->rx_seq);
	r->rx_pub = *s;
	rte_seqcount_write_end(&r->rx_seq);
	r->ctl.rx = *s;
	r->ctl.rx_sn = rte_seqcount_read_begin(&r->rx_seq);
}

static void
tx_publish(struct rte_ism_ring *r, const struct ism_ring_tx_sess *s)
{
	rte_seqcount_write_begin(&r->tx_seq);
	r->tx_pub = *s;
	rte_seqcount_write_end(&r->tx_seq);
	r->ctl.tx_sn = rte_seqcount_read_begin(&r->tx_seq);
	rte_atomic_store_explicit(&r->tx_ready, s->token != 0,
			rte_memory_order_relaxed);
}

/*
 * Wait until the side whose busy and sn words these are cannot be in a
 * call on what was published before sn: it is not in a call, or its call
 * took sn. The fence pairs with the one of ism_ring_enter(): either the
 * side's load of the sequence number sees our publication, or we see its
 * busy store. A call is short; spin, then sleep a little (a thread of the
 * data path may have been preempted).
 */
static void
ism_ring_quiesce(__rte_atomic uint32_t *busy, __rte_atomic uint32_t *seen,
		uint32_t sn)
{
	unsigned int spins = 0;

	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	while (rte_atomic_load_explicit(busy, rte_memory_order_acquire) != 0 &&
	       rte_atomic_load_explicit(seen, rte_memory_order_acquire) != sn) {
		if (++spins < 1000)
			rte_pause();
		else
			rte_delay_us_sleep(10);
	}
}

static void
peer_clear_locked(struct rte_ism_ring *r)
{
	static const struct ism_ring_rx_sess no_rx;
	static const struct ism_ring_tx_sess no_tx;
	int ret;

	if (r->ctl.announced) {
		rx_publish(r, &no_rx);
		ism_ring_quiesce(&r->rx_busy, &r->rx_sn, r->ctl.rx_sn);
	}
	if (r->ctl.tx_started) {
		tx_publish(r, &no_tx);
		ism_ring_quiesce(&r->tx_busy, &r->tx_sn, r->ctl.tx_sn);
	}
	/* Neither side writes for the old connection any more. */
	if (r->ctl.map_token != 0) {
		ret = rte_ism_dmb_detach(r->dev_id, r->ctl.map_token);
		if (ret < 0)
			RING_LOG(DEBUG, "detaching the peer's DMB 0x%" PRIx64
				 ": %s", r->ctl.map_token, strerror(-ret));
		r->ctl.map_token = 0;
	}
	r->ctl.token = 0;
	r->ctl.announced = false;
	r->ctl.tx_started = false;
	r->ctl.err = 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_peer_clear, 26.03)
void
rte_ism_ring_peer_clear(struct rte_ism_ring *r)
{
	if (r == NULL)
		return;
	rte_spinlock_lock(&r->ctl.lock);
	peer_clear_locked(r);
	rte_spinlock_unlock(&r->ctl.lock);
}

/* Zero copy: slots of our DMB that mbufs still hold, counted without
 * writing (the receive side may be reclaiming them at the same time: a
 * slot it is giving back may count as held).
 */
static uint32_t
zc_held_now(const struct rte_ism_ring *r)
{
	uint32_t cons = rte_atomic_load_explicit(&r->rx_cons,
			rte_memory_order_acquire);
	const uint32_t next = rte_atomic_load_explicit(&r->rx_next,
			rte_memory_order_acquire);
	uint32_t i;

	if (!r->zero_copy)
		return 0;
	while (cons != next) {
		i = cons & r->rx_idx_mask;
		if (!rte_atomic_load_explicit(&r->freed[i],
				rte_memory_order_acquire))
			break;
		cons += r->run[i];
	}
	return next - cons;
}

/*
 * The removal callback of the ring's device, on the thread that removes
 * it, with the device still working: end the connection (both sides leave
 * their calls on it first), give our DMB back unless zero-copy mbufs still
 * hold slots of it (its memory then goes with the device), and never use
 * the id again.
 */
static void
ring_dev_removed(uint16_t dev_id __rte_unused, void *arg)
{
	struct rte_ism_ring *r = arg;
	uint32_t held;

	rte_spinlock_lock(&r->ctl.lock);
	peer_clear_locked(r);
	held = zc_held_now(r);
	if (held == 0)
		rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
	else
		RING_LOG(WARNING, "ISM device %u removed while zero-copy mbufs "
			 "hold %u slots of its DMB: their data goes with it",
			 r->dev_id, held);
	r->dmb.token = 0;
	rte_atomic_store_explicit(&r->ctl.dev_gone, true,
			rte_memory_order_release);
	rte_spinlock_unlock(&r->ctl.lock);
}

/* Let the device go: no removal callback of ours runs or will run. */
static void
ring_dev_release(struct rte_ism_ring *r)
{
	/* -EAGAIN: ring_dev_removed() runs on another thread now, and
	 * needs ctl.lock only, which we do not hold: wait for it.
	 */
	while (rte_ism_dev_remove_callback_unregister(r->dev_id,
			ring_dev_removed, r) == -EAGAIN)
		rte_pause();
}

static bool
ring_dev_gone(const struct rte_ism_ring *r)
{
	return rte_atomic_load_explicit(&r->ctl.dev_gone,
			rte_memory_order_acquire);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_free, 26.03)
int
rte_ism_ring_free(struct rte_ism_ring *r)
{
	uint32_t held;

	if (r == NULL)
		return 0;
	rte_ism_ring_peer_clear(r);
	if (r->zero_copy) {
		ism_ring_zc_reclaim(r);
		held = rte_ism_ring_rx_held(r);
		if (held != 0) {
			/* Leak rather than let mbufs point to freed memory;
			 * the ring keeps holding the device.
			 */
			RING_LOG(WARNING, "%u slots still held by mbufs: "
				 "the DMB stays registered", held);
			return -EBUSY;
		}
	}
	if (!ring_dev_gone(r))
		ring_dev_release(r);
	/* The removal may have come meanwhile: then the DMB went with it
	 * (its token is 0).
	 */
	if (!ring_dev_gone(r))
		rte_ism_dmb_unregister(r->dev_id, r->dmb.token);
	zc_arrays_free(r);
	rte_free(r);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_peer_set, 26.03)
int
rte_ism_ring_peer_set(struct rte_ism_ring *r, uint64_t token,
		const struct rte_ism_ring_geom *geom)
{
	if (r == NULL || token == 0 || rte_ism_ring_geom_check(geom) < 0) {
		RING_LOG(DEBUG, "peer_set: no ring, zero token or bad geometry");
		return -EINVAL;
	}
	rte_spinlock_lock(&r->ctl.lock);
	if (ring_dev_gone(r)) {
		rte_spinlock_unlock(&r->ctl.lock);
		RING_LOG(DEBUG, "peer_set: the ISM device was removed");
		return -ENODEV;
	}
	peer_clear_locked(r);
	r->ctl.token = token;
	r->ctl.geom = *geom;
	rte_spinlock_unlock(&r->ctl.lock);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_set_max_len, 26.03)
void
rte_ism_ring_set_max_len(struct rte_ism_ring *r, uint32_t max_len)
{
	if (r == NULL)
		return;
	/* The send side reads it once per call. */
	rte_atomic_store_explicit(&r->max_len,
			max_len != 0 ? max_len : UINT32_MAX,
			rte_memory_order_relaxed);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_announce, 26.03)
int
rte_ism_ring_announce(struct rte_ism_ring *r)
{
	struct rte_ism_ring_credit c;
	struct ism_ring_rx_sess s;
	int ret = 0;

	if (r == NULL) {
		RING_LOG(ERR, "announce: NULL ring");
		return -EINVAL;
	}
	rte_spinlock_lock(&r->ctl.lock);
	if (r->ctl.token == 0) {
		RING_LOG(DEBUG, "announce: no peer");
		ret = ring_dev_gone(r) ? -ENODEV : -ENOTCONN;
		goto out;
	}
	if (r->ctl.announced)
		goto out;	/* the receive side keeps the credits */
	/*
	 * The ring restarts where the receive side is; what an old peer
	 * published beyond that is dropped. The receive side checks, when
	 * it takes this connection, that it has not moved since (it may be
	 * in a call on the old one now): if it has, it stops, and the link
	 * starts over. Slots held by zero-copy mbufs stay out of the credits.
	 */
	s.token = r->ctl.token;
	s.start = rte_atomic_load_explicit(&r->rx_next,
			rte_memory_order_acquire);
	s.cons = rte_atomic_load_explicit(&r->rx_cons,
			rte_memory_order_acquire);
	/* No peer writes our DMB now (the new one waits for READY). */
	rte_atomic_store_explicit(ism_ring_own_prod(r), s.start,
			rte_memory_order_release);
	c.cons = s.cons;
	c.start = s.start;
	ret = rte_ism_move_data(r->dev_id, s.token, 0, 0,
			RTE_ISM_RING_CREDIT_OFF, &c, sizeof(c));
	if (ret < 0) {
		RING_LOG(DEBUG, "announce: move failed: %s", strerror(-ret));
		r->ctl.err = ret;	/* for rte_ism_ring_link_tick() */
		goto out;
	}
	/* After the move: the receive side's credit moves come later. */
	rx_publish(r, &s);
	r->ctl.announced = true;
out:
	rte_spinlock_unlock(&r->ctl.lock);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_tx_start, 26.03)
int
rte_ism_ring_tx_start(struct rte_ism_ring *r, bool signal)
{
	volatile struct rte_ism_ring_credit *c;
	struct ism_ring_tx_sess s;
	struct rte_ism_dmb peer;
	int ret = 0;

	if (r == NULL) {
		RING_LOG(ERR, "tx_start: NULL ring");
		return -EINVAL;
	}
	rte_spinlock_lock(&r->ctl.lock);
	if (r->ctl.token == 0) {
		RING_LOG(DEBUG, "tx_start: no peer");
		ret = ring_dev_gone(r) ? -ENODEV : -ENOTCONN;
		goto out;
	}
	if (r->ctl.tx_started)
		goto out;
	memset(&s, 0, sizeof(s));
	c = ism_ring_own_credit(r);
	s.cons = rte_atomic_load_explicit(ism_ring_own_cons(r),
			rte_memory_order_acquire);
	s.start = c->start;
	/* Each read once: checked here, used as read. */
	if (s.start - s.cons > r->ctl.geom.nb_slots) {
		RING_LOG(DEBUG, "tx_start: the peer's credits %u..%u make no "
			 "sense", s.cons, s.start);
		ret = -EPROTO;
		goto out;
	}
	if (r->zero_copy) {
		ret = rte_ism_dmb_attach(r->dev_id, r->ctl.token, &peer);
		if (ret < 0)
			goto out;
		if (peer.len < rte_ism_ring_dmb_len(&r->ctl.geom)) {
			RING_LOG(DEBUG, "tx_start: the peer's DMB (%u bytes) "
				 "is shorter than its ring", peer.len);
			rte_ism_dmb_detach(r->dev_id, r->ctl.token);
			ret = -EPROTO;
			goto out;
		}
		s.map = peer.addr;
	}
	s.token = r->ctl.token;
	s.geom = r->ctl.geom;
	s.sf = signal ? 1 : 0;
	tx_publish(r, &s);
	if (s.map != NULL)
		r->ctl.map_token = s.token;
	r->ctl.tx_started = true;
out:
	rte_spinlock_unlock(&r->ctl.lock);
	return ret;
}

/* An error word of the current connection, or 0. */
static int
err_of(uint64_t w, uint32_t sn)
{
	if ((uint32_t)(w >> 32) != sn || (uint32_t)w == 0)
		return 0;
	return -(int)(uint32_t)w;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_error, 26.03)
int
rte_ism_ring_error(struct rte_ism_ring *r)
{
	int err;

	if (r == NULL)
		return -EINVAL;
	rte_spinlock_lock(&r->ctl.lock);
	err = r->ctl.err;
	if (err == 0 && r->ctl.tx_started)
		err = err_of(rte_atomic_load_explicit(&r->tx_err,
				rte_memory_order_acquire), r->ctl.tx_sn);
	if (err == 0 && r->ctl.announced)
		err = err_of(rte_atomic_load_explicit(&r->rx_err,
				rte_memory_order_acquire), r->ctl.rx_sn);
	rte_spinlock_unlock(&r->ctl.lock);
	return err;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_rx_pending, 26.03)
bool
rte_ism_ring_rx_pending(const struct rte_ism_ring *r)
{
	uint32_t next, prod;

	/* Our DMB went with a removed device. */
	if (r == NULL || ring_dev_gone(r))
		return false;
	next = rte_atomic_load_explicit(&r->rx_next, rte_memory_order_acquire);
	prod = rte_atomic_load_explicit(ism_ring_own_prod(r),
			rte_memory_order_acquire);
	/* Between 1 and nb_slots ahead: published, not received. */
	return prod - next - 1 < r->rx_geom.nb_slots;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_rx_held, 26.03)
uint32_t
rte_ism_ring_rx_held(const struct rte_ism_ring *r)
{
	if (r == NULL)
		return 0;
	return rte_atomic_load_explicit(&r->rx_next, rte_memory_order_acquire) -
		rte_atomic_load_explicit(&r->rx_cons, rte_memory_order_acquire);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_tx_ready, 26.03)
bool
rte_ism_ring_tx_ready(const struct rte_ism_ring *r)
{
	if (r == NULL)
		return false;
	return rte_atomic_load_explicit(&r->tx_ready,
			rte_memory_order_relaxed);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_info_get, 26.03)
int
rte_ism_ring_info_get(struct rte_ism_ring *r, struct rte_ism_ring_info *info)
{
	if (r == NULL || info == NULL) {
		RING_LOG(ERR, "info_get: NULL argument");
		return -EINVAL;
	}
	memset(info, 0, sizeof(*info));
	info->dev_id = r->dev_id;
	info->zero_copy = r->zero_copy;
	info->poll_cursor = r->poll_cursor;
	info->geom = r->rx_geom;
	info->token = r->dmb.token;
	info->dmb_len = r->dmb.len;
	rte_spinlock_lock(&r->ctl.lock);
	info->peer_token = r->ctl.token;
	if (r->ctl.token != 0)
		info->peer_geom = r->ctl.geom;
	info->tx_ready = r->ctl.tx_started;
	rte_spinlock_unlock(&r->ctl.lock);
	info->rx_held = rte_ism_ring_rx_held(r);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_stats_get, 26.03)
int
rte_ism_ring_stats_get(const struct rte_ism_ring *r,
		struct rte_ism_ring_rx_stats *rx, struct rte_ism_ring_tx_stats *tx)
{
	if (r == NULL) {
		RING_LOG(ERR, "stats_get: NULL ring");
		return -EINVAL;
	}
	/* Each counter has one writer; a 64-bit load sees it whole. */
	if (rx != NULL)
		*rx = *(const volatile struct rte_ism_ring_rx_stats *)
			&r->rx_stats;
	if (tx != NULL)
		*tx = *(const volatile struct rte_ism_ring_tx_stats *)
			&r->tx_stats;
	return 0;
}
