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
 * bit set. The header is left alone here (the hdr-* modes below write it).
 *
 * The other members must not crash or hang; tests/ivshm checks that they
 * go on, finish when released, and report the protocol errors they saw.
 *
 * --mode names one targeted attack instead, on the members --peers names
 * (the victim first, then the writer of one of its DMBs); each is a
 * disturbance after which the honest members must recover once the rogue
 * stops. The modes that last do so until the rogue is released (stdin
 * closed): the test orders the phases by the lines printed here.
 *   twin      a forged twin of the victim: its identity copied into a free
 *             slot, LIVE, with a heartbeat that advances until released
 *   state     the victim's state word overwritten with LIVE of the next
 *             epoch (it finds itself declared gone and joins again in
 *             another slot); once released, its old slot's state word,
 *             where its identity stayed, becomes LIVE again (a twin made
 *             by a state word alone)
 *   entry     the victim's DMB for the writer: token cleared and the
 *             index pushed into the victim's change ring (again and
 *             again, as the victim puts its ring back) until the writer
 *             has read that change, then, 2 ms later, the entry put back
 *             without a change
 *   entry-bad the same DMB made invalid (a length beyond any partition)
 *             and announced until the writer has read it, never put back
 *   ident     the victim's identity made invalid (no DMBs), and its
 *             heartbeat advanced, every millisecond until released (the
 *             test stalls the victim meanwhile: it looks alive to a
 *             joiner, with an identity it does not repair)
 *   beat      the victim's heartbeat advanced every millisecond until
 *             released (a replay: the test kills the victim meanwhile)
 *   hdr-zero  the header's magic and format_owner zeroed (as if nobody
 *             had formatted the region), once
 *   hdr-chid  the header's default CHID changed, once
 *   hdr-live  the header's liveness timeout set to the smallest one
 *             accepted, once
 *   resync    the victim's resync request for the writer's slot advanced
 *             every 100 us until released (the writer's device would
 *             take the victim up again at each change)
 * (The header modes write the header, which the rest of this program
 * leaves alone: the members write back the one they joined with.)
 */

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_bus_vdev.h>

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
put64(RTE_ATOMIC(uint64_t) *p, uint64_t v)
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
	      ism_sw_tok_make(slot, idx, rnd(s) & (ISM_SW_TOK_HORIZON - 1)));
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

/* The slot of the member of gid in state st (any state: IVSHM_ST_NB),
 * or -1. */
static int
find_member(struct scribbler *s, const struct rte_ism_gid *gid,
		unsigned int st)
{
	struct ivshm_member *m;
	unsigned int i;

	for (i = 0; i < s->l.members; i++) {
		m = ivshm_member(s->base, i);
		if (m->gid == gid->gid && m->gid_ext == gid->gid_ext &&
		    (st == IVSHM_ST_NB || ivshm_state_st(m->state) == st))
			return i;
	}
	return -1;
}

static void
sleep_ms(unsigned int ms)
{
	usleep(ms * 1000);
}

/* Until the test closes our stdin. */
static void
hold(void (*each)(struct scribbler *, void *), struct scribbler *s,
		void *arg)
{
	while (!released()) {
		each(s, arg);
		s->writes++;
	}
}

/* Advance the heartbeat of member arg, as its owner does each pass. */
static void
beat_for(struct scribbler *s __rte_unused, void *arg)
{
	struct ivshm_member *m = arg;

	put64(&m->beat, m->beat + 1);
	sleep_ms(1);
}

static int
attack_twin(struct scribbler *s, int v)
{
	struct ivshm_member *m = ivshm_member(s->base, v), *t;
	unsigned int i, st;

	for (i = 0; i < s->l.members; i++) {
		st = ivshm_state_st(ivshm_member(s->base, i)->state);
		if (st == IVSHM_ST_FREE || st == IVSHM_ST_DEAD)
			break;
	}
	if (i == s->l.members) {
		fail("no free slot for a twin");
		return 1;
	}
	t = ivshm_member(s->base, i);
	t->gid = m->gid;
	t->gid_ext = m->gid_ext;
	t->max_dmbs = m->max_dmbs;
	t->max_dmb_len = m->max_dmb_len;
	t->chid = m->chid;
	t->kind = m->kind;
	t->pid = m->pid;
	put64(&t->state, ivshm_state_make(ivshm_state_epoch(t->state) + 1,
			 IVSHM_ST_LIVE));
	say("SCRIBBLING twin of slot %d in slot %u", v, i);
	hold(beat_for, s, t);
	return 0;
}

