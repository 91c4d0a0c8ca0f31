/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The PCI backend at the register level. Each case puts the real backend
 * on a function of the ISM PCI device model, with a recorder in between
 * that logs every read and write of the I/O layer and can make the
 * "device" answer a command with an error code. Expected bytes are written
 * out from the documented layout (ISM-SEMANTICS.md section 3), not taken
 * from the driver's own headers.
 *
 * Only built with the model (-Dtests=true); it uses no fixture device.
 */

#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_malloc.h>
#include <rte_memory.h>
#include <rte_rawdev.h>

#include "test_ism.h"
#include "ism_pci.h"
#include "ism_pci_model.h"

#define CHID 0x0abc		/* a fabric of its own */
#define REC_MAX 2048
#define REC_DATA 48

struct rec_op {
	bool write;
	uint8_t bar;
	uint64_t off;
	uint32_t len;
	uint32_t crc;		/* of all len bytes */
	uint8_t data[REC_DATA];	/* the first bytes */
};

/* Make the device answer command cmd with code rc, count times. */
struct rec_fault {
	uint32_t cmd;
	uint16_t rc;
	bool run_it;		/* the model still runs the command */
	unsigned int count;
};

struct recorder {
	struct ism_pci_model_fn *fn;
	struct rec_op ops[REC_MAX];
	unsigned int n;
	struct rec_fault fault;
	bool fake_header;	/* next header read returns fault.rc */
	uint32_t fake_cmd;
	int store_errno;	/* fail store blocks with this errno */
	int read_errno;		/* fail command window reads */
	bool bad_token;		/* next REG_DMB token has bit 0 set */
	uint32_t last_cmd;	/* of the last command header written */
	volatile bool stall;	/* hold command headers until cleared */
	volatile bool stalled;
	volatile bool stall_expired;
};

struct pdev {
	char name[RTE_ISM_NAME_LEN];
	struct recorder rec;
	struct ism_pci_model_fn *fn;
	int id;
	struct rte_ism_dev_info info;
};

static void
rec_log(struct recorder *r, bool write, unsigned int bar, uint64_t off,
		const void *buf, size_t len)
{
	unsigned int i = __atomic_fetch_add(&r->n, 1, __ATOMIC_RELAXED);
	struct rec_op *op;

	if (i >= REC_MAX)
		return;
	op = &r->ops[i];
	op->write = write;
	op->bar = bar;
	op->off = off;
	op->len = len;
	op->crc = fx_crc(buf, len);
	memcpy(op->data, buf, RTE_MIN(len, sizeof(op->data)));
}

static uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static uint64_t
be64_at(const uint8_t *p)
{
	return (uint64_t)be32_at(p) << 32 | be32_at(p + 4);
}

static int
rec_read(void *ctx, unsigned int bar, uint64_t off, void *buf, size_t len)
{
	struct recorder *r = ctx;
	uint8_t *b = buf;
	int ret = 0;

	if (r->read_errno != 0 && bar == 2)
		return -r->read_errno;
	if (r->fake_header && bar == 2 && off == 0 && len == 8) {
		/* cmd, ret, len = 8: the documented response header */
		r->fake_header = false;
		memset(b, 0, 8);
		b[0] = r->fake_cmd >> 24;
		b[1] = r->fake_cmd >> 16;
		b[2] = r->fake_cmd >> 8;
		b[3] = r->fake_cmd;
		b[4] = r->fault.rc >> 8;
		b[5] = r->fault.rc;
		b[7] = 8;
	} else {
		ret = ism_pci_model_io_ops.read(r->fn, bar, off, buf, len);
		/* The token (u64 at 8) as no device should issue it. */
		if (ret == 0 && r->bad_token && r->last_cmd == 0x0a &&
		    bar == 2 && off == 8 && len >= 8) {
			r->bad_token = false;
			b[7] |= 1;
		}
	}
	rec_log(r, false, bar, off, buf, len);
	return ret;
}

