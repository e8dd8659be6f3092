/*
 * test_rewind_views.c: after a rewind every panel shows exactly what it
 * showed the first time at that cycle. Each panel kind is drawn at 132x40
 * at cycle N reached by stepping, then the machine runs on (and to a
 * breakpoint), rewinds to N, and the panel is drawn again: same text.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "test.h"
#include "views/view.h"
#include "vtest.h"

static char *draw_panel(const char *kind, struct session *ss)
{
	struct panel *p = panel_create(kind);
	if (!p)
		return NULL;
	WINDOW *win = newwin(40, 132, 0, 0);
	struct view_ctx c = {
		.sim = ss->sim,
		.sel_sm = ss->sel_sm,
		.sel_warp = ss->sel_warp,
		.sel_l2 = ss->sel_l2,
		.sel_ch = ss->sel_ch,
		.sel_bank = ss->sel_bank,
		.focused = true,
	};
	panel_draw(p, win, &c);
	char *text = vt_text(win);
	delwin(win);
	panel_free(p);
	return text;
}

TEST(rewind_every_panel_shows_what_it_showed)
{
	vt_screen();
	struct session *ss = vt_session("log all\nstep 1234\n");
	REQUIRE(ss != NULL);
	size_t n = panel_kind_count();
	REQUIRE(n >= 8);
	char **first = calloc(n, sizeof *first);
	REQUIRE(first);
	for (size_t i = 0; i < n; i++)
		first[i] = draw_panel(panel_kind_at(i)->name, ss);
	int sel[5] = {ss->sel_sm, ss->sel_warp, ss->sel_l2, ss->sel_ch, ss->sel_bank};
	vt_exec(ss, "break dram.row_conflict\ncontinue\ncontinue\nstep 3000\ngoto 1234\n");
	CHECK_EQ(sim_cycle(ss->sim), 1234);
	/* Stops select the units they name: the selection is the user's, not the machine's. */
	ss->sel_sm = sel[0];
	ss->sel_warp = sel[1];
	ss->sel_l2 = sel[2];
	ss->sel_ch = sel[3];
	ss->sel_bank = sel[4];
	for (size_t i = 0; i < n; i++) {
		char *again = draw_panel(panel_kind_at(i)->name, ss);
		if (!first[i] || !again || strcmp(first[i], again) != 0)
			test_fail(__FILE__, __LINE__, "panel %s differs after rewinding to cycle 1234",
				  panel_kind_at(i)->name);
		free(again);
		free(first[i]);
	}
	free(first);
	vt_session_free(ss);
}
