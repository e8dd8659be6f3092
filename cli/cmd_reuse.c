/*
 * cmd_reuse.c: `gpustep model [CONFIG] -w WORKLOAD`: the analytical
 * reuse-distance model next to the cycle simulator (cmd_reuse.h).
 *
 * The model sees the config's L1 (line, sets, ways, index function, MSHRs,
 * per-warp cap, warp size, CTAs and threads per SM); latencies are model
 * parameters (defaults 0 / 100 + |N(0, 5^2)| from the reference code).
 * The simulator's comparable miss rate leaves out misses to lines in flight
 * (l1.miss.latency), as the paper does against hardware counters.
 * WORKLOAD may be a .trc thread-address trace (engine/reuse/trc.h): the model reads
 * its per-thread loads directly, the simulator replays it (trc_wl_ops).
 */
#include "cmd_reuse.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "tui/cmd_int.h"
#include "load/loader.h"
#include "model_out.h"
#include "sim/sim.h"
#include "sim/stats.h"
#include "load/trace_io.h"
#include "reuse/trc.h"

static void model_opts_default(struct model_opts *o)
{
	*o = (struct model_opts){.lat_min = 100, .lat_sigma = 5, .lat_hit = 0, .threads = 8192, .simulate = true,
				 .ablation = true, .hist = true, .semantics = MODEL_SEM_GPUSTEP};
}

/* "reference" / "gpustep" -> MODEL_SEM_*; -1 otherwise. */
static int model_semantics(const char *name)
{
	if (strcmp(name, "gpustep") == 0)
		return MODEL_SEM_GPUSTEP;
	if (strcmp(name, "reference") == 0)
		return MODEL_SEM_REFERENCE;
	return -1;
}

