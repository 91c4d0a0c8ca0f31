/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The transport under the shm protocol: connections, what they send and
 * receive, accepting new ones, and control ops waiting for answers. Runs
 * under the control lock, on the control thread (ism_shm_loop.c) or in a
 * control op of the application.
 *
 * Sending never blocks: a connection has at most ISM_SHM_WINDOW requests
 * unanswered, so requests plus their answers stay far below the socket
 * buffer; what does not fit waits in a queue. Answers (ACK) skip the
 * request queue, or two peers with full windows could wait for each other.
 *
 * Nothing waits for a peer without a bound: a connection that has not
 * finished its handshake ISM_SHM_HANDSHAKE_MS after it was made is dropped, and
 * a peer whose oldest request is unanswered for ISM_SHM_ACK_TIMEOUT_MS is
 * unresponsive: control ops stop waiting for it (they get -ETIMEDOUT for
 * it at once) until it answers again.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <rte_tailq.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_conn.h"
#include "ism_shm_loop.h"

/* fds received per datagram (a message may carry one at most: more, up to
 * here, are seen and refused; beyond, the kernel drops them, MSG_CTRUNC).
 */
#define SHM_RX_FDS	4
/* Messages handled per wake-up of one connection, for fairness. */
#define SHM_RX_BURST	64
/* Connections accepted per wake-up of a listening socket. */
#define SHM_ACCEPT_BURST	16
/* How long a device stops accepting when it has no fd to refuse with. */
#define SHM_ACCEPT_RETRY_MS	100
/* How soon a queue that found the socket full is tried again. */
#define SHM_FLUSH_RETRY_MS	10

#define MS	1000000ULL

/* An fd given up to accept (and close) a connection at EMFILE. */
static int spare_fd = -1;
static unsigned int listeners;
static uint64_t next_conn_id;

/* Sending. */

