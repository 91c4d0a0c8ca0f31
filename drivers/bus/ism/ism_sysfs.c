/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Scan of the PCI sysfs tree for ISM functions. Runs before DPDK memory
 * exists, so everything here is plain libc. The readers are our own: EAL's
 * are private. A malformed attribute costs one log line, never the scan.
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_common.h>
#include <rte_devargs.h>
#include <rte_memory.h>
#include <rte_string_fns.h>

#include "private.h"

/* Longest attribute accepted: numbers and names are far shorter. */
#define SYSFS_ATTR_MAX 64
/* Longest piece of a bad attribute quoted in a log line. */
#define SYSFS_QUOTE_MAX 24

const char *
ism_sysfs_root(void)
{
	const char *root;

	root = getenv(ISM_BUS_SYSFS_ENV);
	if (root != NULL && root[0] != '\0')
		return root;
	root = getenv(ISM_BUS_SYSFS_PCI_ENV);
	if (root != NULL && root[0] != '\0')
		return root;
	return ISM_BUS_SYSFS_DEFAULT;
}

/*
 * Read <dir>/<attr> into text (NUL-terminated, trailing white space
 * dropped). -ENOENT missing, -ENODATA empty, -EFBIG too long, -EILSEQ
 * contains a NUL byte, other -errno from open/read.
 */
static int
sysfs_read_attr(const char *dir, const char *attr, char *text, size_t size)
{
	char path[PATH_MAX];
	size_t n = 0;
	ssize_t r;
	char extra;
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
			(int)sizeof(path))
		return -ENAMETOOLONG;
	/* O_NONBLOCK: a FIFO planted in the tree must not hang the scan. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < size - 1) {
		/* own-fd: opened here, never passed. */
		r = read(fd, text + n, size - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (r == 0)
			break;
		n += r;
	}
	/* own-fd: opened here, never passed. */
	if (ret == 0 && n == size - 1 && read(fd, &extra, 1) > 0)
		ret = -EFBIG;
	close(fd);
	if (ret != 0)
		return ret;
	text[n] = '\0';
	if (strlen(text) != n)
		return -EILSEQ;
	while (n > 0 && isspace((unsigned char)text[n - 1]))
		text[--n] = '\0';
	return n == 0 ? -ENODATA : 0;
}

/* Parse a whole string as an integer in [min, max]. */
static int
sysfs_parse_num(const char *text, int base, long long min, long long max,
		long long *val)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, base);
	if (end == text || *end != '\0' || isspace((unsigned char)text[0]))
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*val = v;
	return 0;
}

static int
sysfs_read_num(const char *dir, const char *attr, int base, long long min,
		long long max, long long *val, char *text)
{
	int ret;

	ret = sysfs_read_attr(dir, attr, text, SYSFS_ATTR_MAX);
	if (ret == 0)
		ret = sysfs_parse_num(text, base, min, max, val);
	return ret;
}

/*
 * Basename of the symlink <dir>/<attr> into out. -ENOENT missing, -ENOLINK
 * not a symlink, -ENODATA empty, -ENAMETOOLONG basename does not fit.
 */
static int
sysfs_read_link_base(const char *dir, const char *attr, char *out, size_t size)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	ssize_t r;

	if (snprintf(path, sizeof(path), "%s/%s", dir, attr) >=
			(int)sizeof(path))
		return -ENAMETOOLONG;
	r = readlink(path, target, sizeof(target) - 1);
	if (r < 0)
		return errno == EINVAL ? -ENOLINK : -errno;
	target[r] = '\0';
	base = strrchr(target, '/');
	base = base == NULL ? target : base + 1;
	if (base[0] == '\0')
		return -ENODATA;
	if (strlen(base) >= size)
		return -ENAMETOOLONG;
	strlcpy(out, base, size);
	return 0;
}

