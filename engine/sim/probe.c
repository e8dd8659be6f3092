/* probe.c: listener registration for the probe points of probe.h. */
#include "probe.h"

int probe_listen(struct probes *pr, enum probe_point p, probe_fn fn)
{
	if (pr->n[p] >= PROBE_MAX)
		return -1;
	pr->fn[p][pr->n[p]++] = fn;
	return 0;
}
