/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-test-ism-perf: runs the cases of an INI file (app/test-ism/perf.ini),
 * each in a forked process that initialises its own EAL, as DPDK's
 * dpdk-test-dma-perf does: EAL initialises once per process, every case
 * starts from the same state, and a case that crashes or hangs takes only
 * itself down. This process never initialises EAL; the cases write their
 * figures as CSV rows into a pipe and this process collects them into the
 * CSV file.
 *
 *   dpdk-test-ism-perf [EAL options] -- [--config FILE] [--case A,B]
 *                      [--csv FILE] [--smoke] [--list]
 *
 * The EAL options are given to every case, with --file-prefix made unique
 * per case (PREFIX-CASE; a case's peer process uses PREFIX-CASE-peer and
 * the fastpath probe PREFIX-CASE-cg). EAL leaves their runtime
 * directories behind (doc/guides/tools/testism_perf.rst). Exit status: 0
 * every case ran, 1 a case failed, 77 every selected case was skipped.
 */

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>
#include <rte_string_fns.h>

#include "perf.h"
#include "test_ism.h"

struct perf_env perf_env;

/* EAL options the perf mode sets per case (and per peer process). */
static const char *const lcore_opts[] = { "-l", "-c", "--lcores",
	"--main-lcore", NULL };

/* Is arg one of opts, alone ("-l") or with its value ("-l0", "--lcores=")? */
static int
opt_match(const char *arg, const char *const *opts)
{
	size_t n;

	for (; *opts != NULL; opts++) {
		n = strlen(*opts);
		if (strncmp(arg, *opts, n) != 0)
			continue;
		if (arg[n] == '\0')
			return 2;	/* value in the next argument */
		if ((n == 2 && arg[1] != '-') || arg[n] == '=')
			return 1;	/* value attached */
	}
	return 0;
}

/*
 * Split the EAL options into lcore options (kept for the case processes,
 * replaced for peers), the file prefix (made unique per case) and the rest.
 */
static void
split_eal_args(int argc, char **argv, char **lcores, unsigned int *nb_lcores,
		const char **prefix)
{
	static const char *const prefix_opt[] = { "--file-prefix", NULL };
	int i, m;

	*nb_lcores = 0;
	perf_env.nb_eal_base = 0;
	for (i = 0; i < argc; i++) {
		m = opt_match(argv[i], lcore_opts);
		if (m != 0) {
			lcores[(*nb_lcores)++] = argv[i];
			if (m == 2 && i + 1 < argc)
				lcores[(*nb_lcores)++] = argv[++i];
			continue;
		}
		m = opt_match(argv[i], prefix_opt);
		if (m == 2 && i + 1 < argc) {
			*prefix = argv[++i];
			continue;
		} else if (m == 1) {
			*prefix = argv[i] + strlen("--file-prefix=");
			continue;
		}
		perf_env.eal_base[perf_env.nb_eal_base++] = argv[i];
	}
}

/* The case process: its own EAL (--file-prefix prefix), then the case;
 * never returns.
 */
static void
case_process(const struct perf_case *c, int fd, char **lcores,
		unsigned int nb_lcores, const char *prefix)
{
	unsigned int i, argc = 0;
	char **argv;
	int ret;

	strlcpy(perf_env.prefix, prefix, sizeof(perf_env.prefix));
	argv = calloc(nb_lcores + perf_env.nb_eal_base + 4, sizeof(*argv));
	if (argv == NULL)
		exit(PERF_FAIL);
	argv[argc++] = (char *)(uintptr_t)"dpdk-test-ism-perf";
	for (i = 0; i < nb_lcores; i++)
		argv[argc++] = lcores[i];
	for (i = 0; i < perf_env.nb_eal_base; i++)
		argv[argc++] = perf_env.eal_base[i];
	argv[argc++] = (char *)(uintptr_t)"--file-prefix";
	argv[argc++] = perf_env.prefix;
	argv[argc] = NULL;

	/* Not inherited by valgrind: the perf program reads until the case
	 * process is gone (a forked peer closes it itself).
	 */
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	perf_env.results_fd = fd;
	perf_results = fdopen(fd, "w");
	if (perf_results == NULL)
		exit(PERF_FAIL);
	setvbuf(perf_results, NULL, _IOLBF, 0);
	/* Bounded: a hung case is killed and reported, the rest go on. */
	alarm(c->timeout_s);
	/* Fork after rte_eal_init() is not supported: a case that needs a
	 * peer process forks it now.
	 */
	if (c->type->pre_eal != NULL && c->type->pre_eal(c) < 0)
		exit(PERF_FAIL);
	if (!c->type->no_eal && rte_eal_init(argc, argv) < 0) {
		printf("  EAL initialisation failed: %s\n",
		       rte_strerror(rte_errno));
		exit(PERF_FAIL);
	}
	if (!c->type->no_eal && rte_lcore_count() < c->type->min_lcores) {
		printf("  SKIP: needs %u lcores (EAL -l), have %u\n",
		       c->type->min_lcores, rte_lcore_count());
		ret = PERF_SKIP;
	} else {
		perf_begin(c);
		ret = c->type->run(c);
	}
	fclose(perf_results);
	if (!c->type->no_eal)
		rte_eal_cleanup();
	free(argv);
	fflush(stdout);
	exit(ret);
}

