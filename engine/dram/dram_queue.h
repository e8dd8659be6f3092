/*
 * dram_queue.h: read-only view of one DRAM bank's queue for the front end
 * (`info bank`, the dramq panel): the requests waiting, oldest first, and
 * the one the channel's scheduler takes next with why.
 *
 *   #  Q   ROW   ADDR          AGE
 *   0  rd   12   0x10008400     41  <- next: ACT (row 12) -- oldest, bank closed
 *   1  rd    3   0x10001800     17
 *
 * The pick is the engine's own (dram_bank_next(), the policy's pick); the
 * reason is read from the same state: row hit, oldest, the row-hit cap.
 */
#ifndef GPUSTEP_DRAM_QUEUE_H
#define GPUSTEP_DRAM_QUEUE_H

#include <stdbool.h>
#include <stdint.h>

struct sim;

struct dram_qreq_info {
	uint64_t addr;
	int64_t row;
	uint64_t age;  /* core cycles since it was enqueued */
	bool write;
	bool started;  /* its row is open and its column commands have begun */
	bool row_hit;  /* its row is the bank's open row */
};

struct dram_pick_info {
	int nreq;            /* requests listed (started first, then reads, then writes; oldest first) */
	int pick;            /* index of the request the next command serves, -1: none */
	char cmd[8];         /* next command: ACT, PRE, RD, WR, or "" */
	int next_in;         /* core cycles until it is legal, 0 = now, -1 = no command */
	char why[160];       /* the scheduler's reason, in words */
	int64_t open_row;    /* -1: closed */
	uint32_t hits_run;   /* requests started on the open row since its ACT */
	int row_hit_cap;     /* dram.row_hit_cap (0: none) */
	bool draining;       /* the channel serves writes (write drain) */
	bool frfcfs;         /* dram.scheduler = frfcfs */
};

/* Up to max requests of bank `bank` of channel ch into out; returns how many
 * there are (may exceed max), -1 if there is no such bank (or no DRAM). */
int inspect_dram_queue(const struct sim *s, int ch, int bank, struct dram_qreq_info *out, int max);
/* What the bank does next and why; false if there is no such bank. */
bool inspect_dram_pick(const struct sim *s, int ch, int bank, struct dram_pick_info *o);

#endif
