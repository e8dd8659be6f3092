/*
 * stats.c: the statistics registry as a table, in registration order:
 *
 *   NAME                       VALUE          DESCRIPTION
 *   l1.accesses                12345          L1 lookups
 *   l1.mshr.occupancy          2.31 (max 8/32) MSHR entries in use
 *   sm0.l1.hit_rate*           81.2%          derived: sm0.l1.hits / (hits + misses)
 *   dram.bandwidth*            12.3 B/cycle   derived: (dram.reads + dram.writes) x line / cycles
 *
 * Rows marked '*' are derived here: for every prefix P with counters P.hits
 * and P.misses and no registered P.hit_rate, a hit rate; for every P with
 * P.reads and P.writes counted in lines (mem.*, dram.*), the bandwidth in
 * bytes per core cycle and GB/s at the core clock. `/` filters by substring
 * of the name.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "search.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

enum derived_kind { DER_HIT_RATE, DER_BANDWIDTH };

struct derived {
	char name[96];
	enum derived_kind kind;
	int a, b; /* stat ids: hits, misses / reads, writes */
};

struct stats_panel {
	struct panel base;
	struct table t;
	struct search search;
	const struct stats *st;
	const struct stats *built_for; /* registry the derived list was built from */
	uint32_t built_n;
	struct derived *der;
	int nder;
	int *rows; /* >= 0: stat id; < 0: derived -1 - i */
	uint64_t cycles;
	int line, mhz;
	int nrows, cap;
};

/* NAME grows only to the longest name (set per registry in build_derived)
 * and narrows to 12 columns, names cut with a marker, before VALUE is dropped. */
static const struct table_col cols[] = {
	{"NAME", 24, 1, false},
	{"VALUE", 16, 0, false},
	{"DESCRIPTION", 12, 2, false},
};

/* If name is "<P><suffix>", look up "<P><other>" and name the result "<P><out>". */
static int sibling(const struct stats *st, const char *name, const char *suffix, const char *other, const char *out,
		   char *outname, size_t n)
{
	size_t len = strlen(name), sl = strlen(suffix);
	if (len <= sl || strcmp(name + len - sl, suffix) != 0)
		return -1;
	char buf[96];
	snprintf(buf, sizeof buf, "%.*s%s", (int)(len - sl), name, other);
	int id = stats_find(st, buf);
	snprintf(outname, n, "%.*s%s", (int)(len - sl), name, out);
	if (id < 0 || stats_find(st, outname) >= 0)
		return -1;
	return id;
}

static void add_derived(struct stats_panel *sp, int *cap, const char *name, enum derived_kind k, int a, int b)
{
	if (sp->nder == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		sp->der = xrealloc(sp->der, sizeof *sp->der * (size_t)*cap);
	}
	struct derived *d = &sp->der[sp->nder++];
	snprintf(d->name, sizeof d->name, "%s", name);
	d->kind = k;
	d->a = a;
	d->b = b;
}

static void build_derived(struct stats_panel *sp, const struct stats *st)
{
	free(sp->der);
	sp->der = NULL;
	sp->nder = 0;
	int cap = 0;
	for (uint32_t i = 0; i < st->n; i++) {
		const char *name = st->defs[i].name;
		char out[96];
		int j;
		if (st->defs[i].kind != STAT_COUNTER)
			continue;
		if ((j = sibling(st, name, ".hits", ".misses", ".hit_rate", out, sizeof out)) >= 0)
			add_derived(sp, &cap, out, DER_HIT_RATE, (int)i, j);
		/* Line counts of the memory side only: L1 reads/writes are requests. */
		if ((strncmp(name, "dram.", 5) == 0 || strncmp(name, "mem.", 4) == 0) &&
		    (j = sibling(st, name, ".reads", ".writes", ".bandwidth", out, sizeof out)) >= 0)
			add_derived(sp, &cap, out, DER_BANDWIDTH, (int)i, j);
	}
	sp->built_for = st;
	sp->built_n = st->n;
	size_t longest = 0;
	for (uint32_t i = 0; i < st->n; i++)
		longest = MAX(longest, strlen(st->defs[i].name));
	for (int i = 0; i < sp->nder; i++)
		longest = MAX(longest, strlen(sp->der[i].name) + 1); /* derived: "name*" */
	table_limit(&sp->t, 0, MAX(cols[0].width, (int)longest), 12);
}

