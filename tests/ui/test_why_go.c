/*
 * test_why_go.c: `why` chains are numbered and `why go N|next|prev` (Alt-w,
 * Alt-W in the TUI) selects what a link names: the warp, the L1 / L2 MSHR
 * entry (the mshr panel's cursor), the L2 bank, the DRAM bank, the register
 * bank (switching to the rf layout); the unit each link names is read back
 * from the link's own text. Bad input and stale chains are refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug/inspect.h"
#include "tui/keys.h"
#include "sesstest.h"
#include "test.h"
#include "tui/tui.h"
#include "tui/tui_int.h"
#include "vtest.h"

/* The text of link [n] in s (up to the end of its line), or NULL. */
static const char *link_text(const char *s, int n, char *buf, size_t len)
{
	char tag[16];
	snprintf(tag, sizeof tag, "[%d] ", n);
	const char *p = strstr(s, tag);
	if (!p)
		return NULL;
	p += strlen(tag);
	size_t k = strcspn(p, "\n");
	if (k >= len)
		k = len - 1;
	memcpy(buf, p, k);
	buf[k] = 0;
	return buf;
}

TEST(why_go_selects_what_each_link_names)
{
	struct fx f;
	fx_init_wl(&f, "vecadd");
	CHECK_EQ(fx_run(&f, "why go 1"), CMD_ERR); /* no chain yet */
	CHECK_CONTAINS(f.cap.err.s, "no chain");
	REQUIRE(fx_run(&f, "step 300") == CMD_RUN);
	REQUIRE(fx_run(&f, "why warp 1.5") == CMD_OK);
	char out[4096];
	snprintf(out, sizeof out, "%s", f.cap.out.s);
	int n = 0, checked = 0;
	char b[300];
	while (link_text(out, n + 1, b, sizeof b))
		n++;
	REQUIRE(n >= 4);
	for (int k = 1; k <= n; k++) {
		link_text(out, k, b, sizeof b);
		unsigned sm, w, e, bank, ch, bk;
		unsigned gen = f.ss.sel_mshr_gen;
		char cmd[32];
		snprintf(cmd, sizeof cmd, "why go %d", k);
		REQUIRE(fx_run(&f, cmd) == CMD_OK);
		char want[64];
		snprintf(want, sizeof want, "link %d of %d: ", k, n);
		CHECK_CONTAINS(f.cap.out.s, want);
		if (sscanf(b, "warp %u waits", &w) == 1 || sscanf(b, "load into r%*u by warp %u", &w) == 1) {
			CHECK_EQ(f.ss.sel_sm, 1);
			CHECK_EQ(f.ss.sel_warp, (int)w);
			checked++;
		} else if (sscanf(b, "L1 MSHR entry %u", &e) == 1) {
			CHECK_EQ(f.ss.sel_sm, 1);
			CHECK_EQ(f.ss.sel_mshr_level, 0);
			CHECK_EQ(f.ss.sel_mshr, (int)e);
			CHECK_EQ(f.ss.sel_mshr_gen, gen + 1);
			checked++;
		} else if (sscanf(b, "L2 bank %u miss, MSHR entry %u", &bank, &e) == 2) {
			CHECK_EQ(f.ss.sel_l2, (int)bank);
			CHECK_EQ(f.ss.sel_mshr_level, 1);
			CHECK_EQ(f.ss.sel_mshr, (int)e);
			checked++;
		} else if (sscanf(b, "L2 bank %u", &bank) == 1) {
			CHECK_EQ(f.ss.sel_l2, (int)bank);
			checked++;
		} else if (sscanf(b, "DRAM ch%u bank %u", &ch, &bk) == 2) {
			CHECK_EQ(f.ss.sel_ch, (int)ch);
			CHECK_EQ(f.ss.sel_bank, (int)bk);
			checked++;
		}
		(void)sm;
	}
	CHECK(checked >= 4);
	/* next / prev wrap around the chain. */
	REQUIRE(fx_run(&f, "why go 1") == CMD_OK);
	REQUIRE(fx_run(&f, "why go prev") == CMD_OK);
	char want[32];
	snprintf(want, sizeof want, "link %d of %d", n, n);
	CHECK_CONTAINS(f.cap.out.s, want);
	REQUIRE(fx_run(&f, "why go next") == CMD_OK);
	CHECK_CONTAINS(f.cap.out.s, "link 1 of");
	/* Bad input. */
	CHECK_EQ(fx_run(&f, "why go 0"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "is not a link of the last chain");
	CHECK_EQ(fx_run(&f, "why go 99"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "why go x"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "select mshr l3 0"), CMD_ERR);
	CHECK_EQ(fx_run(&f, "select mshr l1 999"), CMD_ERR);
	/* A rebuilt machine: the chain is stale. */
	REQUIRE((fx_run(&f, "run 0") & CMD_ERR) == 0);
	REQUIRE((fx_run(&f, "set l1.mshr.entries 4") & CMD_ERR) == 0);
	CHECK_EQ(fx_run(&f, "why go 1"), CMD_ERR);
	CHECK_CONTAINS(f.cap.err.s, "no chain");
	fx_fini(&f);
}

/* The MSHR entry number on the mshr window's reverse-video row, -1 none. */
static int cursor_entry(WINDOW *w)
{
	for (int y = 1; y < getmaxy(w); y++) {
		char row[512];
		draw_read_row(w, y, row, sizeof row);
		const char *p = row;
		while (*p && !(*p >= '0' && *p <= '9'))
			p++;
		int e;
		const char *hex = strstr(row, "0x");
		if (!hex || sscanf(p, "%d 0x", &e) != 1)
			continue;
		int x = 0;
		for (const char *q = row; q < hex; q++)
			x += ((unsigned char)*q & 0xC0) != 0x80;
		if (mvwinch(w, y, x) & A_REVERSE)
			return e;
	}
	return -1;
}

/* The TUI: Alt-w goes along the chain, focusing each link's panel; the
 * mshr panel's cursor sits on the entry (reverse video). */
TEST(why_go_in_the_tui_focuses_and_selects)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 40, 132);
	REQUIRE(t != NULL);
	CHECK(tui_exec(t, "step 300") & CMD_RUN);
	tui_run_to_stop(t);
	CHECK_EQ(tui_exec(t, "why warp 1.5"), CMD_OK);
	REQUIRE(ss->why_n >= 4);
	tui_feed_key(t, KEYS_ALT('w'), true); /* link 1: the warp */
	tui_frame(t);
	CHECK_STR(t->focus_name, "warps");
	CHECK_EQ(ss->sel_warp, 5);
	CHECK_EQ(ss->sel_sm, 1);
	int mshr_link = -1;
	for (int k = 0; k < ss->why_n; k++)
		if (ss->why_links[k].target == WT_L1_MSHR && ss->why_links[k].entry >= 0)
			mshr_link = k;
	REQUIRE(mshr_link > 0);
	while (ss->why_cur != mshr_link)
		tui_feed_key(t, KEYS_ALT('w'), true);
	tui_frame(t);
	CHECK_STR(t->focus_name, "mshr");
	/* The cursor row (reverse) of the focused mshr panel is that entry. */
	int slot = t->focus;
	REQUIRE(slot >= 0);
	WINDOW *w = t->slots[slot].w;
	bool found = false;
	for (int y = 1; y < getmaxy(w) && !found; y++) {
		char row[512];
		draw_read_row(w, y, row, sizeof row);
		int e;
		const char *p = row;
		while (*p && !(*p >= '0' && *p <= '9')) /* the separator column, the indent */
			p++;
		if (sscanf(p, "%d 0x", &e) == 1 && e == ss->why_links[mshr_link].entry) {
			int x = 0; /* the column of the address (UTF-8 characters before it) */
			for (const char *q = row; q < strstr(row, "0x"); q++)
				x += ((unsigned char)*q & 0xC0) != 0x80;
			found = (mvwinch(w, y, x) & A_REVERSE) != 0;
		}
	}
	CHECK(found);
	/* Another entry, not the first row: the cursor moves to it. */
	int last = -1, first = -1;
	for (int e = 0; e < 64; e++) {
		struct mshr_entry_info mi;
		if (inspect_mshr_entry(ss->sim, CACHE_L1, 1, e, &mi) && mi.valid) {
			if (first < 0)
				first = e;
			last = e;
		}
	}
	REQUIRE(last > first);
	char cmd[48];
	snprintf(cmd, sizeof cmd, "select mshr l1 %d", last);
	CHECK_EQ(tui_exec(t, cmd), CMD_OK);
	tui_frame(t);
	CHECK_EQ(cursor_entry(w), last);
	tui_feed_key(t, KEYS_ALT('W'), true); /* back one */
	CHECK_EQ(ss->why_cur, mshr_link - 1);
	vt_tui_stop(t, ss);
}

