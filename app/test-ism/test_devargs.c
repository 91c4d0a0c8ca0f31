/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Devargs of the fixture's backend: each bad value is refused with a log
 * line naming the key, and leaves no device (no ISM device, no mapping of
 * the ivshmem backend's region file).
 * Only for backends built on the common devargs (gid, chid, max_dmbs,
 * max_dmb_len).
 */

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_log.h>

#include "test_ism.h"

/* Mappings in this process of the file the fixture's devargs name with
 * path= (the ivshmem backend's region); 0 without one.
 */
static int
path_maps(void)
{
	const char *p = strstr(fx.spawn_args, "path=");
	char path[256], line[512];
	FILE *m;
	int n = 0;

	if (p == NULL)
		return 0;
	p += strlen("path=");
	snprintf(path, sizeof(path), " %.*s", (int)strcspn(p, ","), p);
	m = fopen("/proc/self/maps", "r");
	if (m == NULL)
		return -errno;
	while (fgets(line, sizeof(line), m) != NULL)
		if (strstr(line, path) != NULL)
			n++;
	fclose(m);
	return n;
}

/* Create device name with devargs full_prefix + args; expect failure,
 * key in the log and no device left.
 */
static int
expect_refused_with(const char *name, const char *full_prefix,
		const char *args, const char *key)
{
	char full[512];
	char *log = NULL;
	size_t len = 0;
	FILE *f, *old = rte_log_get_stream();
	int ret, maps = path_maps();

	snprintf(full, sizeof(full), "%s%s", full_prefix, args);
	f = open_memstream(&log, &len);
	TEST_ASSERT(f != NULL, "open_memstream");
	rte_openlog_stream(f);
	ret = rte_vdev_init(name, full);
	rte_openlog_stream(old);
	fclose(f);
	if (ret == 0)
		rte_vdev_uninit(name);
	TEST_ASSERT(ret < 0, "\"%s\" accepted", args);
	TEST_ASSERT(log != NULL && strstr(log, key) != NULL,
		    "log for \"%s\" does not name \"%s\": %s", args, key,
		    log ? log : "");
	free(log);
	TEST_ASSERT_EQUAL(rte_ism_get_dev_id(name), -ENODEV, "get_dev_id");
	TEST_ASSERT_EQUAL(path_maps(), maps, "mappings of the region after "
			  "\"%s\" was refused", args);
	return TEST_SUCCESS;
}

/* The fixture's backend and devargs, plus args: refused, naming key. */
static int
expect_refused(const char *args, const char *key)
{
	char name[RTE_ISM_NAME_LEN], prefix[sizeof(fx.spawn_args) + 1];

	snprintf(name, sizeof(name), "%.50s_bad", fx.spawn_drv);
	snprintf(prefix, sizeof(prefix), "%s%s", fx.spawn_args,
		 fx.spawn_args[0] ? "," : "");
	return expect_refused_with(name, prefix, args, key);
}

static int
test_bad_devargs(void)
{
	uint16_t before = rte_ism_dev_count();

	TEST_ASSERT_SUCCESS(expect_refused("bogus=1", "bogus"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("gid=0xzz", "gid"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("gid=0x0", "gid"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("chid=65536", "chid"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("chid=-1", "chid"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("max_dmbs=0", "max_dmbs"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("max_dmbs=4065", "max_dmbs"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("max_dmbs=12abc", "max_dmbs"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("max_dmb_len=0", "max_dmb_len"),
			    "devargs refused");
	TEST_ASSERT_SUCCESS(expect_refused("max_dmbs=8,max_dmbs=9", "max_dmbs"),
			    "devargs refused");
	TEST_ASSERT(rte_ism_dev_count() == before, "device count changed");
	return TEST_SUCCESS;
}

/* A GID already present in the fabric is refused. */
static int
test_duplicate_gid(void)
{
	char args[128], gid[RTE_ISM_GID_STRLEN];

	rte_ism_gid_format(&fx.ia.gid, gid, sizeof(gid));
	snprintf(args, sizeof(args), "gid=%s", gid);
	return expect_refused(args, "GID");
}

static int
test_good_devargs(void)
{
	char name[RTE_ISM_NAME_LEN];
	struct rte_ism_dev_info info;
	int id;

	id = fx_spawn("gid=0x1234abcd,max_dmbs=100,max_dmb_len=65536,"
		      "chid=0xffff", name, sizeof(name));
	TEST_ASSERT(id >= 0, "spawn: %d", id);
	TEST_ASSERT_SUCCESS(rte_ism_info_get(id, &info), "info_get");
	TEST_ASSERT(info.gid.gid == 0x1234abcd && info.gid.gid_ext == 0 &&
		    info.max_dmbs == 100 && info.max_dmb_len == 65536 &&
		    info.chid == 0xffff, "devargs not applied");
	TEST_ASSERT_SUCCESS(fx_unspawn(name), "remove a spawned device");
	return TEST_SUCCESS;
}

/*
 * ism_shm only: a dir= that is refused (too long for the sockets' paths)
 * is not left behind when the driver created it.
 */
static int
test_shm_dir_refused(void)
{
	char base[] = "/tmp/ism-test-dir.XXXXXX";
	char dir[256];
	struct stat st;
	int ret, gone;

	if (strcmp(fx.spawn_drv, "ism_shm") != 0)
		return TEST_SKIPPED;
	TEST_ASSERT_NOT_NULL(mkdtemp(base), "mkdtemp: %s", strerror(errno));
	/* Too long for a socket path (sun_path: 108 bytes), not for a
	 * directory.
	 */
	snprintf(dir, sizeof(dir), "%s/%0120d", base, 0);
	ret = expect_refused_with("ism_shm_longdir", "dir=", dir, "dir=");
	gone = stat(dir, &st) < 0 && errno == ENOENT;
	rmdir(dir);
	rmdir(base);
	TEST_ASSERT_SUCCESS(ret, "a dir= of %zu characters refused",
			    strlen(dir));
	TEST_ASSERT(gone, "refused dir=%s left behind", dir);
	return TEST_SUCCESS;
}

static const struct test_case devargs_cases[] = {
	{ "bad_devargs", test_bad_devargs },
	{ "duplicate_gid", test_duplicate_gid },
	{ "good_devargs", test_good_devargs },
	{ "shm_dir_refused", test_shm_dir_refused },
	{ NULL, NULL },
};

const struct test_suite suite_devargs = { "devargs", devargs_cases, 1 };
