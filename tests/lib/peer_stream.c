/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bitops.h>
#include <rte_common.h>

#include "test_ism.h"	/* fx_crc(), fx_rand() of the functional tests */

#include "peer_stream.h"

#define FILLER		4096

static uint32_t
off_scratch(const struct stream *s)
{
	return s->dmb_len / 2;
}

struct stream_link *
stream_link_of_gid(struct stream *s, const struct rte_ism_gid *gid)
{
	unsigned int i;

	for (i = 0; i < s->nb; i++)
		if (rte_ism_gid_equal(&s->links[i].gid, gid))
			return &s->links[i];
	return NULL;
}

static struct stream_link *
link_of_idx(struct stream *s, uint32_t idx)
{
	unsigned int i;

	for (i = 0; i < s->nb; i++)
		if (s->links[i].rx.token != 0 && s->links[i].rx.idx == idx)
			return &s->links[i];
	return NULL;
}

int
stream_reg(struct stream *s, struct stream_link *l)
{
	int ret;

	memset(&l->rx, 0, sizeof(l->rx));
	l->rx.len = s->dmb_len;
	l->rx.rgid = l->gid;
	ret = rte_ism_dmb_register(s->dev, &l->rx);
	if (ret < 0) {
		memset(&l->rx, 0, sizeof(l->rx));
		if (ret != -EAGAIN)
			fail("%s: register: %s", l->name, strerror(-ret));
	}
	return ret;
}

int
stream_open(struct stream *s, const struct rte_ism_gid *peers,
		unsigned int nb)
{
	struct stream_link *l;
	unsigned int i;

	if (nb > RTE_DIM(s->links) ||
	    s->payload_max > off_scratch(s) - OFF_PAYLOAD) {
		fail("%u peers, payload %u in a DMB of %u", nb,
		     s->payload_max, s->dmb_len);
		return -1;
	}
	for (i = 0; i < nb; i++) {
		l = &s->links[s->nb++];
		l->gid = peers[i];
		gid_str(&l->gid, l->name);
		l->payload = malloc(s->payload_max);
		if (l->payload == NULL || stream_reg(s, l) < 0)
			return -1;
	}
	return 0;
}

int
stream_close(struct stream *s)
{
	struct stream_link *l;
	unsigned int i;
	int bad = 0;

	for (i = 0; i < s->nb; i++) {
		l = &s->links[i];
		stream_unmap_tx(s, l);
		if (l->rx.token != 0 &&
		    rte_ism_dmb_unregister(s->dev, l->rx.token) < 0)
			bad++;
		free(l->payload);
		l->payload = NULL;
	}
	return bad;
}

void
stream_send_answer(struct stream *s, struct stream_link *l)
{
	uint32_t ack[2] = { l->ack_pending, l->peer_nonce };

	if (ack[0] == 0 || l->tx == 0)
		return;
	if (rte_ism_move_data(s->dev, l->tx, ELEM_ACK, 1, OFF_ACK, ack,
			      sizeof(ack)) < 0)
		l->broken = true;
	l->ack_pending = 0;
}

static void
on_data(struct stream *s, struct stream_link *l)
{
	const uint8_t *base = l->rx.addr;
	struct msg_hdr h;

	memcpy(&h, base + OFF_HDR, sizeof(h));
	if (s->gone_writes && h.session != l->my_nonce) {
		/* Written in an earlier session: a member declared gone
		 * writes on until it notices (it is still that GID). */
		l->late++;
		return;
	}
	if (h.seq != l->rcvd + 1 || h.len == 0 || h.len > s->payload_max) {
		stream_bad(s, "%s: data signal with seq %u len %u, expected "
			   "seq %" PRIu64 " (duplicate, spurious or lost "
			   "signal)", l->name, h.seq, h.len, l->rcvd + 1);
		return;
	}
	if (fx_crc(base + OFF_PAYLOAD, h.len) != h.crc) {
		stream_bad(s, "%s: message %u: checksum mismatch", l->name,
			   h.seq);
		return;
	}
	l->rcvd = h.seq;
	l->total++;
	l->ack_pending = h.seq;
	stream_send_answer(s, l);
}

