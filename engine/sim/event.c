/*
 * event.c: the event table (generated from EVENT_LIST), record formatting and
 * the bounded event log.
 *
 * The log is a power-of-two ring in the simulator arena:
 *
 *   ring[0 .. cap)    slot of event number k is k & (cap - 1)
 *   total             events logged so far; the newest is total - 1
 *
 * ev_emit() is reached only for watched kinds (EV_EMIT tests the bit first);
 * it stamps the cycle, counts, logs if the log filter wants the kind, and
 * hands the record to the breakpoint matcher.
 */
#include "event.h"
#include "par.h"

#include "coh/coh.h"
#include "reuse/reuse.h"

#include <ctype.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "debug/bp.h"

#define EV_DEF(e, n, f, d) [EV_##e] = {n, f, d},
const struct event_def event_defs[EV__COUNT] = {EVENT_LIST(EV_DEF)};
#undef EV_DEF

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{"sm", EVF_SM},     {"warp", EVF_WARP}, {"unit", EVF_UNIT}, {"ch", EVF_CH}, {"bank", EVF_BANK},
	{"row", EVF_ROW},   {"addr", EVF_ADDR}, {"set", EVF_SET},   {"a", EVF_A},   {"b", EVF_B},
};

int event_find(const char *name)
{
	for (int i = 0; i < EV__COUNT; i++)
		if (strcmp(event_defs[i].name, name) == 0)
			return i;
	return -1;
}

unsigned event_field_bit(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(field_names); i++)
		if (strcmp(field_names[i].name, name) == 0)
			return field_names[i].bit;
	return 0;
}

/* Name of a single EVF_ bit ("sm", "addr", ...), "" for anything else. */
static const char *event_field_name(unsigned bit)
{
	for (size_t i = 0; i < ARRAY_LEN(field_names); i++)
		if (field_names[i].bit == bit)
			return field_names[i].name;
	return "";
}

void event_field_list(unsigned kind, char *buf, size_t n)
{
	size_t len = 0;
	if (n)
		buf[0] = 0;
	if (kind >= EV__COUNT)
		return;
	for (size_t i = 0; i < ARRAY_LEN(field_names) && len < n; i++)
		if (event_defs[kind].fields & field_names[i].bit) {
			int w = snprintf(buf + len, n - len, "%s%s", len ? " " : "",
					 event_field_name_of(kind, field_names[i].bit));
			if (w < 0)
				break;
			len += (size_t)w;
		}
}

int64_t event_field_value(const struct event *e, unsigned bit)
{
	switch (bit) {
	case EVF_SM:
		return e->sm;
	case EVF_WARP:
		return e->warp;
	case EVF_UNIT:
		return e->unit;
	case EVF_CH:
		return e->ch;
	case EVF_BANK:
		return e->bank;
	case EVF_ROW:
		return e->row;
	case EVF_ADDR:
		return (int64_t)e->addr;
	case EVF_SET:
		return e->set;
	case EVF_A:
		return e->a;
	case EVF_B:
		return e->b;
	}
	return 0;
}

/* ---- named kind-specific fields --------------------------------------------
 * The generic record has two kind-specific slots, a and b. Each kind names
 * them here (`break coh.transition to=M`, `break reuse.access dist>=64`), and
 * a slot holding a code has a table of value names that filters accept and the
 * log prints. `a`/`b` keep working everywhere as the raw numbers. */
/* Indexed by evcode.h's enums. A table longer or shorter than its enum fails
 * the build; a code left out in the middle is a NULL that test_event's
 * round-trip test reports. */
