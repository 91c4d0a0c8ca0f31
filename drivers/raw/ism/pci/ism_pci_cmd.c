/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Command encoding and the command window exchange, as Linux's ism_cmd()
 * (drivers/s390/net/ism_drv.c, ism.h): the body is one store block at
 * offset 8, then the header one store block at offset 0, which starts the
 * command; the response is read back with 8-byte loads. Buffers are
 * aligned as Linux declares its command unions.
 */

#include <stdalign.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include <ism_compat.h>

#include "ism_pmd.h"
#include "ism_pci_cmd.h"
#include "ism_pci_hw.h"

static inline void
count(__rte_atomic uint64_t *c)
{
	rte_atomic_fetch_add_explicit(c, 1, rte_memory_order_relaxed);
}

void
ism_pci_cmd_init(struct ism_pci_cmd_chan *ch, const struct ism_pci_io *io,
		const char *name)
{
	memset(ch, 0, sizeof(*ch));
	ch->io = io;
	ch->name = name;
	pthread_mutex_init(&ch->lock, NULL);
}

void
ism_pci_cmd_fini(struct ism_pci_cmd_chan *ch)
{
	pthread_mutex_destroy(&ch->lock);
}

const char *
ism_pci_cmd_name(uint32_t cmd)
{
	switch (cmd) {
	case ISM_CMD_REG_SBA: return "REG_SBA";
	case ISM_CMD_REG_IEQ: return "REG_IEQ";
	case ISM_CMD_READ_GID: return "READ_GID";
	case ISM_CMD_ADD_VLAN_ID: return "ADD_VLAN_ID";
	case ISM_CMD_DEL_VLAN_ID: return "DEL_VLAN_ID";
	case ISM_CMD_QUERY_INFO: return "QUERY_INFO";
	case ISM_CMD_QUERY_RGID: return "QUERY_RGID";
	case ISM_CMD_REG_DMB: return "REG_DMB";
	case ISM_CMD_UNREG_DMB: return "UNREG_DMB";
	case ISM_CMD_SIGNAL_IEQ: return "SIGNAL_IEQ";
	case ISM_CMD_UNREG_SBA: return "UNREG_SBA";
	case ISM_CMD_UNREG_IEQ: return "UNREG_IEQ";
	default: return "unknown command";
	}
}

int
ism_pci_cmd_errno(uint32_t cmd, uint16_t rc)
{
	if (rc == ISM_PCI_RC_OK)
		return 0;
	/*
	 * "Is it there?" answered no: an answer, not a device failure.
	 * Linux's ism driver knows only 0 and 0xffff (ISM_ERROR), and SMC
	 * takes any non-zero QUERY_RGID answer as "cannot talk to that GID"
	 * (net/smc/smc_ism.c, smc_ism_cantalk()): every code is
	 * "unreachable" there, 0xffff included. Only the transport failing
	 * (the I/O layer, never a code) is -EIO.
	 */
	if (cmd == ISM_CMD_QUERY_RGID)
		return -ENETUNREACH;
	if (rc != ISM_PCI_RC_ERROR && cmd == ISM_CMD_SIGNAL_IEQ)
		return -ENETUNREACH;
	return -EIO;
}

static int
io_failed(struct ism_pci_cmd_chan *ch, uint32_t cmd, const char *what,
		int ret)
{
	count(&ch->io_errors);
	ISM_PMD_LOG(ERR, "%s: %s: %s of the command window failed: %s",
		    ch->name, ism_pci_cmd_name(cmd), what, strerror(-ret));
	return ret;
}

