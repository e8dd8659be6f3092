/*
 * test_pager.c: the pager and the help overlay lose no text: at 80x24 the
 * box takes the whole width and a line longer than it wraps (before, the box
 * was 76 wide and `help focus` ended three of its lines with "…": "receives
 * the arrow keys, PgUp…", "gives the arrow…"); Space and the `v` mark count
 * wrapped rows.
 */
#include <stdlib.h>
#include <string.h>

#include "views/draw.h"
#include "views/help.h"
#include "tui/outlog.h"
#include "tui/rl.h"
#include "test.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

/* The words of text all appear, in order, in the screen rows 0..LINES-1. */
static bool screen_has_words(const char *text)
{
	struct strbuf sb;
	sb_init(&sb);
	char row[1024];
	for (int y = 0; y < LINES; y++)
		sb_printf(&sb, "%s ", draw_read_row(curscr, y, row, sizeof row));
	char *copy = strdup(text), *save = NULL;
	const char *at = sb.s;
	bool ok = true;
	for (char *w = strtok_r(copy, " \n", &save); w && ok; w = strtok_r(NULL, " \n", &save)) {
		const char *f = strstr(at, w);
		if (!f)
			test_fail(__FILE__, __LINE__, "word '%s' of the text is not on the screen", w);
		ok = f != NULL;
		at = f ? f + strlen(w) : at;
	}
	free(copy);
	sb_fini(&sb);
	return ok;
}

TEST(pager_wraps_long_lines_at_80_columns)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_frame(t);
	CHECK_EQ(tui_exec(t, "help focus"), CMD_OK);
	REQUIRE(t->help_open && t->pager && t->help_text);
	tui_frame(t);
	CHECK_EQ(getmaxx(t->help), 80);
	CHECK(screen_has_words(t->help_text));
	char row[1024];
	for (int y = 0; y < LINES; y++)
		CHECK(strstr(draw_read_row(curscr, y, row, sizeof row), "…") == NULL);
	tui_feed_key(t, 'q', false);
	/* `help events` has lines of 100+ columns: every word is reachable by
	 * paging, and Space stops at the last page of wrapped rows. */
	CHECK_EQ(tui_exec(t, "help events"), CMD_OK);
	REQUIRE(t->help_open && t->pager);
	/* A wrapped row hangs under its line's text: "  warp.issue ... a warp
	 * issued an" then "    instruction (stmt = ...)" (the line's 2 + 2). */
	tui_frame(t);
	draw_read_row(curscr, 3, row, sizeof row);
	CHECK(strncmp(row, "│    instruction", strlen("│    instruction")) == 0);
	int total = help_rows(t->help_text, getmaxx(t->help) - 3), rows = getmaxy(t->help) - 2;
	CHECK(total > help_lines(t->help_text));
	for (int i = 0; i < 200 && t->help_open; i++) {
		tui_frame(t);
		if (t->help_scroll + rows >= total)
			break;
		tui_feed_key(t, ' ', false);
	}
	REQUIRE(t->help_open);
	CHECK_EQ(t->help_scroll, total - rows);
	/* The text's last line is on screen, whole. */
	const char *last = t->help_text + strlen(t->help_text);
	while (last > t->help_text && last[-1] == '\n')
		last--;
	while (last > t->help_text && last[-1] != '\n')
		last--;
	CHECK(screen_has_words(last));
	tui_feed_key(t, ' ', false); /* Space on the last page closes */
	CHECK(!t->help_open);
	vt_tui_stop(t, ss);
}

/* A letter typed while the help overlay is open (opened by `keys`, `?` or
 * F1) closes it and goes on at the prompt, as with the pager (before, it was
 * swallowed: `keys`, then typing `layout` gave `ayout`). Space and q only
 * close it. */
TEST(help_overlay_passes_typed_letters_on)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	tui_frame(t);
	/* readline live, as gpustep's TUI has it (no history file) */
	setenv("GPUSTEP_HISTORY", "", 1);
	struct rlw_hooks hooks = {.u = t, .ss = ss};
	rlw_init("(gpustep) ", &hooks);
	t->interactive = true;
	CHECK_EQ(tui_exec(t, "keys"), CMD_OK);
	REQUIRE(t->help_open && !t->pager);
	tui_feed_key(t, 'l', false);
	CHECK(!t->help_open);
	CHECK(!rlw_empty()); /* the l is on the prompt line */
	rlw_clear_line();
	CHECK_EQ(tui_exec(t, "keys"), CMD_OK);
	tui_feed_key(t, ' ', false);
	CHECK(!t->help_open);
	CHECK(rlw_empty()); /* Space only closes */
	t->interactive = false;
	rlw_fini();
	vt_tui_stop(t, ss);
}

/* Screen commands name a bad argument too (before: `refresh x` and `keys x`
 * ignored it, `color x` said only "usage: color on|off"). */
TEST(screen_commands_name_bad_arguments)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	static const struct {
		const char *line, *err;
	} cases[] = {
		{"color x", "color: expected on or off, got 'x'\nusage: color on|off\n"},
		{"refresh x", "refresh: takes no arguments, got 'x'\nusage: refresh\n"},
		{"keys x", "keys: takes no arguments, got 'x'\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		CHECK_EQ(tui_exec(t, cases[i].line), CMD_ERR);
		char *tail = outlog_tail(&t->log, 2);
		if (!strstr(tail, cases[i].err))
			test_fail(__FILE__, __LINE__, "%s: got '%s'", cases[i].line, tail);
		free(tail);
	}
	vt_tui_stop(t, ss);
}
