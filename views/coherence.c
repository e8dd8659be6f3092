/*
 * coherence.c: the coherence panel: the directory entry of the selected line
 * above the engine's coherence transaction log (the last 512 L1 transitions,
 * directory transitions, messages and dir_locked NACKs; inspect_coh_tx),
 * oldest at the top, newest at the bottom (followed until you scroll up;
 * End follows again).
 *
 *   line 0x10000080 (newest)  L2 bank 1 set 2 way 0
 *   dir X  owner sm0  sharers {sm0}  lock unblock (requester sm0, 0 acks due)
 *   copies: sm0 IM_D
 *      CYCLE LINE         SM BANK KIND MESSAGE  TRANSITION
 *        212 0x10000080    0    1 L1   store    I -> IM_D
 *        212 0x10000080    0    1 msg  GetX
 *        230 0x10000080    0    1 dir  GetX     I -> X
 *
 * The selected line is the one `select line ADDR` names, the line of the
 * coh.* event that fired the last breakpoint, or else the newest
 * transaction's line. Its rows are bold; NACK rows yellow; the event that
 * fired the breakpoint reverse.
 *
 * `/` filters the rows: `sm=N`, `bank=N`, `addr=ADDR` (or a bare 0x...
 * address: the same line) must all hold; words match (any of them) a
 * message or event name or kind as a substring (GetX, Data, nack, L1) or
 * the state after the transition exactly (M).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "draw.h"
#include "debug/inspect.h"
#include "search.h"
#include "table.h"
#include "sim/util.h"
#include "view.h"

#define COH_VIEW_LOG 512 /* the engine's log (COH_LOG) */
#define COH_MAX_WORDS 6

struct coh_panel {
	struct panel base;
	struct table t;
	struct search search;
	const struct sim *sim;
	const struct event *stop_ev;
	struct event shown_ev;       /* the stop brought into view (stop_shown) */
	bool stop_shown;
	uint64_t n;                  /* transactions in the log */
	uint64_t linemask, sel_line;
	uint16_t idx[COH_VIEW_LOG];  /* filtered: recency index per row, oldest first */
	int nidx;
	/* parsed filter */
	char words[COH_MAX_WORDS][24];
	int nwords;
	int sm, bank;                /* -1 = any */
	bool has_line;
	uint64_t line;
};

static const struct table_col cols[] = {
	{"CYCLE", 8, 0, true}, {"LINE", 12, 0, false},    {"SM", 3, 0, true},
	{"BANK", 4, 0, true},  {"KIND", 4, 0, false},     {"MESSAGE", 8, 0, false},
	{"TRANSITION", 12, 1, false},
};

static const char *const kind_names[] = {"L1", "dir", "msg", "NACK"};

static const char *tx_message(const struct coh_tx_info *t)
{
	return t->kind == 0 ? coh_event_name(t->msg) : coh_msg_name(t->msg);
}

static bool ieq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return *a == *b;
}

static bool isub(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return n == 0;
}

static void parse_filter(struct coh_panel *cp)
{
	cp->nwords = 0;
	cp->sm = cp->bank = -1;
	cp->has_line = false;
	char buf[64];
	snprintf(buf, sizeof buf, "%s", cp->search.text);
	for (char *save = NULL, *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '=');
		const char *val = eq ? eq + 1 : tok;
		if (eq)
			*eq = 0;
		if (eq && strcmp(tok, "sm") == 0) {
			cp->sm = (int)strtol(val, NULL, 0);
		} else if (eq && strcmp(tok, "bank") == 0) {
			cp->bank = (int)strtol(val, NULL, 0);
		} else if ((eq && (strcmp(tok, "addr") == 0 || strcmp(tok, "line") == 0)) ||
			   (!eq && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X'))) {
			cp->has_line = true;
			cp->line = strtoull(val, NULL, 0) & cp->linemask;
		} else if (!eq && cp->nwords < COH_MAX_WORDS) {
			snprintf(cp->words[cp->nwords++], sizeof cp->words[0], "%s", tok);
		}
	}
}

