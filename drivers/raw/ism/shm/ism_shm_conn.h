/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_CONN_H
#define ISM_SHM_CONN_H

/*
 * The transport under the shm protocol (ism_shm_conn.c): connections, what
 * they send and receive, accepting new ones, and control ops waiting for
 * answers. Layer 5 (see ism_shm.h). What it hands up (a message, the end
 * of a connection, a connection accepted, the memfd of a grant) goes
 * through the functions the protocol registered (struct
 * ism_shm_conn_ops). Under the control lock.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/types.h>

#include <rte_ism.h>

#include "ism_shm_msg.h"
#include "ism_shm_policy.h"

/* Most requests one peer may have unanswered; keeps every send below the
 * socket buffer so the control thread never blocks.
 */
#define ISM_SHM_WINDOW		16
/* How long a control op waits for a peer's answer; a peer whose oldest
 * request is unanswered this long is unresponsive: ops stop waiting for
 * it until it answers again.
 */
#define ISM_SHM_ACK_TIMEOUT_MS	5000
/* How long a new connection may take for its handshake. */
#define ISM_SHM_HANDSHAKE_MS	5000
/* Connections that have not finished their handshake, per device; more
 * are refused with REFUSE(-EBUSY).
 */
#define ISM_SHM_MAX_PENDING	16
/* Passed as the fd of a message that carried one we could not receive
 * (out of file descriptors here): our failure, not the peer's.
 */
#define ISM_SHM_FD_LOST		(-2)

struct ism_shm_watch;
struct ism_shm_conn;
struct ism_shm_conns;

/* A message waiting to be sent; owns fd (a dup) if >= 0. A grant
 * (grant_token != 0) takes the fd of that DMB when it is sent: a queue
 * of grants must not hold an fd each.
 */
struct ism_shm_out {
	STAILQ_ENTRY(ism_shm_out) next;
	struct shm_msg msg;
	int fd;
	uint64_t grant_token;
};
STAILQ_HEAD(ism_shm_out_list, ism_shm_out);

/* Why a connection ends. */
enum ism_shm_conn_end {
	ISM_SHM_END_EOF,	/* the peer closed it, or it broke */
	ISM_SHM_END_PROTO,	/* the peer broke the protocol (counted) */
	ISM_SHM_END_OURS,	/* a failure of ours */
	/* The handshake did not finish by its deadline (counted as a
	 * protocol error too): the peer may only have been stopped or
	 * starved of CPU for a while.
	 */
	ISM_SHM_END_LATE,
};

/* What the protocol does for the transport. */
struct ism_shm_conn_ops {
	/* A message (not an ACK) of c; fd (or -1, or ISM_SHM_FD_LOST)
	 * becomes the callee's. 0; 1 if the callee ended the connection
	 * (c is gone); -EPROTO: a protocol error (the transport drops the
	 * connection, counted); another negative errno: a failure of ours.
	 * *why says why.
	 */
	int (*recv)(struct ism_shm_conn *c, const struct shm_msg *m, int fd,
		    const char **why);
	/* c ends: the callee undoes its state and calls
	 * ism_shm_conn_fini() (and frees c's container).
	 */
	void (*down)(struct ism_shm_conn *c, enum ism_shm_conn_end why);
	/* A connection the policy allows was accepted: the callee makes a
	 * connection of fd (ism_shm_conn_init()) or closes it.
	 */
	void (*accept)(struct ism_shm_conns *set, int fd, pid_t pid,
		       uint64_t pid_ino);
	/* The memfd of DMB token to send with a grant now, or -1 if that
	 * DMB is not registered any more (the grant is dropped).
	 */
	int (*grant_fd)(struct ism_shm_conn *c, uint64_t token);
};

/* A control op waiting for the answers to request seq from the
 * connections ids[]; the control thread fills status[] (1: pending).
 */
struct ism_shm_wait {
	uint32_t seq;
	unsigned int n;
	const uint64_t *ids;
	int *status;
};

/* The connections of a device. */
struct ism_shm_conns {
	const char *name;		/* the device's, for logs */
	const struct ism_shm_conn_ops *ops;
	const struct ism_shm_policy *pol;
	void *owner;			/* the protocol's (its device) */
	TAILQ_HEAD(, ism_shm_conn) list;
	struct ism_shm_wait *wait;	/* the op that waits, if one does */
	struct ism_shm_watch *lw;	/* listening socket */
	uint64_t accept_retry_ns;	/* accept paused (no fds) until then */
	/* Counters (xstats). */
	uint64_t protocol_errors;
	uint64_t refused;		/* at the pending limit, no fd */
	uint64_t handshakes_expired;
};

