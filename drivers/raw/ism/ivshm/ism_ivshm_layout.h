/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_IVSHM_LAYOUT_H
#define ISM_IVSHM_LAYOUT_H

/*
 * The layout of an ivshmem region that holds an ISM fabric, and the code
 * that reads what other members wrote there.
 *
 * Every member (a QEMU guest through its ivshmem BAR 2, a host process
 * through the backing file) can write every byte of the region, so nothing
 * read from it is trusted: each shared field is loaded once into a local
 * copy, checked, and only the copy is used. The geometry (header) is read
 * and checked at join; later the member uses its own copy, and writes it
 * back over the header if another member changed it. This file
 * and ism_ivshm_layout.c use only libc, so the fuzz harness builds them on
 * their own (tests/fuzz/fuzz_ivshm_tables.c).
 *
 *   offset 0           header (4 KiB): magic, version, geometry, CHID
 *   IVSHM_MEMBER_OFF   member areas, IVSHM_MEMBER_SIZE each: state word,
 *                      identity, heartbeat, change ring, acknowledgments,
 *                      request mailboxes and answers
 *   sba_off            one software SBA per member (struct ism_sw_sba)
 *   table_off          one DMB table per member, IVSHM_NB_IDX entries
 *   data_off           the data area: one partition per member slot, where
 *                      only that member places its DMBs
 *
 * A member writes only its own member area, SBA (polling), DMB table and
 * partition; the others raise signals in its SBA and move data into the
 * DMBs of its partition that they were registered for. Host byte order:
 * all members run on one host.
 *
 * Tokens are those of the other software backends (sw/ism_sw_token.h):
 * the owner's slot, the DMB index and a generation that does not repeat,
 * so a writer finds owner and index in O(1) and never mistakes an old
 * token for a new one.
 *
 * The version changes with anything a member of another version would
 * read differently; a region of another version is refused (its members
 * must all stop, and someone zero it, before another release uses it).
 *   1  first layout, random 18-bit token tags
 *   2  tokens of sw/ism_sw_token.h; resync requests in the member area
 *      (later in 2, in reserved bytes that were zero: the liveness timeout
 *      a member joined with, where 0 says nothing)
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ism_compat.h>

#include "ism_sw_token.h"

#define IVSHM_MAGIC		UINT64_C(0x31485356494d5349) /* "ISMIVSH1" */
#define IVSHM_VERSION		2

#define IVSHM_MAX_MEMBERS	64	/* fabric slots: 6 token bits */
#define IVSHM_MIN_MEMBERS	2
#define IVSHM_DEF_MEMBERS	16
#define IVSHM_IDX_FIRST		32	/* DMB indices 0..31 are reserved */
#define IVSHM_NB_IDX		4096	/* as the software SBA covers */
#define IVSHM_CHG_RING		64	/* recent DMB changes of a member */

#define IVSHM_HDR_SIZE		4096
#define IVSHM_MEMBER_OFF	IVSHM_HDR_SIZE
#define IVSHM_MEMBER_SIZE	8192
#define IVSHM_SBA_SIZE		8192	/* sizeof(struct ism_sw_sba) */
#define IVSHM_TABLE_SIZE	(IVSHM_NB_IDX * 32)
#define IVSHM_PAGE		4096
#define IVSHM_DMB_ALIGN		64	/* DMB offsets in 64-byte units */
#define IVSHM_MIN_PART		(64 * 1024)
/* Regions of 1 MiB .. 256 GiB (QEMU wants a power of two for a BAR). */
#define IVSHM_MIN_REGION	(UINT64_C(1) << 20)
#define IVSHM_MAX_REGION	(UINT64_C(1) << 38)	/* off64 is 32 bits */
/* Heartbeat timeout of a fabric (header), in milliseconds. */
#define IVSHM_MIN_LIVENESS_MS	20
#define IVSHM_MAX_LIVENESS_MS	60000

_Static_assert(IVSHM_MAX_MEMBERS == 1 << ISM_SW_TOK_SLOT_BITS,
	       "a token names every slot");
_Static_assert(IVSHM_NB_IDX == (ISM_SW_TOK_IDX_MASK + 1),
	       "a token names every DMB index");

/* Member state word: (epoch << 8) | state. The epoch grows by one at each
 * join of a slot, so a new incarnation is never taken for an old one.
 */
