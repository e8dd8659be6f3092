/*
 * lesson_pane.c: what the lesson pane (views/lesson.c) shows, read from the
 * open lesson: the current step's text, what to do, the hint once `hint`
 * asked for it, how the previous step went. The TUI places the pane
 * (tui.c, tui_apply_layout) while a lesson is open and not hidden.
 */
#include <stdio.h>
#include <string.h>

#include "lesson_int.h"
#include "session/session.h"

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
	v->text = s->text;
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
