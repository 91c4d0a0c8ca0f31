/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-shm-peer: one process of the multi-process tests of the shm
 * backend (see tests/shm/shm_test.py, which starts, kills and checks them).
 *
 *   dpdk-ism-shm-peer [EAL] -- --dir D --gid G
 *        --role node|rogue|dup|grant-owner|grant-writer|script|flood|
 *               impostor-gid|impostor-slot|crowd|slammer|storm|race
 *        [--peers G1,G2] [--msgs N] [--msgs-first N] [--send 0|1]
 *        [--survive K] [--fd-mark M] [--nocopy] [--rogue G]
 *        [--victim G] [--honest G] [--seed S] [--hold] [--touch]
 *        [--devargs K=V,...]
 *
 * With --hold a node does not finish its streams before the driver closes
 * its stdin: the driver orders the phases of a scenario (e.g. the honest
 * peer stays until the rogue is done), not the speed of the processes.
 *
 * The process creates its ism_shm device itself, after counting its open
 * file descriptors, and counts them again after removing it: a leak of any
 * fd (socket, memfd, received fd) fails the run.
 */

#include <dirent.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_pause.h>

#include <ism_compat.h>

#include "shm_peer.h"

#define DEV_NAME "ism_shm0"

int
count_fds(void)
{
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while ((de = readdir(d)) != NULL)
		n += de->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own fd */
}

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
 * run more processes than there are cores. */
void
idle(unsigned int *spins)
{
	if (++*spins % 64 == 0)
		sched_yield();
	else
		rte_pause();
}

static bool release_seen = true;

/* Reads stdin until EOF (the driver's release), then sets the flag. */
static void *
release_reader(void *arg __rte_unused)
{
	char buf[64];

	while (read(STDIN_FILENO, buf, sizeof(buf)) > 0)
		;
	rte_atomic_store_explicit(&release_seen, true, rte_memory_order_release);
	return NULL;
}

bool
released(void)
{
	return rte_atomic_load_explicit(&release_seen, rte_memory_order_acquire);
}

static int
hold_start(void)
{
	pthread_t t;

	release_seen = false;
	if (pthread_create(&t, NULL, release_reader, NULL) != 0) {
		fail("cannot start the release reader");
		return -1;
	}
	pthread_detach(t);
	return 0;
}

int
next_event(uint16_t dev, struct rte_ism_event *ev)
{
	return rte_ism_event_poll(dev, ev, 1) == 1;
}

int
wait_event(uint16_t dev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *from, struct rte_ism_event *out,
		uint64_t timeout_ms)
{
	uint64_t end = now_ns() + timeout_ms * 1000000ULL;
	unsigned int spins = 0;

	while (now_ns() < end) {
		if (!next_event(dev, out)) {
			idle(&spins);
			continue;
		}
		if (out->type == type && out->code == code &&
		    (from == NULL || rte_ism_gid_equal(&out->gid, from)))
			return 0;
	}
	return -ETIMEDOUT;
}

int
wait_sw(uint16_t dev, uint32_t code, const struct rte_ism_gid *from,
		uint64_t *info, uint64_t timeout_ms)
{
	struct rte_ism_event ev;
	int ret;

	ret = wait_event(dev, RTE_ISM_EVENT_SW, code, from, &ev, timeout_ms);
	if (ret == 0 && info != NULL)
		*info = ev.info;
	return ret;
}

uint64_t
xstat(const char *devname, const char *name)
{
	int dev = rte_ism_get_dev_id(devname);
	uint64_t v;

	return dev >= 0 && rte_ism_xstats_get_by_name(dev, name, NULL,
			&v) == 0 ? v : UINT64_MAX;
}

static int
parse_gid(const char *s, struct rte_ism_gid *g)
{
	if (rte_ism_gid_parse(s, g) < 0) {
		fail("bad GID \"%s\"", s);
		return -1;
	}
	return 0;
}

