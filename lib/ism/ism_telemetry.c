/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/* Telemetry: /ism/list, /ism/info,<id>, /ism/stats,<id>, /ism/xstats,<id>. */

#include <ctype.h>
#include <stdlib.h>

#include <rte_telemetry.h>

#include <ism_compat.h>

#include "ism_private.h"

static int
ism_tel_list(const char *cmd __rte_unused, const char *params __rte_unused,
		struct rte_tel_data *d)
{
	uint16_t i;

	rte_tel_data_start_array(d, RTE_TEL_INT_VAL);
	RTE_ISM_FOREACH_DEV(i)
		rte_tel_data_add_array_int(d, i);
	return 0;
}

/* Parse "<id>" strictly; -1 on anything else (empty, garbage, range). */
static int
tel_dev_id(const char *params)
{
	unsigned long id;
	char *end;

	if (params == NULL || !isdigit((unsigned char)params[0]))
		return -1;
	errno = 0;
	id = strtoul(params, &end, 10);
	if (errno != 0 || *end != '\0' || id >= RTE_ISM_MAX_DEVS ||
	    !rte_ism_is_valid_dev(id))
		return -1;
	return (int)id;
}

static int
ism_tel_info(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct rte_ism_dev_info info;
	char gid[RTE_ISM_GID_STRLEN];
	int id = tel_dev_id(params);

	if (id < 0 || rte_ism_info_get(id, &info) < 0)
		return -EINVAL;
	rte_ism_gid_format(&info.gid, gid, sizeof(gid));
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_string(d, "name", info.name);
	rte_tel_data_add_dict_string(d, "driver",
			info.driver_name ? info.driver_name : "");
	rte_tel_data_add_dict_string(d, "backend",
			info.backend ? info.backend : "");
	rte_tel_data_add_dict_string(d, "gid", gid);
	rte_tel_data_add_dict_int(d, "chid", info.chid);
	rte_tel_data_add_dict_int(d, "socket_id", info.socket_id);
	rte_tel_data_add_dict_uint(d, "max_dmbs", info.max_dmbs);
	rte_tel_data_add_dict_uint(d, "max_dmb_len", info.max_dmb_len);
	rte_tel_data_add_dict_uint(d, "capa", info.capa);
	rte_tel_data_add_dict_int(d, "started", info.started);
	return 0;
}

static int
ism_tel_stats(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct rte_ism_stats st;
	int id = tel_dev_id(params);

	if (id < 0 || rte_ism_stats_get(id, &st) < 0)
		return -EINVAL;
	rte_tel_data_start_dict(d);
	rte_tel_data_add_dict_uint(d, "moves", st.moves);
	rte_tel_data_add_dict_uint(d, "bytes", st.bytes);
	rte_tel_data_add_dict_uint(d, "signals", st.signals);
	rte_tel_data_add_dict_uint(d, "errors", st.errors);
	rte_tel_data_add_dict_uint(d, "events", st.events);
	rte_tel_data_add_dict_uint(d, "events_dropped", st.events_dropped);
	rte_tel_data_add_dict_uint(d, "errors_unknown_token",
			st.errors_unknown_token);
	rte_tel_data_add_dict_uint(d, "errors_not_writer", st.errors_not_writer);
	rte_tel_data_add_dict_uint(d, "errors_out_of_range",
			st.errors_out_of_range);
	rte_tel_data_add_dict_uint(d, "errors_bad_argument",
			st.errors_bad_argument);
	rte_tel_data_add_dict_uint(d, "errors_device", st.errors_device);
	rte_tel_data_add_dict_uint(d, "errors_no_device", st.errors_no_device);
	return 0;
}

static int
ism_tel_xstats(const char *cmd __rte_unused, const char *params,
		struct rte_tel_data *d)
{
	struct rte_ism_xstats_name *names = NULL;
	unsigned int *ids = NULL, i;
	uint64_t *values = NULL;
	int id = tel_dev_id(params), n, ret = -EINVAL;

	n = id < 0 ? -EINVAL : rte_ism_xstats_names_get(id, NULL, 0);
	if (n <= 0)
		return -EINVAL;
	names = calloc(n, sizeof(*names));
	ids = calloc(n, sizeof(*ids));
	values = calloc(n, sizeof(*values));
	if (names == NULL || ids == NULL || values == NULL)
		goto out;
	for (i = 0; i < (unsigned int)n; i++)
		ids[i] = i;
	if (rte_ism_xstats_names_get(id, names, n) != n ||
	    rte_ism_xstats_get(id, ids, values, n) != n)
		goto out;
	rte_tel_data_start_dict(d);
	for (i = 0; i < (unsigned int)n; i++)
		rte_tel_data_add_dict_uint(d, names[i].name, values[i]);
	ret = 0;
out:
	free(names);
	free(ids);
	free(values);
	return ret;
}

void
ism_telemetry_init(void)
{
	rte_telemetry_register_cmd("/ism/list", ism_tel_list,
		"Returns the list of ISM device ids. Takes no parameters");
	rte_telemetry_register_cmd("/ism/info", ism_tel_info,
		"Returns information about an ISM device. Parameters: int dev_id");
	rte_telemetry_register_cmd("/ism/stats", ism_tel_stats,
		"Returns the counters of an ISM device. Parameters: int dev_id");
	rte_telemetry_register_cmd("/ism/xstats", ism_tel_xstats,
		"Returns the extended statistics of an ISM device. Parameters: int dev_id");
}
