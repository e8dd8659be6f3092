/*
 * cmd_info.c: the commands that look without changing the machine: info,
 * list, log (the event-log filter) and save (print and display: cmd_print.c;
 * `info rf`: cmd_info_rf.c).
 * Everything reads the engine through sim.h, stats.h and inspect.h.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "mem/frc.h"
#include "debug/inspect.h"
#include "load/loader.h"
#include "session/session_file.h"
#include "debug/snapshot.h"
#include "export/stats_json.h"

static const char *bp_type_name(const struct bp *b)
{
	switch (b->type) {
	case BP_EVENT:
	case BP_CYCLE:
		return !b->temporary ? "breakpoint" : strncmp(b->text, "tbreak", 6) == 0 ? "tbreak" : "until";
	case BP_WATCH_ADDR:
	case BP_WATCH_STAT:
		return "watchpoint";
	}
	return "?";
}

static bool is_watch(const struct bp *b) { return b->type == BP_WATCH_ADDR || b->type == BP_WATCH_STAT; }

/* `info break` lists both kinds; `info watch` only watchpoints, as gdb does. */
static void info_break(struct session *ss, bool watch_only, struct cmd_out *out)
{
	unsigned n = 0;
	for (unsigned i = 0; i < ss->bps.n; i++)
		n += !watch_only || is_watch(&ss->bps.v[i]);
	if (!n) {
		cmd_printf(out, watch_only ? "no watchpoints" : "no breakpoints or watchpoints");
		return;
	}
	cmd_printf(out, "Num  Type        Enb  Hits  What");
	for (unsigned i = 0; i < ss->bps.n; i++) {
		const struct bp *b = &ss->bps.v[i];
		if (watch_only && !is_watch(b))
			continue;
		const char *what = strchr(b->text, ' ') ? strchr(b->text, ' ') + 1 : b->text;
		cmd_printf(out, "%-4d %-11s %-4s %-5llu %s", b->id, bp_type_name(b), b->enabled ? "y" : "n",
			   (unsigned long long)b->hits, what);
		if (b->ignore_to > b->hits && b->hits + 1 >= b->ignore_from)
			cmd_printf(out, "         will ignore the next %llu hits (ignore %d 0 to stop again)",
				   (unsigned long long)(b->ignore_to - b->hits), b->id);
	}
}

static const char *run_state(struct session *ss)
{
	if (sim_deadlock(ss->sim, NULL, 0))
		return "deadlocked: a model bug, see `continue`'s message";
	if (sim_done(ss->sim))
		return "finished";
	return ss->started ? "stopped" : "not started";
}

/* One config value as text (for the summary lines of `info`). */
static const char *cfg_text(const struct session *ss, const char *path, char *buf, size_t n)
{
	const struct cfg_param *p = cfg_find(path);
	buf[0] = 0;
	if (p)
		cfg_format(&ss->cfg, p, buf, n);
	return buf;
}

static void info_session(struct session *ss, struct cmd_out *out)
{
	char sched[CFG_STR_MAX], disp[CFG_STR_MAX];
	cmd_printf(out, "config    %s (%s)", ss->cfg.name, ss->cfg_source[0] ? ss->cfg_source : "built-in");
	cmd_printf(out, "workload  %s: %s", ss->ksrc.name, ss->ksrc.desc);
	cmd_printf(out, "seed      %llu", (unsigned long long)ss->seed);
	/* The dispatch actually used: core.cta_dispatch alone decides, whatever the scheduler. */
	cmd_printf(out, "warps     scheduler %s, CTA dispatch %s", cfg_text(ss, "core.scheduler", sched, sizeof sched),
		   cfg_text(ss, "core.cta_dispatch", disp, sizeof disp));
	cmd_printf(out, "cycle     %llu (%s)", (unsigned long long)sim_cycle(ss->sim), run_state(ss));
	cmd_printf(out, "selected  sm %d warp %d, l2 bank %d, dram channel %d bank %d", ss->sel_sm, ss->sel_warp,
		   ss->sel_l2, ss->sel_ch, ss->sel_bank);
	cmd_printf(out, "breakpoints %u, displays %d", ss->bps.n, ss->ndisplays);
	size_t nsnap, snap_bytes;
	uint64_t snap_iv;
	sim_snapshots_info(ss->sim, &nsnap, &snap_bytes, &snap_iv);
	if (nsnap)
		cmd_printf(out, "rewind    back to cycle %llu: %zu snapshots, %.1f of %zu MB, every %llu cycles",
			   (unsigned long long)sim_rewind_horizon(ss->sim), nsnap, (double)snap_bytes / (1 << 20),
			   ss->snapshot_bytes >> 20, (unsigned long long)snap_iv);
	if (nsnap) {
		uint64_t g = sim_snapshots_max_gap(ss->sim);
		if (g != UINT64_MAX)
			cmd_printf(out, "          a rewind replays at most %llu cycles from cycle %llu on",
				   (unsigned long long)g, (unsigned long long)sim_rewind_window(ss->sim));
	} else
		cmd_printf(out, "rewind    off (--snapshot-mb 0)");
}

