/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_OPS_H
#define ISM_SHM_OPS_H

/*
 * The control ops of an shm device (ism_shm_ops.c). Layer 7 (see
 * ism_shm.h).
 */

#include "ism_shm_dev.h"

extern const struct rte_ism_dev_ops ism_shm_ops;
/* The op lock (one waiting op per device), then the control lock. */
void ism_shm_op_lock(struct ism_shm_dev *d);
void ism_shm_op_unlock(struct ism_shm_dev *d);

#endif /* ISM_SHM_OPS_H */
