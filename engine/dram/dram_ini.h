/*
 * dram_ini.h: DRAMSim3 `.ini` configs read directly into dram.* parameters
 * (gpustep --dram-trace FILE CONFIG.ini; "dram": {"ini": "PATH"} or
 * "extends": "PATH.ini" in a machine config). docs/DRAM.md has the table of
 * keys and what each becomes.
 *
 * Missing keys take DRAMSim3's own defaults (so a file means what it means
 * to DRAMSim3). Keys with no gpustep meaning (power, thermal, self refresh,
 * tXS, ...) are listed in `notes`; a malformed value is an error naming the
 * file, line and key.
 */
#ifndef GPUSTEP_DRAM_INI_H
#define GPUSTEP_DRAM_INI_H

#include <stddef.h>

#include "sim/config.h"
#include "sim/util.h"

/* Apply text (len bytes, named fname in messages) on top of cfg: every
 * dram.* the file determines, and dram.trace_cycles = dram (a DRAMSim3
 * trace counts DRAM cycles). notes (may be NULL) receives one line naming
 * the keys not used. 0, or -1 and *err. */
int dram_ini_apply(struct sim_cfg *cfg, const char *text, size_t len, const char *fname, struct strbuf *notes,
		   char **err);
#endif
