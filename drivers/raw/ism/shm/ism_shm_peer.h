/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_PEER_H
#define ISM_SHM_PEER_H

/*
 * The shm protocol (ism_shm_peer.c): what a device does with each message
 * of a peer, the tables that result, what happens when a peer goes, and
 * the device's work on the control thread. Layer 6 (see ism_shm.h), with
 * the device it maintains (ism_shm_dev.h). Under the control lock.
 *
 * Where a new message or field goes: the wire format in ism_shm_msg.h
 * (a type before SHM_MSG_TYPE_END, its body checks in ism_shm_msg.c,
 * SHM_PROTO_VERSION raised), its handling in peer_recv() here, and its
 * sending where the protocol decides (ism_shm_peer_greet() for what a
 * peer must know from the start: a second fd of HELLO, say a socket,
 * goes with the HELLO's SBA; a later change of state as a request with
 * its ACK). State a peer shares in memory belongs next to the SBAs of
 * struct ism_shm_peer.
 */

#include <stdbool.h>
#include <stdint.h>

#include "ism_shm_dev.h"

enum ism_shm_peer_how {
	ISM_SHM_DOWN_CLOSE,	/* our device is closing */
	ISM_SHM_DOWN_BYE,	/* the peer said good-bye */
	ISM_SHM_DOWN_LOST,	/* EOF, error, protocol error, timeout */
};


/* The protocol's functions for the transport (ism_shm_conns_init()). */
extern const struct ism_shm_conn_ops ism_shm_peer_conn_ops;
/* The device's work on the control thread (its ticker's tick). */
uint64_t ism_shm_dev_tick(void *dev, uint64_t now);
/* The next request sequence number of d (never 0). */
uint32_t ism_shm_next_seq(struct ism_shm_dev *d);

/* A peer on fd, a connection we made to the device (slot, gid) of
 * process pid, greeted (HELLO, our DMBs, READY); NULL if it failed (fd
 * closed, logged).
 */
struct ism_shm_peer *ism_shm_peer_connect(struct ism_shm_dev *d, int fd,
		uint8_t slot, const struct rte_ism_gid *gid, pid_t pid);
/* The connection ends: undo everything, post events, free p. Mappings
 * of its DMBs are left to ism_shm_reclaim() unless our device closes.
 */
void ism_shm_peer_down(struct ism_shm_peer *p, enum ism_shm_peer_how how);
/* Unmap what departed peers left, within the control thread's budget
 * (all of it on another thread); true if some is left.
 */
bool ism_shm_reclaim(struct ism_shm_dev *d);
/* Send m (a request) to every peer that has our HELLO, the memfd of the
 * DMB m announces to its rgid if grant; ids[] (2 * SHM_MAX_SLOTS) gets the
 * connections to wait for (ism_shm_conn_wait_answers). Returns the seq.
 */
uint32_t ism_shm_announce(struct ism_shm_dev *d, struct shm_msg *m,
		uint64_t *ids, unsigned int *n, bool grant);
/* A peer with this GID that knows of our DMBs, or NULL. */
struct ism_shm_peer *ism_shm_peer_by_gid(struct ism_shm_dev *d,
		const struct rte_ism_gid *gid);
/* Slot whose SBA signals of a DMB for rgid arrive in, or ISM_SHM_NO_SLOT. */
uint8_t ism_shm_writer_slot(struct ism_shm_dev *d,
		const struct rte_ism_gid *rgid);
struct shm_view *ism_shm_view_new(uint32_t max_dmbs);
/* views[slot] = v (NULL: none) and fp_ent[slot] with it. */
void ism_shm_view_publish(struct ism_shm_dev *d, unsigned int slot,
		struct shm_view *v);
void ism_shm_view_free(struct shm_view *v);
/* Free an own DMB index (unmapped, fd closed); no move may use it. */
void ism_shm_own_free(struct ism_shm_dev *d, uint32_t idx);
/* Own DMB with this token (registered or still attached) or NULL. */
struct shm_own_dmb *ism_shm_own_find(struct ism_shm_dev *d, uint64_t token);
/* Orphans' memory (ism_sw_dmb.h). */
void ism_shm_mem_free(void *addr, size_t len);

#endif /* ISM_SHM_PEER_H */
