/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Unit tests of the net_ism ethdev (drivers/net/ism) through the ethdev
 * API only, with two ports in one process over two loopback ISM devices:
 *   test-net-ism [EAL options] --vdev ism_lo0,gid=0xa --vdev ism_lo1,gid=0xb
 *                --vdev ism_lo2,gid=0xc,max_dmbs=2
 * Ports are created and removed by each test (rte_vdev_init/uninit).
 * Exit status 0 if all pass.
 */

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_epoll.h>
#include <rte_ethdev.h>
#include <rte_log.h>
#include <rte_mbuf.h>
#include <rte_random.h>

#include <rte_ism.h>

#include <ism_compat.h>

#include "test_assert.h"
#include "test_pkt.h"

#define NB_MBUFS	16384
#define BURST		32

static struct rte_mempool *pool;
static RTE_ATOMIC(unsigned int) lsc_events[RTE_MAX_ETHPORTS];

/* The logs a probe wrote, to find the key it named. */
static char *log_buf;
static size_t log_len;
static FILE *log_mem;

static void
log_capture_start(void)
{
	free(log_buf);
	log_buf = NULL;
	log_mem = open_memstream(&log_buf, &log_len);
	rte_openlog_stream(log_mem);
}

static void
log_capture_stop(void)
{
	rte_openlog_stream(NULL);
	fclose(log_mem);
	log_mem = NULL;
}

static int
lsc_cb(uint16_t port, enum rte_eth_event_type type __rte_unused,
		void *arg __rte_unused, void *ret __rte_unused)
{
	rte_atomic_fetch_add_explicit(&lsc_events[port], 1, rte_memory_order_relaxed);
	return 0;
}

/* Create a port; its id, or -1. */
static int
port_create(const char *name, const char *args)
{
	uint16_t port;

	if (rte_vdev_init(name, args) < 0)
		return -1;
	if (rte_eth_dev_get_port_by_name(name, &port) != 0)
		return -1;
	return port;
}

static int
port_setup_conf(uint16_t port, uint16_t nb_q, uint16_t mtu, bool rxq_intr)
{
	struct rte_eth_conf conf = { .intr_conf.lsc = 1,
		.intr_conf.rxq = rxq_intr };
	uint16_t q;

	TEST_ASSERT_SUCCESS(rte_eth_dev_configure(port, nb_q, nb_q, &conf),
			    "configure %u", port);
	TEST_ASSERT_SUCCESS(rte_eth_dev_set_mtu(port, mtu), "mtu %u", mtu);
	for (q = 0; q < nb_q; q++) {
		TEST_ASSERT_SUCCESS(rte_eth_rx_queue_setup(port, q, 512,
				SOCKET_ID_ANY, NULL, pool), "rxq %u", q);
		TEST_ASSERT_SUCCESS(rte_eth_tx_queue_setup(port, q, 512,
				SOCKET_ID_ANY, NULL), "txq %u", q);
	}
	rte_eth_dev_callback_register(port, RTE_ETH_EVENT_INTR_LSC, lsc_cb,
				      NULL);
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(port), "start %u", port);
	return TEST_SUCCESS;
}

static int
port_setup(uint16_t port, uint16_t nb_q, uint16_t mtu)
{
	return port_setup_conf(port, nb_q, mtu, false);
}

static int
link_status(uint16_t port)
{
	struct rte_eth_link link;

	if (rte_eth_link_get_nowait(port, &link) != 0)
		return -1;
	return link.link_status;
}

/* Wait for a link state; the bound only stops a hang. */
static bool
link_wait(uint16_t port, int status)
{
	unsigned int i;

	for (i = 0; i < 10000 && link_status(port) != status; i++)
		rte_delay_us_sleep(1000);
	return link_status(port) == status;
}

/* The packet test_pkt_make() wrote for seed, received on port. */
static int
pkt_verify(const struct rte_mbuf *m, uint32_t len, uint32_t seed,
		uint16_t port)
{
	TEST_ASSERT_EQUAL(m->port, port, "mbuf port %u, want %u", m->port,
			  port);
	return test_pkt_verify(m, len, seed);
}

static uint32_t
size_of(uint32_t seq, uint32_t max)
{
	return 64 + (seq * 2654435761u) % (max - 63);
}

/* nb packets per queue from port a to port b, in order per queue, sizes
 * 64..max; the sender is paced by the ring (nothing may be lost). */
