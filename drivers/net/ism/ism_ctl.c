/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The control thread of net_ism: one per process while a port exists. Once
 * a millisecond it polls the events of each ISM device in use, gives each
 * event to the started ports of that device (librte_ism_ring filters them
 * by peer and token), runs the periodic work of their links, and turns the
 * state of each link into the port's link status, with an LSC event.
 *
 * Why a thread: the handshake must go on whether or not the application
 * polls the port (testpmd waits for the link before it starts forwarding),
 * and a peer killed with SIGKILL must bring the link down within
 * milliseconds. The data path never waits for it, nor it for the data
 * path: the ring functions it calls publish each connection to the burst
 * functions, which take no lock (lib/ism_ring/ism_ring_private.h).
 *
 * The ports of an ISM device hold it through one removal callback of
 * librte_ism per device (registered with its first port, dropped with its
 * last): when the device is closed or removed, dev_removed() runs on the
 * thread doing it, while the device still works, and leaves each port of
 * the device with no link, never to use the id again (each ring holds the
 * device too, and gives its DMB back from its own callback).
 */

#include <inttypes.h>
#include <pthread.h>
#include <string.h>

#include <rte_cycles.h>
#include <rte_lcore.h>

#include <ism_compat.h>

#include "ism_ethdev.h"

#define CTL_PERIOD_US	1000

/* Recursive: an LSC callback, run under it, may stop or close a port. */
static pthread_mutex_t ctl_lock = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static TAILQ_HEAD(, ism_eth_port) ctl_ports =
	TAILQ_HEAD_INITIALIZER(ctl_ports);
static rte_thread_t ctl_tid;
static bool ctl_running;
/* The running thread's generation; a thread whose generation is no longer
 * current exits.
 */
static uint32_t __rte_atomic ctl_gen;

/* Log the count of the link lines held back once their window ended (or
 * now, if all). Under ctl_lock.
 */
static void
link_log_flush(struct ism_eth_port *p, uint64_t now, bool all)
{
	struct ism_eth_log_rl *rl = &p->link_log;

	if (rl->suppressed == 0 || (!all && now < rl->window_end))
		return;
	ISM_ETH_LOG(NOTICE, "%s: %" PRIu64 " more link lines not logged (at "
		    "most %d per %d s)", p->dev->data->name, rl->suppressed,
		    ISM_ETH_LINK_LOG_BURST, ISM_ETH_LINK_LOG_WINDOW_S);
	rl->suppressed = 0;
}

/* Whether a link line of the port may be logged now; counts it if not. */
static bool
link_log_ok(struct ism_eth_port *p)
{
	struct ism_eth_log_rl *rl = &p->link_log;
	uint64_t now = rte_get_timer_cycles();

	if (now >= rl->window_end) {
		link_log_flush(p, now, true);
		rl->window_end = now +
			rte_get_timer_hz() * ISM_ETH_LINK_LOG_WINDOW_S;
		rl->printed = 0;
	}
	if (rl->printed < ISM_ETH_LINK_LOG_BURST) {
		rl->printed++;
		return true;
	}
	rl->suppressed++;
	return false;
}

/* From the link functions, under ctl_lock. */
static void
on_link(void *arg, const struct rte_ism_ring_link_report *rep)
{
	struct ism_eth_port *p = arg;
	char gid[RTE_ISM_GID_STRLEN];

	if (!link_log_ok(p))
		return;
	rte_ism_gid_format(&p->args.peer, gid, sizeof(gid));
	if (rep->what == RTE_ISM_RING_LINK_UP) {
		ISM_ETH_LOG(NOTICE, "%s: link up: peer %s on %s, %u queue "
			    "pairs", p->dev->data->name, gid, p->args.ism,
			    RTE_MIN(p->link.nb_rings, p->link.peer_nb_rings));
		return;
	}
	if (rep->ev != NULL)
		ISM_ETH_LOG(NOTICE, "%s: link down: peer %s %s: %s (%.3f ms "
			    "after the event)", p->dev->data->name, gid,
			    rep->what == RTE_ISM_RING_LINK_BYE ? "left" :
			    "lost", rep->why,
			    (double)(rte_ism_time_ns() - rep->ev->time) / 1e6);
	else
		ISM_ETH_LOG(NOTICE, "%s: link down: peer %s lost: %s",
			    p->dev->data->name, gid, rep->why);
}

