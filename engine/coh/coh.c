/*
 * coh.c: protocol lookup, names and table queries shared by the controllers
 * (coh_stress.c), the panels and `help protocol`. The tables themselves are
 * in coh_si.c, coh_nmoesi.c and coh_moesi.c (see coh.h).
 */
#include <stdio.h>
#include <string.h>

#include "coh.h"

static const char *const state_names[CS__COUNT] = {
	"I", "S", "E", "O", "M", "N", "V", "IS_D", "IM_D", "SM_D", "OM_D", "IN_D", "SN_D", "MI_A", "II_A",
};
static const char *const event_names[CE__COUNT] = {
	"Load", "Store", "Replace", "DataS", "DataE", "DataX", "DataN", "Inv", "Recall", "WBAck", "Nack",
};
static const char *const msg_names[CM__COUNT] = {
	"GetS",  "GetX",  "Upg",   "GetN",  "UpgN", "PutE",  "PutM",   "PutN",  "WT",    "Ack",  "AckD",
	"Unblock", "DataS", "DataE", "DataX", "DataN", "Inv", "Recall", "WBAck", "WTAck", "Nack", "L2Repl",
};
static const char *const dstate_names[DS__COUNT] = {"I", "S", "X", "O", "N"};

const char *coh_state_name(unsigned st) { return st < CS__COUNT ? state_names[st] : "?"; }
const char *coh_event_name(unsigned ev) { return ev < CE__COUNT ? event_names[ev] : "?"; }
const char *coh_msg_name(unsigned m) { return m < CM__COUNT ? msg_names[m] : "?"; }
const char *coh_dstate_name(unsigned d) { return d < DS__COUNT ? dstate_names[d] : "?"; }

char coh_state_letter(unsigned st) { return st <= CS_V ? state_names[st][0] : '~'; }
bool coh_state_stable(unsigned st) { return st <= CS_V; }

bool coh_msg_has_data(unsigned m, bool dirty_payload)
{
	switch (m) {
	case CM_PUTM: case CM_PUTN: case CM_WT: case CM_ACKD: case CM_DATA_S: case CM_DATA_E: case CM_DATA_N:
		return true;
	case CM_DATA_X:
		return dirty_payload; /* an upgrade grant carries no data */
	default:
		return false;
	}
}

const struct coh_proto *coh_proto_get(unsigned id)
{
	switch (id) {
	case COH_SI: return &coh_si_proto;
	case COH_NMOESI: return &coh_nmoesi_proto;
	case COH_MOESI: return &coh_moesi_proto;
	default: return NULL;
	}
}

const struct coh_proto *coh_proto_find(const char *name)
{
	for (unsigned i = COH_SI; i < COH__COUNT; i++)
		if (strcmp(coh_proto_get(i)->name, name) == 0)
			return coh_proto_get(i);
	return NULL;
}

int coh_l1_lookup(const struct coh_proto *p, unsigned st, unsigned ev)
{
	for (unsigned i = 0; i < p->nl1; i++)
		if (p->l1[i].state == st && p->l1[i].ev == ev)
			return (int)i;
	return -1;
}

int coh_dir_lookup(const struct coh_proto *p, unsigned ds, unsigned msg)
{
	for (unsigned i = 0; i < p->ndir; i++)
		if (p->dir[i].dstate == ds && p->dir[i].msg == msg)
			return (int)i;
	return -1;
}

static void act_text(uint32_t act, const char *const *names, unsigned nnames, char *buf, unsigned n)
{
	unsigned len = 0;
	buf[0] = 0;
	for (unsigned b = 0; b < nnames; b++) {
		if (!(act & (1u << b)))
			continue;
		int k = snprintf(buf + len, n - len, "%s%s", len ? "|" : "", names[b]);
		if (k < 0 || (unsigned)k >= n - len)
			break;
		len += (unsigned)k;
	}
	if (!len)
		snprintf(buf, n, "-");
}

/* Actions as text ("GetS|fill") into buf. */
static void coh_l1_act_text(uint32_t act, char *buf, unsigned n)
{
	static const char *const names[] = {"hit",  "GetS", "GetX",   "Upg",     "GetN",  "UpgN", "PutE", "PutM",
					    "PutN", "WT",   "ack",    "fill",    "Unblock", "retry", "drop", "free",
					    "dirty"};
	act_text(act, names, sizeof names / sizeof names[0], buf, n);
}

static void coh_dir_act_text(uint32_t act, char *buf, unsigned n)
{
	static const char *const names[] = {"DataS", "DataE",   "DataX", "DataN",      "inv",   "recall", "wb",
					    "merge", "WBAck",   "WTAck", "clear-sender", "no-dir-update", "stale"};
	act_text(act, names, sizeof names / sizeof names[0], buf, n);
}

/* One table row as the `protocol` command and panel print it. */
void coh_l1_row_text(const struct coh_l1_row *r, char *buf, unsigned n)
{
	char act[128];
	coh_l1_act_text(r->act, act, sizeof act);
	snprintf(buf, n, "%-5s %-8s -> %-5s %-28s %s", coh_state_name(r->state), coh_event_name(r->ev),
		 coh_state_name(r->next), act, r->note ? r->note : "");
}

void coh_dir_row_text(const struct coh_dir_row *r, char *buf, unsigned n)
{
	char act[128];
	coh_dir_act_text(r->act, act, sizeof act);
	snprintf(buf, n, "%-2s %-8s -> %-2s %-28s %s", coh_dstate_name(r->dstate), coh_msg_name(r->msg),
		 coh_dstate_name(r->next), act, r->note ? r->note : "");
}
