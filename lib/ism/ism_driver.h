/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_DRIVER_H
#define ISM_DRIVER_H

/**
 * @file
 *
 * ISM driver interface: what an ISM driver (PMD) uses to make a device
 * visible through the rte_ism_* client API. Applications must not include
 * this header.
 *
 * A driver allocates a device with rte_ism_pmd_allocate(), fills in the
 * identity fields, the control ops and the fast-path functions, then calls
 * rte_ism_pmd_probing_finish(). The library owns the device registry, the
 * fast-path table (filled at start, reset at stop and release) and the
 * per-device event queue that the driver posts to with
 * rte_ism_pmd_event_post(). The library never calls a driver symbol: all
 * calls go through the ops given here.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_compat.h>

#include "rte_ism.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_ism_dev;
struct rte_device;

/**
 * Control operations of an ISM device. Called by the library after it has
 * checked the arguments documented in rte_ism.h (device exists, pointers
 * non-NULL, lengths, index and VLAN ranges, capability present). Optional
 * ops may be NULL when the capability is not advertised. Ops must be safe
 * to call from several control threads.
 */
struct rte_ism_dev_ops {
	/** Prepare the backend for the fast path (optional). */
	int (*dev_start)(struct rte_ism_dev *dev);
	/** Fast path is off; quiesce the backend (optional). */
	int (*dev_stop)(struct rte_ism_dev *dev);
	/** rte_ism_dmb_register(); idx is 0 or in range. */
	int (*dmb_register)(struct rte_ism_dev *dev, struct rte_ism_dmb *dmb);
	/** rte_ism_dmb_unregister(). */
	int (*dmb_unregister)(struct rte_ism_dev *dev, uint64_t token);
	/** rte_ism_dmb_attach() (RTE_ISM_CAPA_NOCOPY). */
	int (*dmb_attach)(struct rte_ism_dev *dev, uint64_t token,
			struct rte_ism_dmb *dmb);
	/** rte_ism_dmb_detach() (RTE_ISM_CAPA_NOCOPY). */
	int (*dmb_detach)(struct rte_ism_dev *dev, uint64_t token);
	/** rte_ism_signal_event() (RTE_ISM_CAPA_SIGNAL_EVENT). */
	int (*signal_event)(struct rte_ism_dev *dev,
			const struct rte_ism_gid *rgid, uint32_t trigger_irq,
			uint32_t code, uint64_t info);
	/** rte_ism_query_remote_gid(). */
	int (*query_remote_gid)(struct rte_ism_dev *dev,
			const struct rte_ism_gid *rgid, uint32_t vlan_valid,
			uint16_t vlan_id);
	/** rte_ism_vlan_add() (RTE_ISM_CAPA_VLAN). */
	int (*vlan_add)(struct rte_ism_dev *dev, uint16_t vlan_id);
	/** rte_ism_vlan_del() (RTE_ISM_CAPA_VLAN). */
	int (*vlan_del)(struct rte_ism_dev *dev, uint16_t vlan_id);
	/** Move counters; the library adds the event counters (optional). */
	int (*stats_get)(struct rte_ism_dev *dev, struct rte_ism_stats *st);
	/** Reset the move counters (optional). */
	int (*stats_reset)(struct rte_ism_dev *dev);
	/** Driver part of rte_ism_dump() (optional). */
	int (*dump)(struct rte_ism_dev *dev, FILE *f);
};

struct ism_event_queue;

/**
 * An ISM device as the library keeps it. Fields marked "driver" are set by
 * the driver between rte_ism_pmd_allocate() and
 * rte_ism_pmd_probing_finish(); the others belong to the library.
 */
struct rte_ism_dev {
	char name[RTE_ISM_NAME_LEN];	/**< library: from allocate */
	uint16_t dev_id;		/**< library: index in the fp table */
	int socket_id;			/**< library: from allocate */
	bool attached;			/**< library: slot in use */
	bool started;			/**< library: fp entry filled */
	const char *driver_name;	/**< driver */
	const char *backend;		/**< driver: "loopback", "shm", "pci" */
	struct rte_device *device;	/**< driver: the bus device, if any */
	const struct rte_ism_dev_ops *dev_ops;	/**< driver */
	/** driver: fast-path functions and context, copied into
	 * rte_ism_fp_ops[dev_id] at start. */
	struct rte_ism_fp_ops fp;
	struct rte_ism_gid gid;		/**< driver */
	uint16_t chid;			/**< driver */
	uint32_t max_dmbs;		/**< driver */
	uint32_t max_dmb_len;		/**< driver */
	uint64_t capa;			/**< driver: RTE_ISM_CAPA_* */
	void *dev_private;		/**< driver: anything */
	struct ism_event_queue *evq;	/**< library */
};

/**
 * Allocate a device slot. The name must be unique among ISM devices.
 * @return the device, or NULL with rte_errno set (EINVAL bad name,
 *   EEXIST name in use, ENOSPC no free slot, ENOMEM).
 */
__rte_internal
struct rte_ism_dev *rte_ism_pmd_allocate(const char *name, int socket_id);

/**
 * Check the driver's fields and make the device visible to clients. The
 * device is left stopped; call rte_ism_dev_start() to enable the fast path.
 * @return 0, or -EINVAL naming the missing field in the log.
 */
__rte_internal
int rte_ism_pmd_probing_finish(struct rte_ism_dev *dev);

/**
 * Stop the device (reset its fp entry to the dummies and wait until no
 * move can be running in it) and free the slot. The driver frees its own
 * state afterwards.
 * @return 0, -EINVAL (not an allocated device, e.g. released twice).
 */
__rte_internal
int rte_ism_pmd_release(struct rte_ism_dev *dev);

/**
 * Queue an event for the device's client. Safe from any thread. When the
 * queue is full the event is dropped and counted (events_dropped).
 * The time field is filled in by the library.
 * @return 0, -EINVAL, -ENOSPC (dropped).
 */
__rte_internal
int rte_ism_pmd_event_post(struct rte_ism_dev *dev,
		const struct rte_ism_event *ev);

/**
 * Room left in the device's event queue, for a driver that keeps events
 * back (rather than have them dropped) while the client does not poll.
 * @return free entries, 0 if dev is NULL.
 */
__rte_internal
uint32_t rte_ism_pmd_event_space(struct rte_ism_dev *dev);

#ifdef __cplusplus
}
#endif

#endif /* ISM_DRIVER_H */
