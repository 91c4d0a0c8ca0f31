/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * PCI backend, control path: bring-up and teardown of the function in the
 * order Linux's driver uses (drivers/s390/net/ism_drv.c), DMBs in DPDK
 * memory registered by IOVA, VLANs, reachability and software events. The
 * fast path is in ism_pci_data.c.
 */

#include <inttypes.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_memory.h>

#include <ism_compat.h>

#include "ism_pci_dev.h"

static struct ism_pci_dev *
dev_of(struct rte_ism_dev *idev)
{
	return idev->dev_private;
}

static const char *
dev_name(const struct ism_pci_dev *d)
{
	return d->common.ism->name;
}

/*
 * IOVA of DPDK memory the device will write, or RTE_BAD_IOVA if the range
 * is not IOVA-contiguous or crosses a 1 MiB boundary (the function's DMA
 * segment boundary).
 */
static rte_iova_t
dma_iova(const void *addr, size_t len)
{
	const uint8_t *p = addr, *end = p + len;
	const struct rte_memseg *ms;
	rte_iova_t iova, expect;
	size_t step;

	iova = rte_malloc_virt2iova(addr);
	if (iova == RTE_BAD_IOVA ||
	    (iova ^ (iova + len - 1)) >= ISM_PCI_DMB_MAX_LEN)
		return RTE_BAD_IOVA;
	if (rte_eal_iova_mode() == RTE_IOVA_VA)
		return iova;
	for (expect = iova; p < end; p += step, expect += step) {
		ms = rte_mem_virt2memseg(p, NULL);
		if (ms == NULL ||
		    ms->iova + (p - (const uint8_t *)ms->addr) != expect)
			return RTE_BAD_IOVA;
		step = (const uint8_t *)ms->addr + ms->len - p;
	}
	return iova;
}

/*
 * Zeroed DMA memory, placed as Linux's dma_alloc_coherent() places it:
 * aligned to its size rounded up to a power of two and at least to a page
 * (so inside one page, or one 1 MiB DMA segment), and inside the
 * function's DMA window.
 */
static void *
dma_alloc(const struct ism_pci_dev *d, const char *what, size_t len,
		int socket, rte_iova_t *iova)
{
	const struct ism_pci_dma_window *w = d->plat.dma_window;
	size_t align = RTE_MAX(rte_align64pow2(len), (uint64_t)ISM_PCI_PAGE);
	void *p = rte_zmalloc_socket(what, len, align, socket);

	if (p == NULL)
		return NULL;
	*iova = dma_iova(p, len);
	if (*iova == RTE_BAD_IOVA) {
		ISM_PMD_LOG(ERR, "%s: %s of %zu bytes is not IOVA-contiguous "
			    "(hugepages or IOVA as VA needed)", dev_name(d),
			    what, len);
		rte_free(p);
		return NULL;
	}
	if (w != NULL && (*iova < w->start || *iova > w->end ||
			  len - 1 > w->end - *iova)) {
		ISM_PMD_LOG(ERR, "%s: %s at IOVA 0x%" PRIx64 " (%zu bytes) is "
			    "outside the function's DMA window 0x%" PRIx64
			    "-0x%" PRIx64, dev_name(d), what, *iova, len,
			    w->start, w->end);
		rte_free(p);
		return NULL;
	}
	return p;
}

static bool
vlan_member(const struct ism_pci_dev *d, uint16_t vlan_id)
{
	return (d->vlans[vlan_id / 64] >> (vlan_id % 64)) & 1;
}

/* The device's GIDs have 64 bits: {gid, 0} in the 128-bit form. */
static bool
gid_is_64bit(const struct rte_ism_gid *g)
{
	return g->gid_ext == 0;
}

_Static_assert(ISM_PCI_MAX_DMBS <= (ISM_SW_NB_IDX - RTE_ISM_DMB_IDX_FIRST),
	       "the index set covers every DMB index of the device");

