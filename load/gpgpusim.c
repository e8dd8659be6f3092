/*
 * gpgpusim.c: GPGPU-Sim / Accel-Sim configs -> sim_cfg (see gpgpusim.h).
 *
 * Three steps, as dram_ini.c does for DRAMSim3:
 *   1. read: every file becomes entries (option, value, file, line) in the
 *      order GPGPU-Sim reads them: the config (and any -config it names),
 *      then trace.config beside it; a later value of an option overrides an
 *      earlier one, which is listed as overridden. Unknown names fail here.
 *   2. map: each entry's handler parses its value field by field and sets
 *      gpustep keys through cfg_set_value (so the usual ranges apply),
 *      recording "key=value" on the entry; handlers read the other options
 *      they need (clocks, bus width) with gs_get, GPGPU-Sim's default when
 *      absent. -inter_config_file reads the booksim .icnt file.
 *   3. report: the entries, in file order, are the mapping --check-config
 *      prints; notes get a one-line summary.
 *
 * Units: gpustep counts core cycles everywhere except dram.timing.* (DRAM
 * command cycles, dram.tck_ps). GPGPU-Sim's L1, ROP and shared-memory
 * latencies count core cycles, its DRAM timing string DRAM cycles, so
 * both carry over unchanged; -gpgpu_clock_domains gives core.clock_mhz
 * and dram.tck_ps.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gpgpusim.h"
#include "loader.h"

#define GS_MAX_FILES 8
#define GS_MAX_ENTRIES 4096

struct gs_ent {
	const char *name, *val; /* owned (freed through a cast) by entries in struct gs */
	const char *file;
	unsigned line;
	const struct gs_opt *opt;
	int overridden_by; /* index of the later entry of the same option, or -1 */
	struct strbuf out; /* "key=value ..." set by the handler */
	struct strbuf why; /* not modelled (parts) */
};

struct gs {
	struct sim_cfg *cfg;
	struct gs_ent *e;
	size_t n, cap;
	char *files[GS_MAX_FILES];
	int nfiles;
	struct strbuf notes;
	struct strbuf *keys; /* gpgpusim_apply_keys: every key set, one per line */
	char **err;
	int failed;
	bool op_units; /* core.op_model = units set (and listed) by an earlier line */
};