static int
rec_write(void *ctx, unsigned int bar, uint64_t off, const void *buf,
		size_t len)
{
	struct recorder *r = ctx;
	uint64_t deadline;
	uint32_t cmd;

	rec_log(r, true, bar, off, buf, len);
	if (bar == 0 && r->store_errno != 0)
		return -r->store_errno;
	if (bar == 2 && off == 0 && len >= 8) {
		cmd = be32_at(buf);
		r->last_cmd = cmd;
		if (r->stall) {
			r->stalled = true;
			deadline = rte_get_timer_cycles() +
				10 * rte_get_timer_hz();
			while (r->stall && rte_get_timer_cycles() < deadline)
				rte_pause();
			/* Not released in time: whoever should have
			 * released it was blocked. */
			r->stall_expired = r->stall;
		}
		if (r->fault.count > 0 && r->fault.cmd == cmd) {
			r->fault.count--;
			r->fake_header = true;
			r->fake_cmd = cmd;
			if (!r->fault.run_it)
				return 0;	/* the device never ran it */
		}
	}
	return ism_pci_model_io_ops.write(r->fn, bar, off, buf, len);
}

static const struct ism_pci_io_ops rec_ops = {
	.read = rec_read,
	.write = rec_write,
};

static int
rec_irq_enable(void *ctx, void (*handler)(void *), void *arg)
{
	return ism_pci_model_irq_enable(((struct recorder *)ctx)->fn, handler,
			arg);
}

static void
rec_irq_disable(void *ctx)
{
	ism_pci_model_irq_disable(((struct recorder *)ctx)->fn);
}

/* A model function with the real backend on top, through a recorder. */
static int
pdev_create(struct pdev *p, const char *name, uint64_t gid, bool irq)
{
	struct ism_pci_platform plat = {
		.io = { .ops = &rec_ops, .ctx = &p->rec },
		.chid = CHID,
		.irq_enable = irq ? rec_irq_enable : NULL,
		.irq_disable = irq ? rec_irq_disable : NULL,
	};
	struct ism_pci_config cfg = { .driver_name = "ism_pciproto" };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->id = -1;
	ret = ism_pci_model_fn_create(name, gid, CHID, &p->fn);
	if (ret < 0)
		return ret;
	p->rec.fn = p->fn;
	ret = ism_pci_dev_create(name, NULL, SOCKET_ID_ANY, &plat, &cfg);
	if (ret < 0) {
		ism_pci_model_fn_destroy(p->fn);
		p->fn = NULL;
		return ret;
	}
	p->id = rte_ism_get_dev_id(name);
	rte_ism_info_get(p->id, &p->info);
	return 0;
}

static void
pdev_destroy(struct pdev *p)
{
	if (p->fn == NULL)
		return;
	ism_pci_dev_destroy(p->name);
	ism_pci_model_fn_destroy(p->fn);
	p->fn = NULL;
}

static uint64_t
xstat(const struct pdev *p, const char *name)
{
	unsigned int id;
	int raw = fx_rawdev_id(p->name);

	return raw < 0 ? UINT64_MAX :
		rte_rawdev_xstats_by_name_get(raw, name, &id);
}

/* Index of the nth (from 0) command header write of cmd at or after from,
 * or -1. */
static int
find_cmd(const struct recorder *r, unsigned int from, uint32_t cmd,
		unsigned int nth)
{
	unsigned int i;

	for (i = from; i < r->n && i < REC_MAX; i++) {
		const struct rec_op *op = &r->ops[i];

		if (op->write && op->bar == 2 && op->off == 0 && op->len == 8 &&
		    be32_at(op->data) == cmd && nth-- == 0)
			return i;
	}
	return -1;
}

/* The commands issued from op index from on, in order. */
static unsigned int
cmd_list(const struct recorder *r, unsigned int from, uint32_t *cmds,
		unsigned int max)
{
	unsigned int i, n = 0;

	for (i = from; i < r->n && i < REC_MAX && n < max; i++)
		if (r->ops[i].write && r->ops[i].bar == 2 &&
		    r->ops[i].off == 0 && r->ops[i].len == 8)
			cmds[n++] = be32_at(r->ops[i].data);
	return n;
}

/*
 * Check the request of the command whose header is op h: the header bytes
 * (cmd, reserved 0, len) and, for a body, that it was written at offset 8
 * just before the header. Returns the body bytes (offset 8 on) or NULL.
 */
