/*
 * cli_report.h: the command line's listings and reports (cli_report.c).
 */
#ifndef GPUSTEP_CLI_REPORT_H
#define GPUSTEP_CLI_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "load/loader.h"
#include "session/session.h"

/* --list-config: every key with type, default, range and description. */
void list_params(void);
/* Built-in kernels or presets, one per line with its description; title first if set. */
void list_builtin(enum loader_kind k, const char *title);
/* --run: cycles, instructions, hit rates, DRAM row-buffer shares. */
void print_summary(struct session *ss);
/* Unknown opcodes, .CG accesses, ignored MemcpyHtoD lines of the trace kernel(s), on stderr. */
void print_trace_warnings(struct session *ss);
/* A back-to-back trace list: the cycles of each kernel (kernelK.cycles). */
void print_kernels(struct session *ss);
/* --check-config: the memory the machine needs, by structure, and the limit. */
void print_memory(const struct sim_cfg *cfg, uint64_t max_memory, FILE *to);

#endif
