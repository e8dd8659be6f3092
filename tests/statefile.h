/*
 * statefile.h: a forger's tools for session files with a machine state
 * (session_state.h), shared by the hostile-input tests (tests/ui/
 * test_security.c) and the state fuzz target (tests/fuzz/fuzz_state.c):
 * take the state out of a file, and put an edited one back with every
 * unkeyed hash recomputed (the state line's FNV, the file checksum) and,
 * when asked, the signature too (this user's key, state_mac.h), which only
 * the owner of the key can do.
 */
#ifndef GPUSTEP_TESTS_STATEFILE_H
#define GPUSTEP_TESTS_STATEFILE_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "session/session_state.h"
#include "session/session_wl.h"
#include "session/state_mac.h"
#include "sim/util.h"

/* The decoded state of a session file's text (NULL if it has none). */
static inline unsigned char *sf_blob(const char *text, size_t *len)
{
	struct session_state st;
	memset(&st, 0, sizeof st);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = xasprintf("%.*s", (int)n, p);
		char *sp = strchr(line, ' ');
		if (sp && (strncmp(line, "state ", 6) == 0 || strncmp(line, "state-data ", 11) == 0)) {
			*sp = 0;
			session_state_line(&st, line, sp + 1);
		}
		free(line);
		p += n + (p[n] == '\n');
	}
	unsigned char *out = NULL;
	if (session_state_blob(&st)) {
		out = st.buf;
		*len = st.len;
		st.buf = NULL;
	}
	session_state_fini(&st);
	return out;
}

/* What sf_rebuild does with the signature: leave it out, keep the file's
 * (now stale) line, or sign again with this user's key. */
enum sf_mac { SF_MAC_DROP, SF_MAC_KEEP, SF_MAC_SIGN };

/* text with its state replaced by blob[0, len): the state line (FNV) and
 * data lines where the state line was, the signature as mac says, and the
 * file checksum. Caller frees. */
static inline char *sf_rebuild(const char *text, const unsigned char *blob, size_t len, enum sf_mac mac_mode)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	struct strbuf sb;
	sb_init(&sb);
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		bool state = strncmp(p, "state ", 6) == 0;
		if (state) {
			sb_printf(&sb, "state %zu fnv1a64 %016" PRIx64 "\n", len, session_fnv1a((const char *)blob, len));
			sb_puts(&sb, "state-data ");
			for (size_t i = 0; i < len; i += 3) {
				uint32_t v = (uint32_t)blob[i] << 16 | (i + 1 < len ? (uint32_t)blob[i + 1] << 8 : 0) |
					     (i + 2 < len ? blob[i + 2] : 0);
				char q[5] = {b64[(v >> 18) & 63], b64[(v >> 12) & 63], i + 1 < len ? b64[(v >> 6) & 63] : '=',
					     i + 2 < len ? b64[v & 63] : '=', 0};
				sb_puts(&sb, q);
				if ((i / 3 + 1) % 1024 == 0 && i + 3 < len)
					sb_puts(&sb, "\nstate-data ");
			}
			sb_puts(&sb, "\n");
		} else if (strncmp(p, "state-data ", 11) != 0 &&
			   (mac_mode == SF_MAC_KEEP || strncmp(p, "state-mac ", 10) != 0) && strncmp(p, "checksum ", 9) != 0) {
			sb_printf(&sb, "%.*s\n", (int)n, p);
		}
		p += n + (p[n] == '\n');
	}
	unsigned char key[STATE_KEY_BYTES], mac[32];
	char *e = NULL;
	if (mac_mode == SF_MAC_SIGN && state_key_get(key, true, &e) == 0) {
		struct state_mac m;
		state_mac_init(&m, key, sizeof key);
		state_mac_text(&m, sb.s, sb.len);
		state_mac_update(&m, blob, len);
		state_mac_final(&m, mac);
		sb_puts(&sb, "state-mac hmac-sha256 ");
		for (int i = 0; i < 32; i++)
			sb_printf(&sb, "%02x", mac[i]);
		sb_puts(&sb, "\n");
	}
	free(e);
	sb_printf(&sb, "checksum fnv1a64 %016" PRIx64 "\n", session_checksum(sb.s, sb.len));
	return sb.s;
}

#endif
