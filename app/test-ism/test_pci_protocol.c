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

#include <ism_driver.h>

#include "test_pci_rec.h"

/* The first bytes of the response body read after the command header h
 * (BAR 2, offset 8), as the device gave them; NULL if none was read.
 */
static const uint8_t *
response_body(const struct recorder *r, int h)
{
	unsigned int i;

	for (i = h < 0 ? r->n : (unsigned int)h + 1; i < r->n && i < REC_MAX;
	     i++) {
		const struct rec_op *op = &r->ops[i];

		if (op->write && op->bar == 2)
			break;	/* the next command */
		if (!op->write && op->bar == 2 && op->off == 8 && op->len >= 8)
			return op->data;
	}
	return NULL;
}

/* The bring-up of p as recorded; then a DMB d left registered. */
static int
init_commands(struct pdev *p, struct rte_ism_dmb *d)
{
	static const uint32_t init[] = { 0x01, 0x02, 0x08, 0x03 };
	uint32_t cmds[8] = { 0 };
	const uint8_t *b;
	unsigned int n;
	uint64_t sba;

	n = cmd_list(&p->rec, 0, cmds, RTE_DIM(cmds));
	TEST_ASSERT(n == 4 && memcmp(cmds, init, sizeof(init)) == 0,
		    "init commands: %u, first 0x%x; expected 4: 0x01 0x02 0x08 "
		    "0x03", n, cmds[0]);
	/* REG_SBA: 16 bytes, a 4 KiB aligned IOVA of DPDK memory at 8. */
	b = check_request(&p->rec, find_cmd(&p->rec, 0, 0x01, 0), 0x01, 16);
	TEST_ASSERT_NOT_NULL(b, "REG_SBA request");
	sba = be64_at(b + 8);
	TEST_ASSERT(sba != 0 && sba % 4096 == 0 &&
		    rte_mem_iova2virt(sba) != NULL, "SBA IOVA 0x%" PRIx64
		    ", expected a page of DPDK memory", sba);
	/* REG_IEQ: 24 bytes, IOVA at 8, length 512 at 16. */
	b = check_request(&p->rec, find_cmd(&p->rec, 0, 0x02, 0), 0x02, 24);
	TEST_ASSERT_NOT_NULL(b, "REG_IEQ request");
	TEST_ASSERT_EQUAL(be64_at(b + 16), 512, "REG_IEQ length");
	TEST_ASSERT_NOT_NULL(rte_mem_iova2virt(be64_at(b + 8)),
			     "REG_IEQ IOVA 0x%" PRIx64 " not DPDK memory",
			     be64_at(b + 8));
	TEST_ASSERT_NOT_NULL(check_request(&p->rec,
					   find_cmd(&p->rec, 0, 0x08, 0), 0x08,
					   8), "QUERY_INFO request");
	TEST_ASSERT_NOT_NULL(check_request(&p->rec,
					   find_cmd(&p->rec, 0, 0x03, 0), 0x03,
					   8), "READ_GID request");
	/* The response as the device put it, byte by byte: the GID at 8,
	 * big-endian (whatever helpers the driver and the model share).
	 */
	b = response_body(&p->rec, find_cmd(&p->rec, 0, 0x03, 0));
	TEST_ASSERT(b != NULL && be64_at(b) == 0x1111,
		    "READ_GID response body: not the GID 0x1111 big-endian");
	TEST_ASSERT(p->info.gid.gid == 0x1111 && p->info.gid.gid_ext == 0,
		    "GID from READ_GID: 0x%" PRIx64 "/0x%" PRIx64 ", expected "
		    "0x1111/0", p->info.gid.gid, p->info.gid.gid_ext);
	TEST_ASSERT_EQUAL(p->info.chid, CHID, "CHID");
	TEST_ASSERT(!(p->info.capa & RTE_ISM_CAPA_NOCOPY) &&
		    (p->info.capa & RTE_ISM_CAPA_HW) &&
		    (p->info.capa & RTE_ISM_CAPA_VLAN) &&
		    (p->info.capa & RTE_ISM_CAPA_SIGNAL_EVENT),
		    "capabilities 0x%" PRIx64 ", expected HW, VLAN, "
		    "SIGNAL_EVENT and no NOCOPY", p->info.capa);
	TEST_ASSERT_EQUAL(p->info.max_dmbs, 1888, "limits");
	TEST_ASSERT_EQUAL(p->info.max_dmb_len, 1u << 20, "limits");

	/* Left registered: the teardown unregisters it, then IEQ, SBA. */
	d->rgid = p->info.gid;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(p->id, d), "dmb_register");
	return TEST_SUCCESS;
}

