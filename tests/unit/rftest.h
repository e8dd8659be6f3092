/*
 * rftest.h: helpers of the register file tests (test_rf.c, test_rf_rmws.c).
 */
#ifndef GPUSTEP_RFTEST_H
#define GPUSTEP_RFTEST_H

#include <stdbool.h>

#include "simtest.h"

/* tk_start with a register count; body = statements separated by ';'. */
bool rf_start(struct tk *t, unsigned threads, unsigned ctas, unsigned nregs, const char *body);
/* The Fig. 7 machine: 2 banks, 16-bit tracks with 2 ports (segment 8), no
 * write buffer, 2 warps per SM. */
void fig7_cfg(struct sim_cfg *c, int remap);

#endif
