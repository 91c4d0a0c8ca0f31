/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-test-ism: functional tests and measurements of the ISM stack.
 *
 *   dpdk-test-ism [EAL options] -- [functional] [--suite a,b] [--backend B]
 *   dpdk-test-ism [EAL options] -- demo [--iters N]
 *   dpdk-test-ism [EAL options] -- list
 *
 * The benchmarks are another program, dpdk-test-ism-perf (perf_main.c).
 * Exit status: 0 all passed, 1 a failure, 77 everything skipped.
 */

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_lcore.h>

#include "test_ism.h"

static const struct test_suite *const all_suites[] = {
	&suite_api,
	&suite_dmb,
	&suite_move,
	&suite_data,
	&suite_signal,
	&suite_events,
	&suite_nocopy,
	&suite_fp,
	&suite_rawdev,
	&suite_devargs,
	&suite_twolcore,
	&suite_intr,
#ifdef RTE_ISM_PCI_MODEL
	&suite_pci_protocol,
	&suite_pmd_api,
#endif
};

static void
usage(const char *prog)
{
	unsigned int i;

	printf("Usage: %s [EAL options] -- [MODE] [options]\n"
	       "modes:\n"
	       "  functional  run the functional suites (default)\n"
	       "    --suite NAME[,NAME...]  only these suites\n"
	       "    --backend DRIVER[,DEVARGS]  vdev driver and devargs of the\n"
	       "                devices the suites create (default ism_lo;\n"
	       "                ism_shm,dir=D; ism_ivshm,path=F,size=B)\n"
	       "    --devices A,B  two existing devices (e.g. -a ism:<PCI\n"
	       "                address>) instead; cases that create devices\n"
	       "                are skipped\n"
	       "    --stores-posted  the platform cannot report a refused\n"
	       "                store block (plain vfio-pci): refused moves\n"
	       "                may return 0\n"
	       "  demo        move_data throughput per size next to memcpy\n"
	       "    --iters N  bytes moved per size, in MiB (default 256)\n"
	       "  list        list the suites\n"
	       "suites:", prog);
	for (i = 0; i < RTE_DIM(all_suites); i++)
		printf(" %s", all_suites[i]->name);
	printf("\n");
}

static int
run_suite(const struct test_suite *s, unsigned int *pass, unsigned int *fail,
		unsigned int *skip)
{
	const struct test_case *tc;
	int ret;

	printf("== suite %s\n", s->name);
	if (rte_lcore_count() < s->min_lcores) {
		for (tc = s->cases; tc->name != NULL; tc++) {
			printf("  [SKIP] %s: needs %u lcores (-l), have %u\n",
			       tc->name, s->min_lcores, rte_lcore_count());
			(*skip)++;
		}
		return 0;
	}
	for (tc = s->cases; tc->name != NULL; tc++) {
		fx_drain();
		fflush(stdout);
		ret = tc->fn();
		if (ret == TEST_SUCCESS) {
			printf("  [ OK ] %s\n", tc->name);
			(*pass)++;
		} else if (ret == TEST_SKIPPED) {
			printf("  [SKIP] %s\n", tc->name);
			(*skip)++;
		} else {
			printf("  [FAIL] %s\n", tc->name);
			(*fail)++;
		}
		fflush(stdout);
	}
	return 0;
}

static int
functional_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "suite", required_argument, NULL, 's' },
		{ "backend", required_argument, NULL, 'b' },
		{ "devices", required_argument, NULL, 'd' },
		{ "stores-posted", no_argument, NULL, 'p' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int i, pass = 0, fail = 0, skip = 0, ran = 0;
	const char *suites = NULL, *backend = "ism_lo", *devices = NULL;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			suites = optarg;
			break;
		case 'b':
			backend = optarg;
			break;
		case 'd':
			devices = optarg;
			break;
		case 'p':
			fx.stores_posted = true;
			break;
		default:
			usage(argv[0]);
			return 2;
		}
	}
	if (optind != argc) {
		printf("unexpected argument \"%s\"\n", argv[optind]);
		usage(argv[0]);
		return 2;
	}
	for (i = 0; suites != NULL && i < RTE_DIM(all_suites); i++)
		if (suite_selected(suites, all_suites[i]->name))
			ran++;
	if (suites != NULL && ran == 0) {
		printf("no suite matches \"%s\"\n", suites);
		usage(argv[0]);
		return 2;
	}
	if ((devices != NULL ? fx_setup_given(devices) : fx_setup(backend)) < 0)
		return 1;
	for (i = 0; i < RTE_DIM(all_suites); i++)
		if (suite_selected(suites, all_suites[i]->name))
			run_suite(all_suites[i], &pass, &fail, &skip);
	fx_teardown();
	printf("summary: %u passed, %u failed, %u skipped\n", pass, fail, skip);
	if (fail > 0)
		return 1;
	return pass == 0 && skip > 0 ? TEST_SKIPPED : 0;
}

int
main(int argc, char **argv)
{
	/* Writable: argv's strings are char * (DPDK builds with -Wwrite-strings). */
	static char prog_name[sizeof("dpdk-test-ism")] = "dpdk-test-ism";
	const char *mode = "functional";
	unsigned int i;
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		fprintf(stderr, "EAL initialisation failed: %s\n",
			rte_strerror(rte_errno));
		return 1;
	}
	argc -= ret;
	argv += ret;
	argv[0] = prog_name;
	if (argc > 1 && argv[1][0] != '-') {
		mode = argv[1];
		argv[1] = argv[0];
		argc--;
		argv++;
	}
	if (strcmp(mode, "functional") == 0) {
		ret = functional_main(argc, argv);
	} else if (strcmp(mode, "demo") == 0) {
		ret = demo_main(argc, argv);
	} else if (strcmp(mode, "list") == 0) {
		for (i = 0; i < RTE_DIM(all_suites); i++)
			printf("%s\n", all_suites[i]->name);
		ret = 0;
	} else if (strcmp(mode, "help") == 0) {
		usage(argv[0]);
		ret = 0;
	} else {
		printf("unknown mode \"%s\"\n", mode);
		usage(argv[0]);
		ret = 2;
	}
	rte_eal_cleanup();
	return ret;
}
