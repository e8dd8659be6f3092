/*
 * loader_int.h: JSON helpers shared by the config loader (loader.c) and the
 * kernel loader (loader_kernel.c). Not for other files: they use loader.h.
 */
#ifndef GPUSTEP_LOADER_INT_H
#define GPUSTEP_LOADER_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "cJSON.h"

/* A regular file exists at path. */
bool loader_is_file(const char *path);
/* The JSON document in text, or NULL with *err naming fname, line and column.
 * The caller frees it with cJSON_Delete. */
cJSON *loader_parse_json(const char *text, const char *fname, char **err);
/* "a string", "an object", ...: a value's JSON type for messages. */
const char *loader_json_type_name(const cJSON *v);
/* An integral JSON number as decimal text; false if it is not an integer. */
bool loader_json_int_text(const cJSON *v, char *buf, size_t n);
/* s ends with suffix. */
bool loader_ends_with(const char *s, const char *suffix);

#endif
