/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Interrupt mode (rte_ism.h, "Waiting without spinning"), B the receiver
 * and A the writer:
 *  - the checks of every call (ids, ops, a device without the mode);
 *  - disarmed, the descriptor never becomes readable, whatever is raised
 *    (no writer sent a wake-up: nothing to read);
 *  - armed, a signal makes it readable, disarming clears it; what was
 *    pending when arming makes it readable at once (signals, events);
 *  - an event (software event, a peer leaving) wakes; so does
 *    rte_ism_intr_kick() while armed (disarmed: nothing);
 *  - a thread asleep in epoll_wait() on a worker lcore wakes on a move;
 *  - rte_ism_intr_ctl() with rte_epoll_wait(RTE_EPOLL_PER_THREAD).
 * Waits are bounded by a deadline that only stops a hang.
 */

#include <poll.h>
#include <unistd.h>
#include <sys/epoll.h>

#include <rte_cycles.h>
#include <rte_epoll.h>
#include <rte_interrupts.h>
#include <rte_launch.h>
#include <rte_lcore.h>
#include <rte_pause.h>

#include <ism_compat.h>

#include "test_ism.h"

#define WAIT_MS 10000

/* Is fd readable within ms (0: right now)? */
static bool
readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

/*
 * Arm dev; true once its wake-up descriptor is quiet. A wake-up of an
 * earlier signal may still come in after that signal was polled (behind
 * a PCI function the interrupt thread runs after the signal is in the
 * SBA): rte_ism.h allows such a spurious wake-up, so disarm (which
 * clears it) and arm again, a bounded number of times.
 */
static bool
arm_quiet(uint16_t dev, int fd)
{
	int k;

	for (k = 0; k < 100; k++) {
		if (rte_ism_intr_enable(dev) != 0)
			return false;
		if (!readable(fd, 0))
			return true;
		rte_ism_intr_disable(dev);
	}
	return false;
}

static bool
has_intr(void)
{
	return (fx.ib.capa & RTE_ISM_CAPA_INTR) != 0;
}

static int
test_intr_api(void)
{
	int fd;

	TEST_ASSERT_EQUAL(rte_ism_intr_fd_get(RTE_ISM_MAX_DEVS), -ENODEV,
			  "fd_get");
	TEST_ASSERT_EQUAL(rte_ism_intr_enable(RTE_ISM_MAX_DEVS), -ENODEV,
			  "enable");
	TEST_ASSERT_EQUAL(rte_ism_intr_disable(UINT16_MAX), -ENODEV,
			  "disable");
	TEST_ASSERT_EQUAL(rte_ism_intr_kick(RTE_ISM_MAX_DEVS), -ENODEV,
			  "kick");
	TEST_ASSERT_EQUAL(rte_ism_intr_ctl(RTE_ISM_MAX_DEVS,
			RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD, NULL),
			-ENODEV, "ctl");
	if (!has_intr()) {
		TEST_ASSERT_EQUAL(rte_ism_intr_fd_get(fx.b), -ENOTSUP,
				  "fd_get without the mode");
		TEST_ASSERT_EQUAL(rte_ism_intr_enable(fx.b), -ENOTSUP,
				  "enable without the mode");
		TEST_ASSERT_EQUAL(rte_ism_intr_kick(fx.b), -ENOTSUP,
				  "kick without the mode");
		return TEST_SKIPPED;
	}
	fd = rte_ism_intr_fd_get(fx.b);
	TEST_ASSERT(fd >= 0, "fd_get: %d", fd);
	TEST_ASSERT_EQUAL(rte_ism_intr_fd_get(fx.b), fd, "same fd");
	TEST_ASSERT(rte_ism_intr_fd_get(fx.a) != fd, "one fd per device");
	TEST_ASSERT_EQUAL(rte_ism_intr_ctl(fx.b, RTE_EPOLL_PER_THREAD, 7,
					   NULL), -EINVAL, "ctl: bad op");
	/* Idempotent, and nothing pending: not readable. */
	TEST_ASSERT_SUCCESS(rte_ism_intr_disable(fx.b), "disable");
	TEST_ASSERT_SUCCESS(rte_ism_intr_enable(fx.b), "enable");
	TEST_ASSERT_SUCCESS(rte_ism_intr_enable(fx.b), "enable again");
	TEST_ASSERT(!readable(fd, 0), "readable with nothing pending");
	/* A kick wakes the armed device's waiter; disarming clears it. */
	TEST_ASSERT_SUCCESS(rte_ism_intr_kick(fx.b), "kick");
	TEST_ASSERT(readable(fd, WAIT_MS), "kicked, not readable");
	TEST_ASSERT_SUCCESS(rte_ism_intr_disable(fx.b), "disable");
	TEST_ASSERT(!readable(fd, 0), "readable after disable");
	/* Disarmed, nobody waits: a kick does nothing. */
	TEST_ASSERT_SUCCESS(rte_ism_intr_kick(fx.b), "kick disarmed");
	TEST_ASSERT(!readable(fd, 0), "kicked while disarmed, readable");
	TEST_ASSERT_SUCCESS(rte_ism_intr_disable(fx.b), "disable again");
	return TEST_SUCCESS;
}

