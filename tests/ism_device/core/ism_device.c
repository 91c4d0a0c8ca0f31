/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The emulated ISM function: functions and fabrics, tokens, events.
 *
 * Where the hardware's behaviour is not public, this emulation chooses,
 * and doc/guides/rawdevs/ism_pci_emul.rst lists the choices (marked
 * "choice" in the comments here); no test depends on one unless Linux's
 * driver does.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/random.h>

#include "ism_device_priv.h"

pthread_rwlock_t ismd_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct ismd_fabric *fabrics;

void
ismd_log(const struct ism_dev *dev, enum ism_dev_log_level level,
		const char *fmt, ...)
{
	char msg[256];
	int n;
	va_list ap;

	if (dev->ops->log == NULL)
		return;
	n = snprintf(msg, sizeof(msg), "%s: ", dev->name);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - n, fmt, ap);
	va_end(ap);
	dev->ops->log(dev->ctx, level, msg);
}

static uint64_t
rng_next(struct ismd_fabric *f)
{
	/* splitmix64 */
	uint64_t z = (f->rng += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t
seed(const void *salt)
{
	struct timespec ts;
	uint64_t s = 0;

	if (getrandom(&s, sizeof(s), GRND_NONBLOCK) == sizeof(s) && s != 0)
		return s;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 32 ^
		(uint64_t)getpid() << 16 ^ (uint64_t)(uintptr_t)salt;
}

static struct ismd_fabric *
fabric_get(const struct ism_dev *dev, uint16_t id, uint64_t bar0_size)
{
	struct ismd_fabric *f;

	for (f = fabrics; f != NULL; f = f->next)
		if (f->id == id)
			break;
	if (f != NULL) {
		/* Its tokens must lie in every writer's BAR 0. */
		if (f->bar0_size != bar0_size) {
			ismd_log(dev, ISM_DEV_LOG_INFO, "BAR 0 of 0x%" PRIx64
				 " bytes in fabric 0x%04x, whose functions "
				 "have 0x%" PRIx64, bar0_size, id,
				 f->bar0_size);
			return NULL;
		}
		return f;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return NULL;
	f->id = id;
	f->bar0_size = bar0_size;
	f->nr_values = (uint32_t)(bar0_size >> ISMD_TOKEN_SHIFT);
	f->busy = calloc((f->nr_values + 63) / 64, sizeof(uint64_t));
	f->fifo_cap = f->nr_values / 4;
	if (f->fifo_cap > 65536)
		f->fifo_cap = 65536;
	if (f->fifo_cap == 0)
		f->fifo_cap = 1;
	f->fifo = calloc(f->fifo_cap, sizeof(uint32_t));
	if (f->busy == NULL || f->fifo == NULL) {
		free(f->busy);
		free(f->fifo);
		free(f);
		return NULL;
	}
	f->busy[0] = 1;		/* value 0: token 0 is never issued */
	f->rng = seed(f);
	f->next = fabrics;
	fabrics = f;
	return f;
}

static void
fabric_put(struct ismd_fabric *f)
{
	struct ismd_fabric **pp;

	if (f->fns != NULL)
		return;
	for (pp = &fabrics; *pp != NULL; pp = &(*pp)->next)
		if (*pp == f) {
			*pp = f->next;
			break;
		}
	free(f->busy);
	free(f->fifo);
	free(f);
}

struct ism_dev *
ismd_find_gid(const struct ismd_fabric *f, uint64_t gid)
{
	struct ism_dev *d;

	for (d = f->fns; d != NULL; d = d->next)
		if (d->gid == gid)
			return d;
	return NULL;
}

bool
ismd_vlan_member(const struct ism_dev *dev, uint64_t vlan_id)
{
	return vlan_id < ISMD_NR_VLAN &&
		((dev->vlans[vlan_id / 64] >> (vlan_id % 64)) & 1);
}

bool
ismd_dma_ok(const struct ism_dev *dev, uint64_t addr, uint64_t len)
{
	if (len == 0 || addr + len - 1 < addr)
		return false;
	return dev->ops->dma_ok == NULL ||
		dev->ops->dma_ok(dev->ctx, addr, len);
}

/* Choice: event time stamps are microseconds of CLOCK_REALTIME. */
static uint64_t
now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/*
 * The entry, then the header index (its slot + 1, 1..15, as Linux's
 * consumer expects: it reads up to idx - 1), then E, then the interrupt.
 * Like the hardware, entries not consumed yet are overwritten. Choice: an
 * event of a function without both SBA and IEQ registered is dropped
 * (Linux: the device only raises interrupts while both are registered).
 */
void
ismd_post(struct ism_dev *dev, uint32_t type, uint32_t code, uint64_t tok,
		uint64_t info)
{
	uint8_t e[ISMD_IEQ_ENTRY], idx[8];
	uint32_t slot = dev->ieq_next;
	uint8_t old;

	if (!dev->ieq_on || !dev->sba_on)
		return;
	ismd_put32(e, type);
	ismd_put32(e + 4, code);
	ismd_put64(e + 8, tok);
	ismd_put64(e + 16, now_us());
	ismd_put64(e + 24, info);
	ismd_put64(idx, slot + 1);
	if (dev->ops->dma_write(dev->ctx, dev->ieq + 32 + slot * ISMD_IEQ_ENTRY,
				e, sizeof(e)) < 0 ||
	    dev->ops->dma_write(dev->ctx, dev->ieq, idx, sizeof(idx)) < 0 ||
	    dev->ops->dma_or8(dev->ctx, dev->sba, ISMD_SBA_E, &old) < 0) {
		ismd_log(dev, ISM_DEV_LOG_GUEST_ERROR, "event 0x%x/0x%x lost: "
			 "DMA to the IEQ or SBA failed", type, code);
		return;
	}
	dev->ieq_next = (slot + 1) % ISMD_IEQ_NR;
	dev->ops->irq(dev->ctx, ISM_DEV_IRQ_EVENT);
}

static uint32_t
token_value(uint64_t token)
{
	return (uint32_t)(token >> ISMD_TOKEN_SHIFT);
}

static unsigned int
token_hash(uint64_t token)
{
	return token_value(token) % ISMD_HASH;
}

static bool
busy(const struct ismd_fabric *f, uint32_t v)
{
	return (f->busy[v / 64] >> (v % 64)) & 1;
}

static void
set_busy(struct ismd_fabric *f, uint32_t v, bool on)
{
	if (on)
		f->busy[v / 64] |= UINT64_C(1) << (v % 64);
	else
		f->busy[v / 64] &= ~(UINT64_C(1) << (v % 64));
}

/* A value neither in use nor waiting, from a random start; 0 if none. */
static uint32_t
token_draw(struct ismd_fabric *f)
{
	uint32_t n = f->nr_values, v = (uint32_t)(rng_next(f) % n), i;

	for (i = 0; i < n; i++, v = (v + 1) % n)
		if (!busy(f, v))
			return v;
	return 0;
}

uint64_t
ismd_token_new(struct ism_dev *dev, struct ismd_dmb *dmb)
{
	struct ismd_fabric *f = dev->fabric;
	uint32_t v = token_draw(f);
	unsigned int h;

	if (v == 0 && f->fifo_len > 0) {
		/* Nothing else left: the value freed longest ago. */
		v = f->fifo[f->fifo_head];
		f->fifo_head = (f->fifo_head + 1) % f->fifo_cap;
		f->fifo_len--;
	}
	if (v == 0)
		return 0;
	set_busy(f, v, true);
	dmb->token = (uint64_t)v << ISMD_TOKEN_SHIFT;
	if (dev->quirks & ISM_DEV_Q_TOK20)
		dmb->token |= ISMD_TOKEN_BITS_20_22;
	h = token_hash(dmb->token);
	dmb->hnext = f->hash[h];
	f->hash[h] = dmb;
	return dmb->token;
}

void
ismd_token_free(struct ism_dev *dev, struct ismd_dmb *dmb)
{
	struct ismd_fabric *f = dev->fabric;
	struct ismd_dmb **pp;
	uint32_t v = token_value(dmb->token);

	for (pp = &f->hash[token_hash(dmb->token)]; *pp != NULL;
	     pp = &(*pp)->hnext)
		if (*pp == dmb) {
			*pp = dmb->hnext;
			break;
		}
	dmb->hnext = NULL;
	/* Wait in the FIFO; the oldest waiting one becomes free. */
	if (f->fifo_len == f->fifo_cap) {
		set_busy(f, f->fifo[f->fifo_head], false);
		f->fifo_head = (f->fifo_head + 1) % f->fifo_cap;
		f->fifo_len--;
	}
	f->fifo[(f->fifo_head + f->fifo_len) % f->fifo_cap] = v;
	f->fifo_len++;
}

struct ismd_dmb *
ismd_token_find(const struct ismd_fabric *f, uint64_t token)
{
	struct ismd_dmb *d;

	for (d = f->hash[token_hash(token)]; d != NULL; d = d->hnext)
		if (d->token == token)
			return d;
	return NULL;
}

/*
 * Choice: the writer is told (BUF 0x04) unless it is the owner itself,
 * which knows.
 */
void
ismd_dmb_drop(struct ism_dev *dev, struct ismd_dmb *dmb)
{
	uint64_t token = dmb->token;
	uint64_t rgid = dmb->rgid;
	struct ism_dev *writer;

	ismd_token_free(dev, dmb);
	memset(dmb, 0, sizeof(*dmb));
	dev->nr_dmbs--;
	writer = ismd_find_gid(dev->fabric, rgid);
	if (writer != NULL && writer != dev)
		ismd_post(writer, ISMD_EV_BUF, ISMD_EV_DMB_UNREGISTERED, token,
			  0);
}

int
ism_dev_create(const struct ism_dev_config *cfg,
		const struct ism_dev_ops *ops, void *ctx, struct ism_dev **out)
{
	uint64_t bar0 = cfg->bar0_size ? cfg->bar0_size : ISM_DEV_BAR0_SIZE_HW;
	struct ismd_fabric *f;
	struct ism_dev *dev;
	uint64_t gid = cfg->gid;
	int ret = 0;

	if (ops == NULL || ops->dma_read == NULL || ops->dma_write == NULL ||
	    ops->dma_or8 == NULL || ops->irq == NULL || out == NULL ||
	    (bar0 & (bar0 - 1)) != 0 || bar0 < ISM_DEV_BAR0_SIZE_MIN ||
	    bar0 > ISM_DEV_BAR0_SIZE_HW || (cfg->quirks & ~ISM_DEV_Q_ALL) ||
	    (cfg->transport != ISM_DEV_XPORT_BLOCKS &&
	     cfg->transport != ISM_DEV_XPORT_PIECES) ||
	    (cfg->maxstbl != 0 &&
	     (cfg->maxstbl < 8 || cfg->maxstbl > ISMD_STORE_MAX)))
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL)
		return -ENOMEM;
	snprintf(dev->name, sizeof(dev->name), "%s",
		 cfg->name ? cfg->name : "ism");
	dev->quirks = cfg->quirks;
	dev->transport = cfg->transport;
	dev->maxstbl = cfg->maxstbl ? cfg->maxstbl : ISMD_STORE_MAX;
	dev->ops = ops;
	dev->ctx = ctx;
	dev->body_end = ISMD_HDR_LEN;

	pthread_rwlock_wrlock(&ismd_lock);
	f = fabric_get(dev, cfg->fabric, bar0);
	if (f == NULL) {
		ret = -EINVAL;
		goto out;
	}
	while (gid == 0 || (cfg->gid == 0 && ismd_find_gid(f, gid) != NULL))
		gid = rng_next(f);
	if (ismd_find_gid(f, gid) != NULL) {
		fabric_put(f);
		ret = -EEXIST;
		goto out;
	}
	dev->gid = gid;
	dev->fabric = f;
	dev->next = f->fns;
	f->fns = dev;
out:
	pthread_rwlock_unlock(&ismd_lock);
	if (ret < 0)
		free(dev);
	else
		*out = dev;
	return ret;
}

/* Everything of dev dropped; the others told. Under the lock. */
static void
reset_locked(struct ism_dev *dev)
{
	struct ismd_fabric *f = dev->fabric;
	struct ismd_dmb *dmb;
	struct ism_dev *o;
	unsigned int i;

	for (i = ISMD_IDX_FIRST; i < ISMD_NR_IDX; i++)
		if (dev->dmbs[i].token != 0)
			ismd_dmb_drop(dev, &dev->dmbs[i]);
	for (o = f->fns; o != NULL; o = o->next) {
		if (o == dev)
			continue;
		for (i = ISMD_IDX_FIRST; i < ISMD_NR_IDX; i++) {
			dmb = &o->dmbs[i];
			if (dmb->token != 0 && dmb->rgid == dev->gid)
				ismd_post(o, ISMD_EV_BUF,
					  ISMD_EV_USER_DISABLED, dmb->token, 0);
		}
		ismd_post(o, ISMD_EV_DEV, ISMD_EV_GID_DISABLED, dev->gid, 0);
	}
	if (dev->sba_on && dev->ops->irq_arm != NULL)
		dev->ops->irq_arm(dev->ctx, false);
	dev->sba_on = false;
	dev->ieq_on = false;
	dev->sba = 0;
	dev->ieq = 0;
	dev->ieq_next = 0;
	dev->vlan_required = false;
	memset(dev->vlans, 0, sizeof(dev->vlans));
	memset(dev->window, 0, sizeof(dev->window));
	dev->body_end = ISMD_HDR_LEN;
}

void
ism_dev_reset(struct ism_dev *dev)
{
	pthread_rwlock_wrlock(&ismd_lock);
	reset_locked(dev);
	pthread_rwlock_unlock(&ismd_lock);
}

void
ism_dev_destroy(struct ism_dev *dev)
{
	struct ismd_fabric *f;
	struct ism_dev **pp;

	if (dev == NULL)
		return;
	pthread_rwlock_wrlock(&ismd_lock);
	reset_locked(dev);
	f = dev->fabric;
	for (pp = &f->fns; *pp != NULL; pp = &(*pp)->next)
		if (*pp == dev) {
			*pp = dev->next;
			break;
		}
	fabric_put(f);
	pthread_rwlock_unlock(&ismd_lock);
	free(dev);
}

uint64_t
ism_dev_gid(const struct ism_dev *dev)
{
	return dev->gid;
}

uint64_t
ism_dev_bar0_size(const struct ism_dev *dev)
{
	return dev->fabric->bar0_size;
}
