/*
 * test_lesson_pane.c: the lesson pane off-screen: placed above the layout
 * at 80x24 (the overview still fits below it) and beside it at 200x60,
 * its text wrapped with the `>` line kept and a more-lines marker when cut,
 * the hint after `hint`, the verdict after `answer`, scrolling when
 * focused, hide/show/close, and snapshots (tests/views/lesson_*.txt).
 * Progress goes to a private XDG_STATE_HOME.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "lesson/lesson.h"
#include "test.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

static int lesson_slot(struct tui *t)
{
	for (int i = 0; i < t->nslots; i++)
		if (strcmp(t->slots[i].p->ops->name, "lesson") == 0)
			return i;
	return -1;
}

static char *pane_text(struct tui *t)
{
	int i = lesson_slot(t);
	return i < 0 ? NULL : vt_text(t->slots[i].w);
}

static int count_of(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

TEST(lesson_pane_80x24_above_the_layout)
{
	char *home = vt_state_home("lesson-pane");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_frame(t);
	CHECK_EQ(lesson_slot(t), -1); /* no lesson: no pane */
	int before = t->nslots;
	REQUIRE((tui_exec(t, "lesson coalescing") & CMD_ERR) == 0);
	tui_frame(t);
	int i = lesson_slot(t);
	REQUIRE(i >= 0);
	CHECK_EQ(i, t->nslots - 1); /* last in the Tab order */
	CHECK_EQ(t->nslots, before + 1);
	WINDOW *w = t->slots[i].w;
	CHECK_EQ(getbegy(w), 1);
	CHECK_EQ(getbegx(w), 0);
	CHECK_EQ(getmaxx(w), 80);
	CHECK_EQ(getmaxy(w), 6); /* two fifths of the 17 panel rows */
	CHECK_EQ(t->squeezed, 0);  /* the overview still fits below */
	for (int k = 0; k < t->nslots - 1; k++)
		CHECK(getbegy(t->slots[k].w) >= 7);
	char *text = pane_text(t);
	CHECK_CONTAINS(text, "coalescing: step 1 of 8");
	/* Step 1 needs 6 lines: the question and the > line stay, the text's
	 * first row is cut and the title names the key that shows it. */
	CHECK_CONTAINS(text, "How many requests will warp 0's load");
	CHECK_CONTAINS(text, "make?");
	CHECK_CONTAINS(text, "> answer N with your prediction (`hint` for a hint)");
	CHECK_CONTAINS(text, "1 line above (PgUp)");
	CHECK(strstr(text, "The kernel is B[i]") == NULL);
	CHECK_SNAPSHOT("lesson_80x24", text);
	free(text);
	/* The output has the step line, not the text the pane shows (nor the
	 * setup's messages: no pager opens over the pane). */
	CHECK(!t->help_open);
	char *screen = vt_text(curscr);
	CHECK_CONTAINS(screen, "[lesson coalescing, step 1 of 8 in the lesson pane: answer N]");
	CHECK_EQ(count_of(screen, "The kernel is B[i]"), 0);
	free(screen);

	/* PgUp on the empty prompt scrolls the pane: the first line shows, the
	 * title says what is below; PgDn goes back. Focused, Up does the same. */
	tui_feed_key(t, KEY_PPAGE, true);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "The kernel is B[i] = A[i*stride]");
	CHECK_CONTAINS(text, "below (PgDn)");
	CHECK_CONTAINS(text, "> answer N with your prediction");
	free(text);
	tui_feed_key(t, KEY_NPAGE, true);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "make?");
	CHECK(strstr(text, "The kernel is B[i]") == NULL);
	free(text);
	CHECK_EQ(tui_exec(t, "focus lesson"), CMD_OK);
	tui_feed_key(t, KEY_UP, true);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "The kernel is B[i]");
	CHECK_CONTAINS(text, "1 below (PgDn)");
	free(text);

	/* hint: shown in the pane, scrolled to. */
	CHECK_EQ(tui_exec(t, "hint"), CMD_OK);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "Hint: 32 lanes x 4 bytes = 128 bytes");
	CHECK_CONTAINS(text, "> answer N with your prediction");
	CHECK(strstr(text, "(`hint` for a hint)") == NULL);
	CHECK_SNAPSHOT("lesson_80x24_hint", text);
	free(text);

	/* answer: the verdict and its explanation, the next step. */
	CHECK(!(tui_exec(t, "answer 1") & CMD_ERR));
	tui_run_to_stop(t);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "coalescing: step 2 of 8");
	CHECK_CONTAINS(text, "Step 1: right, event.reqs is 1.");
	CHECK(strstr(text, "Hint:") == NULL); /* a new step: its hint not asked yet */
	free(text);
	CHECK(!(tui_exec(t, "answer 30") & CMD_ERR));
	tui_run_to_stop(t);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "Step 2: you predicted 30, the machine shows event.lanes = 32.");
	free(text);

	/* Steps 3-6, then the action step: checked early, the pane says what is
	 * missing; done, it moves on. */
	static const char *const answers[] = {"answer 8", "answer 32", "answer 4", "answer 2"};
	for (size_t k = 0; k < sizeof answers / sizeof *answers; k++) {
		CHECK(!(tui_exec(t, answers[k]) & CMD_ERR));
		tui_run_to_stop(t);
	}
	CHECK_EQ(tui_exec(t, "answer"), CMD_OK);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "coalescing: step 7 of 8");
	CHECK_CONTAINS(text, "Step 7: Not yet: no enabled breakpoint on coalesce.");
	CHECK_CONTAINS(text, "> do it, then type `answer`");
	free(text);
	CHECK_EQ(tui_exec(t, "break coalesce warp=3"), CMD_OK);
	CHECK(tui_exec(t, "continue") & CMD_RUN);
	tui_run_to_stop(t);
	CHECK_EQ(tui_exec(t, "answer"), CMD_OK);
	tui_frame(t);
	text = pane_text(t);
	CHECK_CONTAINS(text, "coalescing: step 8 of 8");
	CHECK_CONTAINS(text, "Step 7: done.");
	free(text);

	/* hide / show / toggle / close */
	CHECK_EQ(tui_exec(t, "lesson hide"), CMD_OK);
	tui_frame(t);
	CHECK_EQ(lesson_slot(t), -1);
	CHECK_EQ(t->nslots, before);
	CHECK_EQ(tui_exec(t, "lesson toggle"), CMD_OK);
	tui_frame(t);
	CHECK(lesson_slot(t) >= 0);
	CHECK_EQ(tui_exec(t, "lesson close"), CMD_OK);
	tui_frame(t);
	CHECK_EQ(lesson_slot(t), -1);
	CHECK(ss->lesson == NULL);
	CHECK(tui_exec(t, "lesson hide") & CMD_ERR);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}

