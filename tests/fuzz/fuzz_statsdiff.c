/* fuzz_statsdiff.c: a stats file as `gpustep diff` reads it (cli/diff.c):
 * parsed as a stats document, and when accepted compared with itself
 * (nothing differs) and with a small document of another machine, both
 * ways, as the report ranks them. */
#include <stdlib.h>

#include "cli/diff.h"
#include "fuzz.h"

static const char other[] = "{\"cycles\": 100, \"stats\": {\"l2.nacks\": 3, \"sm0.l1.nacks\": 3, \"l1.nacks\": 3, "
			    "\"core.ipc\": 0.5, \"h\": {\"buckets\": [0, 1], \"counts\": [1, 2]}}}";

FUZZ_TARGET(statsdiff)
{
	char *err = NULL;
	cJSON *a = NULL, *b = NULL;
	if (diff_parse_stats((const char *)data, size, "fuzz.json", &a, &err) == 0) {
		struct whatif_stat *v;
		uint32_t m, oa, ob;
		diff_compare(a, a, true, &v, &m, &oa, &ob);
		if (m || oa || ob)
			abort();
		free(v);
		if (diff_parse_stats(other, sizeof other - 1, "other.json", &b, &err) == 0) {
			diff_compare(a, b, false, &v, &m, &oa, &ob);
			for (uint32_t i = 0; i + 1 < m; i++)
				if (whatif_stat_rank(&v[i], &v[i + 1]) > 0)
					abort();
			free(v);
			diff_compare(b, a, true, &v, &m, &oa, &ob);
			free(v);
		}
	}
	fuzz_note(err);
	free(err);
	cJSON_Delete(a);
	cJSON_Delete(b);
	return 0;
}
