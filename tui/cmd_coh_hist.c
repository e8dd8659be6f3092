/*
 * cmd_coh_hist.c: `history ADDR [N]`: the coherence transactions of one
 * cache line, oldest first, read from the engine's transaction log (the one
 * the coherence panel shows, inspect_coh_tx: a ring of the last COH_LOG
 * transactions of all lines, kept in the arena so rewinding restores it).
 * The footer says how far back the log goes, so an empty or short history
 * is never mistaken for "nothing happened". Also the line addresses Tab
 * completion offers after `history` (the newest lines in the log).
 */
#include <stdio.h>
#include <string.h>

#include "cmd_int.h"
#include "coh/coh.h"
#include "debug/inspect.h"
#include "session/session.h"

CMD_FN(cmd_history);

static uint64_t line_mask(const struct sim *s)
{
	struct cache_geom g;
	return inspect_cache_geom(s, CACHE_L2, 0, &g) && g.line > 0 ? ~(uint64_t)(g.line - 1) : ~(uint64_t)0;
}

/* Messages from Data* on travel directory -> L1 (coh.h orders them so). */
static bool from_dir(unsigned m) { return m >= CM_DATA_S && m < CM_L2_REPL; }

static void tx_text(const struct coh_tx_info *t, char *buf, size_t n)
{
	char who[32], st[48] = "";
	const char *kind = "?", *what = "?";
	switch (t->kind) {
	case 0: /* L1 copy: the row (state, event) taken */
		snprintf(who, sizeof who, "sm%d", t->sm);
		kind = "L1";
		what = coh_event_name(t->msg);
		snprintf(st, sizeof st, "%s -> %s", coh_state_name(t->from), coh_state_name(t->to));
		break;
	case 1: /* directory: the row (state, request) taken */
		if (t->sm >= 0)
			snprintf(who, sizeof who, "bank%d (sm%d)", t->bank, t->sm);
		else
			snprintf(who, sizeof who, "bank%d", t->bank);
		kind = "dir";
		what = coh_msg_name(t->msg);
		snprintf(st, sizeof st, "%s -> %s", coh_dstate_name(t->from), coh_dstate_name(t->to));
		break;
	case 2:
		if (from_dir(t->msg))
			snprintf(who, sizeof who, "bank%d -> sm%d", t->bank, t->sm);
		else
			snprintf(who, sizeof who, "sm%d -> bank%d", t->sm, t->bank);
		kind = "msg";
		what = coh_msg_name(t->msg);
		break;
	case 3:
		snprintf(who, sizeof who, "bank%d -> sm%d", t->bank, t->sm);
		kind = "NACK";
		what = coh_msg_name(t->msg);
		snprintf(st, sizeof st, "dir_locked (%s)", coh_dstate_name(t->from));
		break;
	default:
		snprintf(who, sizeof who, "?");
		break;
	}
	if (st[0])
		snprintf(buf, n, "%10llu  %-16s %-4s  %-8s %s", (unsigned long long)t->cycle, who, kind, what, st);
	else
		snprintf(buf, n, "%10llu  %-16s %-4s  %s", (unsigned long long)t->cycle, who, kind, what);
}

/* "the log keeps the last 512 transactions of all lines: all 300 since cycle 0" */
static void print_extent(struct session *ss, struct cmd_out *out)
{
	uint64_t kept, total;
	unsigned cap;
	inspect_coh_log_size(ss->sim, &kept, &total, &cap);
	struct coh_tx_info old;
	if (total <= kept) {
		cmd_printf(out, "record: the log keeps the last %u transactions of all lines; it holds all %llu since cycle 0",
			   cap, (unsigned long long)total);
	} else if (inspect_coh_tx(ss->sim, kept - 1, &old)) {
		cmd_printf(out,
			   "record: the log keeps the last %u transactions of all lines; %llu older ones are gone, so it "
			   "goes back to cycle %llu",
			   cap, (unsigned long long)(total - kept), (unsigned long long)old.cycle);
	}
}

CMD_FN(cmd_history)
{
	uint64_t a, lim = UINT64_MAX;
	if (argc < 2 || argc > 3) {
		cmd_errorf(out, "usage: history ADDR [N]");
		return CMD_ERR;
	}
	if (cmd_parse_u64(argv[1], &a)) {
		cmd_errorf(out, "history: expected a line address (e.g. 0x10000080), got '%s'", argv[1]);
		return CMD_ERR;
	}
	if (argc == 3 && (cmd_parse_u64(argv[2], &lim) || lim == 0)) {
		cmd_errorf(out, "history: N: expected a number of transactions (1 or more), got '%s'", argv[2]);
		return CMD_ERR;
	}
	const struct coh_proto *p = inspect_coh_proto(ss->sim);
	if (!p) {
		cmd_errorf(out, "history: coherence.protocol is none, so no coherence transactions are recorded "
				"(at cycle 0: set coherence.protocol si|nmoesi|moesi)");
		return CMD_ERR;
	}
	uint64_t mask = line_mask(ss->sim), line = a & mask, kept, total, n = 0, first = 0;
	unsigned cap;
	inspect_coh_log_size(ss->sim, &kept, &total, &cap);
	struct coh_tx_info t;
	for (uint64_t i = 0; i < kept && inspect_coh_tx(ss->sim, i, &t); i++)
		if ((t.addr & mask) == line && n++ < lim)
			first = i; /* the oldest one shown */
	if (n == 0) {
		cmd_printf(out, "history of line 0x%llx (%s): no coherence transactions of this line in the log",
			   (unsigned long long)line, p->name);
		print_extent(ss, out);
		return CMD_OK;
	}
	uint64_t shown = n < lim ? n : lim;
	char part[64] = "";
	if (shown < n)
		snprintf(part, sizeof part, " (the newest %llu shown)", (unsigned long long)shown);
	cmd_printf(out, "history of line 0x%llx (%s): %llu transactions in the log%s, oldest first",
		   (unsigned long long)line, p->name, (unsigned long long)n, part);
	cmd_printf(out, "%10s  %-16s %-4s  %-8s %s", "cycle", "where", "kind", "event", "before -> after");
	char buf[160];
	for (uint64_t i = first + 1; i-- > 0;) {
		if (!inspect_coh_tx(ss->sim, i, &t) || (t.addr & mask) != line)
			continue;
		tx_text(&t, buf, sizeof buf);
		cmd_printf(out, "%s", buf);
	}
	print_extent(ss, out);
	return CMD_OK;
}

size_t cmd_history_lines(const struct session *ss, uint64_t *lines, size_t max)
{
	size_t n = 0;
	if (!ss || !ss->sim || !inspect_coh_proto(ss->sim))
		return 0;
	uint64_t mask = line_mask(ss->sim);
	struct coh_tx_info t;
	for (uint64_t i = 0; n < max && inspect_coh_tx(ss->sim, i, &t); i++) {
		uint64_t l = t.addr & mask;
		size_t k = 0;
		while (k < n && lines[k] != l)
			k++;
		if (k == n)
			lines[n++] = l;
	}
	return n;
}
