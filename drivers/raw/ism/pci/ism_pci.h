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

#include "ism_pci_io.h"

struct rte_device;

/* What the function sits on: register access, identity, interrupts. */
struct ism_pci_platform {
	struct ism_pci_io io;
	uint16_t chid;		/* fabric id (PCHID); 0 if unknown */
	uint64_t capa;		/* RTE_ISM_CAPA_* to add, e.g. CROSS_PROCESS */
	/*
	 * Optional. irq_enable arranges for handler(arg) to run when the
	 * function raises its interrupt; the handler drains the event queue
	 * and must not be called with the command window in use by the same
	 * thread. irq_disable returns once no handler runs any more. Without
	 * them events are drained by rte_ism_signal_poll().
	 */
	int (*irq_enable)(void *ctx, void (*handler)(void *arg), void *arg);
	void (*irq_disable)(void *ctx);
};

/* Limits and names from the creator (devargs). */
struct ism_pci_config {
	const char *driver_name;	/* e.g. "ism_pci" */
	uint32_t max_dmbs;		/* 1..1888; 0 = 1888 */
	uint32_t max_dmb_len;		/* 1..1 MiB; 0 = 1 MiB */
};

#define ISM_PCI_MAX_DMBS 1888

/*
 * Bring the function up (REG_SBA, REG_IEQ, QUERY_INFO, READ_GID) and make
 * it an ISM device and a rawdev named name, started.
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
