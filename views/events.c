/*
 * events.c: the event log panel: the engine's bounded ring, oldest at the
 * top, newest at the bottom (the view follows the tail until you scroll up;
 * End follows again).
 *
 *      CYCLE EVENT              FIELDS
 *      10234 l1.miss            sm=0 warp=3 addr=0x10080 set=2
 *      10240 dram.row_conflict  ch=0 bank=3 row=31 addr=0x3e000 open_row=2   <- fired breakpoint (reverse)
 *
 * `/` filters what is shown (not what is logged; `log` decides that): words
 * are matched against the event name (any word may match), field=value terms
 * (sm=0 bank=3 addr=0x1000, or a kind's own names: to=M class=capacity)
 * must all hold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "search.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

#define EV_MAX_TERMS 8

struct events_panel {
	struct panel base;
	struct table t;
	struct search search;
	const struct events *ev;
	const struct event *stop_ev;
	uint64_t n;         /* events in the ring */
	uint64_t *idx;      /* filtered: recency index (0 = newest) per row, oldest first */
	uint64_t nidx, cap;
	bool stop_shown; /* the current stop's event was brought into view */
	struct event shown_ev; /* ... and which event that was (a new stop differs) */
	/* parsed filter */
	char names[EV_MAX_TERMS][32];
	int nnames;
	char fname[EV_MAX_TERMS][24]; /* resolved per event kind: "to" means b of coh.transition */
	char ftext[EV_MAX_TERMS][24]; /* a number or a value name ("M", "associativity") */
	int nf;
};

static const struct table_col cols[] = {
	{"CYCLE", 9, 0, true},
	{"EVENT", 18, 0, false},
	{"FIELDS", 10, 1, false},
};

static void parse_filter(struct events_panel *ep)
{
	ep->nnames = ep->nf = 0;
	char buf[64];
	snprintf(buf, sizeof buf, "%s", ep->search.text);
	for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		if (eq && ep->nf < EV_MAX_TERMS) {
			*eq = 0;
			snprintf(ep->fname[ep->nf], sizeof ep->fname[0], "%s", tok);
			snprintf(ep->ftext[ep->nf++], sizeof ep->ftext[0], "%s", eq + 1);
		} else if (!eq && ep->nnames < EV_MAX_TERMS) {
			snprintf(ep->names[ep->nnames++], sizeof ep->names[0], "%s", tok);
		}
	}
}

/* field=value for this event's kind; a kind without the field does not match. */
static bool term_holds(const struct event *e, const char *name, const char *text)
{
	unsigned bit = event_field_resolve(e->kind, name);
	if (!bit)
		return false;
	int64_t v;
	char *end;
	v = strtoll(text, &end, 0);
	if (end == text || *end) {
		if (event_field_code(e->kind, bit, text, &v))
			return false;
	}
	return event_field_value(e, bit) == v;
}

static bool matches(const struct events_panel *ep, const struct event *e)
{
	if (e->kind >= EV__COUNT)
		return false;
	const struct event_def *d = &event_defs[e->kind];
	if (ep->nnames) {
		bool any = false;
		for (int i = 0; i < ep->nnames && !any; i++)
			any = strstr(d->name, ep->names[i]) != NULL;
		if (!any)
			return false;
	}
	for (int i = 0; i < ep->nf; i++)
		if (!term_holds(e, ep->fname[i], ep->ftext[i]))
			return false;
	return true;
}

static enum role kind_role(unsigned k)
{
	switch (k) {
	case EV_L1_HIT:
	case EV_L2_HIT:
	case EV_DRAM_ROW_HIT:
		return R_HIT;
	case EV_L1_MISS:
	case EV_L2_MISS:
	case EV_DRAM_ROW_MISS:
		return R_MISS;
	case EV_DRAM_ROW_CONFLICT:
	case EV_WARP_STALL:
	case EV_L1_MSHR_FULL:
	case EV_L2_NACK:
	case EV_DRAM_QUEUE_FULL:
	case EV_SHMEM_CONFLICT:
	case EV_ICNT_STALL:
	case EV_L2_SET_ALL_TRANSIENT:
		return R_STALL;
	default:
		return R_NORMAL;
	}
}

static void format_fields(const struct event *e, char *buf, size_t n)
{
	unsigned f = event_defs[e->kind].fields;
	size_t len = 0;
	buf[0] = 0;
	for (unsigned i = 0; i < 10 && len + 1 < n; i++) {
		unsigned bit = 1u << i;
		if (!(f & bit))
			continue;
		int64_t v = event_field_value(e, bit);
		const char *name = event_field_name_of(e->kind, bit);
		const char *code = event_field_code_name(e->kind, bit, v);
		int k;
		if (code)
			k = snprintf(buf + len, n - len, "%s%s=%s", len ? " " : "", name, code);
		else if (bit == EVF_ADDR) /* rows in decimal, as the stop report prints them */
			k = snprintf(buf + len, n - len, "%s%s=0x%llx", len ? " " : "", name, (unsigned long long)v);
		else
			k = snprintf(buf + len, n - len, "%s%s=%lld", len ? " " : "", name, (long long)v);
		if (k < 0 || (size_t)k >= n - len)
			break;
		len += (size_t)k;
	}
}

