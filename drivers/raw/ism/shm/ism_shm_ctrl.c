/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The control thread of the shm backend and the transport under the
 * protocol: one control thread per process (started with the first shm
 * device, stopped with the last) serves every listening socket and
 * connection with its own epoll, never a data-path lcore.
 *
 * Why not the EAL interrupt thread: it rebuilds its whole epoll set on
 * every callback change, panics if a registered fd was closed, and cannot
 * wake on a timeout; a peer that never finishes its handshake must be
 * dropped after a while.
 *
 * Sending never blocks: a connection has at most SHM_WINDOW requests
 * unanswered, so requests plus their answers stay far below the socket
 * buffer; what does not fit waits in a queue. Answers (ACK) skip the
 * request queue, or two peers with full windows could wait for each other.
 *
 * Lifetime: a watch (epoll data) is freed only by the control thread
 * between two epoll_wait() batches, so an event already fetched for a
 * connection that another thread closed finds a dead watch, not freed
 * memory.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>

#include <ism_compat.h>

#include "ism_shm.h"

/* fds received per datagram (a message may carry one at most: more, up to
 * here, are seen and refused; beyond, the kernel drops them, MSG_CTRUNC). */
#define SHM_RX_FDS	4
/* Messages handled per wake-up of one connection, for fairness. */
#define SHM_RX_BURST	64
/* How long a device stops accepting when it has no fd to refuse with. */
#define SHM_ACCEPT_RETRY_MS	100

struct shm_ctl shm_ctl = { .lock = PTHREAD_MUTEX_INITIALIZER };

static struct {
	pthread_mutex_t life;		/* start/stop of the thread */
	unsigned int users;		/* shm devices */
	bool cond_ready;
	int epfd;
	int spare_fd;			/* given up to accept at EMFILE */
	uint64_t paused_log_ns;		/* last "not accepting" log */
	struct shm_watch *evw;		/* wakes the thread */
	pthread_t thread;
	bool stop;
	uint64_t next_id;
	TAILQ_HEAD(, shm_watch) grave;
	TAILQ_HEAD(, shm_dev) devs;
} ctl = {
	.life = PTHREAD_MUTEX_INITIALIZER,
	.epfd = -1,
	.spare_fd = -1,
	.grave = TAILQ_HEAD_INITIALIZER(ctl.grave),
	.devs = TAILQ_HEAD_INITIALIZER(ctl.devs),
};

uint64_t
shm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

uint32_t
shm_next_seq(struct shm_dev *d)
{
	if (++d->seq == 0)
		d->seq = 1;
	return d->seq;
}

/* Watches. */

