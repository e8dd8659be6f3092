/*
 * export_trace.c: a window of a run as Chrome trace-event JSON, which the
 * Perfetto UI (ui.perfetto.dev) and chrome://tracing open (docs/EXPORTS.md).
 *
 * Time: one core cycle = one microsecond of trace time (ts, dur in µs).
 *
 *   process "GPU" (pid 1)          counter IPC (per TRACE_IPC_PERIOD cycles)
 *   process "SM s" (pid 1000+s)    thread per warp slot: state slices (issue,
 *                                  ready, stall:REASON); thread "coherence":
 *                                  the L1's coherence messages; async slices
 *                                  "L1 MSHR": entry allocation to release
 *                                  (args addr, merged); counter L1 MSHR used
 *   process "L2 bank b" (2000+b)   async "L2 MSHR" slices; thread per FRC
 *                                  entry: state slices; thread "directory":
 *                                  the bank's coherence messages; counters
 *                                  L2 MSHR used, queue
 *   process "DRAM ch c" (3000+c)   thread per bank: "row R" slices from ACT to
 *                                  PRE with ACT/RD/WR/PRE inside (row, addr
 *                                  in args); "refresh" thread; counter queue
 *
 * Coherence transactions are flows (ph s/f) from the L1's request slice to
 * the directory's reply slice for the same line.
 *
 * Sources: DRAM commands and coherence messages come from the event log (the
 * kinds are added to the log filter for the window and restored after; the
 * ring is drained after every cycle, so it never wraps unless one cycle
 * emits more than its capacity, which is reported); warp states, MSHR and
 * FRC entries and counters are read through inspect.h after every cycle of
 * the window. The run itself is not changed.
 */
#include "export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coh/coh.h"
#include "dram/dram.h"
#include "mem/frc.h"
#include "debug/inspect.h"
#include "load/outfile.h"

#ifndef GPUSTEP_VERSION
#define GPUSTEP_VERSION "0.0.0"
#endif

#define TRACE_IPC_PERIOD 100
#define PID_GPU 1
#define PID_SM 1000
#define PID_L2 2000
#define PID_DRAM 3000
#define TID_COH 100000
#define TID_FRC 200000
#define TID_REF 300000
#define FLOW_CAP 4096 /* open coherence transactions remembered (power of two) */

struct ent {
	uint64_t addr, start, id;
	int merged;
	bool open;
};

struct row {
	bool open;
	int32_t row;
	uint64_t start;
	double child_end;
};

struct flow {
	uint64_t key; /* 0 = empty */
	double ts;    /* the request's slice */
	int pid;
};

struct trace_exp {
	FILE *f;             /* outfile_stream(out) */
	struct outfile *out;
	char *path;
	uint64_t from, to, max_events, nevents, end;
	bool capped, closed_window;
	uint64_t cap_cycle, lost, seen_total, next_id;
	uint64_t saved_mask[EV_MASK_WORDS];
	int nsm, slots, nbank, nch, dbanks, l1n, l2n, frcn;
	uint8_t *wstate;
	uint64_t *wstart;
	struct ent *l1e, *l2e;
	uint8_t *frcs;
	uint64_t *frcstart;
	struct row *rows;
	struct flow flows[FLOW_CAP];
	int *c_l1, *c_l2m, *c_l2q, *c_dq;
	uint64_t ipc_insts, ipc_cycle;
	int ipc_stat;
	uint64_t line_bytes;
};

static const uint64_t needed_kinds[] = {EV_DRAM_ACT, EV_DRAM_RD, EV_DRAM_WR, EV_DRAM_PRE, EV_DRAM_REF, EV_COH_MSG};

/* ---- writing -------------------------------------------------------------- */
static bool room(struct trace_exp *t)
{
	return !t->capped;
}

static void sep(struct trace_exp *t)
{
	fputs(t->nevents++ ? ",\n" : "\n", t->f);
}

static void meta(struct trace_exp *t, const char *what, int pid, int tid, const char *name)
{
	sep(t);
	fprintf(t->f, "{\"ph\":\"M\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}", what, pid, tid,
		name);
}

