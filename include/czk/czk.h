/* czk — umbrella header and library-wide settings. */
#ifndef CZK_CZK_H
#define CZK_CZK_H

#include "czk/common.h"
#include "czk/field.h"
#include "czk/rand.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initialise process-wide state (CPU feature selection). Idempotent and
 * thread-safe; every czk entry point that needs it calls it. */
void czk_init(void);

/* Worker thread count used by OpenMP kernels: --threads / CZK_THREADS, else
 * every online CPU. */
int czk_threads(void);
void czk_set_threads(int n);

/* czk's cache directory ($CZK_CACHE_DIR, else $XDG_CACHE_HOME/czk, else
 * ~/.cache/czk), made (with its parents) if missing: cached parameters and
 * PCE files live there. */
czk_status czk_cache_dir(char *out, size_t n) CZK_WUR;
/* mkdir -p: dir and its missing parents with mode (an existing directory is
 * fine); CZK_ERR_IO naming the path otherwise. */
czk_status czk_mkdirs(const char *dir, unsigned mode) CZK_WUR;

/* Remove the temporary files of czk's writers that died in dir (names
 * "<file>.tmp.<pid>[.<n>]" whose writer's lock is free; a live writer's
 * are left alone). *files and *bytes (either may be NULL) count what went.
 * A missing dir is fine; CZK_ERR_IO when it cannot be listed. */
czk_status czk_reclaim_temps(const char *dir, uint64_t *files, uint64_t *bytes) CZK_WUR;

/* The memory this process may use: the smallest of MemTotal and every
 * cgroup memory limit on the way from its cgroup up to the hierarchy's
 * root (v2 memory.max, v1 memory.limit_in_bytes; a systemd MemoryMax= or a
 * container's limit is one of these). */
typedef struct czk_memory_info {
    uint64_t limit;     /* bytes; never 0 (4 GiB when nothing could be read) */
    uint64_t mem_total; /* MemTotal (sysconf when /proc/meminfo is unreadable); 0: unknown */
    uint64_t cgroup;    /* the smallest cgroup limit found; 0: none */
    uint64_t available; /* MemAvailable, no more than the limiting cgroup's limit less its usage; 0: unknown */
    char source[512];   /* where limit came from: "cgroup v2 /sys/fs/cgroup/a/memory.max",
                           "cgroup v1 /sys/fs/cgroup/memory/a/memory.limit_in_bytes", "MemTotal",
                           "sysconf", "default" */
} czk_memory_info;
void czk_memory_probe(czk_memory_info *out);

/* CPU description: vendor, family/model, brand string. */
typedef struct czk_cpu_info {
    char vendor[16];
    char brand[64];
    unsigned family, model, stepping;
    int adx, bmi2, avx2, avx512f;
    int online_cpus;
    int avx512ifma; /* AVX-512 IFMA (52-bit multiply-add), with AVX-512F usable */
} czk_cpu_info;
void czk_cpu_info_get(czk_cpu_info *info);

/* Compiler and flags the library was built with. */
const char *czk_build_compiler(void);
const char *czk_build_flags(void);
const char *czk_build_type(void);

#ifdef __cplusplus
}
#endif
#endif
