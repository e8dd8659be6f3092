/* sim_mem_dram.c: the DRAM term of sim_mem_estimate (sim_mem.h), mirroring dram.c dram_new. */
#include "sim_mem.h"

#include "dram/dram_int.h"

static uint64_t al(uint64_t n) { return (n + 15) & ~(uint64_t)15; }

uint64_t sim_mem_dram_bytes(const struct sim_cfg *cfg)
{
	uint64_t nch = (uint64_t)cfg->dram.channels, nbk = (uint64_t)cfg->dram.ranks * (uint64_t)cfg->dram.banks;
	uint64_t slots = (uint64_t)cfg->dram.read_queue + (uint64_t)cfg->dram.write_queue;
	uint64_t d = al(sizeof(struct dram)) + al(nch * sizeof(struct dram_chan)) + al(nch * 4) +
		     al(slots * nch * sizeof(struct dram_done));
	d += nch * (al(nbk * sizeof(struct dram_bank)) + al((uint64_t)cfg->dram.ranks * sizeof(struct dram_rank)) +
		    al((uint64_t)cfg->dram.ranks * (uint64_t)cfg->dram.bank_groups * sizeof(struct dram_bg)) +
		    al(slots * sizeof(struct dram_req)) + al(nbk * 4));
	if (cfg->dram.numa_nodes > 1) /* dram_numa.c: two links per node, a fabric slot per queue slot */
		d += 2 * al((uint64_t)cfg->dram.numa_nodes * 8) + al(slots * nch * sizeof(struct dram_fab));
	return d;
}
