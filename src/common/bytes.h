/* Reading binary formats (the circom containers, the vanilla proofs'
 * bincode): little-endian integers from unaligned bytes, and one bounded
 * read position that every reader keeps (each names its own errors).
 * Internal to czk. */
#ifndef CZK_COMMON_BYTES_H
#define CZK_COMMON_BYTES_H

#include <stdint.h>

static inline uint32_t czk__rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t czk__rd64(const uint8_t *p)
{
    return (uint64_t)czk__rd32(p) | (uint64_t)czk__rd32(p + 4) << 32;
}

/* buf[pos..end) is what is left to read (pos and end are offsets into buf:
 * a file's section keeps its file offsets). */
typedef struct czk__span {
    const uint8_t *buf;
    uint64_t pos, end;
} czk__span;

static inline uint64_t czk__span_left(const czk__span *s) { return s->end - s->pos; }

/* The next n bytes, the position moved past them; NULL (the position
 * unmoved) when fewer than n are left. */
static inline const uint8_t *czk__span_take(czk__span *s, uint64_t n)
{
    if (s->end - s->pos < n) return NULL;
    const uint8_t *p = s->buf + s->pos;
    s->pos += n;
    return p;
}

#endif
