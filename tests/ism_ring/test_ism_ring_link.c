/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Unit tests of the handshake of librte_ism_ring (struct
 * rte_ism_ring_link), in the fixture of test_ism_ring.c: two loopback
 * devices, each link polling its own device's events.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "ring_test.h"

static struct rte_ism_ring *ra2, *rb2;
static struct rte_ism_ring_link la, lb;

/* What the callbacks were told. */
struct reports {
	unsigned int nb_up, nb_lost, nb_bye;
	char why[64];
};
static struct reports rep_a, rep_b;

static void
on_link(void *arg, const struct rte_ism_ring_link_report *r)
{
	struct reports *rep = arg;

	if (r->what == RTE_ISM_RING_LINK_UP)
		rep->nb_up++;
	else if (r->what == RTE_ISM_RING_LINK_LOST)
		rep->nb_lost++;
	else if (r->what == RTE_ISM_RING_LINK_BYE)
		rep->nb_bye++;
	if (r->why != NULL)
		snprintf(rep->why, sizeof(rep->why), "%s", r->why);
}

static int
link_a(struct rte_ism_ring **rings, uint16_t n)
{
	memset(&rep_a, 0, sizeof(rep_a));
	return rte_ism_ring_link_init(&la, dev_a, &gid_b, rings, n, on_link,
			&rep_a);
}

static int
link_b(struct rte_ism_ring **rings, uint16_t n)
{
	memset(&rep_b, 0, sizeof(rep_b));
	return rte_ism_ring_link_init(&lb, dev_b, &gid_a, rings, n, on_link,
			&rep_b);
}

static bool
both_up(void)
{
	return rte_ism_ring_link_up(&la) && rte_ism_ring_link_up(&lb);
}

/* Poll both links until cond; the bound only stops a hang. */
static void
poll_both(unsigned int *ev_a, unsigned int *ev_b, bool (*cond)(void))
{
	unsigned int i;

	for (i = 0; i < 5000 && !cond(); i++) {
		*ev_a |= rte_ism_ring_link_poll(&la, rte_rdtsc());
		*ev_b |= rte_ism_ring_link_poll(&lb, rte_rdtsc());
		rte_delay_us_block(1000);
	}
}

/* One packet from r to peer, checked. */
static int
one_packet(struct rte_ism_ring *from, struct rte_ism_ring *to, uint32_t len,
		uint32_t seed)
{
	struct rte_mbuf *m, *rx;

	m = test_pkt_make(pool, len, 2048, seed);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(from, &m, 1), 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(to, &rx, 1), 1, "received");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx, len, seed), "data");
	rte_pktmbuf_free(rx);
	return TEST_SUCCESS;
}

/* The rings of most link tests, each reading its cursor (rings sharing a
 * device have no shared signals): nb_a on a (ra, then ra2, zero copy if
 * zc2), nb_b on b (rb, then rb2). */
static int
rings_make(unsigned int nb_a, unsigned int nb_b, bool zc2)
{
	events_drain();
	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default,
				      false, true), "a0");
	if (nb_a > 1)
		TEST_ASSERT_SUCCESS(ring_init(&ra2, dev_a, &gid_b,
					      &geom_default, zc2, true), "a1");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default,
				      false, true), "b0");
	if (nb_b > 1)
		TEST_ASSERT_SUCCESS(ring_init(&rb2, dev_b, &gid_a,
					      &geom_default, false, true), "b1");
	return TEST_SUCCESS;
}

/* Both links on ra (and ra2) and rb (and rb2), polled until they are
 * up. */
static int
links_up(uint16_t nb_a, uint16_t nb_b)
{
	struct rte_ism_ring *a[2] = { ra, ra2 }, *b[2] = { rb, rb2 };
	unsigned int ev_a = 0, ev_b = 0;

	TEST_ASSERT_SUCCESS(link_a(a, nb_a), "link a");
	TEST_ASSERT_SUCCESS(link_b(b, nb_b), "link b");
	poll_both(&ev_a, &ev_b, both_up);
	TEST_ASSERT(both_up(), "handshake did not complete");
	return TEST_SUCCESS;
}

/* a writes a descriptor that does not fit rb (a length near 2^32) into
 * rb's next slot and publishes it: rb's receive takes nothing, rounds
 * times (it has broken the ring). */
