/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef PEER_STREAM_H
#define PEER_STREAM_H

/*
 * The checked stream of the multi-process test peers' nodes (tests/shm,
 * tests/ivshm): one DMB per peer, written only by that peer; messages
 * sent into the peer's DMB and answered one at a time.
 *
 * A message is a random payload written by several moves of random sizes
 * (odd messages through the attached mapping with nocopy), then its
 * header (sequence number, length, CRC32C) with the data signal. The
 * receiver checks header and checksum when the signal arrives, then
 * answers with its own move + signal into the sender's DMB; the sender
 * sends the next message only then. So every signal is exactly one new
 * message or answer: a signal seen twice, one without news, or a lost one
 * (the stream stalls until the node's deadline) fails the run. While
 * waiting for an answer the sender keeps moving into a scratch area of the
 * peer's DMB (its upper half), so moves are running whenever a peer dies.
 *
 * The nodes keep what happens when a peer comes and goes (events, token
 * exchange, sessions) and the lines they print about it.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ism.h>

#include "peer_util.h"

#define STREAM_MAX_LINKS PEER_MAX_PEERS

/* Layout of the DMB a node registers for each peer. */
#define OFF_ACK		0	/* u32 seq, u32 nonce: my last message seen */
#define OFF_HDR		64	/* struct msg_hdr of the peer's message */
#define OFF_PAYLOAD	128
#define ELEM_DATA	0
#define ELEM_ACK	1

struct msg_hdr {
	uint32_t seq;
	uint32_t len;
	uint32_t crc;
	uint32_t session;	/* the receiver's nonce */
};

struct stream_link {
	struct rte_ism_gid gid;
	char name[RTE_ISM_GID_STRLEN];
	struct rte_ism_dmb rx;		/* mine, written by the peer */
	uint64_t tx;			/* the peer's DMB for me */
	uint64_t dead_tx;		/* the same, reported unregistered */
	bool up;
	bool user_disabled_seen;	/* BUF event for rx since last up */
	bool broken;			/* a move failed: loss expected */
	unsigned int session;
	uint32_t my_nonce;		/* this session's, told with the token */
	uint32_t peer_nonce;		/* the peer's, from its token event */
	uint64_t sent, acked, rcvd, total, late;
	uint32_t ack_pending;		/* to answer once tx is known */
	bool done_sent, done_rcvd;
	uint8_t *payload;
	uint8_t *map;			/* nocopy mapping of tx */
	uint64_t map_token;
	/* The nodes' own. */
	bool fd_marked;			/* shm: FDS line said */
	bool rx_stale;			/* ivshm: revoked, register a new one */
	uint64_t renew_ns;		/* ivshm: next try */
	bool token_due;			/* ivshm: tell the peer rx's token */
	bool released;			/* ivshm: EV_RELEASE delivered */
};

struct stream {
	uint16_t dev;
	uint32_t dmb_len;	/* header, payload, scratch in the upper half */
	uint32_t payload_max;	/* at most dmb_len / 2 - OFF_PAYLOAD */
	bool nocopy;		/* odd messages: payload through attach */
	/* Anomalies counted, not fatal (the victims of a scribbler). */
	bool tolerant;
	/* A member declared gone may write on for a moment as the same GID
	 * (ivshm): what carries another session's nonce, or signals a DMB
	 * of a peer that is not up, is counted as late, not checked. */
	bool gone_writes;
	uint64_t seed;
	uint64_t anomalies;
	int failed;
	struct stream_link links[STREAM_MAX_LINKS];
	unsigned int nb;
};

/* Fail, or count in tolerant mode. */
#define stream_bad(s, ...) do { \
	if ((s)->tolerant) { \
		(s)->anomalies++; \
	} else { \
		fail(__VA_ARGS__); \
		(s)->failed = 1; \
	} \
} while (0)

/* Links to these peers, each with its DMB registered: 0 or -1. */
int stream_open(struct stream *s, const struct rte_ism_gid *peers,
		unsigned int nb);
/* Mappings dropped, DMBs unregistered: the number that failed. */
int stream_close(struct stream *s);
struct stream_link *stream_link_of_gid(struct stream *s,
		const struct rte_ism_gid *gid);
/* rx registered: 0, -EAGAIN (out of the fabric just now), or another
 * error (said). */
int stream_reg(struct stream *s, struct stream_link *l);
/* The peer came up: a new session of the stream. */
void stream_up(struct stream_link *l);
/* The peer's token and nonce arrived: send to it from the start. */
void stream_on_token(struct stream *s, struct stream_link *l, uint64_t tx,
		uint32_t nonce);
/* The peer says it sent us info messages in this session. */
void stream_on_done(struct stream *s, struct stream_link *l, uint64_t info);
/* The peer is gone: its token tx (0: none) must fail at once and cleanly,
 * our DMB for it stays ours, our mapping of its DMB valid until detach.
 * Returns what the move to tx returned. */
int stream_gone(struct stream *s, struct stream_link *l, uint64_t tx);
/* Nothing more to or from the peer's DMB of this session. */
void stream_forget_tx(struct stream_link *l);
/* Drop the nocopy mapping of tx; it must still be valid until detach. */
void stream_unmap_tx(struct stream *s, struct stream_link *l);
void stream_send_answer(struct stream *s, struct stream_link *l);
/* Send up to goal messages, hammer, then EV done_code: true if something
 * was sent. */
bool stream_serve(struct stream *s, struct stream_link *l, uint64_t goal,
		uint32_t done_code);
/* Signals of our DMBs, but the one of index skip (-1: none): how many. */
int stream_poll_signals(struct stream *s, int64_t skip);

/* What a node adds to the loop of stream_run(); ctx is its own. */
struct stream_hooks {
	bool (*finished)(void *ctx);
	void (*on_event)(void *ctx, const struct rte_ism_event *ev);
	/* Once a round, after the signals (may be NULL). */
	void (*tick)(void *ctx);
	/* A link's turn: stream_serve() and what else; true if busy. */
	bool (*serve)(void *ctx, struct stream_link *l);
	/* While true, the node waits (no poll): the deadline starts again
	 * afterwards (may be NULL). */
	bool (*stalled)(void);
	int64_t skip;		/* stream_poll_signals() */
};

/* Events, signals and the links' turns until finished, a failure, or
 * deadline_s; a PROGRESS line a link every second. 0 or 1 (failed). */
int stream_run(struct stream *s, const struct stream_hooks *h, void *ctx,
		unsigned int deadline_s);
/* A STREAM line a link. */
void stream_report(struct stream *s);

#endif /* PEER_STREAM_H */
