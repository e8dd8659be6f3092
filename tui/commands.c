/*
 * commands.c: the command table (see commands.h), dispatch, output helpers,
 * and the commands that move time and `help`. The commands that change the
 * machine (select, set, load, workload, check) are in cmd_machine.c,
 * breakpoints in cmd_break.c, inspection commands (info, print, display,
 * list, log, save) in cmd_info.c, the stop report and the batch script runner
 * in cmd_run.c.
 *
 * A command line goes: tokenize (quotes allowed) ─▶ lookup (name, alias,
 * unique prefix; then the TUI's extra commands) ─▶ fn(). Time-moving commands
 * only call session_start_run() and return CMD_RUN; the caller runs it.
 */
#include "commands.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_int.h"
#include "debug/inspect.h"
#include "keys.h"
#include "views/legend.h"
#include "load/loader.h"
#include "tui.h"

static CMD_FN(c_step);
static CMD_FN(c_continue);
static CMD_FN(c_run);
static CMD_FN(c_next);
static CMD_FN(c_help);
static CMD_FN(c_quit);

CMD_FN(cmd_protocol); /* cmd_coh_help.c */
CMD_FN(cmd_history);  /* cmd_coh_hist.c */
CMD_FN(cmd_whatif);   /* cmd_whatif.c */
/* What Tab offers after `info`, `list`, `save`, `load` (cmd_info, cmd_list, cmd_save, cmd_load). */
static const char *const info_words[] = {"break", "stats",   "config", "sm",   "warp",	"rf",	   "line",
					 "l2",	  "frc",     "channel", "bank", "mshr",	"events", "display", "coalesce", "stalls", "duel", "threads", NULL};
static const char *const list_words[] = {"kernels", "presets", "events", "stats", "config", "commands", NULL};
static const char *const save_words[] = {"stats", "config", "session", "trace", NULL};
static const char *const load_words[] = {"session", NULL};
static const char *const protocol_words[] = {"si", "nmoesi", "moesi", NULL};
static const char *const timeline_words[] = {"l2", "follow", NULL};

