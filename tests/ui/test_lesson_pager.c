/*
 * test_lesson_pager.c: long command output while a lesson is open. The
 * pager (and the help overlay) opens in the rows below the lesson pane, so
 * the step the learner follows and the output it asked for are both on
 * screen: at 80x24 after `info duel` in the bypassing lesson (step 8, the
 * real case), with a full-screen snapshot (tests/views/lesson_pager_80x24.txt);
 * at 200x60 (`why`) the pane beside the panels is not covered either; without a
 * lesson (or with the pane hidden) the pager has the whole height as before.
 * Progress goes to a private XDG_STATE_HOME.
 */
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "test.h"
#include "tui/tui.h"
#include "tui/outlog.h"
#include "tui/tui_int.h"
#include "vtest.h"

static int pane_slot(struct tui *t)
{
	for (int i = 0; i < t->nslots; i++)
		if (strcmp(t->slots[i].p->ops->name, "lesson") == 0)
			return i;
	return -1;
}

/* The bypassing lesson answered up to step 8 (after the duel's first switch,
 * where step 7's explanation asks for `why` and `info duel`). */
static void to_duel_step(struct tui *t)
{
	static const char *const answers[] = {"answer 0", "answer entries", "answer -1", "answer 3",
					      "answer 2", "answer 2", "answer 1"};
	for (size_t k = 0; k < sizeof answers / sizeof *answers; k++) {
		CHECK(!(tui_exec(t, answers[k]) & CMD_ERR));
		tui_run_to_stop(t);
		if (t->help_open)
			tui_close_help(t);
	}
	tui_frame(t);
}

/* Row y of the screen as text (trailing spaces kept). */
static const char *screen_row(int y, char *buf, size_t n) { return draw_read_row(curscr, y, buf, n); }

TEST(lesson_long_output_leaves_the_pane_80x24)
{
	char *home = vt_state_home("lesson-pager");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	REQUIRE((tui_exec(t, "lesson bypassing") & CMD_ERR) == 0);
	to_duel_step(t);
	int i = pane_slot(t);
	REQUIRE(i >= 0);
	int pane_rows = getmaxy(t->slots[i].w);
	CHECK_EQ(getbegy(t->slots[i].w), 1);
	CHECK(pane_rows >= 3);
	char *pane = vt_text(t->slots[i].w);
	CHECK_CONTAINS(pane, "bypassing: step 8 of 12");

	/* `info duel` does not fit the 4 output rows: the pager opens below the
	 * pane, from the row after it down to the row above the prompt. */
	CHECK_EQ(tui_exec(t, "info duel"), CMD_OK);
	REQUIRE(t->help_open && t->pager);
	tui_frame(t);
	CHECK_EQ(getbegy(t->help), 1 + pane_rows);
	CHECK_EQ(getbegy(t->help) + getmaxy(t->help), LINES - 1);
	CHECK_EQ(getmaxx(t->help), 80);
	/* The pane's rows on screen are the pane's own, untouched. */
	char row[1024], prow[1024];
	for (int y = 0; y < pane_rows; y++)
		CHECK_STR(screen_row(1 + y, row, sizeof row), draw_read_row(t->slots[i].w, y, prow, sizeof prow));
	char *screen = vt_text(curscr);
	/* The step and the output both readable: the pane's title and > line,
	 * the duel table's header, a row and its legend's last line. */
	CHECK_CONTAINS(screen, "bypassing: step 8 of 12");
	CHECK_CONTAINS(screen, "> answer N with your prediction");
	CHECK_CONTAINS(screen, "output of: info duel");
	CHECK_CONTAINS(screen, "END        DECOUPLED            PLAIN");
	CHECK_CONTAINS(screen, "-> decoupled");
	CHECK_CONTAINS(screen, "?: the limit lies within the 95 % margin");
	CHECK_SNAPSHOT("lesson_pager_80x24", screen);
	free(screen);
	free(pane);

	/* The pager still scrolls and closes as before; the pane stays. */
	tui_feed_key(t, 'q', false);
	CHECK(!t->help_open);
	/* `why` is longer: as much of it as fits, the pane above it. */
	CHECK_EQ(tui_exec(t, "why"), CMD_OK);
	REQUIRE(t->help_open && t->pager);
	tui_frame(t);
	CHECK_EQ(getbegy(t->help), 1 + pane_rows);
	screen = vt_text(curscr);
	CHECK_CONTAINS(screen, "bypassing: step 8 of 12");
	CHECK_CONTAINS(screen, "decoupled leaders missed");
	free(screen);
	tui_feed_key(t, 'q', false);

	/* The F1 overlay leaves the pane too. */
	tui_feed_key(t, KEY_F(1), true);
	REQUIRE(t->help_open && !t->pager);
	tui_frame(t);
	CHECK_EQ(getbegy(t->help), 1 + pane_rows);
	tui_feed_key(t, 'q', false);

	/* Hidden pane: the pager has the whole height again (rows 1..22). */
	CHECK_EQ(tui_exec(t, "lesson hide"), CMD_OK);
	tui_frame(t);
	CHECK_EQ(tui_exec(t, "info duel"), CMD_OK);
	REQUIRE(t->help_open && t->pager);
	tui_frame(t);
	CHECK_EQ(getbegy(t->help), 1);
	CHECK_EQ(getmaxy(t->help), LINES - 2);
	tui_feed_key(t, 'q', false);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}

/* At 200x60 the pane sits beside the panels: the pager is centred in the
 * panels' columns and never reaches the pane's. Without a lesson the pager
 * keeps its place (whole height, centred on the screen). */