static bool tx_to_state_is(const struct coh_tx_info *t, const char *w)
{
	if (t->kind == 0)
		return ieq(coh_state_name(t->to), w);
	if (t->kind == 1)
		return ieq(coh_dstate_name(t->to), w);
	return false;
}

static bool matches(const struct coh_panel *cp, const struct coh_tx_info *t)
{
	if (cp->sm >= 0 && t->sm != cp->sm)
		return false;
	if (cp->bank >= 0 && t->bank != cp->bank)
		return false;
	if (cp->has_line && (t->addr & cp->linemask) != cp->line)
		return false;
	if (!cp->nwords)
		return true;
	for (int i = 0; i < cp->nwords; i++) {
		const char *w = cp->words[i];
		if (isub(tx_message(t), w) || (t->kind < 4 && isub(kind_names[t->kind], w)) || tx_to_state_is(t, w))
			return true;
	}
	return false;
}

static bool is_stop_event(const struct event *e, const struct coh_tx_info *t)
{
	if (!e || e->cycle != t->cycle || e->addr != t->addr || e->sm != t->sm)
		return false;
	switch (e->kind) {
	case EV_COH_TRANSITION:
		return t->kind == 0 && (unsigned)e->a == t->from && (unsigned)e->b == t->to;
	case EV_COH_MSG:
		return t->kind == 2 && (unsigned)e->a == t->msg;
	case EV_COH_NACK:
		return t->kind == 3 && (unsigned)e->a == t->msg;
	default:
		return false;
	}
}

static void tx_row(void *u, int row, struct table_row *r)
{
	struct coh_panel *cp = u;
	uint64_t rec = cp->search.text[0] ? cp->idx[row] : cp->n - 1 - (uint64_t)row;
	struct coh_tx_info t;
	if (!inspect_coh_tx(cp->sim, rec, &t))
		return;
	snprintf(r->text[0], TABLE_CELL, "%llu", (unsigned long long)t.cycle);
	snprintf(r->text[1], TABLE_CELL, "0x%llx", (unsigned long long)(t.addr & cp->linemask));
	snprintf(r->text[2], TABLE_CELL, "%d", t.sm);
	if (t.bank >= 0)
		snprintf(r->text[3], TABLE_CELL, "%d", t.bank);
	else
		snprintf(r->text[3], TABLE_CELL, "-");
	snprintf(r->text[4], TABLE_CELL, "%s", t.kind < 4 ? kind_names[t.kind] : "?");
	snprintf(r->text[5], TABLE_CELL, "%s", tx_message(&t));
	if (t.kind == 0)
		snprintf(r->text[6], TABLE_CELL, "%s -> %s", coh_state_name(t.from), coh_state_name(t.to));
	else if (t.kind == 1)
		snprintf(r->text[6], TABLE_CELL, "%s -> %s", coh_dstate_name(t.from), coh_dstate_name(t.to));
	else if (t.kind == 3)
		snprintf(r->text[6], TABLE_CELL, "dir_locked (%s)", coh_dstate_name(t.from));
	if (t.kind == 3)
		r->attr[4] = r->attr[6] = role_attr(R_STALL);
	else if (t.kind == 0 && (t.to == CS_M || t.to == CS_E || t.to == CS_O || t.to == CS_N))
		r->attr[6] = role_attr(R_HIT);
	if ((t.addr & cp->linemask) == cp->sel_line)
		r->row_attr = role_attr(R_HEADER);
	if (is_stop_event(cp->stop_ev, &t))
		r->row_attr = role_attr(R_BREAK);
}