static int
attack_state(struct scribbler *s, int v, const struct rte_ism_gid *gid)
{
	struct ivshm_member *m = ivshm_member(s->base, v);
	uint64_t w = m->state;
	unsigned int i;
	int now;

	put64(&m->state, ivshm_state_make(ivshm_state_epoch(w) + 1,
			 IVSHM_ST_LIVE));
	say("SCRIBBLING state of slot %d: 0x%" PRIx64, v, m->state);
	while (!released())
		sleep_ms(1);
	/* The victim is back, elsewhere (the test waited for it); once the
	 * incarnation we forged was declared gone, the old slot still holds
	 * the victim's identity. */
	for (i = 0; i < 30000 && ivshm_state_st(m->state) == IVSHM_ST_LIVE;
	     i++)
		sleep_ms(1);
	now = find_member(s, gid, IVSHM_ST_LIVE);
	if (now < 0 || now == v) {
		fail("the victim is not live in another slot (%d)", now);
		return 1;
	}
	w = m->state;
	put64(&m->state, ivshm_state_make(ivshm_state_epoch(w) + 1,
			 IVSHM_ST_LIVE));
	s->writes += 2;
	return 0;
}

/* The victim's DMB written by gid w; its entry, or NULL. */
static struct ivshm_ent *
find_entry(struct scribbler *s, int v, const struct rte_ism_gid *w)
{
	struct ivshm_ent *t = ivshm_table(s->base, &s->l, v);
	unsigned int idx;

	for (idx = IVSHM_IDX_FIRST; idx < IVSHM_NB_IDX; idx++)
		if (t[idx].token != 0 && t[idx].rgid == w->gid &&
		    t[idx].rgid_ext == w->gid_ext)
			return &t[idx];
	return NULL;
}

static int
attack_entry(struct scribbler *s, int v, const struct rte_ism_gid *w,
		bool bad)
{
	struct ivshm_ent *e = find_entry(s, v, w), saved;
	struct ivshm_member *m = ivshm_member(s->base, v), *wm;
	int ws = find_member(s, w, IVSHM_ST_LIVE);
	unsigned int idx, i;
	uint64_t h;

	if (e == NULL || ws < 0) {
		fail("no DMB of slot %d for a live writer", v);
		return 1;
	}
	wm = ivshm_member(s->base, ws);
	saved = *e;
	idx = e - ivshm_table(s->base, &s->l, v);
	h = m->chg_head;
	say("SCRIBBLING entry %u of slot %d, change %" PRIu64 " for slot %d",
	    idx, v, h + 1, ws);
	/* The victim writes its ring head back each control pass: until
	 * the writer says it has read our change. */
	for (i = 0; i < 10000 && wm->seen_chg[v] < h + 1; i++) {
		if (bad)
			e->len = UINT32_MAX;
		else
			put64(&e->token, 0);
		m->chg_idx[h % IVSHM_CHG_RING] = idx;
		put64(&m->chg_head, h + 1);
		s->writes += 2;
		usleep(100);
	}
	if (wm->seen_chg[v] < h + 1) {
		fail("the writer did not read the change in time");
		return 1;
	}
	if (!bad) {
		sleep_ms(2);
		e->rgid = saved.rgid;
		e->rgid_ext = saved.rgid_ext;
		e->off64 = saved.off64;
		e->len = saved.len;
		put64(&e->token, saved.token);
	}
	return 0;
}

static void
ident_bad(struct scribbler *s __rte_unused, void *arg)
{
	struct ivshm_member *m = arg;

	m->max_dmbs = 0;
	put64(&m->beat, m->beat + 1);
	sleep_ms(1);
}

