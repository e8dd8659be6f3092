/* simtest.c: see simtest.h. */
#include "simtest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"


void tk_base_cfg(struct sim_cfg *c)
{
	cfg_defaults(c);
	c->core.sms = 1;
	c->mem.model = MEM_FIXED;
	c->mem.latency = 100;
	c->icnt.latency = 4;
	c->icnt.flit_bytes = 32;
	c->icnt.port_flits = 1;
	c->l1.hit_latency = 4;
	c->l2.banks = 1;
	c->core.scheduler = SCHED_LRR; /* warp 0 at cycle 0, warp 1 at cycle 1 */
}

/* body: statements separated by ';' */
static void kernel_of(struct kernel_src *k, unsigned threads, unsigned ctas, const char *body)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof k->name, "t");
	snprintf(k->grid[0], sizeof k->grid[0], "%u", ctas);
	snprintf(k->grid[1], sizeof k->grid[1], "1");
	snprintf(k->grid[2], sizeof k->grid[2], "1");
	snprintf(k->block[0], sizeof k->block[0], "%u", threads);
	snprintf(k->block[1], sizeof k->block[1], "1");
	snprintf(k->block[2], sizeof k->block[2], "1");
	const char *names[] = {"A", "B", "C", "D"};
	k->narrays = 4;
	for (unsigned i = 0; i < 4; i++) {
		snprintf(k->arrays[i].name, sizeof k->arrays[i].name, "%s", names[i]);
		k->arrays[i].elem = 4;
		snprintf(k->arrays[i].len, sizeof k->arrays[i].len, "65536");
	}
	k->nparams = 1;
	snprintf(k->params[0].name, sizeof k->params[0].name, "stride");
	k->params[0].value = 1;
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", body);
	for (char *tok = strtok(buf, ";"); tok; tok = strtok(NULL, ";")) {
		while (*tok == ' ')
			tok++;
		snprintf(k->body[k->nbody++], sizeof k->body[0], "%s", tok);
	}
}

bool tk_start(struct tk *t, unsigned threads, unsigned ctas, const char *body)
{
	char *err = NULL;
	kernel_of(&t->src, threads, ctas, body);
	t->k = kernel_compile(&t->src, t->cfg.seed, &err);
	if (!t->k) {
		test_fail(__FILE__, __LINE__, "kernel: %s", err);
		free(err);
		return false;
	}
	t->wl = (struct workload){.name = "t", .kernel = t->k};
	t->s = sim_new(&t->cfg, &t->wl, &err);
	if (!t->s) {
		test_fail(__FILE__, __LINE__, "sim_new: %s", err);
		free(err);
		return false;
	}
	events_log_all(sim_events(t->s), true);
	return true;
}

void tk_end(struct tk *t)
{
	char *err = NULL;
	if (sim_check_invariants(t->s, &err)) {
		test_fail(__FILE__, __LINE__, "invariant: %s", err);
		free(err);
	}
	sim_free(t->s);
	kernel_free(t->k);
}

uint64_t tk_stat(struct tk *t, const char *name)
{
	int id = stats_find(sim_stats_c(t->s), name);
	if (id < 0) {
		test_fail(__FILE__, __LINE__, "no stat %s", name);
		return 0;
	}
	return (uint64_t)stats_value(sim_stats_c(t->s), (uint32_t)id);
}

const struct event *tk_event(struct tk *t, unsigned kind, unsigned n)
{
	const struct events *ev = sim_events_c(t->s);
	uint64_t total = events_logged(ev);
	uint64_t avail = total < ev->cap ? total : ev->cap;
	for (uint64_t i = avail; i-- > 0;) {
		const struct event *e = events_recent(ev, i);
		if (e && e->kind == kind && n-- == 0)
			return e;
	}
	return NULL;
}

uint64_t tk_fill_delay(const struct sim_cfg *c)
{
	return c->l2.fill_reply == L2FR_PIPELINE ? (uint64_t)c->l2.hit_latency : 0;
}

