/*
 * cmd_why.c: `why` (the causal chain from a warp, a line or the event that
 * stopped the run to the structure it waits on) and `info stalls` (stall
 * cycles by reason, per SM and machine-wide, with their Nsight Compute
 * warp-state names). Reads the engine through inspect.h only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "layout.h"

#define WHY_MAX 16

/* Links are numbered across one `why`'s output (a stop may print a warp's
 * chain and a line's); `why go N` selects what link N names. */
static void nav_begin(struct session *ss)
{
	ss->why_n = 0;
	ss->why_cur = -1;
	ss->why_sim = ss->sim;
	ss->why_cycle = ss->sim ? sim_cycle(ss->sim) : 0;
}

static void print_chain(struct session *ss, struct cmd_out *out, const struct why_link *l, int n)
{
	for (int i = 0; i < n; i++) {
		char since[32] = "", num[16] = "";
		if (l[i].since != UINT64_MAX)
			snprintf(since, sizeof since, "  [since %llu]", (unsigned long long)l[i].since);
		if (l[i].target != WT_NONE && ss->why_n < (int)(sizeof ss->why_links / sizeof *ss->why_links)) {
			ss->why_links[ss->why_n] = (struct why_pick){l[i].target, l[i].sm, l[i].unit, l[i].entry, l[i].addr};
			snprintf(num, sizeof num, "[%d] ", ++ss->why_n);
		}
		cmd_printf(out, "%s%s%s%s", i ? "  <- " : "", num, l[i].text, since);
	}
}

static int why_warp(struct session *ss, int sm, int slot, struct cmd_out *out)
{
	struct why_link l[WHY_MAX];
	int n = inspect_why_warp(ss->sim, sm, slot, l, WHY_MAX);
	cmd_printf(out, "sm %d warp %d at cycle %llu:", sm, slot, (unsigned long long)sim_cycle(ss->sim));
	print_chain(ss, out, l, n);
	return CMD_OK;
}

/* "W" (selected SM) or "S.W". */
static int parse_warp(struct session *ss, const char *arg, int *sm, int *slot, struct cmd_out *out)
{
	const char *dot = strchr(arg, '.');
	*sm = ss->sel_sm;
	if (dot) {
		char a[32];
		size_t k = (size_t)(dot - arg);
		if (k >= sizeof a) {
			cmd_errorf(out, "why warp: '%s' is not W or SM.W", arg);
			return CMD_ERR;
		}
		memcpy(a, arg, k);
		a[k] = 0;
		if (cmd_parse_index(out, "sm", a, inspect_sms(ss->sim), sm))
			return CMD_ERR;
		arg = dot + 1;
	}
	return cmd_parse_index(out, "warp", arg, inspect_warp_slots(ss->sim), slot) ? CMD_ERR : CMD_OK;
}

