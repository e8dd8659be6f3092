/*
 * rf_cfg.c: the `rf.*` config section (see rf_cfg.h). Defaults follow the
 * thesis (notes 002 §0, Table 3): 16 banks x 64 entries x 128 B, 4 ports per
 * 64-bit track, read 1 / write 2 RF cycles, 1 cycle per shifted bit, the RF at
 * twice the core clock, a 32-entry write buffer. The default kind is `sram`
 * with a free operand path (rf.sram_cycles = 0): the model then only counts
 * accesses and energy and the timing equals a machine without a register file
 * model.
 */
#include <stdio.h>

#include "sim/config.h"

static const char *const kind_names[] = {"sram", "racetrack", NULL};
static const char *const remap_names[] = {"contiguous", "eq3_3", "balanced", NULL};
static const char *const tie_names[] = {"gto", "oldest", "lrr", NULL};
static const char *const scope_names[] = {"bank", "track", NULL};
static const char *const claim_names[] = {"writeback", "issue", NULL};
static const char *const void_names[] = {"issue", "arrival", NULL};
static const char *const spread_names[] = {"interleave", "one_bank", NULL};
static const char *const score_names[] = {"reads", "accesses", NULL};
static const char *const noread_names[] = {"zero", "last", NULL};

#define P_INT(path, field, def, lo, hi, desc) {path, CFG_INT, CFG_OFF(field), def, lo, hi, 0, NULL, desc}
#define P_BOOL(path, field, def, desc) {path, CFG_BOOL, CFG_OFF(field), def, 0, 1, 0, NULL, desc}
#define P_ENUM(path, field, def, names, desc) {path, CFG_ENUM, CFG_OFF(field), def, 0, 0, 0, names, desc}
#define P_DBL(path, field, def, desc) {path, CFG_DOUBLE, CFG_OFF(field), def, 0, 1e9, 0, NULL, desc}

static const struct cfg_param rf_params[] = {
	P_ENUM("rf.kind", rf.kind, "sram", kind_names,
	       "register file technology: sram (baseline) or racetrack (shift to a port before each access)"),
	P_INT("rf.banks", rf.banks, "16", 1, 64, "register banks per SM; a register's bank is reg mod banks"),
	P_INT("rf.entries", rf.entries, "64", 2, 64, "warp registers per bank (= domains per racetrack track)"),
	P_INT("rf.entry_bytes", rf.entry_bytes, "128", 4, 1024,
	      "bytes of one warp register; a racetrack bank has entry_bytes x 8 tracks"),
	P_INT("rf.ports", rf.ports, "4", 1, 64, "racetrack: access ports per track (segment = entries / ports)"),
	P_INT("rf.clock_mhz", rf.clock_mhz, "0", 0, 100000, "register file clock (MHz); 0 = twice core.clock_mhz"),
	P_INT("rf.read_cycles", rf.read_cycles, "1", 1, 100, "racetrack read latency (RF cycles)"),
	P_INT("rf.write_cycles", rf.write_cycles, "2", 1, 100, "racetrack write latency (RF cycles)"),
	P_INT("rf.shift_cycles", rf.shift_cycles, "1", 1, 100, "racetrack: RF cycles per 1-bit shift"),
	P_INT("rf.sram_cycles", rf.sram_cycles, "0", 0, 100,
	      "sram: RF cycles per access; 0 = free operand path (no banks or arbitration, the default)"),
	P_ENUM("rf.remap", rf.remap, "eq3_3", remap_names,
	       "register placement in a bank: contiguous (original), eq3_3 (packed around the ports, Eq. 3.3; "
	       "falls back to balanced with a warning when it overflows a segment), balanced"),
	P_BOOL("rf.warp_shift", rf.warp_shift, "false", "bank = (reg + warp slot) mod banks"),
	P_BOOL("rf.warp_reg_remap", rf.warp_reg_remap, "false",
	       "warp-register remapping (Fig. 11): the banks are split into core.schedulers equal subsets and the warps "
	       "of scheduler k keep all their registers in subset k, so schedulers never share a bank (no effect with "
	       "one scheduler)"),
	P_ENUM("rf.warp_reg_spread", rf.warp_reg_spread, "interleave", spread_names,
	       "with rf.warp_reg_remap: a warp's registers interleave over its subset (reg mod banks/schedulers), or "
	       "all sit in one bank of it (the thesis's figure; consecutive warps of a scheduler take consecutive banks)"),
	P_INT("rf.write_buffer.entries", rf.wb_entries, "32", 0, 1024,
	      "racetrack write buffer entries per SM, a multiple of rf.banks (0 = off: writes go to the banks)"),
	P_ENUM("rf.write_buffer.claim", rf.wb_claim, "writeback", claim_names,
	       "when a result takes its write-buffer entry: writeback (when it arrives; a full set forces the oldest "
	       "out) or issue (the thesis's WBIT logging: issue blocks while every way awaits data)"),
	P_ENUM("rf.write_buffer.void", rf.wb_void, "issue", void_names,
	       "when a buffered result is voided by a newer write of the same warp register (WAW): issue (when the "
	       "newer writer issues, the thesis's 'erased by a later issued instruction'; no reader can need the old "
	       "value then) or arrival (when the newer result arrives; the old value holds its way meanwhile)"),
	P_ENUM("rf.rmws_tiebreak", rf.tiebreak, "gto", tie_names,
	       "rmws: order among warps with the same score (gto: last issued, then oldest)"),
	P_INT("rf.queue_limit", rf.queue_limit, "32", 4, 1024,
	      "arbitrator requests queued in a bank that block issue of instructions using it"),
	P_ENUM("rf.rmws_score", rf.rmws_score, "reads", score_names,
	       "rmws: what the score counts: reads (the thesis: the source registers the banks serve) or accesses "
	       "(also the destination register's distance, for the write it will make)"),
	P_ENUM("rf.rmws_no_reads", rf.rmws_no_reads, "zero", noread_names,
	       "rmws: rank of an instruction whose score covers no register (bar, exit, every source in the write buffer): "
	       "zero (the thesis's Fig. 8 arithmetic, an OR over no operands: it ranks with the best) or last (after every "
	       "warp with a scored register; a choice the thesis does not make)"),
	P_DBL("rf.energy.rm_read_pj", rf.rm_read_pj, "59.34", "racetrack read energy per warp register (pJ)"),
	P_DBL("rf.energy.rm_write_pj", rf.rm_write_pj, "50.49", "racetrack write energy per warp register (pJ)"),
	P_DBL("rf.energy.shift_pj", rf.shift_pj, "1.8", "racetrack shift energy per bit (pJ; scope rf.energy.shift_scope)"),
	P_ENUM("rf.energy.shift_scope", rf.shift_scope, "bank", scope_names,
	       "shift energy per bit counted once per bank step, or once per track (x entry_bytes x 8)"),
	P_DBL("rf.energy.rm_leak_mw", rf.rm_leak_mw, "0.27", "racetrack register file leakage per SM (mW)"),
	P_DBL("rf.energy.sram_read_pj", rf.sram_read_pj, "103.88", "SRAM read energy per warp register (pJ)"),
	P_DBL("rf.energy.sram_write_pj", rf.sram_write_pj, "102.37", "SRAM write energy per warp register (pJ)"),
	P_DBL("rf.energy.sram_leak_mw", rf.sram_leak_mw, "14.41", "SRAM register file leakage per SM (mW)"),
	P_DBL("rf.energy.wb_read_pj", rf.wb_read_pj, "8.34", "write buffer read energy per entry (pJ)"),
	P_DBL("rf.energy.wb_write_pj", rf.wb_write_pj, "8.09", "write buffer write energy per entry (pJ)"),
	P_DBL("rf.energy.wb_leak_mw", rf.wb_leak_mw, "0.94", "write buffer leakage per SM at 32 entries (mW; scaled by rf.write_buffer.entries / 32)"),
};

