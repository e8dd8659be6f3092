/*
 * lesson_catalog.c: the lessons as a catalogue, for `lesson` and `gpustep
 * lesson` (cmd_lesson.c): the list in teaching order with durations, the
 * Markdown handout, and clearing a lesson's progress.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_int.h"
#include "lesson/lesson_int.h"
#include "load/embedded.h"
#include "lesson_catalog.h"

/* The built-in lessons in teaching order: from how a warp's accesses become
 * requests, through what holds them (MSHRs, the scheduler hiding their
 * latency, DRAM rows), to caching policy, coherence and the register file.
 * A lesson not listed here follows, by name. */
static const char *const teaching_order[] = {"coalescing", "scheduling", "mshrs",     "dram_rows", "reuse",
					     "bypassing",  "frc",        "coherence", "racetrack"};

static int order_of(const char *name)
{
	for (size_t i = 0; i < sizeof teaching_order / sizeof *teaching_order; i++)
		if (strcmp(teaching_order[i], name) == 0)
			return (int)i;
	return (int)(sizeof teaching_order / sizeof *teaching_order);
}

static int by_teaching_order(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int ox = order_of(x), oy = order_of(y);
	return ox != oy ? ox - oy : strcmp(x, y);
}

/* An estimate for a lab plan: 3 minutes per prediction (read, think,
 * answer, read the explanation), 5 per action (type commands, look at the
 * stop), rounded up to 5 minutes. */
static int lesson_minutes(const struct lesson *l)
{
	int m = 0;
	for (int i = 0; i < l->nsteps; i++)
		m += l->steps[i].predict ? 3 : 5;
	return (m + 4) / 5 * 5;
}

/* text word-wrapped at width, each line indented. */
static void print_wrapped(struct cmd_out *out, const char *text, int indent, int width)
{
	const char *p = text;
	while (*p) {
		int len = (int)strlen(p), take = len;
		if (len > width) {
			take = width;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = width;
		}
		cmd_printf(out, "%*s%.*s", indent, "", take, p);
		p += take;
		while (*p == ' ')
			p++;
	}
}

/* Every built-in lesson, in teaching order, with its steps, an estimated
 * duration and the student's progress; the summary wrapped under it. */
void list_lessons(struct cmd_out *out)
{
	const char *names[64];
	char store[64][64];
	int n = 0;
	for (size_t i = 0; i < n_embedded_files && n < 64; i++) {
		const char *p = embedded_files[i].path;
		if (strncmp(p, "configs/lessons/", 16) != 0)
			continue;
		snprintf(store[n], sizeof store[n], "%.*s", (int)(strlen(p + 16) - 5), p + 16);
		names[n] = store[n];
		n++;
	}
	qsort(names, (size_t)n, sizeof *names, by_teaching_order);
	int total = 0;
	for (int i = 0; i < n; i++) {
		const char *name = names[i];
		char *err = NULL;
		struct lesson *l = lesson_load(name, &err);
		if (!l) {
			cmd_printf(out, "  %-12s (broken: %s)", name, err);
			free(err);
			continue;
		}
		struct lesson_progress pr;
		char prog[64] = "not started";
		if (lesson_progress_read(name, &pr)) {
			if (pr.reached >= pr.total)
				snprintf(prog, sizeof prog, "done, %d/%d passed", pr.passed, pr.total);
			else
				snprintf(prog, sizeof prog, "step %d of %d", pr.reached + 1, pr.total);
		}
		int min = lesson_minutes(l);
		total += min;
		cmd_printf(out, "%2d. %-12s %2d steps  ~%2d min  %s", i + 1, name, l->nsteps, min, prog);
		print_wrapped(out, l->summary ? l->summary : l->title, 8, 70);
		lesson_free(l);
	}
	cmd_printf(out, "(about %d min in all: ~3 min per prediction, ~5 per action)", total);
}

