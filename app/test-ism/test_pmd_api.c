/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The driver-facing API of lib/ism (ism_driver.h), as a driver uses it:
 * slot allocation and release; and a device error as a client sees it.
 * Built as driver code (internal API), with the PCI protocol suite.
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include <ism_driver.h>

#include "test_ism.h"
#include "ism_pci.h"
#include "ism_pci_model.h"

/* A slot is taken from rte_ism_pmd_allocate() on, before the device is
 * attached: a second allocation (a probe running in between) gets another
 * slot, and the name is taken too. */
static int
test_slot_taken_at_allocation(void)
{
	struct rte_ism_dev *a, *b;
	int ret = TEST_SUCCESS;

	a = rte_ism_pmd_allocate("ism_pmdapi_a", SOCKET_ID_ANY);
	TEST_ASSERT(a != NULL, "allocate: %d", rte_errno);
	b = rte_ism_pmd_allocate("ism_pmdapi_a", SOCKET_ID_ANY);
	if (b != NULL || rte_errno != EEXIST) {
		printf("    FAIL: same name allocated twice (errno %d)\n",
		       rte_errno);
		ret = TEST_FAILED;
	}
	if (b != NULL)
		rte_ism_pmd_release(b);
	b = rte_ism_pmd_allocate("ism_pmdapi_b", SOCKET_ID_ANY);
	if (b == NULL || b == a || b->dev_id == a->dev_id) {
		printf("    FAIL: second allocation %s slot %u\n",
		       b == NULL ? "failed" : "reused",
		       b == NULL ? 0 : b->dev_id);
		ret = TEST_FAILED;
	}
	if (b != NULL)
		TEST_RET(rte_ism_pmd_release(b), 0);
	TEST_RET(rte_ism_pmd_release(a), 0);
	return ret;
}

/* Releasing twice is refused and leaves every other entry alone. */
static int
test_release_twice(void)
{
	struct rte_ism_fp_ops before[RTE_ISM_MAX_DEVS];
	struct rte_ism_dev *a;

	a = rte_ism_pmd_allocate("ism_pmdapi_c", SOCKET_ID_ANY);
	TEST_ASSERT(a != NULL, "allocate: %d", rte_errno);
	TEST_RET(rte_ism_pmd_release(a), 0);
	memcpy(before, rte_ism_fp_ops, sizeof(before));
	TEST_RET(rte_ism_pmd_release(a), -EINVAL);
	TEST_ASSERT(memcmp(before, rte_ism_fp_ops, sizeof(before)) == 0,
		    "a second release changed the fast-path table");
	TEST_RET(rte_ism_pmd_release(NULL), -EINVAL);
	return TEST_SUCCESS;
}

/* A rawdev-based driver allocates in the slot of its rawdev's id. */
static int
test_allocate_id(void)
{
	struct rte_ism_dev *a, *b;
	uint16_t id = RTE_ISM_MAX_DEVS;
	int ret = TEST_SUCCESS;

	while (id-- > 0)
		if (!rte_ism_is_valid_dev(id))
			break;
	a = rte_ism_pmd_allocate_id("ism_pmdapi_id", SOCKET_ID_ANY, id);
	TEST_ASSERT(a != NULL && a->dev_id == id, "allocate_id(%u): %d", id,
		    a == NULL ? rte_errno : a->dev_id);
	b = rte_ism_pmd_allocate_id("ism_pmdapi_id2", SOCKET_ID_ANY, id);
	if (b != NULL || rte_errno != EBUSY) {
		printf("    FAIL: slot %u allocated twice (errno %d)\n", id,
		       rte_errno);
		ret = TEST_FAILED;
	}
	if (b != NULL)
		rte_ism_pmd_release(b);
	b = rte_ism_pmd_allocate_id("ism_pmdapi_id2", SOCKET_ID_ANY,
			RTE_ISM_MAX_DEVS);
	if (b != NULL || rte_errno != EINVAL) {
		printf("    FAIL: slot %d allocated (errno %d)\n",
		       RTE_ISM_MAX_DEVS, rte_errno);
		ret = TEST_FAILED;
	}
	if (b != NULL)
		rte_ism_pmd_release(b);
	TEST_RET(rte_ism_pmd_release(a), 0);
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

/* errors_device, the reason a client cannot provoke on a software
 * backend, read with rte_ism_* calls only. */
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
	struct rte_ism_dev_info info;
	struct rte_ism_stats st = { 0 };
	struct rte_ism_dmb d;
	int id, ret = TEST_FAILED, mv = 0;
	char byte = 1;

	memset(&f, 0, sizeof(f));
	TEST_RET(ism_pci_model_fn_create(name, 0x77, plat.chid, NULL, &f.fn),
		 0);
	if (ism_pci_dev_create(name, NULL, SOCKET_ID_ANY, &plat, &cfg) != 0)
		goto out_fn;
	id = rte_ism_get_dev_id(name);
	if (id < 0 || rte_ism_info_get(id, &info) != 0 ||
	    fx_register(id, 64, &info.gid, &d) != TEST_SUCCESS)
		goto out;
	f.store_errno = EIO;
	mv = rte_ism_move_data(id, d.token, 0, 1, 0, &byte, 1);
	f.store_errno = 0;
	rte_ism_dmb_unregister(id, d.token);
	if (mv == -EIO && rte_ism_stats_get(id, &st) == 0 &&
	    st.errors_device == 1 && st.errors == 1 && st.moves == 0)
		ret = TEST_SUCCESS;
	else
		printf("    FAIL: move %d, errors_device %" PRIu64 " errors %"
		       PRIu64 "\n", mv, st.errors_device, st.errors);
out:
	ism_pci_dev_destroy(name);
out_fn:
	ism_pci_model_fn_destroy(f.fn);
	return ret;
}

static const struct test_case pmd_api_cases[] = {
	{ "slot_taken_at_allocation", test_slot_taken_at_allocation },
	{ "release_twice", test_release_twice },
	{ "allocate_id", test_allocate_id },
	{ "device_error_counted", test_device_error_counted },
	{ NULL, NULL },
};

const struct test_suite suite_pmd_api = {
	"pmd_api", pmd_api_cases, 1
};
