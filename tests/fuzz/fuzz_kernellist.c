/* fuzz_kernellist.c: an Accel-Sim kernelslist.g (load/trace_io.c: MemcpyHtoD
 * lines, kernel file names, @N). The scratch directory holds two small
 * kernels from tests/traces/b2b (kernel-1.traceg, kernel-2.traceg) and a
 * .trc (t.trc) for the list to name; the list runs back to back on the
 * teaching machine for a few thousand cycles. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "load/loader.h"

static void copy_in(const char *from, const char *name)
{
	size_t len;
	char *err = NULL;
	char *t = loader_read_file(from, &len, &err);
	if (!t) {
		fprintf(stderr, "fuzz_kernellist: %s (run from the repository root)\n", err);
		abort();
	}
	fuzz_file(name, t, len);
	free(t);
}

FUZZ_TARGET(kernellist)
{
	static int ready;
	if (!ready) {
		copy_in("tests/traces/b2b/kernel-1.traceg", "kernel-1.traceg");
		copy_in("tests/traces/b2b/kernel-2.traceg", "kernel-2.traceg");
		static const char trc[] = "blocksize: 64 1 1\n0 0 0 4\n1 0 4 4\n33 1 132 4\n64 0 0 8\n";
		fuzz_file("t.trc", trc, sizeof trc - 1);
		ready = 1;
	}
	char path[600];
	snprintf(path, sizeof path, "%s", fuzz_file("kernelslist.g", data, size));
	struct sim_cfg c;
	cfg_defaults(&c);
	char *err = NULL;
	for (int at = 0; at < 2; at++) {
		char spec[640];
		snprintf(spec, sizeof spec, "%s%s", path, at ? "@2" : "");
		struct session ss;
		if (session_init(&ss, &c, "", spec, 1, &err) == 0) {
			fuzz_run(&ss, 3000);
			session_fini(&ss);
		}
		fuzz_note(err);
	free(err);
		err = NULL;
	}
	return 0;
}
