/* Big buffers on their own 2 MiB-aligned mappings with MADV_HUGEPAGE
 * (src/common/bigmem.h). */
#define _GNU_SOURCE
#include "common/bigmem.h"

#include "czk/czk.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

#define MAGIC 0x637a6b2d62696730ull /* "czk-big0" */
#define PAGE 4096u
#define HDR 64u

enum { KIND_HEAP = 1, KIND_MAP = 2 };

/* The 64 bytes before every user pointer. For a mapping they are the end of
 * the 4 KiB page in front of the 2 MiB-aligned user area. */
typedef struct hdr {
    uint64_t magic;
    uint32_t kind, advised;
    size_t bytes;    /* what the caller asked for */
    size_t span;     /* KIND_MAP: the user area mapped, a multiple of 2 MiB */
    uint8_t pad[HDR - 32];
} hdr;

_Static_assert(sizeof(hdr) == HDR, "header size");

static uint64_t st_maps, st_now, st_peak, st_advised;

static hdr *hdr_of(const void *p) { return (hdr *)((uint8_t *)p - HDR); }

static size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }

static int huge_wanted(void)
{
    static int cached = -1;
    int v = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (v < 0) {
        const char *e = getenv("CZK_HUGEPAGES");
        v = !(e && (!strcmp(e, "0") || !strcmp(e, "off") || !strcmp(e, "no")));
        __atomic_store_n(&cached, v, __ATOMIC_RELAXED);
    }
    return v;
}

