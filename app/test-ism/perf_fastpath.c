/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * fastpath case: a deterministic count, not a timing. Runs the program
 * dpdk-test-ism-fp-probe (perf_fp_probe.c, installed next to this one)
 * under valgrind --tool=callgrind
 * --cache-sim=yes and reads, for every measured loop, the instructions
 * (Ir) and data reads (Dr) it executed. Per call = (count over 2n calls -
 * count over n calls) / n, so set-up and the client requests cancel out.
 *
 * Reported: instructions and loads per rte_ism_move_data() call against a
 * direct call of the driver's function and against a dev->ops->fn chain;
 * the driver's own instructions; whether __tls_get_addr is called (the
 * drivers are built with -ftls-model=initial-exec so that rte_lcore_id()
 * is a plain %fs load); and the poll's instructions with 1, 64 and 1888
 * registered DMBs, which must be equal; and per message of a
 * rte_ism_move_burst() of PERF_FP_BURST segments against PERF_FP_BURST
 * memcpy() calls of the same copies (the rate case's reference).
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_string_fns.h>

#include "perf.h"

#define FP_MAX_SECTIONS	64
#define FP_PROBE	"dpdk-test-ism-fp-probe"
/* The bound on the fixed cost of a FP_BOUND_SIZE move, in instructions
 * beyond a function that only copies (memcpy()): a guard against a
 * backend that leaves the fast path (ivshm's moves cost the copy +91
 * before they had one), with room for another compiler's choices. With
 * GCC 12 at -O3 -march=corei7: loopback +40, shm +39, ivshm +39; the goal
 * (perf.ini, target_fixed) is +30.
 */
#define FP_BOUND_SIZE		64
#define FP_MAX_OVER_COPY	44

/* valgrind cannot run a sanitizer build. */
#if defined(PERF_HAVE_CALLGRIND) && !defined(__SANITIZE_ADDRESS__)
#define FP_CAN_COUNT
#endif

#ifdef FP_CAN_COUNT

struct fp_section {
	char name[48];		/* e.g. "wrapper:10000" */
	long seq;		/* N of the dump file cg.out.N */
	double ir, dr;
	bool tls_get_addr;	/* __tls_get_addr called in the section */
};

struct fp_counts {
	struct fp_section s[FP_MAX_SECTIONS];
	unsigned int nb;
};

/* Read one callgrind dump: its trigger name and totals. */
static int
parse_dump(const char *path, struct fp_section *s)
{
	char line[4096], events[256] = "";
	const char *trig = "desc: Trigger: Client Request: ";
	double v[16] = { 0 };
	char *tok, *save, *ev, *evsave;
	int i, ir = -1, dr = -1, n;
	bool have_totals = false;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return -errno;
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		/*
		 * A longer value is cut, on purpose: with the precision, gcc
		 * sees it too (strlcpy is DPDK's snprintf() where DPDK has
		 * no libbsd, as on s390x, and -Wformat-truncation fired).
		 */
		if (strncmp(line, trig, strlen(trig)) == 0)
			snprintf(s->name, sizeof(s->name), "%.*s",
				 (int)sizeof(s->name) - 1, line + strlen(trig));
		else if (strncmp(line, "events: ", 8) == 0)
			snprintf(events, sizeof(events), "%.*s",
				 (int)sizeof(events) - 1, line + 8);
		else if (strncmp(line, "totals: ", 8) == 0 ||
			 (!have_totals && strncmp(line, "summary: ", 9) == 0)) {
			have_totals = line[0] == 't';
			n = 0;
			for (tok = strtok_r(strchr(line, ' '), " ", &save);
			     tok != NULL && n < 16;
			     tok = strtok_r(NULL, " ", &save))
				v[n++] = strtod(tok, NULL);
		} else if (strstr(line, "__tls_get_addr") != NULL) {
			s->tls_get_addr = true;
		}
	}
	fclose(f);
	for (i = 0, ev = strtok_r(events, " ", &evsave); ev != NULL;
	     i++, ev = strtok_r(NULL, " ", &evsave)) {
		if (strcmp(ev, "Ir") == 0)
			ir = i;
		else if (strcmp(ev, "Dr") == 0)
			dr = i;
	}
	if (s->name[0] == '\0' || ir < 0 || dr < 0 || ir >= 16 || dr >= 16)
		return -EINVAL;
	s->ir = v[ir];
	s->dr = v[dr];
	return 0;
}

