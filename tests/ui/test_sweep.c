/*
 * test_sweep.c: sweep specs (sweep_spec.c) and collect (sweep_collect.c).
 * Job keys follow what runs (resolved config, workload bytes, params, seed);
 * the SQLite database and the CSV hold exactly what the per-job stats JSON
 * files say. The runners themselves are exercised with the real binary in
 * tests/e2e/cli_sweep.sh.
 */
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cJSON.h"
#include "load/loader.h"
#include "session/session.h"
#include "export/stats_json.h"
#include "sweep/sweep.h"
#include "sweep/sweep_data.h"
#include "test.h"

static char *tmpdir(void)
{
	const char *d = getenv("TMPDIR");
	char *t = xasprintf("%s/gpustep-sweep-XXXXXX", d && *d ? d : "/tmp");
	REQUIRE(mkdtemp(t) != NULL);
	return t;
}

static void put(const char *path, const char *text)
{
	char *err = NULL;
	REQUIRE(write_file_atomic(path, text, &err) == 0);
}

static void rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
}

TEST(sweep_spec_expands_and_keys_follow_inputs)
{
	char *d = tmpdir(), *spec = xasprintf("%s/s.json", d), *wl = xasprintf("%s/k.json", d), *err = NULL;
	size_t len;
	char *text = loader_read_file("configs/workloads/vecadd.json", &len, &err);
	REQUIRE(text != NULL);
	put(wl, text);
	put(spec, "{\"workloads\": [\"k.json\", \"strided\"], \"axes\": {\"l1.mshr.entries\": [4, 8], \"l1.ways\": [2, 4]},"
		  " \"params\": {\"n\": [1024]}, \"seeds\": [1, 2]}");
	struct sweep *a = sweep_load(spec, NULL, &err);
	if (!a)
		test_fail(__FILE__, __LINE__, "%s", err);
	REQUIRE(a != NULL);
	CHECK_EQ(a->njobs, 2 * 2 * 2 * 1 * 2);
	CHECK_EQ(a->ndims, 6);
	CHECK_STR(a->dims[5].name, "seed");
	CHECK_STR(a->dims[4].name, "param.n");
	/* seed fastest, config outermost */
	CHECK_STR(sweep_val(a, &a->jobs[1], 5), "2");
	CHECK_STR(sweep_val(a, &a->jobs[2], 3), "4");
	char *out = xasprintf("%s/s-results", d);
	CHECK_STR(a->out, out);
	free(out);
	/* zip pairs the axes */
	char *zspec = xasprintf("%s/z.json", d);
	put(zspec, "{\"workloads\": [\"vecadd\"], \"combine\": \"zip\", \"axes\": {\"l1.mshr.entries\": [4, 8, 16], "
		   "\"l1.ways\": [2, 4, 8]}, \"seeds\": [1, 2]}");
	struct sweep *z = sweep_load(zspec, NULL, &err);
	REQUIRE(z != NULL);
	CHECK_EQ(z->njobs, 3 * 2);
	for (int i = 0; i < z->njobs; i++)
		CHECK_EQ(z->jobs[i].pick[2], z->jobs[i].pick[3]);
	sweep_free(z);
	free(zspec);
	/* the same inputs give the same keys; a changed workload file changes its jobs' keys only */
	struct sweep *b = sweep_load(spec, NULL, &err);
	REQUIRE(b != NULL);
	for (int i = 0; i < a->njobs; i++)
		CHECK_STR(a->jobs[i].key, b->jobs[i].key);
	sweep_free(b);
	char *changed = xasprintf("%s\n", text);
	put(wl, changed);
	b = sweep_load(spec, NULL, &err);
	REQUIRE(b != NULL);
	for (int i = 0; i < a->njobs; i++) {
		bool is_file = strcmp(sweep_val(a, &a->jobs[i], 1), "strided") != 0;
		CHECK_EQ(strcmp(a->jobs[i].key, b->jobs[i].key) != 0, is_file);
	}
	/* every key distinct */
	for (int i = 0; i < a->njobs; i++)
		for (int k = i + 1; k < a->njobs; k++)
			CHECK(strcmp(a->jobs[i].key, a->jobs[k].key) != 0);
	sweep_free(b);
	sweep_free(a);
	free(changed);
	free(text);
	/* a duplicate value would make two jobs one run */
	put(spec, "{\"workloads\": [\"vecadd\"], \"seeds\": [1, 1]}");
	CHECK(sweep_load(spec, NULL, &err) == NULL);
	CHECK_CONTAINS(err, "are the same run");
	free(err);
	err = NULL;
	put(spec, "{\"workloads\": [\"vecadd\"], \"axis\": {}}");
	CHECK(sweep_load(spec, NULL, &err) == NULL);
	CHECK_CONTAINS(err, "unknown key \"axis\"");
	free(err);
	err = NULL;
	put(spec, "{\"workloads\": [\"vecadd\"], \"params\": {\"nn\": [4]}}");
	CHECK(sweep_load(spec, NULL, &err) == NULL);
	CHECK_CONTAINS(err, "nn");
	free(err);
	rm_rf(d);
	free(spec);
	free(wl);
	free(d);
}

