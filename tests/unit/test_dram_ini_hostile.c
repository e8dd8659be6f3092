/*
 * test_dram_ini_hostile.c: DRAMSim3 .ini files as someone else may write
 * them (engine/dram/dram_ini.c): products that overflow a long are refused
 * naming the keys (not a negative size), columns = 0 names columns, and the
 * note about unused keys stays short for two million of them.
 */
#include <stdlib.h>
#include <string.h>

#include "dram/dram_ini.h"
#include "sim/config.h"
#include "sim/util.h"
#include "test.h"

static int apply(const char *text, struct strbuf *notes, char **err)
{
	struct sim_cfg c;
	cfg_defaults(&c);
	return dram_ini_apply(&c, text, strlen(text), "h.ini", notes, err);
}

TEST(dram_ini_overflow_is_refused_naming_the_keys)
{
	/* each value within the reader's 1e9 bound, their product not */
	char *err = NULL;
	CHECK(apply("[dram_structure]\nprotocol = GDDR6\ncolumns = 1000000000\nBL = 16\ndevice_width = 1000000000\n"
		    "rows = 1000000000\n[system]\nbus_width = 1000000000\n",
		    NULL, &err) < 0);
	CHECK(err && strstr(err, "is too large"));
	CHECK(err && strstr(err, "columns"));
	free(err);
	err = NULL;
	CHECK(apply("[dram_structure]\nbankgroups = 1000000000\nbanks_per_group = 1000000000\nbankgroup_enable = false\n"
		    "rows = 1000000000\ncolumns = 1000000000\n",
		    NULL, &err) < 0);
	CHECK(err && strstr(err, "rank size") && strstr(err, "is too large"));
	CHECK(err && !strstr(err, "less than 1 MB")); /* what the wrapped product said */
	free(err);
}

TEST(dram_ini_zero_columns_names_columns)
{
	char *err = NULL;
	CHECK(apply("[dram_structure]\ncolumns = 0\n", NULL, &err) < 0);
	CHECK(err && strstr(err, "[dram_structure] columns: expected at least 1, got 0"));
	CHECK(err && !strstr(err, "bus_width"));
	free(err);
	err = NULL;
	CHECK(apply("[dram_structure]\nrows = 10\n", NULL, &err) < 0);
	CHECK(err && strstr(err, "[dram_structure] rows: expected at least 1024, got 10"));
	free(err);
}

TEST(dram_ini_unused_key_note_is_capped)
{
	struct strbuf text, notes;
	sb_init(&text);
	sb_init(&notes);
	sb_puts(&text, "[junk]\n");
	const int n = 200000;
	for (int i = 0; i < n; i++)
		sb_printf(&text, "k%d = 1\n", i);
	char *err = NULL;
	struct sim_cfg c;
	cfg_defaults(&c);
	CHECK_EQ(dram_ini_apply(&c, text.s, text.len, "h.ini", &notes, &err), 0);
	CHECK(notes.len < 2000); /* 20 names and a count, not 200000 names */
	CHECK(strstr(notes.s, "[junk] k0") != NULL);
	CHECK(strstr(notes.s, "and 199980 more") != NULL);
	free(err);
	sb_fini(&text);
	sb_fini(&notes);
}
