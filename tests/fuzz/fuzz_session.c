/* fuzz_session.c: session files (session/session_file.c). The input is a
 * session file without its checksum line; the target appends a correct one
 * so the fuzzer reaches the parser behind the envelope (an input that ends
 * with its own checksum line is taken as it is, so the envelope is fuzzed
 * too; like the file's own, the appended checksum skips state-data lines).
 * Loading replays to the saved cycle, or puts the carried machine state
 * (version 3) on the machine: inputs with a `cycle` above 20000 are skipped
 * to keep one run short. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "session/session_file.h"
#include "session/session_state.h"

FUZZ_TARGET(session)
{
	char *text = fuzz_str(data, size);
	for (const char *p = text; (p = strstr(p, "cycle ")) != NULL; p++)
		if ((p == text || p[-1] == '\n') && strtoull(p + 6, NULL, 0) > 20000) {
			free(text);
			return 0;
		}
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, text);
	if (!strstr(text, "checksum fnv1a64 ")) {
		if (size && text[size - 1] != '\n')
			sb_puts(&sb, "\n");
		sb_printf(&sb, "checksum fnv1a64 %016" PRIx64 "\n", session_checksum(sb.s, sb.len));
	}
	struct sim_cfg c;
	cfg_defaults(&c);
	struct session ss;
	char *err = NULL;
	if (session_init(&ss, &c, "", "vecadd", 1, &err) == 0) {
		session_set_snapshot_budget(&ss, 8u << 20);
		struct strbuf notes;
		sb_init(&notes);
		session_load_text(&ss, sb.s, sb.len, "fuzz.gps", &notes, &err);
		sb_fini(&notes);
		session_fini(&ss);
	}
	fuzz_note(err);
	free(err);
	sb_fini(&sb);
	free(text);
	return 0;
}
