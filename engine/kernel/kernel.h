/*
 * kernel.h: the kernel access-pattern language, compiled once and then
 * "executed" per warp to produce warp instructions with per-lane addresses.
 *
 * Source (built by load/loader.c from the kernel JSON; every expression is
 * a string so parameters can shape grids, array lengths and addresses):
 *
 *   grid  = ["n/256", "1", "1"]      block = ["256", "1", "1"]
 *   arrays: name, elem bytes, len expr, optional base expr (else automatic,
 *           page-aligned, in declaration order), optional init expr over the
 *           element index i (the contents; makes `ld` from it a value load)
 *   params: name = integer (overridable)
 *   body: one statement per string:
 *     ld A[EXPR] [-> rD] [<- rS ...]    global load of element EXPR of array A
 *     st A[EXPR]                        global store
 *     atom A[EXPR]                      global atomic (read-modify-write)
 *     ld.glc / ld.slc / st.glc / st.slc / atom.glc   with a cache operator
 *     ldsh EXPR / stsh EXPR             shared memory, EXPR = byte offset
 *     alu N / alu.UNIT N                N cycles of arithmetic (UNIT: sp int dp sfu tensor branch)
 *     bar                               CTA barrier
 *     loop VAR FROM TO [STEP] ... end   warp-uniform loop, TO exclusive
 *     if EXPR ... [else ...] end        per-lane predicate (divergence)
 *
 * Expressions: integers, + - * / % << >> & | ^ ( ), unary -, comparisons
 * (< <= > >= == !=, yielding 0/1), min(a,b), max(a,b), hash(x) (seeded),
 * identifiers tx ty tz bx by bz bdx bdy bdz gdx gdy gdz lane warp tid,
 * loop variables and params. Division by zero yields 0 (documented).
 *
 * Values: the language models addresses, not data, with one exception for
 * dependent loads (pointer chasing). An array may declare its contents as an
 * expression over the element index i (`"init": "(i + 16) % n"`); an `ld`
 * from such an array is a value load: each active lane's `val` becomes the
 * contents of the element it loaded. A later memory statement may use `val`
 * in its address, and must name the register the value load wrote (`<- rN`)
 * so the scoreboard holds it until the data is back. Stores and atomics do
 * not change the contents (a table the host wrote before the launch).
 */
#ifndef GPUSTEP_KERNEL_H
#define GPUSTEP_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KMAX_LANES 64
#define KMAX_ARRAYS 16
#define KMAX_PARAMS 16
#define KMAX_DEPTH 8 /* nesting of loop / if */
#define KMAX_STMTS 256
#define KNAME_MAX 32

struct kernel_src {
	char name[64];
	char desc[200];
	char grid[3][64];  /* expressions over params */
	char block[3][64];
	unsigned narrays;
	struct {
		char name[KNAME_MAX];
		unsigned elem;   /* bytes per element */
		char len[64];    /* expression over params */
		char base[64];   /* expression, or "" for automatic placement */
		char init[64];   /* contents: element i holds this expression over i, or "" */
	} arrays[KMAX_ARRAYS];
	unsigned nparams;
	struct {
		char name[KNAME_MAX];
		int64_t value;
	} params[KMAX_PARAMS];
	unsigned nregs;        /* registers per thread (0 = default 32) */
	unsigned shmem_bytes;  /* shared memory per CTA */
	unsigned nbody;
	char body[KMAX_STMTS][128];
};

enum kop {
	KOP_LD,
	KOP_ST,
	KOP_ATOM,
	KOP_LDSH,
	KOP_STSH,
	KOP_ALU,
	KOP_BAR,
	KOP_EXIT,
};

/* Cache operators (`ld.glc A[i]`; traces: .CG/.CV -> glc). glc: the access
 * bypasses the L1 (no lookup, no allocation); slc: bypasses the L1 and does
 * not allocate in the L2 on a miss (docs/MODEL.md, "Cache operators"). */
enum kcop { KCOP_DEFAULT, KCOP_GLC, KCOP_SLC };

static inline bool kop_is_global(unsigned op) { return op == KOP_LD || op == KOP_ST || op == KOP_ATOM; }
static inline bool kop_is_mem(unsigned op) { return op <= KOP_STSH; }

/* The execution unit of an ALU instruction: `alu.sfu N` names one (plain
 * `alu N` is sp), traces take it from the opcode (trace_op.c). With
 * core.op_model = units each has its latency, initiation interval and count
 * (core/opunit.c); with warp_busy it only labels the instruction. */
enum kunit { KU_SP, KU_INT, KU_DP, KU_SFU, KU_TENSOR, KU_BRANCH, KU__COUNT };
const char *kunit_name(unsigned u); /* "sp", ..., "?" out of range */
int kunit_find(const char *s, size_t len); /* -1 if no unit has that name */

