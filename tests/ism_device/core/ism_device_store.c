/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function's data window (BAR 0): store blocks into
 * DMBs, and the signals of sf.
 *
 * On the hardware a store block is one instruction: when it completes,
 * its bytes are in the target DMB, and the signal of sf (DMB bit, element
 * mask, S, interrupt) comes after them; a store block that does not fit
 * writes nothing. An environment that hands the core whole store blocks
 * (in process; QEMU's s390 PCISTB, see
 * tests/ism_device/qemu/ism_qemu_s390.c) gets exactly that.
 *
 * One that sees only a CPU's MMIO writes (x86: a write(2) to the vfio
 * region becomes 4-byte writes of the kernel) cannot tell where a store
 * block ends, and passes each piece as a store block: every piece of the
 * last block of a move carries sf, so the signal is raised with its first
 * piece, and a block that runs past the DMB's end writes its pieces that
 * fit. Deferring the signal (until the vCPU leaves the device) would make
 * it come after move_data returned, which a driver may not expect, and
 * still not after the last piece where other vCPUs run. Both are right for
 * a guest with one vCPU: nothing in it runs between the pieces of one
 * write(2) (the kernel's loop is not preempted), so nothing sees the
 * signal before the last byte; the guests of the tests have one. That is
 * a test mode (ISM_DEV_XPORT_PIECES), never the default:
 *
 * ism_dev_write() is how a write reaches the function, the rule of the
 * s390 hardware checked there once for every environment: ISM takes data
 * and command bodies only as whole PCI Store Blocks (1 to maxstbl bytes,
 * not crossing 4 KiB; no plain PCI Store), and each write is counted by
 * how it arrived, so that a test can tell that every write of a run was
 * one store block.
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "ism_device_priv.h"

/*
 * Choice: element e of a DMB is bit rotate-right-16(0x1000, e) of its
 * dmbe_mask, what Linux's loopback device, which imitates ISM, hands its
 * clients (drivers/dibs/dibs_loopback.c). Linux's ism driver passes the
 * mask on; SMC-D ignores it.
 */
static uint16_t
elem_mask(uint32_t e)
{
	return (uint16_t)((0x1000u >> e) | (0x1000u << (16 - e)));
}

static int
or8(struct ism_dev *dev, uint64_t addr, uint8_t bits, uint8_t *old)
{
	uint8_t dummy;

	return dev->ops->dma_or8(dev->ctx, addr, bits, old ? old : &dummy);
}

/*
 * Element mask, DMB bit (index n: SBA byte 4 + n / 8, 0x80 >> n % 8),
 * then S, each an atomic OR after the data; the interrupt when S goes
 * from clear to set (or, without S, the DMB bit): later signals coalesce
 * into the run of the handler that clears S first.
 */
static void
raise_signal(struct ism_dev *dst, uint32_t idx, uint32_t elem)
{
	uint64_t sba = dst->sba;
	uint16_t m = elem_mask(elem);
	uint8_t old;
	int ret = 0;

	if (!dst->sba_on)
		return;
	if (!(dst->quirks & ISM_DEV_Q_MASK0)) {
		if (m >> 8)
			ret |= or8(dst, sba + ISMD_SBA_MASKS + 2 * idx, m >> 8,
				   NULL);
		if (m & 0xff)
			ret |= or8(dst, sba + ISMD_SBA_MASKS + 2 * idx + 1,
				   m & 0xff, NULL);
	}
	ret |= or8(dst, sba + ISMD_SBA_BITS + idx / 8, 0x80 >> (idx % 8),
		   &old);
	if (ret != 0) {
		ismd_log(dst, ISM_DEV_LOG_GUEST_ERROR, "signal of DMB %u lost: "
			 "DMA to the SBA failed", idx);
		return;
	}
	if (dst->quirks & ISM_DEV_Q_NO_S) {
		if (!(old & (0x80 >> (idx % 8))))
			dst->ops->irq(dst->ctx, ISM_DEV_IRQ_SIGNAL);
		return;
	}
	if (or8(dst, sba, ISMD_SBA_S, &old) == 0 && !(old & ISMD_SBA_S))
		dst->ops->irq(dst->ctx, ISM_DEV_IRQ_SIGNAL);
}

int
ism_dev_store(struct ism_dev *src, uint64_t req, const void *buf,
		size_t len)
{
	uint64_t token = req & ~ISMD_REQ_NOT_TOKEN;
	uint32_t off = (uint32_t)(req & ISMD_REQ_OFF_MASK);
	uint32_t elem = (uint32_t)((req >> ISMD_REQ_IDX_SHIFT) &
			ISMD_REQ_IDX_MASK);
	struct ismd_dmb *dmb;
	struct ism_dev *dst;
	uint32_t idx;
	int ret = 0;

	if (len == 0 || len > ISMD_STORE_MAX ||
	    (req % ISMD_STORE_MAX) + len > ISMD_STORE_MAX ||
	    req >= src->fabric->bar0_size)
		return -EINVAL;
	pthread_rwlock_rdlock(&ismd_lock);
	dmb = token == 0 ? NULL : ismd_token_find(src->fabric, token);
	if (dmb == NULL) {
		ret = -ENOENT;
		goto out;
	}
	/*
	 * The fabric checks the writer (Linux's driver checks nothing):
	 * only the rgid, and if the DMB is VLAN-tagged, a member.
	 */
	if (dmb->rgid != src->gid ||
	    (dmb->vlan_valid && !ismd_vlan_member(src, dmb->vlan_id))) {
		ret = -EACCES;
		goto out;
	}
	if (off > dmb->len || len > dmb->len - off) {
		ret = -ERANGE;
		goto out;
	}
	dst = dmb->owner;
	idx = (uint32_t)(dmb - dst->dmbs);
	if (dst->ops->dma_write(dst->ctx, dmb->addr + off, buf, len) < 0) {
		ismd_log(dst, ISM_DEV_LOG_GUEST_ERROR, "store to DMB %u at "
			 "0x%" PRIx64 " failed: no DMA mapping", idx,
			 dmb->addr + off);
		ret = -EIO;
		goto out;
	}
	if (req & ISMD_REQ_SF)
		raise_signal(dst, idx, elem);
out:
	pthread_rwlock_unlock(&ismd_lock);
	return ret;
}

#define PAGE_4K 4096u

static void
add(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

static bool
whole_block(const struct ism_dev *dev, uint64_t off, size_t len)
{
	return len >= 1 && len <= dev->maxstbl &&
		(off % PAGE_4K) + len <= PAGE_4K;
}

int
ism_dev_write(struct ism_dev *dev, unsigned int bar, uint64_t off,
		const void *buf, size_t len, enum ism_dev_access how)
{
	bool piece = how == ISM_DEV_ACC_PIECE;

	if (bar != 0 && bar != 2) {
		add(&dev->counts.refused_blocks);
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "write of %zu bytes to "
			 "BAR %u refused: no such window", len, bar);
		return -EINVAL;
	}
	if (piece && dev->transport != ISM_DEV_XPORT_PIECES) {
		add(&dev->counts.refused_pieces);
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "a %zu-byte piece "
			 "(plain store) to BAR %u at 0x%" PRIx64 " refused: "
			 "ISM takes store blocks only", len, bar, off);
		return -EPERM;
	}
	if (!piece && !whole_block(dev, off, len)) {
		add(&dev->counts.refused_blocks);
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "store block of %zu "
			 "bytes to BAR %u at 0x%" PRIx64 " refused: 1 to %u "
			 "bytes, not crossing 4 KiB", len, bar, off,
			 dev->maxstbl);
		return -EINVAL;
	}
	if (bar == 0)
		add(piece ? &dev->counts.data_pieces : &dev->counts.data_blocks);
	else
		add(piece ? &dev->counts.cmd_pieces : &dev->counts.cmd_blocks);
	return bar == 0 ? ism_dev_store(dev, off, buf, len) :
		ism_dev_cmd_write(dev, off, buf, len);
}

void
ism_dev_counts_get(const struct ism_dev *dev, struct ism_dev_counts *c)
{
	c->data_blocks = __atomic_load_n(&dev->counts.data_blocks,
					 __ATOMIC_RELAXED);
	c->cmd_blocks = __atomic_load_n(&dev->counts.cmd_blocks,
					__ATOMIC_RELAXED);
	c->data_pieces = __atomic_load_n(&dev->counts.data_pieces,
					 __ATOMIC_RELAXED);
	c->cmd_pieces = __atomic_load_n(&dev->counts.cmd_pieces,
					__ATOMIC_RELAXED);
	c->refused_pieces = __atomic_load_n(&dev->counts.refused_pieces,
					    __ATOMIC_RELAXED);
	c->refused_blocks = __atomic_load_n(&dev->counts.refused_blocks,
					    __ATOMIC_RELAXED);
}
