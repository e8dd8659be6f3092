/*
 * session_wl.c: the workload lines of a session file (session_wl.h): which
 * kernel or trace it replays, the hash that tells whether it is still the
 * same, and a kernel file's text carried inside the file (format version 2)
 * so the session opens where the file is not.
 */
#include "session_wl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "load/embedded.h"
#include "load/loader.h"
#include "session_file.h"
#include "load/trace_io.h"

uint64_t session_fnv1a(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++) {
		h ^= (unsigned char)p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}


/* Values are the rest of the line: escape backslash, newline, CR. */
void session_put_escaped(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			sb_puts(sb, "\\\\");
		else if (*s == '\n')
			sb_puts(sb, "\\n");
		else if (*s == '\r')
			sb_puts(sb, "\\r");
		else
			sb_printf(sb, "%c", *s);
	}
}


/* FNV-1a 64 of a file, read in pieces (traces can be large). */
static int hash_file(const char *path, uint64_t *h, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return set_err(err, "%s: cannot read it", path);
	uint64_t x = 0xcbf29ce484222325ull;
	char buf[1 << 16];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		for (size_t i = 0; i < n; i++) {
			x ^= (unsigned char)buf[i];
			x *= 0x100000001b3ull;
		}
	int bad = ferror(f);
	fclose(f);
	if (bad)
		return set_err(err, "%s: read error", path);
	*h = x;
	return 0;
}

/* A kernel file's text to carry in a session, or NULL (unreadable, larger
 * than SESSION_MAX_KERNEL, or holding a NUL byte). */
static char *read_small_file(const char *path)
{
	struct stat st;
	if (stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size > SESSION_MAX_KERNEL)
		return NULL;
	size_t len;
	char *e = NULL;
	char *t = loader_read_file(path, &len, &e);
	free(e);
	if (t && strlen(t) != len) {
		free(t);
		return NULL;
	}
	return t;
}

/* A trace spec without its "@N" kernel suffix. */
static void trace_path(const char *spec, char *out, size_t n)
{
	snprintf(out, n, "%s", spec);
	char *at = strrchr(out, '@');
	if (at && at[1] && strspn(at + 1, "0123456789") == strlen(at + 1))
		*at = 0;
}

/* What a workload spec resolves to, as loader_load_kernel decides, and the
 * hash of that JSON (of the named file for a trace: the list or the
 * .traceg). kind: "builtin", "file" or "other" (no hash). */
static int workload_hash(const char *spec, const char **kind, uint64_t *h, char **err)
{
	char path[512];
	struct stat st;
	if (trace_is_spec(spec)) {
		trace_path(spec, path, sizeof path);
		*kind = "file";
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return hash_file(path, h, err);
		*kind = "other";
		*h = 0;
		return 0;
	}
	bool looks_like_file = strchr(spec, '/') || (strlen(spec) > 5 && strcmp(spec + strlen(spec) - 5, ".json") == 0);
	snprintf(path, sizeof path, "configs/workloads/%s.json", spec);
	const struct embedded_file *e = looks_like_file ? NULL : embedded_find(path);
	if (!e && stat(spec, &st) == 0 && S_ISREG(st.st_mode)) {
		*kind = "file";
		return hash_file(spec, h, err);
	}
	if (!e)
		e = embedded_find(spec);
	if (e) {
		*kind = "builtin";
		*h = session_fnv1a(e->data, e->size);
		return 0;
	}
	*kind = "other";
	*h = 0;
	return 0;
}


bool session_wl_write(const struct session *ss, struct strbuf *sb)
{
	char spec[sizeof ss->workload_spec + 16];
	if (ss->traces && !trace_list_back_to_back(ss->traces)) { /* the kernel of a trace list being simulated, 1-based */
		char p[sizeof ss->workload_spec];
		trace_path(ss->workload_spec, p, sizeof p);
		snprintf(spec, sizeof spec, "%.*s@%u", (int)sizeof p - 1, p, ss->trace_k + 1);
	} else {
		snprintf(spec, sizeof spec, "%s", ss->workload_spec);
	}
	const char *kind;
	uint64_t h;
	char *err = NULL;
	bool hashed = workload_hash(spec, &kind, &h, &err) == 0;
	free(err);
	if (hashed && strcmp(kind, "file") == 0) { /* loadable from any directory */
		char p[sizeof spec], *abs;
		trace_path(spec, p, sizeof p);
		if (spec[0] != '/' && (abs = realpath(p, NULL))) {
			char *at = ss->traces && !trace_list_back_to_back(ss->traces) ? strrchr(spec, '@') : NULL;
			char tail[16];
			snprintf(tail, sizeof tail, "%s", at ? at : "");
			snprintf(spec, sizeof spec, "%s%s", abs, tail);
			free(abs);
		}
	}
	/* A kernel file travels inside the session (the copy a loaded session
	 * carried, else the file as it is now), so it opens on another machine. */
	char *json = NULL;
	if (ss->wl_json)
		json = xstrdup(ss->wl_json);
	else if (hashed && strcmp(kind, "file") == 0 && !ss->traces)
		json = read_small_file(spec);
	if (json) {
		kind = "file";
		h = session_fnv1a(json, strlen(json));
		hashed = true;
	}
	sb_puts(sb, "workload ");
	session_put_escaped(sb, spec);
	sb_puts(sb, "\n");
	if (hashed)
		sb_printf(sb, "workload-hash %s %016" PRIx64 "\n", kind, h);
	if (json) {
		sb_puts(sb, "workload-json ");
		session_put_escaped(sb, json);
		sb_puts(sb, "\n");
		free(json);
	}
	return json != NULL;
}

