/* fuzz_kernel.c: a kernel in the access-pattern language (load/loader.c JSON,
 * engine/kernel/kernel_stmt.c statements, engine/kernel/kexpr.c expressions): parse,
 * compile, then produce the first instructions of a few warps, which
 * evaluates every expression on real lanes. */
#include <stdlib.h>

#include "fuzz.h"
#include "kernel/kernel.h"
#include "load/loader.h"

FUZZ_TARGET(kernel)
{
	char *text = fuzz_str(data, size);
	struct kernel_src src;
	char *err = NULL;
	if (loader_parse_kernel(text, "fuzz.json", &src, &err) == 0) {
		struct kernel *k = kernel_compile(&src, 1, &err);
		if (k) {
			uint32_t ctas = kernel_ctas(k), tpc = kernel_threads_per_cta(k);
			uint32_t wpc = (tpc + 31) / 32;
			static struct kwarp w;
			static struct winst in;
			for (uint32_t cta = 0; cta < ctas && cta < 3; cta++)
				for (uint32_t wi = 0; wi < wpc && wi < 3; wi++) {
					kernel_warp_start(k, &w, cta, wi, 32);
					for (int i = 0; i < 2000 && kernel_warp_next(k, &w, &in); i++)
						;
				}
			kernel_free(k);
		}
	}
	fuzz_note(err);
	free(err);
	free(text);
	return 0;
}
