/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Counters of a device: rte_ism_stats and the xstats (one per field of
 * rte_ism_stats, then the driver's own). The driver's counters only grow
 * (per-lcore sums, written without atomics by their lcores), so a reset
 * never writes them: the library keeps, per counter, its value at the last
 * reset and reports the difference, as DPDK's ntb rawdev does. The
 * driver's own xstats are reset by the driver (xstats_reset op).
 */

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include <rte_string_fns.h>

#include <ism_compat.h>

#include <eal_export.h>

#include "ism_private.h"

/* At most this many xstats of a driver (names fit on the stack). */
#define ISM_XS_MAX_DRIVER 64

#define XS(field) { #field, offsetof(struct rte_ism_stats, field) }
static const struct {
	const char *name;
	size_t off;
} xs_common[] = {
	XS(moves),
	XS(bytes),
	XS(signals),
	XS(errors),
	XS(events),
	XS(events_dropped),
	XS(errors_unknown_token),
	XS(errors_not_writer),
	XS(errors_out_of_range),
	XS(errors_bad_argument),
	XS(errors_device),
	XS(errors_no_device),
};
#undef XS

_Static_assert(RTE_DIM(xs_common) == ISM_XS_NB_COMMON,
	"one common xstat per field of struct rte_ism_stats");

/* Serialises the reset bases against readers (never held in a driver op
 * that could block on a peer).
 */
static pthread_mutex_t ism_stats_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t *
field(struct rte_ism_stats *st, unsigned int i)
{
	return (uint64_t *)((char *)st + xs_common[i].off);
}

int
ism_stats_probe(struct rte_ism_dev *dev)
{
	struct rte_ism_xstats_name names[ISM_XS_MAX_DRIVER];
	unsigned int i, k;
	int n = 0;

	if (dev->dev_ops->xstats_names_get != NULL)
		n = dev->dev_ops->xstats_names_get(dev, NULL, 0);
	if (n < 0 || n > ISM_XS_MAX_DRIVER ||
	    (n > 0 && dev->dev_ops->xstats_names_get(dev, names, n) != n)) {
		ISM_LOG(ERR, "%s: driver xstats: %d names (0..%d)", dev->name,
			n, ISM_XS_MAX_DRIVER);
		return -EINVAL;
	}
	for (i = 0; i < (unsigned int)n; i++)
		for (k = 0; k < ISM_XS_NB_COMMON; k++)
			if (strcmp(names[i].name, xs_common[k].name) == 0) {
				ISM_LOG(ERR, "%s: driver xstat %s is a library "
					"one", dev->name, names[i].name);
				return -EINVAL;
			}
	dev->nb_drv_xstats = n;
	return 0;
}

/* The counters as they run (no base subtracted). */
static int
stats_raw(struct rte_ism_dev *dev, struct rte_ism_stats *st)
{
	int ret = 0;

	memset(st, 0, sizeof(*st));
	if (dev->dev_ops->stats_get != NULL)
		ret = dev->dev_ops->stats_get(dev, st);
	if (ret < 0) {
		ISM_LOG(ERR, "%s: driver counters: %s", dev->name,
			strerror(-ret));
		return ret;
	}
	st->errors_no_device = rte_atomic_load_explicit(
			&dev->data->no_device, rte_memory_order_relaxed);
	st->errors = st->errors_unknown_token + st->errors_not_writer +
		st->errors_out_of_range + st->errors_bad_argument +
		st->errors_device + st->errors_no_device;
	ism_evq_counters(dev->evq, &st->events, &st->events_dropped);
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_stats_get, 26.03)
int
rte_ism_stats_get(uint16_t dev_id, struct rte_ism_stats *stats)
{
	struct rte_ism_dev *dev;
	struct rte_ism_stats st;
	unsigned int i;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (stats == NULL) {
		ISM_LOG(ERR, "%s: NULL stats", dev->name);
		return -EINVAL;
	}
	pthread_mutex_lock(&ism_stats_lock);
	ret = stats_raw(dev, &st);
	for (i = 0; ret == 0 && i < ISM_XS_NB_COMMON; i++)
		*field(&st, i) -= dev->data->base[i];
	pthread_mutex_unlock(&ism_stats_lock);
	if (ret == 0)
		*stats = st;
	return ret;
}

/* Rebase the common counters of mask; then the driver's hook if all. */
static int
common_reset(struct rte_ism_dev *dev, uint64_t mask)
{
	struct rte_ism_stats st;
	unsigned int i;
	int ret;

	pthread_mutex_lock(&ism_stats_lock);
	ret = stats_raw(dev, &st);
	for (i = 0; ret == 0 && i < ISM_XS_NB_COMMON; i++)
		if (mask & RTE_BIT64(i))
			dev->data->base[i] = *field(&st, i);
	pthread_mutex_unlock(&ism_stats_lock);
	if (ret == 0 && mask == RTE_BIT64(ISM_XS_NB_COMMON) - 1 &&
	    dev->dev_ops->stats_reset != NULL)
		ret = dev->dev_ops->stats_reset(dev);
	return ret;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_stats_reset, 26.03)
int
rte_ism_stats_reset(uint16_t dev_id)
{
	struct rte_ism_dev *dev;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	/* The bases are the primary's: a second writer would race it. */
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	return common_reset(dev, RTE_BIT64(ISM_XS_NB_COMMON) - 1);
}

static unsigned int
nb_xstats(const struct rte_ism_dev *dev)
{
	return ISM_XS_NB_COMMON + dev->nb_drv_xstats;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_xstats_names_get, 26.03)
int
rte_ism_xstats_names_get(uint16_t dev_id, struct rte_ism_xstats_name *names,
		unsigned int size)
{
	struct rte_ism_dev *dev;
	unsigned int i, n;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	n = nb_xstats(dev);
	if (names == NULL || size < n)
		return n;
	for (i = 0; i < ISM_XS_NB_COMMON; i++)
		rte_strlcpy(names[i].name, xs_common[i].name,
			    sizeof(names[i].name));
	if (n > ISM_XS_NB_COMMON) {
		ret = dev->dev_ops->xstats_names_get(dev,
				names + ISM_XS_NB_COMMON, n - ISM_XS_NB_COMMON);
		if (ret != (int)(n - ISM_XS_NB_COMMON)) {
			ISM_LOG(ERR, "%s: driver xstat names: %d", dev->name,
				ret);
			return ret < 0 ? ret : -EIO;
		}
	}
	return n;
}

/* Check ids[0..n-1]; -EINVAL with a log line for the first bad one. */
static int
check_ids(struct rte_ism_dev *dev, const unsigned int ids[], unsigned int n,
		const char *caller)
{
	unsigned int i, total = nb_xstats(dev);

	for (i = 0; i < n; i++)
		if (ids[i] >= total) {
			RTE_LOG_LINE(ERR, ISM, "%s(): %s: no xstat with id %u (%u xstats)",
				caller, dev->name, ids[i], total);
			return -EINVAL;
		}
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_xstats_get, 26.03)
int
rte_ism_xstats_get(uint16_t dev_id, const unsigned int ids[],
		uint64_t values[], unsigned int n)
{
	struct rte_ism_dev *dev;
	struct rte_ism_stats st;
	unsigned int i, d;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (n > 0 && (ids == NULL || values == NULL)) {
		ISM_LOG(ERR, "%s: NULL %s", dev->name,
			ids == NULL ? "ids" : "values");
		return -EINVAL;
	}
	ret = check_ids(dev, ids, n, __func__);
	if (ret < 0)
		return ret;
	ret = rte_ism_stats_get(dev_id, &st);
	for (i = 0; ret == 0 && i < n; i++) {
		if (ids[i] < ISM_XS_NB_COMMON) {
			values[i] = *field(&st, ids[i]);
			continue;
		}
		d = ids[i] - ISM_XS_NB_COMMON;
		ret = dev->dev_ops->xstats_get(dev, &d, &values[i], 1);
		ret = ret == 1 ? 0 : (ret < 0 ? ret : -EIO);
	}
	if (ret < 0) {
		ISM_LOG(ERR, "%s: cannot read xstats: %s", dev->name,
			strerror(-ret));
		return ret;
	}
	return n;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_xstats_get_by_name, 26.03)
int
rte_ism_xstats_get_by_name(uint16_t dev_id, const char *name,
		unsigned int *id, uint64_t *value)
{
	struct rte_ism_xstats_name names[ISM_XS_NB_COMMON + ISM_XS_MAX_DRIVER];
	struct rte_ism_dev *dev;
	unsigned int i;
	int n, ret;

	if (id != NULL)
		*id = UINT_MAX;
	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (name == NULL || value == NULL) {
		ISM_LOG(ERR, "%s: NULL %s", dev->name,
			name == NULL ? "name" : "value");
		return -EINVAL;
	}
	n = rte_ism_xstats_names_get(dev_id, names, RTE_DIM(names));
	if (n < 0)
		return n;
	for (i = 0; i < (unsigned int)n; i++)
		if (strcmp(names[i].name, name) == 0)
			break;
	if (i == (unsigned int)n) {
		ISM_LOG(ERR, "%s: no xstat named \"%s\"", dev->name, name);
		return -EINVAL;
	}
	ret = rte_ism_xstats_get(dev_id, &i, value, 1);
	if (ret < 0)
		return ret;
	if (id != NULL)
		*id = i;
	return 0;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_xstats_reset, 26.03)
int
rte_ism_xstats_reset(uint16_t dev_id, const unsigned int ids[],
		unsigned int n)
{
	unsigned int drv[ISM_XS_MAX_DRIVER], nb_drv = 0, i, d;
	uint64_t common = 0, drv_mask = 0;
	struct rte_ism_dev *dev;
	int ret;

	dev = ism_dev_get(dev_id, __func__);
	if (dev == NULL)
		return -ENODEV;
	if (!ism_is_primary())
		return ism_primary_only(dev, __func__);
	if (ids == NULL) {
		common = RTE_BIT64(ISM_XS_NB_COMMON) - 1;
		if (dev->nb_drv_xstats > 0 &&
		    dev->dev_ops->xstats_reset != NULL) {
			ret = dev->dev_ops->xstats_reset(dev, NULL, 0);
			if (ret < 0)
				goto drv_fail;
		}
		return common_reset(dev, common);
	}
	ret = check_ids(dev, ids, n, __func__);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++) {
		if (ids[i] < ISM_XS_NB_COMMON) {
			common |= RTE_BIT64(ids[i]);
			continue;
		}
		d = ids[i] - ISM_XS_NB_COMMON;
		if (!(drv_mask & RTE_BIT64(d))) {
			drv_mask |= RTE_BIT64(d);
			drv[nb_drv++] = d;
		}
	}
	/* The driver's first: it may refuse (a level), and then nothing is
	 * reset.
	 */
	if (nb_drv > 0) {
		if (dev->dev_ops->xstats_reset == NULL) {
			ISM_LOG(ERR, "%s: the driver's xstats cannot be reset",
				dev->name);
			return -ENOTSUP;
		}
		ret = dev->dev_ops->xstats_reset(dev, drv, nb_drv);
		if (ret < 0)
			goto drv_fail;
	}
	return common == 0 ? 0 : common_reset(dev, common);
drv_fail:
	ISM_LOG(ERR, "%s: cannot reset the driver's xstats: %s", dev->name,
		strerror(-ret));
	return ret;
}
