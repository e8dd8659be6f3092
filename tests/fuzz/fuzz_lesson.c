/* fuzz_lesson.c: lesson files (lesson/lesson.c). The input is a lesson's
 * JSON; a lesson the reader accepts (its commands passed the allow-list,
 * docs/SECURITY.md) is opened on a small session, which runs its setup, and
 * its steps are answered in turn (predictions with 0), so the commands a
 * hostile lesson gets past the reader run too. Every command a loaded
 * lesson holds must be one the allow-list names: the target aborts if not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lesson/lesson_int.h"

static bool has(const uint8_t *d, size_t n, const char *w)
{
	size_t k = strlen(w);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(d + i, w, k) == 0)
			return true;
	return false;
}

FUZZ_TARGET(lesson)
{
	setenv("XDG_STATE_HOME", fuzz_dir(), 1); /* progress files stay in the scratch directory */
	const char *path = fuzz_file("in.json", data, size);
	char *err = NULL;
	struct lesson *l = lesson_load(path, &err);
	fuzz_note(err);
	free(err);
	if (!l)
		return 0;
	char why[200];
	for (int i = 0; i < l->nsetup; i++)
		if (lesson_command_check(l->setup[i], why, sizeof why))
			abort();
	for (int k = 0; k < l->nsteps; k++)
		for (int i = 0; i < l->steps[k].nrun; i++)
			if (lesson_command_check(l->steps[k].run[i], why, sizeof why))
				abort();
	/* Runs end with vecadd's few thousand cycles; a lesson that could choose
	 * a bigger machine or workload (load, workload, set) is only read. */
	if (size > 8192 || has(data, size, "load") || has(data, size, "set")) {
		lesson_free(l);
		return 0;
	}
	struct sim_cfg c;
	cfg_defaults(&c);
	struct session ss;
	if (session_init(&ss, &c, "", "vecadd", 1, &err) != 0) {
		lesson_free(l);
		fuzz_note(err);
		free(err);
		return 0;
	}
	session_set_snapshot_budget(&ss, 0);
	l->no_progress = true;
	if (!(lesson_open(&ss, l, &fuzz_quiet) & CMD_ERR))
		for (int k = 0; k < 12 && ss.lesson && ss.lesson->cur < ss.lesson->nsteps; k++)
			cmd_exec(&ss, ss.lesson->steps[ss.lesson->cur].predict ? "answer 0" : "answer", &fuzz_quiet);
	session_fini(&ss);
	return 0;
}
