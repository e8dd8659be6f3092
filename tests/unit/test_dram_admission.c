/*
 * test_dram_admission.c: DRAMSim3's controller under the per_bank and
 * per_rank queue models (queue_structure PER_BANK / PER_RANK of a DRAMSim3
 * .ini): the transaction queue feeds the command queues one request per DRAM
 * cycle; the command queues are served round robin from the one after the
 * queue that issued last, the first ready command of a queue wins whatever
 * its kind (no row-hit-first across queues); a per_rank queue holds
 * cmd_queue_size entries of all the rank's banks and is served in the order
 * they entered it.
 *
 * The DRAM is configured from a DRAMSim3 .ini (below) with 1:1 clocks, and
 * every expected cycle is derived from its parameters: a request arriving at
 * 0 moves at DRAM cycle 1 and gets its first command from cycle 2.
 */
#include <stdio.h>

#include "dram/dram_ini.h"
#include "dram/dram_int.h" /* dram_set_exhaustive */
#include "test_dram_harness.h"

/* GDDR5-like, tCK 1 ns (1:1 with the harness's 1000 MHz core), 64-bit bus x
 * BL8 = 64 B = one harness line per column command. tRCD (20) is not a
 * multiple of tRRD (8), so no ACT and RD want the same cycle by accident. */
#define INI_HEAD                                                                                                       \
	"[dram_structure]\nprotocol = GDDR5\nbankgroups = 4\nbanks_per_group = 4\nrows = 4096\ncolumns = 64\n"      \
	"device_width = 32\nBL = 8\nbankgroup_enable = false\n"                                                     \
	"[timing]\ntCK = 1\nCL = 12\nCWL = 4\ntRCDRD = 20\ntRCDWR = 16\ntRP = 12\ntRAS = 28\ntRRD_S = 8\n"          \
	"tRRD_L = 8\ntFAW = 40\nt32AW = 360\ntPPD = 2\ntWR = 12\ntCCD_S = 2\ntCCD_L = 2\ntRTRS = 1\n"               \
	"tRFC = 74\ntREFI = 100000\n"                                                                                \
	"[system]\nchannel_size = 256\nchannels = 1\nbus_width = 64\naddress_mapping = rochrababgco\n"              \
	"trans_queue_size = 32\n"

static const char ini_per_bank[] = INI_HEAD "queue_structure = PER_BANK\ncmd_queue_size = 8\n";
static const char ini_per_rank[] = INI_HEAD "queue_structure = PER_RANK\ncmd_queue_size = 2\n";

/* cmdq > 0 overrides cmd_queue_size. */
static bool ini_init(struct dh *h, const char *ini, size_t len, int cmdq)
{
	dh_cfg(&h->cfg);
	char *err = NULL;
	if (dram_ini_apply(&h->cfg, ini, len, "a.ini", NULL, &err) != 0) {
		test_fail(__FILE__, __LINE__, "ini: %s", err ? err : "?");
		free(err);
		return false;
	}
	if (cmdq > 0)
		h->cfg.dram.cmd_queue = cmdq;
	return dh_init(h);
}

#define T(h) (&(h)->cfg.dram.timing)
#define TBL(h) ((uint64_t)((h)->cfg.dram.burst / (h)->cfg.dram.data_rate))

TEST(dram_ini_queue_structure_selects_the_queue_model)
{
	struct dh h;
	REQUIRE(ini_init(&h, ini_per_bank, sizeof ini_per_bank - 1, 0));
	CHECK_EQ(h.cfg.dram.queue_model, DRAM_QUEUE_PER_BANK);
	CHECK_EQ(h.cfg.dram.cmd_queue, 8);
	CHECK_EQ(h.cfg.dram.read_queue, 32);
	CHECK_EQ(h.cfg.l2.line, h.cfg.dram.bus_bytes * h.cfg.dram.burst); /* one column command a line */
	CHECK_EQ(TBL(&h), 2);
	dh_fini(&h);
	REQUIRE(ini_init(&h, ini_per_rank, sizeof ini_per_rank - 1, 0));
	CHECK_EQ(h.cfg.dram.queue_model, DRAM_QUEUE_PER_RANK);
	CHECK_EQ(h.cfg.dram.cmd_queue, 2);
	CHECK_EQ(h.cfg.dram.ranks, 1);
	dh_fini(&h);
}

/* Round robin from the queue after the last issuer. r0 (bank 2) activates
 * at 2. r1 (bank 1, older) and r2 (bank 3) both may activate at 2 + tRRD:
 * bank 3 comes first after bank 2, so r2 activates then and r1 a tRRD later
 * (oldest-first would take r1 first). */
