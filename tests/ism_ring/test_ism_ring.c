/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Unit tests of librte_ism_ring (lib/ism_ring): the ring protocol here,
 * the handshake in test_ism_ring_link.c, the control steps against a
 * running data path in test_ism_ring_handoff.c, between two loopback ISM
 * devices of one process, on two lcores:
 *   test-ism-ring -l 0,1 [EAL options] --vdev ism_lo0,gid=0xa
 *                 --vdev ism_lo1,gid=0xb
 * Exit status 0 if all pass.
 */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_random.h>

#include "ring_test.h"

#define NB_MBUFS	8192

struct rte_mempool *pool;
uint16_t dev_a, dev_b;
struct rte_ism_gid gid_a, gid_b;
struct rte_ism_ring *ra, *rb;

const struct rte_ism_ring_geom geom_default = { 256, 128 };

int
ring_init(struct rte_ism_ring **r, uint16_t dev, const struct rte_ism_gid *peer,
		const struct rte_ism_ring_geom *g, bool zc, bool poll_cursor)
{
	struct rte_ism_ring_conf c = {
		.dev_id = dev,
		.port = 7,
		.peer = *peer,
		.geom = *g,
		.pool = pool,
		.zero_copy = zc,
		.poll_cursor = poll_cursor,
	};

	*r = rte_ism_ring_create(&c);
	return *r == NULL ? -rte_errno : 0;
}

int
ring_fini(struct rte_ism_ring **r)
{
	int ret = rte_ism_ring_free(*r);

	if (ret == 0)
		*r = NULL;
	return ret;
}

void
events_drain(void)
{
	struct rte_ism_event ev;

	while (rte_ism_event_poll(dev_a, &ev, 1) > 0 ||
	       rte_ism_event_poll(dev_b, &ev, 1) > 0)
		;
}

/* What the handshake does, step by step, for a -> b and b -> a. */
static int
pair_connect(void)
{
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(ra, rb->dmb.token, &rb->rx_geom),
			    "a: peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(rb, ra->dmb.token, &ra->rx_geom),
			    "b: peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_ring_announce(ra), "a: announce");
	TEST_ASSERT_SUCCESS(rte_ism_ring_announce(rb), "b: announce");
	TEST_ASSERT_SUCCESS(rte_ism_ring_tx_start(ra, true), "a: tx_start");
	TEST_ASSERT_SUCCESS(rte_ism_ring_tx_start(rb, true), "b: tx_start");
	return TEST_SUCCESS;
}

/* Two rings connected; b reads its cursor (as net_ism's) or polls the
 * signals (as ism_fwd's). */
static int
pair_init_pc(const struct rte_ism_ring_geom *ga,
		const struct rte_ism_ring_geom *gb, bool zc_a, bool zc_b,
		bool poll_cursor)
{
	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, ga, zc_a, false),
			    "init a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, gb, zc_b,
				      poll_cursor), "init b");
	return pair_connect();
}

static int
pair_init(const struct rte_ism_ring_geom *ga, const struct rte_ism_ring_geom *gb,
		bool zc_a, bool zc_b)
{
	return pair_init_pc(ga, gb, zc_a, zc_b, false);
}

void
pair_fini(void)
{
	ring_fini(&ra);
	ring_fini(&rb);
}

static int
test_geometry(void)
{
	struct rte_ism_ring_geom g = { 256, 128 };

	TEST_ASSERT_SUCCESS(rte_ism_ring_geom_check(&g), "valid");
	/* The slots start on a cache line of the build: 2176 with lines of
	 * 64 or 128 bytes, 2304 with IBM Z's 256. */
	TEST_ASSERT_EQUAL(rte_ism_ring_slots_off(&g),
			  RTE_ALIGN_CEIL(128 + 256 * 8, RTE_CACHE_LINE_SIZE),
			  "slots_off");
	TEST_ASSERT_EQUAL(rte_ism_ring_dmb_len(&g),
			  rte_ism_ring_slots_off(&g) + 256 * 128, "dmb_len");
	g.nb_slots = 100;
	TEST_ASSERT_FAIL(rte_ism_ring_geom_check(&g), "not a power of two");
	g.nb_slots = 8;
	TEST_ASSERT_FAIL(rte_ism_ring_geom_check(&g), "too few slots");
	g.nb_slots = 256;
	g.slot_size = 32;
	TEST_ASSERT_FAIL(rte_ism_ring_geom_check(&g), "slot too small");
	g.slot_size = 65536;
	TEST_ASSERT_FAIL(rte_ism_ring_geom_check(&g), "slot too large");
	return TEST_SUCCESS;
}

