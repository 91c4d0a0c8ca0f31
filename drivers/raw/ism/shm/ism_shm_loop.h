/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_LOOP_H
#define ISM_SHM_LOOP_H

/*
 * The control thread of the shm backend (ism_shm_loop.c): one per process,
 * its lock, the file descriptors it watches and the tickers it calls.
 * Layer 2 (see ism_shm.h): knows nothing of devices or peers; what it
 * calls in them, it calls through the functions they registered (a watch's
 * fn, a ticker's tick).
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>
#include <time.h>

/* Work units (a message, an unmap; a departure counts ISM_SHM_WORK_DEPART)
 * the control thread does per hold of the control lock.
 */
#define ISM_SHM_LOOP_BUDGET	64
#define ISM_SHM_WORK_DEPART	16

/* Something the control thread waits on (epoll data.ptr). Freed only by
 * the control thread, between two epoll_wait batches.
 */
struct ism_shm_watch {
	TAILQ_ENTRY(ism_shm_watch) next;	/* graveyard */
	int fd;
	bool dead;
	bool paused;		/* taken out of the epoll set for a while */
	void (*fn)(struct ism_shm_watch *w, uint32_t events);
	void *arg;
};

/* Work due at deadlines, registered by whoever has some (a device):
 * tick() does what is due at now within the budget and returns its next
 * deadline (0: work is left, UINT64_MAX: none).
 */
struct ism_shm_ticker {
	TAILQ_ENTRY(ism_shm_ticker) next;
	uint64_t (*tick)(void *arg, uint64_t now);
	void *arg;
	bool attached;
};

/* The control lock: every control state of every shm device. Application
 * threads take it with these: the control thread lets them in between two
 * turns of its work.
 */
void ism_shm_ctl_lock(void);
void ism_shm_ctl_unlock(void);
/* Wait (the lock held, released meanwhile) for a wake-up or the absolute
 * CLOCK_MONOTONIC deadline: 0 or ETIMEDOUT.
 */
int ism_shm_ctl_wait(const struct timespec *deadline);
/* Wake every thread in ism_shm_ctl_wait(). */
void ism_shm_ctl_wake(void);

/* Register t (the first one starts the control thread) / unregister it
 * (the last one stops it).
 */
int ism_shm_loop_attach(struct ism_shm_ticker *t);
void ism_shm_loop_detach(struct ism_shm_ticker *t);
/* Watch fd on the control thread; NULL on error (logged). */
struct ism_shm_watch *ism_shm_watch_add(int fd,
		void (*fn)(struct ism_shm_watch *, uint32_t), void *arg);
/* Stop watching and close the fd; the watch is freed later. */
void ism_shm_watch_del(struct ism_shm_watch *w);
/* Take a watch out of the epoll set for a while / put it back. */
void ism_shm_watch_pause(struct ism_shm_watch *w);
int ism_shm_watch_resume(struct ism_shm_watch *w);
/* Something due at deadline (ns) that the control thread's next wake-up
 * must not miss (a thread other than the control thread added it).
 */
void ism_shm_loop_arm(uint64_t deadline);
/* Count work done by the control thread; false once its turn is used up
 * (the rest waits for the next turn).
 */
bool ism_shm_loop_work(unsigned int units);
bool ism_shm_loop_budget_left(void);
/* Most work units done in one turn so far (xstat). */
uint64_t ism_shm_loop_work_max(void);

#endif /* ISM_SHM_LOOP_H */
