/*
 * tui_commands.c: commands that only make sense with a screen: `layout`,
 * `zoom`, `focus`, `refresh`, `color`, `keys`. They join the one command table as
 * session->extra_cmds (set by tui_new), so the prompt, key bindings and
 * `help` treat them like every other command. Their back ends (tui.h:
 * tui_set_layout, tui_zoom, tui_focus, ...) follow the table; the screen's
 * loop and drawing are in tui.c.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "commands.h"
#include "keys.h"
#include "layout.h"
#include "views/legend.h"
#include "tui.h"
#include "sim/util.h"
#include "views/view.h"

#include "tui_int.h"

static int tui_set_layout(struct tui *t, const char *name, char **err);
/* `zoom [PANEL]`: PANEL (default: the focused panel, or the layout's first
 * when the prompt has the focus) fills the whole panel area and gets the
 * focus; the zoomed panel, or no panel, unzooms. Unknown panels and panels
 * the layout does not show are errors naming the layout's panels. A new
 * layout, and focusing another panel (Tab too), unzoom. */
static int tui_zoom(struct tui *t, const char *panel, char **err);
static int tui_focus(struct tui *t, const char *what, char **err);
static void tui_set_colour(struct tui *t, bool on);
static void tui_show_keys(struct tui *t);

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
	if (cmd_no_args(out, "refresh", argc, argv))
		return CMD_ERR;
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
	if (argc < 2)
		return cmd_usage_why(out, "color", "on or off?");
	if (argc > 2 || (strcmp(argv[1], "on") != 0 && strcmp(argv[1], "off") != 0))
		return cmd_usage_why(out, "color", "expected on or off, got '%s'", argv[argc > 2 ? 2 : 1]);
	tui_set_colour(t, strcmp(argv[1], "on") == 0);
	return CMD_OK;
}

