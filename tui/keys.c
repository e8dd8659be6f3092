/*
 * keys.c: the key binding table (see keys.h).
 */
#include "keys.h"

#include <curses.h>
#include <string.h>

static const struct key_binding bindings[] = {
	{KEY_F(10), "F10", "step", 0, "advance one cycle (Enter repeats)"},
	{KEY_F(11), "F11", "next", 0, "until the selected warp issues an instruction"},
	{KEY_F(5), "F5", "continue", 0, "run until a breakpoint or the end"},
	{KEY_F(6), "F6", "reverse-step", 0, "back one cycle (Enter repeats)"},
	{KEY_F(22), "Shift-F10", "reverse-step", 0, "back one cycle (as F6)"},
	{KEY_F(9), "F9", "reverse-continue", 0, "back to the previous breakpoint stop"},
	{KEY_F(17), "Shift-F5", "reverse-continue", 0, "back to the previous breakpoint stop (as F9)"},
	{KEY_F(1), "F1", "keys", KB_RUNNING | KB_QUIET, "this help overlay"},
	{'?', "?", "keys", KB_EMPTY | KB_QUIET, "this help overlay (prompt empty)"},
	{KEY_F(2), "F2", "layout overview", KB_RUNNING | KB_QUIET, "warps, MSHRs, L2, DRAM, events"},
	{KEY_F(3), "F3", "layout cache", KB_RUNNING | KB_QUIET, "L1 and L2 set x way grids"},
	{KEY_F(4), "F4", "layout dram", KB_RUNNING | KB_QUIET, "DRAM banks and events"},
	{KEY_F(7), "F7", "layout events", KB_RUNNING | KB_QUIET, "the event log"},
	{KEY_F(8), "F8", "layout stats", KB_RUNNING | KB_QUIET, "the statistics registry"},
	{KEYS_ALT('1'), "Alt-1", "layout overview", KB_RUNNING | KB_QUIET, NULL},
	{KEYS_ALT('2'), "Alt-2", "layout cache", KB_RUNNING | KB_QUIET, NULL},
	{KEYS_ALT('3'), "Alt-3", "layout dram", KB_RUNNING | KB_QUIET, NULL},
	{KEYS_ALT('4'), "Alt-4", "layout events", KB_RUNNING | KB_QUIET, NULL},
	{KEYS_ALT('5'), "Alt-5", "layout stats", KB_RUNNING | KB_QUIET, NULL},
	{KEYS_ALT('z'), "Alt-z", "zoom", KB_RUNNING | KB_QUIET, "focused panel fills the screen; again unzooms"},
	{KEY_F(12), "F12", "zoom", KB_RUNNING | KB_QUIET, "zoom / unzoom (as Alt-z)"},
	{KEYS_ALT('l'), "Alt-l", "lesson toggle", KB_RUNNING | KB_QUIET, "show / hide the lesson pane"},
	{KEYS_ALT('w'), "Alt-w", "why go next", 0, "select the next link of the last `why` chain\n(its unit in its panel, focused)"},
	{KEYS_ALT('W'), "Alt-W", "why go prev", 0, "the previous link of the last `why` chain"},
	{'\t', "Tab", "focus next", KB_EMPTY | KB_RUNNING | KB_QUIET, "focus the next panel (prompt empty; else\ncompletes the word)"},
	{KEY_BTAB, "Shift-Tab", "focus prev", KB_RUNNING | KB_QUIET, "focus the previous panel"},
	{12, "Ctrl-L", "refresh", KB_RUNNING | KB_QUIET, "redraw the whole screen"},
	{3, "Ctrl-C", NULL, KB_RUNNING, "stop a run; at the prompt, clear the line"},
	{27, "Esc", NULL, KB_RUNNING, "stop a run; end a panel search; else unzoom"},
	{KEY_PPAGE, "PgUp/PgDn", NULL, KB_RUNNING, "scroll the focused panel (or command output)"},
	{KEY_UP, "Up/Down", NULL, 0, "move in the focused panel; history when the\nprompt has the focus"},
	{KEY_LEFT, "Left/Right", NULL, 0, "scroll ways in the cache grids; frc panel:\nlist or grid; edit the line at the prompt"},
	{KEY_HOME, "Home/End", NULL, 0, "first / last row (End follows the event log)"},
	{'/', "/", NULL, KB_EMPTY, "search the focused events or stats panel\n(prompt empty)"},
	{'\r', "Enter", NULL, 0, "run the line; on an empty line repeat the\nlast step, next, continue or reverse-step"},
	{4, "Ctrl-D", "quit", KB_EMPTY, "quit (prompt empty)"},
};

static size_t keys_count(void) { return sizeof bindings / sizeof bindings[0]; }

const struct key_binding *keys_lookup(int key, bool prompt_empty, bool running)
{
	for (size_t i = 0; i < keys_count(); i++) {
		const struct key_binding *b = &bindings[i];
		if (b->key != key || !b->command)
			continue;
		if ((b->flags & KB_EMPTY) && !prompt_empty)
			continue;
		if (running && !(b->flags & KB_RUNNING))
			continue;
		return b;
	}
	return NULL;
}

void keys_help(struct strbuf *out)
{
	sb_puts(out, "Keys (letters always go to the prompt):\n");
	for (size_t i = 0; i < keys_count(); i++) {
		const struct key_binding *b = &bindings[i];
		if (!b->help) /* Alt-N repeat the F-key layouts */
			continue;
		/* A help of several lines continues under its first (<= 78 columns). */
		const char *h = b->help, *nl;
		sb_printf(out, "  %-10s %-17s ", b->label, b->command ? b->command : "");
		while ((nl = strchr(h, '\n')) != NULL) {
			sb_printf(out, "%.*s\n%31s", (int)(nl - h), h, "");
			h = nl + 1;
		}
		sb_printf(out, "%s\n", h);
	}
	sb_puts(out, "  Alt-1..5   layout overview, cache, dram, events, stats\n");
}