static const struct cmd_def builtin[] = {
	{.name = "step", .aliases = "s", .usage = "step [N]", .summary = "advance N cycles (default 1)",
	 .help = "Simulate N more core cycles, or fewer if a breakpoint fires or the kernel\n"
		 "ends. N accepts k/M/G suffixes (10k = 10000). Enter on an empty line repeats\n"
		 "it.\n"
		 "Example: step 100",
	 .fn = c_step, .repeat = 1},
	{.name = "continue", .aliases = "c cont", .usage = "continue",
	 .summary = "run until a breakpoint, the end, or Ctrl-C",
	 .help = "Resume simulation until a breakpoint or watchpoint fires, every warp has\n"
		 "finished and the memory system has drained, or you press Ctrl-C.\n"
		 "Example: continue",
	 .fn = c_continue, .repeat = 1},
	{.name = "run", .aliases = "r", .usage = "run [N]", .summary = "restart from cycle 0, then continue (or run N cycles)",
	 .help = "Rebuild the machine at cycle 0 (config, workload and breakpoints are kept),\n"
		 "then continue; with N, stop after N cycles. `run 0` just goes back to cycle 0.\n"
		 "Example: run 5000",
	 .fn = c_run},
	{.name = "reverse-step", .aliases = "rs", .usage = "reverse-step [N]", .summary = "go back N cycles (default 1)",
	 .help = "Rewind to N cycles earlier: every panel, stat, display, log entry and\n"
		 "breakpoint hit count shows what it showed the first time at that cycle\n"
		 "(restore the nearest snapshot, replay). Enter on an empty line repeats it. See\n"
		 "docs/SESSIONS.md.\n"
		 "Example: reverse-step 5",
	 .fn = cmd_reverse_step, .repeat = 1},
	{.name = "reverse-continue", .aliases = "rc", .usage = "reverse-continue",
	 .summary = "go back to the previous breakpoint stop",
	 .help = "Rewind to the last cycle before now at which a `continue` would have stopped\n"
		 "at an enabled breakpoint or watchpoint, with the same report and hit counts.\n"
		 "Example: reverse-continue",
	 .fn = cmd_reverse_continue},
	{.name = "goto", .usage = "goto CYCLE", .summary = "go to a cycle, backwards or forwards",
	 .help = "Move to CYCLE: backwards by rewinding, forwards by running (breakpoints count\n"
		 "their hits but do not stop; Ctrl-C does). N accepts k/M/G suffixes.\n"
		 "Example: goto 12k",
	 .fn = cmd_goto},
	{.name = "whatif", .usage = "whatif K=V... [--cycles N|--to-end|--until EV] [--from-start] [--each]",
	 .summary = "fork here with a change, run both, show where they part",
	 .help = "Copy the machine at this stop twice, apply the change to one copy (B), run\n"
		 "both to the end (or N cycles, or the next EVENT) and print the first event\n"
		 "that differs (with `why` on each side), the counters that moved most, the\n"
		 "stall mix of each side and a verdict. The machine you step is not touched.\n"
		 "Keys that size the machine (cache geometry, SM count) cannot change mid-run\n"
		 "(MSHR counts may go down, or up to l1/l2.mshr.capacity): --from-start\n"
		 "builds both at cycle 0, B's change in force from there, and runs them to\n"
		 "the same stop. Mid-run, B is this run with the change applied at the stop.\n"
		 "`whatif show [warps|mshr|dram]` puts `info sm` (`info mshr l1`, `info\n"
		 "bank`) of both sides side by side just after the parting cycle; `whatif go a`\n"
		 "takes the machine there, `whatif go b` (after --from-start) rebuilds it as B.\n"
		 "--each: one fork per change, ranked by the cycles each saves, with a bar\n"
		 "chart. Ctrl-C stops a whatif. The two copies must fit the snapshot budget.\n"
		 "See docs/WHATIF.md and docs/CLI.md.\n"
		 "Example: whatif l1.mshr.entries=2 --to-end\n"
		 "Example: whatif l2.hit_latency=40 --cycles 5000",
	 .fn = cmd_whatif, .complete = COMPL_CONFIG},
	{.name = "next", .aliases = "n", .usage = "next", .summary = "run until the selected warp issues",
	 .help = "Run until the selected warp (see `select sm N` and `select warp W`) issues its\n"
		 "next instruction. Enter on an empty line repeats it. A warp slot is reused:\n"
		 "when the warp that issues is a new CTA's, the report says so (`new CTA: the\n"
		 "slot now runs CTA 3 warp 0 (CTA 0 warp 0 finished)`).\n"
		 "Example: select warp 3",
	 .fn = c_next, .repeat = 1},
	{.name = "until", .aliases = "u", .usage = "until EVENT [field=value ...] [if STAT OP VALUE] | until cycle N",
	 .summary = "run until an event happens (one-shot breakpoint)",
	 .help = "Continue until the next event of that kind matching the filters, like a\n"
		 "breakpoint that deletes itself. See `help break` for filters and `help events`\n"
		 "for kinds. `until cycle N` when the machine is at or past N says so (goto N\n"
		 "goes back).\n"
		 "Example: until dram.row_conflict ch=0",
	 .fn = cmd_until, .complete = COMPL_EVENT},
	{.name = "break", .aliases = "b", .usage = "break EVENT [field=value ...] [if STAT OP VALUE] | break cycle N",
	 .summary = "stop when an event happens",
	 .help = "Stop the run when an event of kind EVENT happens and every filter matches.\n"
		 "Filters compare event fields with = != < <= > >= (decimal or 0x hex); addr\n"
		 "compares whole cache lines. Each kind names its own fields (`help events`),\n"
		 "and coded ones take names: to=M, class=associativity, type=Inv,\n"
		 "reason=dir_locked. `if` adds a condition on a stat, checked at the event.\n"
		 "`break cycle N` stops at cycle N. Without arguments, lists breakpoints.\n"
		 "Example: break dram.row_conflict bank=3 if dram.row_conflicts > 10\n"
		 "Example: break coh.transition to=M addr=0x10010400",
	 .fn = cmd_break, .complete = COMPL_EVENT},
	{.name = "tbreak", .usage = "tbreak EVENT [field=value ...] [if STAT OP VALUE] | tbreak cycle N",
	 .summary = "stop once: a breakpoint deleted at its first stop",
	 .help = "As `break`, but the breakpoint is deleted when it stops the run (gdb's\n"
		 "tbreak; `ignore` still applies first).\n"
		 "Example: tbreak l1.mshr_full",
	 .fn = cmd_tbreak, .complete = COMPL_EVENT},
	{.name = "watch", .usage = "watch ADDR | watch STAT | watch STAT OP VALUE", .summary = "stop where a line moves, a stat changes, a condition holds",
	 .help = "`watch ADDR` stops wherever the cache line holding ADDR moves: L1 and L2\n"
		 "accesses, L1/L2/FRC fills, L1 evictions, L2 write-backs, DRAM enqueue and\n"
		 "done, and the reply to the warp. `watch STAT` stops whenever the stat's\n"
		 "value changes (as gdb's `watch VAR`; the stop says from what to what).\n"
		 "`watch STAT OP VALUE` stops when the condition becomes true (occupancies\n"
		 "compare their current level).\n"
		 "Example: watch 0x10000080\nExample: watch sm0.vws.window\nExample: watch sm0.l1.mshr.occupancy >= 8",
	 .fn = cmd_watch, .complete = COMPL_STAT},
	{.name = "delete", .aliases = "d", .usage = "delete [N ...]", .summary = "delete breakpoints (all without N)",
	 .help = "Delete the breakpoints or watchpoints with the given numbers, or all of them.\nExample: delete 2",
	 .fn = cmd_delete},
	{.name = "disable", .usage = "disable N ...", .summary = "disable breakpoints",
	 .help = "Keep breakpoints but stop them from firing (`enable` turns them back on).\nExample: disable 1 3",
	 .fn = cmd_disable},
	{.name = "enable", .usage = "enable N ...", .summary = "enable breakpoints",
	 .help = "Turn disabled breakpoints back on.\nExample: enable 1", .fn = cmd_enable},
	{.name = "ignore", .usage = "ignore N COUNT", .summary = "let breakpoint N pass COUNT times",
	 .help = "The next COUNT hits of breakpoint N count (info break) but do not stop; 0\n"
		 "stops at the next one again. Rewinding keeps it right (it is kept as a hit\n"
		 "count).\n"
		 "Example: ignore 1 10",
	 .fn = cmd_ignore},
	{.name = "condition", .usage = "condition N [STAT OP VALUE]", .summary = "set or remove a breakpoint's condition",
	 .help = "Breakpoint N (an event breakpoint) stops only when STAT OP VALUE holds at the\n"
		 "event, as `break ... if`; without a condition it becomes unconditional.\n"
		 "Example: condition 1 dram.row_conflicts > 10",
	 .fn = cmd_condition, .complete = COMPL_STAT},
	{.name = "info", .aliases = "i",
	 .usage = "info [SUBJECT [ARGS]]",
	 .summary = "show the state of the machine and the session",
	 .help = "info              session: config, workload, scheduler + CTA dispatch, cycle\n"
		 "info break        breakpoints and watchpoints with hit counts\n"
		 "info stats [GLOB] every stat (or those matching, e.g. 'dram.*')\n"
		 "info config [GLOB]  config values; '*': differs from the default\n"
		 "info sm [N]       one SM and its warps\n"
		 "info warp [W]     one warp of the selected SM\n"
		 "info rf [N]       an SM's register file: banks, ports, queues, write buffer\n"
		 "info line ADDR    where a cache line lives (L1s, L2, MSHRs, DRAM)\n"
		 "info l2 [N]       an L2 bank\n"
		 "info frc [N]      an L2 bank's FRC: counters and the busy entries\n"
		 "info channel [N]  a DRAM channel (also: info ch [N])\n"
		 "info bank [N]     a DRAM bank of the selected channel, its queue and next pick\n"
		 "info mshr [l1|l2] MSHR entries of the selected SM's L1 or L2 bank\n"
		 "info events [N]   the last N logged events (see `log`)\n"
		 "info display      the expressions `display` prints after every stop\n"
		 "info coalesce [N] lanes -> requests of SM N's last memory instruction\n"
		 "info stalls [N]   stall cycles by reason (Nsight names), all SMs or SM N\n"
		 "info duel [N]     locality bypassing's duel: its last N intervals (16, up to\n"
		 "                  32), leader misses/lookups, difference, margin, outcome\n"
		 "info threads      threads ticking the SMs (set threads N), why one if the\n"
		 "                  machine cannot use more, the last phase's split\n"
		 "Example: info line 0x10000080\n"
		 "Example: info duel 8   (gpustep gtx480 -s l1.bypass=locality)\n"
		 "Example: info threads  (gpustep titanv --threads 2)\n"
		 "Example: info frc 0\n"
		 "Example: info rf 1",
	 .fn = cmd_info, .words = info_words},
	{.name = "why", .aliases = "bt backtrace", .usage = "why [warp [W|SM.W] | ADDR | go N|next|prev]", .summary = "explain what a warp, a line or the last stop waits on",
	 .help = "why warp [W]   the causal chain from warp W of the selected SM (or SM.W) to\n"
		 "               the structure it waits on, one line per link with the cycle\n"
		 "               it started: scoreboard <- load <- L1 MSHR / retry queue <- L2\n"
		 "               bank MSHR / FRC / directory <- DRAM bank row state\n"
		 "why ADDR       where the line holding ADDR is in flight and what it waits for\n"
		 "why            at a breakpoint stop: the chain of the warp or line of the\n"
		 "               event that fired, after what the stop itself says (a row\n"
		 "               conflict: the PRE and ACT that resolve it); at l1.duel_switch:\n"
		 "               the interval and rule that decided the bypassing duel\n"
		 "               (bt and backtrace, gdb's words for it, are aliases)\n"
		 "why go N       select what link [N] names (SM, warp, MSHR entry, L2 bank,\n"
		 "               DRAM bank, register bank) and focus its panel, switching\n"
		 "               layout if needed; next / prev: the following link (keys\n"
		 "               Alt-w / Alt-W step along the chain in the TUI)\n"
		 "See `info stalls` for the run's stall cycles by reason.\n"
		 "Example: why warp 1.3",
	 .fn = cmd_why},
	{.name = "lesson", .usage = "lesson [NAME|FILE.json|list|report|reset NAME|hide|show|toggle|close]",
	 .summary = "open a guided lesson, or show its current step",
	 .help = "lesson NAME     open a built-in lesson (or a lesson file): it sets up the\n"
		 "                machine and shows its first step\n"
		 "lesson          the current step (no lesson open: the list)\n"
		 "lesson list     the lessons with your progress\n"
		 "lesson report   the open lesson's steps, passed or failed\n"
		 "lesson reset N  forget your progress in lesson N\n"
		 "lesson hide     hide the lesson pane (show, toggle: back; Alt-l toggles)\n"
		 "lesson close    close the lesson and its pane (progress is kept)\n"
		 "In the TUI the lesson pane shows the current step, what to do and,\n"
		 "after `hint`, the hint: beside the panels from 150 columns, above them\n"
		 "on narrower screens (Tab focuses it, Up/Down scroll a long step).\n"
		 "See docs/LESSONS.md; `answer` and `hint` work on the current step.\n"
		 "Example: lesson coalescing",
	 .fn = cmd_lesson},
	{.name = "answer", .usage = "answer [N]", .summary = "answer the lesson's current step",
	 .help = "answer N   a prediction step: the lesson runs to the moment that shows the\n"
		 "           answer and says whether your prediction held, and why;\n"
		 "           N may be a name where the value has names (answer IM_D)\n"
		 "answer     an action step: checks the machine (your breakpoint, where the\n"
		 "           run stopped, a stat) and moves on when it holds\n"
		 "Example: answer 8",
	 .fn = cmd_answer},
	{.name = "hint", .usage = "hint", .summary = "a hint for the lesson's current step",
	 .help = "Print the current lesson step's hint.\nExample: hint", .fn = cmd_hint},
	{.name = "print", .aliases = "p", .usage = "print STAT|GLOB|CONFIG.PATH|param.NAME", .summary = "print stats (globs allowed) or config values",
	 .help = "Print a stat, every stat matching a glob, a config value or a kernel\n"
		 "parameter.\n"
		 "Example: print l1.*",
	 .fn = cmd_print, .complete = COMPL_STAT},
	{.name = "display", .usage = "display [STAT|GLOB]", .summary = "print a stat after every stop",
	 .help = "Add an expression printed after every run stops; without arguments, list them.\n"
		 "Example: display dram.row_hits",
	 .fn = cmd_display, .complete = COMPL_STAT},
	{.name = "undisplay", .usage = "undisplay [N]", .summary = "remove a display (all without N)",
	 .help = "Remove display number N (as listed by `display`), or all.\nExample: undisplay 1",
	 .fn = cmd_undisplay},
	{.name = "select", .usage = "select sm|warp|l2|channel|bank N | line ADDR|last | mshr l1|l2 E", .summary = "choose the unit panels and info show",
	 .help = "Select the SM, warp slot, L2 bank, DRAM channel or DRAM bank that panels,\n"
		 "`info` and `next` act on; `select line ADDR` the line whose directory entry\n"
		 "the coherence panel shows (`line last`: follow the newest transaction);\n"
		 "`select mshr l1 E` (the selected SM's L1) or `mshr l2 E` (the selected L2\n"
		 "bank's) puts the mshr panel's cursor on MSHR entry E (`why go N` does this).\n"
		 "Example: select sm 1",
	 .fn = cmd_select},
	{.name = "set", .usage = "set PATH VALUE | set param.NAME VALUE", .summary = "change a config value or kernel parameter (at cycle 0)",
	 .help = "Change one config parameter (see `list config`) or kernel parameter and\n"
		 "rebuild the machine. Only at cycle 0: after cycles have run, `run 0` goes back\n"
		 "first. `set threads N` is the exception: it changes no result, so it applies\n"
		 "at once at any cycle (`info threads` shows what it did).\n"
		 "Example: set l1.mshr.entries 8\n"
		 "Example: set threads 2",
	 .fn = cmd_set, .complete = COMPL_CONFIG},
	{.name = "load", .usage = "load CONFIG | load session FILE", .summary = "load a machine config (file or preset) and restart",
	 .help = "Load a config file or preset (see `list presets`) on top of the built-in\n"
		 "defaults, validate it and restart at cycle 0. Breakpoints are kept. `load\n"
		 "session FILE` restores a saved session (`save session`) and replays it to its\n"
		 "cycle; on the screen the status bar shows the replay's progress and Ctrl-C\n"
		 "or Esc cancels it, leaving the current session as it was.\n"
		 "Example: load gtx480",
	 .fn = cmd_load, .complete = COMPL_FILE, .words = load_words},
	{.name = "workload", .usage = "workload NAME|FILE", .summary = "switch to a built-in kernel or a kernel file",
	 .help = "Load a built-in kernel (see `list kernels`) or a kernel JSON file and restart\n"
		 "at cycle 0.\n"
		 "Example: workload transpose_naive",
	 .fn = cmd_workload, .complete = COMPL_KERNEL},
	{.name = "save", .usage = "save stats|config|session|trace FILE [--state|--replay | FROM TO]",
	 .summary = "write stats, the config, the session or a Perfetto trace",
	 .help = "Write every stat (the --stats format) or the current config (loadable with\n"
		 "`load`) as JSON, or the session (config, workload, breakpoints, displays,\n"
		 "layout, cycle; `load session` restores it) to FILE, atomically.\n"
		 "`save session FILE --state` also stores the machine state at its cycle\n"
		 "(coded against cycle 0, checked by hash), so opening it needs no replay\n"
		 "from cycle 0; it needs rewinding on (not --snapshot-mb 0). Plain\n"
		 "`save session FILE` stores it when a replay would take over 0.5 s at the\n"
		 "speed this session measured, and says so; `--replay` never stores it.\n"
		 "`save trace FILE [FROM TO]` writes cycles FROM..TO (default 0 to now) as\n"
		 "Chrome/Perfetto trace JSON, 1 cycle = 1 us, replayed on a second machine\n"
		 "(docs/EXPORTS.md).\n"
		 "Example: save session bug42.gps",
	 .fn = cmd_save, .complete = COMPL_FILE, .words = save_words},
	{.name = "log", .usage = "log [all|none|GLOB|+GLOB|-GLOB ...]", .summary = "choose which events the event log records",
	 .help = "Without arguments, show the filter. A plain pattern replaces it, +pattern adds\n"
		 "kinds, -pattern removes them (globs over event names, see `help events`);\n"
		 "several plain patterns replace it with all of them.\n"
		 "Example: log mem.reply l1.mshr_full    log +dram.act -l1.hit",
	 .fn = cmd_log, .complete = COMPL_EVENT},
	{.name = "list", .usage = "list kernels|presets|events|stats|config|commands", .summary = "list what exists",
	 .help = "List built-in kernels, machine and DRAM presets, event kinds, stats of the\n"
		 "current machine, config parameters or commands.\n"
		 "Example: list kernels",
	 .fn = cmd_list, .words = list_words},
	{.name = "model", .usage = "model [--threads N] [--semantics S] [--no-sim] [--no-hist]",
	 .summary = "reuse-distance model vs the simulator on this machine",
	 .help = "Run the analytical reuse-distance cache model (Nugteren et al.) on the current\n"
		 "machine's L1 and kernel, and a fresh simulation of the same for comparison:\n"
		 "hit and miss rates, miss classes, run times. The session's own simulator is\n"
		 "not touched. --threads N: threads the model sees (default 8192, 0 = all);\n"
		 "--no-sim: model only. --semantics gpustep (default) or reference: as the\n"
		 "reference implementation (tue-es/gpu-cache-model) runs it; --no-hist: no\n"
		 "histogram table. The reuse panel then shows predicted vs measured hit rate\n"
		 "and, in an L1's set view, the model's histogram beside the profiler's.\n"
		 "See docs/REUSE.md.\n"
		 "Example: model --threads 0",
	 .fn = cmd_model},
	{.name = "protocol", .usage = "protocol [si|nmoesi|moesi]", .summary = "print a coherence protocol's tables", .help = "Print the L1 and directory tables of the machine's coherence.protocol (or the\n"
		 "one named), the rows the engine executes; > marks the last L1 transition\n"
		 "taken.\n"
		 "Example: protocol moesi", .fn = cmd_protocol, .words = protocol_words},
	{.name = "history", .usage = "history ADDR [N]", .summary = "a cache line's recent coherence transactions",
	 .help = "Print the coherence transactions of ADDR's line, oldest first: cycle, where\n"
		 "(the SM's L1, the directory's bank and requester, a message's direction), kind\n"
		 "(L1 copy, dir, msg, NACK), the event or message, and the state before ->\n"
		 "after. The record is the coherence panel's log (the last 512 transactions of\n"
		 "all lines, rewound with the machine); the last line says how far back it goes.\n"
		 "N: only the newest N. Tab offers the lines in the log.\n"
		 "Example: history 0x10010400 20",
	 .fn = cmd_history, .complete = COMPL_LINE},
	{.name = "timeline", .usage = "timeline [l2 BANK SET | follow]", .summary = "choose the L2 set the timeline panel charts", .help = "Show one L2 set in the timeline panel (`layout timeline`): per block, bars for\n"
		 "NACK waits, transient victims, fetches, FRC fetches, swaps and FRC evictions\n"
		 "over cycles, rebuilt from the event log (the kinds it needs are added to\n"
		 "`log`). `follow`: the set of the newest L2 event of the selected bank (the\n"
		 "default). Without arguments, print the choice.\n"
		 "Example: timeline l2 0 0", .fn = cmd_timeline, .words = timeline_words},
	{.name = "check", .usage = "check", .summary = "verify the simulator's invariants now",
	 .help = "Check structural invariants (hits + misses = accesses, MSHR bookkeeping, no\n"
		 "request lost). Prints the first violation and fails; golden scripts end with\n"
		 "it.\n"
		 "Example: check",
	 .fn = cmd_check},
	{.name = "help", .aliases = "h ?", .usage = "help [COMMAND|PANEL|keys|events|protocol]", .summary = "explain a command, a panel, the keys or the events",
	 .help = "Without arguments, list the commands. `help keys` lists key bindings, `help\n"
		 "events` the event kinds with their fields, `help protocol [P]` the coherence\n"
		 "protocol's tables (as `protocol`). `help PANEL` (warps, mshr, cache, l2, dram,\n"
		 "dramq, events, stats, ...) says what each column of the panel means.\n"
		 "Example: help break\n"
		 "Example: help warps",
	 .fn = c_help, .complete = COMPL_COMMAND},
	{.name = "quit", .aliases = "q exit", .usage = "quit", .summary = "leave gpustep",
	 .help = "Leave gpustep (in batch mode: stop reading the script).\nExample: quit", .fn = c_quit},
};

