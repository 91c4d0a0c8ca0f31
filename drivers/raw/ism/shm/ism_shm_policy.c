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
 * user namespace of the checking side sees them. An id that is not mapped
 * in that namespace reads as the overflow id (kernel.overflowuid, 65534),
 * like every other unmapped id: it matches nothing (neither the
 * directory's owner, who may read as 65534 too, nor an allowed id), and a
 * policy that names the overflow id is refused. Both ends check: no
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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_policy.h"

#ifndef SO_PEERPIDFD
#define SO_PEERPIDFD		77	/* Linux 6.5 */
#endif
#ifndef PIDFS_MAGIC
#define PIDFS_MAGIC		0x50494446	/* Linux 6.9 */
#endif

uint64_t
ism_shm_process_of(int fd)
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
ism_shm_policy_refusal(const struct ism_shm_policy *d, uid_t uid, gid_t gid)
{
	bool uid_known = uid != d->unmapped_uid;
	bool gid_known = gid != d->unmapped_gid;
	unsigned int i;

	if (uid_known && (uid == d->dir_uid || uid == geteuid()))
		return NULL;
	for (i = 0; uid_known && i < d->nb_allow_uid; i++)
		if (uid == d->allow_uid[i])
			return NULL;
	for (i = 0; gid_known && i < d->nb_allow_gid; i++)
		if (gid == d->allow_gid[i])
			return NULL;
	if (!uid_known && !gid_known)
		return "neither its uid nor its gid is mapped in our user "
			"namespace";
	if (!uid_known && d->nb_allow_gid == 0)
		return "its uid is not mapped in our user namespace";
	return d->nb_allow_uid + d->nb_allow_gid == 0 ?
		"its uid is not the directory's owner (no allow_uid= or "
		"allow_gid= devarg)" :
		"neither its uid nor its gid is allowed (allow_uid=, "
		"allow_gid=)";
}

int
ism_shm_policy_parse(const char *v, uint32_t *ids)
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
		if (*p < '0' || *p > '9' || n == ISM_SHM_MAX_ALLOW)
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

/* Read one number from a file of /proc; def if it cannot be read. */
static uint32_t
read_u32(const char *path, uint32_t def)
{
	uint64_t v;
	FILE *f = fopen(path, "re");

	if (f == NULL)
		return def;
	if (fscanf(f, "%" SCNu64, &v) != 1)
		v = def;
	fclose(f);
	return v;
}

/*
 * Whether id is mapped in our user namespace (map: /proc/self/uid_map or
 * gid_map, lines "inside outside count"); *all: every id is (the initial
 * namespace, or one mapped whole).
 */
static bool
id_mapped(const char *map, uint32_t id, bool *all)
{
	uint64_t in, out, cnt, total = 0;
	bool found = false;
	FILE *f = fopen(map, "re");

	*all = f == NULL;	/* no user namespaces: one, whole */
	if (f == NULL)
		return true;
	while (fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64, &in, &out,
		      &cnt) == 3) {
		found |= id >= in && id - in < cnt;
		total += cnt;
	}
	fclose(f);
	*all = total >= UINT32_MAX;
	return found;
}

int
ism_shm_policy_ids_init(struct ism_shm_policy *d)
{
	static const char *const kind[2] = { "uid", "gid" };
	static const char *const map[2] = { "/proc/self/uid_map",
					     "/proc/self/gid_map" };
	static const char *const ovf[2] = { "/proc/sys/kernel/overflowuid",
					     "/proc/sys/kernel/overflowgid" };
	const uint32_t *ids[2] = { d->allow_uid, d->allow_gid };
	unsigned int nb[2] = { d->nb_allow_uid, d->nb_allow_gid };
	uint32_t unmapped[2];
	unsigned int k, i;
	bool all;

	for (k = 0; k < 2; k++) {
		/* Outside a namespace mapped whole, an id we cannot map
		 * reads as the overflow id: it names nobody in particular.
		 */
		id_mapped(map[k], 0, &all);
		unmapped[k] = all ? UINT32_MAX : read_u32(ovf[k], 65534);
		for (i = 0; i < nb[k]; i++) {
			if (ids[k][i] == unmapped[k]) {
				ISM_PMD_LOG(ERR, "%s: allow_%s=%u is the id "
					    "every %s not mapped in this "
					    "user namespace reads as: it "
					    "would let them all in", d->name,
					    kind[k], ids[k][i], kind[k]);
				return -EINVAL;
			}
			if (!id_mapped(map[k], ids[k][i], &all))
				ISM_PMD_LOG(WARNING, "%s: allow_%s=%u is not "
					    "mapped in this user namespace: "
					    "no peer can have it (ids are "
					    "compared as this namespace sees "
					    "them)", d->name, kind[k],
					    ids[k][i]);
		}
	}
	d->unmapped_uid = unmapped[0];
	d->unmapped_gid = unmapped[1];
	return 0;
}

static bool
gid_allowed(const struct ism_shm_policy *d, gid_t gid)
{
	unsigned int i;

	for (i = 0; i < d->nb_allow_gid; i++)
		if (gid == d->allow_gid[i])
			return true;
	return false;
}

int
ism_shm_policy_dir_check(struct ism_shm_policy *d, const char *real,
		const struct stat *st)
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
	 * unless the sticky bit keeps each to its own.
	 */
	if ((mode & 0022) && !(mode & S_ISVTX)) {
		ISM_PMD_LOG(ERR, "%s: dir=%s can be written by group or others "
			    "(mode %04o) without the sticky bit: they could "
			    "remove or replace a device's socket (chmod +t)",
			    d->name, real, mode & 07777);
		return -EPERM;
	}
	if ((mode & 0022) == 0020 &&
	    !gid_allowed(d, st->st_gid)) {
		ISM_PMD_LOG(ERR, "%s: dir=%s can be written by group %u, which "
			    "allow_gid= does not list", d->name, real,
			    (unsigned int)st->st_gid);
		return -EPERM;
	}
	if ((mode & 0002) && !policy) {
		ISM_PMD_LOG(ERR, "%s: dir=%s can be written by anybody (mode "
			    "%04o) and no allow_uid= or allow_gid= says so",
			    d->name, real, mode & 07777);
		return -EPERM;
	}
	d->dir_uid = st->st_uid;
	if (st->st_uid == d->unmapped_uid)
		ISM_PMD_LOG(WARNING, "%s: dir=%s belongs to a uid that is not "
			    "mapped in this user namespace (it reads as %u): "
			    "its owner is not a peer by default, and can "
			    "remove or replace any name in it", d->name, real,
			    (unsigned int)st->st_uid);
	else if (st->st_uid != geteuid())
		ISM_PMD_LOG(WARNING, "%s: dir=%s belongs to uid %u, not to us: "
			    "its owner is a peer, and can remove or replace "
			    "any name in it (the sticky bit does not restrict "
			    "a directory's owner)", d->name, real,
			    (unsigned int)st->st_uid);
	return 0;
}

mode_t
ism_shm_policy_sock_mode(const struct ism_shm_policy *d)
{
	return d->nb_allow_uid > 0 ? 0666 : d->nb_allow_gid > 0 ? 0660 : 0600;
}