int
ism_pci_cmd_exec(struct ism_pci_cmd_chan *ch, uint32_t cmd, uint8_t *req,
		uint16_t req_len, uint8_t *resp, uint16_t resp_len,
		uint16_t *rc)
{
	const struct ism_pci_io *io = ch->io;
	alignas(ISM_PCI_LOAD_SIZE) uint8_t hdr[ISM_CMD_HDR_LEN];
	uint16_t len;
	int ret;

	RTE_ASSERT(req_len >= ISM_CMD_HDR_LEN && resp_len >= ISM_CMD_HDR_LEN &&
		   resp_len % ISM_PCI_LOAD_SIZE == 0);
	ism_put_be32(req, ISM_CMD_OFF_CMD, cmd);
	ism_put_be16(req, ISM_CMD_OFF_RET, 0);
	ism_put_be16(req, ISM_CMD_OFF_LEN, req_len);
	*rc = ISM_PCI_RC_ERROR;

	pthread_mutex_lock(&ch->lock);
	count(&ch->issued);
	/* Body first; the header write starts the command. */
	if (req_len > ISM_CMD_HDR_LEN) {
		ret = ism_pci_io_write(io, ISM_PCI_BAR_CMD, ISM_CMD_HDR_LEN,
				req + ISM_CMD_HDR_LEN, req_len - ISM_CMD_HDR_LEN);
		if (ret < 0)
			goto io_err_write;
	}
	ret = ism_pci_io_write(io, ISM_PCI_BAR_CMD, 0, req, ISM_CMD_HDR_LEN);
	if (ret < 0)
		goto io_err_write;
	ret = ism_pci_io_read(io, ISM_PCI_BAR_CMD, 0, hdr, sizeof(hdr));
	if (ret < 0)
		goto io_err_read;
	*rc = ism_get_be16(hdr, ISM_CMD_OFF_RET);
	if (*rc == ISM_PCI_RC_OK && resp_len > ISM_CMD_HDR_LEN) {
		len = ism_get_be16(hdr, ISM_CMD_OFF_LEN);
		if (len < resp_len) {
			pthread_mutex_unlock(&ch->lock);
			count(&ch->io_errors);
			ISM_PMD_LOG(ERR, "%s: %s: response of %u bytes, "
				    "expected %u", ch->name,
				    ism_pci_cmd_name(cmd), len, resp_len);
			return -EIO;
		}
		ret = ism_pci_io_read(io, ISM_PCI_BAR_CMD, ISM_CMD_HDR_LEN,
				resp + ISM_CMD_HDR_LEN,
				resp_len - ISM_CMD_HDR_LEN);
		if (ret < 0)
			goto io_err_read;
	}
	pthread_mutex_unlock(&ch->lock);
	memcpy(resp, hdr, sizeof(hdr));
	return 0;
io_err_write:
	pthread_mutex_unlock(&ch->lock);
	return io_failed(ch, cmd, "write", ret);
io_err_read:
	pthread_mutex_unlock(&ch->lock);
	return io_failed(ch, cmd, "read", ret);
}

/* Map, count and log a device code. */
static int
finish(struct ism_pci_cmd_chan *ch, uint32_t cmd, uint16_t rc)
{
	int ret = ism_pci_cmd_errno(cmd, rc);

	if (ret == 0)
		return 0;
	rte_atomic_store_explicit(&ch->last_rc, rc, rte_memory_order_relaxed);
	if (ret == -ENETUNREACH) {
		count(&ch->unreachable);
		ISM_PMD_LOG(DEBUG, "%s: %s: not reachable (device code 0x%04x)",
			    ch->name, ism_pci_cmd_name(cmd), rc);
	} else {
		count(&ch->device_errors);
		ISM_PMD_LOG(ERR, "%s: %s failed with device code 0x%04x%s",
			    ch->name, ism_pci_cmd_name(cmd), rc,
			    rc == ISM_PCI_RC_ERROR ? " (ISM_ERROR)" : "");
	}
	return ret;
}

static int
run(struct ism_pci_cmd_chan *ch, uint32_t cmd, uint8_t *req, uint16_t req_len,
		uint8_t *resp, uint16_t resp_len)
{
	uint16_t rc;
	int ret;

	ret = ism_pci_cmd_exec(ch, cmd, req, req_len, resp, resp_len, &rc);
	return ret < 0 ? ret : finish(ch, cmd, rc);
}

int
ism_pci_cmd_reg_sba(struct ism_pci_cmd_chan *ch, uint64_t sba_iova)
{
	alignas(ISM_CMD_ALIGN) uint8_t req[ISM_REG_SBA_LEN];
	alignas(ISM_CMD_ALIGN) uint8_t resp[ISM_CMD_HDR_LEN];

	ism_put_be64(req, ISM_REG_SBA_OFF_SBA, sba_iova);
	return run(ch, ISM_CMD_REG_SBA, req, sizeof(req), resp, sizeof(resp));
}

