/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Many DMBs granted to a peer that joins later (the restart of a writer):
 * the owner registers --msgs DMBs for --peers[0] and then limits its open
 * files to what it holds plus a margin, far fewer than one more fd per DMB.
 * When the writer joins, the owner's initial DMB list must get through
 * (regression: queued grants held a dup of their memfd each). The writer
 * writes each DMB's own token into it; the owner checks every DMB.
 *
 *   role grant-owner / grant-writer, --peers G, --msgs N
 */

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "shm_peer.h"

#define EV_ALL_WRITTEN	0x5110

int
grant_owner_main(uint16_t dev, const struct peer_opts *o)
{
	struct rte_ism_dmb *d = calloc(o->msgs, sizeof(*d));
	struct rte_ism_event ev;
	struct rlimit rl;
	uint64_t i, got, bad = 0;
	int ret = 1;

	if (d == NULL)
		return 1;
	for (i = 0; i < o->msgs; i++) {
		d[i].len = 64;
		d[i].rgid = o->peers[0];
		if (rte_ism_dmb_register(dev, &d[i]) < 0) {
			fail("register %" PRIu64, i);
			goto out;
		}
	}
	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = count_fds() + 64;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fail("setrlimit");
		goto out;
	}
	say("OWNER %" PRIu64 " DMBs, fd limit %lu", o->msgs,
	    (unsigned long)rl.rlim_cur);
	if (wait_event(dev, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ENABLED,
		       &o->peers[0], &ev, 60000) < 0) {
		fail("the writer did not join");
		goto out;
	}
	for (i = 0; i < o->msgs; i++)
		if (rte_ism_signal_event(dev, &o->peers[0], 1, EV_TOKEN,
					 d[i].token) < 0) {
			fail("token %" PRIu64 " not delivered", i);
			goto out;
		}
	if (wait_sw(dev, EV_ALL_WRITTEN, &o->peers[0], &got, 60000) < 0) {
		fail("the writer did not finish");
		goto out;
	}
	for (i = 0; i < o->msgs; i++)
		bad += memcmp(d[i].addr, &d[i].token, sizeof(d[i].token)) != 0;
	say("WRITTEN %" PRIu64 " of %" PRIu64 ", %" PRIu64 " wrong", got,
	    o->msgs, bad);
	ret = got == o->msgs && bad == 0 ? 0 : 1;
out:
	for (i = 0; i < o->msgs; i++)
		if (d[i].token != 0)
			rte_ism_dmb_unregister(dev, d[i].token);
	free(d);
	return ret;
}

int
grant_writer_main(uint16_t dev, const struct peer_opts *o)
{
	uint64_t i, tok, ok = 0;
	int r;

	for (i = 0; i < o->msgs; i++) {
		if (wait_sw(dev, EV_TOKEN, &o->peers[0], &tok, 30000) < 0) {
			fail("token %" PRIu64 " missing", i);
			return 1;
		}
		r = rte_ism_move_data(dev, tok, 0, 0, 0, &tok, sizeof(tok));
		if (r == 0)
			ok++;
		else
			fail("move into DMB %" PRIu64 ": %d", i, r);
	}
	return rte_ism_signal_event(dev, &o->peers[0], 1, EV_ALL_WRITTEN, ok)
		< 0 || ok != o->msgs;
}
