/*
 * test_session_state.c: `save session FILE --state` (format version 3). A
 * session opened from its state is the session a replay gives (same cycle,
 * state hash, hit counts, event log, and the same run afterwards) without
 * replaying; a damaged state is reported and the session replays instead;
 * without rewinding the state cannot be saved.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "session/session_file.h"
#include "session/session_state.h"
#include "sesstest.h"
#include "statefile.h"
#include "debug/snapshot.h"
#include "load/loader.h"
#include "test.h"

static char *tmp_path(const char *name)
{
	const char *d = getenv("TMPDIR");
	return xasprintf("%s/gpustep-ss-%d-%s", d && *d ? d : "/tmp", (int)getpid(), name);
}

/* The session a file gives: loaded into a fresh fx, notes in *notes. */
static int load_text(struct fx *f, const char *text, char **notes, char **err)
{
	struct strbuf nb;
	sb_init(&nb);
	int rc = session_load_text(&f->ss, text, strlen(text), "t.gps", &nb, err);
	*notes = xstrdup(nb.s ? nb.s : "");
	sb_fini(&nb);
	return rc;
}

/* text with line `key...` replaced by `repl` (NULL: removed), re-checksummed. */
static char *edit_line(const char *text, const char *key, const char *repl)
{
	struct strbuf sb;
	sb_init(&sb);
	bool done = false;
	for (const char *p = text; *p;) {
		size_t n = strcspn(p, "\n");
		if (!done && strncmp(p, key, strlen(key)) == 0) {
			done = true;
			if (repl)
				sb_printf(&sb, "%s\n", repl);
		} else if (strncmp(p, "checksum ", 9) != 0) {
			sb_printf(&sb, "%.*s\n", (int)n, p);
		}
		p += n + (p[n] == '\n');
	}
	sb_printf(&sb, "checksum fnv1a64 %016llx\n", (unsigned long long)session_checksum(sb.s, sb.len));
	return sb.s;
}

static void setup(struct fx *a)
{
	fx_init_wl(a, "matmul_naive");
	static const char *const cmds[] = {"set param.n 64", "break l1.miss sm=1", "continue", "continue",
	                                   "disable 1",      "step 4321",          "enable 1"};
	for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
		if (fx_run(a, cmds[i]) & CMD_ERR)
			test_fail(__FILE__, __LINE__, "setup '%s': %s", cmds[i], a->cap.err.s);
	REQUIRE(bp_get(&a->ss.bps, 1)->hits > 0);
}

