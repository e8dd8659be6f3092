/*
 * dram_ini.c: DRAMSim3 .ini configs -> dram.* (see dram_ini.h).
 *
 * Two passes: the text becomes a table of (section, key, value, line), each
 * marked when a rule reads it; then the rules below compute the gpustep
 * values the way DRAMSim3's Config and Timing classes derive theirs
 * (configuration.cc, timing.cc), and set them through cfg_set_value so the
 * usual ranges apply. What no rule read is reported in `notes`.
 *
 *   [dram_structure] protocol, bankgroups, banks_per_group, bankgroup_enable,
 *                    rows, columns, device_width, BL          -> organisation
 *   [timing]         tCK, AL, CL, CWL, tRCD(RD/WR), tRP, tRAS, ... -> dram.timing.*
 *   [system]         channels, channel_size, bus_width, address_mapping,
 *                    queue_structure, row_buf_policy, cmd_queue_size,
 *                    trans_queue_size, refresh_policy        -> controller, map
 */
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dram_ini.h"

#define INI_LINE_MAX 8192

struct kv {
	char sec[40], key[48];
	char *val;
	unsigned line;
	bool used;
};

struct ini {
	struct kv *kv;
	size_t n, cap;
	const char *fname;
	char **err;
	int failed;
	struct strbuf *notes; /* values read the lenient way DRAMSim3's inih reads them */
};

static void ini_free(struct ini *in)
{
	for (size_t i = 0; i < in->n; i++)
		free(in->kv[i].val);
	free(in->kv);
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
	return s;
}

#define INI_UNUSED_NAMED 20 /* unused keys named in the note; the rest counted */

static int ini_fail(struct ini *in, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int ini_fail(struct ini *in, unsigned line, const char *fmt, ...)
{
	if (in->failed)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char *m = xvasprintf(fmt, ap);
	va_end(ap);
	if (line)
		set_err(in->err, "%s:%u: %s", in->fname, line, m);
	else
		set_err(in->err, "%s: %s", in->fname, m);
	free(m);
	in->failed = 1;
	return -1;
}

static int ini_parse(struct ini *in, const char *text, size_t len)
{
	char sec[40] = "";
	unsigned line = 0;
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t l = nl ? (size_t)(nl - s) : (size_t)(end - s);
		line++;
		if (memchr(s, 0, l))
			return ini_fail(in, line, "NUL byte (not a text file)");
		if (l >= INI_LINE_MAX)
			return ini_fail(in, line, "line longer than %d characters", INI_LINE_MAX - 1);
		static_assert(INI_LINE_MAX <= 16384, "line buffer on the stack");
		char buf[INI_LINE_MAX];
		memcpy(buf, s, l);
		buf[l] = 0;
		s += l + (nl ? 1 : 0);
		char *p = trim(buf);
		if (!*p || *p == ';' || *p == '#')
			continue;
		if (*p == '[') {
			char *close = strchr(p, ']');
			if (!close || close == p + 1 || (size_t)(close - p - 1) >= sizeof sec)
				return ini_fail(in, line, "expected [section], got \"%.60s\"", p);
			snprintf(sec, sizeof sec, "%.*s", (int)(close - p - 1), p + 1);
			continue;
		}
		char *eq = strpbrk(p, "=:");
		if (!eq)
			return ini_fail(in, line, "expected KEY = VALUE or [section], got \"%.60s\"", p);
		*eq = 0;
		char *k = trim(p), *v = trim(eq + 1);
		char *c = strpbrk(v, ";#"); /* inline comment, as "tRPRE = 1; read preamble" */
		if (c) {
			*c = 0;
			v = trim(v);
		}
		if (!*k || strlen(k) >= sizeof in->kv[0].key)
			return ini_fail(in, line, "expected KEY = VALUE (a key under %zu characters), got \"%.60s\"",
					sizeof in->kv[0].key, k);
		if (!sec[0])
			return ini_fail(in, line, "key '%s' before any [section]", k);
		if (in->n == in->cap) {
			in->cap = in->cap ? 2 * in->cap : 64;
			in->kv = xrealloc(in->kv, in->cap * sizeof *in->kv);
		}
		struct kv *e = &in->kv[in->n++];
		memset(e, 0, sizeof *e);
		snprintf(e->sec, sizeof e->sec, "%s", sec);
		snprintf(e->key, sizeof e->key, "%s", k);
		e->val = xstrdup(v);
		e->line = line;
	}
	return 0;
}