/* What went wrong with an attribute, for a log line. */
static const char *
sysfs_err_str(int err, const char *text, char *buf, size_t size)
{
	size_t i;

	switch (err) {
	case -ENOENT:
		return "missing";
	case -ENODATA:
		return "empty";
	case -EFBIG:
		snprintf(buf, size, "longer than %d bytes", SYSFS_ATTR_MAX - 1);
		return buf;
	case -EILSEQ:
		return "contains a NUL byte";
	case -ENOLINK:
		return "not a symlink";
	case -EINVAL:
	case -ERANGE:
		/* Quote the start of the text, non-printables as '?'. */
		snprintf(buf, size, "%s: \"%.*s\"", err == -EINVAL ?
			"not a number" : "out of range", SYSFS_QUOTE_MAX, text);
		for (i = 0; buf[i] != '\0'; i++)
			if (!isprint((unsigned char)buf[i]))
				buf[i] = '?';
		return buf;
	default:
		return strerror(-err);
	}
}

static void
sysfs_log_bad(const char *name, const char *attr, int err,
		const char *text, const char *consequence)
{
	char buf[SYSFS_ATTR_MAX + 32];

	ISM_BUS_LOG(WARNING, "%s: sysfs %s: %s; %s",
		name, attr, sysfs_err_str(err, text, buf, sizeof(buf)),
		consequence);
}

bool
ism_sysfs_is_ism(const struct rte_pci_addr *addr)
{
	char dir[PATH_MAX], name[PCI_PRI_STR_SIZE], text[SYSFS_ATTR_MAX];
	long long vendor, device;

	rte_pci_device_name(addr, name, sizeof(name));
	if (snprintf(dir, sizeof(dir), "%s/%s", ism_sysfs_root(), name) >=
			(int)sizeof(dir))
		return false;
	return sysfs_read_num(dir, "vendor", 16, 0, UINT16_MAX, &vendor,
			text) == 0 &&
		sysfs_read_num(dir, "device", 16, 0, UINT16_MAX, &device,
			text) == 0 &&
		vendor == RTE_ISM_BUS_PCI_VENDOR_IBM &&
		device == RTE_ISM_BUS_PCI_DEVICE_ISM;
}

static struct rte_ism_bus_device *
ism_find_by_addr(const struct rte_pci_addr *addr)
{
	struct rte_ism_bus_device *dev;

	FOREACH_DEVICE_ON_ISM_BUS(dev)
		if (rte_pci_addr_cmp(&dev->addr, addr) == 0)
			return dev;
	return NULL;
}

/*
 * Whether the function at dir is an IBM Z (zPCI) function: sysfs shows an
 * attribute that only zPCI functions have (arch/s390/pci/pci_sysfs.c
 * creates it for every function of an s390 machine), so the same test
 * holds in an s390x build and in fake sysfs trees anywhere. Its contents
 * do not matter.
 */
