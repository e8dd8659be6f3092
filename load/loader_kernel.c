/*
 * loader_kernel.c: kernels from JSON (the kernel language's file form, see
 * docs/KERNELS.md): arrays, params, dims and the body, checked with messages
 * that name the file and the key; built-in kernels come from the embedded
 * configs/workloads/. Machine configs are loaded in loader.c.
 */
#include "loader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cJSON.h"
#include "embedded.h"
#include "loader_int.h"

/* ---- kernels ------------------------------------------------------------ */
static int expr_text(const cJSON *v, char *out, size_t n, const char *fname, const char *key, char **err)
{
	if (cJSON_IsNumber(v)) {
		if (!loader_json_int_text(v, out, n))
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
		       loader_json_type_name(v));
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
	if (!cJSON_IsNumber(v) || !loader_json_int_text(v, t, sizeof t))
		return set_err(err, "%s: %s: expected an integer, got %s", fname, key, loader_json_type_name(v));
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
		return set_err(err, "%s: arrays: expected an object, got %s", fname, loader_json_type_name(v));
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
				       key, loader_json_type_name(a));
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
			} else if (strcmp(f->string, "init") == 0) {
				if (expr_text(f, k->arrays[i].init, sizeof k->arrays[i].init, fname, fk, err))
					return -1;
			} else if (f->string[0] != '_') {
				return set_err(err, "%s: %s: unknown key (one of elem, len, base, init)", fname, fk);
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
		return set_err(err, "%s: params: expected an object, got %s", fname, loader_json_type_name(v));
	for (const cJSON *p = v->child; p; p = p->next) {
		char t[32];
		if (k->nparams == KMAX_PARAMS)
			return set_err(err, "%s: params: more than %d parameters", fname, KMAX_PARAMS);
		if (!valid_ident(p->string) || strlen(p->string) >= KNAME_MAX)
			return set_err(err, "%s: params.%s: parameter names are identifiers of at most %d characters",
				       fname, p->string, KNAME_MAX - 1);
		if (!cJSON_IsNumber(p) || !loader_json_int_text(p, t, sizeof t))
			return set_err(err, "%s: params.%s: expected an integer, got %s", fname, p->string,
				       loader_json_type_name(p));
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
			       loader_json_type_name(v));
	int i = 0;
	for (const cJSON *s = v->child; s; s = s->next, i++) {
		if (k->nbody == KMAX_STMTS)
			return set_err(err, "%s: body: more than %d statements", fname, KMAX_STMTS);
		if (!cJSON_IsString(s))
			return set_err(err, "%s: body[%d]: expected a statement string, got %s", fname, i,
				       loader_json_type_name(s));
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
	cJSON *root = loader_parse_json(text, fname, err);
	if (!root)
		return -1;
	int rc = 0;
	bool have_body = false, have_name = false;
	if (!cJSON_IsObject(root)) {
		rc = set_err(err, "%s: expected a kernel object at the top level, got %s", fname, loader_json_type_name(root));
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
				rc = set_err(err, "%s: description: expected a string, got %s", fname, loader_json_type_name(it));
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

int loader_load_kernel(const char *spec, struct kernel_src *out, char **err)
{
	char path[512];
	bool looks_like_file = strchr(spec, '/') || loader_ends_with(spec, ".json");
	if (!looks_like_file) {
		snprintf(path, sizeof path, "configs/workloads/%s.json", spec);
		const struct embedded_file *e = embedded_find(path);
		if (e)
			return loader_parse_kernel(e->data, path, out, err);
	}
	if (loader_is_file(spec)) {
		if (!loader_ends_with(spec, ".json"))
			return set_err(err, "%s: not a kernel JSON file (trace workloads are not supported yet)", spec);
		char *text = loader_read_file_max(spec, "kernel", LOADER_TEXT_MAX, NULL, err);
		if (!text)
			return -1;
		int rc = loader_parse_kernel(text, spec, out, err);
		free(text);
		return rc;
	}
	const struct embedded_file *e = embedded_find(spec);
	if (e)
		return loader_parse_kernel(e->data, spec, out, err);
	char dym[96] = "";
	if (!looks_like_file)
		loader_suggest(LOADER_KERNELS, spec, dym, sizeof dym);
	return set_err(err, "%s: no such built-in kernel or file%s (see gpustep --list-kernels)", spec, dym);
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