static int
test_not_connected(void)
{
	struct rte_mbuf *m;

	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default,
				      false, false), "init");
	m = test_pkt_make(pool, 64, 2048, 1);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, &m, 1), 0, "sent without peer");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(ra, &m, 1), 0, "received");
	TEST_ASSERT_FAIL(rte_ism_ring_tx_start(ra, true),
			 "tx_start without peer");
	rte_pktmbuf_free(m);
	ring_fini(&ra);
	return TEST_SUCCESS;
}

/* Random sizes and segmentations, partial receives, many wraps. */
static int
stream(uint32_t nb, uint32_t max_len, uint16_t burst)
{
	struct rte_mbuf *tx[RTE_ISM_RING_MAX_BURST], *rx[RTE_ISM_RING_MAX_BURST];
	const uint64_t tx0 = ra->tx_stats.pkts, rx0 = rb->rx_stats.pkts;
	uint32_t sent = 0, rcvd = 0, i, guard;
	uint32_t len_of[4096];	/* by sequence number */
	uint16_t n, k, got, pending = 0;

	for (guard = 0; rcvd < nb && guard < 10 * nb + 1000; guard++) {
		/* Fill the queue of packets to send. */
		while (pending < burst && sent + pending < nb) {
			uint32_t len = 1 + rte_rand_max(max_len);

			len_of[(sent + pending) % 4096] = len;
			tx[pending] = test_pkt_make(pool, len, 64 + rte_rand_max(2000),
					sent + pending);
			TEST_ASSERT_NOT_NULL(tx[pending], "mbuf");
			pending++;
		}
		n = rte_ism_ring_send(ra, tx, pending);
		memmove(tx, tx + n, (pending - n) * sizeof(tx[0]));
		pending -= n;
		sent += n;
		got = rte_ism_ring_recv(rb, rx, 1 + rte_rand_max(burst));
		for (k = 0; k < got; k++) {
			if (test_pkt_verify(rx[k], len_of[rcvd % 4096], rcvd) < 0)
				return TEST_FAILED;
			rcvd++;
		}
		rte_pktmbuf_free_bulk(rx, got);
	}
	TEST_ASSERT_EQUAL(rcvd, nb, "received %u of %u", rcvd, nb);
	TEST_ASSERT_EQUAL(pending, 0, "left %u", pending);
	TEST_ASSERT_EQUAL(ra->tx_stats.pkts - tx0, nb, "tx_pkts");
	TEST_ASSERT_EQUAL(rb->rx_stats.pkts - rx0, nb, "rx_pkts");
	TEST_ASSERT_EQUAL(rb->rx_stats.bad, 0, "protocol errors");
	TEST_ASSERT_EQUAL(ra->tx_stats.move_errors + rb->rx_stats.move_errors, 0,
			  "move errors");
	for (i = 0; i < 4 && rte_ism_ring_rx_held(rb) != 0; i++)
		rte_ism_ring_recv(rb, rx, 1);	/* zero copy: reclaim */
	TEST_ASSERT_EQUAL(rte_ism_ring_rx_held(rb), 0, "slots still held");
	return TEST_SUCCESS;
}

static int
test_stream_copy(void)
{
	const struct rte_ism_ring_geom g = { 64, 128 };	/* 8 KiB: many wraps */
	int ret;

	if (pair_init(&g, &g, false, false) < 0)
		return TEST_FAILED;
	ret = stream(20000, 3000, 32);
	if (ret == 0)
		ret = stream(500, 8000, 4);	/* a packet nearly the ring */
	pair_fini();
	return ret;
}

static int
test_stream_zero_copy(void)
{
	const struct rte_ism_ring_geom g = { 64, 128 };
	int ret;

	/* Zero-copy sender and receiver, then mixed modes. */
	if (pair_init(&g, &g, true, true) < 0)
		return TEST_FAILED;
	ret = stream(20000, 3000, 32);
	pair_fini();
	/* A failed set-up is a failure, not a reason to skip the stream;
	 * pair_fini() undoes whatever part of it succeeded. */
	if (ret == 0) {
		ret = pair_init(&g, &g, true, false);
		if (ret == 0)
			ret = stream(5000, 3000, 32);
		pair_fini();
	}
	if (ret == 0) {
		ret = pair_init(&g, &g, false, true);
		if (ret == 0)
			ret = stream(5000, 3000, 32);
		pair_fini();
	}
	return ret;
}

