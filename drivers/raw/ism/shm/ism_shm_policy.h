/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_POLICY_H
#define ISM_SHM_POLICY_H

/*
 * Who may be a peer, and which process is at the other end of a
 * connection (ism_shm_policy.c). Layer 3 (see ism_shm.h).
 */

#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* uids and gids an allow_uid= / allow_gid= devarg may list. */
#define ISM_SHM_MAX_ALLOW	16

struct ism_shm_policy {
	const char *name;	/* the device's, for logs */
	uid_t dir_uid;		/* the directory's owner: always a peer */
	/* What an id not mapped in our user namespace reads as (never
	 * equal to an allowed id); UINT32_MAX where every id is mapped.
	 */
	uint32_t unmapped_uid;
	uint32_t unmapped_gid;
	uint32_t allow_uid[ISM_SHM_MAX_ALLOW];
	uint32_t allow_gid[ISM_SHM_MAX_ALLOW];
	unsigned int nb_allow_uid;
	unsigned int nb_allow_gid;
};

/* Parse an allow_uid= / allow_gid= value ("1000", "[1000,1001]",
 * "1000:1001") into ids[ISM_SHM_MAX_ALLOW]; the count or -EINVAL.
 */
int ism_shm_policy_parse(const char *v, uint32_t *ids);
/* Check the allowed ids against our user namespace (-EINVAL: one names
 * every unmapped id; one not mapped here: a warning).
 */
int ism_shm_policy_ids_init(struct ism_shm_policy *pol);
/* Whether the directory (real path, stat) agrees with the policy; sets
 * pol->dir_uid. 0 or -EPERM (logged).
 */
int ism_shm_policy_dir_check(struct ism_shm_policy *pol, const char *real,
		const struct stat *st);
/* Why the policy refuses a process of these credentials; NULL if it may
 * be a peer.
 */
const char *ism_shm_policy_refusal(const struct ism_shm_policy *pol,
		uid_t uid, gid_t gid);
/* The mode of our socket: others may connect if the policy may let them
 * in (it is checked on every connection).
 */
mode_t ism_shm_policy_sock_mode(const struct ism_shm_policy *pol);
/* The process at the other end of fd (pidfs inode of SO_PEERPIDFD), 0 if
 * the kernel cannot tell.
 */
uint64_t ism_shm_process_of(int fd);

#endif /* ISM_SHM_POLICY_H */
