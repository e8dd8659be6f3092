/*
 * cli.h: the command line (option parsing, batch and headless modes). main()
 * is just `return gpustep_main(argc, argv);`.
 *
 * Exit status: 0 ok, 1 runtime error (a failed batch command, an interrupted
 * run, an unwritable stats file), 2 usage or config error.
 */
#ifndef GPUSTEP_CLI_H
#define GPUSTEP_CLI_H

#include <stdint.h>

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

#define GPUSTEP_DEFAULT_WORKLOAD "vecadd"

int gpustep_main(int argc, char **argv);
/* Machines the last gpustep_main's session built, 0 when it built none
 * (tests: a kernel's -p is set before the one build). */
unsigned cli_last_builds(void);
/* A 64-bit unsigned option value (decimal or 0x hex): no sign, no overflow
 * (strtoull would wrap "-1" and saturate 2^64 silently). 0 or -1. */
int cli_parse_u64(const char *s, uint64_t *v);
/* `--seed N` of every subcommand: 0 or -1 + *err naming the option. */
int cli_parse_seed(const char *s, uint64_t *v, char **err);

/* A line of output to stdout, flushed (the print callback of batch mode and
 * of gpustep whatif). */
void cli_print_stdout(void *u, const char *text);

#endif
