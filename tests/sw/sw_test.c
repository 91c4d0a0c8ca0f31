/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * dpdk-ism-sw-test: regression tests of what the software backends
 * (ism_lo, ism_shm, ism_ivshm) share, in one process.
 *
 *   dpdk-ism-sw-test [EAL] -- codec
 *       The token codec (drivers/raw/ism/sw/ism_sw_token.h): for several
 *       indices and keys, the 2^21 generations of a horizon are distinct,
 *       every token has the bits the ISM move_data encoding needs clear,
 *       and slot and index decode.
 *   dpdk-ism-sw-test [EAL] -- tokens KIND ROUNDS
 *       (KIND: lo, shm, shm-self, ivshm, ivshm-self)
 *       One DMB index of an owner device registered and unregistered
 *       ROUNDS times for a writer device: no token repeats, and after
 *       each registration the writer tries the previous token and a
 *       random earlier one (a writer that has not yet seen the
 *       unregister): both fail with -ENOENT and write nothing; the
 *       current one works. shm-self: the writer is the owner itself,
 *       alone in its fabric (an shm registration for a peer waits for
 *       the peer's answer, two thread switches that cost up to a
 *       millisecond on a small VM: a million of them do not fit a test).
 *       ivshm: two devices of one process on one region file.
 *   dpdk-ism-sw-test [EAL] -- self-event lo|shm|ivshm
 *       A DMB whose rgid is its owner's own GID: unregistering it posts
 *       RTE_ISM_BUF_UNREGISTERED to the owner (rte_ism.h), attached or not.
 *
 * The shm devices use a fresh rendezvous directory (mkdtemp), which must
 * be empty at the end; the ivshm devices a region file there. Failed
 * assertions are logged (test_assert.h); prints PASS or FAIL at the end;
 * exit status 0 on pass.
 */

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_eal.h>
#include <rte_ism.h>
#include <rte_random.h>

#include "ism_sw_token.h"
#include "test_assert.h"

#define IDX		501	/* the index of the reproducer */
#define DMB_LEN		64
#define STALE_MARK	UINT64_C(0x5a5a5a5a5a5a5a5a)

enum kind { LO, SHM, IVSHM };

struct devs {
	enum kind kind;
	bool self;		/* one device, writing its own DMBs */
	char dir[64];
	int owner, writer;
	struct rte_ism_gid og, wg;
};

static const char *const dev_names[3][2] = {
	{ "ism_lo0", "ism_lo1" }, { "ism_shm0", "ism_shm1" },
	{ "ism_ivshm0", "ism_ivshm1" },
};

/* An ivshmem region of 8 MiB in the test's directory (ism_ivshm). */
#define IVSHM_REGION	"region"
#define IVSHM_SIZE	(8u << 20)

/* What devs_close() undoes, however far this got. */
static int
devs_open(struct devs *d, const char *kind)
{
	struct rte_ism_dev_info info;
	char args[160];
	int i, id[2];

	memset(d, 0, sizeof(*d));
	d->owner = d->writer = -1;
	d->self = strcmp(kind, "shm-self") == 0 ||
		strcmp(kind, "ivshm-self") == 0;
	d->kind = strncmp(kind, "shm", 3) == 0 ? SHM :
		strncmp(kind, "ivshm", 5) == 0 ? IVSHM : LO;
	TEST_ASSERT(d->kind != LO || strcmp(kind, "lo") == 0,
		    "unknown backend %s (lo, shm, shm-self, ivshm, "
		    "ivshm-self)", kind);
	if (d->kind != LO) {
		snprintf(d->dir, sizeof(d->dir), "/tmp/ism-sw-test-XXXXXX");
		if (mkdtemp(d->dir) == NULL)
			d->dir[0] = '\0';
		TEST_ASSERT(d->dir[0] != '\0', "mkdtemp: %s", strerror(errno));
	}
	for (i = 0; i < 2 - d->self; i++) {
		if (d->kind == SHM)
			snprintf(args, sizeof(args), "dir=%s,gid=0x5a%d",
				 d->dir, i + 1);
		else if (d->kind == IVSHM)
			snprintf(args, sizeof(args), "path=%s/%s,size=%u,"
				 "gid=0x5a%d", d->dir, IVSHM_REGION,
				 IVSHM_SIZE, i + 1);
		else
			snprintf(args, sizeof(args), "gid=0x5a%d", i + 1);
		TEST_ASSERT_SUCCESS(rte_vdev_init(dev_names[d->kind][i], args),
				    "cannot create %s", dev_names[d->kind][i]);
		id[i] = rte_ism_get_dev_id(dev_names[d->kind][i]);
		TEST_ASSERT(id[i] >= 0 && rte_ism_info_get(id[i], &info) == 0,
			    "no ISM device %s", dev_names[d->kind][i]);
		if (i == 0)
			d->og = info.gid;
		else
			d->wg = info.gid;
	}
	d->owner = id[0];
	d->writer = d->self ? id[0] : id[1];
	if (d->self)
		d->wg = d->og;
	return TEST_SUCCESS;
}

