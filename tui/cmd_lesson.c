/*
 * cmd_lesson.c: the lesson prompt commands (lesson, answer, hint), running
 * a lesson's steps against the session, and `gpustep lesson` (list, reset,
 * open in the TUI, --check a scripted run). See lesson.h, docs/LESSONS.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cmd_int.h"
#include "load/embedded.h"
#include "lesson/lesson_int.h"
#include "session/session.h"
#include "sim/stats.h"
#include "lesson_catalog.h"
#include "tui.h"

/* In the TUI with the lesson pane shown the step's text is there: the
 * output gets the step line only (the pane's text at `lesson`). */
static bool pane_shows(const struct session *ss, const struct lesson *l)
{
	return ss->ui && !l->pane_hidden;
}

static void print_step_line(const struct lesson *l, struct cmd_out *out)
{
	if (l->cur >= l->nsteps) {
		int p, f, t;
		lesson_score(l, &p, &f, &t);
		cmd_printf(out, "Lesson %s finished: %d of %d steps passed.", l->name, p, t);
		return;
	}
	cmd_printf(out, "[lesson %s, step %d of %d in the lesson pane: %s]", l->name, l->cur + 1, l->nsteps,
		   l->steps[l->cur].predict ? "answer N" : "do it, then answer");
}

static void print_step(const struct session *ss, const struct lesson *l, struct cmd_out *out)
{
	if (l->cur >= l->nsteps) {
		int p, f, t;
		lesson_score(l, &p, &f, &t);
		cmd_printf(out, "Lesson %s finished: %d of %d steps passed.", l->name, p, t);
		return;
	}
	const struct lstep *s = &l->steps[l->cur];
	/* The step line comes last: a short output area shows it with the text's end. */
	char buf[2048];
	cmd_print_block(out, lesson_step_text(ss, l, s->text, buf, sizeof buf));
	cmd_printf(out, "[lesson %s, step %d of %d: %s; hint for a hint]", l->name, l->cur + 1, l->nsteps,
		   s->predict ? "answer N to predict" : "do it, then type answer");
}

/* The next step: its line when the pane shows the text, else the text. */
static void print_next(const struct session *ss, const struct lesson *l, struct cmd_out *out)
{
	if (pane_shows(ss, l))
		print_step_line(l, out);
	else
		print_step(ss, l, out);
}

static void setup_quiet(void *u, const char *text)
{
	(void)u;
	(void)text;
}

/* True (with the error printed) while the open lesson's own commands run:
 * nothing may then close, replace or re-enter it (its commands are checked
 * when it loads; this holds whatever reaches the prompt meanwhile). */
static bool lesson_busy(const struct session *ss, const char *what, struct cmd_out *out)
{
	if (!ss->lesson || !ss->lesson->busy)
		return false;
	cmd_errorf(out, "%s: lesson %s is running its own commands", what, ss->lesson->name);
	return true;
}

/* One of the lesson's commands, checked again as it runs (the check at load
 * time saw it before ${...} was replaced), with the lesson marked busy. */
static int lesson_exec(struct session *ss, struct lesson *l, const char *cmd, struct cmd_out *out)
{
	char why[200];
	if (lesson_command_check(cmd, why, sizeof why)) {
		cmd_errorf(out, "lesson %s: %s", l->name, why);
		return CMD_ERR;
	}
	l->busy++;
	int rc = cmd_exec(ss, cmd, out);
	l->busy--;
	return rc;
}

