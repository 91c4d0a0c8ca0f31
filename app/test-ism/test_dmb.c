/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* DMB registration and unregistration, with every documented error. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/mempolicy.h>

#include <rte_lcore.h>
#include <rte_memory.h>

#include "test_ism.h"

static int
test_register_basic(void)
{
	struct rte_ism_dmb d1, d2;
	const uint8_t *p;
	uint32_t i;

	TEST_ASSERT_SUCCESS(fx_register(fx.a, 5000, &fx.ib.gid, &d1),
			    "register a DMB");
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 5000, &fx.ib.gid, &d2),
			    "register a DMB");
	TEST_ASSERT(d1.token != 0 && d1.token != d2.token, "tokens");
	/* Bits 0-19 and 23-27: the ISM move_data request encoding. */
	TEST_ASSERT((d1.token & 0x0f8fffff) == 0 &&
		    (d2.token & 0x0f8fffff) == 0,
		    "token bits 0-19 or 23-27 set: 0x%" PRIx64, d1.token);
	TEST_ASSERT(d1.idx >= RTE_ISM_DMB_IDX_FIRST && d1.idx != d2.idx,
		    "indices %u %u", d1.idx, d2.idx);
	TEST_ASSERT(d1.addr != NULL && d1.len == 5000, "addr/len");
	for (p = d1.addr, i = 0; i < d1.len; i++)
		TEST_ASSERT(p[i] == 0, "DMB not zero-filled at %u", i);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d1.token),
			    "dmb_unregister");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d2.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

static int
test_register_idx(void)
{
	struct rte_ism_dmb d = { .len = 64, .rgid = fx.ib.gid };
	struct rte_ism_dmb e;
	uint32_t last = RTE_ISM_DMB_IDX_FIRST + fx.ia.max_dmbs - 1;

	d.idx = last;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &d), "dmb_register");
	TEST_ASSERT(d.idx == last, "asked for %u, got %u", last, d.idx);
	e = d;
	e.token = 0;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &e), -EBUSY,
			  "dmb_register");
	e.idx = last + 1;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &e), -EINVAL,
			  "dmb_register");
	e.idx = RTE_ISM_DMB_IDX_FIRST - 1;	/* reserved */
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &e), -EINVAL,
			  "dmb_register");
	e.idx = 1;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &e), -EINVAL,
			  "dmb_register");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	/* The index is free again. */
	d.token = 0;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &d), "dmb_register");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* Bad arguments are refused and leave the caller's struct untouched. */
static int
test_register_errors(void)
{
	struct rte_ism_dmb d, keep;
	struct rte_ism_gid zero = { 0, 0 };

	memset(&d, 0, sizeof(d));
	d.rgid = fx.ib.gid;
	d.len = 0;
	d.token = 0x1234;
	keep = d;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &d), -EINVAL,
			  "dmb_register");
	TEST_ASSERT(memcmp(&d, &keep, sizeof(d)) == 0, "dmb changed");
	d.len = fx.ia.max_dmb_len + 1;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &d), -E2BIG,
			  "dmb_register");
	d.len = UINT32_MAX;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &d), -E2BIG,
			  "dmb_register");
	d.len = 64;
	d.rgid = zero;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &d), -EINVAL,
			  "dmb_register");
	d.rgid = fx.ib.gid;
	d.reserved[2] = 1;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(fx.a, &d), -EINVAL,
			  "dmb_register");
	return TEST_SUCCESS;
}

/* The largest DMB the device allows can be registered and written. */
static int
test_register_max_len(void)
{
	struct rte_ism_dmb d;
	char tail[8] = "the end";
	int ret;

	memset(&d, 0, sizeof(d));
	d.len = fx.ia.max_dmb_len;
	d.rgid = fx.ib.gid;
	ret = rte_ism_dmb_register(fx.a, &d);
	if (ret == -ENOMEM) {
		printf("    not enough memory for a %u-byte DMB (-m)\n", d.len);
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(ret, "register the largest DMB");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(fx.b, d.token, 0, 0,
					      d.len - sizeof(tail), tail,
					      sizeof(tail)), "move_data");
	TEST_ASSERT(memcmp((char *)d.addr + d.len - sizeof(tail), tail,
			   sizeof(tail)) == 0, "tail not written");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* Register max_dmbs DMBs into d[] (the caller unregisters them), one more,
 * then free one index and take it again.
 */
static int
fill_indices(uint16_t dev, struct rte_ism_dmb *d, uint32_t max_dmbs)
{
	struct rte_ism_dmb extra;
	uint32_t i, half = max_dmbs / 2, freed;

	for (i = 0; i < max_dmbs; i++) {
		d[i].len = 64;
		d[i].rgid = fx.ib.gid;
		TEST_ASSERT_SUCCESS(rte_ism_dmb_register(dev, &d[i]),
				    "register %u of %u", i, max_dmbs);
	}
	memset(&extra, 0, sizeof(extra));
	extra.len = 64;
	extra.rgid = fx.ib.gid;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(dev, &extra), -ENOSPC,
			  "register beyond %u", max_dmbs);
	/* One freed index is usable again. */
	freed = d[half].idx;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(dev, d[half].token),
			    "unregister %u", half);
	d[half].token = 0;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(dev, &extra),
			    "register after an unregister");
	d[half] = extra;
	TEST_ASSERT_EQUAL(extra.idx, freed, "freed index not reused");
	return TEST_SUCCESS;
}

