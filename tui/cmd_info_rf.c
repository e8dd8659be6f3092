/*
 * cmd_info_rf.c: `info rf [SM]`, the register file of one SM as text (the
 * rf panel's content): its counters, the machine-wide ones, the warps it
 * stalls and, for a timed file, banks, queues and the write buffer.
 */
#include <stdio.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"

static uint64_t stat_value(const struct sim *s, const char *name)
{
	const struct stats *st = sim_stats_c(s);
	int id = stats_find(st, name);
	return id >= 0 ? stats_counter_value(st, (uint32_t)id) : 0;
}

/* One line of register-file counters: "  sm 1: ..." or "  all SMs: ...". */
static void rf_counts_line(struct cmd_out *out, bool rt, const char *who, int sm, const struct rf_counts *n,
			   const char *tail)
{
	char name[24], shifts[80] = "";
	if (sm >= 0)
		snprintf(name, sizeof name, "%s %d", who, sm);
	else
		snprintf(name, sizeof name, "%s", who);
	if (rt)
		snprintf(shifts, sizeof shifts, "  shifts %llu (%llu RF cycles)", (unsigned long long)n->shifts,
			 (unsigned long long)n->shift_cycles);
	cmd_printf(out, "  %s: reads %llu  writes %llu%s  conflicts %llu%s", name, (unsigned long long)n->reads,
		   (unsigned long long)n->writes, shifts, (unsigned long long)n->conflicts, tail);
}

static void rf_wb_line(struct cmd_out *out, const char *who, int sm, const struct rf_counts *n)
{
	char name[24];
	if (sm >= 0)
		snprintf(name, sizeof name, "%s %d", who, sm);
	else
		snprintf(name, sizeof name, "%s", who);
	cmd_printf(out, "    %s: raw %llu  void %llu  direct %llu  piggyback %llu  overflow %llu", name,
		   (unsigned long long)n->wb_reads, (unsigned long long)n->wb_voided, (unsigned long long)n->wb_direct,
		   (unsigned long long)n->wb_piggy, (unsigned long long)n->wb_overflow);
}

static int rf_stalled_warps(const struct sim *s, int sm)
{
	int stalled = 0;
	for (int w = 0; w < inspect_warp_slots(s); w++) {
		struct warp_info wi;
		if (inspect_warp(s, sm, w, &wi) && wi.state == WS_STALLED && wi.stall == STALL_RF)
			stalled++;
	}
	return stalled;
}

/* The first line: the register file's kind, geometry and RF clock. */
static void rf_title_line(struct session *ss, int sm, const struct rf_info *fi, struct cmd_out *out)
{
	static const char *const remaps[] = {"contiguous", "eq3_3", "balanced"};
	if (fi->kind == RF_RACETRACK)
		cmd_printf(out, "sm %d register file: racetrack, %d banks x %d entries, %d ports (segment %d), %s, %d regs, "
				"RF cycle %llu",
			   sm, fi->banks, fi->entries, fi->ports, fi->seg, remaps[fi->remap % 3], fi->nregs,
			   (unsigned long long)fi->rf_now);
	else if (fi->timed)
		cmd_printf(out, "sm %d register file: sram, %d banks x %d entries, %d RF cycles per access, %d regs, "
				"RF cycle %llu",
			   sm, fi->banks, fi->entries, ss->cfg.rf.sram_cycles, fi->nregs, (unsigned long long)fi->rf_now);
	else
		cmd_printf(out, "sm %d register file: sram, %d banks x %d entries, free operand path (rf.sram_cycles 0: "
				"no banks or arbitration modelled)",
			   sm, fi->banks, fi->entries);
}

/* The counters: the SM's (timed register file), the machine's with the
 * hazards, stall cycles and energy, then the write buffer's. */
static void rf_counter_lines(const struct sim *s, int sm, const struct rf_info *fi, struct cmd_out *out)
{
	bool rt = fi->kind == RF_RACETRACK;
	char hz[48] = "";
	if (fi->schedulers > 1)
		snprintf(hz, sizeof hz, "  schedule hazards %llu", (unsigned long long)fi->hazards);
	char tail[128];
	snprintf(tail, sizeof tail, "%s  rf stall cycles %llu  energy %.3f nJ", hz,
		 (unsigned long long)stat_value(s, "core.stall.rf"), (double)fi->energy_fj / 1e6);
	if (fi->per_sm) /* smN.rf.* (timed register file) */
		rf_counts_line(out, rt, "sm", sm, &fi->sm, "");
	rf_counts_line(out, rt, "all SMs", -1, &fi->all, tail);
	if (fi->ways) {
		cmd_printf(out, "  write buffer: %d ways per bank", fi->ways);
		if (fi->per_sm)
			rf_wb_line(out, "sm", sm, &fi->sm);
		rf_wb_line(out, "all SMs", -1, &fi->all);
	}
}

