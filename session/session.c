/*
 * session.c: one user session (see session.h): config + workload + seed →
 * simulator, rebuilt atomically (a failed load leaves the old one running),
 * and run requests advanced in slices.
 *
 * Rebuild order: parse/compile into temporaries ─▶ sim_new ─▶ swap in ─▶
 * rebind breakpoints and the log filter ─▶ free the old sim, then its kernel
 * (the sim points into the kernel).
 */
#include "session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dram/dram_trace.h"
#include "debug/inspect.h"
#include "lesson/lesson.h"
#include "load/loader.h"
#include "session_file.h"
#include "load/trace_io.h"
#include "machine/sim_mem.h"
#include "debug/snapshot.h"
#include "load/sysmem.h"

/* The budget session_init* builds with: a plain `--run` sets 0 first, so no
 * snapshot of the first state is encoded only to be dropped (that copy was
 * the largest allocation of a headless run). */
static size_t initial_budget = (size_t)SESSION_SNAPSHOT_MB_DEFAULT << 20;
/* The --max-memory session_init* builds with (0: the memory available). */
static uint64_t initial_max_memory;

void session_set_initial_max_memory(uint64_t bytes) { initial_max_memory = bytes; }

uint64_t session_line_bytes(const struct session *ss)
{
	int l = ss->cfg.l1.line > 0 ? ss->cfg.l1.line : ss->cfg.l2.line;
	return l > 0 ? (uint64_t)l : 128;
}

/* Build a sim from cfg + ksrc; on success replace the session's. */
static int rebuild(struct session *ss, const struct sim_cfg *cfg, const struct kernel_src *ksrc, char **err)
{
	struct sim_cfg c = *cfg;
	c.seed = ss->seed;
	struct kernel *k = NULL;
	struct workload *wl;
	if (ss->traces) { /* a recorded trace (trace_io.h): the whole list back to back, or kernel trace_k */
		wl = trace_list_back_to_back(ss->traces) ? trace_workload_all(ss->traces, &c, err)
							  : trace_workload_new(ss->traces, ss->trace_k, &c, err);
		if (!wl)
			return -1;
	} else if (ss->dreqs) { /* a DRAM-level trace: the DRAM alone */
		wl = xcalloc(1, sizeof *wl);
		snprintf(wl->name, sizeof wl->name, "%s", ksrc->name);
		wl->dram_reqs = ss->dreqs;
	} else {
		k = kernel_compile(ksrc, ss->seed, err);
		if (!k)
			return -1;
		/* The sim keeps a pointer to its workload: it lives on the heap until the
		 * sim is freed. */
		wl = xcalloc(1, sizeof *wl);
		snprintf(wl->name, sizeof wl->name, "%s", kernel_name(k));
		wl->kernel = k;
	}
	struct sim *s = session_check_memory(ss->max_memory, &c, wl, err) ? NULL : sim_new(&c, wl, err);
	if (!s) {
		free(wl);
		if (k)
			kernel_free(k);
		return -1;
	}
	if (ss->sim)
		sim_free(ss->sim);
	if (ss->kernel)
		kernel_free(ss->kernel);
	free(ss->wl_owned);
	ss->sim = s;
	ss->builds++;
	ss->kernel = k;
	ss->wl_owned = wl;
	ss->wl = *wl;
	ss->cfg = c;
	if (ksrc != &ss->ksrc)
		ss->ksrc = *ksrc;
	sim_set_bps(ss->sim, &ss->bps);
	if (ss->snapshot_bytes)
		sim_snapshots_enable(ss->sim, ss->snapshot_bytes);
	bp_rebind(&ss->bps, sim_stats(ss->sim));
	bp_clear_stop(&ss->bps);
	struct events *ev = sim_events(ss->sim);
	memcpy(ev->log_mask, ss->log_mask, sizeof ev->log_mask);
	events_update_watch(ev);
	ss->run.kind = RUN_NONE;
	ss->last_stop = SIM_STOP_LIMIT;
	ss->started = false;
	if (ss->until_id > 0)
		bp_delete(&ss->bps, ss->until_id);
	ss->until_id = 0;
	ss->stop_note[0] = 0;
	int nsm = inspect_sms(ss->sim);
	if (ss->sel_sm >= nsm)
		ss->sel_sm = 0;
	if (ss->sel_warp >= inspect_warp_slots(ss->sim))
		ss->sel_warp = 0;
	if (ss->sel_l2 >= inspect_l2_banks(ss->sim))
		ss->sel_l2 = 0;
	if (ss->sel_ch >= inspect_dram_channels(ss->sim))
		ss->sel_ch = 0;
	struct cache_geom tlg;
	if (ss->tl_fixed && (!inspect_cache_geom(ss->sim, CACHE_L2, ss->tl_bank, &tlg) || ss->tl_set >= tlg.sets))
		ss->tl_fixed = false; /* the timeline's set is gone with the old machine: follow again */
	if (ss->sel_bank >= ss->cfg.dram.banks * ss->cfg.dram.ranks)
		ss->sel_bank = 0;
	return 0;
}