/* Fill the whole index space of a device, then one more. */
static int
fill_table(uint16_t dev, uint32_t max_dmbs)
{
	struct rte_ism_dmb *d;
	uint32_t i;
	int ret;

	d = calloc(max_dmbs, sizeof(*d));
	TEST_ASSERT_NOT_NULL(d, "calloc");
	ret = fill_indices(dev, d, max_dmbs);
	for (i = 0; i < max_dmbs; i++)
		if (d[i].token != 0)
			rte_ism_dmb_unregister(dev, d[i].token);
	free(d);
	return ret;
}

static int
test_table_full(void)
{
	char name[RTE_ISM_NAME_LEN];
	struct rte_ism_dev_info info;
	int id, ret;

	/* The default device: the hardware's 1888 DMBs. */
	TEST_ASSERT_SUCCESS(fill_table(fx.a, fx.ia.max_dmbs),
			    "fill the DMB table");
	/* A small table set by devargs. */
	id = fx_spawn("max_dmbs=8", name, sizeof(name));
	if (id == -ENOTSUP && fx.given)
		return TEST_SUCCESS;	/* the rest needs a device of its own */
	TEST_ASSERT(id >= 0, "spawn with max_dmbs=8: %d", id);
	TEST_ASSERT_SUCCESS(rte_ism_info_get(id, &info), "info_get");
	TEST_ASSERT(info.max_dmbs == 8, "max_dmbs %u", info.max_dmbs);
	ret = fill_table(id, 8);
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove a spawned device");
	return ret;
}

static int
test_unregister_errors(void)
{
	struct rte_ism_dmb d, e;

	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.a, 0), -ENOENT,
			  "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.a, 0xabcdef0000000000ULL),
			  -ENOENT, "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.a, 0x1234), -ENOENT,
			  "dmb_unregister");
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 64, &fx.ib.gid, &d),
			    "register a DMB");
	/* Only the owner's device can unregister it. */
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.b, d.token), -ENOENT,
			  "dmb_unregister");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.a, d.token), -ENOENT,
			  "dmb_unregister");
	/* A new DMB on the same index has another token. */
	e = d;
	e.token = 0;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(fx.a, &e), "dmb_register");
	TEST_ASSERT(e.idx == d.idx && e.token != d.token,
		    "index %u token reused", e.idx);
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(fx.a, d.token), -ENOENT,
			  "dmb_unregister");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, e.token),
			    "dmb_unregister");
	return TEST_SUCCESS;
}

/* The NUMA node of the page at addr (move_pages(2) without moving). */
static int
page_node(void *addr)
{
	void *page = RTE_PTR_ALIGN_FLOOR(addr, (uintptr_t)getpagesize());
	int status = -1;

	if (syscall(SYS_move_pages, 0, 1UL, &page, NULL, &status, 0) < 0)
		return -errno;
	return status;
}

/*
 * shm: the signal areas the peers raise our signals in (memfds named
 * ism_shm_sba, made by the receiving side, mapped by both; the fixture's
 * devices are peers in this process) carry the policy of the device's
 * node, as its DMBs do: /proc/self/numa_maps shows "prefer:N" for them.
 */
static int
check_sba_policy(int node)
{
	char line[512], want[32];
	unsigned int n = 0;
	FILE *f;

	f = fopen("/proc/self/numa_maps", "r");
	TEST_ASSERT(f != NULL, "numa_maps: %s", strerror(errno));
	snprintf(want, sizeof(want), " prefer:%d ", node);
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strstr(line, "memfd:ism_shm_sba") == NULL)
			continue;
		n++;
		if (strstr(line, want) == NULL) {
			fclose(f);
			TEST_ASSERT(false, "a signal area not on node %d: %s",
				    node, line);
		}
	}
	fclose(f);
	TEST_ASSERT(n > 0, "no signal area mapped (memfd:ism_shm_sba)");
	return TEST_SUCCESS;
}

/*
 * DMB memory lives on the device's NUMA node (info.socket_id): its
 * touched pages are there, and on shm the memfd carries the policy
 * (MPOL_PREFERRED for that node; MPOL_DEFAULT before it was placed),
 * which also governs pages the peer touches first. socket= (software
 * backends) sets the node and refuses one EAL does not know. Works on a
 * one-node host: the policy is read back, not inferred from where pages
 * happen to land.
 */