TEST(dram_per_bank_queues_round_robin_from_last_issuer)
{
	for (int skip = 0; skip < 2; skip++) {
		struct dh h;
		REQUIRE(ini_init(&h, ini_per_bank, sizeof ini_per_bank - 1, 0));
		const struct dram_timing *t = T(&h);
		uint64_t rrd = (uint64_t)t->tRRD, rcd = (uint64_t)t->tRCD, tail = (uint64_t)t->tCL + TBL(&h);
		REQUIRE(rrd >= 2 && rcd % rrd && rrd >= (uint64_t)t->tCCD); /* the ACTs and RDs below never collide */
		dram_enqueue(h.d, dh_addr(&h, 0, 2, 1, 0), false, 0);
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1);
		dram_enqueue(h.d, dh_addr(&h, 0, 3, 1, 0), false, 2);
		dh_run(&h, 0, skip);
		CHECK_EQ(h.done_at[0], 2 + rcd + tail);
		CHECK_EQ(h.done_at[2], 2 + rrd + rcd + tail);
		CHECK_EQ(h.done_at[1], 2 + 2 * rrd + rcd + tail);
		dh_fini(&h);
	}
}

/* No row-hit-first across queues: at 2 + tRCD bank 1's read may issue its RD
 * and bank 2's newer read its ACT; bank 2 comes first after bank 1 (the last
 * issuer), so the ACT goes then and the RD a cycle later. */
TEST(dram_per_bank_queues_no_column_first)
{
	struct dh h;
	REQUIRE(ini_init(&h, ini_per_bank, sizeof ini_per_bank - 1, 0));
	const struct dram_timing *t = T(&h);
	uint64_t rcd = (uint64_t)t->tRCD, tail = (uint64_t)t->tCL + TBL(&h);
	REQUIRE(rcd > (uint64_t)t->tRRD + 2);
	dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 0); /* ACT at 2, RD legal at 2 + tRCD */
	uint64_t at = 2 + rcd - 2;                            /* r1 moves at 2 + tRCD - 1 */
	dh_run(&h, at, false);
	dram_enqueue(h.d, dh_addr(&h, 0, 2, 1, 0), false, 1);
	dh_run(&h, 0, false);
	CHECK_EQ(h.done_at[0], 2 + rcd + 1 + tail);
	CHECK_EQ(h.done_at[1], 2 + rcd + rcd + tail);
	dh_fini(&h);
}

/* per_rank: the rank's command queue (cmd_queue_size 2) holds entries of all
 * its banks. r0 and r1 (banks 0, 1) fill it at 1 and 2; r2 (bank 2) moves
 * only when r0's RD frees an entry at 2 + tRCD, activates a cycle later. */
TEST(dram_per_rank_queue_bounds_all_banks_of_the_rank)
{
	struct dh h;
	REQUIRE(ini_init(&h, ini_per_rank, sizeof ini_per_rank - 1, 0));
	const struct dram_timing *t = T(&h);
	uint64_t rrd = (uint64_t)t->tRRD, rcd = (uint64_t)t->tRCD, tail = (uint64_t)t->tCL + TBL(&h);
	REQUIRE(h.cfg.dram.cmd_queue == 2 && rcd + 1 > 2 + 2 * rrd);
	for (unsigned b = 0; b < 3; b++)
		dram_enqueue(h.d, dh_addr(&h, 0, b, 1, 0), false, b);
	dh_run(&h, 0, true);
	CHECK_EQ(h.done_at[0], 2 + rcd + tail);
	CHECK_EQ(h.done_at[1], 2 + rrd + rcd + tail);
	CHECK_EQ(h.done_at[2], 2 + rcd + 1 + rcd + tail);
	dh_fini(&h);
}

/* per_rank: in the rank's queue the first entry with a ready command goes
 * first. r1 (bank 2) entered before r2 (bank 1); both may activate at
 * 2 + tRRD: r1 first (per_bank would take bank 1, the next after bank 0). */
TEST(dram_per_rank_queue_order_between_banks)
{
	for (int pr = 0; pr < 2; pr++) {
		static const char *const ini[] = {ini_per_bank, ini_per_rank};
		static const size_t len[] = {sizeof ini_per_bank - 1, sizeof ini_per_rank - 1};
		struct dh h;
		REQUIRE(ini_init(&h, ini[pr], len[pr], 4));
		const struct dram_timing *t = T(&h);
		uint64_t rrd = (uint64_t)t->tRRD, rcd = (uint64_t)t->tRCD, tail = (uint64_t)t->tCL + TBL(&h);
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
		dram_enqueue(h.d, dh_addr(&h, 0, 2, 1, 0), false, 1);
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 2);
		dh_run(&h, 0, false);
		CHECK_EQ(h.done_at[0], 2 + rcd + tail);
		CHECK_EQ(h.done_at[pr ? 1 : 2], 2 + rrd + rcd + tail);
		CHECK_EQ(h.done_at[pr ? 2 : 1], 2 + 2 * rrd + rcd + tail);
		dh_fini(&h);
	}
}

