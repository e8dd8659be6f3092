/*
 * test_coh_history.c: `history ADDR [N]` on a real session (vecadd on the
 * teaching machine under MOESI): the line's transactions oldest first with
 * states before -> after, the record's extent, the messages for a malformed
 * address, a line without history and a machine without a protocol; the
 * output after rewinding equals the output the first time at that cycle;
 * the line addresses Tab offers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/commands.h"
#include "sesstest.h"
#include "test.h"

/* Stops at the first transition to M (b = 4); returns its line. */
static uint64_t to_first_m(struct fx *f)
{
	fx_run(f, "set coherence.protocol moesi");
	fx_run(f, "break coh.transition to=M");
	fx_run(f, "continue");
	REQUIRE(f->ss.bps.stop_ev.kind == EV_COH_TRANSITION);
	return f->ss.bps.stop_ev.addr;
}

static char *history(struct fx *f, uint64_t addr, const char *extra)
{
	char line[96];
	snprintf(line, sizeof line, "history 0x%llx%s", (unsigned long long)addr, extra);
	int rc = fx_run(f, line);
	CHECK(!(rc & CMD_ERR));
	CHECK_STR(f->cap.err.s, "");
	return xstrdup(f->cap.out.s);
}

static int count_lines(const char *s, const char *needle)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

TEST(history_shows_the_lines_transactions)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	uint64_t a = to_first_m(&f);
	char *h = history(&f, a, "");
	char head[96];
	snprintf(head, sizeof head, "history of line 0x%llx (moesi): ", (unsigned long long)a);
	CHECK_CONTAINS(h, head);
	CHECK_CONTAINS(h, "oldest first");
	/* the store's miss, its request, the directory's grant, the fill into M */
	CHECK_CONTAINS(h, "L1    Store    I -> IM_D");
	CHECK_CONTAINS(h, "msg   GetX");
	CHECK_CONTAINS(h, "dir   GetX     I -> X");
	CHECK_CONTAINS(h, "L1    DataX    IM_D -> M");
	CHECK_CONTAINS(h, "msg   Unblock");
	/* oldest first: the store precedes the fill */
	CHECK(strstr(h, "I -> IM_D") < strstr(h, "IM_D -> M"));
	/* how far back: nothing was lost yet at the first M */
	CHECK_CONTAINS(h, "record: the log keeps the last 512 transactions of all lines; it holds all ");
	CHECK_CONTAINS(h, " since cycle 0");
	/* any address inside the line names the line */
	char *h2 = history(&f, a + 4, "");
	CHECK_STR(h2, h);
	free(h2);
	/* N: only the newest N */
	h2 = history(&f, a, " 2");
	CHECK_CONTAINS(h2, "(the newest 2 shown)");
	CHECK(!strstr(h2, "I -> IM_D"));
	CHECK_CONTAINS(h2, "IM_D -> M");
	CHECK_EQ(count_lines(h2, "\n"), 5); /* header, column names, two rows, record */
	free(h2);
	free(h);
	fx_fini(&f);
}

TEST(history_messages)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	fx_run(&f, "step 500");
	CHECK(fx_run(&f, "history 0x10010400") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "history: coherence.protocol is none");
	fx_run(&f, "run 0");
	to_first_m(&f);
	CHECK(fx_run(&f, "history") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "usage: history ADDR [N]");
	CHECK(fx_run(&f, "history 0xzz") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "history: expected a line address (e.g. 0x10000080), got '0xzz'");
	CHECK(fx_run(&f, "history line") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "got 'line'");
	CHECK(fx_run(&f, "history 0x10010400 0") & CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "history: N: expected a number of transactions");
	char *h = history(&f, 0x40, "");
	CHECK_CONTAINS(h, "history of line 0x0 (moesi): no coherence transactions of this line in the log");
	CHECK_CONTAINS(h, "record: the log keeps the last 512 transactions");
	free(h);
	CHECK(fx_run(&f, "help history") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "history ADDR [N]");
	CHECK_CONTAINS(f.cap.out.s, "Example: history 0x");
	fx_fini(&f);
}

/* At the end the ring has wrapped: the record says how far back it goes. */
TEST(history_says_how_far_back)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	uint64_t a = to_first_m(&f);
	fx_run(&f, "delete");
	fx_run(&f, "continue");
	REQUIRE(sim_done(f.ss.sim));
	char *h = history(&f, a, "");
	const char *k = strstr(h, "older ones are gone, so it goes back to cycle ");
	REQUIRE(k != NULL);
	unsigned long long back = strtoull(k + strlen("older ones are gone, so it goes back to cycle "), NULL, 10);
	CHECK(back > 0);
	/* every row shown is at or after that cycle */
	for (const char *p = strchr(h, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
		unsigned long long c;
		if (sscanf(p + 1, "%llu", &c) == 1)
			CHECK(c >= back);
	}
	free(h);
	fx_fini(&f);
}

/* The log lives in the arena: after rewinding, history is what it was. */
TEST(history_rewinds_with_the_machine)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	uint64_t a = to_first_m(&f);
	fx_run(&f, "delete");
	uint64_t c0 = sim_cycle(f.ss.sim);
	char *before = history(&f, a, "");
	fx_run(&f, "step 3000");
	char *later = history(&f, a, "");
	CHECK(strcmp(before, later) != 0); /* the line moved on (record or rows) */
	char go[48];
	snprintf(go, sizeof go, "goto %llu", (unsigned long long)c0);
	fx_run(&f, go);
	CHECK_EQ(sim_cycle(f.ss.sim), c0);
	char *again = history(&f, a, "");
	CHECK_STR(again, before);
	fx_run(&f, "step 3000");
	char *later2 = history(&f, a, "");
	CHECK_STR(later2, later);
	free(before);
	free(later);
	free(again);
	free(later2);
	fx_fini(&f);
}

TEST(history_completion_offers_logged_lines)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	uint64_t lines[64];
	CHECK_EQ(cmd_history_lines(&f.ss, lines, 64), (size_t)0); /* no protocol */
	uint64_t a = to_first_m(&f);
	size_t n = cmd_history_lines(&f.ss, lines, 64);
	REQUIRE(n >= 1);
	CHECK_EQ(lines[0], a); /* newest first: the stop's line */
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(lines[i] & 127, 0u);
		for (size_t j = 0; j < i; j++)
			CHECK(lines[i] != lines[j]);
	}
	CHECK_EQ(cmd_history_lines(&f.ss, lines, 1), (size_t)1);
	CHECK(cmd_lookup(NULL, "hist") == cmd_lookup(NULL, "history"));
	CHECK_EQ(cmd_lookup(NULL, "history")->complete, (unsigned)COMPL_LINE);
	fx_fini(&f);
}
