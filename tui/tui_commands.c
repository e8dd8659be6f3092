/*
 * tui_commands.c: commands that only make sense with a screen: `layout`,
 * `zoom`, `focus`, `refresh`, `color`, `keys`. They join the one command table as
 * session->extra_cmds (set by tui_new), so the prompt, key bindings and
 * `help` treat them like every other command.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "keys.h"
#include "layout.h"
#include "tui.h"
#include "util.h"
#include "view.h"

static struct tui *ui_of(struct session *ss, struct cmd_out *out)
{
	if (!ss->ui)
		cmd_errorf(out, "only available in the interactive UI");
	return ss->ui;
}

static int fail(struct cmd_out *out, char *err)
{
	cmd_errorf(out, "%s", err);
	free(err);
	return CMD_ERR;
}

static int cmd_layout(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	struct tui *t = ui_of(ss, out);
	if (!t)
		return CMD_ERR;
	if (argc < 2) {
		cmd_printf(out, "layout %s; available:", tui_layout_name(t));
		for (size_t i = 0; i < layout_count(); i++)
			cmd_printf(out, "  %-9s %s", layout_at(i)->name, layout_at(i)->desc);
		return CMD_OK;
	}
	char *err = NULL;
	if (tui_set_layout(t, argv[1], &err) < 0)
		return fail(out, err);
	return CMD_OK;
}

static int cmd_focus(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	struct tui *t = ui_of(ss, out);
	if (!t)
		return CMD_ERR;
	char *err = NULL;
	if (tui_focus(t, argc < 2 ? "next" : argv[1], &err) < 0)
		return fail(out, err);
	return CMD_OK;
}

static int cmd_zoom(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	struct tui *t = ui_of(ss, out);
	if (!t)
		return CMD_ERR;
	if (argc > 2) {
		cmd_errorf(out, "usage: zoom [PANEL]");
		return CMD_ERR;
	}
	char *err = NULL;
	if (tui_zoom(t, argc < 2 ? NULL : argv[1], &err) < 0)
		return fail(out, err);
	return CMD_OK;
}

static int cmd_refresh(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	(void)argc;
	(void)argv;
	struct tui *t = ui_of(ss, out);
	if (!t)
		return CMD_ERR;
	tui_redraw(t);
	return CMD_OK;
}

static int cmd_color(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	struct tui *t = ui_of(ss, out);
	if (!t)
		return CMD_ERR;
	if (argc < 2 || (strcmp(argv[1], "on") != 0 && strcmp(argv[1], "off") != 0)) {
		cmd_errorf(out, "usage: color on|off");
		return CMD_ERR;
	}
	tui_set_colour(t, strcmp(argv[1], "on") == 0);
	return CMD_OK;
}

static int cmd_keys(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	(void)argc;
	(void)argv;
	if (!ss->ui) {
		struct strbuf sb;
		sb_init(&sb);
		keys_help(&sb);
		cmd_printf(out, "%s", sb.s ? sb.s : "");
		sb_fini(&sb);
		return CMD_OK;
	}
	tui_show_keys(ss->ui);
	return CMD_OK;
}

const struct cmd_def tui_cmds[] = {
	{
		.name = "layout",
		.usage = "layout [NAME]",
		.summary = "arrange the panels: overview, cache, dram, events, stats",
		.help = "Choose which panels the screen shows and how they are arranged; without NAME,\n"
		 "list the layouts. The arrangement adapts to the terminal size, and a panel\n"
		 "that does not fit says what it needs. Keys: F2 overview, F3 cache, F4 dram, F7\n"
		 "events, F8 stats, or Alt-1..5. A new layout ends a `zoom`.\n"
		 "Example: layout dram",
		.fn = cmd_layout,
		.complete = COMPL_LAYOUT,
	},
	{
		.name = "zoom",
		.usage = "zoom [PANEL]",
		.summary = "a panel of the layout fills the screen; again unzooms",
		.help = "Let one panel of the current layout fill the whole panel area (tmux's zoom),\n"
		 "e.g. all FRC entries at 80x24; it gets the focus and its title says\n"
		 "[Z layout NAME]. Without PANEL the focused panel (the layout's first when the\n"
		 "prompt has the focus). `zoom` again, Esc, Alt-z or F12 unzoom to the same\n"
		 "arrangement, as do `layout NAME` and moving the focus to another panel (Tab).\n"
		 "Resizing keeps the zoom; `save session` keeps it with the layout.\n"
		 "Example: zoom frc",
		.fn = cmd_zoom,
		.complete = COMPL_LAYOUT_PANEL,
	},
	{
		.name = "focus",
		.usage = "focus PANEL|cmd|next|prev",
		.summary = "give a panel the keyboard (arrows, PgUp/PgDn, /)",
		.help = "The focused panel has a reverse title and receives the arrow keys, PgUp/PgDn,\n"
		 "Home/End and (events, stats) `/` to search. `focus cmd` gives the arrow keys\n"
		 "back to the prompt (history). Tab on an empty prompt and Shift-Tab cycle the\n"
		 "focus.\n"
		 "Example: focus events",
		.fn = cmd_focus,
		.complete = COMPL_PANEL,
	},
	{
		.name = "refresh",
		.usage = "refresh",
		.summary = "redraw the whole screen (Ctrl-L)",
		.help = "Repaint every window from scratch, e.g. after another program wrote to the\n"
		 "terminal.\n"
		 "Example: refresh",
		.fn = cmd_refresh,
	},
	{
		.name = "color",
		.aliases = "colour",
		.usage = "color on|off",
		.summary = "switch colours on or off (NO_COLOR starts with them off)",
		.help = "Colours mean one thing each: green hit, red miss, yellow conflict/stall/full,\n"
		 "reverse selected. With colours off, the same information is carried by marks\n"
		 "and bold/underline/reverse.\n"
		 "Example: color off",
		.fn = cmd_color,
	},
	{
		.name = "keys",
		.usage = "keys",
		.summary = "key bindings and commands (F1; ? on an empty prompt)",
		.help = "Open an overlay listing every key binding, every command and the layouts. Any\n"
		 "key closes it; PgUp/PgDn scroll it. Letters are never bound, so typing at the\n"
		 "prompt always works; Enter on an empty line repeats step/next/continue.\n"
		 "Example: keys",
		.fn = cmd_keys,
	},
};

const size_t tui_ncmds = sizeof tui_cmds / sizeof tui_cmds[0];
