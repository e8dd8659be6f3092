/* session_state.c: the machine state lines of a session file; see session_state.h. */
#include "session_state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session_wl.h"
#include "state_mac.h"
#include "debug/snapshot.h"

#define LINE_CHARS 4096 /* base64 characters per state-data line (a multiple of 4) */
/* The largest state a file can hold (session files stop at 256 MB). */
#define MAX_STATE ((size_t)192 << 20)

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int session_state_write(const struct sim *s, struct strbuf *sb, char **note, char **err)
{
	unsigned char *blob;
	size_t len;
	if (note)
		*note = NULL;
	if (sim_state_export(s, &blob, &len, err))
		return -1;
	sb_printf(sb, "state %zu fnv1a64 %016" PRIx64 "\n", len, session_fnv1a((const char *)blob, len));
	char line[LINE_CHARS + 1];
	size_t at = 0;
	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)blob[i] << 16;
		if (i + 1 < len)
			v |= (uint32_t)blob[i + 1] << 8;
		if (i + 2 < len)
			v |= blob[i + 2];
		line[at++] = b64[(v >> 18) & 63];
		line[at++] = b64[(v >> 12) & 63];
		line[at++] = i + 1 < len ? b64[(v >> 6) & 63] : '=';
		line[at++] = i + 2 < len ? b64[v & 63] : '=';
		if (at == LINE_CHARS || i + 3 >= len) {
			line[at] = 0;
			sb_printf(sb, "state-data %s\n", line);
			at = 0;
		}
	}
	/* The signature: the text so far (the state line included), then the state. */
	unsigned char key[STATE_KEY_BYTES], mac[32];
	char *ke = NULL;
	if (state_key_get(key, true, &ke) == 0) {
		struct state_mac m;
		state_mac_init(&m, key, sizeof key);
		state_mac_text(&m, sb->s, sb->len);
		state_mac_update(&m, blob, len);
		state_mac_final(&m, mac);
		memset(key, 0, sizeof key);
		sb_puts(sb, "state-mac hmac-sha256 ");
		for (int i = 0; i < 32; i++)
			sb_printf(sb, "%02x", mac[i]);
		sb_puts(sb, "\n");
	} else if (note) {
		*note = xasprintf("the machine state is saved unsigned (%s): opening the file will replay it",
				  ke ? ke : "no key");
	}
	free(ke);
	free(blob);
	return 0;
}

static bool is_data_line(const char *p, size_t n)
{
	return n >= 11 && memcmp(p, "state-data ", 11) == 0;
}

uint64_t session_checksum(const char *text, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* as session_fnv1a */
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) + 1 : len - i;
		if (!is_data_line(text + i, n))
			for (size_t k = i; k < i + n; k++)
				h = (h ^ (unsigned char)text[k]) * 0x100000001b3ull;
		i += n;
	}
	return h;
}

static int b64v(char c)
{
	const char *p = c ? strchr(b64, c) : NULL;
	return p ? (int)(p - b64) : -1;
}

static void mark_bad(struct session_state *st, const char *why)
{
	if (!st->bad)
		snprintf(st->why, sizeof st->why, "%s", why);
	st->bad = true;
}

