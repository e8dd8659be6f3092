/*
 * test_whatif_cli.c: the headless `gpustep whatif` and `gpustep diff`
 * (cli/whatif.c, cli/diff.c) and what the shared core (session/whatif.c)
 * adds for them: Ctrl-C, the memory budget, --each.
 *
 * Where the runs part is checked against a reference built here from the
 * two full event logs (both machines stepped one cycle at a time, every
 * event kept, the first pair that differs in any field), as
 * test_whatif.c does for the TUI command.
 */
#include <cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/diff.h"
#include "cli/whatif.h"
#include "export/stats_json.h"
#include "load/loader.h"
#include "machine/fork.h"
#include "evlog.h"
#include "sesstest.h"
#include "session/whatif.h"
#include "test.h"
#include "tui/commands.h"
#include "vtest.h"

static void rm_rf(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	CHECK(system(cmd) == 0);
	free(cmd);
}

/* main(n, args) of a subcommand with stdout into *out (when out). */
static int call(int (*fn)(int, char **), int n, const char *const *args, char **out)
{
	char *argv[32];
	for (int i = 0; i < n; i++)
		argv[i] = xstrdup(args[i]);
	argv[n] = NULL;
	char *dir = vt_tmpdir("whatif"), *path = xasprintf("%s/stdout", dir);
	fflush(stdout);
	int keep = dup(STDOUT_FILENO);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	REQUIRE(keep >= 0 && fd >= 0);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	int rc = fn(n, argv);
	fflush(stdout);
	dup2(keep, STDOUT_FILENO);
	close(keep);
	if (out) {
		size_t len;
		char *e = NULL;
		*out = loader_read_file_max(path, "stdout", 1 << 24, &len, &e);
		free(e);
		if (!*out)
			*out = xstrdup("");
	}
	for (int i = 0; i < n; i++)
		free(argv[i]);
	rm_rf(dir);
	free(dir);
	free(path);
	return rc;
}

static cJSON *read_json(const char *path)
{
	size_t len;
	char *e = NULL, *t = loader_read_file_max(path, "json", 1 << 26, &len, &e);
	free(e);
	REQUIRE(t);
	cJSON *d = cJSON_ParseWithLength(t, len);
	free(t);
	REQUIRE(d);
	return d;
}

static const cJSON *get(const cJSON *o, const char *k)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, k);
	if (!x)
		test_fail(__FILE__, __LINE__, "no \"%s\"", k);
	return x;
}

static double stat_of(const struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	REQUIRE(id >= 0);
	return stats_value(sim_stats_c(s), (uint32_t)id);
}

/* A machine that is quiet for a while (gtx480's launch latency) and then
 * bursts (15 SMs' CTAs start) must not overflow the event ring between two
 * comparisons: the parting is still located, where the two full logs first
 * differ (here the first remote DRAM read coming back sooner without the
 * NUMA fabric's latency). */
TEST(whatif_cli_locates_the_parting_after_a_quiet_stretch)
{
	char *dir = vt_tmpdir("whatif"), *json = xasprintf("%s/o.json", dir);
	struct sim_cfg ca, cb;
	char *err = NULL;
	cfg_defaults(&ca);
	REQUIRE(loader_load_config("gtx480", &ca, &err) == 0);
	REQUIRE(cfg_set_value(&ca, "l2.banks_per_channel", "0", &err) == 0);
	REQUIRE(cfg_set_value(&ca, "dram.page_alloc", "temp", &err) == 0);
	REQUIRE(cfg_set_value(&ca, "dram.numa_nodes", "15", &err) == 0);
	REQUIRE(cfg_set_value(&ca, "dram.numa_latency", "100", &err) == 0);
	cb = ca;
	REQUIRE(cfg_set_value(&cb, "dram.numa_latency", "0", &err) == 0);
	char *cfgpath = xasprintf("%s/base.json", dir);
	FILE *fp = fopen(cfgpath, "w");
	REQUIRE(fp != NULL);
	fputs("{\"extends\": \"gtx480\", \"l2\": {\"banks_per_channel\": 0}, \"dram\": {\"page_alloc\": \"temp\", "
	      "\"numa_nodes\": 15, \"numa_latency\": 100}}\n",
	      fp);
	fclose(fp);
	const char *a2[] = {"whatif", cfgpath, "-w", "stencil2d", "-s", "dram.numa_latency=0", "--json", json};
	char *text;
	CHECK_EQ(call(whatif_main, 8, a2, &text), 0);
	CHECK_CONTAINS(text, "where they part: cycle ");
	struct fx f;
	fx_init_wl(&f, "stencil2d");
	struct sim *a = sim_new(&ca, &f.ss.wl, &err), *b = sim_new(&cb, &f.ss.wl, &err);
	REQUIRE(a && b);
	struct evlog la, lb;
	evlog_run(a, UINT64_MAX, &la);
	evlog_run(b, UINT64_MAX, &lb);
	size_t i = 0, n = la.n < lb.n ? la.n : lb.n;
	while (i < n && evlog_same(&la.v[i], &lb.v[i]))
		i++;
	REQUIRE(i < n);
	uint64_t part = la.v[i].cycle < lb.v[i].cycle ? la.v[i].cycle : lb.v[i].cycle;
	cJSON *d = read_json(json);
	CHECK_EQ((uint64_t)get(get(d, "first_divergence"), "cycle")->valuedouble, part);
	cJSON_Delete(d);
	free(la.v);
	free(lb.v);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
	free(text);
	free(cfgpath);
	free(json);
	rm_rf(dir);
	free(dir);
}