static int
test_init_and_teardown_order(void)
{
	static struct pdev p;
	uint32_t cmds[8] = { 0 };
	const uint8_t *b;
	struct rte_ism_dmb d = { .len = 64 };
	unsigned int n, mark;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_init", 0x1111, true),
			    "create ism_pciproto_init");
	ret = init_commands(&p, &d);
	mark = p.rec.n;
	pdev_destroy(&p);
	if (ret != TEST_SUCCESS)
		return ret;
	n = cmd_list(&p.rec, mark, cmds, RTE_DIM(cmds));
	TEST_ASSERT(n == 3 && cmds[0] == 0x0b && cmds[1] == 0x12 &&
		    cmds[2] == 0x11, "teardown: %u commands, 0x%x 0x%x 0x%x; "
		    "expected 3: 0x0b 0x12 0x11", n, cmds[0], cmds[1],
		    cmds[2]);
	b = check_request(&p.rec, find_cmd(&p.rec, mark, 0x0b, 0), 0x0b, 16);
	TEST_ASSERT_NOT_NULL(b, "UNREG_DMB request");
	TEST_ASSERT(be64_at(b + 8) == d.token, "UNREG_DMB token 0x%" PRIx64
		    ", expected 0x%" PRIx64, be64_at(b + 8), d.token);
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id("ism_pciproto_init"), -ENODEV,
			  "destroyed");
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
	const char *name = "ism_pciproto_fail";
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
		TEST_ASSERT_SUCCESS(ism_pci_model_fn_create(name, 0x2222, CHID,
							    NULL, &p.fn),
				    "model function");
		p.rec.fn = p.fn;
		p.rec.fault = (struct rec_fault){ cases[i].cmd, 0xffff, false,
						  1 };
		ret = ism_pci_dev_create(name, NULL, SOCKET_ID_ANY, &plat,
				&cfg);
		if (ret == 0)
			ism_pci_dev_destroy(name);
		ism_pci_model_fn_destroy(p.fn);
		TEST_ASSERT_EQUAL(ret, -EIO, "command 0x%x failing",
				  cases[i].cmd);
		TEST_ASSERT(rte_ism_pmd_get_named_dev(name) == NULL &&
			    rte_ism_get_dev_id(name) == -ENODEV,
			    "device left after a failed bring-up");
		n = cmd_list(&p.rec, find_cmd(&p.rec, 0, cases[i].cmd, 0) + 1,
			     cmds, RTE_DIM(cmds));
		for (k = 0; k < 2 && cases[i].undo[k] != 0; k++) {
			TEST_ASSERT(k < n, "after failing 0x%x: no undo step "
				    "%u, expected 0x%x", cases[i].cmd, k,
				    cases[i].undo[k]);
			TEST_ASSERT(cmds[k] == cases[i].undo[k],
				    "after failing 0x%x: undo step %u is 0x%x, "
				    "expected 0x%x", cases[i].cmd, k, cmds[k],
				    cases[i].undo[k]);
		}
		TEST_ASSERT_EQUAL(n, k, "commands after failing 0x%x",
				  cases[i].cmd);
	}
	return TEST_SUCCESS;
}

/* The request of each command of p, to q, DMB d (left registered if the
 * test fails, d->token 0 once unregistered).
 */
