/*
 * lesson_int.h: a loaded lesson and its progress, shared by lesson.c
 * (loading, progress files) and cmd_lesson.c (steps, commands).
 */
#ifndef GPUSTEP_LESSON_INT_H
#define GPUSTEP_LESSON_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"

enum lresult { LR_NONE, LR_PASS, LR_FAIL };

#define LESSON_MAX_CLAIMS 12

struct lstep {
	char *text, *hint, *explain;
	bool predict;
	/* predict: commands that run to the moment, the value to read there */
	char **run;
	int nrun;
	char *value; /* "event.FIELD", "stat.NAME", "cycle" */
	double tolerance;
	/* action: each check given must hold */
	char *breakpoint; /* an enabled breakpoint of this event kind exists */
	char *stopped_at; /* the last run stopped at an event of this kind */
	char *where_name[4]; /* ... whose fields have these values */
	long long where_val[4];
	bool where_ne[4];    /* "!=V": the field must differ from where_val */
	int nwhere;
	char *stat;       /* "stat.NAME OP NUMBER" */
	bool finished;    /* the workload has run to its end */
	/* record: saved.NAME = EXPR once the step's run is over (lesson_expr.c) */
	char *rec_name[4], *rec_expr[4];
	int nrec;
	/* claims: "EXPR OP EXPR" conditions that hold when the step is decided:
	 * what its text and explanation say happened (lesson_expr.c) */
	char *claim[LESSON_MAX_CLAIMS];
	int nclaim;
};

#define LESSON_MAX_SAVED 16

struct lsaved {
	char name[32];
	double v;
};

struct lesson {
	char *name, *title, *summary;
	char **setup;
	int nsetup;
	struct lstep *steps;
	int nsteps;
	enum lresult *result;
	int cur;          /* current step, nsteps = finished */
	bool no_progress; /* --check: grading does not touch the student's progress */
	int busy;         /* its setup or a step's commands are running: it cannot be closed, replaced or re-entered */
	/* The lesson pane (lesson_pane.c): */
	bool hint_shown;        /* `hint` was asked for the current step */
	bool pane_hidden;       /* `lesson hide` */
	char last_result[640];  /* how the last answer went (and its explanation), "" = none yet */
	struct lsaved saved[LESSON_MAX_SAVED]; /* values steps recorded (saved.NAME) */
	int nsaved;
};

struct lesson_progress {
	int reached, passed, failed, total;
};

/* The lesson-name rule (a lesson's "name", `lesson reset NAME`, progress
 * files): 1 to LESSON_NAME_MAX letters, digits, '_' and '-'. */
#define LESSON_NAME_MAX 64
bool lesson_name_ok(const char *name);
/* 0 if cmd is one a lesson's setup or predict.run may hold (docs/SECURITY.md:
 * load CONFIG, workload, set, log, break, tbreak, watch, delete, until,
 * continue, step, next, run), else -1 and why. */
int lesson_command_check(const char *cmd, char *why, size_t n);
/* -1 when the name breaks the rule or no state directory is known. */
int lesson_progress_path(const char *name, char *buf, size_t n);
bool lesson_progress_read(const char *name, struct lesson_progress *p);
void lesson_progress_save(const struct lesson *l);

struct session;
/* lesson_expr.c: values (docs/LESSONS.md, "Values"). 0, or -1 and why. */
int lesson_expr_check(const char *text, char *why, size_t n);
int lesson_expr_eval(struct session *ss, const struct lesson *l, const char *text, double *v, char *why, size_t n);
/* text with every ${EXPR} (${EXPR:x}: hex) replaced by its value; caller
 * frees. NULL and why when a value cannot be read. */
char *lesson_interp(struct session *ss, const struct lesson *l, const char *text, char *why, size_t n);
int lesson_interp_check(const char *text, char *why, size_t n);
void lesson_format_value(double v, bool hex, char *buf, size_t n);
/* A step's value in words for its verdict: "X is V" (right) or "the machine
 * shows X = V"; a comparison sign(A - B) as the two values and which way
 * they went ("dram.row_hits is 900, lower than the 1200 recorded
 * earlier: -1"), never the expression itself. */
void lesson_value_phrase(struct session *ss, const struct lesson *l, const char *spec, const char *shown,
			 bool right, char *buf, size_t n);
void lesson_save(struct lesson *l, const char *name, double v);

/* lesson_pane.c: the machine's configuration fallback ("" if none), and a
 * step's text with its ${...} filled in (buf, or text when unreadable). */
void lesson_machine_warning(const struct session *ss, char *buf, size_t n);
const char *lesson_step_text(const struct session *ss, const struct lesson *l, const char *text, char *buf, size_t n);

/* The step's "claims" (a list of "EXPR OP EXPR", OP one of == != < <= > >=)
 * parsed into s; -1 and *err naming the step (`where`) when malformed. */
struct cJSON;
int lesson_claims_parse(const struct cJSON *step, struct lstep *s, const char *where, char **err);
/* Checks the step's claims and the numbers its text and explanation state,
 * now that it is decided (answer: the value a prediction was compared with,
 * NULL for an action). Each false claim, and each number of 10 or more
 * written outside ${...} and `...` that is neither in the lesson's setup,
 * the step's commands or checks, a claim, nor the answer, is described in
 * msg (one per line); returns how many there are. */
int lesson_step_audit(struct session *ss, const struct lesson *l, const struct lstep *s, const double *answer,
		      char *msg, size_t n);

#endif
