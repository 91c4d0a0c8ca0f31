/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_MODEL_H
#define ISM_PCI_MODEL_H

/*
 * A DEVICE MODEL of the IBM ISM PCI function, for tests only: it is built
 * only with -Dtests=true, is not part of the installed PMD, and runs no
 * hardware. It plugs in under the PCI backend's I/O layer (ism_pci_io.h)
 * and behaves as ISM-SEMANTICS.md section 3 describes the device: command
 * window on BAR 2, store blocks on BAR 0, DMB table with rgid, VLAN and
 * bounds checks, tokens with bits 0-27 clear, SBA and IEQ written through
 * IOVAs, one interrupt. All model functions of a process with the same
 * CHID form one fabric and can reach each other.
 *
 * Where the public facts stop, the model chooses and says so: its refusal
 * codes (ISM_MODEL_RC_*), the errnos of a refused store block, and that
 * the interrupt handler runs synchronously in the thread that caused it.
 */

#include <stdint.h>

#include "ism_pci_io.h"

/* Device return codes of the model; the real ones are not public. */
#define ISM_MODEL_RC_NOT_FOUND	0x0101	/* no such GID, token or VLAN */
#define ISM_MODEL_RC_BAD_FIELD	0x0102	/* a request field out of range */
#define ISM_MODEL_RC_BUSY	0x0103	/* index in use, already registered */

/* Size of the model's command window (BAR 2). */
#define ISM_MODEL_CMD_WINDOW	256

struct ism_pci_model_fn;

/*
 * Create a function with this (64-bit, non-zero) GID in fabric chid.
 * @return 0, -EEXIST (GID in use in the fabric), -ENOSPC, -ENOMEM.
 */
int ism_pci_model_fn_create(const char *name, uint64_t gid, uint16_t chid,
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

/* I/O ops and interrupt hooks of a function; ctx is the function. */
extern const struct ism_pci_io_ops ism_pci_model_io_ops;
int ism_pci_model_irq_enable(void *ctx, void (*handler)(void *arg),
		void *arg);
void ism_pci_model_irq_disable(void *ctx);

#endif /* ISM_PCI_MODEL_H */
