/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism_fwd: forward packets between DPDK processes through ISM,
 * polled, one lcore per process. See doc/guides/sample_app_ug/ism_fwd.rst.
 *
 *   dpdk-ism_fwd [EAL options] -- --peer-gid GID [options]
 *
 * Exit status: 0 done, 1 error, 2 loopback-check found loss or corruption,
 * 3 the peer was lost (with --on-peer-loss exit), 4 the ISM device was
 * removed.
 *
 * The ISM device is held with a removal callback (rte_ism.h, "Holders of a
 * device id"): the forwarding loop runs under hold_lock and looks at
 * dev_removed once an iteration; the callback, which may run on another
 * thread (a removal asked for by a secondary process runs on the EAL
 * interrupt thread), sets dev_removed and takes the lock, so it returns
 * once the loop has said goodbye, given its ring back and stopped using
 * the device. Before rte_eal_cleanup(), which removes the devices too, we
 * let such a removal end: an alarm of ours runs on the interrupt thread
 * after it.
 */

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_alarm.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ethdev.h>
#include <rte_lcore.h>
#include <rte_mbuf.h>
#include <rte_pause.h>
#include <rte_string_fns.h>

#include <rte_ism.h>
/* rte_atomic_*_explicit, also with a DPDK older than 23.11. */
#include <ism_compat.h>

#include "fwd.h"

#define EXIT_CHECK_FAILED	2
#define EXIT_PEER_LOST		3
#define EXIT_DEV_REMOVED	4

#define DEFAULT_SLOT_SIZE	128
#define DEFAULT_DMB_BUDGET	(1u << 20)
#define DEFAULT_CHECK_PKTS	1000000
#define PORT_DESC		1024
#define MBUF_CACHE		256

/* The signal that asked us to stop, 0 if none. */
static volatile sig_atomic_t quit_signal;

/* Held while the ISM device is in use; see the file comment. */
static pthread_mutex_t hold_lock = PTHREAD_MUTEX_INITIALIZER;
static RTE_ATOMIC(bool) dev_removed;
static pthread_t main_thread;
/* The removal runs on another thread than ours. */
static RTE_ATOMIC(bool) removed_elsewhere;

static const char *const mode_names[] = {
	[FWD_IOFWD] = "iofwd",
	[FWD_TXONLY] = "txonly",
	[FWD_RXONLY] = "rxonly",
	[FWD_LOOPBACK_CHECK] = "loopback-check",
};

static void
usage(const char *prog)
{
	printf("Usage: %s [EAL options] -- --peer-gid GID [options]\n"
	       "  --peer-gid GID         GID of the peer's ISM device (required)\n"
	       "  --ism-dev NAME         ISM device (default: the first one)\n"
	       "  --fwd-mode MODE        iofwd (default), txonly, rxonly,\n"
	       "                         loopback-check\n"
	       "  --port N               ethdev port for iofwd (default: the first)\n"
	       "  --zero-copy            send into the attached peer DMB, receive\n"
	       "                         into mbufs attached to our DMB\n"
	       "  --burst N              packets per burst, 1..%u (default 32)\n"
	       "  --slot-size B          bytes per ring slot, power of two\n"
	       "                         (default %u)\n"
	       "  --ring-slots N         slots of our receive ring, power of two\n"
	       "                         (default: what fits in 1 MiB and the\n"
	       "                         device's largest DMB)\n"
	       "  --pkt-size N[-M]       generated sizes (default 64)\n"
	       "  --nb-pkts N            packets to generate (default: no limit;\n"
	       "                         loopback-check %u)\n"
	       "  --stop-after-rx N      exit after N packets from the peer\n"
	       "  --stats-period S       seconds between stats lines, 0: off\n"
	       "                         (default 1)\n"
	       "  --drain-time S         loopback-check: wait S s for the last\n"
	       "                         packets (default 2)\n"
	       "  --on-peer-loss MODE    exit or wait (default) for the peer\n"
	       "  --nb-mbufs N           mbuf pool size (default 16384)\n",
	       prog, RTE_ISM_RING_MAX_BURST, DEFAULT_SLOT_SIZE, DEFAULT_CHECK_PKTS);
}

static int
parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' ||
	    *v < min || *v > max)
		return -EINVAL;
	return 0;
}

static int
parse_seconds(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno != 0 || end == s || *end != '\0' || !(*v >= 0) || *v > 1e6)
		return -EINVAL;
	return 0;
}

