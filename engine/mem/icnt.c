/*
 * icnt.c: the crossbar between the SMs' L1s and the L2 banks.
 *
 *   SM ports (one link each way)            L2 bank ports
 *   sm0 --req--> +-----------------+ --req--> bank0 inq
 *   sm1 --req--> |    crossbar     | --req--> bank1 inq
 *   ...  <-rep-- +-----------------+ <--rep-- ...  outq
 *
 * A packet is a header flit plus its data (icnt.flit_bytes per flit); a link
 * moves icnt.port_flits flits per cycle, so a packet holds its source link
 * and its destination link for ceil(flits / port_flits) cycles; it arrives
 * icnt.latency cycles after its last flit leaves. At most one packet starts per
 * source port per cycle. Flow control is credit based: a packet starts only if
 * the destination queue (an L2 bank's input queue, an SM's reply queue) has a
 * free slot counting packets still in flight. Source ports are served in a
 * rotating order so that no SM or bank is always first.
 *
 * The Acks' channel (icnt.ack_channel = separate, the default; no coherence
 * protocol): an L1's answer to an L2 invalidation (l2.sharers: Ack / AckD)
 * is a response the L2 MSHR entry evicting the line waits for, so it must
 * never wait behind requests, which may themselves wait for that entry
 * (l1.bypass_at_l2 or l2.when_busy = queue: a request waiting at the head
 * of a full input queue). As in protocols with separate request and response networks
 * (virtual channels), it has its own path end to end:
 *
 *   L1 ackq --+                     +--> bank ackinq (l2.queue credits) --+
 *             +-- SM request link --+                                     +--> lookup ports, Acks first
 *   L1 missq -+  (one packet/cycle, +--> bank inq    (l2.queue credits) --+
 *                 Acks first)
 *
 * The physical links are shared (one packet starts per port per cycle, the
 * serialization is the same); only the buffers and credits are separate.
 * The L2 always takes an Ack (l2sh_ack), so the Acks' channel drains and the
 * cycle "Ack waits for a request waits for an MSHR entry waits for the Ack"
 * cannot close. `shared` sends Acks through the miss queue and the request
 * credits, which can deadlock (docs/POLICIES.md). With a coherence protocol
 * the directory's Ack/AckD/Unblock stay on the request channel: the engine's
 * directory relies on an L1's Put reaching it before that L1's later Ack
 * (one FIFO per L1), and its input queues never hold a request back (every
 * refusal is a NACK), so they always drain (docs/COHERENCE.md).
 *
 * icnt.req.occupancy / icnt.reply.occupancy: the credits in use per direction,
 * summed over the destination queues (packets in the crossbar or waiting in an
 * L2 input queue / an SM reply queue; an L2 re-lookup after a fill takes an
 * input-queue credit too, since it holds back crossbar packets the same way);
 * icnt.ack.occupancy the Acks' channel's. icnt.req_packets / req_flits count
 * every SM -> L2 packet, Acks included on either channel; icnt.ack_packets /
 * ack_flits count the Acks alone.
 */
#include <assert.h>

#include "core/coalesce.h"
#include "coh/coh.h"
#include "sim/sim_int.h"

unsigned icnt_bank_of(const struct sim *s, uint64_t addr)
{
	const struct l2_cfg *c = &s->cfg.l2;
	uint64_t chunk = addr / (uint64_t)c->interleave;
	unsigned nb = (unsigned)c->banks;
	if (s->part.nsub) /* l2.banks_per_channel: GPGPU-Sim's sub-partition (dram/addrmap.c) */
		return addrmap_partition(&s->part, addr);
	if (nb == 1)
		return 0;
	switch (c->bank_hash) {
	case BANKH_XOR: {
		unsigned bits = log2u(nb);
		uint64_t h = 0;
		for (uint64_t x = chunk; x; x >>= bits)
			h ^= x;
		return (unsigned)(h & (nb - 1));
	}
	case BANKH_IPOLY: {
		static const uint32_t poly[13] = {0,     0x3,   0x7,   0xB,   0x13,  0x25,  0x43,
						  0x89,  0x11D, 0x211, 0x409, 0x805, 0x1053};
		unsigned deg = log2u(nb);
		uint64_t x = chunk; /* mod poly[deg], highest set bit first (as cache.c) */
		while (deg && x >> deg)
			x ^= (uint64_t)poly[deg] << (63u - (unsigned)__builtin_clzll(x) - deg);
		return (unsigned)(x & (nb - 1));
	}
	default:
		return (unsigned)(chunk % nb);
	}
}

