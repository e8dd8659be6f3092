/*
 * inspect_reuse.c: read-only views of the reuse-distance profiler for the
 * `reuse` panel and tests (inspect.h). Sums one cache or every L1 / L2 bank.
 */
#include <string.h>

#include "reuse/reuse.h"
#include "sim/sim_int.h"

const char *inspect_reuse_class_name(int cls) { return reuse_class_name((unsigned)cls); }

bool inspect_reuse(const struct sim *s, enum cache_id_kind k, int unit, int view, int set, struct reuse_info *o)
{
	int kind = k == CACHE_L1 ? 0 : 1;
	int n = kind == 0 ? (s->cfg.l1.enabled ? s->cfg.core.sms : 0) : s->cfg.l2.banks;
	int lo = unit < 0 ? 0 : unit, hi = unit < 0 ? n : unit + 1;
	const struct rd_cache *c0 = reuse_cache(s, kind, lo);
	if (!c0 || hi > n || view < 0 || view >= RV__COUNT)
		return false;
	if (view == RV_ONESET && (set < 0 || set >= (int)c0->sets))
		return false;
	memset(o, 0, sizeof(*o));
	o->units = hi - lo;
	o->sets = (int)c0->sets;
	o->ways = (int)c0->ways;
	o->lines = (int)c0->lines;
	bool fa = view == RV_FA;
	o->nbins = (int)(fa ? c0->fa_bins : c0->dcap);
	if (o->nbins > REUSE_INFO_MAX_BINS)
		o->nbins = REUSE_INFO_MAX_BINS;
	o->bin_width = fa ? (int)c0->fa_width : 1;
	o->cutoff = (int)c0->ways;
	o->cap = fa ? c0->kcap : c0->dcap;
	uint32_t full = (fa ? c0->fa_bins : c0->dcap) + RB__EXTRA;
	for (int u = lo; u < hi; u++) {
		const struct rd_cache *c = reuse_cache(s, kind, u);
		for (uint32_t b = 0; b < full; b++) {
			uint64_t v = view == RV_FA	   ? c->fa_hist[b]
				     : view == RV_ONESET ? c->set_hist[(size_t)set * (c->dcap + RB__EXTRA) + b]
							  : c->hist[b];
			uint32_t dst = b < full - RB__EXTRA ? (b < (uint32_t)o->nbins ? b : (uint32_t)o->nbins - 1)
							    : (uint32_t)o->nbins + (b - (full - RB__EXTRA));
			o->bins[dst] += v;
		}
		for (int i = 0; i < RC__COUNT; i++)
			o->cls[i] += c->cls[i];
		o->accesses += c->accesses;
		o->hits_far += c->hits_far;
		o->approx += c->approx;
		o->bytes += rd_cache_bytes(c);
	}
	if (o->units == 1 && c0->has_last) {
		o->has_last = true;
		o->last_addr = c0->last_line << log2u((uint64_t)s->cfg.l1.line);
		o->last_cycle = c0->last_cycle;
		o->last_set = c0->last_set;
		o->last_cls = c0->last_cls;
		o->last_d = c0->last_d;
		o->last_dfa = c0->last_dfa;
	}
	return true;
}
