/*
 * validate.c: `gpustep validate [PRESET|CONFIG ...] [--quick] [--json FILE]
 * [--tolerance PCT] [--max-error PCT] [--plot DIR]`: runs the built-in microbenchmarks on
 * each machine and prints, per metric, what gpustep measures next to the
 * published hardware number (configs/validation/published.json), their
 * ratio and a verdict (docs/VALIDATION.md).
 *
 * The measurements (validate.h has the two-run difference they all use):
 *
 *   metric                        workload        runs
 *   l1_hit_latency                pointer_chase   4 KB chain, one line per load, warmed
 *   l2_hit_latency                pointer_chase   chain of twice the L1's capacity (every
 *                                                 load misses an LRU L1), warmed
 *   dram_latency                  pointer_chase   one new line per load, 64 KB + 1 line apart
 *   smem_latency                  smem_conflict   ways = 1
 *   smem_conflict_latency_32way   smem_conflict   ways = 32
 *   dram_bandwidth                stream kind 0   reads of 2x and 4x the L2's capacity
 *   l2_bandwidth                  stream kind 0   re-reads of a quarter of the L2, L1 disabled
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "export/stats_json.h"
#include "load/embedded.h"
#include "load/loader.h"
#include "sim/sim.h"
#include "sim/util.h"
#include "validate.h"

#define PUBLISHED_PATH "configs/validation/published.json"
#define TOL_LATENCY 15.0
#define TOL_BANDWIDTH 20.0

static const struct {
	const char *name, *unit;
	bool is_bw;
} metrics[VM__COUNT] = {
    [VM_L1_HIT_LATENCY] = {"l1_hit_latency", "cycles", false},
    [VM_L2_HIT_LATENCY] = {"l2_hit_latency", "cycles", false},
    [VM_DRAM_LATENCY] = {"dram_latency", "cycles", false},
    [VM_SMEM_LATENCY] = {"smem_latency", "cycles", false},
    [VM_SMEM_CONFLICT_32WAY] = {"smem_conflict_latency_32way", "cycles", false},
    [VM_DRAM_BANDWIDTH] = {"dram_bandwidth", "GB/s", true},
    [VM_L2_BANDWIDTH] = {"l2_bandwidth", "GB/s", true},
};

/* ---- one run ----------------------------------------------------------- */

struct kparam {
	const char *name;
	int64_t value;
};

/* Run built-in kernel `kname` with params on cfg to the end: its cycles. */
static int run_cycles(const struct sim_cfg *cfg, const char *kname, const struct kparam *p, unsigned np,
		      uint64_t *cycles, char **err)
{
	struct kernel_src *src = xcalloc(1, sizeof(*src));
	int rc = loader_load_kernel(kname, src, err);
	for (unsigned i = 0; i < np && !rc; i++)
		rc = kernel_src_set_param(src, p[i].name, p[i].value, err);
	struct kernel *k = rc ? NULL : kernel_compile(src, cfg->seed, err);
	free(src);
	if (!k)
		return -1;
	struct workload wl = {.kernel = k};
	snprintf(wl.name, sizeof(wl.name), "%s", kname);
	struct sim *s = sim_new(cfg, &wl, err);
	if (!s) {
		kernel_free(k);
		return -1;
	}
	sim_step(s, UINT64_MAX);
	char why[256];
	if (!sim_done(s)) {
		rc = set_err(err, "%s did not finish%s%s", kname, sim_deadlock(s, why, sizeof(why)) ? ": " : "",
			     sim_deadlock(s, why, sizeof(why)) ? why : "");
	}
	*cycles = sim_cycle(s);
	sim_free(s);
	kernel_free(k);
	return rc;
}

/* Cycles per unit of work between a run with `a` and one with 2a of param
 * `vary` (the others fixed). */
static int per_unit(const struct sim_cfg *cfg, const char *kname, struct kparam *p, unsigned np, unsigned vary,
		    int64_t a, double *out, char **err)
{
	uint64_t c1, c2;
	p[vary].value = a;
	if (run_cycles(cfg, kname, p, np, &c1, err))
		return -1;
	p[vary].value = 2 * a;
	if (run_cycles(cfg, kname, p, np, &c2, err))
		return -1;
	*out = ((double)c2 - (double)c1) / (double)a;
	return 0;
}

/* ---- the metrics -------------------------------------------------------- */

