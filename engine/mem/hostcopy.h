/*
 * hostcopy.h: host-to-device copies of a workload (sim.h struct wl_copy, the
 * MemcpyHtoD lines of an Accel-Sim kernel list) and what they do to the
 * machine, chosen by trace.memcpy:
 *
 *   ignore   counted (trace.memcpy.copies / .bytes and the trace.memcpy
 *            event), nothing else: the caches stay as they were
 *   l2_fill  every line of [addr, addr + bytes) is installed in the L2 bank
 *            and set the address map gives it (l2_install_line, l2.c), as a
 *            clean, fully valid line, victims chosen by the L2 replacement
 *            policy; dirty victims are written back to memory
 *
 *   kernel list:  MemcpyHtoD A | MemcpyHtoD B | kernel-1 | MemcpyHtoD C | kernel-2
 *   applied:      ---- when kernel 0 starts ----          -- when kernel 1 starts --
 *                 (its first dispatch cycle)              (every CTA of kernel 0 done)
 *
 * A copy takes no simulated time: it is applied in the cycle its kernel
 * starts, in the dispatch phase, before that kernel's first CTA. The number
 * of copies applied lives in the arena (state.copies_done), so running,
 * stepping and rewinding across a copy give the same machine.
 */
#ifndef GPUSTEP_HOSTCOPY_H
#define GPUSTEP_HOSTCOPY_H

#include <stdint.h>

/* Per-line result of l2_install_line (l2.c). */
enum l2_install {
	L2I_INSTALLED,    /* installed over an invalid or clean victim */
	L2I_INSTALLED_WB, /* installed; the dirty victim was written back */
	L2I_PRESENT,      /* already valid: every sector marked valid, dirty bits kept, touched */
	L2I_SKIPPED,      /* left alone: the line or every victim is busy, see l2_install_line */
	L2I__COUNT
};

enum { HC_COPIES, HC_BYTES, HC_LINES, HC_PRESENT, HC_SKIPPED, HC_WRITEBACKS, HC__STATS };

struct sim;
struct workload;

/* Check a workload's copies against its kernel count (sim_new): -1 with *err. */
int hostcopy_check(const struct workload *wl, unsigned nkernels, char **err);
/* Register trace.memcpy.* (only when the workload has copies). */
void hostcopy_register_stats(struct sim *s);
/* Apply, in order, every copy not yet applied that precedes kernel k. */
void hostcopy_run(struct sim *s, uint32_t k);

#endif