static const uint8_t *
check_request(const struct recorder *r, int h, uint32_t cmd, uint16_t len)
{
	static const uint8_t none[1];
	const struct rec_op *hdr, *body;
	const uint8_t *d;

	if (h < 0)
		return NULL;
	hdr = &r->ops[h];
	d = hdr->data;
	if (be32_at(d) != cmd || d[4] != 0 || d[5] != 0 ||
	    d[6] != len >> 8 || d[7] != (len & 0xff)) {
		printf("    header of cmd 0x%x: %02x%02x%02x%02x %02x%02x "
		       "%02x%02x\n", cmd, d[0], d[1], d[2], d[3], d[4], d[5],
		       d[6], d[7]);
		return NULL;
	}
	if (len == 8)
		return none;
	body = &r->ops[h - 1];
	if (h == 0 || !body->write || body->bar != 2 || body->off != 8 ||
	    body->len != (uint32_t)len - 8) {
		printf("    body of cmd 0x%x not written at 8 before the "
		       "header\n", cmd);
		return NULL;
	}
	return body->data - 8;	/* so that offsets count from the header */
}

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
						 CHID, &p.fn), 0);
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
 * The store blocks of one move, as recorded from index from: pieces that
 * cover [off, off + len) without crossing a 4 KiB boundary of the target
 * offset, each request = token | idx << 24 | sf << 23 | offset, the data
 * of each piece the source's, sf only on the last store block issued.
 */
static int
check_split(const struct recorder *r, unsigned int from, uint64_t token,
		uint32_t idx, uint32_t sf, uint32_t off, const uint8_t *src,
		uint32_t len)
{
	uint32_t covered = 0, n = 0, expect_n, lo, plen;
	unsigned int i;
	uint64_t req;

	expect_n = (off + len - 1) / 4096 - off / 4096 + 1;
	for (i = from; i < r->n && i < REC_MAX; i++) {
		const struct rec_op *op = &r->ops[i];

		if (!op->write || op->bar != 0)
			continue;
		req = op->off;
		lo = req & 0x7fffff;
		plen = op->len;
		TEST_ASSERT((req & ~UINT64_C(0x0fffffff)) == token &&
			    ((req >> 24) & 0xf) == idx,
			    "request 0x%" PRIx64 ": token or idx", req);
		TEST_ASSERT(lo >= off && lo + plen <= off + len &&
			    plen >= 1 && plen <= 4096 &&
			    (lo == off || lo % 4096 == 0) &&
			    (lo + plen == off + len || (lo + plen) % 4096 == 0),
			    "piece [%u, +%u) of move [%u, +%u)", lo, plen, off,
			    len);
		TEST_ASSERT(op->crc == fx_crc(src + (lo - off), plen),
			    "data of piece at %u", lo);
		n++;
		covered += plen;
		/* sf on the last one only, which is the piece at off. */
		TEST_ASSERT(((req >> 23) & 1) == (sf && n == expect_n),
			    "sf %u on store block %u of %u", (unsigned int)
			    ((req >> 23) & 1), n, expect_n);
		TEST_ASSERT(n < expect_n || lo == off, "last piece at %u", lo);
	}
	TEST_ASSERT(n == expect_n && covered == len,
		    "%u store blocks covering %u bytes, want %u and %u", n,
		    covered, expect_n, len);
	return TEST_SUCCESS;
}

static int
test_store_block_split(void)
{
	static struct pdev p, q;
	static const struct {
		uint32_t off, len, idx, sf;
	} moves[] = {
		{ 0, 1, 0, 1 }, { 0, 4096, 3, 1 }, { 1, 4096, 15, 1 },
		{ 4000, 10000, 7, 1 }, { 8192, 4096, 1, 0 },
		{ 4095, 2, 2, 1 }, { 100, (1u << 20) - 100, 9, 1 },
		{ 12288, 5000, 0, 0 },
	};
	struct rte_ism_dmb d;
	struct rte_ism_signal sig[2];
	uint8_t *src = NULL;
	uint64_t seed = 11;
	unsigned int i, mark;
	int ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0xc1, true), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0xc2, true) != 0 ||
	    fx_register(p.id, 1u << 20, &q.info.gid, &d) != TEST_SUCCESS)
		goto out;
	src = malloc(1u << 20);
	if (src == NULL)
		goto out;
	for (i = 0; i < RTE_DIM(moves); i++) {
		fx_fill(src, moves[i].len, &seed);
		mark = q.rec.n;
		if (rte_ism_move_data(q.id, d.token, moves[i].idx, moves[i].sf,
				      moves[i].off, src, moves[i].len) != 0 ||
		    check_split(&q.rec, mark, d.token, moves[i].idx,
				moves[i].sf, moves[i].off, src,
				moves[i].len) != TEST_SUCCESS ||
		    memcmp((uint8_t *)d.addr + moves[i].off, src,
			   moves[i].len) != 0) {
			printf("    FAIL: move %u [%u, +%u)\n", i, moves[i].off,
			       moves[i].len);
			goto out;
		}
		if (rte_ism_signal_poll(p.id, sig, 2) != (moves[i].sf ? 1 : 0) ||
		    (moves[i].sf && sig[0].mask != 1u << moves[i].idx)) {
			printf("    FAIL: signal of move %u\n", i);
			goto out;
		}
	}
	ret = TEST_SUCCESS;
