/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Events: software events, buffer and device events, queue overflow. */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rte_cycles.h>
#include <rte_log.h>

#include "test_ism.h"

/*
 * Poll dev until an event of this type/code shows up, waiting for events
 * still on their way (FX_EVENT_WAIT_S, see fx_event_wait()).
 */
static int
find_event(uint16_t dev, uint32_t type, uint32_t code,
		struct rte_ism_event *out)
{
	struct rte_ism_event ev;

	while (fx_event_wait(dev, &ev, 1, 1) == 1)
		if (ev.type == type && ev.code == code) {
			*out = ev;
			return 0;
		}
	return -ENOENT;
}

static int
test_sw_event(void)
{
	struct rte_ism_event ev[4];
	struct rte_ism_gid stranger = { 0x5eed, 0x1 };
	uint64_t before, after;

	if (!(fx.ia.capa & RTE_ISM_CAPA_SIGNAL_EVENT)) {
		TEST_ASSERT_EQUAL(rte_ism_signal_event(fx.a, &fx.ib.gid, 1,
						       0x80, 7), -ENOTSUP,
				  "signal_event");
		return TEST_SUCCESS;
	}
	before = rte_ism_time_ns();
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(fx.a, &fx.ib.gid, 1, 0x83,
						 0x1122334455667788ULL),
			    "signal_event");
	TEST_ASSERT_EQUAL(fx_event_wait(fx.b, ev, 1, 4), 1, "event_poll");
	after = rte_ism_time_ns();
	TEST_ASSERT_SUCCESS(rte_ism_event_poll(fx.a, ev + 1, 3), "event_poll");
	/* The event's time is on the clock of rte_ism_time_ns(). */
	TEST_ASSERT(before <= ev[0].time && ev[0].time <= after,
		    "queued at %" PRIu64 ", not in [%" PRIu64 ", %" PRIu64 "]",
		    ev[0].time, before, after);
	TEST_ASSERT(ev[0].type == RTE_ISM_EVENT_SW && ev[0].code == 0x83 &&
		    ev[0].info == 0x1122334455667788ULL &&
		    rte_ism_gid_equal(&ev[0].gid, &fx.ia.gid) && ev[0].time,
		    "type %u code 0x%x info 0x%" PRIx64, ev[0].type,
		    ev[0].code, ev[0].info);
	TEST_ASSERT_SUCCESS(rte_ism_event_poll(fx.b, ev, 4), "event_poll");
	/* In order, several at once. */
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(fx.a, &fx.ib.gid, 0, 1, 10),
			    "signal_event");
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(fx.a, &fx.ib.gid, 0, 2, 20),
			    "signal_event");
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(fx.b, &fx.ib.gid, 0, 3, 30),
			    "signal_event");
	TEST_ASSERT_EQUAL(fx_event_wait(fx.b, ev, 3, 4), 3, "event_poll");
	TEST_ASSERT(ev[0].code == 1 && ev[1].code == 2 && ev[2].code == 3 &&
		    rte_ism_gid_equal(&ev[2].gid, &fx.ib.gid), "order");
	TEST_ASSERT_EQUAL(rte_ism_signal_event(fx.a, &stranger, 0, 1, 1),
			  -ENETUNREACH, "signal_event");
	return TEST_SUCCESS;
}

/*
 * The GID of a BUF event. Software backends name the peer; the event entry
 * of an ISM PCI function carries only the DMB token (struct ism_event in
 * Linux's drivers/s390/net/ism.h: type, code, tok, time, info), so on a
 * hardware device the GID is zero.
 */
static bool
buf_event_gid_ok(const struct rte_ism_event *ev, const struct rte_ism_gid *peer)
{
	if (fx.ia.capa & RTE_ISM_CAPA_HW)
		return ev->gid.gid == 0 && ev->gid.gid_ext == 0;
	return rte_ism_gid_equal(&ev->gid, peer);
}

static int
test_buf_unregistered(void)
{
	struct rte_ism_dmb d;
	struct rte_ism_event ev;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_SUCCESS(find_event(fx.b, RTE_ISM_EVENT_BUF,
				       RTE_ISM_BUF_UNREGISTERED, &ev),
			    "find_event");
	TEST_ASSERT(ev.token == d.token && buf_event_gid_ok(&ev, &fx.ia.gid),
		    "token/gid");
	return TEST_SUCCESS;
}

