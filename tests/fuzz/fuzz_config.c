/* fuzz_config.c: a machine config JSON file (tui/loader.c, engine/config.c):
 * load on the defaults, validate, print the derived values and, when valid,
 * build the machine and run it a little on vecadd. */
#include <stdlib.h>

#include "fuzz.h"
#include "loader.h"

FUZZ_TARGET(config)
{
	char *text = fuzz_str(data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	if (loader_apply_config_text(text, "fuzz.json", &c, &err) == 0 && cfg_validate(&c, &err) == 0) {
		struct strbuf sb;
		sb_init(&sb);
		cfg_print_derived(&c, &sb);
		sb_fini(&sb);
		struct session ss;
		if (session_init(&ss, &c, "fuzz.json", "vecadd", 1, &err) == 0) {
			session_set_snapshot_budget(&ss, 0);
			fuzz_run(&ss, 300);
			session_fini(&ss);
		}
	}
	fuzz_note(err);
	free(err);
	free(text);
	return 0;
}
