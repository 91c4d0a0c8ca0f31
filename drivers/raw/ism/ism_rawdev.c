/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rawdev of an ISM device: the management plane DPDK users know, as an
 * adapter (ism_rawdev.h). Its private data holds the ISM device's id; every
 * rawdev op calls the rte_ism_* function of that id, so both APIs see one
 * device with one life cycle (owned by lib/ism). The rawdev's own id is
 * the rawdev library's: it need not be the ISM id. The conventions of
 * rte_rawdev.h hold: after probe the rawdev reads as configured, not
 * started (the ISM fast path is on all the same), so a generic client's
 * configure -> start -> stop -> close works; see doc/guides/rawdevs/ism.rst.
 */

#include <string.h>

#include <rte_errno.h>
#include <rte_log.h>
#include <rte_rawdev_pmd.h>

#include <ism_compat.h>
#include <rte_ism.h>

#include "ism_rawdev.h"

RTE_LOG_REGISTER_SUFFIX(ism_rawdev_logtype, rawdev, INFO);
#define RTE_LOGTYPE_ISM_RAWDEV ism_rawdev_logtype
#define RAW_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_RAWDEV, "%s(): " fmt, __func__, ##__VA_ARGS__)

/* The xstat names are handed through as they are. */
_Static_assert(sizeof(struct rte_rawdev_xstats_name) ==
	sizeof(struct rte_ism_xstats_name), "xstat name size");

/* The rawdev's private data. */
struct ism_rawdev {
	uint16_t ism_id;	/* the ISM device it stands for */
};

static uint16_t
ism_id(const struct rte_rawdev *raw)
{
	return ((const struct ism_rawdev *)raw->dev_private)->ism_id;
}

static int
raw_info_get(struct rte_rawdev *raw, rte_rawdev_obj_t info, size_t size)
{
	/* The rawdev's private info is the public rte_ism_dev_info. */
	if (size != sizeof(struct rte_ism_dev_info)) {
		RAW_LOG(ERR, "%s: info size %zu, expected %zu "
			    "(struct rte_ism_dev_info)", raw->name, size,
			    sizeof(struct rte_ism_dev_info));
		return -EINVAL;
	}
	return rte_ism_info_get(ism_id(raw), info);
}

/* Nothing to configure (devargs set the limits at probe): any
 * configuration, a NULL one included, is accepted and ignored.
 */
static int
raw_configure(const struct rte_rawdev *raw,
		rte_rawdev_obj_t config __rte_unused,
		size_t config_size __rte_unused)
{
	return rte_ism_is_valid_dev(ism_id(raw)) ? 0 : -ENODEV;
}

static int
raw_start(struct rte_rawdev *raw)
{
	return rte_ism_dev_start(ism_id(raw));
}

static void
raw_stop(struct rte_rawdev *raw)
{
	rte_ism_dev_stop(ism_id(raw));
}

static int
raw_close(struct rte_rawdev *raw)
{
	return rte_ism_dev_close(ism_id(raw));
}

static int
raw_dump(struct rte_rawdev *raw, FILE *f)
{
	return rte_ism_dump(ism_id(raw), f);
}

/* Not a queue-based rawdev: no queues (rather than -ENOTSUP, which
 * rte_rawdev_queue_count() would turn into 65441).
 */
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
	return rte_ism_xstats_names_get(ism_id(raw),
			(struct rte_ism_xstats_name *)names, size);
}

static int
raw_xstats_get(const struct rte_rawdev *raw, const unsigned int ids[],
		uint64_t values[], unsigned int n)
{
	return rte_ism_xstats_get(ism_id(raw), ids, values, n);
}

static uint64_t
raw_xstats_get_by_name(const struct rte_rawdev *raw, const char *name,
		unsigned int *id)
{
	uint64_t v;
	int ret = rte_ism_xstats_get_by_name(ism_id(raw), name, id, &v);

	/* rte_rawdev.h: the value, or a negative errno (-EINVAL: no such
	 * name) in the same uint64_t.
	 */
	return ret < 0 ? (uint64_t)(int64_t)ret : v;
}

static int
raw_xstats_reset(struct rte_rawdev *raw, const uint32_t ids[], uint32_t n)
{
	return rte_ism_xstats_reset(ism_id(raw), ids, n);
}

/* dev_selftest gets the rawdev's id (rte_rawdev_pmd.h). */
static int
raw_selftest(uint16_t raw_id)
{
	if (!rte_rawdev_pmd_is_valid_dev(raw_id))
		return -ENODEV;
	return rte_ism_dev_selftest(ism_id(&rte_rawdevs[raw_id]));
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

/* The rawdev goes before its ISM device: rte_rawdev_pmd_release() goes
 * through dev_close, which must exist and has nothing to do.
 */
static int
raw_gone_close(struct rte_rawdev *raw __rte_unused)
{
	return 0;
}

static const struct rte_rawdev_ops ism_rawdev_gone_ops = {
	.dev_close = raw_gone_close,
};

int
ism_rawdev_create(uint16_t ism_id, struct rte_device *device,
		const char *driver_name)
{
	struct rte_ism_dev_info info;
	struct rte_rawdev *raw;
	int ret;

	ret = rte_ism_info_get(ism_id, &info);
	if (ret < 0)
		return ret;
	raw = rte_rawdev_pmd_allocate(info.name, sizeof(struct ism_rawdev),
			info.socket_id);
	if (raw == NULL) {
		/* rawdev sets no rte_errno: a taken name, no free id, or no
		 * memory.
		 */
		if (rte_rawdev_pmd_get_named_dev(info.name) != NULL)
			ret = -EEXIST;
		else if (rte_rawdev_count() >= RTE_RAWDEV_MAX_DEVS)
			ret = -ENOSPC;
		else
			ret = -ENOMEM;
		RAW_LOG(WARNING, "%s: no rawdev for it (%s): the ISM device "
			"works, through rte_ism_* only", info.name,
			rte_strerror(-ret));
		return ret;
	}
	((struct ism_rawdev *)raw->dev_private)->ism_id = ism_id;
	raw->dev_ops = &ism_rawdev_ops;
	raw->device = device;
	raw->driver_name = driver_name;
	return 0;
}

void
ism_rawdev_destroy(const char *name)
{
	struct rte_rawdev *raw = rte_rawdev_pmd_get_named_dev(name);

	if (raw == NULL || raw->dev_ops != &ism_rawdev_ops)
		return;
	/* rte_rawdev_pmd_release() goes through dev_close, which must not
	 * close the ISM device: it is removed by its driver.
	 */
	raw->dev_ops = &ism_rawdev_gone_ops;
	raw->started = 0;
	rte_rawdev_pmd_release(raw);
}