/* Returns how many keys it printed. */
static int info_config(struct session *ss, const char *glob, struct cmd_out *out)
{
	struct sim_cfg def;
	cfg_defaults(&def);
	int shown = 0;
	for (size_t i = 0; i < cfg_param_count(); i++) {
		const struct cfg_param *p = cfg_param_at(i);
		if (glob && fnmatch(glob, p->path, 0) != 0 && strncmp(p->path, glob, strlen(glob)) != 0)
			continue;
		char v[CFG_STR_MAX], d[CFG_STR_MAX];
		cfg_format(&ss->cfg, p, v, sizeof v);
		cfg_format(&def, p, d, sizeof d);
		cmd_printf(out, "%c %-28s %s", strcmp(v, d) ? '*' : ' ', p->path, v);
		shown++;
	}
	if (!glob) {
		struct strbuf sb;
		sb_init(&sb);
		cfg_print_derived(&ss->cfg, &sb);
		cmd_printf(out, "derived:");
		cmd_print_block(out, sb.s);
		sb_fini(&sb);
	}
	return shown;
}

static void info_warp_line(struct session *ss, int sm, int slot, struct cmd_out *out)
{
	struct warp_info w;
	if (!inspect_warp(ss->sim, sm, slot, &w))
		return;
	static const char *const states[] = {"empty", "ready", "stalled", "done"};
	if (w.state == WS_EMPTY) {
		cmd_printf(out, "  warp %2d  empty", slot);
		return;
	}
	char cta[24]; /* padded, so the columns of `info sm` line up past CTA 9 */
	snprintf(cta, sizeof cta, "%d.%d", w.cta, w.warp_in_cta);
	/* "#N": the statement number warp.issue's stmt= and `break ... stmt=N` use */
	char stmt[16] = "";
	if (w.next_stmt >= 0)
		snprintf(stmt, sizeof stmt, "#%d ", w.next_stmt);
	cmd_printf(out, "  warp %2d  cta %-7s %-7s %-10s insts %-5llu outstanding %-3d next: %s%s", slot, cta,
		   states[w.state & 3], w.state == WS_STALLED ? stall_reason_name(w.stall) : "",
		   (unsigned long long)w.insts, w.outstanding, stmt, w.next_text ? w.next_text : "-");
}

static int arg_index(struct cmd_out *out, const char *what, int argc, char **argv, int n, int *v)
{
	if (argc < 3)
		return 0; /* keep the selected one */
	if (argc > 3) { /* `info bank 1 2` is not channel 1 bank 2 */
		cmd_errorf(out, "info %s: one number (N), got also '%s'", argv[1], argv[3]);
		return -1;
	}
	return cmd_parse_index(out, what, argv[2], n, v);
}

static void info_events(struct session *ss, uint64_t n, struct cmd_out *out)
{
	const struct events *ev = sim_events_c(ss->sim);
	char *filter = events_log_filter_text(ev);
	if (!events_logged(ev)) {
		cmd_printf(out, "no events logged (log filter: %s; change it with `log`)", filter);
		free(filter);
		return;
	}
	free(filter);
	uint64_t have = MIN(events_logged(ev), (uint64_t)ev->cap);
	if (n > have)
		n = have;
	for (uint64_t i = n; i-- > 0;) {
		char buf[256];
		event_format(events_recent(ev, i), buf, sizeof buf);
		cmd_printf(out, "%s", buf);
	}
}

