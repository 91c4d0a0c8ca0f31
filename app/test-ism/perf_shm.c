/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-shm-bench: the shm backend between two processes, next to the
 * references measured in the same run.
 *
 *   dpdk-ism-shm-bench -l 0 --no-huge -m 512 --no-pci [EAL] -- \
 *        [--peer-cpu 1] [--dir D] [--ms 300] [--trials 200]
 *
 * The process starts its partner itself (same binary, --role peer, pinned
 * to --peer-cpu, own --file-prefix), shares a memfd with it for the raw
 * reference, and each creates an ism_shm device in a fresh rendezvous
 * directory. Then:
 *  - ping-pong round trip: raw cache-line ping-pong over the shared memfd
 *    (one line, and two lines: each side writes its own), then ISM: move
 *    64 B with signal, the partner polls, answers the same way; median of
 *    the trials, and the ratio ISM / raw;
 *  - one-way throughput per size (64 B .. 1 MiB): move_data into the
 *    partner's DMB while the partner polls, without and with a signal per
 *    move, next to memcpy of the same size between two private buffers in
 *    this process.
 * Figures are for reading, not asserted; they mean something only when
 * both CPUs are otherwise idle.
 */

#include <getopt.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_ism.h>
#include <rte_pause.h>

#define DEV		"ism_shm_bench"
#define DMB_LEN		(1u << 20)
#define RAW_FD		100	/* the memfd's number in the partner */
#define EV_TOKEN	0x6201
#define GID_MAIN	"0x6a1"
#define GID_PEER	"0x6a2"

/* Phases the main process drives through the shared control block. */
enum phase {
	PH_START, PH_RAW1, PH_RAW2, PH_ISM, PH_TPUT, PH_DONE,
};

struct raw {
	volatile uint64_t a __rte_cache_aligned;	/* main writes */
	volatile uint64_t b __rte_cache_aligned;	/* peer writes */
	volatile uint32_t phase __rte_cache_aligned;
	volatile uint32_t ack;				/* peer: phase seen */
	volatile uint64_t trials, rtts;
};

static struct {
	const char *role;
	char dir[256];
	unsigned int peer_cpu;
	unsigned int ms;
	unsigned int trials;
	int raw_fd;
	char self[256];
} opt = { .role = "main", .peer_cpu = 1, .ms = 300, .trials = 200,
	  .raw_fd = -1 };

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static double
median_ns(uint64_t *cyc, unsigned int n, uint64_t per)
{
	qsort(cyc, n, sizeof(*cyc), cmp_u64);
	return (double)cyc[n / 2] / per * 1e9 / rte_get_tsc_hz();
}

/* Raw reference: in one line both sides bounce one counter; in two lines
 * each side writes its own line and polls the other's. */
static double
raw_pingpong(struct raw *r, bool two, unsigned int rtts)
{
	uint64_t *cyc = calloc(opt.trials, sizeof(*cyc)), k = 0, t0;
	unsigned int t, i;
	double med;

	for (t = 0; t < opt.trials; t++) {
		t0 = rte_rdtsc();
		for (i = 0; i < rtts; i++, k++) {
			if (two) {
				r->a = k + 1;
				while (r->b != k + 1)
					rte_pause();
			} else {
				r->a = 2 * k + 1;
				while (r->a != 2 * k + 2)
					rte_pause();
			}
		}
		cyc[t] = rte_rdtsc() - t0;
	}
	med = median_ns(cyc, opt.trials, rtts);
	free(cyc);
	return med;
}

static void
raw_pong(struct raw *r, bool two)
{
	uint64_t total = r->trials * r->rtts, k;

	for (k = 0; k < total; k++) {
		if (two) {
			while (r->a != k + 1)
				rte_pause();
			r->b = k + 1;
		} else {
			while (r->a != 2 * k + 1)
				rte_pause();
			r->a = 2 * k + 2;
		}
	}
}

/* Wait for a signal of DMB idx on dev. */
static void
wait_signal(uint16_t dev, uint32_t idx)
{
	struct rte_ism_signal sig[8];
	int n, i;

	for (;;) {
		n = rte_ism_signal_poll(dev, sig, RTE_DIM(sig));
		for (i = 0; i < n; i++)
			if (sig[i].dmb_idx == idx)
				return;
	}
}

