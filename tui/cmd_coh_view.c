/*
 * cmd_coh_view.c: `select line ADDR | line last`: the cache line whose
 * directory entry the coherence panel shows (views/coherence.c). A break on
 * a coh.* event selects its line the same way (session.c); `line last`
 * returns to following the newest coherence transaction.
 */
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "session/session.h"

int cmd_select_line(struct session *ss, const char *arg, struct cmd_out *out);
int cmd_select_line(struct session *ss, const char *arg, struct cmd_out *out)
{
	if (strcmp(arg, "last") == 0) {
		ss->sel_line_set = false;
		cmd_printf(out, "selected line: the newest coherence transaction's");
		return CMD_OK;
	}
	uint64_t a;
	if (cmd_parse_u64(arg, &a)) {
		cmd_errorf(out, "select line: expected an address (e.g. 0x10000080) or last, got '%s'", arg);
		return CMD_ERR;
	}
	struct cache_geom g;
	uint64_t line = inspect_cache_geom(ss->sim, CACHE_L2, 0, &g) && g.line > 0 ? a & ~(uint64_t)(g.line - 1) : a;
	ss->sel_line = line;
	ss->sel_line_set = true;
	cmd_printf(out, "selected line 0x%llx%s", (unsigned long long)line,
		   inspect_coh_proto(ss->sim) ? "" : " (no coherence protocol: the coherence panel has nothing to show)");
	return CMD_OK;
}