TEST(lesson_pane_200x60_beside_the_layout)
{
	char *home = vt_state_home("lesson-pane");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 60, 200);
	REQUIRE(t != NULL);
	REQUIRE((tui_exec(t, "lesson coalescing") & CMD_ERR) == 0);
	tui_frame(t);
	int i = lesson_slot(t);
	REQUIRE(i >= 0);
	WINDOW *w = t->slots[i].w;
	CHECK_EQ(getmaxx(w), 50); /* a quarter of 200 */
	CHECK_EQ(getbegx(w), 150);
	CHECK_EQ(getbegy(w), 1);
	for (int k = 0; k < t->nslots - 1; k++) /* the layout keeps the rows, not the columns */
		CHECK(getbegx(t->slots[k].w) + getmaxx(t->slots[k].w) <= 150);
	char *text = pane_text(t);
	CHECK_CONTAINS(text, "many requests will warp 0's load make?");
	CHECK_CONTAINS(text, "> answer N with your prediction");
	CHECK(strstr(text, "more line") == NULL); /* all of it fits */
	CHECK_SNAPSHOT("lesson_200x60", text);
	free(text);
	/* Narrow it: the pane moves above the layout. */
	resizeterm(24, 80);
	tui_frame(t);
	i = lesson_slot(t);
	REQUIRE(i >= 0);
	CHECK_EQ(getmaxx(t->slots[i].w), 80);
	CHECK_EQ(getbegx(t->slots[i].w), 0);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}

/* Tiny screens: no pane where it cannot fit, nothing breaks, and the
 * lesson is still open. */
TEST(lesson_pane_tiny_screens)
{
	char *home = vt_state_home("lesson-pane");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	REQUIRE((tui_exec(t, "lesson coalescing") & CMD_ERR) == 0);
	static const int sizes[][2] = {{15, 60}, {8, 30}, {5, 20}, {2, 10}, {1, 1}, {24, 80}};
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		resizeterm(sizes[k][0], sizes[k][1]);
		tui_frame(t);
	}
	CHECK(ss->lesson != NULL);
	CHECK(lesson_slot(t) >= 0);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}

/* `load session` with a lesson open: the lesson and its pane stay, and the
 * output says so (the session file does not hold the lesson). */
TEST(lesson_pane_survives_load_session)
{
	char *home = vt_state_home("lesson-pane");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	REQUIRE((tui_exec(t, "lesson coalescing") & CMD_ERR) == 0);
	CHECK(!(tui_exec(t, "answer 1") & CMD_ERR));
	tui_run_to_stop(t);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s/s.gps", home);
	CHECK_EQ(tui_exec(t, cmd), CMD_OK);
	snprintf(cmd, sizeof cmd, "load session %s/s.gps", home);
	CHECK(tui_exec(t, cmd) & CMD_RUN);
	tui_run_to_stop(t);
	if (t->help_open)
		tui_close_help(t);
	tui_frame(t);
	REQUIRE(ss->lesson != NULL);
	char *screen = vt_text(curscr);
	CHECK_CONTAINS(screen, "lesson coalescing stays open at step 2 of 8");
	free(screen);
	char *text = pane_text(t);
	REQUIRE(text != NULL);
	CHECK_CONTAINS(text, "coalescing: step 2 of 8");
	free(text);
	vt_tui_stop(t, ss);
	vt_state_home_drop(home);
}
