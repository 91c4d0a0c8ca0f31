/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * A streaming node: registers one DMB per peer (written only by that
 * peer), tells the peer its token with a software event when the peer
 * comes up, then streams messages into the peer's DMB and checks what the
 * peer streams into its own.
 *
 * A message is a random payload written by moves of random sizes (odd
 * messages through the attached mapping with --nocopy), then its header
 * (sequence, length, CRC32C) with the data signal. The receiver checks it
 * and answers with a move + signal of the sequence into the sender's DMB;
 * the sender sends the next one only then. So every signal is exactly one
 * new message or answer: a signal seen twice, one without news, or a lost
 * one (the stream stalls until the deadline) fails the run. Messages and
 * answers carry the receiver's session nonce (sent with the token): what a
 * member declared gone still wrote before it noticed is recognised as late
 * and counted, since it may write on for a moment as the same GID. While waiting
 * for an answer the sender keeps moving into a scratch area of the peer's
 * DMB, so moves are running when a peer dies.
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
#include <unistd.h>

#include "ivshm_peer.h"

/* Bits 0-19 of a token are zero on every backend (the ISM move_data
 * request encoding puts the offset there: token | idx << 24 | sf << 23 |
 * offset, Linux drivers/s390/net/ism.h): the EV_TOKEN event carries the
 * session nonce in them. */
#define NONCE_MASK	0xfffffu

struct link {
	struct rte_ism_gid gid;
	char name[RTE_ISM_GID_STRLEN];
	struct rte_ism_dmb rx;		/* mine, written by the peer */
	uint64_t tx;			/* the peer's DMB for me */
	uint64_t dead_tx;		/* the same, reported unregistered */
	bool up;
	bool rx_stale;			/* revoked: register a new one */
	uint64_t renew_ns;		/* next try */
	bool token_due;			/* tell the peer rx's token */
	bool user_disabled_seen;	/* BUF event for rx since last up */
	unsigned int session;
	uint32_t my_nonce;		/* this session's, told with the token */
	uint32_t peer_nonce;		/* the peer's, from its token event */
	uint64_t sent, acked, rcvd, total, late;
	uint32_t ack_pending;
	bool done_sent, done_rcvd;
	bool released;			/* EV_RELEASE delivered */
	bool broken;			/* a move failed: loss expected */
	uint8_t *payload;
	uint8_t *map;			/* nocopy mapping of tx */
	uint64_t map_token;
};

struct node {
	uint16_t dev;
	const struct peer_opts *o;
	struct link links[MAX_PEERS];
	unsigned int nb;
	unsigned int losses;
	uint64_t seed;
	uint64_t anomalies;
	unsigned int expelled;
	bool release_sent;
	int failed;
};

/* Fail, or count in tolerant mode. */
#define bad(n, ...) do { \
	if ((n)->o->tolerant) { \
		(n)->anomalies++; \
	} else { \
		fail(__VA_ARGS__); \
		(n)->failed = 1; \
	} \
} while (0)

static struct link *
link_of_gid(struct node *n, const struct rte_ism_gid *gid)
{
	unsigned int i;

	for (i = 0; i < n->nb; i++)
		if (rte_ism_gid_equal(&n->links[i].gid, gid))
			return &n->links[i];
	return NULL;
}

static struct link *
link_of_idx(struct node *n, uint32_t idx)
{
	unsigned int i;

	for (i = 0; i < n->nb; i++)
		if (n->links[i].rx.token != 0 && n->links[i].rx.idx == idx)
			return &n->links[i];
	return NULL;
}

/* 0, -EAGAIN (out of the fabric just now), or another error. */
static int
reg(struct node *n, struct link *l)
{
	int ret;

	memset(&l->rx, 0, sizeof(l->rx));
	l->rx.len = DMB_LEN;
	l->rx.rgid = l->gid;
	ret = rte_ism_dmb_register(n->dev, &l->rx);
	if (ret < 0) {
		memset(&l->rx, 0, sizeof(l->rx));
		if (ret != -EAGAIN)
			fail("%s: register: %s", l->name, strerror(-ret));
	}
	return ret;
}

