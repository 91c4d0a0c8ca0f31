/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_VFIO_IRQ_H
#define ISM_VFIO_IRQ_H

/*
 * Which of a function's interrupt kinds the bus routes to an eventfd.
 * Pure choice on vfio's VFIO_DEVICE_GET_IRQ_INFO answers, no logging and
 * no EAL, so that a unit test can feed it hand-made answers
 * (tests/bus_ism/test_vfio_irq.c).
 */

#include <linux/vfio.h>

/*
 * MSI if the function has it (ISM has exactly one MSI, the only interrupt
 * Linux's ism driver uses: pci_alloc_irq_vectors(..., PCI_IRQ_MSI) in
 * drivers/s390/net/ism_drv.c), else MSI-X; a kind counts only with at
 * least one vector that vfio can signal on an eventfd. Returns
 * VFIO_PCI_MSI_IRQ_INDEX, VFIO_PCI_MSIX_IRQ_INDEX or -1 (neither).
 */
int ism_vfio_irq_pick(const struct vfio_irq_info *msi,
		const struct vfio_irq_info *msix);

#endif /* ISM_VFIO_IRQ_H */
