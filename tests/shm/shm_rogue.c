/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rogue: a process of the same user in the same fabric that tries what
 * the shm backend must refuse. Through the API: write and map a DMB of the
 * victim that is registered for another GID, use a token after the victim
 * unregistered it. Over raw sockets to the victim, speaking the wire
 * format itself: truncated, oversized and garbage datagrams, unknown
 * types, requests before HELLO, a HELLO that claims another device's GID,
 * HELLOs with a pipe, an unsealed memfd, a memfd of the wrong size or two
 * fds, and after a correct handshake: every signal raised in the SBA the
 * victim gave it, a DMB in another device's slot, a grant with a bogus fd,
 * an answer to nothing, and requests without end while never reading the
 * answers (the victim may not queue them without bound). Each must end
 * with the victim closing the connection (an ATTACH of a foreign DMB only
 * gets -EACCES). The victim meanwhile streams with an honest peer and checks
 * every message; the driver then checks its protocol error count and that
 * it leaked no fd.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "ism_sw_sba.h"
#include "ism_sw_token.h"
#include <ism_shm_msg.h>

#include "shm_peer.h"
#include "shm_raw.h"

#define FAKE_SLOT 63

struct rogue {
	uint16_t dev;
	const struct peer_opts *o;
	char victim_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	uint16_t chid;
	unsigned int honest_slot;
	struct rte_ism_gid fake;	/* a GID whose socket we bind */
	char fake_path[512];
	int fake_lfd;
	unsigned int fake_claims;
	unsigned int passed, failed, violations;
};

#define check(r, cond, ...) do { \
	if (cond) { \
		(r)->passed++; \
	} else { \
		(r)->failed++; \
		fail(__VA_ARGS__); \
	} \
} while (0)

/* Find the socket of gid in the directory: its path, chid and slot. */
int
find_sock(const char *dir, const struct rte_ism_gid *gid, char *path,
		size_t size, uint16_t *chid, unsigned int *slot)
{
	char want[40];
	struct dirent *de;
	DIR *d = opendir(dir);
	int ret = -ENOENT;

	snprintf(want, sizeof(want), "%016" PRIx64 "%016" PRIx64 ".sock",
		 gid->gid, gid->gid_ext);
	while (d != NULL && (de = readdir(d)) != NULL) {
		if (strlen(de->d_name) != 45 ||
		    strcmp(de->d_name + 8, want) != 0)
			continue;
		*chid = strtoul(de->d_name, NULL, 16);
		*slot = atoi(de->d_name + 5);
		snprintf(path, size, "%s/%s", dir, de->d_name);
		ret = 0;
	}
	if (d != NULL)
		closedir(d);
	return ret;
}

static void
claim_path(char *buf, size_t size, const char *dir, uint16_t chid,
		unsigned int slot, const struct rte_ism_gid *gid, bool of_gid)
{
	if (of_gid)
		snprintf(buf, size, "%s/%04x-gid-%016" PRIx64 "%016" PRIx64,
			 dir, chid, gid->gid, gid->gid_ext);
	else
		snprintf(buf, size, "%s/%04x-slot-%02u", dir, chid, slot);
}

unsigned int
raw_claim(const char *dir, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid)
{
	char path[512], sock[64];
	unsigned int made = 0, k;

	snprintf(sock, sizeof(sock), "%04x-%02u-%016" PRIx64 "%016" PRIx64
		 ".sock", chid, slot, gid->gid, gid->gid_ext);
	for (k = 0; k < 2; k++) {
		claim_path(path, sizeof(path), dir, chid, slot, gid, k == 0);
		if (symlink(sock, path) == 0)
			made |= RTE_BIT32(k);
	}
	return made;
}

void
raw_unclaim(const char *dir, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid, unsigned int made)
{
	char path[512];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		claim_path(path, sizeof(path), dir, chid, slot, gid, k == 0);
		if (made & RTE_BIT32(k))
			unlink(path);
	}
}

int
raw_listen(const char *dir, uint16_t chid, unsigned int slot,
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

static bool
mapped(uint64_t token)
{
	char want[64], line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	bool found = false;

	snprintf(want, sizeof(want), "ism_dmb_%016" PRIx64, token);
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		found |= strstr(line, want) != NULL;
	if (f != NULL)
		fclose(f);
	return found;
}

int
raw_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 3 };
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