/* Credits: the sender stops when the ring is full, resumes after the
 * receiver consumed. */
static int
test_ring_full(void)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	struct rte_mbuf *m[20], *rx[20];
	uint16_t i, n;

	if (pair_init(&g, &g, false, false) < 0)
		return TEST_FAILED;
	for (i = 0; i < 20; i++) {
		m[i] = test_pkt_make(pool, 100, 2048, i);	/* two slots each */
		TEST_ASSERT_NOT_NULL(m[i], "mbuf");
	}
	n = rte_ism_ring_send(ra, m, 20);
	TEST_ASSERT_EQUAL(n, 8, "sent %u into 16 slots", n);
	TEST_ASSERT_EQUAL(ra->tx_stats.ring_full, 1, "ring-full count");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m + 8, 12), 0, "still full");
	n = rte_ism_ring_recv(rb, rx, 3);
	TEST_ASSERT_EQUAL(n, 3, "received %u", n);
	rte_pktmbuf_free_bulk(rx, n);
	n = rte_ism_ring_send(ra, m + 8, 12);
	TEST_ASSERT_EQUAL(n, 3, "sent %u after 3 were consumed", n);
	/* The 5 left from before, then (after the signal) the 3 new. */
	n = rte_ism_ring_recv(rb, rx, 20);
	TEST_ASSERT_EQUAL(n, 5, "received %u", n);
	n += rte_ism_ring_recv(rb, rx + n, 20 - n);
	TEST_ASSERT_EQUAL(n, 8, "received %u", n);
	for (i = 0; i < n; i++)
		TEST_ASSERT_SUCCESS(test_pkt_verify(rx[i], 100, 3 + i), "data");
	rte_pktmbuf_free_bulk(rx, n);
	rte_pktmbuf_free_bulk(m + 11, 9);
	pair_fini();
	return TEST_SUCCESS;
}

/* Credits go back every sixteenth of the ring, or at once when the
 * receiver finds nothing new. */
static int
test_credit_batching(void)
{
	const struct rte_ism_ring_geom g = { 256, 64 };
	struct rte_mbuf *m[20], *rx[20];
	uint16_t i;

	if (pair_init(&g, &g, false, false) < 0)
		return TEST_FAILED;
	for (i = 0; i < 20; i++) {
		m[i] = test_pkt_make(pool, 64, 2048, i);
		TEST_ASSERT_NOT_NULL(m[i], "mbuf");
	}
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 20), 20, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 10), 10, "received");
	TEST_ASSERT_EQUAL(rb->credit_sent, 0, "10 < 16 slots: no credit yet");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx + 10, 10), 10, "received");
	TEST_ASSERT_EQUAL(rb->credit_sent, 20, "batch reached");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 1), 0, "nothing left");
	rte_pktmbuf_free_bulk(rx, 20);
	m[0] = test_pkt_make(pool, 64, 2048, 0);
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 1), 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 1), 1, "received");
	TEST_ASSERT_EQUAL(rb->credit_sent, 20, "held back");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx + 1, 1), 0, "idle");
	TEST_ASSERT_EQUAL(rb->credit_sent, 21, "given back when idle");
	rte_pktmbuf_free(rx[0]);
	pair_fini();
	return TEST_SUCCESS;
}

static int
test_drops(void)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	struct rte_mbuf *m[3], *rx[3];

	if (pair_init(&g, &g, false, false) < 0)
		return TEST_FAILED;
	m[0] = test_pkt_make(pool, 2000, 2048, 0);		/* 32 slots > 16 */
	m[1] = rte_pktmbuf_alloc(pool);		/* empty */
	m[2] = test_pkt_make(pool, 60, 2048, 2);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL && m[2] != NULL, "mbufs");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 3), 3, "all taken");
	TEST_ASSERT_EQUAL(ra->tx_stats.too_big, 1, "too big");
	TEST_ASSERT_EQUAL(ra->tx_stats.empty, 1, "empty");
	TEST_ASSERT_EQUAL(ra->tx_stats.pkts, 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 3), 1, "received");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx[0], 60, 2), "data");
	rte_pktmbuf_free(rx[0]);
	pair_fini();
	return TEST_SUCCESS;
}

