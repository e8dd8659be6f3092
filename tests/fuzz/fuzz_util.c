/* fuzz_util.c: helpers shared by the fuzz targets (fuzz.h). */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/commands.h"
#include "sim/util.h"

static char dir[256];

static void remove_dir(void)
{
	DIR *d = dir[0] ? opendir(dir) : NULL;
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		char p[600];
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
		unlink(p);
	}
	closedir(d);
	rmdir(dir);
}

const char *fuzz_dir(void)
{
	if (!dir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/gpustep-fuzz.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(dir)) {
			perror(dir);
			abort();
		}
		atexit(remove_dir);
	}
	return dir;
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = 0;
	return s;
}

const char *fuzz_file(const char *name, const void *data, size_t size)
{
	static char path[512];
	snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
		perror(path);
		abort();
	}
	return path;
}

void fuzz_run(struct session *ss, uint64_t cycles)
{
	session_start_run(ss, RUN_CYCLES, cycles);
	for (int i = 0; i < 64 && session_run_slice(ss, cycles / 64 + 1); i++)
		;
	session_run_interrupt(ss);
}

void fuzz_note(const char *err)
{
	if (err && getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "fuzz: %s\n", err);
}

static void drop(void *u, const char *t)
{
	(void)u;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "%s\n", t);
}

struct cmd_out fuzz_quiet = {drop, drop, NULL};

void fuzz_workload(const struct sim_cfg *c, const char *path, uint64_t cycles)
{
	struct session ss;
	char *err = NULL;
	if (session_init(&ss, c, "", path, 1, &err) == 0) {
		fuzz_run(&ss, cycles);
		session_fini(&ss);
	}
	fuzz_note(err);
	free(err);
}

void fuzz_machine(struct sim_cfg *c, const char *config_name, char **err)
{
	if (cfg_validate(c, err))
		return;
	struct strbuf sb;
	sb_init(&sb);
	cfg_print_derived(c, &sb);
	sb_fini(&sb);
	struct session ss;
	if (session_init(&ss, c, config_name, "vecadd", 1, err) == 0) {
		session_set_snapshot_budget(&ss, 0);
		fuzz_run(&ss, 300);
		session_fini(&ss);
	}
}
