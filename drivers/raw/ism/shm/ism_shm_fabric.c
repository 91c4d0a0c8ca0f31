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
 * The name is also what proves identity: whoever listens on a socket owns
 * that slot and GID. A connecting peer's claim is checked by connecting to
 * the socket it claims and comparing the listener's pid (SO_PEERCRED) with
 * the connecting process.
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

#include "ism_shm.h"

/* "ffff-63-<32 hex>.sock" */
#define SOCK_NAME_LEN	(4 + 1 + 2 + 1 + 32 + 5)
#define LISTEN_BACKLOG	64
/* How soon a reap that found the directory locked is tried again. */
#define SHM_REAP_RETRY_MS	100

extern char **environ;

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
sock_addr(const struct shm_dev *d, const char *name, struct sockaddr_un *sa)
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
sock_connect(const struct shm_dev *d, const char *name)
{
	struct sockaddr_un sa;
	int fd, ret;

	ret = sock_addr(d, name, &sa);
	if (ret < 0)
		return ret;
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
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

static void
dir_lock(const struct shm_dev *d)
{
	while (flock(d->dirfd, LOCK_EX) < 0 && errno == EINTR)
		;
}

static void
dir_unlock(const struct shm_dev *d)
{
	flock(d->dirfd, LOCK_UN);
}

int
shm_fabric_open(struct shm_dev *d, const char *dir, bool chid_set)
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
	if (st.st_uid != geteuid()) {
		ISM_PMD_LOG(ERR, "%s: dir=%s belongs to uid %u, not to us (uid "
			    "%u)", d->name, real, (unsigned int)st.st_uid,
			    (unsigned int)geteuid());
		ret = -EPERM;
		goto refused;
	}
	if (st.st_mode & 077)
		ISM_PMD_LOG(WARNING, "%s: dir=%s is open to group or others "
			    "(mode %03o); peers of another user are refused "
			    "anyway", d->name, real, st.st_mode & 0777);
	if (strlen(real) > max) {
		ISM_PMD_LOG(ERR, "%s: dir=%s is longer than %zu characters: "
			    "socket paths would not fit in sun_path", d->name,
			    real, max);
		ret = -ENAMETOOLONG;
		goto refused;
	}
	snprintf(d->dir, sizeof(d->dir), "%s", real);
	/* Default CHID: the same for everyone in this directory, and in
	 * the range of emulated ISM (0xff00-0xfffe). */
	if (!chid_set)
		d->chid = 0xff00 + (uint16_t)(((uint64_t)st.st_ino * 0x9e3779b1u
				^ (uint64_t)st.st_dev) % 0xff);
	return 0;
refused:
	/* A directory refused is not left behind if it was ours to make
	 * (it is still empty: nothing was created in it). */
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
 * its own session, which waits on a pipe: a byte means "exit, the socket
 * is gone", end of file means "the device's process died without closing
 * it", and it then removes the socket if it still is ours (same inode).
 * posix_spawn() (vfork and exec inside libc) shares nothing with the
 * process afterwards: no copy of its memory, no shared stack, no
 * hand-written system calls.
 *
 * The program is found next to the PMD's shared object (build tree and
 * installed plugin directory alike), else at its installed path.
 */
static int
reaper_path(char *buf, size_t size)
{
	Dl_info info;
	const char *slash;

	if (dladdr((void *)(uintptr_t)reaper_path, &info) != 0 &&
	    info.dli_fname != NULL &&
	    (slash = strrchr(info.dli_fname, '/')) != NULL &&
	    (size_t)snprintf(buf, size, "%.*s/%s",
			     (int)(slash - info.dli_fname), info.dli_fname,
			     SHM_REAPER_NAME) < size &&
	    access(buf, X_OK) == 0)
		return 0;
	if ((size_t)snprintf(buf, size, "%s", SHM_REAPER_PATH) < size &&
	    access(buf, X_OK) == 0)
		return 0;
	return -ENOENT;
}

