/*
 * whatif.c: `gpustep whatif [CONFIG] -w WORKLOAD [-p NAME=VALUE ...] -s
 * KEY=VALUE [...] [--each] [--seed N] [--json FILE]`.
 *
 * The TUI's `whatif KEY=VALUE --from-start --to-end` without a terminal:
 * the machine of CONFIG runs the workload twice from cycle 0 to the end, as
 * is (A, "base") and with the -s changes (B, "variant"), through the same
 * core (session/whatif.c), which prints the same report. With --each every
 * -s is its own fork, ranked by the cycles it saves. --json FILE writes
 * what the report says as data:
 *
 *   {"change": "K=V ...", "config": ..., "workload": ..., "seed": N,
 *    "base":    {"cycles": N, "stats": {NAME: value ...}},
 *    "variant": {"cycles": N, "stats": {...}},
 *    "identical": bool,
 *    "first_divergence": {"cycle": N, "event": TEXT, "base_event": TEXT|null,
 *                         "variant_event": TEXT|null} | null,
 *    "top_changes": [{"stat": NAME, "base": X, "variant": Y}, ...],
 *    "stall_mix": [{"reason": R, "nsight": N, "base": X, "variant": Y}, ...]}
 *
 *   --each: {"config": ..., "workload": ..., "seed": N, "each": [{"change":
 *    "K=V", "base_cycles": N, "variant_cycles": N, "delta": N,
 *    "first_divergence_cycle": N|null, "moved_most": TEXT} | {"change": ...,
 *    "error": TEXT}, ...]} in the printed order.
 *
 * Ctrl-C stops it (exit 1, no JSON).
 */
#include "whatif.h"

#include <cJSON.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export/stats_json.h"
#include "load/loader.h"
#include "load/outfile.h"
#include "session/session.h"
#include "session/whatif.h"

#define WI_MAX_ARGS 64

static const char whatif_usage[] =
	"usage: gpustep whatif [CONFIG] -w WORKLOAD [-p NAME=VALUE ...] -s KEY=VALUE [-s ...] [--each]\n"
	"                      [--seed N] [--json FILE]\n"
	"  Runs the workload on CONFIG (default: teaching) from cycle 0 to the end twice, as is (A) and\n"
	"  with the -s changes (B), and reports where the two runs part, why, what moved and the stall mix\n"
	"  (the TUI's `whatif K=V --from-start --to-end`). --each: one fork per -s, ranked by cycles saved.\n"
	"  --json FILE: the report as JSON (docs/WHATIF.md). Ctrl-C stops it.\n";

struct wi_opts {
	const char *config, *workload, *json;
	const char *sets[WI_MAX_ARGS], *params[WI_MAX_ARGS];
	int nsets, nparams;
	bool each, seed_given;
	uint64_t seed;
};

static int usage(const char *fmt, const char *arg)
{
	fprintf(stderr, "gpustep whatif: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s", whatif_usage);
	return EXIT_USAGE;
}

