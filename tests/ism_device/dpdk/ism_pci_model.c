/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function in process (tests only): the platform of the
 * PCI backend (register access with the rules of ism_vfio_pci, DMA into
 * this process's DPDK memory, the interrupt) around the device core.
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

static pthread_mutex_t model_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ism_pci_model_fn *model_fns;
static uint64_t model_violation_count;

uint64_t
ism_pci_model_violations(void)
{
	return rte_atomic_load_explicit(&model_violation_count,
					rte_memory_order_relaxed);
}

static int
violation(const struct ism_pci_model_fn *fn, const char *what,
		unsigned int bar, uint64_t off, size_t len)
{
	rte_atomic_fetch_add_explicit(&model_violation_count, 1,
				      rte_memory_order_relaxed);
	MODEL_LOG(ERR, "%s: refused: %s (BAR %u, %zu bytes at 0x%" PRIx64 ")",
		  fn->name, what, bar, len, off);
	return -EINVAL;
}

/* A device address of this process's DPDK memory, or NULL. */
static void *
iova2va(uint64_t iova)
{
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return (void *)(uintptr_t)iova;
	return rte_mem_iova2virt(iova);
}

/* [iova, iova + len) inside the window, where the IOMMU maps it. */
static void *
dma_va(const struct ism_pci_model_fn *fn, uint64_t iova, uint64_t len)
{
	const struct ism_pci_dma_window *w = &fn->window;

	if (len == 0 || iova < w->start || iova > w->end ||
	    len - 1 > w->end - iova)
		return NULL;
	return iova2va(iova);
}

static int
env_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	void *va = dma_va(ctx, addr, len);

	if (va == NULL)
		return -EFAULT;
	memcpy(buf, va, len);
	return 0;
}

static int
env_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	void *va = dma_va(ctx, addr, len);

	if (va == NULL)
		return -EFAULT;
	memcpy(va, buf, len);
	return 0;
}

/* The driver clears bits of the same words with atomics of its own. */
static int
env_dma_or8(void *ctx, uint64_t addr, uint8_t bits, uint8_t *old)
{
	uint8_t *va = dma_va(ctx, addr, 1);

	if (va == NULL)
		return -EFAULT;
	*old = rte_atomic_fetch_or_explicit(va, bits,
					    rte_memory_order_seq_cst);
	return 0;
}

static bool
env_dma_ok(void *ctx, uint64_t addr, uint64_t len)
{
	return dma_va(ctx, addr, len) != NULL;
}

/* Signals do not wait (the driver polls them); events do. */
static void
env_irq(void *ctx, enum ism_dev_irq_cause cause)
{
	model_irq_raise(ctx, cause == ISM_DEV_IRQ_EVENT);
}

static void
env_irq_arm(void *ctx, bool on)
{
	model_irq_arm(ctx, on);
}

/* What the core calls a guest error breaks the rules too. */
static void
env_log(void *ctx, enum ism_dev_log_level level, const char *msg)
{
	RTE_SET_USED(ctx);
	if (level == ISM_DEV_LOG_GUEST_ERROR) {
		rte_atomic_fetch_add_explicit(&model_violation_count, 1,
					      rte_memory_order_relaxed);
		MODEL_LOG(ERR, "%s", msg);
	} else {
		MODEL_LOG(DEBUG, "%s", msg);
	}
}

static const struct ism_dev_ops model_env = {
	.dma_read = env_dma_read,
	.dma_write = env_dma_write,
	.dma_or8 = env_dma_or8,
	.dma_ok = env_dma_ok,
	.irq = env_irq,
	.irq_arm = env_irq_arm,
	.log = env_log,
};

/* BAR 2 reads: whole 8-byte loads inside the window, as Linux reads. */
static int
model_read(void *ctx, unsigned int bar, uint64_t off, void *buf, size_t len)
{
	struct ism_pci_model_fn *fn = ctx;

	if (bar != MODEL_BAR_CMD)
		return violation(fn, "read of a BAR other than 2", bar, off,
				 len);
	if (len == 0 || off % MODEL_LOAD_SIZE != 0 ||
	    len % MODEL_LOAD_SIZE != 0)
		return violation(fn, "read not in whole 8-byte loads", bar,
				 off, len);
	if (off > ISM_MODEL_CMD_WINDOW || len > ISM_MODEL_CMD_WINDOW - off)
		return violation(fn, "read beyond the command window", bar,
				 off, len);
	return ism_dev_cmd_read(fn->dev, off, buf, len);
}

/*
 * Every write is one PCI store block: at least a byte, at most maxstbl,
 * inside one 4 KiB block and inside the BAR (ism_vfio_pci refuses the
 * rest with -EINVAL). BAR 2 takes a command as Linux writes it: the body
 * as one store block at 8, then the 8-byte header at 0.
 */
