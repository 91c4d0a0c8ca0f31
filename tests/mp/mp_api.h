/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef MP_API_H
#define MP_API_H

#include <stdint.h>

/* Call every function of rte_ism.h on device id of the primary (mp_api.c);
 * 0 if each did what a secondary process may expect, else 1. */
int mp_api_check(uint16_t id);

#endif /* MP_API_H */
