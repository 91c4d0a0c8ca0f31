/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PMD_H
#define ISM_PMD_H

/*
 * Private to the ISM rawdev PMD: what every backend (loopback, shm, pci,
 * ivshm) shares. Each backend's device structure starts with struct
 * ism_pmd_dev, which is also the context the fast path receives; it is the
 * private area lib/ism allocates with the device (the one registry of ISM
 * devices: id, name, private data). The rawdev of a device is an adapter
 * the common code registers once the device is probed (ism_rawdev.h).
 */

#include <inttypes.h>
#include <stdint.h>
#include <time.h>

#include <rte_common.h>
#include <rte_compat.h>
#include <rte_errno.h>
#include <rte_kvargs.h>
#include <rte_log.h>
#include <rte_memory.h>

#include <ism_compat.h>

#include <ism_driver.h>
#include <ism_driver_sync.h>

extern int ism_pmd_logtype;

#define RTE_LOGTYPE_ISM_PMD ism_pmd_logtype
#define ISM_PMD_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_PMD, "%s(): " fmt, __func__, ##__VA_ARGS__)

/* CLOCK_MONOTONIC in ns (the clock of the events): deadlines and timers
 * of every backend.
 */
static inline uint64_t
ism_now_ns(void)
{
	return rte_ism_time_ns();
}

/* Why a move failed; one field of rte_ism_stats per reason. */
enum ism_err_reason {
	ISM_ERR_UNKNOWN_TOKEN,	/* -ENOENT */
	ISM_ERR_NOT_WRITER,	/* -EACCES */
	ISM_ERR_OUT_OF_RANGE,	/* -ERANGE */
	ISM_ERR_BAD_ARG,	/* -EINVAL */
	ISM_ERR_DEVICE,		/* device/peer failure, -EIO and others */
	ISM_ERR_NB
};

/* Move counters of one lcore; only that lcore writes them. */
struct __rte_cache_aligned ism_lcore_stats {
	RTE_ATOMIC(uint64_t) moves;
	RTE_ATOMIC(uint64_t) bytes;
	RTE_ATOMIC(uint64_t) signals;
	RTE_ATOMIC(uint64_t) errors[ISM_ERR_NB];
};

struct ism_pmd_dev;

/* At most this many xstats of a backend. */
#define ISM_BE_XSTATS_MAX 16

/* What a backend adds to the common plumbing. */
struct ism_backend {
	const char *name;			/* "loopback", "shm", "ivshmem", "pci" */
	/* Control ops. The common code adds close, selftest, stats and
	 * xstats to a copy.
	 */
	const struct rte_ism_dev_ops *ops;
	/* Free everything of the backend; the fast path is already off. */
	void (*close)(struct ism_pmd_dev *dev);
	/* Extra xstats after the library's (optional), counters that only
	 * grow unless their bit is in xstat_gauges (a level, e.g. peers
	 * now: never reset).
	 */
	unsigned int nb_xstats;
	const char *const *xstat_names;
	uint64_t (*xstat_get)(struct ism_pmd_dev *dev, unsigned int i);
	uint64_t xstat_gauges;
};

/*
 * Common head of every backend device; the fast-path context. In DPDK's
 * shared memory: a secondary process reads stats (and nothing else: the
 * pointers below are the primary's).
 */
struct ism_pmd_dev {
	struct ism_lcore_stats stats[RTE_MAX_LCORE + 1];
	struct rte_ism_dev *ism;
	const struct ism_backend *be;
	struct rte_ism_dev_ops ops;	/* be->ops and the common ones */
	bool closed;			/* be->close done */
	/* Values of the backend's xstats at their last reset. */
	uint64_t xstat_base[ISM_BE_XSTATS_MAX];
};

/* Fast-path counting; the shared non-EAL slot needs atomics. */
static inline void
ism_stat_add(__rte_atomic uint64_t *c, uint64_t v, unsigned int slot)
{
	/* An EAL lcore's own slot: a plain add (a relaxed load and store),
	 * readers see either value.
	 */
	if (likely(slot < RTE_MAX_LCORE))
		rte_atomic_store_explicit(c,
			rte_atomic_load_explicit(c, rte_memory_order_relaxed) + v,
			rte_memory_order_relaxed);
	else
		rte_atomic_fetch_add_explicit(c, v, rte_memory_order_relaxed);
}

static inline void
ism_count_move(struct ism_pmd_dev *d, unsigned int slot, uint32_t bytes,
		uint32_t nb_moves, uint32_t sf)
{
	struct ism_lcore_stats *s = &d->stats[slot];

	ism_stat_add(&s->moves, nb_moves, slot);
	ism_stat_add(&s->bytes, bytes, slot);
	if (sf)
		ism_stat_add(&s->signals, 1, slot);
}

/* Count a failed move; returns err for tail calls. */
static inline int
ism_count_error(struct ism_pmd_dev *d, unsigned int slot, int err)
{
	enum ism_err_reason r;

	switch (err) {
	case -ENOENT:
		r = ISM_ERR_UNKNOWN_TOKEN;
		break;
	case -EACCES:
		r = ISM_ERR_NOT_WRITER;
		break;
	case -ERANGE:
		r = ISM_ERR_OUT_OF_RANGE;
		break;
	case -EINVAL:
		r = ISM_ERR_BAD_ARG;
		break;
	default:
		r = ISM_ERR_DEVICE;
		break;
	}
	ism_stat_add(&d->stats[slot].errors[r], 1, slot);
	return err;
}

