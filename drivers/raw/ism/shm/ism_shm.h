/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_H
#define ISM_SHM_H

/*
 * Private to the shm backend (vdev "ism_shm"): ISM devices in different
 * processes of one host. Files:
 *   ism_shm.c         probe/remove/close, the fast path, xstats
 *   ism_shm_ops.c     the control ops (register, attach, signal_event...)
 *   ism_shm_peer.c    what peers tell each other: DMB tables, departures
 *   ism_shm_event.c   events for the client: never lose a peer's arrival
 *                     or departure, summarise DMB events when it lags
 *   ism_shm_loop.c    the control thread: epoll, timers, wake-ups, the
 *                     bound on its work per turn
 *   ism_shm_conn.c    the transport: connections, send queues, answers,
 *                     accepting, waiting for answers
 *   ism_shm_fabric.c  the rendezvous directory: slots, stale sockets,
 *                     the reaper that unlinks a killed process's socket
 *   ism_shm_reaper.c  that reaper, a program of its own
 *   ism_shm_policy.c  who may be a peer; which process a connection is
 *   ism_shm_mem.c     sealed memfds
 *   ism_shm_msg.c     wire format and parser
 *
 * Memory: each DMB is its own sealed memfd, mapped by its owner and passed
 * (SCM_RIGHTS) only to the peer whose GID is its rgid. Every peer also
 * learns that the DMB exists (token, index, rgid, no fd), so a writer that
 * is not the rgid gets -EACCES like on the other backends. Each receiver
 * creates one software SBA per writer peer and passes it to that peer
 * only; a writer raises signals there, so a rogue writer can disturb only
 * signals of DMBs it may write anyway.
 *
 * Threads: the fast path reads the views (below) with atomic loads and
 * never locks. Everything else runs under shm_ctl.lock: the control
 * thread that serves the sockets, and the control ops of the application,
 * which send a request to the peers concerned and wait for their answers
 * (so that, as on loopback, a token works for its writer when register
 * returns and stops working when unregister returns). Memory a move may
 * use is unmapped only after rte_ism_pmd_synchronize().
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include <rte_tailq.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_msg.h"
#include "ism_sw_dmb.h"
#include "ism_sw_sba.h"

#define SHM_DRIVER_NAME		"ism_shm"
/* Most requests one peer may have unanswered; keeps every send below the
 * socket buffer so the control thread never blocks. */
#define SHM_WINDOW		16
/* How long a control op waits for a peer's answer; a peer whose oldest
 * request is unanswered this long is unresponsive: ops stop waiting for
 * it until it answers again. */
#define SHM_ACK_TIMEOUT_MS	5000
/* How long a new connection may take for HELLO .. READY. */
#define SHM_HANDSHAKE_MS	5000
/* Connections that have not finished their handshake, per device; more
 * are refused with REFUSE(-EBUSY) and their initiators connect again
 * later (SHM_RETRY_MIN_MS doubling up to SHM_RETRY_MAX_MS). */
#define SHM_MAX_PENDING		16
#define SHM_RETRY_MIN_MS	50
#define SHM_RETRY_MAX_MS	1000
/* uids and gids an allow_uid= / allow_gid= devarg may list. */
#define SHM_MAX_ALLOW		16
/* Work units (a message, an unmap; a departure counts SHM_WORK_DEPART)
 * the control thread does per hold of shm_ctl.lock. */
#define SHM_LOOP_BUDGET		64
#define SHM_WORK_DEPART		16
/* Event queue entries kept for peers' arrivals and departures: DMB events
 * are summarised rather than take them. */
#define SHM_EV_RESERVE		(2 * SHM_MAX_SLOTS)
#define SHM_NO_SLOT		0xff
/* Passed as the fd of a message that carried one we could not receive
 * (out of file descriptors here): our failure, not the peer's. */
#define SHM_FD_LOST		(-2)

_Static_assert(SHM_NB_IDX == ISM_SW_SBA_NB_IDX, "SBA covers all indices");
_Static_assert(SHM_NB_IDX == ISM_SW_NB_IDX, "token covers all indices");
_Static_assert(SHM_IDX_FIRST == RTE_ISM_DMB_IDX_FIRST, "reserved indices");

