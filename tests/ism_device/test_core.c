/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function's core on its own, plain C like the core
 * (no DPDK): the environment is an array of "guest memory" addressed by
 * offset. What the in-process platform never does is done here: commands
 * written in pieces of 1, 2 and 4 bytes (a CPU behind x86's vfio-pci),
 * store blocks given in pieces, the transport rule (pieces refused but in
 * the test mode, store blocks whole, counted), small BAR 0
 * sizes and the token space they leave, and every field checked byte by
 * byte as Linux's driver lays it out (drivers/s390/net/ism.h), so the
 * test holds on a big-endian host too.
 *
 *   ism-device-core-test     exit 0 pass, 1 fail
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ism_device.h"

#define MEM_SIZE	(16u << 20)
#define NR_FNS		3

static uint8_t *mem;		/* the guest memory of every function */
static unsigned int fails;

struct env {
	unsigned int irqs[2];	/* by cause */
	bool armed;
	unsigned int guest_errors;
};

static struct env envs[NR_FNS];

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("FAIL line %d: ", __LINE__); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		fails++; \
	} \
} while (0)

static int
dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	if (addr >= MEM_SIZE || len > MEM_SIZE - addr)
		return -EFAULT;
	memcpy(buf, mem + addr, len);
	return 0;
}

static int
dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	(void)ctx;
	if (addr >= MEM_SIZE || len > MEM_SIZE - addr)
		return -EFAULT;
	memcpy(mem + addr, buf, len);
	return 0;
}

static int
dma_or8(void *ctx, uint64_t addr, uint8_t bits, uint8_t *old)
{
	(void)ctx;
	if (addr >= MEM_SIZE)
		return -EFAULT;
	*old = mem[addr];
	mem[addr] |= bits;
	return 0;
}

static bool
dma_ok(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx;
	return addr < MEM_SIZE && len <= MEM_SIZE - addr;
}

static void
irq(void *ctx, enum ism_dev_irq_cause cause)
{
	((struct env *)ctx)->irqs[cause]++;
}

static void
irq_arm(void *ctx, bool on)
{
	((struct env *)ctx)->armed = on;
}

static void
env_log(void *ctx, enum ism_dev_log_level level, const char *msg)
{
	if (level == ISM_DEV_LOG_GUEST_ERROR)
		((struct env *)ctx)->guest_errors++;
	printf("    (device: %s)\n", msg);
}

static const struct ism_dev_ops ops = {
	.dma_read = dma_read,
	.dma_write = dma_write,
	.dma_or8 = dma_or8,
	.dma_ok = dma_ok,
	.irq = irq,
	.irq_arm = irq_arm,
	.log = env_log,
};

/* Big-endian fields, written out here, not taken from the core. */
static void
put_be(uint8_t *p, uint64_t v, unsigned int n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t
get_be(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n-- > 0)
		v = v << 8 | *p++;
	return v;
}

/*
 * One command as Linux writes it: the body at 8, then the header at 0,
 * each in writes of piece bytes; the response header read back, and
 * resp_len bytes of it into resp. Returns the response's ret.
 */
static uint16_t
cmd(struct ism_dev *d, uint32_t code, const uint8_t *body, uint16_t len,
		unsigned int piece, uint8_t *resp, size_t resp_len)
{
	uint8_t req[64] = { 0 }, hdr[8];
	unsigned int off, n;

	put_be(req, code, 4);
	put_be(req + 6, len, 2);
	if (len > 8 && body != NULL)
		memcpy(req + 8, body, len - 8);
	for (off = 8; off < len; off += n) {
		n = len - off < piece ? len - off : piece;
		CHECK(ism_dev_cmd_write(d, off, req + off, n) == 0, "body");
	}
	for (off = 0; off < 8; off += piece)
		CHECK(ism_dev_cmd_write(d, off, req + off, piece) == 0,
		      "header");
	CHECK(ism_dev_cmd_read(d, 0, hdr, 8) == 0, "response header");
	CHECK(get_be(hdr, 4) == code, "response cmd 0x%" PRIx64,
	      get_be(hdr, 4));
	if (resp != NULL)
		CHECK(ism_dev_cmd_read(d, 0, resp, resp_len) == 0, "response");
	return (uint16_t)get_be(hdr + 4, 2);
}

