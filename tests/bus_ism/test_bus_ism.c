/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * ism-bus-test: EAL with the ism bus and a test driver on it that records
 * probe and remove calls on stdout, then runs commands (hotplug, removal,
 * iteration, DMA map, region access) and rte_eal_cleanup. bus_ism_test.py
 * builds fake sysfs trees, runs this program and checks what it printed.
 *
 *   ism-bus-test [EAL options] -- [--vfio] [--fail BDF] [--decline BDF]
 *                [probe DEVARGS | remove BDF | list FILTER | devargs |
 *                 buses | dmamap BDF | region BDF | vfio BDF | intr BDF |
 *                 api | shell CMD]...
 *
 * --vfio registers the test drivers with RTE_ISM_BUS_DRV_NEED_VFIO, as a real
 * driver does; without it the bus hands the driver every ISM function (and
 * the second test driver every ivshmem function it takes).
 * --fail makes the first probe of BDF fail, --decline every probe of it.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <rte_bus.h>
#include <rte_dev.h>
#include <rte_devargs.h>
#include <rte_cycles.h>
#include <rte_eal.h>
#include <rte_errno.h>
#include <rte_interrupts.h>
#include <rte_memory.h>

#include <ism_compat.h>

#include <bus_ism_driver.h>
#include <bus_vdev_driver.h>

static const char *fail_bdf;
static const char *decline_bdf;
static int failures;

static const char *
devargs_args(const struct rte_device *dev)
{
	const struct rte_devargs *da = dev->devargs;

	return da != NULL && da->args != NULL && da->args[0] != '\0' ?
		da->args : "-";
}

static int
test_probe(struct rte_ism_bus_driver *drv, struct rte_ism_bus_device *dev)
{
	if (decline_bdf != NULL && strcmp(dev->name, decline_bdf) == 0) {
		printf("DECLINE %s\n", dev->name);
		return 1;
	}
	if (fail_bdf != NULL && strcmp(dev->name, fail_bdf) == 0) {
		fail_bdf = NULL;	/* once */
		printf("FAILPROBE %s\n", dev->name);
		return -EIO;
	}
	printf("PROBE %s driver=%s numa=%d kdrv=%s group=%d vfio=%s args=%s\n",
		dev->name, drv->driver.name, dev->device.numa_node,
		dev->kdriver[0] != '\0' ? dev->kdriver : "none",
		dev->iommu_group, dev->vfio_dev_fd >= 0 ? "yes" : "no",
		devargs_args(&dev->device));
	printf("PCHID %s 0x%04x\n", dev->name, dev->pchid);
	return 0;
}

static int
test_remove(struct rte_ism_bus_device *dev)
{
	printf("REMOVE %s\n", dev->name);
	return 0;
}

static struct rte_ism_bus_driver test_drv = {
	.probe = test_probe,
	.remove = test_remove,
};

RTE_PMD_REGISTER_ISM(ism_bus_test, test_drv);

/* A driver of ivshmem functions, which the bus takes only when named. */
static const struct rte_ism_bus_id test_ivshmem_ids[] = {
	{ RTE_ISM_BUS_PCI_VENDOR_REDHAT, RTE_ISM_BUS_PCI_DEVICE_IVSHMEM },
	{ 0, 0 },
};

static struct rte_ism_bus_driver test_ivshmem_drv = {
	.probe = test_probe,
	.remove = test_remove,
	.id_table = test_ivshmem_ids,
};

RTE_PMD_REGISTER_ISM(ism_bus_test_ivshmem, test_ivshmem_drv);

/* A vdev whose name starts with "ism": it must still reach the vdev bus. */
static int
test_vdev_probe(struct rte_vdev_device *vdev)
{
	printf("VDEV_PROBE %s\n", rte_vdev_device_name(vdev));
	return 0;
}

static int
test_vdev_remove(struct rte_vdev_device *vdev __rte_unused)
{
	return 0;
}

static struct rte_vdev_driver test_vdev_drv = {
	.probe = test_vdev_probe,
	.remove = test_vdev_remove,
};

RTE_PMD_REGISTER_VDEV(ism_bustest, test_vdev_drv);

static struct rte_device *
find_ism_dev(const char *bdf)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;
	char filter[128];

	snprintf(filter, sizeof(filter), "bus=ism,addr=%s", bdf);
	RTE_DEV_FOREACH(dev, filter, &it)
		return dev;
	return NULL;
}

static struct rte_ism_bus_device *
find_ism_idev(const char *bdf)
{
	struct rte_device *dev = find_ism_dev(bdf);

	return dev == NULL ? NULL :
		container_of(dev, struct rte_ism_bus_device, device);
}

