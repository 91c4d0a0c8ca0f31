/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <stdbool.h>
#include <stddef.h>

#include "ism_vfio_irq.h"

static bool
usable(const struct vfio_irq_info *irq)
{
	return irq != NULL && irq->count > 0 &&
		(irq->flags & VFIO_IRQ_INFO_EVENTFD) != 0;
}

int
ism_vfio_irq_pick(const struct vfio_irq_info *msi,
		const struct vfio_irq_info *msix)
{
	if (usable(msi))
		return VFIO_PCI_MSI_IRQ_INDEX;
	if (usable(msix))
		return VFIO_PCI_MSIX_IRQ_INDEX;
	return -1;
}
