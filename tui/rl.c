/*
 * rl.c: readline in callback mode inside ncurses (see rl.h).
 *
 * readline keeps its state in globals; so does this file (one prompt per
 * process). Nothing here draws outside the window given to rlw_draw.
 */
#include "rl.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "commands.h"
#include "sim/event.h"
#include "load/loader.h"
#include "sim/stats.h"
#include "sim/util.h"

static struct {
	struct rlw_hooks h;
	int pending[64]; /* bytes fed but not read by readline yet */
	int npending, head;
	bool dirty;
	bool inited;
	char *history_path;
	FILE *devnull;
	char **kernels; /* built-in kernel names, for completion */
	char **presets; /* machine presets (`load`) */
	char **lessons; /* built-in lessons (`lesson`, `lesson reset`) */
} R;

/* ---- the fake input stream ----------------------------------------------- */

static int rl_getc_fake(FILE *f)
{
	(void)f;
	if (R.npending == 0)
		return EOF;
	int c = R.pending[R.head];
	R.head = (R.head + 1) % (int)ARRAY_LEN(R.pending);
	R.npending--;
	return c;
}

static int rl_input_available_fake(void) { return R.npending > 0; }

static void redisplay_hook(void) { R.dirty = true; }

static void line_handler(char *line)
{
	/* In callback mode the handler stays installed; readline resets the line. */
	if (line && *line) {
		HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;
		if (!last || strcmp(last->line, line) != 0)
			add_history(line);
	}
	R.dirty = true;
	if (R.h.line)
		R.h.line(R.h.u, line);
	else
		free(line);
}

void rlw_feed(int byte)
{
	if (R.npending == (int)ARRAY_LEN(R.pending))
		return;
	R.pending[(R.head + R.npending) % (int)ARRAY_LEN(R.pending)] = byte & 0xff;
	R.npending++;
	while (R.npending > 0)
		rl_callback_read_char();
	R.dirty = true;
}

void rlw_feed_wch(wchar_t wc)
{
	char mb[MB_LEN_MAX];
	mbstate_t st;
	memset(&st, 0, sizeof st);
	size_t n = wcrtomb(mb, wc, &st);
	if (n == (size_t)-1)
		return;
	for (size_t i = 0; i < n; i++)
		rlw_feed((unsigned char)mb[i]);
}

bool rlw_key(int key)
{
	switch (key) {
	case KEY_UP:
		rl_get_previous_history(1, 0);
		break;
	case KEY_DOWN:
		rl_get_next_history(1, 0);
		break;
	case KEY_LEFT:
		rl_backward_char(1, 0);
		break;
	case KEY_RIGHT:
		rl_forward_char(1, 0);
		break;
	case KEY_HOME:
		rl_beg_of_line(1, 0);
		break;
	case KEY_END:
		rl_end_of_line(1, 0);
		break;
	case KEY_DC:
		rl_delete(1, 0);
		break;
	case KEY_BACKSPACE:
		rl_rubout(1, 0);
		break;
	case KEY_ENTER:
		rlw_feed('\r');
		return true;
	default:
		return false;
	}
	R.dirty = true;
	return true;
}

bool rlw_empty(void) { return rl_end == 0; }

void rlw_clear_line(void)
{
	rl_callback_sigcleanup(); /* leaves i-search and other modes */
	rl_replace_line("", 0);
	rl_point = rl_end = 0;
	rl_mark = 0;
	rl_reset_line_state();
	R.npending = 0;
	R.dirty = true;
}

bool rlw_dirty(void) { return R.dirty; }