static void slice(struct trace_exp *t, int pid, int tid, const char *name, double ts, double dur, const char *args)
{
	if (!room(t))
		return;
	sep(t);
	fprintf(t->f, "{\"ph\":\"X\",\"name\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.2f,\"dur\":%.2f%s%s%s}", name, pid,
		tid, ts, dur, args ? ",\"args\":{" : "", args ? args : "", args ? "}" : "");
}

static void counter(struct trace_exp *t, int pid, const char *name, uint64_t ts, double v)
{
	if (!room(t))
		return;
	sep(t);
	fprintf(t->f, "{\"ph\":\"C\",\"name\":\"%s\",\"pid\":%d,\"tid\":0,\"ts\":%" PRIu64 ",\"args\":{\"value\":%.6g}}",
		name, pid, ts, v);
}

/* Async begin (b) / end (e): paired by cat + id. Ends are written even when
 * capped, so every begin in the file has its end. */
static void async(struct trace_exp *t, char ph, const char *cat, int pid, uint64_t id, uint64_t ts, uint64_t addr,
		  int merged)
{
	sep(t);
	fprintf(t->f, "{\"ph\":\"%c\",\"cat\":\"%s\",\"name\":\"%s\",\"id\":\"0x%" PRIx64 "\",\"pid\":%d,\"tid\":0,"
		      "\"ts\":%" PRIu64 ",\"args\":{\"addr\":\"0x%" PRIx64 "\"",
		ph, cat, strcmp(cat, "l1.mshr") ? "L2 MSHR" : "L1 MSHR", id, pid, ts, addr);
	if (ph == 'e')
		fprintf(t->f, ",\"merged\":%d", merged);
	fputs("}}", t->f);
}

static void check_cap(struct trace_exp *t, uint64_t cycle)
{
	if (!t->capped && t->nevents >= t->max_events) {
		t->capped = true;
		t->cap_cycle = cycle;
	}
}

/* ---- warps ------------------------------------------------------------------ */
enum { W_NONE, W_ISSUE, W_READY, W_STALL0 };

static const char *wname(uint8_t s, char *buf, size_t n)
{
	if (s == W_ISSUE)
		return "issue";
	if (s == W_READY)
		return "ready";
	snprintf(buf, n, "stall: %s", stall_reason_name(s - W_STALL0));
	return buf;
}

static void warp_close(struct trace_exp *t, int sm, int w, uint64_t now)
{
	int i = sm * t->slots + w;
	if (t->wstate[i] != W_NONE && now > t->wstart[i]) {
		char b[48];
		slice(t, PID_SM + sm, w, wname(t->wstate[i], b, sizeof b), (double)t->wstart[i],
		      (double)(now - t->wstart[i]), NULL);
	}
	t->wstate[i] = W_NONE;
}

static void observe_warps(struct trace_exp *t, const struct sim *s, uint64_t c)
{
	for (int sm = 0; sm < t->nsm; sm++)
		for (int w = 0; w < t->slots; w++) {
			struct warp_info wi;
			uint8_t st = W_NONE;
			if (inspect_warp(s, sm, w, &wi) && wi.state != WS_EMPTY && wi.state != WS_DONE)
				st = wi.issued_now ? W_ISSUE : wi.state == WS_READY ? W_READY : (uint8_t)(W_STALL0 + wi.stall);
			int i = sm * t->slots + w;
			if (st == t->wstate[i])
				continue;
			warp_close(t, sm, w, c);
			t->wstate[i] = st;
			t->wstart[i] = c;
		}
}

/* ---- MSHR entries (async) and FRC entries -------------------------------------- */
static void observe_mshrs(struct trace_exp *t, const struct sim *s, enum cache_id_kind k, uint64_t c)
{
	int units = k == CACHE_L1 ? t->nsm : t->nbank, n = k == CACHE_L1 ? t->l1n : t->l2n;
	struct ent *e = k == CACHE_L1 ? t->l1e : t->l2e;
	const char *cat = k == CACHE_L1 ? "l1.mshr" : "l2.mshr";
	int pid = k == CACHE_L1 ? PID_SM : PID_L2;
	for (int u = 0; u < units; u++)
		for (int i = 0; i < n; i++) {
			struct mshr_entry_info mi;
			struct ent *x = &e[u * n + i];
			bool valid = inspect_mshr_entry(s, k, u, i, &mi) && mi.valid;
			if (x->open && (!valid || mi.addr != x->addr || mi.age < c - x->start)) {
				async(t, 'e', cat, pid + u, x->id, c, x->addr, x->merged);
				x->open = false;
			}
			if (valid && x->open)
				x->merged = mi.merged;
			if (valid && !x->open && room(t)) {
				*x = (struct ent){mi.addr, c, ++t->next_id, mi.merged, true};
				async(t, 'b', cat, pid + u, x->id, c, x->addr, 0);
			}
		}
}

