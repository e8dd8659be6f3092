/*
 * sweep_spec.c: a sweep spec (JSON) into jobs (sweep.h, docs/SWEEPS.md).
 *
 *   {"configs": [...], "workloads": [...], "axes": {PATH: [v, ...]},
 *    "params": {NAME: [v, ...]}, "seeds": [...], "combine": "cross" | "zip"}
 *
 * Dimensions, outermost first: config, workload, the axes in spec order, the
 * params in spec order, seed. "cross" takes every combination; "zip" pairs
 * the i-th values of the axes and params (lists of one value repeat) and
 * crosses those tuples with configs × workloads × seeds. Every job's config
 * is built and validated here, so a bad value fails the whole sweep at once
 * with a message naming it, before anything runs.
 */
#include "sweep.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cJSON.h"
#include "sim/config.h"
#include "load/embedded.h"
#include "load/loader.h"
#include "export/stats_json.h"
#include "sim/util.h"
#include "sweep_data.h"

#ifndef GPUSTEP_VERSION
#define GPUSTEP_VERSION "0.0.0"
#endif

#define SWEEP_MAX_JOBS 100000

bool sweep_file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *abs_path(const char *p)
{
	char *r = realpath(p, NULL);
	return r ? r : xstrdup(p);
}

/* A config or workload named in the spec: a file beside the spec, a file
 * from the current directory, or else a built-in name (left as is). */
static char *resolve_ref(const struct sweep *sw, const char *ref);

/* A trace list's kernel (LIST@K): the list resolved, @K kept. */
static char *resolve_at(const struct sweep *sw, const char *ref)
{
	const char *at = strrchr(ref, '@');
	if (!at || at == ref || strchr(at, '/'))
		return NULL;
	char *f = xasprintf("%.*s", (int)(at - ref), ref);
	char *r = resolve_ref(sw, f);
	char *out = strcmp(r, f) ? xasprintf("%s%s", r, at) : NULL;
	free(f);
	free(r);
	return out;
}

static char *resolve_ref(const struct sweep *sw, const char *ref)
{
	char *a = resolve_at(sw, ref);
	if (a)
		return a;
	if (ref[0] != '/') {
		char *p = xasprintf("%s/%s", sw->spec_dir, ref);
		if (sweep_file_exists(p)) {
			char *r = abs_path(p);
			free(p);
			return r;
		}
		free(p);
	}
	if (sweep_file_exists(ref))
		return abs_path(ref);
	return xstrdup(ref);
}

static char *value_text(const cJSON *v)
{
	if (cJSON_IsString(v))
		return xstrdup(v->valuestring);
	if (cJSON_IsBool(v))
		return xstrdup(cJSON_IsTrue(v) ? "true" : "false");
	if (cJSON_IsNumber(v)) {
		double d = v->valuedouble;
		if (d == floor(d) && fabs(d) < 9e15)
			return xasprintf("%.0f", d);
		return xasprintf("%.15g", d);
	}
	return NULL;
}

static int add_dim(struct sweep *sw, const char *name, const char *path, bool is_param, const cJSON *list,
		   bool resolve, char **err)
{
	if (!cJSON_IsArray(list) || cJSON_GetArraySize(list) == 0)
		return set_err(err, "%s: \"%s\" must be a non-empty array", sw->spec_path, name);
	sw->dims = xrealloc(sw->dims, sizeof *sw->dims * (size_t)(sw->ndims + 1));
	struct sweep_dim *d = &sw->dims[sw->ndims++];
	memset(d, 0, sizeof *d);
	d->name = xstrdup(name);
	d->path = path ? xstrdup(path) : NULL;
	d->is_param = is_param;
	d->vals = xcalloc((size_t)cJSON_GetArraySize(list), sizeof(char *));
	const cJSON *v;
	cJSON_ArrayForEach(v, list)
	{
		char *t = value_text(v);
		if (!t)
			return set_err(err, "%s: \"%s\": values must be numbers, strings or booleans", sw->spec_path,
				       name);
		char *pe = NULL;
		if (path_check_printable("value", t, &pe)) { /* they reach tables, plots and job lists */
			set_err(err, "%s: \"%s\": %s", sw->spec_path, name, pe);
			free(pe);
			free(t);
			return -1;
		}
		if (resolve) {
			char *r = resolve_ref(sw, t);
			free(t);
			t = r;
		}
		d->vals[d->nvals++] = t;
	}
	return 0;
}

