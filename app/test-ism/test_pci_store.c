/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The PCI protocol suite, store blocks: how moves are cut into PCI store
 * blocks (4 KiB, maxstbl, top down, sf last), what never reaches the
 * device, the rules the model enforces, tokens and the DMA window.
 */

#include <stdalign.h>
#include <stdlib.h>

#include <rte_memory.h>

#include "test_pci_rec.h"

/* The moves of test_store_block_split() from q into a DMB of p; src:
 * 1 MiB (NULL: malloc failed).
 */
static int
store_block_split(struct pdev *p, struct pdev *q, uint8_t *src)
{
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
	uint64_t seed = 11;
	unsigned int i, mark;

	TEST_ASSERT_NOT_NULL(src, "malloc");
	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0xc2, true),
			    "create ism_pciproto_tx");
	TEST_ASSERT_SUCCESS(fx_register(p->id, 1u << 20, &q->info.gid, &d),
			    "register a DMB");
	for (i = 0; i < RTE_DIM(moves); i++) {
		fx_fill(src, moves[i].len, &seed);
		mark = q->rec.n;
		TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d.token,
						      moves[i].idx, moves[i].sf,
						      moves[i].off, src,
						      moves[i].len),
				    "move %u [%u, +%u)", i, moves[i].off,
				    moves[i].len);
		TEST_ASSERT_SUCCESS(check_split(&q->rec, mark, d.token,
						moves[i].idx, moves[i].sf,
						moves[i].off, src,
						moves[i].len, 4096),
				    "store blocks of move %u [%u, +%u)", i,
				    moves[i].off, moves[i].len);
		TEST_ASSERT_BUFFERS_ARE_EQUAL((uint8_t *)d.addr + moves[i].off,
					      src, moves[i].len,
					      "data of move %u [%u, +%u)", i,
					      moves[i].off, moves[i].len);
		TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 2),
				  moves[i].sf ? 1 : 0, "signal of move %u", i);
		TEST_ASSERT(!moves[i].sf || sig[0].mask == 1u << moves[i].idx,
			    "signal of move %u: mask 0x%x, expected 0x%x", i,
			    sig[0].mask, 1u << moves[i].idx);
	}
	return TEST_SUCCESS;
}

int
test_store_block_split(void)
{
	static struct pdev p, q;
	uint8_t *src;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0xc1, true),
			    "create ism_pciproto_rx");
	src = malloc(1u << 20);
	ret = store_block_split(&p, &q, src);
	free(src);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* The refusals of test_zero_length_and_refusals(), from q to p. */
static int
zero_length_and_refusals(struct pdev *p, struct pdev *q)
{
	struct rte_ism_move_seg seg[2];
	struct rte_ism_signal sig[1];
	struct rte_ism_dmb d;
	uint8_t buf[8192];
	unsigned int mark;
	uint64_t bad0;

	memset(buf, 0x5a, sizeof(buf));
	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0xd2, true),
			    "create ism_pciproto_tx");
	TEST_ASSERT_SUCCESS(fx_register(p->id, 6000, &q->info.gid, &d),
			    "register a DMB");
	bad0 = xstat(q, "errors_bad_argument");
	mark = q->rec.n;
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token, 0, 1, 0, buf, 0),
			  -EINVAL, "zero length");
	seg[0] = (struct rte_ism_move_seg){ buf, 0, 10 };
	seg[1] = (struct rte_ism_move_seg){ buf, 20, 0 };
	TEST_ASSERT_EQUAL(rte_ism_move_burst(q->id, d.token, 0, 1, seg, 2),
			  -EINVAL, "a zero-length segment");
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token | 0x100, 0, 1, 0,
					    buf, 1), -ENOENT, "token | 0x100");
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token | UINT64_C(1) << 48,
					    0, 1, 0, buf, 1), -ENOENT,
			  "token | 1 << 48");
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token, 0, 1, 1u << 20, buf,
					    1), -ERANGE, "offset 1 MiB");
	TEST_ASSERT_EQUAL(q->rec.n - mark, 0,
			  "accesses of locally refused moves");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 1), 0,
			  "signal of locally refused moves");
	TEST_ASSERT_EQUAL(xstat(q, "errors_bad_argument") - bad0, 2,
			  "locally refused moves counted");
	/* [3000, 7000) on a 6000-byte DMB: the highest piece, [4096, 7000),
	 * goes first and is refused; [3000, 4096) is never written.
	 */
	mark = q->rec.n;
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token, 0, 1, 3000, buf,
					    4000), -ERANGE, "past the end");
	TEST_ASSERT_EQUAL(q->rec.n - mark, 1,
			  "store blocks of a refused move");
	TEST_ASSERT_EQUAL(q->rec.ops[mark].off & 0x7fffff, 4096,
			  "first store block of a refused move");
	TEST_ASSERT(memchr(d.addr, 0x5a, d.len) == NULL,
		    "a refused move wrote");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 1), 0,
			  "a refused move signalled");
	return TEST_SUCCESS;
}

