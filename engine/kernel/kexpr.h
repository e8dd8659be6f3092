/*
 * kexpr.h: the expression compiler and vector bytecode VM behind the kernel
 * language (kernel.h). An expression is compiled once into a run of stack
 * instructions appended to a shared code buffer; it is then evaluated for a
 * whole warp at a time, each instruction looping over the lanes:
 *
 *   "tid + bx*bdx"  ->  PUSH_TID | PUSH_UNI bx | PUSH_CONST 256 | MUL | ADD
 *
 *          stack slot:    0 (lanes lo..hi-1)   1 (uniform: v[0])   2
 *   PUSH_TID              [t0 t1 ... t31]
 *   PUSH_UNI bx                                [3]
 *   PUSH_CONST 256                                                  [256]
 *   MUL                                        [768]   (scalar: both uniform)
 *   ADD                   [t0+768 ... ]                 (vector + scalar)
 *
 * Each stack slot is either uniform (one value in v[0], the same for every
 * lane) or varying (one value per lane); the flag is checked once per
 * instruction, never per lane, so warp-uniform parts (block ids, loop
 * variables) cost one scalar operation. Constant subexpressions are folded at
 * compile time. Identifiers are resolved by a caller-supplied callback, so the
 * same compiler serves grid/array expressions (params only) and statement
 * bodies (params, thread ids, loop variables).
 *
 * Semantics: 64-bit two's-complement integers that wrap on overflow; `/` and
 * `%` truncate toward zero and yield 0 when the divisor is 0; shift counts are
 * masked to 0..63 and `>>` is arithmetic; comparisons, `!`, `&&`, `||` yield
 * 0 or 1 (both sides are always evaluated: there are no side effects);
 * hash(x) = mix64(x ^ mix64(seed)) >> 1, a non-negative 63-bit value, so
 * hash(x) % n lies in [0, n).
 */
#ifndef GPUSTEP_KEXPR_H
#define GPUSTEP_KEXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel.h"

#define KEXPR_STACK 16 /* evaluation stack depth an expression may need */

/* Warp-uniform runtime values, by slot. */
enum kexpr_uni {
	KU_BX,
	KU_BY,
	KU_BZ,
	KU_WARP,
	KU_LOOP0, /* loop variable at control depth d is slot KU_LOOP0 + d */
	KU_COUNT = KU_LOOP0 + KMAX_DEPTH,
};

/* Per-lane runtime values. */
/* KL_VAL: the value the lane's last value load returned (`val`, kernel.h);
 * KL_IDX: the element index inside an array's `init` expression (`i`). */
enum kexpr_lane { KL_TX, KL_TY, KL_TZ, KL_LANE, KL_TID, KL_VAL, KL_IDX };

/* What an identifier means, as told by the resolver. */
struct kexpr_sym {
	enum { KSYM_CONST, KSYM_UNI, KSYM_LANE } kind;
	int64_t value; /* KSYM_CONST: the value; KSYM_UNI: enum kexpr_uni; KSYM_LANE: enum kexpr_lane */
};

/* Return 0 and fill *out, or -1 if `name` (len bytes, not NUL-terminated) is unknown. */
typedef int (*kexpr_resolve_fn)(void *ctx, const char *name, size_t len, struct kexpr_sym *out);

struct kins {
	uint8_t op;
	uint8_t arg; /* slot for PUSH_UNI / PUSH_LANE */
	int64_t imm; /* PUSH_CONST */
};

/* Code buffer shared by all expressions of a kernel. */
struct kexpr_code {
	struct kins *ins;
	uint32_t n, cap;
	uint64_t hash_key; /* mix64(seed), used by hash() */
};

/* One compiled expression: a slice of the code buffer. */
struct kexpr {
	uint32_t off;
	uint16_t len;
	uint8_t depth; /* stack slots needed */
	bool varying;  /* depends on a per-lane value */
	bool is_const; /* folded to `value` */
	int64_t value;
};

struct kexpr_err {
	unsigned col; /* 1-based column in the text given to kexpr_compile */
	char msg[160];
};

void kexpr_code_init(struct kexpr_code *c, uint64_t seed);
void kexpr_code_fini(struct kexpr_code *c);

/*
 * Compile the expression starting at text[*pos]; on success *pos is left at the
 * first character that cannot continue the expression (so callers can parse
 * `]`, `,`, `->` ... after it) and 0 is returned. On error returns -1 with
 * err->col pointing at the offending character of `text`.
 */
int kexpr_compile(struct kexpr_code *c, const char *text, size_t *pos, kexpr_resolve_fn resolve, void *ctx,
                  struct kexpr *out, struct kexpr_err *err);

/* Runtime inputs of an evaluation. */
struct kexpr_env {
	int64_t uni[KU_COUNT];
	const uint16_t *tx, *ty, *tz; /* per-lane thread coordinates, indexed by lane */
	int64_t tid0;                 /* tid of lane 0 */
	const int64_t *val;           /* per-lane loaded values (KL_VAL), indexed by lane */
	const int64_t *idx;           /* per-lane element indices (KL_IDX), only inside `init` */
};

/* Evaluation stack, supplied by the caller (about 8 KB; keep it on the stack). */
struct kexpr_stack {
	int64_t v[KEXPR_STACK][KMAX_LANES];
	bool uni[KEXPR_STACK];
};

/*
 * Evaluate e for lanes [lo, hi). Returns a pointer to the result: if
 * *uniform is set, only r[0] is meaningful (the value for every lane), else
 * r[lo..hi-1]. The pointer lies inside st.
 */
const int64_t *kexpr_eval(const struct kexpr_code *c, const struct kexpr *e, const struct kexpr_env *env,
                          unsigned lo, unsigned hi, struct kexpr_stack *st, bool *uniform);

/* One lane, for loop bounds and tests. */
int64_t kexpr_eval1(const struct kexpr_code *c, const struct kexpr *e, const struct kexpr_env *env,
                    unsigned lane);

#endif
