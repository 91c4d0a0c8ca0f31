/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The control steps against a running data path, in the fixture of
 * test_ism_ring.c: a worker lcore sends on ring a without pause while the
 * main lcore receives on ring b and, between receives, runs the steps of
 * the handshake on both rings: reconnects, a restart of b (a new ring, so
 * a's send side must let go of b's old DMB), changes of the length limit.
 * Nothing takes a lock; every packet that arrives must be whole, in order,
 * and once; after each change traffic must resume.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include "ring_test.h"

#define HO_ROUNDS	60	/* control changes per mode */
#define HO_PER_ROUND	64	/* packets received between two changes */
#define HO_BURST	8
#define HO_DEADLINE_S	20	/* for one round on a loaded machine */

static RTE_ATOMIC(bool) ho_stop;

/* Packet seq: its length, then seq in its first 4 bytes and a pattern. */
static uint32_t
ho_len(uint32_t seq)
{
	return 8 + (seq * 2654435761u) % 1493;
}

static struct rte_mbuf *
ho_make(uint32_t seq)
{
	uint32_t len = ho_len(seq), i;
	struct rte_mbuf *m = rte_pktmbuf_alloc(pool);
	uint8_t *p;

	if (m == NULL)
		return NULL;
	p = (uint8_t *)rte_pktmbuf_append(m, len);
	if (p == NULL) {
		rte_pktmbuf_free(m);
		return NULL;
	}
	memcpy(p, &seq, sizeof(seq));
	for (i = sizeof(seq); i < len; i++)
		p[i] = (uint8_t)(seq * 7 + i);
	return m;
}

/* The sequence number of a whole packet, or -1. */
static int64_t
ho_check(const struct rte_mbuf *m)
{
	uint8_t buf[1500];
	const uint8_t *p;
	uint32_t seq, i;

	if (m->pkt_len < 8 || m->pkt_len > sizeof(buf))
		return -1;
	p = rte_pktmbuf_read(m, 0, m->pkt_len, buf);
	if (p == NULL)
		return -1;
	memcpy(&seq, p, sizeof(seq));
	if (m->pkt_len != ho_len(seq))
		return -1;
	for (i = sizeof(seq); i < m->pkt_len; i++)
		if (p[i] != (uint8_t)(seq * 7 + i))
			return -1;
	return seq;
}

/* The worker: sends numbered packets on ring a (which the main lcore
 * never frees while it runs) until told to stop. */
static int
ho_sender(void *arg __rte_unused)
{
	struct rte_mbuf *m[HO_BURST];
	uint32_t seq = 0;
	uint16_t n = 0, k;

	while (!rte_atomic_load_explicit(&ho_stop, rte_memory_order_acquire)) {
		while (n < HO_BURST) {
			m[n] = ho_make(seq + n);
			if (m[n] == NULL)
				break;
			n++;
		}
		k = rte_ism_ring_send(ra, m, n);
		memmove(m, m + k, (n - k) * sizeof(m[0]));
		n -= k;
		seq += k;
	}
	rte_pktmbuf_free_bulk(m, n);
	return 0;
}

/* What the link does: both sides forget, then the steps in order. */
static int
ho_connect(void)
{
	rte_ism_ring_peer_clear(ra);
	rte_ism_ring_peer_clear(rb);
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(ra, rb->dmb.token,
				&rb->rx_geom), "a: peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_ring_peer_set(rb, ra->dmb.token,
				&ra->rx_geom), "b: peer_set");
	TEST_ASSERT_SUCCESS(rte_ism_ring_announce(ra), "a: announce");
	TEST_ASSERT_SUCCESS(rte_ism_ring_announce(rb), "b: announce");
	TEST_ASSERT_SUCCESS(rte_ism_ring_tx_start(ra, false), "a: tx_start");
	TEST_ASSERT_SUCCESS(rte_ism_ring_tx_start(rb, false), "b: tx_start");
	return TEST_SUCCESS;
}

/* Receive want packets on b, each whole and after the one before. */
static int
ho_receive(unsigned int want, int64_t *last, unsigned int round)
{
	const uint64_t deadline = rte_get_timer_cycles() +
		HO_DEADLINE_S * rte_get_timer_hz();
	struct rte_mbuf *rx[HO_BURST];
	unsigned int got = 0, k;
	uint16_t n;
	int64_t seq;

	while (got < want) {
		if (rte_get_timer_cycles() > deadline) {
			printf("round %u: %u of %u packets after %u s\n",
			       round, got, want, HO_DEADLINE_S);
			return TEST_FAILED;
		}
		n = rte_ism_ring_recv(rb, rx, HO_BURST);
		for (k = 0; k < n; k++) {
			seq = ho_check(rx[k]);
			if (seq < 0 || seq <= *last) {
				printf("round %u: packet of %u bytes, seq %"
				       PRId64 " after %" PRId64 "\n", round,
				       rx[k]->pkt_len, seq, *last);
				rte_pktmbuf_free_bulk(rx, n);
				return TEST_FAILED;
			}
			*last = seq;
		}
		rte_pktmbuf_free_bulk(rx, n);
		got += n;
	}
	return TEST_SUCCESS;
}

