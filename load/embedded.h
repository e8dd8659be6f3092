/*
 * embedded.h: files compiled into the binary by tools/embed.c (machine
 * presets in configs/, DRAM presets in configs/dram/ and built-in kernels in
 * configs/workloads/, all *.json; lessons in configs/lessons/; traces in
 * configs/traces/, read by trace_io.c when their path is not on disk), so
 * gpustep works from any directory.
 * Paths are as given to the build ("configs/gtx480.json"); data is
 * NUL-terminated and immutable.
 */
#ifndef GPUSTEP_EMBEDDED_H
#define GPUSTEP_EMBEDDED_H

#include <stddef.h>

struct embedded_file {
	const char *path;
	const char *data;
	size_t size;
};

extern const struct embedded_file embedded_files[];
extern const size_t n_embedded_files;

/* The embedded file with exactly this path, or NULL (defined in loader.c). */
const struct embedded_file *embedded_find(const char *path);

#endif
