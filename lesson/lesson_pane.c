/*
 * lesson_pane.c: what the lesson pane (views/lesson.c) shows, read from the
 * open lesson: the current step's text, what to do, the hint once `hint`
 * asked for it, how the previous step went. The TUI places the pane
 * (tui.c, tui_apply_layout) while a lesson is open and not hidden.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "lesson_int.h"
#include "session/session.h"

/* A configuration fallback of the machine now, "" if none (the pane shows
 * it: a student would not look in `info rf`). */
void lesson_machine_warning(const struct session *ss, char *buf, size_t n)
{
	struct rf_info ri;
	buf[0] = 0;
	if (ss->sim && inspect_rf(ss->sim, 0, &ri) && ri.warning && *ri.warning)
		snprintf(buf, n, "warning: %s", ri.warning);
}

/* text with its ${...} filled in (values a step recorded: "the first run read
 * ${saved.reads_nowb}"), or text itself when one cannot be read yet. */
const char *lesson_step_text(const struct session *ss, const struct lesson *l, const char *text, char *buf, size_t n)
{
	if (!strstr(text, "${"))
		return text;
	char why[160];
	char *t = lesson_interp((struct session *)ss, l, text, why, sizeof why); /* reads only */
	if (!t)
		return text;
	snprintf(buf, n, "%s", t);
	free(t);
	return buf;
}

const struct lesson_view *lesson_pane_view(const struct session *ss, struct lesson_pane_buf *b)
{
	const struct lesson *l = ss->lesson;
	if (!l || l->pane_hidden)
		return NULL;
	struct lesson_view *v = &b->v;
	*v = (struct lesson_view){.id = l, .name = l->name, .step = l->cur + 1, .nsteps = l->nsteps, .result = l->last_result};
	if (l->cur >= l->nsteps) {
		int p, f, t;
		lesson_score(l, &p, &f, &t);
		snprintf(b->text, sizeof b->text, "Lesson finished: %d of %d steps passed, %d failed.", p, t, f);
		v->text = b->text;
		snprintf(b->todo, sizeof b->todo, "> `lesson report` lists the steps; `lesson %s` starts again; `lesson close` closes this pane",
			 l->name);
		v->todo = b->todo;
		return v;
	}
	const struct lstep *s = &l->steps[l->cur];
	v->text = lesson_step_text(ss, l, s->text, b->step_text, sizeof b->step_text);
	lesson_machine_warning(ss, b->warning, sizeof b->warning);
	v->warning = b->warning[0] ? b->warning : NULL;
	snprintf(b->todo, sizeof b->todo, "%s", s->predict ? "> answer N with your prediction" : "> do it, then type `answer`");
	if (s->hint && !l->hint_shown)
		strcat(b->todo, " (`hint` for a hint)");
	v->todo = b->todo;
	if (l->hint_shown) {
		snprintf(b->hint, sizeof b->hint, "Hint: %s", s->hint ? s->hint : "no hint for this step.");
		v->hint = b->hint;
	}
	return v;
}

void lesson_position(const struct lesson *l, int *step, int *nsteps)
{
	*step = l->cur + 1;
	*nsteps = l->nsteps;
}

int lesson_pane_geometry(const struct session *ss, struct lesson_pane_buf *b, const struct lesson_view **v, int ph, int W)
{
	*v = lesson_pane_view(ss, b);
	if (!*v || ph < 4 || W < 24)
		return 0;
	if (W >= 150) {
		int cols = W / 4;
		return -(cols < 40 ? 40 : cols > 64 ? 64 : cols);
	}
	int rows = lesson_pane_rows(*v, W), most = ph * 2 / 5;
	if (most < 3)
		most = 3;
	return rows < 3 ? 3 : rows > most ? most : rows;
}