/* Zero copy: packets above ISM_RING_ZC_COPY_MAX (256 B) are attached,
 * shorter ones copied; mbufs are freed out of order, credits return in
 * ring order, copied packets' slots with them. */
static int
test_zero_copy_free_order(void)
{
	static const uint32_t len[4] = { 100, 300, 256, 257 };
	static const bool attached[4] = { false, true, false, true };
	const struct rte_ism_ring_geom g = { 32, 64 };
	struct rte_mbuf *m[4], *rx[4];
	uint16_t i;

	if (pair_init(&g, &g, false, true) < 0)
		return TEST_FAILED;
	for (i = 0; i < 4; i++) {
		m[i] = test_pkt_make(pool, len[i], 2048, i);	/* 2, 5, 4, 5 slots */
		TEST_ASSERT_NOT_NULL(m[i], "mbuf");
	}
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 4), 4, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 4), 4, "received");
	for (i = 0; i < 4; i++) {
		TEST_ASSERT_EQUAL(RTE_MBUF_HAS_EXTBUF(rx[i]) != 0, attached[i],
				  "packet %u of %u B attached: %d", i, len[i],
				  RTE_MBUF_HAS_EXTBUF(rx[i]) != 0);
		TEST_ASSERT_SUCCESS(test_pkt_verify(rx[i], len[i], i), "data");
	}
	/* The first, copied, is given back at once; the rest waits for the
	 * attached second. */
	TEST_ASSERT_EQUAL(rte_ism_ring_rx_held(rb), 14, "held %u",
			  rte_ism_ring_rx_held(rb));
	rte_pktmbuf_free(rx[0]);
	rte_pktmbuf_free(rx[2]);
	rte_pktmbuf_free(rx[3]);
	rte_ism_ring_recv(rb, rx, 1);
	TEST_ASSERT_EQUAL(rte_ism_ring_rx_held(rb), 14, "second still held");
	TEST_ASSERT_EQUAL(rb->credit_sent, 2, "credits %u", rb->credit_sent);
	rte_pktmbuf_free(rx[1]);
	rte_ism_ring_recv(rb, rx, 1);
	TEST_ASSERT_EQUAL(rte_ism_ring_rx_held(rb), 0, "all given back");
	TEST_ASSERT_EQUAL(rb->credit_sent, 16, "credits %u", rb->credit_sent);
	pair_fini();
	return TEST_SUCCESS;
}

/*
 * A peer that writes nonsense into our DMB: each field it writes is
 * checked once, against our ring's geometry. The side that read it stops
 * (nothing delivered, however often it is polled), counts the error once,
 * and reports it for the link (rte_ism_ring_error()); the next connection
 * works. Each case first passes one good packet (b's cursors at 1, its
 * credits given back: 17 is the last slot a may publish).
 */

/* b reads its cursor at every poll (true) or only after a signal. */
static bool bad_poll_cursor;

/* As b's peer: bytes into b's DMB (a's device is its one writer), with a
 * signal (b polls them) after a producer cursor. */
static int
peer_write(uint32_t off, const void *p, uint32_t len)
{
	return rte_ism_move_data(dev_a, rb->dmb.token, 0,
			off == RTE_ISM_RING_PROD_OFF, off, p, len);
}

static int
one_good_packet(uint32_t seed)
{
	struct rte_mbuf *m, *rx;

	m = test_pkt_make(pool, 60, 2048, seed);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, &m, 1), 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, &rx, 1), 1, "received");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx, 60, seed), "data");
	TEST_ASSERT_EQUAL(rx->pkt_len, 60, "pkt_len %u", rx->pkt_len);
	rte_pktmbuf_free(rx);
	return TEST_SUCCESS;
}

/* b's receive side stopped: nothing more, however often it is polled,
 * the error counted once. */
static int
rx_stopped(const char *what)
{
	struct rte_mbuf *rx[4];
	unsigned int i;
	uint16_t n;

	for (i = 0; i < 1000; i++) {
		n = rte_ism_ring_recv(rb, rx, 4);
		if (n != 0) {
			printf("%s: poll %u received %u packets, the first of "
			       "%u bytes\n", what, i, n, rx[0]->pkt_len);
			rte_pktmbuf_free_bulk(rx, n);
			return TEST_FAILED;
		}
	}
	TEST_ASSERT_EQUAL(rb->rx_stats.bad, 1, "%s: %" PRIu64 " errors counted",
			  what, rb->rx_stats.bad);
	TEST_ASSERT_EQUAL(rte_ism_ring_error(rb), -EPROTO, "%s: error %d", what,
			  rte_ism_ring_error(rb));
	TEST_ASSERT_EQUAL(rb->rx_stats.pkts, 1, "%s: %" PRIu64 " packets",
			  what, rb->rx_stats.pkts);
	return TEST_SUCCESS;
}

