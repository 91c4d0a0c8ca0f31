/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Forwarding modes, one call of fwd_iteration() per loop turn.
 *
 * Nothing is dropped for lack of room: packets the ring (or the port) does
 * not take stay queued and are offered again, and no new packets are
 * taken from the source meanwhile, so back-pressure reaches the port (a
 * NIC then drops in its own Rx queue and counts it) or the generator.
 *
 * txonly does what testpmd's txonly does per packet (allocate, write the
 * headers from a template, send, free), rxonly what testpmd's rxonly does
 * (receive into mbufs, free), so the comparison with memif is fair.
 */

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>
#include <rte_ether.h>
#include <rte_hash_crc.h>
#include <rte_ip.h>
#include <rte_udp.h>

#include "fwd.h"

struct pkt_hdr {
	struct rte_ether_hdr eth;
	struct rte_ipv4_hdr ip;
	struct rte_udp_hdr udp;
};

/*
 * loopback-check payload, right after the headers, unaligned: the sequence
 * number (8 bytes), then the CRC32C of the packet without this field (4
 * bytes). Copied field by field: no packed struct, whose macro differs
 * between DPDK versions.
 */
#define CHK_OFF		sizeof(struct pkt_hdr)
#define CHK_CSUM_OFF	(CHK_OFF + sizeof(uint64_t))
#define CHK_MIN		(CHK_CSUM_OFF + sizeof(uint32_t))
#define MAX_REPORTS	10	/* anomalies printed one by one */

static void
tmpl_init(struct fwd_ctx *c)
{
	struct pkt_hdr *h = (struct pkt_hdr *)c->tmpl;
	const struct rte_ether_addr src = {{ 0x02, 0, 0, 0, 0, 1 }};
	const struct rte_ether_addr dst = {{ 0x02, 0, 0, 0, 0, 2 }};

	RTE_BUILD_BUG_ON(sizeof(*h) != 42 || sizeof(*h) > sizeof(c->tmpl));
	memset(c->tmpl, 0, sizeof(c->tmpl));
	rte_ether_addr_copy(&src, &h->eth.src_addr);
	rte_ether_addr_copy(&dst, &h->eth.dst_addr);
	h->eth.ether_type = rte_cpu_to_be_16(RTE_ETHER_TYPE_IPV4);
	h->ip.version_ihl = RTE_IPV4_VHL_DEF;
	h->ip.time_to_live = 64;
	h->ip.next_proto_id = IPPROTO_UDP;
	/* 198.18.0.1 -> 198.18.0.2 (benchmarking range, RFC 2544) */
	h->ip.src_addr = rte_cpu_to_be_32(0xc6120001);
	h->ip.dst_addr = rte_cpu_to_be_32(0xc6120002);
	h->udp.src_port = rte_cpu_to_be_16(9);
	h->udp.dst_port = rte_cpu_to_be_16(9);
	/* Lengths and checksum for the most common size. */
	h->ip.total_length = rte_cpu_to_be_16(c->conf->pkt_min -
			sizeof(h->eth));
	h->udp.dgram_len = rte_cpu_to_be_16(c->conf->pkt_min - sizeof(h->eth) -
			sizeof(h->ip));
	h->ip.hdr_checksum = rte_ipv4_cksum(&h->ip);
}

static void
hdr_write(const struct fwd_ctx *c, void *dst, uint32_t size)
{
	struct pkt_hdr *h = dst;

	rte_memcpy(dst, c->tmpl, sizeof(*h));
	if (size == c->conf->pkt_min)
		return;
	h->ip.total_length = rte_cpu_to_be_16(size - sizeof(h->eth));
	h->udp.dgram_len = rte_cpu_to_be_16(size - sizeof(h->eth) -
			sizeof(h->ip));
	h->ip.hdr_checksum = 0;
	h->ip.hdr_checksum = rte_ipv4_cksum(&h->ip);
}

