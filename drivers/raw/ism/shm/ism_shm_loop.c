/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The control thread of the shm backend: one per process (started with
 * the first shm device, stopped with the last) serves every listening
 * socket and connection with its own epoll, never a data-path lcore.
 *
 * Why not the EAL interrupt thread: it rebuilds its whole epoll set on
 * every callback change, panics if a registered fd was closed, and cannot
 * wake on a timeout; a peer that never finishes its handshake must be
 * dropped after a while.
 *
 * A turn: take the control lock, do the work that is due (deadlines, held
 * events, unmaps left by departed peers), release it, sleep in epoll_wait
 * until the next deadline, take the lock again for what epoll reported.
 * Each hold of the lock does at most ISM_SHM_LOOP_BUDGET units of work (a
 * message, an unmap; a departure counts ISM_SHM_WORK_DEPART): what is left
 * waits for the next turn (level-triggered epoll reports unread sockets
 * again), and an application thread waiting for the lock gets it in
 * between. So a control call of the application never waits for more
 * than one turn of work, whatever floods or mass departures the control
 * thread has to digest.
 *
 * Deadlines are computed afresh every turn from the state (handshakes,
 * unanswered requests, paused accepts, held events, log windows). A thread
 * other than the control thread that adds one (a new connection, a
 * request) calls ism_shm_loop_arm(), which wakes the control thread if it
 * sleeps past it.
 *
 * Lifetime: a watch (epoll data) is freed only by the control thread
 * between two epoll_wait() batches, so an event already fetched for a
 * connection that another thread closed finds a dead watch, not freed
 * memory.
 */

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <rte_lcore.h>

#include <ism_compat.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_loop.h"

/* Yields to application threads waiting for the lock, per turn. */
#define SHM_YIELD_MAX	64

/* The control lock, and the condition waiters wait on (answers,
 * handshakes, peers leaving).
 */
static pthread_mutex_t ctl_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ctl_cond;

static struct {
	pthread_mutex_t life;		/* start/stop of the thread */
	unsigned int users;		/* shm devices */
	bool cond_ready;
	int epfd;
	struct ism_shm_watch *evw;		/* wakes the thread */
	rte_thread_t thread;
	bool stop;
	uint64_t sleep_until;		/* the thread's next wake-up, ns */
	RTE_ATOMIC(uint32_t) lock_waiters;	/* application threads at the lock */
	uint32_t work;			/* units done in this hold */
	uint64_t work_max;		/* most in one hold */
	TAILQ_HEAD(, ism_shm_watch) grave;
	TAILQ_HEAD(, ism_shm_ticker) tickers;
} loop = {
	.life = PTHREAD_MUTEX_INITIALIZER,
	.epfd = -1,
	.grave = TAILQ_HEAD_INITIALIZER(loop.grave),
	.tickers = TAILQ_HEAD_INITIALIZER(loop.tickers),
};

/* Set on the control thread itself. */
static __thread bool is_loop_thread;

static bool
on_loop_thread(void)
{
	return is_loop_thread;
}

void
ism_shm_ctl_lock(void)
{
	rte_atomic_fetch_add_explicit(&loop.lock_waiters, 1, rte_memory_order_relaxed);
	pthread_mutex_lock(&ctl_lock);
	rte_atomic_fetch_sub_explicit(&loop.lock_waiters, 1, rte_memory_order_relaxed);
}

void
ism_shm_ctl_unlock(void)
{
	pthread_mutex_unlock(&ctl_lock);
}

int
ism_shm_ctl_wait(const struct timespec *deadline)
{
	return pthread_cond_timedwait(&ctl_cond, &ctl_lock, deadline);
}

void
ism_shm_ctl_wake(void)
{
	pthread_cond_broadcast(&ctl_cond);
}

/* Work accounting (the control lock held). */

bool
ism_shm_loop_work(unsigned int units)
{
	loop.work += units;
	return loop.work < ISM_SHM_LOOP_BUDGET;
}

bool
ism_shm_loop_budget_left(void)
{
	/* Application threads (closing a device) are not held back. */
	return loop.work < ISM_SHM_LOOP_BUDGET || !on_loop_thread();
}

uint64_t
ism_shm_loop_work_max(void)
{
	return loop.work_max;
}

static void
turn_begin(void)
{
	loop.work = 0;
}

