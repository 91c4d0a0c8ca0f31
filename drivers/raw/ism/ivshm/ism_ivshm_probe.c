/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Creation of ivshmem ISM devices, on either side of a VM boundary:
 *   - vdev "ism_ivshm" with path=: a host process maps the file that backs
 *     the guests' ivshmem memory (QEMU's memory-backend-file), and creates
 *     it (size=) if it does not exist yet;
 *   - the ism bus driver "ism_ivshm": in a guest, an ivshmem-plain function
 *     (1af4:1110) that the user named explicitly
 *     (-a ism:<address>,fabric=ivshmem; the bus never takes one
 *     otherwise), bound to vfio-pci; the bus maps its BAR 2.
 * The first member to find the region zero formats it; the others check
 * its header and use their own copy of the geometry. Any member can write
 * the header: a joiner formats only a region in which no member area
 * holds a member, and takes a header only once it reads the same twice,
 * IVSHM_HDR_SETTLE_MS apart, with the liveness timeout its live members
 * say they joined with; members write back the header they joined with
 * each control pass (ism_ivshm_member.c).
 */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_devargs.h>
#include <rte_eal.h>
#include <rte_malloc.h>
#include <rte_random.h>

#include <ism_compat.h>
#include <bus_vdev_driver.h>

#include "bus_ism_driver.h"
#include "ism_ivshm.h"

/* How long a member waits for another one that is formatting the region
 * before it takes over (the other died while formatting).
 */
#define IVSHM_FORMAT_WAIT_MS	1000
/* ... and gives up after this (another member keeps changing it). */
#define IVSHM_FORMAT_GIVEUP_MS	10000
/* A header is taken once read twice this far apart: the members write
 * back a forged one within a control pass (every IVSHM_PERIOD_US); ten
 * periods leave room for a control thread that runs late.
 */
#define IVSHM_HDR_SETTLE_MS	(10 * IVSHM_PERIOD_US / 1000)

struct ivshm_args {
	struct ism_common_args c;
	bool chid_set;
	uint32_t members;	/* 0: default (only when formatting) */
	uint32_t liveness_ms;	/* 0: default (only when formatting) */
	bool max_dmb_len_set;
};

static const char *const ivshm_vdev_args[] = {
	"path", "size", "gid", "chid", "max_dmbs", "max_dmb_len", "members",
	"liveness_ms", NULL
};

static const char *const ivshm_pci_args[] = {
	"fabric", "gid", "chid", "max_dmbs", "max_dmb_len", "members",
	"liveness_ms", NULL
};

static int
args_get(const char *name, struct rte_kvargs *kv, struct ivshm_args *a)
{
	const char *v;
	uint64_t n;
	int ret;

	a->c.max_dmbs = ISM_DEFAULT_MAX_DMBS;
	a->c.max_dmb_len = ISM_DEFAULT_MAX_DMB_LEN;
	ret = ism_common_args_get(name, kv, &a->c);
	if (ret < 0)
		return ret;
	a->chid_set = rte_kvargs_get(kv, "chid") != NULL;
	a->max_dmb_len_set = rte_kvargs_get(kv, "max_dmb_len") != NULL;
	v = rte_kvargs_get(kv, "members");
	if (v != NULL) {
		ret = ism_parse_u64(name, "members", v, IVSHM_MIN_MEMBERS,
				IVSHM_MAX_MEMBERS, &n);
		if (ret < 0)
			return ret;
		a->members = n;
	}
	v = rte_kvargs_get(kv, "liveness_ms");
	if (v != NULL) {
		ret = ism_parse_u64(name, "liveness_ms", v,
				IVSHM_MIN_LIVENESS_MS, IVSHM_MAX_LIVENESS_MS,
				&n);
		if (ret < 0)
			return ret;
		a->liveness_ms = n;
	}
	return 0;
}

static void
sleep_ms(unsigned int ms)
{
	usleep(ms * 1000);
}

/* Format a region whose header is zero and which holds no member (we won
 * format_owner, nonce).
 */
