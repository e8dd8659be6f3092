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
#include "state_mac.h"

/* Append the state lines of s, signed with this user's key (state_mac.h)
 * over sb's text so far and the state; -1 + *err when its state cannot be
 * saved. Without a key (no home directory) the state goes unsigned and a
 * note says so in *note (caller frees; NULL otherwise). */
int session_state_write(const struct sim *s, struct strbuf *sb, char **note, char **err);

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
	bool have_mac; /* a state-mac line (state_mac.h) */
	unsigned char mac[32];
	/* session_state_prepare: the signature over the text, under this user's key */
	bool mac_ready;
	struct state_mac m;
	char mac_why[160];
};
/* Parse a `state` (-1 on a malformed line: the file is bad), a
 * `state-data` line (decoding problems only mark the state bad) or a
 * `state-mac` line (-1 when malformed). */
int session_state_line(struct session_state *st, const char *key, const char *val);
/* The blob when complete and its hash matches, else NULL with st->why set. */
const unsigned char *session_state_blob(struct session_state *st);
void session_state_fini(struct session_state *st);
/* Before the lines are parsed (which cuts the text up): the signature's
 * text part, text being the file without its checksum line. */
void session_state_prepare(struct session_state *st, const char *text, size_t len);
/* 0 when the complete blob's signature verifies under this user's key;
 * else -1 and why. */
int session_state_verify(struct session_state *st, char *why, size_t n);

#endif
