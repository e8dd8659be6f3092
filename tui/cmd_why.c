/*
 * cmd_why.c: `why` (the causal chain from a warp, a line or the event that
 * stopped the run to the structure it waits on) and `info stalls` (stall
 * cycles by reason, per SM and machine-wide, with their Nsight Compute
 * warp-state names). Reads the engine through inspect.h only.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "inspect.h"

#define WHY_MAX 16

static void print_chain(struct cmd_out *out, const struct why_link *l, int n)
{
	for (int i = 0; i < n; i++) {
		char since[32] = "";
		if (l[i].since != UINT64_MAX)
			snprintf(since, sizeof since, "  [since %llu]", (unsigned long long)l[i].since);
		cmd_printf(out, "%s%s%s", i ? "  <- " : "", l[i].text, since);
	}
}

static int why_warp(struct session *ss, int sm, int slot, struct cmd_out *out)
{
	struct why_link l[WHY_MAX];
	int n = inspect_why_warp(ss->sim, sm, slot, l, WHY_MAX);
	cmd_printf(out, "sm %d warp %d at cycle %llu:", sm, slot, (unsigned long long)sim_cycle(ss->sim));
	print_chain(out, l, n);
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

static int why_stop(struct session *ss, struct cmd_out *out)
{
	const struct event *e = &ss->bps.stop_ev;
	if (ss->last_stop != SIM_STOP_BREAK || e->kind >= EV__COUNT) {
		cmd_errorf(out, "why: the run did not stop at an event breakpoint; use `why warp W` or `why ADDR`");
		return CMD_ERR;
	}
	char buf[256];
	event_format(e, buf, sizeof buf);
	cmd_printf(out, "stopped by %s", buf);
	unsigned f = event_defs[e->kind].fields;
	struct why_link l[WHY_MAX];
	if ((f & EVF_SM) && (f & EVF_WARP) && e->sm >= 0 && e->warp >= 0 && e->sm < inspect_sms(ss->sim) &&
	    e->warp < inspect_warp_slots(ss->sim)) {
		int n = inspect_why_warp(ss->sim, e->sm, e->warp, l, WHY_MAX);
		cmd_printf(out, "its warp, sm %d warp %d, now:", e->sm, e->warp);
		print_chain(out, l, n);
		if (!(f & EVF_ADDR))
			return CMD_OK;
	}
	if (f & EVF_ADDR) {
		int n = inspect_why_line(ss->sim, e->addr, (f & EVF_SM) && e->sm >= 0 ? e->sm : -1, l, WHY_MAX);
		cmd_printf(out, "its line now:");
		print_chain(out, l, n);
		return CMD_OK;
	}
	if ((f & EVF_SM) && e->sm >= 0 && e->sm < inspect_sms(ss->sim)) {
		/* An SM-level event (warp.stall, warp.barrier, cta.*): its warps. */
		int shown = 0;
		for (int w = 0; w < inspect_warp_slots(ss->sim) && shown < 4; w++) {
			struct warp_info wi;
			if (inspect_warp(ss->sim, e->sm, w, &wi) && wi.state == WS_STALLED) {
				int n = inspect_why_warp(ss->sim, e->sm, w, l, WHY_MAX);
				print_chain(out, l, n);
				shown++;
			}
		}
		if (!shown)
			cmd_printf(out, "no warp of sm %d is stalled now", e->sm);
		return CMD_OK;
	}
	cmd_printf(out, "(the event names no warp or line; see `info channel`, `info bank`, `info l2`)");
	return CMD_OK;
}

CMD_FN(cmd_why)
{
	if (argc == 1)
		return why_stop(ss, out);
	if (strcmp(argv[1], "warp") == 0) {
		int sm, slot;
		if (argc > 3)
			return cmd_usage(out, "why");
		if (argc == 2) {
			sm = ss->sel_sm;
			slot = ss->sel_warp;
		} else if (parse_warp(ss, argv[2], &sm, &slot, out)) {
			return CMD_ERR;
		}
		return why_warp(ss, sm, slot, out);
	}
	uint64_t addr;
	if (argc == 2 && cmd_parse_u64(argv[1], &addr) == 0) {
		struct why_link l[WHY_MAX];
		int n = inspect_why_line(ss->sim, addr, -1, l, WHY_MAX);
		print_chain(out, l, n);
		return CMD_OK;
	}
	return cmd_usage(out, "why");
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
};

static void stall_table(struct cmd_out *out, const uint64_t *v, uint64_t issue)
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
				   100.0 * (double)v[r] / (double)tot, nsight[r]);
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
		stall_table(out, v, stat_u64(s, name));
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
	stall_table(out, all, issue);
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
