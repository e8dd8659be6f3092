/*
 * test_dram_rules.c: one cycle-exact test per DRAM timing rule, run on
 * several presets (the harness config of test_dram_harness.h, JSON presets
 * and DRAMSim3 .ini files from configs/dram/), with the expected command
 * spacing computed from the preset's own parameters.
 *
 * Each rule has a minimal command sequence and the two commands (or the
 * command and the data) whose distance the rule sets. A rule counts as
 * tested on a preset only when it is the binding one there: the same
 * sequence is first run with the rule's parameter lowered to the smallest
 * legal value (the "control"), and the spacing must then be shorter than
 * the rule's. Where a preset's values never let the rule bind (tRC equal to
 * tRAS + tRP, tCCD_S no longer than the burst, no t32AW, ...), a variant of
 * the preset raises that one parameter 3 cycles above the control spacing;
 * the table in docs/TESTING.md says which presets bind natively and which
 * as a variant. Every rule must bind on at least one JSON preset and one
 * .ini (natively or as a variant).
 *
 * The presets keep their organisation, bank groups, burst and timing; the
 * controller is normalised so the sequence is the only traffic: 1:1 clocks
 * (tCK 1000 ps, core 1000 MHz, so an event's core cycle is its DRAM cycle),
 * a line of one burst, channel queues with watermark drain, open page, no
 * row-hit cap, no refresh (except in the refresh tests). Files are read
 * from configs/dram/ relative to the working directory (the repository
 * root, as make test runs the tests).
 */
#include <stdio.h>

#include "dram/dram_ini.h"
#include "dram/dram_int.h" /* bank.pre_at: an auto-precharge has no command slot and no event of its own cycle */
#include "test_dram_harness.h"

/* ---- presets --------------------------------------------------------------- */

enum { P_HARNESS, P_JSON, P_INI };

struct preset {
	const char *name; /* file under configs/dram/, or "harness" */
	int kind;
};

static const struct preset presets[] = {
	{"harness", P_HARNESS},       {"gddr5.json", P_JSON},      {"hbm2.json", P_JSON},
	{"ddr4-3200.ini", P_INI},     {"gddr6-14000.ini", P_INI},  {"hbm2-2000.ini", P_INI},
	{"lpddr4-3200.ini", P_INI},
};
#define NPRESETS ARRAY_LEN(presets)

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n < 2) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*len = n;
	}
	return buf;
}

/* The JSON presets of configs/dram/ are nested objects of strings, numbers
 * and booleans; the engine has no JSON reader (load/loader.c is above it),
 * so this walks that subset and applies every scalar under "dram" with
 * cfg_set_value, as the loader does. -1 on anything else. */
struct jw {
	const char *p;
	struct sim_cfg *cfg;
	char *err;
};

