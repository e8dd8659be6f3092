/* fuzz_gpgpusim.c: a GPGPU-Sim / Accel-Sim config (load/gpgpusim.c): apply
 * it on the defaults with the mapping collected and, when valid, build the
 * machine and run it a little on vecadd. The file name lies in a folder
 * that does not exist, so no trace.config or .icnt is found beside it. */
#include <stdlib.h>

#include "fuzz.h"
#include "load/gpgpusim.h"

FUZZ_TARGET(gpgpusim)
{
	char *text = fuzz_str(data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	struct strbuf map, notes;
	sb_init(&map);
	sb_init(&notes);
	const char *name = "/nonexistent-gpustep-fuzz/gpgpusim.config";
	if (gpgpusim_apply(&c, name, text, size, &map, &notes, &err) == 0)
		fuzz_machine(&c, name, &err);
	fuzz_note(err);
	free(err);
	sb_fini(&map);
	sb_fini(&notes);
	free(text);
	return 0;
}
