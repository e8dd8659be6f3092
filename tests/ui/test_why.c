/*
 * test_why.c: `why warp` for every stall reason the core has, each found by
 * running a small configuration until a warp shows it; the chain's links are
 * checked against the engine's own accessors (MSHR entries, inspect_line,
 * DRAM bank state). `why` at a stop, `why ADDR`, `info stalls` (per-SM
 * counts add up to core.stall.* and the cycles) and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "sesstest.h"
#include "sim/stats.h"
#include "test.h"

/* Step one cycle at a time until some warp stalls for `reason` (and, when
 * `want` is set, its chain contains it). Leaves the chain in f->cap.out. */
static bool find_stall(struct fx *f, unsigned reason, const char *want, uint64_t max, int *smo, int *wo)
{
	for (uint64_t c = 0; c < max; c++) {
		const struct sim *s = f->ss.sim;
		for (int sm = 0; sm < inspect_sms(s); sm++)
			for (int w = 0; w < inspect_warp_slots(s); w++) {
				struct warp_info wi;
				if (!inspect_warp(s, sm, w, &wi) || wi.stall != reason || wi.state == WS_EMPTY)
					continue;
				char cmd[64];
				snprintf(cmd, sizeof cmd, "why warp %d.%d", sm, w);
				if (fx_run(f, cmd) != CMD_OK)
					return false;
				if (!want || strstr(f->cap.out.s, want)) {
					*smo = sm;
					*wo = w;
					return true;
				}
			}
		if (fx_run(f, "step 1") != CMD_RUN || sim_done(f->ss.sim))
			return false;
	}
	return false;
}

static void setup(struct fx *f, const char *wl, const char *const *sets)
{
	fx_init_wl(f, wl);
	for (; sets && *sets; sets++)
		REQUIRE((fx_run(f, *sets) & CMD_ERR) == 0);
}

/* The n-th line (0-based) of the captured output, "" past the end. */
static const char *line_of(const char *s, int n, char *buf, size_t len)
{
	for (; n > 0 && s; n--) {
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	if (!s)
		return "";
	size_t k = strcspn(s, "\n");
	if (k >= len)
		k = len - 1;
	memcpy(buf, s, k);
	buf[k] = 0;
	return buf;
}

TEST(why_scoreboard_chain_matches_the_mshrs_and_the_line)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_SCOREBOARD, "L1 MSHR entry", 2000, &sm, &w));
	char out[4096], b[512];
	snprintf(out, sizeof out, "%s", f.cap.out.s);
	/* warp -> register -> load -> L1 MSHR entry -> L2 bank -> ... */
	unsigned reg, reg2, e;
	unsigned long long line, issued;
	REQUIRE(sscanf(line_of(out, 1, b, sizeof b), "[%*d] warp %*d waits on r%u", &reg) == 1);
	REQUIRE(sscanf(line_of(out, 2, b, sizeof b), "  <- [%*d] load into r%u by warp %*d issued at cycle %llu", &reg2, &issued) == 2);
	CHECK_EQ(reg2, reg);
	CHECK(issued < sim_cycle(f.ss.sim));
	REQUIRE(sscanf(line_of(out, 3, b, sizeof b), "  <- [%*d] L1 MSHR entry %u (line 0x%llx", &e, &line) == 2);
	struct mshr_entry_info mi;
	REQUIRE(inspect_mshr_entry(f.ss.sim, CACHE_L1, sm, (int)e, &mi));
	CHECK(mi.valid);
	CHECK_EQ(mi.addr, line);
	/* The L2 bank named is the one `info line` names for the line. */
	struct strbuf sb;
	sb_init(&sb);
	inspect_line(f.ss.sim, line, &sb);
	unsigned bank;
	REQUIRE(sscanf(line_of(out, 4, b, sizeof b), "  <- [%*d] L2 bank %u", &bank) == 1);
	char want[32];
	snprintf(want, sizeof want, "L2 bank %u", bank);
	CHECK_CONTAINS(sb.s, want);
	sb_fini(&sb);
	fx_fini(&f);
}

