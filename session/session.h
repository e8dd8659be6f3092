/*
 * session.h: what one user session holds: the current config, workload, seed,
 * the simulator built from them, breakpoints (which survive restarts),
 * displays, and a pending run request. Shared by the TUI and batch mode; the
 * command table (commands.h) acts on it.
 */
#ifndef GPUSTEP_SESSION_H
#define GPUSTEP_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "debug/bp.h"
#include "sim/config.h"
#include "kernel/kernel.h"
#include "reuse/rdmodel.h"
#include "sim/sim.h"
#include "debug/snapshot.h"

#define SESSION_MAX_DISPLAYS 16
/* Default memory budget of the rewind snapshots (--snapshot-mb). */
#define SESSION_SNAPSHOT_MB_DEFAULT 256

enum run_kind {
	RUN_NONE,
	RUN_CYCLES,    /* step N / run N: stop after N more cycles (or earlier at a breakpoint) */
	RUN_FOREVER,   /* continue: until a breakpoint, the end, or an interrupt */
	RUN_NEXT_ISSUE, /* next: until warp (sm, slot) issues its next instruction */
	RUN_GOTO,       /* goto (forward): to target_cycle; breakpoints count hits but do not stop */
	RUN_REVERSE,    /* reverse-continue: search back for the previous stop (snapshot.h), then
			 * rewind to just before it and step into it */
	RUN_LOAD        /* load session in the TUI: replay the loaded session in slices
			 * (session_file.h), then swap it in; Ctrl-C cancels */
};

struct trace_list;
struct dram_reqs;
struct session_loader;

struct run_request {
	enum run_kind kind;
	uint64_t target_cycle; /* RUN_CYCLES */
	int sm, slot;          /* RUN_NEXT_ISSUE */
	int cta, warp_in_cta;  /* RUN_NEXT_ISSUE: who held the slot at the start (cta -1: empty) */
	uint64_t start_insts;  /* RUN_NEXT_ISSUE */
	struct sim_back_search search; /* RUN_REVERSE */
	struct session_loader *load;   /* RUN_LOAD */
	bool load_partial;             /* RUN_LOAD at start-up: a cancel keeps the cycle reached */
};

struct session {
	struct sim_cfg cfg;
	char cfg_source[256];      /* file or preset name it came from, "" = built-in */
	char workload_spec[256];   /* built-in kernel name or file */
	struct kernel_src ksrc;
	struct kernel *kernel;
	struct workload wl;        /* copy of *wl_owned, for readers */
	struct workload *wl_owned; /* what the sim points at */
	struct trace_list *traces; /* recorded trace (trace_io.h), or NULL for a kernel */
	struct dram_reqs *dreqs;   /* a DRAM-level trace (--dram-trace; dram_trace.h): DRAM-only sim, else NULL */
	unsigned trace_k;          /* its kernel being simulated (0-based) */
	uint64_t seed;
	struct sim *sim;
	struct bp_set bps;
	char *displays[SESSION_MAX_DISPLAYS];
	int ndisplays;
	struct run_request run;
	enum sim_stop last_stop;
	bool started;              /* cycles have been simulated since the last reset */
	unsigned builds;           /* machines built since session_init* (a session file opens with one) */
	bool quit;
	/* Interactive front end: selected units (panels read them). */
	int sel_sm, sel_l2, sel_ch, sel_bank;
	int sel_warp;              /* warp slot within sel_sm (`next`, `info warp`) */
	uint64_t sel_line;         /* `select line ADDR` or a coh.* stop's line (coherence panel) */
	bool sel_line_set;         /* false: the panel follows the newest coherence transaction */
	int tl_bank, tl_set;       /* `timeline l2 BANK SET`: the L2 set the timeline panel shows */
	bool tl_fixed;             /* false: it follows the newest L2 event of the selected bank */
	/* Event kinds the log records; survives restarts (`log`). */
	uint64_t log_mask[EV_MASK_WORDS];
	/* Last command line, repeated by an empty line when repeatable (gdb). */
	char last_line[256];
	/* Why the last run ended, beyond the sim's stop (e.g. `next`). */
	char stop_note[320];
	/* A run that ended in an error instead of a stop (a reverse-continue
	 * that found nothing); the front end prints it instead of the report. */
	char run_error[200];
	/* Cycles simulated by session_run_slice, replays included (slice tuning). */
	uint64_t simulated;
	/* Measured forward simulation speed (wall clock, runs of this session):
	 * `save session` stores the machine state when replaying to the cycle
	 * would take longer than SESSION_STATE_AUTO_SECONDS at this speed. It
	 * decides only how the file reopens, never a result. */
	uint64_t timed_cycles;
	double timed_seconds;
	/* Temporary breakpoint of a running `until` (removed when the run ends). */
	int until_id;
	/* Set by the TUI so `layout` etc. can reach it; NULL in batch mode. */
	const struct cmd_def *extra_cmds;
	size_t nextra_cmds;
	void *ui;
	/* Rewind snapshots: budget in bytes (0 = off), applied to every rebuilt sim. */
	size_t snapshot_bytes;
	/* --max-memory in bytes (0: only what the system has, sysmem.h): every
	 * rebuild refuses a machine whose estimate (sim_mem.h) exceeds it. */
	uint64_t max_memory;
	/* The machine a batch-mode `load session` is replaying (Ctrl-C reaches
	 * it: cli.c), else NULL. */
	struct sim *volatile load_sim;
	/* The text of the kernel file of a file workload as the session carries
	 * it (a loaded session file's workload-json), else NULL: saved again. */
	char *wl_json;
	/* What a finished RUN_LOAD says (notes, "loaded session ..."), printed by
	 * cmd_report_stop; the front end resets its panels when it is set. */
	char *load_report;
	bool loaded_at_start;      /* that load was gpustep --session's (the TUI logs every event kind then) */
	/* UI commands (`layout ...`) from a loaded session file, waiting for a UI. */
	char *ui_pending;
	/* The last `model` command's result (reuse panel: predicted vs measured);
	 * cleared when the config or workload changes. */
	struct rdm_summary model;
	/* The open lesson (lesson.h; cmd_lesson.c), NULL = none; freed here. */
	struct lesson *lesson;
	/* The last `why` chain: what each link names, for `why go N` (cmd_why.c;
	 * target is inspect.h's enum why_target), the machine and cycle it was
	 * read at, and the link `why go next` went to last. */
	struct why_pick {
		int target, sm, unit, entry;
		uint64_t addr;
	} why_links[16];
	int why_n, why_cur;
	const struct sim *why_sim;
	uint64_t why_cycle;
	/* `select mshr l1|l2 E`: the MSHR entry the mshr panel puts its cursor
	 * on; sel_mshr_gen counts selections (the panel moves once for each). */
	int sel_mshr_level, sel_mshr;
	unsigned sel_mshr_gen;
};