struct shm_watch *
shm_watch_add(int fd, void (*fn)(struct shm_watch *, uint32_t), void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct shm_watch *w = calloc(1, sizeof(*w));

	if (w == NULL) {
		ISM_PMD_LOG(ERR, "no memory for a control watch");
		return NULL;
	}
	w->fd = fd;
	w->fn = fn;
	w->arg = arg;
	ev.data.ptr = w;
	if (epoll_ctl(ctl.epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		ISM_PMD_LOG(ERR, "epoll_ctl(ADD, %d): %s", fd, strerror(errno));
		free(w);
		return NULL;
	}
	return w;
}

void
shm_watch_del(struct shm_watch *w)
{
	if (w == NULL || w->dead)
		return;
	epoll_ctl(ctl.epfd, EPOLL_CTL_DEL, w->fd, NULL);
	close(w->fd);
	w->fd = -1;
	w->dead = true;
	TAILQ_INSERT_TAIL(&ctl.grave, w, next);
}

static void
grave_free(void)
{
	struct shm_watch *w;

	while ((w = TAILQ_FIRST(&ctl.grave)) != NULL) {
		TAILQ_REMOVE(&ctl.grave, w, next);
		free(w);
	}
}

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
out_free(struct shm_out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	free(o);
}

static void
outq_free(struct shm_out_list *q)
{
	struct shm_out *o;

	while ((o = STAILQ_FIRST(q)) != NULL) {
		STAILQ_REMOVE_HEAD(q, next);
		out_free(o);
	}
}

/* Send the queued answers the socket takes; false if some are left. */
static bool
ackq_flush(struct shm_peer *p)
{
	struct shm_out *o;

	while ((o = STAILQ_FIRST(&p->ackq)) != NULL) {
		if (send_raw(p->fd, &o->msg, -1) == -EAGAIN)
			return false;
		STAILQ_REMOVE_HEAD(&p->ackq, next);
		p->ackq_len--;
		out_free(o);
	}
	return true;
}

/* Send what the window and the socket allow. A message that fails for
 * another reason than a full socket is dropped: the connection is broken
 * and its end will be seen as EOF. */
static void
flush(struct shm_peer *p)
{
	struct shm_own_dmb *own;
	struct shm_out *o;
	bool req;
	int r;

	if (!ackq_flush(p))
		return;
	while ((o = STAILQ_FIRST(&p->outq)) != NULL) {
		req = o->msg.hdr.seq != 0;
		if (req && p->inflight >= SHM_WINDOW)
			return;
		own = o->grant_token != 0 ?
			shm_own_find(p->dev, o->grant_token) : NULL;
		if (o->grant_token != 0 && (own == NULL || !own->registered)) {
			/* Unregistered meanwhile: its DMB_DEL follows. */
			STAILQ_REMOVE_HEAD(&p->outq, next);
			out_free(o);
			continue;
		}
		r = send_raw(p->fd, &o->msg, own != NULL ? own->fd : o->fd);
		if (r == -EAGAIN)
			return;
		STAILQ_REMOVE_HEAD(&p->outq, next);
		if (r == 0 && req)
			p->sent_seq[(p->sent_head + p->inflight++) %
				    SHM_WINDOW] = o->msg.hdr.seq;
		else if (r < 0)
			ISM_PMD_LOG(DEBUG, "%s: send %s: %s", p->dev->name,
				    shm_msg_type_name(o->msg.hdr.type),
				    strerror(-r));
		out_free(o);
	}
}

static int
enqueue(struct shm_peer *p, struct shm_msg *m, int fd, uint64_t grant_token)
{
	struct shm_out *o = malloc(sizeof(*o));

	if (o == NULL)
		return -ENOMEM;
	o->msg = *m;
	o->fd = -1;
	o->grant_token = grant_token;
	/* Our own copy: the caller may close fd before the send. */
	if (fd >= 0) {
		o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		if (o->fd < 0) {
			ISM_PMD_LOG(ERR, "%s: cannot dup fd %d for a %s: %s",
				    p->dev->name, fd,
				    shm_msg_type_name(m->hdr.type),
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
shm_send(struct shm_peer *p, struct shm_msg *m, int fd)
{
	return enqueue(p, m, fd, 0);
}

int
shm_send_grant(struct shm_peer *p, struct shm_msg *m)
{
	return enqueue(p, m, -1, m->u.dmb.token);
}

int
shm_send_ack(struct shm_peer *p, uint32_t seq, int32_t status)
{
	struct shm_out *o;
	struct shm_msg m;

	shm_msg_init(&m, SHM_MSG_ACK, 0);
	m.u.ack.seq = seq;
	m.u.ack.status = status;
	if (STAILQ_EMPTY(&p->ackq) && send_raw(p->fd, &m, -1) != -EAGAIN)
		return 0;
	/* Each queued answer is a request the peer still counts as
	 * unanswered, and an honest peer has at most SHM_WINDOW of those.
	 * One that sends more and never reads its socket would make us
	 * queue without bound. */
	if (p->ackq_len >= SHM_WINDOW)
		return -EPROTO;
	o = malloc(sizeof(*o));
	if (o == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory to queue an answer",
			    p->dev->name);
		return 0;
	}
	o->msg = m;
	o->fd = -1;
	o->grant_token = 0;
	STAILQ_INSERT_TAIL(&p->ackq, o, next);
	p->ackq_len++;
	return 0;
}

/* An answer: it must answer the oldest request sent. */
static int
on_ack(struct shm_peer *p, const struct shm_msg *m)
{
	uint32_t seq = m->u.ack.seq;

	if (p->inflight == 0 || p->sent_seq[p->sent_head] != seq)
		return -EPROTO;
	p->sent_head = (p->sent_head + 1) % SHM_WINDOW;
	p->inflight--;
	shm_wait_done(p, seq, m->u.ack.status);
	flush(p);
	return 0;
}

void
shm_wait_done(struct shm_peer *p, uint32_t seq, int status)
{
	struct shm_wait *w = p->dev->wait;
	unsigned int i;

	if (w == NULL || w->seq != seq)
		return;
	for (i = 0; i < w->n; i++)
		if (w->ids[i] == p->id && w->status[i] == 1) {
			w->status[i] = status;
			pthread_cond_broadcast(&shm_ctl.cond);
		}
}

/* Connections. */

static void conn_fn(struct shm_watch *w, uint32_t events);

struct shm_peer *
shm_conn_new(struct shm_dev *d, int fd, bool initiator)
{
	struct shm_peer *p = calloc(1, sizeof(*p));

	if (p == NULL) {
		ISM_PMD_LOG(ERR, "%s: no memory for a connection", d->name);
		close(fd);
		return NULL;
	}
	p->dev = d;
	p->fd = fd;
	p->initiator = initiator;
	p->id = ++ctl.next_id;
	p->slot = SHM_NO_SLOT;
	p->deadline_ns = shm_now_ns() + SHM_HANDSHAKE_MS * 1000000ULL;
	STAILQ_INIT(&p->outq);
	STAILQ_INIT(&p->ackq);
	p->w = shm_watch_add(fd, conn_fn, p);
	if (p->w == NULL) {
		close(fd);
		free(p);
		return NULL;
	}
	TAILQ_INSERT_TAIL(&d->conns, p, next);
	return p;
}

void
shm_conn_free(struct shm_peer *p)
{
	/* A last try for queued answers: a peer that said good-bye waits
	 * for ours (on a broken connection they fail and are dropped). */
	ackq_flush(p);
	TAILQ_REMOVE(&p->dev->conns, p, next);
	shm_watch_del(p->w);
	outq_free(&p->outq);
	outq_free(&p->ackq);
	free(p);
}

struct shm_peer *
shm_conn_find(struct shm_dev *d, uint64_t id)
{
	struct shm_peer *p;

	TAILQ_FOREACH(p, &d->conns, next)
		if (p->id == id)
			return p;
	return NULL;
}

/* Drop a connection: the peer's fault (counted) or ours (err < 0). */
static void
conn_drop(struct shm_peer *p, const char *what, const char *why, int err)
{
	char gid[RTE_ISM_GID_STRLEN] = "unknown";

	if (p->hello_rcvd || p->initiator)
		rte_ism_gid_format(&p->gid, gid, sizeof(gid));
	ISM_PMD_LOG(ERR, "%s: dropping connection (pid %d, GID %s): %s: %s%s%s",
		    p->dev->name, (int)p->pid, gid, what,
		    why != NULL ? why : "invalid", err < 0 ? ": " : "",
		    err < 0 ? strerror(-err) : "");
	if (err == 0)
		p->dev->protocol_errors++;
	shm_peer_down(p, SHM_DOWN_LOST);
}

static void
protocol_error(struct shm_peer *p, const char *what, const char *why)
{
	conn_drop(p, what, why, 0);
}

/*
 * Receive and handle one message. Returns 1 (more may follow), 0 (socket
 * empty) or -1 (the connection is gone; p is freed).
 */
static int
conn_recv_one(struct shm_peer *p)
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
			    p->dev->name, p->id, n == 0 ? "EOF" :
			    strerror(errno));
		shm_peer_down(p, SHM_DOWN_LOST);
		return -1;
	}
	/* The kernel truncates the fds when they do not fit in cbuf (the
	 * peer sent too many) or when it cannot install one here (EMFILE):
	 * then there is room left, and at least one fd was lost. */
	lost = (mh.msg_flags & MSG_CTRUNC) && nfds < SHM_RX_FDS;
	if ((mh.msg_flags & MSG_CTRUNC) && !lost) {
		why = "more file descriptors than a message may carry";
		ret = -EBADMSG;
	} else if (mh.msg_flags & MSG_TRUNC) {
		why = "oversized message";
		ret = -EBADMSG;
	} else {
		ret = shm_msg_parse(&buf, n, nfds + lost, &m, &why);
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
		ret = shm_peer_handle(p, &m, nfds > 0 ? fds[0] :
				lost ? SHM_FD_LOST : -1, &why);
	}
	if (ret < 0) {
		conn_drop(p, shm_msg_type_name(m.hdr.type), why,
			  ret == -EPROTO ? 0 : ret);
		return -1;
	}
	return ret == 0 ? 1 : -1;	/* 1: the handler closed it (BYE) */
}

bool
shm_conn_poll(struct shm_peer *p)
{
	int i, r = 1;

	for (i = 0; i < SHM_RX_BURST && r == 1; i++)
		r = conn_recv_one(p);
	return r >= 0;
}

static void
conn_fn(struct shm_watch *w, uint32_t events __rte_unused)
{
	shm_conn_poll(w->arg);
}

/* Listening. */

/*
 * Out of fds and no spare one to accept and refuse a connection with: the
 * level-triggered epoll would call us again at once, so take the socket
 * out of it for a while (tick() puts it back). Connections wait in the
 * backlog meanwhile.
 */
static void
accept_pause(struct shm_dev *d)
{
	uint64_t now = shm_now_ns();

	epoll_ctl(ctl.epfd, EPOLL_CTL_DEL, d->lw->fd, NULL);
	d->accept_retry_ns = now + SHM_ACCEPT_RETRY_MS * 1000000ULL;
	/* Once a second at most while it lasts. */
	if (now - ctl.paused_log_ns >= 1000000000ULL) {
		ctl.paused_log_ns = now;
		ISM_PMD_LOG(ERR, "%s: out of file descriptors: accepting no "
			    "connection for a while (retried every %d ms)",
			    d->name, SHM_ACCEPT_RETRY_MS);
	}
}

static void
accept_resume(struct shm_dev *d)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = d->lw };

	if (ctl.spare_fd < 0)
		ctl.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	d->accept_retry_ns = 0;
	if (epoll_ctl(ctl.epfd, EPOLL_CTL_ADD, d->lw->fd, &ev) < 0)
		accept_pause(d);
}

