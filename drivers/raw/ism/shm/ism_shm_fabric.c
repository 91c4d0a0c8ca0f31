/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rendezvous directory of a fabric. Each device listens on a socket
 * named after its fabric (CHID), its slot and its GID:
 *
 *     <dir>/<chid, 4 hex>-<slot, 2 digits>-<GID, 32 hex>.sock
 *
 * Joining happens under an flock() of the directory, so the directory
 * changes one device at a time: list the sockets of our CHID, connect to
 * each live one (a socket nobody listens on any more is stale: unlink it),
 * refuse our GID if a live device has it, take the lowest free slot, bind.
 * A device that joins later therefore finds every earlier one, and exactly
 * one connection links each pair (the newcomer connects).
 *
 * A name proves nothing by itself: anybody who may write the directory
 * can bind any name, and may change the times of a socket it may connect
 * to (utimensat() needs write permission only). So a device also claims
 * its GID and its slot, each with a name of its own that only one file
 * can have at a time:
 *
 *     <dir>/<chid>-gid-<GID, 32 hex>  ->  <its socket's name>
 *     <dir>/<chid>-slot-<slot, 2 digits>  ->  <its socket's name>
 *
 * symbolic links made with symlink() (which fails if the name exists)
 * under the directory's lock, before the socket is bound. A socket is a
 * device only if both claims name it. Nobody but the claim's owner (and
 * the directory's owner) can remove or replace a claim in a sticky
 * directory, and a claim held by a live socket is never removed; so
 * while a device lives, nobody else can be believed to have its GID or
 * slot, whatever it binds or touches. A claim whose socket is gone is
 * stale: whoever may remove it does (the next device that wants that GID
 * or slot, a survivor, the reaper); one that cannot be removed keeps its
 * slot from use, or its GID from joining (said so).
 *  - an acceptor checks a connecting peer's claim the same way, and by
 *    connecting to the socket it claims and comparing the processes at
 *    both ends: their pidfds (SO_PEERPIDFD, whose pidfs inode names one
 *    process for the life of the system, Linux >= 6.9), else their pids
 *    (SO_PEERCRED), which only works in one PID namespace;
 *  - the access policy (allow_uid=, allow_gid=, the directory's owner by
 *    default) is checked on both ends with SO_PEERCRED: no connection, and
 *    therefore no fd of a DMB, to a process it does not allow.
 *
 * A process that is killed cannot unlink its socket. Survivors unlink a
 * peer's socket when its connection ends without good-bye (if nobody
 * listens there), later joiners unlink stale sockets, and for the case
 * where every process dies at once each device starts a reaper (below).
 */

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_fabric.h"
#include "ism_shm_loop.h"

/* "ffff-63-<32 hex>.sock" */
#define SOCK_NAME_LEN	(4 + 1 + 2 + 1 + 32 + 5)
#define LISTEN_BACKLOG	64
/* How soon a reap that found the directory locked is tried again. */
#define SHM_REAP_RETRY_MS	100
/* How long joining or leaving waits for the directory's lock: another
 * process may hold it forever (flock() needs only read access).
 */
#define SHM_DIR_LOCK_MS		2000

/* environ: <unistd.h> with _GNU_SOURCE (DPDK's build defines it). */

static void
sock_name(char *buf, size_t size, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid)
{
	snprintf(buf, size, "%04x-%02u-%016" PRIx64 "%016" PRIx64 ".sock",
		 chid, slot, gid->gid, gid->gid_ext);
}

static int
hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parse a socket name; false if it is not one of ours. */
static bool
sock_parse(const char *s, uint16_t *chid, unsigned int *slot,
		struct rte_ism_gid *gid)
{
	uint64_t v[3] = { 0, 0, 0 };
	static const int digits[3] = { 4, 16, 16 };
	int i, k, h;