/* The model's view of a machine config's L1. */
static void model_cfg_from_sim(const struct sim_cfg *cfg, const struct model_opts *o, struct rdm_cfg *c)
{
	rdm_cfg_fermi(c, false);
	c->line = (uint32_t)cfg->l1.line;
	c->sets = (uint32_t)cfg->l1.sets;
	c->ways = (uint32_t)cfg->l1.ways;
	c->set_fn = cfg->l1.index == IDX_FERMI_HASH ? RDM_FERMI : RDM_MODULO; /* ipoly: modulo (the model has no ipoly) */
	c->mshr = (uint32_t)cfg->l1.mshr_entries;
	c->mshr_per_warp = (uint32_t)cfg->l1.mshr_per_warp;
	c->warp_size = (uint32_t)cfg->core.warp_size;
	c->max_blocks = (uint32_t)cfg->core.ctas_per_sm;
	c->max_threads = (uint32_t)cfg->core.threads_per_sm;
	c->lat_hit = o->lat_hit;
	c->lat_min = o->lat_min;
	c->lat_sigma = o->lat_sigma;
	c->clip = !o->no_clip;
	c->rule_b = o->rule_b;
	c->thread_cap = o->threads;
	c->hist_cap = o->hist_cap;
	c->seed = cfg->seed;
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t statv(const struct stats *st, const char *name)
{
	int id = stats_find(st, name);
	return id < 0 ? 0 : stats_counter_value(st, (uint32_t)id);
}

static uint64_t threads_per_block(const struct workload *wl);

/* The model's input for wl (a kernel or a .trc replay), in the shape the
 * semantics needs: *t (gpustep) or *ri (reference). */
static void build(const struct workload *wl, const struct rdm_cfg *c, bool ref, struct rdm_trace **t,
		  struct rdr_input **ri)
{
	if (ref)
		*ri = wl->kernel ? rdr_input_from_kernel(wl->kernel, c) : rdr_input_from_trc(wl->impl, c);
	else
		*t = wl->kernel ? rdm_trace_from_kernel(wl->kernel, c) : trc_rdm_trace(wl->impl, c);
}

/* The panel's copy of the histogram (rebinned to RDM_SUM_BINS). */
static void keep_hist(struct rdm_summary *sm, const struct rdm_result *r, bool ref)
{
	sm->reference = ref;
	sm->hist_bins = MIN(r->nbins, (uint32_t)RDM_SUM_BINS);
	memset(sm->hist, 0, sizeof(sm->hist));
	for (uint32_t b = 0; b <= r->nbins; b++)
		sm->hist[MIN(b, sm->hist_bins)] += r->hist[b];
	sm->hist[sm->hist_bins + RDM_BIN_NEVER] = r->hist[r->nbins + RDM_BIN_NEVER];
	sm->hist[sm->hist_bins + RDM_BIN_FLY] = r->hist[r->nbins + RDM_BIN_FLY];
}

/* The report for workload wl (a kernel or a .trc replay) of `threads`
 * threads. */
static int report(const struct sim_cfg *cfg, const struct workload *wl, uint64_t threads, const struct model_opts *o,
		  struct strbuf *out, struct rdm_summary *sum, char **err)
{
	struct rdm_cfg c;
	model_cfg_from_sim(cfg, o, &c);
	bool ref = o->semantics == MODEL_SEM_REFERENCE;
	struct rdm_summary *sm = xcalloc(1, sizeof(*sm));
	sm->sets = c.sets;
	sm->ways = c.ways;
	snprintf(sm->workload, sizeof sm->workload, "%s", wl->name);
	double t0 = seconds();
	struct rdm_trace *tr = NULL;
	struct rdr_input *ri = NULL;
	build(wl, &c, ref, &tr, &ri);
	double t_input = seconds() - t0;
	struct rdm_result *r = xmalloc(sizeof(*r));
	if (ref)
		rdr_run(&c, ri, r);
	else
		rdm_run(&c, tr, r);
	double t_model = seconds() - t0;
	if (ref)
		sb_printf(out, "model: %s L1 %u sets x %u ways x %u B (%s), %u MSHRs, latency hit %u miss %u+|N(0,%u^2)|, "
			       "reference semantics\n",
			  cfg->name, c.sets, c.ways, c.line, c.set_fn == RDM_FERMI ? "fermi hash" : "modulo", c.mshr,
			  c.lat_hit, c.lat_min, c.lat_sigma);
	else
		sb_printf(out, "model: %s L1 %u sets x %u ways x %u B (%s), %u MSHRs (%u per warp), latency hit %u miss %u+|N(0,%u^2)|, rule %s%s\n",
			  cfg->name, c.sets, c.ways, c.line, c.set_fn == RDM_FERMI ? "fermi hash" : "modulo", c.mshr,
			  c.mshr_per_warp, c.lat_hit, c.lat_min, c.lat_sigma, c.rule_b ? "B" : "A", c.clip ? ", clipping" : "");
	uint64_t tpb = threads_per_block(wl);
	uint64_t nthr = ref ? rdr_input_threads(ri)
			    : MIN(threads, (uint64_t)rdm_blocks_modelled(&c, (uint32_t)tpb, (uint32_t)(tpb ? threads / tpb : 0)) * tpb);
	sb_printf(out, "model: %s, %llu coalesced loads of %s%llu of %llu threads, one core, %llu steps, %llu cancels\n",
		  wl->name, (unsigned long long)r->accesses, nthr == threads ? "all " : "the first ",
		  (unsigned long long)nthr, (unsigned long long)threads, (unsigned long long)r->steps,
		  (unsigned long long)r->cancels);
	double a = r->accesses ? (double)r->accesses : 1.0;
	uint64_t lat = r->cls[RDM_LATENCY], miss_all = r->accesses - r->cls[RDM_HIT];
	double mr = ref ? (double)miss_all / a : rdm_miss_rate(r);
	if (!r->accesses)
		mr = 0.0;
	sm->threads = (uint32_t)MIN(nthr, (uint64_t)UINT32_MAX);
	sm->accesses = r->accesses;
	sm->model_miss = mr;
	sm->model_hit = r->accesses ? 1.0 - mr : 0.0;
	sb_printf(out, "model hit rate   %.4f\n", r->accesses ? 1.0 - mr : 0.0);
	if (ref) {
		sb_printf(out, "model miss rate  %.4f   (latency misses included, as the reference counts them; %.4f without them)\n",
			  mr, (double)(miss_all - lat) / a);
		sb_printf(out, "model classes    compulsory %.4f  capacity %.4f  latency %.4f   (per access: d = inf, "
			       "other misses, line in flight)\n",
			  (double)r->cls[RDM_COMPULSORY] / a, (double)r->cls[RDM_CAPACITY] / a, (double)lat / a);
	} else {
		sb_printf(out, "model miss rate  %.4f   (latency misses excluded; %.4f with them)\n", mr,
			  (double)miss_all / a);
		sb_printf(out, "model classes    compulsory %.4f  capacity %.4f  associativity %.4f  latency %.4f\n",
			  (double)r->cls[RDM_COMPULSORY] / a, (double)r->cls[RDM_CAPACITY] / a, (double)r->cls[RDM_ASSOC] / a,
			  (double)lat / a);
	}
	int rc = 0;
	if (o->ablation || o->json) {
		struct rdm_ablation ab;
		struct rdr_report rp;
		if (ref)
			rdr_ablation(&c, ri, &ab, &rp);
		else
			rdm_ablation(&c, tr, &ab);
		model_print_ablation(out, &ab);
		if (ref)
			model_print_ref_report(out, &rp);
		if (o->json) {
			struct model_doc d = {.workload = wl->name, .reference = ref, .threads = nthr, .c = &c, .r = r,
					      .ab = &ab, .rep = ref ? &rp : NULL};
			rc = model_write_json(o->json, &d, err);
		}
	}
	if (o->hist)
		model_print_hist(out, &c, r, ref);
	keep_hist(sm, r, ref);
	free(r);
	rdm_trace_free(tr);
	rdr_input_free(ri);
	sb_printf(out, "model time       %.4f s (input %.4f s: the workload's loads, coalesced; model %.4f s)\n", t_model,
		  t_input, t_model - t_input);
	sm->model_s = t_model;
	sm->valid = true;
	if (rc || !o->simulate) {
		if (sum && !rc)
			*sum = *sm;
		free(sm);
		return rc;
	}
	t0 = seconds();
	struct sim *s = sim_new(cfg, wl, err);
	if (!s) {
		free(sm);
		return -1;
	}
	sim_step(s, UINT64_MAX);
	double t_sim = seconds() - t0;
	const struct stats *st = sim_stats_c(s);
	uint64_t acc = statv(st, "l1.accesses"), miss = statv(st, "l1.misses"), slat = statv(st, "l1.miss.latency");
	double sa = acc ? (double)acc : 1.0;
	sb_printf(out, "simulated hit rate   %.4f   (l1, %d SMs, %llu lookups, %llu cycles; %.4f counting latency misses as misses)\n",
		  acc ? 1.0 - (double)(miss - slat) / sa : 0.0, cfg->core.sms, (unsigned long long)acc,
		  (unsigned long long)sim_cycle(s), (double)statv(st, "l1.hits") / sa);
	sb_printf(out, "simulated miss rate  %.4f   (latency misses excluded; %.4f with them)\n",
		  (double)(miss - slat) / sa, (double)miss / sa);
	sb_printf(out, "simulated classes    compulsory %.4f  capacity %.4f  associativity %.4f  latency %.4f  other %.4f\n",
		  (double)statv(st, "l1.miss.compulsory") / sa, (double)statv(st, "l1.miss.capacity") / sa,
		  (double)statv(st, "l1.miss.associativity") / sa, (double)slat / sa,
		  (double)statv(st, "l1.miss.other") / sa);
	sb_printf(out, "simulation time  %.4f s (model %.0fx faster)\n", t_sim, t_model > 0 ? t_sim / t_model : 0.0);
	sm->simulated = true;
	sm->sim_lookups = acc;
	sm->sim_cycles = sim_cycle(s);
	sm->sim_miss = (double)(miss - slat) / sa;
	sm->sim_hit = acc ? 1.0 - sm->sim_miss : 0.0;
	sm->sim_s = t_sim;
	sim_free(s);
	if (sum)
		*sum = *sm;
	free(sm);
	return 0;
}

static uint64_t threads_per_block(const struct workload *wl)
{
	return wl->kernel ? kernel_threads_per_cta(wl->kernel) : trc_get_info(wl->impl)->tpb;
}

/* Run the model (and the simulator when o->simulate) and append the report;
 * *sum (if not NULL) gets the numbers. 0 or -1 with *err. */
static int model_report(const struct sim_cfg *cfg, const struct kernel *k, const struct model_opts *o, struct strbuf *out,
		 struct rdm_summary *sum, char **err)
{
	struct workload wl = {.kernel = k};
	snprintf(wl.name, sizeof wl.name, "%s", kernel_name(k));
	return report(cfg, &wl, (uint64_t)kernel_ctas(k) * kernel_threads_per_cta(k), o, out, sum, err);
}

static int model_report_trc(const struct sim_cfg *cfg, const struct trc *t, const struct model_opts *o, struct strbuf *out,
		     struct rdm_summary *sum, char **err)
{
	struct workload wl = {.ops = &trc_wl_ops, .impl = t};
	snprintf(wl.name, sizeof wl.name, "%.63s", trc_file(t));
	return report(cfg, &wl, (uint64_t)trc_get_info(t)->blocks * trc_get_info(t)->tpb, o, out, sum, err);
}

static int parse_threads(const char *v, unsigned *out)
{
	char *end;
	unsigned long x = strtoul(v, &end, 10);
	if (!*v || *end || *v == '-' || x > UINT32_MAX)
		return -1;
	*out = (unsigned)x;
	return 0;
}

static int usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "gpustep model: %s\n", msg);
	fprintf(stderr, "usage: gpustep model [CONFIG] -w WORKLOAD [-s PATH=VALUE] [-p NAME=VALUE] [--seed N]\n"
			"       [--lat-min N] [--lat-sigma N] [--lat-hit N] [--rule-b] [--no-clip] [--threads N]\n"
			"       [--semantics gpustep|reference] [--hist-cap N] [--json FILE] [--no-sim] [--no-ablation]\n"
			"       [--no-hist]\n"
			"  --threads N      threads the model sees, whole blocks (default 8192 as the paper; 0 = all)\n"
			"  --semantics S    gpustep (default) or reference: as tue-es/gpu-cache-model (docs/REUSE.md)\n"
			"  --hist-cap N     histogram bins 0 .. N-1 exact, then >= N (default 4 x ways, at most %u)\n"
			"  --json FILE      write the histogram, rates and classes as JSON (runs the ablation)\n",
		RDM_MAX_BINS);
	return 2;
}

