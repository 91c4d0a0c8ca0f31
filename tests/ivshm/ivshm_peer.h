/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef IVSHM_PEER_H
#define IVSHM_PEER_H

/*
 * dpdk-ism-ivshm-peer: one member of the multi-process and VM tests of the
 * ivshmem backend (tests/ivshm/ivshm_test.py on the host, the same
 * program in QEMU guests through vm_test.sh). Its device comes from the
 * EAL options (--vdev ism_ivshm0,path=... on the host, -a
 * ism:<address>,fabric=ivshmem in a guest). It prints one line per
 * milestone (READY, UP, GONE, PROGRESS, STREAM, API, PASS, FAIL ...) on
 * stdout, which is the serial console in a guest.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ism.h>

#include "test_ism.h"	/* fx_crc(), fx_rand() of the functional tests */

/* Software event codes between the test members. */
#define EV_TOKEN	0x6101	/* info: token of my DMB for you */
#define EV_DONE		0x6102	/* info: messages I sent you this session */
#define EV_RELEASE	0x6103	/* the coordinator says: finish now */
#define EV_API		0x6110	/* api roles: step code in the low bits */

/* Layout of the DMB a node registers for each peer. */
#define DMB_LEN		(128 * 1024)
#define OFF_ACK		0	/* u32: last message of mine the peer saw */
#define OFF_HDR		64	/* struct msg_hdr of the peer's message */
#define OFF_PAYLOAD	128
#define PAYLOAD_MAX	(32 * 1024)
#define OFF_SCRATCH	(64 * 1024)	/* writers hammer here meanwhile */
#define ELEM_DATA	0
#define ELEM_ACK	1

#define MAX_PEERS	4

struct msg_hdr {
	uint32_t seq;
	uint32_t len;
	uint32_t crc;
	uint32_t session;
};

/* A node with several devices (one per region): --peers G1/G2 gives the
 * peers of the first device, then of the second, each on its lcore. */
#define MAX_GROUPS	2

struct peer_opts {
	char role[16];
	struct rte_ism_gid peers[MAX_PEERS];
	unsigned int nb_peers;
	unsigned int group_end[MAX_GROUPS];	/* peers[] of each device */
	unsigned int nb_groups;
	uint64_t msgs;		/* messages per session once released */
	unsigned int survive;	/* peer losses accepted */
	uint64_t seed;
	bool hold;		/* stream until stdin EOF, then release peers */
	bool hold_event;	/* stream until a peer sends EV_RELEASE */
	bool tolerant;		/* count anomalies, do not fail (scribbled) */
	bool release_all;	/* tolerant --hold: wait for every peer to be
				 * up to release it (--hold-event guests) */
	bool nocopy;		/* odd messages: payload through attach */
	char region[256];	/* scribble: the region file */
	uint64_t rounds;	/* scribble: rounds of writes */
	char mode[16];		/* scribble: random, or an attack */
	unsigned int deadline_s;
};

#define say(...) do { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } \
	while (0)
#define fail(...) do { printf("FAIL: "); say(__VA_ARGS__); } while (0)

uint64_t now_ns(void);
void gid_str(const struct rte_ism_gid *g, char *buf);
void idle(unsigned int *spins);
/* Released: --hold and stdin reached EOF, or --hold-event and a peer
 * sent EV_RELEASE (set by the node), or neither option. */
bool released(void);
void release_now(void);
/* "stall" on stdin: the node's loop waits (no poll, no control pass). */
bool stalled(void);
uint64_t xstat(uint16_t dev, const char *name);
/* Wait for an event of type/code from gid (NULL: any), dropping others. */
int wait_event(uint16_t dev, uint32_t type, uint32_t code,
		const struct rte_ism_gid *from, struct rte_ism_event *out,
		uint64_t timeout_ms);

int node_main(uint16_t dev, const struct peer_opts *o);
int scribble_main(uint16_t dev, const struct peer_opts *o);
int api_main(uint16_t dev, const struct peer_opts *o, bool server);

#endif /* IVSHM_PEER_H */
