/*
 * l2_sharers.h: the L2's record of L1 copies without a coherence protocol
 * (l2.sharers = record; see l2_sharers.c).
 */
#ifndef GPUSTEP_L2_SHARERS_H
#define GPUSTEP_L2_SHARERS_H

#include <stdbool.h>
#include <stdint.h>

struct sim;
struct l2bank;
struct sm;
struct req;

/* The record is kept (l2.sharers = record, protocol none, L1 on). */
void l2sh_init(struct sim *s, struct l2bank *b);
/* The L2 answers r with data: r's SM now holds a copy (line or FRC entry). */
void l2sh_note_reply(struct sim *s, struct l2bank *b, const struct req *r);
bool l2sh_has(const struct sim *s, const struct l2bank *b, int set, int way);
void l2sh_clear(const struct sim *s, struct l2bank *b, int set, int way);
/* Invalidate the recorded copies of the line in (set, way); returns the acks due. */
unsigned l2sh_inval_line(struct sim *s, struct l2bank *b, int set, int way);
/* FRC entry i swaps with (set, way): the victim's record goes to the entry and
 * its copies are invalidated from there (returns the acks due); the line gets
 * the copies answered from the entry. */
unsigned l2sh_frc_swap(struct sim *s, struct l2bank *b, int i, int set, int way, bool victim_valid);
void l2sh_frc_alloc(struct sim *s, struct l2bank *b, int i);
/* Request slots an invalidation round may need (admission checks). */
unsigned l2sh_room_needed(const struct sim *s);
/* L1 side: an Inv arrived (protocol none). */
void l2sh_l1_inv(struct sim *s, struct sm *sm, uint32_t ri);
/* L2 side: an Ack/AckD arrived (protocol none). */
void l2sh_ack(struct sim *s, struct l2bank *b, uint32_t ri);

#endif