static int
read_dumps(const char *dir, struct fp_counts *fc)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t len;

	if (d == NULL)
		return -errno;
	fc->nb = 0;
	while ((e = readdir(d)) != NULL && fc->nb < FP_MAX_SECTIONS) {
		/* cg.out.N-T: one per client-request dump and thread (T 01:
		 * the main thread); cg.out-T: the rest
		 */
		len = strlen(e->d_name);
		if (strncmp(e->d_name, "cg.out.", 7) != 0 || len < 4 ||
		    strcmp(e->d_name + len - 3, "-01") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (parse_dump(path, &fc->s[fc->nb]) == 0) {
			fc->s[fc->nb].seq = strtol(e->d_name + 7, NULL, 10);
			fc->nb++;
		}
	}
	closedir(d);
	return 0;
}

static const struct fp_section *
find(const struct fp_counts *fc, const char *name, uint64_t n)
{
	const struct fp_section *last = NULL;
	char want[48];
	unsigned int i;

	snprintf(want, sizeof(want), "%s:%" PRIu64, name, n);
	/* The last dump of that name: the first ones are the warm-up. */
	for (i = 0; i < fc->nb; i++)
		if (strcmp(fc->s[i].name, want) == 0 &&
		    (last == NULL || fc->s[i].seq > last->seq))
			last = &fc->s[i];
	return last;
}

/* Per call of loop name: ((2n) - (n)) / n, for Ir and Dr. */
static int
per_call(const struct fp_counts *fc, const char *name, uint64_t n,
		double *ir, double *dr, bool *tls)
{
	const struct fp_section *a = find(fc, name, n);
	const struct fp_section *b = find(fc, name, 2 * n);

	if (a == NULL || b == NULL) {
		printf("  no callgrind dump for %s\n", name);
		return -ENOENT;
	}
	*ir = (b->ir - a->ir) / n;
	*dr = (b->dr - a->dr) / n;
	if (tls != NULL)
		*tls = a->tls_get_addr || b->tls_get_addr;
	return 0;
}

/* Empty dir; and remove it if rm. */
static void
clean_dir(const char *dir, bool rm)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d != NULL)
		closedir(d);
	if (rm)
		rmdir(dir);
}

static void
print_tail(const char *path)
{
	char line[512];
	long lines = 0, i = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL)
		lines++;
	rewind(f);
	while (fgets(line, sizeof(line), f) != NULL)
		if (++i > lines - 15)
			printf("    | %s", line);
	fclose(f);
}

/* Run the probe under callgrind; PERF_OK, PERF_SKIP (no valgrind) or FAIL. */
static int
run_valgrind(const char *dir, uint32_t size, uint64_t n)
{
	char exe[PATH_MAX], out[PATH_MAX + 32], logp[PATH_MAX];
	char prefix[2 * PERF_NAME_LEN + 4];
	char iters[24], sz[16];
	const char *argv[64 + 2 * RTE_MAX_LCORE];
	unsigned int argc = 0, i;
	ssize_t len;
	char *slash;
	int status, fd;
	pid_t pid;

	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len < 0)
		return PERF_FAIL;
	exe[len] = '\0';
	/* The probe program sits next to this one (build and install). */
	slash = strrchr(exe, '/');
	if (slash == NULL || (size_t)(slash - exe) + sizeof(FP_PROBE) + 1 >
	    sizeof(exe)) {
		printf("  cannot locate %s\n", FP_PROBE);
		return PERF_FAIL;
	}
	strlcpy(slash + 1, FP_PROBE, sizeof(exe) - (slash + 1 - exe));
	snprintf(out, sizeof(out), "--callgrind-out-file=%s/cg.out", dir);
	snprintf(logp, sizeof(logp), "%s/valgrind.log", dir);
	snprintf(prefix, sizeof(prefix), "%s-cg", perf_env.prefix);
	snprintf(iters, sizeof(iters), "%" PRIu64, n);
	snprintf(sz, sizeof(sz), "%u", size);
	argv[argc++] = "valgrind";
	argv[argc++] = "--tool=callgrind";
	argv[argc++] = "--cache-sim=yes";
	argv[argc++] = "--dump-instr=no";
	/* One file per thread and dump: the counts of the probe's main
	 * thread alone (cg.out.N-01), whatever the drivers' control threads
	 * (ivshm's runs a pass every millisecond) do meanwhile.
	 */
	argv[argc++] = "--separate-threads=yes";
	argv[argc++] = "--compress-strings=no";
	argv[argc++] = out;
	argv[argc++] = exe;
	argv[argc++] = "-l";
	argv[argc++] = "0";
	for (i = 0; i < perf_env.nb_eal_base && argc < RTE_DIM(argv) - 12;
	     i++)
		argv[argc++] = perf_env.eal_base[i];
	argv[argc++] = "--file-prefix";
	argv[argc++] = prefix;
	argv[argc++] = "--";
	argv[argc++] = "--iters";
	argv[argc++] = iters;
	argv[argc++] = "--size";
	argv[argc++] = sz;
	argv[argc] = NULL;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return PERF_FAIL;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		fd = open(logp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execvp(argv[0], (char *const *)(uintptr_t)argv);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		printf("  SKIP: valgrind is not installed\n");
		return PERF_SKIP;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("  the probe failed under valgrind; end of %s:\n", logp);
		print_tail(logp);
		return PERF_FAIL;
	}
	return PERF_OK;
}

