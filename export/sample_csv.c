/*
 * sample_csv.c: stats every N cycles as CSV (--sample N --csv FILE
 * [--sample-stats GLOB,...]), the run loop that serves the exports, and
 * `save trace` (export.h, docs/EXPORTS.md).
 *
 *   cycle,STAT,STAT,...      one row at cycles N, 2N, ... and at the end of
 *                            the run (a shorter last interval)
 *
 * Per interval: counters as deltas; occupancies as the mean level over the
 * interval (time integral delta / cycles); ratios of two counters (IPC, hit
 * rates) as the ratio of their deltas; other ratios as their value at the
 * row's cycle. Histograms are left out (they are in --stats).
 *
 * Rows stream to the file as they are made (load/outfile.h: a temporary
 * renamed over FILE at the end), so memory stays flat however long the run;
 * the first failed write (disk full, a closed pipe) stops the rows and is
 * reported, with the cycle it happened at, when the run ends.
 */
#include "export.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats_json.h"

struct sampler {
	char *path;
	uint64_t every, last_cycle;
	uint32_t *ids;
	uint32_t n;
	uint64_t *prev;  /* counters: value; occupancies: integral at last row */
	struct outfile *of;
	FILE *out;       /* outfile_stream(of) */
	uint64_t rows;
	int werr;        /* errno of the first failed write, 0 = none */
	uint64_t werr_cycle;
};

bool sweep_glob_list_match(const char *globs, const char *name); /* sweep_run.c */

static bool counter_ratio(const struct stats *st, const struct stat_def *d)
{
	return d->kind == STAT_RATIO && stats_def(st, d->num)->kind == STAT_COUNTER &&
	       stats_def(st, d->den)->kind == STAT_COUNTER;
}

/* The integral of an occupancy stat up to now. */
static uint64_t occ_integral(const struct stats *st, uint32_t id)
{
	const struct stat_occ *o = stats_occ(st, id);
	return o ? o->integral : 0;
}

static uint64_t base_value(const struct stats *st, uint32_t id)
{
	const struct stat_def *d = stats_def(st, id);
	return d->kind == STAT_COUNTER ? stats_counter_value(st, id) : d->kind == STAT_OCC ? occ_integral(st, id) : 0;
}

struct sampler *sampler_open(struct session *ss, const char *csv, uint64_t every, const char *globs, char **err)
{
	if (!every) {
		set_err(err, "--sample: the interval must be at least 1 cycle");
		return NULL;
	}
	const struct stats *st = sim_stats_c(ss->sim);
	struct sampler *sp = xcalloc(1, sizeof *sp);
	sp->path = xstrdup(csv);
	sp->every = every;
	sp->last_cycle = sim_cycle(ss->sim);
	sp->ids = xmalloc(sizeof(uint32_t) * (stats_count(st) + 1));
	for (uint32_t i = 0; i < stats_count(st); i++)
		if (stats_def(st, i)->kind != STAT_HIST && sweep_glob_list_match(globs, stats_def(st, i)->name))
			sp->ids[sp->n++] = i;
	if (!sp->n) {
		set_err(err, "--sample-stats %s: matches no stat (gpustep --list-stats)", globs ? globs : "");
		free(sp->ids);
		free(sp->path);
		free(sp);
		return NULL;
	}
	sp->of = outfile_open(csv, err);
	if (!sp->of) {
		free(sp->ids);
		free(sp->path);
		free(sp);
		return NULL;
	}
	sp->out = outfile_stream(sp->of);
	sp->prev = xcalloc(stats_count(st) + 1, sizeof(uint64_t));
	for (uint32_t i = 0; i < stats_count(st); i++)
		sp->prev[i] = base_value(st, i);
	fputs("cycle", sp->out);
	for (uint32_t k = 0; k < sp->n; k++)
		fprintf(sp->out, ",%s", stats_def(st, sp->ids[k])->name);
	fputc('\n', sp->out);
	return sp;
}

static uint64_t sampler_budget(const struct sampler *sp, uint64_t now)
{
	uint64_t next = (now / sp->every + 1) * sp->every;
	return next - now;
}

static void num(FILE *f, double v)
{
	if (!isfinite(v))
		v = 0;
	if (v == floor(v) && fabs(v) < 9e15)
		fprintf(f, ",%.0f", v);
	else
		fprintf(f, ",%.6g", v);
}