static void info_mshr(struct session *ss, enum cache_id_kind k, int unit, struct cmd_out *out)
{
	struct mshr_info mi;
	if (!inspect_mshr(ss->sim, k, unit, &mi)) {
		cmd_printf(out, "no MSHRs at %s %d", k == CACHE_L1 ? "sm" : "l2 bank", unit);
		return;
	}
	cmd_printf(out, "%s %d MSHR: %d/%d entries, wait queue %d/%d, retry %d, miss queue %d, ack queue %d, full events %llu",
		   k == CACHE_L1 ? "L1 of sm" : "L2 bank", unit, mi.used, mi.limit, mi.wait_queue, mi.wait_cap,
		   mi.retry_queue, mi.miss_queue, mi.ack_queue, (unsigned long long)mi.full_events);
	for (int i = 0; i < mi.entries; i++) {
		struct mshr_entry_info e;
		if (!inspect_mshr_entry(ss->sim, k, unit, i, &e) || !e.valid)
			continue;
		/* Sectored caches: which sectors of the line this entry fetches. */
		char sect[48] = "";
		if (e.sector_bytes && e.sectors) {
			int n = snprintf(sect, sizeof sect, "  sectors");
			for (int b = 0; b < 32 && n < (int)sizeof sect - 4; b++)
				if (e.sectors >> b & 1u)
					n += snprintf(sect + n, sizeof sect - (size_t)n, " %d", b);
		}
		cmd_printf(out, "  [%2d] 0x%llx%s  merged %d  age %llu%s", i, (unsigned long long)e.addr, sect, e.merged,
			   (unsigned long long)e.age, e.sent ? "  sent" : "");
	}
}

/* `info frc [BANK]`: the FRC of one L2 bank. The counters are the bank's
 * (l2.bankN.frc.* stats; share = l2.bankN.frc.share), with the machine-wide
 * frc.share beside them; the entries are the bank's, FRC set.way order. */
static void info_frc(struct session *ss, int bank, struct cmd_out *out)
{
	struct frc_info fi;
	if (!inspect_frc(ss->sim, bank, &fi)) {
		cmd_printf(out, "no FRC at l2 bank %d: l2.frc.entries is 0 (`set l2.frc.entries 16` at cycle 0 adds one)",
			   bank);
		return;
	}
	cmd_printf(out, "l2 bank %d FRC: %d entries (%d sets x %d ways), %d busy", bank, fi.entries, fi.sets, fi.ways,
		   fi.busy);
	char share[64] = "- (no misses in this bank yet)";
	if (fi.l2_misses)
		snprintf(share, sizeof share, "%.1f%% of %llu bank misses", 100.0 * (double)fi.allocs / (double)fi.l2_misses,
			 (unsigned long long)fi.l2_misses);
	cmd_printf(out, "  this bank: allocs %llu  fallbacks %llu  hits while fetching %llu  swaps %llu  evictions %llu  "
			"share %s",
		   (unsigned long long)fi.allocs, (unsigned long long)fi.fallbacks,
		   (unsigned long long)fi.hits_fetching, (unsigned long long)fi.swaps,
		   (unsigned long long)fi.evictions, share);
	if (fi.all_l2_misses)
		cmd_printf(out, "  all banks: share %.1f%% (%llu allocs / %llu L2 misses)",
			   100.0 * (double)fi.all_allocs / (double)fi.all_l2_misses, (unsigned long long)fi.all_allocs,
			   (unsigned long long)fi.all_l2_misses);
	else
		cmd_printf(out, "  all banks: share - (no L2 misses yet)");
	if (!fi.busy) {
		cmd_printf(out, "  every entry is free");
		return;
	}
	cmd_printf(out, "  ENTRY      STATE     INCOMING      VICTIM          AGE  WAIT  L2 SET.WAY  INV  WB");
	for (int i = 0; i < fi.entries; i++) {
		struct frc_entry_info e;
		if (!inspect_frc_entry(ss->sim, bank, i, &e) || e.state == FRC_FREE)
			continue;
		char id[40], inc[24], vic[24] = "-", l2[32];
		snprintf(id, sizeof id, "[%d] %d.%d", i, i / fi.ways, i % fi.ways);
		snprintf(inc, sizeof inc, "0x%llx", (unsigned long long)e.incoming);
		if (e.victim)
			snprintf(vic, sizeof vic, "0x%llx", (unsigned long long)e.victim);
		if (e.l2_way >= 0)
			snprintf(l2, sizeof l2, "%d.%d", e.l2_set, e.l2_way);
		else
			snprintf(l2, sizeof l2, "%d.-", e.l2_set);
		/* Invalidation acks still due and the dirty victim's write-back
		 * not yet handed to memory: only an evicting entry has them. */
		char inv[16] = "-";
		const char *wb = "-";
		if (e.state == FRC_EVICTING) {
			snprintf(inv, sizeof inv, "%d", e.pending_inv);
			wb = e.wb_pending ? "yes" : "no";
		}
		cmd_printf(out, "  %-10s %-9s %-13s %-13s %5llu %5d  %-10s %4s  %s", id, frc_state_name((unsigned)e.state),
			   inc, vic, (unsigned long long)e.age, e.waiters, l2, inv, wb);
	}
}