TEST(session_state_round_trip_equals_replay)
{
	struct fx a, b, c;
	setup(&a);
	char *path = tmp_path("st.gps"), *plain = tmp_path("plain.gps");
	char cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s --state", path);
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	snprintf(cmd, sizeof cmd, "save session --state %s", plain); /* either order */
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	snprintf(cmd, sizeof cmd, "save session %s --replay", plain);
	CHECK_EQ(fx_run(&a, cmd), CMD_OK);
	char *text = session_file_text_ex(&a.ss, true, NULL);
	REQUIRE(text);
	CHECK(strncmp(text, "gpustep-session 3\n", 18) == 0);
	CHECK_CONTAINS(text, "\nstate ");
	CHECK_CONTAINS(text, "\nstate-data ");
	fx_init_wl(&b, "vecadd");
	fx_init_wl(&c, "vecadd");
	snprintf(cmd, sizeof cmd, "load session %s", path);
	int rc = fx_run(&b, cmd);
	CHECK(!(rc & CMD_ERR));
	CHECK(!strstr(b.cap.out.s, "note:"));
	snprintf(cmd, sizeof cmd, "load session %s", plain);
	CHECK(!(fx_run(&c, cmd) & CMD_ERR));
	/* No replay: the machine holds its base snapshot and the one taken at
	 * the imported cycle, where a replay would have taken one per interval. */
	size_t nb, nc, by;
	uint64_t iv;
	sim_snapshots_info(b.ss.sim, &nb, &by, &iv);
	sim_snapshots_info(c.ss.sim, &nc, &by, &iv);
	CHECK_EQ(nb, 2);
	CHECK(nc > 2);
	/* Each opened with one build: the file's param n=64 went onto the
	 * kernel before the machine was made (a rebuild for it doubled the
	 * time a titanv session took to open). */
	CHECK_EQ(b.ss.builds, 1);
	CHECK_EQ(c.ss.builds, 1);
	int64_t n = -1;
	for (unsigned i = 0; i < b.ss.ksrc.nparams; i++)
		if (strcmp(b.ss.ksrc.params[i].name, "n") == 0)
			n = b.ss.ksrc.params[i].value;
	CHECK_EQ(n, 64);
	CHECK_EQ(sim_cycle(b.ss.sim), sim_cycle(a.ss.sim));
	CHECK(sim_state_hash(b.ss.sim) == sim_state_hash(a.ss.sim));
	CHECK(sim_state_hash(b.ss.sim) == sim_state_hash(c.ss.sim));
	/* The state has the hit counts of the original run; a replay counts
	 * every hit on the way, those made while breakpoint 1 was disabled too. */
	CHECK_EQ(bp_get(&b.ss.bps, 1)->hits, bp_get(&a.ss.bps, 1)->hits);
	CHECK(bp_get(&c.ss.bps, 1)->hits > bp_get(&a.ss.bps, 1)->hits);
	CHECK_EQ(events_logged(sim_events_c(b.ss.sim)), events_logged(sim_events_c(a.ss.sim)));
	/* Saved again (without state) it is the same session file. */
	char *ta = session_file_text(&a.ss), *tb = session_file_text(&b.ss);
	CHECK_STR(ta, tb);
	/* It rewinds (before the imported cycle too) and runs on like the original. */
	uint64_t at = sim_cycle(a.ss.sim);
	CHECK_EQ(fx_run(&b, "goto 1000"), CMD_RUN);
	CHECK_EQ(sim_cycle(b.ss.sim), 1000);
	char cmd2[64];
	snprintf(cmd2, sizeof cmd2, "goto %llu", (unsigned long long)at);
	CHECK_EQ(fx_run(&b, cmd2), CMD_RUN);
	CHECK_EQ(sim_cycle(b.ss.sim), at);
	fx_run(&a, "continue");
	char *xa = xstrdup(a.cap.out.s);
	fx_run(&b, "continue");
	CHECK_STR(xa, b.cap.out.s);
	CHECK(sim_state_hash(b.ss.sim) == sim_state_hash(a.ss.sim));
	free(xa);
	free(ta);
	free(tb);
	free(text);
	unlink(path);
	unlink(plain);
	free(path);
	free(plain);
	fx_fini(&a);
	fx_fini(&b);
	fx_fini(&c);
}