static void jw_ws(struct jw *j)
{
	while (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r')
		j->p++;
}

static int jw_value(struct jw *j, char *path, size_t plen);

static int jw_object(struct jw *j, char *path, size_t plen)
{
	j->p++; /* '{' */
	jw_ws(j);
	if (*j->p == '}') {
		j->p++;
		return 0;
	}
	for (;;) {
		jw_ws(j);
		if (*j->p != '"')
			return -1;
		const char *k = ++j->p;
		while (*j->p && *j->p != '"')
			j->p++;
		if (!*j->p)
			return -1;
		size_t kl = (size_t)(j->p - k), n = plen;
		j->p++;
		if (n + kl + 2 >= 256)
			return -1;
		if (n)
			path[n++] = '.';
		memcpy(path + n, k, kl);
		path[n + kl] = 0;
		jw_ws(j);
		if (*j->p++ != ':')
			return -1;
		jw_ws(j);
		if (jw_value(j, path, n + kl))
			return -1;
		path[plen] = 0;
		jw_ws(j);
		if (*j->p == ',') {
			j->p++;
			continue;
		}
		if (*j->p == '}') {
			j->p++;
			return 0;
		}
		return -1;
	}
}

static int jw_value(struct jw *j, char *path, size_t plen)
{
	if (*j->p == '{')
		return jw_object(j, path, plen);
	char text[128];
	size_t n = 0;
	if (*j->p == '"') {
		for (j->p++; *j->p && *j->p != '"'; j->p++)
			if (n + 1 < sizeof text)
				text[n++] = *j->p;
		if (*j->p++ != '"')
			return -1;
	} else {
		while (*j->p && !strchr(",} \n\t\r", *j->p))
			if (n + 1 < sizeof text)
				text[n++] = *j->p++;
			else
				return -1;
		if (!n)
			return -1;
	}
	text[n] = 0;
	if (strncmp(path, "dram.", 5) != 0)
		return 0; /* "description" */
	return cfg_set_value(j->cfg, path, text, &j->err);
}

/* Fill cfg from the preset and normalise the controller (see the top). */
static bool preset_cfg(const struct preset *p, struct sim_cfg *cfg)
{
	dh_cfg(cfg);
	if (p->kind != P_HARNESS) {
		char path[256];
		size_t len = 0;
		snprintf(path, sizeof path, "configs/dram/%s", p->name);
		char *text = slurp(path, &len);
		if (!text) {
			test_fail(__FILE__, __LINE__, "%s: cannot read (run from the repository root)", path);
			return false;
		}
		char *err = NULL;
		int rc;
		if (p->kind == P_INI) {
			rc = dram_ini_apply(cfg, text, len, path, NULL, &err);
		} else {
			struct jw j = {.p = text, .cfg = cfg};
			char kp[256] = "";
			while (*j.p && *j.p != '{')
				j.p++;
			rc = *j.p ? jw_value(&j, kp, 0) : -1;
			err = j.err;
		}
		free(text);
		if (rc) {
			test_fail(__FILE__, __LINE__, "%s: %s", path, err ? err : "not a JSON object of dram.* values");
			free(err);
			return false;
		}
	}
	struct dram_cfg *d = &cfg->dram;
	cfg->core.clock_mhz = 1000;
	d->tck_ps = 1000;
	cfg->l2.line = cfg->l1.line = d->bus_bytes * d->burst;
	d->queue_model = DRAM_QUEUE_CHANNEL;
	d->write_drain = DRAM_DRAIN_WATERMARK;
	d->page_policy = DRAM_PAGE_OPEN;
	d->row_hit_cap = 0;
	d->refresh = DRAM_REFRESH_NONE;
	d->page_alloc = DRAM_ALLOC_INTERLEAVE;
	d->bank_xor = false;
	d->page_colour = false;
	return true;
}

/* dh_init without failing the test: a control config may be refused. */
static bool try_init(struct dh *h, char **err)
{
	memset(&h->arena, 0, sizeof h->arena);
	arena_init(&h->arena);
	h->now = 0;
	h->ndone = 0;
	memset(h->done_at, 0xff, sizeof h->done_at);
	stats_init(&h->st, &h->now);
	events_init(&h->ev, &h->arena, 4096, &h->now);
	h->d = dram_new(&h->arena, &h->cfg, &h->st, &h->ev, &h->now, err);
	if (!h->d || addrmap_init(&h->map, &h->cfg.dram, err)) {
		dh_fini(h);
		return false;
	}
	stats_freeze(&h->st, &h->arena);
	events_log_all(&h->ev, true);
	return true;
}

/* ---- command log ------------------------------------------------------------ */

/* The DRAM cycle of a command event: dram_tick steps the DRAM cycles before
 * the current core cycle, so (1:1 clocks) cycle t's commands carry t + 1. */
static int64_t ev_cyc(const struct event *e) { return (int64_t)e->cycle - 1; }

/* Cycle of the n-th (from 0) command `kind` to bank `bank` (-1: any bank),
 * oldest first; -1 when there is none. */
static int64_t cmd_at(const struct dh *h, unsigned kind, int bank, unsigned n)
{
	uint64_t total = events_logged(&h->ev);
	for (uint64_t i = total; i-- > 0;) {
		const struct event *e = events_recent(&h->ev, i);
		if (!e || e->kind != kind || (bank >= 0 && e->bank != bank))
			continue;
		if (n-- == 0)
			return ev_cyc(e);
	}
	return -1;
}

static uint32_t tag_n;

/* Enqueue now, or (queue full) as soon as the queue takes it. */
static void rq_rank(struct dh *h, unsigned rank, unsigned bank, unsigned row, unsigned col, bool w)
{
	struct dram_addr x = {.ch = 0, .rank = rank, .bank = bank, .row = row, .col = col};
	uint64_t a = addrmap_encode(&h->map, &x);
	while (!dram_can_accept(h->d, a, w)) {
		dh_pop(h);
		h->now++;
	}
	dram_enqueue(h->d, a, w, tag_n++);
}

static void rq(struct dh *h, unsigned bank, unsigned row, unsigned col, bool w) { rq_rank(h, 0, bank, row, col, w); }

static void idle(struct dh *h) { dh_run(h, 0, false); }

/* Step one cycle at a time until `kind` has issued to bank (n-th time),
 * leaving now at the cycle after it. */
static bool until_cmd(struct dh *h, unsigned kind, int bank, unsigned n)
{
	for (unsigned i = 0; i < 100000; i++) {
		dh_pop(h);
		h->now++;
		if (cmd_at(h, kind, bank, n) >= 0)
			return true;
	}
	return false;
}

/* The two ends of the measured spacing, kept for slot_after(). */
static int64_t g_from, g_to;

static int64_t gap(int64_t a, int64_t b)
{
	g_from = a;
	g_to = b;
	return a < 0 || b < 0 ? -1 : b - a;
}

/* One command per cycle: the first cycle at or after t that no command
 * other than the measured one (at g_to) took. A rule's command issues
 * there when another command of the sequence won the rule's own cycle. */
static int64_t slot_after(const struct dh *h, int64_t t)
{
	static const unsigned kinds[] = {EV_DRAM_ACT, EV_DRAM_PRE, EV_DRAM_RD, EV_DRAM_WR, EV_DRAM_REF};
	for (;; t++) {
		bool taken = false;
		uint64_t total = events_logged(&h->ev);
		for (uint64_t i = 0; i < total && !taken; i++) {
			const struct event *e = events_recent(&h->ev, i);
			for (size_t k = 0; e && k < ARRAY_LEN(kinds) && !taken; k++)
				taken = e->kind == kinds[k] && ev_cyc(e) == t && t != g_to;
		}
		if (!taken)
			return t;
	}
}

/* ---- the rules ---------------------------------------------------------------- */

/* Banks: b_other is in another bank group than bank 0 (when there are
 * groups), b_same in the same one (bank = group + k * bank_groups). */
static unsigned b_same(const struct dh *h) { return (unsigned)h->cfg.dram.bank_groups; }

struct rule {
	const char *name;
	int *(*param)(struct dram_timing *t); /* the parameter the rule is about */
	/* expected spacing = off(cfg) + param */
	int (*off)(const struct sim_cfg *c);
	/* smallest legal value for the control run */
	int (*low)(const struct sim_cfg *c);
	/* the sequence: returns the measured spacing, -1 if a command is missing */
	int64_t (*run)(struct dh *h);
	bool needs_groups; /* only meaningful with bank_groups > 1 */
	bool data;         /* ends at the data, not at a command (no command slot) */
	/* The presets on which the rule binds natively ("*": every preset it
	 * applies to); elsewhere only its variant binds. Checked both ways, so a
	 * bug that stops the rule binding (or a preset change) names the preset. */
	const char *native;
	void (*prep)(struct sim_cfg *c); /* organisation the sequence needs (NULL: the preset's) */
};

static int tbl(const struct sim_cfg *c) { return c->dram.burst / c->dram.data_rate; }
static int off0(const struct sim_cfg *c) { (void)c; return 0; }
static int low1(const struct sim_cfg *c) { (void)c; return 1; }
static int low0(const struct sim_cfg *c) { (void)c; return 0; }

/* tRCD: ACT -> RD, same bank */
static int *p_rcd(struct dram_timing *t) { return &t->tRCD; }
static int64_t run_rcd(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_RD, 0, 0));
}

