/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-intr-rogue: a device of an shm fabric that abuses the file
 * descriptors its peers' interrupt mode gave it (tests/intr/
 * intr_rogue_test.py orders its phases by what it prints).
 *
 *   dpdk-ism-intr-rogue [EAL, one ism_shm device] -- [--peer GID]
 *
 * It notes its fds once EAL is up ("READY": the peers join later), so
 * that every later eventfd or AF_UNIX datagram socket is one a peer sent
 * it for the interrupt mode, or one it made for a peer. Commands on stdin:
 *
 *   token       register a DMB for --peer and send the peer its token
 *               (software event 0x7701, as dpdk-ism-intr-peer's rx does)
 *   arm         arm its own wake-up (rte_ism_intr_enable()), so that a
 *               peer's raise in its SBA wakes it
 *   poison-own  its own wake-up descriptor, if it is an eventfd (which it
 *               sent its peers): clear O_NONBLOCK and fill the counter, so
 *               that a peer's next 8-byte write sleeps
 *   poison      the same to every peer's fd it holds: eventfds emptied,
 *               O_NONBLOCK cleared, counter filled (a reader of the
 *               eventfd then sleeps in read(2) once it emptied it);
 *               datagram sockets sent on until EAGAIN, read empty,
 *               O_NONBLOCK cleared
 *   peers N     wait until N peers are up (their RTE_ISM_DEV_ENABLED
 *               events): their fds are here ("PEERS N")
 *   steal       read every peer's fd without end (non-blocking itself):
 *               an eventfd read here is a wake-up its owner never sees
 *   quit
 *
 * What it does to its own process' files can only hurt itself; the test
 * checks that its peers go on.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <rte_eal.h>

#include <rte_ism.h>

#include "test_say.h"

#define EV_TOKEN	0x7701
#define DEADLINE_S	60
#define MAX_FD		1024
#define EFD_FULL	0xfffffffffffffffeULL

static bool known[MAX_FD];	/* open when EAL was up: ours */

static bool
is_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") == 0;
}

static bool
is_dgram(int fd)
{
	int type = -1, domain = -1;
	socklen_t len = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return false;
	len = sizeof(domain);
	return getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 &&
		type == SOCK_DGRAM && domain == AF_UNIX;
}

static void
snapshot(void)
{
	int fd;

	for (fd = 0; fd < MAX_FD; fd++)
		known[fd] = fcntl(fd, F_GETFD) >= 0;
}

static void
nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl >= 0)
		fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* Empty the eventfd, make it blocking, fill it: a writer of 1 sleeps,
 * and so does a reader once it read the counter. */
static void
poison_eventfd(int fd)
{
	uint64_t v = EFD_FULL;

	nonblock(fd, true);
	while (read(fd, &v, sizeof(v)) == sizeof(v))
		;
	nonblock(fd, false);
	v = EFD_FULL;
	if (write(fd, &v, sizeof(v)) != sizeof(v))
		say("poison: eventfd %d not filled: %s", fd, strerror(errno));
}

