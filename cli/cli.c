/*
 * cli.c: gpustep's command line.
 *
 *   parse options ─▶ listings that need no machine (--list-*, --version)
 *                 ─▶ config: defaults ◀ CONFIG file/preset ◀ -s overrides ◀ --seed ─▶ validate
 *                 ─▶ --check-config / --dump-config / --dram-trace
 *                 ─▶ session (workload, --param) ─▶ --batch, --run, or the TUI
 *                 ─▶ --stats at exit
 */
#include "cli.h"
#include "cli_opts.h"
#include "cli_report.h"
#include "cmd_coh.h"
#include "cmd_reuse.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "debug/inspect.h"
#include "dram/dram_trace.h"
#include "load/embedded.h"
#include "export/export.h"
#include "lesson/lesson.h"
#include "load/gpgpusim.h"
#include "load/preset_source.h"
#include "load/loader.h"
#include "load/outfile.h"
#include "session/session.h"
#include "session/session_file.h"
#include "session/whatif.h"
#include "machine/sim_mem.h"
#include "load/sysmem.h"
#include "export/stats_json.h"
#include "sweep/sweep.h"
#include "load/trace_io.h"
#include "tui/tui.h"
#include "validate.h"
#include "whatif.h"

/* ---- output for batch mode --------------------------------------------------- */
void cli_print_stdout(void *u, const char *text)
{
	(void)u;
	printf("%s\n", text);
	fflush(stdout);
}

static void print_stderr(void *u, const char *text)
{
	(void)u;
	fflush(stdout);
	fprintf(stderr, "%s\n", text);
}

static struct session *interrupt_target;

static void on_sigint(int sig)
{
	(void)sig;
	if (!interrupt_target)
		return;
	whatif_interrupt(); /* a `whatif` running its two copies (session/whatif.c) */
	if (interrupt_target->load_sim) /* a `load session` replaying (session_load) */
		sim_interrupt(interrupt_target->load_sim);
	else if (interrupt_target->sim)
		sim_interrupt(interrupt_target->sim);
}

static const char *default_workload(void)
{
	size_t n;
	char **names = loader_names(LOADER_KERNELS, &n);
	static char first[64];
	bool have_default = false;
	for (size_t i = 0; i < n; i++)
		have_default |= strcmp(names[i], GPUSTEP_DEFAULT_WORKLOAD) == 0;
	snprintf(first, sizeof first, "%s", have_default || !n ? GPUSTEP_DEFAULT_WORKLOAD : names[0]);
	loader_names_free(names);
	return first;
}