static int
pci_dmb_register(struct rte_ism_dev *idev, struct rte_ism_dmb *req)
{
	struct ism_pci_dev *d = dev_of(idev);
	struct ism_pci_reg_dmb r;
	struct ism_pci_dmb *dmb;
	uint64_t token;
	uint32_t idx;
	void *mem;
	int ret;

	if (!gid_is_64bit(&req->rgid)) {
		ISM_PMD_LOG(ERR, "%s: rgid has 128 bits; ISM PCI GIDs have 64 "
			    "(gid_ext must be 0)", idev->name);
		return -EINVAL;
	}
	pthread_mutex_lock(&d->ctl_lock);
	ret = ism_sw_idx_take(&d->idx_set, req->idx, idev->name);
	if (ret < 0)
		goto out;
	idx = ret;
	dmb = &d->dmbs[idx];
	mem = dma_alloc(d, "ism_pci_dmb", req->len, idev->socket_id, &r.iova);
	if (mem == NULL) {
		ISM_PMD_LOG(ERR, "%s: no DMA memory for a DMB of %u bytes",
			    idev->name, req->len);
		ism_sw_idx_put(&d->idx_set, idx);
		ret = -ENOMEM;
		goto out;
	}
	r.len = req->len;
	r.sba_idx = idx;
	r.vlan_valid = req->vlan_valid;
	r.vlan_id = req->vlan_valid ? req->vlan_id : 0;
	r.rgid = req->rgid.gid;
	ret = ism_pci_cmd_reg_dmb(&d->cmd, &r, &token);
	if (ret == 0 && (token == 0 || (token & d->token_bad))) {
		bool released;

		/* move_data could not encode it: give it back. */
		ISM_PMD_LOG(ERR, "%s: device issued token 0x%016" PRIx64
			    " with bits of the request encoding (0-19, 23-27)"
			    " or beyond BAR 0 set", idev->name, token);
		ism_pci_cmd_unreg_dmb(&d->cmd, token, &released);
		if (!released) {
			/*
			 * The device may still write the memory: keep it, and
			 * the index, which the device holds too. Teardown
			 * tries the unregister again.
			 */
			ISM_PMD_LOG(ERR, "%s: DMB at index %u not "
				    "unregistered; its memory is left to the "
				    "device", idev->name, idx);
			dmb->token = token;
			dmb->addr = mem;
			dmb->iova = r.iova;
			dmb->len = req->len;
			ret = -EIO;
			goto out;
		}
		ret = -EIO;
	}
	if (ret < 0) {
		rte_free(mem);
		ism_sw_idx_put(&d->idx_set, idx);
		goto out;
	}
	dmb->token = token;
	dmb->addr = mem;
	dmb->iova = r.iova;
	dmb->len = req->len;
	req->token = token;
	req->addr = mem;
	req->idx = idx;
out:
	pthread_mutex_unlock(&d->ctl_lock);
	return ret;
}

/* Called with ctl_lock held. */
static int
dmb_unregister_locked(struct ism_pci_dev *d, uint32_t idx)
{
	struct ism_pci_dmb *dmb = &d->dmbs[idx];
	bool released;
	int ret;

	ret = ism_pci_cmd_unreg_dmb(&d->cmd, dmb->token, &released);
	if (!released)
		return ret;
	ism_pci_sba_clear(d, idx);
	rte_free(dmb->addr);
	memset(dmb, 0, sizeof(*dmb));
	ism_sw_idx_put(&d->idx_set, idx);
	if (ret < 0)
		ISM_PMD_LOG(WARNING, "%s: DMB at index %u released although "
			    "the device reported ISM_ERROR", dev_name(d), idx);
	return ret;
}

static int
pci_dmb_unregister(struct rte_ism_dev *idev, uint64_t token)
{
	struct ism_pci_dev *d = dev_of(idev);
	uint32_t idx, end = RTE_ISM_DMB_IDX_FIRST + d->max_dmbs;
	int ret = -ENOENT;

	if (token == 0)
		return -ENOENT;
	pthread_mutex_lock(&d->ctl_lock);
	/* Tokens are the device's: look the index up. */
	for (idx = RTE_ISM_DMB_IDX_FIRST; idx < end; idx++)
		if (d->dmbs[idx].token == token) {
			ret = dmb_unregister_locked(d, idx);
			break;
		}
	pthread_mutex_unlock(&d->ctl_lock);
	return ret;
}