static void frc_close(struct trace_exp *t, int b, int i, uint64_t now)
{
	int k = b * t->frcn + i;
	if (t->frcs[k] != FRC_FREE && now > t->frcstart[k])
		slice(t, PID_L2 + b, TID_FRC + i, frc_state_name(t->frcs[k]), (double)t->frcstart[k],
		      (double)(now - t->frcstart[k]), NULL);
	t->frcs[k] = FRC_FREE;
}

static void observe_frc(struct trace_exp *t, const struct sim *s, uint64_t c)
{
	for (int b = 0; b < t->nbank; b++)
		for (int i = 0; i < t->frcn; i++) {
			struct frc_entry_info fi;
			uint8_t st = inspect_frc_entry(s, b, i, &fi) ? (uint8_t)fi.state : FRC_FREE;
			int k = b * t->frcn + i;
			if (st == t->frcs[k])
				continue;
			frc_close(t, b, i, c);
			t->frcs[k] = st;
			t->frcstart[k] = c;
		}
}

/* ---- counters --------------------------------------------------------------------- */
static void set_counter(struct trace_exp *t, int *last, int pid, const char *name, uint64_t c, int v)
{
	if (*last == v)
		return;
	*last = v;
	counter(t, pid, name, c, v);
}

static void observe_counters(struct trace_exp *t, const struct sim *s, uint64_t c)
{
	for (int sm = 0; sm < t->nsm; sm++) {
		struct mshr_info mi;
		if (inspect_mshr(s, CACHE_L1, sm, &mi))
			set_counter(t, &t->c_l1[sm], PID_SM + sm, "L1 MSHR used", c, mi.used);
	}
	for (int b = 0; b < t->nbank; b++) {
		struct l2_bank_info bi;
		if (inspect_l2_bank(s, b, &bi)) {
			set_counter(t, &t->c_l2m[b], PID_L2 + b, "L2 MSHR used", c, bi.mshr_used);
			set_counter(t, &t->c_l2q[b], PID_L2 + b, "queue", c, bi.queue);
		}
	}
	for (int ch = 0; ch < t->nch; ch++) {
		struct dram_chan_info di;
		if (inspect_dram_channel(s, ch, &di))
			set_counter(t, &t->c_dq[ch], PID_DRAM + ch, "queue", c, di.read_q + di.write_q);
	}
	if (t->ipc_stat >= 0 && c + 1 - t->ipc_cycle >= TRACE_IPC_PERIOD) {
		uint64_t insts = stats_counter_value(sim_stats_c(s), (uint32_t)t->ipc_stat);
		counter(t, PID_GPU, "IPC", t->ipc_cycle, (double)(insts - t->ipc_insts) / (double)(c + 1 - t->ipc_cycle));
		t->ipc_insts = insts;
		t->ipc_cycle = c + 1;
	}
}

/* ---- events: DRAM commands and coherence messages --------------------------------- */
static struct flow *flow_slot(struct trace_exp *t, uint64_t key)
{
	uint64_t h = mix64(key);
	for (unsigned p = 0; p < FLOW_CAP; p++) {
		struct flow *f = &t->flows[(h + p) & (FLOW_CAP - 1)];
		if (f->key == key || f->key == 0)
			return f;
	}
	return NULL;
}

static void flow_remove(struct trace_exp *t, struct flow *f)
{
	/* backward-shift deletion keeps the probe sequences intact */
	unsigned i = (unsigned)(f - t->flows);
	f->key = 0;
	for (unsigned j = (i + 1) & (FLOW_CAP - 1); t->flows[j].key; j = (j + 1) & (FLOW_CAP - 1)) {
		struct flow moved = t->flows[j];
		t->flows[j].key = 0;
		struct flow *dst = flow_slot(t, moved.key);
		*dst = moved;
	}
}

