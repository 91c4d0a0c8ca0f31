/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-ring-rogue: a ring peer that lies, for the tests of the users
 * of librte_ism_ring between processes (a net_ism port in dpdk-testpmd,
 * dpdk-ism_fwd). It connects to its peer through the handshake of the
 * library, one ring, then takes commands on stdin, one per line, and
 * answers each on stdout:
 *
 *   good N     send N packets of 64 bytes (byte i of packet k: k + i),
 *              waiting for credits, then until the peer has given back
 *              the credits of all of them (it received them all)
 *                                        -> "rogue: sent N"
 *   bad CASE   write into the peer's ring what no sender would, and
 *              publish it                -> "rogue: wrote CASE"
 *              len       a descriptor of length 2^32 - 1
 *              len-slot  a descriptor of length 2^32 - slot_size + 1
 *              behind    a producer cursor one slot behind
 *              beyond    a producer cursor one slot beyond the credits
 *              ahead31   a producer cursor 2^31 slots ahead
 *   flood MS   for MS milliseconds, write a descriptor of length 2^32 - 1
 *              after each new connection (as soon as the link is up),
 *              then wait for the link to come up again
 *                                        -> "rogue: flooded K" (K writes)
 *   bounce N   N times: say goodbye (BYE) as soon as the link is up (the
 *              current connection first), breaking no protocol; then wait
 *              for the link to come up again
 *                                        -> "rogue: bounced N"
 *   quit                                 -> exit 0
 *
 * It prints "rogue: link up K" each time the link comes up (the K-th time)
 * and "rogue: link down" when it goes down: after a bad write the peer
 * says BYE and both start over.
 *
 *   dpdk-ism-ring-rogue [EAL options: one ISM device] -- --peer GID
 */

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_mbuf.h>

#include <rte_ism.h>
#include <rte_ism_ring.h>

#include "test_say.h"
/* Where its own sender stands, to lie just beyond it. */
#include <ism_ring_private.h>

static struct rte_ism_ring *ring;
static struct rte_ism_ring_link rlink;
static struct rte_mempool *pool;
static unsigned int nb_up;
static uint32_t pkt_seq;

static void
on_link(void *arg __rte_unused, const struct rte_ism_ring_link_report *rep)
{
	if (rep->what == RTE_ISM_RING_LINK_UP)
		say("rogue: link up %u", ++nb_up);
	else
		say("rogue: link down (%s)", rep->why);
}

/* Link work, about once a millisecond while waiting. */
static void
poll_link(void)
{
	rte_ism_ring_link_poll(&rlink, rte_rdtsc());
}

static int
send_good(unsigned int n)
{
	struct rte_mbuf *m;
	unsigned int k, i;
	uint8_t *p;

	for (k = 0; k < n; k++) {
		m = rte_pktmbuf_alloc(pool);
		if (m == NULL)
			return -ENOMEM;
		p = (uint8_t *)rte_pktmbuf_append(m, 64);
		for (i = 0; i < 64; i++)
			p[i] = (uint8_t)(pkt_seq + i);
		while (rte_ism_ring_send(ring, &m, 1) == 0) {
			poll_link();
			rte_delay_us_sleep(100);
		}
		pkt_seq++;
	}
	/* A receiver with nothing left to read gives all credits back. */
	while (rte_atomic_load_explicit(ism_ring_own_cons(ring),
			rte_memory_order_acquire) != ring->tx_prod) {
		poll_link();
		rte_delay_us_sleep(100);
	}
	return 0;
}

static int
write_bad(const char *what)
{
	uint64_t token = rlink.peer_token[0];
	struct rte_ism_ring_desc d = { .len = 0 };
	uint32_t nb_slots, slot_size, prod;
	int ret;

	/* A call with nothing to send: the send side takes the current
	 * connection (its cursors). */
	rte_ism_ring_send(ring, NULL, 0);
	if (token == 0 || ring->tx_token == 0)
		return -ENOTCONN;
	nb_slots = ring->tx_idx_mask + 1;
	slot_size = 1u << ring->tx_shift;
	prod = ring->tx_prod + 1;
	if (strcmp(what, "len") == 0)
		d.len = UINT32_MAX;
	else if (strcmp(what, "len-slot") == 0)
		d.len = UINT32_MAX - slot_size + 2;
	else if (strcmp(what, "behind") == 0)
		prod = ring->tx_prod - 1;
	else if (strcmp(what, "beyond") == 0)
		prod = rte_atomic_load_explicit(ism_ring_own_cons(ring),
				rte_memory_order_acquire) + nb_slots + 1;
	else if (strcmp(what, "ahead31") == 0)
		prod = ring->tx_prod + (1u << 31);
	else
		return -EINVAL;
	if (d.len != 0) {
		ret = rte_ism_move_data(ring->dev_id, token, 0, 0,
				RTE_ISM_RING_DESC_OFF + (ring->tx_pkt &
				(nb_slots - 1)) * sizeof(d), &d, sizeof(d));
		if (ret < 0)
			return ret;
	}
	return rte_ism_move_data(ring->dev_id, token, 0, 1,
			RTE_ISM_RING_PROD_OFF, &prod, sizeof(prod));
}

