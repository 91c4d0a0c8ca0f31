/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_MODEL_H
#define ISM_PCI_MODEL_H

/*
 * A DEVICE MODEL of the IBM ISM PCI function, for tests only: it is built
 * only with -Dtests=true, is not part of the installed PMD, and runs no
 * hardware. It plugs in under the PCI backend's I/O layer (ism_pci_io.h)
 * and behaves as Linux's driver expects the device to
 * (drivers/s390/net/ism.h, ism_drv.c; doc/guides/rawdevs/ism_pci.rst):
 * command window on BAR 2, store blocks on BAR 0, DMB table with rgid,
 * VLAN and bounds checks, SBA and IEQ written through IOVAs, one
 * interrupt. All model functions of a process with the same CHID form one
 * fabric and can reach each other.
 *
 * It enforces what Linux's ism_vfio_pci enforces on user space
 * (drivers/vfio/pci/ism/main.c) and what Linux's driver never does: a
 * write is one store block that does not cross a 4 KiB boundary, is at
 * most maxstbl bytes and lies inside its BAR; the command window is
 * written as the body at offset 8, then the 8-byte header at 0, and read
 * with whole 8-byte loads. Anything else fails with -EINVAL and is counted
 * (ism_pci_model_violations()), so a test sees the backend break a rule.
 *
 * Where the public facts stop, the model chooses and says so: its refusal
 * codes (ISM_MODEL_RC_*), its tokens, the errnos of a refused store block.
 * Its interrupt is an rte_intr handle served by the EAL interrupt thread;
 * the command or store block that raises an event waits until every
 * callback of the handle has run, so an event is in the driver's queue
 * when the command that caused it returns.
 */

#include <stdint.h>

#include <rte_interrupts.h>

#include "ism_pci.h"
#include "ism_pci_io.h"

/* Device return codes of the model; the real ones are not public. */
#define ISM_MODEL_RC_NOT_FOUND	0x0101	/* no such GID, token or VLAN */
#define ISM_MODEL_RC_BAD_FIELD	0x0102	/* a request field out of range */
#define ISM_MODEL_RC_BUSY	0x0103	/* index in use, already registered */

/* Size of the model's BAR 2 (BAR 0 is ISM's 256 TiB). */
#define ISM_MODEL_CMD_WINDOW	256

/*
 * Quirks: ways a real function may differ from the default model, each
 * one a case the backend must handle as Linux does.
 */
#define ISM_MODEL_Q_NO_S	0x01	/* never sets S, only DMB bits */
#define ISM_MODEL_Q_MASK0	0x02	/* sets DMB bits, leaves masks 0 */
#define ISM_MODEL_Q_QI_FAIL	0x04	/* QUERY_INFO answers ISM_ERROR */
#define ISM_MODEL_Q_QI_SHORT	0x08	/* QUERY_INFO answers 8 bytes */
#define ISM_MODEL_Q_TOK20	0x10	/* tokens have bits 20-22 set */

struct ism_pci_model_cfg {
	uint16_t maxstbl;	/* largest store block taken; 0 = 4096 */
	uint32_t quirks;	/* ISM_MODEL_Q_* */
};

struct ism_pci_model_fn;

/*
 * Create a function with this (64-bit, non-zero) GID in fabric chid; cfg
 * may be NULL (defaults). Its DMA window is every IOVA until set.
 * @return 0, -EEXIST (GID in use in the fabric), -EINVAL, -ENOSPC,
 * -ENOMEM.
 */
int ism_pci_model_fn_create(const char *name, uint64_t gid, uint16_t chid,
		const struct ism_pci_model_cfg *cfg,
		struct ism_pci_model_fn **out);

/*
 * The function is disabled and leaves the fabric: the writers of DMBs it
 * still had registered get BUF 0x04 (as after UNREG_DMB), the owners of
 * DMBs it could write get BUF 0x08, and every function left in the
 * fabric DEV 0x07.
 */
void ism_pci_model_fn_destroy(struct ism_pci_model_fn *fn);

/* The function created under name, or NULL. */
struct ism_pci_model_fn *ism_pci_model_fn_find(const char *name);

/* I/O ops of a function; ctx is the function. */
extern const struct ism_pci_io_ops ism_pci_model_io_ops;

/* The function's interrupt handle, for the platform (ism_pci.h). */
struct rte_intr_handle *ism_pci_model_intr(struct ism_pci_model_fn *fn);

/*
 * The function's DMA window, for the platform: the model refuses SBA, IEQ
 * and DMB addresses outside it (the IOMMU would fault), and the backend
 * reads it at every allocation. Tests move it with _set_window().
 */
const struct ism_pci_dma_window *
ism_pci_model_window(const struct ism_pci_model_fn *fn);
void ism_pci_model_set_window(struct ism_pci_model_fn *fn, uint64_t start,
		uint64_t end);

/* Accesses refused for breaking a rule above, since the process started. */
uint64_t ism_pci_model_violations(void);

#endif /* ISM_PCI_MODEL_H */
