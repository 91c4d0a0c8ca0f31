/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RTE_POWER_INTRINSIC_S390X_H
#define RTE_POWER_INTRINSIC_S390X_H

#include <rte_common.h>

#include "generic/rte_power_intrinsics.h"

#endif /* RTE_POWER_INTRINSIC_S390X_H */
