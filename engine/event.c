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

#include "coh.h"
#include "inspect.h"

#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bp.h"

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

const char *event_field_name(unsigned bit)
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
			int w = snprintf(buf + len, n - len, "%s%s", len ? " " : "", field_names[i].name);
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

/* A name for a kind-specific code (shown after the number, which filters use). */
static const char *code_name(const struct event *e, unsigned bit)
{
	static const char *const nack[] = {"mshr_full", "transient", "set_all_transient", "queue_full", "dir_locked",
					   "merge_full"};
	static const char *const full[] = {"no entry", "no merge slot", "per-warp limit"};
	int64_t v = event_field_value(e, bit);
	if (v < 0)
		return NULL;
	switch (e->kind) {
	case EV_WARP_STALL:
		return bit == EVF_A ? stall_reason_name((unsigned)v) : NULL;
	case EV_L2_NACK:
		return bit == EVF_A && (size_t)v < ARRAY_LEN(nack) ? nack[v] : NULL;
	case EV_L1_MSHR_FULL:
		return bit == EVF_A && (size_t)v < ARRAY_LEN(full) ? full[v] : NULL;
	case EV_COH_TRANSITION:
		return bit == EVF_A || bit == EVF_B ? coh_state_name((unsigned)v) : NULL;
	case EV_COH_MSG:
	case EV_COH_NACK:
		return bit == EVF_A ? coh_msg_name((unsigned)v) : NULL;
	case EV_COH_KFLUSH: {
		static const char *const phase[] = {"release", "acquire", "done"};
		return bit == EVF_A && (size_t)v < ARRAY_LEN(phase) ? phase[v] : NULL;
	}
	default:
		return NULL;
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
		if (bit == EVF_ADDR)
			w = snprintf(buf + len, n - len, " addr=0x%" PRIx64, e->addr);
		else if (code_name(e, bit))
			w = snprintf(buf + len, n - len, " %s=%" PRId64 "(%s)", field_names[i].name,
				     event_field_value(e, bit), code_name(e, bit));
		else
			w = snprintf(buf + len, n - len, " %s=%" PRId64, field_names[i].name,
				     event_field_value(e, bit));
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
	ev->ring = ARENA_NEW(a, struct event, c);
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
	else
		for (unsigned i = 0; i < EV__COUNT; i++)
			if ((ev->log_mask[i >> 6] >> (i & 63)) & 1u)
				sb_printf(&sb, "%s%s", sb.len ? " " : "", event_defs[i].name);
	return sb.s;
}

void ev_emit(struct events *ev, struct event *e)
{
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
