/*
 * cmd_whatif_show.c: `whatif show [warps|mshr|dram]` (both machines of the
 * last whatif side by side just after the cycle they part) and `whatif go
 * a|b` (the stepped machine taken there), from what cmd_whatif.c left in
 * whatif_last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "machine/fork.h"
#include "whatif_int.h"


static bool last_ok(struct session *ss, const char *cmd, struct cmd_out *out)
{
	if (!whatif_last.valid || whatif_last.ss != ss) {
		cmd_errorf(out, "whatif %s: no whatif yet (e.g. whatif l2.hit_latency=40)", cmd);
		return false;
	}
	if (whatif_last.sim != ss->sim || sim_cycle(ss->sim) != whatif_last.cycle ||
	    sim_state_hash(ss->sim) != whatif_last.hash) {
		cmd_errorf(out, "whatif %s: the machine moved since `whatif %s` at cycle %llu; run it again", cmd,
			   whatif_last.change, (unsigned long long)whatif_last.cycle);
		return false;
	}
	if (!whatif_last.part.parted) {
		cmd_errorf(out, "whatif %s: A and B did not part (`whatif %s` was identical or the log overflowed)", cmd,
			   whatif_last.change);
		return false;
	}
	return true;
}

struct lines {
	struct strbuf sb;
};

static void lines_print(void *u, const char *text)
{
	struct lines *l = u;
	sb_printf(&l->sb, "%s\n", text);
}

/* One side's machine just after the parting cycle, and what `info` says
 * there, run on it by lending it to the session for one command. */
static void side_info(struct session *ss, const struct sim_cfg *cfg, const char *info, int sm, int ch,
		      struct strbuf *dst)
{
	bool ok;
	char *err = NULL;
	struct sim *s = whatif_last.from_start ? sim_new(cfg, &ss->wl, &err) : sim_fork(ss->sim, cfg, &ok, &err);
	if (!s) {
		sb_printf(dst, "(cannot build: %s)\n", err ? err : "?");
		free(err);
		return;
	}
	if (sim_cycle(s) <= whatif_last.part.cycle)
		sim_step(s, whatif_last.part.cycle + 1 - sim_cycle(s));
	struct sim *keep = ss->sim;
	struct sim_cfg *kcfg = xmalloc(sizeof *kcfg);
	*kcfg = ss->cfg;
	int ksm = ss->sel_sm, kch = ss->sel_ch;
	char kline[sizeof ss->last_line];
	memcpy(kline, ss->last_line, sizeof kline);
	ss->sim = s;
	ss->cfg = *sim_cfg(s);
	ss->sel_sm = sm;
	ss->sel_ch = ch;
	struct lines l;
	sb_init(&l.sb);
	struct cmd_out o = {lines_print, lines_print, &l};
	cmd_exec(ss, info, &o);
	ss->sim = keep;
	ss->cfg = *kcfg;
	ss->sel_sm = ksm;
	ss->sel_ch = kch;
	memcpy(ss->last_line, kline, sizeof kline);
	free(kcfg);
	sim_free(s);
	sb_printf(dst, "%s", l.sb.s ? l.sb.s : "");
	sb_fini(&l.sb);
}

/* Line i of text (without its newline) into buf; false past the end. */
static bool nth_line(const char *text, int i, char *buf, size_t n)
{
	for (; i > 0 && text; i--) {
		text = strchr(text, '\n');
		if (text)
			text++;
	}
	if (!text || !*text)
		return false;
	size_t k = strcspn(text, "\n");
	snprintf(buf, n, "%.*s", (int)k, text);
	return true;
}

