/*
 * vtest.c: the off-screen screen, sessions and snapshots for view tests.
 */
#include "vtest.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "views/draw.h"
#include "test.h"
#include "tui/tui.h"
#include "sim/util.h"

#define VT_LINES 80
#define VT_COLS 250

static SCREEN *scr;
static FILE *scr_out, *scr_in;

static void vt_screen_free(void)
{
	if (!scr)
		return;
	endwin();
	delscreen(scr);
	fclose(scr_out);
	fclose(scr_in);
	scr = NULL;
}

void vt_screen(void)
{
	if (scr)
		return;
	if (!setlocale(LC_ALL, "C.UTF-8"))
		setlocale(LC_ALL, "C.utf8");
	setenv("TERM", "xterm", 1);
	unsetenv("NO_COLOR");
	/* Fixed size regardless of the terminal the tests run in. */
	char lines[16], cols[16];
	snprintf(lines, sizeof lines, "%d", VT_LINES);
	snprintf(cols, sizeof cols, "%d", VT_COLS);
	setenv("LINES", lines, 1);
	setenv("COLUMNS", cols, 1);
	scr_out = fopen("/dev/null", "w");
	scr_in = fopen("/dev/null", "r");
	scr = newterm("xterm", scr_out, scr_in);
	if (!scr) {
		fprintf(stderr, "vtest: newterm(xterm) failed\n");
		abort();
	}
	resizeterm(VT_LINES, VT_COLS);
	draw_init(true, true);
	atexit(vt_screen_free);
}

static void sink(void *u, const char *text)
{
	(void)u;
	(void)text;
}

static void keep_error(void *u, const char *text) { sb_printf(u, "%s%s", ((struct strbuf *)u)->len ? "; " : "", text); }

/* A setup command that fails fails the test that asked for it: a picture
 * of a machine the test did not set up is not worth comparing. */
void vt_exec(struct session *ss, const char *lines)
{
	struct strbuf err;
	sb_init(&err);
	struct cmd_out out = {.print = sink, .error = keep_error, .u = &err};
	char *buf = xstrdup(lines);
	for (char *save = NULL, *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		err.len = 0;
		err.s[0] = 0;
		int rc = cmd_exec(ss, l, &out);
		if (rc & CMD_RUN)
			session_run_all(ss);
		if ((rc & CMD_ERR) || err.len)
			test_fail(__FILE__, __LINE__, "setup command '%s' failed: %s", l, err.len ? err.s : "(no message)");
	}
	free(buf);
	sb_fini(&err);
}

struct session *vt_session(const char *setup)
{
	struct session *ss = xcalloc(1, sizeof *ss);
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	char *err = NULL;
	if (session_init(ss, &cfg, "", "vecadd", 1, &err)) {
		fprintf(stderr, "vtest: session_init: %s\n", err ? err : "?");
		free(err);
		free(ss);
		return NULL;
	}
	if (setup)
		vt_exec(ss, setup);
	return ss;
}

void vt_session_free(struct session *ss)
{
	if (!ss)
		return;
	session_fini(ss);
	free(ss);
}

char *vt_text(WINDOW *w)
{
	struct strbuf sb;
	sb_init(&sb);
	char row[4096];
	for (int y = 0; y < getmaxy(w); y++)
		sb_printf(&sb, "%s\n", draw_read_row(w, y, row, sizeof row));
	return sb.s ? sb.s : xstrdup("");
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	struct strbuf sb;
	sb_init(&sb);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf - 1, f)) > 0) {
		buf[n] = 0;
		sb_puts(&sb, buf);
	}
	fclose(f);
	return sb.s ? sb.s : xstrdup("");
}

bool vt_snapshot(const char *name, const char *text, const char *file, int line)
{
	char path[512];
	const char *dir = getenv("GPUSTEP_VIEWS_DIR");
	snprintf(path, sizeof path, "%s/%s.txt", dir ? dir : "tests/views", name);
	const char *upd = getenv("UPDATE_SNAPSHOTS");
	if (upd && *upd && strcmp(upd, "0") != 0) {
		FILE *f = fopen(path, "w");
		if (!f) {
			test_fail(file, line, "cannot write %s", path);
			return false;
		}
		fputs(text, f);
		fclose(f);
		return true;
	}
	char *want = slurp(path);
	if (!want) {
		test_fail(file, line, "missing snapshot %s (UPDATE_SNAPSHOTS=1 creates it)", path);
		return false;
	}
	bool ok = strcmp(want, text) == 0;
	if (!ok) {
		/* First differing line, both versions. */
		const char *a = want, *b = text;
		int ln = 1;
		while (*a && *b) {
			const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');
			size_t la = ea ? (size_t)(ea - a) : strlen(a), lb = eb ? (size_t)(eb - b) : strlen(b);
			if (la != lb || memcmp(a, b, la) != 0)
				break;
			a += la + (ea ? 1 : 0);
			b += lb + (eb ? 1 : 0);
			ln++;
		}
		int la = (int)strcspn(a, "\n"), lb = (int)strcspn(b, "\n");
		test_fail(file, line, "%s differs at line %d:\n  want: %.*s\n  have: %.*s\n  (UPDATE_SNAPSHOTS=1 to accept)",
			  path, ln, la, a, lb, b);
	}
	free(want);
	return ok;
}

char *vt_tmpdir(const char *tag)
{
	const char *d = getenv("TMPDIR");
	char *dir = xasprintf("%s/gpustep-%s-XXXXXX", d && *d ? d : "/tmp", tag);
	REQUIRE(mkdtemp(dir));
	return dir;
}

char *vt_state_home(const char *tag)
{
	char *d = vt_tmpdir(tag);
	setenv("XDG_STATE_HOME", d, 1);
	return d;
}

void vt_state_home_drop(char *d)
{
	char cmd[600];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
	if (system(cmd) != 0)
		test_fail(__FILE__, __LINE__, "cannot remove %s", d);
	free(d);
	unsetenv("XDG_STATE_HOME");
}

struct tui *vt_tui_start(struct session **ss, int lines, int cols)
{
	vt_screen();
	resizeterm(lines, cols);
	*ss = vt_session(NULL);
	if (!*ss)
		return NULL;
	return tui_new(*ss, true, true);
}

void vt_tui_stop(struct tui *t, struct session *ss)
{
	tui_free(t);
	CHECK(ss->ui == NULL && ss->extra_cmds == NULL);
	vt_session_free(ss);
	resizeterm(VT_LINES, VT_COLS);
}