static void
cmd_list(const char *filter)
{
	struct rte_dev_iterator it;
	struct rte_device *dev;

	rte_errno = 0;
	RTE_DEV_FOREACH(dev, filter, &it)
		printf("LIST %s %s %s\n", filter, rte_bus_name(rte_dev_bus(dev)),
			rte_dev_name(dev));
	printf("LIST_END %s rte_errno=%d\n", filter, rte_errno);
}

static int
print_bus(const struct rte_bus *bus, const void *data __rte_unused)
{
	printf("BUS %s\n", rte_bus_name(bus));
	return 1;	/* keep going: every bus in registration order */
}

static void
cmd_devargs(void)
{
	struct rte_devargs *da;

	RTE_EAL_DEVARGS_FOREACH(NULL, da)
		printf("DEVARGS %s %s %s\n", rte_bus_name(da->bus), da->name,
			da->policy == RTE_DEV_BLOCKED ? "blocked" : "allowed");
}

static void
cmd_remove(const char *bdf)
{
	struct rte_device *dev = find_ism_dev(bdf);

	if (dev == NULL) {
		printf("HOTPLUG_REMOVE %s rc=nodev\n", bdf);
		return;
	}
	printf("HOTPLUG_REMOVE %s rc=%d\n", bdf, rte_dev_remove(dev));
}

/* DMA map of external memory: needs the device set up through vfio. */
static void
cmd_dmamap(const char *bdf)
{
	struct rte_device *dev = find_ism_dev(bdf);
	size_t pgsz = sysconf(_SC_PAGESIZE), len = 2 * pgsz;
	void *mem;
	int rc, err;

	if (dev == NULL) {
		printf("DMAMAP %s rc=nodev\n", bdf);
		return;
	}
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || rte_extmem_register(mem, len, NULL, 0,
			pgsz) != 0) {
		printf("DMAMAP %s rc=setup-failed\n", bdf);
		failures++;
		if (mem != MAP_FAILED)
			munmap(mem, len);
		return;
	}
	rc = rte_dev_dma_map(dev, mem, (uintptr_t)mem, len);
	err = rte_errno;
	if (rc == 0)
		printf("DMAMAP %s rc=0 unmap=%d\n", bdf,
			rte_dev_dma_unmap(dev, mem, (uintptr_t)mem, len));
	else
		printf("DMAMAP %s rc=%d rte_errno=%s\n", bdf, rc,
			err == ENOTSUP ? "ENOTSUP" : rte_strerror(err));
	rte_extmem_unregister(mem, len);
	munmap(mem, len);
}

static void
cmd_region(const char *bdf)
{
	struct rte_ism_bus_device *idev = find_ism_idev(bdf);
	uint32_t v = 0;

	if (idev == NULL) {
		printf("REGION %s rc=nodev\n", bdf);
		return;
	}
	printf("REGION %s read=%d write=%d\n", bdf,
		rte_ism_bus_region_read(idev, 0, &v, sizeof(v), 0),
		rte_ism_bus_region_write(idev, 0, &v, sizeof(v), 0));
}

/* 16 bytes of a BAR as text, non-printables as '.'. */
static void
print_bar_text(const char *what, int rc, const char *buf)
{
	char text[17];
	int i;

	for (i = 0; i < 16; i++)
		text[i] = buf[i] >= 0x20 && buf[i] < 0x7f ? buf[i] : '.';
	text[16] = '\0';
	printf("VFIO_READ %s rc=%d %s\n", what, rc, text);
}

/*
 * vfio BDF: on a device set up through vfio (VM test), access its largest
 * BAR through the mapping and through region read/write (the path used
 * where BARs cannot be mapped), and check each path sees the other's
 * writes. The host reads the same memory (ivshmem) afterwards.
 */
