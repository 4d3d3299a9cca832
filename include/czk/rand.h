/* czk — random numbers.
 *
 * czk_rng is a ChaCha20 keystream generator (RFC 8439 block function). Seeded
 * from a u64 it gives reproducible streams for tests and synthetic data;
 * seeded from the OS (getrandom(2)) it is the CSPRNG used for proof
 * randomness and toxic waste.
 */
#ifndef CZK_RAND_H
#define CZK_RAND_H

#include "czk/common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct czk_rng {
    uint32_t key[8];
    uint32_t nonce[3];
    uint32_t counter;
    uint8_t buf[64];
    unsigned pos; /* bytes of buf already used; 64 = empty */
} czk_rng;

/* Deterministic stream from a 64-bit seed. */
void czk_rng_seed(czk_rng *rng, uint64_t seed);

/* Deterministic stream from a 64-bit seed and a stream number (independent
 * streams for threads / partitions). */
void czk_rng_seed_stream(czk_rng *rng, uint64_t seed, uint64_t stream);

/* Key from getrandom(2). Fails only if the OS has no entropy source. */
czk_status czk_rng_from_os(czk_rng *rng) CZK_WUR;

/* Fill buf with n bytes of getrandom(2) output. */
czk_status czk_os_random(void *buf, size_t n) CZK_WUR;

void czk_rng_bytes(czk_rng *rng, void *out, size_t n);
uint64_t czk_rng_u64(czk_rng *rng);
/* Uniform in [0, bound), bound > 0 (rejection sampling, no modulo bias). */
uint64_t czk_rng_below(czk_rng *rng, uint64_t bound);

/* Wipe the generator state. */
void czk_rng_clear(czk_rng *rng);

#ifdef __cplusplus
}
#endif
#endif
