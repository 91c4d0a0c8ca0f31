/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-intr-peer: the processes of the interrupt-mode test
 * (tests/intr/intr_test.py, which orders their phases by what they print).
 *
 *   dpdk-ism-intr-peer [EAL, one ISM device] -- --role rx --peer GID
 *       [--no-timeout | --idle]
 *   dpdk-ism-intr-peer [EAL, one ISM device] -- --role tx --peer GID
 *   dpdk-ism-intr-peer [EAL, two ism_lo devices, -l 0,1] -- --role pair
 *
 * rx  registers a DMB for the peer, sends it the token (a software event,
 *     repeated until the peer's device answers), then waits: arm, poll
 *     (re-check), "ARMED tid=T" and epoll_wait() on its main thread; on a
 *     wake-up it disarms and polls: "WOKE signal idx=I data=ok" or
 *     "WOKE event type=T code=C" (then it waits again). It exits 0 after
 *     its peer is gone (RTE_ISM_DEV_DISABLED: "WOKE event ... gone").
 *     With --no-timeout it sleeps in epoll_wait() without a timeout (the
 *     process' deadline stops a hang); with --idle it arms once, says
 *     "ARMED", never sleeps on the descriptor nor disarms, and polls its
 *     events until its peer is gone.
 * tx  waits for the token ("TOKEN"), then obeys stdin: "move" moves 8
 *     bytes with a signal ("MOVED"), "token" waits for the next token
 *     from any device ("TOKEN"; later moves go there), "quit" exits.
 * pair  rx on the first device (main lcore), tx on the second, which a
 *     worker lcore drives from stdin; "kill" removes the tx device (the
 *     loopback's way of a peer going away).
 * Every wait has a deadline that only stops a hang.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/syscall.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <rte_ism.h>

#include "test_say.h"

#define EV_TOKEN	0x7701
#define DEADLINE_S	60
#define PATTERN		0x1122334455667788ULL

static struct rte_ism_gid peer;
static uint64_t token;
static bool no_timeout, idle;

static uint64_t
now_s(void)
{
	return rte_ism_time_ns() / 1000000000ULL;
}

/* The device's events: true once the peer is gone. */
static bool
report_events(uint16_t dev)
{
	struct rte_ism_event ev[8];
	bool gone = false;
	int n, i;

	while ((n = rte_ism_event_poll(dev, ev, RTE_DIM(ev))) > 0)
		for (i = 0; i < n; i++) {
			bool g = ev[i].type == RTE_ISM_EVENT_DEV &&
				ev[i].code == RTE_ISM_DEV_DISABLED &&
				rte_ism_gid_equal(&ev[i].gid, &peer);

			say("WOKE event type=%u code=0x%x%s", ev[i].type,
			    ev[i].code, g ? " gone" : "");
			gone |= g;
		}
	return gone;
}

/* Poll signals: the number of those of dmb (its data checked). */
static int
report_signals(uint16_t dev, const struct rte_ism_dmb *dmb)
{
	struct rte_ism_signal sig[8];
	int n, i, hits = 0;

	while ((n = rte_ism_signal_poll(dev, sig, RTE_DIM(sig))) > 0)
		for (i = 0; i < n; i++) {
			if (sig[i].dmb_idx != dmb->idx)
				continue;
			say("WOKE signal idx=%u data=%s", sig[i].dmb_idx,
			    *(volatile uint64_t *)dmb->addr == PATTERN ?
			    "ok" : "bad");
			hits++;
		}
	return hits;
}

static int
rx_main(uint16_t dev)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct rte_ism_dmb dmb = { .len = 4096, .rgid = peer };
	uint64_t end = now_s() + DEADLINE_S;
	bool gone = false;
	int ep, fd, n, ret;

	ret = rte_ism_dmb_register(dev, &dmb);
	if (ret < 0) {
		say("FAIL register: %s", strerror(-ret));
		return 1;
	}
	/* The peer's device may not be there yet. */
	while ((ret = rte_ism_signal_event(dev, &peer, 1, EV_TOKEN,
					   dmb.token)) != 0 && now_s() < end)
		usleep(20000);
	if (ret != 0) {
		say("FAIL token not sent: %s", strerror(-ret));
		return 1;
	}
	say("TOKEN SENT 0x%" PRIx64, dmb.token);
	if (idle) {
		/* Armed with nobody reading the descriptor: what a peer
		 * does to it must not stop our control thread. */
		if (rte_ism_intr_enable(dev) != 0) {
			say("FAIL enable");
			return 1;
		}
		say("ARMED tid=%ld", (long)syscall(SYS_gettid));
		while (!gone && now_s() < end) {
			gone = report_events(dev);
			usleep(1000);
		}
		say(gone ? "DONE" : "FAIL no end within %d s", DEADLINE_S);
		return gone ? 0 : 1;
	}
	fd = rte_ism_intr_fd_get(dev);
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (fd < 0 || ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		say("FAIL wake-up descriptor %d", fd);
		return 1;
	}
	while (!gone && now_s() < end) {
		/* Arm, re-check, sleep; disarm, poll. */
		if (rte_ism_intr_enable(dev) != 0) {
			say("FAIL enable");
			break;
		}
		n = report_signals(dev, &dmb);
		gone = report_events(dev);
		if (n == 0 && !gone) {
			say("ARMED tid=%ld", (long)syscall(SYS_gettid));
			n = epoll_wait(ep, &ev, 1, no_timeout ? -1 :
				       (int)(end - now_s()) * 1000);
			if (n < 0)
				say("FAIL epoll_wait: %s", strerror(errno));
		}
		rte_ism_intr_disable(dev);
		report_signals(dev, &dmb);
		gone |= report_events(dev);
	}
	close(ep);
	rte_ism_dmb_unregister(dev, dmb.token);
	say(gone ? "DONE" : "FAIL no end within %d s", DEADLINE_S);
	return gone ? 0 : 1;
}

/* The token from the software event of from (NULL: anyone). */
static int
tx_wait_token(uint16_t dev, const struct rte_ism_gid *from)
{
	struct rte_ism_event ev;
	uint64_t end = now_s() + DEADLINE_S;

	while (now_s() < end) {
		if (rte_ism_event_poll(dev, &ev, 1) == 1) {
			if (ev.type == RTE_ISM_EVENT_SW &&
			    ev.code == EV_TOKEN &&
			    (from == NULL ||
			     rte_ism_gid_equal(&ev.gid, from))) {
				token = ev.info;
				say("TOKEN 0x%" PRIx64, token);
				return 0;
			}
			continue;
		}
		usleep(1000);
	}
	say("FAIL no token");
	return -1;
}

/* Commands from stdin; "kill" with a device name removes that device. */
static int
tx_main(uint16_t dev, const struct rte_ism_gid *from, const char *kill_name)
{
	uint64_t v = PATTERN;
	char line[64];
	int ret;

	if (tx_wait_token(dev, from) < 0)
		return 1;
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "move", 4) == 0) {
			ret = rte_ism_move_data(dev, token, 5, 1, 0, &v,
						sizeof(v));
			say(ret == 0 ? "MOVED" : "FAIL move: %s",
			    strerror(-ret));
		} else if (strncmp(line, "token", 5) == 0) {
			if (tx_wait_token(dev, NULL) < 0)
				return 1;
		} else if (strncmp(line, "kill", 4) == 0 && kill_name) {
			ret = rte_vdev_uninit(kill_name);
			say(ret == 0 ? "KILLED" : "FAIL kill: %s",
			    strerror(-ret));
			return ret == 0 ? 0 : 1;
		} else if (strncmp(line, "quit", 4) == 0) {
			return 0;
		}
	}
	return 0;
}