/* Refusals: zero length never reaches the device; past the end is refused
 * by the first store block, the highest piece, and writes nothing.
 */
int
test_zero_length_and_refusals(void)
{
	static struct pdev p, q;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0xd1, true),
			    "create ism_pciproto_rx");
	ret = zero_length_and_refusals(&p, &q);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* The bursts of test_burst_order(), from q to p. */
static int
burst_order(struct pdev *p, struct pdev *q)
{
	struct rte_ism_move_seg seg[3];
	struct rte_ism_dmb d;
	uint8_t a[100], b[10], c[4];
	const struct rec_op *op;
	unsigned int mark;

	memset(a, 'a', sizeof(a));
	memset(b, 'b', sizeof(b));
	memset(c, 'c', sizeof(c));
	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0xe2, true),
			    "create ism_pciproto_tx");
	TEST_ASSERT_SUCCESS(fx_register(p->id, 8192, &q->info.gid, &d),
			    "register a DMB");
	seg[0] = (struct rte_ism_move_seg){ a, 64, sizeof(a) };
	seg[1] = (struct rte_ism_move_seg){ b, 5000, sizeof(b) };
	seg[2] = (struct rte_ism_move_seg){ c, 0, sizeof(c) };
	mark = q->rec.n;
	TEST_ASSERT_SUCCESS(rte_ism_move_burst(q->id, d.token, 4, 1, seg, 3),
			    "move_burst");
	TEST_ASSERT_EQUAL(q->rec.n - mark, 4, "store blocks of the burst");
	op = &q->rec.ops[mark];
	/* probe: 1 byte at 5009 ('b'), no sf */
	TEST_ASSERT(op[0].len == 1 && op[0].data[0] == 'b',
		    "probe of %u bytes, first '%c', expected 1 'b'",
		    op[0].len, op[0].data[0]);
	TEST_ASSERT_EQUAL(op[0].off & 0xffffff, 5009, "probe");
	TEST_ASSERT_EQUAL(op[1].off & 0xffffff, 64, "segment 0");
	TEST_ASSERT_EQUAL(op[2].off & 0xffffff, 5000, "segment 1");
	TEST_ASSERT_EQUAL(op[3].off & 0xffffff, 1u << 23 | 0,
			  "segment 2, with sf");
	/* seg 0 reaching highest: no probe */
	seg[0] = (struct rte_ism_move_seg){ b, 6000, sizeof(b) };
	mark = q->rec.n;
	TEST_ASSERT_SUCCESS(rte_ism_move_burst(q->id, d.token, 4, 0, seg, 2),
			    "move_burst");
	TEST_ASSERT_EQUAL(q->rec.n - mark, 2, "store blocks without a probe");
	TEST_ASSERT_EQUAL(q->rec.ops[mark].off & 0xffffff, 6000,
			  "first store block without a probe");
	/* highest segment past the end: refused by the probe, nothing
	 * written
	 */
	seg[1] = (struct rte_ism_move_seg){ c, 8190, sizeof(c) };
	memset(d.addr, 0, d.len);
	mark = q->rec.n;
	TEST_ASSERT_EQUAL(rte_ism_move_burst(q->id, d.token, 4, 1, seg, 2),
			  -ERANGE, "a segment past the end");
	TEST_ASSERT_EQUAL(q->rec.n - mark, 1, "store blocks of a refused "
			  "burst");
	TEST_ASSERT(memchr(d.addr, 'b', d.len) == NULL,
		    "a refused burst wrote");
	return TEST_SUCCESS;
}

/* A burst whose highest-reaching segment is not the first probes its last
 * byte first; otherwise segments go out in order, sf on the very last.
 */