/* The example: FRC entries on l2_set_burst, from cycle 0. The JSON's
 * first_divergence.cycle is where the two full logs first differ, the
 * sides' cycles and stats are those of the two full runs, and top_changes
 * names l2.nacks (all 691 NACKs of the run go away with an FRC). */
TEST(whatif_cli_json_parts_where_the_full_logs_differ)
{
	char *dir = vt_tmpdir("whatif"), *json = xasprintf("%s/o.json", dir);
	const char *args[] = {"whatif", "teaching", "-w", "l2_set_burst", "-s", "l2.frc.entries=8", "--json", json};
	char *text;
	CHECK_EQ(call(whatif_main, 8, args, &text), 0);
	CHECK_CONTAINS(text, "where they part: cycle ");
	/* the reference */
	struct sim_cfg ca, cb;
	char *err = NULL;
	cfg_defaults(&ca);
	REQUIRE(loader_load_config("teaching", &ca, &err) == 0);
	cb = ca;
	REQUIRE(cfg_set_value(&cb, "l2.frc.entries", "8", &err) == 0);
	struct fx f;
	fx_init_wl(&f, "l2_set_burst");
	struct sim *a = sim_new(&ca, &f.ss.wl, &err), *b = sim_new(&cb, &f.ss.wl, &err);
	REQUIRE(a && b);
	struct evlog la, lb;
	evlog_run(a, UINT64_MAX, &la);
	evlog_run(b, UINT64_MAX, &lb);
	size_t i = 0, n = la.n < lb.n ? la.n : lb.n;
	while (i < n && evlog_same(&la.v[i], &lb.v[i]))
		i++;
	REQUIRE(i < n);
	uint64_t part = la.v[i].cycle < lb.v[i].cycle ? la.v[i].cycle : lb.v[i].cycle;
	cJSON *d = read_json(json);
	const cJSON *fd = get(d, "first_divergence");
	CHECK_EQ((uint64_t)get(fd, "cycle")->valuedouble, part);
	char ev[512];
	event_format(&lb.v[i], ev, sizeof ev);
	CHECK_STR(get(fd, "variant_event")->valuestring, ev);
	event_format(&la.v[i], ev, sizeof ev);
	CHECK_STR(get(fd, "base_event")->valuestring, ev);
	CHECK_EQ((uint64_t)get(get(d, "base"), "cycles")->valuedouble, sim_cycle(a));
	CHECK_EQ((uint64_t)get(get(d, "variant"), "cycles")->valuedouble, sim_cycle(b));
	CHECK_EQ(get(get(get(d, "base"), "stats"), "l2.nacks")->valuedouble, stat_of(a, "l2.nacks"));
	CHECK_EQ(get(get(get(d, "variant"), "stats"), "l2.nacks")->valuedouble, stat_of(b, "l2.nacks"));
	CHECK(stat_of(a, "l2.nacks") > 0);
	bool nacks = false;
	const cJSON *t;
	int k = 0;
	cJSON_ArrayForEach(t, get(d, "top_changes"))
	{
		k++;
		const char *s = get(t, "stat")->valuestring;
		if (strcmp(s, "l2.nacks") == 0) {
			nacks = true;
			CHECK_EQ(get(t, "base")->valuedouble, stat_of(a, "l2.nacks"));
			CHECK_EQ(get(t, "variant")->valuedouble, stat_of(b, "l2.nacks"));
		}
		/* a per-bank copy of a total that moved the same is left out */
		CHECK(strcmp(s, "l2.bank0.nacks") != 0);
	}
	CHECK(nacks);
	CHECK(k > 0 && k <= WHATIF_TOP);
	CHECK(cJSON_GetArraySize(get(d, "stall_mix")) > 0);
	CHECK(!cJSON_IsTrue(get(d, "identical")));
	cJSON_Delete(d);
	free(la.v);
	free(lb.v);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
	free(text);
	rm_rf(dir);
	free(dir);
	free(json);
}

