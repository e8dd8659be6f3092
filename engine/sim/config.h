/*
 * config.h: the machine description as plain C structs, plus one table of
 * named parameters that maps dotted paths ("l1.mshr.entries",
 * "dram.timing.tRCD") onto struct fields with defaults, ranges and
 * descriptions.
 *
 * The table is split by concern: each module contributes a `struct cfg_section`
 * (its params, a cross-field validator and a printer of derived values) and
 * config.c lists the sections. The defaults in the tables *are* the built-in
 * teaching preset, so `gpustep` with no arguments needs no file.
 *
 * No JSON here: load/loader.c walks JSON and calls cfg_set_value() per key.
 */
#ifndef GPUSTEP_CONFIG_H
#define GPUSTEP_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "dram/dram_cfg.h"
#include "hier_cfg.h"
#include "rf/rf_cfg.h"
#include "trace/trace_cfg.h"
#include "util.h"

#define CFG_STR_MAX 128

struct sim_cfg {
	char name[CFG_STR_MAX];        /* "teaching", "titanv", ... */
	char description[CFG_STR_MAX]; /* one line: what it models, source */
	uint64_t seed;
	int threads;        /* threads for the per-SM phases (sim_set_threads); 0 = sim_default_threads */
	int threads_spare;  /* keeps the struct free of padding */
	struct core_cfg core;
	struct l1_cfg l1;
	struct l1i_cfg l1i;     /* instruction cache and fetch (hier_cfg.h) */
	struct l2_cfg l2;
	struct icnt_cfg icnt;
	struct mem_cfg mem;
	struct dram_cfg dram;
	struct trace_cfg trace; /* trace replay (trace_cfg.h) */
	struct rf_cfg rf;       /* register file (rf_cfg.h) */
	struct reuse_cfg reuse; /* reuse-distance profiler (hier_cfg.h) */
};

/* hier_cfg.h: instruction fetch is modelled (l1i.enabled, no coherence protocol). */
/* Instruction fetch is in effect unless a coherence protocol is on. */
static inline bool l1i_active(const struct sim_cfg *c)
{
	return c->l1i.enabled && !c->l2.coh.protocol;
}

/* MSHR entries allocated per L1 / per L2 bank: l1.mshr.capacity (or l2.'s),
 * never below the limit l1.mshr.entries, which the caches read from the
 * configuration on every allocation. Only the capacity is built into the
 * state, so a fork may lower the limit, or raise it up to the capacity
 * (machine/fork.h). */
static inline uint32_t l1_mshr_cap(const struct sim_cfg *c)
{
	return (uint32_t)(c->l1.mshr_capacity > c->l1.mshr_entries ? c->l1.mshr_capacity : c->l1.mshr_entries);
}
static inline uint32_t l2_mshr_cap(const struct sim_cfg *c)
{
	return (uint32_t)(c->l2.mshr_capacity > c->l2.mshr_entries ? c->l2.mshr_capacity : c->l2.mshr_entries);
}

enum cfg_type {
	CFG_INT,    /* int */
	CFG_U64,    /* uint64_t */
	CFG_BOOL,   /* bool */
	CFG_DOUBLE, /* double */
	CFG_ENUM,   /* int, index into enums[] */
	CFG_STR,    /* char[CFG_STR_MAX] */
};

enum cfg_flags {
	CFG_POW2 = 1u << 0, /* numeric value must be a power of two */
};

struct cfg_param {
	const char *path; /* dotted name, unique */
	enum cfg_type type;
	size_t offset;    /* offsetof(struct sim_cfg, ...) */
	const char *def;  /* default, written as a user would write it */
	double min, max;  /* inclusive range for numeric types */
	unsigned flags;
	const char *const *enums; /* NULL-terminated names for CFG_ENUM */
	const char *desc;
};

struct cfg_section {
	const char *name;
	const struct cfg_param *params;
	size_t nparams;
	/* Cross-field rules; return -1 and set *err naming the key and the rule. */
	int (*validate)(const struct sim_cfg *c, char **err);
	/* Append "name = value   (why)" lines of derived values. */
	void (*derived)(const struct sim_cfg *c, struct strbuf *out);
};

/* Sections contributed by modules (defined in their *_cfg.c files). */
extern const struct cfg_section core_cfg_section, l1_cfg_section, l1i_cfg_section, l2_cfg_section,
	icnt_cfg_section, mem_cfg_section, dram_cfg_section, trace_cfg_section, rf_cfg_section,
	reuse_cfg_section;

/* Every parameter, in table order; *n receives the count. */
const struct cfg_param *cfg_param_at(size_t i);
size_t cfg_param_count(void);
const struct cfg_param *cfg_find(const char *path);
/* Closest known path by edit distance (for "did you mean"), or NULL. */
const char *cfg_suggest(const char *path);

/* Fill every field with its table default (the teaching preset). */
void cfg_defaults(struct sim_cfg *c);
/* Parse text (as written on the command line: "32", "0x100", "true", "lru")
 * into the field for path. Checks type and range. Errors name the key. */
int cfg_set_value(struct sim_cfg *c, const char *path, const char *text, char **err);
/* Current value of a parameter as text. */
void cfg_format(const struct sim_cfg *c, const struct cfg_param *p, char *buf, size_t n);
/* Ranges, powers of two, and each section's cross-field rules. */
int cfg_validate(const struct sim_cfg *c, char **err);
/* Derived values for --check-config. */
void cfg_print_derived(const struct sim_cfg *c, struct strbuf *out);
/* "integer", "boolean", "number", "enum", "string". */
const char *cfg_type_name(enum cfg_type t);

/* Helpers for section tables. */
#define CFG_OFF(field) offsetof(struct sim_cfg, field)

#endif
