/*
 * loader.c: machine configs from JSON (see loader.h); kernels are in
 * loader_kernel.c.
 *
 * Config loading is a recursive walk:
 *
 *   load(spec) ─▶ resolve to a disk file or an embedded preset ─▶ parse JSON
 *     ├─ "extends": each entry ─▶ load(entry)   (include stack detects cycles)
 *     └─ every other key ─▶ dotted path ─▶ cfg_set_value()
 *
 * Values are converted to the text form cfg_set_value() parses, so JSON and
 * the command line (-s l1.sets=64) share one parser and one set of messages.
 */
#include "loader.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cJSON.h"
#include "dram/dram_ini.h"
#include "gpgpusim.h"
#include "embedded.h"
#include "loader_int.h"

#define MAX_DEPTH 16

const struct embedded_file *embedded_find(const char *path)
{
	for (size_t i = 0; i < n_embedded_files; i++)
		if (strcmp(embedded_files[i].path, path) == 0)
			return &embedded_files[i];
	return NULL;
}

int loader_check_size(const char *path, const char *what, uint64_t size, size_t max, char **err)
{
	if (size <= max)
		return 0;
	return set_err(err, "%s: %.1f MB is more than a gpustep %s may be (%zu MB); not the file meant?", path,
		       (double)size / (1 << 20), what, max >> 20);
}

char *loader_read_file(const char *path, size_t *len, char **err)
{
	return loader_read_file_max(path, "file", LOADER_FILE_MAX, len, err);
}

char *loader_read_file_max(const char *path, const char *what, size_t max, size_t *len, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		set_err(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    loader_check_size(path, what, (uint64_t)st.st_size, max, err)) {
		fclose(f);
		return NULL;
	}
	struct strbuf sb;
	sb_init(&sb);
	char buf[8192];
	size_t n;
	bool big = false;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (sb.len + n > max) { /* a pipe or a file that grew */
			big = true;
			break;
		}
		if (sb.len + n + 1 > sb.cap) {
			while (sb.len + n + 1 > sb.cap)
				sb.cap *= 2;
			sb.s = xrealloc(sb.s, sb.cap);
		}
		memcpy(sb.s + sb.len, buf, n);
		sb.len += n;
		sb.s[sb.len] = 0;
	}
	if (big) {
		loader_check_size(path, what, (uint64_t)sb.len + n, max, err);
		fclose(f);
		sb_fini(&sb);
		return NULL;
	}
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		set_err(err, "%s: read error", path);
		sb_fini(&sb);
		return NULL;
	}
	if (strlen(sb.s) != sb.len) {
		set_err(err, "%s: contains a NUL byte (not a text file?)", path);
		sb_fini(&sb);
		return NULL;
	}
	if (len)
		*len = sb.len;
	return sb.s;
}

