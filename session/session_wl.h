/*
 * session_wl.h: the workload lines of a session file (session_file.c):
 *
 *   workload SPEC             built-in kernel, kernel file (made absolute) or trace (LIST@K)
 *   workload-hash KIND HEX    builtin|file|other + FNV-1a 64 of the JSON (trace: the named file)
 *   workload-json TEXT        a kernel file's text, escaped (version 2; up to SESSION_MAX_KERNEL)
 */
#ifndef GPUSTEP_SESSION_WL_H
#define GPUSTEP_SESSION_WL_H

#include <stdbool.h>
#include <stdint.h>

#include "session.h"
#include "sim/util.h"

/* FNV-1a 64 (the file's checksum and the workload hash). */
uint64_t session_fnv1a(const char *p, size_t n);
/* A value as the rest of a line: backslash, newline and CR escaped. */
void session_put_escaped(struct strbuf *sb, const char *s);
/* The workload lines of ss; true if they carry a kernel (format version 2). */
bool session_wl_write(const struct session *ss, struct strbuf *sb);

/* What a file says about its workload (pointers into the file's text). */
struct session_wl_line {
	const char *workload, *kind, *json; /* kind, json may be NULL */
	bool have_hash;
	uint64_t hash;
	/* Applied to a kernel (carried, built-in or file) before the machine is
	 * built, so it is built once (the file's param lines); NULL: none. Sets
	 * *applied when it ran. */
	int (*fix_kernel)(struct kernel_src *k, void *arg, char **err);
	void *fix_arg;
	bool *applied;
	/* The rewinding budget the machine is built with (0: none). */
	size_t snapshot_bytes;
};
/* session_init *ns with that workload: the carried kernel (a note when the
 * file beside it moved or changed), else the built-in, file or trace named,
 * refused with a message when it is missing or changed. The machine is
 * built once, with fix_kernel applied and snapshot_bytes of rewinding. */
int session_wl_open(struct session *ns, const struct session_wl_line *w, const struct sim_cfg *cfg, const char *src,
		    uint64_t seed, struct strbuf *notes, char **err);

#endif