static int
pci_signal_event(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t trigger_irq, uint32_t code, uint64_t info)
{
	struct ism_pci_dev *d = dev_of(idev);

	if (!gid_is_64bit(rgid))
		return -ENETUNREACH;
	return ism_pci_cmd_signal_ieq(&d->cmd, rgid->gid, trigger_irq, code,
			info);
}

static int
pci_query_remote_gid(struct rte_ism_dev *idev, const struct rte_ism_gid *rgid,
		uint32_t vlan_valid, uint16_t vlan_id)
{
	struct ism_pci_dev *d = dev_of(idev);

	if (!gid_is_64bit(rgid))
		return -ENETUNREACH;
	return ism_pci_cmd_query_rgid(&d->cmd, rgid->gid, vlan_valid != 0,
			vlan_valid ? vlan_id : 0);
}

/* Membership is kept here too, so that add is idempotent and del of a
 * VLAN the device is not in says -ENOENT without asking the device.
 */
static int
pci_vlan_change(struct rte_ism_dev *idev, uint16_t vlan_id, bool add)
{
	struct ism_pci_dev *d = dev_of(idev);
	uint64_t bit = RTE_BIT64(vlan_id % 64);
	int ret = 0;

	pthread_mutex_lock(&d->ctl_lock);
	if (vlan_member(d, vlan_id) == add)
		ret = add ? 0 : -ENOENT;
	else
		ret = ism_pci_cmd_vlan(&d->cmd, add, vlan_id);
	if (ret == 0)
		d->vlans[vlan_id / 64] = add ? d->vlans[vlan_id / 64] | bit :
			d->vlans[vlan_id / 64] & ~bit;
	pthread_mutex_unlock(&d->ctl_lock);
	return ret;
}

static int
pci_vlan_add(struct rte_ism_dev *idev, uint16_t vlan_id)
{
	return pci_vlan_change(idev, vlan_id, true);
}

static int
pci_vlan_del(struct rte_ism_dev *idev, uint16_t vlan_id)
{
	return pci_vlan_change(idev, vlan_id, false);
}

static int
pci_dump(struct rte_ism_dev *idev, FILE *f)
{
	struct ism_pci_dev *d = dev_of(idev);
	struct ism_pci_dmb *dmb;
	struct ism_pci_info qi;
	uint32_t idx, n = 0, end = RTE_ISM_DMB_IDX_FIRST + d->max_dmbs;

	pthread_mutex_lock(&d->ctl_lock);
	if (ism_pci_cmd_query_info(&d->cmd, &qi) == 0)
		fprintf(f, "  ISM function: version %u state 0x%" PRIx64
			" gid 0x%016" PRIx64 " DMBs used %u owned %u, %u VLANs\n",
			qi.version, qi.state, qi.my_gid, qi.dmbs_used,
			qi.dmbs_owned, qi.vlan_nr_ids);
	else
		fprintf(f, "  ISM function: no QUERY_INFO answer\n");
	fprintf(f, "  sba iova 0x%" PRIx64 " ieq iova 0x%" PRIx64
		" interrupts %s, store blocks of up to %u bytes\n",
		d->sba_iova, d->ieq_iova,
		d->irq_enabled ? "on" : "off (events drained by signal poll)",
		d->store_max);
	for (idx = RTE_ISM_DMB_IDX_FIRST; idx < end; idx++) {
		dmb = &d->dmbs[idx];
		if (dmb->token == 0)
			continue;
		fprintf(f, "  dmb %u token 0x%016" PRIx64 " len %u iova 0x%"
			PRIx64 "\n", idx, dmb->token, dmb->len, dmb->iova);
		n++;
	}
	fprintf(f, "  %u DMBs\n", n);
	pthread_mutex_unlock(&d->ctl_lock);
	return 0;
}

/* Interrupt mode (ism_wake.h): the interrupt handler wakes the client. */
static struct rte_intr_handle *
pci_intr_handle_get(struct rte_ism_dev *idev)
{
	return ((struct ism_pci_dev *)idev->dev_private)->wake.intr;
}