/* PERF_OK if a backend's fixed cost is within the bound, else PERF_FAIL
 * (and the reason).
 */
static int
over_copy_ok(const char *backend, double over)
{
	if (over <= FP_MAX_OVER_COPY)
		return PERF_OK;
	printf("  FAIL: the %s move of %u B costs the copy %+.0f instructions, "
	       "more than %u\n", backend, FP_BOUND_SIZE, over,
	       FP_MAX_OVER_COPY);
	return PERF_FAIL;
}

static int
report(const struct perf_case *c, const struct fp_counts *fc, uint32_t size,
		uint64_t n)
{
	double nop_i, nop_d, dir_i, dir_d, wr_i, wr_d, ch_i, ch_d;
	double cp_i, cp_d, shm_i = 0, shm_d, bu_i, bu_d, cb_i, cb_d;
	double iv_i = 0, iv_d;
	bool have_shm, have_ivshm;
	double r_i[3], r_d, rp_i[3], rp_d, poll_i[3];
	static const unsigned int nb[3] = { 1, 64, 1888 };
	char a[32], b[32];
	bool tls;
	unsigned int i;
	char shm_txt[32], iv_txt[32];
	int ret = PERF_OK;

	if (per_call(fc, "nop", n, &nop_i, &nop_d, NULL) < 0 ||
	    per_call(fc, "direct", n, &dir_i, &dir_d, NULL) < 0 ||
	    per_call(fc, "wrapper", n, &wr_i, &wr_d, &tls) < 0 ||
	    per_call(fc, "chain", n, &ch_i, &ch_d, NULL) < 0 ||
	    per_call(fc, "copy", n, &cp_i, &cp_d, NULL) < 0 ||
	    per_call(fc, "burst", n, &bu_i, &bu_d, NULL) < 0 ||
	    per_call(fc, "copy_burst", n, &cb_i, &cb_d, NULL) < 0)
		return PERF_FAIL;
	/* Per message. */
	bu_i /= PERF_FP_BURST;
	cb_i /= PERF_FP_BURST;
	/* The probe skips shm when it cannot create the device. */
	have_shm = find(fc, "shm_direct", n) != NULL;
	if (have_shm &&
	    per_call(fc, "shm_direct", n, &shm_i, &shm_d, NULL) < 0)
		return PERF_FAIL;
	have_ivshm = find(fc, "ivshm_direct", n) != NULL;
	if (have_ivshm &&
	    per_call(fc, "ivshm_direct", n, &iv_i, &iv_d, NULL) < 0)
		return PERF_FAIL;
	for (i = 0; i < 3; i++) {
		snprintf(a, sizeof(a), "raise_%u", nb[i]);
		snprintf(b, sizeof(b), "raise_poll_%u", nb[i]);
		if (per_call(fc, a, n, &r_i[i], &r_d, NULL) < 0 ||
		    per_call(fc, b, n, &rp_i[i], &rp_d, NULL) < 0)
			return PERF_FAIL;
		poll_i[i] = rp_i[i] - r_i[i];
	}
	if (have_shm)
		snprintf(shm_txt, sizeof(shm_txt), "%+.0f", shm_i - cp_i);
	else
		snprintf(shm_txt, sizeof(shm_txt), "(not measured)");
	if (have_ivshm)
		snprintf(iv_txt, sizeof(iv_txt), "%+.0f", iv_i - cp_i);
	else
		snprintf(iv_txt, sizeof(iv_txt), "(not measured)");
	perf_emit(c, size, "rte_ism_move_data", "instr", "instr/call", wr_i,
		  "direct_call", dir_i, wr_i / dir_i);
	perf_emit(c, size, "ops_chain", "instr", "instr/call", ch_i,
		  "direct_call", dir_i, ch_i / dir_i);
	perf_emit(c, size, "rte_ism_move_data", "extra", "instr/call",
		  wr_i - dir_i, NULL, 0, 0);
	perf_emit(c, size, "ops_chain", "extra", "instr/call", ch_i - dir_i,
		  NULL, 0, 0);
	perf_emit(c, size, "rte_ism_move_data", "loads", "loads/call", wr_d,
		  "direct_call", dir_d, wr_d / dir_d);
	perf_emit(c, size, "ops_chain", "loads", "loads/call", ch_d,
		  "direct_call", dir_d, ch_d / dir_d);
	perf_emit(c, size, "rte_ism_move_data", "extra", "loads/call",
		  wr_d - dir_d, NULL, 0, 0);
	perf_emit(c, size, "ops_chain", "extra", "loads/call", ch_d - dir_d,
		  NULL, 0, 0);
	/* The wrapper against the chain: fewer instructions or loads. */
	perf_emit(c, size, "rte_ism_move_data", "instr", "instr/call", wr_i,
		  "ops_chain", ch_i, wr_i / ch_i);
	perf_emit(c, size, "rte_ism_move_data", "loads", "loads/call", wr_d,
		  "ops_chain", ch_d, wr_d / ch_d);
	perf_emit(c, size, "driver_move_data", "instr", "instr/call",
		  dir_i - nop_i, NULL, 0, 0);
	/* The fixed cost of a move: its instructions beyond a function
	 * with the same signature that only copies (memcpy()).
	 */
	perf_emit(c, size, "copy_only", "instr", "instr/call", cp_i - nop_i,
		  NULL, 0, 0);
	perf_emit(c, size, "lo_move_data", "over_copy", "instr/call",
		  dir_i - cp_i, NULL, 0, 0);
	if (have_shm) {
		perf_emit(c, size, "shm_driver_move_data", "instr",
			  "instr/call", shm_i - nop_i, NULL, 0, 0);
		perf_emit(c, size, "shm_move_data", "over_copy", "instr/call",
			  shm_i - cp_i, NULL, 0, 0);
	}
	if (have_ivshm) {
		perf_emit(c, size, "ivshm_driver_move_data", "instr",
			  "instr/call", iv_i - nop_i, NULL, 0, 0);
		perf_emit(c, size, "ivshm_move_data", "over_copy", "instr/call",
			  iv_i - cp_i, NULL, 0, 0);
	}
	perf_emit(c, size, "tls_get_addr_calls", "count", "yes=1", tls,
		  NULL, 0, 0);
	/* A signalled move (loopback, through the wrapper, nobody polls):
	 * what the raise adds to the move.
	 */
	perf_emit(c, size, "rte_ism_move_data+signal", "instr", "instr/call",
		  r_i[0], "rte_ism_move_data", wr_i, r_i[0] / wr_i);
	perf_emit(c, size, "rte_ism_move_data+signal", "extra", "instr/call",
		  r_i[0] - wr_i, NULL, 0, 0);
	/* Instructions per message against the rate case's reference. */
	perf_emit(c, size, "move_burst_32", "instr", "instr/msg", bu_i,
		  "memcpy_loop_32", cb_i, bu_i / cb_i);
	for (i = 0; i < 3; i++) {
		snprintf(a, sizeof(a), "signal_poll_%udmbs", nb[i]);
		perf_emit(c, size, a, "instr", "instr/call", poll_i[i],
			  "signal_poll_1dmb", poll_i[0], poll_i[i] / poll_i[0]);
	}
	printf("\n  Method: instructions (Ir) and data reads (Dr, from "
	       "--cache-sim=yes) counted by\n  callgrind per loop; per call "
	       "= (count of 2n calls - count of n calls) / n, n = %" PRIu64
	       ".\n  direct_call: the driver's move_data called with its "
	       "address and context in\n  registers (an indirect call "
	       "through a register is one instruction, as a call to\n  a "
	       "symbol). The wrapper adds %.0f instruction(s) and %.0f "
	       "load(s) per call (one load\n  of the context, one of the "
	       "function, which x86 may fold into the call); the\n  "
	       "dev->ops->fn chain adds %.0f and %.0f. The loopback driver "
	       "itself runs %.0f\n  instructions per %u B move; "
	       "__tls_get_addr is %s.\n  Signal poll: %.0f, %.0f and %.0f "
	       "instructions with 1, 64 and 1888 DMBs registered\n  "
	       "(one signalled): %s.\n"
	       "  Fixed cost over a function that only copies (memcpy(), "
	       "%.0f instructions\n  with its call): loopback %+.0f, shm "
	       "%s, ivshm %s instructions per %u B move.\n"
	       "  A signalled move (loopback, nobody polls): %.0f "
	       "instructions per call, the move's %.0f + %.0f.\n"
	       "  rte_ism_move_burst() of %u segments: %.1f instructions "
	       "per message, %u memcpy()\n  calls of the same copies %.1f "
	       "(reference / burst: %.2f).\n", n, wr_i - dir_i,
	       wr_d - dir_d, ch_i - dir_i, ch_d - dir_d, dir_i - nop_i, size,
	       tls ? "CALLED (TLS through the general-dynamic model)" :
	       "not called", poll_i[0], poll_i[1], poll_i[2],
	       poll_i[0] == poll_i[1] && poll_i[1] == poll_i[2] ?
	       "independent of the number of DMBs" : "NOT FLAT",
	       cp_i - nop_i, dir_i - cp_i, shm_txt, iv_txt, size,
	       r_i[0], wr_i, r_i[0] - wr_i,
	       PERF_FP_BURST,
	       bu_i, PERF_FP_BURST, cb_i, cb_i / bu_i);
	/* Equal counts are a property of the code, not of the machine. */
	if (poll_i[0] != poll_i[1] || poll_i[1] != poll_i[2])
		ret = PERF_FAIL;
	/* So is the fixed cost of a small move (an instruction count, not a
	 * time): each software backend's fast path within
	 * FP_MAX_OVER_COPY instructions of a function that only copies.
	 */
	if (size == FP_BOUND_SIZE) {
		ret |= over_copy_ok("loopback", dir_i - cp_i);
		if (have_shm)
			ret |= over_copy_ok("shm", shm_i - cp_i);
		if (have_ivshm)
			ret |= over_copy_ok("ivshm", iv_i - cp_i);
	}
	return ret == PERF_OK ? PERF_OK : PERF_FAIL;
}