static void
send_answer(struct node *n, struct link *l)
{
	uint32_t ack[2] = { l->ack_pending, l->peer_nonce };

	if (ack[0] == 0 || l->tx == 0)
		return;
	if (rte_ism_move_data(n->dev, l->tx, ELEM_ACK, 1, OFF_ACK, ack,
			      sizeof(ack)) < 0)
		l->broken = true;
	l->ack_pending = 0;
}

static void
on_data(struct node *n, struct link *l)
{
	const uint8_t *base = l->rx.addr;
	struct msg_hdr h;

	memcpy(&h, base + OFF_HDR, sizeof(h));
	if (h.session != l->my_nonce) {
		/* Written in an earlier session: a member declared gone
		 * writes on until it notices (it is still that GID). */
		l->late++;
		return;
	}
	if (h.seq != l->rcvd + 1 || h.len == 0 || h.len > PAYLOAD_MAX) {
		bad(n, "%s: data signal with seq %u len %u, expected seq %"
		    PRIu64 " (duplicate, spurious or lost signal)", l->name,
		    h.seq, h.len, l->rcvd + 1);
		return;
	}
	if (fx_crc(base + OFF_PAYLOAD, h.len) != h.crc) {
		bad(n, "%s: message %u: checksum mismatch", l->name, h.seq);
		return;
	}
	l->rcvd = h.seq;
	l->total++;
	l->ack_pending = h.seq;
	send_answer(n, l);
}

static void
on_ack(struct node *n, struct link *l)
{
	uint32_t ack[2], a;

	memcpy(ack, (uint8_t *)l->rx.addr + OFF_ACK, sizeof(ack));
	a = ack[0];
	if (ack[1] != l->my_nonce) {
		l->late++;
		return;
	}
	if (a != l->sent || l->acked == l->sent) {
		bad(n, "%s: answer signal for %u, sent %" PRIu64 " acked %"
		    PRIu64 " (duplicate or spurious signal)", l->name, a,
		    l->sent, l->acked);
		return;
	}
	l->acked = a;
}

static void
send_msg(struct node *n, struct link *l)
{
	struct msg_hdr h;
	uint32_t off, piece;
	int ret = 0;

	h.seq = l->sent + 1;
	h.len = 1 + fx_rand(&n->seed) % PAYLOAD_MAX;
	h.session = l->peer_nonce;
	for (off = 0; off < h.len; off++)
		l->payload[off] = fx_rand(&n->seed);
	h.crc = fx_crc(l->payload, h.len);
	off = 0;
	if (l->map != NULL && (h.seq & 1)) {
		memcpy(l->map + OFF_PAYLOAD, l->payload, h.len);
		off = h.len;	/* visible with the header's signal */
	}
	for (; off < h.len && ret == 0; off += piece) {
		piece = 1 + fx_rand(&n->seed) % (h.len - off);
		ret = rte_ism_move_data(n->dev, l->tx, 0, 0, OFF_PAYLOAD + off,
				l->payload + off, piece);
	}
	if (ret == 0)
		ret = rte_ism_move_data(n->dev, l->tx, ELEM_DATA, 1, OFF_HDR,
				&h, sizeof(h));
	if (ret < 0) {
		l->broken = true;
		return;
	}
	l->sent = h.seq;
}

/* Drop the nocopy mapping; it must still be valid until detach. */
static void
unmap_tx(struct node *n, struct link *l)
{
	int ret;

	if (l->map == NULL)
		return;
	memset(l->map + OFF_SCRATCH, 0x5a, 4096);
	ret = rte_ism_dmb_detach(n->dev, l->map_token);
	if (ret < 0)
		bad(n, "%s: detach: %s", l->name, strerror(-ret));
	l->map = NULL;
	l->map_token = 0;
}

static void
map_tx(struct node *n, struct link *l)
{
	struct rte_ism_dmb m;
	int ret;

	unmap_tx(n, l);
	if (!n->o->nocopy)
		return;
	ret = rte_ism_dmb_attach(n->dev, l->tx, &m);
	if (ret < 0 || m.len != DMB_LEN) {
		bad(n, "%s: attach: %d", l->name, ret);
		return;
	}
	l->map = m.addr;
	l->map_token = l->tx;
}

