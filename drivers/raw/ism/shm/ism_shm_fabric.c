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
 * where every process dies at once each device starts a watchdog: a child
 * process that does nothing but wait on a pipe, and unlinks the socket (if
 * it is still ours) when the pipe says the parent is gone.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ism_shm.h"

/* "ffff-63-<32 hex>.sock" */
#define SOCK_NAME_LEN	(4 + 1 + 2 + 1 + 32 + 5)
#define LISTEN_BACKLOG	64

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

	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		ISM_PMD_LOG(ERR, "%s: cannot create the rendezvous directory "
			    "dir=%s: %s", d->name, dir, strerror(errno));
		return -errno;
	}
	d->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0 || fstat(d->dirfd, &st) < 0 ||
	    realpath(dir, real) == NULL) {
		ISM_PMD_LOG(ERR, "%s: dir=%s is not a usable directory: %s",
			    d->name, dir, strerror(errno));
		return -ENOTDIR;
	}
	if (st.st_uid != geteuid()) {
		ISM_PMD_LOG(ERR, "%s: dir=%s belongs to uid %u, not to us (uid "
			    "%u)", d->name, real, (unsigned int)st.st_uid,
			    (unsigned int)geteuid());
		return -EPERM;
	}
	if (st.st_mode & 077)
		ISM_PMD_LOG(WARNING, "%s: dir=%s is open to group or others "
			    "(mode %03o); peers of another user are refused "
			    "anyway", d->name, real, st.st_mode & 0777);
	if (strlen(real) > max) {
		ISM_PMD_LOG(ERR, "%s: dir=%s is longer than %zu characters: "
			    "socket paths would not fit in sun_path", d->name,
			    real, max);
		return -ENAMETOOLONG;
	}
	snprintf(d->dir, sizeof(d->dir), "%s", real);
	/* Default CHID: the same for everyone in this directory, and in
	 * the range of emulated ISM (0xff00-0xfffe). */
	if (!chid_set)
		d->chid = 0xff00 + (uint16_t)(((uint64_t)st.st_ino * 0x9e3779b1u
				^ (uint64_t)st.st_dev) % 0xff);
	return 0;
}

/*
 * The watchdog shares the process's memory (CLONE_VM): a fork() would keep
 * every private page of the process alive for its whole life, so each page
 * the process writes later would be copied. It runs on its own stack, with
 * a copy of the fd table that it closes at once, and makes nothing but
 * system calls: no allocation, no locks, no sanitizer state (which is per
 * thread). It also shares the thread pointer of the thread that created
 * it, so libc's syscall() would store its failures in that thread's errno
 * at any time: it enters the kernel itself (wd_sys(), -errno on failure).
 */
#define WD_STACK_SIZE	(64 * 1024)
#define WD_NO_SANITIZE	__rte_no_asan