/* ---- output --------------------------------------------------------------- */
static void out_v(struct cmd_out *o, bool err, const char *fmt, va_list ap)
{
	char *s = xvasprintf(fmt, ap);
	if (o && (err ? o->error : o->print))
		(err ? o->error : o->print)(o->u, s);
	else
		fprintf(err ? stderr : stdout, "%s\n", s);
	free(s);
}

void cmd_printf(struct cmd_out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_v(o, false, fmt, ap);
	va_end(ap);
}

void cmd_errorf(struct cmd_out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	out_v(o, true, fmt, ap);
	va_end(ap);
}

void cmd_print_block(struct cmd_out *out, const char *text)
{
	size_t n = strlen(text);
	while (n && text[n - 1] == '\n')
		n--;
	if (n)
		cmd_printf(out, "%.*s", (int)n, text);
}

int cmd_parse_u64(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	if (!s || !isdigit((unsigned char)s[0]))
		return -1;
	unsigned long long x = strtoull(s, &end, 0);
	uint64_t mul = 1;
	if (*end == 'k' || *end == 'K')
		mul = 1000;
	else if (*end == 'M')
		mul = 1000000;
	else if (*end == 'G')
		mul = 1000000000;
	if (mul > 1)
		end++;
	if (*end || errno || (mul > 1 && x > UINT64_MAX / mul))
		return -1;
	*v = x * mul;
	return 0;
}