static void row(struct sampler *sp, const struct stats *st, uint64_t now)
{
	uint64_t dt = now - sp->last_cycle;
	if (sp->werr) { /* the file is lost already: keep the run, stop the rows */
		sp->last_cycle = now;
		return;
	}
	fprintf(sp->out, "%" PRIu64, now);
	for (uint32_t k = 0; k < sp->n; k++) {
		uint32_t id = sp->ids[k];
		const struct stat_def *d = stats_def(st, id);
		if (d->kind == STAT_COUNTER) {
			num(sp->out, (double)(stats_counter_value(st, id) - sp->prev[id]));
		} else if (d->kind == STAT_OCC) {
			num(sp->out, dt ? (double)(occ_integral(st, id) - sp->prev[id]) / (double)dt : 0.0);
		} else if (counter_ratio(st, d)) {
			uint64_t dn = stats_counter_value(st, d->num) - sp->prev[d->num];
			uint64_t dd = stats_counter_value(st, d->den) - sp->prev[d->den];
			num(sp->out, dd ? (double)dn / (double)dd * d->scale : 0.0);
		} else {
			num(sp->out, stats_value(st, id));
		}
	}
	fputc('\n', sp->out);
	if (outfile_failed(sp->of)) {
		sp->werr = errno ? errno : EIO;
		sp->werr_cycle = now;
	}
	for (uint32_t i = 0; i < stats_count(st); i++)
		sp->prev[i] = base_value(st, i);
	sp->last_cycle = now;
	sp->rows++;
}

static void sampler_observe(struct sampler *sp, struct session *ss)
{
	uint64_t now = sim_cycle(ss->sim);
	if (now > sp->last_cycle && now % sp->every == 0)
		row(sp, sim_stats_c(ss->sim), now);
}

int sampler_close(struct sampler *sp, struct session *ss, char **err)
{
	uint64_t now = sim_cycle(ss->sim);
	if (now > sp->last_cycle)
		row(sp, sim_stats_c(ss->sim), now);
	int rc;
	if (sp->werr) {
		rc = set_err(err, "--csv %s: writing failed at the row of cycle %" PRIu64 ": %s; the file was not "
				  "written",
			     sp->path, sp->werr_cycle, strerror(sp->werr));
		outfile_discard(sp->of);
	} else {
		rc = outfile_close(sp->of, err);
	}
	free(sp->prev);
	free(sp->ids);
	free(sp->path);
	free(sp);
	return rc;
}

void export_run_all(struct session *ss, struct trace_exp *t, struct sampler *sp)
{
	for (;;) {
		uint64_t now = sim_cycle(ss->sim), budget = 1u << 20;
		if (t)
			budget = MIN(budget, trace_exp_budget(t, now));
		if (sp)
			budget = MIN(budget, sampler_budget(sp, now));
		bool more = session_run_slice(ss, budget);
		if (t)
			trace_exp_observe(t, ss);
		if (sp)
			sampler_observe(sp, ss);
		if (!more)
			break;
	}
}

/* `save trace FILE [FROM TO]` at the prompt: a fresh simulator of the same
 * config, workload and seed is run to TO (default: the current cycle)
 * recording [FROM, TO); the session itself is not touched. */
static int export_save_trace(struct session *ss, const char *path, uint64_t from, uint64_t to, struct strbuf *msg,
		      char **err)
{
	if (ss->dreqs)
		return set_err(err, "save trace: a DRAM-trace session has no cores or caches to trace");
	if (to == UINT64_MAX)
		to = sim_cycle(ss->sim);
	if (to == 0)
		return set_err(err, "save trace: nothing has run yet; run first or give FROM TO");
	if (from >= to)
		return set_err(err, "save trace: FROM (%" PRIu64 ") must be before TO (%" PRIu64 ")", from, to);
	/* A second machine from the same inputs replays the window (determinism):
	 * the user's session, its breakpoints and its log stay as they are. */
	struct session *tmp = xcalloc(1, sizeof *tmp);
	int rc = session_init(tmp, &ss->cfg, ss->cfg_source, ss->workload_spec, ss->seed, err);
	if (!rc && !ss->traces)
		rc = session_set_kernel_src(tmp, &ss->ksrc, err);
	if (rc) {
		free(tmp);
		return -1;
	}
	session_set_snapshot_budget(tmp, 0);
	struct trace_opts o = {from, to, 0};
	struct trace_exp *t = trace_exp_open(tmp, path, &o, err);
	if (!t) {
		rc = -1;
	} else {
		session_start_run(tmp, RUN_CYCLES, to);
		export_run_all(tmp, t, NULL);
		if (sim_cycle(tmp->sim) < to)
			sb_printf(msg, "save trace: the kernel ends at cycle %" PRIu64 "\n", sim_cycle(tmp->sim));
		rc = trace_exp_close(t, tmp, msg, err);
	}
	session_fini(tmp);
	free(tmp);
	return rc;
}

#include "tui/cmd_int.h"

CMD_FN(cmd_save_trace)
{
	uint64_t from = 0, to = UINT64_MAX;
	if ((argc != 3 && argc != 5) ||
	    (argc == 5 && (cmd_parse_u64(argv[3], &from) || cmd_parse_u64(argv[4], &to))))
		return cmd_usage(out, "save");
	struct strbuf msg;
	sb_init(&msg);
	char *err = NULL;
	int rc = export_save_trace(ss, argv[2], from, to, &msg, &err);
	if (rc) {
		cmd_errorf(out, "%s", err);
		free(err);
	} else {
		cmd_print_block(out, msg.s);
	}
	sb_fini(&msg);
	return rc ? CMD_ERR : CMD_OK;
}
