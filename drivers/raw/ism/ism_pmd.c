/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Common plumbing of the ISM PMD's backends: creation of a device (by
 * lib/ism, which owns its id, name and private area), the control ops
 * every backend shares (close, selftest, the move counters and the
 * backend's xstats), its rawdev adapter (ism_rawdev.h: called from here
 * only, never the other way), removal, and the probe of a secondary
 * process.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_string_fns.h>

#include <ism_compat.h>
#include <bus_vdev_driver.h>

#include "ism_pmd.h"
#include "ism_rawdev.h"

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

/* A counter another lcore may be adding to. */
static uint64_t
stat_read(const __rte_atomic uint64_t *c)
{
	return rte_atomic_load_explicit(c, rte_memory_order_relaxed);
}

int
ism_pmd_stats_get(struct rte_ism_dev *idev, struct rte_ism_stats *st)
{
	const struct ism_pmd_dev *dev = pmd_dev(idev);
	uint64_t moves = 0, bytes = 0, signals = 0;
	uint64_t errors[ISM_ERR_NB] = { 0 };
	unsigned int i, r;

	for (i = 0; i <= RTE_MAX_LCORE; i++) {
		const struct ism_lcore_stats *s = &dev->stats[i];

		moves += stat_read(&s->moves);
		bytes += stat_read(&s->bytes);
		signals += stat_read(&s->signals);
		for (r = 0; r < ISM_ERR_NB; r++)
			errors[r] += stat_read(&s->errors[r]);
	}
	st->moves = moves;
	st->bytes = bytes;
	st->signals = signals;
	st->errors_unknown_token = errors[ISM_ERR_UNKNOWN_TOKEN];
	st->errors_not_writer = errors[ISM_ERR_NOT_WRITER];
	st->errors_out_of_range = errors[ISM_ERR_OUT_OF_RANGE];
	st->errors_bad_argument = errors[ISM_ERR_BAD_ARG];
	st->errors_device = errors[ISM_ERR_DEVICE];
	return 0;
}

int
ism_pmd_stats_reset(struct rte_ism_dev *idev __rte_unused)
{
	/* The counters are per lcore and written without atomics: they are
	 * never cleared; the library keeps the reset bases.
	 */
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

/* Life cycle ops: the backend's, plus the close. */

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
	struct ism_pmd_dev *dev;
	struct rte_ism_dev *ism;

	RTE_ASSERT(priv_size >= sizeof(struct ism_pmd_dev));
	if (be->nb_xstats > ISM_BE_XSTATS_MAX) {
		ISM_PMD_LOG(ERR, "%s: backend %s has %u xstats (at most %d)",
			    name, be->name, be->nb_xstats, ISM_BE_XSTATS_MAX);
		rte_errno = EINVAL;
		return NULL;
	}
	ism = rte_ism_pmd_allocate(name, socket_id, priv_size);
	if (ism == NULL)
		return NULL;	/* logged by the library, rte_errno set */
	dev = ism->dev_private;
	dev->ism = ism;
	dev->be = be;
	dev->ops = *be->ops;
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
	ism->fp.dev_private = dev;
	return dev;
}

int
ism_pmd_finish(struct ism_pmd_dev *dev)
{
	struct rte_ism_dev *ism = dev->ism;
	int ret;

	ret = rte_ism_pmd_probing_finish(ism);
	if (ret < 0)
		return ret;
	/* Optional: without it the device works through rte_ism_*. */
	ism_rawdev_create(ism->dev_id, ism->device, ism->driver_name);
	return 0;
}

void
ism_pmd_destroy(struct ism_pmd_dev *dev)
{
	struct rte_ism_dev *ism = dev->ism;

	ism_rawdev_destroy(ism->name);
	/* A probe that failed before the device became visible: the
	 * library does not close it, its backend is freed here.
	 */
	if (!ism->attached && !ism->closed)
		backend_close(dev);
	/* Closes a visible device (removal callbacks, stop, then
	 * backend_close), then frees dev itself (the private area).
	 */
	rte_ism_pmd_release(ism);
}

/* What a secondary process may call: the counters, which are in the
 * private area (shared memory); everything else is the primary's.
 */
static const struct rte_ism_dev_ops pmd_secondary_ops = {
	.stats_get = ism_pmd_stats_get,
};

int
ism_pmd_attach_secondary(const char *name, struct rte_device *device)
{
	struct rte_ism_dev *ism;
	int ret;

	ism = rte_ism_pmd_attach_secondary(name);
	if (ism == NULL)
		return -rte_errno;
	ism->dev_ops = &pmd_secondary_ops;
	ism->device = device;
	ret = rte_ism_pmd_probing_finish(ism);
	if (ret < 0) {
		rte_ism_pmd_release(ism);
		return ret;
	}
	ism_rawdev_create(ism->dev_id, device, ism->driver_name);
	ISM_PMD_LOG(INFO, "%s: ISM device %u of the primary process, "
		    "attached (read-only)", name, ism->dev_id);
	return 0;
}

int
ism_pmd_remove(const char *name)
{
	struct rte_ism_dev *ism = rte_ism_pmd_get_named_dev(name);

	if (ism == NULL)
		return -ENODEV;
	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ism_rawdev_destroy(name);
		return rte_ism_pmd_release(ism);
	}
	ism_pmd_destroy(ism->dev_private);
	return 0;
}

int
ism_pmd_vdev_remove(struct rte_vdev_device *vdev)
{
	return ism_pmd_remove(rte_vdev_device_name(vdev));
}
