/*
 * tui_input.c: key routing for the interactive front end (the order is in
 * tui.c's top comment): help overlay, modal panel input, Ctrl-C/Esc, key
 * bindings (keys.c), navigation keys to the focused panel, then readline.
 */
#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "views/help.h"
#include "keys.h"
#include "rl.h"
#include "tui.h"
#include "tui_int.h"

/* Keep a key typed during a run: text, Enter, Backspace; other control keys
 * (Ctrl-D, Tab, ...) are not typeahead. */
static void tui_typeahead(struct tui *t, wint_t key);

static bool is_nav_key(int k)
{
	return k == KEY_UP || k == KEY_DOWN || k == KEY_LEFT || k == KEY_RIGHT || k == KEY_PPAGE || k == KEY_NPAGE ||
	       k == KEY_HOME || k == KEY_END;
}

static void to_panel(struct tui *t, int key)
{
	struct panel *p = t->slots[t->focus].p;
	struct view_ctx c = tui_ctx_for(t, t->focus);
	int r = panel_key(p, key, &c);
	if (r & VK_COMMAND)
		tui_panel_request(t, p);
	if (r & (VK_REDRAW | VK_COMMAND))
		t->dirty_panels = true;
}

static void run_binding(struct tui *t, const struct key_binding *b)
{
	if (t->running || (b->flags & KB_QUIET)) {
		/* Only screen commands while running (layout, focus, refresh, keys). */
		struct cmd_out o = tui_out(t);
		cmd_exec(t->ss, b->command, &o);
		t->dirty_panels = t->dirty_status = true;
		return;
	}
	tui_exec(t, b->command);
}

/* Esc was read: Alt-x if another key follows at once, else a lone Esc. */
static int read_after_esc(struct tui *t, wint_t *wc)
{
	wtimeout(t->prompt, 0);
	int r = wget_wch(t->prompt, wc);
	wtimeout(t->prompt, t->running ? 0 : 250);
	return r;
}

/* A key while the help overlay or the pager is open: scroll keys scroll it,
 * any other key closes it. True when the key is used up; false when it
 * goes on to the prompt (a character typed while it was open). */
static bool help_key(struct tui *t, int key, bool fkey)
{
	bool space = !fkey && key == ' ' && t->pager;
	if ((fkey && (key == KEY_PPAGE || key == KEY_NPAGE || key == KEY_UP || key == KEY_DOWN || key == KEY_HOME ||
		      key == KEY_END)) ||
	    (space && t->help && t->help_scroll + getmaxy(t->help) - 2 < help_rows(t->help_text, getmaxx(t->help) - 3))) {
		int page = t->help ? getmaxy(t->help) - 3 : 10; /* a page, one line kept */
		t->help_scroll += key == KEY_UP ? -1 : key == KEY_DOWN ? 1 : key == KEY_PPAGE ? -page
				  : key == KEY_HOME ? -1000000 : key == KEY_END ? 1000000 : page;
		t->dirty_panels = true;
		return true;
	}
	tui_close_help(t);
	/* The pager and the help overlay close on any key; a character typed
	 * for the prompt goes on there (after `keys` or `?`, typing `layout`
	 * gave 'ayout'). */
	return fkey || key == 27 || key == '\r' || key == '\n' || key == ' ' || key == 'q' || key < 32;
}

/* Esc and what follows it: an Alt key bound by the TUI comes back as
 * KEYS_ALT(c) (Alt-1..9 layouts, Alt-z zoom, Alt-l the lesson pane, where
 * readline's downcase-word gives way, Alt-w / Alt-W along a `why` chain);
 * -1 when the Esc was handled here (a lone Esc interrupts a run or leaves
 * the zoom; Meta-x goes to readline). */
static int esc_key(struct tui *t)
{
	wint_t c2;
	int r2 = read_after_esc(t, &c2);
	if (r2 == OK && ((c2 >= '1' && c2 <= '9') || c2 == 'z' || c2 == 'l' || c2 == 'w' || c2 == 'W'))
		return KEYS_ALT((int)c2);
	if (r2 == ERR) {
		if (t->running)
			tui_run_interrupt(t);
		else if (tui_zoomed(t)) /* a lone Esc leaves the zoom (the prompt keeps its line) */
			run_binding(t, &(const struct key_binding){.command = "zoom", .flags = KB_QUIET});
	} else if (!t->running && t->interactive) {
		/* Meta-x for readline (M-b, M-f, ...). */
		rlw_feed(27);
		if (r2 == KEY_CODE_YES)
			rlw_key((int)c2);
		else
			rlw_feed_wch((wchar_t)c2);
	}
	return -1;
}

/* Ctrl-C: interrupts a run, else clears the prompt's line. */
static void ctrl_c_key(struct tui *t)
{
	if (t->running)
		tui_run_interrupt(t);
	else if (t->interactive)
		rlw_clear_line();
}

/* A key bound in keys.c runs its command (Enter only when bound for an
 * empty prompt); '/' on an empty prompt searches a focused searchable
 * panel. True when the key is used up. */
static bool bound_key(struct tui *t, int key, bool fkey)
{
	bool empty = !t->interactive || rlw_empty();
	int lookup = key;
	if (!fkey && (key == '\n' || key == '\r'))
		lookup = '\r';
	const struct key_binding *b = NULL;
	if (fkey || key < 32 || key == '?' || key == 127 || key >= KEYS_ALT(0))
		b = keys_lookup(lookup, empty, t->running);
	if (b && !(!fkey && key == '\r')) {
		run_binding(t, b);
		return true;
	}
	if (!fkey && key == '/' && empty && !t->running && t->focus >= 0 && t->slots[t->focus].p->searchable) {
		to_panel(t, key);
		return true;
	}
	return false;
}

