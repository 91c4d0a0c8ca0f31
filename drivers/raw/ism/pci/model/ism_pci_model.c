/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * ISM PCI DEVICE MODEL (tests only): the fabric, its tokens, the I/O ops
 * with the access rules of ism_vfio_pci (BAR 2 command window, BAR 0
 * store blocks) and events.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_memory.h>

#include <ism_compat.h>

#include "ism_pci_model_priv.h"

RTE_LOG_REGISTER_DEFAULT(ism_model_logtype, INFO);

struct model_fabric model_fabric = { .lock = PTHREAD_RWLOCK_INITIALIZER };

static uint64_t model_violation_count;

uint64_t
ism_pci_model_violations(void)
{
	return rte_atomic_load_explicit(&model_violation_count, rte_memory_order_relaxed);
}

int
model_violation(const struct ism_pci_model_fn *fn, const char *what,
		unsigned int bar, uint64_t off, size_t len)
{
	rte_atomic_fetch_add_explicit(&model_violation_count, 1, rte_memory_order_relaxed);
	MODEL_LOG(ERR, "%s: refused: %s (BAR %u, %zu bytes at 0x%" PRIx64 ")",
		  fn->name, what, bar, len, off);
	return -EINVAL;
}

void *
model_iova2va(uint64_t iova)
{
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return (void *)(uintptr_t)iova;
	return rte_mem_iova2virt(iova);
}

