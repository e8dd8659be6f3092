/*
 * session_file.c: save and load sessions (format in session_file.h and
 * docs/SESSIONS.md; the workload lines in session_wl.c).
 *
 *   load:  read ─▶ header/version ─▶ checksum ─▶ parse every line (config
 *          applied to fresh defaults) ─▶ memory check ─▶ workload (carried
 *          kernel, or named and hashed) ─▶ fresh session: params,
 *          breakpoints, displays, log ─▶ replay to the cycle in slices
 *          (session_loader_step: progress, cancel) ─▶ state hash,
 *          selection ─▶ swap with the live session
 */
#include "session_file.h"
#include "session_wl.h"
#include "session_state.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tui/commands.h"
#include "load/embedded.h"
#include "load/loader.h"
#include "debug/snapshot.h"
#include "export/stats_json.h"
#include "load/trace_io.h"
#include "tui/tui.h"

#ifndef GPUSTEP_VERSION
#define GPUSTEP_VERSION "0.0.0"
#endif

#define MAGIC "gpustep-session "
#define MAX_FILE (256u << 20) /* with a machine state (session_state.h) */

static void unescape(char *s)
{
	char *w = s;
	for (; *s; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*w++ = *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s;
		} else {
			*w++ = *s;
		}
	}
	*w = 0;
}

/* Every stat's value at this cycle. (sim_state_hash is exact but only within
 * one process: the arena holds a few pointers to functions, which move
 * between runs.) */
static uint64_t stats_hash(const struct sim *s)
{
	struct stats_json_info info = {"", "", 0};
	char *t = stats_json_string(s, &info);
	uint64_t h = session_fnv1a(t, strlen(t));
	free(t);
	return h;
}

/* ---- save ------------------------------------------------------------------ */
char *session_file_text(const struct session *ss)
{
	return session_file_text_ex(ss, false, NULL);
}