static uint16_t
cmd_u64(struct ism_dev *d, uint32_t code, uint64_t v, unsigned int piece)
{
	uint8_t b[8];

	put_be(b, v, 8);
	return cmd(d, code, b, 16, piece, NULL, 0);
}

/* Per function: SBA at base, IEQ at base + 4 KiB, DMBs from base + 64 KiB. */
static uint64_t
base(unsigned int fn)
{
	return (uint64_t)fn << 22;
}

static void
bring_up(struct ism_dev *d, unsigned int fn, unsigned int piece)
{
	uint8_t b[16], r[200];

	CHECK(cmd_u64(d, 0x01, base(fn), piece) == 0, "REG_SBA");
	CHECK(envs[fn].armed, "interrupt armed after REG_SBA");
	put_be(b, base(fn) + 4096, 8);
	put_be(b + 8, 512, 8);
	CHECK(cmd(d, 0x02, b, 24, piece, NULL, 0) == 0, "REG_IEQ");
	CHECK(cmd(d, 0x08, NULL, 8, piece, r, sizeof(r)) == 0 &&
	      get_be(r + 6, 2) == 200 && get_be(r + 24, 8) == ism_dev_gid(d) &&
	      get_be(r + 32, 8) == base(fn), "QUERY_INFO");
	CHECK(cmd(d, 0x03, NULL, 8, piece, r, 16) == 0 &&
	      get_be(r + 6, 2) == 16 && get_be(r + 8, 8) == ism_dev_gid(d),
	      "READ_GID");
}

/* REG_DMB of len bytes at addr, index idx, writer rgid; the token. */
static uint64_t
reg_dmb(struct ism_dev *d, uint64_t addr, uint32_t len, uint32_t idx,
		uint64_t rgid, uint32_t vlan_valid, uint32_t vlan_id)
{
	uint8_t b[32], r[16];
	uint16_t rc;

	put_be(b, addr, 8);
	put_be(b + 8, len, 4);
	put_be(b + 12, idx, 4);
	put_be(b + 16, vlan_valid, 4);
	put_be(b + 20, vlan_id, 4);
	put_be(b + 24, rgid, 8);
	rc = cmd(d, 0x0a, b, 40, 8, r, 16);
	return rc == 0 ? get_be(r + 8, 8) : 0;
}

static uint64_t
req(uint64_t tok, uint32_t elem, bool sf, uint32_t off)
{
	return tok | (uint64_t)elem << 24 | (uint64_t)sf << 23 | off;
}

static bool
sba_bit(unsigned int fn, uint32_t idx)
{
	return mem[base(fn) + 4 + idx / 8] & (0x80 >> (idx % 8));
}

/* The IEQ entry the header says was written last, and its slot. */
static const uint8_t *
last_event(unsigned int fn, uint64_t *slot)
{
	const uint8_t *ieq = mem + base(fn) + 4096;

	*slot = get_be(ieq, 8);
	return *slot >= 1 && *slot <= 15 ? ieq + 32 * *slot : NULL;
}