/* ---- errors and small helpers ---------------------------------------- */
static int gs_fail(struct gs *g, const struct gs_ent *e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int gs_fail(struct gs *g, const struct gs_ent *e, const char *fmt, ...)
{
	if (g->failed)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	char *m = xvasprintf(fmt, ap);
	va_end(ap);
	set_err(g->err, "%s:%u: %s %s: %s", e->file, e->line, e->name, e->val, m);
	free(m);
	g->failed = 1;
	return -1;
}

/* The closest of n names (stride bytes apart, a const char * first), if
 * within about a third of the word's letters; else NULL. */
static const char *closest(const char *word, const void *base, size_t n, size_t stride)
{
	const char *best = NULL;
	unsigned bd = 999;
	for (size_t i = 0; i < n; i++) {
		const char *c = *(const char *const *)((const char *)base + i * stride);
		unsigned d = str_edit_distance(word, c);
		const char *core = word + (word[0] == '-');
		if (strlen(core) > 4 && strstr(c, core) && d > 2)
			d = 2; /* "-smem_latency" is part of "-gpgpu_smem_latency" */
		if (d < bd) {
			bd = d;
			best = c;
		}
	}
	return bd <= (strlen(word) + 2) / 3 ? best : NULL;
}

static const struct gs_opt *gs_find(const char *name)
{
	for (size_t i = 0; i < gs_nopts; i++)
		if (strcmp(gs_opts[i].name, name) == 0)
			return &gs_opts[i];
	return NULL;
}

/* The value in force of an option (the last one read), or NULL. */
static const char *gs_get(const struct gs *g, const char *name)
{
	for (size_t i = g->n; i-- > 0;)
		if (strcmp(g->e[i].name, name) == 0)
			return g->e[i].val;
	return NULL;
}

/* Set a gpustep key from a formatted value; record it on the entry. */
static int gs_set(struct gs *g, struct gs_ent *e, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int gs_set(struct gs *g, struct gs_ent *e, const char *key, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *v = xvasprintf(fmt, ap);
	va_end(ap);
	char *err = NULL;
	int rc = cfg_set_value(g->cfg, key, v, &err);
	if (rc)
		gs_fail(g, e, "%s", err);
	else {
		sb_printf(&e->out, "%s%s=%s", e->out.len ? " " : "", key, v);
		if (g->keys)
			sb_printf(g->keys, "%s\n", key);
	}
	free(err);
	free(v);
	return rc;
}

static void gs_why(struct gs_ent *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void gs_why(struct gs_ent *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *m = xvasprintf(fmt, ap);
	va_end(ap);
	sb_printf(&e->why, "%s%s", e->why.len ? "; " : "", m);
	free(m);
}

/* An unsigned decimal (or 0x hex) that is all of s; field names it in errors. */
static int gs_uint(struct gs *g, struct gs_ent *e, const char *s, const char *field, unsigned long *out)
{
	while (isspace((unsigned char)*s))
		s++;
	char *end;
	if (!isdigit((unsigned char)*s))
		return gs_fail(g, e, "%s: expected a whole number, got '%s'", field, s);
	unsigned long v = strtoul(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || v > 0xffffffffUL)
		return gs_fail(g, e, "%s: expected a whole number, got '%s'", field, s);
	*out = v;
	return 0;
}

/* An option's own value as a whole number (defaults to dflt when absent). */
static int gs_uint_opt(struct gs *g, struct gs_ent *e, const char *name, unsigned long dflt,
                       unsigned long *out)
{
	const char *v = gs_get(g, name);
	if (!v) {
		*out = dflt;
		return 0;
	}
	return gs_uint(g, e, v, name, out);
}

/* Split s at any of seps into at most max fields (copied into buf). */
static int split(char *buf, size_t bufn, const char *s, const char *seps, char **f, int max)
{
	if (buf != s)
		snprintf(buf, bufn, "%s", s);
	int n = 0;
	char *p = buf;
	for (;;) {
		if (n == max)
			return max + 1;
		f[n++] = p;
		p += strcspn(p, seps);
		if (!*p)
			return n;
		*p++ = 0;
	}
}

/* ---- packed values ---------------------------------------------------- */
/* GPGPU-Sim's cache string: TYPE:SETS:LINE:ASSOC,REPL:WRITE:ALLOC:WALLOC:INDEX,
 * MSHR:ENTRIES:MERGE[,MISSQ[:FIFO]][,PORT] or "none". */
struct gs_cache {
	bool none, sector;
	unsigned long sets, line, assoc, mshr_entries, mshr_merge, miss_queue, fifo, port;
	char repl, write, alloc, walloc, index, mshr;
	bool has_mq;
};

static int parse_letter(struct gs *g, struct gs_ent *e, const char *s, const char *field, const char *allowed,
                        char *out)
{
	if (strlen(s) != 1 || !strchr(allowed, s[0]))
		return gs_fail(g, e, "cache field '%s': expected one of %s, got '%s'", field, allowed, s);
	*out = s[0];
	return 0;
}

static int parse_cache(struct gs *g, struct gs_ent *e, struct gs_cache *c)
{
	memset(c, 0, sizeof *c);
	if (strcmp(e->val, "none") == 0) {
		c->none = true;
		return 0;
	}
	char buf[512], *grp[6];
	int ng = split(buf, sizeof buf, e->val, ",", grp, 5);
	if (ng < 3 || ng > 5)
		return gs_fail(
		    g, e,
		    "expected TYPE:SETS:LINE:ASSOC,REPL:WRITE:ALLOC:WALLOC:INDEX,MSHR:ENTRIES:MERGE"
		    "[,MISSQ[:FIFO]][,PORT] (or none): %d comma-separated groups",
		    ng);
	char *f[8];
	if (split(grp[0], strlen(grp[0]) + 1, grp[0], ":", f, 4) != 4)
		return gs_fail(g, e, "first group '%s': expected TYPE:SETS:LINE:ASSOC", grp[0]);
	char t = 0;
	if (parse_letter(g, e, f[0], "type", "NS", &t) ||
	    gs_uint(g, e, f[1], "cache field 'sets'", &c->sets) ||
	    gs_uint(g, e, f[2], "cache field 'line'", &c->line) ||
	    gs_uint(g, e, f[3], "cache field 'assoc'", &c->assoc))
		return -1;
	c->sector = t == 'S';
	if (!c->sets || !c->line || !c->assoc)
		return gs_fail(g, e, "cache fields 'sets', 'line' and 'assoc' must be at least 1");
	if (c->sector && c->line != 128)
		return gs_fail(g, e,
		               "cache field 'line': a sectored cache (S) has 128-byte lines of four 32-byte "
		               "sectors, got %lu",
		               c->line);
	if (split(grp[1], strlen(grp[1]) + 1, grp[1], ":", f, 5) != 5)
		return gs_fail(g, e, "second group '%s': expected REPL:WRITE:ALLOC:WALLOC:INDEX", grp[1]);
	if (parse_letter(g, e, f[0], "replacement", "LF", &c->repl) ||
	    parse_letter(g, e, f[1], "write policy", "RBTEL", &c->write) ||
	    parse_letter(g, e, f[2], "allocation", "mfs", &c->alloc) ||
	    parse_letter(g, e, f[3], "write allocation", "NWFL", &c->walloc) ||
	    parse_letter(g, e, f[4], "set index", "HPCLX", &c->index))
		return -1;
	int nm = split(grp[2], strlen(grp[2]) + 1, grp[2], ":", f, 3);
	if (nm != 3)
		return gs_fail(g, e, "third group '%s': expected MSHR:ENTRIES:MERGE", grp[2]);
	if (parse_letter(g, e, f[0], "MSHR type", "FTAS", &c->mshr) ||
	    gs_uint(g, e, f[1], "cache field 'MSHR entries'", &c->mshr_entries) ||
	    gs_uint(g, e, f[2], "cache field 'MSHR merge'", &c->mshr_merge))
		return -1;
	if (ng >= 4) {
		int nq = split(grp[3], strlen(grp[3]) + 1, grp[3], ":", f, 2);
		if (nq > 2 || gs_uint(g, e, f[0], "cache field 'miss queue'", &c->miss_queue) ||
		    (nq == 2 && gs_uint(g, e, f[1], "cache field 'result FIFO'", &c->fifo)))
			return g->failed ? -1
			                 : gs_fail(g, e, "fourth group '%s': expected MISSQ[:FIFO]", grp[3]);
		c->has_mq = true;
		if ((c->mshr == 'F' || c->mshr == 'T') && nq != 2)
			return gs_fail(
			    g, e, "cache field 'result FIFO': MSHR type %c (texture FIFO) needs MISSQ:FIFO",
			    c->mshr);
	} else if (c->mshr == 'F' || c->mshr == 'T') {
		return gs_fail(
		    g, e, "cache field 'result FIFO': MSHR type %c (texture FIFO) needs MISSQ:FIFO", c->mshr);
	}
	if (ng == 5 && gs_uint(g, e, grp[4], "cache field 'data port width'", &c->port))
		return -1;
	if (c->port && c->line % c->port)
		return gs_fail(g, e, "cache field 'data port width': %lu does not divide the line (%lu)",
		               c->port, c->line);
	if ((c->alloc == 'f' || c->alloc == 's') && c->write == 'B')
		return gs_fail(
		    g, e, "cache field 'allocation': a write-back cache (B) cannot allocate on fill (%c)",
		    c->alloc);
	return 0;
}

static const char *index_name(char c)
{
	return c == 'H' ? "fermi_hash" : c == 'P' ? "ipoly" : c == 'L' ? "linear" : NULL;
}

static int map_cache_l1(struct gs *g, struct gs_ent *e)
{
	struct gs_cache c;
	if (parse_cache(g, e, &c))
		return -1;
	if (c.none)
		return gs_set(g, e, "l1.enabled", "false");
	if (c.assoc > 256 && c.sets * c.assoc % 256 == 0 && c.sets * c.assoc / 256 <= 65536) {
		gs_why(
		    e,
		    "%lu sets x %lu ways: gpustep has at most 256 ways, so %lu sets x 256 ways (same size)",
		    c.sets, c.assoc, c.sets * c.assoc / 256);
		c.sets = c.sets * c.assoc / 256;
		c.assoc = 256;
	}
	if (gs_set(g, e, "l1.enabled", "true") || gs_set(g, e, "l1.sets", "%lu", c.sets) ||
	    gs_set(g, e, "l1.line", "%lu", c.line) || gs_set(g, e, "l1.ways", "%lu", c.assoc) ||
	    gs_set(g, e, "l1.sector", "%d", c.sector ? 32 : 0) ||
	    gs_set(g, e, "l1.repl", "%s", c.repl == 'L' ? "lru" : "fifo"))
		return -1;
	const char *wp = c.write == 'B' ? "write_back" : c.write == 'T' ? "write_through" : "write_evict";
	if (c.write == 'R')
		gs_why(e, "read-only L1 (R): stores use write_evict");
	else if (c.write == 'L')
		gs_why(e, "local write-back (L): local and global stores both write_evict");
	if (gs_set(g, e, "l1.write_policy", "%s", wp) ||
	    gs_set(g, e, "l1.streaming", "%s", c.alloc == 'm' ? "false" : "true"))
		return -1;
	if ((c.walloc != 'N') != (c.write == 'B'))
		gs_why(e, "write allocation %c: follows l1.write_policy=%s", c.walloc, wp);
	if (index_name(c.index)) {
		if (gs_set(g, e, "l1.index", "%s", index_name(c.index)))
			return -1;
	} else {
		gs_why(e, "set index %c: l1.index unchanged", c.index);
	}
	if (gs_set(g, e, "l1.mshr.entries", "%lu", c.mshr_entries) ||
	    gs_set(g, e, "l1.mshr.merges", "%lu", c.mshr_merge))
		return -1;
	if (c.has_mq && c.miss_queue && gs_set(g, e, "l1.miss_queue", "%lu", c.miss_queue))
		return -1;
	if (c.port)
		gs_why(e, "data port width %lu: the L1 serves l1.ports lookups per cycle", c.port);
	return 0;
}

/* -gpgpu_cache:il1: GPGPU-Sim's read-only L1I (shader.cc fetch()). */
static int map_cache_l1i(struct gs *g, struct gs_ent *e)
{
	struct gs_cache c;
	if (parse_cache(g, e, &c))
		return -1;
	if (c.none)
		return gs_set(g, e, "l1i.enabled", "false");
	if (c.assoc > 256 && c.sets * c.assoc % 256 == 0 && c.sets * c.assoc / 256 <= 65536) {
		gs_why(e, "%lu sets x %lu ways: gpustep has at most 256 ways, so %lu sets x 256 ways (same size)", c.sets,
		       c.assoc, c.sets * c.assoc / 256);
		c.sets = c.sets * c.assoc / 256;
		c.assoc = 256;
	}
	if (gs_set(g, e, "l1i.enabled", "true") || gs_set(g, e, "l1i.sets", "%lu", c.sets) ||
	    gs_set(g, e, "l1i.ways", "%lu", c.assoc) || gs_set(g, e, "l1i.mshr.entries", "%lu", c.mshr_entries) ||
	    gs_set(g, e, "l1i.mshr.merges", "%lu", c.mshr_merge))
		return -1;
	gs_why(e, "line %lu B: L1I lines are l1.line bytes (the L2's line); LRU, allocated on fill%s%s", c.line,
	       c.repl == 'L' ? "" : " (replacement is LRU whatever the string says)",
	       c.has_mq ? "; its misses share the L1's miss queue (l1.miss_queue)" : "");
	return 0;
}

static int map_cache_l2(struct gs *g, struct gs_ent *e)
{
	struct gs_cache c;
	if (parse_cache(g, e, &c))
		return -1;
	if (c.none) {
		gs_why(e, "gpustep always has an L2");
		return 0;
	}
	if (gs_set(g, e, "l2.sets", "%lu", c.sets) || gs_set(g, e, "l2.line", "%lu", c.line) ||
	    gs_set(g, e, "l2.ways", "%lu", c.assoc) || gs_set(g, e, "l2.sector", "%d", c.sector ? 32 : 0) ||
	    gs_set(g, e, "l2.sector_mem", "%s", c.sector ? "true" : "false") ||
	    gs_set(g, e, "l2.repl", "%s", c.repl == 'L' ? "lru" : "fifo"))
		return -1;
	if (c.write != 'B')
		gs_why(e, "write policy %c: the L2 is write-back", c.write);
	if (c.alloc != 'm')
		gs_why(e, "allocation %c: the L2 allocates on miss", c.alloc);
	if (c.walloc == 'F' || c.walloc == 'W') {
		if (gs_set(g, e, "l2.write_fetch", "fetch_on_write"))
			return -1;
		if (c.walloc == 'W')
			gs_why(e, "write allocation W (write and fetch): as fetch_on_write");
	} else if (c.walloc == 'L') {
		if (gs_set(g, e, "l2.write_fetch", "lazy_fetch"))
			return -1;
	} else {
		gs_why(e, "write allocation N: the L2 allocates on writes (l2.write_fetch unchanged)");
	}
	if (index_name(c.index)) {
		if (gs_set(g, e, "l2.index", "%s", index_name(c.index)))
			return -1;
	} else {
		gs_why(e, "set index %c: l2.index unchanged", c.index);
	}
	if (gs_set(g, e, "l2.mshr.entries", "%lu", c.mshr_entries) ||
	    gs_set(g, e, "l2.mshr.merges", "%lu", c.mshr_merge))
		return -1;
	unsigned long atom = c.sector ? 32 : c.line, port = c.port ? c.port : c.line;
	if (gs_set(g, e, "l2.fill_port_cycles", "%lu", atom > port ? atom / port : 1))
		return -1;
	if (c.has_mq)
		gs_why(e, "miss queue %lu: misses wait in the bank's MSHRs and the DRAM queue", c.miss_queue);
	/* What GPGPU-Sim's L2 does where gpustep's defaults follow the FRC
	 * thesis: it keeps no record of the L1s holding a line and never
	 * invalidates their copies (l2cache.cc, gpu-cache.cc: no message goes
	 * from the L2 to an L1 but a reply), and a miss with a dirty victim
	 * sends its fetch and the write-back to the miss queue together, the
	 * fetch never waiting for the write-back (data_cache::rd_miss_base). */
	if (gs_set(g, e, "l2.sharers", "off") || gs_set(g, e, "l2.evict_order", "overlap"))
		return -1;
	return 0;
}

/* -gpgpu_clock_domains CORE:ICNT:L2:DRAM (MHz). */
static int map_clocks(struct gs *g, struct gs_ent *e)
{
	static const char *const names[4] = {"core", "icnt", "L2", "DRAM"};
	char buf[256], *f[5];
	if (split(buf, sizeof buf, e->val, ":", f, 4) != 4)
		return gs_fail(g, e, "expected CORE:ICNT:L2:DRAM clocks in MHz");
	double mhz[4];
	for (int i = 0; i < 4; i++) {
		char *end;
		mhz[i] = strtod(f[i], &end);
		if (end == f[i] || *end || !(mhz[i] >= 1 && mhz[i] <= 100000))
			return gs_fail(g, e, "field '%s': expected a clock in MHz, got '%s'", names[i], f[i]);
	}
	if (gs_set(g, e, "core.clock_mhz", "%.0f", mhz[0]) ||
	    gs_set(g, e, "dram.tck_ps", "%.0f", 1e6 / mhz[3]))
		return -1;
	if (mhz[1] != mhz[0] || mhz[2] != mhz[0])
		gs_why(e, "icnt %g and L2 %g MHz: gpustep runs the crossbar and the L2 at the core clock",
		       mhz[1], mhz[2]);
	return 0;
}

/* -gpgpu_dram_timing_opt: NAME=VALUE pairs separated by ':' (GPGPU-Sim also
 * accepts ';' and blanks). */
static int map_timing(struct gs *g, struct gs_ent *e)
{
	static const char *const names[] = {"nbk", "CCD", "RRD",  "RCD", "RAS",    "RP",   "RC",
	                                    "CL",  "WL",  "CDLR", "WR",  "nbkgrp", "CCDL", "RTPL"};
	enum { NBK, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, NBKGRP, CCDL, RTPL, NT };
	unsigned long v[NT];
	bool have[NT] = {false};
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", e->val);
	char *save = NULL;
	for (char *tok = strtok_r(buf, "=:; \t\r\n", &save); tok; tok = strtok_r(NULL, "=:; \t\r\n", &save)) {
		int k = -1;
		for (int i = 0; i < NT; i++)
			if (strcmp(tok, names[i]) == 0)
				k = i;
		if (k < 0) {
			const char *s = closest(tok, names, NT, sizeof names[0]);
			return gs_fail(
			    g, e, "timing field '%s' unknown%s%s%s", tok, s ? " (did you mean " : "",
			    s ? s : " (fields: nbk CCD RRD RCD RAS RP RC CL WL CDLR WR nbkgrp CCDL RTPL)",
			    s ? "?)" : "");
		}
		char *val = strtok_r(NULL, "=:; \t\r\n", &save);
		char fld[48];
		snprintf(fld, sizeof fld, "timing field '%s'", names[k]);
		if (!val)
			return gs_fail(g, e, "%s: no value", fld);
		if (gs_uint(g, e, val, fld, &v[k]))
			return -1;
		have[k] = true;
	}
	/* GPGPU-Sim gives these three defaults; the others are required. */
	if (!have[NBKGRP])
		v[NBKGRP] = 1;
	if (!have[CCDL])
		v[CCDL] = 0;
	if (!have[RTPL])
		v[RTPL] = 0;
	have[NBKGRP] = have[CCDL] = have[RTPL] = true;
	for (int i = 0; i < NT; i++)
		if (!have[i])
			return gs_fail(g, e, "timing field '%s' missing (GPGPU-Sim has no default for it)",
			               names[i]);
	unsigned long bl, ratio;
	if (gs_uint_opt(g, e, "-gpgpu_dram_burst_length", 4, &bl) ||
	    gs_uint_opt(g, e, "-dram_data_command_freq_ratio", 2, &ratio))
		return -1;
	if (!ratio)
		return gs_fail(g, e, "-dram_data_command_freq_ratio is 0");
	long rtw = (long)(v[CL] + bl / ratio + 2) - (long)v[WL]; /* GPGPU-Sim's read-to-write turnaround */
	if (v[RC] <
	    v[RAS] + v[RP]) { /* GPGPU-Sim checks each separately; gpustep requires tRC >= tRAS + tRP */
		gs_why(e, "RC %lu < RAS + RP: tRC raised to %lu, as gpustep requires", v[RC], v[RAS] + v[RP]);
		v[RC] = v[RAS] + v[RP];
	}
	if (gs_set(g, e, "dram.banks", "%lu", v[NBK]) || gs_set(g, e, "dram.bank_groups", "%lu", v[NBKGRP]) ||
	    gs_set(g, e, "dram.timing.tCCD", "%lu", v[CCD]) ||
	    gs_set(g, e, "dram.timing.tCCD_L", "%lu", v[CCDL] ? v[CCDL] : v[CCD]) ||
	    gs_set(g, e, "dram.timing.tRRD", "%lu", v[RRD]) ||
	    gs_set(g, e, "dram.timing.tRRD_L", "%lu", v[RRD]) ||
	    gs_set(g, e, "dram.timing.tRCD", "%lu", v[RCD]) ||
	    gs_set(g, e, "dram.timing.tRAS", "%lu", v[RAS]) ||
	    gs_set(g, e, "dram.timing.tRP", "%lu", v[RP]) || gs_set(g, e, "dram.timing.tRC", "%lu", v[RC]) ||
	    gs_set(g, e, "dram.timing.tCL", "%lu", v[CL]) || gs_set(g, e, "dram.timing.tCWL", "%lu", v[WL]) ||
	    gs_set(g, e, "dram.timing.tWTR", "%lu", v[CDLR]) ||
	    gs_set(g, e, "dram.timing.tWTR_L", "%lu", v[CDLR]) ||
	    gs_set(g, e, "dram.timing.tWR", "%lu", v[WR]) ||
	    gs_set(g, e, "dram.timing.tRTP", "%lu", v[RTPL]) ||
	    gs_set(g, e, "dram.timing.tRTW", "%ld", rtw > 0 ? rtw : 0) ||
	    gs_set(g, e, "dram.timing.tFAW", "0") || gs_set(g, e, "dram.refresh", "none"))
		return -1;
	gs_why(
	    e,
	    "tRTW = CL + BL/ratio + 2 - WL as GPGPU-Sim derives it; no tFAW and no refresh, as in GPGPU-Sim");
	return 0;
}

/* -gpgpu_mem_addr_mapping dramid@N;MASK: MASK's letters (R row, B bank,
 * C/S column, D channel, 0 unused) from bit 63 down; dramid@N inserts the
 * channel digit above bit N-1. Becomes dram.mapping (MSB first), rows,
 * columns and l2.interleave. */
static int map_addr(struct gs *g, struct gs_ent *e)
{
	const char *s = e->val;
	long dramid = -1;
	if (strncmp(s, "dramid@", 7) == 0) {
		char *end;
		dramid = strtol(s + 7, &end, 10);
		if (end == s + 7 || *end != ';' || dramid < 0 || dramid > 63)
			return gs_fail(g, e, "field 'dramid@': expected dramid@BIT; before the mask");
		s = end + 1;
	}
	char bits[64];
	int nb = 0;
	for (; *s; s++) {
		char c = (char)toupper((unsigned char)*s);
		if (c == '.' || c == '|' || c == ' ')
			continue;
		if (!strchr("RBCSD0", c))
			return gs_fail(g, e, "mask: '%c' is not one of R B C S D 0 (or . | as separators)",
			               *s);
		if (nb == 64)
			return gs_fail(g, e, "mask: more than 64 bits");
		bits[nb++] = c;
	}
	if (dramid >= 0 && memchr(bits, 'D', (size_t)nb))
		return gs_fail(g, e, "mask: D bits and dramid@ both place the channel");
	unsigned long bus, chips;
	if (gs_uint_opt(g, e, "-gpgpu_dram_buswidth", 4, &bus) ||
	    gs_uint_opt(g, e, "-gpgpu_n_mem_per_ctrlr", 1, &chips))
		return -1;
	unsigned long width = bus * chips;
	if (!width || width > 256)
		return gs_fail(g, e,
		               "bus word of %lu bytes (-gpgpu_dram_buswidth x -gpgpu_n_mem_per_ctrlr): "
		               "expected 1 to 256",
		               width);
	int offset = 0;
	while ((1UL << offset) < width)
		offset++;
	/* LSB first: label per bit position (bits[nb-1] is bit 0). */
	char lsb[65];
	int n = 0;
	for (int i = nb - 1; i >= 0; i--)
		lsb[n++] = bits[i];
	int rows = 0, cols = 0;
	for (int i = 0; i < n; i++) {
		if (lsb[i] == 'R')
			rows++;
		if (lsb[i] == 'C' || lsb[i] == 'S')
			cols++;
	}
	for (int i = 0; i < offset; i++)
		if (i >= n || (lsb[i] != 'C' && lsb[i] != 'S'))
			return gs_fail(g, e,
			               "mask: bit %d lies within a %lu-byte bus word but is not a column bit",
			               i, width);
	if (rows < 1 || rows > 24)
		return gs_fail(g, e, "mask: %d row bits; expected 1 to 24", rows);
	if (cols - offset > 16)
		return gs_fail(g, e, "mask: %d column bits above the bus word; expected at most 16",
		               cols - offset);
	if (cols - offset < 3)
		return gs_fail(g, e, "mask: %d column bits above the %lu-byte bus word; need at least 3",
		               cols - offset, width);
	if (dramid >= 0 && (dramid < offset || dramid > n))
		return gs_fail(
		    g, e, "field 'dramid@': bit %ld is not between the bus word (%d bits) and the mask's top",
		    dramid, offset);
	/* Runs LSB first (above the bus word); the channel digit goes in at bit
	 * dramid with no bit count (its radix is dram.channels). */
	char lab[80];
	int cnt[80], nr = 0, top = n;
	while (top > offset && lsb[top - 1] == '0')
		top--; /* unused high bits */
	for (int i = offset; i <= top; i++) {
		if (i == dramid) {
			lab[nr] = 'D';
			cnt[nr++] = 0;
		}
		if (i == top)
			break;
		char c = lsb[i] == 'S' ? 'C' : lsb[i];
		if (c == '0')
			return gs_fail(
			    g, e, "mask: unused bit %d below used ones cannot be expressed in dram.mapping",
			    i);
		if (nr && lab[nr - 1] == c && cnt[nr - 1])
			cnt[nr - 1]++;
		else {
			lab[nr] = c;
			cnt[nr++] = 1;
		}
	}
	struct strbuf m;
	sb_init(&m);
	for (int r = nr - 1; r >= 0; r--) {
		const char *fn = lab[r] == 'R'   ? "row"
		                 : lab[r] == 'B' ? "bank"
		                 : lab[r] == 'D' ? "ch"
		                                 : "col";
		if (!cnt[r] || (r == nr - 1 && lab[r] == 'R'))
			sb_printf(&m, "%s%s", m.len ? ":" : "", fn);
		else
			sb_printf(&m, "%s%s[%d]", m.len ? ":" : "", fn, cnt[r]);
	}
	int rc = -1;
	if (gs_set(g, e, "dram.mapping", "%s", m.s) || gs_set(g, e, "dram.rows", "%lu", 1UL << rows) ||
	    gs_set(g, e, "dram.columns", "%lu", 1UL << (cols - offset)))
		goto out;
	if (dramid >= 4 && gs_set(g, e, "l2.interleave", "%lu", 1UL << dramid))
		goto out;
	if (dramid >= 0)
		gs_why(e, "the channel digit at bit %ld; an L2 sub-partition is its channel's and the low bank bits' "
		          "(l2.banks_per_channel)",
		       dramid);
	rc = 0;
out:
	sb_fini(&m);
	return rc;
}

/* "LATENCY,INITIATION" of Accel-Sim's trace.config. */
static int parse_lat_init(struct gs *g, struct gs_ent *e, unsigned long *lat, unsigned long *init)
{
	char buf[128], *f[3];
	if (split(buf, sizeof buf, e->val, ",", f, 2) != 2)
		return gs_fail(g, e, "expected LATENCY,INITIATION");
	return gs_uint(g, e, f[0], "field 'latency'", lat) || gs_uint(g, e, f[1], "field 'initiation'", init)
	           ? -1
	           : 0;
}

/* -specialized_unit_N ENABLED,UNITS,MAX_LATENCY,ID_OC,OC_EX,NAME: its name
 * ("" when disabled) and unit count (units may be NULL). */
static int parse_spec_unit(struct gs *g, struct gs_ent *e, const char *val, char *name, size_t n,
                           unsigned long *units)
{
	static const char *const fields[] = {"enabled", "units", "max latency", "ID_OC width", "OC_EX width"};
	char buf[256], *f[7];
	if (split(buf, sizeof buf, val, ",", f, 6) != 6)
		return gs_fail(g, e, "expected ENABLED,UNITS,MAX_LATENCY,ID_OC,OC_EX,NAME");
	unsigned long v;
	for (int i = 0; i < 5; i++) {
		char fld[40];
		snprintf(fld, sizeof fld, "field '%s'", fields[i]);
		if (gs_uint(g, e, f[i], fld, &v))
			return -1;
		if (i == 0 && !v) {
			name[0] = 0;
			return 0;
		}
		if (i == 1 && units)
			*units = v;
	}
	snprintf(name, n, "%s", f[5]);
	return 0;
}

/* The enabled -specialized_unit_N called `want` (BRA, TENSOR): N, or 0. */
static int spec_unit_named(struct gs *g, struct gs_ent *e, const char *want)
{
	for (int k = 1; k <= 8; k++) {
		char on[40], nm[64];
		snprintf(on, sizeof on, "-specialized_unit_%d", k);
		const char *u = gs_get(g, on);
		if (u && !parse_spec_unit(g, e, u, nm, sizeof nm, NULL) && strcmp(nm, want) == 0)
			return k;
	}
	return 0;
}

/* core.op_model = units and core.op_<cls>_<what> = v (what: latency,
 * initiation, units). */
static int set_op(struct gs *g, struct gs_ent *e, const char *cls, const char *what, unsigned long v)
{
	char key[64];
	snprintf(key, sizeof key, "core.op_%s_%s", cls, what);
	if (strcmp(what, "units") && !g->op_units) {
		if (gs_set(g, e, "core.op_model", "units"))
			return -1;
		g->op_units = true;
	}
	return gs_set(g, e, key, "%lu", v);
}

/* A comma-separated list of whole numbers (at most max); field names from
 * names[] when given. */
static int parse_list(struct gs *g, struct gs_ent *e, const char *const *names, int max, int *count)
{
	char buf[512], *f[32];
	int n = split(buf, sizeof buf, e->val, ",", f, max < 32 ? max : 31);
	if (n > max)
		return gs_fail(g, e, "more than %d comma-separated values", max);
	for (int i = 0; i < n; i++) {
		char fld[64];
		if (names)
			snprintf(fld, sizeof fld, "field %d '%s'", i + 1, names[i]);
		else
			snprintf(fld, sizeof fld, "field %d", i + 1);
		unsigned long v;
		if (gs_uint(g, e, f[i], fld, &v))
			return -1;
	}
	*count = n;
	return 0;
}

/* ---- handlers --------------------------------------------------------- */
static int map_trace_lat(struct gs *g, struct gs_ent *e)
{
	unsigned long lat, init;
	if (parse_lat_init(g, e, &lat, &init))
		return -1;
	const char *unit = e->name + strlen("-trace_opcode_latency_initiation_");
	if (strcmp(unit, "tensor") == 0) { /* HMMA runs on a specialised TENSOR unit when one is enabled */
		int k = spec_unit_named(g, e, "TENSOR");
		if (g->failed)
			return -1;
		if (k) {
			gs_why(e, "HMMA runs on -specialized_unit_%d (TENSOR); core.op_tensor_* and trace.tensor_cycles "
			          "come from its line", k);
			return 0;
		}
	}
	if (set_op(g, e, unit, "latency", lat) || set_op(g, e, unit, "initiation", init))
		return -1;
	/* trace.*: the same latencies for core.op_model = warp_busy */
	if (strcmp(unit, "int") == 0) {
		if (gs_get(g, "-trace_opcode_latency_initiation_sp"))
			gs_why(e, "with core.op_model = warp_busy integer and fp32 share trace.alu_cycles, set from the sp line");
		else if (gs_set(g, e, "trace.alu_cycles", "%lu", lat))
			return -1;
		int k = spec_unit_named(g, e, "BRA");
		if (g->failed)
			return -1;
		if (!k) { /* Accel-Sim times BRANCH_OP as int and issues it on the int (or sp) pipeline */
			if (set_op(g, e, "branch", "latency", lat) || set_op(g, e, "branch", "initiation", init) ||
			    set_op(g, e, "branch", "units", 0))
				return -1;
			gs_why(e, "no BRA specialized unit: branches are timed as int and run on its units");
		}
	} else if (strcmp(unit, "sp") == 0) {
		if (gs_set(g, e, "trace.alu_cycles", "%lu", lat))
			return -1;
	} else if (strcmp(unit, "dp") == 0) {
		if (gs_set(g, e, "trace.dp_cycles", "%lu", lat))
			return -1;
	} else if (strcmp(unit, "sfu") == 0) {
		if (gs_set(g, e, "trace.sfu_cycles", "%lu", lat))
			return -1;
	} else if (gs_set(g, e, "trace.tensor_cycles", "%lu", lat)) {
		return -1;
	}
	if (strcmp(unit, "sp") == 0)
		gs_why(e, "fp16 (HADD2, HFMA2, ...) at half the initiation interval is not modelled: the sp interval");
	return 0;
}

static int map_spec_lat(struct gs *g, struct gs_ent *e)
{
	unsigned long lat, init;
	if (parse_lat_init(g, e, &lat, &init))
		return -1;
	int k = atoi(e->name + strlen("-trace_opcode_latency_initiation_spec_op_"));
	char on[40], nm[64] = "";
	snprintf(on, sizeof on, "-specialized_unit_%d", k);
	const char *u = gs_get(g, on);
	if (u && parse_spec_unit(g, e, u, nm, sizeof nm, NULL))
		return -1;
	if (strcmp(nm, "BRA") == 0) {
		if (set_op(g, e, "branch", "latency", lat) || set_op(g, e, "branch", "initiation", init) ||
		    gs_set(g, e, "trace.branch_cycles", "%lu", lat))
			return -1;
	} else if (strcmp(nm, "TENSOR") == 0) {
		if (set_op(g, e, "tensor", "latency", lat) || set_op(g, e, "tensor", "initiation", init) ||
		    gs_set(g, e, "trace.tensor_cycles", "%lu", lat))
			return -1;
	} else if (!nm[0]) {
		gs_why(e, "%s is not enabled: no instruction uses this latency", on);
	} else if (strcmp(nm, "TEX") == 0) {
		gs_why(e, "unit TEX: a TEX instruction replays as a global load");
	} else if (strcmp(nm, "UDP") == 0) {
		gs_why(e, "unit UDP: uniform-datapath instructions (UIADD3, ULDC, ...) run as int (core.op_int_*)");
	} else {
		gs_why(e, "unit %s: its instructions take the latency of their class (core.op_*)", nm);
	}
	return 0;
}

/* -gpgpu_num_<class>_units: core.op_<class>_units. */
static int map_num_units(struct gs *g, struct gs_ent *e)
{
	unsigned long v;
	if (gs_uint(g, e, e->val, "value", &v))
		return -1;
	const char *cls = strstr(e->name, "_sp_") ? "sp" : strstr(e->name, "_sfu_") ? "sfu"
			: strstr(e->name, "_dp_") ? "dp" : strstr(e->name, "_int_") ? "int" : "tensor";
	if (strcmp(cls, "tensor") == 0) {
		int k = spec_unit_named(g, e, "TENSOR");
		if (g->failed)
			return -1;
		if (k) {
			gs_why(e, "HMMA runs on -specialized_unit_%d (TENSOR): its unit count is core.op_tensor_units", k);
			return 0;
		}
	}
	return set_op(g, e, cls, "units", v);
}

/* -ptx_opcode_latency_X / -ptx_opcode_initiation_X: GPGPU-Sim's PTX-mode
 * lists (ADD,MAX,MUL,MAD,DIV[,SHFL]; one value for sfu and tensor). Their
 * ADD entry times the class unless Accel-Sim's trace line of it is given. */
static int map_ptx_lat(struct gs *g, struct gs_ent *e)
{
	int n;
	if (parse_list(g, e, NULL, 16, &n))
		return -1;
	bool lat = strncmp(e->name, "-ptx_opcode_latency_", 20) == 0;
	const char *ptx = e->name + (lat ? 20 : 23);
	const char *cls = strcmp(ptx, "fp") == 0 ? "sp" : strcmp(ptx, "tesnor") == 0 ? "tensor" : ptx;
	char tl[64];
	snprintf(tl, sizeof tl, "-trace_opcode_latency_initiation_%s", cls);
	if (gs_get(g, tl)) {
		gs_why(e, "%s sets core.op_%s_* (trace mode)", tl, cls);
		return 0;
	}
	if (strcmp(cls, "tensor") == 0 && (spec_unit_named(g, e, "TENSOR") || g->failed))
		return g->failed ? -1 : (gs_why(e, "HMMA runs on a TENSOR specialized unit"), 0);
	unsigned long v = strtoul(e->val, NULL, 10);
	if (set_op(g, e, cls, lat ? "latency" : "initiation", v))
		return -1;
	if (n > 1)
		gs_why(e, "the ADD entry: one %s per class (MAX, MUL, MAD, DIV%s entries not modelled)",
		       lat ? "latency" : "initiation interval", strcmp(cls, "int") == 0 ? ", SHFL" : "");
	if (strcmp(cls, "int") == 0 && !spec_unit_named(g, e, "BRA") && !g->failed) {
		/* PTX branches are BRANCH_OP with GPGPU-Sim's default timing, 1 and 1 */
		if (set_op(g, e, "branch", lat ? "latency" : "initiation", 1) || set_op(g, e, "branch", "units", 0))
			return -1;
		gs_why(e, "branches: GPGPU-Sim's PTX default %s 1 on the int (or sp) units",
		       lat ? "latency" : "initiation interval");
	}
	if (strcmp(cls, "int") == 0 && !gs_get(g, lat ? "-ptx_opcode_latency_sfu" : "-ptx_opcode_initiation_sfu") &&
	    !gs_get(g, "-trace_opcode_latency_initiation_sfu")) { /* PTX mode: GPGPU-Sim's sfu default, 8 and 8 */
		if (set_op(g, e, "sfu", lat ? "latency" : "initiation", 8))
			return -1;
		gs_why(e, "sfu: GPGPU-Sim's PTX default %s 8 (no -ptx_opcode_%s_sfu line)",
		       lat ? "latency" : "initiation interval", lat ? "latency" : "initiation");
	}
	return g->failed ? -1 : 0;
}

static int map_scheduler(struct gs *g, struct gs_ent *e)
{
	if (strcmp(e->val, "lrr") == 0 || strcmp(e->val, "gto") == 0)
		return gs_set(g, e, "core.scheduler", "%s", e->val);
	if (strncmp(e->val, "two_level_active", 16) == 0) {
		char buf[128], *f[5];
		int n = split(buf, sizeof buf, e->val, ":", f, 4);
		unsigned long act;
		if (n < 2 || gs_uint(g, e, f[1], "field 'active warps'", &act))
			return g->failed ? -1 : gs_fail(g, e, "expected two_level_active:ACTIVE:INNER:OUTER");
		if (gs_set(g, e, "core.scheduler", "two_level") ||
		    gs_set(g, e, "core.active_pool", "%lu", act))
			return -1;
		if (n > 2)
			gs_why(e, "inner/outer prioritisation: gpustep's two_level is round robin in the "
			          "active pool");
		return 0;
	}
	gs_why(e, "scheduler '%s' has no gpustep equivalent: core.scheduler unchanged (%s)", e->val,
	       cfg_find("core.scheduler")->enums[g->cfg->core.scheduler]);
	return 0;
}

static int map_icnt_file(struct gs *g, struct gs_ent *e);

static int map_entry(struct gs *g, struct gs_ent *e)
{
	unsigned long v, w;
	int n;
	if (!e->val[0] && e->opt->map != GS_NOT_MODELLED) { /* an unset string in a dump */
		gs_why(e, "no value (GPGPU-Sim's built-in default): gpustep's keys unchanged");
		return 0;
	}
	switch (e->opt->map) {
	case GS_NOT_MODELLED:
	case GS_INCLUDE:
		return 0;
	case GS_CLOCKS:
		return map_clocks(g, e);
	case GS_N_CLUSTERS:
		if (gs_uint_opt(g, e, "-gpgpu_n_clusters", 10, &v) ||
		    gs_uint_opt(g, e, "-gpgpu_n_cores_per_cluster", 3, &w))
			return -1;
		return gs_set(g, e, "core.sms", "%lu", v * w);
	case GS_N_MEM:
	case GS_N_SUB:
		if (gs_uint_opt(g, e, "-gpgpu_n_mem", 8, &v) ||
		    gs_uint_opt(g, e, "-gpgpu_n_sub_partition_per_mchannel", 1, &w))
			return -1;
		if (e->opt->map == GS_N_MEM && gs_set(g, e, "dram.channels", "%lu", v))
			return -1;
		/* every GPGPU-Sim L2 slice is a sub-partition of one channel */
		if ((e->opt->map == GS_N_SUB || !gs_get(g, "-gpgpu_n_sub_partition_per_mchannel")) &&
		    gs_set(g, e, "l2.banks_per_channel", "%lu", w))
			return -1;
		return gs_set(g, e, "l2.banks", "%lu", v * w);
	case GS_PIPELINE: {
		char buf[128], *f[3];
		if (split(buf, sizeof buf, e->val, ":", f, 2) != 2)
			return gs_fail(g, e, "expected THREADS:WARP_SIZE");
		if (gs_uint(g, e, f[0], "field 'threads per SM'", &v) ||
		    gs_uint(g, e, f[1], "field 'warp size'", &w))
			return -1;
		if (!w || v % w)
			return gs_fail(
			    g, e, "field 'threads per SM': %lu is not a multiple of the warp size %lu", v, w);
		return gs_set(g, e, "core.warp_size", "%lu", w) ||
		               gs_set(g, e, "core.threads_per_sm", "%lu", v) ||
		               gs_set(g, e, "core.warps_per_sm", "%lu", v / w)
		           ? -1
		           : 0;
	}
	case GS_SHADER_CTA:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "core.ctas_per_sm", "%lu", v);
	case GS_SHMEM_SIZE:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "core.shmem_per_sm", "%lu", v);
	case GS_DRAM_LATENCY: /* both in core cycles (GPGPU-Sim counts gpu_sim_cycle) */
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "l2.dram_latency", "%lu", v);
	case GS_SMEM_LATENCY:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "core.shmem_latency", "%lu", v);
	case GS_SHMEM_BANKS:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "core.shmem_banks", "%lu", v);
	case GS_SCHED_PER_CORE:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "core.schedulers", "%lu", v);
	case GS_SCHEDULER:
		return map_scheduler(g, e);
	case GS_COALESCE:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		/* GPGPU-Sim (abstract_hardware_model.cc): from arch 40 every request
		 * is a 32 B segment of a subwarp of warp_size / -gpgpu_shmem_warp_parts
		 * lanes (that option's default: 2); below, 128 B lines. */
		if (v < 40)
			return gs_set(g, e, "core.coalescer", "fermi");
		if (gs_uint_opt(g, e, "-gpgpu_shmem_warp_parts", 2, &w))
			return -1;
		if (w == 0 || w > 32 || (w & (w - 1)))
			return gs_fail(g, e, "-gpgpu_shmem_warp_parts %lu: the subwarps of the coalescer must be a power of two up to 32", w);
		if (gs_set(g, e, "core.coalescer", "volta"))
			return -1;
		gs_why(e, "subwarps of 32 / -gpgpu_shmem_warp_parts %lu lanes, each coalesced into 32 B sectors", w);
		return gs_set(g, e, "core.coalesce_group", "%lu", 32 / w);
	case GS_CACHE_L1:
		return map_cache_l1(g, e);
	case GS_CACHE_L2:
		return map_cache_l2(g, e);
	case GS_CACHE_L1I:
		return map_cache_l1i(g, e);
	case GS_FETCH_WIDTH:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "core.fetch_width", "%lu", v);
	case GS_PERFECT_ICACHE:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		gs_why(e, "the constant cache is not modelled (constant loads are global loads)");
		return gs_set(g, e, "l1i.perfect", "%s", v ? "true" : "false");
	case GS_CACHE_OTHER: {
		struct gs_cache c;
		return parse_cache(g, e, &c);
	}
	case GS_L1_LATENCY:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "l1.hit_latency", "%lu", v);
	case GS_ROP_LATENCY:
		if (gs_uint(g, e, e->val, "value", &v) || gs_set(g, e, "l2.hit_latency", "%lu", v))
			return -1;
		gs_why(e, "GPGPU-Sim delays each request this long before its L2 lookup, gpustep each answer "
		          "after it (hits, write acks, fills with l2.fill_reply = pipeline): the same delay on "
		          "every path (docs/MODEL.md, ROP delay)");
		return 0;
	case GS_SKIP_L1D:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		return gs_set(g, e, "l1.bypass", "%s", v ? "all" : "none");
	case GS_MEMCPY:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		return gs_set(g, e, "trace.memcpy", "%s", v ? "l2_fill" : "ignore");
	case GS_PART_INDEX: {
		/* addrdec.cc: 0 consecutive, 1 bitwise XOR, 2 IPOLY, 3 PAE, 4 random,
		 * 5 custom (an empty case: consecutive); anything else stops it. */
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		unsigned long nm, ns;
		if (gs_uint_opt(g, e, "-gpgpu_n_mem", 8, &nm) ||
		    gs_uint_opt(g, e, "-gpgpu_n_sub_partition_per_mchannel", 1, &ns))
			return -1;
		if (v == 0 || v == 5) {
			if (v == 5)
				gs_why(e, "5 (custom) has no function in GPGPU-Sim's decoder: consecutive");
			return gs_set(g, e, "l2.bank_hash", "linear");
		}
		if (v == 1) {
			if (!is_pow2(nm)) {
				gs_why(e, "xor needs a power-of-two -gpgpu_n_mem (GPGPU-Sim asserts it), not %lu: linear", nm);
				return gs_set(g, e, "l2.bank_hash", "linear");
			}
			return gs_set(g, e, "l2.bank_hash", "xor");
		}
		if (v == 2) {
			unsigned long subs = 1;
			while (subs < nm)
				subs <<= 1;
			subs *= ns;
			if (subs != 16 && subs != 32 && subs != 64)
				return gs_fail(g, e,
				               "value 2 (IPOLY) hashes over -gpgpu_n_mem rounded up to a power of two x "
				               "-gpgpu_n_sub_partition_per_mchannel = %lu sub-partitions; GPGPU-Sim's "
				               "IPOLY exists for 16, 32 and 64 only",
				               subs);
			if (!is_pow2(nm))
				gs_why(e, "%lu channels: IPOLY over %lu, then mod %lu, as GPGPU-Sim", nm, subs, nm * ns);
			return gs_set(g, e, "l2.bank_hash", "ipoly");
		}
		if (v == 3 || v == 4) {
			gs_why(e, "indexing %lu (%s): l2.bank_hash unchanged", v,
			       v == 3 ? "PAE: GPGPU-Sim's decoder has no case for it and stops"
			              : "random: a first-touch random table, not modelled");
			return 0;
		}
		return gs_fail(g, e, "value: expected 0 to 5 (GPGPU-Sim's partition indexing functions)");
	}
	case GS_PART_QUEUES: {
		static const char *const q[] = {"icnt to L2", "L2 to DRAM", "DRAM to L2", "L2 to icnt"};
		char buf[128], *f[5];
		if (split(buf, sizeof buf, e->val, ":", f, 4) != 4)
			return gs_fail(g, e, "expected ICNT_L2:L2_DRAM:DRAM_L2:L2_ICNT queue sizes");
		for (int i = 0; i < 4; i++) {
			char fld[48];
			snprintf(fld, sizeof fld, "field '%s'", q[i]);
			if (gs_uint(g, e, f[i], fld, &v))
				return -1;
		}
		if (gs_uint(g, e, f[0], "field 'icnt to L2'", &v) ||
		    (v && gs_set(g, e, "l2.queue", "%lu", v)))
			return -1;
		gs_why(e, "the other three queues: misses wait in the MSHRs and the DRAM queues");
		return 0;
	}
	case GS_DRAM_SCHED:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		if (v > 1)
			return gs_fail(g, e, "value: expected 0 (FIFO) or 1 (FR-FCFS)");
		if (gs_set(g, e, "dram.scheduler", "%s", v ? "frfcfs" : "fcfs"))
			return -1;
		/* dram_sched.cc's FR-FCFS serves the open row's requests until
		 * none is left (frfcfs_scheduler::schedule keeps m_last_row until
		 * its bin is empty): no cap. */
		if (v && gs_set(g, e, "dram.row_hit_cap", "0"))
			return -1;
		if (v)
			gs_why(e, "FR-FCFS without a row-hit cap: GPGPU-Sim serves a bank's open row until no request for it is left");
		return 0;
	case GS_FRFCFS_QUEUE: {
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		unsigned long q = v ? v : 4096; /* 0: unlimited */
		if (gs_set(g, e, "dram.read_queue", "%lu", q > 4096 ? 4096 : q))
			return -1;
		const char *sep = gs_get(g, "-dram_seperate_write_queue_enable");
		if (!sep || atoi(sep) == 0) {
			if (gs_set(g, e, "dram.write_queue", "%lu", q > 4096 ? 4096 : q))
				return -1;
			gs_why(e, "one queue for reads and writes: gpustep keeps them apart, each this size");
		}
		return 0;
	}
	case GS_WQ_ENABLE:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		gs_why(e, v ? "separate write queue: sizes from -dram_write_queue_size"
		            : "writes share the FR-FCFS queue: see -gpgpu_frfcfs_dram_sched_queue_size");
		return 0;
	case GS_WQ_SIZE: {
		char buf[128], *f[4];
		unsigned long sz, hi, lo;
		if (split(buf, sizeof buf, e->val, ":", f, 3) != 3)
			return gs_fail(g, e, "expected SIZE:HIGH:LOW");
		if (gs_uint(g, e, f[0], "field 'size'", &sz) ||
		    gs_uint(g, e, f[1], "field 'high watermark'", &hi) ||
		    gs_uint(g, e, f[2], "field 'low watermark'", &lo))
			return -1;
		const char *sep = gs_get(g, "-dram_seperate_write_queue_enable");
		if (!sep || atoi(sep) == 0) {
			gs_why(e, "-dram_seperate_write_queue_enable is off");
			return 0;
		}
		return gs_set(g, e, "dram.write_queue", "%lu", sz) ||
		               gs_set(g, e, "dram.write_high", "%lu", hi) ||
		               gs_set(g, e, "dram.write_low", "%lu", lo)
		           ? -1
		           : 0;
	}
	case GS_DRAM_BUS:
		if (gs_uint_opt(g, e, "-gpgpu_dram_buswidth", 4, &v) ||
		    gs_uint_opt(g, e, "-gpgpu_n_mem_per_ctrlr", 1, &w))
			return -1;
		return gs_set(g, e, "dram.bus_bytes", "%lu", v * w);
	case GS_DRAM_BURST:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "dram.burst", "%lu", v);
	case GS_DRAM_RATIO:
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "dram.data_rate", "%lu", v);
	case GS_DUAL_BUS: /* one row and one column command per DRAM cycle */
		return gs_uint(g, e, e->val, "value", &v) ? -1 : gs_set(g, e, "dram.dual_cmd", "%s", v ? "true" : "false");
	case GS_BNK_INDEX:
		/* dram.cc, dram_req_t: 0 the decoder's bank, 1 that bank XOR the low
		 * bits of its row (bitwise_hash_function: dram.bank_xor), 2 IPOLY
		 * over the row, 3 an empty case; anything else stops it. */
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		if (v <= 1)
			return gs_set(g, e, "dram.bank_xor", "%s", v ? "true" : "false");
		if (v == 2 || v == 3) {
			gs_why(e, "bank indexing %lu (%s): dram.bank_xor unchanged", v,
			       v == 2 ? "IPOLY of the bank with the row"
			              : "custom: an empty case in GPGPU-Sim, which leaves the bank unset");
			return 0;
		}
		return gs_fail(g, e, "value: expected 0 to 3 (GPGPU-Sim's DRAM bank indexing functions)");
	case GS_ADDR_MAP:
		return map_addr(g, e);
	case GS_TIMING:
		return map_timing(g, e);
	case GS_NETWORK_MODE:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		gs_why(e, "%s: gpustep's crossbar (icnt.*)", v == 1 ? "booksim network" : "local crossbar");
		return 0;
	case GS_ICNT_FLIT: {
		const char *mode = gs_get(g, "-network_mode");
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		if (mode && atoi(mode) == 1) {
			gs_why(e, "-network_mode 1 takes the flit size from the .icnt file");
			return 0;
		}
		return gs_set(g, e, "icnt.flit_bytes", "%lu", v);
	}
	case GS_ICNT_FILE:
		return map_icnt_file(g, e);
	case GS_TRACE_LAT:
		return map_trace_lat(g, e);
	case GS_SPEC_LAT:
		return map_spec_lat(g, e);
	case GS_SPEC_UNIT: {
		char nm[64];
		unsigned long units = 0;
		if (parse_spec_unit(g, e, e->val, nm, sizeof nm, &units))
			return -1;
		if (strcmp(nm, "BRA") == 0 || strcmp(nm, "TENSOR") == 0)
			return set_op(g, e, nm[0] == 'B' ? "branch" : "tensor", "units", units);
		gs_why(e, nm[0] ? "unit %s: its trace latency is the matching _spec_op_ line" : "disabled%s",
		       nm);
		return 0;
	}
	case GS_PIPE_WIDTHS: {
		static const char *const st[] = {
		    "ID_OC_SP", "ID_OC_DP",          "ID_OC_INT",        "ID_OC_SFU", "ID_OC_MEM",
		    "OC_EX_SP", "OC_EX_DP",          "OC_EX_INT",        "OC_EX_SFU", "OC_EX_MEM",
		    "EX_WB",    "ID_OC_TENSOR_CORE", "OC_EX_TENSOR_CORE"};
		return parse_list(g, e, st, (int)ARRAY_LEN(st), &n);
	}
	case GS_PTX_LATS:
		return map_ptx_lat(g, e);
	case GS_NUM_UNITS:
		return map_num_units(g, e);
	case GS_SUB_CORE:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		return gs_set(g, e, "core.op_sub_core", "%s", v ? "true" : "false");
	case GS_KLAUNCH:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		return gs_set(g, e, "core.kernel_launch_latency", "%lu", v);
	case GS_TBLAUNCH:
		if (gs_uint(g, e, e->val, "value", &v))
			return -1;
		if (v)
			gs_why(e, "GPGPU-Sim adds it once per CTA of the kernel before the kernel's first dispatch; "
			          "gpustep holds each CTA's warps that long after its own dispatch");
		return gs_set(g, e, "core.cta_launch_latency", "%lu", v);
	}
	return 0;
}

