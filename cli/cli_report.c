/*
 * cli_report.c: what the command line prints besides running: the config
 * key listing (--list-config), built-in names, the --run summary, a trace
 * list's warnings and per-kernel cycles, and --check-config's memory
 * estimate. cli.c decides when; these only format.
 */
#include "cli_report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/config.h"
#include "session/session.h"
#include "machine/sim_mem.h"
#include "sim/stats.h"
#include "load/trace_io.h"

void list_params(void)
{
	struct sim_cfg def;
	cfg_defaults(&def);
	printf("%-28s %-8s %-14s %-16s %s\n", "PATH", "TYPE", "DEFAULT", "RANGE", "DESCRIPTION");
	for (size_t i = 0; i < cfg_param_count(); i++) {
		const struct cfg_param *p = cfg_param_at(i);
		char d[CFG_STR_MAX], range[160] = "";
		cfg_format(&def, p, d, sizeof d);
		if (p->type == CFG_ENUM) {
			size_t len = 0;
			for (int k = 0; p->enums[k] && len < sizeof range; k++)
				len += (size_t)snprintf(range + len, sizeof range - len, "%s%s", k ? "|" : "", p->enums[k]);
		} else if (p->min != 0 || p->max != 0) {
			snprintf(range, sizeof range, "%.15g..%.15g%s", p->min, p->max, p->flags & CFG_POW2 ? " pow2" : "");
		} else if (p->flags & CFG_POW2) {
			snprintf(range, sizeof range, "pow2");
		}
		if (strlen(d) > 14)
			snprintf(d + 11, sizeof d - 11, "...");
		printf("%-28s %-8s %-14s %-16s %s\n", p->path, cfg_type_name(p->type), d, range, p->desc);
	}
}

void list_builtin(enum loader_kind k, const char *title)
{
	size_t n;
	char **names = loader_names(k, &n);
	if (title)
		printf("%s\n", title);
	for (size_t i = 0; i < n; i++) {
		char *d = loader_description(k, names[i]);
		printf("%-20s %s\n", names[i], d);
		free(d);
	}
	loader_names_free(names);
}

static double stat_or(const struct stats *st, const char *name, bool *ok)
{
	int id = stats_find(st, name);
	if (id < 0) {
		*ok = false;
		return 0;
	}
	return stats_value(st, (uint32_t)id);
}

void print_summary(struct session *ss)
{
	const struct stats *st = sim_stats_c(ss->sim);
	bool ok = true;
	unsigned long long cycles = (unsigned long long)sim_cycle(ss->sim);
	printf("gpustep %s: %s on %s, seed %llu\n", GPUSTEP_VERSION, ss->ksrc.name, ss->cfg.name,
	       (unsigned long long)ss->seed);
	printf("  cycles          %llu\n", cycles);
	double insts = stat_or(st, "sim.warp_insts", &ok);
	if (ok)
		printf("  warp insts      %.0f   IPC %.3f\n", insts, cycles ? insts / (double)cycles : 0.0);
	static const char *const lv[] = {"l1", "l2"};
	for (int i = 0; i < 2; i++) {
		char h[32], a[32];
		snprintf(h, sizeof h, "%s.hits", lv[i]);
		snprintf(a, sizeof a, "%s.accesses", lv[i]);
		ok = true;
		double hits = stat_or(st, h, &ok), acc = stat_or(st, a, &ok);
		bool puts_ok = i == 1;
		double puts = i ? stat_or(st, "l2.coh_puts", &puts_ok) : 0;
		if (ok && puts_ok && puts > 0) /* eviction notices: not lookups (docs/COHERENCE.md) */
			printf("  %s hit rate     %5.1f%%  (%.0f of %.0f; %.0f eviction notices apart)\n", "L2",
			       acc ? 100 * hits / acc : 0.0, hits, acc, puts);
		else if (ok)
			printf("  %s hit rate     %5.1f%%  (%.0f of %.0f)\n", i ? "L2" : "L1", acc ? 100 * hits / acc : 0.0,
			       hits, acc);
	}
	ok = true;
	double rh = stat_or(st, "dram.row_hits", &ok), rm = stat_or(st, "dram.row_misses", &ok),
	       rc = stat_or(st, "dram.row_conflicts", &ok);
	if (ok) {
		double all = rh + rm + rc;
		printf("  DRAM row hits   %5.1f%%  (%.0f hits, %.0f misses, %.0f conflicts)\n", all ? 100 * rh / all : 0.0,
		       rh, rm, rc);
	}
}

/* Unknown opcodes, .CG accesses, ignored MemcpyHtoD lines of the trace kernel(s) (once). */
void print_trace_warnings(struct session *ss)
{
	char w[1024];
	if (!ss->traces)
		return;
	bool all = trace_list_back_to_back(ss->traces);
	for (unsigned i = all ? 0 : ss->trace_k; i < (all ? trace_list_count(ss->traces) : ss->trace_k + 1); i++) {
		trace_list_warnings(ss->traces, i, &ss->cfg, w, sizeof w);
		fputs(w, stderr);
	}
}

/* A back-to-back trace list: the cycles of each kernel (kernelK.cycles). */
void print_kernels(struct session *ss)
{
	const struct stats *st = sim_stats_c(ss->sim);
	int id = stats_find(st, "sim.kernels");
	if (id < 0)
		return;
	unsigned n = (unsigned)stats_value(st, (uint32_t)id);
	printf("trace: %u kernels back to back in one simulator, %llu cycles in all; cycles per kernel:", n,
	       (unsigned long long)sim_cycle(ss->sim));
	for (unsigned k = 0; k < n; k++) {
		char name[40];
		snprintf(name, sizeof name, "kernel%u.cycles", k);
		int kid = stats_find(st, name);
		printf(" %llu", kid < 0 ? 0ull : (unsigned long long)stats_value(st, (uint32_t)kid));
	}
	printf("\n");
}

/* `--check-config`: the memory the machine needs, by structure (sim_mem.h). */
void print_memory(const struct sim_cfg *cfg, uint64_t max_memory, FILE *to)
{
	struct sim_mem m;
	sim_mem_estimate(cfg, NULL, &m);
	char b[32], what[128];
	sim_mem_format(m.total, b, sizeof b);
	uint64_t lim = session_memory_limit(max_memory, what, sizeof what);
	fprintf(to, "memory: about %s for the machine (without rewind snapshots)", b);
	if (lim != UINT64_MAX) {
		sim_mem_format(lim, b, sizeof b);
		fprintf(to, "; limit %s: %s", b, what);
	}
	fprintf(to, "\n");
	for (int i = 0; i < m.n; i++) {
		sim_mem_format(m.part[i].bytes, b, sizeof b);
		fprintf(to, "  %-24s %10s  %s\n", m.part[i].name, b, m.part[i].detail);
	}
}
