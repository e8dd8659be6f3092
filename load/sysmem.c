/* sysmem.c: the memory this process may use (sysmem.h). */
#include "sysmem.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* One unsigned number from a file ("max" or absent: UINT64_MAX). */
static uint64_t read_u64(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return UINT64_MAX;
	uint64_t v = UINT64_MAX;
	char buf[64];
	if (fgets(buf, sizeof buf, f) && buf[0] >= '0' && buf[0] <= '9')
		sscanf(buf, "%" SCNu64, &v);
	fclose(f);
	return v;
}

static uint64_t meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	if (!f)
		return UINT64_MAX;
	char line[128];
	uint64_t v = UINT64_MAX;
	size_t kl = strlen(key);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, key, kl) == 0 && line[kl] == ':') {
			uint64_t kb;
			if (sscanf(line + kl + 1, "%" SCNu64, &kb) == 1)
				v = kb * 1024;
			break;
		}
	fclose(f);
	return v;
}

/* The cgroup's limit and usage (v2, else v1). */
static void cgroup(uint64_t *limit, uint64_t *usage)
{
	*limit = read_u64("/sys/fs/cgroup/memory.max");
	*usage = read_u64("/sys/fs/cgroup/memory.current");
	if (*limit == UINT64_MAX) {
		*limit = read_u64("/sys/fs/cgroup/memory/memory.limit_in_bytes");
		*usage = read_u64("/sys/fs/cgroup/memory/memory.usage_in_bytes");
		if (*limit >= (1ull << 60)) /* v1 says "no limit" with a huge number */
			*limit = UINT64_MAX;
	}
	if (*usage == UINT64_MAX)
		*usage = 0;
}

static void take(uint64_t v, const char *src, uint64_t *best, char *what, size_t n)
{
	if (v < *best) {
		*best = v;
		if (what)
			snprintf(what, n, "%s", src);
	}
}

uint64_t sysmem_available(char *what, size_t n)
{
	uint64_t best = UINT64_MAX;
	if (what && n)
		what[0] = 0;
	take(meminfo("MemAvailable"), "MemAvailable in /proc/meminfo", &best, what, n);
	uint64_t lim, use;
	cgroup(&lim, &use);
	if (lim != UINT64_MAX)
		take(lim > use ? lim - use : 0, "what is left of the cgroup's memory.max", &best, what, n);
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		take((uint64_t)rl.rlim_cur, "ulimit -v", &best, what, n);
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		take((uint64_t)rl.rlim_cur, "ulimit -d", &best, what, n);
	return best;
}

uint64_t sysmem_physical(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t phys = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : UINT64_MAX;
	uint64_t lim, use;
	cgroup(&lim, &use);
	return lim < phys ? lim : phys;
}
