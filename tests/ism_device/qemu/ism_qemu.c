/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * QEMU device "ism": the emulated IBM ISM PCI function (1014:04ed) of
 * dpdk-ism's tests, around the device core of tests/ism_device/core. Not
 * part of QEMU: devtools/qemu-ism.sh adds these files to the build of
 * Debian's QEMU source package (doc/guides/rawdevs/ism_pci_emul.rst).
 *
 *   -device ism[,fabric=N][,gid=G][,bar0-size=S][,msix=on|off]
 *              [,store-pieces=on|off]
 *
 * fabric   the fabric id: every "ism" device of this QEMU with the same
 *          one reaches the DMBs of the others (default 0); the PCHID an
 *          s390 guest sees
 * gid      64-bit GID, unique in the fabric (default: a random one)
 * bar0-size  BAR 0, the data window (default 256T as the hardware; the
 *          tokens lie inside it, so a guest that cannot map 256 TiB, an
 *          x86 q35 guest through vfio-pci's 40-bit region offsets, needs
 *          1T or less); the same in a whole fabric
 * msix     an MSI-X capability next to the one MSI (default on: QEMU's
 *          s390 PCI host bridge refuses a function without MSI-X; Linux's
 *          ism driver uses the MSI; the interrupt goes to whichever the
 *          guest enabled)
 * store-pieces  a test mode (default off): take the pieces of a store
 *          block (a CPU's MMIO writes, PCISTG) as store blocks; only for
 *          a guest whose platform has no store block instruction (x86
 *          through vfio-pci). Off, as the hardware, the function takes
 *          writes of BAR 0 and BAR 2 only as whole store blocks (s390:
 *          PCISTB) and refuses pieces
 *
 * BAR 2 is the 256-byte command window, BAR 4 the MSI-X table. Both
 * windows take accesses of 1 to 8 bytes at any offset, big-endian
 * (the bytes reach the core in memory order, whatever the guest's byte
 * order). A store block reaches BAR 0 either whole (s390: PCISTB, see
 * ism_qemu_s390.c) or as the MMIO writes of a CPU (x86), each a store
 * block for the core in store-pieces mode (what that means:
 * ism_device_store.c) and refused otherwise. At exit each function
 * prints one line on stderr with how its writes arrived:
 *   ism <id>: writes: data blocks N cmd blocks N data pieces N
 *     cmd pieces N refused pieces N refused blocks N
 */

#include "qemu/osdep.h"
#include "hw/pci/msi.h"
#include "hw/pci/msix.h"
#include "hw/pci/pci.h"
#include "hw/qdev-properties.h"
#include "qapi/error.h"
#include "qemu/atomic.h"
#include "qemu/log.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/notify.h"
#include "qom/object.h"
#include "sysemu/dma.h"
#include "sysemu/sysemu.h"

#include "ism_device.h"
#include "ism_qemu.h"

#define ISM_VENDOR_ID	0x1014
#define ISM_DEVICE_ID	0x04ed
#define ISM_MSIX_BAR	4

OBJECT_DECLARE_SIMPLE_TYPE(IsmPciState, ISM_PCI)

struct IsmPciState {
	PCIDevice parent_obj;
	MemoryRegion data;		/* BAR 0 */
	MemoryRegion cmd;		/* BAR 2 */
	struct ism_dev *dev;
	/* properties */
	uint16_t fabric;
	uint64_t gid;
	uint64_t bar0_size;
	bool msix;
	bool store_pieces;
	Notifier exit_notifier;
};

static int
env_dma_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	return pci_dma_read(PCI_DEVICE(ctx), addr, buf, len) == MEMTX_OK ?
		0 : -EFAULT;
}

static int
env_dma_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	return pci_dma_write(PCI_DEVICE(ctx), addr, buf, len) == MEMTX_OK ?
		0 : -EFAULT;
}

