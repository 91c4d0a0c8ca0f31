/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The rte_ism API across the fabric, between two members (a guest and a
 * host process, or two host processes): the parts of the functional
 * suites that need a peer in another process or VM. The two roles go
 * step by step, each step announced with a software event (EV_API | n),
 * and each check prints "API <name> ok" or fails the run:
 *   reachability (query_remote_gid), moves with every documented error
 *   (bounds, length, element, writer, stale token), bursts, signals,
 *   nocopy attach/detach, unregister while attached (the event, the dead
 *   token, the memory kept until detach, the index busy until then), a
 *   DMB of the client written by the server, BUF and DEV events when the
 *   client leaves, the statistics.
 */

#include <stdlib.h>
#include <string.h>

#include "ivshm_peer.h"

#define LOG_MAX		256

struct api {
	uint16_t dev;
	uint64_t step_ns;	/* a step's deadline (--deadline): only stops
				 * a hang; a TCG guest may take minutes to
				 * boot and join */
	struct rte_ism_gid peer;
	struct rte_ism_gid stranger;
	struct rte_ism_event log[LOG_MAX];	/* events not taken yet */
	unsigned int nb_log;
	int failed;
};

#define CHECK(a, name, cond, fmt, ...) do { \
	if (cond) { \
		say("API %s ok", name); \
	} else { \
		fail("API %s: " fmt, name, ##__VA_ARGS__); \
		(a)->failed = 1; \
		return -1; \
	} \
} while (0)

#define CHECK_RET(a, name, expr, want) do { \
	int r_ = (expr); \
	CHECK(a, name, r_ == (want), "%s returned %d, want %d", #expr, r_, \
	      (want)); \
} while (0)

static void
collect(struct api *a)
{
	while (a->nb_log < LOG_MAX &&
	       rte_ism_event_poll(a->dev, &a->log[a->nb_log], 1) == 1)
		a->nb_log++;
}

/* Take the first logged event matching (type, code, token if non-zero),
 * waiting for it: 0, or -ETIMEDOUT. */
static int
take(struct api *a, uint32_t type, uint32_t code, uint64_t token,
		struct rte_ism_event *out)
{
	uint64_t end = now_ns() + a->step_ns;
	unsigned int i, spins = 0;

	do {
		collect(a);
		for (i = 0; i < a->nb_log; i++) {
			if (a->log[i].type != type || a->log[i].code != code ||
			    (token != 0 && a->log[i].token != token))
				continue;
			if (out != NULL)
				*out = a->log[i];
			memmove(&a->log[i], &a->log[i + 1],
				(a->nb_log - i - 1) * sizeof(a->log[0]));
			a->nb_log--;
			return 0;
		}
		idle(&spins);
	} while (now_ns() < end);
	return -ETIMEDOUT;
}

/* The peer's step n; its info. */
static int
step_in(struct api *a, unsigned int n, uint64_t *info)
{
	struct rte_ism_event ev;

	if (take(a, RTE_ISM_EVENT_SW, EV_API | n, 0, &ev) < 0) {
		fail("API: no step %u from the peer", n);
		a->failed = 1;
		return -1;
	}
	if (info != NULL)
		*info = ev.info;
	return 0;
}

static int
step_out(struct api *a, unsigned int n, uint64_t info)
{
	int ret = rte_ism_signal_event(a->dev, &a->peer, 1, EV_API | n, info);

	if (ret < 0) {
		fail("API: step %u not delivered: %d", n, ret);
		a->failed = 1;
	}
	return ret;
}

/* Poll until the signals of DMB idx covered mask. */
static int
signals(struct api *a, uint32_t idx, uint16_t mask)
{
	uint64_t end = now_ns() + a->step_ns;
	struct rte_ism_signal sig[8];
	unsigned int spins = 0;
	uint16_t seen = 0;
	int i, n;

	while (seen != mask && now_ns() < end) {
		n = rte_ism_signal_poll(a->dev, sig, RTE_DIM(sig));
		for (i = 0; i < n; i++)
			if (sig[i].dmb_idx == idx)
				seen |= sig[i].mask;
		if (n <= 0)
			idle(&spins);
	}
	return seen == mask ? 0 : -ETIMEDOUT;
}

