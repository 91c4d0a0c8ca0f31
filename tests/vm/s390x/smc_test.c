/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * TCP connections carried by SMC-D, checked end to end, in the s390x test
 * guest (static, no DPDK).
 *
 * The parent listens on an AF_SMC socket, a forked child connects. The
 * child sends --bytes of a pseudo-random stream, the server's end (a child
 * too) checks every byte and sends another stream back, which the client
 * checks. With both ends still connected the parent dumps the SMC sockets
 * through the SMC sock_diag netlink interface (linux/smc_diag.h: the mode
 * of each socket, SMC-D, SMC-R or TCP fallback, the fallback reason, and
 * for SMC-D the GIDs and DMB tokens and the connection's cursors). It
 * prints lines for the host to check and exits 0 only if the bytes
 * arrived intact both ways and every connected socket is in SMC-D mode.
 *
 *   smc_test [--addr A.B.C.D] [--port N] [--bytes N] [--conns N]
 *            [--fallback-ok]
 *
 * --conns N: N connections at once, each with its own streams and its own
 * DMBs, each end served by a process of its own.
 *
 * --fallback-ok: exit 0 on intact bytes even when TCP carried them (used
 * to check the harness itself on a guest without an SMC-D device).
 */

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/smc_diag.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef AF_SMC
#define AF_SMC 43
#endif
/* SMCPROTO_SMC of Linux's net/smc/smc.h: AF_SMC over IPv4. */
#define SMC_TEST_PROTO_SMC 0

#define SEED_C2S UINT64_C(0x9e3779b97f4a7c15)
#define SEED_S2C UINT64_C(0xd1b54a32d192ed03)
#define CHUNK 65536
#define MAX_CONNS 16

struct stream {
	uint64_t state;
	uint64_t fnv;
	uint64_t done;
	uint64_t bad;
	uint64_t first_bad;
};

static void
stream_init(struct stream *s, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->state = seed;
	s->fnv = UINT64_C(0xcbf29ce484222325);
	s->first_bad = UINT64_MAX;
}

/* xorshift64: one byte of the stream at a time, cheap enough for MBs. */
static uint8_t
stream_next(struct stream *s)
{
	uint64_t x = s->state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	s->state = x;
	return (uint8_t)(x >> 56);
}

static void
stream_fill(struct stream *s, uint8_t *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		buf[i] = stream_next(s);
		s->fnv = (s->fnv ^ buf[i]) * UINT64_C(0x100000001b3);
	}
	s->done += n;
}

static void
stream_check(struct stream *s, const uint8_t *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] != stream_next(s)) {
			if (s->first_bad == UINT64_MAX)
				s->first_bad = s->done + i;
			s->bad++;
		}
		s->fnv = (s->fnv ^ buf[i]) * UINT64_C(0x100000001b3);
	}
	s->done += n;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int
send_stream(int fd, uint64_t seed, uint64_t total, uint64_t *fnv)
{
	static uint8_t buf[CHUNK];
	struct stream s;

	stream_init(&s, seed);
	while (s.done < total) {
		size_t n = total - s.done < CHUNK ? total - s.done : CHUNK;
		size_t off = 0;

		stream_fill(&s, buf, n);
		while (off < n) {
			ssize_t w = send(fd, buf + off, n - off, 0);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				printf("SMC_TEST send failed at %" PRIu64
				       ": %s\n", s.done - n + off,
				       strerror(errno));
				return -1;
			}
			off += w;
		}
	}
	*fnv = s.fnv;
	return 0;
}