/* ---- info SUBJECT: one function per subject, named in info_subject_fns ------- */

static int show_break(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	(void)argc;
	(void)argv;
	info_break(ss, false, out);
	return CMD_OK;
}

static int show_watch(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	(void)argc;
	(void)argv;
	info_break(ss, true, out);
	return CMD_OK;
}

/* `info stats [GLOB|PREFIX]` */
static int show_stats(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	const struct stats *st = sim_stats_c(ss->sim);
	struct strbuf sb;
	sb_init(&sb);
	int shown = 0;
	for (uint32_t i = 0; i < stats_count(st); i++) {
		const char *n = stats_def(st, i)->name;
		if (argc > 2 && fnmatch(argv[2], n, 0) != 0 && strncmp(n, argv[2], strlen(argv[2])) != 0)
			continue;
		sb.len = 0;
		sb.s[0] = 0;
		stats_format(st, i, &sb);
		cmd_printf(out, "%s", sb.s);
		shown++;
	}
	sb_fini(&sb);
	if (!shown && argc > 2) {
		cmd_errorf(out, "info stats: no stat matches '%s' (see list stats)", argv[2]);
		return CMD_ERR;
	}
	return CMD_OK;
}

static int show_config(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	if (!info_config(ss, argc > 2 ? argv[2] : NULL, out)) {
		cmd_errorf(out, "info config: no config key matches '%s' (see list config)", argv[2]);
		return CMD_ERR;
	}
	return CMD_OK;
}

static int show_sm(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_sm;
	if (arg_index(out, "sm", argc, argv, inspect_sms(ss->sim), &v))
		return CMD_ERR;
	int ctas, warps;
	uint64_t insts;
	inspect_sm_summary(ss->sim, v, &ctas, &warps, &insts);
	cmd_printf(out, "sm %d: %d CTAs, %d warps, %llu instructions", v, ctas, warps, (unsigned long long)insts);
	for (int w = 0; w < inspect_warp_slots(ss->sim); w++)
		info_warp_line(ss, v, w, out);
	return CMD_OK;
}

static int show_warp(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_warp;
	if (arg_index(out, "warp", argc, argv, inspect_warp_slots(ss->sim), &v))
		return CMD_ERR;
	cmd_printf(out, "sm %d:", ss->sel_sm);
	info_warp_line(ss, ss->sel_sm, v, out);
	struct warp_info w;
	if (inspect_warp(ss->sim, ss->sel_sm, v, &w) && w.state != WS_EMPTY)
		cmd_printf(out, "           cycles %llu since launch: compute %llu (other stalls %llu), memory stall %llu",
			   (unsigned long long)w.resident_cycles,
			   (unsigned long long)(w.resident_cycles - w.mem_stall_cycles),
			   (unsigned long long)w.other_stall_cycles, (unsigned long long)w.mem_stall_cycles);
	return CMD_OK;
}