enum ivshm_state {
	IVSHM_ST_FREE = 0,	/* never used, or left cleanly */
	IVSHM_ST_JOINING,	/* claimed; checking its GID is unique */
	IVSHM_ST_LIVE,
	IVSHM_ST_LEAVING,	/* closing; the others retire it */
	IVSHM_ST_DEAD,		/* declared gone (no heartbeat) by a member */
	IVSHM_ST_NB
};

static inline uint64_t
ivshm_state_make(uint64_t epoch, enum ivshm_state st)
{
	return (epoch << 8) | st;
}

static inline uint64_t
ivshm_state_epoch(uint64_t w)
{
	return w >> 8;
}

static inline unsigned int
ivshm_state_st(uint64_t w)
{
	return w & 0xff;
}

struct ivshm_hdr {
	RTE_ATOMIC(uint64_t) magic;		/* written last by the member that formats */
	RTE_ATOMIC(uint32_t) version;
	RTE_ATOMIC(uint32_t) members;		/* slots */
	RTE_ATOMIC(uint64_t) region_size;
	RTE_ATOMIC(uint64_t) data_off;
	RTE_ATOMIC(uint64_t) part_size;		/* bytes of each member's partition */
	RTE_ATOMIC(uint64_t) fabric_id;		/* random, for logs */
	RTE_ATOMIC(uint64_t) format_owner;	/* nonce of the member formatting it */
	RTE_ATOMIC(uint16_t) chid;		/* default CHID of members */
	uint16_t reserved0;
	RTE_ATOMIC(uint32_t) liveness_ms;	/* heartbeat timeout of the fabric */
	uint8_t reserved[IVSHM_HDR_SIZE - 64];
};

/* A request from one member to another (rte_ism_signal_event(), nocopy
 * attach/detach), one outstanding per pair: the sender waits for the
 * answer before it writes the next.
 */
enum ivshm_req_type {
	IVSHM_REQ_EVENT = 1,
	IVSHM_REQ_ATTACH,
	IVSHM_REQ_DETACH,
	IVSHM_REQ_NB
};

struct ivshm_req {
	RTE_ATOMIC(uint64_t) seq;	/* (sender's epoch << 32) | counter; last */
	RTE_ATOMIC(uint64_t) to_epoch;	/* the receiver's epoch it is meant for */
	RTE_ATOMIC(uint32_t) type;
	RTE_ATOMIC(uint32_t) code;	/* EVENT */
	RTE_ATOMIC(uint64_t) arg;	/* EVENT: info; ATTACH/DETACH: token */
	RTE_ATOMIC(uint32_t) trigger;	/* EVENT */
	uint8_t reserved[28];
};

struct ivshm_ans {
	RTE_ATOMIC(uint64_t) seq;	/* of the request answered; written last */
	RTE_ATOMIC(int64_t) status;	/* 0 or -errno */
};

/* One member's area; only the owner writes it (others may CAS state). */
struct ivshm_member {
	/* Line 0: identity, written while JOINING. */
	RTE_ATOMIC(uint64_t) state;
	RTE_ATOMIC(uint64_t) gid;	/* struct rte_ism_gid */
	RTE_ATOMIC(uint64_t) gid_ext;
	RTE_ATOMIC(uint32_t) max_dmbs;
	RTE_ATOMIC(uint32_t) max_dmb_len;
	RTE_ATOMIC(uint16_t) chid;
	RTE_ATOMIC(uint8_t) kind;	/* IVSHM_KIND_*, for dumps */
	uint8_t reserved0;
	RTE_ATOMIC(uint32_t) pid;	/* for dumps */
	/* The header's liveness timeout the member joined with (0: not
	 * said), which a joiner checks the header against.
	 */
	RTE_ATOMIC(uint32_t) liveness_ms;
	uint8_t reserved1[20];
	/* Line 1: heartbeat, advanced by the member's control thread. */
	RTE_ATOMIC(uint64_t) beat;
	uint8_t reserved2[56];
	/* Lines 2-4: the DMB indices changed lately, chg_head in total. */
	RTE_ATOMIC(uint64_t) chg_head;
	RTE_ATOMIC(uint16_t) chg_idx[IVSHM_CHG_RING];
	uint8_t reserved3[56];
	/* What this member has done about slot s. */
	RTE_ATOMIC(uint64_t) view_epoch[IVSHM_MAX_MEMBERS];	/* s in its view, 0 none */
	RTE_ATOMIC(uint64_t) seen_chg[IVSHM_MAX_MEMBERS];	/* s's changes applied */
	/* s's memory it still maps */
	RTE_ATOMIC(uint64_t) pinned[IVSHM_MAX_MEMBERS];
	struct ivshm_req req[IVSHM_MAX_MEMBERS];	/* to s */
	struct ivshm_ans ans[IVSHM_MAX_MEMBERS];	/* to s's request */
	/* Times it asked s to take it up again (its client may have been
	 * misled about s by another member's writes); s does when this
	 * changes while it has this member in view.
	 */
	RTE_ATOMIC(uint64_t) resync[IVSHM_MAX_MEMBERS];
	uint8_t reserved4[IVSHM_MEMBER_SIZE - 320 - 3 * 512 - 4096 - 1024 -
			  512];
};