/* One connection to another device of the fabric. */
struct ism_shm_conn {
	TAILQ_ENTRY(ism_shm_conn) next;
	struct ism_shm_conns *set;
	struct ism_shm_watch *w;
	int fd;
	uint64_t id;		/* unique per connection, for waiters */
	pid_t pid;		/* SO_PEERCRED: 0 if not in our PID namespace */
	uint64_t pid_ino;	/* its process (pidfs inode), 0 if unknown */
	bool initiator;		/* we connected (it is older) */
	bool identified;	/* the protocol knows who it is */
	bool established;	/* handshake done: no deadline */
	bool unresponsive;	/* a request unanswered ACK_TIMEOUT */
	char who[RTE_ISM_GID_STRLEN];	/* for logs */
	uint64_t deadline_ns;	/* handshake must end by then */
	struct ism_shm_out_list outq;	/* requests, HELLO, READY, in order */
	struct ism_shm_out_list ackq;	/* ACKs that found the socket full */
	uint32_t ackq_len;		/* at most ISM_SHM_WINDOW */
	uint32_t in_flight;		/* requests sent, not answered */
	uint32_t sent_seq[ISM_SHM_WINDOW];	/* their seqs, oldest first */
	uint64_t sent_ns[ISM_SHM_WINDOW];	/* and when they were sent */
	uint32_t sent_head;
};

void ism_shm_conns_init(struct ism_shm_conns *set, const char *name,
		const struct ism_shm_conn_ops *ops,
		const struct ism_shm_policy *pol, void *owner);
/* Make c a connection on fd (connected or accepted); on error fd is
 * closed and -errno returned.
 */
int ism_shm_conn_init(struct ism_shm_conn *c, struct ism_shm_conns *set,
		int fd, bool initiator);
/* The protocol knows who c is (who: for logs) / c's handshake is done. */
void ism_shm_conn_identify(struct ism_shm_conn *c, const char *who);
void ism_shm_conn_establish(struct ism_shm_conn *c);
/* Close c and free what the transport holds (not c itself): a waiting op
 * gets -ENETUNREACH for it.
 */
void ism_shm_conn_fini(struct ism_shm_conn *c);
/* Queue a message (fd dup'ed if >= 0). */
int ism_shm_conn_send(struct ism_shm_conn *c, struct shm_msg *m, int fd);
/* Queue a DMB_ADD that carries the memfd of DMB m->u.dmb.token (asked of
 * ops->grant_fd when it is sent).
 */
int ism_shm_conn_send_grant(struct ism_shm_conn *c, struct shm_msg *m);
/* Answer request seq of c now (or queue the answer); -EPROTO if c has
 * more answers queued than it may have requests unanswered.
 */
int ism_shm_conn_send_ack(struct ism_shm_conn *c, uint32_t seq,
		int32_t status);
/* Read and handle what c has received, whatever the budget: whether c
 * is still there (its end not yet read).
 */
bool ism_shm_conn_drain(struct ism_shm_conn *c);
/* Find a connection by id; NULL if it is gone. */
struct ism_shm_conn *ism_shm_conn_find(struct ism_shm_conns *set,
		uint64_t id);
/* Deadlines of the connections (handshakes, unanswered requests), queues
 * that found a full socket, paused accepting; the next deadline.
 */
uint64_t ism_shm_conns_tick(struct ism_shm_conns *set, uint64_t now);
/* Wait (control lock held) until every connection in ids[] answered seq,
 * is gone or unresponsive; status[i] gets the answer, -ENETUNREACH if the
 * connection ended first, -ETIMEDOUT if the peer is unresponsive or after
 * ISM_SHM_ACK_TIMEOUT_MS. Call it before the lock is released after
 * queueing the request.
 */
void ism_shm_conn_wait_answers(struct ism_shm_conns *set, uint32_t seq,
		const uint64_t *ids, int *status, unsigned int n);
/* Wait until every connection in ids[] is established or gone (the
 * control thread drops it at its handshake deadline).
 */
void ism_shm_conn_wait_up(struct ism_shm_conns *set, const uint64_t *ids,
		unsigned int n);
/* Accept connections on the listening socket fd / stop (and close it). */
int ism_shm_conn_listen(struct ism_shm_conns *set, int fd);
void ism_shm_conn_listen_stop(struct ism_shm_conns *set);

#endif /* ISM_SHM_CONN_H */
