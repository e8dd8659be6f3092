/*
 * test_warps_next.c: the warps panel's NEXT column (inspect_warp's next
 * statement) names the instruction the warp issues next, never a statement
 * that does not issue: a comment line of the kernel (before the fix, a warp
 * outside the two-level active pool showed "# memory statements read ...",
 * the kernel's first line), nor `loop`/`if`/`else`/`end` (a warp waiting
 * after the last statement of a loop body showed "end"), nor the listing's
 * indentation ("  alu 2 ..." inside a loop: `why` quoted it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "sesstest.h"
#include "sim/sim.h"
#include "test.h"
#include "sim/event.h"
#include "views/draw.h"
#include "views/view.h"
#include "vtest.h"

#define MAXW 64

/* For `cycles` cycles: every warp that issues in a cycle issues the
 * statement NEXT named at the start of that cycle. Returns how many issues
 * were checked. */
static int check_next_is_issued(struct fx *f, int cycles)
{
	struct sim *s = f->ss.sim;
	int sms = inspect_sms(s), slots = inspect_warp_slots(s), checked = 0;
	unsigned nstmts = kernel_nstmts(f->ss.kernel);
	REQUIRE(slots <= MAXW);
	int *pred = malloc(sizeof(int) * (size_t)(sms * slots));
	REQUIRE(pred != NULL);
	for (int c = 0; c < cycles; c++) {
		for (int m = 0; m < sms; m++)
			for (int w = 0; w < slots; w++) {
				struct warp_info wi;
				REQUIRE(inspect_warp(s, m, w, &wi));
				/* -1: the warp exits next (EXIT issues as statement nstmts) */
				pred[m * slots + w] = wi.state == WS_EMPTY || wi.state == WS_DONE ? -2
				                      : wi.next_stmt < 0                       ? (int)nstmts
				                                                                : wi.next_stmt;
				if (wi.next_text && wi.state != WS_EMPTY)
					CHECK(wi.next_text[0] != '#' && wi.next_text[0] != ' ' &&
					      strncmp(wi.next_text, "end", 3) != 0 && strncmp(wi.next_text, "loop", 4) != 0);
			}
		uint64_t before = events_logged(sim_events_c(s));
		CHECK_EQ(fx_run(f, "step 1"), CMD_RUN);
		const struct events *ev = sim_events_c(s);
		for (uint64_t i = 0; i < events_logged(ev) - before; i++) {
			const struct event *e = events_recent(ev, i);
			if (!e || e->kind != EV_WARP_ISSUE)
				continue;
			int p = pred[e->sm * slots + e->warp];
			if (p == -2)
				continue; /* launched in this cycle */
			if (p != (int)e->a)
				test_fail(__FILE__, __LINE__, "cycle %llu sm %d warp %d: NEXT said statement %d, issued %lld",
				          (unsigned long long)e->cycle, e->sm, e->warp, p, (long long)e->a);
			checked++;
		}
	}
	free(pred);
	return checked;
}

/* Warps outside the two-level active pool have fetched nothing: their pc is
 * the kernel's first line, a comment. */
TEST(warps_next_skips_comments_outside_the_pool)
{
	struct fx f;
	fx_init_wl(&f, "gather_random");
	CHECK_EQ(fx_run(&f, "set core.scheduler two_level"), CMD_RESET); /* rebuilds the machine */
	CHECK_EQ(fx_run(&f, "log warp.issue"), CMD_OK);
	CHECK_EQ(fx_run(&f, "step 1"), CMD_RUN);
	struct warp_info wi;
	REQUIRE(inspect_warp(f.ss.sim, 0, 7, &wi));
	CHECK_EQ(wi.state, WS_STALLED);
	CHECK_STR(wi.next_text, "ld idx[bx*bdx + tid] <- r4");
	CHECK(check_next_is_issued(&f, 200) >= 16); /* each of the 16 warps issued */
	fx_fini(&f);
}

/* A loop body's last statement issued: the pc rests on `end`; NEXT is the
 * body's first statement again (or what follows the loop). */
TEST(warps_next_follows_loops_and_ifs)
{
	static const char *const wls[] = {"l2_set_burst", "reduction"};
	for (unsigned i = 0; i < sizeof wls / sizeof wls[0]; i++) {
		struct fx f;
		fx_init_wl(&f, wls[i]);
		CHECK_EQ(fx_run(&f, "log warp.issue"), CMD_OK);
		CHECK(check_next_is_issued(&f, 400) >= 16);
		fx_fini(&f);
	}
}

/* A warp whose next instruction is its exit shows "exit" in NEXT, as `info
 * warp` does (before: a blank cell, as if nothing were next). */
TEST(warps_next_shows_exit)
{
	vt_screen();
	struct session *ss = vt_session("step 1\n");
	REQUIRE(ss != NULL);
	int slot = -1;
	for (int c = 0; c < 3000 && slot < 0; c++) {
		vt_exec(ss, "step 1\n");
		for (int w = 0; w < inspect_warp_slots(ss->sim) && slot < 0; w++) {
			struct warp_info wi;
			if (inspect_warp(ss->sim, 0, w, &wi) && wi.state != WS_EMPTY && wi.state != WS_DONE &&
			    wi.next_stmt < 0)
				slot = w;
		}
	}
	REQUIRE(slot >= 0);
	struct panel *p = panel_create("warps");
	REQUIRE(p != NULL);
	WINDOW *win = newwin(20, 80, 0, 0);
	struct view_ctx c = {.sim = ss->sim, .sel_sm = 0, .sel_warp = -1, .focused = false};
	panel_draw(p, win, &c);
	char row[256];
	draw_read_row(win, 2 + slot, row, sizeof row); /* title, header, then a row per slot */
	bool found = atoi(row + 1 + (row[1] == '>')) == slot && strstr(row, " exit ") != NULL;
	if (!found) {
		char *all = vt_text(win);
		test_fail(__FILE__, __LINE__, "warp %d: NEXT does not say exit:\n%s", slot, all);
		free(all);
	}
	delwin(win);
	panel_free(p);
	vt_session_free(ss);
}