/*
 * The guest clears SBA bits while a vCPU runs: an atomic OR on guest RAM
 * where it maps (as QEMU's s390 adapter indicators are set), else a read
 * and a write.
 */
static int
env_dma_or8(void *ctx, uint64_t addr, uint8_t bits, uint8_t *old)
{
	PCIDevice *pdev = PCI_DEVICE(ctx);
	dma_addr_t len = 1;
	uint8_t *p, v;

	p = pci_dma_map(pdev, addr, &len, DMA_DIRECTION_FROM_DEVICE);
	if (p != NULL && len == 1) {
		*old = qatomic_fetch_or(p, bits);
		pci_dma_unmap(pdev, p, len, DMA_DIRECTION_FROM_DEVICE, 1);
		return 0;
	}
	if (p != NULL)
		pci_dma_unmap(pdev, p, len, DMA_DIRECTION_FROM_DEVICE, 0);
	if (pci_dma_read(pdev, addr, &v, 1) != MEMTX_OK)
		return -EFAULT;
	*old = v;
	v |= bits;
	return pci_dma_write(pdev, addr, &v, 1) == MEMTX_OK ? 0 : -EFAULT;
}

static bool
env_dma_ok(void *ctx, uint64_t addr, uint64_t len)
{
	return address_space_access_valid(pci_get_address_space(PCI_DEVICE(ctx)),
					  addr, len, true,
					  MEMTXATTRS_UNSPECIFIED);
}

static void
env_irq(void *ctx, enum ism_dev_irq_cause cause)
{
	PCIDevice *pdev = PCI_DEVICE(ctx);

	(void)cause;
	if (msix_enabled(pdev))
		msix_notify(pdev, 0);
	else if (msi_enabled(pdev))
		msi_notify(pdev, 0);
}

static void
env_log(void *ctx, enum ism_dev_log_level level, const char *msg)
{
	(void)ctx;
	qemu_log_mask(level == ISM_DEV_LOG_GUEST_ERROR ? LOG_GUEST_ERROR :
		      LOG_TRACE, "ism: %s\n", msg);
}

static const struct ism_dev_ops ism_env = {
	.dma_read = env_dma_read,
	.dma_write = env_dma_write,
	.dma_or8 = env_dma_or8,
	.dma_ok = env_dma_ok,
	.irq = env_irq,
	.log = env_log,
};

/* An access of size bytes as its bytes in memory order (big-endian). */
static void
value_to_bytes(uint64_t val, unsigned int size, uint8_t *b)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		b[i] = (uint8_t)(val >> (8 * (size - 1 - i)));
}

static uint64_t
bytes_to_value(const uint8_t *b, unsigned int size)
{
	uint64_t val = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		val = val << 8 | b[i];
	return val;
}

static uint64_t
cmd_read(void *opaque, hwaddr addr, unsigned int size)
{
	IsmPciState *s = opaque;
	uint8_t b[8];

	if (ism_dev_cmd_read(s->dev, addr, b, size) < 0)
		return UINT64_MAX;
	return bytes_to_value(b, size);
}

static void
cmd_write(void *opaque, hwaddr addr, uint64_t val, unsigned int size)
{
	IsmPciState *s = opaque;
	uint8_t b[8];

	value_to_bytes(val, size, b);
	ism_dev_write(s->dev, 2, addr, b, size, ISM_DEV_ACC_PIECE);
}

/* Choice: BAR 0 is write-only; a read gets all ones (Linux never reads). */
static uint64_t
data_read(void *opaque, hwaddr addr, unsigned int size)
{
	(void)opaque;
	qemu_log_mask(LOG_GUEST_ERROR, "ism: read of %u bytes at 0x%" PRIx64
		      " of BAR 0, which is written only\n", size, addr);
	return UINT64_MAX;
}

/*
 * A piece of a store block (a CPU's MMIO write): see the top. A refused
 * one cannot be reported (posted write): logged as a guest error (the
 * core logs a piece refused for its mode itself).
 */
