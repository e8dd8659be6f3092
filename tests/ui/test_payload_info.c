/*
 * test_payload_info.c: `info coalesce` names the segment a request carries
 * with icnt.payload = segment (gtx480), derived from the lanes' addresses
 * and the rule (coalesce.h), and says nothing of segments with `line`.
 */
#include <stdio.h>
#include <string.h>

#include "core/coalesce.h"
#include "debug/inspect.h"
#include "sesstest.h"
#include "test.h"

/* Continue to the first store transpose_naive coalesces on gtx480. */
static bool to_first_store(struct fx *f, struct coal_info *ci)
{
	fx_run(f, "break coalesce");
	for (int stop = 0; stop < 200; stop++) {
		fx_run(f, "continue");
		const struct event *e = &f->ss.bps.stop_ev;
		if (e->kind != EV_COALESCE)
			return false;
		if (inspect_coalesce(f->ss.sim, e->sm, ci) && ci->valid && ci->op == KOP_ST)
			return true;
	}
	return false;
}

TEST(payload_info_coalesce_names_the_segment)
{
	for (int seg = 0; seg < 2; seg++) {
		struct fx f;
		fx_init_wl(&f, "transpose_naive");
		REQUIRE(fx_run(&f, "load gtx480") == CMD_RESET);
		if (!seg)
			REQUIRE(fx_run(&f, "set icnt.payload line") & CMD_RESET);
		struct coal_info ci;
		REQUIRE(to_first_store(&f, &ci));
		CHECK_EQ(ci.segment, seg == 1);
		CHECK_EQ(fx_run(&f, "info coalesce"), CMD_OK);
		REQUIRE(ci.plan.n > 1);
		for (int k = 0; k < ci.plan.n; k++) {
			/* the store's lanes each write 4 B: the segment is the 32 B chunk of
			 * the first lane's address */
			int l = ci.plan.v[k].first;
			unsigned off = (unsigned)(ci.addr[l] % (uint64_t)ci.line) / 32 * 32;
			char want[160];
			snprintf(want, sizeof want, "r%-2d line 0x%llx  whole line  segment bytes %u-%u  <- lanes", k,
				 (unsigned long long)ci.plan.v[k].line, off, off + 31);
			if (seg)
				CHECK_CONTAINS(f.cap.out.s, want);
		}
		if (seg)
			CHECK_CONTAINS(f.cap.out.s, "icnt.payload segment: a request that travels as itself (a store)");
		else
			CHECK(!strstr(f.cap.out.s, "segment"));
		fx_fini(&f);
	}
}
