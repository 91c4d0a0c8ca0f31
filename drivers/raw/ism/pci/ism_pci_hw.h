/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_HW_H
#define ISM_PCI_HW_H

/*
 * What the IBM ISM PCI function looks like, as Linux's driver uses it
 * (drivers/s390/net/ism.h and ism_drv.c; the facts and their sources are
 * in doc/guides/rawdevs/ism_pci.rst): BARs, command codes, the move_data
 * request encoding, and the layout of the two pages the device writes,
 * the signalling bit array (SBA) and the interrupt event queue (IEQ).
 * Everything the device reads or writes is big-endian; the rte_be*_t
 * types say so and every access converts. Shared by the PCI backend and
 * the device model, nothing else.
 */

#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_bitops.h>
#include <rte_byteorder.h>
#include <rte_common.h>

#include <ism_compat.h>

/*
 * BAR 0: data window (store blocks), 256 TiB on the hardware; emulated
 * ones may be smaller, but not below one token bit (bit 28). BAR 2:
 * command window.
 */
#define ISM_PCI_BAR_DATA	0
#define ISM_PCI_BAR_CMD		2
#define ISM_PCI_BAR_DATA_SIZE	(UINT64_C(1) << 48)
#define ISM_PCI_BAR_DATA_MIN	(UINT64_C(1) << 29)

/* Limits of the device. */
#define ISM_PCI_NR_DMB_IDX	1920		/* SBA bits */
#define ISM_PCI_DMB_IDX_FIRST	32		/* 0-31 are never used */
#define ISM_PCI_DMB_MAX_LEN	(1u << 20)	/* DMA segment and DMB cap */
#define ISM_PCI_NR_DMBE		16		/* elements per DMB */

/*
 * PCI store blocks: one never crosses a 4 KiB boundary and is at most the
 * function's maxstbl bytes (Linux's driver never stores more than 4 KiB).
 * Command bodies are at most 32 bytes (REG_DMB), so a platform taking
 * fewer cannot run the command protocol.
 */
#define ISM_PCI_STORE_BOUNDARY	4096
#define ISM_PCI_STORE_MAX	4096
#define ISM_PCI_STORE_MIN	32
/* Reads of the command window: whole 8-byte loads, as Linux issues. */
#define ISM_PCI_LOAD_SIZE	8
/* The SBA, the IEQ and DMBs are pages, or 2^n pages (dma_alloc_coherent). */
#define ISM_PCI_PAGE		4096

/* Commands (request header cmd). */
enum ism_pci_cmd_code {
	ISM_CMD_REG_SBA = 0x01,
	ISM_CMD_REG_IEQ = 0x02,
	ISM_CMD_READ_GID = 0x03,
	ISM_CMD_ADD_VLAN_ID = 0x04,
	ISM_CMD_DEL_VLAN_ID = 0x05,
	ISM_CMD_QUERY_INFO = 0x08,
	ISM_CMD_QUERY_RGID = 0x09,
	ISM_CMD_REG_DMB = 0x0a,
	ISM_CMD_UNREG_DMB = 0x0b,
	ISM_CMD_SIGNAL_IEQ = 0x0e,
	ISM_CMD_UNREG_SBA = 0x11,
	ISM_CMD_UNREG_IEQ = 0x12,
};

/*
 * Device return codes. Linux knows 0 and 0xffff (ISM_ERROR); the others are
 * command specific and not public, so the backend maps them by command
 * (ism_pci_cmd.c) and never passes them to callers.
 */
#define ISM_PCI_RC_OK		0x0000
#define ISM_PCI_RC_ERROR	0xffff

/*
 * Command window (BAR 2): the request body is written at offset 8, then the
 * 8-byte header at offset 0, which starts the command. The response
 * overlays the request: header at 0, body at 8.
 *   request header:  cmd u32 @0, reserved u16 @4, len u16 @6 (whole request)
 *   response header: cmd u32 @0, ret u16 @4, len u16 @6 (whole response)
 * Body field offsets below count from the start of the header.
 */
#define ISM_CMD_HDR_LEN		8
#define ISM_CMD_OFF_CMD		0
#define ISM_CMD_OFF_RET		4
#define ISM_CMD_OFF_LEN		6
#define ISM_CMD_MAX_LEN		256	/* largest: QUERY_INFO, 200 bytes */
/*
 * Alignment of the command buffers, as Linux declares its command unions:
 * 64 bytes QUERY_INFO, 32 REG_DMB and SIGNAL_IEQ, 8 the header-only
 * commands, 16 the others.
 */
