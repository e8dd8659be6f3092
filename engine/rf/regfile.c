/*
 * regfile.c: the register file model of regfile.h: placement (contiguous,
 * Eq. 3.3, balanced), append-only FCFS bank queues in the RF clock domain,
 * shifts, the write buffer and the rf.* stats, events and energy counters.
 *
 * Choices where the thesis is silent (docs/REGFILE.md): the write buffer
 * serves a read in the same cycle (its F counter never outlives a cycle, so
 * it is not kept); piggyback drains are appended right after the request that
 * brought the bank to their BML (no shift, the projected BML is unchanged);
 * a WAW void reuses the old entry; the overflow victim is the oldest entry
 * whose data has arrived; the SRAM baseline has no write buffer.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim_int.h"

/* Count n in the machine-wide rf.<what> and the SM's smN.rf.<what> (timed
 * register file: sm->rf is set; rf_check_stat_sums keeps them in step). */
#define RF_ADD(s, sm, what, n)                                                                             \
	do {                                                                                               \
		stat_add(&(s)->stats, (s)->rfm->id.what, (n));                                             \
		stat_add(&(s)->stats, (s)->rfm->sm_id[(sm)->id].what, (n));                                \
	} while (0)

static const uint64_t dist_edges[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
static const uint64_t wait_edges[] = {0, 1, 2, 4, 8, 16, 32, 64, 128};

/* ---- clocks ---------------------------------------------------------- */

uint64_t rf_time_of_core(const struct sim *s, uint64_t c)
{
	const struct rf_model *m = s->rfm;
	return (c / m->core_mhz) * m->rf_mhz + ((c % m->core_mhz) * m->rf_mhz + m->core_mhz - 1) / m->core_mhz;
}
uint64_t rf_core_containing(const struct sim *s, uint64_t t)
{
	const struct rf_model *m = s->rfm;
	return (t / m->rf_mhz) * m->core_mhz + ((t % m->rf_mhz) * m->core_mhz) / m->rf_mhz;
}
uint64_t rf_core_ready(const struct sim *s, uint64_t t)
{
	const struct rf_model *m = s->rfm;
	return (t / m->rf_mhz) * m->core_mhz + ((t % m->rf_mhz) * m->core_mhz + m->rf_mhz - 1) / m->rf_mhz;
}

/* ---- placement --------------------------------------------------------- */

static unsigned idx_reg(const struct rf_model *m, unsigned reg) { return m->nregs ? reg % (unsigned)m->nregs : 0; }
unsigned rf_bank_of(const struct sim *s, int warp, unsigned reg)
{
	return s->rfm->bank[(unsigned)warp * (unsigned)s->rfm->nregs + idx_reg(s->rfm, reg)];
}
unsigned rf_row_of(const struct sim *s, int warp, unsigned reg)
{
	return s->rfm->row[(unsigned)warp * (unsigned)s->rfm->nregs + idx_reg(s->rfm, reg)];
}
unsigned rf_bml_of(const struct sim *s, int warp, unsigned reg) { return rf_row_of(s, warp, reg) % (unsigned)s->rfm->seg; }
unsigned rf_segment(const struct sim *s) { return (unsigned)s->rfm->seg; }

/* Warp-register remapping (rf.warp_reg_remap, Fig. 11) splits the banks into
 * classes: with interleave, class = the warp's scheduler and its registers
 * interleave over the class's banks/schedulers banks; with one_bank, every
 * bank is a class and a scheduler's consecutive warps take its banks in turn.
 * Without it there is one class of all banks. Eqs. 3.1-3.3 then apply per
 * bank with w = the warp's index among the warps of its class. */
static void warp_class(const struct rf_model *m, int ns, int w, int *cls, int *local)
{
	if (m->groups == m->banks && m->gbanks == 1 && ns > 1) { /* one_bank */
		int per = m->banks / ns;                          /* banks per scheduler */
		*cls = (w % ns) * per + (w / ns) % per;
		*local = w / m->banks;
	} else {
		*cls = w % m->groups;
		*local = w / m->groups;
	}
}

static int build_map(struct sim *s, struct rf_model *m, char **err)
{
	const struct rf_cfg *c = &s->cfg.rf;
	int B = m->banks, P = m->ports, S = m->seg, NS = s->cfg.core.schedulers;
	bool wr = c->warp_reg_remap && NS > 1;
	bool one = wr && c->warp_reg_spread == RF_WR_ONE_BANK;
	m->groups = !wr ? 1 : one ? B : NS;
	m->gbanks = !wr ? B : one ? 1 : B / NS;
	int Bc = m->gbanks;
	m->nrb = (m->nregs + Bc - 1) / Bc; /* Eq. 3.1 */
	if (m->nrb > m->entries)
		return set_err(err, "rf.entries: %d registers per thread need %d entries per bank for one warp%s, the bank has %d",
			       m->nregs, m->nrb, wr ? " (rf.warp_reg_remap: a warp uses a subset of the banks)" : "",
			       m->entries);
	m->map_warps = MIN(m->slots, m->entries / m->nrb * m->groups);
	if (m->timed && m->map_warps < (int)s->warps_per_cta)
		return set_err(err,
			       "rf: a CTA of %u warps x %d registers does not fit in %d banks x %d entries (holds %d warps%s)",
			       s->warps_per_cta, m->nregs, B, m->entries, m->map_warps,
			       wr ? " with rf.warp_reg_remap" : "");
	m->bank_warps = (m->map_warps + m->groups - 1) / m->groups;
	int W = m->bank_warps;
	int remap = m->racetrack ? c->remap : RF_REMAP_CONTIGUOUS;
	m->nrps = (m->nrb + P - 1) / P; /* Eq. 3.2 */
	if (remap == RF_REMAP_EQ3_3 && W * m->nrps > S) {
		snprintf(m->warning, sizeof m->warning,
			 "rf.remap eq3_3 overflows a port segment (%d warps x %d registers per segment > %d): using balanced",
			 W, m->nrps, S);
		remap = RF_REMAP_BALANCED;
	}
	m->remap_used = remap;
	size_t nmap = (size_t)m->slots * (size_t)m->nregs;
	m->bank = xcalloc(nmap ? nmap : 1, 1);
	m->row = xcalloc(nmap ? nmap : 1, 1);
	m->owner = xmalloc(sizeof(int32_t) * (size_t)B * (size_t)m->entries);
	for (int i = 0; i < B * m->entries; i++)
		m->owner[i] = -1;
	int per_seg = (W * m->nrb + P - 1) / P;
	m->offset = remap == RF_REMAP_EQ3_3 ? (S - W * m->nrps) / 2 : remap == RF_REMAP_BALANCED ? (S - per_seg) / 2 : 0;
	for (int w = 0; w < m->slots; w++)
		for (int r = 0; r < m->nregs; r++) {
			int cls, wl;
			warp_class(m, wr ? NS : 1, w, &cls, &wl);
			int bank = cls * Bc + (r + (c->warp_shift ? wl : 0)) % Bc, idx = r / Bc, row;
			if (w >= m->map_warps) {
				row = 0; /* never resident when timed (cta_fits) */
			} else if (remap == RF_REMAP_EQ3_3) {
				int bml = m->nrps * wl + idx % m->nrps + m->offset; /* Eq. 3.3 */
				row = (idx / m->nrps) * S + bml;
			} else if (remap == RF_REMAP_BALANCED) {
				int u = wl * m->nrb + idx;
				row = (u % P) * S + u / P + m->offset;
			} else {
				row = wl * m->nrb + idx;
			}
			assert(row >= 0 && row < m->entries);
			m->bank[w * m->nregs + r] = (uint8_t)bank;
			m->row[w * m->nregs + r] = (uint8_t)row;
			if (w < m->map_warps) {
				int32_t *o = &m->owner[bank * m->entries + row];
				if (*o < 0 || (*o >> 8) == w)
					*o = w * 256 + r;
				/* warp_shift with nregs < banks can alias; the first owner is shown */
			}
		}
	return 0;
}

static uint64_t fj(double pj) { return (uint64_t)(pj * 1000.0 + 0.5); }

static uint32_t sm_stat(struct stats *st, int sm, const char *what, const char *help)
{
	char name[48];
	snprintf(name, sizeof name, "sm%d.rf.%s", sm, what);
	return stats_counter(st, name, help);
}

static void register_stats(struct sim *s, struct rf_model *m)
{
	struct stats *st = &s->stats;
	m->id.reads = stats_counter(st, "rf.reads", "warp-register reads served by the register banks");
	m->id.writes = stats_counter(st, "rf.writes", "warp-register writes performed in the register banks");
	m->id.requests = stats_counter(st, "rf.requests", "requests queued at the bank arbitrators (reads + writes, timed model)");
	m->id.shifts = stats_counter(st, "rf.shifts", "racetrack requests that shifted their bank (distance > 0)");
	m->id.shift_cycles = stats_counter(st, "rf.shift_cycles", "RF cycles racetrack banks spent shifting");
	m->id.shift_dist = stats_hist(st, "rf.shift_distance", "shift distance per request (bits; last bucket 15 and more)",
				      dist_edges, (uint32_t)ARRAY_LEN(dist_edges));
	m->id.wait_cycles = stats_counter(st, "rf.wait_cycles", "RF cycles requests waited in the arbitrator before service");
	m->id.wait = stats_hist(st, "rf.wait", "RF cycles a request waited before its bank served it", wait_edges,
				(uint32_t)ARRAY_LEN(wait_edges));
	stats_ratio(st, "rf.wait_avg", "mean RF cycles a request waited", "rf.wait_cycles", "rf.requests", 1.0);
	m->id.conflicts = stats_counter(st, "rf.bank_conflicts", "requests that found their bank busy");
	m->id.score = stats_hist(st, "rf.rmws_score", "RMWS score of each issued instruction (any scheduler; racetrack)",
				 dist_edges, (uint32_t)ARRAY_LEN(dist_edges));
	m->id.wb_allocs = stats_counter(st, "rf.wb.allocs", "destinations that claimed a new write-buffer entry");
	m->id.wb_reads = stats_counter(st, "rf.wb.reads", "source reads served by the write buffer (RAW)");
	m->id.wb_voided = stats_counter(st, "rf.wb.voided", "buffered writes voided by a newer write (WAW)");
	m->id.wb_direct = stats_counter(st, "rf.wb.direct", "buffered writes whose register was at a port of an idle bank");
	m->id.wb_piggy = stats_counter(st, "rf.wb.piggyback", "buffered writes drained behind a request at their BML");
	m->id.wb_overflow = stats_counter(st, "rf.wb.overflow", "buffered writes forced to the bank to free an entry");
	m->id.e_read = stats_counter(st, "rf.energy.read", "register bank read energy (fJ)");
	m->id.e_write = stats_counter(st, "rf.energy.write", "register bank write energy (fJ)");
	m->id.e_shift = stats_counter(st, "rf.energy.shift", "racetrack shift energy (fJ)");
	m->id.e_wb = stats_counter(st, "rf.energy.wb", "write-buffer read and write energy (fJ)");
	m->id.e_leak = stats_counter(st, "rf.energy.leakage", "register file and write-buffer leakage, all SMs (fJ)");
	m->id.e_total = stats_counter(st, "rf.energy.total", "register file energy: read + write + shift + wb + leakage (fJ)");
	m->id.fallback = stats_counter(st, "rf.remap_fallback", "1 when rf.remap eq3_3 overflowed and balanced was used");
	if (s->cfg.core.schedulers > 1)
		m->id.hazards = stats_counter(st, "rf.schedule_hazards",
					      "issue stages in which two schedulers queued reads moving one racetrack bank in "
					      "opposite directions (counted once per bank)");
	if (!m->timed) /* the free SRAM path: machine-wide counts only */
		return;
	m->id.read_wait_cycles = stats_counter(st, "rf.read_wait_cycles",
					       "RF cycles source reads waited in the arbitrator (the part of rf.wait_cycles "
					       "that delays operand collection; the rest is writes)");
	m->sm_id = xcalloc((size_t)s->cfg.core.sms, sizeof *m->sm_id);
	for (int i = 0; i < s->cfg.core.sms; i++) {
		struct rf_sm_ids *d = &m->sm_id[i];
		d->reads = sm_stat(st, i, "reads", "this SM's warp-register reads served by its banks (rf.reads)");
		d->writes = sm_stat(st, i, "writes", "this SM's warp-register writes in its banks (rf.writes)");
		d->conflicts = sm_stat(st, i, "bank_conflicts", "this SM's requests that found their bank busy "
								"(rf.bank_conflicts)");
		if (m->racetrack) {
			d->shifts = sm_stat(st, i, "shifts", "this SM's racetrack requests that shifted (rf.shifts)");
			d->shift_cycles = sm_stat(st, i, "shift_cycles", "RF cycles this SM's banks spent shifting "
									 "(rf.shift_cycles)");
		}
		if (m->wb_on) {
			d->wb_allocs = sm_stat(st, i, "wb.allocs", "this SM's write-buffer entries claimed (rf.wb.allocs)");
			d->wb_reads = sm_stat(st, i, "wb.reads", "this SM's source reads served by its write buffer "
								 "(rf.wb.reads)");
			d->wb_voided = sm_stat(st, i, "wb.voided", "this SM's buffered writes voided (rf.wb.voided)");
			d->wb_direct = sm_stat(st, i, "wb.direct", "this SM's buffered writes at a port of an idle bank "
								   "(rf.wb.direct)");
			d->wb_piggy = sm_stat(st, i, "wb.piggyback", "this SM's buffered writes drained behind a request "
								     "(rf.wb.piggyback)");
			d->wb_overflow = sm_stat(st, i, "wb.overflow", "this SM's buffered writes forced out to free an "
								       "entry (rf.wb.overflow)");
		}
	}
}

int rf_init(struct sim *s, char **err)
{
	const struct rf_cfg *c = &s->cfg.rf;
	struct rf_model *m = xcalloc(1, sizeof(*m));
	s->rfm = m;
	m->racetrack = c->kind == RF_RACETRACK;
	m->timed = m->racetrack || c->sram_cycles > 0;
	m->banks = c->banks;
	m->entries = c->entries;
	m->ports = m->racetrack ? c->ports : c->entries;
	m->seg = m->entries / m->ports;
	m->nregs = (int)(s->nregs ? s->nregs : 1);
	m->slots = s->cfg.core.warps_per_sm;
	m->core_mhz = (uint64_t)s->cfg.core.clock_mhz;
	m->rf_mhz = c->clock_mhz ? (uint64_t)c->clock_mhz : 2 * m->core_mhz;
	m->rd_cyc = (unsigned)(m->racetrack ? c->read_cycles : c->sram_cycles);
	m->wr_cyc = (unsigned)(m->racetrack ? c->write_cycles : c->sram_cycles);
	m->sh_cyc = (unsigned)c->shift_cycles;
	m->wb_on = m->racetrack && c->wb_entries > 0;
	m->ways = m->wb_on ? c->wb_entries / c->banks : 0;
	m->qlimit = c->queue_limit;
	m->qcap = m->qlimit + 2 * m->slots + s->cfg.core.mem_inflight + m->ways + 8;
	m->e_read = fj(m->racetrack ? c->rm_read_pj : c->sram_read_pj);
	m->e_write = fj(m->racetrack ? c->rm_write_pj : c->sram_write_pj);
	m->e_shift = fj(c->shift_pj) * (c->shift_scope == RF_SHIFT_PER_TRACK ? (uint64_t)c->entry_bytes * 8 : 1);
	m->e_wbr = fj(c->wb_read_pj);
	m->e_wbw = fj(c->wb_write_pj);
	/* Table 3's write-buffer leakage is for 32 entries; it scales with the array */
	double wb_leak = m->wb_on ? c->wb_leak_mw * (double)c->wb_entries / 32.0 : 0;
	m->leak_nw = (uint64_t)((m->racetrack ? c->rm_leak_mw + wb_leak : c->sram_leak_mw) * 1e6 + 0.5);
	if (build_map(s, m, err))
		return -1;
	register_stats(s, m);
	if (!m->timed)
		return 0;
	for (int i = 0; i < s->cfg.core.sms; i++) {
		struct sm *sm = &s->sms[i];
		ARENA_SET(&s->arena, sm->rf, struct rf_sm, 1);
		ARENA_SET(&s->arena, sm->rf->bank, struct rf_bank, m->banks);
		ARENA_SET(&s->arena, sm->rf->ops, struct rf_op, (size_t)m->banks * (size_t)m->qcap);
		if (m->ways)
			ARENA_SET(&s->arena, sm->rf->wb, struct rf_wbe, (size_t)m->banks * (size_t)m->ways);
		if (s->cfg.core.schedulers > 1)
			ARENA_SET(&s->arena, sm->rf->hz, struct rf_hz, m->banks);
	}
	return 0;
}

void rf_free(struct sim *s)
{
	if (!s->rfm)
		return;
	free(s->rfm->bank);
	free(s->rfm->row);
	free(s->rfm->owner);
	free(s->rfm->sm_id);
	free(s->rfm);
	s->rfm = NULL;
}

bool rf_timed(const struct sim *s) { return s->rfm && s->rfm->timed; }

/* ---- bank queues --------------------------------------------------------- */

static struct rf_op *qat(const struct sim *s, const struct sm *sm, unsigned b, unsigned i)
{
	const struct rf_model *m = s->rfm;
	const struct rf_bank *bk = &sm->rf->bank[b];
	return &sm->rf->ops[(size_t)b * (size_t)m->qcap + (bk->head + i) % (unsigned)m->qcap];
}

static void emit_shift(struct sim *s, struct sm *sm, unsigned b, const struct rf_op *op, bool done)
{
	if (op->from == op->to)
		return;
	if (done)
		EV_EMIT(&s->ev, EV_RF_SHIFT_DONE, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)op->warp,
			.unit = (int16_t)b, .a = op->to, .b = op->to > op->from ? op->to - op->from : op->from - op->to);
	else
		EV_EMIT(&s->ev, EV_RF_SHIFT_START, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)op->warp,
			.unit = (int16_t)b, .a = op->from, .b = op->to);
}

