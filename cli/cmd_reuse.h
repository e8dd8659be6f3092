/*
 * cmd_reuse.h: the reuse-distance model front end (cmd_reuse.c):
 *   gpustep model [CONFIG] -w WORKLOAD [options]
 * runs the analytical model (engine/reuse/rdmodel.h) on the L1 of CONFIG and, for
 * comparison, the cycle simulator on the same workload; prints `hit rate`
 * and `miss rate` lines for both.
 */
#ifndef GPUSTEP_CMD_REUSE_H
#define GPUSTEP_CMD_REUSE_H

#include <stdbool.h>

#include "sim/config.h"
#include "kernel/kernel.h"
#include "reuse/rdref.h"
#include "sim/util.h"

enum { MODEL_SEM_GPUSTEP, MODEL_SEM_REFERENCE }; /* rdmodel.h / rdref.h */

/* Model parameters the config does not give (defaults: reference implementation). */
struct model_opts {
	unsigned lat_min, lat_sigma, lat_hit;
	unsigned threads; /* threads modelled (whole blocks): default 8192 as the paper, 0 = all */
	unsigned hist_cap; /* histogram bins (exact distances below); 0 = 4 ways */
	int semantics;     /* MODEL_SEM_* */
	bool rule_b, no_clip, simulate, ablation, hist;
	const char *json;  /* --json FILE, or NULL (implies the ablation) */
};
/* The same for a .trc thread-address trace (engine/reuse/trc.h). */
struct trc;
/* `gpustep model ...`: argv[0] = "model". Returns the exit status. */
int model_main(int argc, char **argv);

#endif
