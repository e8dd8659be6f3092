/*
 * legend.h: what every column and mark of every panel means (legend.c), for
 * `help PANEL`, the F1 overlay and docs/TUI.md.
 */
#ifndef GPUSTEP_VIEWS_LEGEND_H
#define GPUSTEP_VIEWS_LEGEND_H

#include <stddef.h>

#include "sim/util.h"

struct legend_item {
	const char *term; /* a column header or mark as the panel draws it */
	const char *text;
};

struct legend {
	const char *panel;
	const char *intro;
	const struct legend_item *items; /* ends with {NULL, NULL} */
};

size_t legend_count(void);
const struct legend *legend_at(size_t i);
const struct legend *legend_find(const char *panel);
/* "panel: intro" then one line per item, wrapped at width, into sb. */
void legend_text(const struct legend *l, int width, struct strbuf *sb);

#endif
