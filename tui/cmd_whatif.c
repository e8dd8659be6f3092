/*
 * cmd_whatif.c: `whatif KEY=VALUE [...] [--cycles N | --to-end | --until EVENT
 * ...] [--from-start]`: fork the machine at the current stop with a changed
 * configuration, run both copies over the same span, and say where they part
 * and what moved.
 *
 *            fork at the stop (cycle C)
 *   user's machine ─────────*  (never stepped: same state hash afterwards)
 *                           ├── A: sim_fork(cfg)   ──────────▶ span end
 *                           └── B: sim_fork(cfg')  ──────────▶ span end
 *
 * Both copies log every event kind and run in lockstep chunks; after each
 * chunk their new events are compared in order, so the first pair that
 * differs is where they part (chunks adapt so neither ring, 4096 events,
 * overflows between comparisons). Why the parting warp does what it does on
 * each side is asked on two further forks stepped to the parting cycle.
 *
 * Keys that size or fill the state when the machine is built (fork.h) cannot
 * change mid-run; `--from-start` builds A and B at cycle 0 instead and runs
 * both from there to the same stop condition (cycle C+N, the end, or the
 * first EVENT after cycle C), comparing from cycle 0.
 *
 * The two differ in when B's change takes effect. Mid-run, B is the stepped
 * machine's own history to C with the change applied at C: exactly the run
 * of A's config from cycle 0 whose config is changed in place at C
 * (tests/unit/test_fork_mshr.c), so B's state at C is A's. With
 * --from-start the change holds from cycle 0, B's state at C is in general
 * another one, and A is the stepped machine's config rebuilt (its run, by
 * determinism). At C = 0 the two are the same run. MSHR counts are limits a
 * fork may lower or raise up to the built capacity (fork.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/bp.h"
#include "machine/fork.h"
#include "whatif_int.h"
#include "debug/inspect.h"

#define WI_MAX_KEYS 8
#define WI_TOP 12  /* stats listed under "what moved" */
#define WI_WHY 6   /* links of each why chain shown */

enum wi_span { WI_TO_END, WI_CYCLES, WI_UNTIL };

struct wi_args {
	char keys[WI_MAX_KEYS][128], vals[WI_MAX_KEYS][256];
	int nkeys;
	enum wi_span span;
	uint64_t cycles;
	char until[512];
	bool from_start;
	struct sim_cfg cfg; /* the session's config with the changes */
};

struct wi_side {
	struct sim *s;
	struct bp_set bp;
	bool has_bp;
	bool stopped;
	uint64_t cmp; /* absolute index of its next event to compare */
	enum sim_stop stop;
};

struct wi_last whatif_last; /* front-end only; one session at a time */

static int parse_args(struct session *ss, int argc, char **argv, struct wi_args *w, struct cmd_out *out)
{
	memset(w, 0, sizeof *w);
	w->cfg = ss->cfg;
	int spans = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--from-start") == 0) {
			w->from_start = true;
		} else if (strcmp(a, "--to-end") == 0) {
			w->span = WI_TO_END;
			spans++;
		} else if (strcmp(a, "--cycles") == 0) {
			if (i + 1 >= argc)
				return cmd_usage_why(out, "whatif", "--cycles needs a number of cycles");
			if (cmd_parse_u64(argv[++i], &w->cycles) || w->cycles == 0)
				return cmd_usage_why(out, "whatif", "--cycles: '%s' is not a positive number of cycles", argv[i]);
			w->span = WI_CYCLES;
			spans++;
		} else if (strcmp(a, "--until") == 0) {
			int j = i + 1;
			while (j < argc && strncmp(argv[j], "--", 2) != 0)
				j++;
			if (j == i + 1)
				return cmd_usage_why(out, "whatif", "--until needs an event (see `help events`)");
			cmd_join_args(j, argv, i + 1, w->until, sizeof w->until);
			i = j - 1;
			w->span = WI_UNTIL;
			spans++;
		} else if (strncmp(a, "--", 2) == 0) {
			return cmd_usage_why(out, "whatif", "unknown option '%s'", a);
		} else {
			const char *eq = strchr(a, '=');
			if (!eq || eq == a || !eq[1])
				return cmd_usage_why(out, "whatif", "'%s' is not KEY=VALUE", a);
			if (w->nkeys == WI_MAX_KEYS)
				return cmd_usage_why(out, "whatif", "at most %d changes at once", WI_MAX_KEYS);
			snprintf(w->keys[w->nkeys], sizeof w->keys[0], "%.*s", (int)(eq - a), a);
			snprintf(w->vals[w->nkeys], sizeof w->vals[0], "%s", eq + 1);
			if (strncmp(a, "param.", 6) == 0)
				return cmd_usage_why(out, "whatif", "'%s': kernel parameters change the program, not the machine; use `run 0` and `set`", a);
			char *err = NULL;
			if (cfg_set_value(&w->cfg, w->keys[w->nkeys], w->vals[w->nkeys], &err)) {
				cmd_errorf(out, "whatif: %s", err ? err : a);
				free(err);
				return CMD_ERR;
			}
			w->nkeys++;
		}
	}
	if (!w->nkeys)
		return cmd_usage_why(out, "whatif", "what change? (KEY=VALUE, e.g. l1.mshr.entries=4)");
	if (spans > 1)
		return cmd_usage_why(out, "whatif", "one of --cycles, --to-end, --until");
	char *err = NULL;
	if (cfg_validate(&w->cfg, &err)) {
		cmd_errorf(out, "whatif: %s", err ? err : "invalid configuration");
		free(err);
		return CMD_ERR;
	}
	return CMD_OK;
}

