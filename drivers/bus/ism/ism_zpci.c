/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Parser of the zPCI capabilities vfio reports for an IBM Z PCI function.
 * The answer comes from the kernel, but is read as if it did not: every
 * offset and length is checked before a byte is read.
 */

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <linux/vfio.h>
#include <linux/vfio_zdev.h>

#include <rte_common.h>

#include "ism_zpci.h"

/* Bytes of a capability up to and including the end of a field. */
#define CAP_END(type, field) \
	(offsetof(type, field) + sizeof(((type *)0)->field))

static void
zpci_base(const uint8_t *cap, size_t avail, struct rte_ism_bus_zpci *z)
{
	struct vfio_device_info_cap_zpci_base b;

	memset(&b, 0, sizeof(b));
	memcpy(&b, cap, RTE_MIN(avail, sizeof(b)));
	z->base = true;
	z->pft = b.pft;
	z->pchid = b.pchid;
	z->start_dma = b.start_dma;
	z->end_dma = b.end_dma;
}

static void
zpci_group(const uint8_t *cap, size_t avail, uint16_t version,
		struct rte_ism_bus_zpci *z)
{
	struct vfio_device_info_cap_zpci_group g;

	memset(&g, 0, sizeof(g));
	memcpy(&g, cap, RTE_MIN(avail, sizeof(g)));
	z->group = true;
	/*
	 * maxstbl (version 1) is the kernel's own limit for plain stores
	 * (ZPCI_MAX_WRITE_SIZE); version 2 adds imaxstbl, the function's
	 * limit, which ism_vfio_pci enforces on every write.
	 */
	if (version >= 2 &&
	    avail >= CAP_END(struct vfio_device_info_cap_zpci_group, imaxstbl) &&
	    g.imaxstbl != 0)
		z->maxstbl = g.imaxstbl;
	else
		z->maxstbl = g.maxstbl;
}

int
ism_zpci_caps_parse(const void *info, size_t len, struct rte_ism_bus_zpci *z)
{
	const uint8_t *p = info;
	struct vfio_device_info di;
	struct vfio_info_cap_header h;
	unsigned int n;
	size_t avail;
	uint32_t off;

	memset(z, 0, sizeof(*z));
	if (info == NULL || len < sizeof(di))
		return -EINVAL;
	memcpy(&di, p, sizeof(di));
	if (!(di.flags & VFIO_DEVICE_FLAGS_CAPS))
		return 0;
	for (off = di.cap_offset, n = 0; off != 0; off = h.next, n++) {
		if (n == ISM_ZPCI_MAX_CAPS || off < sizeof(di) ||
		    off % sizeof(uint32_t) != 0 || off > len ||
		    len - off < sizeof(h))
			goto bad;
		memcpy(&h, p + off, sizeof(h));
		avail = len - off;
		switch (h.id) {
		case VFIO_DEVICE_INFO_CAP_ZPCI_BASE:
			/* Version 1 ends after gid. */
			if (avail < CAP_END(struct vfio_device_info_cap_zpci_base,
					    gid))
				goto bad;
			zpci_base(p + off, avail, z);
			break;
		case VFIO_DEVICE_INFO_CAP_ZPCI_GROUP:
			/* Version 1 ends after version. */
			if (avail < CAP_END(struct vfio_device_info_cap_zpci_group,
					    version))
				goto bad;
			zpci_group(p + off, avail, h.version, z);
			break;
		default:
			break;
		}
	}
	return 0;
bad:
	memset(z, 0, sizeof(*z));
	return -EINVAL;
}
