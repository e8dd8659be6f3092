/*
 * cmd_print.c: print (stats by name or glob, kernel parameters), display and
 * undisplay (expressions printed after every stop). Split from cmd_info.c.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "load/loader.h"
#include "export/stats_json.h"

static bool is_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }

/* ---- print / display --------------------------------------------------------- */
int cmd_print_expr(struct session *ss, const char *expr, const char *prefix, struct cmd_out *out)
{
	const struct stats *st = sim_stats_c(ss->sim);
	struct strbuf sb;
	sb_init(&sb);
	int found = 0;
	if (is_glob(expr)) {
		for (uint32_t i = 0; i < stats_count(st); i++)
			if (fnmatch(expr, stats_def(st, i)->name, 0) == 0) {
				sb.len = 0;
				sb.s[0] = 0;
				stats_format(st, i, &sb);
				cmd_printf(out, "%s%s", found++ ? "" : prefix, sb.s);
			}
		if (!found)
			for (size_t i = 0; i < cfg_param_count(); i++) {
				const struct cfg_param *p = cfg_param_at(i);
				if (fnmatch(expr, p->path, 0) == 0) {
					char v[CFG_STR_MAX];
					cfg_format(&ss->cfg, p, v, sizeof v);
					cmd_printf(out, "%s%s = %s", found++ ? "" : prefix, p->path, v);
				}
			}
	} else {
		int id = stats_find(st, expr);
		const struct cfg_param *p = cfg_find(expr);
		if (id >= 0) {
			stats_format(st, (uint32_t)id, &sb);
			cmd_printf(out, "%s%s", prefix, sb.s);
			found = 1;
		} else if (p) {
			char v[CFG_STR_MAX];
			cfg_format(&ss->cfg, p, v, sizeof v);
			cmd_printf(out, "%s%s = %s", prefix, p->path, v);
			found = 1;
		} else if (strncmp(expr, "param.", 6) == 0) {
			for (unsigned i = 0; i < ss->ksrc.nparams; i++)
				if (strcmp(ss->ksrc.params[i].name, expr + 6) == 0) {
					cmd_printf(out, "%s%s = %lld", prefix, expr, (long long)ss->ksrc.params[i].value);
					found = 1;
				}
		}
	}
	sb_fini(&sb);
	return found ? 0 : -1;
}

static void unknown_expr(struct session *ss, const char *expr, struct cmd_out *out)
{
	const struct stats *st = sim_stats_c(ss->sim);
	const char *best = NULL;
	size_t best_common = 0;
	/* Suggest the stat sharing the longest prefix (cheap and good for dotted names). */
	for (uint32_t i = 0; i < stats_count(st); i++) {
		const char *n = stats_def(st, i)->name;
		size_t k = 0;
		while (n[k] && n[k] == expr[k])
			k++;
		if (k > best_common) {
			best_common = k;
			best = n;
		}
	}
	if (is_glob(expr))
		cmd_errorf(out, "no stat or config value matches '%s' (see list stats)", expr);
	else if (best && best_common >= 3)
		cmd_errorf(out, "unknown stat '%s' (did you mean %s? see list stats)", expr, best);
	else
		cmd_errorf(out, "unknown stat '%s' (see list stats)", expr);
}

CMD_FN(cmd_print)
{
	if (argc < 2) {
		cmd_errorf(out, "usage: print STAT|GLOB|CONFIG.PATH|param.NAME");
		return CMD_ERR;
	}
	int rc = CMD_OK;
	for (int i = 1; i < argc; i++)
		if (cmd_print_expr(ss, argv[i], "", out)) {
			unknown_expr(ss, argv[i], out);
			rc = CMD_ERR;
		}
	return rc;
}

CMD_FN(cmd_display)
{
	if (argc == 1) {
		if (!ss->ndisplays)
			cmd_printf(out, "no displays (add one: display STAT)");
		for (int i = 0; i < ss->ndisplays; i++)
			cmd_printf(out, "%d: %s", i + 1, ss->displays[i]);
		return CMD_OK;
	}
	for (int i = 1; i < argc; i++) {
		if (ss->ndisplays == SESSION_MAX_DISPLAYS) {
			cmd_errorf(out, "display: at most %d displays", SESSION_MAX_DISPLAYS);
			return CMD_ERR;
		}
		char prefix[16];
		snprintf(prefix, sizeof prefix, "%d: ", ss->ndisplays + 1);
		if (cmd_print_expr(ss, argv[i], prefix, out)) {
			unknown_expr(ss, argv[i], out);
			return CMD_ERR;
		}
		ss->displays[ss->ndisplays++] = xstrdup(argv[i]);
	}
	return CMD_OK;
}

CMD_FN(cmd_undisplay)
{
	if (argc == 1) {
		for (int i = 0; i < ss->ndisplays; i++)
			free(ss->displays[i]);
		ss->ndisplays = 0;
		return CMD_OK;
	}
	if (argc > 2)
		return cmd_usage_why(out, "undisplay", "one number, got also '%s'", argv[2]);
	uint64_t v;
	if (!ss->ndisplays) {
		cmd_errorf(out, "undisplay: there are no displays (`display STAT` adds one)");
		return CMD_ERR;
	}
	if (cmd_parse_u64(argv[1], &v) || v < 1 || v > (uint64_t)ss->ndisplays) {
		cmd_errorf(out, "undisplay: expected a display number from 1 to %d (see `display`), got '%s'",
			   ss->ndisplays, argv[1]);
		return CMD_ERR;
	}
	int n = (int)v;
	free(ss->displays[n - 1]);
	memmove(&ss->displays[n - 1], &ss->displays[n], sizeof(char *) * (size_t)(ss->ndisplays - n));
	ss->ndisplays--;
	return CMD_OK;
}

/* ---- info ------------------------------------------------------------------ */