static int
send_raw(int sock, const struct shm_msg *m, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cbuf;
	struct iovec iov = { .iov_base = (void *)(uintptr_t)m,
			     .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;
	ssize_t n;

	if (fd >= 0) {
		memset(&cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf.buf;
		mh.msg_controllen = sizeof(cbuf.buf);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	do {
		n = sendmsg(sock, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return n == sizeof(*m) ? 0 : -EIO;
}

static void
out_free(struct ism_shm_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	free(o);
}

static void
outq_free(struct ism_shm_out_list *q)
{
	struct ism_shm_out *o;

	while ((o = STAILQ_FIRST(q)) != NULL) {
		STAILQ_REMOVE_HEAD(q, next);
		out_free(o);
	}
}

/* Send the queued answers the socket takes; false if some are left. */
static bool
ackq_flush(struct ism_shm_conn *p)
{
	struct ism_shm_out *o;

	while ((o = STAILQ_FIRST(&p->ackq)) != NULL) {
		if (send_raw(p->fd, &o->msg, -1) == -EAGAIN)
			return false;
		STAILQ_REMOVE_HEAD(&p->ackq, next);
		p->ackq_len--;
		out_free(o);
	}
	return true;
}

/* A request went out: it is answered in order, by ISM_SHM_ACK_TIMEOUT_MS. */
static void
sent_request(struct ism_shm_conn *p, uint32_t seq)
{
	uint32_t k = (p->sent_head + p->in_flight++) % ISM_SHM_WINDOW;
	uint64_t now = ism_now_ns();

	p->sent_seq[k] = seq;
	p->sent_ns[k] = now;
	if (p->in_flight == 1)
		ism_shm_loop_arm(now + ISM_SHM_ACK_TIMEOUT_MS * MS);
}

/* Send what the window and the socket allow. A message that fails for
 * another reason than a full socket is dropped: the connection is broken
 * and its end will be seen as EOF.
 */
static void
flush(struct ism_shm_conn *p)
{
	struct ism_shm_out *o;
	bool req;
	int r, gfd;

	if (!ackq_flush(p))
		return;
	while ((o = STAILQ_FIRST(&p->outq)) != NULL) {
		req = o->msg.hdr.seq != 0;
		if (req && p->in_flight >= ISM_SHM_WINDOW)
			return;
		gfd = o->grant_token != 0 ?
			p->set->ops->grant_fd(p, o->grant_token) : o->fd;
		if (o->grant_token != 0 && gfd < 0) {
			/* Unregistered meanwhile: its DMB_DEL follows. */
			STAILQ_REMOVE_HEAD(&p->outq, next);
			out_free(o);
			continue;
		}
		r = send_raw(p->fd, &o->msg, gfd);
		if (r == -EAGAIN) {
			ism_shm_loop_arm(ism_now_ns() +
					 SHM_FLUSH_RETRY_MS * MS);
			return;
		}
		STAILQ_REMOVE_HEAD(&p->outq, next);
		if (r == 0 && req)
			sent_request(p, o->msg.hdr.seq);
		else if (r < 0)
			ISM_PMD_LOG(DEBUG, "%s: send %s: %s", p->set->name,
				    ism_shm_msg_type_name(o->msg.hdr.type),
				    strerror(-r));
		out_free(o);
	}
}

static int
enqueue(struct ism_shm_conn *p, struct shm_msg *m, int fd, uint64_t grant_token)
{
	struct ism_shm_out *o = malloc(sizeof(*o));

	if (o == NULL)
		return -ENOMEM;
	o->msg = *m;
	o->fd = -1;
	o->grant_token = grant_token;
	/* Our own copy: the caller may close fd before the send. */
	if (fd >= 0) {
		o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (o->fd < 0) {
			ISM_PMD_LOG_RL(ERR, "%s: cannot dup fd %d for a %s: %s",
				       p->set->name, fd,
				       ism_shm_msg_type_name(m->hdr.type),
				       strerror(errno));
			free(o);
			return -ENOMEM;
		}
	}
	STAILQ_INSERT_TAIL(&p->outq, o, next);
	flush(p);
	return 0;
}

int
ism_shm_conn_send(struct ism_shm_conn *p, struct shm_msg *m, int fd)
{
	return enqueue(p, m, fd, 0);
}

int
ism_shm_conn_send_grant(struct ism_shm_conn *p, struct shm_msg *m)
{
	return enqueue(p, m, -1, m->u.dmb.token);
}

int
ism_shm_conn_send_ack(struct ism_shm_conn *p, uint32_t seq,
		int32_t status)
{
	struct ism_shm_out *o;
	struct shm_msg m;

	ism_shm_msg_init(&m, SHM_MSG_ACK, 0);
	m.u.ack.seq = seq;
	m.u.ack.status = status;
	if (STAILQ_EMPTY(&p->ackq) && send_raw(p->fd, &m, -1) != -EAGAIN)
		return 0;
	/* Each queued answer is a request the peer still counts as
	 * unanswered, and an honest peer has at most ISM_SHM_WINDOW of those.
	 * One that sends more and never reads its socket would make us
	 * queue without bound.
	 */
	if (p->ackq_len >= ISM_SHM_WINDOW)
		return -EPROTO;
	o = malloc(sizeof(*o));
	if (o == NULL) {
		ISM_PMD_LOG_RL(ERR, "%s: no memory to queue an answer",
			       p->set->name);
		return 0;
	}
	o->msg = m;
	o->fd = -1;
	o->grant_token = 0;
	STAILQ_INSERT_TAIL(&p->ackq, o, next);
	p->ackq_len++;
	ism_shm_loop_arm(ism_now_ns() + SHM_FLUSH_RETRY_MS * MS);
	return 0;
}

static void wait_done(struct ism_shm_conn *p, uint32_t seq, int status);

/* An answer: it must answer the oldest request sent. */
static int
on_ack(struct ism_shm_conn *p, const struct shm_msg *m)
{
	uint32_t seq = m->u.ack.seq;

	if (p->in_flight == 0 || p->sent_seq[p->sent_head] != seq)
		return -EPROTO;
	p->sent_head = (p->sent_head + 1) % ISM_SHM_WINDOW;
	p->in_flight--;
	if (p->unresponsive) {
		p->unresponsive = false;
		ISM_PMD_LOG_RL(INFO, "%s: peer pid %d answers again",
			       p->set->name, (int)p->pid);
	}
	wait_done(p, seq, m->u.ack.status);
	flush(p);
	return 0;
}

/* The answer to seq from p (or -ENETUNREACH when p ends) reaches a
 * control op that waits for it.
 */
static void
wait_done(struct ism_shm_conn *p, uint32_t seq, int status)
{
	struct ism_shm_wait *w = p->set->wait;
	unsigned int i;

	if (w == NULL || w->seq != seq)
		return;
	for (i = 0; i < w->n; i++)
		if (w->ids[i] == p->id && w->status[i] == 1) {
			w->status[i] = status;
			ism_shm_ctl_wake();
		}
}

/* Connections. */

static void conn_fn(struct ism_shm_watch *w, uint32_t events);

void
ism_shm_conns_init(struct ism_shm_conns *d, const char *name,
		const struct ism_shm_conn_ops *ops,
		const struct ism_shm_policy *pol, void *owner)
{
	memset(d, 0, sizeof(*d));
	d->name = name;
	d->ops = ops;
	d->pol = pol;
	d->owner = owner;
	TAILQ_INIT(&d->list);
}

int
ism_shm_conn_init(struct ism_shm_conn *p, struct ism_shm_conns *d, int fd,
		bool initiator)
{
	p->set = d;
	p->fd = fd;
	p->initiator = initiator;
	p->id = ++next_conn_id;
	p->deadline_ns = ism_now_ns() + ISM_SHM_HANDSHAKE_MS * MS;
	snprintf(p->who, sizeof(p->who), "unknown");
	STAILQ_INIT(&p->outq);
	STAILQ_INIT(&p->ackq);
	p->w = ism_shm_watch_add(fd, conn_fn, p);
	if (p->w == NULL) {
		close(fd);
		return -ENOMEM;
	}
	TAILQ_INSERT_TAIL(&d->list, p, next);
	/* Made by the application (joining): the control thread must wake
	 * at its deadline, even if nothing else happens.
	 */
	ism_shm_loop_arm(p->deadline_ns);
	return 0;
}

void
ism_shm_conn_identify(struct ism_shm_conn *p, const char *who)
{
	p->identified = true;
	snprintf(p->who, sizeof(p->who), "%s", who);
}

void
ism_shm_conn_establish(struct ism_shm_conn *p)
{
	p->established = true;
	ism_shm_ctl_wake();
}

void
ism_shm_conn_fini(struct ism_shm_conn *p)
{
	/* A last try for queued answers: a peer that said good-bye waits
	 * for ours (on a broken connection they fail and are dropped).
	 */
	ackq_flush(p);
	if (p->set->wait != NULL)
		wait_done(p, p->set->wait->seq, -ENETUNREACH);
	TAILQ_REMOVE(&p->set->list, p, next);
	ism_shm_watch_del(p->w);
	outq_free(&p->outq);
	outq_free(&p->ackq);
	ism_shm_ctl_wake();
}

struct ism_shm_conn *
ism_shm_conn_find(struct ism_shm_conns *d, uint64_t id)
{
	struct ism_shm_conn *p;

	TAILQ_FOREACH(p, &d->list, next)
		if (p->id == id)
			return p;
	return NULL;
}

/* Drop a connection: the peer's fault, counted. */
static void
drop(struct ism_shm_conn *p, const char *what, const char *why,
		enum ism_shm_conn_end end)
{
	p->set->protocol_errors++;
	ISM_PMD_LOG_RL(ERR, "%s: protocol error of pid %d (GID %s): %s: %s: "
		       "connection dropped", p->set->name, (int)p->pid, p->who,
		       what, why != NULL ? why : "invalid");
	p->set->ops->down(p, end);
}

static void
protocol_error(struct ism_shm_conn *p, const char *what, const char *why)
{
	drop(p, what, why, ISM_SHM_END_PROTO);
}

/* Drop a connection for a failure of ours (err < 0). */
static void
our_failure(struct ism_shm_conn *p, const char *what, const char *why, int err)
{
	ISM_PMD_LOG_RL(ERR, "%s: dropping connection (pid %d, GID %s): %s: %s: "
		       "%s", p->set->name, (int)p->pid, p->who, what,
		       why != NULL ? why : "failed", strerror(-err));
	p->set->ops->down(p, ISM_SHM_END_OURS);
}

/*
 * Receive and handle one message. Returns 1 (more may follow), 0 (socket
 * empty) or -1 (the connection is gone; p is freed).
 */
static int
conn_recv_one(struct ism_shm_conn *p)
{
	union {
		struct shm_msg m;
		uint8_t b[sizeof(struct shm_msg) + 1];	/* sees oversize */
	} buf;
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(int) * SHM_RX_FDS)];
	} cbuf;
	struct iovec iov = { .iov_base = &buf, .iov_len = sizeof(buf) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf.b, .msg_controllen = sizeof(cbuf.b),
	};
	int fds[SHM_RX_FDS], nfds = 0, i, k, ret;
	const char *why = NULL;
	struct cmsghdr *c;
	struct shm_msg m;
	bool lost;
	ssize_t n;

	n = recvmsg(p->fd, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0) {
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		if (errno == EINTR)
			return 1;
	}
	for (c = CMSG_FIRSTHDR(&mh); n >= 0 && c != NULL;
	     c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < k && nfds < SHM_RX_FDS; i++)
			memcpy(&fds[nfds++], CMSG_DATA(c) + i * sizeof(int),
			       sizeof(int));
	}
	if (n <= 0) {
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		ISM_PMD_LOG(DEBUG, "%s: connection %" PRIu64 " closed: %s",
			    p->set->name, p->id, n == 0 ? "EOF" :
			    strerror(errno));
		p->set->ops->down(p, ISM_SHM_END_EOF);
		return -1;
	}
	/* The kernel truncates the fds when they do not fit in cbuf (the
	 * peer sent too many) or when it cannot install one here (EMFILE):
	 * then there is room left, and at least one fd was lost.
	 */
	lost = (mh.msg_flags & MSG_CTRUNC) && nfds < SHM_RX_FDS;
	if ((mh.msg_flags & MSG_CTRUNC) && !lost) {
		why = "more file descriptors than a message may carry";
		ret = -EBADMSG;
	} else if (mh.msg_flags & MSG_TRUNC) {
		why = "oversized message";
		ret = -EBADMSG;
	} else {
		ret = ism_shm_msg_parse(&buf, n, nfds + lost, &m, &why);
	}
	if (ret < 0) {
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		protocol_error(p, "malformed message", why);
		return -1;
	}
	if (m.hdr.type == SHM_MSG_ACK) {
		ret = on_ack(p, &m);
		why = "answer to no request";
	} else {
		/* Parsed: an fd lost is the only one the message had. */
		ret = p->set->ops->recv(p, &m, nfds > 0 ? fds[0] :
				lost ? ISM_SHM_FD_LOST : -1, &why);
	}
	if (ret == -EPROTO) {
		protocol_error(p, ism_shm_msg_type_name(m.hdr.type), why);
		return -1;
	}
	if (ret < 0) {
		our_failure(p, ism_shm_msg_type_name(m.hdr.type), why, ret);
		return -1;
	}
	return ret == 0 ? 1 : -1;	/* 1: the handler closed it (BYE) */
}

/* Handle what p has received, within the control thread's budget;
 * false if the connection is gone.
 */
static bool
conn_poll(struct ism_shm_conn *p)
{
	int i, r = 1;

	/* One unit per message; what is left waits for the next turn. */
	for (i = 0; i < SHM_RX_BURST && r == 1 && ism_shm_loop_budget_left();
	     i++) {
		r = conn_recv_one(p);
		ism_shm_loop_work(r < 0 ? ISM_SHM_WORK_DEPART : 1);
	}
	return r >= 0;
}

bool
ism_shm_conn_drain(struct ism_shm_conn *p)
{
	int i, r = 1;

	/* A dead peer's socket holds at most its window of requests and
	 * answers: far fewer than this.
	 */
	for (i = 0; i < 4 * SHM_RX_BURST && r == 1; i++)
		r = conn_recv_one(p);
	return r >= 0;
}

static void
conn_fn(struct ism_shm_watch *w, uint32_t events __rte_unused)
{
	conn_poll(w->arg);
}

/* The control thread's duties towards d's connections. */
static uint64_t
conns_tick(struct ism_shm_conns *d, uint64_t now)
{
	uint64_t next = UINT64_MAX, due;
	struct ism_shm_conn *p, *tmp;

	RTE_TAILQ_FOREACH_SAFE(p, &d->list, next, tmp) {
		if (!ism_shm_loop_budget_left())
			return 0;
		if (!p->established && now >= p->deadline_ns) {
			d->handshakes_expired++;
			drop(p, "handshake", "not finished in time",
			     ISM_SHM_END_LATE);
			ism_shm_loop_work(ISM_SHM_WORK_DEPART);
			continue;
		}
		if (!p->established)
			next = RTE_MIN(next, p->deadline_ns);
		if (p->in_flight > 0) {
			due = p->sent_ns[p->sent_head] +
				ISM_SHM_ACK_TIMEOUT_MS * MS;
			if (now < due) {
				next = RTE_MIN(next, due);
			} else if (!p->unresponsive) {
				p->unresponsive = true;
				ISM_PMD_LOG_RL(WARNING, "%s: peer pid %d has not "
					       "answered a request for %d ms: "
					       "control calls stop waiting for "
					       "it until it answers",
					       d->name, (int)p->pid,
					       ISM_SHM_ACK_TIMEOUT_MS);
				ism_shm_ctl_wake();
			}
		}
		if (!STAILQ_EMPTY(&p->ackq) ||
		    (!STAILQ_EMPTY(&p->outq) && p->in_flight < ISM_SHM_WINDOW)) {
			flush(p);
			if (!STAILQ_EMPTY(&p->ackq) ||
			    (!STAILQ_EMPTY(&p->outq) &&
			     p->in_flight < ISM_SHM_WINDOW))
				next = RTE_MIN(next, now + SHM_FLUSH_RETRY_MS *
					       MS);
		}
	}
	return next;
}

/* Listening. */

/*
 * Out of fds: give up the spare fd to accept the next connection and close
 * it. Returns 1 (refused one), 0 (none was waiting: Linux looks for a free
 * fd before it looks for a connection, so accept() says EMFILE also when
 * nothing is pending) or -1 (no spare fd, or it was taken meanwhile).
 */
static int
refuse_one(struct ism_shm_conns *d)
{
	int fd, err;

	if (spare_fd < 0)
		return -1;
	close(spare_fd);
	/* own-fd: our listening socket (SOCK_NONBLOCK), never passed. */
	fd = accept4(d->lw->fd, NULL, NULL, SOCK_CLOEXEC);
	err = errno;
	if (fd >= 0)
		close(fd);
	spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		return 1;
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR ? 0 : -1;
}

/*
 * Out of fds and no spare one to refuse a connection with: the
 * level-triggered epoll would call us again at once, so take the socket
 * out of it for a while (listen_tick() puts it back). Connections wait
 * in the backlog meanwhile.
 */
static void
accept_pause(struct ism_shm_conns *d)
{
	ism_shm_watch_pause(d->lw);
	d->accept_retry_ns = ism_now_ns() + SHM_ACCEPT_RETRY_MS * MS;
	ISM_PMD_LOG_RL(ERR, "%s: out of file descriptors: accepting no "
		       "connection for %d ms", d->name, SHM_ACCEPT_RETRY_MS);
}

static uint64_t
listen_tick(struct ism_shm_conns *d, uint64_t now)
{
	if (d->accept_retry_ns == 0 || d->lw == NULL)
		return UINT64_MAX;
	if (now < d->accept_retry_ns)
		return d->accept_retry_ns;
	if (spare_fd < 0)
		spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	d->accept_retry_ns = 0;
	if (ism_shm_watch_resume(d->lw) < 0)
		accept_pause(d);
	return d->accept_retry_ns != 0 ? d->accept_retry_ns : UINT64_MAX;
}

/* Why a connection from cr may not become a connection (NULL if it may),
 * and what the peer is told (REFUSE).
 */
static const char *
refusal(struct ism_shm_conns *d, int fd, struct ucred *cr, int *reason)
{
	socklen_t crlen = sizeof(*cr);
	struct ism_shm_conn *p;
	unsigned int pending = 0;
	const char *why;

	*reason = -EACCES;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, cr, &crlen) < 0)
		return "no credentials";
	why = ism_shm_policy_refusal(d->pol, cr->uid, cr->gid);
	if (why != NULL)
		return why;
	TAILQ_FOREACH(p, &d->list, next)
		pending += !p->initiator && !p->identified;
	*reason = -EBUSY;
	if (pending >= ISM_SHM_MAX_PENDING)
		return "too many handshakes pending";
	return NULL;
}

