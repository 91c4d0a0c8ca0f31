/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Common plumbing of the ISM PMD's backends: creation of a device (a
 * rawdev, then the lib/ism device in the slot of the rawdev's id), the
 * control ops every backend shares (start/stop keeping the rawdev's
 * started flag in step, close, selftest, the move counters and the
 * backend's xstats), and removal.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_rawdev_pmd.h>
#include <rte_string_fns.h>

#include "ism_pmd.h"

RTE_LOG_REGISTER_DEFAULT(ism_pmd_logtype, INFO);

static struct ism_pmd_dev *
pmd_dev(struct rte_ism_dev *idev)
{
	return idev->dev_private;
}

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

int
ism_pmd_stats_get(struct rte_ism_dev *idev, struct rte_ism_stats *st)
{
	struct ism_lcore_stats sum;

	sum_stats(pmd_dev(idev), &sum);
	st->moves = sum.moves;
	st->bytes = sum.bytes;
	st->signals = sum.signals;
	st->errors_unknown_token = sum.errors[ISM_ERR_UNKNOWN_TOKEN];
	st->errors_not_writer = sum.errors[ISM_ERR_NOT_WRITER];
	st->errors_out_of_range = sum.errors[ISM_ERR_OUT_OF_RANGE];
	st->errors_bad_argument = sum.errors[ISM_ERR_BAD_ARG];
	st->errors_device = sum.errors[ISM_ERR_DEVICE];
	return 0;
}

int
ism_pmd_stats_reset(struct rte_ism_dev *idev __rte_unused)
{
	/* The counters are per lcore and written without atomics: they are
	 * never cleared; the library keeps the reset bases. */
	return 0;
}

/* The backend's xstats (after the library's). */

static int
pmd_xstats_names_get(struct rte_ism_dev *idev,
		struct rte_ism_xstats_name *names, unsigned int size)
{
	const struct ism_backend *be = pmd_dev(idev)->be;
	unsigned int i;

	if (names == NULL || size < be->nb_xstats)
		return be->nb_xstats;
	for (i = 0; i < be->nb_xstats; i++)
		rte_strlcpy(names[i].name, be->xstat_names[i],
			    sizeof(names[i].name));
	return be->nb_xstats;
}

static bool
is_gauge(const struct ism_backend *be, unsigned int i)
{
	return (be->xstat_gauges & RTE_BIT64(i)) != 0;
}

static int
pmd_xstats_get(struct rte_ism_dev *idev, const unsigned int ids[],
		uint64_t values[], unsigned int n)
{
	struct ism_pmd_dev *dev = pmd_dev(idev);
	unsigned int i;

	for (i = 0; i < n; i++) {
		values[i] = dev->be->xstat_get(dev, ids[i]);
		if (!is_gauge(dev->be, ids[i]))
			values[i] -= dev->xstat_base[ids[i]];
	}
	return n;
}

static int
pmd_xstats_reset(struct rte_ism_dev *idev, const unsigned int ids[],
		unsigned int n)
{
	struct ism_pmd_dev *dev = pmd_dev(idev);
	const struct ism_backend *be = dev->be;
	unsigned int i;

	for (i = 0; ids != NULL && i < n; i++)
		if (is_gauge(be, ids[i])) {
			ISM_PMD_LOG(ERR, "%s: xstat %s is a level, not a count: "
				    "it cannot be reset", idev->name,
				    be->xstat_names[ids[i]]);
			return -ENOTSUP;
		}
	for (i = 0; i < (ids != NULL ? n : be->nb_xstats); i++) {
		unsigned int x = ids != NULL ? ids[i] : i;

		if (!is_gauge(be, x))
			dev->xstat_base[x] = be->xstat_get(dev, x);
	}
	return 0;
}

/* Life cycle ops: the backend's, plus the rawdev's flag and the close. */

static int
pmd_dev_start(struct rte_ism_dev *idev)
{
	struct ism_pmd_dev *dev = pmd_dev(idev);
	int ret = 0;

	if (dev->be->ops->dev_start != NULL)
		ret = dev->be->ops->dev_start(idev);
	if (ret == 0)
		dev->rawdev->started = 1;
	return ret;
}

static int
pmd_dev_stop(struct rte_ism_dev *idev)
{
	struct ism_pmd_dev *dev = pmd_dev(idev);
	int ret = 0;

	if (dev->be->ops->dev_stop != NULL)
		ret = dev->be->ops->dev_stop(idev);
	dev->rawdev->started = 0;
	return ret;
}

static void
backend_close(struct ism_pmd_dev *dev)
{
	if (dev->closed)
		return;
	dev->closed = true;
	if (dev->be->close != NULL)
		dev->be->close(dev);
}

static int
pmd_dev_close(struct rte_ism_dev *idev)
{
	backend_close(pmd_dev(idev));
	return 0;
}

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
	if (be->nb_xstats > ISM_BE_XSTATS_MAX) {
		ISM_PMD_LOG(ERR, "%s: backend %s has %u xstats (at most %d)",
			    name, be->name, be->nb_xstats, ISM_BE_XSTATS_MAX);
		rte_errno = EINVAL;
		return NULL;
	}
	raw = ism_rawdev_alloc(name, priv_size, socket_id, device,
			driver_name);
	if (raw == NULL)
		return NULL;
	/* One device, one id: the ISM device takes the rawdev's. */
	ism = rte_ism_pmd_allocate_id(name, socket_id, raw->dev_id);
	if (ism == NULL) {
		err = rte_errno;
		ISM_PMD_LOG(ERR, "%s: cannot allocate ISM device %u: %s", name,
			    raw->dev_id, rte_strerror(err));
		ism_rawdev_free(raw);
		rte_errno = err;
		return NULL;
	}
	dev = raw->dev_private;
	dev->rawdev = raw;
	dev->ism = ism;
	dev->be = be;
	dev->ops = *be->ops;
	dev->ops.dev_start = pmd_dev_start;
	dev->ops.dev_stop = pmd_dev_stop;
	dev->ops.dev_close = pmd_dev_close;
	dev->ops.dev_selftest = ism_pmd_selftest;
	dev->ops.stats_get = ism_pmd_stats_get;
	dev->ops.stats_reset = ism_pmd_stats_reset;
	if (be->nb_xstats > 0) {
		dev->ops.xstats_names_get = pmd_xstats_names_get;
		dev->ops.xstats_get = pmd_xstats_get;
		dev->ops.xstats_reset = pmd_xstats_reset;
	}
	ism->driver_name = driver_name;
	ism->backend = be->name;
	ism->device = device;
	ism->dev_ops = &dev->ops;
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
	/* Started for rte_ism_*, configured but not started for a generic
	 * rawdev client, whose rte_rawdev_configure() refuses a started
	 * device; rte_rawdev_start() then finds the fast path on. */
	dev->rawdev->started = 0;
	return 0;
}

void
ism_pmd_destroy(struct ism_pmd_dev *dev)
{
	struct rte_rawdev *raw = dev->rawdev;

	/* Closes a visible device (stop, then backend_close). */
	rte_ism_pmd_release(dev->ism);
	/* A probe that failed before the device became visible. */
	backend_close(dev);
	dev->ism = NULL;
	ism_rawdev_free(raw);
}

struct ism_pmd_dev *
ism_pmd_find(const char *name)
{
	return ism_rawdev_find(name);
}
