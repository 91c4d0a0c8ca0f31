/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * ism_autotest: the public rte_ism API on two loopback devices (ism_lo)
 * made with rte_vdev_init(): DMB registration, moves with and without a
 * signal, signal and event polling, the refusals (negative errno, nothing
 * written), unregistration and close. The full functional suites are
 * app/test-ism's (dpdk-test-ism functional).
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_bus_vdev.h>
#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ism.h>

#include "test.h"

#define ISM_TEST_DRV "ism_lo"
#define ISM_TEST_DMB_LEN 4096
/* How long an event may take to be queued: a bound, not a measurement. */
#define ISM_TEST_EVENT_WAIT_MS 5000

static const char *const ism_test_names[] = {
	ISM_TEST_DRV "_autotest_a", ISM_TEST_DRV "_autotest_b",
};

/* The two devices: A owns the DMBs, B writes them. */
static struct {
	uint16_t a, b;
	struct rte_ism_dev_info ia, ib;
	unsigned int nb_created;
} ism_test;

static void
ism_test_teardown(void)
{
	while (ism_test.nb_created > 0)
		rte_vdev_uninit(ism_test_names[--ism_test.nb_created]);
}

static int
ism_test_setup(void)
{
	int id[RTE_DIM(ism_test_names)];
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(ism_test_names); i++) {
		ret = rte_vdev_init(ism_test_names[i], NULL);
		if (ret < 0) {
			printf("cannot create %s (driver %s): %d\n",
			       ism_test_names[i], ISM_TEST_DRV, ret);
			ism_test_teardown();
			return i == 0 ? TEST_SKIPPED : TEST_FAILED;
		}
		ism_test.nb_created++;
		id[i] = rte_ism_get_dev_id(ism_test_names[i]);
		if (id[i] < 0) {
			printf("%s has no ISM device id: %d\n",
			       ism_test_names[i], id[i]);
			ism_test_teardown();
			return TEST_FAILED;
		}
	}
	ism_test.a = id[0];
	ism_test.b = id[1];
	if (rte_ism_info_get(ism_test.a, &ism_test.ia) < 0 ||
	    rte_ism_info_get(ism_test.b, &ism_test.ib) < 0) {
		ism_test_teardown();
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* A DMB of len bytes on A that B may write. */
static int
ism_test_register(struct rte_ism_dmb *dmb, uint32_t len)
{
	memset(dmb, 0, sizeof(*dmb));
	dmb->len = len;
	dmb->rgid = ism_test.ib.gid;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(ism_test.a, dmb),
			    "register a DMB of %u bytes", len);
	TEST_ASSERT(dmb->addr != NULL && dmb->token != 0 &&
		    dmb->idx >= RTE_ISM_DMB_IDX_FIRST,
		    "DMB addr %p token 0x%" PRIx64 " idx %u", dmb->addr,
		    dmb->token, dmb->idx);
	return TEST_SUCCESS;
}

/* Polls dev for one event, for a bounded time; 1, 0 (none) or -errno. */
static int
ism_test_event_wait(uint16_t dev, struct rte_ism_event *ev)
{
	unsigned int ms;
	int n = 0;

	for (ms = 0; ms < ISM_TEST_EVENT_WAIT_MS && n == 0; ms++) {
		n = rte_ism_event_poll(dev, ev, 1);
		if (n == 0)
			rte_delay_us_sleep(1000);
	}
	return n;
}

static int
test_ism_info(void)
{
	struct rte_ism_dev_info info;
	unsigned int n = 0;
	uint16_t id;

	TEST_ASSERT(rte_ism_dev_count() >= 2, "%u devices",
		    rte_ism_dev_count());
	RTE_ISM_FOREACH_DEV(id)
		n++;
	TEST_ASSERT_EQUAL(n, rte_ism_dev_count(), "FOREACH saw %u", n);
	TEST_ASSERT(rte_ism_is_valid_dev(ism_test.a), "A not valid");
	TEST_ASSERT_SUCCESS(rte_ism_info_get(ism_test.a, &info), "info_get");
	TEST_ASSERT(strcmp(info.name, ism_test_names[0]) == 0, "name %s",
		    info.name);
	TEST_ASSERT(info.driver_name != NULL && info.backend != NULL,
		    "no driver or backend name");
	TEST_ASSERT(info.started, "not started after probe");
	TEST_ASSERT(info.max_dmbs > 0 && info.max_dmb_len >= ISM_TEST_DMB_LEN,
		    "limits %u DMBs of %u bytes", info.max_dmbs,
		    info.max_dmb_len);
	TEST_ASSERT(!rte_ism_gid_equal(&ism_test.ia.gid, &ism_test.ib.gid),
		    "A and B share a GID");
	TEST_ASSERT_EQUAL(ism_test.ia.chid, ism_test.ib.chid,
			  "A and B in different fabrics");
	TEST_ASSERT(ism_test.ia.serial != ism_test.ib.serial,
		    "A and B share a serial");
	return TEST_SUCCESS;
}

