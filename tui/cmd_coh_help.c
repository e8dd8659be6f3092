/*
 * cmd_coh_help.c: `protocol [si|nmoesi|moesi]`: print a coherence protocol's
 * tables (L1: state x event -> actions, next state; directory: state x
 * message -> actions, next state) from engine/coh_*.c, the same rows that
 * drive the engine. Without an argument, the machine's coherence.protocol;
 * the last L1 transition taken is marked with '>'.
 */
#include <string.h>

#include "coh.h"
#include "cmd_int.h"
#include "inspect.h"

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
	unsigned lf = CS__COUNT, lt = CS__COUNT;
	uint64_t lc = 0;
	bool mine = p == inspect_coh_proto(ss->sim) && inspect_coh_last_transition(ss->sim, &lf, &lt, &lc);
	cmd_printf(out, "%s: %s", p->name, p->summary);
	cmd_printf(out, "L1 table (state  event -> next  actions  note)%s", mine ? "; > = last transition taken" : "");
	char act[128];
	for (unsigned i = 0; i < p->nl1; i++) {
		const struct coh_l1_row *r = &p->l1[i];
		coh_l1_act_text(r->act, act, sizeof act);
		bool hl = mine && r->state == lf && r->next == lt;
		cmd_printf(out, "%c %-5s %-8s -> %-5s %-28s %s", hl ? '>' : ' ', coh_state_name(r->state),
			   coh_event_name(r->ev), coh_state_name(r->next), act, r->note);
	}
	cmd_printf(out, "directory table (state  message -> next  actions  note)");
	for (unsigned i = 0; i < p->ndir; i++) {
		const struct coh_dir_row *r = &p->dir[i];
		coh_dir_act_text(r->act, act, sizeof act);
		cmd_printf(out, "  %-2s %-8s -> %-2s %-28s %s", coh_dstate_name(r->dstate), coh_msg_name(r->msg),
			   coh_dstate_name(r->next), act, r->note);
	}
	return CMD_OK;
}