static void
test_commands_and_moves(struct ism_dev *a, struct ism_dev *b)
{
	uint64_t tok, slot, ga = ism_dev_gid(a), gb = ism_dev_gid(b);
	uint8_t data[6000], body[24];
	const uint8_t *e;
	unsigned int i, irqs;

	bring_up(a, 0, 8);
	bring_up(b, 1, 4);	/* a CPU behind x86's vfio-pci */
	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + 1);

	tok = reg_dmb(a, base(0) + 65536, 8192, 40, gb, 0, 0);
	CHECK(tok != 0 && (tok & UINT64_C(0x0fffffff)) == 0 &&
	      tok < ISM_DEV_BAR0_SIZE_HW, "token 0x%016" PRIx64, tok);
	/* Index in use, bad index, past 1 MiB segment. */
	CHECK(reg_dmb(a, base(0) + 131072, 64, 40, gb, 0, 0) == 0, "busy");
	CHECK(reg_dmb(a, base(0) + 131072, 64, 31, gb, 0, 0) == 0, "idx 31");
	CHECK(reg_dmb(a, (1u << 20) - 64, 128, 41, gb, 0, 0) == 0,
	      "across 1 MiB");

	/* A whole store block with sf: data, mask, bit, S, one interrupt. */
	irqs = envs[0].irqs[ISM_DEV_IRQ_SIGNAL];
	CHECK(ism_dev_store(b, req(tok, 3, true, 100), data, 4096 - 100) ==
	      0, "store");
	CHECK(memcmp(mem + base(0) + 65536 + 100, data, 4096 - 100) == 0,
	      "data");
	CHECK(sba_bit(0, 40) && (mem[base(0)] & 0x80), "bit and S");
	/* Element 3: rotate-right-16(0x1000, 3) = 0x0200. */
	CHECK(get_be(mem + base(0) + 256 + 2 * 40, 2) == 0x0200, "mask 0x%04"
	      PRIx64, get_be(mem + base(0) + 256 + 2 * 40, 2));
	CHECK(envs[0].irqs[ISM_DEV_IRQ_SIGNAL] == irqs + 1, "one interrupt");
	/* S still set: the next signal coalesces. */
	CHECK(ism_dev_store(b, req(tok, 0, true, 0), data, 8) == 0, "store");
	CHECK(envs[0].irqs[ISM_DEV_IRQ_SIGNAL] == irqs + 1, "coalesced");
	memset(mem + base(0), 0, 256 + 2 * 1920);

	/*
	 * Pieces of 4 bytes (a CPU's writes), all with sf: signalled with the
	 * first, one interrupt; those past the end refused, the others in.
	 */
	for (i = 0; i < 64; i += 4)
		CHECK(ism_dev_store(b, req(tok, 1, true, 8192 - 32 + i), data + i,
				    4) == (i < 32 ? 0 : -ERANGE), "piece %u", i);
	CHECK(sba_bit(0, 40) && (mem[base(0)] & 0x80) &&
	      envs[0].irqs[ISM_DEV_IRQ_SIGNAL] == irqs + 2, "pieces' signal");
	CHECK(memcmp(mem + base(0) + 65536 + 8192 - 32, data, 32) == 0,
	      "pieces");
	memset(mem + base(0), 0, 256 + 2 * 1920);

	/* Refusals, nothing written or signalled. */
	CHECK(ism_dev_store(a, req(tok, 0, true, 0), data, 1) == -EACCES,
	      "not the writer");
	CHECK(ism_dev_store(b, req(tok, 0, true, 8192), data, 1) ==
	      -ERANGE, "past the end");
	CHECK(ism_dev_store(b, req(tok ^ (UINT64_C(1) << 40), 0, true, 0),
			    data, 1) == -ENOENT, "unknown token");
	CHECK(ism_dev_store(b, req(tok, 0, true, 4000), data, 200) ==
	      -EINVAL, "across 4 KiB");
	CHECK(!sba_bit(0, 40) && mem[base(0)] == 0, "refused, signalled");

	/* SIGNAL_IEQ: a software event on B, from A. */
	irqs = envs[1].irqs[ISM_DEV_IRQ_EVENT];
	put_be(body, gb, 8);
	put_be(body + 8, 1, 4);
	put_be(body + 12, 0x83, 4);
	put_be(body + 16, UINT64_C(0x1122334455667788), 8);
	CHECK(cmd(a, 0x0e, body, 32, 2, NULL, 0) == 0, "SIGNAL_IEQ");
	e = last_event(1, &slot);
	CHECK(e != NULL && slot == 1 && get_be(e, 4) == 2 &&
	      get_be(e + 4, 4) == 0x83 && get_be(e + 8, 8) == ga &&
	      get_be(e + 24, 8) == UINT64_C(0x1122334455667788) &&
	      (mem[base(1)] & 0x40) &&
	      envs[1].irqs[ISM_DEV_IRQ_EVENT] == irqs + 1, "SWR event");
	put_be(body, 0x77, 8);
	CHECK(cmd(a, 0x0e, body, 32, 8, NULL, 0) != 0, "SIGNAL_IEQ, no GID");

	/* UNREG_DMB: its writer B gets BUF 0x04 with the token. */
	CHECK(cmd_u64(b, 0x0b, tok, 8) != 0, "UNREG_DMB of another's");
	CHECK(cmd_u64(a, 0x0b, tok, 1) == 0, "UNREG_DMB");
	e = last_event(1, &slot);
	CHECK(e != NULL && slot == 2 && get_be(e, 4) == 0 &&
	      get_be(e + 4, 4) == 4 && get_be(e + 8, 8) == tok, "BUF event");
	CHECK(ism_dev_store(b, req(tok, 0, false, 0), data, 1) == -ENOENT,
	      "stale token");
}