static uint64_t l1_bytes(const struct sim_cfg *c)
{
	return (uint64_t)c->l1.sets * c->l1.ways * c->l1.line;
}
static uint64_t l2_bytes(const struct sim_cfg *c)
{
	return (uint64_t)c->l2.banks * c->l2.sets * c->l2.ways * c->l2.line;
}

/* A warmed chase over `bytes` with one load per L1 line. */
static int chase(const struct sim_cfg *cfg, uint64_t bytes, int64_t stride, int64_t warm, int64_t iters, double *lat,
		 char **err)
{
	struct kparam p[] = {{"n", (int64_t)(bytes / 8)}, {"stride", stride}, {"warm", warm}, {"iters", 0}};
	return per_unit(cfg, "pointer_chase", p, 4, 3, iters, lat, err);
}

static void set_how(struct vrow *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_how(struct vrow *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->how, sizeof(r->how), fmt, ap);
	va_end(ap);
}

static int measure_latencies(const struct sim_cfg *cfg, bool quick, struct vtable *t, char **err)
{
	int64_t line = cfg->l1.line, stride = line / 8, a = quick ? 16 : 64;
	struct vrow *r = &t->rows[VM_L1_HIT_LATENCY];
	uint64_t small = MIN((uint64_t)4096, l1_bytes(cfg) / 2);
	if (cfg->l1.enabled && small >= (uint64_t)line) {
		if (chase(cfg, small, stride, (int64_t)(small / line), a, &r->gpustep, err))
			return -1;
		r->measured = true;
		set_how(r, "pointer_chase n=%llu stride=%lld warm=%llu iters=%lld vs %lld",
			(unsigned long long)(small / 8), (long long)stride, (unsigned long long)(small / line),
			(long long)a, (long long)(2 * a));
	}
	r = &t->rows[VM_L2_HIT_LATENCY];
	uint64_t mid = cfg->l1.enabled ? 2 * l1_bytes(cfg) : 4096;
	if (mid <= l2_bytes(cfg) / 2) {
		if (chase(cfg, mid, stride, (int64_t)(mid / line), a, &r->gpustep, err))
			return -1;
		r->measured = true;
		set_how(r, "pointer_chase n=%llu stride=%lld warm=%llu iters=%lld vs %lld",
			(unsigned long long)(mid / 8), (long long)stride, (unsigned long long)(mid / line),
			(long long)a, (long long)(2 * a));
	}
	r = &t->rows[VM_DRAM_LATENCY];
	int64_t far = (65536 + line) / 8; /* a new line and a new DRAM row per load */
	if (chase(cfg, (uint64_t)(2 * a + 2) * (uint64_t)far * 8, far, 0, a, &r->gpustep, err))
		return -1;
	r->measured = true;
	set_how(r, "pointer_chase n=%lld stride=%lld warm=0 iters=%lld vs %lld", (long long)((2 * a + 2) * far),
		(long long)far, (long long)a, (long long)(2 * a));
	static const int ways[2] = {1, 32};
	for (unsigned i = 0; i < 2; i++) {
		r = &t->rows[i ? VM_SMEM_CONFLICT_32WAY : VM_SMEM_LATENCY];
		struct kparam p[] = {{"ways", ways[i]}, {"iters", 0}};
		if (per_unit(cfg, "smem_conflict", p, 2, 1, a / 2, &r->gpustep, err))
			return -1;
		r->measured = true;
		set_how(r, "smem_conflict ways=%d iters=%lld vs %lld", ways[i], (long long)(a / 2), (long long)a);
	}
	return 0;
}

/* GB/s of `bytes_per_word` x words moved between two stream runs. */
static int stream_bw(const struct sim_cfg *cfg, int kind, int64_t n, int64_t reps_a, bool vary_reps, double *gbs,
		     char **err)
{
	int64_t ctas = (int64_t)cfg->core.sms * 4;
	struct kparam p[] = {{"n", n}, {"ctas", ctas}, {"kind", kind}, {"reps", reps_a}};
	double cyc_per;
	if (per_unit(cfg, "stream", p, 4, vary_reps ? 3 : 0, vary_reps ? reps_a : n, &cyc_per, err))
		return -1;
	double bytes = vary_reps ? (double)n * 4 * (double)reps_a : (double)n * 4;
	double cycles = cyc_per * (double)(vary_reps ? reps_a : n);
	*gbs = cycles > 0 ? bytes * cfg->core.clock_mhz * 1e6 / cycles / 1e9 : 0;
	return 0;
}