static int show_line(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	uint64_t addr;
	if (argc != 3 || cmd_parse_u64(argv[2], &addr)) {
		cmd_errorf(out, "usage: info line ADDR (decimal or 0x hex)");
		return CMD_ERR;
	}
	struct strbuf sb;
	sb_init(&sb);
	inspect_line(ss->sim, addr, &sb);
	cmd_print_block(out, sb.len ? sb.s : "the line is nowhere in the memory system");
	sb_fini(&sb);
	return CMD_OK;
}

static int show_l2(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_l2;
	if (arg_index(out, "l2", argc, argv, inspect_l2_banks(ss->sim), &v))
		return CMD_ERR;
	struct l2_bank_info b;
	if (inspect_l2_bank(ss->sim, v, &b))
		cmd_printf(out,
			   "l2 bank %d: %d/%d lines valid, %d transient, MSHR %d/%d, queue %d, "
			   "accesses %llu hits %llu misses %llu nacks %llu",
			   v, b.valid_lines, b.total_lines, b.transient_lines, b.mshr_used, b.mshr_entries, b.queue,
			   (unsigned long long)b.accesses, (unsigned long long)b.hits, (unsigned long long)b.misses,
			   (unsigned long long)b.nacks);
	return CMD_OK;
}

static int show_frc(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_l2;
	if (arg_index(out, "l2 bank", argc, argv, inspect_l2_banks(ss->sim), &v))
		return CMD_ERR;
	info_frc(ss, v, out);
	return CMD_OK;
}

static int show_rf(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_sm;
	if (arg_index(out, "sm", argc, argv, inspect_sms(ss->sim), &v))
		return CMD_ERR;
	cmd_info_rf(ss, v, out);
	return CMD_OK;
}

static int show_channel(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_ch;
	if (arg_index(out, "channel", argc, argv, inspect_dram_channels(ss->sim), &v))
		return CMD_ERR;
	struct dram_chan_info c;
	if (!inspect_dram_channel(ss->sim, v, &c)) {
		cmd_printf(out, "no DRAM channel %d (mem.model is not dram?)", v);
		return CMD_OK;
	}
	cmd_printf(out, "channel %d: %d banks, read queue %d/%d, write queue %d/%d%s, reads %llu writes %llu, bus %.1f%%", v,
		   c.banks, c.read_q, c.read_cap, c.write_q, c.write_cap, c.draining_writes ? " (draining)" : "",
		   (unsigned long long)c.reads, (unsigned long long)c.writes, c.bus_util * 100);
	return CMD_OK;
}

static int show_bank(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	struct dram_chan_info c;
	int nb = inspect_dram_channel(ss->sim, ss->sel_ch, &c) ? c.banks : 0;
	int v = ss->sel_bank;
	if (arg_index(out, "bank", argc, argv, nb, &v))
		return CMD_ERR;
	struct dram_bank_info b;
	if (!inspect_dram_bank(ss->sim, ss->sel_ch, v, &b)) {
		cmd_printf(out, "no DRAM bank %d in channel %d", v, ss->sel_ch);
		return CMD_OK;
	}
	char row[32] = "no open row"; /* open_row < 0: closed (or precharging) */
	if (b.open_row >= 0)
		snprintf(row, sizeof row, "open row %lld", (long long)b.open_row);
	cmd_printf(out, "channel %d bank %d: %s, %s, queue %d, last %s at %llu, hits %llu misses %llu conflicts %llu",
		   ss->sel_ch, v, dram_bank_state_name(b.state), row, b.queue, b.last_cmd[0] ? b.last_cmd : "-",
		   (unsigned long long)b.last_cmd_cycle, (unsigned long long)b.hits, (unsigned long long)b.misses,
		   (unsigned long long)b.conflicts);
	info_bank_queue(ss, ss->sel_ch, v, out);
	return CMD_OK;
}