int
ism_pci_cmd_reg_ieq(struct ism_pci_cmd_chan *ch, uint64_t ieq_iova,
		uint64_t len)
{
	alignas(ISM_CMD_ALIGN) uint8_t req[ISM_REG_IEQ_LEN];
	alignas(ISM_CMD_ALIGN) uint8_t resp[ISM_CMD_HDR_LEN];

	ism_put_be64(req, ISM_REG_IEQ_OFF_IEQ, ieq_iova);
	ism_put_be64(req, ISM_REG_IEQ_OFF_LEN, len);
	return run(ch, ISM_CMD_REG_IEQ, req, sizeof(req), resp, sizeof(resp));
}

int
ism_pci_cmd_read_gid(struct ism_pci_cmd_chan *ch, uint64_t *gid)
{
	alignas(ISM_CMD_ALIGN) uint8_t req[ISM_CMD_HDR_LEN];
	alignas(ISM_CMD_ALIGN) uint8_t resp[ISM_READ_GID_RESP_LEN];
	int ret;

	ret = run(ch, ISM_CMD_READ_GID, req, sizeof(req), resp, sizeof(resp));
	if (ret == 0)
		*gid = ism_get_be64(resp, ISM_READ_GID_RESP_OFF_GID);
	return ret;
}

int
ism_pci_cmd_query_info(struct ism_pci_cmd_chan *ch, struct ism_pci_info *qi)
{
	alignas(ISM_CMD_ALIGN_QI) uint8_t req[ISM_CMD_HDR_LEN];
	alignas(ISM_CMD_ALIGN_QI) uint8_t resp[ISM_QI_RESP_LEN];
	unsigned int i;
	int ret;

	ret = run(ch, ISM_CMD_QUERY_INFO, req, sizeof(req), resp, sizeof(resp));
	if (ret < 0)
		return ret;
	qi->version = ism_get_be32(resp, ISM_QI_OFF_VERSION);
	qi->max_len = ism_get_be32(resp, ISM_QI_OFF_MAX_LEN);
	qi->state = ism_get_be64(resp, ISM_QI_OFF_STATE);
	qi->my_gid = ism_get_be64(resp, ISM_QI_OFF_MY_GID);
	qi->sba = ism_get_be64(resp, ISM_QI_OFF_SBA);
	qi->ieq = ism_get_be64(resp, ISM_QI_OFF_IEQ);
	qi->ieq_len = ism_get_be32(resp, ISM_QI_OFF_IEQ_LEN);
	qi->dmbs_owned = ism_get_be32(resp, ISM_QI_OFF_DMBS_OWNED);
	qi->dmbs_used = ism_get_be32(resp, ISM_QI_OFF_DMBS_USED);
	qi->vlan_required = ism_get_be32(resp, ISM_QI_OFF_VLAN_REQ);
	qi->vlan_nr_ids = ism_get_be32(resp, ISM_QI_OFF_VLAN_NR);
	for (i = 0; i < ISM_QI_NR_VLAN_ID; i++)
		qi->vlan_id[i] = ism_get_be16(resp, ISM_QI_OFF_VLAN_ID + 2 * i);
	return 0;
}

int
ism_pci_cmd_query_rgid(struct ism_pci_cmd_chan *ch, uint64_t rgid,
		uint32_t vlan_valid, uint32_t vlan_id)
{
	alignas(ISM_CMD_ALIGN) uint8_t req[ISM_QUERY_RGID_LEN];
	alignas(ISM_CMD_ALIGN) uint8_t resp[ISM_CMD_HDR_LEN];

	ism_put_be64(req, ISM_QUERY_RGID_OFF_RGID, rgid);
	ism_put_be32(req, ISM_QUERY_RGID_OFF_VLAN_VALID, vlan_valid);
	ism_put_be32(req, ISM_QUERY_RGID_OFF_VLAN_ID, vlan_id);
	return run(ch, ISM_CMD_QUERY_RGID, req, sizeof(req), resp, sizeof(resp));
}

int
ism_pci_cmd_reg_dmb(struct ism_pci_cmd_chan *ch,
		const struct ism_pci_reg_dmb *r, uint64_t *token)
{
	alignas(ISM_CMD_ALIGN_LARGE) uint8_t req[ISM_REG_DMB_LEN];
	alignas(ISM_CMD_ALIGN_LARGE) uint8_t resp[ISM_REG_DMB_RESP_LEN];
	int ret;

	ism_put_be64(req, ISM_REG_DMB_OFF_DMB, r->iova);
	ism_put_be32(req, ISM_REG_DMB_OFF_DMB_LEN, r->len);
	ism_put_be32(req, ISM_REG_DMB_OFF_SBA_IDX, r->sba_idx);
	ism_put_be32(req, ISM_REG_DMB_OFF_VLAN_VALID, r->vlan_valid);
	ism_put_be32(req, ISM_REG_DMB_OFF_VLAN_ID, r->vlan_id);
	ism_put_be64(req, ISM_REG_DMB_OFF_RGID, r->rgid);
	ret = run(ch, ISM_CMD_REG_DMB, req, sizeof(req), resp, sizeof(resp));
	if (ret == 0)
		*token = ism_get_be64(resp, ISM_REG_DMB_RESP_OFF_TOK);
	return ret;
}