static const char *const nack_names[] = {
	[NACK_MSHR_FULL] = "mshr_full",   [NACK_TRANSIENT] = "transient",   [NACK_SET_ALL_TRANSIENT] = "set_all_transient",
	[NACK_QUEUE_FULL] = "queue_full", [NACK_DIR_LOCKED] = "dir_locked", [NACK_MERGE_FULL] = "merge_full",
	[NACK_POOL_FULL] = "pool_full",
};
static const char *const mshr_full_names[] = {
	[EVM_ENTRIES] = "entries", [EVM_MERGES] = "merges", [EVM_PER_WARP] = "per_warp", [EVM_ISSUE] = "issue",
};
static const char *const inst_op_names[] = {
	[EVO_LD] = "ld",     [EVO_ST] = "st",   [EVO_ATOM] = "atom", [EVO_LDSH] = "ldsh",
	[EVO_STSH] = "stsh", [EVO_ALU] = "alu", [EVO_BAR] = "bar",   [EVO_EXIT] = "exit",
};
static const char *const access_names[] = {[EVA_READ] = "read", [EVA_WRITE] = "write", [EVA_ATOMIC] = "atomic"};
static const char *const frc_fallback_names[] = {
	[FRCFB_SET_FULL] = "set_full",   [FRCFB_MSHR_FULL] = "mshr_full", [FRCFB_QUEUE_FULL] = "queue_full",
	[FRCFB_NO_VICTIM] = "no_victim", [FRCFB_POOL_FULL] = "pool_full",
};
static const char *const bypass_names[] = {
	[BYPEV_TAG_MISS] = "tag_miss", [BYPEV_LOW_RC] = "low_rc", [BYPEV_ALL] = "all", [BYPEV_MRPB] = "mrpb",
};
static const char *const drain_names[] = {[EVD_DIRECT] = "direct", [EVD_PIGGYBACK] = "piggyback", [EVD_FORCED] = "forced"};
static const char *const kflush_names[] = {[EVK_RELEASE] = "release", [EVK_ACQUIRE] = "acquire", [EVK_DONE] = "done"};
static const char *const dir_names[] = {[EVI_REQUEST] = "request", [EVI_REPLY] = "reply", [EVI_ACK] = "ack"};

#define CODES_MATCH(t, n) _Static_assert(ARRAY_LEN(t) == (n), #t " must name every code of its enum")
CODES_MATCH(nack_names, NACK__COUNT);
CODES_MATCH(mshr_full_names, EVM__COUNT);
CODES_MATCH(access_names, EVA__COUNT);
CODES_MATCH(inst_op_names, EVO__COUNT);
CODES_MATCH(frc_fallback_names, FRCFB__COUNT);
CODES_MATCH(bypass_names, BYPEV__COUNT);
CODES_MATCH(drain_names, EVD__COUNT);
CODES_MATCH(kflush_names, EVK__COUNT);
CODES_MATCH(dir_names, EVI__COUNT);
#undef CODES_MATCH

static const char *const stall_names[STALL__COUNT] = {
	[STALL_NONE] = "none",       [STALL_MEM] = "mem",         [STALL_SCOREBOARD] = "scoreboard",
	[STALL_BARRIER] = "barrier", [STALL_MSHR_FULL] = "mshr_full", [STALL_ALU] = "alu",
	[STALL_SHMEM] = "shmem",     [STALL_INACTIVE] = "inactive", [STALL_DONE] = "done", [STALL_RF] = "rf",
	[STALL_FETCH] = "fetch",
};

const char *stall_reason_name(unsigned r) { return r < STALL__COUNT ? stall_names[r] : "?"; }

static const char *stall_code(unsigned v) { return v < STALL__COUNT ? stall_reason_name(v) : NULL; }
static const char *coh_state_code(unsigned v) { return v < CS__COUNT ? coh_state_name(v) : NULL; }
static const char *coh_msg_code(unsigned v) { return v < CM__COUNT ? coh_msg_name(v) : NULL; }
static const char *reuse_class_code(unsigned v) { return v < RC__COUNT ? reuse_class_name(v) : NULL; }

struct ev_named {
	unsigned kind, bit;
	const char *name;
	const char *const *codes; /* value names by number, or NULL */
	unsigned ncodes;                  /* codes 0 .. ncodes-1 (either form) */
	const char *(*code_fn)(unsigned); /* or a lookup function */
};

