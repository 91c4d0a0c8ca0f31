/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* GID text forms: "0x<1..16 hex>", 32 hex digits, or a UUID. */

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <eal_export.h>

#include "ism_private.h"

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Collect the hex digits of a UUID or plain string; -1 on bad syntax. */
static int
collect_hex(const char *s, char *out, size_t outsz)
{
	static const int dash_at[] = { 8, 13, 18, 23 };
	size_t len = strlen(s), n = 0, i, d = 0;
	bool uuid = len == 36;

	for (i = 0; i < len; i++) {
		if (uuid && d < RTE_DIM(dash_at) && i == (size_t)dash_at[d]) {
			if (s[i] != '-')
				return -1;
			d++;
			continue;
		}
		if (hexval((unsigned char)s[i]) < 0 || n + 1 >= outsz)
			return -1;
		out[n++] = s[i];
	}
	out[n] = '\0';
	return (int)n;
}

static uint64_t
hex_to_u64(const char *s, size_t n)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < n; i++)
		v = (v << 4) | (uint64_t)hexval((unsigned char)s[i]);
	return v;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_gid_parse, 26.03)
int
rte_ism_gid_parse(const char *str, struct rte_ism_gid *gid)
{
	struct rte_ism_gid g;
	char hex[40];
	int n;

	if (str == NULL || gid == NULL) {
		ISM_LOG(ERR, "NULL %s", str == NULL ? "string" : "gid");
		return -EINVAL;
	}
	if (str[0] == '0' && (str[1] == 'x' || str[1] == 'X')) {
		n = collect_hex(str + 2, hex, sizeof(hex));
		if (n < 1 || n > 16)
			goto bad;
		g.gid = hex_to_u64(hex, n);
		g.gid_ext = 0;
	} else {
		n = collect_hex(str, hex, sizeof(hex));
		if (n != 32)
			goto bad;
		g.gid = hex_to_u64(hex, 16);
		g.gid_ext = hex_to_u64(hex + 16, 16);
	}
	if (g.gid == 0 && g.gid_ext == 0) {
		ISM_LOG(ERR, "GID \"%s\" is zero, which no device has", str);
		return -EINVAL;
	}
	*gid = g;	/* only on success: no partial result */
	return 0;
bad:
	ISM_LOG(ERR, "bad GID \"%s\": want 0x<1-16 hex digits>, 32 hex digits "
		"or a UUID", str);
	return -EINVAL;
}

RTE_EXPORT_EXPERIMENTAL_SYMBOL(rte_ism_gid_format, 26.03)
int
rte_ism_gid_format(const struct rte_ism_gid *gid, char *buf, size_t size)
{
	if (gid == NULL || buf == NULL || size < RTE_ISM_GID_STRLEN) {
		ISM_LOG(ERR, "NULL argument or buffer under %d bytes",
			RTE_ISM_GID_STRLEN);
		return -EINVAL;
	}
	snprintf(buf, size, "%08" PRIx64 "-%04" PRIx64 "-%04" PRIx64
		 "-%04" PRIx64 "-%012" PRIx64,
		 gid->gid >> 32, (gid->gid >> 16) & 0xffff, gid->gid & 0xffff,
		 gid->gid_ext >> 48, gid->gid_ext & UINT64_C(0xffffffffffff));
	return 0;
}
