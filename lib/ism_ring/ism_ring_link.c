/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Token exchange and peer tracking of a link over ISM events (protocol in
 * rte_ism_ring.h). Called between bursts or from a control thread, about
 * once a millisecond; nothing here waits for the peer.
 *
 * Once the ISM device of the link is removed (its rings know it from their
 * removal callbacks), the link reports the peer lost, once, and never
 * calls rte_ism_* with the device's id again: it may name another device.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_cycles.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_ring_private.h"

#define MSG_MAGIC	0xf5u
#define MSG_VERSION	3u	/* 3: descriptors in packet order */
#define MSG_HELLO	1u
#define MSG_READY	2u
#define MSG_BYE		3u

#define READY_F_NO_SIGNAL	0x1u	/* the sender reads its cursor */

#define HELLO_PERIOD_MS	100
#define WARN_PERIOD_MS	1000	/* peer-triggered warnings, at most */
#define FIRST_QUIET_MS	50	/* after the free restarts, then doubled */

static uint32_t
msg_code(uint32_t type, uint32_t payload)
{
	return MSG_MAGIC << 24 | MSG_VERSION << 20 | type << 16 | payload;
}

/* Our message? Then its type, else 0. */
static uint32_t
msg_type(uint32_t code)
{
	if (code >> 24 != MSG_MAGIC || ((code >> 20) & 0xf) != MSG_VERSION)
		return 0;
	return (code >> 16) & 0xf;
}

static uint32_t
hello_payload(const struct rte_ism_ring_link *l, uint16_t i)
{
	const struct rte_ism_ring_geom *g = &l->rings[i]->rx_geom;

	return (uint32_t)i << 12 | (uint32_t)(l->nb_rings - 1) << 8 |
		(rte_bsf32(g->nb_slots) - 4) << 4 |
		(rte_bsf32(g->slot_size) - 6);
}

/* Logs that a peer can trigger again and again: one a second at most. */
static bool
warn_ok(struct rte_ism_ring_link *l)
{
	uint64_t now = rte_rdtsc();

	if (now < l->next_warn)
		return false;
	l->next_warn = now + rte_get_tsc_hz() / 1000 * WARN_PERIOD_MS;
	return true;
}

/* The device of the link was removed (any of its rings heard of it). */
static bool
link_dev_gone(const struct rte_ism_ring_link *l)
{
	uint16_t i;

	for (i = 0; i < l->nb_rings; i++)
		if (rte_atomic_load_explicit(&l->rings[i]->ctl.dev_gone,
				rte_memory_order_acquire))
			return true;
	return false;
}

static void
link_send(struct rte_ism_ring_link *l, uint32_t type, uint32_t payload,
		uint64_t info)
{
	int ret;

	if (link_dev_gone(l))
		return;
	/* A peer not there yet is normal while we wait for it: ask first,
	 * which (unlike a failed send) logs nothing.
	 */
	ret = rte_ism_query_remote_gid(l->dev_id, &l->gid, 0, 0);
	if (ret == 0)
		ret = rte_ism_signal_event(l->dev_id, &l->gid, 1,
				msg_code(type, payload), info);
	if (ret < 0 && ret != -ENETUNREACH && ret != l->last_send_error)
		RING_LOG(WARNING, "cannot send to the peer: %s",
			 strerror(-ret));
	l->last_send_error = ret;
}

static bool
peer_known(const struct rte_ism_ring_link *l)
{
	uint16_t i;

	for (i = 0; i < l->nb_rings; i++)
		if (l->peer_token[i] != 0)
			return true;
	return false;
}

static unsigned int
report(struct rte_ism_ring_link *l, unsigned int what, const char *why,
		const struct rte_ism_event *ev)
{
	struct rte_ism_ring_link_report rep = {
		.what = what,
		.why = why,
		.ev = ev,
	};

	if (l->cb != NULL)
		l->cb(l->cb_arg, &rep);
	return what;
}

static void
forget_peer(struct rte_ism_ring_link *l)
{
	uint16_t i;

	for (i = 0; i < l->nb_rings; i++) {
		rte_ism_ring_peer_clear(l->rings[i]);
		l->peer_token[i] = 0;
		l->confirmed[i] = false;
	}
	l->peer_nb_rings = 0;
	l->up = false;
	l->next_hello = 0;
	l->extra_rings_told = false;
}

static uint64_t
ms_to_tsc(uint64_t ms)
{
	return rte_get_tsc_hz() / 1000 * ms;
}