/* ---- reading files ---------------------------------------------------- */
static char *path_beside(const char *file, const char *name)
{
	if (name[0] == '/')
		return xstrdup(name);
	const char *slash = strrchr(file, '/');
	return xasprintf("%.*s%s", slash ? (int)(slash - file) + 1 : 0, file, name);
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int gs_read(struct gs *g, const char *text, size_t len, const char *fname, int depth);

static int add_entry(struct gs *g, const char *name, const char *val, const char *fname, unsigned line,
                     int depth)
{
	struct gs_ent tmp = {.name = name, .val = val, .file = fname, .line = line};
	const struct gs_opt *o = gs_find(name);
	if (!o) {
		const char *s = closest(name, gs_opts, gs_nopts, sizeof gs_opts[0]);
		if (s)
			return gs_fail(
			    g, &tmp,
			    "unknown option (neither GPGPU-Sim nor Accel-Sim defines it; did you mean %s?)",
			    s);
		return gs_fail(g, &tmp, "unknown option (neither GPGPU-Sim nor Accel-Sim defines it)");
	}
	if (o->map == GS_INCLUDE) { /* -config FILE, as GPGPU-Sim's parser reads it */
		if (depth >= 4)
			return gs_fail(g, &tmp, "-config nested more than 4 deep");
		if (g->nfiles == GS_MAX_FILES)
			return gs_fail(g, &tmp, "more than %d files", GS_MAX_FILES);
		char *p = path_beside(fname, val);
		char *err = NULL;
		size_t n;
		char *t = is_file(p) ? loader_read_file_max(p, "GPGPU-Sim config", LOADER_TEXT_MAX, &n, &err) : NULL;
		if (!t && !err)
			err = xasprintf("%s: no such file", p);
		if (!t) {
			gs_fail(g, &tmp, "%s", err);
			free(err);
			free(p);
			return -1;
		}
		g->files[g->nfiles++] = p;
		int rc = gs_read(g, t, n, p, depth + 1);
		free(t);
		if (rc)
			return rc;
	}
	if (g->n == GS_MAX_ENTRIES)
		return gs_fail(g, &tmp, "more than %d options", GS_MAX_ENTRIES);
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 256;
		g->e = xrealloc(g->e, g->cap * sizeof *g->e);
	}
	for (size_t i = 0; i < g->n; i++)
		if (g->e[i].opt == o && g->e[i].overridden_by < 0)
			g->e[i].overridden_by = (int)g->n;
	struct gs_ent *e = &g->e[g->n++];
	*e = (struct gs_ent){.name = xstrdup(name),
	                     .val = xstrdup(val),
	                     .file = fname,
	                     .line = line,
	                     .opt = o,
	                     .overridden_by = -1};
	sb_init(&e->out);
	sb_init(&e->why);
	return 0;
}

