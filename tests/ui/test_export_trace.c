/*
 * test_export_trace.c: the Perfetto/Chrome trace export (export_trace.c) and
 * the stats CSV sampler (sample_csv.c) on a machine with an FRC and MOESI
 * coherence. The trace is validated as a trace viewer reads it: every event
 * well-formed, complete slices nested per thread, async begin/end paired,
 * flows paired and bound to a slice, times inside the window; and its
 * contents are checked against the run's stats (one L1 MSHR slice per L1
 * miss, one ACT per activate).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cJSON.h"
#include "export/export.h"
#include "load/loader.h"
#include "sesstest.h"
#include "test.h"

static void frc_moesi_session(struct session *ss, const char *wl)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	REQUIRE(loader_apply_override(&c, "l2.frc.entries=8", &err) == 0);
	REQUIRE(loader_apply_override(&c, "coherence.protocol=moesi", &err) == 0);
	REQUIRE(cfg_validate(&c, &err) == 0);
	int rc = session_init(ss, &c, "", wl, 1, &err);
	if (rc)
		test_fail(__FILE__, __LINE__, "session_init: %s", err);
	REQUIRE(rc == 0);
	session_set_snapshot_budget(ss, 0);
}

static char *tmp_path(const char *tag)
{
	const char *d = getenv("TMPDIR");
	return xasprintf("%s/gpustep-trace-%s-%ld.json", d && *d ? d : "/tmp", tag, (long)getpid());
}

static uint64_t stat_u(struct session *ss, const char *name)
{
	int id = stats_find(sim_stats_c(ss->sim), name);
	return id < 0 ? UINT64_MAX : stats_counter_value(sim_stats_c(ss->sim), (uint32_t)id);
}

struct xs {
	int pid, tid;
	double ts, dur;
};

static int xs_cmp(const void *a, const void *b)
{
	const struct xs *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur ? 1 : 0; /* parent first */
}

struct counts {
	int x, b, s, c, rows, frc, l1mshr, l2mshr, act;
	double tmin, tmax;
};