/* tRCDWR: ACT -> WR, same bank (tRCD when 0) */
static int *p_rcdwr(struct dram_timing *t) { return t->tRCDWR ? &t->tRCDWR : &t->tRCD; }
static int low_rcdwr(const struct sim_cfg *c) { return c->dram.timing.tRCDWR ? 1 : 1; }
static int64_t run_rcdwr(struct dh *h)
{
	rq(h, 0, 1, 0, true);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_WR, 0, 0));
}

/* tRAS: ACT -> PRE, same bank (a read then a conflicting read) */
static int *p_ras(struct dram_timing *t) { return &t->tRAS; }
static int low_ras(const struct sim_cfg *c)
{
	int r = c->dram.timing.tRCD, w = c->dram.timing.tRCDWR;
	return w > r ? w : r;
}
static int64_t run_ras(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	rq(h, 0, 2, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_PRE, 0, 0));
}

/* tRP: PRE -> ACT, same bank; the conflicting read comes once tRC is long past */
static int *p_rp(struct dram_timing *t) { return &t->tRP; }
static int64_t run_rp(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	idle(h);
	dh_run(h, h->now + (uint64_t)h->cfg.dram.timing.tRC + 1, false);
	rq(h, 0, 2, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_PRE, 0, 0), cmd_at(h, EV_DRAM_ACT, 0, 1));
}

/* tRC: ACT -> ACT, same bank */
static int *p_rc(struct dram_timing *t) { return &t->tRC; }
static int low_rc(const struct sim_cfg *c) { return c->dram.timing.tRAS + c->dram.timing.tRP; }
static int64_t run_rc(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	rq(h, 0, 2, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_ACT, 0, 1));
}

/* tRRD (tRRD_S): ACT -> ACT, banks of different groups */
static int *p_rrd(struct dram_timing *t) { return &t->tRRD; }
static int64_t run_rrd(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	rq(h, 1, 1, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_ACT, 1, 0));
}

/* tRRD_L: ACT -> ACT, two banks of one group */
static int *p_rrdl(struct dram_timing *t) { return &t->tRRD_L; }
static int low_rrdl(const struct sim_cfg *c) { return c->dram.timing.tRRD; }
static int64_t run_rrdl(struct dh *h)
{
	unsigned b = b_same(h);
	rq(h, 0, 1, 0, false);
	rq(h, b, 1, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_ACT, (int)b, 0));
}

/* tFAW: the fifth ACT of a rank, from the first (banks 0..4) */
static int *p_faw(struct dram_timing *t) { return &t->tFAW; }
static int64_t run_faw(struct dh *h)
{
	for (unsigned b = 0; b < 5; b++)
		rq(h, b, 1, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, 0, 0), cmd_at(h, EV_DRAM_ACT, 4, 0));
}

/* t32AW: the 33rd ACT of a rank, from the first (rows reopened round the banks) */
static int *p_32aw(struct dram_timing *t) { return &t->t32AW; }
static int64_t run_32aw(struct dh *h)
{
	unsigned nb = (unsigned)h->cfg.dram.banks;
	for (unsigned i = 0; i < 33; i++)
		rq(h, i % nb, 1 + i / nb, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_ACT, -1, 0), cmd_at(h, EV_DRAM_ACT, -1, 32));
}

/* Open row 1 of banks 0 and b, wait until every bank rule is long over. */
static void open_two(struct dh *h, unsigned b)
{
	rq(h, 0, 1, 0, false);
	rq(h, b, 1, 0, false);
	idle(h);
	dh_run(h, h->now + (uint64_t)h->cfg.dram.timing.tRC + 1, false);
}

/* tCCD (tCCD_S): RD -> RD, banks of different groups (rows open) */
static int *p_ccd(struct dram_timing *t) { return &t->tCCD; }
static int64_t run_ccd(struct dh *h)
{
	open_two(h, 1);
	rq(h, 0, 1, 1, false);
	rq(h, 1, 1, 1, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_RD, 0, 1), cmd_at(h, EV_DRAM_RD, 1, 1));
}

/* tCCD_L: RD -> RD, two banks of one group (rows open) */
static int *p_ccdl(struct dram_timing *t) { return &t->tCCD_L; }
static int low_ccdl(const struct sim_cfg *c) { return c->dram.timing.tCCD; }
static int64_t run_ccdl(struct dh *h)
{
	unsigned b = b_same(h);
	open_two(h, b);
	rq(h, 0, 1, 1, false);
	rq(h, b, 1, 1, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_RD, 0, 1), cmd_at(h, EV_DRAM_RD, (int)b, 1));
}