out:
	free(src);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* Refusals: zero length never reaches the device; past the end is refused
 * by the first store block, the highest piece, and writes nothing. */
static int
test_zero_length_and_refusals(void)
{
	static struct pdev p, q;
	struct rte_ism_move_seg seg[2];
	struct rte_ism_signal sig[1];
	struct rte_ism_dmb d;
	uint8_t buf[8192];
	unsigned int mark;
	uint64_t bad0;
	int ret = TEST_FAILED;

	memset(buf, 0x5a, sizeof(buf));
	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0xd1, true), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0xd2, true) != 0 ||
	    fx_register(p.id, 6000, &q.info.gid, &d) != TEST_SUCCESS)
		goto out;
	bad0 = xstat(&q, "errors_bad_argument");
	mark = q.rec.n;
	if (rte_ism_move_data(q.id, d.token, 0, 1, 0, buf, 0) != -EINVAL)
		goto out;
	seg[0] = (struct rte_ism_move_seg){ buf, 0, 10 };
	seg[1] = (struct rte_ism_move_seg){ buf, 20, 0 };
	if (rte_ism_move_burst(q.id, d.token, 0, 1, seg, 2) != -EINVAL ||
	    rte_ism_move_data(q.id, d.token | 0x100, 0, 1, 0, buf, 1) !=
	    -ENOENT ||
	    rte_ism_move_data(q.id, d.token, 0, 1, 1u << 20, buf, 1) !=
	    -ERANGE) {
		printf("    FAIL: local refusals\n");
		goto out;
	}
	if (q.rec.n != mark || rte_ism_signal_poll(p.id, sig, 1) != 0 ||
	    xstat(&q, "errors_bad_argument") - bad0 != 2) {
		printf("    FAIL: a locally refused move reached the device "
		       "(%u ops) or was not counted\n", q.rec.n - mark);
		goto out;
	}
	/* [3000, 7000) on a 6000-byte DMB: the highest piece, [4096, 7000),
	 * goes first and is refused; [3000, 4096) is never written. */
	mark = q.rec.n;
	if (rte_ism_move_data(q.id, d.token, 0, 1, 3000, buf, 4000) !=
	    -ERANGE) {
		printf("    FAIL: move past the end not -ERANGE\n");
		goto out;
	}
	if (q.rec.n != mark + 1 || (q.rec.ops[mark].off & 0x7fffff) != 4096) {
		printf("    FAIL: refused move: %u store blocks, first at %" PRIu64
		       "\n", q.rec.n - mark, q.rec.ops[mark].off & 0x7fffff);
		goto out;
	}
	if (memchr(d.addr, 0x5a, d.len) != NULL ||
	    rte_ism_signal_poll(p.id, sig, 1) != 0) {
		printf("    FAIL: a refused move wrote or signalled\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* A burst whose highest-reaching segment is not the first probes its last
 * byte first; otherwise segments go out in order, sf on the very last. */
static int
test_burst_order(void)
{
	static struct pdev p, q;
	struct rte_ism_move_seg seg[3];
	struct rte_ism_dmb d;
	uint8_t a[100], b[10], c[4];
	const struct rec_op *op;
	unsigned int mark = 0;
	int ret = TEST_FAILED;

	memset(a, 'a', sizeof(a));
	memset(b, 'b', sizeof(b));
	memset(c, 'c', sizeof(c));
	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0xe1, true), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0xe2, true) != 0 ||
	    fx_register(p.id, 8192, &q.info.gid, &d) != TEST_SUCCESS)
		goto out;
	seg[0] = (struct rte_ism_move_seg){ a, 64, sizeof(a) };
	seg[1] = (struct rte_ism_move_seg){ b, 5000, sizeof(b) };
	seg[2] = (struct rte_ism_move_seg){ c, 0, sizeof(c) };
	mark = q.rec.n;
	if (rte_ism_move_burst(q.id, d.token, 4, 1, seg, 3) != 0 ||
	    q.rec.n - mark != 4)
		goto fail;
	op = &q.rec.ops[mark];
	/* probe: 1 byte at 5009 ('b'), no sf */
	if ((op[0].off & 0xffffff) != 5009 || op[0].len != 1 ||
	    op[0].data[0] != 'b' || (op[1].off & 0xffffff) != 64 ||
	    (op[2].off & 0xffffff) != 5000 ||
	    (op[3].off & 0xffffff) != (1u << 23 | 0))
		goto fail;
	/* seg 0 reaching highest: no probe */
	seg[0] = (struct rte_ism_move_seg){ b, 6000, sizeof(b) };
	mark = q.rec.n;
	if (rte_ism_move_burst(q.id, d.token, 4, 0, seg, 2) != 0 ||
	    q.rec.n - mark != 2 || (q.rec.ops[mark].off & 0xffffff) != 6000)
		goto fail;
	/* highest segment past the end: refused by the probe, nothing
	 * written */
	seg[1] = (struct rte_ism_move_seg){ c, 8190, sizeof(c) };
	memset(d.addr, 0, d.len);
	mark = q.rec.n;
	if (rte_ism_move_burst(q.id, d.token, 4, 1, seg, 2) != -ERANGE ||
	    q.rec.n - mark != 1 || memchr(d.addr, 'b', d.len) != NULL)
		goto fail;
	ret = TEST_SUCCESS;
	goto out;