void rlw_draw(WINDOW *w)
{
	int wd = getmaxx(w);
	const char *prompt = rl_display_prompt ? rl_display_prompt : rl_prompt ? rl_prompt : "";
	const char *line = rl_line_buffer ? rl_line_buffer : "";
	werase(w);
	if (wd <= 0)
		return;
	/* Columns: count code points (ASCII and UTF-8 both one column here). */
	int plen = 0;
	for (const char *p = prompt; *p; p++)
		plen += ((unsigned char)*p & 0xC0) != 0x80;
	int cur = 0;
	for (int i = 0; i < rl_point && line[i]; i++)
		cur += ((unsigned char)line[i] & 0xC0) != 0x80;
	/* Scroll horizontally so the cursor stays visible: keep the prompt while it fits. */
	int avail = wd - plen - 1;
	int x = 0;
	if (avail >= 8) {
		waddstr(w, prompt);
		x = plen;
	} else {
		avail = wd - 1;
	}
	int skip = cur >= avail ? cur - avail + 1 : 0;
	int col = 0, shown = 0;
	if (skip > 0) {
		waddstr(w, "<");
		shown = 1;
		skip++;
	}
	for (const char *p = line; *p; p++) {
		bool start = ((unsigned char)*p & 0xC0) != 0x80;
		if (start)
			col++;
		if (col <= skip)
			continue;
		if (start && shown >= avail) {
			/* more text to the right */
			mvwaddstr(w, 0, wd - 1, ">");
			break;
		}
		waddnstr(w, p, 1);
		if (start)
			shown++;
	}
	int cx = x + cur - skip + (skip > 0 ? 1 : 0);
	if (cx >= wd)
		cx = wd - 1;
	if (cx < 0)
		cx = 0;
	wmove(w, 0, cx);
	R.dirty = false;
}

/* ---- completion ------------------------------------------------------------ */

static const char *const select_words[] = {"sm", "warp", "l2", "channel", "bank", "line", "mshr", NULL};
static const char *const mshr_words[] = {"l1", "l2", NULL};
static const char *const lesson_words[] = {"list", "report", "reset", "hide", "show", "toggle", "close", NULL};
static const char *const field_words[] = {"sm=", "warp=", "unit=", "ch=", "bank=", "row=", "addr=", "set=",
					  "a=", "b=", "if", NULL};

/* The candidates for one completion, built up front (small lists). */
static struct {
	char **v;
	size_t n, cap, next;
} C;

static void cand_add(const char *s, const char *prefix)
{
	if (strncmp(s, prefix, strlen(prefix)) != 0)
		return;
	if (C.n == C.cap) {
		C.cap = C.cap ? C.cap * 2 : 64;
		C.v = xrealloc(C.v, sizeof(char *) * C.cap);
	}
	C.v[C.n++] = xstrdup(s);
}

static void cand_clear(void)
{
	for (size_t i = 0; i < C.n; i++)
		free(C.v[i]);
	C.n = C.next = 0;
}

static char *cand_gen(const char *text, int state)
{
	(void)text;
	if (state == 0)
		C.next = 0;
	while (C.next < C.n) {
		char *s = C.v[C.next];
		C.v[C.next++] = NULL;
		return s; /* readline frees it */
	}
	return NULL;
}

static void add_words(const char *const *w, const char *prefix)
{
	for (; w && *w; w++)
		cand_add(*w, prefix);
}

static void add_commands(const char *prefix)
{
	const struct session *ss = R.h.ss;
	for (size_t i = 0; ss && i < cmd_count(ss); i++) {
		const struct cmd_def *d = cmd_at(ss, i);
		cand_add(d->name, prefix);
	}
}

static void add_stats(const char *prefix)
{
	const struct session *ss = R.h.ss;
	if (!ss || !ss->sim)
		return;
	const struct stats *st = sim_stats_c(ss->sim);
	for (uint32_t i = 0; i < st->n; i++)
		cand_add(st->defs[i].name, prefix);
}

static void add_events(const char *prefix)
{
	for (unsigned i = 0; i < EV__COUNT; i++)
		cand_add(event_defs[i].name, prefix);
}

/* `field=` words of the kinds an event name or glob matches (`break
 * l1.mshr_full re<Tab>` -> reason=), each once, then `if`; a word that
 * matches no kind (`cycle`) gets the generic fields. */
