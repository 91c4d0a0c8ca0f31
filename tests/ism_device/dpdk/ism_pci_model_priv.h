/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_MODEL_PRIV_H
#define ISM_PCI_MODEL_PRIV_H

/* Inside the in-process environment of the emulated ISM function. */

#include <pthread.h>
#include <stdbool.h>

#include <rte_log.h>
#include <ism_compat.h>

#include "ism_pci_model.h"

extern int ism_model_logtype;
#define RTE_LOGTYPE_ISM_PCI_MODEL ism_model_logtype
#define MODEL_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_PCI_MODEL, fmt, ##__VA_ARGS__)

/* The BARs and the store block rules of ism_vfio_pci. */
#define MODEL_BAR_DATA		0
#define MODEL_BAR_CMD		2
#define MODEL_STORE_BOUNDARY	4096
#define MODEL_STORE_MAX		4096
/* A command body (at most 32 bytes) must fit in one store block. */
#define MODEL_STORE_MIN		32
#define MODEL_LOAD_SIZE		8
#define MODEL_HDR_LEN		8

/* The interrupt: an eventfd served by the EAL interrupt thread. */
struct model_irq {
	struct rte_intr_handle *handle;
	bool post_on;		/* the after-callback is registered */
	uint64_t raised;	/* interrupts raised (atomic) */
	uint64_t seen;		/* raised when the before-callback ran */
	pthread_mutex_t lock;
	pthread_cond_t cond;	/* done advanced */
	uint64_t done;		/* every callback ran for these */
};

struct ism_pci_model_fn {
	char name[64];
	struct ism_dev *dev;
	struct ism_pci_model_cfg cfg;	/* maxstbl normalised */
	struct ism_pci_dma_window window;
	struct model_irq irq;
	struct ism_pci_model_fn *next;
};

/* ism_pci_model_irq.c */
int model_irq_init(struct ism_pci_model_fn *fn);
void model_irq_fini(struct ism_pci_model_fn *fn);
/* SBA registered or not: the driver's callback is registered by then. */
void model_irq_arm(struct ism_pci_model_fn *fn, bool on);
/* Raise the interrupt; with wait, return once every callback ran. */
void model_irq_raise(struct ism_pci_model_fn *fn, bool wait);

#endif /* ISM_PCI_MODEL_PRIV_H */