/* The last occurrence wins (as inih); section and key are case-insensitive. */
static struct kv *find(struct ini *in, const char *sec, const char *key)
{
	struct kv *f = NULL;
	for (size_t i = 0; i < in->n; i++)
		if (!strcasecmp(in->kv[i].sec, sec) && !strcasecmp(in->kv[i].key, key)) {
			in->kv[i].used = true;
			f = &in->kv[i];
		}
	return f;
}

/* As inih (DRAMSim3's reader): a leading number counts, trailing text is
 * ignored and an empty value means the default; both get a note. */
static void lenient(struct ini *in, const struct kv *e, const char *what)
{
	if (in->notes)
		sb_printf(in->notes, "; line %u: [%s] %s = \"%.40s\" read as %s (as DRAMSim3 reads it)", e->line, e->sec,
			  e->key, e->val, what);
}

static long get_int(struct ini *in, const char *sec, const char *key, long def)
{
	struct kv *e = find(in, sec, key);
	if (!e)
		return def;
	char *end;
	long v = strtol(e->val, &end, 0);
	char what[32];
	if (!*e->val) {
		snprintf(what, sizeof what, "the default %ld", def);
		lenient(in, e, what);
		return def;
	}
	if (end == e->val || v < -1000000000L || v > 1000000000L) {
		ini_fail(in, e->line, "[%s] %s: expected an integer, got \"%s\"", sec, key, e->val);
		return def;
	}
	if (*end) {
		snprintf(what, sizeof what, "%ld", v);
		lenient(in, e, what);
	}
	return v;
}

static double get_real(struct ini *in, const char *sec, const char *key, double def)
{
	struct kv *e = find(in, sec, key);
	if (!e)
		return def;
	char *end;
	double v = strtod(e->val, &end);
	char what[32];
	if (!*e->val) {
		snprintf(what, sizeof what, "the default %g", def);
		lenient(in, e, what);
		return def;
	}
	if (end == e->val || !(v > 0 && v < 1e6)) {
		ini_fail(in, e->line, "[%s] %s: expected a positive number, got \"%s\"", sec, key, e->val);
		return def;
	}
	if (*end) {
		snprintf(what, sizeof what, "%g", v);
		lenient(in, e, what);
	}
	return v;
}

static const char *get_str(struct ini *in, const char *sec, const char *key, const char *def)
{
	struct kv *e = find(in, sec, key);
	return e ? e->val : def;
}

static bool get_bool(struct ini *in, const char *sec, const char *key, bool def)
{
	struct kv *e = find(in, sec, key);
	if (!e)
		return def;
	static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no", "off", "0"};
	for (size_t i = 0; i < 4; i++) {
		if (!strcasecmp(e->val, yes[i]))
			return true;
		if (!strcasecmp(e->val, no[i]))
			return false;
	}
	ini_fail(in, e->line, "[%s] %s: expected true or false, got \"%s\"", sec, key, e->val);
	return def;
}

static unsigned log2_exact(long v, bool *ok)
{
	unsigned b = 0;
	*ok = v > 0 && !(v & (v - 1));
	while (v > 1)
		v >>= 1, b++;
	return b;
}

/* a x b, or a failure naming what was multiplied (values reach 1e9 each:
 * products of several overflow a long). */
static long mul(struct ini *in, long a, long b, const char *what)
{
	long r;
	if (__builtin_mul_overflow(a, b, &r)) {
		ini_fail(in, 0, "%s: the product (%ld x %ld) is too large", what, a, b);
		return 0;
	}
	return r;
}

/* Set a dram.* value; a refusal names the key and the ini key it came from. */
static void put(struct ini *in, struct sim_cfg *cfg, const char *path, const char *from, long v)
{
	char text[32], *e = NULL;
	snprintf(text, sizeof text, "%ld", v);
	if (!in->failed && cfg_set_value(cfg, path, text, &e)) {
		ini_fail(in, 0, "%s (from %s): %s", path, from, e);
		free(e);
	}
}