#if defined(__x86_64__)
static __rte_always_inline long
wd_sys(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile ("syscall"
			  : "=a" (ret)
			  : "a" (nr), "D" (a), "S" (b), "d" (c), "r" (r10)
			  : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
static __rte_always_inline long
wd_sys(long nr, long a, long b, long c, long d)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;

	__asm__ volatile ("svc 0"
			  : "+r" (x0)
			  : "r" (x8), "r" (x1), "r" (x2), "r" (x3)
			  : "memory");
	return x0;
}
#else
/* Elsewhere a failing call may write that errno (-1 on failure). */
#define wd_sys(nr, a, b, c, d) syscall(nr, a, b, c, d)
#endif

/* Close every fd but a and b (and 0-2); none is at fd_max or above. */
static WD_NO_SANITIZE void
close_except(int a, int b, unsigned int fd_max)
{
	unsigned int lo = RTE_MIN(a, b), hi = RTE_MAX(a, b), fd;
	unsigned int first[3] = { 3, lo + 1, hi + 1 };
	unsigned int last[3] = { lo - 1, hi - 1, ~0U };
	int i;

	for (i = 0; i < 3; i++) {
		if (first[i] > last[i] || first[i] < 3)
			continue;
#ifdef SYS_close_range
		if (wd_sys(SYS_close_range, first[i], last[i], 0, 0) == 0)
			continue;
#endif
		for (fd = first[i]; fd <= last[i] && fd < fd_max; fd++)
			wd_sys(SYS_close, fd, 0, 0, 0);
	}
}

static WD_NO_SANITIZE int
watchdog(void *arg)
{
	const struct shm_dev *d = arg;
	uint64_t all = ~UINT64_C(0);
	struct stat st;
	char c;

	/* Own session: not killed with the parent's process group. With
	 * every signal blocked the read below is never interrupted. */
	wd_sys(SYS_setsid, 0, 0, 0, 0);
	wd_sys(SYS_rt_sigprocmask, SIG_BLOCK, (long)&all, 0, sizeof(all));
	close_except(d->wd_rfd, d->dirfd, d->wd_fd_max);
	if (wd_sys(SYS_read, d->wd_rfd, (long)&c, 1, 0) != 1) {
		/* EOF: the process died without closing the device. */
		wd_sys(SYS_flock, d->dirfd, LOCK_EX, 0, 0);
		if (wd_sys(SYS_newfstatat, d->dirfd, (long)d->sock_name,
			   (long)&st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    st.st_dev == d->sock_dev && st.st_ino == d->sock_ino)
			wd_sys(SYS_unlinkat, d->dirfd, (long)d->sock_name, 0,
			       0);
	}
	wd_sys(SYS_exit_group, 0, 0, 0, 0);
	return 0;
}

static void
watchdog_start(struct shm_dev *d)
{
	const char *what = "pipe";
	struct rlimit rl;
	int p[2];
	pid_t pid;

	/* For the watchdog's fallback close loop: the fds it inherits are
	 * below the current limit (unless it was lowered after they were
	 * opened), which raise_fd_limit() may have set far above 65536. */
	d->wd_fd_max = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		rl.rlim_cur < INT_MAX ? (unsigned int)rl.rlim_cur : INT_MAX;
	if (pipe2(p, O_CLOEXEC) < 0)
		goto err;
	what = "stack";
	d->wd_stack = mmap(NULL, WD_STACK_SIZE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (d->wd_stack == MAP_FAILED) {
		d->wd_stack = NULL;
		close(p[0]);
		close(p[1]);
		goto err;
	}
	d->wd_rfd = p[0];
	/* The kernel zeroes wd_tid when the watchdog has exited. */
	__atomic_store_n(&d->wd_tid, 1, __ATOMIC_RELEASE);
	what = "clone";
	pid = clone(watchdog, RTE_PTR_ADD(d->wd_stack, WD_STACK_SIZE),
			CLONE_VM | CLONE_CHILD_CLEARTID | SIGCHLD, d, NULL, NULL,
			&d->wd_tid);
	close(p[0]);
	if (pid < 0) {
		close(p[1]);
		munmap(d->wd_stack, WD_STACK_SIZE);
		d->wd_stack = NULL;
		goto err;
	}
	d->wd_pid = pid;
	d->wd_fd = p[1];
	return;
err:
	ISM_PMD_LOG(WARNING, "%s: no watchdog (%s: %s): a killed process "
		    "leaves its socket until a peer removes it", d->name, what,
		    strerror(errno));
}

static void
watchdog_stop(struct shm_dev *d)
{
	unsigned int i;

	if (d->wd_fd < 0)
		return;
	/* One byte: "exit, leave the socket alone" (we unlinked it). */
	if (write(d->wd_fd, "x", 1) < 0)
		ISM_PMD_LOG(ERR, "%s: cannot stop the watchdog: %s", d->name,
			    strerror(errno));
	close(d->wd_fd);
	d->wd_fd = -1;
	while (waitpid(d->wd_pid, NULL, 0) < 0 && errno == EINTR)
		;
	/* The application may reap children itself: its stack is free when
	 * the kernel has cleared wd_tid, not when waitpid() returns. */
	for (i = 0; i < 1000 && __atomic_load_n(&d->wd_tid, __ATOMIC_ACQUIRE);
	     i++)
		usleep(1000);
	if (__atomic_load_n(&d->wd_tid, __ATOMIC_ACQUIRE) == 0)
		munmap(d->wd_stack, WD_STACK_SIZE);
	else
		ISM_PMD_LOG(WARNING, "%s: watchdog %d did not exit; its stack "
			    "stays mapped", d->name, (int)d->wd_pid);
	d->wd_stack = NULL;
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
			ISM_PMD_LOG(INFO, "%s: removed stale socket %s/%s",
				    d->name, d->dir, name);
		return 0;
	}
	*used |= RTE_BIT64(slot);
	if (fd < 0) {
		ISM_PMD_LOG(WARNING, "%s: cannot connect to %s/%s: %s",
			    d->name, d->dir, name, strerror(-fd));
		return 0;
	}
	if (!peer_cred(fd, &cr) || cr.uid != geteuid()) {
		ISM_PMD_LOG(WARNING, "%s: %s/%s is not served by our user: "
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
		ISM_PMD_LOG(ERR, "%s: %s/%s is served by a process whose pid "
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
	watchdog_start(d);
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
	watchdog_stop(d);
}

void
shm_fabric_reap(struct shm_dev *d, uint8_t slot, const struct rte_ism_gid *gid)
{
	char name[64];
	int fd;

	sock_name(name, sizeof(name), d->chid, slot, gid);
	dir_lock(d);
	fd = sock_connect(d, name);
	if (fd >= 0)
		close(fd);	/* alive: a restarted peer */
	else if (fd == -ECONNREFUSED && unlinkat(d->dirfd, name, 0) == 0)
		ISM_PMD_LOG(INFO, "%s: removed the socket of a vanished peer: "
			    "%s/%s", d->name, d->dir, name);
	dir_unlock(d);
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
