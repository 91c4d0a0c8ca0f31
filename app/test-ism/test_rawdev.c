/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rawdev of an ISM device: same id and name as the ISM device, the
 * conventions of rte_rawdev.h (what a generic rawdev client expects), and
 * every op forwarded to the ISM device.
 */

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>

#include <rte_rawdev.h>

#include "test_ism.h"

static int
raw_of_a(void)
{
	return fx_rawdev_id(fx.ia.name);
}

static int
test_info(void)
{
	struct rte_ism_dev_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };
	int raw = raw_of_a();

	TEST_ASSERT(raw >= 0, "no rawdev named %s", fx.ia.name);
	TEST_RET(rte_rawdev_info_get(raw, &ri, sizeof(info)), 0);
	TEST_ASSERT(strcmp(info.name, fx.ia.name) == 0 &&
		    rte_ism_gid_equal(&info.gid, &fx.ia.gid), "info");
	TEST_ASSERT(ri.driver_name != NULL &&
		    strcmp(ri.driver_name, fx.ia.driver_name) == 0, "driver");
	TEST_RET(rte_rawdev_info_get(raw, &ri, sizeof(info) - 1), -EINVAL);
	/* rawdev configures stopped devices only; ours need no config. */
	rte_rawdev_stop(raw);
	TEST_RET(rte_rawdev_configure(raw, &ri, sizeof(info)), 0);
	TEST_RET(rte_rawdev_start(raw), 0);
	TEST_ASSERT(rte_ism_info_get(fx.a, &info) == 0 && info.started,
		    "not started again");
	TEST_RET(rte_rawdev_configure(raw, &ri, sizeof(info)), -EBUSY);
	return TEST_SUCCESS;
}

