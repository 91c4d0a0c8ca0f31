/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_MODEL_PRIV_H
#define ISM_PCI_MODEL_PRIV_H

/* Inside the ISM PCI device model: functions and the fabric. */

#include <pthread.h>
#include <stdbool.h>

#include <rte_log.h>

#include "ism_pci_hw.h"
#include "ism_pci_model.h"

extern int ism_model_logtype;
#define MODEL_LOG(level, fmt, ...) \
	rte_log(RTE_LOG_ ## level, ism_model_logtype, "ISM_PCI_MODEL: " fmt \
		"\n", ##__VA_ARGS__)

#define MODEL_MAX_FNS	32

/* Token: 63..59 function slot, 58..47 DMB index, 46..28 random, 27..0 0. */
#define MODEL_TOK_SLOT_SHIFT	59
#define MODEL_TOK_IDX_SHIFT	47
#define MODEL_TOK_IDX_MASK	0xfffu
#define MODEL_TOK_RAND_SHIFT	28
#define MODEL_TOK_RAND_MASK	((UINT64_C(1) << 19) - 1)

struct model_dmb {
	uint64_t token;		/* 0: not registered */
	uint64_t iova;
	uint32_t len;
	uint32_t vlan_valid;
	uint32_t vlan_id;
	uint64_t rgid;
	uint64_t last_rand;	/* the next token of this index differs */
};

struct ism_pci_model_fn {
	char name[64];
	uint64_t gid;
	uint16_t chid;
	uint8_t slot;
	uint8_t window[ISM_MODEL_CMD_WINDOW];	/* BAR 2 */
	struct ism_pci_sba *sba;	/* NULL: not registered */
	uint64_t sba_iova;
	struct ism_pci_ieq *ieq;	/* NULL: not registered */
	uint64_t ieq_iova;
	uint32_t ieq_next;		/* slot the next event goes to */
	uint64_t vlans[8192 / 64];	/* VLAN ids up to 0x1fff */
	void (*irq)(void *arg);
	void *irq_arg;
	struct model_dmb dmbs[ISM_PCI_NR_DMB_IDX];
};

/*
 * One lock for the fabric: store blocks take it shared, commands and
 * function changes exclusive. Interrupt handlers run under it and must
 * not come back into the model.
 */
extern struct model_fabric {
	pthread_rwlock_t lock;
	struct ism_pci_model_fn *fns[MODEL_MAX_FNS];
	uint64_t clock;			/* event time stamps */
} model_fabric;

/* Translate a device address; NULL if nothing is mapped there. */
void *model_iova2va(uint64_t iova);
struct ism_pci_model_fn *model_find_gid(uint16_t chid, uint64_t gid);
bool model_vlan_member(const struct ism_pci_model_fn *fn, uint64_t vlan_id);
/* Queue an event on fn (if its IEQ is registered) and interrupt. */
void model_post(struct ism_pci_model_fn *fn, uint32_t type, uint32_t code,
		uint64_t tok, uint64_t info);
/* BAR 2 header write: run the command in the window (exclusive lock). */
void model_cmd_exec(struct ism_pci_model_fn *fn);

#endif /* ISM_PCI_MODEL_PRIV_H */
