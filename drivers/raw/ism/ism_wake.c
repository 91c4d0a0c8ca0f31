/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* A receiving device's wake-up: channels in an epoll instance, armed
 * flag, handle (ism_wake.h).
 */

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>

#include <rte_interrupts.h>
#include <rte_malloc.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_wake.h"

/*
 * Datagrams read from one channel at one disarm, at most: an honest writer
 * sends at most one per arming, and a channel holds few (the receiving
 * queue is bounded by net.unix.max_dgram_qlen; beyond it the writer's send
 * fails with EAGAIN). A writer that keeps sending while we read cannot
 * hold us here: what is left makes the next wait return at once.
 */
#define WAKE_DRAIN_MAX	64

/* Make channel ch: the sending end in *tx, the receiving end in
 * w->rx[ch] and in the epoll instance. Under w->lock (or before the
 * wake-up is used).
 */
static int
channel_open(struct ism_wake *w, unsigned int ch, int *tx)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = ch };
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		       sv) < 0)
		return -errno;
	if (epoll_ctl(w->ep, EPOLL_CTL_ADD, sv[0], &ev) < 0) {
		ret = -errno;
		close(sv[0]);
		close(sv[1]);
		return ret;
	}
	if (w->rx[ch] >= 0)
		close(w->rx[ch]);	/* leaves the epoll instance with it */
	w->rx[ch] = sv[0];
	*tx = sv[1];
	return 0;
}

int
ism_wake_init(struct ism_wake *w, const char *name, int socket,
		__rte_atomic uint32_t *armed)
{
	struct rte_intr_handle *h = NULL;
	unsigned int ch;
	int ret, tx = -1;

	memset(w, 0, sizeof(*w));
	w->self.fd = -1;
	rte_spinlock_init(&w->lock);
	for (ch = 0; ch < ISM_WAKE_CHANNELS; ch++)
		w->rx[ch] = -1;
	w->ep = epoll_create1(EPOLL_CLOEXEC);
	ret = w->ep < 0 ? -errno : channel_open(w, ISM_WAKE_SELF, &tx);
	if (ret < 0) {
		ISM_PMD_LOG(ERR, "%s: no epoll instance or socket pair for "
			    "the wake-up: %s", name, strerror(-ret));
		goto err;
	}
	if (armed == NULL) {
		/* A line of its own: writers read it, nothing else is there. */
		w->own = rte_zmalloc_socket("ism_wake_flag", RTE_CACHE_LINE_SIZE,
				RTE_CACHE_LINE_SIZE, socket);
		if (w->own == NULL)
			w->own = rte_zmalloc("ism_wake_flag", RTE_CACHE_LINE_SIZE,
					RTE_CACHE_LINE_SIZE);
		armed = w->own;
	}
	h = rte_intr_instance_alloc(RTE_INTR_INSTANCE_F_PRIVATE);
	if (armed == NULL || h == NULL ||
	    rte_intr_fd_set(h, w->ep) != 0 ||
	    rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_efd_counter_size_set(h, 0) != 0 ||
	    rte_intr_efds_index_set(h, 0, w->ep) != 0 ||
	    rte_intr_nb_efd_set(h, 1) != 0) {
		ISM_PMD_LOG(ERR, "%s: no memory for the wake-up", name);
		ret = -ENOMEM;
		goto err;
	}
	w->intr = h;
	w->self.fd = tx;
	w->self.armed = armed;
	return 0;
err:
	rte_intr_instance_free(h);
	rte_free(w->own);
	if (tx >= 0)
		close(tx);
	if (w->rx[ISM_WAKE_SELF] >= 0)
		close(w->rx[ISM_WAKE_SELF]);
	if (w->ep >= 0)
		close(w->ep);
	memset(w, 0, sizeof(*w));
	w->self.fd = -1;
	return ret;
}

