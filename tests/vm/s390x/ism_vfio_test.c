/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * An ISM function driven from user space through vfio-pci, next to one
 * that Linux's own ism driver runs, in the s390x test guest (static, no
 * DPDK). The register layouts are ISM's command protocol as our guide
 * doc/guides/rawdevs/ism_pci.rst describes it; nothing here comes from the
 * driver's headers.
 *
 *   ism_vfio_test BDF PEER_GID
 *
 * BDF is the function bound to vfio-pci, PEER_GID the GID of the function
 * Linux's ism driver runs (SMC-D on top of it). Steps, one line each:
 *
 * 1. vfio set-up: container, group, type1 IOMMU, the device, its regions
 *    (BAR 0 the data window, BAR 2 the command window), bus master on, the
 *    one MSI to an eventfd; the SBA, the IEQ and one DMB mapped for DMA.
 * 2. REG_SBA, REG_IEQ, READ_GID, QUERY_INFO, ADD_VLAN_ID(0x1FFF) (the
 *    commands Linux's driver issues at probe), QUERY_RGID of the peer.
 * 3. A DMB for our own GID; one store block into it through BAR 0 (the
 *    region offset is the DMB request: token | idx << 24 | sf << 23 |
 *    offset); the bytes in the DMB, its SBA bit and the MSI.
 * 4. The peer's SMC answers a TESTLINK request (a software event, code
 *    0x83, sent with SIGNAL_IEQ) with a TESTLINK response to our GID
 *    (net/smc/smc_ism.c, smcd_handle_sw_event()): our SIGNAL_IEQ reaches
 *    Linux's driver (its interrupt, its IEQ), SMC's answer reaches ours
 *    (our MSI, our IEQ).
 * 5. UNREG_DMB, UNREG_IEQ, UNREG_SBA.
 *
 * Prints "ISM_VFIO PASS" and exits 0 only if every step did what it
 * should.
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/pci_regs.h>
#include <linux/vfio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* ISM's commands (the guide's command table). */
#define CMD_REG_SBA		0x01
#define CMD_REG_IEQ		0x02
#define CMD_READ_GID		0x03
#define CMD_ADD_VLAN_ID		0x04
#define CMD_DEL_VLAN_ID		0x05
#define CMD_QUERY_INFO		0x08
#define CMD_QUERY_RGID		0x09
#define CMD_REG_DMB		0x0a
#define CMD_UNREG_DMB		0x0b
#define CMD_SIGNAL_IEQ		0x0e
#define CMD_UNREG_SBA		0x11
#define CMD_UNREG_IEQ		0x12
#define HDR_LEN			8
#define RET_NONE		0xffff

#define SBA_LEN			4096
#define IEQ_LEN			512
#define IEQ_ENTRIES		15
#define IEQ_HDR_LEN		32
#define IEQ_ENTRY_LEN		32
#define DMB_LEN			65536
#define DMB_IDX			32	/* the first index a driver may use */
#define VLAN_V2_PROBE		0x1fff
/* Software events of SMC (net/smc/smc_ism.c). */
#define EV_TYPE_SWR		2
#define SMC_EV_TESTLINK		0x83
#define SMC_EV_REQUEST		1
#define SMC_EV_RESPONSE		2

static int fails;

#define CHECK(cond, ...) do { \
	if (!(cond)) { \
		printf("ISM_VFIO FAIL "); \
		printf(__VA_ARGS__); \
		printf("\n"); \
		fails++; \
	} \
} while (0)

static void
put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint16_t
get16(const volatile uint8_t *p)
{
	return (uint16_t)p[0] << 8 | p[1];
}

