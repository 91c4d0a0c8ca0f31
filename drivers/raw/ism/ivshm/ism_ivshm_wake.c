/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The interrupt mode of the ivshmem backend (ism_wake.h, rte_ism.h
 * "Waiting without spinning"). Members share no socket and no file
 * descriptor (a QEMU guest has none of the host's), so a writer cannot
 * wake us itself: the control pass of this process, which runs every
 * IVSHM_PERIOD_US anyway, does it for them. While the device is armed, a
 * pass that finds our SBA pending kicks our own channel (ism_wake.h), once
 * per arming. A
 * sleeping client so wakes within a control period of the raise (plus the
 * time the control thread waits for a CPU); writers make no system call
 * and read nothing more than before. Events are posted by the pass too
 * and wake as on every backend.
 *
 * The flag is in this process's memory (only the pass reads it). No
 * wake-up is lost: arming stores it, then (full barrier) looks for pending
 * signals; a signal raised later is pending at the next pass, which sees
 * the flag.
 */

#include "ism_ivshm.h"

int
ism_ivshm_wake_init(struct ivshm_dev *d)
{
	return ism_wake_init(&d->wake, d->name, d->common.ism->socket_id,
			NULL);
}

void
ism_ivshm_wake_fini(struct ivshm_dev *d)
{
	ism_wake_fini(&d->wake);
}

/* Under the control lock, from every control pass. */
void
ism_ivshm_wake_relay(struct ivshm_dev *d)
{
	if (d->wake.intr == NULL || !ism_wake_armed(d->wake.self.armed) ||
	    rte_atomic_load_explicit(&d->wake_sent, rte_memory_order_relaxed))
		return;
	/* d->sba changes under the control lock only: it stays mapped. */
	if (!ism_sw_sba_pending(d->sba))
		return;
	rte_atomic_store_explicit(&d->wake_sent, true,
			rte_memory_order_relaxed);
	ism_wake_kick(d->wake.self.fd);
}

struct rte_intr_handle *
ism_ivshm_intr_handle_get(struct rte_ism_dev *idev)
{
	return ivshm_dev_of(idev)->wake.intr;
}

int
ism_ivshm_intr_arm(struct rte_ism_dev *idev, bool on)
{
	struct ivshm_dev *d = ivshm_dev_of(idev);
	unsigned int slot = rte_ism_pmd_lcore_slot();
	struct ism_sw_sba *sba;
	bool pending;

	rte_atomic_store_explicit(&d->wake_sent, false,
			rte_memory_order_relaxed);
	ism_wake_arm(&d->wake, on);
	if (!on)
		return 0;
	/* As the poll: after an expulsion the old SBA may become another
	 * member's once no bracket uses it.
	 */
	rte_ism_pmd_move_enter(slot);
	sba = rte_atomic_load_explicit(&d->sba, rte_memory_order_acquire);
	pending = ism_sw_sba_pending(sba);
	rte_ism_pmd_move_exit(slot);
	if (pending)
		ism_wake_kick(d->wake.self.fd);
	return 0;
}

void
ism_ivshm_intr_event(struct rte_ism_dev *idev)
{
	ism_wake_event(&ivshm_dev_of(idev)->wake);
}
