/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_QEMU_H
#define ISM_QEMU_H

/*
 * The QEMU device "ism" (ism_qemu.c) as the s390 glue (ism_qemu_s390.c,
 * built into qemu-system-s390x only) sees it.
 */

#define TYPE_ISM_PCI "ism"

/* Whether pdev is an "ism" device. */
bool ism_qemu_is_ism(PCIDevice *pdev);

/*
 * One whole PCI store block of len bytes to offset off of BAR bar, as
 * the s390 PCISTB instruction gives it (ism_dev_write(), counted).
 * @return 0, or a negative errno: refused, nothing written.
 */
int ism_qemu_store_block(PCIDevice *pdev, unsigned int bar, uint64_t off,
		const void *buf, size_t len);

/* Its fabric id: the PCHID the guest sees on s390. */
uint16_t ism_qemu_fabric(PCIDevice *pdev);

#endif /* ISM_QEMU_H */
