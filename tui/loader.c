/*
 * loader.c: machine configs and kernels from JSON (see loader.h).
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
#include "dram_ini.h"
#include "embedded.h"

#define MAX_DEPTH 16

const struct embedded_file *embedded_find(const char *path)
{
	for (size_t i = 0; i < n_embedded_files; i++)
		if (strcmp(embedded_files[i].path, path) == 0)
			return &embedded_files[i];
	return NULL;
}

char *loader_read_file(const char *path, size_t *len, char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		set_err(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct strbuf sb;
	sb_init(&sb);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
		if (sb.len + n + 1 > sb.cap) {
			while (sb.len + n + 1 > sb.cap)
				sb.cap *= 2;
			sb.s = xrealloc(sb.s, sb.cap);
		}
		memcpy(sb.s + sb.len, buf, n);
		sb.len += n;
		sb.s[sb.len] = 0;
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

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Parse JSON text; on error name file:line:column from cJSON's error pointer. */
static cJSON *parse_json(const char *text, const char *fname, char **err)
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

static const char *json_type_name(const cJSON *v)
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
static bool json_int_text(const cJSON *v, char *buf, size_t n)
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
				       cJSON_IsString(v) ? v->valuestring : json_type_name(v));
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
			if (!json_int_text(v, text, sizeof text))
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
		return set_err(err, "%s: %s: expected %s, got %s", fname, path, want, json_type_name(v));
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
		set_err(err, "%s: %s: expected an object of %s.* keys, got %s", fname, path, path, json_type_name(it));
		return locate(lc, fname, err);
	}
	if (set_param(lc, fname, path, it, err))
		return locate(lc, fname, err);
	return 0;
}

static int load_named(struct load_ctx *lc, const char *spec, const char *from, char **err);

