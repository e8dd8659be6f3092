/*
 * test_memcpy_list.c: MemcpyHtoD lines of an Accel-Sim kernelslist.g
 * (load/trace_io.c): malformed lines fail with the file, the line, the column
 * and what was expected; good lines become the workload's copies (sim.h
 * wl_copy), placed before the right kernel, for the whole list and for @N;
 * the warning when trace.memcpy = ignore.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/config.h"
#include "test.h"
#include "vtest.h"
#include "load/trace_io.h"
#include "sim/util.h"

/* Write a kernelslist.g into a fresh directory next to a link named
 * kernel-1.traceg to the vecadd fixture; '@' in body stands for that kernel
 * line. Returns the list's path (heap); list_rm() removes both. */
static char *write_list(const char *body)
{
	char kern[PATH_MAX];
	REQUIRE(realpath("tests/traces/vecadd/kernel-1.traceg", kern));
	char *dir = vt_tmpdir("mc");
	char *link = xasprintf("%s/kernel-1.traceg", dir);
	REQUIRE(symlink(kern, link) == 0);
	free(link);
	char *path = xasprintf("%s/kernelslist.g", dir);
	free(dir);
	FILE *f = fopen(path, "w");
	REQUIRE(f);
	for (const char *p = body; *p; p++) {
		if (*p == '@')
			fputs("kernel-1.traceg", f);
		else
			fputc(*p, f);
	}
	fclose(f);
	return path;
}

static void list_rm(char *path)
{
	unlink(path);
	*strrchr(path, '/') = 0;
	char *link = xasprintf("%s/kernel-1.traceg", path);
	unlink(link);
	free(link);
	rmdir(path);
	free(path);
}

/* Open body as a list: NULL with *err, or the list. */
static struct trace_list *open_list(const char *body, char **path, char **err)
{
	*path = write_list(body);
	unsigned first;
	*err = NULL;
	return trace_list_open(*path, &first, err);
}