/*
 * Poll the link; true when a connection after *seen is up, which
 * becomes the one seen.
 */
static bool
new_link_up(unsigned int *seen)
{
	poll_link();
	if (!rte_ism_ring_link_up(&rlink) || nb_up == *seen)
		return false;
	*seen = nb_up;
	return true;
}

/* Until a connection after seen is up. */
static void
wait_new_link_up(unsigned int seen)
{
	while (!new_link_up(&seen))
		rte_delay_us_sleep(100);
}

/* A bad descriptor after each new connection for ms milliseconds; the
 * number written, or a negative errno. */
static int
flood(unsigned int ms)
{
	uint64_t end = rte_get_timer_cycles() + rte_get_timer_hz() / 1000 * ms;
	unsigned int done_up = nb_up - 1;	/* the current one too */
	int k = 0, ret;

	while (rte_get_timer_cycles() < end) {
		if (new_link_up(&done_up)) {
			ret = write_bad("len");
			if (ret < 0)
				return ret;
			k++;
		}
		rte_delay_us_sleep(100);
	}
	/* The peer lets us back in once we behave. */
	wait_new_link_up(done_up);
	return k;
}

/* BYE after each new connection, n times (a peer that restarts again and
 * again without breaking the ring protocol: nothing for the other side to
 * back off from); the number done.
 */
static int
bounce(unsigned int n)
{
	unsigned int done_up = nb_up - 1;	/* the current one too */
	unsigned int k = 0;

	while (k < n) {
		if (new_link_up(&done_up)) {
			rte_ism_ring_link_bye(&rlink);
			k++;
		}
		rte_delay_us_sleep(100);
	}
	wait_new_link_up(done_up);
	return k;
}

static int
command(char *line)
{
	char *arg = strchr(line, ' ');
	int ret;

	line[strcspn(line, "\n")] = '\0';
	if (arg != NULL)
		*arg++ = '\0';
	if (strcmp(line, "quit") == 0)
		return 1;
	if (strcmp(line, "good") == 0 && arg != NULL) {
		ret = send_good(strtoul(arg, NULL, 0));
		if (ret == 0)
			say("rogue: sent %s", arg);
	} else if (strcmp(line, "flood") == 0 && arg != NULL) {
		ret = flood(strtoul(arg, NULL, 0));
		if (ret >= 0)
			say("rogue: flooded %d", ret);
	} else if (strcmp(line, "bounce") == 0 && arg != NULL) {
		ret = bounce(strtoul(arg, NULL, 0));
		if (ret >= 0)
			say("rogue: bounced %d", ret);
	} else if (strcmp(line, "bad") == 0 && arg != NULL) {
		ret = write_bad(arg);
		if (ret == 0)
			say("rogue: wrote %s", arg);
	} else {
		ret = -EINVAL;
	}
	if (ret < 0)
		say("rogue: %s %s: %s", line, arg != NULL ? arg : "",
		    strerror(-ret));
	return 0;
}

int
main(int argc, char **argv)
{
	struct rte_ism_ring_conf c = {
		.port = 0,
		.geom = { .nb_slots = 256, .slot_size = 128 },
		.poll_cursor = true,
	};
	struct pollfd pfd = { .fd = 0, .events = POLLIN };
	char line[128];
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "rogue: EAL init failed\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc != 3 || strcmp(argv[1], "--peer") != 0 ||
	    rte_ism_gid_parse(argv[2], &c.peer) < 0 ||
	    rte_ism_dev_count() < 1) {
		fprintf(stderr, "usage: dpdk-ism-ring-rogue [EAL options: one "
			"ISM device] -- --peer GID\n");
		rte_eal_cleanup();
		return 2;
	}
	c.dev_id = rte_ism_dev_next(0);
	pool = rte_pktmbuf_pool_create("rogue_pool", 2048, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	c.pool = pool;
	ring = pool != NULL ? rte_ism_ring_create(&c) : NULL;
	if (ring == NULL || rte_ism_ring_link_init(&rlink, c.dev_id, &c.peer,
			&ring, 1, on_link, NULL) < 0) {
		fprintf(stderr, "rogue: set-up failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	say("rogue: ready");
	for (;;) {
		poll_link();
		if (poll(&pfd, 1, 1) <= 0)
			continue;
		if (fgets(line, sizeof(line), stdin) == NULL ||
		    command(line) != 0)
			break;
	}
	rte_ism_ring_link_bye(&rlink);
	rte_ism_ring_free(ring);
	rte_mempool_free(pool);
	rte_eal_cleanup();
	return 0;
}
