/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * libFuzzer harness of the ring protocol's receive and transmit paths
 * (lib/ism_ring, compiled into the harness with -fsanitize=fuzzer,address,
 * undefined), the code that reads what a peer writes into our DMB. EAL
 * runs once, in memory, with two loopback ISM devices; each input sets up
 * a pair of rings (a sends into b's DMB, b gives credits back into a's)
 * and plays a script of steps: honest sends and receives, and writes of
 * a peer that may lie: producer cursors, descriptors, any bytes of b's
 * DMB, credits in a's DMB; reconnections, zero-copy mbufs held and freed
 * out of order.
 *
 * Whatever the peer writes, these must hold, else abort():
 * - every received mbuf is a consistent chain whose bytes lie in its
 *   buffer (attached ones inside b's slot area), of 1 byte to the ring's
 *   size;
 * - while the peer has written nothing but what a sent, the packets are
 *   a's, whole and in order;
 * - a broken protocol is counted at most once per connection, on each
 *   side;
 * - b's cursors stay within its ring: held slots at most nb_slots;
 * - at the end every mbuf is back in the pool, both rings free (0), and
 *   the rte_malloc heap as it was.
 *
 * The EAL file prefix comes from "--file-prefix NAME" in the arguments
 * (tests/lib/ism_eal.py puts it there), taken out before libFuzzer reads
 * its own.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_malloc.h>
#include <rte_mbuf.h>

#include <rte_ism.h>
#include <rte_ism_ring.h>

#include "ism_ring_private.h"

#define REQUIRE(c) do { \
	if (!(c)) { \
		fprintf(stderr, "fuzz_ism_ring: %s (line %d)\n", #c, \
			__LINE__); \
		abort(); \
	} \
} while (0)

#define NB_MBUFS	4096
#define MAX_HELD	64	/* zero-copy mbufs kept across steps */
#define MAX_SENT	1024	/* packets sent not yet received */
#define MAX_LEN		6000	/* longest packet a sends */

static struct rte_mempool *pool;
static uint16_t dev_a, dev_b;
static struct rte_ism_gid gid_a, gid_b;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer ends with exit(): close the devices first, so that what they
 * hold outside DPDK's heap (their wake-up interrupt instances) is not
 * reported as a leak by LeakSanitizer, whose check runs after this. */
static void
fuzz_teardown(void)
{
	rte_ism_dev_close(dev_b);
	rte_ism_dev_close(dev_a);
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char prefix[64];
	char *eal[] = {
		(*argv)[0], "-l", "0", "--no-huge", "-m", "256",
		"--no-shconf", "--no-pci", "--log-level", "lib.ism_ring:crit",
		"--vdev", "ism_lo0,gid=0xa", "--vdev", "ism_lo1,gid=0xb",
		"--file-prefix", prefix,
	};
	struct rte_ism_dev_info info;
	int i, j;

	snprintf(prefix, sizeof(prefix), "fuzz-ism-ring-%d", (int)getpid());
	for (i = 1; i + 1 < *argc; i++) {
		if (strcmp((*argv)[i], "--file-prefix") != 0)
			continue;
		snprintf(prefix, sizeof(prefix), "%s", (*argv)[i + 1]);
		for (j = i; j + 2 <= *argc; j++)
			(*argv)[j] = (*argv)[j + 2];
		*argc -= 2;
		break;
	}
	if (rte_eal_init(RTE_DIM(eal), eal) < 0) {
		fprintf(stderr, "fuzz_ism_ring: EAL init failed: %s\n",
			rte_strerror(rte_errno));
		exit(1);
	}
	dev_a = rte_ism_get_dev_id("ism_lo0");
	dev_b = rte_ism_get_dev_id("ism_lo1");
	REQUIRE(rte_ism_info_get(dev_a, &info) == 0);
	gid_a = info.gid;
	REQUIRE(rte_ism_info_get(dev_b, &info) == 0);
	gid_b = info.gid;
	pool = rte_pktmbuf_pool_create("fuzz_pool", NB_MBUFS, 0, 0,
			RTE_MBUF_DEFAULT_BUF_SIZE, SOCKET_ID_ANY);
	REQUIRE(pool != NULL);
	atexit(fuzz_teardown);
	return 0;
}

