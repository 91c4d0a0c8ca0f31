/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The PCI backend at the register level (the suite pci_protocol): the
 * command protocol here; store blocks in test_pci_store.c, the SBA, the
 * IEQ and the interrupt in test_pci_signal.c, the recorder in
 * test_pci_rec.c.
 */

#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_memory.h>

#include "test_pci_rec.h"

static int
test_init_and_teardown_order(void)
{
	static struct pdev p;
	static const uint32_t init[] = { 0x01, 0x02, 0x08, 0x03 };
	uint32_t cmds[8];
	const uint8_t *b;
	struct rte_ism_dmb d = { .len = 64 };
	unsigned int n, mark;
	uint64_t sba;

	TEST_RET(pdev_create(&p, "ism_pciproto_init", 0x1111, true), 0);
	n = cmd_list(&p.rec, 0, cmds, RTE_DIM(cmds));
	TEST_ASSERT(n == 4 && memcmp(cmds, init, sizeof(init)) == 0,
		    "init commands: %u, first 0x%x", n, cmds[0]);
	/* REG_SBA: 16 bytes, a 4 KiB aligned IOVA of DPDK memory at 8. */
	b = check_request(&p.rec, find_cmd(&p.rec, 0, 0x01, 0), 0x01, 16);
	TEST_ASSERT(b != NULL, "REG_SBA request");
	sba = be64_at(b + 8);
	TEST_ASSERT(sba != 0 && sba % 4096 == 0 &&
		    rte_mem_iova2virt(sba) != NULL, "SBA IOVA 0x%" PRIx64, sba);
	/* REG_IEQ: 24 bytes, IOVA at 8, length 512 at 16. */
	b = check_request(&p.rec, find_cmd(&p.rec, 0, 0x02, 0), 0x02, 24);
	TEST_ASSERT(b != NULL && be64_at(b + 16) == 512 &&
		    rte_mem_iova2virt(be64_at(b + 8)) != NULL, "REG_IEQ");
	TEST_ASSERT(check_request(&p.rec, find_cmd(&p.rec, 0, 0x08, 0), 0x08,
				  8) != NULL, "QUERY_INFO request");
	TEST_ASSERT(check_request(&p.rec, find_cmd(&p.rec, 0, 0x03, 0), 0x03,
				  8) != NULL, "READ_GID request");
	TEST_ASSERT(p.info.gid.gid == 0x1111 && p.info.gid.gid_ext == 0 &&
		    p.info.chid == CHID, "GID from READ_GID");
	TEST_ASSERT(!(p.info.capa & RTE_ISM_CAPA_NOCOPY) &&
		    (p.info.capa & RTE_ISM_CAPA_HW) &&
		    (p.info.capa & RTE_ISM_CAPA_VLAN) &&
		    (p.info.capa & RTE_ISM_CAPA_SIGNAL_EVENT) &&
		    p.info.max_dmbs == 1888 && p.info.max_dmb_len == 1u << 20,
		    "capabilities 0x%" PRIx64 " / limits", p.info.capa);

	/* Left registered: the teardown unregisters it, then IEQ, SBA. */
	d.rgid = p.info.gid;
	TEST_RET(rte_ism_dmb_register(p.id, &d), 0);
	mark = p.rec.n;
	pdev_destroy(&p);
	n = cmd_list(&p.rec, mark, cmds, RTE_DIM(cmds));
	TEST_ASSERT(n == 3 && cmds[0] == 0x0b && cmds[1] == 0x12 &&
		    cmds[2] == 0x11, "teardown: %u commands, 0x%x 0x%x 0x%x",
		    n, cmds[0], cmds[1], cmds[2]);
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x0b, 0), 0x0b, 16);
	TEST_ASSERT(b != NULL && be64_at(b + 8) == d.token, "UNREG_DMB token");
	TEST_RET(rte_ism_get_dev_id("ism_pciproto_init"), -ENODEV);
	return TEST_SUCCESS;
}

