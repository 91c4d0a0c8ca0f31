/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The PCI protocol suite, store blocks: how moves are cut into PCI store
 * blocks (4 KiB, maxstbl, top down, sf last), what never reaches the
 * device, the rules the model enforces, tokens and the DMA window.
 */

#include <stdlib.h>

#include <rte_memory.h>

#include "test_pci_rec.h"

int
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
				moves[i].len, 4096) != TEST_SUCCESS ||
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
int
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
	    rte_ism_move_data(q.id, d.token | UINT64_C(1) << 48, 0, 1, 0, buf,
			      1) != -ENOENT ||
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
int
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
	static const struct {
		uint32_t off, len;
	} moves[] = {
		{ 0, 1 }, { 0, 4096 }, { 1, 4096 }, { 4000, 10000 },
		{ 4095, 2 }, { 100, 70000 }, { 8191, 129 }, { 12288, 33 },
	};
	struct pdev_opts o = { .irq = true };
	struct rte_ism_signal sig[2];
	struct rte_ism_dmb d;
	uint64_t seed = 5, v0 = ism_pci_model_violations();
	unsigned int m, i, mark;
	uint8_t *src = malloc(1u << 17);
	int ret = TEST_FAILED;

	TEST_ASSERT(src != NULL, "malloc");
	for (m = 0; m < RTE_DIM(maxstbl); m++) {
		o.model.maxstbl = maxstbl[m];
		if (pdev_create_opts(&p, "ism_pciproto_rx", 0x3b1, &o) != 0)
			goto out;
		if (pdev_create_opts(&q, "ism_pciproto_tx", 0x3b2, &o) != 0 ||
		    fx_register(p.id, 1u << 17, &q.info.gid, &d) !=
		    TEST_SUCCESS)
			goto fail;
		for (i = 0; i < RTE_DIM(moves); i++) {
			fx_fill(src, moves[i].len, &seed);
			q.rec.n = 0;	/* up to 2 200 store blocks */
			mark = q.rec.n;
			if (rte_ism_move_data(q.id, d.token, 3, 1,
					      moves[i].off, src,
					      moves[i].len) != 0 ||
			    check_split(&q.rec, mark, d.token, 3, 1,
					moves[i].off, src, moves[i].len,
					maxstbl[m]) != TEST_SUCCESS ||
			    memcmp((uint8_t *)d.addr + moves[i].off, src,
				   moves[i].len) != 0 ||
			    rte_ism_signal_poll(p.id, sig, 2) != 1) {
				printf("    FAIL: maxstbl %u, move %u [%u, +%u)\n",
				       maxstbl[m], i, moves[i].off,
				       moves[i].len);
				goto fail;
			}
		}
		rte_ism_dmb_unregister(p.id, d.token);
		pdev_destroy(&q);
		pdev_destroy(&p);
	}
	if (ism_pci_model_violations() != v0) {
		printf("    FAIL: %" PRIu64 " accesses broke the model's "
		       "rules\n", ism_pci_model_violations() - v0);
		goto out;
	}
	ret = TEST_SUCCESS;
	goto out;
fail:
	pdev_destroy(&q);
	pdev_destroy(&p);
out:
	free(src);
	return ret;
}

/*
 * The model refuses what ism_vfio_pci refuses and what Linux's driver
 * never does, with -EINVAL, and counts it: so the suites above prove the
 * backend never does it.
 */