/* What the fast path reads about one DMB index of one owner: 32 bytes,
 * so that an index is one shift and a mask of the token. */
struct shm_view_ent {
	uint64_t token;		/* current token; 0 = no writable DMB */
	void *addr;		/* mapping, if this device is the rgid */
	uint64_t len;		/* 64 bits: the fast path's bound */
	uint32_t writable;	/* this device is the rgid */
	uint32_t pad;
};
_Static_assert(sizeof(struct shm_view_ent) == 32, "fast-path entry");

/* Control-path state of a remote DMB mapped here. */
struct shm_view_ctl {
	uint64_t id_token;	/* token while the mapping lives */
	void *addr;		/* the mapping */
	size_t map_len;
	uint32_t attach_cnt;	/* rte_ism_dmb_attach() by this device */
};

/* One owner's DMBs as a device sees them; indexed by DMB index. */
struct shm_view {
	struct ism_sw_sba *sba;	/* where to raise the owner's signals */
	uint32_t max_dmbs;
	/* [SHM_NB_IDX]: every index a token can name, so that the fast
	 * path needs no range check (those past max_dmbs stay empty). */
	struct shm_view_ent *ent;
	struct shm_view_ctl *ctl;	/* [SHM_IDX_FIRST + max_dmbs] */
	/* After its peer left: mappings the control thread still unmaps. */
	TAILQ_ENTRY(shm_view) reclaim_next;
	uint32_t reclaim_idx;		/* next index to look at */
};

/* A DMB of this device. */
struct shm_own_dmb {
	uint64_t token;		/* 0: index free */
	struct rte_ism_gid rgid;
	void *addr;
	size_t map_len;
	int fd;			/* kept to grant it to a (re)joining rgid */
	uint32_t len;
	uint32_t attach_cnt;	/* attachments of the writer (ATTACH) */
	bool registered;	/* false: unregistered, still attached */
};

/* Something the control thread waits on (epoll data.ptr). Freed only by
 * the control thread, between two epoll_wait batches. */
struct shm_watch {
	TAILQ_ENTRY(shm_watch) next;	/* graveyard */
	int fd;
	bool dead;
	bool paused;		/* taken out of the epoll set for a while */
	void (*fn)(struct shm_watch *w, uint32_t events);
	void *arg;
};

/* A message waiting to be sent; owns fd (a dup) if >= 0. A grant
 * (grant_token != 0) takes the fd of that own DMB when it is sent: a
 * queue of grants must not hold an fd each. */
struct shm_out {
	STAILQ_ENTRY(shm_out) next;
	struct shm_msg msg;
	int fd;
	uint64_t grant_token;
};
STAILQ_HEAD(shm_out_list, shm_out);

/* An event held back for the client (ism_shm_event.c). */
struct shm_ev {
	STAILQ_ENTRY(shm_ev) next;
	struct rte_ism_event ev;
};

enum shm_peer_how {
	SHM_DOWN_CLOSE,		/* our device is closing */
	SHM_DOWN_BYE,		/* the peer said good-bye */
	SHM_DOWN_LOST,		/* EOF, error, protocol error, timeout */
};

/* One connection to another device of the fabric. */
struct shm_peer {
	TAILQ_ENTRY(shm_peer) next;	/* dev->conns */
	struct shm_dev *dev;
	struct shm_watch *w;
	int fd;
	uint64_t id;		/* unique per connection, for waiters */
	pid_t pid;		/* SO_PEERCRED: 0 if not in our PID namespace */
	uint64_t pid_ino;	/* its process (pidfs inode), 0 if unknown */
	bool retry;		/* we connected, it refused: connect again */
	bool initiator;		/* we connected (it is older) */
	bool hello_sent;	/* our announcements may follow */
	bool hello_rcvd;	/* identity verified, in dev->peers[] */
	bool ready_rcvd;
	bool up;		/* DEV_ENABLED posted */
	bool unresponsive;	/* a request unanswered SHM_ACK_TIMEOUT_MS */
	uint64_t deadline_ns;	/* handshake must end by then */
	/* Identity: from the socket name (initiator) or HELLO (verified). */
	struct rte_ism_gid gid;
	uint8_t slot;
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
	/* Memory shared with it. */
	struct shm_view *view;		/* its DMBs */
	struct ism_sw_sba *rx_sba;	/* made here, it raises ours */
	struct ism_sw_sba *tx_sba;	/* made there, we raise its */
	/* Sending. */
	struct shm_out_list outq;	/* requests, HELLO, READY, in order */
	struct shm_out_list ackq;	/* ACKs that found the socket full */
	uint32_t ackq_len;		/* at most SHM_WINDOW */
	uint32_t bye_seq;		/* its BYE, answered once it is down */
	uint32_t inflight;		/* requests sent, not answered */
	uint32_t sent_seq[SHM_WINDOW];	/* their seqs, oldest first */
	uint64_t sent_ns[SHM_WINDOW];	/* and when they were sent */
	uint32_t sent_head;
	/* DMB events about it summarised (not posted) at its departure. */
	uint64_t ev_summarised;
};
TAILQ_HEAD(shm_peer_list, shm_peer);