static int
parse_sizes(const char *s, struct fwd_conf *conf)
{
	char buf[64], *dash;
	uint64_t lo, hi;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strlcpy(buf, s, sizeof(buf));
	dash = strchr(buf, '-');
	if (dash != NULL)
		*dash = '\0';
	if (parse_u64(buf, 60, FWD_MAX_PKT, &lo) < 0)
		return -EINVAL;
	hi = lo;
	if (dash != NULL && parse_u64(dash + 1, lo, FWD_MAX_PKT, &hi) < 0)
		return -EINVAL;
	conf->pkt_min = lo;
	conf->pkt_max = hi;
	return 0;
}

static int
parse_mode(const char *s, enum fwd_mode *mode)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(mode_names); i++) {
		if (strcmp(s, mode_names[i]) == 0) {
			*mode = i;
			return 0;
		}
	}
	return -EINVAL;
}

enum {
	OPT_PEER_GID = 256, OPT_ISM_DEV, OPT_FWD_MODE, OPT_PORT, OPT_ZERO_COPY,
	OPT_BURST, OPT_SLOT_SIZE, OPT_RING_SLOTS, OPT_PKT_SIZE, OPT_NB_PKTS,
	OPT_STOP_AFTER_RX, OPT_STATS_PERIOD, OPT_DRAIN_TIME, OPT_ON_PEER_LOSS,
	OPT_NB_MBUFS,
};

static const struct option long_opts[] = {
	{ "peer-gid", required_argument, NULL, OPT_PEER_GID },
	{ "ism-dev", required_argument, NULL, OPT_ISM_DEV },
	{ "fwd-mode", required_argument, NULL, OPT_FWD_MODE },
	{ "port", required_argument, NULL, OPT_PORT },
	{ "zero-copy", no_argument, NULL, OPT_ZERO_COPY },
	{ "burst", required_argument, NULL, OPT_BURST },
	{ "slot-size", required_argument, NULL, OPT_SLOT_SIZE },
	{ "ring-slots", required_argument, NULL, OPT_RING_SLOTS },
	{ "pkt-size", required_argument, NULL, OPT_PKT_SIZE },
	{ "nb-pkts", required_argument, NULL, OPT_NB_PKTS },
	{ "stop-after-rx", required_argument, NULL, OPT_STOP_AFTER_RX },
	{ "stats-period", required_argument, NULL, OPT_STATS_PERIOD },
	{ "drain-time", required_argument, NULL, OPT_DRAIN_TIME },
	{ "on-peer-loss", required_argument, NULL, OPT_ON_PEER_LOSS },
	{ "nb-mbufs", required_argument, NULL, OPT_NB_MBUFS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, 1 after --help, or -EINVAL after printing what was wrong. */
static int
parse_args(int argc, char **argv, struct fwd_conf *conf, bool *has_port)
{
	bool have_gid = false, have_nb_pkts = false;
	const char *bad = NULL;
	uint64_t v;
	int opt;

	*conf = (struct fwd_conf){
		.mode = FWD_IOFWD,
		.burst = 32,
		.geom.slot_size = DEFAULT_SLOT_SIZE,
		.pkt_min = 64,
		.pkt_max = 64,
		.stats_period = 1,
		.drain_time = 2,
		.nb_mbufs = 16384,
	};
	*has_port = false;
	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_PEER_GID:
			have_gid = rte_ism_gid_parse(optarg, &conf->peer) == 0;
			bad = have_gid ? NULL : "--peer-gid";
			break;
		case OPT_ISM_DEV:
			conf->ism_dev = optarg;
			break;
		case OPT_FWD_MODE:
			if (parse_mode(optarg, &conf->mode) < 0)
				bad = "--fwd-mode";
			break;
		case OPT_PORT:
			if (parse_u64(optarg, 0, RTE_MAX_ETHPORTS - 1, &v) < 0)
				bad = "--port";
			conf->port = v;
			*has_port = true;
			break;
		case OPT_ZERO_COPY:
			conf->zero_copy = true;
			break;
		case OPT_BURST:
			if (parse_u64(optarg, 1, RTE_ISM_RING_MAX_BURST, &v) < 0)
				bad = "--burst";
			conf->burst = v;
			break;
		case OPT_SLOT_SIZE:
			if (parse_u64(optarg, RTE_ISM_RING_SLOT_MIN,
				      RTE_ISM_RING_SLOT_MAX, &v) < 0 ||
			    !rte_is_power_of_2(v))
				bad = "--slot-size";
			conf->geom.slot_size = v;
			break;
		case OPT_RING_SLOTS:
			if (parse_u64(optarg, RTE_ISM_RING_SLOTS_MIN,
				      RTE_ISM_RING_SLOTS_MAX, &v) < 0 ||
			    !rte_is_power_of_2(v))
				bad = "--ring-slots";
			conf->geom.nb_slots = v;
			break;
		case OPT_PKT_SIZE:
			if (parse_sizes(optarg, conf) < 0)
				bad = "--pkt-size";
			break;
		case OPT_NB_PKTS:
			if (parse_u64(optarg, 0, UINT64_MAX, &conf->nb_pkts) < 0)
				bad = "--nb-pkts";
			have_nb_pkts = true;
			break;
		case OPT_STOP_AFTER_RX:
			if (parse_u64(optarg, 0, UINT64_MAX,
				      &conf->stop_after_rx) < 0)
				bad = "--stop-after-rx";
			break;
		case OPT_STATS_PERIOD:
			if (parse_seconds(optarg, &conf->stats_period) < 0)
				bad = "--stats-period";
			break;
		case OPT_DRAIN_TIME:
			if (parse_seconds(optarg, &conf->drain_time) < 0)
				bad = "--drain-time";
			break;
		case OPT_ON_PEER_LOSS:
			if (strcmp(optarg, "exit") == 0)
				conf->exit_on_peer_loss = true;
			else if (strcmp(optarg, "wait") == 0)
				conf->exit_on_peer_loss = false;
			else
				bad = "--on-peer-loss";
			break;
		case OPT_NB_MBUFS:
			if (parse_u64(optarg, 1024, UINT32_MAX, &v) < 0)
				bad = "--nb-mbufs";
			conf->nb_mbufs = v;
			break;
		case 'h':
			usage(argv[0]);
			return 1;
		default:
			usage(argv[0]);
			return -EINVAL;
		}
		if (bad != NULL) {
			fprintf(stderr, "ism_fwd: bad value for %s: %s\n", bad,
				optarg);
			return -EINVAL;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "ism_fwd: unexpected argument %s\n",
			argv[optind]);
		return -EINVAL;
	}
	if (!have_gid) {
		fprintf(stderr, "ism_fwd: --peer-gid is required\n");
		return -EINVAL;
	}
	if (conf->mode == FWD_LOOPBACK_CHECK && !have_nb_pkts)
		conf->nb_pkts = DEFAULT_CHECK_PKTS;
	return 0;
}

