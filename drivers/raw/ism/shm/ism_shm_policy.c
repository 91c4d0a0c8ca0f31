/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Who may be a peer (the access policy), and which process is at the
 * other end of a connection.
 *
 * The policy: the directory's owner (and our own uid) always, plus the
 * uids of allow_uid= and the (effective) gids of allow_gid=, compared
 * with the kernel's credentials of a connection (SO_PEERCRED), as the
 * user namespace of the checking side sees them. Both ends check: no
 * connection, and so no fd of a DMB, to a process it does not allow. The
 * directory's mode must agree: whoever may write it may remove or replace
 * sockets, so group or others may write it only with the sticky bit and
 * only if the policy lets them in.
 *
 * Which process: SO_PEERPIDFD (Linux 6.5) gives a pidfd of the process at
 * the other end, as of connect() or listen(); with pidfs (Linux 6.9) its
 * inode number names that process for the life of the system, in every
 * PID namespace, unlike its pid (0 for a process of a PID namespace the
 * reader cannot see).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "ism_shm.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD		77	/* Linux 6.5 */
#endif
#ifndef PIDFS_MAGIC
#define PIDFS_MAGIC		0x50494446	/* Linux 6.9 */
#endif

uint64_t
shm_peer_process(int fd)
{
	socklen_t len = sizeof(int);
	struct statfs sfs;
	struct stat st;
	uint64_t ino = 0;
	int pfd = -1;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERPIDFD, &pfd, &len) < 0 ||
	    pfd < 0)
		return 0;
	/* Before pidfs every pidfd had the same (anonymous) inode. */
	if (fstatfs(pfd, &sfs) == 0 && sfs.f_type == PIDFS_MAGIC &&
	    fstat(pfd, &st) == 0)
		ino = st.st_ino;
	close(pfd);
	return ino;
}

const char *
shm_policy_refusal(const struct shm_dev *d, uid_t uid, gid_t gid)
{
	unsigned int i;

	if (uid == d->dir_uid || uid == geteuid())
		return NULL;
	for (i = 0; i < d->nb_allow_uid; i++)
		if (uid == d->allow_uid[i])
			return NULL;
	for (i = 0; i < d->nb_allow_gid; i++)
		if (gid == d->allow_gid[i])
			return NULL;
	return d->nb_allow_uid + d->nb_allow_gid == 0 ?
		"its uid is not the directory's owner (no allow_uid= or "
		"allow_gid= devarg)" :
		"neither its uid nor its gid is allowed (allow_uid=, "
		"allow_gid=)";
}

int
shm_policy_parse(const char *v, uint32_t *ids)
{
	char buf[256], *p, *end;
	size_t len = strlen(v);
	unsigned long x;
	int n = 0;

	if (len >= 2 && v[0] == '[' && v[len - 1] == ']') {
		v++;
		len -= 2;
	}
	if (len == 0 || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, v, len);
	buf[len] = '\0';
	for (p = buf;; p = end + 1) {
		if (*p < '0' || *p > '9' || n == SHM_MAX_ALLOW)
			return -EINVAL;
		errno = 0;
		x = strtoul(p, &end, 10);
		if (errno != 0 || x >= UINT32_MAX)
			return -EINVAL;
		ids[n++] = x;
		if (*end == '\0')
			return n;
		if (*end != ',' && *end != ':')
			return -EINVAL;
	}
}

static bool
gid_allowed(const struct shm_dev *d, gid_t gid)
{
	unsigned int i;

	for (i = 0; i < d->nb_allow_gid; i++)
		if (gid == d->allow_gid[i])
			return true;
	return false;
}

int
shm_policy_dir_check(struct shm_dev *d, const char *real, const struct stat *st)
{
	bool policy = d->nb_allow_uid + d->nb_allow_gid > 0;
	mode_t mode = st->st_mode;

	if (!policy && st->st_uid != geteuid()) {
		ISM_PMD_LOG(ERR, "%s: dir=%s belongs to uid %u, not to us (uid "
			    "%u): only its owner may join unless allow_uid= or "
			    "allow_gid= says who else may", d->name, real,
			    (unsigned int)st->st_uid, (unsigned int)geteuid());
		return -EPERM;
	}
	/* Whoever may write the directory may remove or replace sockets,
	 * unless the sticky bit keeps each to its own. */
	if ((mode & (S_IWGRP | S_IWOTH)) && !(mode & S_ISVTX)) {
		ISM_PMD_LOG(ERR, "%s: dir=%s can be written by group or others "
			    "(mode %04o) without the sticky bit: they could "
			    "remove or replace a device's socket (chmod +t)",
			    d->name, real, mode & 07777);
		return -EPERM;
	}
	if ((mode & (S_IWGRP | S_IWOTH)) == S_IWGRP &&
	    !gid_allowed(d, st->st_gid)) {
		ISM_PMD_LOG(ERR, "%s: dir=%s can be written by group %u, which "
			    "allow_gid= does not list", d->name, real,
			    (unsigned int)st->st_gid);
		return -EPERM;
	}
	if ((mode & S_IWOTH) && !policy) {
		ISM_PMD_LOG(ERR, "%s: dir=%s can be written by anybody (mode "
			    "%04o) and no allow_uid= or allow_gid= says so",
			    d->name, real, mode & 07777);
		return -EPERM;
	}
	d->dir_uid = st->st_uid;
	return 0;
}