static void
tell_token(struct node *n, struct link *l)
{
	if (!l->up || l->rx.token == 0 || !l->token_due)
		return;
	l->token_due = false;
	/* The token's low bits are zero: they carry the session. */
	if (rte_ism_signal_event(n->dev, &l->gid, 1, EV_TOKEN,
				 l->rx.token | l->my_nonce) < 0)
		l->broken = true;
}

/* The peer (same GID) came up, or up again: a new session. */
static void
on_up(struct node *n, struct link *l, const struct rte_ism_event *ev)
{
	if (rte_ism_query_remote_gid(n->dev, &l->gid, 0, 0) != 0)
		bad(n, "%s: up but not reachable", l->name);
	l->up = true;
	l->user_disabled_seen = false;
	l->broken = false;
	l->rcvd = 0;
	l->done_rcvd = false;
	l->session++;
	l->my_nonce = (fx_rand(&n->seed) & NONCE_MASK) | 1;
	l->token_due = true;
	say("UP %s session %u at %" PRIu64, l->name, l->session, ev->time);
	tell_token(n, l);
}

static void
on_gone(struct node *n, struct link *l, const struct rte_ism_event *ev)
{
	char scratch[64] = { 0 };
	int r = 0;
	uint64_t tx = l->tx != 0 ? l->tx : l->dead_tx;
	/* Gone because this device was expelled (its DEV_ERROR_STATE event
	 * comes after the peers' DEV_DISABLED ones, its counter before):
	 * it joins again at once, so the peer may be reachable again, and
	 * its DMB for us valid again, before we see this event. */
	bool self = xstat(n->dev, "expulsions") > n->expelled;

	if (!self &&
	    rte_ism_query_remote_gid(n->dev, &l->gid, 0, 0) != -ENETUNREACH)
		bad(n, "%s: gone but still reachable", l->name);
	l->up = false;
	/* Gone after the release: nobody to release there any more. */
	if (released())
		l->released = true;
	/* Gone after both said DONE: the end of the run, not a loss. */
	if (l->done_sent && l->done_rcvd) {
		say("GONE %s at %" PRIu64 " after the end", l->name, ev->time);
		return;
	}
	if (++n->losses > n->o->survive)
		bad(n, "%s: peer lost unexpectedly", l->name);
	if (!l->user_disabled_seen && l->rx.token != 0)
		bad(n, "%s: no BUF event for our DMB before the DEV event",
		    l->name);
	/* Its token fails at once, without a fault (also if the peer's
	 * DMB was reported unregistered just before). */
	if (tx != 0 && !self) {
		r = rte_ism_move_data(n->dev, tx, 0, 0, OFF_SCRATCH, scratch,
				sizeof(scratch));
		if (r == 0)
			bad(n, "%s: move to a gone peer's DMB succeeded",
			    l->name);
	}
	/* Our DMB for it stays ours; our mapping of its DMB is valid until
	 * we detach. */
	if (l->rx.token != 0)
		memset((uint8_t *)l->rx.addr + OFF_SCRATCH, 0xee, 4096);
	unmap_tx(n, l);
	say("GONE %s at %" PRIu64 " move %d session %u rcvd %" PRIu64
	    " sent %" PRIu64, l->name, ev->time, r, l->session, l->rcvd,
	    l->sent);
	l->tx = 0;
	l->dead_tx = 0;
	l->sent = l->acked = 0;
	l->ack_pending = 0;
	l->done_sent = false;
}