int
test_burst_order(void)
{
	static struct pdev p, q;
	int ret;

	TEST_ASSERT_SUCCESS(pdev_create(&p, "ism_pciproto_rx", 0xe1, true),
			    "create ism_pciproto_rx");
	ret = burst_order(&p, &q);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* The moves of test_maxstbl_split() on functions with options o; src:
 * 128 KiB.
 */
static int
maxstbl_round(struct pdev *p, struct pdev *q, const struct pdev_opts *o,
		uint8_t *src, uint64_t *seed)
{
	static const struct {
		uint32_t off, len;
	} moves[] = {
		{ 0, 1 }, { 0, 4096 }, { 1, 4096 }, { 4000, 10000 },
		{ 4095, 2 }, { 100, 70000 }, { 8191, 129 }, { 12288, 33 },
	};
	uint32_t maxstbl = o->model.maxstbl;
	struct rte_ism_signal sig[2];
	struct rte_ism_dmb d;
	unsigned int i, mark;

	TEST_ASSERT_SUCCESS(pdev_create_opts(p, "ism_pciproto_rx", 0x3b1, o),
			    "maxstbl %u: create ism_pciproto_rx", maxstbl);
	TEST_ASSERT_SUCCESS(pdev_create_opts(q, "ism_pciproto_tx", 0x3b2, o),
			    "maxstbl %u: create ism_pciproto_tx", maxstbl);
	TEST_ASSERT_SUCCESS(fx_register(p->id, 1u << 17, &q->info.gid, &d),
			    "maxstbl %u: register a DMB", maxstbl);
	for (i = 0; i < RTE_DIM(moves); i++) {
		fx_fill(src, moves[i].len, seed);
		q->rec.n = 0;	/* up to 2 200 store blocks */
		mark = q->rec.n;
		TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d.token, 3, 1,
						      moves[i].off, src,
						      moves[i].len),
				    "maxstbl %u, move %u [%u, +%u)", maxstbl,
				    i, moves[i].off, moves[i].len);
		TEST_ASSERT_SUCCESS(check_split(&q->rec, mark, d.token, 3, 1,
						moves[i].off, src, moves[i].len,
						maxstbl),
				    "maxstbl %u, store blocks of move %u",
				    maxstbl, i);
		TEST_ASSERT_BUFFERS_ARE_EQUAL((uint8_t *)d.addr + moves[i].off,
					      src, moves[i].len,
					      "maxstbl %u, data of move %u",
					      maxstbl, i);
		TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 2), 1,
				  "maxstbl %u, signal of move %u", maxstbl, i);
	}
	rte_ism_dmb_unregister(p->id, d.token);
	return TEST_SUCCESS;
}

/*
 * With a maxstbl below 4 KiB (the platform's, and the model's, which
 * refuses longer store blocks), every move is cut further: no store block
 * longer than maxstbl, none crossing 4 KiB, from the top down, sf on the
 * last. Commands still fit (a body is at most 32 bytes). The model saw no
 * access that breaks its rules.
 */
int
test_maxstbl_split(void)
{
	static struct pdev p, q;
	static const uint16_t maxstbl[] = { 32, 128, 1000, 4096 };
	struct pdev_opts o = { .irq = true };
	uint64_t seed = 5, v0 = ism_pci_model_violations();
	uint8_t *src = malloc(1u << 17);
	int ret = TEST_SUCCESS;
	unsigned int m;

	TEST_ASSERT_NOT_NULL(src, "malloc");
	for (m = 0; ret == TEST_SUCCESS && m < RTE_DIM(maxstbl); m++) {
		o.model.maxstbl = maxstbl[m];
		ret = maxstbl_round(&p, &q, &o, src, &seed);
		pdev_destroy(&q);
		pdev_destroy(&p);
	}
	free(src);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_EQUAL(ism_pci_model_violations() - v0, 0,
			  "accesses that broke the model's rules");
	return TEST_SUCCESS;
}

/* The accesses of test_model_store_rules() to fn; *v: the violations
 * before the last case, a header without its body.
 */