/* Bank b's line into sb: its ports (racetrack), shift, write buffer and
 * request queue. Returns the write buffer entries in use. */
static int rf_bank_text(const struct sim *s, int sm, int b, const struct rf_info *fi, const struct rf_bank_info *bi,
			struct strbuf *sb)
{
	bool rt = fi->kind == RF_RACETRACK;
	int used = 0;
	sb_printf(sb, "  b%-2d", b);
	if (bi->sched >= 0)
		sb_printf(sb, " s%d", bi->sched);
	if (rt) {
		sb_printf(sb, "  BML %2d  ports", bi->loc);
		for (int p = 0; p < fi->ports; p++)
			sb_printf(sb, "%c%d", p ? ',' : ' ', bi->loc + p * fi->seg);
		sb_printf(sb, "  proj %2d", bi->tail);
	}
	if (bi->shifting)
		sb_printf(sb, "  shifting %d>%d (%d left)", bi->from, bi->to, bi->remaining);
	if (bi->hazard)
		sb_printf(sb, "  HAZARD");
	if (fi->ways) {
		struct rf_wb_info e;
		for (int k = 0; k < fi->ways && inspect_rf_wb(s, sm, b, k, &e); k++)
			used += e.valid;
		sb_printf(sb, "  wb %d/%d", used, fi->ways);
		for (int k = 0; k < fi->ways && inspect_rf_wb(s, sm, b, k, &e); k++)
			if (e.valid)
				sb_printf(sb, " w%dr%d%s%s", e.warp, e.reg, e.ready ? " R" : "", e.at_port ? "*" : "");
	}
	/* Queue entries, head first: warp, register, R/W, target BML and
	 * distance (racetrack), '*' in service, ~RF cycles waited. */
	sb_printf(sb, "  queue %d", bi->queued);
	struct rf_req_info q;
	for (int i = 0; inspect_rf_req(s, sm, b, i, &q); i++) {
		sb_printf(sb, "%s w%dr%d %c", i ? " |" : ":", q.warp, q.reg, q.write ? 'W' : 'R');
		if (rt)
			sb_printf(sb, ">%d d%d", q.bml, q.dist);
		sb_printf(sb, "%s~%llu", q.in_service ? "*" : " ", (unsigned long long)q.waited);
	}
	return used;
}

/* One line per bank (SRAM: only the banks with requests), then the totals. */
static void rf_bank_lines(const struct sim *s, int sm, const struct rf_info *fi, struct cmd_out *out)
{
	struct strbuf sb;
	sb_init(&sb);
	int queued = 0, busy = 0, wb_used = 0;
	for (int b = 0; b < fi->banks; b++) {
		struct rf_bank_info bi;
		if (!inspect_rf_bank(s, sm, b, &bi))
			continue;
		queued += bi.queued;
		busy += bi.queued > 0;
		sb.len = 0;
		sb.s[0] = 0;
		wb_used += rf_bank_text(s, sm, b, fi, &bi, &sb);
		if (fi->kind == RF_RACETRACK || bi.queued)
			cmd_printf(out, "%s", sb.s);
	}
	sb_fini(&sb);
	if (fi->ways)
		cmd_printf(out, "  queued requests: %d (in %d of %d banks); write buffer: %d of %d entries in use", queued,
			   busy, fi->banks, wb_used, fi->ways * fi->banks);
	else
		cmd_printf(out, "  queued requests: %d (in %d of %d banks)", queued, busy, fi->banks);
}

/* `info rf [SM]`: the register file of one SM (the rf panel as text). With a
 * timed register file the SM's own counters (smN.rf.*) come first, then the
 * machine-wide ones (rf.*, "all SMs", with the hazards, stall cycles and
 * energy); banks, queues and the write buffer are the SM's. */
void cmd_info_rf(struct session *ss, int sm, struct cmd_out *out)
{
	const struct sim *s = ss->sim;
	struct rf_info fi;
	if (!inspect_rf(s, sm, &fi)) {
		cmd_printf(out, "sm %d: no register file model", sm);
		return;
	}
	rf_title_line(ss, sm, &fi, out);
	if (fi.warning[0])
		cmd_printf(out, "  warning: %s", fi.warning);
	rf_counter_lines(s, sm, &fi, out);
	cmd_printf(out, "  warps stalled on the register file now: %d", rf_stalled_warps(s, sm));
	if (fi.timed)
		rf_bank_lines(s, sm, &fi, out);
}