static int
ism_dev_find(const struct fwd_conf *conf, struct rte_ism_dev_info *info)
{
	uint16_t id;
	int ret;

	if (conf->ism_dev != NULL) {
		ret = rte_ism_get_dev_id(conf->ism_dev);
		if (ret < 0) {
			fprintf(stderr, "ism_fwd: no ISM device %s\n",
				conf->ism_dev);
			return ret;
		}
		id = ret;
	} else {
		id = rte_ism_dev_next(0);
		if (id >= RTE_ISM_MAX_DEVS) {
			fprintf(stderr, "ism_fwd: no ISM device (add e.g. "
				"--vdev=ism_shm0,dir=DIR)\n");
			return -ENODEV;
		}
	}
	ret = rte_ism_info_get(id, info);
	if (ret < 0)
		return ret;
	if ((info->capa & RTE_ISM_CAPA_SIGNAL_EVENT) == 0) {
		fprintf(stderr, "ism_fwd: %s cannot send events, which the "
			"handshake needs\n", info->name);
		return -ENOTSUP;
	}
	if (conf->zero_copy && (info->capa & RTE_ISM_CAPA_NOCOPY) == 0) {
		fprintf(stderr, "ism_fwd: %s (%s) has no nocopy attach: "
			"--zero-copy is not possible\n", info->name,
			info->backend);
		return -ENOTSUP;
	}
	return id;
}

/* Largest power-of-two ring of slot_size slots within the budget. */
static int
geom_default(struct rte_ism_ring_geom *g, const struct rte_ism_dev_info *info)
{
	uint64_t budget = RTE_MIN(info->max_dmb_len, DEFAULT_DMB_BUDGET);

	if (g->nb_slots != 0)
		return 0;
	g->nb_slots = RTE_ISM_RING_SLOTS_MAX;
	while (g->nb_slots > RTE_ISM_RING_SLOTS_MIN &&
	       rte_ism_ring_dmb_len(g) > budget)
		g->nb_slots /= 2;
	return rte_ism_ring_dmb_len(g) <= info->max_dmb_len ? 0 : -E2BIG;
}

