/* czk — native SHA-256 (FIPS 180-4), the twin of the SHA-256 gadget. */
#ifndef CZK_SHA256_H
#define CZK_SHA256_H

#include "czk/common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CZK_SHA256_DIGEST 32
#define CZK_SHA256_BLOCK 64

typedef struct czk_sha256_ctx {
    uint32_t h[8];
    uint64_t len; /* bytes absorbed */
    uint8_t buf[64];
    uint32_t nbuf;
} czk_sha256_ctx;

/* The initial hash value H(0) (FIPS 180-4 §5.3.3) and round constants K. */
extern const uint32_t CZK_SHA256_IV[8];
extern const uint32_t CZK_SHA256_K[64];

void czk_sha256_init(czk_sha256_ctx *c);
void czk_sha256_update(czk_sha256_ctx *c, const void *data, size_t n);
void czk_sha256_final(czk_sha256_ctx *c, uint8_t out[CZK_SHA256_DIGEST]);
/* One-shot hash. */
void czk_sha256(uint8_t out[CZK_SHA256_DIGEST], const void *data, size_t n);
/* The compression function on one 64-byte block: state updated in place
 * (no padding). */
void czk_sha256_compress(uint32_t state[8], const uint8_t block[CZK_SHA256_BLOCK]);

#ifdef __cplusplus
}
#endif
#endif
