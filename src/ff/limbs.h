/* czk ff — generic multi-limb Montgomery arithmetic (portable, unsigned __int128).
 *
 * Internal. Every function takes the limb count n as a compile-time constant
 * at its call sites (the functions are always inlined), so each field gets a
 * fully unrolled copy. Moduli must leave the top bit of the top limb clear
 * (m < 2^(64n - 1)); both BLS12-381 fields do, which lets add/dbl skip the
 * carry-out word and the Montgomery product skip the extra CIOS word.
 */
#ifndef CZK_FF_LIMBS_H
#define CZK_FF_LIMBS_H

#include <stdint.h>

#include "czk/common.h"

typedef unsigned __int128 czk__u128;

/* Full unrolling of the limb loops (GCC leaves the outer CIOS loop rolled
 * and spills otherwise). */
#if defined(__clang__)
#define CZK__UNROLL _Pragma("unroll")
#elif defined(__GNUC__)
#define CZK__UNROLL _Pragma("GCC unroll 16")
#else
#define CZK__UNROLL
#endif

/* r = a + b, returns the carry out. */
CZK_INLINE uint64_t czk__limbs_add(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t c = 0;
    for (int i = 0; i < n; i++) {
        czk__u128 t = (czk__u128)a[i] + b[i] + c;
        r[i] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
    return c;
}

/* r = a - b, returns the borrow out (0 or 1). */
CZK_INLINE uint64_t czk__limbs_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t br = 0;
    for (int i = 0; i < n; i++) {
        czk__u128 t = (czk__u128)a[i] - b[i] - br;
        r[i] = (uint64_t)t;
        br = (uint64_t)(t >> 64) & 1;
    }
    return br;
}

/* r = mask ? a : b, mask all-ones or zero. */
CZK_INLINE void czk__limbs_select(uint64_t *r, uint64_t mask, const uint64_t *a, const uint64_t *b,
                                  int n)
{
    for (int i = 0; i < n; i++) r[i] = (a[i] & mask) | (b[i] & ~mask);
}

/* All-ones if a == 0 (constant time). */
CZK_INLINE uint64_t czk__limbs_is_zero_mask(const uint64_t *a, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++) acc |= a[i];
    return ((acc | (0 - acc)) >> 63) - 1;
}

/* All-ones if a == b (constant time). */
CZK_INLINE uint64_t czk__limbs_eq_mask(const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t acc = 0;
    for (int i = 0; i < n; i++) acc |= a[i] ^ b[i];
    return ((acc | (0 - acc)) >> 63) - 1;
}

/* 1 if a < b as integers (constant time). */
CZK_INLINE uint64_t czk__limbs_lt(const uint64_t *a, const uint64_t *b, int n)
{
    uint64_t br = 0;
    for (int i = 0; i < n; i++) {
        czk__u128 t = (czk__u128)a[i] - b[i] - br;
        br = (uint64_t)(t >> 64) & 1;
    }
    return br;
}

/* r = t - m if t >= m else t, for t < 2m (constant time). */
CZK_INLINE void czk__limbs_reduce_once(uint64_t *r, const uint64_t *t, const uint64_t *m, int n)
{
    uint64_t s[8];
    uint64_t br = czk__limbs_sub(s, t, m, n);
    czk__limbs_select(r, 0 - br, t, s, n);
}

/* r = a + b mod m, a, b < m. */
CZK_INLINE void czk__mod_add(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                             int n)
{
    uint64_t t[8];
    czk__limbs_add(t, a, b, n); /* < 2m < 2^(64n): no carry out */
    czk__limbs_reduce_once(r, t, m, n);
}

/* r = a - b mod m, a, b < m. */
CZK_INLINE void czk__mod_sub(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                             int n)
{
    uint64_t t[8], mm[8];
    uint64_t br = czk__limbs_sub(t, a, b, n);
    for (int i = 0; i < n; i++) mm[i] = m[i] & (0 - br);
    czk__limbs_add(r, t, mm, n);
}

