/*
 * sweep.h: parameter sweeps (docs/SWEEPS.md).
 *
 *   SPEC.json ─▶ sweep_load: configs × workloads × axes × params × seeds
 *             │  (cross, or zip), every job's config built and validated,
 *             │  job key = hash(resolved config JSON, workload file bytes,
 *             │  params, seed, gpustep version)
 *             ▼
 *   runners (sweep_run.c): -j N here | --emit parallel DIR | --emit slurm DIR
 *             | --job K; each job is `gpustep CONFIG -w WL -s .. -p ..
 *             --seed S --run --stats OUT/jobs/KEY.json` in a child process
 *             ▼
 *   OUT/jobs/KEY.json        stats JSON, written atomically (exists = done)
 *   OUT/jobs/KEY.fail.json   {"exit": N, "message": "..."} of a failed job
 *   OUT/logs/KEY.log         the job's stdout and stderr
 *   OUT/locks/KEY.lock       flock'd by the runner running the job
 *   OUT/sweep.log            start/done/fail lines, one per event
 *             ▼
 *   collect (sweep_collect.c): SQLite (jobs, stats), wide CSV, markdown
 *   tables; plot (sweep_plot.c) through gnuplot.
 *
 * OUT is SPEC-results/ beside the spec (SPEC without .json) unless --out.
 */
#ifndef GPUSTEP_SWEEP_H
#define GPUSTEP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One named dimension of the sweep: "config", "workload", "seed", a config
 * path (axes) or "param.NAME" (kernel parameters). */
struct sweep_dim {
	char *name;   /* column name: "config", "l1.mshr.entries", "param.n" */
	char *path;   /* -s / -p target ("l1.mshr.entries", "n"), NULL for config/workload/seed */
	bool is_param;
	char **vals;  /* as text, as they go on the command line */
	int nvals;
};

struct sweep_job {
	int index;       /* 0-based, expansion order (= --job K, Slurm array index) */
	int *pick;       /* value index per dim */
	char key[17];    /* 16 hex digits */
	char **argv;     /* the job's gpustep command line (without the binary), NULL-terminated */
	int argc;
};

#define SWEEP_MAX_BASE 8

struct sweep {
	char *spec_path;
	char *spec_dir;  /* directory of the spec (relative paths resolve there first) */
	char *out;       /* results directory */
	struct sweep_dim *dims;
	int ndims;
	struct sweep_job *jobs;
	int njobs;
	char *self;      /* absolute path of this gpustep binary */
	/* "baseline": {DIM: VALUE, ...}: the dims it names and the value of
	 * each (as tables show it); `sweep table` compares every cell with
	 * the cell that has these values (sweep_plot.c). */
	int base_dim[SWEEP_MAX_BASE];
	char *base_val[SWEEP_MAX_BASE];
	int nbase;
};

/* Parse, expand and validate a spec. out: NULL = SPEC-results beside it.
 * Returns NULL with *err set (caller frees) on any error. */
struct sweep *sweep_load(const char *spec_path, const char *out, char **err);
/* The same, but with only_job >= 0 only that job is built and validated
 * (the others have their index and picks, no key or argv; no duplicate
 * check): what --job K needs. */
struct sweep *sweep_load_ex(const char *spec_path, const char *out, long only_job, char **err);
void sweep_free(struct sweep *sw);
/* Value of dim d for job j. */
const char *sweep_val(const struct sweep *sw, const struct sweep_job *j, int d);
/* Index of the dim with this name (also "seed", "config", "workload"), or -1. */
int sweep_dim_find(const struct sweep *sw, const char *name);

/* Paths (heap): OUT/jobs/KEY.json, OUT/jobs/KEY.fail.json, OUT/logs/KEY.log. */
char *sweep_result_path(const struct sweep *sw, const struct sweep_job *j);
char *sweep_fail_path(const struct sweep *sw, const struct sweep_job *j);
char *sweep_log_path(const struct sweep *sw, const struct sweep_job *j);
/* mkdir -p of OUT, OUT/jobs, OUT/logs, OUT/locks (KEY.lock: the runner running KEY). */
int sweep_make_dirs(const struct sweep *sw, char **err);
bool sweep_file_exists(const char *path);

/* Options of every sweep sub-command (each checks the ones it takes). */
struct sweep_opts {
	int jobs;                /* -j N (0 = online CPUs) */
	const char *emit, *emit_dir; /* --emit parallel|slurm DIR */
	long job;                /* --job K, -1 = none */
	const char *out;         /* --out DIR */
	bool list;               /* --list */
	const char *db, *csv, *md; /* collect: --db FILE, --csv FILE; table: --md FILE */
	const char *stats;       /* collect/table: --stats GLOB,... */
	const char *x, *y, *by, *o; /* plot */
	const char *rows, *cols, *fmt; /* table */
	const char *agg;         /* table/plot: mean (default) | geomean | sum */
	const char *base;        /* table: divide each column by the row with this value */
	const char *log;         /* plot: log scale on "x", "y" or "xy" */
	const char *time, *partition, *mem; /* --emit slurm: #SBATCH --time, --partition, --mem */
};

/* Entry point (argv[0] = "sweep"); exit status as cli.h. */
int sweep_main(int argc, char **argv);
/* The progress line: "[####    ] 3/8 done, 0 failed, 2 running, ETA 4s";
 * a stopped sweep (Ctrl-C) says how many jobs it did not run instead of an
 * ETA. */
void sweep_progress_line(char *buf, size_t n, int done, int failed, int running, int total, int skipped,
			 double elapsed, bool stopped);
/* Sub-commands (sweep_collect.c, sweep_plot.c). */
int sweep_collect(struct sweep *sw, const struct sweep_opts *o);
int sweep_table(struct sweep *sw, const struct sweep_opts *o);
int sweep_plot(struct sweep *sw, const struct sweep_opts *o);
/* Whether a name matches one of comma-separated globs (NULL/"" = all). */
bool sweep_glob_list_match(const char *globs, const char *name);

#endif