/* A DMB on B that A writes; its index is polled for. */
static int
found_signal(uint16_t dev, uint32_t idx)
{
	struct rte_ism_signal sig[8];
	int n, i;

	n = rte_ism_signal_poll(dev, sig, RTE_DIM(sig));
	for (i = 0; i < n; i++)
		if (sig[i].dmb_idx == idx)
			return 1;
	return 0;
}

static int
test_intr_signal(void)
{
	struct rte_ism_dmb d;
	uint64_t v = 1;
	int fd, k, ret = TEST_FAILED;

	if (!has_intr())
		return TEST_SKIPPED;
	fd = rte_ism_intr_fd_get(fx.b);
	TEST_ASSERT_SUCCESS(fx_register(fx.b, 64, &fx.ia.gid, &d), "register");
	/* Disarmed: many signals, each polled, no wake-up sent at all. */
	for (k = 0; k < 1000; k++) {
		if (rte_ism_move_data(fx.a, d.token, k % 16, 1, 0, &v,
				      sizeof(v)) != 0 ||
		    !found_signal(fx.b, d.idx))
			goto out;
	}
	if (readable(fd, 0)) {
		printf("  disarmed, the wake-up descriptor was written\n");
		goto out;
	}
	/* Armed: the next signal wakes; disarming clears. */
	if (!arm_quiet(fx.b, fd)) {
		printf("  armed after polling, still woken\n");
		goto out;
	}
	if (rte_ism_move_data(fx.a, d.token, 3, 1, 0, &v, sizeof(v)) != 0 ||
	    !readable(fd, WAIT_MS)) {
		printf("  armed, a signal did not wake\n");
		goto out;
	}
	if (rte_ism_intr_disable(fx.b) != 0 || readable(fd, 0) ||
	    !found_signal(fx.b, d.idx)) {
		printf("  disarm did not clear, or the signal is lost\n");
		goto out;
	}
	/* Pending when arming: readable at once. */
	if (rte_ism_move_data(fx.a, d.token, 4, 1, 0, &v, sizeof(v)) != 0 ||
	    readable(fd, 0) || rte_ism_intr_enable(fx.b) != 0 ||
	    !readable(fd, 0)) {
		printf("  a signal pending at arming did not wake\n");
		goto out;
	}
	rte_ism_intr_disable(fx.b);
	/* Polled, armed again: quiet; moves without signal do not wake. */
	if (!found_signal(fx.b, d.idx) || !arm_quiet(fx.b, fd) ||
	    rte_ism_move_data(fx.a, d.token, 0, 0, 0, &v, sizeof(v)) != 0 ||
	    readable(fd, 0)) {
		printf("  woken without a signal\n");
		goto out;
	}
	ret = TEST_SUCCESS;
out:
	rte_ism_intr_disable(fx.b);
	rte_ism_dmb_unregister(fx.b, d.token);
	fx_drain();
	return ret;
}