/* What the link does next: both sides forget, connect again. */
static int
reconnect_works(const char *what)
{
	rte_ism_ring_peer_clear(ra);
	rte_ism_ring_peer_clear(rb);
	if (pair_connect() < 0)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(rte_ism_ring_error(rb), 0, "%s: error after restart",
			  what);
	if (one_good_packet(99) < 0)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(rb->rx_stats.bad, 1, "%s: errors %" PRIu64, what,
			  rb->rx_stats.bad);
	return TEST_SUCCESS;
}

/* A descriptor (of the packet after the good one) and a cursor that
 * publishes one slot for it. */
static int
bad_descriptor(uint32_t len, const char *what)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	struct rte_ism_ring_desc d = { .len = len };
	uint32_t prod = 2;
	int ret;

	if (pair_init_pc(&g, &g, false, false, bad_poll_cursor) < 0 ||
	    one_good_packet(1) < 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(peer_write(RTE_ISM_RING_DESC_OFF + sizeof(d), &d,
				       sizeof(d)), "move");
	TEST_ASSERT_SUCCESS(peer_write(RTE_ISM_RING_PROD_OFF, &prod,
				       sizeof(prod)), "move");
	ret = rx_stopped(what);
	if (ret == 0)
		ret = reconnect_works(what);
	pair_fini();
	return ret;
}

/* Lengths that round to 0 slots (before the fix: the same slot delivered
 * again and again as a 4 GiB packet), 0, and one more slot than
 * published. */
static int
bad_desc_len_cases(void)
{
	if (bad_descriptor(UINT32_MAX, "length 2^32 - 1") < 0 ||
	    bad_descriptor(UINT32_MAX - 64 + 2, "length 2^32 - slot + 1") < 0 ||
	    bad_descriptor(UINT32_MAX - 64 + 1, "length 2^32 - slot") < 0 ||
	    bad_descriptor(0, "length 0") < 0 ||
	    bad_descriptor(65, "two slots, one published") < 0 ||
	    bad_descriptor(16 * 64 + 1, "longer than the ring") < 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static int
test_bad_desc_len(void)
{
	unsigned int pc;

	/* Reading the cursor at every poll first, as net_ism does. */
	for (pc = 2; pc-- > 0; ) {
		bad_poll_cursor = pc;
		if (bad_desc_len_cases() < 0)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

static int
bad_cursor(uint32_t prod, const char *what)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	int ret;

	if (pair_init_pc(&g, &g, false, false, bad_poll_cursor) < 0 ||
	    one_good_packet(1) < 0)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(rb->credit_sent, 1, "credits given back");
	TEST_ASSERT_SUCCESS(peer_write(RTE_ISM_RING_PROD_OFF, &prod,
				       sizeof(prod)), "move");
	ret = rx_stopped(what);
	if (ret == 0)
		ret = reconnect_works(what);
	pair_fini();
	return ret;
}

/* Producer cursors behind us, beyond the credits, 2^31 ahead (before the
 * fix: counted at every poll). */
static int
bad_cursor_cases(void)
{
	if (bad_cursor(0, "cursor behind") < 0 ||
	    bad_cursor(1 + 16 + 1, "cursor beyond the credits") < 0 ||
	    bad_cursor(1 + (1u << 31), "cursor 2^31 ahead") < 0 ||
	    bad_cursor(UINT32_MAX, "cursor 2^32 - 1") < 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static int
test_bad_cursor(void)
{
	unsigned int pc;

	/* Reading the cursor at every poll first, as net_ism does. */
	for (pc = 2; pc-- > 0; ) {
		bad_poll_cursor = pc;
		if (bad_cursor_cases() < 0)
			return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* Credits beyond what a published, or behind what it had: its send side
 * stops, counted once. */
static int
bad_credits(uint32_t cons, const char *what)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	struct rte_mbuf *m[16], *rx[4];
	unsigned int i;
	int ret = TEST_SUCCESS;

	if (pair_init(&g, &g, false, false) < 0)
		return TEST_FAILED;
	/* 4 received and credited; then a has no credits left. */
	for (i = 0; i < 16; i++) {
		m[i] = test_pkt_make(pool, 60, 2048, i);
		TEST_ASSERT_NOT_NULL(m[i], "mbuf");
	}
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 4), 4, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 4), 4, "received");
	rte_pktmbuf_free_bulk(rx, 4);
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m + 4, 12), 12, "sent");
	TEST_ASSERT_EQUAL(ra->tx_cons, 0, "credits not read yet");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(dev_b, ra->dmb.token, 0, 0,
				RTE_ISM_RING_CREDIT_OFF, &cons, sizeof(cons)),
			    "move");
	m[0] = test_pkt_make(pool, 60, 2048, 16);
	TEST_ASSERT_NOT_NULL(m[0], "mbuf");
	for (i = 0; i < 1000 && ret == TEST_SUCCESS; i++)
		if (rte_ism_ring_send(ra, m, 1) != 0) {
			printf("%s: send %u took the packet\n", what, i);
			ret = TEST_FAILED;
		}
	rte_pktmbuf_free(m[0]);
	/* Counted once, as a protocol error: not as a full ring too. */
	if (ret == TEST_SUCCESS && (ra->tx_stats.bad != 1 ||
				    ra->tx_stats.ring_full != 0 ||
				    rte_ism_ring_error(ra) != -EPROTO)) {
		printf("%s: %" PRIu64 " errors counted, %" PRIu64 " ring "
		       "full, error %d\n", what, ra->tx_stats.bad,
		       ra->tx_stats.ring_full, rte_ism_ring_error(ra));
		ret = TEST_FAILED;
	}
	while (rte_ism_ring_recv(rb, rx, 4) > 0)
		rte_pktmbuf_free_bulk(rx, 4);
	pair_fini();
	return ret;
}

