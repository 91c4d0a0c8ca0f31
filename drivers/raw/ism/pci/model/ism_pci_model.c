/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * ISM PCI DEVICE MODEL (tests only): the fabric, the I/O ops (BAR 2
 * command window, BAR 0 store blocks), events and the interrupt.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include "ism_pci_model_priv.h"

RTE_LOG_REGISTER_DEFAULT(ism_model_logtype, INFO);

struct model_fabric model_fabric = { .lock = PTHREAD_RWLOCK_INITIALIZER };

void *
model_iova2va(uint64_t iova)
{
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return (void *)(uintptr_t)iova;
	return rte_mem_iova2virt(iova);
}

struct ism_pci_model_fn *
model_find_gid(uint16_t chid, uint64_t gid)
{
	struct ism_pci_model_fn *fn;
	unsigned int i;

	for (i = 0; i < MODEL_MAX_FNS; i++) {
		fn = model_fabric.fns[i];
		if (fn != NULL && fn->chid == chid && fn->gid == gid)
			return fn;
	}
	return NULL;
}

bool
model_vlan_member(const struct ism_pci_model_fn *fn, uint64_t vlan_id)
{
	return vlan_id < 8192 && ((fn->vlans[vlan_id / 64] >> (vlan_id % 64)) & 1);
}

static void
raise_irq(struct ism_pci_model_fn *fn)
{
	if (fn->irq != NULL)
		fn->irq(fn->irq_arg);
}

/*
 * Write the next ring entry, then the header index (slot + 1), then E.
 * Like the device, it overwrites entries the driver has not consumed.
 */
void
model_post(struct ism_pci_model_fn *fn, uint32_t type, uint32_t code,
		uint64_t tok, uint64_t info)
{
	struct ism_pci_ieq_entry *e;
	uint32_t slot = fn->ieq_next;

	if (fn->ieq == NULL || fn->sba == NULL)
		return;
	e = &fn->ieq->entry[slot];
	e->type = rte_cpu_to_be_32(type);
	e->code = rte_cpu_to_be_32(code);
	e->tok = rte_cpu_to_be_64(tok);
	e->time = rte_cpu_to_be_64(__atomic_add_fetch(&model_fabric.clock, 1,
			__ATOMIC_RELAXED));
	e->info = rte_cpu_to_be_64(info);
	__atomic_store_n(&fn->ieq->idx, rte_cpu_to_be_64(slot + 1),
			__ATOMIC_RELEASE);
	fn->ieq_next = (slot + 1) % ISM_PCI_IEQ_NR;
	__atomic_fetch_or(&fn->sba->s_e, ISM_SBA_E, __ATOMIC_RELEASE);
	raise_irq(fn);
}

/* Element mask, DMB bit, summary: in that order, after the data. */
static void
raise_signal(struct ism_pci_model_fn *fn, uint32_t dmb_idx, uint32_t elem)
{
	struct ism_pci_sba *sba = fn->sba;

	if (sba == NULL)
		return;
	__atomic_fetch_or(&sba->dmbe_mask[dmb_idx],
			rte_cpu_to_be_16(ism_pci_elem_to_hw(elem)),
			__ATOMIC_RELEASE);
	__atomic_fetch_or(&sba->dmb_bits[dmb_idx / 32], ism_sba_bit(dmb_idx),
			__ATOMIC_RELEASE);
	__atomic_fetch_or(&sba->s_e, ISM_SBA_S, __ATOMIC_RELEASE);
	raise_irq(fn);
}

/*
 * One store block: decode the request, find the DMB by token, check the
 * sender is its writer (and in its VLAN) and the bytes fit, copy into the
 * owner's memory, signal if sf. A refused store block writes nothing.
 */