static uint32_t
get32(const volatile uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t
get64(const volatile uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

struct fn {
	int container, group, dev, efd;
	uint64_t bar0_off, bar0_size, bar2_off, cfg_off;
	uint64_t iova;
	volatile uint8_t *sba, *ieq, *dmb;
	uint64_t sba_iova, ieq_iova, dmb_iova;
	int ieq_seen;	/* entries consumed, the driver's private index */
	uint64_t gid;
};

static int
region(struct fn *f, unsigned int index, uint64_t *off, uint64_t *size)
{
	struct vfio_region_info ri = { .argsz = sizeof(ri), .index = index };

	if (ioctl(f->dev, VFIO_DEVICE_GET_REGION_INFO, &ri) < 0)
		return -errno;
	*off = ri.offset;
	*size = ri.size;
	printf("ISM_VFIO region %u size=0x%" PRIx64 " offset=0x%" PRIx64
	       " flags=0x%x\n", index, (uint64_t)ri.size,
	       (uint64_t)ri.offset, ri.flags);
	return 0;
}

/* The lowest usable IOVA the IOMMU reports (s390: the function's DMA
 * aperture starts above 0). */
static uint64_t
iova_base(struct fn *f)
{
	struct vfio_iommu_type1_info *info;
	struct vfio_info_cap_header *cap;
	uint64_t base = 0x100000000ULL;
	uint32_t argsz = sizeof(*info);

	info = calloc(1, argsz);
	info->argsz = argsz;
	if (ioctl(f->container, VFIO_IOMMU_GET_INFO, info) < 0)
		goto out;
	if (info->argsz > argsz) {
		argsz = info->argsz;
		info = realloc(info, argsz);
		memset(info, 0, argsz);
		info->argsz = argsz;
		if (ioctl(f->container, VFIO_IOMMU_GET_INFO, info) < 0)
			goto out;
	}
	if (!(info->flags & VFIO_IOMMU_INFO_CAPS) || !info->cap_offset)
		goto out;
	for (cap = (void *)((char *)info + info->cap_offset);;
	     cap = (void *)((char *)info + cap->next)) {
		if (cap->id == VFIO_IOMMU_TYPE1_INFO_CAP_IOVA_RANGE) {
			struct vfio_iommu_type1_info_cap_iova_range *r =
				(void *)cap;

			if (r->nr_iovas > 0) {
				base = r->iova_ranges[0].start;
				printf("ISM_VFIO iova range 0x%llx-0x%llx\n",
				       (unsigned long long)base,
				       (unsigned long long)
				       r->iova_ranges[0].end);
			}
			break;
		}
		if (!cap->next)
			break;
	}
out:
	free(info);
	/* 1 MiB aligned, above 0 */
	base = (base + 0xfffff) & ~0xfffffULL;
	return base ? base : 0x100000;
}

static volatile uint8_t *
dma_alloc(struct fn *f, size_t len, uint64_t *iova)
{
	struct vfio_iommu_type1_dma_map map = { .argsz = sizeof(map) };
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, len);
	/* Each buffer at an IOVA aligned to its size. */
	f->iova = (f->iova + len - 1) & ~((uint64_t)len - 1);
	map.vaddr = (uintptr_t)p;
	map.size = len;
	map.iova = f->iova;
	map.flags = VFIO_DMA_MAP_FLAG_READ | VFIO_DMA_MAP_FLAG_WRITE;
	if (ioctl(f->container, VFIO_IOMMU_MAP_DMA, &map) < 0) {
		printf("ISM_VFIO MAP_DMA 0x%zx at 0x%" PRIx64 ": %s\n", len,
		       f->iova, strerror(errno));
		munmap(p, len);
		return NULL;
	}
	*iova = f->iova;
	f->iova += len;
	return p;
}

static int
cfg_rw(struct fn *f, int write, unsigned int off, void *buf, size_t len)
{
	ssize_t n = write ? pwrite(f->dev, buf, len, f->cfg_off + off) :
		pread(f->dev, buf, len, f->cfg_off + off);

	return n == (ssize_t)len ? 0 : -1;
}

/*
 * One command: the body at BAR 2 offset 8, then the header at 0 (its last
 * byte runs it), the response header from 0, its body from 8. Returns the
 * response's ret; resp holds the whole response.
 */
static int
cmd(struct fn *f, const uint8_t *req, uint16_t len, uint8_t *resp,
    uint16_t resp_max)
{
	uint16_t rlen;

	if (len > HDR_LEN &&
	    pwrite(f->dev, req + HDR_LEN, len - HDR_LEN,
		   f->bar2_off + HDR_LEN) != len - HDR_LEN)
		return -1;
	if (pwrite(f->dev, req, HDR_LEN, f->bar2_off) != HDR_LEN)
		return -1;
	if (pread(f->dev, resp, HDR_LEN, f->bar2_off) != HDR_LEN)
		return -1;
	if (get16(resp + 4) != 0)
		return get16(resp + 4);
	rlen = get16(resp + 6);
	if (rlen > resp_max)
		rlen = resp_max;
	if (rlen > HDR_LEN &&
	    pread(f->dev, resp + HDR_LEN, rlen - HDR_LEN,
		  f->bar2_off + HDR_LEN) != rlen - HDR_LEN)
		return -1;
	return 0;
}

static int
cmd_simple(struct fn *f, uint32_t code, uint8_t *resp, uint16_t resp_max)
{
	uint8_t req[HDR_LEN] = { 0 };

	put32(req, code);
	put16(req + 6, HDR_LEN);
	return cmd(f, req, HDR_LEN, resp, resp_max);
}

static int
cmd_u64(struct fn *f, uint32_t code, uint64_t v)
{
	uint8_t req[16] = { 0 }, resp[16];

	put32(req, code);
	put16(req + 6, sizeof(req));
	put64(req + 8, v);
	return cmd(f, req, sizeof(req), resp, sizeof(resp));
}

/* Waits up to ms for the MSI; returns the count read (0: none). */
static uint64_t
wait_irq(struct fn *f, int ms)
{
	struct pollfd p = { .fd = f->efd, .events = POLLIN };
	uint64_t n = 0;

	if (poll(&p, 1, ms) == 1 && read(f->efd, &n, sizeof(n)) != sizeof(n))
		n = 0;
	return n;
}

/* The next unread IEQ entry, as Linux's driver consumes them. */
static int
ieq_next(struct fn *f, uint32_t *type, uint32_t *code, uint64_t *tok,
	 uint64_t *info)
{
	uint64_t idx = get64(f->ieq);
	const volatile uint8_t *e;

	/* The device's index is the last written slot + 1 (1..15). */
	if ((uint64_t)(f->ieq_seen + 1) == idx)
		return 0;
	if (++f->ieq_seen == IEQ_ENTRIES)
		f->ieq_seen = 0;
	e = f->ieq + IEQ_HDR_LEN + f->ieq_seen * IEQ_ENTRY_LEN;
	*type = get32(e);
	*code = get32(e + 4);
	*tok = get64(e + 8);
	*info = get64(e + 24);
	return 1;
}

static int
setup(struct fn *f, const char *bdf)
{
	char path[PATH_MAX], link[PATH_MAX];
	struct vfio_group_status gs = { .argsz = sizeof(gs) };
	struct vfio_irq_info ii = { .argsz = sizeof(ii) };
	struct {
		struct vfio_irq_set s;
		int32_t fd;
	} irq;
	uint64_t size;
	ssize_t n;
	const char *g;
	unsigned int index = VFIO_PCI_MSI_IRQ_INDEX;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/iommu_group",
		 bdf);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0) {
		printf("ISM_VFIO no iommu group for %s\n", bdf);
		return -1;
	}
	link[n] = 0;
	g = strrchr(link, '/') + 1;
	snprintf(path, sizeof(path), "/dev/vfio/%s", g);
	f->container = open("/dev/vfio/vfio", O_RDWR);
	f->group = open(path, O_RDWR);
	if (f->container < 0 || f->group < 0) {
		printf("ISM_VFIO open %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (ioctl(f->group, VFIO_GROUP_GET_STATUS, &gs) < 0 ||
	    !(gs.flags & VFIO_GROUP_FLAGS_VIABLE) ||
	    ioctl(f->group, VFIO_GROUP_SET_CONTAINER, &f->container) < 0 ||
	    ioctl(f->container, VFIO_SET_IOMMU, VFIO_TYPE1v2_IOMMU) < 0) {
		printf("ISM_VFIO group %s set-up: %s\n", g, strerror(errno));
		return -1;
	}
	f->dev = ioctl(f->group, VFIO_GROUP_GET_DEVICE_FD, bdf);
	if (f->dev < 0) {
		printf("ISM_VFIO device %s: %s\n", bdf, strerror(errno));
		return -1;
	}
	printf("ISM_VFIO device %s group %s\n", bdf, g);
	if (region(f, VFIO_PCI_CONFIG_REGION_INDEX, &f->cfg_off, &size) ||
	    region(f, VFIO_PCI_BAR0_REGION_INDEX, &f->bar0_off,
		   &f->bar0_size) ||
	    region(f, VFIO_PCI_BAR2_REGION_INDEX, &f->bar2_off, &size))
		return -1;
	/* Config space is little-endian. */
	{
		uint8_t id[4];

		if (cfg_rw(f, 0, PCI_VENDOR_ID, id, 4))
			return -1;
		printf("ISM_VFIO ids %02x%02x:%02x%02x\n", id[1], id[0], id[3],
		       id[2]);
		CHECK(id[1] == 0x10 && id[0] == 0x14 && id[3] == 0x04 &&
		      id[2] == 0xed, "not an ISM function");
	}
	{
		uint8_t c[2];

		if (cfg_rw(f, 0, PCI_COMMAND, c, 2))
			return -1;
		c[0] |= PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
		if (cfg_rw(f, 1, PCI_COMMAND, c, 2))
			return -1;
	}
	f->iova = iova_base(f);
	f->sba = dma_alloc(f, SBA_LEN, &f->sba_iova);
	f->ieq = dma_alloc(f, 4096, &f->ieq_iova);
	f->dmb = dma_alloc(f, DMB_LEN, &f->dmb_iova);
	if (!f->sba || !f->ieq || !f->dmb)
		return -1;
	f->ieq_seen = -1;
	/* The one MSI (MSI-X if the function has no MSI), to an eventfd. */
	ii.index = index;
	if (ioctl(f->dev, VFIO_DEVICE_GET_IRQ_INFO, &ii) < 0 || !ii.count) {
		index = VFIO_PCI_MSIX_IRQ_INDEX;
		ii.index = index;
		if (ioctl(f->dev, VFIO_DEVICE_GET_IRQ_INFO, &ii) < 0 ||
		    !ii.count) {
			printf("ISM_VFIO no MSI\n");
			return -1;
		}
	}
	f->efd = eventfd(0, EFD_CLOEXEC);
	memset(&irq, 0, sizeof(irq));
	irq.s.argsz = sizeof(irq);
	irq.s.flags = VFIO_IRQ_SET_DATA_EVENTFD | VFIO_IRQ_SET_ACTION_TRIGGER;
	irq.s.index = index;
	irq.s.start = 0;
	irq.s.count = 1;
	irq.fd = f->efd;
	if (ioctl(f->dev, VFIO_DEVICE_SET_IRQS, &irq) < 0) {
		printf("ISM_VFIO SET_IRQS: %s\n", strerror(errno));
		return -1;
	}
	printf("ISM_VFIO irq %s vectors=%u sba=0x%" PRIx64 " ieq=0x%" PRIx64
	       " dmb=0x%" PRIx64 "\n", index == VFIO_PCI_MSI_IRQ_INDEX ?
	       "msi" : "msix", ii.count, f->sba_iova, f->ieq_iova,
	       f->dmb_iova);
	return 0;
}