int
raw_send(int fd, const void *buf, size_t len, const int *fds, int nfds)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 4)];
	struct iovec iov = { .iov_base = (void *)(uintptr_t)buf,
			     .iov_len = len };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (nfds > 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * nfds);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * nfds);
	}
	return sendmsg(fd, &mh, MSG_NOSIGNAL) == (ssize_t)len ? 0 : -1;
}

/* Receive one message; its first fd in *keep if keep != NULL (else
 * closed, as the others); 1 got, 0 closed, -1 timeout. */
int
raw_recv_fd(int fd, struct shm_msg *m, int *keep)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 4)];
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int k, got;
	ssize_t n;

	n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	for (c = CMSG_FIRSTHDR(&mh); n > 0 && c != NULL;
	     c = CMSG_NXTHDR(&mh, c))
		for (k = 0; c->cmsg_type == SCM_RIGHTS &&
		     k < (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		     k++) {
			memcpy(&got, CMSG_DATA(c) + k * sizeof(int),
			       sizeof(int));
			if (keep != NULL && *keep < 0)
				*keep = got;
			else
				close(got);
		}
	if (n > 0)
		return 1;
	if (n == 0 || errno == ECONNRESET)
		return 0;
	return -1;
}

static int
raw_recv(int fd, struct shm_msg *m)
{
	return raw_recv_fd(fd, m, NULL);
}

/* The victim must close the connection (answering its requests until). */
static bool
closed_by_victim(int fd)
{
	struct shm_msg m, ack;
	int r;

	while ((r = raw_recv(fd, &m)) == 1) {
		if (m.hdr.seq == 0 || m.hdr.type == SHM_MSG_ACK)
			continue;
		ism_shm_msg_init(&ack, SHM_MSG_ACK, 0);
		ack.u.ack.seq = m.hdr.seq;
		raw_send(fd, &ack, sizeof(ack), NULL, 0);
	}
	close(fd);
	return r == 0;
}

/* A memfd of len bytes, sealed (or not). */
int
memfd(size_t len, bool sealed)
{
	int fd = memfd_create("rogue", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0 || ftruncate(fd, len) < 0)
		return -1;
	if (sealed)
		fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW |
		      F_SEAL_SEAL);
	return fd;
}

size_t
sba_len(void)
{
	size_t pg = sysconf(_SC_PAGESIZE);

	return (sizeof(struct ism_sw_sba) + pg - 1) / pg * pg;
}

static void
hello(struct rogue *r, struct shm_msg *m, const struct rte_ism_gid *gid,
		unsigned int slot)
{
	ism_shm_msg_init(m, SHM_MSG_HELLO, 0);
	m->u.hello.gid.gid = gid->gid;
	m->u.hello.gid.gid_ext = gid->gid_ext;
	m->u.hello.max_dmbs = 64;
	m->u.hello.max_dmb_len = 1 << 20;
	m->u.hello.chid = r->chid;
	m->u.hello.slot = slot;
}

/* Send one datagram with fds on connection fd (-1: could not connect);
 * the victim must close it. */
static void
violate(struct rogue *r, int fd, const char *what, const void *buf,
		size_t len, const int *fds, int nfds)
{
	if (fd < 0 || raw_send(fd, buf, len, fds, nfds) < 0) {
		check(r, false, "%s: cannot connect or send", what);
		if (fd >= 0)
			close(fd);
		return;
	}
	r->violations++;
	check(r, closed_by_victim(fd), "%s: victim kept the connection", what);
	say("ATTACK %s: refused", what);
}

/* The same on a new connection, before any handshake. */
static void
attack(struct rogue *r, const char *what, const void *buf, size_t len,
		const int *fds, int nfds)
{
	violate(r, raw_connect(r->victim_path), what, buf, len, fds, nfds);
}

static void
hello_attack(struct rogue *r, const char *what, const struct rte_ism_gid *gid,
		unsigned int slot, const int *fds, int nfds)
{
	struct shm_msg m;

	hello(r, &m, gid, slot);
	attack(r, what, &m, sizeof(m), fds, nfds);
}

/* A correct handshake as the fake GID; the connection or -1. The SBA the
 * victim gave us in its HELLO goes to *sba if not NULL. */
