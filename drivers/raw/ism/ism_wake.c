/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* A receiving device's wake-up: eventfd, armed flag, handle (ism_wake.h). */

#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include <rte_interrupts.h>
#include <rte_malloc.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_wake.h"

int
ism_wake_init(struct ism_wake *w, const char *name, int socket,
		RTE_ATOMIC(uint32_t) *armed)
{
	struct rte_intr_handle *h;
	int fd, ret;

	memset(w, 0, sizeof(*w));
	w->self.fd = -1;
	fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: no eventfd for the wake-up: %s", name,
			    strerror(errno));
		return ret;
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
	    rte_intr_fd_set(h, fd) != 0 ||
	    rte_intr_type_set(h, RTE_INTR_HANDLE_VDEV) != 0 ||
	    rte_intr_efd_counter_size_set(h, 0) != 0 ||
	    rte_intr_efds_index_set(h, 0, fd) != 0 ||
	    rte_intr_nb_efd_set(h, 1) != 0) {
		ISM_PMD_LOG(ERR, "%s: no memory for the wake-up", name);
		rte_intr_instance_free(h);
		rte_free(w->own);
		w->own = NULL;
		close(fd);
		return -ENOMEM;
	}
	w->intr = h;
	w->self.fd = fd;
	w->self.armed = armed;
	return 0;
}

void
ism_wake_fini(struct ism_wake *w)
{
	/* intr is set by a successful ism_wake_init() only. */
	if (w->intr == NULL)
		return;
	/* A thread still waiting is told to look (it finds the device
	 * gone); one that has not collected this when the fd closes sleeps
	 * on, hence the rule of rte_ism.h. */
	ism_wake_kick(w->self.fd);
	close(w->self.fd);
	rte_intr_instance_free(w->intr);
	rte_free(w->own);
	memset(w, 0, sizeof(*w));
	w->self.fd = -1;
}

void
ism_wake_arm(struct ism_wake *w, bool on)
{
	uint64_t n;

	/* The flag of a receiver is written by the receiver only; what
	 * orders the store is the barrier below (arming) or nothing at all
	 * (disarming: a writer that still sees the flag set only makes a
	 * spurious wake-up). */
	ism_wake_flag_set((RTE_ATOMIC(uint32_t) *)(uintptr_t)w->self.armed, on);
	if (on) {
		rte_atomic_thread_fence(rte_memory_order_seq_cst);
		return;
	}
	/* Empty: the next wait sleeps until the next wake-up. */
	while (read(w->self.fd, &n, sizeof(n)) == sizeof(n))
		;
}

void
ism_wake_kick(int fd)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is at its maximum, the fd is readable. A peer
	 * can make this fail repeatedly (an fd that is not an eventfd). */
	if (write(fd, &one, sizeof(one)) < 0 && errno != EAGAIN)
		ISM_PMD_LOG_RL(ERR, "wake-up eventfd %d: %s", fd,
			       strerror(errno));
}