static const char *change_text(const struct wi_args *w, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < w->nkeys && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s=%s", i ? " " : "", w->keys[i], w->vals[i]);
	return buf;
}

/* ---- building the two sides --------------------------------------------- */

/* A machine under cfg: a fork of the session's machine, or
 * (from_start) one built at cycle 0. */
static struct sim *side_new(struct session *ss, const struct sim_cfg *cfg, bool from_start, bool *cfg_ok, char **err)
{
	*cfg_ok = true;
	if (!from_start)
		return sim_fork(ss->sim, cfg, cfg_ok, err);
	return sim_new(cfg, &ss->wl, err);
}

static bool side_at_limit(const struct wi_side *d, uint64_t limit)
{
	return sim_cycle(d->s) >= limit || sim_done(d->s);
}

/* ---- comparing the event streams ---------------------------------------- */

static bool ev_same(const struct event *x, const struct event *y)
{
	return x->cycle == y->cycle && x->kind == y->kind && x->addr == y->addr && x->sm == y->sm && x->warp == y->warp &&
	       x->unit == y->unit && x->ch == y->ch && x->bank == y->bank && x->row == y->row && x->set == y->set &&
	       x->a == y->a && x->b == y->b;
}

/* Event number idx (absolute, 0 = the first ever logged), NULL if the ring
 * no longer holds it. */
static const struct event *ev_at(const struct sim *s, uint64_t idx)
{
	const struct events *ev = sim_events_c(s);
	uint64_t total = events_logged(ev);
	return idx < total ? events_recent(ev, total - 1 - idx) : NULL;
}

/* Compare what both sides logged since the last call. */
static void compare(struct wi_side *a, struct wi_side *b, struct wi_part *p)
{
	if (p->parted || p->lost)
		return;
	uint64_t ta = events_logged(sim_events_c(a->s)), tb = events_logged(sim_events_c(b->s));
	while (a->cmp < ta && b->cmp < tb) {
		const struct event *x = ev_at(a->s, a->cmp), *y = ev_at(b->s, b->cmp);
		if (!x || !y) {
			p->lost = true;
			return;
		}
		if (!ev_same(x, y)) {
			p->parted = p->has_a = p->has_b = true;
			p->a = *x;
			p->b = *y;
			p->cycle = x->cycle < y->cycle ? x->cycle : y->cycle;
			return;
		}
		a->cmp++;
		b->cmp++;
	}
	/* One side has ended with every event matched: the other's next is new. */
	struct wi_side *more = a->cmp < ta ? a : b->cmp < tb ? b : NULL;
	struct wi_side *ended = more == a ? b : a;
	if (more && ended->stopped) {
		const struct event *x = ev_at(more->s, more->cmp);
		if (!x) {
			p->lost = true;
			return;
		}
		p->parted = true;
		p->cycle = x->cycle;
		if (more == a) {
			p->has_a = true;
			p->a = *x;
		} else {
			p->has_b = true;
			p->b = *x;
		}
	}
}