static int
test_numa_placement(void)
{
	unsigned long mask[RTE_MAX_NUMA_NODES / (8 * sizeof(long)) + 1];
	bool sw = strcmp(fx.spawn_drv, "ism_lo") == 0 ||
		strcmp(fx.spawn_drv, "ism_shm") == 0;
	bool shm = strcmp(fx.spawn_drv, "ism_shm") == 0;
	struct rte_ism_dev_info info;
	struct rte_ism_dmb d;
	char name[64], arg[32];
	int mode = -1, node, c, unknown;
	unsigned int i;

	/* QEMU's user-mode emulation has no move_pages(2) nor mbind(2). */
	if (page_node(&info) == -ENOSYS) {
		printf("    move_pages(2) is not implemented here\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(rte_ism_info_get(fx.a, &info), "info_get");
	TEST_ASSERT(info.socket_id == SOCKET_ID_ANY ||
		    (info.socket_id >= 0 &&
		     info.socket_id < RTE_MAX_NUMA_NODES), "socket_id %d",
		    info.socket_id);
	TEST_ASSERT_SUCCESS(fx_register(fx.a, 3 * 4096, &fx.ib.gid, &d),
			    "register");
	memset(d.addr, 1, d.len);	/* the first touch */
	for (i = 0; i < 3 && info.socket_id >= 0; i++) {
		node = page_node(RTE_PTR_ADD(d.addr, i * 4096));
		TEST_ASSERT(node == info.socket_id,
			    "page %u of the DMB on node %d, device on %d", i,
			    node, info.socket_id);
	}
	if (shm && info.socket_id >= 0) {
		memset(mask, 0, sizeof(mask));
		TEST_ASSERT(syscall(SYS_get_mempolicy, &mode, mask,
				    (unsigned long)RTE_MAX_NUMA_NODES + 1,
				    d.addr, MPOL_F_ADDR) == 0,
			    "get_mempolicy: %s", strerror(errno));
		TEST_ASSERT(mode == MPOL_PREFERRED, "policy %d, not "
			    "MPOL_PREFERRED", mode);
		for (i = 0; i < RTE_MAX_NUMA_NODES; i++)
			TEST_ASSERT(((mask[i / (8 * sizeof(long))] >>
				      (i % (8 * sizeof(long)))) & 1) ==
				    (i == (unsigned int)info.socket_id),
				    "node %u in the policy's mask", i);
	}
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(fx.a, d.token),
			    "unregister");
	if (shm && info.socket_id >= 0)
		TEST_ASSERT_SUCCESS(check_sba_policy(info.socket_id),
				    "signal areas");
	if (!sw || info.socket_id < 0)
		return TEST_SUCCESS;
	/* socket= of each known node: reported by info. */
	for (i = 0; i < rte_socket_count(); i++) {
		node = rte_socket_id_by_idx(i);
		snprintf(arg, sizeof(arg), "socket=%d", node);
		c = fx_spawn(arg, name, sizeof(name));
		if (FX_SPAWN_SKIPPED(c))
			return TEST_SKIPPED;
		TEST_ASSERT(c >= 0, "spawn with %s: %d", arg, c);
		TEST_ASSERT_SUCCESS(rte_ism_info_get(c, &info), "info_get");
		TEST_ASSERT_SUCCESS(fx_unspawn(name), "unspawn");
		TEST_ASSERT(info.socket_id == node, "socket_id %d with %s",
			    info.socket_id, arg);
	}
	/* A node EAL does not know is refused (if there is one). */
	for (unknown = RTE_MAX_NUMA_NODES - 1; unknown >= 0; unknown--) {
		for (i = 0; i < rte_socket_count(); i++)
			if (rte_socket_id_by_idx(i) == unknown)
				break;
		if (i == rte_socket_count())
			break;
	}
	if (unknown >= 0) {
		snprintf(arg, sizeof(arg), "socket=%d", unknown);
		c = fx_spawn(arg, name, sizeof(name));
		TEST_ASSERT(c < 0, "spawn with %s (unknown node) succeeded",
			    arg);
	}
	snprintf(arg, sizeof(arg), "socket=%d", RTE_MAX_NUMA_NODES);
	TEST_ASSERT(fx_spawn(arg, name, sizeof(name)) < 0,
		    "spawn with %s succeeded", arg);
	return TEST_SUCCESS;
}

static const struct test_case dmb_cases[] = {
	{ "register_basic", test_register_basic },
	{ "register_idx", test_register_idx },
	{ "register_errors", test_register_errors },
	{ "register_max_len", test_register_max_len },
	{ "table_full", test_table_full },
	{ "unregister_errors", test_unregister_errors },
	{ "numa_placement", test_numa_placement },
	{ NULL, NULL },
};

const struct test_suite suite_dmb = { "dmb", dmb_cases, 1 };