int sweep_dim_find(const struct sweep *sw, const char *name)
{
	for (int i = 0; i < sw->ndims; i++)
		if (strcmp(sw->dims[i].name, name) == 0 || (sw->dims[i].is_param && strcmp(sw->dims[i].path, name) == 0))
			return i;
	return -1;
}

const char *sweep_val(const struct sweep *sw, const struct sweep_job *j, int d)
{
	return sw->dims[d].vals[j->pick[d]];
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;
	for (size_t i = 0; i < n; i++) {
		h ^= c[i];
		h *= 0x100000001b3ull;
	}
	/* a separator, so ("ab","c") and ("a","bc") differ */
	h ^= 0xff;
	return h * 0x100000001b3ull;
}

static uint64_t fnv_str(uint64_t h, const char *s) { return fnv(h, s, strlen(s)); }

/* Bytes of a workload: its file, or the built-in kernel's embedded JSON. */
static char *workload_bytes(const char *wl, size_t *len, char **err)
{
	if (sweep_file_exists(wl))
		return loader_read_file(wl, len, err); /* a trace workload may be large: the general cap */
	const char *at = strrchr(wl, '@'); /* a trace list's kernel: LIST@K (the @K is hashed with the name) */
	if (at && at > wl) {
		char *f = xasprintf("%.*s", (int)(at - wl), wl);
		char *r = sweep_file_exists(f) ? loader_read_file(f, len, err) : NULL;
		free(f);
		if (r) {
			char *t = xasprintf("%s\n%s", wl, r);
			*len = strlen(t);
			free(r);
			return t;
		}
	}
	char *p = xasprintf("configs/workloads/%s.json", wl);
	const struct embedded_file *e = embedded_find(p);
	free(p);
	if (!e) {
		set_err(err, "workload '%s': no such file or built-in kernel (gpustep --list-kernels)", wl);
		return NULL;
	}
	*len = e->size;
	return xstrdup(e->data);
}

static void push_arg(struct sweep_job *j, const char *a)
{
	j->argv = xrealloc(j->argv, sizeof(char *) * (size_t)(j->argc + 2));
	j->argv[j->argc++] = xstrdup(a);
	j->argv[j->argc] = NULL;
}