int
main(int argc, char **argv)
{
	struct fn f;
	uint8_t req[40], resp[256];
	uint64_t peer, tok, dmb_tok, n, info, lgr = 0x5a5a0001ULL;
	uint32_t type, code;
	int rc, i, got;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3) {
		fprintf(stderr, "usage: %s BDF PEER_GID\n", argv[0]);
		return 2;
	}
	peer = strtoull(argv[2], NULL, 0);
	memset(&f, 0, sizeof(f));
	if (setup(&f, argv[1]) < 0) {
		printf("ISM_VFIO FAIL set-up\n");
		return 1;
	}

	/* 2. What Linux's driver does at probe. */
	memset(req, 0, sizeof(req));
	put32(req, CMD_REG_SBA);
	put16(req + 6, 16);
	put64(req + 8, f.sba_iova);
	rc = cmd(&f, req, 16, resp, sizeof(resp));
	printf("ISM_VFIO REG_SBA rc=0x%x\n", rc);
	CHECK(rc == 0, "REG_SBA");
	memset(req, 0, sizeof(req));
	put32(req, CMD_REG_IEQ);
	put16(req + 6, 24);
	put64(req + 8, f.ieq_iova);
	put64(req + 16, IEQ_LEN);
	rc = cmd(&f, req, 24, resp, sizeof(resp));
	printf("ISM_VFIO REG_IEQ rc=0x%x\n", rc);
	CHECK(rc == 0, "REG_IEQ");
	rc = cmd_simple(&f, CMD_READ_GID, resp, 16);
	f.gid = get64(resp + 8);
	printf("ISM_VFIO READ_GID rc=0x%x gid=0x%016" PRIx64 "\n", rc, f.gid);
	CHECK(rc == 0 && f.gid != 0 && f.gid != peer, "READ_GID");
	rc = cmd_simple(&f, CMD_QUERY_INFO, resp, 200);
	printf("ISM_VFIO QUERY_INFO rc=0x%x len=%u version=0x%x max_len=%u "
	       "my_gid=0x%016" PRIx64 " sba=0x%" PRIx64 " ieq=0x%" PRIx64
	       " ieq_len=%u\n", rc, get16(resp + 6), get32(resp + 8),
	       get32(resp + 12), get64(resp + 24), get64(resp + 32),
	       get64(resp + 40), get32(resp + 48));
	CHECK(rc == 0 && get64(resp + 24) == f.gid &&
	      get64(resp + 32) == f.sba_iova && get64(resp + 40) == f.ieq_iova,
	      "QUERY_INFO");
	rc = cmd_u64(&f, CMD_ADD_VLAN_ID, VLAN_V2_PROBE);
	printf("ISM_VFIO ADD_VLAN_ID(0x1fff) rc=0x%x\n", rc);
	memset(req, 0, sizeof(req));
	put32(req, CMD_QUERY_RGID);
	put16(req + 6, 24);
	put64(req + 8, peer);
	rc = cmd(&f, req, 24, resp, sizeof(resp));
	printf("ISM_VFIO QUERY_RGID peer=0x%016" PRIx64 " rc=0x%x\n", peer,
	       rc);
	CHECK(rc == 0, "QUERY_RGID of the peer");

	/* 3. Our own DMB, one store block into it through BAR 0. */
	memset(req, 0, sizeof(req));
	put32(req, CMD_REG_DMB);
	put16(req + 6, 40);
	put64(req + 8, f.dmb_iova);
	put32(req + 16, DMB_LEN);
	put32(req + 20, DMB_IDX);
	put64(req + 32, f.gid);
	rc = cmd(&f, req, 40, resp, sizeof(resp));
	dmb_tok = get64(resp + 8);
	printf("ISM_VFIO REG_DMB rc=0x%x token=0x%016" PRIx64 "\n", rc,
	       dmb_tok);
	CHECK(rc == 0, "REG_DMB");
	if (rc == 0) {
		uint8_t data[256];
		uint64_t dreq = dmb_tok | (uint64_t)0 << 24 | 1ULL << 23 | 4096;

		for (i = 0; i < (int)sizeof(data); i++)
			data[i] = (uint8_t)(i * 7 + 1);
		if (dreq >= f.bar0_size) {
			printf("ISM_VFIO token beyond BAR 0 (0x%" PRIx64 ")\n",
			       f.bar0_size);
			fails++;
		} else {
			n = pwrite(f.dev, data, sizeof(data),
				   f.bar0_off + dreq);
			printf("ISM_VFIO move pwrite=%" PRId64 "\n", (int64_t)n);
			CHECK(n == sizeof(data), "move_data pwrite");
		}
		n = wait_irq(&f, 5000);
		got = !memcmp((const void *)(f.dmb + 4096), data,
			      sizeof(data));
		printf("ISM_VFIO move irq=%" PRIu64 " dmb_same=%d sba_bit=%d "
		       "summary=%d\n", n, got,
		       !!(f.sba[4 + DMB_IDX / 8] & (0x80 >> (DMB_IDX % 8))),
		       !!(f.sba[0] & 0x80));
		CHECK(got, "the bytes are not in the DMB");
		CHECK(f.sba[4 + DMB_IDX / 8] & (0x80 >> (DMB_IDX % 8)),
		      "no SBA bit for the DMB");
		CHECK(n > 0, "no interrupt for the signal");
		f.sba[4 + DMB_IDX / 8] = 0;
		f.sba[0] = 0;
	}

	/* 4. TESTLINK: a request to Linux's SMC, its response to us. */
	info = lgr << 32 | SMC_EV_REQUEST;
	memset(req, 0, sizeof(req));
	put32(req, CMD_SIGNAL_IEQ);
	put16(req + 6, 32);
	put64(req + 8, peer);
	put32(req + 16, 1);
	put32(req + 20, SMC_EV_TESTLINK);
	put64(req + 24, info);
	rc = cmd(&f, req, 32, resp, sizeof(resp));
	printf("ISM_VFIO SIGNAL_IEQ testlink request rc=0x%x\n", rc);
	CHECK(rc == 0, "SIGNAL_IEQ");
	got = 0;
	for (i = 0; i < 20 && !got; i++) {
		n = wait_irq(&f, 500);
		while (ieq_next(&f, &type, &code, &tok, &info)) {
			printf("ISM_VFIO event type=%u code=0x%x tok=0x%016"
			       PRIx64 " info=0x%016" PRIx64 " irq=%" PRIu64
			       " event_bit=%d\n", type, code, tok, info, n,
			       !!(f.sba[0] & 0x40));
			if (type == EV_TYPE_SWR && code == SMC_EV_TESTLINK &&
			    tok == peer &&
			    info == (lgr << 32 | SMC_EV_RESPONSE))
				got = 1;
		}
	}
	CHECK(got, "no TESTLINK response from the peer's SMC");

	/* 5. Teardown. */
	rc = cmd_u64(&f, CMD_UNREG_DMB, dmb_tok);
	printf("ISM_VFIO UNREG_DMB rc=0x%x\n", rc);
	CHECK(rc == 0, "UNREG_DMB");
	rc = cmd_u64(&f, CMD_DEL_VLAN_ID, VLAN_V2_PROBE);
	printf("ISM_VFIO DEL_VLAN_ID(0x1fff) rc=0x%x\n", rc);
	rc = cmd_simple(&f, CMD_UNREG_IEQ, resp, 16);
	printf("ISM_VFIO UNREG_IEQ rc=0x%x\n", rc);
	CHECK(rc == 0, "UNREG_IEQ");
	rc = cmd_simple(&f, CMD_UNREG_SBA, resp, 16);
	printf("ISM_VFIO UNREG_SBA rc=0x%x\n", rc);
	CHECK(rc == 0, "UNREG_SBA");
	printf("ISM_VFIO %s\n", fails ? "FAIL" : "PASS");
	return fails ? 1 : 0;
}
