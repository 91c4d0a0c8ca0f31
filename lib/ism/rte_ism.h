/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_ISM_H
#define RTE_ISM_H

/**
 * @file
 *
 * ISM (Internal Shared Memory) client API.
 *
 * @warning
 * @b EXPERIMENTAL:
 * All functions in this file may be changed or removed without prior notice.
 *
 * An ISM device belongs to a fabric (identified by its CHID) and has a GID.
 * A receiver registers a DMB (direct memory buffer) on its device and names
 * the one remote GID allowed to write it (rgid). The registration returns a
 * token; the receiver hands the token to the writer (out of band, or with
 * rte_ism_signal_event()). The writer moves bytes straight into the DMB with
 * rte_ism_move_data(), optionally raising a signal that the receiver finds
 * with rte_ism_signal_poll(). The data path is polled; a client with
 * nothing to do may instead sleep until a signal or an event arrives (see
 * "Waiting without spinning" below, rte_ism_intr_enable()).
 *
 * Devices are created by their driver (e.g. --vdev=ism_lo0 for the loopback
 * backend, --vdev=ism_shm0,dir=... between processes, or an ISM PCI function
 * on the ism bus) and are started when probed. Life cycle: probe (started),
 * rte_ism_dev_stop() / rte_ism_dev_start(), rte_ism_dev_close()
 * (everything freed; every call on the id then returns -ENODEV), removal
 * of the bus device (the id is free again). Device ids are below
 * RTE_ISM_MAX_DEVS, which with the fast-path table of rte_ism_core.h is
 * part of the ABI. The PMD also offers each device as a rawdev of the
 * same name (DPDK's rawdev management plane, an adapter over this API;
 * its rawdev id is the rawdev library's own).
 *
 * Holders of a device id: an id names one device from its probe to its
 * removal; afterwards it may name another device. Whoever keeps using a
 * device (a net_ism port, a ring of rte_ism_ring.h, an application)
 * registers a removal callback with rte_ism_dev_remove_callback_register().
 * When the device is closed or removed (rte_ism_dev_close(),
 * the close of its rawdev, rte_dev_remove() or rte_vdev_uninit() of its bus
 * device, rte_eal_cleanup()), the library first calls every such callback,
 * on the thread doing it, while the device still works: the holder stops
 * using it there (unregisters its DMBs, tells its peers, makes its other
 * threads leave their calls on the id) and never uses the id again. Once
 * the close returns, every call on the id returns -ENODEV; once the
 * removal returns the id may be given to a new device, which an old holder
 * must never take for its own. rte_ism_dev_info.serial tells two devices
 * of one id apart.
 *
 * Secondary processes (DPDK multi-process): the devices the primary
 * process created are visible in a secondary process once its drivers
 * probed them there (at its start, or when the primary hot-plugs one):
 * rte_ism_dev_count(), rte_ism_info_get(), rte_ism_stats_get(), the
 * xstats (the library's; a driver's own only where its guide says so),
 * rte_ism_dump() (the library's part) and the removal callbacks work
 * there. Everything that changes a device, or takes what belongs to its
 * user in the primary, returns -E_RTE_SECONDARY in a secondary process:
 * start, stop, close, DMBs, nocopy, software events, event polling,
 * reachability, VLANs, counter resets, the selftest, the interrupt mode
 * (rte_ism_intr_*()); the fast path of a device is not available there
 * (-ENODEV). When the primary closes or removes a device, the calls of a
 * secondary on its id return -ENODEV.

 * Conventions: functions return 0 (or a count) on success and a negative
 * errno on failure, with a log line (log type lib.ism) saying what was wrong.
 * The fast-path functions (rte_ism_move_data(), rte_ism_move_burst(),
 * rte_ism_signal_poll()) are inline; they check the device id and pointer
 * arguments only when built with RTE_ISM_DEBUG defined, like other DPDK
 * fast paths. Semantic checks (token, writer GID, bounds) are always done.
 *
 * Errors returned by the data path (each failed move is counted by its
 * reason in rte_ism_stats):
 * - -ENODEV: no started device with this id;
 * - -ENOENT: unknown or stale token (the DMB was unregistered);
 * - -EACCES: this device is not the writer the DMB was registered for,
 *   or not a member of the DMB's VLAN;
 * - -ERANGE: offset + len beyond the end of the DMB;
 * - -EINVAL: len 0 or signal element index above 15;
 * - -EIO: an ISM PCI function refused the store block and the platform
 *   does not say why (on IBM Z a refused PCI Store Block is -EIO in
 *   Linux's zpci_store_block(), whatever the reason; the checks a sender
 *   can make itself keep their codes).
 *
 * Threads (MT safety):
 * - The fast path (rte_ism_move_data(), rte_ism_move_burst(),
 *   rte_ism_signal_poll()) on probed devices may run on any number of
 *   lcores at once, also on one device, and concurrently with the control
 *   calls on the same device, rte_ism_dev_stop() and rte_ism_dev_start()
 *   included (not with its close or removal, below). One device's signals
 *   are best polled by one lcore: concurrent polls split the signals
 *   between them.
 * - Control calls (everything else) are thread-safe: several threads may
 *   make them at once, on one device or on several; they are control path
 *   (they may take locks, wait for a peer in another process, and log).
 *   rte_ism_dev_stop(), rte_ism_dev_start() and rte_ism_dev_close() are
 *   serialised by the library.
 * - When rte_ism_dev_stop() returns, new fast-path calls on the id return
 *   -ENODEV (moves are counted as errors_no_device), and no move that
 *   entered the driver before is still running in it. A thread that read
 *   the table entry just before the stop and entered the driver after the
 *   wait can still complete one call, which is harmless: DMBs and peers
 *   stay until the close.
 * - rte_ism_dev_close() and the removal of a device free its driver state:
 *   no other call on that id (fast path or control) may run concurrently
 *   with them, but for those of its removal callbacks (see "Holders of a
 *   device id"), which run first and make the holders stop.
 * - Threads that call the fast path should have an lcore id (EAL lcores,
 *   rte_thread_register()); see the programmer's guide.
 */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <errno.h>