static int
stream(uint16_t a, uint16_t b, uint16_t nb_q, uint32_t nb, uint32_t max)
{
	struct rte_mbuf *tx[BURST], *rx[BURST];
	uint32_t sent[RTE_MAX_QUEUES_PER_PORT] = { 0 };
	uint32_t rcvd[RTE_MAX_QUEUES_PER_PORT] = { 0 };
	uint32_t guard, done = 0, k, seq;
	uint16_t q, n, i, got;

	for (guard = 0; done < nb_q && guard < 2000000; guard++) {
		done = 0;
		for (q = 0; q < nb_q; q++) {
			n = RTE_MIN((uint32_t)BURST, nb - sent[q]);
			for (i = 0; i < n; i++) {
				seq = sent[q] + i;
				tx[i] = test_pkt_make(pool,
						size_of(seq, max), UINT32_MAX,
						seq * 16 + q);
				TEST_ASSERT(tx[i] != NULL, "mbuf");
			}
			k = rte_eth_tx_burst(a, q, tx, n);
			rte_pktmbuf_free_bulk(tx + k, n - k);
			sent[q] += k;
			got = rte_eth_rx_burst(b, q, rx, BURST);
			for (i = 0; i < got; i++) {
				seq = rcvd[q] + i;
				if (pkt_verify(rx[i], size_of(seq, max),
					       seq * 16 + q, b) < 0)
					return TEST_FAILED;
			}
			rte_pktmbuf_free_bulk(rx, got);
			rcvd[q] += got;
			done += rcvd[q] == nb;
		}
	}
	for (q = 0; q < nb_q; q++)
		TEST_ASSERT_EQUAL(rcvd[q], nb, "queue %u: %u of %u received",
				  q, rcvd[q], nb);
	return TEST_SUCCESS;
}

static int
pair_create(const char *extra, int *a, int *b)
{
	char args[256];

	snprintf(args, sizeof(args), "ism=ism_lo0,peer=0xb%s", extra);
	*a = port_create("net_ism0", args);
	snprintf(args, sizeof(args), "ism=ism_lo1,peer=0xa%s", extra);
	*b = port_create("net_ism1", args);
	TEST_ASSERT(*a >= 0 && *b >= 0, "ports %d %d (%s)", *a, *b, extra);
	return TEST_SUCCESS;
}

static void
pair_destroy(void)
{
	rte_vdev_uninit("net_ism0");
	rte_vdev_uninit("net_ism1");
}

/* Traffic both ways, in order, 64..max bytes per queue. */
static int
traffic(const char *extra, uint16_t nb_q, uint32_t max)
{
	int a, b, ret = -1;

	if (pair_create(extra, &a, &b) < 0)
		goto out;
	if (port_setup(a, nb_q, 9000) < 0 || port_setup(b, nb_q, 9000) < 0)
		goto out;
	if (!link_wait(a, RTE_ETH_LINK_UP) || !link_wait(b, RTE_ETH_LINK_UP)) {
		printf("    FAIL: no link (%s)\n", extra);
		goto out;
	}
	if (stream(a, b, nb_q, 3000, max) < 0 ||
	    stream(b, a, nb_q, 3000, max) < 0)
		goto out;
	ret = 0;
out:
	pair_destroy();
	return ret;
}

static int
test_copy_1q(void)
{
	return traffic("", 1, 9000);
}

static int
test_copy_2q(void)
{
	return traffic(",queues=2", 2, 9000);
}

static int
test_zero_copy_1q(void)
{
	return traffic(",zero-copy=yes", 1, 9000);
}

static int
test_zero_copy_2q(void)
{
	/* A small ring: zero-copy packets wrap and come as two mbufs. */
	return traffic(",zero-copy=yes,queues=2,ring-slots=256,slot-size=64",
		       2, 9000);
}