static int
break_rb(unsigned int rounds)
{
	struct rte_ism_ring_desc d = { .len = UINT32_MAX };
	struct rte_mbuf *rx[4];
	uint32_t next, prod;
	unsigned int i;

	next = rte_atomic_load_explicit(&rb->rx_next, rte_memory_order_relaxed);
	prod = next + 1;
	TEST_ASSERT_SUCCESS(rte_ism_move_data(dev_a, rb->dmb.token, 0, 0,
			RTE_ISM_RING_DESC_OFF + (next &
			(geom_default.nb_slots - 1)) * sizeof(d), &d,
			sizeof(d)), "move");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(dev_a, rb->dmb.token, 0, 0,
			RTE_ISM_RING_PROD_OFF, &prod, sizeof(prod)), "move");
	for (i = 0; i < rounds; i++)
		TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, RTE_DIM(rx)), 0,
				  "received");
	return TEST_SUCCESS;
}

/* Goodbye on both links, and their rings freed. */
static void
links_down(void)
{
	rte_ism_ring_link_bye(&la);
	rte_ism_ring_link_bye(&lb);
	ring_fini(&ra);
	if (ra2 != NULL)
		ring_fini(&ra2);
	ring_fini(&rb);
	if (rb2 != NULL)
		ring_fini(&rb2);
}

int
test_handshake(void)
{
	struct rte_ism_ring *a[1], *b[1];
	unsigned int ev_a = 0, ev_b = 0;

	events_drain();
	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default,
				      false, false), "a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default,
				      true, false), "b");
	a[0] = ra;
	TEST_ASSERT_SUCCESS(link_a(a, 1), "link a");
	b[0] = rb;
	TEST_ASSERT_SUCCESS(link_b(b, 1), "link b");
	poll_both(&ev_a, &ev_b, both_up);
	TEST_ASSERT(both_up(), "handshake did not complete");
	TEST_ASSERT(ev_a & RTE_ISM_RING_LINK_UP && ev_b & RTE_ISM_RING_LINK_UP,
		    "up events");
	TEST_ASSERT(rep_a.nb_up == 1 && rep_b.nb_up == 1, "up reports %u %u",
		    rep_a.nb_up, rep_b.nb_up);
	if (one_packet(ra, rb, 100, 1) < 0 || one_packet(rb, ra, 90, 2) < 0)
		return TEST_FAILED;

	/* b restarts: a sees the loss, then both come up again. */
	ring_fini(&rb);
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default,
				      true, false), "b again");
	b[0] = rb;
	TEST_ASSERT_SUCCESS(link_b(b, 1), "link b again");
	ev_a = ev_b = 0;
	poll_both(&ev_a, &ev_b, both_up);
	TEST_ASSERT(both_up(), "no handshake after the restart");
	TEST_ASSERT(ev_a & RTE_ISM_RING_LINK_LOST, "a did not notice");
	TEST_ASSERT_EQUAL(rep_a.nb_lost, 1, "a: %u losses", rep_a.nb_lost);
	TEST_ASSERT_EQUAL(la.peer_token[0], rb->dmb.token,
			  "a has b's new token");
	if (one_packet(ra, rb, 300, 5) < 0)
		return TEST_FAILED;

	/* b leaves cleanly: a must take it as a goodbye, not a loss. */
	rte_ism_ring_link_bye(&lb);
	ev_a = rte_ism_ring_link_poll(&la, rte_rdtsc());
	ev_a |= rte_ism_ring_link_poll(&la, rte_rdtsc());
	TEST_ASSERT(ev_a & RTE_ISM_RING_LINK_BYE,
		    "a did not see the BYE (events 0x%x)", ev_a);
	TEST_ASSERT(!(ev_a & RTE_ISM_RING_LINK_LOST),
		    "a saw a loss (events 0x%x)", ev_a);
	TEST_ASSERT(!rte_ism_ring_link_up(&la), "a still up");
	TEST_ASSERT_EQUAL(la.nb_lost, 2, "losses seen");
	TEST_ASSERT(rep_a.nb_bye == 1 && strcmp(rep_a.why, "it said goodbye")
		    == 0, "a's report: %u byes, '%s'", rep_a.nb_bye,
		    rep_a.why);
	TEST_ASSERT(!rte_ism_ring_tx_ready(ra), "a still sends");
	ring_fini(&ra);
	ring_fini(&rb);
	return TEST_SUCCESS;
}