static int
fastpath_run(const struct perf_case *c)
{
	struct fp_counts *fc;
	char dir[] = "/tmp/ism-perf-cg-XXXXXX";
	unsigned int p;
	int ret = PERF_OK;

	fc = malloc(sizeof(*fc));
	if (fc == NULL || mkdtemp(dir) == NULL) {
		printf("  no memory or no temporary directory\n");
		free(fc);
		return PERF_FAIL;
	}
	for (p = 0; p < c->nb_points && ret == PERF_OK; p++) {
		ret = run_valgrind(dir, c->points[p], c->amount);
		if (ret == PERF_OK && read_dumps(dir, fc) < 0)
			ret = PERF_FAIL;
		if (ret == PERF_OK)
			ret = report(c, fc, c->points[p], c->amount);
		clean_dir(dir, false);
	}
	clean_dir(dir, true);
	free(fc);
	return ret;
}

#else /* !FP_CAN_COUNT */

static int
fastpath_run(const struct perf_case *c)
{
	RTE_SET_USED(c);
#ifdef __SANITIZE_ADDRESS__
	printf("  SKIP: sanitizer build; valgrind cannot run it\n");
#else
	printf("  SKIP: built without valgrind/callgrind.h\n");
#endif
	return PERF_SKIP;
}

#endif /* FP_CAN_COUNT */

const struct perf_type perf_type_fastpath = {
	.name = "fastpath",
	.title = "instructions per call: wrapper vs direct vs ops chain",
	.param = "size",
	.amount_key = "iters",		/* n: calls per measured loop */
	.amount_default = 10000,
	.amount_smoke = 1000,
	.min_lcores = 1,
	.no_eal = true,
	.run = fastpath_run,
};