#define IVSHM_KIND_HOST		1	/* a process mapping the file */
#define IVSHM_KIND_PCI		2	/* a guest through vfio-pci */

/* A DMB table entry; token written last at register, cleared first at
 * unregister.
 */
struct ivshm_ent {
	RTE_ATOMIC(uint64_t) token;
	RTE_ATOMIC(uint64_t) rgid;	/* the one writer */
	RTE_ATOMIC(uint64_t) rgid_ext;
	RTE_ATOMIC(uint32_t) off64;	/* offset in the owner's partition / 64 */
	RTE_ATOMIC(uint32_t) len;
};

_Static_assert(sizeof(struct ivshm_hdr) == IVSHM_HDR_SIZE, "header");
_Static_assert(sizeof(struct ivshm_member) == IVSHM_MEMBER_SIZE, "member");
_Static_assert(sizeof(struct ivshm_req) == 64, "request");
_Static_assert(sizeof(struct ivshm_ent) * IVSHM_NB_IDX == IVSHM_TABLE_SIZE,
	       "table");
_Static_assert(offsetof(struct ivshm_member, beat) == 64, "beat line");
_Static_assert(offsetof(struct ivshm_member, chg_head) == 128, "ring line");
_Static_assert(offsetof(struct ivshm_member, view_epoch) == 320, "acks");

/* The geometry, as computed by this member (never read back). */
struct ivshm_layout {
	uint64_t size;
	uint32_t version;	/* IVSHM_VERSION, or the other one found */
	uint32_t members;
	uint16_t chid;
	RTE_ATOMIC(uint32_t) liveness_ms;
	uint64_t fabric_id;
	uint64_t sba_off;
	uint64_t table_off;
	uint64_t data_off;
	uint64_t part_size;
	uint64_t format_owner;	/* as the header holds it */
};

/* Geometry of a region of size bytes with this many slots; 0 or -EINVAL
 * (too small for partitions of IVSHM_MIN_PART, or out of range).
 */
int ism_ivshm_layout_compute(uint64_t size, uint32_t members,
		struct ivshm_layout *l);

static inline struct ivshm_hdr *
ivshm_hdr(void *base)
{
	return base;
}

static inline struct ivshm_member *
ivshm_member(void *base, unsigned int slot)
{
	return (struct ivshm_member *)((char *)base + IVSHM_MEMBER_OFF +
		(size_t)slot * IVSHM_MEMBER_SIZE);
}

static inline void *
ivshm_sba(void *base, const struct ivshm_layout *l, unsigned int slot)
{
	return (char *)base + l->sba_off + (size_t)slot * IVSHM_SBA_SIZE;
}

static inline struct ivshm_ent *
ivshm_table(void *base, const struct ivshm_layout *l, unsigned int slot)
{
	return (struct ivshm_ent *)((char *)base + l->table_off +
		(size_t)slot * IVSHM_TABLE_SIZE);
}

static inline void *
ivshm_part(void *base, const struct ivshm_layout *l, unsigned int slot)
{
	return (char *)base + l->data_off + (size_t)slot * l->part_size;
}

/*
 * Check the header of a region of size bytes: 0 and *l, -ENODATA (all
 * zero: nobody formatted it yet), -EAGAIN (being formatted: magic not yet
 * written, format_owner set), -EPROTONOSUPPORT (a fabric of another
 * layout version, l->version), or -EBADMSG with *why.
 */