/* Whether the link ignores its peer now (it broke the protocol again and
 * again).
 */
static bool
quiet(const struct rte_ism_ring_link *l, uint64_t now)
{
	return l->quiet_until != 0 && now < l->quiet_until;
}

/* The peer broke the ring protocol once more (the link went down): past
 * the free restarts, ignore it for a while, longer each time; otherwise a
 * peer doing it after each new connection has us restart thousands of
 * times a second.
 */
static void
violation(struct rte_ism_ring_link *l, uint64_t now)
{
	uint32_t extra;
	uint64_t ms;

	l->nb_violations++;
	if (l->nb_violations <= RTE_ISM_RING_LINK_FREE_RESTARTS)
		return;
	extra = RTE_MIN(l->nb_violations - RTE_ISM_RING_LINK_FREE_RESTARTS - 1,
			16u);
	ms = RTE_MIN((uint64_t)FIRST_QUIET_MS << extra,
			(uint64_t)RTE_ISM_RING_LINK_MAX_QUIET_MS);
	l->quiet_until = now + ms_to_tsc(ms);
	if (warn_ok(l))
		RING_LOG(WARNING, "the peer broke the ring protocol %u times in "
			 "a row: ignoring it for %" PRIu64 " ms",
			 l->nb_violations, ms);
}

/* The peer is gone: drop its state, report, start announcing ourselves. */
static unsigned int
peer_lost(struct rte_ism_ring_link *l, const char *why,
		const struct rte_ism_event *ev, unsigned int what)
{
	forget_peer(l);
	l->nb_lost++;
	return report(l, what, why, ev);
}

/* The device was removed: a peer we knew is lost, once; then nothing. */
static unsigned int
gone_check(struct rte_ism_ring_link *l)
{
	if (peer_known(l) || l->up)
		return peer_lost(l, "its ISM device was removed", NULL,
				RTE_ISM_RING_LINK_LOST);
	return 0;
}