/* The directory entry and the L1 copies of the selected line: 3 rows. */
static int dir_draw(const struct coh_panel *cp, WINDOW *w, struct rect r, const char *why)
{
	const struct sim *s = cp->sim;
	char buf[512];
	struct coh_dir_info d;
	bool ok = inspect_coh_dir(s, cp->sel_line, &d);
	int len = snprintf(buf, sizeof buf, "line 0x%llx (%s)  ", (unsigned long long)cp->sel_line, why);
	if (ok && d.present)
		snprintf(buf + len, sizeof buf - (size_t)len, "L2 bank %d set %d way %d", d.bank, d.set, d.way);
	else if (ok)
		snprintf(buf + len, sizeof buf - (size_t)len, "not in the L2 (bank %d set %d): no directory entry", d.bank,
			 d.set);
	put_text(w, r.y, r.x, r.w, buf, role_attr(R_HEADER), false);
	if (r.h < 2)
		return 1;
	if (ok && d.present) {
		len = snprintf(buf, sizeof buf, "dir %s  owner ", coh_dstate_name(d.dstate));
		len += d.owner >= 0 ? snprintf(buf + len, sizeof buf - (size_t)len, "sm%d", d.owner)
				    : snprintf(buf + len, sizeof buf - (size_t)len, "-");
		len += snprintf(buf + len, sizeof buf - (size_t)len, "  sharers {");
		int nsm = inspect_sms(s);
		for (int i = 0, k = 0; i < nsm && i < 256 && len < (int)sizeof buf - 16; i++)
			if (d.sharers[i >> 6] >> (i & 63) & 1)
				len += snprintf(buf + len, sizeof buf - (size_t)len, "%ssm%d", k++ ? "," : "", i);
		len += snprintf(buf + len, sizeof buf - (size_t)len, "}  lock %s", d.lock);
		if (d.locked)
			snprintf(buf + len, sizeof buf - (size_t)len, " (requester sm%u, %u acks due)", d.req_sm, d.acks);
		put_text(w, r.y + 1, r.x, r.w, buf, d.locked ? role_attr(R_STALL) : A_NORMAL, false);
	} else {
		put_text(w, r.y + 1, r.x, r.w, "dir -", role_attr(R_DIM), false);
	}
	if (r.h < 3)
		return 2;
	len = snprintf(buf, sizeof buf, "copies:");
	int nsm = inspect_sms(s), k = 0;
	for (int i = 0; i < nsm && len < (int)sizeof buf - 16; i++) {
		int st = inspect_coh_l1_state(s, i, cp->sel_line);
		if (st >= 0 && st != CS_I) {
			len += snprintf(buf + len, sizeof buf - (size_t)len, " sm%d %s", i, coh_state_name((unsigned)st));
			k++;
		}
	}
	if (!k)
		snprintf(buf + len, sizeof buf - (size_t)len, " none");
	put_text(w, r.y + 2, r.x, r.w, buf, k ? A_NORMAL : role_attr(R_DIM), false);
	return 3;
}

/* At a new stop on a coh.* event, the transactions logged after it in the
 * same cycle can fill the table: bring the stop's row into view (once per
 * stop, as the events panel does; following resumes at the next stop). */
static void show_stop(struct coh_panel *cp, const struct view_ctx *c, int vis, uint64_t rows)
{
	if (cp->stop_shown && (!c->stop_ev || !view_same_event(c->stop_ev, &cp->shown_ev))) {
		cp->t.follow = true;
		cp->stop_shown = false;
	}
	if (!c->stop_ev || cp->stop_shown || cp->search.text[0] || !cp->t.follow)
		return;
	cp->stop_shown = true;
	cp->shown_ev = *c->stop_ev;
	for (uint64_t i = 0; i < cp->n; i++) {
		struct coh_tx_info t;
		if (inspect_coh_tx(cp->sim, i, &t) && is_stop_event(c->stop_ev, &t)) {
			if (vis > 0 && i >= (uint64_t)vis) {
				cp->t.nrows = (int)rows;
				cp->t.visible = vis;
				table_show(&cp->t, (int)(cp->n - 1 - i));
			}
			return;
		}
	}
}