void icnt_init(struct sim *s)
{
	uint64_t nb = (uint64_t)s->cfg.l2.banks, ns = (uint64_t)s->cfg.core.sms;
	s->id.icnt_req_occ = stats_occupancy(&s->stats, "icnt.req.occupancy",
					     "request packets holding an L2 input-queue credit (in the crossbar or queued)",
					     nb * (uint64_t)s->cfg.l2.queue);
	s->id.icnt_rep_occ = stats_occupancy(&s->stats, "icnt.reply.occupancy",
					     "reply packets holding an SM reply-queue credit (in the crossbar or queued)",
					     ns * (uint64_t)s->cfg.icnt.queue);
	s->id.icnt_ack_occ = stats_occupancy(&s->stats, "icnt.ack.occupancy",
					     "Acks holding a credit of an L2 bank's Ack input queue (icnt.ack_channel = separate)",
					     nb * (uint64_t)s->cfg.l2.queue);
	s->id.icnt_ack_pkts = stats_counter(&s->stats, "icnt.ack_packets",
					    "L1 answers to L2 requests (Ack, AckD; Unblock with a protocol) sent SM -> L2, "
					    "counted in icnt.req_packets too");
	s->id.icnt_ack_flits = stats_counter(&s->stats, "icnt.ack_flits",
					     "flits of icnt.ack_packets, counted in icnt.req_flits too");
}

bool icnt_on_ack_channel(const struct sim *s, const struct req *r)
{
	return r->type == RQ_COH && s->cfg.icnt.ack_channel == ICNT_ACK_SEPARATE && !s->coh;
}

void icnt_ack_credit(struct sim *s, struct l2bank *b, int d)
{
	b->ack_credits_used = (uint32_t)((int64_t)b->ack_credits_used + d);
	stat_occ_add(&s->stats, s->id.icnt_ack_occ, d);
}

void icnt_req_credit(struct sim *s, struct l2bank *b, int d)
{
	b->in_credits_used = (uint32_t)((int64_t)b->in_credits_used + d);
	stat_occ_add(&s->stats, s->id.icnt_req_occ, d);
}

void icnt_rep_credit(struct sim *s, struct l1 *l, int d)
{
	l->fill_credits_used = (uint32_t)((int64_t)l->fill_credits_used + d);
	stat_occ_add(&s->stats, s->id.icnt_rep_occ, d);
}

static unsigned payload_flits(const struct sim *s, const struct req *r, unsigned sector_bytes, unsigned line)
{
	unsigned fb = (unsigned)s->cfg.icnt.flit_bytes;
	unsigned bytes = sector_bytes ? (unsigned)__builtin_popcount(r->mask) * sector_bytes : line;
	return (bytes + fb - 1) / fb;
}

/* icnt.payload = segment: the data flits of a warp request's coalescing
 * segment(s) (coalesce.h). */
static unsigned segment_flits(const struct sim *s, const struct req *r, unsigned line)
{
	unsigned fb = (unsigned)s->cfg.icnt.flit_bytes;
	return (icnt_segment_bytes(line, r->chunks, r->lane_bytes) + fb - 1) / fb;
}

