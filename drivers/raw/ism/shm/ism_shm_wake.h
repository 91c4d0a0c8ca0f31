/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_WAKE_H
#define ISM_SHM_WAKE_H

/*
 * The interrupt mode of the shm backend (ism_shm_wake.c): our wake-up
 * channels and armed flags, the WAKE message, the ops. Layer 6 (see
 * ism_shm.h), with the protocol that calls it; under the control lock but
 * for the ops.
 */

#include <stdbool.h>
#include <stdint.h>

#include "ism_shm_dev.h"

/* Our wake-up: the channels, the flag in the tail of d->sba. */
int ism_shm_wake_init(struct ism_shm_dev *d);
void ism_shm_wake_fini(struct ism_shm_dev *d);
/* A new SBA for the peer of slot, before the peer gets it: its armed
 * flag is ours from now on; _del before it is unmapped (and closes the
 * peer's wake-up channel).
 */
void ism_shm_wake_sba_add(struct ism_shm_dev *d, uint8_t slot,
		struct ism_sw_sba *sba);
void ism_shm_wake_sba_del(struct ism_shm_dev *d, uint8_t slot,
		struct ism_sw_sba *sba);
/* sba is polled from now on (published in rx_sba[]). */
void ism_shm_wake_rx_published(struct ism_shm_dev *d,
		struct ism_sw_sba *sba);
/* A new wake-up channel for the peer, its sending end in WAKE (after
 * HELLO).
 */
int ism_shm_wake_send(struct ism_shm_peer *p);
/* The peer's WAKE: fd becomes the callee's. 0, -EMFILE (ours) or -EPROTO
 * (*why).
 */
int ism_shm_wake_on_msg(struct ism_shm_peer *p, int fd, const char **why);

/* The rte_ism_dev_ops of the interrupt mode. */
struct rte_intr_handle *ism_shm_intr_handle_get(struct rte_ism_dev *idev);
int ism_shm_intr_arm(struct rte_ism_dev *idev, bool on);
void ism_shm_intr_event(struct rte_ism_dev *idev);

#endif /* ISM_SHM_WAKE_H */