/* Retire what has happened by the end of the current core cycle. */
static void bank_advance(struct sim *s, struct sm *sm, unsigned b)
{
	struct rf_bank *bk = &sm->rf->bank[b];
	uint64_t now = s->st->now;
	while (bk->n) {
		struct rf_op *op = qat(s, sm, b, 0);
		uint64_t t;
		if (!(op->flags & RFF_STARTED)) {
			if ((t = rf_core_containing(s, op->t_start)) > now)
				goto wait;
			op->flags |= RFF_STARTED;
			emit_shift(s, sm, b, op, false);
		}
		if (!(op->flags & RFF_SHIFTED)) {
			if ((t = rf_core_containing(s, op->t_sh_end)) > now)
				goto wait;
			op->flags |= RFF_SHIFTED;
			bk->loc = op->to;
			emit_shift(s, sm, b, op, true);
		}
		if ((t = rf_core_containing(s, op->t_end)) > now)
			goto wait;
		bk->head = (uint16_t)((bk->head + 1) % s->rfm->qcap);
		bk->n--;
		if (bk->n + 1 == s->rfm->qlimit)
			sm_wake(sm); /* an issue blocked on the queue limit may go */
		continue;
	wait:
		sim_wake_at(s, t);
		return;
	}
}

bool rf_busy(const struct sim *s, const struct sm *sm)
{
	if (!sm->rf)
		return false;
	for (unsigned b = 0; b < (unsigned)s->rfm->banks; b++)
		if (sm->rf->bank[b].n)
			return true;
	return false;
}