static int
pci_intr_arm(struct rte_ism_dev *idev, bool on)
{
	struct ism_pci_dev *d = idev->dev_private;

	ism_wake_arm(&d->wake, on);
	if (on && ism_pci_sba_pending(d))
		ism_wake_kick(d->wake.self.fd);
	return 0;
}

static void
pci_intr_event(struct rte_ism_dev *idev)
{
	ism_wake_event(&((struct ism_pci_dev *)idev->dev_private)->wake);
}

static const struct rte_ism_dev_ops pci_ops = {
	.dmb_register = pci_dmb_register,
	.dmb_unregister = pci_dmb_unregister,
	.signal_event = pci_signal_event,
	.query_remote_gid = pci_query_remote_gid,
	.vlan_add = pci_vlan_add,
	.vlan_del = pci_vlan_del,
	.stats_get = ism_pmd_stats_get,
	.stats_reset = ism_pmd_stats_reset,
	.dump = pci_dump,
	.intr_handle_get = pci_intr_handle_get,
	.intr_arm = pci_intr_arm,
	.intr_event = pci_intr_event,
};

enum {
	XS_CMDS,
	XS_CMD_DEVICE_ERRORS,
	XS_CMD_UNREACHABLE,
	XS_CMD_IO_ERRORS,
	XS_IRQS,
	XS_IEQ_EVENTS,
	XS_IEQ_BAD_INDEX,
	XS_NB
};

static const char *const pci_xstat_names[XS_NB] = {
	[XS_CMDS] = "pci_commands",
	[XS_CMD_DEVICE_ERRORS] = "pci_command_device_errors",
	[XS_CMD_UNREACHABLE] = "pci_command_unreachable",
	[XS_CMD_IO_ERRORS] = "pci_command_io_errors",
	[XS_IRQS] = "pci_interrupts",
	[XS_IEQ_EVENTS] = "pci_ieq_events",
	[XS_IEQ_BAD_INDEX] = "pci_ieq_bad_index",
};

static uint64_t
pci_xstat_get(struct ism_pmd_dev *common, unsigned int i)
{
	struct ism_pci_dev *d = (struct ism_pci_dev *)common;
	const __rte_atomic uint64_t *c[XS_NB] = {
		[XS_CMDS] = &d->cmd.issued,
		[XS_CMD_DEVICE_ERRORS] = &d->cmd.device_errors,
		[XS_CMD_UNREACHABLE] = &d->cmd.unreachable,
		[XS_CMD_IO_ERRORS] = &d->cmd.io_errors,
		[XS_IRQS] = &d->irqs,
		[XS_IEQ_EVENTS] = &d->ieq_events,
		[XS_IEQ_BAD_INDEX] = &d->ieq_bad_index,
	};

	return i < XS_NB ? rte_atomic_load_explicit(c[i], rte_memory_order_relaxed) : 0;
}

/*
 * The function's interrupt through the platform's handle: the EAL
 * interrupt thread runs ism_pci_irq(). The handle is the platform's (the
 * ism bus's vfio MSI, or the device model's); only rte_intr_* calls here.
 */
static int
pci_irq_on(struct ism_pci_dev *d)
{
	int ret;

	ret = rte_intr_callback_register(d->plat.intr, ism_pci_irq, d);
	if (ret < 0)
		return ret;
	if (rte_intr_enable(d->plat.intr) != 0) {
		rte_intr_callback_unregister_sync(d->plat.intr, ism_pci_irq, d);
		return -EIO;
	}
	return 0;
}

static void
pci_irq_off(struct ism_pci_dev *d)
{
	if (rte_intr_disable(d->plat.intr) != 0)
		ISM_PMD_LOG(WARNING, "%s: cannot turn the interrupt off",
			    dev_name(d));
	/* Returns once no handler runs any more. */
	rte_intr_callback_unregister_sync(d->plat.intr, ism_pci_irq, d);
}