/* Run job j in-process the way its child process would, writing its result. */
static void run_job_here(const struct sweep *sw, const struct sweep_job *j)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	REQUIRE(loader_load_config(sweep_val(sw, j, 0), &c, &err) == 0);
	c.seed = strtoull(sweep_val(sw, j, sw->ndims - 1), NULL, 10);
	REQUIRE(cfg_validate(&c, &err) == 0);
	struct session ss;
	REQUIRE(session_init(&ss, &c, "", sweep_val(sw, j, 1), c.seed, &err) == 0);
	session_set_snapshot_budget(&ss, 0);
	session_start_run(&ss, RUN_FOREVER, 0);
	session_run_all(&ss);
	char *res = sweep_result_path(sw, j);
	struct stats_json_info info = {ss.cfg.name, ss.ksrc.name, ss.seed};
	REQUIRE(stats_json_write(res, ss.sim, &info, &err) == 0);
	free(res);
	session_fini(&ss);
}

TEST(sweep_collect_sqlite_and_csv_match_the_job_json)
{
	char *d = tmpdir(), *spec = xasprintf("%s/s.json", d), *err = NULL;
	put(spec, "{\"workloads\": [\"vecadd\", \"strided\"], \"seeds\": [1, 2]}");
	struct sweep *sw = sweep_load(spec, NULL, &err);
	REQUIRE(sw != NULL);
	REQUIRE(sweep_make_dirs(sw, &err) == 0);
	run_job_here(sw, &sw->jobs[0]);
	run_job_here(sw, &sw->jobs[1]);
	run_job_here(sw, &sw->jobs[3]);
	char *fail = sweep_fail_path(sw, &sw->jobs[2]);
	put(fail, "{\"job\": 2, \"exit\": 3, \"message\": \"it broke\"}");
	free(fail);
	char *db = xasprintf("%s/r.db", d), *csv = xasprintf("%s/r.csv", d);
	struct sweep_opts o = {.db = db, .csv = csv, .job = -1};
	REQUIRE(sweep_collect(sw, &o) == 0);

	sqlite3 *h = NULL;
	REQUIRE(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK);
	sqlite3_stmt *q = NULL, *v = NULL;
	REQUIRE(sqlite3_prepare_v2(h, "SELECT job, key, status, exit_code, message, workload, seed, cycles FROM jobs "
				      "ORDER BY job", -1, &q, NULL) == SQLITE_OK);
	REQUIRE(sqlite3_prepare_v2(h, "SELECT name, value FROM stats WHERE job = ?", -1, &v, NULL) == SQLITE_OK);
	int rows = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		int job = sqlite3_column_int(q, 0);
		const struct sweep_job *j = &sw->jobs[job];
		CHECK_STR((const char *)sqlite3_column_text(q, 1), j->key);
		CHECK_STR((const char *)sqlite3_column_text(q, 5), sweep_val(sw, j, 1));
		CHECK_EQ(sqlite3_column_int(q, 6), atoi(sweep_val(sw, j, 2)));
		const char *status = (const char *)sqlite3_column_text(q, 2);
		if (job == 2) {
			CHECK_STR(status, "failed");
			CHECK_EQ(sqlite3_column_int(q, 3), 3);
			CHECK_STR((const char *)sqlite3_column_text(q, 4), "it broke");
			CHECK_EQ(sqlite3_column_type(q, 7), SQLITE_NULL);
		} else {
			CHECK_STR(status, "done");
			/* every scalar of the job's JSON, and nothing else, with its value */
			char *res = sweep_result_path(sw, j);
			size_t len;
			char *text = loader_read_file(res, &len, &err);
			REQUIRE(text != NULL);
			cJSON *doc = cJSON_Parse(text);
			REQUIRE(doc != NULL);
			CHECK_EQ(sqlite3_column_int64(q, 7),
				 (long long)cJSON_GetObjectItemCaseSensitive(doc, "cycles")->valuedouble);
			const cJSON *st = cJSON_GetObjectItemCaseSensitive(doc, "stats"), *s;
			int nnum = 0, nrow = 0, same = 0;
			cJSON_ArrayForEach(s, st) nnum += cJSON_IsNumber(s);
			sqlite3_reset(v);
			sqlite3_bind_int(v, 1, job);
			while (sqlite3_step(v) == SQLITE_ROW) {
				const cJSON *x = cJSON_GetObjectItemCaseSensitive(st, (const char *)sqlite3_column_text(v, 0));
				same += cJSON_IsNumber(x) && x->valuedouble == sqlite3_column_double(v, 1);
				nrow++;
			}
			CHECK(nnum > 50);
			CHECK_EQ(nrow, nnum);
			CHECK_EQ(same, nnum);
			cJSON_Delete(doc);
			free(text);
			free(res);
		}
		rows++;
	}
	CHECK_EQ(rows, 4);
	sqlite3_finalize(q);
	sqlite3_finalize(v);
	sqlite3_close(h);

	/* CSV: header, then a row per job with the JSON's numbers */
	size_t len;
	char *text = loader_read_file(csv, &len, &err);
	REQUIRE(text != NULL);
	CHECK(strncmp(text, "job,key,status,config,workload,seed,cycles,sim.cycles,", 54) == 0);
	char line3[128];
	snprintf(line3, sizeof line3, "\n2,%s,failed,teaching,strided,1,,", sw->jobs[2].key);
	CHECK_CONTAINS(text, line3);
	char *res = sweep_result_path(sw, &sw->jobs[3]), *jt = loader_read_file(res, &len, &err);
	cJSON *doc = cJSON_Parse(jt);
	char row3[256];
	snprintf(row3, sizeof row3, "\n3,%s,done,teaching,strided,2,%.0f,%.0f,%.0f,", sw->jobs[3].key,
		 cJSON_GetObjectItemCaseSensitive(doc, "cycles")->valuedouble,
		 cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "stats"), "sim.cycles")->valuedouble,
		 cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(doc, "stats"), "sim.warp_insts")
			 ->valuedouble);
	CHECK_CONTAINS(text, row3);
	cJSON_Delete(doc);
	free(jt);
	free(res);
	free(text);

	/* a markdown table over the results: the failed job's group is n/a, never a partial mean */
	char *md = xasprintf("%s/t.md", d);
	struct sweep_opts t = {.rows = "workload", .stats = "cycles", .md = md, .job = -1};
	REQUIRE(sweep_table(sw, &t) == 0);
	text = loader_read_file(md, &len, &err);
	REQUIRE(text != NULL);
	CHECK_CONTAINS(text, "| workload | cycles |\n|---|---|\n| vecadd | ");
	CHECK_CONTAINS(text, "| strided | n/a |");
	free(text);
	free(md);
	sweep_free(sw);
	rm_rf(d);
	free(db);
	free(csv);
	free(spec);
	free(d);
}