int
ism_pci_cmd_unreg_dmb(struct ism_pci_cmd_chan *ch, uint64_t token,
		bool *released)
{
	alignas(ISM_CMD_ALIGN) uint8_t req[ISM_UNREG_DMB_LEN];
	alignas(ISM_CMD_ALIGN) uint8_t resp[ISM_CMD_HDR_LEN];
	uint16_t rc;
	int ret;

	ism_put_be64(req, ISM_UNREG_DMB_OFF_TOK, token);
	ret = ism_pci_cmd_exec(ch, ISM_CMD_UNREG_DMB, req, sizeof(req), resp,
			sizeof(resp), &rc);
	/*
	 * As Linux: 0 and ISM_ERROR both mean the device let go of the DMB.
	 * Any other code, or no answer at all, means it may still write it.
	 */
	if (released != NULL)
		*released = ret == 0 &&
			(rc == ISM_PCI_RC_OK || rc == ISM_PCI_RC_ERROR);
	return ret < 0 ? ret : finish(ch, ISM_CMD_UNREG_DMB, rc);
}

int
ism_pci_cmd_signal_ieq(struct ism_pci_cmd_chan *ch, uint64_t rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	alignas(ISM_CMD_ALIGN_LARGE) uint8_t req[ISM_SIGNAL_IEQ_LEN];
	alignas(ISM_CMD_ALIGN_LARGE) uint8_t resp[ISM_CMD_HDR_LEN];

	ism_put_be64(req, ISM_SIGNAL_IEQ_OFF_RGID, rgid);
	ism_put_be32(req, ISM_SIGNAL_IEQ_OFF_TRIGGER, trigger_irq);
	ism_put_be32(req, ISM_SIGNAL_IEQ_OFF_CODE, code);
	ism_put_be64(req, ISM_SIGNAL_IEQ_OFF_INFO, info);
	return run(ch, ISM_CMD_SIGNAL_IEQ, req, sizeof(req), resp, sizeof(resp));
}

int
ism_pci_cmd_vlan(struct ism_pci_cmd_chan *ch, bool add, uint64_t vlan_id)
{
	alignas(ISM_CMD_ALIGN) uint8_t req[ISM_VLAN_LEN];
	alignas(ISM_CMD_ALIGN) uint8_t resp[ISM_CMD_HDR_LEN];

	ism_put_be64(req, ISM_VLAN_OFF_ID, vlan_id);
	return run(ch, add ? ISM_CMD_ADD_VLAN_ID : ISM_CMD_DEL_VLAN_ID, req,
		   sizeof(req), resp, sizeof(resp));
}

int
ism_pci_cmd_unreg(struct ism_pci_cmd_chan *ch, uint32_t cmd)
{
	alignas(ISM_CMD_ALIGN_SIMPLE) uint8_t req[ISM_CMD_HDR_LEN];
	alignas(ISM_CMD_ALIGN_SIMPLE) uint8_t resp[ISM_CMD_HDR_LEN];
	uint16_t rc;
	int ret;

	ret = ism_pci_cmd_exec(ch, cmd, req, sizeof(req), resp, sizeof(resp),
			&rc);
	if (ret < 0 || rc == ISM_PCI_RC_OK)
		return ret;
	if (rc == ISM_PCI_RC_ERROR) {
		/* Linux takes this as done (e.g. nothing was registered). */
		ISM_PMD_LOG(DEBUG, "%s: %s returned ISM_ERROR, taken as done",
			    ch->name, ism_pci_cmd_name(cmd));
		return 0;
	}
	rte_atomic_store_explicit(&ch->last_rc, rc, rte_memory_order_relaxed);
	count(&ch->device_errors);
	ISM_PMD_LOG(ERR, "%s: %s failed with device code 0x%04x", ch->name,
		    ism_pci_cmd_name(cmd), rc);
	return -EIO;
}
