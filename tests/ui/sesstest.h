/*
 * sesstest.h: a session on the built-in teaching machine with command output
 * captured, for tests that drive the command table the way batch mode does.
 */
#ifndef GPUSTEP_TESTS_SESSTEST_H
#define GPUSTEP_TESTS_SESSTEST_H

#include "tui/commands.h"
#include "session/session.h"

struct capture {
	struct strbuf out, err;
};

struct fx {
	struct session ss;
	struct capture cap;
	struct cmd_out out;
};

/* Session on the default config running workload wl (seed 1); REQUIREs success. */
void fx_init_wl(struct fx *f, const char *wl);
/* The same on config cfg. */
void fx_init_cfg(struct fx *f, const struct sim_cfg *cfg, const char *wl);
void fx_clear(struct fx *f);
void fx_fini(struct fx *f);
/* Run one line as batch mode does (runs started are finished and reported);
 * clears the captured output first. Returns the cmd_result flags. */
int fx_run(struct fx *f, const char *line);

#endif
