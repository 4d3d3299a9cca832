/* The ChaCha block function (chacha.h). */
#include "common/chacha.h"

#include <string.h>

#define ROTL32(v, n) (((v) << (n)) | ((v) >> (32 - (n))))
/* RFC 8439 §2.1 quarter round */
#define QR(a, b, c, d)                                                                  \
    do {                                                                                \
        a += b; d ^= a; d = ROTL32(d, 16);                                              \
        c += d; b ^= c; b = ROTL32(b, 12);                                              \
        a += b; d ^= a; d = ROTL32(d, 8);                                               \
        c += d; b ^= c; b = ROTL32(b, 7);                                               \
    } while (0)

void czk__chacha_block(uint32_t out[16], const uint32_t key[8], const uint32_t iv[4], int rounds)
{
    /* "expand 32-byte k", the key, words 12..15 */
    const uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574, key[0], key[1], key[2], key[3],
                             key[4],     key[5],     key[6],     key[7],     iv[0],  iv[1],  iv[2],  iv[3]};
    uint32_t x[16];
    memcpy(x, in, sizeof x);
    for (int r = 0; r < rounds; r += 2) {
        QR(x[0], x[4], x[8], x[12]); /* columns */
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]); /* diagonals */
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 16; i++) out[i] = x[i] + in[i];
}
