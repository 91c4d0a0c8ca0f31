/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Device discovery, argument checks of every call, GIDs, stats, dump,
 * reachability and VLANs. */

#include <stdlib.h>

#include "test_ism.h"

/* A device id below RTE_ISM_MAX_DEVS that no device uses. */
static uint16_t
unused_id(void)
{
	uint16_t id = RTE_ISM_MAX_DEVS;

	while (id-- > 0)
		if (!rte_ism_is_valid_dev(id))
			return id;
	return RTE_ISM_MAX_DEVS;
}

static int
test_info(void)
{
	struct rte_ism_dev_info info;
	uint16_t id, n = 0;

	TEST_ASSERT(rte_ism_dev_count() >= 2, "count %u", rte_ism_dev_count());
	RTE_ISM_FOREACH_DEV(id)
		n++;
	TEST_ASSERT(n == rte_ism_dev_count(), "FOREACH saw %u of %u", n,
		    rte_ism_dev_count());
	TEST_RET(rte_ism_get_dev_id(fx.ia.name), fx.a);
	TEST_RET(rte_ism_get_dev_id("no_such_device"), -ENODEV);
	TEST_RET(rte_ism_info_get(fx.a, &info), 0);
	TEST_ASSERT(strcmp(info.name, fx.ia.name) == 0, "name %s", info.name);
	TEST_ASSERT(info.driver_name != NULL && info.backend != NULL,
		    "driver/backend missing");
	TEST_ASSERT(info.gid.gid != 0 || info.gid.gid_ext != 0, "zero GID");
	TEST_ASSERT(!rte_ism_gid_equal(&fx.ia.gid, &fx.ib.gid),
		    "A and B share a GID");
	TEST_ASSERT(info.max_dmbs > 0 && info.max_dmb_len > 0, "no limits");
	TEST_ASSERT(info.started, "device not started after probe");
	TEST_ASSERT(fx.ia.chid == fx.ib.chid, "A and B in different fabrics");
	return TEST_SUCCESS;
}

/* Every control call rejects a device id that is not a device. */
static int
test_bad_dev_id(void)
{
	uint16_t ids[] = { unused_id(), RTE_ISM_MAX_DEVS, UINT16_MAX };
	struct rte_ism_dev_info info;
	struct rte_ism_dmb dmb = { .len = 64, .rgid = fx.ia.gid };
	struct rte_ism_event ev;
	struct rte_ism_stats st;
	unsigned int i;
	uint16_t id;

	TEST_ASSERT(ids[0] < RTE_ISM_MAX_DEVS, "no unused device slot");
	for (i = 0; i < RTE_DIM(ids); i++) {
		id = ids[i];
		TEST_ASSERT(!rte_ism_is_valid_dev(id), "id %u valid", id);
		TEST_RET(rte_ism_info_get(id, &info), -ENODEV);
		TEST_RET(rte_ism_dev_start(id), -ENODEV);
		TEST_RET(rte_ism_dev_stop(id), -ENODEV);
		TEST_RET(rte_ism_dmb_register(id, &dmb), -ENODEV);
		TEST_RET(rte_ism_dmb_unregister(id, 1ULL << 40), -ENODEV);
		TEST_RET(rte_ism_dmb_attach(id, 1ULL << 40, &dmb), -ENODEV);
		TEST_RET(rte_ism_dmb_detach(id, 1ULL << 40), -ENODEV);
		TEST_RET(rte_ism_signal_event(id, &fx.ia.gid, 0, 1, 2),
			 -ENODEV);
		TEST_RET(rte_ism_event_poll(id, &ev, 1), -ENODEV);
		TEST_RET(rte_ism_query_remote_gid(id, &fx.ia.gid, 0, 0),
			 -ENODEV);
		TEST_RET(rte_ism_vlan_add(id, 1), -ENODEV);
		TEST_RET(rte_ism_vlan_del(id, 1), -ENODEV);
		TEST_RET(rte_ism_stats_get(id, &st), -ENODEV);
		TEST_RET(rte_ism_stats_reset(id), -ENODEV);
		TEST_RET(rte_ism_dump(id, stdout), -ENODEV);
	}
	return TEST_SUCCESS;
}

