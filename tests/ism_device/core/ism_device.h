/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef ISM_DEVICE_H
#define ISM_DEVICE_H

/*
 * An EMULATED IBM ISM PCI function (1014:04ed), for tests: the one device
 * model of this tree. Plain C: no QEMU, no DPDK, none of the PMD's
 * headers. It is written from Linux's driver (drivers/s390/net/ism.h,
 * ism_drv.c), the facts in doc/guides/rawdevs/ism_pci_emul.rst, and runs
 * in two environments:
 *   - in process, under the PCI backend's I/O layer (tests/ism_device/dpdk,
 *     vdev ism_pcimodel), for the fast tests;
 *   - inside QEMU as the PCI device "ism" (tests/ism_device/qemu), for
 *     Linux's ism driver in an s390x guest and our backend in an x86_64
 *     guest.
 * The environment gives each function its DMA (bus addresses, through
 * the guest's IOMMU in QEMU), its interrupt and a log; the core gives the
 * environment the two BARs:
 *   BAR 2, the command window: the request body written at offset 8, the
 *     8-byte header at offset 0; the write that completes the header (its
 *     byte 7) runs the command; the response overlays the request;
 *   BAR 0, the data window: a PCI store block whose offset operand is
 *     token | idx << 24 | sf << 23 | offset, copied into the DMB that
 *     token names, in whichever function of the fabric owns it.
 * Every field the device reads or writes is big-endian (an s390 device),
 * accessed byte by byte: the core is right on any host.
 *
 * Functions with the same fabric id form one fabric (in one process): a
 * store block reaches the DMBs of any of them. One lock serialises the
 * core; every call below may be made from any thread.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Why a function interrupts. */
enum ism_dev_irq_cause {
	ISM_DEV_IRQ_SIGNAL,	/* a DMB bit (and S) newly set */
	ISM_DEV_IRQ_EVENT,	/* an event in the IEQ (and E) */
};

enum ism_dev_log_level {
	/*
	 * The driver did what Linux's driver never does (a header without
	 * its body, a command of the wrong length, a bad address): the
	 * device answers as documented in ism_device.c, and says so.
	 */
	ISM_DEV_LOG_GUEST_ERROR,
	ISM_DEV_LOG_INFO,
};

/* What a function sits on; ctx is given back to every call. */
struct ism_dev_ops {
	/* DMA at a bus address: 0, or a negative errno (no mapping). */
	int (*dma_read)(void *ctx, uint64_t addr, void *buf, size_t len);
	int (*dma_write)(void *ctx, uint64_t addr, const void *buf,
			size_t len);
	/*
	 * OR bits into the byte at addr atomically (the driver clears bits
	 * of the same words at the same time); the byte's value before in
	 * *old. 0 or a negative errno.
	 */
	int (*dma_or8)(void *ctx, uint64_t addr, uint8_t bits, uint8_t *old);
	/* Optional: whether the device may write [addr, addr + len). */
	bool (*dma_ok)(void *ctx, uint64_t addr, uint64_t len);
	/* Raise the function's one interrupt (MSI). */
	void (*irq)(void *ctx, enum ism_dev_irq_cause cause);
	/*
	 * Optional: the interrupt can fire from now on (SBA registered: the
	 * driver has its handler by then, as Linux sets it up first) or not
	 * any more (SBA unregistered, reset, destroy).
	 */
	void (*irq_arm)(void *ctx, bool on);
	/* Optional: a line, without newline. */
	void (*log)(void *ctx, enum ism_dev_log_level level, const char *msg);
};

/*
 * Quirks: a function that differs from the default as a real one may,
 * each a case a driver must handle as Linux's does.
 */
#define ISM_DEV_Q_NO_S		0x01	/* never sets S, only DMB bits */
#define ISM_DEV_Q_MASK0		0x02	/* sets DMB bits, leaves masks 0 */
#define ISM_DEV_Q_QI_FAIL	0x04	/* QUERY_INFO answers ISM_ERROR */
#define ISM_DEV_Q_QI_SHORT	0x08	/* QUERY_INFO answers 8 bytes */
#define ISM_DEV_Q_TOK20		0x10	/* tokens have bits 20-22 set */
#define ISM_DEV_Q_ALL		0x1f

/* BAR sizes. BAR 0 is 256 TiB on the hardware. */
#define ISM_DEV_BAR0_SIZE_HW	(UINT64_C(1) << 48)
#define ISM_DEV_BAR0_SIZE_MIN	(UINT64_C(1) << 29)	/* one token bit */
#define ISM_DEV_BAR2_SIZE	256

/*
 * How writes reach the function (ism_dev_write()). The hardware takes
 * data and command bodies only as PCI Store Blocks, each whole (1 to
 * maxstbl bytes, not crossing a 4 KiB boundary), and refuses a plain
 * store: that is the default, and what the s390 path and the in-process
 * platform give. PIECES is a test mode for an environment that sees only a
 * CPU's MMIO writes (an x86 guest through vfio-pci) and cannot tell where
 * a store block ends: each piece is then taken as a store block of its
 * own (see ism_device_store.c). Never the s390 path's.
 */
