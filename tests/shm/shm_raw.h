/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef SHM_RAW_H
#define SHM_RAW_H

/*
 * The wire format spoken over raw sockets, for the processes of the tests
 * that play a device without being one (shm_rogue.c defines these).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rte_ism.h>

#include <ism_shm_msg.h>

/* Find the socket of gid in the directory: its path, chid and slot. */
int find_sock(const char *dir, const struct rte_ism_gid *gid, char *path,
		size_t size, uint16_t *chid, unsigned int *slot);
/* Claim (slot, gid) for the socket of that name in dir as a device does
 * (ism_shm_fabric.c: symbolic links "<chid>-gid-<GID>" and
 * "<chid>-slot-<slot>" to the socket's name); bit 0 / bit 1 of the result:
 * the GID / slot claim was made (undo them with raw_unclaim()). */
unsigned int raw_claim(const char *dir, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid);
void raw_unclaim(const char *dir, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid, unsigned int made);
/* Listen on the socket of (chid, slot, gid) in dir: the fd or -1; its
 * path in path. */
int raw_listen(const char *dir, uint16_t chid, unsigned int slot,
		const struct rte_ism_gid *gid, char *path, size_t size);
/* Connect (blocking, 3 s receive timeout): the fd or -1. */
int raw_connect(const char *path);
int raw_send(int fd, const void *buf, size_t len, const int *fds, int nfds);
/* Receive one message; its first fd in *keep if keep != NULL (else
 * closed, as the others); 1 got, 0 closed, -1 timeout. */
int raw_recv_fd(int fd, struct shm_msg *m, int *keep);
/* A memfd of len bytes, sealed (or not). */
int memfd(size_t len, bool sealed);
/* The size of an SBA memfd. */
size_t sba_len(void);

#endif /* SHM_RAW_H */
