/*
 * session_state.h: the machine state in a session file (`save session FILE
 * --state`, format version 3), so that opening it needs no replay:
 *
 *   state BYTES fnv1a64 HEX   the blob's size and hash (engine/debug/snapstate.c)
 *   state-data BASE64         the blob, 4096 characters a line
 *
 * The file's checksum skips the state-data lines: a damaged state is found
 * by its own hash, and the session then replays from cycle 0 as a file
 * without state does (saying so), instead of being refused.
 */
#ifndef GPUSTEP_SESSION_STATE_H
#define GPUSTEP_SESSION_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "sim/util.h"

/* Append the state lines of s; -1 + *err when its state cannot be saved. */
int session_state_write(const struct sim *s, struct strbuf *sb, char **err);

/* FNV-1a 64 of the text without its state-data lines (the file checksum). */
uint64_t session_checksum(const char *text, size_t len);

/* What a file's state lines hold, decoded as they are parsed. */
struct session_state {
	bool have;     /* a state line was seen */
	bool bad;      /* a line did not decode: why says it */
	size_t len;    /* the blob's size per the state line */
	uint64_t hash; /* and its hash */
	unsigned char *buf;
	size_t got, cap;
	char why[160];
};
/* Parse a `state` (-1 on a malformed line: the file is bad) or a
 * `state-data` line (decoding problems only mark the state bad). */
int session_state_line(struct session_state *st, const char *key, const char *val);
/* The blob when complete and its hash matches, else NULL with st->why set. */
const unsigned char *session_state_blob(struct session_state *st);
void session_state_fini(struct session_state *st);

#endif
