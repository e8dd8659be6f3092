/*
 * stats_json.c: the stats dump and the config dump as JSON (see stats_json.h).
 */
#include "stats_json.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cJSON.h"

#ifndef GPUSTEP_VERSION
#define GPUSTEP_VERSION "0.0.0"
#endif

/* Pretty printer: two-space indent, "key": value, short arrays on one line. */
static void emit(struct strbuf *sb, const cJSON *v, int indent)
{
	if (cJSON_IsObject(v) || cJSON_IsArray(v)) {
		bool obj = cJSON_IsObject(v);
		bool flat = !obj;
		for (const cJSON *c = v->child; c && flat; c = c->next)
			flat = !cJSON_IsObject(c) && !cJSON_IsArray(c);
		if (!v->child) {
			sb_puts(sb, obj ? "{}" : "[]");
			return;
		}
		sb_puts(sb, obj ? "{" : "[");
		for (const cJSON *c = v->child; c; c = c->next) {
			if (flat)
				sb_puts(sb, c == v->child ? "" : " ");
			else
				sb_printf(sb, "\n%*s", indent + 2, "");
			if (obj) {
				char *k = cJSON_PrintUnformatted(&(cJSON){.type = cJSON_String, .valuestring = c->string});
				sb_printf(sb, "%s: ", k ? k : "\"\"");
				cJSON_free(k);
			}
			emit(sb, c, indent + 2);
			if (c->next)
				sb_puts(sb, ",");
		}
		if (!flat)
			sb_printf(sb, "\n%*s", indent, "");
		sb_puts(sb, obj ? "}" : "]");
		return;
	}
	if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9.007199254740992e15) {
		sb_printf(sb, "%.0f", v->valuedouble);
		return;
	}
	char *t = cJSON_PrintUnformatted(v);
	sb_puts(sb, t ? t : "null");
	cJSON_free(t);
}

static char *to_text(const cJSON *root)
{
	struct strbuf sb;
	sb_init(&sb);
	emit(&sb, root, 0);
	sb_puts(&sb, "\n");
	return sb.s;
}

static cJSON *stat_json(const struct stats *st, uint32_t id)
{
	const struct stat_def *d = stats_def(st, id);
	switch (d->kind) {
	case STAT_COUNTER:
		return cJSON_CreateNumber((double)stats_counter_value(st, id));
	case STAT_RATIO:
	case STAT_OCC: {
		double v = stats_value(st, id);
		return cJSON_CreateNumber(isfinite(v) ? v : 0.0);
	}
	case STAT_HIST: {
		cJSON *o = cJSON_CreateObject();
		cJSON *b = cJSON_AddArrayToObject(o, "buckets");
		cJSON *c = cJSON_AddArrayToObject(o, "counts");
		const uint64_t *counts = stats_hist_counts(st, id);
		for (uint32_t i = 0; i < d->nbuckets; i++) {
			cJSON_AddItemToArray(b, cJSON_CreateNumber((double)d->edges[i]));
			cJSON_AddItemToArray(c, cJSON_CreateNumber((double)counts[i]));
		}
		return o;
	}
	}
	return cJSON_CreateNull();
}

char *stats_json_string(const struct sim *s, const struct stats_json_info *info)
{
	return stats_json_string_raw(sim_stats_c(s), sim_cycle(s), info);
}

char *stats_json_string_raw(const struct stats *st, uint64_t cycles, const struct stats_json_info *info)
{
	cJSON *root = cJSON_CreateObject();
	cJSON_AddStringToObject(root, "gpustep", GPUSTEP_VERSION);
	cJSON_AddStringToObject(root, "config", info && info->config ? info->config : "");
	cJSON_AddStringToObject(root, "workload", info && info->workload ? info->workload : "");
	cJSON_AddNumberToObject(root, "seed", (double)(info ? info->seed : 0));
	cJSON_AddNumberToObject(root, "cycles", (double)cycles);
	cJSON *stats = cJSON_AddObjectToObject(root, "stats");
	for (uint32_t i = 0; i < stats_count(st); i++)
		cJSON_AddItemToObject(stats, stats_def(st, i)->name, stat_json(st, i));
	char *out = to_text(root);
	cJSON_Delete(root);
	return out;
}

int stats_json_write(const char *path, const struct sim *s, const struct stats_json_info *info, char **err)
{
	char *text = stats_json_string(s, info);
	int rc = write_file_atomic(path, text, err);
	free(text);
	return rc;
}

/* Object at the dotted prefix of path inside root, created as needed. */
static cJSON *object_for(cJSON *root, const char *path, const char **leaf)
{
	cJSON *o = root;
	const char *p = path, *dot;
	while ((dot = strchr(p, '.')) != NULL) {
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(dot - p), p);
		cJSON *child = cJSON_GetObjectItemCaseSensitive(o, key);
		if (!child)
			child = cJSON_AddObjectToObject(o, key);
		o = child;
		p = dot + 1;
	}
	*leaf = p;
	return o;
}

char *config_json_string(const struct sim_cfg *c)
{
	cJSON *root = cJSON_CreateObject();
	size_t n = cfg_param_count();
	for (size_t i = 0; i < n; i++) {
		const struct cfg_param *p = cfg_param_at(i);
		const char *leaf;
		cJSON *o = object_for(root, p->path, &leaf);
		const char *field = (const char *)c + p->offset;
		char buf[CFG_STR_MAX + 32];
		switch (p->type) {
		case CFG_INT:
			cJSON_AddNumberToObject(o, leaf, *(const int *)field);
			break;
		case CFG_U64: {
			uint64_t v = *(const uint64_t *)field;
			if (v < (1ull << 53)) {
				cJSON_AddNumberToObject(o, leaf, (double)v);
			} else {
				cfg_format(c, p, buf, sizeof buf);
				cJSON_AddStringToObject(o, leaf, buf);
			}
			break;
		}
		case CFG_DOUBLE:
			cJSON_AddNumberToObject(o, leaf, *(const double *)field);
			break;
		case CFG_BOOL:
			cJSON_AddBoolToObject(o, leaf, *(const bool *)field);
			break;
		case CFG_ENUM:
		case CFG_STR:
			cfg_format(c, p, buf, sizeof buf);
			cJSON_AddStringToObject(o, leaf, buf);
			break;
		}
	}
	char *out = to_text(root);
	cJSON_Delete(root);
	return out;
}
