/*
 * kernel.c: compiles a struct kernel_src (kernel.h) into a struct kernel
 * (kernel_int.h), and the read-only accessors. Statements are compiled by
 * kernel_stmt.c, expressions by kexpr.c; execution is kernel_exec.c.
 *
 * Compilation, in order:
 *   1. params: names checked (identifiers, unique, not reserved words);
 *   2. block, then grid (which may use bdx bdy bdz), then array lengths and
 *      bases (which may use block and grid dimensions): constant expressions;
 *   3. arrays placed: an explicit base is taken as is; otherwise at the first
 *      4096-aligned address at or above max(0x10000000, end of the previous
 *      array), in declaration order;
 *   4. statements (kernel_stmt.c).
 *
 * Identifiers resolve by scope: params everywhere; bdx..gdz (constants) in
 * grid, array and alu expressions; the element index i in an array's init
 * expression; thread/block ids, loop variables and val in statement
 * expressions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_int.h"
#include "sim/util.h"

#define AUTO_BASE 0x10000000ull
#define PAGE 4096ull

static const char *const builtin_names[] = {
    "tx",  "ty",  "tz",  "bx",   "by",   "bz",  "bdx", "bdy", "bdz",
    "gdx", "gdy", "gdz", "lane", "warp", "tid", "min", "max", "hash", "val",
};

bool kernel_name_eq(const char *a, const char *s, size_t len)
{
	return strlen(a) == len && !memcmp(a, s, len);
}

static const char *const unit_names[KU__COUNT] = {"sp", "int", "dp", "sfu", "tensor", "branch"};

const char *kunit_name(unsigned u) { return u < KU__COUNT ? unit_names[u] : "?"; }

int kunit_find(const char *s, size_t len)
{
	for (int u = 0; u < KU__COUNT; u++)
		if (kernel_name_eq(unit_names[u], s, len))
			return u;
	return -1;
}

bool kernel_reserved(const char *s, size_t len)
{
	for (size_t i = 0; i < ARRAY_LEN(builtin_names); i++)
		if (kernel_name_eq(builtin_names[i], s, len))
			return true;
	return false;
}

static bool is_ident(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

/* ---- identifier resolution --------------------------------------- */

int kernel_resolve(void *vctx, const char *s, size_t len, struct kexpr_sym *out)
{
	struct cc *cc = vctx;
	const struct kernel *k = cc->k;
	if (cc->scope == SC_INIT && len == 1 && s[0] == 'i') {
		*out = (struct kexpr_sym){KSYM_LANE, KL_IDX};
		return 0;
	}
	if (cc->scope >= SC_DIMS) {
		static const char *const dims[] = {"bdx", "bdy", "bdz", "gdx", "gdy", "gdz"};
		for (unsigned i = 0; i < 6; i++)
			if (kernel_name_eq(dims[i], s, len)) {
				*out = (struct kexpr_sym){KSYM_CONST, i < 3 ? k->block[i] : k->grid[i - 3]};
				return 0;
			}
	}
	if (cc->scope == SC_BODY) {
		static const char *const lanes[] = {"tx", "ty", "tz", "lane", "tid"};
		static const char *const unis[] = {"bx", "by", "bz", "warp"};
		for (unsigned i = 0; i < ARRAY_LEN(lanes); i++)
			if (kernel_name_eq(lanes[i], s, len)) {
				*out = (struct kexpr_sym){KSYM_LANE,
				                          (int64_t)i}; /* same order as enum kexpr_lane */
				return 0;
			}
		for (unsigned i = 0; i < ARRAY_LEN(unis); i++)
			if (kernel_name_eq(unis[i], s, len)) {
				*out = (struct kexpr_sym){KSYM_UNI,
				                          (int64_t)i}; /* same order as enum kexpr_uni */
				return 0;
			}
		if (kernel_name_eq("val", s, len)) {
			cc->used_val = true;
			*out = (struct kexpr_sym){KSYM_LANE, KL_VAL};
			return 0;
		}
		for (unsigned d = cc->depth; d-- > 0;)
			if (cc->open[d].is_loop && kernel_name_eq(cc->open[d].var, s, len)) {
				*out = (struct kexpr_sym){KSYM_UNI, KU_LOOP0 + (int64_t)d};
				return 0;
			}
	}
	for (unsigned i = 0; i < k->nparams; i++)
		if (kernel_name_eq(k->params[i].name, s, len)) {
			*out = (struct kexpr_sym){KSYM_CONST, k->params[i].value};
			return 0;
		}
	return -1;
}