/* Ids that are not devices and NULL pointers: -ENODEV, -EINVAL. */
static int
test_ism_bad_args(void)
{
	const uint16_t ids[] = { RTE_ISM_MAX_DEVS, UINT16_MAX };
	struct rte_ism_dmb dmb = { .len = 64, .rgid = ism_test.ib.gid };
	struct rte_ism_gid zero = { 0, 0 };
	struct rte_ism_dev_info info;
	struct rte_ism_stats st;
	struct rte_ism_event ev;
	unsigned int i;
	uint16_t id;

	for (i = 0; i < RTE_DIM(ids); i++) {
		id = ids[i];
		TEST_ASSERT(!rte_ism_is_valid_dev(id), "id %u valid", id);
		TEST_ASSERT_EQUAL(rte_ism_info_get(id, &info), -ENODEV,
				  "info_get %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dev_start(id), -ENODEV,
				  "dev_start %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dmb_register(id, &dmb), -ENODEV,
				  "dmb_register %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(id, 1ULL << 40),
				  -ENODEV, "dmb_unregister %u", id);
		TEST_ASSERT_EQUAL(rte_ism_event_poll(id, &ev, 1), -ENODEV,
				  "event_poll %u", id);
		TEST_ASSERT_EQUAL(rte_ism_stats_get(id, &st), -ENODEV,
				  "stats_get %u", id);
		TEST_ASSERT_EQUAL(rte_ism_dev_close(id), -ENODEV,
				  "dev_close %u", id);
	}
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id("ism_no_such_device"), -ENODEV,
			  "get_dev_id of no device");
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id(NULL), -EINVAL, "NULL name");
	TEST_ASSERT_EQUAL(rte_ism_info_get(ism_test.a, NULL), -EINVAL,
			  "NULL info");
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(ism_test.a, NULL), -EINVAL,
			  "NULL DMB");
	TEST_ASSERT_EQUAL(rte_ism_event_poll(ism_test.a, NULL, 1), -EINVAL,
			  "NULL events");
	TEST_ASSERT_EQUAL(rte_ism_signal_event(ism_test.a, &zero, 0, 1, 2),
			  -EINVAL, "zero GID");
	TEST_ASSERT_EQUAL(rte_ism_stats_get(ism_test.a, NULL), -EINVAL,
			  "NULL stats");
	/* A DMB without a length, or with reserved bytes set. */
	dmb.len = 0;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(ism_test.a, &dmb), -EINVAL,
			  "DMB of 0 bytes");
	dmb.len = 64;
	dmb.reserved[0] = 1;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(ism_test.a, &dmb), -EINVAL,
			  "reserved bytes set");
	return TEST_SUCCESS;
}

