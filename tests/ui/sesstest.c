/* sesstest.c: see sesstest.h. */
#include "sesstest.h"

#include <stdlib.h>

#include "test.h"

static void cap_print(void *u, const char *t) { sb_printf(&((struct capture *)u)->out, "%s\n", t); }
static void cap_error(void *u, const char *t) { sb_printf(&((struct capture *)u)->err, "%s\n", t); }

void fx_init_wl(struct fx *f, const char *wl)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	fx_init_cfg(f, &c, wl);
}

void fx_init_cfg(struct fx *f, const struct sim_cfg *cfg, const char *wl)
{
	struct sim_cfg c = *cfg;
	char *err = NULL;
	int rc = session_init(&f->ss, &c, "", wl, 1, &err);
	if (rc)
		test_fail(__FILE__, __LINE__, "session_init %s: %s", wl, err);
	free(err);
	REQUIRE(rc == 0);
	sb_init(&f->cap.out);
	sb_init(&f->cap.err);
	f->out = (struct cmd_out){cap_print, cap_error, &f->cap};
}

void fx_clear(struct fx *f)
{
	f->cap.out.len = f->cap.err.len = 0;
	f->cap.out.s[0] = f->cap.err.s[0] = 0;
}

void fx_fini(struct fx *f)
{
	session_fini(&f->ss);
	sb_fini(&f->cap.out);
	sb_fini(&f->cap.err);
}

int fx_run(struct fx *f, const char *line)
{
	fx_clear(f);
	int rc = cmd_exec(&f->ss, line, &f->out);
	if (rc & CMD_RUN) {
		session_run_all(&f->ss);
		cmd_report_stop(&f->ss, &f->out);
	}
	return rc;
}
