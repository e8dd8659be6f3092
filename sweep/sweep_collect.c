/*
 * sweep_collect.c: a sweep's results into SQLite (libsqlite3) and a wide
 * CSV (`gpustep sweep collect`), and markdown tables (`gpustep sweep table`).
 *
 *   jobs(job, key, status, exit_code, message, config, workload, AXES...,
 *        param.NAME..., seed, cycles)        one row per job of the spec
 *   stats(job, name, value)                  every scalar stat of each result
 *   meta(name, value)                        spec, results folder, version
 *
 * Histograms stay in the per-job JSON. The database is written to a temp
 * file and renamed, so a reader never sees half of it.
 */
#include "sweep_data.h"

#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cJSON.h"
#include "cli/cli.h"
#include "load/loader.h"
#include "export/stats_json.h"
#include "sim/util.h"

#ifndef GPUSTEP_VERSION
#define GPUSTEP_VERSION "0.0.0"
#endif

/* ---- results in memory ------------------------------------------------- */
bool sweep_result_doc_valid(const cJSON *doc)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(doc, "cycles");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(doc, "stats");
	/* cycles is a count: a whole number a run can reach (2^63 cycles is
	 * far beyond any), never 1e300, negative or a fraction */
	return cJSON_IsObject(doc) && cJSON_IsNumber(c) && isfinite(c->valuedouble) && c->valuedouble >= 0 &&
	       c->valuedouble < 9.2e18 && c->valuedouble == floor(c->valuedouble) && cJSON_IsObject(st);
}

bool sweep_result_valid(const char *path)
{
	if (!sweep_file_exists(path))
		return false;
	size_t len;
	char *e = NULL;
	char *text = loader_read_file_max(path, "sweep result", LOADER_TEXT_MAX, &len, &e);
	free(e);
	cJSON *doc = text ? cJSON_ParseWithLength(text, len) : NULL;
	free(text);
	bool ok = sweep_result_doc_valid(doc);
	cJSON_Delete(doc);
	return ok;
}

void sweep_data_load(struct sweep_data *sd, const struct sweep *sw)
{
	memset(sd, 0, sizeof *sd);
	sd->sw = sw;
	sd->res = xcalloc((size_t)sw->njobs, sizeof *sd->res);
	for (int i = 0; i < sw->njobs; i++) {
		struct sweep_res *r = &sd->res[i];
		char *p = sweep_result_path(sw, &sw->jobs[i]), *e = NULL;
		size_t len;
		char *text = sweep_file_exists(p) ? loader_read_file_max(p, "sweep result", LOADER_TEXT_MAX, &len, &e) : NULL;
		free(e);
		r->doc = text ? cJSON_ParseWithLength(text, len) : NULL;
		if (text && !r->doc)
			fprintf(stderr, "gpustep sweep: %s: not valid JSON (ignored)\n", p);
		if (r->doc && !sweep_result_doc_valid(r->doc)) {
			fprintf(stderr, "gpustep sweep: %s: not a gpustep stats result (no whole, finite \"cycles\" or no "
					"\"stats\"; ignored, the job runs again)\n",
				p);
			cJSON_Delete(r->doc);
			r->doc = NULL;
		}
		free(text);
		free(p);
		if (r->doc) {
			r->status = "done";
			sd->ndone++;
			continue;
		}
		p = sweep_fail_path(sw, &sw->jobs[i]);
		text = sweep_file_exists(p) ? loader_read_file_max(p, "sweep result", LOADER_TEXT_MAX, &len, &e) : NULL;
		free(e);
		cJSON *f = text ? cJSON_ParseWithLength(text, len) : NULL;
		free(text);
		free(p);
		if (f) {
			r->status = "failed";
			sd->nfailed++;
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(f, "exit");
			const cJSON *m = cJSON_GetObjectItemCaseSensitive(f, "message");
			r->exit_code = cJSON_IsNumber(x) ? x->valueint : -1;
			r->message = xstrdup(cJSON_IsString(m) ? m->valuestring : "");
			cJSON_Delete(f);
		} else {
			r->status = "missing";
			sd->nmissing++;
		}
	}
}