int session_state_line(struct session_state *st, const char *key, const char *val)
{
	if (strcmp(key, "state") == 0) {
		unsigned long long n;
		char hex[24];
		int pos = 0;
		if (st->have || sscanf(val, "%llu fnv1a64 %16[0-9a-f]%n", &n, hex, &pos) != 2 || val[pos] ||
		    strlen(hex) != 16)
			return -1;
		st->have = true;
		st->hash = strtoull(hex, NULL, 16);
		if (n == 0 || n > MAX_STATE) {
			mark_bad(st, "its size is out of range");
			return 0;
		}
		st->len = (size_t)n; /* the buffer grows with the data actually there */
		return 0;
	}
	if (strcmp(key, "state-mac") == 0) {
		const char *h = "hmac-sha256 ";
		if (st->have_mac || strncmp(val, h, strlen(h)) != 0 || strlen(val) != strlen(h) + 64)
			return -1;
		val += strlen(h);
		for (int i = 0; i < 32; i++) {
			unsigned v;
			if (!strchr("0123456789abcdef", val[2 * i]) || !strchr("0123456789abcdef", val[2 * i + 1]) ||
			    sscanf(val + 2 * i, "%2x", &v) != 1)
				return -1;
			st->mac[i] = (unsigned char)v;
		}
		st->have_mac = true;
		return 0;
	}
	/* state-data */
	if (!st->have) {
		mark_bad(st, "data before the state line");
		return 0;
	}
	if (st->bad)
		return 0;
	size_t n = strlen(val);
	if (n % 4) {
		mark_bad(st, "a state-data line is cut (its length is not a multiple of 4)");
		return 0;
	}
	for (size_t i = 0; i < n; i += 4) {
		int a = b64v(val[i]), b = b64v(val[i + 1]), c = val[i + 2] == '=' ? 0 : b64v(val[i + 2]),
		    d = val[i + 3] == '=' ? 0 : b64v(val[i + 3]);
		if (a < 0 || b < 0 || c < 0 || d < 0) {
			mark_bad(st, "a state-data line holds a character that is not base64");
			return 0;
		}
		unsigned out = val[i + 2] == '=' ? 1 : val[i + 3] == '=' ? 2 : 3;
		uint32_t v = (uint32_t)a << 18 | (uint32_t)b << 12 | (uint32_t)c << 6 | (uint32_t)d;
		if (st->got + out > st->len) {
			mark_bad(st, "more data than its state line says");
			return 0;
		}
		unsigned char bytes[3] = {(unsigned char)(v >> 16), (unsigned char)(v >> 8),
		                          (unsigned char)v};
		if (st->got + out > st->cap) {
			st->cap = MIN(st->len, MAX(st->cap * 2, (size_t)1 << 16));
			st->buf = xrealloc(st->buf, st->cap);
		}
		memcpy(st->buf + st->got, bytes, out);
		st->got += out;
	}
	return 0;
}

const unsigned char *session_state_blob(struct session_state *st)
{
	if (!st->have || st->bad)
		return NULL;
	if (st->got != st->len) {
		snprintf(st->why, sizeof st->why, "%zu of its %zu bytes are there (lines missing)", st->got,
		         st->len);
		return NULL;
	}
	uint64_t h = session_fnv1a((const char *)st->buf, st->len);
	if (h != st->hash) {
		snprintf(st->why, sizeof st->why,
		         "its hash does not match (the state line says %016" PRIx64
		         ", the data gives %016" PRIx64 ")",
		         st->hash, h);
		return NULL;
	}
	return st->buf;
}

void session_state_prepare(struct session_state *st, const char *text, size_t len)
{
	unsigned char key[STATE_KEY_BYTES];
	char *e = NULL;
	st->mac_ready = false;
	if (state_key_get(key, false, &e)) {
		snprintf(st->mac_why, sizeof st->mac_why, "this user has no key to check its signature with (%s)",
			 e ? e : "?");
		free(e);
		return;
	}
	state_mac_init(&st->m, key, sizeof key);
	memset(key, 0, sizeof key);
	state_mac_text(&st->m, text, len);
	st->mac_ready = true;
}

int session_state_verify(struct session_state *st, char *why, size_t n)
{
	if (!st->have_mac) {
		snprintf(why, n, "it carries no signature (state-mac line): it was not saved by this user's gpustep");
		return -1;
	}
	if (!st->mac_ready) {
		snprintf(why, n, "%s", st->mac_why[0] ? st->mac_why : "its signature was not prepared");
		return -1;
	}
	unsigned char mac[32];
	struct state_mac m = st->m;
	state_mac_update(&m, st->buf, st->len);
	state_mac_final(&m, mac);
	unsigned diff = 0;
	for (int i = 0; i < 32; i++)
		diff |= (unsigned)(mac[i] ^ st->mac[i]);
	if (diff) {
		snprintf(why, n, "its signature does not verify with this user's key: saved by someone else, or edited");
		return -1;
	}
	return 0;
}

void session_state_fini(struct session_state *st)
{
	free(st->buf);
	memset(st, 0, sizeof *st);
}
