/* fuzz_traceg.c: an Accel-Sim .traceg kernel (engine/trace/trace.c index and
 * replay, through load/trace_io.c's mmap path): open it as a workload on the
 * teaching machine and replay a few thousand cycles. */
#include <stdlib.h>

#include "fuzz.h"

FUZZ_TARGET(traceg)
{
	const char *path = fuzz_file("kernel-1.traceg", data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	fuzz_workload(&c, path, 3000);
	return 0;
}
