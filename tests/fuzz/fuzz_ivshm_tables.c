/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * libFuzzer harness of the ivshmem backend's readers of the shared tables
 * (ism_ivshm_layout.c): the first code that sees what other members wrote
 * into the region, which any member may fill with anything. Built with
 * clang (-fsanitize=fuzzer,address,undefined) when meson option fuzz is
 * true.
 *
 * Each input starts from a valid fabric of two members in a 1 MiB region
 * (header, live members with identities, DMB entries, a change ring, a
 * request), so that every check is reachable without a corpus, then
 * patches it: records of (where, length, bytes), where being anywhere
 * before the data area, or a field of the header, of a member area or of
 * the first DMB entries of a table. Every reader then runs over every slot, index,
 * ring position and mailbox; whatever a reader accepts must satisfy the
 * rules restated here (a DMB inside its owner's partition, indices in
 * range, a geometry that fits the region); a violation aborts. ASan checks
 * that no reader goes outside the region.
 */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ism_ivshm_layout.h"

#define REQUIRE(c) do { if (!(c)) abort(); } while (0)
#define SIZE (1u << 20)
#define MEMBERS 2

static uint8_t *region;
static struct ivshm_layout lay;

static void
build_valid(void)
{
	struct ivshm_member *m;
	struct ivshm_ent *t;
	unsigned int s, i;

	memset(region, 0, SIZE);
	REQUIRE(ism_ivshm_layout_compute(SIZE, MEMBERS, &lay) == 0);
	lay.chid = 0xff42;
	lay.liveness_ms = 100;
	lay.fabric_id = 0x1234;
	ism_ivshm_hdr_write(ivshm_hdr(region), &lay);
	for (s = 0; s < MEMBERS; s++) {
		m = ivshm_member(region, s);
		m->state = ivshm_state_make(3, IVSHM_ST_LIVE);
		m->gid = 0x100 + s;
		m->max_dmbs = 64;
		m->max_dmb_len = 65536;
		m->chid = 0xff42;
		m->beat = 7;
		t = ivshm_table(region, &lay, s);
		for (i = 0; i < 4; i++) {
			t[IVSHM_IDX_FIRST + i].rgid = 0x100 + !s;
			t[IVSHM_IDX_FIRST + i].off64 = i * 16;
			t[IVSHM_IDX_FIRST + i].len = 1000;
			t[IVSHM_IDX_FIRST + i].token = ism_sw_tok_make(s,
					IVSHM_IDX_FIRST + i, 5 + i);
			m->chg_idx[i] = IVSHM_IDX_FIRST + i;
		}
		m->chg_head = 4;
		m->req[!s].to_epoch = 3;
		m->req[!s].type = IVSHM_REQ_EVENT;
		m->req[!s].seq = (UINT64_C(3) << 32) | 1;
	}
}

static void
check_entries(unsigned int s, const struct ivshm_ident *owner)
{
	const struct ivshm_ent *t = ivshm_table(region, &lay, s);
	struct ivshm_dmb_view v;
	const char *why = NULL;
	unsigned int idx;
	int ret;

	for (idx = 0; idx < IVSHM_NB_IDX; idx++) {
		ret = ism_ivshm_ent_read(t, &lay, s, idx, owner, &v, &why);
		REQUIRE(ret == 0 || ret == 1 || (ret == -EBADMSG && why));
		if (ret != 1)
			continue;
		REQUIRE(idx >= IVSHM_IDX_FIRST &&
			idx - IVSHM_IDX_FIRST < owner->max_dmbs);
		REQUIRE(ism_sw_tok_slot(v.token) == s);
		REQUIRE(ism_sw_tok_idx(v.token) == idx);
		REQUIRE((v.token & ISM_SW_TOK_ZERO_MASK) == 0);
		REQUIRE(v.len > 0 && v.len <= owner->max_dmb_len);
		REQUIRE(v.off % IVSHM_DMB_ALIGN == 0);
		REQUIRE(v.off + v.len <= lay.part_size);
		REQUIRE(lay.data_off + (uint64_t)s * lay.part_size + v.off +
			v.len <= SIZE);
		REQUIRE(v.rgid != 0 || v.rgid_ext != 0);
	}
}