/* One warp instruction as the core sees it. */
#define WINST_PC_STMT UINT64_MAX
#define WINST_PC_NONE (UINT64_MAX - 1)

struct winst {
	uint8_t op;          /* enum kop */
	uint8_t size;        /* bytes per lane for memory ops */
	uint16_t alu_cycles; /* KOP_ALU */
	uint16_t stmt;       /* statement index, for display (kernel_stmt_text) */
	uint8_t ndst, nsrc;
	uint8_t dst;
	uint8_t src[3];
	uint8_t cop;         /* enum kcop: cache operator of a global access (KCOP_DEFAULT otherwise) */
	uint8_t unit;        /* enum kunit (KOP_ALU) */
	uint8_t traced;      /* KOP_ALU of a recorded trace: one SASS instruction (alu_cycles is its
				class's trace.* time); else `alu N`, N instructions' worth (core/opunit.c) */
	/* Code address for instruction fetch (l1i.enabled): byte offset of the
	 * instruction in its kernel's code when the workload knows it (a trace
	 * line's PC), WINST_PC_STMT when the core places it (statement stmt at
	 * stmt x core.inst_size), WINST_PC_NONE for nothing to fetch (a traced
	 * warp's end without an EXIT line). */
	uint64_t pc;
	uint64_t active;         /* active lane mask */
	uint64_t addr[KMAX_LANES]; /* byte address per active lane (memory ops) */
};

/* Per-warp program state; fixed size so it lives in the sim arena. */
struct kwarp {
	uint32_t cta;            /* linear CTA id */
	uint32_t warp_in_cta;
	uint16_t pc;             /* next statement */
	uint8_t depth;           /* control stack depth */
	uint8_t warp_size;
	uint64_t full_mask;      /* lanes that exist (last warp of a CTA may be partial) */
	uint64_t mask;           /* currently active lanes */
	bool exited;
	/* Recorded-trace workloads (engine/trace/trace.c): byte offset of the warp's
	 * next instruction line in the trace text and instructions left. */
	uint32_t tleft;
	uint64_t tpos;
	struct {
		uint8_t is_loop;
		uint16_t start_pc;   /* loop: first body statement; if: unused */
		int64_t var, to, step;
		uint64_t saved_mask; /* if: mask before the if */
		uint64_t else_mask;  /* if: lanes for the else branch */
	} stk[KMAX_DEPTH];
	int64_t val[KMAX_LANES]; /* per lane: what its last value load returned (`val`) */
};

struct kernel; /* compiled, immutable, shareable */

/* Compile; NULL with *err = "kernel vecadd, statement 3 (ld A[tid+]), column 10: expected an operand". */
struct kernel *kernel_compile(const struct kernel_src *src, uint64_t seed, char **err);
void kernel_free(struct kernel *k);

const char *kernel_name(const struct kernel *k);
const char *kernel_desc(const struct kernel *k);
void kernel_grid(const struct kernel *k, uint32_t grid[3], uint32_t block[3]);
uint32_t kernel_ctas(const struct kernel *k);
uint32_t kernel_threads_per_cta(const struct kernel *k);
unsigned kernel_nregs(const struct kernel *k);
unsigned kernel_shmem_bytes(const struct kernel *k);
/* Footprint of the arrays: [lo, hi) bytes, for address checks and displays. */
void kernel_footprint(const struct kernel *k, uint64_t *lo, uint64_t *hi);
void kernel_array(const struct kernel *k, unsigned i, const char **name, uint64_t *base, uint64_t *bytes);

/* Start warp `warp_in_cta` of CTA `cta` with warp_size lanes. */
void kernel_warp_start(const struct kernel *k, struct kwarp *w, uint32_t cta, uint32_t warp_in_cta,
		       unsigned warp_size);
/* Produce the warp's next instruction; false once it has exited (then out->op = KOP_EXIT). */
bool kernel_warp_next(const struct kernel *k, struct kwarp *w, struct winst *out);
/* Source text of statement i ("ld A[tid]"), for panels. */
const char *kernel_stmt_text(const struct kernel *k, unsigned stmt);
unsigned kernel_nstmts(const struct kernel *k);
/* Whether any statement carries a cache operator (glc / slc). */
bool kernel_uses_cop(const struct kernel *k);

/* ---- additions (kernel.c) -------------------------------------------- */
/* Set an existing param of src before compiling (e.g. `--param n=1024`);
 * -1 with *err naming the kernel's params if there is no such param. */
int kernel_src_set_param(struct kernel_src *src, const char *name, int64_t value, char **err);
/* The params the kernel was compiled with, in declaration order. */
unsigned kernel_nparams(const struct kernel *k);
void kernel_param(const struct kernel *k, unsigned i, const char **name, int64_t *value);

#endif