/* Counters: basic and extended, reset; MTU enforced on transmit. */
static int
test_stats(void)
{
	struct rte_eth_xstat_name names[64];
	struct rte_eth_xstat xs[64];
	struct rte_eth_stats st;
	struct rte_mbuf *m[2];
	int a, b, n, i, found = 0;

	if (pair_create("", &a, &b) < 0)
		return TEST_FAILED;
	if (port_setup(a, 1, 1500) < 0 || port_setup(b, 1, 1500) < 0)
		return TEST_FAILED;
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP) &&
		    link_wait(b, RTE_ETH_LINK_UP), "no link");
	if (stream(a, b, 1, 100, 1500) < 0)
		return TEST_FAILED;
	/* above MTU 1500, and at the limit */
	m[0] = test_pkt_make(pool, 1500 + 14 + 8 + 1, UINT32_MAX, 1);
	m[1] = test_pkt_make(pool, 1500 + 14 + 8, UINT32_MAX, 2);
	TEST_ASSERT(m[0] != NULL && m[1] != NULL, "mbufs");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(a, 0, m, 2), 2, "tx");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(a, &st), "stats a");
	TEST_ASSERT(st.opackets == 101 && st.oerrors == 1,
		    "a: opackets %" PRIu64 " oerrors %" PRIu64, st.opackets,
		    st.oerrors);
	TEST_ASSERT_EQUAL(rte_eth_rx_burst(b, 0, m, 2), 1, "rx");
	TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m[0]), 1522, "length");
	rte_pktmbuf_free(m[0]);
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(b, &st), "stats b");
	TEST_ASSERT(st.ipackets == 101 && st.ierrors == 0, "b: ipackets %" PRIu64
		    " ierrors %" PRIu64, st.ipackets, st.ierrors);
	n = rte_eth_xstats_get_names(b, names, RTE_DIM(names));
	TEST_ASSERT(n > 0 && n <= (int)RTE_DIM(names), "%d xstats", n);
	TEST_ASSERT_EQUAL(rte_eth_xstats_get(b, xs, RTE_DIM(xs)), n, "values");
	for (i = 0; i < n; i++) {
		if (strcmp(names[i].name, "rx_q0_bursts") == 0 &&
		    xs[i].value > 0)
			found |= 1;
		if (strcmp(names[i].name, "link_up_count") == 0 &&
		    xs[i].value == 1)
			found |= 2;
		/* The queue's counters, which ethdev adds (AUTOFILL): the
		 * way that works in every DPDK version (25.11 took them out
		 * of struct rte_eth_stats). */
		if (strcmp(names[i].name, "rx_q0_packets") == 0 &&
		    xs[i].value == 101)
			found |= 4;
	}
	TEST_ASSERT_EQUAL(found, 7,
			  "xstats rx_q0_bursts/link_up_count/rx_q0_packets");
	TEST_ASSERT_SUCCESS(rte_eth_stats_reset(b), "reset");
	TEST_ASSERT_SUCCESS(rte_eth_xstats_reset(b), "xreset");
	TEST_ASSERT_SUCCESS(rte_eth_stats_get(b, &st), "stats b");
	TEST_ASSERT_EQUAL(st.ipackets, 0, "after reset");
	TEST_ASSERT_EQUAL(rte_eth_xstats_get(b, xs, RTE_DIM(xs)), n, "values");
	for (i = 0; i < n; i++)
		TEST_ASSERT_EQUAL(xs[i].value, 0, "%s after reset",
				  names[i].name);
	/* No filtering to switch: these only succeed. */
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_disable(a), "promisc off");
	TEST_ASSERT_SUCCESS(rte_eth_promiscuous_enable(a), "promisc on");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_disable(a), "allmulti off");
	TEST_ASSERT_SUCCESS(rte_eth_allmulticast_enable(a), "allmulti on");
	pair_destroy();
	return TEST_SUCCESS;
}

/* The peer port stops and starts again: our link goes down and up, with
 * an LSC event each time, and traffic resumes; nothing restarts here. */
static int
test_link_down_up(void)
{
	int a, b;
	unsigned int ev;

	if (pair_create("", &a, &b) < 0)
		return TEST_FAILED;
	if (port_setup(a, 1, 1500) < 0 || port_setup(b, 1, 1500) < 0)
		return TEST_FAILED;
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP), "no link");
	ev = rte_atomic_load_explicit(&lsc_events[a], rte_memory_order_relaxed);
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(b), "stop b");
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_DOWN), "a still up");
	TEST_ASSERT_EQUAL(link_status(b), RTE_ETH_LINK_DOWN, "b up, stopped");
	TEST_ASSERT_SUCCESS(rte_eth_dev_start(b), "start b");
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP), "a not up again");
	TEST_ASSERT(link_wait(b, RTE_ETH_LINK_UP), "b not up again");
	TEST_ASSERT(rte_atomic_load_explicit(&lsc_events[a], rte_memory_order_relaxed) >= ev + 2,
		    "LSC events %u -> %u", ev, lsc_events[a]);
	if (stream(a, b, 1, 500, 1500) < 0 || stream(b, a, 1, 500, 1500) < 0)
		return TEST_FAILED;
	pair_destroy();
	return TEST_SUCCESS;
}

