/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * rte_rawdev_selftest() of an ISM device: the device writes a DMB of its
 * own (it is its own rgid) through the client API and checks data, signal,
 * bounds and stale-token handling. Works for every backend. Meant for a
 * device no client uses: it polls the device's signals, all of them.
 */

#include <string.h>

#include <rte_rawdev.h>

#include "ism_pmd.h"

#define ST_CHECK(cond, fmt, ...) do { \
	if (!(cond)) { \
		ISM_PMD_LOG(ERR, "selftest %s: " fmt, name, ##__VA_ARGS__); \
		goto fail; \
	} \
} while (0)

int
ism_pmd_selftest(uint16_t rawdev_id)
{
	struct rte_ism_dev_info info;
	struct rte_rawdev_info ri = { .dev_private = &info };
	struct rte_ism_dmb dmb = { 0 };
	struct rte_ism_signal sig[4];
	uint8_t pattern[100];
	bool registered = false;
	const char *name;
	unsigned int i;
	int id, ret;

	ret = rte_rawdev_info_get(rawdev_id, &ri, sizeof(info));
	if (ret < 0)
		return ret;
	name = info.name;
	id = rte_ism_get_dev_id(name);
	ST_CHECK(id >= 0, "no ISM device behind rawdev %u", rawdev_id);
	ST_CHECK(info.started, "device not started");
	dmb.len = RTE_MIN(4096u, info.max_dmb_len);
	ST_CHECK(dmb.len >= 10 + sizeof(pattern),
		 "max_dmb_len %u is below the %zu bytes the test moves",
		 info.max_dmb_len, 10 + sizeof(pattern));

	dmb.rgid = info.gid;
	ret = rte_ism_dmb_register(id, &dmb);
	ST_CHECK(ret == 0, "register: %d", ret);
	registered = true;
	for (i = 0; i < sizeof(pattern); i++)
		pattern[i] = i * 7 + 1;
	ret = rte_ism_move_data(id, dmb.token, 3, 1, 10, pattern,
			sizeof(pattern));
	ST_CHECK(ret == 0, "move: %d", ret);
	ST_CHECK(memcmp((char *)dmb.addr + 10, pattern, sizeof(pattern)) == 0,
		 "data not in the DMB");
	ret = rte_ism_signal_poll(id, sig, RTE_DIM(sig));
	ST_CHECK(ret == 1 && sig[0].dmb_idx == dmb.idx &&
		 sig[0].mask == RTE_BIT32(3),
		 "signal poll returned %d (idx %u mask 0x%x)", ret,
		 sig[0].dmb_idx, sig[0].mask);
	ret = rte_ism_signal_poll(id, sig, RTE_DIM(sig));
	ST_CHECK(ret == 0, "signal reported twice (%d)", ret);
	ret = rte_ism_move_data(id, dmb.token, 0, 0, dmb.len - 1, pattern, 2);
	ST_CHECK(ret == -ERANGE, "move past the end: %d", ret);
	ret = rte_ism_move_data(id, dmb.token, 0, 0, 0, pattern, 0);
	ST_CHECK(ret == -EINVAL, "zero-length move: %d", ret);
	ret = rte_ism_dmb_unregister(id, dmb.token);
	registered = false;
	ST_CHECK(ret == 0, "unregister: %d", ret);
	ret = rte_ism_move_data(id, dmb.token, 0, 0, 0, pattern, 1);
	ST_CHECK(ret == -ENOENT, "move with a stale token: %d", ret);
	ISM_PMD_LOG(INFO, "selftest %s: passed", name);
	return 0;
fail:
	if (registered)
		rte_ism_dmb_unregister(id, dmb.token);
	return -1;
}
