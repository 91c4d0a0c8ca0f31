/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Device discovery, argument checks of every call, GIDs, stats and
 * xstats, dump, reachability, VLANs, the life cycle (stop, close).
 */

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

	TEST_ASSERT(rte_ism_dev_count() >= 2, "%u devices, expected 2 at least",
		    rte_ism_dev_count());
	RTE_ISM_FOREACH_DEV(id)
		n++;
	TEST_ASSERT(n == rte_ism_dev_count(), "FOREACH saw %u of %u", n,
		    rte_ism_dev_count());
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id(fx.ia.name), fx.a, "id of A");
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id("no_such_device"), -ENODEV,
			  "id of no device");
	TEST_ASSERT_SUCCESS(rte_ism_info_get(fx.a, &info), "info_get");
	TEST_ASSERT(strcmp(info.name, fx.ia.name) == 0,
		    "name %s, expected %s", info.name, fx.ia.name);
	TEST_ASSERT(info.driver_name != NULL && info.backend != NULL,
		    "driver/backend missing");
	TEST_ASSERT(info.gid.gid != 0 || info.gid.gid_ext != 0, "zero GID");
	TEST_ASSERT(!rte_ism_gid_equal(&fx.ia.gid, &fx.ib.gid),
		    "A and B share a GID");
	TEST_ASSERT(info.max_dmbs > 0 && info.max_dmb_len > 0, "no limits");
	TEST_ASSERT(info.started, "device not started after probe");
	TEST_ASSERT_EQUAL(fx.ia.chid, fx.ib.chid,
			  "A and B in different fabrics");
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
	uint64_t v, tok = 1ULL << 40;
	uint16_t id;

	TEST_ASSERT(ids[0] < RTE_ISM_MAX_DEVS, "no unused device slot");
	for (i = 0; i < RTE_DIM(ids); i++) {
		id = ids[i];
		TEST_ASSERT(!rte_ism_is_valid_dev(id), "id %u valid", id);
		TEST_ASSERT_EQUAL(rte_ism_info_get(id, &info), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dev_start(id), -ENODEV, "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dev_stop(id), -ENODEV, "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dmb_register(id, &dmb), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(id, tok), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dmb_attach(id, tok, &dmb), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dmb_detach(id, tok), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_signal_event(id, &fx.ia.gid, 0, 1, 2),
				  -ENODEV, "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_event_poll(id, &ev, 1), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(id, &fx.ia.gid, 0,
							   0), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_vlan_add(id, 1), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_vlan_del(id, 1), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_stats_get(id, &st), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_stats_reset(id), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dump(id, stdout), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dev_close(id), -ENODEV, "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dev_selftest(id), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_xstats_names_get(id, &xn, 1), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_xstats_get(id, &xid, &v, 1), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_xstats_get_by_name(id, "moves", &xid,
							     &v), -ENODEV,
				  "id %u", id);
		TEST_ASSERT_EQUAL(rte_ism_xstats_reset(id, NULL, 0), -ENODEV,
				  "id %u", id);
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
	uint64_t tok = 1ULL << 40;
	char byte = 0;

	TEST_ASSERT_EQUAL(rte_ism_move_data(id, tok, 0, 1, 0, &byte, 1),
			  -ENODEV, "id %u", id);
	TEST_ASSERT_EQUAL(rte_ism_move_burst(id, tok, 0, 1, &seg, 1), -ENODEV,
			  "id %u", id);
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(id, sig, 2), -ENODEV,
			  "id %u", id);
#ifdef RTE_ISM_DEBUG
	/* Out-of-table ids and NULL pointers are checked in debug builds. */
	TEST_ASSERT_EQUAL(rte_ism_move_data(RTE_ISM_MAX_DEVS, tok, 0, 1, 0,
					    &byte, 1), -ENODEV, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.a, tok, 0, 1, 0, NULL, 1),
			  -EINVAL, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_burst(UINT16_MAX, tok, 0, 1, &seg, 1),
			  -ENODEV, "move_burst");
	TEST_ASSERT_EQUAL(rte_ism_move_burst(fx.a, tok, 0, 1, NULL, 1),
			  -EINVAL, "move_burst");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(RTE_ISM_MAX_DEVS, sig, 2),
			  -ENODEV, "signal_poll");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, NULL, 2), -EINVAL,
			  "signal_poll");
#endif
	return TEST_SUCCESS;
}