static void put_s(struct ini *in, struct sim_cfg *cfg, const char *path, const char *text)
{
	char *e = NULL;
	if (!in->failed && cfg_set_value(cfg, path, text, &e)) {
		ini_fail(in, 0, "%s: %s", path, e);
		free(e);
	}
}

enum proto { P_DDR, P_GDDR5, P_GDDR5X, P_GDDR6, P_LPDDR4, P_HBM };

static int protocol(struct ini *in, const char **name)
{
	static const struct {
		const char *n;
		enum proto p;
	} t[] = {{"DDR3", P_DDR},      {"DDR4", P_DDR},     {"LPDDR", P_DDR},     {"LPDDR3", P_DDR},
		 {"LPDDR4", P_LPDDR4}, {"GDDR5", P_GDDR5},  {"GDDR5X", P_GDDR5X}, {"GDDR6", P_GDDR6},
		 {"HBM", P_HBM},       {"HBM2", P_HBM}};
	struct kv *e = find(in, "dram_structure", "protocol");
	*name = e ? e->val : "DDR3";
	for (size_t i = 0; i < ARRAY_LEN(t); i++)
		if (!strcmp(*name, t[i].n))
			return (int)t[i].p;
	return ini_fail(in, e ? e->line : 0,
			"[dram_structure] protocol: expected DDR3, DDR4, LPDDR, LPDDR3, LPDDR4, GDDR5, GDDR5X, GDDR6, HBM or HBM2 (HMC is not a gpustep DRAM), got \"%s\"",
			*name);
}

struct org {
	int proto;
	long bg, bpg, rows, cols, width, bl, burst_cycle, channels, bus_width, ranks;
};

static void organisation(struct ini *in, struct org *o)
{
	const char *pname;
	o->proto = protocol(in, &pname);
	o->bg = get_int(in, "dram_structure", "bankgroups", 2);
	o->bpg = get_int(in, "dram_structure", "banks_per_group", 2);
	if (!get_bool(in, "dram_structure", "bankgroup_enable", true)) {
		o->bpg = mul(in, o->bpg, o->bg, "[dram_structure] banks_per_group x bankgroups");
		o->bg = 1;
	}
	o->rows = get_int(in, "dram_structure", "rows", 1 << 16);
	o->cols = get_int(in, "dram_structure", "columns", 1 << 10);
	o->width = get_int(in, "dram_structure", "device_width", 8);
	o->bl = get_int(in, "dram_structure", "BL", 8);
	int div = o->proto == P_GDDR5 ? 4 : o->proto == P_GDDR5X ? 8 : o->proto == P_GDDR6 ? 16 : 2;
	if (o->bl < div || o->bl % div)
		ini_fail(in, 0, "[dram_structure] BL: %s moves %d beats per clock; expected a multiple of %d, got %ld", pname,
			 div, div, o->bl);
	o->burst_cycle = o->bl / div;
	if (o->cols < 1) { /* before it is scaled: the message names the key as written */
		ini_fail(in, 0, "[dram_structure] columns: expected at least 1, got %ld", o->cols);
		return;
	}
	if (o->proto == P_GDDR5 || o->proto == P_GDDR5X || o->proto == P_GDDR6)
		o->cols = mul(in, o->cols, o->bl, "[dram_structure] columns x BL");
	else if (o->proto == P_HBM)
		o->cols = mul(in, o->cols, 2, "[dram_structure] columns x 2 (HBM)");
	o->channels = get_int(in, "system", "channels", 1);
	o->bus_width = get_int(in, "system", "bus_width", 64);
	long channel_mb = get_int(in, "system", "channel_size", 1024);
	if (in->failed)
		return;
	if (o->width <= 0) {
		ini_fail(in, 0, "[dram_structure] device_width: expected at least 1, got %ld", o->width);
		return;
	}
	if (o->bus_width < 8 || o->bus_width % o->width) {
		ini_fail(in, 0, "[system] bus_width: must be at least 8 and a multiple of [dram_structure] device_width (%ld), got %ld",
			 o->width, o->bus_width);
		return;
	}
	if (o->rows < 1024) {
		ini_fail(in, 0, "[dram_structure] rows: expected at least 1024, got %ld", o->rows);
		return;
	}
	/* DRAMSim3's CalculateSize: ranks = channel_size / MB per rank */
	const char *what = "[dram_structure] rank size (columns x device_width / 8 x rows / 1M x bankgroups x "
			   "banks_per_group x bus_width / device_width)";
	long devices = o->bus_width / o->width, page = mul(in, o->cols, o->width, what) / 8;
	long mb_rank = mul(in, page, o->rows / 1024, what) / 1024;
	mb_rank = mul(in, mul(in, mul(in, mb_rank, o->bg, what), o->bpg, what), devices, what);
	if (in->failed)
		return;
	if (mb_rank <= 0) {
		ini_fail(in, 0, "[dram_structure]: a rank holds less than 1 MB (DRAMSim3 cannot size it either)");
		return;
	}
	o->ranks = mb_rank > channel_mb ? 1 : channel_mb / mb_rank;
}