#define ISM_CMD_ALIGN_QI	64
#define ISM_CMD_ALIGN_LARGE	32
#define ISM_CMD_ALIGN		16
#define ISM_CMD_ALIGN_SIMPLE	8

#define ISM_REG_SBA_OFF_SBA		8	/* u64 IOVA; 16 bytes */
#define ISM_REG_SBA_LEN			16
#define ISM_REG_IEQ_OFF_IEQ		8	/* u64 IOVA */
#define ISM_REG_IEQ_OFF_LEN		16	/* u64 bytes (512) */
#define ISM_REG_IEQ_LEN			24
#define ISM_READ_GID_RESP_OFF_GID	8	/* u64 */
#define ISM_READ_GID_RESP_LEN		16
#define ISM_VLAN_OFF_ID			8	/* u64, ADD/DEL_VLAN_ID */
#define ISM_VLAN_LEN			16
#define ISM_QUERY_RGID_OFF_RGID		8	/* u64 */
#define ISM_QUERY_RGID_OFF_VLAN_VALID	16	/* u32 */
#define ISM_QUERY_RGID_OFF_VLAN_ID	20	/* u32 */
#define ISM_QUERY_RGID_LEN		24
#define ISM_REG_DMB_OFF_DMB		8	/* u64 IOVA */
#define ISM_REG_DMB_OFF_DMB_LEN		16	/* u32 */
#define ISM_REG_DMB_OFF_SBA_IDX		20	/* u32 */
#define ISM_REG_DMB_OFF_VLAN_VALID	24	/* u32 */
#define ISM_REG_DMB_OFF_VLAN_ID		28	/* u32 */
#define ISM_REG_DMB_OFF_RGID		32	/* u64 */
#define ISM_REG_DMB_LEN			40
#define ISM_REG_DMB_RESP_OFF_TOK	8	/* u64 */
#define ISM_REG_DMB_RESP_LEN		16
#define ISM_UNREG_DMB_OFF_TOK		8	/* u64 */
#define ISM_UNREG_DMB_LEN		16
#define ISM_SIGNAL_IEQ_OFF_RGID		8	/* u64 */
#define ISM_SIGNAL_IEQ_OFF_TRIGGER	16	/* u32 */
#define ISM_SIGNAL_IEQ_OFF_CODE		20	/* u32 */
#define ISM_SIGNAL_IEQ_OFF_INFO		24	/* u64 */
#define ISM_SIGNAL_IEQ_LEN		32

/* QUERY_INFO response (200 bytes); logged and dumped, never relied on. */
#define ISM_QI_OFF_VERSION	8	/* u32 */
#define ISM_QI_OFF_MAX_LEN	12	/* u32 */
#define ISM_QI_OFF_STATE	16	/* u64 */
#define ISM_QI_OFF_MY_GID	24	/* u64 */
#define ISM_QI_OFF_SBA		32	/* u64 */
#define ISM_QI_OFF_IEQ		40	/* u64 */
#define ISM_QI_OFF_IEQ_LEN	48	/* u32, then 4 bytes pad */
#define ISM_QI_OFF_DMBS_OWNED	56	/* u32 */
#define ISM_QI_OFF_DMBS_USED	60	/* u32 */
#define ISM_QI_OFF_VLAN_REQ	64	/* u32 */
#define ISM_QI_OFF_VLAN_NR	68	/* u32 */
#define ISM_QI_OFF_VLAN_ID	72	/* u16[64] */
#define ISM_QI_NR_VLAN_ID	64
#define ISM_QI_RESP_LEN		200

/*
 * move_data request: the "offset" operand of a store block to BAR 0,
 * token | idx << 24 | sf << 23 | offset, ORed as Linux does. With DMBs of
 * at most 1 MiB the offset takes bits 0-19, so a token the device issues
 * must leave bits 0-19, 23 and 24-27 clear (ISM_PCI_REQ_MASK); Linux
 * checks nothing, and bits 20-22 are not known to be clear, so they are
 * the token's. A request must also lie in BAR 0 (256 TiB on the
 * hardware), so a token with a bit beyond it cannot be used either
 * (struct ism_pci_dev's token_bad).
 */
#define ISM_PCI_REQ_MASK	UINT64_C(0x0f8fffff)
#define ISM_PCI_REQ_IDX_SHIFT	24
#define ISM_PCI_REQ_IDX_MASK	UINT64_C(0xf)
#define ISM_PCI_REQ_SF_SHIFT	23
#define ISM_PCI_REQ_OFF_MASK	UINT64_C(0xfffff)

