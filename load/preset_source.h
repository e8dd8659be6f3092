/*
 * preset_source.h: a preset against the configuration it is named after.
 *
 * A preset that claims to be a machine of GPGPU-Sim / Accel-Sim names that
 * machine's configuration, written in GPGPU-Sim's own syntax, with
 *
 *   "_source_config": "sources/SM7_TITANV.config"    (under configs/, embedded)
 *   "_deviations": { "l2.banks": "why the preset differs", ... }
 *
 * The source is read by the GPGPU-Sim config reader (gpgpusim.h) over the
 * defaults; every gpustep key it sets is compared with the preset's value.
 * A key that differs needs an entry in _deviations saying why; an entry
 * for a key that does not differ (or that the source does not set) is
 * stale. `gpustep PRESET --check-config` prints the comparison and fails on
 * an undocumented or stale deviation, so a preset cannot drift from the
 * machine it cites without saying so (docs/CONFIG.md, "Presets and their
 * sources").
 */
#ifndef GPUSTEP_PRESET_SOURCE_H
#define GPUSTEP_PRESET_SOURCE_H

#include <stdio.h>

#include "sim/config.h"
#include "sim/util.h"

struct preset_check {
	unsigned compared;     /* keys the source sets */
	unsigned documented;   /* differing keys with a reason */
	unsigned undocumented; /* differing keys without one */
	unsigned stale;        /* reasons for keys that do not differ */
};

/* Compare cfg (the preset as loaded) with the source named by the preset's
 * JSON text. src_text is the source config (src_name names it in output).
 * Writes the report to out; 0, or -1 and *err (the JSON or the source
 * cannot be read). */
int preset_source_compare(const char *json_text, const char *json_name, const struct sim_cfg *cfg,
			  const char *src_name, const char *src_text, struct strbuf *out, struct preset_check *pc,
			  char **err);

/* The preset's "_source_config" value (malloc'd), NULL if it has none; -1
 * and *err when the JSON is malformed. */
int preset_source_name(const char *json_text, const char *json_name, char **src, char **err);

/* --check-config for spec (a preset name or a .json path): when its JSON
 * names a source, print the comparison. 0 and *pc (zeroed when there is no
 * source), or -1 and *err. */
int preset_source_report(const char *spec, const struct sim_cfg *cfg, FILE *out, struct preset_check *pc,
			 char **err);

#endif
