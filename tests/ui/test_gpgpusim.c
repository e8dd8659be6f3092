/* test_gpgpusim.c: GPGPU-Sim / Accel-Sim configs as CONFIG (load/gpgpusim.c).
 * The machine below is written here in GPGPU-Sim syntax with SM2_GTX480's
 * values (facts); expectations are derived from the option values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load/gpgpusim.h"
#include "load/loader.h"
#include "test.h"

/* A fresh directory per test, so a trace.config of one test is not beside
 * another's config. */
static const char *gs_dir(void)
{
	static char dir[64];
	snprintf(dir, sizeof dir, "/tmp/gpustep-gs-XXXXXX");
	if (!mkdtemp(dir))
		test_abort();
	return dir;
}

static const char *gs_write(const char *dir, const char *name, const char *text)
{
	static char path[2][256];
	static int k;
	char *p = path[k++ & 1];
	snprintf(p, sizeof path[0], "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	REQUIRE(f != NULL);
	fputs(text, f);
	fclose(f);
	return p;
}

#define CLUSTERS 15
#define N_MEM 6
#define N_SUB 2
#define CORE_MHZ 700
#define DRAM_MHZ 924
#define L1_SETS 32
#define L1_LINE 128
#define L1_WAYS 4
#define CL 12
#define WL 4
#define BL 8
#define RATIO 4

static const char gtx480_like[] =
    "# a Fermi machine in GPGPU-Sim syntax\n"
    "-gpgpu_ptx_sim_mode 0\n"
    "-gpgpu_n_clusters 15\n"
    "-gpgpu_n_cores_per_cluster 1\n"
    "-gpgpu_n_mem 6\n"
    "-gpgpu_n_sub_partition_per_mchannel 2\n"
    "-gpgpu_clock_domains 700.0:700.0:700.0:924.0\n"
    "-gpgpu_shader_core_pipeline 1536:32\n"
    "-gpgpu_shader_cta 8\n"
    "-gpgpu_num_sched_per_core 2\n"
    "-gpgpu_scheduler gto\n"
    "-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8\n"
    "-gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32\n"
    "-gpgpu_l1_latency 35\n"
    "-gpgpu_l2_rop_latency 120\n"
    "-dram_latency 100   # the fixed stage in front of the DRAM\n"
    "-gpgpu_n_mem_per_ctrlr 2\n"
    "-gpgpu_dram_buswidth 4\n"
    "-gpgpu_dram_burst_length 8\n"
    "-dram_data_command_freq_ratio 4\n"
    "-gpgpu_mem_addr_mapping "
    "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS\n"
    "-gpgpu_dram_timing_opt \"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:\n"
    "                        CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2\"\n"
    "-power_simulation_enabled 1\n";

static int gs_load(const char *path, struct sim_cfg *c, struct strbuf *notes, char **err)
{
	cfg_defaults(c);
	return loader_load_config_notes(path, c, notes, err);
}

TEST(gpgpusim_config_sets_the_machine)
{
	const char *dir = gs_dir();
	const char *p = gs_write(dir, "gpgpusim.config", gtx480_like);
	struct sim_cfg c;
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	REQUIRE(gs_load(p, &c, &notes, &err) == 0);
	CHECK(err == NULL);
	CHECK_EQ(c.core.sms, CLUSTERS * 1);
	CHECK_EQ(c.dram.channels, N_MEM);
	CHECK_EQ(c.l2.banks, N_MEM * N_SUB);
	CHECK_EQ(c.l2.banks_per_channel, N_SUB);
	CHECK_EQ(c.core.clock_mhz, CORE_MHZ);
	CHECK_EQ(c.dram.tck_ps, (int)lround(1e6 / DRAM_MHZ));
	CHECK_EQ(c.core.warps_per_sm, 1536 / 32);
	CHECK_EQ(c.core.schedulers, 2);
	CHECK_EQ(c.l1.sets * c.l1.line * c.l1.ways, L1_SETS * L1_LINE * L1_WAYS);
	CHECK_EQ(c.l1.ways, L1_WAYS);
	CHECK_EQ(c.l1.mshr_entries, 64);
	CHECK_EQ(c.l2.sets * c.l2.line * c.l2.ways * c.l2.banks, 64 * 128 * 8 * N_MEM * N_SUB);
	CHECK_EQ(c.l2.sector, 32);
	CHECK_EQ(c.l1.hit_latency, 35);
	CHECK_EQ(c.l2.hit_latency, 120);
	/* GPGPU-Sim's L2 never invalidates L1 copies, and a dirty victim's
	 * write-back does not hold up the fetch (the keys' defaults are the
	 * FRC thesis's: exact, serial). */
	CHECK_EQ(c.l2.sharers, L2SH_OFF);
	CHECK_EQ(c.l2.evict_order, L2EV_OVERLAP);
	CHECK_EQ(c.dram.bus_bytes, 4 * 2);
	CHECK_EQ(c.dram.timing.tCL, CL);
	CHECK_EQ(c.dram.timing.tCCD_L, 3);
	CHECK_EQ(c.dram.timing.tRTW, CL + BL / RATIO + 2 - WL);
	CHECK_STR(c.dram.mapping, "row:bank[3]:col[4]:bank[1]:ch:col[5]");
	CHECK_EQ(c.dram.rows, 1 << 12);
	CHECK_EQ(c.dram.columns, 1 << (12 - 3)); /* 12 column+byte bits, 8-byte bus */
	CHECK_CONTAINS(notes.s, "not modelled");
	sb_fini(&notes);
	free(err);
}

TEST(gpgpusim_mapping_lists_not_modelled)
{
	const char *dir = gs_dir();
	const char *p = gs_write(dir, "gpgpusim.config", gtx480_like);
	struct sim_cfg c;
	cfg_defaults(&c);
	struct strbuf map;
	sb_init(&map);
	char *err = NULL;
	REQUIRE(gpgpusim_apply(&c, p, gtx480_like, strlen(gtx480_like), &map, NULL, &err) == 0);
	CHECK_CONTAINS(map.s, "-dram_latency 100 -> l2.dram_latency=100\n");
	CHECK_EQ(c.l2.dram_latency, 100);
	CHECK_CONTAINS(map.s, "-power_simulation_enabled 1 -> not modelled: power model");
	CHECK_CONTAINS(map.s, "-gpgpu_l1_latency 35 -> l1.hit_latency=35\n");
	CHECK_CONTAINS(map.s, "gpgpusim.config:14: -gpgpu_l1_latency");
	sb_fini(&map);
	free(err);
}

/* The instruction cache and fetch (docs/MODEL.md "Instruction cache and
 * fetch"): the il1 string and the fetch throughput map to l1i.* keys. */
TEST(gpgpusim_il1_and_fetch_throughput_map_to_l1i)
{
	static const char text[] = "-gpgpu_cache:il1 N:8:128:4,L:R:f:N:L,A:2:48,4\n"
				   "-gpgpu_inst_fetch_throughput 2\n"
				   "-gpgpu_perfect_inst_const_cache 1\n";
	struct sim_cfg c;
	cfg_defaults(&c);
	CHECK(!c.l1i.enabled);
	struct strbuf map;
	sb_init(&map);
	char *err = NULL;
	REQUIRE(gpgpusim_apply(&c, "gpgpusim.config", text, strlen(text), &map, NULL, &err) == 0);
	CHECK(c.l1i.enabled);
	CHECK_EQ(c.l1i.sets, 8);
	CHECK_EQ(c.l1i.ways, 4);
	CHECK_EQ(c.l1i.mshr_entries, 2);
	CHECK_EQ(c.l1i.mshr_merges, 48);
	CHECK_EQ(c.l1i.fetch_width, 2);
	CHECK(c.l1i.perfect);
	CHECK_CONTAINS(map.s, "-gpgpu_perfect_inst_const_cache 1 -> l1i.perfect=true");
	CHECK_CONTAINS(map.s, "l1i.enabled=true");
	CHECK_CONTAINS(map.s, "-gpgpu_inst_fetch_throughput 2 -> core.fetch_width=2\n");
	CHECK_CONTAINS(map.s, "L1I lines are l1.line bytes");
	sb_fini(&map);
	free(err);
	/* none: no instruction cache */
	static const char off[] = "-gpgpu_cache:il1 none\n";
	cfg_defaults(&c);
	c.l1i.enabled = true;
	sb_init(&map);
	REQUIRE(gpgpusim_apply(&c, "gpgpusim.config", off, strlen(off), &map, NULL, &err) == 0);
	CHECK(!c.l1i.enabled);
	sb_fini(&map);
	free(err);
}

static char *gs_err(const char *text)
{
	const char *dir = gs_dir();
	const char *p = gs_write(dir, "m.config", text);
	struct sim_cfg c;
	char *err = NULL;
	CHECK_EQ(gs_load(p, &c, NULL, &err), -1);
	return err ? err : xstrdup("");
}

/* -gpgpu_memory_partition_indexing with the sub-partitions: linear, xor
 * (power-of-two channels only, as GPGPU-Sim asserts), IPOLY when the
 * channels rounded up to a power of two x sub-partitions is 16, 32 or 64
 * (24 x 2 -> 64, SM7_TITANV's: no fallback to linear), an error otherwise. */
TEST(gpgpusim_partition_indexing)
{
	static const struct {
		const char *text;
		int hash, per_channel, banks;
	} ok[] = {
	    {"-gpgpu_n_mem 24\n-gpgpu_n_sub_partition_per_mchannel 2\n-gpgpu_memory_partition_indexing 2\n",
	     BANKH_IPOLY, 2, 48},
	    {"-gpgpu_n_mem 32\n-gpgpu_n_sub_partition_per_mchannel 2\n-gpgpu_memory_partition_indexing 2\n",
	     BANKH_IPOLY, 2, 64},
	    {"-gpgpu_n_mem 8\n-gpgpu_memory_partition_indexing 2\n-gpgpu_n_sub_partition_per_mchannel 2\n",
	     BANKH_IPOLY, 2, 16},
	    {"-gpgpu_n_mem 8\n-gpgpu_n_sub_partition_per_mchannel 2\n-gpgpu_memory_partition_indexing 1\n",
	     BANKH_XOR, 2, 16},
	    {"-gpgpu_n_mem 6\n-gpgpu_n_sub_partition_per_mchannel 2\n-gpgpu_memory_partition_indexing 1\n",
	     BANKH_LINEAR, 2, 12},
	    {"-gpgpu_n_mem 6\n-gpgpu_memory_partition_indexing 0\n", BANKH_LINEAR, 1, 6},
	};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		const char *dir = gs_dir();
		const char *p = gs_write(dir, "m.config", ok[i].text);
		struct sim_cfg c;
		char *err = NULL;
		if (gs_load(p, &c, NULL, &err)) {
			test_fail(__FILE__, __LINE__, "%s: %s", ok[i].text, err);
			free(err);
			continue;
		}
		CHECK_EQ(c.l2.bank_hash, ok[i].hash);
		CHECK_EQ(c.l2.banks_per_channel, ok[i].per_channel);
		CHECK_EQ(c.l2.banks, ok[i].banks);
	}
	char *e = gs_err("-gpgpu_n_mem 12\n-gpgpu_n_sub_partition_per_mchannel 8\n-gpgpu_memory_partition_indexing 2\n");
	CHECK_CONTAINS(e, "m.config:3: -gpgpu_memory_partition_indexing 2");
	CHECK_CONTAINS(e, "= 128 sub-partitions");
	free(e);
	e = gs_err("-gpgpu_memory_partition_indexing 7\n");
	CHECK_CONTAINS(e, "expected 0 to 5");
	free(e);
}

