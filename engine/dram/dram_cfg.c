/*
 * dram_cfg.c: the `dram.*` parameters, their cross-field rules and derived
 * values (see dram_cfg.h for the organisation picture).
 *
 * The defaults are the built-in teaching DRAM: one GDDR5 channel with the
 * DRAMSim2 timing set of the FRC thesis (notes/000-frc-thesis.md §1.8,
 * table 4.2: tCK 0.667 ns, tCL 18, tRCD 18, tRP 18, tRAS 42, tRC 60, tRRD 9,
 * tFAW 35, tCCD 3, tWTR 8, tWR 4, tRTP 3, tRTRS 1, tRFC 278). Values the
 * thesis leaves open are marked [assumed] in the descriptions and in
 * docs/DRAM.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "addrmap.h"
#include "sim/config.h"

_Static_assert(DRAM_CFG_STR_MAX == CFG_STR_MAX, "dram.mapping is a CFG_STR field");

static const char *const sched_names[] = {"fcfs", "frfcfs", NULL};
static const char *const page_names[] = {"open", "closed", "timeout", NULL};
static const char *const refresh_names[] = {"none", "all_bank", "per_bank", NULL};
static const char *const alloc_names[] = {"interleave", "temp", NULL};
static const char *const clock_names[] = {"core", "dram", NULL};
static const char *const queue_names[] = {"channel", "per_bank", "per_rank", NULL};
static const char *const drain_names[] = {"watermark", "full_or_idle", NULL};

#define P_INT(path, field, def, lo, hi, desc) {path, CFG_INT, CFG_OFF(field), def, lo, hi, 0, NULL, desc}
#define P_POW2(path, field, def, lo, hi, desc) {path, CFG_INT, CFG_OFF(field), def, lo, hi, CFG_POW2, NULL, desc}
#define P_BOOL(path, field, def, desc) {path, CFG_BOOL, CFG_OFF(field), def, 0, 1, 0, NULL, desc}
#define P_ENUM(path, field, def, names, desc) {path, CFG_ENUM, CFG_OFF(field), def, 0, 0, 0, names, desc}
#define P_STR(path, field, def, desc) {path, CFG_STR, CFG_OFF(field), def, 0, 0, 0, NULL, desc}
#define P_T(name, def, lo, desc) P_INT("dram.timing." #name, dram.timing.name, def, lo, 100000, desc " (DRAM cycles)")

static const struct cfg_param dram_params[] = {
	P_INT("dram.channels", dram.channels, "1", 1, 64, "independent channels (one controller each)"),
	P_INT("dram.ranks", dram.ranks, "1", 1, 8, "ranks per channel (share the data bus; tRTRS to switch)"),
	P_POW2("dram.bank_groups", dram.bank_groups, "1", 1, 16,
	       "bank groups per rank (1 = none); bank g of a group is bank % bank_groups"),
	P_INT("dram.banks", dram.banks, "16", 1, 64, "banks per rank, all bank groups together"),
	P_INT("dram.rows", dram.rows, "4096", 1, 1 << 24, "rows per bank"),
	P_POW2("dram.columns", dram.columns, "512", 8, 1 << 16, "columns per row, each dram.bus_bytes wide"),
	P_POW2("dram.bus_bytes", dram.bus_bytes, "4", 1, 256, "data bus width per channel in bytes (GDDR5 device: 4)"),
	P_POW2("dram.burst", dram.burst, "16", 1, 64, "burst length in beats (BL): one column command moves burst x bus_bytes"),
	P_POW2("dram.data_rate", dram.data_rate, "2", 1, 16,
	       "data beats per command clock: 2 = DDR, 4 = GDDR5 (write clock at 2x CK, double data rate)"),
	P_INT("dram.tck_ps", dram.tck_ps, "667", 100, 100000, "DRAM command clock period (ps); all timings count these cycles"),
	P_ENUM("dram.scheduler", dram.scheduler, "frfcfs", sched_names,
	       "fcfs: each bank serves its requests in arrival order; frfcfs: row hits first, then oldest"),
	P_ENUM("dram.page_policy", dram.page_policy, "open", page_names,
	       "open: keep the row open until a conflict; closed: auto-precharge after each request; timeout: close an idle row after page_timeout"),
	P_INT("dram.page_timeout", dram.page_timeout, "200", 1, 1000000, "timeout policy: DRAM cycles an idle open row stays open"),
	P_INT("dram.row_hit_cap", dram.row_hit_cap, "16", 0, 1000000,
	      "frfcfs: row hits served in a row while an older request waits for another row (0 = no cap)"),
	P_INT("dram.read_queue", dram.read_queue, "32", 1, 4096,
	      "read requests per channel, held from enqueue until the L2 takes the data"),
	P_INT("dram.write_queue", dram.write_queue, "32", 1, 4096, "write requests per channel, held until written"),
	P_INT("dram.write_high", dram.write_high, "24", 1, 4096, "start draining writes at this many unissued writes"),
	P_INT("dram.write_low", dram.write_low, "8", 0, 4096, "stop draining writes at this many (when reads wait)"),
	P_ENUM("dram.queue_model", dram.queue_model, "channel", queue_names,
	       "channel: per-channel read/write queues; a request holds its slot until its data returns; per_bank / per_rank: per-channel transaction queues feeding per-bank / per-rank command queues one request per DRAM cycle, command queues served round robin (DRAMSim3 PER_BANK / PER_RANK); a slot frees when the request moves on"),
	P_INT("dram.cmd_queue", dram.cmd_queue, "8", 1, 256, "per_bank: command-queue entries per bank; per_rank: per rank"),
	P_BOOL("dram.dual_cmd", dram.dual_cmd, "false",
	       "two command buses: one row command (ACT, PRE, REF) and one column command (RD, WR) may issue in the same DRAM cycle (HBM; DRAMSim3 hbm_dual_cmd, GPGPU-Sim -dram_dual_bus_interface); false: one command per cycle"),
	P_ENUM("dram.write_drain", dram.write_drain, "watermark", drain_names,
	       "watermark: drain writes from write_high down to write_low; full_or_idle: drain when the write queue is full, or holds more than write_low writes and no read is pending (DRAMSim3 with write_low 8)"),
	P_STR("dram.mapping", dram.mapping, "row:bank:ch:col",
	      "address fields MSB first (row, rank, bank, ch, col); split a field with a bit count, e.g. row:bank[3]:col[4]:bank[1]:ch:col[5]"),
	P_BOOL("dram.bank_xor", dram.bank_xor, "false", "XOR the bank index with the low row bits (spreads row-strided streams)"),
	P_BOOL("dram.page_colour", dram.page_colour, "false",
	       "page colouring: channel/bank/rank bits just above the 4 KB page offset (overrides dram.mapping)"),
	P_ENUM("dram.page_alloc", dram.page_alloc, "interleave", alloc_names,
	       "interleave: the address map places pages; temp: first-touch page colouring into banks bound to the requesting SM (TEMP)"),
	P_INT("dram.temp_pages", dram.temp_pages, "16384", 1, 1 << 22,
	      "temp: page-table entries (4 KB pages placed by first touch; later pages keep their address-map place)"),
	P_BOOL("dram.local_stats", dram.local_stats, "false",
	       "count local/remote accesses (banks bound to SMs as under temp) also with interleave"),
	P_INT("dram.numa_nodes", dram.numa_nodes, "0", 0, 64,
	      "NUMA fabric: SMs and DRAM banks grouped into this many nodes (SM s in node s mod N, a bank in the node of the SM it is bound to, as TEMP binds them); 0 or 1: uniform memory"),
	P_INT("dram.numa_latency", dram.numa_latency, "0", 0, 100000,
	      "NUMA fabric: core cycles a remote access (bank in another node than the requesting SM) adds, the fabric's round trip"),
	P_INT("dram.numa_link_bytes", dram.numa_link_bytes, "0", 0, 4096,
	      "NUMA fabric: bytes per core cycle of each node's link into (reads) and out of (writes) the fabric; 0: unlimited"),
	P_ENUM("dram.refresh", dram.refresh, "all_bank", refresh_names,
	       "refresh: none, all_bank (REF every tREFI blocks the rank for tRFC), per_bank (one bank every tREFI/banks for tRFCpb)"),
	P_BOOL("dram.trace_wrap", dram.trace_wrap, "false",
	       "DRAM-trace mode: wrap addresses at or above the capacity modulo it (false: refuse the trace, naming the line)"),
	P_ENUM("dram.trace_cycles", dram.trace_cycles, "core", clock_names,
	       "DRAM-trace mode: the DRAMSim cycle column counts core cycles, or DRAM cycles (as DRAMSim3; set by a .ini config)"),
	P_T(tCL, "18", 1, "READ to first data beat"),
	P_T(tCWL, "4", 0, "WRITE to first data beat [assumed: GPGPU-Sim GDDR5 WL]"),
	P_T(tRCD, "18", 1, "ACTIVATE to READ/WRITE, same bank"),
	P_T(tRP, "18", 1, "PRECHARGE to ACTIVATE, same bank"),
	P_T(tRAS, "42", 1, "ACTIVATE to PRECHARGE, same bank"),
	P_T(tRC, "60", 1, "ACTIVATE to ACTIVATE, same bank"),
	P_T(tRRD, "9", 1, "ACTIVATE to ACTIVATE, other bank of the rank (tRRD_S)"),
	P_T(tRRD_L, "9", 1, "ACTIVATE to ACTIVATE, same bank group"),
	P_T(tFAW, "35", 0, "window with at most four ACTIVATEs per rank (0 = none)"),
	P_T(tCCD, "3", 1, "column command to column command (tCCD_S)"),
	P_T(tCCD_L, "3", 1, "column to column, same bank group"),
	P_T(tWR, "4", 1, "end of write data to PRECHARGE (write recovery)"),
	P_T(tWTR, "8", 0, "end of write data to READ, same rank (tWTR_S)"),
	P_T(tWTR_L, "8", 0, "end of write data to READ, same bank group"),
	P_T(tRTW, "24", 0, "READ to WRITE command, same channel [assumed: tCL + tBL + 2 - tCWL]"),
	P_T(tRTRS, "1", 0, "rank-to-rank switch on the data bus"),
	P_T(tRTP, "3", 0, "READ to PRECHARGE, same bank"),
	P_T(tRFC, "278", 1, "all-bank REFRESH duration"),
	P_T(tRFCpb, "120", 1, "per-bank REFRESH duration [assumed]"),
	P_T(tREFI, "5850", 1, "refresh interval [assumed: 3.9 us]"),
	P_T(t32AW, "0", 0, "window with at most 32 ACTIVATEs per rank, GDDR5/GDDR6 (0 = none)"),
	P_T(tPPD, "0", 0, "PRECHARGE to PRECHARGE, other bank of the rank, GDDR/LPDDR4 (0 = none)"),
	P_T(tRCDWR, "0", 0, "ACTIVATE to WRITE, same bank (0 = tRCD, which is ACTIVATE to READ)"),
};

static int line_bytes(const struct sim_cfg *c) { return c->l2.line > 0 ? c->l2.line : 128; }

/* Column commands (bursts) one L2 line needs. */
static int dram_cmds_per_line(const struct sim_cfg *c)
{
	int atom = c->dram.bus_bytes * c->dram.burst;
	return line_bytes(c) <= atom ? 1 : line_bytes(c) / atom;
}