/* l1.duel_switch: the interval that decided it and the rule (bypass.h). */
static void why_duel(struct session *ss, struct cmd_out *out, const struct event *e)
{
	struct duel_info d;
	if (!inspect_duel(ss->sim, &d))
		return;
	if (d.closed_at != e->cycle) {
		cmd_printf(out, "(the interval that decided it is gone: the one ending at cycle %llu was counted since;"
			   " `rewind` to the stop to see it)", (unsigned long long)d.last_at);
		return;
	}
	cmd_printf(out, "interval of %d cycles ending at cycle %llu, all leader sets:", d.interval,
		   (unsigned long long)d.last_at);
	cmd_printf(out, "  decoupled leaders missed %u of %u lookups (%.1f %%)", d.miss[0], d.acc[0],
		   cmd_pct(d.miss[0], d.acc[0]));
	cmd_printf(out, "  plain leaders missed     %u of %u lookups (%.1f %%)", d.miss[1], d.acc[1],
		   cmd_pct(d.miss[1], d.acc[1]));
	cmd_printf(out, "  (loads only; a bypass counts as a miss, a merge as a hit)");
	double pts = d.diff_permille / 10.0;
	if (d.followers_decoupled) {
		cmd_printf(out, "difference %+.1f points, not above l1.bypass_duel_diff %d:", pts, d.limit_points);
		cmd_printf(out, "  the followers turn decoupled (the paper: unless the decoupled");
		cmd_printf(out, "  leaders miss more, every SM enables the new design)");
	} else {
		cmd_printf(out, "difference %+.1f points, above l1.bypass_duel_diff %d:", pts, d.limit_points);
		cmd_printf(out, "  the followers turn plain (the decoupled leaders miss more:");
		cmd_printf(out, "  bypassing loses reuse here)");
	}
	/* How far these counts pin the difference down (bypass.h). */
	bool unsure = d.unsure;
	cmd_printf(out, "95 %% margin of the difference: \u00b1%.1f points; the limit lies %s it", d.margin_points,
		   unsure ? "within" : "outside");
	if (unsure) {
		cmd_printf(out, "  (too few lookups to tell the modes apart: either way was possible;");
		cmd_printf(out, "  with `set l1.bypass_duel_unsure_hold true` it would change nothing)");
	}
	if (d.miss[0] == d.acc[0] && d.miss[1] == d.acc[1]) {
		cmd_printf(out, "both groups missed every lookup (cold misses or streaming): a tie,");
		cmd_printf(out, "  which the paper's rule reads as decoupled; with");
		cmd_printf(out, "  `set l1.bypass_duel_cold_hold true` it would change nothing");
	}
}