/* A HELLO as rte_ism_ring.h lays it out (version 3). */
#define HELLO_CODE(ver, i, nb_m1, slots_m4, size_m6) \
	(0xf5u << 24 | (ver) << 20 | 1u << 16 | (i) << 12 | (nb_m1) << 8 | \
	 (slots_m4) << 4 | (size_m6))

/* Malformed HELLOs are ignored (no peer taken, nothing reported); a good
 * handshake still follows. */
int
test_bad_hello(void)
{
	struct rte_ism_ring *a[1], *b[1];
	struct {
		uint32_t code;
		bool zero_token;
	} bad[] = {
		{ HELLO_CODE(3, 0, 0, 4, 15), false },	/* slot of 2 MiB */
		{ HELLO_CODE(3, 3, 3, 4, 1), false },	/* ring 3 of 4 */
		{ HELLO_CODE(3, 0, 0, 4, 1), true },	/* no token */
		{ HELLO_CODE(2, 0, 0, 4, 1), false },	/* version 2 */
	};
	unsigned int ev_a = 0, ev_b = 0, i;
	struct rte_ism_event ev;

	events_drain();
	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default,
				      false, false), "a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default,
				      false, false), "b");
	a[0] = ra;
	TEST_ASSERT_SUCCESS(link_a(a, 1), "link a");
	for (i = 0; i < RTE_DIM(bad); i++) {
		TEST_ASSERT_SUCCESS(rte_ism_signal_event(dev_b, &gid_a, 1,
				bad[i].code, bad[i].zero_token ? 0 :
				rb->dmb.token), "send HELLO %u", i);
		ev_a = rte_ism_ring_link_poll(&la, rte_rdtsc());
		/* ism_lo queues at once: the HELLO was read by the poll. */
		TEST_ASSERT_EQUAL(rte_ism_event_poll(dev_a, &ev, 1), 0,
				  "HELLO %u not consumed", i);
		TEST_ASSERT_EQUAL(ev_a, 0, "HELLO %u: events 0x%x", i, ev_a);
		TEST_ASSERT_EQUAL(la.peer_token[0], 0, "HELLO %u taken", i);
		TEST_ASSERT_EQUAL(ra->ctl.token, 0, "HELLO %u: ring set up", i);
	}
	b[0] = rb;
	TEST_ASSERT_SUCCESS(link_b(b, 1), "link b");
	ev_a = ev_b = 0;
	poll_both(&ev_a, &ev_b, both_up);
	TEST_ASSERT(both_up(), "no handshake after the malformed HELLOs");
	TEST_ASSERT_EQUAL(la.peer_token[0], rb->dmb.token, "a has b's token");
	ring_fini(&ra);
	ring_fini(&rb);
	return TEST_SUCCESS;
}

/* Two rings each side (as a port with two queue pairs): up once both
 * are connected, once; ring i of a talks to ring i of b. */
int
test_link_multi_ring(void)
{
	int ret = 0;

	if (rings_make(2, 2, true) < 0 || links_up(2, 2) < 0)
		return TEST_FAILED;
	TEST_ASSERT(rep_a.nb_up == 1 && rep_b.nb_up == 1, "up reports %u %u",
		    rep_a.nb_up, rep_b.nb_up);
	TEST_ASSERT(la.peer_nb_rings == 2 && lb.peer_nb_rings == 2,
		    "peer ring counts %u %u", la.peer_nb_rings,
		    lb.peer_nb_rings);
	TEST_ASSERT(rte_ism_ring_tx_ready(ra) && rte_ism_ring_tx_ready(ra2) &&
		    rte_ism_ring_tx_ready(rb) && rte_ism_ring_tx_ready(rb2),
		    "a ring is not sending");
	TEST_ASSERT(ra->tx_pub.sf == 0 && rb2->tx_pub.sf == 0, "signals requested");
	if (one_packet(ra, rb, 100, 1) < 0 ||
	    one_packet(ra2, rb2, 1500, 2) < 0 ||
	    one_packet(rb2, ra2, 64, 3) < 0 ||
	    one_packet(rb, ra, 9000, 4) < 0)
		ret = -1;
	links_down();
	return ret;
}

