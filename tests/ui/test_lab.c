/*
 * test_lab.c: issue 22, what a lab on coalescing, MSHRs, DRAM row buffers
 * and reuse needs from the screen and the debugger commands: the events
 * panel following every stop, gdb's habits, the legends of every column,
 * the coalescer and DRAM queue views, watchpoints on a line's movements.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "core/coalesce.h"
#include "dram/dram_queue.h"
#include "debug/inspect.h"
#include "views/legend.h"
#include "sesstest.h"
#include "session/session_file.h"
#include "test.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

static char *screen_row(int y, char *buf, size_t n) { return draw_read_row(curscr, y, buf, n); }

/* A screen row whose text contains `needle` drawn with the breakpoint
 * colours (the event that fired), or -1. */
static int highlighted_row(const char *needle)
{
	char row[512];
	for (int y = 1; y < LINES; y++) {
		screen_row(y, row, sizeof row);
		char *p = strstr(row, needle);
		if (!p || strstr(row, "Breakpoint") || strstr(row, "stopped"))
			continue;
		cchar_t cc;
		mvwin_wch(curscr, y, (int)(p - row), &cc);
		attr_t a;
		short pair;
		wchar_t wc[CCHARW_MAX + 1];
		getcchar(&cc, wc, &a, &pair, NULL);
		if ((a & A_BOLD) && pair == PAIR_NUMBER(role_attr(R_BREAK)))
			return y;
	}
	return -1;
}

/* Item 1: every stop brings its own event into the events panel, not only
 * the first one after a run that ended without a breakpoint. */
TEST(lab_events_panel_follows_every_stop)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "workload stencil2d");
	tui_exec(t, "log all");
	tui_exec(t, "break l1.mshr_merge");
	for (int i = 0; i < 4; i++) {
		CHECK(tui_exec(t, "continue") & CMD_RUN);
		tui_run_to_stop(t);
		tui_frame(t);
		/* The highlighted row is this stop's event (cycle, sm, addr). */
		const struct event *e = &ss->bps.stop_ev;
		char want[96];
		snprintf(want, sizeof want, "%llu l1.mshr_merge      sm=%d warp=%d addr=0x%llx",
			 (unsigned long long)e->cycle, e->sm, e->warp, (unsigned long long)e->addr);
		int y = highlighted_row("l1.mshr_merge");
		if (y < 0) {
			test_fail(__FILE__, __LINE__, "stop %d: the stop event is not highlighted", i + 1);
			continue;
		}
		char row[512];
		CHECK_CONTAINS(screen_row(y, row, sizeof row), want);
	}
	tui_exec(t, "delete");
	tui_exec(t, "run 0");
	tui_exec(t, "break dram.row_conflict");
	for (int i = 0; i < 3; i++) {
		tui_exec(t, "continue");
		tui_run_to_stop(t);
		tui_frame(t);
		int y = highlighted_row("dram.row_conflict");
		CHECK(y > 0);
		/* Item 11: the log prints the row as the stop line does (row=1, not row=0x1). */
		char row[512], want[48];
		snprintf(want, sizeof want, " row=%d ", ss->bps.stop_ev.row);
		if (y > 0) {
			CHECK_CONTAINS(screen_row(y, row, sizeof row), want);
			CHECK(strstr(row, "row=0x") == NULL);
		}
		CHECK_CONTAINS(ss->bps.stop_reason, want);
	}
	vt_tui_stop(t, ss);
}

static double stat_of(const struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	return id < 0 ? -1 : stats_value(sim_stats_c(s), (uint32_t)id);
}

/* A warp.stall event for (sm, warp, reason) logged in cycle c. */
static bool stall_event_logged(const struct sim *s, uint64_t c, int sm, int warp, unsigned reason)
{
	const struct events *ev = sim_events_c(s);
	uint64_t n = events_logged(ev) < ev->cap ? events_logged(ev) : ev->cap;
	for (uint64_t i = 0; i < n; i++) {
		const struct event *e = events_recent(ev, i);
		if (!e || e->cycle < c)
			break;
		if (e->cycle == c && e->kind == EV_WARP_STALL && e->sm == sm && e->warp == warp && e->a == (int64_t)reason)
			return true;
	}
	return false;
}

/* Item 2: every state a warp shows has its event and its counter under the
 * same name. Cycle by cycle through the default kernel: each time a warp's
 * state becomes a stall reason, `warp.stall reason=R` for that warp was
 * logged in that cycle; the mshr_full state (warps held at issue behind the
 * full MSHR file) also counts in l1.mshr_full and core.stall.mshr_full. */
