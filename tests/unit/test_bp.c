/* test_bp.c: breakpoint parsing, matching, watchpoints, temporaries. */
#include <stdlib.h>

#include "debug/bp.h"
#include "coh/coh.h"
#include "reuse/reuse.h"
#include "bpfx.h"
#include "test.h"


static char *add_fails(struct bp_set *b, const char *args)
{
	char *err = NULL;
	CHECK_EQ(bp_add_break(b, args, 128, &err), -1);
	return err;
}

TEST(bp_parse_errors)
{
	struct bpfx f;
	fx_init(&f);
	char *e = add_fails(&f.b, "dram.row_conflict bnak=1");
	CHECK_STR(e, "unknown field 'bnak' for dram.row_conflict (fields: ch bank row addr open_row)");
	free(e);
	e = add_fails(&f.b, "l1.mis");
	CHECK_STR(e, "unknown event 'l1.mis' (did you mean l1.miss?)");
	free(e);
	e = add_fails(&f.b, "l1.miss sm=zz");
	CHECK_CONTAINS(e, "'zz'");
	free(e);
	e = add_fails(&f.b, "l1.miss sm");
	CHECK_CONTAINS(e, "field=value");
	free(e);
	e = add_fails(&f.b, "l1.miss if l1.hts > 3");
	CHECK_STR(e, "unknown stat 'l1.hts' (did you mean l1.hits?)");
	free(e);
	e = add_fails(&f.b, "l1.miss if");
	CHECK_CONTAINS(e, "condition");
	free(e);
	e = add_fails(&f.b, "cycle abc");
	CHECK_CONTAINS(e, "cycle N");
	free(e);
	e = add_fails(&f.b, "");
	CHECK_CONTAINS(e, "usage");
	free(e);
	char *err = NULL;
	CHECK_EQ(bp_add_watch(&f.b, "0xzz", 128, &err), -1);
	CHECK(err != NULL);
	free(err);
	CHECK_EQ(f.b.n, 0);
	fx_fini(&f);
}

TEST(bp_event_filters_and_condition)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	int id = bp_add_break(&f.b, "l1.miss sm=1 addr=0x1000 if l1.hits >= 2", 128, &err);
	CHECK_EQ(id, 1);
	CHECK(err == NULL);
	CHECK_STR(bp_get(&f.b, id)->text, "break l1.miss sm=1 addr=0x1000 if l1.hits >= 2");
	events_update_watch(&f.ev);
	f.now = 5;
	EV_EMIT(&f.ev, EV_L1_MISS, .sm = 1, .addr = 0x1040); /* same line, but condition false */
	CHECK(!f.b.stop);
	stat_add(&f.st, f.hits, 2);
	EV_EMIT(&f.ev, EV_L1_MISS, .sm = 0, .addr = 0x1040); /* wrong sm */
	EV_EMIT(&f.ev, EV_L1_MISS, .sm = 1, .addr = 0x1080); /* next line */
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_L1_MISS, .sm = 1, .addr = 0x1004);
	REQUIRE(f.b.stop);
	CHECK_EQ(f.b.stop_id, 1);
	CHECK_EQ(f.b.stop_ev.addr, 0x1004);
	CHECK_EQ(bp_get(&f.b, 1)->hits, 1);
	bp_clear_stop(&f.b);
	CHECK(!f.b.stop);
	/* disabled breakpoints neither fire nor are watched */
	CHECK_EQ(bp_enable(&f.b, 1, false), 0);
	f.ev.watch[0] = 0;
	events_update_watch(&f.ev);
	CHECK(!ev_on(&f.ev, EV_L1_MISS));
	CHECK_EQ(bp_enable(&f.b, 99, true), -1);
	fx_fini(&f);
}

TEST(bp_field_ops_and_hex)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	CHECK(bp_add_break(&f.b, "dram.act bank>=0x2 row!=7", 128, &err) > 0);
	EV_EMIT(&f.ev, EV_DRAM_ACT, .bank = 1, .row = 3); /* not watched yet: no effect */
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_DRAM_ACT, .bank = 1, .row = 3);
	EV_EMIT(&f.ev, EV_DRAM_ACT, .bank = 2, .row = 7);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_DRAM_ACT, .bank = 3, .row = 8);
	CHECK(f.b.stop);
	fx_fini(&f);
}