static int
command_layouts(struct pdev *p, struct pdev *q, struct rte_ism_dmb *d)
{
	const uint64_t qgid = 0x00b2b3b4b5b6b7b8;
	const uint8_t *b;
	unsigned int mark;
	uint64_t token;

	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_b", qgid, true),
			    "create ism_pciproto_b");
	d->rgid = q->info.gid;
	mark = p->rec.n;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(p->id, d), "dmb_register");
	/* REG_DMB: 40 bytes; dmb @8, len @16, idx @20, vlan_valid @24,
	 * vlan_id @28, rgid @32. The response carries the token.
	 */
	b = check_request(&p->rec, find_cmd(&p->rec, mark, 0x0a, 0), 0x0a, 40);
	TEST_ASSERT_NOT_NULL(b, "REG_DMB request");
	TEST_ASSERT(be64_at(b + 8) == rte_mem_virt2iova(d->addr),
		    "REG_DMB IOVA 0x%" PRIx64 ", expected 0x%" PRIx64,
		    be64_at(b + 8), (uint64_t)rte_mem_virt2iova(d->addr));
	TEST_ASSERT_EQUAL(be32_at(b + 16), 5000, "REG_DMB len @16");
	TEST_ASSERT_EQUAL(be32_at(b + 20), 100, "REG_DMB idx @20");
	TEST_ASSERT_EQUAL(be32_at(b + 24), 1, "REG_DMB vlan_valid @24");
	TEST_ASSERT_EQUAL(be32_at(b + 28), 42, "REG_DMB vlan_id @28");
	TEST_ASSERT_EQUAL(be64_at(b + 32), qgid, "REG_DMB rgid @32");
	TEST_ASSERT_EQUAL(d->idx, 100, "REG_DMB result");
	TEST_ASSERT_EQUAL(d->token & 0x0fffffff, 0, "REG_DMB result token");
	/* QUERY_RGID: 24 bytes; rgid @8, vlan_valid @16, vlan_id @20. */
	mark = p->rec.n;
	rte_ism_query_remote_gid(p->id, &q->info.gid, 1, 7);
	b = check_request(&p->rec, find_cmd(&p->rec, mark, 0x09, 0), 0x09, 24);
	TEST_ASSERT_NOT_NULL(b, "QUERY_RGID request");
	TEST_ASSERT_EQUAL(be64_at(b + 8), qgid, "QUERY_RGID rgid @8");
	TEST_ASSERT_EQUAL(be32_at(b + 16), 1, "QUERY_RGID vlan_valid @16");
	TEST_ASSERT_EQUAL(be32_at(b + 20), 7, "QUERY_RGID vlan_id @20");
	/* SIGNAL_IEQ: 32 bytes; rgid @8, trigger @16, code @20, info @24. */
	mark = p->rec.n;
	TEST_ASSERT_SUCCESS(rte_ism_signal_event(p->id, &q->info.gid, 1, 0x83,
						 0x0102030405060708ULL),
			    "signal_event");
	b = check_request(&p->rec, find_cmd(&p->rec, mark, 0x0e, 0), 0x0e, 32);
	TEST_ASSERT_NOT_NULL(b, "SIGNAL_IEQ request");
	TEST_ASSERT_EQUAL(be64_at(b + 8), qgid, "SIGNAL_IEQ rgid @8");
	TEST_ASSERT_EQUAL(be32_at(b + 16), 1, "SIGNAL_IEQ trigger @16");
	TEST_ASSERT_EQUAL(be32_at(b + 20), 0x83, "SIGNAL_IEQ code @20");
	TEST_ASSERT_EQUAL(be64_at(b + 24), 0x0102030405060708ULL,
			  "SIGNAL_IEQ info @24");
	/* ADD_VLAN_ID / DEL_VLAN_ID: 16 bytes; vlan id (u64) @8. Adding
	 * twice and deleting a non-member do not reach the device.
	 */
	mark = p->rec.n;
	TEST_ASSERT_SUCCESS(rte_ism_vlan_add(p->id, 0x123), "vlan_add");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_add(p->id, 0x123), "vlan_add again");
	TEST_ASSERT_SUCCESS(rte_ism_vlan_del(p->id, 0x123), "vlan_del");
	TEST_ASSERT_EQUAL(rte_ism_vlan_del(p->id, 0x123), -ENOENT,
			  "vlan_del again");
	b = check_request(&p->rec, find_cmd(&p->rec, mark, 0x04, 0), 0x04, 16);
	TEST_ASSERT_NOT_NULL(b, "ADD_VLAN_ID request");
	TEST_ASSERT_EQUAL(be64_at(b + 8), 0x123, "ADD_VLAN_ID vlan id @8");
	TEST_ASSERT(find_cmd(&p->rec, mark, 0x04, 1) < 0,
		    "ADD_VLAN_ID issued twice");
	b = check_request(&p->rec, find_cmd(&p->rec, mark, 0x05, 0), 0x05, 16);
	TEST_ASSERT_NOT_NULL(b, "DEL_VLAN_ID request");
	TEST_ASSERT_EQUAL(be64_at(b + 8), 0x123, "DEL_VLAN_ID vlan id @8");
	TEST_ASSERT(find_cmd(&p->rec, mark, 0x05, 1) < 0,
		    "DEL_VLAN_ID issued twice");
	/* UNREG_DMB: 16 bytes; token @8. */
	mark = p->rec.n;
	token = d->token;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(p->id, d->token),
			    "dmb_unregister");
	d->token = 0;
	b = check_request(&p->rec, find_cmd(&p->rec, mark, 0x0b, 0), 0x0b, 16);
	TEST_ASSERT_NOT_NULL(b, "UNREG_DMB request");
	TEST_ASSERT(be64_at(b + 8) == token, "UNREG_DMB token 0x%" PRIx64
		    ", expected 0x%" PRIx64, be64_at(b + 8), token);
	return TEST_SUCCESS;
}