/* Tokens as GPGPU-Sim reads them: '#' to the end of a line is a comment,
 * blanks separate, "..." joins blanks and lines. An option takes the next
 * token as its value, except that a known option name on a later line
 * means the value was empty (a dump of an unset string option). */
struct tok {
	char *s;
	unsigned line;
};

static int gs_read(struct gs *g, const char *text, size_t len, const char *fname, int depth)
{
	struct tok *t = NULL;
	size_t nt = 0, cap = 0;
	unsigned line = 1;
	int rc = -1;
	const char *p = text, *end = text + len;
	while (p < end) {
		if (*p == '\n') {
			line++;
			p++;
			continue;
		}
		if (*p == 0) {
			struct gs_ent x = {.name = "", .val = "", .file = fname, .line = line};
			gs_fail(g, &x, "NUL byte (not a text file)");
			goto out;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (*p == '#') {
			while (p < end && *p != '\n')
				p++;
			continue;
		}
		struct strbuf sb;
		sb_init(&sb);
		unsigned l0 = line;
		if (*p == '"') {
			p++;
			while (p < end && *p != '"') {
				if (*p == '#') { /* comments end at the line even inside quotes (GPGPU-Sim
					            strips them first) */
					while (p < end && *p != '\n')
						p++;
					continue;
				}
				if (*p == '\n')
					line++;
				if (*p == 0)
					break;
				sb_printf(&sb, "%c", isspace((unsigned char)*p) ? ' ' : *p);
				p++;
			}
			if (p >= end || *p != '"') {
				struct gs_ent x = {.name = "", .val = "", .file = fname, .line = l0};
				sb_fini(&sb);
				gs_fail(g, &x, "a quoted value is not closed");
				goto out;
			}
			p++;
		} else {
			while (p < end && !isspace((unsigned char)*p) && *p != '#' && *p != 0)
				sb_printf(&sb, "%c", *p++);
		}
		if (nt == cap) {
			cap = cap ? 2 * cap : 256;
			t = xrealloc(t, cap * sizeof *t);
		}
		t[nt++] = (struct tok){.s = sb.s ? sb.s : xstrdup(""), .line = l0};
	}
	for (size_t i = 0; i < nt; i++) {
		const char *name = t[i].s;
		if (name[0] != '-' || !isalpha((unsigned char)name[1])) {
			struct gs_ent x = {.name = "", .val = "", .file = fname, .line = t[i].line};
			gs_fail(g, &x, "expected -option, got '%.60s'", name);
			goto out;
		}
		const char *val = "";
		unsigned nline = t[i].line;
		struct strbuf vb;
		sb_init(&vb);
		if (i + 1 < nt &&
		    !(t[i + 1].line > t[i].line && t[i + 1].s[0] == '-' && gs_find(t[i + 1].s) != NULL)) {
			val = t[++i].s;
			/* A dump prints a quoted value unquoted: the rest of its line
			 * (up to a known option) belongs to it. */
			while (i + 1 < nt && t[i + 1].line == t[i].line &&
			       !(t[i + 1].s[0] == '-' && gs_find(t[i + 1].s))) {
				if (!vb.len)
					sb_puts(&vb, val);
				sb_printf(&vb, " %s", t[++i].s);
			}
		}
		int arc = add_entry(g, name, vb.len ? vb.s : val, fname, nline, depth);
		sb_fini(&vb);
		if (arc)
			goto out;
	}
	rc = 0;
out:
	for (size_t i = 0; i < nt; i++)
		free(t[i].s);
	free(t);
	return rc;
}

/* The booksim .icnt file: "name = value;" lines, // comments. */
static int map_icnt_file(struct gs *g, struct gs_ent *e)
{
	const char *mode = gs_get(g, "-network_mode");
	if (mode && atoi(mode) != 1) { /* GPGPU-Sim reads it for booksim (mode 1) only */
		gs_why(e, "not read: -network_mode %s does not use it", mode);
		return 0;
	}
	char *path = path_beside(e->file, e->val);
	char *err = NULL;
	size_t len;
	char *text = is_file(path) ? loader_read_file_max(path, "GPGPU-Sim config", LOADER_TEXT_MAX, &len, &err) : NULL;
	if (!text) {
		gs_why(e, "%s not found: gpustep's icnt.* keys keep their values", path);
		sb_printf(&g->notes, "%s%s:%u: %s: no such file; the crossbar keeps gpustep's icnt.* values",
		          g->notes.len ? "\n" : "", e->file, e->line, path);
		free(err);
		free(path);
		return 0;
	}
	if (g->nfiles == GS_MAX_FILES) {
		free(text);
		free(path);
		return gs_fail(g, e, "more than %d files", GS_MAX_FILES);
	}
	g->files[g->nfiles++] = path;
	bool used = true;
	unsigned line = 1, nkeys = 0;
	int rc = 0;
	for (char *s = text; *s && !rc;) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		char *c = strstr(s, "//");
		if (c)
			*c = 0;
		for (char *stmt = s; *stmt && !rc;) {
			char *semi = strchr(stmt, ';');
			if (semi)
				*semi = 0;
			while (isspace((unsigned char)*stmt))
				stmt++;
			if (*stmt) {
				char *eq = strchr(stmt, '=');
				struct gs_ent x = {.name = stmt, .val = "", .file = path, .line = line};
				if (!eq) {
					rc = gs_fail(g, &x, "expected NAME = VALUE;");
					break;
				}
				*eq = 0;
				char *k = stmt, *v = eq + 1;
				size_t kl = strlen(k);
				while (kl && isspace((unsigned char)k[kl - 1]))
					k[--kl] = 0;
				while (isspace((unsigned char)*v))
					v++;
				x.name = k;
				bool known = false;
				for (size_t i = 0; i < gs_nbooksim; i++)
					known |= strcmp(gs_booksim_keys[i], k) == 0;
				if (!known) {
					const char *sg = closest(k, gs_booksim_keys, gs_nbooksim,
					                         sizeof gs_booksim_keys[0]);
					rc = gs_fail(g, &x, "unknown booksim field%s%s%s",
					             sg ? " (did you mean " : "", sg ? sg : "",
					             sg ? "?)" : "");
					break;
				}
				nkeys++;
				if (strcmp(k, "flit_size") == 0 && used) {
					unsigned long fl;
					x.val = v;
					if (gs_uint(g, &x, v, "flit_size", &fl) ||
					    gs_set(g, e, "icnt.flit_bytes", "%lu", fl))
						rc = -1;
				}
			}
			if (!semi)
				break;
			stmt = semi + 1;
		}
		if (!nl)
			break;
		s = nl + 1;
		line++;
	}
	free(text);
	if (!rc)
		gs_why(e,
		       "%s: %u fields; %sthe rest (topology, buffers, allocators, delays) not modelled: %s",
		       path, nkeys, used ? "flit_size used, " : "not used (-network_mode is not 1), ",
		       "gpustep's crossbar is icnt.*");
	return rc;
}