static int
model_write(void *ctx, unsigned int bar, uint64_t off, const void *buf,
		size_t len)
{
	struct ism_pci_model_fn *fn = ctx;
	uint64_t bar_size = bar == MODEL_BAR_DATA ?
		ism_dev_bar0_size(fn->dev) : ISM_MODEL_CMD_WINDOW;

	if (bar != MODEL_BAR_DATA && bar != MODEL_BAR_CMD)
		return violation(fn, "write to a BAR other than 0 and 2", bar,
				 off, len);
	if (len == 0)
		return violation(fn, "empty store block", bar, off, len);
	if (len > fn->cfg.maxstbl)
		return violation(fn, "store block longer than maxstbl", bar,
				 off, len);
	if (off % MODEL_STORE_BOUNDARY + len > MODEL_STORE_BOUNDARY)
		return violation(fn, "store block crossing a 4 KiB boundary",
				 bar, off, len);
	if (off >= bar_size || len > bar_size - off)
		return violation(fn, "store block beyond the BAR", bar, off,
				 len);
	if (bar == MODEL_BAR_DATA)
		return ism_dev_write(fn->dev, bar, off, buf, len,
				     ISM_DEV_ACC_BLOCK);
	if (off != 0 && off != MODEL_HDR_LEN)
		return violation(fn, "command window written at an offset "
				 "other than 0 (header) and 8 (body)", bar,
				 off, len);
	if (off == 0 && len != MODEL_HDR_LEN)
		return violation(fn, "command header not one 8-byte store "
				 "block", bar, off, len);
	return ism_dev_write(fn->dev, bar, off, buf, len, ISM_DEV_ACC_BLOCK);
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

/* Not under the core's lock: tests move it between accesses. */
void
ism_pci_model_set_window(struct ism_pci_model_fn *fn, uint64_t start,
		uint64_t end)
{
	fn->window.start = start;
	fn->window.end = end;
}

uint64_t
ism_pci_model_gid(const struct ism_pci_model_fn *fn)
{
	return ism_dev_gid(fn->dev);
}

uint64_t
ism_pci_model_bar0_size(const struct ism_pci_model_fn *fn)
{
	return ism_dev_bar0_size(fn->dev);
}

int
ism_pci_model_fn_create(const char *name, uint64_t gid, uint16_t chid,
		const struct ism_pci_model_cfg *cfg,
		struct ism_pci_model_fn **out)
{
	struct ism_dev_config dc = { .name = name, .gid = gid, .fabric = chid };
	struct ism_pci_model_fn *fn;
	int ret;

	if (name == NULL || out == NULL ||
	    (cfg != NULL && cfg->maxstbl > MODEL_STORE_MAX))
		return -EINVAL;
	fn = calloc(1, sizeof(*fn));
	if (fn == NULL)
		return -ENOMEM;
	snprintf(fn->name, sizeof(fn->name), "%s", name);
	if (cfg != NULL)
		fn->cfg = *cfg;
	if (fn->cfg.maxstbl == 0)
		fn->cfg.maxstbl = MODEL_STORE_MAX;
	fn->window.end = UINT64_MAX;
	dc.bar0_size = fn->cfg.bar0_size;
	dc.quirks = fn->cfg.quirks;
	dc.maxstbl = fn->cfg.maxstbl;
	ret = model_irq_init(fn);
	if (ret < 0) {
		free(fn);
		return ret;
	}
	ret = ism_dev_create(&dc, &model_env, fn, &fn->dev);
	if (ret < 0) {
		MODEL_LOG(ERR, "%s: cannot create the function (GID 0x%016"
			  PRIx64 ", fabric 0x%04x): %s", name, gid, chid,
			  strerror(-ret));
		model_irq_fini(fn);
		free(fn);
		return ret;
	}
	pthread_mutex_lock(&model_lock);
	fn->next = model_fns;
	model_fns = fn;
	pthread_mutex_unlock(&model_lock);
	*out = fn;
	return 0;
}

void
ism_pci_model_fn_destroy(struct ism_pci_model_fn *fn)
{
	struct ism_pci_model_fn **pp;

	if (fn == NULL)
		return;
	pthread_mutex_lock(&model_lock);
	for (pp = &model_fns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == fn) {
			*pp = fn->next;
			break;
		}
	pthread_mutex_unlock(&model_lock);
	ism_dev_destroy(fn->dev);
	model_irq_fini(fn);
	free(fn);
}

struct ism_pci_model_fn *
ism_pci_model_fn_find(const char *name)
{
	struct ism_pci_model_fn *fn;

	pthread_mutex_lock(&model_lock);
	for (fn = model_fns; fn != NULL; fn = fn->next)
		if (strcmp(fn->name, name) == 0)
			break;
	pthread_mutex_unlock(&model_lock);
	return fn;
}