/* Returns NULL when valid, else a message (static). */
static const char *validate(const cJSON *root, struct counts *n)
{
	static char msg[256];
	memset(n, 0, sizeof *n);
	n->tmin = INFINITY;
	n->tmax = -INFINITY;
	const cJSON *evs = cJSON_GetObjectItemCaseSensitive(root, "traceEvents");
	if (!cJSON_IsArray(evs))
		return "no traceEvents array";
	int total = cJSON_GetArraySize(evs);
	struct xs *xs = xcalloc((size_t)total + 1, sizeof *xs);
	struct xs *fl = xcalloc((size_t)total + 1, sizeof *fl); /* flow ends: must sit inside a slice */
	int nfl = 0;
	cJSON *open = cJSON_CreateObject(); /* async "cat/id" -> begin ts; flows "f/id" -> ts */
	const cJSON *e;
	int i = 0;
	cJSON_ArrayForEach(e, evs)
	{
		i++;
		const cJSON *ph = cJSON_GetObjectItemCaseSensitive(e, "ph"), *name = cJSON_GetObjectItemCaseSensitive(e, "name");
		const cJSON *pid = cJSON_GetObjectItemCaseSensitive(e, "pid"), *tid = cJSON_GetObjectItemCaseSensitive(e, "tid");
		const cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
		if (!cJSON_IsString(ph) || strlen(ph->valuestring) != 1 || !cJSON_IsString(name) || !cJSON_IsNumber(pid) ||
		    !cJSON_IsNumber(tid)) {
			snprintf(msg, sizeof msg, "event %d: ph, name, pid, tid missing", i);
			goto bad;
		}
		char p = ph->valuestring[0];
		if (p == 'M')
			continue;
		if (!cJSON_IsNumber(ts) || ts->valuedouble < 0) {
			snprintf(msg, sizeof msg, "event %d (%s): no ts", i, name->valuestring);
			goto bad;
		}
		n->tmin = fmin(n->tmin, ts->valuedouble);
		n->tmax = fmax(n->tmax, ts->valuedouble);
		char key[96];
		if (p == 'X') {
			const cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
			if (!cJSON_IsNumber(dur) || dur->valuedouble < 0) {
				snprintf(msg, sizeof msg, "event %d: X without dur", i);
				goto bad;
			}
			xs[n->x++] = (struct xs){pid->valueint, tid->valueint, ts->valuedouble, dur->valuedouble};
			n->tmax = fmax(n->tmax, ts->valuedouble + dur->valuedouble);
			n->rows += strncmp(name->valuestring, "row ", 4) == 0;
			n->frc += strcmp(name->valuestring, "fetching") == 0;
			n->act += strcmp(name->valuestring, "ACT") == 0;
		} else if (p == 'b' || p == 'e') {
			const cJSON *cat = cJSON_GetObjectItemCaseSensitive(e, "cat"), *id = cJSON_GetObjectItemCaseSensitive(e, "id");
			if (!cJSON_IsString(cat) || !cJSON_IsString(id)) {
				snprintf(msg, sizeof msg, "event %d: async without cat/id", i);
				goto bad;
			}
			snprintf(key, sizeof key, "%s/%s/%d", cat->valuestring, id->valuestring, pid->valueint);
			cJSON *b = cJSON_GetObjectItemCaseSensitive(open, key);
			if (p == 'b') {
				if (b) {
					snprintf(msg, sizeof msg, "async %s begun twice", key);
					goto bad;
				}
				cJSON_AddNumberToObject(open, key, ts->valuedouble);
				n->b++;
				n->l1mshr += strcmp(cat->valuestring, "l1.mshr") == 0;
				n->l2mshr += strcmp(cat->valuestring, "l2.mshr") == 0;
			} else {
				if (!b || b->valuedouble > ts->valuedouble) {
					snprintf(msg, sizeof msg, "async end %s without an earlier begin", key);
					goto bad;
				}
				cJSON_DeleteItemFromObjectCaseSensitive(open, key);
			}
		} else if (p == 's' || p == 'f') {
			const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "id");
			if (!cJSON_IsNumber(id)) {
				snprintf(msg, sizeof msg, "event %d: flow without id", i);
				goto bad;
			}
			snprintf(key, sizeof key, "flow/%.0f", id->valuedouble);
			fl[nfl++] = (struct xs){pid->valueint, tid->valueint, ts->valuedouble, 0};
			cJSON *s = cJSON_GetObjectItemCaseSensitive(open, key);
			if (p == 's') {
				if (s) {
					snprintf(msg, sizeof msg, "%s started twice", key);
					goto bad;
				}
				cJSON_AddNumberToObject(open, key, ts->valuedouble);
				n->s++;
			} else {
				const cJSON *bp = cJSON_GetObjectItemCaseSensitive(e, "bp");
				if (!s || s->valuedouble > ts->valuedouble || !cJSON_IsString(bp) || strcmp(bp->valuestring, "e")) {
					snprintf(msg, sizeof msg, "%s ends without a start (or bp != e)", key);
					goto bad;
				}
				cJSON_DeleteItemFromObjectCaseSensitive(open, key);
			}
		} else if (p == 'C') {
			const cJSON *args = cJSON_GetObjectItemCaseSensitive(e, "args");
			if (!cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(args, "value"))) {
				snprintf(msg, sizeof msg, "event %d: counter without a value", i);
				goto bad;
			}
			n->c++;
		} else {
			snprintf(msg, sizeof msg, "event %d: unexpected ph '%c'", i, p);
			goto bad;
		}
	}
	if (cJSON_GetArraySize(open)) {
		snprintf(msg, sizeof msg, "%d async slices or flows never ended (first %s)", cJSON_GetArraySize(open),
			 open->child->string);
		goto bad;
	}
	/* complete slices nest per thread */
	qsort(xs, (size_t)n->x, sizeof *xs, xs_cmp);
	int depth = 0;
	double stack[64];
	for (int k = 0; k < n->x; k++) {
		if (k && (xs[k].pid != xs[k - 1].pid || xs[k].tid != xs[k - 1].tid))
			depth = 0;
		while (depth && xs[k].ts >= stack[depth - 1] - 1e-9)
			depth--;
		double end = xs[k].ts + xs[k].dur;
		if (depth && end > stack[depth - 1] + 1e-9) {
			snprintf(msg, sizeof msg, "pid %d tid %d: slice at %.2f..%.2f overlaps its parent ending %.2f",
				 xs[k].pid, xs[k].tid, xs[k].ts, end, stack[depth - 1]);
			goto bad;
		}
		if (depth == 64) {
			snprintf(msg, sizeof msg, "slices nested too deep");
			goto bad;
		}
		stack[depth++] = end;
	}
	/* every flow end binds to the slice enclosing it on its thread */
	for (int k = 0; k < nfl; k++) {
		bool bound = false;
		for (int x = 0; x < n->x && !bound; x++)
			bound = xs[x].pid == fl[k].pid && xs[x].tid == fl[k].tid && xs[x].ts <= fl[k].ts &&
				fl[k].ts < xs[x].ts + xs[x].dur;
		if (!bound) {
			snprintf(msg, sizeof msg, "flow at %.2f (pid %d tid %d) has no enclosing slice", fl[k].ts, fl[k].pid,
				 fl[k].tid);
			goto bad;
		}
	}
	free(xs);
	free(fl);
	cJSON_Delete(open);
	return NULL;