static int
test_null_args(void)
{
	struct rte_ism_gid zero = { 0, 0 };

	TEST_ASSERT_EQUAL(rte_ism_get_dev_id(NULL), -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rte_ism_info_get(fx.a, NULL), -EINVAL, "NULL info");
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, NULL), -EINVAL,
			  "NULL DMB");
	TEST_ASSERT_EQUAL(rte_ism_dmb_attach(fx.a, 1ULL << 40, NULL), -EINVAL,
			  "NULL DMB");
	TEST_ASSERT_EQUAL(rte_ism_event_poll(fx.a, NULL, 1), -EINVAL,
			  "NULL events");
	TEST_ASSERT_EQUAL(rte_ism_signal_event(fx.a, NULL, 0, 1, 2), -EINVAL,
			  "NULL GID");
	TEST_ASSERT_EQUAL(rte_ism_signal_event(fx.a, &zero, 0, 1, 2), -EINVAL,
			  "zero GID");
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(fx.a, NULL, 0, 0), -EINVAL,
			  "NULL GID");
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(fx.a, &zero, 0, 0), -EINVAL,
			  "zero GID");
	TEST_ASSERT_EQUAL(rte_ism_stats_get(fx.a, NULL), -EINVAL,
			  "NULL stats");
	TEST_ASSERT_EQUAL(rte_ism_dump(fx.a, NULL), -EINVAL, "NULL stream");
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
	const char *uuid = "01234567-89ab-cdef-fedc-ba9876543210";
	struct rte_ism_gid g, h;
	char buf[RTE_ISM_GID_STRLEN];
	unsigned int i;

	TEST_ASSERT_SUCCESS(rte_ism_gid_parse("0x1122334455667788", &g),
			    "64-bit form");
	TEST_ASSERT(g.gid == 0x1122334455667788ULL && g.gid_ext == 0,
		    "64-bit form: 0x%" PRIx64 "/0x%" PRIx64 ", expected "
		    "0x1122334455667788/0", g.gid, g.gid_ext);
	TEST_ASSERT_SUCCESS(rte_ism_gid_parse("0123456789abcdefFEDCBA9876543210",
					      &g),
			    "32-digit form");
	TEST_ASSERT(g.gid == 0x0123456789abcdefULL &&
		    g.gid_ext == 0xfedcba9876543210ULL,
		    "32-digit form: 0x%" PRIx64 "/0x%" PRIx64 ", expected "
		    "0x0123456789abcdef/0xfedcba9876543210", g.gid, g.gid_ext);
	TEST_ASSERT_SUCCESS(rte_ism_gid_format(&g, buf, sizeof(buf)),
			    "gid_format");
	TEST_ASSERT(strcmp(buf, uuid) == 0, "formatted as %s, expected %s",
		    buf, uuid);
	TEST_ASSERT_SUCCESS(rte_ism_gid_parse(buf, &h), "UUID form");
	TEST_ASSERT(rte_ism_gid_equal(&g, &h), "UUID round trip: 0x%" PRIx64
		    "/0x%" PRIx64, h.gid, h.gid_ext);
	for (i = 0; i < RTE_DIM(bad); i++)
		TEST_ASSERT_EQUAL(rte_ism_gid_parse(bad[i], &g), -EINVAL,
				  "\"%s\"", bad[i]);
	TEST_ASSERT(rte_ism_gid_equal(&g, &h),
		    "a refused GID changed the output");
	TEST_ASSERT_EQUAL(rte_ism_gid_parse(NULL, &g), -EINVAL, "NULL text");
	TEST_ASSERT_EQUAL(rte_ism_gid_parse("0x1", NULL), -EINVAL,
			  "NULL GID");
	TEST_ASSERT_EQUAL(rte_ism_gid_format(&g, buf, RTE_ISM_GID_STRLEN - 1),
			  -EINVAL, "short buffer");
	TEST_ASSERT_EQUAL(rte_ism_gid_format(NULL, buf, sizeof(buf)), -EINVAL,
			  "NULL GID");
	return TEST_SUCCESS;
}

