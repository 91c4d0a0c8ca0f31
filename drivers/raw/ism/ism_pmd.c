/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The management plane of an ISM device: one rawdev per device (info,
 * configure, start/stop/close, dump, xstats, selftest), wired to the
 * lib/ism device that carries the client plane.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_rawdev_pmd.h>
#include <rte_string_fns.h>

#include "ism_pmd.h"

RTE_LOG_REGISTER_DEFAULT(ism_pmd_logtype, INFO);

static struct ism_pmd_dev *
raw_to_dev(const struct rte_rawdev *raw)
{
	return raw->dev_private;
}

/* ISM device id behind a rawdev, or -ENODEV while it is being destroyed. */
static int
raw_ism_id(const struct rte_rawdev *raw)
{
	const struct ism_pmd_dev *dev = raw_to_dev(raw);

	return dev->ism != NULL ? dev->ism->dev_id : -ENODEV;
}

static int
ism_raw_info_get(struct rte_rawdev *raw, rte_rawdev_obj_t info, size_t size)
{
	struct ism_pmd_dev *dev = raw_to_dev(raw);

	/* The rawdev's private info is the public rte_ism_dev_info. */
	if (size != sizeof(struct rte_ism_dev_info)) {
		ISM_PMD_LOG(ERR, "%s: info size %zu, expected %zu "
			    "(struct rte_ism_dev_info)", raw->name, size,
			    sizeof(struct rte_ism_dev_info));
		return -EINVAL;
	}
	if (dev->ism == NULL)
		return -ENODEV;
	return rte_ism_info_get(dev->ism->dev_id, info);
}

static int
ism_raw_configure(const struct rte_rawdev *raw __rte_unused,
		rte_rawdev_obj_t config __rte_unused,
		size_t config_size __rte_unused)
{
	/* Nothing to configure: limits come from devargs at probe. */
	return 0;
}

static int
ism_raw_start(struct rte_rawdev *raw)
{
	int id = raw_ism_id(raw);

	return id < 0 ? id : rte_ism_dev_start(id);
}

static void
ism_raw_stop(struct rte_rawdev *raw)
{
	int id = raw_ism_id(raw);

	if (id >= 0)
		rte_ism_dev_stop(id);
}

static int
ism_raw_close(struct rte_rawdev *raw)
{
	int id = raw_ism_id(raw);

	/* The device itself goes away with its bus device (vdev remove). */
	return id < 0 ? 0 : rte_ism_dev_stop(id);
}

static int
ism_raw_dump(struct rte_rawdev *raw, FILE *f)
{
	int id = raw_ism_id(raw);

	return id < 0 ? id : rte_ism_dump(id, f);
}

/* Common xstats, then the backend's. */
enum {
	XS_MOVES,
	XS_BYTES,
	XS_SIGNALS,
	XS_ERR_FIRST,
	XS_EVENTS = XS_ERR_FIRST + ISM_ERR_NB,
	XS_EVENTS_DROPPED,
	XS_NB_COMMON
};

static const char *const common_xstat_names[XS_NB_COMMON] = {
	[XS_MOVES] = "moves",
	[XS_BYTES] = "bytes",
	[XS_SIGNALS] = "signals",
	[XS_ERR_FIRST + ISM_ERR_UNKNOWN_TOKEN] = "errors_unknown_token",
	[XS_ERR_FIRST + ISM_ERR_NOT_WRITER] = "errors_not_writer",
	[XS_ERR_FIRST + ISM_ERR_OUT_OF_RANGE] = "errors_out_of_range",
	[XS_ERR_FIRST + ISM_ERR_BAD_ARG] = "errors_bad_argument",
	[XS_ERR_FIRST + ISM_ERR_DEVICE] = "errors_device",
	[XS_EVENTS] = "events",
	[XS_EVENTS_DROPPED] = "events_dropped",
};

static unsigned int
nb_xstats(const struct ism_pmd_dev *dev)
{
	return XS_NB_COMMON + dev->be->nb_xstats;
}

static const char *
xstat_name(const struct ism_pmd_dev *dev, unsigned int i)
{
	return i < XS_NB_COMMON ? common_xstat_names[i] :
		dev->be->xstat_names[i - XS_NB_COMMON];
}