fail:
	printf("    FAIL: burst store blocks (%u recorded)\n", q.rec.n - mark);
out:
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
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

/* Blocks allocated from DPDK's heaps, all sockets. */
static uint64_t
heap_allocs(void)
{
	struct rte_malloc_socket_stats st;
	unsigned int i;
	uint64_t n = 0;

	for (i = 0; i < rte_socket_count(); i++)
		if (rte_malloc_get_socket_stats(rte_socket_id_by_idx(i),
						&st) == 0)
			n += st.alloc_count;
	return n;
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

/*
 * Without an interrupt, events wait in the 15-entry ring until a signal
 * poll drains them. Several rounds wrap the ring; every event arrives
 * once, in order, translated. At most 14 per round: with 15 the device
 * index comes back to the last entry consumed and the round looks empty
 * (Linux's consumer has the same limit).
 */
static int
test_ieq_wrap(void)
{
	static const unsigned int per_round[] = { 3, 7, 14, 14, 1, 9, 14 };
	static struct pdev p, q;
	struct rte_ism_event ev[16];
	struct rte_ism_signal sig[1];
	unsigned int round, i, sent = 0, got = 0;
	int n, ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0x1e1, false), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0x1e2, true) != 0)
		goto out;
	for (round = 0; round < RTE_DIM(per_round); round++) {
		for (i = 0; i < per_round[round]; i++)
			if (rte_ism_signal_event(q.id, &p.info.gid, 0, 0x42,
						 sent++) != 0)
				goto out;
		if (rte_ism_event_poll(p.id, ev, 16) != 0) {
			printf("    FAIL: events without a drain\n");
			goto out;
		}
		rte_ism_signal_poll(p.id, sig, 1);
		while ((n = rte_ism_event_poll(p.id, ev, 16)) > 0)
			for (i = 0; i < (unsigned int)n; i++, got++)
				if (ev[i].type != RTE_ISM_EVENT_SW ||
				    ev[i].code != 0x42 || ev[i].info != got ||
				    ev[i].gid.gid != q.info.gid.gid) {
					printf("    FAIL: event %u: type %u info "
					       "%" PRIu64 "\n", got, ev[i].type,
					       ev[i].info);
					goto out;
				}
		if (got != sent) {
			printf("    FAIL: round %u: %u of %u events\n", round,
			       got, sent);
			goto out;
		}
	}
	if (xstat(&p, "pci_ieq_events") != sent ||
	    xstat(&p, "pci_interrupts") != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/*
 * The SBA as the device writes it (big-endian, MSB first): S in byte 0,
 * DMB n at byte 4 + n / 8 mask 0x80 >> n % 8, its element mask at
 * 256 + 2n. The poll clears S first, reports in index order, hands back
 * what does not fit (with S), and skips a bit whose mask was taken.
 */
static int
test_sba_order(void)
{
	static struct pdev p, q;
	struct rte_ism_dmb d[3];
	struct rte_ism_signal sig[4];
	uint32_t want_idx[3] = { 40, 33, 100 };
	const uint8_t *b;
	uint8_t *sba;
	unsigned int i;
	char byte = 0;
	int ret = TEST_FAILED;

	TEST_RET(pdev_create(&p, "ism_pciproto_rx", 0x5b1, true), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0x5b2, true) != 0)
		goto out;
	/* The SBA page, from the IOVA the backend registered. */
	b = check_request(&p.rec, find_cmd(&p.rec, 0, 0x01, 0), 0x01, 16);
	sba = b != NULL ? rte_mem_iova2virt(be64_at(b + 8)) : NULL;
	if (sba == NULL)
		goto out;
	memset(d, 0, sizeof(d));
	for (i = 0; i < 3; i++) {
		d[i].len = 64;
		d[i].idx = want_idx[i];
		d[i].rgid = q.info.gid;
		if (rte_ism_dmb_register(p.id, &d[i]) != 0)
			goto out;
	}
	/* Element 0 of DMB 40: the device's mask for element 0 is 0x1000. */
	if (rte_ism_move_data(q.id, d[0].token, 0, 1, 0, &byte, 1) != 0 ||
	    sba[0] != 0x80 || sba[4 + 40 / 8] != (0x80 >> (40 % 8)) ||
	    sba[256 + 80] != 0x10 || sba[256 + 81] != 0x00) {
		printf("    FAIL: SBA bytes %02x %02x %02x%02x\n", sba[0],
		       sba[9], sba[336], sba[337]);
		goto out;
	}
	/* A bit and mask without S is not scanned: S gates the scan. */
	sba[0] = 0;
	if (rte_ism_signal_poll(p.id, sig, 4) != 0)
		goto out;
	sba[0] = 0x80;
	if (rte_ism_move_data(q.id, d[1].token, 15, 1, 0, &byte, 1) != 0 ||
	    rte_ism_move_data(q.id, d[2].token, 13, 1, 0, &byte, 1) != 0)
		goto out;
	/* Room for one: the lowest index, S and the rest handed back. */
	if (rte_ism_signal_poll(p.id, sig, 1) != 1 || sig[0].dmb_idx != 33 ||
	    sig[0].mask != 1u << 15 || !(sba[0] & 0x80) ||
	    !(sba[4 + 40 / 8] & (0x80 >> (40 % 8))))
		goto out;
	if (rte_ism_signal_poll(p.id, sig, 4) != 2 || sig[0].dmb_idx != 40 ||
	    sig[0].mask != 1 || sig[1].dmb_idx != 100 ||
	    sig[1].mask != 1u << 13 || sba[0] != 0 || sba[4 + 100 / 8] != 0 ||
	    sba[256 + 200] != 0 || sba[256 + 201] != 0)
		goto out;
	/* Bit and S without a mask: reported already, skipped. */
	sba[4 + 33 / 8] |= 0x80 >> (33 % 8);
	sba[0] = 0x80;
	if (rte_ism_signal_poll(p.id, sig, 4) != 0 || sba[4 + 33 / 8] != 0)
		goto out;
	ret = TEST_SUCCESS;
out:
	if (ret != TEST_SUCCESS)
		printf("    FAIL: SBA scan\n");
	for (i = 0; i < 3; i++)
		if (d[i].token != 0)
			rte_ism_dmb_unregister(p.id, d[i].token);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
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
	{ "command_layouts", test_command_layouts },
	{ "store_block_split", test_store_block_split },
	{ "zero_length_and_refusals", test_zero_length_and_refusals },
	{ "burst_order", test_burst_order },
	{ "device_errors", test_device_errors },
	{ "unreg_failure_keeps_memory", test_unreg_failure_keeps_memory },
	{ "ieq_wrap", test_ieq_wrap },
	{ "sba_order", test_sba_order },
	{ "fast_path_lock_free", test_fast_path_lock_free },
	{ NULL, NULL },
};

const struct test_suite suite_pci_protocol = {
	"pci_protocol", pci_protocol_cases, 1
};