/* Remove the devices; the rendezvous directory must be left empty. */
static int
devs_close(struct devs *d)
{
	struct dirent *de;
	DIR *dp;
	int i, left = 0;

	char path[sizeof(d->dir) + sizeof(IVSHM_REGION) + 1];

	for (i = 0; i < 2 - d->self; i++)
		rte_vdev_uninit(dev_names[d->kind][i]);
	if (d->dir[0] == '\0')
		return TEST_SUCCESS;
	/* The region file stays (as QEMU's would): ours to remove. */
	snprintf(path, sizeof(path), "%s/%s", d->dir, IVSHM_REGION);
	if (d->kind == IVSHM)
		unlink(path);
	dp = opendir(d->dir);
	while (dp != NULL && (de = readdir(dp)) != NULL)
		if (de->d_name[0] != '.') {
			printf("left in %s: %s\n", d->dir, de->d_name);
			left++;
		}
	if (dp != NULL)
		closedir(dp);
	TEST_ASSERT_EQUAL(left, 0, "files left in %s", d->dir);
	TEST_ASSERT_SUCCESS(rmdir(d->dir), "rmdir %s: %s", d->dir,
			    strerror(errno));
	return TEST_SUCCESS;
}

/* The codec. */

static int
codec_one(const struct ism_sw_tok_key *key, unsigned int slot,
		unsigned int idx, uint8_t *seen)
{
	uint32_t ctr, gen;
	uint64_t tok;

	memset(seen, 0, ISM_SW_TOK_HORIZON / 8);
	for (ctr = 0; ctr < ISM_SW_TOK_HORIZON; ctr++) {
		gen = ism_sw_tok_gen(key, idx, ctr);
		TEST_ASSERT(gen < ISM_SW_TOK_HORIZON &&
			    !((seen[gen / 8] >> (gen % 8)) & 1),
			    "index %u: generation %u of registration %u is "
			    "out of range or repeats", idx, gen, ctr);
		seen[gen / 8] |= 1 << (gen % 8);
		tok = ism_sw_tok_make(slot, idx, gen);
		/* Bits 0-19 and 23-27: token | idx << 24 | sf << 23 |
		 * offset (< 1 MiB) must not collide. */
		TEST_ASSERT((tok & UINT64_C(0x0f8fffff)) == 0 &&
			    ism_sw_tok_slot(tok) == slot &&
			    ism_sw_tok_idx(tok) == idx,
			    "token 0x%016" PRIx64 " of slot %u index %u",
			    tok, slot, idx);
	}
	/* The horizon is where it starts over. */
	TEST_ASSERT_EQUAL(ism_sw_tok_gen(key, idx, ISM_SW_TOK_HORIZON),
			  ism_sw_tok_gen(key, idx, 0),
			  "no wrap at the horizon");
	return TEST_SUCCESS;
}

static int
test_codec(void)
{
	static const unsigned int idx[] = { 32, 501, 4095 };
	struct ism_sw_tok_key key[2];
	uint8_t *seen = malloc(ISM_SW_TOK_HORIZON / 8);
	unsigned int i, k, j, same = 0;
	int ret = TEST_SUCCESS;

	TEST_ASSERT_NOT_NULL(seen, "no memory");
	for (k = 0; k < RTE_DIM(key); k++)
		for (j = 0; j < RTE_DIM(key[k].k); j++)
			key[k].k[j] = rte_rand();
	for (k = 0; k < RTE_DIM(key) && ret == TEST_SUCCESS; k++)
		for (i = 0; i < RTE_DIM(idx) && ret == TEST_SUCCESS; i++)
			ret = codec_one(&key[k], k == 0 ? 0 : 63, idx[i], seen);
	free(seen);
	TEST_ASSERT_SUCCESS(ret, "codec");
	/* Another key, another sequence: the first 64 generations agree
	 * only by chance (2^-21 each). */
	for (i = 0; i < 64; i++)
		same += ism_sw_tok_gen(&key[0], IDX, i) ==
			ism_sw_tok_gen(&key[1], IDX, i);
	TEST_ASSERT(same <= 2, "%u of 64 generations equal under two keys",
		    same);
	return TEST_SUCCESS;
}