/* Build, validate and key one job; fills argv. */
static int make_job(struct sweep *sw, struct sweep_job *j, char **err)
{
	const char *cfg_ref = sweep_val(sw, j, 0), *wl = sweep_val(sw, j, 1);
	const char *seed = sweep_val(sw, j, sw->ndims - 1);
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	char *e = NULL;
	struct strbuf label;
	sb_init(&label);
	for (int d = 0; d < sw->ndims; d++)
		sb_printf(&label, "%s%s=%s", d ? " " : "", sw->dims[d].name, sweep_val(sw, j, d));
	int rc = -1;
	size_t wlen = 0;
	char *wbytes = NULL;
	struct kernel_src *k = NULL;
	if (loader_load_config(cfg_ref, &cfg, &e))
		goto out;
	for (int d = 2; d < sw->ndims - 1; d++) {
		if (sw->dims[d].is_param)
			continue;
		char *a = xasprintf("%s=%s", sw->dims[d].path, sweep_val(sw, j, d));
		int r = loader_apply_override(&cfg, a, &e);
		free(a);
		if (r)
			goto out;
	}
	char *end;
	errno = 0;
	cfg.seed = strtoull(seed, &end, 0);
	if (!*seed || *end || seed[0] == '-' || errno) {
		e = xasprintf("seeds: expected non-negative integers, got '%s'", seed);
		goto out;
	}
	if (cfg_validate(&cfg, &e))
		goto out;
	if (!(wbytes = workload_bytes(wl, &wlen, &e)))
		goto out;
	bool has_params = false;
	for (int d = 2; d < sw->ndims - 1; d++)
		has_params |= sw->dims[d].is_param;
	if (has_params) { /* parameter names and values checked by the loader */
		k = xcalloc(1, sizeof *k);
		if (loader_load_kernel(wl, k, &e))
			goto out;
		for (int d = 2; d < sw->ndims - 1; d++)
			if (sw->dims[d].is_param && loader_kernel_set_param(k, sw->dims[d].path, sweep_val(sw, j, d), &e))
				goto out;
	}
	char *cj = config_json_string(&cfg);
	uint64_t h = 0xcbf29ce484222325ull;
	h = fnv_str(h, "gpustep " GPUSTEP_VERSION);
	h = fnv_str(h, cj);
	h = fnv(h, wbytes, wlen);
	for (int d = 2; d < sw->ndims - 1; d++)
		if (sw->dims[d].is_param) {
			h = fnv_str(h, sw->dims[d].path);
			h = fnv_str(h, sweep_val(sw, j, d));
		}
	h = fnv_str(h, seed);
	free(cj);
	snprintf(j->key, sizeof j->key, "%016llx", (unsigned long long)h);

	push_arg(j, cfg_ref);
	push_arg(j, "-w");
	push_arg(j, wl);
	for (int d = 2; d < sw->ndims - 1; d++) {
		push_arg(j, sw->dims[d].is_param ? "-p" : "-s");
		char *a = xasprintf("%s=%s", sw->dims[d].path, sweep_val(sw, j, d));
		push_arg(j, a);
		free(a);
	}
	push_arg(j, "--seed");
	push_arg(j, seed);
	push_arg(j, "--run");
	push_arg(j, "--snapshot-mb");
	push_arg(j, "0");
	push_arg(j, "--stats");
	char *res = sweep_result_path(sw, j);
	push_arg(j, res);
	free(res);
	rc = 0;
out:
	if (rc)
		set_err(err, "%s: job %d (%s): %s", sw->spec_path, j->index, label.s, e ? e : "invalid");
	free(e);
	free(wbytes);
	if (k) {
		free(k);
	}
	sb_fini(&label);
	return rc;
}

static const char *const known_keys[] = {"configs", "workloads", "axes", "params", "seeds", "combine", "description",
					 "baseline"};

/* "baseline": {DIM: VALUE}: each DIM a dimension of the sweep (as --rows
 * names them), each VALUE one a job has there. */
static int parse_baseline(struct sweep *sw, const cJSON *root, char **err)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "baseline"), *c;
	if (!b)
		return 0;
	if (!cJSON_IsObject(b) || !b->child)
		return set_err(err, "%s: \"baseline\" must name the baseline job's value of one or more dimensions, "
				    "e.g. {\"l2.frc.entries\": 0}",
			       sw->spec_path);
	cJSON_ArrayForEach(c, b)
	{
		int d = c->string ? sweep_dim_find(sw, c->string) : -1;
		if (d < 0)
			return set_err(err, "%s: baseline: \"%.80s\" is not a dimension of the sweep", sw->spec_path,
				       c->string ? c->string : "");
		for (int k = 0; k < sw->nbase; k++)
			if (sw->base_dim[k] == d)
				return set_err(err, "%s: baseline: %s is given twice", sw->spec_path, sw->dims[d].name);
		if (sw->nbase == SWEEP_MAX_BASE)
			return set_err(err, "%s: baseline: at most %d dimensions", sw->spec_path, SWEEP_MAX_BASE);
		char *v = value_text(c);
		if (!v)
			return set_err(err, "%s: baseline: %s: a number, string or boolean, please", sw->spec_path,
				       sw->dims[d].name);
		bool found = false;
		for (int i = 0; i < sw->njobs && !found; i++) {
			char *x = sweep_display(sw, &sw->jobs[i], d);
			found = strcmp(x, v) == 0;
			free(x);
		}
		if (!found) {
			set_err(err, "%s: baseline: no job has %s = %.80s (as `sweep --list` shows the values)",
				sw->spec_path, sw->dims[d].name, v);
			free(v);
			return -1;
		}
		sw->base_dim[sw->nbase] = d;
		sw->base_val[sw->nbase++] = v;
	}
	return 0;
}

