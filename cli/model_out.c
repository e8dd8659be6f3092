/*
 * model_out.c: what `gpustep model` prints besides the rates (model_out.h):
 * the reuse-distance histogram as a text table, the ablation's notes and
 * the `--json FILE` document. Both semantics share the layout of struct
 * rdm_result: bins 0 .. nbins-1 (exact distances), ">= nbins", never seen,
 * in flight (always 0 with --semantics reference, which files misses to
 * lines in flight by their old distance).
 */
#include "model_out.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static double pct(uint64_t v, uint64_t of) { return of ? 100.0 * (double)v / (double)of : 0.0; }

void model_print_hist(struct strbuf *out, const struct rdm_cfg *c, const struct rdm_result *r, bool reference)
{
	uint32_t nb = r->nbins;
	sb_printf(out, "model histogram  reuse distance within the set (hit iff d < %u ways), %s semantics\n", c->ways,
		  reference ? "reference" : "gpustep");
	sb_printf(out, "  %-9s %10s %7s\n", "d", "count", "%");
	uint32_t last = MIN(c->ways + 1, nb); /* rows through the ways, then up to the last non-empty bin */
	for (uint32_t b = 0; b < nb; b++)
		if (r->hist[b])
			last = b + 1;
	for (uint32_t b = 0; b < last; b++) {
		if (b == c->ways)
			sb_printf(out, "  -- %u ways: a miss from here on --\n", c->ways);
		sb_printf(out, "  %-9u %10llu %7.2f\n", b, (unsigned long long)r->hist[b], pct(r->hist[b], r->accesses));
	}
	char lab[24];
	snprintf(lab, sizeof lab, ">=%u", nb);
	uint64_t over = r->hist[nb + RDM_BIN_OVER], never = r->hist[nb + RDM_BIN_NEVER], fly = r->hist[nb + RDM_BIN_FLY];
	sb_printf(out, "  %-9s %10llu %7.2f\n", lab, (unsigned long long)over, pct(over, r->accesses));
	sb_printf(out, "  %-9s %10llu %7.2f   %s\n", "inf new", (unsigned long long)never, pct(never, r->accesses),
		  reference ? "(line never arrived: never requested, or its first miss still in flight)"
			    : "(line never requested)");
	if (!reference)
		sb_printf(out, "  %-9s %10llu %7.2f   (a miss to a line in flight)\n", "inf fly", (unsigned long long)fly,
			  pct(fly, r->accesses));
}

static const char *const term_names[5] = {"compulsory", "capacity", "associativity", "latency", "mshr"};
static const unsigned term_bits[5] = {RDM_T_COMPULSORY, RDM_T_CAPACITY, RDM_T_ASSOC, RDM_T_LATENCY, RDM_T_MSHR};

void model_print_ablation(struct strbuf *out, const struct rdm_ablation *ab)
{
	double a = ab->accesses ? (double)ab->accesses : 1.0;
	sb_printf(out, "model ablation   compulsory %.4f  capacity %.4f  associativity %.4f  latency %.4f  mshr %.4f (4 runs)\n",
		  (double)ab->compulsory / a, (double)ab->capacity / a, (double)ab->associativity / a,
		  (double)ab->latency / a, (double)ab->mshr / a);
	if (ab->raw_mshr < 0)
		sb_printf(out, "  note: unlimited MSHRs give %lld more misses than the full model (the MSHR limit "
			       "reorders accesses into reuse); mshr shown as 0\n", (long long)-ab->raw_mshr);
	if (ab->raw_associativity < 0)
		sb_printf(out, "  note: the fully associative run has %lld more misses than the full model; "
			       "associativity shown as 0\n", (long long)-ab->raw_associativity);
	if (ab->raw_latency < 0)
		sb_printf(out, "  note: without latencies %lld more accesses have d = inf; latency shown as 0\n",
			  (long long)-ab->raw_latency);
	if (ab->raw_capacity < 0) {
		sb_printf(out, "  note: the terms exceeded the misses by %lld; capacity shown as 0 and", (long long)-ab->raw_capacity);
		for (int i = 0; i < 5; i++)
			if (i != 1 && (ab->adjusted & term_bits[i]) &&
			    !((i == 2 && ab->raw_associativity < 0) || (i == 3 && ab->raw_latency < 0) ||
			      (i == 4 && ab->raw_mshr < 0)))
				sb_printf(out, " %s", term_names[i]);
		sb_printf(out, " reduced so the terms sum to the misses\n");
	}
}

void model_print_ref_report(struct strbuf *out, const struct rdr_report *p)
{
	sb_printf(out, "reference report accesses %llu, misses %lld + %lld + %lld + %lld + %lld = %llu "
		       "(compulsory + capacity + associativity + latency + mshr), hits %llu, miss rate %.4f\n",
		  (unsigned long long)p->accesses, (long long)p->compulsory, (long long)p->capacity,
		  (long long)p->associativity, (long long)p->latency, (long long)p->mshr,
		  (unsigned long long)p->misses, (unsigned long long)p->hits, p->miss_rate);
	sb_printf(out, "  (as the reference implementation prints it: d == ways counted as a hit, a negative rest "
		       "added to a term)\n");
}

static void json_classes(FILE *f, const char *key, int64_t comp, int64_t cap, int64_t assoc, int64_t lat, int64_t mshr,
			 const char *end)
{
	fprintf(f, "  \"%s\": {\"compulsory\": %lld, \"capacity\": %lld, \"associativity\": %lld, \"latency\": %lld, "
		   "\"mshr\": %lld}%s\n",
		key, (long long)comp, (long long)cap, (long long)assoc, (long long)lat, (long long)mshr, end);
}