static void
handle_event(struct node *n, const struct rte_ism_event *ev)
{
	struct rte_ism_dev_info info;
	struct link *l = link_of_gid(n, &ev->gid);
	unsigned int i;

	if (ev->type == RTE_ISM_EVENT_SW && ev->code == EV_RELEASE) {
		release_now();
		return;
	}
	rte_ism_info_get(n->dev, &info);
	if (ev->type == RTE_ISM_EVENT_DEV && ev->code ==
	    RTE_ISM_DEV_ERROR_STATE && rte_ism_gid_equal(&ev->gid, &info.gid)) {
		/* Declared gone while we did not run: our DMBs are revoked. */
		n->expelled++;
		say("EXPELLED %u at %" PRIu64, n->expelled, ev->time);
		for (i = 0; i < n->nb; i++)
			n->links[i].rx_stale = true;
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
			unmap_tx(n, l);
			l->dead_tx = l->tx;
			l->tx = 0;
		}
		break;
	case RTE_ISM_EVENT_SW:
		if (ev->code == EV_TOKEN) {
			l->tx = ev->info & ~(uint64_t)NONCE_MASK;
			l->peer_nonce = ev->info & NONCE_MASK;
			l->sent = l->acked = 0;
			l->done_sent = false;
			l->broken = false;
			map_tx(n, l);
			send_answer(n, l);
		} else if (ev->code == EV_DONE) {
			l->done_rcvd = true;
			if (ev->info != l->rcvd)
				bad(n, "%s: peer sent %" PRIu64 " messages, we "
				    "got %" PRIu64, l->name, ev->info,
				    l->rcvd);
		}
		break;
	default:
		break;
	}
}

/* A revoked DMB (we were declared gone): a new one, once we are back. */
static void
renew_rx(struct node *n, struct link *l)
{
	int ret;

	if (!l->rx_stale || now_ns() < l->renew_ns)
		return;
	/* While the device joins again, registrations fail: not too often. */
	l->renew_ns = now_ns() + 10000000ULL;
	if (l->rx.token != 0) {
		ret = rte_ism_dmb_unregister(n->dev, l->rx.token);
		if (ret < 0)
			bad(n, "%s: unregister of a revoked DMB: %d", l->name,
			    ret);
		memset(&l->rx, 0, sizeof(l->rx));
	}
	ret = reg(n, l);
	if (ret == -EAGAIN)
		return;
	if (ret < 0) {
		n->failed = 1;
		return;
	}
	l->rx_stale = false;
	l->token_due = true;
	tell_token(n, l);
}

static bool
serve_link(struct node *n, struct link *l)
{
	uint8_t filler[4096] = { 0 };
	uint64_t goal = !released() ? UINT64_MAX : n->o->msgs;
	int ret;

	renew_rx(n, l);
	if (!l->up || l->tx == 0 || l->broken)
		return false;
	if (l->sent == l->acked && l->sent < goal) {
		send_msg(n, l);
		return true;
	}
	if (l->sent != l->acked) {
		ret = rte_ism_move_data(n->dev, l->tx, 0, 0, OFF_SCRATCH +
				(l->sent % 8) * sizeof(filler), filler,
				sizeof(filler));
		if (ret < 0)
			l->broken = true;
		return false;
	}
	if (!l->done_sent) {
		ret = rte_ism_signal_event(n->dev, &l->gid, 1, EV_DONE,
				l->sent);
		if (ret < 0)
			l->broken = true;
		else
			l->done_sent = true;
		return true;
	}
	return false;
}

static bool
finished(struct node *n)
{
	unsigned int i;

	if (!released())
		return false;
	/* A tolerant coordinator goes once every peer has its release. */
	if (n->o->tolerant)
		return !n->o->hold || n->release_sent;
	for (i = 0; i < n->nb; i++)
		if (!n->links[i].done_sent || !n->links[i].done_rcvd)
			return false;
	return true;
}

/* The coordinator (--hold) releases the guests (--hold-event): each peer
 * once it is up (it may be joining again after a disturbance). */
static void
release_peers(struct node *n)
{
	unsigned int i, done = 0;
	struct link *l;

	if (!n->o->hold || !released() || n->release_sent)
		return;
	for (i = 0; i < n->nb; i++) {
		l = &n->links[i];
		/* A tolerant coordinator does not wait for a peer that is
		 * out (it left, or is rejoining after scribbling): its peers
		 * finish on their own release, unless --release-all (a guest
		 * that waits for our EV_RELEASE). */
		if (!l->released && !l->up && n->o->tolerant &&
		    !n->o->release_all)
			l->released = true;
		if (!l->released && l->up &&
		    rte_ism_signal_event(n->dev, &l->gid, 1, EV_RELEASE,
					 0) == 0)
			l->released = true;
		done += l->released;
	}
	n->release_sent = done == n->nb;
}