static int
port_init(uint16_t port, struct rte_mempool *pool)
{
	struct rte_eth_conf conf = { 0 };
	struct rte_eth_dev_info info;
	uint16_t nb_rxd = PORT_DESC, nb_txd = PORT_DESC;
	int ret;

	ret = rte_eth_dev_info_get(port, &info);
	if (ret < 0)
		return ret;
	/* Multi-segment packets both ways where the port can. */
	if (info.tx_offload_capa & RTE_ETH_TX_OFFLOAD_MULTI_SEGS)
		conf.txmode.offloads |= RTE_ETH_TX_OFFLOAD_MULTI_SEGS;
	if (info.rx_offload_capa & RTE_ETH_RX_OFFLOAD_SCATTER)
		conf.rxmode.offloads |= RTE_ETH_RX_OFFLOAD_SCATTER;
	ret = rte_eth_dev_configure(port, 1, 1, &conf);
	if (ret == 0)
		ret = rte_eth_dev_adjust_nb_rx_tx_desc(port, &nb_rxd, &nb_txd);
	if (ret == 0)
		ret = rte_eth_rx_queue_setup(port, 0, nb_rxd,
				rte_eth_dev_socket_id(port), NULL, pool);
	if (ret == 0)
		ret = rte_eth_tx_queue_setup(port, 0, nb_txd,
				rte_eth_dev_socket_id(port), NULL);
	if (ret == 0)
		ret = rte_eth_dev_start(port);
	if (ret == 0)
		rte_eth_promiscuous_enable(port);	/* may be unsupported */
	return ret;
}

static void
port_fini(uint16_t port)
{
	struct rte_eth_stats st;

	if (rte_eth_stats_get(port, &st) == 0)
		printf("  port %u   ipackets %" PRIu64 " opackets %" PRIu64
		       " imissed %" PRIu64 " ierrors %" PRIu64 " oerrors %"
		       PRIu64 " rx_nombuf %" PRIu64 "\n", port, st.ipackets,
		       st.opackets, st.imissed, st.ierrors, st.oerrors,
		       st.rx_nombuf);
	/* Frees the mbufs the port still holds (zero copy: our slots). */
	rte_eth_dev_stop(port);
	rte_eth_dev_close(port);
}

/* The removal callback of the ISM device: returns once we let it go. */
static void
on_dev_removed(uint16_t dev_id __rte_unused, void *arg __rte_unused)
{
	rte_atomic_store_explicit(&removed_elsewhere,
			!pthread_equal(pthread_self(), main_thread),
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&dev_removed, true, rte_memory_order_release);
	pthread_mutex_lock(&hold_lock);
	pthread_mutex_unlock(&hold_lock);
}

static void
alarm_ran(void *arg)
{
	rte_atomic_store_explicit((__rte_atomic bool *)arg, true, rte_memory_order_release);
}

/* A removal on the interrupt thread (alarm callbacks run one after the
 * other there) has ended once an alarm set now has run.
 */
static void
removal_wait(void)
{
	RTE_ATOMIC(bool) ran = false;
	unsigned int ms;

	if (!rte_atomic_load_explicit(&removed_elsewhere,
			rte_memory_order_relaxed) ||
	    rte_eal_alarm_set(1, alarm_ran, &ran) != 0)
		return;
	for (ms = 0; ms < 10000 && !rte_atomic_load_explicit(&ran,
			rte_memory_order_acquire); ms++)
		rte_delay_us_sleep(1000);
	if (!rte_atomic_load_explicit(&ran, rte_memory_order_acquire)) {
		/* The alarm still has our flag: it must never run now. */
		rte_eal_alarm_cancel(alarm_ran, &ran);
		fprintf(stderr, "ism_fwd: the removal of the ISM device "
			"did not end within 10 s\n");
	}
}

/* Only async-signal-safe work here: the loop prints the message. */
static void
on_signal(int sig)
{
	quit_signal = sig;
}