/* DRAM cycles one line access holds a bank from its ACTIVATE to the end of
 * the PRECHARGE that follows: ACT to PRE is the longest of tRAS, a read's
 * column commands and tRTP, and a write's column commands, data and tWR;
 * then tRP. */
int dram_access_cycles(const struct sim_cfg *c)
{
	const struct dram_cfg *d = &c->dram;
	const struct dram_timing *t = &d->timing;
	long tbl = d->data_rate > 0 ? d->burst / d->data_rate : d->burst;
	long cols = (long)dram_cmds_per_line(c) - 1, ccd = t->tCCD_L > t->tCCD ? t->tCCD_L : t->tCCD;
	long rcdwr = t->tRCDWR ? t->tRCDWR : t->tRCD;
	long rd = t->tRCD + cols * ccd + t->tRTP;
	long wr = rcdwr + cols * ccd + t->tCWL + tbl + t->tWR;
	long act_pre = t->tRAS;
	if (rd > act_pre)
		act_pre = rd;
	if (wr > act_pre)
		act_pre = wr;
	long v = act_pre + t->tRP;
	return v > INT32_MAX ? INT32_MAX : (int)v;
}

static int dram_validate(const struct sim_cfg *c, char **err)
{
	const struct dram_cfg *d = &c->dram;
	const struct dram_timing *t = &d->timing;
	if (d->burst % d->data_rate)
		return set_err(err, "dram.burst: must be a multiple of dram.data_rate (%d) so a burst is whole cycles, got %d",
			       d->data_rate, d->burst);
	int tbl = d->burst / d->data_rate;
	if (d->burst > d->columns)
		return set_err(err, "dram.burst: must be <= dram.columns (%d), got %d", d->columns, d->burst);
	int atom = d->bus_bytes * d->burst, line = line_bytes(c);
	if (line % atom && atom % line)
		return set_err(err, "dram.burst: burst x bus_bytes (%d B) and l2.line (%d B) must divide one another", atom, line);
	if (t->tRC < t->tRAS + t->tRP)
		return set_err(err, "dram.timing.tRC: must be >= tRAS + tRP (%d + %d = %d), got %d", t->tRAS, t->tRP,
			       t->tRAS + t->tRP, t->tRC);
	if (t->tRAS < t->tRCD)
		return set_err(err, "dram.timing.tRAS: must be >= tRCD (%d), got %d", t->tRCD, t->tRAS);
	if (t->tRRD_L < t->tRRD)
		return set_err(err, "dram.timing.tRRD_L: must be >= tRRD (%d), got %d", t->tRRD, t->tRRD_L);
	if (t->tCCD_L < t->tCCD)
		return set_err(err, "dram.timing.tCCD_L: must be >= tCCD (%d), got %d", t->tCCD, t->tCCD_L);
	if (t->tWTR_L < t->tWTR)
		return set_err(err, "dram.timing.tWTR_L: must be >= tWTR (%d), got %d", t->tWTR, t->tWTR_L);
	if (t->t32AW && t->t32AW < t->tFAW)
		return set_err(err, "dram.timing.t32AW: must be 0 or >= tFAW (%d), got %d", t->tFAW, t->t32AW);
	if (t->tRCDWR > t->tRAS)
		return set_err(err, "dram.timing.tRCDWR: must be <= tRAS (%d), got %d", t->tRAS, t->tRCDWR);
	if (t->tFAW && t->tFAW < t->tRRD)
		return set_err(err, "dram.timing.tFAW: must be 0 or >= tRRD (%d), got %d", t->tRRD, t->tFAW);
	if (t->tRTW < t->tCL + tbl - t->tCWL)
		return set_err(err, "dram.timing.tRTW: must be >= tCL + tBL - tCWL (%d + %d - %d = %d) so read and write data do not overlap, got %d",
			       t->tCL, tbl, t->tCWL, t->tCL + tbl - t->tCWL, t->tRTW);
	/* Refresh must leave room for one access between two REFs. REF falls
	 * due at fixed times and then waits for the bank it needs: an access
	 * started just before (or a row opened and closed unused) delays it by
	 * up to one access; after it ends one whole access must still fit
	 * before the next is due, or the next ACTIVATE is preempted again and
	 * nothing is ever served (the tRFC=590 tREFI=620: a livelock,
	 * not a slow run). Measured on teaching: tREFI = tRFC + 1 access + 1
	 * livelocks, tRFC + 1.5 accesses finishes. */
	int acc = dram_access_cycles(c);
	int rfc = d->refresh == DRAM_REFRESH_PER_BANK ? t->tRFCpb : t->tRFC;
	if (d->refresh == DRAM_REFRESH_PER_BANK && t->tREFI / (d->banks * d->ranks) <= 0)
		return set_err(err, "dram.timing.tREFI: per_bank refresh needs tREFI >= banks x ranks (%d), got %d",
			       d->banks * d->ranks, t->tREFI);
	if (d->refresh != DRAM_REFRESH_NONE && (long)t->tREFI <= (long)rfc + 2L * acc)
		return set_err(err,
			       "dram.timing.tREFI: refresh must leave room for an access: tREFI must be > %s + 2 x one "
			       "access (a REF waits for up to one access, then one must fit before the next REF; one "
			       "access, ACTIVATE to the end of its PRECHARGE, takes %d cycles) = %d + 2 x %d = %ld, got %d",
			       d->refresh == DRAM_REFRESH_PER_BANK ? "tRFCpb" : "tRFC", acc, rfc, acc, (long)rfc + 2L * acc,
			       t->tREFI);
	if (d->banks % d->bank_groups)
		return set_err(err, "dram.bank_groups: must divide dram.banks (%d), got %d", d->banks, d->bank_groups);
	if (d->queue_model == DRAM_QUEUE_PER_BANK && d->cmd_queue * d->banks * d->ranks > 16384)
		return set_err(err, "dram.cmd_queue: per_bank keeps cmd_queue x banks x ranks <= 16384 entries per channel (%d x %d x %d), got %d",
			       d->cmd_queue, d->banks, d->ranks, d->cmd_queue);
	if (d->write_high > d->write_queue)
		return set_err(err, "dram.write_high: must be <= dram.write_queue (%d), got %d", d->write_queue, d->write_high);
	if (d->write_low >= d->write_high)
		return set_err(err, "dram.write_low: must be < dram.write_high (%d), got %d", d->write_high, d->write_low);
	if (d->page_alloc == DRAM_ALLOC_TEMP && (d->columns * d->bus_bytes) % (int)ADDRMAP_PAGE_BYTES)
		return set_err(err, "dram.page_alloc: temp needs rows of whole 4 KB pages (columns x bus_bytes = %d B)",
			       d->columns * d->bus_bytes);
	if (d->numa_nodes > 1) {
		if (c->core.sms % d->numa_nodes)
			return set_err(err, "dram.numa_nodes: must divide core.sms (%d) so every node has as many SMs, got %d",
				       c->core.sms, d->numa_nodes);
		int ngb = d->channels * d->ranks * d->banks;
		if (ngb < c->core.sms && ngb % d->numa_nodes)
			return set_err(err, "dram.numa_nodes: with fewer banks (%d) than SMs it must divide the banks, got %d",
				       ngb, d->numa_nodes);
	} else if (d->numa_latency || d->numa_link_bytes) {
		return set_err(err, "dram.numa_latency / dram.numa_link_bytes: need dram.numa_nodes of 2 or more (got %d)",
			       d->numa_nodes);
	}
	struct addrmap m;
	if (addrmap_init(&m, d, err))
		return -1;
	uint64_t need = (uint64_t)(line > atom ? line : atom) / (uint64_t)d->bus_bytes;
	if (addrmap_low_cols(&m) < need)
		return set_err(err,
			       "dram.mapping: the lowest field must be col with at least %" PRIu64 " values (one %d B line or burst in one row), got \"%s\"",
			       need, line > atom ? line : atom, d->mapping);
	return 0;
}

