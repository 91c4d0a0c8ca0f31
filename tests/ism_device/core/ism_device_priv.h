/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_DEVICE_PRIV_H
#define ISM_DEVICE_PRIV_H

/*
 * Inside the emulated ISM function: the interface as Linux's driver uses
 * it (drivers/s390/net/ism.h, ism_drv.c), written down here from that
 * reading, and the state of functions and fabrics. Byte offsets; every
 * multi-byte field big-endian.
 */

#include <pthread.h>

#include "ism_device.h"

/* Index space: one SBA bit per DMB index; 0-31 are never used. */
#define ISMD_NR_IDX		1920
#define ISMD_IDX_FIRST		32
#define ISMD_DMB_MAX_LEN	(1u << 20)	/* DMA segment, 1 MiB aligned */
#define ISMD_NR_ELEM		16

/* Store blocks: at most 4 KiB, never across a 4 KiB boundary. */
#define ISMD_STORE_MAX		4096

/* move_data request: token | idx << 24 | sf << 23 | offset (bits 0-19). */
#define ISMD_REQ_OFF_MASK	UINT64_C(0x000fffff)
#define ISMD_REQ_SF		(UINT64_C(1) << 23)
#define ISMD_REQ_IDX_SHIFT	24
#define ISMD_REQ_IDX_MASK	UINT64_C(0xf)
/* What is not the token: bits 20-22 are (Linux checks nothing there). */
#define ISMD_REQ_NOT_TOKEN	UINT64_C(0x0f8fffff)
#define ISMD_TOKEN_SHIFT	28
#define ISMD_TOKEN_BITS_20_22	(UINT64_C(7) << 20)

/* Command window. */
#define ISMD_HDR_LEN		8
#define ISMD_OFF_CMD		0	/* u32 */
#define ISMD_OFF_RET		4	/* u16, response */
#define ISMD_OFF_LEN		6	/* u16 */

#define ISMD_CMD_REG_SBA	0x01	/* sba u64 @8; 16 */
#define ISMD_CMD_REG_IEQ	0x02	/* ieq u64 @8, len u64 @16; 24 */
#define ISMD_CMD_READ_GID	0x03	/* response gid u64 @8; 16 */
#define ISMD_CMD_ADD_VLAN_ID	0x04	/* vlan_id u64 @8; 16 */
#define ISMD_CMD_DEL_VLAN_ID	0x05	/* vlan_id u64 @8; 16 */
#define ISMD_CMD_SET_VLAN	0x06	/* 8 */
#define ISMD_CMD_RESET_VLAN	0x07	/* 8 */
#define ISMD_CMD_QUERY_INFO	0x08	/* response 200 */
#define ISMD_CMD_QUERY_RGID	0x09	/* rgid u64 @8, vlan_valid u32 @16,
					 * vlan_id u32 @20; 24 */
#define ISMD_CMD_REG_DMB	0x0a	/* dmb u64 @8, dmb_len u32 @16,
					 * sba_idx u32 @20, vlan_valid u32 @24,
					 * vlan_id u32 @28, rgid u64 @32; 40;
					 * response dmb_tok u64 @8; 16 */
#define ISMD_CMD_UNREG_DMB	0x0b	/* dmb_tok u64 @8; 16 */
#define ISMD_CMD_SIGNAL_IEQ	0x0e	/* rgid u64 @8, trigger_irq u32 @16,
					 * event_code u32 @20, info u64 @24;
					 * 32 */
#define ISMD_CMD_UNREG_SBA	0x11	/* 8 */
#define ISMD_CMD_UNREG_IEQ	0x12	/* 8 */

/* QUERY_INFO response (200 bytes). */
#define ISMD_QI_VERSION		8	/* u32 */
#define ISMD_QI_MAX_LEN		12	/* u32 */
#define ISMD_QI_STATE		16	/* u64 */
#define ISMD_QI_MY_GID		24	/* u64 */
#define ISMD_QI_SBA		32	/* u64 */
#define ISMD_QI_IEQ		40	/* u64 */
#define ISMD_QI_IEQ_LEN		48	/* u32, 4 bytes pad */
#define ISMD_QI_DMBS_OWNED	56	/* u32 */
#define ISMD_QI_DMBS_USED	60	/* u32 */
#define ISMD_QI_VLAN_REQUIRED	64	/* u32 */
#define ISMD_QI_VLAN_NR_IDS	68	/* u32 */
#define ISMD_QI_VLAN_ID		72	/* u16[64] */
#define ISMD_QI_NR_VLAN_ID	64
#define ISMD_QI_LEN		200

/*
 * Return codes: Linux knows 0 and 0xffff (ISM_ERROR, also what it reads
 * if nothing answered). The others are this emulation's choice: the real
 * ones are not public.
 */
#define ISMD_RC_OK		0x0000
#define ISMD_RC_ERROR		0xffff
#define ISMD_RC_NOT_FOUND	0x0101	/* no such GID, token or VLAN */
#define ISMD_RC_BAD_FIELD	0x0102	/* a request field out of range */
#define ISMD_RC_BUSY		0x0103	/* index in use, already registered */
#define ISMD_RC_NO_TOKEN	0x0104	/* the fabric has no token left */