/* "rochrababgco" (MSB first, 2-letter fields) -> "row:ch:rank:bank[..]:...:col[..]". */
static void mapping(struct ini *in, struct sim_cfg *cfg, const struct org *o, struct strbuf *notes)
{
	struct kv *e = find(in, "system", "address_mapping");
	const char *m = e ? e->val : "chrobabgraco";
	unsigned line = e ? e->line : 0;
	bool ok;
	unsigned w_ch = log2_exact(o->channels, &ok);
	bool all = ok;
	unsigned w_ra = log2_exact(o->ranks, &ok);
	all &= ok;
	unsigned w_bg = log2_exact(o->bg, &ok);
	all &= ok;
	unsigned w_ba = log2_exact(o->bpg, &ok);
	all &= ok;
	log2_exact(o->rows, &ok);
	all &= ok;
	unsigned w_bl = log2_exact(o->bl, &ok);
	all &= ok;
	unsigned w_co = log2_exact(o->cols, &ok);
	all &= ok;
	if (!all) {
		ini_fail(in, line, "DRAMSim3 maps addresses with bit fields: channels, ranks, bankgroups, banks_per_group, rows, columns and BL must be powers of two");
		return;
	}
	w_co -= w_bl;
	if (strlen(m) != 12) {
		ini_fail(in, line, "[system] address_mapping: expected 6 fields of 2 letters (ch ra bg ba ro co), got \"%s\"", m);
		return;
	}
	struct strbuf sb;
	sb_init(&sb);
	int seen = 0, pos_bg = -1, pos_ba = -1;
	for (int i = 0; i < 6; i++) {
		const char *f = m + 2 * i;
		const char *piece = NULL;
		char tmp[32];
		int bit = -1;
		if (!strncmp(f, "ro", 2)) {
			piece = "row", bit = 0;
		} else if (!strncmp(f, "ch", 2)) {
			piece = w_ch ? "ch" : "", bit = 1;
		} else if (!strncmp(f, "ra", 2)) {
			piece = w_ra ? "rank" : "", bit = 2;
		} else if (!strncmp(f, "bg", 2)) {
			snprintf(tmp, sizeof tmp, "bank[%u]", w_bg);
			piece = w_bg ? tmp : "", bit = 3, pos_bg = i;
		} else if (!strncmp(f, "ba", 2)) {
			snprintf(tmp, sizeof tmp, "bank[%u]", w_ba);
			piece = w_ba ? (w_bg ? tmp : "bank") : "", bit = 4, pos_ba = i;
		} else if (!strncmp(f, "co", 2)) {
			snprintf(tmp, sizeof tmp, "col[%u]", w_co);
			/* lowest, or no burst bits: one piece holds every column bit */
			piece = i == 5 || !w_bl ? (w_co || i == 5 ? "col" : "") : w_co ? tmp : "", bit = 5;
		}
		if (bit < 0 || (seen & (1 << bit))) {
			sb_fini(&sb);
			ini_fail(in, line, "[system] address_mapping: field %d \"%.2s\" of \"%s\" is unknown or repeated (ch ra bg ba ro co, each once)",
				 i + 1, f, m);
			return;
		}
		seen |= 1 << bit;
		if (*piece)
			sb_printf(&sb, "%s%s", sb.len ? ":" : "", piece);
	}
	if (strncmp(m + 10, "co", 2) && w_bl) /* the burst's own column bits, below every field */
		sb_printf(&sb, w_co ? ":col[%u]" : ":col", w_bl);
	if (w_bg && w_ba && pos_bg < pos_ba && notes)
		sb_printf(notes, "; [system] address_mapping: bank-group bits above the bank bits (gpustep's bank group is bank %% bank_groups: tCCD_L/tRRD_L/tWTR_L pair other banks than in DRAMSim3)");
	put_s(in, cfg, "dram.mapping", sb.s);
	sb_fini(&sb);
}