/* Switch to a recorded trace (trace_io.h): kernel @N of a list, else the
 * first. On error nothing changes. */
static int set_trace(struct session *ss, const struct sim_cfg *cfg, const char *spec, char **err)
{
	unsigned first;
	struct trace_list *tl = trace_list_open(spec, &first, err);
	if (!tl)
		return -1;
	struct trace_list *old = ss->traces;
	unsigned old_k = ss->trace_k;
	struct kernel_src *k = xcalloc(1, sizeof *k);
	ss->traces = tl;
	ss->trace_k = first;
	int rc = trace_list_fill_src(tl, first, k, err);
	if (rc == 0)
		rc = rebuild(ss, cfg, k, err);
	free(k);
	if (rc) {
		ss->traces = old;
		ss->trace_k = old_k;
		trace_list_free(tl);
		return -1;
	}
	trace_list_free(old);
	return 0;
}

/* What every session_init* sets before its first build (ss zeroed). */
static void session_begin(struct session *ss, const char *cfg_source, const char *spec, uint64_t seed)
{
	bp_init(&ss->bps, NULL);
	ss->seed = seed;
	ss->snapshot_bytes = initial_budget;
	ss->max_memory = initial_max_memory;
	snprintf(ss->cfg_source, sizeof ss->cfg_source, "%s", cfg_source ? cfg_source : "");
	snprintf(ss->workload_spec, sizeof ss->workload_spec, "%s", spec);
}

int session_init(struct session *ss, const struct sim_cfg *cfg, const char *cfg_source, const char *workload_spec,
		 uint64_t seed, char **err)
{
	memset(ss, 0, sizeof(*ss));
	session_begin(ss, cfg_source, workload_spec, seed);
	if (trace_is_spec(workload_spec)) {
		if (set_trace(ss, cfg, workload_spec, err)) {
			bp_fini(&ss->bps);
			return -1;
		}
		return 0;
	}
	if (loader_load_kernel(workload_spec, &ss->ksrc, err)) {
		bp_fini(&ss->bps);
		return -1;
	}
	if (rebuild(ss, cfg, &ss->ksrc, err)) {
		bp_fini(&ss->bps);
		return -1;
	}
	return 0;
}

int session_init_kernel(struct session *ss, const struct sim_cfg *cfg, const char *cfg_source, const char *spec,
			const struct kernel_src *k, const char *json, uint64_t seed, char **err)
{
	memset(ss, 0, sizeof(*ss));
	session_begin(ss, cfg_source, spec, seed);
	ss->ksrc = *k;
	if (rebuild(ss, cfg, &ss->ksrc, err)) {
		bp_fini(&ss->bps);
		return -1;
	}
	ss->wl_json = json ? xstrdup(json) : NULL;
	return 0;
}

int session_init_dram_trace(struct session *ss, const struct sim_cfg *cfg, const char *cfg_source, const char *path,
			    uint64_t seed, char **err)
{
	memset(ss, 0, sizeof(*ss));
	struct dram_reqs *q = dram_trace_load(path, cfg, err);
	if (!q)
		return -1;
	session_begin(ss, cfg_source, path, seed);
	ss->dreqs = q;
	struct kernel_src *k = xcalloc(1, sizeof *k);
	const char *base = strrchr(path, '/');
	snprintf(k->name, sizeof k->name, "%s", base ? base + 1 : path);
	snprintf(k->desc, sizeof k->desc, "DRAM trace, %llu request%s (%s format%s)", (unsigned long long)q->n,
		 q->n == 1 ? "" : "s",
		 dram_trace_format_name(q->fmt), q->wrapped ? ", addresses beyond the capacity wrapped" : "");
	int rc = rebuild(ss, cfg, k, err);
	free(k);
	if (rc == 0)
		ss->ui_pending = xstrdup("layout dram\n"); /* the TUI opens on the DRAM panel (session_apply_ui) */
	if (rc) {
		dram_reqs_free(q);
		ss->dreqs = NULL;
		bp_fini(&ss->bps);
		return -1;
	}
	return 0;
}