	if (strlen(s) != SOCK_NAME_LEN || s[4] != '-' || s[7] != '-' ||
	    strcmp(s + SOCK_NAME_LEN - 5, ".sock") != 0 ||
	    s[5] < '0' || s[5] > '9' || s[6] < '0' || s[6] > '9')
		return false;
	*slot = (s[5] - '0') * 10 + (s[6] - '0');
	for (i = 0; i < 3; i++) {
		const char *p = i == 0 ? s : s + 8 + 16 * (i - 1);

		for (k = 0; k < digits[i]; k++) {
			h = hexdigit(p[k]);
			if (h < 0)
				return false;
			v[i] = v[i] << 4 | h;
		}
	}
	*chid = v[0];
	gid->gid = v[1];
	gid->gid_ext = v[2];
	return *slot < SHM_MAX_SLOTS && (gid->gid != 0 || gid->gid_ext != 0);
}

static int
sock_addr(const struct ism_shm_fabric *d, const char *name,
		struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if ((size_t)snprintf(sa->sun_path, sizeof(sa->sun_path), "%s/%s",
			     d->dir, name) >= sizeof(sa->sun_path))
		return -ENAMETOOLONG;
	return 0;
}

/* Connect to a device's socket: the fd, or -errno. */
static int
sock_connect(const struct ism_shm_fabric *d, const char *name)
{
	struct sockaddr_un sa;
	int fd, ret;

	ret = sock_addr(d, name, &sa);
	if (ret < 0)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* own-fd: a SOCK_NONBLOCK socket of ours: connect() fails with
	 * EAGAIN on a full backlog rather than waiting.
	 */
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		close(fd);
		return ret;
	}
	return fd;
}

static bool
peer_cred(int fd, struct ucred *cr)
{
	socklen_t len = sizeof(*cr);

	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cr, &len) == 0;
}

/* The names of the claims of (slot, gid), CLAIM_NAME_SIZE bytes each. */
#define CLAIM_NAME_SIZE	64

static void
claim_names(uint16_t chid, unsigned int slot, const struct rte_ism_gid *gid,
		char *gname, char *sname)
{
	snprintf(gname, CLAIM_NAME_SIZE, "%04x-gid-%016" PRIx64 "%016" PRIx64,
		 chid, gid->gid, gid->gid_ext);
	snprintf(sname, CLAIM_NAME_SIZE, "%04x-slot-%02u", chid, slot);
}

/* Whether name in the directory is a symbolic link to target. */
static bool
link_is(int dirfd, const char *name, const char *target)
{
	char buf[CLAIM_NAME_SIZE];
	ssize_t n = readlinkat(dirfd, name, buf, sizeof(buf));

	return n > 0 && (size_t)n == strlen(target) &&
		memcmp(buf, target, n) == 0;
}

/* Both claims of (slot, gid) name the socket sock: it is that device. */
static bool
claimed(const struct ism_shm_fabric *d, const char *sock, unsigned int slot,
		const struct rte_ism_gid *gid)
{
	char gname[CLAIM_NAME_SIZE], sname[CLAIM_NAME_SIZE];

	claim_names(d->chid, slot, gid, gname, sname);
	return link_is(d->dirfd, gname, sock) && link_is(d->dirfd, sname, sock);
}

/* Remove the claims of (slot, gid) that name sock: its device is gone
 * (the directory's lock held: no device claims without binding then).
 */
static void
unclaim(const struct ism_shm_fabric *d, const char *sock, unsigned int slot,
		const struct rte_ism_gid *gid)
{
	char gname[CLAIM_NAME_SIZE], sname[CLAIM_NAME_SIZE];

	claim_names(d->chid, slot, gid, gname, sname);
	if (link_is(d->dirfd, gname, sock))
		unlinkat(d->dirfd, gname, 0);
	if (link_is(d->dirfd, sname, sock))
		unlinkat(d->dirfd, sname, 0);
}

/*
 * Make the claim name point to our socket sock (the directory's lock
 * held). 0; -EEXIST if a live socket holds the claim; -EPERM if a stale
 * claim (its socket gone or dead, or not a claim at all) cannot be
 * removed: another user's in a sticky directory. *holder gets the name
 * the claim points to.
 */