int whatif_show(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	const char *what = argc > 2 ? argv[2] : "warps";
	if (argc > 3)
		return cmd_usage_why(out, "whatif", "show takes one of warps, mshr, dram");
	if (!last_ok(ss, "show", out))
		return CMD_ERR;
	const struct event *e = whatif_last.part.has_a ? &whatif_last.part.a : &whatif_last.part.b;
	unsigned f = e->kind < EV__COUNT ? event_defs[e->kind].fields : 0;
	int sm = (f & EVF_SM) && e->sm >= 0 ? e->sm : ss->sel_sm;
	int ch = (f & EVF_CH) && e->ch >= 0 ? e->ch : ss->sel_ch;
	int bank = (f & EVF_BANK) && e->bank >= 0 ? e->bank : ss->sel_bank;
	char info[64];
	if (strcmp(what, "warps") == 0)
		snprintf(info, sizeof info, "info sm %d", sm);
	else if (strcmp(what, "mshr") == 0)
		snprintf(info, sizeof info, "info mshr l1");
	else if (strcmp(what, "dram") == 0)
		snprintf(info, sizeof info, "info bank %d", bank);
	else
		return cmd_usage_why(out, "whatif", "show: '%s' is not warps, mshr or dram", what);
	struct strbuf a, b;
	sb_init(&a);
	sb_init(&b);
	struct sim_cfg base = ss->cfg;
	side_info(ss, &base, info, sm, ch, &a);
	side_info(ss, &whatif_last.cfg_b, info, sm, ch, &b);
	cmd_printf(out, "`%s` just after cycle %llu, where A and B part (whatif %s); '*', A or B: the sides differ", info,
		   (unsigned long long)whatif_last.part.cycle, whatif_last.change);
	/* A's column as wide as its widest line, up to 72. */
	int W = 20;
	for (int i = 0;; i++) {
		char la[512];
		if (!nth_line(a.s ? a.s : "", i, la, sizeof la))
			break;
		int n = (int)strlen(la);
		W = n > W ? (n < 72 ? n : 72) : W;
	}
	/* Side by side when both columns fit 80 columns (the smallest screen);
	 * else one column, a line the sides share once and a differing line as
	 * A's then B's, so nothing wraps into the other side. */
	bool columns = 2 * W + 5 <= 78;
	if (columns)
		cmd_printf(out, "  %-*s | %s", W, "A (as is)", "B (with the change)");
	else
		cmd_printf(out, "  (lines that differ: A, as is, then B, with the change)");
	int diffs = 0;
	for (int i = 0;; i++) {
		char la[512] = "", lb[512] = "";
		bool ha = nth_line(a.s ? a.s : "", i, la, sizeof la), hb = nth_line(b.s ? b.s : "", i, lb, sizeof lb);
		if (!ha && !hb)
			break;
		bool d = strcmp(la, lb) != 0;
		diffs += d;
		if (columns)
			cmd_printf(out, "%c %-*.*s | %s", d ? '*' : ' ', W, W, la, lb);
		else if (!d)
			cmd_printf(out, "  %s", la);
		else {
			if (ha)
				cmd_printf(out, "A %s", la);
			if (hb)
				cmd_printf(out, "B %s", lb);
		}
	}
	cmd_printf(out, "%d line%s differ%s", diffs, diffs == 1 ? "" : "s", diffs == 1 ? "s" : "");
	sb_fini(&a);
	sb_fini(&b);
	return CMD_OK;
}

int whatif_go(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	if (argc != 3 || (strcmp(argv[2], "a") != 0 && strcmp(argv[2], "b") != 0))
		return cmd_usage_why(out, "whatif", "go a or go b?");
	if (!last_ok(ss, "go", out))
		return CMD_ERR;
	uint64_t to = whatif_last.part.cycle + 1;
	if (argv[2][0] == 'a') {
		/* A is the stepped machine's own future. */
		cmd_printf(out, "side A: to cycle %llu, just after the parting event", (unsigned long long)to);
		session_start_run(ss, RUN_GOTO, to - sim_cycle(ss->sim));
		return CMD_RUN;
	}
	if (!whatif_last.from_start) {
		cmd_errorf(out,
			   "whatif go b: B took the change at cycle %llu, mid-run; the machine you step rewinds to cycle 0, "
			   "so it can become B only when B has the change from cycle 0: `whatif %s --from-start`, then `whatif go b`",
			   (unsigned long long)whatif_last.cycle, whatif_last.change);
		return CMD_ERR;
	}
	char *err = NULL;
	struct sim_cfg c = whatif_last.cfg_b;
	if (session_set_config(ss, &c, NULL, &err)) {
		cmd_errorf(out, "whatif go b: %s", err ? err : "cannot rebuild");
		free(err);
		return CMD_ERR;
	}
	whatif_last.valid = false;
	cmd_printf(out, "side B: the machine now has %s from cycle 0; to cycle %llu, just after the parting event",
		   whatif_last.change, (unsigned long long)to);
	session_start_run(ss, RUN_GOTO, to);
	return CMD_RUN | CMD_RESET;
}