static void
turn_end(void)
{
	if (loop.work > loop.work_max)
		loop.work_max = loop.work;
}

/* After a turn: let waiting application threads take the lock first (a
 * mutex would let this thread take it back at once).
 */
static void
yield_to_waiters(void)
{
	unsigned int i;

	for (i = 0; i < SHM_YIELD_MAX &&
	     rte_atomic_load_explicit(&loop.lock_waiters, rte_memory_order_relaxed) != 0; i++)
		sched_yield();
}

/* Wake-ups. */

static void
kick(void)
{
	uint64_t one = 1;

	/* own-fd: the loop's eventfd (EFD_NONBLOCK), never passed. */
	if (loop.evw != NULL && write(loop.evw->fd, &one, sizeof(one)) < 0 &&
	    errno != EAGAIN)
		ISM_PMD_LOG_RL(ERR, "cannot wake the control thread: %s",
			       strerror(errno));
}

void
ism_shm_loop_arm(uint64_t deadline)
{
	if (on_loop_thread() || deadline >= loop.sleep_until)
		return;
	loop.sleep_until = deadline;
	kick();
}

static void
ev_fn(struct ism_shm_watch *w, uint32_t events __rte_unused)
{
	uint64_t v;

	/* own-fd: the loop's eventfd (EFD_NONBLOCK), never passed. */
	if (read(w->fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		ISM_PMD_LOG_RL(ERR, "eventfd read: %s", strerror(errno));
}

/* Watches. */

struct ism_shm_watch *
ism_shm_watch_add(int fd, void (*fn)(struct ism_shm_watch *, uint32_t),
		void *arg)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ism_shm_watch *w = calloc(1, sizeof(*w));

	if (w == NULL) {
		ISM_PMD_LOG_RL(ERR, "no memory for a control watch");
		return NULL;
	}
	w->fd = fd;
	w->fn = fn;
	w->arg = arg;
	ev.data.ptr = w;
	if (epoll_ctl(loop.epfd, EPOLL_CTL_ADD, fd, &ev) < 0) {
		ISM_PMD_LOG_RL(ERR, "epoll_ctl(ADD, %d): %s", fd,
			       strerror(errno));
		free(w);
		return NULL;
	}
	return w;
}

void
ism_shm_watch_del(struct ism_shm_watch *w)
{
	if (w == NULL || w->dead)
		return;
	if (!w->paused)
		epoll_ctl(loop.epfd, EPOLL_CTL_DEL, w->fd, NULL);
	close(w->fd);
	w->fd = -1;
	w->dead = true;
	TAILQ_INSERT_TAIL(&loop.grave, w, next);
}

void
ism_shm_watch_pause(struct ism_shm_watch *w)
{
	if (w->dead || w->paused)
		return;
	epoll_ctl(loop.epfd, EPOLL_CTL_DEL, w->fd, NULL);
	w->paused = true;
}

int
ism_shm_watch_resume(struct ism_shm_watch *w)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = w };

	if (w->dead || !w->paused)
		return 0;
	if (epoll_ctl(loop.epfd, EPOLL_CTL_ADD, w->fd, &ev) < 0)
		return -errno;
	w->paused = false;
	return 0;
}

static void
grave_free(void)
{
	struct ism_shm_watch *w;

	while ((w = TAILQ_FIRST(&loop.grave)) != NULL) {
		TAILQ_REMOVE(&loop.grave, w, next);
		free(w);
	}
}

/* The thread. */

/* What is due now, within the budget; returns the next deadline (0: work
 * is left, do not sleep).
 */
static uint64_t
tick(void)
{
	uint64_t now = ism_now_ns(), next;
	struct ism_shm_ticker *t;

	next = ism_log_rl_flush(false);
	TAILQ_FOREACH(t, &loop.tickers, next)
		next = RTE_MIN(next, t->tick(t->arg, now));
	return next;
}

static int
timeout_ms(uint64_t next)
{
	uint64_t now = ism_now_ns();

	if (next == UINT64_MAX)
		return -1;
	if (next <= now)
		return 0;
	/* Rounded up: waking early would only spin. */
	return RTE_MIN((next - now + 999999) / 1000000, (uint64_t)INT32_MAX);
}

