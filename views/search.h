/*
 * search.h: the little `/` input line that events and stats share. While the
 * user types, the panel is modal (gets every key); Enter keeps the filter,
 * Esc clears it, Backspace edits.
 */
#ifndef GPUSTEP_VIEWS_SEARCH_H
#define GPUSTEP_VIEWS_SEARCH_H

#include <stdbool.h>

#include "view.h"

struct search {
	char text[64];
	bool editing;
};

/* Handle a key for panel p. '/' starts editing when not modal. Returns VK_ flags;
 * *changed tells whether the filter text changed. */
int search_key(struct search *s, struct panel *p, int key, bool *changed);
/* Title text: "/text_" while editing, "filter: text" when set, "" otherwise. */
void search_label(const struct search *s, char *buf, int n);

#endif