TEST(gpgpusim_unknown_option_names_line_and_suggests)
{
	char *e = gs_err("-gpgpu_n_clusters 4\n\n-gpgpu_l1_latancy 20\n");
	CHECK_CONTAINS(e, "m.config:3: -gpgpu_l1_latancy 20: unknown option");
	CHECK_CONTAINS(e, "did you mean -gpgpu_l1_latency?");
	free(e);
	e = gs_err("-smem_latency 24\n");
	CHECK_CONTAINS(e, "did you mean -gpgpu_smem_latency?");
	free(e);
}

TEST(gpgpusim_malformed_packed_strings_name_the_field)
{
	char *e = gs_err("-gpgpu_cache:dl1 N:32:128:x,L:L:m:N:H,S:64:8,8\n");
	CHECK_CONTAINS(e, "m.config:1: -gpgpu_cache:dl1");
	CHECK_CONTAINS(e, "'assoc'");
	free(e);
	e = gs_err("-gpgpu_cache:dl2 S:64:128:8,L:Q:m:L:L,A:256:4\n");
	CHECK_CONTAINS(e, "'write policy'");
	free(e);
	e = gs_err("-gpgpu_cache:dl1 S:32:64:4,L:T:m:N:L,A:64:8\n");
	CHECK_CONTAINS(e, "'line'");
	free(e);
	e = gs_err("-gpgpu_tex_cache:l1 N:4:128:24,L:R:m:N:L,T:128:4\n");
	CHECK_CONTAINS(e, "'result FIFO'");
	free(e);
	e = gs_err("-gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:WL=4:CDLR=5:WR=12\n");
	CHECK_CONTAINS(e, "timing field 'CL' missing");
	free(e);
	e = gs_err("-gpgpu_dram_timing_opt "
	           "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrps=4\n");
	CHECK_CONTAINS(e, "did you mean nbkgrp?");
	free(e);
	e = gs_err("-gpgpu_clock_domains 700.0:700.0:fast:924.0\n");
	CHECK_CONTAINS(e, "field 'L2'");
	free(e);
	e = gs_err("-trace_opcode_latency_initiation_sfu 20,x\n");
	CHECK_CONTAINS(e, "field 'initiation'");
	free(e);
	e = gs_err("-gpgpu_pipeline_widths 2,0,0,1,z\n");
	CHECK_CONTAINS(e, "'ID_OC_MEM'");
	free(e);
	e = gs_err("-gpgpu_dram_timing_opt \"nbk=16:CCD=2\n");
	CHECK_CONTAINS(e, "not closed");
	free(e);
}