/* A device joining and leaving the fabric; its DMBs' owners are told. */
static int
test_dev_events(void)
{
	char name[RTE_ISM_NAME_LEN];
	struct rte_ism_dev_info ic;
	struct rte_ism_event ev;
	struct rte_ism_dmb d;
	int c;

	c = fx_spawn(NULL, name, sizeof(name));
	if (FX_SPAWN_SKIPPED(c))
		return TEST_SKIPPED;
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	TEST_ASSERT_SUCCESS(rte_ism_info_get(c, &ic), "info_get");
	/* The ISM device has no "peer joined" event, only software ones. */
	if (!(fx.ia.capa & RTE_ISM_CAPA_HW)) {
		TEST_ASSERT_SUCCESS(find_event(fx.a, RTE_ISM_EVENT_DEV,
					       RTE_ISM_DEV_ENABLED, &ev),
				    "find_event");
		TEST_ASSERT(rte_ism_gid_equal(&ev.gid, &ic.gid), "joined GID");
		TEST_ASSERT_SUCCESS(find_event(fx.b, RTE_ISM_EVENT_DEV,
					       RTE_ISM_DEV_ENABLED, &ev),
				    "find_event");
	}
	/* A DMB on A that only C may write. */
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &ic.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove a spawned device");
	TEST_ASSERT_SUCCESS(find_event(fx.a, RTE_ISM_EVENT_BUF,
				       RTE_ISM_BUF_USER_DISABLED, &ev),
			    "find_event");
	TEST_ASSERT(ev.token == d.token && buf_event_gid_ok(&ev, &ic.gid),
		    "BUF event token/gid");
	TEST_ASSERT_SUCCESS(find_event(fx.a, RTE_ISM_EVENT_DEV,
				       RTE_ISM_DEV_DISABLED, &ev),
			    "find_event");
	TEST_ASSERT(rte_ism_gid_equal(&ev.gid, &ic.gid), "left GID (A)");
	TEST_ASSERT_SUCCESS(find_event(fx.b, RTE_ISM_EVENT_DEV,
				       RTE_ISM_DEV_DISABLED, &ev),
			    "find_event");
	TEST_ASSERT(rte_ism_gid_equal(&ev.gid, &ic.gid), "left GID (B)");
	/* The DMB stays valid for its owner. */
	memset(d.addr, 0x5a, d.len);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/*
 * A full queue drops and counts, never overwrites. Each event is awaited
 * before the next is sent: through an interrupt that arrives a while
 * later, a burst would overrun the ISM function's ring of 15 events (lost
 * on the device, as the hardware does) before the queue is full.
 */
static int
test_queue_overflow(void)
{
	struct rte_ism_event ev[64];
	struct rte_ism_stats st0, st1;
	unsigned int i, got = 0;
	int n;

	if (!(fx.ia.capa & RTE_ISM_CAPA_SIGNAL_EVENT))
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st0), "stats_get");
	for (i = 0; i < RTE_ISM_EVENT_QUEUE_SIZE + 100; i++) {
		TEST_ASSERT_SUCCESS(rte_ism_signal_event(fx.a, &fx.ib.gid, 0,
							 0x42, i),
				    "signal_event");
		TEST_ASSERT_SUCCESS(fx_events_wait(fx.b, st0.events +
						   st0.events_dropped + i + 1),
				    "event %u arrived", i);
	}
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st1), "stats_get");
	TEST_ASSERT(st1.events_dropped - st0.events_dropped == 100,
		    "dropped %" PRIu64, st1.events_dropped - st0.events_dropped);
	while ((n = rte_ism_event_poll(fx.b, ev, RTE_DIM(ev))) > 0) {
		for (i = 0; i < (unsigned int)n; i++)
			TEST_ASSERT(ev[i].info == got + i, "event %u has info "
				    "%" PRIu64, got + i, ev[i].info);
		got += n;
	}
	TEST_ASSERT(got == RTE_ISM_EVENT_QUEUE_SIZE, "got %u", got);
	return TEST_SUCCESS;
}

/* Lines of log holding needle. */
static unsigned int
count_lines(const char *log, const char *needle)
{
	unsigned int n = 0;
	const char *p = log;

	while (p != NULL && (p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/*
 * A caller retrying signal_event to a GID that is not there (a HELLO to a
 * peer not up yet) gets -ENETUNREACH each time, but the log gets a line
 * only at first and then at most one per second: the bound comes from the
 * time the calls took, not from a guess of it.
 */
static int
test_sw_event_log_limited(void)
{
	struct rte_ism_gid stranger = { 0x5eed, 0x2 };
	FILE *f, *old = rte_log_get_stream();
	uint64_t t0, secs;
	unsigned int i, lines, fails = 0;
	char *log = NULL;
	size_t len = 0;

	if (!(fx.ia.capa & RTE_ISM_CAPA_SIGNAL_EVENT))
		return TEST_SKIPPED;
	f = open_memstream(&log, &len);
	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	rte_openlog_stream(f);
	t0 = rte_get_timer_cycles();
	for (i = 0; i < 1000; i++)
		fails += rte_ism_signal_event(fx.a, &stranger, 0, 1, i) ==
			-ENETUNREACH;
	secs = (rte_get_timer_cycles() - t0) / rte_get_timer_hz();
	rte_openlog_stream(old);
	fclose(f);
	lines = count_lines(log, "cannot signal event");
	free(log);
	TEST_ASSERT_EQUAL(fails, 1000u, "calls that failed with -ENETUNREACH");
	/* The earlier tests' failures may have taken this second's line. */
	TEST_ASSERT(lines <= 2 + secs,
		    "%u log lines for 1000 failures in %" PRIu64 " s", lines,
		    secs);
	return TEST_SUCCESS;
}

static uint64_t
monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The events' clock is CLOCK_MONOTONIC, which other processes (and the
 * test harnesses) read too.
 */
static int
test_clock(void)
{
	uint64_t before, now, after;

	before = monotonic_ns();
	now = rte_ism_time_ns();
	after = monotonic_ns();
	TEST_ASSERT(before <= now && now <= after,
		    "rte_ism_time_ns() %" PRIu64 " not in [%" PRIu64 ", %"
		    PRIu64 "] of CLOCK_MONOTONIC", now, before, after);
	return TEST_SUCCESS;
}

static const struct test_case events_cases[] = {
	{ "clock", test_clock },
	{ "sw_event", test_sw_event },
	{ "sw_event_log_limited", test_sw_event_log_limited },
	{ "buf_unregistered", test_buf_unregistered },
	{ "dev_events", test_dev_events },
	{ "queue_overflow", test_queue_overflow },
	{ NULL, NULL },
};

const struct test_suite suite_events = { "events", events_cases, 1 };