/* What the handshake (rte_ism_ring_link) found, as we report it. */
static void
on_link(void *arg, const struct rte_ism_ring_link_report *rep)
{
	struct rte_ism_ring *ring = arg;
	struct rte_ism_ring_info ri;
	uint64_t now;

	if (rep->what == RTE_ISM_RING_LINK_UP) {
		rte_ism_ring_info_get(ring, &ri);
		printf("ism_fwd: link up (the peer's ring: %u slots of %u "
		       "bytes)\n", ri.peer_geom.nb_slots,
		       ri.peer_geom.slot_size);
		fflush(stdout);
		return;
	}
	/* The clock of the event, and of the harness's line times. */
	now = rte_ism_time_ns();
	printf("ism_fwd: peer %s: %s; reported at mono_ns=%" PRIu64,
	       rep->what == RTE_ISM_RING_LINK_BYE ? "left" : "lost", rep->why,
	       now);
	if (rep->ev != NULL)
		printf(", %.3f ms after the event",
		       (double)(now - rep->ev->time) / 1e6);
	printf("\n");
	fflush(stdout);
}

/* The forwarding loop; control work (events, stats) about once per ms. */
static int
fwd_loop(struct fwd_ctx *c, struct rte_ism_ring_link *link)
{
	const uint64_t hz = rte_get_tsc_hz();
	const uint64_t ctl_period = hz / 1000;
	const uint64_t stats_period = c->conf->stats_period * hz;
	uint64_t now = rte_rdtsc(), start = now, next_ctl = now;
	uint64_t next_stats = now + stats_period;
	struct stats_snap first, prev, cur;
	unsigned int iter = 0, ev;
	int status = EXIT_SUCCESS;

	stats_snap(&first, c, now);
	prev = first;
	/* A signal during the set-up stops us before the first iteration. */
	while (quit_signal == 0) {
		if (rte_atomic_load_explicit(&dev_removed,
				rte_memory_order_relaxed)) {
			printf("ism_fwd: the ISM device is being removed: "
			       "stopping\n");
			fflush(stdout);
			status = EXIT_DEV_REMOVED;
			break;
		}
		fwd_iteration(c);
		if ((++iter & 15) != 0)
			continue;
		now = rte_rdtsc();
		if (now < next_ctl)
			continue;
		next_ctl = now + ctl_period;
		ev = rte_ism_ring_link_poll(link, now);
		if (ev & (RTE_ISM_RING_LINK_LOST | RTE_ISM_RING_LINK_BYE)) {
			fwd_peer_gone(c);
			if (c->conf->exit_on_peer_loss) {
				if (ev & RTE_ISM_RING_LINK_LOST)
					status = EXIT_PEER_LOST;
				break;
			}
		}
		if (stats_period != 0 && now >= next_stats) {
			stats_snap(&cur, c, now);
			stats_print_period(&prev, &cur,
					(double)(now - start) / hz);
			prev = cur;
			next_stats += stats_period;
		}
		if (fwd_done(c, now))
			break;
	}
	if (quit_signal != 0) {
		printf("\nism_fwd: signal %d, stopping\n", (int)quit_signal);
		fflush(stdout);
	}
	fwd_flush(c);
	stats_snap(&cur, c, rte_rdtsc());
	stats_print_final(&first, &cur, c);
	if (status == EXIT_SUCCESS && fwd_exit_status(c) != 0)
		status = EXIT_CHECK_FAILED;
	return status;
}

static void
print_setup(const struct fwd_conf *conf, const struct rte_ism_dev_info *info,
		struct rte_ism_ring *ring, bool has_port)
{
	char gid[RTE_ISM_GID_STRLEN], peer[RTE_ISM_GID_STRLEN];
	struct rte_ism_ring_info ri;

	rte_ism_ring_info_get(ring, &ri);
	rte_ism_gid_format(&info->gid, gid, sizeof(gid));
	rte_ism_gid_format(&conf->peer, peer, sizeof(peer));
	printf("ism_fwd: %s (%s) gid %s, peer %s\n", info->name,
	       info->backend, gid, peer);
	printf("ism_fwd: mode %s, %s, burst %u, receive ring %u slots of %u "
	       "bytes (DMB %u bytes, token 0x%016" PRIx64 ")",
	       mode_names[conf->mode], conf->zero_copy ? "zero-copy" : "copy",
	       conf->burst, ri.geom.nb_slots, ri.geom.slot_size, ri.dmb_len,
	       ri.token);
	if (has_port)
		printf(", port %u", conf->port);
	printf("\n");
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	struct rte_ism_dev_info info;
	struct rte_mempool *pool = NULL;
	struct rte_ism_ring_conf rc;
	struct fwd_conf conf;
	struct rte_ism_ring *ring;
	struct rte_ism_ring_link link;
	struct fwd_ctx ctx;
	bool has_port;
	int ret, dev_id, status = EXIT_FAILURE;