int cmd_parse_index(struct cmd_out *out, const char *what, const char *s, int n, int *v)
{
	uint64_t x;
	if (cmd_parse_u64(s, &x) || x >= (uint64_t)(n > 0 ? n : 0)) {
		if (n > 0)
			cmd_errorf(out, "%s: expected a number from 0 to %d, got '%s'", what, n - 1, s);
		else
			cmd_errorf(out, "%s: this machine has none", what);
		return -1;
	}
	*v = (int)x;
	return 0;
}

/* ---- lookup and dispatch ---------------------------------------------------- */
size_t cmd_count(const struct session *ss) { return ARRAY_LEN(builtin) + (ss ? ss->nextra_cmds : 0); }

const struct cmd_def *cmd_at(const struct session *ss, size_t i)
{
	if (i < ARRAY_LEN(builtin))
		return &builtin[i];
	i -= ARRAY_LEN(builtin);
	return ss && i < ss->nextra_cmds ? &ss->extra_cmds[i] : NULL;
}

static bool has_alias(const struct cmd_def *d, const char *name)
{
	if (!d->aliases)
		return false;
	size_t n = strlen(name);
	for (const char *p = d->aliases; *p;) {
		size_t w = strcspn(p, " ");
		if (w == n && strncmp(p, name, n) == 0)
			return true;
		p += w;
		while (*p == ' ')
			p++;
	}
	return false;
}