/* The headless report is the TUI command's `--from-start --to-end` report,
 * line for line (the TUI adds only its pointer to `whatif show`). */
TEST(whatif_cli_prints_the_tui_report)
{
	const char *args[] = {"whatif", "-w", "vecadd", "--seed", "1", "-s", "l1.mshr.entries=2"};
	char *text;
	CHECK_EQ(call(whatif_main, 7, args, &text), 0);
	struct fx f;
	fx_init_wl(&f, "vecadd");
	/* whatif_main turned rewinding off for its own session only */
	CHECK(f.ss.snapshot_bytes > 0);
	CHECK_EQ(fx_run(&f, "whatif l1.mshr.entries=2 --from-start --to-end"), CMD_OK);
	const char *tui = f.cap.out.s;
	const char *tail = strstr(tui, "(`whatif show`");
	REQUIRE(tail);
	CHECK_EQ(strlen(text), (size_t)(tail - tui));
	CHECK(strncmp(text, tui, (size_t)(tail - tui)) == 0);
	CHECK_CONTAINS(text, "verdict: B ");
	fx_fini(&f);
	free(text);
}

TEST(whatif_cli_bad_input_is_named)
{
	const char *nochange[] = {"whatif", "-w", "vecadd"};
	CHECK_EQ(call(whatif_main, 3, nochange, NULL), 2);
	const char *nowl[] = {"whatif", "-s", "l2.hit_latency=40"};
	CHECK_EQ(call(whatif_main, 3, nowl, NULL), 2);
	const char *badkey[] = {"whatif", "-w", "vecadd", "-s", "l2.no_such_key=3"};
	CHECK_EQ(call(whatif_main, 5, badkey, NULL), 2);
	const char *badval[] = {"whatif", "-w", "vecadd", "-s", "l1.mshr.entries=0"};
	CHECK_EQ(call(whatif_main, 5, badval, NULL), 2);
	const char *badwl[] = {"whatif", "-w", "no_such_kernel", "-s", "l2.hit_latency=40"};
	CHECK_EQ(call(whatif_main, 5, badwl, NULL), 2);
	const char *badjson[] = {"whatif", "-w", "vecadd", "-s", "l2.hit_latency=40", "--json", "/nonexistent/dir/o.json"};
	CHECK_EQ(call(whatif_main, 7, badjson, NULL), 2);
	const char *eachone[] = {"whatif", "-w", "vecadd", "-s", "l2.hit_latency=40", "--each"};
	CHECK_EQ(call(whatif_main, 6, eachone, NULL), 2);
}

/* --each: one fork per change, each row the whatif of that change alone,
 * ranked by cycles saved. */
