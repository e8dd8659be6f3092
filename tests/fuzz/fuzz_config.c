/* fuzz_config.c: a machine config JSON file (load/loader.c, engine/sim/config.c):
 * load on the defaults, validate, print the derived values and, when valid,
 * build the machine and run it a little on vecadd. */
#include <stdlib.h>

#include "fuzz.h"
#include "load/loader.h"

FUZZ_TARGET(config)
{
	char *text = fuzz_str(data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	if (loader_apply_config_text(text, "fuzz.json", &c, &err) == 0)
		fuzz_machine(&c, "fuzz.json", &err);
	fuzz_note(err);
	free(err);
	free(text);
	return 0;
}
