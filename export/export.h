/*
 * export.h: a run as a Chrome/Perfetto trace (export_trace.c) and stats as a
 * CSV time series (sample_csv.c), both observers of a session's run: they
 * read the engine through the event log and the inspect accessors and
 * change nothing it simulates (the stats of a run are the same with and
 * without them). docs/EXPORTS.md.
 *
 * Both bound the slices of the run they may take (*_budget) so they see the
 * machine at the cycles they need; export_run_all drives a run with them.
 */
#ifndef GPUSTEP_EXPORT_H
#define GPUSTEP_EXPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "session/session.h"
#include "sim/util.h"

/* Default bound of a trace file, in trace events (~100 bytes each). */
#define TRACE_MAX_EVENTS_DEFAULT 2000000u

struct trace_opts {
	uint64_t from, to;     /* cycles [from, to) are recorded; to = UINT64_MAX: to the end */
	uint64_t max_events;   /* 0 = TRACE_MAX_EVENTS_DEFAULT */
};

struct trace_exp;
/* Open FILE (load/outfile.h: streamed to a temporary renamed at close) for the session's
 * simulator, which must be at or before opts->from. NULL + *err. */
struct trace_exp *trace_exp_open(struct session *ss, const char *path, const struct trace_opts *o, char **err);
/* Cycles the next slice may simulate before trace_exp_observe must look. */
uint64_t trace_exp_budget(const struct trace_exp *t, uint64_t now);
void trace_exp_observe(struct trace_exp *t, struct session *ss);
/* Close open slices at the window's end (or the last cycle run), write the
 * file; notes (cap reached, events lost) go to msg. Frees t. */
int trace_exp_close(struct trace_exp *t, struct session *ss, struct strbuf *msg, char **err);
/* Give up on the trace: FILE is left as it was. Frees t. */
void trace_exp_discard(struct trace_exp *t, struct session *ss);

struct sampler;
/* every: cycles per row; globs: comma-separated stat name globs (NULL = all scalar stats). */
struct sampler *sampler_open(struct session *ss, const char *csv, uint64_t every, const char *globs, char **err);
/* Writes the last (partial) interval's row and the file. Frees sp. */
int sampler_close(struct sampler *sp, struct session *ss, char **err);

/* The pending run request of ss to its end (or a stop), in slices bounded
 * by t's and sp's budgets (either may be NULL). */
void export_run_all(struct session *ss, struct trace_exp *t, struct sampler *sp);


#endif
