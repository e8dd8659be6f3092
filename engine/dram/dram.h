/*
 * dram.h: the DRAM model below the L2 (channels, banks, row buffers, timing,
 * controller queues and schedulers). Implemented in dram*.c; this header is
 * the contract with the L2 and with the DRAM-trace runner.
 *
 * Time: the caller owns the core cycle counter (`now`); the DRAM advances its
 * own clock domain (tCK) to match, converting exactly (no per-cycle rounding).
 */
#ifndef GPUSTEP_DRAM_H
#define GPUSTEP_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "sim/config.h"
#include "sim/event.h"
#include "sim/stats.h"
#include "sim/util.h"

struct dram;

/* ---- state for panels (filled by dram_*_info) ---- */
enum dram_bank_state { DBS_IDLE, DBS_ACTIVATING, DBS_ACTIVE, DBS_PRECHARGING, DBS_REFRESHING };
const char *dram_bank_state_name(unsigned st);

struct dram_bank_info {
	enum dram_bank_state state;
	int64_t open_row;       /* -1 when closed */
	int queue;              /* requests queued for this bank */
	char last_cmd[8];       /* "ACT", "RD", "WR", "PRE", "REF", "" */
	uint64_t last_cmd_cycle; /* core cycle */
	uint64_t hits, misses, conflicts;
	int next_legal;         /* core cycles until the bank's next command may issue, 0 = now, -1 = n/a */
	int owner;              /* SM the bank is bound to (TEMP / dram.local_stats), -1 = not tracked */
	uint64_t local, remote; /* requests from the owner / from other SMs */
	bool last_remote;       /* the latest request with a known origin was remote */
};

struct dram_chan_info {
	int banks;
	int read_q, read_cap, write_q, write_cap;
	bool draining_writes;
	uint64_t reads, writes;
	double bus_util;         /* fraction of cycles the data bus was busy so far */
};

int dram_channels(const struct dram *d);
bool dram_channel_info(const struct dram *d, int ch, struct dram_chan_info *out);
bool dram_bank_info(const struct dram *d, int ch, int bank, struct dram_bank_info *out);


/* All state from the arena; registers its stats and uses `ev` for events.
 * `now` points at the core cycle counter. NULL + *err on bad config. */
struct dram *dram_new(struct arena *a, const struct sim_cfg *cfg, struct stats *st, struct events *ev,
		      const uint64_t *now, char **err);

/* Config check for the full-system model: the DRAM takes addresses modulo
 * its capacity, which keeps distinct lines apart only while the workload's
 * addresses [lo, hi) span at most the capacity. -1 + *err naming the keys. */
int dram_check_span(const struct sim_cfg *cfg, const char *what, uint64_t lo, uint64_t hi, char **err);
/* The same guarantee for a workload that knows the byte ranges it touches
 * (traces, sim.h wl_ops.range): each range, widened to whole l2.line lines,
 * must span at most the capacity, and no line of one range may lie a
 * multiple of the capacity away from a line of another (distinct lines
 * alias exactly then). -1 + *err naming `name`, the ranges, the two lines,
 * the span and the capacity. Sorts r[0, n) in place. */
struct wl_range;
int dram_check_ranges(const struct sim_cfg *cfg, const char *name, struct wl_range *r, unsigned n, char **err);

/* Address decoding (for panels and `info line`). */
void dram_decode(const struct dram *d, uint64_t addr, unsigned *ch, unsigned *bank, uint32_t *row,
		 uint32_t *col);

/* Can the channel queue for addr take one more request now? */
bool dram_can_accept(const struct dram *d, uint64_t addr, bool is_write);
/* Count a refused request (dram.queue_full) and emit DRAM_QUEUE_FULL; call
 * when dram_can_accept() said no and the request must wait. */
void dram_note_full(struct dram *d, uint64_t addr, bool is_write);
/* Enqueue at the current core cycle. `tag` comes back from dram_pop_done. */
void dram_enqueue(struct dram *d, uint64_t addr, bool is_write, uint32_t tag);
/* The same with the SM whose miss caused the request (-1 = unknown, e.g. a
 * write-back): TEMP places a page at its first touch in that SM's banks and
 * counts local/remote accesses (dram.page_alloc, dram.local_stats). Under
 * temp, dram_can_accept for a page not placed yet asks every channel. */
void dram_enqueue_from(struct dram *d, uint64_t addr, bool is_write, uint32_t tag, int sm);
/* The same for a request of `bytes` bytes (a sectored L2's sectors,
 * l2.sector_mem): ceil(bytes / (bus_bytes x burst)) column commands, at
 * least one and at most a line's; 0 = the whole line. */
void dram_enqueue_bytes(struct dram *d, uint64_t addr, bool is_write, uint32_t tag, int sm, uint32_t bytes);
/* Advance the DRAM clock domain up to the current core cycle, issuing commands. */
void dram_tick(struct dram *d);
/* Completed requests whose data is back by the current core cycle, oldest
 * completion first. Writes complete too (when their data is written). */
bool dram_pop_done(struct dram *d, uint32_t *tag, bool *is_write);
/* Earliest core cycle > now at which dram_tick could change anything or a
 * completion becomes visible; UINT64_MAX when nothing is pending. */
uint64_t dram_next_event(const struct dram *d);
/* The core cycle at which a DRAM-trace record stamped `cycle` is due:
 * `cycle` itself, or with dram.trace_cycles=dram the first core cycle at or
 * after that DRAM cycle. */
uint64_t dram_trace_due(const struct dram *d, uint64_t cycle);
/* No request queued or in flight. */
bool dram_idle(const struct dram *d);

/* Livelock: a channel where requests wait and no column command (no access
 * served) has issued for more than `intervals` refresh intervals: the DRAM
 * keeps busy with refresh, so the machine moves and the deadlock detector
 * cannot see it. false without refresh. Depends on the state alone. */
struct dram_livelock {
	int ch;
	uint32_t waiting;   /* requests waiting in that channel */
	uint64_t since;     /* core cycle of its last access served, or its oldest request's arrival */
	uint64_t refi;      /* refresh interval in core cycles */
};
bool dram_livelock(const struct dram *d, unsigned intervals, struct dram_livelock *out);
/* The refresh interval in core cycles, 0 without refresh. */
uint64_t dram_refresh_period(const struct dram *d);

#endif