/* A navigation key: the focused panel, else Page Up/Down the output log,
 * else readline. */
static void nav_key(struct tui *t, int key)
{
	int lesson = -1; /* the lesson pane, when its step's text is cut */
	for (int i = 0; i < t->nslots; i++)
		if (strcmp(t->slots[i].p->ops->name, "lesson") == 0 && lesson_panel_hidden(t->slots[i].p))
			lesson = i;
	if (t->focus >= 0 && t->focus < t->nslots) {
		to_panel(t, key);
	} else if ((key == KEY_PPAGE || key == KEY_NPAGE) && lesson >= 0 && (!t->interactive || rlw_empty())) {
		int f = t->focus; /* PgUp/PgDn on an empty prompt: the step's text */
		t->focus = lesson;
		to_panel(t, key);
		t->focus = f;
	} else if ((key == KEY_PPAGE || key == KEY_NPAGE) && t->out) {
		outlog_page(&t->log, t->out, key == KEY_PPAGE ? 1 : -1);
	} else if (!t->running && t->interactive) {
		rlw_key(key);
	}
}

/* Any other key: kept while a run goes on (tui_poll_keys replays it when
 * the run stops), else readline's. */
static void prompt_key(struct tui *t, int key, bool fkey)
{
	if (t->running) {
		bool bs = fkey && key == KEY_BACKSPACE;
		if ((!fkey || bs) && t->interactive)
			tui_typeahead(t, bs ? 127 : (wint_t)key);
		return;
	}
	if (!t->interactive)
		return;
	if (fkey)
		rlw_key(key);
	else
		rlw_feed_wch((wchar_t)key);
}

/* The routing order of tui.c's top comment, one numbered step each. */
static void handle_key(struct tui *t, int r, wint_t wc)
{
	int key = (int)wc;
	bool fkey = r == KEY_CODE_YES;
	if (fkey && key == KEY_RESIZE) {
		t->need_layout = true;
		return;
	}
	if (fkey && key == KEY_MOUSE)
		return;
	/* 1. help overlay */
	if (t->help_open && help_key(t, key, fkey))
		return;
	/* 2. a panel taking input */
	if (t->focus >= 0 && t->focus < t->nslots && t->slots[t->focus].p->modal) {
		to_panel(t, key);
		return;
	}
	/* 3. Ctrl-C and Esc */
	if (!fkey && key == 3) {
		ctrl_c_key(t);
		return;
	}
	if (!fkey && key == 27) {
		key = esc_key(t);
		if (key < 0)
			return;
		fkey = true; /* an Alt key: treat as a bound key below */
	}
	/* 4. bindings */
	if (bound_key(t, key, fkey))
		return;
	/* 5. navigation */
	if (fkey && is_nav_key(key)) {
		nav_key(t, key);
		return;
	}
	/* 6. typeahead during a run, else readline */
	prompt_key(t, key, fkey);
}

/* Keys typed during a run that has stopped: to the command line now, in
 * order. A replayed Enter may start another run; the keys after it are then
 * kept again for that run's end. */
static void replay_typeahead(struct tui *t)
{
	int n = t->nahead;
	wint_t *keys = t->ahead; /* keys a replayed run keeps go to a new buffer */
	t->ahead = NULL;
	t->nahead = t->cap_ahead = 0;
	for (int i = 0; i < n && !t->quit; i++)
		handle_key(t, OK, keys[i]);
	free(keys);
}

static void tui_typeahead(struct tui *t, wint_t key)
{
	bool keep = key == '\n' || key == '\r' || key == 127 || key == 8 || (key >= 32 && key != 127);
	if (!keep || t->nahead >= TUI_AHEAD_MAX)
		return;
	if (t->nahead == t->cap_ahead) {
		t->cap_ahead = t->cap_ahead ? t->cap_ahead * 2 : 256;
		t->ahead = xrealloc(t->ahead, sizeof *t->ahead * (size_t)t->cap_ahead);
	}
	t->ahead[t->nahead++] = key;
	t->dirty_status = true;
}

char *tui_typeahead_text(const struct tui *t)
{
	/* UTF-8: up to 4 bytes a key. */
	char *s = xmalloc((size_t)t->nahead * 4 + 1);
	size_t n = 0;
	for (int i = 0; i < t->nahead; i++) {
		wint_t k = t->ahead[i];
		if (k == 127 || k == 8) { /* Backspace: drop the last character (all its bytes) */
			while (n > 0 && ((unsigned char)s[n - 1] & 0xC0) == 0x80)
				n--;
			n -= n > 0;
		} else if (k == '\n' || k == '\r') {
			s[n++] = ';';
		} else {
			char mb[8];
			mbstate_t st;
			memset(&st, 0, sizeof st);
			size_t m = wcrtomb(mb, (wchar_t)k, &st);
			if (m == (size_t)-1) {
				s[n++] = '?';
			} else {
				memcpy(s + n, mb, m);
				n += m;
			}
		}
	}
	s[n] = 0;
	return s;
}

void tui_feed_key(struct tui *t, wint_t key, bool fkey) { handle_key(t, fkey ? KEY_CODE_YES : OK, key); }

void tui_poll_keys(struct tui *t, int timeout)
{
	wint_t wc;
	if (!t->running && t->nahead)
		replay_typeahead(t);
	wtimeout(t->prompt, timeout);
	int r;
	while (!t->quit && (r = wget_wch(t->prompt, &wc)) != ERR) {
		handle_key(t, r, wc);
		wtimeout(t->prompt, 0);
	}
	wtimeout(t->prompt, t->running ? 0 : 250);
}

