/*
 * cmd_machine.c: the commands that change or check the machine: `select` a
 * unit for the panels, `set` a config key or kernel parameter, `load` a config
 * (or a session), `workload`, and `check` the invariants. Changes apply from
 * cycle 0 (they return CMD_RESET).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "load/loader.h"

int cmd_select_line(struct session *ss, const char *arg, struct cmd_out *out); /* cmd_coh_view.c */

CMD_FN(cmd_select)
{
	if (argc == 4 && strcmp(argv[1], "mshr") == 0) /* tui/cmd_why.c */
		return cmd_select_mshr(ss, argv[2], argv[3], out);
	if (argc == 1)
		return cmd_usage_why(out, "select", "select what?");
	if (argc == 2)
		return cmd_usage_why(out, "select", "which %s? (a number; for line an address or last)", argv[1]);
	if (argc > 3)
		return cmd_usage_why(out, "select", "one number, got also '%s'", argv[3]);
	const char *u = argv[1];
	int v;
	if (strcmp(u, "line") == 0) /* tui/cmd_coh_view.c */
		return cmd_select_line(ss, argv[2], out);
	if (strcmp(u, "sm") == 0) {
		if (cmd_parse_index(out, "sm", argv[2], inspect_sms(ss->sim), &v))
			return CMD_ERR;
		ss->sel_sm = v;
	} else if (strcmp(u, "warp") == 0) {
		if (cmd_parse_index(out, "warp", argv[2], inspect_warp_slots(ss->sim), &v))
			return CMD_ERR;
		ss->sel_warp = v;
	} else if (strcmp(u, "l2") == 0) {
		if (cmd_parse_index(out, "l2", argv[2], inspect_l2_banks(ss->sim), &v))
			return CMD_ERR;
		ss->sel_l2 = v;
	} else if (strcmp(u, "channel") == 0 || strcmp(u, "ch") == 0) {
		if (cmd_parse_index(out, "channel", argv[2], inspect_dram_channels(ss->sim), &v))
			return CMD_ERR;
		ss->sel_ch = v;
	} else if (strcmp(u, "bank") == 0) {
		struct dram_chan_info ci;
		int nb = inspect_dram_channel(ss->sim, ss->sel_ch, &ci) ? ci.banks : 0;
		if (cmd_parse_index(out, "bank", argv[2], nb, &v))
			return CMD_ERR;
		ss->sel_bank = v;
	} else {
		cmd_errorf(out, "select: unknown unit '%s' (sm, warp, l2, channel, bank, line, mshr)", u);
		return CMD_ERR;
	}
	cmd_printf(out, "selected %s %d", strcmp(u, "ch") == 0 ? "channel" : u, v);
	return CMD_OK;
}

static int report_err(struct cmd_out *out, char *err)
{
	cmd_errorf(out, "%s", err ? err : "failed");
	free(err);
	return CMD_ERR;
}

CMD_FN(cmd_set)
{
	char path[256], value[512];
	if (argc == 2 && strchr(argv[1], '=')) {
		const char *eq = strchr(argv[1], '=');
		snprintf(path, sizeof path, "%.*s", (int)(eq - argv[1]), argv[1]);
		snprintf(value, sizeof value, "%s", eq + 1);
	} else if (argc >= 3) {
		snprintf(path, sizeof path, "%s", argv[1]);
		cmd_join_args(argc, argv, 2, value, sizeof value);
	} else {
		return cmd_usage(out, "set");
	}
	if (strcmp(path, "threads") == 0) {
		/* Results are the same for every count (docs/CONFIG.md): it applies
		 * at once, at any cycle, without going back to cycle 0. */
		struct sim_cfg vc = ss->cfg;
		char *verr = NULL;
		if (cfg_set_value(&vc, path, value, &verr))
			return report_err(out, verr);
		ss->cfg.threads = vc.threads;
		int n = sim_set_threads(ss->sim, vc.threads);
		const char *why = sim_threads_why_one(ss->sim);
		if (why)
			cmd_printf(out, "threads = %d: %d ticking the SMs (%s)", vc.threads, n, why);
		else
			cmd_printf(out, "threads = %d: %d ticking the SMs", vc.threads, n);
		return CMD_OK;
	}
	if (ss->started) {
		/* A key or value that is wrong anyway is named first: `run 0` would
		 * not make `set l1.wayz 4` work. */
		char *verr = NULL;
		struct sim_cfg vc = ss->cfg;
		struct kernel_src *vk = NULL;
		if (strncmp(path, "param.", 6) == 0) {
			vk = xmalloc(sizeof *vk);
			*vk = ss->ksrc;
			loader_kernel_set_param(vk, path + 6, value, &verr);
			free(vk);
		} else {
			cfg_set_value(&vc, path, value, &verr);
		}
		if (verr)
			return report_err(out, verr);
		cmd_errorf(out,
			   "set: the machine is at cycle %llu; config changes apply from cycle 0. "
			   "Use `run 0` to go back to cycle 0 (breakpoints are kept), then `set %s %s`.",
			   (unsigned long long)sim_cycle(ss->sim), path, value);
		return CMD_ERR;
	}
	char *err = NULL;
	if (strncmp(path, "param.", 6) == 0) {
		struct kernel_src *k = xmalloc(sizeof *k);
		*k = ss->ksrc;
		int rc = loader_kernel_set_param(k, path + 6, value, &err);
		if (rc == 0)
			rc = session_set_kernel_src(ss, k, &err);
		free(k);
		if (rc)
			return report_err(out, err);
		cmd_printf(out, "%s = %s", path, value);
		return CMD_RESET;
	}
	struct sim_cfg c = ss->cfg;
	if (cfg_set_value(&c, path, value, &err) || session_set_config(ss, &c, NULL, &err))
		return report_err(out, err);
	char shown[CFG_STR_MAX];
	cfg_format(&ss->cfg, cfg_find(path), shown, sizeof shown);
	cmd_printf(out, "%s = %s", path, shown);
	return CMD_RESET;
}

CMD_FN(cmd_load)
{
	if (argc == 3 && strcmp(argv[1], "session") == 0)
		return cmd_load_session(ss, argv[2], out);
	if (argc != 2)
		return cmd_usage(out, "load");
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	if (loader_load_config(argv[1], &c, &err) || session_set_config(ss, &c, argv[1], &err))
		return report_err(out, err);
	cmd_printf(out, "loaded %s (%s); at cycle 0", argv[1], ss->cfg.name);
	return CMD_RESET;
}

CMD_FN(cmd_workload)
{
	if (argc != 2)
		return cmd_usage(out, "workload");
	char *err = NULL;
	if (session_set_workload(ss, argv[1], &err))
		return report_err(out, err);
	cmd_printf(out, "workload %s: %s; at cycle 0", ss->ksrc.name, ss->ksrc.desc);
	return CMD_RESET;
}


CMD_FN(cmd_check)
{
	if (cmd_no_args(out, "check", argc, argv))
		return CMD_ERR;
	char *err = NULL;
	if (sim_check_invariants(ss->sim, &err)) {
		cmd_errorf(out, "invariant violated at cycle %llu: %s", (unsigned long long)sim_cycle(ss->sim),
			   err ? err : "?");
		free(err);
		return CMD_ERR;
	}
	cmd_printf(out, "invariants hold at cycle %llu", (unsigned long long)sim_cycle(ss->sim));
	return CMD_OK;
}
