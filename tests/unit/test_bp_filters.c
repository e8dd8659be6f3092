/*
 * test_bp_filters.c: the documented semantics of breakpoint and watchpoint
 * filters (docs/CLI.md, "Breakpoints"), each as stated there:
 *   - `addr` filters compare cache lines: addr=0x1004 matches the line at
 *     0x1000, with every operator, and with the line size given;
 *   - several filters on one field make a range; values are decimal or 0x hex;
 *   - `if STAT OP VALUE` is checked when the event happens, and an
 *     occupancy stat compares its current level;
 *   - code fields take the state names the log prints (case-insensitively),
 *     and those names are the ones the docs list (coherence states of
 *     docs/COHERENCE.md, FRC entry states of docs/TUI.md).
 */
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "coh/coh.h"
#include "debug/bp.h"
#include "mem/frc.h"
#include "bpfx.h"
#include "test.h"


/* Does `break ARGS` (line size lb) stop at an l1.miss of sm 0 at addr? */
static bool addr_stops(const char *args, uint64_t lb, uint64_t addr)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	if (bp_add_break(&f.b, args, lb, &err) < 0) {
		test_fail(__FILE__, __LINE__, "break %s: %s", args, err ? err : "?");
		free(err);
		fx_fini(&f);
		return false;
	}
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_L1_MISS, .sm = 0, .addr = addr);
	bool stop = f.b.stop;
	fx_fini(&f);
	return stop;
}

#define STOPS(args, lb, addr) CHECK(addr_stops(args, lb, addr))
#define PASSES(args, lb, addr) CHECK(!addr_stops(args, lb, addr))

TEST(bp_filter_addr_compares_lines_not_bytes)
{
	/* docs/CLI.md: addr=0x1004 matches the line at 0x1000 */
	STOPS("l1.miss addr=0x1004", 128, 0x1000);
	STOPS("l1.miss addr=0x1004", 128, 0x1004);
	STOPS("l1.miss addr=0x1004", 128, 0x107f);
	PASSES("l1.miss addr=0x1004", 128, 0x1080);
	PASSES("l1.miss addr=0x1004", 128, 0xffc);
	/* the same with decimal: 4100 = 0x1004 */
	STOPS("l1.miss addr=4100", 128, 0x1000);
	/* the line size is the one given (l1.line): 64 B lines */
	STOPS("l1.miss addr=0x1044", 64, 0x1040);
	PASSES("l1.miss addr=0x1044", 64, 0x1000);
	STOPS("l1.miss addr=0x1044", 128, 0x1000);
}

TEST(bp_filter_addr_operators_compare_lines)
{
	/* != is "another line", not "another byte" */
	PASSES("l1.miss addr!=0x1004", 128, 0x1040);
	STOPS("l1.miss addr!=0x1004", 128, 0x1080);
	/* ordering by line: the line at 0x1000 is not below the line of 0x1004 */
	STOPS("l1.miss addr>=0x1004", 128, 0x1000);
	PASSES("l1.miss addr>0x1004", 128, 0x107f);
	STOPS("l1.miss addr>0x1004", 128, 0x1080);
	PASSES("l1.miss addr<0x1004", 128, 0x1000);
	STOPS("l1.miss addr<0x1004", 128, 0xfff);
	STOPS("l1.miss addr<=0x1004", 128, 0x107f);
	PASSES("l1.miss addr<=0x1004", 128, 0x1080);
}

TEST(bp_filter_watch_addr_normalises_the_address)
{
	/* watch ADDR: the line holding ADDR, wherever it moves */
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	REQUIRE(bp_add_watch(&f.b, "0x1004", 128, &err) == 1);
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_L2_ACCESS, .addr = 0x1080);
	EV_EMIT(&f.ev, EV_L2_ACCESS, .addr = 0xf80);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_L2_ACCESS, .addr = 0x1000);
	CHECK(f.b.stop);
	CHECK_CONTAINS(f.b.stop_reason, "Watchpoint 1, l2.access");
	fx_fini(&f);
}

TEST(bp_filter_field_ranges)
{
	/* two filters on one field: a range, ends included; hex values */
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	REQUIRE(bp_add_break(&f.b, "dram.act bank>=2 bank<=0x4", 128, &err) == 1);
	events_update_watch(&f.ev);
	static const int want[] = {0, 0, 1, 1, 1, 0, 0};
	for (int bank = 0; bank < 7; bank++) {
		EV_EMIT(&f.ev, EV_DRAM_ACT, .bank = (int16_t)bank, .row = 1);
		if (f.b.stop != (bool)want[bank])
			test_fail(__FILE__, __LINE__, "bank=%d: stop %d, want %d", bank, f.b.stop, want[bank]);
		bp_clear_stop(&f.b);
	}
	CHECK_EQ(bp_get(&f.b, 1)->hits, 3);
	/* a field range and an address line together: both must hold */
	REQUIRE(bp_add_break(&f.b, "l2.miss unit>0 unit<3 addr=0x2010", 128, &err) == 2);
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_L2_MISS, .unit = 3, .addr = 0x2000);
	EV_EMIT(&f.ev, EV_L2_MISS, .unit = 0, .addr = 0x2000);
	EV_EMIT(&f.ev, EV_L2_MISS, .unit = 1, .addr = 0x2080);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_L2_MISS, .unit = 2, .addr = 0x2040);
	CHECK(f.b.stop);
	CHECK_EQ(f.b.stop_id, 2);
	fx_fini(&f);
}