TEST(why_dram_link_matches_the_bank)
{
	struct fx f;
	setup(&f, "gather_random", NULL);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_SCOREBOARD, "] DRAM ch", 4000, &sm, &w));
	const char *p = strstr(f.cap.out.s, "] DRAM ch");
	unsigned ch, bk;
	int queued;
	/* In the bank's queue: "Nth in queue (of M)"; else "STATE, M queued". */
	REQUIRE(sscanf(p, "] DRAM ch%u bank %u: %*s in queue (of %d)", &ch, &bk, &queued) == 3 ||
		sscanf(p, "] DRAM ch%u bank %u: %*s %d queued", &ch, &bk, &queued) == 3);
	struct dram_bank_info bi;
	REQUIRE(inspect_dram_bank(f.ss.sim, (int)ch, (int)bk, &bi));
	CHECK_EQ(queued, bi.queue);
	if (bi.open_row >= 0 && strstr(p, "row conflict")) {
		char want[48];
		snprintf(want, sizeof want, "row %lld open", (long long)bi.open_row);
		CHECK_CONTAINS(p, want);
	}
	fx_fini(&f);
}

TEST(why_row_conflict_is_found)
{
	struct fx f;
	setup(&f, "gather_random", NULL);
	int sm, w;
	CHECK(find_stall(&f, STALL_SCOREBOARD, "row conflict (row", 6000, &sm, &w));
	fx_fini(&f);
}

TEST(why_memory_buffer_full)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_MEM, NULL, 2000, &sm, &w));
	CHECK_CONTAINS(f.cap.out.s, "memory instruction buffer full (8 of 8)");
	CHECK_CONTAINS(f.cap.out.s, "] oldest in the buffer: ");
	fx_fini(&f);
}

TEST(why_mshr_full)
{
	static const char *const sets[] = {"set l1.mshr.entries 1", NULL};
	struct fx f;
	setup(&f, "vecadd", sets);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_MSHR_FULL, NULL, 4000, &sm, &w));
	CHECK_CONTAINS(f.cap.out.s, "behind a full L1 MSHR file");
	CHECK_CONTAINS(f.cap.out.s, "L1 MSHR file: 1 of 1 entries used");
	fx_fini(&f);
}

TEST(why_nack_retry)
{
	static const char *const sets[] = {"set l2.mshr.entries 1", NULL};
	struct fx f;
	setup(&f, "gather_random", sets);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_SCOREBOARD, "NACKed by L2 bank", 6000, &sm, &w));
	CHECK_CONTAINS(f.cap.out.s, "retry queue");
	fx_fini(&f);
}

TEST(why_barrier_names_a_late_warp)
{
	struct fx f;
	setup(&f, "transpose_tiled", NULL);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_BARRIER, "not yet arrived: warp", 4000, &sm, &w));
	char b[256];
	int arrived, of;
	const char *p = strstr(f.cap.out.s, "CTA ");
	REQUIRE(p && sscanf(p, "CTA %*d: %d of %d warps arrived", &arrived, &of) == 2);
	CHECK(arrived < of);
	/* The late warp really is not at the barrier. */
	int late;
	p = strstr(f.cap.out.s, "not yet arrived: warp ");
	REQUIRE(sscanf(p, "not yet arrived: warp %d", &late) == 1);
	struct warp_info wi;
	REQUIRE(inspect_warp(f.ss.sim, sm, late, &wi));
	CHECK(wi.stall != STALL_BARRIER);
	(void)b;
	fx_fini(&f);
}

TEST(why_alu_and_shmem_give_the_busy_cycle)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_ALU, NULL, 3000, &sm, &w));
	unsigned long long at, until;
	const char *p = strstr(f.cap.out.s, "ALU instruction issued at cycle");
	REQUIRE(p && sscanf(p, "ALU instruction issued at cycle %llu busy until cycle %llu", &at, &until) == 2);
	CHECK(at < sim_cycle(f.ss.sim) && until > sim_cycle(f.ss.sim));
	fx_fini(&f);
	static const char *const sets[] = {"set param.pad 0", NULL};
	setup(&f, "transpose_tiled", sets);
	REQUIRE(find_stall(&f, STALL_SHMEM, NULL, 4000, &sm, &w));
	CHECK_CONTAINS(f.cap.out.s, "waits for shared memory (shmem)");
	p = strstr(f.cap.out.s, "busy until cycle");
	REQUIRE(p && sscanf(p, "busy until cycle %llu", &until) == 1);
	CHECK(until > sim_cycle(f.ss.sim));
	fx_fini(&f);
}

