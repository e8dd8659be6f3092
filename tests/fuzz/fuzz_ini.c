/* fuzz_ini.c: a DRAMSim3 .ini config (engine/dram/dram_ini.c): applied on
 * the defaults, validated (the refresh rule included) and, when valid, the
 * machine built and run a little on vecadd. */
#include <stdlib.h>

#include "dram/dram_ini.h"
#include "fuzz.h"

FUZZ_TARGET(ini)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	struct strbuf notes;
	sb_init(&notes);
	if (dram_ini_apply(&c, (const char *)data, size, "fuzz.ini", &notes, &err) == 0)
		fuzz_machine(&c, "fuzz.ini", &err);
	fuzz_note(err);
	free(err);
	sb_fini(&notes);
	return 0;
}