static void event_row(void *u, int row, struct table_row *r)
{
	struct events_panel *ep = u;
	uint64_t rec = ep->search.text[0] ? ep->idx[row] : ep->n - 1 - (uint64_t)row;
	const struct event *e = events_recent(ep->ev, rec);
	if (!e || e->kind >= EV__COUNT)
		return;
	snprintf(r->text[0], TABLE_CELL, "%llu", (unsigned long long)e->cycle);
	snprintf(r->text[1], TABLE_CELL, "%s", event_defs[e->kind].name);
	format_fields(e, r->text[2], TABLE_CELL);
	r->attr[1] = role_attr(kind_role(e->kind));
	if (ep->stop_ev && view_same_event(e, ep->stop_ev))
		r->row_attr = role_attr(R_BREAK);
}

static void events_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct events_panel *ep = (struct events_panel *)p;
	char info[160] = "", label[96];
	const struct events *ev = c->sim ? sim_events_c(c->sim) : NULL;
	ep->n = 0;
	bool logging = false;
	if (ev) {
		uint64_t total = events_logged(ev);
		ep->n = total < ev->cap ? total : ev->cap;
		for (int i = 0; i < EV_MASK_WORDS; i++)
			logging |= ev->log_mask[i] != 0;
	}
	uint64_t rows = ep->n;
	if (ev && ep->search.text[0]) {
		parse_filter(ep);
		if (ep->n > ep->cap) {
			ep->cap = ep->n;
			ep->idx = xrealloc(ep->idx, sizeof(uint64_t) * ep->cap);
		}
		ep->nidx = 0;
		for (uint64_t i = ep->n; i-- > 0;) {
			const struct event *e = events_recent(ev, i);
			if (e && matches(ep, e))
				ep->idx[ep->nidx++] = i;
		}
		rows = ep->nidx;
	}
	if (ev) { /* with a filter, how many rows it lets through (as the stats panel) */
		char shown[32] = "";
		if (ep->search.text[0])
			snprintf(shown, sizeof shown, ", %llu match", (unsigned long long)rows);
		search_label(&ep->search, label, sizeof label);
		snprintf(info, sizeof info, "%llu logged%s%s%s%s", (unsigned long long)events_logged(ev), shown,
			 logging ? "" : "  (logging off: try `log all`)", label[0] ? "  " : "", label);
	}
	struct rect r = view_frame(p, w, c, info);
	if (!ev) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	ep->ev = ev;
	ep->stop_ev = c->stop_ev;
	/* At a new breakpoint stop, the events logged after the stopping one in
	 * the same cycle can fill the panel: bring the stop event into view
	 * (once per stop, at the top, the cycle's later events below it).
	 * Following the newest resumes when the run goes on, also when it goes
	 * from one stop straight to the next (no frame without a stop between). */
	if (ep->stop_shown && (!c->stop_ev || !view_same_event(c->stop_ev, &ep->shown_ev))) {
		ep->t.follow = true;
		ep->stop_shown = false;
	}
	if (c->stop_ev && !ep->stop_shown && !ep->search.text[0] && ep->t.follow) {
		ep->stop_shown = true;
		ep->shown_ev = *c->stop_ev;
		int vis = r.h - 1; /* the header takes a row */
		for (uint64_t i = 0; i < ep->n && i < 65536; i++) {
			const struct event *e = events_recent(ev, i);
			if (e && view_same_event(e, c->stop_ev)) {
				if (vis > 0 && i >= (uint64_t)vis) {
					ep->t.nrows = (int)rows;
					ep->t.visible = vis;
					table_show(&ep->t, (int)(ep->n - 1 - i));
				}
				break;
			}
		}
	}
	table_draw(&ep->t, w, r, (int)rows, c->focused, event_row, ep);
	ep->ev = NULL;
	ep->stop_ev = NULL;
}

static int events_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct events_panel *ep = (struct events_panel *)p;
	bool changed;
	int res = search_key(&ep->search, p, key, &changed);
	if (res) {
		if (changed)
			ep->t.follow = true;
		return res;
	}
	return table_key(&ep->t, key);
}

static void events_reset(struct panel *p)
{
	struct events_panel *ep = (struct events_panel *)p;
	table_reset(&ep->t);
	ep->t.follow = true;
}

static void events_free(struct panel *p)
{
	free(((struct events_panel *)p)->idx);
	free(p);
}

static const struct panel_ops events_ops = {
	.name = "events",
	.desc = "the event log",
	.min_w = 30,
	.min_h = 3,
	.draw = events_draw,
	.key = events_key,
	.reset = events_reset,
	.free = events_free,
};

struct panel *events_panel_new(void)
{
	struct events_panel *ep = xcalloc(1, sizeof *ep);
	ep->base.ops = &events_ops;
	ep->base.searchable = true;
	table_init(&ep->t, cols, (int)ARRAY_LEN(cols), true);
	ep->t.follow = true;
	return &ep->base;
}