static void
poison_socket(int fd)
{
	unsigned int k;
	char b = 1;

	for (k = 0; k < 4096; k++)
		if (send(fd, &b, 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
			break;
	for (k = 0; k < 4096; k++)
		if (recv(fd, &b, 1, MSG_DONTWAIT) < 0)
			break;
	nonblock(fd, false);
}

/* Every fd a peer sent (or that we made for one): the count. */
static unsigned int
poison_peers(void)
{
	unsigned int n = 0;
	int fd;

	for (fd = 0; fd < MAX_FD; fd++) {
		if (known[fd] || fcntl(fd, F_GETFD) < 0)
			continue;
		if (is_eventfd(fd)) {
			poison_eventfd(fd);
			n++;
		} else if (is_dgram(fd)) {
			poison_socket(fd);
			n++;
		}
	}
	return n;
}

static void
steal(void)
{
	int fds[MAX_FD], n = 0, fd, i;
	bool sock[MAX_FD];
	uint64_t v;

	for (fd = 0; fd < MAX_FD; fd++) {
		if (known[fd] || fcntl(fd, F_GETFD) < 0)
			continue;
		sock[n] = is_dgram(fd);
		if (!sock[n] && !is_eventfd(fd))
			continue;
		nonblock(fd, true);
		fds[n++] = fd;
	}
	say("STEALING from %d fds", n);
	for (;;)
		for (i = 0; i < n; i++) {
			if (sock[i])
				(void)!recv(fds[i], &v, sizeof(v),
					    MSG_DONTWAIT);
			else
				(void)!read(fds[i], &v, sizeof(v));
		}
}

static int
send_token(uint16_t dev, const struct rte_ism_gid *peer)
{
	struct rte_ism_dmb dmb = { .len = 4096, .rgid = *peer };
	uint64_t end = rte_ism_time_ns() + DEADLINE_S * 1000000000ULL;
	int ret;

	ret = rte_ism_dmb_register(dev, &dmb);
	if (ret < 0) {
		say("FAIL register: %s", strerror(-ret));
		return -1;
	}
	while ((ret = rte_ism_signal_event(dev, peer, 1, EV_TOKEN,
					   dmb.token)) != 0 &&
	       rte_ism_time_ns() < end)
		usleep(20000);
	if (ret != 0) {
		say("FAIL token not sent: %s", strerror(-ret));
		return -1;
	}
	say("TOKEN SENT 0x%" PRIx64, dmb.token);
	return 0;
}

/* Until n devices came up (their fds are here then). */
static int
wait_peers(uint16_t dev, unsigned int n)
{
	uint64_t end = rte_ism_time_ns() + DEADLINE_S * 1000000000ULL;
	struct rte_ism_event ev;
	unsigned int up = 0;

	while (up < n && rte_ism_time_ns() < end) {
		if (rte_ism_event_poll(dev, &ev, 1) != 1) {
			usleep(1000);
			continue;
		}
		if (ev.type == RTE_ISM_EVENT_DEV &&
		    ev.code == RTE_ISM_DEV_ENABLED)
			up++;
	}
	if (up < n) {
		say("FAIL %u of %u peers up", up, n);
		return -1;
	}
	say("PEERS %u", n);
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "peer", required_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	struct rte_ism_gid peer = { 0 };
	char line[64];
	uint16_t dev;
	int c, ret, fd;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	argc -= ret;
	argv += ret;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1)
		if (c != 'p' || rte_ism_gid_parse(optarg, &peer) != 0) {
			say("usage: -- [--peer GID]");
			return 2;
		}
	dev = rte_ism_dev_next(0);
	if (dev >= RTE_ISM_MAX_DEVS) {
		say("FAIL no ISM device");
		return 2;
	}
	snapshot();
	say("READY");
	while (fgets(line, sizeof(line), stdin) != NULL) {
		if (strncmp(line, "token", 5) == 0) {
			if (send_token(dev, &peer) < 0)
				return 1;
		} else if (strncmp(line, "arm", 3) == 0) {
			ret = rte_ism_intr_enable(dev);
			say(ret == 0 ? "ARMED" : "FAIL arm: %s",
			    strerror(-ret));
		} else if (strncmp(line, "poison-own", 10) == 0) {
			fd = rte_ism_intr_fd_get(dev);
			ret = fd >= 0 && is_eventfd(fd);
			if (ret)
				poison_eventfd(fd);
			say("POISONED own %s",
			    ret ? "eventfd" : "(no eventfd)");
		} else if (strncmp(line, "poison", 6) == 0) {
			say("POISONED %u fds", poison_peers());
		} else if (strncmp(line, "peers", 5) == 0) {
			if (wait_peers(dev, atoi(line + 5)) < 0)
				return 1;
		} else if (strncmp(line, "steal", 5) == 0) {
			steal();
		} else if (strncmp(line, "quit", 4) == 0) {
			break;
		}
	}
	/* Its own files may be poisoned: no clean-up that could sleep. */
	_exit(0);
}