static unsigned packet_flits(const struct sim *s, const struct req *r, bool reply)
{
	unsigned sec = (unsigned)(s->cfg.l2.sector ? s->cfg.l2.sector : 0);
	unsigned line = (unsigned)s->cfg.l1.line;
	/* Coherence messages: a header, plus the data when the type carries it
	 * (coh_msg_has_data; Nack and WTAck never do). */
	if ((r->flags & REQF_COH) && !(reply && (r->reply == RP_NACK || r->reply == RP_ACK)))
		return 1 + (coh_msg_has_data(r->coh_msg, r->coh_aux) ? payload_flits(s, r, sec, line) : 0);
	/* A warp's own load (it skipped the L1) or store: with icnt.payload =
	 * segment and an unsectored L2, its coalescing segment. */
	bool seg = !sec && s->cfg.icnt.payload == ICNT_PAYLOAD_SEGMENT;
	if (reply) {
		if (r->reply != RP_DATA)
			return 1;
		return 1 + (seg && r->type == RQ_LD ? segment_flits(s, r, line) : payload_flits(s, r, sec, line));
	}
	if (r->type == RQ_ST)
		return 1 + (seg ? segment_flits(s, r, line) : payload_flits(s, r, sec, line));
	if (r->type == RQ_WB)
		return 1 + payload_flits(s, r, sec, line);
	if (r->type == RQ_ATOM)
		return 2;
	return 1;
}

static uint64_t ser_cycles(const struct sim *s, unsigned flits)
{
	unsigned pf = (unsigned)s->cfg.icnt.port_flits;
	return (flits + pf - 1) / pf;
}

static void send_replies(struct sim *s, struct l2bank *b)
{
	struct req *R = s->pool.r;
	uint64_t now = s->st->now;
	/* The older ready head of the two reply queues goes first. */
	struct reqq *q = NULL;
	bool a = reqq_ready(&b->outq, R, now), n = reqq_ready(&b->outq_now, R, now);
	if (a && n)
		q = R[b->outq.head].t_ready <= R[b->outq_now.head].t_ready ? &b->outq : &b->outq_now;
	else if (a)
		q = &b->outq;
	else if (n)
		q = &b->outq_now;
	else
		return;
	if (b->rep_link_free > now) {
		sim_wake_at(s, b->rep_link_free);
		return;
	}
	uint32_t ri = q->head;
	struct l1 *l = &s->sms[R[ri].sm].l1;
	if (l->fill_credits_used >= (uint32_t)s->cfg.icnt.queue) {
		if (!(R[ri].flags & REQF_ICNT_SEEN)) {
			R[ri].flags |= REQF_ICNT_SEEN;
			stat_inc(&s->stats, s->id.icnt_stalls);
		}
		return;
	}
	reqq_pop(q, R);
	R[ri].flags &= (uint8_t)~REQF_ICNT_SEEN;
	unsigned flits = packet_flits(s, &R[ri], true);
	uint64_t ser = ser_cycles(s, flits);
	uint64_t start = now > l->rep_link_free ? now : l->rep_link_free;
	b->rep_link_free = now + ser;
	l->rep_link_free = start + ser;
	R[ri].t_ready = start + ser + (uint64_t)s->cfg.icnt.latency;
	reqq_insert_timed(&l->fillq, R, ri);
	sim_act_l1(s, l);
	icnt_rep_credit(s, l, 1);
	stat_add(&s->stats, s->id.icnt_rep_flits, flits);
	stat_inc(&s->stats, s->id.icnt_rep_pkts);
	sim_progress(s);
}

/* Has the head of q (an SM's miss queue, or its Ack queue on the Acks'
 * channel) a credit of its bank's queue? A refusal counts once per packet. */
static bool head_has_credit(struct sim *s, const struct sm *sm, const struct reqq *q, bool ack)
{
	if (q->head == REQ_NIL)
		return false;
	struct req *r = &s->pool.r[q->head];
	unsigned bank = r->bank; /* set as it entered the queue (l1.c send_down) */
	const struct l2bank *b = &s->banks[bank];
	if ((ack ? b->ack_credits_used : b->in_credits_used) < (uint32_t)s->cfg.l2.queue)
		return true;
	if (!(r->flags & REQF_ICNT_SEEN)) {
		r->flags |= REQF_ICNT_SEEN;
		stat_inc(&s->stats, s->id.icnt_stalls);
		EV_EMIT(&s->ev, EV_ICNT_STALL, .cycle = s->st->now, .unit = (int16_t)bank, .sm = (int16_t)sm->id,
			.a = ack ? EVI_ACK : EVI_REQUEST);
	}
	return false;
}

