/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Per-device event queue. Drivers post from any thread (control thread,
 * interrupt thread, another device's move); the client polls. Events are
 * control-plane traffic, so a spinlock is enough. Unlike the ISM hardware
 * ring of 15 entries, a full queue never overwrites: the new event is
 * dropped and counted.
 */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_malloc.h>
#include <rte_spinlock.h>

#include <eal_export.h>

#include "ism_private.h"

struct ism_event_queue {
	rte_spinlock_t lock;
	uint32_t head;		/* next to read */
	uint32_t count;		/* queued */
	uint64_t posted;
	uint64_t dropped;
	struct rte_ism_event ev[RTE_ISM_EVENT_QUEUE_SIZE];
};

struct ism_event_queue *
ism_evq_create(int socket_id)
{
	/* On the device's node, where its client reads it; anywhere rather
	 * than no device if that node has no memory left.
	 */
	struct ism_event_queue *q = rte_zmalloc_socket("ism_evq", sizeof(*q),
			RTE_CACHE_LINE_SIZE, socket_id);

	if (q == NULL && socket_id != SOCKET_ID_ANY)
		q = rte_zmalloc("ism_evq", sizeof(*q), RTE_CACHE_LINE_SIZE);
	if (q != NULL)
		rte_spinlock_init(&q->lock);
	return q;
}

void
ism_evq_free(struct ism_event_queue *q)
{
	rte_free(q);
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_time_ns, 26.03)
uint64_t
rte_ism_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

int
ism_evq_post(struct ism_event_queue *q, const struct rte_ism_event *ev)
{
	struct rte_ism_event *slot;
	int ret = 0;

	rte_spinlock_lock(&q->lock);
	if (q->count == RTE_ISM_EVENT_QUEUE_SIZE) {
		q->dropped++;
		ret = -ENOSPC;
	} else {
		slot = &q->ev[(q->head + q->count) % RTE_ISM_EVENT_QUEUE_SIZE];
		*slot = *ev;
		slot->time = rte_ism_time_ns();
		q->count++;
		q->posted++;
	}
	rte_spinlock_unlock(&q->lock);
	return ret;
}

uint16_t
ism_evq_poll(struct ism_event_queue *q, struct rte_ism_event *ev, uint16_t nb)
{
	uint16_t n = 0;

	rte_spinlock_lock(&q->lock);
	while (n < nb && q->count > 0) {
		ev[n++] = q->ev[q->head];
		q->head = (q->head + 1) % RTE_ISM_EVENT_QUEUE_SIZE;
		q->count--;
	}
	rte_spinlock_unlock(&q->lock);
	return n;
}

void
ism_evq_counters(struct ism_event_queue *q, uint64_t *posted,
		uint64_t *dropped)
{
	rte_spinlock_lock(&q->lock);
	*posted = q->posted;
	*dropped = q->dropped;
	rte_spinlock_unlock(&q->lock);
}

uint32_t
ism_evq_space(struct ism_event_queue *q)
{
	uint32_t n;

	rte_spinlock_lock(&q->lock);
	n = RTE_ISM_EVENT_QUEUE_SIZE - q->count;
	rte_spinlock_unlock(&q->lock);
	return n;
}
