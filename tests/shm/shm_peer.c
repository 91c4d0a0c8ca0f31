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

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_rawdev.h>

#include "shm_peer.h"

#define DEV_NAME "ism_shm0"

uint64_t
xstat(const char *devname, const char *name)
{
	uint16_t raw = rte_rawdev_get_dev_id(devname);

	return rte_rawdev_xstats_by_name_get(raw, name, NULL);
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
shm_opt(void *arg, int c, const char *val)
{
	struct peer_opts *o = arg;

	switch (c) {
	case 'd':
		snprintf(o->dir, sizeof(o->dir), "%s", val);
		break;
	case 'g':
		if (parse_gid(val, &o->gid) < 0)
			return -1;
		break;
	case 'N':
		o->msgs_first = strtoull(val, NULL, 0);
		break;
	case 's':
		o->send = atoi(val) != 0;
		break;
	case 'f':
		o->fd_mark = atoi(val);
		break;
	case 'R':
		o->has_rogue = parse_gid(val, &o->rogue) == 0;
		break;
	case 'V':
		parse_gid(val, &o->victim);
		break;
	case 'H':
		parse_gid(val, &o->honest);
		break;
	case 't':
		o->touch = true;
		break;
	case 'A':
		snprintf(o->devargs, sizeof(o->devargs), ",%s", val);
		break;
	default:
		fail("unknown option");
		return -1;
	}
	return 0;
}

/* The options of this peer beside peer_parse()'s: */
static const struct option shm_opts[] = {
	{ "dir", required_argument, NULL, 'd' },
	{ "gid", required_argument, NULL, 'g' },
	{ "msgs-first", required_argument, NULL, 'N' },
	{ "send", required_argument, NULL, 's' },
	{ "fd-mark", required_argument, NULL, 'f' },
	{ "rogue", required_argument, NULL, 'R' },
	{ "victim", required_argument, NULL, 'V' },
	{ "honest", required_argument, NULL, 'H' },
	{ "touch", no_argument, NULL, 't' },
	{ "devargs", required_argument, NULL, 'A' },
	{ NULL, 0, NULL, 0 },
};

static int
parse_args(int argc, char **argv, struct peer_opts *o)
{
	if (peer_parse(argc, argv, &o->common, 1000, shm_opts, shm_opt,
		       o) < 0)
		return -1;
	if (o->msgs_first == 0)
		o->msgs_first = o->common.msgs;
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
	struct peer_opts o = { .send = true, .fd_mark = 100 };
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
	if (o.common.hold && hold_stdin(NULL) < 0)
		return 2;

	fds0 = count_fds();
	gid_str(&o.gid, gs);
	snprintf(devargs, sizeof(devargs), "dir=%s,gid=%s%s", o.dir, gs,
		 o.devargs);
	ret = rte_vdev_init(DEV_NAME, devargs);
	if (strcmp(o.common.role, "dup") == 0) {
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
	if (strcmp(o.common.role, "node") == 0) {
		ret = node_main(dev, &o);
	} else if (strcmp(o.common.role, "rogue") == 0) {
		ret = rogue_main(dev, &o);
	} else if (strcmp(o.common.role, "grant-owner") == 0) {
		ret = grant_owner_main(dev, &o);
	} else if (strcmp(o.common.role, "grant-writer") == 0) {
		ret = grant_writer_main(dev, &o);
	} else if (strcmp(o.common.role, "script") == 0) {
		ret = script_main(dev, &o);
	} else if (strcmp(o.common.role, "flood") == 0) {
		ret = flood_main(dev, &o);
	} else if (strncmp(o.common.role, "impostor-", 9) == 0) {
		ret = impostor_main(dev, &o);
	} else if (strcmp(o.common.role, "crowd") == 0) {
		ret = crowd_main(dev, &o);
	} else if (strcmp(o.common.role, "slammer") == 0) {
		ret = slammer_main(dev, &o);
	} else if (strcmp(o.common.role, "storm") == 0) {
		ret = storm_main(dev, &o);
	} else if (strcmp(o.common.role, "race") == 0) {
		ret = race_main(dev, &o);
	} else {
		fail("unknown role %s", o.common.role);
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