static int cmd_keys(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	if (cmd_no_args(out, "keys", argc, argv))
		return CMD_ERR;
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

/* ---- back ends (tui.h), on the screen's state (tui_int.h) ---------------------- */

static int tui_set_layout(struct tui *t, const char *name, char **err)
{
	const struct layout_def *d = layout_find(name);
	if (!d) {
		struct strbuf sb;
		sb_init(&sb);
		for (size_t i = 0; i < layout_count(); i++)
			sb_printf(&sb, "%s%s", i ? ", " : "", layout_at(i)->name);
		set_err(err, "unknown layout '%s' (layouts: %s)", name, sb.s);
		sb_fini(&sb);
		return -1;
	}
	t->layout = d;
	t->zoom[0] = 0; /* a layout is chosen to see its panels */
	t->need_layout = true;
	return 0;
}

const char *tui_layout_name(const struct tui *t) { return t->layout->name; }

const char *tui_zoomed(const struct tui *t) { return t->zoom[0] ? t->zoom : NULL; }

/* "frc, l2, l2cache, events": the panels of the current layout. */
static char *layout_panel_list(const struct tui *t)
{
	const char *names[LAYOUT_MAX_SLOTS];
	int n = layout_panels(t->layout, names, LAYOUT_MAX_SLOTS);
	struct strbuf sb;
	sb_init(&sb);
	for (int i = 0; i < n; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", names[i]);
	return sb.s ? sb.s : xstrdup("");
}

size_t tui_layout_panels(const struct tui *t, const char **out, size_t max)
{
	int n = layout_panels(t->layout, out, max > LAYOUT_MAX_SLOTS ? LAYOUT_MAX_SLOTS : (int)max);
	return (size_t)n;
}

static int tui_zoom(struct tui *t, const char *panel, char **err)
{
	if (panel && !layout_has(t->layout, panel)) {
		char *list = layout_panel_list(t);
		if (panel_kind_find(panel))
			set_err(err, "panel '%s' is not in layout %s (its panels: %s)", panel, t->layout->name, list);
		else
			set_err(err, "unknown panel '%s' (layout %s has: %s)", panel, t->layout->name, list);
		free(list);
		return -1;
	}
	if (t->zoom[0] && (!panel || strcmp(panel, t->zoom) == 0)) {
		t->zoom[0] = 0; /* unzoom: the layout's arrangement again, the focus kept */
	} else {
		const char *first[1];
		if (!panel) /* the focused panel, or the layout's first when the prompt has the focus */
			panel = layout_has(t->layout, t->focus_name) ? t->focus_name
				: layout_panels(t->layout, first, 1) ? first[0] : NULL;
		if (!panel)
			return set_err(err, "layout %s has no panels", t->layout->name);
		snprintf(t->zoom, sizeof t->zoom, "%s", panel);
		snprintf(t->focus_name, sizeof t->focus_name, "%s", panel); /* tmux zooms the active pane */
	}
	t->need_layout = true;
	return 0;
}

int tui_arrangement(struct tui *t, struct layout_slot *out, int max)
{
	if (t->need_layout || LINES != t->lines || COLS != t->cols)
		tui_apply_layout(t);
	int n = 0;
	for (int i = 0; i < t->nslots && n < max; i++) {
		WINDOW *w = t->slots[i].w;
		out[n++] = (struct layout_slot){.panel = t->slots[i].p->ops->name,
						.y = getbegy(w),
						.x = getbegx(w),
						.h = getmaxy(w),
						.w = getmaxx(w),
						.sep_left = t->slots[i].p->sep_left};
	}
	return n;
}

static void set_focus(struct tui *t, int i)
{
	t->focus = i;
	snprintf(t->focus_name, sizeof t->focus_name, "%s", i >= 0 ? t->slots[i].p->ops->name : "cmd");
	t->dirty_panels = true;
}

static int tui_focus(struct tui *t, const char *what, char **err)
{
	/* Moving to another panel unzooms first, as tmux does on a pane switch;
	 * `focus cmd` and `focus` of the zoomed panel keep the zoom. */
	bool other = strcmp(what, "next") == 0 || strcmp(what, "prev") == 0 ||
		     (layout_has(t->layout, what) && strcmp(what, t->zoom) != 0);
	if (t->zoom[0] && other) {
		t->zoom[0] = 0;
		t->need_layout = true;
	}
	if (t->need_layout)
		tui_apply_layout(t);
	int n = t->nslots;
	if ((strcmp(what, "next") == 0 || strcmp(what, "prev") == 0) && t->squeezed) {
		/* One panel of a layout that does not fit is shown: Tab shows the
		 * next of the layout's panels (then the command line). */
		const char *names[LAYOUT_MAX_SLOTS];
		int m = layout_panels(t->layout, names, LAYOUT_MAX_SLOTS), cur = -1;
		for (int i = 0; i < m; i++)
			if (t->focus >= 0 && strcmp(names[i], t->focus_name) == 0)
				cur = i;
		int d = what[0] == 'n' ? 1 : -1, i = cur + 1; /* -1..m-1 -> 0..m */
		i = ((i + d) % (m + 1) + (m + 1)) % (m + 1) - 1;
		if (i >= 0) {
			snprintf(t->focus_name, sizeof t->focus_name, "%s", names[i]);
			tui_apply_layout(t);
			set_focus(t, 0);
		} else {
			set_focus(t, -1);
		}
		return 0;
	}
	if (strcmp(what, "next") == 0 || strcmp(what, "prev") == 0) {
		/* Cycle through the panels and the command line (-1). */
		int d = what[0] == 'n' ? 1 : -1;
		int i = t->focus + 1; /* -1..n-1 -> 0..n */
		i = ((i + d) % (n + 1) + (n + 1)) % (n + 1);
		set_focus(t, i - 1);
		return 0;
	}
	if (strcmp(what, "cmd") == 0 || strcmp(what, "prompt") == 0) {
		set_focus(t, -1);
		return 0;
	}
	for (int i = 0; i < n; i++)
		if (strcmp(t->slots[i].p->ops->name, what) == 0) {
			set_focus(t, i);
			return 0;
		}
	if (panel_kind_find(what))
		return set_err(err, "panel '%s' is not in layout %s", what, t->layout->name);
	return set_err(err, "unknown panel '%s' (focus PANEL|cmd|next|prev)", what);
}

static void tui_set_colour(struct tui *t, bool on)
{
	t->colours = draw_init(on, t->utf8);
	tui_redraw(t);
}

static void tui_show_keys(struct tui *t)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "What each column of the panels on screen means follows the keys (PgDn).\n\n");
	keys_help(&sb);
	/* What the columns on screen mean (help PANEL prints one). */
	sb_puts(&sb, "\nColumns of the panels on screen (`help PANEL` prints one):\n");
	int width = COLS - 8 > 100 - 4 ? 100 - 4 : COLS - 8;
	for (int i = 0; i < t->nslots; i++) {
		const struct legend *lg = legend_find(t->slots[i].p->ops->name);
		bool dup = false;
		for (int k = 0; k < i; k++)
			dup |= t->slots[k].p->ops == t->slots[i].p->ops;
		if (lg && !dup) {
			sb_puts(&sb, "\n");
			legend_text(lg, width > 40 ? width : 40, &sb);
		}
	}
	sb_puts(&sb, "\nCommands (help CMD for details and an example):\n");
	for (size_t i = 0; i < cmd_count(t->ss); i++) {
		const struct cmd_def *d = cmd_at(t->ss, i);
		sb_printf(&sb, "  %-16s %s\n", d->name, d->summary ? d->summary : "");
	}
	sb_puts(&sb, "\nLayouts:\n");
	for (size_t i = 0; i < layout_count(); i++)
		sb_printf(&sb, "  %-10s %s\n", layout_at(i)->name, layout_at(i)->desc);
	sb_puts(&sb, "\nColours: green hit, red miss, yellow conflict/stall/full, reverse selected.\n");
	free(t->help_text);
	t->help_text = sb.s ? sb.s : xstrdup("");
	t->help_title[0] = 0;
	t->pager = false;
	t->help_open = true;
	t->help_scroll = 0;
	t->need_layout = true;
}

void tui_close_help(struct tui *t)
{
	t->help_open = t->pager = false;
	t->need_layout = true; /* recreate windows: everything below is redrawn */
}