static int write_stats(struct session *ss, const char *path)
{
	char *err = NULL;
	struct stats_json_info info = {ss->cfg.name, ss->ksrc.name, ss->seed};
	if (stats_json_write(path, ss->sim, &info, &err)) {
		fprintf(stderr, "gpustep: %s\n", err);
		free(err);
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int run_dram_trace(const struct sim_cfg *cfg, const struct options *o)
{
	char *err = NULL;
	struct dram_trace_run *r = dram_trace_run(cfg, o->dram_trace, &err);
	if (!r) {
		fprintf(stderr, "gpustep: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	struct strbuf sb;
	sb_init(&sb);
	dram_trace_summary(r, &sb);
	fputs(sb.s, stdout);
	sb_fini(&sb);
	int rc = EXIT_OK;
	if (o->stats) {
		const char *base = strrchr(o->dram_trace, '/');
		struct stats_json_info info = {cfg->name, base ? base + 1 : o->dram_trace, cfg->seed};
		char *text = stats_json_string_raw(&r->stats, r->now, &info);
		if (write_file_atomic(o->stats, text, &err)) {
			fprintf(stderr, "gpustep: %s\n", err);
			free(err);
			rc = EXIT_RUNTIME;
		}
		free(text);
	}
	dram_trace_run_free(r);
	return rc;
}

static int build_config(const struct options *o, struct sim_cfg *cfg)
{
	char *err = NULL;
	cfg_defaults(cfg);
	struct strbuf notes;
	sb_init(&notes);
	int lrc = o->config ? loader_load_config_notes(o->config, cfg, &notes, &err) : 0;
	if (notes.len)
		fprintf(stderr, "gpustep: note: %s\n", notes.s);
	sb_fini(&notes);
	if (lrc)
		goto fail;
	/* A DRAMSim3 trace's request is one burst (bus_width / 8 x BL bytes):
	 * with a .ini, that is the request (line) size of trace mode. */
	if (o->dram_trace && o->config && loader_is_ini(o->config))
		cfg->l1.line = cfg->l2.line = cfg->dram.bus_bytes * cfg->dram.burst;
	for (int i = 0; i < o->nsets; i++)
		if (loader_apply_override(cfg, o->sets[i], &err))
			goto fail;
	if (o->seed_given)
		cfg->seed = o->seed;
	if (o->threads_given)
		cfg->threads = o->threads;
	if (cfg_validate(cfg, &err))
		goto fail;
	return 0;
fail:
	fprintf(stderr, "gpustep: %s\n", err ? err : "invalid config");
	free(err);
	return -1;
}

/* -p NAME=VALUE onto the kernel source k. */
static int set_params(struct kernel_src *k, const struct options *o, char **err)
{
	for (int i = 0; i < o->nparams; i++) {
		const char *eq = strchr(o->params[i], '=');
		char name[KNAME_MAX + 8];
		snprintf(name, sizeof name, "%.*s", (int)(eq - o->params[i]), o->params[i]);
		if (loader_kernel_set_param(k, name, eq + 1, err))
			return -1;
	}
	return 0;
}

static const char *workload_of(const struct options *o)
{
	return o->workload ? o->workload : default_workload();
}

/* A kernel's -p goes into its source before the machine is built, so it is
 * built once (open_session); other workloads (a recorded trace) take it as
 * a rebuild (apply_params). */
static bool params_before_build(const struct options *o)
{
	return o->nparams && !o->dram_trace && !trace_is_spec(workload_of(o));
}

/* -p on a session already built: a rebuild. */
static int apply_params(struct session *ss, const struct options *o)
{
	if (!o->nparams || params_before_build(o))
		return 0;
	struct kernel_src *k = xmalloc(sizeof *k);
	*k = ss->ksrc;
	char *err = NULL;
	int rc = set_params(k, o, &err);
	if (!rc)
		rc = session_set_kernel_src(ss, k, &err);
	if (rc) {
		fprintf(stderr, "gpustep: %s\n", err);
		free(err);
	}
	free(k);
	return rc;
}

/* --snapshot-mb within the computer's memory (and --max-memory): a budget the
 * machine cannot hold would grow until the OOM killer ends the session. */
static int check_snapshot_budget(const struct options *o)
{
	if (o->snapshot_mb <= 0)
		return 0;
	uint64_t want = (uint64_t)o->snapshot_mb << 20, phys = sysmem_physical();
	if (o->max_memory && o->max_memory < phys)
		phys = o->max_memory;
	if (want <= phys)
		return 0;
	fprintf(stderr, "gpustep: --snapshot-mb %ld: more than %s (%llu MB); rewind snapshots must fit in memory\n",
		o->snapshot_mb, o->max_memory && o->max_memory == phys ? "--max-memory" : "this computer's memory",
		(unsigned long long)(phys >> 20));
	return -1;
}

/* Snapshots (on unless --snapshot-mb 0; a plain --run never rewinds, so off
 * there unless asked for), then --session. */
/* --snapshot-mb, else 0 for a plain --run (nothing rewinds), else the default. */
static long rewind_mb(const struct options *o)
{
	return o->snapshot_mb >= 0 ? o->snapshot_mb : o->run && !o->batch ? 0 : SESSION_SNAPSHOT_MB_DEFAULT;
}

static int setup_rewind(struct session *ss, const struct options *o, bool interactive)
{
	/* The machine was built with this budget (open_session) and holds its
	 * first snapshot: setting it again would only take that one anew. */
	size_t budget = (size_t)rewind_mb(o) << 20;
	if (budget != ss->snapshot_bytes)
		session_set_snapshot_budget(ss, budget);
	if (!o->session)
		return 0;
	if (o->config || o->workload || o->nsets || o->nparams || o->seed_given) {
		fprintf(stderr, "gpustep: --session restores the config, workload, parameters and seed; "
				"do not combine it with CONFIG, -w, -s, -p or --seed\n");
		return -1;
	}
	char *err = NULL;
	if (interactive) {
		/* The TUI replays it on screen (progress in the status bar; Ctrl-C
		 * stops and keeps the cycle reached): a bad file still ends here. */
		struct session_loader *ld = session_loader_new(ss, o->session, &err);
		if (!ld) {
			fprintf(stderr, "gpustep: %s\n", err ? err : o->session);
			free(err);
			return -1;
		}
		session_start_load(ss, ld, true);
		return 0;
	}
	struct strbuf notes;
	sb_init(&notes);
	interrupt_target = ss;
	void (*old_int)(int) = signal(SIGINT, on_sigint);
	int rc = session_load(ss, o->session, &notes, &err);
	signal(SIGINT, old_int == SIG_ERR ? SIG_DFL : old_int);
	interrupt_target = NULL;
	fputs(notes.s, stderr);
	sb_fini(&notes);
	if (rc) {
		fprintf(stderr, "gpustep: %s\n", err ? err : o->session);
		free(err);
	}
	return rc;
}

/* --batch FILE|-: the script's commands. EXIT_USAGE when FILE cannot be
 * opened, EXIT_RUNTIME when a command failed, else EXIT_OK. */
static int run_batch(struct session *ss, const char *path, struct cmd_out *out)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
	if (!f) {
		perror(path);
		return EXIT_USAGE;
	}
	int quit = 0;
	int failed = cmd_run_script(ss, f, out, &quit);
	if (f != stdin)
		fclose(f);
	if (failed) {
		fprintf(stderr, "gpustep: %d command%s failed\n", failed, failed == 1 ? "" : "s");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* --trace-out / --sample observe the --run (export.h): -1 with *err when
 * one cannot be opened (*tx may then be open already). */
static int open_exports(struct session *ss, const struct options *o, struct trace_exp **tx, struct sampler **sp,
			char **err)
{
	if (o->run && o->trace_out) {
		struct trace_opts to = {o->trace_from, o->trace_to ? o->trace_to : UINT64_MAX, o->trace_max};
		if (!(*tx = trace_exp_open(ss, o->trace_out, &to, err)))
			return -1;
	}
	if (o->run && o->sample && !(*sp = sampler_open(ss, o->csv, o->sample, o->sample_stats, err)))
		return -1;
	return 0;
}

/* --run: to completion; breakpoints set by a batch script report and
 * resume. A trace list runs its kernels back to back in this one simulator
 * (docs/TRACES.md); @N picked a single kernel. EXIT_RUNTIME when the run
 * was cut short, else EXIT_OK. */
static int run_to_end(struct session *ss, struct trace_exp *tx, struct sampler *sp, struct cmd_out *out)
{
	while (!sim_done(ss->sim)) {
		session_start_run(ss, RUN_FOREVER, 0);
		if (tx || sp)
			export_run_all(ss, tx, sp);
		else
			session_run_all(ss);
		if (ss->last_stop == SIM_STOP_INTERRUPT) {
			fprintf(stderr, "gpustep: interrupted at cycle %llu\n", (unsigned long long)sim_cycle(ss->sim));
			return EXIT_RUNTIME;
		}
		if (ss->last_stop == SIM_STOP_BREAK)
			cmd_report_stop(ss, out);
		char dl[320];
		if (sim_deadlock(ss->sim, dl, sizeof dl)) {
			fprintf(stderr, "gpustep: %s\n", dl);
			return EXIT_RUNTIME;
		}
		if (sim_value_violation(ss->sim)) { /* coherence.check_values: the run ends there */
			fprintf(stderr, "gpustep: %s\n", sim_value_violation(ss->sim));
			return EXIT_RUNTIME;
		}
	}
	return EXIT_OK;
}

/* Close the exports, reporting the trace's size and every error (one
 * export failing does not hide another's): -1 when any failed. */
static int close_exports(struct session *ss, struct trace_exp *tx, struct sampler *sp)
{
	int rc = 0;
	char *err = NULL;
	if (tx) {
		struct strbuf msg;
		sb_init(&msg);
		if (trace_exp_close(tx, ss, &msg, &err)) {
			fprintf(stderr, "gpustep: --trace-out: %s\n", err ? err : "cannot be written");
			rc = -1;
		} else {
			fprintf(stderr, "gpustep: %s\n", msg.s);
		}
		sb_fini(&msg);
		free(err);
		err = NULL;
	}
	if (sp && sampler_close(sp, ss, &err)) {
		fprintf(stderr, "gpustep: %s\n", err ? err : "--csv cannot be written");
		rc = -1;
	}
	free(err);
	return rc;
}

static int headless(struct session *ss, const struct options *o)
{
	int status = EXIT_OK;
	struct cmd_out out = {cli_print_stdout, print_stderr, NULL};
	interrupt_target = ss;
	signal(SIGINT, on_sigint);
	if (o->batch && (status = run_batch(ss, o->batch, &out)) == EXIT_USAGE)
		return EXIT_USAGE;
	struct trace_exp *tx = NULL;
	struct sampler *sp = NULL;
	char *err = NULL;
	if (open_exports(ss, o, &tx, &sp, &err)) {
		fprintf(stderr, "gpustep: %s\n", err ? err : "an export cannot be opened");
		free(err);
		if (tx) /* opened already: FILE stays as it was */
			trace_exp_discard(tx, ss);
		status = EXIT_RUNTIME;
	} else {
		if (o->run && run_to_end(ss, tx, sp, &out) != EXIT_OK)
			status = EXIT_RUNTIME;
		if (o->run) {
			print_summary(ss);
			print_kernels(ss);
		}
		if (close_exports(ss, tx, sp))
			status = EXIT_RUNTIME;
	}
	signal(SIGINT, SIG_DFL);
	interrupt_target = NULL;
	return status;
}

/* --list-params: the -w workload's kernel parameters, NAME DEFAULT a line (the
 * names -p takes; shell completion reads them). 0 or the exit status. */
static int list_kernel_params(const struct options *o)
{
	struct kernel_src *k = xmalloc(sizeof *k);
	char *err = NULL;
	if (loader_load_kernel(o->workload ? o->workload : GPUSTEP_DEFAULT_WORKLOAD, k, &err)) {
		fprintf(stderr, "gpustep: %s\n", err ? err : "cannot load the workload");
		free(err);
		free(k);
		return EXIT_USAGE;
	}
	for (unsigned i = 0; i < k->nparams; i++)
		printf("%-20s %lld\n", k->params[i].name, (long long)k->params[i].value);
	free(k);
	return EXIT_OK;
}

/* --list-events/-kernels/-presets/-config: print them; true if any was asked. */
static bool list_requested(const struct options *o)
{
	if (!(o->list_events || o->list_kernels || o->list_presets || o->list_config))
		return false;
	if (o->list_events)
		for (unsigned i = 0; i < EV__COUNT; i++) {
			char f[96];
			event_field_list(i, f, sizeof f);
			printf("%-22s %-32s %s\n", event_defs[i].name, f, event_defs[i].desc);
		}
	if (o->list_kernels)
		list_builtin(LOADER_KERNELS, NULL);
	if (o->list_presets) {
		list_builtin(LOADER_PRESETS, NULL);
		list_builtin(LOADER_DRAM_PRESETS, NULL);
	}
	if (o->list_config)
		list_params();
	return true;
}

/* --check-config: the derived values and the memory the machine needs. */
static int check_config(const struct options *o, const struct sim_cfg *cfg)
{
	struct strbuf sb;
	sb_init(&sb);
	cfg_print_derived(cfg, &sb);
	char *err = NULL;
	if (session_check_memory(o->max_memory, cfg, NULL, &err)) {
		fprintf(stderr, "gpustep: %s\n", err);
		free(err);
		print_memory(cfg, o->max_memory, stderr);
		sb_fini(&sb);
		return EXIT_USAGE;
	}
	if (o->config && gpgpusim_print_mapping(o->config, stdout, &err)) {
		fprintf(stderr, "gpustep: %s\n", err); /* load/gpgpusim_check.c: what each option became */
		free(err);
		sb_fini(&sb);
		return EXIT_USAGE;
	}
	printf("%s: config OK (%s)\n", o->config ? o->config : "built-in teaching", cfg->name);
	fputs(sb.s, stdout);
	if (sb.len && sb.s[sb.len - 1] != '\n')
		fputc('\n', stdout);
	sb_fini(&sb);
	print_memory(cfg, o->max_memory, stdout);
	/* A preset named after a machine, against that machine's config
	 * (load/preset_source.c): every difference needs a documented reason. */
	struct preset_check pc;
	if (preset_source_report(o->config ? o->config : "teaching", cfg, stdout, &pc, &err)) {
		fprintf(stderr, "gpustep: %s\n", err);
		free(err);
		return EXIT_USAGE;
	}
	if ((pc.undocumented || pc.stale) && !o->nsets) {
		fprintf(stderr, "gpustep: %s: %u undocumented and %u stale deviations from its source (above)\n",
			o->config ? o->config : "teaching", pc.undocumented, pc.stale);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --stats, --trace-out and --csv can be written: checked before the
 * machine is built, so a typo in a directory does not cost the run. */
static int check_outputs(const struct options *o)
{
	const char *what[] = {"--stats", "--trace-out", "--csv"};
	const char *path[] = {o->stats, o->trace_out, o->csv};
	int rc = 0;
	for (size_t i = 0; i < ARRAY_LEN(what); i++) {
		char *err = NULL;
		if (path[i] && outfile_check(path[i], &err)) {
			fprintf(stderr, "gpustep: %s %s\n", what[i], err);
			rc = -1;
		}
		free(err);
	}
	return rc;
}

/* The terminal says what is happening before the machine is built. */
static void announce_build(const struct options *o, const struct sim_cfg *cfg)
{
	struct sim_mem m;
	char sz[32];
	sim_mem_estimate(cfg, NULL, &m);
	sim_mem_format(m.total, sz, sizeof sz);
	if (o->session) /* its own machine is built by the loader (setup_rewind) */
		printf("\033[H\033[2Jgpustep: opening session %s...\r\n", o->session);
	else
		printf("\033[H\033[2Jgpustep: building %s: %d SMs, %d L2 banks, about %s of state...\r\n",
		       cfg->name, cfg->core.sms, cfg->l2.banks, sz);
	fflush(stdout);
}

/* `gpustep SUBCOMMAND ...`: true with its exit status in *status when
 * argv[1] names one. */
static bool run_subcommand(int argc, char **argv, int *status)
{
	if (argc <= 1)
		return false;
	/* `gpustep model ...`: the reuse-distance model next to the simulator. */
	if (strcmp(argv[1], "model") == 0)
		*status = model_main(argc - 1, argv + 1);
	else if (strcmp(argv[1], "lesson") == 0)
		*status = lesson_main(argc - 1, argv + 1);
	else if (strcmp(argv[1], "stress-coherence") == 0)
		*status = stress_coherence_main(argc - 1, argv + 1);
	else if (strcmp(argv[1], "sweep") == 0) /* docs/SWEEPS.md */
		*status = sweep_main(argc - 1, argv + 1);
	else if (strcmp(argv[1], "validate") == 0) /* docs/VALIDATION.md */
		*status = validate_main(argc - 1, argv + 1);
	else if (strcmp(argv[1], "whatif") == 0) /* docs/WHATIF.md */
		*status = whatif_main(argc - 1, argv + 1);
	else if (strcmp(argv[1], "diff") == 0) /* docs/WHATIF.md */
		*status = diff_main(argc - 1, argv + 1);
	else
		return false;
	return true;
}

/* --dump-config, --check-config: the config alone, no machine. The exit
 * status, or -1 when neither was asked for. */
static int config_only(const struct options *o, const struct sim_cfg *cfg)
{
	if (o->dump) {
		char *t = config_json_string(cfg);
		fputs(t, stdout);
		free(t);
		return EXIT_OK;
	}
	if (o->check)
		return check_config(o, cfg);
	return -1;
}

/* What stops the machine being built (too big for the memory, --dram-trace
 * with a workload, the TUI off a terminal): said on stderr; true to stop. */
static bool refuse_to_build(const struct options *o, const struct sim_cfg *cfg, bool interactive)
{
	char *merr = NULL; /* before building it, naming what is too big */
	if (session_check_memory(o->max_memory, cfg, NULL, &merr)) {
		fprintf(stderr, "gpustep: %s\n", merr);
		free(merr);
		return true;
	}
	if (o->dram_trace && (o->workload || o->nparams || o->session)) {
		fprintf(stderr, "gpustep: --dram-trace feeds the DRAM alone; do not combine it with -w, -p or --session\n");
		return true;
	}
	if (interactive && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		fprintf(stderr, "gpustep: stdin/stdout is not a terminal; use --batch FILE|-, --run, "
				"--check-config or --list-* for headless use\n");
		return true;
	}
	return false;
}

/* The session on the machine of cfg, with the workload or the DRAM trace,
 * and the warnings about it; NULL (said on stderr) when it cannot be built. */
static struct session *open_session(const struct options *o, const struct sim_cfg *cfg)
{
	struct session *ss = xcalloc(1, sizeof *ss);
	char *err = NULL;
	const char *wl = workload_of(o), *src = o->config ? o->config : "";
	session_set_initial_snapshot_budget((size_t)rewind_mb(o) << 20);
	session_set_initial_max_memory(o->max_memory); /* for every build (set, load, load session) */
	int rc;
	if (o->dram_trace) {
		rc = session_init_dram_trace(ss, cfg, src, o->dram_trace, cfg->seed, &err);
	} else if (params_before_build(o)) {
		struct kernel_src *k = xcalloc(1, sizeof *k);
		rc = loader_load_kernel(wl, k, &err) || set_params(k, o, &err) ||
		     session_init_kernel(ss, cfg, src, wl, k, NULL, cfg->seed, &err) ? -1 : 0;
		free(k);
	} else {
		rc = session_init(ss, cfg, src, wl, cfg->seed, &err);
	}
	if (rc) {
		fprintf(stderr, "gpustep: %s\n", err ? err : "cannot build the simulator");
		free(err);
		free(ss);
		return NULL;
	}
	print_trace_warnings(ss);
	struct rf_info rfi;
	if (inspect_rf(ss->sim, 0, &rfi) && rfi.warning && *rfi.warning)
		fprintf(stderr, "gpustep: warning: %s\n", rfi.warning);
	return ss;
}

/* --list-stats: the machine's stats, which depend on its config. */
static void print_stat_list(const struct session *ss)
{
	const struct stats *st = sim_stats_c(ss->sim);
	for (uint32_t i = 0; i < stats_count(st); i++) {
		const struct stat_def *d = stats_def(st, i);
		printf("%-36s %-9s %s\n", d->name, stat_kind_name(d->kind), d->desc);
	}
}

/* -p, --snapshot-mb and --session, then --list-stats, the TUI, or the
 * headless --batch / --run. Returns the exit status. */
static int run_session(struct session *ss, const struct options *o, bool interactive)
{
	int rc = -1;
	if (apply_params(ss, o) || (rc = setup_rewind(ss, o, interactive)) != 0)
		return rc == -2 ? EXIT_RUNTIME : EXIT_USAGE; /* -2: Ctrl-C cancelled the --session replay */
	if (o->list_stats) {
		print_stat_list(ss);
		return EXIT_OK;
	}
	if (interactive)
		return tui_main(ss);
	return headless(ss, o);
}

static unsigned last_builds;

unsigned cli_last_builds(void) { return last_builds; }

int gpustep_main(int argc, char **argv)
{
	int rc;
	last_builds = 0;
	if (run_subcommand(argc, argv, &rc))
		return rc;
	struct options o;
	memset(&o, 0, sizeof o);
	o.snapshot_mb = -1;
	rc = cli_parse_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (o.list_params && (rc = list_kernel_params(&o)) != EXIT_OK)
		return rc;
	if ((list_requested(&o) || o.list_params) && !o.list_stats)
		return EXIT_OK;
	struct sim_cfg cfg;
	if (build_config(&o, &cfg) || check_snapshot_budget(&o))
		return EXIT_USAGE;
	if ((rc = config_only(&o, &cfg)) >= 0)
		return rc;
	if (check_outputs(&o))
		return EXIT_USAGE;
	bool interactive = !o.batch && !o.run && !o.list_stats;
	/* A DRAM trace with --run, --stats or off a terminal runs straight
	 * through dram_trace_run (bounded memory, a summary, as the issue's
	 * `--dram-trace FILE CONFIG --stats out.json`); on a terminal the TUI,
	 * and with --batch the same command table, open it as a DRAM-only
	 * simulator (session_init_dram_trace). */
	if (o.dram_trace && !o.batch && (!interactive || o.stats || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)))
		return run_dram_trace(&cfg, &o);
	if (refuse_to_build(&o, &cfg, interactive))
		return EXIT_USAGE;
	if (interactive)
		announce_build(&o, &cfg);
	struct session *ss = open_session(&o, &cfg);
	if (!ss)
		return EXIT_USAGE;
	int status = run_session(ss, &o, interactive);
	if (status != EXIT_USAGE && o.stats && !o.list_stats) {
		int w = write_stats(ss, o.stats);
		if (status == EXIT_OK)
			status = w;
	}
	last_builds = ss->builds;
	session_fini(ss);
	free(ss);
	return status;
}
