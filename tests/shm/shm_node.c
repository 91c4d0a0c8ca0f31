/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * An honest node: registers one DMB per peer (written only by that peer),
 * tells the peer its token with a software event, then streams checked
 * messages into each peer's DMB and checks what the peers stream into its
 * own (tests/lib/peer_stream.h).
 *
 * With --nocopy the payload of odd messages is written through a mapping
 * of the peer's DMB (rte_ism_dmb_attach) instead of moves; the mapping of a
 * peer that died must stay usable until detach.
 *
 * A session is one lifetime of a peer; with --survive K the node accepts
 * K peer deaths: it checks the events and that the dead peer's token
 * fails, and starts a new session when the peer (same GID) comes back.
 *
 * With --hold the node streams without end until the driver releases it,
 * then finishes the current message and says DONE.
 */

#include <stdlib.h>
#include <string.h>

#include "shm_peer.h"

#define DEADLINE_S	150

struct node {
	struct stream s;
	const struct peer_opts *o;
	unsigned int losses;
	/* victim side of the rogue test */
	struct rte_ism_dmb grant;
	bool rogue_done;
	uint64_t rogue_violations;
	bool bye_race;			/* ping the fake GID when it joins */
};

static int
reg(uint16_t dev, const struct rte_ism_gid *rgid, struct rte_ism_dmb *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->len = DMB_LEN;
	d->rgid = *rgid;
	ret = rte_ism_dmb_register(dev, d);
	if (ret < 0)
		fail("register: %s", strerror(-ret));
	return ret;
}

/* The peer (same GID) joined, or joined again: a new session. */
static void
on_up(struct node *n, struct stream_link *l)
{
	/* It cannot have left yet: it waits for our token, sent below. */
	if (rte_ism_query_remote_gid(n->s.dev, &l->gid, 0, 0) != 0) {
		fail("%s: joined but not reachable", l->name);
		n->s.failed = 1;
	}
	stream_up(l);
	l->fd_marked = false;
	if (rte_ism_signal_event(n->s.dev, &l->gid, 1, EV_TOKEN,
				 l->rx.token) < 0)
		l->broken = true;
}

static void
on_lost(struct node *n, struct stream_link *l, const struct rte_ism_event *ev)
{
	int r;

	/* The driver restarts a killed peer only after our LOST line. */
	if (rte_ism_query_remote_gid(n->s.dev, &l->gid, 0, 0) !=
	    -ENETUNREACH) {
		fail("%s: gone but still reachable", l->name);
		n->s.failed = 1;
	}
	if (l->done_sent && l->done_rcvd)
		return;		/* finished and gone: fine */
	if (n->losses == n->o->common.survive) {
		fail("%s: peer lost unexpectedly", l->name);
		n->s.failed = 1;
		return;
	}
	n->losses++;
	if (!l->user_disabled_seen) {
		fail("%s: no BUF event for our DMB before the DEV event",
		     l->name);
		n->s.failed = 1;
	}
	r = stream_gone(&n->s, l, l->tx);
	say("LOST %s at %" PRIu64 " move %d fds %d session %u rcvd %" PRIu64
	    " sent %" PRIu64, l->name, ev->time, r, count_fds(), l->session,
	    l->rcvd, l->sent);
	l->up = false;
	stream_forget_tx(l);
}

static void
victim_event(struct node *n, const struct rte_ism_event *ev)
{
	struct rte_ism_gid fake;
	int ret;

	if (!n->o->has_rogue)
		return;
	fake = fake_gid(&n->o->rogue);
	if (n->bye_race && ev->type == RTE_ISM_EVENT_DEV &&
	    ev->code == RTE_ISM_DEV_ENABLED &&
	    rte_ism_gid_equal(&ev->gid, &fake)) {
		/* It answers and leaves at once: the answer must count. */
		n->bye_race = false;
		ret = rte_ism_signal_event(n->s.dev, &fake, 1, EV_PING, 0);
		say("BYE_RACE %d", ret);
		if (ret != 0) {
			fail("signal_event to a peer that answered: %d", ret);
			n->s.failed = 1;
		}
	}
	if (!rte_ism_gid_equal(&ev->gid, &n->o->rogue))
		return;
	if (ev->type == RTE_ISM_EVENT_DEV && ev->code == RTE_ISM_DEV_ENABLED) {
		/* Hand the rogue a token it may not use, and one it may. */
		rte_ism_signal_event(n->s.dev, &n->o->rogue, 1, EV_LEAK,
				     n->s.links[0].rx.token);
		rte_ism_signal_event(n->s.dev, &n->o->rogue, 1, EV_GRANT,
				     n->grant.token);
	} else if (ev->type == RTE_ISM_EVENT_SW && ev->code == EV_GRANT_OK) {
		ret = rte_ism_dmb_unregister(n->s.dev, n->grant.token);
		say("GRANT_REVOKED %d", ret);
		if (ret == 0)
			n->grant.token = 0;
	} else if (ev->type == RTE_ISM_EVENT_SW && ev->code == EV_BYE_RACE) {
		n->bye_race = true;
	} else if (ev->type == RTE_ISM_EVENT_SW && ev->code == EV_ROGUE_DONE) {
		n->rogue_done = true;
		n->rogue_violations = ev->info;
	}
}