int model_write_json(const char *path, const struct model_doc *d, char **err)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return set_err(err, "--json %s: %s", path, strerror(errno));
	const struct rdm_result *r = d->r;
	const struct rdm_cfg *c = d->c;
	uint32_t nb = r->nbins;
	fprintf(f, "{\n  \"semantics\": \"%s\",\n", d->reference ? "reference" : "gpustep");
	fprintf(f, "  \"workload\": \"");
	for (const char *p = d->workload; *p; p++)
		fprintf(f, *p == '"' || *p == '\\' ? "\\%c" : (unsigned char)*p < 32 ? "?" : "%c", *p);
	fprintf(f, "\",\n");
	fprintf(f, "  \"cache\": {\"line\": %u, \"sets\": %u, \"ways\": %u, \"set_fn\": \"%s\", \"mshr\": %u, "
		   "\"mshr_per_warp\": %u},\n",
		c->line, c->sets, c->ways, c->set_fn == RDM_FERMI ? "fermi_hash" : "modulo", c->mshr, c->mshr_per_warp);
	fprintf(f, "  \"latency\": {\"hit\": %u, \"miss_min\": %u, \"miss_sigma\": %u, \"seed\": %llu},\n", c->lat_hit,
		c->lat_min, c->lat_sigma, (unsigned long long)c->seed);
	fprintf(f, "  \"threads\": %llu,\n  \"accesses\": %llu,\n  \"hist_cap\": %u,\n  \"hist\": [",
		(unsigned long long)d->threads, (unsigned long long)r->accesses, nb);
	for (uint32_t b = 0; b <= nb; b++)
		fprintf(f, "%s%llu", b ? ", " : "", (unsigned long long)r->hist[b]);
	fprintf(f, "],\n  \"never_seen\": %llu,\n  \"in_flight\": %llu,\n",
		(unsigned long long)r->hist[nb + RDM_BIN_NEVER], (unsigned long long)r->hist[nb + RDM_BIN_FLY]);
	uint64_t misses = d->reference ? r->accesses - r->cls[RDM_HIT]
				       : r->accesses - r->cls[RDM_HIT] - r->cls[RDM_LATENCY];
	fprintf(f, "  \"hits\": %llu,\n  \"misses\": %llu,\n  \"latency_misses\": %llu,\n  \"miss_rate\": %.6f,\n",
		(unsigned long long)r->cls[RDM_HIT], (unsigned long long)misses,
		(unsigned long long)r->cls[RDM_LATENCY], r->accesses ? (double)misses / (double)r->accesses : 0.0);
	fprintf(f, "  \"access_classes\": {\"hit\": %llu, \"compulsory\": %llu, \"capacity\": %llu, "
		   "\"associativity\": %llu, \"latency\": %llu},\n",
		(unsigned long long)r->cls[RDM_HIT], (unsigned long long)r->cls[RDM_COMPULSORY],
		(unsigned long long)r->cls[RDM_CAPACITY], (unsigned long long)r->cls[RDM_ASSOC],
		(unsigned long long)r->cls[RDM_LATENCY]);
	const struct rdm_ablation *ab = d->ab;
	json_classes(f, "classes", ab->compulsory, ab->capacity, ab->associativity, ab->latency, ab->mshr, ",");
	fprintf(f, "  \"ablation\": {\"misses\": [%llu, %llu, %llu, %llu], \"inf\": [%llu, %llu, %llu, %llu], "
		   "\"raw\": {\"capacity\": %lld, \"associativity\": %lld, \"latency\": %lld, \"mshr\": %lld}, "
		   "\"adjusted\": [",
		(unsigned long long)ab->miss[0], (unsigned long long)ab->miss[1], (unsigned long long)ab->miss[2],
		(unsigned long long)ab->miss[3], (unsigned long long)ab->inf[0], (unsigned long long)ab->inf[1],
		(unsigned long long)ab->inf[2], (unsigned long long)ab->inf[3], (long long)ab->raw_capacity,
		(long long)ab->raw_associativity, (long long)ab->raw_latency, (long long)ab->raw_mshr);
	for (int i = 0, n = 0; i < 5; i++)
		if (ab->adjusted & term_bits[i])
			fprintf(f, "%s\"%s\"", n++ ? ", " : "", term_names[i]);
	fprintf(f, "]},\n");
	if (d->rep) {
		const struct rdr_report *p = d->rep;
		fprintf(f, "  \"reference_report\": {\"accesses\": %llu, \"hits\": %llu, \"misses\": %llu, "
			   "\"miss_rate\": %.6f, \"compulsory\": %lld, \"capacity\": %lld, \"associativity\": %lld, "
			   "\"latency\": %lld, \"mshr\": %lld},\n",
			(unsigned long long)p->accesses, (unsigned long long)p->hits, (unsigned long long)p->misses,
			p->miss_rate, (long long)p->compulsory, (long long)p->capacity, (long long)p->associativity,
			(long long)p->latency, (long long)p->mshr);
	}
	fprintf(f, "  \"steps\": %llu,\n  \"cancels\": %llu\n}\n", (unsigned long long)r->steps,
		(unsigned long long)r->cancels);
	int bad = ferror(f);
	bad |= fclose(f);
	if (bad)
		return set_err(err, "--json %s: write error", path);
	return 0;
}