static void
sum_stats(const struct ism_pmd_dev *dev, struct ism_lcore_stats *sum)
{
	unsigned int i, r;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i <= RTE_MAX_LCORE; i++) {
		const struct ism_lcore_stats *s = &dev->stats[i];

		sum->moves += s->moves;
		sum->bytes += s->bytes;
		sum->signals += s->signals;
		for (r = 0; r < ISM_ERR_NB; r++)
			sum->errors[r] += s->errors[r];
	}
}

static uint64_t
xstat_value(struct ism_pmd_dev *dev, const struct ism_lcore_stats *sum,
		const struct rte_ism_stats *st, unsigned int i)
{
	switch (i) {
	case XS_MOVES:
		return sum->moves;
	case XS_BYTES:
		return sum->bytes;
	case XS_SIGNALS:
		return sum->signals;
	case XS_EVENTS:
		return st->events;
	case XS_EVENTS_DROPPED:
		return st->events_dropped;
	default:
		if (i < XS_EVENTS)
			return sum->errors[i - XS_ERR_FIRST];
		return dev->be->xstat_get(dev, i - XS_NB_COMMON);
	}
}

static int
ism_raw_xstats_get_names(const struct rte_rawdev *raw,
		struct rte_rawdev_xstats_name *names, unsigned int size)
{
	struct ism_pmd_dev *dev = raw_to_dev(raw);
	unsigned int i, n = nb_xstats(dev);

	if (names == NULL || size < n)
		return n;
	for (i = 0; i < n; i++)
		rte_strlcpy(names[i].name, xstat_name(dev, i),
			    sizeof(names[i].name));
	return n;
}

static int
ism_raw_xstats_get(const struct rte_rawdev *raw, const unsigned int ids[],
		uint64_t values[], unsigned int n)
{
	struct ism_pmd_dev *dev = raw_to_dev(raw);
	struct ism_lcore_stats sum;
	struct rte_ism_stats st;
	unsigned int i;

	if (dev->ism == NULL)
		return -ENODEV;
	sum_stats(dev, &sum);
	rte_ism_stats_get(dev->ism->dev_id, &st);
	for (i = 0; i < n; i++) {
		if (ids[i] >= nb_xstats(dev)) {
			ISM_PMD_LOG(ERR, "%s: no xstat with id %u", raw->name,
				    ids[i]);
			return i;
		}
		values[i] = xstat_value(dev, &sum, &st, ids[i]);
	}
	return n;
}

static uint64_t
ism_raw_xstats_get_by_name(const struct rte_rawdev *raw, const char *name,
		unsigned int *id)
{
	struct ism_pmd_dev *dev = raw_to_dev(raw);
	struct ism_lcore_stats sum;
	struct rte_ism_stats st;
	unsigned int i;

	for (i = 0; dev->ism != NULL && i < nb_xstats(dev); i++) {
		if (strcmp(name, xstat_name(dev, i)) != 0)
			continue;
		if (id != NULL)
			*id = i;
		sum_stats(dev, &sum);
		rte_ism_stats_get(dev->ism->dev_id, &st);
		return xstat_value(dev, &sum, &st, i);
	}
	if (id != NULL)
		*id = UINT32_MAX;
	return (uint64_t)-ENOENT;
}

static int
ism_raw_xstats_reset(struct rte_rawdev *raw, const uint32_t ids[] __rte_unused,
		uint32_t nb_ids __rte_unused)
{
	int id = raw_ism_id(raw);

	/* Counters are per lcore and sum up: reset is all or nothing. */
	return id < 0 ? id : rte_ism_stats_reset(id);
}

static const struct rte_rawdev_ops ism_rawdev_ops = {
	.dev_info_get = ism_raw_info_get,
	.dev_configure = ism_raw_configure,
	.dev_start = ism_raw_start,
	.dev_stop = ism_raw_stop,
	.dev_close = ism_raw_close,
	.dump = ism_raw_dump,
	.xstats_get = ism_raw_xstats_get,
	.xstats_get_names = ism_raw_xstats_get_names,
	.xstats_get_by_name = ism_raw_xstats_get_by_name,
	.xstats_reset = ism_raw_xstats_reset,
	.dev_selftest = ism_pmd_selftest,
};

