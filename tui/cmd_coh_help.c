/*
 * cmd_coh_help.c: `protocol [si|nmoesi|moesi]` (also `help protocol`): print a
 * coherence protocol's tables (L1: state x event -> actions, next state;
 * directory: state x message -> actions, next state) from engine/coh_*.c,
 * the same rows that drive the engine, in the text coh_l1_row_text /
 * coh_dir_row_text give the protocol panel too. Without an argument, the
 * machine's coherence.protocol; the last L1 transition taken is marked '>'.
 */
#include <string.h>

#include "coh/coh.h"
#include "cmd_int.h"
#include "debug/inspect.h"

CMD_FN(cmd_protocol);
CMD_FN(cmd_protocol)
{
	const struct coh_proto *p = argc > 1 ? coh_proto_find(argv[1]) : inspect_coh_proto(ss->sim);
	if (!p) {
		if (argc > 1)
			cmd_errorf(out, "protocol: unknown protocol '%s' (si, nmoesi, moesi)", argv[1]);
		else
			cmd_errorf(out, "protocol: coherence.protocol is none; name one: protocol si|nmoesi|moesi");
		return CMD_ERR;
	}
	unsigned lf = CS__COUNT, lt = CS__COUNT, le = CE__COUNT;
	uint64_t lc = 0;
	bool mine = p == inspect_coh_proto(ss->sim) && inspect_coh_last_transition(ss->sim, &lf, &lt, &le, &lc);
	int taken = mine ? coh_l1_lookup(p, lf, le) : -1; /* the exact row (state, event) */
	cmd_printf(out, "%s: %s", p->name, p->summary);
	cmd_printf(out, "L1 table (state  event -> next  actions  note)%s", mine ? "; > = last transition taken" : "");
	char row[320];
	for (unsigned i = 0; i < p->nl1; i++) {
		const struct coh_l1_row *r = &p->l1[i];
		coh_l1_row_text(r, row, sizeof row);
		bool hl = mine && (taken >= 0 ? (int)i == taken : r->state == lf && r->next == lt);
		cmd_printf(out, "%c %s", hl ? '>' : ' ', row);
	}
	cmd_printf(out, "directory table (state  message -> next  actions  note)");
	for (unsigned i = 0; i < p->ndir; i++) {
		coh_dir_row_text(&p->dir[i], row, sizeof row);
		cmd_printf(out, "  %s", row);
	}
	return CMD_OK;
}