/* Receives exactly total bytes; prints the check's line. */
static int
recv_stream(int fd, const char *dir, uint64_t seed, uint64_t total)
{
	static uint8_t buf[CHUNK];
	struct stream want;
	struct stream fnv_only;
	double t0 = now_s();

	stream_init(&want, seed);
	while (want.done < total) {
		size_t n = total - want.done < CHUNK ?
			total - want.done : CHUNK;
		ssize_t r = recv(fd, buf, n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			printf("SMC_TEST %s recv %s at %" PRIu64 "\n", dir,
			       r == 0 ? "EOF" : strerror(errno), want.done);
			return -1;
		}
		stream_check(&want, buf, r);
	}
	/* The sender's checksum of the same stream, for the line. */
	{
		static uint8_t tmp[CHUNK];
		uint64_t left = total;

		stream_init(&fnv_only, seed);
		while (left) {
			size_t n = left < CHUNK ? left : CHUNK;

			stream_fill(&fnv_only, tmp, n);
			left -= n;
		}
	}
	printf("SMC_TEST %s bytes=%" PRIu64 " fnv=%016" PRIx64
	       " expect=%016" PRIx64 " bad=%" PRIu64 " first_bad=%" PRId64
	       " secs=%.2f %s\n", dir, want.done, want.fnv, fnv_only.fnv,
	       want.bad, want.first_bad == UINT64_MAX ? -1 :
	       (int64_t)want.first_bad, now_s() - t0,
	       want.bad == 0 && want.fnv == fnv_only.fnv ? "ok" : "BAD");
	return want.bad == 0 && want.fnv == fnv_only.fnv ? 0 : -1;
}

static const char *
mode_name(uint8_t mode)
{
	switch (mode) {
	case SMC_DIAG_MODE_SMCR:
		return "smcr";
	case SMC_DIAG_MODE_FALLBACK_TCP:
		return "fallback";
	case SMC_DIAG_MODE_SMCD:
		return "smcd";
	default:
		return "unknown";
	}
}

/*
 * Dumps every SMC socket of the guest; returns the number of sockets that
 * have a connection (a DMB, SMC-D) and the number of those in SMC-D mode,
 * or -1 if the dump failed.
 */
static int
diag_dump(int *connected, int *smcd)
{
	struct {
		struct nlmsghdr nlh;
		struct smc_diag_req req;
	} msg;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	static char buf[32768];
	int fd, done = 0;

	*connected = 0;
	*smcd = 0;
	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_SOCK_DIAG);
	if (fd < 0) {
		printf("SMC_DIAG socket: %s\n", strerror(errno));
		return -1;
	}
	memset(&msg, 0, sizeof(msg));
	msg.nlh.nlmsg_len = sizeof(msg);
	msg.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	msg.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	msg.nlh.nlmsg_seq = 1;
	msg.req.diag_family = AF_SMC;
	msg.req.diag_ext = (1 << (SMC_DIAG_CONNINFO - 1)) |
		(1 << (SMC_DIAG_DMBINFO - 1));
	if (sendto(fd, &msg, sizeof(msg), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		printf("SMC_DIAG sendto: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	while (!done) {
		ssize_t len = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;

		if (len <= 0) {
			printf("SMC_DIAG recv: %s\n",
			       len ? strerror(errno) : "EOF");
			close(fd);
			return -1;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			struct smc_diag_msg *r = NLMSG_DATA(h);
			struct smcd_diag_dmbinfo dmb;
			struct smc_diag_conninfo ci;
			struct smc_diag_fallback fb;
			int have_dmb = 0, have_ci = 0, have_fb = 0;
			struct rtattr *a;
			int alen;
			char lbuf[INET_ADDRSTRLEN], rbuf[INET_ADDRSTRLEN];

			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				printf("SMC_DIAG netlink error\n");
				close(fd);
				return -1;
			}
			alen = h->nlmsg_len - NLMSG_LENGTH(sizeof(*r));
			for (a = (struct rtattr *)(r + 1); RTA_OK(a, alen);
			     a = RTA_NEXT(a, alen)) {
				size_t pl = RTA_PAYLOAD(a);

				if (a->rta_type == SMC_DIAG_DMBINFO &&
				    pl >= sizeof(dmb)) {
					memcpy(&dmb, RTA_DATA(a), sizeof(dmb));
					have_dmb = 1;
				} else if (a->rta_type == SMC_DIAG_CONNINFO &&
					   pl >= sizeof(ci)) {
					memcpy(&ci, RTA_DATA(a), sizeof(ci));
					have_ci = 1;
				} else if (a->rta_type == SMC_DIAG_FALLBACK &&
					   pl >= sizeof(fb)) {
					memcpy(&fb, RTA_DATA(a), sizeof(fb));
					have_fb = 1;
				}
			}
			inet_ntop(AF_INET, r->id.idiag_src, lbuf,
				  sizeof(lbuf));
			inet_ntop(AF_INET, r->id.idiag_dst, rbuf,
				  sizeof(rbuf));
			printf("SMC_DIAG sock %s:%u-%s:%u state=%u mode=%s "
			       "fallback_reason=0x%x peer_diagnosis=0x%x",
			       lbuf, ntohs(r->id.idiag_sport), rbuf,
			       ntohs(r->id.idiag_dport), r->diag_state,
			       mode_name(r->diag_mode),
			       have_fb ? fb.reason : 0,
			       have_fb ? fb.peer_diagnosis : 0);
			if (have_dmb)
				printf(" my_gid=0x%016llx peer_gid=0x%016llx "
				       "dmb_token=0x%016llx "
				       "peer_dmb_token=0x%016llx",
				       (unsigned long long)dmb.my_gid,
				       (unsigned long long)dmb.peer_gid,
				       (unsigned long long)dmb.token,
				       (unsigned long long)dmb.peer_token);
			if (have_ci)
				printf(" rmbe_size=%u peer_rmbe_size=%u "
				       "rx_prod=%u:%u tx_prod=%u:%u",
				       ci.rmbe_size, ci.peer_rmbe_size,
				       ci.rx_prod.wrap, ci.rx_prod.count,
				       ci.tx_prod.wrap, ci.tx_prod.count);
			printf("\n");
			if (have_ci || have_dmb ||
			    r->diag_mode == SMC_DIAG_MODE_FALLBACK_TCP) {
				if (r->id.idiag_dport == 0)
					continue; /* the listener */
				(*connected)++;
				if (r->diag_mode == SMC_DIAG_MODE_SMCD &&
				    have_dmb)
					(*smcd)++;
			}
		}
	}
	close(fd);
	return 0;
}

