/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-ivshm-peer: one member of the ivshmem backend's multi-process
 * and VM tests (see ivshm_peer.h).
 *
 *   dpdk-ism-ivshm-peer [EAL with one ism_ivshm device] --
 *        --role node|scribble|api-server|api-client
 *        [--peers G1,G2[/G3...]] [--msgs N] [--survive K] [--seed S] [--nocopy]
 *        [--hold | --hold-event] [--tolerant [--release-all]]
 *        [--region FILE [--rounds N] [--mode M]] [--deadline S]
 *
 * node        streams checksummed messages to each peer and checks theirs;
 *             with one ISM device per region (several ism_ivshm vdevs),
 *             "/" separates the peers of each device: one node per device,
 *             each on its own lcore, and each device must not reach the
 *             peers of the others (one region is one trust domain)
 * scribble    a member that writes random and crafted garbage over the
 *             shared tables of the region (its file), --rounds times, or
 *             one targeted attack on the members --peers names (--mode,
 *             see ivshm_scribble.c)
 * api-server, api-client
 *             the rte_ism API across the boundary, step by step
 *
 * With --hold the node streams until the driver closes its stdin, then
 * tells its peers (EV_RELEASE) and finishes; with --hold-event it streams
 * until a peer's EV_RELEASE (guests, whose console is not a pipe). A line
 * "park" on stdin stops the PMD's control thread ("unpark", or the end of
 * stdin, lets it go on): see nanosleep() below; "stall" stops it and the
 * node's loop too, so that the device runs no control pass at all (a
 * frozen member whose memory others can still change), until "unstall".
 */

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <ism_compat.h>

#include "ivshm_peer.h"

/*
 * The ivshmem PMD's control thread sleeps between its passes with
 * nanosleep() and holds no lock then; this definition takes precedence
 * over the C library's for the whole process. While park_ctl is set, that
 * thread (ivshm_ctl_name()) stays here: a control thread that does
 * not get the CPU, as on an overloaded host (scenario "starved"), but
 * deterministic. Every other caller sleeps as asked.
 */
static RTE_ATOMIC(bool) park_ctl;

/* The PMD's control thread: "ism-ivshm" (ism_ivshm_ctl.c), which EAL
 * prefixes with "dpdk-" from DPDK 23.11 on
 * (rte_thread_create_internal_control()). */
static bool
ivshm_ctl_name(const char *name)
{
	return strcmp(name, "ism-ivshm") == 0 ||
		strcmp(name, "dpdk-ism-ivshm") == 0;
}

static RTE_ATOMIC(bool) stall_node;

bool
stalled(void)
{
	return rte_atomic_load_explicit(&stall_node, rte_memory_order_acquire);
}

int
nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct timespec tick = { 0, 1000000 };
	char name[16] = "";
	bool said = false;
	int ret;

	if (rte_atomic_load_explicit(&park_ctl, rte_memory_order_acquire) &&
	    prctl(PR_GET_NAME, name) == 0 && ivshm_ctl_name(name)) {
		while (rte_atomic_load_explicit(&park_ctl, rte_memory_order_acquire)) {
			if (!said)
				say("PARKED control thread");
			said = true;
			clock_nanosleep(CLOCK_MONOTONIC, 0, &tick, NULL);
		}
		say("UNPARKED control thread");
	}
	ret = clock_nanosleep(CLOCK_MONOTONIC, 0, req, rem);
	if (ret != 0) {
		errno = ret;
		return -1;
	}
	return 0;
}

static void
set_flag(RTE_ATOMIC(bool) *flag, bool v)
{
	rte_atomic_store_explicit(flag, v, rte_memory_order_release);
}

/* A line on stdin (NULL: its end, the driver's release): "park" and
 * "unpark" stop and restart the PMD's control thread, "stall" and
 * "unstall" that thread and the node's loop. */
static void
control_line(const char *line)
{
	if (line == NULL) {
		set_flag(&stall_node, false);
		set_flag(&park_ctl, false);
	} else if (strcmp(line, "park\n") == 0) {
		set_flag(&park_ctl, true);
	} else if (strcmp(line, "unpark\n") == 0) {
		set_flag(&park_ctl, false);
	} else if (strcmp(line, "stall\n") == 0) {
		set_flag(&park_ctl, true);
		set_flag(&stall_node, true);
	} else if (strcmp(line, "unstall\n") == 0) {
		set_flag(&stall_node, false);
		set_flag(&park_ctl, false);
	}
}

uint64_t
xstat(uint16_t dev, const char *name)
{
	uint64_t v;

	return rte_ism_xstats_get_by_name(dev, name, NULL, &v) == 0 ? v :
		UINT64_MAX;
}

static int
ivshm_opt(void *arg, int c, const char *val)
{
	struct peer_opts *o = arg;

	switch (c) {
	case 'e':
		o->hold_event = true;
		break;
	case 't':
		o->tolerant = true;
		break;
	case 'A':
		o->release_all = true;
		break;
	case 'R':
		snprintf(o->region, sizeof(o->region), "%s", val);
		break;
	case 'N':
		o->rounds = strtoull(val, NULL, 0);
		break;
	case 'D':
		o->deadline_s = atoi(val);
		break;
	case 'M':
		snprintf(o->mode, sizeof(o->mode), "%s", val);
		break;
	default:
		fail("unknown option");
		return -1;
	}
	return 0;
}