static int why_stop(struct session *ss, struct cmd_out *out)
{
	const struct event *e = &ss->bps.stop_ev;
	if (ss->last_stop != SIM_STOP_BREAK || e->kind >= EV__COUNT) {
		cmd_errorf(out, "why: the run did not stop at an event breakpoint; use `why warp W` or `why ADDR`");
		return CMD_ERR;
	}
	char buf[256];
	event_format_fields(e, buf, sizeof buf); /* "NAME field=value ..." */
	const char *sp = strchr(buf, ' ');
	cmd_printf(out, "stopped by %s at cycle %llu%s%s", event_defs[e->kind].name, (unsigned long long)e->cycle,
		   sp ? ":" : "", sp ? sp : "");
	unsigned f = event_defs[e->kind].fields;
	struct why_link l[WHY_MAX];
	struct dram_bank_info bi;
	if (e->kind == EV_DRAM_ROW_CONFLICT && inspect_dram_bank(ss->sim, e->ch, e->bank, &bi)) {
		/* The stop's own request first: the conflict and the commands that resolve it. */
		long long open = (long long)e->a, want = (long long)e->row;
		if (strcmp(bi.last_cmd, "PRE") == 0 && bi.last_cmd_cycle == e->cycle)
			cmd_printf(out, "the stop: this request wants row %lld of ch%d bank %d, where row %lld was open; PRE issued "
					"this cycle (%llu) for row %lld, then ACT row %lld",
				   want, e->ch, e->bank, open, (unsigned long long)e->cycle, open, want);
		else if (bi.open_row == want)
			cmd_printf(out, "the stop: this request wants row %lld of ch%d bank %d, where row %lld was open; PRE for "
					"row %lld, then ACT row %lld: row %lld is open now (last command %s at cycle %llu)",
				   want, e->ch, e->bank, open, open, want, want, bi.last_cmd, (unsigned long long)bi.last_cmd_cycle);
		else
			cmd_printf(out, "the stop: this request wants row %lld of ch%d bank %d, where row %lld was open: PRE for "
					"row %lld, then ACT row %lld (last command %s at cycle %llu)",
				   want, e->ch, e->bank, open, open, want, bi.last_cmd[0] ? bi.last_cmd : "-",
				   (unsigned long long)bi.last_cmd_cycle);
	}
	if ((f & EVF_SM) && (f & EVF_WARP) && e->sm >= 0 && e->warp >= 0 && e->sm < inspect_sms(ss->sim) &&
	    e->warp < inspect_warp_slots(ss->sim)) {
		int n = inspect_why_warp(ss->sim, e->sm, e->warp, l, WHY_MAX);
		cmd_printf(out, "its warp, sm %d warp %d, now:", e->sm, e->warp);
		print_chain(ss, out, l, n);
		if (!(f & EVF_ADDR))
			return CMD_OK;
	}
	if (f & EVF_ADDR) {
		int n = inspect_why_line(ss->sim, e->addr, (f & EVF_SM) && e->sm >= 0 ? e->sm : -1, l, WHY_MAX);
		cmd_printf(out, "its line now:");
		print_chain(ss, out, l, n);
		return CMD_OK;
	}
	if ((f & EVF_SM) && e->sm >= 0 && e->sm < inspect_sms(ss->sim)) {
		/* An SM-level event (warp.stall, warp.barrier, cta.*): its warps. */
		int shown = 0;
		for (int w = 0; w < inspect_warp_slots(ss->sim) && shown < 4; w++) {
			struct warp_info wi;
			if (inspect_warp(ss->sim, e->sm, w, &wi) && wi.state == WS_STALLED) {
				int n = inspect_why_warp(ss->sim, e->sm, w, l, WHY_MAX);
				print_chain(ss, out, l, n);
				shown++;
			}
		}
		if (!shown)
			cmd_printf(out, "no warp of sm %d is stalled now", e->sm);
		return CMD_OK;
	}
	if (e->kind == EV_L1_DUEL_SWITCH) {
		why_duel(ss, out, e);
		return CMD_OK;
	}
	/* A DRAM bank (dram.act, dram.pre, dram.ref) or an L2 bank (frc.all_busy,
	 * frc.free): what the bank is doing now. */
	int n = 0;
	if ((f & EVF_CH) && (f & EVF_BANK) && e->ch >= 0 && e->bank >= 0)
		n = inspect_why_dram_bank(ss->sim, e->ch, e->bank, l, WHY_MAX);
	else if ((f & EVF_UNIT) && e->unit >= 0 &&
		 (strncmp(event_defs[e->kind].name, "l2.", 3) == 0 || strncmp(event_defs[e->kind].name, "frc.", 4) == 0))
		n = inspect_why_l2_bank(ss->sim, e->unit, l, WHY_MAX);
	if (n > 0) {
		cmd_printf(out, "its bank now:");
		print_chain(ss, out, l, n);
		return CMD_OK;
	}
	cmd_printf(out, "(the event names no warp, line or bank; see `info channel`, `info bank`, `info l2`)");
	return CMD_OK;
}

static void quiet_print(void *u, const char *t)
{
	(void)u;
	(void)t;
}