static void
data_write(void *opaque, hwaddr addr, uint64_t val, unsigned int size)
{
	IsmPciState *s = opaque;
	uint8_t b[8];
	int ret;

	value_to_bytes(val, size, b);
	ret = ism_dev_write(s->dev, 0, addr, b, size, ISM_DEV_ACC_PIECE);
	if (ret < 0 && ret != -EPERM)
		qemu_log_mask(LOG_GUEST_ERROR, "ism: store of %u bytes to "
			      "0x%" PRIx64 " refused: %s\n", size, addr,
			      strerror(-ret));
}

static const MemoryRegionOps cmd_ops = {
	.read = cmd_read,
	.write = cmd_write,
	.endianness = DEVICE_BIG_ENDIAN,
	.valid = { .min_access_size = 1, .max_access_size = 8,
		   .unaligned = true },
	.impl = { .min_access_size = 1, .max_access_size = 8,
		  .unaligned = true },
};

static const MemoryRegionOps data_ops = {
	.read = data_read,
	.write = data_write,
	.endianness = DEVICE_BIG_ENDIAN,
	.valid = { .min_access_size = 1, .max_access_size = 8,
		   .unaligned = true },
	.impl = { .min_access_size = 1, .max_access_size = 8,
		  .unaligned = true },
};

bool
ism_qemu_is_ism(PCIDevice *pdev)
{
	return object_dynamic_cast(OBJECT(pdev), TYPE_ISM_PCI) != NULL;
}

uint16_t
ism_qemu_fabric(PCIDevice *pdev)
{
	return ISM_PCI(pdev)->fabric;
}

int
ism_qemu_store_block(PCIDevice *pdev, unsigned int bar, uint64_t off,
		const void *buf, size_t len)
{
	IsmPciState *s = ISM_PCI(pdev);

	return ism_dev_write(s->dev, bar, off, buf, len, ISM_DEV_ACC_BLOCK);
}

static void
ism_print_counts(Notifier *n, void *unused)
{
	IsmPciState *s = container_of(n, IsmPciState, exit_notifier);
	struct ism_dev_counts c;

	(void)unused;
	if (s->dev == NULL)
		return;
	ism_dev_counts_get(s->dev, &c);
	fprintf(stderr, "ism %s: writes: data blocks %" PRIu64 " cmd blocks %"
		PRIu64 " data pieces %" PRIu64 " cmd pieces %" PRIu64
		" refused pieces %" PRIu64 " refused blocks %" PRIu64 "\n",
		DEVICE(s)->id ? DEVICE(s)->id : "ism", c.data_blocks,
		c.cmd_blocks, c.data_pieces, c.cmd_pieces, c.refused_pieces,
		c.refused_blocks);
}

