/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_IVSHM_H
#define ISM_IVSHM_H

/*
 * Private to the ivshmem backend ("ism_ivshm"): ISM devices whose fabric
 * lives in one ivshmem region, shared by QEMU guests (ivshmem-plain, BAR 2
 * through vfio-pci on the ism bus) and host processes (the backing file,
 * vdev with path=). Files:
 *   ism_ivshm.c         the fast path and the rte_ism_dev_ops
 *   ism_ivshm_probe.c   devargs, the region (file or BAR), vdev and bus
 *                       drivers, create and destroy
 *   ism_ivshm_member.c  membership: join (claim a slot, unique GID,
 *                       announce), leave, expulsion and rejoin
 *   ism_ivshm_peer.c    what a device learns of the others through the
 *                       region: liveness, DMB tables, requests
 *   ism_ivshm_ctl.c     the control thread and bounded waits
 *   ism_ivshm_alloc.c   placement of DMBs in the device's partition
 *   ism_ivshm_layout.*  the region layout and its checked readers
 *   ism_ivshm_wake.c    the interrupt mode: the control pass wakes
 *
 * No socket: everything goes through the region. Each member advances a
 * heartbeat every IVSHM_PERIOD_US; one whose heartbeat stands still for
 * the liveness timeout (devarg liveness_ms) is declared gone by whoever
 * sees it first (its state word becomes DEAD), and every device retires
 * it: tokens stop working, events are posted, and its slot can be taken
 * again once every live member acknowledged the retirement (view_epoch).
 *
 * Threads: the fast path reads views[] and own_live[] with atomic loads,
 * takes no lock and does no control work (devtools/check-fastpath.py).
 * Control runs under ism_ivshm_ctl_lock: the control thread (one per
 * process, every IVSHM_PERIOD_US) and control ops, which wait for the
 * others' acknowledgments in the region with the lock released between
 * checks, running the control pass of this process's devices themselves
 * meanwhile (so devices of one process answer each other at once). Memory
 * a move may use is reused only after rte_ism_pmd_synchronize().
 *
 * What it shares with the other software backends (sw/): the fast path
 * (ism_sw_move.h, the writer's view of ism_sw_view.h), the SBA, the tokens
 * and DMB indices, the orphans (ism_sw_dmb.h). Another member may write
 * anything into the region: how honest members recover once it stops is
 * in ism_ivshm_peer.c.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include "ism_pmd.h"
#include "ism_sw_dmb.h"
#include "ism_sw_sba.h"
#include "ism_sw_view.h"
#include "ism_ivshm_layout.h"
#include "ism_wake.h"

#define IVSHM_DRIVER_NAME	"ism_ivshm"
/* Control pass (heartbeat, scan of the others) every 1 ms. */
#define IVSHM_PERIOD_US		1000
#define IVSHM_DEF_LIVENESS_MS	100
/* How long a control op waits for another member's acknowledgment. */
#define IVSHM_ACK_TIMEOUT_MS	5000
#define IVSHM_NO_SLOT		0xffu
/* Two resyncs with one peer are at least the liveness timeout apart, or
 * this if that is shorter: the peer's requests wait for a resync that is
 * due, and the peer waits IVSHM_ACK_TIMEOUT_MS for their answers.
 */
#define IVSHM_RESYNC_GAP_MAX_MS	1000
/* DMB table entries read again each pass: of each peer's table (what
 * this device uses), and of its own (what the others read).
 */
#define IVSHM_AUDIT_ENTRIES	32

_Static_assert(IVSHM_NB_IDX == ISM_SW_SBA_NB_IDX, "SBA covers all indices");
_Static_assert(IVSHM_IDX_FIRST == RTE_ISM_DMB_IDX_FIRST, "reserved indices");
_Static_assert(sizeof(struct ism_sw_sba) == IVSHM_SBA_SIZE, "SBA size");

/* What the control path keeps about one DMB index of another owner. */
struct ivshm_view_ctl {
	uint32_t attach;	/* attachments of this device */
	uint64_t gone;		/* last token removed with an event */
};

