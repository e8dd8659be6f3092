/*
 * coh_check.c: coherence in the timing engine, the shared parts
 * (coh_eng.h): set-up (stats coh.*, directory arrays, transaction log),
 * message counting, the per-protocol invariants checked by
 * sim_check_invariants, and the request a transient state stands for.
 */
#include <stdio.h>

#include "coh_eng.h"

unsigned coh_request_of(unsigned st)
{
	switch (st) {
	case CS_IS_D: return CM_GETS;
	case CS_IM_D: return CM_GETX;
	case CS_SM_D: case CS_OM_D: return CM_UPG;
	case CS_IN_D: return CM_GETN;
	case CS_SN_D: return CM_UPGN;
	default: return CM__COUNT;
	}
}

void coh_init(struct sim *s)
{
	s->coh = coh_proto_get((unsigned)s->cfg.l2.coh.protocol);
	if (!s->coh)
		return;
	struct stats *st = &s->stats;
	for (unsigned m = 0; m < CM__COUNT; m++) {
		if (m == CM_L2_REPL)
			continue;
		char name[64], desc[96];
		snprintf(name, sizeof name, "coh.msgs.%s", coh_msg_name(m));
		snprintf(desc, sizeof desc, "%s coherence messages sent on the crossbar", coh_msg_name(m));
		s->coh_msg_id[m] = stats_counter(st, name, desc);
	}
	s->coh_trans_id = stats_counter(st, "coh.transitions", "L1 copy state changes");
	s->coh_nack_id = stats_counter(st, "coh.nacks", "requests refused because their directory entry was locked (dir_locked)");
	s->coh_inv_id = stats_counter(st, "coh.invalidations", "Inv messages sent by the directories");
	s->coh_err_id = stats_counter(st, "coh.errors", "protocol errors: an event with no table row (must stay 0)");
	s->coh_put_id = stats_counter(st, "l2.coh_puts",
				      "eviction notices (PutE, PutM, PutN) the L2 directories took; not lookups: not in "
				      "l2.accesses, l2.hits or l2.misses");
	for (int i = 0; i < s->cfg.l2.banks; i++) {
		struct l2bank *b = &s->banks[i];
		size_t n = (size_t)b->c.sets * (size_t)b->c.ways;
		ARENA_SET(&s->arena, b->dir, struct coh_dent, n);
		for (size_t k = 0; k < n; k++)
			b->dir[k] = (struct coh_dent){.owner = -1, .held = REQ_NIL, .evict_mshr = REQ_NIL};
		if (b->frc.n) { /* the victims held by FRC entries (frc.c) */
			ARENA_SET(&s->arena, b->frc.dir, struct coh_dent, (size_t)b->frc.n);
			for (int k = 0; k < b->frc.n; k++)
				b->frc.dir[k] = (struct coh_dent){.owner = -1, .held = REQ_NIL, .evict_mshr = REQ_NIL};
		}
	}
	ARENA_SET(&s->arena, s->clog, struct coh_log, 1);
	coh_kflush_init(s);
	if (!s->coh->inv_acks) { /* SI: same-address order of write-throughs (coh_l1.c) */
		/* At most one WT per store request in flight: an SM's share of the pool. */
		uint64_t most = (uint64_t)s->cfg.core.mem_inflight * (uint64_t)s->cfg.core.warp_size * 2 + 64;
		uint32_t cap = 64;
		while (cap < 2 * most)
			cap *= 2;
		for (int i = 0; i < s->cfg.core.sms; i++) {
			struct l1 *l = &s->sms[i].l1;
			l->wt_cap = cap;
			ARENA_SET(&s->arena, l->wt_key, uint64_t, cap);
			ARENA_SET(&s->arena, l->wt_n, uint32_t, cap);
		}
	}
}

void coh_note(struct sim *s, unsigned kind, int sm, int bank, uint64_t addr, unsigned from, unsigned to, unsigned msg)
{
	struct coh_log *g = s->clog;
	if (!g)
		return;
	g->tx[g->total % COH_LOG] = (struct coh_tx){.cycle = s->st->now, .addr = addr, .sm = (int16_t)sm,
						    .bank = (int16_t)bank, .kind = (uint8_t)kind, .from = (uint8_t)from,
						    .to = (uint8_t)to, .msg = (uint8_t)msg};
	g->total++;
}

void coh_count(struct sim *s, unsigned msg, int sm, int bank, uint64_t addr)
{
	if (msg < CM__COUNT && msg != CM_L2_REPL)
		stat_inc(&s->stats, s->coh_msg_id[msg]);
	EV_EMIT(&s->ev, EV_COH_MSG, .cycle = s->st->now, .sm = (int16_t)sm, .unit = (int16_t)bank, .addr = addr,
		.a = msg);
	coh_note(s, TX_MSG, sm, bank, addr, 0, 0, msg);
}

