/*
 * sweep_plot.c: `gpustep sweep table` (markdown) and `gpustep sweep plot`
 * (gnuplot) over a sweep's results.
 *
 * Both group jobs by the values of one or two dimensions and aggregate a stat
 * over the jobs of a group (the dimensions not named: other workloads, seeds)
 * with mean (default), geomean or sum. A group with a job that has no result
 * shows "n/a" (table) or is left out (plot), never a partial aggregate.
 */
#include "sweep_data.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "export/stats_json.h"
#include "sim/util.h"

/* Distinct display values of dim d in job order; numeric ones sorted. */
static char **dim_values(const struct sweep *sw, int d, int *n)
{
	char **v = xcalloc((size_t)sw->njobs + 1, sizeof(char *));
	int cnt = 0;
	bool numeric = true;
	for (int i = 0; i < sw->njobs; i++) {
		char *s = sweep_display(sw, &sw->jobs[i], d);
		bool seen = false;
		for (int k = 0; k < cnt && !seen; k++)
			seen = strcmp(v[k], s) == 0;
		if (seen) {
			free(s);
			continue;
		}
		numeric &= sweep_is_number(s, NULL);
		v[cnt++] = s;
	}
	for (int a = 1; numeric && a < cnt; a++) /* insertion sort by value */
		for (int b = a; b > 0; b--) {
			double x, y;
			sweep_is_number(v[b - 1], &x);
			sweep_is_number(v[b], &y);
			if (x <= y)
				break;
			char *t = v[b];
			v[b] = v[b - 1];
			v[b - 1] = t;
		}
	*n = cnt;
	return v;
}