static void
listen_fn(struct shm_watch *w, uint32_t events __rte_unused)
{
	struct shm_dev *d = w->arg;
	struct shm_peer *p;
	struct ucred cr;
	socklen_t crlen = sizeof(cr);
	unsigned int pending;
	int fd;

	for (;;) {
		fd = accept4(w->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EMFILE || errno == ENFILE) &&
		    ctl.spare_fd >= 0) {
			/* Out of fds: refuse this one rather than spin. */
			close(ctl.spare_fd);
			fd = accept(w->fd, NULL, NULL);
			if (fd >= 0)
				close(fd);
			ctl.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
			ISM_PMD_LOG(ERR, "%s: out of file descriptors, refused "
				    "a connection", d->name);
			continue;
		}
		if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
			accept_pause(d);
			return;
		}
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				ISM_PMD_LOG(ERR, "%s: accept: %s", d->name,
					    strerror(errno));
			return;
		}
		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) < 0 ||
		    cr.uid != geteuid()) {
			ISM_PMD_LOG(ERR, "%s: refused a connection from uid %d "
				    "(pid %d): not our user", d->name,
				    (int)cr.uid, (int)cr.pid);
			close(fd);
			continue;
		}
		/* Its pid is 0 if it is in a PID namespace we cannot see:
		 * the identity check (its pid against the listener's of the
		 * socket it claims) would compare 0 with 0. */
		if (cr.pid == 0) {
			ISM_PMD_LOG(ERR, "%s: refused a connection: the peer's "
				    "pid is not visible from here (another PID "
				    "namespace?); all devices of a fabric must "
				    "share one PID namespace", d->name);
			close(fd);
			continue;
		}
		pending = 0;
		TAILQ_FOREACH(p, &d->conns, next)
			pending += !p->initiator && !p->hello_rcvd;
		if (pending >= SHM_MAX_PENDING) {
			ISM_PMD_LOG(ERR, "%s: refused a connection from pid "
				    "%d: %u handshakes pending", d->name,
				    (int)cr.pid, pending);
			close(fd);
			continue;
		}
		p = shm_conn_new(d, fd, false);
		if (p != NULL)
			p->pid = cr.pid;
	}
}