static int
claim_one(const struct ism_shm_fabric *d, const char *name, const char *sock,
		char *holder)
{
	ssize_t n;
	int fd, i;

	for (i = 0; i < 4; i++) {
		if (symlinkat(sock, d->dirfd, name) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
		n = readlinkat(d->dirfd, name, holder, CLAIM_NAME_SIZE - 1);
		holder[n > 0 ? n : 0] = '\0';
		if (n > 0 && strchr(holder, '/') == NULL) {
			fd = sock_connect(d, holder);
			if (fd >= 0) {
				close(fd);
				return -EEXIST;
			}
		}
		if (unlinkat(d->dirfd, name, 0) < 0 && errno != ENOENT)
			return -EPERM;
	}
	return -EEXIST;
}

/* A claim whose socket does not exist at all: remove it if we may. */
static void
sweep_claim(const struct ism_shm_fabric *d, const char *name)
{
	char target[CLAIM_NAME_SIZE], chid[5];
	struct stat st;
	ssize_t n;

	snprintf(chid, sizeof(chid), "%04x", d->chid);
	if (strlen(name) < 10 || strncmp(name, chid, 4) != 0 ||
	    (strncmp(name + 4, "-gid-", 5) != 0 &&
	     strncmp(name + 4, "-slot-", 6) != 0))
		return;
	n = readlinkat(d->dirfd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return;
	target[n] = '\0';
	if (strchr(target, '/') == NULL &&
	    fstatat(d->dirfd, target, &st, AT_SYMLINK_NOFOLLOW) < 0 &&
	    errno == ENOENT)
		unlinkat(d->dirfd, name, 0);
}

/* The directory's lock, waited for SHM_DIR_LOCK_MS at most: false if
 * someone holds it longer.
 */
static bool
dir_lock(const struct ism_shm_fabric *d)
{
	uint64_t end = ism_now_ns() + SHM_DIR_LOCK_MS * 1000000ULL;
	struct timespec ts = { 0, 2000000 };

	while (flock(d->dirfd, LOCK_EX | LOCK_NB) < 0) {
		if (errno != EWOULDBLOCK && errno != EINTR)
			return true;	/* no lock to be had: go on */
		if (ism_now_ns() >= end)
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

static void
dir_unlock(const struct ism_shm_fabric *d)
{
	flock(d->dirfd, LOCK_UN);
}

int
ism_shm_fabric_open(struct ism_shm_fabric *d, const char *dir, bool chid_set)
{
	char real[PATH_MAX];
	struct stat st;
	size_t max = sizeof(((struct sockaddr_un *)0)->sun_path) - 2 -
		SOCK_NAME_LEN;
	bool created;
	int ret;

	created = mkdir(dir, 0700) == 0;
	if (!created && errno != EEXIST) {
		ISM_PMD_LOG(ERR, "%s: cannot create the rendezvous directory "
			    "dir=%s: %s", d->name, dir, strerror(errno));
		return -errno;
	}
	d->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0 || fstat(d->dirfd, &st) < 0 ||
	    realpath(dir, real) == NULL) {
		ISM_PMD_LOG(ERR, "%s: dir=%s is not a usable directory: %s",
			    d->name, dir, strerror(errno));
		ret = -ENOTDIR;
		goto refused;
	}
	ret = ism_shm_policy_dir_check(d->pol, real, &st);
	if (ret < 0)
		goto refused;
	if (strlen(real) > max) {
		ISM_PMD_LOG(ERR, "%s: dir=%s is longer than %zu characters: "
			    "socket paths would not fit in sun_path", d->name,
			    real, max);
		ret = -ENAMETOOLONG;
		goto refused;
	}
	snprintf(d->dir, sizeof(d->dir), "%s", real);
	/* Default CHID: the same for everyone in this directory, and in
	 * the range of emulated ISM (0xff00-0xfffe).
	 */
	if (!chid_set)
		d->chid = 0xff00 + (uint16_t)(((uint64_t)st.st_ino * 0x9e3779b1u
				^ (uint64_t)st.st_dev) % 0xff);
	return 0;
refused:
	/* A directory refused is not left behind if it was ours to make
	 * (it is still empty: nothing was created in it).
	 */
	if (created && rmdir(dir) < 0)
		ISM_PMD_LOG(WARNING, "%s: cannot remove dir=%s: %s", d->name,
			    dir, strerror(errno));
	return ret;
}

/*
 * The reaper: when every process of a fabric is killed at once, no
 * survivor removes their sockets, and a later joiner would find stale
 * ones (and remove them), but until then the directory is not clean.
 * Something must outlive the process to remove its socket: a file in a
 * directory does not vanish with its creator, and nothing that does
 * (abstract sockets, memfds) can be found by a peer in another network
 * namespace through a bind-mounted directory. So each device starts a
 * small program of its own, dpdk-ism-shm-reaper (ism_shm_reaper.c), in
 * its own session, which waits on a socket (stdin): a byte means "exit,
 * the socket is gone", end of file means "the device's process died
 * without closing it", and it then removes the socket if it still is ours (same inode).
 * posix_spawn() (vfork and exec inside libc) shares nothing with the
 * process afterwards: no copy of its memory, no shared stack, no
 * hand-written system calls.
 *
 * The program is found next to the PMD's shared object (build tree and
 * installed plugin directory alike), else at its installed path.
 *
 * A close never waits for the reaper: it inherits the CPU affinity of the
 * thread that spawned it (an lcore's: one CPU), and a process that gets no
 * CPU there, behind a busy thread, would hold the close up for seconds. The
 * close tells it to exit and goes on; a reaper that has not exited yet is
 * waited for without blocking (WNOHANG) by the next start or stop of a
 * reaper, and else by the end of the process, as any child.
 */
#define REAPERS_PENDING	64

static pthread_mutex_t reapers_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t reapers_pending[REAPERS_PENDING];

/* Reap the reapers that exited since they were told to; add pid (if not
 * 0) to those still to reap.
 */
static void
reapers_collect(pid_t pid)
{
	unsigned int i;
	pid_t *p, r;

	pthread_mutex_lock(&reapers_lock);
	for (i = 0; i < REAPERS_PENDING; i++) {
		p = &reapers_pending[i];
		if (*p == 0)
			continue;
		r = waitpid(*p, NULL, WNOHANG);
		/* ECHILD: the application reaped it itself. */
		if (r > 0 || (r < 0 && errno == ECHILD))
			*p = 0;
	}
	if (pid != 0 && waitpid(pid, NULL, WNOHANG) == 0) {
		for (i = 0; i < REAPERS_PENDING; i++)
			if (reapers_pending[i] == 0) {
				reapers_pending[i] = pid;
				break;
			}
	}
	pthread_mutex_unlock(&reapers_lock);
}

static int
reaper_path(char *buf, size_t size)
{
	Dl_info info;
	const char *slash;

	if (dladdr((void *)(uintptr_t)reaper_path, &info) != 0 &&
	    info.dli_fname != NULL) {
		slash = strrchr(info.dli_fname, '/');
		if (slash != NULL &&
		    (size_t)snprintf(buf, size, "%.*s/%s",
				     (int)(slash - info.dli_fname),
				     info.dli_fname, SHM_REAPER_NAME) < size &&
		    access(buf, X_OK) == 0)
			return 0;
	}
	if ((size_t)snprintf(buf, size, "%s", SHM_REAPER_PATH) < size &&
	    access(buf, X_OK) == 0)
		return 0;
	return -ENOENT;
}

static void
reaper_start(struct ism_shm_fabric *d)
{
	char path[PATH_MAX], dev[24], ino[24];
	char *argv[6] = { (char *)(uintptr_t)SHM_REAPER_NAME, d->sock_name,
			 dev, ino, d->dir, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	const char *what;
	sigset_t none;
	int p[2], ret;
	pid_t pid;

	reapers_collect(0);
	what = "not found";
	ret = reaper_path(path, sizeof(path));
	if (ret < 0)
		goto err;
	/*
	 * A socket, not a pipe: the byte goes with MSG_NOSIGNAL, so a reaper
	 * that is gone (killed, or never started: an exec that failed in the
	 * child, as under QEMU's user-mode emulation) is an EPIPE, not a
	 * SIGPIPE that kills the application.
	 */
	what = "socketpair";
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0) {
		ret = -errno;
		goto err;
	}
	snprintf(dev, sizeof(dev), "%" PRIu64, (uint64_t)d->sock_dev);
	snprintf(ino, sizeof(ino), "%" PRIu64, (uint64_t)d->sock_ino);
	/* stdin: the socket; fd 3: the directory; its own session, so that a
	 * signal to our process group does not reach it.
	 */
	sigemptyset(&none);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[0], 0);
	posix_spawn_file_actions_adddup2(&fa, d->dirfd, 3);
	posix_spawnattr_init(&at);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSID |
				 POSIX_SPAWN_SETSIGMASK);
	what = "posix_spawn";
	ret = -posix_spawn(&pid, path, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	close(p[0]);
	if (ret < 0) {
		close(p[1]);
		goto err;
	}
	d->reaper_pid = pid;
	d->reaper_fd = p[1];
	return;
err:
	ISM_PMD_LOG(WARNING, "%s: no reaper (%s %s: %s): if every process of "
		    "the fabric is killed, its socket stays until the next "
		    "device joins", d->name, SHM_REAPER_NAME, what,
		    strerror(-ret));
}

static void
reaper_stop(struct ism_shm_fabric *d)
{
	if (d->reaper_fd < 0)
		return;
	/* One byte: "exit, leave the socket alone" (we unlinked it). */
	if (send(d->reaper_fd, "x", 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
		ISM_PMD_LOG(ERR, "%s: cannot stop the reaper: %s", d->name,
			    strerror(errno));
	close(d->reaper_fd);
	d->reaper_fd = -1;
	/* Not waited for (see above). */
	reapers_collect(d->reaper_pid);
	d->reaper_pid = 0;
}

static int
sock_listen(struct ism_shm_fabric *d)
{
	struct sockaddr_un sa;
	struct stat st;
	mode_t mode;
	int fd, ret;

	ret = sock_addr(d, d->sock_name, &sa);
	if (ret < 0)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: bind %s: %s", d->name, sa.sun_path,
			    strerror(errno));
		close(fd);
		return ret;
	}
	/* Others may connect if the policy may let them in: it is checked
	 * on every connection.
	 */
	mode = ism_shm_policy_sock_mode(d->pol);
	if (fchmodat(d->dirfd, d->sock_name, mode, 0) < 0 ||
	    fstatat(d->dirfd, d->sock_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    listen(fd, LISTEN_BACKLOG) < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: cannot set up %s: %s", d->name,
			    sa.sun_path, strerror(errno));
		unlinkat(d->dirfd, d->sock_name, 0);
		close(fd);
		return ret;
	}
	d->sock_dev = st.st_dev;
	d->sock_ino = st.st_ino;
	return fd;
}

/* Connected or not, decide about one socket of the directory. */
static int
scan_one(struct ism_shm_fabric *d, const char *name, uint64_t *used,
		struct ism_shm_fabric_peer *fp, unsigned int *n)
{
	struct rte_ism_gid gid;
	char gs[RTE_ISM_GID_STRLEN];
	const char *why;
	unsigned int slot;
	struct ucred cr;
	uint16_t chid;
	int fd;

	if (!sock_parse(name, &chid, &slot, &gid) || chid != d->chid) {
		sweep_claim(d, name);
		return 0;
	}
	fd = sock_connect(d, name);
	if (fd == -ENOENT)
		return 0;
	if (fd == -ECONNREFUSED) {
		/* Nobody listens: a device that died. */
		if (unlinkat(d->dirfd, name, 0) == 0) {
			unclaim(d, name, slot, &gid);
			ISM_PMD_LOG_RL(INFO, "%s: removed stale socket %s/%s",
				       d->name, d->dir, name);
			return 0;
		}
		/* Another user's (sticky directory): its reaper's job. */
		*used |= RTE_BIT64(slot);
		return 0;
	}
	*used |= RTE_BIT64(slot);
	if (fd < 0) {
		ISM_PMD_LOG_RL(WARNING, "%s: cannot connect to %s/%s: %s",
			       d->name, d->dir, name, strerror(-fd));
		return 0;
	}
	if (!peer_cred(fd, &cr)) {
		close(fd);
		return 0;
	}
	why = ism_shm_policy_refusal(d->pol, cr.uid, cr.gid);
	if (why != NULL) {
		ISM_PMD_LOG_RL(WARNING, "%s: not joining %s/%s, served by uid "
			       "%u gid %u: %s", d->name, d->dir, name,
			       (unsigned int)cr.uid, (unsigned int)cr.gid,
			       why);
		close(fd);
		return 0;
	}
	if (!claimed(d, name, slot, &gid)) {
		ISM_PMD_LOG_RL(ERR, "%s: ignoring %s/%s (uid %u): its GID or "
			       "slot is not claimed for it (an impostor, or "
			       "a device of this name is still joining)",
			       d->name, d->dir, name, (unsigned int)cr.uid);
		close(fd);
		return 0;
	}
	if (rte_ism_gid_equal(&gid, &d->gid)) {
		rte_ism_gid_format(&gid, gs, sizeof(gs));
		ISM_PMD_LOG(ERR, "%s: GID %s is already used by a live device "
			    "(pid %d) in fabric %s (chid 0x%04x)", d->name, gs,
			    (int)cr.pid, d->dir, d->chid);
		close(fd);
		return -EEXIST;
	}
	if (*n == SHM_MAX_SLOTS) {
		close(fd);
		return 0;
	}
	fp[*n].fd = fd;
	fp[*n].slot = slot;
	fp[*n].gid = gid;
	fp[*n].pid = cr.pid;
	(*n)++;
	return 0;
}

/*
 * Claim a free slot and our GID, then bind (the directory's lock held).
 * A slot is free when no socket of it is live and its claim can be made.
 */
static int
claim_and_listen(struct ism_shm_fabric *d, uint64_t used)
{
	char gname[CLAIM_NAME_SIZE], sname[CLAIM_NAME_SIZE];
	char holder[CLAIM_NAME_SIZE], gs[RTE_ISM_GID_STRLEN];
	unsigned int slot;
	int ret = -ENOSPC, fd;

	for (slot = 0; slot < SHM_MAX_SLOTS; slot++) {
		if (used & RTE_BIT64(slot))
			continue;
		sock_name(d->sock_name, sizeof(d->sock_name), d->chid, slot,
			  &d->gid);
		claim_names(d->chid, slot, &d->gid, gname, sname);
		ret = claim_one(d, sname, d->sock_name, holder);
		if (ret == 0)
			break;
		if (ret != -EEXIST && ret != -EPERM)
			goto err;
		ret = -ENOSPC;
	}
	if (ret < 0) {
		ISM_PMD_LOG(ERR, "%s: all %d slots of fabric %s (chid 0x%04x) "
			    "are taken", d->name, SHM_MAX_SLOTS, d->dir,
			    d->chid);
		goto err;
	}
	d->slot = slot;
	ret = claim_one(d, gname, d->sock_name, holder);
	if (ret < 0) {
		rte_ism_gid_format(&d->gid, gs, sizeof(gs));
		if (ret == -EEXIST)
			ISM_PMD_LOG(ERR, "%s: GID %s is already used by a live "
				    "device in fabric %s (chid 0x%04x): %s/%s "
				    "names %s", d->name, gs, d->dir, d->chid,
				    d->dir, gname, holder);
		else
			ISM_PMD_LOG(ERR, "%s: GID %s is claimed by %s/%s, "
				    "which we may not remove (another user's "
				    "in a sticky directory): %s", d->name, gs,
				    d->dir, gname, strerror(-ret));
		unlinkat(d->dirfd, sname, 0);
		ret = -EEXIST;
		goto err;
	}
	fd = sock_listen(d);
	if (fd < 0) {
		unlinkat(d->dirfd, gname, 0);
		unlinkat(d->dirfd, sname, 0);
		ret = fd;
		goto err;
	}
	return fd;
err:
	d->sock_name[0] = '\0';
	d->slot = ISM_SHM_NO_SLOT;
	return ret;
}

int
ism_shm_fabric_join(struct ism_shm_fabric *d, struct ism_shm_fabric_peer *fp,
		unsigned int *n, int *lfd)
{
	uint64_t used = 0;
	struct dirent *de;
	unsigned int i;
	DIR *dp;
	int fd, ret = 0;

	*n = 0;
	*lfd = -1;
	if (!dir_lock(d)) {
		ISM_PMD_LOG(ERR, "%s: the lock of %s has been held by another "
			    "process for %d ms: not joining", d->name, d->dir,
			    SHM_DIR_LOCK_MS);
		return -EBUSY;
	}
	fd = openat(d->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dp = fd >= 0 ? fdopendir(fd) : NULL;
	if (dp == NULL) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: cannot list %s: %s", d->name, d->dir,
			    strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	while (ret == 0 && (de = readdir(dp)) != NULL)
		ret = scan_one(d, de->d_name, &used, fp, n);
	closedir(dp);
	if (ret < 0)
		goto out;
	*lfd = claim_and_listen(d, used);
	if (*lfd < 0)
		ret = *lfd;
out:
	dir_unlock(d);
	if (ret < 0) {
		for (i = 0; i < *n; i++)
			close(fp[i].fd);
		*n = 0;
		*lfd = -1;
		return ret;
	}
	reaper_start(d);
	return 0;
}

void
ism_shm_fabric_leave(struct ism_shm_fabric *d)
{
	struct stat st;
	bool locked;

	if (d->dirfd < 0)
		return;
	if (d->sock_name[0] != '\0') {
		/* Without the lock too: a joiner that sees our socket vanish
		 * meanwhile finds it stale or gone, both fine.
		 */
		locked = dir_lock(d);
		if (fstatat(d->dirfd, d->sock_name, &st,
			    AT_SYMLINK_NOFOLLOW) == 0) {
			/* Replaced: the claims are the new socket's. */
			if (st.st_dev == d->sock_dev &&
			    st.st_ino == d->sock_ino &&
			    unlinkat(d->dirfd, d->sock_name, 0) == 0)
				unclaim(d, d->sock_name, d->slot, &d->gid);
		} else if (locked) {
			unclaim(d, d->sock_name, d->slot, &d->gid);
		}
		if (locked)
			dir_unlock(d);
		d->sock_name[0] = '\0';
	}
	reaper_stop(d);
	close(d->dirfd);
	d->dirfd = -1;
}

/* Remove the socket of (slot, gid) if nobody listens there; false if
 * the directory is locked (a device joining or leaving).
 */
static bool
reap_one(struct ism_shm_fabric *d, uint8_t slot, const struct rte_ism_gid *gid)
{
	char name[64];
	int fd;

	if (flock(d->dirfd, LOCK_EX | LOCK_NB) < 0)
		return errno != EWOULDBLOCK && errno != EINTR;
	sock_name(name, sizeof(name), d->chid, slot, gid);
	fd = sock_connect(d, name);
	if (fd >= 0) {
		close(fd);	/* alive: a restarted peer */
	} else if (fd == -ECONNREFUSED && unlinkat(d->dirfd, name, 0) == 0) {
		unclaim(d, name, slot, gid);
		ISM_PMD_LOG_RL(INFO, "%s: removed the socket of a vanished "
			       "peer: %s/%s", d->name, d->dir, name);
	} else if (fd == -ENOENT) {
		unclaim(d, name, slot, gid);
	}
	dir_unlock(d);
	return true;
}

void
ism_shm_fabric_reap(struct ism_shm_fabric *d, uint8_t slot,
		const struct rte_ism_gid *gid)
{
	/* Runs on the control thread: a lock held by whoever may not stop
	 * it; retried a little later instead.
	 */
	if (reap_one(d, slot, gid))
		return;
	d->reap_slots |= RTE_BIT64(slot);
	d->reap_gid[slot] = *gid;
	if (d->reap_retry_ns == 0) {
		d->reap_retry_ns = ism_now_ns() + SHM_REAP_RETRY_MS * 1000000ULL;
		ism_shm_loop_arm(d->reap_retry_ns);
	}
}

static uint64_t
reap_tick(struct ism_shm_fabric *d, uint64_t now)
{
	uint64_t left;
	unsigned int slot;

	if (d->reap_slots == 0)
		return UINT64_MAX;
	if (now < d->reap_retry_ns)
		return d->reap_retry_ns;
	for (left = d->reap_slots; left != 0 && ism_shm_loop_budget_left();
	     left &= left - 1) {
		slot = rte_bsf64(left);
		if (!reap_one(d, slot, &d->reap_gid[slot]))
			break;
		d->reap_slots &= ~RTE_BIT64(slot);
		ism_shm_loop_work(1);
	}
	if (d->reap_slots == 0) {
		d->reap_retry_ns = 0;
		return UINT64_MAX;
	}
	d->reap_retry_ns = now + SHM_REAP_RETRY_MS * 1000000ULL;
	return d->reap_retry_ns;
}

bool
ism_shm_fabric_verify(struct ism_shm_fabric *d, uint8_t slot,
		const struct rte_ism_gid *gid, pid_t pid, uint64_t pid_ino)
{
	uint64_t ino;
	char name[64];
	struct ucred cr;
	bool ok = false;
	int fd;

	sock_name(name, sizeof(name), d->chid, slot, gid);
	if (!claimed(d, name, slot, gid))
		return false;
	fd = sock_connect(d, name);
	if (fd < 0)
		return false;
	/* The listener's credentials are those of listen(): nothing it
	 * must do for us, no wait.
	 */
	if (peer_cred(fd, &cr) &&
	    ism_shm_policy_refusal(d->pol, cr.uid, cr.gid) == NULL) {
		ino = ism_shm_process_of(fd);
		if (ino != 0 && pid_ino != 0)
			ok = ino == pid_ino;
		else	/* no pidfs: pid 0 (not visible here) proves nothing */
			ok = cr.pid != 0 && cr.pid == pid;
	}
	close(fd);
	return ok;
}

int
ism_shm_fabric_connect(struct ism_shm_fabric *d, uint8_t slot,
		const struct rte_ism_gid *gid, pid_t *pid)
{
	char name[64];
	struct ucred cr;
	int fd;

	sock_name(name, sizeof(name), d->chid, slot, gid);
	fd = sock_connect(d, name);
	if (fd == -ECONNREFUSED)	/* died */
		ism_shm_fabric_reap(d, slot, gid);
	if (fd < 0)
		return fd;
	if (!peer_cred(fd, &cr) ||
	    ism_shm_policy_refusal(d->pol, cr.uid, cr.gid) != NULL ||
	    !claimed(d, name, slot, gid)) {
		close(fd);
		return -EACCES;
	}
	*pid = cr.pid;
	return fd;
}

uint64_t
ism_shm_fabric_tick(struct ism_shm_fabric *d, uint64_t now)
{
	return reap_tick(d, now);
}

void
ism_shm_fabric_init(struct ism_shm_fabric *d, const char *name,
		struct ism_shm_policy *pol, const struct rte_ism_gid *gid,
		uint16_t chid)
{
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->pol = pol;
	d->gid = *gid;
	d->chid = chid;
	d->slot = ISM_SHM_NO_SLOT;
	d->dirfd = -1;
	d->reaper_fd = -1;
}
