/*
 * trace_xz.h: Accel-Sim .traceg.xz kernels indexed in one streaming pass and
 * replayed through a bounded window of decompressed thread blocks, so memory
 * follows trace.xz_window_mb and not the file (trace_xz.c); and whole .xz
 * files read into memory (for the small .trc.xz thread-address traces).
 */
#ifndef GPUSTEP_TUI_TRACE_XZ_H
#define GPUSTEP_TUI_TRACE_XZ_H

#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"

struct xz_window; /* one per trace list: the blocks held and the live decoder */
struct xz_kernel; /* one .xz kernel served through a window */

struct xz_window *xz_window_new(uint64_t limit_bytes);
void xz_window_free(struct xz_window *w); /* after its kernels are closed */
void xz_window_set_limit(struct xz_window *w, uint64_t limit_bytes);
uint64_t xz_window_limit(const struct xz_window *w);
/* Blocks decoded on demand, decoder restarts, most bytes held at once. */
void xz_window_stats(const struct xz_window *w, uint64_t *loads, uint64_t *restarts, uint64_t *peak);

/* Index the .xz file at path (file: its name in messages) and serve its
 * thread blocks through w. NULL with *err naming the file and the compressed
 * byte on bad data. */
struct xz_kernel *xz_kernel_open(struct xz_window *w, const char *path, const char *file, char **err);
/* The kernel's index; owned by the xz_kernel (freed by xz_kernel_close). */
struct trace_kernel *xz_kernel_trace(const struct xz_kernel *t);
void xz_kernel_close(struct xz_kernel *t);

/* The same, refused with a message once it exceeds max bytes (decoding
 * stops there: memory stays near max). */
char *xz_read_max(const char *path, size_t max, size_t *len, char **err);

#endif
