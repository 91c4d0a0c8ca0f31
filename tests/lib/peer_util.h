/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef PEER_UTIL_H
#define PEER_UTIL_H

/*
 * What every multi-process test peer (tests/shm, tests/ivshm) needs around
 * the ISM API: the milestone lines on stdout that the test drivers follow,
 * a monotonic clock, a polite busy-poll, waiting for an event, and the
 * driver's release (the end of stdin).
 */

#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ism.h>

#include "test_say.h"

uint64_t now_ns(void);
void gid_str(const struct rte_ism_gid *g, char *buf);
/* Open file descriptors of this process, -1 if unknown. */
int count_fds(void);
/* Busy-poll, but give the CPU away now and then: the tests run more
 * processes than there are cores (and guests have one vCPU). */
void idle(unsigned int *spins);

/* Poll one event; 1 got one, 0 not. */
int next_event(uint16_t dev, struct rte_ism_event *ev);
/* Wait for an event of this type and code from gid (NULL: any); the
 * events before it are dropped. 0 or -ETIMEDOUT. */
int wait_event(uint16_t dev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *from, struct rte_ism_event *out,
		uint64_t timeout_ms);
/* The same for a SW event; its info in *info. */
int wait_sw(uint16_t dev, uint32_t code, const struct rte_ism_gid *from,
		uint64_t *info, uint64_t timeout_ms);

/* The release: true until hold_release() or hold_stdin(), then false
 * until release_now() (hold_stdin: at the end of stdin, the driver's
 * explicit "you may finish" phase). */
bool released(void);
void release_now(void);
void hold_release(void);
/* hold_release(), and a thread that reads stdin: each line to on_line
 * (may be NULL), then NULL at its end, then release_now(). 0 or -1. */
int hold_stdin(void (*on_line)(const char *line));

/* The options every peer takes, with the same meaning. */
#define PEER_MAX_PEERS	4
#define PEER_MAX_GROUPS	2

struct peer_common {
	char role[16];
	/* --peers G1,G2[/G3...]: "/" separates the peers of each device
	 * (one group each, ivshm); peers[] up to group_end[i] are group i's. */
	struct rte_ism_gid peers[PEER_MAX_PEERS];
	unsigned int nb_peers;
	unsigned int group_end[PEER_MAX_GROUPS];
	unsigned int nb_groups;
	uint64_t msgs;		/* messages per session once released (or
				 * how many of what a role does) */
	unsigned int survive;	/* peer losses accepted */
	uint64_t seed;
	bool nocopy;		/* odd messages: payload through attach */
	bool hold;		/* stream until the end of stdin */
};

/* A peer's own option (getopt_long()'s val c, '?' for an unknown one):
 * 0, or -1 if bad (said). */
typedef int (*peer_opt_fn)(void *o, int c, const char *arg);

/* The options after EAL's: --role (default "node"), --peers, --msgs
 * (default msgs), --survive, --seed (default 1), --nocopy and --hold into
 * *pc; the peer's own (own, up to 24, each with a val that is not one of
 * r, p, n, k, S, C, h) through fn. 0 or -1. */
int peer_parse(int argc, char **argv, struct peer_common *pc, uint64_t msgs,
		const struct option *own, peer_opt_fn fn, void *o);

#endif /* PEER_UTIL_H */