static void
reaper_start(struct shm_dev *d)
{
	char path[PATH_MAX], dev[24], ino[24];
	char *argv[] = { (char *)(uintptr_t)SHM_REAPER_NAME, d->sock_name,
			 dev, ino, d->dir, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	const char *what;
	sigset_t none;
	int p[2], ret;
	pid_t pid;

	what = "not found";
	ret = reaper_path(path, sizeof(path));
	if (ret < 0)
		goto err;
	what = "pipe";
	if (pipe2(p, O_CLOEXEC) < 0) {
		ret = -errno;
		goto err;
	}
	snprintf(dev, sizeof(dev), "%" PRIu64, (uint64_t)d->sock_dev);
	snprintf(ino, sizeof(ino), "%" PRIu64, (uint64_t)d->sock_ino);
	/* stdin: the pipe; fd 3: the directory; its own session, so that a
	 * signal to our process group does not reach it. */
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
reaper_stop(struct shm_dev *d)
{
	if (d->reaper_fd < 0)
		return;
	/* One byte: "exit, leave the socket alone" (we unlinked it). */
	if (write(d->reaper_fd, "x", 1) < 0)
		ISM_PMD_LOG(ERR, "%s: cannot stop the reaper: %s", d->name,
			    strerror(errno));
	close(d->reaper_fd);
	d->reaper_fd = -1;
	/* ECHILD if the application reaps its children itself. */
	while (waitpid(d->reaper_pid, NULL, 0) < 0 && errno == EINTR)
		;
	d->reaper_pid = 0;
}

static int
sock_listen(struct shm_dev *d)
{
	struct sockaddr_un sa;
	struct stat st;
	int fd, ret;

	sock_name(d->sock_name, sizeof(d->sock_name), d->chid, d->slot,
		  &d->gid);
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
		d->sock_name[0] = '\0';
		return ret;
	}
	if (fchmodat(d->dirfd, d->sock_name, 0600, 0) < 0 ||
	    fstatat(d->dirfd, d->sock_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
	    listen(fd, LISTEN_BACKLOG) < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: cannot set up %s: %s", d->name,
			    sa.sun_path, strerror(errno));
		unlinkat(d->dirfd, d->sock_name, 0);
		close(fd);
		d->sock_name[0] = '\0';
		return ret;
	}
	d->sock_dev = st.st_dev;
	d->sock_ino = st.st_ino;
	return fd;
}

/* Connected or not, decide about one socket of the directory. */
static int
scan_one(struct shm_dev *d, const char *name, uint64_t *used,
		struct shm_fabric_peer *fp, unsigned int *n)
{
	struct rte_ism_gid gid;
	char gs[RTE_ISM_GID_STRLEN];
	unsigned int slot;
	struct ucred cr;
	uint16_t chid;
	int fd;

	if (!sock_parse(name, &chid, &slot, &gid) || chid != d->chid)
		return 0;
	fd = sock_connect(d, name);
	if (fd == -ENOENT)
		return 0;
	if (fd == -ECONNREFUSED) {
		/* Nobody listens: a device that died. */
		if (unlinkat(d->dirfd, name, 0) == 0)
			ISM_PMD_LOG_RL(INFO, "%s: removed stale socket %s/%s",
				       d->name, d->dir, name);
		return 0;
	}
	*used |= RTE_BIT64(slot);
	if (fd < 0) {
		ISM_PMD_LOG_RL(WARNING, "%s: cannot connect to %s/%s: %s",
			       d->name, d->dir, name, strerror(-fd));
		return 0;
	}
	if (!peer_cred(fd, &cr) || cr.uid != geteuid()) {
		ISM_PMD_LOG_RL(WARNING, "%s: %s/%s is not served by our user: "
			       "ignored", d->name, d->dir, name);
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
	/* pid 0: in a PID namespace we cannot see; it could not verify
	 * our identity either (see listen_fn()). */
	if (cr.pid == 0) {
		ISM_PMD_LOG_RL(ERR, "%s: %s/%s is served by a process whose pid "
			       "is not visible from here (another PID "
			       "namespace?): ignored; all devices of a fabric "
			       "must share one PID namespace", d->name, d->dir,
			       name);
		close(fd);
		return 0;
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

int
shm_fabric_join(struct shm_dev *d, struct shm_fabric_peer *fp,
		unsigned int *n, int *lfd)
{
	uint64_t used = 0;
	struct dirent *de;
	unsigned int i;
	DIR *dp;
	int fd, ret = 0;

	*n = 0;
	*lfd = -1;
	dir_lock(d);
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
	if (used == UINT64_MAX) {
		ISM_PMD_LOG(ERR, "%s: all %d slots of fabric %s (chid 0x%04x) "
			    "are taken", d->name, SHM_MAX_SLOTS, d->dir,
			    d->chid);
		ret = -ENOSPC;
		goto out;
	}
	d->slot = rte_bsf64(~used);
	*lfd = sock_listen(d);
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
shm_fabric_leave(struct shm_dev *d)
{
	struct stat st;

	if (d->dirfd < 0)
		return;
	if (d->sock_name[0] != '\0') {
		dir_lock(d);
		if (fstatat(d->dirfd, d->sock_name, &st,
			    AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_dev == d->sock_dev && st.st_ino == d->sock_ino)
			unlinkat(d->dirfd, d->sock_name, 0);
		dir_unlock(d);
		d->sock_name[0] = '\0';
	}
	reaper_stop(d);
}

/* Remove the socket of (slot, gid) if nobody listens there; false if
 * the directory is locked (a device joining or leaving). */
static bool
reap_one(struct shm_dev *d, uint8_t slot, const struct rte_ism_gid *gid)
{
	char name[64];
	int fd;

	if (flock(d->dirfd, LOCK_EX | LOCK_NB) < 0)
		return errno != EWOULDBLOCK && errno != EINTR;
	sock_name(name, sizeof(name), d->chid, slot, gid);
	fd = sock_connect(d, name);
	if (fd >= 0)
		close(fd);	/* alive: a restarted peer */
	else if (fd == -ECONNREFUSED && unlinkat(d->dirfd, name, 0) == 0)
		ISM_PMD_LOG_RL(INFO, "%s: removed the socket of a vanished "
			       "peer: %s/%s", d->name, d->dir, name);
	dir_unlock(d);
	return true;
}

void
shm_fabric_reap(struct shm_dev *d, uint8_t slot, const struct rte_ism_gid *gid)
{
	/* Runs on the control thread: a lock held by whoever may not stop
	 * it; retried a little later instead. */
	if (reap_one(d, slot, gid))
		return;
	d->reap_slots |= RTE_BIT64(slot);
	d->reap_gid[slot] = *gid;
	if (d->reap_retry_ns == 0) {
		d->reap_retry_ns = ism_now_ns() + SHM_REAP_RETRY_MS * 1000000ULL;
		shm_loop_arm(d->reap_retry_ns);
	}
}

uint64_t
shm_fabric_tick(struct shm_dev *d, uint64_t now)
{
	uint64_t left;
	unsigned int slot;

	if (d->reap_slots == 0)
		return UINT64_MAX;
	if (now < d->reap_retry_ns)
		return d->reap_retry_ns;
	for (left = d->reap_slots; left != 0 && shm_loop_budget_left();
	     left &= left - 1) {
		slot = rte_bsf64(left);
		if (!reap_one(d, slot, &d->reap_gid[slot]))
			break;
		d->reap_slots &= ~RTE_BIT64(slot);
		shm_loop_work(1);
	}
	if (d->reap_slots == 0) {
		d->reap_retry_ns = 0;
		return UINT64_MAX;
	}
	d->reap_retry_ns = now + SHM_REAP_RETRY_MS * 1000000ULL;
	return d->reap_retry_ns;
}

bool
shm_fabric_verify(struct shm_dev *d, uint8_t slot,
		const struct rte_ism_gid *gid, pid_t pid)
{
	char name[64];
	struct ucred cr;
	bool ok;
	int fd;

	sock_name(name, sizeof(name), d->chid, slot, gid);
	fd = sock_connect(d, name);
	if (fd < 0)
		return false;
	/* pid 0 (not visible here) proves nothing, even against 0. */
	ok = peer_cred(fd, &cr) && cr.pid != 0 && cr.pid == pid &&
		cr.uid == geteuid();
	close(fd);
	return ok;
}
