/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The driver-facing API of lib/ism (ism_driver.h), as a driver uses it:
 * id allocation and release, the private area; and a device error as a
 * client sees it.
 * Built as driver code (internal API), with the PCI protocol suite.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include <rte_bus_vdev.h>
#include <rte_errno.h>
#include <rte_memory.h>

#include <ism_driver.h>

#include "test_ism.h"
#include "ism_pci.h"
#include "ism_pci_model.h"

/* The allocations of test_slot_taken_at_allocation() after a's. */
static int
allocations_after(struct rte_ism_dev *a)
{
	struct rte_ism_dev *b;
	uint16_t id;
	bool same;
	int err;

	b = rte_ism_pmd_allocate("ism_pmdapi_a", SOCKET_ID_ANY, 0);
	err = rte_errno;
	if (b != NULL)
		rte_ism_pmd_release(b);
	TEST_ASSERT_NULL(b, "the same name allocated twice");
	TEST_ASSERT_EQUAL(err, EEXIST, "rte_errno of the same name");
	b = rte_ism_pmd_allocate("ism_pmdapi_b", SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(b, "second allocation: rte_errno %d", rte_errno);
	id = b->dev_id;
	same = b == a;
	TEST_ASSERT_SUCCESS(rte_ism_pmd_release(b), "release the second");
	TEST_ASSERT(!same, "the second allocation got the first's device");
	TEST_ASSERT_NOT_EQUAL(id, a->dev_id, "slot of the second allocation");
	return TEST_SUCCESS;
}

/* A slot is taken from rte_ism_pmd_allocate() on, before the device is
 * attached: a second allocation (a probe running in between) gets another
 * slot, and the name is taken too.
 */
static int
test_slot_taken_at_allocation(void)
{
	struct rte_ism_dev *a;
	int ret;

	a = rte_ism_pmd_allocate("ism_pmdapi_a", SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(a, "allocate: rte_errno %d", rte_errno);
	ret = allocations_after(a);
	TEST_ASSERT_SUCCESS(rte_ism_pmd_release(a), "release");
	return ret;
}

/* Releasing twice is refused and leaves every other entry alone. */
static int
test_release_twice(void)
{
	struct rte_ism_fp_ops before[RTE_ISM_MAX_DEVS];
	struct rte_ism_dev *a;

	a = rte_ism_pmd_allocate("ism_pmdapi_c", SOCKET_ID_ANY, 0);
	TEST_ASSERT_NOT_NULL(a, "allocate: rte_errno %d", rte_errno);
	TEST_ASSERT_SUCCESS(rte_ism_pmd_release(a), "release");
	memcpy(before, rte_ism_fp_ops, sizeof(before));
	TEST_ASSERT_EQUAL(rte_ism_pmd_release(a), -EINVAL, "second release");
	TEST_ASSERT(memcmp(before, rte_ism_fp_ops, sizeof(before)) == 0,
		    "a second release changed the fast-path table");
	TEST_ASSERT_EQUAL(rte_ism_pmd_release(NULL), -EINVAL, "NULL");
	return TEST_SUCCESS;
}

/*
 * The library owns the private area (zeroed, of the size asked, found
 * from the name as a bus remove finds it), and a device's serial: an id
 * freed and taken again names a device with another serial.
 */
static int
test_private_area(void)
{
	struct rte_ism_dev *a, *b;
	const uint8_t *p;
	uint64_t serial, serial2;
	uint16_t id, id2;
	size_t i;
	int err;

	a = rte_ism_pmd_allocate("ism_pmdapi_priv", SOCKET_ID_ANY, 1000);
	TEST_ASSERT_NOT_NULL(a, "allocate: rte_errno %d", rte_errno);
	p = a->dev_private;
	for (i = 0; p != NULL && i < 1000 && p[i] == 0; i++)
		;
	id = a->dev_id;
	serial = a->serial;
	b = rte_ism_pmd_get_named_dev("ism_pmdapi_priv");
	TEST_ASSERT_SUCCESS(rte_ism_pmd_release(a), "release");
	TEST_ASSERT(p != NULL && i == 1000, "private area not zeroed (%zu)",
		    i);
	TEST_ASSERT(b == a, "named lookup of an allocated device");
	TEST_ASSERT(serial != 0, "serial 0");
	TEST_ASSERT_NULL(rte_ism_pmd_get_named_dev("ism_pmdapi_priv"),
			 "named lookup after the release");
	/* The first free id: the one just freed, under another serial. */
	a = rte_ism_pmd_allocate("ism_pmdapi_priv2", SOCKET_ID_ANY, 8);
	TEST_ASSERT_NOT_NULL(a, "allocate: rte_errno %d", rte_errno);
	id2 = a->dev_id;
	serial2 = a->serial;
	TEST_ASSERT_SUCCESS(rte_ism_pmd_release(a), "release");
	TEST_ASSERT(id2 == id && serial2 != serial, "id %u serial %" PRIu64
		    " taken again: id %u serial %" PRIu64, id, serial, id2,
		    serial2);
	/* Secondary processes attach; a primary allocates. */
	a = rte_ism_pmd_attach_secondary("ism_pmdapi_priv2");
	err = rte_errno;
	TEST_ASSERT_NULL(a, "attach_secondary in the primary");
	TEST_ASSERT_EQUAL(err, E_RTE_SECONDARY, "rte_errno of attach");
	return TEST_SUCCESS;
}

/* What test_ids_full() takes, released on every path. */
struct fillers {
	struct rte_ism_dev *dev[RTE_ISM_MAX_DEVS];
	unsigned int n;
};

static void
fillers_release(struct fillers *f)
{
	while (f->n > 0)
		rte_ism_pmd_release(f->dev[--f->n]);
}

/* test_ids_full() with the fillers in f. */
static int
ids_full(struct fillers *f)
{
	const char *last = "ism_lo_full";
	char name[RTE_ISM_NAME_LEN];
	int ret;

	/* Allocated, never probed: they take ids and nothing else. */
	for (;;) {
		snprintf(name, sizeof(name), "ism_pmdapi_fill%u", f->n);
		f->dev[f->n] = rte_ism_pmd_allocate(name, SOCKET_ID_ANY, 0);
		if (f->dev[f->n] == NULL)
			break;
		f->n++;
	}
	TEST_ASSERT_EQUAL(rte_errno, ENOSPC, "the allocation after the last "
			  "free id");
	ret = rte_vdev_init(last, "max_dmbs=1");
	if (ret == 0)
		rte_vdev_uninit(last);
	TEST_ASSERT_EQUAL(ret, -ENOSPC, "probe with every id taken");
	TEST_ASSERT_NULL(rte_ism_pmd_get_named_dev(last), "left by the probe");
	/* The id was what was missing. */
	rte_ism_pmd_release(f->dev[--f->n]);
	ret = rte_vdev_init(last, "max_dmbs=1");
	if (ret == 0)
		ret = rte_vdev_uninit(last);
	TEST_ASSERT_SUCCESS(ret, "probe with an id free");
	return TEST_SUCCESS;
}

/*
 * With every ISM device id taken, a probe fails with -ENOSPC (the reason,
 * not a blanket -ENOMEM) and leaves no device; with one id free again it
 * succeeds. The ids are librte_ism's: nothing else bounds them.
 */
static int
test_ids_full(void)
{
	struct fillers *f = calloc(1, sizeof(*f));
	int ret;

	TEST_ASSERT_NOT_NULL(f, "no memory");
	ret = ids_full(f);
	fillers_release(f);
	free(f);
	return ret;
}

/* An ISM PCI function of the model whose store blocks can be failed. */
struct failing_fn {
	struct ism_pci_model_fn *fn;
	int store_errno;
};

static int
failing_read(void *ctx, unsigned int bar, uint64_t off, void *buf,
		size_t len)
{
	return ism_pci_model_io_ops.read(((struct failing_fn *)ctx)->fn, bar,
			off, buf, len);
}

static int
failing_write(void *ctx, unsigned int bar, uint64_t off, const void *buf,
		size_t len)
{
	struct failing_fn *f = ctx;

	if (bar == 0 && f->store_errno != 0)
		return -f->store_errno;
	return ism_pci_model_io_ops.write(f->fn, bar, off, buf, len);
}

static const struct ism_pci_io_ops failing_ops = {
	.read = failing_read,
	.write = failing_write,
};

/* test_device_error_counted() on device name of function f. */
static int
device_error(const char *name, struct failing_fn *f)
{
	struct rte_ism_dev_info info;
	struct rte_ism_stats st;
	struct rte_ism_dmb d;
	char byte = 1;
	int id, mv;

	id = rte_ism_get_dev_id(name);
	TEST_ASSERT(id >= 0, "no ISM device %s: %d", name, id);
	TEST_ASSERT_SUCCESS(rte_ism_info_get(id, &info), "info_get");
	TEST_ASSERT_SUCCESS(fx_register(id, 64, &info.gid, &d),
			    "register a DMB");
	f->store_errno = EIO;
	mv = rte_ism_move_data(id, d.token, 0, 1, 0, &byte, 1);
	f->store_errno = 0;
	rte_ism_dmb_unregister(id, d.token);
	TEST_ASSERT_EQUAL(mv, -EIO, "a move whose store block fails");
	TEST_ASSERT_SUCCESS(rte_ism_stats_get(id, &st), "stats_get");
	TEST_ASSERT_EQUAL(st.errors_device, 1, "stats");
	TEST_ASSERT_EQUAL(st.errors, 1, "stats");
	TEST_ASSERT_EQUAL(st.moves, 0, "stats");
	return TEST_SUCCESS;
}

/* errors_device, the reason a client cannot provoke on a software
 * backend, read with rte_ism_* calls only.
 */
static int
test_device_error_counted(void)
{
	static struct failing_fn f;
	const char *name = "ism_pmdapi_pci";
	struct ism_pci_platform plat = {
		.io = { .ops = &failing_ops, .ctx = &f },
		.chid = 0x0abd,
	};
	struct ism_pci_config cfg = { .driver_name = "ism_pmdapi" };
	int created, ret = TEST_FAILED;

	memset(&f, 0, sizeof(f));
	TEST_ASSERT_SUCCESS(ism_pci_model_fn_create(name, 0x77, plat.chid,
						    NULL, &f.fn),
			    "model function");
	created = ism_pci_dev_create(name, NULL, SOCKET_ID_ANY, &plat, &cfg);
	if (created == 0) {
		ret = device_error(name, &f);
		ism_pci_dev_destroy(name);
	}
	ism_pci_model_fn_destroy(f.fn);
	TEST_ASSERT_SUCCESS(created, "ism_pci_dev_create");
	return ret;
}

static const struct test_case pmd_api_cases[] = {
	{ "slot_taken_at_allocation", test_slot_taken_at_allocation },
	{ "release_twice", test_release_twice },
	{ "private_area", test_private_area },
	{ "ids_full", test_ids_full },
	{ "device_error_counted", test_device_error_counted },
	{ NULL, NULL },
};

const struct test_suite suite_pmd_api = {
	"pmd_api", pmd_api_cases, 1
};