/* `gpustep model -w FILE.trc`: 0, 1 (run error) or 2 (usage / load error). */
static int model_trc(const struct sim_cfg *cfg, const char *spec, int nparams, const struct model_opts *mo)
{
	char *err = NULL;
	unsigned first;
	struct trace_list *tl = nparams ? NULL : trace_list_open(spec, &first, &err);
	const struct trc *t = tl ? trace_list_trc(tl, first, &err) : NULL;
	if (!t) {
		if (nparams)
			fprintf(stderr, "gpustep model: -p sets kernel parameters; %s is a trace\n", spec);
		else if (tl) /* an Accel-Sim trace */
			fprintf(stderr, "gpustep model: %s: the model reads built-in or JSON kernels and .trc traces, "
					"not Accel-Sim traces\n", spec);
		else
			fprintf(stderr, "gpustep model: %s\n", err ? err : "error");
		free(err);
		trace_list_free(tl);
		return 2;
	}
	struct strbuf out;
	sb_init(&out);
	int rc = model_report_trc(cfg, t, mo, &out, NULL, &err);
	fputs(out.s ? out.s : "", stdout);
	sb_fini(&out);
	trace_list_free(tl);
	if (rc) {
		fprintf(stderr, "gpustep model: %s\n", err ? err : "error");
		free(err);
		return 1;
	}
	return 0;
}