int lesson_open(struct session *ss, struct lesson *l, struct cmd_out *out)
{
	if (ss->lesson == l || lesson_busy(ss, "lesson", out)) {
		if (ss->lesson != l)
			lesson_free(l);
		return CMD_ERR;
	}
	lesson_free(ss->lesson);
	ss->lesson = l;
	l->cur = 0;
	l->hint_shown = false;
	l->last_result[0] = 0;
	l->nsaved = 0;
	memset(l->result, 0, (size_t)l->nsteps * sizeof *l->result);
	/* In the TUI the setup's messages would open the pager over the pane:
	 * only its errors are shown there. */
	struct cmd_out quiet = {setup_quiet, out->error, out->u};
	struct cmd_out *so = ss->ui && !l->pane_hidden ? &quiet : out;
	for (int i = 0; i < l->nsetup; i++) {
		int rc = lesson_exec(ss, l, l->setup[i], so);
		if (rc & CMD_ERR) {
			cmd_errorf(out, "lesson %s: setup command '%s' failed", l->name, l->setup[i]);
			return CMD_ERR;
		}
		if (rc & CMD_RUN) {
			l->busy++;
			session_run_all(ss);
			l->busy--;
		}
	}
	cmd_printf(out, "Lesson %s: %s", l->name, l->title);
	print_next(ss, l, out);
	return CMD_OK | CMD_RESET;
}

/* The value a predict step compares with, read from the machine now. */
static int read_value(struct session *ss, const struct lesson *l, const char *spec, double *v, char *why, size_t n)
{
	return lesson_expr_eval(ss, l, spec, v, why, n);
}

/* The step's "record" values, read now into saved.NAME. */
static int record_values(struct session *ss, struct lesson *l, struct cmd_out *out)
{
	const struct lstep *s = &l->steps[l->cur];
	for (int k = 0; k < s->nrec; k++) {
		double v;
		char why[160];
		if (lesson_expr_eval(ss, l, s->rec_expr[k], &v, why, sizeof why)) {
			cmd_errorf(out, "lesson %s step %d cannot record %s: %s", l->name, l->cur + 1, s->rec_name[k], why);
			return -1;
		}
		lesson_save(l, s->rec_name[k], v);
	}
	return 0;
}

/* A prediction: a number, or the name of a coded event field's value
 * ("M" for coh.transition's to, "associativity" for reuse.class's class).
 * kind: the event kind the value will be read from, -1 if not known yet. */
static int parse_guess(const char *arg, const char *value, int kind, double *guess, bool *pending)
{
	char *end;
	errno = 0;
	*guess = strtod(arg, &end);
	*pending = false;
	if (end != arg && !*end && !errno)
		return 0;
	if (strncmp(value, "event.", 6) != 0 || strpbrk(value + 6, " +-*/()"))
		return -1;
	if (kind < 0) {
		*pending = true; /* resolved at the stop */
		return 0;
	}
	int64_t code;
	unsigned bit = event_field_resolve((unsigned)kind, value + 6);
	if (!bit || event_field_code((unsigned)kind, bit, arg, &code))
		return -1;
	*guess = (double)code;
	return 0;
}

/* The kind the step's run stops at, when its commands say so: the last
 * `until KIND`, or the present stop when the step runs nothing. */
static int stop_kind(struct session *ss, const struct lstep *s)
{
	for (int i = s->nrun - 1; i >= 0; i--) {
		char verb[16], kind[64];
		if (sscanf(s->run[i], "%15s %63s", verb, kind) == 2 && strcmp(verb, "until") == 0)
			return event_find(kind);
		if (strncmp(s->run[i], "delete", 6) != 0)
			return -1;
	}
	if (ss->last_stop == SIM_STOP_BREAK && ss->bps.stop_ev.kind < EV__COUNT)
		return ss->bps.stop_ev.kind;
	return -1;
}

/* v as the student would write it: the value's name for a coded field. */
static void show_value(struct session *ss, const char *spec, double v, char *buf, size_t n)
{
	const struct event *e = &ss->bps.stop_ev;
	lesson_format_value(v, false, buf, n);
	if (strncmp(spec, "event.", 6) != 0 || e->kind >= EV__COUNT)
		return;
	unsigned bit = event_field_resolve(e->kind, spec + 6);
	const char *name = bit ? event_field_code_name(e->kind, bit, (int64_t)v) : NULL;
	if (name)
		snprintf(buf, n, "%s", name);
}