static void
cmd_vfio(const char *bdf)
{
	static const char pw[16] = "ism-bus-pwrite!";
	static const char mm[16] = "ism-bus-mmio-ok";
	struct rte_ism_bus_device *dev = find_ism_idev(bdf);
	struct rte_ism_bus_region *r;
	unsigned int i, bar = 0;
	char buf[16], buf2[16];
	uint32_t v_map, v_rw;
	void *map;
	int rc, rc2;

	if (dev == NULL || dev->vfio_dev_fd < 0) {
		printf("VFIO %s not set up\n", bdf);
		failures++;
		return;
	}
	printf("REGIONS %s", bdf);
	for (i = 0; i < RTE_ISM_BUS_NB_BARS; i++) {
		r = &dev->regions[i];
		if (r->size == 0)
			continue;
		printf(" bar%u=0x%" PRIx64 ":%s", i, r->size,
			r->addr != NULL ? "mapped" : "rw");
		if (r->size > dev->regions[bar].size)
			bar = i;
	}
	printf("\n");
	r = &dev->regions[bar];
	map = r->addr;
	if (map == NULL || r->size < 3 * 4096) {
		printf("VFIO %s: BAR%u not mapped or too small\n", bdf, bar);
		failures++;
		return;
	}

	rc = rte_ism_bus_region_read(dev, bar, buf, sizeof(buf), 0);
	print_bar_text("map", rc, buf);
	rc = rte_ism_bus_region_read(dev, bar, &v_map, sizeof(v_map), 4);

	r->addr = NULL;		/* force region read/write (pread/pwrite) */
	rc2 = rte_ism_bus_region_read(dev, bar, buf, sizeof(buf), 0);
	print_bar_text("rw", rc2, buf);
	rc2 |= rte_ism_bus_region_read(dev, bar, &v_rw, sizeof(v_rw), 4);
	printf("VFIO_REG32 rc=%d same=%d\n", rc | rc2, v_map == v_rw);
	rc = rte_ism_bus_region_write(dev, bar, pw, sizeof(pw), 4096);
	r->addr = map;

	rc |= rte_ism_bus_region_write(dev, bar, mm, sizeof(mm), 8192);
	rc |= rte_ism_bus_region_read(dev, bar, buf, sizeof(buf), 4096);
	printf("VFIO_CROSS map_sees_rw=%d rc=%d\n",
		memcmp(buf, pw, sizeof(pw)) == 0, rc);
	/* Unaligned: mixed access widths through the mapping. */
	rc = rte_ism_bus_region_read(dev, bar, buf2, 13, 8192 + 1);
	r->addr = NULL;
	rc |= rte_ism_bus_region_read(dev, bar, buf, sizeof(buf), 8192);
	r->addr = map;
	printf("VFIO_CROSS rw_sees_map=%d unaligned_same=%d rc=%d\n",
		memcmp(buf, mm, sizeof(mm)) == 0,
		memcmp(buf2, mm + 1, 13) == 0, rc);
	printf("VFIO_BOUNDS rc=%d\n", rte_ism_bus_region_read(dev, bar, buf,
		sizeof(buf), r->size - 8));
}

static RTE_ATOMIC(uint32_t) intr_seen;

static void
intr_cb(void *arg __rte_unused)
{
	rte_atomic_fetch_add_explicit(&intr_seen, 1, rte_memory_order_release);
}

/* Wait (bounded, only against a hang) until n interrupts were seen. */
static bool
intr_wait(uint32_t n)
{
	uint64_t deadline = rte_get_timer_cycles() + 20 * rte_get_timer_hz();

	while (rte_atomic_load_explicit(&intr_seen, rte_memory_order_acquire) < n &&
	       rte_get_timer_cycles() < deadline)
		rte_delay_us_sleep(1000);
	return rte_atomic_load_explicit(&intr_seen, rte_memory_order_acquire) >= n;
}

/*
 * intr BDF: the interrupt handle the bus set up, used as a driver uses it
 * (rte_intr_callback_register, rte_intr_enable, which routes the vector
 * to the eventfd with VFIO_DEVICE_SET_IRQS; rte_intr_disable,
 * rte_intr_callback_unregister_sync). The VM test's function is an
 * ivshmem-doorbell, which interrupts itself when its own ID is written to
 * its doorbell register (BAR 0: IVPosition at 8, doorbell at 12).
 */
static void
cmd_intr(const char *bdf)
{
	struct rte_ism_bus_device *dev = find_ism_idev(bdf);
	struct rte_intr_handle *h;
	uint32_t pos = 0, bell;
	const char *type;
	bool seen1, seen2;
	int rc;

	if (dev == NULL || dev->intr_handle == NULL) {
		printf("INTR %s no handle\n", bdf);
		failures++;
		return;
	}
	h = dev->intr_handle;
	type = rte_intr_type_get(h) == RTE_INTR_HANDLE_VFIO_MSIX ? "msix" :
		rte_intr_type_get(h) == RTE_INTR_HANDLE_VFIO_MSI ? "msi" : "?";
	rte_atomic_store_explicit(&intr_seen, 0, rte_memory_order_relaxed);
	rc = rte_intr_callback_register(h, intr_cb, NULL);
	if (rc == 0)
		rc = rte_intr_enable(h);
	if (rc == 0)
		rc = rte_ism_bus_region_read(dev, 0, &pos, sizeof(pos), 8);
	bell = pos << 16;
	if (rc == 0)
		rc = rte_ism_bus_region_write(dev, 0, &bell, sizeof(bell), 12);
	seen1 = rc == 0 && intr_wait(1);
	if (rc == 0)
		rc = rte_ism_bus_region_write(dev, 0, &bell, sizeof(bell), 12);
	seen2 = rc == 0 && intr_wait(2);
	printf("INTR %s type=%s pos=%u rc=%d seen=%u%s\n", bdf, type, pos, rc,
		rte_atomic_load_explicit(&intr_seen, rte_memory_order_acquire),
		seen1 && seen2 ? "" : " (timed out)");
	rc = rte_intr_disable(h);
	/* unregister: the number of callbacks removed (1). */
	printf("INTR_OFF %s rc=%d unregister=%d\n", bdf, rc,
		rte_intr_callback_unregister_sync(h, intr_cb, NULL));
}

