/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * ISM PCI DEVICE MODEL (tests only): the command window. A request whose
 * length is not the documented one gets ISM_ERROR, so the model checks the
 * driver's encoding as well as serving it.
 */

#include "ism_pci_model_priv.h"

/* The documented request length of each command, 0 if unknown. */
static uint16_t
request_len(uint32_t cmd)
{
	switch (cmd) {
	case ISM_CMD_REG_SBA: return ISM_REG_SBA_LEN;
	case ISM_CMD_REG_IEQ: return ISM_REG_IEQ_LEN;
	case ISM_CMD_ADD_VLAN_ID:
	case ISM_CMD_DEL_VLAN_ID: return ISM_VLAN_LEN;
	case ISM_CMD_QUERY_RGID: return ISM_QUERY_RGID_LEN;
	case ISM_CMD_REG_DMB: return ISM_REG_DMB_LEN;
	case ISM_CMD_UNREG_DMB: return ISM_UNREG_DMB_LEN;
	case ISM_CMD_SIGNAL_IEQ: return ISM_SIGNAL_IEQ_LEN;
	case ISM_CMD_READ_GID:
	case ISM_CMD_QUERY_INFO:
	case ISM_CMD_UNREG_SBA:
	case ISM_CMD_UNREG_IEQ: return ISM_CMD_HDR_LEN;
	default: return 0;
	}
}

/* The driver has set up its interrupt by now, as Linux does. */
static uint16_t
reg_sba(struct ism_pci_model_fn *fn, const uint8_t *w)
{
	uint64_t iova = ism_get_be64(w, ISM_REG_SBA_OFF_SBA);

	if (fn->sba != NULL)
		return ISM_MODEL_RC_BUSY;
	if (!model_dma_ok(fn, iova, sizeof(struct ism_pci_sba)) ||
	    iova % sizeof(struct ism_pci_sba) != 0)
		return ISM_MODEL_RC_BAD_FIELD;
	fn->sba = model_iova2va(iova);
	fn->sba_iova = iova;
	model_irq_arm(fn, true);
	return ISM_PCI_RC_OK;
}

static uint16_t
reg_ieq(struct ism_pci_model_fn *fn, const uint8_t *w)
{
	uint64_t iova = ism_get_be64(w, ISM_REG_IEQ_OFF_IEQ);

	if (fn->ieq != NULL)
		return ISM_MODEL_RC_BUSY;
	if (!model_dma_ok(fn, iova, ISM_PCI_IEQ_LEN) ||
	    ism_get_be64(w, ISM_REG_IEQ_OFF_LEN) != ISM_PCI_IEQ_LEN)
		return ISM_MODEL_RC_BAD_FIELD;
	fn->ieq = model_iova2va(iova);
	fn->ieq_iova = iova;
	fn->ieq_next = 0;
	return ISM_PCI_RC_OK;
}

static uint16_t
vlan(struct ism_pci_model_fn *fn, const uint8_t *w, bool add)
{
	uint64_t id = ism_get_be64(w, ISM_VLAN_OFF_ID);

	if (id >= 8192)
		return ISM_MODEL_RC_BAD_FIELD;
	if (!add && !model_vlan_member(fn, id))
		return ISM_MODEL_RC_NOT_FOUND;
	if (add)
		fn->vlans[id / 64] |= UINT64_C(1) << (id % 64);
	else
		fn->vlans[id / 64] &= ~(UINT64_C(1) << (id % 64));
	return ISM_PCI_RC_OK;
}

