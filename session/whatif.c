/*
 * whatif.c: fork, compare and report for `whatif` (whatif.h).
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
 * change mid-run; from_start builds A and B at cycle 0 instead and runs both
 * from there to the same stop condition (cycle C+N, the end, or the first
 * EVENT after cycle C), comparing from cycle 0.
 */
#include "whatif.h"
#include "whatif_int.h"

#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/bp.h"
#include "debug/inspect.h"
#include "machine/fork.h"
#include "machine/sim_mem.h"

#define WI_WHY 6 /* links of each why chain shown */

struct wi_side {
	struct sim *s;
	struct bp_set bp;
	bool has_bp;
	bool stopped;
	uint64_t cmp; /* absolute index of its next event to compare */
	enum sim_stop stop;
};

void whatif_printf(const struct whatif_out *o, bool err, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	void (*f)(void *, const char *) = err ? o->error : o->print;
	if (f)
		f(o->u, buf);
}

static volatile sig_atomic_t wi_sigint;

void whatif_interrupt(void)
{
	wi_sigint = 1;
}

/* ---- the spec ----------------------------------------------------------- */

void whatif_spec_init(struct whatif_spec *w, const struct sim_cfg *base)
{
	memset(w, 0, sizeof *w);
	w->cfg = *base;
}

int whatif_spec_add(struct whatif_spec *w, const char *a, char **err)
{
	const char *eq = strchr(a, '=');
	if (!eq || eq == a || !eq[1])
		return set_err(err, "'%s' is not KEY=VALUE", a);
	if (w->nkeys == WHATIF_MAX_KEYS)
		return set_err(err, "at most %d changes at once", WHATIF_MAX_KEYS);
	if (strncmp(a, "param.", 6) == 0)
		return set_err(err, "'%s': kernel parameters change the program, not the machine; use `run 0` and `set`", a);
	if ((size_t)(eq - a) >= sizeof w->keys[0] || strlen(eq + 1) >= sizeof w->vals[0])
		return set_err(err, "'%.40s...': too long for a KEY=VALUE", a);
	snprintf(w->keys[w->nkeys], sizeof w->keys[0], "%.*s", (int)(eq - a), a);
	snprintf(w->vals[w->nkeys], sizeof w->vals[0], "%s", eq + 1);
	if (cfg_set_value(&w->cfg, w->keys[w->nkeys], w->vals[w->nkeys], err))
		return -1;
	w->nkeys++;
	return 0;
}

int whatif_spec_check(const struct whatif_spec *w, char **err)
{
	if (!w->nkeys)
		return set_err(err, "what change? (KEY=VALUE, e.g. l1.mshr.entries=4)");
	return cfg_validate(&w->cfg, err);
}

const char *whatif_change_text(const struct whatif_spec *w, char *buf, size_t n)
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
static void compare(struct wi_side *a, struct wi_side *b, struct whatif_part *p)
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

/* Run both sides to the span's end in lockstep chunks; false when
 * out->cancel stopped them. */
static bool run_both(struct wi_side *sd, uint64_t limit, struct whatif_part *p, const struct whatif_out *out)
{
	uint64_t k = 1;
	uint32_t cap = 4096;
	/* A chunk must not outgrow the ring even when a burst follows a quiet
	 * stretch (CTAs launching after the launch latency): the chunk is at
	 * most what a quarter of the ring holds at one event per warp slot per
	 * cycle, or at the busiest rate seen so far, whichever is higher. */
	const struct sim_cfg *c = sim_cfg(sd[0].s);
	uint64_t rate = (uint64_t)c->core.sms * (uint64_t)c->core.warps_per_sm;
	while (!sd[0].stopped || !sd[1].stopped) {
		if (wi_sigint || (out->cancel && out->cancel(out->u)))
			return false;
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
		if ((most + k - 1) / k > rate)
			rate = (most + k - 1) / k;
		uint64_t kmax = rate ? cap / (4 * rate) : 4096;
		if (most > cap / 4 && k > 1)
			k /= 2;
		else if (most < cap / 16 && k < 4096)
			k *= 2;
		if (k > kmax)
			k = kmax ? kmax : 1;
	}
	compare(&sd[0], &sd[1], p);
	return true;
}

