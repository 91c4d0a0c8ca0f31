/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The ism bus's parser of the zPCI capabilities in a VFIO_DEVICE_GET_INFO
 * answer, fed answers built here the way Linux builds them
 * (drivers/vfio/pci/vfio_pci_zdev.c: ZPCI_BASE, ZPCI_GROUP version 1 or
 * 2, UTIL, PFIP, chained by offset) and broken ones. No EAL, no vfio.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <linux/vfio.h>
#include <linux/vfio_zdev.h>

#include "ism_zpci.h"
#include "test_assert.h"

struct answer {
	uint8_t buf[1024];
	size_t len;		/* bytes used */
	uint32_t *last_next;	/* where to chain the next capability */
};

static void
answer_init(struct answer *a, bool caps)
{
	struct vfio_device_info *di = (struct vfio_device_info *)a->buf;

	memset(a, 0, sizeof(*a));
	di->argsz = sizeof(a->buf);
	di->flags = VFIO_DEVICE_FLAGS_PCI | (caps ? VFIO_DEVICE_FLAGS_CAPS : 0);
	di->num_regions = 9;
	di->num_irqs = 5;
	a->len = sizeof(*di);
	a->last_next = &di->cap_offset;
}

/* Append a capability of len bytes (its header included). */
static void *
answer_add(struct answer *a, uint16_t id, uint16_t version, size_t len)
{
	struct vfio_info_cap_header *h = (void *)(a->buf + a->len);

	h->id = id;
	h->version = version;
	*a->last_next = a->len;
	a->last_next = &h->next;
	a->len += (len + 7) & ~(size_t)7;
	return h;
}

static void
add_base(struct answer *a)
{
	struct vfio_device_info_cap_zpci_base *b = answer_add(a,
			VFIO_DEVICE_INFO_CAP_ZPCI_BASE, 2, sizeof(*b));

	b->start_dma = 0x100000000ULL;
	b->end_dma = 0x1ffffffffffULL;
	b->pchid = 0x1234;
	b->vfn = 7;
	b->pft = 0x05;
	b->gid = 3;
	b->fh = 0x80000011;
}

static void
add_group(struct answer *a, uint16_t version, uint16_t imaxstbl)
{
	struct vfio_device_info_cap_zpci_group *g = answer_add(a,
			VFIO_DEVICE_INFO_CAP_ZPCI_GROUP, version,
			version >= 2 ? sizeof(*g) :
			offsetof(struct vfio_device_info_cap_zpci_group,
				 version) + 1);

	g->dasm = ~0ULL;
	g->maxstbl = 128;	/* ZPCI_MAX_WRITE_SIZE, the kernel's own */
	g->version = 1;
	if (version >= 2)
		g->imaxstbl = imaxstbl;
}

static void
add_util(struct answer *a)
{
	struct vfio_device_info_cap_zpci_util *u = answer_add(a,
			VFIO_DEVICE_INFO_CAP_ZPCI_UTIL, 1, sizeof(*u) + 64);

	u->size = 64;
	memset(u->util_str, 0xc9, 64);	/* EBCDIC */
}

static int
test_no_caps(void)
{
	struct rte_ism_bus_zpci z;
	struct answer a;

	answer_init(&a, false);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == 0 && !z.base &&
		    !z.group && z.maxstbl == 0, "no capabilities");
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, 8, &z) == -EINVAL,
		    "answer shorter than vfio_device_info");
	TEST_ASSERT(ism_zpci_caps_parse(NULL, 0, &z) == -EINVAL, "NULL answer");
	return TEST_SUCCESS;
}

static int
test_base_and_groups(void)
{
	struct rte_ism_bus_zpci z;
	struct answer a;

	/* As Linux sends them: base, group v2, util, pfip. */
	answer_init(&a, true);
	add_base(&a);
	add_group(&a, 2, 4096);
	add_util(&a);
	answer_add(&a, VFIO_DEVICE_INFO_CAP_ZPCI_PFIP, 1, 16);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == 0, "parse");
	TEST_ASSERT(z.base && z.group && z.pft == 0x05 && z.pchid == 0x1234 &&
		    z.start_dma == 0x100000000ULL &&
		    z.end_dma == 0x1ffffffffffULL,
		    "base: pft 0x%x pchid 0x%x window 0x%" PRIx64 "-0x%" PRIx64,
		    z.pft, z.pchid, z.start_dma, z.end_dma);
	TEST_ASSERT(z.maxstbl == 4096, "v2: imaxstbl, got %u", z.maxstbl);

	/* Version 1 of the group: only the kernel's maxstbl. */
	answer_init(&a, true);
	add_group(&a, 1, 0);
	add_base(&a);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == 0 && z.base &&
		    z.group && z.maxstbl == 128, "v1: maxstbl %u", z.maxstbl);

	/* Version 2 with imaxstbl 0: maxstbl. */
	answer_init(&a, true);
	add_group(&a, 2, 0);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == 0 && !z.base &&
		    z.group && z.maxstbl == 128, "v2, imaxstbl 0: %u",
		    z.maxstbl);

	/* Version 2 announced, answer cut after version 1's end. */
	answer_init(&a, true);
	add_group(&a, 2, 2048);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len - 8, &z) == 0 &&
		    z.maxstbl == 128, "v2 cut short: %u", z.maxstbl);
	return TEST_SUCCESS;
}

static int
test_malformed(void)
{
	struct vfio_device_info *di;
	struct vfio_info_cap_header *h;
	struct rte_ism_bus_zpci z;
	struct answer a;

	/* First capability beyond the answer. */
	answer_init(&a, true);
	di = (struct vfio_device_info *)a.buf;
	di->cap_offset = 2000;
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == -EINVAL && !z.base,
		    "offset beyond the answer");
	/* Inside vfio_device_info itself. */
	di->cap_offset = 8;
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == -EINVAL,
		    "offset inside the fixed part");
	/* Misaligned. */
	answer_init(&a, true);
	add_base(&a);
	di = (struct vfio_device_info *)a.buf;
	di->cap_offset += 2;
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, sizeof(a.buf), &z) == -EINVAL,
		    "misaligned offset");
	/* A loop: the capability points at itself. */
	answer_init(&a, true);
	add_base(&a);
	h = (void *)(a.buf + sizeof(*di));
	h->next = sizeof(*di);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len, &z) == -EINVAL && !z.base,
		    "loop");
	/* The base capability cut short: nothing kept. */
	answer_init(&a, true);
	add_group(&a, 2, 4096);
	add_base(&a);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, a.len - 24, &z) == -EINVAL &&
		    !z.group && z.maxstbl == 0, "base cut short");
	/* A header cut short. */
	answer_init(&a, true);
	add_base(&a);
	TEST_ASSERT(ism_zpci_caps_parse(a.buf, sizeof(*di) + 4, &z) == -EINVAL,
		    "header cut short");
	return TEST_SUCCESS;
}

int
main(void)
{
	static const struct {
		const char *name;
		int (*fn)(void);
	} tests[] = {
		{ "no_caps", test_no_caps },
		{ "base_and_groups", test_base_and_groups },
		{ "malformed", test_malformed },
	};
	unsigned int i, failed = 0;
	int ret;

	for (i = 0; i < RTE_DIM(tests); i++) {
		ret = tests[i].fn();
		printf("%s %s\n", ret == TEST_SUCCESS ? "PASS" : "FAIL",
		       tests[i].name);
		failed += ret != TEST_SUCCESS;
	}
	printf("%u of %zu tests failed\n", failed, RTE_DIM(tests));
	return failed == 0 ? 0 : 1;
}