TEST(why_register_file)
{
	static const char *const sets[] = {"set rf.kind racetrack", NULL};
	struct fx f;
	setup(&f, "matmul_tiled", sets);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_RF, NULL, 3000, &sm, &w));
	CHECK_CONTAINS(f.cap.out.s, "waits for the register file (rf)");
	fx_fini(&f);
}

TEST(why_inactive_two_level)
{
	static const char *const sets[] = {"set core.scheduler two_level", "set core.active_pool 1", NULL};
	struct fx f;
	setup(&f, "vecadd", sets);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_INACTIVE, NULL, 2000, &sm, &w));
	CHECK_CONTAINS(f.cap.out.s, "held back by the two_level scheduler");
	fx_fini(&f);
}

TEST(why_done_and_empty_slots)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	int sm, w;
	REQUIRE(find_stall(&f, STALL_DONE, NULL, 2000, &sm, &w));
	int done, of;
	const char *p = strstr(f.cap.out.s, "other warps (");
	REQUIRE(p && sscanf(p, "other warps (%d of %d done)", &done, &of) == 2);
	CHECK(done < of);
	REQUIRE(fx_run(&f, "continue") == CMD_RUN);
	REQUIRE(fx_run(&f, "why warp 0.0") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "holds no warp");
	fx_fini(&f);
}

TEST(why_coherence_and_frc_links)
{
	static const char *const coh[] = {"set coherence.protocol nmoesi", NULL};
	struct fx f;
	setup(&f, "shared_write", coh);
	int sm, w;
	CHECK(find_stall(&f, STALL_SCOREBOARD, "directory: line", 6000, &sm, &w) ||
	      find_stall(&f, STALL_MEM, "directory: line", 6000, &sm, &w));
	fx_fini(&f);
	static const char *const frc[] = {"set l2.frc.entries 8", NULL};
	setup(&f, "gather_random", frc);
	CHECK(find_stall(&f, STALL_SCOREBOARD, "FRC entry", 4000, &sm, &w));
	fx_fini(&f);
}

TEST(why_at_a_breakpoint_and_by_address)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	CHECK_EQ(fx_run(&f, "why"), CMD_ERR); /* not stopped at an event */
	REQUIRE(fx_run(&f, "break l1.miss") == CMD_OK);
	REQUIRE(fx_run(&f, "continue") == CMD_RUN);
	REQUIRE(fx_run(&f, "why") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "stopped by l1.miss at cycle ");
	CHECK_CONTAINS(f.cap.out.s, ": sm=");
	CHECK_CONTAINS(f.cap.out.s, "its warp, sm ");
	CHECK_CONTAINS(f.cap.out.s, "its line now:");
	CHECK_CONTAINS(f.cap.out.s, "L1 MSHR entry"); /* the miss just allocated it */
	const char *p = strstr(f.cap.out.s, "line 0x");
	unsigned long long line;
	REQUIRE(p && sscanf(p, "line 0x%llx", &line) == 1);
	char cmd[64];
	snprintf(cmd, sizeof cmd, "why 0x%llx", line);
	REQUIRE(fx_run(&f, cmd) == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "L1 MSHR entry");
	REQUIRE(fx_run(&f, "why 0x7fff0000") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "nothing in flight");
	fx_fini(&f);
}