bool
model_dma_ok(const struct ism_pci_model_fn *fn, uint64_t iova, uint64_t len)
{
	return len > 0 && iova >= fn->window.start &&
		iova <= fn->window.end && len - 1 <= fn->window.end - iova &&
		model_iova2va(iova) != NULL;
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

/*
 * Sequence numbers times an odd constant, modulo 2^20: every value once
 * in 2^20 registrations, in an order that does not look sequential.
 */
uint64_t
model_token_new(struct ism_pci_model_fn *fn, uint32_t idx)
{
	uint32_t v, tries;
	uint64_t tok;

	for (tries = 0; tries < MODEL_TOK_VALUES; tries++) {
		v = (model_fabric.tok_seq++ * UINT32_C(0x9e3b5)) &
			(MODEL_TOK_VALUES - 1);
		if (v == 0 || model_fabric.tok_table[v] != 0)
			continue;
		model_fabric.tok_table[v] = fn->slot * ISM_PCI_NR_DMB_IDX +
			idx + 1;
		tok = (uint64_t)v << MODEL_TOK_SHIFT;
		if (fn->cfg.quirks & ISM_MODEL_Q_TOK20)
			tok |= MODEL_TOK20;
		return tok;
	}
	return 0;
}

void
model_token_free(uint64_t token)
{
	model_fabric.tok_table[(token >> MODEL_TOK_SHIFT) &
		(MODEL_TOK_VALUES - 1)] = 0;
}

/* The DMB a token names (its owner and index), or NULL. */
static struct model_dmb *
token_lookup(uint64_t token, struct ism_pci_model_fn **owner, uint32_t *idx)
{
	uint32_t e = model_fabric.tok_table[(token >> MODEL_TOK_SHIFT) &
		(MODEL_TOK_VALUES - 1)];
	struct ism_pci_model_fn *fn;
	struct model_dmb *dmb;

	if (e == 0)
		return NULL;
	e--;
	fn = model_fabric.fns[e / ISM_PCI_NR_DMB_IDX];
	if (fn == NULL)
		return NULL;
	dmb = &fn->dmbs[e % ISM_PCI_NR_DMB_IDX];
	if (dmb->token != token)
		return NULL;
	*owner = fn;
	*idx = e % ISM_PCI_NR_DMB_IDX;
	return dmb;
}

/*
 * Write the next ring entry, then the header index (slot + 1), then E,
 * then interrupt and wait until it was handled. Like the device, it
 * overwrites entries the driver has not consumed.
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
	e->time = rte_cpu_to_be_64((rte_atomic_fetch_add_explicit(&model_fabric.clock, 1,
			rte_memory_order_relaxed) + 1));
	e->info = rte_cpu_to_be_64(info);
	rte_atomic_store_explicit(&fn->ieq->idx, rte_cpu_to_be_64(slot + 1),
			rte_memory_order_release);
	fn->ieq_next = (slot + 1) % ISM_PCI_IEQ_NR;
	rte_atomic_fetch_or_explicit(&fn->sba->s_e, ISM_SBA_E, rte_memory_order_release);
	model_irq_raise(fn, true);
}

/*
 * Element mask, DMB bit, summary: in that order, after the data (unless a
 * quirk leaves the mask or S out). Interrupts when the summary, or with
 * no S the DMB's bit, goes from clear to set: later signals coalesce, as
 * the driver handles them all at once. It does not wait.
 */
static void
raise_signal(struct ism_pci_model_fn *fn, uint32_t dmb_idx, uint32_t elem)
{
	struct ism_pci_sba *sba = fn->sba;
	uint32_t q = fn->cfg.quirks;
	rte_be32_t old;

	if (sba == NULL)
		return;
	if (!(q & ISM_MODEL_Q_MASK0))
		rte_atomic_fetch_or_explicit(&sba->dmbe_mask[dmb_idx],
				rte_cpu_to_be_16(ism_pci_elem_to_hw(elem)),
				rte_memory_order_release);
	old = rte_atomic_fetch_or_explicit(&sba->dmb_bits[dmb_idx / 32],
			ism_sba_bit(dmb_idx), rte_memory_order_release);
	if (q & ISM_MODEL_Q_NO_S) {
		if (!(old & ism_sba_bit(dmb_idx)))
			model_irq_raise(fn, false);
		return;
	}
	old = rte_atomic_fetch_or_explicit(&sba->s_e, ISM_SBA_S, rte_memory_order_release);
	if (!(old & ISM_SBA_S))
		model_irq_raise(fn, false);
}

/*
 * One store block to BAR 0: decode the request, find the DMB by token,
 * check the sender is its writer (and in its VLAN) and the bytes fit,
 * copy into the owner's memory, signal if sf. A refused store block
 * writes nothing.
 */
static int
store_block(struct ism_pci_model_fn *src, uint64_t req, const void *buf,
		size_t len)
{
	uint64_t token = req & ~ISM_PCI_REQ_MASK;
	uint32_t idx = (req >> ISM_PCI_REQ_IDX_SHIFT) & ISM_PCI_REQ_IDX_MASK;
	uint32_t sf = (req >> ISM_PCI_REQ_SF_SHIFT) & 1;
	uint32_t off = req & ISM_PCI_REQ_OFF_MASK;
	struct ism_pci_model_fn *dst = NULL;
	struct model_dmb *dmb;
	uint32_t dmb_idx = 0;
	void *va;
	int ret = 0;

	pthread_rwlock_rdlock(&model_fabric.lock);
	dmb = token_lookup(token, &dst, &dmb_idx);
	if (dmb == NULL || dst->chid != src->chid) {
		ret = -ENOENT;
		goto out;
	}
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

/* BAR 2 reads: whole 8-byte loads inside the window, as Linux reads. */
static int
model_read(void *ctx, unsigned int bar, uint64_t off, void *buf, size_t len)
{
	struct ism_pci_model_fn *fn = ctx;

	if (bar != ISM_PCI_BAR_CMD)
		return model_violation(fn, "read of a BAR other than 2", bar, off,
				 len);
	if (len == 0 || off % ISM_PCI_LOAD_SIZE != 0 ||
	    len % ISM_PCI_LOAD_SIZE != 0)
		return model_violation(fn, "read not in whole 8-byte loads", bar,
				 off, len);
	if (off > sizeof(fn->window_buf) || len > sizeof(fn->window_buf) - off)
		return model_violation(fn, "read beyond the command window", bar,
				 off, len);
	pthread_rwlock_wrlock(&model_fabric.lock);
	memcpy(buf, fn->window_buf + off, len);
	pthread_rwlock_unlock(&model_fabric.lock);
	return 0;
}

/*
 * Every write is one PCI store block: at least a byte, at most maxstbl,
 * inside one 4 KiB block and inside the BAR (ism_vfio_pci refuses the
 * rest with -EINVAL). BAR 2 takes a command as Linux writes it: the body
 * as one store block at 8, then the 8-byte header at 0, which starts it.
 */
static int
model_write(void *ctx, unsigned int bar, uint64_t off, const void *buf,
		size_t len)
{
	struct ism_pci_model_fn *fn = ctx;
	uint64_t bar_size = bar == ISM_PCI_BAR_DATA ? ISM_PCI_BAR_DATA_SIZE :
		sizeof(fn->window_buf);

	if (bar != ISM_PCI_BAR_DATA && bar != ISM_PCI_BAR_CMD)
		return model_violation(fn, "write to a BAR other than 0 and 2", bar,
				 off, len);
	if (len == 0)
		return model_violation(fn, "empty store block", bar, off, len);
	if (len > fn->cfg.maxstbl)
		return model_violation(fn, "store block longer than maxstbl", bar,
				 off, len);
	if (off % ISM_PCI_STORE_BOUNDARY + len > ISM_PCI_STORE_BOUNDARY)
		return model_violation(fn, "store block crossing a 4 KiB boundary",
				 bar, off, len);
	if (off >= bar_size || len > bar_size - off)
		return model_violation(fn, "store block beyond the BAR", bar, off,
				 len);
	if (bar == ISM_PCI_BAR_DATA)
		return store_block(fn, off, buf, len);
	if (off != 0 && off != ISM_CMD_HDR_LEN)
		return model_violation(fn, "command window written at an offset "
				 "other than 0 (header) and 8 (body)", bar,
				 off, len);
	if (off == 0 && len != ISM_CMD_HDR_LEN)
		return model_violation(fn, "command header not one 8-byte store "
				 "block", bar, off, len);
	pthread_rwlock_wrlock(&model_fabric.lock);
	memcpy(fn->window_buf + off, buf, len);
	if (off == 0) {
		model_cmd_exec(fn);
		fn->body_len = 0;
	} else {
		fn->body_len = len;
	}
	pthread_rwlock_unlock(&model_fabric.lock);
	return 0;
}

const struct ism_pci_io_ops ism_pci_model_io_ops = {
	.read = model_read,
	.write = model_write,
};

struct rte_intr_handle *
ism_pci_model_intr(struct ism_pci_model_fn *fn)
{
	return fn->irq.handle;
}

const struct ism_pci_dma_window *
ism_pci_model_window(const struct ism_pci_model_fn *fn)
{
	return &fn->window;
}

void
ism_pci_model_set_window(struct ism_pci_model_fn *fn, uint64_t start,
		uint64_t end)
{
	pthread_rwlock_wrlock(&model_fabric.lock);
	fn->window.start = start;
	fn->window.end = end;
	pthread_rwlock_unlock(&model_fabric.lock);
}

int
ism_pci_model_fn_create(const char *name, uint64_t gid, uint16_t chid,
		const struct ism_pci_model_cfg *cfg,
		struct ism_pci_model_fn **out)
{
	struct ism_pci_model_fn *fn;
	unsigned int i, slot = MODEL_MAX_FNS;
	int ret = 0;

	if (name == NULL || gid == 0 || out == NULL ||
	    (cfg != NULL && cfg->maxstbl > ISM_PCI_STORE_MAX))
		return -EINVAL;
	fn = calloc(1, sizeof(*fn));
	if (fn == NULL)
		return -ENOMEM;
	snprintf(fn->name, sizeof(fn->name), "%s", name);
	fn->gid = gid;
	fn->chid = chid;
	if (cfg != NULL)
		fn->cfg = *cfg;
	if (fn->cfg.maxstbl == 0)
		fn->cfg.maxstbl = ISM_PCI_STORE_MAX;
	fn->window.end = UINT64_MAX;
	ret = model_irq_init(fn);
	if (ret < 0) {
		free(fn);
		return ret;
	}
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
	if (ret < 0) {
		model_irq_fini(fn);
		free(fn);
	} else {
		*out = fn;
	}
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
	for (idx = 0; idx < ISM_PCI_NR_DMB_IDX; idx++)
		if (fn->dmbs[idx].token != 0)
			model_token_free(fn->dmbs[idx].token);
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
	model_irq_fini(fn);
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