static void
on_ack(struct stream *s, struct stream_link *l)
{
	uint32_t ack[2];

	memcpy(ack, (uint8_t *)l->rx.addr + OFF_ACK, sizeof(ack));
	if (s->gone_writes && ack[1] != l->my_nonce) {
		l->late++;
		return;
	}
	if (ack[0] != l->sent || l->acked == l->sent) {
		stream_bad(s, "%s: answer signal for %u, sent %" PRIu64
			   " acked %" PRIu64 " (duplicate or spurious signal)",
			   l->name, ack[0], l->sent, l->acked);
		return;
	}
	l->acked = ack[0];
}

/* Next message: payload in random pieces, then header + signal. */
static void
send_msg(struct stream *s, struct stream_link *l)
{
	struct msg_hdr h;
	uint32_t off, piece;
	int ret = 0;

	h.seq = l->sent + 1;
	h.len = 1 + fx_rand(&s->seed) % s->payload_max;
	h.session = l->peer_nonce;
	for (off = 0; off < h.len; off++)
		l->payload[off] = fx_rand(&s->seed);
	h.crc = fx_crc(l->payload, h.len);
	off = 0;
	if (l->map != NULL && (h.seq & 1)) {
		memcpy(l->map + OFF_PAYLOAD, l->payload, h.len);
		off = h.len;	/* visible with the header's signal */
	}
	for (; off < h.len && ret == 0; off += piece) {
		piece = 1 + fx_rand(&s->seed) % (h.len - off);
		ret = rte_ism_move_data(s->dev, l->tx, 0, 0, OFF_PAYLOAD + off,
				l->payload + off, piece);
	}
	if (ret == 0)
		ret = rte_ism_move_data(s->dev, l->tx, ELEM_DATA, 1, OFF_HDR,
				&h, sizeof(h));
	if (ret < 0) {
		l->broken = true;
		return;
	}
	l->sent = h.seq;
}

void
stream_unmap_tx(struct stream *s, struct stream_link *l)
{
	int ret;

	if (l->map == NULL)
		return;
	memset(l->map + off_scratch(s), 0x5a, FILLER);
	ret = rte_ism_dmb_detach(s->dev, l->map_token);
	if (ret < 0)
		stream_bad(s, "%s: detach: %s", l->name, strerror(-ret));
	l->map = NULL;
	l->map_token = 0;
}

static void
map_tx(struct stream *s, struct stream_link *l)
{
	struct rte_ism_dmb m;
	int ret;

	stream_unmap_tx(s, l);
	if (!s->nocopy)
		return;
	ret = rte_ism_dmb_attach(s->dev, l->tx, &m);
	if (ret < 0 || m.len != s->dmb_len) {
		stream_bad(s, "%s: attach: %d", l->name, ret);
		return;
	}
	l->map = m.addr;
	l->map_token = l->tx;
}

void
stream_up(struct stream_link *l)
{
	l->up = true;
	l->user_disabled_seen = false;
	l->broken = false;
	l->rcvd = 0;
	l->done_rcvd = false;
	l->session++;
}

void
stream_on_token(struct stream *s, struct stream_link *l, uint64_t tx,
		uint32_t nonce)
{
	l->tx = tx;
	l->peer_nonce = nonce;
	l->sent = l->acked = 0;
	l->done_sent = false;
	l->broken = false;
	map_tx(s, l);
	stream_send_answer(s, l);
}

void
stream_on_done(struct stream *s, struct stream_link *l, uint64_t info)
{
	l->done_rcvd = true;
	if (info != l->rcvd)
		stream_bad(s, "%s: peer sent %" PRIu64 " messages, we got %"
			   PRIu64, l->name, info, l->rcvd);
}

int
stream_gone(struct stream *s, struct stream_link *l, uint64_t tx)
{
	char scratch[64] = { 0 };
	int r = 0;

	if (tx != 0) {
		r = rte_ism_move_data(s->dev, tx, 0, 0, off_scratch(s),
				scratch, sizeof(scratch));
		if (r == 0)
			stream_bad(s, "%s: move to a gone peer's DMB "
				   "succeeded", l->name);
	}
	if (l->rx.token != 0)
		memset((uint8_t *)l->rx.addr + off_scratch(s), 0xee, FILLER);
	stream_unmap_tx(s, l);
	return r;
}