	/* Before EAL init: a Ctrl-C during the set-up then does not kill us
	 * half set up (leaving the runtime directory behind) but stops the
	 * loop before its first iteration, through the normal exit path.
	 */
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	main_thread = pthread_self();
	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "ism_fwd: EAL init failed: %s\n",
			rte_strerror(rte_errno));
		return EXIT_FAILURE;
	}
	argc -= ret;
	argv += ret;

	ret = parse_args(argc, argv, &conf, &has_port);
	if (ret != 0) {
		if (ret > 0)
			status = EXIT_SUCCESS;
		goto out_eal;
	}
	dev_id = ism_dev_find(&conf, &info);
	if (dev_id < 0)
		goto out_eal;
	/* Held from here on: removal waits for hold_lock. */
	pthread_mutex_lock(&hold_lock);
	ret = rte_ism_dev_remove_callback_register(dev_id, on_dev_removed,
			NULL);
	if (ret < 0) {
		fprintf(stderr, "ism_fwd: cannot hold %s: %s\n", info.name,
			strerror(-ret));
		goto out_hold;
	}
	if (geom_default(&conf.geom, &info) < 0) {
		fprintf(stderr, "ism_fwd: a ring of %u slots of %u bytes does "
			"not fit in a DMB of %s (at most %u bytes)\n",
			conf.geom.nb_slots, conf.geom.slot_size, info.name,
			info.max_dmb_len);
		goto out_hold;
	}
	if (conf.mode == FWD_IOFWD) {
		if (!has_port)
			conf.port = rte_eth_find_next(0);
		if (!rte_eth_dev_is_valid_port(conf.port)) {
			fprintf(stderr, "ism_fwd: iofwd needs an ethdev port "
				"(e.g. --vdev=net_ring0)\n");
			goto out_hold;
		}
		has_port = true;
	} else {
		has_port = false;
	}

	pool = rte_pktmbuf_pool_create("ism_fwd_pool", conf.nb_mbufs,
			MBUF_CACHE, 0, RTE_MBUF_DEFAULT_BUF_SIZE,
			rte_socket_id());
	if (pool == NULL) {
		fprintf(stderr, "ism_fwd: cannot create the mbuf pool: %s\n",
			rte_strerror(rte_errno));
		goto out_hold;
	}
	if (has_port) {
		ret = port_init(conf.port, pool);
		if (ret < 0) {
			fprintf(stderr, "ism_fwd: port %u: %s\n", conf.port,
				strerror(-ret));
			goto out_pool;
		}
	}
	rc = (struct rte_ism_ring_conf){
		.dev_id = dev_id,
		.port = RTE_MBUF_PORT_INVALID,
		.peer = conf.peer,
		.geom = conf.geom,
		.pool = pool,
		.zero_copy = conf.zero_copy,
	};
	ring = rte_ism_ring_create(&rc);
	if (ring == NULL) {
		fprintf(stderr, "ism_fwd: cannot register the DMB: %s\n",
			rte_strerror(rte_errno));
		goto out_port;
	}
	print_setup(&conf, &info, ring, has_port);
	/* The handshake over ISM events, in librte_ism_ring. */
	ret = rte_ism_ring_link_init(&link, dev_id, &conf.peer, &ring, 1,
			on_link, ring);
	if (ret == 0) {
		fwd_ctx_init(&ctx, &conf, ring, pool, has_port);
		status = fwd_loop(&ctx, &link);
		rte_ism_ring_link_bye(&link);
	}
	/* Ports first: zero-copy mbufs they hold point into our DMB. */
	if (has_port)
		port_fini(conf.port);
	rte_ism_ring_free(ring);
	goto out_pool;
out_port:
	if (has_port)
		port_fini(conf.port);
out_pool:
	rte_mempool_free(pool);
out_hold:
	/* Let the device go; a removal waiting for it goes on. -EAGAIN: its
	 * callback is running (it returns once we unlock).
	 */
	pthread_mutex_unlock(&hold_lock);
	while (rte_ism_dev_remove_callback_unregister(dev_id, on_dev_removed,
			NULL) == -EAGAIN)
		rte_pause();
	removal_wait();
out_eal:
	rte_eal_cleanup();
	return status;
}
