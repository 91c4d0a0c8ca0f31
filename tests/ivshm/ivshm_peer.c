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
 *        [--region FILE --rounds N] [--deadline S]
 *
 * node        streams checksummed messages to each peer and checks theirs;
 *             with one ISM device per region (several ism_ivshm vdevs),
 *             "/" separates the peers of each device: one node per device,
 *             each on its own lcore, and each device must not reach the
 *             peers of the others (one region is one trust domain)
 * scribble    a member that writes random and crafted garbage over the
 *             shared tables of the region (its file), --rounds times
 * api-server, api-client
 *             the rte_ism API across the boundary, step by step
 *
 * With --hold the node streams until the driver closes its stdin, then
 * tells its peers (EV_RELEASE) and finishes; with --hold-event it streams
 * until a peer's EV_RELEASE (guests, whose console is not a pipe). A line
 * "park" on stdin stops the PMD's control thread ("unpark", or the end of
 * stdin, lets it go on): see nanosleep() below.
 */

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include <ism_compat.h>

#include "ivshm_peer.h"

uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void
gid_str(const struct rte_ism_gid *g, char *buf)
{
	rte_ism_gid_format(g, buf, RTE_ISM_GID_STRLEN);
}

/* Busy-poll, but give the CPU away when there is nothing to do: the tests
 * run more members than there are cores (and guests have one vCPU). */
void
idle(unsigned int *spins)
{
	if (++*spins % 64 == 0)
		sched_yield();
	else
		rte_pause();
}

static bool release_seen = true;

void
release_now(void)
{
	rte_atomic_store_explicit(&release_seen, true, rte_memory_order_release);
}

bool
released(void)
{
	return rte_atomic_load_explicit(&release_seen, rte_memory_order_acquire);
}

/*
 * The ivshmem PMD's control thread sleeps between its passes with
 * nanosleep() and holds no lock then; this definition takes precedence
 * over the C library's for the whole process. While park_ctl is set, that
 * thread (named "ism-ivshm-ctl") stays here: a control thread that does
 * not get the CPU, as on an overloaded host (scenario "starved"), but
 * deterministic. Every other caller sleeps as asked.
 */
static bool park_ctl;

int
nanosleep(const struct timespec *req, struct timespec *rem)
{
	struct timespec tick = { 0, 1000000 };
	char name[16] = "";
	bool said = false;
	int ret;

	if (rte_atomic_load_explicit(&park_ctl, rte_memory_order_acquire) &&
	    prctl(PR_GET_NAME, name) == 0 &&
	    strcmp(name, "ism-ivshm-ctl") == 0) {
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

/* Reads stdin until EOF (the driver's release); "park" and "unpark" lines
 * stop and restart the PMD's control thread. */
static void *
release_reader(void *arg __rte_unused)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strcmp(line, "park\n") == 0)
			rte_atomic_store_explicit(&park_ctl, true, rte_memory_order_release);
		else if (strcmp(line, "unpark\n") == 0)
			rte_atomic_store_explicit(&park_ctl, false, rte_memory_order_release);
	}
	rte_atomic_store_explicit(&park_ctl, false, rte_memory_order_release);
	release_now();
	return NULL;
}

uint64_t
xstat(uint16_t dev, const char *name)
{
	uint64_t v;

	return rte_ism_xstats_get_by_name(dev, name, NULL, &v) == 0 ? v :
		UINT64_MAX;
}

int
wait_event(uint16_t dev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *from, struct rte_ism_event *out,
		uint64_t timeout_ms)
{
	uint64_t end = now_ns() + timeout_ms * 1000000ULL;
	unsigned int spins = 0;

	while (now_ns() < end) {
		if (rte_ism_event_poll(dev, out, 1) != 1) {
			idle(&spins);
			continue;
		}
		if (out->type == type && out->code == code &&
		    (from == NULL || rte_ism_gid_equal(&out->gid, from)))
			return 0;
	}
	return -ETIMEDOUT;
}

