/* state_mac.c: the keyed signature of a session's machine state; see state_mac.h. */
#include "state_mac.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/util.h"

/* ---- SHA-256 (FIPS 180-4) ----------------------------------------------------- */
static const uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(struct sha256 *c, const unsigned char *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4], f = c->h[5], g = c->h[6],
		 h = c->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
		uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = cc;
		cc = b;
		b = a;
		a = t1 + t2;
	}
	c->h[0] += a;
	c->h[1] += b;
	c->h[2] += cc;
	c->h[3] += d;
	c->h[4] += e;
	c->h[5] += f;
	c->h[6] += g;
	c->h[7] += h;
}

void sha256_init(struct sha256 *c)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, h0, sizeof h0);
	c->bytes = 0;
	c->n = 0;
}

void sha256_update(struct sha256 *c, const void *data, size_t len)
{
	const unsigned char *p = data;
	c->bytes += len;
	if (c->n) {
		size_t k = MIN(len, sizeof c->buf - c->n);
		memcpy(c->buf + c->n, p, k);
		c->n += k;
		p += k;
		len -= k;
		if (c->n < sizeof c->buf)
			return;
		sha256_block(c, c->buf);
		c->n = 0;
	}
	for (; len >= 64; p += 64, len -= 64)
		sha256_block(c, p);
	memcpy(c->buf, p, len);
	c->n = len;
}

void sha256_final(struct sha256 *c, unsigned char out[32])
{
	uint64_t bits = c->bytes * 8;
	unsigned char pad = 0x80;
	sha256_update(c, &pad, 1);
	pad = 0;
	while (c->n != 56)
		sha256_update(c, &pad, 1);
	unsigned char len[8];
	for (int i = 0; i < 8; i++)
		len[i] = (unsigned char)(bits >> (56 - 8 * i));
	sha256_update(c, len, 8);
	for (int i = 0; i < 8; i++)
		for (int k = 0; k < 4; k++)
			out[4 * i + k] = (unsigned char)(c->h[i] >> (24 - 8 * k));
}

/* ---- HMAC-SHA256 (RFC 2104) --------------------------------------------------- */
void state_mac_init(struct state_mac *m, const unsigned char *key, size_t klen)
{
	unsigned char k[64] = {0}, pad[64];
	if (klen > 64) {
		struct sha256 c;
		sha256_init(&c);
		sha256_update(&c, key, klen);
		sha256_final(&c, k);
	} else {
		memcpy(k, key, klen);
	}
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&m->inner);
	sha256_update(&m->inner, pad, 64);
	for (int i = 0; i < 64; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&m->outer);
	sha256_update(&m->outer, pad, 64);
}

void state_mac_update(struct state_mac *m, const void *data, size_t len) { sha256_update(&m->inner, data, len); }

void state_mac_final(struct state_mac *m, unsigned char out[32])
{
	unsigned char ih[32];
	sha256_final(&m->inner, ih);
	sha256_update(&m->outer, ih, 32);
	sha256_final(&m->outer, out);
}

/* ---- what the signature covers -------------------------------------------------- */
static bool skipped_line(const char *p, size_t n)
{
	return (n >= 11 && memcmp(p, "state-data ", 11) == 0) || (n >= 10 && memcmp(p, "state-mac ", 10) == 0) ||
	       (n >= 9 && memcmp(p, "checksum ", 9) == 0);
}

void state_mac_text(struct state_mac *m, const char *text, size_t len)
{
	static const char tag[] = "gpustep machine state, signed v1\n";
	state_mac_update(m, tag, sizeof tag - 1);
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - (text + i)) + 1 : len - i;
		if (!skipped_line(text + i, n))
			state_mac_update(m, text + i, n);
		i += n;
	}
	state_mac_update(m, "\n--\n", 4);
}

/* ---- this user's key: $XDG_STATE_HOME/gpustep/state.key ------------------------- */
int state_key_path(char *buf, size_t n)
{
	const char *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");
	if (x && *x)
		snprintf(buf, n, "%s/gpustep", x);
	else if (h && *h)
		snprintf(buf, n, "%s/.local/state/gpustep", h);
	else
		return -1;
	return 0;
}

static int mkdirs(char *p)
{
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			int bad = mkdir(p, 0700) && errno != EEXIST;
			*s = '/';
			if (bad)
				return -1;
		}
	return mkdir(p, 0700) && errno != EEXIST ? -1 : 0;
}

/* The key file as it must be: ours, regular, not readable by others, 32 bytes. */
static int read_key(const char *path, unsigned char key[STATE_KEY_BYTES], char **err)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return errno == ENOENT ? 1 : (set_err(err, "%s: %s", path, strerror(errno)), -1);
	struct stat st;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077) ||
	    st.st_size != STATE_KEY_BYTES) {
		close(fd);
		return set_err(err, "%s is not a private %d-byte key file of this user (remove it to make a new one)",
			       path, STATE_KEY_BYTES);
	}
	ssize_t got = read(fd, key, STATE_KEY_BYTES);
	close(fd);
	if (got != STATE_KEY_BYTES)
		return set_err(err, "%s: cannot read the key", path);
	return 0;
}

static int random_bytes(unsigned char *p, size_t n)
{
	int fd = open("/dev/urandom", O_RDONLY);
	if (fd < 0)
		return -1;
	size_t got = 0;
	while (got < n) {
		ssize_t r = read(fd, p + got, n - got);
		if (r <= 0) {
			close(fd);
			return -1;
		}
		got += (size_t)r;
	}
	close(fd);
	return 0;
}

int state_key_get(unsigned char key[STATE_KEY_BYTES], bool create, char **err)
{
	char dir[512], path[560], tmp[580];
	if (state_key_path(dir, sizeof dir))
		return set_err(err, "neither XDG_STATE_HOME nor HOME is set");
	snprintf(path, sizeof path, "%s/state.key", dir);
	int rc = read_key(path, key, err);
	if (rc <= 0 || !create)
		return rc < 0 ? -1 : rc ? set_err(err, "no key yet (%s)", path) : 0;
	/* Made whole under a temporary name, then linked into place: a second
	 * gpustep racing this one keeps whichever key got there first. */
	if (mkdirs(dir))
		return set_err(err, "%s: %s", dir, strerror(errno));
	snprintf(tmp, sizeof tmp, "%s/state.key.XXXXXX", dir);
	int fd = mkstemp(tmp);
	if (fd < 0)
		return set_err(err, "%s: %s", dir, strerror(errno));
	unsigned char fresh[STATE_KEY_BYTES];
	bool ok = fchmod(fd, 0600) == 0 && random_bytes(fresh, sizeof fresh) == 0 &&
		  write(fd, fresh, sizeof fresh) == (ssize_t)sizeof fresh;
	ok &= close(fd) == 0;
	if (ok && link(tmp, path) != 0 && errno != EEXIST)
		ok = false;
	unlink(tmp);
	memset(fresh, 0, sizeof fresh);
	if (!ok)
		return set_err(err, "%s: cannot make the key: %s", path, strerror(errno));
	return read_key(path, key, err) == 0 ? 0 : -1;
}
