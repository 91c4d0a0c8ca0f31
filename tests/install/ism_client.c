/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * An application built out of tree with only `pkg-config libdpdk-ism`,
 * against the installed files: two loopback devices (loaded with -d from
 * the installed plugin directory), a DMB, a move with a signal.
 */

#include <stdio.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_ism.h>

int
main(int argc, char **argv)
{
	struct rte_ism_dev_info tx_info;
	struct rte_ism_dmb dmb = { .len = 4096 };
	struct rte_ism_signal sig;
	const char msg[] = "hello over ISM";
	int rx, tx, ok;

	if (rte_eal_init(argc, argv) < 0) {
		fprintf(stderr, "EAL init failed\n");
		return 1;
	}
	rx = rte_ism_get_dev_id("ism_lo0");
	tx = rte_ism_get_dev_id("ism_lo1");
	ok = rx >= 0 && tx >= 0 && rte_ism_info_get(tx, &tx_info) == 0;
	if (ok) {
		dmb.rgid = tx_info.gid;
		ok = rte_ism_dmb_register(rx, &dmb) == 0 &&
			rte_ism_move_data(tx, dmb.token, 1, 1, 8, msg,
					  sizeof(msg)) == 0 &&
			rte_ism_signal_poll(rx, &sig, 1) == 1 &&
			sig.dmb_idx == dmb.idx && sig.mask == 2 &&
			memcmp((char *)dmb.addr + 8, msg, sizeof(msg)) == 0 &&
			rte_ism_dmb_unregister(rx, dmb.token) == 0;
	}
	printf("%s: %u ISM devices, move with signal %s\n", argv[0],
	       rte_ism_dev_count(), ok ? "OK" : "FAILED");
	rte_eal_cleanup();
	return ok ? 0 : 1;
}