/* The VLAN ids the application left: deleted, a refusal logged only. */
static void
close_vlans_locked(struct ism_pci_dev *d)
{
	uint32_t id;

	for (id = 0; id <= RTE_ISM_VLAN_ID_MAX; id++) {
		if (!vlan_member(d, id))
			continue;
		if (ism_pci_cmd_vlan(&d->cmd, false, id) < 0)
			ISM_PMD_LOG(WARNING, "%s: VLAN id %u not deleted at close",
				    dev_name(d), id);
		d->vlans[id / 64] &= ~RTE_BIT64(id % 64);
	}
}

/*
 * Teardown in Linux's order: what the client left registered (its DMBs,
 * then its VLAN ids, as SMC, whose link groups end when a device goes,
 * deletes the ids they added: smcd_unregister_dev() in net/smc/smc_ism.c,
 * smc_lgr_free() in net/smc/smc_core.c), UNREG_IEQ, UNREG_SBA (the device
 * raises interrupts only while those are
 * registered), interrupts off (waits for a running handler), then the
 * memory the device wrote. Memory the device was not seen to let go of is
 * never freed: it may still write it. The fast path is already off.
 */
static void
pci_close(struct ism_pmd_dev *common)
{
	struct ism_pci_dev *d = (struct ism_pci_dev *)common;
	uint32_t idx, end = RTE_ISM_DMB_IDX_FIRST + d->max_dmbs;

	pthread_mutex_lock(&d->ctl_lock);
	for (idx = RTE_ISM_DMB_IDX_FIRST; d->dmbs != NULL && idx < end; idx++)
		if (d->dmbs[idx].token != 0 &&
		    dmb_unregister_locked(d, idx) < 0)
			ISM_PMD_LOG(ERR, "%s: DMB at index %u not unregistered; "
				    "its memory is left to the device",
				    dev_name(d), idx);
	close_vlans_locked(d);
	if (d->ieq_registered &&
	    ism_pci_cmd_unreg(&d->cmd, ISM_CMD_UNREG_IEQ) == 0)
		d->ieq_registered = false;
	if (d->sba_registered &&
	    ism_pci_cmd_unreg(&d->cmd, ISM_CMD_UNREG_SBA) == 0)
		d->sba_registered = false;
	pthread_mutex_unlock(&d->ctl_lock);
	if (d->irq_enabled)
		pci_irq_off(d);
	d->irq_enabled = false;
	/* The handler, which wakes, runs no more. */
	ism_wake_fini(&d->wake);
	if (d->ieq_registered)
		ISM_PMD_LOG(ERR, "%s: IEQ not unregistered; its memory is left "
			    "to the device", dev_name(d));
	else
		rte_free(d->ieq);
	if (d->sba_registered)
		ISM_PMD_LOG(ERR, "%s: SBA not unregistered; its memory is left "
			    "to the device", dev_name(d));
	else
		rte_free(d->sba);
	d->ieq_registered = false;
	d->sba_registered = false;
	rte_free(d->dmbs);
	d->ieq = NULL;
	d->sba = NULL;
	d->dmbs = NULL;
	ism_pci_cmd_fini(&d->cmd);
	pthread_mutex_destroy(&d->ctl_lock);
}

static const struct ism_backend pci_backend = {
	.name = "pci",
	.ops = &pci_ops,
	.close = pci_close,
	.nb_xstats = XS_NB,
	.xstat_names = pci_xstat_names,
	.xstat_get = pci_xstat_get,
};

/*
 * Bring-up in Linux's order: interrupt, REG_SBA, REG_IEQ, QUERY_INFO,
 * READ_GID. QUERY_INFO is logged only, as Linux does: a function that
 * fails it, or answers short, still comes up. pci_close undoes whatever
 * of the rest was done.
 */