static bool is_request(unsigned type)
{
	switch (type) {
	case CM_GETS: case CM_GETX: case CM_UPG: case CM_GETN: case CM_UPGN:
	case CM_PUTE: case CM_PUTM: case CM_PUTN: case CM_WT:
		return true;
	}
	return false;
}

static void coh_event(struct trace_exp *t, const struct event *e)
{
	if (!room(t))
		return;
	unsigned type = (unsigned)e->a;
	uint64_t line = e->addr & ~(t->line_bytes - 1);
	uint64_t key = ((uint64_t)(uint16_t)e->sm << 48 | line >> 4) + 1;
	char args[96];
	snprintf(args, sizeof args, "\"addr\":\"0x%" PRIx64 "\",\"sm\":%d,\"bank\":%d", e->addr, e->sm, e->unit);
	bool req = is_request(type), from_l1 = req || type == CM_ACK || type == CM_ACKD || type == CM_UNBLOCK;
	int pid = from_l1 ? PID_SM + e->sm : PID_L2 + e->unit;
	double ts = (double)e->cycle;
	slice(t, pid, TID_COH, coh_msg_name(type), ts, 0.5, args);
	struct flow *f = flow_slot(t, key);
	/* A transaction opens at a request (a second request of the line rides on
	 * the first) and closes at the directory's reply; both ends of the flow
	 * are written then, so a request that gets no reply leaves no half flow. */
	if (req && f && !f->key) {
		*f = (struct flow){key, ts, pid};
	} else if (!from_l1 && f && f->key && type != CM_INV && type != CM_RECALL) {
		uint64_t id = ++t->next_id;
		sep(t);
		fprintf(t->f, "{\"ph\":\"s\",\"cat\":\"coh\",\"name\":\"coherence\",\"id\":%" PRIu64 ",\"pid\":%d,\"tid\":%d,"
			      "\"ts\":%.2f}",
			id, f->pid, TID_COH, f->ts);
		sep(t);
		fprintf(t->f, "{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"coh\",\"name\":\"coherence\",\"id\":%" PRIu64
			      ",\"pid\":%d,\"tid\":%d,\"ts\":%.2f}",
			id, pid, TID_COH, ts);
		flow_remove(t, f);
	}
}

static void row_close(struct trace_exp *t, int ch, int b, double end, bool open_at_end)
{
	struct row *r = &t->rows[ch * t->dbanks + b];
	if (!r->open)
		return;
	if (end < r->child_end)
		end = r->child_end;
	char name[32], args[48];
	snprintf(name, sizeof name, "row %d", r->row);
	snprintf(args, sizeof args, "\"row\":%d%s", r->row, open_at_end ? ",\"open_at_end\":true" : "");
	/* the row slice is written even when capped: its children are in the file */
	bool capped = t->capped;
	t->capped = false;
	slice(t, PID_DRAM + ch, b, name, (double)r->start, end - (double)r->start, args);
	t->capped = capped;
	r->open = false;
}

/* A command inside bank (ch, b)'s row slice: half a cycle, never overlapping the previous one. */
static void row_child(struct trace_exp *t, const struct event *e, const char *name)
{
	struct row *r = &t->rows[e->ch * t->dbanks + e->bank];
	double ts = (double)e->cycle;
	if (!r->open) { /* opened before the window */
		*r = (struct row){true, e->row, t->from, (double)t->from};
	}
	if (ts < r->child_end)
		ts = r->child_end;
	char args[64];
	snprintf(args, sizeof args, "\"row\":%d,\"addr\":\"0x%" PRIx64 "\"", e->row, e->addr);
	slice(t, PID_DRAM + e->ch, e->bank, name, ts, 0.5, args);
	r->child_end = ts + 0.5;
}

