/*
 * whatif_int.h: what session/whatif*.c share and nobody else needs.
 */
#ifndef GPUSTEP_WHATIF_INT_H
#define GPUSTEP_WHATIF_INT_H

#include <stdbool.h>

#include "whatif.h"

/* A line to out->print (err false) or out->error; nothing when it is NULL. */
void whatif_printf(const struct whatif_out *o, bool err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define OUT(...) whatif_printf(out, false, __VA_ARGS__)
#define ERR(...) whatif_printf(out, true, __VA_ARGS__)

#endif