/* Bad devargs: the probe fails naming the key, and no port is left. */
static int
test_devargs(void)
{
	static const struct {
		const char *args;
		const char *says;
	} bad[] = {
		{ "", "missing key ism" },
		{ "ism=ism_lo0", "missing key peer" },
		{ "ism=ism_nope,peer=0xb", "ism=ism_nope: no such ISM device" },
		{ "ism=ism_lo0,peer=0xzz", "peer=0xzz: malformed GID" },
		{ "ism=ism_lo0,peer=0", "peer=0: malformed GID" },
		{ "ism=ism_lo0,peer=0xb,queues=17", "queues=17" },
		{ "ism=ism_lo0,peer=0xb,queues=0", "queues=0" },
		{ "ism=ism_lo2,peer=0xb,queues=3", "queues=3: beyond the 2 DMBs" },
		{ "ism=ism_lo0,peer=0xb,zero-copy=maybe", "zero-copy=maybe" },
		{ "ism=ism_lo0,peer=0xb,slot-size=100", "slot-size=100" },
		{ "ism=ism_lo0,peer=0xb,ring-slots=3", "ring-slots=3" },
		{ "ism=ism_lo0,peer=0xb,ring-slots=524288,slot-size=32768",
		  "ring-slots=524288: a ring of" },
		{ "ism=ism_lo0,peer=0xb,bogus=1", "unknown key bogus" },
		{ "ism=ism_lo0,peer=0xb,peer=0xc", "peer=0xc: given twice" },
		{ "ism=ism_lo0,peer=0xb,mac=zz", "mac=zz" },
		{ "ism=ism_lo0,peer=0xb,mac", "mac=: a value is needed" },
	};
	unsigned int i;
	int ret, a;

	for (i = 0; i < RTE_DIM(bad); i++) {
		log_capture_start();
		ret = rte_vdev_init("net_ism0", bad[i].args);
		log_capture_stop();
		TEST_ASSERT(ret < 0, "'%s' accepted", bad[i].args);
		TEST_ASSERT(log_buf != NULL && strstr(log_buf, bad[i].says),
			    "'%s': log does not say '%s': %s", bad[i].args,
			    bad[i].says, log_buf);
		TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0,
				  "'%s' left a port", bad[i].args);
	}
	/* One port per peer and device. */
	a = port_create("net_ism0", "ism=ism_lo0,peer=0xb");
	TEST_ASSERT(a >= 0, "good devargs refused");
	log_capture_start();
	ret = rte_vdev_init("net_ism1", "ism=ism_lo0,peer=0xb");
	log_capture_stop();
	TEST_ASSERT(ret < 0 && strstr(log_buf, "already the peer of net_ism0"),
		    "same peer twice: %d, %s", ret, log_buf);
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 1, "ports");
	/* A device with 2 DMBs offers 2 queue pairs by default. */
	TEST_ASSERT(port_create("net_ism1", "ism=ism_lo2,peer=0xa") >= 0,
		    "ism_lo2");
	{
		struct rte_eth_dev_info info;
		uint16_t b;

		rte_eth_dev_get_port_by_name("net_ism1", &b);
		TEST_ASSERT_SUCCESS(rte_eth_dev_info_get(b, &info), "info");
		TEST_ASSERT(info.max_rx_queues == 2 && info.max_tx_queues == 2,
			    "max queues %u/%u", info.max_rx_queues,
			    info.max_tx_queues);
		TEST_ASSERT(info.max_mtu == 9000 &&
			    (info.tx_offload_capa &
			     RTE_ETH_TX_OFFLOAD_MULTI_SEGS) != 0,
			    "max_mtu %u", info.max_mtu);
	}
	pair_destroy();
	TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "ports left");
	return TEST_SUCCESS;
}

/* Zero copy: closing while the application holds received mbufs keeps
 * their memory valid; they can still be read and freed. */
static int
test_close_held(void)
{
	struct rte_mbuf *m, *rx;
	int a, b;

	if (pair_create(",zero-copy=yes", &a, &b) < 0)
		return TEST_FAILED;
	if (port_setup(a, 1, 1500) < 0 || port_setup(b, 1, 1500) < 0)
		return TEST_FAILED;
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP) &&
		    link_wait(b, RTE_ETH_LINK_UP), "no link");
	m = test_pkt_make(pool, 1000, UINT32_MAX, 9);
	TEST_ASSERT(m != NULL, "mbuf");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(a, 0, &m, 1), 1, "tx");
	TEST_ASSERT(link_wait(b, RTE_ETH_LINK_UP), "b");
	TEST_ASSERT_EQUAL(rte_eth_rx_burst(b, 0, &rx, 1), 1, "rx");
	pair_destroy();
	TEST_ASSERT_SUCCESS(pkt_verify(rx, 1000, 9, b), "data after close");
	rte_pktmbuf_free(rx);
	return TEST_SUCCESS;
}

