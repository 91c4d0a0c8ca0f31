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
 * A driver allocates a device with rte_ism_pmd_allocate(), which gives it
 * an id and a private area of the size asked (the driver's state, in DPDK's
 * shared memory), fills in the identity fields, the control ops and the
 * fast-path functions, then calls rte_ism_pmd_probing_finish(), which makes
 * the device visible and starts it. The library owns the device registry
 * (ids, names, private areas: the one registry of ISM devices), the life
 * cycle (start, stop, close, release: see the programmer's guide), the
 * fast-path table (filled at start, reset at stop, close and release), the
 * counters' reset bases, the per-device event queue that the driver posts
 * to with rte_ism_pmd_event_post(), and the removal callbacks of the
 * device's holders. The library never calls a driver symbol: all calls go
 * through the ops given here.
 *
 * Secondary processes: the identity and state of every device are kept in
 * a memzone that secondary processes read. In a secondary, the driver's
 * probe (called with the name only, no devargs) attaches to the device the
 * primary created with rte_ism_pmd_attach_secondary(), sets the ops that
 * are safe from that process (e.g. stats_get over counters in the private
 * area) and calls rte_ism_pmd_probing_finish(); its remove calls
 * rte_ism_pmd_release(), which only detaches that process.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/queue.h>

#include <rte_common.h>
#include <rte_compat.h>

#include <ism_compat.h>

#include "rte_ism.h"

#ifdef __cplusplus
extern "C" {
#endif

struct rte_ism_dev;
struct rte_device;
struct rte_intr_handle;

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
	/** Fast path is off and no move is inside the driver; quiesce the
	 * backend (optional).
	 */
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
	/** rte_ism_vlan_add() (RTE_ISM_CAPA_VLAN); vlan_id is at most
	 * RTE_ISM_VLAN_ID_MAX (the library answers for
	 * RTE_ISM_VLAN_ID_RESERVED itself).
	 */
	int (*vlan_add)(struct rte_ism_dev *dev, uint16_t vlan_id);
	/** rte_ism_vlan_del() (RTE_ISM_CAPA_VLAN), as vlan_add. */
	int (*vlan_del)(struct rte_ism_dev *dev, uint16_t vlan_id);
	/**
	 * Move counters (optional): fill moves, bytes, signals and the
	 * errors_* fields of the move failures the driver sees (a failure of
	 * no other reason is errors_device). Values only grow: the library
	 * keeps the reset bases, computes errors and adds errors_no_device,
	 * events and events_dropped.
	 */
	int (*stats_get)(struct rte_ism_dev *dev, struct rte_ism_stats *st);
	/** Called after the library rebased the counters of rte_ism_stats
	 * (optional): for a driver with state of its own to clear.
	 */
	int (*stats_reset)(struct rte_ism_dev *dev);
	/** Driver part of rte_ism_dump() (optional). */
	int (*dump)(struct rte_ism_dev *dev, FILE *f);
	/**
	 * rte_ism_dev_close(): free everything of the backend (DMBs, peers,
	 * memory). The device is stopped and invisible to clients; no op is
	 * called afterwards (optional).
	 */
	int (*dev_close)(struct rte_ism_dev *dev);
	/** rte_ism_dev_selftest() on a started device (optional). */
	int (*dev_selftest)(struct rte_ism_dev *dev);
	/**
	 * The driver's own xstats, listed after the library's (optional):
	 * with names NULL or size too small, return their number; else fill
	 * names and return the number. The number does not change after
	 * rte_ism_pmd_probing_finish().
	 */
	int (*xstats_names_get)(struct rte_ism_dev *dev,
			struct rte_ism_xstats_name *names, unsigned int size);
	/** Values of the driver's xstats ids[] (numbered from 0 in the
	 * driver's list, all valid); returns n or a negative errno.
	 */
	int (*xstats_get)(struct rte_ism_dev *dev, const unsigned int ids[],
			uint64_t values[], unsigned int n);
	/** Reset the driver's xstats ids[] (ids NULL: all that can be);
	 * -ENOTSUP, with nothing reset, if one of ids cannot be.
	 */
	int (*xstats_reset)(struct rte_ism_dev *dev, const unsigned int ids[],
			unsigned int n);
	/**
	 * Interrupt mode (RTE_ISM_CAPA_INTR: all three): the client's
	 * wake-up handle, a pollable fd that no peer can read or change the
	 * flags of (the software backends: an epoll instance of datagram
	 * channels, drivers/raw/ism/ism_wake.h), nb_efd 1 with efds[0] the
	 * same fd (for rte_intr_rx_ctl()) and a counter size of 0 (EAL does
	 * not read it: intr_arm clears it). It lives as long as the device.
	 */
	struct rte_intr_handle *(*intr_handle_get)(struct rte_ism_dev *dev);
	/**
	 * Arm (on) or disarm the wake-up. Arming stores the armed flag,
	 * then (full barrier) makes the fd readable if a signal is pending;
	 * disarming clears the flag, then the fd. Events are the library's
	 * business (intr_event). Returns 0 or a negative errno.
	 */
	int (*intr_arm)(struct rte_ism_dev *dev, bool on);
	/**
	 * An event was queued for the client (or was pending when it armed):
	 * make the fd readable if the device is armed. The library issues a
	 * full barrier between the queueing and this call. Any thread.
	 */
	void (*intr_event)(struct rte_ism_dev *dev);
};

struct ism_event_queue;
struct ism_dev_data;
struct ism_dev_cb;

/**
 * An ISM device as the library keeps it in each process. Fields marked
 * "driver" are set by the driver between rte_ism_pmd_allocate() (or, in a
 * secondary process, rte_ism_pmd_attach_secondary()) and
 * rte_ism_pmd_probing_finish(); the others belong to the library.
 */
struct rte_ism_dev {
	char name[RTE_ISM_NAME_LEN];	/**< library: from allocate */
	uint16_t dev_id;		/**< library: index in the fp table */
	int socket_id;			/**< library: from allocate */
	RTE_ATOMIC(bool) attached;	/**< library: visible to clients */
	bool started;			/**< library: fp entry filled */
	bool closed;			/**< library: rte_ism_dev_close() done */
	bool closing;			/**< library: removal callbacks run */
	const char *driver_name;	/**< driver */
	const char *backend;		/**< driver: "loopback", "shm", "ivshmem", "pci" */
	struct rte_device *device;	/**< driver: the bus device, if any */
	const struct rte_ism_dev_ops *dev_ops;	/**< driver */
	/** driver: fast-path functions and context, copied into
	 * rte_ism_fp_ops[dev_id] at start (primary process only).
	 */
	struct rte_ism_fp_ops fp;
	struct rte_ism_gid gid;		/**< driver (secondary: library) */
	uint16_t chid;			/**< driver (secondary: library) */
	uint32_t max_dmbs;		/**< driver (secondary: library) */
	uint32_t max_dmb_len;		/**< driver (secondary: library) */
	uint64_t capa;			/**< driver (secondary: library) */
	/** library: the private area of rte_ism_pmd_allocate(), zeroed, in
	 * DPDK's shared memory (the same address in every process); freed
	 * at release.
	 */
	void *dev_private;
	struct ism_event_queue *evq;	/**< library */
	struct ism_dev_data *data;	/**< library: what all processes see */
	uint64_t serial;		/**< library: identity, see data */
	unsigned int nb_drv_xstats;	/**< library: fixed at probing_finish */
	TAILQ_HEAD(, ism_dev_cb) cbs;	/**< library: removal callbacks */
};

/**
 * Allocate a device in the first free id, with a private area of
 * priv_size bytes (zeroed; dev->dev_private), in the primary process. The
 * name must be unique among ISM devices.
 * @return the device, or NULL with rte_errno set (EINVAL bad name,
 *   EEXIST name in use, ENOSPC no free id, ENOMEM, E_RTE_SECONDARY not
 *   the primary process).
 */
__rte_internal
struct rte_ism_dev *rte_ism_pmd_allocate(const char *name, int socket_id,
		size_t priv_size);

/**
 * In a secondary process: attach to the device called name that the
 * primary process probed. Identity fields, dev_private and the event
 * queue are those of the primary; the driver sets dev_ops (only ops safe
 * to call from this process), device and driver_name, then calls
 * rte_ism_pmd_probing_finish(). The fast path of the device is not
 * available in a secondary process (its entry keeps the dummies).
 * @return the device, or NULL with rte_errno set (ENODEV no such device
 *   in the primary, EEXIST attached already, ENOMEM, E_RTE_SECONDARY in
 *   the primary process).
 */
__rte_internal
struct rte_ism_dev *rte_ism_pmd_attach_secondary(const char *name);

/**
 * The device called name, allocated (probing, visible or closed) in this
 * process: for a driver's remove, which has the bus device's name.
 * @return the device, or NULL.
 */
__rte_internal
struct rte_ism_dev *rte_ism_pmd_get_named_dev(const char *name);

/**
 * Check the driver's fields, make the device visible to clients and start
 * it (its fast path is enabled at probe).
 * @return 0, -EINVAL naming the missing field in the log, or the error of
 *   the driver's dev_start (the device is then not visible).
 */
__rte_internal
int rte_ism_pmd_probing_finish(struct rte_ism_dev *dev);

/**
 * Close the device if it was visible and is not closed yet (its removal
 * callbacks, stop, then its dev_close op), then free the id, the private
 * area and the event queue. A device that never finished probing is not
 * closed: its driver frees what it set up. In a secondary process: the
 * removal callbacks of that process, then the process forgets the device
 * (the primary's device is not touched).
 * @return 0, -EINVAL (not an allocated device, e.g. released twice).
 */
__rte_internal
int rte_ism_pmd_release(struct rte_ism_dev *dev);

/**
 * Queue an event for the device's client. Safe from any thread. When the
 * queue is full the event is dropped and counted (events_dropped).
 * The time field is filled in by the library.
 * @return 0, -EINVAL, -ENOSPC (dropped), -ENODEV (device closed).
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