static double
ism_pingpong(uint16_t dev, uint64_t to_peer, uint32_t my_idx,
		unsigned int rtts)
{
	uint64_t *cyc = calloc(opt.trials, sizeof(*cyc)), t0;
	uint8_t msg[64] = { 1 };
	unsigned int t, k;
	double med;

	for (t = 0; t < opt.trials; t++) {
		t0 = rte_rdtsc();
		for (k = 0; k < rtts; k++) {
			rte_ism_move_data(dev, to_peer, 0, 1, 0, msg,
					  sizeof(msg));
			wait_signal(dev, my_idx);
		}
		cyc[t] = rte_rdtsc() - t0;
	}
	med = median_ns(cyc, opt.trials, rtts);
	free(cyc);
	return med;
}

static double
gbps(uint64_t bytes, uint64_t cyc)
{
	return (double)bytes * rte_get_tsc_hz() / cyc / 1e9;
}

/* Moves of one size for opt.ms, with or without a signal each; GB/s. The
 * clock is read every BATCH moves: a TSC read costs as much as a move. */
#define BATCH 64
static double
move_rate(uint16_t dev, uint64_t to_peer, uint32_t size, uint32_t sf,
		const uint8_t *src)
{
	uint64_t budget = rte_get_tsc_hz() / 1000 * opt.ms, t0, c, n;
	uint32_t off = 0, i;

	for (n = 0, t0 = rte_rdtsc(); (c = rte_rdtsc() - t0) < budget;
	     n += BATCH)
		for (i = 0; i < BATCH; i++) {
			rte_ism_move_data(dev, to_peer, 0, sf, off, src + off,
					  size);
			off = off + 2 * size > DMB_LEN ? 0 : off + size;
		}
	return gbps(n * size, c);
}

/* The reference: memcpy between two private buffers, as long. */
static double
copy_rate(uint32_t size, const uint8_t *src, uint8_t *dst)
{
	static void *(*volatile copy)(void *, const void *, size_t) = memcpy;
	uint64_t budget = rte_get_tsc_hz() / 1000 * opt.ms, t0, c, n;
	uint32_t off = 0, i;

	for (n = 0, t0 = rte_rdtsc(); (c = rte_rdtsc() - t0) < budget;
	     n += BATCH)
		for (i = 0; i < BATCH; i++) {
			copy(dst + off, src + off, size);
			off = off + 2 * size > DMB_LEN ? 0 : off + size;
		}
	return gbps(n * size, c);
}

static void
throughput(uint16_t dev, uint64_t to_peer, uint32_t size, const uint8_t *src,
		uint8_t *dst)
{
	double plain = move_rate(dev, to_peer, size, 0, src);
	double sig = move_rate(dev, to_peer, size, 1, src);
	double ref = copy_rate(size, src, dst);

	printf("  %8u  %9.2f  %9.2f  %9.2f  %6.2f  %6.2f\n", size, plain, sig,
	       ref, plain / ref, sig / ref);
}

static void
set_phase(struct raw *r, uint32_t ph)
{
	r->phase = ph;
	while (r->ack != ph)
		rte_pause();
}

/* Create our device, register a DMB for the other, swap tokens. */
static int
ism_setup(const char *gid, const char *peer_gid, struct rte_ism_dmb *mine,
		uint64_t *theirs)
{
	struct rte_ism_event ev;
	struct rte_ism_gid pg;
	char args[512];
	int dev;

	snprintf(args, sizeof(args), "dir=%s,gid=%s", opt.dir, gid);
	if (rte_vdev_init(DEV, args) < 0)
		return -1;
	dev = rte_ism_get_dev_id(DEV);
	rte_ism_gid_parse(peer_gid, &pg);
	memset(mine, 0, sizeof(*mine));
	mine->len = DMB_LEN;
	mine->rgid = pg;
	if (rte_ism_dmb_register(dev, mine) < 0)
		return -1;
	/* The peer may not be there yet. */
	while (rte_ism_query_remote_gid(dev, &pg, 0, 0) != 0)
		usleep(1000);
	if (rte_ism_signal_event(dev, &pg, 1, EV_TOKEN, mine->token) < 0)
		return -1;
	do {
		while (rte_ism_event_poll(dev, &ev, 1) != 1)
			usleep(100);
	} while (ev.type != RTE_ISM_EVENT_SW || ev.code != EV_TOKEN);
	*theirs = ev.info;
	return dev;
}