/* Size of packet seq: fixed, or spread over [pkt_min, pkt_max]. */
static uint32_t
pkt_size(const struct fwd_ctx *c, uint64_t seq)
{
	uint32_t span = c->conf->pkt_max - c->conf->pkt_min + 1;

	if (span == 1)
		return c->conf->pkt_min;
	return c->conf->pkt_min + (seq * 2654435761u) % span;
}

/* CRC32C of len bytes at any alignment (rte_hash_crc() loads words
 * straight from the buffer, which must then be aligned).
 */
static uint32_t
crc_add(const uint8_t *p, uint32_t len, uint32_t crc)
{
	uint64_t w;

	for (; len >= sizeof(w); len -= sizeof(w), p += sizeof(w)) {
		memcpy(&w, p, sizeof(w));
		crc = rte_hash_crc_8byte(w, crc);
	}
	for (; len > 0; len--, p++)
		crc = rte_hash_crc_1byte(*p, crc);
	return crc;
}

static uint32_t
chk_csum(const uint8_t *pkt, uint32_t size)
{
	uint32_t crc;

	crc = crc_add(pkt, CHK_CSUM_OFF, 0xffffffff);
	return crc_add(pkt + CHK_MIN, size - CHK_MIN, crc);
}

/* Payload of a loopback-check packet: sequence number, pseudo-random
 * bytes derived from it, checksum.
 */
static void
chk_fill(uint8_t *pkt, uint32_t size, uint64_t seq)
{
	uint64_t x = seq * 0x9e3779b97f4a7c15ull + 1;
	uint32_t off, csum;

	for (off = CHK_MIN; off < size; off += sizeof(x)) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(pkt + off, &x, RTE_MIN(sizeof(x), size - off));
	}
	memcpy(pkt + CHK_OFF, &seq, sizeof(seq));
	csum = chk_csum(pkt, size);
	memcpy(pkt + CHK_CSUM_OFF, &csum, sizeof(csum));
}

/* Make m a packet of size bytes, chaining mbufs as needed (data not
 * written). On failure the caller frees m with what was chained.
 */
static int
pkt_set_len(struct fwd_ctx *c, struct rte_mbuf *m, uint32_t size)
{
	struct rte_mbuf *prev = m, *s;
	uint32_t left;

	m->data_len = RTE_MIN(size, rte_pktmbuf_tailroom(m));
	m->pkt_len = size;
	left = size - m->data_len;
	while (left > 0) {
		s = rte_pktmbuf_alloc(c->pool);
		if (s == NULL)
			return -ENOMEM;
		s->data_len = RTE_MIN(left, rte_pktmbuf_tailroom(s));
		left -= s->data_len;
		prev->next = s;
		prev = s;
		m->nb_segs++;
	}
	return 0;
}

static int
gen_pkt(struct fwd_ctx *c, struct rte_mbuf *m, uint64_t seq)
{
	uint32_t size = pkt_size(c, seq);
	uint8_t buf[FWD_MAX_PKT];
	struct rte_mbuf *s;
	const uint8_t *p = buf;

	if (pkt_set_len(c, m, size) < 0)
		return -ENOMEM;
	if (c->conf->mode != FWD_LOOPBACK_CHECK) {
		hdr_write(c, rte_pktmbuf_mtod(m, void *), size);
		return 0;
	}
	hdr_write(c, buf, size);
	chk_fill(buf, size, seq);
	for (s = m; s != NULL; s = s->next) {
		rte_memcpy(rte_pktmbuf_mtod(s, void *), p, s->data_len);
		p += s->data_len;
	}
	return 0;
}