TEST(lab_every_warp_state_has_its_event_and_counter)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "log all");
	struct sim *s = f.ss.sim;
	int nsm = inspect_sms(s), nw = inspect_warp_slots(s);
	unsigned prev[8][64] = {{0}};
	REQUIRE(nsm <= 8 && nw <= 64);
	unsigned missing = 0, mshr_states = 0;
	uint64_t mshr_full_cycles = 0;
	while (!sim_done(s) && sim_cycle(s) < 20000) {
		uint64_t c = sim_cycle(s);
		sim_step(s, 1);
		bool any_mshr = false;
		for (int sm = 0; sm < nsm; sm++)
			for (int w = 0; w < nw; w++) {
				struct warp_info wi;
				if (!inspect_warp(s, sm, w, &wi))
					continue;
				unsigned r = wi.state == WS_STALLED ? (unsigned)wi.stall : STALL_NONE;
				if (r != STALL_NONE && r != prev[sm][w]) {
					if (!stall_event_logged(s, c, sm, w, r) && missing++ < 3)
						test_fail(__FILE__, __LINE__, "cycle %llu: sm %d warp %d shows %s, no warp.stall",
							  (unsigned long long)c, sm, w, stall_reason_name(r));
					mshr_states += r == STALL_MSHR_FULL;
				}
				any_mshr |= r == STALL_MSHR_FULL;
				prev[sm][w] = r;
			}
		mshr_full_cycles += any_mshr;
	}
	CHECK_EQ(missing, 0);
	CHECK(mshr_states > 0); /* the kernel does show the state (issue 22: cycle 508, warps 3-6) */
	CHECK_EQ(stat_of(s, "l1.mshr_full"), mshr_states);
	CHECK(stat_of(s, "core.stall.mshr_full") > 0);
	CHECK(stat_of(s, "core.stall.mshr_full") <= mshr_full_cycles * (uint64_t)nsm);
	fx_run(&f, "run 0");
	fx_run(&f, "break warp.stall reason=mshr_full");
	CHECK(fx_run(&f, "continue") & CMD_RUN);
	CHECK_CONTAINS(f.cap.out.s, "reason=mshr_full");
	fx_run(&f, "delete");
	fx_run(&f, "break l1.mshr_full");
	fx_run(&f, "continue");
	CHECK_CONTAINS(f.cap.out.s, "Breakpoint 2, l1.mshr_full");
	fx_fini(&f);
}

/* Item 3: `log` with several plain patterns keeps every one of them. */
TEST(lab_log_keeps_every_pattern)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "log mem.reply l1.mshr_full"), CMD_OK);
	CHECK_STR(f.cap.out.s, "log: l1.mshr_full mem.reply\n");
	const struct events *ev = sim_events_c(f.ss.sim);
	CHECK(ev_on(ev, EV_MEM_REPLY));
	CHECK(ev_on(ev, EV_L1_MSHR_FULL));
	CHECK(!ev_on(ev, EV_L1_HIT));
	/* A plain pattern after +/- ones still replaces what came before it once. */
	fx_run(&f, "log l1.hit +l1.miss dram.* -dram.act");
	CHECK(ev_on(ev, EV_L1_HIT) && ev_on(ev, EV_L1_MISS) && ev_on(ev, EV_DRAM_ROW_HIT));
	CHECK(!ev_on(ev, EV_DRAM_ACT) && !ev_on(ev, EV_MEM_REPLY));
	fx_fini(&f);
}

