/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rawdev of an ISM device: the management plane DPDK users know, as a
 * thin adapter. The rawdev and the ISM device have one id and one name;
 * every rawdev op calls the rte_ism_* function of that id, so both APIs
 * see one device with one life cycle (owned by lib/ism). The conventions
 * of rte_rawdev.h hold: after probe the rawdev reads as configured, not
 * started (the ISM fast path is on all the same), so a generic client's
 * configure -> start -> stop -> close works; see doc/guides/rawdevs/ism.rst.
 */

#include <string.h>

#include <rte_errno.h>
#include <rte_rawdev_pmd.h>

#include "ism_pmd.h"

/* Every rawdev id must be an ISM device id. */
_Static_assert(RTE_RAWDEV_MAX_DEVS <= RTE_ISM_MAX_DEVS,
	"RTE_ISM_MAX_DEVS must cover every rawdev id");
/* The xstat names are handed through as they are. */
_Static_assert(sizeof(struct rte_rawdev_xstats_name) ==
	sizeof(struct rte_ism_xstats_name), "xstat name size");

static int
raw_info_get(struct rte_rawdev *raw, rte_rawdev_obj_t info, size_t size)
{
	/* The rawdev's private info is the public rte_ism_dev_info. */
	if (size != sizeof(struct rte_ism_dev_info)) {
		ISM_PMD_LOG(ERR, "%s: info size %zu, expected %zu "
			    "(struct rte_ism_dev_info)", raw->name, size,
			    sizeof(struct rte_ism_dev_info));
		return -EINVAL;
	}
	return rte_ism_info_get(raw->dev_id, info);
}

/* Nothing to configure (devargs set the limits at probe): any
 * configuration, a NULL one included, is accepted and ignored. */
static int
raw_configure(const struct rte_rawdev *raw,
		rte_rawdev_obj_t config __rte_unused,
		size_t config_size __rte_unused)
{
	return rte_ism_is_valid_dev(raw->dev_id) ? 0 : -ENODEV;
}

static int
raw_start(struct rte_rawdev *raw)
{
	return rte_ism_dev_start(raw->dev_id);
}

static void
raw_stop(struct rte_rawdev *raw)
{
	rte_ism_dev_stop(raw->dev_id);
}

static int
raw_close(struct rte_rawdev *raw)
{
	return rte_ism_dev_close(raw->dev_id);
}

static int
raw_dump(struct rte_rawdev *raw, FILE *f)
{
	return rte_ism_dump(raw->dev_id, f);
}

/* Not a queue-based rawdev: no queues (rather than -ENOTSUP, which
 * rte_rawdev_queue_count() would turn into 65441). */
static uint16_t
raw_queue_count(struct rte_rawdev *raw __rte_unused)
{
	return 0;
}

static int
raw_xstats_get_names(const struct rte_rawdev *raw,
		struct rte_rawdev_xstats_name *names, unsigned int size)
{
	/* A name is a char array in both: written as chars. */
	return rte_ism_xstats_names_get(raw->dev_id,
			(struct rte_ism_xstats_name *)names, size);
}

static int
raw_xstats_get(const struct rte_rawdev *raw, const unsigned int ids[],
		uint64_t values[], unsigned int n)
{
	return rte_ism_xstats_get(raw->dev_id, ids, values, n);
}

static uint64_t
raw_xstats_get_by_name(const struct rte_rawdev *raw, const char *name,
		unsigned int *id)
{
	uint64_t v;
	int ret = rte_ism_xstats_get_by_name(raw->dev_id, name, id, &v);

	/* rte_rawdev.h: the value, or a negative errno (-EINVAL: no such
	 * name) in the same uint64_t. */
	return ret < 0 ? (uint64_t)(int64_t)ret : v;
}

static int
raw_xstats_reset(struct rte_rawdev *raw, const uint32_t ids[], uint32_t n)
{
	return rte_ism_xstats_reset(raw->dev_id, ids, n);
}

static int
raw_selftest(uint16_t dev_id)
{
	return rte_ism_dev_selftest(dev_id);
}

static const struct rte_rawdev_ops ism_rawdev_ops = {
	.dev_info_get = raw_info_get,
	.dev_configure = raw_configure,
	.dev_start = raw_start,
	.dev_stop = raw_stop,
	.dev_close = raw_close,
	.queue_count = raw_queue_count,
	.dump = raw_dump,
	.xstats_get = raw_xstats_get,
	.xstats_get_names = raw_xstats_get_names,
	.xstats_get_by_name = raw_xstats_get_by_name,
	.xstats_reset = raw_xstats_reset,
	.dev_selftest = raw_selftest,
};

/* The ISM device is gone (never made, or released): rte_rawdev_pmd_release()
 * goes through dev_close, which must exist and has nothing left to do. */
static int
raw_gone_close(struct rte_rawdev *raw __rte_unused)
{
	return 0;
}

static const struct rte_rawdev_ops ism_rawdev_gone_ops = {
	.dev_close = raw_gone_close,
};

struct rte_rawdev *
ism_rawdev_alloc(const char *name, size_t priv_size, int socket_id,
		struct rte_device *device, const char *driver_name)
{
	struct rte_rawdev *raw;
	int err;

	raw = rte_rawdev_pmd_allocate(name, priv_size, socket_id);
	if (raw == NULL) {
		/* rawdev sets no rte_errno: a taken name, no free id, or no
		 * memory. */
		if (rte_rawdev_pmd_get_named_dev(name) != NULL)
			err = EEXIST;
		else if (rte_rawdev_count() >= RTE_RAWDEV_MAX_DEVS)
			err = ENOSPC;
		else
			err = ENOMEM;
		ISM_PMD_LOG(ERR, "%s: cannot allocate a rawdev: %s%s", name,
			    rte_strerror(err), err == ENOSPC ?
			    " (every rawdev id, and so every ISM device id, "
			    "is taken)" : "");
		rte_errno = err;
		return NULL;
	}
	raw->dev_ops = &ism_rawdev_ops;
	raw->device = device;
	raw->driver_name = driver_name;
	return raw;
}

void
ism_rawdev_free(struct rte_rawdev *raw)
{
	raw->dev_ops = &ism_rawdev_gone_ops;
	raw->started = 0;
	rte_rawdev_pmd_release(raw);
}

struct ism_pmd_dev *
ism_rawdev_find(const char *name)
{
	struct rte_rawdev *raw = rte_rawdev_pmd_get_named_dev(name);

	if (raw == NULL || raw->dev_ops != &ism_rawdev_ops)
		return NULL;
	return raw->dev_private;
}
