/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Cross-process cases on the shm backend (vdev ism_shm, devargs dir= and
 * gid=) or the ivshmem backend (vdev ism_ivshm, a region file path= in
 * that directory, as host processes join a fabric of QEMU guests): copy
 * throughput into a DMB of another process, and the round trip between
 * two processes. Skipped, with the reason, when the driver is not in this
 * build.
 *
 * The peer is a second process forked by the case process before either
 * initialises EAL (a fork after rte_eal_init() is not supported), with a
 * private rendezvous directory, a memfd for the raw reference and two
 * pipes made before the fork. It waits for its parameters, then
 * initialises its own EAL (--file-prefix CASEPREFIX-peer) on the CPU of
 * the case's second lcore. Both join the rendezvous directory (or the
 * region file in it), the case
 * as GID 0x1, the peer as GID 0x2, and each registers a DMB for the other.
 * One line per message over the pipes:
 *   case -> peer  "start CPU LEN TOKEN"  initialise EAL on CPU, register
 *                                 a DMB of LEN bytes, reach the case's
 *                                 DMB TOKEN
 *   peer -> case  "ready TOKEN"   its DMB for 0x1; it reached the case's DMB
 *   case -> peer  "ism SIZE N"    N round trips of SIZE-byte messages,
 *                 "KIND N"      or of a raw reference ("raw1", "raw2",
 *                                 ... of perf_pingpong.c, in the memfd
 *                                 both map); the peer
 *                                 answers "go" once it polls and
 *                                 "done STATUS" after the block
 *                 "verify LEN"    wait for a signal, then check that the
 *                                 DMB holds perf_copy_pattern(LEN)
 *                 "quit"          (or end of file)
 * The peer dies with the case process (PR_SET_PDEATHSIG).
 */

#define _GNU_SOURCE	/* memfd_create() */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_malloc.h>

#include "perf.h"

#define SHM_GID_CASE	"0x1"
#define SHM_GID_PEER	"0x2"
#define SHM_LAT_DMB	4096
#define SHM_COPY_MIN	(1u << 20)
#define SHM_CTL_TIMEOUT_S	30
#define SHM_DEADLINE_S	60
/* The ivshmem region: 16 members of 4 MiB, room for 1 MiB DMBs. */
#define XPROC_REGION	(64u << 20)

/* Read one line from fd, waiting at most timeout_s for each byte (forever
 * if 0); 0 or -1 (timeout, end of file).
 */
static int
read_line(int fd, char *buf, size_t size, unsigned int timeout_s)
{
	int ms = timeout_s > 0 ? (int)timeout_s * 1000 : -1;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t n = 0;
	char ch;

	while (n + 1 < size) {
		if (poll(&pfd, 1, ms) <= 0 ||
		    read(fd, &ch, 1) != 1)
			return -1;
		if (ch == '\n')
			break;
		buf[n++] = ch;
	}
	buf[n] = '\0';
	return 0;
}

static int
write_line(int fd, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write(fd, buf, n) == n ? 0 : -1;
}