/* Run both sides to the span's end in lockstep chunks. */
static void run_both(struct wi_side *sd, uint64_t limit, struct wi_part *p)
{
	uint64_t k = 1;
	uint32_t cap = 4096;
	while (!sd[0].stopped || !sd[1].stopped) {
		uint64_t most = 0;
		for (int i = 0; i < 2; i++) {
			struct wi_side *d = &sd[i];
			if (d->stopped)
				continue;
			uint64_t before = events_logged(sim_events_c(d->s)), now = sim_cycle(d->s);
			uint64_t n = limit - now < k ? limit - now : k;
			d->stop = sim_step(d->s, n);
			if (d->stop == SIM_STOP_BREAK || d->stop == SIM_STOP_INTERRUPT || side_at_limit(d, limit))
				d->stopped = true;
			uint64_t made = events_logged(sim_events_c(d->s)) - before;
			most = made > most ? made : most;
		}
		compare(&sd[0], &sd[1], p);
		if (most > cap / 4 && k > 1)
			k /= 2;
		else if (most < cap / 16 && k < 4096)
			k *= 2;
	}
	compare(&sd[0], &sd[1], p);
}

/* ---- reporting ---------------------------------------------------------- */

/* `why` for the event's request on one side, asked on a fresh copy stepped
 * just past the event's cycle: the warp when the event names one, else the
 * line, else the DRAM or L2 bank. */
static void why_side(struct session *ss, const struct wi_args *w, const struct sim_cfg *cfg, const struct event *e,
		     const char *label, struct cmd_out *out)
{
	unsigned f = e->kind < EV__COUNT ? event_defs[e->kind].fields : 0;
	bool warp = (f & EVF_SM) && (f & EVF_WARP) && e->sm >= 0 && e->warp >= 0;
	bool line = (f & EVF_ADDR) != 0, dram = (f & EVF_CH) && (f & EVF_BANK), l2 = (f & EVF_UNIT) && !(f & EVF_SM) && e->kind >= EV_L2_ACCESS;
	if (!warp && !line && !dram && !l2)
		return;
	bool ok;
	char *err = NULL;
	struct sim *s = side_new(ss, cfg, w->from_start, &ok, &err);
	if (!s) {
		free(err);
		return;
	}
	if (sim_cycle(s) <= e->cycle)
		sim_step(s, e->cycle + 1 - sim_cycle(s));
	struct why_link l[WI_WHY];
	int n;
	const char *what = "warp";
	/* A warp that waits on something gives its chain; one that moved on
	 * ("not stalled") says less than where its line is. */
	n = warp ? inspect_why_warp(s, e->sm, e->warp, l, WI_WHY) : 0;
	if (n > 1 || (n == 1 && !line && !dram && !l2)) {
		/* the warp's chain */
	} else if (line) {
		n = inspect_why_line(s, e->addr, (f & EVF_SM) ? e->sm : -1, l, WI_WHY);
		what = "line";
	} else if (dram) {
		n = inspect_why_dram_bank(s, e->ch, e->bank, l, WI_WHY);
		what = "DRAM bank";
	} else if (l2) {
		n = inspect_why_l2_bank(s, e->unit, l, WI_WHY);
		what = "L2 bank";
	}
	if (n > 0) {
		cmd_printf(out, "  why %s (%s, after cycle %llu):", what, label, (unsigned long long)e->cycle);
		for (int i = 0; i < n; i++)
			cmd_printf(out, "    %s%s", i ? "<- " : "", l[i].text);
	}
	sim_free(s);
}

static void print_event(const char *label, bool has, const struct event *e, const struct sim *s, struct cmd_out *out)
{
	if (!has) {
		cmd_printf(out, "  %s: nothing more (this side %s at cycle %llu)", label, sim_done(s) ? "finished" : "stopped",
			   (unsigned long long)sim_cycle(s));
		return;
	}
	char buf[512];
	event_format(e, buf, sizeof buf);
	cmd_printf(out, "  %s: %s", label, buf);
}

struct wi_stat {
	const char *name;
	double a, b, d, rel; /* span values, difference, difference / max(|a|, |b|) */
};