static uint16_t
gen_burst(struct fwd_ctx *c, struct rte_mbuf **pkts, uint16_t n)
{
	uint16_t i;

	if (c->conf->nb_pkts != 0)
		n = RTE_MIN(n, c->conf->nb_pkts - c->gen_seq);
	if (n == 0)
		return 0;
	if (rte_pktmbuf_alloc_bulk(c->pool, pkts, n) != 0) {
		c->st.gen_no_mbuf++;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (gen_pkt(c, pkts[i], c->gen_seq) < 0) {
			c->st.gen_no_mbuf++;
			rte_pktmbuf_free_bulk(&pkts[i], n - i);
			break;
		}
		c->gen_seq++;
	}
	c->st.gen_pkts += i;
	return i;
}

static void
chk_report(struct fwd_ctx *c, const char *what, uint64_t a, uint64_t b)
{
	uint64_t n = c->st.chk_lost + c->st.chk_corrupt + c->st.chk_reordered;

	if (n <= MAX_REPORTS)
		printf("ism_fwd: loopback-check: %s %" PRIu64 " (%" PRIu64
		       ")%s\n", what, a, b,
		       n == MAX_REPORTS ? "; not reporting more" : "");
}

static void
chk_verify(struct fwd_ctx *c, const struct rte_mbuf *m)
{
	uint32_t len = rte_pktmbuf_pkt_len(m);
	uint8_t buf[FWD_MAX_PKT];
	const uint8_t *p;
	uint32_t csum;
	uint64_t seq;

	if (len < CHK_MIN || len > FWD_MAX_PKT) {
		c->st.chk_corrupt++;
		chk_report(c, "corrupt packet: length", len, 0);
		return;
	}
	p = rte_pktmbuf_read(m, 0, len, buf);
	memcpy(&seq, p + CHK_OFF, sizeof(seq));
	memcpy(&csum, p + CHK_CSUM_OFF, sizeof(csum));
	if (chk_csum(p, len) != csum || len != pkt_size(c, seq)) {
		c->st.chk_corrupt++;
		chk_report(c, "corrupt packet: length (expected seq)", len,
			   c->chk_next);
		return;
	}
	if (seq < c->chk_next) {
		c->st.chk_reordered++;
		chk_report(c, "late or duplicate: seq (expected)", seq,
			   c->chk_next);
		return;
	}
	if (seq > c->chk_next) {
		c->st.chk_lost += seq - c->chk_next;
		chk_report(c, "lost packets: count (before seq)",
			   seq - c->chk_next, seq);
	}
	c->st.chk_ok++;
	c->chk_next = seq + 1;
}

/* Offer the queued packets to the ring. */
static void
queue_to_ism(struct fwd_ctx *c)
{
	struct pkt_queue *q = &c->to_ism;
	uint16_t sent;

	sent = rte_ism_ring_send(c->ring, &q->m[q->head], q->n);
	q->head += sent;
	q->n -= sent;
}

static void
port_to_ism(struct fwd_ctx *c)
{
	struct pkt_queue *q = &c->to_ism;

	if (!rte_ism_ring_tx_ready(c->ring))
		return;		/* leave packets in the port meanwhile */
	if (q->n == 0) {
		q->head = 0;
		q->n = rte_eth_rx_burst(c->conf->port, 0, q->m,
				c->conf->burst);
		c->st.port_rx += q->n;
	}
	if (q->n > 0)
		queue_to_ism(c);
}

static void
ism_to_port(struct fwd_ctx *c)
{
	struct pkt_queue *q = &c->to_port;
	uint16_t sent;

	if (q->n == 0) {
		q->head = 0;
		q->n = rte_ism_ring_recv(c->ring, q->m, c->conf->burst);
		if (q->n == 0)
			return;
	}
	sent = rte_eth_tx_burst(c->conf->port, 0, &q->m[q->head], q->n);
	c->st.port_tx += sent;
	c->st.delivered += sent;
	q->head += sent;
	q->n -= sent;
	if (q->n > 0)
		c->st.port_full++;
}