TEST(why_bad_input)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	CHECK_EQ(fx_run(&f, "why warp 99"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "warp");
	CHECK_EQ(fx_run(&f, "why warp 9.0"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "sm");
	CHECK_EQ(fx_run(&f, "why warp x"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "why banana"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "usage: why");
	CHECK_EQ(fx_run(&f, "info stalls 7"), CMD_ERR);
	fx_fini(&f);
}

/* With instruction fetch, the empty-buffer cycles are `fetch`, Nsight's
 * "No Instruction", and `why warp` on such a warp names the L1I miss. */
TEST(info_stalls_fetch_is_no_instruction)
{
	static const char *const sets[] = {"set l1i.enabled true", NULL};
	struct fx f;
	setup(&f, "vecadd", sets);
	REQUIRE(fx_run(&f, "step 20") == CMD_RUN);
	REQUIRE(fx_run(&f, "info stalls") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "fetch");
	CHECK_CONTAINS(f.cap.out.s, "No Instruction");
	REQUIRE(fx_run(&f, "why warp 0.0") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "has an empty instruction buffer");
	CHECK_CONTAINS(f.cap.out.s, "L1I miss on code line");
	fx_fini(&f);
}

/* Per-SM stall cycles + issue cycles = cycles each SM had warps; their sum
 * is core.stall.*; names carry the Nsight counterparts. */
TEST(info_stalls_adds_up)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	REQUIRE(fx_run(&f, "step 300") == CMD_RUN);
	const struct sim *s = f.ss.sim;
	const struct stats *st = sim_stats_c(s);
	uint64_t sum[STALL__COUNT] = {0};
	for (int sm = 0; sm < inspect_sms(s); sm++) {
		uint64_t v[STALL__COUNT], tot = 0;
		inspect_sm_stalls(s, sm, v);
		for (unsigned r = 0; r < STALL__COUNT; r++) {
			sum[r] += v[r];
			tot += v[r];
		}
		char name[64];
		snprintf(name, sizeof name, "sm%d.issue_cycles", sm);
		tot += (uint64_t)stats_value(st, (uint32_t)stats_find(st, name));
		CHECK_EQ(tot, 300); /* both teaching SMs hold warps from cycle 0 to 300 */
	}
	for (unsigned r = STALL_MEM; r < STALL__COUNT; r++) {
		char name[64];
		snprintf(name, sizeof name, "core.stall.%s", stall_reason_name(r));
		int id = stats_find(st, name);
		if (id < 0) { /* core.stall.fetch exists only with l1i.enabled */
			CHECK_EQ(r, STALL_FETCH);
			CHECK_EQ(sum[r], 0);
			continue;
		}
		CHECK_EQ(sum[r], (uint64_t)stats_value(st, (uint32_t)id));
	}
	REQUIRE(fx_run(&f, "info stalls") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "Long Scoreboard");
	CHECK_CONTAINS(f.cap.out.s, "LG Throttle");
	CHECK_CONTAINS(f.cap.out.s, "sm1");
	REQUIRE(fx_run(&f, "info stalls 1") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "sm 1, cycle 300");
	/* After the run the per-SM counts still match the machine-wide ones. */
	REQUIRE(fx_run(&f, "continue") == CMD_RUN);
	uint64_t v[STALL__COUNT], w[STALL__COUNT];
	inspect_sm_stalls(s, 0, v);
	inspect_sm_stalls(s, 1, w);
	CHECK_EQ(v[STALL_SCOREBOARD] + w[STALL_SCOREBOARD],
		 (uint64_t)stats_value(st, (uint32_t)stats_find(st, "core.stall.scoreboard")));
	/* `done` is the kernel's tail only once it has finished. */
	REQUIRE(fx_run(&f, "info stalls") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "kernel tail");
	fx_fini(&f);
}

/* Mid-run, `done` cycles are SMs whose warps all exited before the next CTA
 * came in: not the kernel's tail. */
TEST(info_stalls_done_mid_run_is_not_the_tail)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	REQUIRE(fx_run(&f, "step 2000") == CMD_RUN);
	uint64_t v[STALL__COUNT], w[STALL__COUNT];
	inspect_sm_stalls(f.ss.sim, 0, v);
	inspect_sm_stalls(f.ss.sim, 1, w);
	REQUIRE(v[STALL_DONE] + w[STALL_DONE] > 0);
	REQUIRE(!sim_done(f.ss.sim));
	REQUIRE(fx_run(&f, "info stalls") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "every resident warp exited; no new CTA in yet");
	CHECK(!strstr(f.cap.out.s, "kernel tail"));
	fx_fini(&f);
}