static int
model_store_rules(struct ism_pci_model_fn *fn, uint64_t *v)
{
	static const struct {
		bool write;
		unsigned int bar;
		uint64_t off;
		size_t len;
	} bad[] = {
		{ true, 0, 4000, 100 },		/* crosses 4 KiB */
		{ true, 0, 0, 129 },		/* longer than maxstbl */
		{ true, 0, 8192, 0 },		/* empty */
		{ true, 0, UINT64_C(1) << 48, 8 }, /* beyond BAR 0 */
		{ true, 1, 0, 8 },		/* no such BAR */
		{ true, 2, 0, 16 },		/* header not 8 bytes */
		{ true, 2, 16, 8 },		/* not header or body */
		{ true, 2, 4092, 8 },		/* crosses, and beyond BAR 2 */
		{ false, 2, 4, 8 },		/* read not 8-aligned */
		{ false, 2, 0, 12 },		/* read not whole loads */
		{ false, 0, 0, 8 },		/* read of BAR 0 */
		{ false, 2, 256, 8 },		/* beyond the window */
	};
	alignas(8) uint8_t buf[256];
	unsigned int i;
	int r;

	memset(buf, 0, sizeof(buf));
	for (i = 0; i < RTE_DIM(bad); i++) {
		*v = ism_pci_model_violations();
		r = bad[i].write ?
			ism_pci_model_io_ops.write(fn, bad[i].bar, bad[i].off,
						   buf, bad[i].len) :
			ism_pci_model_io_ops.read(fn, bad[i].bar, bad[i].off,
						  buf, bad[i].len);
		TEST_ASSERT_EQUAL(r, -EINVAL, "access %u", i);
		TEST_ASSERT_EQUAL(ism_pci_model_violations() - *v, 1,
				  "violations counted for access %u", i);
	}
	/* A header whose body was not written just before: ISM_ERROR. */
	*v = ism_pci_model_violations();
	buf[3] = 0x0b;			/* UNREG_DMB, 16 bytes */
	buf[7] = 16;
	TEST_ASSERT_SUCCESS(ism_pci_model_io_ops.write(fn, 2, 0, buf, 8),
			    "header without body");
	TEST_ASSERT_SUCCESS(ism_pci_model_io_ops.read(fn, 2, 0, buf, 8),
			    "response header");
	/* The largest legal store block: refused for its token only. */
	TEST_ASSERT_EQUAL(ism_pci_model_io_ops.write(fn, 0, 4096 - 128, buf,
						     128), -ENOENT,
			  "the largest legal store block");
	TEST_ASSERT(buf[4] == 0xff && buf[5] == 0xff, "header without body: "
		    "rc %02x%02x, expected ffff", buf[4], buf[5]);
	return TEST_SUCCESS;
}

/*
 * The model refuses what ism_vfio_pci refuses and what Linux's driver
 * never does, with -EINVAL, and counts it: so the suites above prove the
 * backend never does it.
 */
int
test_model_store_rules(void)
{
	struct ism_pci_model_cfg mc = { .maxstbl = 128 };
	struct ism_pci_model_fn *fn;
	uint64_t v = 0;
	int ret;

	TEST_ASSERT_SUCCESS(ism_pci_model_fn_create("ism_pciproto_rules", 0x7e1,
						    CHID, &mc, &fn),
			    "model function");
	ret = model_store_rules(fn, &v);
	ism_pci_model_fn_destroy(fn);
	if (ret != TEST_SUCCESS)
		return ret;
	TEST_ASSERT_EQUAL(ism_pci_model_violations() - v, 1,
			  "violations of a header without body");
	return TEST_SUCCESS;
}

/* The moves of test_token_bits_20_22(), from q to p (quirk TOK20). */
static int
token_bits_20_22(struct pdev *p, struct pdev *q)
{
	struct rte_ism_signal sig[2];
	struct rte_ism_dmb d;
	char data[6000];
	unsigned int mark;

	memset(data, 0x3c, sizeof(data));
	TEST_ASSERT_SUCCESS(pdev_create(q, "ism_pciproto_tx", 0x202, true),
			    "create ism_pciproto_tx");
	TEST_ASSERT_SUCCESS(fx_register(p->id, 8192, &q->info.gid, &d),
			    "register a DMB");
	TEST_ASSERT((d.token & (UINT64_C(7) << 20)) == UINT64_C(7) << 20,
		    "token 0x%" PRIx64 " without bits 20-22", d.token);
	mark = q->rec.n;
	TEST_ASSERT_SUCCESS(rte_ism_move_data(q->id, d.token, 5, 1, 1000, data,
					      sizeof(data)), "move_data");
	TEST_ASSERT_SUCCESS(check_split(&q->rec, mark, d.token, 5, 1, 1000,
					(const uint8_t *)data, sizeof(data),
					4096), "store blocks");
	TEST_ASSERT_BUFFERS_ARE_EQUAL((char *)d.addr + 1000, data,
				      sizeof(data), "data moved");
	TEST_ASSERT_EQUAL(rte_ism_signal_poll(p->id, sig, 2), 1, "signals");
	TEST_ASSERT_EQUAL(sig[0].mask, 1u << 5, "signal mask");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(p->id, d.token),
			    "dmb_unregister");
	TEST_ASSERT_EQUAL(rte_ism_move_data(q->id, d.token, 5, 1, 0, data, 1),
			  -ENOENT, "after unregister");
	return TEST_SUCCESS;
}

/*
 * A function may issue tokens with bits 20-22 set: Linux never checks
 * them, and only bits 0-19, 23 and 24-27 are the request's. The backend
 * takes such a token (it used to give it back), and moves with it land,
 * signal and are refused once it is unregistered.
 */
