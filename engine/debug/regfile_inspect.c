/*
 * regfile_inspect.c: read-only accessors of the register file for the `rf`
 * panel and tests (inspect.h). Live positions are derived from the queued
 * requests' service times at the first RF cycle of the current core cycle,
 * so a shift in progress shows where the ports are and how far they have to
 * go; nothing here changes the simulator.
 */
#include "sim/sim_int.h"

static uint64_t ctr(const struct sim *s, uint32_t id) { return stats_counter_value(&s->stats, id); }

bool inspect_rf(const struct sim *s, int sm, struct rf_info *o)
{
	const struct rf_model *m = s->rfm;
	if (!m || sm < 0 || sm >= s->cfg.core.sms)
		return false;
	*o = (struct rf_info){.kind = s->cfg.rf.kind, .timed = m->timed, .banks = m->banks, .entries = m->entries,
			      .ports = m->ports, .seg = m->seg, .ways = m->ways, .remap = m->remap_used,
			      .nregs = m->nregs, .map_warps = m->map_warps, .warning = m->warning};
	o->rf_now = rf_time_of_core(s, s->st->now);
	o->all = (struct rf_counts){.reads = ctr(s, m->id.reads), .writes = ctr(s, m->id.writes),
				    .shifts = ctr(s, m->id.shifts), .shift_cycles = ctr(s, m->id.shift_cycles),
				    .conflicts = ctr(s, m->id.conflicts), .wb_reads = ctr(s, m->id.wb_reads),
				    .wb_voided = ctr(s, m->id.wb_voided), .wb_direct = ctr(s, m->id.wb_direct),
				    .wb_piggy = ctr(s, m->id.wb_piggy), .wb_overflow = ctr(s, m->id.wb_overflow)};
	if (m->sm_id) { /* smN.rf.*: the ids a configuration did not register stay 0 */
		const struct rf_sm_ids *d = &m->sm_id[sm];
		o->per_sm = true;
		o->sm = (struct rf_counts){.reads = ctr(s, d->reads), .writes = ctr(s, d->writes),
					   .conflicts = ctr(s, d->conflicts)};
		if (m->racetrack) {
			o->sm.shifts = ctr(s, d->shifts);
			o->sm.shift_cycles = ctr(s, d->shift_cycles);
		}
		if (m->wb_on) {
			o->sm.wb_reads = ctr(s, d->wb_reads);
			o->sm.wb_voided = ctr(s, d->wb_voided);
			o->sm.wb_direct = ctr(s, d->wb_direct);
			o->sm.wb_piggy = ctr(s, d->wb_piggy);
			o->sm.wb_overflow = ctr(s, d->wb_overflow);
		}
	}
	o->energy_fj = ctr(s, m->id.e_total);
	o->schedulers = s->cfg.core.schedulers;
	o->warp_reg_remap = m->groups > 1;
	o->hazards = o->schedulers > 1 ? ctr(s, m->id.hazards) : 0;
	return true;
}

static const struct rf_op *op_at(const struct sim *s, const struct sm *sm, int b, int i)
{
	const struct rf_bank *bk = &sm->rf->bank[b];
	return &sm->rf->ops[(size_t)b * (size_t)s->rfm->qcap + (size_t)((bk->head + i) % s->rfm->qcap)];
}

bool inspect_rf_bank(const struct sim *s, int smi, int b, struct rf_bank_info *o)
{
	if (!s->rfm || smi < 0 || smi >= s->cfg.core.sms || b < 0 || b >= s->rfm->banks)
		return false;
	const struct sm *sm = &s->sms[smi];
	*o = (struct rf_bank_info){0};
	o->sched = s->rfm->groups > 1 ? b / (s->rfm->banks / s->cfg.core.schedulers) : -1;
	if (!sm->rf)
		return true;
	const struct rf_bank *bk = &sm->rf->bank[b];
	uint64_t t = rf_time_of_core(s, s->st->now);
	o->hazard = sm->rf->hz && sm->rf->hz[b].hit && sm->rf->hz[b].at + 1 == s->st->now;
	o->loc = bk->loc;
	o->tail = bk->tail;
	for (int i = 0; i < bk->n; i++) {
		const struct rf_op *op = op_at(s, sm, b, i);
		if (op->t_end <= t)
			continue;
		o->queued++;
		if (op->t_sh_end <= t) {
			o->loc = op->to;
		} else if (op->t_start <= t && o->queued == 1) {
			int moved = (int)((t - op->t_start) / s->rfm->sh_cyc);
			o->loc = op->to > op->from ? op->from + moved : op->from - moved;
			o->shifting = true;
			o->from = op->from;
			o->to = op->to;
			o->remaining = op->to > o->loc ? op->to - o->loc : o->loc - op->to;
		}
	}
	return true;
}

bool inspect_rf_req(const struct sim *s, int smi, int b, int i, struct rf_req_info *o)
{
	if (!s->rfm || smi < 0 || smi >= s->cfg.core.sms || b < 0 || b >= s->rfm->banks || i < 0)
		return false;
	const struct sm *sm = &s->sms[smi];
	if (!sm->rf)
		return false;
	const struct rf_bank *bk = &sm->rf->bank[b];
	uint64_t t = rf_time_of_core(s, s->st->now);
	int k = 0;
	for (int j = 0; j < bk->n; j++) {
		const struct rf_op *op = op_at(s, sm, b, j);
		if (op->t_end <= t || k++ != i)
			continue;
		*o = (struct rf_req_info){.warp = op->warp, .reg = op->reg, .write = op->kind == RFO_WRITE,
					  .src = op->src, .bml = op->to,
					  .dist = op->to > op->from ? op->to - op->from : op->from - op->to,
					  .in_service = op->t_start <= t};
		o->waited = (op->t_start <= t ? op->t_start : t) - (op->t_arr < t ? op->t_arr : t);
		return true;
	}
	return false;
}

bool inspect_rf_wb(const struct sim *s, int smi, int b, int way, struct rf_wb_info *o)
{
	if (!s->rfm || smi < 0 || smi >= s->cfg.core.sms || b < 0 || b >= s->rfm->banks || way < 0 ||
	    way >= s->rfm->ways)
		return false;
	const struct sm *sm = &s->sms[smi];
	if (!sm->rf || !sm->rf->wb)
		return false;
	const struct rf_wbe *e = &sm->rf->wb[(size_t)b * (size_t)s->rfm->ways + (size_t)way];
	*o = (struct rf_wb_info){.valid = e->v, .ready = e->r, .warp = e->warp, .reg = e->reg, .bml = e->bml,
				 .at_port = e->v && e->bml == sm->rf->bank[b].tail};
	return true;
}

bool inspect_rf_owner(const struct sim *s, int b, int row, int *warp, int *reg)
{
	const struct rf_model *m = s->rfm;
	if (!m || b < 0 || b >= m->banks || row < 0 || row >= m->entries)
		return false;
	int32_t o = m->owner[b * m->entries + row];
	if (o < 0)
		return false;
	*warp = o >> 8;
	*reg = o & 255;
	return true;
}