/* Write-to-read: WR to bank 0, then a read of bank b (row open) arriving
 * the cycle after the WR. Spacing WR -> RD. */
static int64_t wr_then_rd(struct dh *h, unsigned b)
{
	open_two(h, b);
	rq(h, 0, 1, 1, true);
	if (!until_cmd(h, EV_DRAM_WR, 0, 0))
		return -1;
	rq(h, b, 1, 1, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_WR, 0, 0), cmd_at(h, EV_DRAM_RD, (int)b, 1));
}

/* tWTR (tWTR_S): end of write data -> RD, another bank group */
static int wr_end(const struct sim_cfg *c) { return c->dram.timing.tCWL + tbl(c); }
static int *p_wtr(struct dram_timing *t) { return &t->tWTR; }
static int64_t run_wtr(struct dh *h) { return wr_then_rd(h, h->cfg.dram.bank_groups > 1 ? 1 : 1); }

/* tWTR_L: the same within the bank group */
static int *p_wtrl(struct dram_timing *t) { return &t->tWTR_L; }
static int low_wtrl(const struct sim_cfg *c) { return c->dram.timing.tWTR; }
static int64_t run_wtrl(struct dh *h) { return wr_then_rd(h, b_same(h)); }

/* tWR: end of write data -> PRE, same bank (the row was opened long before) */
static int *p_wr(struct dram_timing *t) { return &t->tWR; }
static int64_t run_wr(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	idle(h);
	dh_run(h, h->now + (uint64_t)h->cfg.dram.timing.tRC + 1, false);
	rq(h, 0, 1, 1, true);
	if (!until_cmd(h, EV_DRAM_WR, 0, 0))
		return -1;
	rq(h, 0, 2, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_WR, 0, 0), cmd_at(h, EV_DRAM_PRE, 0, 0));
}

/* tRTP: RD -> PRE, same bank (the row was opened long before) */
static int *p_rtp(struct dram_timing *t) { return &t->tRTP; }
static int64_t run_rtp(struct dh *h)
{
	rq(h, 0, 1, 0, false);
	idle(h);
	dh_run(h, h->now + (uint64_t)h->cfg.dram.timing.tRC + 1, false);
	rq(h, 0, 1, 1, false);
	rq(h, 0, 2, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_RD, 0, 1), cmd_at(h, EV_DRAM_PRE, 0, 0));
}

/* tRTW: RD -> WR, any bank of the channel (the write arrives after the RD) */
static int *p_rtw(struct dram_timing *t) { return &t->tRTW; }
static int low_rtw(const struct sim_cfg *c) { return c->dram.timing.tCL + tbl(c) - c->dram.timing.tCWL; }
static int64_t run_rtw(struct dh *h)
{
	open_two(h, 1);
	rq(h, 0, 1, 1, false);
	if (!until_cmd(h, EV_DRAM_RD, 0, 1))
		return -1;
	rq(h, 1, 1, 1, true);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_RD, 0, 1), cmd_at(h, EV_DRAM_WR, 1, 0));
}

/* tPPD: PRE -> PRE, two banks of a rank */
static int *p_ppd(struct dram_timing *t) { return &t->tPPD; }
static int64_t run_ppd(struct dh *h)
{
	open_two(h, 1);
	rq(h, 0, 2, 0, false);
	rq(h, 1, 2, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_PRE, 0, 0), cmd_at(h, EV_DRAM_PRE, 1, 0));
}

/* tCL: RD -> end of its data (tCL + tBL): the completion cycle */
static int *p_cl(struct dram_timing *t) { return &t->tCL; }
static int off_bl(const struct sim_cfg *c) { return tbl(c); }
static int64_t run_cl(struct dh *h)
{
	uint32_t tag = tag_n;
	rq(h, 0, 1, 0, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_RD, 0, 0), (int64_t)h->done_at[tag]);
}

/* tCWL: WR -> end of its data (tCWL + tBL) */
static int *p_cwl(struct dram_timing *t) { return &t->tCWL; }
static int64_t run_cwl(struct dh *h)
{
	uint32_t tag = tag_n;
	rq(h, 0, 1, 0, true);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_WR, 0, 0), (int64_t)h->done_at[tag]);
}

/* Rank variants: two ranks (the preset's mapping with a rank field above the
 * banks); channel bank index of (rank, bank) is rank * banks + bank. */
static void two_ranks(struct sim_cfg *c)
{
	c->dram.ranks = 2;
	strcpy(c->dram.mapping, "row:rank:bank:ch:col");
}

static int rbank(const struct dh *h, unsigned rank, unsigned bank) { return (int)(rank * (unsigned)h->cfg.dram.banks + bank); }

/* tRTRS: RD rank 0 -> RD rank 1 (rows open): the second burst starts tRTRS
 * after the first one ends, so the RDs are tBL + tRTRS apart */
static int *p_rtrs(struct dram_timing *t) { return &t->tRTRS; }
static int64_t run_rtrs(struct dh *h)
{
	rq_rank(h, 0, 0, 1, 0, false);
	rq_rank(h, 1, 0, 1, 0, false);
	idle(h);
	dh_run(h, h->now + (uint64_t)h->cfg.dram.timing.tRC + 1, false);
	rq_rank(h, 0, 0, 1, 1, false);
	rq_rank(h, 1, 0, 1, 1, false);
	idle(h);
	return gap(cmd_at(h, EV_DRAM_RD, rbank(h, 0, 0), 1), cmd_at(h, EV_DRAM_RD, rbank(h, 1, 0), 1));
}

