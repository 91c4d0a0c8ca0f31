/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Linked with the installed static librte_ism.a: the library alone. */

#include <stdio.h>

#include <rte_ism.h>

int
main(void)
{
	struct rte_ism_gid g;
	char s[RTE_ISM_GID_STRLEN];

	if (rte_ism_gid_parse("0x1234", &g) != 0 ||
	    rte_ism_gid_format(&g, s, sizeof(s)) != 0 ||
	    rte_ism_dev_count() != 0)
		return 1;
	printf("static librte_ism: %s\n", s);
	return 0;
}
