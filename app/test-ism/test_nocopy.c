/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Nocopy: the writer attaches the receiver's DMB and writes into it. */

#include "test_ism.h"

static int
test_attach_write(void)
{
	struct rte_ism_dmb d, m;
	struct rte_ism_signal sig[2];
	char b = 0;

	if (!(fx.ib.capa & RTE_ISM_CAPA_NOCOPY)) {
		TEST_ASSERT_EQUAL(rte_ism_dmb_attach(fx.b, 1ULL << 40, &m),
				  -ENOTSUP, "dmb_attach");
		TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.b, 1ULL << 40),
				  -ENOTSUP, "dmb_detach");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 8192, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_attach(fx.b, d.token, &m),
			    "dmb_attach");
	TEST_ASSERT(m.addr != NULL && m.len == d.len && m.idx == d.idx &&
		    m.token == d.token, "attach result");
	memcpy((char *)m.addr + 100, "zero copy", 10);
	/* Signals still go through a move (a 1-byte one here). */
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 4, 1, 0, &b, 1),
			    "move_data");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(fx.a, sig, 2), 1, "signal_poll");
	TEST_ASSERT(memcmp((char *)d.addr + 100, "zero copy", 10) == 0,
		    "owner does not see the write");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_detach(fx.b, d.token), "dmb_detach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.b, d.token), -ENOENT,
			  "dmb_detach");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static int
test_attach_errors(void)
{
	struct rte_ism_dmb d, m;

	if (!(fx.ib.capa & RTE_ISM_CAPA_NOCOPY))
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 4096, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_EQUAL(rte_ism_dmb_attach(fx.b, d.token ^ (1ULL << 40), &m),
			  -ENOENT, "dmb_attach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_attach(fx.a, d.token, &m), -EACCES,
			  "dmb_attach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.b, d.token), -ENOENT,
			  "dmb_detach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.a, d.token), -ENOENT,
			  "dmb_detach");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_dmb_attach(fx.b, d.token, &m), -ENOENT,
			  "dmb_attach");
	return TEST_SUCCESS;
}

/* Owner unregisters while attached: the token dies at once, the writer's
 * mapping stays valid until it detaches, and the writer gets an event.
 */
static int
test_unregister_while_attached(void)
{
	struct rte_ism_dmb d, m, m2, e;
	struct rte_ism_event ev;
	char b = 1;
	int n;

	if (!(fx.ib.capa & RTE_ISM_CAPA_NOCOPY))
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 4096, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_attach(fx.b, d.token, &m),
			    "dmb_attach");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_attach(fx.b, d.token, &m2),
			    "dmb_attach");	/* twice */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.a, d.token), -ENOENT,
			  "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_move_data(fx.b, d.token, 0, 0, 0, &b, 1),
			  -ENOENT, "move_data");
	TEST_ASSERT_EQUAL(rte_ism_dmb_attach(fx.b, d.token, &e), -ENOENT,
			  "dmb_attach");
	n = rte_ism_event_poll(fx.b, &ev, 1);
	TEST_ASSERT(n == 1 && ev.type == RTE_ISM_EVENT_BUF &&
		    ev.code == RTE_ISM_BUF_UNREGISTERED && ev.token == d.token,
		    "no BUF_UNREGISTERED event for the writer");
	/* The index stays taken until the last detach. */
	e = d;
	e.token = 0;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &e), -EBUSY,
			  "dmb_register");
	memset(m.addr, 0x77, m.len);	/* still mapped */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_detach(fx.b, d.token), "dmb_detach");
	memset(m2.addr, 0x78, m2.len);	/* second attachment still holds */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_detach(fx.b, d.token), "dmb_detach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.b, d.token), -ENOENT,
			  "dmb_detach");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &e), "dmb_register");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, e.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* The owner's device goes away while the writer is attached. */
static int
test_owner_gone_while_attached(void)
{
	char name[RTE_ISM_NAME_LEN];
	struct rte_ism_dmb d, m;
	int c;

	if (!(fx.ib.capa & RTE_ISM_CAPA_NOCOPY))
		return TEST_SKIPPED;
	c = fx_spawn(NULL, name, sizeof(name));
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	TEST_ASSERT_SUCCESS(fx_register(c, 4096, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_attach(fx.b, d.token, &m),
			    "dmb_attach");
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove a spawned device");
	memset(m.addr, 0x11, m.len);	/* mapping outlives the owner */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_detach(fx.b, d.token), "dmb_detach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.b, d.token), -ENOENT,
			  "dmb_detach");
	return TEST_SUCCESS;
}

/*
 * GIDs are unique only within a CHID (fabric): a device of another fabric
 * with the writer's GID can neither detach the writer's attachment nor,
 * when it closes, free a DMB that the writer still maps (loopback: the
 * fixture's devices are on the default CHID).
 */
static int
test_same_gid_other_fabric(void)
{
	char name[RTE_ISM_NAME_LEN], args[64], gid[RTE_ISM_GID_STRLEN];
	struct rte_ism_dmb d, m;
	int y;

	if (strcmp(fx.spawn_drv, "ism_lo") != 0 || fx.spawn_args[0] != '\0')
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(rte_ism_gid_format(&fx.ib.gid, gid, sizeof(gid)),
			    "gid_format");
	snprintf(args, sizeof(args), "gid=%s,chid=0x1234", gid);
	y = fx_spawn(args, name, sizeof(name));
	TEST_ASSERT(y >= 0, "spawn %s: %d", args, y);
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 4096, &fx.ib.gid, &d),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_attach(fx.b, d.token, &m),
			    "dmb_attach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_attach(y, d.token, &m), -ENOENT,
			  "dmb_attach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(y, d.token), -ENOENT,
			  "dmb_detach");
	/* Now an orphan that only B maps. */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(y, d.token), -ENOENT,
			  "dmb_detach");
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove a spawned device");
	memset(m.addr, 0x22, m.len);	/* still B's */
	TEST_ASSERT_SUCCESS(rte_ism_dmb_detach(fx.b, d.token), "dmb_detach");
	TEST_ASSERT_EQUAL(rte_ism_dmb_detach(fx.b, d.token), -ENOENT,
			  "dmb_detach");
	fx_drain();
	return TEST_SUCCESS;
}

static const struct test_case nocopy_cases[] = {
	{ "attach_write", test_attach_write },
	{ "attach_errors", test_attach_errors },
	{ "unregister_while_attached", test_unregister_while_attached },
	{ "owner_gone_while_attached", test_owner_gone_while_attached },
	{ "same_gid_other_fabric", test_same_gid_other_fabric },
	{ NULL, NULL },
};

const struct test_suite suite_nocopy = { "nocopy", nocopy_cases, 1 };
