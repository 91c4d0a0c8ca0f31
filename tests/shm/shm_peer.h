/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef SHM_PEER_H
#define SHM_PEER_H

/*
 * dpdk-ism-shm-peer: one process of the multi-process shm tests, driven by
 * tests/shm/shm_test.py. Prints one line per milestone on stdout (READY,
 * PROGRESS, LOST, FDS, DONE, FAIL ...) for the driver to follow.
 */

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <rte_ism.h>

#include "peer_stream.h"	/* say(), fail(), the nodes' stream */
#include "test_ism.h"	/* fx_crc(), fx_rand() of the functional tests */

/* Software event codes between test processes (rte_ism_signal_event). */
#define EV_TOKEN	0x5101	/* info: token of my DMB for you */
#define EV_DONE		0x5102	/* info: messages I sent you this session */
#define EV_LEAK		0x5103	/* victim -> rogue: a DMB not for the rogue */
#define EV_GRANT	0x5104	/* victim -> rogue: a DMB for the rogue */
#define EV_GRANT_OK	0x5105	/* rogue -> victim: wrote it, unregister it */
#define EV_ROGUE_DONE	0x5106	/* rogue -> victim: attacks over */
#define EV_BYE_RACE	0x5107	/* rogue -> victim: ping the fake GID */
#define EV_PING		0x5108	/* victim -> fake GID */

/* The GID the rogue claims over raw sockets (it binds its socket). */
static inline struct rte_ism_gid
fake_gid(const struct rte_ism_gid *rogue)
{
	struct rte_ism_gid g = *rogue;

	g.gid_ext ^= 0x5eed;
	return g;
}

/* The DMB a node registers for each peer (tests/lib/peer_stream.h). */
#define DMB_LEN		(256 * 1024)
#define PAYLOAD_MAX	(64 * 1024)

struct peer_opts {
	char dir[256];
	struct rte_ism_gid gid;
	struct rte_ism_gid rogue;	/* node: feed this rogue tokens */
	bool has_rogue;
	struct rte_ism_gid victim;	/* rogue: the node it attacks */
	struct rte_ism_gid honest;	/* rogue: the victim's honest peer */
	struct peer_common common;	/* msgs: to send per session;
					 * peers: one group */
	uint64_t msgs_first;	/* in the first session */
	bool send;
	unsigned int fd_mark;
	bool touch;		/* impostor: touch the victim's socket */
	char devargs[192];	/* more devargs (",k=v...") */
};

/* released() (tests/lib/peer_util.h): with --hold, false until the
 * driver closed our stdin (its explicit "you may finish" phase). */
uint64_t xstat(const char *devname, const char *name);

int node_main(uint16_t dev, const struct peer_opts *o);
int rogue_main(uint16_t dev, const struct peer_opts *o);
int grant_owner_main(uint16_t dev, const struct peer_opts *o);
int grant_writer_main(uint16_t dev, const struct peer_opts *o);
int script_main(uint16_t dev, const struct peer_opts *o);
int flood_main(uint16_t dev, const struct peer_opts *o);
int impostor_main(uint16_t dev, const struct peer_opts *o);
int crowd_main(uint16_t dev, const struct peer_opts *o);
int slammer_main(uint16_t dev, const struct peer_opts *o);
int storm_main(uint16_t dev, const struct peer_opts *o);
int race_main(uint16_t dev, const struct peer_opts *o);

#endif /* SHM_PEER_H */