static int stat_rank(const void *x, const void *y)
{
	const struct wi_stat *p = x, *q = y;
	double sp = fabs(p->rel) * log10(2 + fabs(p->d)), sq = fabs(q->rel) * log10(2 + fabs(q->d));
	if (sp != sq)
		return sp < sq ? 1 : -1;
	return strcmp(p->name, q->name);
}

/* "sm3.l1.misses" -> "l1", "dram.row_hits" -> "dram". */
static void structure_of(const char *name, char *buf, size_t n)
{
	if (name[0] == 's' && name[1] == 'm' && name[2] >= '0' && name[2] <= '9') {
		const char *dot = strchr(name, '.');
		if (dot)
			name = dot + 1;
	}
	size_t k = strcspn(name, ".");
	snprintf(buf, n, "%.*s", (int)k, name);
}

static int group_rank(const void *x, const void *y)
{
	const struct wi_stat *p = x, *q = y;
	char gp[64], gq[64];
	structure_of(p->name, gp, sizeof gp);
	structure_of(q->name, gq, sizeof gq);
	int c = strcmp(gp, gq);
	return c ? c : stat_rank(x, y);
}

static const char *const stall_nsight[STALL__COUNT] = {
	[STALL_MEM] = "LG Throttle", [STALL_SCOREBOARD] = "Long Scoreboard", [STALL_BARRIER] = "Barrier",
	[STALL_MSHR_FULL] = "LG Throttle", [STALL_ALU] = "Wait / Math Pipe", [STALL_SHMEM] = "Short Scoreboard",
	[STALL_INACTIVE] = "Not Selected", [STALL_DONE] = "(kernel tail)", [STALL_RF] = "Dispatch Stall",
	[STALL_FETCH] = "No Instruction",
};

/* Stall SM-cycles per reason and SM over the span (end minus start). */
struct wi_stalls {
	int sms;
	uint64_t *v; /* sms x STALL__COUNT */
};

static void stalls_take(const struct sim *s, struct wi_stalls *st)
{
	st->sms = inspect_sms(s);
	st->v = xcalloc((size_t)st->sms * STALL__COUNT, sizeof *st->v);
	for (int i = 0; i < st->sms; i++)
		inspect_sm_stalls(s, i, st->v + (size_t)i * STALL__COUNT);
}

static int64_t stall_delta(const struct wi_stalls *end, const struct wi_stalls *start, int sm, int r)
{
	uint64_t e = end->v[(size_t)sm * STALL__COUNT + (size_t)r];
	uint64_t b = sm < start->sms ? start->v[(size_t)sm * STALL__COUNT + (size_t)r] : 0;
	return (int64_t)(e - b);
}

static int64_t stall_sum(const struct wi_stalls *end, const struct wi_stalls *start, int r)
{
	int64_t t = 0;
	for (int i = 0; i < end->sms; i++)
		t += stall_delta(end, start, i, r);
	return t;
}

/* "SM 0-3", "SM 0, 2, 5-6": the SMs where reason r moved the same way as the total. */
static void sm_list(const struct wi_stalls *ea, const struct wi_stalls *eb, const struct wi_stalls *start, int r,
		    int64_t sign, char *buf, size_t n)
{
	size_t k = (size_t)snprintf(buf, n, "SM ");
	int sms = ea->sms < eb->sms ? ea->sms : eb->sms, run = -1, cnt = 0;
	for (int i = 0; i <= sms && k < n; i++) {
		bool in = i < sms && (stall_delta(eb, start, i, r) - stall_delta(ea, start, i, r)) * sign > 0;
		if (in && run < 0)
			run = i;
		if (!in && run >= 0) {
			k += (size_t)snprintf(buf + k, n - k, "%s%d", cnt ? ", " : "", run);
			if (i - 1 > run)
				k += (size_t)snprintf(buf + k, n - k, "-%d", i - 1);
			cnt++;
			run = -1;
		}
	}
	if (!cnt)
		snprintf(buf, n, "no single SM");
}

static double stat_val(const struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	return id < 0 ? 0 : stats_value(sim_stats_c(s), (uint32_t)id);
}