TEST(gpgpusim_trace_config_beside_is_read)
{
	const char *dir = gs_dir();
	gs_write(dir, "trace.config",
	         "-trace_opcode_latency_initiation_sfu 20,8\n"
	         "-specialized_unit_1 1,4,4,4,4,BRA\n"
	         "-trace_opcode_latency_initiation_spec_op_1 6,4\n"
	         "-specialized_unit_3 1,4,8,4,4,TENSOR\n"
	         "-trace_opcode_latency_initiation_tensor 64,64\n"
	         "-trace_opcode_latency_initiation_spec_op_3 3,2\n");
	const char *p =
	    gs_write(dir, "gpgpusim.config", "-gpgpu_n_clusters 4\n-gpgpu_n_cores_per_cluster 2\n");
	struct sim_cfg c;
	char *err = NULL;
	REQUIRE(gs_load(p, &c, NULL, &err) == 0);
	CHECK_EQ(c.core.sms, 8);
	CHECK_EQ(c.trace.sfu_cycles, 20);
	CHECK_EQ(c.trace.branch_cycles, 6);
	CHECK_EQ(c.trace.tensor_cycles, 3); /* HMMA runs on the TENSOR unit */
	free(err);
}

TEST(gpgpusim_missing_icnt_is_a_note)
{
	const char *dir = gs_dir();
	const char *p =
	    gs_write(dir, "gpgpusim.config", "-network_mode 1\n-inter_config_file nowhere.icnt\n");
	struct sim_cfg c;
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	cfg_defaults(&c);
	int fb = c.icnt.flit_bytes;
	REQUIRE(gs_load(p, &c, &notes, &err) == 0);
	CHECK_CONTAINS(notes.s, "nowhere.icnt: no such file");
	CHECK_EQ(c.icnt.flit_bytes, fb);
	gs_write(dir, "here.icnt", "// booksim\nflit_size = 40;\ntopology = fly; k = 27;\n");
	p = gs_write(dir, "gpgpusim.config", "-network_mode 1\n-inter_config_file here.icnt\n");
	REQUIRE(gs_load(p, &c, NULL, &err) == 0);
	CHECK_EQ(c.icnt.flit_bytes, 40);
	gs_write(dir, "here.icnt", "flit_sise = 40;\n");
	CHECK_EQ(gs_load(p, &c, NULL, &err), -1);
	CHECK_CONTAINS(err, "here.icnt:1: flit_sise");
	CHECK_CONTAINS(err, "did you mean flit_size?");
	sb_fini(&notes);
	free(err);
}