void rf_tick(struct sim *s, struct sm *sm)
{
	if (!sm->rf)
		return;
	for (unsigned b = 0; b < (unsigned)s->rfm->banks; b++)
		if (sm->rf->bank[b].n)
			bank_advance(s, sm, b);
}

static void energy(struct sim *s, uint32_t id, uint64_t fj_) { stat_add(&s->stats, id, fj_); }

/* Queue one request at bank b; returns it. */
static const struct rf_op *push(struct sim *s, struct sm *sm, unsigned b, int warp, unsigned reg, int kind, int src,
				unsigned bml)
{
	const struct rf_model *m = s->rfm;
	struct rf_bank *bk = &sm->rf->bank[b];
	assert(bk->n < m->qcap);
	uint64_t arr = rf_time_of_core(s, s->st->now);
	uint64_t start = bk->free_at > arr ? bk->free_at : arr;
	unsigned from = bk->tail, d = bml > from ? bml - from : from - bml;
	bool shifting_ahead = false;
	for (unsigned i = 0; i < bk->n && start > arr; i++) {
		const struct rf_op *q = qat(s, sm, b, i);
		if (q->from != q->to && q->t_sh_end > arr)
			shifting_ahead = true;
	}
	struct rf_op *op = &sm->rf->ops[(size_t)b * (size_t)m->qcap + (bk->head + bk->n) % (unsigned)m->qcap];
	*op = (struct rf_op){.t_arr = arr, .t_start = start, .t_sh_end = start + (uint64_t)d * m->sh_cyc,
			     .warp = (uint16_t)warp, .reg = (uint8_t)reg, .kind = (uint8_t)kind, .src = (uint8_t)src,
			     .from = (uint8_t)from, .to = (uint8_t)bml};
	op->t_end = op->t_sh_end + (kind == RFO_READ ? m->rd_cyc : m->wr_cyc);
	unsigned ahead = bk->n;
	bk->n++;
	sim_act_sm(s, sm); /* rf_tick retires it */
	bk->free_at = op->t_end;
	bk->tail = (uint8_t)bml;
	struct stats *st = &s->stats;
	if (kind == RFO_READ)
		RF_ADD(s, sm, reads, 1);
	else
		RF_ADD(s, sm, writes, 1);
	energy(s, kind == RFO_READ ? m->id.e_read : m->id.e_write, kind == RFO_READ ? m->e_read : m->e_write);
	stat_inc(st, m->id.requests);
	stat_add(st, m->id.wait_cycles, start - arr);
	if (kind == RFO_READ)
		stat_add(st, m->id.read_wait_cycles, start - arr);
	stat_hist_add(st, m->id.wait, start - arr);
	if (m->racetrack) {
		stat_hist_add(st, m->id.shift_dist, d);
		if (d) {
			RF_ADD(s, sm, shifts, 1);
			RF_ADD(s, sm, shift_cycles, (uint64_t)d * m->sh_cyc);
			energy(s, m->id.e_shift, (uint64_t)d * m->e_shift);
		}
	}
	if (start > arr) {
		RF_ADD(s, sm, conflicts, 1);
		EV_EMIT(&s->ev, EV_RF_BANK_CONFLICT, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)warp,
			.unit = (int16_t)b, .a = ahead, .b = reg);
		if (shifting_ahead && kind == RFO_READ) /* a warp waits for reads only */
			EV_EMIT(&s->ev, EV_RF_SHIFT_STALL, .cycle = s->st->now, .sm = (int16_t)sm->id,
				.warp = (int16_t)warp, .unit = (int16_t)b, .a = (int64_t)(start - arr), .b = reg);
	}
	bank_advance(s, sm, b);
	return op;
}