/* A control op waiting for the answers to request seq from the
 * connections ids[]; the control thread fills status[] (1: pending). */
struct shm_wait {
	uint32_t seq;
	unsigned int n;
	const uint64_t *ids;
	int *status;
};

struct shm_dev {
	struct ism_pmd_dev common;	/* first: fast-path context */

	/* Fast path: written under shm_ctl.lock, read with atomics. */
	struct shm_view *views[SHM_MAX_SLOTS];	/* by owner's fabric slot */
	/* views[slot]->ent, shm_no_ent where views[slot] is NULL: the
	 * fast path tests neither the view nor the index. */
	const struct shm_view_ent *fp_ent[SHM_MAX_SLOTS];
	struct ism_sw_sba *rx_sba[SHM_MAX_SLOTS];	/* by writer slot */
	uint64_t rx_active;			/* rx_sba[] entries in use */
	uint8_t writer_slot[SHM_NB_IDX];	/* own DMB -> writer slot */
	uint32_t poll_next;			/* fairness between SBAs */

	/* Identity. */
	struct rte_ism_gid gid;
	uint16_t chid;
	uint8_t slot;
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
	char name[RTE_ISM_NAME_LEN];

	/* Own memory. */
	struct shm_view *own_view;	/* = views[slot] */
	struct shm_own_dmb *own;	/* [SHM_IDX_FIRST + max_dmbs] */
	struct ism_sw_dmb_ids ids;	/* own indices, token generations */
	struct ism_sw_sba *sba;	/* self-writes; = rx_sba[slot] */
	/* DMBs we attached whose owner left: mapped until detach. */
	struct ism_sw_orphan_list orphans;

	/* Rendezvous directory (ism_shm_fabric.c). */
	char dir[108];
	int dirfd;
	char sock_name[64];	/* own socket, relative to dir */
	dev_t sock_dev;
	ino_t sock_ino;
	struct shm_watch *lw;	/* listening socket */
	uint64_t accept_retry_ns;	/* accept paused (no fds) until then */
	pid_t reaper_pid;	/* unlinks our socket if we are killed */
	int reaper_fd;		/* its pipe; EOF says "we are gone" */
	uint64_t reap_slots;	/* sockets of vanished peers to remove */
	struct rte_ism_gid reap_gid[SHM_MAX_SLOTS];
	uint64_t reap_retry_ns;	/* the directory was locked: retry then */
	/* Connections we made that were refused as busy, or closed before
	 * the peer's HELLO: made again at retry_ns[slot]. */
	uint64_t retry_slots;
	struct rte_ism_gid retry_gid[SHM_MAX_SLOTS];
	uint64_t retry_ns[SHM_MAX_SLOTS];
	uint16_t retry_ms[SHM_MAX_SLOTS];	/* back-off */

	/* Access policy (ism_shm_fabric.c): who may be a peer. */
	uid_t dir_uid;		/* the directory's owner: always */
	/* What an id not mapped in our user namespace reads as (never
	 * equal to an allowed id); UINT32_MAX where every id is mapped. */
	uint32_t unmapped_uid;
	uint32_t unmapped_gid;
	uint32_t allow_uid[SHM_MAX_ALLOW];
	uint32_t allow_gid[SHM_MAX_ALLOW];
	unsigned int nb_allow_uid;
	unsigned int nb_allow_gid;