/* Up once every ring both sides have is connected both ways. */
static unsigned int
up_check(struct rte_ism_ring_link *l)
{
	uint16_t i, n = RTE_MIN(l->nb_rings, l->peer_nb_rings);

	if (l->up || n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (!l->confirmed[i])
			return 0;
	if (l->peer_nb_rings != l->nb_rings)
		RING_LOG(WARNING, "the peer has %u rings, we have %u: only %u "
			 "are used", l->peer_nb_rings, l->nb_rings, n);
	l->up = true;
	l->up_since = rte_rdtsc();
	l->nb_up++;
	return report(l, RTE_ISM_RING_LINK_UP, NULL, NULL);
}

static unsigned int
on_hello(struct rte_ism_ring_link *l, const struct rte_ism_event *ev)
{
	uint16_t i = (ev->code >> 12) & 0xf;
	uint16_t nb = ((ev->code >> 8) & 0xf) + 1;
	struct rte_ism_ring_geom g = {
		.nb_slots = 1u << (((ev->code >> 4) & 0xf) + 4),
		.slot_size = 1u << ((ev->code & 0xf) + 6),
	};
	struct rte_ism_ring *r;
	unsigned int what = 0;
	char unused[32];
	int ret;

	if (quiet(l, rte_rdtsc()))
		return 0;
	if (ev->info == 0) {
		if (warn_ok(l))
			RING_LOG(WARNING, "ignoring a HELLO without a token");
		return 0;
	}
	/* Repeated by the peer until confirmed, i.e. for as long as the
	 * connection lasts: said once per connection.
	 */
	if (i >= l->nb_rings) {
		if (!l->extra_rings_told) {
			l->extra_rings_told = true;
			nb = RTE_MAX(nb, i + 1);
			if (nb == l->nb_rings + 1)
				snprintf(unused, sizeof(unused), "ring %u is",
					 l->nb_rings);
			else
				snprintf(unused, sizeof(unused),
					 "rings %u-%u are", l->nb_rings,
					 nb - 1);
			RING_LOG(WARNING, "the peer has %u rings, we have %u: "
				 "its %s not used", nb, l->nb_rings, unused);
		}
		return 0;
	}
	r = l->rings[i];
	if (ev->info != l->peer_token[i]) {
		if (l->peer_token[i] != 0)
			what = peer_lost(l, "it restarted (new token)", ev,
					RTE_ISM_RING_LINK_LOST);
		ret = rte_ism_ring_peer_set(r, ev->info, &g);
		if (ret < 0) {
			if (warn_ok(l))
				RING_LOG(WARNING, "peer ring %u (%u slots of "
					 "%u bytes) refused: %s", i,
					 g.nb_slots, g.slot_size,
					 strerror(-ret));
			return what;
		}
		l->peer_token[i] = ev->info;
		l->confirmed[i] = false;
		RING_LOG(INFO, "peer ring %u: token 0x%016" PRIx64 ", %u slots "
			 "of %u bytes, %u rings", i, ev->info, g.nb_slots,
			 g.slot_size, nb);
		/* Let a restarted peer learn our token at once. */
		link_send(l, MSG_HELLO, hello_payload(l, i), r->dmb.token);
		l->next_hello = rte_rdtsc() + l->hello_period;
	}
	l->peer_nb_rings = nb;
	/* Credits and start first, so they are there when READY arrives. */
	ret = rte_ism_ring_announce(r);
	if (ret < 0)
		return what;	/* its DMB is gone: the tick notices */
	link_send(l, MSG_READY, r->poll_cursor && !r->rx_signals ?
		  READY_F_NO_SIGNAL : 0, l->peer_token[i]);
	return what;
}

static unsigned int
on_ready(struct rte_ism_ring_link *l, const struct rte_ism_event *ev)
{
	uint16_t i;
	int ret;

	for (i = 0; i < l->nb_rings; i++)
		if (l->rings[i]->dmb.token == ev->info)
			break;
	/* A READY before the peer's HELLO is ignored; our next HELLO
	 * brings another one.
	 */
	if (i == l->nb_rings || l->peer_token[i] == 0 || l->confirmed[i] ||
	    quiet(l, rte_rdtsc()))
		return 0;
	ret = rte_ism_ring_tx_start(l->rings[i],
			(ev->code & READY_F_NO_SIGNAL) == 0);
	if (ret < 0) {
		if (warn_ok(l))
			RING_LOG(WARNING, "ring %u: cannot start sending: %s",
				 i, strerror(-ret));
		return 0;
	}
	l->confirmed[i] = true;
	return up_check(l);
}

static bool
is_peer_token(const struct rte_ism_ring_link *l, uint64_t token)
{
	uint16_t i;

	for (i = 0; i < l->nb_rings; i++)
		if (token != 0 && l->peer_token[i] == token)
			return true;
	return false;
}

static bool
is_our_token(const struct rte_ism_ring_link *l, uint64_t token)
{
	uint16_t i;

	for (i = 0; i < l->nb_rings; i++)
		if (token != 0 && l->rings[i]->dmb.token == token)
			return true;
	return false;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_link_event, 26.03)
unsigned int
rte_ism_ring_link_event(struct rte_ism_ring_link *l,
		const struct rte_ism_event *ev)
{
	bool from_peer;

	if (l == NULL || ev == NULL)
		return 0;
	if (link_dev_gone(l))
		return gone_check(l);
	from_peer = rte_ism_gid_equal(&ev->gid, &l->gid);
	switch (ev->type) {
	case RTE_ISM_EVENT_SW:
		if (!from_peer)
			return 0;
		switch (msg_type(ev->code)) {
		case MSG_HELLO:
			return on_hello(l, ev);
		case MSG_READY:
			return on_ready(l, ev);
		case MSG_BYE:
			if (l->peer_token[0] != 0 &&
			    ev->info == l->peer_token[0])
				return peer_lost(l, "it said goodbye", ev,
						RTE_ISM_RING_LINK_BYE);
			return 0;
		}
		return 0;
	case RTE_ISM_EVENT_DEV:
		if (!from_peer)
			return 0;
		if (ev->code == RTE_ISM_DEV_ENABLED && !l->up)
			l->next_hello = 0;	/* say hello now */
		else if (peer_known(l) &&
			 (ev->code == RTE_ISM_DEV_DISABLED ||
			  ev->code == RTE_ISM_DEV_ERROR_STATE))
			return peer_lost(l, "it left the fabric", ev,
					RTE_ISM_RING_LINK_LOST);
		return 0;
	case RTE_ISM_EVENT_BUF:
		if (ev->code == RTE_ISM_BUF_UNREGISTERED &&
		    is_peer_token(l, ev->token))
			return peer_lost(l, "it unregistered its DMB", ev,
					RTE_ISM_RING_LINK_LOST);
		if (ev->code == RTE_ISM_BUF_USER_DISABLED && peer_known(l) &&
		    is_our_token(l, ev->token))
			return peer_lost(l, "our DMB lost its writer", ev,
					RTE_ISM_RING_LINK_LOST);
		return 0;
	default:
		return 0;	/* unknown types are tolerated */
	}
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_link_tick, 26.03)
unsigned int
rte_ism_ring_link_tick(struct rte_ism_ring_link *l, uint64_t now)
{
	unsigned int what;
	char why[64];
	bool all = true;
	uint16_t i;
	int err;

	if (l == NULL)
		return 0;
	if (link_dev_gone(l))
		return gone_check(l);
	/* A move failed (the peer's DMB is gone even if no event said so), or
	 * the peer broke the ring protocol: the link goes down, then BYE, so
	 * that a peer still there starts over too.
	 */
	for (i = 0; i < l->nb_rings && peer_known(l); i++) {
		err = rte_ism_ring_error(l->rings[i]);
		if (err == 0)
			continue;
		if (err == -EPROTO)
			snprintf(why, sizeof(why), "it broke the ring protocol");
		else if (err == -ESTALE)
			snprintf(why, sizeof(why), "a receive raced the restart");
		else
			snprintf(why, sizeof(why), "a move failed (%s)",
				 strerror(-err));
		what = peer_lost(l, why, NULL, RTE_ISM_RING_LINK_LOST);
		link_send(l, MSG_BYE, 0, l->rings[0]->dmb.token);
		if (err == -EPROTO)
			violation(l, now);
		return what;
	}
	/* A link that lasted: the peer's earlier violations are forgiven. */
	if (l->up && l->nb_violations != 0 && now > l->up_since &&
	    now - l->up_since >= ms_to_tsc(RTE_ISM_RING_LINK_MAX_QUIET_MS))
		l->nb_violations = 0;
	for (i = 0; i < l->nb_rings; i++)
		all &= l->confirmed[i];
	if (all || now < l->next_hello || quiet(l, now))
		return 0;
	for (i = 0; i < l->nb_rings; i++)
		if (!l->confirmed[i])
			link_send(l, MSG_HELLO, hello_payload(l, i),
				  l->rings[i]->dmb.token);
	l->next_hello = now + l->hello_period;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_link_poll, 26.03)
unsigned int
rte_ism_ring_link_poll(struct rte_ism_ring_link *l, uint64_t now)
{
	struct rte_ism_event ev[16];
	unsigned int what = 0;
	int n, i;

	if (l == NULL)
		return 0;
	/* Never poll an id that may be another device's now. */
	if (link_dev_gone(l))
		return gone_check(l);
	do {
		n = rte_ism_event_poll(l->dev_id, ev, RTE_DIM(ev));
		for (i = 0; i < n; i++)
			what |= rte_ism_ring_link_event(l, &ev[i]);
	} while (n == (int)RTE_DIM(ev));
	return what | rte_ism_ring_link_tick(l, now);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_link_bye, 26.03)
void
rte_ism_ring_link_bye(struct rte_ism_ring_link *l)
{
	if (l == NULL)
		return;
	/* BYE once our rings no longer write for this connection (the
	 * peer may then start a new one on the same slots).
	 */
	forget_peer(l);
	link_send(l, MSG_BYE, 0, l->rings[0]->dmb.token);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_ring_link_init, 26.03)
int
rte_ism_ring_link_init(struct rte_ism_ring_link *l, uint16_t dev_id,
		const struct rte_ism_gid *peer, struct rte_ism_ring **rings,
		uint16_t nb_rings, rte_ism_ring_link_cb_t cb, void *cb_arg)
{
	uint16_t i;

	if (l == NULL || peer == NULL || rings == NULL || nb_rings == 0 ||
	    nb_rings > RTE_ISM_RING_MAX_RINGS) {
		RING_LOG(ERR, "link: bad arguments (%u rings)", nb_rings);
		return -EINVAL;
	}
	for (i = 0; i < nb_rings; i++) {
		if (rings[i] == NULL || rings[i]->dev_id != dev_id ||
		    rings[i]->dmb.token == 0) {
			RING_LOG(ERR, "link: ring %u is not set up on ISM "
				 "device %u", i, dev_id);
			return -EINVAL;
		}
	}
	memset(l, 0, sizeof(*l));
	l->dev_id = dev_id;
	l->gid = *peer;
	l->nb_rings = nb_rings;
	for (i = 0; i < nb_rings; i++)
		l->rings[i] = rings[i];
	l->hello_period = rte_get_tsc_hz() / 1000 * HELLO_PERIOD_MS;
	l->cb = cb;
	l->cb_arg = cb_arg;
	return 0;
}
