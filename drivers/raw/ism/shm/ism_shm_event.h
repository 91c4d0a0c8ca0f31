/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_EVENT_H
#define ISM_SHM_EVENT_H

/*
 * Events for the client of an shm device (ism_shm_event.c): never lose a
 * peer's arrival or departure, summarise DMB events when the client lags.
 * Layer 3 (see ism_shm.h). Under the control lock.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

#include <rte_ism.h>

#include "ism_shm_msg.h"

/* Event queue entries kept for peers' arrivals and departures: DMB events
 * are summarised rather than take them.
 */
#define ISM_SHM_EV_RESERVE	(2 * SHM_MAX_SLOTS)

struct rte_ism_dev;

/* An event held back for the client. */
struct ism_shm_ev {
	STAILQ_ENTRY(ism_shm_ev) next;
	struct rte_ism_event ev;
};

struct ism_shm_events {
	struct rte_ism_dev *idev;	/* whose queue */
	const char *name;		/* for logs */
	/* Events held back while the client's queue is full. */
	STAILQ_HEAD(, ism_shm_ev) outbox;
	uint32_t outbox_len;
	uint64_t summarised;		/* DMB events not posted */
	uint64_t held;			/* events that waited in the outbox */
	uint64_t lost;			/* the outbox was full too */
};

void ism_shm_events_init(struct ism_shm_events *e, struct rte_ism_dev *idev,
		const char *name);
/*
 * Post an event. DEV events are never lost: while the client's queue is
 * full they wait in the outbox. A BUF event is summarised (counted, not
 * posted: returns false) when the queue has no more than
 * ISM_SHM_EV_RESERVE entries left. Everything queued after a held event
 * waits behind it.
 */
bool ism_shm_event_post(struct ism_shm_events *e, uint32_t type,
		uint32_t code, const struct rte_ism_gid *gid, uint64_t token,
		uint64_t info);
/* Move held events to the client's queue as far as it has room; the
 * deadline of the next try (UINT64_MAX: none held).
 */
uint64_t ism_shm_events_tick(struct ism_shm_events *e, uint64_t now);
void ism_shm_events_free(struct ism_shm_events *e);

#endif /* ISM_SHM_EVENT_H */