/* A failing step of the bring-up undoes the steps before it, in reverse. */
static int
test_init_failure(void)
{
	static struct pdev p;
	static const struct {
		uint32_t cmd;
		uint32_t undo[2];
	} cases[] = {
		{ 0x02, { 0x11, 0 } },		/* REG_IEQ: UNREG_SBA */
		{ 0x03, { 0x12, 0x11 } },	/* READ_GID: UNREG_IEQ, UNREG_SBA */
	};
	struct ism_pci_platform plat = {
		.io = { .ops = &rec_ops, .ctx = &p.rec },
		.chid = CHID,
	};
	struct ism_pci_config cfg = { .driver_name = "ism_pciproto" };
	uint32_t cmds[8];
	unsigned int i, n, k;
	int ret;

	for (i = 0; i < RTE_DIM(cases); i++) {
		memset(&p, 0, sizeof(p));
		TEST_RET(ism_pci_model_fn_create("ism_pciproto_fail", 0x2222,
						 CHID, NULL, &p.fn), 0);
		p.rec.fn = p.fn;
		p.rec.fault = (struct rec_fault){ cases[i].cmd, 0xffff, false,
						  1 };
		ret = ism_pci_dev_create("ism_pciproto_fail", NULL,
				SOCKET_ID_ANY, &plat, &cfg);
		ism_pci_model_fn_destroy(p.fn);
		TEST_RET(ret, -EIO);
		TEST_ASSERT(fx_rawdev_id("ism_pciproto_fail") < 0 &&
			    rte_ism_get_dev_id("ism_pciproto_fail") == -ENODEV,
			    "device left after a failed bring-up");
		n = cmd_list(&p.rec, find_cmd(&p.rec, 0, cases[i].cmd, 0) + 1,
			     cmds, RTE_DIM(cmds));
		for (k = 0; k < 2 && cases[i].undo[k] != 0; k++)
			TEST_ASSERT(k < n && cmds[k] == cases[i].undo[k],
				    "after failing 0x%x: undo step %u is 0x%x",
				    cases[i].cmd, k, k < n ? cmds[k] : 0);
		TEST_ASSERT(n == k, "after failing 0x%x: %u commands, "
			    "want %u", cases[i].cmd, n, k);
	}
	return TEST_SUCCESS;
}

