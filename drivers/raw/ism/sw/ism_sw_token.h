/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SW_TOKEN_H
#define ISM_SW_TOKEN_H

/*
 * DMB tokens of the software backends (loopback, shm). libc only: the shm
 * wire parser and its fuzz harness use it too.
 *
 *   63..58  owner's slot (loopback: device slot; shm: fabric slot)
 *   57..46  DMB index
 *   45..28  generation, high 18 bits
 *   27..23  zero
 *   22..20  generation, low 3 bits
 *   19..0   zero
 *
 * The zero bits are what the ISM move_data request encoding
 * (token | idx << 24 | sf << 23 | offset, Linux drivers/s390/net/ism.h)
 * needs for offsets below 1 MiB, the largest DMB of the ISM hardware; bits
 * 20-22 would only carry offsets of 1-8 MiB.
 *
 * The fast path decodes slot and index (two shifts and a mask) and compares
 * the whole token with the DMB's current one; the generation is never
 * decoded. It is what makes a stale token fail: each registration of an
 * index takes the next value of that index's counter, passed through a
 * keyed permutation of the 21 generation bits (a 4-round Feistel network
 * over 22 bits with a random key per device, walked back into 21 bits).
 * So a token of one index does not repeat within ISM_SW_TOK_HORIZON
 * registrations of that index (2^21 = 2097152), and a token cannot be
 * guessed from the earlier ones without the key. Not a cryptographic
 * guarantee: the round function is a 64-bit mixer, not a PRF, and 21 bits
 * can be searched; a writer that guesses a token still has to be the DMB's
 * rgid.
 */

#include <stdint.h>

#define ISM_SW_TOK_SLOT_SHIFT	58
#define ISM_SW_TOK_SLOT_BITS	6
#define ISM_SW_TOK_IDX_SHIFT	46
#define ISM_SW_TOK_IDX_MASK	0xfffu
#define ISM_SW_TOK_GEN_HI_SHIFT	28	/* generation bits 3..20 */
#define ISM_SW_TOK_GEN_LO_SHIFT	20	/* generation bits 0..2 */
#define ISM_SW_TOK_GEN_BITS	21
#define ISM_SW_TOK_HORIZON	(UINT32_C(1) << ISM_SW_TOK_GEN_BITS)
/* Bits that are zero in every token: 0-19 and 23-27. */
#define ISM_SW_TOK_ZERO_MASK	UINT64_C(0x0f8fffff)

/* Secret of the permutation: one 64-bit word per Feistel round. */
struct ism_sw_tok_key {
	uint64_t k[4];
};

static inline unsigned int
ism_sw_tok_slot(uint64_t token)
{
	return token >> ISM_SW_TOK_SLOT_SHIFT;
}

static inline unsigned int
ism_sw_tok_idx(uint64_t token)
{
	return (token >> ISM_SW_TOK_IDX_SHIFT) & ISM_SW_TOK_IDX_MASK;
}

/* A token from its fields; gen is a 21-bit (permuted) generation. */
static inline uint64_t
ism_sw_tok_make(unsigned int slot, unsigned int idx, uint32_t gen)
{
	return ((uint64_t)slot << ISM_SW_TOK_SLOT_SHIFT) |
		((uint64_t)(idx & ISM_SW_TOK_IDX_MASK) << ISM_SW_TOK_IDX_SHIFT) |
		((uint64_t)((gen >> 3) & 0x3ffff) << ISM_SW_TOK_GEN_HI_SHIFT) |
		((uint64_t)(gen & 7) << ISM_SW_TOK_GEN_LO_SHIFT);
}

/* splitmix64's finalizer: every input bit reaches every output bit. */
static inline uint64_t
ism_sw_tok_mix(uint64_t z)
{
	z ^= z >> 30;
	z *= UINT64_C(0xbf58476d1ce4e5b9);
	z ^= z >> 27;
	z *= UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/*
 * The generation of the ctr-th registration of index idx: a permutation of
 * [0, 2^21) for each (key, idx). Feistel rounds permute [0, 2^22); applying
 * them again while the value is outside [0, 2^21) ("cycle walking") keeps a
 * permutation of the smaller set (about two passes on average).
 */
static inline uint32_t
ism_sw_tok_gen(const struct ism_sw_tok_key *key, unsigned int idx,
		uint32_t ctr)
{
	uint32_t x = ctr & (ISM_SW_TOK_HORIZON - 1), l, r, t;
	unsigned int i;

	do {
		l = x >> 11;
		r = x & 0x7ff;
		for (i = 0; i < 4; i++) {
			t = l ^ (uint32_t)(ism_sw_tok_mix(key->k[i] ^
					   ((uint64_t)idx << 32) ^ r) & 0x7ff);
			l = r;
			r = t;
		}
		x = l << 11 | r;
	} while (x >= ISM_SW_TOK_HORIZON);
	return x;
}

#endif /* ISM_SW_TOKEN_H */
