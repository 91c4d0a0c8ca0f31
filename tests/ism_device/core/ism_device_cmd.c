/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function's command window (BAR 2), as Linux's ism_cmd()
 * uses it (drivers/s390/net/ism_drv.c): the body is written at offset 8,
 * then the 8-byte header at 0; the response header is read back from 0
 * (Linux pre-sets ret to ISM_ERROR in its own buffer and trusts a 0), the
 * response body from 8, len - 8 bytes of it.
 *
 * Choices where the hardware's behaviour is not public: the write that
 * completes the header (reaches its byte 7) runs the command, whatever the
 * access sizes (Linux stores the header as one 8-byte store block, a CPU
 * behind x86's vfio-pci as two 4-byte writes); a request whose length is
 * not the documented one, an unknown command, and a header whose body was
 * not written since the last command are answered ISM_ERROR (0xffff) and
 * logged as guest errors; the codes other than 0 and 0xffff are this
 * emulation's (ISMD_RC_*).
 */

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "ism_device_priv.h"

/* The documented request length of each command, 0 if unknown. */
static uint16_t
request_len(uint32_t cmd)
{
	switch (cmd) {
	case ISMD_CMD_REG_SBA: return 16;
	case ISMD_CMD_REG_IEQ: return 24;
	case ISMD_CMD_ADD_VLAN_ID:
	case ISMD_CMD_DEL_VLAN_ID: return 16;
	case ISMD_CMD_QUERY_RGID: return 24;
	case ISMD_CMD_REG_DMB: return 40;
	case ISMD_CMD_UNREG_DMB: return 16;
	case ISMD_CMD_SIGNAL_IEQ: return 32;
	case ISMD_CMD_READ_GID:
	case ISMD_CMD_SET_VLAN:
	case ISMD_CMD_RESET_VLAN:
	case ISMD_CMD_QUERY_INFO:
	case ISMD_CMD_UNREG_SBA:
	case ISMD_CMD_UNREG_IEQ: return ISMD_HDR_LEN;
	default: return 0;
	}
}

/* Choice: the SBA is one page and must be page aligned. */
static uint16_t
reg_sba(struct ism_dev *dev, const uint8_t *w)
{
	uint64_t addr = ismd_get64(w + 8);

	if (dev->sba_on)
		return ISMD_RC_BUSY;
	if (addr % ISMD_SBA_LEN != 0 || !ismd_dma_ok(dev, addr, ISMD_SBA_LEN)) {
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "REG_SBA: 0x%" PRIx64
			 " is not a page the device can write", addr);
		return ISMD_RC_BAD_FIELD;
	}
	dev->sba = addr;
	dev->sba_on = true;
	if (dev->ops->irq_arm != NULL)
		dev->ops->irq_arm(dev->ctx, true);
	return ISMD_RC_OK;
}

/* Choice: the IEQ length must be 512, what Linux registers. */
static uint16_t
reg_ieq(struct ism_dev *dev, const uint8_t *w)
{
	uint64_t addr = ismd_get64(w + 8);
	uint64_t len = ismd_get64(w + 16);

	if (dev->ieq_on)
		return ISMD_RC_BUSY;
	if (len != ISMD_IEQ_LEN || !ismd_dma_ok(dev, addr, ISMD_IEQ_LEN)) {
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "REG_IEQ: %" PRIu64
			 " bytes at 0x%" PRIx64 " refused", len, addr);
		return ISMD_RC_BAD_FIELD;
	}
	dev->ieq = addr;
	dev->ieq_on = true;
	dev->ieq_next = 0;
	return ISMD_RC_OK;
}

static uint16_t
vlan(struct ism_dev *dev, const uint8_t *w, bool add)
{
	uint64_t id = ismd_get64(w + 8);

	if (id >= ISMD_NR_VLAN)
		return ISMD_RC_BAD_FIELD;
	if (!add && !ismd_vlan_member(dev, id))
		return ISMD_RC_NOT_FOUND;
	if (add)
		dev->vlans[id / 64] |= UINT64_C(1) << (id % 64);
	else
		dev->vlans[id / 64] &= ~(UINT64_C(1) << (id % 64));
	return ISMD_RC_OK;
}