void session_fini(struct session *ss)
{
	if (ss->sim)
		sim_free(ss->sim);
	if (ss->kernel)
		kernel_free(ss->kernel);
	free(ss->wl_owned);
	trace_list_free(ss->traces);
	dram_reqs_free(ss->dreqs);
	bp_fini(&ss->bps);
	for (int i = 0; i < ss->ndisplays; i++)
		free(ss->displays[i]);
	free(ss->ui_pending);
	free(ss->wl_json);
	free(ss->load_report);
	if (ss->run.kind == RUN_LOAD)
		session_loader_free(ss->run.load);
	lesson_free(ss->lesson);
	memset(ss, 0, sizeof(*ss));
}

int session_reset(struct session *ss, char **err)
{
	struct sim_cfg c = ss->cfg;
	return rebuild(ss, &c, &ss->ksrc, err);
}

int session_set_workload(struct session *ss, const char *spec, char **err)
{
	struct sim_cfg c = ss->cfg;
	struct dram_reqs *dq = ss->dreqs; /* a DRAM-trace session ends when the new workload loads */
	ss->dreqs = NULL;
	if (trace_is_spec(spec)) {
		if (set_trace(ss, &c, spec, err)) {
			ss->dreqs = dq;
			return -1;
		}
		snprintf(ss->workload_spec, sizeof ss->workload_spec, "%s", spec);
		free(ss->wl_json);
		ss->wl_json = NULL;
		dram_reqs_free(dq);
		ss->model.valid = false;
		return 0;
	}
	struct kernel_src *k = xmalloc(sizeof *k);
	struct trace_list *old = ss->traces;
	ss->traces = NULL;
	int rc = loader_load_kernel(spec, k, err);
	if (rc == 0)
		rc = rebuild(ss, &c, k, err);
	if (rc == 0) {
		snprintf(ss->workload_spec, sizeof ss->workload_spec, "%s", spec);
		free(ss->wl_json); /* the new kernel comes from its file */
		ss->wl_json = NULL;
		trace_list_free(old);
		dram_reqs_free(dq);
		ss->model.valid = false;
	} else {
		ss->traces = old;
		ss->dreqs = dq;
	}
	free(k);
	return rc;
}

int session_set_config(struct session *ss, const struct sim_cfg *cfg, const char *source, char **err)
{
	if (cfg_validate(cfg, err))
		return -1;
	uint64_t old_seed = ss->seed;
	ss->seed = cfg->seed;
	if (rebuild(ss, cfg, &ss->ksrc, err)) {
		ss->seed = old_seed;
		return -1;
	}
	if (source)
		snprintf(ss->cfg_source, sizeof ss->cfg_source, "%s", source);
	ss->model.valid = false;
	return 0;
}

int session_set_kernel_src(struct session *ss, const struct kernel_src *k, char **err)
{
	struct sim_cfg c = ss->cfg;
	if (rebuild(ss, &c, k, err))
		return -1;
	ss->model.valid = false;
	return 0;
}

uint64_t session_memory_limit(uint64_t max_memory, char *what, size_t n)
{
	char src[96];
	uint64_t avail = sysmem_available(src, sizeof src);
	if (max_memory && max_memory <= avail) {
		snprintf(what, n, "--max-memory %llu MB", (unsigned long long)(max_memory >> 20));
		return max_memory;
	}
	snprintf(what, n, "%s", src[0] ? src : "the memory available");
	return avail;
}

int session_check_memory(uint64_t max_memory, const struct sim_cfg *cfg, const struct workload *wl, char **err)
{
	struct sim_mem m;
	sim_mem_estimate(cfg, wl, &m);
	char what[128];
	uint64_t lim = session_memory_limit(max_memory, what, sizeof what);
	return sim_mem_check(&m, lim, what, err);
}

/* Can some value in [0, n) satisfy `x OP v`? */
static bool op_satisfiable(enum bp_op op, int64_t v, int64_t n)
{
	switch (op) {
	case BP_EQ: return v >= 0 && v < n;
	case BP_NE: return n > 1 || v != 0;
	case BP_LT: return v > 0;
	case BP_LE: return v >= 0;
	case BP_GT: return v < n - 1;
	case BP_GE: return v <= n - 1;
	case BP_CHANGED: return true; /* filters never use it */
	}
	return true;
}