static bool cond_holds(struct session *ss, const char *text)
{
	char name[128], op[4];
	double want, v;
	if (sscanf(text, "stat.%127s %3s %lf", name, op, &want) != 3)
		return false;
	const struct stats *st = sim_stats_c(ss->sim);
	int id = stats_find(st, name);
	if (id < 0)
		return false;
	v = stats_value(st, (uint32_t)id);
	if (!strcmp(op, "<"))
		return v < want;
	if (!strcmp(op, "<="))
		return v <= want;
	if (!strcmp(op, ">"))
		return v > want;
	if (!strcmp(op, ">="))
		return v >= want;
	if (!strcmp(op, "=="))
		return v == want;
	return v != want;
}

/* The step's claims and stated numbers against the machine (lesson_step_audit):
 * a false claim is the lesson's error, said to the student too; under
 * --check it, and any number no check gives, fails the step. */
static bool audit_step(struct session *ss, struct lesson *l, const double *answer, struct cmd_out *out)
{
	char msg[1024];
	int bad = lesson_step_audit(ss, l, &l->steps[l->cur], answer, msg, sizeof msg);
	if (!bad)
		return true;
	char *line = msg;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		bool claim = strstr(line, " claims ") != NULL;
		if (l->no_progress || claim)
			cmd_errorf(out, "lesson %s: %s", l->name, line);
		line = nl ? nl + 1 : NULL;
	}
	return !l->no_progress;
}

static void finish_step(struct session *ss, struct lesson *l, bool pass, const double *answer, struct cmd_out *out)
{
	const struct lstep *s = &l->steps[l->cur];
	pass &= audit_step(ss, l, answer, out);
	l->result[l->cur] = pass ? LR_PASS : LR_FAIL;
	char *t = NULL;
	if (s->explain) {
		char why[160];
		t = lesson_interp(ss, l, s->explain, why, sizeof why);
		if (!t)
			cmd_errorf(out, "lesson %s step %d: a ${...} of its explanation cannot be read: %s", l->name, l->cur + 1,
				   why);
	}
	const char *explain = t ? t : s->explain;
	if (explain) /* the pane folds the verdict to one row: the whole of it is here */
		cmd_print_block(out, explain);
	/* The pane keeps what was said: "Step N: Right: ... <explain>". */
	size_t k = strlen(l->last_result);
	if (explain && k + 2 < sizeof l->last_result)
		snprintf(l->last_result + k, sizeof l->last_result - k, " %s", explain);
	free(t);
	l->hint_shown = false;
	l->cur++;
	lesson_progress_save(l);
	print_next(ss, l, out);
}

/* Text kept for later: the stop reports of a step's run while the pane
 * shows it (printed after the line naming the commands). */
struct kept_out {
	char text[2048];
	size_t n;
};

static void keep_print(void *u, const char *text)
{
	struct kept_out *k = u;
	int w = snprintf(k->text + k->n, sizeof k->text - k->n, "%s%s", k->n ? "\n" : "", text);
	if (w > 0)
		k->n = k->n + (size_t)w < sizeof k->text ? k->n + (size_t)w : sizeof k->text - 1;
}

/* The compact transcript of a step's run: the commands, then their stops. */
static void print_ran(struct cmd_out *out, const char *ran, const struct kept_out *kept)
{
	if (!ran[0])
		return;
	cmd_printf(out, "lesson ran: %s", ran);
	if (kept->n)
		cmd_print_block(out, kept->text);
}

/* A prediction step's run: its commands, each run to its stop. Printed as in
 * batch mode; while the lesson pane shows the step, the commands' own
 * messages ("restarted at cycle 0", "param.n = 1024", a workload's
 * description) stay out of the output, like the setup's: one line names the
 * commands the lesson ran, then the stops they reached, so the answer's
 * output fits the output area and no pager covers the panels after every
 * answer. Errors are always shown. CMD_RESET is passed on when a command
 * rebuilt the machine (the TUI resets its panels). */