/* Compile a constant expression (grid, block, array fields). */
static int const_expr(struct cc *cc, const char *what, const char *text, int64_t *v)
{
	struct kexpr e;
	struct kexpr_err ee = {0};
	size_t pos = 0;
	uint32_t mark = cc->k->code.n;
	int rc = kexpr_compile(&cc->k->code, text, &pos, kernel_resolve, cc, &e, &ee);
	if (rc == 0 && text[pos] != '\0') {
		ee.col = (unsigned)pos + 1;
		snprintf(ee.msg, sizeof(ee.msg), "unexpected '%c' after the expression", text[pos]);
		rc = -1;
	}
	cc->k->code.n = mark; /* folded to a constant: the code is not needed */
	if (rc)
		return set_err(cc->err, "kernel %s, %s (%s), column %u: %s", cc->kname, what, text, ee.col,
		               ee.msg);
	*v = e.value;
	return 0;
}

/* ---- params, dimensions, arrays -------------------------------------- */

static int compile_params(struct cc *cc, const struct kernel_src *src)
{
	struct kernel *k = cc->k;
	if (src->nparams > KMAX_PARAMS)
		return set_err(cc->err, "kernel %s: %u params, at most %d", cc->kname, src->nparams,
		               KMAX_PARAMS);
	for (unsigned i = 0; i < src->nparams; i++) {
		const char *n = src->params[i].name;
		if (!is_ident(n))
			return set_err(cc->err, "kernel %s, param '%s': not a valid name", cc->kname, n);
		if (kernel_reserved(n, strlen(n)))
			return set_err(cc->err,
			               "kernel %s, param '%s': the name is reserved (built-in identifier)",
			               cc->kname, n);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(k->params[j].name, n))
				return set_err(cc->err, "kernel %s, param '%s': declared twice", cc->kname,
				               n);
		snprintf(k->params[i].name, KNAME_MAX, "%s", n);
		k->params[i].value = src->params[i].value;
		k->nparams = i + 1;
	}
	return 0;
}

static int compile_dims(struct cc *cc, const struct kernel_src *src)
{
	struct kernel *k = cc->k;
	static const char axis[] = "xyz";
	char what[32];
	int64_t v[3];
	cc->scope = SC_PARAMS;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(what, sizeof(what), "block %c", axis[i]);
		if (const_expr(cc, what, src->block[i][0] ? src->block[i] : "1", &v[i]))
			return -1;
		if (v[i] < 1 || v[i] > KMAX_THREADS)
			return set_err(cc->err, "kernel %s, block %c (%s) = %lld: must be 1..%d", cc->kname,
			               axis[i], src->block[i], (long long)v[i], KMAX_THREADS);
		k->block[i] = (uint32_t)v[i];
	}
	k->threads = k->block[0] * k->block[1] * k->block[2];
	if (k->threads > KMAX_THREADS)
		return set_err(cc->err, "kernel %s: block %ux%ux%u has %u threads, at most %d", cc->kname,
		               k->block[0], k->block[1], k->block[2], k->threads, KMAX_THREADS);
	cc->scope = SC_DIMS;
	for (unsigned i = 0; i < 3; i++) {
		snprintf(what, sizeof(what), "grid %c", axis[i]);
		if (const_expr(cc, what, src->grid[i][0] ? src->grid[i] : "1", &v[i]))
			return -1;
		if (v[i] < 1 || v[i] > (1ll << 31))
			return set_err(cc->err,
			               "kernel %s, grid %c (%s) = %lld: must be 1..2^31 (check the params)",
			               cc->kname, axis[i], src->grid[i], (long long)v[i]);
		k->grid[i] = (uint32_t)v[i];
	}
	uint64_t ctas = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
	if (ctas > (1ull << 31))
		return set_err(cc->err, "kernel %s: grid %ux%ux%u has %llu CTAs, at most 2^31", cc->kname,
		               k->grid[0], k->grid[1], k->grid[2], (unsigned long long)ctas);
	k->ctas = (uint32_t)ctas;
	for (unsigned t = 0; t < KMAX_THREADS + KMAX_LANES; t++) {
		k->tx[t] = (uint16_t)(t % k->block[0]);
		k->ty[t] = (uint16_t)(t / k->block[0] % k->block[1]);
		k->tz[t] = (uint16_t)(t / (k->block[0] * k->block[1]));
	}
	return 0;
}

