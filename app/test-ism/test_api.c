/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Device discovery, argument checks of every call, GIDs, stats and
 * xstats, dump, reachability, VLANs, the life cycle (stop, close). */

#include <limits.h>
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
	struct rte_ism_xstats_name xn;
	unsigned int i, xid = 0;
	uint64_t v;
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
		TEST_RET(rte_ism_dev_close(id), -ENODEV);
		TEST_RET(rte_ism_dev_selftest(id), -ENODEV);
		TEST_RET(rte_ism_xstats_names_get(id, &xn, 1), -ENODEV);
		TEST_RET(rte_ism_xstats_get(id, &xid, &v, 1), -ENODEV);
		TEST_RET(rte_ism_xstats_get_by_name(id, "moves", &xid, &v),
			 -ENODEV);
		TEST_RET(rte_ism_xstats_reset(id, NULL, 0), -ENODEV);
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

/* The value of xstat name of dev via rte_ism_xstats_get_by_name(). */
static uint64_t
xstat(uint16_t dev, const char *name)
{
	unsigned int id;
	uint64_t v;

	return rte_ism_xstats_get_by_name(dev, name, &id, &v) == 0 &&
		id != UINT_MAX ? v : UINT64_MAX;
}

/*
 * A client reads why its moves failed with rte_ism_* calls only: each
 * reason it can provoke, counted once by the sending device, in
 * rte_ism_stats and as xstats. (errors_device needs a failing device: the
 * pmd_api suite makes one.) A stopped device refuses moves with -ENODEV
 * and counts them; its DMBs stay.
 */
static int
test_error_reasons(void)
{
	struct rte_ism_move_seg seg = { .len = 1 };
	struct rte_ism_dmb mine, other;
	struct rte_ism_stats st;
	char data[8] = "reason";

	seg.data = data;
	TEST_RUN(fx_register(fx.a, 64, &fx.ib.gid, &mine));
	TEST_RUN(fx_register(fx.a, 64, &fx.ia.gid, &other));
	TEST_RET(rte_ism_stats_reset(fx.b), 0);

	TEST_RET(rte_ism_move_data(fx.b, mine.token, 0, 0, 0, data, 8), 0);
	TEST_RET(rte_ism_move_data(fx.b, mine.token ^ (1ULL << 40), 0, 0, 0,
				   data, 1), -ENOENT);
	TEST_RET(rte_ism_move_data(fx.b, other.token, 0, 0, 0, data, 1),
		 -EACCES);
	TEST_RET(rte_ism_move_burst(fx.b, other.token, 0, 0, &seg, 1), -EACCES);
	TEST_RET(rte_ism_move_data(fx.b, mine.token, 0, 0, 60, data, 8),
		 -ERANGE);
	TEST_RET(rte_ism_move_data(fx.b, mine.token, 0, 0, 0, data, 0),
		 -EINVAL);
	TEST_RET(rte_ism_move_data(fx.b, mine.token, RTE_ISM_DMBE_MAX, 1, 0,
				   data, 1), -EINVAL);
	TEST_RET(rte_ism_move_burst(fx.b, mine.token, 0, 0, &seg, 0), -EINVAL);
	TEST_RET(rte_ism_dev_stop(fx.b), 0);
	TEST_RET(rte_ism_move_data(fx.b, mine.token, 0, 0, 0, data, 1),
		 -ENODEV);
	TEST_RET(rte_ism_move_burst(fx.b, mine.token, 0, 0, &seg, 1), -ENODEV);
	TEST_RET(rte_ism_move_data(fx.b, mine.token, 0, 0, 0, data, 1),
		 -ENODEV);
	/* Control calls and the stats work on a stopped device. */
	TEST_RET(rte_ism_stats_get(fx.b, &st), 0);
	TEST_RET(rte_ism_dev_start(fx.b), 0);
	/* The DMB outlived the stop: the same token works. */
	TEST_RET(rte_ism_move_data(fx.b, mine.token, 0, 0, 8, data, 8), 0);
	TEST_RET(rte_ism_dmb_unregister(fx.a, mine.token), 0);
	TEST_RET(rte_ism_dmb_unregister(fx.a, other.token), 0);

	TEST_ASSERT(st.moves == 1 && st.bytes == 8, "moves %" PRIu64
		    " bytes %" PRIu64, st.moves, st.bytes);
	TEST_ASSERT(st.errors_unknown_token == 1 && st.errors_not_writer == 2 &&
		    st.errors_out_of_range == 1 && st.errors_bad_argument == 3 &&
		    st.errors_device == 0 && st.errors_no_device == 3,
		    "by reason: token %" PRIu64 " writer %" PRIu64 " range %"
		    PRIu64 " argument %" PRIu64 " device %" PRIu64
		    " no device %" PRIu64, st.errors_unknown_token,
		    st.errors_not_writer, st.errors_out_of_range,
		    st.errors_bad_argument, st.errors_device,
		    st.errors_no_device);
	TEST_ASSERT(st.errors == 10, "errors %" PRIu64 ", want the sum 10",
		    st.errors);
	/* The same counters as xstats, named like the fields. */
	TEST_RET(rte_ism_stats_get(fx.b, &st), 0);
	TEST_ASSERT(xstat(fx.b, "moves") == 2 && st.moves == 2, "moves");
	TEST_ASSERT(xstat(fx.b, "errors") == st.errors &&
		    xstat(fx.b, "errors_unknown_token") == 1 &&
		    xstat(fx.b, "errors_not_writer") == 2 &&
		    xstat(fx.b, "errors_out_of_range") == 1 &&
		    xstat(fx.b, "errors_bad_argument") == 3 &&
		    xstat(fx.b, "errors_device") == 0 &&
		    xstat(fx.b, "errors_no_device") == 3,
		    "xstats differ from rte_ism_stats");
	return TEST_SUCCESS;
}