static int run_step_commands(struct session *ss, struct lesson *l, const struct lstep *s, struct cmd_out *out)
{
	bool compact = pane_shows(ss, l);
	struct kept_out kept = {.n = 0};
	struct cmd_out quiet = {setup_quiet, out->error, out->u}, stops = {keep_print, out->error, &kept};
	char ran[600] = "";
	int rc = CMD_OK;
	for (int i = 0; i < s->nrun; i++) {
		char why[160];
		char *cmd = lesson_interp(ss, l, s->run[i], why, sizeof why);
		if (!cmd) {
			cmd_errorf(out, "lesson %s step %d: command '%s': %s", l->name, l->cur + 1, s->run[i], why);
			return CMD_ERR | rc;
		}
		size_t k = strlen(ran);
		snprintf(ran + k, sizeof ran - k, "%s%s", k ? "; " : "", cmd);
		int r = lesson_exec(ss, l, cmd, compact ? &quiet : out);
		rc |= r & CMD_RESET;
		if (r & CMD_RUN) {
			l->busy++;
			session_run_all(ss);
			l->busy--;
			cmd_report_stop(ss, compact ? &stops : out);
		}
		if (r & CMD_ERR) {
			if (compact)
				print_ran(out, ran, &kept);
			cmd_errorf(out, "lesson %s step %d: command '%s' failed", l->name, l->cur + 1, cmd);
			free(cmd);
			return CMD_ERR | rc;
		}
		free(cmd);
	}
	if (compact)
		print_ran(out, ran, &kept);
	return rc;
}

static int answer_predict(struct session *ss, struct lesson *l, const char *arg, struct cmd_out *out)
{
	const struct lstep *s = &l->steps[l->cur];
	double guess;
	bool pending;
	int kind = stop_kind(ss, s);
	if (parse_guess(arg, s->value, kind, &guess, &pending)) {
		char codes[300] = "";
		unsigned bit = kind >= 0 && strncmp(s->value, "event.", 6) == 0 ? event_field_resolve((unsigned)kind, s->value + 6) : 0;
		if (bit)
			event_field_codes((unsigned)kind, bit, codes, sizeof codes);
		if (codes[0])
			cmd_errorf(out, "answer: '%s' is neither a number nor one of: %s", arg, codes);
		else
			cmd_errorf(out, "answer: '%s' is not a number", arg);
		return CMD_ERR;
	}
	int rc = run_step_commands(ss, l, s, out);
	if (rc & CMD_ERR)
		return rc;
	char warn[200];
	lesson_machine_warning(ss, warn, sizeof warn); /* a fallback the step's set caused (the pane shows it too) */
	if (warn[0])
		cmd_printf(out, "%s", warn);
	double v;
	char why[160] = "";
	if (read_value(ss, l, s->value, &v, why, sizeof why) || record_values(ss, l, out)) {
		if (why[0])
			cmd_errorf(out, "lesson %s step %d cannot read its answer: %s", l->name, l->cur + 1, why);
		l->result[l->cur] = LR_FAIL;
		snprintf(l->last_result, sizeof l->last_result, "Step %d: failed, its answer could not be read.", l->cur + 1);
		l->hint_shown = false;
		l->cur++;
		lesson_progress_save(l);
		print_next(ss, l, out);
		return CMD_ERR | rc;
	}
	if (pending) {
		const struct event *e = &ss->bps.stop_ev;
		unsigned bit = event_field_resolve(e->kind, s->value + 6);
		int64_t code;
		if (!bit || event_field_code(e->kind, bit, arg, &code)) {
			char codes[300] = "";
			if (bit)
				event_field_codes(e->kind, bit, codes, sizeof codes);
			cmd_printf(out, "'%s' is not a value of %s%s%s%s.", arg, s->value, codes[0] ? " (one of: " : "",
				   codes, codes[0] ? ")" : "");
			guess = NAN;
		} else {
			guess = (double)code;
		}
	}
	bool pass = fabs(v - guess) <= s->tolerance;
	char shown[64];
	show_value(ss, s->value, v, shown, sizeof shown);
	char said[400];
	lesson_value_phrase(ss, l, s->value, shown, pass, said, sizeof said);
	if (pass)
		cmd_printf(out, "Right: %s.", said);
	else
		cmd_printf(out, "Not quite: you predicted %s, %s.", arg, said);
	if (pass)
		snprintf(l->last_result, sizeof l->last_result, "Step %d: right, %s.", l->cur + 1, said);
	else
		snprintf(l->last_result, sizeof l->last_result, "Step %d: you predicted %s, %s.", l->cur + 1, arg, said);
	finish_step(ss, l, pass, &v, out);
	return rc;
}