/* ---- driver ----------------------------------------------------------- */
bool gpgpusim_is_config(const char *path, const char *text)
{
	size_t n = strlen(path);
	if (n > 7 && strcasecmp(path + n - 7, ".config") == 0)
		return true;
	if (!text)
		return false;
	const char *p = text;
	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (*p != '#')
			break;
		p += strcspn(p, "\n");
	}
	return p[0] == '-' && isalpha((unsigned char)p[1]);
}

static void gs_free(struct gs *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free((char *)g->e[i].name);
		free((char *)g->e[i].val);
		sb_fini(&g->e[i].out);
		sb_fini(&g->e[i].why);
	}
	free(g->e);
	for (int i = 0; i < g->nfiles; i++)
		free(g->files[i]);
	sb_fini(&g->notes);
}

static void report(const struct gs *g, struct strbuf *map, struct strbuf *notes)
{
	unsigned mapped = 0, partly = 0, not_modelled = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct gs_ent *e = &g->e[i];
		bool over = e->overridden_by >= 0;
		if (!over) {
			if (!e->out.len)
				not_modelled++;
			else if (e->why.len)
				partly++;
			else
				mapped++;
		}
		if (!map)
			continue;
		sb_printf(map, "%s:%u: %s %s -> ", e->file, e->line, e->name, e->val[0] ? e->val : "\"\"");
		if (over) {
			const struct gs_ent *o = &g->e[e->overridden_by];
			sb_printf(map, "overridden by %s:%u\n", o->file, o->line);
			continue;
		}
		if (e->out.len)
			sb_puts(map, e->out.s);
		if (!e->out.len || e->why.len || e->opt->why)
			sb_printf(map, "%s%s%s%s\n",
			          e->out.len ? "; note: " : "not modelled: ", e->why.len ? e->why.s : "",
			          e->why.len && e->opt->why && !e->out.len ? "; " : "",
			          e->opt->why && !e->out.len ? e->opt->why : "");
		else
			sb_puts(map, "\n");
	}
	if (notes) {
		if (g->notes.len)
			sb_printf(notes, "%s%s", notes->len ? "\n" : "", g->notes.s);
		sb_printf(notes,
		          "%s%s: %u GPGPU-Sim options mapped, %u mapped in part, %u not modelled "
		          "(gpustep --check-config %s lists them)",
		          notes->len ? "\n" : "", g->nfiles ? g->files[0] : "?", mapped, partly, not_modelled,
		          g->nfiles ? g->files[0] : "?");
	}
}