/* The progress line: an ETA while jobs remain; a sweep stopped by Ctrl-C
 * shows none (it will not finish), but how many jobs it did not run. */
TEST(sweep_progress_stopped_shows_no_eta)
{
	char line[160];
	sweep_progress_line(line, sizeof line, 3, 0, 2, 8, 0, 6.0, false);
	CHECK_STR(line, "[#########               ] 3/8 done, 0 failed, 2 running, ETA 10s");
	sweep_progress_line(line, sizeof line, 3, 1, 0, 8, 0, 6.0, true);
	CHECK_STR(line, "[############            ] 3/8 done, 1 failed, 0 running, stopped (4 not run)");
	CHECK(!strstr(line, "ETA"));
	sweep_progress_line(line, sizeof line, 8, 0, 0, 8, 2, 6.0, true); /* all done: nothing to say */
	CHECK_STR(line, "[########################] 8/8 done, 0 failed, 0 running");
}

static double result_cycles(const struct sweep *sw, int job)
{
	char *res = sweep_result_path(sw, &sw->jobs[job]), *err = NULL;
	size_t len;
	char *text = loader_read_file(res, &len, &err);
	REQUIRE(text != NULL);
	cJSON *doc = cJSON_Parse(text);
	REQUIRE(doc != NULL);
	double c = cJSON_GetObjectItemCaseSensitive(doc, "cycles")->valuedouble;
	cJSON_Delete(doc);
	free(text);
	free(res);
	return c;
}