#include <rte_bitops.h>
#include <rte_common.h>
#include <rte_compat.h>
#include <rte_errno.h>

#include "rte_ism_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Maximum length of a device name, including the terminating NUL. */
#define RTE_ISM_NAME_LEN 64

/**
 * DMB indices below this value are reserved (as on the ISM hardware, where
 * indices 0-31 are never allocated). Valid indices are
 * [RTE_ISM_DMB_IDX_FIRST, RTE_ISM_DMB_IDX_FIRST + max_dmbs).
 * Index 0 in rte_ism_dmb_register() means "pick one".
 */
#define RTE_ISM_DMB_IDX_FIRST 32

/** Number of signal elements per DMB (bits of the element mask). */
#define RTE_ISM_DMBE_MAX 16

/** Highest VLAN id of a DMB or of a device's VLAN membership. */
#define RTE_ISM_VLAN_ID_MAX 4095

/**
 * VLAN id reserved by ISM (ISM_RESERVED_VLANID of Linux's
 * drivers/s390/net/ism.h). SMC adds it once when it registers an ISM
 * device: success means an ISMv2-capable device (net/smc/smc_ism.c). On
 * every device with RTE_ISM_CAPA_VLAN, rte_ism_vlan_add() of this id
 * returns 0 (the library answers; the device joins no VLAN) and
 * rte_ism_vlan_del() returns 0 after an add, -ENOENT otherwise. It is not
 * a VLAN: a DMB or a reachability query with this id is refused (-EINVAL).
 */
#define RTE_ISM_VLAN_ID_RESERVED 0x1FFF

/** Reserved CHID of loopback-style fabrics that reach only one host. */
#define RTE_ISM_CHID_LOOPBACK 0xFFFF

/** @name Device capabilities (rte_ism_dev_info.capa)
 * @{
 */
/** rte_ism_dmb_attach() / rte_ism_dmb_detach() (nocopy) are supported. */
#define RTE_ISM_CAPA_NOCOPY		RTE_BIT64(0)
/** rte_ism_vlan_add() / rte_ism_vlan_del() and VLAN-tagged DMBs. */
#define RTE_ISM_CAPA_VLAN		RTE_BIT64(1)
/** rte_ism_signal_event() is supported. */
#define RTE_ISM_CAPA_SIGNAL_EVENT	RTE_BIT64(2)
/** Peers may be in other processes. */
#define RTE_ISM_CAPA_CROSS_PROCESS	RTE_BIT64(3)
/** The device is a hardware (PCI) function. */
#define RTE_ISM_CAPA_HW			RTE_BIT64(4)
/** Interrupt mode: rte_ism_intr_fd_get(), rte_ism_intr_enable(), ... */
#define RTE_ISM_CAPA_INTR		RTE_BIT64(5)
/** @} */

/**
 * A GID in the 128-bit form of SMCv2.1: {gid, gid_ext}. A 64-bit hardware
 * GID has gid_ext 0. The all-zero GID is not a valid device GID.
 */
struct rte_ism_gid {
	uint64_t gid;		/**< first 8 bytes, big-endian reading */
	uint64_t gid_ext;	/**< last 8 bytes, 0 for 64-bit GIDs */
};