static int measure_bandwidths(const struct sim_cfg *cfg, struct vtable *t, char **err)
{
	if (cfg->core.clock_mhz <= 0)
		return 0; /* no clock: GB/s has no meaning (the rows stay unmeasured) */
	int64_t grain = (int64_t)cfg->core.sms * 4 * 256; /* one word per thread per grid-stride step */
	struct vrow *r = &t->rows[VM_DRAM_BANDWIDTH];
	int64_t n = (int64_t)(2 * l2_bytes(cfg) / 4 + (uint64_t)grain - 1) / grain * grain;
	if (stream_bw(cfg, 0, n, 1, false, &r->gpustep, err))
		return -1;
	r->measured = true;
	set_how(r, "stream kind=0 ctas=%d n=%lld vs %lld", cfg->core.sms * 4, (long long)n, (long long)(2 * n));
	r = &t->rows[VM_L2_BANDWIDTH];
	n = MAX((int64_t)(l2_bytes(cfg) / 4 / 4) / grain, 1) * grain;
	struct sim_cfg nol1 = *cfg; /* every read goes to the L2, as ld.cg would (and no coherence refusal) */
	nol1.l1.enabled = false;
	if (stream_bw(&nol1, 0, n, 2, true, &r->gpustep, err))
		return -1;
	r->measured = true;
	set_how(r, "stream kind=0 ctas=%d n=%lld reps=2 vs 4, l1.enabled=false", cfg->core.sms * 4, (long long)n);
	return 0;
}

/* ---- the staircase (--plot) ------------------------------------------- */

#define STAIR_MAX 64

/* Latency per load of a warmed chase (one load per line) over footprints
 * from 4 KB, doubling with a point halfway (x1.5), up to twice the L2. */
static int staircase(const struct sim_cfg *cfg, double pts[][2], int *np, char **err)
{
	int64_t line = cfg->l1.line > 0 ? cfg->l1.line : 128, a = 64;
	uint64_t top = 2 * l2_bytes(cfg);
	*np = 0;
	for (uint64_t b = 4096; b <= top && *np + 2 <= STAIR_MAX; b *= 2) {
		uint64_t sizes[2] = {b, b + b / 2};
		for (int i = 0; i < 2 && sizes[i] <= top; i++) {
			double lat;
			if (chase(cfg, sizes[i], line / 8, (int64_t)(sizes[i] / (uint64_t)line), a, &lat, err))
				return -1;
			pts[*np][0] = (double)sizes[i];
			pts[(*np)++][1] = lat;
		}
	}
	return 0;
}

/* gnuplot strings in single quotes, where gnuplot expands nothing (in double
 * quotes it runs `backquoted` commands: a machine's name comes from its
 * config file); a quote is written twice, line breaks become spaces. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* The same into a string buffer. */
static void sb_putc_gp(struct strbuf *sb, const char *s)
{
	sb_puts(sb, "'");
	for (; *s; s++)
		sb_printf(sb, "%s%c", *s == '\'' ? "'" : "", *s == '\n' || *s == '\r' ? ' ' : *s);
	sb_puts(sb, "'");
}

/* A machine name as a file name: letters, digits, - _ . only. */
static void file_stem(const char *name, char *out, size_t n)
{
	size_t i = 0;
	for (; name[i] && i + 1 < n; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			  c == '_' || (c == '.' && i > 0);
		out[i] = ok ? c : '_';
	}
	out[i] = '\0';
}