/* ---- dual command bus (dram.dual_cmd) ------------------------------------------ */

/* Harness timing, channel queues, FR-FCFS (column commands first). r0 (bank
 * 0) activates at 0, its RD is legal at tRCD; r1 (bank 1) arrives at tRCD
 * and its ACT is legal then too. One command bus: the RD goes first, the ACT
 * a cycle later. Two buses: both at tRCD. */
TEST(dram_dual_cmd_row_and_column_share_a_cycle)
{
	for (int dual = 0; dual < 2; dual++) {
		for (int skip = 0; skip < 2; skip++) {
			struct dh h;
			dh_cfg(&h.cfg);
			h.cfg.dram.dual_cmd = dual;
			REQUIRE(dh_init(&h));
			const struct dram_timing *t = T(&h);
			uint64_t rcd = (uint64_t)t->tRCD, tail = (uint64_t)t->tCL + TBL(&h);
			REQUIRE((uint64_t)t->tRRD <= rcd && (uint64_t)t->tCCD <= rcd); /* only the command bus separates them */
			dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0);
			dh_run(&h, rcd, skip);
			dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 1);
			dh_run(&h, 0, skip);
			CHECK_EQ(h.done_at[0], rcd + tail);
			CHECK_EQ(h.done_at[1], rcd + (dual ? 0 : 1) + rcd + tail);
			dh_fini(&h);
		}
	}
}

/* Two row commands never share a cycle: bank 0 serves A (row 1), then B (row
 * 2) may precharge at tRAS; C (bank 1) arrives at tRAS and may activate
 * then too. B's PRE (older) goes at tRAS, C's ACT a cycle later, on two
 * buses as on one. Also with the scheduler's shortcuts off (the skipped
 * second scan would hide a row bus left unchecked). */
TEST(dram_dual_cmd_one_row_command_a_cycle)
{
	for (int run = 0; run < 4; run++) {
		int dual = run & 1;
		struct dh h;
		dh_cfg(&h.cfg);
		h.cfg.dram.dual_cmd = dual;
		REQUIRE(dh_init(&h));
		dram_set_exhaustive(h.d, run >= 2);
		const struct dram_timing *t = T(&h);
		uint64_t rcd = (uint64_t)t->tRCD, ras = (uint64_t)t->tRAS, tail = (uint64_t)t->tCL + TBL(&h);
		REQUIRE(ras >= rcd + (uint64_t)t->tRTP && ras >= (uint64_t)t->tRRD);
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 1, 0), false, 0); /* A */
		dram_enqueue(h.d, dh_addr(&h, 0, 0, 2, 0), false, 1); /* B */
		dh_run(&h, ras, true);
		dram_enqueue(h.d, dh_addr(&h, 0, 1, 1, 0), false, 2); /* C */
		dh_run(&h, 0, true);
		CHECK_EQ(h.done_at[0], rcd + tail);
		CHECK_EQ(h.done_at[2], ras + 1 + rcd + tail);
		dh_fini(&h);
	}
}

/* DRAMSim3 enables hbm_dual_cmd by default, and for HBM only. */
TEST(dram_ini_hbm_dual_cmd)
{
	static const char hbm[] = "[dram_structure]\nprotocol = HBM2\nbankgroups = 4\nbanks_per_group = 4\nrows = 16384\n"
				  "columns = 64\ndevice_width = 128\nBL = 4\n[timing]\ntCK = 1\n[system]\nchannel_size = 1024\n"
				  "channels = 8\nbus_width = 128\naddress_mapping = rorabgbachco\n";
	static const char hbm_off[] = "[dram_structure]\nprotocol = HBM2\nbankgroups = 4\nbanks_per_group = 4\n"
				      "rows = 16384\ncolumns = 64\ndevice_width = 128\nBL = 4\nhbm_dual_cmd = false\n"
				      "[timing]\ntCK = 1\n[system]\nchannel_size = 1024\nchannels = 8\nbus_width = 128\n"
				      "address_mapping = rorabgbachco\n";
	struct sim_cfg c;
	char *err = NULL;
	cfg_defaults(&c);
	REQUIRE(dram_ini_apply(&c, hbm, sizeof hbm - 1, "h.ini", NULL, &err) == 0);
	CHECK(c.dram.dual_cmd);
	cfg_defaults(&c);
	REQUIRE(dram_ini_apply(&c, hbm_off, sizeof hbm_off - 1, "h.ini", NULL, &err) == 0);
	CHECK(!c.dram.dual_cmd);
	cfg_defaults(&c);
	c.dram.dual_cmd = true;
	REQUIRE(dram_ini_apply(&c, ini_per_bank, sizeof ini_per_bank - 1, "g.ini", NULL, &err) == 0);
	CHECK(!c.dram.dual_cmd); /* GDDR5 */
}