static int
format_region(struct ivshm_dev *d, const struct ivshm_args *a, uint64_t size,
		uint64_t nonce)
{
	struct ivshm_hdr *h = ivshm_hdr(d->base);
	struct ivshm_layout l;
	uint32_t members = a->members ? a->members : IVSHM_DEF_MEMBERS;

	if (ism_ivshm_layout_compute(size, members, &l) < 0) {
		ISM_PMD_LOG(ERR, "%s: %s: %" PRIu64 " bytes cannot hold %u "
			    "members of at least %u KiB each (devarg members, "
			    "or a larger region)", d->name, d->where, size,
			    members, IVSHM_MIN_PART / 1024);
		/* Let another member with other devargs format it. */
		rte_atomic_store_explicit(&h->format_owner, 0, rte_memory_order_release);
		return -EINVAL;
	}
	l.fabric_id = rte_rand();
	l.chid = a->chid_set ? a->c.chid :
		0xff00 + (uint16_t)(l.fabric_id % 0xff);
	l.liveness_ms = a->liveness_ms ? a->liveness_ms :
		IVSHM_DEF_LIVENESS_MS;
	l.format_owner = nonce;
	/* Whatever a crashed formatter left: the tables start empty. */
	memset((char *)d->base + IVSHM_HDR_SIZE, 0,
	       l.data_off - IVSHM_HDR_SIZE);
	ism_ivshm_hdr_write(h, &l);
	ISM_PMD_LOG(INFO, "%s: new fabric 0x%016" PRIx64 " in %s: %u slots of "
		    "%" PRIu64 " bytes, chid 0x%04x, liveness %u ms", d->name,
		    l.fabric_id, d->where, l.members, l.part_size, l.chid,
		    l.liveness_ms);
	return 0;
}

/* The header, checked, twice the same IVSHM_HDR_SETTLE_MS apart and with
 * the liveness timeout the live members say they use: 0 and d->lay, 1 if
 * not (yet), or the error of ism_ivshm_hdr_check().
 */
static int
read_header(struct ivshm_dev *d, uint64_t size, const char **why)
{
	const struct ivshm_hdr *h = ivshm_hdr(d->base);
	struct ivshm_layout again;
	unsigned int slot;
	uint32_t ms;
	int ret;

	ret = ism_ivshm_hdr_check(h, size, &d->lay, why);
	if (ret != 0)
		return ret;
	sleep_ms(IVSHM_HDR_SETTLE_MS);
	ret = ism_ivshm_hdr_check(h, size, &again, why);
	if (ret == 0 && (!ism_ivshm_layout_same(&again, &d->lay) ||
			 ism_ivshm_liveness_disputed(d->base, &d->lay, &slot,
						     &ms)))
		ret = 1;
	return ret;
}

/* Check the header, or format the region; d->lay on success. */
static int
open_fabric(struct ivshm_dev *d, const struct ivshm_args *a, uint64_t size)
{
	struct ivshm_hdr *h = ivshm_hdr(d->base);
	uint64_t owner, seen = 0, since = 0, now, nonce, w = 0;
	uint64_t end = ism_ivshm_now_ns() + IVSHM_FORMAT_GIVEUP_MS * 1000000ULL;
	unsigned int slot = 0, changed = 0;
	bool members = false;
	const char *why = NULL;
	int ret;

	for (;;) {
		if (ism_ivshm_now_ns() > end) {
			if (members)
				ISM_PMD_LOG(ERR, "%s: %s: the header reads "
					    "unformatted, but slot %u holds a "
					    "member (state word 0x%" PRIx64
					    "), and no member wrote the header "
					    "back in %u ms. Not formatted "
					    "under it: to make a new fabric, "
					    "zero the region while no member "
					    "uses it", d->name, d->where, slot,
					    w, IVSHM_FORMAT_GIVEUP_MS);
			else
				ISM_PMD_LOG(ERR, "%s: %s: no usable fabric "
					    "header after %u ms (someone keeps "
					    "formatting or changing it? %u "
					    "changes seen)", d->name, d->where,
					    IVSHM_FORMAT_GIVEUP_MS, changed);
			return -ETIMEDOUT;
		}
		ret = read_header(d, size, &why);
		if (ret == 0)
			break;
		if (ret == 1) {
			/* Forged, and written back by its members. */
			changed++;
			continue;
		}
		if (ret == -EPROTONOSUPPORT) {
			ISM_PMD_LOG(ERR, "%s: %s holds a fabric of region "
				    "version %u; this driver uses version %u "
				    "(another release made it). Every member "
				    "must run one release: stop them all and "
				    "zero the region to make a new fabric",
				    d->name, d->where, d->lay.version,
				    IVSHM_VERSION);
			return -EPROTONOSUPPORT;
		}
		if (ret == -EBADMSG) {
			ISM_PMD_LOG(ERR, "%s: %s: %s. To make a new fabric, "
				    "zero the region while no member uses it",
				    d->name, d->where, why);
			return -EINVAL;
		}
		/* Zeroed under its members (by one of them): not a region to
		 * format; they write their header back.
		 */
		members = ism_ivshm_region_has_member(d->base, size, &slot, &w);
		if (members) {
			sleep_ms(1);
			continue;
		}
		now = ism_ivshm_now_ns();
		owner = rte_atomic_load_explicit(&h->format_owner, rte_memory_order_acquire);
		if (ret == -EAGAIN && (owner != seen ||
		    now - since < IVSHM_FORMAT_WAIT_MS * 1000000ULL)) {
			if (owner != seen) {
				seen = owner;
				since = now;
			}
			sleep_ms(1);
			continue;
		}
		/* Zero, or a formatter that never finished: ours. */
		nonce = rte_rand() | 1;
		if (!rte_atomic_compare_exchange_strong_explicit(&h->format_owner, &owner,
				nonce, rte_memory_order_acq_rel,
				rte_memory_order_relaxed))
			continue;
		ret = format_region(d, a, size, nonce);
		if (ret < 0)
			return ret;
	}
	if (a->members != 0 && a->members != d->lay.members) {
		ISM_PMD_LOG(ERR, "%s: devarg members=%u, but the fabric in %s "
			    "has %u", d->name, a->members, d->where,
			    d->lay.members);
		return -EINVAL;
	}
	if (a->liveness_ms != 0 && a->liveness_ms != d->lay.liveness_ms) {
		ISM_PMD_LOG(ERR, "%s: devarg liveness_ms=%u, but the fabric in "
			    "%s has %u", d->name, a->liveness_ms, d->where,
			    d->lay.liveness_ms);
		return -EINVAL;
	}
	if (a->max_dmb_len_set && a->c.max_dmb_len > d->lay.part_size) {
		ISM_PMD_LOG(ERR, "%s: devarg max_dmb_len=%u exceeds a member's "
			    "share of %s (%" PRIu64 " bytes)", d->name,
			    a->c.max_dmb_len, d->where, d->lay.part_size);
		return -EINVAL;
	}
	return 0;
}