char *session_file_text_ex(const struct session *ss, bool state, char **err)
{
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, MAGIC "%d\n", 1); /* 2 only when it carries a kernel: older gpusteps read the rest */
	sb_puts(&sb, "# gpustep session (docs/SESSIONS.md). Do not edit: the checksum line covers every byte.\n");
	sb_puts(&sb, "gpustep-version " GPUSTEP_VERSION "\n");
	sb_puts(&sb, "config-source ");
	session_put_escaped(&sb, ss->cfg_source);
	sb_puts(&sb, "\n");
	for (size_t i = 0; i < cfg_param_count(); i++) {
		const struct cfg_param *p = cfg_param_at(i);
		char v[CFG_STR_MAX + 32];
		if (p->type == CFG_DOUBLE) { /* exact, unlike the %g of cfg_format, and as short as that allows (59.34) */
			double d = *(const double *)(const void *)((const char *)&ss->cfg + p->offset);
			for (int prec = 15; prec <= 17; prec++)
				if (snprintf(v, sizeof v, "%.*g", prec, d) > 0 && strtod(v, NULL) == d)
					break;
		} else
			cfg_format(&ss->cfg, p, v, sizeof v);
		sb_printf(&sb, "cfg %s=", p->path);
		session_put_escaped(&sb, v);
		sb_puts(&sb, "\n");
	}
	sb_printf(&sb, "seed %" PRIu64 "\n", ss->seed);
	if (session_wl_write(ss, &sb)) /* a workload-json line */
		sb.s[strlen(MAGIC)] = '2';
	for (unsigned i = 0; i < ss->ksrc.nparams && !ss->traces; i++)
		sb_printf(&sb, "param %s=%" PRId64 "\n", ss->ksrc.params[i].name, ss->ksrc.params[i].value);
	for (unsigned i = 0; i < ss->bps.n; i++) {
		const struct bp *b = &ss->bps.v[i];
		if (b->temporary || b->id == ss->until_id)
			continue;
		sb_printf(&sb, "bp %d %s ", b->id, b->enabled ? "on" : "off");
		session_put_escaped(&sb, b->text);
		sb_puts(&sb, "\n");
		/* A replay counts no hit for a disabled breakpoint: its count travels. */
		if (!b->enabled && b->hits)
			sb_printf(&sb, "bp-hits %d %" PRIu64 "\n", b->id, b->hits);
	}
	sb_printf(&sb, "bp-next %d\n", ss->bps.next_id);
	for (int i = 0; i < ss->ndisplays; i++) {
		sb_puts(&sb, "display ");
		session_put_escaped(&sb, ss->displays[i]);
		sb_puts(&sb, "\n");
	}
	sb_puts(&sb, "log");
	unsigned nlog = 0;
	for (unsigned k = 0; k < EV__COUNT; k++)
		if ((ss->log_mask[k >> 6] >> (k & 63)) & 1u) {
			sb_printf(&sb, " %s", event_defs[k].name);
			nlog++;
		}
	sb_puts(&sb, nlog ? "\n" : " none\n");
	sb_printf(&sb, "select sm=%d warp=%d l2=%d ch=%d bank=%d\n", ss->sel_sm, ss->sel_warp, ss->sel_l2, ss->sel_ch,
		  ss->sel_bank);
	if (ss->ui && ss->extra_cmds) {
		sb_printf(&sb, "ui layout %s\n", tui_layout_name(ss->ui));
		if (tui_zoomed(ss->ui)) /* after the layout, which unzooms */
			sb_printf(&sb, "ui zoom %s\n", tui_zoomed(ss->ui));
	} else if (ss->ui_pending) { /* batch mode: keep what the file had */
		for (const char *p = ss->ui_pending; *p;) {
			size_t n = strcspn(p, "\n");
			sb_printf(&sb, "ui %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	sb_printf(&sb, "cycle %" PRIu64 "\n", sim_cycle(ss->sim));
	sb_printf(&sb, "stats-hash %016" PRIx64 "\n", stats_hash(ss->sim));
	if (state) { /* version 3: the machine state, so loading needs no replay */
		sb.s[strlen(MAGIC)] = '3'; /* before the state's signature covers the text */
		if (session_state_write(ss->sim, &sb, NULL, err)) {
			sb_fini(&sb);
			return NULL;
		}
	}
	sb_printf(&sb, "checksum fnv1a64 %016" PRIx64 "\n", session_checksum(sb.s, sb.len));
	return sb.s;
}

int session_save(const struct session *ss, const char *path, char **err)
{
	return session_save_ex(ss, path, false, err);
}

int session_save_ex(const struct session *ss, const char *path, bool state, char **err)
{
	if (ss->dreqs) /* a session file names a kernel or instruction trace, which a DRAM trace is not */
		return set_err(err,
			       "save session: a DRAM-trace session cannot be saved (a session file replays a kernel or "
			       "an instruction trace); restart it with gpustep --dram-trace %s and `goto %llu`",
			       ss->workload_spec, (unsigned long long)sim_cycle(ss->sim));
	char *e = NULL;
	char *text = session_file_text_ex(ss, state, &e);
	if (!text) {
		set_err(err, "save session --state: %s", e ? e : "the machine state cannot be saved");
		free(e);
		return -1;
	}
	int rc = write_file_atomic(path, text, err);
	free(text);
	return rc;
}

/* ---- load ------------------------------------------------------------------ */
#define MAX_LIST 256

struct sfile {
	struct sim_cfg cfg;
	char *cfg_source, *workload, *wl_kind, *log;
	char *wl_json; /* workload-json: the kernel file's text, carried in the session */
	uint64_t wl_hash, seed, cycle, state_hash;
	bool have_wl_hash, have_seed, have_cycle, have_hash, have_cfg, have_log;
	char *params[MAX_LIST], *bps[BP_MAX], *displays[MAX_LIST], *ui[MAX_LIST];
	int nparams, nbps, ndisplays, nui;
	int bp_next;
	char *bp_hits[BP_MAX]; /* "ID N": a disabled breakpoint's hit count */
	int nbp_hits;
	int sel[5];
	bool have_sel;
	struct session_state state; /* version 3: the machine state (session_state.h) */
};

static int parse_u64(const char *s, uint64_t *v, int base)
{
	char *end;
	if (!*s || *s == '-' || *s == ' ')
		return -1;
	*v = strtoull(s, &end, base);
	return *end ? -1 : 0;
}

static int push(char **list, int *n, int max, char *v, const char *what, int line, char **err)
{
	if (*n == max)
		return set_err(err, "line %d: more than %d %s lines", line, max, what);
	list[(*n)++] = v;
	return 0;
}

/* Split into lines (in place) and fill *f. */
static int parse_lines(char *text, struct sfile *f, char **err)
{
	cfg_defaults(&f->cfg);
	int line = 1;
	for (char *p = text; *p; line++) {
		char *nl = strchr(p, '\n');
		if (!nl)
			return set_err(err, "line %d: not terminated (truncated file?)", line);
		*nl = 0;
		char *key = p, *val = strchr(p, ' ');
		p = nl + 1;
		if (line == 1 || key[0] == '#')
			continue;
		if (val)
			*val++ = 0;
		else
			val = nl; /* empty value */
		unescape(val);
		int rc = 0;
		if (strcmp(key, "gpustep-version") == 0) {
		} else if (strcmp(key, "config-source") == 0) {
			f->cfg_source = val;
		} else if (strcmp(key, "cfg") == 0) {
			char *eq = strchr(val, '=');
			if (!eq)
				return set_err(err, "line %d: expected cfg PATH=VALUE", line);
			*eq = 0;
			char *e2 = NULL;
			if (cfg_set_value(&f->cfg, val, eq + 1, &e2)) {
				set_err(err, "line %d: %s (the session comes from an incompatible gpustep?)", line, e2);
				free(e2);
				return -1;
			}
			f->have_cfg = true;
		} else if (strcmp(key, "seed") == 0) {
			rc = parse_u64(val, &f->seed, 10);
			f->have_seed = true;
		} else if (strcmp(key, "workload") == 0) {
			f->workload = val;
		} else if (strcmp(key, "workload-json") == 0) {
			f->wl_json = val;
		} else if (strcmp(key, "workload-hash") == 0) {
			char *sp = strchr(val, ' ');
			if (!sp)
				return set_err(err, "line %d: expected workload-hash KIND HEX", line);
			*sp = 0;
			f->wl_kind = val;
			rc = parse_u64(sp + 1, &f->wl_hash, 16);
			f->have_wl_hash = true;
		} else if (strcmp(key, "param") == 0) {
			rc = push(f->params, &f->nparams, MAX_LIST, val, "param", line, err);
		} else if (strcmp(key, "bp") == 0) {
			rc = push(f->bps, &f->nbps, BP_MAX, val, "bp", line, err);
		} else if (strcmp(key, "bp-hits") == 0) {
			rc = push(f->bp_hits, &f->nbp_hits, BP_MAX, val, "bp-hits", line, err);
		} else if (strcmp(key, "bp-next") == 0) {
			uint64_t v = 0;
			rc = parse_u64(val, &v, 10) || v > 1000000000;
			f->bp_next = (int)v;
		} else if (strcmp(key, "display") == 0) {
			rc = push(f->displays, &f->ndisplays, MAX_LIST, val, "display", line, err);
		} else if (strcmp(key, "log") == 0) {
			f->log = val;
			f->have_log = true;
		} else if (strcmp(key, "select") == 0) {
			rc = sscanf(val, "sm=%d warp=%d l2=%d ch=%d bank=%d", &f->sel[0], &f->sel[1], &f->sel[2], &f->sel[3],
				    &f->sel[4]) != 5;
			f->have_sel = true;
		} else if (strcmp(key, "ui") == 0) {
			rc = push(f->ui, &f->nui, MAX_LIST, val, "ui", line, err);
		} else if (strcmp(key, "cycle") == 0) {
			rc = parse_u64(val, &f->cycle, 10);
			f->have_cycle = true;
		} else if (strcmp(key, "state") == 0 || strcmp(key, "state-data") == 0 || strcmp(key, "state-mac") == 0) {
			rc = session_state_line(&f->state, key, val);
		} else if (strcmp(key, "stats-hash") == 0) {
			rc = parse_u64(val, &f->state_hash, 16);
			f->have_hash = true;
		} else {
			return set_err(err, "line %d: unknown key '%.40s' (written by a different gpustep?)", line, key);
		}
		if (rc)
			return *err ? -1 : set_err(err, "line %d: bad value for %s: '%.60s'", line, key, val);
	}
	if (!f->have_cfg || !f->workload || !f->have_seed || !f->have_cycle)
		return set_err(err, "incomplete: the %s line is missing",
			       !f->have_cfg ? "cfg" : !f->workload ? "workload" : !f->have_seed ? "seed" : "cycle");
	return 0;
}

/* Header, version and checksum; on success the checksum line is cut off. */
static int check_envelope(char *text, size_t len, char **err)
{
	if (memchr(text, 0, len))
		return set_err(err, "not a gpustep session file (binary data)");
	if (strncmp(text, MAGIC, strlen(MAGIC)) != 0)
		return set_err(err, "not a gpustep session file (no '%s' header)", MAGIC "N");
	/* The version is digits up to the end of the line ("3x" and "3 " are not 3). */
	const char *vp = text + strlen(MAGIC);
	size_t nd = strspn(vp, "0123456789");
	if (nd == 0 || nd > 4 || vp[nd] != '\n')
		return set_err(err, "not a gpustep session file (its first line must be '%s' and a version number)",
			       MAGIC "N");
	int ver = atoi(vp);
	if (ver < 1 || ver > SESSION_FILE_VERSION) /* 1: without workload-json, 2: without state */
		return set_err(err, "session format version %d is not supported (this gpustep %s reads versions 1 to %d%s)", ver,
			       GPUSTEP_VERSION, SESSION_FILE_VERSION, ver > SESSION_FILE_VERSION ? "; it is newer" : "");
	if (len == 0 || text[len - 1] != '\n')
		return set_err(err, "truncated: the file does not end with a complete checksum line");
	size_t start = len - 1;
	while (start > 0 && text[start - 1] != '\n')
		start--;
	const char *ck = "checksum fnv1a64 ";
	if (strncmp(text + start, ck, strlen(ck)) != 0)
		return set_err(err, "truncated: the last line is not the checksum line");
	text[len - 1] = 0;
	uint64_t want;
	if (parse_u64(text + start + strlen(ck), &want, 16))
		return set_err(err, "corrupt checksum line");
	uint64_t got = session_checksum(text, start);
	if (got != want)
		return set_err(err, "checksum mismatch (file says %016" PRIx64 ", content gives %016" PRIx64
				    "): the file is corrupt or was edited",
			       want, got);
	text[start] = 0;
	return 0;
}

/* Breakpoint "ID on|off break ARGS" into ns->bps, keeping its number. */
static int add_bp(struct session *ns, char *spec, char **err)
{
	char onoff[4], cmd[8];
	int id, pos = 0;
	if (sscanf(spec, "%d %3s %7s %n", &id, onoff, cmd, &pos) != 3 || id <= 0 || pos == 0)
		return set_err(err, "bad breakpoint line '%.60s'", spec);
	const char *args = spec + pos;
	char *e2 = NULL;
	int nid;
	uint64_t lb = session_line_bytes(ns);
	if (strcmp(cmd, "break") == 0)
		nid = bp_add_break(&ns->bps, args, lb, &e2);
	else if (strcmp(cmd, "watch") == 0)
		nid = bp_add_watch(&ns->bps, args, lb, &e2);
	else
		return set_err(err, "bad breakpoint line '%.60s'", spec);
	if (nid < 0) {
		set_err(err, "breakpoint %d (%s %s): %s", id, cmd, args, e2 ? e2 : "invalid");
		free(e2);
		return -1;
	}
	for (unsigned i = 0; i < ns->bps.n; i++)
		if (ns->bps.v[i].id == id && ns->bps.v[i].id != nid)
			return set_err(err, "breakpoint %d appears twice", id);
	struct bp *b = bp_get(&ns->bps, nid);
	b->id = id;
	bp_enable(&ns->bps, id, strcmp(onoff, "on") == 0);
	if (ns->bps.next_id <= id)
		ns->bps.next_id = id + 1;
	return 0;
}

/* Everything after session_init up to the replay: params, breakpoints,
 * displays, log. */
/* The file's param lines onto kernel k (session_wl_line.fix_kernel). */
static int fix_params(struct kernel_src *k, void *arg, char **err)
{
	const struct sfile *f = arg;
	for (int i = 0; i < f->nparams; i++) {
		const char *eq = strchr(f->params[i], '=');
		if (!eq)
			return set_err(err, "bad param line '%.60s'", f->params[i]);
		char name[128];
		snprintf(name, sizeof name, "%.*s", (int)MIN((size_t)(eq - f->params[i]), sizeof name - 1), f->params[i]);
		if (loader_kernel_set_param(k, name, eq + 1, err))
			return -1;
	}
	return 0;
}

/* params_done: the params went onto the kernel before the machine was
 * built (session_wl_open); otherwise (a trace) they rebuild it here. */
static int build_pre(struct session *ns, struct sfile *f, bool params_done, struct strbuf *notes, char **err)
{
	if (f->nparams && !params_done) {
		struct kernel_src *k = xmalloc(sizeof *k);
		*k = ns->ksrc;
		int rc = fix_params(k, f, err);
		if (!rc)
			rc = session_set_kernel_src(ns, k, err);
		free(k);
		if (rc)
			return -1;
	}
	for (int i = 0; i < f->nbps; i++)
		if (add_bp(ns, f->bps[i], err))
			return -1;
	if (f->bp_next > ns->bps.next_id)
		ns->bps.next_id = f->bp_next;
	bp_rebind(&ns->bps, sim_stats(ns->sim));
	for (int i = 0; i < f->ndisplays && ns->ndisplays < SESSION_MAX_DISPLAYS; i++)
		ns->displays[ns->ndisplays++] = xstrdup(f->displays[i]);
	if (f->have_log) {
		memset(ns->log_mask, 0, sizeof ns->log_mask);
		for (char *tok = strtok(f->log, " "); tok; tok = strtok(NULL, " ")) {
			int k = event_find(tok);
			if (strcmp(tok, "none") == 0)
				continue;
			if (k < 0)
				sb_printf(notes, "note: event kind '%s' in the log filter no longer exists\n", tok);
			else
				ns->log_mask[k >> 6] |= 1ull << (k & 63);
		}
		struct events *ev = sim_events(ns->sim);
		memcpy(ev->log_mask, ns->log_mask, sizeof ev->log_mask);
	}
	events_update_watch(sim_events(ns->sim));
	return 0;
}

/* After the replay (session_loader_step): the state hash, selection, UI.
 * partial: a cancelled start-up load keeps the cycle it reached. */
static int build_post(struct session *ns, struct sfile *f, bool partial, struct strbuf *notes, char **err)
{
	if (sim_cycle(ns->sim) != f->cycle && !partial)
		return set_err(err, "the replay ended at cycle %" PRIu64 ", before the saved cycle %" PRIu64,
			       sim_cycle(ns->sim), f->cycle);
	ns->started = sim_cycle(ns->sim) > 0;
	for (int i = 0; i < f->nbp_hits && sim_cycle(ns->sim) == f->cycle; i++) {
		int id, pos = 0;
		unsigned long long hits;
		struct bp *b;
		if (sscanf(f->bp_hits[i], "%d %llu%n", &id, &hits, &pos) != 2 || f->bp_hits[i][pos])
			return set_err(err, "bad bp-hits line '%.60s'", f->bp_hits[i]);
		if (!(b = bp_get(&ns->bps, id)))
			return set_err(err, "bp-hits for breakpoint %d, which the file does not have", id);
		if (!b->enabled) /* an enabled one counted its own in the replay */
			b->hits = hits;
	}
	if (f->have_hash && sim_cycle(ns->sim) == f->cycle && stats_hash(ns->sim) != f->state_hash)
		sb_printf(notes, "note: the machine state at cycle %" PRIu64 " differs from the saved one "
				 "(saved by a different gpustep build?)\n",
			  f->cycle);
	if (f->have_sel) {
		int *s = f->sel;
		ns->sel_sm = s[0] >= 0 && s[0] < ns->cfg.core.sms ? s[0] : 0;
		ns->sel_warp = s[1] >= 0 && s[1] < 4096 ? s[1] : 0;
		ns->sel_l2 = s[2] >= 0 && s[2] < ns->cfg.l2.banks ? s[2] : 0;
		ns->sel_ch = s[3] >= 0 && s[3] < ns->cfg.dram.channels ? s[3] : 0;
		ns->sel_bank = s[4] >= 0 && s[4] < ns->cfg.dram.banks * ns->cfg.dram.ranks ? s[4] : 0;
	}
	struct strbuf ui;
	sb_init(&ui);
	for (int i = 0; i < f->nui; i++) {
		if (session_ui_line_ok(f->ui[i])) {
			sb_printf(&ui, "%s\n", f->ui[i]);
			continue;
		}
		/* docs/SECURITY.md: a file from someone else runs no command. */
		char shown[64];
		size_t k = 0;
		for (const char *c = f->ui[i]; *c && k < sizeof shown - 4; c++)
			shown[k++] = *c >= 0x20 && *c < 0x7f ? *c : '?';
		snprintf(shown + k, sizeof shown - k, "%s", strlen(f->ui[i]) > k ? "..." : "");
		sb_printf(notes, "note: ignored 'ui %s': a session's ui lines only choose a layout or zoom a panel "
				 "(layout NAME, zoom PANEL; docs/SECURITY.md)\n",
			  shown);
	}
	free(ns->ui_pending);
	ns->ui_pending = f->nui ? xstrdup(ui.s) : NULL;
	sb_fini(&ui);
	return 0;
}

bool session_ui_line_ok(const char *line)
{
	const char *arg = strncmp(line, "layout ", 7) == 0 ? line + 7 : strncmp(line, "zoom ", 5) == 0 ? line + 5 : NULL;
	if (!arg)
		return false;
	size_t n = strspn(arg, "abcdefghijklmnopqrstuvwxyz0123456789_-");
	return n > 0 && n <= 32 && arg[n] == 0;
}

/* ---- the loader: check and build, replay in slices, swap ------------------- */
static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct session_loader {
	char *buf;            /* the file's text; f points into it */
	struct sfile *f;
	struct session *ns;   /* built, replaying towards f->cycle */
	struct strbuf notes;
	char *name;
	bool cancelled;
};

void session_loader_free(struct session_loader *ld)
{
	if (!ld)
		return;
	if (ld->ns) {
		session_fini(ld->ns);
		free(ld->ns);
	}
	sb_fini(&ld->notes);
	free(ld->name);
	if (ld->f)
		session_state_fini(&ld->f->state);
	free(ld->f);
	free(ld->buf);
	free(ld);
}

/* A file with its machine state: put it on the fresh machine instead of
 * replaying. Whatever is wrong with the state, say so and replay. */
static int use_state(struct session_loader *ld, char **err)
{
	struct sfile *f = ld->f;
	struct sim *s = ld->ns->sim;
	const unsigned char *blob = session_state_blob(&f->state);
	char *e = NULL;
	if (!blob) {
		sb_printf(&ld->notes, "note: the saved machine state is damaged (%s); replaying from cycle 0 instead\n",
			  f->state.why);
		return 0;
	}
	char why[200];
	if (session_state_verify(&f->state, why, sizeof why)) { /* docs/SECURITY.md */
		sb_printf(&ld->notes, "note: the saved machine state is not used (%s); replaying from cycle 0 instead\n",
			  why);
		return 0;
	}
	if (sim_state_import(s, blob, f->state.len, &e)) {
		sb_printf(&ld->notes, "note: the saved machine state cannot be used (%s); replaying from cycle 0 instead\n",
			  e);
		free(e);
		return 0;
	}
	/* The machine's own invariants (queues, counts, free lists) must hold on
	 * what came in, before anything runs on it. */
	if (sim_check_invariants(s, &e) == 0 && sim_cycle(s) == f->cycle &&
	    (!f->have_hash || stats_hash(s) == f->state_hash))
		return 0;
	if (e)
		sb_printf(&ld->notes, "note: the saved machine state fails a structural check (%s); replaying from "
				      "cycle 0 instead\n",
			  e);
	else
		sb_printf(&ld->notes, "note: the saved machine state does not give the saved %s; replaying from cycle 0 "
				      "instead\n",
			  sim_cycle(s) != f->cycle ? "cycle" : "statistics");
	free(e);
	e = NULL;
	if (session_reset(ld->ns, err))
		return -1;
	for (unsigned i = 0; i < ld->ns->bps.n; i++) { /* the replay counts them again */
		ld->ns->bps.v[i].hits = 0;
		ld->ns->bps.v[i].was_true = false;
	}
	bp_resync_changes(&ld->ns->bps);
	return 0;
}

struct session_loader *session_loader_new_text(const struct session *ss, const char *text, size_t len,
					       const char *name, char **err)
{
	struct session_loader *ld = xcalloc(1, sizeof *ld);
	ld->buf = xmalloc(len + 1);
	memcpy(ld->buf, text, len);
	ld->buf[len] = 0;
	ld->f = xcalloc(1, sizeof *ld->f);
	ld->name = xstrdup(name);
	sb_init(&ld->notes);
	struct sfile *f = ld->f;
	char *e = NULL;
	if (check_envelope(ld->buf, len, &e))
		goto fail;
	if (strstr(ld->buf, "\nstate ")) /* the signature's text part, before parsing cuts the lines */
		session_state_prepare(&f->state, ld->buf, strlen(ld->buf));
	if (parse_lines(ld->buf, f, &e))
		goto fail;
	f->cfg.seed = f->seed;
	if (cfg_validate(&f->cfg, &e) || session_check_memory(ss->max_memory, &f->cfg, NULL, &e))
		goto fail;
	ld->ns = xcalloc(1, sizeof *ld->ns);
	/* One build: the params go onto the kernel and the rewinding budget is
	 * set before the machine is made (each build copies the whole machine
	 * for its first snapshot: on titanv that was most of a reopen). */
	bool params_done = false;
	struct session_wl_line w = {f->workload, f->wl_kind, f->wl_json, f->have_wl_hash, f->wl_hash,
				    f->nparams ? fix_params : NULL, f, &params_done, ss->snapshot_bytes};
	if (session_wl_open(ld->ns, &w, &f->cfg, f->cfg_source ? f->cfg_source : "", f->seed, &ld->notes, &e)) {
		free(ld->ns);
		ld->ns = NULL;
		goto fail;
	}
	ld->ns->max_memory = ss->max_memory;
	if (ld->ns->snapshot_bytes != ss->snapshot_bytes)
		session_set_snapshot_budget(ld->ns, ss->snapshot_bytes);
	if (build_pre(ld->ns, f, params_done, &ld->notes, &e) || (f->state.have && use_state(ld, &e)))
		goto fail;
	return ld;
fail:
	set_err(err, "%s: %s", name, e ? e : "invalid session file");
	free(e);
	session_loader_free(ld);
	return NULL;
}

struct session_loader *session_loader_new(const struct session *ss, const char *path, char **err)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size > MAX_FILE)
		return set_err(err, "%s: too large for a session file (%lld bytes)", path, (long long)st.st_size), NULL;
	size_t len;
	char *e = NULL;
	char *text = loader_read_file(path, &len, &e);
	if (!text) {
		set_err(err, "%s", e ? e : path);
		free(e);
		return NULL;
	}
	struct session_loader *ld = session_loader_new_text(ss, text, len, path, err);
	free(text);
	return ld;
}

