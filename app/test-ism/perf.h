/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef PERF_H
#define PERF_H

/*
 * dpdk-test-ism-perf: benchmark cases read from an INI file (perf.ini),
 * each run in its own process with its own EAL (perf_main.c). Every figure
 * is measured next to a reference in the same run and reported as a ratio:
 * one CSV row per figure, and the same rows as a readable table.
 */

#include <stdalign.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_common.h>
#include <rte_cycles.h>
#include <rte_ism.h>

#include <ism_compat.h>

#define PERF_OK		0
#define PERF_FAIL	1
#define PERF_SKIP	77

#define PERF_MAX_POINTS	64
#define PERF_NAME_LEN	64
/* Segments of the fastpath case's burst loops (perf_fp_probe.c). */
#define PERF_FP_BURST	32

/* One [section] of the configuration. */
struct perf_case {
	char name[PERF_NAME_LEN];	/* section name */
	const struct perf_type *type;
	char backend[32];	/* vdev driver: ism_lo, ism_shm, ism_ivshm */
	uint64_t points[PERF_MAX_POINTS]; /* values of the swept parameter */
	unsigned int nb_points;
	unsigned int reps;		/* every figure: median over reps */
	uint64_t amount;		/* work per point and rep, see type */
	unsigned int timeout_s;		/* the case process is killed after */
};

/* What a case type is: its keys and the function that runs it. */
struct perf_type {
	const char *name;
	const char *title;
	const char *param;		/* swept parameter key, e.g. "size" */
	const char *amount_key;		/* e.g. "mib" */
	uint64_t amount_default;
	uint64_t amount_smoke;		/* --smoke: tiny, only checks it runs */
	unsigned int min_lcores;
	bool no_eal;			/* runs without rte_eal_init() */
	/* In the case process before rte_eal_init() (e.g. fork a peer),
	 * optional; 0 or -1.
	 */
	int (*pre_eal)(const struct perf_case *c);
	int (*run)(const struct perf_case *c);	/* PERF_OK/FAIL/SKIP */
};

extern const struct perf_type perf_type_copy;
extern const struct perf_type perf_type_rate;
extern const struct perf_type perf_type_latency;
extern const struct perf_type perf_type_poll;
extern const struct perf_type perf_type_fastpath;
extern const struct perf_type perf_type_noise;
extern const struct perf_type perf_type_wake;

/* What the case processes inherit from the perf program (perf_main.c). */
struct perf_env {
	char **eal_base;		/* EAL args without lcores and prefix */
	unsigned int nb_eal_base;
	char prefix[2 * PERF_NAME_LEN];	/* --file-prefix of the case */
	bool smoke;
	int results_fd;			/* of perf_results, in a case */
};
extern struct perf_env perf_env;

#define PERF_MAX_CASES	64

/* perf_config.c: read the cases of an INI file; 0 or -EINVAL (printed). */
int perf_config_load(const char *path, struct perf_case *cases,
		unsigned int *nb);
void perf_config_usage(void);
/* The cases run without --config: perf.ini next to the program, else in
 * the data directory of its install.
 */
const char *perf_config_default(void);

/* perf_util.c: results. */

/* The case process writes its CSV rows here (a pipe to the perf program). */
extern FILE *perf_results;

/* Print the table header of a case (stdout). */
void perf_begin(const struct perf_case *c);

/*
 * One figure: value of series (a statistic such as "median", in unit) at
 * x, next to the reference's figure and their ratio. reference may be NULL
 * (no reference: the figure is context, e.g. host noise). Writes a CSV row
 * to the results pipe and a table line to stdout.
 */
void perf_emit(const struct perf_case *c, uint64_t x, const char *series,
		const char *stat, const char *unit, double value,
		const char *reference, double ref_value, double ratio);

/*
 * Figures of paired repetitions: val[r] and ref[r] were measured back to
 * back. Emits the median of val, the median of ref and the median of the
 * per-repetition ratios val[r]/ref[r], then the repetitions
 * (perf_emit_reps) and the reference's spread.
 */