/* -1 to go on, else the exit status. */
static int parse(int argc, char **argv, struct wi_opts *o)
{
	enum { OPT_JSON = 256, OPT_EACH, OPT_SEED };
	static const struct option opts[] = {
		{"workload", required_argument, NULL, 'w'}, {"set", required_argument, NULL, 's'},
		{"param", required_argument, NULL, 'p'},    {"json", required_argument, NULL, OPT_JSON},
		{"each", no_argument, NULL, OPT_EACH},      {"seed", required_argument, NULL, OPT_SEED},
		{"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
	};
	memset(o, 0, sizeof *o);
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, ":w:s:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			o->workload = optarg;
			break;
		case 's':
		case 'p':
			if (!strchr(optarg, '='))
				return usage(c == 's' ? "-s: expected KEY=VALUE, got '%s'" : "-p: expected NAME=VALUE, got '%s'",
					     optarg);
			if ((c == 's' ? o->nsets : o->nparams) == WI_MAX_ARGS)
				return usage("too many %s options", c == 's' ? "-s" : "-p");
			if (c == 's')
				o->sets[o->nsets++] = optarg;
			else
				o->params[o->nparams++] = optarg;
			break;
		case OPT_JSON:
			o->json = optarg;
			break;
		case OPT_EACH:
			o->each = true;
			break;
		case OPT_SEED: {
			char *err = NULL;
			if (cli_parse_seed(optarg, &o->seed, &err)) {
				fprintf(stderr, "gpustep whatif: %s\n", err);
				free(err);
				return EXIT_USAGE;
			}
			o->seed_given = true;
			break;
		}
		case 'h':
			fputs(whatif_usage, stdout);
			return EXIT_OK;
		case ':':
			return usage("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->config = argv[optind++];
	if (optind < argc)
		return usage("unexpected argument '%s' (one CONFIG at most)", argv[optind]);
	if (!o->nsets)
		return usage("%s", "what change? (-s KEY=VALUE, e.g. -s l1.mshr.entries=4)");
	if (o->each && o->nsets < 2)
		return usage("%s", "--each compares two or more -s changes, one fork each");
	if (o->each && o->nsets > WHATIF_MAX_KEYS)
		return usage("--each takes at most 8 changes", "");
	if (!o->each && o->nsets > WHATIF_MAX_KEYS)
		return usage("at most 8 -s changes at once", "");
	return -1;
}

static void to_stderr(void *u, const char *text)
{
	(void)u;
	fflush(stdout);
	fprintf(stderr, "gpustep %s\n", text);
}

/* Ctrl-C: set from the start (building the machine can take a while, and
 * a shell's background job inherits SIGINT ignored), looked at between
 * the whatif's chunks through its cancel callback. */
static volatile sig_atomic_t got_sigint;

static void on_sigint(int sig)
{
	(void)sig;
	got_sigint = 1;
}

static bool cancelled(void *u)
{
	(void)u;
	return got_sigint != 0;
}

/* The session of CONFIG + workload + -p; NULL (said on stderr) when it
 * cannot be built. */
static struct session *open_it(const struct wi_opts *o)
{
	struct sim_cfg cfg;
	char *err = NULL;
	cfg_defaults(&cfg);
	struct strbuf notes;
	sb_init(&notes);
	int rc = o->config ? loader_load_config_notes(o->config, &cfg, &notes, &err) : 0;
	if (notes.len)
		fprintf(stderr, "gpustep whatif: note: %s\n", notes.s);
	sb_fini(&notes);
	if (!rc && o->seed_given)
		cfg.seed = o->seed;
	if (!rc)
		rc = cfg_validate(&cfg, &err);
	if (!rc)
		rc = session_check_memory(0, &cfg, NULL, &err);
	if (rc) {
		fprintf(stderr, "gpustep whatif: %s\n", err ? err : "invalid config");
		free(err);
		return NULL;
	}
	struct session *ss = xcalloc(1, sizeof *ss);
	if (session_init(ss, &cfg, o->config ? o->config : "", o->workload, cfg.seed, &err)) {
		fprintf(stderr, "gpustep whatif: %s\n", err ? err : "cannot build the simulator");
		free(err);
		free(ss);
		return NULL;
	}
	session_set_snapshot_budget(ss, 0); /* nothing rewinds here (this session only) */
	if (o->nparams) {
		struct kernel_src *k = xmalloc(sizeof *k);
		*k = ss->ksrc;
		for (int i = 0; i < o->nparams && !rc; i++) {
			const char *eq = strchr(o->params[i], '=');
			char name[KNAME_MAX + 8];
			snprintf(name, sizeof name, "%.*s", (int)(eq - o->params[i]), o->params[i]);
			rc = loader_kernel_set_param(k, name, eq + 1, &err);
		}
		if (!rc)
			rc = session_set_kernel_src(ss, k, &err);
		free(k);
		if (rc) {
			fprintf(stderr, "gpustep whatif: %s\n", err ? err : "bad -p");
			free(err);
			session_fini(ss);
			free(ss);
			return NULL;
		}
	}
	return ss;
}

/* {"cycles": N, "stats": {...}} of one side, the stats as --stats writes them. */
static cJSON *side_json(const struct session *ss, const struct sim *s)
{
	struct stats_json_info info = {ss->cfg.name, ss->ksrc.name, ss->seed};
	char *text = stats_json_string(s, &info);
	cJSON *doc = text ? cJSON_Parse(text) : NULL;
	free(text);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "cycles", (double)sim_cycle(s));
	cJSON_AddBoolToObject(o, "finished", sim_done(s));
	cJSON *st = doc ? cJSON_DetachItemFromObjectCaseSensitive(doc, "stats") : NULL;
	cJSON_AddItemToObject(o, "stats", st ? st : cJSON_CreateObject());
	cJSON_Delete(doc);
	return o;
}

static cJSON *event_json(bool has, const struct event *e)
{
	if (!has)
		return cJSON_CreateNull();
	char buf[512];
	event_format(e, buf, sizeof buf);
	return cJSON_CreateString(buf);
}

static cJSON *head_json(const struct session *ss)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "config", ss->cfg.name);
	cJSON_AddStringToObject(o, "workload", ss->ksrc.name);
	cJSON_AddNumberToObject(o, "seed", (double)ss->seed);
	return o;
}