static bool
ism_sysfs_is_zpci(const char *dir)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, ISM_BUS_ZPCI_ATTR) >=
			(int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/*
 * NUMA node, kernel driver, IOMMU group, PCHID and zPCI: all optional, so
 * a missing one is silent; one that is there but unusable is logged.
 */
static void
ism_read_placement(struct rte_ism_bus_device *dev, const char *dir)
{
	char text[SYSFS_ATTR_MAX] = "";
	long long v;
	int ret;

	dev->device.numa_node = SOCKET_ID_ANY;
	ret = sysfs_read_num(dir, "numa_node", 10, -1, INT_MAX, &v, text);
	if (ret == 0 && v >= RTE_MAX_NUMA_NODES)
		ret = -ERANGE;
	if (ret == 0)
		dev->device.numa_node = v;
	else if (ret != -ENOENT)
		sysfs_log_bad(dev->name, "numa_node", ret,
			text, "NUMA node unknown");

	ret = sysfs_read_link_base(dir, "driver", dev->kdriver,
			sizeof(dev->kdriver));
	if (ret == -ENOENT) {
		dev->kdriver[0] = '\0';
	} else if (ret != 0) {
		sysfs_log_bad(dev->name, "driver", ret, "",
			"kernel driver unknown");
		strlcpy(dev->kdriver, "?", sizeof(dev->kdriver));
	}

	dev->iommu_group = -1;
	ret = sysfs_read_link_base(dir, "iommu_group", text, sizeof(text));
	if (ret == 0)
		ret = sysfs_parse_num(text, 10, 0, INT_MAX, &v);
	if (ret == 0)
		dev->iommu_group = v;
	else if (ret != -ENOENT)
		sysfs_log_bad(dev->name, "iommu_group", ret,
			text, "no IOMMU group");

	/*
	 * Only s390 zPCI functions have one ("0x%04x"); the ISM driver takes
	 * it as the CHID. Read here so that drivers get it through this
	 * reader, which neither blocks on a FIFO nor trusts the contents.
	 */
	dev->pchid = 0;
	ret = sysfs_read_num(dir, "pchid", 16, 0, UINT16_MAX, &v, text);
	if (ret == 0)
		dev->pchid = v;
	else if (ret != -ENOENT)
		sysfs_log_bad(dev->name, "pchid", ret, text,
			"PCHID 0");

	dev->zpci = ism_sysfs_is_zpci(dir);
}

static void
ism_insert_sorted(struct rte_ism_bus_device *dev)
{
	struct rte_ism_bus_device *d;

	FOREACH_DEVICE_ON_ISM_BUS(d) {
		if (rte_pci_addr_cmp(&dev->addr, &d->addr) < 0) {
			TAILQ_INSERT_BEFORE(d, dev, next);
			return;
		}
	}
	TAILQ_INSERT_TAIL(&ism_bus.device_list, dev, next);
}

/*
 * An ivshmem function is used by other software (QEMU's shared memory for
 * anything): the bus takes one only when -a (or a hotplug request) names
 * it for this bus with fabric=ivshmem. An ISM function named with a fabric
 * is refused: the key is for ivshmem functions only.
 */
static bool
ism_fabric_wanted(const struct rte_pci_addr *addr, const char *name,
		bool ivshmem)
{
	struct rte_devargs *da = ism_bus_devargs_lookup(addr);
	char fabric[32];

	if (da == NULL || da->policy != RTE_DEV_ALLOWED ||
	    !ism_bus_devargs_fabric(da, fabric, sizeof(fabric))) {
		if (ivshmem && da != NULL && da->policy == RTE_DEV_ALLOWED)
			ISM_BUS_LOG(NOTICE, "%s: an ivshmem function, not an ISM function; skipped. To hold an ISM fabric in its shared memory: -a "
				ISM_BUS_NAME_PREFIX "%s,"
				RTE_ISM_BUS_FABRIC_KEY "="
				RTE_ISM_BUS_FABRIC_IVSHMEM,
				name, name);
		return !ivshmem;
	}
	if (!ivshmem) {
		ISM_BUS_LOG(ERR, "%s: an ISM function named with " RTE_ISM_BUS_FABRIC_KEY "=%s, which is for ivshmem functions only; skipped",
			name, fabric);
		return false;
	}
	if (strcmp(fabric, RTE_ISM_BUS_FABRIC_IVSHMEM) != 0) {
		ISM_BUS_LOG(ERR, "%s: " RTE_ISM_BUS_FABRIC_KEY "=%s: unknown (only "
			RTE_ISM_BUS_FABRIC_KEY "=" RTE_ISM_BUS_FABRIC_IVSHMEM "); skipped",
			name, fabric);
		return false;
	}
	return true;
}

/*
 * Look at one entry of the tree. 0 if handled (kept, skipped or
 * malformed), -ENOMEM if the scan must stop.
 */
static int
ism_scan_one(const char *root, const char *entry,
		const struct rte_pci_addr *addr)
{
	char dir[PATH_MAX], name[PCI_PRI_STR_SIZE], text[SYSFS_ATTR_MAX];
	struct rte_ism_bus_device *dev;
	long long vendor, device;
	bool ivshmem;
	int ret;

	rte_pci_device_name(addr, name, sizeof(name));
	if (snprintf(dir, sizeof(dir), "%s/%s", root, entry) >=
			(int)sizeof(dir)) {
		ISM_BUS_LOG(WARNING, "%s: sysfs path too long; skipped", name);
		return 0;
	}
	ret = sysfs_read_num(dir, "vendor", 16, 0, UINT16_MAX, &vendor, text);
	if (ret != 0) {
		sysfs_log_bad(name, "vendor", ret, text,
			"skipped");
		return 0;
	}
	ret = sysfs_read_num(dir, "device", 16, 0, UINT16_MAX, &device, text);
	if (ret != 0) {
		sysfs_log_bad(name, "device", ret, text,
			"skipped");
		return 0;
	}
	ivshmem = vendor == RTE_ISM_BUS_PCI_VENDOR_REDHAT &&
		device == RTE_ISM_BUS_PCI_DEVICE_IVSHMEM;
	if (!ivshmem && (vendor != RTE_ISM_BUS_PCI_VENDOR_IBM ||
			device != RTE_ISM_BUS_PCI_DEVICE_ISM))
		return 0;
	if (!ism_fabric_wanted(addr, name, ivshmem))
		return 0;

	dev = ism_find_by_addr(addr);
	if (dev != NULL) {
		/*
		 * Rescan (hotplug): an idle function may have been bound to
		 * vfio-pci since, and new -a/-b entries apply to it.
		 */
		if (!rte_dev_is_probed(&dev->device)) {
			ism_read_placement(dev, dir);
			dev->device.devargs = ism_bus_devargs_lookup(addr);
		}
		return 0;
	}
	if (ism_bus_ignored(addr)) {
		ISM_BUS_LOG(DEBUG, "%s: ISM function excluded by -a/-b", name);
		return 0;
	}

	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		ISM_BUS_LOG(ERR, "%s: out of memory", name);
		return -ENOMEM;
	}
	dev->addr = *addr;
	strlcpy(dev->name, name, sizeof(dev->name));
	dev->device.name = dev->name;
	dev->device.bus = &ism_bus.bus;
	dev->vendor_id = vendor;
	dev->device_id = device;
	dev->vfio_dev_fd = -1;
	dev->vfio_container_fd = -1;
	ism_read_placement(dev, dir);
	dev->device.devargs = ism_bus_devargs_lookup(addr);
	ism_insert_sorted(dev);
	ISM_BUS_LOG(INFO, "%s: %s%s, NUMA node %d, kernel driver %s, IOMMU group %d",
		dev->name, ivshmem ? "ivshmem function (named with "
			RTE_ISM_BUS_FABRIC_KEY "=" RTE_ISM_BUS_FABRIC_IVSHMEM ")" :
			"ISM function",
		dev->zpci ? " (IBM Z)" : "",
		dev->device.numa_node,
		dev->kdriver[0] != '\0' ? dev->kdriver : "none",
		dev->iommu_group);
	return 0;
}