enum session_load_status session_loader_step(struct session_loader *ld, uint64_t budget, uint64_t *simulated)
{
	struct sim *s = ld->ns->sim;
	uint64_t c0 = sim_cycle(s), target = ld->f->cycle;
	while (!ld->cancelled && sim_cycle(s) < target && budget) {
		uint64_t before = sim_cycle(s);
		enum sim_stop why = sim_step(s, MIN(budget, target - before));
		budget -= MIN(budget, sim_cycle(s) - before);
		if (why == SIM_STOP_INTERRUPT) /* Ctrl-C in batch mode (session_loader_interrupt) */
			ld->cancelled = true;
		else if (why == SIM_STOP_DONE)
			break;
		else if (why == SIM_STOP_BREAK) /* counted on the way, as the first run did; not a stop */
			bp_clear_stop(&ld->ns->bps);
		if (sim_cycle(s) == before && why != SIM_STOP_BREAK)
			break;
	}
	if (simulated)
		*simulated += sim_cycle(s) - c0;
	if (ld->cancelled)
		return SESSION_LOAD_CANCELLED;
	return sim_cycle(s) < target && !sim_done(s) ? SESSION_LOAD_MORE : SESSION_LOAD_DONE;
}

void session_loader_interrupt(struct session_loader *ld)
{
	if (ld && ld->ns && ld->ns->sim)
		sim_interrupt(ld->ns->sim);
}

