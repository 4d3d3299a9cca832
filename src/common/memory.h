/* Memory probing (memory.c) with its file-system root settable, for tests. */
#ifndef CZK_COMMON_MEMORY_H
#define CZK_COMMON_MEMORY_H

#include "czk/czk.h"

/* czk_memory_probe reading root + "/proc/self/cgroup", root +
 * "/proc/self/mountinfo", root + "/proc/meminfo" and the cgroup files under
 * root + each mount point; root "" is the real system. The sources named in
 * out->source leave root out. */
void czk__memory_probe_at(czk_memory_info *out, const char *root);

#endif
