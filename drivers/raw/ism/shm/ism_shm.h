/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_H
#define ISM_SHM_H

/*
 * The shm backend (vdev "ism_shm"): ISM devices in different processes of
 * one host, or containers that share a directory. Devices whose devarg
 * dir= names the same directory (and that have the same CHID) form a
 * fabric. doc/guides/rawdevs/ism_shm.rst says what it does and why.
 *
 * Memory: each DMB is its own sealed memfd, mapped by its owner and passed
 * (SCM_RIGHTS) only to the peer whose GID is its rgid. Every peer also
 * learns that the DMB exists (token, index, rgid, no fd), so a writer that
 * is not the rgid gets -EACCES like on the other backends. Each receiver
 * creates one software SBA per writer peer and passes it to that peer
 * only; a writer raises signals there, so a rogue writer can disturb only
 * signals of DMBs it may write anyway.
 *
 * Layers, lowest first: a file calls only into its own layer and the
 * ones below, never up (devtools/check-layers.py checks it, suite lint).
 * What a lower layer must hand up (a message received, a connection
 * that ended or was accepted, work due at a deadline) it hands to a
 * function the higher one registered with it (struct ism_shm_conn_ops,
 * struct ism_shm_ticker, a watch's fn).
 *   0  ism_shm_reaper
 *   1  ism_shm_msg ism_shm_mem
 *   2  ism_shm_loop
 *   3  ism_shm_policy ism_shm_event
 *   4  ism_shm_fabric
 *   5  ism_shm_conn
 *   6  ism_shm_peer ism_shm_dev ism_shm_wake
 *   7  ism_shm_ops
 *   8  ism_shm ism_shm_probe
 *
 *   ism_shm_reaper  a program of its own that the device starts: removes
 *                   the socket and claims of a killed process
 *   ism_shm_msg     the wire format and its parser (libc only)
 *   ism_shm_mem     sealed memfds
 *   ism_shm_loop    the control thread: its lock, epoll, tickers, the
 *                   bound on its work per turn
 *   ism_shm_policy  who may be a peer; which process a connection is
 *   ism_shm_event   events for the client: never lose a peer's arrival
 *                   or departure, summarise DMB events when it lags
 *   ism_shm_fabric  the rendezvous directory: sockets, claims, stale
 *                   names, joining, the reaper
 *   ism_shm_conn    the transport: connections, send queues, answers,
 *                   accepting, waiting for answers
 *   ism_shm_peer    the protocol: handshakes, DMB tables, departures,
 *                   connecting again; ism_shm_dev.h: the device it keeps
 *   ism_shm_wake    the interrupt mode: armed flags, WAKE, its ops
 *   ism_shm_ops     the control ops (register, attach, signal_event...)
 *   ism_shm         the fast path, xstats, setting up and closing a device
 *   ism_shm_probe   the vdev glue: devargs, probe, remove
 */

#include <stdbool.h>
#include <stdint.h>

#include "ism_pmd.h"
#include "ism_shm_dev.h"
#include "ism_shm_policy.h"

/* What a device is made of (its devargs). */
struct ism_shm_args {
	struct ism_common_args common;
	bool chid_set;
	const char *dir;
	uint32_t allow_uid[ISM_SHM_MAX_ALLOW];
	uint32_t allow_gid[ISM_SHM_MAX_ALLOW];
	unsigned int nb_allow_uid;
	unsigned int nb_allow_gid;
};

extern const struct ism_backend ism_shm_backend;
/* Set up d (from ism_pmd_create()): join the fabric of a->dir, greet
 * every device there, fill the ISM device. 0 or -errno (logged); on
 * error the caller destroys d (ism_shm_backend.close undoes it).
 */
int ism_shm_dev_setup(struct ism_shm_dev *d, const struct ism_shm_args *a);

#endif /* ISM_SHM_H */