static bool have_gnuplot(void)
{
	const char *path = getenv("PATH");
	char *copy = xstrdup(path ? path : ""), *save = NULL;
	bool found = false;
	for (char *d = strtok_r(copy, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *p = xasprintf("%s/gnuplot", d);
		found = access(p, X_OK) == 0;
		free(p);
	}
	free(copy);
	return found;
}

/* DIR/staircase_NAME.dat and .gp, and (with gnuplot) .png and .svg: the
 * latency per load against the footprint (log x), the L1 and L2 capacities
 * of the config and the published latencies as lines. */
static int write_plot(const char *dir, const struct sim_cfg *cfg, const struct vtable *t, double pts[][2], int np,
		      char **err)
{
	char stem[80];
	file_stem(t->machine, stem, sizeof(stem));
	if (mkdir(dir, 0777) && errno != EEXIST)
		return set_err(err, "--plot %s: %s", dir, strerror(errno));
	char *dat = xasprintf("%s/staircase_%s.dat", dir, stem), *gp = xasprintf("%s/staircase_%s.gp", dir, stem);
	int rc = 0;
	FILE *f = fopen(dat, "w"), *g = f ? fopen(gp, "w") : NULL;
	if (!f || !g) {
		rc = set_err(err, "--plot %s: %s", f ? gp : dat, strerror(errno));
		goto out;
	}
	fprintf(f, "# %s: footprint (bytes), latency per dependent load (core cycles)\n", t->machine);
	for (int i = 0; i < np; i++)
		fprintf(f, "%.0f %.2f\n", pts[i][0], pts[i][1]);
	fprintf(g, "set grid\nset logscale x 2\nset format x \"%%.0b %%BB\"\nset key right center\n"
		   "set xlabel \"footprint (bytes)\"\nset ylabel \"latency per load (core cycles)\"\nset title ");
	char *title = xasprintf("%s: pointer-chase staircase", t->machine);
	gp_str(g, title);
	free(title);
	fprintf(g, "\n");
	if (cfg->l1.enabled)
		fprintf(g, "set arrow from %llu, graph 0 to %llu, graph 1 nohead dt 3 lc rgb \"gray40\"\n"
			   "set label \"L1 %llu KB\" at %llu, graph 0.9 left offset 0.5,0\n",
			(unsigned long long)l1_bytes(cfg), (unsigned long long)l1_bytes(cfg),
			(unsigned long long)(l1_bytes(cfg) >> 10), (unsigned long long)l1_bytes(cfg));
	fprintf(g, "set arrow from %llu, graph 0 to %llu, graph 1 nohead dt 3 lc rgb \"gray40\"\n"
		   "set label \"L2 %llu KB\" at %llu, graph 0.9 right offset -0.5,0\n",
		(unsigned long long)l2_bytes(cfg), (unsigned long long)l2_bytes(cfg),
		(unsigned long long)(l2_bytes(cfg) >> 10), (unsigned long long)l2_bytes(cfg));
	struct strbuf pl; /* the plot command, written once per terminal */
	sb_init(&pl);
	sb_puts(&pl, "plot ");
	{
		char *q = xasprintf("%s", dat);
		sb_putc_gp(&pl, q);
		free(q);
	}
	sb_puts(&pl, " using 1:2 with linespoints lw 2 pt 7 title \"gpustep\"");
	static const enum vmetric lat[] = {VM_L1_HIT_LATENCY, VM_L2_HIT_LATENCY, VM_DRAM_LATENCY};
	for (unsigned i = 0; i < 3; i++) {
		const struct vrow *r = &t->rows[lat[i]];
		if (!r->has_published)
			continue;
		char *lt = xasprintf("published %s %.0f", r->metric, r->published);
		sb_printf(&pl, ", \\\n     %.2f with lines dt 2 lw 1.5 title ", r->published);
		sb_putc_gp(&pl, lt);
		free(lt);
	}
	static const char *const term[2][2] = {{"pngcairo size 800,500 font \"sans,11\"", "png"},
					       {"svg size 800,500", "svg"}};
	for (int k = 0; k < 2; k++) {
		char *o = xasprintf("%s/staircase_%s.%s", dir, stem, term[k][1]);
		fprintf(g, "set terminal %s\nset termoption noenhanced\nset output ", term[k][0]);
		gp_str(g, o);
		fprintf(g, "\n%s\n", pl.s);
		free(o);
	}
	sb_fini(&pl);
	fclose(g);
	g = NULL;
	fclose(f);
	f = NULL;
	if (!have_gnuplot()) {
		rc = set_err(err, "--plot: gnuplot is not installed (sudo apt-get install -y gnuplot-nox); the data and "
				  "the script are in %s and %s",
			     dat, gp);
		goto out;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		_exit(127);
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		rc = set_err(err, "--plot: gnuplot failed on %s", gp);
	else
		fprintf(stderr, "gpustep validate: wrote %s/staircase_%s.png and .svg\n", dir, stem);
out:
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	free(dat);
	free(gp);
	return rc;
}

/* ---- published values ---------------------------------------------------- */

static int attach_published(const char *name, struct vtable *t, char **err)
{
	const struct embedded_file *f = embedded_find(PUBLISHED_PATH);
	if (!f)
		return set_err(err, "%s is not in this build", PUBLISHED_PATH);
	cJSON *root = cJSON_Parse(f->data);
	if (!root)
		return set_err(err, "%s: not valid JSON", PUBLISHED_PATH);
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "machines"), name);
	const cJSON *unmet = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "unmet"), name);
	int rc = 0;
	for (const cJSON *e = m ? m->child : NULL; e && !rc; e = e->next) {
		unsigned i;
		for (i = 0; i < VM__COUNT; i++)
			if (!strcmp(metrics[i].name, e->string))
				break;
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
		const cJSON *s = cJSON_GetObjectItemCaseSensitive(e, "source");
		const cJSON *u = cJSON_GetObjectItemCaseSensitive(e, "unit");
		if (i == VM__COUNT || !cJSON_IsNumber(v) || !cJSON_IsString(s) || !cJSON_IsString(u) ||
		    strcmp(u->valuestring, metrics[i].unit)) {
			rc = set_err(err, "%s: machines.%s.%s: expected a known metric with value, unit (%s) and source",
				     PUBLISHED_PATH, name, e->string, i < VM__COUNT ? metrics[i].unit : "cycles or GB/s");
			break;
		}
		if (strlen(s->valuestring) >= sizeof(t->rows[i].source)) {
			rc = set_err(err, "%s: machines.%s.%s.source: %zu characters, at most %zu are kept", PUBLISHED_PATH,
				     name, e->string, strlen(s->valuestring), sizeof(t->rows[i].source) - 1);
			break;
		}
		t->rows[i].has_published = true;
		t->rows[i].published = v->valuedouble;
		snprintf(t->rows[i].source, sizeof(t->rows[i].source), "%s", s->valuestring);
	}
	for (const cJSON *e = unmet ? unmet->child : NULL; e && !rc; e = e->next)
		for (unsigned i = 0; i < VM__COUNT; i++) {
			if (strcmp(metrics[i].name, e->string) || !cJSON_IsString(e))
				continue;
			if (strlen(e->valuestring) >= sizeof(t->rows[i].unmet)) {
				rc = set_err(err, "%s: unmet.%s.%s: %zu characters, at most %zu are kept", PUBLISHED_PATH,
					     name, e->string, strlen(e->valuestring), sizeof(t->rows[i].unmet) - 1);
				break;
			}
			snprintf(t->rows[i].unmet, sizeof(t->rows[i].unmet), "%s", e->valuestring);
		}
	cJSON_Delete(root);
	return rc;
}