static int
test_command_layouts(void)
{
	static struct pdev p, q;
	struct rte_ism_dmb d = { .len = 5000, .idx = 100, .vlan_valid = 1,
				 .vlan_id = 42 };
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_a", 0xa1, true),
			    "create ism_pciproto_a");
	ret = command_layouts(&p, &q, &d);
	if (d.token != 0)
		rte_ism_dmb_unregister(p.id, d.token);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* The dump mentions what. */
static int
dump_has(const char *dump, const char *what)
{
	TEST_ASSERT(dump != NULL && strstr(dump, what) != NULL,
		    "\"%s\" not in the dump: %s", what, dump ? dump : "");
	return TEST_SUCCESS;
}

/* A device p whose QUERY_INFO failed as quirk makes it fail: the
 * bring-up, the count, a DMB; its dump into *dump (to free).
 */
static int
query_info_failed(struct pdev *p, uint32_t quirk, char **dump)
{
	static const uint32_t init[] = { 0x01, 0x02, 0x08, 0x03 };
	const char *counter = quirk == ISM_MODEL_Q_QI_FAIL ?
		"pci_command_device_errors" : "pci_command_io_errors";
	struct rte_ism_dmb d;
	uint32_t cmds[8] = { 0 };
	size_t dump_len = 0;
	unsigned int n;
	FILE *f;

	n = cmd_list(&p->rec, 0, cmds, RTE_DIM(cmds));
	TEST_ASSERT(n == 4 && memcmp(cmds, init, sizeof(init)) == 0,
		    "quirk 0x%x: %u init commands, first 0x%x; expected 4: "
		    "0x01 0x02 0x08 0x03", quirk, n, cmds[0]);
	TEST_ASSERT_EQUAL(p->info.gid.gid, 0x9a1,
			  "GID after QUERY_INFO failed");
	TEST_ASSERT_EQUAL(xstat(p, counter), 1, "quirk 0x%x: failure counted",
			  quirk);
	/* The device works; the dump says QUERY_INFO did not. */
	TEST_ASSERT_SUCCESS(fx_register(p->id, 64, &p->info.gid, &d),
			    "quirk 0x%x: DMB", quirk);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(p->id, d.token),
			    "quirk 0x%x: DMB", quirk);
	f = open_memstream(dump, &dump_len);
	TEST_ASSERT_NOT_NULL(f, "open_memstream");
	rte_ism_dump(p->id, f);
	fclose(f);
	return TEST_SUCCESS;
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
	struct pdev_opts o = { .irq = true };
	unsigned int i;
	char *dump;
	int ret;

	for (i = 0; i < RTE_DIM(quirks); i++) {
		o.model.quirks = quirks[i];
		TEST_ASSERT_SUCCESS(pdev_create_opts(&p, "ism_pciproto_qi",
						     0x9a1, &o),
				    "quirk 0x%x: create", quirks[i]);
		dump = NULL;
		ret = query_info_failed(&p, quirks[i], &dump);
		pdev_destroy(&p);
		if (ret == TEST_SUCCESS)
			ret = dump_has(dump, "no QUERY_INFO answer");
		free(dump);
		if (ret != TEST_SUCCESS)
			return ret;
	}
	return TEST_SUCCESS;
}