/* ---- write buffer ---------------------------------------------------------- */

static struct rf_wbe *wb_way(const struct sim *s, const struct sm *sm, unsigned b, int way)
{
	return &sm->rf->wb[(size_t)b * (size_t)s->rfm->ways + (size_t)way];
}

static int wb_find(const struct sim *s, const struct sm *sm, unsigned b, int warp, unsigned reg)
{
	for (int i = 0; i < s->rfm->ways; i++) {
		const struct rf_wbe *e = wb_way(s, sm, b, i);
		if (e->v && e->warp == warp && e->reg == reg)
			return i;
	}
	return -1;
}

static void wb_drain(struct sim *s, struct sm *sm, unsigned b, int way, int src)
{
	const struct rf_model *m = s->rfm;
	struct rf_wbe *e = wb_way(s, sm, b, way);
	energy(s, m->id.e_wb, m->e_wbr);
	if (src == RFS_DIRECT)
		RF_ADD(s, sm, wb_direct, 1);
	else if (src == RFS_PIGGY)
		RF_ADD(s, sm, wb_piggy, 1);
	else
		RF_ADD(s, sm, wb_overflow, 1);
	EV_EMIT(&s->ev, EV_RF_WB_DRAIN, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)e->warp,
		.unit = (int16_t)b, .a = e->reg, .b = src == RFS_DIRECT ? EVD_DIRECT : src == RFS_PIGGY ? EVD_PIGGYBACK : EVD_FORCED);
	e->v = 0;
	push(s, sm, b, e->warp, e->reg, RFO_WRITE, src, e->bml);
	sm_wake(sm); /* a way is free */
}