static int
parse_args(int argc, char **argv, struct peer_opts *o)
{
	static const struct option opts[] = {
		{ "role", required_argument, NULL, 'r' },
		{ "peers", required_argument, NULL, 'p' },
		{ "msgs", required_argument, NULL, 'n' },
		{ "survive", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 'S' },
		{ "nocopy", no_argument, NULL, 'C' },
		{ "hold", no_argument, NULL, 'h' },
		{ "hold-event", no_argument, NULL, 'e' },
		{ "tolerant", no_argument, NULL, 't' },
		{ "release-all", no_argument, NULL, 'A' },
		{ "region", required_argument, NULL, 'R' },
		{ "rounds", required_argument, NULL, 'N' },
		{ "deadline", required_argument, NULL, 'D' },
		{ NULL, 0, NULL, 0 },
	};
	char *list, *grp, *tok, *save = NULL, *gsave = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	o->msgs = 200;
	o->seed = 1;
	o->rounds = 1000;
	o->deadline_s = 150;
	snprintf(o->role, sizeof(o->role), "node");
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			snprintf(o->role, sizeof(o->role), "%s", optarg);
			break;
		case 'p':
			list = strdup(optarg);
			if (list == NULL)
				return -1;
			for (grp = strtok_r(list, "/", &gsave); grp != NULL;
			     grp = strtok_r(NULL, "/", &gsave)) {
				if (o->nb_groups == MAX_GROUPS) {
					fail("more than %d groups of peers",
					     MAX_GROUPS);
					free(list);
					return -1;
				}
				for (tok = strtok_r(grp, ",", &save);
				     tok != NULL && o->nb_peers < MAX_PEERS;
				     tok = strtok_r(NULL, ",", &save))
					if (rte_ism_gid_parse(tok,
						&o->peers[o->nb_peers++]) < 0) {
						fail("bad GID \"%s\"", tok);
						free(list);
						return -1;
					}
				o->group_end[o->nb_groups++] = o->nb_peers;
			}
			free(list);
			break;
		case 'n':
			o->msgs = strtoull(optarg, NULL, 0);
			break;
		case 'k':
			o->survive = atoi(optarg);
			break;
		case 'S':
			o->seed = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'C':
			o->nocopy = true;
			break;
		case 'h':
			o->hold = true;
			break;
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
			snprintf(o->region, sizeof(o->region), "%s", optarg);
			break;
		case 'N':
			o->rounds = strtoull(optarg, NULL, 0);
			break;
		case 'D':
			o->deadline_s = atoi(optarg);
			break;
		default:
			fail("unknown option");
			return -1;
		}
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
	struct group_run g[MAX_GROUPS];
	unsigned int i, j, k, first, lcore = rte_lcore_id();
	int ret = 0, r;

	for (i = 0; i < o->nb_groups; i++) {
		if (dev >= RTE_ISM_MAX_DEVS) {
			fail("%u groups of peers but %u ISM devices",
			     o->nb_groups, i);
			return 1;
		}
		first = i == 0 ? 0 : o->group_end[i - 1];
		g[i].dev = dev;
		g[i].o = *o;
		g[i].o.nb_groups = 1;
		g[i].o.nb_peers = o->group_end[i] - first;
		memcpy(g[i].o.peers, &o->peers[first],
		       g[i].o.nb_peers * sizeof(o->peers[0]));
		g[i].o.group_end[0] = g[i].o.nb_peers;
		g[i].ret = 1;
		dev = rte_ism_dev_next(dev + 1);
	}
	for (i = 1; i < o->nb_groups; i++) {
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
	for (i = 0; i < o->nb_groups; i++) {
		ret |= g[i].ret;
		for (j = 0; j < o->nb_groups; j++)
			for (k = 0; j != i && k < g[j].o.nb_peers; k++) {
				r = rte_ism_query_remote_gid(g[i].dev,
						&g[j].o.peers[k], 0, 0);
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

int
main(int argc, char **argv)
{
	char gs[RTE_ISM_GID_STRLEN];
	struct rte_ism_dev_info info;
	struct peer_opts o;
	pthread_t t;
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
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	dev = rte_ism_dev_next(0);
	if (dev >= RTE_ISM_MAX_DEVS || rte_ism_info_get(dev, &info) < 0) {
		fail("no ISM device (the EAL options create one)");
		rte_eal_cleanup();
		return 1;
	}
	if (o.hold) {
		release_seen = false;
		if (pthread_create(&t, NULL, release_reader, NULL) != 0) {
			fail("cannot start the release reader");
			return 2;
		}
		pthread_detach(t);
	} else if (o.hold_event) {
		release_seen = false;
	}
	gid_str(&info.gid, gs);
	say("READY pid %d gid %s device %s chid 0x%04x", (int)getpid(), gs,
	    info.name, info.chid);
	if (strcmp(o.role, "node") == 0 && o.nb_groups > 1) {
		ret = multi_node(dev, &o);
	} else if (strcmp(o.role, "node") == 0) {
		ret = node_main(dev, &o);
	} else if (strcmp(o.role, "scribble") == 0) {
		ret = scribble_main(dev, &o);
	} else if (strcmp(o.role, "api-server") == 0 ||
		   strcmp(o.role, "api-client") == 0) {
		ret = api_main(dev, &o, strcmp(o.role, "api-server") == 0);
	} else {
		fail("unknown role %s", o.role);
		ret = 1;
	}
	/* rte_eal_cleanup() removes the device: it leaves the fabric. */
	rte_eal_cleanup();
	say(ret == 0 ? "PASS" : "FAILED %d", ret);
	return ret;
}
