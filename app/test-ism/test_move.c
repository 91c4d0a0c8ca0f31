/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* move_data and move_burst: the errors, and that a refused move writes
 * nothing.
 */

#include <inttypes.h>
#include <string.h>


#include "test_ism.h"

#define DMB_LEN 4096

/* A DMB on A for writer B, filled with a pattern; its checksum. */
static int
setup(struct rte_ism_dmb *d, uint32_t *crc)
{
	uint64_t seed = 42;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, DMB_LEN, &fx.ib.gid, d),
			    "register a DMB");
	fx_fill(d->addr, d->len, &seed);
	*crc = fx_crc(d->addr, d->len);
	return TEST_SUCCESS;
}

/* The value of xstat name of dev, or UINT64_MAX. */
static uint64_t
xstat(uint16_t dev, const char *name)
{
	uint64_t v;

	return rte_ism_xstats_get_by_name(dev, name, NULL, &v) == 0 ? v :
		UINT64_MAX;
}

static int
test_move_errors(void)
{
	struct rte_ism_dmb d;
	uint32_t crc;
	char buf[64] = "x";
	uint64_t tok;
	struct {
		const char *xstat;
		uint64_t before;
	} x[] = {
		{ "errors_unknown_token", 0 }, { "errors_not_writer", 0 },
		{ "errors_out_of_range", 0 }, { "errors_bad_argument", 0 },
	};
	char name[RTE_ISM_NAME_LEN];
	unsigned int i;
	int c;

	TEST_ASSERT_SUCCESS(setup(&d, &crc), "set-up");
	/* Wrong-writer refusals are counted on the sender, A here. */
	for (i = 0; i < RTE_DIM(x); i++)
		x[i].before = xstat(i == 1 ? fx.a : fx.b, x[i].xstat);
	/* Unknown tokens: never issued, low bits set, zero. */
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, d.token ^ (1ULL << 40), 0,
					      0, 0, buf, 1), -ENOENT,
			    "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token | 1, 0, 0, 0, buf, 1),
			  -ENOENT, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, 0, 0, 0, 0, buf, 1), -ENOENT,
			  "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, UINT64_MAX, 0, 0, 0, buf, 1),
			  -ENOENT, "move_data");
	/* Wrong writer: A itself, and a third device. */
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.a, d.token, 0, 0, 0, buf, 1),
			    -EACCES, "move_data");
	c = fx_spawn(NULL, name, sizeof(name));
	if (c != -ENOTSUP || !fx.given) {
		TEST_ASSERT(c >= 0, "spawn: %d", c);
		TEST_ASSERT_REFUSED(rte_ism_move_data(c, d.token, 0, 1, 0, buf,
						      1), -EACCES,
				    "move_data");
		TEST_ASSERT_SUCCESS(fx_unspawn(name),
				    "remove a spawned device");
	}
	TEST_ASSERT(fx_crc(d.addr, d.len) == crc, "a refused move wrote data");
	/*
	 * Bounds, including offset + len overflowing 32 bits. Where stores
	 * are posted (--stores-posted: the device sees a CPU's pieces of a
	 * store block, not the block), the pieces that fit are written.
	 */
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, d.token, 0, 0, DMB_LEN,
					      buf, 1), -ERANGE, "move_data");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, d.token, 0, 0,
					      DMB_LEN - 63, buf, 64), -ERANGE,
			    "move_data");
	if (fx.stores_posted)
		crc = fx_crc(d.addr, d.len);
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, 0, 0, UINT32_MAX,
					    buf, 2), -ERANGE, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, 0, 0, 1, buf,
					    UINT32_MAX), -ERANGE, "move_data");
	/* len 0 and signal element out of range. */
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, 0, 1, 0, buf, 0),
			  -EINVAL, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, RTE_ISM_DMBE_MAX, 1,
					    0, buf, 1), -EINVAL, "move_data");
	TEST_ASSERT(fx_crc(d.addr, d.len) == crc, "a refused move wrote data");
	/* Each reason counted in the writer's xstats. */
	/* (Behind ism_vfio_pci the device's refusal of a token it never
	 * issued is counted as errors_device.)
	 */
	TEST_ASSERT(xstat(fx.b, x[0].xstat) - x[0].before ==
		    (fx.stores_eio ? 3u : 4u), "%s", x[0].xstat);
	/* The device's refusals: the sender knows their reason unless
	 * posted or behind ism_vfio_pci.
	 */
	TEST_ASSERT(fx.stores_posted || fx.stores_eio ||
		    xstat(fx.a, x[1].xstat) - x[1].before == 1, "%s",
		    x[1].xstat);
	TEST_ASSERT(fx.stores_posted || fx.stores_eio ||
		    xstat(fx.b, x[2].xstat) - x[2].before == 4, "%s",
		    x[2].xstat);
	TEST_ASSERT(xstat(fx.b, x[3].xstat) - x[3].before == 2, "%s",
		    x[3].xstat);
	/* Stale token after unregister. */
	tok = d.token;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, tok, 0, 1, 0, buf, 1),
			    -ENOENT, "move_data");
	TEST_ASSERT(rte_ism_signal_poll(fx.a, (struct rte_ism_signal[1]) {}, 1)
		    == 0, "a refused move raised a signal");
	return TEST_SUCCESS;
}