int validate_machine(const struct sim_cfg *cfg, const char *name, bool quick, struct vtable *t, char **err)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->machine, sizeof(t->machine), "%s", name);
	for (unsigned i = 0; i < VM__COUNT; i++) {
		t->rows[i].metric = metrics[i].name;
		t->rows[i].unit = metrics[i].unit;
		t->rows[i].is_bw = metrics[i].is_bw;
	}
	if (attach_published(name, t, err) || measure_latencies(cfg, quick, t, err))
		return -1;
	return quick ? 0 : measure_bandwidths(cfg, t, err);
}

double validate_error_pct(const struct vrow *r)
{
	return r->published != 0 ? fabs(r->gpustep / r->published - 1.0) * 100.0 : INFINITY;
}

/* ---- the subcommand ----------------------------------------------------- */

struct vopts {
	bool quick;
	const char *json, *plot;
	double tol_lat, tol_bw, max_error; /* max_error < 0: not given */
};

static const char *verdict(const struct vrow *r, const struct vopts *o)
{
	if (!r->measured)
		return "not run";
	if (!r->has_published)
		return "-";
	double tol = r->is_bw ? o->tol_bw : o->tol_lat;
	return validate_error_pct(r) <= tol ? "ok" : r->unmet[0] ? "OUT (known)" : "OUT";
}

