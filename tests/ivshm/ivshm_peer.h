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

#include "peer_stream.h"	/* say(), fail(), the node's stream */
#include "test_ism.h"	/* fx_crc(), fx_rand() of the functional tests */

/* Software event codes between the test members. */
#define EV_TOKEN	0x6101	/* info: token of my DMB for you */
#define EV_DONE		0x6102	/* info: messages I sent you this session */
#define EV_RELEASE	0x6103	/* the coordinator says: finish now */
#define EV_API		0x6110	/* api roles: step code in the low bits */

/* The DMB a node registers for each peer (tests/lib/peer_stream.h). */
#define DMB_LEN		(128 * 1024)
#define PAYLOAD_MAX	(32 * 1024)

struct peer_opts {
	/* hold: stream until stdin EOF, then release the peers. A node
	 * with several devices (one per region): --peers G1/G2 gives the
	 * peers of the first device, then of the second (groups), each
	 * on its lcore. */
	struct peer_common common;
	bool hold_event;	/* stream until a peer sends EV_RELEASE */
	bool tolerant;		/* count anomalies, do not fail (scribbled) */
	bool release_all;	/* tolerant --hold: wait for every peer to be
				 * up to release it (--hold-event guests) */
	char region[256];	/* scribble: the region file */
	uint64_t rounds;	/* scribble: rounds of writes */
	char mode[16];		/* scribble: random, or an attack */
	unsigned int deadline_s;
};

/* released() (tests/lib/peer_util.h): --hold and stdin reached EOF, or
 * --hold-event and a peer sent EV_RELEASE (release_now() by the node), or
 * neither option. */
/* "stall" on stdin: the node's loop waits (no poll, no control pass). */
bool stalled(void);
uint64_t xstat(uint16_t dev, const char *name);

int node_main(uint16_t dev, const struct peer_opts *o);
int scribble_main(uint16_t dev, const struct peer_opts *o);
int api_main(uint16_t dev, const struct peer_opts *o, bool server);

#endif /* IVSHM_PEER_H */
