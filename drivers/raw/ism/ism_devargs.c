/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Devargs shared by the ISM backends; every error names the key. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rte_lcore.h>
#include <rte_random.h>

#include "ism_pmd.h"

struct rte_kvargs *
ism_kvargs_parse(const char *devname, const char *args,
		const char *const valid[])
{
	struct rte_kvargs *kv;
	unsigned int i, k;

	/* Parse without a key filter first, to say which key is unknown. */
	kv = rte_kvargs_parse(args != NULL ? args : "", NULL);
	if (kv == NULL) {
		ISM_PMD_LOG(ERR, "%s: cannot parse devargs \"%s\": want "
			    "key=value[,key=value...]", devname, args);
		return NULL;
	}
	for (i = 0; i < kv->count; i++) {
		for (k = 0; valid[k] != NULL; k++)
			if (strcmp(kv->pairs[i].key, valid[k]) == 0)
				break;
		if (valid[k] == NULL) {
			ISM_PMD_LOG(ERR, "%s: unknown devarg key \"%s\"",
				    devname, kv->pairs[i].key);
			goto err;
		}
		if (kv->pairs[i].value == NULL) {
			ISM_PMD_LOG(ERR, "%s: devarg \"%s\" needs a value",
				    devname, kv->pairs[i].key);
			goto err;
		}
		if (rte_kvargs_count(kv, kv->pairs[i].key) > 1) {
			ISM_PMD_LOG(ERR, "%s: devarg \"%s\" given twice",
				    devname, kv->pairs[i].key);
			goto err;
		}
	}
	return kv;
err:
	rte_kvargs_free(kv);
	return NULL;
}

int
ism_parse_u64(const char *devname, const char *key, const char *value,
		uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	if (value == NULL || value[0] == '\0' || value[0] == '-')
		goto bad;
	v = strtoull(value, &end, 0);
	if (errno != 0 || *end != '\0')
		goto bad;
	if (v < min || v > max) {
		ISM_PMD_LOG(ERR, "%s: devarg %s=%s out of range [%" PRIu64
			    ", %" PRIu64 "]", devname, key, value, min, max);
		return -ERANGE;
	}
	*out = v;
	return 0;
bad:
	ISM_PMD_LOG(ERR, "%s: devarg %s=\"%s\" is not a number", devname, key,
		    value != NULL ? value : "");
	return -EINVAL;
}

int
ism_common_args_get(const char *devname, struct rte_kvargs *kvlist,
		struct ism_common_args *a)
{
	const char *v;
	uint64_t n;
	int ret;

	v = rte_kvargs_get(kvlist, "gid");
	if (v != NULL && rte_ism_gid_parse(v, &a->gid) < 0) {
		ISM_PMD_LOG(ERR, "%s: devarg gid=\"%s\" is not a GID (0x<hex>, "
			    "32 hex digits or a UUID, not zero)", devname, v);
		return -EINVAL;
	}
	v = rte_kvargs_get(kvlist, "chid");
	if (v != NULL) {
		ret = ism_parse_u64(devname, "chid", v, 0, UINT16_MAX, &n);
		if (ret < 0)
			return ret;
		a->chid = n;
	}
	v = rte_kvargs_get(kvlist, "max_dmbs");
	if (v != NULL) {
		ret = ism_parse_u64(devname, "max_dmbs", v, 1, ISM_SW_MAX_DMBS,
				&n);
		if (ret < 0)
			return ret;
		a->max_dmbs = n;
	}
	v = rte_kvargs_get(kvlist, "max_dmb_len");
	if (v != NULL) {
		ret = ism_parse_u64(devname, "max_dmb_len", v, 1,
				ISM_SW_MAX_DMB_LEN, &n);
		if (ret < 0)
			return ret;
		a->max_dmb_len = n;
	}
	return 0;
}

int
ism_socket_arg_get(const char *devname, struct rte_kvargs *kvlist,
		int *socket_id)
{
	const char *v = rte_kvargs_get(kvlist, "socket");
	unsigned int i;
	uint64_t n;
	int ret;

	if (v == NULL)
		return 0;
	ret = ism_parse_u64(devname, "socket", v, 0, RTE_MAX_NUMA_NODES - 1,
			&n);
	if (ret < 0)
		return ret;
	/* A node EAL knows (has lcores or memory on): DPDK's allocator
	 * places nothing elsewhere.
	 */
	for (i = 0; i < rte_socket_count(); i++)
		if (rte_socket_id_by_idx(i) == (int)n) {
			*socket_id = n;
			return 0;
		}
	ISM_PMD_LOG(ERR, "%s: devarg socket=%" PRIu64 " is not a NUMA node "
		    "of this process (%u known)", devname, n,
		    rte_socket_count());
	return -EINVAL;
}

void
ism_random_gid(struct rte_ism_gid *gid)
{
	/* Version 4, RFC 4122 variant, as uuid_gen() would make; the version
	 * bits also make it non-zero.
	 */
	gid->gid = (rte_rand() & ~UINT64_C(0xf000)) | 0x4000;
	gid->gid_ext = (rte_rand() & ~(UINT64_C(3) << 62)) |
		(UINT64_C(2) << 62);
}