static void print_table(const struct vtable *t, const struct vopts *o)
{
	printf("%s\n", t->machine);
	printf("  %-28s %10s %10s %7s  %-12s %s\n", "metric", "gpustep", "published", "ratio", "verdict", "source");
	for (unsigned i = 0; i < VM__COUNT; i++) {
		const struct vrow *r = &t->rows[i];
		char g[32] = "-", p[32] = "-", ratio[32] = "-";
		if (r->measured)
			snprintf(g, sizeof(g), "%.1f", r->gpustep);
		if (r->has_published)
			snprintf(p, sizeof(p), "%.1f", r->published);
		if (r->measured && r->has_published && r->published != 0)
			snprintf(ratio, sizeof(ratio), "%.2f", r->gpustep / r->published);
		printf("  %-28s %10s %10s %7s  %-12s %s\n", r->metric, g, p, ratio, verdict(r, o),
		       r->has_published ? r->source : "");
		if (r->unmet[0] && r->has_published && r->measured)
			printf("  %-28s %s\n", "", r->unmet);
	}
	printf("  (latencies in core cycles, bandwidths in GB/s; tolerance %.0f %% latency, %.0f %% bandwidth)\n",
	       o->tol_lat, o->tol_bw);
}

static void json_add(cJSON *machines, const struct vtable *t, const struct vopts *o)
{
	cJSON *m = cJSON_CreateObject();
	cJSON_AddStringToObject(m, "machine", t->machine);
	cJSON *rows = cJSON_AddArrayToObject(m, "rows");
	for (unsigned i = 0; i < VM__COUNT; i++) {
		const struct vrow *r = &t->rows[i];
		if (!r->measured)
			continue;
		cJSON *j = cJSON_CreateObject();
		cJSON_AddStringToObject(j, "metric", r->metric);
		cJSON_AddStringToObject(j, "unit", r->unit);
		cJSON_AddNumberToObject(j, "gpustep", r->gpustep);
		if (r->has_published) {
			cJSON_AddNumberToObject(j, "published", r->published);
			cJSON_AddStringToObject(j, "source", r->source);
			cJSON_AddNumberToObject(j, "ratio", r->published != 0 ? r->gpustep / r->published : 0);
		} else {
			cJSON_AddNullToObject(j, "published");
			cJSON_AddStringToObject(j, "source", "");
			cJSON_AddNullToObject(j, "ratio");
		}
		cJSON_AddStringToObject(j, "verdict", verdict(r, o));
		cJSON_AddNumberToObject(j, "tolerance_pct", r->is_bw ? o->tol_bw : o->tol_lat);
		if (r->unmet[0])
			cJSON_AddStringToObject(j, "reason", r->unmet);
		cJSON_AddStringToObject(j, "runs", r->how);
		cJSON_AddItemToArray(rows, j);
	}
	cJSON_AddItemToArray(machines, m);
}

static int parse_pct(const char *opt, const char *s, double *v)
{
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (errno || end == s || *end || !(d >= 0) || d > 1000) {
		fprintf(stderr, "gpustep validate: %s: expected a percentage 0..1000, got '%s'\n", opt, s);
		return -1;
	}
	*v = d;
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: gpustep validate [PRESET|CONFIG ...] [--quick] [--json FILE] [--tolerance PCT]\n"
		   "                        [--max-error PCT] [--plot DIR]\n"
		   "  each machine (default: qv100 titanv gtx480) runs the microbenchmarks; one table per\n"
		   "  machine: metric, gpustep, published, ratio, verdict, source (docs/VALIDATION.md)\n"
		   "  --quick          the latency rows only, with fewer iterations (seconds)\n"
		   "  --json FILE      the tables as JSON (rows: metric, gpustep, published, source, ratio)\n"
		   "  --tolerance PCT  one tolerance for every row (default 15 latencies, 20 bandwidths)\n"
		   "  --max-error PCT  exit 1 if a row with a published value is off by more than PCT\n"
		   "  --plot DIR       also the latency staircase per machine: DIR/staircase_NAME.png, .svg,\n"
		   "                   with its .dat and gnuplot .gp\n");
}

/* The preset or file stem: "configs/qv100.json" -> "qv100". */
static void machine_name(const char *spec, char *out, size_t n)
{
	const char *b = strrchr(spec, '/');
	b = b ? b + 1 : spec;
	size_t len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".json"))
		len -= 5;
	snprintf(out, n, "%.*s", (int)MIN(len, n - 1), b);
}

