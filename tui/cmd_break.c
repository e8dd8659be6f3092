/*
 * cmd_break.c: breakpoints and watchpoints at the command line: `break`,
 * `watch`, `until` (a one-shot breakpoint, then run), `delete`, `enable`,
 * `disable` (engine/bp.h does the matching; `info break` is in cmd_info.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "event.h"

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

void cmd_rewatch(struct session *ss) { events_update_watch(sim_events(ss->sim)); }

CMD_FN(cmd_until)
{
	char args[512], *err = NULL;
	if (argc < 2)
		return cmd_usage(out, "until");
	if (cmd_need_running(ss, out))
		return CMD_ERR;
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

CMD_FN(cmd_break)
{
	if (argc == 1) {
		char *a[] = {(char *)"info", (char *)"break", NULL};
		return cmd_info(ss, 2, a, out);
	}
	char args[512], *err = NULL;
	cmd_join_args(argc, argv, 1, args, sizeof args);
	int id = bp_add_break(&ss->bps, args, session_line_bytes(ss), &err);
	if (id < 0) {
		cmd_errorf(out, "break: %s", err);
		free(err);
		return CMD_ERR;
	}
	cmd_rewatch(ss);
	print_bp_line(ss, out, "Breakpoint", id);
	char warn[240];
	if (session_bp_never_matches(ss, id, warn, sizeof warn)) /* sm=99999999999 on 80 SMs */
		cmd_printf(out, "%s", warn);
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