static int
pci_bring_up(struct ism_pci_dev *d, int socket)
{
	const char *name = dev_name(d);
	int ret;

	d->sba = dma_alloc(d, "ism_pci_sba", sizeof(*d->sba), socket,
			&d->sba_iova);
	d->ieq = d->sba == NULL ? NULL : dma_alloc(d, "ism_pci_ieq",
			sizeof(*d->ieq), socket, &d->ieq_iova);
	if (d->sba == NULL || d->ieq == NULL) {
		ISM_PMD_LOG(ERR, "%s: no DMA memory for the SBA and IEQ", name);
		return -ENOMEM;
	}
	if (d->plat.intr != NULL) {
		ret = pci_irq_on(d);
		if (ret == 0)
			d->irq_enabled = true;
		else
			ISM_PMD_LOG(WARNING, "%s: no interrupt (%s); events "
				    "arrive only while signals are polled",
				    name, strerror(-ret));
	}
	ret = ism_pci_cmd_reg_sba(&d->cmd, d->sba_iova);
	if (ret < 0)
		return ret;
	d->sba_registered = true;
	ret = ism_pci_cmd_reg_ieq(&d->cmd, d->ieq_iova, ISM_PCI_IEQ_LEN);
	if (ret < 0)
		return ret;
	d->ieq_registered = true;
	d->qi_valid = ism_pci_cmd_query_info(&d->cmd, &d->qi) == 0;
	if (d->qi_valid)
		ISM_PMD_LOG(DEBUG, "%s: QUERY_INFO version %u max_len %u "
			    "state 0x%" PRIx64 " gid 0x%016" PRIx64 " ieq_len "
			    "%u vlans %u", name, d->qi.version, d->qi.max_len,
			    d->qi.state, d->qi.my_gid, d->qi.ieq_len,
			    d->qi.vlan_nr_ids);
	else
		ISM_PMD_LOG(WARNING, "%s: QUERY_INFO failed; going on "
			    "without it, as Linux does", name);
	ret = ism_pci_cmd_read_gid(&d->cmd, &d->gid);
	if (ret < 0)
		return ret;
	if (d->gid == 0) {
		ISM_PMD_LOG(ERR, "%s: the function has GID 0", name);
		return -EIO;
	}
	return 0;
}