/* The inline fast path on an id without a device hits the dummies. */
static int
test_bad_dev_id_fast_path(void)
{
	uint16_t id = unused_id();
	struct rte_ism_signal sig[2];
	struct rte_ism_move_seg seg = { .data = &id, .len = 1 };
	char byte = 0;

	TEST_RET(rte_ism_move_data(id, 1ULL << 40, 0, 1, 0, &byte, 1), -ENODEV);
	TEST_RET(rte_ism_move_burst(id, 1ULL << 40, 0, 1, &seg, 1), -ENODEV);
	TEST_RET(rte_ism_signal_poll(id, sig, 2), -ENODEV);
#ifdef RTE_ISM_DEBUG
	/* Out-of-table ids and NULL pointers are checked in debug builds. */
	TEST_RET(rte_ism_move_data(RTE_ISM_MAX_DEVS, 1ULL << 40, 0, 1, 0,
				   &byte, 1), -ENODEV);
	TEST_RET(rte_ism_move_data(fx.a, 1ULL << 40, 0, 1, 0, NULL, 1),
		 -EINVAL);
	TEST_RET(rte_ism_move_burst(UINT16_MAX, 1ULL << 40, 0, 1, &seg, 1),
		 -ENODEV);
	TEST_RET(rte_ism_move_burst(fx.a, 1ULL << 40, 0, 1, NULL, 1), -EINVAL);
	TEST_RET(rte_ism_signal_poll(RTE_ISM_MAX_DEVS, sig, 2), -ENODEV);
	TEST_RET(rte_ism_signal_poll(fx.a, NULL, 2), -EINVAL);
#endif
	return TEST_SUCCESS;
}

static int
test_null_args(void)
{
	struct rte_ism_gid zero = { 0, 0 };

	TEST_RET(rte_ism_get_dev_id(NULL), -EINVAL);
	TEST_RET(rte_ism_info_get(fx.a, NULL), -EINVAL);
	TEST_RET(rte_ism_dmb_register(fx.a, NULL), -EINVAL);
	TEST_RET(rte_ism_dmb_attach(fx.a, 1ULL << 40, NULL), -EINVAL);
	TEST_RET(rte_ism_event_poll(fx.a, NULL, 1), -EINVAL);
	TEST_RET(rte_ism_signal_event(fx.a, NULL, 0, 1, 2), -EINVAL);
	TEST_RET(rte_ism_signal_event(fx.a, &zero, 0, 1, 2), -EINVAL);
	TEST_RET(rte_ism_query_remote_gid(fx.a, NULL, 0, 0), -EINVAL);
	TEST_RET(rte_ism_query_remote_gid(fx.a, &zero, 0, 0), -EINVAL);
	TEST_RET(rte_ism_stats_get(fx.a, NULL), -EINVAL);
	TEST_RET(rte_ism_dump(fx.a, NULL), -EINVAL);
	return TEST_SUCCESS;
}

static int
test_gid_text(void)
{
	static const char *const bad[] = {
		"", "0x", "0x0", "0x12345678901234567", "xyz", "0xfg",
		"1234", "00000000-0000-0000-0000-000000000000",
		"0123456789abcdef0123456789abcde", /* 31 digits */
		"01234567-89ab-cdef-0123-456789abcdeff",
		"01234567+89ab-cdef-0123-456789abcdef",
	};
	struct rte_ism_gid g, h;
	char buf[RTE_ISM_GID_STRLEN];
	unsigned int i;

	TEST_RET(rte_ism_gid_parse("0x1122334455667788", &g), 0);
	TEST_ASSERT(g.gid == 0x1122334455667788ULL && g.gid_ext == 0,
		    "64-bit form");
	TEST_RET(rte_ism_gid_parse("0123456789abcdefFEDCBA9876543210", &g), 0);
	TEST_ASSERT(g.gid == 0x0123456789abcdefULL &&
		    g.gid_ext == 0xfedcba9876543210ULL, "32-digit form");
	TEST_RET(rte_ism_gid_format(&g, buf, sizeof(buf)), 0);
	TEST_ASSERT(strcmp(buf, "01234567-89ab-cdef-fedc-ba9876543210") == 0,
		    "formatted as %s", buf);
	TEST_RET(rte_ism_gid_parse(buf, &h), 0);
	TEST_ASSERT(rte_ism_gid_equal(&g, &h), "UUID round trip");
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT(rte_ism_gid_parse(bad[i], &g) == -EINVAL,
			    "\"%s\" accepted", bad[i]);
	TEST_ASSERT(rte_ism_gid_equal(&g, &h), "a refused GID changed the output");
	TEST_RET(rte_ism_gid_parse(NULL, &g), -EINVAL);
	TEST_RET(rte_ism_gid_parse("0x1", NULL), -EINVAL);
	TEST_RET(rte_ism_gid_format(&g, buf, RTE_ISM_GID_STRLEN - 1), -EINVAL);
	TEST_RET(rte_ism_gid_format(NULL, buf, sizeof(buf)), -EINVAL);
	return TEST_SUCCESS;
}

static int
test_query_remote_gid(void)
{
	struct rte_ism_gid stranger = { 0x5eed, 0xdead };

	TEST_RET(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 0, 0), 0);
	TEST_RET(rte_ism_query_remote_gid(fx.b, &fx.ia.gid, 0, 0), 0);
	TEST_RET(rte_ism_query_remote_gid(fx.a, &fx.ia.gid, 0, 0), 0);
	TEST_RET(rte_ism_query_remote_gid(fx.a, &stranger, 0, 0),
		 -ENETUNREACH);
	TEST_RET(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 1,
					  RTE_ISM_VLAN_ID_MAX + 1), -EINVAL);
	return TEST_SUCCESS;
}