/* The head of q leaves the SM's request link for its bank's input queue
 * (ack: the Acks' input queue). */
static void start_request(struct sim *s, struct sm *sm, struct reqq *q, bool ack)
{
	struct req *R = s->pool.r;
	struct l1 *l = &sm->l1;
	uint64_t now = s->st->now;
	uint32_t ri = reqq_pop(q, R);
	unsigned bank = R[ri].bank;
	assert(bank == icnt_bank_of(s, R[ri].addr)); /* nothing moved it since send_down */
	struct l2bank *b = &s->banks[bank];
	R[ri].flags &= (uint8_t)~REQF_ICNT_SEEN;
	unsigned flits = packet_flits(s, &R[ri], false);
	uint64_t ser = ser_cycles(s, flits);
	uint64_t start = now > b->req_link_free ? now : b->req_link_free;
	l->req_link_free = now + ser;
	b->req_link_free = start + ser;
	R[ri].t_ready = start + ser + (uint64_t)s->cfg.icnt.latency;
	reqq_insert_timed(ack ? &b->ackinq : &b->inq, R, ri);
	sim_act_l2(s, b);
	if (ack)
		icnt_ack_credit(s, b, 1);
	else
		icnt_req_credit(s, b, 1);
	stat_add(&s->stats, s->id.icnt_req_flits, flits);
	stat_inc(&s->stats, s->id.icnt_req_pkts);
	if (R[ri].type == RQ_COH) {
		stat_add(&s->stats, s->id.icnt_ack_flits, flits);
		stat_inc(&s->stats, s->id.icnt_ack_pkts);
	}
	sim_progress(s);
}

/* One packet per cycle from an SM's request link: the Acks' channel first
 * (a response always sinks at the L2), else the miss queue's head. */
static void send_requests(struct sim *s, struct sm *sm)
{
	struct l1 *l = &sm->l1;
	uint64_t now = s->st->now;
	if (l->missq.head == REQ_NIL && l->ackq.head == REQ_NIL)
		return;
	if (l->req_link_free > now) {
		sim_wake_at(s, l->req_link_free);
		return;
	}
	if (head_has_credit(s, sm, &l->ackq, true))
		start_request(s, sm, &l->ackq, true);
	else if (head_has_credit(s, sm, &l->missq, false))
		start_request(s, sm, &l->missq, false);
}

void icnt_tick(struct sim *s)
{
	int nb = s->cfg.l2.banks, ns = s->cfg.core.sms;
	uint64_t rot = s->st->now;
	/* Ports in rotating order from rot mod n, busy units only (an idle bank
	 * has no reply, an idle SM no request; sim.c). The bitmaps are read
	 * afresh at each step, as in sim_tick. A bank's reply port is its last
	 * visit of the cycle: only new work can reach it after this, so an idle
	 * bank's bit is cleared here (sim_tick). */
	int r = (int)(rot % (uint64_t)nb);
	for (int pass = 0; pass < 2; pass++) { /* [r, nb), then [0, r) */
		int lo = pass ? 0 : r, hi = pass ? r : nb;
		for (int i = sim_act_next(s->act_l2, hi, lo); i < hi; i = sim_act_next(s->act_l2, hi, i + 1)) {
			send_replies(s, &s->banks[i]);
			if (!sim_bank_busy(&s->banks[i]))
				sim_act_clear(s->act_l2, i);
		}
	}
	r = (int)(rot % (uint64_t)ns);
	for (int pass = 0; pass < 2; pass++) {
		int lo = pass ? 0 : r, hi = pass ? r : ns;
		for (int i = sim_act_next(s->act_sm, hi, lo); i < hi; i = sim_act_next(s->act_sm, hi, i + 1))
			send_requests(s, &s->sms[i]);
	}
}