/* Buffered writes whose register the newest request brought under a port. */
static void piggyback(struct sim *s, struct sm *sm, unsigned b)
{
	for (int i = 0; i < s->rfm->ways; i++) {
		struct rf_wbe *e = wb_way(s, sm, b, i);
		if (e->v && e->r && e->bml == sm->rf->bank[b].tail)
			wb_drain(s, sm, b, i, RFS_PIGGY);
	}
}

/* Way for a new destination: free, else -1 with *victim = oldest with data. */
static int wb_free_way(const struct sim *s, const struct sm *sm, unsigned b, int *victim)
{
	*victim = -1;
	for (int i = 0; i < s->rfm->ways; i++) {
		const struct rf_wbe *e = wb_way(s, sm, b, i);
		if (!e->v)
			return i;
		if (e->r && (*victim < 0 || e->seq < wb_way(s, sm, b, *victim)->seq))
			*victim = i;
	}
	return -1;
}

/* ---- the operand path ------------------------------------------------------ */

int rf_bank_reads(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, uint8_t *regs)
{
	int n = 0;
	for (unsigned i = 0; i < in->nsrc; i++) {
		bool dup = false;
		for (int k = 0; k < n; k++)
			dup |= regs[k] == in->src[i];
		for (unsigned k = 0; k < i; k++)
			dup |= in->src[k] == in->src[i];
		if (dup)
			continue;
		if (s->rfm->wb_on && sm->rf) {
			unsigned b = rf_bank_of(s, slot, in->src[i]);
			int w = wb_find(s, sm, b, slot, in->src[i]);
			if (w >= 0 && wb_way(s, sm, b, w)->r)
				continue;
		}
		regs[n++] = in->src[i];
	}
	return n;
}

