/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * Fixture of the functional suites. Devices are created with the public
 * rte_vdev_init() from a backend description "DRIVER[,DEVARGS]", so the
 * same suites run on every software backend. Also the helpers every test
 * program of the tree shares (a static library, see meson.build).
 */

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_byteorder.h>
#include <rte_cycles.h>
#include <rte_hash_crc.h>
#include <rte_kvargs.h>

#include "test_ism.h"

#define FX_MAX_SPAWN 64

struct test_fixture fx;
static char spawned[FX_MAX_SPAWN][RTE_ISM_NAME_LEN];

int
fx_spawn(const char *extra_args, char *name, size_t namesz)
{
	char args[512];
	unsigned int n = fx.nb_spawned;
	int ret;

	if (fx.given)
		return -ENOTSUP;
	if (n == FX_MAX_SPAWN)
		return -ENOSPC;
	snprintf(name, namesz, "%s_t%u", fx.spawn_drv, n);
	snprintf(args, sizeof(args), "%s%s%s", fx.spawn_args,
		 fx.spawn_args[0] && extra_args && extra_args[0] ? "," : "",
		 extra_args ? extra_args : "");
	ret = rte_vdev_init(name, args);
	if (ret < 0)
		return ret;
	fx.nb_spawned++;
	snprintf(spawned[n], sizeof(spawned[n]), "%s", name);
	return rte_ism_get_dev_id(name);
}

int
fx_unspawn(const char *name)
{
	unsigned int i;
	int ret = rte_vdev_uninit(name);

	for (i = 0; ret == 0 && i < fx.nb_spawned; i++)
		if (strcmp(spawned[i], name) == 0)
			spawned[i][0] = '\0';
	return ret;
}

/*
 * Devargs the suites set themselves, per device: every device of the run
 * gets the backend's devargs, so a GID there would be the same on both
 * devices (refused as a duplicate), and the devargs suite gives chid=,
 * max_dmbs= of its own (refused as given twice); a small max_dmbs= fails
 * the suites that register many DMBs.
 */
static const char *const fx_suite_keys[] = {
	"gid", "chid", "max_dmbs", "max_dmb_len", NULL,
};

static int
fx_check_backend_args(const char *args)
{
	struct rte_kvargs *kv = rte_kvargs_parse(args, NULL);
	unsigned int i, k;
	int ret = 0;

	if (kv == NULL) {
		printf("--backend: cannot parse devargs \"%s\"\n", args);
		return -EINVAL;
	}
	for (i = 0; i < kv->count; i++)
		for (k = 0; fx_suite_keys[k] != NULL; k++)
			if (strcmp(kv->pairs[i].key, fx_suite_keys[k]) == 0) {
				printf("--backend: %s= is set by the suites per "
				       "device; give only what the backend needs "
				       "(dir= of ism_shm, maxstbl= and quirks= of "
				       "ism_pcimodel)\n", fx_suite_keys[k]);
				ret = -EINVAL;
			}
	rte_kvargs_free(kv);
	return ret;
}

int
fx_setup(const char *backend)
{
	char name[RTE_ISM_NAME_LEN];
	const char *comma = strchr(backend, ',');
	int a, b;

	snprintf(fx.spawn_drv, sizeof(fx.spawn_drv), "%.*s",
		 comma ? (int)(comma - backend) : (int)strlen(backend), backend);
	snprintf(fx.spawn_args, sizeof(fx.spawn_args), "%s",
		 comma ? comma + 1 : "");
	if (fx_check_backend_args(fx.spawn_args) < 0)
		return -1;
	a = fx_spawn(NULL, name, sizeof(name));
	b = a < 0 ? a : fx_spawn(NULL, name, sizeof(name));
	if (a < 0 || b < 0) {
		printf("cannot create test devices with backend \"%s\": %s\n",
		       backend, strerror(-(a < 0 ? a : b)));
		fx_teardown();
		return -1;
	}
	fx.a = a;
	fx.b = b;
	rte_ism_info_get(fx.a, &fx.ia);
	rte_ism_info_get(fx.b, &fx.ib);
	return 0;
}

/* Whether the PCI function name is bound to ism_vfio_pci (IBM Z). */
static bool
behind_ism_vfio_pci(const char *name)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/driver", name);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	base = strrchr(link, '/');
	return strcmp(base != NULL ? base + 1 : link, "ism_vfio_pci") == 0;
}

int
fx_setup_given(const char *names)
{
	const char *comma = strchr(names, ',');
	char a[RTE_ISM_NAME_LEN], b[RTE_ISM_NAME_LEN];
	int ia, ib;

	if (comma == NULL) {
		printf("--devices: want two device names, A,B\n");
		return -1;
	}
	snprintf(a, sizeof(a), "%.*s", (int)(comma - names), names);
	snprintf(b, sizeof(b), "%s", comma + 1);
	ia = rte_ism_get_dev_id(a);
	ib = rte_ism_get_dev_id(b);
	if (ia < 0 || ib < 0 || ia == ib) {
		printf("--devices: no ISM devices \"%s\" and \"%s\"\n", a, b);
		return -1;
	}
	fx.given = true;
	fx.stores_eio = behind_ism_vfio_pci(a) || behind_ism_vfio_pci(b);
	fx.a = ia;
	fx.b = ib;
	rte_ism_info_get(fx.a, &fx.ia);
	rte_ism_info_get(fx.b, &fx.ib);
	return 0;
}