/* A header field forged once (hdr-*): the header is left as the others
 * find it. Our device leaves the fabric first: only the others can write
 * the header back. */
static int
attack_header(struct scribbler *s, uint16_t dev, const char *what)
{
	struct ivshm_hdr *h = ivshm_hdr(s->base);
	struct rte_ism_dev_info info;

	if (rte_ism_info_get(dev, &info) < 0 ||
	    rte_vdev_uninit(info.name) < 0) {
		fail("cannot remove our device before the attack");
		return 1;
	}

	if (strcmp(what, "zero") == 0) {
		put64(&h->magic, 0);
		put64(&h->format_owner, 0);
	} else if (strcmp(what, "chid") == 0) {
		rte_atomic_store_explicit(&h->chid, (uint16_t)(h->chid + 1),
				rte_memory_order_release);
	} else if (strcmp(what, "live") == 0) {
		rte_atomic_store_explicit(&h->liveness_ms,
				IVSHM_MIN_LIVENESS_MS, rte_memory_order_release);
	} else {
		fail("unknown header attack %s", what);
		return 1;
	}
	s->writes++;
	say("SCRIBBLING header %s", what);
	return 0;
}

struct resync_target {
	struct ivshm_member *m;
	unsigned int slot;
};

/* Advance the victim's request that the member in slot take it up
 * again. */
static void
resync_bump(struct scribbler *s __rte_unused, void *arg)
{
	struct resync_target *t = arg;

	put64(&t->m->resync[t->slot], t->m->resync[t->slot] + 1);
	usleep(100);
}

static int
attack(struct scribbler *s, uint16_t dev, const struct peer_opts *o)
{
	int v = o->common.nb_peers > 0 ? find_member(s, &o->common.peers[0],
			IVSHM_ST_LIVE) : -1;
	struct resync_target rt;
	int ws;

	if (v < 0) {
		fail("no live member with the victim's GID");
		return 1;
	}
	if (strcmp(o->mode, "twin") == 0)
		return attack_twin(s, v);
	if (strcmp(o->mode, "state") == 0)
		return attack_state(s, v, &o->common.peers[0]);
	if ((strcmp(o->mode, "entry") == 0 ||
	     strcmp(o->mode, "entry-bad") == 0) && o->common.nb_peers > 1)
		return attack_entry(s, v, &o->common.peers[1],
				strcmp(o->mode, "entry-bad") == 0);
	if (strcmp(o->mode, "ident") == 0) {
		say("SCRIBBLING identity of slot %d", v);
		hold(ident_bad, s, ivshm_member(s->base, v));
		return 0;
	}
	if (strncmp(o->mode, "hdr-", 4) == 0)
		return attack_header(s, dev, o->mode + 4);
	if (strcmp(o->mode, "resync") == 0 && o->common.nb_peers > 1) {
		ws = find_member(s, &o->common.peers[1], IVSHM_ST_LIVE);
		if (ws < 0) {
			fail("no live member with the writer's GID");
			return 1;
		}
		rt.m = ivshm_member(s->base, v);
		rt.slot = ws;
		say("SCRIBBLING resync of slot %d for slot %d", v, ws);
		hold(resync_bump, s, &rt);
		return 0;
	}
	if (strcmp(o->mode, "beat") == 0) {
		say("SCRIBBLING heartbeat of slot %d", v);
		hold(beat_for, s, ivshm_member(s->base, v));
		return 0;
	}
	fail("unknown mode %s (or its --peers missing)", o->mode);
	return 1;
}

int
scribble_main(uint16_t dev, const struct peer_opts *o)
{
	struct scribbler s = { .seed = o->common.seed };
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
	ret = ism_ivshm_hdr_check((struct ivshm_hdr *)s.base, st.st_size, &s.l,
			&why);
	if (ret < 0) {
		fail("no fabric in the region: %d", ret);
		munmap(s.base, st.st_size);
		return 1;
	}
	if (strcmp(o->mode, "random") != 0) {
		ret = attack(&s, dev, o);
		say("SCRIBBLED %s writes %" PRIu64, o->mode, s.writes);
		munmap(s.base, st.st_size);
		return ret;
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