/* a has two rings, b one: the link comes up with the ring both have; a's
 * second ring stays unconnected. */
int
test_link_ring_mismatch(void)
{
	int ret = 0;

	if (rings_make(2, 1, false) < 0 || links_up(2, 1) < 0)
		return TEST_FAILED;
	TEST_ASSERT(la.peer_nb_rings == 1 && lb.peer_nb_rings == 2,
		    "peer ring counts %u %u", la.peer_nb_rings,
		    lb.peer_nb_rings);
	TEST_ASSERT(!rte_ism_ring_tx_ready(ra2), "a's ring 1 sends");
	if (one_packet(ra, rb, 700, 1) < 0 || one_packet(rb, ra, 70, 2) < 0)
		ret = -1;
	links_down();
	return ret;
}

/* READY tells the sender whether to signal: b reads its cursor (no
 * signals for it), a polls signals (signals for it). */
int
test_link_poll_cursor(void)
{
	int ret = 0;

	events_drain();
	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default,
				      false, false), "a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default,
				      false, true), "b");
	if (links_up(1, 1) < 0)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(ra->tx_pub.sf, 0, "a signals b, which reads its cursor");
	TEST_ASSERT_EQUAL(rb->tx_pub.sf, 1, "b does not signal a");
	if (one_packet(ra, rb, 128, 1) < 0 || one_packet(rb, ra, 129, 2) < 0)
		ret = -1;
	links_down();
	return ret;
}

static bool
relinked(void)
{
	return rep_b.nb_lost == 1 && both_up();
}

/* The peer writes a descriptor that does not fit b's ring (a length near
 * 2^32): b's link says BYE and goes down ("it broke the ring protocol"),
 * a starts over on the BYE, both come up again and traffic passes; the
 * error counted once. */
int
test_link_protocol_error(void)
{
	unsigned int ev_a = 0, ev_b = 0;
	int ret = 0;

	if (rings_make(1, 1, false) < 0 || links_up(1, 1) < 0)
		return TEST_FAILED;
	/* Packet 1 of the connection, one slot published for it. */
	if (one_packet(ra, rb, 100, 1) < 0 || break_rb(100) < 0)
		return TEST_FAILED;
	poll_both(&ev_a, &ev_b, relinked);
	TEST_ASSERT(relinked(), "b lost the link %u times, up %d",
		    rep_b.nb_lost, both_up());
	TEST_ASSERT(strcmp(rep_b.why, "it broke the ring protocol") == 0,
		    "b's report: '%s'", rep_b.why);
	TEST_ASSERT_EQUAL(rep_a.nb_bye, 1, "a saw %u BYEs", rep_a.nb_bye);
	TEST_ASSERT_EQUAL(rb->rx_stats.bad, 1, "errors counted: %" PRIu64,
			  rb->rx_stats.bad);
	if (one_packet(ra, rb, 1000, 2) < 0 || one_packet(rb, ra, 64, 3) < 0)
		ret = -1;
	links_down();
	return ret;
}

/* Lines of what was captured that contain text. */
static unsigned int
count_lines(const char *buf, const char *text)
{
	unsigned int n = 0;
	const char *p = buf;

	while (p != NULL && (p = strstr(p, text)) != NULL) {
		n++;
		p += strlen(text);
	}
	return n;
}

/* a has two rings, b one: a offers its ring 1 (a HELLO every 100 ms, for
 * as long as the link lasts); b says once that it does not use it, in
 * words that name both counts (regression: once a second for ever, "the
 * peer offers ring 1, we have 1 rings"). */