static int
store_block(struct ism_pci_model_fn *src, uint64_t req, const void *buf,
		size_t len)
{
	uint64_t token = req & ~ISM_PCI_TOKEN_LOW_MASK;
	uint32_t idx = (req >> ISM_PCI_REQ_IDX_SHIFT) & 0xf;
	uint32_t sf = (req >> ISM_PCI_REQ_SF_SHIFT) & 1;
	uint32_t off = req & ISM_PCI_REQ_OFF_MASK;
	uint32_t slot = token >> MODEL_TOK_SLOT_SHIFT;
	uint32_t dmb_idx = (token >> MODEL_TOK_IDX_SHIFT) & MODEL_TOK_IDX_MASK;
	struct ism_pci_model_fn *dst;
	struct model_dmb *dmb;
	void *va;
	int ret = 0;

	if (len == 0 || (off % ISM_PCI_STORE_MAX) + len > ISM_PCI_STORE_MAX)
		return -EINVAL;	/* empty, or crosses a 4 KiB boundary */
	pthread_rwlock_rdlock(&model_fabric.lock);
	dst = model_fabric.fns[slot];
	if (dst == NULL || dst->chid != src->chid ||
	    dmb_idx >= ISM_PCI_NR_DMB_IDX ||
	    dst->dmbs[dmb_idx].token != token || token == 0) {
		ret = -ENOENT;
		goto out;
	}
	dmb = &dst->dmbs[dmb_idx];
	if (dmb->rgid != src->gid ||
	    (dmb->vlan_valid && !model_vlan_member(src, dmb->vlan_id))) {
		ret = -EACCES;
		goto out;
	}
	if (off > dmb->len || len > dmb->len - off) {
		ret = -ERANGE;
		goto out;
	}
	va = model_iova2va(dmb->iova + off);
	if (va == NULL) {
		MODEL_LOG(ERR, "%s: DMA to unmapped IOVA 0x%" PRIx64, dst->name,
			  dmb->iova + off);
		ret = -EIO;
		goto out;
	}
	memcpy(va, buf, len);
	if (sf)
		raise_signal(dst, dmb_idx, idx);
out:
	pthread_rwlock_unlock(&model_fabric.lock);
	return ret;
}

static int
model_read(void *ctx, unsigned int bar, uint64_t off, void *buf, size_t len)
{
	struct ism_pci_model_fn *fn = ctx;

	if (bar != ISM_PCI_BAR_CMD || off > sizeof(fn->window) ||
	    len > sizeof(fn->window) - off)
		return -EINVAL;
	pthread_rwlock_wrlock(&model_fabric.lock);
	memcpy(buf, fn->window + off, len);
	pthread_rwlock_unlock(&model_fabric.lock);
	return 0;
}

static int
model_write(void *ctx, unsigned int bar, uint64_t off, const void *buf,
		size_t len)
{
	struct ism_pci_model_fn *fn = ctx;

	if (bar == ISM_PCI_BAR_DATA)
		return store_block(fn, off, buf, len);
	if (bar != ISM_PCI_BAR_CMD || off > sizeof(fn->window) ||
	    len > sizeof(fn->window) - off)
		return -EINVAL;
	pthread_rwlock_wrlock(&model_fabric.lock);
	memcpy(fn->window + off, buf, len);
	/* Writing the header starts the command. */
	if (off == 0 && len >= ISM_CMD_HDR_LEN)
		model_cmd_exec(fn);
	pthread_rwlock_unlock(&model_fabric.lock);
	return 0;
}

const struct ism_pci_io_ops ism_pci_model_io_ops = {
	.read = model_read,
	.write = model_write,
};

int
ism_pci_model_irq_enable(void *ctx, void (*handler)(void *arg), void *arg)
{
	struct ism_pci_model_fn *fn = ctx;

	pthread_rwlock_wrlock(&model_fabric.lock);
	fn->irq = handler;
	fn->irq_arg = arg;
	pthread_rwlock_unlock(&model_fabric.lock);
	return 0;
}

