/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-shm-reaper: removes the socket of an shm device whose process
 * was killed (see ism_shm_fabric.c, which starts one per device).
 *
 *   dpdk-ism-shm-reaper SOCKET DEV INODE DIR
 *
 * stdin: a socket whose other end only the device's process holds; fd 3:
 * the rendezvous directory. A byte on it: the device closed and removed
 * its socket itself, exit. End of file: the process is gone; under the
 * directory's lock (as devices join and leave), remove SOCKET if it still
 * is the device's (device and inode numbers DEV, INODE; a device that took
 * its place has another inode), and the claims of its GID and slot that
 * name it (symbolic links "<chid>-gid-<GID>" and "<chid>-slot-<slot>", see
 * ism_shm_fabric.c) unless another socket took its name. DIR is for ps(1)
 * only.
 *
 * Only SIGKILL ends it early (every other signal is blocked): a socket
 * left then is removed by the next device that joins the fabric.
 *
 * It may run on every CPU the process may use: it inherits the affinity of
 * the thread that started it (an lcore's, one CPU), where a busy thread
 * would leave it no time.
 */

/* Inside DPDK's tree, its project arguments define it already. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_FD		3
/* How long it tries to take the directory's lock: 100 x 100 ms. */
#define LOCK_TRIES	100
#define LOCK_WAIT_US	100000

static int
parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno != 0 || *s == '\0' || *end != '\0' ? -1 : 0;
}

/* Close every fd above DIR_FD: the application's fds that lacked
 * O_CLOEXEC would otherwise live as long as this process.
 */
static void
close_others(void)
{
	long fd, max;

	if (close_range(DIR_FD + 1, ~0U, 0) == 0)
		return;
	max = sysconf(_SC_OPEN_MAX);
	for (fd = DIR_FD + 1; fd < max; fd++)
		close(fd);
}

/* Any CPU (the kernel keeps those of the cpuset). */
static void
unpin(void)
{
	cpu_set_t all;
	int i;

	CPU_ZERO(&all);
	for (i = 0; i < CPU_SETSIZE; i++)
		CPU_SET(i, &all);
	sched_setaffinity(0, sizeof(all), &all);
}

static int
lock_dir(void)
{
	int i;

	for (i = 0; i < LOCK_TRIES; i++) {
		if (flock(DIR_FD, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return -1;
		usleep(LOCK_WAIT_US);
	}
	return -1;
}

/* Remove the claim name if it names sock. */
static void
unclaim_one(const char *name, const char *sock)
{
	char target[64];
	ssize_t n = readlinkat(DIR_FD, name, target, sizeof(target));

	if (n > 0 && (size_t)n == strlen(sock) && memcmp(target, sock, n) == 0)
		unlinkat(DIR_FD, name, 0);
}

/* The claims of "cccc-NN-<32 hex>.sock": "cccc-gid-<32 hex>" and
 * "cccc-slot-NN".
 */
static void
unclaim(const char *sock)
{
	char name[64];

	if (strlen(sock) != 45)
		return;
	snprintf(name, sizeof(name), "%.4s-gid-%.32s", sock, sock + 8);
	unclaim_one(name, sock);
	snprintf(name, sizeof(name), "%.4s-slot-%.2s", sock, sock + 5);
	unclaim_one(name, sock);
}

int
main(int argc, char **argv)
{
	uint64_t dev, ino;
	struct stat st;
	sigset_t all;
	ssize_t n;
	char c;

	if (argc != 5 || strchr(argv[1], '/') != NULL ||
	    parse_u64(argv[2], &dev) < 0 || parse_u64(argv[3], &ino) < 0) {
		fprintf(stderr, "usage: %s SOCKET DEV INODE DIR (started by "
			"the ism_shm PMD)\n", argv[0]);
		return 2;
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	close_others();
	unpin();
	do {
		/* own-fd: the reaper waits here on purpose, on a socket
		 * whose other end only its device holds.
		 */
		n = read(STDIN_FILENO, &c, 1);
	} while (n < 0 && errno == EINTR);
	if (n == 1)
		return 0;
	if (lock_dir() < 0) {
		fprintf(stderr, "%s: cannot lock %s: %s/%s left in place\n",
			argv[0], argv[4], argv[4], argv[1]);
		return 1;
	}
	if (fstatat(DIR_FD, argv[1], &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			unclaim(argv[1]);
	} else if ((uint64_t)st.st_dev == dev && (uint64_t)st.st_ino == ino &&
		   unlinkat(DIR_FD, argv[1], 0) == 0) {
		unclaim(argv[1]);
	}
	return 0;
}
