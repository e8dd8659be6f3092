/*
 * cli_opts.c: gpustep's options: the usage text, getopt's table, numbers
 * checked with the option named, and the combinations refused.
 */
#include "cli.h"
#include "cli_opts.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/sim.h"
#include "sim/util.h"

#ifndef GPUSTEP_VERSION
#define GPUSTEP_VERSION "0.0.0"
#endif
/* The commit the binary was built from (build/gen/version.c, written by
 * tools/version_c.sh): "unknown" outside a git checkout. */
extern const char gpustep_build_commit[];


static const char usage_text[] =
	"usage: gpustep [CONFIG] [options]\n"
	"  CONFIG                          machine config: a JSON file or a preset name (default: teaching)\n"
	"  -w, --workload NAME|FILE        built-in kernel name or kernel JSON (default: " GPUSTEP_DEFAULT_WORKLOAD ")\n"
	"  -s, --set PATH=VALUE            override one config value (repeatable)\n"
	"  -p, --param NAME=VALUE          override a kernel parameter (repeatable)\n"
	"  -x, --batch FILE|-              run commands from FILE or stdin, no screen\n"
	"      --run                       headless: run to completion, print a summary\n"
	"      --stats FILE                write every stat as JSON at exit (- = stdout)\n"
	"      --seed N                    PRNG seed (overrides the config's seed)\n"
	"      --threads N                 threads ticking the SMs (key threads: default 1, 0 = automatic);\n"
	"                                  results are identical for every N\n"
	"      --session FILE              restore a saved session (save session FILE) and replay to its cycle\n"
	"      --snapshot-mb N             memory for rewind snapshots (default 256; 0 = no rewinding;\n"
	"                                  plain --run without --batch defaults to 0)\n"
	"      --max-memory MB             refuse a machine that needs more memory than this (default: the\n"
	"                                  memory available); --check-config prints what it needs\n"
	"      --check-config              validate, print derived values and the memory needed, exit\n"
	"      --dump-config               print the resulting config as JSON, exit\n"
	"      --dram-trace FILE           feed a DRAM trace (DRAMSim or Ramulator format) to the DRAM model:\n"
	"                                  the TUI on a terminal; a summary with --run,\n"
	"                                  --batch, --stats or off a terminal; CONFIG may be\n"
	"                                  a DRAMSim3 .ini (cycles then count DRAM cycles)\n"
	"      --trace-out FILE.json       with --run: the run as Chrome/Perfetto trace JSON (1 cycle = 1 us)\n"
	"      --trace-from N --trace-to M the cycles [N, M) to trace (default: all)\n"
	"      --trace-max-events N        cap of the trace file (default 2000000 events)\n"
	"      --sample N --csv FILE       with --run: stats every N cycles as CSV\n"
	"      --sample-stats GLOB,...     the stats sampled (default: all but histograms)\n"
	"      --list-events --list-stats --list-kernels --list-presets --list-config\n"
	"                                  print that list and exit (--list-stats: of the machine given)\n"
	"      --list-params               the workload's kernel parameters (-p NAME) and their defaults\n"
	"      --version                   the version and the git commit it was built from\n"
	"  -h, --help                      this help\n"
	"Subcommands:\n"
	"  gpustep model [CONFIG] -w WORKLOAD [--threads N] [--semantics gpustep|reference] [--json FILE] [--no-sim]\n"
	"                                       the reuse-distance model beside the simulator (gpustep model --help)\n"
	"  gpustep lesson [NAME|FILE.json] [--check NAME --batch ANSWERS] [reset NAME]\n"
	"                                       guided lessons (docs/LESSONS.md)\n"
	"  gpustep stress-coherence --protocol si|nmoesi|moesi [--accesses N] [--seed S]\n"
	"                                       random coherence tester (options: docs/COHERENCE.md)\n"
	"  gpustep sweep SPEC.json [-j N | --emit parallel DIR | --emit slurm DIR | --job K]\n"
	"  gpustep sweep collect|table|plot SPEC.json ...   parameter sweeps (docs/SWEEPS.md)\n"
	"  gpustep whatif [CONFIG] -w WORKLOAD -s KEY=VALUE [-s ...] [--each] [--json FILE]\n"
	"                                       the run twice from cycle 0, as is and changed: where they part,\n"
	"                                       what moved (docs/WHATIF.md)\n"
	"  gpustep diff A.json B.json [--all]   two --stats files, the stats that moved most first\n"
	"  gpustep validate [PRESET|CONFIG ...] [--quick] [--json FILE] [--tolerance PCT] [--max-error PCT]\n"
	"                   [--plot DIR]\n"
	"                                       the presets against published microbenchmarks (docs/VALIDATION.md)\n"
	"With no --batch/--run/--check-config/--list-*, gpustep starts the interactive TUI.\n"
	"Exit status: 0 ok, 1 runtime error, 2 usage or config error.\n";

