/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * role race: several processes register, move and unregister at once.
 * Each round, a racer registers a DMB for every peer of --peers, tells
 * each its token (rte_ism_signal_event), moves into every token a peer
 * told it of (the DMB may be gone meanwhile: -ENOENT is fine, a write
 * anywhere else is not), and unregisters its DMBs. Every control call
 * must succeed: a peer that answers late makes it return -ETIMEDOUT
 * (SHM_ACK_TIMEOUT_MS), which fails the run. The racer prints the longest
 * control call it made (informational: the driver checks no time):
 *
 *   RACE rounds <n> calls <n> longest_ms <ms> moves <ok> <gone>
 *
 * After its rounds a racer tells its peers (EV_DONE) and waits for theirs,
 * so that nobody leaves while another still moves into its DMBs.
 *
 * With --survive 1 a thread without an lcore id moves without pause into
 * the latest token of the first peer meanwhile (the memory a peer's
 * unregister retires may be in use by it: the unregister waits for it).
 */

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ism_compat.h>

#include "shm_peer.h"

#define RACE_DMB_LEN	4096
#define RACE_WAIT_MS	60000

struct racer {
	uint16_t dev;
	const struct peer_opts *o;
	uint64_t their[4];	/* the latest token each peer told us */
	bool done[4];
	uint64_t calls, longest_ns, moves_ok, moves_gone;
	int failed;
	RTE_ATOMIC(uint64_t) mover_token; /* for the mover thread */
	RTE_ATOMIC(bool) stop;
	uint64_t mover_moves;
};

/* A thread without an lcore id that moves without pause. */
static void *
mover(void *arg)
{
	struct racer *r = arg;
	uint64_t t, v = 0;

	while (!rte_atomic_load_explicit(&r->stop, rte_memory_order_acquire)) {
		t = rte_atomic_load_explicit(&r->mover_token,
				rte_memory_order_acquire);
		if (t != 0 && rte_ism_move_data(r->dev, t, 0, 0, 8, &v,
						 sizeof(v)) == 0)
			r->mover_moves++;
		v++;
	}
	return NULL;
}

static void
timed(struct racer *r, uint64_t t0, int ret, const char *what)
{
	uint64_t d = now_ns() - t0;

	r->calls++;
	if (d > r->longest_ns)
		r->longest_ns = d;
	if (ret < 0 && !r->failed) {
		fail("%s: %s after %" PRIu64 " ms", what, strerror(-ret),
		     d / 1000000);
		r->failed = 1;
	}
}

/* Take the tokens and DONEs that arrived. */
static void
drain_events(struct racer *r)
{
	struct rte_ism_event ev;
	unsigned int i;

	while (next_event(r->dev, &ev)) {
		if (ev.type != RTE_ISM_EVENT_SW)
			continue;
		for (i = 0; i < r->o->common.nb_peers; i++) {
			if (!rte_ism_gid_equal(&ev.gid, &r->o->common.peers[i]))
				continue;
			if (ev.code == EV_TOKEN)
				r->their[i] = ev.info;
			if (ev.code == EV_TOKEN && i == 0)
				rte_atomic_store_explicit(&r->mover_token,
					ev.info, rte_memory_order_release);
			else if (ev.code == EV_DONE)
				r->done[i] = true;
		}
	}
}

static void
move_all(struct racer *r, uint64_t round)
{
	unsigned int i;
	int ret;

	for (i = 0; i < r->o->common.nb_peers; i++) {
		if (r->their[i] == 0)
			continue;
		ret = rte_ism_move_data(r->dev, r->their[i], 0, 1, 0, &round,
				sizeof(round));
		if (ret == 0) {
			r->moves_ok++;
		} else if (ret == -ENOENT) {
			r->moves_gone++;
			r->their[i] = 0;
		} else if (!r->failed) {
			fail("move: %s", strerror(-ret));
			r->failed = 1;
		}
	}
}

static bool
all_done(const struct racer *r)
{
	unsigned int i;

	for (i = 0; i < r->o->common.nb_peers; i++)
		if (!r->done[i])
			return false;
	return true;
}

int
race_main(uint16_t dev, const struct peer_opts *o)
{
	struct racer r = { .dev = dev, .o = o };
	struct rte_ism_dmb d[4];
	struct rte_ism_event ev;
	unsigned int i, spins = 0;
	uint64_t round, t0, end;
	pthread_t mt;
	int ret;

	/* Everyone is there before the race starts. */
	end = now_ns() + RACE_WAIT_MS * 1000000ULL;
	for (i = 0; i < o->common.nb_peers; i++) {
		while (rte_ism_query_remote_gid(dev, &o->common.peers[i], 0, 0) != 0) {
			if (now_ns() > end) {
				fail("peer %u never came", i);
				return 1;
			}
			next_event(dev, &ev);
			usleep(1000);
		}
	}
	if (o->common.survive > 0 && pthread_create(&mt, NULL, mover, &r) != 0) {
		fail("cannot start the mover thread");
		return 1;
	}
	for (round = 1; round <= o->common.msgs && !r.failed; round++) {
		for (i = 0; i < o->common.nb_peers; i++) {
			memset(&d[i], 0, sizeof(d[i]));
			d[i].len = RACE_DMB_LEN;
			d[i].rgid = o->common.peers[i];
			t0 = now_ns();
			ret = rte_ism_dmb_register(dev, &d[i]);
			timed(&r, t0, ret, "register");
			if (ret < 0)
				d[i].token = 0;
			t0 = now_ns();
			ret = rte_ism_signal_event(dev, &o->common.peers[i], 1,
					EV_TOKEN, d[i].token);
			timed(&r, t0, ret, "signal_event");
		}
		drain_events(&r);
		move_all(&r, round);
		for (i = 0; i < o->common.nb_peers; i++) {
			if (d[i].token == 0)
				continue;
			t0 = now_ns();
			ret = rte_ism_dmb_unregister(dev, d[i].token);
			timed(&r, t0, ret, "unregister");
		}
	}
	if (o->common.survive > 0) {
		rte_atomic_store_explicit(&r.stop, true,
				rte_memory_order_release);
		pthread_join(mt, NULL);
	}
	for (i = 0; i < o->common.nb_peers; i++)
		rte_ism_signal_event(dev, &o->common.peers[i], 1, EV_DONE, 0);
	end = now_ns() + RACE_WAIT_MS * 1000000ULL;
	while (!all_done(&r) && now_ns() < end) {
		drain_events(&r);
		idle(&spins);
	}
	if (!all_done(&r)) {
		fail("not every peer finished");
		r.failed = 1;
	}
	say("RACE rounds %" PRIu64 " calls %" PRIu64 " longest_ms %" PRIu64
	    " moves %" PRIu64 " %" PRIu64 " mover %" PRIu64, round - 1,
	    r.calls, r.longest_ns / 1000000, r.moves_ok, r.moves_gone,
	    r.mover_moves);
	return r.failed;
}