int
shm_listen_start(struct shm_dev *d, int fd)
{
	d->lw = shm_watch_add(fd, listen_fn, d);
	if (d->lw == NULL) {
		close(fd);
		return -ENOMEM;
	}
	return 0;
}

/* Waiting (application threads, shm_ctl.lock held). */

static void
deadline_ts(uint64_t ns, struct timespec *ts)
{
	ts->tv_sec = ns / 1000000000ULL;
	ts->tv_nsec = ns % 1000000000ULL;
}

void
shm_wait_answers(struct shm_dev *d, uint32_t seq, const uint64_t *ids,
		int *status, unsigned int n)
{
	uint64_t end = shm_now_ns() + SHM_ACK_TIMEOUT_MS * 1000000ULL;
	struct shm_wait w = { .seq = seq, .n = n, .ids = ids,
			      .status = status };
	struct shm_peer *p;
	struct timespec ts;
	unsigned int i, left;

	/* Answers already in, or connections already gone, were missed:
	 * the caller queued the request, so neither can have happened. */
	for (i = 0; i < n; i++)
		status[i] = shm_conn_find(d, ids[i]) != NULL ? 1 : -ENETUNREACH;
	d->wait = &w;
	deadline_ts(end, &ts);
	for (;;) {
		left = 0;
		for (i = 0; i < n; i++)
			left += status[i] == 1;
		if (left == 0 || shm_now_ns() >= end)
			break;
		pthread_cond_timedwait(&shm_ctl.cond, &shm_ctl.lock, &ts);
	}
	d->wait = NULL;
	for (i = 0; i < n; i++) {
		if (status[i] != 1)
			continue;
		status[i] = -ETIMEDOUT;
		p = shm_conn_find(d, ids[i]);
		ISM_PMD_LOG(WARNING, "%s: peer pid %d did not answer within "
			    "%d ms", d->name, p != NULL ? (int)p->pid : -1,
			    SHM_ACK_TIMEOUT_MS);
	}
}