/* Tokens of one index, registered again and again. */

/* Open addressing over 64-bit tokens (never 0). */
struct tokset {
	uint64_t *slot;
	uint64_t mask;
};

/* Adds t; false if it was there already. */
static bool
tokset_add(struct tokset *s, uint64_t t)
{
	uint64_t h = (t * UINT64_C(0x9e3779b97f4a7c15)) >> 20;

	for (;; h++) {
		if (s->slot[h & s->mask] == t)
			return false;
		if (s->slot[h & s->mask] == 0) {
			s->slot[h & s->mask] = t;
			return true;
		}
	}
}

/* A writer with stale token t: refused, and nothing written. */
static int
stale_write(struct devs *d, const struct rte_ism_dmb *dmb, uint64_t t,
		uint32_t round)
{
	uint64_t mark = STALE_MARK, got;
	int ret;

	ret = rte_ism_move_data(d->writer, t, 0, 0, 0, &mark, sizeof(mark));
	memcpy(&got, dmb->addr, sizeof(got));
	TEST_ASSERT(ret == -ENOENT && got != STALE_MARK,
		    "round %u: stale token 0x%016" PRIx64 " (current 0x%016"
		    PRIx64 "): move returned %d%s", round, t, dmb->token, ret,
		    got == STALE_MARK ? " and wrote into the new DMB" : "");
	return TEST_SUCCESS;
}

/* rounds registrations of the index; all[] receives their tokens. */
static int
tokens_rounds(struct devs *d, const char *kind, struct tokset *set,
		uint64_t *all, uint32_t rounds)
{
	struct rte_ism_dmb dmb;
	uint32_t r;
	uint64_t v;
	bool fresh;

	for (r = 0; r < rounds; r++) {
		memset(&dmb, 0, sizeof(dmb));
		dmb.len = DMB_LEN;
		dmb.idx = IDX;
		dmb.rgid = d->wg;
		TEST_ASSERT_SUCCESS(rte_ism_dmb_register(d->owner, &dmb),
				    "round %u: register", r);
		all[r] = dmb.token;
		fresh = tokset_add(set, dmb.token);
		for (v = 0; !fresh && all[v] != dmb.token; v++)
			;
		/* What a writer still holding a repeated token would do. */
		if (!fresh)
			stale_write(d, &dmb, dmb.token, r);
		TEST_ASSERT(fresh, "round %u: token 0x%016" PRIx64 " issued "
			    "before, in round %" PRIu64, r, dmb.token, v);
		if (r > 0) {
			TEST_ASSERT_SUCCESS(stale_write(d, &dmb, all[r - 1], r),
					    "the previous token");
			TEST_ASSERT_SUCCESS(stale_write(d, &dmb,
					all[rte_rand_max(r)], r),
					"an earlier token");
		}
		v = r + 1;
		TEST_ASSERT(rte_ism_move_data(d->writer, dmb.token, 0, 0, 0,
					      &v, sizeof(v)) == 0 &&
			    memcmp(dmb.addr, &v, sizeof(v)) == 0,
			    "round %u: the current token does not write", r);
		TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(d->owner, dmb.token),
				    "round %u: unregister", r);
		if ((r + 1) % 100000 == 0) {
			printf("%s: %u rounds\n", kind, r + 1);
			fflush(stdout);
		}
	}
	return TEST_SUCCESS;
}

static int
test_tokens(const char *kind, uint32_t rounds)
{
	struct tokset set = { .mask = 1 };
	uint64_t *all = calloc(rounds, sizeof(*all));
	struct devs d = { .dir = "" };
	int ret = TEST_FAILED;

	while (set.mask < 2ULL * rounds)
		set.mask = set.mask * 2 + 1;
	set.slot = calloc(set.mask + 1, sizeof(*set.slot));
	if (all != NULL && set.slot != NULL &&
	    devs_open(&d, kind) == TEST_SUCCESS)
		ret = tokens_rounds(&d, kind, &set, all, rounds);
	if (devs_close(&d) != TEST_SUCCESS)
		ret = TEST_FAILED;
	free(set.slot);
	free(all);
	TEST_ASSERT_SUCCESS(ret, "%s: %u registrations of index %u", kind,
			    rounds, IDX);
	printf("%s: %u registrations of index %u: no token twice, no stale "
	       "write\n", kind, rounds, IDX);
	return TEST_SUCCESS;
}