static int
test_bad_credits(void)
{
	if (bad_credits(17, "credits beyond what was published") < 0 ||
	    bad_credits(UINT32_MAX, "credits behind") < 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

/* tx_start checks the credits and start the peer announced. */
static int
test_bad_start(void)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	struct rte_ism_ring_credit c = { .cons = 0, .start = 17 };

	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &g, false, false),
			    "init a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &g, false, false),
			    "init b");
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(ra, rb->dmb.token,
				&rb->rx_geom), "peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(dev_b, ra->dmb.token, 0, 0,
				RTE_ISM_RING_CREDIT_OFF, &c, sizeof(c)),
			    "move");
	TEST_ASSERT_EQUAL(rte_ism_ring_tx_start(ra, false), -EPROTO,
			  "start beyond the credits taken");
	TEST_ASSERT(!rte_ism_ring_tx_ready(ra), "sending");
	pair_fini();
	return TEST_SUCCESS;
}

/* rte_ism_ring_rx_pending() sees what was published and not received,
 * from the producer cursor alone. */
static int
test_rx_pending(void)
{
	struct rte_mbuf *m, *rx;

	if (pair_init(&geom_default, &geom_default, false, false) < 0)
		return TEST_FAILED;
	TEST_ASSERT(!rte_ism_ring_rx_pending(rb), "pending before a send");
	m = test_pkt_make(pool, 200, 2048, 0);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, &m, 1), 1, "sent");
	TEST_ASSERT(rte_ism_ring_rx_pending(rb), "not pending after a send");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, &rx, 1), 1, "received");
	TEST_ASSERT(!rte_ism_ring_rx_pending(rb), "pending after the receive");
	rte_pktmbuf_free(rx);
	pair_fini();
	return TEST_SUCCESS;
}

/* The receiver's peer restarts while zero-copy mbufs (attached: 300 B,
 * five slots each) are held: the new sender starts after them, and their
 * slots come back when freed. */