/* The alignment of the buffer whose bytes a recorded write carried. */
static bool
aligned(const struct rec_op *op, uintptr_t align)
{
	return op->addr % align == 0;
}

/* The DMBs of test_alignment() on p, lens[i] bytes into d[i], and the
 * commands whose buffers it checks.
 */
static int
alignment_commands(struct pdev *p, const uint32_t *lens, unsigned int nb,
		struct rte_ism_dmb *d)
{
	const uint8_t *b;
	unsigned int i;
	uint64_t iova, align;

	b = check_request(&p->rec, find_cmd(&p->rec, 0, 0x02, 0), 0x02, 24);
	TEST_ASSERT_NOT_NULL(b, "REG_IEQ request");
	TEST_ASSERT(be64_at(b + 8) % 4096 == 0, "IEQ at 0x%" PRIx64
		    ", not on a page", be64_at(b + 8));
	b = check_request(&p->rec, find_cmd(&p->rec, 0, 0x01, 0), 0x01, 16);
	TEST_ASSERT_NOT_NULL(b, "REG_SBA request");
	TEST_ASSERT(be64_at(b + 8) % 4096 == 0, "SBA at 0x%" PRIx64
		    ", not on a page", be64_at(b + 8));
	for (i = 0; i < nb; i++) {
		TEST_ASSERT_SUCCESS(fx_register(p->id, lens[i], &p->info.gid,
						&d[i]), "DMB %u", i);
		b = check_request(&p->rec, find_cmd(&p->rec, 0, 0x0a, i), 0x0a,
				  40);
		iova = b != NULL ? be64_at(b + 8) : 1;
		align = RTE_MAX(rte_align32pow2(lens[i]), 4096u);
		TEST_ASSERT(iova % align == 0, "DMB of %u bytes at IOVA 0x%"
			    PRIx64 ", expected %" PRIu64 "-byte alignment",
			    lens[i], iova, align);
	}
	rte_ism_signal_event(p->id, &p->info.gid, 0, 1, 2);
	rte_ism_query_remote_gid(p->id, &p->info.gid, 0, 0);
	rte_ism_dmb_unregister(p->id, d[0].token);
	return TEST_SUCCESS;
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
	unsigned int i;
	int h, ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_align", 0xa11, true),
			    "create ism_pciproto_align");
	memset(d, 0, sizeof(d));
	ret = alignment_commands(&p, lens, RTE_DIM(lens), d);
	pdev_destroy(&p);
	if (ret != TEST_SUCCESS)
		return ret;
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