void perf_emit_paired(const struct perf_case *c, uint64_t x,
		const char *series, const char *unit, const double *val,
		const char *reference, const double *ref, unsigned int n);

/* A figure this host cannot measure (stat "n/a", value nan), and why. */
void perf_emit_na(const struct perf_case *c, uint64_t x, const char *series,
		const char *why);

/*
 * The paired repetitions themselves: one row per repetition (stat "rep")
 * with val[r], ref[r] and their ratio, from which devtools/bench_report.py
 * draws the interval of the median ratio. perf_emit_paired() emits them.
 */
void perf_emit_reps(const struct perf_case *c, uint64_t x,
		const char *series, const char *unit, const double *val,
		const char *reference, const double *ref, unsigned int n);

/*
 * How far a reference moved between repetitions: a row (series reference,
 * stat "spread", unit "rel") of (max - min) / median of ref[0..n), for
 * devtools/bench_report.py to compare with the reference's usual spread.
 * Nothing for n < 2. perf_emit_paired() emits it for its reference.
 */
void perf_emit_spread(const struct perf_case *c, uint64_t x,
		const char *reference, const double *ref, unsigned int n);

/* perf_util.c: statistics and timing. */
double perf_median(const double *v, unsigned int n);
/* q-quantile (0..1) of v, sorted in place. */
double perf_quantile(double *v, size_t n, double q);
/* TSC cycles to ns. */
double perf_ns(uint64_t cycles);
/* Cost of one rte_rdtsc(), in ns (the latency samples include one). */
double perf_rdtsc_ns(void);
/* A deadline in TSC cycles, seconds from now. */
uint64_t perf_deadline(unsigned int seconds);
/* Bounded for loops that spin: true once the deadline has passed. */
static inline bool
perf_expired(uint64_t deadline, uint64_t *spins)
{
	return (++*spins & 0xfff) == 0 && rte_rdtsc() > deadline;
}

/* perf_util.c: devices of a case. */

/* Create vdev name of driver with args; 0, -ENOTSUP if the driver is not
 * in this build, or another negative errno.
 */
int perf_vdev_create(const char *name, const char *args, uint16_t *dev_id,
		struct rte_ism_dev_info *info);
void perf_vdev_remove(const char *name);
/* Register a DMB of len bytes on dev for writer rgid; logs on failure. */
int perf_dmb_register(uint16_t dev, uint32_t len,
		const struct rte_ism_gid *rgid, struct rte_ism_dmb *dmb);
/* Unregister n DMBs of owner, draining the events this sends writer. */
void perf_unregister_all(uint16_t owner, const uint64_t *tokens,
		unsigned int n, uint16_t writer);
/* Spin until DMB idx of dev is signalled; 0, or -1 at the deadline. */
int perf_wait_signal(uint16_t dev, uint32_t idx, uint64_t deadline);
/* Retry a 1-byte move until the DMB is reachable (a peer may still be
 * connecting); 0 or the last error.
 */
int perf_connect(uint16_t dev, uint64_t token, unsigned int seconds);

/*
 * Two loopback devices: tx writes, rx owns two DMBs of len bytes that tx
 * may write: dst, which the ISM path writes, and ref, the reference
 * destination (the same kind of memory). Names are ism_lo_TAG_tx/_rx.
 */
struct perf_lo_pair {
	char tx_name[32], rx_name[32];
	uint16_t tx, rx;
	struct rte_ism_dev_info itx, irx;
	struct rte_ism_dmb dst, ref;
};
int perf_lo_pair_open(struct perf_lo_pair *p, const char *tag,
		const char *args, uint32_t len);
void perf_lo_pair_close(struct perf_lo_pair *p);

/* perf_copy.c: the copy sweep, shared by loopback and shm. */
struct perf_copy_target {
	uint16_t dev;		/* writer device */
	uint64_t token;		/* DMB written by move_data */
	uint32_t len;		/* its length */
	void *ref_dst;		/* reference destination: same kind, len */
	void *src;		/* source of every copy, len bytes */
};
int perf_copy_sweep(const struct perf_case *c,
		const struct perf_copy_target *t);