/* B writes A's DMB: the bytes land, sf=1 raises the element once. */
static int
test_ism_move_signal(void)
{
	struct rte_ism_move_seg seg[2];
	struct rte_ism_signal sig[4];
	struct rte_ism_stats st;
	struct rte_ism_dmb d;
	const uint8_t *mem;
	uint8_t buf[256];
	unsigned int i;

	TEST_ASSERT_SUCCESS(ism_test_register(&d, ISM_TEST_DMB_LEN),
			    "register");
	mem = d.addr;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	TEST_ASSERT_SUCCESS(rte_ism_stats_reset(ism_test.b), "stats_reset");

	/* sf=0: data, no signal. */
	TEST_ASSERT_SUCCESS(rte_ism_move_data(ism_test.b, d.token, 3, 0, 100,
					      buf, sizeof(buf)), "move_data");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(mem + 100, buf, sizeof(buf),
				      "moved data differs");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(ism_test.a, sig, RTE_DIM(sig)),
			  0, "a move with sf=0 raised a signal");

	/* sf=1 on two elements: one entry, both bits, then nothing. */
	TEST_ASSERT_SUCCESS(rte_ism_move_data(ism_test.b, d.token, 0, 1,
					      ISM_TEST_DMB_LEN - 1, buf, 1),
			    "move_data to the last byte");
	TEST_ASSERT_EQUAL(mem[ISM_TEST_DMB_LEN - 1], buf[0], "last byte");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(ism_test.b, d.token,
					      RTE_ISM_DMBE_MAX - 1, 1, 0,
					      buf + 1, 1), "move_data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(ism_test.a, sig, RTE_DIM(sig)),
			  1, "signal_poll");
	TEST_ASSERT(sig[0].dmb_idx == d.idx &&
		    sig[0].mask == (1u | 1u << (RTE_ISM_DMBE_MAX - 1)),
		    "signal idx %u mask 0x%x", sig[0].dmb_idx, sig[0].mask);
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(ism_test.a, sig, RTE_DIM(sig)),
			  0, "a signal seen twice");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(ism_test.b, sig, RTE_DIM(sig)),
			  0, "the writer got a signal");

	/* A burst of two segments with a signal. */
	seg[0] = (struct rte_ism_move_seg){ .data = buf, .offset = 0,
					    .len = 10 };
	seg[1] = (struct rte_ism_move_seg){ .data = buf + 10, .offset = 2000,
					    .len = 20 };
	TEST_ASSERT_EQUAL(rte_ism_move_burst(ism_test.b, d.token, 5, 1, seg,
					     RTE_DIM(seg)), 0, "move_burst");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(mem, buf, 10, "burst segment 0");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(mem + 2000, buf + 10, 20,
				      "burst segment 1");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(ism_test.a, sig, RTE_DIM(sig)),
			  1, "signal_poll after the burst");
	TEST_ASSERT_EQUAL(sig[0].mask, 1u << 5, "burst signal mask");

	/* Counted on the writer. */
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(ism_test.b, &st), "stats_get");
	TEST_ASSERT(st.moves == 5 && st.bytes == sizeof(buf) + 2 + 30 &&
		    st.signals == 3 && st.errors == 0,
		    "stats: %" PRIu64 " moves %" PRIu64 " bytes %" PRIu64
		    " signals %" PRIu64 " errors", st.moves, st.bytes,
		    st.signals, st.errors);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(ism_test.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* Each refusal has its errno and writes nothing. */
static int
test_ism_move_refused(void)
{
	struct rte_ism_signal sig[2];
	struct rte_ism_dmb d;
	uint8_t buf[64], zero[ISM_TEST_DMB_LEN];
	uint64_t tok;

	memset(buf, 0xa5, sizeof(buf));
	memset(zero, 0, sizeof(zero));
	TEST_ASSERT_SUCCESS(ism_test_register(&d, ISM_TEST_DMB_LEN),
			    "register");
	memset(d.addr, 0, ISM_TEST_DMB_LEN);
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, d.token ^ (1ULL << 40),
					    0, 1, 0, buf, 1), -ENOENT,
			  "unknown token");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, 0, 0, 1, 0, buf, 1),
			  -ENOENT, "token 0");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.a, d.token, 0, 1, 0, buf,
					    1), -EACCES, "not the writer");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, d.token, 0, 1,
					    ISM_TEST_DMB_LEN - 63, buf, 64),
			  -ERANGE, "past the end");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, d.token, 0, 1,
					    UINT32_MAX, buf, 2), -ERANGE,
			  "offset + len overflowing");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, d.token, 0, 1, 0, buf,
					    0), -EINVAL, "zero length");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, d.token,
					    RTE_ISM_DMBE_MAX, 1, 0, buf, 1),
			  -EINVAL, "element out of range");
	TEST_ASSERT_BUFFERS_ARE_EQUAL(d.addr, zero, ISM_TEST_DMB_LEN,
				      "a refused move wrote data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(ism_test.a, sig, RTE_DIM(sig)),
			  0, "a refused move raised a signal");

	/* A stopped writer refuses; started again, the DMB is still there. */
	TEST_ASSERT_SUCCESS(rte_ism_dev_stop(ism_test.b), "dev_stop");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, d.token, 0, 0, 0, buf,
					    1), -ENODEV, "stopped writer");
	TEST_ASSERT_SUCCESS(rte_ism_dev_start(ism_test.b), "dev_start");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(ism_test.b, d.token, 0, 0, 0, buf,
					      1), "move after a restart");

	/* Unregistered: the token is stale, a second unregister refused. */
	tok = d.token;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(ism_test.a, tok),
			    "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.b, tok, 0, 1, 0, buf, 1),
			  -ENOENT, "stale token");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(ism_test.a, tok), -ENOENT,
			  "unregistered twice");
	return TEST_SUCCESS;
}