/* A register-bank link switches to the rf layout. */
TEST(why_go_switches_layout_for_the_register_file)
{
	struct session *ss;
	struct tui *t = vt_tui_start(&ss, 40, 132);
	REQUIRE(t != NULL);
	CHECK((tui_exec(t, "workload matmul_tiled") & CMD_ERR) == 0);
	CHECK((tui_exec(t, "set rf.kind racetrack") & CMD_ERR) == 0);
	int k = -1;
	for (int c = 0; c < 3000 && k < 0; c++) {
		CHECK(tui_exec(t, "step 1") & CMD_RUN);
		tui_run_to_stop(t);
		for (int w = 0; w < inspect_warp_slots(ss->sim) && k < 0; w++) {
			struct warp_info wi;
			if (!inspect_warp(ss->sim, 0, w, &wi) || wi.stall != STALL_RF)
				continue;
			char cmd[32];
			snprintf(cmd, sizeof cmd, "why warp 0.%d", w);
			tui_exec(t, cmd);
			for (int i = 0; i < ss->why_n; i++)
				if (ss->why_links[i].target == WT_RF_BANK)
					k = i;
		}
	}
	REQUIRE(k >= 0);
	CHECK_STR(tui_layout_name(t), "overview");
	char cmd[32];
	snprintf(cmd, sizeof cmd, "why go %d", k + 1);
	CHECK_EQ(tui_exec(t, cmd), CMD_OK);
	tui_frame(t);
	CHECK_STR(tui_layout_name(t), "rf");
	CHECK_STR(t->focus_name, "rf");
	CHECK_EQ(ss->sel_sm, 0);
	vt_tui_stop(t, ss);
}