void sweep_data_free(struct sweep_data *sd)
{
	for (int i = 0; i < sd->sw->njobs; i++) {
		cJSON_Delete(sd->res[i].doc);
		free(sd->res[i].message);
	}
	free(sd->res);
}

bool sweep_data_value(const struct sweep_data *sd, int job, const char *stat, double *v)
{
	const cJSON *doc = sd->res[job].doc;
	if (!doc)
		return false;
	const cJSON *x = strcmp(stat, "cycles") == 0 ? cJSON_GetObjectItemCaseSensitive(doc, "cycles")
						       : cJSON_GetObjectItemCaseSensitive(
							       cJSON_GetObjectItemCaseSensitive(doc, "stats"), stat);
	if (!cJSON_IsNumber(x))
		return false;
	*v = x->valuedouble;
	return true;
}

/* "teaching" for a preset, "my" for /path/my.json. Caller frees. */
char *sweep_display(const struct sweep *sw, const struct sweep_job *j, int d)
{
	const char *v = sweep_val(sw, j, d);
	if (d >= 2)
		return xstrdup(v);
	const char *b = strrchr(v, '/');
	b = b ? b + 1 : v;
	size_t n = strlen(b);
	if (n > 5 && strcmp(b + n - 5, ".json") == 0)
		n -= 5;
	return xasprintf("%.*s", (int)n, b);
}

bool sweep_is_number(const char *s, double *v)
{
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (!*s || *end || errno)
		return false;
	if (v)
		*v = d;
	return true;
}

/* ---- SQLite --------------------------------------------------------------- */
static int exec_sql(sqlite3 *db, const char *sql, char **err)
{
	char *m = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &m) != SQLITE_OK) {
		set_err(err, "sqlite: %s (in: %.80s)", m ? m : "error", sql);
		sqlite3_free(m);
		return -1;
	}
	return 0;
}

static void bind_dim(sqlite3_stmt *st, int col, const char *text)
{
	double d;
	if (sweep_is_number(text, &d) && d == floor(d) && fabs(d) < 9e15)
		sqlite3_bind_int64(st, col, (sqlite3_int64)d);
	else if (sweep_is_number(text, &d))
		sqlite3_bind_double(st, col, d);
	else
		sqlite3_bind_text(st, col, text, -1, SQLITE_TRANSIENT);
}

static char *quote_ident(const char *s)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "\"");
	for (; *s; s++)
		sb_printf(&sb, *s == '"' ? "\"\"" : "%c", *s);
	sb_puts(&sb, "\"");
	return sb.s;
}