static void timing(struct ini *in, struct sim_cfg *cfg, const struct org *o)
{
	long AL = get_int(in, "timing", "AL", 0), CL = get_int(in, "timing", "CL", 12),
	     CWL = get_int(in, "timing", "CWL", 12);
	long ccdl = get_int(in, "timing", "tCCD_L", 6), ccds = get_int(in, "timing", "tCCD_S", 4);
	long rtrs = get_int(in, "timing", "tRTRS", 2), rtp = get_int(in, "timing", "tRTP", 5);
	long wtrl = get_int(in, "timing", "tWTR_L", 5), wtrs = get_int(in, "timing", "tWTR_S", 5);
	long wr = get_int(in, "timing", "tWR", 10), rp = get_int(in, "timing", "tRP", 10);
	long rrdl = get_int(in, "timing", "tRRD_L", 4), rrds = get_int(in, "timing", "tRRD_S", 4);
	long ras = get_int(in, "timing", "tRAS", 24), rcd = get_int(in, "timing", "tRCD", 10);
	long rfc = get_int(in, "timing", "tRFC", 74), refi = get_int(in, "timing", "tREFI", 7800);
	long rfcb = get_int(in, "timing", "tRFCb", 20), refib = get_int(in, "timing", "tREFIb", 1950);
	long faw = get_int(in, "timing", "tFAW", 50), ppd = get_int(in, "timing", "tPPD", 0);
	long aw32 = get_int(in, "timing", "t32AW", 330);
	long rcdrd = get_int(in, "timing", "tRCDRD", 24), rcdwr = get_int(in, "timing", "tRCDWR", 20);
	double tck = get_real(in, "timing", "tCK", 1.0);
	bool gddr = o->proto == P_GDDR5 || o->proto == P_GDDR5X || o->proto == P_GDDR6;
	if (o->bg == 1) /* DRAMSim3 Timing: without bank groups the _S values apply */
		ccdl = ccds, wtrl = wtrs, rrdl = rrds;
	put(in, cfg, "dram.tck_ps", "[timing] tCK", (long)(tck * 1000.0 + 0.5));
	put(in, cfg, "dram.timing.tCL", "[timing] AL + CL", AL + CL);
	put(in, cfg, "dram.timing.tCWL", "[timing] AL + CWL", AL + CWL);
	if (gddr || o->proto == P_HBM) {
		put(in, cfg, "dram.timing.tRCD", "[timing] tRCDRD", rcdrd);
		put(in, cfg, "dram.timing.tRCDWR", "[timing] tRCDWR", rcdwr);
	} else {
		put(in, cfg, "dram.timing.tRCD", "[timing] tRCD - AL", rcd - AL);
		put(in, cfg, "dram.timing.tRCDWR", "[timing] tRCD", 0);
	}
	put(in, cfg, "dram.timing.tRP", "[timing] tRP", rp);
	put(in, cfg, "dram.timing.tRAS", "[timing] tRAS", ras);
	put(in, cfg, "dram.timing.tRC", "[timing] tRAS + tRP", ras + rp);
	put(in, cfg, "dram.timing.tRRD", "[timing] tRRD_S", rrds);
	put(in, cfg, "dram.timing.tRRD_L", "[timing] tRRD_L", rrdl);
	put(in, cfg, "dram.timing.tCCD", "[timing] tCCD_S", ccds);
	put(in, cfg, "dram.timing.tCCD_L", "[timing] tCCD_L", ccdl);
	put(in, cfg, "dram.timing.tWTR", "[timing] tWTR_S", wtrs);
	put(in, cfg, "dram.timing.tWTR_L", "[timing] tWTR_L", wtrl);
	put(in, cfg, "dram.timing.tWR", "[timing] tWR", wr);
	put(in, cfg, "dram.timing.tRTP", "[timing] AL + tRTP", AL + rtp);
	put(in, cfg, "dram.timing.tRTRS", "[timing] tRTRS", rtrs);
	/* DRAMSim3 read_to_write: RL + burst - WL + tRTRS, command to command */
	put(in, cfg, "dram.timing.tRTW", "[timing] CL + BL cycles - CWL + tRTRS", CL + o->burst_cycle - CWL + rtrs);
	put(in, cfg, "dram.timing.tFAW", "[timing] tFAW", faw);
	put(in, cfg, "dram.timing.t32AW", "[timing] t32AW (GDDR only)", gddr ? aw32 : 0);
	put(in, cfg, "dram.timing.tPPD", "[timing] tPPD (GDDR and LPDDR4 only)", gddr || o->proto == P_LPDDR4 ? ppd : 0);
	put(in, cfg, "dram.timing.tRFC", "[timing] tRFC", rfc);
	put(in, cfg, "dram.timing.tRFCpb", "[timing] tRFCb", rfcb);
	const char *pol = get_str(in, "system", "refresh_policy", "RANK_LEVEL_STAGGERED");
	if (!strcmp(pol, "BANK_LEVEL_STAGGERED")) {
		put_s(in, cfg, "dram.refresh", "per_bank");
		put(in, cfg, "dram.timing.tREFI", "[timing] tREFIb x banks",
		    mul(in, mul(in, mul(in, refib, o->bg, "[timing] tREFIb x banks"), o->bpg, "[timing] tREFIb x banks"),
			o->ranks, "[timing] tREFIb x banks"));
	} else if (!strcmp(pol, "RANK_LEVEL_STAGGERED") || !strcmp(pol, "RANK_LEVEL_SIMULTANEOUS")) {
		put_s(in, cfg, "dram.refresh", "all_bank");
		put(in, cfg, "dram.timing.tREFI", "[timing] tREFI", refi);
	} else {
		ini_fail(in, 0, "[system] refresh_policy: expected RANK_LEVEL_SIMULTANEOUS, RANK_LEVEL_STAGGERED or BANK_LEVEL_STAGGERED, got \"%s\"",
			 pol);
	}
}