/* Make the port's link status what its link is. Returns true if it
 * changed and the application asked for LSC events.
 */
static bool
link_sync(struct ism_eth_port *p)
{
	bool up = p->announcing && rte_ism_ring_link_up(&p->link);
	struct rte_eth_link link = {
		.link_speed = up ? RTE_ETH_SPEED_NUM_100G :
			RTE_ETH_SPEED_NUM_NONE,
		.link_duplex = RTE_ETH_LINK_FULL_DUPLEX,
		.link_autoneg = RTE_ETH_LINK_FIXED,
		.link_status = up ? RTE_ETH_LINK_UP : RTE_ETH_LINK_DOWN,
	};

	if (up == p->link_up)
		return false;
	p->link_up = up;
	if (up) {
		p->link_up_count++;
	} else {
		p->link_down_count++;
		/* A receiver asleep waits for nothing any more. */
		ism_eth_intr_kick(p);
	}
	rte_eth_linkstatus_set(p->dev, &link);
	return p->dev->data->dev_conf.intr_conf.lsc != 0;
}

/* Give one device's events to the started ports on it. Only devices of
 * ports whose device is there: a removed one's id may be another's now.
 */
static void
poll_device(uint16_t dev_id)
{
	struct rte_ism_event ev[16];
	struct ism_eth_port *p;
	int n, i;

	do {
		n = rte_ism_event_poll(dev_id, ev, RTE_DIM(ev));
		for (i = 0; i < n; i++)
			TAILQ_FOREACH(p, &ctl_ports, next)
				if (p->args.dev_id == dev_id && p->announcing)
					rte_ism_ring_link_event(&p->link,
							&ev[i]);
	} while (n == (int)RTE_DIM(ev));
}

static struct ism_eth_port *
find_port(uint16_t port_id)
{
	struct ism_eth_port *p;

	TAILQ_FOREACH(p, &ctl_ports, next)
		if (p->dev->data->port_id == port_id)
			return p;
	return NULL;
}

static void
ctl_round(void)
{
	bool polled[RTE_ISM_MAX_DEVS] = { false };
	uint16_t notify[RTE_MAX_ETHPORTS];
	unsigned int nb_notify = 0, i;
	struct ism_eth_port *p;
	uint64_t now;

	pthread_mutex_lock(&ctl_lock);
	/* Every device's events, also those of stopped ports (dropped):
	 * a queue left to fill up would lose the events of a later start.
	 */
	TAILQ_FOREACH(p, &ctl_ports, next) {
		if (!p->dev_gone && !polled[p->args.dev_id]) {
			polled[p->args.dev_id] = true;
			poll_device(p->args.dev_id);
		}
	}
	now = rte_rdtsc();
	TAILQ_FOREACH(p, &ctl_ports, next) {
		if (p->announcing)
			rte_ism_ring_link_tick(&p->link, now);
		link_log_flush(p, rte_get_timer_cycles(), false);
		if (link_sync(p) && nb_notify < RTE_DIM(notify))
			notify[nb_notify++] = p->dev->data->port_id;
	}
	/* A callback may close a port: look each one up again. */
	for (i = 0; i < nb_notify; i++) {
		p = find_port(notify[i]);
		if (p != NULL)
			rte_eth_dev_callback_process(p->dev,
					RTE_ETH_EVENT_INTR_LSC, NULL);
	}
	pthread_mutex_unlock(&ctl_lock);
}