static int
test_reconnect_zero_copy(void)
{
	const struct rte_ism_ring_geom g = { 16, 64 };
	struct rte_mbuf *m[2], *rx[2];

	if (pair_init(&g, &g, false, true) < 0)
		return TEST_FAILED;
	m[0] = test_pkt_make(pool, 300, 2048, 0);
	m[1] = test_pkt_make(pool, 300, 2048, 1);
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 2), 2, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 2), 2, "received");
	/* a restarts: new DMB, new token. */
	ring_fini(&ra);
	rte_ism_ring_peer_clear(rb);
	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &g, false, false), "a");
	if (pair_connect() < 0)
		return TEST_FAILED;
	TEST_ASSERT_EQUAL(ra->tx_pub.start, 10, "new sender starts after held");
	TEST_ASSERT_EQUAL(ra->tx_pub.cons, 0, "held slots are not credits");
	rte_pktmbuf_free_bulk(rx, 2);
	m[0] = test_pkt_make(pool, 300, 2048, 7);
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 1), 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 2), 1, "received");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx[0], 300, 7), "data");
	rte_pktmbuf_free(rx[0]);
	rte_ism_ring_recv(rb, rx, 1);
	TEST_ASSERT_EQUAL(rte_ism_ring_rx_held(rb), 0, "all given back");
	pair_fini();
	return TEST_SUCCESS;
}

/* The peer's DMB disappears: the send fails, nothing is lost. */
static int
test_peer_gone(void)
{
	struct rte_mbuf *m;

	if (pair_init(&geom_default, &geom_default, false, false) < 0)
		return TEST_FAILED;
	ring_fini(&rb);
	m = test_pkt_make(pool, 64, 2048, 0);
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, &m, 1), 0, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_error(ra), -ENOENT, "error %d",
			  rte_ism_ring_error(ra));
	rte_pktmbuf_free(m);
	ring_fini(&ra);
	return TEST_SUCCESS;
}

/* The length limit: a longer packet is dropped and counted, one at the
 * limit passes; received mbufs carry the port of the configuration. */
static int
test_max_len(void)
{
	const uint32_t ring_len = geom_default.nb_slots * geom_default.slot_size;
	struct rte_mbuf *m[2], *rx[2];

	if (pair_init(&geom_default, &geom_default, false, false) < 0)
		return TEST_FAILED;
	rte_ism_ring_set_max_len(ra, 100);
	m[0] = test_pkt_make(pool, 101, 2048, 0);
	m[1] = test_pkt_make(pool, 100, 2048, 1);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "mbufs");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 2), 2, "taken");
	TEST_ASSERT_EQUAL(ra->tx_stats.too_big, 1, "too big");
	TEST_ASSERT_EQUAL(ra->tx_stats.pkts, 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 2), 1, "received");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx[0], 100, 1), "data");
	TEST_ASSERT_EQUAL(rx[0]->port, 7, "mbuf port %u", rx[0]->port);
	rte_pktmbuf_free(rx[0]);
	/* No limit: what the peer's ring holds (all of it free: b finds
	 * nothing more and gives the credits back). */
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 2), 0, "received");
	rte_ism_ring_set_max_len(ra, 0);
	m[0] = test_pkt_make(pool, ring_len + 1, 2048, 2);
	m[1] = test_pkt_make(pool, ring_len, 2048, 3);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "mbufs");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 2), 2, "taken");
	TEST_ASSERT_EQUAL(ra->tx_stats.too_big, 2, "too big");
	TEST_ASSERT_EQUAL(ra->tx_stats.pkts, 2, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 2), 1, "received");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx[0], ring_len, 3), "data");
	rte_pktmbuf_free(rx[0]);
	pair_fini();
	return TEST_SUCCESS;
}

/* Zero copy: fini refuses while an mbuf points into the DMB, and keeps
 * it registered; once the mbuf is freed it succeeds. */
static int
test_fini_busy(void)
{
	struct rte_mbuf *m, *rx;

	if (pair_init(&geom_default, &geom_default, false, true) < 0)
		return TEST_FAILED;
	m = test_pkt_make(pool, 300, 2048, 0);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, &m, 1), 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, &rx, 1), 1, "received");
	TEST_ASSERT_EQUAL(ring_fini(&rb), -EBUSY, "fini while held");
	TEST_ASSERT(rb->dmb.token != 0, "DMB unregistered under an mbuf");
	TEST_ASSERT_SUCCESS(test_pkt_verify(rx, 300, 0), "data after fini");
	rte_pktmbuf_free(rx);
	TEST_ASSERT_SUCCESS(ring_fini(&rb), "fini once freed");
	ring_fini(&ra);
	return TEST_SUCCESS;
}

/* A receiver that reads its producer cursor (poll_cursor) gets packets
 * from a sender that raises no signal; the device sees none. */