static char *table_md(struct sweep *sw, const char *dir, struct sweep_opts t)
{
	char *md = xasprintf("%s/t.md", dir), *err = NULL;
	size_t len;
	t.md = md;
	t.job = -1;
	REQUIRE(sweep_table(sw, &t) == 0);
	char *text = loader_read_file(md, &len, &err);
	REQUIRE(text != NULL);
	free(md);
	return text;
}

/* A spec's "baseline" names the baseline job's value of a dimension: `sweep
 * table` with that dimension as rows (or columns) shows every cell against
 * the baseline's cell, the change computed from the job results; a bad
 * baseline is refused naming it. */
TEST(sweep_baseline_table_shows_each_cell_against_it)
{
	char *d = tmpdir(), *spec = xasprintf("%s/s.json", d), *err = NULL;
	put(spec, "{\"workloads\": [\"vecadd\", \"strided\"], \"seeds\": [1, 2], \"baseline\": {\"workload\": \"vecadd\"}}");
	struct sweep *sw = sweep_load(spec, NULL, &err);
	REQUIRE(sw != NULL);
	CHECK_EQ(sw->nbase, 1);
	REQUIRE(sweep_make_dirs(sw, &err) == 0);
	for (int i = 0; i < sw->njobs; i++)
		run_job_here(sw, &sw->jobs[i]);
	/* jobs: vecadd s1, vecadd s2, strided s1, strided s2 */
	double v = (result_cycles(sw, 0) + result_cycles(sw, 1)) / 2, s = (result_cycles(sw, 2) + result_cycles(sw, 3)) / 2;
	REQUIRE(v != s);
	char *text = table_md(sw, d, (struct sweep_opts){.rows = "workload", .stats = "cycles"});
	char want[256];
	CHECK_CONTAINS(text, "| workload (vs baseline workload=vecadd) | cycles |");
	snprintf(want, sizeof want, "(baseline) |\n| strided | ");
	CHECK_CONTAINS(text, want);
	snprintf(want, sizeof want, " (%+.1f%%) |", 100.0 * (s - v) / v);
	CHECK_CONTAINS(text, want);
	free(text);
	/* as columns: each seed's row against its own vecadd cell */
	text = table_md(sw, d, (struct sweep_opts){.rows = "seed", .cols = "workload", .stats = "cycles"});
	double v1 = result_cycles(sw, 0), s1 = result_cycles(sw, 2);
	snprintf(want, sizeof want, "| 1 | %.0f (baseline) | %.0f (%+.1f%%) |", v1, s1, 100.0 * (s1 - v1) / v1);
	CHECK_CONTAINS(text, want);
	free(text);
	/* --base keeps its ratios; the baseline steps aside */
	text = table_md(sw, d, (struct sweep_opts){.rows = "workload", .stats = "cycles", .base = "strided"});
	CHECK(!strstr(text, "baseline"));
	free(text);
	sweep_free(sw);
	const char *bad[][2] = {
		{"{\"workloads\": [\"vecadd\"], \"baseline\": {\"l1.ways\": 4}}", "\"l1.ways\" is not a dimension"},
		{"{\"workloads\": [\"vecadd\"], \"baseline\": {\"workload\": \"strided\"}}", "no job has workload = strided"},
		{"{\"workloads\": [\"vecadd\"], \"baseline\": 3}", "\"baseline\" must name"},
		{"{\"workloads\": [\"vecadd\"], \"baseline\": {}}", "\"baseline\" must name"},
		{"{\"workloads\": [\"vecadd\"], \"baseline\": {\"seed\": 1, \"seed\": 1}}", "seed is given twice"},
		{"{\"workloads\": [\"vecadd\"], \"baseline\": {\"seed\": [1]}}", "a number, string or boolean"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		put(spec, bad[i][0]);
		err = NULL;
		struct sweep *b = sweep_load(spec, NULL, &err);
		CHECK(b == NULL);
		if (b)
			sweep_free(b);
		CHECK_CONTAINS(err ? err : "", bad[i][1]);
		free(err);
	}
	rm_rf(d);
	free(spec);
	free(d);
}