enum {
	OPT_RUN = 256,
	OPT_STATS,
	OPT_SEED,
	OPT_THREADS,
	OPT_CHECK,
	OPT_DUMP,
	OPT_DRAM_TRACE,
	OPT_LIST_EVENTS,
	OPT_LIST_STATS,
	OPT_LIST_KERNELS,
	OPT_LIST_PRESETS,
	OPT_LIST_CONFIG,
	OPT_LIST_PARAMS,
	OPT_VERSION,
	OPT_SESSION,
	OPT_SNAPSHOT_MB,
	OPT_TRACE_OUT,
	OPT_TRACE_FROM,
	OPT_TRACE_TO,
	OPT_TRACE_MAX,
	OPT_SAMPLE,
	OPT_CSV,
	OPT_SAMPLE_STATS,
	OPT_MAX_MEMORY,
};

static const struct option long_opts[] = {
	{"workload", required_argument, NULL, 'w'},
	{"set", required_argument, NULL, 's'},
	{"param", required_argument, NULL, 'p'},
	{"batch", required_argument, NULL, 'x'},
	{"run", no_argument, NULL, OPT_RUN},
	{"stats", required_argument, NULL, OPT_STATS},
	{"seed", required_argument, NULL, OPT_SEED},
	{"threads", required_argument, NULL, OPT_THREADS},
	{"check-config", no_argument, NULL, OPT_CHECK},
	{"dump-config", no_argument, NULL, OPT_DUMP},
	{"dram-trace", required_argument, NULL, OPT_DRAM_TRACE},
	{"list-events", no_argument, NULL, OPT_LIST_EVENTS},
	{"list-stats", no_argument, NULL, OPT_LIST_STATS},
	{"list-kernels", no_argument, NULL, OPT_LIST_KERNELS},
	{"list-presets", no_argument, NULL, OPT_LIST_PRESETS},
	{"list-config", no_argument, NULL, OPT_LIST_CONFIG},
	{"list-params", no_argument, NULL, OPT_LIST_PARAMS},
	{"version", no_argument, NULL, OPT_VERSION},
	{"session", required_argument, NULL, OPT_SESSION},
	{"snapshot-mb", required_argument, NULL, OPT_SNAPSHOT_MB},
	{"trace-out", required_argument, NULL, OPT_TRACE_OUT},
	{"trace-from", required_argument, NULL, OPT_TRACE_FROM},
	{"trace-to", required_argument, NULL, OPT_TRACE_TO},
	{"trace-max-events", required_argument, NULL, OPT_TRACE_MAX},
	{"sample", required_argument, NULL, OPT_SAMPLE},
	{"csv", required_argument, NULL, OPT_CSV},
	{"sample-stats", required_argument, NULL, OPT_SAMPLE_STATS},
	{"max-memory", required_argument, NULL, OPT_MAX_MEMORY},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

int cli_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (*end || errno == ERANGE)
		return -1;
	*v = x;
	return 0;
}

int cli_parse_seed(const char *s, uint64_t *v, char **err)
{
	if (cli_parse_u64(s, v))
		return set_err(err, "--seed: expected an integer from 0 to 18446744073709551615, got '%s'", s ? s : "");
	return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "gpustep: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'gpustep --help'.\n");
	return EXIT_USAGE;
}

/* The options that take a number: -1 when taken, else the exit status. */
static int number_option(int c, struct options *o)
{
	switch (c) {
	case OPT_SEED:
		if (cli_parse_u64(optarg, &o->seed))
			return usage_error("--seed: expected an integer from 0 to 18446744073709551615, got '%s'",
					   optarg);
		o->seed_given = true;
		break;
	case OPT_THREADS: {
		uint64_t n;
		if (cli_parse_u64(optarg, &n) || n > SIM_MAX_THREADS)
			return usage_error("--threads: expected a number of threads from 0 (automatic) to 64, got '%s'", optarg);
		o->threads = (int)n;
		o->threads_given = true;
		break;
	}
	case OPT_SNAPSHOT_MB: {
		uint64_t mb;
		if (cli_parse_u64(optarg, &mb) || mb > (1u << 20))
			return usage_error("--snapshot-mb: expected megabytes from 0 to 1048576, got '%s'", optarg);
		o->snapshot_mb = (long)mb;
		break;
	}
	case OPT_MAX_MEMORY: {
		uint64_t mb;
		if (cli_parse_u64(optarg, &mb) || mb == 0 || mb > (1ull << 40))
			return usage_error("--max-memory: expected megabytes from 1 to 1099511627776, got '%s'", optarg);
		o->max_memory = mb << 20;
		break;
	}
	case OPT_TRACE_FROM:
	case OPT_TRACE_TO:
	case OPT_TRACE_MAX:
	case OPT_SAMPLE: {
		char *end;
		uint64_t v = strtoull(optarg, &end, 0);
		const char *name = c == OPT_TRACE_FROM ? "--trace-from" : c == OPT_TRACE_TO ? "--trace-to"
				 : c == OPT_TRACE_MAX ? "--trace-max-events" : "--sample";
		if (!*optarg || *end || optarg[0] == '-' || ((c == OPT_SAMPLE || c == OPT_TRACE_MAX) && !v)) {
			fprintf(stderr, "gpustep: %s: expected a %s integer, got '%s'\nTry 'gpustep --help'.\n", name,
				c == OPT_SAMPLE || c == OPT_TRACE_MAX ? "positive" : "non-negative", optarg);
			return EXIT_USAGE;
		}
		*(c == OPT_TRACE_FROM ? &o->trace_from : c == OPT_TRACE_TO ? &o->trace_to
			: c == OPT_TRACE_MAX ? &o->trace_max : &o->sample) = v;
		break;
	}
	}
	return -1;
}

