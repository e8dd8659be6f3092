/*
 * diff.c: `gpustep diff A.json B.json [--all]`: two stats files as `--stats`
 * writes them (export/stats_json.h), the stats that differ ranked as
 * whatif's "what moved" (session/whatif.c: |B-A| / max(|A|, |B|) weighted
 * by log10(2 + |B-A|)), the largest 12 grouped by structure, or every one
 * with --all.
 *
 * The files are untrusted input: read with a size cap (LOADER_TEXT_MAX),
 * parsed by cJSON, and a file that is not a stats document (no whole,
 * finite "cycles", no "stats" object) is refused naming the file. Numbers
 * are compared (counters, ratios, occupancy means); histograms and other
 * non-numbers are skipped, and a stat only one file has is counted apart.
 */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"
#include "load/loader.h"
#include "session/whatif.h"
#include "whatif.h"

static const char diff_usage[] = "usage: gpustep diff A.json B.json [--all]\n"
				 "  Two --stats files: the stats that differ, ranked as whatif's \"what moved\"\n"
				 "  (the 12 largest by structure; --all lists every one).\n";

int diff_parse_stats(const char *text, size_t len, const char *name, cJSON **doc, char **err)
{
	*doc = NULL;
	cJSON *d = cJSON_ParseWithLength(text, len);
	if (!d)
		return set_err(err, "%s: not valid JSON", name);
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(d, "cycles");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(d, "stats");
	if (!cJSON_IsObject(d) || !cJSON_IsObject(st)) {
		cJSON_Delete(d);
		return set_err(err, "%s: not a gpustep stats file (no \"stats\" object; write one with --stats FILE)", name);
	}
	if (!cJSON_IsNumber(c) || !isfinite(c->valuedouble) || c->valuedouble < 0 || c->valuedouble >= 9.2e18 ||
	    c->valuedouble != floor(c->valuedouble)) {
		cJSON_Delete(d);
		return set_err(err, "%s: not a gpustep stats file (\"cycles\" is not a whole number of cycles)", name);
	}
	for (const cJSON *x = st->child; x; x = x->next)
		if (!x->string) {
			cJSON_Delete(d);
			return set_err(err, "%s: \"stats\" has an entry without a name", name);
		}
	*doc = d;
	return 0;
}

static cJSON *load(const char *path, char **err)
{
	size_t len;
	char *text = loader_read_file_max(path, "stats file", LOADER_TEXT_MAX, &len, err);
	if (!text)
		return NULL;
	cJSON *doc;
	int rc = diff_parse_stats(text, len, path, &doc, err);
	free(text);
	return rc ? NULL : doc;
}

static bool number_of(const cJSON *v, double *x)
{
	if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
		return false;
	*x = v->valuedouble;
	return true;
}

static void print_line(void *u, const char *text)
{
	(void)u;
	printf("%s\n", text);
}

int diff_compare(const cJSON *a, const cJSON *b, bool all_, struct whatif_stat **out_v, uint32_t *out_m,
		 uint32_t *only_a, uint32_t *only_b)
{
	const cJSON *sa = cJSON_GetObjectItemCaseSensitive(a, "stats"), *sb = cJSON_GetObjectItemCaseSensitive(b, "stats");
	uint32_t n = 0, m = 0;
	for (const cJSON *x = sa->child; x; x = x->next)
		n++;
	struct whatif_stat *v = xcalloc(n ? n : 1, sizeof *v);
	*only_a = *only_b = 0;
	for (const cJSON *x = sa->child; x; x = x->next) {
		const cJSON *y = cJSON_GetObjectItemCaseSensitive(sb, x->string);
		double p, q;
		if (!y) {
			(*only_a)++;
			continue;
		}
		if (!number_of(x, &p) || !number_of(y, &q) || p == q)
			continue;
		double mx = fabs(p) > fabs(q) ? fabs(p) : fabs(q);
		v[m++] = (struct whatif_stat){x->string, p, q, q - p, (q - p) / mx};
	}
	for (const cJSON *y = sb->child; y; y = y->next)
		if (!cJSON_GetObjectItemCaseSensitive(sa, y->string))
			(*only_b)++;
	qsort(v, m, sizeof *v, whatif_stat_rank);
	*out_v = v;
	*out_m = all_ ? m : whatif_drop_unit_copies(v, m);
	return 0;
}

static const char *text_of(const cJSON *d, const char *key)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(d, key);
	return cJSON_IsString(x) ? x->valuestring : "?";
}

int diff_main(int argc, char **argv)
{
	const char *path[2] = {NULL, NULL};
	bool all = false;
	int np = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--all") == 0)
			all = true;
		else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(diff_usage, stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "gpustep diff: unknown option '%s'\n%s", argv[i], diff_usage);
			return EXIT_USAGE;
		} else if (np == 2) {
			fprintf(stderr, "gpustep diff: unexpected argument '%s' (two stats files)\n%s", argv[i], diff_usage);
			return EXIT_USAGE;
		} else
			path[np++] = argv[i];
	}
	if (np != 2) {
		fprintf(stderr, "gpustep diff: two stats files, please (written by gpustep --stats FILE)\n%s", diff_usage);
		return EXIT_USAGE;
	}
	cJSON *doc[2] = {NULL, NULL};
	for (int i = 0; i < 2; i++) {
		char *err = NULL;
		doc[i] = load(path[i], &err);
		if (!doc[i]) {
			fprintf(stderr, "gpustep diff: %s\n", err ? err : path[i]);
			free(err);
			cJSON_Delete(doc[0]);
			return EXIT_USAGE;
		}
	}
	struct whatif_stat *v;
	uint32_t m, oa, ob, moved;
	diff_compare(doc[0], doc[1], true, &v, &moved, &oa, &ob);
	m = all ? moved : whatif_drop_unit_copies(v, moved);
	double ca = cJSON_GetObjectItemCaseSensitive(doc[0], "cycles")->valuedouble;
	double cb = cJSON_GetObjectItemCaseSensitive(doc[1], "cycles")->valuedouble;
	for (int i = 0; i < 2; i++)
		printf("%s %s=%s (%s, %s, seed %.0f)\n", i ? "    " : "diff", i ? "B" : "A", path[i], text_of(doc[i], "config"),
		       text_of(doc[i], "workload"), cJSON_GetNumberValue(cJSON_GetObjectItemCaseSensitive(doc[i], "seed")));
	printf("  cycles: A %.0f, B %.0f (%+.0f, %+.1f%%)\n", ca, cb, cb - ca, ca ? 100.0 * (cb - ca) / ca : 0.0);
	if (oa || ob)
		printf("  stats only in A: %u, only in B: %u (not compared)\n", oa, ob);
	if (!m) {
		printf("identical: every stat both files have is equal\n");
	} else if (all) {
		printf("what moved (%u stats differ, the largest effect first):\n", m);
		printf("  %-40s %14s %14s %14s %8s\n", "stat", "A", "B", "B-A", "rel");
		for (uint32_t i = 0; i < m; i++)
			printf("  %-40s %14.6g %14.6g %+14.6g %+7.1f%%\n", v[i].name, v[i].a, v[i].b, v[i].d,
			       v[i].a ? 100.0 * v[i].d / fabs(v[i].a) : 100.0);
	} else {
		struct whatif_out out = {.print = print_line};
		whatif_print_changes(&out, "stats", v, m, moved, "A", "B");
	}
	free(v);
	cJSON_Delete(doc[0]);
	cJSON_Delete(doc[1]);
	return EXIT_OK;
}