static int expand(struct sweep *sw, bool zip, long only_job, char **err)
{
	/* zip: the axes/params dims advance together */
	int zlen = 1;
	if (zip)
		for (int d = 2; d < sw->ndims - 1; d++) {
			int n = sw->dims[d].nvals;
			if (n > 1 && zlen > 1 && n != zlen)
				return set_err(err, "%s: \"combine\": \"zip\" needs axes and params of equal length (or "
						    "one value); %s has %d, another has %d",
					       sw->spec_path, sw->dims[d].name, n, zlen);
			if (n > 1)
				zlen = n;
		}
	long total = 1;
	for (int d = 0; d < sw->ndims; d++) {
		bool zipped = zip && d >= 2 && d < sw->ndims - 1;
		if (!zipped)
			total *= sw->dims[d].nvals;
		if (total > SWEEP_MAX_JOBS)
			return set_err(err, "%s: more than %d jobs", sw->spec_path, SWEEP_MAX_JOBS);
	}
	if (zip)
		total *= zlen;
	if (total > SWEEP_MAX_JOBS)
		return set_err(err, "%s: more than %d jobs", sw->spec_path, SWEEP_MAX_JOBS);
	sw->jobs = xcalloc((size_t)total, sizeof *sw->jobs);
	for (long n = 0; n < total; n++) {
		struct sweep_job *j = &sw->jobs[n];
		j->index = (int)n;
		j->pick = xmalloc(sizeof(int) * (size_t)sw->ndims);
		/* mixed radix, seed fastest; in zip mode the axes/params share one digit */
		long rest = n;
		for (int d = sw->ndims - 1; d >= 0; d--) {
			bool zipped = zip && d >= 2 && d < sw->ndims - 1;
			if (zipped) {
				if (d == 2) {
					int t = (int)(rest % zlen);
					for (int e = 2; e < sw->ndims - 1; e++)
						j->pick[e] = sw->dims[e].nvals > 1 ? t : 0;
					rest /= zlen;
				}
				continue;
			}
			j->pick[d] = (int)(rest % sw->dims[d].nvals);
			rest /= sw->dims[d].nvals;
		}
		sw->njobs++;
		if ((only_job < 0 || n == only_job) && make_job(sw, j, err))
			return -1;
	}
	return 0;
}

static int key_cmp(const void *a, const void *b)
{
	const struct sweep_job *x = *(const struct sweep_job *const *)a, *y = *(const struct sweep_job *const *)b;
	int c = strcmp(x->key, y->key);
	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Two jobs with one key would overwrite each other's result (sorted by key:
 * n log n, not n^2, for 100k jobs). */
static int check_duplicates(const struct sweep *sw, char **err)
{
	if (sw->njobs < 2)
		return 0;
	const struct sweep_job **by = xmalloc(sizeof *by * (size_t)sw->njobs);
	for (int i = 0; i < sw->njobs; i++)
		by[i] = &sw->jobs[i];
	qsort(by, (size_t)sw->njobs, sizeof *by, key_cmp);
	int rc = 0;
	for (int i = 1; i < sw->njobs && !rc; i++)
		if (strcmp(by[i - 1]->key, by[i]->key) == 0)
			rc = set_err(err, "%s: jobs %d and %d are the same run (same resolved config, workload, params and "
					  "seed); remove the duplicate value",
				     sw->spec_path, by[i - 1]->index, by[i]->index);
	free(by);
	return rc;
}

/* A key given twice in one object: cJSON keeps both, and only the first
 * would count (or both, as two dimensions of one name). */
static const char *duplicate_key(const cJSON *o)
{
	for (const cJSON *a = o->child; a; a = a->next)
		for (const cJSON *b = a->next; b; b = b->next)
			if (a->string && b->string && strcmp(a->string, b->string) == 0)
				return a->string;
	return NULL;
}