static uint16_t
query_info(struct ism_pci_model_fn *fn, uint8_t *w, uint16_t *resp_len)
{
	uint32_t i, n = 0, nv = 0;

	if (fn->cfg.quirks & ISM_MODEL_Q_QI_FAIL)
		return ISM_PCI_RC_ERROR;
	if (fn->cfg.quirks & ISM_MODEL_Q_QI_SHORT) {
		*resp_len = ISM_CMD_HDR_LEN;	/* success, nothing in it */
		return ISM_PCI_RC_OK;
	}

	memset(w + ISM_CMD_HDR_LEN, 0, ISM_QI_RESP_LEN - ISM_CMD_HDR_LEN);
	for (i = 0; i < ISM_PCI_NR_DMB_IDX; i++)
		n += fn->dmbs[i].token != 0;
	for (i = 0; i < 8192; i++) {
		if (!model_vlan_member(fn, i))
			continue;
		if (nv < ISM_QI_NR_VLAN_ID)
			ism_put_be16(w, ISM_QI_OFF_VLAN_ID + 2 * nv, i);
		nv++;
	}
	ism_put_be32(w, ISM_QI_OFF_VERSION, 1);
	ism_put_be32(w, ISM_QI_OFF_MAX_LEN, ISM_PCI_DMB_MAX_LEN);
	ism_put_be64(w, ISM_QI_OFF_STATE, 1);
	ism_put_be64(w, ISM_QI_OFF_MY_GID, fn->gid);
	ism_put_be64(w, ISM_QI_OFF_SBA, fn->sba_iova);
	ism_put_be64(w, ISM_QI_OFF_IEQ, fn->ieq_iova);
	ism_put_be32(w, ISM_QI_OFF_IEQ_LEN, fn->ieq ? ISM_PCI_IEQ_LEN : 0);
	ism_put_be32(w, ISM_QI_OFF_DMBS_OWNED, n);
	ism_put_be32(w, ISM_QI_OFF_DMBS_USED, n);
	ism_put_be32(w, ISM_QI_OFF_VLAN_NR, nv);
	*resp_len = ISM_QI_RESP_LEN;
	return ISM_PCI_RC_OK;
}

static uint16_t
query_rgid(struct ism_pci_model_fn *fn, const uint8_t *w)
{
	struct ism_pci_model_fn *peer = model_find_gid(fn->chid,
			ism_get_be64(w, ISM_QUERY_RGID_OFF_RGID));

	if (peer == NULL ||
	    (ism_get_be32(w, ISM_QUERY_RGID_OFF_VLAN_VALID) &&
	     !model_vlan_member(peer,
			ism_get_be32(w, ISM_QUERY_RGID_OFF_VLAN_ID))))
		return ISM_MODEL_RC_NOT_FOUND;
	return ISM_PCI_RC_OK;
}

static uint16_t
reg_dmb(struct ism_pci_model_fn *fn, uint8_t *w, uint16_t *resp_len)
{
	uint64_t iova = ism_get_be64(w, ISM_REG_DMB_OFF_DMB);
	uint32_t len = ism_get_be32(w, ISM_REG_DMB_OFF_DMB_LEN);
	uint32_t idx = ism_get_be32(w, ISM_REG_DMB_OFF_SBA_IDX);
	struct model_dmb *dmb;

	/* The function's DMA segments are at most 1 MiB, 1 MiB aligned. */
	if (len == 0 || len > ISM_PCI_DMB_MAX_LEN ||
	    (iova ^ (iova + len - 1)) >= ISM_PCI_DMB_MAX_LEN ||
	    idx < ISM_PCI_DMB_IDX_FIRST || idx >= ISM_PCI_NR_DMB_IDX ||
	    !model_dma_ok(fn, iova, len))
		return ISM_MODEL_RC_BAD_FIELD;
	dmb = &fn->dmbs[idx];
	if (dmb->token != 0)
		return ISM_MODEL_RC_BUSY;
	dmb->token = model_token_new(fn, idx);
	if (dmb->token == 0)
		return ISM_PCI_RC_ERROR;
	dmb->iova = iova;
	dmb->len = len;
	dmb->vlan_valid = ism_get_be32(w, ISM_REG_DMB_OFF_VLAN_VALID);
	dmb->vlan_id = ism_get_be32(w, ISM_REG_DMB_OFF_VLAN_ID);
	dmb->rgid = ism_get_be64(w, ISM_REG_DMB_OFF_RGID);
	ism_put_be64(w, ISM_REG_DMB_RESP_OFF_TOK, dmb->token);
	*resp_len = ISM_REG_DMB_RESP_LEN;
	return ISM_PCI_RC_OK;
}

static uint16_t
unreg_dmb(struct ism_pci_model_fn *fn, const uint8_t *w)
{
	uint64_t token = ism_get_be64(w, ISM_UNREG_DMB_OFF_TOK);
	struct ism_pci_model_fn *writer;
	struct model_dmb *dmb = NULL;
	uint32_t idx;

	for (idx = ISM_PCI_DMB_IDX_FIRST; token != 0 && dmb == NULL &&
	     idx < ISM_PCI_NR_DMB_IDX; idx++)
		if (fn->dmbs[idx].token == token)
			dmb = &fn->dmbs[idx];
	if (dmb == NULL)
		return ISM_MODEL_RC_NOT_FOUND;
	model_token_free(token);
	dmb->token = 0;
	/* Store blocks hold the lock shared: none is copying any more. */
	writer = model_find_gid(fn->chid, dmb->rgid);
	if (writer != NULL && writer != fn)
		model_post(writer, ISM_EVENT_BUF, ISM_EV_DMB_UNREGISTERED, token,
			   0);
	return ISM_PCI_RC_OK;
}