/* r = -a mod m, a < m (0 maps to 0). */
CZK_INLINE void czk__mod_neg(uint64_t *r, const uint64_t *a, const uint64_t *m, int n)
{
    uint64_t t[8];
    uint64_t nz = ~czk__limbs_is_zero_mask(a, n);
    czk__limbs_sub(t, m, a, n);
    for (int i = 0; i < n; i++) r[i] = t[i] & nz;
}

/* Montgomery product r = a b R^-1 mod m, a, b < m: CIOS (Koc, Acar, Kaliski,
 * "Analyzing and comparing Montgomery multiplication algorithms", 1996) with
 * the extra top word dropped, valid when m's top limb is < 2^63 - 1 (the
 * intermediate t stays below 2m < 2^(64n)). */
CZK_INLINE void czk__mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b, const uint64_t *m,
                              uint64_t inv, int n)
{
    uint64_t t[8] = {0};
    CZK__UNROLL
    for (int i = 0; i < n; i++) {
        czk__u128 p = (czk__u128)a[0] * b[i] + t[0];
        uint64_t A = (uint64_t)(p >> 64);
        t[0] = (uint64_t)p;
        uint64_t q = t[0] * inv;
        p = (czk__u128)q * m[0] + t[0];
        uint64_t C = (uint64_t)(p >> 64);
        CZK__UNROLL
        for (int j = 1; j < n; j++) {
            p = (czk__u128)a[j] * b[i] + t[j] + A;
            A = (uint64_t)(p >> 64);
            t[j] = (uint64_t)p;
            p = (czk__u128)q * m[j] + t[j] + C;
            C = (uint64_t)(p >> 64);
            t[j - 1] = (uint64_t)p;
        }
        t[n - 1] = C + A;
    }
    czk__limbs_reduce_once(r, t, m, n);
}

/* Montgomery square: the full 2n-limb square (off-diagonal products
 * doubled), then n word-by-word Montgomery reduction steps. */
CZK_INLINE void czk__mont_sqr(uint64_t *r, const uint64_t *a, const uint64_t *m, uint64_t inv,
                              int n)
{
    uint64_t t[16] = {0};
    CZK__UNROLL
    for (int i = 0; i < n; i++) {
        uint64_t c = 0;
        CZK__UNROLL
        for (int j = i + 1; j < n; j++) {
            czk__u128 p = (czk__u128)a[i] * a[j] + t[i + j] + c;
            t[i + j] = (uint64_t)p;
            c = (uint64_t)(p >> 64);
        }
        t[i + n] = c;
    }
    /* double: t = 2 t (t < 2^(128n - 1)) */
    t[2 * n - 1] = t[2 * n - 2] >> 63;
    for (int i = 2 * n - 2; i > 0; i--) t[i] = (t[i] << 1) | (t[i - 1] >> 63);
    t[0] <<= 1;
    /* add the squares a[i]^2 at position 2i */
    uint64_t c = 0;
    for (int i = 0; i < n; i++) {
        czk__u128 p = (czk__u128)a[i] * a[i];
        czk__u128 s = (czk__u128)t[2 * i] + (uint64_t)p + c;
        t[2 * i] = (uint64_t)s;
        s = (czk__u128)t[2 * i + 1] + (uint64_t)(p >> 64) + (uint64_t)(s >> 64);
        t[2 * i + 1] = (uint64_t)s;
        c = (uint64_t)(s >> 64);
    }
    /* Montgomery reduction (REDC), one word at a time; the carry of step i
     * is added at position i + n. */
    uint64_t hc = 0;
    CZK__UNROLL
    for (int i = 0; i < n; i++) {
        uint64_t q = t[i] * inv;
        uint64_t cc = 0;
        CZK__UNROLL
        for (int j = 0; j < n; j++) {
            czk__u128 p = (czk__u128)q * m[j] + t[i + j] + cc;
            t[i + j] = (uint64_t)p;
            cc = (uint64_t)(p >> 64);
        }
        czk__u128 s = (czk__u128)t[i + n] + cc + hc;
        t[i + n] = (uint64_t)s;
        hc = (uint64_t)(s >> 64);
    }
    /* result t[n..2n) < 2m < 2^(64n), so hc = 0 */
    czk__limbs_reduce_once(r, t + n, m, n);
}

#endif