static uint32_t
ctl_main(void *arg __rte_unused)
{
	struct epoll_event ev[32];
	struct ism_shm_watch *w;
	uint64_t next;
	int n, i;

	is_loop_thread = true;
	for (;;) {
		pthread_mutex_lock(&ctl_lock);
		grave_free();
		if (loop.stop) {
			pthread_mutex_unlock(&ctl_lock);
			break;
		}
		turn_begin();
		next = tick();
		turn_end();
		/* From here a thread that adds an earlier deadline kicks. */
		loop.sleep_until = next;
		pthread_mutex_unlock(&ctl_lock);
		yield_to_waiters();

		/* own-fd: the control thread's epoll instance, never
		 * passed; what it watches is read with MSG_DONTWAIT.
		 */
		n = epoll_wait(loop.epfd, ev, RTE_DIM(ev), timeout_ms(next));
		if (n < 0 && errno != EINTR) {
			ISM_PMD_LOG_RL(ERR, "epoll_wait: %s", strerror(errno));
			usleep(10000);
			continue;
		}
		pthread_mutex_lock(&ctl_lock);
		loop.sleep_until = 0;
		turn_begin();
		for (i = 0; i < n; i++) {
			w = ev[i].data.ptr;
			/* Over budget: level-triggered, it comes back. */
			if (!w->dead && ism_shm_loop_budget_left())
				w->fn(w, ev[i].events);
		}
		turn_end();
		pthread_mutex_unlock(&ctl_lock);
		yield_to_waiters();
	}
	return 0;
}

static int
ctl_start(void)
{
	pthread_condattr_t ca;
	int evfd, ret;

	if (!loop.cond_ready) {
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&ctl_cond, &ca);
		pthread_condattr_destroy(&ca);
		loop.cond_ready = true;
	}
	loop.epfd = epoll_create1(EPOLL_CLOEXEC);
	evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (loop.epfd < 0 || evfd < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "cannot create the control epoll: %s",
			    strerror(errno));
		goto err;
	}
	loop.evw = ism_shm_watch_add(evfd, ev_fn, NULL);
	if (loop.evw == NULL) {
		ret = -ENOMEM;
		goto err;
	}
	evfd = -1;
	loop.stop = false;
	loop.sleep_until = 0;
	ret = ism_ctrl_thread_create(&loop.thread, "ism-shm", ctl_main,
			NULL);
	if (ret == 0)
		return 0;
	ISM_PMD_LOG(ERR, "cannot start the shm control thread: %s",
		    strerror(-ret));
	ism_shm_watch_del(loop.evw);
	grave_free();
err:
	if (evfd >= 0)
		close(evfd);
	if (loop.epfd >= 0)
		close(loop.epfd);
	loop.epfd = -1;
	loop.evw = NULL;
	return ret;
}

static void
ctl_stop(void)
{
	pthread_mutex_lock(&ctl_lock);
	loop.stop = true;
	kick();
	pthread_mutex_unlock(&ctl_lock);
	rte_thread_join(loop.thread, NULL);
	pthread_mutex_lock(&ctl_lock);
	ism_shm_watch_del(loop.evw);
	grave_free();
	pthread_mutex_unlock(&ctl_lock);
	close(loop.epfd);
	loop.epfd = -1;
	loop.evw = NULL;
	/* Counts of lines held back are not lost with the thread. */
	ism_log_rl_flush(true);
}

int
ism_shm_loop_attach(struct ism_shm_ticker *t)
{
	int ret = 0;

	pthread_mutex_lock(&loop.life);
	if (loop.users == 0)
		ret = ctl_start();
	if (ret == 0) {
		loop.users++;
		ism_shm_ctl_lock();
		TAILQ_INSERT_TAIL(&loop.tickers, t, next);
		t->attached = true;
		ism_shm_ctl_unlock();
	}
	pthread_mutex_unlock(&loop.life);
	return ret;
}

void
ism_shm_loop_detach(struct ism_shm_ticker *t)
{
	if (!t->attached)
		return;
	pthread_mutex_lock(&loop.life);
	ism_shm_ctl_lock();
	TAILQ_REMOVE(&loop.tickers, t, next);
	t->attached = false;
	ism_shm_ctl_unlock();
	if (--loop.users == 0)
		ctl_stop();
	pthread_mutex_unlock(&loop.life);
}
