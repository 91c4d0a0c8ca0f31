/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rawdev adapter of an ISM device: a rawdev of the same name (its id
 * is the rawdev library's), the conventions of rte_rawdev.h (what a
 * generic rawdev client expects), every op forwarded to the ISM device,
 * and an ISM device that works without one. The one place of the tests
 * that uses rte_rawdev_*: everything else reads ISM devices through
 * rte_ism_*.
 */

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include <rte_bus_vdev.h>
#include <rte_rawdev.h>
#include <rte_rawdev_pmd.h>

#include "test_ism.h"

/* The rawdev id of a device name, or -ENODEV (rte_rawdev_get_dev_id()
 * returns an unsigned id, so -ENODEV comes back as 65517).
 */
static int
rawdev_id(const char *name)
{
	uint16_t id = rte_rawdev_get_dev_id(name);

	return id < RTE_RAWDEV_MAX_DEVS ? id : -ENODEV;
}

static int
raw_of_a(void)
{
	return rawdev_id(fx.ia.name);
}

/* rte_rawdev configure and start, A stopped first. */
static int
reconfigure(int raw)
{
	struct rte_ism_dev_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };

	/* rawdev configures stopped devices only; ours need no config. */
	rte_rawdev_stop(raw);
	TEST_ASSERT_SUCCESS(rte_rawdev_configure(raw, &ri, sizeof(info)),
			    "configure a stopped device");
	TEST_ASSERT_SUCCESS(rte_rawdev_start(raw), "rawdev_start");
	TEST_ASSERT(rte_ism_info_get(fx.a, &info) == 0 && info.started,
		    "not started again");
	TEST_ASSERT_EQUAL(rte_rawdev_configure(raw, &ri, sizeof(info)), -EBUSY,
			  "configure a started device");
	return TEST_SUCCESS;
}

static int
test_info(void)
{
	struct rte_ism_dev_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };
	int raw = raw_of_a(), ret;

	TEST_ASSERT(raw >= 0, "no rawdev named %s", fx.ia.name);
	TEST_ASSERT_SUCCESS(rte_rawdev_info_get(raw, &ri, sizeof(info)),
			    "rawdev_info_get");
	TEST_ASSERT(strcmp(info.name, fx.ia.name) == 0 &&
		    rte_ism_gid_equal(&info.gid, &fx.ia.gid),
		    "info of %s, expected %s", info.name, fx.ia.name);
	TEST_ASSERT(ri.driver_name != NULL &&
		    strcmp(ri.driver_name, fx.ia.driver_name) == 0,
		    "driver %s, expected %s", ri.driver_name ? ri.driver_name :
		    "(none)", fx.ia.driver_name);
	TEST_ASSERT_EQUAL(rte_rawdev_info_get(raw, &ri, sizeof(info) - 1),
			  -EINVAL, "a short private size");
	ret = reconfigure(raw);
	if (ret != TEST_SUCCESS)
		rte_rawdev_start(raw);	/* A started for the next tests */
	return ret;
}

/* Every ISM device has a rawdev of its name, which stands for it. */
static int
test_named(void)
{
	struct rte_ism_dev_info info, ri_info;
	struct rte_rawdev_info ri = { .dev_private = &ri_info };
	uint16_t id;
	int raw;

	RTE_ISM_FOREACH_DEV(id) {
		TEST_ASSERT_SUCCESS(rte_ism_info_get(id, &info), "id %u", id);
		raw = rawdev_id(info.name);
		TEST_ASSERT(raw >= 0, "no rawdev %s", info.name);
		TEST_ASSERT_SUCCESS(rte_rawdev_info_get(raw, &ri,
							sizeof(ri_info)),
				    "rawdev_info_get of %s", info.name);
		TEST_ASSERT(ri_info.serial == info.serial,
			    "rawdev %s stands for serial %" PRIu64 ", not %"
			    PRIu64, info.name, ri_info.serial, info.serial);
	}
	return TEST_SUCCESS;
}

/* The value of xstat name of rawdev raw, or UINT64_MAX. */
static uint64_t
raw_xstat(uint16_t raw, const char *name)
{
	unsigned int id;
	uint64_t v = rte_rawdev_xstats_by_name_get(raw, name, &id);

	return id == UINT_MAX ? UINT64_MAX : v;
}

