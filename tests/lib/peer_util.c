/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_common.h>
#include <rte_pause.h>

#include <ism_compat.h>

#include "peer_util.h"

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

void
idle(unsigned int *spins)
{
	if (++*spins % 64 == 0)
		sched_yield();
	else
		rte_pause();
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

static RTE_ATOMIC(bool) release_seen = true;
static void (*line_hook)(const char *line);

bool
released(void)
{
	return rte_atomic_load_explicit(&release_seen, rte_memory_order_acquire);
}

void
release_now(void)
{
	rte_atomic_store_explicit(&release_seen, true, rte_memory_order_release);
}

void
hold_release(void)
{
	rte_atomic_store_explicit(&release_seen, false, rte_memory_order_release);
}

static void *
release_reader(void *arg __rte_unused)
{
	char line[64];

	while (fgets(line, sizeof(line), stdin) != NULL)
		if (line_hook != NULL)
			line_hook(line);
	if (line_hook != NULL)
		line_hook(NULL);
	release_now();
	return NULL;
}

int
hold_stdin(void (*on_line)(const char *line))
{
	pthread_t t;

	hold_release();
	line_hook = on_line;
	if (pthread_create(&t, NULL, release_reader, NULL) != 0) {
		fail("cannot start the release reader");
		return -1;
	}
	pthread_detach(t);
	return 0;
}

/* "G1,G2,...": a group of peers appended to pc->peers. */
static int
parse_group(char *list, struct peer_common *pc)
{
	char *tok, *save = NULL;

	if (pc->nb_groups == PEER_MAX_GROUPS) {
		fail("more than %d groups of peers", PEER_MAX_GROUPS);
		return -1;
	}
	for (tok = strtok_r(list, ",", &save);
	     tok != NULL && pc->nb_peers < PEER_MAX_PEERS;
	     tok = strtok_r(NULL, ",", &save))
		if (rte_ism_gid_parse(tok, &pc->peers[pc->nb_peers++]) < 0) {
			fail("bad GID \"%s\"", tok);
			return -1;
		}
	pc->group_end[pc->nb_groups++] = pc->nb_peers;
	return 0;
}

static int
parse_peers(const char *arg, struct peer_common *pc)
{
	char *list = strdup(arg), *grp, *save = NULL;
	int ret = 0;

	if (list == NULL)
		return -1;
	for (grp = strtok_r(list, "/", &save); grp != NULL && ret == 0;
	     grp = strtok_r(NULL, "/", &save))
		ret = parse_group(grp, pc);
	free(list);
	return ret;
}

static int
common_opt(int c, const char *arg, struct peer_common *pc)
{
	switch (c) {
	case 'r':
		snprintf(pc->role, sizeof(pc->role), "%s", arg);
		return 1;
	case 'p':
		return parse_peers(arg, pc) < 0 ? -1 : 1;
	case 'n':
		pc->msgs = strtoull(arg, NULL, 0);
		return 1;
	case 'k':
		pc->survive = atoi(arg);
		return 1;
	case 'S':
		pc->seed = strtoull(arg, NULL, 0) | 1;
		return 1;
	case 'C':
		pc->nocopy = true;
		return 1;
	case 'h':
		pc->hold = true;
		return 1;
	default:
		return 0;
	}
}

#define OWN_MAX 24

int
peer_parse(int argc, char **argv, struct peer_common *pc, uint64_t msgs,
		const struct option *own, peer_opt_fn fn, void *o)
{
	static const struct option common[] = {
		{ "role", required_argument, NULL, 'r' },
		{ "peers", required_argument, NULL, 'p' },
		{ "msgs", required_argument, NULL, 'n' },
		{ "survive", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 'S' },
		{ "nocopy", no_argument, NULL, 'C' },
		{ "hold", no_argument, NULL, 'h' },
	};
	struct option opts[RTE_DIM(common) + OWN_MAX + 1];
	unsigned int n = RTE_DIM(common), i;
	int c, ret;

	memset(pc, 0, sizeof(*pc));
	snprintf(pc->role, sizeof(pc->role), "node");
	pc->msgs = msgs;
	pc->seed = 1;
	memcpy(opts, common, sizeof(common));
	for (i = 0; own[i].name != NULL; i++) {
		if (i == OWN_MAX) {
			fail("more than %d options of a peer", OWN_MAX);
			return -1;
		}
		opts[n++] = own[i];
	}
	memset(&opts[n], 0, sizeof(opts[n]));
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		ret = common_opt(c, optarg, pc);
		if (ret == 0)
			ret = fn(o, c, optarg);
		if (ret < 0)
			return -1;
	}
	return 0;
}