uint64_t tk_miss_latency(const struct sim_cfg *c)
{
	uint64_t req_flits = 1, rep_flits = 1 + (uint64_t)c->l2.line / (uint64_t)c->icnt.flit_bytes;
	uint64_t pf = (uint64_t)c->icnt.port_flits;
	return 1 /* coalescer -> L1 */ + 1 /* miss queue -> crossbar */ +
	       (req_flits + pf - 1) / pf + (uint64_t)c->icnt.latency + 1 /* L2 -> memory queue */ +
	       (uint64_t)c->mem.latency + (rep_flits + pf - 1) / pf + (uint64_t)c->icnt.latency +
	       tk_fill_delay(c) /* the fill's replies pass the L2 pipeline */;
}

uint64_t tk_count(struct tk *t, unsigned kind)
{
	const struct events *ev = sim_events_c(t->s);
	uint64_t total = events_logged(ev), n = 0;
	uint64_t avail = total < ev->cap ? total : ev->cap;
	for (uint64_t i = 0; i < avail; i++) {
		const struct event *e = events_recent(ev, i);
		n += e && e->kind == kind;
	}
	return n;
}

void tk_run_mode(struct sim *s, int mode)
{
	if (mode == 0) {
		sim_step(s, UINT64_MAX);
		return;
	}
	uint64_t k = 1;
	while (!sim_done(s)) {
		sim_step(s, mode == 1 ? 1 : k);
		k = k % 37 + 5;
	}
}

struct kernel *tk_snap_kernel(const char *name, unsigned ctas)
{
	static struct kernel_src k;
	memset(&k, 0, sizeof k);
	snprintf(k.name, sizeof k.name, "%s", name);
	snprintf(k.grid[0], 64, "%u", ctas);
	snprintf(k.grid[1], 64, "1");
	snprintf(k.grid[2], 64, "1");
	snprintf(k.block[0], 64, "128");
	snprintf(k.block[1], 64, "1");
	snprintf(k.block[2], 64, "1");
	k.narrays = 2;
	snprintf(k.arrays[0].name, KNAME_MAX, "A");
	snprintf(k.arrays[1].name, KNAME_MAX, "B");
	for (int i = 0; i < 2; i++) {
		k.arrays[i].elem = 4;
		snprintf(k.arrays[i].len, 64, "65536");
	}
	const char *body[] = {"loop i 0 40", "ld A[(tid*7 + i*129 + bx*33) % 4096] -> r1", "alu 3 <- r1",
			      "st B[tid + i*64]", "end"};
	for (size_t i = 0; i < sizeof body / sizeof body[0]; i++)
		snprintf(k.body[k.nbody++], sizeof k.body[0], "%s", body[i]);
	char *err = NULL;
	struct kernel *kk = kernel_compile(&k, 1, &err);
	if (!kk)
		test_fail(__FILE__, __LINE__, "%s", err);
	free(err);
	return kk;
}

struct sim *tk_snap_sim(const char *name, struct kernel *k, struct workload *wl)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	*wl = (struct workload){.kernel = k};
	snprintf(wl->name, sizeof wl->name, "%s", name);
	char *err = NULL;
	struct sim *s = sim_new(&c, wl, &err);
	if (!s)
		test_fail(__FILE__, __LINE__, "%s", err);
	free(err);
	return s;
}

bool tk_start_features(struct tk *t, const char *const kv[6], const char *body)
{
	tk_base_cfg(&t->cfg);
	t->cfg.core.sms = 2;
	t->cfg.l2.banks = 2;
	for (int k = 0; k < 6 && kv[k]; k += 2) {
		char *err = NULL;
		if (cfg_set_value(&t->cfg, kv[k], kv[k + 1], &err)) {
			test_fail(__FILE__, __LINE__, "%s = %s: %s", kv[k], kv[k + 1], err);
			free(err);
			return false;
		}
	}
	return tk_start(t, 128, 6, body);
}
