/*
 * config.c: the parameter table walker (see config.h).
 *
 * Every parameter lives in exactly one section; the sections are listed here
 * in the order `--list-config` and `info config` show them:
 *
 *   top (name, description, seed) │ core │ l1 │ l1i │ l2 │ icnt │ mem │ dram │ trace │ rf
 *
 * Defaults are parsed with the same code as user input (cfg_set_value), so a
 * default that breaks its own range is caught by the first unit test.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct cfg_param top_params[] = {
	{"name", CFG_STR, CFG_OFF(name), "teaching", 0, 0, 0, NULL,
	 "name of this machine description (shown in the status bar and stats JSON)"},
	{"description", CFG_STR, CFG_OFF(description),
	 "small teaching GPU: 2 SMs, tiny L1s and L2, one 16-bank DRAM channel; every structure fits on one screen", 0, 0, 0, NULL,
	 "one line: what the config models and the source it follows"},
	{"seed", CFG_U64, CFG_OFF(seed), "1", 0, 0, 0, NULL,
	 "PRNG seed (random replacement, hash() in kernels); --seed overrides"},
	{"threads", CFG_INT, CFG_OFF(threads), "1", 0, 64, 0, NULL,
	 "threads that tick the SMs of each cycle; results are identical for every count; default 1 (two threads "
	 "paid only with both cores of the 2-core machine measured free); 0 = the machine's cores, "
	 "at most core.sms / 8 (so 1 below 16 SMs); machines whose SM ticks still share state run one "
	 "(docs/PERFORMANCE.md \"Threads\"); --threads overrides"},
};

static const struct cfg_section top_cfg_section = {
	.name = "top",
	.params = top_params,
	.nparams = ARRAY_LEN(top_params),
};

static const struct cfg_section *const sections[] = {
	&top_cfg_section, &core_cfg_section, &l1_cfg_section,  &l1i_cfg_section, &l2_cfg_section,
	&icnt_cfg_section, &mem_cfg_section, &dram_cfg_section, &trace_cfg_section, &rf_cfg_section, &reuse_cfg_section,
};

size_t cfg_param_count(void)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(sections); i++)
		n += sections[i]->nparams;
	return n;
}

const struct cfg_param *cfg_param_at(size_t i)
{
	for (size_t s = 0; s < ARRAY_LEN(sections); s++) {
		if (i < sections[s]->nparams)
			return &sections[s]->params[i];
		i -= sections[s]->nparams;
	}
	return NULL;
}

const struct cfg_param *cfg_find(const char *path)
{
	for (size_t s = 0; s < ARRAY_LEN(sections); s++)
		for (size_t i = 0; i < sections[s]->nparams; i++)
			if (strcmp(sections[s]->params[i].path, path) == 0)
				return &sections[s]->params[i];
	return NULL;
}

const char *cfg_type_name(enum cfg_type t)
{
	switch (t) {
	case CFG_INT:
	case CFG_U64:
		return "integer";
	case CFG_BOOL:
		return "boolean";
	case CFG_DOUBLE:
		return "number";
	case CFG_ENUM:
		return "enum";
	case CFG_STR:
		return "string";
	}
	return "?";
}

/* Edit distance, case differences cost 1/2 (scaled by 2 to stay integral). */
static unsigned edit_distance2(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 127 || lb > 127)
		return UINT32_MAX;
	unsigned d[128][128];
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (unsigned)i * 2;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (unsigned)j * 2;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			unsigned sub = a[i - 1] == b[j - 1] ? 0
				       : tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 1
																: 2;
			unsigned best = d[i - 1][j - 1] + sub;
			if (d[i - 1][j] + 2 < best)
				best = d[i - 1][j] + 2;
			if (d[i][j - 1] + 2 < best)
				best = d[i][j - 1] + 2;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 2 < best)
				best = d[i - 2][j - 2] + 2; /* transposition */
			d[i][j] = best;
		}
	return d[la][lb];
}

static const char *last_dot(const char *p)
{
	const char *d = strrchr(p, '.');
	return d ? d + 1 : p;
}