static void controller(struct ini *in, struct sim_cfg *cfg, struct strbuf *notes)
{
	const char *qs = get_str(in, "system", "queue_structure", "PER_BANK");
	if (strcmp(qs, "PER_BANK") && strcmp(qs, "PER_RANK"))
		ini_fail(in, 0, "[system] queue_structure: expected PER_BANK or PER_RANK, got \"%s\"", qs);
	put_s(in, cfg, "dram.queue_model", strcmp(qs, "PER_RANK") ? "per_bank" : "per_rank");
	put(in, cfg, "dram.cmd_queue", "[system] cmd_queue_size", get_int(in, "system", "cmd_queue_size", 16));
	const char *rb = get_str(in, "system", "row_buf_policy", "OPEN_PAGE");
	if (!strcmp(rb, "OPEN_PAGE"))
		put_s(in, cfg, "dram.page_policy", "open");
	else if (!strcmp(rb, "CLOSE_PAGE"))
		put_s(in, cfg, "dram.page_policy", "closed");
	else
		ini_fail(in, 0, "[system] row_buf_policy: expected OPEN_PAGE or CLOSE_PAGE, got \"%s\"", rb);
	long tq = get_int(in, "system", "trans_queue_size", 32);
	put(in, cfg, "dram.read_queue", "[system] trans_queue_size", tq);
	put(in, cfg, "dram.write_queue", "[system] trans_queue_size", tq);
	/* DRAMSim3 drains when the write buffer is full, or holds more than 8
	 * writes while the command queues are empty */
	put(in, cfg, "dram.write_low", "DRAMSim3's fixed 8 writes", tq > 8 ? 8 : tq - 1);
	put(in, cfg, "dram.write_high", "[system] trans_queue_size", tq);
	put_s(in, cfg, "dram.write_drain", "full_or_idle");
	put_s(in, cfg, "dram.scheduler", "frfcfs");
	put(in, cfg, "dram.row_hit_cap", "DRAMSim3's fixed cap of 4 row hits", 4);
	if (get_bool(in, "system", "unified_queue", false) && notes)
		sb_printf(notes, "; [system] unified_queue = true is not modelled (separate read and write queues)");
	put_s(in, cfg, "dram.trace_cycles", "dram");
	put_s(in, cfg, "dram.bank_xor", "false");
	put_s(in, cfg, "dram.page_colour", "false");
}

