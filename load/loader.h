/*
 * loader.h: JSON input → plain C structs. The only place cJSON is used for
 * input; nothing here leaks a cJSON type.
 *
 * Machine configs
 *   A config file is a JSON object whose keys are parameter paths, either
 *   nested ({"l1": {"mshr": {"entries": 8}}}) or dotted ("l1.mshr.entries": 8);
 *   both name the same parameter. "extends": "NAME-or-FILE" (or an array of
 *   them, applied in order) loads other configs first, then this file's keys
 *   override them. A file reference is resolved relative to the including
 *   file, then as an embedded preset ("gtx480" → configs/gtx480.json,
 *   "dram/hbm2" → configs/dram/hbm2.json). Keys starting with "_" are
 *   comments. Unknown keys, wrong types and out-of-range values are errors
 *   naming the file and the key; malformed JSON names file:line:column.
 *
 * Kernels: see the format in engine/kernel/kernel.h and docs/CONFIG.md.
 */
#ifndef GPUSTEP_LOADER_H
#define GPUSTEP_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/config.h"
#include "kernel/kernel.h"

/* Apply the config named by spec (a file, or a preset name) on top of *cfg
 * (which the caller initialises, normally with cfg_defaults). Does not run
 * cfg_validate: the caller applies command-line overrides first. */
int loader_load_config(const char *spec, struct sim_cfg *cfg, char **err);
/* The same, collecting notes (DRAMSim3 .ini keys gpustep does not use, one
 * line per file) into notes. A spec ending in .ini is a DRAMSim3 config
 * applied over the defaults (engine/dram/dram_ini.c). */
int loader_load_config_notes(const char *spec, struct sim_cfg *cfg, struct strbuf *notes, char **err);
bool loader_is_ini(const char *path);
/* Same for JSON text already in memory; fname is used in messages and to
 * resolve relative "extends". */
int loader_apply_config_text(const char *text, const char *fname, struct sim_cfg *cfg, char **err);

/* Apply one "PATH=VALUE" override (the -s option and `set`). */
int loader_apply_override(struct sim_cfg *cfg, const char *assignment, char **err);

/* Load a kernel: a built-in name ("vecadd", embedded configs/workloads/NAME.json)
 * or a JSON file path. */
int loader_load_kernel(const char *spec, struct kernel_src *out, char **err);
int loader_parse_kernel(const char *text, const char *fname, struct kernel_src *out, char **err);
/* Override a kernel parameter (--param NAME=VALUE, `set param.NAME VALUE`). */
int loader_kernel_set_param(struct kernel_src *k, const char *name, const char *value, char **err);

/* Built-in names, sorted. kind: machine presets ("teaching", "gtx480"),
 * DRAM presets ("dram/hbm2") or kernels ("vecadd"). Returns a NULL-terminated
 * heap array; free with loader_names_free(). */
enum loader_kind { LOADER_PRESETS, LOADER_DRAM_PRESETS, LOADER_KERNELS, LOADER_LESSONS };
char **loader_names(enum loader_kind kind, size_t *n);
void loader_names_free(char **names);
/* "; did you mean NAME?" for the listed name of that kind closest to name
 * (at most 2 edits, fewer than its length), else "". */
void loader_suggest(enum loader_kind kind, const char *name, char *buf, size_t n);
/* The "description" of a built-in (machine/DRAM preset or kernel), or "". Caller frees. */
char *loader_description(enum loader_kind kind, const char *name);

/* Size caps of the text readers: a file from someone else cannot make
 * gpustep read gigabytes into memory (it ends in an out-of-memory abort).
 * Configs (JSON, .ini, GPGPU-Sim), kernels, sweep specs and results are
 * small: LOADER_TEXT_MAX. Anything read whole (sessions carrying a machine
 * state, lessons): at most LOADER_FILE_MAX. */
#define LOADER_TEXT_MAX ((size_t)64 << 20)
#define LOADER_FILE_MAX ((size_t)1 << 30)
/* 0, or -1 with *err when `size` bytes of `path` are more than `max`
 * ("what" names the kind of file in the message). */
int loader_check_size(const char *path, const char *what, uint64_t size, size_t max, char **err);
/* Read a whole file into a NUL-terminated heap buffer; NULL + *err on
 * failure or when it holds more than max bytes (checked before reading a
 * regular file, and while reading a pipe). */
char *loader_read_file_max(const char *path, const char *what, size_t max, size_t *len, char **err);
/* loader_read_file_max(path, "file", LOADER_FILE_MAX, ...). */
char *loader_read_file(const char *path, size_t *len, char **err);

#endif