TEST(gpgpusim_option_dump_loads)
{
	/* The option header a simulator prints: every option, "-name value # what";
	 * an unset string prints no value. */
	const char *dir = gs_dir();
	const char *p = gs_write(
	    dir, "dump.txt",
	    "-gpgpu_ptx_sim_mode                    0 # Select between Performance (default) or Functional "
	    "simulation\n"
	    "-visualizer_outputfile                  # Specifies the output log file for visualizer\n"
	    "-ptx_opcode_latency_int         4,13,4,5,145,21 # Opcode latencies\n"
	    "-accelwattch_xml_file accelwattch_sass_sim.xml # power\n"
	    "-gpgpu_n_clusters                      28 # number of processing clusters\n"
	    "-gpgpu_dram_timing_opt nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40: "
	    "CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2 # a quoted value, printed unquoted\n"
	    "-network_mode 2 # local crossbar\n-inter_config_file mesh # its default, not read\n");
	struct sim_cfg c;
	struct strbuf map;
	sb_init(&map);
	char *err = NULL;
	REQUIRE(gs_load(p, &c, NULL, &err) == 0); /* detected by content */
	CHECK_EQ(c.core.sms, 28 * 3);             /* -gpgpu_n_cores_per_cluster absent: GPGPU-Sim's 3 */
	CHECK_EQ(c.dram.timing.tCL, 12);
	CHECK_EQ(c.dram.timing.tRTP, 2);
	size_t len;
	char *text = loader_read_file(p, &len, &err);
	REQUIRE(text != NULL);
	REQUIRE(gpgpusim_apply(&c, p, text, len, &map, NULL, &err) == 0);
	CHECK_CONTAINS(map.s, "-visualizer_outputfile \"\" -> not modelled");
	/* PTX-mode timing with no trace line: its ADD entry times the int units */
	CHECK_CONTAINS(map.s, "-ptx_opcode_latency_int 4,13,4,5,145,21 -> core.op_model=units core.op_int_latency=4");
	CHECK_CONTAINS(map.s, "-inter_config_file mesh -> not modelled: not read: -network_mode 2");
	free(text);
	sb_fini(&map);
	free(err);
}

