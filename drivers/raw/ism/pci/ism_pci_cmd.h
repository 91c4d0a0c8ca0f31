/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_CMD_H
#define ISM_PCI_CMD_H

/*
 * The command channel of an ISM PCI function (BAR 2): one outstanding
 * command at a time, serialised by a mutex. Control path only; move_data
 * never comes here.
 *
 * Every function returns 0 or a negative errno. A device return code is
 * logged with the command's name, counted and mapped: every non-zero
 * QUERY_RGID code and SIGNAL_IEQ codes other than 0xffff mean "not
 * reachable" (-ENETUNREACH, logged at DEBUG only: a client polls for a
 * peer that is not there yet), every other non-zero code is -EIO.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <ism_compat.h>

#include "ism_pci_io.h"

struct ism_pci_cmd_chan {
	const struct ism_pci_io *io;
	const char *name;		/* device name, for the log */
	pthread_mutex_t lock;		/* one outstanding command */
	/* Counters (xstats); written under lock, read without. */
	RTE_ATOMIC(uint64_t) issued;
	RTE_ATOMIC(uint64_t) device_errors;	/* mapped to -EIO */
	RTE_ATOMIC(uint64_t) unreachable;	/* mapped to -ENETUNREACH */
	RTE_ATOMIC(uint64_t) io_errors;		/* the I/O layer failed */
	RTE_ATOMIC(uint16_t) last_rc;		/* last non-zero device code */
};

/* QUERY_INFO response, decoded. */
struct ism_pci_info {
	uint32_t version;
	uint32_t max_len;
	uint64_t state;
	uint64_t my_gid;
	uint64_t sba;
	uint64_t ieq;
	uint32_t ieq_len;
	uint32_t dmbs_owned;
	uint32_t dmbs_used;
	uint32_t vlan_required;
	uint32_t vlan_nr_ids;
	uint16_t vlan_id[64];
};

/* REG_DMB request fields. */
struct ism_pci_reg_dmb {
	uint64_t iova;
	uint32_t len;
	uint32_t sba_idx;
	uint32_t vlan_valid;
	uint32_t vlan_id;
	uint64_t rgid;
};

void ism_pci_cmd_init(struct ism_pci_cmd_chan *ch, const struct ism_pci_io *io,
		const char *name);
void ism_pci_cmd_fini(struct ism_pci_cmd_chan *ch);

/* Command name for logs ("REG_DMB"), "cmd 0x.." style if unknown. */
const char *ism_pci_cmd_name(uint32_t cmd);

/* Device code of cmd to errno (0 stays 0). */
int ism_pci_cmd_errno(uint32_t cmd, uint16_t rc);

/*
 * Raw exchange: fill the header of req (req_len bytes, header included),
 * write body then header, read the response header and, if the device
 * returned 0, resp_len - 8 bytes of body. resp (resp_len >= 8) receives
 * the response. *rc gets the device code. Returns 0 if the exchange itself
 * worked, else a negative errno (I/O failure, short response).
 */
int ism_pci_cmd_exec(struct ism_pci_cmd_chan *ch, uint32_t cmd, uint8_t *req,
		uint16_t req_len, uint8_t *resp, uint16_t resp_len,
		uint16_t *rc);

int ism_pci_cmd_reg_sba(struct ism_pci_cmd_chan *ch, uint64_t sba_iova);
int ism_pci_cmd_reg_ieq(struct ism_pci_cmd_chan *ch, uint64_t ieq_iova,
		uint64_t len);
int ism_pci_cmd_read_gid(struct ism_pci_cmd_chan *ch, uint64_t *gid);
int ism_pci_cmd_query_info(struct ism_pci_cmd_chan *ch,
		struct ism_pci_info *qi);
int ism_pci_cmd_query_rgid(struct ism_pci_cmd_chan *ch, uint64_t rgid,
		uint32_t vlan_valid, uint32_t vlan_id);
int ism_pci_cmd_reg_dmb(struct ism_pci_cmd_chan *ch,
		const struct ism_pci_reg_dmb *r, uint64_t *token);
/* *released (may be NULL): the device let go of the DMB (code 0 or 0xffff,
 * as in Linux), so its memory may be freed, even if -EIO is returned.
 */
int ism_pci_cmd_unreg_dmb(struct ism_pci_cmd_chan *ch, uint64_t token,
		bool *released);
int ism_pci_cmd_signal_ieq(struct ism_pci_cmd_chan *ch, uint64_t rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info);
int ism_pci_cmd_vlan(struct ism_pci_cmd_chan *ch, bool add, uint64_t vlan_id);
/* UNREG_IEQ or UNREG_SBA; 0 and 0xffff both mean done (as in Linux). */
int ism_pci_cmd_unreg(struct ism_pci_cmd_chan *ch, uint32_t cmd);

#endif /* ISM_PCI_CMD_H */