/* Fork the case, copy its rows into csv; PERF_OK, PERF_FAIL or PERF_SKIP. */
static int
run_case(const struct perf_case *c, FILE *csv, char **lcores,
		unsigned int nb_lcores, const char *prefix)
{
	char line[1024], case_prefix[sizeof(perf_env.prefix)];
	unsigned int rows = 0;
	int fds[2], status, ret;
	uint64_t t0 = rte_ism_time_ns();
	FILE *in;
	pid_t pid;

	snprintf(case_prefix, sizeof(case_prefix), "%s-%s", prefix, c->name);
	printf("\n== %s: %s (%s)\n", c->name, c->type->title, c->backend);
	/* Nothing buffered may be inherited: the child would write it too. */
	fflush(NULL);
	if (pipe(fds) < 0) {
		printf("  pipe: %s\n", strerror(errno));
		return PERF_FAIL;
	}
	pid = fork();
	if (pid < 0) {
		printf("  fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return PERF_FAIL;
	}
	if (pid == 0) {
		close(fds[0]);
		case_process(c, fds[1], lcores, nb_lcores, case_prefix);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (in != NULL && fgets(line, sizeof(line), in) != NULL) {
		if (csv != NULL)
			fputs(line, csv);
		/* The repetitions behind a figure are not figures. */
		if (strstr(line, ",rep,") == NULL)
			rows++;
	}
	if (in != NULL)
		fclose(in);
	else
		close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(status)) {
		printf("  killed by signal %d%s\n", WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (timeout)" : "");
		ret = PERF_FAIL;
	} else {
		ret = WEXITSTATUS(status);
		if (ret != PERF_OK && ret != PERF_SKIP)
			ret = PERF_FAIL;
	}
	printf("-- %s: %s, %u figures, %.1f s\n", c->name,
	       ret == PERF_OK ? "done" : ret == PERF_SKIP ? "SKIPPED" :
	       "FAILED", rows, (rte_ism_time_ns() - t0) / 1e9);
	return ret;
}

int
main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'f' },
		{ "case", required_argument, NULL, 'c' },
		{ "csv", required_argument, NULL, 'o' },
		{ "smoke", no_argument, NULL, 's' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct perf_case cases[PERF_MAX_CASES];
	const char *config = NULL, *only = NULL;
	const char *csv_path = NULL, *prefix = NULL;
	char **lcores = NULL, pfx[PERF_NAME_LEN];
	unsigned int nb = 0, nb_lcores, i, ran = 0, fail = 0, skip = 0;
	bool list = false;
	int dd, c, ret = 0;
	FILE *csv = NULL;

	/* EAL options up to "--" (given to every case), then ours. */
	for (dd = 1; dd < argc && strcmp(argv[dd], "--") != 0; dd++)
		;
	if (dd == argc)
		dd = 0;		/* no "--": no EAL options */
	perf_env.results_fd = -1;
	perf_env.eal_base = calloc(argc + 1, sizeof(char *));
	lcores = calloc(argc + 1, sizeof(char *));
	if (perf_env.eal_base == NULL || lcores == NULL) {
		ret = PERF_FAIL;
		goto out;
	}
	split_eal_args(dd > 0 ? dd - 1 : 0, argv + 1, lcores, &nb_lcores,
		       &prefix);
	if (prefix == NULL) {
		snprintf(pfx, sizeof(pfx), "ism-perf-%d", (int)getpid());
		prefix = pfx;
	}

	/* Our options: getopt from argv[dd], "--" taking argv[0]'s place. */
	argc -= dd;
	argv += dd;
	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			config = optarg;
			break;
		case 'c':
			only = optarg;
			break;
		case 'o':
			csv_path = optarg;
			break;
		case 's':
			perf_env.smoke = true;
			break;
		case 'l':
			list = true;
			break;
		case 'h':
			perf_config_usage();
			goto out;
		default:
			perf_config_usage();
			ret = 2;
			goto out;
		}
	}
	if (optind != argc) {
		printf("unexpected argument \"%s\"\n", argv[optind]);
		perf_config_usage();
		ret = 2;
		goto out;
	}
	if (config == NULL)
		config = perf_config_default();
	if (perf_config_load(config, cases, &nb) < 0) {
		ret = 2;
		goto out;
	}
	if (list)
		printf("cases of %s:\n", config);
	for (i = 0; i < nb; i++) {
		if (list)
			printf("%-16s %-9s %s\n", cases[i].name,
			       cases[i].type->name, cases[i].backend);
		else if (suite_selected(only, cases[i].name))
			ran++;
	}
	if (list)
		goto out;
	if (ran == 0) {
		printf("no case of %s matches \"%s\"\n", config, only);
		ret = 2;
		goto out;
	}
	if (csv_path != NULL) {
		csv = fopen(csv_path, "w");
		if (csv == NULL) {
			printf("cannot write %s: %s\n", csv_path,
			       strerror(errno));
			ret = 2;
			goto out;
		}
		fprintf(csv, "case,type,backend,param,x,series,stat,unit,"
			"value,reference,ref_value,ratio\n");
	}
	printf("dpdk-test-ism-perf: %u case(s) of %s%s; every figure is the "
	       "median over repetitions,\neach repetition measuring the ISM "
	       "path and its reference back to back\n", ran, config,
	       perf_env.smoke ? " (smoke: tiny counts, figures meaningless)"
	       : "");
	for (i = 0; i < nb; i++) {
		if (!suite_selected(only, cases[i].name))
			continue;
		switch (run_case(&cases[i], csv, lcores, nb_lcores, prefix)) {
		case PERF_OK:
			break;
		case PERF_SKIP:
			skip++;
			break;
		default:
			fail++;
			break;
		}
	}
	if (csv != NULL)
		fclose(csv);
	printf("\nperf: %u case(s), %u failed, %u skipped%s%s\n", ran, fail,
	       skip, csv_path != NULL ? "; figures in " : "",
	       csv_path != NULL ? csv_path : "");
	ret = fail > 0 ? PERF_FAIL : skip == ran ? PERF_SKIP : PERF_OK;
out:
	free(perf_env.eal_base);
	free(lcores);
	return ret;
}