/* test_generic_client() on c, a spawned device named name. */
static int
generic_client(int c, const char *name)
{
	struct rte_rawdev_info ri = { .dev_private = NULL };
	unsigned int id_moves, id_bytes, ids[2];
	uint64_t v[2];
	int raw, n;

	raw = rawdev_id(name);
	TEST_ASSERT(raw >= 0, "no rawdev %s", name);
	/* Probed: configurable (not started), then started. */
	TEST_ASSERT_SUCCESS(rte_rawdev_configure(raw, &ri, 0), "probed");
	TEST_ASSERT_SUCCESS(rte_rawdev_start(raw), "rawdev_start");
	TEST_ASSERT_EQUAL(rte_rawdev_queue_count(raw), 0, "queues");
	/* The selftest moves data: counters to look at. */
	TEST_ASSERT_SUCCESS(rte_rawdev_selftest(raw), "rawdev_selftest");
	n = rte_rawdev_xstats_names_get(raw, NULL, 0);
	TEST_ASSERT(n > 2, "%d xstats, expected more than 2", n);
	TEST_ASSERT_EQUAL(raw_xstat(raw, "moves"), 1, "after the selftest");
	TEST_ASSERT(raw_xstat(raw, "bytes") > 0, "no bytes");
	/* rte_rawdev.h: an unknown name is -EINVAL, with id (unsigned)-1. */
	ids[0] = 0;
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_by_name_get(raw, "no_such_xstat",
							&ids[0]), -EINVAL,
			  "unknown xstat name");
	TEST_ASSERT_EQUAL(ids[0], UINT_MAX, "id of an unknown xstat name");
	/* A reset of one id resets that counter only. */
	rte_rawdev_xstats_by_name_get(raw, "moves", &id_moves);
	rte_rawdev_xstats_by_name_get(raw, "bytes", &id_bytes);
	TEST_ASSERT_SUCCESS(rte_rawdev_xstats_reset(raw, &id_moves, 1),
			    "reset of moves");
	ids[0] = id_moves;
	ids[1] = id_bytes;
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_get(raw, ids, v, 2), 2,
			  "moves and bytes");
	TEST_ASSERT(v[0] == 0 && v[1] > 0, "after a reset of moves: moves %"
		    PRIu64 " bytes %" PRIu64 ", expected 0 and some", v[0],
		    v[1]);
	ids[0] = n;
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_reset(raw, ids, 1), -EINVAL,
			  "reset of id %u", ids[0]);
	rte_rawdev_stop(raw);
	TEST_ASSERT_SUCCESS(rte_rawdev_close(raw), "rawdev_close");

	/* Closed: gone for both APIs; the id is taken until removal. */
	TEST_ASSERT(!rte_ism_is_valid_dev(c), "ISM device %d still valid", c);
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id(name), -ENODEV, "closed");
	ri.dev_private = NULL;
	TEST_ASSERT_EQUAL(rte_rawdev_configure(raw, &ri, 0), -ENODEV,
			  "closed");
	TEST_ASSERT_EQUAL(rte_rawdev_start(raw), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_rawdev_selftest(raw), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_rawdev_close(raw), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rawdev_id(name), raw, "closed, not removed");
	return TEST_SUCCESS;
}

/*
 * A generic rawdev client: nothing but rte_rawdev
 * calls, in the order rte_rawdev.h and the skeleton rawdev expect, on a
 * freshly probed device. Then the same device seen through rte_ism_*.
 */
static int
test_generic_client(void)
{
	char name[RTE_ISM_NAME_LEN];
	int c, ret, removed;

	c = fx_spawn(NULL, name, sizeof(name));
	if (FX_SPAWN_SKIPPED(c))
		return TEST_SKIPPED;
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	ret = generic_client(c, name);
	removed = fx_unspawn(name);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(removed, "remove %s", name);
	TEST_ASSERT_EQUAL(rawdev_id(name), -ENODEV, "removed");
	return TEST_SUCCESS;
}

/* The arrays of test_xstats(), n entries each. */
struct xstats_arrays {
	struct rte_rawdev_xstats_name *names;
	unsigned int *ids;
	uint64_t *v0, *v1;
};