static const struct rule rules[] = {
	{"tRCD", p_rcd, off0, low1, run_rcd, false, false, "*", NULL},
	{"tRCDWR", p_rcdwr, off0, low_rcdwr, run_rcdwr, false, false, "*", NULL},
	{"tRAS", p_ras, off0, low_ras, run_ras, false, false, "*", NULL},
	{"tRP", p_rp, off0, low1, run_rp, false, false, "*", NULL},
	{"tRC", p_rc, off0, low_rc, run_rc, false, false, "", NULL},
	{"tRRD_S", p_rrd, off0, low1, run_rrd, false, false, "*", NULL},
	{"tRRD_L", p_rrdl, off0, low_rrdl, run_rrdl, true, false, "ddr4-3200.ini gddr6-14000.ini hbm2-2000.ini", NULL},
	{"tFAW", p_faw, off0, low0, run_faw, false, false, "harness hbm2.json ddr4-3200.ini gddr6-14000.ini", NULL},
	{"t32AW", p_32aw, off0, low0, run_32aw, false, false, "gddr6-14000.ini", NULL},
	{"tCCD_S", p_ccd, off0, low1, run_ccd, false, false, "harness gddr6-14000.ini", NULL},
	{"tCCD_L", p_ccdl, off0, low_ccdl, run_ccdl, true, false, "*", NULL},
	{"tWTR_S", p_wtr, wr_end, low0, run_wtr, false, false, "*", NULL},
	{"tWTR_L", p_wtrl, wr_end, low_wtrl, run_wtrl, true, false, "ddr4-3200.ini gddr6-14000.ini hbm2-2000.ini", NULL},
	{"tWR", p_wr, wr_end, low0, run_wr, false, false, "*", NULL},
	{"tRTP", p_rtp, off0, low0, run_rtp, false, false, "*", NULL},
	{"tRTW", p_rtw, off0, low_rtw, run_rtw, false, false, "*", NULL},
	{"tPPD", p_ppd, off0, low0, run_ppd, false, false, "gddr6-14000.ini lpddr4-3200.ini", NULL},
	{"tCL", p_cl, off_bl, low1, run_cl, false, true, "*", NULL},
	{"tCWL", p_cwl, off_bl, low1, run_cwl, false, true, "*", NULL},
	{"tRTRS", p_rtrs, off_bl, low0, run_rtrs, false, false, "gddr5.json hbm2.json ddr4-3200.ini hbm2-2000.ini lpddr4-3200.ini", two_ranks},
};

/* The cross-field rules of dram_cfg.c, restored after one parameter moved. */
static void fix_rules(struct dram_timing *t, const struct sim_cfg *c)
{
	if (t->tRAS < t->tRCD)
		t->tRAS = t->tRCD;
	if (t->tRCDWR > t->tRAS)
		t->tRAS = t->tRCDWR;
	if (t->tRC < t->tRAS + t->tRP)
		t->tRC = t->tRAS + t->tRP;
	if (t->tRRD_L < t->tRRD)
		t->tRRD_L = t->tRRD;
	if (t->tCCD_L < t->tCCD)
		t->tCCD_L = t->tCCD;
	if (t->tWTR_L < t->tWTR)
		t->tWTR_L = t->tWTR;
	if (t->tFAW && t->tFAW < t->tRRD)
		t->tFAW = t->tRRD;
	if (t->t32AW && t->t32AW < t->tFAW)
		t->t32AW = t->tFAW;
	if (t->tRTW < t->tCL + tbl(c) - t->tCWL)
		t->tRTW = t->tCL + tbl(c) - t->tCWL;
}

/* Run rule r's sequence on cfg; -1 (and *err) when the config is refused.
 * want > 0: *expect is the spacing the rule demands, moved to the next
 * free command slot (a command of the sequence may own the rule's cycle). */
static int64_t run_on(const struct rule *r, const struct sim_cfg *cfg, int want, int64_t *expect, char **err)
{
	struct dh h;
	h.cfg = *cfg;
	if (!try_init(&h, err))
		return -1;
	tag_n = 0;
	int64_t s = r->run(&h);
	if (expect)
		*expect = s >= 0 && !r->data ? slot_after(&h, g_from + want) - g_from : want;
	dh_fini(&h);
	return s;
}

/* The rule on every preset: returns how many presets bound it (natively
 * or as a variant), with JSON and .ini counted in *json / *ini. */
