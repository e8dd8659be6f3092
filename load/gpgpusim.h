/*
 * gpgpusim.h: GPGPU-Sim / Accel-Sim configs (`gpgpusim.config`, Accel-Sim's
 * `trace.config`, the interconnect `.icnt`) read directly into a sim_cfg, as
 * engine/dram/dram_ini.c reads DRAMSim3 `.ini` files.
 *
 * A file is a stream of `-option value` pairs, `#` starting a comment, a
 * value in double quotes may hold spaces and newlines (GPGPU-Sim's own
 * option parser). Every option GPGPU-Sim or Accel-Sim registers is known
 * (gpgpusim_opts.c): it either sets gpustep keys or is reported as not
 * modelled with what gpustep does instead. An unknown name is an error
 * naming the file and line with a did-you-mean; packed values (cache
 * strings, the DRAM timing string, clock domains, latency lists) are parsed
 * field by field and an error names the field. docs/CONFIG.md, "GPGPU-Sim
 * and Accel-Sim configs", has the mapping.
 */
#ifndef GPUSTEP_GPGPUSIM_H
#define GPUSTEP_GPGPUSIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sim/config.h"
#include "sim/util.h"

/* A GPGPU-Sim config by name (*.config) or, given its text (may be NULL),
 * by content: the first line that is not blank or a comment starts with
 * "-" followed by a letter. */
bool gpgpusim_is_config(const char *path, const char *text);

/* Apply the config file at path (text already read, len bytes) on top of
 * cfg, then a `trace.config` beside it (unless path is one) and the
 * -inter_config_file it names (a missing one is a note). map (may be NULL)
 * receives one line per option: "FILE:LINE -option VALUE -> key=value ..."
 * or "... -> not modelled: ...". notes (may be NULL) receives a short
 * summary (counts, missing files). 0, or -1 and *err naming file:line. */
int gpgpusim_apply(struct sim_cfg *cfg, const char *path, const char *text, size_t len, struct strbuf *map,
                   struct strbuf *notes, char **err);

/* The same, and keys (may be NULL) receives every gpustep key the file set,
 * one per line, in the order set (a key set twice appears twice). */
int gpgpusim_apply_keys(struct sim_cfg *cfg, const char *path, const char *text, size_t len, struct strbuf *map,
			struct strbuf *notes, struct strbuf *keys, char **err);

/* --check-config: when path is a GPGPU-Sim config file, load it over the
 * defaults and print the mapping to out; anything else prints nothing.
 * 0, or -1 and *err. */
int gpgpusim_print_mapping(const char *path, FILE *out, char **err);

/* ---- the option table (gpgpusim_opts.c) ---- */
enum gs_map {
	GS_NOT_MODELLED = 0, /* only parsed (when packed) and listed with why */
	GS_CLOCKS,
	GS_N_CLUSTERS,
	GS_N_MEM,
	GS_N_SUB,
	GS_PIPELINE,
	GS_SHADER_CTA,
	GS_SHMEM_SIZE,
	GS_SMEM_LATENCY,
	GS_DRAM_LATENCY,
	GS_SHMEM_BANKS,
	GS_SCHED_PER_CORE,
	GS_SCHEDULER,
	GS_COALESCE,
	GS_CACHE_L1,
	GS_CACHE_L2,
	GS_CACHE_OTHER,
	GS_CACHE_L1I,    /* -gpgpu_cache:il1 -> l1i.* */
	GS_FETCH_WIDTH,  /* -gpgpu_inst_fetch_throughput -> core.fetch_width */
	GS_PERFECT_ICACHE, /* -gpgpu_perfect_inst_const_cache -> l1i.perfect */
	GS_L1_LATENCY,
	GS_ROP_LATENCY,
	GS_SKIP_L1D,
	GS_MEMCPY,
	GS_PART_INDEX,
	GS_PART_QUEUES,
	GS_DRAM_SCHED,
	GS_FRFCFS_QUEUE,
	GS_WQ_ENABLE,
	GS_WQ_SIZE,
	GS_DRAM_BUS,
	GS_DRAM_BURST,
	GS_DRAM_RATIO,
	GS_DUAL_BUS,     /* -dram_dual_bus_interface -> dram.dual_cmd */
	GS_BNK_INDEX,    /* -dram_bnk_indexing_policy -> dram.bank_xor */
	GS_ADDR_MAP,
	GS_TIMING,
	GS_ICNT_FLIT,
	GS_ICNT_FILE,
	GS_NETWORK_MODE,
	GS_TRACE_LAT,
	GS_SPEC_UNIT,
	GS_SPEC_LAT,
	GS_PIPE_WIDTHS,
	GS_PTX_LATS,
	GS_INCLUDE,
	GS_KLAUNCH,
	GS_TBLAUNCH,
	GS_NUM_UNITS,
	GS_SUB_CORE,
};
struct gs_opt {
	const char *name; /* "-gpgpu_cache:dl1" */
	enum gs_map map;
	const char *why; /* not modelled: what gpustep does instead (or a note for mapped ones) */
};
extern const struct gs_opt gs_opts[];
extern const size_t gs_nopts;
/* Option names of the booksim (intersim2) network config, the `.icnt` file. */
extern const char *const gs_booksim_keys[];
extern const size_t gs_nbooksim;
#endif