/* The device errors of test_device_errors(), from p to q. */
static int
device_errors(struct pdev *p, struct pdev *q)
{
	struct rte_ism_dmb d, e;
	struct rte_ism_gid far = { 0x5eed, 0 };
	uint64_t dev0, unr0, io0, err0;
	char byte = 1;
	int mv;

	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_b", 0xf2, true),
			    "create ism_pciproto_b");
	memset(&d, 0, sizeof(d));
	d.len = 64;
	d.rgid = q->info.gid;
	dev0 = xstat(p, "pci_command_device_errors");
	unr0 = xstat(p, "pci_command_unreachable");
	io0 = xstat(p, "pci_command_io_errors");

	/* REG_DMB refused: -EIO, memory and index given back. */
	p->rec.fault = (struct rec_fault){ 0x0a, 0xffff, false, 1 };
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(p->id, &d), -EIO,
			  "REG_DMB failing");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(p->id, &d), "REG_DMB again");
	TEST_ASSERT_EQUAL(d.idx, 32, "the index given back");
	/* QUERY_RGID: every code is "not reachable", 0xffff too (SMC). */
	p->rec.fault = (struct rec_fault){ 0x09, 0x0042, false, 1 };
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(p->id, &q->info.gid, 0, 0),
			  -ENETUNREACH, "QUERY_RGID answered 0x0042");
	p->rec.fault = (struct rec_fault){ 0x09, 0xffff, false, 1 };
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(p->id, &q->info.gid, 0, 0),
			  -ENETUNREACH, "QUERY_RGID answered 0xffff");
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(p->id, &far, 0, 0),
			  -ENETUNREACH, "QUERY_RGID of no device");
	TEST_ASSERT_SUCCESS(rte_ism_query_remote_gid(p->id, &q->info.gid, 0,
						     0), "QUERY_RGID");
	/* SIGNAL_IEQ and ADD_VLAN_ID failing; a failed add is no member. */
	p->rec.fault = (struct rec_fault){ 0x0e, 0xffff, false, 1 };
	TEST_ASSERT_EQUAL(rte_ism_signal_event(p->id, &q->info.gid, 0, 1, 2),
			  -EIO, "SIGNAL_IEQ failing");
	p->rec.fault = (struct rec_fault){ 0x04, 0xffff, false, 1 };
	TEST_ASSERT_EQUAL(rte_ism_vlan_add(p->id, 9), -EIO,
			  "ADD_VLAN_ID failing");
	TEST_ASSERT_EQUAL(rte_ism_vlan_del(p->id, 9), -ENOENT,
			  "after a failed ADD_VLAN_ID");
	/* UNREG_DMB with a code: not done, the DMB stays usable. */
	p->rec.fault = (struct rec_fault){ 0x0b, 0x0101, false, 1 };
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(p->id, d.token), -EIO,
			  "UNREG_DMB answered 0x0101");
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d.token, 0, 0, 0, &byte,
					      1), "a DMB not unregistered");
	/* UNREG_DMB done but answered ISM_ERROR: released, as in Linux. */
	p->rec.fault = (struct rec_fault){ 0x0b, 0xffff, true, 1 };
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(p->id, d.token), -EIO,
			  "UNREG_DMB done, answered 0xffff");
	TEST_ASSERT_EQUAL(rte_ism_dmb_unregister(p->id, d.token), -ENOENT,
			  "a DMB released");
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token, 0, 0, 0, &byte, 1),
			  -ENOENT, "a DMB released");
	TEST_ASSERT_EQUAL(xstat(p, "pci_command_device_errors") - dev0, 5,
			  "device errors counted");
	TEST_ASSERT_EQUAL(xstat(p, "pci_command_unreachable") - unr0, 3,
			  "unreachable counted");
	/* The command window cannot be read: -EIO, counted apart. */
	p->rec.read_errno = EIO;
	TEST_ASSERT_EQUAL(rte_ism_query_remote_gid(p->id, &q->info.gid, 0, 0),
			  -EIO, "command window unreadable");
	p->rec.read_errno = 0;
	TEST_ASSERT_EQUAL(xstat(p, "pci_command_io_errors") - io0, 1,
			  "I/O errors counted");
	/* A store block the platform fails: -EIO, errors_device. */
	TEST_ASSERT_SUCCESS(fx_register(p->id, 64, &q->info.gid, &e),
			    "register a DMB");
	err0 = xstat(q, "errors_device");
	q->rec.store_errno = EIO;
	mv = rte_ism_move_data(q->id, e.token, 0, 1, 0, &byte, 1);
	q->rec.store_errno = 0;
	rte_ism_dmb_unregister(p->id, e.token);
	TEST_ASSERT_EQUAL(mv, -EIO, "a move whose store block fails");
	TEST_ASSERT_EQUAL(xstat(q, "errors_device") - err0, 1,
			  "errors_device counted");
	return TEST_SUCCESS;
}

static int
test_device_errors(void)
{
	static struct pdev p, q;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_a", 0xf1, true),
			    "create ism_pciproto_a");
	ret = device_errors(&p, &q);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* A case of test_unreg_failure_keeps_memory(). */
struct unreg_case {
	uint32_t cmd;		/* failing at teardown, or 0 */
	bool bad_token;		/* REG_DMB issues a bad token */
	bool taken_back;	/* ... and UNREG_DMB succeeds */
	uint64_t kept;		/* heap blocks left behind */
};