enum ism_dev_transport {
	ISM_DEV_XPORT_BLOCKS = 0,
	ISM_DEV_XPORT_PIECES,
};

/* How one write arrived. */
enum ism_dev_access {
	ISM_DEV_ACC_BLOCK,	/* a PCI Store Block, whole */
	ISM_DEV_ACC_PIECE,	/* a plain store or MMIO write: a piece */
};

/* Writes by how they arrived, since the function was created. */
struct ism_dev_counts {
	uint64_t data_blocks;	/* BAR 0 store blocks taken */
	uint64_t cmd_blocks;	/* BAR 2 store blocks taken */
	uint64_t data_pieces;	/* BAR 0 pieces taken (PIECES mode) */
	uint64_t cmd_pieces;	/* BAR 2 pieces taken (PIECES mode) */
	uint64_t refused_pieces; /* pieces refused (BLOCKS mode) */
	uint64_t refused_blocks; /* not a store block: size, 4 KiB, BAR */
};

struct ism_dev_config {
	const char *name;	/* for the log */
	uint64_t gid;		/* 0: a random one */
	uint16_t fabric;	/* fabric id (the PCHID on s390) */
	/*
	 * Power of two from ISM_DEV_BAR0_SIZE_MIN to _HW; 0: _HW. Tokens
	 * lie inside it; every function of a fabric has the same size.
	 */
	uint64_t bar0_size;
	uint32_t quirks;	/* ISM_DEV_Q_* */
	enum ism_dev_transport transport;
	/* Largest store block, 8 to 4096; 0: 4096 (ISM's). */
	uint32_t maxstbl;
};

struct ism_dev;

/*
 * A new function, in its fabric. ops and ctx must outlive it.
 * @return 0, -EINVAL (config), -EEXIST (GID in use in the fabric),
 * -ENOMEM.
 */
int ism_dev_create(const struct ism_dev_config *cfg,
		const struct ism_dev_ops *ops, void *ctx, struct ism_dev **out);

/*
 * The function leaves its fabric (hot unplug, end of a test): the others
 * get the events of ism_dev_reset(), then it is freed.
 */
void ism_dev_destroy(struct ism_dev *dev);

/*
 * Function reset (system reset, FLR): its DMBs, SBA, IEQ, VLANs and a
 * command in progress are dropped; writers of its DMBs get BUF 0x04 (DMB
 * unregistered), owners of DMBs it could write BUF 0x08 (user disabled),
 * every other function DEV 0x07 (GID disabled). It keeps its GID.
 */
void ism_dev_reset(struct ism_dev *dev);

uint64_t ism_dev_gid(const struct ism_dev *dev);
uint64_t ism_dev_bar0_size(const struct ism_dev *dev);

/*
 * BAR 2 access of len bytes at off, any size and alignment inside the
 * 256-byte window.
 * @return 0, or -EINVAL beyond the window.
 */
int ism_dev_cmd_write(struct ism_dev *dev, uint64_t off, const void *buf,
		size_t len);
int ism_dev_cmd_read(struct ism_dev *dev, uint64_t off, void *buf,
		size_t len);

/*
 * A store block to BAR 0: req is its offset operand, buf its len bytes
 * (1 to 4096, not crossing a 4 KiB boundary of req). An environment that
 * sees only the pieces of a store block (the MMIO writes of a CPU) passes
 * each piece as a store block of its own (see ism_device_store.c).
 * @return 0, or the reason the store block was refused, nothing written:
 * -ENOENT no DMB with this token in the fabric, -EACCES this function is
 * not its writer (rgid, VLAN), -ERANGE past its end, -EIO the owner's
 * DMA failed, -EINVAL not a store block (length, 4 KiB boundary, BAR).
 */
int ism_dev_store(struct ism_dev *dev, uint64_t req, const void *buf,
		size_t len);

/*
 * A write of len bytes at off of BAR bar (0 or 2) as it reached the
 * function: the environments' entry (QEMU's PCISTB and MMIO, the
 * in-process platform). A store block (ISM_DEV_ACC_BLOCK) must be 1 to
 * maxstbl bytes and not cross a 4 KiB boundary of off; a piece is taken
 * only in ISM_DEV_XPORT_PIECES. Then as ism_dev_store() (BAR 0) or
 * ism_dev_cmd_write() (BAR 2), and counted (ism_dev_counts_get()).
 * @return 0, -EPERM a piece in BLOCKS mode, -EINVAL not a store block or
 * not BAR 0 or 2 (nothing written, logged as a guest error), or the
 * error of ism_dev_store() / ism_dev_cmd_write().
 */
int ism_dev_write(struct ism_dev *dev, unsigned int bar, uint64_t off,
		const void *buf, size_t len, enum ism_dev_access how);

/* The counts of ism_dev_write(). */
void ism_dev_counts_get(const struct ism_dev *dev, struct ism_dev_counts *c);

#endif /* ISM_DEVICE_H */
