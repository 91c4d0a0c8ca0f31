/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <rte_spinlock.h>

#include "ism_log_rl.h"

#define WINDOW_NS ((uint64_t)ISM_LOG_RL_WINDOW_MS * 1000000ULL)

static rte_spinlock_t rl_lock = RTE_SPINLOCK_INITIALIZER;
static struct ism_log_rl *rl_listed;	/* sites with lines held back */

static void
summary(const struct ism_log_rl *rl)
{
	RTE_LOG_LINE(WARNING, ISM_PMD, "%s(): %" PRIu64
		" similar lines suppressed (at most %d per %d s): \"%s\"",
		rl->func, rl->suppressed, ISM_LOG_RL_BURST,
		ISM_LOG_RL_WINDOW_MS / 1000, rl->fmt);
}

static void
unlist(struct ism_log_rl *rl)
{
	struct ism_log_rl **pp;

	for (pp = &rl_listed; *pp != NULL; pp = &(*pp)->next)
		if (*pp == rl) {
			*pp = rl->next;
			break;
		}
	rl->listed = false;
	rl->next = NULL;
}

bool
ism_log_rl_allow(struct ism_log_rl *rl)
{
	uint64_t now = ism_now_ns();
	bool ok;

	rte_spinlock_lock(&rl_lock);
	if (now >= rl->window_end) {
		if (rl->suppressed != 0)
			summary(rl);
		if (rl->listed)
			unlist(rl);
		rl->window_end = now + WINDOW_NS;
		rl->printed = 0;
		rl->suppressed = 0;
	}
	ok = rl->printed < ISM_LOG_RL_BURST;
	if (ok) {
		rl->printed++;
	} else {
		rl->suppressed++;
		if (!rl->listed) {
			rl->listed = true;
			rl->next = rl_listed;
			rl_listed = rl;
		}
	}
	rte_spinlock_unlock(&rl_lock);
	return ok;
}

uint64_t
ism_log_rl_flush(bool all)
{
	uint64_t now = ism_now_ns(), next = UINT64_MAX;
	struct ism_log_rl *rl, *nx;

	rte_spinlock_lock(&rl_lock);
	for (rl = rl_listed; rl != NULL; rl = nx) {
		nx = rl->next;
		if (!all && now < rl->window_end) {
			next = RTE_MIN(next, rl->window_end);
			continue;
		}
		summary(rl);
		rl->suppressed = 0;
		/* The window goes on: the burst is used up until its end. */
		unlist(rl);
	}
	rte_spinlock_unlock(&rl_lock);
	return next;
}