int model_main(int argc, char **argv)
{
	enum { O_LMIN = 256, O_LSIG, O_LHIT, O_RULEB, O_NOCLIP, O_NOSIM, O_NOABL, O_SEED, O_THREADS, O_SEM, O_JSON,
	       O_HCAP, O_NOHIST };
	static const struct option lo[] = {
		{"workload", required_argument, NULL, 'w'}, {"set", required_argument, NULL, 's'},
		{"param", required_argument, NULL, 'p'},    {"seed", required_argument, NULL, O_SEED},
		{"lat-min", required_argument, NULL, O_LMIN}, {"lat-sigma", required_argument, NULL, O_LSIG},
		{"lat-hit", required_argument, NULL, O_LHIT}, {"rule-b", no_argument, NULL, O_RULEB},
		{"no-clip", no_argument, NULL, O_NOCLIP},   {"no-sim", no_argument, NULL, O_NOSIM},
		{"no-ablation", no_argument, NULL, O_NOABL}, {"threads", required_argument, NULL, O_THREADS},
		{"semantics", required_argument, NULL, O_SEM}, {"json", required_argument, NULL, O_JSON},
		{"hist-cap", required_argument, NULL, O_HCAP}, {"no-hist", no_argument, NULL, O_NOHIST},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct model_opts mo;
	model_opts_default(&mo);
	const char *workload = NULL, *sets[32], *params[32];
	int nsets = 0, nparams = 0;
	const char *seed = NULL;
	optind = 1;
	int ch;
	while ((ch = getopt_long(argc, argv, "w:s:p:h", lo, NULL)) != -1) {
		switch (ch) {
		case 'h': usage(NULL); return 0;
		case 'w': workload = optarg; break;
		case 's': if (nsets == 32) return usage("too many -s"); sets[nsets++] = optarg; break;
		case 'p': if (nparams == 32) return usage("too many -p"); params[nparams++] = optarg; break;
		case O_SEED: seed = optarg; break;
		case O_LMIN: mo.lat_min = (unsigned)strtoul(optarg, NULL, 0); break;
		case O_LSIG: mo.lat_sigma = (unsigned)strtoul(optarg, NULL, 0); break;
		case O_LHIT: mo.lat_hit = (unsigned)strtoul(optarg, NULL, 0); break;
		case O_RULEB: mo.rule_b = true; break;
		case O_NOCLIP: mo.no_clip = true; break;
		case O_NOSIM: mo.simulate = false; break;
		case O_NOABL: mo.ablation = false; break;
		case O_THREADS:
			if (parse_threads(optarg, &mo.threads))
				return usage("--threads: expected a thread count (0 = all threads)");
			break;
		case O_SEM:
			if ((mo.semantics = model_semantics(optarg)) < 0)
				return usage("--semantics: expected gpustep or reference");
			break;
		case O_JSON: mo.json = optarg; break;
		case O_HCAP:
			if (parse_threads(optarg, &mo.hist_cap) || mo.hist_cap < 1 || mo.hist_cap > RDM_MAX_BINS) {
				fprintf(stderr, "gpustep model: --hist-cap: expected 1 to %u bins, got '%s'\n", RDM_MAX_BINS, optarg);
				return 2;
			}
			break;
		case O_NOHIST: mo.hist = false; break;
		default: return usage(NULL);
		}
	}
	if (optind + 1 < argc)
		return usage("at most one CONFIG");
	if (!workload)
		return usage("-w WORKLOAD is required");
	if (mo.json) { /* a file we cannot write is a usage error, before any work */
		FILE *jf = fopen(mo.json, "w");
		if (!jf) {
			fprintf(stderr, "gpustep model: --json %s: %s\n", mo.json, strerror(errno));
			return 2;
		}
		fclose(jf);
	}
	char *err = NULL;
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	int rc = optind < argc ? loader_load_config(argv[optind], &cfg, &err) : 0;
	for (int i = 0; i < nsets && !rc; i++)
		rc = loader_apply_override(&cfg, sets[i], &err);
	if (!rc && seed)
		rc = cli_parse_seed(seed, &cfg.seed, &err);
	if (!rc)
		rc = cfg_validate(&cfg, &err);
	if (!rc && trace_is_spec(workload)) /* a .trc trace: the model reads it directly */
		return model_trc(&cfg, workload, nparams, &mo);
	struct kernel_src *src = xcalloc(1, sizeof(*src));
	if (!rc)
		rc = loader_load_kernel(workload, src, &err);
	for (int i = 0; i < nparams && !rc; i++) {
		const char *eq = strchr(params[i], '=');
		char name[64];
		if (!eq) {
			rc = set_err(&err, "-p %s: expected NAME=VALUE", params[i]);
			break;
		}
		snprintf(name, sizeof name, "%.*s", (int)(eq - params[i]), params[i]);
		rc = loader_kernel_set_param(src, name, eq + 1, &err);
	}
	struct kernel *k = rc ? NULL : kernel_compile(src, cfg.seed, &err);
	free(src);
	if (!k) {
		fprintf(stderr, "gpustep model: %s\n", err ? err : "error");
		free(err);
		return 2;
	}
	struct strbuf out;
	sb_init(&out);
	rc = model_report(&cfg, k, &mo, &out, NULL, &err);
	fputs(out.s ? out.s : "", stdout);
	sb_fini(&out);
	kernel_free(k);
	if (rc) {
		fprintf(stderr, "gpustep model: %s\n", err ? err : "error");
		free(err);
		return 1;
	}
	return 0;
}

/* `model [--threads N] [--no-sim]` at the prompt / in batch scripts: the
 * model on the session's machine and kernel, beside a fresh simulation of the
 * same (the session's own simulator is not touched). The result stays in
 * the session for the reuse panel (predicted vs measured). */
int cmd_model(struct session *ss, int argc, char **argv, struct cmd_out *out)
{
	struct model_opts o;
	model_opts_default(&o);
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-sim") == 0) {
			o.simulate = false;
		} else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
			if (parse_threads(argv[++i], &o.threads)) {
				cmd_errorf(out, "model: --threads: expected a thread count (0 = all threads), got '%s'", argv[i]);
				return CMD_ERR;
			}
		} else if (strcmp(argv[i], "--semantics") == 0 && i + 1 < argc) {
			if ((o.semantics = model_semantics(argv[++i])) < 0) {
				cmd_errorf(out, "model: --semantics: expected gpustep or reference, got '%s'", argv[i]);
				return CMD_ERR;
			}
		} else if (strcmp(argv[i], "--no-hist") == 0) {
			o.hist = false;
		} else {
			cmd_errorf(out, "usage: model [--threads N] [--semantics gpustep|reference] [--no-sim] [--no-hist]");
			return CMD_ERR;
		}
	}
	char *err = NULL;
	const struct trc *t = !ss->kernel && ss->traces ? trace_list_trc(ss->traces, ss->trace_k, &err) : NULL;
	if (!ss->kernel && !t) {
		cmd_errorf(out, "model: %s", err ? err : "the workload is an Accel-Sim trace (the model reads kernels and .trc traces)");
		free(err);
		return CMD_ERR;
	}
	struct strbuf sb;
	sb_init(&sb);
	struct rdm_summary sum;
	int rc = t ? model_report_trc(&ss->cfg, t, &o, &sb, &sum, &err)
		   : model_report(&ss->cfg, ss->kernel, &o, &sb, &sum, &err);
	if (rc) {
		cmd_errorf(out, "model: %s", err ? err : "failed");
		free(err);
	} else {
		ss->model = sum;
		cmd_printf(out, "%s", sb.s);
	}
	sb_fini(&sb);
	return rc ? CMD_ERR : CMD_OK;
}