static void
ism_realize(PCIDevice *pdev, Error **errp)
{
	IsmPciState *s = ISM_PCI(pdev);
	struct ism_dev_config cfg = {
		.name = DEVICE(s)->id ? DEVICE(s)->id : "ism",
		.gid = s->gid,
		.fabric = s->fabric,
		.bar0_size = s->bar0_size,
		.transport = s->store_pieces ? ISM_DEV_XPORT_PIECES :
			ISM_DEV_XPORT_BLOCKS,
	};
	int ret;

	if (s->bar0_size < ISM_DEV_BAR0_SIZE_MIN ||
	    s->bar0_size > ISM_DEV_BAR0_SIZE_HW ||
	    (s->bar0_size & (s->bar0_size - 1)) != 0) {
		error_setg(errp, "ism: bar0-size must be a power of two from "
			   "512M to 256T");
		return;
	}
	ret = ism_dev_create(&cfg, &ism_env, s, &s->dev);
	if (ret == -EEXIST) {
		error_setg(errp, "ism: GID 0x%016" PRIx64 " is in fabric %u "
			   "already", s->gid, s->fabric);
		return;
	}
	if (ret < 0) {
		error_setg(errp, "ism: cannot create the function: %s (every "
			   "function of fabric %u needs the same bar0-size)",
			   strerror(-ret), s->fabric);
		return;
	}
	pdev->config[PCI_INTERRUPT_PIN] = 0;
	memory_region_init_io(&s->data, OBJECT(s), &data_ops, s, "ism-data",
			      s->bar0_size);
	memory_region_init_io(&s->cmd, OBJECT(s), &cmd_ops, s, "ism-cmd",
			      ISM_DEV_BAR2_SIZE);
	pci_register_bar(pdev, 0, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64, &s->data);
	pci_register_bar(pdev, 2, PCI_BASE_ADDRESS_SPACE_MEMORY |
			 PCI_BASE_ADDRESS_MEM_TYPE_64, &s->cmd);
	if (msi_init(pdev, 0, 1, true, false, errp) < 0)
		goto err;
	if (s->msix) {
		if (msix_init_exclusive_bar(pdev, 1, ISM_MSIX_BAR, errp) < 0)
			goto err_msi;
		msix_vector_use(pdev, 0);
	}
	s->exit_notifier.notify = ism_print_counts;
	qemu_add_exit_notifier(&s->exit_notifier);
	return;
err_msi:
	msi_uninit(pdev);
err:
	ism_dev_destroy(s->dev);
	s->dev = NULL;
}

static void
ism_exit(PCIDevice *pdev)
{
	IsmPciState *s = ISM_PCI(pdev);

	qemu_remove_exit_notifier(&s->exit_notifier);
	if (s->msix)
		msix_uninit_exclusive_bar(pdev);
	msi_uninit(pdev);
	ism_dev_destroy(s->dev);
	s->dev = NULL;
}

static void
ism_reset(DeviceState *d)
{
	IsmPciState *s = ISM_PCI(d);

	if (s->dev != NULL)
		ism_dev_reset(s->dev);
}

static Property ism_properties[] = {
	DEFINE_PROP_UINT16("fabric", IsmPciState, fabric, 0),
	DEFINE_PROP_UINT64("gid", IsmPciState, gid, 0),
	DEFINE_PROP_SIZE("bar0-size", IsmPciState, bar0_size,
			 ISM_DEV_BAR0_SIZE_HW),
	DEFINE_PROP_BOOL("msix", IsmPciState, msix, true),
	DEFINE_PROP_BOOL("store-pieces", IsmPciState, store_pieces, false),
	DEFINE_PROP_END_OF_LIST(),
};

static void
ism_class_init(ObjectClass *klass, void *data)
{
	DeviceClass *dc = DEVICE_CLASS(klass);
	PCIDeviceClass *k = PCI_DEVICE_CLASS(klass);

	(void)data;
	k->realize = ism_realize;
	k->exit = ism_exit;
	k->vendor_id = ISM_VENDOR_ID;
	k->device_id = ISM_DEVICE_ID;
	k->revision = 0;
	/* Choice: the class code of the hardware is not public. */
	k->class_id = PCI_CLASS_NETWORK_OTHER;
	dc->desc = "IBM ISM function, emulated (dpdk-ism tests)";
	dc->reset = ism_reset;
	set_bit(DEVICE_CATEGORY_NETWORK, dc->categories);
	device_class_set_props(dc, ism_properties);
}

static const TypeInfo ism_info = {
	.name = TYPE_ISM_PCI,
	.parent = TYPE_PCI_DEVICE,
	.instance_size = sizeof(IsmPciState),
	.class_init = ism_class_init,
	.interfaces = (InterfaceInfo[]) {
		{ INTERFACE_CONVENTIONAL_PCI_DEVICE },
		{ },
	},
};

static void
ism_register_types(void)
{
	type_register_static(&ism_info);
}

type_init(ism_register_types)
