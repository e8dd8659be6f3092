/*
 * lesson.h: guided lessons (docs/LESSONS.md). A lesson is a JSON file
 * (configs/lessons/NAME.json, built in, or any path): setup commands, then
 * steps. A predict step asks a number, runs to the moment that shows it and
 * compares with a value read from the machine (a stop event's field, a stat,
 * the cycle); an action step checks the machine's state after the student
 * acted (a breakpoint of a kind exists, the run stopped at an event, a stat
 * condition). Progress lives under $XDG_STATE_HOME/gpustep/lessons/.
 */
#ifndef GPUSTEP_LESSON_H
#define GPUSTEP_LESSON_H

#include <stdbool.h>

#include "tui/commands.h"
#include "views/view.h"

struct lesson;

/* NAME (built in) or a .json path; NULL + *err (caller frees) on error. */
struct lesson *lesson_load(const char *spec, char **err);
void lesson_free(struct lesson *l);
const char *lesson_name(const struct lesson *l);

/* Attach to the session (ss->lesson; the session frees it) and run the
 * setup commands; prints the first step. CMD_ERR if a setup command fails. */
int lesson_open(struct session *ss, struct lesson *l, struct cmd_out *out);
/* The current step (1-based; nsteps + 1 once finished) and the step count. */
void lesson_position(const struct lesson *l, int *step, int *nsteps);
/* The lesson's result: steps passed, failed, total. */
void lesson_score(const struct lesson *l, int *passed, int *failed, int *total);
/* Prints each step with its result. */
void lesson_report(const struct lesson *l, struct cmd_out *out);

/* The lesson pane's content (lesson_pane.c): NULL when no lesson is open or
 * its pane is hidden (`lesson hide`). Strings point into b and the lesson. */
struct lesson_pane_buf {
	struct lesson_view v;
	char text[128], todo[200], hint[1200], warning[200];
	char step_text[2048]; /* the step's text with its ${...} (saved.NAME) filled in */
};
const struct lesson_view *lesson_pane_view(const struct session *ss, struct lesson_pane_buf *b);
/* Room for the pane with a panel area of ph rows by W columns (*v: its
 * content, NULL = none): columns beside the layout from 150 columns (< 0),
 * else rows above it, as many as the step needs up to two fifths of the
 * area (> 0; 6 of 17 at 80x24, leaving the overview room to fit); 0 = none. */
int lesson_pane_geometry(const struct session *ss, struct lesson_pane_buf *b, const struct lesson_view **v, int ph,
			 int W);

/* `gpustep lesson [...]` (cli.c). */
int lesson_main(int argc, char **argv);

#endif