/* Damage of every kind: the load says why and replays to the same state. */
TEST(session_state_damaged_falls_back_to_replay)
{
	struct fx a;
	setup(&a);
	char *good = session_file_text_ex(&a.ss, true, NULL);
	REQUIRE(good);
	uint64_t want = sim_state_hash(a.ss.sim);
	struct {
		const char *what, *note;
		char *text;
	} cases[4];
	/* One base64 character changed (the file checksum skips state-data lines). */
	char *t = xstrdup(good);
	char *d = strstr(t, "\nstate-data ");
	REQUIRE(d);
	d += 12 + 100;
	*d = *d == 'A' ? 'B' : 'A';
	cases[0].what = "one character";
	cases[0].note = "its hash does not match";
	cases[0].text = t;
	/* A line missing. */
	cases[1].what = "a line";
	cases[1].note = "lines missing";
	cases[1].text = edit_line(good, "state-data ", NULL);
	/* Not base64. */
	t = xstrdup(good);
	d = strstr(t, "\nstate-data ") + 12 + 8;
	*d = '*';
	cases[2].what = "not base64";
	cases[2].note = "not base64";
	cases[2].text = t;
	/* The state loads but does not give the saved statistics (signed again
	 * with this user's key: else the signature already refuses it). */
	cases[3].what = "stats";
	cases[3].note = "does not give the saved statistics";
	t = edit_line(good, "stats-hash ", "stats-hash 0123456789abcdef");
	size_t blen;
	unsigned char *blob = sf_blob(t, &blen);
	REQUIRE(blob);
	cases[3].text = sf_rebuild(t, blob, blen, SF_MAC_SIGN);
	free(blob);
	free(t);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct fx b;
		fx_init_wl(&b, "vecadd");
		char *notes = NULL, *err = NULL;
		int rc = load_text(&b, cases[i].text, &notes, &err);
		if (rc != 0)
			test_fail(__FILE__, __LINE__, "%s: refused: %s", cases[i].what, err);
		if (!strstr(notes, cases[i].note) || !strstr(notes, "replaying from cycle 0 instead"))
			test_fail(__FILE__, __LINE__, "%s: notes lack '%s': %s", cases[i].what, cases[i].note,
			          notes);
		CHECK_EQ(sim_cycle(b.ss.sim), sim_cycle(a.ss.sim));
		CHECK(sim_state_hash(b.ss.sim) == want);
		CHECK(bp_get(&b.ss.bps, 1)->hits > bp_get(&a.ss.bps, 1)->hits); /* counted by the replay */
		free(notes);
		free(err);
		free(cases[i].text);
		fx_fini(&b);
	}
	/* A malformed state line is a bad file (it is under the checksum). */
	char *bad = edit_line(good, "state ", "state twelve fnv1a64 0");
	struct fx b;
	fx_init_wl(&b, "vecadd");
	char *notes = NULL, *err = NULL;
	CHECK_EQ(load_text(&b, bad, &notes, &err), -1);
	CHECK_CONTAINS(err, "bad value for state");
	free(notes);
	free(err);
	free(bad);
	fx_fini(&b);
	free(good);
	fx_fini(&a);
}

TEST(session_state_needs_rewinding)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	session_set_snapshot_budget(&a.ss, 0);
	fx_run(&a, "step 100");
	char *path = tmp_path("off.gps");
	char cmd[600];
	snprintf(cmd, sizeof cmd, "save session %s --state", path);
	CHECK_EQ(fx_run(&a, cmd), CMD_ERR);
	CHECK_CONTAINS(a.cap.err.s, "--snapshot-mb 0");
	CHECK(access(path, F_OK) != 0);
	snprintf(cmd, sizeof cmd, "save session %s --stat", path);
	CHECK_EQ(fx_run(&a, cmd), CMD_ERR);
	free(path);
	fx_fini(&a);
}

/* Plain `save session FILE` stores the state when a replay to the cycle
 * would take longer than SESSION_STATE_AUTO_SECONDS at the speed the session
 * measured (set here, so the test does not depend on the machine's speed),
 * and says so; below it, or with --replay, the file replays; --state always
 * stores it. */
TEST(session_save_stores_the_state_when_replay_is_slow)
{
	struct fx a;
	fx_init_wl(&a, "vecadd");
	fx_run(&a, "step 1000");
	uint64_t now = sim_cycle(a.ss.sim);
	REQUIRE(now > 0);
	char *path = tmp_path("auto.gps");
	char cmd[600];
	struct {
		double per_cycle; /* seconds per simulated cycle */
		const char *flag;
		bool state;
	} cases[] = {
		{2 * SESSION_STATE_AUTO_SECONDS / (double)now, "", true},
		{0.5 * SESSION_STATE_AUTO_SECONDS / (double)now, "", false},
		{2 * SESSION_STATE_AUTO_SECONDS / (double)now, " --replay", false},
		{0.5 * SESSION_STATE_AUTO_SECONDS / (double)now, " --state", true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		a.ss.timed_cycles = 1000000;
		a.ss.timed_seconds = cases[i].per_cycle * 1000000;
		snprintf(cmd, sizeof cmd, "save session %s%s", path, cases[i].flag);
		CHECK_EQ(fx_run(&a, cmd), CMD_OK);
		char *text = loader_read_file(path, NULL, NULL);
		REQUIRE(text);
		CHECK_EQ(strstr(text, "\nstate-data ") != NULL, cases[i].state);
		if (!*cases[i].flag)
			CHECK_EQ(strstr(a.cap.out.s, "with the machine state") != NULL, cases[i].state);
		free(text);
	}
	remove(path);
	free(path);
	fx_fini(&a);
}
