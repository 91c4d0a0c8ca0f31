/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Two lcores: a writer lcore and a polling lcore.
 *  - ping-pong: each message carries a sequence number and the checksum of
 *    a random payload; when the receiver sees the signal the whole message
 *    must be there (data visible before the signal), in both directions;
 *  - unregister under load: the owner unregisters and re-registers DMBs
 *    while the other lcore keeps moving into them; moves either land in a
 *    live DMB or fail with -ENOENT, and nothing crashes.
 * Loops are bounded by a generous deadline so a bug cannot hang the test.
 */

#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>

#include <ism_compat.h>

#include "test_ism.h"

#define ROUNDS 20000
#define DEADLINE_S 60

struct msg {
	uint32_t seq;
	uint32_t len;
	uint32_t crc;
	uint8_t payload[1000];
};

struct pp_ctx {
	struct rte_ism_dmb to_b;	/* on B, written by A (worker) */
	struct rte_ism_dmb to_a;	/* on A, written by B (main) */
	uint64_t deadline;
	int result;
};

static bool
wait_signal(uint16_t dev, uint32_t idx, uint64_t deadline)
{
	struct rte_ism_signal sig[4];
	int n, i;

	while (rte_get_timer_cycles() < deadline) {
		n = rte_ism_signal_poll(dev, sig, RTE_DIM(sig));
		for (i = 0; i < n; i++)
			if (sig[i].dmb_idx == idx)
				return true;
	}
	return false;
}

/* Worker: sends message k, waits for its echo. */
static int
pp_writer(void *arg)
{
	struct pp_ctx *c = arg;
	struct msg m;
	uint64_t seed = 77;
	uint32_t k;

	for (k = 1; k <= ROUNDS; k++) {
		m.seq = k;
		m.len = 1 + fx_rand(&seed) % sizeof(m.payload);
		fx_fill(m.payload, m.len, &seed);
		m.crc = fx_crc(m.payload, m.len);
		TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.a, c->to_b.token, 0,
				1, 0, &m, offsetof(struct msg, payload) +
				m.len), "writer: move %u", k);
		TEST_ASSERT(wait_signal(fx.a, c->to_a.idx, c->deadline),
			    "writer: no echo for %u", k);
		TEST_ASSERT_EQUAL(*(volatile uint32_t *)c->to_a.addr, k,
				  "writer: echo for %u", k);
	}
	return TEST_SUCCESS;
}

/* The reader's side, on the main lcore. */
static int
pp_reader(struct pp_ctx *c)
{
	const struct msg *m = c->to_b.addr;
	uint32_t k;

	for (k = 1; k <= ROUNDS; k++) {
		TEST_ASSERT(wait_signal(fx.b, c->to_b.idx, c->deadline),
			    "no message %u", k);
		/* Signal seen: the whole message must be visible. */
		TEST_ASSERT(m->seq == k && m->len != 0 &&
			    m->len <= sizeof(m->payload) &&
			    fx_crc(m->payload, m->len) == m->crc,
			    "message %u: seq %u len %u bad data", k, m->seq,
			    m->len);
		TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, c->to_a.token, 0,
						      1, 0, &k, sizeof(k)),
				    "echo %u", k);
	}
	return TEST_SUCCESS;
}

static int
test_pingpong_ordering(void)
{
	struct pp_ctx c = { .result = 0 };
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	int ret;

	TEST_ASSERT_SUCCESS(fx_register(fx.b, sizeof(struct msg), &fx.ia.gid,
					&c.to_b), "register a DMB");
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &c.to_a),
			    "register a DMB");
	c.deadline = rte_get_timer_cycles() + DEADLINE_S * rte_get_timer_hz();
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(pp_writer, &c, worker),
			    "launch the writer");
	ret = pp_reader(&c);
	if (ret != TEST_SUCCESS)
		c.deadline = 0;	/* stop the worker */
	/* The writer logged why it failed. */
	if (rte_eal_wait_lcore(worker) != TEST_SUCCESS)
		ret = TEST_FAILED;
	rte_ism_dmb_unregister(fx.b, c.to_b.token);
	rte_ism_dmb_unregister(fx.a, c.to_a.token);
	return ret;
}

struct churn_ctx {
	RTE_ATOMIC(uint64_t) token;	/* current token, written by main */
	volatile bool stop;
	uint64_t ok, enoent, other;
	uint8_t buf[4096];
};

static int
churn_writer(void *arg)
{
	struct churn_ctx *c = arg;
	uint64_t tok;
	int r;

	while (!c->stop) {
		tok = rte_atomic_load_explicit(&c->token, rte_memory_order_acquire);
		r = rte_ism_move_data(fx.b, tok, 0, 0, 0, c->buf,
				      sizeof(c->buf));
		if (r == 0)
			c->ok++;
		else if (r == -ENOENT)
			c->enoent++;
		else
			c->other++;
	}
	return 0;
}

static int
test_unregister_under_load(void)
{
	struct churn_ctx *c = calloc(1, sizeof(*c));
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct rte_ism_dmb d;
	uint64_t ok, enoent, other;
	unsigned int i;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_NOT_NULL(c, "calloc");
	TEST_ASSERT_SUCCESS(rte_eal_remote_launch(churn_writer, c, worker),
			    "launch the writer");
	for (i = 0; i < 2000 && ret == TEST_SUCCESS; i++) {
		if (fx_register(fx.a, 4096, &fx.ib.gid, &d) != TEST_SUCCESS) {
			ret = TEST_FAILED;
			break;
		}
		rte_atomic_store_explicit(&c->token, d.token, rte_memory_order_release);
		rte_delay_us_block(20);
		if (rte_ism_dmb_unregister(fx.a, d.token) != 0) {
			printf("    unregister %u failed\n", i);
			ret = TEST_FAILED;
		}
	}
	c->stop = true;
	rte_eal_wait_lcore(worker);
	ok = c->ok;
	enoent = c->enoent;
	other = c->other;
	free(c);
	if (ret != TEST_SUCCESS)
		return ret;
	/* Posted stores: the refused ones count as landed. */
	TEST_ASSERT(other == 0 && ok != 0 &&
		    (enoent != 0 || fx.stores_posted),
		    "%" PRIu64 " moves landed, %" PRIu64 " refused with "
		    "-ENOENT, %" PRIu64 " other errors", ok, enoent, other);
	printf("    %" PRIu64 " moves landed, %" PRIu64 " refused with "
	       "-ENOENT, %" PRIu64 " other errors\n", ok, enoent, other);
	return ret;
}

static const struct test_case twolcore_cases[] = {
	{ "pingpong_ordering", test_pingpong_ordering },
	{ "unregister_under_load", test_unregister_under_load },
	{ NULL, NULL },
};

const struct test_suite suite_twolcore = { "twolcore", twolcore_cases, 2 };