int
ism_ivshm_dev_create(const char *name, struct rte_device *device,
		const char *args, const struct ivshm_region *r, bool vdev)
{
	struct ivshm_args a = { .c.max_dmbs = 0 };
	struct rte_kvargs *kv;
	struct rte_ism_dev *ism;
	struct ivshm_dev *d;
	unsigned int s;
	int ret;

	kv = ism_kvargs_parse(name, args, vdev ? ivshm_vdev_args :
			ivshm_pci_args);
	ret = kv == NULL ? -EINVAL : args_get(name, kv, &a);
	rte_kvargs_free(kv);
	if (ret == 0 && a.c.gid.gid == 0 && a.c.gid.gid_ext == 0)
		ism_random_gid(&a.c.gid);
	d = ret < 0 ? NULL : (struct ivshm_dev *)ism_pmd_create(name,
			rte_socket_id(), device, IVSHM_DRIVER_NAME,
			&ism_ivshm_backend, sizeof(*d));
	if (d == NULL) {
		/* Until the device owns it, the mapping is ours to undo. */
		if (r->map != NULL)
			munmap(r->map, r->size);
		return ret < 0 ? ret : -rte_errno;
	}
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->where, sizeof(d->where), "%s", r->where);
	d->base = r->base;
	d->map = r->map;
	d->map_len = r->size;
	d->kind = r->kind;
	d->gid = a.c.gid;
	d->max_dmbs = a.c.max_dmbs;
	d->slot = IVSHM_NO_SLOT;
	d->prev_slot = IVSHM_NO_SLOT;
	d->alloc_slot = IVSHM_NO_SLOT;
	d->sba = &d->quiet_sba;
	for (s = 0; s < IVSHM_MAX_MEMBERS; s++)
		d->fp_ent[s] = ism_sw_view_no_ent;
	ism_sw_ids_init(&d->ids, d->max_dmbs);
	TAILQ_INIT(&d->orphans);
	pthread_mutex_init(&d->op_lock, NULL);
	ret = open_fabric(d, &a, r->size);
	if (ret < 0)
		goto err;
	d->chid = a.chid_set ? a.c.chid : d->lay.chid;
	d->max_dmb_len = a.max_dmb_len_set ? a.c.max_dmb_len :
		RTE_MIN((uint64_t)a.c.max_dmb_len, d->lay.part_size);
	d->liveness_ns = (uint64_t)d->lay.liveness_ms * 1000000ULL;
	d->own = rte_zmalloc("ism_ivshm_own", sizeof(*d->own) *
			(IVSHM_IDX_FIRST + d->max_dmbs), 0);
	d->own_view = ism_ivshm_view_new(d->max_dmbs);
	if (d->own == NULL || d->own_view == NULL ||
	    ism_ivshm_alloc_init(&d->alloc, d->max_dmbs + 2,
			     d->lay.part_size / IVSHM_DMB_ALIGN) < 0) {
		ISM_PMD_LOG(ERR, "%s: no memory for the DMB tables", name);
		ret = -ENOMEM;
		goto err;
	}
	ret = ism_ivshm_wake_init(d);
	if (ret < 0)
		goto err;
	d->phase = IVSHM_PH_CLAIM;
	d->phase_ns = ism_ivshm_now_ns();
	ret = ism_ivshm_ctl_attach(d);
	if (ret == 0)
		ret = ism_ivshm_member_join(d);
	if (ret < 0)
		goto err;

	ism = d->common.ism;
	ism->gid = d->gid;
	ism->chid = d->chid;
	ism->max_dmbs = d->max_dmbs;
	ism->max_dmb_len = d->max_dmb_len;
	ism->capa = RTE_ISM_CAPA_NOCOPY | RTE_ISM_CAPA_SIGNAL_EVENT |
		RTE_ISM_CAPA_CROSS_PROCESS | RTE_ISM_CAPA_INTR;
	ism_ivshm_fast_path(ism);
	ret = ism_pmd_finish(&d->common);
	if (ret < 0)
		goto err;
	ISM_PMD_LOG(INFO, "%s: ivshmem ISM device %u in %s (chid 0x%04x, slot "
		    "%u, epoch %" PRIu64 ", liveness %u ms), %u DMBs of up to "
		    "%u bytes, %u peers", name, ism->dev_id, d->where, d->chid,
		    d->slot, d->epoch, d->lay.liveness_ms, d->max_dmbs,
		    d->max_dmb_len,
		    (unsigned int)ism_ivshm_backend.xstat_get(&d->common, 0));
	return 0;