static int
test_move_edges(void)
{
	struct rte_ism_dmb d;
	uint32_t crc;
	char buf[DMB_LEN];
	uint64_t seed = 7;

	TEST_ASSERT_SUCCESS(setup(&d, &crc), "set-up");
	fx_fill(buf, sizeof(buf), &seed);
	/* First byte, last byte, whole DMB. */
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 0, 0, 0, buf, 1),
			    "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 0, 0, DMB_LEN - 1,
					      buf + 1, 1), "move_data");
	TEST_ASSERT(((char *)d.addr)[0] == buf[0] &&
		    ((char *)d.addr)[DMB_LEN - 1] == buf[1], "edge bytes");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 15, 1, 0, buf,
					      DMB_LEN), "move_data");
	TEST_ASSERT(memcmp(d.addr, buf, DMB_LEN) == 0, "whole DMB");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/*
 * Every length from 1 to 130 B at offsets that put it at the start, off
 * alignment and at the end of the DMB, without signal (the fast path of
 * the software backends, which copies up to 64 B itself in overlapping
 * chunks): exactly those bytes change. And the refusals that only the
 * fast path sees first (len 0, idx 16, no signal) are still counted.
 */
static int
test_move_sizes(void)
{
	static const uint32_t offs[] = { 0, 1, 15, 33 };
	static char model[DMB_LEN], src[DMB_LEN];
	struct rte_ism_dmb d;
	uint64_t seed = 11, before;
	uint32_t crc, len, o, i;

	TEST_ASSERT_SUCCESS(setup(&d, &crc), "set-up");
	memcpy(model, d.addr, DMB_LEN);
	for (len = 1; len <= 130; len++) {
		for (i = 0; i <= RTE_DIM(offs); i++) {
			o = i < RTE_DIM(offs) ? offs[i] : DMB_LEN - len;
			fx_fill(src, len, &seed);
			TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token,
					i % RTE_ISM_DMBE_MAX, 0, o, src, len),
					"move_data of %u B at %u", len, o);
			memcpy(model + o, src, len);
			TEST_ASSERT(memcmp(d.addr, model, DMB_LEN) == 0,
				    "DMB differs after %u B at %u", len, o);
		}
	}
	before = xstat(fx.b, "errors_bad_argument");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, 0, 0, 0, src, 0),
			  -EINVAL, "move_data of 0 B");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, RTE_ISM_DMBE_MAX,
					    0, 0, src, 1), -EINVAL,
			  "move_data with idx 16");
	TEST_ASSERT(xstat(fx.b, "errors_bad_argument") - before == 2,
		    "bad arguments counted");
	TEST_ASSERT(memcmp(d.addr, model, DMB_LEN) == 0, "a refusal wrote");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* Every segment length 1..130 in bursts of four segments at unaligned
 * offsets, the last at the DMB's end: each copy path of a burst (the
 * inline chunks, the 32-byte vectors where the CPU has AVX2, memcpy())
 * writes exactly its bytes, in order.
 */