static int
parse_args(int argc, char **argv, struct peer_opts *o)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "gid", required_argument, NULL, 'g' },
		{ "role", required_argument, NULL, 'r' },
		{ "peers", required_argument, NULL, 'p' },
		{ "msgs", required_argument, NULL, 'n' },
		{ "msgs-first", required_argument, NULL, 'N' },
		{ "send", required_argument, NULL, 's' },
		{ "survive", required_argument, NULL, 'k' },
		{ "fd-mark", required_argument, NULL, 'f' },
		{ "rogue", required_argument, NULL, 'R' },
		{ "victim", required_argument, NULL, 'V' },
		{ "honest", required_argument, NULL, 'H' },
		{ "seed", required_argument, NULL, 'S' },
		{ "nocopy", no_argument, NULL, 'C' },
		{ "hold", no_argument, NULL, 'h' },
		{ "touch", no_argument, NULL, 't' },
		{ "devargs", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	char *list, *tok, *save = NULL;
	int c;

	memset(o, 0, sizeof(*o));
	o->msgs = 1000;
	o->send = true;
	o->fd_mark = 100;
	o->seed = 1;
	snprintf(o->role, sizeof(o->role), "node");
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			snprintf(o->dir, sizeof(o->dir), "%s", optarg);
			break;
		case 'g':
			if (parse_gid(optarg, &o->gid) < 0)
				return -1;
			break;
		case 'r':
			snprintf(o->role, sizeof(o->role), "%s", optarg);
			break;
		case 'p':
			list = strdup(optarg);
			for (tok = strtok_r(list, ",", &save); tok != NULL &&
			     o->nb_peers < RTE_DIM(o->peers);
			     tok = strtok_r(NULL, ",", &save))
				if (parse_gid(tok, &o->peers[o->nb_peers++]))
					break;
			free(list);
			break;
		case 'n':
			o->msgs = strtoull(optarg, NULL, 0);
			break;
		case 'N':
			o->msgs_first = strtoull(optarg, NULL, 0);
			break;
		case 's':
			o->send = atoi(optarg) != 0;
			break;
		case 'k':
			o->survive = atoi(optarg);
			break;
		case 'f':
			o->fd_mark = atoi(optarg);
			break;
		case 'R':
			o->has_rogue = parse_gid(optarg, &o->rogue) == 0;
			break;
		case 'V':
			parse_gid(optarg, &o->victim);
			break;
		case 'H':
			parse_gid(optarg, &o->honest);
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
		case 't':
			o->touch = true;
			break;
		case 'A':
			snprintf(o->devargs, sizeof(o->devargs), ",%s", optarg);
			break;
		default:
			fail("unknown option");
			return -1;
		}
	}
	if (o->msgs_first == 0)
		o->msgs_first = o->msgs;
	if (o->dir[0] == '\0' || o->gid.gid == 0) {
		fail("--dir and --gid are required");
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	char devargs[512], gs[RTE_ISM_GID_STRLEN];
	struct peer_opts o;
	int fds0, fds1, ret, dev;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fail("EAL init");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (parse_args(argc, argv, &o) < 0)
		return 2;
	if (o.hold && hold_start() < 0)
		return 2;

	fds0 = count_fds();
	gid_str(&o.gid, gs);
	snprintf(devargs, sizeof(devargs), "dir=%s,gid=%s%s", o.dir, gs,
		 o.devargs);
	ret = rte_vdev_init(DEV_NAME, devargs);
	if (strcmp(o.role, "dup") == 0) {
		/* Another process has this GID: creation must be refused. */
		say("REFUSED %d", ret);
		if (ret == 0)
			rte_vdev_uninit(DEV_NAME);
		ret = ret == -EEXIST ? 0 : 1;
		goto out;
	}
	if (ret < 0) {
		fail("cannot create %s: %s", DEV_NAME, strerror(-ret));
		say("NODEV %d", ret);
		return 1;
	}
	dev = rte_ism_get_dev_id(DEV_NAME);
	say("READY pid %d gid %s", (int)getpid(), gs);
	if (strcmp(o.role, "node") == 0) {
		ret = node_main(dev, &o);
	} else if (strcmp(o.role, "rogue") == 0) {
		ret = rogue_main(dev, &o);
	} else if (strcmp(o.role, "grant-owner") == 0) {
		ret = grant_owner_main(dev, &o);
	} else if (strcmp(o.role, "grant-writer") == 0) {
		ret = grant_writer_main(dev, &o);
	} else if (strcmp(o.role, "script") == 0) {
		ret = script_main(dev, &o);
	} else if (strcmp(o.role, "flood") == 0) {
		ret = flood_main(dev, &o);
	} else if (strncmp(o.role, "impostor-", 9) == 0) {
		ret = impostor_main(dev, &o);
	} else if (strcmp(o.role, "crowd") == 0) {
		ret = crowd_main(dev, &o);
	} else if (strcmp(o.role, "slammer") == 0) {
		ret = slammer_main(dev, &o);
	} else if (strcmp(o.role, "storm") == 0) {
		ret = storm_main(dev, &o);
	} else if (strcmp(o.role, "race") == 0) {
		ret = race_main(dev, &o);
	} else {
		fail("unknown role %s", o.role);
		ret = 1;
	}
	rte_vdev_uninit(DEV_NAME);
out:
	fds1 = count_fds();
	say("FDS baseline %d final %d", fds0, fds1);
	if (fds0 != fds1) {
		fail("%d file descriptors leaked", fds1 - fds0);
		ret = 1;
	}
	rte_eal_cleanup();
	if (ret == 0)
		say("PASS");
	return ret;
}
