/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef TEST_ASSERT_H
#define TEST_ASSERT_H

/*
 * The assertions of every C test of this tree, in the style of DPDK's
 * app/test/test.h and built on DPDK's rte_test.h (lib/eal/include; DPDK
 * does not install it, devtools/setup.sh copies it from the source package
 * of the installed DPDK into the driver-SDK directory).
 *
 * A test function returns TEST_SUCCESS, TEST_FAILED or TEST_SKIPPED. A
 * failed assertion logs, through rte_test.h,
 *   "Test assert FUNCTION line N failed: MESSAGE"
 * (EAL log type, level ERR), the comparisons adding the expression and
 * the values they compared, and returns TEST_FAILED from the function.
 * Integer comparisons convert both sides to int64_t; a negative value
 * is shown with its errno text, since the API returns -errno.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <rte_common.h>
#include <rte_test.h>

#define TEST_SUCCESS	0
#define TEST_FAILED	-1
#define TEST_SKIPPED	77

/* The errno text of a negative return value, "" otherwise; not for -1,
 * which here is TEST_FAILED far more often than -EPERM.
 */
static inline const char *
test_errno_str(int64_t v)
{
	return v < -1 && v > -4096 ? strerror((int)-v) : "";
}

#define TEST_ASSERT RTE_TEST_ASSERT

#define TEST_ASSERT_NULL RTE_TEST_ASSERT_NULL

#define TEST_ASSERT_NOT_NULL RTE_TEST_ASSERT_NOT_NULL

/* a == b, both integers (each evaluated once). */
#define TEST_ASSERT_EQUAL(a, b, msg, ...) do { \
	const int64_t a_ = (int64_t)(a), b_ = (int64_t)(b); \
	RTE_TEST_ASSERT(a_ == b_, msg ": %s = %" PRId64 " %s, expected " \
			"%" PRId64 " %s", ##__VA_ARGS__, #a, a_, \
			test_errno_str(a_), b_, test_errno_str(b_)); \
} while (0)

/* a != b, both integers. */
#define TEST_ASSERT_NOT_EQUAL(a, b, msg, ...) do { \
	const int64_t a_ = (int64_t)(a), b_ = (int64_t)(b); \
	RTE_TEST_ASSERT(a_ != b_, msg ": %s = %" PRId64 " %s", ##__VA_ARGS__, \
			#a, a_, test_errno_str(a_)); \
} while (0)

/* val == 0: a call that succeeds, or a helper returning TEST_SUCCESS. */
#define TEST_ASSERT_SUCCESS(val, msg, ...) do { \
	const int64_t v_ = (int64_t)(val); \
	RTE_TEST_ASSERT(v_ == 0, msg ": %s = %" PRId64 " %s", ##__VA_ARGS__, \
			#val, v_, test_errno_str(v_)); \
} while (0)

/* val != 0: a call that fails. */
#define TEST_ASSERT_FAIL(val, msg, ...) do { \
	const int64_t v_ = (int64_t)(val); \
	RTE_TEST_ASSERT(v_ != 0, msg ": %s = 0", ##__VA_ARGS__, #val); \
} while (0)

/* len bytes at a and b are equal; reports the first differing offset. */
#define TEST_ASSERT_BUFFERS_ARE_EQUAL(a, b, len, msg, ...) do { \
	const unsigned char *a_ = (const void *)(a); \
	const unsigned char *b_ = (const void *)(b); \
	size_t n_ = (len), i_ = 0; \
	while (i_ < n_ && a_[i_] == b_[i_]) \
		i_++; \
	RTE_TEST_ASSERT(i_ == n_, msg ": %s and %s differ at byte %zu " \
			"of %zu", ##__VA_ARGS__, #a, #b, i_, n_); \
} while (0)

#endif /* TEST_ASSERT_H */