static void report(struct session *ss, const struct wi_args *w, struct wi_side *sd, const struct wi_part *p,
		   uint64_t start_cycle, const struct sim *start, const struct wi_stalls *st0,
		   struct cmd_out *out)
{
	const struct sim *a = sd[0].s, *b = sd[1].s;
	char chg[1024];
	change_text(w, chg, sizeof chg);
	char span[600];
	if (w->span == WI_TO_END)
		snprintf(span, sizeof span, "to the end");
	else if (w->span == WI_CYCLES)
		snprintf(span, sizeof span, "to cycle %llu", (unsigned long long)(sim_cycle(start) + w->cycles));
	else
		snprintf(span, sizeof span, "until %s", w->until);
	cmd_printf(out, "whatif %s: A as is, B with the change; from cycle %llu%s, %s", chg,
		   (unsigned long long)start_cycle, w->from_start ? " (--from-start: both built there)" : "", span);
	double ia = stat_val(a, "sim.warp_insts") - stat_val(start, "sim.warp_insts");
	double ib = stat_val(b, "sim.warp_insts") - stat_val(start, "sim.warp_insts");
	uint64_t ca = sim_cycle(a), cb = sim_cycle(b), la = ca - start_cycle, lb = cb - start_cycle;
	for (int i = 0; i < 2; i++) {
		const struct sim *s = sd[i].s;
		uint64_t c = sim_cycle(s), len = c - start_cycle;
		double ins = i ? ib : ia;
		cmd_printf(out, "  %s: %s at cycle %llu (%llu cycles, IPC %.3f)", i ? "B" : "A",
			   sim_done(s) ? "finished" : sd[i].stop == SIM_STOP_BREAK ? "reached the event" : "stopped",
			   (unsigned long long)c, (unsigned long long)len, len ? ins / (double)len : 0.0);
	}
	/* A mid-run change starts the new rules from a state the old ones left:
	 * say so if either side ends broken. */
	for (int i = 0; i < 2; i++) {
		char dl[256], *ierr = NULL;
		if (sim_deadlock(sd[i].s, dl, sizeof dl))
			cmd_printf(out, "  %s: deadlock: %s", i ? "B" : "A", dl);
		if (sim_check_invariants(sd[i].s, &ierr))
			cmd_printf(out, "  %s: invariant violated at the end: %s", i ? "B" : "A", ierr ? ierr : "?");
		free(ierr);
	}
	if (!p->parted && !p->lost) {
		cmd_printf(out, "identical: no event differs between A and B over the span (the change has no effect here)");
		return;
	}
	if (p->lost)
		cmd_printf(out, "where they part: not located (the event log overflowed between comparisons)");
	else {
		cmd_printf(out, "where they part: cycle %llu (%llu cycles after %s)", (unsigned long long)p->cycle,
			   (unsigned long long)(p->cycle - start_cycle), w->from_start ? "cycle 0" : "the stop");
		print_event("A", p->has_a, &p->a, a, out);
		print_event("B", p->has_b, &p->b, b, out);
		struct sim_cfg base = ss->cfg;
		if (p->has_a)
			why_side(ss, w, &base, &p->a, "A", out);
		if (p->has_b)
			why_side(ss, w, &w->cfg, &p->b, "B", out);
	}
	/* What moved: counters over the span, matched by name. */
	const struct stats *sa = sim_stats_c(a);
	uint32_t n = stats_count(sa), m = 0;
	struct wi_stat *v = xcalloc(n ? n : 1, sizeof *v);
	for (uint32_t id = 0; id < n; id++) {
		const struct stat_def *d = stats_def(sa, id);
		if (d->kind != STAT_COUNTER)
			continue;
		double s0 = stat_val(start, d->name), x = stats_value(sa, id) - s0, y = stat_val(b, d->name) - s0;
		if (x == y)
			continue;
		double mx = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
		v[m++] = (struct wi_stat){d->name, x, y, y - x, (y - x) / mx};
	}
	qsort(v, m, sizeof *v, stat_rank);
	uint32_t top = m < WI_TOP ? m : WI_TOP;
	qsort(v, top, sizeof *v, group_rank);
	cmd_printf(out, "what moved (%u counters differ; the %u largest, by structure):", m, top);
	cmd_printf(out, "  %-8s %-32s %12s %12s %12s %8s", "unit", "stat", "A", "B", "B-A", "rel");
	for (uint32_t i = 0; i < top; i++) {
		char g[64];
		structure_of(v[i].name, g, sizeof g);
		cmd_printf(out, "  %-8s %-32s %12.0f %12.0f %+12.0f %+7.1f%%", g, v[i].name, v[i].a, v[i].b, v[i].d,
			   v[i].a ? 100.0 * v[i].d / fabs(v[i].a) : 100.0);
	}
	free(v);
	/* Stall mix. */
	struct wi_stalls ea, eb;
	stalls_take(a, &ea);
	stalls_take(b, &eb);
	int64_t ta = 0, tb = 0, moved = 0;
	for (int r = STALL_MEM; r < STALL__COUNT; r++) {
		ta += stall_sum(&ea, st0, r);
		tb += stall_sum(&eb, st0, r);
		int64_t d = stall_sum(&eb, st0, r) - stall_sum(&ea, st0, r);
		moved += d < 0 ? -d : d;
	}
	cmd_printf(out, "stall mix (SM-cycles without an issue):");
	cmd_printf(out, "  %-11s %-17s %10s %6s %10s %6s %10s", "reason", "Nsight", "A", "%", "B", "%", "B-A");
	int best = -1;
	int64_t bestd = 0;
	for (int r = STALL_MEM; r < STALL__COUNT; r++) {
		int64_t x = stall_sum(&ea, st0, r), y = stall_sum(&eb, st0, r);
		if (!x && !y)
			continue;
		cmd_printf(out, "  %-11s %-17s %10lld %5.1f%% %10lld %5.1f%% %+10lld", stall_reason_name((unsigned)r),
			   stall_nsight[r], (long long)x, ta ? 100.0 * (double)x / (double)ta : 0.0, (long long)y,
			   tb ? 100.0 * (double)y / (double)tb : 0.0, (long long)(y - x));
		int64_t d = y - x;
		if ((d < 0 ? -d : d) > (bestd < 0 ? -bestd : bestd)) {
			best = r;
			bestd = d;
		}
	}
	/* Verdict. */
	char lead[160], cause[320] = "";
	if (lb < la)
		snprintf(lead, sizeof lead, "B finishes %llu cycles sooner", (unsigned long long)(la - lb));
	else if (lb > la)
		snprintf(lead, sizeof lead, "B takes %llu cycles longer", (unsigned long long)(lb - la));
	else
		snprintf(lead, sizeof lead, "same length (%llu cycles)", (unsigned long long)la);
	if (w->span == WI_CYCLES && la == lb)
		snprintf(lead, sizeof lead, "over the same %llu cycles B issues %+.0f warp instructions", (unsigned long long)la,
			 ib - ia);
	if (best >= 0 && moved) {
		char sms[96];
		sm_list(&ea, &eb, st0, best, bestd < 0 ? -1 : 1, sms, sizeof sms);
		snprintf(cause, sizeof cause, ": %.0f %% of the change in stall cycles is %s %s stalls on %s",
			 100.0 * (double)(bestd < 0 ? -bestd : bestd) / (double)moved, bestd < 0 ? "fewer" : "more",
			 stall_reason_name((unsigned)best), sms);
	}
	cmd_printf(out, "verdict: %s%s", lead, cause);
	free(ea.v);
	free(eb.v);
}


