/*
 * test_coh_views.c: the coherence inspection panels drawn off-screen: the
 * coherence panel (transaction log + the directory entry of the line of the
 * coh.transition that fired) and the protocol panel (MOESI tables with the
 * IM_D -> M row marked) at 80x24 and 132x40, stopped at the first transition
 * to M of vecadd under MOESI; the L1 cache panel with state letters; the
 * message both panels give without a protocol; `/` filters; `select line`;
 * `help protocol`. Also the events panel bringing a stop's event into view
 * (it shares the drawing helper).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

/* break on the first transition to M (b = 4, enum coh_state) */
#define COH_SETUP "set coherence.protocol moesi\nbreak coh.transition to=M\ncontinue\n"

static char *draw_text(struct session *ss, const char *panel, int w, int h, const struct event *stop,
		       const char *keys)
{
	struct panel *p = panel_create(panel);
	REQUIRE(p != NULL);
	WINDOW *win = newwin(h, w, 0, 0);
	REQUIRE(win != NULL);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = ss->sel_sm, .sel_l2 = ss->sel_l2, .sel_line = ss->sel_line,
			     .sel_line_set = ss->sel_line_set, .stop_ev = stop, .focused = true};
	panel_draw(p, win, &c);
	for (const char *k = keys; k && *k; k++)
		panel_key(p, *k, &c);
	if (keys)
		panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

static void snap(struct session *ss, const char *panel, int w, int h, const char *name)
{
	char *text = draw_text(ss, panel, w, h, &ss->bps.stop_ev, NULL);
	CHECK_SNAPSHOT(name, text);
	free(text);
}

TEST(view_coherence_and_protocol_snapshots)
{
	vt_screen();
	struct session *ss = vt_session(COH_SETUP);
	REQUIRE(ss != NULL);
	/* the stop selected the transition's line */
	CHECK(ss->sel_line_set);
	CHECK_EQ(ss->bps.stop_ev.kind, EV_COH_TRANSITION);
	snap(ss, "coherence", 80, 24, "coherence_80x24");
	snap(ss, "coherence", 132, 40, "coherence_132x40");
	snap(ss, "protocol", 80, 24, "protocol_80x24");
	snap(ss, "protocol", 132, 40, "protocol_132x40");
	snap(ss, "cache", 80, 24, "cache_coh_80x24");
	snap(ss, "cache", 132, 40, "cache_coh_132x40");
	char *t = draw_text(ss, "coherence", 132, 40, NULL, NULL);
	char want[64];
	snprintf(want, sizeof want, "line 0x%llx (selected)", (unsigned long long)ss->sel_line);
	CHECK_CONTAINS(t, want);
	CHECK_CONTAINS(t, "dir X  owner sm");
	CHECK_CONTAINS(t, "IM_D -> M");
	free(t);
	t = draw_text(ss, "protocol", 132, 40, NULL, NULL);
	CHECK_CONTAINS(t, "> IM_D  DataX    -> M");
	CHECK_CONTAINS(t, "last L1 transition");
	free(t);
	/* tall enough for both tables: the directory's newest (state, request) row is marked too */
	t = draw_text(ss, "protocol", 132, 80, NULL, NULL);
	CHECK_CONTAINS(t, "> I  GetX     -> X");
	free(t);
	t = draw_text(ss, "cache", 132, 40, NULL, NULL);
	CHECK_CONTAINS(t, " M D");
	free(t);
	vt_session_free(ss);
}

TEST(view_coherence_filter_and_select_line)
{
	vt_screen();
	struct session *ss = vt_session(COH_SETUP);
	REQUIRE(ss != NULL);
	/* only NACK-free GetX traffic of SM 1 */
	char *t = draw_text(ss, "coherence", 132, 40, NULL, "/GetX sm=1\n");
	CHECK_CONTAINS(t, "filter: GetX sm=1");
	CHECK_CONTAINS(t, " GetX ");
	CHECK(strstr(t, " Unblock") == NULL);
	CHECK(strstr(t, " DataX    IM_D") == NULL);
	free(t);
	/* the words also match the state after a transition */
	t = draw_text(ss, "coherence", 132, 40, NULL, "/M\n");
	CHECK_CONTAINS(t, "IM_D -> M");
	CHECK(strstr(t, "-> IS_D") == NULL);
	free(t);
	char line[80];
	snprintf(line, sizeof line, "/0x%llx\n", (unsigned long long)ss->sel_line);
	t = draw_text(ss, "coherence", 132, 40, NULL, line);
	CHECK(strstr(t, "0x10000380") == NULL || ss->sel_line == 0x10000380);
	free(t);
	vt_exec(ss, "select line 0x10000300\n");
	CHECK(ss->sel_line_set);
	CHECK_EQ(ss->sel_line, 0x10000300);
	t = draw_text(ss, "coherence", 132, 40, NULL, NULL);
	CHECK_CONTAINS(t, "line 0x10000300 (selected)");
	free(t);
	vt_exec(ss, "select line last\n");
	CHECK(!ss->sel_line_set);
	t = draw_text(ss, "coherence", 132, 40, NULL, NULL);
	CHECK_CONTAINS(t, "(newest)");
	free(t);
	vt_session_free(ss);
}