/* -gpgpu_coalesce_arch as GPGPU-Sim's coalescer reads it: below 40, 128 B
 * lines (fermi); from 40, 32 B segments per subwarp of 32 /
 * -gpgpu_shmem_warp_parts lanes (its default 2). */
TEST(gpgpusim_coalesce_arch_and_subwarps)
{
	static const struct {
		const char *text;
		int coal, group;
	} c[] = {
	    {"-gpgpu_coalesce_arch 20\n", COAL_FERMI, 8},
	    {"-gpgpu_coalesce_arch 39\n", COAL_FERMI, 8},
	    {"-gpgpu_coalesce_arch 40\n", COAL_VOLTA, 16},
	    {"-gpgpu_coalesce_arch 70\n-gpgpu_shmem_warp_parts 1\n", COAL_VOLTA, 32},
	    {"-gpgpu_shmem_warp_parts 4\n-gpgpu_coalesce_arch 60\n", COAL_VOLTA, 8},
	};
	const char *dir = gs_dir();
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		const char *p = gs_write(dir, "coal.config", c[i].text);
		struct sim_cfg cfg;
		cfg_defaults(&cfg);
		char *err = NULL;
		REQUIRE(gs_load(p, &cfg, NULL, &err) == 0);
		CHECK_EQ(cfg.core.coalescer, c[i].coal);
		CHECK_EQ(cfg.core.coalesce_group, c[i].group);
		free(err);
	}
	char *e = gs_err("-gpgpu_shmem_warp_parts 3\n-gpgpu_coalesce_arch 70\n");
	CHECK_CONTAINS(e, "-gpgpu_shmem_warp_parts 3");
	free(e);
}

