/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_H
#define ISM_PCI_H

/*
 * The PCI backend of the ISM rawdev PMD: drives an IBM ISM PCI function
 * through the I/O layer of ism_pci_io.h. Two things put a platform under
 * it: the ism bus glue (ism_pci_probe.c, vfio) and, in tests only, the
 * device model (model/ism_pci_model.c). Nothing else should call this.
 */

#include <stdint.h>

#include <rte_compat.h>
#include <rte_interrupts.h>

#include "ism_pci_io.h"

struct rte_device;

/* IOVAs the function can reach, both ends included (zPCI DMA window). */
struct ism_pci_dma_window {
	uint64_t start;
	uint64_t end;
};

/* What the function sits on: register access, identity, interrupts. */
struct ism_pci_platform {
	struct ism_pci_io io;
	uint16_t chid;		/* fabric id (PCHID); 0 if unknown */
	uint64_t capa;		/* RTE_ISM_CAPA_* to add, e.g. CROSS_PROCESS */
	/*
	 * Largest PCI store block the platform takes, in bytes (zPCI
	 * maxstbl): 32 (a command body) to 4096; 0 means 4096. Every write
	 * is one store block of at most this many bytes that does not cross
	 * a 4 KiB boundary.
	 */
	uint16_t maxstbl;
	/*
	 * Size of BAR 0, the data window, in bytes: a power of two, 0 for
	 * the hardware's 256 TiB. A move's request (token | idx << 24 |
	 * sf << 23 | offset) is an offset into it, so a token reaching
	 * beyond it cannot be one the function issued (an emulated function
	 * behind x86's vfio-pci has 1 TiB at most).
	 */
	uint64_t bar0_size;
	/*
	 * The function's DMA window, or NULL if it can reach any IOVA. Read
	 * at every allocation of memory the function writes (SBA, IEQ,
	 * DMBs): it must outlive the device.
	 */
	const struct ism_pci_dma_window *dma_window;
	/*
	 * The function's interrupt, or NULL: events are then drained by
	 * rte_ism_signal_poll(). The backend registers its handler with
	 * rte_intr_callback_register(), turns the interrupt on with
	 * rte_intr_enable() at bring-up, off with rte_intr_disable() at
	 * teardown, and unregisters (waiting for a running handler). The
	 * handle stays the platform's.
	 */
	struct rte_intr_handle *intr;
};

/* Limits and names from the creator (devargs). */
struct ism_pci_config {
	const char *driver_name;	/* e.g. "ism_pci" */
	uint32_t max_dmbs;		/* 1..1888; 0 = 1888 */
	uint32_t max_dmb_len;		/* 1..1 MiB; 0 = 1 MiB */
};

#define ISM_PCI_MAX_DMBS 1888

/*
 * Bring the function up (interrupt, REG_SBA, REG_IEQ, QUERY_INFO, which
 * may fail, READ_GID) and make it an ISM device and a rawdev named name,
 * started.
 * @return 0 or a negative errno (logged); nothing is left on failure.
 */
__rte_internal
int ism_pci_dev_create(const char *name, struct rte_device *device,
		int socket_id, const struct ism_pci_platform *platform,
		const struct ism_pci_config *cfg);

/*
 * Stop the device, unregister what is left (DMBs, then UNREG_IEQ,
 * UNREG_SBA), turn interrupts off and free everything.
 * @return 0, or -ENODEV if no PCI-backend device has this name.
 */
__rte_internal
int ism_pci_dev_destroy(const char *name);

#endif /* ISM_PCI_H */