static void dram_event(struct trace_exp *t, const struct event *e)
{
	if (e->ch < 0 || e->ch >= t->nch)
		return;
	if (e->kind == EV_DRAM_REF) {
		char args[32];
		snprintf(args, sizeof args, "\"bank\":%d", e->bank);
		slice(t, PID_DRAM + e->ch, TID_REF, "REF", (double)e->cycle, 0.5, args);
		return;
	}
	if (e->bank < 0 || e->bank >= t->dbanks)
		return;
	struct row *r = &t->rows[e->ch * t->dbanks + e->bank];
	switch (e->kind) {
	case EV_DRAM_ACT:
		row_close(t, e->ch, e->bank, (double)e->cycle, false);
		if (!room(t))
			return;
		*r = (struct row){true, e->row, e->cycle, (double)e->cycle};
		row_child(t, e, "ACT");
		break;
	case EV_DRAM_RD:
	case EV_DRAM_WR:
		if (room(t))
			row_child(t, e, e->kind == EV_DRAM_RD ? "RD" : "WR");
		break;
	case EV_DRAM_PRE:
		if (r->open) {
			row_child(t, e, "PRE");
			row_close(t, e->ch, e->bank, r->child_end, false);
		}
		break;
	}
}

static void drain(struct trace_exp *t, const struct sim *s)
{
	const struct events *ev = sim_events_c(s);
	uint64_t total = events_logged(ev), n = total - t->seen_total;
	if (n > ev->cap) {
		t->lost += n - ev->cap;
		n = ev->cap;
	}
	t->seen_total = total;
	for (uint64_t i = n; i-- > 0;) {
		const struct event *e = events_recent(ev, i);
		if (!e || e->cycle < t->from || e->cycle >= t->to)
			continue;
		if (e->kind == EV_COH_MSG)
			coh_event(t, e);
		else if (e->kind >= EV_DRAM_ACT && e->kind <= EV_DRAM_REF)
			dram_event(t, e);
	}
}

/* ---- life cycle ----------------------------------------------------------------------- */
static void names(struct trace_exp *t)
{
	char b[64];
	meta(t, "process_name", PID_GPU, 0, "GPU");
	for (int sm = 0; sm < t->nsm; sm++) {
		snprintf(b, sizeof b, "SM %d", sm);
		meta(t, "process_name", PID_SM + sm, 0, b);
		for (int w = 0; w < t->slots; w++) {
			snprintf(b, sizeof b, "warp %d", w);
			meta(t, "thread_name", PID_SM + sm, w, b);
		}
		meta(t, "thread_name", PID_SM + sm, TID_COH, "coherence");
	}
	for (int bk = 0; bk < t->nbank; bk++) {
		snprintf(b, sizeof b, "L2 bank %d", bk);
		meta(t, "process_name", PID_L2 + bk, 0, b);
		meta(t, "thread_name", PID_L2 + bk, TID_COH, "directory");
		for (int i = 0; i < t->frcn; i++) {
			snprintf(b, sizeof b, "FRC entry %d", i);
			meta(t, "thread_name", PID_L2 + bk, TID_FRC + i, b);
		}
	}
	for (int ch = 0; ch < t->nch; ch++) {
		snprintf(b, sizeof b, "DRAM ch %d", ch);
		meta(t, "process_name", PID_DRAM + ch, 0, b);
		for (int bk = 0; bk < t->dbanks; bk++) {
			snprintf(b, sizeof b, "bank %d", bk);
			meta(t, "thread_name", PID_DRAM + ch, bk, b);
		}
		meta(t, "thread_name", PID_DRAM + ch, TID_REF, "refresh");
	}
}