/* Launch latency, units and Accel-Sim's latency,initiation lines map to
 * core.*; a config in GPGPU-Sim syntax with SM7_TITANV's values (facts)
 * builds the titanv preset's units and launch latency. */
TEST(gpgpusim_units_and_launch_latency_map)
{
	const char *dir = gs_dir();
	gs_write(dir, "trace.config",
	         "-trace_opcode_latency_initiation_int 2,2\n"
	         "-trace_opcode_latency_initiation_sp 2,2\n"
	         "-trace_opcode_latency_initiation_dp 8,4\n"
	         "-trace_opcode_latency_initiation_sfu 20,8\n"
	         "-trace_opcode_latency_initiation_tensor 8,4\n"
	         "-specialized_unit_1 1,4,4,4,4,BRA\n"
	         "-trace_opcode_latency_initiation_spec_op_1 4,4\n"
	         "-specialized_unit_2 1,4,200,4,4,TEX\n"
	         "-trace_opcode_latency_initiation_spec_op_2 200,4\n"
	         "-specialized_unit_3 1,4,8,4,4,TENSOR\n"
	         "-trace_opcode_latency_initiation_spec_op_3 8,4\n");
	const char *p = gs_write(dir, "gpgpusim.config",
	                         "-gpgpu_num_sched_per_core 4\n"
	                         "-gpgpu_num_sp_units 4\n-gpgpu_num_sfu_units 4\n-gpgpu_num_dp_units 4\n"
	                         "-gpgpu_num_int_units 4\n-gpgpu_num_tensor_core_units 4\n"
	                         "-gpgpu_sub_core_model 1\n"
	                         "-ptx_opcode_latency_int 4,13,4,5,145,32\n");
	struct sim_cfg c, t;
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	REQUIRE(gs_load(p, &c, &notes, &err) == 0);
	CHECK_EQ(c.core.op_model, OPM_UNITS);
	CHECK_EQ(c.core.op_latency[KU_SFU], 20);
	CHECK_EQ(c.core.op_initiation[KU_SFU], 8);
	CHECK_EQ(c.core.op_latency[KU_INT], 2); /* the trace line, not the PTX ADD entry */
	CHECK_EQ(c.core.op_units[KU_BRANCH], 4);
	CHECK(c.core.op_sub_core);
	{
		size_t tl;
		char *tt = loader_read_file(p, &tl, &err);
		REQUIRE(tt != NULL);
		struct strbuf m;
		sb_init(&m);
		REQUIRE(gpgpusim_apply(&t, p, tt, tl, &m, NULL, &err) == 0);
		CHECK_CONTAINS(m.s, "unit TEX: a TEX instruction replays as a global load");
		CHECK_CONTAINS(m.s, "-gpgpu_sub_core_model 1 -> core.op_sub_core=true\n");
		sb_fini(&m);
		free(tt);
	}
	REQUIRE(gs_load("titanv", &t, NULL, &err) == 0);
	CHECK(t.core.op_model == c.core.op_model && t.core.op_sub_core == c.core.op_sub_core);
	for (int u = 0; u < KU__COUNT; u++) {
		CHECK_EQ(t.core.op_latency[u], c.core.op_latency[u]);
		CHECK_EQ(t.core.op_initiation[u], c.core.op_initiation[u]);
		CHECK_EQ(t.core.op_units[u], c.core.op_units[u]);
	}
	CHECK_EQ(t.core.kernel_launch_latency, c.core.kernel_launch_latency);
	CHECK_EQ(t.core.cta_launch_latency, c.core.cta_launch_latency);

	/* SM2_GTX480's PTX lists (no trace.config): their ADD entries, GPGPU-Sim's
	 * sfu default, branches at 1,1, dp on the sfu; = the gtx480 preset. */
	const char *dir2 = gs_dir();
	p = gs_write(dir2, "gpgpusim.config",
	             "-gpgpu_num_sched_per_core 2\n"
	             "-gpgpu_num_sp_units 2\n-gpgpu_num_sfu_units 1\n-gpgpu_num_dp_units 0\n"
	             "-ptx_opcode_latency_int 4,13,4,5,145,32\n-ptx_opcode_initiation_int 1,2,2,1,8,4\n"
	             "-ptx_opcode_latency_fp 4,13,4,5,39\n-ptx_opcode_initiation_fp 1,2,1,1,4\n"
	             "-ptx_opcode_latency_dp 8,19,8,8,330\n-ptx_opcode_initiation_dp 8,16,8,8,130\n"
	             "-gpgpu_kernel_launch_latency 0\n-gpgpu_TB_launch_latency 0\n");
	REQUIRE(gs_load(p, &c, NULL, &err) == 0);
	REQUIRE(gs_load("gtx480", &t, NULL, &err) == 0);
	CHECK_EQ(c.core.op_latency[KU_INT], 4);
	CHECK_EQ(c.core.op_initiation[KU_DP], 8);
	CHECK_EQ(c.core.op_latency[KU_SFU], 8);
	CHECK_EQ(c.core.op_latency[KU_BRANCH], 1);
	CHECK(t.core.op_model == c.core.op_model && t.core.op_sub_core == c.core.op_sub_core);
	for (int u = 0; u < KU__COUNT; u++) {
		if (u == KU_TENSOR) /* Fermi has none: its latency is not set by the file */
			continue;
		CHECK_EQ(t.core.op_latency[u], c.core.op_latency[u]);
		CHECK_EQ(t.core.op_initiation[u], c.core.op_initiation[u]);
		CHECK_EQ(t.core.op_units[u], c.core.op_units[u]);
	}

	/* Launch latencies; TB's GPGPU-Sim charge is named. */
	p = gs_write(dir2, "gpgpusim.config", "-gpgpu_kernel_launch_latency 5000\n-gpgpu_TB_launch_latency 7\n");
	struct strbuf map;
	sb_init(&map);
	cfg_defaults(&c);
	const char *txt = "-gpgpu_kernel_launch_latency 5000\n-gpgpu_TB_launch_latency 7\n";
	REQUIRE(gpgpusim_apply(&c, p, txt, strlen(txt), &map, NULL, &err) == 0);
	CHECK_EQ(c.core.kernel_launch_latency, 5000);
	CHECK_EQ(c.core.cta_launch_latency, 7);
	CHECK_CONTAINS(map.s, "-gpgpu_kernel_launch_latency 5000 -> core.kernel_launch_latency=5000\n");
	CHECK_CONTAINS(map.s, "once per CTA of the kernel");
	sb_fini(&map);
	sb_fini(&notes);
	free(err);
}

