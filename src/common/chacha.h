/* The ChaCha block function (RFC 8439 §2.3), one home for czk's two users:
 * czk_rng (ChaCha20, common/rand.c) and Filecoin's graph and synthetic
 * challenges (ChaCha8 as rand_chacha's ChaCha8Rng, ChaCha20 with the IETF
 * nonce; filecoin/graph.c). Internal to czk. */
#ifndef CZK_COMMON_CHACHA_H
#define CZK_COMMON_CHACHA_H

#include <stdint.h>

/* out = the block for key and words 12..15 (iv: counter and nonce as the
 * caller lays them out), after `rounds` rounds (8, 12, 20), the input added. */
void czk__chacha_block(uint32_t out[16], const uint32_t key[8], const uint32_t iv[4], int rounds);

/* The same with a 64-bit counter in words 12-13 and a 64-bit stream in
 * words 14-15 (rand_chacha's layout). */
static inline void czk__chacha_block64(uint32_t out[16], const uint32_t key[8], uint64_t counter, uint64_t stream,
                                       int rounds)
{
    const uint32_t iv[4] = {(uint32_t)counter, (uint32_t)(counter >> 32), (uint32_t)stream,
                            (uint32_t)(stream >> 32)};
    czk__chacha_block(out, key, iv, rounds);
}

#endif