/* `why` agrees with the stop: at a dram.row_conflict stop the PRE of the
 * conflict went out in that very cycle, so the bank is closed when `why`
 * looks; it says so first (PRE for the open row, then ACT the wanted one),
 * and the chain calls the request's state a conflict being resolved, not a
 * row miss. At a coalesce stop the warp's new request is queued at its L1
 * (not "nothing in flight"). bt and backtrace are aliases of why. */
TEST(why_agrees_with_the_stop)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "break dram.row_conflict"), CMD_OK);
	fx_run(&f, "continue");
	REQUIRE(f.ss.bps.stop_ev.kind == EV_DRAM_ROW_CONFLICT);
	const struct event *e = &f.ss.bps.stop_ev;
	char want[200];
	snprintf(want, sizeof want, "PRE issued this cycle (%llu) for row %lld, then ACT row %d",
		 (unsigned long long)e->cycle, (long long)e->a, (int)e->row);
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "why"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, want);
	CHECK_CONTAINS(f.cap.out.s, "row conflict being resolved");
	CHECK(strstr(f.cap.out.s, "row miss (no row open") == NULL);
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "delete"), CMD_OK);
	CHECK_EQ(fx_run(&f, "break coalesce sm=0 warp=1"), CMD_OK);
	fx_run(&f, "run 0");
	fx_run(&f, "continue");
	REQUIRE(f.ss.bps.stop_ev.kind == EV_COALESCE);
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "bt"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "stopped by coalesce");
	CHECK_CONTAINS(f.cap.out.s, "sm0 L1: a request of warp 1 queued for its lookup");
	fx_clear(&f);
	CHECK_EQ(fx_run(&f, "backtrace"), CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "queued for its lookup");
	fx_fini(&f);
}

/* Counts read as English: "1 request", "in 1 cycle" (in `why warp` and
 * `info bank`'s next command), "2 requests". */
TEST(why_and_info_bank_singular_counts)
{
	struct fx f;
	setup(&f, "vecadd", NULL);
	int one_cycle[2] = {0, 0}, one_req = 0;
	for (int i = 0; i < 300; i++) {
		REQUIRE(fx_run(&f, "step") == CMD_RUN);
		const char *cmds[] = {"info bank 0", "why warp 0.0"};
		for (int k = 0; k < 2; k++) {
			fx_run(&f, cmds[k]);
			const char *o = f.cap.out.s;
			if (strstr(o, " 1 cycles") || strstr(o, " 1 requests") || strstr(o, " 1 bits"))
				test_fail(__FILE__, __LINE__, "a plural after 1 at cycle %llu:\n%s",
					  (unsigned long long)sim_cycle(f.ss.sim), o);
			one_cycle[k] += strstr(o, "in 1 cycle") != NULL;
			one_req += strstr(o, ": 1 request outstanding") != NULL;
		}
	}
	CHECK(one_cycle[0] > 0);
	CHECK(one_cycle[1] > 0);
	CHECK(one_req > 0);
	fx_fini(&f);
}

/* lessons/mshrs step 5: with one merge slot the second half of warp 0's
 * load is refused (l1.mshr_full reason=merges) and waits in the L1 wait
 * queue; `why warp` shows that link, naming the entry without a slot, and
 * the link leads to that MSHR entry. */
TEST(why_warp_shows_the_l1_wait_queue_after_a_refused_merge)
{
	static const char *const sets[] = {"set core.coalescer si", "set l1.mshr.merges 1", NULL};
	struct fx f;
	setup(&f, "vecadd", sets);
	REQUIRE(fx_run(&f, "break l1.mshr_full") == CMD_OK);
	REQUIRE(fx_run(&f, "continue") == CMD_RUN);
	CHECK_CONTAINS(f.cap.out.s, "reason=merges");
	REQUIRE(fx_run(&f, "why warp 0.0") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "another of its requests: L1 wait queue, position 1 of 1: request 0x10000000, "
				    "refused a merge slot in MSHR entry 0 (1 merged of 1), waits for that entry's fill");
	struct why_link l[16];
	int n = inspect_why_warp(f.ss.sim, 0, 0, l, 16);
	REQUIRE(n > 0);
	CHECK_EQ(l[n - 1].target, WT_L1_MSHR);
	CHECK_EQ(l[n - 1].entry, 0);
	fx_fini(&f);
}
