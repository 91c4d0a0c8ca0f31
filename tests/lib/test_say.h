/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef TEST_SAY_H
#define TEST_SAY_H

/*
 * The milestone lines of the multi-process test programs: the test
 * drivers (python, through a pipe or a guest's serial console) order
 * their phases by what a program prints while it runs, so every line is
 * flushed at once.
 */

#include <stdarg.h>
#include <stdio.h>

#include <rte_common.h>

static inline void
say(const char *fmt, ...) __rte_format_printf(1, 2);

/* One line on stdout (the newline added), flushed. */
static inline void
say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

/* The same, marked "FAIL: " for the driver. */
#define fail(...) do { printf("FAIL: "); say(__VA_ARGS__); } while (0)

#endif /* TEST_SAY_H */