/* `info mshr [l1|l2]` */
static int show_mshr(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	const char *bad = argc > 2 && strcmp(argv[2], "l1") != 0 && strcmp(argv[2], "l2") != 0 ? argv[2]
	                  : argc > 3                                                       ? argv[3]
	                                                                                   : NULL;
	if (bad) {
		cmd_errorf(out, "info mshr: expected l1 or l2, got '%s'", bad);
		return CMD_ERR;
	}
	bool l2 = argc > 2 && strcmp(argv[2], "l2") == 0;
	info_mshr(ss, l2 ? CACHE_L2 : CACHE_L1, l2 ? ss->sel_l2 : ss->sel_sm, out);
	return CMD_OK;
}

static int show_events(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	uint64_t n = 20;
	if (argc > 2 && cmd_parse_u64(argv[2], &n)) {
		cmd_errorf(out, "usage: info events [N]");
		return CMD_ERR;
	}
	info_events(ss, n, out);
	return CMD_OK;
}

static int show_coalesce(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	int v = ss->sel_sm;
	if (arg_index(out, "sm", argc, argv, inspect_sms(ss->sim), &v))
		return CMD_ERR;
	info_coalesce(ss, v, out);
	return CMD_OK;
}

static int show_duel(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	uint64_t n = 16;
	if (argc > 2 && (cmd_parse_u64(argv[2], &n) || n == 0)) {
		cmd_errorf(out, "usage: info duel [N] (N intervals, 1 to 32; default 16)");
		return CMD_ERR;
	}
	info_duel(ss, n > 32 ? 32 : (int)n, out);
	return CMD_OK;
}

/* `info threads`: how many threads tick the SMs, why one when the machine
 * cannot use more, the last phase's split and the guard's pause. */
static int show_threads(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	(void)argc;
	(void)argv;
	const struct sim *s = ss->sim;
	const struct sim_cfg *c = sim_cfg(s);
	int n = sim_threads(s);
	cmd_printf(out, "threads: %d ticking the SMs (config threads = %d%s; automatic here: %d)", n, ss->cfg.threads,
		   ss->cfg.threads == 0 ? ", automatic" : "", sim_default_threads(c));
	const char *why = sim_threads_why_one(s);
	if (why) {
		cmd_printf(out, "  this machine runs on one thread whatever is asked: %s", why);
		return CMD_OK;
	}
	if (n == 1) {
		cmd_printf(out, "  this machine can use more: set threads 2 (results are the same for every count)");
		return CMD_OK;
	}
	uint32_t cnt[SIM_MAX_THREADS];
	int k = sim_threads_last_split(s, cnt, SIM_MAX_THREADS);
	if (k > 1) {
		struct strbuf sb;
		sb_init(&sb);
		for (int i = 0; i < k; i++)
			sb_printf(&sb, "%s%u", i ? " / " : "", cnt[i]);
		cmd_printf(out, "  last phase: busy SMs per thread %s (split by their times, at most one SM moved per 64 "
				"phases; who runs an SM changes no result)", sb.s);
		sb_fini(&sb);
	} else if (k == 1) {
		cmd_printf(out, "  last phase: on the calling thread alone (too few busy SMs to share)");
	} else {
		cmd_printf(out, "  no phase run yet");
	}
	unsigned p = sim_threads_paused(s);
	if (p)
		cmd_printf(out, "  paused for the next %u phases: waiting for the other threads cost more than they "
				"took off (a busy core, or phases too short to share); the calling thread runs every SM", p);
	return CMD_OK;
}

static int show_display(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	(void)argc;
	(void)argv;
	char *a[] = {(char *)"display", NULL};
	return cmd_display(ss, 1, a, out);
}

/* The subjects cmd_info_subject (cmd_names.c) resolves abbreviations to. */
static const struct {
	const char *name;
	int (*show)(struct session *ss, int argc, char **argv, struct cmd_out *out);
} info_subject_fns[] = {
	{"break", show_break},     {"breakpoints", show_break}, {"watch", show_watch},   {"watchpoints", show_watch},
	{"stats", show_stats},     {"stalls", cmd_info_stalls}, {"config", show_config}, {"sm", show_sm},
	{"warp", show_warp},       {"line", show_line},         {"l2", show_l2},         {"frc", show_frc},
	{"rf", show_rf},           {"channel", show_channel},   {"ch", show_channel},    {"bank", show_bank},
	{"mshr", show_mshr},       {"events", show_events},     {"duel", show_duel},     {"coalesce", show_coalesce},
	{"display", show_display}, {"threads", show_threads},
};