static void add_event_fields(const char *ev, const char *prefix)
{
	uint64_t mask[EV_MASK_WORDS] = {0};
	if (event_match(ev, mask) == 0) {
		add_words(field_words, prefix);
		return;
	}
	for (unsigned k = 0; k < EV__COUNT; k++) {
		if (!(mask[k >> 6] >> (k & 63) & 1))
			continue;
		char list[256], *save = NULL;
		event_field_list(k, list, sizeof list);
		for (char *f = strtok_r(list, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
			char w[64];
			snprintf(w, sizeof w, "%s=", f);
			bool dup = false;
			for (size_t i = 0; i < C.n && !dup; i++)
				dup = strcmp(C.v[i], w) == 0;
			if (!dup)
				cand_add(w, prefix);
		}
	}
	cand_add("if", prefix);
}

/* Split the line before `start` into words (at most 8). */
static int words_before(int start, char words[][64], int max)
{
	int n = 0, i = 0;
	while (i < start && n < max) {
		while (i < start && (rl_line_buffer[i] == ' ' || rl_line_buffer[i] == '\t'))
			i++;
		if (i >= start)
			break;
		int k = 0;
		while (i < start && rl_line_buffer[i] != ' ' && rl_line_buffer[i] != '\t') {
			if (k < 63)
				words[n][k++] = rl_line_buffer[i];
			i++;
		}
		words[n++][k] = 0;
	}
	return n;
}

/* Commands with subcommand words (info, list, save, load): the word first,
 * then what it takes. Returns true when readline should complete a file name. */
static bool complete_words(const struct cmd_def *d, int nw, const char *sub, const char *text)
{
	if (nw == 1) {
		add_words(d->words, text);
		if (strcmp(d->name, "load") == 0) /* load CONFIG: a preset or a file */
			for (char **p = R.presets; p && *p; p++)
				cand_add(*p, text);
		if (C.n == 0 && d->complete == COMPL_FILE) {
			rl_attempted_completion_over = 0;
			return true;
		}
		return false;
	}
	bool known = false;
	for (const char *const *w = d->words; *w; w++)
		known |= strcmp(*w, sub) == 0;
	if (!known)
		return false; /* load FILE: nothing more */
	if (d->complete == COMPL_FILE) { /* save stats|config|session FILE, load session FILE */
		rl_attempted_completion_over = 0;
		return true;
	}
	if (strcmp(sub, "stats") == 0)
		add_stats(text);
	else if (strcmp(sub, "config") == 0)
		for (size_t i = 0; i < cfg_param_count(); i++)
			cand_add(cfg_param_at(i)->path, text);
	else if (strcmp(sub, "mshr") == 0)
		add_words(mshr_words, text);
	return false;
}

static char **complete(const char *text, int start, int end)
{
	(void)end;
	char words[8][64];
	int nw = words_before(start, words, 8);
	cand_clear();
	rl_attempted_completion_over = 1; /* never fall back to file names unasked */
	rl_completion_append_character = ' ';
	if (nw == 0) {
		add_commands(text);
	} else {
		const struct cmd_def *d = R.h.ss ? cmd_lookup(R.h.ss, words[0]) : NULL;
		unsigned kind = d ? d->complete : COMPL_NONE;
		bool after_if = false;
		for (int i = 1; i < nw; i++)
			after_if |= strcmp(words[i], "if") == 0;
		if (d && strcmp(d->name, "lesson") == 0) { /* lesson NAME|list|..., lesson reset NAME */
			if (nw == 1)
				add_words(lesson_words, text);
			if (nw == 1 || (nw == 2 && strcmp(words[1], "reset") == 0))
				for (char **p = R.lessons; p && *p; p++)
					cand_add(*p, text);
		} else if (d && d->words && nw <= 2) {
			if (complete_words(d, nw, words[1], text))
				return NULL; /* readline's filename completion */
		} else if (d && strcmp(d->name, "select") == 0 && nw == 1) {
			add_words(select_words, text);
		} else if (d && strcmp(d->name, "select") == 0 && nw == 2 && strcmp(words[1], "mshr") == 0) {
			add_words(mshr_words, text);
		}
		else if (d && strcmp(d->name, "help") == 0 && nw == 1) {
			add_commands(text);
			cand_add("keys", text);
		} else if (after_if) {
			add_stats(text);
		} else {
			switch (kind) {
			case COMPL_COMMAND:
				add_commands(text);
				break;
			case COMPL_EVENT:
				if (nw == 1) {
					add_events(text);
					cand_add("cycle", text);
				} else {
					add_event_fields(words[1], text);
				}
				break;
			case COMPL_STAT:
				add_stats(text);
				break;
			case COMPL_CONFIG: /* `whatif` takes KEY=VALUE anywhere */
				if (nw == 1 || strcmp(d->name, "whatif") == 0)
					for (size_t i = 0; i < cfg_param_count(); i++)
						cand_add(cfg_param_at(i)->path, text);
				if (strcmp(d->name, "whatif") == 0)
					rl_completion_append_character = '='; /* KEY=VALUE */
				break;
			case COMPL_KERNEL:
				for (char **k = R.kernels; k && *k; k++)
					cand_add(*k, text);
				break;
			case COMPL_LAYOUT:
				add_words(R.h.layouts, text);
				break;
			case COMPL_PANEL:
				add_words(R.h.panels, text);
				break;
			case COMPL_LAYOUT_PANEL:
				if (nw == 1 && R.h.layout_panels) {
					const char *names[24];
					size_t n = R.h.layout_panels(R.h.u, names, ARRAY_LEN(names));
					for (size_t i = 0; i < n; i++)
						cand_add(names[i], text);
				}
				break;
			case COMPL_LINE:
				if (nw == 1) {
					uint64_t lines[64];
					size_t n = cmd_history_lines(R.h.ss, lines, ARRAY_LEN(lines));
					for (size_t i = 0; i < n; i++) {
						char a[24];
						snprintf(a, sizeof a, "0x%llx", (unsigned long long)lines[i]);
						cand_add(a, text);
					}
				}
				break;
			case COMPL_FILE:
				rl_attempted_completion_over = 0;
				return NULL; /* readline's filename completion */
			default:
				break;
			}
		}
	}
	if (C.n == 1 && C.v[0][0] && C.v[0][strlen(C.v[0]) - 1] == '=')
		rl_completion_append_character = '\0';
	if (C.n == 0)
		return NULL;
	return rl_completion_matches(text, cand_gen);
}

/* readline calls this to list ambiguous matches: put them in the output window. */
static void show_matches(char **matches, int num, int max_length)
{
	(void)max_length;
	struct strbuf sb;
	sb_init(&sb);
	for (int i = 1; i <= num; i++)
		sb_printf(&sb, "%s%s", i > 1 ? "  " : "", matches[i]);
	if (R.h.show)
		R.h.show(R.h.u, sb.s ? sb.s : "");
	sb_fini(&sb);
	R.dirty = true;
}

/* ---- set-up ---------------------------------------------------------------- */

void rlw_init(const char *prompt, const struct rlw_hooks *hooks)
{
	R.h = *hooks;
	R.npending = R.head = 0;
	R.devnull = fopen("/dev/null", "w");
	/* Hands off the terminal, signals and environment: curses owns them. */
	rl_readline_name = "gpustep";
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_change_environment = 0;
	rl_prep_term_function = NULL;
	rl_deprep_term_function = NULL;
	rl_getc_function = rl_getc_fake;
	rl_input_available_hook = rl_input_available_fake;
	rl_redisplay_function = redisplay_hook;
	rl_outstream = R.devnull ? R.devnull : stderr;
	rl_instream = stdin;
	rl_attempted_completion_function = complete;
	rl_completion_display_matches_hook = show_matches;
	rl_basic_word_break_characters = " \t";
	R.kernels = loader_names(LOADER_KERNELS, NULL);
	R.presets = loader_names(LOADER_PRESETS, NULL);
	R.lessons = loader_names(LOADER_LESSONS, NULL);

	using_history();
	stifle_history(1000);
	const char *hp = getenv("GPUSTEP_HISTORY");
	if (hp)
		R.history_path = *hp ? xstrdup(hp) : NULL;
	else if (getenv("HOME"))
		R.history_path = xasprintf("%s/.gpustep_history", getenv("HOME"));
	if (R.history_path)
		read_history(R.history_path);
	rl_callback_handler_install(prompt, line_handler);
	/* After the install: the first rl_initialize reads inputrc. */
	rl_variable_bind("bell-style", "none");
	rl_variable_bind("enable-bracketed-paste", "off");
	rl_variable_bind("show-all-if-ambiguous", "on");
	R.inited = true;
	R.dirty = true;
}

void rlw_fini(void)
{
	if (!R.inited)
		return;
	rl_callback_handler_remove();
	if (R.history_path) {
		write_history(R.history_path);
		history_truncate_file(R.history_path, 1000);
	}
	clear_history();
	free(R.history_path);
	R.history_path = NULL;
	cand_clear();
	free(C.v);
	C.v = NULL;
	C.cap = 0;
	loader_names_free(R.kernels);
	R.kernels = NULL;
	loader_names_free(R.presets);
	R.presets = NULL;
	loader_names_free(R.lessons);
	R.lessons = NULL;
	rl_outstream = stdout;
	if (R.devnull)
		fclose(R.devnull);
	R.devnull = NULL;
	R.inited = false;
}