unsigned rf_score(const struct sim *s, const struct sm *sm, int slot, const struct winst *in)
{
	int nscored;
	return rf_score_n(s, sm, slot, in, &nscored);
}

unsigned rf_score_n(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, int *nscored)
{
	*nscored = 0;
	if (!sm->rf)
		return 0;
	uint8_t regs[3];
	int n = rf_bank_reads(s, sm, slot, in, regs);
	*nscored = n;
	unsigned score = 0;
	for (int i = 0; i < n; i++) {
		unsigned bml = rf_bml_of(s, slot, regs[i]), t = sm->rf->bank[rf_bank_of(s, slot, regs[i])].tail;
		unsigned d = bml > t ? bml - t : t - bml;
		if (d > score)
			score = d;
	}
	if (s->cfg.rf.rmws_score == RF_SCORE_ACCESSES && in->ndst) { /* the destination write's distance as well */
		++*nscored;
		unsigned bml = rf_bml_of(s, slot, in->dst), t = sm->rf->bank[rf_bank_of(s, slot, in->dst)].tail;
		unsigned d = bml > t ? bml - t : t - bml;
		if (d > score)
			score = d;
	}
	return score;
}

bool rf_blocked(struct sim *s, struct sm *sm, int slot, const struct winst *in)
{
	const struct rf_model *m = s->rfm;
	if (!sm->rf || in->op == KOP_EXIT)
		return false;
	uint8_t regs[3];
	int n = rf_bank_reads(s, sm, slot, in, regs);
	for (int i = 0; i < n; i++)
		if (sm->rf->bank[rf_bank_of(s, slot, regs[i])].n >= m->qlimit)
			return true;
	if (!in->ndst)
		return false;
	unsigned b = rf_bank_of(s, slot, in->dst);
	if (sm->rf->bank[b].n >= m->qlimit)
		return true;
	if (!m->wb_on || s->cfg.rf.wb_claim != RF_WB_AT_ISSUE || wb_find(s, sm, b, slot, in->dst) >= 0)
		return false;
	int victim;
	if (wb_free_way(s, sm, b, &victim) >= 0 || victim >= 0)
		return false;
	EV_EMIT(&s->ev, EV_RF_WB_FULL, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
		.unit = (int16_t)b);
	return true;
}

int rf_block_reason(const struct sim *s, const struct sm *sm, int slot, const struct winst *in, unsigned *bank,
		    unsigned *reg)
{
	const struct rf_model *m = s->rfm;
	if (!sm->rf || in->op == KOP_EXIT)
		return RFB_NONE;
	uint8_t regs[3];
	int n = rf_bank_reads(s, sm, slot, in, regs);
	for (int i = 0; i < n; i++) {
		*bank = rf_bank_of(s, slot, regs[i]);
		*reg = regs[i];
		if (sm->rf->bank[*bank].n >= m->qlimit)
			return RFB_READ_QUEUE;
	}
	if (!in->ndst)
		return RFB_NONE;
	*bank = rf_bank_of(s, slot, in->dst);
	*reg = in->dst;
	if (sm->rf->bank[*bank].n >= m->qlimit)
		return RFB_DST_QUEUE;
	if (!m->wb_on || s->cfg.rf.wb_claim != RF_WB_AT_ISSUE || wb_find(s, sm, *bank, slot, in->dst) >= 0)
		return RFB_NONE;
	int victim;
	if (wb_free_way(s, sm, *bank, &victim) >= 0 || victim >= 0)
		return RFB_NONE;
	return RFB_WB_FULL;
}

void rf_issue_stage(struct sim *s, struct sm *sm)
{
	if (!sm->rf || !sm->rf->hz || !s->rfm->racetrack)
		return;
	for (int b = 0; b < s->rfm->banks; b++) {
		struct rf_hz *h = &sm->rf->hz[b];
		h->at = s->st->now;
		h->ref = sm->rf->bank[b].tail;
		h->up = h->down = h->hit = 0;
	}
}

/* A read of warp slot for BML `to` queued at bank b in this issue stage: two
 * schedulers pulling the bank in opposite directions from the BML they both
 * scored against is a schedule hazard (notes 002 §2.7). */