/* The TUI's own commands (tui_commands.c): batch mode says why it refuses
 * them rather than call them unknown. */
/* The TUI's own command of that name (layout, zoom, ...), or NULL. */
static const struct cmd_def *screen_command(const char *name)
{
	for (size_t i = 0; i < tui_ncmds; i++)
		if (strcmp(name, tui_cmds[i].name) == 0)
			return &tui_cmds[i];
	return NULL;
}

static bool is_screen_command(const char *name) { return screen_command(name) != NULL; }

static const struct cmd_def *lookup(const struct session *ss, const char *name, int *ambiguous)
{
	size_t n = cmd_count(ss), len = strlen(name);
	*ambiguous = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cmd_def *d = cmd_at(ss, i);
		if (strcmp(d->name, name) == 0 || has_alias(d, name))
			return d;
	}
	const struct cmd_def *found = NULL;
	for (size_t i = 0; len && i < n; i++) {
		const struct cmd_def *d = cmd_at(ss, i);
		if (strncmp(d->name, name, len) == 0) {
			if (found)
				(*ambiguous)++;
			found = d;
		}
	}
	return *ambiguous ? NULL : found;
}

const struct cmd_def *cmd_lookup(const struct session *ss, const char *name_or_alias)
{
	int amb;
	return lookup(ss, name_or_alias, &amb);
}

