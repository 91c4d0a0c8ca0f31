/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * rte_ism_dev_selftest() (and so rte_rawdev_selftest() and DPDK's
 * rawdev_autotest) of an ISM device: the device writes a DMB of its own
 * (it is its own rgid) through the client API and checks data, signal,
 * bounds and stale-token handling. Works for every backend and every valid
 * configuration: the DMB and the bytes moved are sized from max_dmb_len
 * (1 byte is enough). Meant for a device no client uses: it polls the
 * device's signals, all of them.
 */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ism_pmd.h"

/* The log line of a failed check. */
static void __rte_format_printf(2, 3)
st_fail(const struct rte_ism_dev *idev, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ISM_PMD_LOG(ERR, "selftest %s: %s", idev->name, msg);
}

/* At most this many bytes are moved; less on a device with small DMBs. */
#define ST_PATTERN_LEN 100
/* The move lands at this offset if the DMB has room for it. */
#define ST_OFFSET 10

int
ism_pmd_selftest(struct rte_ism_dev *idev)
{
	uint16_t id = idev->dev_id;
	struct rte_ism_dmb dmb = { 0 };
	struct rte_ism_signal sig[4];
	uint8_t pattern[ST_PATTERN_LEN];
	uint32_t n, off;
	bool registered = false;
	unsigned int i;
	int ret;

	dmb.len = RTE_MIN(4096u, idev->max_dmb_len);
	n = RTE_MIN((uint32_t)sizeof(pattern), dmb.len);
	off = RTE_MIN((uint32_t)ST_OFFSET, dmb.len - n);
	dmb.rgid = idev->gid;
	ret = rte_ism_dmb_register(id, &dmb);
	if (ret == -ENOSPC) {
		ISM_PMD_LOG(ERR, "selftest %s: every DMB index is in use",
			    idev->name);
		return ret;
	}
	if (ret != 0) {
		st_fail(idev, "register: %d", ret);
		goto fail;
	}
	registered = true;
	for (i = 0; i < n; i++)
		pattern[i] = i * 7 + 1;
	ret = rte_ism_move_data(id, dmb.token, 3, 1, off, pattern, n);
	if (ret != 0) {
		st_fail(idev, "move of %u bytes to offset %u: %d", n, off, ret);
		goto fail;
	}
	if (memcmp((char *)dmb.addr + off, pattern, n) != 0) {
		st_fail(idev, "data not in the DMB");
		goto fail;
	}
	ret = rte_ism_signal_poll(id, sig, RTE_DIM(sig));
	if (ret != 1 || sig[0].dmb_idx != dmb.idx ||
	    sig[0].mask != RTE_BIT32(3)) {
		st_fail(idev, "signal poll returned %d (idx %u mask 0x%x)",
			ret, sig[0].dmb_idx, sig[0].mask);
		goto fail;
	}
	ret = rte_ism_signal_poll(id, sig, RTE_DIM(sig));
	if (ret != 0) {
		st_fail(idev, "signal reported twice (%d)", ret);
		goto fail;
	}
	ret = rte_ism_move_data(id, dmb.token, 0, 0, dmb.len - 1, pattern, 2);
	if (ret != -ERANGE) {
		st_fail(idev, "move past the end: %d", ret);
		goto fail;
	}
	ret = rte_ism_move_data(id, dmb.token, 0, 0, 0, pattern, 0);
	if (ret != -EINVAL) {
		st_fail(idev, "zero-length move: %d", ret);
		goto fail;
	}
	ret = rte_ism_dmb_unregister(id, dmb.token);
	registered = false;
	if (ret != 0) {
		st_fail(idev, "unregister: %d", ret);
		goto fail;
	}
	ret = rte_ism_move_data(id, dmb.token, 0, 0, 0, pattern, 1);
	if (ret != -ENOENT) {
		st_fail(idev, "move with a stale token: %d", ret);
		goto fail;
	}
	ISM_PMD_LOG(INFO, "selftest %s: passed (DMB of %u bytes)", idev->name,
		    dmb.len);
	return 0;
fail:
	if (registered)
		rte_ism_dmb_unregister(id, dmb.token);
	return -EIO;
}