int
test_link_extra_ring_told_once(void)
{
	unsigned int ev_a = 0, ev_b = 0, i, n;
	char *buf = NULL;
	size_t len = 0;
	bool worded;
	FILE *mem;
	int up;

	if (rings_make(2, 1, false) < 0)
		return TEST_FAILED;
	mem = open_memstream(&buf, &len);
	TEST_ASSERT_NOT_NULL(mem, "memstream");
	rte_openlog_stream(mem);
	/* Asserted once the log is ours again. */
	up = links_up(2, 1);
	/* 2.5 s of a's HELLOs for its ring 1: the old rate limit let one
	 * line a second through. */
	for (i = 0; i < 5; i++) {
		unsigned int k;

		for (k = 0; k < 500; k++) {
			ev_a |= rte_ism_ring_link_poll(&la, rte_rdtsc());
			ev_b |= rte_ism_ring_link_poll(&lb, rte_rdtsc());
			rte_delay_us_block(1000);
		}
	}
	rte_openlog_stream(NULL);
	fclose(mem);
	n = count_lines(buf, "not used");
	worded = strstr(buf, "the peer has 2 rings, we have 1: its ring 1 "
			"is not used") != NULL;
	printf("b's lines about a's extra ring: %u\n%s", n, buf);
	/* Freed before the asserts: a failure is reported as one, not as
	 * the leak of the captured log (which LeakSanitizer would end the
	 * program for).
	 */
	free(buf);
	TEST_ASSERT_SUCCESS(up, "handshake did not complete");
	TEST_ASSERT(both_up(), "the link went down");
	TEST_ASSERT_EQUAL(n, 1u, "b logged a's extra ring %u times", n);
	TEST_ASSERT(worded, "b's line reads wrong");
	links_down();
	return TEST_SUCCESS;
}

static bool
b_down(void)
{
	return !rte_ism_ring_link_up(&lb) && lb.peer_token[0] == 0;
}

#define VIOLATIONS	(RTE_ISM_RING_LINK_FREE_RESTARTS + 4)

/* a writes a descriptor that breaks b's ring after each new connection:
 * b restarts at once the first RTE_ISM_RING_LINK_FREE_RESTARTS times, then
 * ignores a for 50 ms, 100 ms, ... (never up again before that ends); the
 * errors and losses counted exactly; once a behaves the link comes back
 * and traffic passes (regression: thousands of restarts a second). */
int
test_link_violation_backoff(void)
{
	unsigned int ev_a = 0, ev_b = 0, v;
	uint64_t hz = rte_get_tsc_hz(), t, want_ms;
	int ret = 0;

	if (rings_make(1, 1, false) < 0 || links_up(1, 1) < 0)
		return TEST_FAILED;
	for (v = 1; v <= VIOLATIONS; v++) {
		poll_both(&ev_a, &ev_b, both_up);
		TEST_ASSERT(both_up(), "violation %u: no handshake", v);
		/* Never up while b ignores a. */
		TEST_ASSERT(lb.quiet_until == 0 ||
			    lb.up_since >= lb.quiet_until,
			    "violation %u: up %" PRIu64 " ms before the end of "
			    "b's quiet time", v, (lb.quiet_until -
			    lb.up_since) * 1000 / hz);
		if (one_packet(ra, rb, 100, v) < 0 || break_rb(10) < 0)
			return TEST_FAILED;
		t = rte_rdtsc();
		poll_both(&ev_a, &ev_b, b_down);
		TEST_ASSERT(b_down(), "violation %u: b still up", v);
		if (v <= RTE_ISM_RING_LINK_FREE_RESTARTS) {
			TEST_ASSERT_EQUAL(lb.quiet_until, 0, "violation %u: "
					  "b ignores a", v);
			continue;
		}
		want_ms = RTE_MIN(50ull << (v -
				RTE_ISM_RING_LINK_FREE_RESTARTS - 1),
				(uint64_t)RTE_ISM_RING_LINK_MAX_QUIET_MS);
		TEST_ASSERT(lb.quiet_until >= t + hz / 1000 * want_ms,
			    "violation %u: b ignores a for %" PRId64 " ms, "
			    "want %" PRIu64, v, (int64_t)(lb.quiet_until - t) *
			    1000 / (int64_t)hz, want_ms);
	}
	poll_both(&ev_a, &ev_b, both_up);
	TEST_ASSERT(both_up(), "no handshake once a behaves");
	TEST_ASSERT(lb.up_since >= lb.quiet_until, "up before b's quiet "
		    "time ended");
	TEST_ASSERT_EQUAL(rb->rx_stats.bad, (uint64_t)VIOLATIONS,
			  "errors counted: %" PRIu64, rb->rx_stats.bad);
	TEST_ASSERT_EQUAL(rep_b.nb_lost, VIOLATIONS, "b lost the link %u "
			  "times", rep_b.nb_lost);
	if (one_packet(ra, rb, 1000, 2) < 0 || one_packet(rb, ra, 64, 3) < 0)
		ret = -1;
	links_down();
	return ret;
}
