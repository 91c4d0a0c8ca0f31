/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#include <rte_common.h>

#include "test_assert.h"
#include "test_pkt.h"

static uint8_t
pattern(uint32_t seed, uint32_t i)
{
	return (uint8_t)(seed * 31 + i * 7 + (i >> 8));
}

struct rte_mbuf *
test_pkt_make(struct rte_mempool *pool, uint32_t len, uint32_t seg,
		uint32_t seed)
{
	struct rte_mbuf *head = NULL, *m, *prev = NULL;
	uint32_t off = 0, n, i;
	uint8_t *d;

	do {
		m = rte_pktmbuf_alloc(pool);
		if (m == NULL) {
			rte_pktmbuf_free(head);
			return NULL;
		}
		n = RTE_MIN(RTE_MIN(len - off, seg), rte_pktmbuf_tailroom(m));
		d = rte_pktmbuf_mtod(m, uint8_t *);
		for (i = 0; i < n; i++)
			d[i] = pattern(seed, off + i);
		m->data_len = n;
		off += n;
		if (head == NULL) {
			head = m;
		} else {
			prev->next = m;
			head->nb_segs++;
		}
		prev = m;
	} while (off < len);
	head->pkt_len = len;
	return head;
}

int
test_pkt_verify(const struct rte_mbuf *m, uint32_t len, uint32_t seed)
{
	const struct rte_mbuf *s;
	uint32_t off = 0, i, segs = 0;
	const uint8_t *d;

	TEST_ASSERT_EQUAL(rte_pktmbuf_pkt_len(m), len, "length %u, want %u",
			  rte_pktmbuf_pkt_len(m), len);
	for (s = m; s != NULL; s = s->next, segs++) {
		d = rte_pktmbuf_mtod(s, const uint8_t *);
		for (i = 0; i < s->data_len; i++)
			TEST_ASSERT_EQUAL(d[i], pattern(seed, off + i),
					  "byte %u of a %u-byte packet (seed "
					  "%u)", off + i, len, seed);
		off += s->data_len;
	}
	TEST_ASSERT_EQUAL(off, len, "segments hold %u bytes", off);
	TEST_ASSERT_EQUAL(segs, m->nb_segs, "nb_segs %u, chain %u",
			  m->nb_segs, segs);
	return TEST_SUCCESS;
}