int validate_main(int argc, char **argv)
{
	struct vopts o = {.tol_lat = TOL_LATENCY, .tol_bw = TOL_BANDWIDTH, .max_error = -1};
	static const struct option lo[] = {{"quick", no_argument, NULL, 'q'},
					   {"json", required_argument, NULL, 'j'},
					   {"tolerance", required_argument, NULL, 't'},
					   {"max-error", required_argument, NULL, 'm'},
					   {"plot", required_argument, NULL, 'p'},
					   {"help", no_argument, NULL, 'h'},
					   {NULL, 0, NULL, 0}};
	optind = 1;
	for (int c; (c = getopt_long(argc, argv, "h", lo, NULL)) != -1;) {
		switch (c) {
		case 'q':
			o.quick = true;
			break;
		case 'j':
			o.json = optarg;
			break;
		case 't':
			if (parse_pct("--tolerance", optarg, &o.tol_lat))
				return 2;
			o.tol_bw = o.tol_lat;
			break;
		case 'p':
			o.plot = optarg;
			break;
		case 'm':
			if (parse_pct("--max-error", optarg, &o.max_error))
				return 2;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	static const char *const defaults[] = {"qv100", "titanv", "gtx480"};
	int nm = argc - optind;
	const char *const *specs = nm ? (const char *const *)argv + optind : defaults;
	if (!nm)
		nm = 3;
	cJSON *root = cJSON_CreateObject(), *machines = cJSON_AddArrayToObject(root, "machines");
	cJSON *allrows = cJSON_AddArrayToObject(root, "rows");
	int status = 0;
	double worst = 0;
	const char *worst_row = NULL;
	static char worst_buf[128];
	for (int i = 0; i < nm && status == 0; i++) {
		char *err = NULL;
		struct sim_cfg cfg;
		cfg_defaults(&cfg);
		struct vtable *t = xmalloc(sizeof(*t));
		char name[64];
		machine_name(specs[i], name, sizeof(name));
		if (loader_load_config(specs[i], &cfg, &err) || cfg_validate(&cfg, &err)) {
			fprintf(stderr, "gpustep validate: %s\n", err ? err : "invalid config");
			status = 2;
		} else if (validate_machine(&cfg, name, o.quick, t, &err)) {
			fprintf(stderr, "gpustep validate: %s: %s\n", name, err ? err : "failed");
			status = 1;
		} else {
			print_table(t, &o);
			json_add(machines, t, &o);
			if (o.plot) {
				static double pts[STAIR_MAX][2];
				int np = 0;
				if (staircase(&cfg, pts, &np, &err) || write_plot(o.plot, &cfg, t, pts, np, &err)) {
					fprintf(stderr, "gpustep validate: %s: %s\n", name, err ? err : "plot failed");
					status = 1;
				} else {
					cJSON *m = cJSON_GetArrayItem(machines, cJSON_GetArraySize(machines) - 1);
					cJSON *sc = cJSON_AddArrayToObject(m, "staircase");
					for (int k = 0; k < np; k++) {
						cJSON *pt = cJSON_CreateObject();
						cJSON_AddNumberToObject(pt, "bytes", pts[k][0]);
						cJSON_AddNumberToObject(pt, "cycles", pts[k][1]);
						cJSON_AddItemToArray(sc, pt);
					}
				}
			}
			for (unsigned k = 0; k < VM__COUNT; k++) {
				const struct vrow *r = &t->rows[k];
				if (!r->measured || !r->has_published)
					continue;
				double e = validate_error_pct(r);
				if (e > worst) {
					worst = e;
					snprintf(worst_buf, sizeof(worst_buf), "%s %s", name, r->metric);
					worst_row = worst_buf;
				}
			}
		}
		free(err);
		free(t);
	}
	/* "rows" at the top: every machine's rows, each naming its machine (scripts). */
	for (const cJSON *m = machines->child; m; m = m->next) {
		const char *mn = cJSON_GetObjectItemCaseSensitive(m, "machine")->valuestring;
		for (const cJSON *r = cJSON_GetObjectItemCaseSensitive(m, "rows")->child; r; r = r->next) {
			cJSON *c = cJSON_Duplicate(r, true);
			cJSON_AddStringToObject(c, "machine", mn);
			cJSON_AddItemToArray(allrows, c);
		}
	}
	if (status == 0 && o.json) {
		char *text = cJSON_Print(root), *err = NULL;
		if (write_file_atomic(o.json, text, &err)) {
			fprintf(stderr, "gpustep validate: --json %s: %s\n", o.json, err);
			free(err);
			status = 1;
		}
		free(text);
	}
	cJSON_Delete(root);
	if (status == 0 && o.max_error >= 0 && worst > o.max_error) {
		fprintf(stderr, "gpustep validate: %s is %.1f %% off its published value (--max-error %.1f)\n",
			worst_row, worst, o.max_error);
		status = 1;
	}
	return status;
}