/* A software event from A reaches B with its code, info and sender. */
static int
test_ism_event(void)
{
	struct rte_ism_event ev;

	if (!(ism_test.ia.capa & RTE_ISM_CAPA_SIGNAL_EVENT)) {
		TEST_ASSERT_EQUAL(rte_ism_signal_event(ism_test.a,
						       &ism_test.ib.gid, 0,
						       1, 2), -ENOTSUP,
				  "signal_event without the capability");
		return TEST_SKIPPED;
	}
	/* Nothing left over from the cases before. */
	while (rte_ism_event_poll(ism_test.b, &ev, 1) > 0)
		;
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(ism_test.a, &ism_test.ib.gid,
						 0, 0x42,
						 0x1122334455667788ULL),
			    "signal_event");
	TEST_ASSERT_EQUAL(ism_test_event_wait(ism_test.b, &ev), 1,
			  "no event on B");
	TEST_ASSERT(ev.type == RTE_ISM_EVENT_SW && ev.code == 0x42 &&
		    ev.info == 0x1122334455667788ULL &&
		    rte_ism_gid_equal(&ev.gid, &ism_test.ia.gid),
		    "event type %u code 0x%x info 0x%" PRIx64, ev.type,
		    ev.code, ev.info);
	return TEST_SUCCESS;
}

/* Closing a device frees its DMBs; every call on its id is refused. */
static int
test_ism_close(void)
{
	static const char name[] = ISM_TEST_DRV "_autotest_c";
	struct rte_ism_dev_info info;
	struct rte_ism_dmb d;
	uint16_t count;
	uint8_t b = 1;
	int c;

	TEST_ASSERT_SUCCESS(rte_vdev_init(name, NULL), "create %s", name);
	c = rte_ism_get_dev_id(name);
	if (c < 0) {
		rte_vdev_uninit(name);
		TEST_ASSERT(false, "%s has no id: %d", name, c);
	}
	memset(&d, 0, sizeof(d));
	d.len = 64;
	d.rgid = ism_test.ia.gid;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(c, &d), "register on C");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(ism_test.a, d.token, 0, 0, 0, &b,
					      1), "move to C's DMB");
	count = rte_ism_dev_count();
	TEST_ASSERT_SUCCESS(rte_ism_dev_close(c), "dev_close");
	TEST_ASSERT(!rte_ism_is_valid_dev(c), "closed device valid");
	TEST_ASSERT_EQUAL(rte_ism_dev_count(), count - 1, "dev_count");
	TEST_ASSERT_EQUAL(rte_ism_info_get(c, &info), -ENODEV, "closed");
	TEST_ASSERT_EQUAL(rte_ism_dev_close(c), -ENODEV, "closed twice");
	TEST_ASSERT_EQUAL(rte_ism_move_data(ism_test.a, d.token, 0, 0, 0, &b,
					    1), -ENOENT,
			  "a DMB of the closed device");
	TEST_ASSERT_SUCCESS(rte_vdev_uninit(name), "remove %s", name);
	return TEST_SUCCESS;
}

static struct unit_test_suite ism_testsuite = {
	.suite_name = "ISM library and loopback driver",
	.setup = ism_test_setup,
	.teardown = ism_test_teardown,
	.unit_test_cases = {
		TEST_CASE(test_ism_info),
		TEST_CASE(test_ism_bad_args),
		TEST_CASE(test_ism_move_signal),
		TEST_CASE(test_ism_move_refused),
		TEST_CASE(test_ism_event),
		TEST_CASE(test_ism_close),
		TEST_CASES_END()
	}
};

static int
test_ism(void)
{
	return unit_test_suite_runner(&ism_testsuite);
}

REGISTER_FAST_TEST(ism_autotest, true, true, test_ism);
