/*
 * sim_mem.c: the memory a machine needs, by structure, before sim_new
 * allocates it (sim_mem.h). Each term mirrors the allocation in the file
 * named beside it; arena allocations round up to 16 bytes (util.c).
 */
#include "sim_mem.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "policy/bypass.h"
#include "core/opunit.h"
#include "mem/cache.h"
#include "sim/event.h"
#include "mem/frc.h"
#include "kernel/kernel.h"
#include "mem/mshr.h"
#include "sim/req.h"
#include "reuse/reuse.h"
#include "sim/sim_int.h"

/* Small state the terms below leave out (stats, events, per-unit structs,
 * register-file queues), about what the teaching machine holds beyond them;
 * it grows with the SMs and banks. */
#define OTHER_FIXED (192u << 10)
#define OTHER_PER_UNIT (4u << 10)

static uint64_t al(uint64_t n) { return (n + 15) & ~(uint64_t)15; }

static uint64_t pow2_at_least(uint64_t x)
{
	uint64_t p = 1;
	while (p < x)
		p <<= 1;
	return p;
}

/* Saturating: a config's product can exceed 2^64 only in theory, but the
 * check must not wrap to a small number. */
static uint64_t mul(uint64_t a, uint64_t b) { return a && b > UINT64_MAX / a ? UINT64_MAX : a * b; }
static uint64_t add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

static void part(struct sim_mem *m, const char *name, uint64_t bytes, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void part(struct sim_mem *m, const char *name, uint64_t bytes, const char *fmt, ...)
{
	if (m->n == SIM_MEM_MAX_PARTS || bytes == 0)
		return;
	struct sim_mem_part *p = &m->part[m->n++];
	p->name = name;
	p->bytes = bytes;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->detail, sizeof p->detail, fmt, ap);
	va_end(ap);
	m->total = add(m->total, bytes);
}

static uint64_t mshr_bytes(uint64_t entries)
{
	return add(al(mul(entries, sizeof(struct mshr_ent))), al(mul(pow2_at_least(entries * 2), 4)));
}

/* rd_cache_init (reuse.c). */
static uint64_t rd_cache_bytes_for(uint64_t sets, uint64_t ways, uint64_t seen_lines)
{
	uint64_t dcap = REUSE_DCAP_FACTOR * ways, lines = mul(sets, ways), kcap = mul(REUSE_DCAP_FACTOR, lines);
	uint64_t b = al(mul(mul(sets, dcap), 8)) + 2 * al(sets * 2);
	b = add(b, al(mul(pow2_at_least(mul(2, mul(sets, dcap))), 8)));
	uint64_t T = pow2_at_least(mul(2, kcap));
	b = add(b, 2 * al(mul(T + 1, 4)));
	b = add(b, al(mul(kcap + 1, sizeof(struct rd_ent))));
	b = add(b, al(mul(pow2_at_least(kcap + 1), 4)));
	uint64_t bits = pow2_at_least(seen_lines ? seen_lines : 1);
	bits = bits < 64 ? 64 : bits > REUSE_SEEN_MAX_BITS ? REUSE_SEEN_MAX_BITS : bits;
	b = add(b, al(bits / 8));
	b = add(b, 2 * al((dcap + RB__EXTRA) * 8));
	b = add(b, al(mul(mul(sets, dcap + RB__EXTRA), 4)));
	return b;
}