/*
 * ISM device removed under a port (doc/guides/nics/ism.rst, "When the ISM
 * device goes"): the link goes down at once, with an LSC event, the peer
 * sees it go down, nothing floods the log, and every later call that
 * needs the device fails with -ENODEV, while stop and close succeed.
 * ism_lo0 (port a's device) is removed and made again, on every path.
 */

/* At most this many log lines from a removal to the end of the checks:
 * a few lines of the port, its peer and EAL, and no line per control
 * round (there were about one a millisecond). */
#define REMOVAL_LOG_MAX 20

static unsigned int
log_lines(void)
{
	unsigned int n = 0;
	const char *c;

	fflush(log_mem);
	for (c = log_buf; c != NULL && *c != '\0'; c++)
		n += *c == '\n';
	return n;
}

/* Make ism_lo0 again (gid 0xa), as the other tests want it. */
static void
lo0_restore(void)
{
	if (rte_ism_get_dev_id("ism_lo0") < 0)
		rte_vdev_init("ism_lo0", "gid=0xa");
}

/* Every call on a port whose device was removed that needs the device:
 * -ENODEV; the bursts of a port still started move nothing. */
static int
calls_refused(uint16_t a, bool started)
{
	struct rte_eth_conf conf = { .intr_conf.lsc = 1 };
	struct rte_mbuf *m, *rx[4];

	TEST_ASSERT_EQUAL(link_status(a), RTE_ETH_LINK_DOWN, "link up");
	if (started) {
		m = test_pkt_make(pool, 100, UINT32_MAX, 1);
		TEST_ASSERT(m != NULL, "mbuf");
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(a, 0, &m, 1), 0,
				  "tx burst");
		rte_pktmbuf_free(m);
		TEST_ASSERT_EQUAL(rte_eth_rx_burst(a, 0, rx, 4), 0,
				  "rx burst");
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(a), "stop");
	}
	TEST_ASSERT_EQUAL(rte_eth_dev_start(a), -ENODEV, "start");
	TEST_ASSERT_EQUAL(rte_eth_rx_queue_setup(a, 0, 512, SOCKET_ID_ANY,
						 NULL, pool), -ENODEV,
			  "rx queue setup");
	TEST_ASSERT_EQUAL(rte_eth_tx_queue_setup(a, 0, 512, SOCKET_ID_ANY,
						 NULL), -ENODEV,
			  "tx queue setup");
	TEST_ASSERT_EQUAL(rte_eth_dev_set_mtu(a, 1400), -ENODEV, "mtu");
	TEST_ASSERT_EQUAL(rte_eth_dev_configure(a, 1, 1, &conf), -ENODEV,
			  "configure");
	TEST_ASSERT_EQUAL(link_status(a), RTE_ETH_LINK_DOWN, "link up");
	return TEST_SUCCESS;
}

/* test_ism_removed_*() once the pair is up; stop_first: port a is stopped
 * before its device is removed. */
static int
removal(uint16_t a, uint16_t b, bool stop_first)
{
	unsigned int ev, lines;

	if (stop_first) {
		TEST_ASSERT_SUCCESS(rte_eth_dev_stop(a), "stop a");
		TEST_ASSERT(link_wait(b, RTE_ETH_LINK_DOWN), "b still up");
	}
	ev = rte_atomic_load_explicit(&lsc_events[a], rte_memory_order_relaxed);
	log_capture_start();
	TEST_ASSERT_SUCCESS(rte_vdev_uninit("ism_lo0"), "remove ism_lo0");
	/* At once, on the removing thread: no waiting here. */
	TEST_ASSERT_EQUAL(link_status(a), RTE_ETH_LINK_DOWN, "a still up");
	if (!stop_first) {
		TEST_ASSERT(rte_atomic_load_explicit(&lsc_events[a],
				rte_memory_order_relaxed) == ev + 1,
			    "LSC events %u -> %u", ev, lsc_events[a]);
		TEST_ASSERT(link_wait(b, RTE_ETH_LINK_DOWN), "b still up");
	}
	/* A window in which a flood (a line per control round) would
	 * show; the bound does not depend on its length. */
	rte_delay_us_sleep(200 * 1000);
	if (calls_refused(a, !stop_first) < 0)
		return TEST_FAILED;
	lines = log_lines();
	log_capture_stop();
	TEST_ASSERT(lines <= REMOVAL_LOG_MAX, "%u log lines after the "
		    "removal:\n%s", lines, log_buf);
	TEST_ASSERT(strstr(log_buf, "ISM device ism_lo0 removed") != NULL,
		    "the port did not say why: %s", log_buf);
	/* The peer is fine: it comes up again with a new peer port. */
	return TEST_SUCCESS;
}