static unsigned check_rule(const struct rule *r, unsigned *json, unsigned *ini)
{
	unsigned bound = 0;
	*json = *ini = 0;
	for (size_t i = 0; i < NPRESETS; i++) {
		const struct preset *p = &presets[i];
		struct sim_cfg cfg, ctl;
		if (!preset_cfg(p, &cfg))
			continue;
		if (r->prep)
			r->prep(&cfg);
		if (r->needs_groups && cfg.dram.bank_groups < 2)
			continue;
		if (cfg.dram.banks < 5 || (r->needs_groups && cfg.dram.banks < 2 * cfg.dram.bank_groups))
			continue;
		char *err = NULL;
		/* control: the parameter at its smallest legal value */
		ctl = cfg;
		*r->param(&ctl.dram.timing) = r->low(&ctl);
		fix_rules(&ctl.dram.timing, &ctl);
		int64_t natural = run_on(r, &ctl, 0, NULL, &err);
		if (natural < 0) {
			test_fail(__FILE__, __LINE__, "%s on %s (control): %s", r->name, p->name,
				  err ? err : "a command of the sequence never issued");
			free(err);
			continue;
		}
		bool variant = false;
		int want = r->off(&cfg) + *r->param(&cfg.dram.timing);
		char key[64];
		snprintf(key, sizeof key, " %s ", p->name);
		char list[256];
		snprintf(list, sizeof list, " %s ", r->native);
		bool listed = strcmp(r->native, "*") == 0 || strstr(list, key);
		if (listed != (natural < want))
			test_fail(__FILE__, __LINE__, "%s on %s: %s natively (control spacing %lld, rule %d), the table says it %s",
				  r->name, p->name, natural < want ? "binds" : "does not bind", (long long)natural, want,
				  listed ? "does" : "does not");
		if (natural >= want) { /* not binding here: raise the parameter above the control */
			variant = true;
			*r->param(&cfg.dram.timing) += (int)(natural - want) + 3;
			fix_rules(&cfg.dram.timing, &cfg);
			want = r->off(&cfg) + *r->param(&cfg.dram.timing);
		}
		int64_t expect = -1;
		int64_t got = run_on(r, &cfg, want, &expect, &err);
		if (got != expect) {
			test_fail(__FILE__, __LINE__, "%s on %s%s: spacing %lld, want %lld (%s%d, control %lld)%s%s", r->name,
				  p->name, variant ? " (variant)" : "", (long long)got, (long long)expect,
				  r->off(&cfg) ? "offset + " : "", *r->param(&cfg.dram.timing), (long long)natural,
				  err ? ": " : "", err ? err : "");
			free(err);
			continue;
		}
		if (getenv("GPUSTEP_RULES_VERBOSE"))
			printf("  %-7s %-16s %s spacing %lld = %d%s (control %lld)\n", r->name, p->name,
			       variant ? "variant" : "native ", (long long)got, want, got != want ? " + command slot" : "",
			       (long long)natural);
		bound++;
		*json += p->kind == P_JSON;
		*ini += p->kind == P_INI;
	}
	return bound;
}

static void rule_test(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(rules); i++) {
		if (strcmp(rules[i].name, name) != 0)
			continue;
		unsigned json, ini;
		unsigned n = check_rule(&rules[i], &json, &ini);
		if (n < 2 || !json || !ini)
			test_fail(__FILE__, __LINE__, "%s bound on %u presets (%u JSON, %u .ini): want a JSON and an .ini", name,
				  n, json, ini);
		return;
	}
	test_fail(__FILE__, __LINE__, "no rule %s", name);
}

TEST(dram_rule_tRCD_act_to_read) { rule_test("tRCD"); }
TEST(dram_rule_tRCDWR_act_to_write) { rule_test("tRCDWR"); }
TEST(dram_rule_tRAS_act_to_pre) { rule_test("tRAS"); }
TEST(dram_rule_tRP_pre_to_act) { rule_test("tRP"); }
TEST(dram_rule_tRC_act_to_act_same_bank) { rule_test("tRC"); }
TEST(dram_rule_tRRD_S_act_to_act_other_group) { rule_test("tRRD_S"); }
TEST(dram_rule_tRRD_L_act_to_act_same_group) { rule_test("tRRD_L"); }
TEST(dram_rule_tFAW_fifth_act) { rule_test("tFAW"); }
TEST(dram_rule_t32AW_33rd_act) { rule_test("t32AW"); }
TEST(dram_rule_tCCD_S_col_to_col_other_group) { rule_test("tCCD_S"); }
TEST(dram_rule_tCCD_L_col_to_col_same_group) { rule_test("tCCD_L"); }
TEST(dram_rule_tWTR_S_write_data_end_to_read) { rule_test("tWTR_S"); }
TEST(dram_rule_tWTR_L_write_data_end_to_read_same_group) { rule_test("tWTR_L"); }
TEST(dram_rule_tWR_write_data_end_to_pre) { rule_test("tWR"); }
TEST(dram_rule_tRTP_read_to_pre) { rule_test("tRTP"); }
TEST(dram_rule_tRTW_read_to_write) { rule_test("tRTW"); }
TEST(dram_rule_tPPD_pre_to_pre) { rule_test("tPPD"); }
TEST(dram_rule_tCL_read_to_data_end) { rule_test("tCL"); }
TEST(dram_rule_tCWL_write_to_data_end) { rule_test("tCWL"); }
TEST(dram_rule_tRTRS_rank_switch_on_the_bus) { rule_test("tRTRS"); }

/* The per-rank rules do not cross ranks: on two ranks, ACTs of the two
 * ranks are one command slot apart (no tRRD), and a fifth ACT in a window
 * of four on rank 0 goes to rank 1 without waiting for tFAW. */
