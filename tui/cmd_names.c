/*
 * cmd_names.c: names typed at the prompt that are not quite right: the
 * closest command or `info` subject for "did you mean", and gdb's
 * abbreviations of `info` subjects (`info b`, `info br` = `info break`).
 */
#include <string.h>

#include "cmd_int.h"

/* The candidate closest to word by edit distance, if close enough for a
 * "did you mean" (about a third of its letters), else NULL. */
static const char *cmd_closest(const char *word, const char *const *cands, size_t n)
{
	const char *best = NULL;
	unsigned bd = 99;
	for (size_t i = 0; i < n; i++) {
		unsigned d = str_edit_distance(word, cands[i]);
		if (d < bd) {
			bd = d;
			best = cands[i];
		}
	}
	size_t len = strlen(word);
	unsigned limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	return bd <= limit && bd < len ? best : NULL;
}

/* The command name (or alias) closest to an unknown word, or NULL. */
const char *cmd_closest_command(const struct session *ss, const char *word)
{
	const char *c[256];
	char aliases[64][16];
	size_t n = 0, na = 0;
	for (size_t i = 0; i < cmd_count(ss) && n < 256; i++) {
		const struct cmd_def *d = cmd_at(ss, i);
		c[n++] = d->name;
		for (const char *p = d->aliases; p && *p && na < 64 && n < 256;) {
			size_t w = strcspn(p, " ");
			if (w > 1 && w < sizeof aliases[0]) { /* one-letter aliases suggest nothing useful */
				memcpy(aliases[na], p, w);
				aliases[na][w] = 0;
				c[n++] = aliases[na++];
			}
			p += w;
			while (*p == ' ')
				p++;
		}
	}
	return cmd_closest(word, c, n);
}

/* `info` subjects; gdb's abbreviations: a unique prefix, and any prefix of
 * "breakpoints" (info b, info br) means break, as in gdb. */
static const char *const info_subjects[] = {"break", "breakpoints", "watch", "watchpoints", "stats", "config",
					    "sm", "warp", "rf", "line", "l2", "frc", "channel", "ch", "bank", "mshr",
					    "events", "display", "coalesce", "stalls", "duel", "threads"};

const char *cmd_info_subject(const char *w, struct cmd_out *out)
{
	size_t n = ARRAY_LEN(info_subjects), len = strlen(w);
	for (size_t i = 0; i < n; i++)
		if (strcmp(w, info_subjects[i]) == 0)
			return w;
	if (len && strncmp(w, "breakpoints", len) == 0)
		return "break";
	const char *found = NULL;
	int matches = 0;
	for (size_t i = 0; len && i < n; i++)
		if (strncmp(info_subjects[i], w, len) == 0 && (!found || strncmp(found, info_subjects[i], strlen(found)) != 0)) {
			found = info_subjects[i];
			matches++;
		}
	if (matches == 1)
		return found;
	if (matches > 1) {
		struct strbuf sb;
		sb_init(&sb);
		for (size_t i = 0; i < n; i++)
			if (strncmp(info_subjects[i], w, len) == 0)
				sb_printf(&sb, "%s%s", sb.len ? ", " : "", info_subjects[i]);
		cmd_errorf(out, "info: ambiguous subject '%s' (%s)", w, sb.s);
		sb_fini(&sb);
		return NULL;
	}
	const char *s = cmd_closest(w, info_subjects, n);
	cmd_errorf(out, "info: unknown subject '%s'%s%s%s (break, stats, config, sm, warp, rf, line, l2, frc, "
			"channel, bank, mshr, events, display, coalesce, stalls, duel, threads)",
		   w, s ? " (did you mean " : "", s ? s : "", s ? "?)" : "");
	return NULL;
}