TEST(view_coherence_without_protocol_says_how_to_enable)
{
	vt_screen();
	struct session *ss = vt_session("step 10\n");
	REQUIRE(ss != NULL);
	char *t = draw_text(ss, "coherence", 120, 6, NULL, NULL);
	CHECK_CONTAINS(t, "no coherence protocol");
	CHECK_CONTAINS(t, "coherence.protocol=moesi");
	free(t);
	t = draw_text(ss, "protocol", 120, 6, NULL, NULL);
	CHECK_CONTAINS(t, "no coherence protocol");
	free(t);
	/* the plain cache grid has no state letters */
	t = draw_text(ss, "cache", 132, 40, NULL, NULL);
	CHECK(strstr(t, "state (MOESI") == NULL);
	free(t);
	vt_session_free(ss);
}

static void cap_line(void *u, const char *t) { sb_printf(u, "%s\n", t); }

TEST(help_protocol_prints_the_tables)
{
	vt_screen();
	struct session *ss = vt_session(COH_SETUP);
	REQUIRE(ss != NULL);
	struct strbuf sb;
	sb_init(&sb);
	struct cmd_out out = {cap_line, cap_line, &sb};
	CHECK_EQ(cmd_exec(ss, "help protocol", &out), CMD_OK);
	CHECK_CONTAINS(sb.s, "moesi:");
	CHECK_CONTAINS(sb.s, "> IM_D  DataX    -> M");
	CHECK_CONTAINS(sb.s, "directory table");
	sb.len = 0;
	sb.s[0] = 0;
	CHECK_EQ(cmd_exec(ss, "help protocol si", &out), CMD_OK);
	CHECK_CONTAINS(sb.s, "si:");
	sb_fini(&sb);
	vt_session_free(ss);
	/* without a protocol: the command's own help */
	ss = vt_session(NULL);
	REQUIRE(ss != NULL);
	sb_init(&sb);
	out.u = &sb;
	CHECK_EQ(cmd_exec(ss, "help protocol", &out), CMD_OK);
	CHECK_CONTAINS(sb.s, "usage: protocol");
	sb_fini(&sb);
	vt_session_free(ss);
}

/* At a stop the events panel brings the stopping event into view even when
 * the cycle's later events would fill it (the log otherwise follows the
 * newest); without a stop it shows the newest at the bottom. */
TEST(view_events_shows_the_stop_event)
{
	vt_screen();
	struct session *ss = vt_session("workload gather_random\nlog all\nbreak cta.launch\ncontinue\n");
	REQUIRE(ss != NULL);
	REQUIRE(ss->bps.stop_ev.kind == EV_CTA_LAUNCH);
	/* Enough events after it in its cycle that a 6-row panel (4 event rows)
	 * following the newest would not show it. */
	uint64_t after = 0;
	const struct events *ev = sim_events_c(ss->sim);
	for (uint64_t i = 0; i < 64; i++) {
		const struct event *e = events_recent(ev, i);
		REQUIRE(e != NULL);
		if (e->kind == EV_CTA_LAUNCH && e->cycle == ss->bps.stop_ev.cycle && e->a == ss->bps.stop_ev.a)
			break;
		after++;
	}
	REQUIRE(after >= 4);
	char *with = draw_text(ss, "events", 80, 6, &ss->bps.stop_ev, NULL);
	char *without = draw_text(ss, "events", 80, 6, NULL, NULL);
	CHECK(strstr(with, "sm=0 cta=0") != NULL);
	CHECK(strstr(without, "sm=0 cta=0") == NULL);
	free(with);
	free(without);
	vt_session_free(ss);
}

/* The coherence panel does the same for a coh.* stop: gtx480's shared_write
 * logs 30 transactions in cycle 1, SM 0's Store I -> IM_D first; stopped on
 * it, an 8-row panel (3 entry rows, header, 4 table rows) showed the newest
 * four (SM 13 and 14) and not the stop's row (before the fix). */
TEST(view_coherence_shows_the_stop_transaction)
{
	vt_screen();
	struct session *ss = vt_session("load gtx480\nworkload shared_write\nset coherence.protocol moesi\n"
					"break coh.transition\ncontinue\n");
	REQUIRE(ss != NULL);
	REQUIRE(ss->bps.stop_ev.kind == EV_COH_TRANSITION);
	REQUIRE(ss->bps.stop_ev.sm == 0);
	char *with = draw_text(ss, "coherence", 80, 8, &ss->bps.stop_ev, NULL);
	char *without = draw_text(ss, "coherence", 80, 8, NULL, NULL);
	/* the stop's line: 0x10000080 with gtx480's two schedulers (warp 1 issues first in cycle 1) */
	char row[96];
	snprintf(row, sizeof row, "0x%08llx     0    - L1   Store    I -> IM_D", (unsigned long long)ss->bps.stop_ev.addr);
	CHECK(strstr(with, row) != NULL);
	CHECK(strstr(without, row) == NULL);
	free(with);
	free(without);
	vt_session_free(ss);
}

/* With a `/` filter the events title says how many events it lets through,
 * as the stats panel does (before: only "N logged  filter: ..."). */
TEST(view_events_filter_counts_matches)
{
	vt_screen();
	struct session *ss = vt_session("log all\nstep 60\n");
	REQUIRE(ss != NULL);
	const struct events *ev = sim_events_c(ss->sim);
	uint64_t n = events_logged(ev), want = 0;
	for (uint64_t i = 0; i < n && i < ev->cap; i++) {
		const struct event *e = events_recent(ev, i);
		want += e && e->kind == EV_WARP_ISSUE;
	}
	REQUIRE(want > 0 && want < n);
	char *t = draw_text(ss, "events", 100, 10, NULL, "/warp.issue\n");
	char title[96];
	snprintf(title, sizeof title, "%llu logged, %llu match  filter: warp.issue", (unsigned long long)n,
		 (unsigned long long)want);
	CHECK_CONTAINS(t, title);
	free(t);
	vt_session_free(ss);
}
