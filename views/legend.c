/*
 * legend.c: what every column and mark of every panel means, one table for
 * `help PANEL`, the F1 overlay and docs/TUI.md (tests/ui/test_lab.c checks
 * that each header a panel draws is explained here and that TUI.md carries
 * every entry).
 *
 *   warps: one row per warp slot of the selected SM
 *     W      warp slot in the SM; '>' and bold: it issued in the last cycle
 *     CTA    cta.warp: the CTA and the warp within it that hold the slot
 *     ...
 */
#include "legend.h"

#include <stdio.h>
#include <string.h>

#define L(term, text) {term, text}
#define END {NULL, NULL}

static const struct legend_item warps[] = {
	L("W", "warp slot in the SM; '>' and bold: it issued in the last cycle; reverse: the selected warp (`next` follows it)"),
	L("CTA", "cta.warp: the CTA (linear id) and the warp within it now in the slot; a slot is reused by a later CTA"),
	L("STATE", "ready, done (exited, slot waits for its CTA), empty, or why it cannot issue (yellow): mem (memory buffer full), "
		   "mshr_full (buffer full while the L1 MSHRs are full), scoreboard (waits for a load's register), barrier, "
		   "alu, shmem, rf (register file), inactive (outside the scheduler's active set), fetch (instruction buffer "
		   "empty, l1i.enabled); each has `warp.stall "
		   "reason=R` and `core.stall.R`"),
	L("OUT", "memory requests of the warp in flight (sent, not yet replied)"),
	L("ORD", "position in its scheduler's order this cycle, 0 = looked at first; - = not eligible"),
	L("NEXT", "#N, the statement number (stmt= of warp.issue and its breakpoints), then the next statement the warp will issue, or exit (comments, loop, if, else and end never issue: not shown)"),
	L("INSTS", "instructions the warp has issued"),
	L("SCH", "(core.schedulers > 1) the warp's scheduler, slot mod schedulers"),
	L("L", "(vws) level: 1, 2 = in the IWL window but not level 1, x = outside (throttled)"),
	L("WS", "(vws) the warp's working-set estimate: AMT-filtered misses"),
	L("RRDEG", "(vws) re-reference degree: accesses / misses"),
	L("WHY", "(vws) why it entered level 1: same CTA, pred/succ CTA, old = oldest"),
	L("LLS", "(ccws) lost-locality score"),
	L("LOST", "(ccws) lost-locality hits: loads that missed on a line in its own victim tag array"),
	L("LD", "(ccws) held: the cutoff keeps its loads from issuing"),
	L("BAT", "(tbas) the warp's thread batch"),
	L("SET", "(tbas) run = running set, act = active, load = waits for a load, bar = at a barrier"),
	END,
};

static const struct legend_item mshr[] = {
	L("L1 smN / L2 bankN", "which MSHR file: the selected SM's L1 (upper half) and the selected L2 bank's (lower half)"),
	L("[###...] U/N", "entries in use of N"),
	L("wait", "misses waiting for a free entry (l1.wait_queue) / its size"),
	L("retry", "requests waiting to be retried (NACKed by the L2)"),
	L("missq", "misses queued to leave for the L2"),
	L("acks", "invalidation Acks waiting on their own channel (icnt.ack_channel): to leave the L1 / to be taken by the L2 bank; shown when any"),
	L("head waits", "L2: the request at the head of the bank's input queue waits there for this instead of a NACK (l2.when_busy = queue: mshr_full, merge_full, transient, set_all_transient, queue_full, pool_full); shown while it waits"),
	L("full", "times the file was found full (l1.mshr_full: refused misses and warps held at issue)"),
	L("occ", "sparkline of entries in use over recent cycles"),
	L("#", "entry number"),
	L("ADDR", "block address the entry fetches ('+': more than one sector of a sectored line)"),
	L("MRG", "requests merged into the entry (waiting for the same block)"),
	L("AGE", "cycles since the entry was allocated"),
	L("SENT", "yes: the miss has left for the next level"),
	L("WAITERS", "warp slots (L1) or SMs (L2) waiting for it, in arrival order; w3*2 = two requests of warp 3"),
	END,
};

static const struct legend_item cache[] = {
	L("SET", "set number; '!' (yellow): every way is transient, a miss has no victim"),
	L("wayN", "one cell per way; '·' = invalid"),
	L("H M F", "touched in the last cycle: hit (green), miss (red), fill (green)"),
	L("tag", "the line's tag (hex), as wide as a 32-bit address's tag"),
	L("M O E S I N V ~", "(coherence) the L1 copy's state, '~' transient"),
	L("D T", "D dirty, T transient (an L2 victim being replaced)"),
	L("rank", "LRU rank, 0 = most recently used"),
	L("v D .", "sectors: v valid, D dirty, . not present"),
	END,
};