static void
test_protocol_errors(struct ism_dev *a)
{
	uint8_t b[8] = { 0 };
	unsigned int ge = envs[0].guest_errors;

	/* A header whose body was not written since the last command. */
	put_be(b, 0x0b, 4);
	put_be(b + 6, 16, 2);
	CHECK(ism_dev_cmd_write(a, 0, b, 8) == 0, "header");
	CHECK(ism_dev_cmd_read(a, 0, b, 8) == 0 && get_be(b + 4, 2) == 0xffff,
	      "header without body: 0x%04" PRIx64, get_be(b + 4, 2));
	/* Unknown command, and a known one of the wrong length. */
	CHECK(cmd(a, 0x0c, NULL, 8, 8, NULL, 0) == 0xffff, "unknown");
	CHECK(cmd(a, 0x03, NULL, 16, 8, NULL, 0) == 0xffff, "length");
	CHECK(envs[0].guest_errors == ge + 3, "guest errors %u",
	      envs[0].guest_errors - ge);
	CHECK(ism_dev_cmd_write(a, 250, b, 8) == -EINVAL, "past the window");
	/* VLANs: 0x1fff (Linux's V2 probe), then a tagged DMB. */
	CHECK(cmd_u64(a, 0x04, 0x1fff, 8) == 0, "ADD_VLAN_ID 0x1fff");
	CHECK(cmd_u64(a, 0x05, 0x1fff, 8) == 0, "DEL_VLAN_ID 0x1fff");
	CHECK(cmd_u64(a, 0x05, 0x1fff, 8) != 0, "DEL_VLAN_ID again");
	CHECK(cmd_u64(a, 0x04, 0x2000, 8) != 0, "ADD_VLAN_ID 0x2000");
}

static void
test_vlan_writer(struct ism_dev *a, struct ism_dev *b)
{
	uint64_t tok = reg_dmb(a, base(0) + 262144, 64, 50, ism_dev_gid(b),
			       1, 7);
	uint8_t x = 1;

	CHECK(tok != 0, "tagged DMB");
	CHECK(ism_dev_store(b, req(tok, 0, false, 0), &x, 1) == -EACCES,
	      "writer outside the VLAN");
	CHECK(cmd_u64(b, 0x04, 7, 8) == 0, "ADD_VLAN_ID 7");
	CHECK(ism_dev_store(b, req(tok, 0, false, 0), &x, 1) == 0,
	      "writer in the VLAN");
	CHECK(cmd_u64(a, 0x0b, tok, 8) == 0, "UNREG_DMB");
}

/* A's DMB (at base(0) + off, index idx) that w writes; its token. */
static uint64_t
dmb_for(struct ism_dev *a, struct ism_dev *w, uint32_t off, uint32_t idx)
{
	memset(mem + base(0) + off, 0, 8192);
	return reg_dmb(a, base(0) + off, 8192, idx, ism_dev_gid(w), 0, 0);
}

/*
 * How writes reach a function (ism_dev_write()): by default, as the
 * hardware, only whole store blocks (1 to maxstbl bytes, not crossing
 * 4 KiB); a piece (a plain store, an MMIO write) is refused, nothing
 * written; in the PIECES test mode a piece is taken. Each counted.
 */