static int rf_validate(const struct sim_cfg *c, char **err)
{
	const struct rf_cfg *r = &c->rf;
	if (r->entries % r->ports)
		return set_err(err, "rf.ports: must divide rf.entries (%d), got %d", r->entries, r->ports);
	if (r->warp_reg_remap && r->banks % c->core.schedulers)
		return set_err(err, "rf.warp_reg_remap: rf.banks (%d) must be a multiple of core.schedulers (%d)", r->banks,
			       c->core.schedulers);
	if (r->wb_entries % r->banks)
		return set_err(err, "rf.write_buffer.entries: must be a multiple of rf.banks (%d), got %d", r->banks,
			       r->wb_entries);
	if (r->wb_entries / r->banks > 64)
		return set_err(err, "rf.write_buffer.entries: at most 64 per bank, got %d", r->wb_entries / r->banks);
	return 0;
}

static void rf_derived(const struct sim_cfg *c, struct strbuf *o)
{
	const struct rf_cfg *r = &c->rf;
	int mhz = r->clock_mhz ? r->clock_mhz : 2 * c->core.clock_mhz;
	sb_printf(o, "rf.segment                 = %d   (entries / ports; max shift %d)\n", r->entries / r->ports,
		  r->entries / r->ports - 1);
	sb_printf(o, "rf.clock                   = %d MHz   (%s)\n", mhz, r->clock_mhz ? "rf.clock_mhz" : "2 x core");
	sb_printf(o, "rf.warp_registers          = %d   (banks x entries per SM)\n", r->banks * r->entries);
	sb_printf(o, "rf.write_buffer.per_bank   = %d\n", r->wb_entries / r->banks);
}

const struct cfg_section rf_cfg_section = {
	.name = "rf",
	.params = rf_params,
	.nparams = ARRAY_LEN(rf_params),
	.validate = rf_validate,
	.derived = rf_derived,
};