int gpgpusim_apply(struct sim_cfg *cfg, const char *path, const char *text, size_t len, struct strbuf *map,
                   struct strbuf *notes, char **err)
{
	return gpgpusim_apply_keys(cfg, path, text, len, map, notes, NULL, err);
}

int gpgpusim_apply_keys(struct sim_cfg *cfg, const char *path, const char *text, size_t len, struct strbuf *map,
			struct strbuf *notes, struct strbuf *keys, char **err)
{
	struct gs g = {.cfg = cfg, .err = err, .keys = keys};
	sb_init(&g.notes);
	g.files[g.nfiles++] = xstrdup(path);
	int rc = gs_read(&g, text, len, g.files[0], 0);
	/* Accel-Sim reads trace.config after gpgpusim.config: beside the file. */
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (!rc && strcmp(base, "trace.config") != 0) {
		char *tp = path_beside(path, "trace.config");
		size_t tl;
		char *terr = NULL;
		char *tt = is_file(tp) ? loader_read_file_max(tp, "GPGPU-Sim config", LOADER_TEXT_MAX, &tl, &terr) : NULL;
		if (tt) {
			g.files[g.nfiles++] = tp;
			rc = gs_read(&g, tt, tl, tp, 0);
			free(tt);
		} else {
			if (terr) { /* there but unreadable */
				set_err(err, "%s", terr);
				rc = -1;
			}
			free(terr);
			free(tp);
		}
	}
	for (size_t i = 0; !rc && i < g.n; i++)
		if (g.e[i].overridden_by < 0)
			rc = map_entry(&g, &g.e[i]);
	/* gpustep's L1 and L2 share one sector size (a sector is the unit of
	 * every request): the L1 takes the L2's. */
	for (size_t i = 0; !rc && i < g.n; i++) {
		struct gs_ent *e = &g.e[i];
		if (e->overridden_by < 0 && e->opt->map == GS_CACHE_L1 && cfg->l1.enabled &&
		    cfg->l1.sector != cfg->l2.sector) {
			gs_why(e, "sectors: gpustep's L1 and L2 use one sector size, the L2's (%d)",
			       cfg->l2.sector);
			rc = gs_set(&g, e, "l1.sector", "%d", cfg->l2.sector);
		}
	}
	if (!rc)
		report(&g, map, notes);
	gs_free(&g);
	return rc ? -1 : 0;
}