TEST(memcpy_list_malformed_lines_name_file_line_column_and_expectation)
{
	static const struct {
		const char *body, *msg;
	} bad[] = {
		{"MemcpyHtoD\n@\n", "kernelslist.g:1: column 11: expected ',' after MemcpyHtoD, got 'end of line'"},
		{"MemcpyHtoD 0x10,4\n@\n", "kernelslist.g:1: column 11: expected ',' after MemcpyHtoD, got ' 0x10,4'"},
		{"# c\nMemcpyHtoD,\n@\n",
		 "kernelslist.g:2: column 12: expected a hex device address (0x...) after 'MemcpyHtoD,', got 'end of line'"},
		{"MemcpyHtoD,zz,5\n@\n", "kernelslist.g:1: column 12: expected a hex device address (0x...) after 'MemcpyHtoD,', got 'zz,5'"},
		{"MemcpyHtoD,0x10\n@\n",
		 "kernelslist.g:1: column 16: expected ',' and the byte count after the address, got 'end of line'"},
		{"MemcpyHtoD,0x10;5\n@\n", "kernelslist.g:1: column 16: expected ',' and the byte count after the address, got ';5'"},
		{"@\nMemcpyHtoD,0x10,\n", "kernelslist.g:2: column 17: expected a decimal byte count, got 'end of line'"},
		{"MemcpyHtoD,0x10,-5\n@\n", "kernelslist.g:1: column 17: expected a decimal byte count, got '-5'"},
		{"MemcpyHtoD,0x10,0x40\n@\n", "kernelslist.g:1: column 18: expected the end of the line after the byte count, got 'x40'"},
		{"MemcpyHtoD,0x10,99999999999999999999999\n@\n", "kernelslist.g:1: column 17: expected a decimal byte count"},
		{"MemcpyHtoD,0x10000000000000000,4\n@\n", "kernelslist.g:1: column 12: expected a hex device address"},
		{"MemcpyHtoD,0xfffffffffffffff0,17\n@\n", "kernelslist.g:1: 0xfffffffffffffff0 + 17 bytes runs past the end of the address space"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *path, *err;
		struct trace_list *tl = open_list(bad[i].body, &path, &err);
		CHECK(tl == NULL);
		if (err) {
			CHECK_CONTAINS(err, bad[i].msg);
			CHECK_CONTAINS(err, path); /* the file as given */
		} else {
			test_fail(__FILE__, __LINE__, "case %zu accepted", i);
		}
		trace_list_free(tl);
		free(err);
		list_rm(path);
	}
}

TEST(memcpy_list_copies_go_before_their_kernel)
{
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	char *path, *err;
	/* copies 1, 2 before kernel 1, 3 before kernel 2, 4 after the last one */
	struct trace_list *tl = open_list("MemcpyHtoD,0x1000,256\r\n  MemcpyHtoD,0X2000,1\nMemcpyDtoH,0x9,9\n@\n"
					  "MemcpyHtoD,0xabc,0\n@\nMemcpyHtoD,0x5000,64\n",
					  &path, &err);
	REQUIRE(tl);
	CHECK_EQ(trace_list_count(tl), 2);
	struct workload *wl = trace_workload_all(tl, &cfg, &err);
	REQUIRE(wl);
	CHECK_EQ(wl->ncopies, 3); /* the one after the last kernel is left out */
	CHECK_EQ(wl->copies[0].addr, 0x1000);
	CHECK_EQ(wl->copies[0].bytes, 256);
	CHECK_EQ(wl->copies[0].kernel, 0);
	CHECK_EQ(wl->copies[0].line, 1);
	CHECK_EQ(wl->copies[1].addr, 0x2000);
	CHECK_EQ(wl->copies[1].kernel, 0);
	CHECK_EQ(wl->copies[2].addr, 0xabc);
	CHECK_EQ(wl->copies[2].bytes, 0);
	CHECK_EQ(wl->copies[2].kernel, 1);
	CHECK_EQ(wl->copies[2].line, 5);
	free(wl);
	/* Kernel 2 alone (@2): only the copy directly before it, as kernel 0. */
	wl = trace_workload_new(tl, 1, &cfg, &err);
	REQUIRE(wl);
	CHECK_EQ(wl->ncopies, 1);
	CHECK_EQ(wl->copies[0].addr, 0xabc);
	CHECK_EQ(wl->copies[0].kernel, 0);
	free(wl);
	wl = trace_workload_new(tl, 0, &cfg, &err);
	REQUIRE(wl);
	CHECK_EQ(wl->ncopies, 2);
	free(wl);
	/* Warnings: ignored copies said once with kernel 0, plus the late one. */
	char w[1024];
	cfg.trace.memcpy_mode = TRACE_MEMCPY_IGNORE;
	trace_list_warnings(tl, 0, &cfg, w, sizeof w);
	CHECK_CONTAINS(w, "3 MemcpyHtoD (257 bytes) ignored (trace.memcpy = ignore)");
	CHECK_CONTAINS(w, "1 MemcpyHtoD after the last kernel ignored");
	trace_list_warnings(tl, 1, &cfg, w, sizeof w);
	CHECK_STR(w, "");
	cfg.trace.memcpy_mode = TRACE_MEMCPY_L2_FILL;
	trace_list_warnings(tl, 0, &cfg, w, sizeof w);
	CHECK(strstr(w, "ignored (trace.memcpy") == NULL);
	trace_list_free(tl);
	list_rm(path);
}

/* A list of one kernel runs it with every copy before it; the sim counts them. */
TEST(memcpy_list_of_one_kernel_fills_the_l2)
{
	struct sim_cfg cfg;
	cfg_defaults(&cfg);
	cfg.trace.memcpy_mode = TRACE_MEMCPY_L2_FILL;
	char *path, *err;
	/* vecadd reads A at 0x7f0000000000 and B at 0x7f0000100000 (1 KB each) */
	struct trace_list *tl = open_list("MemcpyHtoD,0x00007f0000000000,1024\nMemcpyHtoD,0x00007f0000100000,1024\n@\n",
					  &path, &err);
	REQUIRE(tl);
	struct workload *wl = trace_workload_all(tl, &cfg, &err);
	REQUIRE(wl);
	CHECK_EQ(wl->ncopies, 2);
	struct sim *s = sim_new(&cfg, wl, &err);
	REQUIRE(s);
	sim_step(s, UINT64_MAX);
	const struct stats *st = sim_stats_c(s);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "trace.memcpy.lines")), 16);
	CHECK_EQ(stats_value(st, (uint32_t)stats_find(st, "l2.hits")), 16); /* 8 warps x (A line + B line) */
	sim_free(s);
	free(wl);
	trace_list_free(tl);
	list_rm(path);
}