void sim_mem_estimate(const struct sim_cfg *cfg, const struct workload *wl, struct sim_mem *m)
{
	memset(m, 0, sizeof *m);
	uint64_t ns = (uint64_t)cfg->core.sms, nb = (uint64_t)cfg->l2.banks;
	uint64_t l1s = (uint64_t)cfg->l1.sets, l1w = (uint64_t)cfg->l1.ways;
	uint64_t l2s = (uint64_t)cfg->l2.sets, l2w = (uint64_t)cfg->l2.ways;
	uint64_t pool = sim_req_pool_slots(cfg);
	part(m, "request pool", al(mul(pool, sizeof(struct req))), "%" PRIu64 " in-flight request slots x %zu B", pool,
	     sizeof(struct req));
	/* sim.c: the SMs and banks; core.c: warps, CTA slots, vector memory buffer. */
	uint64_t core = add(al(mul(ns, sizeof(struct sm))), al(mul(nb, sizeof(struct l2bank))));
	core = add(core, mul(ns, al((uint64_t)cfg->core.warps_per_sm * sizeof(struct warp)) +
					 al((uint64_t)cfg->core.ctas_per_sm * sizeof(struct cta_slot)) +
					 al((uint64_t)cfg->core.mem_inflight * sizeof(struct vmb_ent))));
	part(m, "SMs and warps", core, "%" PRIu64 " SMs x %d warps", ns, cfg->core.warps_per_sm);
	if (cfg->core.op_model == OPM_UNITS) /* opunit.c opu_init */
		part(m, "execution units", mul(ns, al(sizeof(struct opu_sm)) + al((uint64_t)cfg->core.warps_per_sm * sizeof(struct opu_warp))),
		     "%" PRIu64 " SMs x %d warps' ALU results", ns, cfg->core.warps_per_sm);
	/* l1.c / l2.c: cache_init, mshr_init. */
	part(m, "L1 tag arrays", mul(ns, al(mul(mul(l1s, l1w), sizeof(struct cline)))),
	     "%" PRIu64 " SMs x %" PRIu64 " sets x %" PRIu64 " ways x %zu B", ns, l1s, l1w, sizeof(struct cline));
	part(m, "L1 MSHRs", mul(ns, mshr_bytes(l1_mshr_cap(cfg))), "%" PRIu64 " SMs x %u entries", ns,
	     l1_mshr_cap(cfg));
	if (cfg->l1.bypass == L1B_LOCALITY)
		part(m, "L1 bypass tag stores", mul(ns, al(mul(l1s * (uint64_t)cfg->l1.bypass_tag_ways, sizeof(struct btag)))),
		     "%" PRIu64 " SMs x %" PRIu64 " sets x %d ways", ns, l1s, cfg->l1.bypass_tag_ways);
	if (l1i_active(cfg)) { /* l1i.c l1i_init */
		uint64_t is = (uint64_t)cfg->l1i.sets, iw = (uint64_t)cfg->l1i.ways;
		part(m, "L1I tag arrays and MSHRs",
		     mul(ns, add(al(mul(mul(is, iw), sizeof(struct cline))), mshr_bytes((uint64_t)cfg->l1i.mshr_entries))),
		     "%" PRIu64 " SMs x %" PRIu64 " sets x %" PRIu64 " ways, %d MSHR entries", ns, is, iw,
		     cfg->l1i.mshr_entries);
	}
	part(m, "L2 tag arrays", mul(nb, al(mul(mul(l2s, l2w), sizeof(struct cline)))),
	     "%" PRIu64 " banks x %" PRIu64 " sets x %" PRIu64 " ways x %zu B", nb, l2s, l2w, sizeof(struct cline));
	part(m, "L2 MSHRs", mul(nb, add(mshr_bytes(l2_mshr_cap(cfg)), al(24 * (uint64_t)l2_mshr_cap(cfg)))),
	     "%" PRIu64 " banks x %u entries", nb, l2_mshr_cap(cfg));
	if (cfg->l2.sharers != L2SH_OFF && !cfg->l2.coh.protocol && cfg->l1.enabled) { /* l2_sharers.c */
		uint64_t words = (ns + 63) / 64;
		part(m, "L2 sharer records",
		     mul(nb, add(al(mul(mul(mul(l2s, l2w), words), 8)), al(mul(mul(2 * (uint64_t)cfg->l2.frc.entries, words), 8)))),
		     "%" PRIu64 " banks x %" PRIu64 " lines x %" PRIu64 " words", nb, l2s * l2w, words);
	}
	if (cfg->l2.frc.entries)
		part(m, "FRC entries", mul(nb, al((uint64_t)cfg->l2.frc.entries * sizeof(struct frc_entry))),
		     "%" PRIu64 " banks x %d entries", nb, cfg->l2.frc.entries);
	if (cfg->mem.model == MEM_DRAM || (wl && wl->dram_reqs)) { /* dram.c dram_new */
		uint64_t nch = (uint64_t)cfg->dram.channels, nbk = (uint64_t)cfg->dram.ranks * (uint64_t)cfg->dram.banks;
		uint64_t slots = (uint64_t)cfg->dram.read_queue + (uint64_t)cfg->dram.write_queue;
		uint64_t d = sim_mem_dram_bytes(cfg);
		part(m, "DRAM banks and queues", d, "%" PRIu64 " channels x %" PRIu64 " banks, %" PRIu64 " queue slots",
		     nch, nbk, slots);
	}
	if (cfg->reuse.profile) { /* reuse.c reuse_new: one profile per L1 and per L2 bank */
		uint64_t lo = 0, hi = 0, nlines = 1;
		if (wl && wl->kernel)
			kernel_footprint(wl->kernel, &lo, &hi);
		unsigned shift = 0;
		while (shift < 63 && (1ull << shift) < (uint64_t)cfg->l1.line)
			shift++;
		if (hi > lo)
			nlines = ((hi - 1) >> shift) - (lo >> shift) + 1;
		uint64_t nl1 = cfg->l1.enabled ? ns : 0;
		uint64_t r = add(mul(nl1, rd_cache_bytes_for(l1s, l1w, nlines)), mul(nb, rd_cache_bytes_for(l2s, l2w, nlines)));
		part(m, "reuse profiler", r, "%" PRIu64 " L1s x %" PRIu64 "x%" PRIu64 ", %" PRIu64 " L2 banks x %" PRIu64 "x%" PRIu64
		     " (reuse.profile)", nl1, l1s, l1w, nb, l2s, l2w);
	}
	if (cfg->l2.coh.protocol && cfg->l2.coh.check_values) { /* coh_values.c */
		uint64_t wpl = (uint64_t)cfg->l2.line / 4, ws = pow2_at_least((uint64_t)cfg->l2.coh.value_words * 4 / 3 + 1);
		uint64_t v = al(ws * 32) + al(ws * 16) + 2 * al(pool * 8) + al(mul(pool, wpl * 8));
		v = add(v, add(mul(mul(ns, l1s * l1w), 8 + 8 * wpl), mul(mul(nb, l2s * l2w), 8 + 8 * wpl)));
		part(m, "coherence value checker", v, "values of every L1 and L2 line (l2.coh.check_values)");
	}
	part(m, "other", OTHER_FIXED + OTHER_PER_UNIT * (ns + nb), "stats, event log, small per-unit state");
}

/* The largest part (never NULL). */
static const struct sim_mem_part *sim_mem_largest(const struct sim_mem *m)
{
	const struct sim_mem_part *best = &m->part[0];
	for (int i = 1; i < m->n; i++)
		if (m->part[i].bytes > best->bytes)
			best = &m->part[i];
	return best;
}

void sim_mem_format(uint64_t bytes, char *buf, unsigned n)
{
	static const char *const unit[] = {"B", "KB", "MB", "GB", "TB", "PB", "EB"};
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, n, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, n, "%.1f %s", v, unit[u]);
}

int sim_mem_check(const struct sim_mem *m, uint64_t limit, const char *limit_what, char **err)
{
	if (m->total <= limit)
		return 0;
	const struct sim_mem_part *p = sim_mem_largest(m);
	char need[32], big[32], lim[32];
	sim_mem_format(m->total, need, sizeof need);
	sim_mem_format(p->bytes, big, sizeof big);
	sim_mem_format(limit, lim, sizeof lim);
	return set_err(err, "the machine needs about %s of memory, more than the limit of %s (%s); the largest structure "
			    "is the %s: %s (%s)",
		       need, lim, limit_what, p->name, big, p->detail);
}
