#include "czk/czk.h"

#include <cpuid.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef CZK_BUILD_COMPILER
#define CZK_BUILD_COMPILER "unknown"
#endif
#ifndef CZK_BUILD_FLAGS
#define CZK_BUILD_FLAGS "unknown"
#endif
#ifndef CZK_BUILD_TYPE
#define CZK_BUILD_TYPE "unknown"
#endif

static czk_cpu_info cpu;
static pthread_once_t cpu_once = PTHREAD_ONCE_INIT;
static int thread_override;

static void detect(void)
{
    unsigned a, b, c, d;
    memset(&cpu, 0, sizeof cpu);
    cpu.online_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    if (cpu.online_cpus < 1) cpu.online_cpus = 1;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return;
    unsigned maxleaf = a;
    memcpy(cpu.vendor + 0, &b, 4);
    memcpy(cpu.vendor + 4, &d, 4);
    memcpy(cpu.vendor + 8, &c, 4);
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
        cpu.stepping = a & 0xf;
        cpu.family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
        cpu.model = (base_family == 0x6 || base_family == 0xf) ? (((a >> 16) & 0xf) << 4) | base_model
                                                                : base_model;
        int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
        if (maxleaf >= 7) {
            unsigned a7, b7, c7, d7;
            __cpuid_count(7, 0, a7, b7, c7, d7);
            cpu.bmi2 = (b7 >> 8) & 1;
            cpu.adx = (b7 >> 19) & 1;
            int ymm_ok = 0;
            if (osxsave && avx) {
                unsigned lo, hi;
                __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
                ymm_ok = (lo & 6) == 6;
                cpu.avx512f = ymm_ok && ((lo & 0xe0) == 0xe0) && ((b7 >> 16) & 1);
            }
            cpu.avx2 = ymm_ok && ((b7 >> 5) & 1);
            cpu.avx512ifma = cpu.avx512f && ((b7 >> 21) & 1);
            (void)c7; (void)d7; (void)a7;
        }
    }
    if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000004) {
        unsigned *w = (unsigned *)cpu.brand;
        for (unsigned leaf = 0; leaf < 3; leaf++)
            __get_cpuid(0x80000002 + leaf, &w[4 * leaf], &w[4 * leaf + 1], &w[4 * leaf + 2],
                        &w[4 * leaf + 3]);
        cpu.brand[63] = 0;
        /* trim leading/trailing blanks */
        char *s = cpu.brand;
        while (*s == ' ') s++;
        memmove(cpu.brand, s, strlen(s) + 1);
        size_t n = strlen(cpu.brand);
        while (n > 0 && cpu.brand[n - 1] == ' ') cpu.brand[--n] = 0;
    }
}

void czk_cpu_info_get(czk_cpu_info *info)
{
    pthread_once(&cpu_once, detect);
    *info = cpu;
}

int czk_cpu_has_adx(void)
{
    pthread_once(&cpu_once, detect);
    return cpu.adx;
}

int czk_cpu_has_bmi2(void)
{
    pthread_once(&cpu_once, detect);
    return cpu.bmi2;
}

int czk_cpu_has_avx2(void)
{
    pthread_once(&cpu_once, detect);
    return cpu.avx2;
}

int czk_cpu_has_avx512ifma(void)
{
    pthread_once(&cpu_once, detect);
    return cpu.avx512ifma;
}

int czk_threads(void)
{
    if (thread_override > 0) return thread_override;
    const char *e = getenv("CZK_THREADS");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (*end == 0 && v > 0 && v <= 4096) return (int)v;
    }
    pthread_once(&cpu_once, detect);
    return cpu.online_cpus;
}

void czk_set_threads(int n)
{
    thread_override = n > 0 ? n : 0;
    omp_set_num_threads(czk_threads());
}

const char *czk_build_compiler(void) { return CZK_BUILD_COMPILER; }
const char *czk_build_flags(void) { return CZK_BUILD_FLAGS; }
const char *czk_build_type(void) { return CZK_BUILD_TYPE; }