bool loader_is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Parse JSON text; on error name file:line:column from cJSON's error pointer. */
cJSON *loader_parse_json(const char *text, const char *fname, char **err)
{
	const char *end = NULL;
	cJSON *j = cJSON_ParseWithOpts(text, &end, 1);
	if (j)
		return j;
	if (!end)
		end = cJSON_GetErrorPtr();
	if (!end || end < text || end > text + strlen(text))
		end = text + strlen(text);
	int line = 1, col = 1;
	for (const char *p = text; p < end; p++) {
		if (*p == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	/* Show the text around the error on its line (cJSON points just past it). */
	const char *ls = end, *le = end;
	while (ls > text && ls[-1] != '\n' && end - ls < 12)
		ls--;
	while (*le && *le != '\n' && le - end < 12)
		le++;
	while (ls < le && (*ls == ' ' || *ls == '\t'))
		ls++;
	if (*end == 0 && ls == le)
		set_err(err, "%s:%d:%d: malformed JSON (unexpected end of input)", fname, line, col);
	else
		set_err(err, "%s:%d:%d: malformed JSON near '%.*s'", fname, line, col, (int)(le - ls), ls);
	return NULL;
}

const char *loader_json_type_name(const cJSON *v)
{
	if (cJSON_IsString(v))
		return "a string";
	if (cJSON_IsNumber(v))
		return "a number";
	if (cJSON_IsBool(v))
		return "a boolean";
	if (cJSON_IsNull(v))
		return "null";
	if (cJSON_IsArray(v))
		return "an array";
	if (cJSON_IsObject(v))
		return "an object";
	return "an invalid value";
}

/* JSON number → integer text, or NULL if it is not an integer. */
bool loader_json_int_text(const cJSON *v, char *buf, size_t n)
{
	double d = v->valuedouble;
	if (!cJSON_IsNumber(v) || d != floor(d) || fabs(d) > 9.007199254740992e15)
		return false;
	snprintf(buf, n, "%.0f", d);
	return true;
}

/* ---- configs ------------------------------------------------------------ */
struct load_ctx {
	const char *stack[MAX_DEPTH]; /* resolved names being loaded, outermost first */
	int depth;
	struct sim_cfg *cfg;
	const char *text;   /* JSON text of the file being walked */
	const char *keys[32]; /* raw JSON keys from the root to the current item */
	int nkeys;
	struct strbuf *notes; /* DRAMSim3 .ini keys not used (may be NULL) */
};

/* Line of the current key chain in lc->text (0 if not found): each key is
 * searched as "key" followed by ':' after the previous one. */
static int key_line(const struct load_ctx *lc)
{
	const char *pos = lc->text, *hit = NULL;
	if (!pos || lc->nkeys == 0)
		return 0;
	for (int i = 0; i < lc->nkeys; i++) {
		char pat[160];
		snprintf(pat, sizeof pat, "\"%s\"", lc->keys[i]);
		const char *p = pos;
		for (;;) {
			p = strstr(p, pat);
			if (!p)
				return 0;
			const char *q = p + strlen(pat);
			while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
				q++;
			if (*q == ':')
				break;
			p++;
		}
		hit = p;
		pos = p + strlen(pat);
	}
	int line = 1;
	for (const char *c = lc->text; c < hit; c++)
		line += *c == '\n';
	return line;
}

/* Turn "fname: msg" into "fname:LINE: msg" for the current key. */
static int locate(const struct load_ctx *lc, const char *fname, char **err)
{
	int line = key_line(lc);
	size_t fl = strlen(fname);
	if (line && err && *err && strncmp(*err, fname, fl) == 0 && strncmp(*err + fl, ": ", 2) == 0) {
		char *m = xasprintf("%s:%d: %s", fname, line, *err + fl + 2);
		free(*err);
		*err = m;
	}
	return -1;
}

static int load_named(struct load_ctx *lc, const char *spec, const char *from, char **err);

static int set_param(struct load_ctx *lc, const char *fname, const char *path, const cJSON *v, char **err)
{
	if (strcmp(path, "dram.ini") == 0) { /* "dram": {"ini": "GDDR5.ini"}: keys after it override */
		if (!cJSON_IsString(v) || !loader_is_ini(v->valuestring))
			return set_err(err, "%s: dram.ini: expected the path of a DRAMSim3 .ini file, got %s", fname,
				       cJSON_IsString(v) ? v->valuestring : loader_json_type_name(v));
		return load_named(lc, v->valuestring, fname, err);
	}
	const struct cfg_param *p = cfg_find(path);
	char text[CFG_STR_MAX + 32];
	char *e = NULL;
	if (!p) {
		cfg_set_value(lc->cfg, path, "", &e); /* produces the unknown-key message */
		set_err(err, "%s: %s", fname, e);
		free(e);
		return -1;
	}
	const char *want = NULL;
	switch (p->type) {
	case CFG_INT:
	case CFG_U64:
		if (cJSON_IsNumber(v)) {
			if (!loader_json_int_text(v, text, sizeof text))
				return set_err(err, "%s: %s: expected an integer, got %g", fname, path, v->valuedouble);
		} else if (p->type == CFG_U64 && cJSON_IsString(v)) {
			/* JSON numbers are doubles: big 64-bit values may be written as strings. */
			snprintf(text, sizeof text, "%s", v->valuestring);
		} else {
			want = "an integer";
		}
		break;
	case CFG_DOUBLE:
		if (cJSON_IsNumber(v))
			snprintf(text, sizeof text, "%.17g", v->valuedouble);
		else
			want = "a number";
		break;
	case CFG_BOOL:
		if (cJSON_IsBool(v))
			snprintf(text, sizeof text, "%s", cJSON_IsTrue(v) ? "true" : "false");
		else
			want = "true or false";
		break;
	case CFG_ENUM:
	case CFG_STR:
		if (cJSON_IsString(v)) {
			if (strlen(v->valuestring) >= CFG_STR_MAX)
				return set_err(err, "%s: %s: string longer than %d characters", fname, path,
					       CFG_STR_MAX - 1);
			snprintf(text, sizeof text, "%s", v->valuestring);
		} else {
			want = "a string";
		}
		break;
	}
	if (want)
		return set_err(err, "%s: %s: expected %s, got %s", fname, path, want, loader_json_type_name(v));
	if (cfg_set_value(lc->cfg, path, text, &e)) {
		set_err(err, "%s: %s", fname, e);
		free(e);
		return -1;
	}
	return 0;
}

static bool is_section_prefix(const char *path)
{
	size_t n = strlen(path), count = cfg_param_count();
	for (size_t i = 0; i < count; i++) {
		const char *p = cfg_param_at(i)->path;
		if (strncmp(p, path, n) == 0 && p[n] == '.')
			return true;
	}
	return false;
}

static int walk_item(struct load_ctx *lc, const char *fname, const cJSON *it, const char *prefix, char **err);

static int walk_object(struct load_ctx *lc, const char *fname, const cJSON *obj, const char *prefix,
		       char **err)
{
	for (const cJSON *it = obj->child; it; it = it->next) {
		const char *key = it->string ? it->string : "";
		/* JSON parsers keep one of two equal keys silently; say so instead. */
		for (const cJSON *p = obj->child; p != it; p = p->next)
			if (p->string && strcmp(p->string, key) == 0) {
				set_err(err, "%s: %s%s%s: given twice in the same object (remove one; no value would be used "
					     "silently)",
					fname, prefix ? prefix : "", prefix ? "." : "", key);
				if (lc->nkeys < (int)ARRAY_LEN(lc->keys))
					lc->keys[lc->nkeys] = key;
				lc->nkeys++;
				int rc = locate(lc, fname, err);
				lc->nkeys--;
				return rc ? rc : -1;
			}
		if (key[0] == '_' || (!prefix && strcmp(key, "extends") == 0))
			continue;
		if (lc->nkeys < (int)ARRAY_LEN(lc->keys))
			lc->keys[lc->nkeys] = key;
		lc->nkeys++;
		int rc = walk_item(lc, fname, it, prefix, err);
		lc->nkeys--;
		if (rc)
			return -1;
	}
	return 0;
}

static int walk_item(struct load_ctx *lc, const char *fname, const cJSON *it, const char *prefix, char **err)
{
	char path[256];
	snprintf(path, sizeof path, "%s%s%s", prefix ? prefix : "", prefix ? "." : "", it->string ? it->string : "");
	if (cJSON_IsObject(it)) {
		if (cfg_find(path)) {
			set_param(lc, fname, path, it, err); /* reports the type mismatch */
			return locate(lc, fname, err);
		}
		if (!is_section_prefix(path)) {
			char *e = NULL;
			cfg_set_value(lc->cfg, path, "", &e);
			set_err(err, "%s: %s", fname, e);
			free(e);
			return locate(lc, fname, err);
		}
		return walk_object(lc, fname, it, path, err);
	}
	if (!cfg_find(path) && is_section_prefix(path)) {
		set_err(err, "%s: %s: expected an object of %s.* keys, got %s", fname, path, path, loader_json_type_name(it));
		return locate(lc, fname, err);
	}
	if (set_param(lc, fname, path, it, err))
		return locate(lc, fname, err);
	return 0;
}

static int load_named(struct load_ctx *lc, const char *spec, const char *from, char **err);

static int apply_text(struct load_ctx *lc, const char *text, const char *fname, char **err)
{
	cJSON *root = loader_parse_json(text, fname, err);
	if (!root)
		return -1;
	int rc = 0;
	if (!cJSON_IsObject(root)) {
		rc = set_err(err, "%s: expected a JSON object at the top level, got %s", fname, loader_json_type_name(root));
		goto out;
	}
	const cJSON *ext = cJSON_GetObjectItemCaseSensitive(root, "extends");
	if (ext) {
		if (cJSON_IsString(ext)) {
			rc = load_named(lc, ext->valuestring, fname, err);
		} else if (cJSON_IsArray(ext)) {
			for (const cJSON *e = ext->child; e && !rc; e = e->next) {
				if (!cJSON_IsString(e))
					rc = set_err(err, "%s: extends: expected names or files, got %s", fname,
						     loader_json_type_name(e));
				else
					rc = load_named(lc, e->valuestring, fname, err);
			}
		} else {
			rc = set_err(err, "%s: extends: expected a name, a file or an array of them, got %s", fname,
				     loader_json_type_name(ext));
		}
		if (rc)
			goto out;
	}
	const char *saved_text = lc->text;
	int saved_nkeys = lc->nkeys;
	lc->text = text;
	lc->nkeys = 0;
	rc = walk_object(lc, fname, root, NULL, err);
	lc->text = saved_text;
	lc->nkeys = saved_nkeys;
out:
	cJSON_Delete(root);
	return rc;
}

/* Resolve spec relative to `from` (a file or embedded path, or NULL), then
 * as an embedded preset. Fills either *disk or *emb. */
static int resolve(const char *spec, const char *from, char *disk, size_t n, const struct embedded_file **emb)
{
	*emb = NULL;
	disk[0] = 0;
	bool has_ext = (strlen(spec) > 5 && strcmp(spec + strlen(spec) - 5, ".json") == 0) || loader_is_ini(spec);
	if (from && spec[0] != '/') {
		const char *slash = strrchr(from, '/');
		int dl = slash ? (int)(slash - from) + 1 : 0;
		char cand[512];
		snprintf(cand, sizeof cand, "%.*s%s%s", dl, from, spec, has_ext ? "" : ".json");
		if (embedded_find(from) && !loader_is_file(from)) {
			/* An embedded file extends its neighbours in the embedded tree. */
			if ((*emb = embedded_find(cand)) != NULL)
				return 0;
		} else {
			for (int withext = 0; withext < 2 && !(withext && has_ext); withext++) {
				snprintf(cand, sizeof cand, "%.*s%s%s", dl, from, spec, withext ? ".json" : "");
				if (loader_is_file(cand)) {
					snprintf(disk, n, "%s", cand);
					return 0;
				}
			}
		}
	} else if (loader_is_file(spec)) {
		snprintf(disk, n, "%s", spec);
		return 0;
	}
	char name[512];
	const char *s = spec;
	if (strncmp(s, "configs/", 8) == 0)
		s += 8;
	snprintf(name, sizeof name, "configs/%s%s", s, has_ext ? "" : ".json");
	if ((*emb = embedded_find(name)) != NULL)
		return 0;
	return -1;
}

static int load_named(struct load_ctx *lc, const char *spec, const char *from, char **err)
{
	char disk[512];
	const struct embedded_file *emb;
	if (resolve(spec, from, disk, sizeof disk, &emb)) {
		if (from)
			return set_err(err, "%s: extends: no file or preset '%s' (see gpustep --list-presets)", from,
				       spec);
		char dym[96];
		loader_suggest(LOADER_PRESETS, spec, dym, sizeof dym);
		return set_err(err, "%s: no such file or preset%s (see gpustep --list-presets)", spec, dym);
	}
	const char *id = emb ? emb->path : disk;
	for (int i = 0; i < lc->depth; i++)
		if (strcmp(lc->stack[i], id) == 0) {
			struct strbuf sb;
			sb_init(&sb);
			for (int j = i; j < lc->depth; j++)
				sb_printf(&sb, "%s -> ", lc->stack[j]);
			sb_puts(&sb, id);
			set_err(err, "%s: extends cycle: %s", from ? from : id, sb.s);
			sb_fini(&sb);
			return -1;
		}
	if (lc->depth == MAX_DEPTH)
		return set_err(err, "%s: extends nested more than %d deep", id, MAX_DEPTH);
	char *owned = NULL;
	const char *text;
	if (emb) {
		text = emb->data;
	} else {
		owned = loader_read_file_max(disk, "config", LOADER_TEXT_MAX, NULL, err);
		if (!owned)
			return -1;
		text = owned;
	}
	char *idcopy = xstrdup(id);
	lc->stack[lc->depth++] = idcopy;
	int rc;
	if (loader_is_ini(id)) { /* a DRAMSim3 config: dram.* only (engine/dram/dram_ini.c) */
		struct strbuf nb;
		sb_init(&nb);
		rc = dram_ini_apply(lc->cfg, text, strlen(text), idcopy, &nb, err);
		if (!rc && nb.len && lc->notes)
			sb_printf(lc->notes, "%s%s: %s", lc->notes->len ? "\n" : "", idcopy, nb.s + 2);
		sb_fini(&nb);
	} else if (gpgpusim_is_config(id, text)) { /* GPGPU-Sim / Accel-Sim (load/gpgpusim.c) */
		struct strbuf nb;
		sb_init(&nb);
		rc = gpgpusim_apply(lc->cfg, idcopy, text, strlen(text), NULL, &nb, err);
		if (!rc && nb.len && lc->notes)
			sb_printf(lc->notes, "%s%s", lc->notes->len ? "\n" : "", nb.s);
		sb_fini(&nb);
	} else {
		rc = apply_text(lc, text, idcopy, err);
	}
	lc->depth--;
	free(idcopy);
	free(owned);
	return rc;
}

int loader_load_config(const char *spec, struct sim_cfg *cfg, char **err)
{
	return loader_load_config_notes(spec, cfg, NULL, err);
}

int loader_load_config_notes(const char *spec, struct sim_cfg *cfg, struct strbuf *notes, char **err)
{
	struct load_ctx lc = {.depth = 0, .cfg = cfg, .notes = notes};
	return load_named(&lc, spec, NULL, err);
}

bool loader_is_ini(const char *path)
{
	size_t n = strlen(path);
	return n > 4 && strcasecmp(path + n - 4, ".ini") == 0;
}

int loader_apply_config_text(const char *text, const char *fname, struct sim_cfg *cfg, char **err)
{
	struct load_ctx lc = {.depth = 1, .cfg = cfg};
	lc.stack[0] = fname;
	return apply_text(&lc, text, fname, err);
}

int loader_apply_override(struct sim_cfg *cfg, const char *assignment, char **err)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment)
		return set_err(err, "expected PATH=VALUE, got '%s'", assignment);
	char path[256];
	snprintf(path, sizeof path, "%.*s", (int)(eq - assignment), assignment);
	return cfg_set_value(cfg, path, eq + 1, err);
}

