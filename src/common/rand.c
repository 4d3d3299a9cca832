#include "czk/rand.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "common/chacha.h"

/* One ChaCha20 block (RFC 8439): word 12 the block counter, 13-15 the nonce. */
static void chacha_block(czk_rng *rng)
{
    const uint32_t iv[4] = {rng->counter++, rng->nonce[0], rng->nonce[1], rng->nonce[2]};
    uint32_t x[16];
    czk__chacha_block(x, rng->key, iv, 20);
    for (int i = 0; i < 16; i++) {
        rng->buf[4 * i + 0] = (uint8_t)x[i];
        rng->buf[4 * i + 1] = (uint8_t)(x[i] >> 8);
        rng->buf[4 * i + 2] = (uint8_t)(x[i] >> 16);
        rng->buf[4 * i + 3] = (uint8_t)(x[i] >> 24);
    }
    if (rng->counter == 0) rng->nonce[0]++; /* 2^32 blocks: move to the next nonce */
    rng->pos = 0;
}

void czk_rng_seed_stream(czk_rng *rng, uint64_t seed, uint64_t stream)
{
    memset(rng, 0, sizeof *rng);
    /* Spread the seed with splitmix64 so nearby seeds give unrelated keys. */
    uint64_t z = seed;
    for (int i = 0; i < 4; i++) {
        z += 0x9e3779b97f4a7c15ULL;
        uint64_t v = z;
        v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
        v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
        v ^= v >> 31;
        rng->key[2 * i] = (uint32_t)v;
        rng->key[2 * i + 1] = (uint32_t)(v >> 32);
    }
    rng->nonce[1] = (uint32_t)stream;
    rng->nonce[2] = (uint32_t)(stream >> 32);
    rng->pos = 64;
}

void czk_rng_seed(czk_rng *rng, uint64_t seed)
{
    czk_rng_seed_stream(rng, seed, 0);
}

czk_status czk_os_random(void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n > 0) {
        ssize_t got = getrandom(p, n > 256 ? 256 : n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            return czk_error(CZK_ERR_IO, "getrandom failed: %s", strerror(errno));
        }
        p += got;
        n -= (size_t)got;
    }
    return CZK_OK;
}

czk_status czk_rng_from_os(czk_rng *rng)
{
    memset(rng, 0, sizeof *rng);
    czk_status s = czk_os_random(rng->key, sizeof rng->key);
    if (s != CZK_OK) return s;
    s = czk_os_random(rng->nonce, sizeof rng->nonce);
    rng->pos = 64;
    return s;
}

void czk_rng_bytes(czk_rng *rng, void *out, size_t n)
{
    uint8_t *o = out;
    while (n > 0) {
        if (rng->pos == 64) chacha_block(rng);
        size_t take = 64 - rng->pos;
        if (take > n) take = n;
        memcpy(o, rng->buf + rng->pos, take);
        rng->pos += (unsigned)take;
        o += take;
        n -= take;
    }
}

uint64_t czk_rng_u64(czk_rng *rng)
{
    uint8_t b[8];
    czk_rng_bytes(rng, b, 8);
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | b[i];
    return v;
}

uint64_t czk_rng_below(czk_rng *rng, uint64_t bound)
{
    if (bound <= 1) return 0;
    uint64_t rem = (UINT64_MAX % bound + 1) % bound; /* 2^64 mod bound */
    if (rem == 0) return czk_rng_u64(rng) % bound;
    uint64_t limit = (uint64_t)0 - rem; /* largest multiple of bound below 2^64 */
    for (;;) {
        uint64_t v = czk_rng_u64(rng);
        if (v < limit) return v % bound;
    }
}

void czk_rng_clear(czk_rng *rng)
{
    volatile uint8_t *p = (volatile uint8_t *)rng;
    for (size_t i = 0; i < sizeof *rng; i++) p[i] = 0;
}
