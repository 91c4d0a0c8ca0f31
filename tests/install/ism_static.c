/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Linked with the installed static librte_ism.a: the library alone. */

#include <stdio.h>

#include <rte_ism.h>

#include "test_assert.h"

static int
library_alone(void)
{
	struct rte_ism_gid g;
	char s[RTE_ISM_GID_STRLEN];

	TEST_ASSERT_SUCCESS(rte_ism_gid_parse("0x1234", &g), "gid_parse");
	TEST_ASSERT_SUCCESS(rte_ism_gid_format(&g, s, sizeof(s)),
			    "gid_format");
	TEST_ASSERT_EQUAL(rte_ism_dev_count(), 0, "devices without EAL");
	printf("static librte_ism: %s\n", s);
	return TEST_SUCCESS;
}

int
main(void)
{
	return library_alone() == TEST_SUCCESS ? 0 : 1;
}
