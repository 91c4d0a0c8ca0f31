/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_PCI_IO_H
#define ISM_PCI_IO_H

/*
 * The one I/O layer of the PCI backend: every register access is a read or
 * a write of len bytes at offset off of a BAR. Under it sits either the ism
 * bus (vfio region read/write, or the BAR mmap where the platform allows it;
 * ism_pci_probe.c) or, in tests, the device model (ism_pci_model.c).
 *
 * For BAR 0 a write is one store block and off is the encoded move_data
 * request (ism_pci_req()), not a byte offset. A refused store block returns
 * a negative errno; the model says why (-ENOENT unknown token, -EACCES not
 * the writer or not in the VLAN, -ERANGE past the end of the DMB), a real
 * platform may only be able to say -EIO.
 *
 * Byte order is explicit: the helpers below put and get big-endian fields
 * at byte offsets of a buffer, whatever the host's order and alignment.
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <rte_byteorder.h>

struct ism_pci_io_ops {
	/* Both return 0 or a negative errno. */
	int (*read)(void *ctx, unsigned int bar, uint64_t off, void *buf,
			size_t len);
	int (*write)(void *ctx, unsigned int bar, uint64_t off,
			const void *buf, size_t len);
};

struct ism_pci_io {
	const struct ism_pci_io_ops *ops;
	void *ctx;
};

static inline int
ism_pci_io_read(const struct ism_pci_io *io, unsigned int bar, uint64_t off,
		void *buf, size_t len)
{
	return io->ops->read(io->ctx, bar, off, buf, len);
}

static inline int
ism_pci_io_write(const struct ism_pci_io *io, unsigned int bar, uint64_t off,
		const void *buf, size_t len)
{
	return io->ops->write(io->ctx, bar, off, buf, len);
}

static inline void
ism_put_be16(uint8_t *buf, size_t off, uint16_t v)
{
	rte_be16_t b = rte_cpu_to_be_16(v);

	memcpy(buf + off, &b, sizeof(b));
}

static inline void
ism_put_be32(uint8_t *buf, size_t off, uint32_t v)
{
	rte_be32_t b = rte_cpu_to_be_32(v);

	memcpy(buf + off, &b, sizeof(b));
}

static inline void
ism_put_be64(uint8_t *buf, size_t off, uint64_t v)
{
	rte_be64_t b = rte_cpu_to_be_64(v);

	memcpy(buf + off, &b, sizeof(b));
}

static inline uint16_t
ism_get_be16(const uint8_t *buf, size_t off)
{
	rte_be16_t b;

	memcpy(&b, buf + off, sizeof(b));
	return rte_be_to_cpu_16(b);
}

static inline uint32_t
ism_get_be32(const uint8_t *buf, size_t off)
{
	rte_be32_t b;

	memcpy(&b, buf + off, sizeof(b));
	return rte_be_to_cpu_32(b);
}

static inline uint64_t
ism_get_be64(const uint8_t *buf, size_t off)
{
	rte_be64_t b;

	memcpy(&b, buf + off, sizeof(b));
	return rte_be_to_cpu_64(b);
}

#endif /* ISM_PCI_IO_H */
