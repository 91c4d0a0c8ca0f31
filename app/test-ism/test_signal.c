/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Signal semantics: sf=0 raises nothing, a raised element is seen exactly
 * once, raises coalesce, nothing is lost when the poll array is small.
 */

#include <stdlib.h>

#include "test_ism.h"

static int
test_sf0_silent(void)
{
	struct rte_ism_dmb d;
	struct rte_ism_signal sig[4];
	char b = 1;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 5, 0, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, 4), "signal_poll");
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.b, sig, 4), "signal_poll");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static int
test_sf1_once(void)
{
	struct rte_ism_dmb d;
	struct rte_ism_signal sig[4];
	char b = 1;
	uint32_t e;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	for (e = 0; e < RTE_ISM_DMBE_MAX; e++) {
		TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, e, 1, 0,
						      &b, 1), "move_data");
		TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.b, sig, 4),
				    "signal_poll");
		TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, sig, 4), 1,
				  "signal_poll");
		TEST_ASSERT(sig[0].dmb_idx == d.idx && sig[0].mask == 1u << e,
			    "element %u: idx %u mask 0x%x", e, sig[0].dmb_idx,
			    sig[0].mask);
		TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, 4),
				    "signal_poll");
	}
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static int
test_coalescing(void)
{
	struct rte_ism_dmb d;
	struct rte_ism_signal sig[4];
	char b = 1;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 0, 1, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 9, 1, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 0, 1, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, sig, 4), 1, "signal_poll");
	TEST_ASSERT(sig[0].mask == ((1u << 0) | (1u << 9)), "mask 0x%x",
		    sig[0].mask);
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, 4), "signal_poll");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* Many DMBs signalled; a poll array of 3 drains them over several polls,
 * each exactly once.
 */
#define SMALL_POLL_DMBS	200

static int
small_poll_array(struct rte_ism_dmb *d)
{
	struct rte_ism_signal sig[3];
	uint8_t seen[RTE_ISM_DMB_IDX_FIRST + 4096] = { 0 };
	uint64_t seed = 5;
	unsigned int i, j, total = 0, polls = 0;
	int n, k;
	char b = 0;

	for (i = 0; i < SMALL_POLL_DMBS; i++)
		TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d[i]),
				    "register DMB %u", i);
	/* Signal every other DMB, in random order. */
	for (i = 0; i < SMALL_POLL_DMBS; i++) {
		j = fx_rand(&seed) % SMALL_POLL_DMBS;
		if (j % 2 == 0 && seen[d[j].idx] == 0) {
			seen[d[j].idx] = 1;
			TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d[j].token,
							      1, 1, 0, &b, 1),
					    "raise DMB %u", j);
			total++;
		}
	}
	while ((n = rte_ism_signal_poll(fx.a, sig, RTE_DIM(sig))) > 0) {
		polls++;
		for (k = 0; k < n; k++) {
			TEST_ASSERT(seen[sig[k].dmb_idx] == 1 &&
				    sig[k].mask == 2,
				    "idx %u mask 0x%x unexpected",
				    sig[k].dmb_idx, sig[k].mask);
			seen[sig[k].dmb_idx] = 2;
			total--;
		}
	}
	TEST_ASSERT(n == 0 && total == 0 && polls >= 2,
		    "%u signals not reported (%d, %u polls)", total, n, polls);
	return TEST_SUCCESS;
}

static int
test_small_poll_array(void)
{
	struct rte_ism_dmb *d;
	unsigned int i;
	int ret;

	d = calloc(SMALL_POLL_DMBS, sizeof(*d));
	TEST_ASSERT_NOT_NULL(d, "calloc");
	ret = small_poll_array(d);
	for (i = 0; i < SMALL_POLL_DMBS; i++)
		if (d[i].token)
			rte_ism_dmb_unregister(fx.a, d[i].token);
	free(d);
	return ret;
}

/* A signal raised for a DMB that is then unregistered is not reported for
 * the next DMB on the same index.
 */
static int
test_signal_after_unregister(void)
{
	struct rte_ism_dmb d, e;
	struct rte_ism_signal sig[4];
	char b = 1;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 3, 1, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	e = d;
	e.token = 0;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &e), "dmb_register");
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, 4), "signal_poll");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, e.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static int
test_poll_zero_capacity(void)
{
	struct rte_ism_dmb d;
	struct rte_ism_signal sig[1];
	char b = 1;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 0, 1, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, 0), "signal_poll");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, sig, 1), 1, "signal_poll");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* Indices at the edges of the signal layout (cache-line groups, the last
 * index of the device) are each reported once, with their own mask.
 */
#define EDGE_NB	7

/* Raise d[i] (index want[i]) with element i; each reported once. */
static int
index_edges(const struct rte_ism_dmb *d, const uint32_t *want)
{
	struct rte_ism_signal sig[EDGE_NB + 1];
	unsigned int i, j, seen = 0;
	char b = 1;
	int n;

	for (i = 0; i < EDGE_NB; i++)
		TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d[i].token, i, 1,
						      0, &b, 1),
				    "raise index %u", want[i]);
	n = rte_ism_signal_poll(fx.a, sig, RTE_DIM(sig));
	for (j = 0; j < (unsigned int)RTE_MAX(n, 0); j++) {
		for (i = 0; i < EDGE_NB; i++)
			if (sig[j].dmb_idx == want[i] &&
			    sig[j].mask == 1u << i && !(seen & 1u << i))
				break;
		TEST_ASSERT(i < EDGE_NB, "unexpected idx %u mask 0x%x",
			    sig[j].dmb_idx, sig[j].mask);
		seen |= 1u << i;
	}
	TEST_ASSERT_EQUAL(n, EDGE_NB, "signals for %u raises", EDGE_NB);
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, RTE_DIM(sig)),
			    "signals left after the poll");
	return TEST_SUCCESS;
}

static int
test_index_edges(void)
{
	uint32_t last = RTE_ISM_DMB_IDX_FIRST + fx.ia.max_dmbs - 1;
	const uint32_t want[EDGE_NB] = { RTE_ISM_DMB_IDX_FIRST, 55, 56, 87,
					 88, last - 1, last };
	struct rte_ism_dmb d[EDGE_NB];
	unsigned int i;
	int ret;

	memset(d, 0, sizeof(d));
	for (i = 0; i < EDGE_NB; i++) {
		d[i].len = 64;
		d[i].rgid = fx.ib.gid;
		d[i].idx = want[i];
		TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &d[i]),
				    "register index %u", want[i]);
	}
	ret = index_edges(d, want);
	for (i = 0; i < EDGE_NB; i++)
		rte_ism_dmb_unregister(fx.a, d[i].token);
	return ret;
}

static const struct test_case signal_cases[] = {
	{ "sf0_raises_nothing", test_sf0_silent },
	{ "sf1_seen_once", test_sf1_once },
	{ "coalescing", test_coalescing },
	{ "small_poll_array", test_small_poll_array },
	{ "signal_after_unregister", test_signal_after_unregister },
	{ "poll_zero_capacity", test_poll_zero_capacity },
	{ "index_edges", test_index_edges },
	{ NULL, NULL },
};

const struct test_suite suite_signal = { "signal", signal_cases, 1 };
