/* Big buffers: the vectors of a partition (a, b, c, the witness), the PCE
 * arrays, parameter sections, prover scratch. Internal to czk.
 *
 * A buffer of at least CZK__BIG_MMAP_MIN bytes is its own anonymous mapping,
 * 2 MiB aligned and advised MADV_HUGEPAGE, so that where transparent huge
 * pages are enabled ("always" or "madvise") the kernel backs it with 2 MiB
 * pages: one fault (and one kernel zeroing) per 2 MiB instead of 512 faults,
 * and a release without a per-4-KiB-page cost. Where the advice or the
 * alignment cannot be had, the buffer works the same on 4 KiB pages (the
 * fallback is silent). Smaller buffers, and every buffer in a sanitizer build
 * (CZK_SANITIZED: AddressSanitizer then sees them), come from calloc.
 *
 * Contract: a buffer returned by czk__big_alloc or the grown part of one
 * returned by czk__big_realloc reads as zero (fresh anonymous pages are
 * zero), so callers never zero it themselves. It is released with
 * czk__big_free (never free()); the size is recorded with the buffer.
 *
 * CZK_HUGEPAGES=0 in the environment leaves out the MADV_HUGEPAGE advice
 * (a before/after comparison in one binary). */
#ifndef CZK_COMMON_BIGMEM_H
#define CZK_COMMON_BIGMEM_H

#include <stddef.h>
#include <stdint.h>

#define CZK__BIG_HUGE ((size_t)2 << 20)
#define CZK__BIG_MMAP_MIN CZK__BIG_HUGE

/* A zeroed buffer of `bytes` (0 is allowed), 64-byte aligned (2 MiB when
 * mapped); NULL when the memory cannot be had (errno ENOMEM). */
void *czk__big_alloc(size_t bytes);
/* Grow or shrink p (NULL: allocate) to `bytes`, keeping its contents up to
 * the smaller size; bytes past the old size read as zero. Grows a mapping in
 * place when the address range after it is free, else moves it. NULL on
 * failure, p untouched. */
void *czk__big_realloc(void *p, size_t bytes);
/* Release p (NULL: nothing): munmap for a mapping. */
void czk__big_free(void *p);
/* The size p was allocated with (0 for NULL). */
size_t czk__big_size(const void *p);

/* Fault in [p, p + bytes) of a buffer now, on `threads` threads (0: all),
 * writable, so that later writes take no page faults. The pages keep their
 * contents (zero for fresh ones). Uses MADV_POPULATE_WRITE where the kernel
 * has it (5.14+), else touches one byte per page (a read-modify-write of
 * 0 + existing value, which changes nothing). */
void czk__big_populate(void *p, size_t bytes, int threads);

/* Process-wide counters since start: mappings made, bytes mapped now and at
 * peak, bytes advised MADV_HUGEPAGE. */
typedef struct czk__big_stats {
    uint64_t maps, bytes_now, bytes_peak, bytes_advised;
} czk__big_stats;
void czk__big_stats_get(czk__big_stats *s);

#endif
