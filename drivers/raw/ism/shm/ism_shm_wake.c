/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The interrupt mode of the shm backend (ism_wake.h, rte_ism.h "Waiting
 * without spinning"):
 *
 * - Every peer gets a channel of its own to wake us (ism_wake.h): we
 *   make it when we greet the peer and send the peer its sending end in
 *   WAKE, right after our HELLO; its receiving end stays ours alone, so no
 *   peer can read another's wake-up nor change the flags of a file we
 *   read. It closes when the peer goes. The sending end a peer sends us
 *   is kept in its view (closed when the view is freed); a raise in the
 *   peer's SBA that sets its summary bit sends on it when the armed flag
 *   in that SBA's tail is set.
 * - Our armed flag is in the tail of every SBA that peers raise our
 *   signals in (one per writer peer, made by us and passed in HELLO) and
 *   of our own (self-writes). Arming sets them all under wake_lock, which
 *   the control thread also holds to give a new SBA the current value
 *   before a peer can raise in it; then, as for every backend, a full
 *   barrier and a look at what is pending.
 * - A peer may send any fd in WAKE: one that is no AF_UNIX datagram
 *   socket is refused. Whatever it is, we only ever send on it with
 *   MSG_DONTWAIT (ism_wake_kick()): the peer shares that file and may
 *   clear its O_NONBLOCK or fill the queue behind it; neither makes a
 *   send of ours wait, and what we send only reaches the peer.
 */

#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

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
	if (d->wake_sba[slot] == sba) {
		d->wake_sba[slot] = NULL;
		/* The peer's channel goes with it. */
		ism_wake_channel_del(&d->wake, 1 + slot);
	}
	rte_spinlock_unlock(&d->wake_lock);
}

void
ism_shm_wake_rx_published(struct ism_shm_dev *d,
		struct ism_sw_sba *sba)
{
	/* A raise made before the SBA was polled here found its summary
	 * bit clear and may have woken us for nothing; later ones find it
	 * set and wake nobody: look now.
	 */
	rte_atomic_thread_fence(rte_memory_order_seq_cst);
	if (ism_wake_armed(d->wake.self.armed) && ism_sw_sba_pending(sba))
		ism_wake_kick(d->wake.self.fd);
}

int
ism_shm_wake_send(struct ism_shm_peer *p)
{
	struct ism_shm_dev *d = p->dev;
	struct shm_msg m;
	int fd, ret;

	if (p->slot >= SHM_MAX_SLOTS)
		return -EINVAL;
	/* A new channel: whatever an earlier peer of the slot left in the
	 * old one goes with it (this peer's SBA is new, nothing raised in
	 * it yet).
	 */
	rte_spinlock_lock(&d->wake_lock);
	fd = ism_wake_channel_new(&d->wake, 1 + p->slot);
	rte_spinlock_unlock(&d->wake_lock);
	if (fd < 0)
		return fd;
	ism_shm_msg_init(&m, SHM_MSG_WAKE, 0);
	ret = ism_shm_conn_send(&p->c, &m, fd);
	close(fd);
	return ret;
}

/* Whether fd is an AF_UNIX datagram socket. */
static bool
is_wake_channel(int fd)
{
	int type = -1, domain = -1;
	socklen_t len = sizeof(type);

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) < 0)
		return false;
	len = sizeof(domain);
	if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return false;
	return type == SOCK_DGRAM && domain == AF_UNIX;
}

int
ism_shm_wake_on_msg(struct ism_shm_peer *p, int fd,
		const char **why)
{
	struct shm_view *v = p->view;

	if (fd == ISM_SHM_FD_LOST) {
		*why = "cannot receive the peer's wake-up channel";
		return -EMFILE;
	}
	if (p->wake_rcvd || v == NULL || p->tx_sba == NULL) {
		*why = p->wake_rcvd ? "second WAKE" : "WAKE before HELLO";
		goto bad;
	}
	if (!is_wake_channel(fd)) {
		*why = "WAKE with an fd that is not a datagram socket";
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
	/* Our own SBA's flag, then the barrier (or the channels read empty). */
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