static const struct legend_item l2[] = {
	L("BANK", "L2 bank; reverse: the selected one"),
	L("LINES", "valid lines / lines"),
	L("TRANS", "transient lines (victims being replaced; yellow when any)"),
	L("MSHR", "MSHR entries in use / entries (yellow when full)"),
	L("Q", "requests in the bank's input queue"),
	L("ACCESS", "accesses so far"),
	L("HIT%", "hits / accesses"),
	L("MISSES", "misses so far"),
	L("NACKS", "requests refused (l2.nack: MSHRs full, transient set, queue full, ...)"),
	END,
};

static const struct legend_item dram[] = {
	L("chN read q / write q", "channel line: read and write queue occupancy / size, (draining): writes being served"),
	L("reads writes", "requests fully issued on the channel"),
	L("bus", "share of cycles the data bus was busy so far"),
	L("BANK", "channel.bank; reverse: the selected one (`select channel`, `select bank`)"),
	L("STATE", "idle, activating, active, precharging, refreshing"),
	L("ROW", "open row (decimal), - = closed"),
	L("Q", "requests queued for the bank"),
	L("LAST", "last command (ACT, RD, WR, PRE, REF) and how many cycles ago (@-5)"),
	L("HITS", "row-buffer hits: the row was open"),
	L("MISS", "row misses: the bank was closed (ACT only)"),
	L("CONF", "row conflicts: another row was open (PRE then ACT)"),
	L("NEXT", "core cycles until the bank's next command may issue by the timing rules, - = none wanted"),
	L("OWN", "(shown only with dram.page_alloc = temp or dram.local_stats, where banks have owners) the SM the bank belongs to"),
	L("REMOTE", "requests other SMs sent it; '*' (yellow): the latest one was remote"),
	END,
};

static const struct legend_item dramq[] = {
	L("next:", "the command the scheduler gives the bank next, when it is legal, for which request (#) and why: row "
		   "hit (first-ready ahead of older requests), oldest, row-hit cap, row conflict, bank closed, in progress, "
		   "refresh, write drain"),
	L("#", "position in the bank's queue, oldest first; '>' and bold: the request the next command serves"),
	L("Q", "busy: started (its column commands have begun), rd / wr: waiting read / write"),
	L("ROW", "the request's DRAM row"),
	L("ADDR", "its address"),
	L("AGE", "core cycles since it was enqueued"),
	L("HIT", "hit (green): its row is the open row"),
	L("hits run N/C", "(title) requests served on the open row since its ACT / dram.row_hit_cap"),
	END,
};

static const struct legend_item events[] = {
	L("CYCLE", "the cycle the event happened in (a stop after it is at CYCLE + 1)"),
	L("EVENT", "event kind (`help events`); hits green, misses red, stalls yellow; black on yellow: the event that "
		   "fired the breakpoint"),
	L("FIELDS", "the kind's fields: addresses in hex, everything else in decimal, coded fields by name"),
	END,
};

static const struct legend_item stats[] = {
	L("NAME", "stat name (`print NAME`); '*': derived by the panel (hit rates, bandwidth)"),
	L("VALUE", "counter value, rate, occupancy (average, max/size) or histogram"),
	L("DESCRIPTION", "what it counts"),
	END,
};

static const struct legend_item reuse[] = {
	L("DIST", "reuse distance: distinct lines touched in the set (set view) or cache since the last use of the line"),
	L("COUNT %", "accesses with that distance and their share"),
	L("cut-off", "distances from here miss in an LRU cache of this associativity"),
	L(">=N", "distances of N or more"),
	L("inf new / inf fly", "first touches: never seen / the line still in flight"),
	L("CLASS", "miss classes: hit, compulsory, capacity, associativity, latency (hit under a pending miss), other"),
	END,
};

static const struct legend_item frc[] = {
	L("ENTRY", "set.way of the FRC entry"),
	L("STATE", "free, fetching (red), swapping / evicting (yellow)"),
	L("INCOMING", "block being fetched into the L2"),
	L("VICTIM", "the L2 block it replaces"),
	L("AGE", "cycles in the current state"),
	L("WAIT", "requests waiting for the entry"),
	L("INV", "(coherence) invalidation acks still due for the victim"),
	L("WB", "yes: the dirty victim's write-back is not yet handed to memory"),
	L("L2 SET.WAY", "the L2 set and way the victim leaves (- until chosen)"),
	L("grid F S E .", "grid mode: fetching, swapping, evicting, free; then the block number and a flag (i acks, w "
			  "write-back, + waiting)"),
	END,
};

static const struct legend_item rf[] = {
	L("bN", "register bank N (sN: its scheduler with rf.warp_reg_remap)"),
	L("strip", "the bank's rows left to right, segments split by '|'; each row the warp slot owning it (0-9a-zA-Z), "
		   "'.' unused; reversed: under a port; yellow: a shift's target"),
	L("BML proj", "the live port offset and the one of the newest queued request"),
	L("shift A>B (N left)", "a shift in progress"),
	L("q", "queue: wWrR R/W >target BML dN distance ~waited; '*' in service"),
	L("wb", "write-buffer ways: wWrR, R data arrived, '*' drains next"),
	END,
};

