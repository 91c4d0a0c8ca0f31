/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Events for the client of an shm device. The library's queue holds
 * RTE_ISM_EVENT_QUEUE_SIZE events and drops what does not fit; a mass
 * departure (many peers leaving, each with thousands of DMBs) would fill
 * it with DMB events and lose the departures themselves. So:
 *
 * - a DMB event (RTE_ISM_EVENT_BUF) is posted only while the queue has
 *   more than ISM_SHM_EV_RESERVE entries free; otherwise it is summarised:
 *   counted (xstat events_summarised, and in the info of the peer's
 *   DEV_DISABLED event) instead of posted. The reserve keeps room for an
 *   arrival and a departure per fabric slot;
 * - a peer's arrival or departure (RTE_ISM_EVENT_DEV) is never lost: when
 *   the queue is full it waits in the device's outbox, which the control
 *   thread moves to the queue as the client makes room;
 * - once something waits in the outbox, every later event waits behind it
 *   (the order the client sees is the order things happened), up to
 *   SHM_OUTBOX_SOFT events; beyond that DMB and software events are
 *   summarised or dropped and counted, and only DEV events are kept, up
 *   to SHM_OUTBOX_MAX. An arrival and the departure of the same GID that
 *   both wait cancel out.
 */

#include <stdlib.h>
#include <string.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_event.h"
#include "ism_shm_loop.h"

#define SHM_OUTBOX_SOFT		256
#define SHM_OUTBOX_MAX		4096
/* How soon held events are tried again while the client does not poll. */
#define SHM_EV_RETRY_MS		10

static void
fill(struct rte_ism_event *ev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *gid, uint64_t token, uint64_t info)
{
	memset(ev, 0, sizeof(*ev));
	ev->type = type;
	ev->code = code;
	ev->token = token;
	ev->info = info;
	if (gid != NULL)
		ev->gid = *gid;
}

/* The arrival of gid if it still waits in the outbox, else NULL. */
static struct ism_shm_ev *
held_arrival(struct ism_shm_events *d, const struct rte_ism_gid *gid)
{
	struct ism_shm_ev *e, *last = NULL;

	STAILQ_FOREACH(e, &d->outbox, next)
		if (e->ev.type == RTE_ISM_EVENT_DEV &&
		    rte_ism_gid_equal(&e->ev.gid, gid))
			last = e;
	return last != NULL && last->ev.code == RTE_ISM_DEV_ENABLED ?
		last : NULL;
}

static bool
hold(struct ism_shm_events *d, const struct rte_ism_event *ev)
{
	bool dev = ev->type == RTE_ISM_EVENT_DEV;
	struct ism_shm_ev *e;

	if (dev && ev->code == RTE_ISM_DEV_DISABLED) {
		e = held_arrival(d, &ev->gid);
		if (e != NULL) {
			/* The client never heard of it: nothing to say. */
			STAILQ_REMOVE(&d->outbox, e, ism_shm_ev, next);
			d->outbox_len--;
			free(e);
			return true;
		}
	}
	if (d->outbox_len >= (dev ? SHM_OUTBOX_MAX : SHM_OUTBOX_SOFT))
		goto lost;
	e = malloc(sizeof(*e));
	if (e == NULL)
		goto lost;
	e->ev = *ev;
	STAILQ_INSERT_TAIL(&d->outbox, e, next);
	d->outbox_len++;
	d->held++;
	ism_shm_loop_arm(ism_now_ns() + SHM_EV_RETRY_MS * 1000000ULL);
	return true;
lost:
	if (ev->type == RTE_ISM_EVENT_BUF) {
		d->summarised++;
		return false;
	}
	d->lost++;
	ISM_PMD_LOG_RL(ERR, "%s: event (type %u code 0x%x) lost: %u events "
		       "wait for the client to poll", d->name, ev->type,
		       ev->code, d->outbox_len);
	return false;
}

void
ism_shm_events_init(struct ism_shm_events *d, struct rte_ism_dev *idev,
		const char *name)
{
	d->idev = idev;
	d->name = name;
	STAILQ_INIT(&d->outbox);
	d->outbox_len = 0;
}

bool
ism_shm_event_post(struct ism_shm_events *d, uint32_t type, uint32_t code,
		const struct rte_ism_gid *gid, uint64_t token, uint64_t info)
{
	struct rte_ism_dev *idev = d->idev;
	struct rte_ism_event ev;
	uint32_t space;

	fill(&ev, type, code, gid, token, info);
	if (!STAILQ_EMPTY(&d->outbox))
		return hold(d, &ev);
	space = rte_ism_pmd_event_space(idev);
	if (type == RTE_ISM_EVENT_BUF && space <= ISM_SHM_EV_RESERVE) {
		d->summarised++;
		return false;
	}
	if (type == RTE_ISM_EVENT_DEV && space == 0)
		return hold(d, &ev);
	/* A software event the queue has no room for is dropped and
	 * counted by the library, as on every backend.
	 */
	return rte_ism_pmd_event_post(idev, &ev) == 0;
}

uint64_t
ism_shm_events_tick(struct ism_shm_events *d, uint64_t now)
{
	struct rte_ism_dev *idev = d->idev;
	struct ism_shm_ev *e;

	while ((e = STAILQ_FIRST(&d->outbox)) != NULL &&
	       ism_shm_loop_budget_left() &&
	       rte_ism_pmd_event_space(idev) > 0) {
		STAILQ_REMOVE_HEAD(&d->outbox, next);
		d->outbox_len--;
		rte_ism_pmd_event_post(idev, &e->ev);
		free(e);
		ism_shm_loop_work(1);
	}
	return STAILQ_EMPTY(&d->outbox) ? UINT64_MAX :
		now + SHM_EV_RETRY_MS * 1000000ULL;
}

void
ism_shm_events_free(struct ism_shm_events *d)
{
	struct ism_shm_ev *e;

	while ((e = STAILQ_FIRST(&d->outbox)) != NULL) {
		STAILQ_REMOVE_HEAD(&d->outbox, next);
		free(e);
	}
	d->outbox_len = 0;
}