TEST(dram_rule_trrd_tfaw_are_per_rank)
{
	for (size_t i = 0; i < NPRESETS; i++) {
		struct sim_cfg cfg;
		if (!preset_cfg(&presets[i], &cfg))
			continue;
		two_ranks(&cfg);
		struct dh h;
		h.cfg = cfg;
		char *err = NULL;
		if (!try_init(&h, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", presets[i].name, err ? err : "?");
			free(err);
			continue;
		}
		tag_n = 0;
		/* four ACTs on rank 0 (different groups when there are some), then rank 1 */
		for (unsigned b = 0; b < 4; b++)
			rq_rank(&h, 0, b, 1, 0, false);
		rq_rank(&h, 1, 0, 1, 0, false);
		idle(&h);
		int64_t a0 = cmd_at(&h, EV_DRAM_ACT, rbank(&h, 0, 0), 0), a3 = cmd_at(&h, EV_DRAM_ACT, rbank(&h, 0, 3), 0);
		int64_t r1 = cmd_at(&h, EV_DRAM_ACT, rbank(&h, 1, 0), 0);
		/* rank 1's ACT takes the first free command slot: it is never held by
		 * rank 0's tRRD chain or tFAW window, so it issues before rank 0's
		 * fourth ACT (which waits 3 x tRRD_S at least) unless tRRD_S is 1 */
		g_to = r1;
		int64_t want = slot_after(&h, a0 + 1);
		if (r1 != want)
			test_fail(__FILE__, __LINE__, "%s: rank 1's ACT at %lld, want the first free slot after rank 0's first ACT (%lld): %lld (rank 0's fourth ACT at %lld)",
				  presets[i].name, (long long)r1, (long long)a0, (long long)want, (long long)a3);
		dh_fini(&h);
	}
}

/* ---- refresh: tREFI, tRFC, tRFCpb ---------------------------------------------- */

/* A read to bank 0 arriving the cycle its first refresh falls due: the REF
 * issues then (tREFI, or tREFI / banks per bank), and the ACT follows it by
 * tRFC (tRFCpb). On every preset, with the preset's own refresh values. */
static void refresh_case(const struct preset *p, int mode, unsigned *ok)
{
	struct sim_cfg cfg;
	if (!preset_cfg(p, &cfg))
		return;
	cfg.dram.refresh = mode;
	struct dh h;
	h.cfg = cfg;
	char *err = NULL;
	if (!try_init(&h, &err)) {
		test_fail(__FILE__, __LINE__, "%s: %s", p->name, err ? err : "?");
		free(err);
		return;
	}
	const struct dram_timing *t = &cfg.dram.timing;
	uint64_t nb = (uint64_t)cfg.dram.banks * (uint64_t)cfg.dram.ranks;
	uint64_t due = mode == DRAM_REFRESH_PER_BANK ? (uint64_t)t->tREFI / nb : (uint64_t)t->tREFI;
	int dur = mode == DRAM_REFRESH_PER_BANK ? t->tRFCpb : t->tRFC;
	h.now = due;
	tag_n = 0;
	rq(&h, 0, 1, 0, false);
	idle(&h);
	int64_t ref = cmd_at(&h, EV_DRAM_REF, -1, 0), act = cmd_at(&h, EV_DRAM_ACT, 0, 0);
	if (ref != (int64_t)due || act - ref != dur)
		test_fail(__FILE__, __LINE__, "%s %s refresh: REF at %lld, want %llu (tREFI %d%s); ACT %lld after it, want %d",
			  p->name, mode == DRAM_REFRESH_PER_BANK ? "per-bank" : "all-bank", (long long)ref,
			  (unsigned long long)due, t->tREFI, mode == DRAM_REFRESH_PER_BANK ? " / banks" : "",
			  (long long)(act - ref), dur);
	else
		(*ok)++;
	dh_fini(&h);
}

TEST(dram_rule_tRFC_tREFI_all_bank_refresh)
{
	unsigned ok = 0;
	for (size_t i = 0; i < NPRESETS; i++)
		refresh_case(&presets[i], DRAM_REFRESH_ALL_BANK, &ok);
	CHECK_EQ(ok, NPRESETS);
}

TEST(dram_rule_tRFCpb_tREFI_per_bank_refresh)
{
	unsigned ok = 0;
	for (size_t i = 0; i < NPRESETS; i++)
		refresh_case(&presets[i], DRAM_REFRESH_PER_BANK, &ok);
	CHECK_EQ(ok, NPRESETS);
}

/* ---- row-buffer policies ---------------------------------------------------- */

/* One read to a closed bank, then (after idling past every bank rule) a
 * second read of the same row. open: the row stays open, the second read
 * is a hit (RD at its arrival, no PRE, no second ACT). closed: the read
 * auto-precharges as soon as tRAS and tRTP allow; the second read is a
 * miss. timeout (page_timeout = tRAS + 5): PRE at the later of that and the
 * last column command + page_timeout. */
static void policy_case(const struct preset *p, int policy)
{
	struct sim_cfg cfg;
	if (!preset_cfg(p, &cfg))
		return;
	cfg.dram.page_policy = policy;
	const struct dram_timing *t = &cfg.dram.timing;
	cfg.dram.page_timeout = t->tRAS + 5;
	struct dh h;
	h.cfg = cfg;
	char *err = NULL;
	if (!try_init(&h, &err)) {
		test_fail(__FILE__, __LINE__, "%s: %s", p->name, err ? err : "?");
		free(err);
		return;
	}
	tag_n = 0;
	rq(&h, 0, 1, 0, false);
	idle(&h);
	dh_run(&h, h.now + (uint64_t)t->tRC + (uint64_t)cfg.dram.page_timeout + 1, false);
	uint64_t second = h.now;
	int64_t auto_pre = (int64_t)h.d->ch[0].bank[0].pre_at;
	rq(&h, 0, 1, 1, false);
	idle(&h);
	int64_t act = cmd_at(&h, EV_DRAM_ACT, 0, 0), rd = cmd_at(&h, EV_DRAM_RD, 0, 0);
	int64_t pre = cmd_at(&h, EV_DRAM_PRE, 0, 0), act2 = cmd_at(&h, EV_DRAM_ACT, 0, 1);
	int64_t rd2 = cmd_at(&h, EV_DRAM_RD, 0, 1);
	int64_t tp = act + t->tRAS > rd + t->tRTP ? act + t->tRAS : rd + t->tRTP;
	switch (policy) {
	case DRAM_PAGE_OPEN:
		if (pre >= 0 || act2 >= 0 || rd2 != (int64_t)second)
			test_fail(__FILE__, __LINE__, "%s open: PRE %lld, second ACT %lld (want none), second RD %lld (want %llu)",
				  p->name, (long long)pre, (long long)act2, (long long)rd2, (unsigned long long)second);
		CHECK_EQ(dh_stat(&h, "dram.row_hits"), 1);
		break;
	case DRAM_PAGE_CLOSED:
		/* the auto-precharge's event carries the RD's cycle; its own is pre_at */
		pre = auto_pre;
		if (pre != tp || act2 != (int64_t)second)
			test_fail(__FILE__, __LINE__, "%s closed: PRE %lld, want %lld (max(ACT + tRAS, RD + tRTP)); second ACT %lld, want %llu",
				  p->name, (long long)pre, (long long)tp, (long long)act2, (unsigned long long)second);
		CHECK_EQ(dh_stat(&h, "dram.row_hits"), 0);
		break;
	default: {
		int64_t want = rd + cfg.dram.page_timeout > tp ? rd + cfg.dram.page_timeout : tp;
		if (pre != want || act2 != (int64_t)second)
			test_fail(__FILE__, __LINE__, "%s timeout: PRE %lld, want %lld (RD + page_timeout %d); second ACT %lld, want %llu",
				  p->name, (long long)pre, (long long)want, cfg.dram.page_timeout, (long long)act2,
				  (unsigned long long)second);
		break;
	}
	}
	dh_fini(&h);
}

TEST(dram_rule_page_open_keeps_row)
{
	for (size_t i = 0; i < NPRESETS; i++)
		policy_case(&presets[i], DRAM_PAGE_OPEN);
}

TEST(dram_rule_page_closed_precharges_at_tras_trtp)
{
	for (size_t i = 0; i < NPRESETS; i++)
		policy_case(&presets[i], DRAM_PAGE_CLOSED);
}

TEST(dram_rule_page_timeout_precharges_after_timeout)
{
	for (size_t i = 0; i < NPRESETS; i++)
		policy_case(&presets[i], DRAM_PAGE_TIMEOUT);
}

/* ---- FR-FCFS row-hit cap ------------------------------------------------------ */

/* row_hit_cap = 2. Row 1 of bank 0 was opened (one read) long ago; then an
 * older miss (row 2) and four younger hits (row 1) arrive together. FR-FCFS
 * serves hits first until the row has served `cap` requests since its ACT;
 * then it wants the miss's PRE, but (DRAMSim3's semantics) a hit that is
 * legal before the PRE still goes first. The PRE is legal tRTP after the
 * last RD; the next hit tCCD_L (at least the burst, tBL) after it. So the
 * RDs before the PRE are: 2 (the cap) when max(tCCD_L, tBL) >= tRTP, else
 * all 5. */
static void cap_case(const struct preset *p, unsigned *capped, unsigned *through)
{
	struct sim_cfg cfg;
	if (!preset_cfg(p, &cfg))
		return;
	const unsigned cap = 2, hits = 4;
	cfg.dram.scheduler = DRAM_SCHED_FRFCFS;
	cfg.dram.row_hit_cap = (int)cap;
	struct dh h;
	h.cfg = cfg;
	char *err = NULL;
	if (!try_init(&h, &err)) {
		test_fail(__FILE__, __LINE__, "%s: %s", p->name, err ? err : "?");
		free(err);
		return;
	}
	const struct dram_timing *t = &cfg.dram.timing;
	tag_n = 0;
	rq(&h, 0, 1, 0, false);
	idle(&h);
	dh_run(&h, h.now + (uint64_t)t->tRC + 1, false);
	rq(&h, 0, 2, 0, false);
	for (unsigned i = 1; i <= hits; i++)
		rq(&h, 0, 1, i, false);
	idle(&h);
	int64_t pre = cmd_at(&h, EV_DRAM_PRE, 0, 0);
	unsigned before = 0;
	for (unsigned n = 0;; n++) {
		int64_t rd = cmd_at(&h, EV_DRAM_RD, 0, n);
		if (rd < 0 || rd > pre)
			break;
		before++;
	}
	int bl = cfg.dram.burst / cfg.dram.data_rate;
	int ccd = cfg.dram.bank_groups > 1 ? t->tCCD_L : t->tCCD;
	bool runs_through = (ccd > bl ? ccd : bl) < t->tRTP;
	unsigned want = runs_through ? 1 + hits : cap;
	if (pre < 0 || before != want)
		test_fail(__FILE__, __LINE__, "%s: %u RDs before the PRE (at %lld), want %u (cap %u, max(tCCD_L %d, tBL %d) %s tRTP %d)",
			  p->name, before, (long long)pre, want, cap, ccd, bl, runs_through ? "<" : ">=", t->tRTP);
	*capped += !runs_through;
	*through += runs_through;
	dh_fini(&h);
}

TEST(dram_rule_frfcfs_row_hit_cap)
{
	unsigned capped = 0, through = 0;
	for (size_t i = 0; i < NPRESETS; i++)
		cap_case(&presets[i], &capped, &through);
	/* both outcomes occur among the presets */
	CHECK(capped > 0);
	CHECK(through > 0);
}