static cJSON *result_json(const struct session *ss, const struct whatif_spec *w, const struct whatif_result *r)
{
	cJSON *o = head_json(ss);
	char chg[1024];
	cJSON_AddStringToObject(o, "change", whatif_change_text(w, chg, sizeof chg));
	cJSON_AddItemToObject(o, "base", side_json(ss, r->a));
	cJSON_AddItemToObject(o, "variant", side_json(ss, r->b));
	const struct whatif_part *p = &r->part;
	cJSON_AddBoolToObject(o, "identical", !p->parted && !p->lost);
	if (p->parted) {
		cJSON *d = cJSON_AddObjectToObject(o, "first_divergence");
		cJSON_AddNumberToObject(d, "cycle", (double)p->cycle);
		/* the event at that cycle: B's when both sides have one there */
		bool b_there = p->has_b && p->b.cycle == p->cycle;
		cJSON_AddItemToObject(d, "event", event_json(true, b_there ? &p->b : &p->a));
		cJSON_AddItemToObject(d, "base_event", event_json(p->has_a, &p->a));
		cJSON_AddItemToObject(d, "variant_event", event_json(p->has_b, &p->b));
	} else {
		cJSON_AddNullToObject(o, "first_divergence");
	}
	cJSON *top = cJSON_AddArrayToObject(o, "top_changes");
	for (uint32_t i = 0; i < r->nchanges && i < WHATIF_TOP; i++) {
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "stat", r->changes[i].name);
		cJSON_AddNumberToObject(t, "base", r->changes[i].a);
		cJSON_AddNumberToObject(t, "variant", r->changes[i].b);
		cJSON_AddItemToArray(top, t);
	}
	cJSON *mix = cJSON_AddArrayToObject(o, "stall_mix");
	for (int k = STALL_MEM; k < STALL__COUNT; k++) {
		if (!r->stall_a[k] && !r->stall_b[k])
			continue;
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "reason", stall_reason_name((unsigned)k));
		cJSON_AddStringToObject(t, "nsight", whatif_stall_nsight(k));
		cJSON_AddNumberToObject(t, "base", (double)r->stall_a[k]);
		cJSON_AddNumberToObject(t, "variant", (double)r->stall_b[k]);
		cJSON_AddItemToArray(mix, t);
	}
	return o;
}