/* Case i (c) on p, up to its teardown. */
static int
unreg_case(struct pdev *p, const struct unreg_case *c, unsigned int i)
{
	struct rte_ism_dmb d;
	uint64_t c1;

	memset(&d, 0, sizeof(d));
	d.len = 4096;
	d.rgid = p->info.gid;
	if (c->bad_token) {
		p->rec.bad_token = true;
		if (c->taken_back)
			p->rec.fault = (struct rec_fault){ 0x0b, 0, false, 1 };
		c1 = heap_allocs();
		TEST_ASSERT_EQUAL(rte_ism_dmb_register(p->id, &d), -EIO,
				  "case %u: a bad token", i);
		TEST_ASSERT_EQUAL(heap_allocs() - c1, c->kept,
				  "case %u: blocks kept after a bad token", i);
	}
	/*
	 * The device holds the index of a DMB it kept. (The faked
	 * UNREG_DMB did not reach the model, which still holds
	 * index 32: no second DMB there.)
	 */
	if (!c->taken_back) {
		TEST_ASSERT_SUCCESS(rte_ism_dmb_register(p->id, &d),
				    "case %u: dmb_register", i);
		TEST_ASSERT_EQUAL(d.idx, c->bad_token ? 33 : 32,
				  "case %u: DMB index", i);
	}
	if (c->cmd != 0)
		p->rec.fault = (struct rec_fault){ c->cmd, 0x0101, false, 1 };
	return TEST_SUCCESS;
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
	static const struct unreg_case cases[] = {
		{ 0, false, false, 0 },
		{ 0, true, true, 0 },
		{ 0, true, false, 1 },		/* the DMB */
		{ 0x12, false, false, 1 },	/* UNREG_IEQ: the IEQ */
		{ 0x11, false, false, 1 },	/* UNREG_SBA: the SBA */
	};
	uint64_t base = 0, c0;
	unsigned int i;
	int ret;

	for (i = 0; i < RTE_DIM(cases); i++) {
		c0 = heap_allocs();
		TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_unreg", 0x0e1,
						true), "case %u: create", i);
		ret = unreg_case(&p, &cases[i], i);
		pdev_destroy(&p);
		if (ret != TEST_SUCCESS)
			return ret;
		TEST_ASSERT(p.rec.fault.count == 0, "case %u: no command 0x%x",
			    i, cases[i].cmd);
		if (i == 0)
			base = heap_allocs() - c0;
		TEST_ASSERT_EQUAL(heap_allocs() - c0 - base, cases[i].kept,
				  "case %u: blocks left", i);
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

/* test_fast_path_lock_free() with p, from q (stalled on lcore worker). */
static int
fast_path_lock_free(struct pdev *p, struct pdev *q, unsigned int worker)
{
	struct rte_ism_signal sig[1];
	struct rte_ism_dmb d;
	uint64_t deadline;
	char byte = 7;
	int launched, moved = -1, polled = -1;

	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0xfa2, true),
			    "create ism_pciproto_tx");
	TEST_ASSERT_SUCCESS(fx_register(p->id, 64, &q->info.gid, &d),
			    "register a DMB");
	q->rec.stall = true;
	launched = rte_eal_remote_launch(stuck_command, q, worker);
	if (launched == 0) {
		deadline = rte_get_timer_cycles() + 10 * rte_get_timer_hz();
		while (!q->rec.stalled && rte_get_timer_cycles() < deadline)
			rte_pause();
		if (q->rec.stalled) {
			moved = rte_ism_move_data(q->id, d.token, 2, 1, 0,
						  &byte, 1);
			polled = rte_ism_signal_poll(q->id, sig, 1);
		}
	}
	q->rec.stall = false;
	if (launched == 0)
		rte_eal_wait_lcore(worker);
	TEST_ASSERT_SUCCESS(launched, "launch on lcore %u", worker);
	TEST_ASSERT(q->rec.stalled, "the command did not stall");
	TEST_ASSERT(!q->rec.stall_expired, "the stall was not released");
	TEST_ASSERT_SUCCESS(moved, "move_data during a command");
	TEST_ASSERT_SUCCESS(polled, "signal_poll during a command");
	TEST_ASSERT_EQUAL(((char *)d.addr)[0], 7, "the byte moved");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 1), 1,
			  "the signal of the move");
	return TEST_SUCCESS;
}

/* move_data and the signal poll never wait for the command channel. */
static int
test_fast_path_lock_free(void)
{
	static struct pdev p, q;
	unsigned int worker = rte_get_next_lcore(-1, 1, 0);
	int ret;

	if (worker >= RTE_MAX_LCORE) {
		printf("    needs 2 lcores (-l 0,1)\n");
		return TEST_SKIPPED;
	}
	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0xfa1, true),
			    "create ism_pciproto_rx");
	ret = fast_path_lock_free(&p, &q, worker);
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
	{ "query_rgid_codes", test_query_rgid_codes },
	{ "close_deletes_vlans", test_close_deletes_vlans },
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
