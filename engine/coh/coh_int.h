/*
 * coh_int.h: the inside of the small coherent system shared by the
 * controllers (coh_ctl.c) and the tester loop (coh_stress.c). Nothing else
 * includes it.
 */
#ifndef GPUSTEP_COH_INT_H
#define GPUSTEP_COH_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "coh_stress.h"
#include "sim/util.h"

enum { B_NONE, B_ACKS, B_EVICT, B_UNBLOCK, B_FETCH };
enum { K_GONE, K_S, K_O };

struct cs_msg {
	uint64_t t;
	uint8_t type, kept, orig, atom; /* atom: an atomic's request, its NACK or its reply */
	uint8_t l1;
	uint8_t line;
	uint32_t mask;
	uint32_t data[CS_WORDS];
};

#define QCAP 256
#define CS_SINCE 16
struct cs_q { /* one channel: ring of messages in send order */
	struct cs_msg m[QCAP];
	unsigned head, n;
};

struct cs_lline { int tag; uint8_t st, put; uint32_t dmask; uint32_t data[CS_WORDS]; };

struct cs_core {
	bool busy, store, atom, atom_sent;
	uint8_t line, word;
	uint32_t value;
	uint64_t t_next;
	uint32_t atom_read; /* what the last atomic read at the L2 */
	uint32_t load_read; /* what the last load read */
};

struct cs_dent {
	int tag;
	uint8_t ds, busy, req, req_msg, owner_o, has_n, fwd_valid, req_atom;
	int owner;
	uint64_t sharers;
	unsigned acks;
	uint32_t dirty;
	uint32_t grant_act;
	uint64_t t_fetch;
	uint32_t data[CS_WORDS], fwd[CS_WORDS];
};

struct cs_sys {
	struct cs_cfg c;
	const struct coh_proto *p;
	struct rng rng;
	uint64_t now, last_progress;
	struct cs_q up[CS_MAX_L1], down[CS_MAX_L1], retry[CS_MAX_L1];
	struct cs_lline l1[CS_MAX_L1][8];
	struct cs_core core[CS_MAX_L1];
	unsigned wt_pending[CS_MAX_L1][CS_MAX_LINES];
	struct cs_dent dir[CS_MAX_LINES];
	uint32_t mem[CS_MAX_LINES][CS_WORDS];
	uint32_t latest[CS_MAX_LINES][CS_WORDS];          /* moesi: last stored value */
	uint32_t own_last[CS_MAX_L1][CS_MAX_LINES][CS_WORDS]; /* each core's last store */
	bool written[CS_MAX_LINES][CS_WORDS];
	/* the atomic rule (coh_stress.h): per word, the last atomic's value and
	 * the writes performed since it (the first CS_SINCE of them kept) */
	uint32_t atom_last[CS_MAX_LINES][CS_WORDS];
	uint32_t nsince[CS_MAX_LINES][CS_WORDS];
	uint32_t since[CS_MAX_LINES][CS_WORDS][CS_SINCE];
	/* kernel boundaries: each word's value at the last release and whether
	 * anything wrote it since (then loads are not held to it) */
	bool kb_any;
	uint32_t kb_val[CS_MAX_LINES][CS_WORDS];
	bool kb_written[CS_MAX_LINES][CS_WORDS];
	int8_t kwriter[CS_MAX_LINES][CS_WORDS]; /* the L1 that wrote the word since the boundary, -1 none, -2 several */
	uint64_t kernel_end; /* cores issue until `issued` reaches it */
	uint64_t issued, seq;
	bool stop_issue;
	struct cs_result r;
	struct cs_msg sink; /* written instead of a message that overflowed its channel (the run has failed) */
};


/* coh_ctl.c: the controllers */
void fail(struct cs_sys *s, int line, int l1, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
uint32_t make_value(struct cs_sys *s, unsigned l1, unsigned line, unsigned word);
struct cs_lline *l1_find(struct cs_sys *s, unsigned l1, unsigned line);
bool l1_event(struct cs_sys *s, unsigned l1, unsigned line, struct cs_lline *ln, unsigned ev, const struct cs_msg *msg);
void l1_try_access(struct cs_sys *s, unsigned l1);
void l1_receive(struct cs_sys *s, unsigned l1, const struct cs_msg *m);
void l1_retries(struct cs_sys *s, unsigned l1);
struct cs_dent *dir_find(struct cs_sys *s, unsigned line);
void l2_replace(struct cs_sys *s, struct cs_dent *e);
void dir_request(struct cs_sys *s, const struct cs_msg *m);
void dir_response(struct cs_sys *s, const struct cs_msg *m);
void dir_tick(struct cs_sys *s);
struct cs_msg *q_head(struct cs_q *q);
void q_pop(struct cs_q *q);

#endif