struct pair_tx {
	uint16_t dev;
	struct rte_ism_gid from;	/* the rx device's GID */
	char name[RTE_ISM_NAME_LEN];
};

static int
pair_tx_main(void *arg)
{
	struct pair_tx *t = arg;

	return tx_main(t->dev, &t->from, t->name);
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "role", required_argument, NULL, 'r' },
		{ "peer", required_argument, NULL, 'p' },
		{ "no-timeout", no_argument, NULL, 'n' },
		{ "idle", no_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct rte_ism_dev_info info;
	const char *role = NULL;
	struct pair_tx t;
	uint16_t dev, dev2;
	int c, ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'r')
			role = optarg;
		else if (c == 'p' && rte_ism_gid_parse(optarg, &peer) == 0)
			continue;
		else if (c == 'n')
			no_timeout = true;
		else if (c == 'i')
			idle = true;
		else
			role = NULL;
	}
	dev = rte_ism_dev_next(0);
	if (role == NULL || dev >= RTE_ISM_MAX_DEVS) {
		say("usage: -- --role rx|tx|pair [--peer GID] (and an ISM "
		    "device)");
		rte_eal_cleanup();
		return 2;
	}
	if (strcmp(role, "rx") == 0) {
		ret = rx_main(dev);
	} else if (strcmp(role, "tx") == 0) {
		ret = tx_main(dev, &peer, NULL);
	} else {
		/* pair: rx on dev, tx on the next device, a worker lcore. */
		dev2 = rte_ism_dev_next(dev + 1);
		if (dev2 >= RTE_ISM_MAX_DEVS || rte_lcore_count() < 2 ||
		    rte_ism_info_get(dev, &info) != 0) {
			say("FAIL pair: two devices and two lcores needed");
			rte_eal_cleanup();
			return 2;
		}
		t.dev = dev2;
		t.from = info.gid;
		rte_ism_info_get(dev2, &info);
		snprintf(t.name, sizeof(t.name), "%s", info.name);
		peer = info.gid;
		if (rte_eal_remote_launch(pair_tx_main, &t,
				rte_get_next_lcore(-1, 1, 0)) != 0) {
			say("FAIL launch");
			rte_eal_cleanup();
			return 1;
		}
		ret = rx_main(dev);
		ret |= rte_eal_wait_lcore(rte_get_next_lcore(-1, 1, 0));
	}
	rte_eal_cleanup();
	return ret;
}