void
shm_wait_up(struct shm_dev *d, const uint64_t *ids, unsigned int n)
{
	uint64_t end = shm_now_ns() + SHM_HANDSHAKE_MS * 1000000ULL;
	struct shm_peer *p;
	struct timespec ts;
	unsigned int i, left;

	deadline_ts(end, &ts);
	do {
		left = 0;
		for (i = 0; i < n; i++) {
			p = shm_conn_find(d, ids[i]);
			left += p != NULL && !p->up;
		}
		if (left == 0)
			return;
	} while (pthread_cond_timedwait(&shm_ctl.cond, &shm_ctl.lock,
					&ts) != ETIMEDOUT);
	/* The control thread drops them at their deadline. */
}

/* The thread. */

static void
ev_fn(struct shm_watch *w, uint32_t events __rte_unused)
{
	uint64_t v;

	if (read(w->fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		ISM_PMD_LOG(ERR, "eventfd read: %s", strerror(errno));
}

/* Handshake deadlines and queues that found a full socket; returns the
 * epoll timeout in ms. */
static int
tick(void)
{
	uint64_t now = shm_now_ns(), next = UINT64_MAX;
	struct shm_peer *p, *tmp;
	struct shm_dev *d;
	bool queued = false;

	TAILQ_FOREACH(d, &ctl.devs, ctl_next) {
		if (d->accept_retry_ns != 0 && d->lw != NULL) {
			if (now >= d->accept_retry_ns)
				accept_resume(d);
			if (d->accept_retry_ns != 0 &&
			    d->accept_retry_ns < next)
				next = d->accept_retry_ns;
		}
		RTE_TAILQ_FOREACH_SAFE(p, &d->conns, next, tmp) {
			if (!p->up && now >= p->deadline_ns) {
				protocol_error(p, "handshake",
					       "not finished in time");
				continue;
			}
			if (!p->up && p->deadline_ns < next)
				next = p->deadline_ns;
			if (!STAILQ_EMPTY(&p->ackq) ||
			    (!STAILQ_EMPTY(&p->outq) &&
			     p->inflight < SHM_WINDOW)) {
				flush(p);
				queued = true;
			}
		}
	}
	if (queued)
		return 10;
	if (next == UINT64_MAX)
		return -1;
	return (next - now) / 1000000 + 1;
}

static void *
ctl_main(void *arg __rte_unused)
{
	struct epoll_event ev[32];
	struct shm_watch *w;
	int n, i, timeout;

	for (;;) {
		pthread_mutex_lock(&shm_ctl.lock);
		grave_free();
		if (ctl.stop) {
			pthread_mutex_unlock(&shm_ctl.lock);
			break;
		}
		timeout = tick();
		pthread_mutex_unlock(&shm_ctl.lock);

		n = epoll_wait(ctl.epfd, ev, RTE_DIM(ev), timeout);
		if (n < 0 && errno != EINTR) {
			ISM_PMD_LOG(ERR, "epoll_wait: %s", strerror(errno));
			usleep(10000);
			continue;
		}
		pthread_mutex_lock(&shm_ctl.lock);
		for (i = 0; i < n; i++) {
			w = ev[i].data.ptr;
			if (!w->dead)
				w->fn(w, ev[i].events);
		}
		pthread_mutex_unlock(&shm_ctl.lock);
	}
	return NULL;
}

static int
ctl_start(void)
{
	pthread_condattr_t ca;
	int evfd, ret;

	if (!ctl.cond_ready) {
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&shm_ctl.cond, &ca);
		pthread_condattr_destroy(&ca);
		ctl.cond_ready = true;
	}
	ctl.epfd = epoll_create1(EPOLL_CLOEXEC);
	evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ctl.spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (ctl.epfd < 0 || evfd < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "cannot create the control epoll: %s",
			    strerror(errno));
		goto err;
	}
	ctl.evw = shm_watch_add(evfd, ev_fn, NULL);
	if (ctl.evw == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	evfd = -1;
	ctl.stop = false;
	ret = ism_ctrl_thread_create(&ctl.thread, "ism-shm-ctl", ctl_main,
			NULL);
	if (ret == 0)
		return 0;
	ISM_PMD_LOG(ERR, "cannot start the shm control thread: %s",
		    strerror(-ret));
	shm_watch_del(ctl.evw);
	grave_free();
err:
	if (evfd >= 0)
		close(evfd);
	if (ctl.spare_fd >= 0)
		close(ctl.spare_fd);
	if (ctl.epfd >= 0)
		close(ctl.epfd);
	ctl.epfd = ctl.spare_fd = -1;
	ctl.evw = NULL;
	return ret;
}

static void
ctl_stop(void)
{
	uint64_t one = 1;

	pthread_mutex_lock(&shm_ctl.lock);
	ctl.stop = true;
	pthread_mutex_unlock(&shm_ctl.lock);
	if (write(ctl.evw->fd, &one, sizeof(one)) < 0)
		ISM_PMD_LOG(ERR, "cannot wake the control thread: %s",
			    strerror(errno));
	pthread_join(ctl.thread, NULL);
	pthread_mutex_lock(&shm_ctl.lock);
	shm_watch_del(ctl.evw);
	grave_free();
	pthread_mutex_unlock(&shm_ctl.lock);
	close(ctl.epfd);
	if (ctl.spare_fd >= 0)
		close(ctl.spare_fd);
	ctl.epfd = ctl.spare_fd = -1;
	ctl.evw = NULL;
}

int
shm_ctl_attach(struct shm_dev *d)
{
	int ret = 0;

	pthread_mutex_lock(&ctl.life);
	if (ctl.users == 0)
		ret = ctl_start();
	if (ret == 0) {
		ctl.users++;
		pthread_mutex_lock(&shm_ctl.lock);
		TAILQ_INSERT_TAIL(&ctl.devs, d, ctl_next);
		d->attached = true;
		pthread_mutex_unlock(&shm_ctl.lock);
	}
	pthread_mutex_unlock(&ctl.life);
	return ret;
}

void
shm_ctl_detach(struct shm_dev *d)
{
	if (!d->attached)
		return;
	pthread_mutex_lock(&ctl.life);
	pthread_mutex_lock(&shm_ctl.lock);
	TAILQ_REMOVE(&ctl.devs, d, ctl_next);
	d->attached = false;
	pthread_mutex_unlock(&shm_ctl.lock);
	if (--ctl.users == 0)
		ctl_stop();
	pthread_mutex_unlock(&ctl.life);
}