static int
full_read(int fd, void *buf, size_t n)
{
	size_t off = 0;

	while (off < n) {
		ssize_t r = recv(fd, (char *)buf + off, n - off, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		off += r;
	}
	return 0;
}

/*
 * Each connection carries its own streams (the seeds mixed with the
 * client's number, which it sends first): bytes that reached another
 * connection's DMB do not pass for this one's.
 */
static uint64_t
seed(uint64_t base, uint32_t conn)
{
	return base ^ ((uint64_t)(conn + 1) * UINT64_C(0x100000001b3));
}

static int
client(struct sockaddr_in *sa, uint64_t bytes, uint32_t conn)
{
	uint32_t be = htonl(conn);
	char dir[32];
	uint64_t fnv;
	char c;
	int fd = socket(AF_SMC, SOCK_STREAM, SMC_TEST_PROTO_SMC);

	if (fd < 0 || connect(fd, (struct sockaddr *)sa, sizeof(*sa)) < 0) {
		printf("SMC_TEST client connect: %s\n", strerror(errno));
		return 1;
	}
	if (send(fd, &be, sizeof(be), 0) != sizeof(be) ||
	    send_stream(fd, seed(SEED_C2S, conn), bytes, &fnv) < 0)
		return 1;
	snprintf(dir, sizeof(dir), "s2c#%u", conn);
	if (recv_stream(fd, dir, seed(SEED_S2C, conn), bytes) < 0)
		return 1;
	/* Stay connected until the parent has dumped the sockets. */
	if (full_read(fd, &c, 1) < 0 || c != 'D') {
		printf("SMC_TEST client: no end mark\n");
		return 1;
	}
	close(fd);
	return 0;
}

/*
 * The server's end of one connection, in a child of its own: check the
 * client's stream, send one back, tell the parent (done_w: 'K' or 'F'),
 * and stay connected until it says so (go_r).
 */
static int
serve(int fd, uint64_t bytes, int done_w, int go_r)
{
	uint32_t be;
	char dir[32];
	uint64_t fnv;
	char c = 'F';
	int rc = 1;

	if (full_read(fd, &be, sizeof(be)) == 0) {
		snprintf(dir, sizeof(dir), "c2s#%u", ntohl(be));
		if (recv_stream(fd, dir, seed(SEED_C2S, ntohl(be)), bytes) == 0 &&
		    send_stream(fd, seed(SEED_S2C, ntohl(be)), bytes, &fnv) == 0)
			rc = 0;
	}
	if (rc == 0)
		c = 'K';
	if (write(done_w, &c, 1) != 1 || read(go_r, &c, 1) != 1 ||
	    send(fd, "D", 1, 0) != 1)
		rc = 1;
	close(fd);
	return rc;
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	const char *addr = "127.0.0.1";
	uint64_t bytes = 4 << 20;
	int port = 47011, fallback_ok = 0, conns = 1;
	int lfd, one = 1, i, status, connected, smcd, rc = 0;
	int done[2], go[2];
	pid_t pids[2 * MAX_CONNS];
	int npids = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--addr") && i + 1 < argc)
			addr = argv[++i];
		else if (!strcmp(argv[i], "--port") && i + 1 < argc)
			port = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
			bytes = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--conns") && i + 1 < argc)
			conns = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--fallback-ok"))
			fallback_ok = 1;
		else {
			fprintf(stderr, "usage: %s [--addr A] [--port N] "
				"[--bytes N] [--conns N] [--fallback-ok]\n",
				argv[0]);
			return 2;
		}
	}
	if (conns < 1 || conns > MAX_CONNS) {
		fprintf(stderr, "--conns: 1 to %d\n", MAX_CONNS);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sa.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		printf("SMC_TEST bad address %s\n", addr);
		return 2;
	}
	lfd = socket(AF_SMC, SOCK_STREAM, SMC_TEST_PROTO_SMC);
	if (lfd < 0) {
		printf("SMC_TEST socket(AF_SMC): %s\n", strerror(errno));
		printf("SMC_TEST FAIL\n");
		return 1;
	}
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(lfd, conns) < 0 || pipe(done) < 0 || pipe(go) < 0) {
		printf("SMC_TEST bind/listen %s:%d: %s\n", addr, port,
		       strerror(errno));
		printf("SMC_TEST FAIL\n");
		return 1;
	}
	printf("SMC_TEST listening %s:%d bytes=%" PRIu64 " conns=%d\n", addr,
	       port, bytes, conns);
	for (i = 0; i < conns; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			printf("SMC_TEST fork: %s\n", strerror(errno));
			rc = 1;
			goto reap;
		}
		if (pid == 0) {
			close(lfd);
			_exit(client(&sa, bytes, i));
		}
		pids[npids++] = pid;
	}
	for (i = 0; i < conns; i++) {
		int fd = accept(lfd, NULL, NULL);
		pid_t pid;

		if (fd < 0) {
			printf("SMC_TEST accept: %s\n", strerror(errno));
			rc = 1;
			goto reap;
		}
		pid = fork();
		if (pid == 0) {
			close(lfd);
			_exit(serve(fd, bytes, done[1], go[0]));
		}
		close(fd);
		if (pid < 0) {
			printf("SMC_TEST fork: %s\n", strerror(errno));
			rc = 1;
			goto reap;
		}
		pids[npids++] = pid;
	}
	/* Every connection carried its bytes both ways ... */
	for (i = 0; i < conns; i++) {
		char c;

		if (read(done[0], &c, 1) != 1 || c != 'K')
			rc = 1;
	}
	/*
	 * ... and is still open: the dump shows both ends of each. Its counts
	 * decide.
	 */
	if (diag_dump(&connected, &smcd) < 0)
		rc = 1;
	printf("SMC_DIAG connected=%d smcd=%d\n", connected, smcd);
	if (connected != 2 * conns || (smcd != 2 * conns && !fallback_ok))
		rc = 1;
	for (i = 0; i < conns; i++)
		if (write(go[1], "G", 1) != 1)
			rc = 1;
reap:
	if (rc != 0 && npids < 2 * conns)
		for (i = 0; i < npids; i++)
			kill(pids[i], SIGKILL);
	for (i = 0; i < npids; i++) {
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			printf("SMC_TEST a child failed\n");
			rc = 1;
		}
	}
	close(lfd);
	printf("SMC_TEST %s\n", rc ? "FAIL" : "PASS");
	return rc;
}
