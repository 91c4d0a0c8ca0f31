/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_DEV_H
#define ISM_SHM_DEV_H

/*
 * An shm device and its peers as the protocol keeps them (ism_shm_peer.c
 * maintains them; the ops, the fast path and the probe read them). Layer 6
 * (see ism_shm.h), with ism_shm_peer.h.
 *
 * Threads: the fast path reads the views with atomic loads and never
 * locks. Everything else runs under the control lock (ism_shm_loop.h):
 * the control thread that serves the sockets, and the control ops of the
 * application, which send a request to the peers concerned and wait for
 * their answers (so that, as on loopback, a token works for its writer
 * when register returns and stops working when unregister returns).
 * Memory a move may use is unmapped only after rte_ism_pmd_synchronize().
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_spinlock.h>

#include "ism_pmd.h"
#include "ism_shm_conn.h"
#include "ism_shm_event.h"
#include "ism_shm_fabric.h"
#include "ism_shm_loop.h"
#include "ism_shm_msg.h"
#include "ism_shm_policy.h"
#include "ism_sw_dmb.h"
#include "ism_sw_sba.h"
#include "ism_sw_view.h"
#include "ism_wake.h"

#define ISM_SHM_DRIVER_NAME	"ism_shm"
/* A connection we made that failed before it was up is made again after
 * ISM_SHM_RETRY_MIN_MS, doubling up to ISM_SHM_RETRY_MAX_MS.
 */
#define ISM_SHM_RETRY_MIN_MS	50
#define ISM_SHM_RETRY_MAX_MS	1000

_Static_assert(SHM_NB_IDX == ISM_SW_SBA_NB_IDX, "SBA covers all indices");
_Static_assert(SHM_NB_IDX == ISM_SW_NB_IDX, "token covers all indices");
_Static_assert(SHM_IDX_FIRST == RTE_ISM_DMB_IDX_FIRST, "reserved indices");
/* ism_shm_wake.c gives fabric slot s wake-up channel 1 + s (0 is this
 * process's own): ism_wake.h sizes its channels by hand to match.
 */
_Static_assert(ISM_WAKE_CHANNELS == 1 + SHM_MAX_SLOTS,
	       "a wake-up channel per fabric slot, and the own one");

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
	/* How to wake the owner after a raise (its flag in the tail of sba,
	 * its channel's sending end): NULL until it sent WAKE
	 * (ism_shm_wake.c).
	 */
	RTE_ATOMIC(const struct ism_wake_peer *) wake;
	struct ism_wake_peer wake_peer;	/* a peer's; fd -1 if none */
	uint32_t max_dmbs;
	/* [SHM_NB_IDX]: every index a token can name, so that the fast
	 * path needs no range check (those past max_dmbs stay empty); the
	 * entries of the software backends (ism_sw_view.h).
	 */
	struct ism_sw_view_ent *ent;
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

/* One peer: a connection (first member) and what the protocol knows. */
struct ism_shm_peer {
	struct ism_shm_conn c;
	struct ism_shm_dev *dev;
	bool retry;		/* we connected, it ended early: again */
	bool hello_sent;	/* our announcements may follow */
	bool hello_rcvd;	/* identity verified, in dev->peers[] */
	bool ready_rcvd;
	bool wake_rcvd;		/* its WAKE: view->wake set */
	bool up;		/* DEV_ENABLED posted */
	/* Identity: from the socket name (initiator) or HELLO (verified). */
	struct rte_ism_gid gid;
	uint8_t slot;
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
	/* Memory shared with it. */
	struct shm_view *view;		/* its DMBs */
	struct ism_sw_sba *rx_sba;	/* made here, it raises ours */
	struct ism_sw_sba *tx_sba;	/* made there, we raise its */
	uint32_t bye_seq;		/* its BYE, answered once it is down */
	/* DMB events about it summarised (not posted) at its departure. */
	uint64_t ev_summarised;
};

static inline struct ism_shm_peer *
ism_shm_peer_of(struct ism_shm_conn *c)
{
	return c == NULL ? NULL : (struct ism_shm_peer *)c;
}

/* Every peer (connection) of device d. */
#define ISM_SHM_PEER_FOREACH(p, d) \
	for ((p) = ism_shm_peer_of(TAILQ_FIRST(&(d)->conns.list)); \
	     (p) != NULL; (p) = ism_shm_peer_of(TAILQ_NEXT(&(p)->c, next)))
/* The same, p may be freed in the body. */
#define ISM_SHM_PEER_FOREACH_SAFE(p, d, tmp) \
	for ((p) = ism_shm_peer_of(TAILQ_FIRST(&(d)->conns.list)); \
	     (p) != NULL && ((tmp) = ism_shm_peer_of( \
		     TAILQ_NEXT(&(p)->c, next)), 1); (p) = (tmp))

struct ism_shm_dev {
	struct ism_pmd_dev common;	/* first: fast-path context */

	/* Fast path: written under the control lock, read with atomics. */
	RTE_ATOMIC(struct shm_view *) views[SHM_MAX_SLOTS]; /* by owner's slot */
	/* views[slot]->ent, ism_sw_view_no_ent where views[slot] is NULL:
	 * the fast path tests neither the view nor the index.
	 */
	RTE_ATOMIC(const struct ism_sw_view_ent *) fp_ent[SHM_MAX_SLOTS];
	RTE_ATOMIC(struct ism_sw_sba *) rx_sba[SHM_MAX_SLOTS]; /* by writer slot */
	RTE_ATOMIC(uint64_t) rx_active;		/* rx_sba[] entries in use */
	RTE_ATOMIC(uint8_t) writer_slot[SHM_NB_IDX]; /* own DMB -> writer slot */
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

	/* The layers below, each with its own state. */
	struct ism_shm_policy pol;	/* who may be a peer */
	struct ism_shm_fabric fab;	/* the rendezvous directory */
	struct ism_shm_conns conns;	/* every connection */
	struct ism_shm_events ev;	/* events for the client */
	struct ism_shm_ticker ticker;	/* our work on the control thread */

	/* Connections we made that ended before they were up: made again
	 * at retry_ns[slot]; retry_ms[slot] the back-off (0: none yet).
	 */
	uint64_t retry_slots;
	struct rte_ism_gid retry_gid[SHM_MAX_SLOTS];
	uint64_t retry_ns[SHM_MAX_SLOTS];
	uint16_t retry_ms[SHM_MAX_SLOTS];

	/* Interrupt mode (ism_shm_wake.c): our channels; our armed flag in
	 * the tail of sba and of every SBA a peer raises ours in (wake_sba,
	 * set together under wake_lock).
	 */
	struct ism_wake wake;
	rte_spinlock_t wake_lock;
	struct ism_sw_sba *wake_sba[SHM_MAX_SLOTS];

	/* Control (under the control lock). */
	pthread_mutex_t op_lock;	/* one waiting control op at a time */
	struct ism_shm_peer *peers[SHM_MAX_SLOTS];	/* verified, by slot */
	TAILQ_HEAD(, shm_view) reclaim;	/* views of departed peers */
	uint32_t seq;
};

static inline struct ism_shm_dev *
ism_shm_dev_of(struct rte_ism_dev *idev)
{
	return idev->dev_private;
}

#endif /* ISM_SHM_DEV_H */
