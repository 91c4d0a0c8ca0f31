/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * A member that writes garbage over the shared tables of its region: what
 * any member of an ivshmem fabric can do, since it can write every byte.
 * It joins like the others (its device), maps the region file itself and,
 * --rounds times, writes either random bytes at a random place between the
 * header and the data area, or crafted values that look almost right:
 * state words (unknown states, LIVE of another epoch, DEAD), heartbeats,
 * the GID of another member, absurd limits, change rings running ahead or
 * back, DMB entries whose token names their slot and index but whose
 * offset or length leave the partition, requests of unknown types or for
 * the right epoch, answers, acknowledgements, and SBAs with every summary
 * bit set. The header is left alone (it is read once, at join: garbage
 * there only stops later joins, which say so).
 *
 * The other members must not crash or hang; tests/ivshm checks that they
 * go on, finish when released, and report the protocol errors they saw.
 */

#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ism_compat.h>

#include "ism_ivshm_layout.h"
#include "ivshm_peer.h"

struct scribbler {
	uint8_t *base;
	struct ivshm_layout l;
	uint64_t seed;
	uint64_t writes;
};

static uint64_t
rnd(struct scribbler *s)
{
	return fx_rand(&s->seed);
}

static void
put64(uint64_t *p, uint64_t v)
{
	rte_atomic_store_explicit(p, v, rte_memory_order_release);
}

static void
random_bytes(struct scribbler *s)
{
	uint64_t span = s->l.data_off - IVSHM_HDR_SIZE, off;
	uint32_t len = 1 + rnd(s) % 64, i;

	off = IVSHM_HDR_SIZE + rnd(s) % (span - len);
	for (i = 0; i < len; i++)
		s->base[off + i] = rnd(s);
}

static void
crafted_member(struct scribbler *s, struct ivshm_member *m,
		struct ivshm_member *other)
{
	unsigned int k = rnd(s) % 12, i = rnd(s) % IVSHM_MAX_MEMBERS;
	uint64_t w;

	switch (k) {
	case 0:
		put64(&m->state, rnd(s));
		break;
	case 1:
		w = rte_atomic_load_explicit(&m->state, rte_memory_order_relaxed);
		put64(&m->state, ivshm_state_make(ivshm_state_epoch(w) +
				  rnd(s) % 3, rnd(s) % IVSHM_ST_NB));
		break;
	case 2:
		put64(&m->beat, rnd(s));
		break;
	case 3:
		m->gid = other->gid;
		m->gid_ext = other->gid_ext;
		m->chid = other->chid;
		break;
	case 4:
		m->max_dmbs = rnd(s);
		m->max_dmb_len = rnd(s);
		break;
	case 5:
		put64(&m->chg_head, m->chg_head + rnd(s) % 200 - 100);
		break;
	case 6:
		m->chg_idx[i] = rnd(s);
		put64(&m->chg_head, m->chg_head + 1);
		break;
	case 7:
		put64(&m->view_epoch[i], rnd(s) % 4);
		put64(&m->pinned[i], rnd(s) % 4);
		break;
	case 8:
		put64(&m->seen_chg[i], rnd(s));
		break;
	case 9:
		m->req[i].type = rnd(s) % 6;
		m->req[i].arg = rnd(s);
		m->req[i].to_epoch = other->state >> 8;
		put64(&m->req[i].seq, ((m->state >> 8) << 32) | (rnd(s) & 0xff));
		break;
	case 10:
		m->ans[i].status = rnd(s);
		put64(&m->ans[i].seq, rnd(s) % 2 ? rnd(s) : m->ans[i].seq + 1);
		break;
	default:
		memset(m->reserved1, rnd(s), sizeof(m->reserved1));
		break;
	}
}

static void
crafted_entry(struct scribbler *s, unsigned int slot)
{
	struct ivshm_ent *t = (struct ivshm_ent *)(s->base + s->l.table_off +
			(size_t)slot * IVSHM_TABLE_SIZE);
	unsigned int idx = IVSHM_IDX_FIRST + rnd(s) % 64;
	struct ivshm_ent *e = &t[idx];

	e->rgid = rnd(s) % 2 ? 0 : rnd(s);
	e->rgid_ext = rnd(s);
	e->off64 = rnd(s) % 2 ? UINT32_MAX - rnd(s) % 4 : rnd(s);
	e->len = rnd(s) % 2 ? UINT32_MAX : rnd(s) % 4096;
	put64(&e->token, rnd(s) % 2 ? rnd(s) :
	      ivshm_tok_make(slot, idx, rnd(s)));
}

static void
crafted_sba(struct scribbler *s, unsigned int slot)
{
	uint64_t *sba = (uint64_t *)(s->base + s->l.sba_off +
			(size_t)slot * IVSHM_SBA_SIZE);

	sba[0] = UINT64_MAX;
	sba[1] = UINT64_MAX;
	sba[2 + rnd(s) % (IVSHM_SBA_SIZE / 8 - 2)] = rnd(s);
}

int
scribble_main(uint16_t dev __rte_unused, const struct peer_opts *o)
{
	struct scribbler s = { .seed = o->seed };
	const char *why = NULL;
	unsigned int slot, other;
	struct stat st;
	uint64_t r;
	int fd, ret;

	fd = open(o->region, O_RDWR | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fail("cannot open the region %s", o->region);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	s.base = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED,
			fd, 0);
	close(fd);
	if (s.base == MAP_FAILED) {
		fail("cannot map the region");
		return 1;
	}
	ret = ivshm_hdr_check((struct ivshm_hdr *)s.base, st.st_size, &s.l,
			&why);
	if (ret < 0) {
		fail("no fabric in the region: %d", ret);
		munmap(s.base, st.st_size);
		return 1;
	}
	for (r = 0; r < o->rounds; r++) {
		slot = rnd(&s) % s.l.members;
		other = rnd(&s) % s.l.members;
		switch (rnd(&s) % 4) {
		case 0:
			random_bytes(&s);
			break;
		case 1:
			crafted_member(&s, ivshm_member(s.base, slot),
				       ivshm_member(s.base, other));
			break;
		case 2:
			crafted_entry(&s, slot);
			break;
		default:
			crafted_sba(&s, slot);
			break;
		}
		s.writes++;
		/* Let the victims run (more processes than cores). */
		if (r % 16 == 0)
			usleep(100);
		else
			sched_yield();
	}
	say("SCRIBBLED rounds %" PRIu64 " writes %" PRIu64, o->rounds,
	    s.writes);
	munmap(s.base, st.st_size);
	return 0;
}