/*
 * Check a move against a DMB of len bytes: 0 or the errno. Overflow-safe.
 */
static inline int
ism_check_move(uint32_t idx, uint32_t offset, uint32_t len, uint32_t dmb_len)
{
	if (unlikely(len == 0 || idx >= RTE_ISM_DMBE_MAX))
		return -EINVAL;
	if (unlikely(offset > dmb_len || len > dmb_len - offset))
		return -ERANGE;
	return 0;
}

/* ism_pmd.c: common device life cycle. */

/*
 * Allocate the ISM device, with priv_size bytes of backend state whose
 * first member is struct ism_pmd_dev. Returns the zeroed backend state, or
 * NULL (logged) with rte_errno set: EEXIST (name taken), ENOSPC (every ISM
 * device id taken), ENOMEM, EINVAL.
 */
struct ism_pmd_dev *ism_pmd_create(const char *name, int socket_id,
		struct rte_device *device, const char *driver_name,
		const struct ism_backend *be, size_t priv_size);

/*
 * After the backend filled dev->ism (gid, chid, limits, capa, fp): make the
 * device visible and started (fast path on), then register its rawdev
 * (which reads as configured, not started: see doc/guides/rawdevs/ism.rst).
 * On failure the caller calls ism_pmd_destroy.
 */
int ism_pmd_finish(struct ism_pmd_dev *dev);

/* Remove: the rawdev, then close the device if it is not closed (the
 * backend frees everything) and release it.
 */
void ism_pmd_destroy(struct ism_pmd_dev *dev);

/*
 * A backend's probe in a secondary process (the bus gives the name, no
 * devargs): attach to the device the primary created, for the read-only
 * calls (info, stats, the library's xstats) and its rawdev. 0 or a
 * negative errno.
 */
int ism_pmd_attach_secondary(const char *name, struct rte_device *device);

/*
 * Remove the device called name in this process (a bus remove: primary,
 * ism_pmd_destroy(); secondary, forget it). 0, or -ENODEV.
 */
int ism_pmd_remove(const char *name);

struct rte_vdev_device;
/* The remove function of every vdev backend. */
int ism_pmd_vdev_remove(struct rte_vdev_device *vdev);

/* Queue an event for the device's client (gid may be NULL); a full queue
 * is counted and logged by the library.
 */
void ism_pmd_post(struct ism_pmd_dev *dev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *gid, uint64_t token, uint64_t info);

/*
 * rte_ism_dev_ops stats_get over the per-lcore counters, and stats_reset,
 * which has nothing to clear (the library keeps reset bases). The common
 * code installs both itself: backends need not name them.
 */
int ism_pmd_stats_get(struct rte_ism_dev *idev, struct rte_ism_stats *st);
int ism_pmd_stats_reset(struct rte_ism_dev *idev);

/* ism_devargs.c: devargs shared by the backends. */

struct ism_common_args {
	struct rte_ism_gid gid;		/* zero: backend picks */
	uint16_t chid;
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
};

/* Limits like the ISM hardware. */
#define ISM_DEFAULT_MAX_DMBS	1888
#define ISM_DEFAULT_MAX_DMB_LEN	(1u << 20)
/* Software SBA covers 4096 indices, 32 of them reserved. */
#define ISM_SW_MAX_DMBS		(4096 - RTE_ISM_DMB_IDX_FIRST)
#define ISM_SW_MAX_DMB_LEN	(1u << 30)

/*
 * Parse args (may be NULL) accepting only keys in valid (NULL-terminated).
 * An unknown key or a bad value is logged with its name; returns NULL then.
 * On success returns a kvlist (possibly empty) to free with rte_kvargs_free.
 */
struct rte_kvargs *ism_kvargs_parse(const char *devname, const char *args,
		const char *const valid[]);

/* Fill common args from kvlist (keys gid, chid, max_dmbs, max_dmb_len). */
int ism_common_args_get(const char *devname, struct rte_kvargs *kvlist,
		struct ism_common_args *a);

/*
 * Devarg socket= of the software backends: the NUMA node of the device's
 * memory (DMBs, SBA), a node EAL knows. *socket_id is left alone if the
 * key is absent. 0 or -EINVAL (logged).
 */
int ism_socket_arg_get(const char *devname, struct rte_kvargs *kvlist,
		int *socket_id);

/* Strict unsigned parse of key=value within [min, max]; logs on error. */
int ism_parse_u64(const char *devname, const char *key, const char *value,
		uint64_t min, uint64_t max, uint64_t *out);

/* A random version-4 UUID as a GID (like Linux loopback-ism). */
void ism_random_gid(struct rte_ism_gid *gid);

/* ism_selftest.c: rte_ism_dev_ops dev_selftest (rte_ism_dev_selftest). */
int ism_pmd_selftest(struct rte_ism_dev *idev);

#endif /* ISM_PMD_H */