/** Device information, see rte_ism_info_get(). */
struct rte_ism_dev_info {
	char name[RTE_ISM_NAME_LEN];	/**< device name */
	const char *driver_name;	/**< driver, e.g. "ism_lo" */
	const char *backend;		/**< "loopback", "shm", "ivshmem" or "pci" */
	struct rte_ism_gid gid;		/**< this device's GID */
	uint16_t chid;			/**< fabric id */
	int socket_id;			/**< NUMA socket of the device memory */
	uint32_t max_dmbs;		/**< DMBs that can be registered */
	uint32_t max_dmb_len;		/**< largest DMB, in bytes */
	uint64_t capa;			/**< RTE_ISM_CAPA_* */
	bool started;			/**< fast path enabled (in the primary) */
	/** The device's identity: never the same for two devices of the
	 * application, so a holder can tell its device from another one
	 * that took its id after a removal. Not 0.
	 */
	uint64_t serial;
};

/** A DMB: input and output of rte_ism_dmb_register()/_attach(). */
struct rte_ism_dmb {
	uint64_t token;		/**< out: fabric-wide handle of the DMB */
	void *addr;		/**< out: where the DMB is mapped locally */
	uint32_t len;		/**< in (register) / out (attach): bytes */
	uint32_t idx;		/**< in: 0 = pick, else index; out: index */
	struct rte_ism_gid rgid; /**< in: the one GID allowed to write */
	uint16_t vlan_id;	/**< in: VLAN of the DMB if vlan_valid */
	uint8_t vlan_valid;	/**< in: restrict writers to vlan_id members */
	uint8_t reserved[5];	/**< must be zero */
};

/** One piece of a rte_ism_move_burst(): bytes to copy to one offset. */
struct rte_ism_move_seg {
	const void *data;	/**< source */
	uint32_t offset;	/**< destination offset in the DMB */
	uint32_t len;		/**< bytes, at least 1 */
};

/** One signalled DMB, as returned by rte_ism_signal_poll(). */
struct rte_ism_signal {
	uint32_t dmb_idx;	/**< index of the signalled DMB */
	uint16_t mask;		/**< element mask: bit i = element i raised */
	uint16_t reserved;	/**< zero */
};

/** Event types (rte_ism_event.type). Unknown values must be tolerated. */
enum rte_ism_event_type {
	RTE_ISM_EVENT_BUF = 0,	/**< about a DMB, token set */
	RTE_ISM_EVENT_DEV = 1,	/**< about a peer device, gid set */
	RTE_ISM_EVENT_SW = 2,	/**< rte_ism_signal_event() from gid */
	RTE_ISM_EVENT_OTHER = 3, /**< anything else */
};

/** @name Event codes of RTE_ISM_EVENT_BUF (ISM hardware values)
 * @{
 */
#define RTE_ISM_BUF_OWNER_ERROR		0x02 /**< owning device in error */
#define RTE_ISM_BUF_USER_ERROR		0x03 /**< writing device in error */
#define RTE_ISM_BUF_UNREGISTERED	0x04 /**< owner unregistered the DMB */
#define RTE_ISM_BUF_VLAN_OWNER		0x05 /**< VLAN mismatch with owner */
#define RTE_ISM_BUF_VLAN_USER		0x06 /**< VLAN mismatch with user */
#define RTE_ISM_BUF_USER_DISABLED	0x08 /**< the DMB's writer is gone */
/** @} */

/** @name Event codes of RTE_ISM_EVENT_DEV
 * @{
 */
#define RTE_ISM_DEV_ERROR_STATE		0x01 /**< peer in error state */
#define RTE_ISM_DEV_DISABLED		0x07 /**< peer left the fabric */
#define RTE_ISM_DEV_ENABLED		0x20 /**< peer joined the fabric */
/** @} */

/** An event, see rte_ism_event_poll(). */
struct rte_ism_event {
	uint32_t type;		/**< enum rte_ism_event_type */
	uint32_t code;		/**< type-specific code, SW: sender's code */
	struct rte_ism_gid gid;	/**< peer GID, or zero */
	uint64_t token;		/**< DMB token for BUF events, else 0 */
	uint64_t time;		/**< when queued: rte_ism_time_ns() */
	uint64_t info;		/**< SW: sender's info; else type-specific */
};

/**
 * Device statistics, see rte_ism_stats_get(). Failed moves (a burst counts
 * once) are counted by the sending device, by reason.
 */
struct rte_ism_stats {
	uint64_t moves;		/**< successful moves (burst: per segment) */
	uint64_t bytes;		/**< bytes moved */
	uint64_t signals;	/**< signals raised (sf=1 moves) */
	/** failed moves, all reasons: the sum of the errors_* fields below */
	uint64_t errors;
	uint64_t events;	/**< events queued for this device */
	uint64_t events_dropped; /**< events lost because the queue was full */
	uint64_t errors_unknown_token; /**< -ENOENT: unknown or stale token */
	uint64_t errors_not_writer; /**< -EACCES: not the writer, not in VLAN */
	uint64_t errors_out_of_range; /**< -ERANGE: beyond the DMB's end */
	uint64_t errors_bad_argument; /**< -EINVAL: len 0, element index */
	uint64_t errors_device;	/**< other failures of the device or peer */
	uint64_t errors_no_device; /**< -ENODEV: the device was stopped */
};

