/*
 * dram_numa.c: a NUMA fabric between the SMs and the DRAM banks
 * (dram.numa_nodes, issue 37; the CC-NUMA system of TEMP's evaluation,
 * notes 002 §4.1).
 *
 *   node 0: SMs 0, N, 2N, ...  + the banks bound to them ─┐
 *   node 1: SMs 1, N+1, ...    + the banks bound to them ─┼─ fabric
 *   ...                                                    ┘
 *
 * The nodes follow TEMP's binding (dram_temp.c): SM s is in node s mod N
 * and a bank in the node of the SM it is bound to (global bank g belongs
 * to SM g mod N_SM, or with fewer banks than SMs to the SMs s = g mod
 * banks), so under dram.page_alloc = temp every page an SM touches first is
 * in its own node, and with N = N_SM "remote" is exactly the thesis's
 * remote access (a bank bound to another SM).
 *
 * A remote access (a request with a known requesting SM to a bank of
 * another node) pays dram.numa_latency core cycles, the fabric's round trip,
 * charged when its data (a read) or its acknowledgement (a write) leaves
 * the DRAM. Each node has one link in each direction carrying
 * dram.numa_link_bytes bytes per core cycle: a remote read's data crosses
 * the requesting node's incoming link, a remote write's the outgoing one;
 * a transfer waits for its link (dram.numa.link_wait). Requests without a
 * requesting SM (write-backs, FRC fetches) and local ones never cross it.
 * The DRAM queues, banks and the DRAM statistics (latency, row hits) see
 * the request as before: the slot frees when the data leaves the DRAM.
 *
 * Choices where the thesis is silent (it describes the system, not the
 * fabric's timing): the whole round trip is charged on the way back, so a
 * remote request reaches its bank as early as a local one (the bank-level
 * behaviour TEMP changes is unaffected by the charge); the link carries the
 * request's data only (a line, or its sectors with l2.sector_mem); the L2 is
 * not split by node (the L2 bank an address maps to is unchanged).
 */
#include <stdint.h>

#include "dram_int.h"

int dram_numa_init(struct dram *d, struct arena *a, const struct sim_cfg *cfg)
{
	struct dram_numa *n = &d->nm;
	n->nodes = d->c.numa_nodes > 1 ? (uint32_t)d->c.numa_nodes : 0;
	if (!n->nodes)
		return 0;
	n->nsm = cfg->core.sms > 0 ? (uint32_t)cfg->core.sms : 1;
	ARENA_SET(a, n->link_in, uint64_t, n->nodes);
	ARENA_SET(a, n->link_out, uint64_t, n->nodes);
	/* At most every slot of every channel crosses at once. */
	n->cap = d->nch * d->ch[0].nslots;
	ARENA_SET(a, n->q, struct dram_fab, n->cap);
	struct stats *st = d->st;
	n->st_far = stats_counter(st, "dram.numa.remote", "requests whose bank is in another node than the requesting SM");
	n->st_far_sm = stats_counter(st, "dram.numa.sm_requests", "requests with a known requesting SM (local + remote)");
	stats_ratio(st, "dram.numa.remote_ratio", "remote / requests with a known SM (fabric nodes)", "dram.numa.remote",
		    "dram.numa.sm_requests", 1.0);
	n->st_delay = stats_counter(st, "dram.numa.delay_sum",
				    "core cycles remote requests spent crossing the fabric (link wait + transfer + latency)");
	stats_ratio(st, "dram.numa.delay", "mean core cycles a remote request spends crossing the fabric",
		    "dram.numa.delay_sum", "dram.numa.remote", 1.0);
	n->st_wait = stats_counter(st, "dram.numa.link_wait", "core cycles remote transfers waited for a busy node link");
	return 0;
}

void dram_numa_mark(struct dram *d, const struct dram_addr *x, int sm, struct dram_req *r)
{
	const struct dram_numa *n = &d->nm;
	if (!n->nodes || sm < 0)
		return;
	stat_inc(d->st, n->st_far_sm);
	uint32_t nsm = n->nsm;
	uint32_t ngb = d->nch * d->nbanks;
	uint32_t g = (x->rank * (uint32_t)d->c.banks + x->bank) * d->nch + x->ch;
	uint32_t owner = ngb >= nsm ? g % nsm : g;
	uint32_t home = owner % n->nodes, from = (uint32_t)sm % n->nodes;
	if (home == from)
		return;
	r->far = 1;
	r->node = (uint8_t)from;
	stat_inc(d->st, n->st_far);
}

static bool before(const struct dram_fab *a, const struct dram_fab *b)
{
	return a->vis < b->vis || (a->vis == b->vis && a->seq < b->seq);
}

void dram_numa_send(struct dram *d, const struct dram_req *r, uint64_t vis)
{
	struct dram_numa *n = &d->nm;
	uint64_t *link = r->is_write ? &n->link_out[r->node] : &n->link_in[r->node];
	uint64_t start = vis > *link ? vis : *link;
	uint64_t lb = (uint64_t)d->c.numa_link_bytes;
	uint64_t ser = lb ? ((uint64_t)r->bytes + lb - 1) / lb : 0;
	*link = start + ser;
	struct dram_fab x = {.vis = start + ser + (uint64_t)d->c.numa_latency, .seq = r->seq, .tag = r->tag,
			     .is_write = r->is_write};
	stat_add(d->st, n->st_wait, start - vis);
	stat_add(d->st, n->st_delay, x.vis - vis);
	uint32_t i = n->nq++;
	while (i) { /* sift up */
		uint32_t p = (i - 1) / 2;
		if (!before(&x, &n->q[p]))
			break;
		n->q[i] = n->q[p];
		i = p;
	}
	n->q[i] = x;
}

bool dram_numa_pop(struct dram *d, uint32_t *tag, bool *is_write)
{
	struct dram_numa *n = &d->nm;
	if (!n->nq || n->q[0].vis > *d->now)
		return false;
	*tag = n->q[0].tag;
	*is_write = n->q[0].is_write;
	struct dram_fab x = n->q[--n->nq];
	uint32_t i = 0, m = n->nq;
	for (;;) { /* sift down */
		uint32_t l = 2 * i + 1, b = i;
		const struct dram_fab *best = &x;
		if (l < m && before(&n->q[l], best)) {
			b = l;
			best = &n->q[l];
		}
		if (l + 1 < m && before(&n->q[l + 1], best))
			b = l + 1;
		if (b == i)
			break;
		n->q[i] = n->q[b];
		i = b;
	}
	if (m)
		n->q[i] = x;
	return true;
}

uint64_t dram_numa_next(const struct dram *d)
{
	const struct dram_numa *n = &d->nm;
	return n->nq ? n->q[0].vis : UINT64_MAX;
}
