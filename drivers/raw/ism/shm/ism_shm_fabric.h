/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_FABRIC_H
#define ISM_SHM_FABRIC_H

/*
 * The rendezvous directory of a fabric (ism_shm_fabric.c): sockets and
 * claims, joining and leaving, stale names, the reaper. Layer 4 (see
 * ism_shm.h). Knows no connection: it hands connected fds up.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <rte_ism.h>

#include "ism_shm_msg.h"
#include "ism_shm_policy.h"

#define ISM_SHM_NO_SLOT		0xff

struct ism_shm_fabric {
	const char *name;		/* the device's, for logs */
	struct ism_shm_policy *pol;	/* who may be a peer */
	struct rte_ism_gid gid;
	uint16_t chid;
	uint8_t slot;			/* ISM_SHM_NO_SLOT until joined */
	char dir[108];
	int dirfd;
	char sock_name[64];	/* own socket, relative to dir */
	dev_t sock_dev;
	ino_t sock_ino;
	pid_t reaper_pid;	/* unlinks our socket if we are killed */
	int reaper_fd;		/* its pipe; EOF says "we are gone" */
	uint64_t reap_slots;	/* sockets of vanished peers to remove */
	struct rte_ism_gid reap_gid[SHM_MAX_SLOTS];
	uint64_t reap_retry_ns;	/* the directory was locked: retry then */
};

/* A live device found when joining, connected to. */
struct ism_shm_fabric_peer {
	int fd;
	uint8_t slot;
	struct rte_ism_gid gid;
	pid_t pid;
};

void ism_shm_fabric_init(struct ism_shm_fabric *f, const char *name,
		struct ism_shm_policy *pol, const struct rte_ism_gid *gid,
		uint16_t chid);
/* Open (create) the directory and check it against the policy; sets the
 * default CHID unless chid_set.
 */
int ism_shm_fabric_open(struct ism_shm_fabric *f, const char *dir,
		bool chid_set);
/* Connect to every live device (fp[SHM_MAX_SLOTS], *n), claim a slot and
 * our GID, bind the listening socket (*lfd), start the reaper.
 */
int ism_shm_fabric_join(struct ism_shm_fabric *f,
		struct ism_shm_fabric_peer *fp, unsigned int *n, int *lfd);
/* Remove our names, stop the reaper, close the directory. */
void ism_shm_fabric_leave(struct ism_shm_fabric *f);
/* After a peer vanished: unlink its socket and claims if nobody listens
 * there. Never waits for the directory's lock: retried by
 * ism_shm_fabric_tick().
 */
void ism_shm_fabric_reap(struct ism_shm_fabric *f, uint8_t slot,
		const struct rte_ism_gid *gid);
/* Reaps that found the directory locked; the next deadline. */
uint64_t ism_shm_fabric_tick(struct ism_shm_fabric *f, uint64_t now);
/* Is the socket of (slot, gid) claimed for it and held by the process
 * pid (pid_ino: its pidfs inode, 0 if unknown)?
 */
bool ism_shm_fabric_verify(struct ism_shm_fabric *f, uint8_t slot,
		const struct rte_ism_gid *gid, pid_t pid, uint64_t pid_ino);
/* Connect to the device (slot, gid) again: the fd (*pid: its pid), or
 * -errno: -ECONNREFUSED (gone: reaped), -EAGAIN (its backlog is full),
 * -EACCES (not claimed for it, or the policy refuses it).
 */
int ism_shm_fabric_connect(struct ism_shm_fabric *f, uint8_t slot,
		const struct rte_ism_gid *gid, pid_t *pid);

#endif /* ISM_SHM_FABRIC_H */