static void
test_transport(struct ism_dev *a, struct ism_dev *b)
{
	struct ism_dev_config pc = { .name = "P", .gid = 0xc3, .fabric = 3,
		.transport = ISM_DEV_XPORT_PIECES, .maxstbl = 128 };
	struct ism_dev_counts c0, c1;
	struct ism_dev *p = NULL;
	uint8_t data[4200], body[16], hdr[8];
	uint64_t tok, ptok;
	unsigned int i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 13 + 5);
	tok = dmb_for(a, b, 524288, 60);
	CHECK(tok != 0, "DMB for the transport");
	ism_dev_counts_get(b, &c0);
	/* Pieces refused by a function in the default mode. */
	CHECK(ism_dev_write(b, 0, req(tok, 0, true, 0), data, 4,
			    ISM_DEV_ACC_PIECE) == -EPERM, "data piece");
	CHECK(mem[base(0) + 524288] == 0 && !sba_bit(0, 60),
	      "a refused piece wrote or signalled");
	put_be(body, ism_dev_gid(a), 8);
	put_be(body + 8, 0, 8);
	CHECK(ism_dev_write(b, 2, 8, body, 8, ISM_DEV_ACC_PIECE) == -EPERM,
	      "command piece");
	/* Not store blocks: crossing 4 KiB, longer than maxstbl, BAR 4. */
	CHECK(ism_dev_write(b, 0, req(tok, 0, false, 4000), data, 200,
			    ISM_DEV_ACC_BLOCK) == -EINVAL, "crossing 4 KiB");
	CHECK(ism_dev_write(b, 0, req(tok, 0, false, 0), data, 4097,
			    ISM_DEV_ACC_BLOCK) == -EINVAL, "4097 bytes");
	CHECK(ism_dev_write(b, 4, 0, data, 8, ISM_DEV_ACC_BLOCK) == -EINVAL,
	      "BAR 4");
	CHECK(mem[base(0) + 524288 + 4000] == 0, "a refused block wrote");
	/* Whole store blocks: data, then a command (body, header). */
	CHECK(ism_dev_write(b, 0, req(tok, 0, false, 0), data, 4096,
			    ISM_DEV_ACC_BLOCK) == 0, "data block");
	CHECK(memcmp(mem + base(0) + 524288, data, 4096) == 0, "block data");
	put_be(body, ism_dev_gid(a), 8);
	put_be(body + 8, 0, 8);
	CHECK(ism_dev_write(b, 2, 8, body, 16, ISM_DEV_ACC_BLOCK) == 0,
	      "body block");
	put_be(hdr, 0x09, 4);
	put_be(hdr + 4, 0, 2);
	put_be(hdr + 6, 24, 2);
	CHECK(ism_dev_write(b, 2, 0, hdr, 8, ISM_DEV_ACC_BLOCK) == 0,
	      "header block");
	CHECK(ism_dev_cmd_read(b, 0, hdr, 8) == 0 && get_be(hdr + 4, 2) == 0,
	      "QUERY_RGID of A by store blocks: 0x%04" PRIx64,
	      get_be(hdr + 4, 2));
	ism_dev_counts_get(b, &c1);
	CHECK(c1.refused_pieces - c0.refused_pieces == 2 &&
	      c1.refused_blocks - c0.refused_blocks == 3 &&
	      c1.data_blocks - c0.data_blocks == 1 &&
	      c1.cmd_blocks - c0.cmd_blocks == 2 &&
	      c1.data_pieces == c0.data_pieces &&
	      c1.cmd_pieces == c0.cmd_pieces,
	      "counts: refused pieces %" PRIu64 " blocks %" PRIu64 ", taken "
	      "data blocks %" PRIu64 " cmd blocks %" PRIu64,
	      c1.refused_pieces - c0.refused_pieces,
	      c1.refused_blocks - c0.refused_blocks,
	      c1.data_blocks - c0.data_blocks, c1.cmd_blocks - c0.cmd_blocks);
	CHECK(cmd_u64(a, 0x0b, tok, 8) == 0, "UNREG_DMB");

	/* The test mode takes pieces; its maxstbl of 128 bounds blocks. */
	CHECK(ism_dev_create(&pc, &ops, &envs[2], &p) == 0, "create P");
	if (p == NULL)
		return;
	ptok = dmb_for(a, p, 524288, 61);
	CHECK(ism_dev_write(p, 0, req(ptok, 0, false, 8), data, 4,
			    ISM_DEV_ACC_PIECE) == 0, "piece in PIECES mode");
	CHECK(memcmp(mem + base(0) + 524288 + 8, data, 4) == 0, "piece data");
	CHECK(ism_dev_write(p, 0, req(ptok, 0, false, 0), data, 129,
			    ISM_DEV_ACC_BLOCK) == -EINVAL, "129 of maxstbl 128");
	CHECK(ism_dev_write(p, 0, req(ptok, 0, false, 0), data, 128,
			    ISM_DEV_ACC_BLOCK) == 0, "128 of maxstbl 128");
	ism_dev_counts_get(p, &c1);
	CHECK(c1.data_pieces == 1 && c1.data_blocks == 1 &&
	      c1.refused_blocks == 1 && c1.refused_pieces == 0,
	      "P's counts");
	CHECK(cmd_u64(a, 0x0b, ptok, 8) == 0, "UNREG_DMB");
	ism_dev_destroy(p);
	/* Neither mode nor a maxstbl below 8. */
	pc.gid = 0xc4;
	pc.transport = (enum ism_dev_transport)7;
	CHECK(ism_dev_create(&pc, &ops, &envs[2], &p) == -EINVAL,
	      "an unknown transport");
	pc.transport = ISM_DEV_XPORT_BLOCKS;
	pc.maxstbl = 4;
	CHECK(ism_dev_create(&pc, &ops, &envs[2], &p) == -EINVAL,
	      "maxstbl 4");
}

