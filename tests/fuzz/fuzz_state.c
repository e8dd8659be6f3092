/* fuzz_state.c: the machine-state importer (engine/debug/snapstate.c) behind
 * a session file's signature (session/state_mac.h). A state made at start-up
 * by this very build (matmul_naive n=32 on the default machine, 1500 cycles
 * in, requests in flight at every level) is edited as the input says, then
 * put back in its session file with the state's FNV, the file checksum and
 * the signature all recomputed with the scratch directory's key, as only a
 * forger holding the user's key could: the fuzzer so reaches the
 * importer's structural checks rather than the envelope. The input is a list of
 * 12-byte edits: u32 word index (modulo the state's words), u64 value
 * XORed onto that word. Loading either puts the state on the machine, which
 * then runs 3000 cycles, or replays with a note; neither may crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "session/session_file.h"
#include "tui/commands.h"
#include "../statefile.h"

static char *good;
static unsigned char *blob;
static size_t blen;

static struct session *fresh(void)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	struct session *ss = xcalloc(1, sizeof *ss);
	char *err = NULL;
	if (session_init(ss, &c, "", "matmul_naive", 1, &err) != 0) {
		fprintf(stderr, "fuzz_state: %s\n", err ? err : "cannot build");
		abort();
	}
	session_set_snapshot_budget(ss, 8u << 20);
	return ss;
}

FUZZ_TARGET(state)
{
	if (!good) {
		setenv("XDG_STATE_HOME", fuzz_dir(), 1); /* the key lives in the scratch directory */
		struct session *ss = fresh();
		struct cmd_out *q = &fuzz_quiet;
		cmd_exec(ss, "set param.n 32", q);
		fuzz_run(ss, 1500);
		char *err = NULL;
		good = session_file_text_ex(ss, true, &err);
		blob = good ? sf_blob(good, &blen) : NULL;
		if (!blob || blen < 8) {
			fprintf(stderr, "fuzz_state: no state to edit: %s\n", err ? err : "?");
			abort();
		}
		free(err);
		session_fini(ss);
		free(ss);
	}
	unsigned char *copy = xmalloc(blen);
	memcpy(copy, blob, blen);
	size_t nw = blen / 8;
	for (size_t i = 0; i + 12 <= size; i += 12) {
		uint32_t w;
		uint64_t x, v;
		memcpy(&w, data + i, 4);
		memcpy(&x, data + i + 4, 8);
		memcpy(&v, copy + (w % nw) * 8, 8);
		v ^= x;
		memcpy(copy + (w % nw) * 8, &v, 8);
	}
	char *text = sf_rebuild(good, copy, blen, SF_MAC_SIGN);
	struct session *ss = fresh();
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	if (session_load_text(ss, text, strlen(text), "fuzz.gps", &notes, &err) == 0 &&
	    !(notes.s && strstr(notes.s, "replaying")))
		fuzz_run(ss, 3000);
	fuzz_note(err);
	fuzz_note(notes.s);
	free(err);
	sb_fini(&notes);
	session_fini(ss);
	free(ss);
	free(text);
	free(copy);
	return 0;
}