/* -dram_dual_bus_interface: GPGPU-Sim's HBM dual bus (one row and one
 * column command per DRAM cycle) is dram.dual_cmd. */
TEST(gpgpusim_dual_bus_interface_maps_to_dual_cmd)
{
	static const char on[] = "-dram_dual_bus_interface 1\n", off[] = "-dram_dual_bus_interface 0\n";
	const char *dir = gs_dir();
	for (int i = 0; i < 2; i++) {
		const char *text = i ? on : off;
		const char *p = gs_write(dir, "gpgpusim.config", text);
		struct sim_cfg c;
		cfg_defaults(&c);
		c.dram.dual_cmd = !i;
		struct strbuf map;
		sb_init(&map);
		char *err = NULL;
		REQUIRE(gpgpusim_apply(&c, p, text, strlen(text), &map, NULL, &err) == 0);
		CHECK_EQ(c.dram.dual_cmd, i == 1);
		CHECK_CONTAINS(map.s, i ? "-dram_dual_bus_interface 1 -> dram.dual_cmd=true" : "-dram_dual_bus_interface 0 -> dram.dual_cmd=false");
		sb_fini(&map);
		free(err);
	}
}

/* -dram_bnk_indexing_policy: GPGPU-Sim's 1 XORs the decoded bank with the
 * low bits of its row (dram.cc, bitwise_hash_function), which is
 * dram.bank_xor; 0 leaves the bank. SM7_TITANV sets 1, SM7_QV100 and
 * SM2_GTX480 0. 2 (IPOLY) and 3 (custom) are not modelled and leave the key;
 * anything else is refused, as GPGPU-Sim asserts. */