static int
test_burst_sizes(void)
{
	static char model[DMB_LEN], src[4][DMB_LEN];
	struct rte_ism_move_seg seg[4];
	struct rte_ism_dmb d;
	uint64_t seed = 13;
	uint32_t crc, len, i;

	TEST_ASSERT_SUCCESS(setup(&d, &crc), "set-up");
	memcpy(model, d.addr, DMB_LEN);
	for (len = 1; len <= 130; len++) {
		for (i = 0; i < RTE_DIM(seg); i++) {
			fx_fill(src[i], len, &seed);
			seg[i].data = src[i];
			seg[i].len = len;
		}
		seg[0].offset = 1;
		seg[1].offset = 200 + len % 31;
		seg[2].offset = 1000 + 3 * len;
		seg[3].offset = DMB_LEN - len;
		TEST_ASSERT_SUCCESS(rte_ism_move_burst(fx.b, d.token, len % 16,
				len & 1, seg, RTE_DIM(seg)),
				"move_burst of 4 x %u B", len);
		for (i = 0; i < RTE_DIM(seg); i++)
			memcpy(model + seg[i].offset, src[i], len);
		TEST_ASSERT(memcmp(d.addr, model, DMB_LEN) == 0,
			    "DMB differs after a burst of 4 x %u B", len);
	}
	/* Half of the bursts signalled: drain them. */
	while (rte_ism_signal_poll(fx.a, (struct rte_ism_signal[4]) { 0 }, 4) >
	       0)
		;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static int
test_burst(void)
{
	struct rte_ism_dmb d;
	struct rte_ism_move_seg seg[4];
	struct rte_ism_signal sig[2];
	struct rte_ism_stats st0, st1;
	char a[100], b[200], c[8];
	uint32_t crc;

	TEST_ASSERT_SUCCESS(setup(&d, &crc), "set-up");
	memset(a, 'a', sizeof(a));
	memset(b, 'b', sizeof(b));
	memset(c, 'c', sizeof(c));
	seg[0] = (struct rte_ism_move_seg){ a, 0, sizeof(a) };
	seg[1] = (struct rte_ism_move_seg){ b, 1000, sizeof(b) };
	seg[2] = (struct rte_ism_move_seg){ c, DMB_LEN - 8, sizeof(c) };
	/*
	 * One bad segment: nothing at all is written or signalled (where
	 * stores are posted, the segments before it and the pieces of it
	 * that fit are written, and signal: see test_move_errors()).
	 */
	seg[3] = (struct rte_ism_move_seg){ a, DMB_LEN - 8, 9 };
	TEST_ASSERT_REFUSED(rte_ism_move_burst(fx.b, d.token, 2, 1, seg, 4),
			    -ERANGE, "move_burst");
	if (fx.stores_posted) {
		crc = fx_crc(d.addr, d.len);
		rte_ism_signal_poll(fx.a, sig, 2);	/* its last block's */
	}
	seg[3] = (struct rte_ism_move_seg){ a, 50, 0 };
	TEST_ASSERT_EQUAL(rte_ism_move_burst(fx.b, d.token, 2, 1, seg, 4),
			  -EINVAL, "move_burst");
	TEST_ASSERT(fx_crc(d.addr, d.len) == crc, "refused burst wrote data");
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(fx.a, sig, 2), "signal_poll");
	TEST_ASSERT_EQUAL(rte_ism_move_burst(fx.b, d.token, 2, 1, seg, 0),
			  -EINVAL, "move_burst");
	TEST_ASSERT_EQUAL(rte_ism_move_burst(fx.b, d.token, 16, 1, seg, 3),
			  -EINVAL, "move_burst");
	TEST_ASSERT_REFUSED(rte_ism_move_burst(fx.a, d.token, 2, 1, seg, 3),
			    -EACCES, "move_burst");
	TEST_ASSERT_REFUSED(rte_ism_move_burst(fx.b, d.token + (1ULL << 40), 2,
					       1, seg, 3), -ENOENT,
			    "move_burst");

	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st0), "stats_get");
	TEST_ASSERT_SUCCESS(rte_ism_move_burst(fx.b, d.token, 2, 1, seg, 3),
			    "move_burst");
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(fx.b, &st1), "stats_get");
	TEST_ASSERT(memcmp(d.addr, a, sizeof(a)) == 0 &&
		    memcmp((char *)d.addr + 1000, b, sizeof(b)) == 0 &&
		    memcmp((char *)d.addr + DMB_LEN - 8, c, sizeof(c)) == 0,
		    "burst data");
	TEST_ASSERT(st1.moves - st0.moves == 3 &&
		    st1.bytes - st0.bytes == 308 &&
		    st1.signals - st0.signals == 1, "burst counters");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, sig, 2), 1, "signal_poll");
	TEST_ASSERT(sig[0].dmb_idx == d.idx && sig[0].mask == 1 << 2,
		    "signal idx %u mask 0x%x", sig[0].dmb_idx, sig[0].mask);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* A device may be its own writer (rgid = own GID). */