bool session_bp_never_matches(const struct session *ss, int id, char *buf, size_t n)
{
	const struct bp *b = bp_get((struct bp_set *)&ss->bps, id);
	if (!b || b->type != BP_EVENT || !ss->sim)
		return false;
	const char *ev = event_defs[b->kind].name;
	bool l2 = strncmp(ev, "l2.", 3) == 0 || strncmp(ev, "frc.", 4) == 0;
	for (unsigned i = 0; i < b->nf; i++) {
		const struct bp_filter *f = &b->f[i];
		const char *what = NULL, *name = NULL;
		int64_t units = -1;
		if (f->field == EVF_SM)
			units = inspect_sms(ss->sim), what = "SMs", name = "sm";
		else if (f->field == EVF_WARP)
			units = inspect_warp_slots(ss->sim), what = "warp slots per SM", name = "warp";
		else if (f->field == EVF_UNIT && l2)
			units = inspect_l2_banks(ss->sim), what = "L2 banks", name = "unit";
		else if (f->field == EVF_CH)
			units = sim_dram_only(ss->sim) || ss->cfg.mem.model == MEM_DRAM ? inspect_dram_channels(ss->sim) : 0,
			what = "DRAM channels", name = "ch";
		else if (f->field == EVF_BANK)
			units = (int64_t)ss->cfg.dram.banks * ss->cfg.dram.ranks, what = "DRAM banks per channel", name = "bank";
		if (units < 0 || op_satisfiable(f->op, f->value, units))
			continue;
		if (units == 0)
			snprintf(buf, n, "warning: breakpoint %d can never fire: this machine has no %s", id, what);
		else
			snprintf(buf, n, "warning: breakpoint %d can never fire: its %s filter asks for %s %s %lld, and this "
					 "machine has %lld %s (0-%lld)",
				 id, name, name, bp_op_name(f->op), (long long)f->value, (long long)units, what,
				 (long long)units - 1);
		return true;
	}
	return false;
}


void session_set_initial_snapshot_budget(size_t bytes) { initial_budget = bytes; }
size_t session_initial_snapshot_budget(void) { return initial_budget; }

void session_set_snapshot_budget(struct session *ss, size_t bytes)
{
	ss->snapshot_bytes = bytes;
	if (ss->sim)
		sim_snapshots_enable(ss->sim, bytes);
}

void session_start_run(struct session *ss, enum run_kind kind, uint64_t cycles)
{
	bp_clear_stop(&ss->bps);
	ss->stop_note[0] = 0;
	ss->run_error[0] = 0;
	if (ss->run.kind == RUN_REVERSE && ss->sim) /* replaced half way: back to where it began */
		sim_back_search_end(ss->sim, &ss->run.search);
	if (ss->run.kind == RUN_LOAD) /* replaced half way: the load is dropped */
		session_loader_free(ss->run.load);
	memset(&ss->run, 0, sizeof ss->run);
	ss->run.kind = kind;
	if (kind == RUN_REVERSE)
		sim_back_search_begin(ss->sim, &ss->run.search);
	uint64_t now = sim_cycle(ss->sim);
	ss->run.target_cycle = cycles > UINT64_MAX - now ? UINT64_MAX : now + cycles;
	if (kind == RUN_NEXT_ISSUE) {
		char args[64], *err = NULL;
		ss->run.sm = ss->sel_sm;
		ss->run.slot = ss->sel_warp;
		struct warp_info wi;
		ss->run.cta = -1;
		if (inspect_warp(ss->sim, ss->sel_sm, ss->sel_warp, &wi) && wi.state != WS_EMPTY) {
			ss->run.cta = wi.cta;
			ss->run.warp_in_cta = wi.warp_in_cta;
		}
		snprintf(args, sizeof args, "warp.issue sm=%d warp=%d", ss->sel_sm, ss->sel_warp);
		int id = bp_add_until(&ss->bps, args, session_line_bytes(ss), &err);
		free(err);
		if (id > 0) {
			ss->until_id = id;
			events_update_watch(sim_events(ss->sim));
		}
	}
}

/* After a breakpoint, select the units the event names (like gdb selecting
 * the frame), so `info bank`, `info mshr` and the panels show them. */