static void
handle_event(void *ctx, const struct rte_ism_event *ev)
{
	struct node *n = ctx;
	struct stream_link *l = stream_link_of_gid(&n->s, &ev->gid);

	victim_event(n, ev);
	if (l == NULL)
		return;
	switch (ev->type) {
	case RTE_ISM_EVENT_DEV:
		if (ev->code == RTE_ISM_DEV_ENABLED)
			on_up(n, l);
		else if (ev->code == RTE_ISM_DEV_DISABLED)
			on_lost(n, l, ev);
		break;
	case RTE_ISM_EVENT_BUF:
		if (ev->code == RTE_ISM_BUF_USER_DISABLED &&
		    ev->token == l->rx.token)
			l->user_disabled_seen = true;
		break;
	case RTE_ISM_EVENT_SW:
		if (ev->code == EV_TOKEN)
			stream_on_token(&n->s, l, ev->info, 0);
		else if (ev->code == EV_DONE)
			stream_on_done(&n->s, l, ev->info);
		break;
	default:
		break;
	}
}

/* A link's turn: stream, then the FDS line once enough went through. */
static bool
serve(void *ctx, struct stream_link *l)
{
	struct node *n = ctx;
	const struct peer_opts *o = n->o;
	uint64_t goal = !o->send ? 0 : !released() ? UINT64_MAX :
		l->session == 1 ? o->msgs_first : o->common.msgs;
	bool busy = stream_serve(&n->s, l, goal, EV_DONE);

	if (!l->fd_marked && l->rcvd + l->acked >= o->fd_mark) {
		l->fd_marked = true;
		say("FDS session %u %d", l->session, count_fds());
	}
	return busy;
}

static bool
finished(void *ctx)
{
	struct node *n = ctx;
	unsigned int i;

	if (!released())
		return false;
	for (i = 0; i < n->s.nb; i++)
		if (!n->s.links[i].done_sent || !n->s.links[i].done_rcvd)
			return false;
	return !n->o->has_rogue || n->rogue_done;
}

int
node_main(uint16_t dev, const struct peer_opts *o)
{
	struct node *n = calloc(1, sizeof(*n));
	int ret = 1;

	if (n == NULL)
		return 1;
	n->s = (struct stream){ .dev = dev, .dmb_len = DMB_LEN,
		.payload_max = PAYLOAD_MAX, .nocopy = o->common.nocopy,
		.seed = o->common.seed };
	n->o = o;
	if (stream_open(&n->s, o->common.peers, o->common.nb_peers) < 0)
		goto out;
	if (o->has_rogue && reg(dev, &o->rogue, &n->grant) < 0)
		goto out;
	ret = stream_run(&n->s, &(struct stream_hooks){
		.finished = finished, .on_event = handle_event, .serve = serve,
		/* The rogue may signal the DMB we grant it. */
		.skip = o->has_rogue ? (int64_t)n->grant.idx : -1,
		}, n, DEADLINE_S);
	if (ret == 0 && n->losses != o->common.survive) {
		fail("%u peer losses, expected %u", n->losses, o->common.survive);
		ret = 1;
	}
	stream_report(&n->s);
	if (o->has_rogue)
		say("PROTOCOL_ERRORS %" PRIu64 " rogue_violations %" PRIu64,
		    xstat("ism_shm0", "protocol_errors"), n->rogue_violations);
out:
	if (stream_close(&n->s) > 0)
		ret = 1;
	if (n->grant.token != 0)
		rte_ism_dmb_unregister(dev, n->grant.token);
	free(n);
	return ret;
}
