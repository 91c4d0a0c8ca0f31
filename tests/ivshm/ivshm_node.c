/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * A streaming node: registers one DMB per peer (written only by that
 * peer), tells the peer its token with a software event when the peer
 * comes up, then streams messages into the peer's DMB and checks what the
 * peer streams into its own.
 *
 * The messages and their checks: tests/lib/peer_stream.h (odd messages
 * through the attached mapping with --nocopy). Messages and answers carry
 * the receiver's session nonce (sent with the token): what a member
 * declared gone still wrote before it noticed is recognised as late and
 * counted, since it may write on for a moment as the same GID.
 *
 * A session is one lifetime of a peer. When a peer goes (its event), the
 * node checks that its token fails at once and cleanly, that its own DMB
 * for the peer is still its own, and waits for the peer to come back
 * (--survive K losses in total). When this node finds itself declared
 * gone (DEV_ERROR_STATE: it was frozen longer than the liveness timeout)
 * it registers new DMBs and goes on when the others take it up again.
 *
 * --tolerant (the victims of a scribbling member): anomalies are counted,
 * not fatal; the node must only go on, and finish when released.
 */

#include <stdlib.h>
#include <string.h>

#include "ivshm_peer.h"

/* Bits 0-19 of a token are zero on every backend (the ISM move_data
 * request encoding puts the offset there: token | idx << 24 | sf << 23 |
 * offset, Linux drivers/s390/net/ism.h): the EV_TOKEN event carries the
 * session nonce in them. */
#define NONCE_MASK	0xfffffu

struct node {
	struct stream s;
	const struct peer_opts *o;
	unsigned int losses;
	unsigned int expelled;
	bool release_sent;
};

static void
tell_token(struct node *n, struct stream_link *l)
{
	if (!l->up || l->rx.token == 0 || !l->token_due)
		return;
	l->token_due = false;
	/* The token's low bits are zero: they carry the session. */
	if (rte_ism_signal_event(n->s.dev, &l->gid, 1, EV_TOKEN,
				 l->rx.token | l->my_nonce) < 0)
		l->broken = true;
}

/* The peer (same GID) came up, or up again: a new session. */
static void
on_up(struct node *n, struct stream_link *l, const struct rte_ism_event *ev)
{
	if (rte_ism_query_remote_gid(n->s.dev, &l->gid, 0, 0) != 0)
		stream_bad(&n->s, "%s: up but not reachable", l->name);
	stream_up(l);
	l->my_nonce = (fx_rand(&n->s.seed) & NONCE_MASK) | 1;
	l->token_due = true;
	say("UP %s session %u at %" PRIu64, l->name, l->session, ev->time);
	tell_token(n, l);
}

static void
on_gone(struct node *n, struct stream_link *l, const struct rte_ism_event *ev)
{
	int r;
	/* Gone because this device was expelled (its DEV_ERROR_STATE event
	 * comes after the peers' DEV_DISABLED ones, its counter before):
	 * it joins again at once, so the peer may be reachable again, and
	 * its DMB for us valid again, before we see this event. */
	bool self = xstat(n->s.dev, "expulsions") > n->expelled;

	if (!self && rte_ism_query_remote_gid(n->s.dev, &l->gid, 0, 0) !=
	    -ENETUNREACH)
		stream_bad(&n->s, "%s: gone but still reachable", l->name);
	l->up = false;
	/* Gone after the release: nobody to release there any more. */
	if (released())
		l->released = true;
	/* Gone after both said DONE: the end of the run, not a loss. */
	if (l->done_sent && l->done_rcvd) {
		say("GONE %s at %" PRIu64 " after the end", l->name, ev->time);
		return;
	}
	if (++n->losses > n->o->common.survive)
		stream_bad(&n->s, "%s: peer lost unexpectedly", l->name);
	if (!l->user_disabled_seen && l->rx.token != 0)
		stream_bad(&n->s, "%s: no BUF event for our DMB before the DEV "
			   "event", l->name);
	/* Its token fails at once, without a fault (also if the peer's
	 * DMB was reported unregistered just before). */
	r = stream_gone(&n->s, l, self ? 0 : l->tx != 0 ? l->tx : l->dead_tx);
	say("GONE %s at %" PRIu64 " move %d session %u rcvd %" PRIu64
	    " sent %" PRIu64, l->name, ev->time, r, l->session, l->rcvd,
	    l->sent);
	stream_forget_tx(l);
}