TEST(bp_cycle_and_next_cycle)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	CHECK(!bp_has_polled(&f.b));
	CHECK_EQ(bp_add_break(&f.b, "cycle 100", 128, &err), 1);
	CHECK_EQ(bp_add_break(&f.b, "cycle 0x40", 128, &err), 2);
	CHECK(bp_has_polled(&f.b));
	CHECK_EQ(bp_next_cycle(&f.b, 0), 64);
	CHECK_EQ(bp_next_cycle(&f.b, 64), 100);
	CHECK(bp_next_cycle(&f.b, 100) == UINT64_MAX);
	bp_poll(&f.b, 63);
	CHECK(!f.b.stop);
	bp_poll(&f.b, 64);
	CHECK(f.b.stop);
	CHECK_STR(f.b.stop_reason, "Breakpoint 2, cycle 64 at cycle 64");
	CHECK_EQ(bp_delete(&f.b, 2), 1);
	CHECK_EQ(bp_delete(&f.b, 2), 0);
	CHECK_EQ(bp_delete(&f.b, -1), 1);
	CHECK_EQ(f.b.n, 0);
	fx_fini(&f);
}

TEST(bp_watch_stat_edge_triggered)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	int id = bp_add_watch(&f.b, "l1.mshr.occupancy>=2", 128, &err);
	CHECK_EQ(id, 1);
	CHECK(err == NULL);
	f.now = 1;
	stat_occ_set(&f.st, f.occ, 1);
	bp_poll(&f.b, 1);
	CHECK(!f.b.stop);
	f.now = 2;
	stat_occ_set(&f.st, f.occ, 3);
	bp_poll(&f.b, 2);
	REQUIRE(f.b.stop);
	CHECK_STR(f.b.stop_reason, "Watchpoint 1, l1.mshr.occupancy >= 2 (now 3) at cycle 2");
	bp_clear_stop(&f.b);
	bp_poll(&f.b, 3); /* still true: no new trigger */
	CHECK(!f.b.stop);
	stat_occ_set(&f.st, f.occ, 0);
	bp_poll(&f.b, 4);
	stat_occ_set(&f.st, f.occ, 2);
	bp_poll(&f.b, 5);
	CHECK(f.b.stop);
	CHECK_EQ(bp_get(&f.b, 1)->hits, 2);
	fx_fini(&f);
}

/* gdb's `watch EXPR`: `watch STAT` stops at every change of the value (up
 * or down), once per change, and says from what to what. */
TEST(bp_watch_stat_change)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	stat_occ_set(&f.st, f.occ, 1);
	int id = bp_add_watch(&f.b, "l1.mshr.occupancy", 128, &err);
	CHECK_EQ(id, 1);
	CHECK(err == NULL);
	bp_poll(&f.b, 1); /* unchanged since the watch was set */
	CHECK(!f.b.stop);
	stat_occ_set(&f.st, f.occ, 3);
	bp_poll(&f.b, 2);
	REQUIRE(f.b.stop);
	CHECK_STR(f.b.stop_reason, "Watchpoint 1, l1.mshr.occupancy changed from 1 to 3 at cycle 2");
	bp_clear_stop(&f.b);
	bp_poll(&f.b, 3); /* still 3: no new stop */
	CHECK(!f.b.stop);
	stat_occ_set(&f.st, f.occ, 0);
	bp_poll(&f.b, 4);
	REQUIRE(f.b.stop);
	CHECK_STR(f.b.stop_reason, "Watchpoint 1, l1.mshr.occupancy changed from 3 to 0 at cycle 4");
	CHECK_EQ(bp_get(&f.b, 1)->hits, 2);
	bp_clear_stop(&f.b);
	/* A rewind restores the stats; the watch compares against them. */
	stat_occ_set(&f.st, f.occ, 3);
	bp_resync_changes(&f.b);
	bp_poll(&f.b, 5);
	CHECK(!f.b.stop);
	CHECK(bp_add_watch(&f.b, "l1.mshr.ocupancy", 128, &err) < 0);
	CHECK_CONTAINS(err, "did you mean l1.mshr.occupancy");
	free(err);
	fx_fini(&f);
}

TEST(bp_watch_addr_line)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	CHECK_EQ(bp_add_watch(&f.b, "0x2010", 128, &err), 1);
	CHECK_EQ(bp_get(&f.b, 1)->line_addr, 0x2000);
	events_update_watch(&f.ev);
	CHECK(ev_on(&f.ev, EV_L1_ACCESS) && ev_on(&f.ev, EV_L2_ACCESS) && ev_on(&f.ev, EV_DRAM_ENQUEUE));
	EV_EMIT(&f.ev, EV_L1_ACCESS, .addr = 0x2080);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_DRAM_ENQUEUE, .addr = 0x207f, .ch = 1);
	CHECK(f.b.stop);
	CHECK_CONTAINS(f.b.stop_reason, "Watchpoint 1, dram.enqueue");
	fx_fini(&f);
}