void
ism_pmd_post(struct ism_pmd_dev *dev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *gid, uint64_t token, uint64_t info)
{
	struct rte_ism_event ev = {
		.type = type,
		.code = code,
		.token = token,
		.info = info,
	};

	if (gid != NULL)
		ev.gid = *gid;
	rte_ism_pmd_event_post(dev->ism, &ev);
}

int
ism_pmd_stats_get(struct rte_ism_dev *idev, struct rte_ism_stats *st)
{
	struct ism_lcore_stats sum;
	unsigned int r;

	sum_stats(idev->dev_private, &sum);
	st->moves = sum.moves;
	st->bytes = sum.bytes;
	st->signals = sum.signals;
	for (r = 0; r < ISM_ERR_NB; r++)
		st->errors += sum.errors[r];
	return 0;
}

int
ism_pmd_stats_reset(struct rte_ism_dev *idev)
{
	struct ism_pmd_dev *dev = idev->dev_private;

	memset(dev->stats, 0, sizeof(dev->stats));
	return 0;
}

/* A rawdev that never got its ISM device: rte_rawdev_pmd_release() goes
 * through dev_close, which must exist and has nothing to do here. */
static int
ism_raw_unborn_close(struct rte_rawdev *raw __rte_unused)
{
	return 0;
}

static const struct rte_rawdev_ops ism_rawdev_unborn_ops = {
	.dev_close = ism_raw_unborn_close,
};

struct ism_pmd_dev *
ism_pmd_create(const char *name, int socket_id, struct rte_device *device,
		const char *driver_name, const struct ism_backend *be,
		size_t priv_size)
{
	struct rte_rawdev *raw;
	struct ism_pmd_dev *dev;
	struct rte_ism_dev *ism;
	int err;

	RTE_ASSERT(priv_size >= sizeof(struct ism_pmd_dev));
	raw = rte_rawdev_pmd_allocate(name, priv_size, socket_id);
	if (raw == NULL) {
		/* rawdev sets no rte_errno: a taken name or no room. */
		err = rte_rawdev_pmd_get_named_dev(name) != NULL ? EEXIST :
			ENOMEM;
		ISM_PMD_LOG(ERR, "%s: cannot allocate a rawdev: %s", name,
			    rte_strerror(err));
		rte_errno = err;
		return NULL;
	}
	ism = rte_ism_pmd_allocate(name, socket_id);
	if (ism == NULL) {
		err = rte_errno;
		ISM_PMD_LOG(ERR, "%s: cannot allocate an ISM device: %s", name,
			    rte_strerror(err));
		raw->dev_ops = &ism_rawdev_unborn_ops;
		rte_rawdev_pmd_release(raw);
		rte_errno = err;
		return NULL;
	}
	raw->dev_ops = &ism_rawdev_ops;
	raw->device = device;
	raw->driver_name = driver_name;
	dev = raw->dev_private;
	dev->rawdev = raw;
	dev->ism = ism;
	dev->be = be;
	ism->driver_name = driver_name;
	ism->backend = be->name;
	ism->device = device;
	ism->dev_ops = be->ops;
	ism->dev_private = dev;
	ism->fp.dev_private = dev;
	return dev;
}

int
ism_pmd_finish(struct ism_pmd_dev *dev)
{
	int ret;

	ret = rte_ism_pmd_probing_finish(dev->ism);
	if (ret < 0)
		return ret;
	ret = rte_ism_dev_start(dev->ism->dev_id);
	if (ret < 0)
		return ret;
	dev->rawdev->started = 1;
	return 0;
}

void
ism_pmd_destroy(struct ism_pmd_dev *dev)
{
	struct rte_rawdev *raw = dev->rawdev;

	/* Fast path off first, then the backend, then the handles. */
	if (dev->ism->attached)
		rte_ism_dev_stop(dev->ism->dev_id);
	if (dev->be->close != NULL)
		dev->be->close(dev);
	rte_ism_pmd_release(dev->ism);
	dev->ism = NULL;
	raw->started = 0;
	rte_rawdev_pmd_release(raw);
}

struct ism_pmd_dev *
ism_pmd_find(const char *name)
{
	struct rte_rawdev *raw = rte_rawdev_pmd_get_named_dev(name);

	if (raw == NULL || raw->dev_ops != &ism_rawdev_ops)
		return NULL;
	return raw->dev_private;
}