static int
test_self_write(void)
{
	struct rte_ism_dmb d;
	char buf[32] = "to myself";

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 128, &fx.ia.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.a, d.token, 0, 0, 3, buf,
					      sizeof(buf)), "move_data");
	TEST_ASSERT(memcmp((char *)d.addr + 3, buf, sizeof(buf)) == 0, "data");
	TEST_ASSERT_REFUSED(rte_ism_move_data(fx.b, d.token, 0, 0, 3, buf, 1),
			    -EACCES, "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/*
 * Loopback: the writer of a DMB is found by GID when it joins, not only at
 * the registration (its rgid named no device then), and no longer once it
 * left: a device of another GID created after it, which may be given the
 * departed device's memory, is refused; the same GID back is the writer
 * again. (The fast path compares a per-DMB writer pointer that the
 * control path keeps; these are the moments it changes.)
 */
static int
test_late_writer(void)
{
	struct rte_ism_gid g = { .gid = UINT64_C(0x5eed0000c0de0017) };
	char name[RTE_ISM_NAME_LEN], args[64], buf[64];
	struct rte_ism_dmb d;
	unsigned int round;
	int w;

	if (strcmp(fx.spawn_drv, "ism_lo") != 0)
		return TEST_SKIPPED;
	memset(buf, 0x5c, sizeof(buf));
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 256, &g, &d), "register a DMB");
	snprintf(args, sizeof(args), "gid=0x%" PRIx64, g.gid);
	for (round = 0; round < 3; round++) {
		/* Rounds 0 and 2: the writer (its GID); 1: another device. */
		w = fx_spawn(round == 1 ? NULL : args, name, sizeof(name));
		TEST_ASSERT(w >= 0, "spawn: %d", w);
		memset(d.addr, 0, d.len);
		TEST_ASSERT_EQUAL(rte_ism_move_data(w, d.token, 0, 0, 8, buf,
						    sizeof(buf)),
				  round == 1 ? -EACCES : 0, "round %u",
				  round);
		TEST_ASSERT((memcmp((char *)d.addr + 8, buf, sizeof(buf)) ==
			     0) == (round != 1), "round %u: data", round);
		TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove it");
	}
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static const struct test_case move_cases[] = {
	{ "move_errors", test_move_errors },
	{ "move_edges", test_move_edges },
	{ "move_sizes", test_move_sizes },
	{ "burst", test_burst },
	{ "burst_sizes", test_burst_sizes },
	{ "self_write", test_self_write },
	{ "late_writer", test_late_writer },
	{ NULL, NULL },
};

const struct test_suite suite_move = { "move", move_cases, 1 };