static int
peer_main(struct raw *r)
{
	struct rte_ism_dmb mine;
	uint64_t theirs;
	uint32_t ph;
	int dev;
	uint8_t msg[64] = { 2 };
	struct rte_ism_signal sig[32];

	dev = ism_setup(GID_PEER, GID_MAIN, &mine, &theirs);
	if (dev < 0)
		return 1;
	for (ph = PH_START;;) {
		while (r->phase == ph)
			rte_pause();
		ph = r->phase;
		r->ack = ph;
		switch (ph) {
		case PH_RAW1:
		case PH_RAW2:
			raw_pong(r, ph == PH_RAW2);
			break;
		case PH_ISM:
			/* Echo every signal until the phase changes. */
			while (r->phase == PH_ISM)
				if (rte_ism_signal_poll(dev, sig, 1) == 1)
					rte_ism_move_data(dev, theirs, 0, 1, 0,
							  msg, sizeof(msg));
			break;
		case PH_TPUT:
			while (r->phase == PH_TPUT)
				rte_ism_signal_poll(dev, sig, RTE_DIM(sig));
			break;
		default:
			rte_ism_dmb_unregister(dev, mine.token);
			rte_vdev_uninit(DEV);
			return 0;
		}
	}
}

static pid_t
spawn_peer(char *prefix)
{
	char cpu[16], fdarg[16], *argv[32];
	posix_spawn_file_actions_t fa;
	int i = 0;
	pid_t pid;

	snprintf(cpu, sizeof(cpu), "%u", opt.peer_cpu);
	snprintf(fdarg, sizeof(fdarg), "%d", RAW_FD);
	argv[i++] = opt.self;
	argv[i++] = "-l";
	argv[i++] = cpu;
	argv[i++] = "--no-huge";
	argv[i++] = "-m";
	argv[i++] = "256";
	argv[i++] = "--no-pci";
	argv[i++] = "--no-shconf";
	argv[i++] = "--no-telemetry";
	argv[i++] = "--log-level=lib.eal:warning";
	argv[i++] = "--file-prefix";
	argv[i++] = prefix;
	argv[i++] = "--";
	argv[i++] = "--role";
	argv[i++] = "peer";
	argv[i++] = "--dir";
	argv[i++] = opt.dir;
	argv[i++] = "--raw-fd";
	argv[i++] = fdarg;
	argv[i] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, opt.raw_fd, RAW_FD);
	if (posix_spawn(&pid, opt.self, &fa, NULL, argv, environ) != 0)
		pid = -1;
	posix_spawn_file_actions_destroy(&fa);
	return pid;
}

static int
main_main(struct raw *r)
{
	static const uint32_t sizes[] = {
		64, 256, 1024, 4096, 16384, 65536, 262144, 1u << 20,
	};
	double raw1, raw2, ism;
	struct rte_ism_dmb mine;
	uint8_t *src, *dst;
	uint64_t theirs;
	unsigned int i;
	int dev;

	dev = ism_setup(GID_MAIN, GID_PEER, &mine, &theirs);
	if (dev < 0) {
		printf("cannot set up the ISM devices\n");
		return 1;
	}
	r->trials = opt.trials;
	r->rtts = 1000;
	r->a = r->b = 0;
	set_phase(r, PH_RAW1);
	raw1 = raw_pingpong(r, false, r->rtts);
	r->a = r->b = 0;
	set_phase(r, PH_RAW2);
	raw2 = raw_pingpong(r, true, r->rtts);
	set_phase(r, PH_ISM);
	ism = ism_pingpong(dev, theirs, mine.idx, 1000);
	printf("round trip between two processes (median of %u trials):\n"
	       "  raw shared memory, 1 cache line   %8.1f ns\n"
	       "  raw shared memory, 2 cache lines  %8.1f ns\n"
	       "  ISM move 64 B + signal, answered  %8.1f ns  ratio %.2f "
	       "(1 line), %.2f (2 lines)\n",
	       opt.trials, raw1, raw2, ism, ism / raw1, ism / raw2);

	src = malloc(DMB_LEN);
	dst = malloc(DMB_LEN);
	memset(src, 0x3c, DMB_LEN);
	memset(dst, 0, DMB_LEN);
	set_phase(r, PH_TPUT);
	printf("one-way move_data throughput into the partner's DMB while it "
	       "polls (GB/s),\nwithout and with a signal per move, and memcpy "
	       "between private buffers:\n"
	       "      size        ISM  ISM+sig'l     memcpy   ratio  ratio\n");
	for (i = 0; i < RTE_DIM(sizes); i++)
		throughput(dev, theirs, sizes[i], src, dst);
	free(src);
	free(dst);
	set_phase(r, PH_DONE);
	rte_ism_dmb_unregister(dev, mine.token);
	rte_vdev_uninit(DEV);
	return 0;
}