TEST(bp_filter_condition_checked_when_the_event_happens)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	/* a counter: its value at the event */
	REQUIRE(bp_add_break(&f.b, "l1.miss if l1.hits == 3", 128, &err) == 1);
	/* an occupancy: its current level, not a total */
	REQUIRE(bp_add_break(&f.b, "l1.access if l1.mshr.occupancy > 1", 128, &err) == 2);
	events_update_watch(&f.ev);
	stat_add(&f.st, f.hits, 2);
	EV_EMIT(&f.ev, EV_L1_MISS, .addr = 0x40);
	CHECK(!f.b.stop);
	stat_add(&f.st, f.hits, 1);
	EV_EMIT(&f.ev, EV_L1_MISS, .addr = 0x40);
	CHECK(f.b.stop);
	CHECK_EQ(f.b.stop_id, 1);
	bp_clear_stop(&f.b);
	stat_add(&f.st, f.hits, 1); /* 4: false again */
	EV_EMIT(&f.ev, EV_L1_MISS, .addr = 0x40);
	CHECK(!f.b.stop);

	f.now = 1;
	stat_occ_set(&f.st, f.occ, 3);
	f.now = 2;
	stat_occ_set(&f.st, f.occ, 1); /* level 1 now (it was 3 a cycle ago) */
	EV_EMIT(&f.ev, EV_L1_ACCESS, .addr = 0x40);
	CHECK(!f.b.stop);
	stat_occ_set(&f.st, f.occ, 2);
	EV_EMIT(&f.ev, EV_L1_ACCESS, .addr = 0x40);
	CHECK(f.b.stop);
	CHECK_EQ(f.b.stop_id, 2);
	fx_fini(&f);
}

/* Does text hold word as a whole word (not inside IM_D_X or MIA)? */
static bool has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		bool l = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		bool r = !(isalnum((unsigned char)p[n]) || p[n] == '_');
		if (l && r)
			return true;
	}
	return false;
}

static char *read_doc(const char *path)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		test_fail(__FILE__, __LINE__, "%s: cannot read (run from the repository root)", path);
		return NULL;
	}
	fseek(fp, 0, SEEK_END);
	long n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	if (s && fread(s, 1, (size_t)n, fp) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (s)
		s[n] = 0;
	fclose(fp);
	return s;
}

TEST(bp_filter_coherence_state_names_are_the_documented_ones)
{
	char *doc = read_doc("docs/COHERENCE.md");
	REQUIRE(doc);
	for (unsigned st = 0; st < CS__COUNT; st++)
		if (!has_word(doc, coh_state_name(st)))
			test_fail(__FILE__, __LINE__, "coherence state %u '%s' is not in docs/COHERENCE.md", st, coh_state_name(st));
	for (unsigned st = 0; st < DS__COUNT; st++)
		if (!has_word(doc, coh_dstate_name(st)))
			test_fail(__FILE__, __LINE__, "directory state %u '%s' is not in docs/COHERENCE.md", st, coh_dstate_name(st));
	free(doc);

	/* docs/CLI.md's example: the stop message prints the names the filter
	 * takes (`coh.transition sm=1 addr=0x10010400 from=IM_D to=M`), in any case */
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	REQUIRE(bp_add_break(&f.b, "coh.transition from=im_d to=M", 128, &err) == 1);
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_COH_TRANSITION, .sm = 1, .addr = 0x10010400, .a = CS_IS_D, .b = CS_M);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_COH_TRANSITION, .sm = 1, .addr = 0x10010400, .a = CS_IM_D, .b = CS_M);
	REQUIRE(f.b.stop);
	CHECK_CONTAINS(f.b.stop_reason, "coh.transition sm=1 addr=0x10010400 from=IM_D to=M");
	fx_fini(&f);
}

TEST(bp_filter_frc_state_names_are_the_documented_ones)
{
	/* docs/TUI.md, the FRC panel: STATE free, fetching, swapping / evicting */
	char *doc = read_doc("docs/TUI.md");
	REQUIRE(doc);
	/* the FRC panel's legend line: "  STATE   free, fetching (red), ..." */
	const char *row = NULL;
	for (const char *p = strstr(doc, "STATE "); p && !row; p = strstr(p + 1, "STATE ")) {
		const char *v = p + 6;
		while (*v == ' ')
			v++;
		if (p > doc && p[-1] == ' ' && strncmp(v, frc_state_name(FRC_FREE), strlen(frc_state_name(FRC_FREE))) == 0)
			row = p; /* the legend starts with the free state */
	}
	REQUIRE(row);
	const char *eol = strchr(row, '\n');
	char line[256];
	size_t n = eol ? (size_t)(eol - row) : strlen(row);
	if (n >= sizeof line)
		n = sizeof line - 1;
	memcpy(line, row, n);
	line[n] = 0;
	static const unsigned states[] = {FRC_FREE, FRC_FETCHING, FRC_SWAPPING, FRC_EVICTING};
	for (size_t i = 0; i < ARRAY_LEN(states); i++)
		if (!has_word(line, frc_state_name(states[i])))
			test_fail(__FILE__, __LINE__, "FRC state %u '%s' is not in docs/TUI.md's '%s'", states[i],
				  frc_state_name(states[i]), line);
	CHECK_STR(frc_state_name(FRC_EVICTING + 1), "?");
	free(doc);
}