static int
test_query_remote_gid(void)
{
	struct rte_ism_gid stranger = { 0x5eed, 0xdead };

	TEST_ASSERT_SUCCESS(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 0, 0),
			    "A asks for B");
	TEST_ASSERT_SUCCESS(rte_ism_query_remote_gid(fx.b, &fx.ia.gid, 0, 0),
			    "B asks for A");
	TEST_ASSERT_SUCCESS(rte_ism_query_remote_gid(fx.a, &fx.ia.gid, 0, 0),
			    "A asks for itself");
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(fx.a, &stranger, 0, 0),
			  -ENETUNREACH, "a GID of no device");
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 1,
						   RTE_ISM_VLAN_ID_MAX + 1),
			  -EINVAL, "VLAN id above the maximum");
	return TEST_SUCCESS;
}

/* rte_ism_dmb_register() where it must fail: a DMB it registers all the
 * same is unregistered again (no leak when the assertion fails).
 */
static int
register_refused(uint16_t dev, struct rte_ism_dmb *dmb)
{
	int ret = rte_ism_dmb_register(dev, dmb);

	if (ret == 0)
		rte_ism_dmb_unregister(dev, dmb->token);
	return ret;
}

/* Moves into dmb (A's, VLAN 42, writer B) as B joins and leaves VLAN 42. */
static int
vlan_moves(const struct rte_ism_dmb *dmb)
{
	char data[16] = "vlan";

	/* B is not in VLAN 42 yet: it may not write. */
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, dmb->token, 0, 0, 0, data,
					      4), -EACCES, "B outside VLAN 42");
	TEST_ASSERT(memcmp(dmb->addr, "vlan", 4) != 0, "written from outside");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_add(fx.b, 42), "vlan_add");
	TEST_ASSERT_SUCCESS(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 1, 42),
			    "B in VLAN 42");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, dmb->token, 0, 0, 0, data,
					      4), "B in VLAN 42");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(dmb->addr, "vlan", 4, "data written");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_del(fx.b, 42), "vlan_del");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, dmb->token, 0, 0, 0, data,
					      4), -EACCES, "B left VLAN 42");
	return TEST_SUCCESS;
}

static int
test_vlan(void)
{
	struct rte_ism_dmb dmb = { .len = 256, .rgid = fx.ib.gid,
				   .vlan_valid = 1, .vlan_id = 42 };
	int ret;

	if (!(fx.ia.capa & RTE_ISM_CAPA_VLAN)) {
		TEST_ASSERT_EQUAL(rte_ism_vlan_add(fx.a, 42), -ENOTSUP,
				  "vlan_add without VLANs");
		TEST_ASSERT_EQUAL(register_refused(fx.a, &dmb), -ENOTSUP,
				  "a DMB in a VLAN without VLANs");
		return TEST_SUCCESS;
	}
	TEST_ASSERT_EQUAL(rte_ism_vlan_add(fx.a, RTE_ISM_VLAN_ID_MAX + 1),
			  -EINVAL, "VLAN id above the maximum");
	TEST_ASSERT_EQUAL(rte_ism_vlan_del(fx.b, 42), -ENOENT,
			  "B not in VLAN 42");
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(fx.a, &fx.ib.gid, 1, 42),
			  -ENETUNREACH, "B not in VLAN 42");
	dmb.vlan_id = RTE_ISM_VLAN_ID_MAX + 1;
	TEST_ASSERT_EQUAL(register_refused(fx.a, &dmb), -EINVAL,
			  "a DMB in VLAN %u", dmb.vlan_id);
	dmb.vlan_id = 42;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &dmb),
			    "a DMB in VLAN 42");
	ret = vlan_moves(&dmb);
	if (ret != TEST_SUCCESS)
		rte_ism_vlan_del(fx.b, 42);	/* vlan_moves() stopped in it */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, dmb.token),
			    "dmb_unregister");
	return ret;
}

/*
 * Two moves and a refused one from B into dmb (A's, 4096 bytes); refused
 * before any store block (offset + length beyond 32 bits), so that every
 * platform counts it.
 */
static int
stats_moves(const struct rte_ism_dmb *dmb)
{
	struct rte_ism_stats st;
	char data[100] = { 0 };

	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, dmb->token, 0, 1, 0, data,
					      100), "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, dmb->token, 0, 0, 100,
					      data, 50), "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, dmb->token, 0, 0, UINT32_MAX,
					    data, 2), -ERANGE, "past the end");
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st), "stats_get");
	TEST_ASSERT(st.moves == 2 && st.bytes == 150 && st.signals == 1 &&
		    st.errors == 1, "moves %" PRIu64 " bytes %" PRIu64
		    " signals %" PRIu64 " errors %" PRIu64 ", expected 2 150 "
		    "1 1", st.moves, st.bytes, st.signals, st.errors);
	return TEST_SUCCESS;
}