bad:
	free(xs);
	free(fl);
	cJSON_Delete(open);
	return msg;
}

static cJSON *read_json(const char *path)
{
	size_t len;
	char *err = NULL;
	char *text = loader_read_file(path, &len, &err);
	free(err);
	cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
	free(text);
	return j;
}

static cJSON *trace_run(const char *tag, uint64_t from, uint64_t to, uint64_t cap, struct session *ss, char **path)
{
	frc_moesi_session(ss, "vecadd");
	*path = tmp_path(tag);
	char *err = NULL;
	struct trace_opts o = {from, to, cap};
	struct trace_exp *t = trace_exp_open(ss, *path, &o, &err);
	if (!t)
		test_fail(__FILE__, __LINE__, "trace_exp_open: %s", err);
	REQUIRE(t != NULL);
	session_start_run(ss, RUN_FOREVER, 0);
	export_run_all(ss, t, NULL);
	struct strbuf msg;
	sb_init(&msg);
	REQUIRE(trace_exp_close(t, ss, &msg, &err) == 0);
	if (cap)
		CHECK_CONTAINS(msg.s, "cap of");
	sb_fini(&msg);
	cJSON *j = read_json(*path);
	REQUIRE(j != NULL);
	return j;
}

TEST(trace_export_frc_coherence_well_formed)
{
	struct session ss;
	char *path;
	cJSON *j = trace_run("all", 0, UINT64_MAX, 0, &ss, &path);
	struct counts n;
	const char *bad = validate(j, &n);
	if (bad)
		test_fail(__FILE__, __LINE__, "%s", bad);
	CHECK(bad == NULL);
	/* contents follow the run's stats */
	CHECK_EQ(n.l1mshr, (long long)stat_u(&ss, "l1.misses"));
	CHECK_EQ(n.act, (long long)stat_u(&ss, "dram.activates"));
	CHECK(n.l2mshr > 0);
	CHECK(n.rows > 0);
	CHECK(n.frc > 0);        /* FRC entries fetched */
	CHECK(n.s > 0);          /* coherence transactions */
	CHECK(n.c > 0);
	CHECK(n.tmax <= (double)sim_cycle(ss.sim) + 1e-9);
	const cJSON *od = cJSON_GetObjectItemCaseSensitive(j, "otherData");
	CHECK(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(od, "capped")));
	CHECK_EQ((long long)cJSON_GetObjectItemCaseSensitive(od, "events_lost")->valuedouble, 0);
	cJSON_Delete(j);
	unlink(path);
	free(path);
	session_fini(&ss);
}