static int apply_text(struct load_ctx *lc, const char *text, const char *fname, char **err)
{
	cJSON *root = parse_json(text, fname, err);
	if (!root)
		return -1;
	int rc = 0;
	if (!cJSON_IsObject(root)) {
		rc = set_err(err, "%s: expected a JSON object at the top level, got %s", fname, json_type_name(root));
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
						     json_type_name(e));
				else
					rc = load_named(lc, e->valuestring, fname, err);
			}
		} else {
			rc = set_err(err, "%s: extends: expected a name, a file or an array of them, got %s", fname,
				     json_type_name(ext));
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
		if (embedded_find(from) && !is_file(from)) {
			/* An embedded file extends its neighbours in the embedded tree. */
			if ((*emb = embedded_find(cand)) != NULL)
				return 0;
		} else {
			for (int withext = 0; withext < 2 && !(withext && has_ext); withext++) {
				snprintf(cand, sizeof cand, "%.*s%s%s", dl, from, spec, withext ? ".json" : "");
				if (is_file(cand)) {
					snprintf(disk, n, "%s", cand);
					return 0;
				}
			}
		}
	} else if (is_file(spec)) {
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
		return set_err(err, "%s: no such file or preset (see gpustep --list-presets)", spec);
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
		owned = loader_read_file(disk, NULL, err);
		if (!owned)
			return -1;
		text = owned;
	}
	char *idcopy = xstrdup(id);
	lc->stack[lc->depth++] = idcopy;
	int rc;
	if (loader_is_ini(id)) { /* a DRAMSim3 config: dram.* only (engine/dram_ini.c) */
		struct strbuf nb;
		sb_init(&nb);
		rc = dram_ini_apply(lc->cfg, text, strlen(text), idcopy, &nb, err);
		if (!rc && nb.len && lc->notes)
			sb_printf(lc->notes, "%s%s: %s", lc->notes->len ? "\n" : "", idcopy, nb.s + 2);
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

/* ---- kernels ------------------------------------------------------------ */
static int expr_text(const cJSON *v, char *out, size_t n, const char *fname, const char *key, char **err)
{
	if (cJSON_IsNumber(v)) {
		if (!json_int_text(v, out, n))
			return set_err(err, "%s: %s: expected an integer, got %g", fname, key, v->valuedouble);
		return 0;
	}
	if (cJSON_IsString(v)) {
		if (!v->valuestring[0])
			return set_err(err, "%s: %s: empty expression", fname, key);
		if (strlen(v->valuestring) >= n)
			return set_err(err, "%s: %s: expression longer than %zu characters", fname, key, n - 1);
		snprintf(out, n, "%s", v->valuestring);
		return 0;
	}
	return set_err(err, "%s: %s: expected a number or an expression string, got %s", fname, key,
		       json_type_name(v));
}

static int dims(const cJSON *v, char (*out)[64], const char *fname, const char *key, char **err)
{
	for (int i = 0; i < 3; i++)
		snprintf(out[i], 64, "1");
	if (!cJSON_IsArray(v))
		return expr_text(v, out[0], 64, fname, key, err);
	int n = cJSON_GetArraySize(v);
	if (n < 1 || n > 3)
		return set_err(err, "%s: %s: expected 1 to 3 dimensions, got %d", fname, key, n);
	int i = 0;
	for (const cJSON *e = v->child; e; e = e->next, i++) {
		char k[32];
		snprintf(k, sizeof k, "%s[%d]", key, i);
		if (expr_text(e, out[i], 64, fname, k, err))
			return -1;
	}
	return 0;
}

static int small_uint(const cJSON *v, unsigned *out, unsigned max, const char *fname, const char *key, char **err)
{
	char t[32];
	if (!cJSON_IsNumber(v) || !json_int_text(v, t, sizeof t))
		return set_err(err, "%s: %s: expected an integer, got %s", fname, key, json_type_name(v));
	if (v->valuedouble < 0 || v->valuedouble > max)
		return set_err(err, "%s: %s: must be between 0 and %u, got %s", fname, key, max, t);
	*out = (unsigned)v->valuedouble;
	return 0;
}

static bool valid_ident(const char *s)
{
	if (!s[0] || !(s[0] == '_' || (s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

static int kernel_arrays(const cJSON *v, struct kernel_src *k, const char *fname, char **err)
{
	if (!cJSON_IsObject(v))
		return set_err(err, "%s: arrays: expected an object, got %s", fname, json_type_name(v));
	for (const cJSON *a = v->child; a; a = a->next) {
		char key[96];
		snprintf(key, sizeof key, "arrays.%s", a->string);
		if (k->narrays == KMAX_ARRAYS)
			return set_err(err, "%s: arrays: more than %d arrays", fname, KMAX_ARRAYS);
		if (!valid_ident(a->string) || strlen(a->string) >= KNAME_MAX)
			return set_err(err, "%s: %s: array names are identifiers of at most %d characters", fname,
				       key, KNAME_MAX - 1);
		if (!cJSON_IsObject(a))
			return set_err(err, "%s: %s: expected an object {\"elem\": N, \"len\": EXPR}, got %s", fname,
				       key, json_type_name(a));
		unsigned i = k->narrays;
		snprintf(k->arrays[i].name, KNAME_MAX, "%s", a->string);
		bool have_elem = false, have_len = false;
		for (const cJSON *f = a->child; f; f = f->next) {
			char fk[128];
			snprintf(fk, sizeof fk, "%s.%s", key, f->string);
			if (strcmp(f->string, "elem") == 0) {
				if (small_uint(f, &k->arrays[i].elem, 1024, fname, fk, err))
					return -1;
				if (k->arrays[i].elem == 0)
					return set_err(err, "%s: %s: must be at least 1 byte", fname, fk);
				have_elem = true;
			} else if (strcmp(f->string, "len") == 0) {
				if (expr_text(f, k->arrays[i].len, sizeof k->arrays[i].len, fname, fk, err))
					return -1;
				have_len = true;
			} else if (strcmp(f->string, "base") == 0) {
				if (expr_text(f, k->arrays[i].base, sizeof k->arrays[i].base, fname, fk, err))
					return -1;
			} else if (f->string[0] != '_') {
				return set_err(err, "%s: %s: unknown key (one of elem, len, base)", fname, fk);
			}
		}
		if (!have_elem || !have_len)
			return set_err(err, "%s: %s: needs \"%s\"", fname, key, have_elem ? "len" : "elem");
		k->narrays++;
	}
	return 0;
}

static int kernel_params(const cJSON *v, struct kernel_src *k, const char *fname, char **err)
{
	if (!cJSON_IsObject(v))
		return set_err(err, "%s: params: expected an object, got %s", fname, json_type_name(v));
	for (const cJSON *p = v->child; p; p = p->next) {
		char t[32];
		if (k->nparams == KMAX_PARAMS)
			return set_err(err, "%s: params: more than %d parameters", fname, KMAX_PARAMS);
		if (!valid_ident(p->string) || strlen(p->string) >= KNAME_MAX)
			return set_err(err, "%s: params.%s: parameter names are identifiers of at most %d characters",
				       fname, p->string, KNAME_MAX - 1);
		if (!cJSON_IsNumber(p) || !json_int_text(p, t, sizeof t))
			return set_err(err, "%s: params.%s: expected an integer, got %s", fname, p->string,
				       json_type_name(p));
		snprintf(k->params[k->nparams].name, KNAME_MAX, "%s", p->string);
		k->params[k->nparams].value = (int64_t)p->valuedouble;
		k->nparams++;
	}
	return 0;
}

static int kernel_body(const cJSON *v, struct kernel_src *k, const char *fname, char **err)
{
	if (!cJSON_IsArray(v))
		return set_err(err, "%s: body: expected an array of statement strings, got %s", fname,
			       json_type_name(v));
	int i = 0;
	for (const cJSON *s = v->child; s; s = s->next, i++) {
		if (k->nbody == KMAX_STMTS)
			return set_err(err, "%s: body: more than %d statements", fname, KMAX_STMTS);
		if (!cJSON_IsString(s))
			return set_err(err, "%s: body[%d]: expected a statement string, got %s", fname, i,
				       json_type_name(s));
		if (strlen(s->valuestring) >= sizeof k->body[0])
			return set_err(err, "%s: body[%d]: statement longer than %zu characters", fname, i,
				       sizeof k->body[0] - 1);
		snprintf(k->body[k->nbody++], sizeof k->body[0], "%s", s->valuestring);
	}
	if (k->nbody == 0)
		return set_err(err, "%s: body: no statements", fname);
	return 0;
}

int loader_parse_kernel(const char *text, const char *fname, struct kernel_src *k, char **err)
{
	memset(k, 0, sizeof(*k));
	for (int i = 0; i < 3; i++) {
		snprintf(k->grid[i], sizeof k->grid[i], "1");
		snprintf(k->block[i], sizeof k->block[i], "1");
	}
	cJSON *root = parse_json(text, fname, err);
	if (!root)
		return -1;
	int rc = 0;
	bool have_body = false, have_name = false;
	if (!cJSON_IsObject(root)) {
		rc = set_err(err, "%s: expected a kernel object at the top level, got %s", fname, json_type_name(root));
		goto out;
	}
	for (const cJSON *it = root->child; it && !rc; it = it->next) {
		const char *key = it->string;
		if (strcmp(key, "kernel") == 0) {
			if (!cJSON_IsString(it) || !it->valuestring[0] || strlen(it->valuestring) >= sizeof k->name)
				rc = set_err(err, "%s: kernel: expected a name (string of 1 to %zu characters)", fname,
					     sizeof k->name - 1);
			else
				snprintf(k->name, sizeof k->name, "%s", it->valuestring);
			have_name = true;
		} else if (strcmp(key, "description") == 0) {
			if (!cJSON_IsString(it))
				rc = set_err(err, "%s: description: expected a string, got %s", fname, json_type_name(it));
			else
				snprintf(k->desc, sizeof k->desc, "%s", it->valuestring);
		} else if (strcmp(key, "grid") == 0) {
			rc = dims(it, k->grid, fname, "grid", err);
		} else if (strcmp(key, "block") == 0) {
			rc = dims(it, k->block, fname, "block", err);
		} else if (strcmp(key, "params") == 0) {
			rc = kernel_params(it, k, fname, err);
		} else if (strcmp(key, "arrays") == 0) {
			rc = kernel_arrays(it, k, fname, err);
		} else if (strcmp(key, "nregs") == 0) {
			rc = small_uint(it, &k->nregs, 255, fname, "nregs", err);
		} else if (strcmp(key, "shmem") == 0) {
			rc = small_uint(it, &k->shmem_bytes, 1u << 20, fname, "shmem", err);
		} else if (strcmp(key, "body") == 0) {
			rc = kernel_body(it, k, fname, err);
			have_body = true;
		} else if (key[0] != '_') {
			rc = set_err(err,
				     "%s: %s: unknown key (kernel keys: kernel, description, grid, block, params, "
				     "arrays, nregs, shmem, body)",
				     fname, key);
		}
	}
	if (!rc && !have_name)
		rc = set_err(err, "%s: missing \"kernel\" (the kernel's name)", fname);
	if (!rc && !have_body)
		rc = set_err(err, "%s: missing \"body\" (the statements)", fname);
out:
	cJSON_Delete(root);
	return rc;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcmp(s + a - b, suffix) == 0;
}

int loader_load_kernel(const char *spec, struct kernel_src *out, char **err)
{
	char path[512];
	bool looks_like_file = strchr(spec, '/') || ends_with(spec, ".json");
	if (!looks_like_file) {
		snprintf(path, sizeof path, "configs/workloads/%s.json", spec);
		const struct embedded_file *e = embedded_find(path);
		if (e)
			return loader_parse_kernel(e->data, path, out, err);
	}
	if (is_file(spec)) {
		if (!ends_with(spec, ".json"))
			return set_err(err, "%s: not a kernel JSON file (trace workloads are not supported yet)", spec);
		char *text = loader_read_file(spec, NULL, err);
		if (!text)
			return -1;
		int rc = loader_parse_kernel(text, spec, out, err);
		free(text);
		return rc;
	}
	const struct embedded_file *e = embedded_find(spec);
	if (e)
		return loader_parse_kernel(e->data, spec, out, err);
	return set_err(err, "%s: no such built-in kernel or file (see gpustep --list-kernels)", spec);
}

int loader_kernel_set_param(struct kernel_src *k, const char *name, const char *value, char **err)
{
	char *end;
	errno = 0;
	long long v = strtoll(value, &end, 0);
	if (!*value || *end || errno)
		return set_err(err, "param.%s: expected an integer, got '%s'", name, value);
	for (unsigned i = 0; i < k->nparams; i++)
		if (strcmp(k->params[i].name, name) == 0) {
			k->params[i].value = v;
			return 0;
		}
	struct strbuf sb;
	sb_init(&sb);
	for (unsigned i = 0; i < k->nparams; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", k->params[i].name);
	set_err(err, "param.%s: kernel %s has no such parameter (%s%s)", name, k->name,
		k->nparams ? "params: " : "it has none", sb.s);
	sb_fini(&sb);
	return -1;
}

/* ---- listings ----------------------------------------------------------- */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **loader_names(enum loader_kind kind, size_t *n)
{
	char **v = xcalloc(n_embedded_files + 1, sizeof(char *));
	size_t k = 0;
	for (size_t i = 0; i < n_embedded_files; i++) {
		const char *p = embedded_files[i].path;
		bool ini = kind == LOADER_DRAM_PRESETS && loader_is_ini(p); /* listed with ".ini" */
		if (!ends_with(p, ".json") && !ini)
			continue;
		const char *rest = NULL;
		if (kind == LOADER_KERNELS && strncmp(p, "configs/workloads/", 18) == 0)
			rest = p + 18;
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