/* session_init_kernel with f's fix applied to k first and f's rewinding
 * budget: the machine of a session file is built once (no rebuild for its
 * params, no second base snapshot). */
static int init_fixed(struct session *ns, const struct session_wl_line *f, const struct sim_cfg *cfg, const char *src,
		      struct kernel_src *k, const char *json, uint64_t seed, char **e)
{
	if (f->fix_kernel) {
		if (f->fix_kernel(k, f->fix_arg, e))
			return -1;
		if (f->applied)
			*f->applied = true;
	}
	size_t was = session_initial_snapshot_budget();
	session_set_initial_snapshot_budget(f->snapshot_bytes);
	int rc = session_init_kernel(ns, cfg, src, f->workload, k, json, seed, e);
	session_set_initial_snapshot_budget(was);
	return rc;
}

/* The workload of the file: the kernel it carries (workload-json), or the
 * built-in / file / trace it names, checked against its hash. */
int session_wl_open(struct session *ns, const struct session_wl_line *f, const struct sim_cfg *cfg, const char *src,
		    uint64_t seed, struct strbuf *notes, char **e)
{
	char path[512];
	trace_path(f->workload, path, sizeof path);
	struct stat st;
	bool present = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (f->json) { /* a kernel file carried inside the session: the file itself is not needed */
		uint64_t h = session_fnv1a(f->json, strlen(f->json));
		if (f->have_hash && h != f->hash)
			return set_err(e, "the kernel the session carries does not match its workload-hash");
		uint64_t hf = 0;
		char *e2 = NULL;
		if (!present)
			sb_printf(notes, "note: kernel file %s is not here; the session replays the copy it carries\n",
				  f->workload);
		else if (hash_file(path, &hf, &e2) == 0 && hf != h)
			sb_printf(notes, "note: kernel file %s changed since the session was saved; the session "
					      "replays the copy it carries\n",
				  f->workload);
		free(e2);
		struct kernel_src *k = xcalloc(1, sizeof *k);
		int rc = loader_parse_kernel(f->json, f->workload, k, e);
		if (rc == 0)
			rc = init_fixed(ns, f, cfg, src, k, f->json, seed, e);
		free(k);
		return rc;
	}
	if (f->have_hash && strcmp(f->kind, "file") == 0 && !present)
		return set_err(e, "%s %s not found (the session names it by path and carries no copy%s); put it back "
				  "at that path to replay the session",
			       trace_is_spec(f->workload) ? "trace" : "workload file", path,
			       trace_is_spec(f->workload) ? ": traces are never copied into sessions"
							  : ": written by an older gpustep, or the kernel is over 1 MB");
	const char *kind;
	uint64_t h;
	if (workload_hash(f->workload, &kind, &h, e))
		return -1;
	if (f->have_hash && strcmp(f->kind, "other") != 0) {
		if (strcmp(kind, f->kind) != 0 || h != f->hash) {
			if (strcmp(f->kind, "file") == 0)
				return set_err(e, "workload file %s changed since the session was saved (content hash %016" PRIx64
						  ", saved %016" PRIx64 "); restore the original file to replay it",
					       f->workload, h, f->hash);
			return set_err(e, "built-in kernel %s differs from the one the session was saved with "
					  "(a different gpustep version?)",
				       f->workload);
		}
	}
	if (trace_is_spec(f->workload)) { /* a trace has no kernel to fix */
		size_t was = session_initial_snapshot_budget();
		session_set_initial_snapshot_budget(f->snapshot_bytes);
		int rc = session_init(ns, cfg, src, f->workload, seed, e);
		session_set_initial_snapshot_budget(was);
		return rc;
	}
	struct kernel_src *k = xcalloc(1, sizeof *k);
	int rc = loader_load_kernel(f->workload, k, e);
	if (rc == 0)
		rc = init_fixed(ns, f, cfg, src, k, NULL, seed, e);
	free(k);
	return rc;
}