static int write_db(const struct sweep_data *sd, const char *path, const char *globs, char **err)
{
	const struct sweep *sw = sd->sw;
	/* SQLite writes the output writer's temporary (unpredictable, never a
	 * planted symlink), renamed over path at the end */
	struct outfile *of = outfile_open(path, err);
	if (!of)
		return -1;
	if (!outfile_temp(of)) {
		outfile_discard(of);
		return set_err(err, "%s: a database must be a regular file (not a device or FIFO)", path);
	}
	const char *tmp = outfile_temp(of);
	sqlite3 *db = NULL;
	int rc = -1;
	sqlite3_stmt *ins_job = NULL, *ins_stat = NULL;
	struct strbuf sql, q;
	sb_init(&sql);
	sb_init(&q);
	if (sqlite3_open(tmp, &db) != SQLITE_OK) {
		set_err(err, "%s: %s", tmp, db ? sqlite3_errmsg(db) : "cannot open");
		goto out;
	}
	sb_puts(&sql, "CREATE TABLE jobs(job INTEGER PRIMARY KEY, key TEXT UNIQUE, status TEXT, exit_code INTEGER, "
		      "message TEXT");
	sb_puts(&q, "INSERT INTO jobs VALUES(?,?,?,?,?");
	for (int d = 0; d < sw->ndims; d++) {
		char *id = quote_ident(sw->dims[d].name);
		sb_printf(&sql, ", %s", id);
		sb_puts(&q, ",?");
		free(id);
	}
	sb_puts(&sql, ", cycles INTEGER);"
		      "CREATE TABLE stats(job INTEGER REFERENCES jobs(job), name TEXT, value REAL, PRIMARY KEY(job, name));"
		      "CREATE TABLE meta(name TEXT PRIMARY KEY, value TEXT);");
	sb_puts(&q, ",?)");
	if (exec_sql(db, "BEGIN", err) || exec_sql(db, sql.s, err))
		goto out;
	if (sqlite3_prepare_v2(db, q.s, -1, &ins_job, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO stats VALUES(?,?,?)", -1, &ins_stat, NULL) != SQLITE_OK) {
		set_err(err, "sqlite: %s", sqlite3_errmsg(db));
		goto out;
	}
	for (int i = 0; i < sw->njobs; i++) {
		const struct sweep_job *j = &sw->jobs[i];
		const struct sweep_res *r = &sd->res[i];
		sqlite3_reset(ins_job);
		sqlite3_bind_int(ins_job, 1, i);
		sqlite3_bind_text(ins_job, 2, j->key, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_job, 3, r->status, -1, SQLITE_STATIC);
		if (r->message) {
			sqlite3_bind_int(ins_job, 4, r->exit_code);
			sqlite3_bind_text(ins_job, 5, r->message, -1, SQLITE_STATIC);
		} else {
			sqlite3_bind_null(ins_job, 4);
			sqlite3_bind_null(ins_job, 5);
		}
		for (int d = 0; d < sw->ndims; d++) {
			char *v = sweep_display(sw, j, d);
			bind_dim(ins_job, 6 + d, v);
			free(v);
		}
		double cyc;
		if (sweep_data_value(sd, i, "cycles", &cyc))
			sqlite3_bind_int64(ins_job, 6 + sw->ndims, (sqlite3_int64)cyc);
		else
			sqlite3_bind_null(ins_job, 6 + sw->ndims);
		if (sqlite3_step(ins_job) != SQLITE_DONE) {
			set_err(err, "sqlite: %s", sqlite3_errmsg(db));
			goto out;
		}
		const cJSON *st = r->doc ? cJSON_GetObjectItemCaseSensitive(r->doc, "stats") : NULL, *s;
		cJSON_ArrayForEach(s, st)
		{
			if (!cJSON_IsNumber(s) || !sweep_glob_list_match(globs, s->string))
				continue;
			sqlite3_reset(ins_stat);
			sqlite3_bind_int(ins_stat, 1, i);
			sqlite3_bind_text(ins_stat, 2, s->string, -1, SQLITE_STATIC);
			sqlite3_bind_double(ins_stat, 3, s->valuedouble);
			if (sqlite3_step(ins_stat) != SQLITE_DONE) {
				set_err(err, "sqlite: %s", sqlite3_errmsg(db));
				goto out;
			}
		}
	}
	char *meta = sqlite3_mprintf("INSERT INTO meta VALUES('spec', %Q), ('results', %Q), ('gpustep', %Q);",
				     sw->spec_path, sw->out, GPUSTEP_VERSION);
	int m = exec_sql(db, meta, err);
	sqlite3_free(meta);
	if (m || exec_sql(db, "COMMIT", err))
		goto out;
	rc = 0;
out:
	sqlite3_finalize(ins_job);
	sqlite3_finalize(ins_stat);
	if (db && sqlite3_close(db) != SQLITE_OK && !rc)
		rc = set_err(err, "%s: cannot close", tmp);
	if (rc)
		outfile_discard(of);
	else
		rc = outfile_close(of, err);
	sb_fini(&sql);
	sb_fini(&q);
	return rc;
}

/* ---- CSV ------------------------------------------------------------------ */
static void csv_field(struct strbuf *sb, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		sb_puts(sb, s);
		return;
	}
	sb_puts(sb, "\"");
	for (; *s; s++)
		sb_printf(sb, *s == '"' ? "\"\"" : "%c", *s);
	sb_puts(sb, "\"");
}

static void csv_num(struct strbuf *sb, double v)
{
	if (v == floor(v) && fabs(v) < 9e15)
		sb_printf(sb, "%.0f", v);
	else
		sb_printf(sb, "%.17g", v);
}