static int
test_command_layouts(void)
{
	static struct pdev p, q;
	struct rte_ism_dmb d = { .len = 5000, .idx = 100, .vlan_valid = 1,
				 .vlan_id = 42 };
	const uint8_t *b;
	unsigned int mark;
	uint64_t token;
	int ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_a", 0xa1, true), 0);
	if (pdev_create(&q, "ism_pciproto_b", 0x00b2b3b4b5b6b7b8, true) != 0)
		goto out;

	d.rgid = q.info.gid;
	mark = p.rec.n;
	if (rte_ism_dmb_register(p.id, &d) != 0)
		goto out;
	/* REG_DMB: 40 bytes; dmb @8, len @16, idx @20, vlan_valid @24,
	 * vlan_id @28, rgid @32. The response carries the token. */
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x0a, 0), 0x0a, 40);
	if (b == NULL || be64_at(b + 8) != rte_mem_virt2iova(d.addr) ||
	    be32_at(b + 16) != 5000 || be32_at(b + 20) != 100 ||
	    be32_at(b + 24) != 1 || be32_at(b + 28) != 42 ||
	    be64_at(b + 32) != 0x00b2b3b4b5b6b7b8) {
		printf("    FAIL: REG_DMB request\n");
		goto out;
	}
	if (d.idx != 100 || (d.token & 0x0fffffff) != 0) {
		printf("    FAIL: REG_DMB result idx %u token 0x%" PRIx64 "\n",
		       d.idx, d.token);
		goto out;
	}
	/* QUERY_RGID: 24 bytes; rgid @8, vlan_valid @16, vlan_id @20. */
	mark = p.rec.n;
	rte_ism_query_remote_gid(p.id, &q.info.gid, 1, 7);
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x09, 0), 0x09, 24);
	if (b == NULL || be64_at(b + 8) != 0x00b2b3b4b5b6b7b8 ||
	    be32_at(b + 16) != 1 || be32_at(b + 20) != 7) {
		printf("    FAIL: QUERY_RGID request\n");
		goto out;
	}
	/* SIGNAL_IEQ: 32 bytes; rgid @8, trigger @16, code @20, info @24. */
	mark = p.rec.n;
	if (rte_ism_signal_event(p.id, &q.info.gid, 1, 0x83,
				 0x0102030405060708ULL) != 0)
		goto out;
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x0e, 0), 0x0e, 32);
	if (b == NULL || be64_at(b + 8) != 0x00b2b3b4b5b6b7b8 ||
	    be32_at(b + 16) != 1 || be32_at(b + 20) != 0x83 ||
	    be64_at(b + 24) != 0x0102030405060708ULL) {
		printf("    FAIL: SIGNAL_IEQ request\n");
		goto out;
	}
	/* ADD_VLAN_ID / DEL_VLAN_ID: 16 bytes; vlan id (u64) @8. Adding
	 * twice and deleting a non-member do not reach the device. */
	mark = p.rec.n;
	if (rte_ism_vlan_add(p.id, 0x123) != 0 ||
	    rte_ism_vlan_add(p.id, 0x123) != 0 ||
	    rte_ism_vlan_del(p.id, 0x123) != 0 ||
	    rte_ism_vlan_del(p.id, 0x123) != -ENOENT)
		goto out;
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x04, 0), 0x04, 16);
	if (b == NULL || be64_at(b + 8) != 0x123 ||
	    find_cmd(&p.rec, mark, 0x04, 1) >= 0) {
		printf("    FAIL: ADD_VLAN_ID request\n");
		goto out;
	}
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x05, 0), 0x05, 16);
	if (b == NULL || be64_at(b + 8) != 0x123 ||
	    find_cmd(&p.rec, mark, 0x05, 1) >= 0) {
		printf("    FAIL: DEL_VLAN_ID request\n");
		goto out;
	}
	/* UNREG_DMB: 16 bytes; token @8. */
	mark = p.rec.n;
	token = d.token;
	if (rte_ism_dmb_unregister(p.id, d.token) != 0)
		goto out;
	d.token = 0;
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x0b, 0), 0x0b, 16);
	if (b == NULL || be64_at(b + 8) != token) {
		printf("    FAIL: UNREG_DMB request\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	if (d.token != 0)
		rte_ism_dmb_unregister(p.id, d.token);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/*
 * QUERY_INFO is only logged, as Linux does: a function that answers it
 * with ISM_ERROR, or with a header and no body, still comes up, and the
 * bring-up goes on to READ_GID. (It used to abort the bring-up.)
 */
static int
test_query_info_failure(void)
{
	static struct pdev p;
	static const uint32_t quirks[] = {
		ISM_MODEL_Q_QI_FAIL, ISM_MODEL_Q_QI_SHORT,
	};
	static const uint32_t init[] = { 0x01, 0x02, 0x08, 0x03 };
	struct pdev_opts o = { .irq = true };
	struct rte_ism_dmb d;
	uint32_t cmds[8];
	unsigned int i, n;
	char *dump = NULL;
	size_t dump_len = 0;
	FILE *f;

	for (i = 0; i < RTE_DIM(quirks); i++) {
		o.model.quirks = quirks[i];
		TEST_RET(pdev_create_opts(&p, "ism_pciproto_qi", 0x9a1, &o), 0);
		n = cmd_list(&p.rec, 0, cmds, RTE_DIM(cmds));
		TEST_ASSERT(n == 4 && memcmp(cmds, init, sizeof(init)) == 0,
			    "quirk 0x%x: %u init commands", quirks[i], n);
		TEST_ASSERT(p.info.gid.gid == 0x9a1, "GID after QUERY_INFO "
			    "failed: 0x%" PRIx64, p.info.gid.gid);
		TEST_ASSERT(xstat(&p, quirks[i] == ISM_MODEL_Q_QI_FAIL ?
				  "pci_command_device_errors" :
				  "pci_command_io_errors") == 1,
			    "quirk 0x%x: the failure is not counted",
			    quirks[i]);
		/* The device works; the dump says QUERY_INFO did not. */
		if (fx_register(p.id, 64, &p.info.gid, &d) != TEST_SUCCESS ||
		    rte_ism_dmb_unregister(p.id, d.token) != 0) {
			pdev_destroy(&p);
			TEST_ASSERT(false, "quirk 0x%x: DMB", quirks[i]);
		}
		f = open_memstream(&dump, &dump_len);
		TEST_ASSERT(f != NULL, "open_memstream");
		rte_ism_dump(p.id, f);
		fclose(f);
		pdev_destroy(&p);
		TEST_ASSERT(strstr(dump, "no QUERY_INFO answer") != NULL,
			    "dump: %s", dump);
		free(dump);
		dump = NULL;
	}
	return TEST_SUCCESS;
}

/* The alignment of the buffer whose bytes a recorded write carried. */
static bool
aligned(const struct rec_op *op, uintptr_t align)
{
	return op->addr % align == 0;
}

/*
 * Memory and command buffers placed as Linux places them: the SBA and the
 * IEQ on pages, a DMB on a page or its size rounded up to a power of two
 * (dma_alloc_coherent()), and the command buffers aligned as Linux's
 * command unions (64 bytes QUERY_INFO, 32 REG_DMB and SIGNAL_IEQ, 8 the
 * header-only unregisters, 16 the rest).
 */
static int
test_alignment(void)
{
	static struct pdev p;
	static const struct {
		uint32_t cmd;
		uintptr_t align;
	} cmds[] = {
		{ 0x01, 16 }, { 0x02, 16 }, { 0x08, 64 }, { 0x03, 16 },
		{ 0x0a, 32 }, { 0x0e, 32 }, { 0x09, 16 }, { 0x0b, 16 },
		{ 0x12, 8 }, { 0x11, 8 },
	};
	static const uint32_t lens[] = { 64, 4095, 4096, 5000, 65536 };
	struct rte_ism_dmb d[RTE_DIM(lens)];
	const uint8_t *b;
	unsigned int i;
	uint64_t iova;
	int h;

	TEST_RET(pdev_create(&p, "ism_pciproto_align", 0xa11, true), 0);
	b = check_request(&p.rec, find_cmd(&p.rec, 0, 0x02, 0), 0x02, 24);
	TEST_ASSERT(b != NULL && be64_at(b + 8) % 4096 == 0,
		    "IEQ not on a page");
	b = check_request(&p.rec, find_cmd(&p.rec, 0, 0x01, 0), 0x01, 16);
	TEST_ASSERT(b != NULL && be64_at(b + 8) % 4096 == 0,
		    "SBA not on a page");
	memset(d, 0, sizeof(d));
	for (i = 0; i < RTE_DIM(lens); i++) {
		if (fx_register(p.id, lens[i], &p.info.gid, &d[i]) !=
		    TEST_SUCCESS)
			break;
		h = find_cmd(&p.rec, 0, 0x0a, i);
		b = check_request(&p.rec, h, 0x0a, 40);
		iova = b != NULL ? be64_at(b + 8) : 1;
		if (iova % RTE_MAX(rte_align32pow2(lens[i]), 4096u) != 0) {
			printf("    FAIL: DMB of %u bytes at IOVA 0x%" PRIx64
			       "\n", lens[i], iova);
			break;
		}
	}
	rte_ism_signal_event(p.id, &p.info.gid, 0, 1, 2);
	rte_ism_query_remote_gid(p.id, &p.info.gid, 0, 0);
	if (i == RTE_DIM(lens))
		rte_ism_dmb_unregister(p.id, d[0].token);
	pdev_destroy(&p);
	TEST_ASSERT(i == RTE_DIM(lens), "DMB %u", i);
	for (i = 0; i < RTE_DIM(cmds); i++) {
		h = find_cmd(&p.rec, 0, cmds[i].cmd, 0);
		TEST_ASSERT(h >= 0, "no command 0x%x", cmds[i].cmd);
		TEST_ASSERT(aligned(&p.rec.ops[h], cmds[i].align),
			    "command 0x%x from a buffer at ...%03" PRIxPTR
			    ", want %" PRIuPTR "-byte alignment", cmds[i].cmd,
			    p.rec.ops[h].addr & 0xfff, cmds[i].align);
	}
	return TEST_SUCCESS;
}

static int
test_device_errors(void)
{
	static struct pdev p, q;
	struct rte_ism_dmb d, e;
	struct rte_ism_gid far = { 0x5eed, 0 };
	uint64_t dev0, unr0, io0, err0;
	char byte = 1;
	int ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_a", 0xf1, true), 0);
	if (pdev_create(&q, "ism_pciproto_b", 0xf2, true) != 0)
		goto out;
	memset(&d, 0, sizeof(d));
	d.len = 64;
	d.rgid = q.info.gid;
	dev0 = xstat(&p, "pci_command_device_errors");
	unr0 = xstat(&p, "pci_command_unreachable");
	io0 = xstat(&p, "pci_command_io_errors");

	/* REG_DMB refused: -EIO, memory and index given back. */
	p.rec.fault = (struct rec_fault){ 0x0a, 0xffff, false, 1 };
	if (rte_ism_dmb_register(p.id, &d) != -EIO ||
	    rte_ism_dmb_register(p.id, &d) != 0 || d.idx != 32)
		goto fail;
	/* QUERY_RGID: a code is "not reachable", 0xffff a failure. */
	p.rec.fault = (struct rec_fault){ 0x09, 0x0042, false, 1 };
	if (rte_ism_query_remote_gid(p.id, &q.info.gid, 0, 0) != -ENETUNREACH)
		goto fail;
	p.rec.fault = (struct rec_fault){ 0x09, 0xffff, false, 1 };
	if (rte_ism_query_remote_gid(p.id, &q.info.gid, 0, 0) != -EIO ||
	    rte_ism_query_remote_gid(p.id, &far, 0, 0) != -ENETUNREACH ||
	    rte_ism_query_remote_gid(p.id, &q.info.gid, 0, 0) != 0)
		goto fail;
	/* SIGNAL_IEQ and ADD_VLAN_ID failing; a failed add is no member. */
	p.rec.fault = (struct rec_fault){ 0x0e, 0xffff, false, 1 };
	if (rte_ism_signal_event(p.id, &q.info.gid, 0, 1, 2) != -EIO)
		goto fail;
	p.rec.fault = (struct rec_fault){ 0x04, 0xffff, false, 1 };
	if (rte_ism_vlan_add(p.id, 9) != -EIO ||
	    rte_ism_vlan_del(p.id, 9) != -ENOENT)
		goto fail;
	/* UNREG_DMB with a code: not done, the DMB stays usable. */
	p.rec.fault = (struct rec_fault){ 0x0b, 0x0101, false, 1 };
	if (rte_ism_dmb_unregister(p.id, d.token) != -EIO ||
	    rte_ism_move_data(q.id, d.token, 0, 0, 0, &byte, 1) != 0)
		goto fail;
	/* UNREG_DMB done but answered ISM_ERROR: released, as in Linux. */
	p.rec.fault = (struct rec_fault){ 0x0b, 0xffff, true, 1 };
	if (rte_ism_dmb_unregister(p.id, d.token) != -EIO ||
	    rte_ism_dmb_unregister(p.id, d.token) != -ENOENT ||
	    rte_ism_move_data(q.id, d.token, 0, 0, 0, &byte, 1) != -ENOENT)
		goto fail;
	if (xstat(&p, "pci_command_device_errors") - dev0 != 6 ||
	    xstat(&p, "pci_command_unreachable") - unr0 != 2)
		goto fail;
	/* The command window cannot be read: -EIO, counted apart. */
	p.rec.read_errno = EIO;
	if (rte_ism_query_remote_gid(p.id, &q.info.gid, 0, 0) != -EIO)
		goto fail;
	p.rec.read_errno = 0;
	if (xstat(&p, "pci_command_io_errors") - io0 != 1)
		goto fail;
	/* A store block the platform fails: -EIO, errors_device. */
	if (fx_register(p.id, 64, &q.info.gid, &e) != TEST_SUCCESS)
		goto out;
	err0 = xstat(&q, "errors_device");
	q.rec.store_errno = EIO;
	ret = rte_ism_move_data(q.id, e.token, 0, 1, 0, &byte, 1);
	q.rec.store_errno = 0;
	rte_ism_dmb_unregister(p.id, e.token);
	if (ret != -EIO || xstat(&q, "errors_device") - err0 != 1) {
		ret = TEST_FAILED;
		goto fail;
	}
	ret = TEST_SUCCESS;
	goto out;
fail:
	printf("    FAIL: device error mapping (see the log above)\n");
out:
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/*
 * Memory the device may still write is never freed: a DMB whose token had
 * to be given back but was not taken back, and the IEQ and SBA when
 * UNREG_IEQ or UNREG_SBA fail at teardown. Each case is measured against
 * a clean create/destroy cycle in DPDK heap blocks left allocated.
 */
static int
test_unreg_failure_keeps_memory(void)
{
	static struct pdev p;
	static const struct {
		uint32_t cmd;		/* failing at teardown, or 0 */
		bool bad_token;		/* REG_DMB issues a bad token */
		bool taken_back;	/* ... and UNREG_DMB succeeds */
		uint64_t kept;		/* heap blocks left behind */
	} cases[] = {
		{ 0, false, false, 0 },
		{ 0, true, true, 0 },
		{ 0, true, false, 1 },		/* the DMB */
		{ 0x12, false, false, 1 },	/* UNREG_IEQ: the IEQ */
		{ 0x11, false, false, 1 },	/* UNREG_SBA: the SBA */
	};
	struct rte_ism_dmb d;
	uint64_t base = 0, c0, c1;
	unsigned int i;

	for (i = 0; i < RTE_DIM(cases); i++) {
		c0 = heap_allocs();
		TEST_RET(pdev_create(&p, "ism_pciproto_unreg", 0x0e1, true),
			 0);
		memset(&d, 0, sizeof(d));
		d.len = 4096;
		d.rgid = p.info.gid;
		if (cases[i].bad_token) {
			p.rec.bad_token = true;
			if (cases[i].taken_back)
				p.rec.fault = (struct rec_fault){ 0x0b, 0,
								  false, 1 };
			c1 = heap_allocs();
			TEST_RET(rte_ism_dmb_register(p.id, &d), -EIO);
			TEST_ASSERT(heap_allocs() - c1 == cases[i].kept,
				    "case %u: %" PRIu64 " blocks kept after a "
				    "bad token", i, heap_allocs() - c1);
		}
		/*
		 * The device holds the index of a DMB it kept. (The faked
		 * UNREG_DMB did not reach the model, which still holds
		 * index 32: no second DMB there.)
		 */
		if (!cases[i].taken_back) {
			TEST_RET(rte_ism_dmb_register(p.id, &d), 0);
			TEST_ASSERT(d.idx == (cases[i].bad_token ? 33 : 32),
				    "case %u: DMB index %u", i, d.idx);
		}
		if (cases[i].cmd != 0)
			p.rec.fault = (struct rec_fault){ cases[i].cmd, 0x0101,
							  false, 1 };
		pdev_destroy(&p);
		TEST_ASSERT(p.rec.fault.count == 0, "case %u: no command 0x%x",
			    i, cases[i].cmd);
		if (i == 0)
			base = heap_allocs() - c0;
		TEST_ASSERT(heap_allocs() - c0 - base == cases[i].kept,
			    "case %u: %" PRIu64 " blocks left, want %" PRIu64,
			    i, heap_allocs() - c0 - base, cases[i].kept);
	}
	return TEST_SUCCESS;
}

static int
stuck_command(void *arg)
{
	struct pdev *p = arg;

	/* Stalls inside the command window, holding the command lock. */
	return rte_ism_signal_event(p->id, &p->info.gid, 0, 1, 1);
}

/* move_data and the signal poll never wait for the command channel. */
static int
test_fast_path_lock_free(void)
{
	static struct pdev p, q;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	struct rte_ism_signal sig[1];
	struct rte_ism_dmb d;
	uint64_t deadline;
	char byte = 7;
	int ret = TEST_FAILED, moved = -1, polled = -1;

	if (worker >= RTE_MAX_LCORE) {
		printf("    needs 2 lcores (-l 0,1)\n");
		return TEST_SKIPPED;
	}
	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0xfa1, true), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0xfa2, true) != 0 ||
	    fx_register(p.id, 64, &q.info.gid, &d) != TEST_SUCCESS)
		goto out;
	q.rec.stall = true;
	if (rte_eal_remote_launch(stuck_command, &q, worker) != 0)
		goto out;
	deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
	while (!q.rec.stalled && rte_get_timer_cycles() < deadline)
		rte_pause();
	if (q.rec.stalled) {
		moved = rte_ism_move_data(q.id, d.token, 2, 1, 0, &byte, 1);
		polled = rte_ism_signal_poll(q.id, sig, 1);
	}
	q.rec.stall = false;
	rte_eal_wait_lcore(worker);
	if (!q.rec.stall_expired && moved == 0 && polled == 0 &&
	    ((char *)d.addr)[0] == 7 &&
	    rte_ism_signal_poll(p.id, sig, 1) == 1)
		ret = TEST_SUCCESS;
	else
		printf("    FAIL: stalled %d move %d poll %d\n", q.rec.stalled,
		       moved, polled);
out:
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

static const struct test_case pci_protocol_cases[] = {
	{ "init_and_teardown_order", test_init_and_teardown_order },
	{ "init_failure", test_init_failure },
	{ "query_info_failure", test_query_info_failure },
	{ "command_layouts", test_command_layouts },
	{ "alignment", test_alignment },
	{ "store_block_split", test_store_block_split },
	{ "maxstbl_split", test_maxstbl_split },
	{ "model_store_rules", test_model_store_rules },
	{ "zero_length_and_refusals", test_zero_length_and_refusals },
	{ "burst_order", test_burst_order },
	{ "token_bits_20_22", test_token_bits_20_22 },
	{ "dma_window", test_dma_window },
	{ "device_errors", test_device_errors },
	{ "unreg_failure_keeps_memory", test_unreg_failure_keeps_memory },
	{ "ieq_wrap", test_ieq_wrap },
	{ "interrupt_path", test_interrupt_path },
	{ "sba_order", test_sba_order },
	{ "signal_mask0", test_signal_mask0 },
	{ "signal_without_s", test_signal_without_s },
	{ "fast_path_lock_free", test_fast_path_lock_free },
	{ NULL, NULL },
};

const struct test_suite suite_pci_protocol = {
	"pci_protocol", pci_protocol_cases, 1
};