static void hazard_check(struct sim *s, struct sm *sm, unsigned b, int slot, unsigned to)
{
	struct rf_hz *h = &sm->rf->hz[b];
	if (to == h->ref)
		return;
	uint8_t me = (uint8_t)(1u << sched_of(s, slot));
	if (to > h->ref)
		h->up |= me;
	else
		h->down |= me;
	if (h->hit || !h->up || !h->down || (h->up == h->down && !(h->up & (h->up - 1))))
		return;
	h->hit = 1;
	stat_inc(&s->stats, s->rfm->id.hazards);
	EV_EMIT(&s->ev, EV_RF_SCHED_HAZARD, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
		.unit = (int16_t)b, .a = h->ref, .b = to);
}

uint64_t rf_issue(struct sim *s, struct sm *sm, int slot, const struct winst *in)
{
	const struct rf_model *m = s->rfm;
	uint64_t now = s->st->now;
	if (!m->timed) { /* free SRAM operand path: count accesses and energy */
		uint8_t regs[3];
		int n = rf_bank_reads(s, sm, slot, in, regs);
		stat_add(&s->stats, m->id.reads, (uint64_t)n);
		energy(s, m->id.e_read, (uint64_t)n * m->e_read);
		if (in->ndst) {
			stat_inc(&s->stats, m->id.writes);
			energy(s, m->id.e_write, m->e_write);
		}
		return now;
	}
	if (m->racetrack)
		stat_hist_add(&s->stats, m->id.score, rf_score(s, sm, slot, in));
	uint64_t ready = rf_time_of_core(s, now);
	uint8_t regs[3];
	int n = rf_bank_reads(s, sm, slot, in, regs);
	for (unsigned i = 0; m->wb_on && i < in->nsrc; i++) { /* RAW hits */
		bool bank_read = false;
		for (int k = 0; k < n; k++)
			bank_read |= regs[k] == in->src[i];
		bool dup = false;
		for (unsigned k = 0; k < i; k++)
			dup |= in->src[k] == in->src[i];
		if (bank_read || dup)
			continue;
		RF_ADD(s, sm, wb_reads, 1);
		energy(s, m->id.e_wb, m->e_wbr);
		EV_EMIT(&s->ev, EV_RF_WB_RAW, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
			.unit = (int16_t)rf_bank_of(s, slot, in->src[i]), .a = in->src[i]);
	}
	for (int i = 0; i < n; i++) {
		unsigned b = rf_bank_of(s, slot, regs[i]);
		if (sm->rf->hz && m->racetrack)
			hazard_check(s, sm, b, slot, rf_bml_of(s, slot, regs[i]));
		const struct rf_op *op = push(s, sm, b, slot, regs[i], RFO_READ, RFS_PLAIN, rf_bml_of(s, slot, regs[i]));
		if (op->t_end > ready)
			ready = op->t_end;
		if (m->wb_on)
			piggyback(s, sm, b);
	}
	if (in->ndst && m->wb_on && s->cfg.rf.wb_claim == RF_WB_AT_WRITEBACK && s->cfg.rf.wb_void == RF_VOID_AT_ISSUE) {
		/* WAW at issue: this instruction will overwrite dst, and every older
		 * reader of the buffered value has issued (in order) and read it in
		 * its issue cycle, so the value is dead: free its way now. */
		unsigned b = rf_bank_of(s, slot, in->dst);
		int way = wb_find(s, sm, b, slot, in->dst);
		if (way >= 0 && wb_way(s, sm, b, way)->r) {
			RF_ADD(s, sm, wb_voided, 1);
			EV_EMIT(&s->ev, EV_RF_WB_VOID, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
				.unit = (int16_t)b, .a = in->dst);
			wb_way(s, sm, b, way)->v = 0;
		}
	}
	if (in->ndst && m->wb_on && s->cfg.rf.wb_claim == RF_WB_AT_ISSUE) {
		unsigned b = rf_bank_of(s, slot, in->dst);
		int way = wb_find(s, sm, b, slot, in->dst);
		if (way >= 0) {
			RF_ADD(s, sm, wb_voided, 1);
			EV_EMIT(&s->ev, EV_RF_WB_VOID, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
				.unit = (int16_t)b, .a = in->dst);
		} else {
			int victim;
			way = wb_free_way(s, sm, b, &victim);
			if (way < 0) {
				assert(victim >= 0); /* rf_blocked said so */
				wb_drain(s, sm, b, victim, RFS_OVERFLOW);
				piggyback(s, sm, b);
				way = victim;
			}
			RF_ADD(s, sm, wb_allocs, 1);
			EV_EMIT(&s->ev, EV_RF_WB_ALLOC, .cycle = now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
				.unit = (int16_t)b, .a = in->dst, .b = way);
		}
		*wb_way(s, sm, b, way) = (struct rf_wbe){.seq = ++sm->rf->wb_seq, .warp = (uint16_t)slot, .v = 1,
							 .reg = in->dst, .bml = (uint8_t)rf_bml_of(s, slot, in->dst)};
	}
	uint64_t c = rf_core_ready(s, ready);
	return c > now ? c : now;
}

