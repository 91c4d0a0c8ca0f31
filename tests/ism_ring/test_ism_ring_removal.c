/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * A ring and its link when their ISM device is removed (rte_ism_ring.h):
 * the ring forgets its peer and never uses the device's id again, the
 * link reports the peer lost once and sends nothing, a device that takes
 * the freed id keeps its events. In the fixture of test_ism_ring.c:
 * ism_lo0 (device A) is removed and made again, and dev_a follows it.
 */

#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>

#include "ring_test.h"

static struct rte_ism_ring *r1, *r2;
static struct rte_ism_ring_link l1, l2;

struct reports {
	unsigned int nb_up, nb_lost;
	char why[64];
};
static struct reports rep1, rep2;

static void
on_link(void *arg, const struct rte_ism_ring_link_report *r)
{
	struct reports *rep = arg;

	if (r->what == RTE_ISM_RING_LINK_UP)
		rep->nb_up++;
	else
		rep->nb_lost++;
	if (r->why != NULL)
		snprintf(rep->why, sizeof(rep->why), "%s", r->why);
}

/* Poll both links until cond(); the bound only stops a hang. */
static bool
poll_until(bool (*cond)(void))
{
	unsigned int i;

	for (i = 0; i < 5000 && !cond(); i++) {
		rte_ism_ring_link_poll(&l1, rte_rdtsc());
		rte_ism_ring_link_poll(&l2, rte_rdtsc());
		rte_delay_us_block(1000);
	}
	return cond();
}

static bool
both_up(void)
{
	return rte_ism_ring_link_up(&l1) && rte_ism_ring_link_up(&l2);
}

static bool
two_lost(void)
{
	return rep2.nb_lost > 0;
}

static bool
ring_gone(const struct rte_ism_ring *r)
{
	return rte_atomic_load_explicit(&r->ctl.dev_gone,
			rte_memory_order_acquire);
}

/* Make ism_lo0 (gid 0xa) again if it is gone; dev_a follows. */
static void
lo0_restore(void)
{
	int id = rte_ism_get_dev_id("ism_lo0");

	if (id < 0 && rte_vdev_init("ism_lo0", "gid=0xa") == 0)
		id = rte_ism_get_dev_id("ism_lo0");
	if (id >= 0)
		dev_a = id;
}

/* Up, with a packet from 1 to 2; zc: r2 receives in zero copy and keeps
 * the packet in *held. */
static int
up(bool zc, struct rte_mbuf **held)
{
	struct rte_ism_ring *rings1[1], *rings2[1];
	struct rte_mbuf *m;
	unsigned int i;
	uint16_t n = 0;

	events_drain();
	memset(&rep1, 0, sizeof(rep1));
	memset(&rep2, 0, sizeof(rep2));
	TEST_ASSERT_SUCCESS(ring_init(&r1, dev_a, &gid_b, &geom_default,
				      false, true), "ring 1");
	TEST_ASSERT_SUCCESS(ring_init(&r2, dev_b, &gid_a, &geom_default,
				      zc, true), "ring 2");
	rings1[0] = r1;
	rings2[0] = r2;
	TEST_ASSERT_SUCCESS(rte_ism_ring_link_init(&l1, dev_a, &gid_b,
			rings1, 1, on_link, &rep1), "link 1");
	TEST_ASSERT_SUCCESS(rte_ism_ring_link_init(&l2, dev_b, &gid_a,
			rings2, 1, on_link, &rep2), "link 2");
	TEST_ASSERT(poll_until(both_up), "links not up");
	m = test_pkt_make(pool, 1000, UINT32_MAX, 3);
	TEST_ASSERT(m != NULL, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(r1, &m, 1), 1, "send");
	for (i = 0; i < 1000 && n == 0; i++)
		n = rte_ism_ring_recv(r2, held, 1);
	TEST_ASSERT_EQUAL(n, 1, "recv");
	TEST_ASSERT_SUCCESS(test_pkt_verify(*held, 1000, 3), "packet");
	if (!zc) {
		rte_pktmbuf_free(*held);
		*held = NULL;
	}
	return TEST_SUCCESS;
}

