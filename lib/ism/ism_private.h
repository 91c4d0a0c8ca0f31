/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PRIVATE_H
#define ISM_PRIVATE_H

/* Library-internal declarations of librte_ism. */

#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_log.h>
#include <ism_compat.h>

#include "ism_driver.h"

extern int ism_logtype;

#define RTE_LOGTYPE_ISM ism_logtype
#define ISM_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM, "%s(): " fmt, __func__, ##__VA_ARGS__)

/* The xstats every device has: one per field of struct rte_ism_stats. */
#define ISM_XS_NB_COMMON (sizeof(struct rte_ism_stats) / sizeof(uint64_t))

/* Length of the driver and backend names kept in the shared data. */
#define ISM_DRV_NAME_LEN 32

/* Where a slot of the shared data is in its life. */
enum ism_dev_state {
	ISM_DEV_FREE = 0,	/* no device */
	ISM_DEV_PROBING,	/* allocated, not visible yet */
	ISM_DEV_ATTACHED,	/* visible to clients */
	ISM_DEV_CLOSED,		/* closed, id taken until the removal */
};

/*
 * What every process of a DPDK application knows of a device: one slot per
 * id in the memzone ISM_DEV_DATA_MZ (as ethdev's rte_eth_dev_data). The
 * primary process writes it (identity and state at probe, close and
 * release; the reset bases); the fast-path dummies of any process add to
 * no_device. Pointers in it (dev_private, evq) point into DPDK's shared
 * memory: the same address in every process.
 */
struct ism_dev_data {
	char name[RTE_ISM_NAME_LEN];
	char driver_name[ISM_DRV_NAME_LEN];
	char backend[ISM_DRV_NAME_LEN];
	/* The device's identity: non-zero from allocation to release, never
	 * given to another device (a reused id has another serial).
	 */
	RTE_ATOMIC(uint64_t) serial;
	RTE_ATOMIC(uint32_t) state;	/* enum ism_dev_state */
	RTE_ATOMIC(bool) started;	/* fast path on, in the primary */
	int socket_id;
	struct rte_ism_gid gid;
	uint16_t chid;
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
	uint64_t capa;
	void *dev_private;
	struct ism_event_queue *evq;
	/* Moves the fast-path dummies refused with -ENODEV: written by any
	 * lcore of any process (atomic add), read by the control path.
	 */
	RTE_ATOMIC(uint64_t) no_device;
	/* Counter values at the last reset, per common xstat (stats lock). */
	uint64_t base[ISM_XS_NB_COMMON];
	/* RTE_ISM_VLAN_ID_RESERVED was added (SMC's ISMv2 probe). */
	RTE_ATOMIC(bool) vlan_reserved;
};

#define ISM_DEV_DATA_MZ "rte_ism_dev_data"

/* The memzone: the next serial and a slot per device id. */
struct ism_shared {
	uint64_t next_serial;
	struct ism_dev_data devs[RTE_ISM_MAX_DEVS];
};

/* The visible (attached, not closed) device dev_id, or NULL. In a
 * secondary process, also NULL once the primary closed or removed it.
 */
struct rte_ism_dev *ism_dev_lookup(uint16_t dev_id);

/* ism_dev_lookup() with the log line every control call needs (rate
 * limited per id: a client that polls a removed device does not flood).
 */
struct rte_ism_dev *ism_dev_get(uint16_t dev_id, const char *caller);

static inline bool
ism_is_primary(void)
{
	return rte_eal_process_type() == RTE_PROC_PRIMARY;
}

/* -E_RTE_SECONDARY with a log line if this is not the primary process:
 * what changes a device, or owns a part of it (its events), is done by
 * the primary only.
 */
int ism_primary_only(const struct rte_ism_dev *dev, const char *caller);

/*
 * Rate limit of a log line that a peer or a lost device can trigger again
 * and again: the first one is logged, then at most one per period, with
 * the number of those not logged. Racing callers may both log or both
 * skip: only the log is approximate.
 */
struct ism_log_rl {
	RTE_ATOMIC(uint64_t) next;	/* timer cycles: nothing logged before */
	RTE_ATOMIC(uint64_t) quiet;	/* occurrences not logged since the last */
};

#define ISM_LOG_RL_PERIOD_S 1

static inline bool
ism_log_rl_ok(struct ism_log_rl *rl, uint64_t *quiet)
{
	uint64_t now = rte_get_timer_cycles();
	uint64_t next = rte_atomic_load_explicit(&rl->next,
			rte_memory_order_relaxed);

	if (now < next) {
		rte_atomic_fetch_add_explicit(&rl->quiet, 1,
				rte_memory_order_relaxed);
		return false;
	}
	rte_atomic_store_explicit(&rl->next,
			now + rte_get_timer_hz() * ISM_LOG_RL_PERIOD_S,
			rte_memory_order_relaxed);
	*quiet = rte_atomic_exchange_explicit(&rl->quiet, 0,
			rte_memory_order_relaxed);
	return true;
}

static inline bool
ism_gid_is_zero(const struct rte_ism_gid *g)
{
	return g->gid == 0 && g->gid_ext == 0;
}

/* Event queue of one device (ism_events.c), in shared memory. */
struct ism_event_queue *ism_evq_create(int socket_id);
void ism_evq_free(struct ism_event_queue *q);
int ism_evq_post(struct ism_event_queue *q, const struct rte_ism_event *ev);
uint16_t ism_evq_poll(struct ism_event_queue *q, struct rte_ism_event *ev,
		uint16_t nb);
void ism_evq_counters(struct ism_event_queue *q, uint64_t *posted,
		uint64_t *dropped);
uint32_t ism_evq_space(struct ism_event_queue *q);

/* Counters (ism_stats.c): learn the number of the driver's xstats at
 * probing_finish (0 or the error).
 */
int ism_stats_probe(struct rte_ism_dev *dev);

/* Removal callbacks (ism_dev_cb.c): call each once, on this thread,
 * before the device is closed or released; then drop them.
 */
void ism_dev_cb_run(struct rte_ism_dev *dev);
/* Drop the callbacks without calling them (a device never visible). */
void ism_dev_cb_drop(struct rte_ism_dev *dev);

/* The registry lock (rte_ism.c): serialises allocate/release and every
 * change of state; never held while a driver op or a callback runs that
 * may wait on a peer.
 */
void ism_registry_lock(void);
void ism_registry_unlock(void);

/* One-time set-up of the move tracking (ism_sync.c). */
void ism_sync_init(void);

/* Interrupt mode (ism_intr.c): an event was queued for dev; wake its
 * client if it is armed.
 */
void ism_intr_event_posted(struct rte_ism_dev *dev);

/* Telemetry commands (ism_telemetry.c). */
void ism_telemetry_init(void);

#endif /* ISM_PRIVATE_H */