TEST(trace_export_window_and_cap)
{
	struct session ss;
	char *path;
	cJSON *j = trace_run("win", 2000, 2600, 0, &ss, &path);
	struct counts n;
	const char *bad = validate(j, &n);
	if (bad)
		test_fail(__FILE__, __LINE__, "%s", bad);
	CHECK(bad == NULL);
	CHECK(n.tmin >= 2000);
	CHECK(n.tmax <= 2600 + 1e-9);
	CHECK(n.x > 0);
	cJSON_Delete(j);
	unlink(path);
	free(path);
	session_fini(&ss);

	j = trace_run("cap", 0, UINT64_MAX, 600, &ss, &path);
	bad = validate(j, &n);
	if (bad)
		test_fail(__FILE__, __LINE__, "%s", bad);
	CHECK(bad == NULL);
	const cJSON *od = cJSON_GetObjectItemCaseSensitive(j, "otherData");
	CHECK(cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(od, "capped")));
	int total = cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(j, "traceEvents"));
	/* the cap, plus the ends of what was open when it was reached */
	CHECK(total >= 600);
	CHECK(total < 600 + 400);
	CHECK(n.tmax < (double)sim_cycle(ss.sim));
	cJSON_Delete(j);
	unlink(path);
	free(path);
	session_fini(&ss);
}

TEST(trace_export_bad_window)
{
	struct session ss;
	frc_moesi_session(&ss, "vecadd");
	char *err = NULL, *path = tmp_path("bad");
	struct trace_opts o = {100, 50, 0};
	CHECK(trace_exp_open(&ss, path, &o, &err) == NULL);
	CHECK_CONTAINS(err, "must be before");
	free(err);
	err = NULL;
	sim_step(ss.sim, 200);
	o = (struct trace_opts){100, 300, 0};
	CHECK(trace_exp_open(&ss, path, &o, &err) == NULL);
	CHECK_CONTAINS(err, "machine is at cycle 200");
	free(err);
	CHECK(access(path, F_OK) != 0);
	free(path);
	session_fini(&ss);
}

TEST(sample_csv_rows_sum_to_totals)
{
	struct session ss;
	frc_moesi_session(&ss, "vecadd");
	char *err = NULL, *path = tmp_path("csv");
	struct sampler *sp = sampler_open(&ss, path, 250, "sim.warp_insts,l1.mshr_occ*,sim.ipc", &err);
	REQUIRE(sp != NULL);
	session_start_run(&ss, RUN_FOREVER, 0);
	export_run_all(&ss, NULL, sp);
	REQUIRE(sampler_close(sp, &ss, &err) == 0);
	size_t len;
	char *text = loader_read_file(path, &len, &err);
	REQUIRE(text != NULL);
	CHECK(strncmp(text, "cycle,sim.warp_insts,", 21) == 0);
	/* rows every 250 cycles, the last at the end; deltas add up to the total */
	uint64_t cycles = sim_cycle(ss.sim), rows = 0, sum = 0, last = 0;
	bool spaced = true;
	for (char *l = strchr(text, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
		unsigned long long cyc, insts;
		REQUIRE(sscanf(l, "%llu,%llu", &cyc, &insts) == 2);
		spaced &= cyc == last + 250 || cyc == cycles;
		last = cyc;
		sum += insts;
		rows++;
	}
	CHECK(spaced);
	CHECK_EQ(last, cycles);
	CHECK_EQ(rows, (cycles + 249) / 250);
	CHECK_EQ(sum, stat_u(&ss, "sim.warp_insts"));
	free(text);
	unlink(path);
	CHECK(sampler_open(&ss, path, 10, "no.such.stat*", &err) == NULL);
	CHECK_CONTAINS(err, "matches no stat");
	free(err);
	free(path);
	session_fini(&ss);
}