static void select_from_event(struct session *ss, const struct event *e)
{
	if (e->kind >= EV__COUNT)
		return;
	unsigned f = event_defs[e->kind].fields;
	bool l2 = strncmp(event_defs[e->kind].name, "l2.", 3) == 0;
	if ((f & EVF_SM) && !l2 && e->sm >= 0 && e->sm < inspect_sms(ss->sim))
		ss->sel_sm = e->sm;
	if ((f & EVF_WARP) && e->warp >= 0 && e->warp < inspect_warp_slots(ss->sim))
		ss->sel_warp = e->warp;
	if ((f & EVF_UNIT) && l2 && e->unit >= 0 && e->unit < inspect_l2_banks(ss->sim))
		ss->sel_l2 = e->unit;
	if ((f & EVF_ADDR) && strncmp(event_defs[e->kind].name, "coh.", 4) == 0) {
		ss->sel_line = e->addr; /* the coherence panel shows this line's directory entry */
		ss->sel_line_set = true;
	}
	if ((f & EVF_CH) && e->ch >= 0 && e->ch < inspect_dram_channels(ss->sim)) {
		ss->sel_ch = e->ch;
		struct dram_chan_info ci;
		if ((f & EVF_BANK) && e->bank >= 0 && inspect_dram_channel(ss->sim, e->ch, &ci) && e->bank < ci.banks)
			ss->sel_bank = e->bank;
	}
}

static bool run_slice_fwd(struct session *ss, uint64_t budget);

static void finish(struct session *ss, enum sim_stop why)
{
	if (why == SIM_STOP_BREAK)
		select_from_event(ss, &ss->bps.stop_ev);
	if (why == SIM_STOP_BREAK && ss->run.kind == RUN_NEXT_ISSUE && ss->bps.stop_id == ss->until_id) {
		const struct event *e = &ss->bps.stop_ev;
		const char *text = ss->kernel ? kernel_stmt_text(ss->kernel, (unsigned)e->a) : NULL;
		int n = snprintf(ss->stop_note, sizeof ss->stop_note, "sm %d warp %d issued '%s' at cycle %llu (logged in cycle %llu)",
				 e->sm, e->warp, text ? text : "?", (unsigned long long)sim_cycle(ss->sim),
				 (unsigned long long)e->cycle);
		/* The slot may hold another warp now: its warp finished and a new
		 * CTA's took the slot (or it was empty): say so, gdb says "[Switching to thread ...]". */
		struct warp_info wi;
		if (n > 0 && (size_t)n < sizeof ss->stop_note && inspect_warp(ss->sim, e->sm, e->warp, &wi) &&
		    wi.cta >= 0 && (wi.cta != ss->run.cta || wi.warp_in_cta != ss->run.warp_in_cta)) {
			if (ss->run.cta < 0)
				snprintf(ss->stop_note + n, sizeof ss->stop_note - (size_t)n,
					 "; the slot was empty, now CTA %d warp %d", wi.cta, wi.warp_in_cta);
			else
				snprintf(ss->stop_note + n, sizeof ss->stop_note - (size_t)n,
					 "; new CTA: the slot now runs CTA %d warp %d (CTA %d warp %d finished)", wi.cta,
					 wi.warp_in_cta, ss->run.cta, ss->run.warp_in_cta);
		}
		why = SIM_STOP_LIMIT; /* reported by the note, not as a breakpoint */
	}
	bool internal = ss->run.kind == RUN_NEXT_ISSUE; /* `next`'s own breakpoint, never listed */
	ss->run.kind = RUN_NONE;
	ss->last_stop = why;
	if (ss->until_id > 0)
		bp_delete(&ss->bps, ss->until_id);
	/* ... so it gives its number back: the next `break` after `next` is #2, not #3. */
	if (internal && ss->until_id > 0 && ss->until_id == ss->bps.next_id - 1)
		ss->bps.next_id--;
	ss->until_id = 0;
	/* A temporary breakpoint may have gone: stop watching its kind. */
	events_update_watch(sim_events(ss->sim));
}

/* One slice of a reverse-continue: search; when found, rewind to one cycle
 * before the stop and turn into `step 1`, so the breakpoint fires again
 * exactly as the first time (the same report, selection and event). */
