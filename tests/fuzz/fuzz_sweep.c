/* fuzz_sweep.c: a sweep spec (sweep/sweep_spec.c) as someone else may
 * share it: loaded for job 0 alone (what --job 0 does, bounded whatever the
 * job count), and whole when it has few jobs; every job's label and command
 * line read back. The input is also tried as a `sweep table --fmt` format
 * (sweep_fmt_check) and, when accepted, used as one. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "sweep/sweep.h"
#include "sweep/sweep_data.h"

static void walk(const struct sweep *sw)
{
	for (int i = 0; i < sw->njobs; i++)
		for (int d = 0; d < sw->ndims; d++)
			free(sweep_display(sw, &sw->jobs[i], d));
	for (int i = 0; i < sw->njobs; i++)
		for (int a = 0; a < sw->jobs[i].argc; a++)
			if (!sw->jobs[i].argv[a])
				abort();
}

FUZZ_TARGET(sweep)
{
	const char *path = fuzz_file("fuzz.sweep.json", data, size);
	char *err = NULL;
	struct sweep *sw = sweep_load_ex(path, fuzz_dir(), 0, &err);
	if (sw) {
		walk(sw);
		bool small = sw->njobs <= 8;
		sweep_free(sw);
		if (small) {
			sw = sweep_load(path, fuzz_dir(), &err);
			if (sw) {
				walk(sw);
				sweep_free(sw);
			}
		}
	}
	fuzz_note(err);
	free(err);
	err = NULL;
	char *fmt = fuzz_str(data, size);
	if (sweep_fmt_check(fmt, &err) == 0) {
		char buf[256];
		snprintf(buf, sizeof buf, fmt, 3.25); /* the grammar bounds what this may print */
	}
	fuzz_note(err);
	free(err);
	free(fmt);
	return 0;
}
