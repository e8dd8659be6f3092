/*
 * state_mac.h: a session's machine state is used only when it carries this
 * user's signature (docs/SECURITY.md). `save session FILE --state` adds
 *
 *   state-mac hmac-sha256 HEX
 *
 * an HMAC-SHA256, under a key only this user can read
 * ($XDG_STATE_HOME/gpustep/state.key, else ~/.local/state/gpustep/state.key;
 * 32 random bytes made at the first save), of every line of the file but
 * its state-data, state-mac and checksum lines, then the decoded state.
 * The config, workload, seed and cycle lines are so tied to the state. A
 * state from someone else (another key), edited, or without the line is not
 * put on the machine: the session replays from cycle 0 and says why.
 */
#ifndef GPUSTEP_SESSION_STATE_MAC_H
#define GPUSTEP_SESSION_STATE_MAC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t bytes;
	unsigned char buf[64];
	size_t n;
};
void sha256_init(struct sha256 *c);
void sha256_update(struct sha256 *c, const void *data, size_t len);
void sha256_final(struct sha256 *c, unsigned char out[32]);

struct state_mac {
	struct sha256 inner, outer;
};
void state_mac_init(struct state_mac *m, const unsigned char *key, size_t klen);
void state_mac_update(struct state_mac *m, const void *data, size_t len);
void state_mac_final(struct state_mac *m, unsigned char out[32]);
/* The covered lines of a session file's text (the domain tag first). */
void state_mac_text(struct state_mac *m, const char *text, size_t len);

#define STATE_KEY_BYTES 32
/* The key's directory into buf; -1 when neither XDG_STATE_HOME nor HOME is set. */
int state_key_path(char *buf, size_t n);
/* This user's key; made when missing and create is set. -1 + *err when it
 * cannot be had (no home, a key file that is not private, ...). */
int state_key_get(unsigned char key[STATE_KEY_BYTES], bool create, char **err);

#endif