static void
check_member(unsigned int s, uint64_t seen)
{
	const struct ivshm_member *m = ivshm_member(region, s);
	struct ivshm_ident id, def = { .gid = 1, .max_dmbs = 4064,
		.max_dmb_len = 65536 };
	uint16_t idx[IVSHM_CHG_RING];
	const char *why = NULL;
	unsigned int n, bad = 0, i, to;
	struct ivshm_req r;
	uint64_t w, head;
	bool ok;
	int ret;

	if (ism_ivshm_state_read(m, &w))
		REQUIRE(ivshm_state_st(w) < IVSHM_ST_NB);
	ret = ism_ivshm_ident_read(m, &lay, &id, &why);
	REQUIRE(ret == 0 || (ret == -EBADMSG && why));
	ok = ret == 0;
	if (ok) {
		REQUIRE(id.gid != 0 || id.gid_ext != 0);
		REQUIRE(id.max_dmbs >= 1 &&
			id.max_dmbs <= IVSHM_NB_IDX - IVSHM_IDX_FIRST);
		REQUIRE(id.max_dmb_len >= 1 && id.max_dmb_len <= lay.part_size);
	}
	/* A reader uses the identity it checked, or ignores the member. */
	check_entries(s, ok ? &id : &def);
	for (i = 0; i < 3; i++) {
		n = 0;
		ret = ism_ivshm_chg_read(m,
				i == 0 ? 0 : i == 1 ? seen : seen - 3,
				ok ? id.max_dmbs : def.max_dmbs, idx, &n,
				&head, &bad);
		REQUIRE(ret == 0 || ret == 1);
		REQUIRE(n <= IVSHM_CHG_RING);
		while (n-- > 0)
			REQUIRE(idx[n] >= IVSHM_IDX_FIRST &&
				idx[n] < IVSHM_NB_IDX);
	}
	for (to = 0; to < IVSHM_MAX_MEMBERS + 1; to++) {
		ret = ism_ivshm_req_read(m, to, 3, 3, 0, &r, &why);
		REQUIRE(ret == 0 || ret == 1 || (ret == -EBADMSG && why));
		if (ret == 1)
			REQUIRE(r.type > 0 && r.type < IVSHM_REQ_NB &&
				(r.seq >> 32) == 3 && r.to_epoch == 3);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ivshm_layout got;
	const char *why = NULL;
	uint64_t seen = 0, off, pos, w;
	size_t len;
	int ret;
	unsigned int s;

	if (region == NULL) {
		region = aligned_alloc(4096, SIZE);
		REQUIRE(region != NULL);
	}
	build_valid();
	if (size >= 2) {
		seen = data[0] | data[1] << 8;
		data += 2;
		size -= 2;
	}
	/* Records: a kind (what to hit; bit 2: which slot), 2 bytes of
	 * position in it, 1 byte length, the bytes. */
	while (size >= 4) {
		pos = data[1] | data[2] << 8;
		s = (data[0] >> 2) & 1;
		switch (data[0] & 3) {
		case 0:		/* anywhere before the data area */
			off = (pos * UINT64_C(7)) % lay.data_off;
			break;
		case 1:		/* the header's fields */
			off = pos % 64;
			break;
		case 2:		/* a member area */
			off = IVSHM_MEMBER_OFF + s * IVSHM_MEMBER_SIZE +
				pos % IVSHM_MEMBER_SIZE;
			break;
		default:	/* the first DMB entries of a table */
			off = lay.table_off + s * IVSHM_TABLE_SIZE +
				IVSHM_IDX_FIRST * sizeof(struct ivshm_ent) +
				pos % (64 * sizeof(struct ivshm_ent));
			break;
		}
		len = 1 + data[3] % 32;
		data += 4;
		size -= 4;
		if (len > size)
			len = size;
		if (off + len > lay.data_off)
			len = lay.data_off - off;
		memcpy(region + off, data, len);
		data += len;
		size -= len;
	}
	ret = ism_ivshm_hdr_check(ivshm_hdr(region), SIZE, &got, &why);
	REQUIRE(ret == 0 || ret == -ENODATA || ret == -EAGAIN ||
		(ret == -EPROTONOSUPPORT && got.version != IVSHM_VERSION) ||
		(ret == -EBADMSG && why));
	if (ret == 0) {
		REQUIRE(got.members >= IVSHM_MIN_MEMBERS &&
			got.members <= IVSHM_MAX_MEMBERS);
		REQUIRE(got.part_size >= IVSHM_MIN_PART);
		REQUIRE(got.data_off + got.members * got.part_size <= SIZE);
		REQUIRE(got.table_off + got.members * (uint64_t)IVSHM_TABLE_SIZE
			<= got.data_off);
		REQUIRE(got.liveness_ms >= IVSHM_MIN_LIVENESS_MS &&
			got.liveness_ms <= IVSHM_MAX_LIVENESS_MS);
		/* What a member keeps is what it writes back. */
		REQUIRE(ism_ivshm_hdr_same(ivshm_hdr(region), &got));
		REQUIRE(ism_ivshm_layout_same(&got, &got));
	}
	/* Whatever the header says: a member found is one of the slots that
	 * fit, in a state of a member. */
	if (ism_ivshm_region_has_member(region, SIZE, &s, &w))
		REQUIRE(s < IVSHM_MAX_MEMBERS &&
			IVSHM_MEMBER_OFF + (uint64_t)(s + 1) *
			IVSHM_MEMBER_SIZE <= SIZE &&
			ivshm_state_st(w) >= IVSHM_ST_JOINING &&
			ivshm_state_st(w) <= IVSHM_ST_LEAVING);
	/* Written back, a header reads as what was written. */
	ism_ivshm_hdr_write(ivshm_hdr(region), &lay);
	REQUIRE(ism_ivshm_hdr_check(ivshm_hdr(region), SIZE, &got, &why) ==
		0 && ism_ivshm_layout_same(&got, &lay));
	/* A member reads the others with the geometry it checked at join. */
	for (s = 0; s < MEMBERS; s++)
		check_member(s, seen);
	return 0;
}