static int
test_stats(void)
{
	struct rte_ism_dmb dmb;
	struct rte_ism_stats st;
	int ret;

	TEST_ASSERT_SUCCESS(rte_ism_stats_reset(fx.b), "stats_reset");
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st), "stats_get");
	TEST_ASSERT(st.moves == 0 && st.bytes == 0 && st.errors == 0,
		    "not reset: moves %" PRIu64 " bytes %" PRIu64 " errors %"
		    PRIu64, st.moves, st.bytes, st.errors);
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 4096, &fx.ib.gid, &dmb),
			    "register a DMB");
	ret = stats_moves(&dmb);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, dmb.token),
			    "dmb_unregister");
	return ret;
}

static int
test_dump(void)
{
	struct rte_ism_dmb dmb;
	char *buf = NULL;
	size_t len = 0;
	bool named;
	FILE *f;
	int ret = -ENOMEM;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 4096, &fx.ib.gid, &dmb),
			    "register a DMB");
	f = open_memstream(&buf, &len);
	if (f != NULL) {
		ret = rte_ism_dump(fx.a, f);
		fclose(f);
	}
	rte_ism_dmb_unregister(fx.a, dmb.token);
	named = buf != NULL && strstr(buf, fx.ia.name) != NULL;
	free(buf);
	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	TEST_ASSERT_SUCCESS(ret, "rte_ism_dump");
	TEST_ASSERT(named, "the dump does not name %s", fx.ia.name);
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
 * The moves of test_error_reasons() from B, into mine (writer B) and other
 * (writer A), a stop and a start of B in between; st: B's stats while it
 * is stopped.
 */
static int
refused_moves(const struct rte_ism_dmb *mine, const struct rte_ism_dmb *other,
		struct rte_ism_stats *st)
{
	struct rte_ism_move_seg seg = { .len = 1 };
	char data[8] = "reason";

