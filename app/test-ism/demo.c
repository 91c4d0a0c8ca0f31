/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The demo: move_data between two loopback ISM devices on one lcore, per
 * size from 64 B to 1 MiB, next to libc memcpy between buffers of the same
 * kind measured in the same run. Prints a table; the figures are for
 * looking at, not asserted (see the perf mode and devtools/ for benchmarks).
 */

#include <getopt.h>
#include <stdlib.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_malloc.h>

#include "test_ism.h"

#define DMB_LEN (1u << 20)

/* The copy a move is compared with; through a pointer like a real call. */
static void *(*volatile ref_memcpy)(void *, const void *, size_t) = memcpy;

static double
gbps(uint64_t bytes, uint64_t cycles)
{
	return (double)bytes / ((double)cycles / rte_get_tsc_hz()) / 1e9;
}

int
demo_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "iters", required_argument, NULL, 'i' },
		{ NULL, 0, NULL, 0 },
	};
	struct rte_ism_dmb dmb = { .len = DMB_LEN };
	struct rte_ism_dev_info rx, tx;
	uint64_t mib = 256, bytes, n, i, t0, t_move, t_copy;
	uint32_t size, off;
	uint8_t *src, *dst;
	int c, rxid, txid, ret = 1;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'i')
			mib = strtoull(optarg, NULL, 0);
		if (c != 'i' || mib == 0) {
			printf("usage: demo [--iters MiB-per-size]\n");
			return 2;
		}
	}
	if (rte_vdev_init("ism_lo_demo_rx", NULL) < 0 ||
	    rte_vdev_init("ism_lo_demo_tx", NULL) < 0) {
		printf("cannot create the loopback devices\n");
		goto out;
	}
	rxid = rte_ism_get_dev_id("ism_lo_demo_rx");
	txid = rte_ism_get_dev_id("ism_lo_demo_tx");
	rte_ism_info_get(rxid, &rx);
	rte_ism_info_get(txid, &tx);
	/* The receiver registers a DMB that only the sender may write. */
	dmb.rgid = tx.gid;
	if (rte_ism_dmb_register(rxid, &dmb) < 0)
		goto out;
	src = rte_malloc(NULL, DMB_LEN, RTE_CACHE_LINE_SIZE);
	dst = rte_malloc(NULL, DMB_LEN, RTE_CACHE_LINE_SIZE);
	if (src == NULL || dst == NULL) {
		printf("no memory for the reference buffers\n");
		goto out_free;
	}
	memset(src, 0xa5, DMB_LEN);
	memset(dst, 0, DMB_LEN);

	printf("\nISM move_data between two loopback devices (%s -> %s), one "
	       "lcore,\n%" PRIu64 " MiB per size; GB/s = 1e9 bytes/s\n\n",
	       tx.name, rx.name, mib);
	printf("%10s %14s %14s %10s %14s\n", "size", "move_data GB/s",
	       "memcpy GB/s", "ratio", "moves/s (M)");
	for (size = 64; size <= DMB_LEN; size *= 4) {
		n = RTE_MAX(mib * (1 << 20) / size, (uint64_t)1000);
		bytes = n * size;
		/* Walk through the DMB like a ring would. */
		t0 = rte_rdtsc_precise();
		for (i = 0, off = 0; i < n; i++) {
			if (rte_ism_move_data(txid, dmb.token, 0, 0, off, src,
					      size) != 0) {
				printf("move failed\n");
				goto out_free;
			}
			off = (off + size) % DMB_LEN;
		}
		t_move = rte_rdtsc_precise() - t0;
		t0 = rte_rdtsc_precise();
		for (i = 0, off = 0; i < n; i++) {
			ref_memcpy(dst + off, src, size);
			off = (off + size) % DMB_LEN;
		}
		t_copy = rte_rdtsc_precise() - t0;
		printf("%8u B %14.2f %14.2f %10.2f %14.2f\n", size,
		       gbps(bytes, t_move), gbps(bytes, t_copy),
		       (double)t_copy / t_move,
		       n / ((double)t_move / rte_get_tsc_hz()) / 1e6);
	}
	if (memcmp(dmb.addr, src, DMB_LEN) != 0) {
		printf("DMB content differs from the source\n");
		goto out_free;
	}
	printf("\ndata checked: the DMB holds what was moved\n");
	ret = 0;
out_free:
	rte_free(src);
	rte_free(dst);
	rte_ism_dmb_unregister(rxid, dmb.token);
out:
	rte_vdev_uninit("ism_lo_demo_tx");
	rte_vdev_uninit("ism_lo_demo_rx");
	return ret;
}
