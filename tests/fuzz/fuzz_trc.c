/* fuzz_trc.c: a Nugteren .trc thread-address trace (engine/reuse/trc.c): parse it
 * as a workload through load/trace_io.c and replay a few thousand cycles. */
#include <stdlib.h>

#include "fuzz.h"

FUZZ_TARGET(trc)
{
	const char *path = fuzz_file("fuzz.trc", data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	fuzz_workload(&c, path, 3000);
	return 0;
}