static int answer_action(struct session *ss, struct lesson *l, struct cmd_out *out)
{
	const struct lstep *s = &l->steps[l->cur];
	bool ok = true;
	if (s->breakpoint) {
		int kind = event_find(s->breakpoint);
		bool found = false;
		for (unsigned i = 0; i < ss->bps.n; i++)
			found |= ss->bps.v[i].enabled && ss->bps.v[i].type == BP_EVENT && (int)ss->bps.v[i].kind == kind;
		if (!found) {
			cmd_printf(out, "Not yet: no enabled breakpoint on %s.", s->breakpoint);
			ok = false;
		}
	}
	if (s->stopped_at) {
		const struct event *e = &ss->bps.stop_ev;
		if (ss->last_stop != SIM_STOP_BREAK || e->kind >= EV__COUNT || e->kind != (unsigned)event_find(s->stopped_at)) {
			cmd_printf(out, "Not yet: the run has not stopped at a %s event.", s->stopped_at);
			ok = false;
		}
		for (int k = 0; ok && k < s->nwhere; k++) {
			unsigned bit = event_field_resolve(e->kind, s->where_name[k]);
			if ((event_field_value(e, bit) == s->where_val[k]) != s->where_ne[k])
				continue;
			const char *name = event_field_code_name(e->kind, bit, s->where_val[k]), *op = s->where_ne[k] ? "!=" : "=";
			if (name) /* a coded field */
				cmd_printf(out, "Not yet: the run stopped at %s, but not with %s%s%s.", s->stopped_at,
					   s->where_name[k], op, name);
			else
				cmd_printf(out, "Not yet: the run stopped at %s, but not with %s%s%lld.", s->stopped_at,
					   s->where_name[k], op, s->where_val[k]);
			ok = false;
		}
	}
	if (s->stat && !cond_holds(ss, s->stat)) {
		cmd_printf(out, "Not yet: %s does not hold.", s->stat);
		ok = false;
	}
	if (s->finished && !sim_done(ss->sim)) {
		cmd_printf(out, "Not yet: the kernel has not run to its end (continue).");
		ok = false;
	}
	if (!ok)
		return CMD_OK; /* try again: an action is not failed by checking early */
	if (record_values(ss, l, out))
		return CMD_ERR;
	cmd_printf(out, "Done.");
	snprintf(l->last_result, sizeof l->last_result, "Step %d: done.", l->cur + 1);
	finish_step(ss, l, true, NULL, out);
	return CMD_OK;
}

struct not_yet {
	struct cmd_out *out;
	struct lesson *l;
	int step;
	bool seen;
};

static void not_yet_print(void *u, const char *text)
{
	struct not_yet *n = u;
	if (!n->seen && n->l->cur == n->step && strncmp(text, "Not yet:", 8) == 0) {
		snprintf(n->l->last_result, sizeof n->l->last_result, "Step %d: %s", n->step + 1, text);
		n->seen = true;
	}
	n->out->print(n->out->u, text);
}

static void not_yet_error(void *u, const char *text)
{
	struct not_yet *n = u;
	n->out->error(n->out->u, text);
}

CMD_FN(cmd_answer)
{
	struct lesson *l = ss->lesson;
	if (!l) {
		cmd_errorf(out, "answer: no lesson open (`lesson NAME`)");
		return CMD_ERR;
	}
	if (lesson_busy(ss, "answer", out))
		return CMD_ERR;
	if (l->cur >= l->nsteps) {
		cmd_errorf(out, "answer: lesson %s is finished (`lesson %s` starts it again)", l->name, l->name);
		return CMD_ERR;
	}
	const struct lstep *s = &l->steps[l->cur];
	if (s->predict) {
		if (argc != 2) {
			cmd_errorf(out, "answer: this step asks for a prediction: answer N");
			return CMD_ERR;
		}
		return answer_predict(ss, l, argv[1], out);
	}
	if (argc != 1) {
		cmd_errorf(out, "answer: this step asks for an action; do it, then type answer");
		return CMD_ERR;
	}
	/* The checks' "Not yet: ..." lines also go to the pane (the first one). */
	struct not_yet ny = {out, l, l->cur, false};
	struct cmd_out o = {not_yet_print, not_yet_error, &ny};
	return answer_action(ss, l, &o);
}

