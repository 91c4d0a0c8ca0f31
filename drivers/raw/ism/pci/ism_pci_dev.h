/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_DEV_H
#define ISM_PCI_DEV_H

/* State of one PCI-backend device, shared by ism_pci.c and ism_pci_data.c. */

#include <pthread.h>
#include <stdbool.h>

#include <rte_memory.h>
#include <rte_spinlock.h>

#include "ism_pmd.h"
#include "ism_sw_dmb.h"
#include "ism_pci.h"
#include "ism_pci_cmd.h"
#include "ism_pci_hw.h"
#include "ism_wake.h"

struct ism_pci_dmb {
	uint64_t token;		/* 0: index free */
	void *addr;
	rte_iova_t iova;
	uint32_t len;
};

struct ism_pci_dev {
	struct ism_pmd_dev common;	/* first: fast-path context */
	struct ism_pci_platform plat;	/* io used by the fast path */
	uint32_t store_max;		/* bytes per store block (maxstbl) */
	uint64_t token_bad;		/* bits no token of the device has */
	uint32_t sba_words;		/* dmb_bits words the poll scans */
	struct ism_pci_sba *sba;	/* written by the device */
	struct ism_pci_ieq *ieq;	/* written by the device */
	rte_iova_t sba_iova;
	rte_iova_t ieq_iova;

	/* Event queue drain: interrupt handler or signal poll. */
	rte_spinlock_t ieq_lock;
	int ieq_idx;			/* last entry consumed, -1 at start */

	struct ism_pci_cmd_chan cmd;
	/* Control path: DMB table and VLANs; taken before the cmd lock. */
	pthread_mutex_t ctl_lock;
	struct ism_pci_dmb *dmbs;	/* [RTE_ISM_DMB_IDX_FIRST + max_dmbs] */
	struct ism_sw_idx_set idx_set;	/* indices taken (dmbs[].token) */
	uint32_t max_dmbs;
	uint32_t max_dmb_len;
	uint64_t vlans[(RTE_ISM_VLAN_ID_MAX + 1) / 64];
	uint64_t gid;
	struct ism_pci_info qi;		/* QUERY_INFO at init */
	bool qi_valid;			/* it answered (it need not) */
	bool sba_registered;
	bool ieq_registered;
	bool irq_enabled;
	/* Interrupt mode (with irq_enabled): the handler wakes the client. */
	struct ism_wake wake;

	/* Counters (xstats). */
	RTE_ATOMIC(uint64_t) irqs;
	RTE_ATOMIC(uint64_t) ieq_events;
	RTE_ATOMIC(uint64_t) ieq_bad_index;
};

/* ism_pci_data.c: fast path and event drain. */
int ism_pci_move_data(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		uint32_t offset, const void *data, uint32_t len);
int ism_pci_move_burst(void *ctx, uint64_t token, uint32_t idx, uint32_t sf,
		const struct rte_ism_move_seg *segs, uint16_t nb_segs);
int ism_pci_signal_poll(void *ctx, struct rte_ism_signal *sigs, uint16_t nb);
/* Drain the IEQ into the library's event queue if E is set. With try, give
 * up if another thread is draining (it will see what we would).
 */
void ism_pci_events_drain(struct ism_pci_dev *d, bool try);
/* Interrupt handler (rte_intr callback): drains the event queue. */
void ism_pci_irq(void *arg);
/* Anything in the SBA the client has not polled (interrupt mode). */
bool ism_pci_sba_pending(const struct ism_pci_dev *d);
/* Forget a pending signal of idx (DMB unregistered). */
void ism_pci_sba_clear(struct ism_pci_dev *d, uint32_t idx);

#endif /* ISM_PCI_DEV_H */
