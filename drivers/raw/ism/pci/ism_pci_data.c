/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * PCI backend fast path: move_data as store blocks to BAR 0, the signal
 * poll over the device-written SBA, and the drain of the device-written
 * event queue into lib/ism events. No lock on the move path: a move is
 * nothing but store blocks through the I/O layer.
 */

#include "ism_pci_dev.h"

#include <ism_compat.h>

/* BUF and DEV event codes pass through: lib/ism took the device's values. */
static_assert((RTE_ISM_BUF_OWNER_ERROR == ISM_EV_OWNER_ERROR) &&
	      (RTE_ISM_BUF_USER_ERROR == ISM_EV_USER_ERROR) &&
	      (RTE_ISM_BUF_UNREGISTERED == ISM_EV_DMB_UNREGISTERED) &&
	      (RTE_ISM_BUF_VLAN_OWNER == ISM_EV_VLAN_OWNER) &&
	      (RTE_ISM_BUF_VLAN_USER == ISM_EV_VLAN_USER) &&
	      (RTE_ISM_BUF_USER_DISABLED == ISM_EV_USER_DISABLED) &&
	      (RTE_ISM_DEV_ERROR_STATE == ISM_EV_GID_ERROR) &&
	      (RTE_ISM_DEV_DISABLED == ISM_EV_GID_DISABLED),
	      "ISM event codes");
static_assert((RTE_ISM_DMB_IDX_FIRST == ISM_PCI_DMB_IDX_FIRST) &&
	      (ISM_PCI_MAX_DMBS == (ISM_PCI_NR_DMB_IDX - ISM_PCI_DMB_IDX_FIRST)) &&
	      (RTE_ISM_DMBE_MAX == ISM_PCI_NR_DMBE), "ISM index space");

/*
 * A token the device can have issued: not 0, the request encoding's bits
 * (0-19, 23-27) clear, nothing beyond BAR 0 (token_bad). Bits 20-22 may
 * be set (Linux never checks).
 */
static inline int
check_token(const struct ism_pci_dev *d, uint64_t token)
{
	return (token == 0 || (token & d->token_bad) != 0) ? -ENOENT : 0;
}

/*
 * Write len bytes to offset of the DMB named by token. Each store block
 * stays inside one 4 KiB block of the target offset (as Linux splits) and
 * holds at most the platform's maxstbl bytes. Store blocks go from the
 * highest offset down, so a move that runs past the end of the DMB is
 * refused by its first store block and writes nothing; sf rides on the
 * last store block issued only, so the signal comes after every byte.
 */
static int
store(const struct ism_pci_dev *d, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const uint8_t *data, uint32_t len)
{
	const struct ism_pci_io *io = &d->plat.io;
	uint32_t end = offset + len, lo;
	int ret;

	while (end > offset) {
		lo = RTE_ALIGN_FLOOR(end - 1, ISM_PCI_STORE_BOUNDARY);
		lo = RTE_MAX(lo, offset);
		if (end - lo > d->store_max)
			lo = end - d->store_max;
		ret = ism_pci_io_write(io, ISM_PCI_BAR_DATA,
				ism_pci_req(token, idx, sf && lo == offset, lo),
				data + (lo - offset), end - lo);
		if (unlikely(ret < 0))
			return ret;
		end = lo;
	}
	return 0;
}

/* The sender cannot see the remote DMB: check what it can, locally. */
static inline int
check_local(const struct ism_pci_dev *d, uint64_t token, uint32_t idx,
		uint32_t offset, uint32_t len)
{
	int ret = ism_check_move(idx, offset, len, ISM_PCI_DMB_MAX_LEN);

	return ret != 0 ? ret : check_token(d, token);
}

int
ism_pci_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len)
{
	struct ism_pci_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	int ret;

	ret = check_local(d, token, idx, offset, len);
	if (likely(ret == 0)) {
		rte_ism_pmd_move_enter(slot);
		ret = store(d, token, idx, sf, offset, data, len);
		rte_ism_pmd_move_exit(slot);
	}
	if (unlikely(ret != 0))
		return ism_count_error(&d->common, slot, ret);
	ism_count_move(&d->common, slot, len, 1, sf);
	return 0;
}

/*
 * Segments are written in order. The device refuses a segment that runs
 * past the end of the DMB only when it is written, so when the segment
 * reaching highest is not the first, its last byte is stored first as a
 * probe (with its final value; it is written again in its turn): if that
 * is refused, nothing was written. The price is one 1-byte store block,
 * and that byte becomes visible before the segments in front of it.
 */
