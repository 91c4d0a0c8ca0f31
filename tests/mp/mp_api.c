/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Every function of rte_ism.h called in a secondary process, on a device of
 * the primary (dpdk-ism-mp-tool api): each either works read-only or
 * returns the error rte_ism.h documents for a secondary (-E_RTE_SECONDARY;
 * -ENODEV for the fast path), never crashes. The list of the header's
 * functions is generated from rte_ism.h at build time (mp_api_names.py):
 * a function with no call here fails the test, so that a new one cannot
 * be left out.
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <rte_errno.h>
#include <rte_interrupts.h>

#include <rte_ism.h>

#include "mp_api.h"
#include "mp_api_names.h"

/* What a call returned against what it should have. */
struct api_ctx {
	uint16_t id;
	struct rte_ism_dev_info info;
	int failures;
};

static void
expect(struct api_ctx *c, const char *fn, long got, long want)
{
	if (got == want) {
		printf("MP-TOOL: api %s: %ld\n", fn, got);
		return;
	}
	printf("MP-TOOL: FAIL api %s: %ld, want %ld\n", fn, got, want);
	c->failures++;
}

#define SEC (-E_RTE_SECONDARY)

static void
removed_cb(uint16_t dev_id __rte_unused, void *arg __rte_unused)
{
}

