/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_WAKE_H
#define ISM_WAKE_H

/*
 * The interrupt mode of every backend (rte_ism.h, "Waiting without
 * spinning"): a receiving device's wake-up is a set of datagram channels
 * gathered in one epoll instance, and an armed flag. The receiver's client
 * arms (flag set) before it sleeps on the epoll instance and disarms (flag
 * clear, channels read empty) when it polls.
 *
 * Channels: the receiver makes every channel (a SOCK_DGRAM socketpair),
 * keeps its receiving end in the epoll instance and hands out only the
 * sending end: channel 0 is this process's (the kicks of the client API,
 * of loopback writers, of the PCI interrupt handler), channel 1 + i is the
 * one of peer i (shm: sent in WAKE). Nobody else holds a receiving end,
 * so nobody can read a wake-up meant for us, nor change the flags of a
 * file we read; a writer sends one byte with MSG_DONTWAIT, non-blocking
 * whatever the flags of the sending end's file (a peer may share that
 * file and clear its O_NONBLOCK), and we receive with MSG_DONTWAIT too. A
 * peer can only fill its own channel (we then find it readable) or its
 * own receiver's. No thread of ours reads, writes or waits on a file that
 * a peer can read or whose flags it can change (devtools/check-wake-io.py
 * checks the calls).
 *
 * Software backends: the writer that raises a signal the receiver has not
 * seen yet (the group's summary bit of the software SBA went from clear to
 * set, ism_sw_sba_raise()) loads the receiver's flag and sends on its
 * channel only if it is set (ism_wake_raised()). A polling receiver costs
 * a writer one load of a line that only the receiver writes, and only
 * when it arms or disarms: never a system call. The flag is where the
 * writers can read it: this process's memory for loopback, a page shared
 * with the peers for shm and ivshm.
 *
 * PCI: the device raises its MSI for every signal the driver has not seen
 * yet (its summary bit), whatever the flag; the driver's interrupt
 * handler kicks channel 0 when the flag is set.
 *
 * No lost wake-up: the receiver stores the flag, issues a full barrier
 * and then looks for pending signals (ism_wake_arm() and the backend's
 * check); the writer's raise is a sequentially consistent
 * read-modify-write of the summary, after which it loads the flag. Of the
 * two, one sees the other's store (Dekker): either the writer wakes the
 * receiver or the receiver finds the signal and does not sleep. A raise
 * that finds the summary bit set already does not load the flag: the bit
 * was set by a raise that did, and stays set until the receiver polls, so
 * arming finds it pending. The datagram of that raise stays in the
 * writer's channel until the receiver disarms: nobody else can take it.
 */

#include <stdbool.h>
#include <stdint.h>

#include <rte_common.h>
#include <rte_spinlock.h>

#include <ism_compat.h>

struct rte_intr_handle;

/*
 * The armed flag is a 32-bit word: the receiver writes it, the writers
 * only read it, in a line the receiver writes nowhere else. In the
 * software backends it is in the tail of the SBA the writer raises in
 * (ism_sw_sba_armed()), hence in memory shared with the writer (a peer
 * may write anything there: any value but 0 is "armed", which costs it a
 * spurious wake-up of ours, nothing else).
 */

/* What a writer needs to wake one receiver. */
struct ism_wake_peer {
	const __rte_atomic uint32_t *armed;
	int fd;		/* the sending end of the receiver's channel */
};

/* Channel 0: this process's own; 1 + i: peer i's (i a fabric slot of the
 * shm backend, which asserts that there are SHM_MAX_SLOTS of them).
 */
#define ISM_WAKE_SELF		0
#define ISM_WAKE_CHANNELS	65

/* A receiving device's wake-up. */
struct ism_wake {
	/* The receiver's flag and the sending end of channel 0: what this
	 * process's writers use (loopback, kicks).
	 */
	struct ism_wake_peer self;
	__rte_atomic uint32_t *own;		/* a line allocated here, or NULL */
	int ep;		/* the epoll instance: the client's descriptor */
	/* Receiving ends, -1 if none; changed and read empty under lock. */
	rte_spinlock_t lock;
	int rx[ISM_WAKE_CHANNELS];
	/* The client's handle: fd and efds[0] the epoll instance, type VDEV
	 * with a counter size of 0: EAL, which adds it edge-triggered
	 * (rte_intr_rx_ctl()), never reads it; disarming clears it. (Had EAL
	 * to read it, a read finding it empty, cleared by another thread,
	 * would spin in eal_intr_proc_rxtx_intr() of
	 * lib/eal/linux/eal_interrupts.c, which retries on EAGAIN.)
	 */
	struct rte_intr_handle *intr;
};

/*
 * Create the epoll instance, channel 0 and the handle; the flag at armed
 * (e.g. the tail of the backend's SBA) or, if NULL, in a cache line
 * allocated on socket. 0 or a negative errno (logged); nothing is left on
 * failure.
 */
int ism_wake_init(struct ism_wake *w, const char *name, int socket,
		__rte_atomic uint32_t *armed);

/*
 * A new channel ch (1..ISM_WAKE_CHANNELS - 1) in place of the old one, if
 * any: the sending end, for the caller to hand to the writer and close,
 * or a negative errno (logged). Wake-ups of the old channel not read yet
 * are dropped with it: the caller makes the channel before the writer can
 * raise anything, or checks for pending signals after.
 */
int ism_wake_channel_new(struct ism_wake *w, unsigned int ch);
/* Close channel ch (a writer that went away); idempotent. */
void ism_wake_channel_del(struct ism_wake *w, unsigned int ch);

/* Wake a waiter one last time (the device goes away), then free
 * everything. Idempotent; a zeroed struct ism_wake (never initialised) is
 * left alone.
 */
void ism_wake_fini(struct ism_wake *w);

/*
 * Arm: set the flag, then a full barrier; the caller then looks for
 * pending signals and calls ism_wake_kick() if there are any. Disarm:
 * clear the flag, then read the channels empty.
 */
void ism_wake_arm(struct ism_wake *w, bool on);

/* Send a wake-up on the channel whose sending end is fd. Any thread;
 * never blocks, whoever shares the file.
 */
void ism_wake_kick(int fd);

static inline bool
ism_wake_armed(const __rte_atomic uint32_t *armed)
{
	return rte_atomic_load_explicit(armed, rte_memory_order_seq_cst) != 0;
}

/* Store the flag (the receiver only); ism_wake_arm() orders it. */
static inline void
ism_wake_flag_set(__rte_atomic uint32_t *armed, bool on)
{
	rte_atomic_store_explicit(armed, on ? 1 : 0, rte_memory_order_relaxed);
}

/* The library queued an event (rte_ism_dev_ops intr_event). */
static inline void
ism_wake_event(const struct ism_wake *w)
{
	if (w->self.armed != NULL && ism_wake_armed(w->self.armed))
		ism_wake_kick(w->self.fd);
}

/*
 * Writer side, after a raise that set the receiver's summary bit (see
 * above): wake the receiver if it is armed. w NULL: the receiver has no
 * wake-up (yet).
 */
static __rte_always_inline void
ism_wake_raised(const struct ism_wake_peer *w)
{
	if (w != NULL && unlikely(ism_wake_armed(w->armed)))
		ism_wake_kick(w->fd);
}

#endif /* ISM_WAKE_H */