int dram_ini_apply(struct sim_cfg *cfg, const char *text, size_t len, const char *fname, struct strbuf *notes,
		   char **err)
{
	struct ini in = {.fname = fname, .err = err, .notes = notes};
	struct sim_cfg c = *cfg;
	if (ini_parse(&in, text, len)) {
		ini_free(&in);
		return -1;
	}
	struct org o;
	memset(&o, 0, sizeof o);
	organisation(&in, &o);
	if (!in.failed) {
		put(&in, &c, "dram.channels", "[system] channels", o.channels);
		put(&in, &c, "dram.ranks", "[system] channel_size / MB per rank", o.ranks);
		put(&in, &c, "dram.bank_groups", "[dram_structure] bankgroups", o.bg);
		put(&in, &c, "dram.banks", "bankgroups x banks_per_group", mul(&in, o.bg, o.bpg, "[dram_structure] bankgroups x banks_per_group"));
		put(&in, &c, "dram.rows", "[dram_structure] rows", o.rows);
		put(&in, &c, "dram.columns", "[dram_structure] columns (x BL for GDDR, x 2 for HBM)", o.cols);
		put(&in, &c, "dram.bus_bytes", "[system] bus_width / 8", o.bus_width / 8);
		put(&in, &c, "dram.burst", "[dram_structure] BL", o.bl);
		put(&in, &c, "dram.data_rate", "BL / DRAMSim3's burst cycles", o.bl / (o.burst_cycle ? o.burst_cycle : 1));
		timing(&in, &c, &o);
		controller(&in, &c, notes);
		mapping(&in, &c, &o, notes);
		/* DRAMSim3: hbm_dual_cmd (default true) applies to HBM only */
		put_s(&in, &c, "dram.dual_cmd",
		      o.proto == P_HBM && get_bool(&in, "dram_structure", "hbm_dual_cmd", true) ? "true" : "false");
		if (o.ranks > 1 && notes &&
		    !strcmp(get_str(&in, "system", "refresh_policy", "RANK_LEVEL_STAGGERED"), "RANK_LEVEL_STAGGERED"))
			sb_printf(notes, "; refresh_policy RANK_LEVEL_STAGGERED: gpustep refreshes the ranks together");
	}
	if (in.failed) {
		ini_free(&in);
		return -1;
	}
	if (notes) { /* named up to INI_UNUSED_NAMED, then counted: a file of 2M stray keys gives one short line */
		size_t unused = 0;
		for (size_t i = 0; i < in.n; i++) {
			if (in.kv[i].used)
				continue;
			if (unused < INI_UNUSED_NAMED)
				sb_printf(notes, "%s[%s] %s", unused ? ", " : "; keys gpustep does not use (not modelled, or not read by DRAMSim3 either): ",
					  in.kv[i].sec, in.kv[i].key);
			unused++;
		}
		if (unused > INI_UNUSED_NAMED)
			sb_printf(notes, " and %zu more", unused - INI_UNUSED_NAMED);
	}
	ini_free(&in);
	*cfg = c;
	return 0;
}