static void
poll_signals(struct node *n)
{
	struct rte_ism_signal sig[32];
	struct link *l;
	int k, got;

	got = rte_ism_signal_poll(n->dev, sig, RTE_DIM(sig));
	for (k = 0; k < got; k++) {
		l = link_of_idx(n, sig[k].dmb_idx);
		if (l != NULL && !l->up) {
			l->late++;	/* its writer was declared gone */
			continue;
		}
		if (l == NULL) {
			bad(n, "signal for DMB %u we do not own",
			    sig[k].dmb_idx);
			continue;
		}
		if (sig[k].mask & RTE_BIT32(ELEM_DATA))
			on_data(n, l);
		if (sig[k].mask & RTE_BIT32(ELEM_ACK))
			on_ack(n, l);
	}
}

static int
run(struct node *n)
{
	uint64_t end = now_ns() + n->o->deadline_s * 1000000000ULL, last = 0;
	struct rte_ism_event ev;
	unsigned int i, spins = 0;
	bool busy;

	while (!finished(n) && !n->failed) {
		if (now_ns() > end) {
			fail("not finished after %u s", n->o->deadline_s);
			return 1;
		}
		if (stalled()) {
			say("STALLED");
			while (stalled())
				usleep(1000);
			say("UNSTALLED");
			/* The deadline does not count the stall. */
			end = now_ns() + n->o->deadline_s * 1000000000ULL;
		}
		busy = false;
		while (rte_ism_event_poll(n->dev, &ev, 1) == 1) {
			handle_event(n, &ev);
			busy = true;
		}
		poll_signals(n);
		release_peers(n);
		for (i = 0; i < n->nb; i++)
			busy |= serve_link(n, &n->links[i]);
		if (now_ns() - last > 1000000000ULL) {
			last = now_ns();
			for (i = 0; i < n->nb; i++)
				say("PROGRESS %s session %u rcvd %" PRIu64
				    " acked %" PRIu64, n->links[i].name,
				    n->links[i].session, n->links[i].rcvd,
				    n->links[i].acked);
		}
		if (!busy)
			idle(&spins);
	}
	return n->failed;
}

int
node_main(uint16_t dev, const struct peer_opts *o)
{
	struct node *n = calloc(1, sizeof(*n));
	struct link *l;
	unsigned int i;
	int ret = 1;

	if (n == NULL)
		return 1;
	n->dev = dev;
	n->o = o;
	n->seed = o->seed;
	n->nb = o->nb_peers;
	for (i = 0; i < n->nb; i++) {
		l = &n->links[i];
		l->gid = o->peers[i];
		gid_str(&l->gid, l->name);
		l->payload = malloc(PAYLOAD_MAX);
		if (l->payload == NULL || reg(n, l) < 0)
			goto out;
	}
	ret = run(n);
	if (!o->tolerant && ret == 0 && n->losses != o->survive) {
		fail("%u peer losses, expected %u", n->losses, o->survive);
		ret = 1;
	}
	for (i = 0; i < n->nb; i++)
		say("STREAM %s sessions %u rcvd %" PRIu64 " acked %" PRIu64
		    " total %" PRIu64 " late %" PRIu64, n->links[i].name,
		    n->links[i].session, n->links[i].rcvd, n->links[i].acked,
		    n->links[i].total, n->links[i].late);
	if (o->tolerant)
		say("SURVIVED anomalies %" PRIu64 " protocol_errors %" PRIu64
		    " expulsions %" PRIu64, n->anomalies,
		    xstat(dev, "protocol_errors"), xstat(dev, "expulsions"));
out:
	for (i = 0; i < n->nb; i++) {
		l = &n->links[i];
		unmap_tx(n, l);
		if (l->rx.token != 0 &&
		    rte_ism_dmb_unregister(dev, l->rx.token) < 0 &&
		    !o->tolerant)
			ret = 1;
		free(l->payload);
	}
	free(n);
	return ret;
}