CMD_FN(cmd_hint)
{
	(void)argv;
	struct lesson *l = ss->lesson;
	if (argc != 1)
		return cmd_usage(out, "hint");
	if (!l || l->cur >= l->nsteps) {
		cmd_errorf(out, "hint: no lesson step open");
		return CMD_ERR;
	}
	const char *h = l->steps[l->cur].hint;
	cmd_print_block(out, h ? h : "No hint for this step.");
	l->hint_shown = true; /* the pane shows it until the step is decided */
	return CMD_OK;
}

/* `lesson hide|show|toggle|close`: the pane, or the lesson itself. */
static int lesson_pane_cmd(struct session *ss, const char *what, struct cmd_out *out)
{
	struct lesson *l = ss->lesson;
	if (!l) {
		cmd_errorf(out, "lesson %s: no lesson open (`lesson NAME` opens one)", what);
		return CMD_ERR;
	}
	if (!strcmp(what, "close")) {
		int p, f, t;
		lesson_score(l, &p, &f, &t);
		cmd_printf(out, "lesson %s closed at step %d of %d (%d passed); your progress is kept", l->name,
			   l->cur < l->nsteps ? l->cur + 1 : l->nsteps, l->nsteps, p);
		lesson_free(l);
		ss->lesson = NULL;
		return CMD_OK;
	}
	l->pane_hidden = !strcmp(what, "hide") || (!strcmp(what, "toggle") && !l->pane_hidden);
	if (!ss->ui)
		cmd_printf(out, "lesson pane %s (it shows in the TUI)", l->pane_hidden ? "hidden" : "shown");
	return CMD_OK;
}

CMD_FN(cmd_lesson)
{
	if (argc > 1 && lesson_busy(ss, "lesson", out))
		return CMD_ERR;
	if (argc == 1) {
		if (ss->lesson) {
			if (ss->lesson->last_result[0]) /* what the pane folds to one row */
				cmd_print_block(out, ss->lesson->last_result);
			print_step(ss, ss->lesson, out);
			return CMD_OK;
		}
		cmd_printf(out, "No lesson open. Lessons (`lesson NAME` opens one):");
		list_lessons(out);
		return CMD_OK;
	}
	if (strcmp(argv[1], "list") == 0 && argc == 2) {
		list_lessons(out);
		return CMD_OK;
	}
	if (strcmp(argv[1], "reset") == 0) {
		if (argc != 3)
			return cmd_usage(out, "lesson");
		return reset_progress(argv[2], out);
	}
	if (argc == 2 && (!strcmp(argv[1], "hide") || !strcmp(argv[1], "show") || !strcmp(argv[1], "toggle") ||
			  !strcmp(argv[1], "close")))
		return lesson_pane_cmd(ss, argv[1], out);
	if (strcmp(argv[1], "report") == 0 && argc == 2) {
		if (!ss->lesson) {
			cmd_errorf(out, "lesson report: no lesson open");
			return CMD_ERR;
		}
		lesson_report(ss->lesson, out);
		return CMD_OK;
	}
	if (argc != 2)
		return cmd_usage(out, "lesson");
	char *err = NULL;
	struct lesson *l = lesson_load(argv[1], &err);
	if (!l) {
		cmd_errorf(out, "lesson: %s", err);
		free(err);
		return CMD_ERR;
	}
	return lesson_open(ss, l, out);
}

/* ---- gpustep lesson ------------------------------------------------------- */
static void print_out(void *u, const char *t)
{
	fprintf((FILE *)u, "%s\n", t);
}

