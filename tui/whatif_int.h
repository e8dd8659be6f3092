/* whatif_int.h: what `whatif` (cmd_whatif.c) leaves for `whatif show` and
 * `whatif go` (cmd_whatif_show.c). Front end only; the fork/compare/report
 * core is session/whatif.c. */
#ifndef GPUSTEP_TUI_WHATIF_INT_H
#define GPUSTEP_TUI_WHATIF_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cmd_int.h"
#include "session/whatif.h"
#include "sim/event.h"

/* The last whatif, for `whatif show` and `whatif go`: valid while the
 * stepped machine is the one it forked (same machine, cycle and state hash). */
struct wi_last {
	const struct session *ss;
	const struct sim *sim;
	uint64_t cycle, hash;
	bool valid, from_start;
	struct whatif_part part;
	struct sim_cfg cfg_b;
	char change[1024];
};
extern struct wi_last whatif_last;

int whatif_show(struct session *ss, int argc, char **argv, struct cmd_out *out);
int whatif_go(struct session *ss, int argc, char **argv, struct cmd_out *out);

#endif