/* Choice: version 1, state 1; every field filled, none relied on. */
static uint16_t
query_info(struct ism_dev *dev, uint8_t *w, uint16_t *resp_len)
{
	uint32_t i, nv = 0;

	if (dev->quirks & ISM_DEV_Q_QI_FAIL)
		return ISMD_RC_ERROR;
	if (dev->quirks & ISM_DEV_Q_QI_SHORT)
		return ISMD_RC_OK;	/* success, nothing in it */
	memset(w + ISMD_HDR_LEN, 0, ISMD_QI_LEN - ISMD_HDR_LEN);
	for (i = 0; i < ISMD_NR_VLAN; i++) {
		if (!ismd_vlan_member(dev, i))
			continue;
		if (nv < ISMD_QI_NR_VLAN_ID)
			ismd_put16(w + ISMD_QI_VLAN_ID + 2 * nv, (uint16_t)i);
		nv++;
	}
	ismd_put32(w + ISMD_QI_VERSION, 1);
	ismd_put32(w + ISMD_QI_MAX_LEN, ISMD_DMB_MAX_LEN);
	ismd_put64(w + ISMD_QI_STATE, 1);
	ismd_put64(w + ISMD_QI_MY_GID, dev->gid);
	ismd_put64(w + ISMD_QI_SBA, dev->sba_on ? dev->sba : 0);
	ismd_put64(w + ISMD_QI_IEQ, dev->ieq_on ? dev->ieq : 0);
	ismd_put32(w + ISMD_QI_IEQ_LEN, dev->ieq_on ? ISMD_IEQ_LEN : 0);
	ismd_put32(w + ISMD_QI_DMBS_OWNED, dev->nr_dmbs);
	ismd_put32(w + ISMD_QI_DMBS_USED, dev->nr_dmbs);
	ismd_put32(w + ISMD_QI_VLAN_REQUIRED, dev->vlan_required);
	ismd_put32(w + ISMD_QI_VLAN_NR_IDS, nv);
	*resp_len = ISMD_QI_LEN;
	return ISMD_RC_OK;
}

/* Reachable: a function of the fabric (itself included), in the VLAN. */
static uint16_t
query_rgid(struct ism_dev *dev, const uint8_t *w)
{
	struct ism_dev *peer = ismd_find_gid(dev->fabric, ismd_get64(w + 8));

	if (peer == NULL || (ismd_get32(w + 16) != 0 &&
			     !ismd_vlan_member(peer, ismd_get32(w + 20))))
		return ISMD_RC_NOT_FOUND;
	return ISMD_RC_OK;
}

/*
 * Linux's driver picks the index (32..1919) and hands one DMA segment: at
 * most 1 MiB, not crossing a 1 MiB boundary (it sets both limits for the
 * device).
 */
static uint16_t
reg_dmb(struct ism_dev *dev, uint8_t *w, uint16_t *resp_len)
{
	uint64_t addr = ismd_get64(w + 8);
	uint32_t len = ismd_get32(w + 16);
	uint32_t idx = ismd_get32(w + 20);
	struct ismd_dmb *dmb;

	if (len == 0 || len > ISMD_DMB_MAX_LEN ||
	    (addr ^ (addr + len - 1)) >= ISMD_DMB_MAX_LEN ||
	    idx < ISMD_IDX_FIRST || idx >= ISMD_NR_IDX ||
	    !ismd_dma_ok(dev, addr, len)) {
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "REG_DMB: %u bytes at "
			 "0x%" PRIx64 ", index %u refused", len, addr, idx);
		return ISMD_RC_BAD_FIELD;
	}
	dmb = &dev->dmbs[idx];
	if (dmb->token != 0)
		return ISMD_RC_BUSY;
	if (ismd_token_new(dev, dmb) == 0)
		return ISMD_RC_NO_TOKEN;
	dmb->addr = addr;
	dmb->len = len;
	dmb->vlan_valid = ismd_get32(w + 24);
	dmb->vlan_id = ismd_get32(w + 28);
	dmb->rgid = ismd_get64(w + 32);
	dmb->owner = dev;
	dev->nr_dmbs++;
	ismd_put64(w + 8, dmb->token);
	*resp_len = 16;
	return ISMD_RC_OK;
}

static uint16_t
unreg_dmb(struct ism_dev *dev, const uint8_t *w)
{
	struct ismd_dmb *dmb = ismd_token_find(dev->fabric, ismd_get64(w + 8));

	if (dmb == NULL || dmb->owner != dev)
		return ISMD_RC_NOT_FOUND;
	/* The store blocks hold the lock: none is copying into it. */
	ismd_dmb_drop(dev, dmb);
	return ISMD_RC_OK;
}

/* Choice: the target interrupts at once, whatever trigger_irq says. */
static uint16_t
signal_ieq(struct ism_dev *dev, const uint8_t *w)
{
	struct ism_dev *to = ismd_find_gid(dev->fabric, ismd_get64(w + 8));

	if (to == NULL)
		return ISMD_RC_NOT_FOUND;
	ismd_post(to, ISMD_EV_SWR, ismd_get32(w + 20), dev->gid,
		  ismd_get64(w + 24));
	return ISMD_RC_OK;
}

