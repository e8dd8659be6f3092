/*
 * stats_json.h: JSON writers (cJSON output).
 *
 *   {"gpustep": VERSION, "config": NAME, "workload": NAME, "seed": N, "cycles": N,
 *    "stats": {NAME: number | {"buckets": [lower edges], "counts": [...]}}}
 *
 * Counters are integers, ratios numbers, occupancies their mean over the run,
 * histograms objects. Files are written atomically (temp file in the same
 * directory, fsync, rename), so a reader never sees half a file.
 */
#ifndef GPUSTEP_STATS_JSON_H
#define GPUSTEP_STATS_JSON_H

#include <stdint.h>

#include "load/outfile.h" /* write_file_atomic, remove_stale_temps */
#include "sim/config.h"
#include "sim/sim.h"

struct stats_json_info {
	const char *config;   /* config name */
	const char *workload; /* workload name */
	uint64_t seed;
};

/* The document as a heap string (caller frees). */
char *stats_json_string(const struct sim *s, const struct stats_json_info *info);
/* Same from a bare registry (DRAM-trace runs have no sim). */
char *stats_json_string_raw(const struct stats *st, uint64_t cycles, const struct stats_json_info *info);
/* Atomic write of stats_json_string(); "-" writes to stdout. */
int stats_json_write(const char *path, const struct sim *s, const struct stats_json_info *info, char **err);
/* Every config parameter as nested JSON (the format the loader reads);
 * `gpustep --dump-config` prints it. Caller frees. */
char *config_json_string(const struct sim_cfg *c);

#endif