#define CODES(t) t, ARRAY_LEN(t), NULL
#define CODEFN(f, n) NULL, n, f
#define PLAIN NULL, 0, NULL
static const struct ev_named named[] = {
	{EV_WARP_ISSUE, EVF_A, "stmt", PLAIN},
	{EV_WARP_ISSUE, EVF_B, "op", CODES(inst_op_names)},
	{EV_WARP_STALL, EVF_A, "reason", CODEFN(stall_code, STALL__COUNT)},
	{EV_CTA_LAUNCH, EVF_A, "cta", PLAIN},
	{EV_CTA_DONE, EVF_A, "cta", PLAIN},
	{EV_BARRIER, EVF_A, "cta", PLAIN},
	{EV_COALESCE, EVF_A, "reqs", PLAIN},
	{EV_COALESCE, EVF_B, "lanes", PLAIN},
	{EV_SHMEM_CONFLICT, EVF_A, "passes", PLAIN},
	{EV_L1_ACCESS, EVF_A, "op", CODES(access_names)},
	{EV_L1_MSHR_MERGE, EVF_A, "merged", PLAIN},
	{EV_L1_MSHR_FULL, EVF_A, "reason", CODES(mshr_full_names)},
	{EV_L1_FILL, EVF_A, "woken", PLAIN},
	{EV_ICNT_STALL, EVF_A, "dir", CODES(dir_names)},
	{EV_L2_ACCESS, EVF_A, "op", CODES(access_names)},
	{EV_L2_NACK, EVF_A, "reason", CODES(nack_names)},
	{EV_L2_TRANSIENT, EVF_A, "way", PLAIN},
	{EV_FRC_ALLOC, EVF_A, "entry", PLAIN},
	{EV_FRC_FALLBACK, EVF_A, "reason", CODES(frc_fallback_names)},
	{EV_FRC_FILL, EVF_A, "entry", PLAIN},
	{EV_FRC_SWAP_START, EVF_A, "entry", PLAIN},
	{EV_FRC_SWAP_START, EVF_B, "way", PLAIN},
	{EV_FRC_SWAP_DONE, EVF_A, "entry", PLAIN},
	{EV_FRC_SWAP_DONE, EVF_B, "way", PLAIN},
	{EV_FRC_EVICT_DONE, EVF_A, "entry", PLAIN},
	{EV_FRC_FREE, EVF_A, "entry", PLAIN},
	{EV_DRAM_ENQUEUE, EVF_A, "write", PLAIN},
	{EV_DRAM_QUEUE_FULL, EVF_A, "write", PLAIN},
	{EV_DRAM_ROW_CONFLICT, EVF_A, "open_row", PLAIN},
	{EV_DRAM_DONE, EVF_A, "latency", PLAIN},
	{EV_MEM_REPLY, EVF_A, "latency", PLAIN},
	{EV_RF_SHIFT_START, EVF_A, "from", PLAIN},
	{EV_RF_SHIFT_START, EVF_B, "to", PLAIN},
	{EV_RF_SHIFT_DONE, EVF_A, "bml", PLAIN},
	{EV_RF_SHIFT_DONE, EVF_B, "dist", PLAIN},
	{EV_RF_SHIFT_STALL, EVF_A, "wait", PLAIN},
	{EV_RF_SHIFT_STALL, EVF_B, "reg", PLAIN},
	{EV_RF_BANK_CONFLICT, EVF_A, "ahead", PLAIN},
	{EV_RF_BANK_CONFLICT, EVF_B, "reg", PLAIN},
	{EV_RF_RMWS_PICK, EVF_A, "score", PLAIN},
	{EV_RF_RMWS_PICK, EVF_B, "runner_up", PLAIN},
	{EV_RF_WB_ALLOC, EVF_A, "reg", PLAIN},
	{EV_RF_WB_ALLOC, EVF_B, "way", PLAIN},
	{EV_RF_WB_RAW, EVF_A, "reg", PLAIN},
	{EV_RF_WB_VOID, EVF_A, "reg", PLAIN},
	{EV_RF_WB_DRAIN, EVF_A, "reg", PLAIN},
	{EV_RF_WB_DRAIN, EVF_B, "how", CODES(drain_names)},
	{EV_RF_SCHED_HAZARD, EVF_A, "scored_bml", PLAIN},
	{EV_RF_SCHED_HAZARD, EVF_B, "target_bml", PLAIN},
	{EV_REUSE_ACCESS, EVF_A, "dist", PLAIN},
	{EV_REUSE_ACCESS, EVF_B, "class", CODEFN(reuse_class_code, RC__COUNT)},
	{EV_REUSE_INF, EVF_A, "dist", PLAIN},
	{EV_REUSE_INF, EVF_B, "class", CODEFN(reuse_class_code, RC__COUNT)},
	{EV_REUSE_CLASS, EVF_A, "dist", PLAIN},
	{EV_REUSE_CLASS, EVF_B, "class", CODEFN(reuse_class_code, RC__COUNT)},
	{EV_L1_BYPASS, EVF_A, "reason", CODES(bypass_names)},
	{EV_L1_BYPASS, EVF_B, "rc", PLAIN},
	{EV_L1_TAG_PROMOTE, EVF_A, "rc", PLAIN},
	{EV_L1_TAG_PROMOTE, EVF_B, "way", PLAIN},
	{EV_L1_TAG_EVICT, EVF_A, "rc", PLAIN},
	{EV_L1_TAG_EVICT, EVF_B, "way", PLAIN},
	{EV_L1_DUEL_SWITCH, EVF_A, "decoupled", PLAIN},
	{EV_L1_DUEL_SWITCH, EVF_B, "diff_permille", PLAIN},
	{EV_DRAM_PAGE_ALLOC, EVF_A, "frame", PLAIN},
	{EV_DRAM_REMOTE, EVF_A, "owner", PLAIN},
	{EV_TBAS_SWAP, EVF_A, "demoted", PLAIN},
	{EV_TBAS_SWAP, EVF_B, "promoted", PLAIN},
	{EV_CCWS_THROTTLE, EVF_A, "held", PLAIN},
	{EV_CCWS_THROTTLE, EVF_B, "mask", PLAIN},
	{EV_COH_TRANSITION, EVF_A, "from", CODEFN(coh_state_code, CS__COUNT)},
	{EV_COH_TRANSITION, EVF_B, "to", CODEFN(coh_state_code, CS__COUNT)},
	{EV_COH_MSG, EVF_A, "type", CODEFN(coh_msg_code, CM__COUNT)},
	{EV_COH_NACK, EVF_A, "type", CODEFN(coh_msg_code, CM__COUNT)},
	{EV_KERNEL_START, EVF_A, "kernel", PLAIN},
	{EV_TRACE_MEMCPY, EVF_A, "bytes", PLAIN},
	{EV_TRACE_MEMCPY, EVF_B, "lines", PLAIN},
	{EV_COH_KFLUSH, EVF_A, "phase", CODES(kflush_names)},
	{EV_COH_KFLUSH, EVF_B, "lines", PLAIN},
	{EV_COH_VALUE_VIOLATION, EVF_A, "word", PLAIN},
	{EV_COH_VALUE_VIOLATION, EVF_B, "value", PLAIN},
};
#undef CODES
#undef CODEFN
#undef PLAIN