void rf_write(struct sim *s, struct sm *sm, int slot, unsigned reg)
{
	const struct rf_model *m = s->rfm;
	if (!sm->rf)
		return;
	unsigned b = rf_bank_of(s, slot, reg), bml = rf_bml_of(s, slot, reg);
	if (!m->wb_on) {
		push(s, sm, b, slot, reg, RFO_WRITE, RFS_PLAIN, bml);
		return;
	}
	struct rf_bank *bk = &sm->rf->bank[b];
	int way = wb_find(s, sm, b, slot, reg);
	if (way >= 0 && wb_way(s, sm, b, way)->r) { /* an older buffered value: WAW, it never reaches the RF */
		RF_ADD(s, sm, wb_voided, 1);
		EV_EMIT(&s->ev, EV_RF_WB_VOID, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
			.unit = (int16_t)b, .a = reg);
		wb_way(s, sm, b, way)->v = 0;
		way = -1;
		sm_wake(sm);
	}
	if (way < 0) { /* claimed now (rf.write_buffer.claim = writeback) */
		if (bk->tail == bml) { /* already under a port: written directly, no entry */
			RF_ADD(s, sm, wb_direct, 1);
			EV_EMIT(&s->ev, EV_RF_WB_DRAIN, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
				.unit = (int16_t)b, .a = reg, .b = EVD_DIRECT);
			push(s, sm, b, slot, reg, RFO_WRITE, RFS_DIRECT, bml);
			return;
		}
		int victim;
		way = wb_free_way(s, sm, b, &victim);
		if (way < 0) {
			assert(victim >= 0); /* every entry holds data in this mode */
			wb_drain(s, sm, b, victim, RFS_OVERFLOW);
			piggyback(s, sm, b);
			way = victim;
		}
		RF_ADD(s, sm, wb_allocs, 1);
		EV_EMIT(&s->ev, EV_RF_WB_ALLOC, .cycle = s->st->now, .sm = (int16_t)sm->id, .warp = (int16_t)slot,
			.unit = (int16_t)b, .a = reg, .b = way);
		*wb_way(s, sm, b, way) = (struct rf_wbe){.seq = ++sm->rf->wb_seq, .warp = (uint16_t)slot, .v = 1,
							 .reg = (uint8_t)reg, .bml = (uint8_t)bml};
	}
	struct rf_wbe *e = wb_way(s, sm, b, way);
	e->r = 1;
	energy(s, m->id.e_wb, m->e_wbw);
	sm_wake(sm); /* the entry can now be drained to make room */
	if (bk->tail == bml)
		wb_drain(s, sm, b, way, bk->n == 0 ? RFS_DIRECT : RFS_PIGGY);
}

void rf_account(struct sim *s)
{
	const struct rf_model *m = s->rfm;
	if (!m)
		return;
	uint64_t cyc = stats_counter_value(&s->stats, s->id.cycles), p = m->leak_nw * (uint64_t)s->cfg.core.sms;
	/* leakage fJ = cycles x nW / MHz, exactly, without overflow */
	uint64_t leak = (cyc / m->core_mhz) * p + (cyc % m->core_mhz) * p / m->core_mhz;
	struct stats *st = &s->stats;
	st->vals[st->defs[m->id.e_leak].slot] = leak;
	st->vals[st->defs[m->id.e_total].slot] = leak + stats_counter_value(st, m->id.e_read) +
						 stats_counter_value(st, m->id.e_write) +
						 stats_counter_value(st, m->id.e_shift) + stats_counter_value(st, m->id.e_wb);
	st->vals[st->defs[m->id.fallback].slot] = m->warning[0] != 0;
}

int rf_check_stat_sums(const struct sim *s, char **err)
{
	const struct rf_model *m = s->rfm;
	if (!m || !m->sm_id)
		return 0;
	static const char *const names[] = {"reads",	 "writes",    "shifts",	   "shift_cycles", "bank_conflicts",
					    "wb.allocs", "wb.reads",  "wb.voided", "wb.direct",	   "wb.piggyback",
					    "wb.overflow"};
	const uint32_t agg[] = {m->id.reads,	 m->id.writes,	  m->id.shifts,	   m->id.shift_cycles,
				m->id.conflicts, m->id.wb_allocs, m->id.wb_reads,  m->id.wb_voided,
				m->id.wb_direct, m->id.wb_piggy,  m->id.wb_overflow};
	for (int k = 0; k < 11; k++) {
		if ((!m->racetrack && (k == 2 || k == 3)) || (!m->wb_on && k >= 5)) /* not registered */
			continue;
		uint64_t sum = 0;
		for (int i = 0; i < s->cfg.core.sms; i++) {
			const struct rf_sm_ids *d = &m->sm_id[i];
			const uint32_t per[] = {d->reads,     d->writes,    d->shifts,	  d->shift_cycles,
						d->conflicts, d->wb_allocs, d->wb_reads,  d->wb_voided,
						d->wb_direct, d->wb_piggy,  d->wb_overflow};
			sum += stats_counter_value(&s->stats, per[k]);
		}
		uint64_t all = stats_counter_value(&s->stats, agg[k]);
		if (sum != all)
			return set_err(err, "sm*.rf.%s sum to %llu but rf.%s is %llu", names[k], (unsigned long long)sum,
				       names[k], (unsigned long long)all);
	}
	return 0;
}
