/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_MODEL_PRIV_H
#define ISM_PCI_MODEL_PRIV_H

/* Inside the ISM PCI device model: functions and the fabric. */

#include <pthread.h>
#include <stdbool.h>

#include <rte_log.h>
#include <ism_compat.h>

#include "ism_pci_hw.h"
#include "ism_pci_model.h"

extern int ism_model_logtype;
#define RTE_LOGTYPE_ISM_PCI_MODEL ism_model_logtype
#define MODEL_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_PCI_MODEL, fmt, ##__VA_ARGS__)

#define MODEL_MAX_FNS	32

/*
 * Tokens: bits 28-47 hold a value drawn from a fabric-wide sequence that
 * does not repeat within 2^20 registrations; bits 20-22 are set with
 * ISM_MODEL_Q_TOK20; every other bit is 0, so requests stay inside the
 * 256 TiB of BAR 0. The value indexes the fabric's token table.
 */
#define MODEL_TOK_SHIFT		28
#define MODEL_TOK_BITS		20
#define MODEL_TOK_VALUES	(1u << MODEL_TOK_BITS)
#define MODEL_TOK20		(UINT64_C(7) << 20)

struct model_dmb {
	uint64_t token;		/* 0: not registered */
	uint64_t iova;
	uint32_t len;
	uint32_t vlan_valid;
	uint32_t vlan_id;
	uint64_t rgid;
};

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
	uint64_t gid;
	uint16_t chid;
	uint8_t slot;
	struct ism_pci_model_cfg cfg;	/* maxstbl normalised */
	struct ism_pci_dma_window window;
	uint8_t window_buf[ISM_MODEL_CMD_WINDOW];	/* BAR 2 */
	uint32_t body_len;		/* body written since the last header */
	struct ism_pci_sba *sba;	/* NULL: not registered */
	uint64_t sba_iova;
	struct ism_pci_ieq *ieq;	/* NULL: not registered */
	uint64_t ieq_iova;
	uint32_t ieq_next;		/* slot the next event goes to */
	uint64_t vlans[8192 / 64];	/* VLAN ids up to 0x1fff */
	struct model_irq irq;
	struct model_dmb dmbs[ISM_PCI_NR_DMB_IDX];
};

/*
 * One lock for the fabric: store blocks take it shared, commands and
 * function changes exclusive. Interrupt callbacks never come back into
 * the model, so a raiser may wait for them under the lock.
 */
extern struct model_fabric {
	pthread_rwlock_t lock;
	struct ism_pci_model_fn *fns[MODEL_MAX_FNS];
	uint64_t clock;			/* event time stamps */
	uint32_t tok_seq;		/* next token sequence number */
	/* Token value -> slot * NR_DMB_IDX + idx + 1; 0 if free. */
	uint16_t tok_table[MODEL_TOK_VALUES];
} model_fabric;

/* An access Linux's driver never makes, or ism_vfio_pci refuses: logged,
 * counted (ism_pci_model_violations()), -EINVAL. */
int model_violation(const struct ism_pci_model_fn *fn, const char *what,
		unsigned int bar, uint64_t off, size_t len);
/* Translate a device address; NULL if nothing is mapped there. */
void *model_iova2va(uint64_t iova);
/* Whether the function may DMA to [iova, iova + len). */
bool model_dma_ok(const struct ism_pci_model_fn *fn, uint64_t iova,
		uint64_t len);
struct ism_pci_model_fn *model_find_gid(uint16_t chid, uint64_t gid);
bool model_vlan_member(const struct ism_pci_model_fn *fn, uint64_t vlan_id);
/* Queue an event on fn (if its IEQ is registered) and interrupt. */
void model_post(struct ism_pci_model_fn *fn, uint32_t type, uint32_t code,
		uint64_t tok, uint64_t info);
/* BAR 2 header write: run the command in the window (exclusive lock). */
void model_cmd_exec(struct ism_pci_model_fn *fn);
/* A new token for DMB idx of fn, entered in the table; 0 if none left. */
uint64_t model_token_new(struct ism_pci_model_fn *fn, uint32_t idx);
void model_token_free(uint64_t token);

/* ism_pci_model_irq.c */
int model_irq_init(struct ism_pci_model_fn *fn);
void model_irq_fini(struct ism_pci_model_fn *fn);
/* After REG_SBA / UNREG_SBA: the driver's callback is registered by now. */
void model_irq_arm(struct ism_pci_model_fn *fn, bool on);
/* Raise the interrupt; with wait, return once every callback ran. */
void model_irq_raise(struct ism_pci_model_fn *fn, bool wait);

#endif /* ISM_PCI_MODEL_PRIV_H */