/* The arrays' init expressions (contents of element i), kept as code. */
static int compile_inits(struct cc *cc, const struct kernel_src *src)
{
	struct kernel *k = cc->k;
	cc->scope = SC_INIT;
	for (unsigned a = 0; a < k->narrays; a++) {
		const char *text = src->arrays[a].init;
		if (!text[0])
			continue;
		struct kexpr_err ee = {0};
		size_t pos = 0;
		int rc = kexpr_compile(&k->code, text, &pos, kernel_resolve, cc, &k->arrays[a].init, &ee);
		if (rc == 0 && text[pos] != '\0') {
			ee.col = (unsigned)pos + 1;
			snprintf(ee.msg, sizeof(ee.msg), "unexpected '%c' after the expression", text[pos]);
			rc = -1;
		}
		if (rc)
			return set_err(cc->err, "kernel %s, array %s init (%s), column %u: %s", cc->kname,
			               k->arrays[a].name, text, ee.col, ee.msg);
		k->arrays[a].has_init = true;
	}
	cc->scope = SC_DIMS;
	return 0;
}

static int compile_arrays(struct cc *cc, const struct kernel_src *src)
{
	struct kernel *k = cc->k;
	char what[64];
	uint64_t cursor = AUTO_BASE;
	if (src->narrays > KMAX_ARRAYS)
		return set_err(cc->err, "kernel %s: %u arrays, at most %d", cc->kname, src->narrays,
		               KMAX_ARRAYS);
	cc->scope = SC_DIMS;
	k->foot_lo = UINT64_MAX;
	for (unsigned i = 0; i < src->narrays; i++) {
		const char *n = src->arrays[i].name;
		unsigned elem = src->arrays[i].elem;
		int64_t len, base;
		if (!is_ident(n))
			return set_err(cc->err, "kernel %s, array '%s': not a valid name", cc->kname, n);
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(k->arrays[j].name, n))
				return set_err(cc->err, "kernel %s, array '%s': declared twice", cc->kname,
				               n);
		if (elem != 1 && elem != 2 && elem != 4 && elem != 8 && elem != 16)
			return set_err(cc->err,
			               "kernel %s, array %s: elem = %u, must be 1, 2, 4, 8 or 16 bytes",
			               cc->kname, n, elem);
		snprintf(what, sizeof(what), "array %s len", n);
		if (const_expr(cc, what, src->arrays[i].len, &len))
			return -1;
		if (len < 1 || (uint64_t)len > (1ull << 40) / elem)
			return set_err(cc->err, "kernel %s, array %s: len (%s) = %lld, must be 1..2^40 bytes",
			               cc->kname, n, src->arrays[i].len, (long long)len);
		if (src->arrays[i].base[0]) {
			snprintf(what, sizeof(what), "array %s base", n);
			if (const_expr(cc, what, src->arrays[i].base, &base))
				return -1;
			if (base < 0 || (uint64_t)base > (1ull << 56))
				return set_err(cc->err, "kernel %s, array %s: base (%s) = %lld out of range",
				               cc->kname, n, src->arrays[i].base, (long long)base);
		} else {
			base = (int64_t)((cursor + PAGE - 1) & ~(PAGE - 1));
		}
		snprintf(k->arrays[i].name, KNAME_MAX, "%s", n);
		k->arrays[i].elem = elem;
		k->arrays[i].base = (uint64_t)base;
		k->arrays[i].bytes = (uint64_t)len * elem;
		k->narrays = i + 1;
		uint64_t end = (uint64_t)base + k->arrays[i].bytes;
		cursor = MAX(cursor, end);
		k->foot_lo = MIN(k->foot_lo, (uint64_t)base);
		k->foot_hi = MAX(k->foot_hi, end);
	}
	if (k->narrays == 0)
		k->foot_lo = 0;
	return compile_inits(cc, src);
}

