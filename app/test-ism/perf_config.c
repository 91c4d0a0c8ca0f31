/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The dpdk-ism authors
 */

/*
 * The perf configuration: an INI file (rte_cfgfile) with one section per
 * case. Every key is checked: an unknown key, a bad number or a missing
 * swept parameter is an error naming the section and the key.
 */

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rte_cfgfile.h>
#include <rte_string_fns.h>

#include "perf.h"

#define PERF_DEFAULT_REPS	5
#define PERF_DEFAULT_TIMEOUT_S	600
#define PERF_SMOKE_TIMEOUT_S	120

static const struct perf_type *const perf_types[] = {
	&perf_type_copy,
	&perf_type_rate,
	&perf_type_latency,
	&perf_type_poll,
	&perf_type_fastpath,
	&perf_type_noise,
	&perf_type_wake,
};

const char *
perf_config_default(void)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX], *dir;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return "perf.ini";
	exe[n] = '\0';
	dir = dirname(exe);
	/* The build tree: meson copies it next to the program. */
	snprintf(path, sizeof(path), "%s/perf.ini", dir);
	if (access(path, R_OK) == 0)
		return path;
	/* An install, wherever its prefix went. */
	snprintf(path, sizeof(path), "%s/%s/perf.ini", dir, PERF_DATA_REL);
	return path;
}

void
perf_config_usage(void)
{
	unsigned int i;

	printf("usage: dpdk-test-ism-perf [EAL options] -- [options]\n"
	       "  --config FILE  cases to run (default: perf.ini next to the\n"
	       "                 program, or in the data directory it was\n"
	       "                 installed with: %s)\n"
	       "  --case A[,B]   only these sections\n"
	       "  --csv FILE     write every figure to FILE (CSV)\n"
	       "  --smoke        tiny iteration counts: checks the cases run\n"
	       "  --list         list the cases of the configuration\n"
	       "case types:\n", perf_config_default());
	for (i = 0; i < RTE_DIM(perf_types); i++)
		printf("  %-9s %s; swept: %s; work per rep: %s\n",
		       perf_types[i]->name, perf_types[i]->title,
		       perf_types[i]->param, perf_types[i]->amount_key);
}

static const struct perf_type *
find_type(const char *name)
{
	unsigned int i;

	for (i = 0; i < RTE_DIM(perf_types); i++)
		if (strcmp(perf_types[i]->name, name) == 0)
			return perf_types[i];
	return NULL;
}