void
ism_pci_model_irq_disable(void *ctx)
{
	struct ism_pci_model_fn *fn = ctx;

	/* Handlers run under the lock: none is running once we hold it. */
	pthread_rwlock_wrlock(&model_fabric.lock);
	fn->irq = NULL;
	fn->irq_arg = NULL;
	pthread_rwlock_unlock(&model_fabric.lock);
}

int
ism_pci_model_fn_create(const char *name, uint64_t gid, uint16_t chid,
		struct ism_pci_model_fn **out)
{
	struct ism_pci_model_fn *fn;
	unsigned int i, slot = MODEL_MAX_FNS;
	int ret = 0;

	if (name == NULL || gid == 0 || out == NULL)
		return -EINVAL;
	fn = calloc(1, sizeof(*fn));
	if (fn == NULL)
		return -ENOMEM;
	snprintf(fn->name, sizeof(fn->name), "%s", name);
	fn->gid = gid;
	fn->chid = chid;
	pthread_rwlock_wrlock(&model_fabric.lock);
	if (model_find_gid(chid, gid) != NULL) {
		MODEL_LOG(ERR, "%s: GID 0x%016" PRIx64 " already used in fabric "
			  "0x%04x", name, gid, chid);
		ret = -EEXIST;
		goto out;
	}
	for (i = 0; i < MODEL_MAX_FNS && slot == MODEL_MAX_FNS; i++)
		if (model_fabric.fns[i] == NULL)
			slot = i;
	if (slot == MODEL_MAX_FNS) {
		MODEL_LOG(ERR, "%s: all %d model functions in use", name,
			  MODEL_MAX_FNS);
		ret = -ENOSPC;
		goto out;
	}
	fn->slot = slot;
	model_fabric.fns[slot] = fn;
out:
	pthread_rwlock_unlock(&model_fabric.lock);
	if (ret < 0)
		free(fn);
	else
		*out = fn;
	return ret;
}

void
ism_pci_model_fn_destroy(struct ism_pci_model_fn *fn)
{
	struct ism_pci_model_fn *o;
	struct model_dmb *dmb;
	unsigned int i, idx;

	if (fn == NULL)
		return;
	pthread_rwlock_wrlock(&model_fabric.lock);
	model_fabric.fns[fn->slot] = NULL;
	for (i = 0; i < MODEL_MAX_FNS; i++) {
		o = model_fabric.fns[i];
		if (o == NULL || o->chid != fn->chid)
			continue;
		/* Its own DMBs (a driver would have unregistered them). */
		for (idx = 0; idx < ISM_PCI_NR_DMB_IDX; idx++) {
			dmb = &fn->dmbs[idx];
			if (dmb->token != 0 && dmb->rgid == o->gid)
				model_post(o, ISM_EVENT_BUF,
					   ISM_EV_DMB_UNREGISTERED,
					   dmb->token, 0);
		}
		/* DMBs elsewhere that it was the writer of. */
		for (idx = 0; idx < ISM_PCI_NR_DMB_IDX; idx++) {
			dmb = &o->dmbs[idx];
			if (dmb->token != 0 && dmb->rgid == fn->gid)
				model_post(o, ISM_EVENT_BUF,
					   ISM_EV_USER_DISABLED,
					   dmb->token, 0);
		}
		model_post(o, ISM_EVENT_DEV, ISM_EV_GID_DISABLED, fn->gid,
			   0);
	}
	pthread_rwlock_unlock(&model_fabric.lock);
	free(fn);
}

struct ism_pci_model_fn *
ism_pci_model_fn_find(const char *name)
{
	struct ism_pci_model_fn *fn = NULL;
	unsigned int i;

	pthread_rwlock_rdlock(&model_fabric.lock);
	for (i = 0; i < MODEL_MAX_FNS && fn == NULL; i++)
		if (model_fabric.fns[i] != NULL &&
		    strcmp(model_fabric.fns[i]->name, name) == 0)
			fn = model_fabric.fns[i];
	pthread_rwlock_unlock(&model_fabric.lock);
	return fn;
}
