/*
 * sysmem.h: how much memory this process may use, for the limits of issue 27
 * (a machine larger than this is a config error, a snapshot budget larger
 * than the computer is refused): docs/CONFIG.md "Memory".
 */
#ifndef GPUSTEP_SYSMEM_H
#define GPUSTEP_SYSMEM_H

#include <stddef.h>
#include <stdint.h>

/* Bytes available now: the least of MemAvailable (/proc/meminfo), the
 * cgroup's memory.max minus memory.current (v2) or limit minus usage (v1),
 * and RLIMIT_AS / RLIMIT_DATA. UINT64_MAX when nothing says. `what` gets
 * the source ("available memory (MemAvailable)"). */
uint64_t sysmem_available(char *what, size_t n);
/* Physical memory of the computer (or the cgroup limit if lower);
 * UINT64_MAX if unknown. */
uint64_t sysmem_physical(void);

#endif