/* One owner's DMBs as a device sees them (addresses in its mapping of
 * the region), indexed by DMB index: [IVSHM_IDX_FIRST + max_dmbs].
 */
struct ivshm_view {
	struct ism_sw_view sw;		/* first: the fast path's; sba the
					 * owner's, in the region
					 */
	struct ivshm_view_ctl *ctl;
};

/* What a device knows of another slot of the region. */
struct ivshm_peer {
	/* Liveness: the state word and heartbeat last read, and when either
	 * last changed (CLOCK_MONOTONIC of this device).
	 */
	uint64_t word;
	uint64_t beat;
	uint64_t t_change;
	bool seen;		/* read at least once */
	bool moved;		/* changed since first read: it ran */
	/* In this device's view (same CHID, live). */
	bool up;
	uint64_t epoch;
	uint64_t retired;	/* epoch last retired: LIVE again is suspect */
	struct ivshm_ident id;
	struct ivshm_view *view;
	uint64_t seen_chg;
	uint64_t last_req;
	uint32_t audit;		/* next entry of its table read again */
	/* Misbehaved (peer_fence(), ism_ivshm_peer.c): not taken up before
	 * fence_ns; once taken up, asked to take us up again (resync) if the
	 * client may have been misled about this incarnation (broke_epoch).
	 */
	uint64_t fence_ns;
	uint64_t broke_epoch;
	bool broke;
	/* Resync (ism_ivshm_peer.c): our resync[] for it, the last time we
	 * took it up again, and whether our client needs us to.
	 */
	uint64_t resync_out;
	uint64_t resync_ns;
	bool resync_due;
};

/* A DMB of this device (its index is taken in ids while token != 0). */
struct ivshm_own {
	uint64_t token;		/* 0: index free */
	struct rte_ism_gid rgid;
	uint64_t off;		/* in the partition of slot */
	void *addr;
	uint32_t len;
	uint32_t attach_cnt;	/* attachments of the writer */
	uint8_t slot;		/* partition it is in */
	bool registered;	/* the client holds it */
	bool live;		/* in the table: its token works */
};

/* Free space of a partition, in IVSHM_DMB_ALIGN units, sorted. */
struct ivshm_alloc {
	uint32_t nb;
	uint32_t cap;
	struct ivshm_extent {
		uint64_t off;
		uint64_t len;
	} *ext;
};

enum ivshm_phase {
	IVSHM_PH_CLAIM,		/* looking for a slot */
	IVSHM_PH_CHECK,		/* claimed: is the GID unique? */
	IVSHM_PH_ANNOUNCE,	/* live: waiting for the others to see us */
	IVSHM_PH_LIVE,
	IVSHM_PH_LEAVING,	/* closing: waiting for the others */
	IVSHM_PH_FAILED,	/* join failed: join_err */
};

struct ivshm_dev {
	struct ism_pmd_dev common;	/* first: fast-path context */

	/* Fast path: written under the control lock, read with atomics. */
	RTE_ATOMIC(struct ism_sw_view *) views[IVSHM_MAX_MEMBERS]; /* by owner slot */
	/* views[slot]->ent, ism_sw_view_no_ent where views[slot] is NULL
	 * (ism_ivshm_view_publish()): move_data's fast path tests neither
	 * the view nor the index.
	 */
	RTE_ATOMIC(const struct ism_sw_view_ent *) fp_ent[IVSHM_MAX_MEMBERS];
	RTE_ATOMIC(struct ism_sw_sba *) sba;	/* own SBA, or quiet while out */
	RTE_ATOMIC(uint8_t) own_live[IVSHM_NB_IDX]; /* signals reported for these */

	/* Identity. */
	struct rte_ism_gid gid;
	uint16_t chid;
	uint8_t kind;			/* IVSHM_KIND_* */
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
	uint64_t liveness_ns;
	char name[RTE_ISM_NAME_LEN];

	/* The region. */
	void *base;
	struct ivshm_layout lay;
	char where[128];		/* file or PCI address, for logs */
	void *map;			/* own mapping (file), to unmap */
	size_t map_len;