/* Split into argv; "..." and '...' group words. Returns argc or -1. */
static int tokenize(char *buf, char **argv, int max)
{
	int argc = 0;
	char *p = buf;
	while (*p) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		if (argc == max)
			return -1;
		char q = (*p == '"' || *p == '\'') ? *p++ : 0;
		argv[argc++] = p;
		char *w = p;
		while (*p && (q ? *p != q : !isspace((unsigned char)*p)))
			*w++ = *p++;
		if (q && *p != q)
			return -2;
		if (*p)
			p++;
		*w = 0;
	}
	return argc;
}

int cmd_exec(struct session *ss, const char *line, struct cmd_out *out)
{
	while (isspace((unsigned char)*line))
		line++;
	if (!*line) {
		if (!ss->last_line[0])
			return CMD_OK;
		line = ss->last_line;
	}
	char buf[1024];
	if (strlen(line) >= sizeof buf) {
		cmd_errorf(out, "command line too long");
		return CMD_ERR;
	}
	char saved[sizeof ss->last_line];
	size_t len = strlen(line);
	if (len < sizeof saved)
		memcpy(saved, line, len + 1);
	else
		saved[0] = 0; /* too long to repeat */
	memcpy(buf, line, len + 1);
	char *argv[CMD_MAX_ARGS + 1];
	int argc = tokenize(buf, argv, CMD_MAX_ARGS);
	if (argc == -1) {
		cmd_errorf(out, "too many arguments (at most %d)", CMD_MAX_ARGS - 1);
		return CMD_ERR;
	}
	if (argc == -2) {
		cmd_errorf(out, "unterminated quote");
		return CMD_ERR;
	}
	if (argc == 0)
		return CMD_OK;
	argv[argc] = NULL;
	int amb;
	const struct cmd_def *d = lookup(ss, argv[0], &amb);
	if (!d) {
		if (amb) {
			struct strbuf sb;
			sb_init(&sb);
			for (size_t i = 0; i < cmd_count(ss); i++)
				if (strncmp(cmd_at(ss, i)->name, argv[0], strlen(argv[0])) == 0)
					sb_printf(&sb, "%s%s", sb.len ? ", " : "", cmd_at(ss, i)->name);
			cmd_errorf(out, "ambiguous command '%s' (%s)", argv[0], sb.s);
			sb_fini(&sb);
		} else if (is_screen_command(argv[0])) {
			cmd_errorf(out, "%s: a screen command, only in the TUI (batch mode has no screen)", argv[0]);
		} else {
			const char *s = cmd_closest_command(ss, argv[0]);
			if (s)
				cmd_errorf(out, "unknown command '%s' (did you mean %s? try help)", argv[0], s);
			else
				cmd_errorf(out, "unknown command '%s' (try help)", argv[0]);
		}
		ss->last_line[0] = 0;
		return CMD_ERR;
	}
	int rc = d->fn(ss, argc, argv, out);
	if (rc & CMD_RESET) /* a rebuilt machine: the last `why` chain names nothing on it */
		ss->why_n = 0;
	if (d->repeat && !(rc & CMD_ERR))
		snprintf(ss->last_line, sizeof ss->last_line, "%s", saved);
	else
		ss->last_line[0] = 0;
	return rc;
}

