/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PRIVATE_H
#define ISM_PRIVATE_H

/* Library-internal declarations of librte_ism. */

#include <rte_log.h>

#include "ism_driver.h"

extern int ism_logtype;

#define ISM_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ism_logtype, "ISM: %s(): " fmt "\n", \
		__func__, ##__VA_ARGS__)

/* Event queue of one device (ism_events.c). */
struct ism_event_queue *ism_evq_create(void);
void ism_evq_free(struct ism_event_queue *q);
int ism_evq_post(struct ism_event_queue *q, const struct rte_ism_event *ev);
uint16_t ism_evq_poll(struct ism_event_queue *q, struct rte_ism_event *ev,
		uint16_t nb);
void ism_evq_counters(struct ism_event_queue *q, uint64_t *posted,
		uint64_t *dropped);
void ism_evq_reset_counters(struct ism_event_queue *q);
uint32_t ism_evq_space(struct ism_event_queue *q);

/* One-time set-up of the move tracking (ism_sync.c). */
void ism_sync_init(void);

/* Telemetry commands (ism_telemetry.c). */
void ism_telemetry_init(void);

/* Device lookup for telemetry: NULL if dev_id is not a device. */
struct rte_ism_dev *ism_dev_lookup(uint16_t dev_id);

#endif /* ISM_PRIVATE_H */