static void dram_derived(const struct sim_cfg *c, struct strbuf *o)
{
	const struct dram_cfg *d = &c->dram;
	const struct dram_timing *t = &d->timing;
	int tbl = d->burst / (d->data_rate ? d->data_rate : 1);
	int row = d->columns * d->bus_bytes, line = line_bytes(c);
	double dram_mhz = 1e6 / d->tck_ps, core_ns = 1e3 / c->core.clock_mhz, tck_ns = d->tck_ps / 1e3;
	sb_printf(o, "dram.row_bytes             = %d   (columns x bus_bytes)\n", row);
	sb_printf(o, "dram.lines_per_row         = %d   (row_bytes / l2.line %d)\n", row / line, line);
	sb_printf(o, "dram.bytes_per_burst       = %d   (bus_bytes x burst)\n", d->bus_bytes * d->burst);
	sb_printf(o, "dram.beats_per_line        = %d   (l2.line / bus_bytes)\n", line / d->bus_bytes);
	sb_printf(o, "dram.bursts_per_line       = %d   (column commands per request)\n", dram_cmds_per_line(c));
	sb_printf(o, "dram.tBL                   = %d   (burst / data_rate, DRAM cycles)\n", tbl);
	sb_printf(o, "dram.capacity_bytes        = %" PRIu64 "\n",
		  (uint64_t)d->channels * (uint64_t)d->ranks * (uint64_t)d->banks * (uint64_t)d->rows * (uint64_t)row);
	struct addrmap m;
	char *e = NULL;
	if (!addrmap_init(&m, d, &e)) {
		sb_puts(o, "dram.address_map           = ");
		addrmap_describe(&m, o);
		sb_puts(o, "\n");
	}
	free(e);
	sb_printf(o, "dram.clock_mhz             = %.1f   (1e6 / tck_ps)\n", dram_mhz);
	sb_printf(o, "dram.core_per_dram_cycle   = %.4f   (core.clock_mhz / dram clock)\n", c->core.clock_mhz / dram_mhz);
	sb_printf(o, "dram.peak_gbps             = %.2f   (channels x bus_bytes x data_rate / tCK)\n",
		  (double)d->channels * d->bus_bytes * d->data_rate * 1e3 / d->tck_ps);
	int hit = t->tCL + tbl * dram_cmds_per_line(c), miss = t->tRCD + hit, conf = t->tRP + miss;
	sb_printf(o, "dram.row_hit_ns            = %.1f   (tCL + bursts x tBL = %d cycles, %.1f core cycles)\n", hit * tck_ns,
		  hit, hit * tck_ns / core_ns);
	sb_printf(o, "dram.row_miss_ns           = %.1f   (tRCD + hit = %d cycles, %.1f core cycles)\n", miss * tck_ns, miss,
		  miss * tck_ns / core_ns);
	sb_printf(o, "dram.row_conflict_ns       = %.1f   (tRP + tRCD + hit = %d cycles, %.1f core cycles)\n", conf * tck_ns,
		  conf, conf * tck_ns / core_ns);
	if (d->refresh == DRAM_REFRESH_ALL_BANK)
		sb_printf(o, "dram.refresh_overhead      = %.2f%%   (tRFC / tREFI)\n", 100.0 * t->tRFC / t->tREFI);
	else if (d->refresh == DRAM_REFRESH_PER_BANK)
		sb_printf(o, "dram.refresh_overhead      = %.2f%%   (tRFCpb / tREFI, per bank)\n", 100.0 * t->tRFCpb / t->tREFI);
}

const struct cfg_section dram_cfg_section = {
	.name = "dram",
	.params = dram_params,
	.nparams = ARRAY_LEN(dram_params),
	.validate = dram_validate,
	.derived = dram_derived,
};