static int
handshake(struct rogue *r, int *sba)
{
	struct shm_msg m, ack;
	int fd = raw_connect(r->victim_path), sfd = memfd(sba_len(), true);
	int k, vfd = -1;

	hello(r, &m, &r->fake, FAKE_SLOT);
	if (fd < 0 || sfd < 0 || raw_send(fd, &m, sizeof(m), &sfd, 1) < 0)
		goto err;
	close(sfd);
	sfd = -1;
	ism_shm_msg_init(&m, SHM_MSG_READY, 0);
	if (raw_send(fd, &m, sizeof(m), NULL, 0) < 0)
		goto err;
	for (k = 0; k < 100; k++) {
		if (raw_recv_fd(fd, &m, k == 0 ? &vfd : NULL) != 1)
			goto err;
		if (m.hdr.type == SHM_MSG_READY) {
			if (sba != NULL)
				*sba = vfd;
			else if (vfd >= 0)
				close(vfd);
			return fd;
		}
		if (m.hdr.seq != 0) {
			ism_shm_msg_init(&ack, SHM_MSG_ACK, 0);
			ack.u.ack.seq = m.hdr.seq;
			raw_send(fd, &ack, sizeof(ack), NULL, 0);
		}
	}
err:
	if (vfd >= 0)
		close(vfd);
	if (sfd >= 0)
		close(sfd);
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * Raise every signal of every index in the SBA the victim gave us: it may
 * only disturb DMBs registered for us (none). The victim's stream with
 * its honest peer must see nothing of it.
 */
static void
scribble(struct rogue *r)
{
	struct ism_sw_sba *sba;
	uint64_t end;
	int fd, vfd = -1;

	fd = handshake(r, &vfd);
	sba = vfd >= 0 ? mmap(NULL, sba_len(), PROT_READ | PROT_WRITE,
			      MAP_SHARED, vfd, 0) : MAP_FAILED;
	check(r, sba != MAP_FAILED, "no SBA from the victim's HELLO");
	if (sba != MAP_FAILED) {
		/* Keep raising for a while: the victim polls meanwhile. */
		for (end = now_ns() + 300000000ULL; now_ns() < end;) {
			/* The whole SBA: summary and every mask. */
			memset(sba, 0xff, sizeof(*sba));
		}
		munmap(sba, sba_len());
		say("ATTACK scribbled on the victim's SBA for 300 ms");
	}
	if (vfd >= 0)
		close(vfd);
	if (fd >= 0)
		close(fd);
}

/*
 * Requests without end, answers never read: once they fill the socket the
 * victim may queue ISM_SHM_WINDOW answers (an honest peer never has more
 * requests unanswered), then it must drop the connection, not queue
 * without bound.
 */
static void
flood(struct rogue *r)
{
	struct shm_msg m;
	int fd = handshake(r, NULL);
	uint32_t i;

	if (fd < 0) {
		check(r, false, "flood: handshake failed");
		return;
	}
	/* A token of our own slot that we never announced: -ENOENT. */
	ism_shm_msg_init(&m, SHM_MSG_DMB_DEL, 0);
	m.u.tok.token = ism_sw_tok_make(FAKE_SLOT, 40, 1);
	for (i = 1; i <= 100000; i++) {
		m.hdr.seq = i;
		if (raw_send(fd, &m, sizeof(m), NULL, 0) < 0)
			break;
	}
	r->violations++;
	check(r, i <= 100000, "flood: victim answered %u requests that were "
	      "never read", i - 1);
	check(r, closed_by_victim(fd), "flood: victim kept the connection");
	say("ATTACK requests without reading the answers: refused after %u",
	    i - 1);
}

/* The same after a correct handshake as the fake GID. */
static void
after_handshake(struct rogue *r, const char *what, struct shm_msg *m,
		const int *fds, int nfds)
{
	violate(r, handshake(r, NULL), what, m, sizeof(*m), fds, nfds);
}

/* An ATTACH of a DMB that is not ours is answered, not fatal. */
static void
foreign_attach(struct rogue *r, uint64_t leak)
{
	struct shm_msg m;
	int fd = handshake(r, NULL), got;

	ism_shm_msg_init(&m, SHM_MSG_ATTACH, 7);
	m.u.tok.token = leak;
	if (fd < 0 || raw_send(fd, &m, sizeof(m), NULL, 0) < 0) {
		check(r, false, "raw ATTACH: handshake or send failed");
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((got = raw_recv(fd, &m)) == 1 && m.hdr.type != SHM_MSG_ACK)
		;
	check(r, got == 1 && m.u.ack.seq == 7 && m.u.ack.status == -EACCES,
	      "raw ATTACH of a foreign DMB: got %d status %d", got,
	      got == 1 ? m.u.ack.status : 0);
	say("ATTACK raw ATTACH of a foreign DMB: %d", m.u.ack.status);
	close(fd);
}

/*
 * Not an attack: a peer that answers a request and says good-bye at once.
 * The victim's rte_ism_signal_event() must still return the answer, 0
 * (regression: the waiter found the connection gone and said unreachable).
 */
static void
bye_race(struct rogue *r)
{
	struct shm_msg m, out[2];
	struct iovec iov[2] = {
		{ .iov_base = &out[0], .iov_len = sizeof(out[0]) },
		{ .iov_base = &out[1], .iov_len = sizeof(out[1]) },
	};
	struct mmsghdr mm[2] = {
		{ .msg_hdr = { .msg_iov = &iov[0], .msg_iovlen = 1 } },
		{ .msg_hdr = { .msg_iov = &iov[1], .msg_iovlen = 1 } },
	};
	int fd, got;

	rte_ism_signal_event(r->dev, &r->o->victim, 1, EV_BYE_RACE, 0);
	fd = handshake(r, NULL);
	while (fd >= 0 && (got = raw_recv(fd, &m)) == 1) {
		if (m.hdr.seq == 0 || m.hdr.type == SHM_MSG_ACK)
			continue;
		ism_shm_msg_init(&out[0], SHM_MSG_ACK, 0);
		out[0].u.ack.seq = m.hdr.seq;
		if (m.hdr.type != SHM_MSG_EVENT) {
			raw_send(fd, &out[0], sizeof(out[0]), NULL, 0);
			continue;
		}
		/* Answer and good-bye in one go. */
		ism_shm_msg_init(&out[1], SHM_MSG_BYE, 1000);
		got = sendmmsg(fd, mm, 2, MSG_NOSIGNAL);
		check(r, got == 2 && closed_by_victim(fd),
		      "answer then good-bye: %d", got);
		say("ATTACK none: answered and left at once");
		return;
	}
	check(r, false, "no EVENT from the victim to answer");
	if (fd >= 0)
		close(fd);
}

/* A device of our own making (the fake GID, FAKE_SLOT): claimed and
 * listening, as the victim checks a HELLO's claim. */
static int
fake_listen(struct rogue *r)
{
	r->fake = fake_gid(&r->o->gid);
	r->fake_claims = raw_claim(r->o->dir, r->chid, FAKE_SLOT, &r->fake);
	r->fake_lfd = raw_listen(r->o->dir, r->chid, FAKE_SLOT, &r->fake,
			r->fake_path, sizeof(r->fake_path));
	return r->fake_lfd < 0 ? -1 : 0;
}

static void
raw_attacks(struct rogue *r, uint64_t leak)
{
	uint8_t junk[200];
	struct shm_msg m;
	int p[2], fds[2];
	unsigned int i;

	for (i = 0; i < sizeof(junk); i++)
		junk[i] = i * 37 + 11;
	attack(r, "truncated", junk, 10, NULL, 0);
	ism_shm_msg_init(&m, SHM_MSG_READY, 0);
	memcpy(junk, &m, sizeof(m));
	attack(r, "oversized", junk, sizeof(junk), NULL, 0);
	memset(junk, 0xa5, sizeof(m));
	attack(r, "garbage", junk, sizeof(m), NULL, 0);
	ism_shm_msg_init(&m, SHM_MSG_READY, 0);
	m.hdr.type = 77;
	attack(r, "wrong type", &m, sizeof(m), NULL, 0);
	ism_shm_msg_init(&m, SHM_MSG_READY, 0);
	m.hdr.version = 9;
	attack(r, "wrong version", &m, sizeof(m), NULL, 0);
	ism_shm_msg_init(&m, SHM_MSG_DMB_DEL, 1);
	m.u.tok.token = leak;
	attack(r, "request before HELLO", &m, sizeof(m), NULL, 0);

	fds[0] = memfd(sba_len(), true);
	hello_attack(r, "HELLO claiming the honest peer's GID", &r->o->honest,
		     r->honest_slot, fds, 1);
	if (pipe(p) == 0) {
		hello_attack(r, "HELLO with a pipe", &r->fake, FAKE_SLOT, p, 1);
		close(p[0]);
		close(p[1]);
	}
	fds[1] = memfd(sba_len(), false);
	hello_attack(r, "HELLO with an unsealed memfd", &r->fake, FAKE_SLOT,
		     &fds[1], 1);
	close(fds[1]);
	fds[1] = memfd(sba_len() * 2, true);
	hello_attack(r, "HELLO with a memfd of the wrong size", &r->fake,
		     FAKE_SLOT, &fds[1], 1);
	close(fds[1]);
	fds[1] = memfd(sba_len(), true);
	hello_attack(r, "HELLO with two fds", &r->fake, FAKE_SLOT, fds, 2);
	close(fds[1]);
	close(fds[0]);

	scribble(r);
	foreign_attach(r, leak);
	ism_shm_msg_init(&m, SHM_MSG_DMB_ADD, 5);
	m.u.dmb.token = ism_sw_tok_make(r->honest_slot, 40, 1);
	m.u.dmb.idx = 40;
	m.u.dmb.len = 4096;
	m.u.dmb.rgid.gid = r->o->victim.gid;
	m.u.dmb.rgid.gid_ext = r->o->victim.gid_ext;
	fds[0] = memfd(4096, true);
	after_handshake(r, "DMB in another device's slot", &m, fds, 1);
	m.u.dmb.token = ism_sw_tok_make(FAKE_SLOT, 40, 1);
	if (pipe(p) == 0) {
		after_handshake(r, "DMB grant with a pipe", &m, p, 1);
		close(p[0]);
		close(p[1]);
	}
	after_handshake(r, "DMB grant without its fd", &m, NULL, 0);
	m.u.dmb.len = 1 << 20;
	after_handshake(r, "DMB grant with a memfd of the wrong size", &m,
			fds, 1);
	close(fds[0]);
	ism_shm_msg_init(&m, SHM_MSG_ACK, 0);
	m.u.ack.seq = 99;
	after_handshake(r, "answer to no request", &m, NULL, 0);
	flood(r);
}

int
rogue_main(uint16_t dev, const struct peer_opts *o)
{
	struct rogue r = { .dev = dev, .o = o, .fake_lfd = -1 };
	struct rte_ism_event ev;
	struct rte_ism_dmb m;
	uint64_t leak, grant, end;
	char b[8] = "rogue";
	unsigned int vslot;
	uint16_t chid;
	int ret;

	if (wait_sw(dev, EV_LEAK, &o->victim, &leak, 20000) < 0 ||
	    wait_sw(dev, EV_GRANT, &o->victim, &grant, 20000) < 0) {
		fail("no tokens from the victim");
		return 1;
	}
	/* A DMB registered for another GID: no write, no mapping. */
	ret = rte_ism_move_data(dev, leak, 0, 1, 0, b, sizeof(b));
	check(&r, ret == -EACCES, "write to a foreign DMB: %d", ret);
	ret = rte_ism_dmb_attach(dev, leak, &m);
	check(&r, ret == -EACCES, "attach of a foreign DMB: %d", ret);
	check(&r, !mapped(leak) && mapped(grant),
	      "mappings: foreign %d granted %d", mapped(leak), mapped(grant));
	say("API foreign DMB: write and attach refused, not mapped");

	/* Our DMB works, until the victim unregisters it. */
	ret = rte_ism_move_data(dev, grant, 0, 0, 0, b, sizeof(b));
	check(&r, ret == 0, "write to the granted DMB: %d", ret);
	rte_ism_signal_event(dev, &o->victim, 1, EV_GRANT_OK, 0);
	end = now_ns() + 20000000000ULL;
	while (now_ns() < end)
		if (next_event(dev, &ev) && ev.type == RTE_ISM_EVENT_BUF &&
		    ev.code == RTE_ISM_BUF_UNREGISTERED && ev.token == grant)
			break;
	check(&r, ev.token == grant, "no BUF event for the revoked DMB");
	ret = rte_ism_move_data(dev, grant, 0, 0, 0, b, sizeof(b));
	check(&r, ret == -ENOENT, "write with a stale token: %d", ret);
	ret = rte_ism_dmb_attach(dev, grant, &m);
	check(&r, ret == -ENOENT, "attach with a stale token: %d", ret);
	check(&r, !mapped(grant), "revoked DMB still mapped");
	say("API stale token: write and attach refused, unmapped");

	if (find_sock(o->dir, &o->victim, r.victim_path,
		      sizeof(r.victim_path), &r.chid, &vslot) < 0 ||
	    find_sock(o->dir, &o->honest, r.fake_path, sizeof(r.fake_path),
		      &chid, &r.honest_slot) < 0 || fake_listen(&r) < 0) {
		fail("cannot find the victim's socket or listen");
		return 1;
	}
	raw_attacks(&r, leak);
	bye_race(&r);
	close(r.fake_lfd);
	unlink(r.fake_path);
	raw_unclaim(o->dir, r.chid, FAKE_SLOT, &r.fake, r.fake_claims);

	say("ATTACKS passed %u failed %u violations %u", r.passed, r.failed,
	    r.violations);
	rte_ism_signal_event(dev, &o->victim, 1, EV_ROGUE_DONE, r.violations);
	return r.failed != 0;
}

/*
 * role flood: what must not flood the victim's log. --msgs connections
 * that each send a malformed datagram (each must be closed by the victim),
 * then FLOOD_SILENT connections at once that send nothing: beyond
 * ISM_SHM_MAX_PENDING (16) handshakes the victim refuses them. The driver
 * compares the victim's log lines with its counters.
 */
#define FLOOD_SILENT	100

int
flood_main(uint16_t dev __rte_unused, const struct peer_opts *o)
{
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fds[FLOOD_SILENT], fd;
	unsigned int slot, i, closed = 0, opened = 0;
	uint8_t junk[sizeof(struct shm_msg)];
	uint16_t chid;

	if (find_sock(o->dir, &o->victim, path, sizeof(path), &chid,
		      &slot) < 0) {
		fail("cannot find the victim's socket");
		return 1;
	}
	memset(junk, 0xa5, sizeof(junk));
	for (i = 0; i < o->common.msgs; i++) {
		fd = raw_connect(path);
		if (fd >= 0 && raw_send(fd, junk, sizeof(junk), NULL, 0) == 0)
			closed += closed_by_victim(fd);
		else if (fd >= 0)
			close(fd);
	}
	say("FLOOD malformed %u closed %u", (unsigned int)o->common.msgs, closed);
	for (i = 0; i < FLOOD_SILENT; i++) {
		fds[i] = raw_connect(path);
		opened += fds[i] >= 0;
	}
	for (i = 0; i < FLOOD_SILENT; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	say("FLOOD silent %u", opened);
	return closed == o->common.msgs ? 0 : 1;
}

/*
 * role storm: after a correct handshake as the fake GID, raise signals in
 * the SBA the victim gave us, with changing patterns, until released. The
 * victim registered no DMB for us: its polls must report none of them,
 * and each must end (the driver runs a bounded number of them meanwhile).
 */
int
storm_main(uint16_t dev, const struct peer_opts *o)
{
	struct rogue r = { .dev = dev, .o = o, .fake_lfd = -1 };
	struct ism_sw_sba *sba = MAP_FAILED;
	uint64_t rounds = 0, x = o->common.seed;
	unsigned int vslot, i;
	int fd = -1, vfd = -1, ret = 1;
	uint64_t *w;

	if (find_sock(o->dir, &o->victim, r.victim_path,
		      sizeof(r.victim_path), &r.chid, &vslot) < 0 ||
	    fake_listen(&r) < 0) {
		fail("cannot find the victim's socket or listen");
		goto out;
	}
	fd = handshake(&r, &vfd);
	if (vfd >= 0)
		sba = mmap(NULL, sba_len(), PROT_READ | PROT_WRITE, MAP_SHARED,
			   vfd, 0);
	if (sba == MAP_FAILED) {
		fail("no SBA from the victim's HELLO");
		goto out;
	}
	say("STORM raising");
	w = (uint64_t *)sba;
	while (!released()) {
		switch (rounds++ % 4) {
		case 0:		/* everything raised */
			memset(sba, 0xff, sizeof(*sba));
			break;
		case 1:		/* the summary only: groups with nothing */
			memset(sba, 0, sizeof(*sba));
			sba->summary[0] = UINT64_MAX;
			sba->summary[1] = UINT64_MAX;
			break;
		default:	/* noise */
			for (i = 0; i < sizeof(*sba) / sizeof(*w); i++) {
				x ^= x << 13;
				x ^= x >> 7;
				x ^= x << 17;
				w[i] = x;
			}
			break;
		}
	}
	say("STORM rounds %" PRIu64, rounds);
	ret = 0;
out:
	if (sba != MAP_FAILED)
		munmap(sba, sba_len());
	if (vfd >= 0)
		close(vfd);
	if (fd >= 0)
		close(fd);
	if (r.fake_lfd >= 0) {
		close(r.fake_lfd);
		unlink(r.fake_path);
	}
	raw_unclaim(o->dir, r.chid, FAKE_SLOT, &r.fake, r.fake_claims);
	return ret;
}