struct trace_exp *trace_exp_open(struct session *ss, const char *path, const struct trace_opts *o, char **err)
{
	const struct sim *s = ss->sim;
	if (!s || sim_dram_only(s)) {
		set_err(err, "trace export needs a kernel or trace workload (not a DRAM-only trace)");
		return NULL;
	}
	if (o->from >= o->to) {
		set_err(err, "trace window: FROM (%" PRIu64 ") must be before TO (%" PRIu64 ")", o->from, o->to);
		return NULL;
	}
	if (sim_cycle(s) > o->from) {
		set_err(err, "trace window starts at cycle %" PRIu64 ", but the machine is at cycle %" PRIu64, o->from,
			sim_cycle(s));
		return NULL;
	}
	struct trace_exp *t = xcalloc(1, sizeof *t);
	t->path = xstrdup(path);
	t->out = outfile_open(path, err);
	if (!t->out) {
		free(t->path);
		free(t);
		return NULL;
	}
	t->f = outfile_stream(t->out);
	t->from = o->from;
	t->to = o->to;
	t->max_events = o->max_events ? o->max_events : TRACE_MAX_EVENTS_DEFAULT;
	t->nsm = inspect_sms(s);
	t->slots = inspect_warp_slots(s);
	t->nbank = inspect_l2_banks(s);
	t->nch = inspect_dram_channels(s);
	struct dram_chan_info di;
	t->dbanks = t->nch && inspect_dram_channel(s, 0, &di) ? di.banks : 0;
	struct mshr_info mi;
	t->l1n = t->nsm && inspect_mshr(s, CACHE_L1, 0, &mi) ? mi.entries : 0;
	t->l2n = t->nbank && inspect_mshr(s, CACHE_L2, 0, &mi) ? mi.entries : 0;
	struct frc_info fi;
	t->frcn = t->nbank && inspect_frc(s, 0, &fi) ? fi.entries : 0;
	t->wstate = xcalloc((size_t)(t->nsm * t->slots) + 1, 1);
	t->wstart = xcalloc((size_t)(t->nsm * t->slots) + 1, sizeof(uint64_t));
	t->l1e = xcalloc((size_t)(t->nsm * t->l1n) + 1, sizeof(struct ent));
	t->l2e = xcalloc((size_t)(t->nbank * t->l2n) + 1, sizeof(struct ent));
	t->frcs = xcalloc((size_t)(t->nbank * t->frcn) + 1, 1);
	t->frcstart = xcalloc((size_t)(t->nbank * t->frcn) + 1, sizeof(uint64_t));
	t->rows = xcalloc((size_t)(t->nch * t->dbanks) + 1, sizeof(struct row));
	t->c_l1 = xmalloc(sizeof(int) * ((size_t)t->nsm + 1));
	t->c_l2m = xmalloc(sizeof(int) * ((size_t)t->nbank + 1));
	t->c_l2q = xmalloc(sizeof(int) * ((size_t)t->nbank + 1));
	t->c_dq = xmalloc(sizeof(int) * ((size_t)t->nch + 1));
	memset(t->c_l1, 0xff, sizeof(int) * ((size_t)t->nsm + 1));
	memset(t->c_l2m, 0xff, sizeof(int) * ((size_t)t->nbank + 1));
	memset(t->c_l2q, 0xff, sizeof(int) * ((size_t)t->nbank + 1));
	memset(t->c_dq, 0xff, sizeof(int) * ((size_t)t->nch + 1));
	t->line_bytes = session_line_bytes(ss) ? session_line_bytes(ss) : 128;
	t->ipc_stat = stats_find(sim_stats_c(s), "sim.warp_insts");
	t->ipc_cycle = t->from;
	struct events *ev = sim_events(ss->sim);
	memcpy(t->saved_mask, ev->log_mask, sizeof t->saved_mask);
	for (size_t i = 0; i < ARRAY_LEN(needed_kinds); i++)
		ev->log_mask[needed_kinds[i] >> 6] |= 1ull << (needed_kinds[i] & 63);
	events_update_watch(ev);
	t->seen_total = events_logged(ev);
	fprintf(t->f, "{\"traceEvents\":[");
	names(t);
	return t;
}

uint64_t trace_exp_budget(const struct trace_exp *t, uint64_t now)
{
	if (t->closed_window)
		return UINT64_MAX;
	return now < t->from ? t->from - now : 1;
}

