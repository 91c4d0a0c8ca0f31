/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Statistics: one line per period (rates over the period), a summary at
 * exit. Gbit/s counts the bytes of the packets (L2 frame without FCS,
 * preamble and gap), like testpmd's throughput figures.
 */

#include <inttypes.h>
#include <stdio.h>

#include <rte_cycles.h>

#include "fwd.h"

void
stats_snap(struct stats_snap *s, const struct fwd_ctx *c, uint64_t now)
{
	s->tsc = now;
	rte_ism_ring_stats_get(c->ring, &s->rx, &s->tx);
	s->fwd = c->st;
}

static double
mpps(uint64_t pkts, double secs)
{
	return secs > 0 ? pkts / secs / 1e6 : 0;
}

static double
gbps(uint64_t bytes, double secs)
{
	return secs > 0 ? bytes * 8 / secs / 1e9 : 0;
}

#define D(field) (cur->field - prev->field)

void
stats_print_period(const struct stats_snap *prev, const struct stats_snap *cur,
		double since_start)
{
	double secs = (double)(cur->tsc - prev->tsc) / rte_get_tsc_hz();

	printf("[%7.1fs] ism-rx %.3f Mpps %.3f Gbit/s | ism-tx %.3f Mpps "
	       "%.3f Gbit/s | port rx %" PRIu64 " tx %" PRIu64
	       " | ring-full %" PRIu64 " port-full %" PRIu64
	       " no-mbuf %" PRIu64 " bad %" PRIu64 "\n",
	       since_start,
	       mpps(D(rx.pkts), secs), gbps(D(rx.bytes), secs),
	       mpps(D(tx.pkts), secs), gbps(D(tx.bytes), secs),
	       D(fwd.port_rx), D(fwd.port_tx),
	       D(tx.ring_full), D(fwd.port_full),
	       D(rx.no_mbuf) + D(fwd.gen_no_mbuf), D(rx.bad) + D(tx.bad));
	fflush(stdout);
}

void
stats_print_final(const struct stats_snap *prev, const struct stats_snap *cur,
		const struct fwd_ctx *c)
{
	double secs = (double)(cur->tsc - prev->tsc) / rte_get_tsc_hz();
	const struct rte_ism_ring_rx_stats *rx = &cur->rx;
	const struct rte_ism_ring_tx_stats *tx = &cur->tx;
	const struct fwd_stats *f = &cur->fwd;

	printf("ism_fwd totals over %.3f s:\n", secs);
	printf("  ism tx   %" PRIu64 " pkts %" PRIu64 " bytes in %" PRIu64
	       " bursts (%.3f Mpps, %.3f Gbit/s)\n", tx->pkts, tx->bytes,
	       tx->bursts, mpps(D(tx.pkts), secs),
	       gbps(D(tx.bytes), secs));
	/* Credit moves are the receiver's writes back to the sender: with
	 * the bursts they show how much the batching saves.
	 */
	printf("  ism rx   %" PRIu64 " pkts %" PRIu64 " bytes in %" PRIu64
	       " bursts, %" PRIu64 " credit moves (%.3f Mpps, %.3f Gbit/s)\n",
	       rx->pkts, rx->bytes, rx->bursts, rx->credit_moves,
	       mpps(D(rx.pkts), secs), gbps(D(rx.bytes), secs));
	if (c->has_port)
		printf("  port     rx %" PRIu64 " tx %" PRIu64 "\n",
		       f->port_rx, f->port_tx);
	if (f->gen_pkts != 0)
		printf("  generated %" PRIu64 "\n", f->gen_pkts);
	printf("  stalls   ring-full %" PRIu64 " port-full %" PRIu64
	       " rx-no-mbuf %" PRIu64 " gen-no-mbuf %" PRIu64 "\n",
	       tx->ring_full, f->port_full, rx->no_mbuf, f->gen_no_mbuf);
	printf("  drops    too-big %" PRIu64 " empty %" PRIu64
	       " peer-down %" PRIu64 " bad-slots %" PRIu64
	       " (protocol errors %" PRIu64 ", move errors %" PRIu64 ")\n",
	       tx->too_big, tx->empty, f->peer_down_drops,
	       rx->bad_slots, rx->bad + tx->bad,
	       rx->move_errors + tx->move_errors);
	if (c->conf->mode == FWD_LOOPBACK_CHECK)
		printf("  loopback-check ok %" PRIu64 " lost %" PRIu64
		       " corrupt %" PRIu64 " reordered %" PRIu64 " -> %s\n",
		       f->chk_ok, f->chk_lost, f->chk_corrupt,
		       f->chk_reordered,
		       fwd_exit_status(c) == 0 ? "PASS" : "FAIL");
	fflush(stdout);
}
