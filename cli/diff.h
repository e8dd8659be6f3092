/* diff.h: the parts of `gpustep diff` (cli/diff.c) the tests and the fuzz
 * target call. */
#ifndef GPUSTEP_CLI_DIFF_H
#define GPUSTEP_CLI_DIFF_H

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "session/whatif.h"

/* text (len bytes, untrusted) as a stats document: 0 with *doc (caller
 * deletes), or -1 and *err naming `name` and what is wrong. */
int diff_parse_stats(const char *text, size_t len, const char *name, cJSON **doc, char **err);
/* The numeric stats that differ, ranked (whatif_stat_rank), without
 * per-unit copies of a total unless all; names point into a. *v is the
 * caller's to free. */
int diff_compare(const cJSON *a, const cJSON *b, bool all, struct whatif_stat **v, uint32_t *m, uint32_t *only_a,
		 uint32_t *only_b);

#endif
