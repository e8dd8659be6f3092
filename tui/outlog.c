/*
 * outlog.c: command output scrollback (see outlog.h).
 */
#include "outlog.h"

#include <stdlib.h>
#include <string.h>

#include "views/draw.h"
#include "sim/util.h"

void outlog_init(struct outlog *o) { memset(o, 0, sizeof *o); }

void outlog_fini(struct outlog *o)
{
	for (int i = 0; i < o->n; i++)
		free(o->v[(o->start + i) % OUTLOG_CAP].text);
	o->n = 0;
}

static void add_one(struct outlog *o, const char *s, size_t n, enum out_kind k)
{
	int slot;
	if (o->n == OUTLOG_CAP) {
		slot = o->start;
		free(o->v[slot].text);
		o->start = (o->start + 1) % OUTLOG_CAP;
	} else {
		slot = (o->start + o->n++) % OUTLOG_CAP;
	}
	char *c = xmalloc(n + 1);
	memcpy(c, s, n);
	c[n] = 0;
	for (size_t i = 0; i < n; i++) /* tabs and control characters would break columns */
		if ((unsigned char)c[i] < 32)
			c[i] = ' ';
	o->v[slot].text = c;
	o->v[slot].kind = k;
	o->added++;
	o->scroll = 0;
	o->dirty = true;
}

void outlog_add(struct outlog *o, const char *text, enum out_kind k)
{
	const char *p = text;
	for (;;) {
		const char *e = strchr(p, '\n');
		if (!e) {
			if (*p || p == text)
				add_one(o, p, strlen(p), k);
			break;
		}
		add_one(o, p, (size_t)(e - p), k);
		p = e + 1;
	}
}

#define WRAP_MAX 64

static int rows_of(const char *s, int wd)
{
	size_t a[WRAP_MAX], b[WRAP_MAX];
	int n = wrap_rows(s, wd, a, b, WRAP_MAX);
	return n < WRAP_MAX ? n : WRAP_MAX;
}

void outlog_draw(struct outlog *o, WINDOW *w)
{
	int h = getmaxy(w), wd = getmaxx(w);
	werase(w);
	o->dirty = false;
	if (wd <= 0)
		return;
	/* Walk back from the newest line, wrapping long lines, skipping `scroll` rows. */
	int y = h - 1, skip = o->scroll;
	for (int i = o->n - 1; i >= 0 && y >= 0; i--) {
		const char *text = o->v[(o->start + i) % OUTLOG_CAP].text;
		enum out_kind k = o->v[(o->start + i) % OUTLOG_CAP].kind;
		attr_t a = k == OUT_ERROR ? role_attr(R_ERROR) : k == OUT_ECHO ? role_attr(R_HEADER) : 0;
		size_t rs[WRAP_MAX], re[WRAP_MAX];
		int nr = wrap_rows(text, wd, rs, re, WRAP_MAX);
		if (nr > WRAP_MAX)
			nr = WRAP_MAX; /* a line this long keeps its first rows */
		for (int r = nr - 1; r >= 0 && y >= 0; r--) {
			if (skip > 0) {
				skip--;
				continue;
			}
			char buf[1024];
			size_t n = re[r] - rs[r] < sizeof buf - 1 ? re[r] - rs[r] : sizeof buf - 1;
			memcpy(buf, text + rs[r], n);
			buf[n] = 0;
			put_text(w, y--, 0, wd, buf, a, false);
		}
	}
	if (o->scroll > 0)
		put_fmt(w, 0, wd > 24 ? wd - 24 : 0, 24, role_attr(R_SELECT), " scrolled up %d (PgDn) ", o->scroll);
}

void outlog_page(struct outlog *o, WINDOW *w, int pages)
{
	int h = getmaxy(w), wd = getmaxx(w), total = 0;
	if (wd <= 0)
		return;
	for (int i = 0; i < o->n; i++)
		total += rows_of(o->v[(o->start + i) % OUTLOG_CAP].text, wd);
	int page = h > 1 ? h - 1 : 1;
	o->scroll += pages * page;
	if (o->scroll > total - h)
		o->scroll = total - h;
	if (o->scroll < 0)
		o->scroll = 0;
	o->dirty = true;
}

char *outlog_tail(const struct outlog *o, int k)
{
	struct strbuf sb;
	sb_init(&sb);
	if (k > o->n)
		k = o->n;
	for (int i = o->n - k; i < o->n; i++)
		sb_printf(&sb, "%s\n", o->v[(o->start + i) % OUTLOG_CAP].text);
	return sb.s ? sb.s : xstrdup("");
}

int outlog_tail_rows(const struct outlog *o, int k, int wd)
{
	int rows = 0;
	if (k > o->n)
		k = o->n;
	for (int i = o->n - k; i < o->n && wd > 0; i++)
		rows += rows_of(o->v[(o->start + i) % OUTLOG_CAP].text, wd);
	return rows;
}