static cJSON *each_json(const struct session *ss, const struct whatif_each_row *v, int n)
{
	cJSON *o = head_json(ss);
	cJSON *a = cJSON_AddArrayToObject(o, "each");
	for (int i = 0; i < n; i++) {
		cJSON *t = cJSON_CreateObject();
		cJSON_AddStringToObject(t, "change", v[i].change);
		if (!v[i].ok) {
			cJSON_AddStringToObject(t, "error", v[i].msg);
		} else {
			cJSON_AddNumberToObject(t, "base_cycles", (double)v[i].cycles_a);
			cJSON_AddNumberToObject(t, "variant_cycles", (double)v[i].cycles_b);
			cJSON_AddNumberToObject(t, "delta", (double)v[i].delta);
			if (v[i].parted)
				cJSON_AddNumberToObject(t, "first_divergence_cycle", (double)v[i].part_cycle);
			else
				cJSON_AddNullToObject(t, "first_divergence_cycle");
			cJSON_AddStringToObject(t, "moved_most", v[i].top);
		}
		cJSON_AddItemToArray(a, t);
	}
	return o;
}

static int write_json(const char *path, cJSON *doc)
{
	char *text = cJSON_Print(doc), *err = NULL;
	int rc = EXIT_OK;
	if (!text || write_file_atomic(path, text, &err)) {
		fprintf(stderr, "gpustep whatif: --json %s: %s\n", path, err ? err : "cannot write");
		rc = EXIT_RUNTIME;
	}
	free(err);
	free(text);
	return rc;
}

int whatif_main(int argc, char **argv)
{
	struct wi_opts o;
	int rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (!o.workload)
		return usage("%s", "which workload? (-w NAME|FILE; gpustep --list-kernels)");
	char *err = NULL;
	if (o.json && outfile_check(o.json, &err)) {
		fprintf(stderr, "gpustep whatif: --json %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	got_sigint = 0;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	struct session *ss = open_it(&o);
	if (!ss) {
		sigaction(SIGINT, &old, NULL);
		return EXIT_USAGE;
	}
	struct whatif_spec *w = xmalloc(sizeof *w);
	whatif_spec_init(w, &ss->cfg);
	w->from_start = true;
	w->span = WHATIF_TO_END;
	rc = EXIT_OK;
	for (int i = 0; i < o.nsets && rc == EXIT_OK; i++) {
		/* --each checks each change on its own (the others not applied) */
		struct sim_cfg keep = w->cfg;
		if (whatif_spec_add(w, o.sets[i], &err)) {
			fprintf(stderr, "gpustep whatif: -s %s: %s\n", o.sets[i], err ? err : "invalid");
			free(err);
			err = NULL;
			rc = EXIT_USAGE;
		}
		if (o.each)
			w->cfg = keep;
	}
	if (rc == EXIT_OK && !o.each && whatif_spec_check(w, &err)) {
		fprintf(stderr, "gpustep whatif: %s\n", err ? err : "invalid configuration");
		free(err);
		rc = EXIT_USAGE;
	}
	struct whatif_out out = {.print = cli_print_stdout, .error = to_stderr, .cancel = cancelled};
	cJSON *doc = NULL;
	if (rc == EXIT_OK && o.each) {
		struct whatif_each_row *rows;
		int n;
		if (whatif_each(ss, w, &out, &rows, &n))
			rc = EXIT_RUNTIME;
		else {
			doc = each_json(ss, rows, n);
			free(rows);
		}
	} else if (rc == EXIT_OK) {
		struct whatif_result r;
		if (whatif_run(ss, w, &out, false, &r)) {
			rc = EXIT_RUNTIME;
		} else if (r.interrupted) {
			fprintf(stderr, "gpustep whatif: interrupted (Ctrl-C) at cycle %llu of A; nothing written\n",
				(unsigned long long)sim_cycle(r.a));
			rc = EXIT_RUNTIME;
		} else {
			doc = result_json(ss, w, &r);
		}
		whatif_result_free(&r);
	}
	sigaction(SIGINT, &old, NULL);
	if (doc && o.json)
		rc = write_json(o.json, doc);
	cJSON_Delete(doc);
	free(w);
	session_fini(ss);
	free(ss);
	return rc;
}
