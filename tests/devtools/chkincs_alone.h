/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * For devtools/check-headers.sh's selftest: a header that does not
 * compile on its own (uint32_t without <stdint.h>).
 */

#ifndef CHKINCS_ALONE_H
#define CHKINCS_ALONE_H

struct chkincs_alone {
	uint32_t word;
};

#endif