static int
ho_run(bool zc)
{
	const struct rte_ism_ring_geom g = { 64, 128 };
	unsigned int worker = rte_get_next_lcore(-1, 1, 0), round;
	int64_t last = -1;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &g, zc, true), "a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &g, zc, true), "b");
	if (ho_connect() < 0)
		return TEST_FAILED;
	rte_atomic_store_explicit(&ho_stop, false, rte_memory_order_release);
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(ho_sender, NULL, worker),
			    "launch");
	for (round = 0; round < HO_ROUNDS && ret == TEST_SUCCESS; round++) {
		ret = ho_receive(HO_PER_ROUND, &last, round);
		if (ret != TEST_SUCCESS)
			break;
		switch (round % 3) {
		case 0:	/* both sides restart the handshake */
			ret = ho_connect();
			break;
		case 1:	/* b restarts: a new DMB; a lets go of the old one */
			rte_ism_ring_peer_clear(ra);
			ring_fini(&rb);
			if (ring_init(&rb, dev_b, &gid_a, &g, zc, true) < 0) {
				ret = TEST_FAILED;
				break;
			}
			ret = ho_connect();
			break;
		default:	/* a length limit under the packets' lengths */
			rte_ism_ring_set_max_len(ra, round % 2 ? 0 : 1200);
			break;
		}
	}
	rte_atomic_store_explicit(&ho_stop, true, rte_memory_order_release);
	rte_eal_wait_lcore(worker);
	if (ret == TEST_SUCCESS && (ra->tx_stats.bad != 0 ||
				    rb->rx_stats.bad != 0)) {
		printf("protocol errors: a %" PRIu64 ", b %" PRIu64 "\n",
		       ra->tx_stats.bad, rb->rx_stats.bad);
		ret = TEST_FAILED;
	}
	pair_fini();
	return ret;
}

int
test_handoff(void)
{
	if (rte_get_next_lcore(-1, 1, 0) >= RTE_MAX_LCORE) {
		printf("handoff: needs a second lcore (-l 0,1)\n");
		return TEST_FAILED;
	}
	if (ho_run(false) < 0 || ho_run(true) < 0)
		return TEST_FAILED;
	return TEST_SUCCESS;
}

static RTE_ATOMIC(int) qs_step;

static int
qs_clear(void *arg __rte_unused)
{
	rte_atomic_store_explicit(&qs_step, 1, rte_memory_order_release);
	rte_ism_ring_peer_clear(ra);
	rte_atomic_store_explicit(&qs_step, 2, rte_memory_order_release);
	return 0;
}

/*
 * rte_ism_ring_peer_clear() returns once the send side cannot be in a
 * call on the old connection, and only then detaches the peer's DMB (zero
 * copy: the send side writes into it). A call in progress is played here
 * by the send side's busy word.
 */
int
test_quiesce(void)
{
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	const uint64_t hz = rte_get_timer_hz();
	struct rte_mbuf *m, *rx;
	uint64_t deadline;

	TEST_ASSERT_SUCCESS(ring_init(&ra, dev_a, &gid_b, &geom_default, true,
				      true), "a");
	TEST_ASSERT_SUCCESS(ring_init(&rb, dev_b, &gid_a, &geom_default, false,
				      true), "b");
	if (ho_connect() < 0)
		return TEST_FAILED;
	m = test_pkt_make(pool, 300, 2048, 1);
	TEST_ASSERT_NOT_NULL(m, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(ra, &m, 1), 1, "sent");
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(rb, &rx, 1), 1, "received");
	rte_pktmbuf_free(rx);
	TEST_ASSERT(ra->ctl.map_token == rb->dmb.token, "b's DMB not attached");
	/* A send call in progress (it took the connection already). */
	rte_atomic_store_explicit(&ra->tx_busy, 1, rte_memory_order_release);
	rte_atomic_store_explicit(&qs_step, 0, rte_memory_order_release);
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(qs_clear, NULL, worker),
			    "launch");
	while (rte_atomic_load_explicit(&qs_step, rte_memory_order_acquire) == 0)
		rte_pause();
	rte_delay_ms(20);
	TEST_ASSERT_EQUAL(rte_atomic_load_explicit(&qs_step,
			rte_memory_order_acquire), 1,
			"peer_clear returned during a send call");
	TEST_ASSERT(ra->ctl.map_token == rb->dmb.token,
		    "b's DMB detached during a send call");
	/* The call ends: peer_clear finishes, and detaches. */
	rte_atomic_store_explicit(&ra->tx_busy, 0, rte_memory_order_release);
	deadline = rte_get_timer_cycles() + 10 * hz;
	while (rte_atomic_load_explicit(&qs_step, rte_memory_order_acquire) != 2 &&
	       rte_get_timer_cycles() < deadline)
		rte_pause();
	rte_eal_wait_lcore(worker);
	TEST_ASSERT_EQUAL(ra->ctl.map_token, 0, "b's DMB still attached");
	TEST_ASSERT(!rte_ism_ring_tx_ready(ra), "a still sends");
	pair_fini();
	return TEST_SUCCESS;
}
