/*
 * cmd_timeline.c: `timeline [l2 BANK SET | follow]`: the L2 set the timeline
 * panel (views/timeline.c) draws as a Gantt chart. Without a fixed set the
 * panel follows the set of the newest L2 event of the selected bank.
 *
 * The chart is rebuilt from the event log, so the command also adds the kinds
 * it needs to the log filter (`log` can take them out again; the panel then
 * says which are missing).
 */
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "session/session.h"
#include "views/view.h"

/* Add the kinds the timeline needs to the log filter; print the ones added. */
static void ensure_logged(struct session *ss, struct cmd_out *out)
{
	struct events *ev = sim_events(ss->sim);
	size_t n;
	const unsigned *k = timeline_kinds(&n);
	struct strbuf sb;
	sb_init(&sb);
	for (size_t i = 0; i < n; i++) {
		uint64_t bit = 1ull << (k[i] & 63);
		if (ss->log_mask[k[i] >> 6] & bit)
			continue;
		ss->log_mask[k[i] >> 6] |= bit;
		sb_printf(&sb, " %s", event_defs[k[i]].name);
	}
	if (!sb.len) {
		sb_fini(&sb);
		return;
	}
	memcpy(ev->log_mask, ss->log_mask, sizeof ev->log_mask);
	events_update_watch(ev);
	cmd_printf(out, "log: now also records%s (the timeline is built from the event log)", sb.s);
	sb_fini(&sb);
}

CMD_FN(cmd_timeline)
{
	if (argc == 1) {
		if (ss->tl_fixed)
			cmd_printf(out, "timeline: l2 bank %d set %d", ss->tl_bank, ss->tl_set);
		else
			cmd_printf(out, "timeline: follows the newest L2 event of the selected bank (%d)", ss->sel_l2);
		return CMD_OK;
	}
	if (argc == 2 && strcmp(argv[1], "follow") == 0) {
		ss->tl_fixed = false;
		cmd_printf(out, "timeline: follows the newest L2 event of the selected bank (%d)", ss->sel_l2);
		ensure_logged(ss, out);
		return CMD_OK;
	}
	if (strcmp(argv[1], "l2") != 0)
		return cmd_usage_why(out, "timeline", "expected l2 or follow, got '%s'", argv[1]);
	if (argc != 4)
		return cmd_usage_why(out, "timeline", "l2 takes a bank and a set");
	int bank, set;
	if (cmd_parse_index(out, "timeline l2 BANK", argv[2], inspect_l2_banks(ss->sim), &bank))
		return CMD_ERR;
	struct cache_geom g;
	if (!inspect_cache_geom(ss->sim, CACHE_L2, bank, &g)) {
		cmd_errorf(out, "timeline: L2 bank %d has no cache", bank);
		return CMD_ERR;
	}
	if (cmd_parse_index(out, "timeline l2 BANK SET", argv[3], g.sets, &set))
		return CMD_ERR;
	ss->tl_bank = bank;
	ss->tl_set = set;
	ss->tl_fixed = true;
	cmd_printf(out, "timeline: l2 bank %d set %d", bank, set);
	ensure_logged(ss, out);
	return CMD_OK;
}
