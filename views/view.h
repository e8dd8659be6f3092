/*
 * view.h: the panel object. Every panel is a `struct panel` whose first member
 * is the base below, with a const ops table written once with designated
 * initialisers (htop's Panel/Meter pattern):
 *
 *   static const struct panel_ops warps_ops = {
 *           .name = "warps", .min_w = 30, .min_h = 4,
 *           .draw = warps_draw, .key = warps_key, .free = warps_free,
 *   };
 *
 * Panels read the simulator only through `const struct sim *` (inspect.h,
 * stats.h, event.h) and change nothing but their own scroll/selection state.
 * What else they need to know (the selected units, whether they have focus,
 * the event that fired a breakpoint) comes in a `struct view_ctx`, filled by
 * the front end per frame.
 *
 * Window geometry: a panel draws into the whole WINDOW it is given. Row 0 is
 * its title bar (view_frame), content starts at row 1. When the layout puts
 * it to the right of another panel, column 0 is a separator line and content
 * starts at column 1 (struct panel.sep_left).
 */
#ifndef GPUSTEP_VIEWS_VIEW_H
#define GPUSTEP_VIEWS_VIEW_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "sim/event.h"
#include "reuse/rdmodel.h"
#include "sim/sim.h"

/* The lesson pane's content (views/lesson.c), filled by the front end from
 * the open lesson (lesson/lesson_pane.c); strings live as long as the lesson. */
struct lesson_view {
	const void *id;     /* the lesson (a new one, or a new step, scrolls to the top) */
	const char *name;
	int step, nsteps;   /* step is 1-based; nsteps + 1 = finished */
	const char *text;   /* the step's text ('\n' breaks lines) */
	const char *todo;   /* what to do now */
	const char *hint;   /* after `hint`, else NULL */
	const char *result; /* how the previous step went, "" = nothing yet */
	const char *warning; /* a configuration fallback of the machine now (rf.remap), or NULL */
};

struct view_ctx {
	const struct sim *sim;       /* NULL when no simulator exists */
	int sel_sm, sel_warp, sel_l2, sel_ch, sel_bank;
	uint64_t sel_line; bool sel_line_set; /* coherence panel: the line to show (else the newest) */
	int tl_bank, tl_set; bool tl_fixed;   /* timeline panel: `timeline l2 BANK SET` (else it follows sel_l2's newest set) */
	const struct event *stop_ev; /* the event of the breakpoint that fired, or NULL */
	const struct rdm_summary *model; /* reuse panel: the last `model` result, or NULL */
	bool focused;                /* this panel has the keyboard */
	const char *zoomed;          /* `zoom`: the layout this panel fills the screen of, or NULL */
	const char *squeezed;        /* the layout does not fit: "2 of 5 fits, Tab: next" for the one panel shown */
	const struct lesson_view *lesson; /* lesson pane: the open lesson's step, NULL = none */
	int sel_mshr_level, sel_mshr;     /* mshr panel: `select mshr l1|l2 E` (level 1 = L2) ... */
	unsigned sel_mshr_gen;            /* ... moves its cursor once per selection (gen changes) */
};

/* Key handler results, ORed (htop's HandlerResult). */
enum view_key_result {
	VK_IGNORED = 0,
	VK_HANDLED = 1 << 0,
	VK_REDRAW = 1 << 1,
	VK_COMMAND = 1 << 2, /* run the command line(s) in panel.request (e.g. "select l2 3") */
};

struct panel;

struct panel_ops {
	const char *name;
	const char *desc; /* one line, for `help layout` / completion */
	int min_w, min_h; /* smallest size (whole window) it can draw usefully */
	void (*draw)(struct panel *p, WINDOW *w, const struct view_ctx *c);
	/* Keys that reach the panel: arrows, PgUp/PgDn, Home/End, and any key
	 * while p->modal is set (search input). */
	int (*key)(struct panel *p, int key, const struct view_ctx *c);
	void (*resize)(struct panel *p, int h, int w); /* optional */
	void (*reset)(struct panel *p);                 /* optional: simulator rebuilt */
	void (*free)(struct panel *p);
};

struct panel {
	const struct panel_ops *ops;
	int h, w;      /* size of the window last drawn into */
	bool sep_left; /* draw a separator in column 0 */
	bool modal;    /* takes every key (e.g. typing a search); Esc/Enter end it */
	bool searchable;
	/* A panel changes the model only by asking the front end to run a
	 * command (through the one command table); '\n' separates commands. */
	char request[96];
};

/* Content rectangle inside a panel window (below the title, right of the separator). */
struct rect {
	int y, x, h, w;
};

/* Draw the panel, or one line saying it does not fit. Sets p->h/p->w. */
void panel_draw(struct panel *p, WINDOW *w, const struct view_ctx *c);
int panel_key(struct panel *p, int key, const struct view_ctx *c);
void panel_reset(struct panel *p);
void panel_free(struct panel *p);

/* Title bar in row 0: name (bold; reverse when focused), "[Z layout NAME]"
 * when zoomed, then info, rest a horizontal rule. Returns the content rectangle. */
struct rect view_frame(struct panel *p, WINDOW *w, const struct view_ctx *c, const char *info);
/* Whether two events are the same record (every field): the stop's event
 * found again in a log. */
bool view_same_event(const struct event *a, const struct event *b);

/* The panel registry: every panel kind, in the order `focus`/help list them. */
struct panel_kind {
	const char *name;
	const char *desc;
	struct panel *(*create)(void);
};
size_t panel_kind_count(void);
const struct panel_kind *panel_kind_at(size_t i);
const struct panel_kind *panel_kind_find(const char *name);
/* New panel of that kind, or NULL for an unknown name. Free with panel_free. */
struct panel *panel_create(const char *name);

/* Constructors (one per views/ file). */
struct panel *warps_panel_new(void);
struct panel *mshr_panel_new(void);
struct panel *cache_panel_new(void);
struct panel *l2cache_panel_new(void);
struct panel *l2_panel_new(void);
struct panel *dram_panel_new(void);
struct panel *events_panel_new(void);
struct panel *stats_panel_new(void);
struct panel *reuse_panel_new(void); /* views/reuse.c */
struct panel *frc_panel_new(void);   /* views/frc.c */
struct panel *rf_panel_new(void);    /* views/rf.c */
struct panel *coherence_panel_new(void); /* views/coherence.c */
struct panel *protocol_panel_new(void);  /* views/protocol.c */
struct panel *timeline_panel_new(void);  /* views/timeline.c */
struct panel *lesson_panel_new(void);    /* views/lesson.c */
/* Rows the lesson pane needs at width w (content columns) to show all of v. */
int lesson_pane_rows(const struct lesson_view *v, int w);
/* Rows of the step's text the lesson pane could not show at its last draw
 * (PgUp/PgDn on an empty prompt scroll it then). */
int lesson_panel_hidden(const struct panel *p);
struct panel *dramq_panel_new(void);     /* views/dramq.c */
/* The event kinds the timeline panel is built from (`timeline` logs them). */
const unsigned *timeline_kinds(size_t *n);

#endif