/* Bad arguments to the driver-facing calls: errors, no crash. */
static void
cmd_api(void)
{
	static struct rte_ism_bus_driver unregistered = {
		.driver = { .name = "never_registered" },
	};
	struct rte_ism_bus_device dev = { .vfio_dev_fd = -1 };
	uint32_t v;

	strcpy(dev.name, "0000:ff:1f.7");
	dev.regions[2].size = 16;
	printf("API read_null_dev=%d\n",
		rte_ism_bus_region_read(NULL, 0, &v, sizeof(v), 0));
	printf("API read_null_buf=%d\n",
		rte_ism_bus_region_read(&dev, 2, NULL, sizeof(v), 0));
	printf("API read_bad_bar=%d\n",
		rte_ism_bus_region_read(&dev, RTE_ISM_BUS_NB_BARS, &v, 4, 0));
	printf("API read_absent_bar=%d\n",
		rte_ism_bus_region_read(&dev, 0, &v, sizeof(v), 0));
	printf("API read_beyond=%d\n",
		rte_ism_bus_region_read(&dev, 2, &v, sizeof(v), 14));
	printf("API write_wrap=%d\n",
		rte_ism_bus_region_write(&dev, 2, &v, sizeof(v), UINT64_MAX));
	rte_ism_bus_register(NULL);
	rte_ism_bus_register(&unregistered);	/* no probe function */
	rte_ism_bus_unregister(&unregistered);
	rte_ism_bus_unregister(NULL);
	printf("API done\n");
}

static int
run_command(char **argv, int argc, int i)
{
	const char *cmd = argv[i];
	const char *arg = i + 1 < argc ? argv[i + 1] : NULL;

	if (strcmp(cmd, "devargs") == 0) {
		cmd_devargs();
		return 1;
	}
	if (strcmp(cmd, "api") == 0) {
		cmd_api();
		return 1;
	}
	if (strcmp(cmd, "buses") == 0) {
		rte_bus_find(NULL, print_bus, NULL);
		return 1;
	}
	if (arg == NULL) {
		printf("ERROR %s needs an argument\n", cmd);
		failures++;
		return 1;
	}
	if (strcmp(cmd, "probe") == 0)
		printf("HOTPLUG_PROBE %s rc=%d\n", arg, rte_dev_probe(arg));
	else if (strcmp(cmd, "remove") == 0)
		cmd_remove(arg);
	else if (strcmp(cmd, "list") == 0)
		cmd_list(arg);
	else if (strcmp(cmd, "dmamap") == 0)
		cmd_dmamap(arg);
	else if (strcmp(cmd, "region") == 0)
		cmd_region(arg);
	else if (strcmp(cmd, "vfio") == 0)
		cmd_vfio(arg);
	else if (strcmp(cmd, "intr") == 0)
		cmd_intr(arg);
	else if (strcmp(cmd, "shell") == 0)	/* change the fake tree */
		printf("SHELL rc=%d\n", system(arg));
	else {
		printf("ERROR unknown command %s\n", cmd);
		failures++;
		return 1;
	}
	return 2;
}

int
main(int argc, char **argv)
{
	int sep, i, ret;

	/* One line at a time: the checks read stdout and the log together. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (sep = 1; sep < argc; sep++)
		if (strcmp(argv[sep], "--") == 0)
			break;
	/* Options that shape the driver come before the EAL probes it. */
	for (i = sep + 1; i < argc; i++) {
		if (strcmp(argv[i], "--vfio") == 0) {
			test_drv.drv_flags |= RTE_ISM_BUS_DRV_NEED_VFIO;
			test_ivshmem_drv.drv_flags |= RTE_ISM_BUS_DRV_NEED_VFIO;
		} else if (strcmp(argv[i], "--fail") == 0 && i + 1 < argc)
			fail_bdf = argv[++i];
		else if (strcmp(argv[i], "--decline") == 0 && i + 1 < argc)
			decline_bdf = argv[++i];
		else
			break;
	}

	ret = rte_eal_init(sep, argv);
	if (ret < 0) {
		printf("EAL_INIT failed: %s\n", rte_strerror(rte_errno));
		return 1;
	}
	printf("EAL_INIT ok\n");

	while (i < argc)
		i += run_command(argv, argc, i);

	ret = rte_eal_cleanup();
	printf("CLEANUP rc=%d\n", ret);
	return ret != 0 || failures != 0;
}