static const struct ev_named *named_of(unsigned kind, unsigned bit)
{
	for (size_t i = 0; i < ARRAY_LEN(named); i++)
		if (named[i].kind == kind && named[i].bit == bit)
			return &named[i];
	return NULL;
}

static const char *named_code(const struct ev_named *nm, int64_t v)
{
	if (!nm || v < 0 || (uint64_t)v >= nm->ncodes)
		return NULL;
	return nm->codes ? nm->codes[v] : nm->code_fn((unsigned)v);
}

const char *event_field_code_name(unsigned kind, unsigned bit, int64_t v)
{
	return kind < EV__COUNT ? named_code(named_of(kind, bit), v) : NULL;
}

const char *event_field_name_of(unsigned kind, unsigned bit)
{
	const struct ev_named *nm = kind < EV__COUNT ? named_of(kind, bit) : NULL;
	return nm ? nm->name : event_field_name(bit);
}

unsigned event_field_resolve(unsigned kind, const char *name)
{
	if (kind >= EV__COUNT)
		return 0;
	for (size_t i = 0; i < ARRAY_LEN(named); i++)
		if (named[i].kind == kind && strcmp(named[i].name, name) == 0)
			return named[i].bit;
	unsigned bit = event_field_bit(name);
	return bit & event_defs[kind].fields;
}

/* Case-insensitive, '_' also matching ' ' and '-'. */
static bool code_eq(const char *typed, const char *name)
{
	for (; *typed && *name; typed++, name++) {
		char a = (char)tolower((unsigned char)*typed), b = (char)tolower((unsigned char)*name);
		if (a == b || (a == '_' && (b == ' ' || b == '-')))
			continue;
		return false;
	}
	return !*typed && !*name;
}

int event_field_code(unsigned kind, unsigned bit, const char *text, int64_t *out)
{
	const struct ev_named *nm = kind < EV__COUNT ? named_of(kind, bit) : NULL;
	if (!nm)
		return -1;
	for (unsigned v = 0; v < nm->ncodes; v++) {
		const char *c = named_code(nm, v);
		if (c && code_eq(text, c)) {
			*out = v;
			return 0;
		}
	}
	return -1;
}

void event_field_codes(unsigned kind, unsigned bit, char *buf, size_t n)
{
	const struct ev_named *nm = kind < EV__COUNT ? named_of(kind, bit) : NULL;
	size_t len = 0;
	if (n)
		buf[0] = 0;
	for (unsigned v = 0; nm && v < nm->ncodes && len < n; v++) {
		const char *c = named_code(nm, v);
		if (!c)
			continue;
		int w = snprintf(buf + len, n - len, "%s%s", len ? " " : "", c);
		if (w < 0)
			break;
		len += (size_t)w;
	}
}

