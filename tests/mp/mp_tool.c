/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-mp-tool: a DPDK secondary process for the multi-process tests
 * (mp_test.py). It sees the primary's ISM devices through rte_ism_* only:
 *
 *   dpdk-ism-mp-tool [EAL options] -- info
 *       every ISM device: identity and counters (what a secondary may
 *       read), and every call that would change a device refused with
 *       -E_RTE_SECONDARY, the fast path with -ENODEV; exit 0 if so
 *   dpdk-ism-mp-tool [EAL options] -- api
 *       every function of rte_ism.h on the first ISM device (mp_api.c):
 *       each works read-only or returns the documented error; exit 0 if so
 *   dpdk-ism-mp-tool [EAL options] -- detach NAME
 *       ask the primary to remove the vdev NAME (DPDK's hot-unplug from a
 *       secondary process); exit 0 if it did
 *   dpdk-ism-mp-tool [EAL options] -- attach NAME ARGS
 *       ask the primary to probe the vdev NAME with ARGS
 *
 * --proc-type=secondary is added before the EAL options.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_dev.h>
#include <rte_eal.h>
#include <rte_errno.h>

#include <rte_ism.h>

#include "mp_api.h"

static int failures;

#define EXPECT(expr, want) do { \
	int r_ = (expr); \
	if (r_ != (want)) { \
		printf("MP-TOOL: FAIL %s: %s = %d, want %d\n", name, #expr, \
		       r_, (want)); \
		failures++; \
	} \
} while (0)

/* Every call that changes the device, or takes what is its user's. */
static void
refusals(uint16_t id, const char *name, const struct rte_ism_dev_info *info)
{
	const int sec = -E_RTE_SECONDARY;
	struct rte_ism_dmb dmb = { .len = 64, .rgid = info->gid };
	struct rte_ism_event ev;
	struct rte_ism_signal sig;
	char byte = 0;

	EXPECT(rte_ism_dev_stop(id), sec);
	EXPECT(rte_ism_dev_start(id), sec);
	EXPECT(rte_ism_dev_close(id), sec);
	EXPECT(rte_ism_dmb_register(id, &dmb), sec);
	EXPECT(rte_ism_dmb_unregister(id, 0x1000), sec);
	EXPECT(rte_ism_event_poll(id, &ev, 1), sec);
	EXPECT(rte_ism_signal_event(id, &info->gid, 1, 1, 0), sec);
	EXPECT(rte_ism_query_remote_gid(id, &info->gid, 0, 0), sec);
	EXPECT(rte_ism_stats_reset(id), sec);
	EXPECT(rte_ism_xstats_reset(id, NULL, 0), sec);
	EXPECT(rte_ism_dev_selftest(id), sec);
	/* The fast path is the primary's. */
	EXPECT(rte_ism_move_data(id, 0x1000, 0, 0, 0, &byte, 1), -ENODEV);
	EXPECT(rte_ism_signal_poll(id, &sig, 1), -ENODEV);
}

static void
show(uint16_t id)
{
	struct rte_ism_xstats_name names[64];
	struct rte_ism_dev_info info;
	struct rte_ism_stats st;
	char gid[RTE_ISM_GID_STRLEN];
	const char *name = "?";
	uint64_t values[64];
	unsigned int ids[64], i;
	FILE *devnull;
	int n;

	EXPECT(rte_ism_info_get(id, &info), 0);
	name = info.name;
	EXPECT(rte_ism_stats_get(id, &st), 0);
	rte_ism_gid_format(&info.gid, gid, sizeof(gid));
	printf("MP-TOOL: device %u %s backend %s gid %s serial %" PRIu64
	       " %s moves %" PRIu64 " bytes %" PRIu64 " events %" PRIu64 "\n",
	       id, info.name, info.backend, gid, info.serial,
	       info.started ? "started" : "stopped", st.moves, st.bytes,
	       st.events);
	n = rte_ism_xstats_names_get(id, names, RTE_DIM(names));
	if (n < 12 || n > (int)RTE_DIM(names)) {
		printf("MP-TOOL: FAIL %s: %d xstats\n", name, n);
		failures++;
		return;
	}
	for (i = 0; i < (unsigned int)n; i++)
		ids[i] = i;
	EXPECT(rte_ism_xstats_get(id, ids, values, n), n);
	for (i = 0; i < (unsigned int)n; i++)
		printf("MP-TOOL: xstat %s %s %" PRIu64 "\n", info.name,
		       names[i].name, values[i]);
	devnull = fopen("/dev/null", "w");
	if (devnull != NULL) {
		EXPECT(rte_ism_dump(id, devnull), 0);
		fclose(devnull);
	}
	refusals(id, name, &info);
}

static int
cmd_info(void)
{
	uint16_t id, n = 0;

	RTE_ISM_FOREACH_DEV(id) {
		show(id);
		n++;
	}
	if (n != rte_ism_dev_count() || n == 0) {
		printf("MP-TOOL: FAIL %u devices listed, count %u\n", n,
		       rte_ism_dev_count());
		failures++;
	}
	printf("MP-TOOL: %s info (%u devices)\n", failures ? "FAIL" : "PASS",
	       n);
	return failures ? 1 : 0;
}

int
main(int argc, char **argv)
{
	char **eal_argv = calloc(argc + 2, sizeof(*eal_argv));
	int ret, i, n, status = 1;

	if (eal_argv == NULL)
		return 1;
	eal_argv[0] = argv[0];
	eal_argv[1] = (char *)(uintptr_t)"--proc-type=secondary";
	for (i = 1; i < argc; i++)
		eal_argv[i + 1] = argv[i];
	ret = rte_eal_init(argc + 1, eal_argv);
	if (ret < 0) {
		printf("MP-TOOL: EAL init failed: %s\n",
		       rte_strerror(rte_errno));
		free(eal_argv);
		return 1;
	}
	n = argc + 1 - ret;
	argv = eal_argv + ret;
	if (n >= 2 && strcmp(argv[1], "info") == 0) {
		status = cmd_info();
	} else if (n >= 2 && strcmp(argv[1], "api") == 0) {
		status = rte_ism_dev_count() > 0 ?
			mp_api_check(rte_ism_dev_next(0)) : 1;
		if (rte_ism_dev_count() == 0)
			printf("MP-TOOL: FAIL api: no ISM device\n");
	} else if (n >= 3 && strcmp(argv[1], "detach") == 0) {
		ret = rte_eal_hotplug_remove("vdev", argv[2]);
		printf("MP-TOOL: detach %s: %d (%s)\n", argv[2], ret,
		       ret < 0 ? rte_strerror(-ret) : "done");
		status = ret < 0;
		/* The primary had this process forget it first. */
		if (ret == 0 && rte_ism_get_dev_id(argv[2]) >= 0) {
			printf("MP-TOOL: FAIL %s still visible here\n",
			       argv[2]);
			status = 1;
		}
	} else if (n >= 4 && strcmp(argv[1], "attach") == 0) {
		ret = rte_eal_hotplug_add("vdev", argv[2], argv[3]);
		printf("MP-TOOL: attach %s: %d (%s)\n", argv[2], ret,
		       ret < 0 ? rte_strerror(-ret) : "done");
		status = ret < 0;
	} else {
		printf("usage: %s [EAL options] -- info | api | detach NAME | "
		       "attach NAME ARGS\n", eal_argv[0]);
	}
	rte_eal_cleanup();
	free(eal_argv);
	fflush(stdout);
	return status;
}