bool loader_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- listings ----------------------------------------------------------- */
void loader_suggest(enum loader_kind kind, const char *name, char *buf, size_t n)
{
	size_t k = 0;
	char **v = loader_names(kind, &k);
	const char *best = NULL;
	unsigned bd = 3, len = (unsigned)strlen(name);
	for (size_t i = 0; i < k; i++) {
		unsigned d = str_edit_distance(name, v[i]);
		if (d < bd && d < len) {
			bd = d;
			best = v[i];
		}
	}
	if (best)
		snprintf(buf, n, "; did you mean %s?", best);
	else if (n)
		buf[0] = 0;
	loader_names_free(v);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **loader_names(enum loader_kind kind, size_t *n)
{
	char **v = xcalloc(n_embedded_files + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i < n_embedded_files; i++) {
		const char *p = embedded_files[i].path;
		bool ini = kind == LOADER_DRAM_PRESETS && loader_is_ini(p); /* listed with ".ini" */
		if (!loader_ends_with(p, ".json") && !ini)
			continue;
		const char *rest = NULL;
		if (kind == LOADER_KERNELS && strncmp(p, "configs/workloads/", 18) == 0)
			rest = p + 18;
		else if (kind == LOADER_LESSONS && strncmp(p, "configs/lessons/", 16) == 0)
			rest = p + 16;
		else if (kind == LOADER_DRAM_PRESETS && strncmp(p, "configs/dram/", 13) == 0)
			rest = p + 8; /* keep "dram/" */
		else if (kind == LOADER_PRESETS && strncmp(p, "configs/", 8) == 0 && !strchr(p + 8, '/'))
			rest = p + 8;
		if (!rest || strchr(kind == LOADER_DRAM_PRESETS ? rest + 5 : rest, '/'))
			continue;
		v[k++] = ini ? xstrdup(rest) : xasprintf("%.*s", (int)(strlen(rest) - 5), rest);
	}
	qsort(v, k, sizeof(char *), cmp_str);
	if (n)
		*n = k;
	return v;
}

void loader_names_free(char **names)
{
	for (size_t i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

char *loader_description(enum loader_kind kind, const char *name)
{
	char path[512];
	bool ini = loader_is_ini(name);
	snprintf(path, sizeof path, "configs/%s%s%s", kind == LOADER_KERNELS ? "workloads/" : "", name, ini ? "" : ".json");
	const struct embedded_file *e = embedded_find(path);
	if (!e)
		return xstrdup("");
	if (ini) { /* a DRAMSim3 .ini preset: its second comment line says what it is */
		const char *l = strchr(e->data, '\n');
		l = l ? l + 1 : e->data;
		l += strspn(l, "; ");
		return xasprintf("%.*s", (int)strcspn(l, "\n"), l);
	}
	cJSON *root = cJSON_Parse(e->data);
	const cJSON *d = root ? cJSON_GetObjectItemCaseSensitive(root, "description") : NULL;
	char *s = xstrdup(cJSON_IsString(d) ? d->valuestring : "");
	cJSON_Delete(root);
	return s;
}