/* Every xstat of dev, one line each: what a run on given devices did. */
static void
fx_print_xstats(uint16_t dev)
{
	struct rte_ism_xstats_name names[64];
	char name[RTE_ISM_NAME_LEN] = "";
	struct rte_ism_dev_info info;
	unsigned int id;
	uint64_t v;
	int i, n;

	n = rte_ism_xstats_names_get(dev, names, RTE_DIM(names));
	if (rte_ism_info_get(dev, &info) == 0)
		snprintf(name, sizeof(name), "%s", info.name);
	for (i = 0; i < n && i < (int)RTE_DIM(names); i++)
		if (rte_ism_xstats_get_by_name(dev, names[i].name, &id,
					       &v) == 0)
			printf("XSTAT %s %s %" PRIu64 "\n", name,
			       names[i].name, v);
}

void
fx_teardown(void)
{
	unsigned int i;

	if (fx.given) {
		fx_print_xstats(fx.a);
		fx_print_xstats(fx.b);
	}

	for (i = 0; i < fx.nb_spawned; i++)
		if (spawned[i][0] != '\0')
			fx_unspawn(spawned[i]);
}

int
fx_register(uint16_t dev, uint32_t len, const struct rte_ism_gid *rgid,
		struct rte_ism_dmb *dmb)
{
	memset(dmb, 0, sizeof(*dmb));
	dmb->len = len;
	dmb->rgid = *rgid;
	TEST_ASSERT_SUCCESS(rte_ism_dmb_register(dev, dmb),
			    "register a DMB of %u bytes on device %u", len, dev);
	return TEST_SUCCESS;
}

void
fx_drain(void)
{
	struct rte_ism_event ev[32];
	struct rte_ism_signal sig[32];
	uint16_t id;

	RTE_ISM_FOREACH_DEV(id) {
		while (rte_ism_event_poll(id, ev, RTE_DIM(ev)) > 0)
			;
		while (rte_ism_signal_poll(id, sig, RTE_DIM(sig)) > 0)
			;
	}
}

int
fx_event_wait(uint16_t dev, struct rte_ism_event *ev, uint16_t want,
		uint16_t nb)
{
	uint64_t end = rte_get_timer_cycles() +
		FX_EVENT_WAIT_S * rte_get_timer_hz();
	int got = 0, n;

	while (got < want) {
		n = rte_ism_event_poll(dev, ev + got, nb - got);
		if (n < 0)
			return n;
		got += n;
		if (n == 0 && rte_get_timer_cycles() > end)
			break;
		if (n == 0)
			rte_delay_us_sleep(100);
	}
	return got;
}

int
fx_events_wait(uint16_t dev, uint64_t total)
{
	uint64_t end = rte_get_timer_cycles() +
		FX_EVENT_WAIT_S * rte_get_timer_hz();
	struct rte_ism_stats st;

	for (;;) {
		if (rte_ism_stats_get(dev, &st) < 0)
			return -ENODEV;
		if (st.events + st.events_dropped >= total)
			return 0;
		if (rte_get_timer_cycles() > end)
			return -ETIMEDOUT;
		rte_delay_us_sleep(100);
	}
}

uint32_t
fx_crc(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint32_t crc = 0xffffffff;
	uint32_t w;

	/*
	 * The CRC of the bytes in order, wherever they are: 4 of them at a
	 * time as a little-endian word, which is what rte_hash_crc_4byte()
	 * takes them for. Not rte_hash_crc() nor rte_hash_crc_8byte(): they
	 * load native words, and DPDK's software CRC takes the two halves of
	 * an 8-byte word in memory order (crc32c_2words() of
	 * lib/hash/rte_crc_sw.h), so on a big-endian CPU the same bytes at
	 * another alignment gave another CRC, and a copy did not match its
	 * original.
	 */
	for (; len > 0 && ((uintptr_t)b & 3) != 0; len--)
		crc = rte_hash_crc_1byte(*b++, crc);
	for (; len >= 4; len -= 4, b += 4) {
		memcpy(&w, b, sizeof(w));
		crc = rte_hash_crc_4byte(rte_le_to_cpu_32(w), crc);
	}
	for (; len > 0; len--)
		crc = rte_hash_crc_1byte(*b++, crc);
	return crc;
}

uint64_t
fx_rand(uint64_t *state)
{
	uint64_t x = *state;

	/* xorshift64*: reproducible across runs for a given seed */
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * UINT64_C(2685821657736338717);
}

void
fx_fill(void *p, size_t len, uint64_t *state)
{
	uint8_t *b = p;
	uint64_t r = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 8 == 0)
			r = fx_rand(state);
		b[i] = r >> (8 * (i % 8));
	}
}

bool
suite_selected(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	if (list == NULL)
		return true;
	while ((p = strstr(p, name)) != NULL) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}
