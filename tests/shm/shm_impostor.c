/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Takeovers of an identity that the shm backend must not allow (issue 12),
 * played by a process of the same user over raw sockets:
 *
 *   role impostor-gid   binds a socket named after the GID of a live
 *                       device (--victim) at another slot, and answers
 *                       every handshake as that device: a device that
 *                       joins must not take it for the victim, and must
 *                       grant it no DMB registered for the victim
 *   role impostor-slot  binds a socket at the victim's slot under another
 *                       GID: a device that joins must not let it overwrite
 *                       the victim's slot
 *   role crowd          keeps SHM_MAX_PENDING (16) silent connections
 *                       pending on the victim, opening a new one for each
 *                       that the victim drops: a device that joins
 *                       meanwhile is refused, and must join once the crowd
 *                       is gone
 *
 * Each runs until the driver closes its stdin (--hold), then prints what
 * it got: IMPOSTOR handshakes <n> grants <n> / CROWD opened <n>.
 */

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "shm_peer.h"
#include "shm_raw.h"

#define IMPOSTOR_SLOT	62	/* free in the tests: they have few devices */
#define MAX_CONNS	32
#define CROWD		16	/* SHM_MAX_PENDING */
#define POLL_MS		20

struct impostor {
	struct rte_ism_gid gid;	/* claimed */
	unsigned int slot;	/* claimed */
	uint16_t chid;
	int conns[MAX_CONNS];
	unsigned int nb_conns;
	unsigned int hellos;	/* handshakes answered */
	unsigned int grants;	/* DMB memfds received */
};

static int
listen_at(const char *dir, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid, char *path, size_t size)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if ((size_t)snprintf(path, size, "%s/%04x-%02u-%016" PRIx64 "%016"
			     PRIx64 ".sock", dir, chid, slot, gid->gid,
			     gid->gid_ext) >= size ||
	    strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 64) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Our side of the handshake as the claimed device: HELLO, READY. */
static void
answer_hello(struct impostor *im, int fd)
{
	struct shm_msg m;
	int sba = memfd(sba_len(), true);

	shm_msg_init(&m, SHM_MSG_HELLO, 0);
	m.u.hello.gid.gid = im->gid.gid;
	m.u.hello.gid.gid_ext = im->gid.gid_ext;
	m.u.hello.max_dmbs = 64;
	m.u.hello.max_dmb_len = 1 << 20;
	m.u.hello.chid = im->chid;
	m.u.hello.slot = im->slot;
	if (sba >= 0 && raw_send(fd, &m, sizeof(m), &sba, 1) == 0) {
		shm_msg_init(&m, SHM_MSG_READY, 0);
		raw_send(fd, &m, sizeof(m), NULL, 0);
		im->hellos++;
	}
	if (sba >= 0)
		close(sba);
}

/* One message of a device that took us for the victim; false: closed. */
static bool
serve(struct impostor *im, int fd)
{
	struct shm_msg m, ack;
	int got = -1, r;

	r = raw_recv_fd(fd, &m, &got);
	if (r != 1)
		return r != 0;
	if (got >= 0) {
		if (m.hdr.type == SHM_MSG_DMB_ADD)
			im->grants++;
		close(got);
	}
	if (m.hdr.type == SHM_MSG_READY)
		answer_hello(im, fd);
	if (m.hdr.seq != 0 && m.hdr.type != SHM_MSG_ACK) {
		shm_msg_init(&ack, SHM_MSG_ACK, 0);
		ack.u.ack.seq = m.hdr.seq;
		raw_send(fd, &ack, sizeof(ack), NULL, 0);
	}
	return true;
}

static int
impostor_run(const struct peer_opts *o, bool same_gid)
{
	char vpath[512], path[512];
	struct pollfd pfd[1 + MAX_CONNS];
	struct impostor im = { .nb_conns = 0 };
	unsigned int vslot, i, k;
	int lfd, fd;

	if (find_sock(o->dir, &o->victim, vpath, sizeof(vpath), &im.chid,
		      &vslot) < 0) {
		fail("cannot find the victim's socket");
		return 1;
	}
	im.gid = same_gid ? o->victim : fake_gid(&o->gid);
	im.slot = same_gid ? IMPOSTOR_SLOT : vslot;
	lfd = listen_at(o->dir, im.chid, im.slot, &im.gid, path, sizeof(path));
	if (lfd < 0) {
		fail("cannot listen as the victim");
		return 1;
	}
	say("IMPOSTOR listening slot %u", im.slot);
	while (!released()) {
		pfd[0].fd = lfd;
		pfd[0].events = POLLIN;
		for (i = 0; i < im.nb_conns; i++) {
			pfd[1 + i].fd = im.conns[i];
			pfd[1 + i].events = POLLIN;
		}
		if (poll(pfd, 1 + im.nb_conns, POLL_MS) <= 0)
			continue;
		for (i = 0, k = 0; i < im.nb_conns; i++) {
			if (!(pfd[1 + i].revents & (POLLIN | POLLHUP)) ||
			    serve(&im, im.conns[i]))
				im.conns[k++] = im.conns[i];
			else
				close(im.conns[i]);
		}
		im.nb_conns = k;
		if ((pfd[0].revents & POLLIN) &&
		    (fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
			if (im.nb_conns < MAX_CONNS)
				im.conns[im.nb_conns++] = fd;
			else
				close(fd);
		}
	}
	for (i = 0; i < im.nb_conns; i++)
		close(im.conns[i]);
	close(lfd);
	unlink(path);
	say("IMPOSTOR handshakes %u grants %u", im.hellos, im.grants);
	return 0;
}

int
impostor_main(uint16_t dev __rte_unused, const struct peer_opts *o)
{
	return impostor_run(o, strcmp(o->role, "impostor-gid") == 0);
}

int
crowd_main(uint16_t dev __rte_unused, const struct peer_opts *o)
{
	struct pollfd pfd[CROWD];
	unsigned int slot, i, opened = 0;
	char path[512];
	uint16_t chid;
	bool said = false;

	if (find_sock(o->dir, &o->victim, path, sizeof(path), &chid,
		      &slot) < 0) {
		fail("cannot find the victim's socket");
		return 1;
	}
	for (i = 0; i < CROWD; i++)
		pfd[i].fd = -1;
	while (!released()) {
		for (i = 0; i < CROWD; i++) {
			if (pfd[i].fd >= 0)
				continue;
			pfd[i].fd = raw_connect(path);
			pfd[i].events = POLLIN;
			opened += pfd[i].fd >= 0;
		}
		if (!said) {
			/* The victim may not have accepted them yet: the
			 * driver waits for its handshakes_pending. */
			say("CROWD holding %u", CROWD);
			said = true;
		}
		if (poll(pfd, CROWD, POLL_MS) <= 0)
			continue;
		/* Dropped at its handshake deadline (or refused): again. */
		for (i = 0; i < CROWD; i++) {
			if (pfd[i].fd >= 0 && pfd[i].revents != 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
			}
		}
	}
	for (i = 0; i < CROWD; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	say("CROWD opened %u", opened);
	return 0;
}