static void stat_row(void *u, int row, struct table_row *r)
{
	struct stats_panel *sp = u;
	const struct stats *st = sp->st;
	int id = sp->rows[row];
	if (id < 0) {
		const struct derived *d = &sp->der[-1 - id];
		double a = stats_value(st, (uint32_t)d->a), b = stats_value(st, (uint32_t)d->b);
		snprintf(r->text[0], TABLE_CELL, "%s*", d->name);
		if (d->kind == DER_HIT_RATE) {
			if (a + b > 0)
				snprintf(r->text[1], TABLE_CELL, "%.1f%%", 100.0 * a / (a + b));
			else
				snprintf(r->text[1], TABLE_CELL, "-");
			snprintf(r->text[2], TABLE_CELL, "derived: %s / (hits + misses)", st->defs[d->a].name);
			r->attr[1] = role_attr(R_HIT);
		} else {
			double cyc = sp->cycles > 0 ? (double)sp->cycles : 1;
			double bpc = (a + b) * sp->line / cyc;
			snprintf(r->text[1], TABLE_CELL, "%.2f B/cyc", bpc);
			snprintf(r->text[2], TABLE_CELL, "derived: (reads + writes) x %d B / cycles = %.1f GB/s at %d MHz",
				 sp->line, bpc * sp->mhz / 1e3, sp->mhz);
		}
		return;
	}
	const struct stat_def *d = &st->defs[id];
	snprintf(r->text[0], TABLE_CELL, "%s", d->name);
	snprintf(r->text[2], TABLE_CELL, "%s", d->desc ? d->desc : "");
	switch (d->kind) {
	case STAT_COUNTER:
		snprintf(r->text[1], TABLE_CELL, "%llu", (unsigned long long)stats_counter_value(st, (uint32_t)id));
		break;
	case STAT_OCC: {
		const struct stat_occ *o = stats_occ(st, (uint32_t)id);
		snprintf(r->text[1], TABLE_CELL, "%.2f (max %llu/%llu)", stats_occ_mean(st, (uint32_t)id),
			 (unsigned long long)(o ? o->max : 0), (unsigned long long)(o ? o->capacity : 0));
		if (o && o->capacity && o->cur >= o->capacity)
			r->attr[1] = role_attr(R_STALL);
		break;
	}
	case STAT_HIST:
		snprintf(r->text[1], TABLE_CELL, "n=%.0f", stats_value(st, (uint32_t)id));
		break;
	case STAT_RATIO:
		snprintf(r->text[1], TABLE_CELL, "%.4g", stats_value(st, (uint32_t)id));
		break;
	}
	if (strstr(d->name, "hit"))
		r->attr[1] = role_attr(R_HIT);
	else if (strstr(d->name, "miss"))
		r->attr[1] = role_attr(R_MISS);
	else if (strstr(d->name, "conflict") || strstr(d->name, "nack") || strstr(d->name, "stall") ||
		 strstr(d->name, "full"))
		r->attr[1] = role_attr(R_STALL);
}

static void stats_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct stats_panel *sp = (struct stats_panel *)p;
	const struct stats *st = c->sim ? sim_stats_c(c->sim) : NULL;
	char label[96], info[128] = "";
	search_label(&sp->search, label, sizeof label);
	if (st) {
		if (sp->built_for != st || sp->built_n != st->n)
			build_derived(sp, st);
		int need = (int)st->n + sp->nder;
		if (need > sp->cap) {
			sp->cap = need;
			sp->rows = xrealloc(sp->rows, sizeof(int) * (size_t)need);
		}
		sp->nrows = 0;
		const char *f = sp->search.text;
		for (uint32_t i = 0; i < st->n; i++)
			if (!f[0] || strstr(st->defs[i].name, f))
				sp->rows[sp->nrows++] = (int)i;
		for (int i = 0; i < sp->nder; i++)
			if (!f[0] || strstr(sp->der[i].name, f))
				sp->rows[sp->nrows++] = -1 - i;
		if (sp->search.text[0])
			snprintf(info, sizeof info, "%d match  %s", sp->nrows, label);
		else
			snprintf(info, sizeof info, "%u stats%s%s", st->n + (unsigned)sp->nder, label[0] ? "  " : "", label);
	}
	struct rect r = view_frame(p, w, c, info);
	if (!st) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	sp->st = st;
	sp->cycles = sim_cycle(c->sim);
	sp->line = sim_cfg(c->sim)->l2.line;
	sp->mhz = sim_cfg(c->sim)->core.clock_mhz;
	table_draw(&sp->t, w, r, sp->nrows, c->focused, stat_row, sp);
	sp->st = NULL;
}

static int stats_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct stats_panel *sp = (struct stats_panel *)p;
	bool changed;
	int res = search_key(&sp->search, p, key, &changed);
	if (res) {
		if (changed)
			table_reset(&sp->t);
		return res;
	}
	return table_key(&sp->t, key);
}

static void stats_reset(struct panel *p)
{
	struct stats_panel *sp = (struct stats_panel *)p;
	table_reset(&sp->t);
	sp->built_for = NULL;
}

static void stats_free(struct panel *p)
{
	struct stats_panel *sp = (struct stats_panel *)p;
	free(sp->der);
	free(sp->rows);
	free(sp);
}

static const struct panel_ops stats_ops = {
	.name = "stats",
	.desc = "the statistics registry",
	.min_w = 30,
	.min_h = 3,
	.draw = stats_draw,
	.key = stats_key,
	.reset = stats_reset,
	.free = stats_free,
};

struct panel *stats_panel_new(void)
{
	struct stats_panel *sp = xcalloc(1, sizeof *sp);
	sp->base.ops = &stats_ops;
	sp->base.searchable = true;
	table_init(&sp->t, cols, (int)ARRAY_LEN(cols), true);
	table_limit(&sp->t, 0, 0, 12);
	return &sp->base;
}