static void close_window(struct trace_exp *t, uint64_t end)
{
	if (t->closed_window)
		return;
	t->closed_window = true;
	if (t->capped && end > t->cap_cycle + 1)
		end = t->cap_cycle + 1;
	t->end = end;
	bool capped = t->capped;
	t->capped = false; /* closing what is open is part of what was recorded */
	for (int sm = 0; sm < t->nsm; sm++)
		for (int w = 0; w < t->slots; w++)
			warp_close(t, sm, w, end);
	for (int b = 0; b < t->nbank; b++)
		for (int i = 0; i < t->frcn; i++)
			frc_close(t, b, i, end);
	for (int k = 0; k < 2; k++) {
		struct ent *e = k ? t->l2e : t->l1e;
		int n = k ? t->nbank * t->l2n : t->nsm * t->l1n, per = k ? t->l2n : t->l1n;
		for (int i = 0; i < n; i++)
			if (e[i].open) {
				async(t, 'e', k ? "l2.mshr" : "l1.mshr", (k ? PID_L2 : PID_SM) + i / per, e[i].id, end,
				      e[i].addr, e[i].merged);
				e[i].open = false;
			}
	}
	for (int ch = 0; ch < t->nch; ch++)
		for (int b = 0; b < t->dbanks; b++)
			row_close(t, ch, b, (double)end, true);
	t->capped = capped;
}

void trace_exp_observe(struct trace_exp *t, struct session *ss)
{
	const struct sim *s = ss->sim;
	uint64_t now = sim_cycle(s);
	if (t->closed_window || now <= t->from) {
		t->seen_total = events_logged(sim_events_c(s));
		return;
	}
	uint64_t c = now - 1; /* the cycle just simulated */
	if (c >= t->to) {
		close_window(t, t->to);
		return;
	}
	if (t->capped) { /* nothing more is recorded; what is open closes at the cap */
		t->seen_total = events_logged(sim_events_c(s));
		return;
	}
	drain(t, s);
	{
		observe_warps(t, s, c);
		observe_mshrs(t, s, CACHE_L1, c);
		observe_mshrs(t, s, CACHE_L2, c);
		observe_frc(t, s, c);
		observe_counters(t, s, c);
	}
	check_cap(t, c);
	if (c + 1 >= t->to)
		close_window(t, t->to);
}

static void trace_exp_free(struct trace_exp *t)
{
	free(t->wstate);
	free(t->wstart);
	free(t->l1e);
	free(t->l2e);
	free(t->frcs);
	free(t->frcstart);
	free(t->rows);
	free(t->c_l1);
	free(t->c_l2m);
	free(t->c_l2q);
	free(t->c_dq);
	free(t->path);
	free(t);
}

int trace_exp_close(struct trace_exp *t, struct session *ss, struct strbuf *msg, char **err)
{
	uint64_t now = ss->sim ? sim_cycle(ss->sim) : 0;
	close_window(t, now < t->to ? now : t->to);
	if (ss->sim) {
		struct events *ev = sim_events(ss->sim);
		memcpy(ev->log_mask, t->saved_mask, sizeof t->saved_mask);
		events_update_watch(ev);
	}
	fprintf(t->f, "\n],\"otherData\":{\"gpustep\":\"%s\",\"time_unit\":\"1 us = 1 core cycle\",\"from\":%" PRIu64
		      ",\"to\":%" PRIu64 ",\"capped\":%s,\"cap_cycle\":%" PRIu64 ",\"events_lost\":%" PRIu64 "}}\n",
		GPUSTEP_VERSION, t->from, t->end, t->capped ? "true" : "false", t->capped ? t->cap_cycle : 0, t->lost);
	int rc = outfile_close(t->out, err);
	if (!rc && msg) {
		sb_printf(msg, "trace: %s, cycles %" PRIu64 " to %" PRIu64 ", %" PRIu64 " events", t->path, t->from, t->end,
			  t->nevents);
		if (t->capped)
			sb_printf(msg, "\ntrace: stopped recording at cycle %" PRIu64 ": the file reached its cap of %" PRIu64
				       " events (raise --trace-max-events or narrow --trace-from/--trace-to)",
				  t->cap_cycle, t->max_events);
		if (t->lost)
			sb_printf(msg, "\ntrace: %" PRIu64 " DRAM/coherence events were lost (more in one cycle than the "
				       "event log holds)",
				  t->lost);
	}
	trace_exp_free(t);
	return rc;
}

void trace_exp_discard(struct trace_exp *t, struct session *ss)
{
	if (ss->sim) {
		struct events *ev = sim_events(ss->sim);
		memcpy(ev->log_mask, t->saved_mask, sizeof t->saved_mask);
		events_update_watch(ev);
	}
	outfile_discard(t->out);
	trace_exp_free(t);
}