int ism_ivshm_hdr_check(const struct ivshm_hdr *h, uint64_t size,
		struct ivshm_layout *l, const char **why);

/* Write a header for l (magic last): to format a region that is zero,
 * or to write back the header a member joined with.
 */
void ism_ivshm_hdr_write(struct ivshm_hdr *h, const struct ivshm_layout *l);

/* Does the header hold l (every field hdr_write() writes)? */
bool ism_ivshm_hdr_same(const struct ivshm_hdr *h, const struct ivshm_layout *l);

/* Do two checked headers say the same? */
bool ism_ivshm_layout_same(const struct ivshm_layout *a,
		const struct ivshm_layout *b);

/*
 * Does a LIVE member of the fabric of l (a checked header) say it joined
 * with another liveness timeout (its slot, and what it says)? Then the
 * header is not what the members use: it was written over.
 */
bool ism_ivshm_liveness_disputed(const void *base,
		const struct ivshm_layout *l, unsigned int *slot,
		uint32_t *liveness_ms);

/*
 * Is there a member in the region (of size bytes) whatever its header
 * says: a member area, at its fixed place, whose state word is JOINING,
 * LIVE or LEAVING? The slot of the first one and its state word; slots
 * beyond the geometry (unknown without a header) are read too, so what is
 * found there may be another table: only a region whose header was
 * zeroed under its members shows either.
 */
bool ism_ivshm_region_has_member(const void *base, uint64_t size,
		unsigned int *slot, uint64_t *word);

/* Load a member's state word; false if its state is not a known one. */
bool ism_ivshm_state_read(const struct ivshm_member *m, uint64_t *word);

/* A member's identity as it stands (checked: non-zero GID, limits). */
struct ivshm_ident {
	uint64_t gid;
	uint64_t gid_ext;
	uint32_t max_dmbs;	/* 1 .. IVSHM_NB_IDX - IVSHM_IDX_FIRST */
	uint32_t max_dmb_len;	/* 1 .. part_size */
	uint16_t chid;
	uint8_t kind;
	uint32_t pid;
	uint32_t liveness_ms;	/* as written: 0, or any value */
};
int ism_ivshm_ident_read(const struct ivshm_member *m,
		const struct ivshm_layout *l, struct ivshm_ident *id,
		const char **why);

/* A DMB of slot's table, as checked: where it is in the partition. */
struct ivshm_dmb_view {
	uint64_t token;
	uint64_t rgid;
	uint64_t rgid_ext;
	uint64_t off;		/* bytes from the partition start */
	uint32_t len;
};

/*
 * Read entry idx of slot's table (its owner has max_dmbs and max_dmb_len
 * as read from its identity): 1 and *v if it holds a DMB that fits the
 * owner's partition, 0 if empty, -EBADMSG (with *why) if it holds
 * something invalid or changed while it was read.
 */
int ism_ivshm_ent_read(const struct ivshm_ent *table,
		const struct ivshm_layout *l, unsigned int slot,
		unsigned int idx, const struct ivshm_ident *owner,
		struct ivshm_dmb_view *v, const char **why);

/*
 * The DMB indices a member changed since seen (its chg_head then): up to
 * IVSHM_CHG_RING valid indices into idx[] (*n), *head the new position.
 * Returns 0, or 1 when the ring cannot tell (too far behind, or a head
 * that went back): then the reader scans the whole table. Indices out of
 * range are dropped (counted in *bad).
 */
int ism_ivshm_chg_read(const struct ivshm_member *m, uint64_t seen,
		uint32_t max_dmbs, uint16_t *idx, unsigned int *n,
		uint64_t *head, unsigned int *bad);

/* A request of sender (whose epoch is from_epoch) to the member of epoch
 * to_epoch, read from the sender's req[to_slot]: 1 and *r if there is a
 * new valid one (seq differs from last), 0 if none, -EBADMSG if invalid
 * (then *r->seq is still set, to be answered with an error).
 */
int ism_ivshm_req_read(const struct ivshm_member *sender, unsigned int to_slot,
		uint64_t from_epoch, uint64_t to_epoch, uint64_t last,
		struct ivshm_req *r, const char **why);

#endif /* ISM_IVSHM_LAYOUT_H */