struct group_run {
	uint16_t dev;
	struct peer_opts o;	/* the peers of this device only */
	int ret;
};

static int
group_node(void *arg)
{
	struct group_run *g = arg;

	g->ret = node_main(g->dev, &g->o);
	return 0;
}

/* One node per device (--peers G1/G2), the first on this lcore, the others
 * on the next ones; then no device may reach another's peers. */
static int
multi_node(uint16_t dev, const struct peer_opts *o)
{
	struct group_run g[PEER_MAX_GROUPS];
	unsigned int i, j, k, first, lcore = rte_lcore_id();
	int ret = 0, r;

	for (i = 0; i < o->common.nb_groups; i++) {
		if (dev >= RTE_ISM_MAX_DEVS) {
			fail("%u groups of peers but %u ISM devices",
			     o->common.nb_groups, i);
			return 1;
		}
		first = i == 0 ? 0 : o->common.group_end[i - 1];
		g[i].dev = dev;
		g[i].o = *o;
		g[i].o.common.nb_groups = 1;
		g[i].o.common.nb_peers = o->common.group_end[i] - first;
		memcpy(g[i].o.common.peers, &o->common.peers[first],
		       g[i].o.common.nb_peers * sizeof(o->common.peers[0]));
		g[i].o.common.group_end[0] = g[i].o.common.nb_peers;
		g[i].ret = 1;
		dev = rte_ism_dev_next(dev + 1);
	}
	for (i = 1; i < o->common.nb_groups; i++) {
		lcore = rte_get_next_lcore(lcore, 1, 0);
		if (lcore >= RTE_MAX_LCORE ||
		    rte_eal_remote_launch(group_node, &g[i], lcore) != 0) {
			fail("no worker lcore for the peers of device %u", i);
			release_now();	/* the others finish */
			break;
		}
	}
	group_node(&g[0]);
	rte_eal_mp_wait_lcore();
	for (i = 0; i < o->common.nb_groups; i++) {
		ret |= g[i].ret;
		for (j = 0; j < o->common.nb_groups; j++)
			for (k = 0; j != i && k < g[j].o.common.nb_peers; k++) {
				r = rte_ism_query_remote_gid(g[i].dev,
						&g[j].o.common.peers[k], 0, 0);
				if (r != -ENETUNREACH) {
					fail("device %u reaches a peer of "
					     "device %u's region (%d)", i, j,
					     r);
					ret = 1;
				}
			}
	}
	return ret;
}

/* The options of this peer beside peer_parse()'s: */
static const struct option ivshm_opts[] = {
	{ "hold-event", no_argument, NULL, 'e' },
	{ "tolerant", no_argument, NULL, 't' },
	{ "release-all", no_argument, NULL, 'A' },
	{ "region", required_argument, NULL, 'R' },
	{ "rounds", required_argument, NULL, 'N' },
	{ "mode", required_argument, NULL, 'M' },
	{ "deadline", required_argument, NULL, 'D' },
	{ NULL, 0, NULL, 0 },
};

int
main(int argc, char **argv)
{
	char gs[RTE_ISM_GID_STRLEN];
	struct rte_ism_dev_info info;
	struct peer_opts o = { .rounds = 1000, .deadline_s = 150,
		.mode = "random" };
	uint16_t dev;
	int ret;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fail("EAL init");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (peer_parse(argc, argv, &o.common, 200, ivshm_opts, ivshm_opt,
		       &o) < 0)
		return 2;
	dev = rte_ism_dev_next(0);
	if (dev >= RTE_ISM_MAX_DEVS || rte_ism_info_get(dev, &info) < 0) {
		fail("no ISM device (the EAL options create one)");
		rte_eal_cleanup();
		return 1;
	}
	if (o.common.hold) {
		if (hold_stdin(control_line) < 0)
			return 2;
	} else if (o.hold_event) {
		hold_release();
	}
	gid_str(&info.gid, gs);
	say("READY pid %d gid %s device %s chid 0x%04x", (int)getpid(), gs,
	    info.name, info.chid);
	if (strcmp(o.common.role, "node") == 0 && o.common.nb_groups > 1) {
		ret = multi_node(dev, &o);
	} else if (strcmp(o.common.role, "node") == 0) {
		ret = node_main(dev, &o);
	} else if (strcmp(o.common.role, "scribble") == 0) {
		ret = scribble_main(dev, &o);
	} else if (strcmp(o.common.role, "api-server") == 0 ||
		   strcmp(o.common.role, "api-client") == 0) {
		ret = api_main(dev, &o, strcmp(o.common.role, "api-server") == 0);
	} else {
		fail("unknown role %s", o.common.role);
		ret = 1;
	}
	/* rte_eal_cleanup() removes the device: it leaves the fabric. */
	rte_eal_cleanup();
	say(ret == 0 ? "PASS" : "FAILED %d", ret);
	return ret;
}