struct sweep *sweep_load(const char *spec_path, const char *out, char **err)
{
	return sweep_load_ex(spec_path, out, -1, err);
}

struct sweep *sweep_load_ex(const char *spec_path, const char *out, long only_job, char **err)
{
	if (path_check_printable("spec", spec_path, err) || (out && path_check_printable("--out", out, err)))
		return NULL;
	size_t len;
	char *text = loader_read_file_max(spec_path, "sweep spec", LOADER_TEXT_MAX, &len, err);
	if (!text)
		return NULL;
	cJSON *root = cJSON_ParseWithLength(text, len);
	free(text);
	if (!cJSON_IsObject(root)) {
		set_err(err, "%s: not a JSON object (a sweep spec: docs/SWEEPS.md)", spec_path);
		cJSON_Delete(root);
		return NULL;
	}
	struct sweep *sw = xcalloc(1, sizeof *sw);
	sw->spec_path = xstrdup(spec_path);
	char *slash = strrchr(sw->spec_path, '/');
	sw->spec_dir = slash ? xasprintf("%.*s", (int)(slash - sw->spec_path), sw->spec_path) : xstrdup(".");
	if (out) {
		sw->out = xstrdup(out);
	} else {
		size_t n = strlen(spec_path);
		if (n > 5 && strcmp(spec_path + n - 5, ".json") == 0)
			n -= 5;
		sw->out = xasprintf("%.*s-results", (int)n, spec_path);
	}
	if (sw->out[0] != '/') { /* job command lines work from any directory */
		char cwd[PATH_MAX];
		if (getcwd(cwd, sizeof cwd)) {
			char *a = xasprintf("%s/%s", cwd, sw->out);
			free(sw->out);
			sw->out = a;
		}
	}
	char self[PATH_MAX];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
	sw->self = xstrdup(sl > 0 ? (self[sl] = 0, self) : "gpustep");
	if (path_check_printable("--out", sw->out, err)) { /* the working directory joined to a relative one */
		cJSON_Delete(root);
		sweep_free(sw);
		return NULL;
	}

	int rc = -1;
	const cJSON *c;
	const char *dup = duplicate_key(root);
	if (dup) {
		set_err(err, "%s: key \"%s\" is given twice", spec_path, dup);
		goto out;
	}
	cJSON_ArrayForEach(c, root)
	{
		bool ok = c->string[0] == '_';
		for (size_t i = 0; i < ARRAY_LEN(known_keys); i++)
			ok |= strcmp(c->string, known_keys[i]) == 0;
		if (!ok) {
			set_err(err, "%s: unknown key \"%s\" (expected configs, workloads, axes, params, seeds, combine)",
				spec_path, c->string);
			goto out;
		}
	}
	const cJSON *cfgs = cJSON_GetObjectItemCaseSensitive(root, "configs");
	const cJSON *wls = cJSON_GetObjectItemCaseSensitive(root, "workloads");
	cJSON *def_cfg = cJSON_CreateStringArray((const char *const[]){"teaching"}, 1);
	int r = add_dim(sw, "config", NULL, false, cfgs ? cfgs : def_cfg, true, err);
	cJSON_Delete(def_cfg);
	if (r)
		goto out;
	if (!wls) {
		set_err(err, "%s: \"workloads\" is missing (a list of built-in kernel names or files)", spec_path);
		goto out;
	}
	if (add_dim(sw, "workload", NULL, false, wls, true, err))
		goto out;
	static const char *const groups[] = {"axes", "params"};
	for (int g = 0; g < 2; g++) {
		const cJSON *o = cJSON_GetObjectItemCaseSensitive(root, groups[g]);
		if (!o)
			continue;
		if (!cJSON_IsObject(o)) {
			set_err(err, "%s: \"%s\" must be an object of NAME: [values]", spec_path, groups[g]);
			goto out;
		}
		if ((dup = duplicate_key(o)) != NULL) { /* two columns of one name: tables mislabelled, SQLite refuses */
			set_err(err, "%s: %s: \"%s\" is given twice; give each %s once with all its values", spec_path,
				groups[g], dup, g ? "param" : "axis");
			goto out;
		}
		cJSON_ArrayForEach(c, o)
		{
			char *name = g ? xasprintf("param.%s", c->string) : xstrdup(c->string);
			if (!g && !cfg_find(c->string)) {
				set_err(err, "%s: axes: unknown config path \"%s\" (gpustep --list-config)", spec_path,
					c->string);
				free(name);
				goto out;
			}
			r = add_dim(sw, name, c->string, g == 1, c, false, err);
			free(name);
			if (r)
				goto out;
		}
	}
	const cJSON *seeds = cJSON_GetObjectItemCaseSensitive(root, "seeds");
	cJSON *def_seed = cJSON_CreateIntArray((const int[]){1}, 1);
	r = add_dim(sw, "seed", NULL, false, seeds ? seeds : def_seed, false, err);
	cJSON_Delete(def_seed);
	if (r)
		goto out;
	const cJSON *comb = cJSON_GetObjectItemCaseSensitive(root, "combine");
	bool zip = false;
	if (comb) {
		if (!cJSON_IsString(comb) || (strcmp(comb->valuestring, "cross") && strcmp(comb->valuestring, "zip"))) {
			set_err(err, "%s: \"combine\" must be \"cross\" or \"zip\"", spec_path);
			goto out;
		}
		zip = strcmp(comb->valuestring, "zip") == 0;
	}
	rc = expand(sw, zip, only_job, err);
	if (!rc && only_job < 0)
		rc = check_duplicates(sw, err);
	if (!rc)
		rc = parse_baseline(sw, root, err);
out:
	cJSON_Delete(root);
	if (rc) {
		sweep_free(sw);
		return NULL;
	}
	return sw;
}