TEST(whatif_cli_each_ranks_each_change_by_cycles)
{
	char *dir = vt_tmpdir("whatif"), *json = xasprintf("%s/e.json", dir);
	const char *args[] = {"whatif", "-w", "vecadd", "--seed", "1", "-s", "l2.hit_latency=60", "-s",
			      "l1.mshr.entries=2", "-s", "l2.hit_latency=2", "--each", "--json", json};
	char *text;
	CHECK_EQ(call(whatif_main, 14, args, &text), 0);
	CHECK_CONTAINS(text, "whatif --each: 3 changes");
	CHECK_CONTAINS(text, "|");
	cJSON *d = read_json(json);
	const cJSON *e = get(d, "each"), *t;
	CHECK_EQ(cJSON_GetArraySize(e), 3);
	double prev = -1e300;
	struct fx f;
	fx_init_wl(&f, "vecadd");
	cJSON_ArrayForEach(t, e)
	{
		double delta = get(t, "delta")->valuedouble;
		CHECK(delta >= prev);
		prev = delta;
		/* the row is that change's own whatif */
		struct whatif_spec w;
		char *err = NULL;
		whatif_spec_init(&w, &f.ss.cfg);
		w.from_start = true;
		REQUIRE(whatif_spec_add(&w, get(t, "change")->valuestring, &err) == 0);
		struct whatif_result r;
		struct whatif_out o = {0};
		REQUIRE(whatif_run(&f.ss, &w, &o, true, &r) == 0);
		CHECK_EQ((uint64_t)get(t, "base_cycles")->valuedouble, sim_cycle(r.a));
		CHECK_EQ((uint64_t)get(t, "variant_cycles")->valuedouble, sim_cycle(r.b));
		CHECK_EQ((int64_t)delta, (int64_t)sim_cycle(r.b) - (int64_t)sim_cycle(r.a));
		whatif_result_free(&r);
	}
	fx_fini(&f);
	cJSON_Delete(d);
	free(text);
	rm_rf(dir);
	free(dir);
	free(json);
}

/* TUI --each too: the same chart. */
TEST(whatif_each_in_the_tui)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "whatif l2.hit_latency=60 l1.mshr.entries=2 --each --from-start"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "whatif --each: 2 changes");
	CHECK_CONTAINS(f.cap.out.s, "l1.mshr.entries=2");
	CHECK(fx_run(&f, "whatif l2.hit_latency=60 --each") & CMD_ERR);
	fx_fini(&f);
}

/* Ctrl-C (a SIGINT handler calls whatif_interrupt) stops the two copies
 * between chunks: nothing reported, the stepped machine as it was, and the
 * next whatif runs to its end. */
static int polls;
/* what batch mode's SIGINT handler does: the whatif and the machine */
static bool interrupt_on_third(void *u)
{
	struct session *ss = u;
	if (++polls == 3) {
		whatif_interrupt();
		sim_interrupt(ss->sim);
	}
	return false;
}

TEST(whatif_ctrl_c_stops_it_and_leaves_the_machine)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "run 50");
	REQUIRE(sim_cycle(f.ss.sim) == 50);
	uint64_t c = sim_cycle(f.ss.sim), h = sim_state_hash(f.ss.sim);
	struct whatif_spec w;
	char *err = NULL;
	whatif_spec_init(&w, &f.ss.cfg);
	REQUIRE(whatif_spec_add(&w, "l2.hit_latency=60", &err) == 0);
	struct whatif_result r;
	struct whatif_out o = {.cancel = interrupt_on_third, .u = &f.ss};
	polls = 0;
	REQUIRE(whatif_run(&f.ss, &w, &o, true, &r) == 0);
	CHECK(r.interrupted);
	CHECK(!sim_done(r.a) && !sim_done(r.b));
	CHECK_EQ(sim_cycle(f.ss.sim), c);
	CHECK_EQ(sim_state_hash(f.ss.sim), h);
	whatif_result_free(&r);
	/* no interrupt left pending for the machine or the next whatif */
	o.cancel = NULL;
	REQUIRE(whatif_run(&f.ss, &w, &o, true, &r) == 0);
	CHECK(!r.interrupted && sim_done(r.a) && sim_done(r.b));
	whatif_result_free(&r);
	/* a Ctrl-C while no whatif ran is not for the next one */
	whatif_interrupt();
	REQUIRE(whatif_run(&f.ss, &w, &o, true, &r) == 0);
	CHECK(!r.interrupted && sim_done(r.b));
	whatif_result_free(&r);
	fx_run(&f, "step 10");
	CHECK_EQ(sim_cycle(f.ss.sim), c + 10);
	fx_fini(&f);
}

/* The two copies count against the snapshot budget: refused, naming it,
 * when they do not fit; run when they do. */
TEST(whatif_two_copies_within_the_snapshot_budget)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	uint64_t one = whatif_copy_bytes(&f.ss);
	REQUIRE(one > 0);
	session_set_snapshot_budget(&f.ss, (size_t)(2 * one - 1));
	CHECK(fx_run(&f, "whatif l2.hit_latency=60 --cycles 100") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "snapshot budget");
	session_set_snapshot_budget(&f.ss, (size_t)(2 * one));
	CHECK_EQ(fx_run(&f, "whatif l2.hit_latency=60 --cycles 100"), CMD_OK);
	fx_fini(&f);
}

/* ---- gpustep diff ------------------------------------------------------- */

