/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * An honest node: registers one DMB per peer (written only by that peer),
 * tells the peer its token with a software event, then streams messages
 * into each peer's DMB and checks what the peers stream into its own.
 *
 * A message is a random payload written by several moves of random sizes,
 * then its header (sequence number, length, CRC32C) with the signal. The
 * receiver checks the header and checksum when the signal arrives, then
 * answers with its own move + signal into the sender's DMB; the sender
 * sends the next message only then. So every signal corresponds to exactly
 * one new message or answer: a signal seen twice, or one without news,
 * or a lost one (the stream stalls) fails the run. While waiting for an
 * answer the sender keeps moving into a scratch area of the peer's DMB,
 * so moves are running whenever a peer dies.
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

struct link {
	struct rte_ism_gid gid;
	char name[RTE_ISM_GID_STRLEN];
	struct rte_ism_dmb rx;		/* mine, written by the peer */
	uint64_t tx;			/* the peer's DMB for me */
	bool up;
	bool user_disabled_seen;	/* BUF event for rx since last up */
	unsigned int session;
	uint64_t sent, acked, rcvd;
	uint32_t ack_pending;		/* to answer once tx is known */
	bool done_sent, done_rcvd;
	bool fd_marked;
	bool broken;			/* a move failed: loss expected */
	uint8_t *payload;
	uint8_t *map;			/* nocopy mapping of tx */
	uint64_t map_token;
};

struct node {
	uint16_t dev;
	const struct peer_opts *o;
	struct link links[4];
	unsigned int nb;
	unsigned int losses;
	uint64_t seed;
	int failed;
	/* victim side of the rogue test */
	struct rte_ism_dmb grant;
	bool rogue_done;
	uint64_t rogue_violations;
	bool bye_race;			/* ping the fake GID when it joins */
};

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
		if (n->links[i].rx.idx == idx)
			return &n->links[i];
	return NULL;
}

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

static void
send_answer(struct node *n, struct link *l)
{
	uint32_t seq = l->ack_pending;
	int ret;

	if (seq == 0 || l->tx == 0)
		return;
	ret = rte_ism_move_data(n->dev, l->tx, ELEM_ACK, 1, OFF_ACK, &seq,
			sizeof(seq));
	if (ret < 0)
		l->broken = true;
	l->ack_pending = 0;
}

static void
on_data(struct node *n, struct link *l)
{
	const uint8_t *base = l->rx.addr;
	struct msg_hdr h;

	memcpy(&h, base + OFF_HDR, sizeof(h));
	if (h.seq != l->rcvd + 1 || h.len == 0 || h.len > PAYLOAD_MAX) {
		fail("%s: data signal with seq %u len %u, expected seq %" PRIu64
		     " (duplicate, spurious or lost signal)", l->name, h.seq,
		     h.len, l->rcvd + 1);
		n->failed = 1;
		return;
	}
	if (fx_crc(base + OFF_PAYLOAD, h.len) != h.crc) {
		fail("%s: message %u: checksum mismatch", l->name, h.seq);
		n->failed = 1;
		return;
	}
	l->rcvd = h.seq;
	l->ack_pending = h.seq;
	send_answer(n, l);
}

static void
on_ack(struct node *n, struct link *l)
{
	uint32_t a;

	memcpy(&a, (uint8_t *)l->rx.addr + OFF_ACK, sizeof(a));
	if (a != l->sent || l->acked == l->sent) {
		fail("%s: answer signal for %u, sent %" PRIu64 " acked %" PRIu64
		     " (duplicate or spurious signal)", l->name, a, l->sent,
		     l->acked);
		n->failed = 1;
		return;
	}
	l->acked = a;
}

/* Next message: payload in random pieces, then header + signal. */
static void
send_msg(struct node *n, struct link *l)
{
	struct msg_hdr h;
	uint32_t off, piece;
	int ret = 0;

	h.seq = l->sent + 1;
	h.len = 1 + fx_rand(&n->seed) % PAYLOAD_MAX;
	h.session = l->session;
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
	if (ret < 0) {
		fail("%s: detach: %s", l->name, strerror(-ret));
		n->failed = 1;
	}
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
		fail("%s: attach: %d", l->name, ret);
		n->failed = 1;
		return;
	}
	l->map = m.addr;
	l->map_token = l->tx;
}