static void free_values(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Aggregate `stat` over jobs whose dim d1 shows v1 (and d2 v2 when d2 >= 0).
 * false when a job of the group has no value (or the group is empty). */
static bool aggregate(const struct sweep_data *sd, const char *stat, int d1, const char *v1, int d2, const char *v2,
		      const char *agg, double *out)
{
	const struct sweep *sw = sd->sw;
	double sum = 0, logsum = 0;
	int n = 0;
	bool geo = agg && strcmp(agg, "geomean") == 0, total = agg && strcmp(agg, "sum") == 0;
	for (int i = 0; i < sw->njobs; i++) {
		char *a = sweep_display(sw, &sw->jobs[i], d1);
		char *b = d2 >= 0 ? sweep_display(sw, &sw->jobs[i], d2) : NULL;
		bool in = strcmp(a, v1) == 0 && (!b || strcmp(b, v2) == 0);
		free(a);
		free(b);
		if (!in)
			continue;
		double v;
		if (!sweep_data_value(sd, i, stat, &v))
			return false;
		if (geo && v <= 0)
			return false;
		sum += v;
		logsum += geo ? log(v) : 0;
		n++;
	}
	if (!n)
		return false;
	*out = geo ? exp(logsum / n) : total ? sum : sum / n;
	return true;
}

static int find_dim(const struct sweep *sw, const char *opt, const char *name)
{
	int d = sweep_dim_find(sw, name);
	if (d < 0) {
		fprintf(stderr, "gpustep sweep: %s %s: not a dimension of %s (dimensions:", opt, name, sw->spec_path);
		for (int k = 0; k < sw->ndims; k++)
			fprintf(stderr, " %s", sw->dims[k].name);
		fprintf(stderr, ")\n");
	}
	return d;
}

/* Every job with a result must have the stat (a typo would give an empty table). */
static bool check_stat(const struct sweep_data *sd, const char *stat)
{
	for (int i = 0; i < sd->sw->njobs; i++) {
		double v;
		if (sd->res[i].doc && !sweep_data_value(sd, i, stat, &v)) {
			fprintf(stderr, "gpustep sweep: stat '%s' is not a number in the result of job %d "
					"(gpustep --list-stats; histograms are not aggregated)\n",
				stat, i);
			return false;
		}
	}
	return true;
}

/* --fmt: text with exactly one conversion %[flags][width][.prec](f|g|e)
 * (F, G, E too), flags from "-+ #0", width at most 64 and precision at most
 * 30, and %% for a percent sign. Anything else (%n, %s, %d, two
 * conversions, %.100000000f) is refused: the text is a printf format. */
#define FMT_MAX_WIDTH 64
#define FMT_MAX_PREC 30
int sweep_fmt_check(const char *fmt, char **err)
{
	int conv = 0;
	for (const char *p = fmt; *p; p++) {
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return set_err(err, "--fmt '%s': holds a control character", fmt);
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		const char *start = p++;
		while (*p && strchr("-+ #0", *p))
			p++;
		long width = 0, prec = 0;
		while (*p >= '0' && *p <= '9' && width <= FMT_MAX_WIDTH)
			width = width * 10 + (*p++ - '0');
		if (width > FMT_MAX_WIDTH)
			return set_err(err, "--fmt '%s': width at most %d", fmt, FMT_MAX_WIDTH);
		if (*p == '.') {
			p++;
			while (*p >= '0' && *p <= '9' && prec <= FMT_MAX_PREC)
				prec = prec * 10 + (*p++ - '0');
			if (prec > FMT_MAX_PREC)
				return set_err(err, "--fmt '%s': precision at most %d", fmt, FMT_MAX_PREC);
		}
		if (!*p || !strchr("fgeFGE", *p))
			return set_err(err,
				       "--fmt '%s': '%.*s' is not a number conversion; expected %%[flags][width][.prec]f, g or e "
				       "(e.g. %%.3f, %%8.2e, %%.3f%%%%)",
				       fmt, (int)(p - start) + (*p ? 1 : 0), start);
		conv++;
	}
	if (conv != 1)
		return set_err(err, "--fmt '%s': needs exactly one conversion such as %%.3f (%%%% for a percent sign), found %d",
			       fmt, conv);
	return 0;
}

static void fmt_value(struct strbuf *sb, const char *fmt, double v, bool counts)
{
	if (counts && v == floor(v) && fabs(v) < 1e15) /* counts stay counts (not ratios to --base) */
		sb_printf(sb, "%.0f", v);
	else
		sb_printf(sb, fmt ? fmt : "%.3f", v);
}

int sweep_table(struct sweep *sw, const struct sweep_opts *o)
{
	if (!o->rows || !o->stats || o->x || o->y || o->by || o->o || o->db || o->csv || o->log) {
		fprintf(stderr, "gpustep sweep table: needs --rows DIM and --stats STAT,... (optional --cols DIM, --agg, "
				"--fmt, --md FILE, --out DIR)\n");
		return EXIT_USAGE;
	}
	char *ferr = NULL;
	if (o->fmt && sweep_fmt_check(o->fmt, &ferr)) {
		fprintf(stderr, "gpustep sweep table: %s\n", ferr);
		free(ferr);
		return EXIT_USAGE;
	}
	int dr = find_dim(sw, "--rows", o->rows), dc = o->cols ? find_dim(sw, "--cols", o->cols) : -1;
	if (dr < 0 || (o->cols && dc < 0))
		return EXIT_USAGE;
	char *stats = xstrdup(o->stats), *save = NULL;
	char *names[64];
	int ns = 0;
	for (char *t = strtok_r(stats, ",", &save); t && ns < 64; t = strtok_r(NULL, ",", &save))
		names[ns++] = t;
	if (dc >= 0 && ns != 1) {
		fprintf(stderr, "gpustep sweep table: with --cols, give one stat (--stats NAME)\n");
		free(stats);
		return EXIT_USAGE;
	}
	struct sweep_data sd;
	sweep_data_load(&sd, sw);
	int rc = EXIT_OK;
	for (int k = 0; k < ns && !rc; k++)
		if (!check_stat(&sd, names[k]))
			rc = EXIT_USAGE;
	int nr = 0, nc = 0;
	if (!rc && o->base) {
		bool found = false;
		for (int i = 0; i < sw->njobs && !found; i++) {
			char *v = sweep_display(sw, &sw->jobs[i], dr);
			found = strcmp(v, o->base) == 0;
			free(v);
		}
		if (!found) {
			fprintf(stderr, "gpustep sweep table: --base %s: no job has %s = %s\n", o->base, o->rows, o->base);
			rc = EXIT_USAGE;
		}
	}
	char **rows = rc ? NULL : dim_values(sw, dr, &nr), **cols = dc >= 0 && !rc ? dim_values(sw, dc, &nc) : NULL;
	/* The spec's baseline (unless --base): every cell against the cell
	 * with the baseline's value of the rows (and columns) dimension. */
	const char *brow = NULL, *bcol = NULL;
	for (int k = 0; k < sw->nbase && !o->base; k++) {
		if (sw->base_dim[k] == dr)
			brow = sw->base_val[k];
		if (dc >= 0 && sw->base_dim[k] == dc)
			bcol = sw->base_val[k];
	}
	bool vs = brow || bcol;
	if (!rc && sw->nbase && !vs && !o->base)
		fprintf(stderr, "gpustep sweep table: the spec's baseline names %s; give it as --rows or --cols to compare "
				"with it\n",
			sw->dims[sw->base_dim[0]].name);
	struct strbuf sb;
	sb_init(&sb);
	if (!rc) {
		sb_printf(&sb, "| %s", sw->dims[dr].name);
		if (vs) { /* the baseline, in the first header cell */
			sb_puts(&sb, " (vs baseline");
			if (brow)
				sb_printf(&sb, " %s=%s", sw->dims[dr].name, brow);
			if (bcol)
				sb_printf(&sb, " %s=%s", sw->dims[dc].name, bcol);
			sb_puts(&sb, ")");
		}
		sb_puts(&sb, " |");
		for (int c = 0; c < (dc >= 0 ? nc : ns); c++)
			sb_printf(&sb, " %s |", dc >= 0 ? cols[c] : names[c]);
		sb_puts(&sb, "\n|---|");
		for (int c = 0; c < (dc >= 0 ? nc : ns); c++)
			sb_puts(&sb, "---|");
		sb_puts(&sb, "\n");
		for (int r = 0; r < nr; r++) {
			sb_printf(&sb, "| %s |", rows[r]);
			for (int c = 0; c < (dc >= 0 ? nc : ns); c++) {
				double v, b = 1;
				bool ok = dc >= 0 ? aggregate(&sd, names[0], dr, rows[r], dc, cols[c], o->agg, &v)
						  : aggregate(&sd, names[c], dr, rows[r], -1, NULL, o->agg, &v);
				if (ok && o->base) /* relative to the base row's cell of this column */
					ok = (dc >= 0 ? aggregate(&sd, names[0], dr, o->base, dc, cols[c], o->agg, &b)
						      : aggregate(&sd, names[c], dr, o->base, -1, NULL, o->agg, &b)) &&
					     b != 0;
				v /= b;
				sb_puts(&sb, " ");
				if (ok)
					fmt_value(&sb, o->fmt, v, !o->base);
				else
					sb_puts(&sb, "n/a");
				if (ok && vs) {
					const char *rv = brow ? brow : rows[r], *cv = dc >= 0 ? (bcol ? bcol : cols[c]) : NULL;
					double w;
					bool has = dc >= 0 ? aggregate(&sd, names[0], dr, rv, dc, cv, o->agg, &w)
							   : aggregate(&sd, names[c], dr, rv, -1, NULL, o->agg, &w);
					if (strcmp(rv, rows[r]) == 0 && (!cv || strcmp(cv, cols[c]) == 0))
						sb_puts(&sb, " (baseline)");
					else if (!has)
						sb_puts(&sb, " (baseline n/a)");
					else if (w == 0)
						sb_puts(&sb, v == 0 ? " (+0.0%)" : " (baseline 0)");
					else
						sb_printf(&sb, " (%+.1f%%)", 100.0 * (v - w) / fabs(w));
				}
				sb_puts(&sb, " |");
			}
			sb_puts(&sb, "\n");
		}
		char *err = NULL;
		if (o->md && write_file_atomic(o->md, sb.s, &err)) {
			fprintf(stderr, "gpustep sweep table: %s\n", err);
			free(err);
			rc = EXIT_RUNTIME;
		} else if (!o->md) {
			fputs(sb.s, stdout);
		}
		if (sd.nfailed + sd.nmissing)
			fprintf(stderr, "gpustep sweep table: %d of %d jobs have no result (n/a cells)\n",
				sd.nfailed + sd.nmissing, sw->njobs);
	}
	sb_fini(&sb);
	if (rows)
		free_values(rows, nr);
	if (cols)
		free_values(cols, nc);
	sweep_data_free(&sd);
	free(stats);
	return rc;
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

/* A gnuplot string in single quotes: gnuplot expands nothing there (no
 * backquoted commands, no escapes); a quote is written twice. Control
 * characters never get here (gp_check). */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

/* A label in the data file: in double quotes (spaces stay one column);
 * gnuplot reads data as data, a " becomes ' as the file has no escape. */
static void gp_data_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		fputc(*s == '"' ? '\'' : *s, f);
	fputc('"', f);
}

/* Every text that reaches the script: a newline would end the command. */
static bool gp_check(const char *what, const char *s)
{
	char *err = NULL;
	if (!path_check_printable(what, s, &err))
		return true;
	fprintf(stderr, "gpustep sweep plot: %s\n", err);
	free(err);
	return false;
}

int sweep_plot(struct sweep *sw, const struct sweep_opts *o)
{
	if (!o->x || !o->y || !o->o || o->rows || o->cols || o->db || o->csv || o->md || o->stats || o->base) {
		fprintf(stderr, "gpustep sweep plot: needs --x DIM --y STAT -o FILE.png|FILE.svg (optional --by DIM, --agg, "
				"--out DIR)\n");
		return EXIT_USAGE;
	}
	size_t ol = strlen(o->o);
	bool png = ol > 4 && strcmp(o->o + ol - 4, ".png") == 0, svg = ol > 4 && strcmp(o->o + ol - 4, ".svg") == 0;
	if (!png && !svg) {
		fprintf(stderr, "gpustep sweep plot: -o %s: the name must end in .png or .svg\n", o->o);
		return EXIT_USAGE;
	}
	int dx = find_dim(sw, "--x", o->x), db = o->by ? find_dim(sw, "--by", o->by) : -1;
	if (dx < 0 || (o->by && db < 0))
		return EXIT_USAGE;
	if (!gp_check("-o", o->o) || !gp_check("--y", o->y))
		return EXIT_USAGE;
	for (int i = 0; i < sw->njobs; i++) /* names and values in labels and titles */
		for (int d = 0; d < sw->ndims; d++) {
			char *v = sweep_display(sw, &sw->jobs[i], d);
			bool ok = gp_check(sw->dims[d].name, v);
			free(v);
			if (!ok)
				return EXIT_USAGE;
		}
	if (!have_gnuplot()) {
		fprintf(stderr, "gpustep sweep plot: gnuplot is not installed; install it with:\n"
				"  sudo apt-get install -y gnuplot-nox\n");
		return EXIT_RUNTIME;
	}
	struct sweep_data sd;
	sweep_data_load(&sd, sw);
	if (!check_stat(&sd, o->y)) {
		sweep_data_free(&sd);
		return EXIT_USAGE;
	}
	int nx, nb = 1;
	char **xs = dim_values(sw, dx, &nx), **bs = db >= 0 ? dim_values(sw, db, &nb) : NULL;
	bool numeric = true;
	for (int i = 0; i < nx; i++)
		numeric &= sweep_is_number(xs[i], NULL);
	char dir[] = "/tmp/gpustep-plot.XXXXXX";
	int rc = EXIT_OK, points = 0;
	if (!mkdtemp(dir)) {
		fprintf(stderr, "gpustep sweep plot: mkdtemp: %s\n", strerror(errno));
		rc = EXIT_RUNTIME;
		goto out;
	}
	char *data = xasprintf("%s/data", dir), *script = xasprintf("%s/plot.gp", dir);
	FILE *f = fopen(data, "w");
	for (int b = 0; f && b < nb; b++) {
		fprintf(f, "# block %d\n", b);
		for (int x = 0; x < nx; x++) {
			double v;
			bool ok = db >= 0 ? aggregate(&sd, o->y, dx, xs[x], db, bs[b], o->agg, &v)
					  : aggregate(&sd, o->y, dx, xs[x], -1, NULL, o->agg, &v);
			if (ok) {
				fprintf(f, "%d ", x);
				if (numeric) /* a number as such (strtod took all of it: no space, no quote) */
					fputs(xs[x], f);
				else
					gp_data_str(f, xs[x]);
				fprintf(f, " %.17g\n", v);
				points++;
			}
		}
		fprintf(f, "\n\n");
	}
	if (f)
		fclose(f);
	FILE *g = fopen(script, "w");
	if (g) {
		fprintf(g, "set terminal %s size 800,500 font \"sans,11\"\nset output ", png ? "pngcairo" : "svg");
		gp_str(g, o->o);
		fprintf(g, "\nset termoption noenhanced\nset grid\nset key outside right\n");
		if (!numeric) /* category labels */
			fprintf(g, "set xtics rotate by -30\nset offsets 0.3,0.3,0,0\n");
		if (o->log && strchr(o->log, 'x') && numeric)
			fprintf(g, "set logscale x 2\n");
		if (o->log && strchr(o->log, 'y'))
			fprintf(g, "set logscale y\n");
		fprintf(g, "set xlabel ");
		gp_str(g, sw->dims[dx].name);
		fprintf(g, "\nset ylabel ");
		gp_str(g, o->y);
		fprintf(g, "\nset title ");
		char *t = xasprintf("%s (%s)", o->y, o->agg ? o->agg : "mean");
		gp_str(g, t);
		free(t);
		fprintf(g, "\nplot");
		for (int b = 0; b < nb; b++) {
			fprintf(g, "%s ", b ? ", \\\n    " : "");
			gp_str(g, data);
			fprintf(g, " index %d using %s with linespoints lw 2 pt 7 title ", b,
				numeric ? "2:3" : "1:3:xtic(2)");
			char *title = bs ? xasprintf("%s=%s", sw->dims[db].name, bs[b]) : xstrdup(o->y);
			gp_str(g, title);
			free(title);
		}
		fprintf(g, "\n");
		fclose(g);
	}
	if (!f || !g) {
		fprintf(stderr, "gpustep sweep plot: cannot write in %s\n", dir);
		rc = EXIT_RUNTIME;
	} else if (!points) {
		fprintf(stderr, "gpustep sweep plot: no job has a result yet (run gpustep sweep %s)\n", sw->spec_path);
		rc = EXIT_RUNTIME;
	} else {
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			execlp("gnuplot", "gnuplot", script, (char *)NULL);
			_exit(127);
		}
		int st = 0;
		if (pid < 0 || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st)) {
			fprintf(stderr, "gpustep sweep plot: gnuplot failed (script %s)\n", script);
			rc = EXIT_RUNTIME;
		} else {
			fprintf(stderr, "gpustep sweep plot: wrote %s (%d points)\n", o->o, points);
		}
	}
	if (!rc) {
		unlink(data);
		unlink(script);
		rmdir(dir);
	}
	free(data);
	free(script);
out:
	free_values(xs, nx);
	if (bs)
		free_values(bs, nb);
	sweep_data_free(&sd);
	return rc;
}