/*
 * Bring every -a/-b name of this bus to the canonical form the devices
 * have ("0000:00:02.0"): EAL compares names as strings when it looks up a
 * hotplugged device, and keeps "ism:" in the name when another bus
 * registered first and claimed the plain address.
 */
static void
ism_devargs_normalize(void)
{
	struct rte_devargs *da;
	struct rte_pci_addr addr;

	RTE_EAL_DEVARGS_FOREACH(ism_bus.bus.name, da) {
		if (ism_bus_addr_parse(da->name, &addr) == 0)
			rte_pci_device_name(&addr, da->name, sizeof(da->name));
	}
}

/* An allowlisted address that is no ISM function is probably a typo. */
static void
ism_devargs_check_unmatched(void)
{
	struct rte_devargs *da;
	struct rte_pci_addr addr;

	RTE_EAL_DEVARGS_FOREACH(ism_bus.bus.name, da) {
		if (da->policy != RTE_DEV_ALLOWED ||
				ism_bus_addr_parse(da->name, &addr) != 0)
			continue;
		if (ism_find_by_addr(&addr) == NULL)
			ISM_BUS_LOG(WARNING, "%s: allowed, but there is no ISM function at this address under %s",
				da->name, ism_sysfs_root());
	}
}

int
ism_bus_scan(void)
{
	const char *root = ism_sysfs_root();
	struct rte_pci_addr addr;
	struct dirent *e;
	DIR *dir;
	int ret = 0;

	ism_devargs_normalize();
	dir = opendir(root);
	if (dir == NULL) {
		if (errno == ENOENT) {
			ISM_BUS_LOG(INFO, "no PCI sysfs tree at %s", root);
			return 0;
		}
		ISM_BUS_LOG(ERR, "cannot open the PCI sysfs tree %s: %s", root,
			strerror(errno));
		return -1;
	}
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.' ||
				rte_pci_addr_parse(e->d_name, &addr) != 0)
			continue;
		if (ism_scan_one(root, e->d_name, &addr) != 0) {
			ret = -1;
			break;
		}
	}
	closedir(dir);
	ism_devargs_check_unmatched();
	return ret;
}
