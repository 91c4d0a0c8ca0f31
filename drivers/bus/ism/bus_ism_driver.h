/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

#ifndef BUS_ISM_DRIVER_H
#define BUS_ISM_DRIVER_H

/**
 * @file
 *
 * ISM bus: driver interface (for PMDs only, not for applications).
 *
 * The ism bus finds IBM ISM PCI functions (vendor 0x1014, device 0x04ed) in
 * the PCI sysfs tree, and ivshmem functions the user named with
 * -a ism:<address>,fabric=ivshmem; it honours EAL -a/-b for them, sets
 * them up through vfio (the kernel's ism_vfio_pci driver on IBM Z, plain
 * vfio-pci elsewhere) and hands each to the matching driver registered with
 * RTE_PMD_REGISTER_ISM(). The bus owns the vfio device: drivers reach the
 * BARs with rte_ism_bus_region_read()/_write() and the interrupt through
 * intr_handle with the rte_intr_*() calls, never through the vfio fd.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <rte_compat.h>
#include <rte_interrupts.h>
#include <rte_pci.h>
#include <dev_driver.h>

#include <ism_compat.h>

#ifdef __cplusplus
extern "C" {
#endif

/** PCI ids of the IBM ISM function (defined here only). */
#define RTE_ISM_BUS_PCI_VENDOR_IBM	0x1014
#define RTE_ISM_BUS_PCI_DEVICE_ISM	0x04ed

/**
 * PCI ids of QEMU's ivshmem function (ivshmem-plain and -doorbell). The
 * bus takes one only when the user names it: -a ism:<address>,fabric=ivshmem
 * (its shared memory then holds an ISM fabric, see the ivshmem backend).
 */
#define RTE_ISM_BUS_PCI_VENDOR_REDHAT	0x1af4
#define RTE_ISM_BUS_PCI_DEVICE_IVSHMEM	0x1110
/** The devargs key and value that name an ivshmem function. */
#define RTE_ISM_BUS_FABRIC_KEY		"fabric"
#define RTE_ISM_BUS_FABRIC_IVSHMEM		"ivshmem"

/** zPCI function type of an ISM function (Linux PCI_FUNC_TYPE_ISM). */
#define RTE_ISM_BUS_ZPCI_PFT_ISM	0x05

/** Number of BARs (PCI standard). */
#define RTE_ISM_BUS_NB_BARS 6

/** One BAR of a probed function. */
struct rte_ism_bus_region {
	uint64_t size;		/**< 0 if the BAR is absent */
	uint64_t offset;	/**< region offset in the vfio device fd */
	uint32_t flags;		/**< VFIO_REGION_INFO_FLAG_* */
	void *addr;		/**< mmap of the BAR, or NULL */
};

/**
 * What vfio reports about an IBM Z (zPCI) function in the capability chain
 * of VFIO_DEVICE_GET_INFO (linux/vfio_zdev.h). All zero when absent (not
 * s390, or a kernel without the capabilities).
 */
struct rte_ism_bus_zpci {
	bool base;		/**< VFIO_DEVICE_INFO_CAP_ZPCI_BASE seen */
	bool group;		/**< VFIO_DEVICE_INFO_CAP_ZPCI_GROUP seen */
	uint8_t pft;		/**< PCI function type (ISM: 0x05) */
	uint16_t pchid;		/**< physical channel id */
	uint64_t start_dma;	/**< first IOVA the function can reach */
	uint64_t end_dma;	/**< last IOVA the function can reach */
	/**
	 * Largest PCI store block in bytes, 0 if unknown: the group
	 * capability's imaxstbl (version 2), else its maxstbl.
	 */
	uint16_t maxstbl;
};

struct rte_ism_bus_driver;