/* Scalar stat names in order of first appearance, filtered by globs. */
static char **stat_names(const struct sweep_data *sd, const char *globs, int *n)
{
	char **names = NULL;
	int cnt = 0, cap = 0;
	for (int i = 0; i < sd->sw->njobs; i++) {
		const cJSON *st = sd->res[i].doc ? cJSON_GetObjectItemCaseSensitive(sd->res[i].doc, "stats") : NULL, *s;
		cJSON_ArrayForEach(s, st)
		{
			if (!cJSON_IsNumber(s) || !sweep_glob_list_match(globs, s->string))
				continue;
			bool seen = false;
			for (int k = cnt - 1; k >= 0 && !seen; k--)
				seen = strcmp(names[k], s->string) == 0;
			if (seen)
				continue;
			if (cnt == cap)
				names = xrealloc(names, sizeof(char *) * (size_t)(cap = cap ? 2 * cap : 256));
			names[cnt++] = s->string;
		}
	}
	*n = cnt;
	return names;
}

static int write_csv(const struct sweep_data *sd, const char *path, const char *globs, char **err)
{
	const struct sweep *sw = sd->sw;
	int ns;
	char **names = stat_names(sd, globs, &ns);
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "job,key,status");
	for (int d = 0; d < sw->ndims; d++) {
		sb_puts(&sb, ",");
		csv_field(&sb, sw->dims[d].name);
	}
	sb_puts(&sb, ",cycles");
	for (int k = 0; k < ns; k++) {
		sb_puts(&sb, ",");
		csv_field(&sb, names[k]);
	}
	sb_puts(&sb, "\n");
	for (int i = 0; i < sw->njobs; i++) {
		sb_printf(&sb, "%d,%s,%s", i, sw->jobs[i].key, sd->res[i].status);
		for (int d = 0; d < sw->ndims; d++) {
			char *v = sweep_display(sw, &sw->jobs[i], d);
			sb_puts(&sb, ",");
			csv_field(&sb, v);
			free(v);
		}
		double v;
		sb_puts(&sb, ",");
		if (sweep_data_value(sd, i, "cycles", &v))
			csv_num(&sb, v);
		for (int k = 0; k < ns; k++) {
			sb_puts(&sb, ",");
			if (sweep_data_value(sd, i, names[k], &v))
				csv_num(&sb, v);
		}
		sb_puts(&sb, "\n");
	}
	int rc = write_file_atomic(path, sb.s, err);
	sb_fini(&sb);
	free(names);
	return rc;
}

int sweep_collect(struct sweep *sw, const struct sweep_opts *o)
{
	if (o->x || o->y || o->by || o->o || o->rows || o->cols || o->fmt || o->agg || o->md || o->base || o->log) {
		fprintf(stderr, "gpustep sweep collect: takes --db FILE, --csv FILE, --stats GLOB,... and --out DIR\n");
		return EXIT_USAGE;
	}
	struct sweep_data sd;
	sweep_data_load(&sd, sw);
	char *def_db = o->db ? NULL : xasprintf("%s/results.db", sw->out);
	const char *db = o->db ? o->db : def_db;
	char *err = NULL;
	int rc = EXIT_OK;
	if (db && write_db(&sd, db, o->stats, &err))
		rc = EXIT_RUNTIME;
	if (!rc && o->csv && write_csv(&sd, o->csv, o->stats, &err))
		rc = EXIT_RUNTIME;
	if (rc) {
		fprintf(stderr, "gpustep sweep collect: %s\n", err);
		free(err);
	} else {
		fprintf(stderr, "gpustep sweep collect: %d jobs: %d done, %d failed, %d not run", sw->njobs, sd.ndone,
			sd.nfailed, sd.nmissing);
		if (db)
			fprintf(stderr, "; SQLite %s", db);
		if (o->csv && strcmp(o->csv, "-"))
			fprintf(stderr, "; CSV %s", o->csv);
		fprintf(stderr, "\n");
	}
	free(def_db);
	sweep_data_free(&sd);
	return rc;
}