static int
removed(bool stop_first)
{
	int a, b, ret;

	if (pair_create("", &a, &b) < 0)
		return TEST_FAILED;
	if (port_setup(a, 1, 1500) < 0 || port_setup(b, 1, 1500) < 0)
		return TEST_FAILED;
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP) &&
		    link_wait(b, RTE_ETH_LINK_UP), "no link");
	if (stream(a, b, 1, 100, 1500) < 0)
		return TEST_FAILED;
	ret = removal(a, b, stop_first);
	if (log_mem != NULL) {
		/* The failure's message is in there. */
		log_capture_stop();
		printf("%s", log_buf != NULL ? log_buf : "");
	}
	/* Closing the port without its device works too. */
	if (rte_vdev_uninit("net_ism0") != 0)
		ret = TEST_FAILED;
	rte_vdev_uninit("net_ism1");
	lo0_restore();
	return ret;
}

/* Removed under a started port, then the port stopped. */
static int
test_ism_removed_started(void)
{
	return removed(false);
}

/* The port stopped, then its device removed. */
static int
test_ism_removed_stopped(void)
{
	return removed(true);
}

/* test_ism_removed_reuse() once port a is stopped on ism_lo0 (id old). */
static int
reuse(uint16_t a, int old)
{
	char *dump = NULL;
	size_t dump_len = 0;
	struct rte_ism_event ev;
	struct rte_ism_gid g = { .gid = 0xa };
	unsigned int i;
	bool found;
	FILE *f;
	int id, lo1, n, ret;

	TEST_ASSERT_SUCCESS(rte_vdev_uninit("ism_lo0"), "remove ism_lo0");
	/* Another device, of the same GID, takes the freed id. */
	TEST_ASSERT_SUCCESS(rte_vdev_init("ism_lo7", "gid=0xa"), "ism_lo7");
	id = rte_ism_get_dev_id("ism_lo7");
	TEST_ASSERT_EQUAL(id, old, "ism_lo7 did not take id %d", old);
	TEST_ASSERT_EQUAL(rte_eth_dev_start(a), -ENODEV, "start a");
	TEST_ASSERT_EQUAL(link_status(a), RTE_ETH_LINK_DOWN, "a up");
	/* Nothing of the old port on the new device: no DMB, and its
	 * events stay its user's (a few control rounds later). */
	lo1 = rte_ism_get_dev_id("ism_lo1");
	TEST_ASSERT(lo1 >= 0, "ism_lo1");
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(lo1, &g, 1, 0x1234, 5),
			    "event to ism_lo7");
	rte_delay_us_sleep(50 * 1000);
	/* ism_lo7 has net_ism1's peer GID: the link messages net_ism1 keeps
	 * sending to it are queued there too; ours must be among them. */
	found = false;
	for (i = 0; i < 64 && !found; i++) {
		n = rte_ism_event_poll(id, &ev, 1);
		if (n != 1)
			break;
		found = ev.type == RTE_ISM_EVENT_SW && ev.code == 0x1234 &&
			ev.info == 5;
	}
	TEST_ASSERT(found, "the event to ism_lo7 was taken (%u polled)", i);
	f = open_memstream(&dump, &dump_len);
	TEST_ASSERT(f != NULL, "memstream");
	ret = rte_ism_dump(id, f);
	fclose(f);
	n = dump != NULL && strstr(dump, "  0 DMBs") != NULL;
	free(dump);
	TEST_ASSERT(ret == 0 && n, "DMBs on ism_lo7 (dump %d)", ret);
	return TEST_SUCCESS;
}

/* Stop, remove the device, attach another one that takes the freed id:
 * the old port refuses to start and never touches the new device. */
static int
test_ism_removed_reuse(void)
{
	int a, b, old, ret;

	if (pair_create("", &a, &b) < 0)
		return TEST_FAILED;
	if (port_setup(a, 1, 1500) < 0 || port_setup(b, 1, 1500) < 0)
		return TEST_FAILED;
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP), "no link");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(a), "stop a");
	old = rte_ism_get_dev_id("ism_lo0");
	ret = reuse(a, old);
	rte_vdev_uninit("net_ism0");
	rte_vdev_uninit("net_ism1");
	rte_vdev_uninit("ism_lo7");
	lo0_restore();
	return ret;
}

