/*
 * trace.h: Accel-Sim / NVBit SASS traces (`kernel-N.traceg`, tracer versions
 * 3 to 5 and later) as a workload (sim.h struct wl_ops). docs/TRACES.md
 * describes the supported subset.
 *
 * The engine never opens files: the front end (load/trace_io.c) maps or
 * decompresses a trace into one read-only text buffer and hands it here.
 * A trace too large to hold (an .xz the front end decompresses as it goes)
 * is indexed from a reader instead (trace_index_stream) and replayed through
 * a fetch callback that returns one thread block's text at a time
 * (trace_set_fetch); the text is a pure function of the offset, so what the
 * front end caches does not change the simulation.
 *
 * trace_index() makes one pass over the text: it validates every line (so a
 * malformed or truncated trace fails at load time, naming the file, the line
 * and what was expected), interns opcodes and PCs, and records where each
 * warp's instructions start. Replay then parses a warp's instruction lines
 * on demand from the buffer; the warp's read position lives in struct kwarp
 * (tpos, tleft), so the trace object is immutable once indexed and memory
 * stays bounded by the index (12 bytes per warp, 16 per thread block) plus
 * the buffer, which for plain files is an mmap of the page cache.
 *
 *   text:  header ─ #BEGIN_TB ─ thread block = x,y,z ─ warp = w ─ insts = n ─ n lines ... #END_TB ...
 *   index: warp_off[cta * wpc + w] = byte offset of the first instruction line
 *          warp_n  [cta * wpc + w] = n          (cta = x + y*gx + z*gx*gy)
 *          tb range[cta]           = [#BEGIN_TB, after #END_TB)
 */
#ifndef GPUSTEP_TRACE_H
#define GPUSTEP_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"
#include "trace_cfg.h"

/* Opcode classes (trace_op.c maps SASS opcodes onto them). */
enum tcls {
	TC_ALU, TC_SFU, TC_DP, TC_TENSOR, TC_BRANCH, TC_MISC, /* KOP_ALU, cycles from trace.* */
	TC_UNKNOWN,                                          /* KOP_ALU with trace.alu_cycles */
	TC_BAR, TC_EXIT,
	TC_LDG, TC_STG, TC_ATOMG,  /* global */
	TC_LD, TC_ST, TC_ATOM,     /* generic: shared/local/global by address window */
	TC_LDS, TC_STS, TC_ATOMS,  /* shared */
	TC_LDL, TC_STL,            /* local (per-thread region, see trace.c) */
	TC__COUNT
};
#define TC_ALU_CLASSES 7 /* classes below TC_BAR are arithmetic */

/* Opcode flags. */
enum { TF_CG = 1u << 0, TF_CS = 1u << 1, TF_CV = 1u << 2, TF_LU = 1u << 3 };

/* Class, bytes per lane (from the opcode's .8/.16/.64/.128/.U8/.S16 tokens,
 * default 4, as Accel-Sim does) and flags of a SASS opcode such as
 * "LDG.E.64.SYS". */
unsigned trace_classify(const char *op, size_t len, unsigned *size, unsigned *flags);
/* The execution unit (kernel.h enum kunit) of opcode op[0, len) of class
 * cls, as Accel-Sim's opcode tables assign them (docs/TRACES.md). */
unsigned trace_unit(const char *op, size_t len, unsigned cls);

struct trace_hdr {
	char name[256];       /* -kernel name */
	unsigned kernel_id;   /* -kernel id */
	uint32_t grid[3], block[3];
	unsigned shmem, nregs, binary_version, tracer_version;
	int lineinfo;         /* -enable lineinfo: a line number precedes the PC */
	uint64_t shmem_base, local_base;
};

