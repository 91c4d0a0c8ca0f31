/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The ism bus's choice of interrupt kind, on VFIO_DEVICE_GET_IRQ_INFO
 * answers built here: ISM's MSI first (the emulated function, like QEMU's
 * s390 PCI host bridge wants, has an MSI-X capability beside it), MSI-X
 * only without a usable MSI. No EAL, no vfio.
 */

#include <stdio.h>
#include <string.h>

#include <linux/vfio.h>

#include "ism_vfio_irq.h"
#include "test_assert.h"

static struct vfio_irq_info
answer(uint32_t index, uint32_t count, uint32_t flags)
{
	struct vfio_irq_info irq;

	memset(&irq, 0, sizeof(irq));
	irq.argsz = sizeof(irq);
	irq.index = index;
	irq.count = count;
	irq.flags = flags;
	return irq;
}

static int
test_pick(void)
{
	const uint32_t ev = VFIO_IRQ_INFO_EVENTFD;
	struct vfio_irq_info msi1 = answer(VFIO_PCI_MSI_IRQ_INDEX, 1, ev);
	struct vfio_irq_info msi0 = answer(VFIO_PCI_MSI_IRQ_INDEX, 0, ev);
	struct vfio_irq_info msi_noev = answer(VFIO_PCI_MSI_IRQ_INDEX, 1, 0);
	struct vfio_irq_info msix1 = answer(VFIO_PCI_MSIX_IRQ_INDEX, 1, ev);
	struct vfio_irq_info msix0 = answer(VFIO_PCI_MSIX_IRQ_INDEX, 0, ev);

	TEST_ASSERT_EQUAL(ism_vfio_irq_pick(&msi1, &msix1),
			  VFIO_PCI_MSI_IRQ_INDEX, "MSI and MSI-X: MSI");
	TEST_ASSERT_EQUAL(ism_vfio_irq_pick(&msi1, &msix0),
			  VFIO_PCI_MSI_IRQ_INDEX, "MSI only: MSI");
	TEST_ASSERT_EQUAL(ism_vfio_irq_pick(&msi0, &msix1),
			  VFIO_PCI_MSIX_IRQ_INDEX, "MSI-X only: MSI-X");
	TEST_ASSERT_EQUAL(ism_vfio_irq_pick(&msi_noev, &msix1),
			  VFIO_PCI_MSIX_IRQ_INDEX,
			  "an MSI without eventfd: MSI-X");
	TEST_ASSERT_EQUAL(ism_vfio_irq_pick(&msi0, &msix0), -1,
			  "neither: none");
	TEST_ASSERT_EQUAL(ism_vfio_irq_pick(NULL, NULL), -1, "no answers");
	return TEST_SUCCESS;
}

int
main(void)
{
	int ret = test_pick();

	printf("%s pick\n", ret == TEST_SUCCESS ? "PASS" : "FAIL");
	return ret == TEST_SUCCESS ? 0 : 1;
}