int
test_model_store_rules(void)
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
	struct ism_pci_model_cfg mc = { .maxstbl = 128 };
	struct ism_pci_model_fn *fn;
	uint8_t buf[256] __rte_aligned(8);
	uint64_t v;
	unsigned int i;
	int r;

	memset(buf, 0, sizeof(buf));
	TEST_RET(ism_pci_model_fn_create("ism_pciproto_rules", 0x7e1, CHID,
					 &mc, &fn), 0);
	for (i = 0; i < RTE_DIM(bad); i++) {
		v = ism_pci_model_violations();
		r = bad[i].write ?
			ism_pci_model_io_ops.write(fn, bad[i].bar, bad[i].off,
						   buf, bad[i].len) :
			ism_pci_model_io_ops.read(fn, bad[i].bar, bad[i].off,
						  buf, bad[i].len);
		if (r != -EINVAL || ism_pci_model_violations() != v + 1) {
			ism_pci_model_fn_destroy(fn);
			TEST_ASSERT(false, "access %u: %d, not refused and "
				    "counted", i, r);
		}
	}
	/* A header whose body was not written just before: ISM_ERROR. */
	v = ism_pci_model_violations();
	buf[3] = 0x0b;			/* UNREG_DMB, 16 bytes */
	buf[7] = 16;
	r = ism_pci_model_io_ops.write(fn, 2, 0, buf, 8);
	if (r == 0)
		r = ism_pci_model_io_ops.read(fn, 2, 0, buf, 8);
	/* The largest legal store block: refused for its token only. */
	if (r == 0)
		r = ism_pci_model_io_ops.write(fn, 0, 4096 - 128, buf, 128) ==
			-ENOENT ? 0 : -1;
	ism_pci_model_fn_destroy(fn);
	TEST_ASSERT(r == 0 && buf[4] == 0xff && buf[5] == 0xff &&
		    ism_pci_model_violations() == v + 1,
		    "header without body: rc %02x%02x, %" PRIu64 " violations",
		    buf[4], buf[5], ism_pci_model_violations() - v);
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
	struct rte_ism_signal sig[2];
	struct rte_ism_dmb d;
	char data[6000];
	unsigned int mark;
	int ret = TEST_FAILED;

	memset(data, 0x3c, sizeof(data));
	o.model.quirks = ISM_MODEL_Q_TOK20;
	TEST_RET(pdev_create_opts(&p, "ism_pciproto_rx", 0x201, &o), 0);
	if (pdev_create(&q, "ism_pciproto_tx", 0x202, true) != 0 ||
	    fx_register(p.id, 8192, &q.info.gid, &d) != TEST_SUCCESS)
		goto out;
	if ((d.token & (UINT64_C(7) << 20)) != UINT64_C(7) << 20) {
		printf("    FAIL: token 0x%" PRIx64 " without bits 20-22\n",
		       d.token);
		goto out;
	}
	mark = q.rec.n;
	if (rte_ism_move_data(q.id, d.token, 5, 1, 1000, data,
			      sizeof(data)) != 0 ||
	    check_split(&q.rec, mark, d.token, 5, 1, 1000,
			(const uint8_t *)data, sizeof(data), 4096) !=
	    TEST_SUCCESS ||
	    memcmp((char *)d.addr + 1000, data, sizeof(data)) != 0 ||
	    rte_ism_signal_poll(p.id, sig, 2) != 1 || sig[0].mask != 1u << 5) {
		printf("    FAIL: move with the token\n");
		goto out;
	}
	if (rte_ism_dmb_unregister(p.id, d.token) != 0 ||
	    rte_ism_move_data(q.id, d.token, 5, 1, 0, data, 1) != -ENOENT) {
		printf("    FAIL: unregister\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
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
	uint64_t heap0 = heap_allocs();
	unsigned int mark;
	int ret;

	/* No memory in the window at all: no bring-up, no command. */
	memset(&p, 0, sizeof(p));
	TEST_RET(ism_pci_model_fn_create("ism_pciproto_win", 0xd1a, CHID,
					 NULL, &fn), 0);
	p.rec.fn = fn;
	ism_pci_model_set_window(fn, 0, 4095);
	plat.dma_window = ism_pci_model_window(fn);
	plat.intr = ism_pci_model_intr(fn);
	ret = ism_pci_dev_create("ism_pciproto_win", NULL, SOCKET_ID_ANY,
			&plat, &cfg);
	ism_pci_model_fn_destroy(fn);
	TEST_RET(ret, -ENOMEM);
	TEST_ASSERT(p.rec.n == 0 && heap_allocs() == heap0 &&
		    rte_ism_get_dev_id("ism_pciproto_win") == -ENODEV,
		    "a refused bring-up left %u accesses, %" PRIu64 " blocks",
		    p.rec.n, heap_allocs() - heap0);

	/* The window shrinks (as a test can make it): DMBs are refused. */
	TEST_RET(pdev_create_opts(&p, "ism_pciproto_win", 0xd1b, &o), 0);
	d.rgid = p.info.gid;
	ism_pci_model_set_window(p.fn, 0, 4095);
	mark = p.rec.n;
	ret = rte_ism_dmb_register(p.id, &d);
	if (ret != -ENOMEM || count_cmd(&p.rec, mark, 0x0a) != 0) {
		pdev_destroy(&p);
		TEST_ASSERT(false, "DMB outside the window: %d, %u REG_DMB",
			    ret, count_cmd(&p.rec, mark, 0x0a));
	}
	ism_pci_model_set_window(p.fn, 0, UINT64_MAX);
	ret = rte_ism_dmb_register(p.id, &d);
	if (ret == 0)
		rte_ism_dmb_unregister(p.id, d.token);
	pdev_destroy(&p);
	TEST_RET(ret, 0);

	/* A backend that does not know the window: the device refuses. */
	o.no_window = true;
	TEST_RET(pdev_create_opts(&p, "ism_pciproto_win", 0xd1c, &o), 0);
	ism_pci_model_set_window(p.fn, 0, 4095);
	mark = p.rec.n;
	ret = rte_ism_dmb_register(p.id, &d);
	pdev_destroy(&p);
	TEST_ASSERT(ret == -EIO && count_cmd(&p.rec, mark, 0x0a) == 1,
		    "DMB outside the model's window: %d", ret);
	return TEST_SUCCESS;
}
