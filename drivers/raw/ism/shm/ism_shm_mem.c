/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Sealed memfds: the only memory the shm backend shares. The seals matter
 * to the peer that maps one: without F_SEAL_SHRINK the owner could truncate
 * the file and turn the writer's next memcpy into a SIGBUS. So a received
 * fd is mapped only if it is a regular file (a memfd) of exactly the
 * announced size with SHRINK, GROW and SEAL set.
 */

#include <errno.h>
#include <fcntl.h>
#include <linux/mempolicy.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_memory.h>

#include "ism_log_rl.h"
#include "ism_pmd.h"
#include "ism_shm_mem.h"

#define SHM_SEALS (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

size_t
ism_shm_map_len(size_t len)
{
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);

	return RTE_ALIGN_CEIL(len, pg);
}

/*
 * Make the pages of a new mapping come from NUMA node socket (nothing for
 * SOCKET_ID_ANY): MPOL_PREFERRED, so that a full node falls back to
 * another instead of failing the fault (SIGBUS in whoever touches the
 * page first). On a memfd the policy belongs to the file (shmem's shared
 * policy): it also applies to pages that the peer's mapping touches first.
 * Before the first touch, which is what allocates them. Where mbind(2) is
 * refused (a kernel without NUMA, a container without CAP_SYS_NICE) the
 * memory is only unplaced: a warning, not a failed registration.
 */
static void
mem_place(const char *name, void *addr, size_t len, int socket)
{
	const unsigned int bits = 8 * sizeof(unsigned long);
	unsigned long mask[RTE_MAX_NUMA_NODES / (8 * sizeof(long)) + 1];

	if (socket < 0 || socket >= RTE_MAX_NUMA_NODES)
		return;		/* SOCKET_ID_ANY: anywhere */
	memset(mask, 0, sizeof(mask));
	mask[socket / bits] |= 1UL << (socket % bits);
	if (syscall(SYS_mbind, addr, len, MPOL_PREFERRED, mask,
		    (unsigned long)RTE_MAX_NUMA_NODES + 1, 0) < 0)
		ISM_PMD_LOG_RL(WARNING, "cannot place memfd %s on NUMA node "
			       "%d: %s", name, socket, strerror(errno));
}

int
ism_shm_memfd_new(const char *name, size_t len, int socket, int *fdp,
		void **addrp)
{
	size_t map_len = ism_shm_map_len(len);
	void *addr;
	int fd, ret;

	fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		ret = -errno;
		ISM_PMD_LOG_RL(ERR, "memfd_create(%s): %s%s", name,
			       strerror(errno), errno == EMFILE ?
			       " (raise the open-file limit, ulimit -n)" : "");
		return ret == -EMFILE || ret == -ENFILE ? -ENOMEM : ret;
	}
	if (ftruncate(fd, map_len) < 0 ||
	    fcntl(fd, F_ADD_SEALS, SHM_SEALS) < 0) {
		ret = -errno;
		ISM_PMD_LOG_RL(ERR, "cannot size and seal memfd %s: %s", name,
			       strerror(errno));
		close(fd);
		return ret == -ENOSPC ? -ENOMEM : ret;
	}
	addr = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (addr == MAP_FAILED) {
		ret = -errno;
		ISM_PMD_LOG_RL(ERR, "cannot map memfd %s of %zu bytes: %s", name,
			       map_len, strerror(errno));
		close(fd);
		return -ENOMEM;
	}
	mem_place(name, addr, map_len, socket);
	*fdp = fd;
	*addrp = addr;
	return 0;
}

int
ism_shm_memfd_map(int fd, size_t len, void **addrp, const char **why)
{
	size_t map_len = ism_shm_map_len(len);
	struct stat st;
	void *addr;
	int seals;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*why = "fd is not a memfd";
		return -EPROTO;
	}
	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || (seals & SHM_SEALS) != SHM_SEALS) {
		*why = "memfd is not sealed against shrinking and growing";
		return -EPROTO;
	}
	if ((uint64_t)st.st_size != map_len) {
		*why = "memfd size does not match the announced length";
		return -EPROTO;
	}
	addr = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (addr == MAP_FAILED) {
		/* A write seal or a read-only file is the sender's doing;
		 * anything else (ENOMEM, ...) is a shortage of ours.
		 */
		if (errno == EACCES || errno == EPERM) {
			*why = "cannot map the memfd read-write";
			return -EPROTO;
		}
		*why = "cannot map the memfd here";
		return -errno;
	}
	*addrp = addr;
	return 0;
}

void
ism_shm_unmap(void *addr, size_t len)
{
	if (addr != NULL && munmap(addr, ism_shm_map_len(len)) < 0)
		ISM_PMD_LOG_RL(ERR, "munmap(%p, %zu): %s", addr, len,
			       strerror(errno));
}