void event_format_fields(const struct event *e, char *buf, size_t n)
{
	if (!n)
		return;
	if (e->kind >= EV__COUNT) {
		snprintf(buf, n, "?");
		return;
	}
	const struct event_def *d = &event_defs[e->kind];
	size_t len = 0;
	int w = snprintf(buf, n, "%s", d->name);
	for (size_t i = 0; w >= 0 && i < ARRAY_LEN(field_names); i++) {
		len += (size_t)w;
		if (len >= n)
			return;
		unsigned bit = field_names[i].bit;
		w = 0;
		if (!(d->fields & bit))
			continue;
		const struct ev_named *nm = named_of(e->kind, bit);
		const char *fname = nm ? nm->name : field_names[i].name;
		const char *code = named_code(nm, event_field_value(e, bit));
		if (bit == EVF_ADDR)
			w = snprintf(buf + len, n - len, " addr=0x%" PRIx64, e->addr);
		else if (code)
			w = snprintf(buf + len, n - len, " %s=%s", fname, code);
		else
			w = snprintf(buf + len, n - len, " %s=%" PRId64, fname, event_field_value(e, bit));
	}
}

void event_format(const struct event *e, char *buf, size_t n)
{
	if (!n)
		return;
	int w = snprintf(buf, n, "cycle %" PRIu64 " ", e->cycle);
	if (w < 0 || (size_t)w >= n)
		return;
	event_format_fields(e, buf + w, n - (size_t)w);
}

int event_match(const char *glob, uint64_t *mask)
{
	int count = 0;
	for (unsigned i = 0; i < EV__COUNT; i++)
		if (fnmatch(glob, event_defs[i].name, 0) == 0) {
			mask[i >> 6] |= 1ull << (i & 63);
			count++;
		}
	return count;
}

/* ---- log ---------------------------------------------------------------- */
void events_init(struct events *ev, struct arena *a, uint32_t cap, const uint64_t *now)
{
	memset(ev, 0, sizeof(*ev));
	uint32_t c = 16;
	while (c < cap && c < (1u << 30))
		c <<= 1;
	ev->cap = c;
	ARENA_SET(a, ev->ring, struct event, c);
	ev->now = now;
}

void events_update_watch(struct events *ev)
{
	for (int i = 0; i < EV_MASK_WORDS; i++)
		ev->watch[i] = ev->log_mask[i];
	if (ev->bps)
		bp_watch_mask(ev->bps, ev->watch);
}

void events_log_all(struct events *ev, bool on)
{
	memset(ev->log_mask, 0, sizeof(ev->log_mask));
	if (on)
		for (unsigned i = 0; i < EV__COUNT; i++)
			ev->log_mask[i >> 6] |= 1ull << (i & 63);
	events_update_watch(ev);
}

char *events_log_filter_text(const struct events *ev)
{
	struct strbuf sb;
	sb_init(&sb);
	unsigned n = 0;
	for (unsigned i = 0; i < EV__COUNT; i++)
		if ((ev->log_mask[i >> 6] >> (i & 63)) & 1u)
			n++;
	if (n == EV__COUNT)
		sb_puts(&sb, "all");
	else if (n == 0)
		sb_puts(&sb, "none");
	else if (n > EV__COUNT / 2) { /* most kinds: say which are left out ("all -reuse.access ...") */
		sb_puts(&sb, "all");
		for (unsigned i = 0; i < EV__COUNT; i++)
			if (!((ev->log_mask[i >> 6] >> (i & 63)) & 1u))
				sb_printf(&sb, " -%s", event_defs[i].name);
	} else
		for (unsigned i = 0; i < EV__COUNT; i++)
			if ((ev->log_mask[i >> 6] >> (i & 63)) & 1u)
				sb_printf(&sb, "%s%s", sb.len ? " " : "", event_defs[i].name);
	return sb.s;
}

void ev_emit(struct events *ev, struct event *e)
{
	if (par_cur && par_cur->sm) { /* a threaded SM phase: replayed in SM order (par.h) */
		par_ev_push(e);
		return;
	}
	unsigned k = e->kind;
	e->cycle = ev->now ? *ev->now : 0;
	ev->counts[k]++;
	if ((ev->log_mask[k >> 6] >> (k & 63)) & 1u) {
		ev->ring[ev->total & (ev->cap - 1)] = *e;
		ev->total++;
	}
	if (ev->bps)
		bp_on_event(ev->bps, e);
}

const struct event *events_recent(const struct events *ev, uint64_t i)
{
	if (i >= ev->total || i >= ev->cap)
		return NULL;
	return &ev->ring[(ev->total - 1 - i) & (ev->cap - 1)];
}

uint64_t events_logged(const struct events *ev) { return ev->total; }