err:
	ism_pmd_destroy(&d->common);
	return ret;
}

/* vdev: map (or create) the file. */
static int
map_file(const char *name, struct rte_kvargs *kv, struct ivshm_region *r)
{
	const char *path = rte_kvargs_get(kv, "path");
	const char *sz = rte_kvargs_get(kv, "size");
	uint64_t want = 0;
	struct stat st;
	int fd, ret;
	void *m;

	if (path == NULL || path[0] == '\0') {
		ISM_PMD_LOG(ERR, "%s: devarg path=<file of the ivshmem "
			    "memory> is required", name);
		return -EINVAL;
	}
	if (sz != NULL) {
		ret = ism_parse_u64(name, "size", sz, IVSHM_MIN_REGION,
				IVSHM_MAX_REGION, &want);
		if (ret < 0)
			return ret;
	}
	fd = open(path, O_RDWR | O_CLOEXEC | (want ? O_CREAT : 0), 0600);
	if (fd < 0) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: devarg path: cannot open %s: %s%s", name,
			    path, strerror(errno), errno == ENOENT ?
			    " (size= creates it)" : "");
		return ret;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		ISM_PMD_LOG(ERR, "%s: devarg path: %s is not a regular file",
			    name, path);
		ret = -EINVAL;
		goto out;
	}
	if (want != 0 && st.st_size == 0 && ftruncate(fd, want) == 0)
		st.st_size = want;
	if (want != 0 && (uint64_t)st.st_size != want) {
		ISM_PMD_LOG(ERR, "%s: devarg size=%" PRIu64 ", but %s has %"
			    PRIu64 " bytes", name, want, path,
			    (uint64_t)st.st_size);
		ret = -EINVAL;
		goto out;
	}
	if ((uint64_t)st.st_size < IVSHM_MIN_REGION ||
	    (uint64_t)st.st_size > IVSHM_MAX_REGION) {
		ISM_PMD_LOG(ERR, "%s: devarg path: %s has %" PRIu64 " bytes, "
			    "not %" PRIu64 " .. %" PRIu64, name, path,
			    (uint64_t)st.st_size, IVSHM_MIN_REGION,
			    IVSHM_MAX_REGION);
		ret = -EINVAL;
		goto out;
	}
	m = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		ret = -errno;
		ISM_PMD_LOG(ERR, "%s: cannot map %s: %s", name, path,
			    strerror(errno));
		goto out;
	}
	r->base = m;
	r->map = m;
	r->size = st.st_size;
	ret = 0;
