/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Geometry of an ivshmem fabric region and the readers of what other
 * members wrote into it. libc only (the fuzz harness builds this file on
 * its own). Every shared field is loaded once (an atomic load, so the
 * compiler cannot load it twice) and checked before it is used.
 */

#include <errno.h>
#include <stdatomic.h>
#include <string.h>

#include <ism_compat.h>

#include "ism_ivshm_layout.h"

#define LOAD(p) rte_atomic_load_explicit(p, rte_memory_order_relaxed)

static uint64_t
round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

int
ism_ivshm_layout_compute(uint64_t size, uint32_t members,
		struct ivshm_layout *l)
{
	uint64_t end, part;

	if (members < IVSHM_MIN_MEMBERS || members > IVSHM_MAX_MEMBERS ||
	    size < IVSHM_MIN_REGION || size > IVSHM_MAX_REGION)
		return -EINVAL;
	memset(l, 0, sizeof(*l));
	l->size = size;
	l->version = IVSHM_VERSION;
	l->members = members;
	l->sba_off = IVSHM_MEMBER_OFF + (uint64_t)members * IVSHM_MEMBER_SIZE;
	l->table_off = l->sba_off + (uint64_t)members * IVSHM_SBA_SIZE;
	end = l->table_off + (uint64_t)members * IVSHM_TABLE_SIZE;
	l->data_off = round_up(end, IVSHM_PAGE);
	if (l->data_off >= size)
		return -EINVAL;
	part = (size - l->data_off) / members / IVSHM_PAGE * IVSHM_PAGE;
	if (part < IVSHM_MIN_PART)
		return -EINVAL;
	l->part_size = part;
	return 0;
}

int
ism_ivshm_hdr_check(const struct ivshm_hdr *h, uint64_t size,
		struct ivshm_layout *l, const char **why)
{
	uint64_t magic = rte_atomic_load_explicit(&h->magic, rte_memory_order_acquire);
	struct ivshm_layout want;
	uint32_t version, members;
	uint64_t rsize, data_off, part, owner;

	if (magic != IVSHM_MAGIC) {
		owner = LOAD(&h->format_owner);
		if (magic == 0 && owner != 0)
			return -EAGAIN;
		if (magic == 0)
			return -ENODATA;
		*why = "no ISM fabric header (magic), and not zero";
		return -EBADMSG;
	}
	version = LOAD(&h->version);
	members = LOAD(&h->members);
	rsize = LOAD(&h->region_size);
	data_off = LOAD(&h->data_off);
	part = LOAD(&h->part_size);
	if (version != IVSHM_VERSION) {
		*why = "fabric header of another version";
		l->version = version;
		return -EPROTONOSUPPORT;
	}
	if (rsize != size) {
		*why = "fabric header made for a region of another size";
		return -EBADMSG;
	}
	if (ism_ivshm_layout_compute(size, members, &want) != 0 ||
	    want.data_off != data_off || want.part_size != part) {
		*why = "fabric header with an impossible geometry";
		return -EBADMSG;
	}
	want.chid = LOAD(&h->chid);
	want.liveness_ms = LOAD(&h->liveness_ms);
	if (want.liveness_ms < IVSHM_MIN_LIVENESS_MS ||
	    want.liveness_ms > IVSHM_MAX_LIVENESS_MS) {
		*why = "fabric header with a liveness timeout out of range";
		return -EBADMSG;
	}
	want.fabric_id = LOAD(&h->fabric_id);
	want.format_owner = LOAD(&h->format_owner);
	*l = want;
	return 0;
}

void
ism_ivshm_hdr_write(struct ivshm_hdr *h, const struct ivshm_layout *l)
{
	rte_atomic_store_explicit(&h->version, IVSHM_VERSION, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->members, l->members, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->region_size, l->size, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->data_off, l->data_off, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->part_size, l->part_size, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->fabric_id, l->fabric_id, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->format_owner, l->format_owner,
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->chid, l->chid, rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->liveness_ms, l->liveness_ms,
			rte_memory_order_relaxed);
	rte_atomic_store_explicit(&h->magic, IVSHM_MAGIC, rte_memory_order_release);
}