CMD_FN(cmd_info)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (*what && !(what = cmd_info_subject(what, out)))
		return CMD_ERR;
	if (!*what) {
		info_session(ss, out);
		return CMD_OK;
	}
	for (size_t i = 0; i < ARRAY_LEN(info_subject_fns); i++)
		if (strcmp(what, info_subject_fns[i].name) == 0)
			return info_subject_fns[i].show(ss, argc, argv, out);
	cmd_errorf(out, "info: unknown subject '%s' (break, stats, config, sm, warp, rf, line, l2, frc, "
			"channel, bank, mshr, events, display, coalesce, stalls, duel, threads)",
		   what);
	return CMD_ERR;
}

/* ---- list ------------------------------------------------------------------ */
static void list_names(enum loader_kind k, const char *title, struct cmd_out *out)
{
	size_t n;
	char **names = loader_names(k, &n);
	cmd_printf(out, "%s:", title);
	for (size_t i = 0; i < n; i++) {
		char *d = loader_description(k, names[i]);
		cmd_printf(out, "  %-18s %s", names[i], d);
		free(d);
	}
	loader_names_free(names);
}

CMD_FN(cmd_list)
{
	const char *what = argc > 1 ? argv[1] : "";
	if (strcmp(what, "kernels") == 0 || strcmp(what, "workloads") == 0) {
		list_names(LOADER_KERNELS, "built-in kernels (workload NAME)", out);
	} else if (strcmp(what, "presets") == 0) {
		list_names(LOADER_PRESETS, "machine presets (load NAME, gpustep NAME)", out);
		list_names(LOADER_DRAM_PRESETS, "DRAM presets (\"extends\": \"dram/NAME\")", out);
	} else if (strcmp(what, "events") == 0) {
		for (unsigned i = 0; i < EV__COUNT; i++) {
			char f[96];
			event_field_list(i, f, sizeof f);
			cmd_printf(out, "  %-22s %-32s %s", event_defs[i].name, f, event_defs[i].desc);
		}
	} else if (strcmp(what, "stats") == 0) {
		const struct stats *st = sim_stats_c(ss->sim);
		for (uint32_t i = 0; i < stats_count(st); i++) {
			const struct stat_def *d = stats_def(st, i);
			cmd_printf(out, "  %-32s %-9s %s", d->name, stat_kind_name(d->kind), d->desc);
		}
	} else if (strcmp(what, "config") == 0) {
		for (size_t i = 0; i < cfg_param_count(); i++) {
			const struct cfg_param *p = cfg_param_at(i);
			cmd_printf(out, "  %-28s %-8s %s", p->path, cfg_type_name(p->type), p->desc);
		}
	} else if (strcmp(what, "commands") == 0) {
		for (size_t i = 0; i < cmd_count(ss); i++)
			cmd_printf(out, "  %s", cmd_at(ss, i)->usage);
	} else {
		return argc > 1 ? cmd_usage_why(out, "list", "nothing called '%s' to list", argv[1])
		                : cmd_usage_why(out, "list", "list what?");
	}
	return CMD_OK;
}

