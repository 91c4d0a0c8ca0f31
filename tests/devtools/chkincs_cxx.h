/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * For devtools/check-headers.sh's selftest: a header that C takes and
 * C++ refuses (malloc()'s void * converted without a cast).
 */

#ifndef CHKINCS_CXX_H
#define CHKINCS_CXX_H

#include <stdlib.h>

static inline int *
chkincs_cxx_alloc(void)
{
	int *p = malloc(sizeof(*p));

	return p;
}

#endif