/* Close gives the DMBs back: a port using every DMB of ism_lo2 (2) is
 * created, started and closed again and again. Its peer is itself. */
static int
test_close_releases_dmbs(void)
{
	unsigned int i;
	int a;

	for (i = 0; i < 3; i++) {
		a = port_create("net_ism0", "ism=ism_lo2,peer=0xc,queues=2");
		TEST_ASSERT(a >= 0, "round %u: port", i);
		if (port_setup(a, 2, 1500) < 0)
			return TEST_FAILED;
		TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP),
			    "round %u: no link with itself", i);
		if (stream(a, a, 2, 200, 1500) < 0)
			return TEST_FAILED;
		TEST_ASSERT_SUCCESS(rte_vdev_uninit("net_ism0"), "uninit");
		TEST_ASSERT_EQUAL(rte_eth_dev_count_avail(), 0, "port left");
	}
	return TEST_SUCCESS;
}

/* rte_epoll_wait() on the port's Rx queues: events within ms. */
static int
intr_wait(int ms)
{
	struct rte_epoll_event ev[4];

	return rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, RTE_DIM(ev), ms);
}

static int
intr_set(uint16_t port, uint16_t nb_q, bool on)
{
	uint16_t q;

	for (q = 0; q < nb_q; q++)
		TEST_ASSERT_SUCCESS(on ? rte_eth_dev_rx_intr_enable(port, q) :
				    rte_eth_dev_rx_intr_disable(port, q),
				    "rx intr %s q%u", on ? "enable" : "disable",
				    q);
	return TEST_SUCCESS;
}

/* One packet of seed on queue q of a, received on b. */
static int
intr_one(uint16_t a, uint16_t b, uint16_t q, uint32_t seed)
{
	struct rte_mbuf *m = test_pkt_make(pool, 100, UINT32_MAX, seed), *rx;
	unsigned int i;
	uint16_t got = 0;

	TEST_ASSERT(m != NULL, "mbuf");
	TEST_ASSERT_EQUAL(rte_eth_tx_burst(a, q, &m, 1), 1, "tx");
	for (i = 0; i < 10000 && got == 0; i++)
		got = rte_eth_rx_burst(b, q, &rx, 1);
	TEST_ASSERT_EQUAL(got, 1, "rx q%u", q);
	TEST_ASSERT_SUCCESS(pkt_verify(rx, 100, seed, b), "data");
	rte_pktmbuf_free(rx);
	return TEST_SUCCESS;
}

/*
 * Rx interrupts (intr_conf.rxq) as l3fwd-power uses them: the queues in
 * the thread's epoll set, enable, rte_epoll_wait(), disable, receive. A
 * packet wakes; one already there when enabling wakes at once; nothing
 * wakes an idle port; a disabled queue makes the sender write nothing; the
 * link going down wakes. A port without Rx interrupts says ENOTSUP.
 */