static void name_fixed_keys(struct session *ss, const struct wi_args *w, char *buf, size_t n)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < w->nkeys && k < n; i++) {
		struct sim_cfg c = ss->cfg;
		char *err = NULL;
		bool ok = true;
		if (cfg_set_value(&c, w->keys[i], w->vals[i], &err) == 0) {
			struct sim *t = sim_fork(ss->sim, &c, &ok, &err);
			if (t)
				sim_free(t);
		}
		free(err);
		if (!ok)
			k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? ", " : "", w->keys[i]);
	}
}

CMD_FN(cmd_whatif);
CMD_FN(cmd_whatif)
{
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return whatif_show(ss, argc, argv, out);
	if (argc >= 2 && strcmp(argv[1], "go") == 0)
		return whatif_go(ss, argc, argv, out);
	struct wi_args *w = xmalloc(sizeof *w);
	int rc = parse_args(ss, argc, argv, w, out);
	if (rc != CMD_OK) {
		free(w);
		return rc;
	}
	if (sim_dram_only(ss->sim)) {
		cmd_errorf(out, "whatif: a DRAM trace has no warps to compare; change the config and rerun instead");
		free(w);
		return CMD_ERR;
	}
	uint64_t fork_at = sim_cycle(ss->sim);
	if (!w->from_start && sim_done(ss->sim)) {
		cmd_errorf(out, "whatif: the kernel finished at cycle %llu; nothing is left to run (--from-start replays it all)",
			   (unsigned long long)fork_at);
		free(w);
		return CMD_ERR;
	}
	uint64_t limit = UINT64_MAX;
	if (w->span == WI_CYCLES)
		limit = fork_at + w->cycles;
	struct wi_side sd[2];
	memset(sd, 0, sizeof sd);
	struct sim_cfg base = ss->cfg;
	const struct sim_cfg *cfgs[2] = {&base, &w->cfg};
	char *err = NULL;
	for (int i = 0; i < 2; i++) {
		bool ok;
		sd[i].s = side_new(ss, cfgs[i], w->from_start, &ok, &err);
		if (!sd[i].s) {
			if (!ok) {
				char keys[512], chg[1024];
				name_fixed_keys(ss, w, keys, sizeof keys);
				cmd_errorf(out, "whatif: %s cannot change mid-run: %s", keys[0] ? keys : "the change",
					   err ? err : "");
				cmd_errorf(out, "  `whatif %s --from-start` replays from cycle 0 with the change to the same stop",
					   change_text(w, chg, sizeof chg));
			} else {
				cmd_errorf(out, "whatif: %s", err ? err : "cannot build the machine");
			}
			free(err);
			if (i)
				sim_free(sd[0].s);
			free(w);
			return CMD_ERR;
		}
		events_log_all(sim_events(sd[i].s), true);
		sd[i].cmp = events_logged(sim_events_c(sd[i].s));
	}
	/* --from-start with --until: the event counts only after the stop. */
	uint64_t start_cycle = sim_cycle(sd[0].s);
	struct wi_part p;
	memset(&p, 0, sizeof p);
	if (w->from_start && w->span == WI_UNTIL && fork_at) {
		run_both(sd, fork_at, &p);
		sd[0].stopped = sd[1].stopped = false;
	}
	if (w->span == WI_UNTIL) {
		for (int i = 0; i < 2; i++) {
			bp_init(&sd[i].bp, sim_stats(sd[i].s));
			sd[i].has_bp = true;
			if (bp_add_until(&sd[i].bp, w->until, session_line_bytes(ss), &err) < 0) {
				cmd_errorf(out, "whatif: --until %s: %s", w->until, err ? err : "bad event");
				free(err);
				for (int j = 0; j < 2; j++) {
					bp_fini(&sd[j].bp);
					sim_free(sd[j].s);
				}
				free(w);
				return CMD_ERR;
			}
			sim_set_bps(sd[i].s, &sd[i].bp);
		}
	}
	/* The starting point both spans are measured from. */
	struct sim *start = w->from_start ? sim_new(&ss->cfg, &ss->wl, &err) : ss->sim;
	struct wi_stalls st0;
	stalls_take(start, &st0);
	for (int i = 0; i < 2; i++)
		sd[i].stopped = side_at_limit(&sd[i], limit);
	run_both(sd, limit, &p);
	report(ss, w, sd, &p, start_cycle, start, &st0, out);
	whatif_last = (struct wi_last){.ss = ss, .sim = ss->sim, .cycle = fork_at, .hash = sim_state_hash(ss->sim),
				.valid = true, .from_start = w->from_start, .part = p, .cfg_b = w->cfg};
	change_text(w, whatif_last.change, sizeof whatif_last.change);
	if (p.parted)
		cmd_printf(out, "(`whatif show` puts both machines side by side at cycle %llu; `whatif go a|b` goes there)",
			   (unsigned long long)p.cycle);
	free(st0.v);
	if (start != ss->sim)
		sim_free(start);
	for (int i = 0; i < 2; i++) {
		if (sd[i].has_bp) {
			sim_set_bps(sd[i].s, NULL);
			bp_fini(&sd[i].bp);
		}
		sim_free(sd[i].s);
	}
	free(w);
	return CMD_OK;
}