static struct perf_pp_lines *
map_lines(int fd)
{
	void *p = mmap(NULL, sizeof(struct perf_pp_lines),
			PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* The devargs of a device of backend in the private directory dir. */
static void
fabric_args(char *buf, size_t size, const char *backend, const char *dir,
		const char *gid, uint32_t max_len)
{
	if (strcmp(backend, "ism_ivshm") == 0)
		snprintf(buf, size, "path=%s/region,size=%u,gid=%s,"
			 "max_dmb_len=%u", dir, XPROC_REGION, gid, max_len);
	else
		snprintf(buf, size, "dir=%s,gid=%s,max_dmb_len=%u", dir, gid,
			 max_len);
}

/* The case process's side. */
struct shm_case {
	const char *backend;		/* ism_shm or ism_ivshm */
	char dir[64];			/* rendezvous directory */
	uint16_t dev;
	struct rte_ism_dev_info info;
	struct rte_ism_dmb dmb;		/* ours, written by the peer */
	uint64_t peer_token;		/* the peer's DMB */
	int pp_fd;			/* memfd of the raw reference lines */
	struct perf_pp_lines *lines;
	pid_t pid;
	int to_peer, from_peer;
};

/* Made by perf_xproc_pre_eal() before rte_eal_init(), for shm_setup(). */
static struct shm_case forked = { .pp_fd = -1, .pid = -1, .to_peer = -1,
	.from_peer = -1 };

static int peer_process(const char *backend, const char *dir, int pp_fd,
		int in, int out);

int
perf_xproc_pre_eal(const struct perf_case *c)
{
	struct shm_case *x = &forked;
	int to[2] = { -1, -1 }, from[2] = { -1, -1 };
	unsigned int i;

	if (strcmp(c->backend, "ism_shm") != 0 &&
	    strcmp(c->backend, "ism_ivshm") != 0)
		return 0;
	x->backend = c->backend;
	snprintf(x->dir, sizeof(x->dir), "%s/ism-perf-XXXXXX",
		 getenv("TMPDIR") != NULL ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(x->dir) == NULL) {
		printf("  cannot create a rendezvous directory: %s\n",
		       strerror(errno));
		x->dir[0] = '\0';
		return -1;
	}
	x->pp_fd = memfd_create("ism-perf-pingpong", 0);
	if (x->pp_fd < 0 || ftruncate(x->pp_fd, 4096) < 0 ||
	    pipe(to) < 0 || pipe(from) < 0) {
		printf("  no memfd or pipe for the peer: %s\n",
		       strerror(errno));
		goto fail;
	}
	fflush(NULL);
	x->pid = fork();
	if (x->pid < 0) {
		printf("  cannot fork the peer: %s\n", strerror(errno));
		goto fail;
	}
	if (x->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		/* The perf program reads the results pipe until every holder
		 * is gone: the peer is not one.
		 */
		close(perf_env.results_fd);
		close(to[1]);
		close(from[0]);
		exit(peer_process(x->backend, x->dir, x->pp_fd, to[0],
				  from[1]));
	}
	close(to[0]);
	close(from[1]);
	x->to_peer = to[1];
	x->from_peer = from[0];
	return 0;
fail:
	if (x->pp_fd >= 0)
		close(x->pp_fd);
	x->pp_fd = -1;
	for (i = 0; i < 2; i++) {
		if (to[i] >= 0)
			close(to[i]);
		if (from[i] >= 0)
			close(from[i]);
	}
	rmdir(x->dir);
	x->dir[0] = '\0';
	return -1;
}

/* Give the forked peer its parameters: it initialises EAL now. */
static int
start_peer(struct shm_case *x, uint32_t peer_dmb_len)
{
	unsigned int lcore, cpu;

	/* The CPU of our second lcore, idle while the peer works. */
	lcore = rte_get_next_lcore(-1, 1, 0);
	if (lcore >= RTE_MAX_LCORE)
		lcore = rte_lcore_id();
	cpu = rte_lcore_to_cpu_id(lcore);
	if (write_line(x->to_peer, "start %u %u 0x%" PRIx64 "\n", cpu,
		       peer_dmb_len, x->dmb.token) < 0)
		return -1;
	printf("  peer process %d on cpu %u, rendezvous %s\n", (int)x->pid,
	       cpu, x->dir);
	return 0;
}

/* Ask the peer to leave; kill it if it does not within the timeout. */
static void
stop_peer(struct shm_case *x)
{
	unsigned int ms;
	int status;

	write_line(x->to_peer, "quit\n");
	close(x->to_peer);
	close(x->from_peer);
	for (ms = 0; ms < SHM_CTL_TIMEOUT_S * 1000; ms += 10) {
		if (waitpid(x->pid, &status, WNOHANG) == x->pid) {
			if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
				printf("  the peer failed (status 0x%x)\n",
				       status);
			return;
		}
		usleep(10000);
	}
	printf("  the peer did not exit; killing it\n");
	kill(x->pid, SIGKILL);
	waitpid(x->pid, &status, 0);
}

static void
shm_teardown(struct shm_case *x)
{
	char region[80];

	if (x->pid > 0)
		stop_peer(x);
	if (x->lines != NULL)
		munmap(x->lines, sizeof(*x->lines));
	if (x->pp_fd >= 0)
		close(x->pp_fd);
	if (x->dmb.token != 0)
		rte_ism_dmb_unregister(x->dev, x->dmb.token);
	if (x->info.name[0] != '\0')
		perf_vdev_remove(x->info.name);
	/* The ivshmem region outlives its members (QEMU keeps its file). */
	if (x->backend != NULL && strcmp(x->backend, "ism_ivshm") == 0 &&
	    x->dir[0] != '\0') {
		snprintf(region, sizeof(region), "%s/region", x->dir);
		unlink(region);
	}
	/* The backend removes what it put there; say so if it did not. */
	if (x->dir[0] != '\0' && rmdir(x->dir) < 0)
		printf("  rendezvous directory %s not empty or not removed: "
		       "%s\n", x->dir, strerror(errno));
}

/* PERF_OK, PERF_SKIP (no such driver) or PERF_FAIL. */
static int
shm_setup(struct shm_case *x, uint32_t my_len, uint32_t peer_len)
{
	struct rte_ism_gid peer_gid;
	char args[160], line[64];
	int ret;

	/* Take over what perf_xproc_pre_eal() made. */
	*x = forked;
	forked.pid = -1;
	forked.pp_fd = -1;
	forked.dir[0] = '\0';
	if (x->pid <= 0) {
		shm_teardown(x);
		return PERF_FAIL;
	}
	fabric_args(args, sizeof(args), x->backend, x->dir, SHM_GID_CASE,
		    RTE_MAX(my_len, peer_len));
	snprintf(line, sizeof(line), "%s_perf", x->backend);
	ret = perf_vdev_create(line, args, &x->dev, &x->info);
	if (ret == -ENOTSUP) {
		printf("  SKIP: the %s driver is not in this build\n",
		       x->backend);
		shm_teardown(x);
		return PERF_SKIP;
	}
	if (ret < 0)
		goto fail;
	rte_ism_gid_parse(SHM_GID_PEER, &peer_gid);
	if (perf_dmb_register(x->dev, my_len, &peer_gid, &x->dmb) < 0)
		goto fail;
	x->lines = map_lines(x->pp_fd);
	if (x->lines == NULL) {
		printf("  cannot map the reference lines: %s\n",
		       strerror(errno));
		goto fail;
	}
	if (start_peer(x, peer_len) < 0) {
		printf("  cannot start the peer: %s\n", strerror(errno));
		goto fail;
	}
	if (read_line(x->from_peer, line, sizeof(line), SHM_CTL_TIMEOUT_S) < 0 ||
	    sscanf(line, "ready %" SCNx64, &x->peer_token) != 1) {
		printf("  the peer did not get ready\n");
		goto fail;
	}
	if (perf_connect(x->dev, x->peer_token, SHM_CTL_TIMEOUT_S) != 0)
		goto fail;
	return PERF_OK;
fail:
	shm_teardown(x);
	return PERF_FAIL;
}

/* Send a command; wait for the answer starting with want. */
static int
peer_cmd(struct shm_case *x, const char *want, unsigned int timeout_s,
		const char *fmt, ...)
{
	char buf[128], line[64];
	int status = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (write_line(x->to_peer, "%s\n", buf) < 0 ||
	    read_line(x->from_peer, line, sizeof(line), timeout_s) < 0 ||
	    strncmp(line, want, strlen(want)) != 0) {
		printf("  peer did not answer \"%s\" with %s\n", buf, want);
		return -1;
	}
	if (strcmp(want, "done") == 0 &&
	    (sscanf(line, "done %d", &status) != 1 || status != PERF_OK)) {
		printf("  peer: \"%s\" failed\n", buf);
		return -1;
	}
	return 0;
}

int
perf_copy_shm(const struct perf_case *c)
{
	struct perf_copy_target t = { 0 };
	struct rte_ism_gid peer_gid;
	struct rte_ism_dmb ref = { 0 };
	struct shm_case x;
	uint64_t max = 0;
	unsigned int p;
	int ret;

	for (p = 0; p < c->nb_points; p++)
		max = RTE_MAX(max, c->points[p]);
	t.len = RTE_MAX((uint32_t)max, SHM_COPY_MIN);
	ret = shm_setup(&x, 64, t.len);
	if (ret != PERF_OK)
		return ret;
	ret = PERF_FAIL;
	/* Reference destination: a DMB of our own, the same kind of memory
	 * as the peer's DMB mapped here.
	 */
	rte_ism_gid_parse(SHM_GID_PEER, &peer_gid);
	if (perf_dmb_register(x.dev, t.len, &peer_gid, &ref) < 0)
		goto out;
	t.dev = x.dev;
	t.token = x.peer_token;
	t.ref_dst = ref.addr;
	t.src = rte_malloc(NULL, t.len, RTE_CACHE_LINE_SIZE);
	if (t.src == NULL)
		goto out;
	ret = perf_copy_sweep(c, &t);
	if (ret == PERF_OK &&
	    peer_cmd(&x, "done", SHM_CTL_TIMEOUT_S, "verify %u", t.len) < 0)
		ret = PERF_FAIL;
	rte_free(t.src);
out:
	if (ref.token != 0)
		rte_ism_dmb_unregister(x.dev, ref.token);
	shm_teardown(&x);
	return ret;
}

static int
shm_lat_start(void *ctx, const char *what, uint32_t size, uint64_t n)
{
	struct shm_case *x = ctx;

	if (strcmp(what, "ism") == 0)
		return peer_cmd(x, "go", SHM_CTL_TIMEOUT_S, "ism %u %" PRIu64,
				size, n);
	return peer_cmd(x, "go", SHM_CTL_TIMEOUT_S, "%s %" PRIu64, what, n);
}

static int
shm_lat_wait(void *ctx)
{
	struct shm_case *x = ctx;
	char line[64];
	int status;

	if (read_line(x->from_peer, line, sizeof(line), SHM_DEADLINE_S) < 0 ||
	    sscanf(line, "done %d", &status) != 1) {
		printf("  the peer did not finish the block\n");
		return PERF_FAIL;
	}
	return status;
}

int
perf_latency_shm(const struct perf_case *c)
{
	struct perf_lat_setup s = { 0 };
	struct perf_lat_ops ops = { .start = shm_lat_start,
		.wait = shm_lat_wait };
	struct shm_case x;
	int ret;

	ret = shm_setup(&x, SHM_LAT_DMB, SHM_LAT_DMB);
	if (ret != PERF_OK)
		return ret;
	printf("  requester: cpu %u, responder: the peer process\n",
	       rte_lcore_to_cpu_id(rte_lcore_id()));
	ops.ctx = &x;
	s.dev = x.dev;
	s.token = x.peer_token;
	s.idx = x.dmb.idx;
	s.dmb = x.dmb.addr;
	s.lines = x.lines;
	ret = perf_latency_run(c, &s, &ops);
	shm_teardown(&x);
	return ret;
}

/* The peer process (forked by perf_xproc_pre_eal()). */

struct peer_args {
	const char *dir;
	uint32_t dmb_len;
	uint64_t remote_token;
	int pp_fd, in, out;
};

/* Its own EAL: the case's EAL options, one lcore on cpu, its prefix. */
static int
peer_eal_init(unsigned int cpu)
{
	char lcores[16], prefix[2 * PERF_NAME_LEN + 8];
	unsigned int argc = 0, i;
	char **argv;
	int ret;

	argv = calloc(perf_env.nb_eal_base + 8, sizeof(*argv));
	if (argv == NULL)
		return -ENOMEM;
	snprintf(lcores, sizeof(lcores), "%u", cpu);
	snprintf(prefix, sizeof(prefix), "%s-peer", perf_env.prefix);
	argv[argc++] = (char *)(uintptr_t)"dpdk-test-ism-perf";
	argv[argc++] = (char *)(uintptr_t)"-l";
	argv[argc++] = lcores;
	for (i = 0; i < perf_env.nb_eal_base; i++)
		argv[argc++] = perf_env.eal_base[i];
	argv[argc++] = (char *)(uintptr_t)"--file-prefix";
	argv[argc++] = prefix;
	argv[argc] = NULL;
	ret = rte_eal_init(argc, argv);
	/* EAL keeps pointers into argv: never freed. */
	return ret < 0 ? -rte_errno : 0;
}

/* Wait for the final signal of the copy sweep; check the pattern. */
static int
peer_verify(uint16_t dev, const struct rte_ism_dmb *dmb, uint32_t len)
{
	uint8_t *want;
	int ret;

	if (len > dmb->len ||
	    perf_wait_signal(dev, dmb->idx, perf_deadline(SHM_DEADLINE_S)) < 0)
		return PERF_FAIL;
	want = malloc(len);
	if (want == NULL)
		return PERF_FAIL;
	perf_copy_pattern(want, len);
	ret = memcmp(want, dmb->addr, len) == 0 ? PERF_OK : PERF_FAIL;
	if (ret != PERF_OK)
		printf("  peer: the DMB does not hold what was moved\n");
	free(want);
	return ret;
}

static void
peer_serve(const struct peer_args *a, uint16_t dev,
		const struct rte_ism_dmb *dmb, struct perf_pp_lines *lines)
{
	struct perf_pong pong = {
		.dev = dev, .token = a->remote_token, .idx = dmb->idx,
		.dmb = dmb->addr,
	};
	char line[64], what[16];
	uint32_t size, len;
	uint64_t n;
	int ret;

	while (read_line(a->in, line, sizeof(line), 0) == 0) {
		if (sscanf(line, "ism %u %" SCNu64, &size, &n) == 2) {
			pong.size = size;
			pong.n = n;
			write_line(a->out, "go\n");
			ret = perf_ism_pong(&pong,
					    perf_deadline(SHM_DEADLINE_S));
		} else if (sscanf(line, "%15s %" SCNu64, what, &n) == 2 &&
			   perf_pp_kind_of(what) >= 0) {
			write_line(a->out, "go\n");
			ret = perf_raw_pong(lines, perf_pp_kind_of(what), n,
					    perf_deadline(SHM_DEADLINE_S));
		} else if (sscanf(line, "verify %u", &len) == 1) {
			ret = peer_verify(dev, dmb, len);
		} else {
			break;		/* "quit" */
		}
		write_line(a->out, "done %d\n", ret);
	}
}

static int
peer_process(const char *backend, const char *dir, int pp_fd, int in,
		int out)
{
	struct rte_ism_dev_info info;
	struct rte_ism_gid case_gid;
	struct rte_ism_dmb dmb = { 0 };
	struct perf_pp_lines *lines;
	struct peer_args a = { .dir = dir, .pp_fd = pp_fd, .in = in,
		.out = out };
	char args[PATH_MAX], line[64], name[48];
	unsigned int cpu;
	uint16_t dev;
	int ret = 1;

	/* Nothing comes if the case skipped or failed before: leave. */
	if (read_line(in, line, sizeof(line), 0) < 0 ||
	    sscanf(line, "start %u %u %" SCNx64, &cpu, &a.dmb_len,
		   &a.remote_token) != 3)
		return 0;
	if (peer_eal_init(cpu) < 0) {
		printf("  peer: EAL initialisation failed: %s\n",
		       rte_strerror(rte_errno));
		return 1;
	}
	lines = map_lines(a.pp_fd);
	if (lines == NULL)
		goto out_eal;
	fabric_args(args, sizeof(args), backend, a.dir, SHM_GID_PEER,
		    RTE_MAX(a.dmb_len, 4096u));
	snprintf(name, sizeof(name), "%s_peer", backend);
	if (perf_vdev_create(name, args, &dev, &info) < 0) {
		printf("  peer: cannot create its %s device\n", backend);
		goto out_unmap;
	}
	rte_ism_gid_parse(SHM_GID_CASE, &case_gid);
	if (perf_dmb_register(dev, a.dmb_len, &case_gid, &dmb) < 0 ||
	    perf_connect(dev, a.remote_token, SHM_CTL_TIMEOUT_S) != 0)
		goto out;
	if (write_line(a.out, "ready 0x%" PRIx64 "\n", dmb.token) == 0) {
		peer_serve(&a, dev, &dmb, lines);
		ret = 0;
	}
out:
	if (dmb.token != 0)
		rte_ism_dmb_unregister(dev, dmb.token);
	perf_vdev_remove(name);
out_unmap:
	munmap(lines, sizeof(*lines));
out_eal:
	close(a.out);	/* after the device is gone: the case waits for it */
	rte_eal_cleanup();
	fflush(stdout);
	return ret;
}