bool
ism_ivshm_hdr_same(const struct ivshm_hdr *h, const struct ivshm_layout *l)
{
	return LOAD(&h->magic) == IVSHM_MAGIC &&
		LOAD(&h->version) == IVSHM_VERSION &&
		LOAD(&h->members) == l->members &&
		LOAD(&h->region_size) == l->size &&
		LOAD(&h->data_off) == l->data_off &&
		LOAD(&h->part_size) == l->part_size &&
		LOAD(&h->fabric_id) == l->fabric_id &&
		LOAD(&h->format_owner) == l->format_owner &&
		LOAD(&h->chid) == l->chid &&
		LOAD(&h->liveness_ms) == l->liveness_ms;
}

bool
ism_ivshm_layout_same(const struct ivshm_layout *a,
		const struct ivshm_layout *b)
{
	return a->size == b->size && a->version == b->version &&
		a->members == b->members && a->chid == b->chid &&
		a->liveness_ms == b->liveness_ms &&
		a->fabric_id == b->fabric_id && a->sba_off == b->sba_off &&
		a->table_off == b->table_off && a->data_off == b->data_off &&
		a->part_size == b->part_size &&
		a->format_owner == b->format_owner;
}

bool
ism_ivshm_liveness_disputed(const void *base, const struct ivshm_layout *l,
		unsigned int *slot, uint32_t *liveness_ms)
{
	const struct ivshm_member *m;
	unsigned int s;
	uint32_t v;
	uint64_t w;

	for (s = 0; s < l->members; s++) {
		m = ivshm_member((void *)(uintptr_t)base, s);
		if (!ism_ivshm_state_read(m, &w) ||
		    ivshm_state_st(w) != IVSHM_ST_LIVE)
			continue;
		v = LOAD(&m->liveness_ms);
		if (v != 0 && v != l->liveness_ms) {
			*slot = s;
			*liveness_ms = v;
			return true;
		}
	}
	return false;
}

bool
ism_ivshm_region_has_member(const void *base, uint64_t size,
		unsigned int *slot, uint64_t *word)
{
	unsigned int s, st, n;
	uint64_t w;

	if (size < IVSHM_MEMBER_OFF)
		return false;
	n = (size - IVSHM_MEMBER_OFF) / IVSHM_MEMBER_SIZE;
	if (n > IVSHM_MAX_MEMBERS)
		n = IVSHM_MAX_MEMBERS;
	for (s = 0; s < n; s++) {
		if (!ism_ivshm_state_read(ivshm_member((void *)(uintptr_t)base,
					s), &w))
			continue;
		st = ivshm_state_st(w);
		if (st == IVSHM_ST_JOINING || st == IVSHM_ST_LIVE ||
		    st == IVSHM_ST_LEAVING) {
			*slot = s;
			*word = w;
			return true;
		}
	}
	return false;
}

bool
ism_ivshm_state_read(const struct ivshm_member *m, uint64_t *word)
{
	uint64_t w = rte_atomic_load_explicit(&m->state, rte_memory_order_acquire);

	*word = w;
	return ivshm_state_st(w) < IVSHM_ST_NB;
}

int
ism_ivshm_ident_read(const struct ivshm_member *m, const struct ivshm_layout *l,
		struct ivshm_ident *id, const char **why)
{
	id->gid = LOAD(&m->gid);
	id->gid_ext = LOAD(&m->gid_ext);
	id->max_dmbs = LOAD(&m->max_dmbs);
	id->max_dmb_len = LOAD(&m->max_dmb_len);
	id->chid = LOAD(&m->chid);
	id->kind = LOAD(&m->kind);
	id->pid = LOAD(&m->pid);
	id->liveness_ms = LOAD(&m->liveness_ms);
	if (id->gid == 0 && id->gid_ext == 0) {
		*why = "zero GID";
		return -EBADMSG;
	}
	if (id->max_dmbs == 0 ||
	    id->max_dmbs > IVSHM_NB_IDX - IVSHM_IDX_FIRST) {
		*why = "DMB count out of range";
		return -EBADMSG;
	}
	if (id->max_dmb_len == 0 || id->max_dmb_len > l->part_size) {
		*why = "DMB length limit out of range";
		return -EBADMSG;
	}
	return 0;
}

