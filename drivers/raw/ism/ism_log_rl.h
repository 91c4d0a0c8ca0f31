/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_LOG_RL_H
#define ISM_LOG_RL_H

/*
 * Rate-limited log lines, for every path a peer (or a flood of peers) can
 * make repeat: at most ISM_LOG_RL_BURST lines per call site per
 * ISM_LOG_RL_WINDOW_MS; the lines held back are counted, and the count is
 * logged ("N similar lines suppressed") when the window ends: by the next
 * line of that call site, or by ism_log_rl_flush(), which a backend with a
 * control thread calls on its timer. Safe from any thread.
 */

#include <stdbool.h>
#include <stdint.h>

#include "ism_pmd.h"

#define ISM_LOG_RL_BURST	10
#define ISM_LOG_RL_WINDOW_MS	5000

/* State of one call site (static, zero-initialised but func and fmt). */
struct ism_log_rl {
	const char *func;
	const char *fmt;
	uint64_t window_end;	/* ns */
	uint32_t printed;	/* lines in this window */
	uint64_t suppressed;	/* lines held back in this window */
	bool listed;		/* in the list ism_log_rl_flush() visits */
	struct ism_log_rl *next;
};

/* Whether the call site may log now; counts the line otherwise. */
bool ism_log_rl_allow(struct ism_log_rl *rl);

/*
 * Log the counts of windows that ended (all of them if all). Returns when
 * the next window with a count ends (ns, CLOCK_MONOTONIC), UINT64_MAX if
 * none.
 */
uint64_t ism_log_rl_flush(bool all);

#define ISM_PMD_LOG_RL(level, format, ...) do { \
	static struct ism_log_rl ism_rl_ = { .func = __func__, \
					     .fmt = format }; \
	if (ism_log_rl_allow(&ism_rl_)) \
		ISM_PMD_LOG(level, format, ##__VA_ARGS__); \
} while (0)

#endif /* ISM_LOG_RL_H */