static uint16_t
unreg_sba(struct ism_dev *dev)
{
	if (!dev->sba_on)
		return ISMD_RC_ERROR;
	dev->sba_on = false;
	dev->sba = 0;
	if (dev->ops->irq_arm != NULL)
		dev->ops->irq_arm(dev->ctx, false);
	return ISMD_RC_OK;
}

static uint16_t
exec(struct ism_dev *dev, uint32_t cmd, uint8_t *w, uint16_t *resp_len)
{
	switch (cmd) {
	case ISMD_CMD_REG_SBA:
		return reg_sba(dev, w);
	case ISMD_CMD_REG_IEQ:
		return reg_ieq(dev, w);
	case ISMD_CMD_READ_GID:
		ismd_put64(w + 8, dev->gid);
		*resp_len = 16;
		return ISMD_RC_OK;
	case ISMD_CMD_ADD_VLAN_ID:
		return vlan(dev, w, true);
	case ISMD_CMD_DEL_VLAN_ID:
		return vlan(dev, w, false);
	case ISMD_CMD_SET_VLAN:
	case ISMD_CMD_RESET_VLAN:
		dev->vlan_required = cmd == ISMD_CMD_SET_VLAN;
		return ISMD_RC_OK;
	case ISMD_CMD_QUERY_INFO:
		return query_info(dev, w, resp_len);
	case ISMD_CMD_QUERY_RGID:
		return query_rgid(dev, w);
	case ISMD_CMD_REG_DMB:
		return reg_dmb(dev, w, resp_len);
	case ISMD_CMD_UNREG_DMB:
		return unreg_dmb(dev, w);
	case ISMD_CMD_SIGNAL_IEQ:
		return signal_ieq(dev, w);
	case ISMD_CMD_UNREG_SBA:
		return unreg_sba(dev);
	case ISMD_CMD_UNREG_IEQ:
		if (!dev->ieq_on)
			return ISMD_RC_ERROR;
		dev->ieq_on = false;
		dev->ieq = 0;
		return ISMD_RC_OK;
	default:
		return ISMD_RC_ERROR;
	}
}

void
ismd_cmd_run(struct ism_dev *dev)
{
	uint8_t *w = dev->window;
	uint32_t cmd = ismd_get32(w + ISMD_OFF_CMD);
	uint16_t len = ismd_get16(w + ISMD_OFF_LEN);
	uint16_t want = request_len(cmd), rc, resp_len = ISMD_HDR_LEN;

	if (want == 0 || len != want) {
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "command 0x%x with "
			 "length %u refused (%s)", cmd, len,
			 want == 0 ? "unknown command" : "not its length");
		rc = ISMD_RC_ERROR;
	} else if (dev->body_end < len) {
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "command 0x%x: header "
			 "without its %u-byte body written before it", cmd,
			 len - ISMD_HDR_LEN);
		rc = ISMD_RC_ERROR;
	} else {
		rc = exec(dev, cmd, w, &resp_len);
	}
	if (rc != ISMD_RC_OK)
		resp_len = ISMD_HDR_LEN;
	ismd_put32(w + ISMD_OFF_CMD, cmd);
	ismd_put16(w + ISMD_OFF_RET, rc);
	ismd_put16(w + ISMD_OFF_LEN, resp_len);
	dev->body_end = ISMD_HDR_LEN;
}

int
ism_dev_cmd_write(struct ism_dev *dev, uint64_t off, const void *buf,
		size_t len)
{
	uint64_t end = off + len;

	if (off > ISM_DEV_BAR2_SIZE || len > ISM_DEV_BAR2_SIZE - off)
		return -EINVAL;
	pthread_rwlock_wrlock(&ismd_lock);
	memcpy(dev->window + off, buf, len);
	/* Body bytes written in order from offset 8, as Linux writes them. */
	if (end > ISMD_HDR_LEN && off <= dev->body_end && end > dev->body_end)
		dev->body_end = (uint32_t)end;
	if (off < ISMD_HDR_LEN && end >= ISMD_HDR_LEN)
		ismd_cmd_run(dev);
	pthread_rwlock_unlock(&ismd_lock);
	return 0;
}

int
ism_dev_cmd_read(struct ism_dev *dev, uint64_t off, void *buf, size_t len)
{
	if (off > ISM_DEV_BAR2_SIZE || len > ISM_DEV_BAR2_SIZE - off)
		return -EINVAL;
	pthread_rwlock_rdlock(&ismd_lock);
	memcpy(buf, dev->window + off, len);
	pthread_rwlock_unlock(&ismd_lock);
	return 0;
}