void
ism_wake_fini(struct ism_wake *w)
{
	unsigned int ch;

	/* intr is set by a successful ism_wake_init() only. */
	if (w->intr == NULL)
		return;
	/* A thread still waiting is told to look (it finds the device
	 * gone); one that has not collected this when the fd closes sleeps
	 * on, hence the rule of rte_ism.h.
	 */
	ism_wake_kick(w->self.fd);
	close(w->self.fd);
	for (ch = 0; ch < ISM_WAKE_CHANNELS; ch++)
		if (w->rx[ch] >= 0)
			close(w->rx[ch]);
	close(w->ep);
	rte_intr_instance_free(w->intr);
	rte_free(w->own);
	memset(w, 0, sizeof(*w));
	w->self.fd = -1;
}

int
ism_wake_channel_new(struct ism_wake *w, unsigned int ch)
{
	int ret, tx = -1;

	if (ch == ISM_WAKE_SELF || ch >= ISM_WAKE_CHANNELS || w->intr == NULL)
		return -EINVAL;
	rte_spinlock_lock(&w->lock);
	ret = channel_open(w, ch, &tx);
	rte_spinlock_unlock(&w->lock);
	if (ret < 0) {
		ISM_PMD_LOG_RL(ERR, "no socket pair for a wake-up channel: %s",
			       strerror(-ret));
		return ret;
	}
	return tx;
}

void
ism_wake_channel_del(struct ism_wake *w, unsigned int ch)
{
	if (ch == ISM_WAKE_SELF || ch >= ISM_WAKE_CHANNELS || w->intr == NULL)
		return;
	rte_spinlock_lock(&w->lock);
	if (w->rx[ch] >= 0)
		close(w->rx[ch]);
	w->rx[ch] = -1;
	rte_spinlock_unlock(&w->lock);
}

/* Read a channel empty (per call non-blocking: MSG_DONTWAIT). */
static void
channel_drain(int fd)
{
	unsigned int k;
	char b;

	for (k = 0; k < WAKE_DRAIN_MAX; k++)
		if (recv(fd, &b, sizeof(b), MSG_DONTWAIT | MSG_TRUNC) < 0)
			break;
}

void
ism_wake_arm(struct ism_wake *w, bool on)
{
	struct epoll_event ev[ISM_WAKE_CHANNELS];
	unsigned int ch;
	int n, i;

	/* The flag of a receiver is written by the receiver only; what
	 * orders the store is the barrier below (arming) or nothing at all
	 * (disarming: a writer that still sees the flag set only makes a
	 * spurious wake-up).
	 */
	ism_wake_flag_set((__rte_atomic uint32_t *)(uintptr_t)w->self.armed, on);
	if (on) {
		rte_atomic_thread_fence(rte_memory_order_seq_cst);
		return;
	}
	/* Empty: the next wait sleeps until the next wake-up. The epoll
	 * instance is ours (timeout 0: it only says which channels to
	 * read); under the lock, a channel's fd stays the channel's.
	 */
	rte_spinlock_lock(&w->lock);
	n = epoll_wait(w->ep, ev, RTE_DIM(ev), 0);
	for (i = 0; i < n; i++) {
		ch = ev[i].data.u32;
		if (ch < ISM_WAKE_CHANNELS && w->rx[ch] >= 0)
			channel_drain(w->rx[ch]);
	}
	rte_spinlock_unlock(&w->lock);
}

void
ism_wake_kick(int fd)
{
	static const char one = 1;

	/* Per call non-blocking: the sending end of a peer's channel is
	 * shared with the peer, which may clear O_NONBLOCK on it. EAGAIN:
	 * the receiver's queue is full, the channel is readable. A peer can
	 * make this fail repeatedly (an fd that is no channel).
	 */
	if (send(fd, &one, sizeof(one), MSG_DONTWAIT | MSG_NOSIGNAL) < 0 &&
	    errno != EAGAIN)
		ISM_PMD_LOG_RL(ERR, "wake-up channel %d: %s", fd,
			       strerror(errno));
}