/* `gpustep lesson NAME --handout [--answers]`: the lesson as Markdown for
 * printing: its setup, then each step's text and what to do; with
 * answers, each step's hint, where the machine's answer is read and the
 * explanation (its ${...} shown as the expressions they are: their values
 * come from the student's run). */
void print_handout(const struct lesson *l, bool answers, FILE *f)
{
	fprintf(f, "# %s\n\n", l->title);
	if (l->summary)
		fprintf(f, "%s.\n\n", l->summary);
	fprintf(f, "Lesson `%s`: %d steps, about %d minutes. Open it with `gpustep lesson %s` (or `lesson %s` at the "
		   "prompt); the lesson sets up the machine with:\n\n",
		l->name, l->nsteps, lesson_minutes(l), l->name, l->name);
	for (int i = 0; i < l->nsetup; i++)
		fprintf(f, "    %s\n", l->setup[i]);
	fprintf(f, "\n");
	for (int i = 0; i < l->nsteps; i++) {
		const struct lstep *s = &l->steps[i];
		fprintf(f, "## Step %d (%s)\n\n", i + 1, s->predict ? "prediction" : "action");
		for (const char *p = s->text; *p; p++) /* a text's line breaks are paragraphs */
			fputs(*p == '\n' ? "\n\n" : (char[2]){*p, 0}, f);
		if (s->predict)
			fprintf(f, "\n\nYour prediction: ____________  (then `answer N`)\n\n");
		else
			fprintf(f, "\n\nDo it, then type `answer`.\n\n");
		if (!answers)
			continue;
		if (s->hint)
			fprintf(f, "*Hint:* %s\n\n", s->hint);
		if (s->predict) {
			fprintf(f, "*Answer:* the machine's `%s`%s, read after the lesson's run.\n\n", s->value,
				s->tolerance > 0 ? " (within the step's tolerance)" : "");
		} else {
			fprintf(f, "*Checked:*");
			const char *sep = " ";
			if (s->breakpoint) {
				fprintf(f, "%san enabled breakpoint on %s", sep, s->breakpoint);
				sep = "; ";
			}
			if (s->stopped_at) {
				fprintf(f, "%sthe run stopped at %s", sep, s->stopped_at);
				for (int k = 0; k < s->nwhere; k++) {
					unsigned bit = event_field_resolve((unsigned)event_find(s->stopped_at), s->where_name[k]);
					const char *nm = bit ? event_field_code_name((unsigned)event_find(s->stopped_at), bit, s->where_val[k]) : NULL;
					if (nm)
						fprintf(f, "%s%s%s%s", k ? ", " : " with ", s->where_name[k], s->where_ne[k] ? "!=" : "=", nm);
					else
						fprintf(f, "%s%s%s%lld", k ? ", " : " with ", s->where_name[k], s->where_ne[k] ? "!=" : "=",
							s->where_val[k]);
				}
				sep = "; ";
			}
			if (s->stat) {
				fprintf(f, "%s`%s`", sep, s->stat);
				sep = "; ";
			}
			if (s->finished)
				fprintf(f, "%sthe run finished", sep);
			fprintf(f, ".\n\n");
		}
		if (s->explain)
			fprintf(f, "*Explanation* (`${...}`: a value from the run): %s\n\n", s->explain);
	}
}

int reset_progress(const char *name, struct cmd_out *out)
{
	char path[512];
	if (!lesson_name_ok(name)) {
		cmd_errorf(out, "lesson reset: '%.80s' is not a lesson name (1 to %d letters, digits, '_' and '-')", name,
			   LESSON_NAME_MAX);
		return CMD_ERR;
	}
	if (lesson_progress_path(name, path, sizeof path)) {
		cmd_errorf(out, "lesson reset: neither XDG_STATE_HOME nor HOME is set");
		return CMD_ERR;
	}
	if (unlink(path) && errno != ENOENT) {
		cmd_errorf(out, "lesson reset: %s: %s", path, strerror(errno));
		return CMD_ERR;
	}
	cmd_printf(out, "progress of lesson %s cleared", name);
	return CMD_OK;
}

