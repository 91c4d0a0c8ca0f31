/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef RING_TEST_H
#define RING_TEST_H

/* What the test files of librte_ism_ring share (test_ism_ring.c has the
 * fixture: two loopback ISM devices of one process, an mbuf pool). They
 * use the API, and look at the ring's own fields (the library's private
 * header) where a test needs to see inside. */

#include <stdbool.h>
#include <stdio.h>

#include <rte_mbuf.h>

#include <rte_ism.h>
#include <rte_ism_ring.h>
/* The ring's fields, which these tests look at. */
#include <ism_ring_private.h>

#include "test_assert.h"
#include "test_pkt.h"

extern struct rte_mempool *pool;
extern uint16_t dev_a, dev_b;
extern struct rte_ism_gid gid_a, gid_b;
extern struct rte_ism_ring *ra, *rb;
extern const struct rte_ism_ring_geom geom_default;

/* Create *r (rte_ism_ring_create()): 0 or -rte_errno. */
int ring_init(struct rte_ism_ring **r, uint16_t dev,
		const struct rte_ism_gid *peer,
		const struct rte_ism_ring_geom *g, bool zc, bool poll_cursor);
/* rte_ism_ring_free(*r); *r = NULL once freed. */
int ring_fini(struct rte_ism_ring **r);
void pair_fini(void);
/* Drop the events earlier tests left in both devices' queues. */
void events_drain(void);

/* test_ism_ring_link.c */
int test_handshake(void);
int test_bad_hello(void);
int test_link_multi_ring(void);
int test_link_ring_mismatch(void);
int test_link_poll_cursor(void);
int test_link_protocol_error(void);
int test_link_extra_ring_told_once(void);
int test_link_violation_backoff(void);

/* test_ism_ring_handoff.c */
int test_handoff(void);
int test_quiesce(void);

/* test_ism_ring_removal.c */
int test_ring_removal(void);
int test_ring_removal_zc_held(void);

#endif /* RING_TEST_H */