static inline uint64_t
ism_pci_req(uint64_t token, uint32_t idx, uint32_t sf, uint32_t offset)
{
	return token | (uint64_t)idx << ISM_PCI_REQ_IDX_SHIFT |
		(uint64_t)(sf != 0) << ISM_PCI_REQ_SF_SHIFT | offset;
}

/*
 * Element e of a DMB as the device marks it in dmbe_mask: rotate-right-16
 * of 0x1000 by e. This is what Linux loopback-ism produces
 * (drivers/dibs/dibs_loopback.c), and loopback imitates the ISM device; it
 * is not verified on hardware. The API reports element e as bit e, so the
 * backend converts.
 */
static inline uint16_t
ism_pci_elem_to_hw(uint32_t e)
{
	return (uint16_t)((0x1000u >> e) | (0x1000u << (16 - e)));
}

static inline uint16_t
ism_pci_hw_to_elems(uint16_t hw)
{
	uint16_t elems = 0;
	unsigned int k;

	for (; hw != 0; hw &= hw - 1) {
		k = rte_bsf32(hw);
		elems |= 1u << ((12 - k) & 15);
	}
	return elems;
}

/*
 * Signalling bit array: one 4 KiB page. Word 0 holds S (summary, MSB) and
 * E (event, next bit). DMB index n is bit 31 - n % 32 of dmb_bits[n / 32]
 * read as a big-endian u32, i.e. byte 4 + n / 8, mask 0x80 >> n % 8.
 * Indices 0-31 are never used, so the bits scanned start 8-byte aligned
 * (SBA byte 8, dmb_bits[1]).
 */
#define ISM_SBA_S	RTE_BE32(0x80000000)
#define ISM_SBA_E	RTE_BE32(0x40000000)

struct ism_pci_sba {
	RTE_ATOMIC(rte_be32_t) s_e;
	RTE_ATOMIC(rte_be32_t) dmb_bits[ISM_PCI_NR_DMB_IDX / 32];
	uint8_t reserved[12];
	RTE_ATOMIC(rte_be16_t) dmbe_mask[ISM_PCI_NR_DMB_IDX];
};

static inline rte_be32_t
ism_sba_bit(uint32_t idx)
{
	return rte_cpu_to_be_32(UINT32_C(0x80000000) >> (idx % 32));
}

/* Interrupt event queue: 32-byte header, then a ring of 15 entries. */
#define ISM_PCI_IEQ_NR		15
#define ISM_PCI_IEQ_LEN		512

enum ism_pci_event_type {
	ISM_EVENT_BUF = 0x00,	/* tok = DMB token */
	ISM_EVENT_DEV = 0x01,	/* tok = peer GID */
	ISM_EVENT_SWR = 0x02,	/* tok = sender GID, SIGNAL_IEQ */
};

/* Event codes (lib/ism uses the same values for BUF and DEV events). */
#define ISM_EV_GID_ERROR	0x01	/* DEV: peer in error state */
#define ISM_EV_OWNER_ERROR	0x02	/* BUF: owning function in error */
#define ISM_EV_USER_ERROR	0x03	/* BUF: writing function in error */
#define ISM_EV_DMB_UNREGISTERED	0x04	/* BUF: owner unregistered it */
#define ISM_EV_VLAN_OWNER	0x05	/* BUF: VLAN mismatch with owner */
#define ISM_EV_VLAN_USER	0x06	/* BUF: VLAN mismatch with user */
#define ISM_EV_GID_DISABLED	0x07	/* DEV: peer disabled */
#define ISM_EV_USER_DISABLED	0x08	/* BUF: writing function disabled */

struct ism_pci_ieq_entry {
	rte_be32_t type;
	rte_be32_t code;
	rte_be64_t tok;
	rte_be64_t time;
	rte_be64_t info;
};

/* The device writes an entry, then sets idx to its slot + 1 (1..15). */
struct ism_pci_ieq {
	RTE_ATOMIC(rte_be64_t) idx;
	rte_be64_t ieq_len;
	rte_be64_t entry_len;
	rte_be64_t reserved;
	struct ism_pci_ieq_entry entry[ISM_PCI_IEQ_NR];
};

static_assert(sizeof(struct ism_pci_sba) == 4096, "SBA is one page");
static_assert(offsetof(struct ism_pci_sba, dmb_bits) == 4, "SBA dmb_bits");
static_assert(offsetof(struct ism_pci_sba, dmbe_mask) == 256, "SBA masks");
static_assert(sizeof(struct ism_pci_ieq_entry) == 32, "IEQ entry");
static_assert(sizeof(struct ism_pci_ieq) == ISM_PCI_IEQ_LEN, "IEQ size");

#endif /* ISM_PCI_HW_H */