/* Run one selection command; its messages stay quiet, errors show. */
static int run_quiet(struct session *ss, struct cmd_out *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int run_quiet(struct session *ss, struct cmd_out *out, const char *fmt, ...)
{
	char line[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	struct cmd_out q = {quiet_print, out->error, out->u};
	return cmd_exec(ss, line, &q) & CMD_ERR;
}

/* In the TUI: focus the panel, switching to the first layout that has it
 * when the current one does not. Returns the layout switched to, or NULL. */
static const char *focus_panel(struct session *ss, const char *panel, struct cmd_out *out)
{
	if (!ss->ui)
		return NULL;
	struct cmd_out silent = {quiet_print, quiet_print, NULL};
	char line[64];
	snprintf(line, sizeof line, "focus %s", panel);
	if (!(cmd_exec(ss, line, &silent) & CMD_ERR))
		return NULL;
	for (size_t i = 0; i < layout_count(); i++)
		if (layout_has(layout_at(i), panel)) {
			run_quiet(ss, out, "layout %s", layout_at(i)->name);
			run_quiet(ss, out, "focus %s", panel);
			return layout_at(i)->name;
		}
	return NULL;
}

/* `why go N|next|prev`: select the unit link N names and focus its panel. */
static int why_go(struct session *ss, const char *arg, struct cmd_out *out)
{
	if (ss->why_n == 0) {
		cmd_errorf(out, "why go: no chain to go along: run `why warp W`, `why ADDR` or `why` at a stop first");
		return CMD_ERR;
	}
	if (ss->why_sim != ss->sim) {
		cmd_errorf(out, "why go: the last chain was read on another machine (rebuilt since): run `why` again");
		return CMD_ERR;
	}
	int k;
	if (strcmp(arg, "next") == 0)
		k = (ss->why_cur + 1) % ss->why_n;
	else if (strcmp(arg, "prev") == 0)
		k = ss->why_cur <= 0 ? ss->why_n - 1 : ss->why_cur - 1;
	else {
		char *end;
		long n = strtol(arg, &end, 10);
		if (end == arg || *end || n < 1 || n > ss->why_n) {
			cmd_errorf(out, "why go: '%s' is not a link of the last chain (1 to %d, next, prev)", arg, ss->why_n);
			return CMD_ERR;
		}
		k = (int)n - 1;
	}
	const struct why_pick *p = &ss->why_links[k];
	const char *panel = NULL;
	char what[128];
	int bad = 0;
	switch (p->target) {
	case WT_WARP:
		bad = run_quiet(ss, out, "select sm %d", p->sm) || run_quiet(ss, out, "select warp %d", p->entry);
		panel = "warps";
		snprintf(what, sizeof what, "sm %d warp %d", p->sm, p->entry);
		break;
	case WT_L1_MSHR:
		bad = run_quiet(ss, out, "select sm %d", p->sm) ||
		      (p->entry >= 0 && run_quiet(ss, out, "select mshr l1 %d", p->entry));
		panel = "mshr";
		if (p->entry >= 0)
			snprintf(what, sizeof what, "sm %d L1 MSHR entry %d", p->sm, p->entry);
		else
			snprintf(what, sizeof what, "sm %d L1 MSHR file", p->sm);
		break;
	case WT_L2_MSHR:
		bad = run_quiet(ss, out, "select l2 %d", p->unit) || run_quiet(ss, out, "select mshr l2 %d", p->entry);
		panel = "mshr";
		snprintf(what, sizeof what, "L2 bank %d MSHR entry %d", p->unit, p->entry);
		break;
	case WT_L2_BANK:
	case WT_LINE:
		bad = run_quiet(ss, out, "select l2 %d", p->unit);
		panel = "l2";
		snprintf(what, sizeof what, "L2 bank %d", p->unit);
		break;
	case WT_FRC:
		bad = run_quiet(ss, out, "select l2 %d", p->unit);
		panel = "frc";
		snprintf(what, sizeof what, "L2 bank %d (FRC entry %d)", p->unit, p->entry);
		break;
	case WT_DIR_LINE:
		bad = run_quiet(ss, out, "select l2 %d", p->unit) ||
		      run_quiet(ss, out, "select line 0x%llx", (unsigned long long)p->addr);
		panel = "coherence";
		snprintf(what, sizeof what, "L2 bank %d, line 0x%llx", p->unit, (unsigned long long)p->addr);
		break;
	case WT_DRAM_BANK:
		bad = run_quiet(ss, out, "select channel %d", p->unit) || run_quiet(ss, out, "select bank %d", p->entry);
		panel = "dram";
		snprintf(what, sizeof what, "DRAM channel %d bank %d", p->unit, p->entry);
		break;
	case WT_RF_BANK:
		bad = run_quiet(ss, out, "select sm %d", p->sm);
		panel = "rf";
		snprintf(what, sizeof what, "sm %d register bank %d", p->sm, p->unit);
		break;
	default:
		cmd_errorf(out, "why go: link %d names nothing to select", k + 1);
		return CMD_ERR;
	}
	if (bad)
		return CMD_ERR;
	ss->why_cur = k;
	const char *lay = focus_panel(ss, panel, out);
	char note[64] = "";
	if (ss->sim && sim_cycle(ss->sim) != ss->why_cycle)
		snprintf(note, sizeof note, " (the chain was read at cycle %llu)", (unsigned long long)ss->why_cycle);
	cmd_printf(out, "link %d of %d: %s selected%s%s%s%s", k + 1, ss->why_n, what, ss->ui ? ", " : " (panel ",
		   panel, lay ? " in layout " : ss->ui ? " focused" : ")", lay ? lay : "");
	if (note[0])
		cmd_printf(out, "%s", note + 1);
	return CMD_OK;
}

int cmd_select_mshr(struct session *ss, const char *level, const char *entry, struct cmd_out *out)
{
	struct mshr_info mi;
	int l2 = strcmp(level, "l2") == 0, v;
	if (!l2 && strcmp(level, "l1") != 0) {
		cmd_errorf(out, "select mshr: expected l1 or l2, got '%s'", level);
		return CMD_ERR;
	}
	if (!inspect_mshr(ss->sim, l2 ? CACHE_L2 : CACHE_L1, l2 ? ss->sel_l2 : ss->sel_sm, &mi)) {
		cmd_errorf(out, "select mshr: %s has no MSHRs", l2 ? "the selected L2 bank" : "the selected SM's L1");
		return CMD_ERR;
	}
	if (cmd_parse_index(out, "mshr entry", entry, mi.entries, &v))
		return CMD_ERR;
	ss->sel_mshr_level = l2;
	ss->sel_mshr = v;
	ss->sel_mshr_gen++;
	cmd_printf(out, "selected %s MSHR entry %d", l2 ? "L2" : "L1", v);
	return CMD_OK;
}

CMD_FN(cmd_why)
{
	if (argc == 3 && strcmp(argv[1], "go") == 0)
		return why_go(ss, argv[2], out);
	nav_begin(ss);
	if (argc == 1)
		return why_stop(ss, out);
	if (strcmp(argv[1], "warp") == 0) {
		int sm, slot;
		if (argc > 3)
			return cmd_usage_why(out, "why", "warp takes one warp (W or SM.W), got also '%s'", argv[3]);
		if (argc == 2) {
			sm = ss->sel_sm;
			slot = ss->sel_warp;
		} else if (parse_warp(ss, argv[2], &sm, &slot, out)) {
			return CMD_ERR;
		}
		return why_warp(ss, sm, slot, out);
	}
	if (strcmp(argv[1], "go") == 0)
		return cmd_usage_why(out, "why", "go takes one link number, next or prev");
	if (argc > 2)
		return cmd_usage_why(out, "why", "one address, got also '%s'", argv[2]);
	uint64_t addr;
	if (cmd_parse_u64(argv[1], &addr) == 0) {
		struct why_link l[WHY_MAX];
		int n = inspect_why_line(ss->sim, addr, -1, l, WHY_MAX);
		print_chain(ss, out, l, n);
		return CMD_OK;
	}
	return cmd_usage_why(out, "why", "'%s' is neither warp, go nor an address", argv[1]);
}

/* Our reasons and the Nsight Compute warp states closest to them
 * (docs/CLI.md, `info stalls`). */
static const char *const nsight[STALL__COUNT] = {
	[STALL_MEM] = "LG Throttle",
	[STALL_SCOREBOARD] = "Long Scoreboard",
	[STALL_BARRIER] = "Barrier",
	[STALL_MSHR_FULL] = "LG Throttle (nvprof: Memory Throttle)",
	[STALL_ALU] = "Wait / Math Pipe Throttle",
	[STALL_SHMEM] = "Short Scoreboard / MIO Throttle",
	[STALL_INACTIVE] = "- (scheduler policy; nearest: Not Selected)",
	[STALL_DONE] = "- (no warp left: kernel tail)",
	[STALL_RF] = "- (register file ports; nearest: Dispatch Stall)",
	[STALL_FETCH] = "No Instruction",
};

/* `done` mid-run: the SM's resident warps have all exited and no new CTA
 * has come in yet (a CTA waiting to retire, or none left for this SM): only
 * a finished kernel's are all its tail. */
static const char *stall_nsight(unsigned r, bool finished)
{
	if (r == STALL_DONE && !finished)
		return "- (every resident warp exited; no new CTA in yet)";
	return nsight[r];
}

static void stall_table(struct cmd_out *out, const uint64_t *v, uint64_t issue, bool finished)
{
	uint64_t tot = issue;
	for (unsigned r = STALL_MEM; r < STALL__COUNT; r++)
		tot += v[r];
	cmd_printf(out, "  %-11s %12s %6s  %s", "reason", "cycles", "%", "Nsight Compute warp state");
	cmd_printf(out, "  %-11s %12llu %5.1f%%  %s", "(issued)", (unsigned long long)issue, tot ? 100.0 * (double)issue / (double)tot : 0.0,
		   "Selected");
	for (unsigned r = STALL_MEM; r < STALL__COUNT; r++)
		if (v[r])
			cmd_printf(out, "  %-11s %12llu %5.1f%%  %s", stall_reason_name(r), (unsigned long long)v[r],
				   100.0 * (double)v[r] / (double)tot, stall_nsight(r, finished));
}

static uint64_t stat_u64(const struct sim *s, const char *name)
{
	int id = stats_find(sim_stats_c(s), name);
	return id < 0 ? 0 : (uint64_t)stats_value(sim_stats_c(s), (uint32_t)id);
}

int cmd_info_stalls(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	const struct sim *s = ss->sim;
	int nsm = inspect_sms(s);
	char name[64];
	if (argc > 2) {
		int sm;
		if (cmd_parse_index(out, "sm", argv[2], nsm, &sm))
			return CMD_ERR;
		uint64_t v[STALL__COUNT];
		inspect_sm_stalls(s, sm, v);
		snprintf(name, sizeof name, "sm%d.issue_cycles", sm);
		cmd_printf(out, "sm %d, cycle %llu: cycles with warps resident, by what the SM did", sm,
			   (unsigned long long)sim_cycle(s));
		stall_table(out, v, stat_u64(s, name), sim_done(s));
		return CMD_OK;
	}
	uint64_t all[STALL__COUNT] = {0}, issue = 0;
	for (int i = 0; i < nsm; i++) {
		uint64_t v[STALL__COUNT];
		inspect_sm_stalls(s, i, v);
		for (unsigned r = 0; r < STALL__COUNT; r++)
			all[r] += v[r];
		snprintf(name, sizeof name, "sm%d.issue_cycles", i);
		issue += stat_u64(s, name);
	}
	cmd_printf(out, "all %d SMs, cycle %llu: SM-cycles with warps resident (core.stall.* and smN.issue_cycles)", nsm,
		   (unsigned long long)sim_cycle(s));
	stall_table(out, all, issue, sim_done(s));
	cmd_printf(out, "per SM (top reasons; `info stalls N` for one SM):");
	for (int i = 0; i < nsm; i++) {
		uint64_t v[STALL__COUNT];
		inspect_sm_stalls(s, i, v);
		snprintf(name, sizeof name, "sm%d.issue_cycles", i);
		char line[256];
		int k = snprintf(line, sizeof line, "  sm%-3d issued %llu", i, (unsigned long long)stat_u64(s, name));
		for (int shown = 0; shown < 3; shown++) {
			unsigned best = 0;
			for (unsigned r = STALL_MEM; r < STALL__COUNT; r++)
				if (v[r] > (best ? v[best] : 0))
					best = r;
			if (!best)
				break;
			k += snprintf(line + k, sizeof line - (size_t)k, "  %s %llu", stall_reason_name(best),
				      (unsigned long long)v[best]);
			v[best] = 0;
		}
		cmd_printf(out, "%s", line);
	}
	return CMD_OK;
}