static bool reverse_slice(struct session *ss, uint64_t budget)
{
	struct sim_back_search *b = &ss->run.search;
	uint64_t r0 = b->replayed;
	enum sim_search_status st = sim_back_search_step(ss->sim, b, budget);
	ss->simulated += b->replayed - r0;
	if (st == SIM_SEARCH_MORE)
		return true;
	sim_back_search_end(ss->sim, b); /* at the origin again, exactly */
	if (st == SIM_SEARCH_INTERRUPTED) {
		finish(ss, SIM_STOP_INTERRUPT);
		return false;
	}
	uint64_t c = b->found, now = b->origin;
	char *err = NULL;
	if (c == UINT64_MAX || c == 0 || c >= now || sim_goto(ss->sim, c - 1, &err)) {
		snprintf(ss->run_error, sizeof ss->run_error,
			 "reverse-continue: no breakpoint stop between cycle %llu and cycle %llu",
			 (unsigned long long)sim_rewind_horizon(ss->sim), (unsigned long long)now);
		free(err);
		finish(ss, SIM_STOP_LIMIT);
		return false;
	}
	ss->started = sim_cycle(ss->sim) > 0;
	session_start_run(ss, RUN_CYCLES, 1);
	return true;
}

void session_start_load(struct session *ss, struct session_loader *ld, bool partial)
{
	session_start_run(ss, RUN_LOAD, 0);
	ss->run.load = ld;
	ss->run.load_partial = partial;
}

bool session_load_progress(const struct session *ss, char *buf, size_t n)
{
	if (ss->run.kind != RUN_LOAD || !ss->run.load)
		return false;
	uint64_t c, target;
	const char *name;
	session_loader_progress(ss->run.load, &c, &target, &name);
	const char *base = strrchr(name, '/'); /* the status bar is narrow */
	snprintf(buf, n, "loading %s: cycle %llu of %llu (%d%%)", base ? base + 1 : name, (unsigned long long)c,
		 (unsigned long long)target, (int)(100.0 * (double)c / (double)(target ? target : 1)));
	return true;
}

/* The end of a RUN_LOAD: swap the loaded session in (the replay reached its
 * cycle, or a start-up load was cancelled: it keeps the cycle reached), or
 * drop it and leave this session exactly as it was. */
static void load_end(struct session *ss, bool cancelled)
{
	struct session_loader *ld = ss->run.load;
	bool at_start = ss->run.load_partial, partial = at_start && cancelled;
	uint64_t c, target;
	const char *nm;
	session_loader_progress(ld, &c, &target, &nm);
	char *name = xstrdup(nm);
	ss->run.load = NULL;
	ss->run.kind = RUN_NONE;
	ss->last_stop = SIM_STOP_LIMIT;
	if (ss->sim) /* a Ctrl-C the TUI also sent to this machine (tui.c sigint_sim) */
		sim_interrupt_clear(ss->sim);
	if (cancelled && !partial) {
		session_loader_free(ld);
		snprintf(ss->run_error, sizeof ss->run_error,
			 "load session: cancelled at cycle %llu of %llu; the current session is unchanged",
			 (unsigned long long)c, (unsigned long long)target);
		free(name);
		return;
	}
	struct strbuf notes;
	sb_init(&notes);
	char *err = NULL;
	if (session_loader_finish(ss, ld, partial, &notes, &err)) {
		snprintf(ss->run_error, sizeof ss->run_error, "load session: %s; the current session is unchanged",
			 err ? err : name);
		free(err);
	} else {
		session_loaded_message(ss, name, &notes);
		if (partial)
			sb_printf(&notes, "load cancelled at cycle %llu of %llu: the session stays at cycle %llu "
					  "(`goto %llu` replays the rest)\n",
				  (unsigned long long)c, (unsigned long long)target, (unsigned long long)c,
				  (unsigned long long)target);
		free(ss->load_report);
		ss->load_report = xstrdup(notes.s);
		ss->loaded_at_start = at_start;
		ss->last_stop = SIM_STOP_LIMIT;
	}
	sb_fini(&notes);
	free(name);
}

void session_loaded_message(const struct session *ss, const char *path, struct strbuf *sb)
{
	sb_printf(sb, "loaded session %s: %s, %s, seed %llu, %u breakpoint%s, %d display%s\n", path, ss->cfg.name,
		  ss->ksrc.name, (unsigned long long)ss->seed, ss->bps.n, ss->bps.n == 1 ? "" : "s", ss->ndisplays,
		  ss->ndisplays == 1 ? "" : "s");
	if (ss->lesson) {
		int step, n;
		lesson_position(ss->lesson, &step, &n);
		sb_printf(sb,
			  "lesson %s stays open at step %d of %d: its checks now read the loaded machine (`lesson %s` "
			  "starts it again on its own, `lesson close` closes it)\n",
			  lesson_name(ss->lesson), step, n, lesson_name(ss->lesson));
	}
}

