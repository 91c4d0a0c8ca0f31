/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The devargs of net_ism, checked before any port exists: every error
 * names the key at fault, and a bad value leaves no port behind.
 *
 *   --vdev=net_ismN,ism=<ISM device>,peer=<GID>[,zero-copy=yes|no]
 *          [,queues=<n>][,slot-size=<bytes>][,ring-slots=<n>]
 *          [,mac=<xx:xx:xx:xx:xx:xx>]
 */

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <rte_kvargs.h>
#include <rte_string_fns.h>

#include "ism_ethdev.h"

#define ARG_ISM		"ism"
#define ARG_PEER	"peer"
#define ARG_ZC		"zero-copy"
#define ARG_QUEUES	"queues"
#define ARG_SLOT_SIZE	"slot-size"
#define ARG_RING_SLOTS	"ring-slots"
#define ARG_MAC		"mac"

static int
bad(const char *name, const char *key, const char *value, const char *why)
{
	ISM_ETH_LOG(ERR, "%s: %s=%s: %s", name, key, value, why);
	return -EINVAL;
}

static int
parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno != 0 || *end != '\0' || *v < min || *v > max)
		return -EINVAL;
	return 0;
}

static int
parse_pow2(const char *name, const char *key, const char *value,
		uint64_t min, uint64_t max, uint32_t *out)
{
	char why[96];
	uint64_t v;

	if (parse_uint(value, min, max, &v) < 0 || !rte_is_power_of_2(v)) {
		snprintf(why, sizeof(why), "not a power of 2 in [%" PRIu64
			 ", %" PRIu64 "]", min, max);
		return bad(name, key, value, why);
	}
	*out = v;
	return 0;
}

/* One key=value; the ISM device is checked once all are parsed. */
static int
parse_pair(const char *name, const char *key, const char *value,
		struct ism_eth_args *a)
{
	uint64_t v;

	if (strcmp(key, ARG_ISM) == 0) {
		if (value[0] == '\0' || strlen(value) >= sizeof(a->ism))
			return bad(name, key, value, "not an ISM device name");
		strlcpy(a->ism, value, sizeof(a->ism));
	} else if (strcmp(key, ARG_PEER) == 0) {
		if (rte_ism_gid_parse(value, &a->peer) < 0)
			return bad(name, key, value, "malformed GID (0x and up "
				   "to 16 hex digits, 32 hex digits, or a "
				   "UUID; not zero)");
	} else if (strcmp(key, ARG_ZC) == 0) {
		if (strcmp(value, "yes") == 0)
			a->zero_copy = true;
		else if (strcmp(value, "no") == 0)
			a->zero_copy = false;
		else
			return bad(name, key, value, "yes or no");
	} else if (strcmp(key, ARG_QUEUES) == 0) {
		if (parse_uint(value, 1, ISM_ETH_MAX_QUEUES, &v) < 0)
			return bad(name, key, value, "not a queue count in "
				   "[1, " RTE_STR(ISM_ETH_MAX_QUEUES) "]");
		a->max_queues = v;
	} else if (strcmp(key, ARG_SLOT_SIZE) == 0) {
		return parse_pow2(name, key, value, RTE_ISM_RING_SLOT_MIN,
				RTE_ISM_RING_SLOT_MAX, &a->geom.slot_size);
	} else if (strcmp(key, ARG_RING_SLOTS) == 0) {
		return parse_pow2(name, key, value, RTE_ISM_RING_SLOTS_MIN,
				RTE_ISM_RING_SLOTS_MAX, &a->geom.nb_slots);
	} else if (strcmp(key, ARG_MAC) == 0) {
		if (rte_ether_unformat_addr(value, &a->mac) < 0 ||
		    !rte_is_valid_assigned_ether_addr(&a->mac))
			return bad(name, key, value, "not a unicast MAC "
				   "address");
	} else {
		ISM_ETH_LOG(ERR, "%s: unknown key %s (keys: %s)", name, key,
			    ISM_ETH_PARAMS);
		return -EINVAL;
	}
	return 0;
}

