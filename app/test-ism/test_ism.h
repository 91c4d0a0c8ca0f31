/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef TEST_ISM_H
#define TEST_ISM_H

/*
 * dpdk-test-ism: a small test runner (app/test's test.h is not a library)
 * and the fixture shared by the functional suites: two devices A and B that
 * can reach each other, plus a way to spawn more of the same backend. The
 * fixture is a static library (test_fixture.c), also linked by the
 * multi-process test programs (tests/shm) and dpdk-test-ism-perf.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <string.h>

#include <rte_ism.h>

#include "test_assert.h"

struct test_case {
	const char *name;
	int (*fn)(void);
};

struct test_suite {
	const char *name;
	const struct test_case *cases;	/* ends with { NULL, NULL } */
	/* Needs this many lcores; skipped with a reason otherwise. */
	unsigned int min_lcores;
};

/* The fixture (test_fixture.c). */
struct test_fixture {
	uint16_t a, b;			/* two devices that reach each other */
	struct rte_ism_dev_info ia, ib;
	char spawn_drv[64];		/* vdev driver for extra devices */
	char spawn_args[256];		/* devargs for extra devices */
	unsigned int nb_spawned;
	/* A and B given (--devices): the suites create no device. */
	bool given;
	/*
	 * The platform cannot report a store block the device refused
	 * (--stores-posted): behind plain vfio-pci (the emulated function
	 * in an x86 guest) a BAR write is a posted write, so a move the
	 * device refuses returns 0 and writes nothing.
	 */
	bool stores_posted;
	/*
	 * A refused store block is -EIO, its reason unknown: the given
	 * devices are ISM functions behind ism_vfio_pci (IBM Z), where a
	 * refused PCI Store Block is only an error.
	 */
	bool stores_eio;
};
extern struct test_fixture fx;

/* Create devices A and B with the backend "DRIVER[,DEVARGS]". */
int fx_setup(const char *backend);
/* Use the existing devices "A,B" (by name) instead. */
int fx_setup_given(const char *names);
/* Remove every device the fixture created. */
void fx_teardown(void);
/* Create an extra device of the fixture's backend; extra devargs may be
 * NULL. Returns its id or a negative errno (-ENOTSUP with --devices);
 * name receives its name.
 */
int fx_spawn(const char *extra_args, char *name, size_t namesz);
/*
 * A case that needs fx_spawn() is skipped when the devices were given:
 * true if fx_spawn() returned c for that reason.
 */
#define FX_SPAWN_SKIPPED(c) ((c) == -ENOTSUP && fx.given)
/*
 * A move the device refuses fails with err; with --stores-posted the
 * platform cannot tell, and the move may return 0; behind ism_vfio_pci
 * it may be -EIO (the checks that nothing was written or signalled stay).
 */
#define TEST_ASSERT_REFUSED(expr, err, msg, ...) do { \
	const int r_ = (expr); \
	if ((!fx.stores_posted || r_ != 0) && \
	    !(fx.stores_eio && r_ == -EIO)) \
		TEST_ASSERT_EQUAL(r_, err, msg, ##__VA_ARGS__); \
} while (0)
/* Remove a device created by fx_spawn. */
int fx_unspawn(const char *name);
/* Register a DMB of len bytes on dev for writer rgid; asserts success. */
int fx_register(uint16_t dev, uint32_t len, const struct rte_ism_gid *rgid,
		struct rte_ism_dmb *dmb);
/* Drain and drop all events and signals pending on every device. */
void fx_drain(void);
/*
 * Events reach a device's queue when its driver handles them: at once
 * for the software backends and the in-process PCI function, through the
 * function's interrupt on a real platform (a guest's vfio), a while after
 * the call that caused them. fx_event_wait() polls dev into ev[0..nb)
 * until want events came (or FX_EVENT_WAIT_S passed): their number.
 * fx_events_wait() waits until events + events_dropped of dev's stats
 * reached total.
 */
#define FX_EVENT_WAIT_S 10
int fx_event_wait(uint16_t dev, struct rte_ism_event *ev, uint16_t want,
		uint16_t nb);
int fx_events_wait(uint16_t dev, uint64_t total);
/* Checksum used by the data tests (CRC32C). */
uint32_t fx_crc(const void *p, size_t len);
/* Deterministic pseudo-random bytes. */
void fx_fill(void *p, size_t len, uint64_t *state);
uint64_t fx_rand(uint64_t *state);

/* Suites. */
extern const struct test_suite suite_api;
extern const struct test_suite suite_dmb;
extern const struct test_suite suite_move;
extern const struct test_suite suite_data;
extern const struct test_suite suite_signal;
extern const struct test_suite suite_events;
extern const struct test_suite suite_nocopy;
extern const struct test_suite suite_fp;
extern const struct test_suite suite_twolcore;
extern const struct test_suite suite_rawdev;
extern const struct test_suite suite_devargs;
extern const struct test_suite suite_intr;
/* Driver code, built with the ISM PCI device model (RTE_ISM_PCI_MODEL). */
extern const struct test_suite suite_pci_protocol;
extern const struct test_suite suite_pmd_api;

/* Is name in the comma-separated list (NULL: every name)? */
bool suite_selected(const char *list, const char *name);

/* Other modes. */
int demo_main(int argc, char **argv);

#endif /* TEST_ISM_H */
