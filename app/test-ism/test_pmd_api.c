/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The driver-facing API of lib/ism (ism_driver.h), as a driver uses it:
 * slot allocation and release. Built as driver code (internal API), with
 * the PCI protocol suite.
 */

#include <errno.h>

#include <rte_errno.h>
#include <rte_memory.h>

#include <ism_driver.h>

#include "test_ism.h"

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

static const struct test_case pmd_api_cases[] = {
	{ "slot_taken_at_allocation", test_slot_taken_at_allocation },
	{ "release_twice", test_release_twice },
	{ NULL, NULL },
};

const struct test_suite suite_pmd_api = {
	"pmd_api", pmd_api_cases, 1
};