/*
 * Tell a refused peer why, if its socket takes it now (a new connection:
 * it does), and close. What the peer sent already (its HELLO) is read and
 * dropped first: closing a unix socket with unread data makes the peer's
 * next recvmsg() fail with ECONNRESET before it reads the REFUSE queued
 * for it, and it would not learn why. (Bounded: the queue of a socket
 * not yet answered holds a few messages; passed fds are closed by the
 * kernel, as no control buffer takes them.)
 */
#define REFUSE_DRAIN_MAX	16

static void
refuse(int fd, int reason)
{
	struct shm_msg m;
	char sink[64];
	int i;

	ism_shm_msg_init(&m, SHM_MSG_REFUSE, 0);
	m.u.refuse.reason = reason;
	send_raw(fd, &m, -1);
	for (i = 0; i < REFUSE_DRAIN_MAX; i++)
		if (recv(fd, sink, sizeof(sink), MSG_DONTWAIT) <= 0)
			break;
	close(fd);
}

static void
listen_fn(struct ism_shm_watch *w, uint32_t events __rte_unused)
{
	struct ism_shm_conns *d = w->arg;
	const char *why;
	struct ucred cr;
	int fd, i, r, reason;

	for (i = 0; i < SHM_ACCEPT_BURST && ism_shm_loop_work(1); i++) {
		/* own-fd: our listening socket (SOCK_NONBLOCK). */
		fd = accept4(w->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && errno == EINTR)
			continue;
		if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
			r = refuse_one(d);
			if (r == 0)
				return;
			if (r < 0) {
				accept_pause(d);
				return;
			}
			d->refused++;
			ISM_PMD_LOG_RL(ERR, "%s: out of file descriptors: "
				       "refused a connection", d->name);
			continue;
		}
		if (fd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				ISM_PMD_LOG_RL(ERR, "%s: accept: %s", d->name,
					       strerror(errno));
			return;
		}
		memset(&cr, 0, sizeof(cr));
		why = refusal(d, fd, &cr, &reason);
		if (why != NULL) {
			d->refused++;
			ISM_PMD_LOG_RL(ERR, "%s: refused a connection from pid "
				       "%d (uid %u gid %u): %s", d->name,
				       (int)cr.pid, (unsigned int)cr.uid,
				       (unsigned int)cr.gid, why);
			refuse(fd, reason);
			continue;
		}
		d->ops->accept(d, fd, cr.pid, ism_shm_process_of(fd));
	}
}