/* ---- log filter --------------------------------------------------------------- */
CMD_FN(cmd_log)
{
	struct events *ev = sim_events(ss->sim);
	if (argc == 1) {
		char *t = events_log_filter_text(ev);
		cmd_printf(out, "log: %s (%llu events logged, ring of %u)", t, (unsigned long long)events_logged(ev),
			   ev->cap);
		free(t);
		return CMD_OK;
	}
	uint64_t mask[EV_MASK_WORDS];
	memcpy(mask, ss->log_mask, sizeof mask);
	bool replaced = false; /* the first plain pattern replaces the filter, later ones add to it */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char sign = (a[0] == '+' || a[0] == '-') ? a[0] : 0;
		const char *pat = sign ? a + 1 : a;
		uint64_t m[EV_MASK_WORDS] = {0};
		int n;
		if (strcmp(pat, "all") == 0)
			n = event_match("*", m);
		else if (strcmp(pat, "none") == 0)
			n = 1;
		else
			n = event_match(pat, m);
		if (n == 0) {
			cmd_errorf(out, "log: no event kind matches '%s' (see help events)", pat);
			return CMD_ERR;
		}
		for (int w = 0; w < EV_MASK_WORDS; w++) {
			if (sign == '+')
				mask[w] |= m[w];
			else if (sign == '-')
				mask[w] &= ~m[w];
			else if (replaced)
				mask[w] |= m[w];
			else
				mask[w] = m[w];
		}
		if (!sign)
			replaced = true;
	}
	memcpy(ss->log_mask, mask, sizeof mask);
	memcpy(ev->log_mask, mask, sizeof mask);
	events_update_watch(ev);
	char *t = events_log_filter_text(ev);
	cmd_printf(out, "log: %s", t);
	free(t);
	return CMD_OK;
}

/* ---- save ---------------------------------------------------------------------- */
CMD_FN(cmd_save)
{
	if (argc >= 2 && strcmp(argv[1], "trace") == 0) /* export_trace.c */
		return cmd_save_trace(ss, argc, argv, out);
	/* save session FILE [--state | --replay] (either order); neither: the
	 * state when a replay would take longer than SESSION_STATE_AUTO_SECONDS. */
	int how = 0; /* 1 --state, -1 --replay, 0 choose */
	if (argc == 4 && strcmp(argv[1], "session") == 0) {
		for (int i = 2; i <= 3 && !how; i++)
			if (!strcmp(argv[i], "--state") || !strcmp(argv[i], "--replay")) {
				how = argv[i][2] == 's' ? 1 : -1;
				if (i == 2)
					argv[2] = argv[3];
				argc = 3;
			}
	}
	bool state = how == 1;
	double est = -1;
	if (how == 0 && argc == 3 && strcmp(argv[1], "session") == 0) {
		est = session_replay_estimate(ss);
		state = est > SESSION_STATE_AUTO_SECONDS;
	}
	if (argc < 2)
		return cmd_usage_why(out, "save", "save what?");
	if (strcmp(argv[1], "stats") != 0 && strcmp(argv[1], "config") != 0 && strcmp(argv[1], "session") != 0)
		return cmd_usage_why(out, "save", "cannot save '%s'", argv[1]);
	if (argc < 3)
		return cmd_usage_why(out, "save", "into which file?");
	if (argc > 3)
		return cmd_usage_why(out, "save", "one file, got also '%s'", argv[3]);
	char *err = NULL;
	int rc;
	if (strcmp(argv[1], "session") == 0) {
		rc = session_save_ex(ss, argv[2], state, &err);
		if (rc && how == 0 && state) { /* the automatic choice: a replay still reopens it */
			cmd_printf(out, "note: the machine state could not be stored (%s); the file replays", err);
			free(err);
			err = NULL;
			state = false;
			rc = session_save_ex(ss, argv[2], false, &err);
		}
	} else if (strcmp(argv[1], "stats") == 0) {
		struct stats_json_info info = {ss->cfg.name, ss->ksrc.name, ss->seed};
		rc = stats_json_write(argv[2], ss->sim, &info, &err);
	} else {
		char *text = config_json_string(&ss->cfg);
		rc = write_file_atomic(argv[2], text, &err);
		free(text);
	}
	if (rc) {
		cmd_errorf(out, "save: %s", err);
		free(err);
		return CMD_ERR;
	}
	if (strcmp(argv[2], "-") != 0 && how == 0 && state)
		cmd_printf(out, "wrote %s with the machine state (a replay to cycle %llu would take about %.1f s; --replay "
				"leaves it out)",
			   argv[2], (unsigned long long)sim_cycle(ss->sim), est);
	else if (strcmp(argv[2], "-") != 0)
		cmd_printf(out, "wrote %s", argv[2]);
	return CMD_OK;
}