static int
test_poll_cursor(void)
{
	struct rte_ism_signal sig[8];
	struct rte_mbuf *m[4], *rx[4];
	uint16_t i;

	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default,
				      false, false), "init a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default,
				      false, true), "init b");
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(ra, rb->dmb.token,
				&rb->rx_geom), "a: peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(rb, ra->dmb.token,
				&ra->rx_geom), "b: peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_ring_announce(rb), "b: announce");
	TEST_ASSERT_SUCCESS(rte_ism_ring_tx_start(ra, false), "a: tx_start");
	while (rte_ism_signal_poll(dev_b, sig, RTE_DIM(sig)) > 0)
		;	/* earlier tests' */
	for (i = 0; i < 4; i++) {
		m[i] = test_pkt_make(pool, 200, 2048, i);
		TEST_ASSERT_NOT_NULL(m[i], "mbuf");
	}
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, m, 4), 4, "sent");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(dev_b, sig, RTE_DIM(sig)), 0,
			  "the sender signalled");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, rx, 4), 4, "received");
	for (i = 0; i < 4; i++)
		TEST_ASSERT_SUCCESS(test_pkt_verify(rx[i], 200, i), "data");
	rte_pktmbuf_free_bulk(rx, 4);
	pair_fini();
	return TEST_SUCCESS;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "geometry", test_geometry },
	{ "not_connected", test_not_connected },
	{ "stream_copy", test_stream_copy },
	{ "stream_zero_copy", test_stream_zero_copy },
	{ "ring_full", test_ring_full },
	{ "credit_batching", test_credit_batching },
	{ "drops", test_drops },
	{ "zero_copy_free_order", test_zero_copy_free_order },
	{ "bad_desc_len", test_bad_desc_len },
	{ "bad_cursor", test_bad_cursor },
	{ "bad_credits", test_bad_credits },
	{ "bad_start", test_bad_start },
	{ "rx_pending", test_rx_pending },
	{ "reconnect_zero_copy", test_reconnect_zero_copy },
	{ "peer_gone", test_peer_gone },
	{ "max_len", test_max_len },
	{ "fini_busy", test_fini_busy },
	{ "poll_cursor", test_poll_cursor },
	{ "handshake", test_handshake },
	{ "bad_hello", test_bad_hello },
	{ "link_multi_ring", test_link_multi_ring },
	{ "link_ring_mismatch", test_link_ring_mismatch },
	{ "link_poll_cursor", test_link_poll_cursor },
	{ "link_protocol_error", test_link_protocol_error },
	{ "link_extra_ring_told_once", test_link_extra_ring_told_once },
	{ "link_violation_backoff", test_link_violation_backoff },
	{ "handoff", test_handoff },
	{ "quiesce", test_quiesce },
	{ "ring_removal", test_ring_removal },
	{ "ring_removal_zc_held", test_ring_removal_zc_held },
};

int
main(int argc, char **argv)
{
	struct rte_ism_dev_info info;
	unsigned int i, failed = 0;
	int ret;

	/* Each line out at once: one that ends in abort() (a sanitizer's,
	 * abort_on_error) loses no result line already printed.
	 */
	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	if (rte_ism_get_dev_id("ism_lo0") < 0 ||
	    rte_ism_get_dev_id("ism_lo1") < 0) {
		printf("SKIP: needs --vdev ism_lo0 --vdev ism_lo1\n");
		rte_eal_cleanup();
		return 77;
	}
	dev_a = rte_ism_get_dev_id("ism_lo0");
	dev_b = rte_ism_get_dev_id("ism_lo1");
	rte_ism_info_get(dev_a, &info);
	gid_a = info.gid;
	rte_ism_info_get(dev_b, &info);
	gid_b = info.gid;
	pool = rte_pktmbuf_pool_create("test_pool", NB_MBUFS, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (pool == NULL) {
		printf("no mbuf pool\n");
		failed = 1;
		goto out;
	}
	for (i = 0; i < RTE_DIM(tests); i++) {
		ret = tests[i].fn();
		printf("%s %s\n", ret == 0 ? "PASS" : "FAIL", tests[i].name);
		failed += ret != 0;
		if (rte_mempool_in_use_count(pool) != 0) {
			printf("FAIL %s: %u mbufs not freed\n", tests[i].name,
			       rte_mempool_in_use_count(pool));
			failed++;
			break;
		}
	}
	rte_mempool_free(pool);
out:
	rte_eal_cleanup();
	printf("%u of %zu tests failed\n", failed, RTE_DIM(tests));
	return failed == 0 ? 0 : 1;
}
