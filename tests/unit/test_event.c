/* test_event.c: event table, formatting, log ring and watch masks. */
#include <stdlib.h>

#include "bp.h"
#include "event.h"
#include "stats.h"
#include "test.h"

TEST(event_table_complete)
{
	for (unsigned i = 0; i < EV__COUNT; i++) {
		REQUIRE(event_defs[i].name != NULL);
		CHECK(event_defs[i].desc && event_defs[i].desc[0]);
		CHECK_EQ(event_find(event_defs[i].name), (int)i);
		for (unsigned j = 0; j < i; j++)
			CHECK(strcmp(event_defs[i].name, event_defs[j].name) != 0);
	}
	CHECK_EQ(event_find("dram.row_conflict"), EV_DRAM_ROW_CONFLICT);
	CHECK_EQ(event_find("nope"), -1);
	CHECK_EQ(event_field_bit("bank"), EVF_BANK);
	CHECK_EQ(event_field_bit("bnak"), 0);
}

TEST(event_format_fields_only)
{
	struct event e = {.kind = EV_DRAM_ROW_CONFLICT, .cycle = 345, .ch = 0, .bank = 1, .row = 12,
			  .addr = 0x1c00, .a = 7, .sm = 5};
	char buf[200];
	event_format(&e, buf, sizeof buf);
	CHECK_STR(buf, "cycle 345 dram.row_conflict ch=0 bank=1 row=12 addr=0x1c00 open_row=7");
	char small[12];
	event_format(&e, small, sizeof small); /* truncates, never overflows */
	CHECK_EQ(strlen(small), 11);
	char list[64];
	event_field_list(EV_DRAM_ROW_CONFLICT, list, sizeof list);
	CHECK_STR(list, "ch bank row addr open_row");
}

TEST(event_log_ring_and_mask)
{
	uint64_t now = 0;
	struct arena a;
	arena_init(&a);
	struct events ev;
	events_init(&ev, &a, 20, &now); /* rounds up to 32 */
	CHECK_EQ(ev.cap, 32);
	CHECK(!ev_on(&ev, EV_L1_MISS));
	EV_EMIT(&ev, EV_L1_MISS, .sm = 1); /* not watched: costs nothing, records nothing */
	CHECK_EQ(events_logged(&ev), 0);
	uint64_t m[EV_MASK_WORDS] = {0};
	int nl1 = 0;
	for (unsigned i = 0; i < EV__COUNT; i++)
		nl1 += strncmp(event_defs[i].name, "l1.", 3) == 0;
	CHECK_EQ(event_match("l1.*", m), nl1);
	CHECK(nl1 > 3);
	for (int i = 0; i < EV_MASK_WORDS; i++)
		ev.log_mask[i] = m[i];
	events_update_watch(&ev);
	CHECK(ev_on(&ev, EV_L1_MISS));
	CHECK(!ev_on(&ev, EV_DRAM_ACT));
	for (now = 0; now < 40; now++)
		EV_EMIT(&ev, EV_L1_MISS, .sm = 1, .addr = now * 128);
	EV_EMIT(&ev, EV_DRAM_ACT, .ch = 0);
	CHECK_EQ(events_logged(&ev), 40);
	CHECK_EQ(ev.counts[EV_L1_MISS], 40);
	const struct event *e = events_recent(&ev, 0);
	REQUIRE(e != NULL);
	CHECK_EQ(e->cycle, 39);
	CHECK_EQ(e->addr, 39 * 128);
	CHECK_EQ(events_recent(&ev, 31)->cycle, 8);
	CHECK(events_recent(&ev, 32) == NULL);
	char *t = events_log_filter_text(&ev);
	CHECK_CONTAINS(t, "l1.miss");
	free(t);
	events_log_all(&ev, true);
	CHECK(ev_on(&ev, EV_DRAM_ACT));
	t = events_log_filter_text(&ev);
	CHECK_STR(t, "all");
	free(t);
	events_log_all(&ev, false);
	CHECK(!ev_on(&ev, EV_DRAM_ACT));
	arena_fini(&a);
}

TEST(event_watch_includes_breakpoints)
{
	uint64_t now = 7;
	struct arena a;
	arena_init(&a);
	struct stats st;
	stats_init(&st, &now);
	stats_freeze(&st, &a);
	struct events ev;
	events_init(&ev, &a, 16, &now);
	struct bp_set b;
	bp_init(&b, &st);
	ev.bps = &b;
	char *err = NULL;
	CHECK(bp_add_break(&b, "dram.act bank=2", 128, &err) > 0);
	events_update_watch(&ev);
	CHECK(ev_on(&ev, EV_DRAM_ACT));
	CHECK(!ev_on(&ev, EV_DRAM_PRE));
	EV_EMIT(&ev, EV_DRAM_ACT, .ch = 0, .bank = 1, .row = 3);
	CHECK(!b.stop);
	CHECK_EQ(events_logged(&ev), 0); /* watched for the breakpoint, not logged */
	EV_EMIT(&ev, EV_DRAM_ACT, .ch = 0, .bank = 2, .row = 3);
	CHECK(b.stop);
	CHECK_STR(b.stop_reason, "Breakpoint 1, dram.act ch=0 bank=2 row=3 at cycle 8 (logged in cycle 7)");
	bp_fini(&b);
	stats_fini(&st);
	arena_fini(&a);
}