static int
parse(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "role", required_argument, NULL, 'r' },
		{ "dir", required_argument, NULL, 'd' },
		{ "peer-cpu", required_argument, NULL, 'c' },
		{ "ms", required_argument, NULL, 'm' },
		{ "trials", required_argument, NULL, 't' },
		{ "raw-fd", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'r':
			opt.role = strcmp(optarg, "peer") == 0 ? "peer" :
				"main";
			break;
		case 'd':
			snprintf(opt.dir, sizeof(opt.dir), "%s", optarg);
			break;
		case 'c':
			opt.peer_cpu = atoi(optarg);
			break;
		case 'm':
			opt.ms = atoi(optarg);
			break;
		case 't':
			opt.trials = atoi(optarg);
			break;
		case 'f':
			opt.raw_fd = atoi(optarg);
			break;
		default:
			printf("usage: dpdk-ism-shm-bench [EAL] -- "
			       "[--peer-cpu N] [--dir D] [--ms MS] "
			       "[--trials N]\n");
			return -1;
		}
	}
	if (opt.trials < 3)
		opt.trials = 3;
	return 0;
}

/* Remove our rendezvous directory; a killed partner's watchdog may still
 * be removing its socket. */
static void
remove_dir(void)
{
	int i;

	for (i = 0; i < 100 && rmdir(opt.dir) < 0 && errno == ENOTEMPTY; i++)
		usleep(10000);
}

int
main(int argc, char **argv)
{
	char prefix[64], tmpl[] = "/tmp/ism-bench-XXXXXX";
	bool own_dir = false;
	struct raw *r = MAP_FAILED;
	pid_t pid = -1;
	int ret, st;

	ret = rte_eal_init(argc, argv);
	if (ret < 0)
		return 1;
	if (parse(argc - ret, argv + ret) < 0)
		return 2;
	ret = 1;
	if (strcmp(opt.role, "main") == 0) {
		if (opt.dir[0] == '\0') {
			if (mkdtemp(tmpl) == NULL)
				goto out;
			snprintf(opt.dir, sizeof(opt.dir), "%s", tmpl);
			own_dir = true;
		}
		opt.raw_fd = memfd_create("ism_bench_raw", MFD_CLOEXEC);
		if (opt.raw_fd < 0 || ftruncate(opt.raw_fd, 4096) < 0 ||
		    readlink("/proc/self/exe", opt.self,
			     sizeof(opt.self) - 1) < 0)
			goto out;
		/* Without shared config a fixed prefix is safe. */
		snprintf(prefix, sizeof(prefix), "ism-shm-bench-peer");
		pid = spawn_peer(prefix);
		if (pid < 0) {
			printf("cannot start the partner process\n");
			goto out;
		}
	}
	r = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, opt.raw_fd, 0);
	if (r == MAP_FAILED)
		goto out;
	if (strcmp(opt.role, "peer") == 0)
		ret = peer_main(r);
	else
		ret = main_main(r);
out:
	if (pid > 0) {
		if (ret != 0)
			kill(pid, SIGTERM);
		waitpid(pid, &st, 0);
	}
	if (own_dir)
		remove_dir();
	if (r != MAP_FAILED)
		munmap(r, 4096);
	rte_eal_cleanup();
	return ret;
}