int
test_token_bits_20_22(void)
{
	static struct pdev p, q;
	struct pdev_opts o = { .irq = true };
	int ret;

	o.model.quirks = ISM_MODEL_Q_TOK20;
	TEST_ASSERT_SUCCESS(pdev_create_opts(&p, "ism_pciproto_rx", 0x201, &o),
			    "create ism_pciproto_rx");
	ret = token_bits_20_22(&p, &q);
	pdev_destroy(&q);
	pdev_destroy(&p);
	return ret;
}

/* The commands of cmd issued from op index from on. */
static unsigned int
count_cmd(const struct recorder *r, unsigned int from, uint32_t cmd)
{
	unsigned int n = 0;

	while (find_cmd(r, from, cmd, n) >= 0)
		n++;
	return n;
}

/* test_dma_window() on p, whose window shrinks: DMB d refused, then
 * registered once the window is back.
 */
static int
window_shrinks(struct pdev *p, struct rte_ism_dmb *d)
{
	unsigned int mark;

	d->rgid = p->info.gid;
	ism_pci_model_set_window(p->fn, 0, 4095);
	mark = p->rec.n;
	TEST_ASSERT_EQUAL(rte_ism_dmb_register(p->id, d), -ENOMEM,
			  "a DMB outside the window");
	TEST_ASSERT_EQUAL(count_cmd(&p->rec, mark, 0x0a), 0,
			  "REG_DMB of a DMB outside the window");
	ism_pci_model_set_window(p->fn, 0, UINT64_MAX);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(p->id, d),
			    "a DMB in the window");
	rte_ism_dmb_unregister(p->id, d->token);
	return TEST_SUCCESS;
}

/*
 * Memory the function writes lies in its DMA window (zPCI's start_dma and
 * end_dma): the backend refuses the bring-up, or a DMB, when DPDK's
 * memory is outside, with -ENOMEM and a log line, before asking the
 * function anything. The model refuses it too (BAD_FIELD) when the
 * backend does not know the window.
 */
int
test_dma_window(void)
{
	static struct pdev p;
	struct pdev_opts o = { .irq = true };
	struct ism_pci_model_fn *fn;
	struct ism_pci_platform plat = {
		.io = { .ops = &rec_ops, .ctx = &p.rec },
		.chid = CHID,
	};
	struct ism_pci_config cfg = { .driver_name = "ism_pciproto" };
	struct rte_ism_dmb d = { .len = 64 };
	const char *name = "ism_pciproto_win";
	uint64_t heap0 = heap_allocs();
	unsigned int mark;
	int ret;

	/* No memory in the window at all: no bring-up, no command. */
	memset(&p, 0, sizeof(p));
	TEST_ASSERT_SUCCESS(ism_pci_model_fn_create(name, 0xd1a, CHID, NULL,
						    &fn), "model function");
	p.rec.fn = fn;
	ism_pci_model_set_window(fn, 0, 4095);
	plat.dma_window = ism_pci_model_window(fn);
	plat.intr = ism_pci_model_intr(fn);
	ret = ism_pci_dev_create(name, NULL, SOCKET_ID_ANY, &plat, &cfg);
	if (ret == 0)
		ism_pci_dev_destroy(name);
	ism_pci_model_fn_destroy(fn);
	TEST_ASSERT_EQUAL(ret, -ENOMEM, "a bring-up outside the window");
	TEST_ASSERT(p.rec.n == 0 && heap_allocs() == heap0 &&
		    rte_ism_get_dev_id(name) == -ENODEV,
		    "a refused bring-up left %u accesses, %" PRIu64 " blocks",
		    p.rec.n, heap_allocs() - heap0);

	/* The window shrinks (as a test can make it): DMBs are refused. */
	TEST_ASSERT_SUCCESS(pdev_create_opts(&p, name, 0xd1b, &o),
			    "create %s", name);
	ret = window_shrinks(&p, &d);
	pdev_destroy(&p);
	if (ret != TEST_SUCCESS)
		return ret;

	/* A backend that does not know the window: the device refuses. */
	o.no_window = true;
	TEST_ASSERT_SUCCESS(pdev_create_opts(&p, name, 0xd1c, &o),
			    "create %s without the window", name);
	ism_pci_model_set_window(p.fn, 0, 4095);
	mark = p.rec.n;
	ret = rte_ism_dmb_register(p.id, &d);
	pdev_destroy(&p);
	TEST_ASSERT_EQUAL(ret, -EIO, "a DMB outside the model's window");
	TEST_ASSERT_EQUAL(count_cmd(&p.rec, mark, 0x0a), 1,
			  "REG_DMB of a DMB outside the model's window");
	return TEST_SUCCESS;
}