static void count_map(int64_t delta_bytes, int advised, size_t span)
{
    if (delta_bytes > 0) {
        __atomic_add_fetch(&st_maps, 1, __ATOMIC_RELAXED);
        uint64_t now = __atomic_add_fetch(&st_now, (uint64_t)delta_bytes, __ATOMIC_RELAXED);
        uint64_t peak = __atomic_load_n(&st_peak, __ATOMIC_RELAXED);
        while (now > peak && !__atomic_compare_exchange_n(&st_peak, &peak, now, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            ;
        if (advised) __atomic_add_fetch(&st_advised, span, __ATOMIC_RELAXED);
    } else {
        __atomic_sub_fetch(&st_now, (uint64_t)-delta_bytes, __ATOMIC_RELAXED);
    }
}

static int use_map(size_t bytes)
{
#ifdef CZK_SANITIZED
    (void)bytes;
    return 0;
#else
    return bytes >= CZK__BIG_MMAP_MIN;
#endif
}

static void *heap_alloc(size_t bytes)
{
    if (bytes > SIZE_MAX - HDR) {
        errno = ENOMEM;
        return NULL;
    }
    void *base = NULL;
    if (posix_memalign(&base, HDR, HDR + bytes) != 0) {
        errno = ENOMEM;
        return NULL;
    }
    memset(base, 0, HDR + bytes);
    hdr *h = base;
    h->magic = MAGIC;
    h->kind = KIND_HEAP;
    h->bytes = bytes;
    return (uint8_t *)base + HDR;
}

/* A mapping of PAGE + span bytes whose user area (after the first page) is
 * 2 MiB aligned. */
static void *map_alloc(size_t bytes)
{
    size_t span = round_up(bytes, CZK__BIG_HUGE);
    if (span < bytes || span > SIZE_MAX - PAGE - CZK__BIG_HUGE) {
        errno = ENOMEM;
        return NULL;
    }
    size_t reserve = PAGE + span + CZK__BIG_HUGE;
    uint8_t *r = mmap(NULL, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (r == MAP_FAILED) return NULL;
    uint8_t *user = (uint8_t *)round_up((uintptr_t)r + PAGE, CZK__BIG_HUGE);
    uint8_t *base = user - PAGE;
    if (base > r) munmap(r, (size_t)(base - r));
    uint8_t *end = user + span, *rend = r + reserve;
    if (rend > end) munmap(end, (size_t)(rend - end));
    int advised = huge_wanted() && madvise(user, span, MADV_HUGEPAGE) == 0;
    hdr *h = hdr_of(user);
    h->magic = MAGIC;
    h->kind = KIND_MAP;
    h->advised = (uint32_t)advised;
    h->bytes = bytes;
    h->span = span;
    count_map((int64_t)(PAGE + span), advised, span);
    return user;
}

void *czk__big_alloc(size_t bytes)
{
    return use_map(bytes) ? map_alloc(bytes) : heap_alloc(bytes);
}

size_t czk__big_size(const void *p) { return p ? hdr_of(p)->bytes : 0; }

void czk__big_free(void *p)
{
    if (!p) return;
    hdr *h = hdr_of(p);
    if (h->magic != MAGIC) abort(); /* not a big buffer: a caller's bug */
    h->magic = 0;
    if (h->kind == KIND_HEAP) {
        free(h);
        return;
    }
    size_t len = PAGE + h->span;
    count_map(-(int64_t)len, 0, 0);
    munmap((uint8_t *)p - PAGE, len);
}

void *czk__big_realloc(void *p, size_t bytes)
{
    if (!p) return czk__big_alloc(bytes);
    hdr *h = hdr_of(p);
    if (h->magic != MAGIC) abort();
    size_t old = h->bytes;
    if (h->kind == KIND_MAP) {
        size_t span = round_up(bytes, CZK__BIG_HUGE);
        if (span >= bytes && span <= h->span) { /* fits: clear what a shrink leaves behind, then grow into it */
            if (bytes < old) memset((uint8_t *)p + bytes, 0, old - bytes);
            h->bytes = bytes;
            return p;
        }
        if (span >= bytes && span < SIZE_MAX - PAGE) {
            uint8_t *base = (uint8_t *)p - PAGE;
            void *q = mremap(base, PAGE + h->span, PAGE + span, 0); /* in place only: the alignment stays */
            if (q != MAP_FAILED) {
                int advised = h->advised && madvise((uint8_t *)p + h->span, span - h->span, MADV_HUGEPAGE) == 0;
                count_map((int64_t)(span - h->span), advised, span - h->span);
                h->span = span;
                h->bytes = bytes;
                return p;
            }
        }
    }
    /* heap to heap, heap to mapping, or a mapping that cannot grow in place:
     * a new buffer (64-byte aligned, zero past the copy), then the old one goes */
    void *q = czk__big_alloc(bytes);
    if (!q) return NULL;
    memcpy(q, p, old < bytes ? old : bytes);
    czk__big_free(p);
    return q;
}

/* One write per 4 KiB page of [lo, hi), each storing the byte it read. */
static void touch(uint8_t *lo, uint8_t *hi)
{
    for (uint8_t *q = lo; q < hi; q = (uint8_t *)(((uintptr_t)q / PAGE + 1) * PAGE)) {
        volatile uint8_t *v = q;
        *v = *v;
    }
}

void czk__big_populate(void *p, size_t bytes, int threads)
{
    if (!p || !bytes) return;
    const size_t chunk = (size_t)64 << 20;
    const size_t n = (bytes + chunk - 1) / chunk;
    uint8_t *const start = p;
    int nt = threads > 0 ? threads : czk_threads();
    if (nt < 1) nt = 1;
    int no_madv = 0; /* a kernel without MADV_POPULATE_WRITE: touch instead */
#pragma omp parallel for num_threads(nt) schedule(dynamic, 1) if (n > 1)
    for (size_t i = 0; i < n; i++) {
        uint8_t *a = start + i * chunk, *e = a + (bytes - i * chunk < chunk ? bytes - i * chunk : chunk);
        uint8_t *a4 = (uint8_t *)round_up((uintptr_t)a, PAGE), *e4 = (uint8_t *)((uintptr_t)e / PAGE * PAGE);
        if (e4 > a4 && !__atomic_load_n(&no_madv, __ATOMIC_RELAXED) &&
            madvise(a4, (size_t)(e4 - a4), MADV_POPULATE_WRITE) == 0) {
            touch(a, a4); /* the partial pages at the edges */
            touch(e4, e);
        } else {
            if (e4 > a4) __atomic_store_n(&no_madv, 1, __ATOMIC_RELAXED);
            touch(a, e);
        }
    }
}

void czk__big_stats_get(czk__big_stats *s)
{
    s->maps = __atomic_load_n(&st_maps, __ATOMIC_RELAXED);
    s->bytes_now = __atomic_load_n(&st_now, __ATOMIC_RELAXED);
    s->bytes_peak = __atomic_load_n(&st_peak, __ATOMIC_RELAXED);
    s->bytes_advised = __atomic_load_n(&st_advised, __ATOMIC_RELAXED);
}
