/*
 * dram_trace.h: DRAM-level traces fed straight into the DRAM model (no cores,
 * no caches): `gpustep --dram-trace FILE [CONFIG] --stats out.json`.
 *
 * Formats, detected per file from its first request line (blank lines and
 * lines starting with '#' are skipped everywhere). Addresses are hex in
 * every format, with or without 0x, as DRAMSim3 and Ramulator read them:
 *
 *   DRAMSim   0x7f3a40 READ 1200      address, READ|WRITE (or RD|WR), decimal cycle
 *   Ramulator LD 0x7f3a40 / ST 0x7f3a40    (also "0x7f3a40 R" / "0x7f3a40 W")
 *
 * The DRAMSim cycle is a core cycle, or a DRAM cycle with
 * dram.trace_cycles=dram (what a DRAMSim3 .ini config sets). Cycles above
 * DRAM_TRACE_MAX_CYCLE are refused with the line number. With a config,
 * addresses at or above the DRAM capacity are refused, or wrapped modulo
 * the capacity with dram.trace_wrap=true (counted, reported).
 *
 * DRAMSim requests issue at their cycle, or later while the channel queue is
 * full; cycles must not decrease. Ramulator requests issue as fast as the
 * queues accept. Addresses are aligned down to the L2 line: one request is
 * one line (l2.line / (bus_bytes x burst) column commands).
 *
 * Memory stays bounded: dram_trace_open() reads the whole file once to check
 * every line (a malformed file is refused with "file:line: expected ..."
 * before anything runs), then requests are streamed from the file.
 */
#ifndef GPUSTEP_DRAM_TRACE_H
#define GPUSTEP_DRAM_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/config.h"
#include "dram.h"
#include "sim/event.h"
#include "sim/stats.h"
#include "sim/util.h"

enum dram_trace_fmt { DTF_DRAMSIM, DTF_RAMULATOR };

struct dram_trace_rec {
	uint64_t addr;
	uint64_t cycle; /* DRAMSim: earliest issue cycle; Ramulator: 0 */
	bool is_write;
};

struct dram_trace;

/* Largest trace cycle (2^48, 89 years at 100 kHz... 3.3 days at 1 GHz): the
 * model's cycle arithmetic keeps headroom above it. */
#define DRAM_TRACE_MAX_CYCLE ((uint64_t)1 << 48)

/* The line parser alone (no file), for tests and fuzzing: feed lines in
 * order; the first request line fixes the format. */
struct dram_trace_parser {
	enum dram_trace_fmt fmt;
	int sub;            /* Ramulator: 0 = LD/ST, 1 = "ADDR R|W" */
	bool detected, wrap;
	unsigned long line;
	uint64_t last_cycle, capacity, wrapped;
};
/* cfg (may be NULL: no address check) gives the capacity and dram.trace_wrap. */
void dram_trace_parser_init(struct dram_trace_parser *p, const struct sim_cfg *cfg);
/* One line s[0..n) (its newline optional; NUL bytes are an error): 1 = a
 * request in *r, 0 = blank or comment, -1 = *err "line N: ..." */
int dram_trace_parse(struct dram_trace_parser *p, const char *s, size_t n, struct dram_trace_rec *r, char **err);
/* A whole trace in memory: 0 and *count requests, or -1 and *err (also for
 * an input without any request). */
int dram_trace_check_mem(const char *buf, size_t len, const struct sim_cfg *cfg, uint64_t *count, char **err);

/* Where feeding stands: requests issued so far, and whether the head's
 * refusal was counted (dram.queue_full once per waiting request). Plain
 * data, so a simulator keeps it in its arena and rewinding restores it. */
struct dram_trace_cursor {
	uint64_t issued;
	uint8_t full_noted;
	uint8_t pad[7];
};

/* A whole trace in memory (the TUI's DRAM-trace sessions, engine/machine/sim.c):
 * immutable once loaded, so snapshots need only the cursor. */
struct dram_reqs {
	enum dram_trace_fmt fmt;
	uint64_t n, wrapped;
	struct dram_trace_rec *r;
};

/* Check every line, then rewind. NULL + *err ("path:line: expected ...") on
 * a bad file or one without a request. Free with dram_trace_close(). */
struct dram_trace *dram_trace_open(const char *path, const struct sim_cfg *cfg, char **err);
void dram_trace_close(struct dram_trace *t);
enum dram_trace_fmt dram_trace_format(const struct dram_trace *t);
const char *dram_trace_format_name(enum dram_trace_fmt f);
uint64_t dram_trace_count(const struct dram_trace *t); /* requests in the file */
/* Next request: 1, or 0 at the end of the file. */
int dram_trace_next(struct dram_trace *t, struct dram_trace_rec *r);


/* Read and check the whole file into memory (24 B a request). NULL + *err as
 * dram_trace_open. Free with dram_reqs_free(). */
struct dram_reqs *dram_trace_load(const char *path, const struct sim_cfg *cfg, char **err);
void dram_reqs_free(struct dram_reqs *q);
/* dram_trace_feed over a loaded trace from cursor c (same rules, same
 * return value). */
uint64_t dram_reqs_feed(const struct dram_reqs *q, struct dram_trace_cursor *c, struct dram *d, uint64_t now,
			uint32_t line);

/* Batch run: a DRAM built from cfg, fed the whole trace, run until every
 * request completed. The result owns the stats registry (every dram.* stat),
 * the final cycle (`now`) and the DRAM; write them with the stats JSON writer
 * and free with dram_trace_run_free(). NULL + *err on a bad config or file. */
struct dram_trace_run {
	struct arena arena;
	struct stats stats;
	struct events events;
	uint64_t now; /* core cycle at which the last request completed */
	struct dram *dram;
	enum dram_trace_fmt format;
	uint64_t requests, reads, writes, wrapped;
	double seconds; /* host wall-clock time of the run */
};

struct dram_trace_run *dram_trace_run(const struct sim_cfg *cfg, const char *path, char **err);
/* A few lines: requests, cycles, row-buffer outcome, latency, bandwidth, speed. */
void dram_trace_summary(const struct dram_trace_run *r, struct strbuf *out);
void dram_trace_run_free(struct dram_trace_run *r);

#endif