/* The peer (same GID) joined, or joined again: a new session. */
static void
on_up(struct node *n, struct link *l)
{
	int ret;

	/* It cannot have left yet: it waits for our token, sent below. */
	if (rte_ism_query_remote_gid(n->dev, &l->gid, 0, 0) != 0) {
		fail("%s: joined but not reachable", l->name);
		n->failed = 1;
	}
	l->up = true;
	l->user_disabled_seen = false;
	l->broken = false;
	l->rcvd = 0;
	l->done_rcvd = false;
	l->fd_marked = false;
	l->session++;
	ret = rte_ism_signal_event(n->dev, &l->gid, 1, EV_TOKEN, l->rx.token);
	if (ret < 0)
		l->broken = true;
}

static void
on_lost(struct node *n, struct link *l, const struct rte_ism_event *ev)
{
	char scratch[64] = { 0 };
	int r = 0;

	/* The driver restarts a killed peer only after our LOST line. */
	if (rte_ism_query_remote_gid(n->dev, &l->gid, 0, 0) != -ENETUNREACH) {
		fail("%s: gone but still reachable", l->name);
		n->failed = 1;
	}
	if (l->done_sent && l->done_rcvd)
		return;		/* finished and gone: fine */
	if (n->losses == n->o->survive) {
		fail("%s: peer lost unexpectedly", l->name);
		n->failed = 1;
		return;
	}
	n->losses++;
	if (!l->user_disabled_seen) {
		fail("%s: no BUF event for our DMB before the DEV event",
		     l->name);
		n->failed = 1;
	}
	/* Its token must fail now, without a fault. */
	if (l->tx != 0) {
		r = rte_ism_move_data(n->dev, l->tx, 0, 0, OFF_SCRATCH, scratch,
				sizeof(scratch));
		if (r == 0) {
			fail("%s: move to a dead peer's DMB succeeded",
			     l->name);
			n->failed = 1;
		}
	}
	/* Our DMB for it stays valid for us, our mapping of its DMB until
	 * we detach. */
	memset((uint8_t *)l->rx.addr + OFF_SCRATCH, 0xee, 4096);
	unmap_tx(n, l);
	say("LOST %s at %" PRIu64 " move %d fds %d session %u rcvd %" PRIu64
	    " sent %" PRIu64, l->name, ev->time, r, count_fds(), l->session,
	    l->rcvd, l->sent);
	l->up = false;
	l->tx = 0;
	l->sent = l->acked = 0;
	l->ack_pending = 0;
	l->done_sent = false;
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
		ret = rte_ism_signal_event(n->dev, &fake, 1, EV_PING, 0);
		say("BYE_RACE %d", ret);
		if (ret != 0) {
			fail("signal_event to a peer that answered: %d", ret);
			n->failed = 1;
		}
	}
	if (!rte_ism_gid_equal(&ev->gid, &n->o->rogue))
		return;
	if (ev->type == RTE_ISM_EVENT_DEV && ev->code == RTE_ISM_DEV_ENABLED) {
		/* Hand the rogue a token it may not use, and one it may. */
		rte_ism_signal_event(n->dev, &n->o->rogue, 1, EV_LEAK,
				     n->links[0].rx.token);
		rte_ism_signal_event(n->dev, &n->o->rogue, 1, EV_GRANT,
				     n->grant.token);
	} else if (ev->type == RTE_ISM_EVENT_SW && ev->code == EV_GRANT_OK) {
		ret = rte_ism_dmb_unregister(n->dev, n->grant.token);
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
handle_event(struct node *n, const struct rte_ism_event *ev)
{
	struct link *l = link_of_gid(n, &ev->gid);

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
		if (ev->code == EV_TOKEN) {
			l->tx = ev->info;
			l->sent = l->acked = 0;
			l->done_sent = false;
			map_tx(n, l);
			send_answer(n, l);
		} else if (ev->code == EV_DONE) {
			l->done_rcvd = true;
			if (ev->info != l->rcvd) {
				fail("%s: peer sent %" PRIu64 " messages, "
				     "we got %" PRIu64, l->name, ev->info,
				     l->rcvd);
				n->failed = 1;
			}
		}
		break;
	default:
		break;
	}
}

