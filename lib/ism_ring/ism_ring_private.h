/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_RING_PRIVATE_H
#define ISM_RING_PRIVATE_H

/* What the files of librte_ism_ring share; not installed. */

#include <string.h>

#include <rte_log.h>
#include <rte_memcpy.h>
#include <ism_compat.h>

#include "rte_ism_ring.h"

extern int ism_ring_logtype;
#define RTE_LOGTYPE_ISM_RING ism_ring_logtype
#define RING_LOG(level, fmt, ...) \
	RTE_LOG_LINE(level, ISM_RING, fmt, ##__VA_ARGS__)

static inline volatile struct rte_ism_ring_credit *
ism_ring_own_credit(const struct rte_ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_CREDIT_OFF);
}

static inline uint32_t *
ism_ring_own_prod(const struct rte_ism_ring *r)
{
	return RTE_PTR_ADD(r->dmb.addr, RTE_ISM_RING_PROD_OFF);
}

/* Slots a packet of len bytes takes. */
static inline uint32_t
ism_ring_pkt_slots(uint32_t len, uint32_t shift)
{
	return (len + (1u << shift) - 1) >> shift;
}

/* Zero copy: packets up to this length are copied on receive, not
 * attached: attaching, and freeing through the external-buffer callback,
 * costs more instructions than copying a few cache lines. */
#define ISM_RING_ZC_COPY_MAX	256

/* glibc's memcpy (AVX, ERMS) beats the SSE rte_memcpy that pkg-config's
 * -march=corei7 selects once copies reach a few hundred bytes; below that
 * the inline copy saves a call. */
static __rte_always_inline void
ism_ring_copy(void *dst, const void *src, uint32_t len)
{
	if (len <= 256)
		rte_memcpy(dst, src, len);
	else
		memcpy(dst, src, len);
}

/* The 8 bytes at rearm_data of a fresh mbuf of a direct pool (data_off,
 * refcnt, nb_segs, port), as NIC drivers write them. */
static inline uint64_t
ism_ring_rearm_data(uint16_t port)
{
	struct rte_mbuf mb = { .data_off = RTE_PKTMBUF_HEADROOM };
	uint64_t v;

	rte_mbuf_refcnt_set(&mb, 1);
	mb.nb_segs = 1;
	mb.port = port;
	memcpy(&v, RTE_PTR_ADD(&mb, offsetof(struct rte_mbuf, rearm_data)),
	       sizeof(v));
	return v;
}

/* Zero copy: give back the slots of the mbufs freed in order (receive
 * side, under rx_lock or on the receiving thread). */
void ism_ring_zc_reclaim(struct rte_ism_ring *r);

#endif /* ISM_RING_PRIVATE_H */