static int
test_intr_event(void)
{
	char name[RTE_ISM_NAME_LEN];
	struct rte_ism_event ev;
	int fd, c;

	if (!has_intr())
		return TEST_SKIPPED;
	fd = rte_ism_intr_fd_get(fx.b);
	fx_drain();
	if (fx.ia.capa & RTE_ISM_CAPA_SIGNAL_EVENT) {
		TEST_ASSERT_SUCCESS(rte_ism_intr_enable(fx.b), "enable");
		TEST_ASSERT_SUCCESS(rte_ism_signal_event(fx.a, &fx.ib.gid, 1,
							 0x42, 1), "event");
		TEST_ASSERT(readable(fd, WAIT_MS), "an event did not wake");
		TEST_ASSERT_SUCCESS(rte_ism_intr_disable(fx.b), "disable");
		/* Still queued: arming wakes at once. */
		TEST_ASSERT_SUCCESS(rte_ism_intr_enable(fx.b), "enable");
		TEST_ASSERT(readable(fd, 0), "a queued event did not wake");
		TEST_ASSERT_SUCCESS(rte_ism_intr_disable(fx.b), "disable");
		TEST_ASSERT_EQUAL(rte_ism_event_poll(fx.b, &ev, 1), 1, "poll");
		TEST_ASSERT_EQUAL(ev.code, 0x42, "code");
	}
	/* A peer that goes away wakes the waiter (DEV_DISABLED). */
	c = fx_spawn(NULL, name, sizeof(name));
	if (FX_SPAWN_SKIPPED(c))
		return TEST_SKIPPED;
	TEST_ASSERT(c >= 0, "spawn: %d", c);
	fx_drain();
	TEST_ASSERT_SUCCESS(rte_ism_intr_enable(fx.b), "enable");
	TEST_ASSERT(!readable(fd, 0), "readable before the peer left");
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "unspawn");
	TEST_ASSERT(readable(fd, WAIT_MS), "a peer leaving did not wake");
	TEST_ASSERT_SUCCESS(rte_ism_intr_disable(fx.b), "disable");
	fx_drain();
	return TEST_SUCCESS;
}

/* A worker lcore asleep in epoll_wait() on B's descriptor. */
struct sleeper {
	int fd;
	uint32_t idx;		/* DMB to find signalled */
	RTE_ATOMIC(uint32_t) asleep;	/* armed, about to call epoll_wait() */
	int result;
};

static int
sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	struct epoll_event ev = { .events = EPOLLIN };
	int ep, n, found = 0, rounds = 0;

	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, s->fd, &ev) < 0)
		return TEST_FAILED;
	/* Arm, re-check, sleep; disarm, poll. A spurious wake-up (nothing
	 * found) sleeps again; the writer moves only once we sleep.
	 */
	while (!found && rounds++ < 100) {
		if (rte_ism_intr_enable(fx.b) != 0)
			break;
		found = found_signal(fx.b, s->idx);
		if (!found) {
			rte_atomic_store_explicit(&s->asleep, 1,
					rte_memory_order_release);
			n = epoll_wait(ep, &ev, 1, WAIT_MS);
			if (n <= 0) {
				printf("  sleeper: not woken within %d ms\n",
				       WAIT_MS);
				break;
			}
		}
		rte_ism_intr_disable(fx.b);
		found = found || found_signal(fx.b, s->idx);
	}
	rte_ism_intr_disable(fx.b);
	close(ep);
	return found ? TEST_SUCCESS : TEST_FAILED;
}

