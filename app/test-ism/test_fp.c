/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The fast-path table: one cache line per device, filled when a device
 * starts, reset to the dummies when it stops or goes away. Reads
 * rte_ism_fp_ops directly, which only a test should do.
 */

#include <stdalign.h>

#include "test_ism.h"

/* The entry of a slot without a device: the dummies. */
static const struct rte_ism_fp_ops *
dummy_entry(void)
{
	uint16_t id = RTE_ISM_MAX_DEVS;

	while (id-- > 0)
		if (!rte_ism_is_valid_dev(id))
			return &rte_ism_fp_ops[id];
	return NULL;
}

/* Stopped: the dummies, with the driver's context left in place (a
 * racing caller never pairs a driver function with a slot number).
 */
static bool
is_stopped(uint16_t id, void *ctx)
{
	const struct rte_ism_fp_ops *d = dummy_entry();
	const struct rte_ism_fp_ops *e = &rte_ism_fp_ops[id];

	return e->move_data == d->move_data && e->move_burst == d->move_burst &&
		e->signal_poll == d->signal_poll && e->dev_private == ctx;
}

/* No device: the dummies, the context is the slot number. */
static bool
is_dummy(uint16_t id)
{
	return is_stopped(id, (void *)(uintptr_t)id);
}

static bool
is_filled(uint16_t id)
{
	const struct rte_ism_fp_ops *d = dummy_entry();
	const struct rte_ism_fp_ops *e = &rte_ism_fp_ops[id];

	return e->move_data != d->move_data && e->move_burst != d->move_burst &&
		e->signal_poll != d->signal_poll &&
		e->dev_private != (void *)(uintptr_t)id &&
		e->dev_private != NULL;
}

static int
test_layout(void)
{
	TEST_ASSERT(sizeof(struct rte_ism_fp_ops) == RTE_CACHE_LINE_SIZE,
		    "entry is %zu bytes", sizeof(struct rte_ism_fp_ops));
	TEST_ASSERT(alignof(struct rte_ism_fp_ops) == RTE_CACHE_LINE_SIZE,
		    "entry alignment %zu", alignof(struct rte_ism_fp_ops));
	TEST_ASSERT(((uintptr_t)rte_ism_fp_ops % RTE_CACHE_LINE_SIZE) == 0,
		    "table not cache aligned");
	TEST_ASSERT(dummy_entry() != NULL, "no free slot");
	return TEST_SUCCESS;
}

static int
test_fill_and_reset(void)
{
	char name[RTE_ISM_NAME_LEN];
	struct rte_ism_dev_info info;
	struct rte_ism_signal sig[1];
	struct rte_ism_dmb d;
	void *ctx;
	char b = 1;
	int c;

	c = fx_spawn(NULL, name, sizeof(name));
	if (FX_SPAWN_SKIPPED(c))
		return TEST_SKIPPED;
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	TEST_ASSERT(is_filled(c), "entry not filled after probe");
	ctx = rte_ism_fp_ops[c].dev_private;
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ia.gid, &d),
			    "register a DMB");
	/* The driver answers (unknown token), not a dummy (-ENODEV). */
	TEST_ASSERT_EQUAL(rte_ism_move_data(c, d.token, 0, 0, 0, &b, 1),
			  -EACCES, "move_data");

	TEST_ASSERT_SUCCESS(rte_ism_dev_stop(c), "dev_stop");
	TEST_ASSERT(is_stopped(c, ctx), "entry not reset at stop");
	TEST_ASSERT_SUCCESS(rte_ism_info_get(c, &info), "info_get");
	TEST_ASSERT(!info.started, "still started");
	TEST_ASSERT_EQUAL(rte_ism_move_data(c, d.token, 0, 0, 0, &b, 1),
			  -ENODEV, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(c, sig, 1), -ENODEV,
			  "signal_poll");
	TEST_ASSERT_SUCCESS(rte_ism_dev_stop(c), "dev_stop");	/* idempotent */
	TEST_ASSERT_SUCCESS(rte_ism_dev_start(c), "dev_start");
	TEST_ASSERT(is_filled(c), "entry not filled at start");
	TEST_ASSERT_SUCCESS(rte_ism_signal_poll(c, sig, 1), "signal_poll");

	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove a spawned device");
	TEST_ASSERT(is_dummy(c), "entry not reset at release");
	TEST_ASSERT(!rte_ism_is_valid_dev(c), "id still valid");
	TEST_ASSERT_EQUAL(rte_ism_move_data(c, d.token, 0, 0, 0, &b, 1),
			  -ENODEV, "move_data");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static const struct test_case fp_cases[] = {
	{ "layout", test_layout },
	{ "fill_and_reset", test_fill_and_reset },
	{ NULL, NULL },
};

const struct test_suite suite_fp = { "fp", fp_cases, 1 };
