/* fuzz_override.c: `-s PATH=VALUE` overrides and `set PATH VALUE` (one per
 * input line) on the defaults, then validation and, when valid, a short run
 * of vecadd on the machine. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "load/loader.h"

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
	if (!bad)
		fuzz_machine(&c, "", &err);
	fuzz_note(err);
	free(err);
	free(text);
	return 0;
}
