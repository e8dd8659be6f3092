/*
 * cmd_dramq.c: `info bank`'s queue part: the requests waiting for a DRAM
 * bank, oldest first, and what the scheduler does next with why (the dramq
 * panel shows the same through engine/dram/dram_queue.h).
 *
 *   next: PRE now for #0 -- oldest; nothing waiting hits open row 0: precharge it (row conflict)
 *      #  Q      ROW  ADDR           AGE
 *    > 0  rd       1  0x10008400      12
 *      1  rd       0  0x10000480       3  hit
 */
#include <stdio.h>

#include "cmd_int.h"
#include "dram/dram_queue.h"

#define QMAX 64

void info_bank_queue(struct session *ss, int ch, int bank, struct cmd_out *out)
{
	struct dram_pick_info p;
	if (!inspect_dram_pick(ss->sim, ch, bank, &p))
		return;
	char when[32] = "";
	if (p.next_in == 0)
		snprintf(when, sizeof when, " now");
	else if (p.next_in > 0)
		snprintf(when, sizeof when, " in %d cycle%s", p.next_in, p.next_in == 1 ? "" : "s");
	char whom[32] = "";
	if (p.pick >= 0)
		snprintf(whom, sizeof whom, " for #%d", p.pick);
	if (p.cmd[0])
		cmd_printf(out, "  next: %s%s%s -- %s", p.cmd, when, whom, p.why);
	else
		cmd_printf(out, "  next: nothing -- %s", p.why);
	struct dram_qreq_info q[QMAX];
	int n = inspect_dram_queue(ss->sim, ch, bank, q, QMAX);
	if (n <= 0)
		return;
	cmd_printf(out, "     #  Q      ROW  ADDR           AGE");
	for (int i = 0; i < n && i < QMAX; i++)
		cmd_printf(out, "   %c%2d  %-5s %4lld  0x%-10llx %5llu%s%s", i == p.pick ? '>' : ' ', i,
			   q[i].started ? "busy" : q[i].write ? "wr" : "rd", (long long)q[i].row,
			   (unsigned long long)q[i].addr, (unsigned long long)q[i].age, q[i].row_hit ? "  hit" : "",
			   q[i].started ? " (started)" : "");
	if (n > QMAX)
		cmd_printf(out, "  ... %d more", n - QMAX);
}