int
ism_pci_move_burst(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		const struct rte_ism_move_seg *segs, uint16_t nb_segs)
{
	struct ism_pci_dev *d = ctx;
	unsigned int slot = rte_ism_pmd_lcore_slot();
	uint32_t bytes = 0, end, max_end = 0;
	uint16_t i, top = 0;
	int ret = nb_segs == 0 ? -EINVAL : 0;

	for (i = 0; ret == 0 && i < nb_segs; i++) {
		ret = check_local(d, token, idx, segs[i].offset,
				  segs[i].len);
		end = segs[i].offset + segs[i].len;
		if (end >= max_end) {
			max_end = end;
			top = i;	/* the last one to write that byte */
		}
		bytes += segs[i].len;
	}
	if (unlikely(ret != 0))
		return ism_count_error(&d->common, slot, ret);

	rte_ism_pmd_move_enter(slot);
	if (segs[0].offset + segs[0].len != max_end)
		ret = store(d, token, idx, 0, max_end - 1,
			    (const uint8_t *)segs[top].data + segs[top].len - 1,
			    1);
	for (i = 0; ret == 0 && i < nb_segs; i++)
		ret = store(d, token, idx, sf && i == nb_segs - 1,
			    segs[i].offset, segs[i].data, segs[i].len);
	rte_ism_pmd_move_exit(slot);
	if (unlikely(ret != 0))
		return ism_count_error(&d->common, slot, ret);
	ism_count_move(&d->common, slot, bytes, nb_segs, sf);
	return 0;
}

/*
 * Take the set bits of dmb_bits[w] and report them, MSB first, with their
 * element masks. What does not fit in sigs[n..nb) is put back. Returns
 * the new count.
 */
static uint16_t
scan_word(struct ism_pci_sba *sba, uint32_t w, struct rte_ism_signal *sigs,
		uint16_t n, uint16_t nb)
{
	uint32_t b, bits, idx;
	uint16_t hw;

	bits = rte_be_to_cpu_32(rte_atomic_exchange_explicit(&sba->dmb_bits[w], 0,
			rte_memory_order_acquire));
	while (bits != 0) {
		if (n == nb) {
			rte_atomic_fetch_or_explicit(&sba->dmb_bits[w],
					rte_cpu_to_be_32(bits),
					rte_memory_order_relaxed);
			break;
		}
		b = 32 - rte_fls_u32(bits);
		bits &= ~(UINT32_C(0x80000000) >> b);
		idx = w * 32 + b;
		hw = rte_be_to_cpu_16(rte_atomic_exchange_explicit(&sba->dmbe_mask[idx],
				0, rte_memory_order_acquire));
		/*
		 * As Linux: every set bit is a signal, whatever its mask
		 * holds. A zero mask is reported as such (the elements are
		 * unknown, or were reported with an earlier bit).
		 */
		sigs[n].dmb_idx = idx;
		sigs[n].mask = ism_pci_hw_to_elems(hw);
		sigs[n].reserved = 0;
		n++;
	}
	return n;
}

/*
 * The SBA scan of Linux's interrupt handler, polled: clear S if set, then
 * for every set DMB bit (MSB first) clear the bit and take its element
 * mask. Like Linux, the scan does not trust S: it reads the bit words
 * whether S is set or not (the interrupt, not S, is Linux's trigger, and
 * a device may set bits without S). Its cost is fixed: one load per word
 * that can hold a DMB of this device (59 at the default 1888 DMBs),
 * whatever the number of DMBs registered or signalled. What does not fit
 * in sigs is put back for the next poll.
 */
int
ism_pci_signal_poll(void *ctx, struct rte_ism_signal *sigs, uint16_t nb)
{
	struct ism_pci_dev *d = ctx;
	struct ism_pci_sba *sba = d->sba;
	rte_be32_t w0 = rte_atomic_load_explicit(&sba->s_e, rte_memory_order_acquire);
	uint32_t w, end = d->sba_words;
	uint16_t n = 0;

	/* Without interrupts this is where events get picked up. */
	if (unlikely(w0 & ISM_SBA_E))
		ism_pci_events_drain(d, true);
	if (nb == 0)
		return 0;
	if (w0 & ISM_SBA_S)
		rte_atomic_fetch_and_explicit(&sba->s_e, ~ISM_SBA_S, rte_memory_order_acq_rel);
	for (w = ISM_PCI_DMB_IDX_FIRST / 32; w < end; w++) {
		if (likely(rte_atomic_load_explicit(&sba->dmb_bits[w],
					   rte_memory_order_relaxed) == 0))
			continue;
		n = scan_word(sba, w, sigs, n, nb);
		if (n == nb)
			break;
	}
	return n;
}