/* The script being played. */
struct script {
	const uint8_t *p;
	size_t left;
};

static uint32_t
take(struct script *s, unsigned int bytes)
{
	uint32_t v = 0;

	while (bytes-- > 0) {
		v = v << 8 | (s->left > 0 ? *s->p : 0);
		if (s->left > 0) {
			s->p++;
			s->left--;
		}
	}
	return v;
}

/* One input's state. */
struct run {
	struct rte_ism_ring *a, *b;
	struct rte_ism_ring_geom geom;	/* both rings' */
	bool tainted;		/* the peer wrote more than a sent */
	unsigned int connections;
	/* What a sent and b has not received: length and seed. */
	uint32_t sent_len[MAX_SENT], sent_seed[MAX_SENT];
	unsigned int sent_head, sent_n;
	uint32_t seed;
	struct rte_mbuf *held[MAX_HELD];
	unsigned int nb_held;
};

static uint8_t
pattern(uint32_t seed, uint32_t i)
{
	return (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

static void
connect_pair(struct run *u)
{
	rte_ism_ring_peer_clear(u->a);
	rte_ism_ring_peer_clear(u->b);
	REQUIRE(rte_ism_ring_peer_set(u->a, u->b->dmb.token, &u->geom) == 0);
	REQUIRE(rte_ism_ring_peer_set(u->b, u->a->dmb.token, &u->geom) == 0);
	REQUIRE(rte_ism_ring_announce(u->a) == 0);
	REQUIRE(rte_ism_ring_announce(u->b) == 0);
	REQUIRE(rte_ism_ring_tx_start(u->a, !u->b->poll_cursor) == 0);
	REQUIRE(rte_ism_ring_tx_start(u->b, !u->a->poll_cursor) == 0);
	u->connections++;
	u->tainted = false;
	u->sent_n = 0;
}

/* a sends n packets of lengths from the script, in 1 or 2 segments. */
static void
step_send(struct run *u, struct script *s)
{
	struct rte_mbuf *m[8];
	unsigned int n = 1 + take(s, 1) % 8, k, i;
	uint32_t len, seg, off;
	uint16_t taken;
	uint8_t *d;

	for (k = 0; k < n; k++) {
		len = 1 + take(s, 2) % MAX_LEN;
		seg = take(s, 1) & 1 ? 1 + len / 2 : len;
		m[k] = rte_pktmbuf_alloc(pool);
		REQUIRE(m[k] != NULL);
		for (off = 0; off < len; ) {
			struct rte_mbuf *t = m[k];
			uint32_t chunk = RTE_MIN(RTE_MIN(seg, len - off),
					(uint32_t)rte_pktmbuf_tailroom(t));

			if (off > 0) {
				t = rte_pktmbuf_alloc(pool);
				REQUIRE(t != NULL);
				chunk = RTE_MIN(RTE_MIN(seg, len - off),
					(uint32_t)rte_pktmbuf_tailroom(t));
				REQUIRE(rte_pktmbuf_chain(m[k], t) == 0);
			}
			d = (uint8_t *)rte_pktmbuf_append(t, chunk);
			REQUIRE(d != NULL);
			/* The chain's length counts in the head. */
			if (t != m[k])
				m[k]->pkt_len += chunk;
			for (i = 0; i < chunk; i++)
				d[i] = pattern(u->seed + k, off + i);
			off += chunk;
		}
	}
	taken = rte_ism_ring_send(u->a, m, n);
	REQUIRE(taken <= n);
	/* Taken: sent, or dropped for its length (a's limit: the ring). */
	for (k = 0; k < taken; k++) {
		uint32_t l = rte_pktmbuf_pkt_len(m[k]);

		if (l > u->geom.nb_slots * u->geom.slot_size)
			continue;
		if (u->sent_n < MAX_SENT) {
			unsigned int at = (u->sent_head + u->sent_n) % MAX_SENT;

			u->sent_len[at] = l;
			u->sent_seed[at] = u->seed + k;
			u->sent_n++;
		} else {
			u->tainted = true;	/* lost track: no checks */
		}
	}
	rte_pktmbuf_free_bulk(m + taken, n - taken);
	u->seed += n;
}

/* The rules of a received mbuf. */
static void
check_mbuf(const struct run *u, const struct rte_mbuf *m)
{
	const uint8_t *slots = u->b->rx_slots;
	const uint32_t ring = u->geom.nb_slots * u->geom.slot_size;
	const struct rte_mbuf *s;
	uint32_t sum = 0;
	uint16_t n = 0;

	REQUIRE(m->pkt_len >= 1 && m->pkt_len <= ring);
	for (s = m; s != NULL; s = s->next) {
		REQUIRE(++n <= m->nb_segs);
		REQUIRE((uint32_t)s->data_off + s->data_len <= s->buf_len);
		if (RTE_MBUF_HAS_EXTBUF(s)) {
			const uint8_t *b = s->buf_addr;

			REQUIRE(b >= slots && b + s->buf_len <= slots + ring);
		}
		sum += s->data_len;
	}
	REQUIRE(n == m->nb_segs);
	REQUIRE(sum == m->pkt_len);
}

/* b receives; what it gets is checked, freed or held. */
static void
step_recv(struct run *u, struct script *s)
{
	static uint8_t buf[MAX_LEN];
	struct rte_mbuf *m[RTE_ISM_RING_MAX_BURST];
	unsigned int want = 1 + take(s, 1) % RTE_ISM_RING_MAX_BURST;
	bool hold = take(s, 1) & 1;
	const uint8_t *p;
	uint16_t n, k;
	uint32_t i, len;

	n = rte_ism_ring_recv(u->b, m, want);
	REQUIRE(n <= want);
	for (k = 0; k < n; k++) {
		check_mbuf(u, m[k]);
		len = m[k]->pkt_len;
		if (!u->tainted) {
			REQUIRE(u->sent_n > 0);
			REQUIRE(len == u->sent_len[u->sent_head]);
			p = rte_pktmbuf_read(m[k], 0, len, buf);
			REQUIRE(p != NULL);
			for (i = 0; i < len; i++)
				REQUIRE(p[i] == pattern(
					u->sent_seed[u->sent_head], i));
			u->sent_head = (u->sent_head + 1) % MAX_SENT;
			u->sent_n--;
		} else if (len <= sizeof(buf)) {
			/* Every byte readable. */
			REQUIRE(rte_pktmbuf_read(m[k], 0, len, buf) != NULL);
		}
		if (hold && u->nb_held < MAX_HELD)
			u->held[u->nb_held++] = m[k];
		else
			rte_pktmbuf_free(m[k]);
	}
	REQUIRE(rte_ism_ring_rx_held(u->b) <= u->geom.nb_slots);
}

/* Free some held mbufs, from an index of the script (out of order). */
static void
step_free(struct run *u, struct script *s)
{
	unsigned int n = take(s, 1) % (MAX_HELD + 1), i;

	while (n-- > 0 && u->nb_held > 0) {
		i = take(s, 1) % u->nb_held;
		rte_pktmbuf_free(u->held[i]);
		u->held[i] = u->held[--u->nb_held];
	}
}

/* A value a lying peer would write: near base, near 2^32 (what wraps when
 * rounded up to slots), near the ring's size, or anything. */
static uint32_t
lie(struct script *s, uint32_t base, uint32_t ring)
{
	switch (take(s, 1) % 4) {
	case 0:
		return base + (int8_t)take(s, 1);
	case 1:
		return UINT32_MAX - take(s, 2) % 1024;
	case 2:
		return ring + (int8_t)take(s, 1);
	default:
		return take(s, 4);
	}
}

/* The peer writes into b's DMB: a producer cursor near b's, a descriptor
 * (mostly of the next packets), or any bytes; or into a's DMB: credits
 * near a's cursors. */
static void
step_peer(struct run *u, struct script *s)
{
	const uint32_t dmb_len = rte_ism_ring_dmb_len(&u->geom);
	uint8_t bytes[16];
	uint32_t v, off, len, i;

	switch (take(s, 1) % 5) {
	case 0:	/* a producer cursor, relative to b's next slot */
		v = lie(s, rte_atomic_load_explicit(&u->b->rx_next,
				rte_memory_order_relaxed) + take(s, 1) % 4,
			u->b->credit_sent + u->geom.nb_slots);
		REQUIRE(rte_ism_move_data(dev_a, u->b->dmb.token, 0, 1,
				RTE_ISM_RING_PROD_OFF, &v, sizeof(v)) == 0);
		break;
	case 1:	/* a descriptor's length */
		i = take(s, 1) & 1 ? u->b->rx_pkt + take(s, 1) % 4 :
			take(s, 2);
		i %= u->geom.nb_slots;
		v = lie(s, u->geom.slot_size,
			u->geom.nb_slots * u->geom.slot_size);
		REQUIRE(rte_ism_move_data(dev_a, u->b->dmb.token, 0, 0,
				RTE_ISM_RING_DESC_OFF +
				i * sizeof(struct rte_ism_ring_desc), &v,
				sizeof(v)) == 0);
		break;
	case 2:	/* any bytes of b's DMB */
		len = 1 + take(s, 1) % sizeof(bytes);
		off = take(s, 4) % (dmb_len - len + 1);
		for (i = 0; i < len; i++)
			bytes[i] = take(s, 1);
		REQUIRE(rte_ism_move_data(dev_a, u->b->dmb.token, 0, 1, off,
				bytes, len) == 0);
		break;
	case 3:	/* credits in a's DMB, relative to a's cursors */
		v = lie(s, u->a->tx_prod, u->a->tx_cons);
		REQUIRE(rte_ism_move_data(dev_b, u->a->dmb.token, 0, 0,
				RTE_ISM_RING_CREDIT_OFF, &v, sizeof(v)) == 0);
		break;
	default:	/* any bytes of a's credit line */
		len = 1 + take(s, 1) % 8;
		off = RTE_ISM_RING_CREDIT_OFF + take(s, 1) % (9 - len);
		for (i = 0; i < len; i++)
			bytes[i] = take(s, 1);
		REQUIRE(rte_ism_move_data(dev_b, u->a->dmb.token, 0, 0, off,
				bytes, len) == 0);
		break;
	}
	u->tainted = true;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct script s = { .p = data, .left = size };
	struct rte_malloc_socket_stats before, after;
	struct rte_ism_ring_conf c;
	struct rte_ism_ring_rx_stats rx;
	struct rte_ism_ring_tx_stats tx;
	unsigned int flags, steps = 0;
	static struct run u;

	if (size < 2)
		return 0;
	rte_malloc_get_socket_stats(0, &before);
	memset(&u, 0, sizeof(u));
	flags = take(&s, 1);
	u.geom.nb_slots = 16u << (flags & 3);
	u.geom.slot_size = 64u << ((flags >> 2) & 3);
	c = (struct rte_ism_ring_conf){
		.dev_id = dev_a, .port = 1, .peer = gid_b, .geom = u.geom,
		.pool = pool, .zero_copy = flags & 0x10,
		.poll_cursor = flags & 0x40,
	};
	u.a = rte_ism_ring_create(&c);
	c.dev_id = dev_b;
	c.peer = gid_a;
	c.zero_copy = flags & 0x20;
	u.b = rte_ism_ring_create(&c);
	REQUIRE(u.a != NULL && u.b != NULL);
	connect_pair(&u);
	while (s.left > 0 && steps++ < 200) {
		switch (take(&s, 1) % 8) {
		case 0:
		case 1:
			step_send(&u, &s);
			break;
		case 2:
		case 3:
			step_recv(&u, &s);
			break;
		case 4:
			step_free(&u, &s);
			break;
		case 5:
		case 6:
			step_peer(&u, &s);
			break;
		default:
			connect_pair(&u);
			break;
		}
		rte_ism_ring_stats_get(u.b, &rx, NULL);
		rte_ism_ring_stats_get(u.a, NULL, &tx);
		REQUIRE(rx.bad <= u.connections);
		REQUIRE(tx.bad <= u.connections);
	}
	while (u.nb_held > 0)
		rte_pktmbuf_free(u.held[--u.nb_held]);
	REQUIRE(rte_ism_ring_free(u.a) == 0);
	REQUIRE(rte_ism_ring_free(u.b) == 0);
	REQUIRE(rte_mempool_in_use_count(pool) == 0);
	rte_malloc_get_socket_stats(0, &after);
	REQUIRE(after.heap_allocsz_bytes == before.heap_allocsz_bytes);
	return 0;
}