static void print_err(void *u, const char *t)
{
	(void)u;
	fprintf(stderr, "%s\n", t);
}

static const char lesson_usage[] = "usage: gpustep lesson                       list lessons and your progress\n"
				   "       gpustep lesson NAME|FILE.json        open a lesson in the TUI\n"
				   "       gpustep lesson reset NAME            forget your progress in a lesson\n"
				   "       gpustep lesson NAME|FILE --handout [--answers]\n"
				   "                                            the lesson as Markdown for printing (answers: hints,\n"
				   "                                            where each answer is read, explanations)\n"
				   "       gpustep lesson --check NAME|FILE --batch ANSWERS\n"
				   "                                            grade a scripted run (exit 0: every step passed)\n";

int lesson_main(int argc, char **argv)
{
	struct cmd_out out = {print_out, print_err, stdout};
	const char *check = NULL, *batch = NULL, *name = NULL;
	bool handout = false, answers = false;
	if (argc == 1) {
		printf("Lessons (gpustep lesson NAME opens one):\n");
		list_lessons(&out);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "reset") == 0)
		return reset_progress(argv[2], &out) ? 1 : 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--check") == 0 && i + 1 < argc)
			check = argv[++i];
		else if ((strcmp(argv[i], "--batch") == 0 || strcmp(argv[i], "-x") == 0) && i + 1 < argc)
			batch = argv[++i];
		else if (strcmp(argv[i], "--handout") == 0)
			handout = true;
		else if (strcmp(argv[i], "--answers") == 0)
			answers = true;
		else if (argv[i][0] != '-' && !name)
			name = argv[i];
		else {
			fprintf(stderr, "gpustep lesson: unexpected '%s'\n%s", argv[i], lesson_usage);
			return 2;
		}
	}
	if ((check && (name || !batch || handout)) || (!check && (batch || !name)) || (answers && !handout)) {
		fputs(lesson_usage, stderr);
		return 2;
	}
	if (handout) {
		char *herr = NULL;
		struct lesson *hl = lesson_load(name, &herr);
		if (!hl) {
			fprintf(stderr, "gpustep lesson: %s\n", herr);
			free(herr);
			return 2;
		}
		print_handout(hl, answers, stdout);
		lesson_free(hl);
		return 0;
	}
	char *err = NULL;
	struct lesson *l = lesson_load(check ? check : name, &err);
	if (!l) {
		fprintf(stderr, "gpustep lesson: %s\n", err);
		free(err);
		return 2;
	}
	FILE *f = NULL;
	if (check) {
		l->no_progress = true;
		f = strcmp(batch, "-") == 0 ? stdin : fopen(batch, "r");
		if (!f) {
			fprintf(stderr, "gpustep lesson: %s: %s\n", batch, strerror(errno));
			lesson_free(l);
			return 2;
		}
	} else if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "gpustep lesson: stdin/stdout is not a terminal; use --check NAME --batch FILE\n");
		lesson_free(l);
		return 2;
	}
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	struct session *ss = xcalloc(1, sizeof *ss);
	if (session_init(ss, &cfg, "", GPUSTEP_DEFAULT_WORKLOAD, cfg.seed, &err)) {
		fprintf(stderr, "gpustep lesson: %s\n", err ? err : "cannot build the simulator");
		free(err);
		free(ss);
		lesson_free(l);
		return 1;
	}
	int status = 0;
	if (check) {
		if (lesson_open(ss, l, &out) & CMD_ERR) {
			status = 2;
		} else {
			cmd_run_script(ss, f, &out, NULL);
			int p, fl, t;
			lesson_report(ss->lesson, &out);
			lesson_score(ss->lesson, &p, &fl, &t);
			status = p == t ? 0 : 1;
		}
		if (f != stdin)
			fclose(f);
	} else {
		/* The TUI opens the lesson as its first command (output in its log). */
		free(ss->ui_pending);
		ss->ui_pending = xasprintf("lesson %s\n", name);
		lesson_free(l);
		status = tui_main(ss);
	}
	session_fini(ss);
	free(ss);
	return status;
}
