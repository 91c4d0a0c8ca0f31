/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_MSG_H
#define ISM_SHM_MSG_H

/*
 * Wire format of the shm backend's control protocol, and its parser.
 *
 * Peers talk over AF_UNIX SOCK_SEQPACKET connections: one fixed-size
 * message per datagram (struct shm_msg, 64 bytes, host byte order: both
 * ends are on one host), file descriptors attached with SCM_RIGHTS. Every
 * message starts with a header (magic, version, type, length, seq). A
 * request with seq != 0 is answered by exactly one ACK carrying that seq
 * and a status (0 or a negative errno); HELLO, WAKE and READY have seq 0
 * and get no answer. Anything else is a protocol error and ends the
 * connection.
 *
 * Conversation of a connection (the newcomer connects, the older device
 * accepts):
 *   initiator -> HELLO(+SBA fd) WAKE(+socket) DMB_ADD... READY
 *   acceptor  -> HELLO(+SBA fd) WAKE(+socket) DMB_ADD... READY
 *                (after the initiator's)
 *   then either side: DMB_ADD, DMB_DEL, ATTACH, DETACH, EVENT, BYE; ACK.
 * WAKE gives the peer the sending end of an AF_UNIX datagram socket pair
 * whose receiving end the sender keeps (its wake-up channel for this peer,
 * the interrupt mode, ism_wake.h): the peer sends a byte on it with
 * MSG_DONTWAIT after raising a signal in the SBA of the sender's HELLO when
 * the armed flag in that SBA's tail is set.
 * An acceptor that refuses a connection sends REFUSE (why, as an errno)
 * instead of its HELLO, then closes it: the initiator logs the reason and,
 * if it is a passing one (-EBUSY), connects again later.
 *
 * This file, ism_shm_msg.c and ism_sw_token.h use only libc, so the fuzz
 * harness can build the parser on its own.
 */

#include <stddef.h>
#include <stdint.h>

#include "ism_sw_token.h"

#define SHM_MSG_MAGIC		0x314d5349u	/* "ISM1" in memory */
/* 2: REFUSE added. 3: WAKE added. 4: WAKE carries a datagram socket per
 * peer (3: the sender's eventfd, shared with every peer).
 */
#define SHM_PROTO_VERSION	4

/* Devices of one fabric: fabric slots 0..63. */
#define SHM_MAX_SLOTS		64
/* DMB indices 32..4095, as the software SBA covers 4096. */
#define SHM_IDX_FIRST		32
#define SHM_NB_IDX		4096
#define SHM_MAX_DMB_LEN		(1u << 30)

/* Tokens: sw/ism_sw_token.h (the owner's fabric slot in the slot field). */
_Static_assert(SHM_MAX_SLOTS <= 1 << ISM_SW_TOK_SLOT_BITS, "token slots");
_Static_assert(SHM_NB_IDX == (ISM_SW_TOK_IDX_MASK + 1), "token indices");

enum shm_msg_type {
	SHM_MSG_HELLO = 1,	/* identity; fd: SBA the receiver raises in */
	SHM_MSG_READY,		/* initial DMB list complete */
	SHM_MSG_DMB_ADD,	/* a DMB exists; fd iff the receiver is rgid */
	SHM_MSG_DMB_DEL,	/* a DMB was unregistered */
	SHM_MSG_ATTACH,		/* the writer maps it (nocopy) */
	SHM_MSG_DETACH,		/* the writer dropped an attachment */
	SHM_MSG_EVENT,		/* rte_ism_signal_event() */
	SHM_MSG_BYE,		/* the sender's device is closing */
	SHM_MSG_ACK,		/* answer to a request */
	SHM_MSG_REFUSE,		/* the acceptor refuses this connection */
	SHM_MSG_WAKE,		/* fd: a wake-up channel of the sender's */
	SHM_MSG_TYPE_END
};

struct shm_msg_hdr {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t len;		/* sizeof(struct shm_msg) */
	uint32_t seq;		/* request id, 0 for HELLO/READY/ACK */
};

/* A GID as two 64-bit halves, as struct rte_ism_gid. */
struct shm_msg_gid {
	uint64_t gid;
	uint64_t gid_ext;
};

struct shm_msg_hello {
	struct shm_msg_gid gid;	/* the sender's GID */
	uint32_t max_dmbs;	/* the sender's DMB index range */
	uint32_t max_dmb_len;
	uint16_t chid;		/* must equal the receiver's */
	uint8_t slot;		/* the sender's fabric slot */
	uint8_t reserved[21];
};

struct shm_msg_dmb {
	uint64_t token;
	struct shm_msg_gid rgid;	/* the one writer */
	uint32_t idx;
	uint32_t len;
	uint8_t reserved[16];
};

struct shm_msg_token {		/* DMB_DEL, ATTACH, DETACH */
	uint64_t token;
	uint8_t reserved[40];
};

struct shm_msg_event {
	uint64_t info;
	uint32_t code;
	uint32_t trigger;
	uint8_t reserved[32];
};

struct shm_msg_ack {
	uint32_t seq;		/* of the request answered */
	int32_t status;		/* 0 or -errno */
	uint8_t reserved[40];
};

struct shm_msg_refuse {
	int32_t reason;		/* -EACCES (policy), -EBUSY (try later) */
	uint8_t reserved[44];
};

struct shm_msg {
	struct shm_msg_hdr hdr;
	union {
		struct shm_msg_hello hello;
		struct shm_msg_dmb dmb;
		struct shm_msg_token tok;
		struct shm_msg_event event;
		struct shm_msg_ack ack;
		struct shm_msg_refuse refuse;
		uint8_t raw[48];
	} u;
};

_Static_assert(sizeof(struct shm_msg) == 64, "shm_msg is 64 bytes");

/* Fill a header; the body is zeroed. */
void ism_shm_msg_init(struct shm_msg *m, enum shm_msg_type type, uint32_t seq);

/*
 * Check a received datagram of len bytes that came with nb_fds file
 * descriptors: size, header, type, the fds the type allows, field ranges,
 * reserved bytes. Everything that can be checked without connection state.
 * On success copies it to *out and returns 0; otherwise returns -EBADMSG and
 * sets *why (if not NULL) to a static text.
 */
int ism_shm_msg_parse(const void *buf, size_t len, unsigned int nb_fds,
		struct shm_msg *out, const char **why);

/* Name of a message type for logs ("?" if unknown). */
const char *ism_shm_msg_type_name(unsigned int type);

#endif /* ISM_SHM_MSG_H */
