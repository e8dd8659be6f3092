/*
 * status.c: the status bar (see status.h).
 */
#include "status.h"

#include <stdio.h>
#include <string.h>

#include "debug/snapshot.h"

/* "rewind ≥ 12,288": the earliest cycle rewinding reaches; "" when it is off. */
static void rewind_text(const struct sim *s, char *buf, size_t n)
{
	size_t nsnap = 0, bytes;
	uint64_t iv;
	buf[0] = 0;
	if (s)
		sim_snapshots_info(s, &nsnap, &bytes, &iv);
	if (!nsnap)
		return;
	char d[24], num[32];
	int len = snprintf(d, sizeof d, "%llu", (unsigned long long)sim_rewind_horizon(s)), o = 0;
	for (int i = 0; i < len; i++) {
		if (i && (len - i) % 3 == 0)
			num[o++] = ',';
		num[o++] = d[i];
	}
	num[o] = 0;
	snprintf(buf, n, "rewind %s %s", draw_utf8() ? "\u2265" : ">=", num);
}

/* Columns of UTF-8 text (one per code point, as put_text counts): "≥" is
 * three bytes but one column. */
static int cols_of(const char *s)
{
	int n = 0;
	for (; s && *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

void status_draw(WINDOW *w, const struct status_info *si)
{
	int wd = getmaxx(w);
	attr_t bar = role_attr(R_BAR);
	werase(w);
	put_text(w, 0, 0, wd, "", bar, true);

	char cyc[40], cps[32] = "", ipc[32] = "", si_buf[16];
	snprintf(cyc, sizeof cyc, " cycle %llu", (unsigned long long)si->cycle);
	if (si->cps >= 0)
		snprintf(cps, sizeof cps, "%s cyc/s", fmt_si(si_buf, sizeof si_buf, si->cps));
	if (si->ipc >= 0)
		snprintf(ipc, sizeof ipc, "IPC %.3f", si->ipc);
	/* Optional segments, most important first. */
	char rw[48];
	rewind_text(si->sim, rw, sizeof rw);
	const char *opt[] = {cps, ipc, rw, si->config, si->workload, si->layout};
	int nopt = (int)(sizeof opt / sizeof opt[0]);
	int fixed = cols_of(cyc) + 3 + cols_of(si->state);
	int keep = 0, len = fixed;
	for (int i = 0; i < nopt; i++) {
		int add = opt[i] && opt[i][0] ? cols_of(opt[i]) + 3 : 0;
		if (len + add + 1 > wd)
			break;
		len += add;
		keep = i + 1;
	}
	int x = put_text(w, 0, 0, wd, cyc, bar | A_BOLD, false);
	x += put_text(w, 0, x, wd - x, " | ", bar, false);
	/* The state takes what the kept segments leave. */
	int rest = 0;
	for (int i = 0; i < keep; i++)
		if (opt[i] && opt[i][0])
			rest += cols_of(opt[i]) + 3;
	int sw = wd - x - rest - 1;
	if (sw < 1)
		sw = 1;
	attr_t sa = si->state_role == R_BAR || si->state_role == R_NORMAL ? bar | A_BOLD : role_attr(si->state_role);
	x += put_text(w, 0, x, sw, si->state ? si->state : "", sa, false);
	for (int i = 0; i < keep; i++) {
		if (!opt[i] || !opt[i][0])
			continue;
		x += put_text(w, 0, x, wd - x, " | ", bar, false);
		x += put_text(w, 0, x, wd - x, opt[i], bar, false);
	}
}
