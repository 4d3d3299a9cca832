/* Big buffers (src/common/bigmem.h): zero on allocation and on growth,
 * contents kept by realloc and populate, alignment, the huge-page advice and
 * the counters. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/bigmem.h"
#include "runner.h"

static int all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return 0;
    return 1;
}

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(seed + i * 131u);
}

static int same_fill(const uint8_t *p, size_t n, uint8_t seed)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (uint8_t)(seed + i * 131u)) return 0;
    return 1;
}

CZK_TEST(bigmem_zero_and_sizes)
{
    /* below, at and above the mapping threshold; odd sizes */
    const size_t sizes[] = {0, 1, 100, 4095, CZK__BIG_MMAP_MIN - 1, CZK__BIG_MMAP_MIN, CZK__BIG_MMAP_MIN + 17,
                            (size_t)5 << 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        uint8_t *p = czk__big_alloc(sizes[k]);
        REQUIRE(p != NULL);
        CHECK_EQ_U64(czk__big_size(p), sizes[k]);
        CHECK_MSG(((uintptr_t)p & 63) == 0, "size %zu: %p not 64-byte aligned", sizes[k], (void *)p);
#ifndef CZK_SANITIZED
        if (sizes[k] >= CZK__BIG_MMAP_MIN)
            CHECK_MSG(((uintptr_t)p & (CZK__BIG_HUGE - 1)) == 0, "size %zu: %p not 2 MiB aligned", sizes[k], (void *)p);
#endif
        CHECK_MSG(all_zero(p, sizes[k]), "size %zu: fresh buffer not zero", sizes[k]);
        fill(p, sizes[k], 7);
        CHECK(same_fill(p, sizes[k], 7));
        czk__big_free(p);
    }
    czk__big_free(NULL);
    CHECK_EQ_U64(czk__big_size(NULL), 0);
}

CZK_TEST(bigmem_realloc_keeps_and_zeroes)
{
    /* heap -> heap -> mapping -> bigger mapping -> shrink -> grow back */
    const size_t steps[] = {10, 1000, (size_t)3 << 20, (size_t)9 << 20, (size_t)1 << 20, (size_t)3 << 20, 50};
    uint8_t *p = NULL;
    size_t have = 0;
    for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
        size_t n = steps[k];
        uint8_t *q = czk__big_realloc(p, n);
        REQUIRE(q != NULL);
        size_t kept = have < n ? have : n;
        CHECK_MSG(same_fill(q, kept, 3), "step %zu: contents not kept", k);
        CHECK_MSG(all_zero(q + kept, n - kept), "step %zu: grown part (%zu..%zu) not zero", k, kept, n);
        CHECK_EQ_U64(czk__big_size(q), n);
        CHECK_MSG(((uintptr_t)q & 63) == 0, "step %zu: %p not 64-byte aligned", k, (void *)q);
        /* refill so that the next step's kept prefix is known */
        fill(q, n, 3);
        p = q;
        have = n;
    }
    czk__big_free(p);
}

CZK_TEST(bigmem_populate_keeps_contents)
{
    const size_t n = ((size_t)70 << 20) + 12345; /* two populate chunks and a partial page */
    uint8_t *p = czk__big_alloc(n);
    REQUIRE(p != NULL);
    czk__big_populate(p, n, 2);
    CHECK(all_zero(p, n));
    fill(p, n, 11);
    czk__big_populate(p + 1000, n - 5000, 2); /* unaligned sub-range */
    CHECK(same_fill(p, n, 11));
    czk__big_free(p);
}

/* Where the kernel has transparent huge pages, a mapped buffer is advised
 * MADV_HUGEPAGE (whether 2 MiB pages are then found is the kernel's call,
 * so it is printed, not asserted); the counters follow the mappings. */
CZK_TEST(bigmem_advice_and_counters)
{
    czk__big_stats s0, s1, s2;
    czk__big_stats_get(&s0);
    const size_t n = (size_t)8 << 20;
    uint8_t *p = czk__big_alloc(n);
    REQUIRE(p != NULL);
    czk__big_populate(p, n, 1);
    czk__big_stats_get(&s1);
#ifdef CZK_SANITIZED
    CHECK_EQ_U64(s1.maps, s0.maps); /* sanitizer builds keep big buffers on the heap */
#else
    CHECK_EQ_U64(s1.maps, s0.maps + 1);
    CHECK(s1.bytes_now >= s0.bytes_now + n);
    CHECK(s1.bytes_peak >= s1.bytes_now);
    const char *env = getenv("CZK_HUGEPAGES");
    int off = env && (!strcmp(env, "0") || !strcmp(env, "off") || !strcmp(env, "no"));
    if (access("/sys/kernel/mm/transparent_hugepage/enabled", R_OK) == 0 && !off) {
        CHECK_EQ_U64(s1.bytes_advised, s0.bytes_advised + n);
        /* the kernel's answer, for the log */
        FILE *f = fopen("/proc/self/smaps", "r");
        char line[256];
        unsigned long lo, hi, huge_kb = 0;
        int in = 0;
        while (f && fgets(line, sizeof line, f)) {
            if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) in = lo <= (uintptr_t)p && (uintptr_t)p < hi;
            else if (in && sscanf(line, "AnonHugePages: %lu kB", &huge_kb) == 1) break;
        }
        if (f) fclose(f);
        printf("  bigmem: 8 MiB buffer, %lu KiB of it on huge pages\n", huge_kb);
    }
#endif
    czk__big_free(p);
    czk__big_stats_get(&s2);
    CHECK_EQ_U64(s2.bytes_now, s0.bytes_now);
}
