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
 * Then, with the connection up:
 * - the writer has no fd left: a DMB the owner registers for it cannot
 *   reach it, so the owner's register fails (-ENOMEM) and the connection
 *   stays (regression: dropped as the writer's protocol error while the
 *   register returned 0); with fds again, the next register works.
 *
 *   role grant-owner / grant-writer, --peers G, --msgs N
 */

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "shm_peer.h"

#define EV_ALL_WRITTEN	0x5110
/* writer -> owner: no fd left here; owner -> writer: -register() */
#define EV_NO_FDS	0x5111
#define EV_NO_FDS_RET	0x5112
#define EV_FDS_BACK	0x5113	/* writer -> owner */

/* Owner: register for a writer without fds, then with. */
static int
owner_no_fds(uint16_t dev, const struct peer_opts *o, struct rte_ism_dmb *x)
{
	int ret;

	if (wait_sw(dev, EV_NO_FDS, &o->common.peers[0], NULL, 60000) < 0) {
		fail("no EV_NO_FDS");
		return -1;
	}
	memset(x, 0, sizeof(*x));
	x->len = 64;
	x->rgid = o->common.peers[0];
	ret = rte_ism_dmb_register(dev, x);
	if (ret == 0) {
		rte_ism_dmb_unregister(dev, x->token);
		x->token = 0;
	}
	say("NOFDS register for a writer without fds: %d", ret);
	rte_ism_signal_event(dev, &o->common.peers[0], 1, EV_NO_FDS_RET, -ret);
	if (ret != -ENOMEM) {
		fail("register for a writer without fds: %d", ret);
		return -1;
	}
	if (wait_sw(dev, EV_FDS_BACK, &o->common.peers[0], NULL, 60000) < 0) {
		fail("no EV_FDS_BACK");
		return -1;
	}
	memset(x, 0, sizeof(*x));
	x->len = 64;
	x->rgid = o->common.peers[0];
	ret = rte_ism_dmb_register(dev, x);
	if (ret < 0 || rte_ism_signal_event(dev, &o->common.peers[0], 1, EV_TOKEN,
					     x->token) < 0) {
		fail("register once the writer has fds again: %d", ret);
		return -1;
	}
	return 0;
}

/* Writer: no fd left for a while. Returns 1 if the DMB then works. */
static int
writer_no_fds(uint16_t dev, const struct peer_opts *o)
{
	uint64_t errs = xstat("ism_shm0", "protocol_errors"), ret, tok;
	struct rlimit rl, low;
	int fd, r;

	/* The lowest free fd as the limit: nothing more can be opened. */
	fd = dup(1);
	if (fd < 0 || getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		fail("dup, getrlimit");
		return 0;
	}
	close(fd);
	low = rl;
	low.rlim_cur = fd;
	if (setrlimit(RLIMIT_NOFILE, &low) < 0) {
		fail("setrlimit");
		return 0;
	}
	r = rte_ism_signal_event(dev, &o->common.peers[0], 1, EV_NO_FDS, 0);
	if (r == 0)
		r = wait_sw(dev, EV_NO_FDS_RET, &o->common.peers[0], &ret, 60000);
	setrlimit(RLIMIT_NOFILE, &rl);
	if (r < 0) {
		fail("no answer from the owner: %d", r);
		return 0;
	}
	if (ret != ENOMEM || xstat("ism_shm0", "protocol_errors") != errs) {
		fail("owner's register got %d, protocol errors %" PRIu64
		     " -> %" PRIu64, -(int)ret, errs,
		     xstat("ism_shm0", "protocol_errors"));
		return 0;
	}
	if (rte_ism_signal_event(dev, &o->common.peers[0], 1, EV_FDS_BACK, 0) < 0 ||
	    wait_sw(dev, EV_TOKEN, &o->common.peers[0], &tok, 60000) < 0) {
		fail("no DMB once fds are back");
		return 0;
	}
	r = rte_ism_move_data(dev, tok, 0, 0, 0, &tok, sizeof(tok));
	if (r < 0)
		fail("move into the DMB registered after fds came back: %d", r);
	return r == 0;
}

int
grant_owner_main(uint16_t dev, const struct peer_opts *o)
{
	struct rte_ism_dmb *d = calloc(o->common.msgs, sizeof(*d));
	struct rte_ism_dmb x = { .token = 0 };
	struct rte_ism_event ev;
	struct rlimit rl;
	uint64_t i, got, bad = 0;
	int ret = 1;

	if (d == NULL)
		return 1;
	for (i = 0; i < o->common.msgs; i++) {
		d[i].len = 64;
		d[i].rgid = o->common.peers[0];
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
	say("OWNER %" PRIu64 " DMBs, fd limit %lu", o->common.msgs,
	    (unsigned long)rl.rlim_cur);
	if (wait_event(dev, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ENABLED,
		       &o->common.peers[0], &ev, 60000) < 0) {
		fail("the writer did not join");
		goto out;
	}
	for (i = 0; i < o->common.msgs; i++)
		if (rte_ism_signal_event(dev, &o->common.peers[0], 1, EV_TOKEN,
					 d[i].token) < 0) {
			fail("token %" PRIu64 " not delivered", i);
			goto out;
		}
	if (owner_no_fds(dev, o, &x) < 0)
		goto out;
	if (wait_sw(dev, EV_ALL_WRITTEN, &o->common.peers[0], &got, 60000) < 0) {
		fail("the writer did not finish");
		goto out;
	}
	for (i = 0; i < o->common.msgs; i++)
		bad += memcmp(d[i].addr, &d[i].token, sizeof(d[i].token)) != 0;
	bad += memcmp(x.addr, &x.token, sizeof(x.token)) != 0;
	say("WRITTEN %" PRIu64 " of %" PRIu64 ", %" PRIu64 " wrong", got,
	    o->common.msgs + 1, bad);
	ret = got == o->common.msgs + 1 && bad == 0 ? 0 : 1;
out:
	if (x.token != 0)
		rte_ism_dmb_unregister(dev, x.token);
	for (i = 0; i < o->common.msgs; i++)
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

	for (i = 0; i < o->common.msgs; i++) {
		if (wait_sw(dev, EV_TOKEN, &o->common.peers[0], &tok, 30000) < 0) {
			fail("token %" PRIu64 " missing", i);
			return 1;
		}
		r = rte_ism_move_data(dev, tok, 0, 0, 0, &tok, sizeof(tok));
		if (r == 0)
			ok++;
		else
			fail("move into DMB %" PRIu64 ": %d", i, r);
	}
	ok += writer_no_fds(dev, o);
	return rte_ism_signal_event(dev, &o->common.peers[0], 1, EV_ALL_WRITTEN, ok)
		< 0 || ok != o->common.msgs + 1;
}
