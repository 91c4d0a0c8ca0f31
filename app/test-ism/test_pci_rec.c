/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* The recorder between the PCI backend and the device model, and the
 * helpers of the PCI protocol suite (test_pci_rec.h).
 */

#include <stdlib.h>

#include <rte_cycles.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include <ism_compat.h>

#include "test_pci_rec.h"

static void
rec_log(struct recorder *r, bool write, unsigned int bar, uint64_t off,
		const void *buf, size_t len)
{
	unsigned int i = rte_atomic_fetch_add_explicit(&r->n, 1, rte_memory_order_relaxed);
	struct rec_op *op;

	if (i >= REC_MAX)
		return;
	op = &r->ops[i];
	op->write = write;
	op->bar = bar;
	op->off = off;
	op->len = len;
	op->addr = (uintptr_t)buf;
	op->crc = fx_crc(buf, len);
	memcpy(op->data, buf, RTE_MIN(len, sizeof(op->data)));
}

uint32_t
be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

uint64_t
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
			 * released it was blocked.
			 */
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

const struct ism_pci_io_ops rec_ops = {
	.read = rec_read,
	.write = rec_write,
};

int
pdev_create_opts(struct pdev *p, const char *name, uint64_t gid,
		const struct pdev_opts *o)
{
	struct ism_pci_platform plat = {
		.io = { .ops = &rec_ops, .ctx = &p->rec },
		.chid = CHID,
		.maxstbl = o->model.maxstbl,
	};
	struct ism_pci_config cfg = { .driver_name = "ism_pciproto" };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->id = -1;
	ret = ism_pci_model_fn_create(name, gid, CHID, &o->model, &p->fn);
	if (ret < 0)
		return ret;
	p->rec.fn = p->fn;
	plat.intr = o->irq ? ism_pci_model_intr(p->fn) : NULL;
	plat.dma_window = o->no_window ? NULL : ism_pci_model_window(p->fn);
	plat.bar0_size = ism_pci_model_bar0_size(p->fn);
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

int
pdev_create(struct pdev *p, const char *name, uint64_t gid, bool irq)
{
	struct pdev_opts o = { .irq = irq };

	return pdev_create_opts(p, name, gid, &o);
}

void
pdev_destroy(struct pdev *p)
{
	if (p->fn == NULL)
		return;
	ism_pci_dev_destroy(p->name);
	ism_pci_model_fn_destroy(p->fn);
	p->fn = NULL;
}

uint64_t
xstat(const struct pdev *p, const char *name)
{
	int dev = rte_ism_get_dev_id(p->name);
	uint64_t v;

	return dev >= 0 && rte_ism_xstats_get_by_name(dev, name, NULL,
			&v) == 0 ? v : UINT64_MAX;
}

int
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

unsigned int
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

const uint8_t *
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

uint64_t
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

int
check_split(const struct recorder *r, unsigned int from, uint64_t token,
		uint32_t idx, uint32_t sf, uint32_t off, const uint8_t *src,
		uint32_t len, uint32_t maxstbl)
{
	uint32_t covered = 0, n = 0, expect_n = 0, lo, plen, end, blk, next;
	unsigned int i;
	uint64_t req;

	/* Per 4 KiB block of the target, ceil(bytes in it / maxstbl). */
	for (lo = off; lo < off + len; lo = end) {
		end = RTE_MIN(RTE_ALIGN_FLOOR(lo, 4096) + 4096, off + len);
		expect_n += (end - lo + maxstbl - 1) / maxstbl;
	}
	next = off + len;	/* where the next store block must end */
	for (i = from; i < r->n && i < REC_MAX; i++) {
		const struct rec_op *op = &r->ops[i];

		if (!op->write || op->bar != 0)
			continue;
		req = op->off;
		lo = req & 0xfffff;
		plen = op->len;
		blk = RTE_ALIGN_FLOOR(lo, 4096);
		TEST_ASSERT((req & ~UINT64_C(0x0f8fffff)) == token &&
			    ((req >> 24) & 0xf) == idx,
			    "request 0x%" PRIx64 ": token or idx", req);
		TEST_ASSERT(lo >= off && lo + plen == next && plen >= 1 &&
			    plen <= maxstbl && lo + plen <= blk + 4096,
			    "store block [%u, +%u) of move [%u, +%u), maxstbl "
			    "%u, after one ending at %u", lo, plen, off, len,
			    maxstbl, next);
		TEST_ASSERT(op->crc == fx_crc(src + (lo - off), plen),
			    "data of store block at %u", lo);
		n++;
		covered += plen;
		next = lo;
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