/* test_xstats() on the n xstats of B's rawdev raw, into x. */
static int
rawdev_xstats(int raw, unsigned int n, struct xstats_arrays *x)
{
	unsigned int i, id_moves = UINT32_MAX;
	struct rte_ism_dmb d;
	char b[10] = { 0 };
	const char *p;

	TEST_ASSERT(x->names && x->ids && x->v0 && x->v1, "no memory");
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_names_get(raw, x->names, n), n,
			  "names filled");
	for (i = 0; i < n; i++) {
		x->ids[i] = i;
		/* Telemetry drops names with other characters. */
		for (p = x->names[i].name; *p; p++)
			TEST_ASSERT(isalnum((unsigned char)*p) || *p == '_',
				    "xstat name \"%s\"", x->names[i].name);
		if (strcmp(x->names[i].name, "moves") == 0)
			id_moves = i;
	}
	TEST_ASSERT(id_moves != UINT32_MAX, "no xstat moves");
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	rte_rawdev_xstats_get(raw, x->ids, x->v0, n);
	rte_ism_move_data(fx.b, d.token, 0, 0, 0, b, 10);
	/* -ERANGE before any store block: counted on every platform. */
	rte_ism_move_data(fx.b, d.token, 0, 0, UINT32_MAX, b, 2);
	rte_rawdev_xstats_get(raw, x->ids, x->v1, n);
	rte_ism_dmb_unregister(fx.a, d.token);
	TEST_ASSERT_EQUAL(x->v1[id_moves] - x->v0[id_moves], 1,
			  "moves counted");
	TEST_ASSERT_NOT_EQUAL(rte_rawdev_xstats_by_name_get(raw,
				"errors_out_of_range", NULL), 0,
			      "errors_out_of_range not counted");
	TEST_ASSERT_SUCCESS(rte_rawdev_xstats_reset(raw, NULL, 0),
			    "xstats_reset");
	TEST_ASSERT_EQUAL(rte_rawdev_xstats_by_name_get(raw, "moves", NULL), 0,
			  "moves after a reset");
	/* A level (shm: peers, A at least) is no count: never reset. */
	TEST_ASSERT_NOT_EQUAL(raw_xstat(raw, "peers"), 0,
			      "the peers level was reset");
	return TEST_SUCCESS;
}

static int
test_xstats(void)
{
	struct xstats_arrays x;
	int raw = rawdev_id(fx.ib.name), n, ret;

	n = rte_rawdev_xstats_names_get(raw, NULL, 0);
	TEST_ASSERT(n > 0, "no xstats (%d)", n);
	x.names = calloc(n, sizeof(*x.names));
	x.ids = calloc(n, sizeof(*x.ids));
	x.v0 = calloc(n, sizeof(*x.v0));
	x.v1 = calloc(n, sizeof(*x.v1));
	ret = rawdev_xstats(raw, n, &x);
	free(x.names);
	free(x.ids);
	free(x.v0);
	free(x.v1);
	return ret;
}

/*
 * The PMD's selftest on every device. It checks that a move past the end
 * of a DMB is refused, which behind plain vfio-pci (--stores-posted) only
 * the device knows: skipped there.
 */
static int
test_selftest(void)
{
	uint16_t id;

	if (fx.stores_posted)
		return TEST_SKIPPED;
	RTE_ISM_FOREACH_DEV(id) {
		struct rte_ism_dev_info info;
		int raw;

		rte_ism_info_get(id, &info);
		raw = rawdev_id(info.name);
		TEST_ASSERT(raw >= 0, "no rawdev for %s", info.name);
		TEST_ASSERT_SUCCESS(rte_rawdev_selftest(raw), "selftest of %s",
				    info.name);
	}
	return TEST_SUCCESS;
}

/* The selftest fits every valid device: small DMBs, a single one. */
static int
test_selftest_small_dmbs(void)
{
	static const char *const args[] = {
		"max_dmb_len=1024", "max_dmb_len=64", "max_dmb_len=1",
		"max_dmb_len=1,max_dmbs=1", "max_dmbs=1",
	};
	char name[RTE_ISM_NAME_LEN];
	unsigned int i;
	int c, raw, ret;

	for (i = 0; i < RTE_DIM(args); i++) {
		c = fx_spawn(args[i], name, sizeof(name));
		if (FX_SPAWN_SKIPPED(c))
			return TEST_SKIPPED;
		TEST_ASSERT(c >= 0, "spawn with %s: %d", args[i], c);
		raw = rawdev_id(name);
		ret = raw < 0 ? raw : rte_rawdev_selftest(raw);
		TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove %s", name);
		TEST_ASSERT_SUCCESS(ret, "selftest with %s", args[i]);
	}
	return TEST_SUCCESS;
}