	/* Membership (under the control lock). */
	enum ivshm_phase phase;
	int join_err;
	bool rejoin;			/* was in the fabric: retry joins */
	uint64_t phase_ns;
	unsigned int slot;		/* IVSHM_NO_SLOT while out */
	unsigned int prev_slot;		/* preferred when rejoining */
	uint64_t epoch;
	uint64_t beat;
	struct ivshm_member *me;
	struct ivshm_peer peers[IVSHM_MAX_MEMBERS];

	/* Own DMBs. */
	struct ivshm_own *own;		/* [IVSHM_IDX_FIRST + max_dmbs] */
	struct ism_sw_dmb_ids ids;	/* their indices and tokens */
	struct ivshm_view *own_view;	/* for moves to ourselves */
	struct ivshm_alloc alloc;
	uint8_t alloc_slot;		/* partition the allocator covers */
	uint64_t chg_head;
	uint32_t audit_next;		/* next own table entry checked */
	uint32_t req_ctr;
	/* DMBs of others this device attached that their owner unregistered
	 * or left (owner_tag: the owner's epoch; owner_gone: no DETACH to
	 * send, and the owner's slot stays pinned): the memory stays the
	 * owner's until we detach.
	 */
	struct ism_sw_orphan_list orphans;

	/* Counters (xstats) and the rate limit of peer-triggered logs. */
	uint64_t protocol_errors;
	uint64_t expulsions;
	uint64_t peers_gone;
	uint64_t resyncs;		/* peers taken up again (resync) */
	uint64_t log_next_ns;
	uint64_t log_dropped;

	pthread_mutex_t op_lock;	/* one waiting control op at a time */
	TAILQ_ENTRY(ivshm_dev) next;	/* devices of the control thread */
	bool attached;
	struct ism_sw_sba quiet_sba;	/* polled while out of the fabric */
	/* Interrupt mode (ism_ivshm_wake.c): woken once per arming. */
	struct ism_wake wake;
	RTE_ATOMIC(bool) wake_sent;
};

/* In the fabric: live in the region (also while the others take it up
 * after a rejoin).
 */
static inline bool
ivshm_in_fabric(const struct ivshm_dev *d)
{
	return d->phase == IVSHM_PH_ANNOUNCE || d->phase == IVSHM_PH_LIVE;
}

static inline struct ivshm_dev *
ivshm_dev_of(struct rte_ism_dev *idev)
{
	return idev->dev_private;
}

/* ism_ivshm_ctl.c */
extern pthread_mutex_t ism_ivshm_ctl_lock;
uint64_t ism_ivshm_now_ns(void);
/* Add d to the control thread (started with the first device) / remove. */
int ism_ivshm_ctl_attach(struct ivshm_dev *d);
void ism_ivshm_ctl_detach(struct ivshm_dev *d);
/* One control pass over every device of the process (lock held). */
void ism_ivshm_pass_all(void);
/* Wait (lock held, released between checks) until done(d, arg) or
 * timeout_ns: 0 or -ETIMEDOUT. Runs control passes meanwhile.
 */
int ism_ivshm_wait(struct ivshm_dev *d,
		bool (*done)(struct ivshm_dev *dev, void *ctx), void *arg,
		uint64_t timeout_ns);
/* A protocol error caused by slot (or -1): counted, logged at most once a
 * second per device.
 */
void ism_ivshm_bad(struct ivshm_dev *d, int slot, const char *why);

/* ism_ivshm_member.c */
/* One step of the join (claim, check, announce), of a leave, or the
 * detection of our own expulsion; called by every control pass.
 */
void ism_ivshm_member_step(struct ivshm_dev *d, uint64_t now);
/* Probe: wait until the join (started by ism_ivshm_ctl_attach) is done. */
int ism_ivshm_member_join(struct ivshm_dev *d);
/* Close: say we leave, wait for the others, free the slot. */
void ism_ivshm_member_leave(struct ivshm_dev *d);

