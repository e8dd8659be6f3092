/*
 * whatif_each.c: `whatif --each` (whatif.h): one fork per change, each
 * against the same A, ranked by the cycles it saves, with a bar chart.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "whatif.h"
#include "whatif_int.h"

static void keep_first(void *u, const char *text)
{
	char *msg = u;
	if (!msg[0])
		snprintf(msg, 256, "%s", strncmp(text, "whatif: ", 8) == 0 ? text + 8 : text);
}

static int each_rank(const void *x, const void *y)
{
	const struct whatif_each_row *p = x, *q = y;
	if (p->ok != q->ok)
		return p->ok ? -1 : 1;
	if (p->delta != q->delta)
		return p->delta < q->delta ? -1 : 1;
	return strcmp(p->change, q->change);
}

int whatif_each(struct session *ss, const struct whatif_spec *w, const struct whatif_out *out,
		struct whatif_each_row **rows, int *n)
{
	struct whatif_each_row *v = xcalloc((size_t)w->nkeys, sizeof *v);
	struct whatif_spec *one = xmalloc(sizeof *one);
	struct whatif_out q = *out;
	q.print = NULL;
	q.error = NULL;
	int ran = 0;
	for (int i = 0; i < w->nkeys; i++) {
		struct whatif_each_row *e = &v[i];
		snprintf(e->change, sizeof e->change, "%s=%s", w->keys[i], w->vals[i]);
		whatif_spec_init(one, &ss->cfg);
		one->span = w->span;
		one->cycles = w->cycles;
		one->from_start = w->from_start;
		snprintf(one->until, sizeof one->until, "%s", w->until);
		char *err = NULL;
		if (whatif_spec_add(one, e->change, &err) || whatif_spec_check(one, &err)) {
			snprintf(e->msg, sizeof e->msg, "%s", err ? err : "invalid");
			free(err);
			continue;
		}
		struct whatif_result r;
		/* the first line of why a run is refused, kept for its row */
		struct whatif_out c = q;
		c.error = keep_first;
		c.u = e->msg;
		if (whatif_run(ss, one, &c, true, &r))
			continue;
		if (r.interrupted) {
			whatif_result_free(&r);
			free(one);
			free(v);
			ERR("whatif --each: interrupted (Ctrl-C) during %s; the machine you step is as it was", w->keys[i]);
			return -1;
		}
		e->ok = true;
		ran++;
		e->cycles_a = sim_cycle(r.a) - r.start_cycle;
		e->cycles_b = sim_cycle(r.b) - r.start_cycle;
		e->delta = (int64_t)e->cycles_b - (int64_t)e->cycles_a;
		e->parted = r.part.parted;
		e->part_cycle = r.part.cycle;
		if (r.nchanges)
			snprintf(e->top, sizeof e->top, "%s %+.0f", r.changes[0].name, r.changes[0].d);
		whatif_result_free(&r);
	}
	free(one);
	if (!ran) {
		for (int i = 0; i < w->nkeys; i++)
			ERR("whatif --each: %s: %s", v[i].change, v[i].msg);
		free(v);
		return -1;
	}
	qsort(v, (size_t)w->nkeys, sizeof *v, each_rank);
	int64_t most = 1;
	for (int i = 0; i < w->nkeys; i++)
		if (v[i].ok && (v[i].delta < 0 ? -v[i].delta : v[i].delta) > most)
			most = v[i].delta < 0 ? -v[i].delta : v[i].delta;
	uint64_t base = 0;
	for (int i = 0; i < w->nkeys; i++)
		if (v[i].ok)
			base = v[i].cycles_a;
	OUT("whatif --each: %d changes, one fork each; A as is takes %llu cycles%s; the most cycles saved first",
	    w->nkeys, (unsigned long long)base, w->from_start ? " from cycle 0" : " from the stop");
	OUT("  %-28s %10s %9s  %-41s %s", "change", "cycles", "B-A", "(bar: each # is 1/20 of the largest)",
	    "moved most");
	for (int i = 0; i < w->nkeys; i++) {
		struct whatif_each_row *e = &v[i];
		if (!e->ok) {
			OUT("  %-28s %s", e->change, e->msg);
			continue;
		}
		/* 20 cells either side of a bar '|': left for fewer cycles. */
		char bar[48];
		int len = (int)((e->delta < 0 ? -e->delta : e->delta) * 20 / most);
		if (e->delta && !len)
			len = 1;
		memset(bar, ' ', 41);
		bar[41] = 0;
		bar[20] = '|';
		for (int k = 0; k < len; k++)
			bar[e->delta < 0 ? 19 - k : 21 + k] = '#';
		OUT("  %-28s %10llu %+9lld  %s %s", e->change, (unsigned long long)e->cycles_b, (long long)e->delta, bar,
		    e->parted ? e->top : "(identical)");
	}
	*rows = v;
	*n = w->nkeys;
	return 0;
}