bool
ism_pci_sba_pending(const struct ism_pci_dev *d)
{
	const struct ism_pci_sba *sba = d->sba;
	uint32_t w;

	if (rte_atomic_load_explicit(&sba->s_e, rte_memory_order_relaxed) &
	    (ISM_SBA_S | ISM_SBA_E))
		return true;
	/* Not S alone: a function may set bits without it (see the poll). */
	for (w = ISM_PCI_DMB_IDX_FIRST / 32; w < d->sba_words; w++)
		if (rte_atomic_load_explicit(&sba->dmb_bits[w],
				rte_memory_order_relaxed) != 0)
			return true;
	return false;
}

void
ism_pci_sba_clear(struct ism_pci_dev *d, uint32_t idx)
{
	rte_atomic_store_explicit(&d->sba->dmbe_mask[idx], 0, rte_memory_order_relaxed);
	rte_atomic_fetch_and_explicit(&d->sba->dmb_bits[idx / 32], ~ism_sba_bit(idx),
			rte_memory_order_relaxed);
}

/*
 * ISM event entry to lib/ism event: the types and codes of Linux's
 * drivers/s390/net/ism.h (ism_event) and include/linux/ism.h.
 */
static void
event_translate(const struct ism_pci_ieq_entry *e, struct rte_ism_event *ev)
{
	uint32_t type = rte_be_to_cpu_32(e->type);
	uint64_t tok = rte_be_to_cpu_64(e->tok);

	memset(ev, 0, sizeof(*ev));
	ev->code = rte_be_to_cpu_32(e->code);
	ev->info = rte_be_to_cpu_64(e->info);
	switch (type) {
	case ISM_EVENT_BUF:
		/* Only the token: the device does not say whose DMB. */
		ev->type = RTE_ISM_EVENT_BUF;
		ev->token = tok;
		break;
	case ISM_EVENT_DEV:
		ev->type = RTE_ISM_EVENT_DEV;
		ev->gid.gid = tok;	/* 64-bit hardware GID */
		break;
	case ISM_EVENT_SWR:
		ev->type = RTE_ISM_EVENT_SW;
		ev->gid.gid = tok;
		break;
	default:
		ev->type = RTE_ISM_EVENT_OTHER;
		ev->token = tok;
		break;
	}
}

/*
 * Consume entries after the last one seen up to the one the device wrote
 * last (header idx = its slot + 1), as Linux does. The ring has no overrun
 * protection: with 15 or more events between two drains the index wraps
 * onto (or past) the last entry consumed and events are lost on the
 * device; the interrupt handler drains promptly to make that unlikely.
 */
void
ism_pci_events_drain(struct ism_pci_dev *d, bool try)
{
	struct rte_ism_event ev;
	uint64_t hw_idx;
	unsigned int n;

	if (try) {
		if (!rte_spinlock_trylock(&d->ieq_lock))
			return;
	} else {
		rte_spinlock_lock(&d->ieq_lock);
	}
	if (!(rte_atomic_load_explicit(&d->sba->s_e, rte_memory_order_acquire) & ISM_SBA_E))
		goto out;
	rte_atomic_fetch_and_explicit(&d->sba->s_e, ~ISM_SBA_E, rte_memory_order_acq_rel);
	hw_idx = rte_be_to_cpu_64(rte_atomic_load_explicit(&d->ieq->idx,
			rte_memory_order_acquire));
	if (hw_idx > ISM_PCI_IEQ_NR || (hw_idx == 0 && d->ieq_idx >= 0)) {
		rte_atomic_fetch_add_explicit(&d->ieq_bad_index, 1, rte_memory_order_relaxed);
		ISM_PMD_LOG(ERR, "%s: event queue index %" PRIu64 " out of "
			    "range, events ignored", d->common.ism->name,
			    hw_idx);
		goto out;
	}
	for (n = 0; n < ISM_PCI_IEQ_NR &&
	     (uint64_t)(d->ieq_idx + 1) != hw_idx; n++) {
		if (++d->ieq_idx == ISM_PCI_IEQ_NR)
			d->ieq_idx = 0;
		event_translate(&d->ieq->entry[d->ieq_idx], &ev);
		rte_atomic_fetch_add_explicit(&d->ieq_events, 1, rte_memory_order_relaxed);
		/* A full queue is counted and logged by the library. */
		rte_ism_pmd_event_post(d->common.ism, &ev);
	}
out:
	rte_spinlock_unlock(&d->ieq_lock);
}

void
ism_pci_irq(void *arg)
{
	struct ism_pci_dev *d = arg;

	rte_atomic_fetch_add_explicit(&d->irqs, 1, rte_memory_order_relaxed);
	/* DMB signals stay in the SBA for rte_ism_signal_poll(). */
	ism_pci_events_drain(d, false);
	/* An interrupt is a signal or an event the client has not seen: its
	 * client sleeps if armed (events posted above woke it already). The
	 * device wrote the SBA before it raised the interrupt, so a client
	 * arming after the flag was read here finds the signal pending.
	 */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	ism_wake_event(&d->wake);
}