static int
test_intr_sleeper(void)
{
	struct sleeper s = { 0 };
	struct rte_ism_dmb d;
	unsigned int lcore = rte_get_next_lcore(-1, 1, 0);
	uint64_t v = 7, deadline;
	int ret;

	if (!has_intr())
		return TEST_SKIPPED;
	TEST_ASSERT_SUCCESS(fx_register(fx.b, 64, &fx.ia.gid, &d), "register");
	s.fd = rte_ism_intr_fd_get(fx.b);
	s.idx = d.idx;
	ret = rte_eal_remote_launch(sleeper_main, &s, lcore);
	if (ret < 0) {
		rte_ism_dmb_unregister(fx.b, d.token);
		TEST_ASSERT_SUCCESS(ret, "launch on lcore %u", lcore);
	}
	/* Once it sleeps (or is about to: the wake-up is not lost). */
	deadline = rte_get_timer_cycles() + rte_get_timer_hz() * WAIT_MS /
		1000;
	while (!rte_atomic_load_explicit(&s.asleep, rte_memory_order_acquire) &&
	       rte_get_timer_cycles() < deadline)
		rte_pause();
	ret = rte_ism_move_data(fx.a, d.token, 9, 1, 0, &v, sizeof(v));
	s.result = rte_eal_wait_lcore(lcore);
	rte_ism_dmb_unregister(fx.b, d.token);
	fx_drain();
	TEST_ASSERT_SUCCESS(ret, "move");
	TEST_ASSERT_SUCCESS(s.result, "the sleeper did not find the signal");
	return TEST_SUCCESS;
}

/* The DPDK way: rte_intr_rx_ctl() underneath, rte_epoll_wait(). */
static int
test_intr_epoll(void)
{
	struct rte_epoll_event ev[2];
	struct rte_ism_dmb d;
	uint64_t v = 3;
	int fd, n, ret = TEST_FAILED;

	if (!has_intr())
		return TEST_SKIPPED;
	fd = rte_ism_intr_fd_get(fx.b);
	TEST_ASSERT_SUCCESS(fx_register(fx.b, 64, &fx.ia.gid, &d), "register");
	if (rte_ism_intr_ctl(fx.b, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
			     (void *)(uintptr_t)0xfeed) != 0 ||
	    rte_ism_intr_ctl(fx.b, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_ADD,
			     NULL) != -EEXIST) {
		printf("  ctl ADD\n");
		goto out_unreg;
	}
	if (rte_ism_intr_enable(fx.b) != 0 ||
	    rte_ism_move_data(fx.a, d.token, 1, 1, 0, &v, sizeof(v)) != 0)
		goto out;
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, RTE_DIM(ev), WAIT_MS);
	if (n != 1 || ev[0].epdata.data != (void *)(uintptr_t)0xfeed) {
		printf("  rte_epoll_wait: %d\n", n);
		goto out;
	}
	/* Edge-triggered: reported once; EAL does not read it, the disarm
	 * clears it.
	 */
	n = rte_epoll_wait(RTE_EPOLL_PER_THREAD, ev, RTE_DIM(ev), 0);
	if (n != 0 || !readable(fd, 0)) {
		printf("  reported again (%d), or cleared by EAL\n", n);
		goto out;
	}
	rte_ism_intr_disable(fx.b);
	if (readable(fd, 0)) {
		printf("  readable after rte_ism_intr_disable()\n");
		goto out;
	}
	if (!found_signal(fx.b, d.idx))
		goto out;
	ret = TEST_SUCCESS;
out:
	rte_ism_intr_disable(fx.b);
	if (rte_ism_intr_ctl(fx.b, RTE_EPOLL_PER_THREAD, RTE_INTR_EVENT_DEL,
			     NULL) != 0) {
		printf("  ctl DEL\n");
		ret = TEST_FAILED;
	}
out_unreg:
	rte_ism_dmb_unregister(fx.b, d.token);
	fx_drain();
	return ret;
}

static const struct test_case intr_cases[] = {
	{ "intr_api", test_intr_api },
	{ "intr_signal", test_intr_signal },
	{ "intr_event", test_intr_event },
	{ "intr_sleeper", test_intr_sleeper },
	{ "intr_epoll", test_intr_epoll },
	{ NULL, NULL },
};

const struct test_suite suite_intr = {
	.name = "intr",
	.cases = intr_cases,
	.min_lcores = 2,
};
