/* Little-endian integers read from unaligned bytes (file formats: the
 * circom containers, the vanilla proofs' bincode). Internal to czk. */
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

#endif