static uint32_t
ctl_main(void *arg)
{
	uint32_t gen = (uint32_t)(uintptr_t)arg;

	while (rte_atomic_load_explicit(&ctl_gen, rte_memory_order_acquire) == gen) {
		ctl_round();
		rte_delay_us_sleep(CTL_PERIOD_US);
	}
	return 0;
}

/* Another port than q holds device dev_id. */
static bool
device_in_use(uint16_t dev_id, const struct ism_eth_port *q)
{
	struct ism_eth_port *p;

	TAILQ_FOREACH(p, &ctl_ports, next)
		if (p != q && !p->dev_gone && p->args.dev_id == dev_id)
			return true;
	return false;
}

/* The port's device is being removed: a goodbye to the peer while the
 * device still works, then no link. Under ctl_lock. Returns true if the
 * application wants an LSC event.
 */
static bool
port_dev_gone(struct ism_eth_port *p)
{
	if (p->announcing) {
		rte_ism_ring_link_bye(&p->link);
		p->announcing = false;
	}
	p->dev_gone = true;
	/* The queues and their rings stay until the close (the
	 * application's lcores may still call the burst functions: they
	 * return 0). Each ring holds the device itself: its own removal
	 * callback, which runs after ours (registered later), gives its DMB
	 * back once the burst functions have left their calls on it.
	 */
	ISM_ETH_LOG(WARNING, "%s: ISM device %s removed: link down; the port "
		    "can only be stopped and closed now", p->dev->data->name,
		    p->args.ism);
	return link_sync(p);
}

/* The removal callback of an ISM device (librte_ism), on the thread that
 * removes it; arg is unused (one registration per device).
 */
static void
dev_removed(uint16_t dev_id, void *arg __rte_unused)
{
	uint16_t notify[RTE_MAX_ETHPORTS];
	unsigned int nb_notify = 0, i;
	struct ism_eth_port *p;

	pthread_mutex_lock(&ctl_lock);
	TAILQ_FOREACH(p, &ctl_ports, next)
		if (!p->dev_gone && p->args.dev_id == dev_id &&
		    port_dev_gone(p) && nb_notify < RTE_DIM(notify))
			notify[nb_notify++] = p->dev->data->port_id;
	/* A callback may close a port: look each one up again. */
	for (i = 0; i < nb_notify; i++) {
		p = find_port(notify[i]);
		if (p != NULL)
			rte_eth_dev_callback_process(p->dev,
					RTE_ETH_EVENT_INTR_LSC, NULL);
	}
	pthread_mutex_unlock(&ctl_lock);
}

bool
ism_ctl_dev_gone(struct ism_eth_port *p)
{
	bool gone;

	pthread_mutex_lock(&ctl_lock);
	gone = p->dev_gone;
	pthread_mutex_unlock(&ctl_lock);
	return gone;
}

int
ism_ctl_dev_check(struct ism_eth_port *p, const char *what)
{
	if (!ism_ctl_dev_gone(p))
		return 0;
	ISM_ETH_LOG(ERR, "%s: %s: its ISM device %s was removed",
		    p->dev->data->name, what, p->args.ism);
	return -ENODEV;
}