/* rgid = the owner itself. */

/* The next BUF_UNREGISTERED event of the owner is the one of token. */
static int
expect_unregistered(struct devs *d, uint64_t token, const char *when)
{
	struct rte_ism_event ev;

	while (rte_ism_event_poll(d->owner, &ev, 1) == 1)
		if (ev.type == RTE_ISM_EVENT_BUF &&
		    ev.code == RTE_ISM_BUF_UNREGISTERED) {
			TEST_ASSERT(ev.token == token &&
				    rte_ism_gid_equal(&ev.gid, &d->og),
				    "%s: BUF_UNREGISTERED of token 0x%016"
				    PRIx64 " from another GID", when,
				    ev.token);
			return TEST_SUCCESS;
		}
	TEST_ASSERT(false, "%s: no RTE_ISM_BUF_UNREGISTERED for the owner's "
		    "own DMB", when);
	return TEST_FAILED;
}

static int
self_event(struct devs *d)
{
	struct rte_ism_dmb dmb, map;
	struct rte_ism_event ev;

	while (rte_ism_event_poll(d->owner, &ev, 1) == 1)
		;
	memset(&dmb, 0, sizeof(dmb));
	dmb.len = DMB_LEN;
	dmb.rgid = d->og;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(d->owner, &dmb), "register");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(d->owner, dmb.token),
			    "unregister");
	TEST_ASSERT_SUCCESS(expect_unregistered(d, dmb.token, "not attached"),
			    "event, not attached");
	/* Attached (nocopy): the event comes at unregister, the mapping
	 * lasts until detach. */
	memset(&dmb, 0, sizeof(dmb));
	dmb.len = DMB_LEN;
	dmb.rgid = d->og;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(d->owner, &dmb), "register");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_attach(d->owner, dmb.token, &map),
			    "attach");
	TEST_ASSERT_SUCCESS(rte_ism_dmb_unregister(d->owner, dmb.token),
			    "unregister while attached");
	TEST_ASSERT_SUCCESS(expect_unregistered(d, dmb.token, "attached"),
			    "event, attached");
	memset(map.addr, 1, map.len);
	TEST_ASSERT_SUCCESS(rte_ism_dmb_detach(d->owner, dmb.token),
			    "detach");
	return TEST_SUCCESS;
}

static int
test_self_event(const char *kind)
{
	struct devs d;
	int ret;

	ret = devs_open(&d, kind);
	if (ret == TEST_SUCCESS)
		ret = self_event(&d);
	if (devs_close(&d) != TEST_SUCCESS)
		ret = TEST_FAILED;
	TEST_ASSERT_SUCCESS(ret, "%s: own DMB unregistered", kind);
	printf("%s: own DMB unregistered: event posted\n", kind);
	return TEST_SUCCESS;
}

int
main(int argc, char **argv)
{
	int ret;

	ret = rte_eal_init(argc, argv);
	if (ret < 0) {
		printf("FAIL: EAL init\n");
		return 1;
	}
	argc -= ret;
	argv += ret;
	if (argc == 2 && strcmp(argv[1], "codec") == 0)
		ret = test_codec();
	else if (argc == 4 && strcmp(argv[1], "tokens") == 0)
		ret = test_tokens(argv[2], strtoul(argv[3], NULL, 0));
	else if (argc == 3 && strcmp(argv[1], "self-event") == 0)
		ret = test_self_event(argv[2]);
	else {
		printf("usage: %s [EAL] -- codec | tokens KIND ROUNDS | "
		       "self-event KIND (KIND: lo, shm, shm-self, ivshm, "
		       "ivshm-self)\n", argv[0]);
		ret = TEST_FAILED;
	}
	rte_eal_cleanup();
	printf("%s\n", ret == TEST_SUCCESS ? "PASS" : "FAIL");
	return ret == TEST_SUCCESS ? 0 : 1;
}