/* info watchpoints lists watchpoints only (gdb's way); info break both. */
TEST(lab_info_watchpoints_lists_only_watchpoints)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "break l1.miss");
	CHECK_EQ(fx_run(&f, "info watchpoints"), CMD_OK);
	CHECK_STR(f.cap.out.s, "no watchpoints\n");
	CHECK_EQ(fx_run(&f, "watch dram.reads > 3"), CMD_OK);
	CHECK_EQ(fx_run(&f, "info wat"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "2    watchpoint");
	CHECK(!strstr(f.cap.out.s, "l1.miss"));
	CHECK_EQ(fx_run(&f, "info break"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "l1.miss");
	CHECK_CONTAINS(f.cap.out.s, "2    watchpoint");
	fx_fini(&f);
}

/* Item 4: gdb's habits. */
TEST(lab_gdb_habits)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	/* info b / info br are info breakpoints, as in gdb; other prefixes when unique. */
	fx_run(&f, "break l1.miss");
	CHECK_EQ(fx_run(&f, "info b"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "1    breakpoint  y    0     l1.miss");
	CHECK_EQ(fx_run(&f, "info br"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "l1.miss");
	CHECK_EQ(fx_run(&f, "info brea"), CMD_OK);
	CHECK_EQ(fx_run(&f, "info cha"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "channel 0:");
	CHECK_EQ(fx_run(&f, "info s"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "ambiguous subject 's' (stats, sm, stalls)");
	CHECK_EQ(fx_run(&f, "info breka"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "did you mean break");
	/* An unknown command gets a did-you-mean, as unknown events and stats do. */
	CHECK_EQ(fx_run(&f, "contniue"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "unknown command 'contniue' (did you mean continue?");
	CHECK_EQ(fx_run(&f, "wtach 0x100"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "did you mean watch?");
	CHECK_EQ(fx_run(&f, "xyzzy"), CMD_ERR);
	CHECK_STR(f.cap.err.s, "unknown command 'xyzzy' (try help)\n");
	/* ignore N COUNT: the next COUNT hits count but do not stop. */
	fx_run(&f, "continue");
	CHECK_EQ(f.ss.bps.v[0].hits, 1);
	CHECK_EQ(fx_run(&f, "ignore 1 3"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Will ignore next 3 crossings of breakpoint 1.");
	fx_run(&f, "info break");
	CHECK_CONTAINS(f.cap.out.s, "will ignore the next 3 hits");
	fx_run(&f, "continue");
	CHECK_EQ(f.ss.bps.v[0].hits, 5); /* hits 2, 3, 4 passed; 5 stopped */
	CHECK_CONTAINS(f.cap.out.s, "Breakpoint 1, l1.miss");
	uint64_t at5 = sim_cycle(f.ss.sim);
	/* Rewinding keeps the ignore count right: back to hit 1, on again. */
	fx_run(&f, "rc");
	CHECK_EQ(f.ss.bps.v[0].hits, 1);
	CHECK_EQ(sim_cycle(f.ss.sim), 2);
	fx_run(&f, "continue");
	CHECK_EQ(f.ss.bps.v[0].hits, 5);
	CHECK_EQ(sim_cycle(f.ss.sim), at5);
	CHECK_EQ(fx_run(&f, "ignore 7 1"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "ignore 1 many"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "ignore 1"), CMD_ERR);
	/* condition N EXPR replaces the `if`; condition N removes it. */
	CHECK_EQ(fx_run(&f, "condition 1 l1.misses >= 40"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Breakpoint 1: l1.miss if l1.misses >= 40");
	fx_run(&f, "continue");
	CHECK(stat_of(f.ss.sim, "l1.misses") >= 40);
	{ /* the same stop as a breakpoint typed with that `if` */
		struct fx g;
		fx_init_wl(&g, "vecadd");
		fx_run(&g, "break l1.miss if l1.misses >= 40");
		fx_run(&g, "continue");
		CHECK_EQ(sim_cycle(g.ss.sim), sim_cycle(f.ss.sim));
		fx_fini(&g);
	}
	CHECK_EQ(fx_run(&f, "condition 1"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Breakpoint 1 now unconditional.");
	fx_run(&f, "info break");
	CHECK(strstr(f.cap.out.s, " if ") == NULL);
	CHECK_EQ(fx_run(&f, "condition 1 l1.mises > 3"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "did you mean l1.misses");
	fx_run(&f, "break cycle 99999");
	CHECK_EQ(fx_run(&f, "condition 2 l1.misses > 3"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "conditions apply to event breakpoints");
	/* tbreak stops once, then is gone. */
	fx_run(&f, "delete");
	CHECK_EQ(fx_run(&f, "tbreak l2.miss"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Temporary breakpoint 3: l2.miss");
	fx_run(&f, "info b");
	CHECK_CONTAINS(f.cap.out.s, "tbreak");
	fx_run(&f, "continue");
	CHECK_CONTAINS(f.cap.out.s, "Temporary breakpoint 3, l2.miss");
	CHECK_EQ(f.ss.bps.n, 0);
	fx_run(&f, "continue");
	CHECK(sim_done(f.ss.sim));
	fx_fini(&f);
}

/* Item 15: `watch ADDR` stops wherever the line moves: accesses, the DRAM,
 * fills, the reply to the warp, the eviction; movements in the cycle of a
 * stop are named in its report. */
TEST(lab_watch_addr_follows_the_line)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "watch 0x10000000"), CMD_OK);
	struct strbuf all;
	sb_init(&all);
	int stops = 0;
	while (!sim_done(f.ss.sim) && stops < 50) {
		fx_run(&f, "continue");
		sb_printf(&all, "%s", f.cap.out.s);
		stops += f.ss.last_stop == SIM_STOP_BREAK;
	}
	static const char *const kinds[] = {"l1.access", "l2.access", "dram.enqueue", "dram.done",
					    "l2.fill",   "l1.fill",   "mem.reply",    "l1.evict"};
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
		if (!strstr(all.s, kinds[i]))
			test_fail(__FILE__, __LINE__, "watch 0x10000000 never named %s:\n%s", kinds[i], all.s);
	CHECK_CONTAINS(all.s, "; also mem.reply");
	CHECK(stops >= 6);
	sb_fini(&all);
	fx_fini(&f);
}

/* Item 5: `until cycle N` at or past N says so instead of running to the end. */
TEST(lab_until_past_cycle_says_so)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 50");
	CHECK_EQ(fx_run(&f, "until cycle 10"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "until: cycle 10 is already past (now at cycle 50); `goto 10` goes back there");
	CHECK_EQ(sim_cycle(f.ss.sim), 50);
	CHECK(!sim_done(f.ss.sim));
	CHECK_EQ(f.ss.bps.n, 0); /* no temporary breakpoint left behind */
	CHECK_EQ(fx_run(&f, "until cycle 50"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "already at cycle 50");
	CHECK(fx_run(&f, "until cycle 60") & CMD_RUN);
	CHECK_EQ(sim_cycle(f.ss.sim), 60);
	CHECK_EQ(fx_run(&f, "break cycle 20"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "cycle 20 is already past");
	fx_fini(&f);
}

/* Item 6: `next` says when the selected warp slot runs a new CTA's warp. */
TEST(lab_next_says_new_cta)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 5");
	int switches = 0;
	for (int i = 0; i < 12; i++) {
		struct warp_info before, after;
		REQUIRE(inspect_warp(f.ss.sim, 0, 0, &before));
		fx_run(&f, "next");
		REQUIRE(inspect_warp(f.ss.sim, 0, 0, &after));
		bool changed = before.cta != after.cta;
		bool said = strstr(f.cap.out.s, "new CTA: the slot now runs CTA") != NULL;
		if (changed != said)
			test_fail(__FILE__, __LINE__, "next %d: CTA %d -> %d, report '%s'", i, before.cta, after.cta,
				  f.cap.out.s);
		if (changed) {
			char want[96];
			snprintf(want, sizeof want, "runs CTA %d warp %d (CTA %d warp %d finished)", after.cta,
				 after.warp_in_cta, before.cta, before.warp_in_cta);
			CHECK_CONTAINS(f.cap.out.s, want);
		}
		switches += changed;
	}
	CHECK(switches >= 1);
	fx_fini(&f);
}

/* Item 9 and 11 (Ctrl-D): keys typed during a run are kept whatever their
 * number, Enter included; the prompt line shows the end of them; control
 * keys that are not editing (Ctrl-D, Tab) are not typeahead. The replay
 * through readline is tests/e2e/tui_typeahead_long.sh. */
TEST(lab_typeahead_is_not_cut)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	CHECK(tui_exec(t, "continue") & CMD_RUN);
	t->interactive = true; /* keys are typeahead only with a prompt to give them to */
	char line[400];
	int n = snprintf(line, sizeof line, "log l1.access l1.hit l1.miss l1.fill l1.evict l2.access l2.hit l2.miss "
					    "l2.fill l2.writeback dram.enqueue dram.rd dram.wr dram.row_hit dram.row_miss "
					    "dram.row_conflict dram.done mem.reply warp.issue warp.stall warp.done coalesce "
					    "l1.mshr_merge l1.retry l2.transient frc.alloc frc.fill l1.mshr_full l2.nack");
	REQUIRE(n > 300);
	for (int i = 0; i <= n; i++)
		tui_feed_key(t, i < n ? (wint_t)line[i] : '\r', false);
	tui_feed_key(t, 4, false); /* Ctrl-D */
	tui_feed_key(t, 9, false); /* Tab */
	CHECK_EQ(t->nahead, n + 1);
	REQUIRE(t->nahead == n + 1);
	CHECK_EQ(t->ahead[n], '\r');
	char *text = tui_typeahead_text(t);
	CHECK(strlen(text) == (size_t)n + 1 && text[n] == ';' && strncmp(text, line, (size_t)n) == 0);
	free(text);
	t->dirty_status = true;
	tui_frame(t);
	char row[512];
	screen_row(LINES - 1, row, sizeof row);
	CHECK_CONTAINS(row, "running... Ctrl-C or Esc stops  next: \xe2\x80\xa6");
	CHECK_CONTAINS(row, "l1.mshr_full l2.nack;");
	CHECK(strstr(row, "?") == NULL);
	t->nahead = 0; /* no readline here to replay into */
	t->interactive = false;
	tui_run_to_stop(t);
	vt_tui_stop(t, ss);
}

/* Item 11, the rest of the cosmetic list: no "0 cyc/s" before the speed is
 * measured (it showed while `rc` searched back); session files write
 * doubles as short as round-trips allow (59.34, not 59.340000000000003). */
TEST(lab_cosmetics)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_exec(t, "break cycle 100");
	tui_exec(t, "goto 3000");
	tui_run_to_stop(t);
	CHECK(tui_exec(t, "rc") & CMD_RUN);
	tui_frame(t);
	char row[512];
	screen_row(0, row, sizeof row);
	CHECK(strstr(row, " 0 cyc/s") == NULL);
	tui_run_to_stop(t);
	CHECK(tui_exec(t, "continue") & CMD_RUN);
	tui_frame(t);
	CHECK(strstr(screen_row(0, row, sizeof row), " 0 cyc/s") == NULL);
	tui_run_to_stop(t);
	char *text = session_file_text(ss);
	CHECK_CONTAINS(text, "\ncfg rf.energy.rm_read_pj=59.34\n");
	free(text);
	vt_tui_stop(t, ss);
}

/* Panel `panel` drawn at w x h on a session after `setup`, compared with
 * tests/views/<name>.txt; returns the text (caller frees). */
static char *lab_panel_text(struct session *ss, const char *panel, int w, int h)
{
	struct panel *p = panel_create(panel);
	if (!p)
		return NULL;
	WINDOW *win = newwin(h, w, 0, 0);
	struct view_ctx c = {.sim = ss->sim,	       .sel_sm = ss->sel_sm,   .sel_warp = ss->sel_warp,
			     .sel_l2 = ss->sel_l2,     .sel_ch = ss->sel_ch,   .sel_bank = ss->sel_bank,
			     .focused = true};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

static void lab_snapshot(const char *setup, const char *panel, const char *name, int w, int h)
{
	vt_screen();
	struct session *ss = vt_session(setup);
	REQUIRE(ss != NULL);
	char *text = lab_panel_text(ss, panel, w, h);
	REQUIRE(text != NULL);
	CHECK_SNAPSHOT(name, text);
	free(text);
	vt_session_free(ss);
}

/* Item 14: a DRAM bank's queue, oldest first, and what FR-FCFS takes next
 * and why. Cycle by cycle, the pick is the one the policy defines: the
 * oldest request to the open row unless the row-hit cap is reached, else the
 * oldest; the reasons name row hits, the oldest and the cap. */
static void check_frfcfs_picks(const char *setup, unsigned *first_ready, unsigned *conflict, unsigned *cap)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, setup);
	struct sim *s = f.ss.sim;
	unsigned bad = 0;
	for (int cyc = 0; cyc < 2000 && !sim_done(s); cyc++) {
		sim_step(s, 1);
		for (int b = 0; b < 16; b++) {
			struct dram_pick_info p;
			struct dram_qreq_info q[64];
			REQUIRE(inspect_dram_pick(s, 0, b, &p));
			int n = inspect_dram_queue(s, 0, b, q, 64);
			REQUIRE(n == p.nreq && n <= 64);
			if (p.pick < 0 || q[p.pick].started || p.draining || strstr(p.why, "refresh"))
				continue;
			int first = -1, head = -1;
			for (int i = 0; i < n; i++) {
				if (q[i].started || q[i].write)
					continue;
				if (head < 0)
					head = i;
				if (first < 0 && q[i].row_hit)
					first = i;
			}
			bool capped = p.row_hit_cap && p.hits_run >= (uint32_t)p.row_hit_cap;
			int want = first >= 0 && !capped ? first : head;
			if (p.pick != want && bad++ < 3)
				test_fail(__FILE__, __LINE__, "cycle %llu bank %d: picked #%d, FR-FCFS takes #%d (%s)",
					  (unsigned long long)sim_cycle(s), b, p.pick, want, p.why);
			*first_ready += strstr(p.why, "first-ready, ahead of") != NULL;
			*conflict += strstr(p.why, "row conflict") != NULL;
			*cap += strstr(p.why, "row-hit cap") != NULL;
		}
	}
	CHECK_EQ(bad, 0);
	fx_fini(&f);
}

TEST(lab_dram_queue_and_next_pick)
{
	unsigned fr = 0, conf = 0, cap = 0;
	check_frfcfs_picks("log none", &fr, &conf, &cap);
	CHECK(fr > 0);   /* reordering happened and was explained */
	CHECK(conf > 0);
	unsigned fr2 = 0, conf2 = 0, cap2 = 0;
	check_frfcfs_picks("set dram.row_hit_cap 2", &fr2, &conf2, &cap2);
	CHECK(cap2 > 0); /* the cap, named */
	/* info bank lists the queue with the pick; the panel shows the same. */
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "goto 124");
	CHECK_EQ(fx_run(&f, "info bank 0"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "  next: PRE now for #0 -- oldest; nothing waiting hits open row 0: precharge it (row conflict)");
	CHECK_CONTAINS(f.cap.out.s, "   > 0  rd       1  0x10008400   ");
	fx_fini(&f);
	lab_snapshot("goto 100", "dramq", "dramq_80x24", 80, 24);
	lab_snapshot("goto 124", "dramq", "dramq_40x10", 40, 10);
}

/* Item 13: `info coalesce` at a coalesce stop: lanes -> lines/sectors ->
 * requests, for the Fermi, Volta and SI coalescers, as the engine made them:
 * as many requests as the event says, every active lane in a request whose
 * line (Volta: sector) holds its address, Volta groups of 8 lanes, SI
 * subwavefronts of 16 lanes k cycles late. */
static void check_coalesce(const char *preset, int mode, int group)
{
	struct fx f;
	fx_init_wl(&f, "strided");
	if (preset) {
		char cmd[64];
		snprintf(cmd, sizeof cmd, "load %s", preset);
		REQUIRE(fx_run(&f, cmd) == CMD_RESET);
		/* One scheduler: `info coalesce` shows the SM's last coalesced
		 * instruction, and with several one SM can coalesce two in the
		 * cycle the break stops at. */
		REQUIRE((fx_run(&f, "set core.schedulers 1") & CMD_ERR) == 0);
	}
	fx_run(&f, "break coalesce");
	for (int stop = 0; stop < 3; stop++) {
		fx_run(&f, "continue");
		const struct event *e = &f.ss.bps.stop_ev;
		REQUIRE(e->kind == EV_COALESCE);
		struct coal_info ci;
		REQUIRE(inspect_coalesce(f.ss.sim, e->sm, &ci) && ci.valid);
		CHECK_EQ(ci.mode, mode);
		CHECK_EQ(ci.plan.group, group);
		CHECK_EQ(ci.cycle, e->cycle);
		CHECK_EQ(ci.warp, e->warp);
		CHECK_EQ(ci.plan.n, e->a);
		CHECK_EQ(__builtin_popcountll(ci.active), e->b);
		for (int l = 0; l < ci.warp_size; l++) {
			int k = ci.plan.lane_req[l][0];
			if (!(ci.active >> l & 1)) {
				CHECK_EQ(k, -1);
				continue;
			}
			REQUIRE(k >= 0 && k < ci.plan.n);
			const struct coal_req *r = &ci.plan.v[k];
			CHECK_EQ(r->line, ci.addr[l] / (uint64_t)ci.line * (uint64_t)ci.line);
			CHECK_EQ(r->first / group, l / group); /* requests never span groups */
			if (mode == COAL_VOLTA && ci.sector)
				CHECK(r->mask >> ((ci.addr[l] % (uint64_t)ci.line) / (uint64_t)ci.sector) & 1);
			if (mode == COAL_SI)
				CHECK_EQ(r->delay, l / 16);
		}
		CHECK_EQ(fx_run(&f, "info coalesce"), CMD_OK);
		char want[96];
		snprintf(want, sizeof want, "sm %d warp %d, cycle %llu: ld, %d active lanes x 4 B -> %d request", e->sm, e->warp,
			 (unsigned long long)e->cycle, (int)e->b, (int)e->a);
		CHECK_CONTAINS(f.cap.out.s, want);
		for (int k = 0; k < ci.plan.n; k++) {
			snprintf(want, sizeof want, "r%-2d line 0x%llx", k, (unsigned long long)ci.plan.v[k].line);
			CHECK_CONTAINS(f.cap.out.s, want);
		}
	}
	fx_fini(&f);
}

TEST(lab_info_coalesce_fermi_volta_si)
{
	check_coalesce(NULL, COAL_FERMI, 32);
	check_coalesce("titanv", COAL_VOLTA, 8);
	check_coalesce("hd7770", COAL_SI, 16);
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "info coalesce"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "sm 0 has not issued a global memory instruction yet");
	CHECK_EQ(fx_run(&f, "info coalesce 9"), CMD_ERR);
	fx_fini(&f);
}

/* Item 12: every column has a legend. Every panel kind has one; every word
 * of the header row a table panel draws (under each scheduler that adds
 * columns) is one of its terms; `help PANEL` prints it, F1 shows the
 * legends of the panels on screen, and docs/TUI.md carries each verbatim. */
static bool in_legend(const struct legend *lg, const char *word)
{
	char w[32];
	snprintf(w, sizeof w, "%s", word);
	if (strncmp(w, "way", 3) == 0 && w[3] >= '0' && w[3] <= '9')
		snprintf(w, sizeof w, "wayN");
	for (const struct legend_item *it = lg->items; it->term; it++) { /* a whole word of a term */
		char t[64];
		snprintf(t, sizeof t, "%s", it->term);
		for (char *s = NULL, *tok = strtok_r(t, " /", &s); tok; tok = strtok_r(NULL, " /", &s))
			if (strcmp(tok, w) == 0)
				return true;
	}
	return false;
}

static void check_header(const char *setup, const char *panel, const char *anchor)
{
	vt_screen();
	struct session *ss = vt_session(setup);
	REQUIRE(ss != NULL);
	char *text = lab_panel_text(ss, panel, 250, 40);
	REQUIRE(text != NULL);
	const struct legend *lg = legend_find(panel);
	REQUIRE(lg != NULL);
	bool found = false;
	for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strstr(line, anchor) || strstr(line, "\xe2\x94\x80")) /* not the title bar */
			continue;
		found = true;
		for (char *s2 = NULL, *w = strtok_r(line, " \xe2\x94\x82", &s2); w; w = strtok_r(NULL, " \xe2\x94\x82", &s2))
			if (!in_legend(lg, w))
				test_fail(__FILE__, __LINE__, "%s: column '%s' has no legend (help %s)", panel, w, panel);
		break;
	}
	if (!found)
		test_fail(__FILE__, __LINE__, "%s: no header with %s", panel, anchor);
	free(text);
	vt_session_free(ss);
}

TEST(lab_every_column_has_a_legend)
{
	for (size_t i = 0; i < panel_kind_count(); i++)
		if (!legend_find(panel_kind_at(i)->name))
			test_fail(__FILE__, __LINE__, "panel %s has no legend", panel_kind_at(i)->name);
	check_header("step 400", "warps", "INSTS");
	check_header("set core.scheduler vws\nstep 400", "warps", "RRDEG");
	check_header("set core.scheduler ccws\nstep 400", "warps", "LLS");
	check_header("set core.scheduler tbas\nstep 400", "warps", "BAT");
	check_header("set core.schedulers 2\nstep 400", "warps", "SCH");
	check_header("step 400", "mshr", "WAITERS");
	check_header("step 400", "l2", "NACKS");
	check_header("step 400", "dram", "CONF");
	check_header("goto 124", "dramq", "AGE");
	check_header("log all\nstep 400", "events", "FIELDS");
	check_header("step 400", "stats", "DESCRIPTION");
	check_header("set l2.frc.entries 16\nstep 400", "frc", "INCOMING");
	check_header("set coherence.protocol moesi\nstep 400", "coherence", "TRANSITION");
	check_header("step 400", "cache", "way0");
	check_header("step 400", "reuse", "COUNT");

	/* help PANEL, and the docs carry the same text. */
	struct fx f;
	fx_init_wl(&f, "vecadd");
	char *doc = NULL;
	{
		FILE *fp = fopen("docs/TUI.md", "r");
		REQUIRE(fp != NULL);
		struct strbuf sb;
		sb_init(&sb);
		char buf[4096];
		size_t n;
		while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
			sb_printf(&sb, "%.*s", (int)n, buf);
		fclose(fp);
		doc = sb.s;
	}
	for (size_t i = 0; i < legend_count(); i++) {
		const struct legend *lg = legend_at(i);
		char cmd[64];
		snprintf(cmd, sizeof cmd, "help %s", lg->panel);
		CHECK_EQ(fx_run(&f, cmd), CMD_OK);
		struct strbuf sb;
		sb_init(&sb);
		legend_text(lg, 78, &sb);
		CHECK_CONTAINS(f.cap.out.s, sb.s);
		if (!strstr(doc, sb.s))
			test_fail(__FILE__, __LINE__, "docs/TUI.md lacks the legend of %s as `help %s` prints it", lg->panel,
				  lg->panel);
		sb_fini(&sb);
	}
	free(doc);
	CHECK_EQ(fx_run(&f, "help nosuch"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "no command or panel 'nosuch'");
	fx_fini(&f);

	/* F1: the legends of the panels on screen. */
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_frame(t);
	tui_exec(t, "keys");
	CHECK_CONTAINS(t->help_text, "Columns of the panels on screen");
	CHECK_CONTAINS(t->help_text, "warps: one row per warp slot");
	CHECK_CONTAINS(t->help_text, "mshr: the selected SM's L1 MSHRs");
	CHECK_CONTAINS(t->help_text, "ORD ");
	tui_exec(t, "layout dram");
	tui_frame(t);
	tui_exec(t, "keys");
	CHECK_CONTAINS(t->help_text, "dramq: ");
	CHECK(strstr(t->help_text, "warps: one row") == NULL);
	vt_tui_stop(t, ss);
}

/* Item 10: 80x24 and smaller. The output area has 5 rows; output that does
 * not fit opens in the pager from its first line, PgDn/PgUp move a page,
 * typing closes it and goes on at the prompt; the mshr panel shows the L2
 * half too; at 60x15 one panel of the layout fills the area (the first, Tab
 * the next) instead of "needs WxH" lines. */
TEST(lab_small_screens)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_frame(t);
	CHECK_EQ(getmaxy(t->out), 5);
	CHECK_EQ(tui_exec(t, "help"), CMD_OK);
	CHECK(t->help_open && t->pager);
	REQUIRE(t->help_text != NULL);
	CHECK(strncmp(t->help_text, "(gpustep) help\n  step ", 21) == 0 || strncmp(t->help_text, "  step ", 7) == 0);
	tui_frame(t);
	char row[512];
	CHECK_CONTAINS(screen_row(2, row, sizeof row), "step");
	int page = getmaxy(t->help) - 3;
	tui_feed_key(t, KEY_NPAGE, true);
	CHECK_EQ(t->help_scroll, page);
	CHECK(page >= 15); /* a page, not 3 lines */
	tui_feed_key(t, KEY_PPAGE, true);
	CHECK_EQ(t->help_scroll, 0);
	tui_feed_key(t, 'q', false);
	CHECK(!t->help_open);
	/* Short output stays in the output area. */
	CHECK_EQ(tui_exec(t, "print sim.cycles"), CMD_OK);
	CHECK(!t->help_open);
	/* The mshr panel at 80x24 shows both halves. */
	tui_exec(t, "step 300");
	tui_run_to_stop(t);
	tui_frame(t);
	char *text = vt_text(curscr);
	CHECK_CONTAINS(text, "L1 sm0 [");
	CHECK_CONTAINS(text, "L2 bank0 [");
	free(text);
	/* 60x15: the warps panel whole, Tab the next panel of the layout. */
	resizeterm(15, 60);
	tui_frame(t);
	text = vt_text(curscr);
	CHECK(strstr(text, "needs") == NULL);
	CHECK_CONTAINS(text, "warps  [1 of 5 fits, Tab: next]");
	CHECK_CONTAINS(text, "INSTS");
	free(text);
	tui_exec(t, "focus next");
	tui_exec(t, "focus next");
	tui_frame(t);
	text = vt_text(curscr);
	CHECK_CONTAINS(text, "mshr  [2 of 5 fits, Tab: next]");
	free(text);
	vt_tui_stop(t, ss);
}
