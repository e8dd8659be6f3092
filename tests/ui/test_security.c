/*
 * test_security.c: files from other people (docs/SECURITY.md). The hostile
 * inputs of issue 42, part A, recreated: a session whose ui lines carry
 * prompt commands, lessons whose setup or run would write, delete, close,
 * replace or re-open themselves, `lesson reset ../..`, progress files
 * planted as symlinks or corrupt, a session header "3x", and forged machine
 * states (1000 single-word edits with every unkeyed hash recomputed). Each
 * runs no command, deletes and overwrites nothing, crashes nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lesson/lesson_int.h"
#include "session/session_file.h"
#include "session/session_state.h"
#include "session/state_mac.h"
#include "sesstest.h"
#include "statefile.h"
#include "test.h"
#include "tui/tui.h"
#include "vtest.h"

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char buf[4096];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = 0;
	return xstrdup(buf);
}

static void cap_print(void *u, const char *t)
{
	sb_printf(u, "%s\n", t);
}

/* text (a session file) with `lines` put before its cycle line, re-checksummed. */
static char *with_lines(const char *text, const char *lines)
{
	const char *at = strstr(text, "\ncycle ");
	REQUIRE(at);
	struct strbuf sb;
	sb_init(&sb);
	sb_printf(&sb, "%.*s\n%s", (int)(at - text), text, lines);
	const char *ck = strstr(at, "checksum fnv1a64 ");
	REQUIRE(ck);
	sb_printf(&sb, "%.*s", (int)(ck - (at + 1)), at + 1);
	sb_printf(&sb, "checksum fnv1a64 %016llx\n", (unsigned long long)session_checksum(sb.s, sb.len));
	return sb.s;
}