	/* Control (under shm_ctl.lock). */
	pthread_mutex_t op_lock;	/* one waiting control op at a time */
	struct shm_wait *wait;		/* that op, while it waits */
	struct shm_peer_list conns;	/* every connection */
	struct shm_peer *peers[SHM_MAX_SLOTS];	/* verified, by slot */
	TAILQ_HEAD(, shm_view) reclaim;	/* views of departed peers */
	uint32_t seq;
	TAILQ_ENTRY(shm_dev) ctl_next;	/* devices the thread serves */
	bool attached;			/* in that list */

	/* Events held back while the client's queue is full. */
	STAILQ_HEAD(, shm_ev) outbox;
	uint32_t outbox_len;

	/* Counters (xstats). */
	uint64_t protocol_errors;
	uint64_t conns_refused;		/* at the pending limit, no fd */
	uint64_t handshakes_expired;
	uint64_t ev_summarised;		/* DMB events not posted */
	uint64_t ev_held;		/* events that waited in the outbox */
	uint64_t ev_lost;		/* the outbox was full too */
};

static inline struct shm_dev *
shm_dev_of(struct rte_ism_dev *idev)
{
	return idev->dev_private;
}

/* ism_shm_loop.c: the control thread. */
struct shm_ctl {
	pthread_mutex_t lock;	/* all control state of all shm devices */
	pthread_cond_t cond;	/* answers, handshakes, peers leaving */
};
extern struct shm_ctl shm_ctl;

/* Application threads take shm_ctl.lock with these: the control thread
 * lets them in between two turns of its work. */
void shm_ctl_lock(void);
void shm_ctl_unlock(void);
/* Count d in (the first one starts the control thread) / out. */
int shm_ctl_attach(struct shm_dev *d);
void shm_ctl_detach(struct shm_dev *d);
uint32_t shm_next_seq(struct shm_dev *d);
/* Watch fd on the control thread; NULL on error (logged). */
struct shm_watch *shm_watch_add(int fd, void (*fn)(struct shm_watch *,
		uint32_t), void *arg);
/* Stop watching and close the fd; the watch is freed later. */
void shm_watch_del(struct shm_watch *w);
/* Take a watch out of the epoll set for a while / put it back. */
void shm_watch_pause(struct shm_watch *w);
int shm_watch_resume(struct shm_watch *w);
/* Something due at deadline (ns) that the control thread's next wake-up
 * must not miss (a thread other than the control thread added it). */
void shm_loop_arm(uint64_t deadline);
/* Count work done by the control thread; false once its turn is used up
 * (the rest waits for the next turn). */
bool shm_loop_work(unsigned int units);
bool shm_loop_budget_left(void);
/* Most work units done in one turn so far (xstat). */
uint64_t shm_loop_work_max(void);

/* ism_shm_ops.c: the control ops. */
extern const struct rte_ism_dev_ops shm_ops;
/* The op lock (one waiting op per device), then shm_ctl.lock. */
void shm_op_lock(struct shm_dev *d);
void shm_op_unlock(struct shm_dev *d);

/* ism_shm_conn.c: the transport. */
/* A connection on fd (connected or accepted); NULL on error. */
struct shm_peer *shm_conn_new(struct shm_dev *d, int fd, bool initiator);
/* Queue a message (fd dup'ed if >= 0). */
int shm_send(struct shm_peer *p, struct shm_msg *m, int fd);
/* Queue a DMB_ADD that carries the memfd of own DMB m->u.dmb.token. */
int shm_send_grant(struct shm_peer *p, struct shm_msg *m);
/* Answer request seq of p now (or queue the answer); -EPROTO if p has more
 * answers queued than it may have requests unanswered (SHM_WINDOW). */
int shm_send_ack(struct shm_peer *p, uint32_t seq, int32_t status);
/* Close the connection, free p; the peer must be down already. */
void shm_conn_free(struct shm_peer *p);
/* Handle what p has received (within the control thread's budget);
 * false if the connection is gone. */
