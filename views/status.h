/*
 * status.h: the status bar (one line, top of the screen):
 *
 *   cycle 1234 | stopped at breakpoint 2: dram.row_conflict ch=0 bank=3 | 1.2M cyc/s | IPC 0.53 | rewind ≥ 0 | teaching | vecadd | overview
 *
 * When the line is too narrow, the layout name, then the workload and config,
 * then the rewind horizon, then IPC are dropped before the run state is truncated (with the marker).
 */
#ifndef GPUSTEP_VIEWS_STATUS_H
#define GPUSTEP_VIEWS_STATUS_H

#include <curses.h>
#include <stdint.h>

#include "draw.h"
#include "sim/sim.h"

struct status_info {
	const char *config, *workload, *layout;
	uint64_t cycle;
	const char *state;    /* "paused", "running", "finished", "stopped at breakpoint 2: ..." */
	enum role state_role; /* R_BAR (plain), R_BAR_ALERT (breakpoint, interrupt), R_BAR_DONE */
	double cps;           /* simulated cycles per second; < 0: not shown */
	double ipc;           /* < 0: unknown */
	const struct sim *sim; /* for how far back rewinding reaches ("rewind ≥ 0"); NULL: not shown */
};

void status_draw(WINDOW *w, const struct status_info *si);

#endif
