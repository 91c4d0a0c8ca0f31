/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * role script: a device that does what the driver (shm_test.py) tells it,
 * one command per line on stdin, and answers each with one line starting
 * with "R <command>", so that the driver orders every phase of a scenario
 * explicitly. The device polls no event unless told to, as a client that
 * lags behind would.
 *
 *   fdlimit             soft RLIMIT_NOFILE down to the lowest free fd:
 *                       no new fd can be opened (R fdlimit <limit>)
 *   fdrestore           the limit as it was
 *   reg <gid> [n]       register n (1) DMBs of 4 KiB for gid
 *                       (R reg <registered> <first error>)
 *   unreg               unregister the DMB registered last (R unreg <ret>)
 *   query <gid>         R query <rte_ism_query_remote_gid()>
 *   event <gid>         R event <rte_ism_signal_event()>
 *   xstat <name>        R xstat <name> <value>
 *   wait-xstat <name> <value>
 *                       until the xstat has that value (bounded)
 *   wait-peer <gid>     until a DEV_ENABLED event of gid (bounded)
 *   mapfill <room>      fill the process's address space with mappings
 *                       until only room more fit under vm.max_map_count
 *                       (R mapfill <mappings added>)
 *   mapfree             unmap them
 *   poll <n>            n signal polls of up to 32 signals each
 *                       (R poll <n> <signals reported>)
 *   events              poll every queued event: one line per DEV event
 *                       (E <ENABLED|DISABLED> <gid> <gid_ext> <info>),
 *                       then
 *                       R events <total> <buf unregistered> <dev disabled>
 *                       <sum of the DEV_DISABLED infos>
 *   quit                unregister everything, finish
 *
 * A command that cannot be parsed is a failure (FAIL line, exit 1).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "shm_peer.h"

#define DEV_NAME	"ism_shm0"
#define WAIT_MS		30000
#define SCRIPT_DMB_LEN	4096
#define SCRIPT_MAX_DMBS	4064

struct script {
	uint16_t dev;
	struct rlimit saved;
	bool limited;
	uint64_t *tokens;
	unsigned int nb_tokens;
	void **maps;		/* mapfill's one-page mappings */
	unsigned int nb_maps;
};

static long
read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f != NULL) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static long
count_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	long n = 0;
	int c;

	if (f == NULL)
		return -1;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* One-page mappings, read-only and inaccessible in turn so that the
 * kernel cannot merge neighbours: one map count each. */
static int
cmd_mapfill(struct script *s, long room)
{
	long max = read_long("/proc/sys/vm/max_map_count");
	long want, i;
	void *p;

	want = max - count_maps() - room;
	if (max < 0 || want <= 0 || s->maps != NULL)
		return -1;
	s->maps = calloc(want, sizeof(*s->maps));
	if (s->maps == NULL)
		return -1;
	for (i = 0; i < want; i++) {
		p = mmap(NULL, 4096, i % 2 ? PROT_READ : PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			break;
		s->maps[s->nb_maps++] = p;
	}
	say("R mapfill %u", s->nb_maps);
	return 0;
}

static int
cmd_mapfree(struct script *s)
{
	while (s->nb_maps > 0)
		munmap(s->maps[--s->nb_maps], 4096);
	free(s->maps);
	s->maps = NULL;
	say("R mapfree");
	return 0;
}

static int
cmd_fdlimit(struct script *s)
{
	struct rlimit low;
	int fd = dup(STDOUT_FILENO);

	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &s->saved) < 0)
		return -1;
	close(fd);
	low = s->saved;
	low.rlim_cur = fd;
	if (setrlimit(RLIMIT_NOFILE, &low) < 0)
		return -1;
	s->limited = true;
	say("R fdlimit %d", fd);
	return 0;
}

static int
cmd_fdrestore(struct script *s)
{
	if (s->limited && setrlimit(RLIMIT_NOFILE, &s->saved) < 0)
		return -1;
	s->limited = false;
	say("R fdrestore");
	return 0;
}

static int
cmd_reg(struct script *s, const struct rte_ism_gid *gid, unsigned int n)
{
	struct rte_ism_dmb d;
	unsigned int i, ok = 0;
	int ret, first = 0;

	for (i = 0; i < n; i++) {
		if (s->nb_tokens == SCRIPT_MAX_DMBS) {
			first = first != 0 ? first : -ENOSPC;
			break;
		}
		memset(&d, 0, sizeof(d));
		d.len = SCRIPT_DMB_LEN;
		d.rgid = *gid;
		ret = rte_ism_dmb_register(s->dev, &d);
		if (ret == 0) {
			s->tokens[s->nb_tokens++] = d.token;
			ok++;
		} else if (first == 0) {
			first = ret;
		}
	}
	say("R reg %u %d", ok, first);
	return 0;
}

static int
cmd_unreg(struct script *s)
{
	int ret = -ENOENT;

	if (s->nb_tokens > 0)
		ret = rte_ism_dmb_unregister(s->dev,
				s->tokens[--s->nb_tokens]);
	say("R unreg %d", ret);
	return 0;
}

static int
cmd_wait_xstat(struct script *s __rte_unused, const char *name,
		uint64_t want)
{
	uint64_t end = now_ns() + WAIT_MS * 1000000ULL, v;

	while ((v = xstat(DEV_NAME, name)) != want && now_ns() < end)
		usleep(1000);
	say("R wait-xstat %s %" PRIu64, name, v);
	return 0;
}