static uint16_t
signal_ieq(struct ism_pci_model_fn *fn, const uint8_t *w)
{
	struct ism_pci_model_fn *to = model_find_gid(fn->chid,
			ism_get_be64(w, ISM_SIGNAL_IEQ_OFF_RGID));

	if (to == NULL)
		return ISM_MODEL_RC_NOT_FOUND;
	/* trigger_irq: the model always interrupts at once. */
	model_post(to, ISM_EVENT_SWR, ism_get_be32(w, ISM_SIGNAL_IEQ_OFF_CODE),
		   fn->gid, ism_get_be64(w, ISM_SIGNAL_IEQ_OFF_INFO));
	return ISM_PCI_RC_OK;
}

static uint16_t
run(struct ism_pci_model_fn *fn, uint32_t cmd, uint8_t *w, uint16_t *resp_len)
{
	switch (cmd) {
	case ISM_CMD_REG_SBA:
		return reg_sba(fn, w);
	case ISM_CMD_REG_IEQ:
		return reg_ieq(fn, w);
	case ISM_CMD_READ_GID:
		ism_put_be64(w, ISM_READ_GID_RESP_OFF_GID, fn->gid);
		*resp_len = ISM_READ_GID_RESP_LEN;
		return ISM_PCI_RC_OK;
	case ISM_CMD_ADD_VLAN_ID:
		return vlan(fn, w, true);
	case ISM_CMD_DEL_VLAN_ID:
		return vlan(fn, w, false);
	case ISM_CMD_QUERY_INFO:
		return query_info(fn, w, resp_len);
	case ISM_CMD_QUERY_RGID:
		return query_rgid(fn, w);
	case ISM_CMD_REG_DMB:
		return reg_dmb(fn, w, resp_len);
	case ISM_CMD_UNREG_DMB:
		return unreg_dmb(fn, w);
	case ISM_CMD_SIGNAL_IEQ:
		return signal_ieq(fn, w);
	case ISM_CMD_UNREG_SBA:
		if (fn->sba == NULL)
			return ISM_PCI_RC_ERROR;
		fn->sba = NULL;
		fn->sba_iova = 0;
		model_irq_arm(fn, false);
		return ISM_PCI_RC_OK;
	case ISM_CMD_UNREG_IEQ:
		if (fn->ieq == NULL)
			return ISM_PCI_RC_ERROR;
		fn->ieq = NULL;
		fn->ieq_iova = 0;
		return ISM_PCI_RC_OK;
	default:
		return ISM_PCI_RC_ERROR;
	}
}

void
model_cmd_exec(struct ism_pci_model_fn *fn)
{
	uint8_t *w = fn->window_buf;
	uint32_t cmd = ism_get_be32(w, ISM_CMD_OFF_CMD);
	uint16_t len = ism_get_be16(w, ISM_CMD_OFF_LEN);
	uint16_t rc, resp_len = ISM_CMD_HDR_LEN;

	if (request_len(cmd) == 0 || len != request_len(cmd)) {
		MODEL_LOG(DEBUG, "%s: command 0x%x with length %u refused",
			  fn->name, cmd, len);
		rc = ISM_PCI_RC_ERROR;
	} else if (len > ISM_CMD_HDR_LEN &&
		   fn->body_len != (uint32_t)len - ISM_CMD_HDR_LEN) {
		/* Linux writes the whole body, then the header. */
		model_violation(fn, "command header without its body written "
				"just before", ISM_PCI_BAR_CMD, 0, fn->body_len);
		rc = ISM_PCI_RC_ERROR;
	} else {
		rc = run(fn, cmd, w, &resp_len);
	}
	if (rc != ISM_PCI_RC_OK)
		resp_len = ISM_CMD_HDR_LEN;
	ism_put_be32(w, ISM_CMD_OFF_CMD, cmd);
	ism_put_be16(w, ISM_CMD_OFF_RET, rc);
	ism_put_be16(w, ISM_CMD_OFF_LEN, resp_len);
}