static void
gen_to_ism(struct fwd_ctx *c)
{
	struct pkt_queue *q = &c->to_ism;

	if (!rte_ism_ring_tx_ready(c->ring))
		return;
	if (q->n == 0) {
		q->head = 0;
		q->n = gen_burst(c, q->m, c->conf->burst);
	}
	if (q->n > 0) {
		queue_to_ism(c);
		if (c->conf->mode == FWD_LOOPBACK_CHECK)
			c->last_rx_tsc = rte_rdtsc();
	}
}

static void
ism_to_sink(struct fwd_ctx *c)
{
	struct rte_mbuf *m[RTE_ISM_RING_MAX_BURST];
	uint16_t n, i;

	n = rte_ism_ring_recv(c->ring, m, c->conf->burst);
	if (n == 0)
		return;
	if (c->conf->mode == FWD_LOOPBACK_CHECK) {
		for (i = 0; i < n; i++)
			chk_verify(c, m[i]);
		c->last_rx_tsc = rte_rdtsc();
	}
	c->st.delivered += n;
	rte_pktmbuf_free_bulk(m, n);
}

void
fwd_iteration(struct fwd_ctx *c)
{
	switch (c->conf->mode) {
	case FWD_IOFWD:
		port_to_ism(c);
		ism_to_port(c);
		break;
	case FWD_TXONLY:
		gen_to_ism(c);
		break;
	case FWD_RXONLY:
		ism_to_sink(c);
		break;
	case FWD_LOOPBACK_CHECK:
		gen_to_ism(c);
		ism_to_sink(c);
		break;
	}
}

void
fwd_ctx_init(struct fwd_ctx *c, const struct fwd_conf *conf,
		struct rte_ism_ring *ring, struct rte_mempool *pool, bool has_port)
{
	memset(c, 0, sizeof(*c));
	c->conf = conf;
	c->ring = ring;
	c->pool = pool;
	c->has_port = has_port;
	tmpl_init(c);
}

/* Packets waiting for a peer that went away are dropped and counted. */
void
fwd_peer_gone(struct fwd_ctx *c)
{
	struct pkt_queue *q = &c->to_ism;

	if (q->n > 0)
		rte_pktmbuf_free_bulk(&q->m[q->head], q->n);
	c->st.peer_down_drops += q->n;
	q->n = 0;
	q->head = 0;
}

bool
fwd_done(struct fwd_ctx *c, uint64_t now)
{
	const struct fwd_conf *conf = c->conf;

	if (conf->stop_after_rx != 0 && c->st.delivered >= conf->stop_after_rx)
		return true;
	if (conf->mode != FWD_LOOPBACK_CHECK || conf->nb_pkts == 0 ||
	    c->gen_seq < conf->nb_pkts || c->to_ism.n > 0)
		return false;
	/* All sent: done when all came back, or nothing came for a while. */
	return c->chk_next >= conf->nb_pkts ||
		now - c->last_rx_tsc > conf->drain_time * rte_get_tsc_hz();
}

/* At exit: give back queued mbufs; count what never came back. */
void
fwd_flush(struct fwd_ctx *c)
{
	struct pkt_queue *q = &c->to_port;

	fwd_peer_gone(c);
	if (q->n > 0)
		rte_pktmbuf_free_bulk(&q->m[q->head], q->n);
	q->n = 0;
	if (c->conf->mode == FWD_LOOPBACK_CHECK && c->chk_next < c->gen_seq) {
		c->st.chk_lost += c->gen_seq - c->chk_next;
		c->chk_next = c->gen_seq;
	}
}

/* 0, or 2 if loopback-check saw any loss, corruption or reordering. */
int
fwd_exit_status(const struct fwd_ctx *c)
{
	if (c->conf->mode != FWD_LOOPBACK_CHECK)
		return 0;
	if (c->st.chk_lost || c->st.chk_corrupt || c->st.chk_reordered ||
	    c->st.chk_ok == 0)
		return 2;
	return 0;
}
