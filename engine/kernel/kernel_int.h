/*
 * kernel_int.h: the compiled form of a kernel, shared by kernel.c (compiler
 * driver, accessors), kernel_stmt.c (statement compiler) and kernel_exec.c
 * (per-warp execution), plus the compile context of the first two. Not for
 * other files: everything else goes through kernel.h.
 *
 * A kernel is a flat array of statements; control statements carry the index
 * of their partner so execution never searches:
 *
 *   pc  statement          kind      match  depth
 *   0   loop i 0 4         LOOP      3      0      (match: its `end`)
 *   1     if tx < 16       IF        2      1      (match: its `end`; else_pc none)
 *   2     end              END_IF    1      1      (match: its opener)
 *   3   end                END_LOOP  0      0
 *
 * depth is the slot of the statement's entry in kwarp.stk[]; the loop
 * variable of a loop at depth d lives in kwarp.stk[d].var and is the
 * expression slot KU_LOOP0 + d.
 */
#ifndef GPUSTEP_KERNEL_INT_H
#define GPUSTEP_KERNEL_INT_H

#include "kernel.h"
#include "kexpr.h"

#define KMAX_THREADS 1024 /* per CTA */
#define KNO_PC 0xffff

enum kstmt_kind {
	KS_NOP, /* empty statement or comment */
	KS_LD,
	KS_ST,
	KS_ATOM,
	KS_LDSH,
	KS_STSH,
	KS_ALU,
	KS_BAR,
	KS_LOOP,
	KS_END_LOOP,
	KS_IF,
	KS_ELSE,
	KS_END_IF,
};

struct kstmt {
	uint8_t kind;     /* enum kstmt_kind */
	uint8_t op;       /* enum kop for instruction-producing statements */
	uint8_t size;     /* bytes per lane */
	uint8_t cop;      /* enum kcop (ld / st / atom) */
	uint8_t depth;    /* control slot (LOOP/IF/ELSE/END) */
	uint8_t unit;     /* enum kunit (alu) */
	uint8_t vload;    /* ld from an array with init: that array's index + 1, else 0 */
	uint16_t match;   /* partner statement, see the table above */
	uint16_t else_pc; /* IF: its `else`, or KNO_PC */
	uint16_t alu_cycles;
	uint8_t ndst, nsrc, dst, src[3];
	uint64_t base;  /* global memory ops: array base address */
	unsigned elem;  /* global memory ops: element size (address scale) */
	bool dst_dyn;   /* destination is r(dst_e) */
	struct kexpr e; /* address / predicate / loop FROM */
	struct kexpr to, step;
	struct kexpr dst_e;
};

struct kernel {
	char name[64];
	char desc[200];
	uint32_t grid[3], block[3];
	uint32_t ctas, threads;
	unsigned nregs, shmem_bytes;
	unsigned narrays;
	struct {
		char name[KNAME_MAX];
		unsigned elem;
		uint64_t base, bytes;
		bool has_init;
		struct kexpr init; /* contents of element i (scope SC_INIT) */
	} arrays[KMAX_ARRAYS];
	unsigned nparams;
	struct {
		char name[KNAME_MAX];
		int64_t value;
	} params[KMAX_PARAMS];
	uint64_t foot_lo, foot_hi;
	unsigned nstmts;
	struct kstmt st[KMAX_STMTS];
	char text[KMAX_STMTS][128];
	struct kexpr_code code;
	/* Thread coordinates by tid, padded so a partial last warp can read past the end. */
	uint16_t tx[KMAX_THREADS + KMAX_LANES], ty[KMAX_THREADS + KMAX_LANES], tz[KMAX_THREADS + KMAX_LANES];
};

/* ---- compile context (kernel.c, kernel_stmt.c) ------------------------ */

/* SC_INIT: an array's init expression (params, dimensions and i). */
enum scope { SC_PARAMS, SC_DIMS, SC_INIT, SC_BODY };

struct open_ctl {
	uint16_t pc;
	bool is_loop, has_else;
	char var[KNAME_MAX];
};

struct cc {
	struct kernel *k;
	const char *kname;
	enum scope scope;
	struct open_ctl open[KMAX_DEPTH];
	unsigned depth;
	bool used_val; /* the statement being compiled reads `val` */
	char **err;
};

/* Identifier lookup for kexpr_compile (ctx = struct cc). */
int kernel_resolve(void *ctx, const char *s, size_t len, struct kexpr_sym *out);
/* a (NUL-terminated) equals s[0..len). */
bool kernel_name_eq(const char *a, const char *s, size_t len);
/* A built-in identifier or function name. */
bool kernel_reserved(const char *s, size_t len);
/* Compile src's body into cc->k (kernel_stmt.c). */
int kstmt_compile_body(struct cc *cc, const struct kernel_src *src);

#endif