static void
handle_event(void *ctx, const struct rte_ism_event *ev)
{
	struct node *n = ctx;
	struct rte_ism_dev_info info;
	struct stream_link *l = stream_link_of_gid(&n->s, &ev->gid);
	unsigned int i;

	if (ev->type == RTE_ISM_EVENT_SW && ev->code == EV_RELEASE) {
		release_now();
		return;
	}
	rte_ism_info_get(n->s.dev, &info);
	if (ev->type == RTE_ISM_EVENT_DEV && ev->code ==
	    RTE_ISM_DEV_ERROR_STATE && rte_ism_gid_equal(&ev->gid, &info.gid)) {
		/* Declared gone while we did not run: our DMBs are revoked. */
		n->expelled++;
		say("EXPELLED %u at %" PRIu64, n->expelled, ev->time);
		for (i = 0; i < n->s.nb; i++)
			n->s.links[i].rx_stale = true;
		return;
	}
	if (l == NULL)
		return;
	switch (ev->type) {
	case RTE_ISM_EVENT_DEV:
		if (ev->code == RTE_ISM_DEV_ENABLED)
			on_up(n, l, ev);
		else if (ev->code == RTE_ISM_DEV_DISABLED)
			on_gone(n, l, ev);
		break;
	case RTE_ISM_EVENT_BUF:
		if (ev->code == RTE_ISM_BUF_USER_DISABLED &&
		    ev->token == l->rx.token)
			l->user_disabled_seen = true;
		if (ev->code == RTE_ISM_BUF_UNREGISTERED && ev->token == l->tx) {
			/* The peer revoked it (it was declared gone); a new
			 * token comes when it is back. */
			stream_unmap_tx(&n->s, l);
			l->dead_tx = l->tx;
			l->tx = 0;
		}
		break;
	case RTE_ISM_EVENT_SW:
		if (ev->code == EV_TOKEN)
			stream_on_token(&n->s, l,
					ev->info & ~(uint64_t)NONCE_MASK,
					ev->info & NONCE_MASK);
		else if (ev->code == EV_DONE)
			stream_on_done(&n->s, l, ev->info);
		break;
	default:
		break;
	}
}

/* A revoked DMB (we were declared gone): a new one, once we are back. */
static void
renew_rx(struct node *n, struct stream_link *l)
{
	int ret;

	if (!l->rx_stale || now_ns() < l->renew_ns)
		return;
	/* While the device joins again, registrations fail: not too often. */
	l->renew_ns = now_ns() + 10000000ULL;
	if (l->rx.token != 0) {
		ret = rte_ism_dmb_unregister(n->s.dev, l->rx.token);
		if (ret < 0)
			stream_bad(&n->s, "%s: unregister of a revoked DMB: %d",
				   l->name, ret);
		memset(&l->rx, 0, sizeof(l->rx));
	}
	ret = stream_reg(&n->s, l);
	if (ret == -EAGAIN)
		return;
	if (ret < 0) {
		n->s.failed = 1;
		return;
	}
	l->rx_stale = false;
	l->token_due = true;
	tell_token(n, l);
}

static bool
finished(void *ctx)
{
	struct node *n = ctx;
	unsigned int i;

	if (!released())
		return false;
	/* A tolerant coordinator goes once every peer has its release. */
	if (n->o->tolerant)
		return !n->o->common.hold || n->release_sent;
	for (i = 0; i < n->s.nb; i++)
		if (!n->s.links[i].done_sent || !n->s.links[i].done_rcvd)
			return false;
	return true;
}

/* The coordinator (--hold) releases the guests (--hold-event): each peer
 * once it is up (it may be joining again after a disturbance). */
static void
release_peers(void *ctx)
{
	struct node *n = ctx;
	unsigned int i, done = 0;
	struct stream_link *l;

	if (!n->o->common.hold || !released() || n->release_sent)
		return;
	for (i = 0; i < n->s.nb; i++) {
		l = &n->s.links[i];
		/* A tolerant coordinator does not wait for a peer that is
		 * out (it left, or is rejoining after scribbling): its peers
		 * finish on their own release, unless --release-all (a guest
		 * that waits for our EV_RELEASE). */
		if (!l->released && !l->up && n->o->tolerant &&
		    !n->o->release_all)
			l->released = true;
		if (!l->released && l->up &&
		    rte_ism_signal_event(n->s.dev, &l->gid, 1, EV_RELEASE,
					 0) == 0)
			l->released = true;
		done += l->released;
	}
	n->release_sent = done == n->s.nb;
}

static bool
serve(void *ctx, struct stream_link *l)
{
	struct node *n = ctx;

	renew_rx(n, l);
	return stream_serve(&n->s, l, !released() ? UINT64_MAX :
			    n->o->common.msgs, EV_DONE);
}

int
node_main(uint16_t dev, const struct peer_opts *o)
{
	struct node *n = calloc(1, sizeof(*n));
	int ret = 1;

	if (n == NULL)
		return 1;
	n->o = o;
	n->s = (struct stream){ .dev = dev, .dmb_len = DMB_LEN,
		.payload_max = PAYLOAD_MAX, .nocopy = o->common.nocopy,
		.tolerant = o->tolerant, .gone_writes = true,
		.seed = o->common.seed };
	if (stream_open(&n->s, o->common.peers, o->common.nb_peers) < 0)
		goto out;
	ret = stream_run(&n->s, &(struct stream_hooks){
		.finished = finished, .on_event = handle_event,
		.tick = release_peers, .serve = serve, .stalled = stalled,
		.skip = -1 }, n, o->deadline_s);
	if (!o->tolerant && ret == 0 && n->losses != o->common.survive) {
		fail("%u peer losses, expected %u", n->losses, o->common.survive);
		ret = 1;
	}
	stream_report(&n->s);
	if (o->tolerant)
		say("SURVIVED anomalies %" PRIu64 " protocol_errors %" PRIu64
		    " expulsions %" PRIu64 " events_dropped %" PRIu64,
		    n->s.anomalies, xstat(dev, "protocol_errors"),
		    xstat(dev, "expulsions"), xstat(dev, "events_dropped"));
out:
	if (stream_close(&n->s) > 0 && !o->tolerant)
		ret = 1;
	free(n);
	return ret;
}