/* Send, answer, hammer; true if something was done. */
static bool
serve_link(struct node *n, struct link *l)
{
	uint8_t filler[4096] = { 0 };
	uint64_t goal = !n->o->send ? 0 : !released() ? UINT64_MAX :
		l->session == 1 ? n->o->msgs_first : n->o->msgs;
	int ret;

	if (!l->up || l->tx == 0 || l->broken)
		return false;
	if (l->sent == l->acked && l->sent < goal) {
		send_msg(n, l);
		return true;
	}
	if (l->sent != l->acked) {
		ret = rte_ism_move_data(n->dev, l->tx, 0, 0, OFF_SCRATCH +
				(l->sent % 32) * sizeof(filler), filler,
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

static void
mark(struct node *n, struct link *l)
{
	if (l->fd_marked || l->rcvd + l->acked < n->o->fd_mark)
		return;
	l->fd_marked = true;
	say("FDS session %u %d", l->session, count_fds());
}

static bool
finished(struct node *n)
{
	unsigned int i;

	if (!released())
		return false;
	for (i = 0; i < n->nb; i++)
		if (!n->links[i].done_sent || !n->links[i].done_rcvd)
			return false;
	return !n->o->has_rogue || n->rogue_done;
}

static int
run(struct node *n)
{
	uint64_t end = now_ns() + DEADLINE_S * 1000000000ULL, last = 0;
	struct rte_ism_signal sig[32];
	struct rte_ism_event ev;
	unsigned int i, spins = 0;
	struct link *l;
	bool busy;
	int k, got;

	while (!finished(n) && !n->failed) {
		if (now_ns() > end) {
			fail("not finished after %d s", DEADLINE_S);
			return 1;
		}
		busy = false;
		while (next_event(n->dev, &ev)) {
			handle_event(n, &ev);
			busy = true;
		}
		got = rte_ism_signal_poll(n->dev, sig, RTE_DIM(sig));
		for (k = 0; k < got; k++) {
			l = link_of_idx(n, sig[k].dmb_idx);
			if (l == NULL && n->grant.idx == sig[k].dmb_idx)
				continue;	/* the rogue may signal it */
			if (l == NULL) {
				fail("signal for DMB %u we do not own",
				     sig[k].dmb_idx);
				return 1;
			}
			if (sig[k].mask & RTE_BIT32(ELEM_DATA))
				on_data(n, l);
			if (sig[k].mask & RTE_BIT32(ELEM_ACK))
				on_ack(n, l);
		}
		busy |= got > 0;
		for (i = 0; i < n->nb; i++) {
			busy |= serve_link(n, &n->links[i]);
			mark(n, &n->links[i]);
		}
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
	unsigned int i;
	int ret = 1;

	if (n == NULL)
		return 1;
	n->dev = dev;
	n->o = o;
	n->seed = o->seed;
	n->nb = o->nb_peers;
	for (i = 0; i < n->nb; i++) {
		n->links[i].gid = o->peers[i];
		gid_str(&o->peers[i], n->links[i].name);
		n->links[i].payload = malloc(PAYLOAD_MAX);
		if (n->links[i].payload == NULL ||
		    reg(dev, &o->peers[i], &n->links[i].rx) < 0)
			goto out;
	}
	if (o->has_rogue && reg(dev, &o->rogue, &n->grant) < 0)
		goto out;
	ret = run(n);
	if (ret == 0 && n->losses != o->survive) {
		fail("%u peer losses, expected %u", n->losses, o->survive);
		ret = 1;
	}
	for (i = 0; i < n->nb; i++)
		say("STREAM %s sessions %u rcvd %" PRIu64 " acked %" PRIu64,
		    n->links[i].name, n->links[i].session, n->links[i].rcvd,
		    n->links[i].acked);
	if (o->has_rogue)
		say("PROTOCOL_ERRORS %" PRIu64 " rogue_violations %" PRIu64,
		    xstat("ism_shm0", "protocol_errors"), n->rogue_violations);
out:
	for (i = 0; i < n->nb; i++) {
		unmap_tx(n, &n->links[i]);
		if (n->links[i].rx.token != 0 &&
		    rte_ism_dmb_unregister(dev, n->links[i].rx.token) < 0)
			ret = 1;
		free(n->links[i].payload);
	}
	if (n->grant.token != 0)
		rte_ism_dmb_unregister(dev, n->grant.token);
	free(n);
	return ret;
}