void session_run_interrupt(struct session *ss)
{
	if (ss->run.kind == RUN_LOAD && ss->run.load) {
		load_end(ss, true);
		return;
	}
	if (ss->run.kind == RUN_REVERSE && ss->sim) {
		sim_back_search_end(ss->sim, &ss->run.search);
		finish(ss, SIM_STOP_INTERRUPT);
		return;
	}
	if (ss->run.kind != RUN_NONE)
		ss->run.kind = RUN_NONE;
	ss->last_stop = SIM_STOP_INTERRUPT;
}

bool session_run_slice(struct session *ss, uint64_t budget)
{
	if (ss->run.kind == RUN_NONE || !ss->sim)
		return false;
	if (budget == 0)
		budget = 1;
	if (ss->run.kind == RUN_REVERSE) /* may start at the end of the kernel */
		return reverse_slice(ss, budget);
	if (ss->run.kind == RUN_LOAD) { /* the current machine stays as it is until the swap */
		uint64_t n = 0;
		enum session_load_status st = session_loader_step(ss->run.load, budget, &n);
		ss->simulated += n;
		if (st == SESSION_LOAD_MORE)
			return true;
		load_end(ss, st == SESSION_LOAD_CANCELLED);
		return false;
	}
	uint64_t c0 = sim_cycle(ss->sim);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool more = run_slice_fwd(ss, budget);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ss->simulated += sim_cycle(ss->sim) - c0;
	ss->timed_cycles += sim_cycle(ss->sim) - c0;
	ss->timed_seconds += (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	return more;
}

double session_replay_estimate(const struct session *ss)
{
	if (!ss->sim || !ss->timed_cycles || ss->timed_seconds <= 0)
		return -1;
	return (double)sim_cycle(ss->sim) * ss->timed_seconds / (double)ss->timed_cycles;
}

static bool run_slice_fwd(struct session *ss, uint64_t budget)
{
	if (sim_done(ss->sim)) {
		finish(ss, SIM_STOP_DONE);
		return false;
	}
	enum sim_stop st;
	switch (ss->run.kind) {
	case RUN_CYCLES: {
		uint64_t now = sim_cycle(ss->sim);
		if (now >= ss->run.target_cycle) {
			finish(ss, SIM_STOP_LIMIT);
			return false;
		}
		uint64_t n = MIN(budget, ss->run.target_cycle - now);
		st = sim_step(ss->sim, n);
		ss->started = true;
		if (st != SIM_STOP_LIMIT || sim_cycle(ss->sim) >= ss->run.target_cycle) {
			finish(ss, st == SIM_STOP_LIMIT && sim_done(ss->sim) ? SIM_STOP_DONE : st);
			return false;
		}
		return true;
	}
	case RUN_GOTO: {
		uint64_t now = sim_cycle(ss->sim);
		if (now >= ss->run.target_cycle) {
			finish(ss, SIM_STOP_LIMIT);
			return false;
		}
		st = sim_step(ss->sim, MIN(budget, ss->run.target_cycle - now));
		ss->started = true;
		if (st == SIM_STOP_BREAK) { /* counted, not stopping */
			bp_clear_stop(&ss->bps);
			return true;
		}
		if (st != SIM_STOP_LIMIT || sim_cycle(ss->sim) >= ss->run.target_cycle) {
			finish(ss, st == SIM_STOP_LIMIT && sim_done(ss->sim) ? SIM_STOP_DONE : st);
			return false;
		}
		return true;
	}
	case RUN_FOREVER:
	case RUN_NEXT_ISSUE: /* a temporary warp.issue breakpoint ends it */
		st = sim_step(ss->sim, budget);
		ss->started = true;
		if (st != SIM_STOP_LIMIT) {
			finish(ss, st);
			return false;
		}
		return true;
	case RUN_NONE:
	case RUN_REVERSE:
	case RUN_LOAD:
		break;
	}
	return false;
}

void session_run_all(struct session *ss)
{
	while (session_run_slice(ss, 1u << 20))
		;
}
