/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef TEST_PKT_H
#define TEST_PKT_H

/*
 * Packets with a known content for the tests of the ring protocol
 * (tests/ism_ring) and of the ethdev (tests/net_ism): byte i of a packet
 * made with seed is a function of both, so a byte out of place, a lost
 * segment or another packet's data is seen.
 */

#include <stdint.h>

#include <rte_mbuf.h>

/*
 * A packet of len bytes from pool, in segments of at most seg bytes (and
 * of what an mbuf of the pool holds). NULL when the pool is empty.
 */
struct rte_mbuf *test_pkt_make(struct rte_mempool *pool, uint32_t len,
		uint32_t seg, uint32_t seed);

/*
 * TEST_SUCCESS if m holds the len bytes test_pkt_make() wrote for seed,
 * with a consistent segment chain; else TEST_FAILED, with a log line.
 */
int test_pkt_verify(const struct rte_mbuf *m, uint32_t len, uint32_t seed);

#endif /* TEST_PKT_H */
