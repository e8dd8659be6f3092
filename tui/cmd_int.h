/*
 * cmd_int.h: helpers shared by the command implementations (commands.c:
 * table, dispatch, time, machine and help commands; cmd_break.c: break,
 * watch, until, delete, enable, disable; cmd_info.c: info, print,
 * display, list, log, save); cmd_run.c: stop report, batch scripts;
 * cmd_rewind.c: reverse-step, reverse-continue, goto.
 */
#ifndef GPUSTEP_CMD_INT_H
#define GPUSTEP_CMD_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "commands.h"

#define CMD_FN(name) int name(struct session *ss, int argc, char **argv, struct cmd_out *out)

/* Parse "123", "0x7b", "10k", "2M" (k/M/G = 10^3/10^6/10^9). */
int cmd_parse_u64(const char *s, uint64_t *v);
/* Parse an index argument in [0, n); prints an error naming what. */
int cmd_parse_index(struct cmd_out *out, const char *what, const char *s, int n, int *v);
/* Print a block of text line by line through out->print. */
void cmd_print_block(struct cmd_out *out, const char *text);
/* Print the value of a stat/config path/param (print and display); -1 if unknown. */
int cmd_print_expr(struct session *ss, const char *expr, const char *prefix, struct cmd_out *out);

/* "usage: <the command's usage line>" as an error; returns CMD_ERR. */
int cmd_usage(struct cmd_out *out, const char *name);
/* What is wrong with the arguments (printf-style, e.g. "'abc' is not a
 * number"), as "NAME: PROBLEM", then the usage line; returns CMD_ERR. */
int cmd_usage_why(struct cmd_out *out, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* An optional count N >= min as argv[1] and nothing after it: 0, or the
 * error naming the bad argument (cmd_usage_why) and CMD_ERR. */
int cmd_opt_count(struct cmd_out *out, const char *name, int argc, char **argv, uint64_t min, uint64_t *n);
/* No arguments: 0, or the error naming the first one and CMD_ERR. */
int cmd_no_args(struct cmd_out *out, const char *name, int argc, char **argv);
/* -1 with a message when the kernel has finished (nothing to run). */
int cmd_need_running(struct session *ss, struct cmd_out *out);
/* argv[from..] joined by single spaces into buf. */
void cmd_join_args(int argc, char **argv, int from, char *buf, size_t n);

/* The command name or alias closest to an unknown word, or NULL (cmd_names.c). */
const char *cmd_closest_command(const struct session *ss, const char *word);
/* An `info` subject as typed (exact, gdb's prefixes of breakpoints, a unique
 * prefix) resolved, or NULL after printing why not (cmd_names.c). */
const char *cmd_info_subject(const char *w, struct cmd_out *out);

/* cmd_coal.c: `info coalesce`: lanes -> requests of the SM's last memory instruction */
void info_coalesce(struct session *ss, int sm, struct cmd_out *out);
void info_duel(struct session *ss, int n, struct cmd_out *out); /* cmd_duel.c */
/* cmd_info_rf.c: `info rf SM`, the SM's register file as text */
void cmd_info_rf(struct session *ss, int sm, struct cmd_out *out);
/* part of whole in percent, 0 when whole is 0 */
static inline double cmd_pct(uint64_t part, uint64_t whole) { return whole ? 100.0 * (double)part / (double)whole : 0.0; }

/* cmd_dramq.c: a DRAM bank's queue and next pick, for `info bank` */
void info_bank_queue(struct session *ss, int ch, int bank, struct cmd_out *out);

/* cmd_break.c */
CMD_FN(cmd_until);
/* cmd_machine.c */
CMD_FN(cmd_select);
CMD_FN(cmd_set);
CMD_FN(cmd_load);
CMD_FN(cmd_workload);
CMD_FN(cmd_check);
CMD_FN(cmd_break);
CMD_FN(cmd_tbreak);
CMD_FN(cmd_ignore);
CMD_FN(cmd_condition);
CMD_FN(cmd_watch);
CMD_FN(cmd_delete);
CMD_FN(cmd_enable);
CMD_FN(cmd_disable);

CMD_FN(cmd_info);
CMD_FN(cmd_print);
CMD_FN(cmd_display);
CMD_FN(cmd_undisplay);
CMD_FN(cmd_list);
CMD_FN(cmd_log);
CMD_FN(cmd_model); /* cmd_reuse.c */
CMD_FN(cmd_timeline); /* cmd_timeline.c */
CMD_FN(cmd_save);
CMD_FN(cmd_save_trace); /* sample_csv.c: save trace FILE [FROM TO] */
/* cmd_why.c: why; `info stalls` */
CMD_FN(cmd_why);
int cmd_info_stalls(struct session *ss, int argc, char **argv, struct cmd_out *out);
/* `select mshr l1|l2 E` (cmd_why.c). */
int cmd_select_mshr(struct session *ss, const char *level, const char *entry, struct cmd_out *out);
/* cmd_lesson.c: lesson, answer, hint */
CMD_FN(cmd_lesson);
CMD_FN(cmd_answer);
CMD_FN(cmd_hint);
/* cmd_rewind.c */
CMD_FN(cmd_reverse_step);
CMD_FN(cmd_reverse_continue);
CMD_FN(cmd_goto);
/* `load session FILE` (commands.c); `save session` is in cmd_save. */
int cmd_load_session(struct session *ss, const char *path, struct cmd_out *out);

#endif
