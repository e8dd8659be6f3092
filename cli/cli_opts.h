/*
 * cli_opts.h: gpustep's command-line options as parsed (cli_opts.c), for
 * cli.c's flow.
 */
#ifndef GPUSTEP_CLI_OPTS_H
#define GPUSTEP_CLI_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_SETS 256

struct options {
	const char *config, *workload, *batch, *stats, *dram_trace, *session;
	long snapshot_mb; /* -1: default */
	uint64_t max_memory; /* --max-memory in bytes, 0 = what the system has */
	const char *sets[MAX_SETS];
	int nsets;
	const char *params[MAX_SETS];
	int nparams;
	bool run, check, dump, seed_given, threads_given;
	int threads;
	bool list_events, list_stats, list_kernels, list_presets, list_config, list_params;
	uint64_t seed;
	/* exports (export.h) */
	const char *trace_out, *csv, *sample_stats;
	uint64_t trace_from, trace_to, trace_max, sample;
};

/* Parse argv into o (zeroed by the caller; snapshot_mb -1 = default).
 * Returns -1 to continue, else an exit status (--help, --version, or a usage
 * error already printed). */
int cli_parse_options(int argc, char **argv, struct options *o);

#endif