/* ---- reporting ---------------------------------------------------------- */

/* `why` for the event's request on one side, asked on a fresh copy stepped
 * just past the event's cycle: the warp when the event names one, else the
 * line, else the DRAM or L2 bank. */
static void why_side(struct session *ss, const struct whatif_spec *w, const struct sim_cfg *cfg, const struct event *e,
		     const char *label, const struct whatif_out *out)
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
		OUT("  why %s (%s, after cycle %llu):", what, label, (unsigned long long)e->cycle);
		for (int i = 0; i < n; i++)
			OUT("    %s%s", i ? "<- " : "", l[i].text);
	}
	sim_free(s);
}

static void print_event(const char *label, bool has, const struct event *e, const struct sim *s,
			const struct whatif_out *out)
{
	if (!has) {
		OUT("  %s: nothing more (this side %s at cycle %llu)", label, sim_done(s) ? "finished" : "stopped",
		    (unsigned long long)sim_cycle(s));
		return;
	}
	char buf[512];
	event_format(e, buf, sizeof buf);
	OUT("  %s: %s", label, buf);
}

static const char *const stall_nsight[STALL__COUNT] = {
	[STALL_MEM] = "LG Throttle", [STALL_SCOREBOARD] = "Long Scoreboard", [STALL_BARRIER] = "Barrier",
	[STALL_MSHR_FULL] = "LG Throttle", [STALL_ALU] = "Wait / Math Pipe", [STALL_SHMEM] = "Short Scoreboard",
	[STALL_INACTIVE] = "Not Selected", [STALL_DONE] = "(kernel tail)", [STALL_RF] = "Dispatch Stall",
	[STALL_FETCH] = "No Instruction",
};

const char *whatif_stall_nsight(int r)
{
	return r >= 0 && r < STALL__COUNT && stall_nsight[r] ? stall_nsight[r] : "";
}

/* Stall SM-cycles per reason and SM over the span (end minus start). */
struct wi_stalls {
	int sms;
	uint64_t *v; /* sms x STALL__COUNT */
};

