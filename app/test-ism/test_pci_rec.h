/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef TEST_PCI_REC_H
#define TEST_PCI_REC_H

/*
 * The PCI protocol suite's tools: the real PCI backend on a function of
 * the ISM PCI device model, with a recorder in between that logs every
 * read and write of the I/O layer and can make the "device" answer a
 * command with an error code. Expected bytes are written out from the
 * layout Linux's driver uses (drivers/s390/net/ism.h; the facts are in
 * doc/guides/rawdevs/ism_pci.rst), not taken from the backend's headers.
 *
 * Only built with the model (-Dtests=true); it uses no fixture device.
 */

#include <stdbool.h>
#include <stdint.h>

#include <ism_compat.h>

#include "test_ism.h"
#include "ism_pci.h"
#include "ism_pci_model.h"

#define CHID 0x0abc		/* a fabric of its own */
#define REC_MAX 4096
#define REC_DATA 48

struct rec_op {
	bool write;
	uint8_t bar;
	uint64_t off;
	uint32_t len;
	uintptr_t addr;		/* of the backend's buffer */
	uint32_t crc;		/* of all len bytes */
	uint8_t data[REC_DATA];	/* the first bytes */
};

/* Make the device answer command cmd with code rc, count times. */
struct rec_fault {
	uint32_t cmd;
	uint16_t rc;
	bool run_it;		/* the model still runs the command */
	unsigned int count;
};

struct recorder {
	struct ism_pci_model_fn *fn;
	struct rec_op ops[REC_MAX];
	RTE_ATOMIC(unsigned int) n;
	struct rec_fault fault;
	bool fake_header;	/* next header read returns fault.rc */
	uint32_t fake_cmd;
	int store_errno;	/* fail store blocks with this errno */
	int read_errno;		/* fail command window reads */
	bool bad_token;		/* next REG_DMB token has bit 0 set */
	uint32_t last_cmd;	/* of the last command header written */
	volatile bool stall;	/* hold command headers until cleared */
	volatile bool stalled;
	volatile bool stall_expired;
};

struct pdev {
	char name[RTE_ISM_NAME_LEN];
	struct recorder rec;
	struct ism_pci_model_fn *fn;
	int id;
	struct rte_ism_dev_info info;
};

/* How pdev_create_opts() sets a device up. */
struct pdev_opts {
	bool irq;		/* the platform has the model's interrupt */
	struct ism_pci_model_cfg model;	/* maxstbl (also the platform's) */
	bool no_window;		/* the platform has no DMA window */
};

extern const struct ism_pci_io_ops rec_ops;

uint32_t be32_at(const uint8_t *p);
uint64_t be64_at(const uint8_t *p);
/* A model function with the real backend on top, through a recorder. */
int pdev_create_opts(struct pdev *p, const char *name, uint64_t gid,
		const struct pdev_opts *o);
int pdev_create(struct pdev *p, const char *name, uint64_t gid, bool irq);
void pdev_destroy(struct pdev *p);
uint64_t xstat(const struct pdev *p, const char *name);
/* Index of the nth (from 0) command header write of cmd at or after from,
 * or -1.
 */
int find_cmd(const struct recorder *r, unsigned int from, uint32_t cmd,
		unsigned int nth);
/* The commands issued from op index from on, in order. */
unsigned int cmd_list(const struct recorder *r, unsigned int from,
		uint32_t *cmds, unsigned int max);
/*
 * Check the request of the command whose header is op h: the header bytes
 * (cmd, reserved 0, len) and, for a body, that it was written at offset 8
 * just before the header. Returns the body bytes (offset 8 on) or NULL.
 */
const uint8_t *check_request(const struct recorder *r, int h, uint32_t cmd,
		uint16_t len);
/*
 * The store blocks of one move, as recorded from index from: each inside
 * one 4 KiB block of the target offset and at most maxstbl bytes, issued
 * from the highest offset down and together covering [off, off + len);
 * each request = token | idx << 24 | sf << 23 | offset, the data the
 * source's, sf only on the last store block issued.
 */
int check_split(const struct recorder *r, unsigned int from, uint64_t token,
		uint32_t idx, uint32_t sf, uint32_t off, const uint8_t *src,
		uint32_t len, uint32_t maxstbl);
/* Blocks allocated from DPDK's heaps, all sockets. */
uint64_t heap_allocs(void);

/* Cases, by file. */
int test_store_block_split(void);
int test_zero_length_and_refusals(void);
int test_burst_order(void);
int test_maxstbl_split(void);
int test_model_store_rules(void);
int test_token_bits_20_22(void);
int test_dma_window(void);
int test_ieq_wrap(void);
int test_sba_order(void);
int test_signal_mask0(void);
int test_signal_without_s(void);
int test_interrupt_path(void);
int test_query_rgid_codes(void);
int test_close_deletes_vlans(void);

#endif /* TEST_PCI_REC_H */