static int
reg(struct api *a, uint32_t len, const struct rte_ism_gid *rgid,
		uint32_t idx, struct rte_ism_dmb *d)
{
	memset(d, 0, sizeof(*d));
	d->len = len;
	d->rgid = *rgid;
	d->idx = idx;
	return rte_ism_dmb_register(a->dev, d);
}

/* Bytes the client writes into D1, also kept in a shadow to checksum. */
static void
pattern(uint8_t *p, size_t len, uint8_t seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

static int
server(struct api *a)
{
	struct rte_ism_dmb d1, d2, d3, e;
	struct rte_ism_event ev;
	const char msg[] = "server-to-client";
	uint64_t crc, dc;

	CHECK(a, "peer_up", take(a, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ENABLED, 0,
				 &ev) == 0 && rte_ism_gid_equal(&ev.gid,
				 &a->peer), "no DEV_ENABLED of the client");
	CHECK_RET(a, "query_peer", rte_ism_query_remote_gid(a->dev, &a->peer,
				 0, 0), 0);
	CHECK_RET(a, "query_stranger", rte_ism_query_remote_gid(a->dev,
				 &a->stranger, 0, 0), -ENETUNREACH);
	CHECK_RET(a, "query_vlan", rte_ism_query_remote_gid(a->dev, &a->peer,
				 1, 5), -ENETUNREACH);
	CHECK_RET(a, "register", reg(a, 65536, &a->peer, 0, &d1), 0);
	CHECK_RET(a, "register_other", reg(a, 4096, &a->stranger, 0, &d2), 0);
	if (step_out(a, 1, d1.token) < 0 || step_out(a, 2, d2.token) < 0 ||
	    step_in(a, 3, &crc) < 0)
		return -1;
	CHECK(a, "signals", signals(a, d1.idx, RTE_BIT32(3) | RTE_BIT32(5))
	      == 0, "elements 3 and 5 of DMB %u not signalled", d1.idx);
	CHECK(a, "data", fx_crc(d1.addr, d1.len) == crc,
	      "the DMB does not hold what the client wrote");
	if (step_out(a, 4, 1) < 0)
		return -1;

	/* Unregister while the client has it attached. */
	CHECK_RET(a, "register_d3", reg(a, 4096, &a->peer, 0, &d3), 0);
	if (step_out(a, 5, d3.token) < 0 || step_in(a, 6, NULL) < 0)
		return -1;
	CHECK_RET(a, "unregister_attached", rte_ism_dmb_unregister(a->dev,
				 d3.token), 0);
	CHECK_RET(a, "unregister_twice", rte_ism_dmb_unregister(a->dev,
				 d3.token), -ENOENT);
	CHECK_RET(a, "index_busy_until_detach", reg(a, 4096, &a->peer, d3.idx,
				 &e), -EBUSY);
	if (step_out(a, 7, 0) < 0 || step_in(a, 8, NULL) < 0)
		return -1;
	CHECK_RET(a, "index_free_after_detach", reg(a, 4096, &a->peer, d3.idx,
				 &e), 0);
	CHECK_RET(a, "unregister_again", rte_ism_dmb_unregister(a->dev,
				 e.token), 0);

	/* The client's DMB, which we may write. */
	if (step_in(a, 9, &dc) < 0)
		return -1;
	CHECK_RET(a, "move_to_client", rte_ism_move_data(a->dev, dc, 7, 1, 100,
				 msg, sizeof(msg)), 0);
	CHECK_RET(a, "move_to_client_range", rte_ism_move_data(a->dev, dc, 0,
				 0, 4095, msg, 2), -ERANGE);
	if (step_out(a, 10, 0) < 0 || step_in(a, 11, NULL) < 0)
		return -1;
	CHECK(a, "buf_unregistered", take(a, RTE_ISM_EVENT_BUF,
	      RTE_ISM_BUF_UNREGISTERED, dc, &ev) == 0 &&
	      rte_ism_gid_equal(&ev.gid, &a->peer),
	      "no BUF_UNREGISTERED event for the client's DMB");
	CHECK_RET(a, "move_stale", rte_ism_move_data(a->dev, dc, 0, 0, 0, msg,
				 1), -ENOENT);

	/* The client leaves: our DMB for it is reported, then the device;
	 * the DMB stays ours. */
	if (step_out(a, 12, 0) < 0)
		return -1;
	CHECK(a, "user_disabled", take(a, RTE_ISM_EVENT_BUF,
	      RTE_ISM_BUF_USER_DISABLED, d1.token, NULL) == 0,
	      "no BUF_USER_DISABLED for our DMB of the client");
	CHECK(a, "peer_gone", take(a, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_DISABLED,
	      0, &ev) == 0 && rte_ism_gid_equal(&ev.gid, &a->peer),
	      "no DEV_DISABLED of the client");
	CHECK_RET(a, "query_gone", rte_ism_query_remote_gid(a->dev, &a->peer,
				 0, 0), -ENETUNREACH);
	memset(d1.addr, 0x5a, d1.len);
	CHECK_RET(a, "unregister_d1", rte_ism_dmb_unregister(a->dev, d1.token),
		  0);
	CHECK_RET(a, "unregister_d2", rte_ism_dmb_unregister(a->dev, d2.token),
		  0);
	return 0;
}

static int
client(struct api *a)
{
	struct rte_ism_move_seg seg[3];
	struct rte_ism_dmb m, dc;
	struct rte_ism_stats st;
	struct rte_ism_event ev;
	uint64_t t1, t2, t3, ok;
	uint8_t *shadow, buf[4096];
	char got[32];

	CHECK(a, "peer_up", take(a, RTE_ISM_EVENT_DEV, RTE_ISM_DEV_ENABLED, 0,
				 &ev) == 0 && rte_ism_gid_equal(&ev.gid,
				 &a->peer), "no DEV_ENABLED of the server");
	CHECK_RET(a, "query_peer", rte_ism_query_remote_gid(a->dev, &a->peer,
				 0, 0), 0);
	if (step_in(a, 1, &t1) < 0 || step_in(a, 2, &t2) < 0)
		return -1;
	shadow = calloc(1, 65536);
	if (shadow == NULL)
		return -1;
	pattern(shadow, 1000, 1);
	CHECK_RET(a, "move", rte_ism_move_data(a->dev, t1, 3, 1, 0, shadow,
				 1000), 0);
	CHECK_RET(a, "move_range", rte_ism_move_data(a->dev, t1, 0, 0, 65535,
				 buf, 2), -ERANGE);
	CHECK_RET(a, "move_len0", rte_ism_move_data(a->dev, t1, 0, 0, 0, buf,
				 0), -EINVAL);
	CHECK_RET(a, "move_elem16", rte_ism_move_data(a->dev, t1, 16, 1, 0,
				 buf, 1), -EINVAL);
	CHECK_RET(a, "move_not_writer", rte_ism_move_data(a->dev, t2, 0, 0, 0,
				 buf, 1), -EACCES);
	CHECK_RET(a, "move_bad_token", rte_ism_move_data(a->dev,
				 t1 ^ (1ULL << 40), 0, 0, 0, buf, 1), -ENOENT);
	pattern(shadow + 2000, 100, 2);
	pattern(shadow + 3000, 50, 3);
	pattern(shadow + 4000, 1, 4);
	seg[0] = (struct rte_ism_move_seg){ shadow + 2000, 2000, 100 };
	seg[1] = (struct rte_ism_move_seg){ shadow + 3000, 3000, 50 };
	seg[2] = (struct rte_ism_move_seg){ shadow + 4000, 4000, 1 };
	CHECK_RET(a, "burst", rte_ism_move_burst(a->dev, t1, 5, 1, seg, 3), 0);
	CHECK_RET(a, "burst_empty", rte_ism_move_burst(a->dev, t1, 5, 1, seg,
				 0), -EINVAL);
	CHECK_RET(a, "attach", rte_ism_dmb_attach(a->dev, t1, &m), 0);
	CHECK(a, "attach_result", m.addr != NULL && m.len == 65536 &&
	      m.token == t1, "addr %p len %u", m.addr, m.len);
	pattern(shadow + 32768, 4096, 5);
	memcpy((uint8_t *)m.addr + 32768, shadow + 32768, 4096);
	CHECK_RET(a, "detach", rte_ism_dmb_detach(a->dev, t1), 0);
	CHECK_RET(a, "detach_twice", rte_ism_dmb_detach(a->dev, t1), -ENOENT);
	CHECK_RET(a, "attach_not_writer", rte_ism_dmb_attach(a->dev, t2, &m),
		  -EACCES);
	ok = fx_crc(shadow, 65536);
	free(shadow);
	if (step_out(a, 3, ok) < 0 || step_in(a, 4, &ok) < 0)
		return -1;
	CHECK(a, "server_saw_data", ok == 1, "server says %" PRIu64, ok);

	/* The server unregisters a DMB we have attached. */
	if (step_in(a, 5, &t3) < 0)
		return -1;
	CHECK_RET(a, "attach_d3", rte_ism_dmb_attach(a->dev, t3, &m), 0);
	if (step_out(a, 6, 0) < 0 || step_in(a, 7, NULL) < 0)
		return -1;
	CHECK(a, "buf_unregistered", take(a, RTE_ISM_EVENT_BUF,
	      RTE_ISM_BUF_UNREGISTERED, t3, &ev) == 0 &&
	      rte_ism_gid_equal(&ev.gid, &a->peer),
	      "no BUF_UNREGISTERED event for the DMB");
	CHECK_RET(a, "move_stale", rte_ism_move_data(a->dev, t3, 0, 0, 0, buf,
				 1), -ENOENT);
	CHECK_RET(a, "attach_stale", rte_ism_dmb_attach(a->dev, t3, &dc),
		  -ENOENT);
	memset(m.addr, 0x77, m.len);	/* still mapped: ours until detach */
	CHECK_RET(a, "detach_d3", rte_ism_dmb_detach(a->dev, t3), 0);
	CHECK_RET(a, "detach_d3_twice", rte_ism_dmb_detach(a->dev, t3),
		  -ENOENT);
	if (step_out(a, 8, 0) < 0)
		return -1;

	/* Our DMB, for the server to write. */
	CHECK_RET(a, "register", reg(a, 4096, &a->peer, 0, &dc), 0);
	if (step_out(a, 9, dc.token) < 0 || step_in(a, 10, NULL) < 0)
		return -1;
	CHECK(a, "signal_from_server", signals(a, dc.idx, RTE_BIT32(7)) == 0,
	      "element 7 of DMB %u not signalled", dc.idx);
	memcpy(got, (uint8_t *)dc.addr + 100, sizeof("server-to-client"));
	CHECK(a, "data_from_server", strcmp(got, "server-to-client") == 0,
	      "DMB holds \"%.16s\"", got);
	CHECK_RET(a, "unregister", rte_ism_dmb_unregister(a->dev, dc.token),
		  0);
	if (step_out(a, 11, 0) < 0 || step_in(a, 12, NULL) < 0)
		return -1;
	CHECK_RET(a, "stats", rte_ism_stats_get(a->dev, &st), 0);
	CHECK(a, "stats_values", st.moves >= 4 && st.errors >= 6 &&
	      st.signals >= 2, "moves %" PRIu64 " errors %" PRIu64
	      " signals %" PRIu64, st.moves, st.errors, st.signals);
	return 0;
}

int
api_main(uint16_t dev, const struct peer_opts *o, bool is_server)
{
	struct api *a = calloc(1, sizeof(*a));
	int ret;

	if (a == NULL || o->common.nb_peers != 1) {
		fail("api roles need --peers with one GID");
		free(a);
		return 1;
	}
	a->dev = dev;
	a->step_ns = (uint64_t)o->deadline_s * 1000000000ULL;
	a->peer = o->common.peers[0];
	a->stranger = (struct rte_ism_gid){ 0x5eed, 0x57 };
	ret = is_server ? server(a) : client(a);
	ret = ret < 0 || a->failed;
	free(a);
	return ret;
}