/*
 * A BAR 0 of 2^33 bytes leaves 31 token values: all inside it, none
 * issued again within the 7 registrations after it was freed (a quarter
 * of the space waits), all 31 usable at once, then none.
 */
static void
test_small_bar0(void)
{
	struct ism_dev_config c = { .name = "small", .gid = 0x51, .fabric = 9,
		.bar0_size = UINT64_C(1) << 33 };
	struct ism_dev *s;
	uint64_t toks[32], recent[8] = { 0 };
	unsigned int i, j, n = 0;

	CHECK(ism_dev_create(&c, &ops, &envs[2], &s) == 0, "create");
	if (s == NULL)
		return;
	c.gid = 0x52;
	c.bar0_size <<= 1;
	CHECK(ism_dev_create(&c, &ops, &envs[2], &(struct ism_dev *){ NULL })
	      == -EINVAL, "another BAR 0 size in the fabric");
	bring_up(s, 2, 8);
	for (i = 0; i < 200; i++) {
		toks[0] = reg_dmb(s, base(2) + 65536, 64, 32, 0x51, 0, 0);
		CHECK(toks[0] != 0 && toks[0] < c.bar0_size >> 1,
		      "token 0x%" PRIx64, toks[0]);
		for (j = 0; j < 7; j++)
			CHECK(toks[0] != recent[j], "token 0x%" PRIx64
			      " again after %u", toks[0], j);
		memmove(recent + 1, recent, sizeof(recent) - sizeof(recent[0]));
		recent[0] = toks[0];
		CHECK(cmd_u64(s, 0x0b, toks[0], 8) == 0, "UNREG_DMB");
	}
	for (i = 0; i < 32; i++) {
		toks[i] = reg_dmb(s, base(2) + 65536 + 64 * i, 64, 32 + i, 0x51,
				  0, 0);
		n += toks[i] != 0;
	}
	CHECK(n == 31 && toks[31] == 0, "%u tokens of 31", n);
	ism_dev_destroy(s);
}

int
main(void)
{
	struct ism_dev_config c = { .name = "A", .gid = 0xa1, .fabric = 3,
		.bar0_size = 0 };
	struct ism_dev *a = NULL, *b = NULL, *dup = NULL;
	uint64_t slot;
	const uint8_t *e;

	mem = calloc(1, MEM_SIZE);
	if (mem == NULL)
		return 1;
	CHECK(ism_dev_create(&c, &ops, &envs[0], &a) == 0, "create A");
	CHECK(ism_dev_create(&c, &ops, &envs[1], &dup) == -EEXIST,
	      "the same GID twice");
	c.name = "B";
	c.gid = 0xb2;
	CHECK(ism_dev_create(&c, &ops, &envs[1], &b) == 0, "create B");
	if (a == NULL || b == NULL)
		return 1;
	test_commands_and_moves(a, b);
	test_protocol_errors(a);
	test_vlan_writer(a, b);
	test_transport(a, b);
	test_small_bar0();
	/* B goes: A hears DEV 0x07 (GID disabled) with B's GID. */
	ism_dev_destroy(b);
	e = last_event(0, &slot);
	CHECK(e != NULL && get_be(e, 4) == 1 && get_be(e + 4, 4) == 7 &&
	      get_be(e + 8, 8) == 0xb2, "DEV event");
	ism_dev_destroy(a);
	free(mem);
	printf("%s: %u failure(s)\n", fails ? "FAIL" : "PASS", fails);
	return fails ? 1 : 0;
}