int
ism_ivshm_ent_read(const struct ivshm_ent *table, const struct ivshm_layout *l,
		unsigned int slot, unsigned int idx,
		const struct ivshm_ident *owner, struct ivshm_dmb_view *v,
		const char **why)
{
	const struct ivshm_ent *e;
	uint64_t tok, off;

	if (idx < IVSHM_IDX_FIRST ||
	    idx - IVSHM_IDX_FIRST >= owner->max_dmbs) {
		*why = "DMB index out of the owner's range";
		return -EBADMSG;
	}
	e = &table[idx];
	/* Token first (acquire: the fields were written before it), then
	 * the fields, then the token again: a change meanwhile makes the
	 * entry unreadable now; its owner announces the change anyway.
	 */
	tok = rte_atomic_load_explicit(&e->token, rte_memory_order_acquire);
	if (tok == 0)
		return 0;
	v->token = tok;
	v->rgid = LOAD(&e->rgid);
	v->rgid_ext = LOAD(&e->rgid_ext);
	off = (uint64_t)LOAD(&e->off64) * IVSHM_DMB_ALIGN;
	v->len = LOAD(&e->len);
	atomic_thread_fence(memory_order_acquire);
	if (rte_atomic_load_explicit(&e->token, rte_memory_order_relaxed) != tok) {
		*why = "DMB entry changed while read";
		return -EBADMSG;
	}
	if ((tok & ISM_SW_TOK_ZERO_MASK) != 0 ||
	    ism_sw_tok_slot(tok) != slot || ism_sw_tok_idx(tok) != idx) {
		*why = "token does not name its slot and index";
		return -EBADMSG;
	}
	if (v->rgid == 0 && v->rgid_ext == 0) {
		*why = "DMB with a zero writer GID";
		return -EBADMSG;
	}
	if (v->len == 0 || v->len > owner->max_dmb_len ||
	    off > l->part_size || v->len > l->part_size - off) {
		*why = "DMB outside its owner's partition";
		return -EBADMSG;
	}
	v->off = off;
	return 1;
}

int
ism_ivshm_chg_read(const struct ivshm_member *m, uint64_t seen,
		uint32_t max_dmbs, uint16_t *idx, unsigned int *n,
		uint64_t *head, unsigned int *bad)
{
	uint64_t h = rte_atomic_load_explicit(&m->chg_head, rte_memory_order_acquire), i;
	uint16_t x;

	*n = 0;
	*head = h;
	if (h == seen)
		return 0;
	/* Behind by more than the ring holds, or a head that went back:
	 * the entries cannot tell what changed.
	 */
	if (h < seen || h - seen > IVSHM_CHG_RING)
		return 1;
	for (i = seen; i < h; i++) {
		x = LOAD(&m->chg_idx[i % IVSHM_CHG_RING]);
		if (x < IVSHM_IDX_FIRST ||
		    (uint32_t)x - IVSHM_IDX_FIRST >= max_dmbs) {
			(*bad)++;
			continue;
		}
		idx[(*n)++] = x;
	}
	/* The owner may have overwritten entries while we read them: if the
	 * head moved by more than the slack the ring keeps, rescan.
	 */
	atomic_thread_fence(memory_order_acquire);
	if (rte_atomic_load_explicit(&m->chg_head, rte_memory_order_relaxed) - seen >
	    IVSHM_CHG_RING)
		return 1;
	return 0;
}

int
ism_ivshm_req_read(const struct ivshm_member *sender, unsigned int to_slot,
		uint64_t from_epoch, uint64_t to_epoch, uint64_t last,
		struct ivshm_req *r, const char **why)
{
	const struct ivshm_req *q;
	uint64_t seq;

	if (to_slot >= IVSHM_MAX_MEMBERS)
		return 0;
	q = &sender->req[to_slot];
	seq = rte_atomic_load_explicit(&q->seq, rte_memory_order_acquire);
	if (seq == last || seq == 0)
		return 0;
	r->seq = seq;
	r->to_epoch = LOAD(&q->to_epoch);
	r->type = LOAD(&q->type);
	r->code = LOAD(&q->code);
	r->arg = LOAD(&q->arg);
	r->trigger = LOAD(&q->trigger);
	/* A request of an earlier incarnation, or for an earlier one of
	 * ours: not for us, and not answered.
	 */
	if ((seq >> 32) != (from_epoch & UINT32_MAX) ||
	    r->to_epoch != to_epoch)
		return 0;
	if (r->type == 0 || r->type >= IVSHM_REQ_NB) {
		*why = "request of an unknown type";
		return -EBADMSG;
	}
	return 1;
}
