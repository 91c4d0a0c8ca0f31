/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PRIVATE_H
#define ISM_PRIVATE_H

/* Library-internal declarations of librte_ism. */

#include <rte_log.h>
#include <ism_compat.h>

#include "ism_driver.h"

extern int ism_logtype;

#define RTE_LOGTYPE_ISM ism_logtype
#define ISM_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM, "%s(): " fmt, __func__, ##__VA_ARGS__)

/* The xstats every device has: one per field of struct rte_ism_stats. */
#define ISM_XS_NB_COMMON (sizeof(struct rte_ism_stats) / sizeof(uint64_t))

/* Library state of a slot beside struct rte_ism_dev (reset at allocation). */
struct ism_slot {
	/* Moves the fast-path dummies refused with -ENODEV: written by any
	 * lcore (atomic add), read by the control path. */
	uint64_t no_device;
	/* Counter values at the last reset, per common xstat (stats lock). */
	uint64_t base[ISM_XS_NB_COMMON];
	/* Number of the driver's own xstats (fixed at probing_finish). */
	unsigned int nb_drv_xstats;
	/* RTE_ISM_VLAN_ID_RESERVED was added (SMC's ISMv2 probe). */
	bool vlan_reserved;
};
extern struct ism_slot ism_slots[RTE_ISM_MAX_DEVS];

/* The visible (attached, not closed) device dev_id, or NULL. */
struct rte_ism_dev *ism_dev_lookup(uint16_t dev_id);

/* ism_dev_lookup() with the log line every control call needs. */
struct rte_ism_dev *ism_dev_get(uint16_t dev_id, const char *caller);

#define ISM_DEV_OR_RET(dev, id) do { \
	(dev) = ism_dev_get((id), __func__); \
	if ((dev) == NULL) \
		return -ENODEV; \
} while (0)

static inline bool
ism_gid_is_zero(const struct rte_ism_gid *g)
{
	return g->gid == 0 && g->gid_ext == 0;
}

/* Event queue of one device (ism_events.c). */
struct ism_event_queue *ism_evq_create(int socket_id);
void ism_evq_free(struct ism_event_queue *q);
int ism_evq_post(struct ism_event_queue *q, const struct rte_ism_event *ev);
uint16_t ism_evq_poll(struct ism_event_queue *q, struct rte_ism_event *ev,
		uint16_t nb);
void ism_evq_counters(struct ism_event_queue *q, uint64_t *posted,
		uint64_t *dropped);
void ism_evq_reset_counters(struct ism_event_queue *q);
uint32_t ism_evq_space(struct ism_event_queue *q);

/* Counters (ism_stats.c): clear a slot's state at allocation; learn the
 * number of the driver's xstats at probing_finish (0 or the error). */
void ism_stats_slot_init(uint16_t dev_id);
int ism_stats_probe(struct rte_ism_dev *dev);

/* One-time set-up of the move tracking (ism_sync.c). */
void ism_sync_init(void);

/* Interrupt mode (ism_intr.c): an event was queued for dev; wake its
 * client if it is armed. */
void ism_intr_event_posted(struct rte_ism_dev *dev);

/* Telemetry commands (ism_telemetry.c). */
void ism_telemetry_init(void);

#endif /* ISM_PRIVATE_H */
