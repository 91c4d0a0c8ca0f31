/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The control thread of the ivshmem backend: one per process, started with
 * the first device and stopped with the last, never a data-path lcore.
 * Every IVSHM_PERIOD_US it runs one control pass over each device: the
 * heartbeat, the join/leave state machine, and what the other members
 * changed (liveness, DMB tables, requests). Control ops that wait for
 * another member run the same passes while they wait, so devices of one
 * process never wait for the thread's period.
 *
 * Nothing here blocks while holding the lock: waits release it between
 * checks. A pass does call rte_ism_pmd_synchronize(), which waits only for
 * moves in progress (a move never takes this lock).
 *
 * Only this thread and control ops run passes, never the fast path (as on
 * the shm backend: a signal poll costs the same whatever the control plane
 * does). Where lcores of other processes busy-poll the CPUs the thread may
 * run on, Linux left it runnable but unscheduled for tens of seconds, and
 * the member was declared gone (doc/guides/rawdevs/ism_ivshm.rst says
 * where to put control threads, and what an expelled member does).
 */

#include <errno.h>
#include <time.h>
#include <unistd.h>

#include <rte_lcore.h>

#include "ism_compat.h"
#include "ism_ivshm.h"

pthread_mutex_t ism_ivshm_ctl_lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
	pthread_mutex_t life;		/* start/stop of the thread */
	unsigned int users;
	rte_thread_t thread;
	bool stop;			/* under ism_ivshm_ctl_lock */
	TAILQ_HEAD(, ivshm_dev) devs;	/* under ism_ivshm_ctl_lock */
} ctl = {
	.life = PTHREAD_MUTEX_INITIALIZER,
	.devs = TAILQ_HEAD_INITIALIZER(ctl.devs),
};

uint64_t
ism_ivshm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void
sleep_us(unsigned int us)
{
	struct timespec ts = { 0, (long)us * 1000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

void
ism_ivshm_pass_all(void)
{
	struct ivshm_dev *d;
	uint64_t now = ism_ivshm_now_ns();

	TAILQ_FOREACH(d, &ctl.devs, next) {
		ism_ivshm_member_step(d, now);
		ism_ivshm_peers_step(d, now);
		ism_ivshm_wake_relay(d);
	}
}

static uint32_t
ctl_thread(void *arg __rte_unused)
{
	bool stop;

	for (;;) {
		pthread_mutex_lock(&ism_ivshm_ctl_lock);
		stop = ctl.stop;
		if (!stop)
			ism_ivshm_pass_all();
		pthread_mutex_unlock(&ism_ivshm_ctl_lock);
		if (stop)
			break;
		sleep_us(IVSHM_PERIOD_US);
	}
	return 0;
}

int
ism_ivshm_ctl_attach(struct ivshm_dev *d)
{
	int ret = 0;

	pthread_mutex_lock(&ctl.life);
	if (ctl.users == 0) {
		ctl.stop = false;
		/* 0 or a negative errno (the EAL call changed in 23.11). */
		ret = ism_ctrl_thread_create(&ctl.thread, "ism-ivshm",
				ctl_thread, NULL);
		if (ret < 0) {
			ISM_PMD_LOG(ERR, "%s: cannot start the control thread: "
				    "%s", d->name, strerror(-ret));
			goto out;
		}
	}
	ctl.users++;
	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	TAILQ_INSERT_TAIL(&ctl.devs, d, next);
	d->attached = true;
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
out:
	pthread_mutex_unlock(&ctl.life);
	return ret;
}

void
ism_ivshm_ctl_detach(struct ivshm_dev *d)
{
	pthread_mutex_lock(&ctl.life);
	if (!d->attached)
		goto out;
	pthread_mutex_lock(&ism_ivshm_ctl_lock);
	TAILQ_REMOVE(&ctl.devs, d, next);
	d->attached = false;
	if (--ctl.users == 0)
		ctl.stop = true;
	pthread_mutex_unlock(&ism_ivshm_ctl_lock);
	if (ctl.users == 0)
		rte_thread_join(ctl.thread, NULL);
out:
	pthread_mutex_unlock(&ctl.life);
}

int
ism_ivshm_wait(struct ivshm_dev *d,
		bool (*done)(struct ivshm_dev *dev, void *ctx), void *arg,
		uint64_t timeout_ns)
{
	uint64_t end = ism_ivshm_now_ns() + timeout_ns;
	unsigned int i;

	for (i = 0;; i++) {
		ism_ivshm_pass_all();
		if (done(d, arg))
			return 0;
		if (ism_ivshm_now_ns() > end)
			return -ETIMEDOUT;
		pthread_mutex_unlock(&ism_ivshm_ctl_lock);
		/* Answers of this process come at once; those of other
		 * members after their next pass.
		 */
		sleep_us(i < 20 ? 20 : 200);
		pthread_mutex_lock(&ism_ivshm_ctl_lock);
	}
}

void
ism_ivshm_bad(struct ivshm_dev *d, int slot, const char *why)
{
	uint64_t now = ism_ivshm_now_ns();

	d->protocol_errors++;
	if (now < d->log_next_ns) {
		d->log_dropped++;
		return;
	}
	d->log_next_ns = now + 1000000000ULL;
	ISM_PMD_LOG(WARNING, "%s: ignored what slot %d wrote into the region: "
		    "%s (%" PRIu64 " more not logged)", d->name, slot, why,
		    d->log_dropped);
	d->log_dropped = 0;
}