static void coh_draw(struct panel *p, WINDOW *w, const struct view_ctx *c)
{
	struct coh_panel *cp = (struct coh_panel *)p;
	const struct coh_proto *proto = c->sim ? inspect_coh_proto(c->sim) : NULL;
	char info[200] = "", label[96];
	struct coh_tx_info newest;
	bool any = proto && inspect_coh_tx(c->sim, 0, &newest);
	cp->n = 0;
	if (proto) {
		while (cp->n < COH_VIEW_LOG && inspect_coh_tx(c->sim, cp->n, &newest))
			cp->n++;
		any = inspect_coh_tx(c->sim, 0, &newest);
		search_label(&cp->search, label, sizeof label);
		snprintf(info, sizeof info, "%s  %llu in the log%s%s", proto->name, (unsigned long long)cp->n,
			 label[0] ? "  " : "", label);
	}
	struct rect r = view_frame(p, w, c, info);
	if (!c->sim) {
		put_text(w, r.y, r.x, r.w, "no simulator", role_attr(R_DIM), false);
		return;
	}
	if (!proto) {
		put_wrapped(w, r.y, r.x, r.w, r.h,
			    "no coherence protocol: start with -s coherence.protocol=moesi (or si, nmoesi), or `set "
			    "coherence.protocol moesi` at cycle 0",
			    role_attr(R_DIM));
		return;
	}
	struct cache_geom g;
	cp->linemask = inspect_cache_geom(c->sim, CACHE_L2, 0, &g) && g.line > 0 ? ~(uint64_t)(g.line - 1) : ~(uint64_t)0;
	cp->sim = c->sim;
	cp->stop_ev = c->stop_ev;
	const char *why = "selected";
	if (c->sel_line_set)
		cp->sel_line = c->sel_line & cp->linemask;
	else if (any)
		cp->sel_line = newest.addr & cp->linemask, why = "newest";
	if (!c->sel_line_set && !any) {
		put_text(w, r.y, r.x, r.w, "no coherence transaction yet (step or continue)", role_attr(R_DIM), false);
		cp->sim = NULL;
		return;
	}
	/* The entry takes up to 3 rows while the table keeps its header and 3 rows. */
	int dh = r.h - 4 < 3 ? r.h - 4 : 3;
	int top = dh > 0 ? dir_draw(cp, w, (struct rect){r.y, r.x, dh, r.w}, why) : 0;
	r.y += top;
	r.h -= top;
	uint64_t rows = cp->n;
	if (cp->search.text[0]) {
		parse_filter(cp);
		cp->nidx = 0;
		for (uint64_t i = cp->n; i-- > 0;) {
			struct coh_tx_info t;
			if (inspect_coh_tx(c->sim, i, &t) && matches(cp, &t))
				cp->idx[cp->nidx++] = (uint16_t)i;
		}
		rows = (uint64_t)cp->nidx;
	}
	show_stop(cp, c, r.h - 1, rows);
	table_draw(&cp->t, w, r, (int)rows, c->focused, tx_row, cp);
	cp->sim = NULL;
	cp->stop_ev = NULL;
}

static int coh_key(struct panel *p, int key, const struct view_ctx *c)
{
	(void)c;
	struct coh_panel *cp = (struct coh_panel *)p;
	bool changed;
	int res = search_key(&cp->search, p, key, &changed);
	if (res) {
		if (changed)
			cp->t.follow = true;
		return res;
	}
	return table_key(&cp->t, key);
}

static void coh_reset(struct panel *p)
{
	struct coh_panel *cp = (struct coh_panel *)p;
	table_reset(&cp->t);
	cp->t.follow = true;
	cp->stop_shown = false;
}

static void coh_free(struct panel *p) { free(p); }

static const struct panel_ops coh_ops = {
	.name = "coherence",
	.desc = "coherence transactions (newest at the bottom, / filters) and the selected line's directory entry",
	.min_w = 40,
	.min_h = 4,
	.draw = coh_draw,
	.key = coh_key,
	.reset = coh_reset,
	.free = coh_free,
};

struct panel *coherence_panel_new(void)
{
	struct coh_panel *cp = xcalloc(1, sizeof *cp);
	cp->base.ops = &coh_ops;
	cp->base.searchable = true;
	table_init(&cp->t, cols, (int)ARRAY_LEN(cols), true);
	cp->t.follow = true;
	return &cp->base;
}
