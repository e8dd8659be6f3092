/*
 * tui_int.h: the inside of the interactive front end, shared by tui.c (screen,
 * run loop, commands) and tui_input.c (key routing). Nothing else includes it.
 */
#ifndef GPUSTEP_TUI_INT_H
#define GPUSTEP_TUI_INT_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "commands.h"
#include "views/draw.h"
#include "layout.h"
#include "lesson/lesson.h"
#include "outlog.h"
#include "views/view.h"

#define FRAME_SECONDS (1.0 / 30)
#define SLICE_SECONDS 0.010

struct slot {
	struct panel *p;
	WINDOW *w;
};

struct tui {
	struct session *ss;
	WINDOW *status, *out, *prompt, *help;
	struct panel *panels[24]; /* one per kind, created on first use */
	struct slot slots[LAYOUT_MAX_SLOTS];
	int nslots;
	const struct layout_def *layout;
	int focus; /* slot index, -1 = the command line */
	char focus_name[32];
	char zoom[32]; /* `zoom`: the panel of the layout that fills the panel area; "" = none */
	int lines, cols; /* screen size the windows were made for */

	struct outlog log; /* the command window's scrollback */

	/* run state */
	bool running;
	/* Keys typed while running (text, Enter, Backspace), given to the
	 * command line when the run stops, as gdb keeps typeahead; an
	 * interrupt (Ctrl-C, Esc) drops them. Grows as needed (a pasted
	 * command of any length keeps its Enter), up to TUI_AHEAD_MAX keys. */
	wint_t *ahead;
	int nahead, cap_ahead;
	uint64_t budget;
	double run_t0, mark_t;
	uint64_t run_c0;
	double cps;
	char state[256];
	enum role state_role;
	struct event stop_ev;
	bool have_stop_ev;
	/* A reverse-continue search in progress shows the machine as it was
	 * when it began (the sim is somewhere in the past meanwhile); kept to
	 * put back the state line and the highlighted event if it is cancelled
	 * or finds nothing. */
	struct event rev_stop_ev;
	bool rev_have_stop_ev;
	char rev_state[256];
	enum role rev_state_role;
	double rev_ipc;
	bool rev_run; /* the current run began as a reverse-continue */
	uint64_t run_s0, mark_s; /* session simulated-cycle counter at run start / last mark */

	/* status bar values */
	const struct sim *ipc_sim;
	int ipc_id;

	/* what to redraw */
	bool dirty_panels, dirty_status, need_layout;
	double last_frame;

	bool help_open;
	bool pager;     /* the overlay shows a command's output that did not fit the output area */
	int squeezed;   /* the layout did not fit: one of its squeezed panels fills the area (Tab: the next) */
	char squeeze_note[64];
	int help_scroll;
	char *help_text;
	char help_title[96];

	/* The lesson pane (views/lesson.c): its content, refreshed every frame,
	 * and the room the windows were made with: rows above the layout (> 0),
	 * columns beside it (< 0), 0 = no pane. */
	struct lesson_pane_buf lpb;
	const struct lesson_view *lesson;
	int lesson_geom;

	bool colours, utf8;
	bool quit;
	bool interactive; /* readline is live */
};

struct cmd_out tui_out(struct tui *t);
struct view_ctx tui_ctx_for(struct tui *t, int slot);
void tui_run_interrupt(struct tui *t);
void tui_panel_request(struct tui *t, struct panel *p);
void tui_close_help(struct tui *t);
/* Recreate the windows for the layout (or the zoomed panel) and the screen size. */
void tui_apply_layout(struct tui *t);
/* tui_state.c: the status bar's state after a run (t->state, state_role,
 * the stop event); tui_end_state only for a finished or deadlocked machine
 * (false, nothing set, otherwise). */
void tui_stop_state(struct tui *t, struct session *ss);
bool tui_end_state(struct tui *t, const struct session *ss);
/* tui_input.c: read every key that is waiting (timeout: ms to wait for the
 * first one, -1 forever) and route each (see tui.c's top comment). */
void tui_poll_keys(struct tui *t, int timeout);
/* One key through the routing tui_poll_keys uses (tests); fkey: a KEY_ code. */
void tui_feed_key(struct tui *t, wint_t key, bool fkey);
#define TUI_AHEAD_MAX 65536
/* The text typed ahead as the prompt shows it ('\n' as ';'): caller frees. */
char *tui_typeahead_text(const struct tui *t);

#endif