static int
test_vlan(void)
{
	struct rte_ism_dmb dmb = { .len = 256, .rgid = fx.ib.gid,
				   .vlan_valid = 1, .vlan_id = 42 };
	char data[16] = "vlan";

	if (!(fx.ia.capa & RTE_ISM_CAPA_VLAN)) {
		TEST_RET(rte_ism_vlan_add(fx.a, 42), -ENOTSUP);
		TEST_RET(rte_ism_dmb_register(fx.a, &dmb), -ENOTSUP);
		return TEST_SUCCESS;
	}
	TEST_RET(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_MAX + 1), -EINVAL);
	TEST_RET(rte_ism_vlan_del(fx.b, 42), -ENOENT);
	TEST_RET(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 1, 42),
		 -ENETUNREACH);
	dmb.vlan_id = RTE_ISM_VLAN_ID_MAX + 1;
	TEST_RET(rte_ism_dmb_register(fx.a, &dmb), -EINVAL);
	dmb.vlan_id = 42;
	TEST_RET(rte_ism_dmb_register(fx.a, &dmb), 0);
	/* B is not in VLAN 42 yet: it may not write. */
	TEST_RET(rte_ism_move_data(fx.b, dmb.token, 0, 0, 0, data, 4), -EACCES);
	TEST_RET(rte_ism_vlan_add(fx.b, 42), 0);
	TEST_RET(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 1, 42), 0);
	TEST_RET(rte_ism_move_data(fx.b, dmb.token, 0, 0, 0, data, 4), 0);
	TEST_ASSERT(memcmp(dmb.addr, "vlan", 4) == 0, "data not written");
	TEST_RET(rte_ism_vlan_del(fx.b, 42), 0);
	TEST_RET(rte_ism_move_data(fx.b, dmb.token, 0, 0, 0, data, 4), -EACCES);
	TEST_RET(rte_ism_dmb_unregister(fx.a, dmb.token), 0);
	return TEST_SUCCESS;
}

static int
test_stats(void)
{
	struct rte_ism_dmb dmb;
	struct rte_ism_stats st;
	char data[100] = { 0 };

	TEST_RET(rte_ism_stats_reset(fx.b), 0);
	TEST_RET(rte_ism_stats_get(fx.b, &st), 0);
	TEST_ASSERT(st.moves == 0 && st.bytes == 0 && st.errors == 0,
		    "not reset");
	TEST_RUN(fx_register(fx.a, 4096, &fx.ib.gid, &dmb));
	TEST_RET(rte_ism_move_data(fx.b, dmb.token, 0, 1, 0, data, 100), 0);
	TEST_RET(rte_ism_move_data(fx.b, dmb.token, 0, 0, 100, data, 50), 0);
	TEST_RET(rte_ism_move_data(fx.b, dmb.token, 0, 0, 4090, data, 50),
		 -ERANGE);
	TEST_RET(rte_ism_stats_get(fx.b, &st), 0);
	TEST_ASSERT(st.moves == 2 && st.bytes == 150 && st.signals == 1 &&
		    st.errors == 1, "moves %" PRIu64 " bytes %" PRIu64
		    " signals %" PRIu64 " errors %" PRIu64, st.moves, st.bytes,
		    st.signals, st.errors);
	TEST_RET(rte_ism_dmb_unregister(fx.a, dmb.token), 0);
	return TEST_SUCCESS;
}

static int
test_dump(void)
{
	struct rte_ism_dmb dmb;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	TEST_RUN(fx_register(fx.a, 4096, &fx.ib.gid, &dmb));
	f = open_memstream(&buf, &len);
	TEST_ASSERT(f != NULL, "open_memstream");
	ret = rte_ism_dump(fx.a, f);
	fclose(f);
	rte_ism_dmb_unregister(fx.a, dmb.token);
	TEST_ASSERT(ret == 0 && buf != NULL && strstr(buf, fx.ia.name) != NULL,
		    "dump returned %d without the name", ret);
	free(buf);
	return TEST_SUCCESS;
}

static const struct test_case api_cases[] = {
	{ "info", test_info },
	{ "bad_dev_id", test_bad_dev_id },
	{ "bad_dev_id_fast_path", test_bad_dev_id_fast_path },
	{ "null_args", test_null_args },
	{ "gid_text", test_gid_text },
	{ "query_remote_gid", test_query_remote_gid },
	{ "vlan", test_vlan },
	{ "stats", test_stats },
	{ "dump", test_dump },
	{ NULL, NULL },
};

const struct test_suite suite_api = { "api", api_cases, 1 };
