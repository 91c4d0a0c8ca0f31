/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The interrupt mode of the shm backend (ism_wake.h, rte_ism.h "Waiting
 * without spinning"):
 *
 * - Our eventfd goes to every peer in WAKE, right after our HELLO. A
 *   peer's eventfd is kept in its view (closed when the view is freed);
 *   a raise in the peer's SBA that sets its summary bit writes it when the
 *   armed flag in that SBA's tail is set.
 * - Our armed flag is in the tail of every SBA that peers raise our
 *   signals in (one per writer peer, made by us and passed in HELLO) and
 *   of our own (self-writes). Arming sets them all under wake_lock, which
 *   the control thread also holds to give a new SBA the current value
 *   before a peer can raise in it; then, as for every backend, a full
 *   barrier and a look at what is pending.
 * - A peer may send any fd as its eventfd: ours is refused if /proc shows
 *   it is no eventfd, and made non-blocking whatever it is, so that a raise
 *   never blocks on what a peer sent (writing to the peer's own file can
 *   only harm the peer).
 */

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ism_shm_conn.h"
#include "ism_shm_wake.h"

int
ism_shm_wake_init(struct ism_shm_dev *d)
{
	rte_spinlock_init(&d->wake_lock);
	return ism_wake_init(&d->wake, d->name, d->common.ism->socket_id,
			ism_sw_sba_armed(d->sba));
}

void
ism_shm_wake_fini(struct ism_shm_dev *d)
{
	ism_wake_fini(&d->wake);
}

void
ism_shm_wake_sba_add(struct ism_shm_dev *d, uint8_t slot,
		struct ism_sw_sba *sba)
{
	if (slot >= SHM_MAX_SLOTS)
		return;
	rte_spinlock_lock(&d->wake_lock);
	d->wake_sba[slot] = sba;
	ism_wake_flag_set(ism_sw_sba_armed(sba),
			  ism_wake_armed(d->wake.self.armed));
	rte_spinlock_unlock(&d->wake_lock);
}

void
ism_shm_wake_sba_del(struct ism_shm_dev *d, uint8_t slot,
		struct ism_sw_sba *sba)
{
	if (slot >= SHM_MAX_SLOTS)
		return;
	rte_spinlock_lock(&d->wake_lock);
	if (d->wake_sba[slot] == sba)
		d->wake_sba[slot] = NULL;
	rte_spinlock_unlock(&d->wake_lock);
}

void
ism_shm_wake_rx_published(struct ism_shm_dev *d,
		struct ism_sw_sba *sba)
{
	/* A raise made before the SBA was polled here found its summary
	 * bit clear and may have woken us for nothing; later ones find it
	 * set and wake nobody: look now. */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (ism_wake_armed(d->wake.self.armed) && ism_sw_sba_pending(sba))
		ism_wake_kick(d->wake.self.fd);
}

int
ism_shm_wake_send(struct ism_shm_peer *p)
{
	struct shm_msg m;

	ism_shm_msg_init(&m, SHM_MSG_WAKE, 0);
	return ism_shm_conn_send(&p->c, &m, p->dev->wake.self.fd);
}

/* Whether /proc calls fd an eventfd; true if /proc cannot tell. */
static bool
is_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return true;
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") == 0;
}

int
ism_shm_wake_on_msg(struct ism_shm_peer *p, int fd,
		const char **why)
{
	struct shm_view *v = p->view;
	int fl;

	if (fd == ISM_SHM_FD_LOST) {
		*why = "cannot receive the peer's eventfd";
		return -EMFILE;
	}
	if (p->wake_rcvd || v == NULL || p->tx_sba == NULL) {
		*why = p->wake_rcvd ? "second WAKE" : "WAKE before HELLO";
		goto bad;
	}
	fl = fcntl(fd, F_GETFL);
	if (!is_eventfd(fd) || fl < 0 ||
	    fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
		*why = "WAKE with an fd that is not an eventfd";
		goto bad;
	}
	v->wake_peer.armed = ism_sw_sba_armed(p->tx_sba);
	v->wake_peer.fd = fd;
	rte_atomic_store_explicit(&v->wake, &v->wake_peer,
			rte_memory_order_release);
	p->wake_rcvd = true;
	/* A raise before this woke nobody and left the summary bit set. */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (ism_wake_armed(v->wake_peer.armed) &&
	    ism_sw_sba_pending(p->tx_sba))
		ism_wake_kick(fd);
	return 0;
bad:
	close(fd);
	return -EPROTO;
}

struct rte_intr_handle *
ism_shm_intr_handle_get(struct rte_ism_dev *idev)
{
	return ism_shm_dev_of(idev)->wake.intr;
}

int
ism_shm_intr_arm(struct rte_ism_dev *idev, bool on)
{
	struct ism_shm_dev *d = ism_shm_dev_of(idev);
	unsigned int slot = rte_ism_pmd_lcore_slot(), s;
	struct ism_sw_sba *sba;
	bool pending = false;

	rte_spinlock_lock(&d->wake_lock);
	for (s = 0; s < SHM_MAX_SLOTS; s++)
		if (d->wake_sba[s] != NULL)
			ism_wake_flag_set(ism_sw_sba_armed(d->wake_sba[s]), on);
	/* Our own SBA's flag, then the barrier (or the eventfd cleared). */
	ism_wake_arm(&d->wake, on);
	rte_spinlock_unlock(&d->wake_lock);
	if (!on)
		return 0;
	/* As the poll: the peers' SBAs stay mapped inside the bracket. */
	rte_ism_pmd_move_enter(slot);
	for (s = 0; s < SHM_MAX_SLOTS && !pending; s++) {
		sba = rte_atomic_load_explicit(&d->rx_sba[s],
				rte_memory_order_acquire);
		pending = sba != NULL && ism_sw_sba_pending(sba);
	}
	rte_ism_pmd_move_exit(slot);
	if (pending)
		ism_wake_kick(d->wake.self.fd);
	return 0;
}

void
ism_shm_intr_event(struct rte_ism_dev *idev)
{
	ism_wake_event(&ism_shm_dev_of(idev)->wake);
}