/* One device, one id: the rawdev of every ISM device has its id. */
static int
test_same_id(void)
{
	struct rte_ism_dev_info info;
	uint16_t id;

	RTE_ISM_FOREACH_DEV(id) {
		TEST_RET(rte_ism_info_get(id, &info), 0);
		TEST_RET(fx_rawdev_id(info.name), id);
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

/*
 * A generic rawdev client (issue 13's conventions): nothing but rte_rawdev
 * calls, in the order rte_rawdev.h and the skeleton rawdev expect, on a
 * freshly probed device. Then the same device seen through rte_ism_*.
 */
static int
test_generic_client(void)
{
	struct rte_rawdev_info ri = { .dev_private = NULL };
	char name[RTE_ISM_NAME_LEN];
	unsigned int id_moves, id_bytes, ids[2];
	uint64_t v[2];
	int c, raw, n;

	c = fx_spawn(NULL, name, sizeof(name));
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	raw = fx_rawdev_id(name);
	TEST_RET(raw, c);
	/* Probed: configurable (not started), then started. */
	TEST_RET(rte_rawdev_configure(raw, &ri, 0), 0);
	TEST_RET(rte_rawdev_start(raw), 0);
	TEST_RET(rte_rawdev_queue_count(raw), 0);
	/* The selftest moves data: counters to look at. */
	TEST_RET(rte_rawdev_selftest(raw), 0);
	n = rte_rawdev_xstats_names_get(raw, NULL, 0);
	TEST_ASSERT(n > 2, "%d xstats", n);
	TEST_ASSERT(raw_xstat(raw, "moves") == 1, "moves %" PRIu64,
		    raw_xstat(raw, "moves"));
	TEST_ASSERT(raw_xstat(raw, "bytes") > 0, "no bytes");
	/* rte_rawdev.h: an unknown name is -EINVAL, with id (unsigned)-1. */
	ids[0] = 0;
	TEST_ASSERT(rte_rawdev_xstats_by_name_get(raw, "no_such_xstat",
						  &ids[0]) ==
		    (uint64_t)-EINVAL && ids[0] == UINT_MAX,
		    "unknown xstat name: id %u", ids[0]);
	/* A reset of one id resets that counter only. */
	rte_rawdev_xstats_by_name_get(raw, "moves", &id_moves);
	rte_rawdev_xstats_by_name_get(raw, "bytes", &id_bytes);
	TEST_RET(rte_rawdev_xstats_reset(raw, &id_moves, 1), 0);
	ids[0] = id_moves;
	ids[1] = id_bytes;
	TEST_RET(rte_rawdev_xstats_get(raw, ids, v, 2), 2);
	TEST_ASSERT(v[0] == 0 && v[1] > 0, "after a reset of moves: moves %"
		    PRIu64 " bytes %" PRIu64, v[0], v[1]);
	ids[0] = n;
	TEST_RET(rte_rawdev_xstats_reset(raw, ids, 1), -EINVAL);
	rte_rawdev_stop(raw);
	TEST_RET(rte_rawdev_close(raw), 0);

	/* Closed: gone for both APIs; the id is taken until removal. */
	TEST_ASSERT(!rte_ism_is_valid_dev(c), "ISM device %d still valid", c);
	TEST_RET(rte_ism_get_dev_id(name), -ENODEV);
	ri.dev_private = NULL;
	TEST_RET(rte_rawdev_configure(raw, &ri, 0), -ENODEV);
	TEST_RET(rte_rawdev_start(raw), -ENODEV);
	TEST_RET(rte_rawdev_selftest(raw), -ENODEV);
	TEST_RET(rte_rawdev_close(raw), -ENODEV);
	TEST_RET(fx_rawdev_id(name), c);
	TEST_RET(fx_unspawn(name), 0);
	TEST_RET(fx_rawdev_id(name), -ENODEV);
	return TEST_SUCCESS;
}

static int
test_xstats(void)
{
	struct rte_rawdev_xstats_name *names;
	struct rte_ism_dmb d;
	unsigned int *ids, i, id_moves = UINT32_MAX;
	uint64_t *v0, *v1;
	char b[10] = { 0 };
	const char *p;
	int raw = fx_rawdev_id(fx.ib.name), n, ret = TEST_FAILED;

	n = rte_rawdev_xstats_names_get(raw, NULL, 0);
	TEST_ASSERT(n > 0, "no xstats (%d)", n);
	names = calloc(n, sizeof(*names));
	ids = calloc(n, sizeof(*ids));
	v0 = calloc(n, sizeof(*v0));
	v1 = calloc(n, sizeof(*v1));
	if (!names || !ids || !v0 || !v1)
		goto out;
	if (rte_rawdev_xstats_names_get(raw, names, n) != n)
		goto out;
	for (i = 0; i < (unsigned int)n; i++) {
		ids[i] = i;
		/* Telemetry drops names with other characters. */
		for (p = names[i].name; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '_') {
				printf("    FAIL: xstat name \"%s\"\n",
				       names[i].name);
				goto out;
			}
		if (strcmp(names[i].name, "moves") == 0)
			id_moves = i;
	}
	if (id_moves == UINT32_MAX || fx_register(fx.a, 64, &fx.ib.gid, &d))
		goto out;
	rte_rawdev_xstats_get(raw, ids, v0, n);
	rte_ism_move_data(fx.b, d.token, 0, 0, 0, b, 10);
	rte_ism_move_data(fx.b, d.token, 0, 0, 60, b, 10);	/* -ERANGE */
	rte_rawdev_xstats_get(raw, ids, v1, n);
	rte_ism_dmb_unregister(fx.a, d.token);
	if (v1[id_moves] - v0[id_moves] != 1 ||
	    rte_rawdev_xstats_by_name_get(raw, "errors_out_of_range", NULL) ==
	    0) {
		printf("    FAIL: xstats did not count\n");
		goto out;
	}
	if (rte_rawdev_xstats_reset(raw, NULL, 0) != 0 ||
	    rte_rawdev_xstats_by_name_get(raw, "moves", NULL) != 0) {
		printf("    FAIL: xstats reset\n");
		goto out;
	}
	/* A level (shm: peers, A at least) is no count: never reset. */
	if (raw_xstat(raw, "peers") == 0) {
		printf("    FAIL: the peers level was reset\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	free(names);
	free(ids);
	free(v0);
	free(v1);
	return ret;
}

static int
test_selftest(void)
{
	uint16_t id;

	RTE_ISM_FOREACH_DEV(id) {
		struct rte_ism_dev_info info;
		int raw;

		rte_ism_info_get(id, &info);
		raw = fx_rawdev_id(info.name);
		TEST_ASSERT(raw >= 0, "no rawdev for %s", info.name);
		TEST_RET(rte_rawdev_selftest(raw), 0);
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
		TEST_ASSERT(c >= 0, "spawn with %s: %d", args[i], c);
		raw = fx_rawdev_id(name);
		ret = raw < 0 ? raw : rte_rawdev_selftest(raw);
		TEST_RET(fx_unspawn(name), 0);
		TEST_ASSERT(ret == 0, "selftest with %s: %d", args[i], ret);
	}
	return TEST_SUCCESS;
}

static int
test_dump(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	TEST_ASSERT(f != NULL, "open_memstream");
	ret = rte_rawdev_dump(raw_of_a(), f);
	fclose(f);
	TEST_ASSERT(ret == 0 && buf && strstr(buf, fx.ia.name), "dump %d", ret);
	free(buf);
	return TEST_SUCCESS;
}

static const struct test_case rawdev_cases[] = {
	{ "info", test_info },
	{ "same_id", test_same_id },
	{ "generic_client", test_generic_client },
	{ "xstats", test_xstats },
	{ "selftest", test_selftest },
	{ "selftest_small_dmbs", test_selftest_small_dmbs },
	{ "dump", test_dump },
	{ NULL, NULL },
};

const struct test_suite suite_rawdev = { "rawdev", rawdev_cases, 1 };
