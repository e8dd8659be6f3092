/*
 * fuzz.h: parser fuzz targets (docs/TESTING.md, "Fuzzing").
 *
 * Each tests/fuzz/fuzz_<name>.c defines FUZZ_TARGET(name). Built with clang
 * and -DGPUSTEP_LIBFUZZER (make fuzz) it is libFuzzer's entry point, one
 * binary per target; built with the normal compiler it is fuzz_<name>(),
 * called by tests/fuzz/replay_main.c for every file in tests/fuzz/<name>/
 * (the regression layer of make test).
 *
 * A target returns 0 for any input: a bad input must be refused with a
 * message, never crash, hang, leak or trip a sanitizer.
 */
#ifndef GPUSTEP_FUZZ_H
#define GPUSTEP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "sim/config.h"
#include "session/session.h"

#ifdef GPUSTEP_LIBFUZZER
#define FUZZ_TARGET(name) \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size); \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
#else
#define FUZZ_TARGET(name) \
	int fuzz_##name(const uint8_t *data, size_t size); \
	int fuzz_##name(const uint8_t *data, size_t size)
#endif

/* The input as a NUL-terminated heap string (free()). */
char *fuzz_str(const uint8_t *data, size_t size);
/* Write data to a file called `name` in this process's scratch directory
 * (created once, removed at exit); returns its path (static buffer). */
const char *fuzz_file(const char *name, const void *data, size_t size);
/* The scratch directory. */
const char *fuzz_dir(void);
/* Run a session's machine for at most `cycles` cycles (bounded: a fuzz
 * input may describe a huge grid). */
void fuzz_run(struct session *ss, uint64_t cycles);
/* Open the workload file at path on machine c (a session) and run it for
 * `cycles`; a refused input only notes its message. */
void fuzz_workload(const struct sim_cfg *c, const char *path, uint64_t cycles);
/* With FUZZ_VERBOSE=1 in the environment, print why an input was refused
 * (to check that seeds get past the parser). */
void fuzz_note(const char *err);
/* A config the parsers accepted: validate it, print its derived values and,
 * when valid, build the machine and run vecadd 300 cycles (err: why not). */
void fuzz_machine(struct sim_cfg *c, const char *config_name, char **err);
/* A cmd_out that discards everything (prints it with FUZZ_VERBOSE=1). */
struct cmd_out;
extern struct cmd_out fuzz_quiet;

#endif