TEST(gpgpusim_bank_indexing_maps_to_bank_xor)
{
	const char *dir = gs_dir();
	for (int v = 0; v < 5; v++) {
		char text[64];
		snprintf(text, sizeof text, "-dram_bnk_indexing_policy %d\n", v);
		const char *p = gs_write(dir, "gpgpusim.config", text);
		for (int before = 0; before < 2; before++) {
			struct sim_cfg c;
			cfg_defaults(&c);
			c.dram.bank_xor = before;
			struct strbuf map;
			sb_init(&map);
			char *err = NULL;
			int rc = gpgpusim_apply(&c, p, text, strlen(text), &map, NULL, &err);
			if (v == 4) {
				CHECK_EQ(rc, -1);
				CHECK_CONTAINS(err, "-dram_bnk_indexing_policy 4");
				CHECK_CONTAINS(err, "expected 0 to 3");
			} else {
				REQUIRE(rc == 0);
				CHECK_EQ(c.dram.bank_xor, v <= 1 ? v == 1 : before == 1);
				if (v <= 1)
					CHECK_CONTAINS(map.s, v ? "-dram_bnk_indexing_policy 1 -> dram.bank_xor=true"
								: "-dram_bnk_indexing_policy 0 -> dram.bank_xor=false");
				else
					CHECK_CONTAINS(map.s, "not modelled: bank indexing");
			}
			sb_fini(&map);
			free(err);
		}
	}
}

/* -gpgpu_dram_scheduler 1: GPGPU-Sim's FR-FCFS (dram_sched.cc) serves a
 * bank's open row until no request for it is left, so the importer sets
 * dram.scheduler frfcfs with no row-hit cap (dram.row_hit_cap 0, whatever
 * the machine had); 0 (FIFO) sets fcfs and leaves the cap, which FCFS does
 * not read. */
TEST(gpgpusim_frfcfs_has_no_row_hit_cap)
{
	const char *dir = gs_dir();
	for (int v = 0; v < 2; v++) {
		char text[64];
		snprintf(text, sizeof text, "-gpgpu_dram_scheduler %d\n", v);
		const char *p = gs_write(dir, "gpgpusim.config", text);
		struct sim_cfg c;
		cfg_defaults(&c);
		REQUIRE(c.dram.row_hit_cap == 16); /* the default the importer must override */
		struct strbuf map;
		sb_init(&map);
		char *err = NULL;
		REQUIRE(gpgpusim_apply(&c, p, text, strlen(text), &map, NULL, &err) == 0);
		CHECK_EQ(c.dram.scheduler, v ? DRAM_SCHED_FRFCFS : DRAM_SCHED_FCFS);
		CHECK_EQ(c.dram.row_hit_cap, v ? 0 : 16);
		if (v)
			CHECK_CONTAINS(map.s, "dram.row_hit_cap=0");
		sb_fini(&map);
		free(err);
	}
}
