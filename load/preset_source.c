/*
 * preset_source.c: a preset against its source configuration (see
 * preset_source.h).
 */
#include "preset_source.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cJSON.h"
#include "embedded.h"
#include "gpgpusim.h"
#include "loader.h"

int preset_source_name(const char *json_text, const char *json_name, char **src, char **err)
{
	*src = NULL;
	cJSON *root = cJSON_Parse(json_text);
	if (!root)
		return set_err(err, "%s: not valid JSON", json_name);
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(root, "_source_config");
	int rc = 0;
	if (s && !cJSON_IsString(s))
		rc = set_err(err, "%s: _source_config: expected a string (a GPGPU-Sim config under configs/)", json_name);
	else if (s)
		*src = xstrdup(s->valuestring);
	cJSON_Delete(root);
	return rc;
}

/* The reason documented for key, or NULL. */
static const char *reason_of(const cJSON *dev, const char *key)
{
	const cJSON *r = dev ? cJSON_GetObjectItemCaseSensitive(dev, key) : NULL;
	return cJSON_IsString(r) ? r->valuestring : NULL;
}

/* Keys of the newline-separated list, each once, in first-set order. */
static size_t unique_keys(char *list, char **out, size_t cap)
{
	size_t n = 0;
	for (char *k = strtok(list, "\n"); k && n < cap; k = strtok(NULL, "\n")) {
		size_t i = 0;
		while (i < n && strcmp(out[i], k) != 0)
			i++;
		if (i == n)
			out[n++] = k;
	}
	return n;
}

int preset_source_compare(const char *json_text, const char *json_name, const struct sim_cfg *cfg,
			  const char *src_name, const char *src_text, struct strbuf *out, struct preset_check *pc,
			  char **err)
{
	memset(pc, 0, sizeof *pc);
	cJSON *root = cJSON_Parse(json_text);
	if (!root)
		return set_err(err, "%s: not valid JSON", json_name);
	const cJSON *dev = cJSON_GetObjectItemCaseSensitive(root, "_deviations");
	if (dev && !cJSON_IsObject(dev)) {
		cJSON_Delete(root);
		return set_err(err, "%s: _deviations: expected an object of \"key\": \"reason\"", json_name);
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, dev) if (!cJSON_IsString(it) || !it->valuestring[0])
	{
		int rc = set_err(err, "%s: _deviations.%s: expected a reason (a non-empty string)", json_name, it->string);
		cJSON_Delete(root);
		return rc;
	}
	struct sim_cfg src;
	cfg_defaults(&src);
	struct strbuf keys;
	sb_init(&keys);
	if (gpgpusim_apply_keys(&src, src_name, src_text, strlen(src_text), NULL, NULL, &keys, err)) {
		sb_fini(&keys);
		cJSON_Delete(root);
		return -1;
	}
	char *k[1024];
	size_t nk = keys.s ? unique_keys(keys.s, k, sizeof k / sizeof k[0]) : 0;
	struct strbuf body;
	sb_init(&body);
	for (size_t i = 0; i < nk; i++) {
		const struct cfg_param *p = cfg_find(k[i]);
		if (!p)
			continue;
		char a[128], b[128];
		cfg_format(cfg, p, a, sizeof a);
		cfg_format(&src, p, b, sizeof b);
		pc->compared++;
		const char *why = reason_of(dev, k[i]);
		if (strcmp(a, b) == 0) {
			if (why) {
				pc->stale++;
				sb_printf(&body, "  %-26s %s, as the source: STALE _deviations entry (remove it): %s\n", k[i], a,
					  why);
			}
			continue;
		}
		if (why) {
			pc->documented++;
			sb_printf(&body, "  %-26s %s (source %s): %s\n", k[i], a, b, why);
		} else {
			pc->undocumented++;
			sb_printf(&body, "  %-26s %s (source %s): UNDOCUMENTED: %s has no _deviations entry for it\n",
				  k[i], a, b, json_name);
		}
	}
	cJSON_ArrayForEach(it, dev)
	{
		size_t i = 0;
		while (i < nk && strcmp(k[i], it->string) != 0)
			i++;
		if (i == nk) {
			pc->stale++;
			sb_printf(&body, "  %-26s STALE _deviations entry: %s does not set this key (remove it)\n",
				  it->string, src_name);
		}
	}
	sb_printf(out, "%s against its source %s (GPGPU-Sim syntax): %u keys compared, %u differ with a reason",
		  json_name, src_name, pc->compared, pc->documented);
	if (pc->undocumented)
		sb_printf(out, ", %u UNDOCUMENTED", pc->undocumented);
	if (pc->stale)
		sb_printf(out, ", %u STALE", pc->stale);
	sb_printf(out, "\n%s", body.s ? body.s : "");
	sb_fini(&body);
	sb_fini(&keys);
	cJSON_Delete(root);
	return 0;
}

/* The text of a config file: a file on disk, else an embedded one. */
static char *read_any(const char *disk, const char *emb_path, char **err)
{
	struct stat st;
	if (disk && stat(disk, &st) == 0 && S_ISREG(st.st_mode)) {
		size_t len;
		return loader_read_file(disk, &len, err);
	}
	const struct embedded_file *e = embedded_find(emb_path);
	if (!e) {
		set_err(err, "no file or built-in config '%s'", disk ? disk : emb_path);
		return NULL;
	}
	char *t = xmalloc(e->size + 1);
	memcpy(t, e->data, e->size);
	t[e->size] = 0;
	return t;
}

int preset_source_report(const char *spec, const struct sim_cfg *cfg, FILE *out, struct preset_check *pc,
			 char **err)
{
	memset(pc, 0, sizeof *pc);
	struct stat st;
	bool disk = stat(spec, &st) == 0 && S_ISREG(st.st_mode);
	size_t sl = strlen(spec);
	if (disk && (sl < 5 || strcmp(spec + sl - 5, ".json") != 0))
		return 0; /* an .ini or GPGPU-Sim file: no preset */
	char emb[512];
	snprintf(emb, sizeof emb, "configs/%s.json", spec);
	char *json = read_any(disk ? spec : NULL, emb, err);
	if (!json)
		return -1;
	char *src = NULL;
	if (preset_source_name(json, spec, &src, err)) {
		free(json);
		return -1;
	}
	int rc = 0;
	if (src) {
		/* Beside a JSON file on disk; under configs/ for a built-in preset. */
		char dpath[1024], epath[512];
		const char *slash = strrchr(spec, '/');
		snprintf(dpath, sizeof dpath, "%.*s%s", disk && slash ? (int)(slash - spec) + 1 : 0, spec, src);
		snprintf(epath, sizeof epath, "configs/%s", src);
		char *text = read_any(disk ? dpath : NULL, epath, err);
		if (!text) {
			char *why = *err;
			*err = NULL;
			rc = set_err(err, "%s: _source_config: %s", spec, why ? why : src);
			free(why);
		} else {
			struct strbuf o;
			sb_init(&o);
			rc = preset_source_compare(json, spec, cfg, disk ? dpath : epath, text, &o, pc, err);
			if (!rc)
				fputs(o.s ? o.s : "", out);
			sb_fini(&o);
			free(text);
		}
	}
	free(src);
	free(json);
	return rc;
}