int
ism_pci_dev_create(const char *name, struct rte_device *device, int socket_id,
		const struct ism_pci_platform *platform,
		const struct ism_pci_config *cfg)
{
	struct ism_pci_dev *d;
	struct rte_ism_dev *ism;
	int ret;

	if (name == NULL || platform == NULL || cfg == NULL ||
	    platform->io.ops == NULL) {
		ISM_PMD_LOG(ERR, "%s: incomplete PCI platform",
			    name != NULL ? name : "?");
		return -EINVAL;
	}
	if (platform->maxstbl != 0 &&
	    (platform->maxstbl < ISM_PCI_STORE_MIN ||
	     platform->maxstbl > ISM_PCI_STORE_MAX)) {
		ISM_PMD_LOG(ERR, "%s: store blocks of up to %u bytes: the "
			    "backend needs %u to %u", name, platform->maxstbl,
			    ISM_PCI_STORE_MIN, ISM_PCI_STORE_MAX);
		return -ENOTSUP;
	}
	/* A token needs a bit above those of the request (0-27). */
	if (platform->bar0_size != 0 &&
	    ((platform->bar0_size & (platform->bar0_size - 1)) != 0 ||
	     platform->bar0_size < ISM_PCI_BAR_DATA_MIN ||
	     platform->bar0_size > ISM_PCI_BAR_DATA_SIZE)) {
		ISM_PMD_LOG(ERR, "%s: BAR 0 of 0x%" PRIx64 " bytes: the "
			    "backend needs a power of two from 0x%" PRIx64
			    " to 0x%" PRIx64, name, platform->bar0_size,
			    ISM_PCI_BAR_DATA_MIN, ISM_PCI_BAR_DATA_SIZE);
		return -ENOTSUP;
	}
	if (platform->dma_window != NULL &&
	    platform->dma_window->start > platform->dma_window->end) {
		ISM_PMD_LOG(ERR, "%s: empty DMA window 0x%" PRIx64 "-0x%"
			    PRIx64, name, platform->dma_window->start,
			    platform->dma_window->end);
		return -EINVAL;
	}
	if (cfg->max_dmbs > ISM_PCI_MAX_DMBS) {
		ISM_PMD_LOG(ERR, "%s: max_dmbs %u above the device's %u", name,
			    cfg->max_dmbs, ISM_PCI_MAX_DMBS);
		return -ERANGE;
	}
	if (cfg->max_dmb_len > ISM_PCI_DMB_MAX_LEN) {
		ISM_PMD_LOG(ERR, "%s: max_dmb_len %u above the device's %u",
			    name, cfg->max_dmb_len, ISM_PCI_DMB_MAX_LEN);
		return -ERANGE;
	}
	d = (struct ism_pci_dev *)ism_pmd_create(name, socket_id, device,
			cfg->driver_name, &pci_backend, sizeof(*d));
	if (d == NULL)
		return -rte_errno;
	d->plat = *platform;
	d->store_max = platform->maxstbl != 0 ? platform->maxstbl :
		ISM_PCI_STORE_MAX;
	d->token_bad = ISM_PCI_REQ_MASK | ~((platform->bar0_size != 0 ?
		platform->bar0_size : ISM_PCI_BAR_DATA_SIZE) - 1);
	d->max_dmbs = cfg->max_dmbs != 0 ? cfg->max_dmbs : ISM_PCI_MAX_DMBS;
	ism_sw_idx_init(&d->idx_set, d->max_dmbs);
	/* The words holding the bits of every index a DMB can have here. */
	d->sba_words = (RTE_ISM_DMB_IDX_FIRST + d->max_dmbs + 31) / 32;
	d->max_dmb_len = cfg->max_dmb_len != 0 ? cfg->max_dmb_len :
		ISM_PCI_DMB_MAX_LEN;
	d->ieq_idx = -1;
	rte_spinlock_init(&d->ieq_lock);
	pthread_mutex_init(&d->ctl_lock, NULL);
	ism_pci_cmd_init(&d->cmd, &d->plat.io, d->common.ism->name);
	d->dmbs = rte_zmalloc_socket("ism_pci_dmbs", sizeof(*d->dmbs) *
			(RTE_ISM_DMB_IDX_FIRST + d->max_dmbs), 0, socket_id);
	/* Before the interrupt is on: its handler reads the wake-up. A
	 * device without it only has no interrupt mode.
	 */
	if (platform->intr != NULL)
		ism_wake_init(&d->wake, name, socket_id, NULL);
	ret = d->dmbs == NULL ? -ENOMEM : pci_bring_up(d, socket_id);
	if (ret < 0)
		goto err;

	ism = d->common.ism;
	ism->gid.gid = d->gid;
	ism->gid.gid_ext = 0;
	ism->chid = platform->chid;
	ism->max_dmbs = d->max_dmbs;
	ism->max_dmb_len = d->max_dmb_len;
	/* No nocopy: the device copies, peers may be in other machines. */
	ism->capa = RTE_ISM_CAPA_VLAN | RTE_ISM_CAPA_SIGNAL_EVENT |
		RTE_ISM_CAPA_HW | platform->capa;
	/* Waiting needs the function's interrupt. */
	if (d->irq_enabled && d->wake.intr != NULL)
		ism->capa |= RTE_ISM_CAPA_INTR;
	ism->fp.move_data = ism_pci_move_data;
	ism->fp.move_burst = ism_pci_move_burst;
	ism->fp.signal_poll = ism_pci_signal_poll;
	ret = ism_pmd_finish(&d->common);
	if (ret < 0)
		goto err;
	ISM_PMD_LOG(INFO, "%s: ISM PCI function, ISM device %u, gid 0x%016"
		    PRIx64 ", chid 0x%04x, %u DMBs of up to %u bytes, store "
		    "blocks of up to %u bytes, interrupt %s", name, ism->dev_id,
		    d->gid, ism->chid, d->max_dmbs, d->max_dmb_len,
		    d->store_max, d->irq_enabled ? "on" : "off");
	return 0;
err:
	ISM_PMD_LOG(ERR, "%s: cannot bring up the ISM PCI function: %s", name,
		    strerror(-ret));
	ism_pmd_destroy(&d->common);
	return ret;
}

int
ism_pci_dev_destroy(const char *name)
{
	struct rte_ism_dev *ism = rte_ism_pmd_get_named_dev(name);
	struct ism_pmd_dev *dev = ism != NULL ? ism->dev_private : NULL;

	if (dev == NULL || dev->be != &pci_backend)
		return -ENODEV;
	ism_pmd_destroy(dev);
	return 0;
}
