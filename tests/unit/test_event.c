/* test_event.c: event table, formatting, log ring and watch masks. */
#include <stdlib.h>

#include "debug/bp.h"
#include "coh/coh.h"
#include "debug/inspect.h"
#include "reuse/reuse.h"
#include "sim/event.h"
#include "sim/stats.h"
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

/* Every coded event field (evcode.h's enums and the enums of inspect.h, coh.h
 * and reuse.h): each code has a name, the name parses back to the code (what
 * `break l2.nack reason=pool_full` relies on), and the table ends at the
 * enum's count. A coded field missing from this list fails too. */
TEST(event_codes_round_trip)
{
	static const struct {
		unsigned kind, bit, count;
	} coded[] = {
		{EV_WARP_STALL, EVF_A, STALL__COUNT},   {EV_L1_ACCESS, EVF_A, EVA__COUNT},
		{EV_L1_MSHR_FULL, EVF_A, EVM__COUNT},   {EV_ICNT_STALL, EVF_A, EVI__COUNT},
		{EV_L2_ACCESS, EVF_A, EVA__COUNT},      {EV_L2_NACK, EVF_A, NACK__COUNT},
		{EV_FRC_FALLBACK, EVF_A, FRCFB__COUNT}, {EV_RF_WB_DRAIN, EVF_B, EVD__COUNT},
		{EV_REUSE_ACCESS, EVF_B, RC__COUNT},    {EV_REUSE_INF, EVF_B, RC__COUNT},
		{EV_REUSE_CLASS, EVF_B, RC__COUNT},     {EV_L1_BYPASS, EVF_A, BYPEV__COUNT},
		{EV_COH_TRANSITION, EVF_A, CS__COUNT},  {EV_COH_TRANSITION, EVF_B, CS__COUNT},
		{EV_COH_MSG, EVF_A, CM__COUNT},         {EV_COH_NACK, EVF_A, CM__COUNT},
		{EV_COH_KFLUSH, EVF_A, EVK__COUNT},     {EV_WARP_ISSUE, EVF_B, EVO__COUNT},
	};
	for (size_t i = 0; i < ARRAY_LEN(coded); i++) {
		const char *field = event_field_name_of(coded[i].kind, coded[i].bit);
		REQUIRE(coded[i].count > 1);
		for (unsigned v = 0; v < coded[i].count; v++) {
			const char *name = event_field_code_name(coded[i].kind, coded[i].bit, v);
			if (!name) {
				CHECK_STR(event_defs[coded[i].kind].name, "has a code without a name");
				continue;
			}
			int64_t back = -1;
			CHECK_EQ(event_field_code(coded[i].kind, coded[i].bit, name, &back), 0);
			CHECK_EQ(back, (int64_t)v);
			CHECK(strcmp(field, "a") != 0 && strcmp(field, "b") != 0); /* the slot has a name */
		}
		CHECK(event_field_code_name(coded[i].kind, coded[i].bit, coded[i].count) == NULL);
	}
	/* no other kind's slot has codes */
	for (unsigned k = 0; k < EV__COUNT; k++)
		for (unsigned bit = EVF_A; bit <= EVF_B; bit <<= 1) {
			if (!event_field_code_name(k, bit, 0))
				continue;
			bool listed = false;
			for (size_t i = 0; i < ARRAY_LEN(coded); i++)
				listed |= coded[i].kind == k && coded[i].bit == bit;
			CHECK_STR(listed ? "" : event_defs[k].name, "");
		}
}

/* A filter by a reason's name matches the event an emitter writes with the
 * enumerator (dir_locked is 4, pool_full the last). */
TEST(event_break_reason_by_name)
{
	uint64_t now = 0;
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
	REQUIRE(bp_add_break(&b, "l2.nack reason=pool_full", 0, &err) > 0);
	REQUIRE(bp_add_break(&b, "frc.fallback reason=no_victim", 0, &err) > 0);
	REQUIRE(bp_add_break(&b, "l1.mshr_full reason=issue", 0, &err) > 0);
	events_update_watch(&ev);
	EV_EMIT(&ev, EV_L2_NACK, .a = NACK_DIR_LOCKED);
	CHECK(!b.stop);
	EV_EMIT(&ev, EV_L2_NACK, .a = NACK_POOL_FULL);
	CHECK(b.stop && b.stop_id == 1);
	bp_clear_stop(&b);
	EV_EMIT(&ev, EV_FRC_FALLBACK, .a = FRCFB_POOL_FULL);
	CHECK(!b.stop);
	EV_EMIT(&ev, EV_FRC_FALLBACK, .a = FRCFB_NO_VICTIM);
	CHECK(b.stop && b.stop_id == 2);
	bp_clear_stop(&b);
	EV_EMIT(&ev, EV_L1_MSHR_FULL, .a = EVM_ISSUE);
	CHECK(b.stop && b.stop_id == 3);
	bp_fini(&b);
	stats_fini(&st);
	arena_fini(&a);
}
