/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* The rawdev management plane of an ISM device. */

#include <ctype.h>
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
	TEST_RET(rte_rawdev_configure(raw, &ri, sizeof(info)), -EBUSY);
	rte_rawdev_stop(raw);
	TEST_RET(rte_rawdev_configure(raw, &ri, sizeof(info)), 0);
	TEST_RET(rte_rawdev_start(raw), 0);
	TEST_ASSERT(rte_ism_info_get(fx.a, &info) == 0 && info.started,
		    "not started again");
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

/* The selftest fits its DMB into a device with small DMBs. */
static int
test_selftest_small_dmbs(void)
{
	char name[RTE_ISM_NAME_LEN];
	int c, raw, ret;

	c = fx_spawn("max_dmb_len=1024", name, sizeof(name));
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	raw = fx_rawdev_id(name);
	ret = raw < 0 ? raw : rte_rawdev_selftest(raw);
	TEST_RET(fx_unspawn(name), 0);
	TEST_RET(ret, 0);
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
	{ "xstats", test_xstats },
	{ "selftest", test_selftest },
	{ "selftest_small_dmbs", test_selftest_small_dmbs },
	{ "dump", test_dump },
	{ NULL, NULL },
};

const struct test_suite suite_rawdev = { "rawdev", rawdev_cases, 1 };
