/*
 * test_lesson_walk.c: every built-in lesson walked at 80x24 through its
 * answer file (tests/lessons/NAME.answers), the way a student at a small
 * terminal meets it: before each command the lesson pane must show the
 * current step's question (the last sentence of its text), whole, and its
 * `>` line uncut; the previous verdict takes at most one row; the pane's
 * title carries no zoom tag; a configuration fallback of the machine (the
 * register file's remap) is shown in it. Progress goes to a private XDG_STATE_HOME.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_int.h"
#include "session/session.h"
#include "test.h"
#include "tui/commands.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

static int walk_warnings; /* pane states with a machine warning seen */

static int walk_slot(struct tui *t)
{
	for (int i = 0; i < t->nslots; i++)
		if (strcmp(t->slots[i].p->ops->name, "lesson") == 0)
			return i;
	return -1;
}

/* s with every run of white space (and the pane's row breaks) one space. */
static void squash(const char *s, char *out, size_t n)
{
	size_t k = 0;
	bool sp = true;
	for (; *s && k + 1 < n; s++) {
		if (isspace((unsigned char)*s)) {
			if (!sp)
				out[k++] = ' ';
			sp = true;
		} else {
			out[k++] = *s;
			sp = false;
		}
	}
	while (k > 0 && out[k - 1] == ' ')
		k--;
	out[k] = 0;
}

/* The step's question: its text's last sentence (after the last ". ",
 * "? ", ": " or line break before the final one). */
static void question_of(const char *text, char *out, size_t n)
{
	char flat[4096];
	squash(text, flat, sizeof flat);
	size_t len = strlen(flat);
	size_t start = 0;
	for (size_t i = 0; i + 2 < len; i++)
		if ((flat[i] == '.' || flat[i] == '?' || flat[i] == '!') && flat[i + 1] == ' ' && i + 2 < len - 1)
			start = i + 2;
	/* the last paragraph, when the text has one after its last line break */
	const char *nl = strrchr(text, '\n');
	if (nl) {
		char para[4096];
		squash(nl + 1, para, sizeof para);
		const char *at = strstr(flat, para);
		if (at && (size_t)(at - flat) > start)
			start = (size_t)(at - flat);
	}
	snprintf(out, n, "%s", flat + start);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* The pane now: the question and the `>` line on screen, at most one row
 * of verdict. */
static void check_pane(struct tui *t, struct session *ss, const char *name, int line)
{
	tui_frame(t);
	int i = walk_slot(t);
	if (i < 0) {
		CHECK_STR(name, "has its lesson pane shown");
		return;
	}
	char *text = vt_text(t->slots[i].w);
	char flat[8192], q[4096], where[160];
	squash(text, flat, sizeof flat);
	snprintf(where, sizeof where, "%s, before answer line %d", name, line);
	CHECK(strstr(flat, "[Z layout") == NULL);
	const struct lesson *l = ss->lesson;
	if (l && l->cur < l->nsteps) {
		const struct lstep *s = &l->steps[l->cur];
		question_of(s->text, q, sizeof q);
		if (!strstr(flat, q)) {
			CHECK_STR(where, "shows the question");
			fprintf(stderr, "  question: %s\n  pane: %s\n", q, text);
		}
		const char *todo = s->predict ? "> answer N with your prediction" : "> do it, then type `answer`";
		if (!strstr(flat, todo)) {
			CHECK_STR(where, "shows the > line");
			fprintf(stderr, "  pane: %s\n", text);
		}
		/* a configuration fallback (racetrack's 64 ports) is in the pane */
		char warn[200];
		lesson_machine_warning(ss, warn, sizeof warn);
		if (warn[0] && !strstr(flat, "warning: rf.remap")) {
			CHECK_STR(where, "shows the machine's warning");
			fprintf(stderr, "  warning: %s\n  pane: %s\n", warn, text);
		}
		if (warn[0])
			walk_warnings++;
		/* the verdict: one row (its rows start "Step N:") */
		int verdicts = 0;
		for (const char *p = text; (p = strstr(p, "\nStep ")); p++)
			verdicts++;
		CHECK(verdicts <= 1);
	}
	free(text);
}

static void walk(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "tests/lessons/%s.answers", name);
	FILE *f = fopen(path, "r");
	if (!f) {
		CHECK_STR(path, "exists");
		return;
	}
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 24, 80);
	REQUIRE(t != NULL);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "lesson %s", name);
	CHECK((tui_exec(t, cmd) & CMD_ERR) == 0);
	int line = 0;
	char buf[512];
	while (fgets(buf, sizeof buf, f)) {
		buf[strcspn(buf, "\n")] = 0;
		line++;
		if (!buf[0] || buf[0] == '#')
			continue;
		check_pane(t, ss, name, line);
		tui_exec(t, buf);
		tui_run_to_stop(t);
		if (t->help_open)
			tui_close_help(t);
	}
	fclose(f);
	const struct lesson *l = ss->lesson;
	CHECK(l != NULL && l->cur == l->nsteps); /* walked to its end */
	if (l && l->cur != l->nsteps)
		fprintf(stderr, "  %s stopped at step %d of %d\n", name, l->cur + 1, l->nsteps);
	vt_tui_stop(t, ss);
}

TEST(lesson_walk_80x24_question_always_shown)
{
	char *home = vt_state_home("lesson-walk");
	DIR *d = opendir("configs/lessons");
	REQUIRE(d != NULL);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d))) {
		if (!ends_with(e->d_name, ".json"))
			continue;
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)(strlen(e->d_name) - 5), e->d_name);
		walk(name);
		n++;
	}
	closedir(d);
	CHECK(n >= 9);
	CHECK(walk_warnings > 0); /* racetrack step 7's fallback was met, and shown */
	vt_state_home_drop(home);
}
