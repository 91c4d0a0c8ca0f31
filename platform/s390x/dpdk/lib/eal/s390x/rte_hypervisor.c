/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <stdio.h>
#include <string.h>

#include <eal_export.h>

#include "rte_hypervisor.h"

/*
 * Linux on s390 describes the configuration it runs in, level by level, in
 * /proc/sysinfo (arch/s390/kernel/sysinfo.c): an LPAR has no "VM00" lines;
 * under a hypervisor the innermost level's control program is named in
 * "VM00 Control Program: <name>", e.g. "KVM/Linux" or "z/VM    7.3.0".
 */
RTE_EXPORT_SYMBOL(rte_hypervisor_get)
enum rte_hypervisor
rte_hypervisor_get(void)
{
	enum rte_hypervisor hv = RTE_HYPERVISOR_NONE;
	char line[256];
	FILE *f;

	f = fopen("/proc/sysinfo", "r");
	if (f == NULL)
		return RTE_HYPERVISOR_UNKNOWN;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "VM00 Control Program:", 21) != 0)
			continue;
		hv = strstr(line, "KVM") != NULL ? RTE_HYPERVISOR_KVM :
			RTE_HYPERVISOR_UNKNOWN;
		break;
	}
	fclose(f);
	return hv;
}