bool shm_conn_poll(struct shm_peer *p);
/* The same, whatever the budget: whether a peer that claims p's identity
 * finds p still alive (its EOF not yet read). */
bool shm_conn_drain(struct shm_peer *p);
/* Find a connection by id; NULL if it is gone. */
struct shm_peer *shm_conn_find(struct shm_dev *d, uint64_t id);
/* Deadlines of d's connections (handshakes, unanswered requests) and
 * queues that found a full socket; returns the next deadline. */
uint64_t shm_conn_tick(struct shm_dev *d, uint64_t now);
/* Wait (shm_ctl.lock held) until every connection in ids[] answered seq,
 * is gone or unresponsive; status[i] gets the answer, -ENETUNREACH if the
 * connection ended first, -ETIMEDOUT if the peer is unresponsive or after
 * SHM_ACK_TIMEOUT_MS. Call it before the lock is released after queueing
 * the request. */
void shm_wait_answers(struct shm_dev *d, uint32_t seq, const uint64_t *ids,
		int *status, unsigned int n);
/* The answer to seq from p (or -ENETUNREACH when p ends) reaches a
 * control op that waits for it. */
void shm_wait_done(struct shm_peer *p, uint32_t seq, int status);
/* Wait until every connection in ids[] is up or gone (the control thread
 * drops it at its handshake deadline). */
void shm_wait_up(struct shm_dev *d, const uint64_t *ids, unsigned int n);
/* Accept connections on d's listening socket / stop (and close it). */
int shm_listen_start(struct shm_dev *d, int fd);
void shm_listen_stop(struct shm_dev *d);
/* Resume accepting after a pause for lack of fds; the next deadline. */
uint64_t shm_listen_tick(struct shm_dev *d, uint64_t now);

/* ism_shm_peer.c: the protocol. */
/* Handle a parsed message; fd (or -1, or SHM_FD_LOST) becomes the
 * callee's. Returns 0, 1 if the handler ended the connection (BYE),
 * -EPROTO after which the caller drops it as a protocol error, or another
 * negative errno (a failure of ours) after which the caller drops it
 * without blaming the peer; *why says why. */
int shm_peer_handle(struct shm_peer *p, const struct shm_msg *m, int fd,
		const char **why);
/* Send HELLO and our DMB list (initiator at join, acceptor on READY). */
int shm_peer_greet(struct shm_peer *p);
/* The connection ends: undo everything, post events, free it. Mappings
 * of its DMBs are left to shm_reclaim() unless our device closes. */
void shm_peer_down(struct shm_peer *p, enum shm_peer_how how);
/* Unmap what departed peers left, within the control thread's budget
 * (all of it on another thread); true if some is left. */
bool shm_reclaim(struct shm_dev *d);
/* Send m (a request) to every peer that has our HELLO, the memfd of the
 * DMB m announces to its rgid if grant; ids[] (2 * SHM_MAX_SLOTS) gets the
 * connections to wait for (shm_wait_answers). Returns the seq. */
uint32_t shm_announce(struct shm_dev *d, struct shm_msg *m, uint64_t *ids,
		unsigned int *n, bool grant);
struct shm_peer *shm_peer_by_gid(struct shm_dev *d,
		const struct rte_ism_gid *gid);
/* Slot whose SBA signals of a DMB for rgid arrive in, or SHM_NO_SLOT. */
uint8_t shm_writer_slot(struct shm_dev *d, const struct rte_ism_gid *rgid);
struct shm_view *shm_view_new(uint32_t max_dmbs);
/* What fp_ent[] holds for a slot without a view: every entry empty. */
extern struct shm_view_ent shm_no_ent[SHM_NB_IDX];
/* views[slot] = v (NULL: none) and fp_ent[slot] with it. */
void shm_view_publish(struct shm_dev *d, unsigned int slot,
		struct shm_view *v);
void shm_view_free(struct shm_view *v);
/* Free an own DMB index (unmapped, fd closed); no move may use it. */
void shm_own_free(struct shm_dev *d, uint32_t idx);
/* Own DMB with this token (registered or still attached) or NULL. */
struct shm_own_dmb *shm_own_find(struct shm_dev *d, uint64_t token);
/* Orphans' memory (ism_sw_dmb.h). */
void shm_mem_free(void *addr, size_t len);