	seg.data = data;
	TEST_ASSERT_SUCCESS(rte_ism_stats_reset(fx.b), "stats_reset");

	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, mine->token, 0, 0, 0, data,
					      8), "move_data");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b,
					      mine->token ^ (1ULL << 40), 0, 0,
					      0, data, 1), -ENOENT,
			    "unknown token");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, other->token, 0, 0, 0,
					      data, 1), -EACCES,
			    "not the writer");
	TEST_ASSERT_REFUSED(rte_ism_move_burst(fx.b, other->token, 0, 0, &seg,
					       1), -EACCES, "not the writer");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, mine->token, 0, 0, 60,
					      data, 8), -ERANGE,
			    "past the end");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, mine->token, 0, 0, 0, data,
					    0), -EINVAL, "zero length");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, mine->token,
					    RTE_ISM_DMBE_MAX, 1, 0, data, 1),
			  -EINVAL, "signal element out of range");
	TEST_ASSERT_EQUAL(rte_ism_move_burst(fx.b, mine->token, 0, 0, &seg, 0),
			  -EINVAL, "no segment");
	TEST_ASSERT_SUCCESS(rte_ism_dev_stop(fx.b), "dev_stop");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, mine->token, 0, 0, 0, data,
					    1), -ENODEV, "stopped");
	TEST_ASSERT_EQUAL(rte_ism_move_burst(fx.b, mine->token, 0, 0, &seg, 1),
			  -ENODEV, "stopped");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, mine->token, 0, 0, 0, data,
					    1), -ENODEV, "stopped");
	/* Control calls and the stats work on a stopped device. */
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, st), "stats_get");
	TEST_ASSERT_SUCCESS(rte_ism_dev_start(fx.b), "dev_start");
	/* The DMB outlived the stop: the same token works. */
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, mine->token, 0, 0, 8, data,
					      8), "after a restart");
	return TEST_SUCCESS;
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
	struct rte_ism_dmb mine, other;
	struct rte_ism_dev_info info;
	struct rte_ism_stats st;
	int ret, un_mine, un_other = 0;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &mine),
			    "register a DMB");
	ret = fx_register(fx.a, 64, &fx.ia.gid, &other);
	if (ret == TEST_SUCCESS) {
		ret = refused_moves(&mine, &other, &st);
		/* B stays started for the tests after this one. */
		if (rte_ism_info_get(fx.b, &info) == 0 && !info.started)
			rte_ism_dev_start(fx.b);
		un_other = rte_ism_dmb_unregister(fx.a, other.token);
	}
	un_mine = rte_ism_dmb_unregister(fx.a, mine.token);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(un_mine, "dmb_unregister");
	TEST_ASSERT_SUCCESS(un_other, "dmb_unregister");
	/* What the device refused is not known to the sender. */
	if (fx.stores_posted)
		return TEST_SUCCESS;
	/* Behind ism_vfio_pci the device's refusals are errors_device. */
	if (fx.stores_eio) {
		TEST_ASSERT(st.errors_unknown_token + st.errors_not_writer +
			    st.errors_out_of_range + st.errors_device == 4 &&
			    st.errors_bad_argument == 3 &&
			    st.errors_no_device == 3, "refusals by reason");
		return TEST_SUCCESS;
	}

	TEST_ASSERT(st.moves == 1 && st.bytes == 8, "moves %" PRIu64
		    " bytes %" PRIu64 ", expected 1 and 8", st.moves, st.bytes);
	TEST_ASSERT(st.errors_unknown_token == 1 &&
		    st.errors_not_writer == 2 && st.errors_out_of_range == 1 &&
		    st.errors_bad_argument == 3 && st.errors_device == 0 &&
		    st.errors_no_device == 3,
		    "by reason: token %" PRIu64 " writer %" PRIu64 " range %"
		    PRIu64 " argument %" PRIu64 " device %" PRIu64
		    " no device %" PRIu64 ", expected 1 2 1 3 0 3",
		    st.errors_unknown_token, st.errors_not_writer,
		    st.errors_out_of_range, st.errors_bad_argument,
		    st.errors_device, st.errors_no_device);
	TEST_ASSERT_EQUAL(st.errors, 10, "errors, the sum");
	/* The same counters as xstats, named like the fields. */
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st), "stats_get");
	TEST_ASSERT_EQUAL(xstat(fx.b, "moves"), 2, "xstat");
	TEST_ASSERT_EQUAL(st.moves, 2, "stats");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors"), st.errors, "xstat");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors_unknown_token"), 1, "xstat");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors_not_writer"), 2, "xstat");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors_out_of_range"), 1, "xstat");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors_bad_argument"), 3, "xstat");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors_device"), 0, "xstat");
	TEST_ASSERT_EQUAL(xstat(fx.b, "errors_no_device"), 3, "xstat");
	return TEST_SUCCESS;
}

/* The ids of xstats moves and bytes of B, from the list of names. */
static int
xstats_ids(unsigned int *n, unsigned int *id_moves, unsigned int *id_bytes)
{
	struct rte_ism_xstats_name *names;
	unsigned int i;
	int ret;

	ret = rte_ism_xstats_names_get(fx.b, NULL, 0);
	TEST_ASSERT(ret >= 12, "%d xstats, expected the 12 of rte_ism_stats "
		    "at least", ret);
	*n = ret;
	TEST_ASSERT_EQUAL(rte_ism_xstats_names_get(fx.b, NULL, 5), *n,
			  "a count needs no size");
	names = calloc(*n, sizeof(*names));
	TEST_ASSERT_NOT_NULL(names, "no memory");
	ret = rte_ism_xstats_names_get(fx.b, names, *n);
	for (i = 0; ret == (int)*n && i < *n; i++) {
		if (strcmp(names[i].name, "moves") == 0)
			*id_moves = i;
		if (strcmp(names[i].name, "bytes") == 0)
			*id_bytes = i;
	}
	free(names);
	TEST_ASSERT_EQUAL(ret, *n, "names filled");
	TEST_ASSERT(*id_moves != UINT_MAX && *id_bytes != UINT_MAX,
		    "moves or bytes missing");
	return TEST_SUCCESS;
}