/* Options that only make sense together: -1 when consistent. */
static int check_combinations(const struct options *o)
{
	if ((o->sample != 0) != (o->csv != NULL))
		return usage_error("%s", "--sample N and --csv FILE go together");
	if (o->sample_stats && !o->sample)
		return usage_error("%s", "--sample-stats needs --sample N --csv FILE");
	if ((o->trace_from || o->trace_to || o->trace_max) && !o->trace_out)
		return usage_error("%s", "--trace-from/--trace-to/--trace-max-events need --trace-out FILE");
	if (o->trace_to && o->trace_to <= o->trace_from)
		return usage_error("%s", "--trace-to must be after --trace-from");
	if ((o->trace_out || o->sample) && !o->run)
		return usage_error("%s", "--trace-out and --sample record a --run (at the prompt: save trace FILE [FROM TO])");
	return -1;
}

/* The field an option naming a file or a thing sets to its argument; NULL
 * when c is not such an option. */
static const char **text_field(int c, struct options *o)
{
	switch (c) {
	case 'w':
		return &o->workload;
	case 'x':
		return &o->batch;
	case OPT_STATS:
		return &o->stats;
	case OPT_SESSION:
		return &o->session;
	case OPT_TRACE_OUT:
		return &o->trace_out;
	case OPT_CSV:
		return &o->csv;
	case OPT_SAMPLE_STATS:
		return &o->sample_stats;
	case OPT_DRAM_TRACE:
		return &o->dram_trace;
	}
	return NULL;
}

/* The flag an option without an argument sets; NULL when c is not one. */
static bool *flag_field(int c, struct options *o)
{
	switch (c) {
	case OPT_RUN:
		return &o->run;
	case OPT_CHECK:
		return &o->check;
	case OPT_DUMP:
		return &o->dump;
	case OPT_LIST_EVENTS:
		return &o->list_events;
	case OPT_LIST_STATS:
		return &o->list_stats;
	case OPT_LIST_KERNELS:
		return &o->list_kernels;
	case OPT_LIST_PRESETS:
		return &o->list_presets;
	case OPT_LIST_CONFIG:
		return &o->list_config;
	case OPT_LIST_PARAMS:
		return &o->list_params;
	}
	return NULL;
}

/* -s PATH=VALUE and -p NAME=VALUE (repeatable): -1 when taken, else the exit status. */
static int repeated_option(int c, struct options *o)
{
	if ((c == 's' ? o->nsets : o->nparams) == MAX_SETS)
		return usage_error("too many %s options", c == 's' ? "--set" : "--param");
	if (!strchr(optarg, '='))
		return usage_error("expected PATH=VALUE, got '%s'", optarg);
	if (c == 's')
		o->sets[o->nsets++] = optarg;
	else
		o->params[o->nparams++] = optarg;
	return -1;
}

/* Returns -1 to continue, else an exit status. */
int cli_parse_options(int argc, char **argv, struct options *o)
{
	int c;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":w:s:p:x:h", long_opts, NULL)) != -1) {
		const char **text = text_field(c, o);
		bool *flag = flag_field(c, o);
		int rc = -1;
		if (text) {
			*text = optarg;
			continue;
		}
		if (flag) {
			*flag = true;
			continue;
		}
		switch (c) {
		case 's':
		case 'p':
			rc = repeated_option(c, o);
			break;
		case OPT_SEED:
		case OPT_THREADS:
		case OPT_SNAPSHOT_MB:
		case OPT_MAX_MEMORY:
		case OPT_TRACE_FROM:
		case OPT_TRACE_TO:
		case OPT_TRACE_MAX:
		case OPT_SAMPLE:
			rc = number_option(c, o);
			break;
		case OPT_VERSION:
			printf("gpustep %s (commit %s)\n", GPUSTEP_VERSION, gpustep_build_commit);
			return EXIT_OK;
		case 'h':
			fputs(usage_text, stdout);
			return EXIT_OK;
		case ':':
			return usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
		if (rc >= 0)
			return rc;
	}
	int rc = check_combinations(o);
	if (rc >= 0)
		return rc;
	if (optind < argc)
		o->config = argv[optind++];
	if (optind < argc)
		return usage_error("unexpected argument '%s' (one CONFIG at most)", argv[optind]);
	return -1;
}