/* The xstats calls: list, ids, names, a reset of one id only. */
static int
test_xstats(void)
{
	struct rte_ism_xstats_name *names;
	unsigned int ids[2], id_moves = UINT_MAX, id_bytes = UINT_MAX, i, id;
	struct rte_ism_dmb d;
	uint64_t v[2] = { 0 }, val;
	char data[16] = { 0 };
	int n;

	n = rte_ism_xstats_names_get(fx.b, NULL, 0);
	TEST_ASSERT(n >= 12, "%d xstats, want the 12 of rte_ism_stats at least",
		    n);
	TEST_RET(rte_ism_xstats_names_get(fx.b, NULL, 5), n);
	names = calloc(n, sizeof(*names));
	TEST_ASSERT(names != NULL, "no memory");
	if (rte_ism_xstats_names_get(fx.b, names, n) != n) {
		free(names);
		TEST_ASSERT(false, "names not filled");
	}
	for (i = 0; i < (unsigned int)n; i++) {
		if (strcmp(names[i].name, "moves") == 0)
			id_moves = i;
		if (strcmp(names[i].name, "bytes") == 0)
			id_bytes = i;
	}
	free(names);
	TEST_ASSERT(id_moves != UINT_MAX && id_bytes != UINT_MAX,
		    "moves or bytes missing");
	TEST_RUN(fx_register(fx.a, 64, &fx.ib.gid, &d));
	TEST_RET(rte_ism_move_data(fx.b, d.token, 0, 0, 0, data, 16), 0);
	TEST_RET(rte_ism_dmb_unregister(fx.a, d.token), 0);
	TEST_RET(rte_ism_xstats_get_by_name(fx.b, "moves", &id, &val), 0);
	TEST_ASSERT(id == id_moves && val > 0, "moves: id %u value %" PRIu64,
		    id, val);

	/* Bad ids and names: -EINVAL, nothing filled or reset. */
	ids[0] = id_moves;
	ids[1] = n;
	TEST_RET(rte_ism_xstats_get(fx.b, ids, v, 2), -EINVAL);
	TEST_RET(rte_ism_xstats_get(fx.b, NULL, v, 1), -EINVAL);
	TEST_RET(rte_ism_xstats_get(fx.b, ids, v, 0), 0);
	TEST_RET(rte_ism_xstats_reset(fx.b, ids, 2), -EINVAL);
	TEST_ASSERT(xstat(fx.b, "moves") > 0, "a refused reset reset moves");
	TEST_RET(rte_ism_xstats_get_by_name(fx.b, "no_such_xstat", &id, &val),
		 -EINVAL);
	TEST_ASSERT(id == UINT_MAX, "id %u for an unknown name", id);
	TEST_RET(rte_ism_xstats_get_by_name(fx.b, NULL, &id, &val), -EINVAL);
	TEST_RET(rte_ism_xstats_get_by_name(fx.b, "moves", &id, NULL),
		 -EINVAL);

	/* A reset of one id resets that counter only. */
	TEST_RET(rte_ism_xstats_reset(fx.b, &id_moves, 1), 0);
	ids[0] = id_moves;
	ids[1] = id_bytes;
	TEST_RET(rte_ism_xstats_get(fx.b, ids, v, 2), 2);
	TEST_ASSERT(v[0] == 0 && v[1] >= 16, "moves %" PRIu64 " bytes %" PRIu64,
		    v[0], v[1]);
	TEST_RET(rte_ism_xstats_reset(fx.b, NULL, 0), 0);
	TEST_RET(rte_ism_xstats_get(fx.b, ids, v, 2), 2);
	TEST_ASSERT(v[0] == 0 && v[1] == 0, "after a reset of all: moves %"
		    PRIu64 " bytes %" PRIu64, v[0], v[1]);
	return TEST_SUCCESS;
}