static bool holds_copy(unsigned st)
{
	return st == CS_S || st == CS_E || st == CS_O || st == CS_M || st == CS_N || st == CS_V || st == CS_SM_D ||
	       st == CS_OM_D || st == CS_SN_D;
}

static bool owner_state(unsigned st) { return st == CS_E || st == CS_M || st == CS_O || st == CS_OM_D; }

/* The L1 copy of `line` in SM i, or NULL (valid copies and upgrades only). */
static const struct cline *copy_of(const struct sim *s, int i, uint64_t line)
{
	const struct cache *c = &s->sms[i].l1.c;
	int set = cache_set(c, line), way = cache_find(c, set, line);
	if (way < 0)
		return NULL;
	const struct cline *cl = &c->l[(size_t)set * (size_t)c->ways + (size_t)way];
	return cl->valid && holds_copy(cl->coh) ? cl : NULL;
}

int coh_check_invariants(const struct sim *s, char **err)
{
	if (!s->coh)
		return 0;
	uint64_t e = stats_counter_value(&s->stats, s->coh_err_id);
	if (e)
		return set_err(err, "coherence (%s): %llu protocol errors (events without a table row)", s->coh->name,
			       (unsigned long long)e);
	bool si = !s->coh->inv_acks, moesi = s->coh == &coh_moesi_proto;
	for (int i = 0; i < s->cfg.core.sms; i++) {
		const struct cache *c = &s->sms[i].l1.c;
		for (int k = 0; k < c->sets * c->ways; k++) {
			const struct cline *cl = &c->l[k];
			if (!cl->valid && !cl->reserved)
				continue;
			unsigned st = cl->coh;
			if (si && (cl->sd || (st != CS_V && st != CS_IS_D && st != CS_I)))
				return set_err(err, "si: sm%d holds line 0x%llx in %s%s", i, (unsigned long long)cl->tag,
					       coh_state_name(st), cl->sd ? " with dirty sectors" : "");
			if (!cl->valid || !holds_copy(st))
				continue;
			if ((st == CS_S || st == CS_E) && cl->sd)
				return set_err(err, "%s: sm%d holds line 0x%llx dirty in %s", s->coh->name, i,
					       (unsigned long long)cl->tag, coh_state_name(st));
			if (si)
				continue;
			/* the directory counts every copy */
			const struct l2bank *b = &s->banks[icnt_bank_of(s, cl->tag)];
			int set = l2_bank_set(s, b, cl->tag), way = cache_find(&b->c, set, cl->tag);
			int fe = way < 0 ? frc_victim_entry(b, cl->tag) : -1; /* a victim being invalidated */
			if (way < 0 && fe < 0)
				return set_err(err, "%s: sm%d holds line 0x%llx in %s but the L2 does not hold it",
					       s->coh->name, i, (unsigned long long)cl->tag, coh_state_name(st));
			const struct coh_dent *d = fe >= 0 ? &b->frc.dir[fe] : coh_dent_at(b, set, way);
			bool counted = owner_state(st) ? d->owner == i : coh_has(d, (unsigned)i) || d->owner == i;
			if (!counted)
				return set_err(err,
					       "%s: sm%d holds line 0x%llx in %s but the directory (%s, owner %d) does not count it",
					       s->coh->name, i, (unsigned long long)cl->tag, coh_state_name(st),
					       coh_dstate_name(d->ds), d->owner);
			/* single writer: E/M copies are alone; MOESI: one owner */
			if (st == CS_E || st == CS_M || (moesi && owner_state(st)))
				for (int j = 0; j < s->cfg.core.sms; j++) {
					const struct cline *o = j == i ? NULL : copy_of(s, j, cl->tag);
					if (o && (st == CS_E || st == CS_M || owner_state(o->coh)))
						return set_err(err, "%s: sm%d holds line 0x%llx in %s while sm%d holds it in %s",
							       s->coh->name, i, (unsigned long long)cl->tag,
							       coh_state_name(st), j, coh_state_name(o->coh));
				}
		}
	}
	if (sim_done(s) && s->cfg.mem.kernel_end == MEMKE_DRAINED) /* with ctas a run may end mid-transaction */
		for (int i = 0; i < s->cfg.l2.banks; i++) {
			const struct l2bank *b = &s->banks[i];
			for (int k = 0; k < b->c.sets * b->c.ways; k++)
				if (b->dir[k].busy)
					return set_err(err, "%s: finished with a locked directory entry (bank %d line 0x%llx)",
						       s->coh->name, i, (unsigned long long)b->c.l[k].tag);
		}
	return 0;
}