void session_loader_cancel(struct session_loader *ld)
{
	if (ld)
		ld->cancelled = true;
}

void session_loader_progress(const struct session_loader *ld, uint64_t *cycle, uint64_t *target, const char **name)
{
	*cycle = sim_cycle(ld->ns->sim);
	*target = ld->f->cycle;
	*name = ld->name;
}

int session_loader_finish(struct session *ss, struct session_loader *ld, bool partial, struct strbuf *notes,
			  char **err)
{
	char *e = NULL;
	struct session *ns = ld->ns;
	if (build_post(ns, ld->f, partial, &ld->notes, &e)) {
		set_err(err, "%s: %s", ld->name, e ? e : "invalid session file");
		free(e);
		session_loader_free(ld);
		return -1;
	}
	/* Swap: the live session takes the new contents; the old ones are freed. */
	struct session old = *ss;
	*ss = *ns;
	ss->ui = old.ui;
	ss->extra_cmds = old.extra_cmds;
	ss->nextra_cmds = old.nextra_cmds;
	ss->max_memory = old.max_memory;
	sim_set_bps(ss->sim, &ss->bps); /* the sim points at the breakpoint set */
	sim_set_bps(old.sim, &old.bps);
	ss->lesson = old.lesson; /* an open lesson stays open (session_loaded_message says so) */
	old.lesson = NULL;
	session_fini(&old);
	free(ns);
	ld->ns = NULL;
	if (notes)
		sb_puts(notes, ld->notes.s);
	session_loader_free(ld);
	return 0;
}