/* ism_shm_event.c: events for the client. */
/*
 * Post an event. DEV events are never lost: while the client's queue is
 * full they wait in the outbox. A BUF event is summarised (counted, not
 * posted: returns false) when the queue has no more than SHM_EV_RESERVE
 * entries left. Everything queued after a held event waits behind it.
 */
bool shm_post(struct shm_dev *d, uint32_t type, uint32_t code,
		const struct rte_ism_gid *gid, uint64_t token, uint64_t info);
/* Move held events to the client's queue as far as it has room; the
 * deadline of the next try (UINT64_MAX: none held). */
uint64_t shm_events_tick(struct shm_dev *d, uint64_t now);
void shm_events_free(struct shm_dev *d);

/* ism_shm_fabric.c: the rendezvous directory. */
int shm_fabric_open(struct shm_dev *d, const char *dir, bool chid_set);
/* ism_shm_policy.c: who may be a peer. */
/* Why the policy refuses a process of these credentials; NULL if it may
 * be a peer. */
const char *shm_policy_refusal(const struct shm_dev *d, uid_t uid, gid_t gid);
/* Check the allowed ids against our user namespace (-EINVAL: one names
 * every unmapped id; one not mapped here: a warning). */
int shm_policy_ids_init(struct shm_dev *d);
/* Whether the directory (real path, stat) agrees with the policy; sets
 * d->dir_uid. 0 or -EPERM (logged). */
int shm_policy_dir_check(struct shm_dev *d, const char *real,
		const struct stat *st);
/* Parse an allow_uid= / allow_gid= value ("1000", "[1000,1001]",
 * "1000:1001") into ids[SHM_MAX_ALLOW]; the count or -EINVAL. */
int shm_policy_parse(const char *v, uint32_t *ids);
/* The process at the other end of fd (pidfs inode of SO_PEERPIDFD), 0 if
 * the kernel cannot tell. */
uint64_t shm_peer_process(int fd);
/* A live device found when joining, connected to. */
struct shm_fabric_peer {
	int fd;
	uint8_t slot;
	struct rte_ism_gid gid;
	pid_t pid;
};
/* Connect to every live device (fp[SHM_MAX_SLOTS], *n), claim a slot,
 * bind the listening socket (*lfd), start the reaper. */
int shm_fabric_join(struct shm_dev *d, struct shm_fabric_peer *fp,
		unsigned int *n, int *lfd);
void shm_fabric_leave(struct shm_dev *d);
/* After a peer vanished: unlink its socket if nobody listens there. Never
 * waits for the directory's lock: retried by shm_fabric_tick(). */
void shm_fabric_reap(struct shm_dev *d, uint8_t slot,
		const struct rte_ism_gid *gid);
/* Connect again to (slot, gid) later: a connection we made ended before
 * it was up. */
void shm_fabric_retry(struct shm_dev *d, uint8_t slot,
		const struct rte_ism_gid *gid);
/* A connection we made to slot is up: its next retry starts afresh. */
void shm_fabric_retry_reset(struct shm_dev *d, uint8_t slot);
uint64_t shm_fabric_tick(struct shm_dev *d, uint64_t now);
/* Is the socket of (slot, gid) in the fabric held by p's process? */
bool shm_fabric_verify(struct shm_dev *d, uint8_t slot,
		const struct rte_ism_gid *gid, const struct shm_peer *p);

/* ism_shm_mem.c: sealed memfds. */
size_t shm_map_len(size_t len);
/* New sealed memfd of len bytes, mapped; 0 or -errno (logged). */
int shm_memfd_new(const char *name, size_t len, int *fd, void **addr);
/* The same, its pages on NUMA node socket (SOCKET_ID_ANY: anywhere). */
int shm_memfd_new_on(const char *name, size_t len, int socket, int *fd,
		void **addr);
/* Map a received memfd after checking seals and size; 0, -EPROTO (not a
 * memfd as announced: the sender's fault) or -errno (a failure here). */
int shm_memfd_map(int fd, size_t len, void **addr, const char **why);
void shm_unmap(void *addr, size_t len);

#endif /* ISM_SHM_H */
