/*
 * cmd_duel.c: `info duel [N]`: locality bypassing's duel (engine/policy/bypass.h)
 * interval by interval: each leader group's load misses and lookups, the
 * difference, its 95 % margin from those counts, and what the rule did.
 * The engine keeps the last BYP_DUEL_HISTORY closed intervals.
 *
 *   duel: 1 leader set per mode per SM; interval 500 cycles; limit 10 points
 *   followers now plain; cold hold off, unsure hold off; 5 intervals closed
 *   open interval: ends at 3500; so far decoupled 4/6, plain 1/5
 *       END        DECOUPLED            PLAIN   DIFF MARGIN  OUTCOME
 *      1000    32/40     80%     2/2    100%  -20.0 44.2?   -> decoupled
 */
#include <stdio.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "sim/sim.h"

#define DUEL_SHOW_MAX 32

static const char *const outcome_names[] = {"no lookup", "cold hold", "kept", "switched", "unsure hold"};

static void duel_header(struct session *ss, const struct duel_info *d, struct cmd_out *out)
{
	if (ss->cfg.l1.bypass_leaders == BYPL_SETS)
		cmd_printf(out, "duel: %d leader set%s per mode per SM; interval %d cycles; limit %d points",
			   ss->cfg.l1.bypass_duel_sets, ss->cfg.l1.bypass_duel_sets > 1 ? "s" : "", d->interval,
			   d->limit_points);
	else
		cmd_printf(out, "duel: SM0 decoupled, SM1 plain leaders; interval %d cycles; limit %d points",
			   d->interval, d->limit_points);
	cmd_printf(out, "followers now %s; cold hold %s, unsure hold %s; %u interval%s closed",
		   d->followers_decoupled ? "decoupled" : "plain", d->cold_hold ? "on" : "off",
		   d->unsure_hold ? "on" : "off", d->closed, d->closed == 1 ? "" : "s");
	/* The engine closes an interval at the first L1 load lookup after its end. */
	bool ended = sim_cycle(ss->sim) >= d->open_end;
	cmd_printf(out, "open interval: %s %llu; so far decoupled %u/%u, plain %u/%u", ended ? "ended at" : "ends at",
		   (unsigned long long)d->open_end, d->open_miss[0], d->open_acc[0], d->open_miss[1], d->open_acc[1]);
	if (ended)
		cmd_printf(out, "  (it closes at the next L1 load lookup)");
}

void info_duel(struct session *ss, int n, struct cmd_out *out)
{
	struct duel_info d;
	if (!inspect_duel(ss->sim, &d)) {
		cmd_printf(out, "no duel: it needs l1.bypass locality, l1.bypass_duel on, a threshold");
		cmd_printf(out, "above 0 and two leader groups (gtx480: -s l1.bypass=locality)");
		return;
	}
	duel_header(ss, &d, out);
	struct duel_iv_info h[DUEL_SHOW_MAX];
	int k = inspect_duel_history(ss->sim, h, n < DUEL_SHOW_MAX ? n : DUEL_SHOW_MAX);
	if (!k) {
		cmd_printf(out, "no interval closed yet (the first ends at cycle %d)", d.interval);
		return;
	}
	cmd_printf(out, "%7s %16s %16s %6s %6s  %s", "END", "DECOUPLED", "PLAIN", "DIFF", "MARGIN", "OUTCOME");
	int unsure = 0;
	for (int i = 0; i < k; i++) {
		char diff[16] = "-", margin[16] = "-", outcome[24];
		if (h[i].outcome >= 2)
			snprintf(diff, sizeof diff, "%+.1f", h[i].diff_permille / 10.0);
		if (h[i].acc[0] && h[i].acc[1]) {
			snprintf(margin, sizeof margin, "%.1f%s", h[i].margin_points, h[i].unsure ? "?" : "");
			unsure += h[i].unsure;
		}
		if (h[i].outcome == 3)
			snprintf(outcome, sizeof outcome, "-> %s", h[i].followers_decoupled ? "decoupled" : "plain");
		else
			snprintf(outcome, sizeof outcome, "%s", outcome_names[h[i].outcome]);
		cmd_printf(out, "%7llu %5u/%-5u %3.0f%% %5u/%-5u %3.0f%% %6s %-6s  %s", (unsigned long long)h[i].end,
			   h[i].miss[0], h[i].acc[0], cmd_pct(h[i].miss[0], h[i].acc[0]), h[i].miss[1], h[i].acc[1],
			   cmd_pct(h[i].miss[1], h[i].acc[1]), diff, margin, outcome);
	}
	cmd_printf(out, "DECOUPLED, PLAIN: the leaders' load misses/lookups (a bypass is a miss,");
	cmd_printf(out, "a merge a hit); DIFF: points, against the limit; no lookup (a group");
	cmd_printf(out, "made none), cold hold and unsure hold leave the followers as they were");
	if (unsure)
		cmd_printf(out, "?: the limit lies within the 95 %% margin (too few lookups to tell)");
	if (d.closed > (uint32_t)k)
		cmd_printf(out, "(the last %d of %u intervals; `info duel N` shows up to %d)", k, d.closed,
			   DUEL_SHOW_MAX);
}
