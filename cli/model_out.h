/*
 * model_out.h: `gpustep model`'s histogram table, ablation notes and JSON
 * document (model_out.c; docs/REUSE.md lists the JSON keys).
 */
#ifndef GPUSTEP_MODEL_OUT_H
#define GPUSTEP_MODEL_OUT_H

#include <stdbool.h>

#include "reuse/rdref.h"
#include "sim/util.h"

void model_print_hist(struct strbuf *out, const struct rdm_cfg *c, const struct rdm_result *r, bool reference);
/* The clamped terms, and a note for each term clamped or reduced. */
void model_print_ablation(struct strbuf *out, const struct rdm_ablation *ab);
void model_print_ref_report(struct strbuf *out, const struct rdr_report *p);

struct model_doc {
	const char *workload;
	bool reference;
	uint64_t threads;
	const struct rdm_cfg *c;
	const struct rdm_result *r;
	const struct rdm_ablation *ab;
	const struct rdr_report *rep; /* reference semantics only, else NULL */
};
/* 0, or -1 with *err naming the file. */
int model_write_json(const char *path, const struct model_doc *d, char **err);

#endif