static int
test_rx_intr(void)
{
	int a, b, fd, ret = TEST_FAILED;
	struct pollfd pfd = { .events = POLLIN };
	uint16_t q;

	if (pair_create(",queues=2", &a, &b) < 0)
		return TEST_FAILED;
	if (port_setup(a, 2, 1500) < 0 || port_setup_conf(b, 2, 1500, true) < 0)
		goto out;
	TEST_ASSERT(link_wait(a, RTE_ETH_LINK_UP), "no link");
	TEST_ASSERT(link_wait(b, RTE_ETH_LINK_UP), "no link");
	TEST_ASSERT_EQUAL(rte_eth_dev_rx_intr_enable(a, 0), -ENOTSUP,
			  "a port without Rx interrupts");
	for (q = 0; q < 2; q++)
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(b, q,
				RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
				(void *)(uintptr_t)(0x100 + q)), "ctl q%u", q);
	fd = rte_eth_dev_rx_intr_ctl_q_get_fd(b, 0);
	TEST_ASSERT(fd >= 0, "fd %d", fd);
	pfd.fd = fd;
	/* Idle: nothing wakes. */
	if (intr_set(b, 2, true) < 0)
		goto out;
	TEST_ASSERT_EQUAL(intr_wait(0), 0, "woken while idle");
	/* A packet wakes. */
	{
		struct rte_mbuf *m = test_pkt_make(pool, 100, UINT32_MAX, 1);

		TEST_ASSERT(m != NULL, "mbuf");
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(a, 1, &m, 1), 1, "tx");
	}
	TEST_ASSERT(intr_wait(10000) > 0, "a packet did not wake");
	if (intr_set(b, 2, false) < 0)
		goto out;
	TEST_ASSERT(poll(&pfd, 1, 0) == 0, "readable after disable");
	{
		struct rte_mbuf *rx;
		unsigned int i;
		uint16_t got = 0;

		for (i = 0; i < 10000 && got == 0; i++)
			got = rte_eth_rx_burst(b, 1, &rx, 1);
		TEST_ASSERT_EQUAL(got, 1, "rx");
		TEST_ASSERT_SUCCESS(pkt_verify(rx, 100, 1, b), "data");
		rte_pktmbuf_free(rx);
	}
	/* Polled (disabled): traffic makes the sender write nothing. */
	if (stream(a, b, 2, 500, 1500) < 0)
		goto out;
	TEST_ASSERT(poll(&pfd, 1, 0) == 0, "the sender wrote the eventfd "
		    "while the receiver polled");
	/* A packet already there when enabling: at once. */
	{
		struct rte_mbuf *m = test_pkt_make(pool, 100, UINT32_MAX, 2);

		TEST_ASSERT(m != NULL, "mbuf");
		TEST_ASSERT_EQUAL(rte_eth_tx_burst(a, 0, &m, 1), 1, "tx");
	}
	rte_delay_us_sleep(10000);	/* not needed: either way it wakes */
	if (intr_set(b, 2, true) < 0)
		goto out;
	TEST_ASSERT(intr_wait(0) > 0, "a waiting packet did not wake");
	if (intr_set(b, 2, false) < 0)
		goto out;
	{
		struct rte_mbuf *rx;
		unsigned int i;
		uint16_t got = 0;

		for (i = 0; i < 10000 && got == 0; i++)
			got = rte_eth_rx_burst(b, 0, &rx, 1);
		TEST_ASSERT_EQUAL(got, 1, "rx");
		rte_pktmbuf_free(rx);
	}
	if (intr_one(a, b, 0, 3) < 0)
		goto out;
	/* The link goes down: a sleeper wakes. */
	if (intr_set(b, 2, true) < 0)
		goto out;
	TEST_ASSERT_EQUAL(intr_wait(0), 0, "woken while idle");
	TEST_ASSERT_SUCCESS(rte_eth_dev_stop(a), "stop a");
	TEST_ASSERT(intr_wait(10000) > 0, "link down did not wake");
	TEST_ASSERT(link_wait(b, RTE_ETH_LINK_DOWN), "b still up");
	if (intr_set(b, 2, false) < 0)
		goto out;
	for (q = 0; q < 2; q++)
		TEST_ASSERT_SUCCESS(rte_eth_dev_rx_intr_ctl_q(b, q,
				RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL, NULL),
				"ctl del q%u", q);
	ret = TEST_SUCCESS;
out:
	pair_destroy();
	return ret;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
	{ "devargs", test_devargs },
	{ "copy_1q", test_copy_1q },
	{ "copy_2q", test_copy_2q },
	{ "zero_copy_1q", test_zero_copy_1q },
	{ "zero_copy_2q", test_zero_copy_2q },
	{ "stats", test_stats },
	{ "link_down_up", test_link_down_up },
	{ "close_held", test_close_held },
	{ "close_releases_dmbs", test_close_releases_dmbs },
	{ "ism_removed_started", test_ism_removed_started },
	{ "ism_removed_stopped", test_ism_removed_stopped },
	{ "ism_removed_reuse", test_ism_removed_reuse },
	{ "rx_intr", test_rx_intr },
};

int
main(int argc, char **argv)
{
	unsigned int i, failed = 0;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("EAL init failed\n");
		return 1;
	}
	pool = rte_pktmbuf_pool_create("test_pool", NB_MBUFS, 256, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, rte_socket_id());
	if (pool == NULL) {
		printf("no mbuf pool\n");
		failed = 1;
		goto out;
	}
	for (i = 0; i < RTE_DIM(tests); i++) {
		ret = tests[i].fn();
		if (ret != 0)
			pair_destroy();
		printf("%s %s\n", ret == 0 ? "PASS" : "FAIL", tests[i].name);
		fflush(stdout);
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
	free(log_buf);
	rte_eal_cleanup();
	printf("%u of %zu tests failed\n", failed, RTE_DIM(tests));
	return failed == 0 ? 0 : 1;
}