/* Pattern written last by the sweep, for the receiver's check. */
void perf_copy_pattern(void *buf, uint32_t len);

/* perf_latency.c: round trips, shared by loopback and shm. */

/* The raw references (perf_pingpong.c): a flag line per direction (1line
 * uses a alone) and a data line per direction, each on its own line.
 */
#define PERF_PP_LINE_WORDS	(RTE_CACHE_LINE_SIZE / 8)
struct perf_pp_lines {
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint64_t) a;	/* requester's flag */
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint64_t) b;	/* responder's flag */
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint64_t) da[PERF_PP_LINE_WORDS];
	alignas(RTE_CACHE_LINE_SIZE) RTE_ATOMIC(uint64_t) db[PERF_PP_LINE_WORDS];
};

/* The kinds of raw ping-pong, each one step of a signal round trip (see
 * perf_pingpong.c); 2line is the reference of every ratio.
 */
enum perf_pp_kind {
	PERF_PP_2LINE,
	PERF_PP_1LINE,
	PERF_PP_2LINE_DEMOTE,
	PERF_PP_2SEQ,
	PERF_PP_LINE_FLAG,
	PERF_PP_LINE_FLAG_DEMOTE,
	PERF_PP_NB
};
/* Its command word ("raw2", ...) and its series ("pingpong_2line", ...). */
const char *perf_pp_what(enum perf_pp_kind k);
const char *perf_pp_series(enum perf_pp_kind k);
/* The kind of a command word, or -1. */
int perf_pp_kind_of(const char *what);
/* False for a CLDEMOTE kind on a CPU without it (cpuid, at run time). */
bool perf_pp_supported(enum perf_pp_kind k);
/* Zero every line (between blocks, the responder idle). */
void perf_pp_reset(struct perf_pp_lines *l);
/* Requester: n + 1 round trips of kind k, the first untimed, into ns[n]. */
int perf_raw_ping(struct perf_pp_lines *l, enum perf_pp_kind k, uint64_t n,
		double *ns, uint64_t deadline);
/* Responder: n round trips of kind k. PERF_OK or PERF_FAIL. */
int perf_raw_pong(struct perf_pp_lines *l, enum perf_pp_kind k, uint64_t n,
		uint64_t deadline);

/* The responder side of one block of round trips. */
struct perf_pong {
	uint16_t dev;		/* responder's device */
	uint64_t token;		/* DMB of the requester, written back */
	uint32_t idx;		/* index of the responder's own DMB */
	const void *dmb;	/* the responder's own DMB */
	uint32_t size;		/* message size */
	uint64_t n;		/* round trips */
};
/* ISM responder: wait for each signal, answer. PERF_OK or PERF_FAIL. */
int perf_ism_pong(const struct perf_pong *p, uint64_t deadline);

/* What the requester needs; the responder runs the matching pong. */
struct perf_lat_ops {
	void *ctx;
	/* Start the responder for n round trips of what ("ism": messages
	 * of size bytes, else a raw kind's perf_pp_what()); returns once
	 * it polls.
	 */
	int (*start)(void *ctx, const char *what, uint32_t size, uint64_t n);
	/* Wait for the responder to finish its block. */
	int (*wait)(void *ctx);
};
struct perf_lat_setup {
	uint16_t dev;		/* requester's device */
	uint64_t token;		/* responder's DMB */
	uint32_t idx;		/* index of the requester's own DMB */
	const void *dmb;	/* the requester's own DMB */
	struct perf_pp_lines *lines;	/* raw reference lines */
};
int perf_latency_run(const struct perf_case *c,
		const struct perf_lat_setup *s, const struct perf_lat_ops *ops);

/* perf_xproc.c: the cross-process cases (shm or ivshmem backend, a peer
 * process).
 */
int perf_xproc_pre_eal(const struct perf_case *c);	/* forks the peer */
int perf_copy_shm(const struct perf_case *c);
int perf_latency_shm(const struct perf_case *c);

#endif /* PERF_H */