void sweep_free(struct sweep *sw)
{
	if (!sw)
		return;
	for (int d = 0; d < sw->ndims; d++) {
		for (int v = 0; v < sw->dims[d].nvals; v++)
			free(sw->dims[d].vals[v]);
		free(sw->dims[d].vals);
		free(sw->dims[d].name);
		free(sw->dims[d].path);
	}
	free(sw->dims);
	for (int k = 0; k < sw->nbase; k++)
		free(sw->base_val[k]);
	for (int i = 0; i < sw->njobs; i++) {
		for (int a = 0; a < sw->jobs[i].argc; a++)
			free(sw->jobs[i].argv[a]);
		free(sw->jobs[i].argv);
		free(sw->jobs[i].pick);
	}
	free(sw->jobs);
	free(sw->spec_path);
	free(sw->spec_dir);
	free(sw->out);
	free(sw->self);
	free(sw);
}

char *sweep_result_path(const struct sweep *sw, const struct sweep_job *j)
{
	return xasprintf("%s/jobs/%s.json", sw->out, j->key);
}

char *sweep_fail_path(const struct sweep *sw, const struct sweep_job *j)
{
	return xasprintf("%s/jobs/%s.fail.json", sw->out, j->key);
}

char *sweep_log_path(const struct sweep *sw, const struct sweep_job *j)
{
	return xasprintf("%s/logs/%s.log", sw->out, j->key);
}

static int mkdir_p(const char *path, char **err)
{
	char *p = xstrdup(path);
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			if (mkdir(p, 0777) && errno != EEXIST) {
				set_err(err, "%s: %s", p, strerror(errno));
				free(p);
				return -1;
			}
			*s = '/';
		}
	int rc = 0;
	if (mkdir(p, 0777) && errno != EEXIST)
		rc = set_err(err, "%s: %s", p, strerror(errno));
	free(p);
	return rc;
}

int sweep_make_dirs(const struct sweep *sw, char **err)
{
	char *j = xasprintf("%s/jobs", sw->out), *l = xasprintf("%s/logs", sw->out), *k = xasprintf("%s/locks", sw->out);
	int rc = mkdir_p(j, err) || mkdir_p(l, err) || mkdir_p(k, err) ? -1 : 0;
	free(j);
	free(l);
	free(k);
	return rc;
}
