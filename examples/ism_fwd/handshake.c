/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Token exchange and peer tracking over ISM events (protocol in
 * handshake.h). Runs on the forwarding lcore between bursts, about once a
 * millisecond; nothing here blocks.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>

#include "handshake.h"

#define MSG_MAGIC	0xf5u
#define MSG_VERSION	1u
#define MSG_HELLO	1u
#define MSG_READY	2u
#define MSG_BYE		3u

#define HELLO_PERIOD_MS	100

static uint32_t
msg_code(uint32_t type, const struct ism_ring_geom *g)
{
	uint32_t code = MSG_MAGIC << 24 | MSG_VERSION << 20 | type << 16;

	if (g != NULL)
		code |= rte_bsf32(g->nb_slots) << 8 | rte_bsf32(g->slot_size);
	return code;
}

/* Our message? Then its type, else 0. */
static uint32_t
msg_type(uint32_t code)
{
	if (code >> 24 != MSG_MAGIC || ((code >> 20) & 0xf) != MSG_VERSION)
		return 0;
	return (code >> 16) & 0xf;
}

static uint64_t
mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void
peer_send(struct fwd_peer *p, uint32_t type, uint64_t info)
{
	const struct ism_ring_geom *g = type == MSG_HELLO ?
		&p->ring->rx_geom : NULL;
	int ret;

	ret = rte_ism_signal_event(p->dev_id, &p->gid, 1, msg_code(type, g),
			info);
	/* Not there yet is normal while we wait for the peer. */
	if (ret < 0 && ret != -ENETUNREACH && ret != p->last_send_error)
		fprintf(stderr, "ism_fwd: cannot send to the peer: %s\n",
			strerror(-ret));
	p->last_send_error = ret;
}

void
peer_init(struct fwd_peer *p, uint16_t dev_id, const struct rte_ism_gid *gid,
		struct ism_ring *ring)
{
	memset(p, 0, sizeof(*p));
	p->dev_id = dev_id;
	p->gid = *gid;
	p->ring = ring;
	p->hello_period = rte_get_tsc_hz() / 1000 * HELLO_PERIOD_MS;
}

/* The peer is gone: report it (with how long ago the event was queued,
 * if an event told us), drop its state, start announcing ourselves. */
static unsigned int
peer_lost(struct fwd_peer *p, const char *why, const struct rte_ism_event *ev,
		unsigned int what)
{
	uint64_t now = mono_ns();

	printf("ism_fwd: peer %s: %s; reported at mono_ns=%" PRIu64,
	       what == PEER_EV_BYE ? "left" : "lost", why, now);
	if (ev != NULL)
		printf(", %.3f ms after the event",
		       (double)(now - ev->time) / 1e6);
	printf("\n");
	fflush(stdout);
	ism_ring_peer_clear(p->ring);
	p->token = 0;
	p->confirmed = false;
	p->next_hello = 0;
	p->nb_lost++;
	return what;
}

static unsigned int
on_hello(struct fwd_peer *p, const struct rte_ism_event *ev)
{
	uint32_t slots_log2 = (ev->code >> 8) & 0xff;
	uint32_t size_log2 = ev->code & 0xff;
	struct ism_ring_geom g;
	unsigned int what = 0;
	int ret;

	/* The peer chose the shifts: check them before shifting, a shift by
	 * 32 or more is undefined. */
	if (slots_log2 >= 32 || size_log2 >= 32 || ev->info == 0) {
		fprintf(stderr, "ism_fwd: ignoring a malformed HELLO\n");
		return 0;
	}
	g.nb_slots = 1u << slots_log2;
	g.slot_size = 1u << size_log2;
	if (ev->info != p->token) {
		if (p->token != 0)
			what = peer_lost(p, "it restarted (new token)", ev,
					PEER_EV_LOST);
		ret = ism_ring_peer_set(p->ring, ev->info, &g);
		if (ret < 0) {
			fprintf(stderr, "ism_fwd: peer ring %ux%u refused: "
				"%s\n", g.nb_slots, g.slot_size,
				strerror(-ret));
			return what;
		}
		p->token = ev->info;
		p->confirmed = false;
		printf("ism_fwd: peer token 0x%016" PRIx64 ", ring %u slots "
		       "of %u bytes\n", p->token, g.nb_slots, g.slot_size);
		/* Let a restarted peer learn our token at once. */
		peer_send(p, MSG_HELLO, p->ring->dmb.token);
		p->next_hello = rte_rdtsc() + p->hello_period;
	}
	/* Credits and start first, so they are there when READY arrives. */
	ret = ism_ring_announce(p->ring);
	if (ret < 0)
		return what;	/* its DMB is gone: peer_poll notices */
	peer_send(p, MSG_READY, p->token);
	return what;
}