out:
	close(fd);
	return ret;
}

static int
ivshm_vdev_probe(struct rte_vdev_device *vdev)
{
	const char *name = rte_vdev_device_name(vdev);
	const char *args = rte_vdev_device_args(vdev);
	struct ivshm_region r = { .kind = IVSHM_KIND_HOST };
	struct rte_kvargs *kv;
	int ret;

	/* A secondary process sees the primary's device, read-only. */
	if (rte_eal_process_type() != RTE_PROC_PRIMARY)
		return ism_pmd_attach_secondary(name, &vdev->device);
	kv = ism_kvargs_parse(name, args, ivshm_vdev_args);
	if (kv == NULL)
		return -EINVAL;
	ret = map_file(name, kv, &r);
	if (ret == 0)
		r.where = rte_kvargs_get(kv, "path");
	if (ret == 0)
		ret = ism_ivshm_dev_create(name, &vdev->device, args, &r, true);
	rte_kvargs_free(kv);
	return ret;
}

static struct rte_vdev_driver ism_ivshm_vdev = {
	.probe = ivshm_vdev_probe,
	.remove = ism_pmd_vdev_remove,
};

RTE_PMD_REGISTER_VDEV(ism_ivshm, ism_ivshm_vdev);
RTE_PMD_REGISTER_PARAM_STRING(ism_ivshm,
	"path=<file> size=<bytes, creates it> gid=<0x hex|32 hex|uuid> "
	"chid=<0..65535> max_dmbs=<1..4064> max_dmb_len=<bytes> "
	"members=<2..64> liveness_ms=<20..60000>");

/* The ism bus: an ivshmem-plain function named with fabric=ivshmem. */
static int
ivshm_pci_probe(struct rte_ism_bus_driver *drv __rte_unused,
		struct rte_ism_bus_device *bdev)
{
	const struct rte_ism_bus_region *bar = &bdev->regions[2];
	struct rte_devargs *da = bdev->device.devargs;
	struct ivshm_region r = {
		.kind = IVSHM_KIND_PCI,
		.where = bdev->name,
	};

	if (rte_eal_process_type() != RTE_PROC_PRIMARY) {
		ISM_PMD_LOG(ERR, "%s: the ivshmem backend runs in the primary "
			    "process only", bdev->name);
		return -ENOTSUP;
	}
	if (bar->size < IVSHM_MIN_REGION || bar->size > IVSHM_MAX_REGION ||
	    bar->addr == NULL) {
		ISM_PMD_LOG(ERR, "%s: BAR 2 (the shared memory) is %s: is it "
			    "ivshmem-plain with a memdev?", bdev->name,
			    bar->size == 0 ? "absent" : bar->addr == NULL ?
			    "not mappable" : "of an unsupported size");
		return -ENODEV;
	}
	r.base = bar->addr;
	r.size = bar->size;
	return ism_ivshm_dev_create(bdev->name, &bdev->device,
			da != NULL ? da->args : NULL, &r, false);
}

static int
ivshm_pci_remove(struct rte_ism_bus_device *bdev)
{
	return ism_pmd_remove(bdev->name);
}

static const struct rte_ism_bus_id ivshm_pci_ids[] = {
	{ RTE_ISM_BUS_PCI_VENDOR_REDHAT, RTE_ISM_BUS_PCI_DEVICE_IVSHMEM },
	{ 0, 0 },
};

static struct rte_ism_bus_driver ism_ivshm_pci = {
	.probe = ivshm_pci_probe,
	.remove = ivshm_pci_remove,
	.drv_flags = RTE_ISM_BUS_DRV_NEED_VFIO,
	.id_table = ivshm_pci_ids,
};

RTE_PMD_REGISTER_ISM(ism_ivshm_pci, ism_ivshm_pci);
RTE_PMD_REGISTER_KMOD_DEP(ism_ivshm_pci, "vfio-pci");
RTE_PMD_REGISTER_PARAM_STRING(ism_ivshm_pci,
	"fabric=ivshmem gid=<0x hex|32 hex|uuid> chid=<0..65535> "
	"max_dmbs=<1..4064> max_dmb_len=<bytes> members=<2..64> "
	"liveness_ms=<20..60000>");