/** An ISM PCI function on the ism bus. */
struct rte_ism_bus_device {
	RTE_TAILQ_ENTRY(rte_ism_bus_device) next; /**< bus device list */
	struct rte_device device;	/**< generic device (name = BDF) */
	struct rte_pci_addr addr;	/**< PCI address */
	char name[PCI_PRI_STR_SIZE];	/**< "0000:00:02.0" */
	uint16_t vendor_id;		/**< from sysfs */
	uint16_t device_id;		/**< from sysfs */
	uint16_t pchid;			/**< zPCI PCHID from sysfs, 0 if none */
	/** An IBM Z (zPCI) function: sysfs shows zPCI attributes. */
	bool zpci;
	char kdriver[32];		/**< bound kernel driver, "" if none */
	int iommu_group;		/**< -1 if none */
	/** The bus's vfio device fd, -1 until set up. Not for drivers. */
	int vfio_dev_fd;
	/** The bus's vfio container of it, -1 for EAL's. Not for drivers. */
	int vfio_container_fd;
	struct rte_ism_bus_region regions[RTE_ISM_BUS_NB_BARS]; /**< BARs */
	/**
	 * The function's interrupt once set up through vfio, NULL if it has
	 * none: vector 0 of MSI, else of MSI-X, on an eventfd. A driver
	 * registers its callback (rte_intr_callback_register()), turns the
	 * interrupt on with rte_intr_enable() and off with
	 * rte_intr_disable(), and unregisters before its remove returns.
	 */
	struct rte_intr_handle *intr_handle;
	struct rte_ism_bus_zpci zpci_info; /**< vfio's zPCI capabilities */
	struct rte_ism_bus_driver *driver; /**< driver that probed it */
};

/** Probe a device; 0 on success, negative errno, or 1 "not mine". */
typedef int (rte_ism_bus_probe_t)(struct rte_ism_bus_driver *drv,
		struct rte_ism_bus_device *dev);
/** Remove a device the driver probed. */
typedef int (rte_ism_bus_remove_t)(struct rte_ism_bus_device *dev);

/** A PCI function a driver takes. */
struct rte_ism_bus_id {
	uint16_t vendor_id;	/**< PCI vendor id */
	uint16_t device_id;	/**< PCI device id */
};

/** A driver on the ism bus. */
struct rte_ism_bus_driver {
	RTE_TAILQ_ENTRY(rte_ism_bus_driver) next; /**< bus driver list */
	struct rte_driver driver;	/**< generic driver */
	rte_ism_bus_probe_t *probe;	/**< device probe */
	rte_ism_bus_remove_t *remove;	/**< device remove */
	uint32_t drv_flags;		/**< RTE_ISM_BUS_DRV_* */
	/**
	 * The functions it takes, ended by an entry of zeros; NULL: the ISM
	 * function (RTE_ISM_BUS_PCI_VENDOR_IBM, RTE_ISM_BUS_PCI_DEVICE_ISM) only.
	 * Checked before any vfio set-up.
	 */
	const struct rte_ism_bus_id *id_table;
};

/** The driver needs the vfio set-up (all real drivers). */
#define RTE_ISM_BUS_DRV_NEED_VFIO	0x0001

/** Register a driver (called by RTE_PMD_REGISTER_ISM). */
__rte_internal
void rte_ism_bus_register(struct rte_ism_bus_driver *drv);

/** Unregister a driver. */
__rte_internal
void rte_ism_bus_unregister(struct rte_ism_bus_driver *drv);

/**
 * Read len bytes at offset off of BAR bar (vfio region read, or the mmap).
 * @return 0 or a negative errno.
 */
__rte_internal
int rte_ism_bus_region_read(struct rte_ism_bus_device *dev, unsigned int bar,
		void *buf, size_t len, uint64_t off);

/**
 * Write len bytes at offset off of BAR bar: one pwrite() on the vfio
 * device (a short write is -EIO), or stores through the mapping. On
 * ism_vfio_pci each call is one PCI store block, which the kernel refuses
 * (-EINVAL) if it is longer than the function's maxstbl or crosses a
 * 4 KiB boundary: the caller splits.
 * @return 0 or a negative errno.
 */
__rte_internal
int rte_ism_bus_region_write(struct rte_ism_bus_device *dev, unsigned int bar,
		const void *buf, size_t len, uint64_t off);

/**
 * Register an ISM bus driver at load time. (Its name is an array of its
 * own: the macro then starts with a declaration, which checkpatch.pl takes
 * for one, where it would ask to put RTE_INIT() in parentheses.)
 */
#define RTE_PMD_REGISTER_ISM(nm, ism_drv) \
static const char ism_bus_drv_name_ ## nm[] = RTE_STR(nm); \
RTE_INIT(ism_bus_initfn_ ## nm) \
{ \
	(ism_drv).driver.name = ism_bus_drv_name_ ## nm; \
	rte_ism_bus_register(&(ism_drv)); \
} \
ISM_PMD_EXPORT_NAME(nm)

#ifdef __cplusplus
}
#endif

#endif /* BUS_ISM_DRIVER_H */