TEST(lesson_long_output_beside_the_pane_200x60)
{
	char *home = vt_state_home("lesson-pager");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 60, 200);
	REQUIRE(t != NULL);
	tui_frame(t);
	CHECK_EQ(tui_exec(t, "help events"), CMD_OK);
	REQUIRE(t->help_open && t->pager);
	tui_frame(t);
	CHECK_EQ(getbegy(t->help), 1);
	CHECK_EQ(getmaxy(t->help), 58);
	CHECK_EQ(getbegx(t->help), 50);
	tui_feed_key(t, 'q', false);
	REQUIRE((tui_exec(t, "lesson bypassing") & CMD_ERR) == 0);
	to_duel_step(t);
	int i = pane_slot(t);
	REQUIRE(i >= 0);
	CHECK_EQ(getbegx(t->slots[i].w), 150);
	/* `info duel` fits the 12 output rows here; `why` (14 lines) does not. */
	CHECK_EQ(tui_exec(t, "info duel"), CMD_OK);
	CHECK(!t->help_open);
	CHECK_EQ(tui_exec(t, "why"), CMD_OK);
	REQUIRE(t->help_open && t->pager);
	tui_frame(t);
	CHECK(getbegx(t->help) + getmaxx(t->help) <= 150);
	char *screen = vt_text(curscr);
	CHECK_CONTAINS(screen, "bypassing: step 8 of 12");
	CHECK_CONTAINS(screen, "decoupled leaders missed");
	free(screen);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}

/* `answer` runs the step's commands itself (not in the loop's slices): the
 * status bar and the stop's highlight follow where they ended. frc step 2
 * restarts and runs to the end from a stop at a breakpoint: "finished", not
 * the old stop (which the status bar kept before). */
TEST(lesson_answer_run_updates_the_status_bar)
{
	char *home = vt_state_home("lesson-pager");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	REQUIRE((tui_exec(t, "lesson frc") & CMD_ERR) == 0);
	CHECK_EQ(tui_exec(t, "break l2.nack reason=set_all_transient"), CMD_OK);
	CHECK(tui_exec(t, "continue") & CMD_RUN);
	tui_run_to_stop(t);
	CHECK_CONTAINS(t->state, "stopped at breakpoint 1: l2.nack");
	CHECK(t->have_stop_ev);
	CHECK_EQ(tui_exec(t, "answer"), CMD_OK);
	CHECK(!(tui_exec(t, "answer 256") & CMD_ERR));
	if (t->help_open)
		tui_close_help(t);
	tui_frame(t);
	CHECK_STR(t->state, "finished");
	CHECK(!t->have_stop_ev);
	char row[1024];
	CHECK_CONTAINS(draw_read_row(curscr, 0, row, sizeof row), "| finished |");
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}

/* While the pane shows the step, an answer's run prints one line naming the
 * commands the lesson ran and the stops they reached, not each command's
 * messages ("restarted at cycle 0", "l1.bypass = locality"): bypassing step
 * 3's answer fits the output area (no pager over the panels). With the pane
 * hidden, the messages are there as in batch mode. */
TEST(lesson_answer_output_is_compact_under_the_pane)
{
	char *home = vt_state_home("lesson-pager");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	REQUIRE((tui_exec(t, "lesson bypassing") & CMD_ERR) == 0);
	CHECK(!(tui_exec(t, "answer 0") & CMD_ERR));
	CHECK(!(tui_exec(t, "answer entries") & CMD_ERR));
	if (t->help_open)
		tui_close_help(t);
	CHECK(!(tui_exec(t, "answer -1") & CMD_ERR));
	CHECK(!t->help_open);
	tui_frame(t);
	/* The output: the commands, the stop, the verdict and the explanation
	 * the pane folds to one row. */
	char *screen = outlog_tail(&t->log, 12);
	CHECK_CONTAINS(screen, "lesson ran: delete; run 0; set l1.bypass locality; continue");
	CHECK_CONTAINS(screen, "Kernel gather_random finished at cycle");
	/* A comparison reads as a sentence with both values, not as the
	 * expression sign(stat.l1.mshr_full - saved.full_plain). */
	char want[160];
	snprintf(want, sizeof want, "Right: l1.mshr_full is %llu, lower than the ",
		 (unsigned long long)stats_value(sim_stats_c(ss->sim),
						 (uint32_t)stats_find(sim_stats_c(ss->sim), "l1.mshr_full")));
	CHECK_CONTAINS(screen, want);
	CHECK_CONTAINS(screen, " recorded earlier: -1.");
	CHECK(strstr(screen, "sign(") == NULL);
	CHECK_CONTAINS(screen, "loads bypassed and took no MSHR entry");
	CHECK(strstr(screen, "restarted at cycle 0") == NULL);
	CHECK(strstr(screen, "l1.bypass = locality") == NULL);
	free(screen);
	int pi = pane_slot(t);
	REQUIRE(pi >= 0);
	screen = vt_text(t->slots[pi].w);
	CHECK_CONTAINS(screen, "Step 3: right, l1.mshr_full is ");
	CHECK(strstr(screen, "sign(") == NULL);
	free(screen);
	/* Hidden: every command's messages, the step's text in the output. */
	CHECK_EQ(tui_exec(t, "lesson hide"), CMD_OK);
	CHECK(!(tui_exec(t, "answer 3") & CMD_ERR));
	REQUIRE(t->help_open && t->pager);
	CHECK_CONTAINS(t->help_text, "param.lines = 4");
	CHECK_CONTAINS(t->help_text, "Temporary breakpoint");
	CHECK(strstr(t->help_text, "lesson ran:") == NULL);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}
