/* fuzz_dram.c: DRAM-level traces, both formats (engine/dram/dram_trace.c):
 * DRAMSim `0xADDR READ|WRITE CYCLE` and Ramulator `LD|ST 0xADDR`. The
 * batch runner (dram_trace_run, to the last request) and the TUI's
 * in-memory session (bounded run) on the teaching machine's DRAM. */
#include <stdlib.h>

#include "dram/dram_trace.h"
#include "fuzz.h"

FUZZ_TARGET(dram)
{
	const char *path = fuzz_file("fuzz.dramtrace", data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	if (cfg_set_value(&c, "mem.model", "dram", &err))
		abort();
	struct dram_trace_run *r = dram_trace_run(&c, path, &err);
	if (r) {
		struct strbuf sb;
		sb_init(&sb);
		dram_trace_summary(r, &sb);
		sb_fini(&sb);
		dram_trace_run_free(r);
	}
	fuzz_note(err);
	free(err);
	err = NULL;
	struct session ss;
	if (session_init_dram_trace(&ss, &c, "", path, 1, &err) == 0) {
		fuzz_run(&ss, 3000);
		session_fini(&ss);
	}
	fuzz_note(err);
	free(err);
	return 0;
}