static char *stats_file(const char *dir, const char *name, struct sim *s)
{
	char *p = xasprintf("%s/%s", dir, name), *err = NULL;
	struct stats_json_info info = {"teaching", "l2_set_burst", 1};
	REQUIRE(stats_json_write(p, s, &info, &err) == 0);
	return p;
}

/* The ranking is whatif's: the same two runs give the same top stats as the
 * whatif's top_changes (counters; the stats file has ratios too, which the
 * diff compares as well). */
TEST(diff_ranks_as_whatif_and_names_bad_files)
{
	struct fx f;
	fx_init_wl(&f, "l2_set_burst");
	struct sim_cfg cb = f.ss.cfg;
	char *err = NULL;
	REQUIRE(cfg_set_value(&cb, "l2.frc.entries", "8", &err) == 0);
	struct sim *a = sim_new(&f.ss.cfg, &f.ss.wl, &err), *b = sim_new(&cb, &f.ss.wl, &err);
	REQUIRE(a && b);
	sim_step(a, UINT64_MAX);
	sim_step(b, UINT64_MAX);
	char *dir = vt_tmpdir("whatif"), *pa = stats_file(dir, "a.json", a), *pb = stats_file(dir, "b.json", b);
	char *text;
	const char *args[] = {"diff", pa, pb};
	CHECK_EQ(call(diff_main, 3, args, &text), 0);
	CHECK_CONTAINS(text, "l2.nacks");
	char cyc[128];
	snprintf(cyc, sizeof cyc, "cycles: A %llu, B %llu", (unsigned long long)sim_cycle(a),
		 (unsigned long long)sim_cycle(b));
	CHECK_CONTAINS(text, cyc);
	free(text);
	/* ranked: each stat's score at least the next one's */
	cJSON *da = read_json(pa), *db = read_json(pb);
	struct whatif_stat *v;
	uint32_t m, oa, ob;
	REQUIRE(diff_compare(da, db, false, &v, &m, &oa, &ob) == 0);
	REQUIRE(m > 2);
	for (uint32_t i = 0; i + 1 < m; i++)
		CHECK(whatif_stat_rank(&v[i], &v[i + 1]) < 0);
	bool nacks = false;
	for (uint32_t i = 0; i < m && i < WHATIF_TOP; i++)
		nacks |= strcmp(v[i].name, "l2.nacks") == 0;
	CHECK(nacks);
	for (uint32_t i = 0; i < m; i++)
		CHECK(strcmp(v[i].name, "l2.bank0.nacks") != 0);
	CHECK_EQ(oa, 0u);
	CHECK(ob > 0); /* the FRC's own stats, B only */
	free(v);
	cJSON_Delete(da);
	cJSON_Delete(db);
	/* the same file twice: identical */
	const char *same_args[] = {"diff", pa, pa};
	CHECK_EQ(call(diff_main, 3, same_args, &text), 0);
	CHECK_CONTAINS(text, "identical");
	free(text);
	/* bad files: named, exit 2, no crash */
	char *bad = xasprintf("%s/bad.json", dir);
	const char *docs[] = {"{", "[]", "{\"cycles\": 5}", "{\"cycles\": -1, \"stats\": {}}",
			      "{\"cycles\": 1e300, \"stats\": {}}", "{\"cycles\": 2.5, \"stats\": {}}",
			      "{\"cycles\": 3, \"stats\": []}"};
	for (size_t i = 0; i < sizeof docs / sizeof *docs; i++) {
		REQUIRE(write_file_atomic(bad, docs[i], &err) == 0);
		const char *bargs[] = {"diff", pa, bad};
		CHECK_EQ(call(diff_main, 3, bargs, NULL), 2);
		cJSON *doc;
		CHECK(diff_parse_stats(docs[i], strlen(docs[i]), "bad.json", &doc, &err) == -1);
		CHECK_CONTAINS(err, "bad.json");
		free(err);
		err = NULL;
	}
	const char *missing[] = {"diff", pa, "/nonexistent/x.json"};
	CHECK_EQ(call(diff_main, 3, missing, NULL), 2);
	const char *one[] = {"diff", pa};
	CHECK_EQ(call(diff_main, 2, one, NULL), 2);
	free(bad);
	rm_rf(dir);
	free(dir);
	free(pa);
	free(pb);
	sim_free(a);
	sim_free(b);
	fx_fini(&f);
}