/* What the index pass counted (dynamic = per executed warp instruction). */
struct trace_info {
	uint64_t bytes, lines;
	uint32_t ctas, warps_per_cta;
	uint64_t insts;              /* warp instructions in the file */
	uint64_t by_class[TC__COUNT];
	uint64_t cg;                 /* global loads/stores with .CG or .CV (replayed as glc: L1 bypass) */
	uint64_t generic_shared, generic_local; /* generic LD/ST/ATOM that fell in a window */
	unsigned nopcodes, nstmts;
	uint64_t max_tb_bytes;       /* the longest thread block's text (#BEGIN_TB to #END_TB) */
	uint32_t max_tb;             /* and its CTA id */
	char unknown[256];           /* distinct unknown opcodes, comma separated ("" = none) */
	/* Bytes the replay's global and local accesses touch, [lo, last] (lo >
	 * last = none); local ones as placed in TRACE_LOCAL_REGION. */
	uint64_t glob_lo, glob_last, local_lo, local_last;
};

struct trace_kernel;

/* Index a trace held in text[0, len) (not copied: it must outlive the
 * result). `file` names the trace in messages ("kernel-1.traceg:57: ...").
 * NULL with *err on the first problem. */
struct trace_kernel *trace_index(const char *text, size_t len, const char *file, char **err);
/* A streamed trace: rd fills buf[0, n) and returns the count, 0 at the end,
 * -1 with *err (naming the file and position). `size` is the text's length
 * if known (0 if not): it bounds the grid before the index is allocated. */
typedef long (*trace_read_fn)(void *ctx, char *buf, size_t n, char **err);
struct trace_kernel *trace_index_stream(trace_read_fn rd, void *ctx, uint64_t size, const char *file, char **err);
/* Replay of a streamed trace: the text of thread block `cta` at trace offset
 * off (inside the block's range), with *end = the end of the block's text
 * held there. Valid until the next call. On failure "" with *end at it. */
typedef const char *(*trace_fetch_fn)(void *ctx, uint32_t cta, uint64_t off, const char **end);
void trace_set_fetch(struct trace_kernel *k, trace_fetch_fn fetch, void *ctx);
/* The kernel is read through a fetch callback (whose reader keeps state). */
bool trace_streamed(const struct trace_kernel *k);
/* Thread block cta's text [beg, end) in trace offsets (file order need not be CTA order). */
void trace_tb_range(const struct trace_kernel *k, uint32_t cta, uint64_t *beg, uint64_t *end);
void trace_free(struct trace_kernel *k);
const struct trace_hdr *trace_hdr(const struct trace_kernel *k);
const struct trace_info *trace_get_info(const struct trace_kernel *k);
const char *trace_file(const struct trace_kernel *k);

/* The workload impl: an indexed trace plus the cycle counts of the config
 * it runs on. Immutable while a sim uses it. */
struct trace_view {
	const struct trace_kernel *k;
	uint16_t cycles[TC__COUNT];
};
void trace_view_init(struct trace_view *v, const struct trace_kernel *k, const struct trace_cfg *c);
extern const struct wl_ops trace_wl_ops;

/* Several indexed kernels run back to back in one simulator (sim.h
 * wl_ops.nkernels): kernel k's CTAs are global CTAs first[k] .. first[k+1]-1,
 * its statements soff[k] ... The caller provides the arrays (n views, n + 1
 * entries each); immutable while a sim uses it. */
struct trace_multi {
	unsigned n;
	const struct trace_view *v;
	const uint32_t *first, *soff;
	unsigned nregs; /* the largest of the kernels */
};
void trace_multi_init(struct trace_multi *m, struct trace_view *views, uint32_t *first, uint32_t *soff,
		      const struct trace_kernel *const *ks, unsigned n, const struct trace_cfg *c);
extern const struct wl_ops trace_multi_wl_ops;

/* Where generic and local addresses go (docs/TRACES.md). */
#define TRACE_WINDOW_BYTES (16ull << 20)   /* shared and local generic windows */
#define TRACE_LOCAL_REGION (1ull << 47)    /* per-thread local memory, above user VAs */

#endif