/* The xstats calls: list, ids, names, a reset of one id only. */
static int
test_xstats(void)
{
	unsigned int ids[2], id_moves = UINT_MAX, id_bytes = UINT_MAX, n, id;
	struct rte_ism_dmb d;
	uint64_t v[2] = { 0 }, val;
	char data[16] = { 0 };
	int moved;

	TEST_ASSERT_SUCCESS(xstats_ids(&n, &id_moves, &id_bytes),
			    "the xstats of B");
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	moved = rte_ism_move_data(fx.b, d.token, 0, 0, 0, data, 16);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_SUCCESS(moved, "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_xstats_get_by_name(fx.b, "moves", &id,
						       &val), "moves");
	TEST_ASSERT(id == id_moves && val > 0, "moves: id %u value %" PRIu64
		    ", expected id %u and a value", id, val, id_moves);

	/* Bad ids and names: -EINVAL, nothing filled or reset. */
	ids[0] = id_moves;
	ids[1] = n;
	TEST_ASSERT_EQUAL(rte_ism_xstats_get(fx.b, ids, v, 2), -EINVAL,
			  "an id out of range");
	TEST_ASSERT_EQUAL(rte_ism_xstats_get(fx.b, NULL, v, 1), -EINVAL,
			  "NULL ids");
	TEST_ASSERT_SUCCESS(rte_ism_xstats_get(fx.b, ids, v, 0), "no id");
	TEST_ASSERT_EQUAL(rte_ism_xstats_reset(fx.b, ids, 2), -EINVAL,
			  "an id out of range");
	TEST_ASSERT(xstat(fx.b, "moves") > 0, "a refused reset zeroed moves");
	TEST_ASSERT_EQUAL(rte_ism_xstats_get_by_name(fx.b, "no_such_xstat",
						     &id, &val), -EINVAL,
			  "unknown name");
	TEST_ASSERT_EQUAL(id, UINT_MAX, "id of an unknown name");
	TEST_ASSERT_EQUAL(rte_ism_xstats_get_by_name(fx.b, NULL, &id, &val),
			  -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rte_ism_xstats_get_by_name(fx.b, "moves", &id,
						     NULL), -EINVAL,
			  "NULL value");

	/* A reset of one id resets that counter only. */
	TEST_ASSERT_SUCCESS(rte_ism_xstats_reset(fx.b, &id_moves, 1),
			    "reset of moves");
	ids[0] = id_moves;
	ids[1] = id_bytes;
	TEST_ASSERT_EQUAL(rte_ism_xstats_get(fx.b, ids, v, 2), 2,
			  "moves and bytes");
	TEST_ASSERT(v[0] == 0 && v[1] >= 16, "moves %" PRIu64 " bytes %"
		    PRIu64 ", expected 0 and 16 at least", v[0], v[1]);
	TEST_ASSERT_SUCCESS(rte_ism_xstats_reset(fx.b, NULL, 0),
			    "reset of all");
	TEST_ASSERT_EQUAL(rte_ism_xstats_get(fx.b, ids, v, 2), 2,
			  "moves and bytes");
	TEST_ASSERT(v[0] == 0 && v[1] == 0, "after a reset of all: moves %"
		    PRIu64 " bytes %" PRIu64, v[0], v[1]);
	return TEST_SUCCESS;
}

/* The steps of test_vlan_reserved() on a device with VLANs. */
static int
vlan_reserved(void)
{
	struct rte_ism_dmb dmb = { .len = 64, .rgid = fx.ib.gid,
				   .vlan_valid = 1,
				   .vlan_id = RTE_ISM_VLAN_ID_RESERVED };
	const uint16_t r = RTE_ISM_VLAN_ID_RESERVED;

	TEST_ASSERT_EQUAL(rte_ism_vlan_del(fx.a, r), -ENOENT, "not added");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_add(fx.a, r), "vlan_add");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_add(fx.a, r), "vlan_add again");
	/* Not a VLAN: no DMB, no query, no other id above the maximum. */
	TEST_ASSERT_EQUAL(register_refused(fx.b, &dmb), -EINVAL,
			  "a DMB in VLAN 0x%x", r);
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(fx.b, &fx.ia.gid, 1, r),
			  -EINVAL, "VLAN 0x%x", r);
	TEST_ASSERT_EQUAL(rte_ism_vlan_add(fx.a, r - 1), -EINVAL,
			  "VLAN 0x%x", r - 1);
	TEST_ASSERT_EQUAL(rte_ism_vlan_add(fx.a, r + 1), -EINVAL,
			  "VLAN 0x%x", r + 1);
	/* Per device. */
	TEST_ASSERT_EQUAL(rte_ism_vlan_del(fx.b, r), -ENOENT, "added on A");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_del(fx.a, r), "vlan_del");
	TEST_ASSERT_EQUAL(rte_ism_vlan_del(fx.a, r), -ENOENT, "deleted");
	return TEST_SUCCESS;
}