TEST(bp_until_is_temporary)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	CHECK_EQ(bp_add_until(&f.b, "l2.miss unit=1", 128, &err), 1);
	CHECK(bp_get(&f.b, 1)->temporary);
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_L2_MISS, .unit = 1);
	CHECK(f.b.stop);
	CHECK_EQ(f.b.n, 0);
	CHECK_CONTAINS(f.b.stop_reason, "Temporary breakpoint 1, l2.miss");
	fx_fini(&f);
}

TEST(bp_rebind_after_rebuild)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	CHECK(bp_add_watch(&f.b, "l1.hits > 5", 128, &err) > 0);
	CHECK(bp_add_watch(&f.b, "l1.mshr.occupancy > 5", 128, &err) > 0);
	uint64_t now2 = 0;
	struct arena a2;
	arena_init(&a2);
	struct stats s2;
	stats_init(&s2, &now2);
	uint32_t id = stats_counter(&s2, "other", "");
	id = stats_counter(&s2, "l1.hits", "");
	stats_freeze(&s2, &a2);
	CHECK_EQ(bp_rebind(&f.b, &s2), 1);
	CHECK_EQ(f.b.v[0].stat, id);
	CHECK(f.b.v[0].enabled);
	CHECK(!f.b.v[1].enabled);
	stats_fini(&s2);
	arena_fini(&a2);
	fx_fini(&f);
}

/* Each kind's own names for a and b, and value names for coded fields. */
TEST(bp_named_fields_and_codes)
{
	struct bpfx f;
	fx_init(&f);
	char *err = NULL;
	CHECK(bp_add_break(&f.b, "coh.transition from=s to=M", 128, &err) > 0);
	CHECK(err == NULL);
	CHECK(bp_add_break(&f.b, "reuse.class class=associativity dist>=64", 128, &err) > 0);
	CHECK(bp_add_break(&f.b, "coh.msg type=Inv", 128, &err) > 0);
	CHECK(bp_add_break(&f.b, "l2.nack reason=dir_locked", 128, &err) > 0);
	CHECK(err == NULL);
	events_update_watch(&f.ev);
	EV_EMIT(&f.ev, EV_COH_TRANSITION, .a = CS_I, .b = CS_M); /* from I: no */
	EV_EMIT(&f.ev, EV_COH_TRANSITION, .a = CS_S, .b = CS_E); /* to E: no */
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_COH_TRANSITION, .sm = 2, .addr = 0x40, .a = CS_S, .b = CS_M);
	REQUIRE(f.b.stop);
	CHECK_EQ(f.b.stop_id, 1);
	CHECK_CONTAINS(f.b.stop_reason, "coh.transition sm=2 addr=0x40 from=S to=M");
	bp_clear_stop(&f.b);
	EV_EMIT(&f.ev, EV_REUSE_CLASS, .a = 80, .b = RC_CAPACITY);
	EV_EMIT(&f.ev, EV_REUSE_CLASS, .a = 63, .b = RC_ASSOC);
	EV_EMIT(&f.ev, EV_REUSE_CLASS, .a = -1, .b = RC_ASSOC);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_REUSE_CLASS, .a = 64, .b = RC_ASSOC);
	REQUIRE(f.b.stop);
	CHECK_EQ(f.b.stop_id, 2);
	bp_clear_stop(&f.b);
	EV_EMIT(&f.ev, EV_COH_MSG, .a = CM_GETS);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_COH_MSG, .a = CM_INV);
	CHECK_EQ(f.b.stop_id, 3);
	bp_clear_stop(&f.b);
	EV_EMIT(&f.ev, EV_L2_NACK, .a = 0);
	CHECK(!f.b.stop);
	EV_EMIT(&f.ev, EV_L2_NACK, .a = 4);
	CHECK_EQ(f.b.stop_id, 4);
	/* raw slots and numbers still work */
	CHECK(bp_add_break(&f.b, "coh.transition b=4", 128, &err) > 0);
	char *e = add_fails(&f.b, "coh.transition to=Q");
	CHECK_STR(e, "bad value 'Q' for to (a number, or one of: I S E O M N V IS_D IM_D SM_D OM_D IN_D SN_D MI_A "
		     "II_A)");
	free(e);
	e = add_fails(&f.b, "reuse.access klass=2");
	CHECK_STR(e, "unknown field 'klass' for reuse.access (fields: sm warp unit addr set dist class)");
	free(e);
	e = add_fails(&f.b, "dram.act to=3"); /* another kind's name */
	CHECK_CONTAINS(e, "unknown field 'to'");
	free(e);
	char list[128];
	event_field_list(EV_COH_TRANSITION, list, sizeof list);
	CHECK_STR(list, "sm addr from to");
	fx_fini(&f);
}