static void stalls_take(const struct sim *s, struct wi_stalls *st)
{
	st->sms = inspect_sms(s);
	st->v = xcalloc((size_t)(st->sms ? st->sms : 1) * STALL__COUNT, sizeof *st->v);
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

/* What moved: counters over the span, matched by name, ranked. */
static void collect_changes(const struct sim *a, const struct sim *b, const struct sim *start, struct whatif_result *r)
{
	const struct stats *sa = sim_stats_c(a);
	uint32_t n = stats_count(sa), m = 0;
	struct whatif_stat *v = xcalloc(n ? n : 1, sizeof *v);
	for (uint32_t id = 0; id < n; id++) {
		const struct stat_def *d = stats_def(sa, id);
		if (d->kind != STAT_COUNTER)
			continue;
		double s0 = stat_val(start, d->name), x = stats_value(sa, id) - s0, y = stat_val(b, d->name) - s0;
		if (x == y)
			continue;
		double mx = fabs(x) > fabs(y) ? fabs(x) : fabs(y);
		v[m++] = (struct whatif_stat){d->name, x, y, y - x, (y - x) / mx};
	}
	qsort(v, m, sizeof *v, whatif_stat_rank);
	r->nmoved = m;
	r->changes = v;
	r->nchanges = whatif_drop_unit_copies(v, m);
}

static void report(struct session *ss, const struct whatif_spec *w, struct wi_side *sd, struct whatif_result *r,
		   const struct sim *start, const struct wi_stalls *st0, const struct whatif_out *out)
{
	const struct whatif_part *p = &r->part;
	uint64_t start_cycle = r->start_cycle;
	const struct sim *a = sd[0].s, *b = sd[1].s;
	char chg[1024];
	whatif_change_text(w, chg, sizeof chg);
	char span[600];
	if (w->span == WHATIF_TO_END)
		snprintf(span, sizeof span, "to the end");
	else if (w->span == WHATIF_CYCLES)
		snprintf(span, sizeof span, "to cycle %llu", (unsigned long long)(sim_cycle(start) + w->cycles));
	else
		snprintf(span, sizeof span, "until %s", w->until);
	OUT("whatif %s: A as is, B with the change; from cycle %llu%s, %s", chg, (unsigned long long)start_cycle,
	    w->from_start ? " (--from-start: both built there)" : "", span);
	double ia = stat_val(a, "sim.warp_insts") - stat_val(start, "sim.warp_insts");
	double ib = stat_val(b, "sim.warp_insts") - stat_val(start, "sim.warp_insts");
	uint64_t ca = sim_cycle(a), cb = sim_cycle(b), la = ca - start_cycle, lb = cb - start_cycle;
	for (int i = 0; i < 2; i++) {
		const struct sim *s = sd[i].s;
		uint64_t c = sim_cycle(s), len = c - start_cycle;
		double ins = i ? ib : ia;
		OUT("  %s: %s at cycle %llu (%llu cycles, IPC %.3f)", i ? "B" : "A",
		    sim_done(s) ? "finished" : sd[i].stop == SIM_STOP_BREAK ? "reached the event" : "stopped",
		    (unsigned long long)c, (unsigned long long)len, len ? ins / (double)len : 0.0);
	}
	/* A mid-run change starts the new rules from a state the old ones left:
	 * say so if either side ends broken. */
	for (int i = 0; i < 2; i++) {
		char dl[256], *ierr = NULL;
		if (sim_deadlock(sd[i].s, dl, sizeof dl))
			OUT("  %s: deadlock: %s", i ? "B" : "A", dl);
		if (sim_check_invariants(sd[i].s, &ierr))
			OUT("  %s: invariant violated at the end: %s", i ? "B" : "A", ierr ? ierr : "?");
		free(ierr);
	}
	if (!p->parted && !p->lost) {
		OUT("identical: no event differs between A and B over the span (the change has no effect here)");
		return;
	}
	if (p->lost)
		OUT("where they part: not located (the event log overflowed between comparisons)");
	else {
		OUT("where they part: cycle %llu (%llu cycles after %s)", (unsigned long long)p->cycle,
		    (unsigned long long)(p->cycle - start_cycle), w->from_start ? "cycle 0" : "the stop");
		print_event("A", p->has_a, &p->a, a, out);
		print_event("B", p->has_b, &p->b, b, out);
		struct sim_cfg base = ss->cfg;
		if (p->has_a)
			why_side(ss, w, &base, &p->a, "A", out);
		if (p->has_b)
			why_side(ss, w, &w->cfg, &p->b, "B", out);
	}
	whatif_print_changes(out, "counters", r->changes, r->nchanges, r->nmoved, "A", "B");
	/* Stall mix. */
	struct wi_stalls ea, eb;
	stalls_take(a, &ea);
	stalls_take(b, &eb);
	int64_t ta = 0, tb = 0, moved = 0;
	for (int k = STALL_MEM; k < STALL__COUNT; k++) {
		ta += r->stall_a[k];
		tb += r->stall_b[k];
		int64_t d = r->stall_b[k] - r->stall_a[k];
		moved += d < 0 ? -d : d;
	}
	OUT("stall mix (SM-cycles without an issue):");
	OUT("  %-11s %-17s %10s %6s %10s %6s %10s", "reason", "Nsight", "A", "%", "B", "%", "B-A");
	int best = -1;
	int64_t bestd = 0;
	for (int k = STALL_MEM; k < STALL__COUNT; k++) {
		int64_t x = r->stall_a[k], y = r->stall_b[k];
		if (!x && !y)
			continue;
		OUT("  %-11s %-17s %10lld %5.1f%% %10lld %5.1f%% %+10lld", stall_reason_name((unsigned)k), stall_nsight[k],
		    (long long)x, ta ? 100.0 * (double)x / (double)ta : 0.0, (long long)y,
		    tb ? 100.0 * (double)y / (double)tb : 0.0, (long long)(y - x));
		int64_t d = y - x;
		if ((d < 0 ? -d : d) > (bestd < 0 ? -bestd : bestd)) {
			best = k;
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
	if (w->span == WHATIF_CYCLES && la == lb)
		snprintf(lead, sizeof lead, "over the same %llu cycles B issues %+.0f warp instructions", (unsigned long long)la,
			 ib - ia);
	if (best >= 0 && moved) {
		char sms[96];
		sm_list(&ea, &eb, st0, best, bestd < 0 ? -1 : 1, sms, sizeof sms);
		snprintf(cause, sizeof cause, ": %.0f %% of the change in stall cycles is %s %s stalls on %s",
			 100.0 * (double)(bestd < 0 ? -bestd : bestd) / (double)moved, bestd < 0 ? "fewer" : "more",
			 stall_reason_name((unsigned)best), sms);
	}
	OUT("verdict: %s%s", lead, cause);
	free(ea.v);
	free(eb.v);
}

static void name_fixed_keys(struct session *ss, const struct whatif_spec *w, char *buf, size_t n)
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

uint64_t whatif_copy_bytes(const struct session *ss)
{
	struct sim_mem m;
	sim_mem_estimate(&ss->cfg, &ss->wl, &m);
	return m.total;
}

/* The two copies within the snapshot budget (they are two more copies of
 * the machine's state, held while the whatif runs), or within the memory
 * when rewinding is off. */
static int check_memory(const struct session *ss, const struct whatif_spec *w, const struct whatif_out *out)
{
	struct sim_mem mb;
	sim_mem_estimate(&w->cfg, &ss->wl, &mb);
	uint64_t two = whatif_copy_bytes(ss) + mb.total;
	if (ss->snapshot_bytes) {
		if (two <= ss->snapshot_bytes)
			return 0;
		ERR("whatif: its two copies of the machine (%.1f MB) do not fit in the snapshot budget (%.1f MB); "
		    "start gpustep with --snapshot-mb %llu or more to make room for them",
		    (double)two / (1 << 20), (double)ss->snapshot_bytes / (1 << 20),
		    (unsigned long long)((two + (1 << 20) - 1) >> 20));
		return -1;
	}
	char what[64];
	uint64_t lim = session_memory_limit(ss->max_memory, what, sizeof what);
	uint64_t have = whatif_copy_bytes(ss);
	if (lim && two + have > lim) {
		ERR("whatif: its two copies of the machine (%.1f MB) and the machine itself (%.1f MB) need more than %s "
		    "(%.1f MB)",
		    (double)two / (1 << 20), (double)have / (1 << 20), what, (double)lim / (1 << 20));
		return -1;
	}
	return 0;
}

void whatif_result_free(struct whatif_result *r)
{
	if (r->a)
		sim_free(r->a);
	if (r->b)
		sim_free(r->b);
	free(r->changes);
	memset(r, 0, sizeof *r);
}

int whatif_run(struct session *ss, const struct whatif_spec *w, const struct whatif_out *out, bool quiet,
	       struct whatif_result *r)
{
	memset(r, 0, sizeof *r);
	if (sim_dram_only(ss->sim)) {
		ERR("whatif: a DRAM trace has no warps to compare; change the config and rerun instead");
		return -1;
	}
	uint64_t fork_at = sim_cycle(ss->sim);
	if (!w->from_start && sim_done(ss->sim)) {
		ERR("whatif: the kernel finished at cycle %llu; nothing is left to run (--from-start replays it all)",
		    (unsigned long long)fork_at);
		return -1;
	}
	if (check_memory(ss, w, out))
		return -1;
	wi_sigint = 0;
	uint64_t limit = UINT64_MAX;
	if (w->span == WHATIF_CYCLES)
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
				ERR("whatif: %s cannot change mid-run: %s", keys[0] ? keys : "the change", err ? err : "");
				ERR("  `whatif %s --from-start` replays from cycle 0 with the change to the same stop",
				    whatif_change_text(w, chg, sizeof chg));
			} else {
				ERR("whatif: %s", err ? err : "cannot build the machine");
			}
			free(err);
			if (i)
				sim_free(sd[0].s);
			return -1;
		}
		events_log_all(sim_events(sd[i].s), true);
		sd[i].cmp = events_logged(sim_events_c(sd[i].s));
	}
	r->fork_at = fork_at;
	r->start_cycle = sim_cycle(sd[0].s);
	bool done = true;
	/* --from-start with --until: the event counts only after the stop. */
	if (w->from_start && w->span == WHATIF_UNTIL && fork_at) {
		done = run_both(sd, fork_at, &r->part, out);
		sd[0].stopped = sd[1].stopped = false;
	}
	if (w->span == WHATIF_UNTIL) {
		for (int i = 0; i < 2; i++) {
			bp_init(&sd[i].bp, sim_stats(sd[i].s));
			sd[i].has_bp = true;
			if (bp_add_until(&sd[i].bp, w->until, session_line_bytes(ss), &err) < 0) {
				ERR("whatif: --until %s: %s", w->until, err ? err : "bad event");
				free(err);
				for (int j = 0; j < 2; j++) {
					if (sd[j].has_bp)
						bp_fini(&sd[j].bp);
					sim_free(sd[j].s);
				}
				return -1;
			}
			sim_set_bps(sd[i].s, &sd[i].bp);
		}
	}
	/* The starting point both spans are measured from. */
	struct sim *start = w->from_start ? sim_new(&ss->cfg, &ss->wl, &err) : ss->sim;
	if (!start) {
		ERR("whatif: %s", err ? err : "cannot build the machine");
		free(err);
		for (int j = 0; j < 2; j++) {
			if (sd[j].has_bp)
				bp_fini(&sd[j].bp);
			sim_free(sd[j].s);
		}
		return -1;
	}
	struct wi_stalls st0;
	stalls_take(start, &st0);
	for (int i = 0; i < 2; i++)
		sd[i].stopped = side_at_limit(&sd[i], limit);
	if (done)
		done = run_both(sd, limit, &r->part, out);
	r->interrupted = !done;
	if (!done) {
		/* The Ctrl-C was for the whatif: the stepped machine keeps no
		 * pending interrupt from it (batch mode sends it there too). */
		wi_sigint = 0;
		sim_interrupt_clear(ss->sim);
	}
	if (done) {
		collect_changes(sd[0].s, sd[1].s, start, r);
		struct wi_stalls ea, eb;
		stalls_take(sd[0].s, &ea);
		stalls_take(sd[1].s, &eb);
		for (int k = 0; k < STALL__COUNT; k++) {
			r->stall_a[k] = stall_sum(&ea, &st0, k);
			r->stall_b[k] = stall_sum(&eb, &st0, k);
		}
		free(ea.v);
		free(eb.v);
		if (!quiet)
			report(ss, w, sd, r, start, &st0, out);
	}
	free(st0.v);
	if (start != ss->sim)
		sim_free(start);
	for (int i = 0; i < 2; i++) {
		if (sd[i].has_bp) {
			sim_set_bps(sd[i].s, NULL);
			bp_fini(&sd[i].bp);
		}
	}
	r->a = sd[0].s;
	r->b = sd[1].s;
	return 0;
}