/*
 * VLAN 0x1FFF: the ISMv2 probe of SMC (add when a device is registered,
 * success = V2 capable). Every device with VLANs says yes; it is no VLAN.
 */
static int
test_vlan_reserved(void)
{
	int ret;

	if (!(fx.ia.capa & RTE_ISM_CAPA_VLAN)) {
		TEST_ASSERT_EQUAL(rte_ism_vlan_add(fx.a,
						   RTE_ISM_VLAN_ID_RESERVED),
				  -ENOTSUP, "without VLANs");
		TEST_ASSERT_EQUAL(rte_ism_vlan_del(fx.a,
						   RTE_ISM_VLAN_ID_RESERVED),
				  -ENOTSUP, "without VLANs");
		return TEST_SUCCESS;
	}
	ret = vlan_reserved();
	if (ret != TEST_SUCCESS)
		rte_ism_vlan_del(fx.a, RTE_ISM_VLAN_ID_RESERVED);
	return ret;
}

/*
 * The steps of test_close() on c, a spawned device named name: DMBs both
 * ways (mine: A's, for c), a close, every call refused after it; name2
 * receives the name of a device spawned then, and is cleared once that
 * device is removed.
 */
static int
closed_device(uint16_t c, const char *name, struct rte_ism_dmb *mine,
		char *name2, size_t name2sz)
{
	struct rte_ism_dmb theirs;
	struct rte_ism_dev_info info;
	struct rte_ism_signal sig;
	struct rte_ism_stats st;
	uint16_t count;
	char b = 1;
	int c2;

	TEST_ASSERT_SUCCESS(rte_ism_info_get(c, &info), "info_get");
	TEST_ASSERT_SUCCESS(fx_register(c, 64, &fx.ia.gid, &theirs),
			    "register a DMB on %s", name);
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &info.gid, mine),
			    "register a DMB on A");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.a, theirs.token, 0, 0, 0, &b,
					      1), "move_data");
	count = rte_ism_dev_count();

	TEST_ASSERT_SUCCESS(rte_ism_dev_close(c), "dev_close");
	TEST_ASSERT(!rte_ism_is_valid_dev(c), "%u still valid", c);
	TEST_ASSERT_EQUAL(rte_ism_dev_count(), count - 1, "dev_count");
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id(name), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_info_get(c, &info), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(c, theirs.token), -ENODEV,
			  "closed");
	TEST_ASSERT_EQUAL(rte_ism_stats_get(c, &st), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_dev_start(c), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_dev_close(c), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_move_data(c, mine->token, 0, 0, 0, &b, 1),
			  -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(c, &sig, 1), -ENODEV, "closed");
	/* Its DMBs went with it. */
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.a, theirs.token, 0, 0, 0, &b,
					    1), -ENOENT, "a DMB of the closed");
	/* The id is not given to another device before the removal. */
	c2 = fx_spawn(NULL, name2, name2sz);
	TEST_ASSERT(c2 >= 0 && c2 != c, "spawn after close: %d (closed %d)",
		    c2, c);
	TEST_ASSERT_SUCCESS(fx_unspawn(name2), "remove %s", name2);
	name2[0] = '\0';
	return TEST_SUCCESS;
}

/*
 * rte_ism_dev_close(): the device frees everything and is gone for every
 * call (its DMBs too), but its id stays taken until it is removed.
 */
static int
test_close(void)
{
	struct rte_ism_dmb mine = { .token = 0 };
	char name[RTE_ISM_NAME_LEN], name2[RTE_ISM_NAME_LEN] = "";
	int c, ret, removed, unreg = 0;

	c = fx_spawn(NULL, name, sizeof(name));
	if (FX_SPAWN_SKIPPED(c))
		return TEST_SKIPPED;
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	ret = closed_device(c, name, &mine, name2, sizeof(name2));
	if (name2[0] != '\0')
		fx_unspawn(name2);
	removed = fx_unspawn(name);
	if (ret == TEST_SUCCESS || mine.token != 0)
		unreg = rte_ism_dmb_unregister(fx.a, mine.token);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_SUCCESS(removed, "remove %s", name);
	TEST_ASSERT_SUCCESS(unreg, "dmb_unregister");
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