/* One call of one function; the name is the function's. */
static void
call(struct api_ctx *c, const char *fn)
{
	struct rte_ism_dmb dmb = { .len = 64, .rgid = c->info.gid };
	struct rte_ism_xstats_name xnames[64];
	struct rte_ism_move_seg seg;
	struct rte_ism_signal sig;
	char buf[RTE_ISM_GID_STRLEN];
	struct rte_ism_stats st;
	struct rte_ism_event ev;
	struct rte_ism_gid gid;
	unsigned int xid = 0;
	uint64_t value = 0;
	char byte = 0;
	FILE *devnull;
	int n;

	seg.data = &byte;
	seg.offset = 0;
	seg.len = 1;
	if (strcmp(fn, "rte_ism_dev_count") == 0)
		expect(c, fn, rte_ism_dev_count() >= 1, 1);
	else if (strcmp(fn, "rte_ism_is_valid_dev") == 0)
		expect(c, fn, rte_ism_is_valid_dev(c->id), 1);
	else if (strcmp(fn, "rte_ism_dev_next") == 0)
		expect(c, fn, rte_ism_dev_next(c->id), c->id);
	else if (strcmp(fn, "rte_ism_get_dev_id") == 0)
		expect(c, fn, rte_ism_get_dev_id(c->info.name), c->id);
	else if (strcmp(fn, "rte_ism_info_get") == 0)
		expect(c, fn, rte_ism_info_get(c->id, &c->info), 0);
	else if (strcmp(fn, "rte_ism_dev_start") == 0)
		expect(c, fn, rte_ism_dev_start(c->id), SEC);
	else if (strcmp(fn, "rte_ism_dev_stop") == 0)
		expect(c, fn, rte_ism_dev_stop(c->id), SEC);
	else if (strcmp(fn, "rte_ism_dev_close") == 0)
		expect(c, fn, rte_ism_dev_close(c->id), SEC);
	else if (strcmp(fn, "rte_ism_dmb_register") == 0)
		expect(c, fn, rte_ism_dmb_register(c->id, &dmb), SEC);
	else if (strcmp(fn, "rte_ism_dmb_unregister") == 0)
		expect(c, fn, rte_ism_dmb_unregister(c->id, 0x1000), SEC);
	else if (strcmp(fn, "rte_ism_dmb_attach") == 0)
		expect(c, fn, rte_ism_dmb_attach(c->id, 0x1000, &dmb), SEC);
	else if (strcmp(fn, "rte_ism_dmb_detach") == 0)
		expect(c, fn, rte_ism_dmb_detach(c->id, 0x1000), SEC);
	/* The fast path is the primary's. */
	else if (strcmp(fn, "rte_ism_move_data") == 0)
		expect(c, fn, rte_ism_move_data(c->id, 0x1000, 0, 0, 0, &byte,
				1), -ENODEV);
	else if (strcmp(fn, "rte_ism_move_burst") == 0)
		expect(c, fn, rte_ism_move_burst(c->id, 0x1000, 0, 0, &seg, 1),
		       -ENODEV);
	else if (strcmp(fn, "rte_ism_signal_poll") == 0)
		expect(c, fn, rte_ism_signal_poll(c->id, &sig, 1), -ENODEV);
	else if (strcmp(fn, "rte_ism_signal_event") == 0)
		expect(c, fn, rte_ism_signal_event(c->id, &c->info.gid, 1, 1,
				0), SEC);
	else if (strcmp(fn, "rte_ism_event_poll") == 0)
		expect(c, fn, rte_ism_event_poll(c->id, &ev, 1), SEC);
	else if (strcmp(fn, "rte_ism_time_ns") == 0)
		expect(c, fn, rte_ism_time_ns() > 0, 1);
	else if (strcmp(fn, "rte_ism_query_remote_gid") == 0)
		expect(c, fn, rte_ism_query_remote_gid(c->id, &c->info.gid, 0,
				0), SEC);
	else if (strcmp(fn, "rte_ism_vlan_add") == 0)
		expect(c, fn, rte_ism_vlan_add(c->id, 5), SEC);
	else if (strcmp(fn, "rte_ism_vlan_del") == 0)
		expect(c, fn, rte_ism_vlan_del(c->id, 5), SEC);
	else if (strcmp(fn, "rte_ism_stats_get") == 0)
		expect(c, fn, rte_ism_stats_get(c->id, &st), 0);
	else if (strcmp(fn, "rte_ism_stats_reset") == 0)
		expect(c, fn, rte_ism_stats_reset(c->id), SEC);
	else if (strcmp(fn, "rte_ism_xstats_names_get") == 0)
		expect(c, fn, rte_ism_xstats_names_get(c->id, NULL, 0) > 0, 1);
	else if (strcmp(fn, "rte_ism_xstats_get") == 0)
		expect(c, fn, rte_ism_xstats_get(c->id, &xid, &value, 1), 1);
	else if (strcmp(fn, "rte_ism_xstats_get_by_name") == 0) {
		n = rte_ism_xstats_names_get(c->id, xnames, RTE_DIM(xnames));
		expect(c, fn, n >= 1 && n <= (int)RTE_DIM(xnames) ?
		       rte_ism_xstats_get_by_name(c->id, xnames[n - 1].name,
				&xid, &value) : n, 0);
	} else if (strcmp(fn, "rte_ism_xstats_reset") == 0)
		expect(c, fn, rte_ism_xstats_reset(c->id, NULL, 0), SEC);
	else if (strcmp(fn, "rte_ism_dump") == 0) {
		devnull = fopen("/dev/null", "w");
		n = devnull != NULL ? rte_ism_dump(c->id, devnull) : -errno;
		if (devnull != NULL)
			fclose(devnull);
		expect(c, fn, n, 0);
	} else if (strcmp(fn, "rte_ism_dev_selftest") == 0)
		expect(c, fn, rte_ism_dev_selftest(c->id), SEC);
	/* Process-local: a secondary's holders are its own. */
	else if (strcmp(fn, "rte_ism_dev_remove_callback_register") == 0)
		expect(c, fn, rte_ism_dev_remove_callback_register(c->id,
				removed_cb, c), 0);
	else if (strcmp(fn, "rte_ism_dev_remove_callback_unregister") == 0)
		expect(c, fn, rte_ism_dev_remove_callback_unregister(c->id,
				removed_cb, c), 0);
	/* The wake-up descriptor and its armed flag are the primary's
	 * user's. */
	else if (strcmp(fn, "rte_ism_intr_fd_get") == 0)
		expect(c, fn, rte_ism_intr_fd_get(c->id), SEC);
	else if (strcmp(fn, "rte_ism_intr_enable") == 0)
		expect(c, fn, rte_ism_intr_enable(c->id), SEC);
	else if (strcmp(fn, "rte_ism_intr_disable") == 0)
		expect(c, fn, rte_ism_intr_disable(c->id), SEC);
	else if (strcmp(fn, "rte_ism_intr_kick") == 0)
		expect(c, fn, rte_ism_intr_kick(c->id), SEC);
	else if (strcmp(fn, "rte_ism_intr_ctl") == 0)
		expect(c, fn, rte_ism_intr_ctl(c->id, RTE_EPOLL_PER_THREAD,
				RTE_INTR_EVENT_ADD, NULL), SEC);
	else if (strcmp(fn, "rte_ism_gid_parse") == 0)
		expect(c, fn, rte_ism_gid_parse("0xb2", &gid) == 0 &&
		       gid.gid == 0xb2, 1);
	else if (strcmp(fn, "rte_ism_gid_format") == 0)
		expect(c, fn, rte_ism_gid_format(&c->info.gid, buf,
				sizeof(buf)), 0);
	else if (strcmp(fn, "rte_ism_gid_equal") == 0)
		expect(c, fn, rte_ism_gid_equal(&c->info.gid, &c->info.gid), 1);
	else {
		printf("MP-TOOL: FAIL api %s: rte_ism.h declares it, and this "
		       "test does not call it (tests/mp/mp_api.c)\n", fn);
		c->failures++;
	}
}

int
mp_api_check(uint16_t id)
{
	static const char *const names[] = { MP_API_NAMES };
	struct api_ctx c = { .id = id };
	unsigned int i;

	if (rte_ism_info_get(id, &c.info) < 0) {
		printf("MP-TOOL: FAIL api: no device %u\n", id);
		return 1;
	}
	if (!(c.info.capa & RTE_ISM_CAPA_INTR)) {
		printf("MP-TOOL: FAIL api: %s has no interrupt mode: not a "
		       "device that tests every function\n", c.info.name);
		return 1;
	}
	for (i = 0; i < RTE_DIM(names); i++)
		call(&c, names[i]);
	printf("MP-TOOL: %s api (%u functions of rte_ism.h on %s)\n",
	       c.failures ? "FAIL" : "PASS", i, c.info.name);
	return c.failures ? 1 : 0;
}