/** Size of an xstat name, including the terminating NUL. */
#define RTE_ISM_XSTATS_NAME_SIZE 64

/** The name of one extended statistic, see rte_ism_xstats_names_get(). */
struct rte_ism_xstats_name {
	char name[RTE_ISM_XSTATS_NAME_SIZE]; /**< [a-z0-9_]+, NUL-terminated */
};

/** Size of each device's event queue; further events are counted, dropped. */
#define RTE_ISM_EVENT_QUEUE_SIZE 1024

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return number of ISM devices present.
 */
__rte_experimental
uint16_t rte_ism_dev_count(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @param dev_id device id
 * @return true if a device with this id exists.
 */
__rte_experimental
bool rte_ism_is_valid_dev(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Iterate over devices: first device id >= start.
 * @return a device id, or RTE_ISM_MAX_DEVS when there is none.
 */
__rte_experimental
uint16_t rte_ism_dev_next(uint16_t start);

/** Iterate over all ISM devices. */
#define RTE_ISM_FOREACH_DEV(i) \
	for (i = rte_ism_dev_next(0); i < RTE_ISM_MAX_DEVS; \
	     i = rte_ism_dev_next(i + 1))

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @param name device name, e.g. "ism_lo0"
 * @return device id, or -EINVAL (NULL name), -ENODEV (no such device).
 */
__rte_experimental
int rte_ism_get_dev_id(const char *name);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @param dev_id device id
 * @param[out] info filled on success
 * @return 0, -ENODEV or -EINVAL (NULL info).
 */
__rte_experimental
int rte_ism_info_get(uint16_t dev_id, struct rte_ism_dev_info *info);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Enable the fast path of a stopped device. Devices are started at probe;
 * this is only needed after rte_ism_dev_stop().
 * @return 0 (also if already started), -ENODEV, or the driver's error.
 */
__rte_experimental
int rte_ism_dev_start(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Disable the fast path: afterwards rte_ism_move_data(),
 * rte_ism_move_burst() and rte_ism_signal_poll() on this id return
 * -ENODEV (failed moves counted as errors_no_device). On return no move is
 * running inside the driver (see "Threads" in the file doc). Registered
 * DMBs, attachments and peers stay; control calls keep working.
 * @return 0 (also if already stopped), -ENODEV, -E_RTE_SECONDARY, or the
 *   driver's error (the fast path is off all the same).
 */
__rte_experimental
int rte_ism_dev_stop(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Close the device: stop it, then let the driver free everything of it
 * (its DMBs, attachments, peer connections, memory; a software device
 * leaves its fabric, and its peers get RTE_ISM_DEV_DISABLED). Afterwards
 * every rte_ism_* call on this id returns -ENODEV and the device is no
 * longer listed; the id stays taken until the bus device is removed (e.g.
 * rte_vdev_uninit(), rte_dev_remove()). The removal callbacks run first
 * (see rte_ism_dev_remove_callback_register()). No other call on this id
 * may run concurrently. Closing the device's rawdev does the same.
 * @return 0, -ENODEV (no such device, or closed already), -EBUSY (being
 *   closed: called from a removal callback), -E_RTE_SECONDARY, or the
 *   driver's error (the device is closed all the same).
 */
__rte_experimental
int rte_ism_dev_close(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Register a DMB that the device with GID dmb->rgid may write.
 *
 * @param dev_id device id
 * @param dmb in: len, idx (0 = pick), rgid, vlan_valid/vlan_id;
 *   out: token, addr (zero-filled memory of len bytes), idx.
 * @return 0, or
 *  -ENODEV no such device; -EINVAL NULL dmb, len 0, zero rgid, bad idx or
 *  VLAN id, reserved bytes not zero; -E2BIG len above max_dmb_len;
 *  -EBUSY idx in use; -ENOSPC all indices taken; -ENOTSUP VLAN on a device
 *  without RTE_ISM_CAPA_VLAN; -ENOMEM.
 */
__rte_experimental
int rte_ism_dmb_register(uint16_t dev_id, struct rte_ism_dmb *dmb);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Unregister a DMB of this device. The token stops working for writers at
 * once and the writer's device gets an RTE_ISM_BUF_UNREGISTERED event. If
 * the writer has attached the DMB (nocopy), the memory lives on until it
 * detaches; otherwise it is freed when no move can be using it.
 *
 * @return 0, -ENODEV, -ENOENT (not a DMB registered on this device).
 */
__rte_experimental
int rte_ism_dmb_unregister(uint16_t dev_id, uint64_t token);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Nocopy: map the remote DMB named by token so that this device (its
 * authorised writer) can write into it directly. Signals are still raised
 * with rte_ism_move_data() or rte_ism_move_burst().
 *
 * @param dev_id writing device (must be the DMB's rgid)
 * @param token DMB token from the receiver
 * @param[out] dmb addr, len, idx, token and rgid of the remote DMB
 * @return 0, -ENODEV, -EINVAL (NULL dmb), -ENOTSUP (no
 *   RTE_ISM_CAPA_NOCOPY), -ENOENT (unknown token), -EACCES (this device is
 *   not the DMB's writer), -ETIMEDOUT (the DMB's owner is in another process
 *   and did not answer in time; nothing is attached).
 */
__rte_experimental
int rte_ism_dmb_attach(uint16_t dev_id, uint64_t token,
		struct rte_ism_dmb *dmb);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Drop one attachment made with rte_ism_dmb_attach(). The mapping must not
 * be used afterwards.
 * @return 0, -ENODEV, -ENOTSUP, -ENOENT (not attached by this device).
 */
__rte_experimental
int rte_ism_dmb_detach(uint16_t dev_id, uint64_t token);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Copy len bytes to offset in the remote DMB named by token and, if sf,
 * raise element idx of its signal after the last byte is visible. The copy
 * is synchronous: data may be reused on return.
 *
 * @param dev_id sending device (must be the DMB's rgid)
 * @param token DMB token from the receiver
 * @param idx signal element, 0..15 (checked also when sf is 0, as the
 *   ISM request encodes it either way)
 * @param sf non-zero: signal the receiver
 * @param offset destination offset in the DMB
 * @param data source bytes
 * @param len number of bytes, at least 1
 * @return 0, or -ENODEV, -ENOENT, -EACCES, -ERANGE, -EINVAL (see file doc).
 */
__rte_experimental
static inline int
rte_ism_move_data(uint16_t dev_id, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	const struct rte_ism_fp_ops *fp;

#ifdef RTE_ISM_DEBUG
	if (dev_id >= RTE_ISM_MAX_DEVS || data == NULL)
		return dev_id >= RTE_ISM_MAX_DEVS ? -ENODEV : -EINVAL;
#endif
	fp = &rte_ism_fp_ops[dev_id];
	return fp->move_data(fp->dev_private, token, idx, sf, offset, data,
			len);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Several moves into one DMB in one call, e.g. packets into a ring and then
 * the ring's producer index. All segments are checked before anything is
 * copied, so a failed burst writes nothing. Segments become visible in
 * order; the signal, if sf, is raised after the last one.
 *
 * @param dev_id sending device, as for rte_ism_move_data()
 * @param token DMB token from the receiver
 * @param idx signal element, as for rte_ism_move_data()
 * @param sf non-zero: signal the receiver after the last segment
 * @param segs array of nb_segs segments
 * @param nb_segs 1 or more
 * @return 0, or the errors of rte_ism_move_data() (-EINVAL also for
 *   nb_segs 0, and for NULL segs when built with RTE_ISM_DEBUG).
 */
__rte_experimental
static inline int
rte_ism_move_burst(uint16_t dev_id, uint64_t token, uint32_t idx, uint32_t sf,
		const struct rte_ism_move_seg *segs, uint16_t nb_segs)
{
	const struct rte_ism_fp_ops *fp;

#ifdef RTE_ISM_DEBUG
	if (dev_id >= RTE_ISM_MAX_DEVS || segs == NULL)
		return dev_id >= RTE_ISM_MAX_DEVS ? -ENODEV : -EINVAL;
#endif
	fp = &rte_ism_fp_ops[dev_id];
	return fp->move_burst(fp->dev_private, token, idx, sf, segs, nb_segs);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Collect the DMBs of this device that were signalled since the last poll.
 * Each raised element is reported exactly once; several raises of one
 * element before a poll may be reported as one (coalescing). Data moved
 * before a signal is visible once the signal is returned. The cost does not
 * depend on how many DMBs are registered but not signalled.
 *
 * @param dev_id receiving device (the owner of the DMBs)
 * @param sigs array of nb_sigs entries to fill
 * @param nb_sigs capacity; signals that do not fit stay pending
 * @return number of entries filled, or -ENODEV (-EINVAL for NULL sigs
 *   under RTE_ISM_DEBUG).
 */
__rte_experimental
static inline int
rte_ism_signal_poll(uint16_t dev_id, struct rte_ism_signal *sigs,
		uint16_t nb_sigs)
{
	const struct rte_ism_fp_ops *fp;

#ifdef RTE_ISM_DEBUG
	if (dev_id >= RTE_ISM_MAX_DEVS || sigs == NULL)
		return dev_id >= RTE_ISM_MAX_DEVS ? -ENODEV : -EINVAL;
#endif
	fp = &rte_ism_fp_ops[dev_id];
	return fp->signal_poll(fp->dev_private, sigs, nb_sigs);
}

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Send a software event to the device with GID rgid; it is queued there as
 * RTE_ISM_EVENT_SW with this device's GID, code and info.
 *
 * @param dev_id sending device
 * @param rgid GID of the receiving device
 * @param trigger_irq non-zero: deliver at once (polled backends always do)
 * @param code event code, given to the receiver
 * @param info event information, given to the receiver
 * @return 0, -ENODEV, -EINVAL (NULL or zero rgid), -ENOTSUP,
 *   -ENETUNREACH (no such device in the fabric), -ETIMEDOUT (the receiver
 *   is in another process and did not confirm in time; it may still get
 *   the event).
 */
__rte_experimental
int rte_ism_signal_event(uint16_t dev_id, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Dequeue events of this device, oldest first.
 * @return number of events copied to ev (0..nb), -ENODEV, -EINVAL (NULL ev).
 */
__rte_experimental
int rte_ism_event_poll(uint16_t dev_id, struct rte_ism_event *ev, uint16_t nb);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The clock of rte_ism_event.time: CLOCK_MONOTONIC in nanoseconds, the
 * same in every process of the machine. rte_ism_time_ns() - ev.time is how
 * long ago the event was queued.
 * @return the current time.
 */
__rte_experimental
uint64_t rte_ism_time_ns(void);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Is the device with GID rgid reachable through this device (and, if
 * vlan_valid, in VLAN vlan_id)?
 * @return 0 reachable, -ENETUNREACH not, -ENODEV, -EINVAL.
 */
__rte_experimental
int rte_ism_query_remote_gid(uint16_t dev_id, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Make this device a member of VLAN vlan_id (deprecated ISM feature).
 * RTE_ISM_VLAN_ID_RESERVED is the ISMv2 probe of SMC, see there.
 * @return 0, -ENODEV, -EINVAL (id above RTE_ISM_VLAN_ID_MAX and not
 *   RTE_ISM_VLAN_ID_RESERVED), -ENOTSUP (no RTE_ISM_CAPA_VLAN).
 */
__rte_experimental
int rte_ism_vlan_add(uint16_t dev_id, uint16_t vlan_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Leave VLAN vlan_id (or drop the RTE_ISM_VLAN_ID_RESERVED probe).
 * @return 0, -ENODEV, -EINVAL, -ENOTSUP, -ENOENT (not a member).
 */
__rte_experimental
int rte_ism_vlan_del(uint16_t dev_id, uint16_t vlan_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The device's counters since it was probed or since their last reset.
 * @return 0, -ENODEV, -EINVAL (NULL stats).
 */
__rte_experimental
int rte_ism_stats_get(uint16_t dev_id, struct rte_ism_stats *stats);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Reset every counter of rte_ism_stats (not the driver's own xstats). The
 * counters themselves keep running: the library keeps a base per counter,
 * so a reset never races with the lcores that count.
 * @return 0, -ENODEV.
 */
__rte_experimental
int rte_ism_stats_reset(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Names of the device's extended statistics: first one per field of
 * struct rte_ism_stats, named like the field ("moves", ...,
 * "errors_no_device"), then the driver's own (see the driver's guide).
 * An xstat's id is its index in this list.
 *
 * @param dev_id device id
 * @param names array of size entries, or NULL
 * @param size number of entries of names
 * @return the number of xstats n (names filled if size >= n; if names is
 *   NULL or size < n nothing is filled), -ENODEV.
 */
__rte_experimental
int rte_ism_xstats_names_get(uint16_t dev_id,
		struct rte_ism_xstats_name *names, unsigned int size);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Values of the xstats ids[0..n-1], since probe or their last reset.
 * @return n, -ENODEV, -EINVAL (NULL ids or values with n > 0, or an id
 *   that is not an xstat: nothing filled).
 */
__rte_experimental
int rte_ism_xstats_get(uint16_t dev_id, const unsigned int ids[],
		uint64_t values[], unsigned int n);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Value and id of the xstat called name.
 * @param dev_id device id
 * @param name the xstat's name, as rte_ism_xstats_names_get() gives it
 * @param[out] id its id, or UINT_MAX if there is none (may be NULL)
 * @param[out] value its value
 * @return 0, -ENODEV, -EINVAL (NULL name or value, or no xstat of that
 *   name: the convention of DPDK's rawdev xstats by name).
 */
__rte_experimental
int rte_ism_xstats_get_by_name(uint16_t dev_id, const char *name,
		unsigned int *id, uint64_t *value);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Reset the xstats ids[0..n-1] to zero, and only those (ids NULL: every
 * xstat that can be reset). The driver's xstats that are levels rather
 * than counts (e.g. the number of peers) cannot be reset.
 * @return 0, -ENODEV, -EINVAL (an id that is not an xstat), -ENOTSUP (one
 *   of ids cannot be reset); on an error nothing is reset.
 */
__rte_experimental
int rte_ism_xstats_reset(uint16_t dev_id, const unsigned int ids[],
		unsigned int n);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Print the device state (GID, DMBs, peers, counters) to f.
 * @return 0, -ENODEV, -EINVAL (NULL f).
 */
__rte_experimental
int rte_ism_dump(uint16_t dev_id, FILE *f);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Self-test of a started device: it registers a DMB that it writes itself
 * (sized to the device's limits), checks data, signal, bounds and a stale
 * token, and unregisters it. It polls the device's signals, all of them:
 * run it on a device no client is using. The selftest of the device's
 * rawdev (and so DPDK's rawdev_autotest) runs it.
 * @return 0, -ENODEV, -ENOTSUP (the driver has none), -ENETDOWN (the
 *   device is stopped), -ENOSPC (no DMB index free), or -EIO (a check
 *   failed, named in the log).
 */
__rte_experimental
int rte_ism_dev_selftest(uint16_t dev_id);

/**
 * A removal callback: the device dev_id is about to be closed or removed;
 * see "Holders of a device id" in the file doc. It runs on the thread that
 * closes or removes the device, with the device still working, and must
 * not close the device itself (-EBUSY).
 */
typedef void (*rte_ism_dev_remove_cb_t)(uint16_t dev_id, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Be told, once, before the device is closed or removed. Callbacks run in
 * the order they were registered; each registration lasts until it is
 * unregistered or has run. Process-local: in a secondary process, the
 * callbacks of that process run when it forgets the device.
 * @return 0, -EINVAL (NULL fn), -ENODEV (no such device, or being
 *   closed), -EEXIST (fn and arg registered already), -ENOMEM.
 */
__rte_experimental
int rte_ism_dev_remove_callback_register(uint16_t dev_id,
		rte_ism_dev_remove_cb_t fn, void *arg);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Drop a registration of rte_ism_dev_remove_callback_register(). Allowed
 * from a removal callback, for any callback of the device.
 * @return 0, -ENOENT (not registered: also once the callback ran, or the
 *   device is gone), -EAGAIN (the callback is running now on another
 *   thread: it may still use arg; try again).
 */
__rte_experimental
int rte_ism_dev_remove_callback_unregister(uint16_t dev_id,
		rte_ism_dev_remove_cb_t fn, void *arg);

/**
 * @name Waiting without spinning (interrupt mode)
 *
 * A client with nothing to poll may sleep until one of its device's DMBs
 * is signalled or an event is queued for the device, instead of holding a
 * core. Each device with RTE_ISM_CAPA_INTR has one wake-up file
 * descriptor (rte_ism_intr_fd_get(), to poll, not to read or write) and an
 * armed flag:
 *
 * - while the device is disarmed (the default) nothing changes: a writer
 *   that raises a signal for it makes no system call, the receiver polls;
 * - while it is armed, the first signal raised for the device since its
 *   client last polled its signals, and every event queued for it, make
 *   the descriptor readable (a writer then makes one system call).
 *
 * The race-free way to sleep: arm, re-check, sleep, disarm, poll.
 *
 * @code
 * rte_ism_intr_enable(dev);                 // arm
 * n = rte_ism_signal_poll(dev, sigs, nb);   // re-check (optional)
 * m = rte_ism_event_poll(dev, evs, nbe);
 * if (n == 0 && m == 0)
 *         epoll_wait(epfd, &ev, 1, timeout); // fd in epfd
 * rte_ism_intr_disable(dev);                // disarm, clear the fd
 * // handle sigs/evs, then poll again
 * @endcode
 *
 * Nothing raised after rte_ism_intr_enable() starts is missed: arming
 * stores the flag and then looks at the device's pending signals and
 * events; a writer raises its signal and then reads the flag (both with
 * full memory barriers), so at least one of the two sees the other. When
 * something is already pending, rte_ism_intr_enable() makes the
 * descriptor readable itself, so arm-then-sleep without the re-check is
 * race-free too (the re-check only saves the system calls). Wake-ups can
 * be spurious (a signal already polled, a wake-up of a previous arming):
 * after waking, poll, and arm again if there was nothing.
 *
 * A waiter wakes when a peer goes away: the RTE_ISM_EVENT_DEV event the
 * backend queues (RTE_ISM_DEV_DISABLED) makes the descriptor readable
 * like any event. Wake-ups are per device, not per DMB: to wait for some
 * DMBs apart from others, give them a device of their own. One thread
 * waits for a device at a time (as one lcore polls its signals).
 *
 * No peer can take a wake-up meant for this device or make its calls
 * wait: every writer wakes the device through a channel of its own that
 * only the device reads, written and read without blocking whatever the
 * writer does with its end. A peer that sends wake-ups in a loop only
 * costs the waiter the cycles of waking to find nothing (a spurious
 * wake-up each time it disarms and arms again).
 *
 * The descriptor belongs to the device (do not close, read or write it;
 * it is an epoll instance for the software backends); to wake the
 * device's own waiter, call rte_ism_intr_kick(). It is closed with the
 * device: a device is closed only once nobody waits on it.
 * @{
 */

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * The device's wake-up file descriptor, for epoll(7), poll(2) or
 * rte_epoll_ctl(): readable while a wake-up is pending (see above).
 * @return the descriptor (>= 0), -ENODEV, -ENOTSUP (no RTE_ISM_CAPA_INTR),
 *   -E_RTE_SECONDARY.
 */
__rte_experimental
int rte_ism_intr_fd_get(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Arm the device's wake-up: from now on a signal raised for one of its
 * DMBs, or an event queued for it, makes its descriptor readable; if one
 * is pending already, the descriptor is made readable at once. Arming an
 * armed device only checks again for what is pending.
 * @return 0, -ENODEV, -ENOTSUP (no RTE_ISM_CAPA_INTR), -E_RTE_SECONDARY,
 *   or the driver's error (-EIO: the descriptor could not be written).
 */
__rte_experimental
int rte_ism_intr_enable(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Disarm the device's wake-up and clear its descriptor: writers stop
 * making system calls; the client polls. Disarming a disarmed device
 * clears the descriptor.
 * @return 0, -ENODEV, -ENOTSUP (no RTE_ISM_CAPA_INTR), -E_RTE_SECONDARY.
 */
__rte_experimental
int rte_ism_intr_disable(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Wake the device's waiter: if the device is armed, make its descriptor
 * readable (a spurious wake-up: the waiter polls and finds what the
 * caller wants it to see). Any thread; never blocks.
 * @return 0, -ENODEV, -ENOTSUP (no RTE_ISM_CAPA_INTR).
 */
__rte_experimental
int rte_ism_intr_kick(uint16_t dev_id);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Add the device's descriptor to, or remove it from, an EAL epoll
 * instance, as rte_eth_dev_rx_intr_ctl_q() does for an Rx queue: then
 * rte_epoll_wait() returns data in the event's epdata.data. EAL adds it
 * edge-triggered and does not read it: rte_ism_intr_disable() clears it.
 * The device is in at most one epoll instance this way.
 * @param dev_id device id
 * @param epfd epoll instance, or RTE_EPOLL_PER_THREAD
 * @param op RTE_INTR_EVENT_ADD or RTE_INTR_EVENT_DEL
 * @param data returned by rte_epoll_wait() for this descriptor
 * @return 0, -ENODEV, -ENOTSUP (no RTE_ISM_CAPA_INTR), -E_RTE_SECONDARY,
 *   -EINVAL (bad op), -EEXIST (added already), or the error of
 *   rte_epoll_ctl() (-EPERM).
 */
__rte_experimental
int rte_ism_intr_ctl(uint16_t dev_id, int epfd, int op, void *data);

/** @} */

/** Buffer size for rte_ism_gid_format(). */
#define RTE_ISM_GID_STRLEN 37

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Parse a GID: "0x" and up to 16 hex digits (64-bit GID, gid_ext 0), 32 hex
 * digits, or the UUID form xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.
 * @return 0, or -EINVAL (NULL argument, bad syntax, or zero GID).
 */
__rte_experimental
int rte_ism_gid_parse(const char *str, struct rte_ism_gid *gid);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * Format a GID in UUID form (as Linux prints DIBS GIDs).
 * @param gid the GID
 * @param buf at least RTE_ISM_GID_STRLEN bytes
 * @param size the size of buf
 * @return 0, or -EINVAL (NULL argument or buffer too small).
 */
__rte_experimental
int rte_ism_gid_format(const struct rte_ism_gid *gid, char *buf, size_t size);

/**
 * @warning
 * @b EXPERIMENTAL: this API may change without prior notice.
 *
 * @return true if both GIDs are equal.
 */
__rte_experimental
static inline bool
rte_ism_gid_equal(const struct rte_ism_gid *a, const struct rte_ism_gid *b)
{
	return a->gid == b->gid && a->gid_ext == b->gid_ext;
}

#ifdef __cplusplus
}
#endif

#endif /* RTE_ISM_H */