/* ---- time ---------------------------------------------------------------- */
int cmd_need_running(struct session *ss, struct cmd_out *out)
{
	if (sim_done(ss->sim)) {
		cmd_errorf(out, "the kernel finished at cycle %llu (use `run` to restart)",
			   (unsigned long long)sim_cycle(ss->sim));
		return -1;
	}
	return 0;
}

int cmd_usage(struct cmd_out *out, const char *name)
{
	const struct cmd_def *d = cmd_lookup(NULL, name);
	if (!d)
		d = screen_command(name);
	cmd_errorf(out, "usage: %s", d ? d->usage : name);
	return CMD_ERR;
}

int cmd_usage_why(struct cmd_out *out, const char *name, const char *fmt, ...)
{
	char buf[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	cmd_errorf(out, "%s: %s", name, buf);
	return cmd_usage(out, name);
}

int cmd_opt_count(struct cmd_out *out, const char *name, int argc, char **argv, uint64_t min, uint64_t *n)
{
	if (argc > 2)
		return cmd_usage_why(out, name, "one number at most, got also '%s'", argv[2]);
	if (argc == 2 && (cmd_parse_u64(argv[1], n) || *n < min))
		return cmd_usage_why(out, name, "'%s' is not a number%s", argv[1], min == 1 ? " of 1 or more" : "");
	return 0;
}

int cmd_no_args(struct cmd_out *out, const char *name, int argc, char **argv)
{
	if (argc > 1)
		return cmd_usage_why(out, name, "takes no arguments, got '%s'", argv[1]);
	return 0;
}

static CMD_FN(c_step)
{
	uint64_t n = 1;
	if (cmd_opt_count(out, "step", argc, argv, 1, &n))
		return CMD_ERR;
	if (cmd_need_running(ss, out))
		return CMD_ERR;
	session_start_run(ss, RUN_CYCLES, n);
	return CMD_RUN;
}

static CMD_FN(c_continue)
{
	if (cmd_no_args(out, "continue", argc, argv))
		return CMD_ERR;
	if (cmd_need_running(ss, out))
		return CMD_ERR;
	session_start_run(ss, RUN_FOREVER, 0);
	return CMD_RUN;
}

static CMD_FN(c_run)
{
	uint64_t n = 0;
	if (cmd_opt_count(out, "run", argc, argv, 0, &n))
		return CMD_ERR;
	char *err = NULL;
	if (session_reset(ss, &err)) {
		cmd_errorf(out, "%s", err);
		free(err);
		return CMD_ERR;
	}
	if (argc == 2 && n == 0) {
		cmd_printf(out, "restarted at cycle 0");
		return CMD_RESET;
	}
	session_start_run(ss, argc == 2 ? RUN_CYCLES : RUN_FOREVER, n);
	return CMD_RUN | CMD_RESET;
}

static CMD_FN(c_next)
{
	if (cmd_no_args(out, "next", argc, argv))
		return CMD_ERR;
	if (cmd_need_running(ss, out))
		return CMD_ERR;
	session_start_run(ss, RUN_NEXT_ISSUE, 0);
	return CMD_RUN;
}

/* ---- help ------------------------------------------------------------------ */
static void help_command(const struct cmd_def *d, struct cmd_out *out)
{
	cmd_printf(out, "usage: %s", d->usage);
	if (d->aliases && d->aliases[0])
		cmd_printf(out, "aliases: %s", d->aliases);
	cmd_printf(out, "%s", d->summary);
	cmd_print_block(out, d->help);
}

/* `help PANEL`: what each column of the panel means (views/legend.c). */
static void help_legend(const struct legend *lg, struct cmd_out *out)
{
	if (!lg)
		return;
	struct strbuf sb;
	sb_init(&sb);
	sb_puts(&sb, "Panel ");
	legend_text(lg, 78, &sb);
	cmd_print_block(out, sb.s);
	sb_fini(&sb);
}

static CMD_FN(c_help)
{
	if (argc == 1) {
		for (size_t i = 0; i < cmd_count(ss); i++) {
			const struct cmd_def *d = cmd_at(ss, i);
			cmd_printf(out, "  %-16s %s", d->name, d->summary);
		}
		cmd_printf(out, "`help COMMAND`: details; `help keys`: key bindings; `help events`: events;");
		cmd_printf(out, "`help PANEL` (warps, mshr, dram, dramq, ...): what each column of it means");
		return CMD_OK;
	}
	if (strcmp(argv[1], "keys") == 0) {
		struct strbuf sb;
		sb_init(&sb);
		keys_help(&sb);
		cmd_printf(out, "Key bindings of the interactive screen (each runs a command):");
		cmd_print_block(out, sb.s);
		sb_fini(&sb);
		return CMD_OK;
	}
	/* A panel's columns, after the command or topic of the same name if any. */
	const struct legend *lg = argc == 2 ? legend_find(argv[1]) : NULL;
	if (strcmp(argv[1], "protocol") == 0 && (argc > 2 || inspect_coh_proto(ss->sim))) { /* the tables */
		int rc = cmd_protocol(ss, argc - 1, argv + 1, out);
		help_legend(lg, out);
		return rc;
	}
	if (strcmp(argv[1], "events") == 0) {
		char *a[] = {(char *)"list", (char *)"events", NULL};
		int rc = cmd_list(ss, 2, a, out);
		help_legend(lg, out);
		return rc;
	}
	const struct cmd_def *d = lg && strcmp(argv[1], "timeline") != 0 && strcmp(argv[1], "protocol") != 0 &&
					  strcmp(argv[1], "lesson") != 0
					  ? NULL
					  : cmd_lookup(ss, argv[1]);
	if (!d && !lg && screen_command(argv[1])) { /* batch mode: explain it all the same */
		help_command(screen_command(argv[1]), out);
		cmd_printf(out, "(a screen command: only in the TUI, batch mode has no screen)");
		return CMD_OK;
	}
	if (!d && !lg) {
		cmd_errorf(out, "help: no command or panel '%s' (try help)", argv[1]);
		return CMD_ERR;
	}
	if (d)
		help_command(d, out);
	help_legend(lg, out);
	return CMD_OK;
}

static CMD_FN(c_quit)
{
	(void)ss;
	(void)argc;
	(void)argv;
	(void)out;
	return CMD_QUIT;
}