struct kernel *kernel_compile(const struct kernel_src *src, uint64_t seed, char **err)
{
	struct kernel *k = xcalloc(1, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "%s", src->name[0] ? src->name : "(unnamed)");
	snprintf(k->desc, sizeof(k->desc), "%s", src->desc);
	k->nregs = src->nregs ? src->nregs : 32;
	k->shmem_bytes = src->shmem_bytes;
	kexpr_code_init(&k->code, seed);
	struct cc cc = {.k = k, .kname = k->name, .err = err};
	if (k->nregs < 2 || k->nregs > 255) {
		set_err(err, "kernel %s: nregs = %u, must be 2..255", k->name, k->nregs);
		goto fail;
	}
	if (compile_params(&cc, src) || compile_dims(&cc, src) || compile_arrays(&cc, src) ||
	    kstmt_compile_body(&cc, src))
		goto fail;
	return k;
fail:
	kernel_free(k);
	return NULL;
}

void kernel_free(struct kernel *k)
{
	if (!k)
		return;
	kexpr_code_fini(&k->code);
	free(k);
}

int kernel_src_set_param(struct kernel_src *src, const char *name, int64_t value, char **err)
{
	for (unsigned i = 0; i < src->nparams && i < KMAX_PARAMS; i++)
		if (!strcmp(src->params[i].name, name)) {
			src->params[i].value = value;
			return 0;
		}
	struct strbuf sb;
	sb_init(&sb);
	for (unsigned i = 0; i < src->nparams && i < KMAX_PARAMS; i++)
		sb_printf(&sb, "%s%s", i ? ", " : "", src->params[i].name);
	int rc =
	    set_err(err, "kernel %s has no param '%s' (params: %s)", src->name, name, sb.len ? sb.s : "none");
	sb_fini(&sb);
	return rc;
}

/* ---- accessors ------------------------------------------------------ */

const char *kernel_name(const struct kernel *k)
{
	return k->name;
}
const char *kernel_desc(const struct kernel *k)
{
	return k->desc;
}
uint32_t kernel_ctas(const struct kernel *k)
{
	return k->ctas;
}
uint32_t kernel_threads_per_cta(const struct kernel *k)
{
	return k->threads;
}
unsigned kernel_nregs(const struct kernel *k)
{
	return k->nregs;
}
unsigned kernel_shmem_bytes(const struct kernel *k)
{
	return k->shmem_bytes;
}
bool kernel_uses_cop(const struct kernel *k)
{
	for (unsigned i = 0; i < k->nstmts; i++)
		if (k->st[i].cop)
			return true;
	return false;
}

unsigned kernel_nstmts(const struct kernel *k)
{
	return k->nstmts;
}
unsigned kernel_nparams(const struct kernel *k)
{
	return k->nparams;
}

void kernel_grid(const struct kernel *k, uint32_t grid[3], uint32_t block[3])
{
	for (unsigned i = 0; i < 3; i++) {
		grid[i] = k->grid[i];
		block[i] = k->block[i];
	}
}

void kernel_footprint(const struct kernel *k, uint64_t *lo, uint64_t *hi)
{
	*lo = k->foot_lo;
	*hi = k->foot_hi;
}

void kernel_array(const struct kernel *k, unsigned i, const char **name, uint64_t *base, uint64_t *bytes)
{
	*name = k->arrays[i].name;
	*base = k->arrays[i].base;
	*bytes = k->arrays[i].bytes;
}

void kernel_param(const struct kernel *k, unsigned i, const char **name, int64_t *value)
{
	*name = k->params[i].name;
	*value = k->params[i].value;
}

const char *kernel_stmt_text(const struct kernel *k, unsigned stmt)
{
	if (stmt < k->nstmts)
		return k->text[stmt];
	return stmt == k->nstmts ? "exit" : "";
}
