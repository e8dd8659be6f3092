/*
 * trace_io.h: opening recorded GPU traces for the engine (engine/trace/trace.h).
 *
 *   kernel-1.traceg          mmap'd read-only: replay streams from the page cache
 *   kernel-1.traceg.xz       streamed through liblzma: indexed in one pass, then
 *                            thread blocks decoded into a bounded window as
 *                            replay reaches them (trace.xz_window_mb)
 *   trace.trc[.xz]           a thread-address trace (engine/reuse/trc.h), a list of one
 *   kernelslist.g            Accel-Sim command list: MemcpyHtoD lines (host copies,
 *                            handed to the engine: sim.h wl_copy) and
 *                            kernel-N.traceg[.xz] lines
 *   any of them + "@N"       only kernel N of the list (1-based)
 *
 * Without @N the kernels of a list run back to back in one simulator
 * (trace_workload_all) and are all indexed at open; with @N only kernel N is.
 * The session keeps the list for as long as a simulator replays it.
 */
#ifndef GPUSTEP_TRACE_IO_H
#define GPUSTEP_TRACE_IO_H

#include <stdbool.h>
#include <stddef.h>

#include "sim/config.h"
#include "kernel/kernel.h"
#include "sim/sim.h"
#include "trace/trace.h"

struct trace_list;

/* True if spec names a trace (.traceg, .traceg.xz, .g, a kernelslist file, .trc, .trc.xz; optionally with @N). */
bool trace_is_spec(const char *spec);
/* Open a list or a single kernel; *first = the kernel to start at (from @N). */
struct trace_list *trace_list_open(const char *spec, unsigned *first, char **err);
void trace_list_free(struct trace_list *tl);
unsigned trace_list_count(const struct trace_list *tl);
/* True when the list runs as one workload, its kernels back to back in one
 * simulator: more than one kernel and no @N in the spec. */
bool trace_list_back_to_back(const struct trace_list *tl);
/* Kernel i when it is a .trc thread-address trace, parsed on first use; NULL
 * (and *err untouched) when it is an Accel-Sim kernel, NULL with *err on a
 * load error. */
struct trc;
const struct trc *trace_list_trc(struct trace_list *tl, unsigned i, char **err);
/* A workload replaying kernel i on cfg: one heap block (workload + its impl),
 * freed with free(). Refuses core.warp_size other than 32. Its copies are the
 * MemcpyHtoD lines between kernel i-1 and kernel i of the list. */
struct workload *trace_workload_new(struct trace_list *tl, unsigned i, const struct sim_cfg *cfg, char **err);
/* Every kernel of the list in one simulator, back to back (trace.h
 * trace_multi; a list of one: trace_workload_new). One heap block, free().
 * Its copies (kept by the list) are every MemcpyHtoD before the last kernel. */
struct workload *trace_workload_all(struct trace_list *tl, const struct sim_cfg *cfg, char **err);
/* Name and one-line description of kernel i for the session's kernel_src
 * (indexes it if needed); -1 with *err. */
int trace_list_fill_src(struct trace_list *tl, unsigned i, struct kernel_src *k, char **err);
/* Warnings for kernel i ("" if none): unknown opcodes, .CG accesses, and
 * MemcpyHtoD lines that change nothing (trace.memcpy = ignore in cfg, or
 * after the last kernel). */
void trace_list_warnings(struct trace_list *tl, unsigned i, const struct sim_cfg *cfg, char *buf, size_t n);
/* The .xz window so far: thread blocks decoded for replay, decoder restarts
 * (a block behind the decoder was needed again), most bytes held at once. */
void trace_list_xz_stats(const struct trace_list *tl, uint64_t *loads, uint64_t *restarts, uint64_t *peak);
/* The same, refused with a message past max bytes of text (an .xz stream is
 * decoded only that far). .trc traces are read this way with
 * trace_text_limit(): TRACE_TEXT_MAX, or a third of the memory available
 * when that is less (the text and the parsed trace are both held). */
#define TRACE_TEXT_MAX (1ull << 30)
char *trace_read_file_max(const char *path, size_t max, size_t *len, char **err);
size_t trace_text_limit(void);

#endif
