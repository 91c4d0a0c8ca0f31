/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function's data window (BAR 0): store blocks into
 * DMBs, and the signals of sf.
 *
 * On the hardware a store block is one instruction: when it completes,
 * its bytes are in the target DMB, and the signal of sf (DMB bit, element
 * mask, S, interrupt) comes after them. An environment that hands the
 * core whole store blocks (in process; QEMU's s390 PCISTB, see
 * tests/ism_device/qemu/ism_qemu_s390.c) gets exactly that. One that sees
 * only the CPU's MMIO writes (x86: a write(2) to the vfio region becomes
 * 4- or 8-byte writes) passes them with ISM_DEV_STORE_PART and calls
 * ism_dev_store_end() when the CPU is done; the signal waits until then.
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

/* Raise the signals of partial store blocks, if their DMB still is. */
void
ismd_pending_flush(struct ism_dev *dev)
{
	struct ismd_pending *p;
	unsigned int i;

	for (i = 0; i < dev->nr_pending; i++) {
		p = &dev->pending[i];
		if (p->dst != NULL && p->dst->dmbs[p->idx].token == p->token)
			raise_signal(p->dst, p->idx, p->elem);
	}
	dev->nr_pending = 0;
}

/* dst is going away: no function may signal it later. */
void
ismd_pending_forget(struct ism_dev *dst)
{
	struct ism_dev *d;
	unsigned int i;

	for (d = dst->fabric->fns; d != NULL; d = d->next)
		for (i = 0; i < d->nr_pending; i++)
			if (d->pending[i].dst == dst)
				d->pending[i].dst = NULL;
}

static void
pending_add(struct ism_dev *src, struct ism_dev *dst, uint64_t token,
		uint32_t idx, uint32_t elem)
{
	struct ismd_pending *p;

	if (src->nr_pending > 0) {
		p = &src->pending[src->nr_pending - 1];
		if (p->dst == dst && p->token == token && p->elem == elem)
			return;		/* the next piece of the same block */
	}
	if (src->nr_pending == ISMD_PENDING)
		ismd_pending_flush(src);
	src->pending[src->nr_pending++] = (struct ismd_pending){
		.dst = dst, .token = token, .idx = idx, .elem = elem,
	};
}

int
ism_dev_store(struct ism_dev *src, uint64_t req, const void *buf,
		size_t len, unsigned int flags)
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
	/* Pieces change the pending signals: exclusive. */
	if (flags & ISM_DEV_STORE_PART)
		pthread_rwlock_wrlock(&ismd_lock);
	else
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
	if (req & ISMD_REQ_SF) {
		if (flags & ISM_DEV_STORE_PART)
			pending_add(src, dst, token, idx, elem);
		else
			raise_signal(dst, idx, elem);
	}
out:
	pthread_rwlock_unlock(&ismd_lock);
	return ret;
}

void
ism_dev_store_end(struct ism_dev *dev)
{
	pthread_rwlock_wrlock(&ismd_lock);
	ismd_pending_flush(dev);
	pthread_rwlock_unlock(&ismd_lock);
}