static unsigned int
on_ready(struct fwd_peer *p, const struct rte_ism_event *ev)
{
	int ret;

	/* A READY before the peer's HELLO is ignored; our next HELLO
	 * brings another one. */
	if (ev->info != p->ring->dmb.token || p->token == 0 || p->confirmed)
		return 0;
	ret = ism_ring_tx_start(p->ring);
	if (ret < 0) {
		fprintf(stderr, "ism_fwd: cannot start sending: %s\n",
			strerror(-ret));
		return 0;
	}
	p->confirmed = true;
	printf("ism_fwd: link up (start at slot %u, %u credits)\n",
	       p->ring->tx_prod,
	       p->ring->tx_geom.nb_slots - (p->ring->tx_prod -
					    p->ring->tx_cons));
	fflush(stdout);
	return PEER_EV_UP;
}

static unsigned int
on_event(struct fwd_peer *p, const struct rte_ism_event *ev)
{
	bool from_peer = rte_ism_gid_equal(&ev->gid, &p->gid);

	switch (ev->type) {
	case RTE_ISM_EVENT_SW:
		if (!from_peer)
			return 0;
		switch (msg_type(ev->code)) {
		case MSG_HELLO:
			return on_hello(p, ev);
		case MSG_READY:
			return on_ready(p, ev);
		case MSG_BYE:
			if (p->token != 0 && ev->info == p->token)
				return peer_lost(p, "it said goodbye", ev,
						PEER_EV_BYE);
			return 0;
		}
		return 0;
	case RTE_ISM_EVENT_DEV:
		if (!from_peer)
			return 0;
		if (ev->code == RTE_ISM_DEV_ENABLED && !p->confirmed)
			p->next_hello = 0;	/* say hello now */
		else if (p->token != 0 &&
			 (ev->code == RTE_ISM_DEV_DISABLED ||
			  ev->code == RTE_ISM_DEV_ERROR_STATE))
			return peer_lost(p, "it left the fabric", ev,
					PEER_EV_LOST);
		return 0;
	case RTE_ISM_EVENT_BUF:
		if (p->token != 0 && ev->token == p->token &&
		    ev->code == RTE_ISM_BUF_UNREGISTERED)
			return peer_lost(p, "it unregistered its DMB", ev,
					PEER_EV_LOST);
		if (p->token != 0 && ev->token == p->ring->dmb.token &&
		    ev->code == RTE_ISM_BUF_USER_DISABLED)
			return peer_lost(p, "our DMB lost its writer", ev,
					PEER_EV_LOST);
		return 0;
	default:
		return 0;	/* unknown types are tolerated */
	}
}

unsigned int
peer_poll(struct fwd_peer *p, uint64_t now)
{
	struct rte_ism_event ev[16];
	unsigned int what = 0;
	int n, i;

	do {
		n = rte_ism_event_poll(p->dev_id, ev, RTE_DIM(ev));
		for (i = 0; i < n; i++)
			what |= on_event(p, &ev[i]);
	} while (n == (int)RTE_DIM(ev));
	/* A move failed: the peer's DMB is gone even if no event said so. */
	if (p->token != 0 && p->ring->last_error != 0) {
		char why[64];

		snprintf(why, sizeof(why), "a move failed (%s)",
			 strerror(-p->ring->last_error));
		what |= peer_lost(p, why, NULL, PEER_EV_LOST);
	}
	if (!p->confirmed && now >= p->next_hello) {
		peer_send(p, MSG_HELLO, p->ring->dmb.token);
		p->next_hello = now + p->hello_period;
	}
	return what;
}

void
peer_bye(struct fwd_peer *p)
{
	peer_send(p, MSG_BYE, p->ring->dmb.token);
	if (p->token != 0)
		ism_ring_peer_clear(p->ring);
	p->token = 0;
	p->confirmed = false;
}