const char *cfg_suggest(const char *path)
{
	const char *best = NULL;
	unsigned best_d = UINT32_MAX;
	size_t n = cfg_param_count();
	for (size_t i = 0; i < n; i++) {
		const char *p = cfg_param_at(i)->path;
		unsigned d = edit_distance2(path, p);
		/* The right leaf under the wrong section ("l2.hit_latency" for "l1.hit_latency"
		 * is found above; "hit_latency" alone is found here). */
		if (strcasecmp(last_dot(path), last_dot(p)) == 0 && d > 4)
			d = 4;
		if (d < best_d) {
			best_d = d;
			best = p;
		}
	}
	size_t len = strlen(path);
	unsigned limit = 2 * (unsigned)(len / 4 > 2 ? len / 4 : 2); /* about a quarter of the characters */
	return best_d <= limit ? best : NULL;
}

/* Integers exactly, other numbers with %g. */
static void fmt_num(char *buf, size_t n, double v)
{
	if (v == floor(v) && fabs(v) < 1e18)
		snprintf(buf, n, "%.0f", v);
	else
		snprintf(buf, n, "%g", v);
}

static bool has_range(const struct cfg_param *p) { return p->min != 0 || p->max != 0; }

/* Shared checks for numbers parsed from text and numbers already in the struct. */
static int check_number(const struct cfg_param *p, double v, const char *shown, char **err)
{
	if (has_range(p) && (v < p->min || v > p->max)) {
		char lo[32], hi[32];
		fmt_num(lo, sizeof lo, p->min);
		fmt_num(hi, sizeof hi, p->max);
		return set_err(err, "%s: must be between %s and %s, got %s", p->path, lo, hi, shown);
	}
	if ((p->flags & CFG_POW2) && (v < 1 || v != floor(v) || !is_pow2((uint64_t)v)))
		return set_err(err, "%s: must be a power of two, got %s", p->path, shown);
	return 0;
}

