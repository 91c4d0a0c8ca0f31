/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The vdev glue of the shm backend: devargs, probe, remove. Everything
 * else of a device is set up by ism_shm_dev_setup() (ism_shm.c).
 */

#include <limits.h>
#include <stdio.h>
#include <sys/resource.h>

#include <bus_vdev_driver.h>

#include "ism_shm.h"

/* The devargs cap max_dmb_len at what the wire format takes. */
_Static_assert(ISM_SW_MAX_DMB_LEN <= SHM_MAX_DMB_LEN, "max_dmb_len cap");

static const char *const shm_valid_args[] = {
	"dir", "gid", "chid", "max_dmbs", "max_dmb_len", "allow_uid",
	"allow_gid", "socket", NULL
};

/*
 * Every DMB keeps one fd. Make room for the ones this device may need if
 * the hard limit allows (the soft limit is often 1024).
 */
static void
raise_fd_limit(const char *name, uint32_t max_dmbs)
{
	struct rlimit rl;
	rlim_t want;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	want = rl.rlim_cur + max_dmbs + 4 * SHM_MAX_SLOTS;
	if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max)
		want = rl.rlim_max;
	if (want <= rl.rlim_cur)
		return;
	rl.rlim_cur = want;
	if (setrlimit(RLIMIT_NOFILE, &rl) == 0)
		ISM_PMD_LOG(INFO, "%s: open-file limit raised to %" PRIu64
			    " for DMB memfds", name, (uint64_t)want);
}

/* The devargs into *a (dir into dir[PATH_MAX]); 0 or -EINVAL (logged). */
static int
shm_args(const char *name, const char *args, struct ism_shm_args *a,
		char *dir, int *socket)
{
	struct rte_kvargs *kv;
	int ret, nb_uid = 0, nb_gid = 0;
	const char *v;

	kv = ism_kvargs_parse(name, args, shm_valid_args);
	if (kv == NULL)
		return -EINVAL;
	ret = ism_common_args_get(name, kv, &a->common);
	if (ret == 0)
		ret = ism_socket_arg_get(name, kv, socket);
	v = rte_kvargs_get(kv, "dir");
	if (ret == 0 && (v == NULL || v[0] == '\0')) {
		ISM_PMD_LOG(ERR, "%s: devarg dir=<rendezvous directory> is "
			    "required", name);
		ret = -EINVAL;
	}
	if (ret == 0)
		snprintf(dir, PATH_MAX, "%s", v);
	a->dir = dir;
	a->chid_set = rte_kvargs_get(kv, "chid") != NULL;
	v = rte_kvargs_get(kv, "allow_uid");
	if (ret == 0 && v != NULL) {
		nb_uid = ism_shm_policy_parse(v, a->allow_uid);
		if (nb_uid < 0)
			ret = -EINVAL;
	}
	v = rte_kvargs_get(kv, "allow_gid");
	if (ret == 0 && v != NULL) {
		nb_gid = ism_shm_policy_parse(v, a->allow_gid);
		if (nb_gid < 0)
			ret = -EINVAL;
	}
	if (nb_uid < 0 || nb_gid < 0)
		ISM_PMD_LOG(ERR, "%s: allow_uid= and allow_gid= take up to %d "
			    "numeric ids: 1000, or [1000,1001], or 1000:1001",
			    name, ISM_SHM_MAX_ALLOW);
	a->nb_allow_uid = RTE_MAX(nb_uid, 0);
	a->nb_allow_gid = RTE_MAX(nb_gid, 0);
	rte_kvargs_free(kv);
	return ret;
}

static int
shm_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	struct ism_shm_args a = {
		.common = {
			.max_dmbs = ISM_DEFAULT_MAX_DMBS,
			.max_dmb_len = ISM_DEFAULT_MAX_DMB_LEN,
		},
	};
	int socket = rte_socket_id();
	struct ism_shm_dev *d;
	char dir[PATH_MAX];
	int ret;

	/* A secondary process sees the primary's device, read-only (it has
	 * no devargs: the bus gives the name only).
	 */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return ism_pmd_attach_secondary(name, &vdev->device);
	ret = shm_args(name, rte_vdev_device_args(vdev), &a, dir, &socket);
	if (ret < 0)
		return ret;
	if (a.common.gid.gid == 0 && a.common.gid.gid_ext == 0)
		ism_random_gid(&a.common.gid);
	raise_fd_limit(name, a.common.max_dmbs);

	d = (struct ism_shm_dev *)ism_pmd_create(name, socket, &vdev->device,
			ISM_SHM_DRIVER_NAME, &ism_shm_backend, sizeof(*d));
	if (d == NULL)
		return -rte_errno;
	snprintf(d->name, sizeof(d->name), "%s", name);
	ret = ism_shm_dev_setup(d, &a);
	if (ret == 0)
		ret = ism_pmd_finish(&d->common);
	if (ret < 0)
		ism_pmd_destroy(&d->common);
	return ret;
}

static struct rte_vdev_driver ism_shm_driver = {
	.probe = shm_probe,
	.remove = ism_pmd_vdev_remove,
};

RTE_PMD_REGISTER_VDEV(ism_shm, ism_shm_driver);
RTE_PMD_REGISTER_PARAM_STRING(ism_shm,
	"dir=<rendezvous directory> gid=<0x hex|32 hex|uuid> "
	"chid=<0..65535> max_dmbs=<1..4064> max_dmb_len=<bytes> "
	"allow_uid=<uid|[uid,...]> allow_gid=<gid|[gid,...]> "
	"socket=<NUMA node>");