int
ism_ctl_port_add(struct ism_eth_port *p)
{
	struct rte_ism_event ev[16];
	uint32_t gen;
	int ret = 0;

	pthread_mutex_lock(&ctl_lock);
	if (!ctl_running) {
		gen = rte_atomic_fetch_add_explicit(&ctl_gen, 1,
				rte_memory_order_release) + 1;
		ret = ism_ctrl_thread_create(&ctl_tid, "ism-eth",
				ctl_main, (void *)(uintptr_t)gen);
		if (ret != 0) {
			ISM_ETH_LOG(ERR, "%s: cannot start the control "
				    "thread: %s", p->dev->data->name,
				    strerror(-ret));
			goto out;
		}
		ctl_running = true;
	}
	/* The first port of a device: it holds the device from now on, and
	 * what is queued there predates us (a BYE to a port closed before,
	 * say) and would be taken for news.
	 */
	if (!device_in_use(p->args.dev_id, NULL)) {
		ret = rte_ism_dev_remove_callback_register(p->args.dev_id,
				dev_removed, NULL);
		if (ret < 0 && ret != -EEXIST) {
			ISM_ETH_LOG(ERR, "%s: cannot hold ISM device %s: %s",
				    p->dev->data->name, p->args.ism,
				    strerror(-ret));
			goto out;
		}
		ret = 0;
		while (rte_ism_event_poll(p->args.dev_id, ev, RTE_DIM(ev)) > 0)
			;
	}
	TAILQ_INSERT_TAIL(&ctl_ports, p, next);
out:
	pthread_mutex_unlock(&ctl_lock);
	return ret;
}

void
ism_ctl_port_del(struct ism_eth_port *p)
{
	rte_thread_t tid;
	bool stop = false;

	pthread_mutex_lock(&ctl_lock);
	/* The last port of a device lets it go (not after its removal: the
	 * registration went with it, and the id may be another's). -EAGAIN,
	 * the callback running on another thread, is harmless: it finds no
	 * port of this device.
	 */
	if (!p->dev_gone && !device_in_use(p->args.dev_id, p))
		rte_ism_dev_remove_callback_unregister(p->args.dev_id,
				dev_removed, NULL);
	link_log_flush(p, 0, true);
	TAILQ_REMOVE(&ctl_ports, p, next);
	if (TAILQ_EMPTY(&ctl_ports) && ctl_running) {
		rte_atomic_fetch_add_explicit(&ctl_gen, 1,
				rte_memory_order_release);
		ctl_running = false;
		tid = ctl_tid;
		stop = true;
	}
	pthread_mutex_unlock(&ctl_lock);
	if (!stop)
		return;
	/* Closed from an LSC callback, i.e. on the thread itself: it exits
	 * after this round.
	 */
	if (rte_thread_equal(rte_thread_self(), tid))
		rte_thread_detach(tid);
	else
		rte_thread_join(tid, NULL);
}

int
ism_ctl_port_start(struct ism_eth_port *p)
{
	struct rte_ism_ring *rings[ISM_ETH_MAX_QUEUES];
	uint16_t i;
	int ret;

	for (i = 0; i < p->nb_queues; i++)
		rings[i] = p->queues[i].ring;
	pthread_mutex_lock(&ctl_lock);
	if (p->dev_gone) {
		pthread_mutex_unlock(&ctl_lock);
		return -ENODEV;
	}
	ret = rte_ism_ring_link_init(&p->link, p->args.dev_id, &p->args.peer,
			rings, p->nb_queues, on_link, p);
	if (ret == 0)
		p->announcing = true;	/* HELLO at the next round */
	pthread_mutex_unlock(&ctl_lock);
	return ret;
}

void
ism_ctl_port_stop(struct ism_eth_port *p)
{
	pthread_mutex_lock(&ctl_lock);
	if (p->announcing) {
		rte_ism_ring_link_bye(&p->link);
		p->announcing = false;
	}
	/* Stopped by the application: no LSC event. */
	link_sync(p);
	pthread_mutex_unlock(&ctl_lock);
}

const char *
ism_ctl_peer_taken(const struct ism_eth_args *a)
{
	struct ism_eth_port *p;
	const char *name = NULL;

	pthread_mutex_lock(&ctl_lock);
	TAILQ_FOREACH(p, &ctl_ports, next) {
		if (!p->dev_gone && p->args.dev_id == a->dev_id &&
		    rte_ism_gid_equal(&p->args.peer, &a->peer)) {
			name = p->dev->data->name;
			break;
		}
	}
	pthread_mutex_unlock(&ctl_lock);
	return name;
}
