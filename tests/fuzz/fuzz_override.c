/* fuzz_override.c: `-s PATH=VALUE` overrides and `set PATH VALUE` (one per
 * input line) on the defaults, then validation and, when valid, a short run
 * of vecadd on the machine. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "loader.h"

FUZZ_TARGET(override)
{
	char *text = fuzz_str(data, size);
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	int bad = 0, n = 0;
	for (char *line = text, *nl; line && !bad && n < 64; line = nl ? nl + 1 : NULL, n++) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (!*line)
			continue; /* blank line (the input's last newline) */
		bad = loader_apply_override(&c, line, &err) != 0;
		fuzz_note(err);
	free(err);
		err = NULL;
	}
	if (!bad && cfg_validate(&c, &err) == 0) {
		struct strbuf sb;
		sb_init(&sb);
		cfg_print_derived(&c, &sb);
		sb_fini(&sb);
		struct session ss;
		if (session_init(&ss, &c, "", "vecadd", 1, &err) == 0) {
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