static int
test_dump(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	bool named;
	int ret;

	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	ret = rte_rawdev_dump(raw_of_a(), f);
	fclose(f);
	named = buf != NULL && strstr(buf, fx.ia.name) != NULL;
	free(buf);
	TEST_ASSERT_SUCCESS(ret, "rawdev_dump");
	TEST_ASSERT(named, "the dump does not name %s", fx.ia.name);
	return TEST_SUCCESS;
}

/* rawdev stop and start drive the ISM device's state: the fast path is
 * off, then on again.
 */
static int
test_fp_state(void)
{
	struct rte_ism_dev_info info;
	struct rte_ism_signal sig[1];
	int raw = raw_of_a();

	TEST_ASSERT(raw >= 0, "no rawdev %s", fx.ia.name);
	rte_rawdev_stop(raw);
	TEST_ASSERT(rte_ism_info_get(fx.a, &info) == 0 && !info.started,
		    "started after rte_rawdev_stop");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, sig, 1), -ENODEV,
			  "the fast path after rte_rawdev_stop");
	TEST_ASSERT_SUCCESS(rte_rawdev_start(raw), "rawdev start");
	TEST_ASSERT(rte_ism_info_get(fx.a, &info) == 0 && info.started,
		    "not started after rte_rawdev_start");
	TEST_ASSERT(rte_ism_signal_poll(fx.a, sig, 1) >= 0,
		    "the fast path after rte_rawdev_start");
	return TEST_SUCCESS;
}

/* A rawdev of no driver, to take a rawdev id. */
static int
filler_close(struct rte_rawdev *raw __rte_unused)
{
	return 0;
}

static const struct rte_rawdev_ops filler_ops = {
	.dev_close = filler_close,
};

/* What test_no_rawdev() takes, released on every path. */
struct raw_fillers {
	struct rte_rawdev *raw[RTE_RAWDEV_MAX_DEVS];
	unsigned int n;
};

/* test_no_rawdev() with the fillers in f. */
static int
no_rawdev(struct raw_fillers *f)
{
	char name[RTE_ISM_NAME_LEN], fname[32];
	struct rte_ism_stats st;
	int c, ret;

	while (rte_rawdev_count() < RTE_RAWDEV_MAX_DEVS) {
		snprintf(fname, sizeof(fname), "ism_test_filler%u", f->n);
		f->raw[f->n] = rte_rawdev_pmd_allocate(fname, 8,
				SOCKET_ID_ANY);
		TEST_ASSERT_NOT_NULL(f->raw[f->n], "rawdev %s", fname);
		f->raw[f->n++]->dev_ops = &filler_ops;
	}
	c = fx_spawn(NULL, name, sizeof(name));
	TEST_ASSERT(c >= 0, "no ISM device without a rawdev id: %d", c);
	ret = rawdev_id(name) < 0 && rte_ism_dev_selftest(c) == 0 &&
		rte_ism_stats_get(c, &st) == 0 && st.moves == 1 ?
		TEST_SUCCESS : TEST_FAILED;
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove %s", name);
	TEST_ASSERT_SUCCESS(ret, "%s: a rawdev, or not working", name);
	/* A rawdev id free again: the next device has its rawdev. */
	rte_rawdev_pmd_release(f->raw[--f->n]);
	c = fx_spawn(NULL, name, sizeof(name));
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	ret = rawdev_id(name);
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove %s", name);
	TEST_ASSERT(ret >= 0, "%s: no rawdev with an id free", name);
	return TEST_SUCCESS;
}

/* Every rawdev id taken (other rawdev drivers): an ISM device is probed
 * all the same and works through rte_ism_*, without a rawdev.
 */
static int
test_no_rawdev(void)
{
	struct raw_fillers *f;
	int ret;

	/* It creates devices, which a run on given devices does not. */
	if (fx.given)
		return TEST_SKIPPED;
	f = calloc(1, sizeof(*f));
	TEST_ASSERT_NOT_NULL(f, "no memory");
	ret = no_rawdev(f);
	while (f->n > 0)
		rte_rawdev_pmd_release(f->raw[--f->n]);
	free(f);
	return ret;
}

static const struct test_case rawdev_cases[] = {
	{ "info", test_info },
	{ "named", test_named },
	{ "fp_state", test_fp_state },
	{ "no_rawdev", test_no_rawdev },
	{ "generic_client", test_generic_client },
	{ "xstats", test_xstats },
	{ "selftest", test_selftest },
	{ "selftest_small_dmbs", test_selftest_small_dmbs },
	{ "dump", test_dump },
	{ NULL, NULL },
};

const struct test_suite suite_rawdev = { "rawdev", rawdev_cases, 1 };
