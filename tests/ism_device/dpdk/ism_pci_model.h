/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_MODEL_H
#define ISM_PCI_MODEL_H

/*
 * The emulated ISM PCI function (tests/ism_device/core) IN PROCESS, for
 * tests only: built with -Dtests=true, never installed. It plugs the
 * device core in under the PCI backend's I/O layer (ism_pci_io.h) as the
 * platform of IBM Z would put a real function there:
 *   - register access as Linux's ism_vfio_pci gives it to user space
 *     (drivers/vfio/pci/ism/main.c): a write is one PCI store block of at
 *     most maxstbl bytes that does not cross a 4 KiB boundary and lies in
 *     its BAR; and as Linux's driver makes it: BAR 2 written as the body
 *     at offset 8 then the 8-byte header at 0, read in whole 8-byte
 *     loads. Anything else fails with -EINVAL and is counted
 *     (ism_pci_model_violations()), with what the core logs as a guest
 *     error, so a test sees the backend break a rule;
 *   - DMA at IOVAs of this process's DPDK memory, inside a DMA window
 *     (the zPCI window; an IOMMU would fault outside);
 *   - the interrupt: an rte_intr handle served by the EAL interrupt
 *     thread (ism_pci_model_irq.c); the command or store block that
 *     raises an event waits until every callback of the handle has run,
 *     so an event is in the driver's queue when the command returns.
 * All model functions of a process with the same CHID form one fabric.
 * The vdev ism_pcimodel (ism_pci_model_vdev.c) puts the PCI backend on a
 * new function, so every suite that runs on a software backend runs on
 * the PCI backend code too.
 */

#include <stdint.h>

#include <rte_interrupts.h>

#include "ism_pci.h"
#include "ism_device.h"

/* The core's quirks (ISM_DEV_Q_*), under the names the tests use. */
#define ISM_MODEL_Q_NO_S	ISM_DEV_Q_NO_S
#define ISM_MODEL_Q_MASK0	ISM_DEV_Q_MASK0
#define ISM_MODEL_Q_QI_FAIL	ISM_DEV_Q_QI_FAIL
#define ISM_MODEL_Q_QI_SHORT	ISM_DEV_Q_QI_SHORT
#define ISM_MODEL_Q_TOK20	ISM_DEV_Q_TOK20

/* Size of BAR 2, the command window. */
#define ISM_MODEL_CMD_WINDOW	ISM_DEV_BAR2_SIZE

struct ism_pci_model_cfg {
	uint16_t maxstbl;	/* largest store block taken; 0 = 4096 */
	uint32_t quirks;	/* ISM_MODEL_Q_* */
	uint64_t bar0_size;	/* 0: 256 TiB, as the hardware */
};

struct ism_pci_model_fn;

/*
 * Create a function with this 64-bit GID (0: a random one) in fabric
 * chid; cfg may be NULL (defaults). Its DMA window is every IOVA until
 * set.
 * @return 0, -EEXIST (GID in use in the fabric), -EINVAL, -ENOMEM.
 */
int ism_pci_model_fn_create(const char *name, uint64_t gid, uint16_t chid,
		const struct ism_pci_model_cfg *cfg,
		struct ism_pci_model_fn **out);

/*
 * The function leaves the fabric (ism_dev_destroy(): the others get BUF
 * 0x04 for its DMBs, BUF 0x08 for theirs it could write, DEV 0x07).
 */
void ism_pci_model_fn_destroy(struct ism_pci_model_fn *fn);

/* The function created under name, or NULL. */
struct ism_pci_model_fn *ism_pci_model_fn_find(const char *name);

uint64_t ism_pci_model_gid(const struct ism_pci_model_fn *fn);
uint64_t ism_pci_model_bar0_size(const struct ism_pci_model_fn *fn);

/* I/O ops of a function; ctx is the function. */
extern const struct ism_pci_io_ops ism_pci_model_io_ops;

/* The function's interrupt handle, for the platform (ism_pci.h). */
struct rte_intr_handle *ism_pci_model_intr(struct ism_pci_model_fn *fn);

/*
 * The function's DMA window, for the platform: the function refuses SBA,
 * IEQ and DMB addresses outside it, and the backend reads it at every
 * allocation. Tests move it with _set_window().
 */
const struct ism_pci_dma_window *
ism_pci_model_window(const struct ism_pci_model_fn *fn);
void ism_pci_model_set_window(struct ism_pci_model_fn *fn, uint64_t start,
		uint64_t end);

/* Accesses refused for breaking a rule above, since the process started. */
uint64_t ism_pci_model_violations(void);

#endif /* ISM_PCI_MODEL_H */