int session_load_text(struct session *ss, const char *text, size_t len, const char *name, struct strbuf *notes,
		      char **err)
{
	struct session_loader *ld = session_loader_new_text(ss, text, len, name, err);
	if (!ld)
		return -1;
	while (session_loader_step(ld, 1u << 20, NULL) == SESSION_LOAD_MORE)
		;
	return session_loader_finish(ss, ld, false, notes, err);
}

/* Batch mode: Ctrl-C reaches the replaying machine through ss->load_sim
 * (cli.c); on a terminal a progress line on stderr every 2 s. */
int session_load(struct session *ss, const char *path, struct strbuf *notes, char **err)
{
	struct session_loader *ld = session_loader_new(ss, path, err);
	if (!ld)
		return -1;
	ss->load_sim = ld->ns->sim;
	bool tty = isatty(STDERR_FILENO);
	double t0 = wall_now(), shown = t0;
	enum session_load_status st;
	while ((st = session_loader_step(ld, 1u << 16, NULL)) == SESSION_LOAD_MORE) {
		double t = wall_now();
		if (tty && t - shown >= 2.0) {
			shown = t;
			uint64_t c = sim_cycle(ld->ns->sim);
			fprintf(stderr, "\rloading %s: cycle %" PRIu64 " of %" PRIu64 " (%d%%), Ctrl-C cancels ", path, c,
				ld->f->cycle, (int)(100.0 * (double)c / (double)(ld->f->cycle ? ld->f->cycle : 1)));
		}
	}
	if (tty && shown > t0)
		fprintf(stderr, "\r\033[K");
	ss->load_sim = NULL;
	if (st == SESSION_LOAD_CANCELLED) {
		set_err(err, "%s: load cancelled at cycle %" PRIu64 " of %" PRIu64, path, sim_cycle(ld->ns->sim),
			ld->f->cycle);
		session_loader_free(ld);
		return -2;
	}
	return session_loader_finish(ss, ld, false, notes, err);
}

void session_apply_ui(struct session *ss, struct cmd_out *out)
{
	if (!ss->ui || !ss->extra_cmds || !ss->ui_pending)
		return;
	char *ui = ss->ui_pending;
	ss->ui_pending = NULL;
	for (char *line = ui, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = 0;
		if (cmd_exec(ss, line, out) & CMD_ERR)
			cmd_errorf(out, "(ignored: '%s' from the session file)", line);
	}
	free(ui);
}