/* Strict unsigned number in [1, max]. */
static int
parse_u64(const char *sect, const char *key, const char *s, uint64_t max,
		uint64_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	while (*end == ' ' || *end == '\t')
		end++;
	if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v == 0 ||
	    v > max) {
		printf("[%s] %s: \"%s\" is not a number in 1..%" PRIu64 "\n",
		       sect, key, s, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/* The swept parameter: "first,last,step,ADD|MUL" or a list "a,b,c". */
static int
parse_points(const char *sect, const char *key, const char *val,
		struct perf_case *c)
{
	char buf[512], *tok[PERF_MAX_POINTS + 1], *save = NULL, *p;
	uint64_t first, last, step, v;
	unsigned int n = 0, i;
	bool mul;

	if (strlen(val) >= sizeof(buf)) {
		printf("[%s] %s: value too long\n", sect, key);
		return -EINVAL;
	}
	strlcpy(buf, val, sizeof(buf));
	for (p = strtok_r(buf, ",", &save); p != NULL;
	     p = strtok_r(NULL, ",", &save)) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (n == RTE_DIM(tok)) {
			printf("[%s] %s: more than %d values\n", sect, key,
			       PERF_MAX_POINTS);
			return -EINVAL;
		}
		tok[n++] = p;
	}
	c->nb_points = 0;
	if (n == 4 && (strcmp(tok[3], "ADD") == 0 ||
		       strcmp(tok[3], "MUL") == 0)) {
		mul = strcmp(tok[3], "MUL") == 0;
		if (parse_u64(sect, key, tok[0], UINT32_MAX, &first) < 0 ||
		    parse_u64(sect, key, tok[1], UINT32_MAX, &last) < 0 ||
		    parse_u64(sect, key, tok[2], UINT32_MAX, &step) < 0)
			return -EINVAL;
		if (last < first || (mul && step < 2)) {
			printf("[%s] %s: empty or endless range \"%s\"\n",
			       sect, key, val);
			return -EINVAL;
		}
		for (v = first; v <= last; v = mul ? v * step : v + step) {
			if (c->nb_points == PERF_MAX_POINTS) {
				printf("[%s] %s: more than %d values\n", sect,
				       key, PERF_MAX_POINTS);
				return -EINVAL;
			}
			c->points[c->nb_points++] = v;
		}
		return 0;
	}
	for (i = 0; i < n; i++)
		if (parse_u64(sect, key, tok[i], UINT32_MAX,
			      &c->points[c->nb_points++]) < 0)
			return -EINVAL;
	if (n == 0) {
		printf("[%s] %s: no value\n", sect, key);
		return -EINVAL;
	}
	return 0;
}

static int
parse_case(struct rte_cfgfile *cfg, const char *sect, struct perf_case *c)
{
	struct rte_cfgfile_entry ent[16];
	const struct perf_type *t;
	const char *v;
	uint64_t u;
	bool have_param = false;
	int i, n;

	memset(c, 0, sizeof(*c));
	if (strlen(sect) >= sizeof(c->name)) {
		printf("[%s]: section name too long\n", sect);
		return -EINVAL;
	}
	strlcpy(c->name, sect, sizeof(c->name));
	v = rte_cfgfile_get_entry(cfg, sect, "type");
	t = v != NULL ? find_type(v) : NULL;
	if (t == NULL) {
		printf("[%s] type: %s \"%s\"; see --help\n", sect,
		       v == NULL ? "missing" : "unknown", v == NULL ? "" : v);
		return -EINVAL;
	}
	c->type = t;
	strlcpy(c->backend, "ism_lo", sizeof(c->backend));
	c->reps = PERF_DEFAULT_REPS;
	c->amount = perf_env.smoke ? t->amount_smoke : t->amount_default;
	c->timeout_s = perf_env.smoke ? PERF_SMOKE_TIMEOUT_S :
		PERF_DEFAULT_TIMEOUT_S;

	n = rte_cfgfile_section_entries(cfg, sect, ent, RTE_DIM(ent));
	if (n < 0 || n == (int)RTE_DIM(ent)) {
		printf("[%s]: cannot read the entries (at most %zu)\n", sect,
		       RTE_DIM(ent) - 1);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		const char *k = ent[i].name;

		v = ent[i].value;
		/* type: read above; target*: bench_report.py's. */
		if (strcmp(k, "type") == 0 || strncmp(k, "target", 6) == 0)
			continue;
		if (strcmp(k, "backend") == 0) {
			if (strcmp(v, "ism_lo") != 0 &&
			    strcmp(v, "ism_shm") != 0 &&
			    strcmp(v, "ism_ivshm") != 0) {
				printf("[%s] backend: \"%s\" is not ism_lo, "
				       "ism_shm or ism_ivshm\n", sect, v);
				return -EINVAL;
			}
			strlcpy(c->backend, v, sizeof(c->backend));
		} else if (strcmp(k, t->param) == 0) {
			if (parse_points(sect, k, v, c) < 0)
				return -EINVAL;
			have_param = true;
		} else if (strcmp(k, "reps") == 0) {
			if (parse_u64(sect, k, v, 1000, &u) < 0)
				return -EINVAL;
			c->reps = u;
		} else if (strcmp(k, t->amount_key) == 0) {
			if (parse_u64(sect, k, v, UINT32_MAX, &u) < 0)
				return -EINVAL;
			if (!perf_env.smoke)
				c->amount = u;
		} else if (strcmp(k, "timeout") == 0) {
			if (parse_u64(sect, k, v, 86400, &u) < 0)
				return -EINVAL;
			if (!perf_env.smoke)
				c->timeout_s = u;
		} else {
			printf("[%s]: unknown key \"%s\" for type %s (keys: "
			       "type, backend, %s, %s, reps, timeout, "
			       "target*)\n",
			       sect, k, t->name, t->param, t->amount_key);
			return -EINVAL;
		}
	}
	if (!have_param) {
		printf("[%s]: missing %s\n", sect, t->param);
		return -EINVAL;
	}
	if (perf_env.smoke)
		c->reps = 1;
	return 0;
}

int
perf_config_load(const char *path, struct perf_case *cases, unsigned int *nb)
{
	char *names[PERF_MAX_CASES];
	struct rte_cfgfile *cfg;
	int n, i, ret = 0;

	cfg = rte_cfgfile_load(path, 0);
	if (cfg == NULL) {
		printf("cannot read the configuration %s\n", path);
		return -EINVAL;
	}
	n = rte_cfgfile_num_sections(cfg, NULL, 0);
	if (n <= 0 || n > PERF_MAX_CASES) {
		printf("%s: %d sections, want 1..%d\n", path, n,
		       PERF_MAX_CASES);
		rte_cfgfile_close(cfg);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		names[i] = malloc(CFG_NAME_LEN);
		if (names[i] == NULL) {
			n = i;
			ret = -ENOMEM;
			goto out;
		}
	}
	rte_cfgfile_sections(cfg, names, n);
	for (i = 0; i < n && ret == 0; i++)
		ret = parse_case(cfg, names[i], &cases[i]);
	*nb = n;
out:
	for (i = 0; i < n; i++)
		free(names[i]);
	rte_cfgfile_close(cfg);
	return ret;
}