static int
cmd_wait_peer(struct script *s, const struct rte_ism_gid *gid)
{
	struct rte_ism_event ev;

	say("R wait-peer %d", wait_event(s->dev, RTE_ISM_EVENT_DEV,
					 RTE_ISM_DEV_ENABLED, gid, &ev,
					 WAIT_MS));
	return 0;
}

static int
cmd_events(struct script *s)
{
	uint64_t total = 0, buf = 0, gone = 0, info = 0;
	struct rte_ism_event ev;

	while (next_event(s->dev, &ev)) {
		total++;
		if (ev.type == RTE_ISM_EVENT_BUF &&
		    ev.code == RTE_ISM_BUF_UNREGISTERED)
			buf++;
		if (ev.type != RTE_ISM_EVENT_DEV)
			continue;
		if (ev.code == RTE_ISM_DEV_DISABLED) {
			gone++;
			info += ev.info;
		}
		say("E %s 0x%" PRIx64 " 0x%" PRIx64 " %" PRIu64,
		    ev.code == RTE_ISM_DEV_DISABLED ? "DISABLED" :
		    ev.code == RTE_ISM_DEV_ENABLED ? "ENABLED" : "OTHER",
		    ev.gid.gid, ev.gid.gid_ext, ev.info);
	}
	say("R events %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, total,
	    buf, gone, info);
	return 0;
}

static int
cmd_poll(struct script *s, unsigned long n)
{
	struct rte_ism_signal sig[32];
	unsigned long i, got = 0;
	int r;

	for (i = 0; i < n; i++) {
		r = rte_ism_signal_poll(s->dev, sig, RTE_DIM(sig));
		if (r < 0 || r > (int)RTE_DIM(sig))
			return -1;
		got += r;
	}
	say("R poll %lu %lu", n, got);
	return 0;
}

/* One command; 1 to quit, -1 on a bad one. */
static int
run_line(struct script *s, char *line)
{
	char *argv[4] = { NULL }, *save = NULL;
	struct rte_ism_gid gid;
	unsigned int argc = 0;

	for (argv[0] = strtok_r(line, " \t\n", &save);
	     argv[argc] != NULL && ++argc < RTE_DIM(argv);)
		argv[argc] = strtok_r(NULL, " \t\n", &save);
	if (argc == 0)
		return 0;
	if (argc >= 2 && strcmp(argv[0], "xstat") != 0 &&
	    strcmp(argv[0], "wait-xstat") != 0 &&
	    strcmp(argv[0], "mapfill") != 0 &&
	    strcmp(argv[0], "poll") != 0 &&
	    rte_ism_gid_parse(argv[1], &gid) < 0)
		return -1;
	if (strcmp(argv[0], "fdlimit") == 0)
		return cmd_fdlimit(s);
	if (strcmp(argv[0], "fdrestore") == 0)
		return cmd_fdrestore(s);
	if (strcmp(argv[0], "reg") == 0 && argc >= 2)
		return cmd_reg(s, &gid, argc == 3 ? atoi(argv[2]) : 1);
	if (strcmp(argv[0], "unreg") == 0)
		return cmd_unreg(s);
	if (strcmp(argv[0], "query") == 0 && argc == 2) {
		say("R query %d", rte_ism_query_remote_gid(s->dev, &gid, 0, 0));
		return 0;
	}
	if (strcmp(argv[0], "event") == 0 && argc == 2) {
		say("R event %d", rte_ism_signal_event(s->dev, &gid, 1,
						       EV_PING, 0));
		return 0;
	}
	if (strcmp(argv[0], "xstat") == 0 && argc == 2) {
		say("R xstat %s %" PRIu64, argv[1], xstat(DEV_NAME, argv[1]));
		return 0;
	}
	if (strcmp(argv[0], "wait-xstat") == 0 && argc == 3)
		return cmd_wait_xstat(s, argv[1], strtoull(argv[2], NULL, 0));
	if (strcmp(argv[0], "wait-peer") == 0 && argc == 2)
		return cmd_wait_peer(s, &gid);
	if (strcmp(argv[0], "events") == 0)
		return cmd_events(s);
	if (strcmp(argv[0], "mapfill") == 0 && argc == 2)
		return cmd_mapfill(s, atol(argv[1]));
	if (strcmp(argv[0], "mapfree") == 0)
		return cmd_mapfree(s);
	if (strcmp(argv[0], "poll") == 0 && argc == 2)
		return cmd_poll(s, strtoul(argv[1], NULL, 0));
	if (strcmp(argv[0], "quit") == 0)
		return 1;
	return -1;
}

int
script_main(uint16_t dev, const struct peer_opts *o __rte_unused)
{
	struct script s = { .dev = dev };
	char line[256];
	int ret = 0;

	s.tokens = calloc(SCRIPT_MAX_DMBS, sizeof(*s.tokens));
	if (s.tokens == NULL)
		return 1;
	while (ret == 0 && fgets(line, sizeof(line), stdin) != NULL) {
		ret = run_line(&s, line);
		if (ret < 0)
			fail("bad command \"%s\"", line);
	}
	if (ret == 0)
		fail("stdin ended before quit");
	cmd_fdrestore(&s);
	if (s.maps != NULL)
		cmd_mapfree(&s);
	while (s.nb_tokens > 0)
		rte_ism_dmb_unregister(dev, s.tokens[--s.nb_tokens]);
	free(s.tokens);
	return ret == 1 ? 0 : 1;
}
