/*
 * whatif_moved.c: the "what moved" table of `whatif` and `gpustep diff`
 * (whatif.h): stats that differ, ranked, per-unit copies of a total that
 * moved the same left out, printed grouped by structure with columns as
 * wide as what they hold.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "whatif.h"
#include "whatif_int.h"

int whatif_stat_rank(const void *x, const void *y)
{
	const struct whatif_stat *p = x, *q = y;
	double sp = fabs(p->rel) * log10(2 + fabs(p->d)), sq = fabs(q->rel) * log10(2 + fabs(q->d));
	if (sp != sq)
		return sp < sq ? 1 : -1;
	return strcmp(p->name, q->name);
}

void whatif_structure_of(const char *name, char *buf, size_t n)
{
	if (name[0] == 's' && name[1] == 'm' && name[2] >= '0' && name[2] <= '9') {
		const char *dot = strchr(name, '.');
		if (dot)
			name = dot + 1;
	}
	size_t k = strcspn(name, ".");
	snprintf(buf, n, "%.*s", (int)k, name);
}

/* name without its per-unit part (two or more letters and a number: sm3,
 * bank0, ch1; not l1 or l2) ("sm3.l1.nacks" -> "l1.nacks",
 * "l2.bank0.nacks" -> "l2.nacks"): false when it has none. */
static bool total_name(const char *name, char *buf, size_t n)
{
	const char *p = name;
	while (*p) {
		size_t k = strcspn(p, ".");
		size_t letters = 0;
		while (letters < k && p[letters] >= 'a' && p[letters] <= 'z')
			letters++;
		bool unit = letters >= 2 && letters < k && p[k] == '.';
		for (size_t i = letters; unit && i < k; i++)
			unit = p[i] >= '0' && p[i] <= '9';
		if (unit) {
			snprintf(buf, n, "%.*s%s", (int)(p - name), name, p + k + 1);
			return true;
		}
		p += k;
		if (*p)
			p++;
	}
	return false;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct whatif_stat *)x)->name, ((const struct whatif_stat *)y)->name);
}

uint32_t whatif_drop_unit_copies(struct whatif_stat *v, uint32_t m)
{
	struct whatif_stat *byn = xcalloc(m ? m : 1, sizeof *byn);
	memcpy(byn, v, m * sizeof *v);
	qsort(byn, m, sizeof *byn, by_name);
	uint32_t k = 0;
	for (uint32_t i = 0; i < m; i++) {
		char total[256];
		bool copy = false;
		if (total_name(v[i].name, total, sizeof total)) {
			struct whatif_stat key = {.name = total};
			const struct whatif_stat *t = bsearch(&key, byn, m, sizeof *byn, by_name);
			copy = t && t->a == v[i].a && t->b == v[i].b;
		}
		if (!copy)
			v[k++] = v[i];
	}
	free(byn);
	return k;
}

static int group_rank(const void *x, const void *y)
{
	const struct whatif_stat *p = x, *q = y;
	char gp[64], gq[64];
	whatif_structure_of(p->name, gp, sizeof gp);
	whatif_structure_of(q->name, gq, sizeof gq);
	int c = strcmp(gp, gq);
	return c ? c : whatif_stat_rank(x, y);
}

void whatif_print_changes(const struct whatif_out *out, const char *noun, const struct whatif_stat *v, uint32_t m,
			  uint32_t moved, const char *la, const char *lb)
{
	uint32_t top = m < WHATIF_TOP ? m : WHATIF_TOP;
	struct whatif_stat *t = xcalloc(top ? top : 1, sizeof *t);
	memcpy(t, v, top * sizeof *t);
	qsort(t, top, sizeof *t, group_rank);
	if (moved > m)
		OUT("what moved (%u %s differ; the %u largest, by structure; %u per-unit copies of a total that "
		    "moved the same left out):",
		    moved, noun, top, moved - m);
	else
		OUT("what moved (%u %s differ; the %u largest, by structure):", m, noun, top);
	/* Columns as wide as what they hold, so the table fits the 80-column
	 * pager and its numbers line up (fixed widths wrapped every row). */
	int wu = 4, ws = 4, wa = (int)strlen(la) > 10 ? (int)strlen(la) : 10, wb = (int)strlen(lb) > 10 ? (int)strlen(lb) : 10;
	for (uint32_t i = 0; i < top; i++) {
		char g[64];
		whatif_structure_of(t[i].name, g, sizeof g);
		if ((int)strlen(g) > wu)
			wu = (int)strlen(g);
		if ((int)strlen(t[i].name) > ws)
			ws = (int)strlen(t[i].name);
	}
	OUT("  %-*s %-*s %*s %*s %11s %8s", wu, "unit", ws, "stat", wa, la, wb, lb, "B-A", "rel");
	for (uint32_t i = 0; i < top; i++) {
		char g[64];
		whatif_structure_of(t[i].name, g, sizeof g);
		OUT("  %-*s %-*s %*.0f %*.0f %+11.0f %+7.1f%%", wu, g, ws, t[i].name, wa, t[i].a, wb, t[i].b, t[i].d,
		    t[i].a ? 100.0 * t[i].d / fabs(t[i].a) : 100.0);
	}
	free(t);
}
