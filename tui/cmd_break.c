/*
 * cmd_break.c: breakpoints and watchpoints at the command line: `break`,
 * `tbreak`, `watch`, `until` (a one-shot breakpoint, then run), `delete`,
 * `enable`, `disable`, `ignore`, `condition` (engine/debug/bp.h does the matching;
 * `info break` is in cmd_info.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "sim/event.h"

/* Rest of the line after the command word, as typed. */
void cmd_join_args(int argc, char **argv, int from, char *buf, size_t n)
{
	buf[0] = 0;
	size_t len = 0;
	for (int i = from; i < argc && len < n; i++) {
		int w = snprintf(buf + len, n - len, "%s%s", i > from ? " " : "", argv[i]);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

/* Tell the event log which kinds the breakpoints now watch. */
static void cmd_rewatch(struct session *ss) { events_update_watch(sim_events(ss->sim)); }

CMD_FN(cmd_until)
{
	char args[512], *err = NULL;
	if (argc < 2)
		return cmd_usage(out, "until");
	if (cmd_need_running(ss, out))
		return CMD_ERR;
	uint64_t c, now = sim_cycle(ss->sim);
	if (argc == 3 && strcmp(argv[1], "cycle") == 0 && cmd_parse_u64(argv[2], &c) == 0 && c <= now) {
		/* It would never fire and run to the end of the kernel. */
		if (c == now)
			cmd_errorf(out, "until: already at cycle %llu", (unsigned long long)c);
		else
			cmd_errorf(out, "until: cycle %llu is already past (now at cycle %llu); `goto %llu` goes back there",
				   (unsigned long long)c, (unsigned long long)now, (unsigned long long)c);
		return CMD_ERR;
	}
	cmd_join_args(argc, argv, 1, args, sizeof args);
	int id = bp_add_until(&ss->bps, args, session_line_bytes(ss), &err);
	if (id < 0) {
		cmd_errorf(out, "until: %s", err);
		free(err);
		return CMD_ERR;
	}
	cmd_rewatch(ss);
	session_start_run(ss, RUN_FOREVER, 0);
	ss->until_id = id;
	return CMD_RUN;
}

static void print_bp_line(struct session *ss, struct cmd_out *out, const char *label, int id)
{
	struct bp *b = bp_get(&ss->bps, id);
	if (b)
		cmd_printf(out, "%s %d: %s", label, id, strchr(b->text, ' ') ? strchr(b->text, ' ') + 1 : b->text);
}

static int add_break(struct session *ss, int argc, char **argv, struct cmd_out *out, bool temp)
{
	char args[512], *err = NULL;
	cmd_join_args(argc, argv, 1, args, sizeof args);
	int id = temp ? bp_add_tbreak(&ss->bps, args, session_line_bytes(ss), &err)
		      : bp_add_break(&ss->bps, args, session_line_bytes(ss), &err);
	if (id < 0) {
		cmd_errorf(out, "%s: %s", temp ? "tbreak" : "break", err);
		free(err);
		return CMD_ERR;
	}
	cmd_rewatch(ss);
	print_bp_line(ss, out, temp ? "Temporary breakpoint" : "Breakpoint", id);
	const struct bp *b = bp_get(&ss->bps, id);
	if (b->type == BP_CYCLE && b->cycle < sim_cycle(ss->sim))
		cmd_printf(out, "(cycle %llu is already past, now at cycle %llu: it stops there after `run` or going back)",
			   (unsigned long long)b->cycle, (unsigned long long)sim_cycle(ss->sim));
	char warn[240];
	if (session_bp_never_matches(ss, id, warn, sizeof warn)) /* sm=99999999999 on 80 SMs */
		cmd_printf(out, "%s", warn);
	return CMD_OK;
}

CMD_FN(cmd_break)
{
	if (argc == 1) {
		char *a[] = {(char *)"info", (char *)"break", NULL};
		return cmd_info(ss, 2, a, out);
	}
	return add_break(ss, argc, argv, out, false);
}

CMD_FN(cmd_tbreak)
{
	if (argc < 2)
		return cmd_usage(out, "tbreak");
	return add_break(ss, argc, argv, out, true);
}

static int bp_number(struct session *ss, const char *s, struct cmd_out *out)
{
	uint64_t id;
	if (cmd_parse_u64(s, &id) || id > 1000000000 || !bp_get(&ss->bps, (int)id)) {
		cmd_errorf(out, "no breakpoint number '%s' (see info break)", s);
		return -1;
	}
	return (int)id;
}

CMD_FN(cmd_ignore)
{
	uint64_t count;
	if (argc != 3)
		return cmd_usage(out, "ignore");
	int id = bp_number(ss, argv[1], out);
	if (id < 0)
		return CMD_ERR;
	if (cmd_parse_u64(argv[2], &count)) {
		cmd_errorf(out, "ignore: COUNT must be a number of hits, got '%s'", argv[2]);
		return CMD_ERR;
	}
	bp_set_ignore(&ss->bps, id, count, NULL);
	if (count == 0)
		cmd_printf(out, "Will stop next time breakpoint %d is reached.", id);
	else
		cmd_printf(out, "Will ignore next %llu crossing%s of breakpoint %d.", (unsigned long long)count,
			   count == 1 ? "" : "s", id);
	return CMD_OK;
}

CMD_FN(cmd_condition)
{
	if (argc < 2)
		return cmd_usage(out, "condition");
	int id = bp_number(ss, argv[1], out);
	if (id < 0)
		return CMD_ERR;
	char cond[512], *err = NULL;
	cmd_join_args(argc, argv, 2, cond, sizeof cond);
	if (bp_set_condition(&ss->bps, id, cond, &err)) {
		cmd_errorf(out, "condition: %s", err);
		free(err);
		return CMD_ERR;
	}
	if (cond[0])
		print_bp_line(ss, out, "Breakpoint", id);
	else
		cmd_printf(out, "Breakpoint %d now unconditional.", id);
	return CMD_OK;
}

CMD_FN(cmd_watch)
{
	if (argc < 2)
		return cmd_usage(out, "watch");
	char args[512], *err = NULL;
	cmd_join_args(argc, argv, 1, args, sizeof args);
	int id = bp_add_watch(&ss->bps, args, session_line_bytes(ss), &err);
	if (id < 0) {
		cmd_errorf(out, "watch: %s", err);
		free(err);
		return CMD_ERR;
	}
	cmd_rewatch(ss);
	struct bp *b = bp_get(&ss->bps, id);
	if (b->type == BP_WATCH_ADDR)
		cmd_printf(out, "Watchpoint %d: line 0x%llx (%llu bytes)", id, (unsigned long long)b->line_addr,
			   (unsigned long long)b->line_bytes);
	else
		print_bp_line(ss, out, "Watchpoint", id);
	return CMD_OK;
}

static int for_each_id(struct session *ss, int argc, char **argv, struct cmd_out *out, int what)
{
	int rc = CMD_OK;
	for (int i = 1; i < argc; i++) {
		uint64_t id;
		if (cmd_parse_u64(argv[i], &id) || id > 1000000000 || !bp_get(&ss->bps, (int)id)) {
			cmd_errorf(out, "no breakpoint number '%s' (see info break)", argv[i]);
			rc = CMD_ERR;
			continue;
		}
		if (what == 0)
			bp_delete(&ss->bps, (int)id);
		else
			bp_enable(&ss->bps, (int)id, what > 0);
	}
	cmd_rewatch(ss);
	return rc;
}

CMD_FN(cmd_delete)
{
	if (argc == 1) {
		int n = bp_delete(&ss->bps, -1);
		cmd_rewatch(ss);
		cmd_printf(out, "deleted %d breakpoint%s", n, n == 1 ? "" : "s");
		return CMD_OK;
	}
	return for_each_id(ss, argc, argv, out, 0);
}

CMD_FN(cmd_enable)
{
	if (argc < 2)
		return cmd_usage(out, "enable");
	return for_each_id(ss, argc, argv, out, 1);
}

CMD_FN(cmd_disable)
{
	if (argc < 2)
		return cmd_usage(out, "disable");
	return for_each_id(ss, argc, argv, out, -1);
}