/* SBA: one 4 KiB page. Word 0: S (bit 31), E (bit 30). */
#define ISMD_SBA_LEN		4096
#define ISMD_SBA_S		0x80	/* in byte 0 */
#define ISMD_SBA_E		0x40	/* in byte 0 */
#define ISMD_SBA_BITS		4	/* dmb_bits, MSB first */
#define ISMD_SBA_MASKS		256	/* u16 dmbe_mask[1920] */

/* IEQ: 32-byte header (idx u64 @0, ieq_len u64 @8, entry_len u64 @16),
 * then 15 entries of 32 bytes. */
#define ISMD_IEQ_LEN		512
#define ISMD_IEQ_NR		15
#define ISMD_IEQ_ENTRY		32	/* type u32, code u32, tok u64,
					 * time u64, info u64 */
#define ISMD_EV_BUF		0x00	/* tok = DMB token */
#define ISMD_EV_DEV		0x01	/* tok = peer GID */
#define ISMD_EV_SWR		0x02	/* tok = sender GID */
#define ISMD_EV_DMB_UNREGISTERED	0x04	/* BUF */
#define ISMD_EV_USER_DISABLED		0x08	/* BUF */
#define ISMD_EV_GID_DISABLED		0x07	/* DEV */

#define ISMD_NR_VLAN		8192	/* ids up to 0x1fff (V2 probe) */

struct ismd_fabric;

struct ismd_dmb {
	uint64_t token;		/* 0: free */
	uint64_t addr;
	uint32_t len;
	uint32_t vlan_valid;
	uint32_t vlan_id;
	uint64_t rgid;
	struct ism_dev *owner;
	struct ismd_dmb *hnext;	/* the fabric's token hash */
};

struct ism_dev {
	char name[64];
	uint64_t gid;
	uint32_t quirks;
	enum ism_dev_transport transport;
	uint32_t maxstbl;
	struct ism_dev_counts counts;	/* atomic adds */
	const struct ism_dev_ops *ops;
	void *ctx;
	struct ismd_fabric *fabric;
	struct ism_dev *next;		/* in the fabric */

	uint8_t window[ISM_DEV_BAR2_SIZE];
	uint32_t body_end;		/* body bytes [8, body_end) written */

	uint64_t sba;			/* bus addresses; valid if _on */
	uint64_t ieq;
	bool sba_on;
	bool ieq_on;
	uint32_t ieq_next;		/* slot of the next event */
	bool vlan_required;
	uint64_t vlans[ISMD_NR_VLAN / 64];
	uint32_t nr_dmbs;
	struct ismd_dmb dmbs[ISMD_NR_IDX];
};

/*
 * Tokens: value << 28 with value in [1, 2^(log2(BAR 0) - 28)), drawn at
 * random among the values neither in use nor freed recently; a freed
 * value waits in a FIFO of up to a quarter of the space before it can be
 * drawn again (sooner only when nothing else is left).
 */
#define ISMD_HASH		4096

struct ismd_fabric {
	uint16_t id;
	uint64_t bar0_size;
	struct ismd_fabric *next;
	struct ism_dev *fns;
	uint64_t rng;
	uint32_t nr_values;		/* token values, 0 included */
	uint64_t *busy;			/* in use or waiting, one bit each */
	uint32_t *fifo;			/* freed values, oldest first */
	uint32_t fifo_cap;
	uint32_t fifo_head;
	uint32_t fifo_len;
	struct ismd_dmb *hash[ISMD_HASH];
};

/*
 * The one lock of the core: whole store blocks take it shared (they only
 * read the tables, and set SBA bits with atomic ORs, so lcores moving at
 * the same time never wait for each other), everything else exclusive.
 */
extern pthread_rwlock_t ismd_lock;

/* Big-endian fields at byte offsets, whatever the host. */
static inline void
ismd_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void
ismd_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void
ismd_put64(uint8_t *p, uint64_t v)
{
	ismd_put32(p, v >> 32);
	ismd_put32(p + 4, (uint32_t)v);
}

static inline uint16_t
ismd_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t
ismd_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
		(uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t
ismd_get64(const uint8_t *p)
{
	return (uint64_t)ismd_get32(p) << 32 | ismd_get32(p + 4);
}

/* ism_device.c */
void ismd_log(const struct ism_dev *dev, enum ism_dev_log_level level,
		const char *fmt, ...) __attribute__((format(printf, 3, 4)));
struct ism_dev *ismd_find_gid(const struct ismd_fabric *f, uint64_t gid);
bool ismd_vlan_member(const struct ism_dev *dev, uint64_t vlan_id);
bool ismd_dma_ok(const struct ism_dev *dev, uint64_t addr, uint64_t len);
/* Queue an event on dev (IEQ and SBA registered) and interrupt. */
void ismd_post(struct ism_dev *dev, uint32_t type, uint32_t code,
		uint64_t tok, uint64_t info);
/* A token for dmb in dev's fabric, entered in its hash; 0 if none. */
uint64_t ismd_token_new(struct ism_dev *dev, struct ismd_dmb *dmb);
void ismd_token_free(struct ism_dev *dev, struct ismd_dmb *dmb);
struct ismd_dmb *ismd_token_find(const struct ismd_fabric *f,
		uint64_t token);
/* Drop a DMB of dev: token freed, writer told (BUF 0x04). */
void ismd_dmb_drop(struct ism_dev *dev, struct ismd_dmb *dmb);

/* ism_device_cmd.c: run the command in the window. */
void ismd_cmd_run(struct ism_dev *dev);

#endif /* ISM_DEVICE_PRIV_H */