/* Load cfg (already validated) + workload spec into a fresh simulator. */
int session_init(struct session *ss, const struct sim_cfg *cfg, const char *cfg_source,
		 const char *workload_spec, uint64_t seed, char **err);
/* The same for a kernel already parsed (a session file's carried kernel,
 * `json` its text, kept in ss->wl_json); spec is the path it came from. */
int session_init_kernel(struct session *ss, const struct sim_cfg *cfg, const char *cfg_source, const char *spec,
			const struct kernel_src *k, const char *json, uint64_t seed, char **err);
/* `load session` in the TUI: start a RUN_LOAD of ld (session_file.h). */
void session_start_load(struct session *ss, struct session_loader *ld, bool partial);
/* "loaded session FILE: config, kernel, seed, N breakpoints, M displays\n" */
struct strbuf;
void session_loaded_message(const struct session *ss, const char *path, struct strbuf *sb);
/* "loading FILE: cycle N of M (P%)" while a RUN_LOAD runs; false otherwise. */
bool session_load_progress(const struct session *ss, char *buf, size_t n);
/* The same for a DRAM-level trace file (gpustep --dram-trace FILE in the TUI):
 * the simulator runs its DRAM alone, fed the trace (sim.h workload.dram_reqs). */
int session_init_dram_trace(struct session *ss, const struct sim_cfg *cfg, const char *cfg_source, const char *path,
			    uint64_t seed, char **err);
void session_fini(struct session *ss);
/* Rebuild the simulator from cfg/workload/seed at cycle 0; breakpoints kept. */
int session_reset(struct session *ss, char **err);
/* Replace the workload (built-in name or file) and reset; a DRAM-trace
 * session becomes a kernel one. On error nothing changes. */
int session_set_workload(struct session *ss, const char *spec, char **err);
/* Replace the config and reset. On error nothing changes. */
int session_set_config(struct session *ss, const struct sim_cfg *cfg, const char *source, char **err);
/* Replace the kernel source (e.g. a changed parameter) and reset. On error nothing changes. */
int session_set_kernel_src(struct session *ss, const struct kernel_src *k, char **err);

/* The memory a machine may take: --max-memory if set and lower, else what
 * the system has available; `what` names which (for messages). */
uint64_t session_memory_limit(uint64_t max_memory, char *what, size_t n);
/* 0, or -1 + an error naming the largest structure when the machine of cfg
 * (running wl, may be NULL) needs more than session_memory_limit(). */
int session_check_memory(uint64_t max_memory, const struct sim_cfg *cfg, const struct workload *wl, char **err);

/* A field filter of breakpoint `id` that no unit of this machine can satisfy
 * (`break l1.miss sm=99999999999` on 80 SMs): a warning in buf, true. */
bool session_bp_never_matches(const struct session *ss, int id, char *buf, size_t n);

/* Set the rewind snapshot budget (0 = off) now and for every rebuild. */
void session_set_snapshot_budget(struct session *ss, size_t bytes);
/* The snapshot budget later session_init* calls start with (default 256 MB). */
void session_set_initial_snapshot_budget(size_t bytes);
size_t session_initial_snapshot_budget(void);
/* The --max-memory (bytes, 0 = none) later session_init* calls start with,
 * so their first build is checked against it. */
void session_set_initial_max_memory(uint64_t bytes);

/* Start a run request (clears the previous stop). */
void session_start_run(struct session *ss, enum run_kind kind, uint64_t cycles);
/* Line size used by address watchpoints and filters (the L1 line). */
uint64_t session_line_bytes(const struct session *ss);

/* Advance the pending run by at most `budget` cycles; returns true while the
 * request is still in progress (TUI calls it in slices, batch in a loop). */
bool session_run_slice(struct session *ss, uint64_t budget);
/* Stop the pending request now, as an interrupt (Ctrl-C). A reverse-continue
 * search puts the machine back where it started. */
void session_run_interrupt(struct session *ss);
/* Run the pending request to its end (batch mode). */
void session_run_all(struct session *ss);
/* Seconds a replay from cycle 0 to the current cycle would take at the
 * speed measured over this session's forward runs; -1 if nothing was timed. */
double session_replay_estimate(const struct session *ss);
/* `save session FILE` stores the machine state (as --state does) when the
 * replay estimate exceeds this many seconds. */
#define SESSION_STATE_AUTO_SECONDS 0.5

#endif
