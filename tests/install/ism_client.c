/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * An application built out of tree with only `pkg-config libdpdk-ism`,
 * against the installed files: two loopback devices (loaded with -d from
 * the installed plugin directory), a DMB, a move with a signal. (The
 * assertions are the tests' own header, test_assert.h, not an installed
 * file.)
 */

#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ism.h>

#include "test_assert.h"

static const char msg[] = "hello over ISM";

/* tx moves msg with signal element 1 into dmb of rx. */
static int
move_with_signal(int rx, int tx, const struct rte_ism_dmb *dmb)
{
	struct rte_ism_signal sig;

	TEST_ASSERT_SUCCESS(rte_ism_move_data(tx, dmb->token, 1, 1, 8, msg,
					      sizeof(msg)), "move_data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(rx, &sig, 1), 1, "signal_poll");
	TEST_ASSERT_EQUAL(sig.dmb_idx, dmb->idx, "signalled index");
	TEST_ASSERT_EQUAL(sig.mask, 2, "signalled elements");
	TEST_ASSERT_BUFFERS_ARE_EQUAL((char *)dmb->addr + 8, msg, sizeof(msg),
				      "DMB content");
	return TEST_SUCCESS;
}

static int
client(void)
{
	struct rte_ism_dev_info tx_info;
	struct rte_ism_dmb dmb = { .len = 4096 };
	int rx, tx, ret;

	rx = rte_ism_get_dev_id("ism_lo0");
	tx = rte_ism_get_dev_id("ism_lo1");
	TEST_ASSERT(rx >= 0 && tx >= 0, "no devices ism_lo0 and ism_lo1");
	TEST_ASSERT_SUCCESS(rte_ism_info_get(tx, &tx_info), "info_get");
	dmb.rgid = tx_info.gid;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(rx, &dmb), "dmb_register");
	ret = move_with_signal(rx, tx, &dmb);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(rx, dmb.token),
			    "dmb_unregister");
	return ret;
}

int
main(int argc, char **argv)
{
	int ret;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	ret = client();
	printf("%s: %u ISM devices, move with signal %s\n", argv[0],
	       rte_ism_dev_count(), ret == TEST_SUCCESS ? "OK" : "FAILED");
	rte_eal_cleanup();
	return ret == TEST_SUCCESS ? 0 : 1;
}