int
ism_shm_conn_listen(struct ism_shm_conns *d, int fd)
{
	d->lw = ism_shm_watch_add(fd, listen_fn, d);
	if (d->lw == NULL) {
		close(fd);
		return -ENOMEM;
	}
	if (listeners++ == 0 && spare_fd < 0)
		spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	return 0;
}

void
ism_shm_conn_listen_stop(struct ism_shm_conns *d)
{
	if (d->lw == NULL)
		return;
	ism_shm_watch_del(d->lw);
	d->lw = NULL;
	d->accept_retry_ns = 0;
	if (--listeners == 0 && spare_fd >= 0) {
		close(spare_fd);
		spare_fd = -1;
	}
}

uint64_t
ism_shm_conns_tick(struct ism_shm_conns *d, uint64_t now)
{
	uint64_t next = listen_tick(d, now);

	return RTE_MIN(next, conns_tick(d, now));
}

/* Waiting (application threads, the control lock held). */

static void
deadline_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = ns / 1000000000ULL;
	ts->tv_nsec = ns % 1000000000ULL;
}

void
ism_shm_conn_wait_answers(struct ism_shm_conns *d, uint32_t seq,
		const uint64_t *ids, int *status, unsigned int n)
{
	uint64_t end = ism_now_ns() + ISM_SHM_ACK_TIMEOUT_MS * MS;
	struct ism_shm_wait w = { .seq = seq, .n = n, .ids = ids,
			      .status = status };
	struct ism_shm_conn *p;
	struct timespec ts;
	unsigned int i, left;

	/* Answers already in, or connections already gone, were missed:
	 * the caller queued the request, so neither can have happened.
	 */
	for (i = 0; i < n; i++)
		status[i] = ism_shm_conn_find(d, ids[i]) != NULL ? 1 :
			-ENETUNREACH;
	d->wait = &w;
	deadline_ts(end, &ts);
	for (;;) {
		left = 0;
		for (i = 0; i < n; i++) {
			if (status[i] != 1)
				continue;
			/* Unresponsive: not waited for (the control thread
			 * said so in the log once).
			 */
			p = ism_shm_conn_find(d, ids[i]);
			if (p != NULL && p->unresponsive)
				status[i] = -ETIMEDOUT;
			else
				left++;
		}
		if (left == 0 || ism_now_ns() >= end)
			break;
		ism_shm_ctl_wait(&ts);
	}
	d->wait = NULL;
	for (i = 0; i < n; i++) {
		if (status[i] != 1)
			continue;
		status[i] = -ETIMEDOUT;
		p = ism_shm_conn_find(d, ids[i]);
		ISM_PMD_LOG_RL(WARNING, "%s: peer pid %d did not answer within "
			       "%d ms", d->name, p != NULL ? (int)p->pid : -1,
			       ISM_SHM_ACK_TIMEOUT_MS);
	}
}

void
ism_shm_conn_wait_up(struct ism_shm_conns *d, const uint64_t *ids,
		unsigned int n)
{
	/* The control thread ends each handshake by its deadline; this
	 * bound only guards against a control thread that cannot run.
	 */
	uint64_t end = ism_now_ns() + 2 * ISM_SHM_HANDSHAKE_MS * MS;
	struct ism_shm_conn *p;
	struct timespec ts;
	unsigned int i, left;

	deadline_ts(end, &ts);
	do {
		left = 0;
		for (i = 0; i < n; i++) {
			p = ism_shm_conn_find(d, ids[i]);
			left += p != NULL && !p->established;
		}
		if (left == 0)
			return;
	} while (ism_shm_ctl_wait(&ts) != ETIMEDOUT);
}