/* What a ring and a link whose device was removed do. */
static int
gone_calls(void)
{
	struct rte_ism_ring_geom g = geom_default;
	struct rte_mbuf *m, *rx[2];

	TEST_ASSERT(ring_gone(r1), "ring 1 not told");
	m = test_pkt_make(pool, 100, UINT32_MAX, 1);
	TEST_ASSERT(m != NULL, "mbuf");
	TEST_ASSERT_EQUAL(rte_ism_ring_send(r1, &m, 1), 0, "send");
	rte_pktmbuf_free(m);
	TEST_ASSERT_EQUAL(rte_ism_ring_recv(r1, rx, 2), 0, "recv");
	TEST_ASSERT_EQUAL(rte_ism_ring_peer_set(r1, 0x1000, &g), -ENODEV,
			  "peer_set");
	TEST_ASSERT_EQUAL(rte_ism_ring_announce(r1), -ENODEV, "announce");
	TEST_ASSERT_EQUAL(rte_ism_ring_tx_start(r1, false), -ENODEV,
			  "tx_start");
	/* Lost once, for the reason; then nothing. */
	TEST_ASSERT_EQUAL(rte_ism_ring_link_poll(&l1, rte_rdtsc()),
			  RTE_ISM_RING_LINK_LOST, "link 1 poll");
	TEST_ASSERT(strstr(rep1.why, "removed") != NULL, "why: %s",
		    rep1.why);
	TEST_ASSERT_EQUAL(rte_ism_ring_link_tick(&l1, rte_rdtsc()), 0,
			  "link 1 tick");
	TEST_ASSERT_EQUAL(rep1.nb_lost, 1, "link 1 losses");
	/* The peer hears of it. */
	TEST_ASSERT(poll_until(two_lost), "link 2 still up");
	return TEST_SUCCESS;
}

/* Device A goes under a ring and a link that are up; then another device
 * takes its id and keeps its events. */
static int
removal(void)
{
	struct rte_ism_gid g = { .gid = 0xa };
	struct rte_ism_event ev;
	struct rte_mbuf *held = NULL;
	int old = dev_a, id, n;

	if (up(false, &held) < 0)
		return TEST_FAILED;
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("ism_lo0"), "remove ism_lo0");
	if (gone_calls() < 0)
		return TEST_FAILED;
	/* ism_lo0 again: the freed id, another device. */
	lo0_restore();
	id = rte_ism_get_dev_id("ism_lo0");
	TEST_ASSERT_EQUAL(id, old, "ism_lo0 did not take id %d", old);
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(dev_b, &g, 1, 0x55, 7),
			    "an event to the new device");
	TEST_ASSERT_EQUAL(rte_ism_ring_link_poll(&l1, rte_rdtsc()), 0,
			  "link 1 poll");
	n = rte_ism_event_poll(id, &ev, 1);
	TEST_ASSERT(n == 1 && ev.code == 0x55, "the new device's event was "
		    "taken (%d)", n);
	TEST_ASSERT_SUCCESS(ring_fini(&r1), "fini 1");
	TEST_ASSERT_SUCCESS(ring_fini(&r2), "fini 2");
	return TEST_SUCCESS;
}

int
test_ring_removal(void)
{
	int ret = removal();

	ring_fini(&r1);
	ring_fini(&r2);
	lo0_restore();
	events_drain();
	return ret;
}

/* Zero copy: the device goes while the application holds a packet of the
 * receive ring: the ring stays until it is freed. Here the receiver's
 * device (B = ism_lo1) is the one removed. */
static int
removal_zc_held(void)
{
	struct rte_mbuf *held = NULL;
	int ret;

	if (up(true, &held) < 0) {
		rte_pktmbuf_free(held);
		return TEST_FAILED;
	}
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("ism_lo1"), "remove ism_lo1");
	TEST_ASSERT(ring_gone(r2), "ring 2 not told");
	ret = ring_fini(&r2);
	/* Free it without reading it: its data went with the device. */
	rte_pktmbuf_free(held);
	TEST_ASSERT_EQUAL(ret, -EBUSY, "free with a slot held");
	TEST_ASSERT_SUCCESS(ring_fini(&r2), "free once the mbuf is");
	return TEST_SUCCESS;
}

int
test_ring_removal_zc_held(void)
{
	int ret = removal_zc_held();
	int id;

	ring_fini(&r1);
	ring_fini(&r2);
	if (rte_ism_get_dev_id("ism_lo1") < 0)
		rte_vdev_init("ism_lo1", "gid=0xb");
	id = rte_ism_get_dev_id("ism_lo1");
	if (id >= 0)
		dev_b = id;
	events_drain();
	return ret;
}
