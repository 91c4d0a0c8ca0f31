/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Takeovers of an identity that the shm backend must not allow, played
 * over raw sockets:
 *
 *   role impostor-gid   binds a socket named after the GID of a live
 *                       device (--victim) at another slot, and answers
 *                       every handshake as that device: a device that
 *                       joins must not take it for the victim, and must
 *                       grant it no DMB registered for the victim. With
 *                       --touch (a member of the directory's group with
 *                       another uid) it also claims what it can and
 *                       makes the victim's socket newer than its own
 *                       (utimensat(): write permission suffices)
 *   role impostor-slot  binds a socket at the victim's slot under another
 *                       GID: a device that joins must not let it overwrite
 *                       the victim's slot
 *   role crowd          keeps ISM_SHM_MAX_PENDING (16) silent connections
 *                       pending on the victim, opening a new one for each
 *                       that the victim drops: a device that joins
 *                       meanwhile is refused, and must join once the crowd
 *                       is gone
 *
 *   role slammer        a device of its own (claimed, at SLAMMER_SLOT)
 *                       that closes every connection at once: a device
 *                       that joins connects again and again, each time
 *                       later (its back-off); prints SLAM <n> <ms since
 *                       the previous connection> for each
 *   role storm          a correct handshake with the victim, then raises
 *                       every signal of the SBA the victim gave it, over
 *                       and over with changing patterns, until released:
 *                       the victim's signal polls must stay bounded and
 *                       report nothing of it
 *
 * Each runs until the driver closes its stdin (--hold), then prints what
 * it got: IMPOSTOR handshakes <n> grants <n> / CROWD opened <n> / SLAM
 * done <n> / STORM rounds <n>.
 */

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "shm_peer.h"
#include "shm_raw.h"

#define IMPOSTOR_SLOT	62	/* free in the tests: they have few devices */
#define SLAMMER_SLOT	61
#define MAX_CONNS	32
#define CROWD		16	/* ISM_SHM_MAX_PENDING */
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

/* Our side of the handshake as the claimed device: HELLO, READY. */
static void
answer_hello(struct impostor *im, int fd)
{
	struct shm_msg m;
	int sba = memfd(sba_len(), true);

	ism_shm_msg_init(&m, SHM_MSG_HELLO, 0);
	m.u.hello.gid.gid = im->gid.gid;
	m.u.hello.gid.gid_ext = im->gid.gid_ext;
	m.u.hello.max_dmbs = 64;
	m.u.hello.max_dmb_len = 1 << 20;
	m.u.hello.chid = im->chid;
	m.u.hello.slot = im->slot;
	if (sba >= 0 && raw_send(fd, &m, sizeof(m), &sba, 1) == 0) {
		ism_shm_msg_init(&m, SHM_MSG_READY, 0);
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
		ism_shm_msg_init(&ack, SHM_MSG_ACK, 0);
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
	unsigned int vslot, i, k, claims = 0;
	int lfd, fd, ret = 0;

	if (find_sock(o->dir, &o->victim, vpath, sizeof(vpath), &im.chid,
		      &vslot) < 0) {
		fail("cannot find the victim's socket");
		return 1;
	}
	im.gid = same_gid ? o->victim : fake_gid(&o->gid);
	im.slot = same_gid ? IMPOSTOR_SLOT : vslot;
	lfd = raw_listen(o->dir, im.chid, im.slot, &im.gid, path, sizeof(path));
	if (lfd < 0) {
		fail("cannot listen as the victim");
		return 1;
	}
	if (o->touch) {
		/* All another member of the group can do: claim what is
		 * free (the slot), and make the victim's socket newer than
		 * ours (writing a socket allows utimensat(NULL)). */
		claims = raw_claim(o->dir, im.chid, im.slot, &im.gid);
		/* Later than our bind (a ctime has the kernel's coarse
		 * clock), and others of the group may connect to us. */
		usleep(20000);
		if (chmod(path, 0666) < 0 ||
		    utimensat(AT_FDCWD, vpath, NULL, 0) < 0) {
			fail("cannot touch the victim's socket: %s",
			     strerror(errno));
			ret = 1;
		}
	}
	say("IMPOSTOR listening slot %u claims %u", im.slot, claims);
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
	raw_unclaim(o->dir, im.chid, im.slot, &im.gid, claims);
	say("IMPOSTOR handshakes %u grants %u", im.hellos, im.grants);
	return ret;
}

int
impostor_main(uint16_t dev __rte_unused, const struct peer_opts *o)
{
	return impostor_run(o, strcmp(o->common.role, "impostor-gid") == 0);
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

int
slammer_main(uint16_t dev, const struct peer_opts *o)
{
	struct rte_ism_gid gid = fake_gid(&o->gid);
	struct rte_ism_dev_info info;
	struct pollfd pfd;
	unsigned int claims, n = 0;
	uint64_t last = 0, t;
	char path[512];
	int lfd, fd;

	if (rte_ism_info_get(dev, &info) < 0) {
		fail("no device info");
		return 1;
	}
	claims = raw_claim(o->dir, info.chid, SLAMMER_SLOT, &gid);
	lfd = raw_listen(o->dir, info.chid, SLAMMER_SLOT, &gid, path,
			sizeof(path));
	if (lfd < 0 || claims != 3) {
		fail("cannot claim and listen at slot %u", SLAMMER_SLOT);
		if (lfd >= 0) {
			close(lfd);
			unlink(path);
		}
		raw_unclaim(o->dir, info.chid, SLAMMER_SLOT, &gid, claims);
		return 1;
	}
	say("SLAM listening");
	pfd.fd = lfd;
	pfd.events = POLLIN;
	while (!released()) {
		if (poll(&pfd, 1, POLL_MS) <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd < 0)
			continue;
		close(fd);
		t = now_ns();
		n++;
		say("SLAM %u %" PRIu64, n, last == 0 ? 0 :
		    (t - last) / 1000000);
		last = t;
	}
	close(lfd);
	unlink(path);
	raw_unclaim(o->dir, info.chid, SLAMMER_SLOT, &gid, claims);
	say("SLAM done %u", n);
	return 0;
}