/*
 * VLAN 0x1FFF: the ISMv2 probe of SMC (add when a device is registered,
 * success = V2 capable). Every device with VLANs says yes; it is no VLAN.
 */
static int
test_vlan_reserved(void)
{
	struct rte_ism_dmb dmb = { .len = 64, .rgid = fx.ib.gid,
				   .vlan_valid = 1,
				   .vlan_id = RTE_ISM_VLAN_ID_RESERVED };

	if (!(fx.ia.capa & RTE_ISM_CAPA_VLAN)) {
		TEST_RET(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_RESERVED),
			 -ENOTSUP);
		TEST_RET(rte_ism_vlan_del(fx.a, RTE_ISM_VLAN_ID_RESERVED),
			 -ENOTSUP);
		return TEST_SUCCESS;
	}
	TEST_RET(rte_ism_vlan_del(fx.a, RTE_ISM_VLAN_ID_RESERVED), -ENOENT);
	TEST_RET(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_RESERVED), 0);
	TEST_RET(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_RESERVED), 0);
	/* Not a VLAN: no DMB, no query, no other id above the maximum. */
	TEST_RET(rte_ism_dmb_register(fx.b, &dmb), -EINVAL);
	TEST_RET(rte_ism_query_remote_gid(fx.b, &fx.ia.gid, 1,
					  RTE_ISM_VLAN_ID_RESERVED), -EINVAL);
	TEST_RET(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_RESERVED - 1), -EINVAL);
	TEST_RET(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_RESERVED + 1), -EINVAL);
	/* Per device. */
	TEST_RET(rte_ism_vlan_del(fx.b, RTE_ISM_VLAN_ID_RESERVED), -ENOENT);
	TEST_RET(rte_ism_vlan_del(fx.a, RTE_ISM_VLAN_ID_RESERVED), 0);
	TEST_RET(rte_ism_vlan_del(fx.a, RTE_ISM_VLAN_ID_RESERVED), -ENOENT);
	return TEST_SUCCESS;
}

/*
 * rte_ism_dev_close(): the device frees everything and is gone for every
 * call (its DMBs too), but its id stays taken until it is removed.
 */
static int
test_close(void)
{
	struct rte_ism_dmb theirs, mine;
	struct rte_ism_dev_info info;
	struct rte_ism_signal sig;
	struct rte_ism_stats st;
	char name[RTE_ISM_NAME_LEN], name2[RTE_ISM_NAME_LEN];
	uint16_t count;
	char b = 1;
	int c, c2;

	c = fx_spawn(NULL, name, sizeof(name));
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	TEST_RET(rte_ism_info_get(c, &info), 0);
	TEST_RUN(fx_register(c, 64, &fx.ia.gid, &theirs));
	TEST_RUN(fx_register(fx.a, 64, &info.gid, &mine));
	TEST_RET(rte_ism_move_data(fx.a, theirs.token, 0, 0, 0, &b, 1), 0);
	count = rte_ism_dev_count();

	TEST_RET(rte_ism_dev_close(c), 0);
	TEST_ASSERT(!rte_ism_is_valid_dev(c), "still valid");
	TEST_ASSERT(rte_ism_dev_count() == count - 1, "still counted");
	TEST_RET(rte_ism_get_dev_id(name), -ENODEV);
	TEST_RET(rte_ism_info_get(c, &info), -ENODEV);
	TEST_RET(rte_ism_dmb_unregister(c, theirs.token), -ENODEV);
	TEST_RET(rte_ism_stats_get(c, &st), -ENODEV);
	TEST_RET(rte_ism_dev_start(c), -ENODEV);
	TEST_RET(rte_ism_dev_close(c), -ENODEV);
	TEST_RET(rte_ism_move_data(c, mine.token, 0, 0, 0, &b, 1), -ENODEV);
	TEST_RET(rte_ism_signal_poll(c, &sig, 1), -ENODEV);
	/* Its DMBs went with it. */
	TEST_RET(rte_ism_move_data(fx.a, theirs.token, 0, 0, 0, &b, 1),
		 -ENOENT);
	/* The id is not given to another device before the removal. */
	c2 = fx_spawn(NULL, name2, sizeof(name2));
	TEST_ASSERT(c2 >= 0 && c2 != c, "spawn after close: %d (closed %d)",
		    c2, c);
	TEST_RET(fx_unspawn(name2), 0);
	TEST_RET(fx_unspawn(name), 0);
	TEST_RET(rte_ism_dmb_unregister(fx.a, mine.token), 0);
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
	{ "error_reasons", test_error_reasons },
	{ "xstats", test_xstats },
	{ "vlan_reserved", test_vlan_reserved },
	{ "dump", test_dump },
	{ "close", test_close },
	{ NULL, NULL },
};

const struct test_suite suite_api = { "api", api_cases, 1 };
