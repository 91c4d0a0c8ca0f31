/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Data integrity: many moves of random sizes to random offsets, checked by
 * checksum against a shadow copy of the DMB kept by the test, so bytes
 * outside each move are checked too.
 */

#include <stdlib.h>

#include "test_ism.h"

#define ROUNDS 3000

/* ROUNDS random moves into d, each checked against a shadow copy. */
static int
random_rounds(const struct rte_ism_dmb *d, uint8_t *src, uint8_t *shadow,
		bool burst, uint64_t seed)
{
	struct rte_ism_move_seg seg[8];
	uint32_t dmb_len = d->len, off, len, i, n, k;
	int r;

	for (i = 0; i < ROUNDS; i++) {
		n = burst ? 1 + fx_rand(&seed) % RTE_DIM(seg) : 1;
		for (k = 0; k < n; k++) {
			/* Mostly small, sometimes up to the whole DMB. */
			len = 1 + fx_rand(&seed) % (fx_rand(&seed) % 4 ?
						    256 : dmb_len);
			off = fx_rand(&seed) % (dmb_len - len + 1);
			fx_fill(src + off, len, &seed);
			seg[k] = (struct rte_ism_move_seg){ src + off, off,
							    len };
		}
		if (burst)
			r = rte_ism_move_burst(fx.b, d->token, 0, 0, seg, n);
		else
			r = rte_ism_move_data(fx.b, d->token, 0, 0,
					      seg[0].offset, seg[0].data,
					      seg[0].len);
		TEST_ASSERT_SUCCESS(r, "move %u", i);
		for (k = 0; k < n; k++)
			memcpy(shadow + seg[k].offset, seg[k].data, seg[k].len);
		TEST_ASSERT(fx_crc(d->addr, dmb_len) == fx_crc(shadow, dmb_len),
			    "checksum differs after move %u (offset %u len %u)",
			    i, seg[0].offset, seg[0].len);
	}
	return TEST_SUCCESS;
}

static int
random_moves(uint32_t dmb_len, bool burst, uint64_t seed)
{
	struct rte_ism_dmb d;
	uint8_t *src, *shadow;
	int ret = TEST_FAILED;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, dmb_len, &fx.ib.gid, &d),
			    "register a DMB");
	src = malloc(dmb_len);
	shadow = calloc(1, dmb_len);
	if (src != NULL && shadow != NULL)
		ret = random_rounds(&d, src, shadow, burst, seed);
	free(src);
	free(shadow);
	rte_ism_dmb_unregister(fx.a, d.token);
	return ret;
}

static int
test_random_small(void)
{
	return random_moves(4096 + 77, false, 1);
}

static int
test_random_large(void)
{
	return random_moves(1 << 20, false, 2);
}

static int
test_random_burst(void)
{
	return random_moves(65536, true, 3);
}

/* Several DMBs of several devices written in an interleaved order. */
static int
test_many_dmbs(void)
{
	enum { N = 64 };
	struct rte_ism_dmb d[N];
	uint32_t crc[N];
	uint8_t buf[512];
	uint64_t seed = 9;
	unsigned int i, round;

	for (i = 0; i < N; i++) {
		/* Half on A for writer B, half on B for writer A. */
		TEST_ASSERT_SUCCESS(fx_register(i % 2 ? fx.b : fx.a, 512,
						i % 2 ? &fx.ia.gid : &fx.ib.gid,
						&d[i]), "register a DMB");
		crc[i] = fx_crc(d[i].addr, 512);
	}
	for (round = 0; round < 8; round++)
		for (i = 0; i < N; i++) {
			fx_fill(buf, sizeof(buf), &seed);
			TEST_ASSERT_SUCCESS(rte_ism_move_data(i % 2 ? fx.a : fx.b,
							      d[i].token, 0, 0,
							      0, buf,
							      sizeof(buf)),
					    "move_data");
			crc[i] = fx_crc(buf, sizeof(buf));
		}
	for (i = 0; i < N; i++) {
		TEST_ASSERT(fx_crc(d[i].addr, 512) == crc[i], "DMB %u", i);
		TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(i % 2 ? fx.b : fx.a,
							   d[i].token),
				    "dmb_unregister");
	}
	return TEST_SUCCESS;
}

static const struct test_case data_cases[] = {
	{ "random_small_dmb", test_random_small },
	{ "random_1MiB_dmb", test_random_large },
	{ "random_burst", test_random_burst },
	{ "many_dmbs", test_many_dmbs },
	{ NULL, NULL },
};

const struct test_suite suite_data = { "data", data_cases, 1 };