void
stream_forget_tx(struct stream_link *l)
{
	l->tx = 0;
	l->dead_tx = 0;
	l->sent = l->acked = 0;
	l->ack_pending = 0;
	l->done_sent = false;
}

bool
stream_serve(struct stream *s, struct stream_link *l, uint64_t goal,
		uint32_t done_code)
{
	static const uint8_t filler[FILLER];
	uint32_t slots = (s->dmb_len - off_scratch(s)) / FILLER;
	int ret;

	if (!l->up || l->tx == 0 || l->broken)
		return false;
	if (l->sent == l->acked && l->sent < goal) {
		send_msg(s, l);
		return true;
	}
	if (l->sent != l->acked) {
		ret = rte_ism_move_data(s->dev, l->tx, 0, 0, off_scratch(s) +
				(l->sent % slots) * FILLER, filler, FILLER);
		if (ret < 0)
			l->broken = true;
		return false;
	}
	if (!l->done_sent) {
		ret = rte_ism_signal_event(s->dev, &l->gid, 1, done_code,
				l->sent);
		if (ret < 0)
			l->broken = true;
		else
			l->done_sent = true;
		return true;
	}
	return false;
}

int
stream_poll_signals(struct stream *s, int64_t skip)
{
	struct rte_ism_signal sig[32];
	struct stream_link *l;
	int k, got;

	got = rte_ism_signal_poll(s->dev, sig, RTE_DIM(sig));
	for (k = 0; k < got; k++) {
		l = link_of_idx(s, sig[k].dmb_idx);
		if (l == NULL && sig[k].dmb_idx == skip)
			continue;
		if (l != NULL && !l->up && s->gone_writes) {
			l->late++;	/* its writer was declared gone */
			continue;
		}
		if (l == NULL) {
			stream_bad(s, "signal for DMB %u we do not own",
				   sig[k].dmb_idx);
			continue;
		}
		if (sig[k].mask & RTE_BIT32(ELEM_DATA))
			on_data(s, l);
		if (sig[k].mask & RTE_BIT32(ELEM_ACK))
			on_ack(s, l);
	}
	return got > 0 ? got : 0;
}

/* A PROGRESS line a link every second. */
static void
progress(struct stream *s, uint64_t *last)
{
	unsigned int i;

	if (now_ns() - *last <= 1000000000ULL)
		return;
	*last = now_ns();
	for (i = 0; i < s->nb; i++)
		say("PROGRESS %s session %u rcvd %" PRIu64 " acked %" PRIu64,
		    s->links[i].name, s->links[i].session, s->links[i].rcvd,
		    s->links[i].acked);
}

int
stream_run(struct stream *s, const struct stream_hooks *h, void *ctx,
		unsigned int deadline_s)
{
	uint64_t end = now_ns() + deadline_s * 1000000000ULL, last = 0;
	struct rte_ism_event ev;
	unsigned int i, spins = 0;
	bool busy;

	while (!h->finished(ctx) && !s->failed) {
		if (now_ns() > end) {
			fail("not finished after %u s", deadline_s);
			return 1;
		}
		if (h->stalled != NULL && h->stalled()) {
			say("STALLED");
			while (h->stalled())
				usleep(1000);
			say("UNSTALLED");
			/* The deadline does not count the stall. */
			end = now_ns() + deadline_s * 1000000000ULL;
		}
		busy = false;
		while (next_event(s->dev, &ev)) {
			h->on_event(ctx, &ev);
			busy = true;
		}
		busy |= stream_poll_signals(s, h->skip) > 0;
		if (h->tick != NULL)
			h->tick(ctx);
		for (i = 0; i < s->nb; i++)
			busy |= h->serve(ctx, &s->links[i]);
		progress(s, &last);
		if (!busy)
			idle(&spins);
	}
	return s->failed;
}

void
stream_report(struct stream *s)
{
	struct stream_link *l;
	unsigned int i;

	for (i = 0; i < s->nb; i++) {
		l = &s->links[i];
		say("STREAM %s sessions %u rcvd %" PRIu64 " acked %" PRIu64
		    " total %" PRIu64 " late %" PRIu64, l->name, l->session,
		    l->rcvd, l->acked, l->total, l->late);
	}
}
