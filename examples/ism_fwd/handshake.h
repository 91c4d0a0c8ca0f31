/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_FWD_HANDSHAKE_H
#define ISM_FWD_HANDSHAKE_H

/*
 * Peers find each other through ISM itself: software events
 * (rte_ism_signal_event) carry the DMB tokens, the events queued by the
 * device tell when the peer goes away. No side channel.
 *
 * Event code of our messages: 0xf5 in bits 31-24, version 1 in bits 23-20,
 * the type in bits 19-16, and for HELLO the geometry of the sender's ring:
 * log2(nb_slots) in bits 15-8, log2(slot_size) in bits 7-0.
 *
 *   HELLO  info = my token   "write here"; repeated every 100 ms until
 *                            the peer confirms
 *   READY  info = your token "got it; your credits and start are in your
 *                            DMB" (moved there just before)
 *   BYE    info = my token   clean exit
 *
 * A HELLO with a new token means the peer restarted: the old one is
 * treated as lost first. Sending starts on READY; receiving as soon as the
 * peer's HELLO was handled.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_ism.h>

#include "ism_ring.h"

#define PEER_EV_UP	0x1	/* handshake completed: sending may start */
#define PEER_EV_LOST	0x2	/* the peer is gone (not a clean exit) */
#define PEER_EV_BYE	0x4	/* the peer exited cleanly */

struct fwd_peer {
	uint16_t dev_id;
	struct rte_ism_gid gid;		/* the peer's GID */
	struct ism_ring *ring;
	uint64_t token;			/* the peer's DMB; 0: no peer */
	bool confirmed;			/* it echoed our token */
	uint64_t next_hello;		/* TSC */
	uint64_t hello_period;		/* TSC ticks */
	uint64_t nb_lost;		/* losses and clean exits seen */
	int last_send_error;		/* to log each new error once */
};

void peer_init(struct fwd_peer *p, uint16_t dev_id,
		const struct rte_ism_gid *gid, struct ism_ring *ring);

/* Handle queued events, repeat HELLO, notice failed moves.
 * Returns PEER_EV_* bits. */
unsigned int peer_poll(struct fwd_peer *p, uint64_t now);

/* Clean exit: tell the peer, forget it. */
void peer_bye(struct fwd_peer *p);

static inline bool
peer_up(const struct fwd_peer *p)
{
	return p->token != 0 && p->confirmed;
}

#endif /* ISM_FWD_HANDSHAKE_H */