static void enum_list(const struct cfg_param *p, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = 0;
	for (size_t i = 0; p->enums && p->enums[i] && len < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i ? ", " : "", p->enums[i]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

static int parse_bool(const char *t, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on", "1"};
	static const char *const no[] = {"false", "no", "off", "0"};
	for (size_t i = 0; i < ARRAY_LEN(yes); i++) {
		if (strcasecmp(t, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(t, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

int cfg_set_value(struct sim_cfg *c, const char *path, const char *text, char **err)
{
	const struct cfg_param *p = cfg_find(path);
	if (!p) {
		const char *s = cfg_suggest(path);
		if (s)
			return set_err(err, "%s: unknown key (did you mean %s?)", path, s);
		return set_err(err, "%s: unknown key (see gpustep --list-config)", path);
	}
	if (!text)
		text = "";
	char *field = (char *)c + p->offset;
	char *end = NULL;
	while (isspace((unsigned char)*text))
		text++;
	switch (p->type) {
	case CFG_INT:
	case CFG_U64: {
		errno = 0;
		bool neg = text[0] == '-';
		long long sv = 0;
		unsigned long long uv = 0;
		if (neg)
			sv = strtoll(text, &end, 0);
		else
			uv = strtoull(text, &end, 0);
		while (end && isspace((unsigned char)*end))
			end++;
		if (!*text || end == text || !end || *end || text[0] == '+')
			return set_err(err, "%s: expected an integer, got '%s'", p->path, text);
		if (errno == ERANGE || (p->type == CFG_INT && !neg && uv > INT32_MAX) ||
		    (p->type == CFG_INT && neg && sv < INT32_MIN) || (p->type == CFG_U64 && neg))
			return set_err(err, "%s: value out of range, got %s", p->path, text);
		double v = neg ? (double)sv : (double)uv;
		if (check_number(p, v, text, err))
			return -1;
		if (p->type == CFG_INT)
			*(int *)field = neg ? (int)sv : (int)uv;
		else
			*(uint64_t *)field = uv;
		return 0;
	}
	case CFG_DOUBLE: {
		errno = 0;
		double v = strtod(text, &end);
		while (end && isspace((unsigned char)*end))
			end++;
		if (!*text || end == text || *end || !isfinite(v))
			return set_err(err, "%s: expected a number, got '%s'", p->path, text);
		if (check_number(p, v, text, err))
			return -1;
		*(double *)field = v;
		return 0;
	}
	case CFG_BOOL: {
		bool b;
		if (parse_bool(text, &b))
			return set_err(err, "%s: expected true or false, got '%s'", p->path, text);
		*(bool *)field = b;
		return 0;
	}
	case CFG_ENUM: {
		for (int i = 0; p->enums && p->enums[i]; i++)
			if (strcasecmp(p->enums[i], text) == 0) {
				*(int *)field = i;
				return 0;
			}
		char list[256];
		enum_list(p, list, sizeof list);
		return set_err(err, "%s: unknown value '%s' (one of %s)", p->path, text, list);
	}
	case CFG_STR:
		if (strlen(text) >= CFG_STR_MAX)
			return set_err(err, "%s: string longer than %d characters", p->path, CFG_STR_MAX - 1);
		snprintf(field, CFG_STR_MAX, "%s", text);
		return 0;
	}
	return set_err(err, "%s: unsupported type", p->path);
}

void cfg_format(const struct sim_cfg *c, const struct cfg_param *p, char *buf, size_t n)
{
	const char *field = (const char *)c + p->offset;
	switch (p->type) {
	case CFG_INT:
		snprintf(buf, n, "%d", *(const int *)field);
		break;
	case CFG_U64:
		snprintf(buf, n, "%" PRIu64, *(const uint64_t *)field);
		break;
	case CFG_DOUBLE:
		snprintf(buf, n, "%g", *(const double *)field);
		break;
	case CFG_BOOL:
		snprintf(buf, n, "%s", *(const bool *)field ? "true" : "false");
		break;
	case CFG_ENUM: {
		int v = *(const int *)field;
		const char *name = NULL;
		for (int i = 0; p->enums && p->enums[i]; i++)
			if (i == v)
				name = p->enums[i];
		if (name)
			snprintf(buf, n, "%s", name);
		else
			snprintf(buf, n, "%d", v);
		break;
	}
	case CFG_STR:
		snprintf(buf, n, "%s", field);
		break;
	}
}

void cfg_defaults(struct sim_cfg *c)
{
	memset(c, 0, sizeof(*c));
	size_t n = cfg_param_count();
	for (size_t i = 0; i < n; i++) {
		const struct cfg_param *p = cfg_param_at(i);
		char *err = NULL;
		if (cfg_set_value(c, p->path, p->def, &err)) {
			/* A broken table is a programmer error, caught by the unit tests. */
			fprintf(stderr, "gpustep: bad default in config table: %s\n", err);
			free(err);
			abort();
		}
	}
}

int cfg_validate(const struct sim_cfg *c, char **err)
{
	size_t n = cfg_param_count();
	for (size_t i = 0; i < n; i++) {
		const struct cfg_param *p = cfg_param_at(i);
		const char *field = (const char *)c + p->offset;
		char shown[64];
		cfg_format(c, p, shown, sizeof shown);
		double v;
		switch (p->type) {
		case CFG_INT:
			v = *(const int *)field;
			break;
		case CFG_U64:
			v = (double)*(const uint64_t *)field;
			break;
		case CFG_DOUBLE:
			v = *(const double *)field;
			break;
		case CFG_ENUM: {
			int e = *(const int *)field, cnt = 0;
			while (p->enums && p->enums[cnt])
				cnt++;
			if (e < 0 || e >= cnt)
				return set_err(err, "%s: invalid enum value %d", p->path, e);
			continue;
		}
		default:
			continue;
		}
		if (check_number(p, v, shown, err))
			return -1;
	}
	for (size_t s = 0; s < ARRAY_LEN(sections); s++)
		if (sections[s]->validate && sections[s]->validate(c, err))
			return set_err(err, "%s: invalid combination of values", sections[s]->name);
	return 0;
}

void cfg_print_derived(const struct sim_cfg *c, struct strbuf *out)
{
	for (size_t s = 0; s < ARRAY_LEN(sections); s++)
		if (sections[s]->derived)
			sections[s]->derived(c, out);
}