/* The ISM device and what it can do. */
static int
check_device(const char *name, struct ism_eth_args *a, bool queues_given)
{
	struct rte_ism_dev_info info;
	char why[192];
	const char *other;
	int ret;

	ret = rte_ism_get_dev_id(a->ism);
	if (ret < 0)
		return bad(name, ARG_ISM, a->ism, "no such ISM device (an "
			   "ISM vdev must come before net_ism on the command "
			   "line)");
	a->dev_id = ret;
	ret = rte_ism_info_get(a->dev_id, &info);
	if (ret < 0)
		return bad(name, ARG_ISM, a->ism, "cannot get its info");
	a->gid = info.gid;
	if ((info.capa & RTE_ISM_CAPA_SIGNAL_EVENT) == 0)
		return bad(name, ARG_ISM, a->ism, "the device cannot send "
			   "events, which the handshake needs");
	if (a->zero_copy && (info.capa & RTE_ISM_CAPA_NOCOPY) == 0) {
		snprintf(why, sizeof(why), "%s (%s) has no nocopy attach",
			 a->ism, info.backend);
		return bad(name, ARG_ZC, "yes", why);
	}
	if (!queues_given)
		a->max_queues = RTE_MIN((uint32_t)ISM_ETH_MAX_QUEUES, info.max_dmbs);
	if (a->max_queues > info.max_dmbs || a->max_queues == 0) {
		char v[8];

		snprintf(v, sizeof(v), "%u", a->max_queues);
		snprintf(why, sizeof(why), "beyond the %u DMBs of %s (one per "
			 "queue pair)", info.max_dmbs, a->ism);
		return bad(name, ARG_QUEUES, v, why);
	}
	if (a->geom.nb_slots == 0) {
		/* Default: as many slots as fit in 1 MiB and in a DMB of the
		 * device (4096 of 128 B), as the ism_fwd sample does.
		 */
		a->geom.nb_slots = RTE_ISM_RING_SLOTS_MAX;
		while (a->geom.nb_slots > RTE_ISM_RING_SLOTS_MIN &&
		       rte_ism_ring_dmb_len(&a->geom) >
		       RTE_MIN(ISM_ETH_DEFAULT_DMB, info.max_dmb_len))
			a->geom.nb_slots /= 2;
	}
	if (rte_ism_ring_dmb_len(&a->geom) > info.max_dmb_len) {
		char v[16];

		snprintf(v, sizeof(v), "%u", a->geom.nb_slots);
		snprintf(why, sizeof(why), "a ring of %u slots of %u bytes "
			 "does not fit in a DMB of %s (at most %u bytes)",
			 a->geom.nb_slots, a->geom.slot_size, a->ism,
			 info.max_dmb_len);
		return bad(name, ARG_RING_SLOTS, v, why);
	}
	other = ism_ctl_peer_taken(a);
	if (other != NULL) {
		char v[RTE_ISM_GID_STRLEN];

		rte_ism_gid_format(&a->peer, v, sizeof(v));
		snprintf(why, sizeof(why), "already the peer of %s on %s",
			 other, a->ism);
		return bad(name, ARG_PEER, v, why);
	}
	return 0;
}

int
ism_eth_args_parse(const char *name, const char *params,
		struct ism_eth_args *a)
{
	struct rte_kvargs *kv = NULL;
	bool have_peer = false, queues_given = false;
	unsigned int i, j;
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->geom.slot_size = ISM_ETH_DEFAULT_SLOT;
	rte_eth_random_addr(a->mac.addr_bytes);
	if (params != NULL && params[0] != '\0') {
		/* No key list: an unknown key is reported by name below. */
		kv = rte_kvargs_parse(params, NULL);
		if (kv == NULL) {
			ISM_ETH_LOG(ERR, "%s: cannot parse the devargs '%s' "
				    "(key=value,...)", name, params);
			return -EINVAL;
		}
	}
	for (i = 0; kv != NULL && i < kv->count; i++) {
		const char *key = kv->pairs[i].key;
		const char *value = kv->pairs[i].value;

		if (value == NULL) {
			ret = bad(name, key, "", "a value is needed");
			goto out;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(kv->pairs[j].key, key) == 0) {
				ret = bad(name, key, value, "given twice");
				goto out;
			}
		}
		ret = parse_pair(name, key, value, a);
		if (ret < 0)
			goto out;
		have_peer |= strcmp(key, ARG_PEER) == 0;
		queues_given |= strcmp(key, ARG_QUEUES) == 0;
	}
	if (a->ism[0] == '\0') {
		ISM_ETH_LOG(ERR, "%s: missing key %s=<ISM device name>", name,
			    ARG_ISM);
		ret = -EINVAL;
	} else if (!have_peer) {
		ISM_ETH_LOG(ERR, "%s: missing key %s=<peer GID>", name,
			    ARG_PEER);
		ret = -EINVAL;
	} else {
		ret = check_device(name, a, queues_given);
	}
out:
	rte_kvargs_free(kv);
	return ret;
}