/* ism_ivshm_peer.c */
/* Observe every other slot (liveness) and serve those in the view. */
void ism_ivshm_peers_step(struct ivshm_dev *d, uint64_t now);
bool ism_ivshm_peer_alive(const struct ivshm_dev *d, const struct ivshm_peer *p,
		uint64_t now);
bool ism_ivshm_peer_dead(const struct ivshm_dev *d, const struct ivshm_peer *p,
		uint64_t now);
/* Take slot s out of the view: unreachable, events (if events), acked. */
void ism_ivshm_peer_retire(struct ivshm_dev *d, unsigned int s, bool events);
/* The up peer with this GID, or -1. */
int ism_ivshm_peer_by_gid(const struct ivshm_dev *d,
		const struct rte_ism_gid *gid);
/* Send a request to up peer s and wait for its answer: its status,
 * -ENETUNREACH (it left first) or -ETIMEDOUT.
 */
int ism_ivshm_request(struct ivshm_dev *d, unsigned int s, uint32_t type,
		uint32_t code, uint64_t arg, uint32_t trigger);
struct ivshm_view *ism_ivshm_view_new(uint32_t max_dmbs);
/* views[slot] = v (NULL: none), and fp_ent[slot] with it. */
void ism_ivshm_view_publish(struct ivshm_dev *d, unsigned int slot,
		struct ivshm_view *v);
void ism_ivshm_view_free(struct ivshm_view *v);

/* ism_ivshm.c */
/* Own DMB with this token (registered, or kept for an attachment). */
struct ivshm_own *ism_ivshm_own_find(struct ivshm_dev *d, uint64_t token);
/* Free own DMB idx (no move can reach it any more). */
void ism_ivshm_own_free(struct ivshm_dev *d, uint32_t idx);
/* The epoch of slot s our orphans pin (the lowest), or 0. */
uint64_t ism_ivshm_pin(const struct ivshm_dev *d, unsigned int s);
/* Publish that own DMB idx changed (table entry written). */
void ism_ivshm_publish(struct ivshm_dev *d, uint32_t idx);
/* Check IVSHM_AUDIT_ENTRIES entries of our own DMB table against what we
 * registered, and write back (and announce) those another member changed.
 */
void ism_ivshm_own_audit(struct ivshm_dev *d);
extern const struct ism_backend ism_ivshm_backend;
/* Set the fast-path functions of a device being probed. */
void ism_ivshm_fast_path(struct rte_ism_dev *ism);

/* ism_ivshm_wake.c: the interrupt mode. */
int ism_ivshm_wake_init(struct ivshm_dev *d);
void ism_ivshm_wake_fini(struct ivshm_dev *d);
/* Wake the armed client if its SBA is pending (control pass). */
void ism_ivshm_wake_relay(struct ivshm_dev *d);
struct rte_intr_handle *ism_ivshm_intr_handle_get(struct rte_ism_dev *idev);
int ism_ivshm_intr_arm(struct rte_ism_dev *idev, bool on);
void ism_ivshm_intr_event(struct rte_ism_dev *idev);

/* ism_ivshm_alloc.c: offsets and lengths in IVSHM_DMB_ALIGN units. */
int ism_ivshm_alloc_init(struct ivshm_alloc *a, uint32_t cap, uint64_t units);
void ism_ivshm_alloc_reset(struct ivshm_alloc *a, uint64_t units);
/* First fit: the offset, or -1 if nothing fits. */
int64_t ism_ivshm_alloc_take(struct ivshm_alloc *a, uint64_t units);
void ism_ivshm_alloc_give(struct ivshm_alloc *a, uint64_t off, uint64_t units);
void ism_ivshm_alloc_fini(struct ivshm_alloc *a);

/* ism_ivshm_probe.c */
/* Create a device on a mapped region; on success the device owns map
 * (munmap at close) if map is not NULL.
 */
struct ivshm_region {
	void *base;
	uint64_t size;
	void *map;		/* to munmap at close, or NULL */
	uint8_t kind;
	const char *where;
};
int ism_ivshm_dev_create(const char *name, struct rte_device *device,
		const char *args, const struct ivshm_region *r, bool allow_path);

#endif /* ISM_IVSHM_H */