static const struct legend_item coherence[] = {
	L("dir", "the selected line's directory entry: state, owner, sharers, lock with requester and acks due"),
	L("copies", "the L1 copies of the line and their states"),
	L("CYCLE", "when the transaction happened"),
	L("LINE", "the line's address"),
	L("SM", "the L1 (or requester)"),
	L("BANK", "the directory's L2 bank"),
	L("KIND", "L1 (copy transition), dir (directory transition), msg (message), NACK (dir_locked, yellow)"),
	L("MESSAGE", "the event or message (GetS, GetX, Inv, Data, ...)"),
	L("TRANSITION", "state before -> after"),
	END,
};

static const struct legend_item protocol[] = {
	L("L1 table", "state, event -> next state, actions, note: the rows the engine executes"),
	L("directory table", "state, message -> next state, actions, note"),
	L(">", "rows taken in the newest transition's cycle (reverse+yellow: in the last cycle)"),
	END,
};

static const struct legend_item timeline[] = {
	L("BLOCK", "a line seen in the set, oldest first; the right edge is now, the scale is in the title"),
	L("n", "NACKed: from the first l2.nack to the retry the L2 took"),
	L("t", "transient victim until the fill that replaces it"),
	L("F", "fetch in memory: accepted miss to l2.fill (red)"),
	L("R", "FRC fetch: frc.alloc to frc.fill"),
	L("S", "FRC swap"),
	L("E", "FRC evicting the victim"),
	L("> H * <", "arrival (l2.access), hit, data in the L2, data at a warp (mem.reply)"),
	END,
};

static const struct legend_item lesson[] = {
	L("step N of T", "(title) the open lesson and its current step"),
	L("Step N:", "(dim) how the answer just given went: right, or the value the machine showed, and the step's explanation"),
	L(">", "(bold) what to do now: answer N (a prediction), or act and then type answer (the checks run)"),
	L("Hint:", "(green) the step's hint, after `hint`; it stays until the step is decided"),
	L("more lines", "(yellow) the step does not fit: focus the pane (Tab) and scroll with Up/Down/PgUp/PgDn; the > line stays"),
	END,
};

static const struct legend panels[] = {
	{"warps", "one row per warp slot of the selected SM", warps},
	{"mshr", "the selected SM's L1 MSHRs above the selected L2 bank's", mshr},
	{"cache", "the selected SM's L1 as sets x ways", cache},
	{"l2cache", "the selected L2 bank as sets x ways (same cells as cache)", cache},
	{"l2", "one row per L2 bank", l2},
	{"dram", "per channel a summary line, then its banks", dram},
	{"dramq", "the selected DRAM bank's queue and the scheduler's next pick", dramq},
	{"lesson", "the open lesson's step, above the layout (beside it: 150+ cols)", lesson},
	{"events", "the event log, newest at the bottom", events},
	{"stats", "every stat in registration order", stats},
	{"reuse", "reuse-distance histogram and miss classes of one cache", reuse},
	{"frc", "the selected L2 bank's Fetch and Replacement Cache", frc},
	{"rf", "the selected SM's register banks as racetrack strips", rf},
	{"coherence", "the selected line's directory entry above the transaction log", coherence},
	{"protocol", "the coherence protocol's tables", protocol},
	{"timeline", "one L2 set's blocks over cycles", timeline},
};

size_t legend_count(void) { return sizeof panels / sizeof panels[0]; }

const struct legend *legend_at(size_t i) { return i < legend_count() ? &panels[i] : NULL; }

const struct legend *legend_find(const char *panel)
{
	for (size_t i = 0; i < legend_count(); i++)
		if (strcmp(panels[i].panel, panel) == 0)
			return &panels[i];
	return NULL;
}

/* Append text to sb wrapped at width, continuation lines indented by ind. */
static void wrap(struct strbuf *sb, const char *text, int col, int width, int ind)
{
	const char *p = text;
	while (*p) {
		int room = width - col;
		if (room < 10)
			room = 10;
		int n = (int)strlen(p);
		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = room;
		}
		sb_printf(sb, "%.*s\n", n, p);
		p += n;
		while (*p == ' ')
			p++;
		if (*p) {
			sb_printf(sb, "%*s", ind, "");
			col = ind;
		}
	}
}

void legend_text(const struct legend *l, int width, struct strbuf *sb)
{
	sb_printf(sb, "%s: %s\n", l->panel, l->intro);
	int tw = 6;
	for (const struct legend_item *it = l->items; it->term; it++)
		if ((int)strlen(it->term) > tw && strlen(it->term) <= 12)
			tw = (int)strlen(it->term);
	for (const struct legend_item *it = l->items; it->term; it++) {
		int n = (int)strlen(it->term);
		if (n > tw) { /* a long term on its own line */
			sb_printf(sb, "  %s\n  %*s  ", it->term, tw, "");
		} else {
			sb_printf(sb, "  %-*s  ", tw, it->term);
		}
		wrap(sb, it->text, tw + 4, width, tw + 4);
	}
}