TEST(security_sha256_and_hmac_vectors)
{
	/* FIPS 180-4 "abc"; RFC 4231 test case 2. */
	unsigned char out[32];
	char hex[65];
	struct sha256 c;
	sha256_init(&c);
	sha256_update(&c, "abc", 3);
	sha256_final(&c, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* Two blocks, fed in odd pieces. */
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha256_init(&c);
	for (size_t i = 0; i < strlen(two); i += 7)
		sha256_update(&c, two + i, strlen(two) - i < 7 ? strlen(two) - i : 7);
	sha256_final(&c, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	struct state_mac m;
	state_mac_init(&m, (const unsigned char *)"Jefe", 4);
	state_mac_update(&m, "what do ya want for nothing?", 28);
	state_mac_final(&m, out);
	for (int i = 0; i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", out[i]);
	CHECK_STR(hex, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

/* Session ui lines: only `layout NAME` and `zoom PANEL` survive the load;
 * the TUI then applies those and nothing else. */
TEST(security_session_ui_lines_run_no_command)
{
	char *home = vt_state_home("sec-ui");
	char *victim = xasprintf("%s/victim", home), *written = xasprintf("%s/written.json", home);
	put_file(victim, "precious\n");
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 40, 160);
	REQUIRE(t);
	char *text = session_file_text(ss);
	char *lines = xasprintf("ui save config %s\n"
				"ui lesson reset ../../victim\n"
				"ui layout dram\n"
				"ui layout dram; save config %s\n"
				"ui zoom ../../x\n"
				"ui Layout cache\n"
				"ui layout  cache\n"
				"ui \x1b[2Jlayout cache\n"
				"ui quit\n",
				written, written);
	char *file = with_lines(text, lines);
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	CHECK_EQ(session_load_text(ss, file, strlen(file), "hostile.gps", &notes, &err), 0);
	CHECK_STR(err, NULL);
	CHECK_STR(ss->ui_pending, "layout overview\nlayout dram\n"); /* the TUI's own line, then the file's */
	CHECK_CONTAINS(notes.s, "note: ignored 'ui save config ");
	CHECK_CONTAINS(notes.s, "note: ignored 'ui lesson reset ../../victim'");
	CHECK_CONTAINS(notes.s, "note: ignored 'ui ?[2Jlayout cache'"); /* no escape reaches the terminal */
	int ignored = 0;
	for (const char *p = notes.s; (p = strstr(p, "note: ignored")) != NULL; p++)
		ignored++;
	CHECK_EQ(ignored, 8);
	struct strbuf o;
	sb_init(&o);
	struct cmd_out out = {cap_print, cap_print, &o};
	session_apply_ui(ss, &out);
	CHECK_STR(tui_layout_name(t), "dram");
	CHECK(!exists(written));
	char *v = slurp(victim);
	CHECK_STR(v, "precious\n");
	free(v);
	/* Re-saved, the file carries only the lines save session writes. */
	char *again = session_file_text(ss);
	CHECK(!strstr(again, "save config"));
	CHECK(!strstr(again, "lesson reset"));
	free(again);
	sb_fini(&o);
	sb_fini(&notes);
	free(file);
	free(lines);
	free(text);
	vt_tui_stop(t, ss);
	free(victim);
	free(written);
	vt_state_home_drop(home);
}

TEST(security_session_ui_line_rule)
{
	CHECK(session_ui_line_ok("layout dram"));
	CHECK(session_ui_line_ok("zoom frc"));
	CHECK(session_ui_line_ok("layout l2_cache-2"));
	CHECK(!session_ui_line_ok("layout"));
	CHECK(!session_ui_line_ok("layout "));
	CHECK(!session_ui_line_ok("layout dram extra"));
	CHECK(!session_ui_line_ok("layout \"dram\""));
	CHECK(!session_ui_line_ok("zoom ../x"));
	CHECK(!session_ui_line_ok("focus events"));
	CHECK(!session_ui_line_ok("save config /tmp/x"));
	CHECK(!session_ui_line_ok("layout aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
}

TEST(security_session_version_must_be_a_number)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	char *good = session_file_text(&a.ss);
	static const char *const bad[] = {"3x", "3 ", "+3", " 3", "", "99999", "0x3"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		const char *nl = strchr(good, '\n');
		char *body = xasprintf("gpustep-session %s%s", bad[i], nl);
		char *ck = strstr(body, "checksum fnv1a64 ");
		*ck = 0;
		char *file = xasprintf("%schecksum fnv1a64 %016llx\n", body,
				       (unsigned long long)session_checksum(body, strlen(body)));
		struct strbuf notes;
		sb_init(&notes);
		char *err = NULL;
		if (session_load_text(&a.ss, file, strlen(file), "v.gps", &notes, &err) != -1)
			test_fail(__FILE__, __LINE__, "header 'gpustep-session %s' accepted", bad[i]);
		else if (!strstr(err, "a version number"))
			test_fail(__FILE__, __LINE__, "header '%s': %s", bad[i], err);
		free(err);
		sb_fini(&notes);
		free(file);
		free(body);
	}
	free(good);
	fx_fini(&a);
}

/* ---- lessons ----------------------------------------------------------------- */
static char *lesson_json(const char *name, const char *setup, const char *run)
{
	return xasprintf("{\"name\": \"%s\", \"title\": \"t\", \"setup\": [%s],\n"
			 " \"steps\": [{\"text\": \"x\", \"predict\": {\"run\": [%s], \"value\": \"cycle\"}}]}\n",
			 name, setup, run);
}

TEST(security_lesson_commands_checked_at_load)
{
	char *home = vt_state_home("sec-lesson");
	char *victim = xasprintf("%s/victim", home), *written = xasprintf("%s/written.json", home);
	char *self = xasprintf("%s/self.json", home), *other = xasprintf("%s/other.json", home);
	put_file(victim, "precious\n");
	char *ok = lesson_json("other", "\"load teaching\"", "\"step 10\"");
	put_file(other, ok);
	free(ok);
	char *hostile[] = {
	    xasprintf("\"save config %s\"", written),
	    xstrdup("\"lesson reset ../../victim\""),
	    xstrdup("\"lesson close\""),
	    xasprintf("\"lesson %s\"", other),
	    xstrdup("\"lesson coalescing\""),
	    xstrdup("\"answer 3\""),
	    xasprintf("\"lesson %s\"", self),
	    xstrdup("\"\""),
	    xstrdup("\"   \""),
	    xstrdup("\"load session x.gps\""),
	    xstrdup("\"load\""),
	    xstrdup("\"contin\""),
	    xstrdup("\"hint\""),
	    xasprintf("\"save stats %s\"", written),
	    xstrdup("\"set x 1\\nsave config y\""),
	    xstrdup("\"'lesson' close\""),
	    xstrdup("\"quit\""),
	};
	size_t nh = sizeof hostile / sizeof *hostile;
	struct fx a;
	fx_init_wl(&a, "vecadd");
	fx_run(&a, "step 5");
	for (size_t i = 0; i < nh; i++)
		for (int where = 0; where < 2; where++) {
			char *j = where == 0 ? lesson_json("self", hostile[i], "") : lesson_json("self", "", hostile[i]);
			put_file(self, j);
			free(j);
			char *cmd = xasprintf("lesson %s", self);
			int rc = fx_run(&a, cmd);
			if (!(rc & CMD_ERR) || !strstr(a.cap.err.s, where == 0 ? ": setup: " : ": step 1: predict.run: "))
				test_fail(__FILE__, __LINE__, "%s in %s: rc %d, %s", hostile[i], where ? "run" : "setup", rc,
					  a.cap.err.s);
			CHECK(a.ss.lesson == NULL);
			CHECK_EQ(sim_cycle(a.ss.sim), 5); /* nothing ran */
			free(cmd);
			/* The same through `gpustep lesson --check` (exit 2, nothing run). */
			char *argv[] = {(char *)"lesson", (char *)"--check", self, (char *)"--batch", (char *)"/dev/null", NULL};
			CHECK_EQ(lesson_main(5, argv), 2);
			char *err = NULL;
			struct lesson *l = lesson_load(self, &err);
			CHECK(l == NULL);
			CHECK(err != NULL);
			free(err);
			lesson_free(l);
		}
	CHECK(!exists(written));
	char *v = slurp(victim);
	CHECK_STR(v, "precious\n");
	free(v);
	/* A lesson of allowed commands loads and runs them. */
	char *open_other = xasprintf("lesson %s", other);
	CHECK(!(fx_run(&a, open_other) & CMD_ERR));
	CHECK(a.ss.lesson != NULL);
	free(open_other);
	for (size_t i = 0; i < nh; i++)
		free(hostile[i]);
	fx_fini(&a);
	free(victim);
	free(written);
	free(self);
	free(other);
	vt_state_home_drop(home);
}

/* Every built-in lesson keeps to the rule (they would not load otherwise). */
TEST(security_builtin_lessons_load)
{
	static const char *const names[] = {"bypassing", "coalescing", "coherence", "dram_rows", "frc",
					    "mshrs",     "racetrack",  "reuse",     "scheduling"};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char *err = NULL;
		struct lesson *l = lesson_load(names[i], &err);
		if (!l)
			test_fail(__FILE__, __LINE__, "%s: %s", names[i], err);
		free(err);
		lesson_free(l);
	}
}

TEST(security_lesson_command_rule)
{
	char why[200];
	static const char *const good[] = {"load teaching", "workload strided", "set param.n 64", "log +coalesce",
					   "break l2.nack", "b l1.miss", "tbreak l1.miss", "watch 0x100", "delete",
					   "d 1", "until coalesce sm=0", "u l1.miss", "continue", "c", "cont",
					   "step 10", "s", "next", "run 0", "r", "step ${saved.x}"};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++)
		if (lesson_command_check(good[i], why, sizeof why))
			test_fail(__FILE__, __LINE__, "'%s' refused: %s", good[i], why);
	static const char *const bad[] = {"save config x", "lesson x", "answer", "hint", "", " ", "load session x",
					  "load", "quit", "goto 5", "contin", "\"save\" config x", "set a\tb",
					  "display x", "model", "'unterminated"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		if (!lesson_command_check(bad[i], why, sizeof why))
			test_fail(__FILE__, __LINE__, "'%s' accepted", bad[i]);
}

/* While a lesson's commands run it cannot be closed, replaced or re-entered. */
TEST(security_lesson_busy_cannot_be_closed_or_replaced)
{
	char *home = vt_state_home("sec-busy");
	struct fx a;
	fx_init_wl(&a, "vecadd");
	CHECK(!(fx_run(&a, "lesson coalescing") & CMD_ERR));
	struct lesson *l = a.ss.lesson;
	REQUIRE(l);
	l->busy = 1;
	static const char *const cmds[] = {"lesson close", "lesson mshrs", "lesson coalescing", "answer 1",
					   "lesson reset coalescing"};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++) {
		CHECK_EQ(fx_run(&a, cmds[i]), CMD_ERR);
		CHECK_CONTAINS(a.cap.err.s, "is running its own commands");
		CHECK(a.ss.lesson == l);
	}
	CHECK_EQ(l->cur, 0);
	l->busy = 0;
	CHECK_EQ(fx_run(&a, "lesson close"), CMD_OK);
	CHECK(a.ss.lesson == NULL);
	fx_fini(&a);
	vt_state_home_drop(home);
}

TEST(security_lesson_reset_takes_only_lesson_names)
{
	char *home = vt_state_home("sec-reset");
	char *victim = xasprintf("%s/victim", home), *dir = xasprintf("%s/emptydir", home);
	put_file(victim, "precious\n");
	REQUIRE(mkdir(dir, 0700) == 0);
	struct fx a;
	fx_init_wl(&a, "vecadd");
	static const char *const bad[] = {"../../victim", "../../emptydir", "..", ".", "", "a/b", "x y",
					  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *cmd = xasprintf("lesson reset '%s'", bad[i]);
		CHECK_EQ(fx_run(&a, cmd), CMD_ERR);
		CHECK_CONTAINS(a.cap.err.s, "is not a lesson name");
		free(cmd);
		char *argv[] = {(char *)"lesson", (char *)"reset", (char *)bad[i], NULL};
		CHECK_EQ(lesson_main(3, argv), 1);
	}
	CHECK(exists(victim));
	CHECK(exists(dir));
	char p[512];
	CHECK_EQ(lesson_progress_path("", p, sizeof p), -1);
	CHECK_EQ(lesson_progress_path("../x", p, sizeof p), -1);
	CHECK_EQ(fx_run(&a, "lesson reset coalescing"), CMD_OK);
	fx_fini(&a);
	free(victim);
	free(dir);
	vt_state_home_drop(home);
}

/* Progress: a NAME.tmp symlink is not followed; a corrupt record is
 * replaced by the next attempt instead of freezing the lesson's progress. */
TEST(security_lesson_progress_files)
{
	char *home = vt_state_home("sec-prog");
	char *dir = xasprintf("%s/gpustep", home), *ldir = xasprintf("%s/gpustep/lessons", home);
	REQUIRE(mkdir(dir, 0700) == 0 && mkdir(ldir, 0700) == 0);
	char *victim = xasprintf("%s/victim", home), *tmp = xasprintf("%s/coalescing.tmp", ldir),
	     *prog = xasprintf("%s/coalescing", ldir);
	put_file(victim, "precious\n");
	REQUIRE(symlink(victim, tmp) == 0);
	char *err = NULL;
	struct lesson *l = lesson_load("coalescing", &err);
	REQUIRE(l);
	l->cur = 1;
	l->result[0] = LR_PASS;
	lesson_progress_save(l);
	char *v = slurp(victim);
	CHECK_STR(v, "precious\n");
	free(v);
	struct lesson_progress pr;
	CHECK(lesson_progress_read("coalescing", &pr));
	CHECK_EQ(pr.reached, 1);
	CHECK_EQ(pr.passed, 1);
	/* A "best" that cannot be (more passed than the lesson has steps). */
	char *bogus = xasprintf("reached 1 passed 999 failed 0 total %d\n", l->nsteps);
	put_file(prog, bogus);
	CHECK(!lesson_progress_read("coalescing", &pr));
	l->cur = 2;
	l->result[1] = LR_FAIL;
	lesson_progress_save(l);
	CHECK(lesson_progress_read("coalescing", &pr));
	CHECK_EQ(pr.reached, 2);
	CHECK_EQ(pr.passed, 1);
	CHECK_EQ(pr.failed, 1);
	put_file(prog, "reached -5 passed -1 failed 0 total 2\n");
	CHECK(!lesson_progress_read("coalescing", &pr));
	/* A progress file that is a symlink is not read through. */
	unlink(prog);
	char *fake = xasprintf("%s/fake", home);
	put_file(fake, "reached 1 passed 1 failed 0 total 1\n");
	REQUIRE(symlink(fake, prog) == 0);
	CHECK(!lesson_progress_read("coalescing", &pr));
	/* An empty or unlawful name saves nothing. */
	free(l->name);
	l->name = xstrdup("../escape");
	lesson_progress_save(l);
	char *escape = xasprintf("%s/gpustep/escape", home);
	CHECK(!exists(escape));
	free(escape);
	lesson_free(l);
	free(bogus);
	free(fake);
	free(victim);
	free(tmp);
	free(prog);
	free(dir);
	free(ldir);
	vt_state_home_drop(home);
}

/* ---- machine states ----------------------------------------------------------- */
static int load_notes(struct fx *f, const char *text, struct strbuf *notes, char **err)
{
	sb_fini(notes);
	sb_init(notes);
	return session_load_text(&f->ss, text, strlen(text), "forged.gps", notes, err);
}

TEST(security_state_signed_by_this_user_only)
{
	char *home = vt_state_home("sec-key");
	struct fx a, b;
	fx_init_wl(&a, "vecadd");
	fx_init_wl(&b, "vecadd");
	fx_run(&a, "step 300");
	uint64_t want = sim_state_hash(a.ss.sim);
	char *err = NULL;
	char *good = session_file_text_ex(&a.ss, true, &err);
	REQUIRE(good);
	CHECK_CONTAINS(good, "\nstate-mac hmac-sha256 ");
	struct stat st;
	char *key = xasprintf("%s/gpustep/state.key", home);
	REQUIRE(stat(key, &st) == 0);
	CHECK_EQ(st.st_mode & 0777, 0600);
	CHECK_EQ(st.st_size, STATE_KEY_BYTES);
	/* Rebuilt unchanged and signed: the very same file. */
	size_t len;
	unsigned char *blob = sf_blob(good, &len);
	REQUIRE(blob);
	char *same = sf_rebuild(good, blob, len, SF_MAC_SIGN);
	CHECK_STR(same, good);
	struct strbuf notes;
	sb_init(&notes);
	CHECK_EQ(load_notes(&b, good, &notes, &err), 0);
	CHECK(!strstr(notes.s ? notes.s : "", "note:"));
	CHECK(sim_state_hash(b.ss.sim) == want);
	/* Without the line, with another user's key, with its seed changed:
	 * replayed, with the reason. */
	char *unsigned_ = sf_rebuild(good, blob, len, SF_MAC_DROP);
	CHECK_EQ(load_notes(&b, unsigned_, &notes, &err), 0);
	CHECK_CONTAINS(notes.s, "carries no signature");
	CHECK_CONTAINS(notes.s, "replaying from cycle 0 instead");
	CHECK(sim_state_hash(b.ss.sim) == want);
	char *seed = strstr(good, "\nseed 1\n");
	REQUIRE(seed);
	char *reseeded = xasprintf("%.*s\nseed 2\n%s", (int)(seed - good), good, seed + 8);
	char *r2 = sf_rebuild(reseeded, blob, len, SF_MAC_KEEP);
	CHECK_EQ(load_notes(&b, r2, &notes, &err), 0);
	CHECK_CONTAINS(notes.s, "its signature does not verify");
	CHECK_EQ(b.ss.seed, 2);
	CHECK_EQ(sim_cycle(b.ss.sim), 300);
	char *other = vt_tmpdir("sec-key2");
	setenv("XDG_STATE_HOME", other, 1);
	CHECK_EQ(load_notes(&b, good, &notes, &err), 0);
	CHECK_CONTAINS(notes.s, "this user has no key");
	CHECK(sim_state_hash(b.ss.sim) == want);
	char *other_signed = sf_rebuild(good, blob, len, SF_MAC_SIGN); /* makes the other user's key */
	setenv("XDG_STATE_HOME", home, 1);
	CHECK_EQ(load_notes(&b, other_signed, &notes, &err), 0);
	CHECK_CONTAINS(notes.s, "its signature does not verify");
	CHECK(sim_state_hash(b.ss.sim) == want);
	/* A key file others can read is refused, not used. */
	REQUIRE(chmod(key, 0644) == 0);
	CHECK_EQ(load_notes(&b, good, &notes, &err), 0);
	CHECK_CONTAINS(notes.s, "is not a private");
	vt_state_home_drop(other);
	setenv("XDG_STATE_HOME", home, 1);
	sb_fini(&notes);
	free(other_signed);
	free(r2);
	free(reseeded);
	free(unsigned_);
	free(same);
	free(blob);
	free(key);
	free(good);
	free(err);
	fx_fini(&a);
	fx_fini(&b);
	vt_state_home_drop(home);
}

/* Issue 42's acceptance test: 1000 single-word edits of a --state session's
 * state, each with the state's FNV and the file checksum recomputed (and
 * the stale signature kept or dropped: a forger has no key). None crashes;
 * each is refused with a note and replayed to the saved machine. */
TEST(security_state_1000_forged_words_replay)
{
	char *home = vt_state_home("sec-forge");
	struct fx a, b;
	fx_init_wl(&a, "vecadd");
	fx_init_wl(&b, "vecadd");
	fx_run(&a, "break l1.miss");
	fx_run(&a, "continue");
	fx_run(&a, "delete");
	fx_run(&a, "step 200");
	uint64_t want = sim_state_hash(a.ss.sim), cyc = sim_cycle(a.ss.sim);
	char *err = NULL;
	char *good = session_file_text_ex(&a.ss, true, &err);
	REQUIRE(good);
	size_t len;
	unsigned char *blob = sf_blob(good, &len);
	REQUIRE(blob && len % 8 == 0 && len > 64);
	unsigned char *copy = xmalloc(len);
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	struct strbuf notes;
	sb_init(&notes);
	int replayed = 0;
	for (int i = 0; i < 1000; i++) {
		rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
		size_t w = (size_t)(rng % (len / 8));
		uint64_t old, v;
		memcpy(&old, blob + w * 8, 8);
		switch ((rng >> 40) % 6) { /* what a forger writes: indices, links, sizes, anything */
		case 0: v = 0; break;
		case 1: v = UINT64_MAX; break; /* -1: "no link" */
		case 2: v = (rng >> 20) & 0xffff; break;
		case 3: v = old ^ (1ull << ((rng >> 8) & 63)); break;
		case 4: v = old + 1; break;
		default: v = rng; break;
		}
		if (v == old)
			v = ~old;
		memcpy(copy, blob, len);
		memcpy(copy + w * 8, &v, 8);
		char *forged = sf_rebuild(good, copy, len, i % 2 ? SF_MAC_KEEP : SF_MAC_DROP);
		int rc = load_notes(&b, forged, &notes, &err);
		if (rc != 0)
			test_fail(__FILE__, __LINE__, "edit %d (word %zu): refused: %s", i, w, err);
		else if (!strstr(notes.s, "replaying from cycle 0 instead"))
			test_fail(__FILE__, __LINE__, "edit %d (word %zu): used without a note: %s", i, w, notes.s);
		else if (sim_cycle(b.ss.sim) != cyc || sim_state_hash(b.ss.sim) != want)
			test_fail(__FILE__, __LINE__, "edit %d (word %zu): not the saved machine", i, w);
		else
			replayed++;
		free(err);
		err = NULL;
		free(forged);
	}
	CHECK_EQ(replayed, 1000);
	sb_fini(&notes);
	free(copy);
	free(blob);
	free(good);
	fx_fini(&a);
	fx_fini(&b);
	vt_state_home_drop(home);
}
