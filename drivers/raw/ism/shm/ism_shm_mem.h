/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_SHM_MEM_H
#define ISM_SHM_MEM_H

/*
 * Sealed memfds: the only memory the shm backend shares (ism_shm_mem.c).
 * Layer 1 (see ism_shm.h): calls nothing of the folder.
 */

#include <stddef.h>

/* len rounded up to whole pages: what a mapping of len bytes takes. */
size_t ism_shm_map_len(size_t len);
/* New sealed memfd of len bytes, mapped, its pages on NUMA node socket
 * (SOCKET_ID_ANY: anywhere); 0 or -errno (logged).
 */
int ism_shm_memfd_new(const char *name, size_t len, int socket, int *fd,
		void **addr);
/* Map a received memfd after checking seals and size; 0, -EPROTO (not a
 * memfd as announced: the sender's fault) or -errno (a failure here).
 */
int ism_shm_memfd_map(int fd, size_t len, void **addr, const char **why);
/* Unmap a mapping of len bytes (NULL: nothing). */
void ism_shm_unmap(void *addr, size_t len);

#endif /* ISM_SHM_MEM_H */
