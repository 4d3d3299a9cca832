/* czk ff — internal: eight field elements at once with AVX-512 IFMA.
 *
 * Only for files compiled with -mavx512f -mavx512ifma (the *_ifma.c files;
 * CMakeLists.txt adds the flags) and only called after czk__field_use_ifma
 * (ff/field_impl.h) said the CPU has the instructions.
 *
 * Layout: lane-major. A czk__v8fp holds 8 Fp elements; l[j] holds limb j of
 * all 8 (lane i of l[j] is limb j of element i). Limbs are radix 2^48, so
 * 8 limbs hold exactly 384 bits and the Montgomery factor is czk's own,
 * R = 2^384: an element's limbs are its czk_fp limbs re-cut into 48-bit
 * pieces, nothing is converted between domains. Every function takes and
 * returns fully reduced elements (< p) with limbs < 2^48.
 *
 * Multiplication: VPMADD52LUQ / VPMADD52HUQ multiply the low 52 bits of two
 * 64-bit lanes and add the low / high 52 bits of the 104-bit product to a
 * third (Intel, "Intel Architecture Instruction Set Extensions Programming
 * Reference", IFMA). With 48-bit limbs, a product a_i b_j < 2^96 is
 * lo + 2^52 hi = lo + 2^48 (hi << 4): the high halves land in the next
 * limb shifted left by 4. Montgomery multiplication by the CIOS schedule
 * (Koc, Acar, Kaliski 1996, "Analyzing and comparing Montgomery
 * multiplication algorithms") in radix 2^48: 8 rounds of t += a_i b;
 * q = t_0 (-p^-1) mod 2^48; t += q p; t >>= 48. The high halves are
 * accumulated apart and shifted once per column; limbs of t stay below
 * 2^58, so no carry is propagated until the end (one pass, then one
 * conditional subtraction of p: t < 2p since a, b < p < 2^381). 136 + 128
 * multiply-adds for 8 products; about 3x the throughput of the scalar
 * MULX/ADX multiplication on the development machine (README.md).
 */
#ifndef CZK_FF_VEC_IFMA_H
#define CZK_FF_VEC_IFMA_H

#if defined(__AVX512F__) && defined(__AVX512IFMA__)
#define CZK_HAVE_IFMA_KERNELS 1

#include <immintrin.h>
#include <stdint.h>

#include "czk/field.h"
#include "czk/tower.h"

#define CZK_V8_M48 0xffffffffffffULL

typedef struct czk__v8fp {
    __m512i l[8];
} czk__v8fp;

typedef struct czk__v8fp2 {
    czk__v8fp c0, c1;
} czk__v8fp2;

/* p in radix 2^48 and -p^-1 mod 2^48. */
static const uint64_t czk__v8_p48[8] = {0xffffffffaaabULL, 0xb153ffffb9feULL, 0xf6241eabfffeULL, 0x6730d2a0f6b0ULL,
                                        0x4b84f38512bfULL, 0x434bacd76477ULL, 0xe69a4b1ba7b6ULL, 0x1a0111ea397fULL};
#define CZK_V8_P_N0 0xfffcfffcfffdULL

CZK_INLINE __m512i czk__v8_bc(uint64_t x) { return _mm512_set1_epi64((long long)x); }

/* Six 64-bit limbs (lane-major) -> eight 48-bit limbs. */
CZK_INLINE void czk__v8fp_from64(czk__v8fp *r, const __m512i w[6])
{
    const __m512i m = czk__v8_bc(CZK_V8_M48);
    r->l[0] = _mm512_and_si512(w[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 48), _mm512_slli_epi64(w[1], 16)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 32), _mm512_slli_epi64(w[2], 32)), m);
    r->l[3] = _mm512_srli_epi64(w[2], 16);
    r->l[4] = _mm512_and_si512(w[3], m);
    r->l[5] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[3], 48), _mm512_slli_epi64(w[4], 16)), m);
    r->l[6] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[4], 32), _mm512_slli_epi64(w[5], 32)), m);
    r->l[7] = _mm512_srli_epi64(w[5], 16);
}

/* Eight 48-bit limbs -> six 64-bit limbs. */
CZK_INLINE void czk__v8fp_to64(__m512i w[6], const czk__v8fp *a)
{
    w[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 48));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 16), _mm512_slli_epi64(a->l[2], 32));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 32), _mm512_slli_epi64(a->l[3], 16));
    w[3] = _mm512_or_si512(a->l[4], _mm512_slli_epi64(a->l[5], 48));
    w[4] = _mm512_or_si512(_mm512_srli_epi64(a->l[5], 16), _mm512_slli_epi64(a->l[6], 32));
    w[5] = _mm512_or_si512(_mm512_srli_epi64(a->l[6], 32), _mm512_slli_epi64(a->l[7], 16));
}

/* Lane i <- the czk_fp at byte address addr[i] + off (lanes outside k: zero,
 * nothing read). */
CZK_INLINE void czk__v8fp_gather(czk__v8fp *r, __m512i addr, long off, __mmask8 k)
{
    __m512i w[6];
    const __m512i z = _mm512_setzero_si512();
    for (int j = 0; j < 6; j++)
        w[j] = _mm512_mask_i64gather_epi64(z, k, _mm512_add_epi64(addr, czk__v8_bc((uint64_t)(off + 8 * j))),
                                           (const void *)0, 1);
    czk__v8fp_from64(r, w);
}

/* The czk_fp at addr[i] + off <- lane i, for lanes in k. */
CZK_INLINE void czk__v8fp_scatter(__m512i addr, long off, const czk__v8fp *a, __mmask8 k)
{
    __m512i w[6];
    czk__v8fp_to64(w, a);
    for (int j = 0; j < 6; j++)
        _mm512_mask_i64scatter_epi64((void *)0, k, _mm512_add_epi64(addr, czk__v8_bc((uint64_t)(off + 8 * j))), w[j],
                                     1);
}

/* Lanes <- x[0..7] / x[0..7] <- lanes. */
CZK_INLINE void czk__v8fp_load(czk__v8fp *r, const czk_fp x[8])
{
    __m512i w[6];
    for (int j = 0; j < 6; j++)
        w[j] = _mm512_set_epi64((long long)x[7].l[j], (long long)x[6].l[j], (long long)x[5].l[j],
                                (long long)x[4].l[j], (long long)x[3].l[j], (long long)x[2].l[j],
                                (long long)x[1].l[j], (long long)x[0].l[j]);
    czk__v8fp_from64(r, w);
}

CZK_INLINE void czk__v8fp_store(czk_fp x[8], const czk__v8fp *a)
{
    __m512i w[6];
    uint64_t t[8];
    czk__v8fp_to64(w, a);
    for (int j = 0; j < 6; j++) {
        _mm512_storeu_si512(t, w[j]);
        for (int i = 0; i < 8; i++) x[i].l[j] = t[i];
    }
}

/* Every lane <- x. */
CZK_INLINE void czk__v8fp_set1(czk__v8fp *r, const czk_fp *x)
{
    __m512i w[6];
    for (int j = 0; j < 6; j++) w[j] = czk__v8_bc(x->l[j]);
    czk__v8fp_from64(r, w);
}

/* r = a b R^-1 mod p (CIOS, radix 2^48; see the header comment). a and b
 * reduced, or a lazy difference (czk__v8fp_sub_lazy) and b reduced. */
CZK_INLINE void czk__v8fp_mul(czk__v8fp *r, const czk__v8fp *a, const czk__v8fp *b)
{
    const __m512i z = _mm512_setzero_si512(), m = czk__v8_bc(CZK_V8_M48), n0 = czk__v8_bc(CZK_V8_P_N0);
    __m512i t[9], h[9];
    for (int k = 0; k < 9; k++) t[k] = z, h[k] = z;
    for (int i = 0; i < 8; i++) {
        for (int j = 0; j < 8; j++) { /* t += a_i b: low halves in limb j, high halves in limb j + 1 */
            t[j] = _mm512_madd52lo_epu64(t[j], a->l[i], b->l[j]);
            h[j + 1] = _mm512_madd52hi_epu64(h[j + 1], a->l[i], b->l[j]);
        }
        __m512i t0 = _mm512_add_epi64(t[0], _mm512_slli_epi64(h[0], 4));
        __m512i q = _mm512_and_si512(_mm512_madd52lo_epu64(z, t0, n0), m); /* q = t_0 (-p^-1) mod 2^48 */
        t0 = _mm512_madd52lo_epu64(t0, q, czk__v8_bc(czk__v8_p48[0]));
        h[1] = _mm512_madd52hi_epu64(h[1], q, czk__v8_bc(czk__v8_p48[0]));
        for (int j = 1; j < 8; j++) { /* t += q p */
            t[j] = _mm512_madd52lo_epu64(t[j], q, czk__v8_bc(czk__v8_p48[j]));
            h[j + 1] = _mm512_madd52hi_epu64(h[j + 1], q, czk__v8_bc(czk__v8_p48[j]));
        }
        __m512i c = _mm512_srli_epi64(t0, 48); /* t_0 = 0 mod 2^48: shift one limb down */
        for (int j = 0; j < 8; j++) t[j] = t[j + 1], h[j] = h[j + 1];
        t[0] = _mm512_add_epi64(t[0], c);
        t[8] = z, h[8] = z;
    }
    /* carry pass, then t - p if t >= p */
    __m512i c = z, s[8], bor = z;
    for (int j = 0; j < 8; j++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(t[j], _mm512_slli_epi64(h[j], 4)), c);
        c = _mm512_srli_epi64(v, 48);
        t[j] = _mm512_and_si512(v, m);
    }
    for (int j = 0; j < 8; j++) {
        __m512i v = _mm512_sub_epi64(_mm512_sub_epi64(t[j], czk__v8_bc(czk__v8_p48[j])), bor);
        bor = _mm512_srli_epi64(v, 63);
        s[j] = _mm512_and_si512(v, m);
    }
    __mmask8 ge = _mm512_cmpeq_epi64_mask(bor, z);
    for (int j = 0; j < 8; j++) r->l[j] = _mm512_mask_mov_epi64(t[j], ge, s[j]);
}

CZK_INLINE void czk__v8fp_sqr(czk__v8fp *r, const czk__v8fp *a) { czk__v8fp_mul(r, a, a); }

/* r = a + b mod p. */
CZK_INLINE void czk__v8fp_add(czk__v8fp *r, const czk__v8fp *a, const czk__v8fp *b)
{
    const __m512i z = _mm512_setzero_si512(), m = czk__v8_bc(CZK_V8_M48);
    __m512i t[8], s[8], c = z, bor = z;
    for (int j = 0; j < 8; j++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(a->l[j], b->l[j]), c);
        c = _mm512_srli_epi64(v, 48);
        t[j] = _mm512_and_si512(v, m);
    }
    /* a + b < 2p < 2^384: no carry out of limb 7 */
    for (int j = 0; j < 8; j++) {
        __m512i v = _mm512_sub_epi64(_mm512_sub_epi64(t[j], czk__v8_bc(czk__v8_p48[j])), bor);
        bor = _mm512_srli_epi64(v, 63);
        s[j] = _mm512_and_si512(v, m);
    }
    __mmask8 ge = _mm512_cmpeq_epi64_mask(bor, z);
    for (int j = 0; j < 8; j++) r->l[j] = _mm512_mask_mov_epi64(t[j], ge, s[j]);
}

/* r = a - b mod p: a - b, plus p where it borrowed. */
CZK_INLINE void czk__v8fp_sub(czk__v8fp *r, const czk__v8fp *a, const czk__v8fp *b)
{
    const __m512i z = _mm512_setzero_si512(), m = czk__v8_bc(CZK_V8_M48);
    __m512i t[8], bor = z, c = z;
    for (int j = 0; j < 8; j++) {
        __m512i v = _mm512_sub_epi64(_mm512_sub_epi64(a->l[j], b->l[j]), bor);
        bor = _mm512_srli_epi64(v, 63);
        t[j] = _mm512_and_si512(v, m);
    }
    __mmask8 neg = _mm512_cmpneq_epi64_mask(bor, z);
    for (int j = 0; j < 8; j++) {
        __m512i pj = _mm512_maskz_mov_epi64(neg, czk__v8_bc(czk__v8_p48[j]));
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(t[j], pj), c);
        c = _mm512_srli_epi64(v, 48);
        r->l[j] = _mm512_and_si512(v, m);
    }
}

/* Lazy differences, only as the first operand of czk__v8fp_mul. K = 8p with
 * every limb below the top raised by 2^49 - 2 (limb 0 by 2^49) and the top
 * one lowered by 2: the same value, with each limb >= 2^49 - 2 >= the sum of
 * two 48-bit limbs (and the top one >= 2 p_7). So for reduced a, b the
 * limbwise a + K - b and K - a - b need no borrow: limbs < 2^51, value
 * < 9p. czk__v8fp_mul accepts such an a when b is reduced: a b < 9p^2 and
 * p / 2^384 < 0.102, so (a b + q p) / 2^384 < 0.92p + p < 2p, and its
 * result is reduced. */
static const uint64_t czk__v8_p8b[8] = {0x2fffffffd5558ULL, 0x28a9ffffdcff5ULL, 0x2b120f55ffff3ULL, 0x239869507b585ULL,
                                        0x25c279c2895f9ULL, 0x21a5d66bb23b8ULL, 0x234d258dd3db0ULL, 0xd0088f51cbfdULL};

/* r = a - b + 8p (lazy, see above). */
CZK_INLINE void czk__v8fp_sub_lazy(czk__v8fp *r, const czk__v8fp *a, const czk__v8fp *b)
{
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_sub_epi64(_mm512_add_epi64(a->l[j], czk__v8_bc(czk__v8_p8b[j])), b->l[j]);
}

/* r = 8p - a - b (lazy): -a - b. */
CZK_INLINE void czk__v8fp_negsub_lazy(czk__v8fp *r, const czk__v8fp *a, const czk__v8fp *b)
{
    for (int j = 0; j < 8; j++)
        r->l[j] = _mm512_sub_epi64(_mm512_sub_epi64(czk__v8_bc(czk__v8_p8b[j]), a->l[j]), b->l[j]);
}

/* r = -a in the lanes of k, a elsewhere. */
CZK_INLINE void czk__v8fp_cneg(czk__v8fp *r, const czk__v8fp *a, __mmask8 k)
{
    czk__v8fp n, zero;
    for (int j = 0; j < 8; j++) zero.l[j] = _mm512_setzero_si512();
    czk__v8fp_sub(&n, &zero, a);
    for (int j = 0; j < 8; j++) r->l[j] = _mm512_mask_mov_epi64(a->l[j], k, n.l[j]);
}

/* r = x in the lanes of k, a elsewhere. */
CZK_INLINE void czk__v8fp_blend(czk__v8fp *r, const czk__v8fp *a, const czk__v8fp *x, __mmask8 k)
{
    for (int j = 0; j < 8; j++) r->l[j] = _mm512_mask_mov_epi64(a->l[j], k, x->l[j]);
}

/* ---- Fp2 = Fp[u] / (u^2 + 1) ----------------------------------------------- */

CZK_INLINE void czk__v8fp2_gather(czk__v8fp2 *r, __m512i addr, long off, __mmask8 k)
{
    czk__v8fp_gather(&r->c0, addr, off, k);
    czk__v8fp_gather(&r->c1, addr, off + (long)sizeof(czk_fp), k);
}

CZK_INLINE void czk__v8fp2_scatter(__m512i addr, long off, const czk__v8fp2 *a, __mmask8 k)
{
    czk__v8fp_scatter(addr, off, &a->c0, k);
    czk__v8fp_scatter(addr, off + (long)sizeof(czk_fp), &a->c1, k);
}

CZK_INLINE void czk__v8fp2_add(czk__v8fp2 *r, const czk__v8fp2 *a, const czk__v8fp2 *b)
{
    czk__v8fp_add(&r->c0, &a->c0, &b->c0);
    czk__v8fp_add(&r->c1, &a->c1, &b->c1);
}

CZK_INLINE void czk__v8fp2_sub(czk__v8fp2 *r, const czk__v8fp2 *a, const czk__v8fp2 *b)
{
    czk__v8fp_sub(&r->c0, &a->c0, &b->c0);
    czk__v8fp_sub(&r->c1, &a->c1, &b->c1);
}

/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u (Karatsuba: 3M). */
CZK_INLINE void czk__v8fp2_mul(czk__v8fp2 *r, const czk__v8fp2 *a, const czk__v8fp2 *b)
{
    czk__v8fp t0, t1, sa, sb;
    czk__v8fp_mul(&t0, &a->c0, &b->c0);
    czk__v8fp_mul(&t1, &a->c1, &b->c1);
    czk__v8fp_add(&sa, &a->c0, &a->c1);
    czk__v8fp_add(&sb, &b->c0, &b->c1);
    czk__v8fp_mul(&sa, &sa, &sb);
    czk__v8fp_sub(&r->c0, &t0, &t1);
    czk__v8fp_sub(&sa, &sa, &t0);
    czk__v8fp_sub(&r->c1, &sa, &t1);
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u (2M). */
CZK_INLINE void czk__v8fp2_sqr(czk__v8fp2 *r, const czk__v8fp2 *a)
{
    czk__v8fp s, d, p;
    czk__v8fp_add(&s, &a->c0, &a->c1);
    czk__v8fp_sub(&d, &a->c0, &a->c1);
    czk__v8fp_mul(&p, &a->c0, &a->c1);
    czk__v8fp_mul(&r->c0, &s, &d);
    czk__v8fp_add(&r->c1, &p, &p);
}

CZK_INLINE void czk__v8fp2_cneg(czk__v8fp2 *r, const czk__v8fp2 *a, __mmask8 k)
{
    czk__v8fp_cneg(&r->c0, &a->c0, k);
    czk__v8fp_cneg(&r->c1, &a->c1, k);
}

CZK_INLINE void czk__v8fp2_blend(czk__v8fp2 *r, const czk__v8fp2 *a, const czk__v8fp2 *x, __mmask8 k)
{
    czk__v8fp_blend(&r->c0, &a->c0, &x->c0, k);
    czk__v8fp_blend(&r->c1, &a->c1, &x->c1, k);
}

CZK_INLINE void czk__v8fp2_load(czk__v8fp2 *r, const czk_fp2 x[8])
{
    czk_fp a[8], b[8];
    for (int i = 0; i < 8; i++) a[i] = x[i].c0, b[i] = x[i].c1;
    czk__v8fp_load(&r->c0, a);
    czk__v8fp_load(&r->c1, b);
}

CZK_INLINE void czk__v8fp2_store(czk_fp2 x[8], const czk__v8fp2 *v)
{
    czk_fp a[8], b[8];
    czk__v8fp_store(a, &v->c0);
    czk__v8fp_store(b, &v->c1);
    for (int i = 0; i < 8; i++) x[i].c0 = a[i], x[i].c1 = b[i];
}

CZK_INLINE void czk__v8fp2_set1(czk__v8fp2 *r, const czk_fp2 *x)
{
    czk__v8fp_set1(&r->c0, &x->c0);
    czk__v8fp_set1(&r->c1, &x->c1);
}


/* ---- Fr: radix 2^52, five limbs --------------------------------------------
 * A czk__v8fr holds 8 Fr elements as five 52-bit limbs (260 bits, r < 2^255)
 * in Montgomery form with czk's R = 2^256. The Montgomery reduction runs four
 * rounds of 52 bits and a last one of 48 (q = t_0 (-r^-1) mod 2^48), 256 bits
 * in all, then shifts the sum right by 48 bits: the elements stay czk_fr
 * values, re-cut into 52-bit pieces. Fully reduced in and out. */

typedef struct czk__v8fr {
    __m512i l[5];
} czk__v8fr;

#define CZK_V8_M52 0xfffffffffffffULL
#define CZK_V8_R_N0 0xffffeffffffffULL /* -r^-1 mod 2^52 (its low 48 bits: mod 2^48) */
static const uint64_t czk__v8_r52[5] = {0xfffff00000001ULL, 0x2fffe5bfefffULL, 0x9a1d80553bda4ULL, 0x7d483339d8080ULL,
                                        0x73eda753299dULL};

/* Four 64-bit limbs (lane-major) <-> five 52-bit limbs. */
CZK_INLINE void czk__v8fr_from64(czk__v8fr *r, const __m512i w[4])
{
    const __m512i m = czk__v8_bc(CZK_V8_M52);
    r->l[0] = _mm512_and_si512(w[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 52), _mm512_slli_epi64(w[1], 12)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 40), _mm512_slli_epi64(w[2], 24)), m);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[2], 28), _mm512_slli_epi64(w[3], 36)), m);
    r->l[4] = _mm512_srli_epi64(w[3], 16);
}

CZK_INLINE void czk__v8fr_to64(__m512i w[4], const czk__v8fr *a)
{
    w[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 52));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 12), _mm512_slli_epi64(a->l[2], 40));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 24), _mm512_slli_epi64(a->l[3], 28));
    w[3] = _mm512_or_si512(_mm512_srli_epi64(a->l[3], 36), _mm512_slli_epi64(a->l[4], 16));
}

/* 8 consecutive czk_fr at x (256 bytes, any alignment) <-> lanes 0..7: a 4 x 8
 * transpose of 64-bit words (two elements per register) by permutations. */
CZK_INLINE void czk__v8fr_loadu(czk__v8fr *r, const czk_fr *x)
{
    const __m512i z0 = _mm512_loadu_si512((const void *)x), z1 = _mm512_loadu_si512((const void *)(x + 2));
    const __m512i z2 = _mm512_loadu_si512((const void *)(x + 4)), z3 = _mm512_loadu_si512((const void *)(x + 6));
    const __m512i i01 = _mm512_set_epi64(13, 9, 5, 1, 12, 8, 4, 0), i23 = _mm512_set_epi64(15, 11, 7, 3, 14, 10, 6, 2);
    __m512i a = _mm512_permutex2var_epi64(z0, i01, z1), b = _mm512_permutex2var_epi64(z2, i01, z3);
    __m512i c = _mm512_permutex2var_epi64(z0, i23, z1), d = _mm512_permutex2var_epi64(z2, i23, z3);
    __m512i w[4];
    w[0] = _mm512_shuffle_i64x2(a, b, 0x44);
    w[1] = _mm512_shuffle_i64x2(a, b, 0xee);
    w[2] = _mm512_shuffle_i64x2(c, d, 0x44);
    w[3] = _mm512_shuffle_i64x2(c, d, 0xee);
    czk__v8fr_from64(r, w);
}

CZK_INLINE void czk__v8fr_storeu(czk_fr *x, const czk__v8fr *v)
{
    __m512i w[4];
    czk__v8fr_to64(w, v);
    /* A = [w0[0] w1[0] w0[1] w1[1] w0[2] w1[2] w0[3] w1[3]], A' the same for lanes 4..7; B, B' from w2, w3 */
    const __m512i lo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), hi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    __m512i A = _mm512_permutex2var_epi64(w[0], lo, w[1]), A2 = _mm512_permutex2var_epi64(w[0], hi, w[1]);
    __m512i B = _mm512_permutex2var_epi64(w[2], lo, w[3]), B2 = _mm512_permutex2var_epi64(w[2], hi, w[3]);
    /* element e = [A[2e] A[2e+1] B[2e] B[2e+1]]: two elements per register */
    const __m512i e01 = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), e23 = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    _mm512_storeu_si512((void *)x, _mm512_permutex2var_epi64(A, e01, B));
    _mm512_storeu_si512((void *)(x + 2), _mm512_permutex2var_epi64(A, e23, B));
    _mm512_storeu_si512((void *)(x + 4), _mm512_permutex2var_epi64(A2, e01, B2));
    _mm512_storeu_si512((void *)(x + 6), _mm512_permutex2var_epi64(A2, e23, B2));
}

CZK_INLINE void czk__v8fr_set1(czk__v8fr *r, const czk_fr *x)
{
    __m512i w[4];
    for (int j = 0; j < 4; j++) w[j] = czk__v8_bc(x->l[j]);
    czk__v8fr_from64(r, w);
}

/* t (5 limbs, each < 2^52 after the carry pass) minus r where t >= r. */
CZK_INLINE void czk__v8fr_csub(czk__v8fr *r, const __m512i t[5])
{
    const __m512i z = _mm512_setzero_si512(), m = czk__v8_bc(CZK_V8_M52);
    __m512i s[5], bor = z;
    for (int j = 0; j < 5; j++) {
        __m512i v = _mm512_sub_epi64(_mm512_sub_epi64(t[j], czk__v8_bc(czk__v8_r52[j])), bor);
        bor = _mm512_srli_epi64(v, 63);
        s[j] = _mm512_and_si512(v, m);
    }
    __mmask8 ge = _mm512_cmpeq_epi64_mask(bor, z);
    for (int j = 0; j < 5; j++) r->l[j] = _mm512_mask_mov_epi64(t[j], ge, s[j]);
}

/* r = a b 2^-256 mod r (CIOS: four rounds of 2^52, one of 2^48). */
CZK_INLINE void czk__v8fr_mul(czk__v8fr *r, const czk__v8fr *a, const czk__v8fr *b)
{
    const __m512i z = _mm512_setzero_si512(), m = czk__v8_bc(CZK_V8_M52), n0 = czk__v8_bc(CZK_V8_R_N0);
    __m512i t[6];
    for (int k = 0; k < 6; k++) t[k] = z;
    for (int i = 0; i < 5; i++) {
        for (int j = 0; j < 5; j++) { /* t += a_i b (radix 2^52: the high half is the next limb's) */
            t[j] = _mm512_madd52lo_epu64(t[j], a->l[i], b->l[j]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a->l[i], b->l[j]);
        }
        __m512i q = _mm512_madd52lo_epu64(z, t[0], n0);
        q = _mm512_and_si512(q, i < 4 ? m : czk__v8_bc(CZK_V8_M48)); /* t_0 (-r^-1) mod 2^52 (2^48) */
        for (int j = 0; j < 5; j++) { /* t += q r */
            t[j] = _mm512_madd52lo_epu64(t[j], q, czk__v8_bc(czk__v8_r52[j]));
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], q, czk__v8_bc(czk__v8_r52[j]));
        }
        if (i < 4) { /* t_0 = 0 mod 2^52: one limb down */
            __m512i c = _mm512_srli_epi64(t[0], 52);
            for (int j = 0; j < 5; j++) t[j] = t[j + 1];
            t[0] = _mm512_add_epi64(t[0], c);
            t[5] = z;
        }
    }
    /* t = 0 mod 2^48: carry pass over the six limbs, then shift right by 48 bits */
    __m512i c = z;
    for (int j = 0; j < 6; j++) {
        __m512i v = _mm512_add_epi64(t[j], c);
        c = _mm512_srli_epi64(v, 52);
        t[j] = _mm512_and_si512(v, m);
    }
    __m512i u[5];
    for (int j = 0; j < 5; j++)
        u[j] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(t[j], 48), _mm512_slli_epi64(t[j + 1], 4)), m);
    czk__v8fr_csub(r, u); /* the product is < 2r */
}

/* r = a + b mod r. */
CZK_INLINE void czk__v8fr_add(czk__v8fr *r, const czk__v8fr *a, const czk__v8fr *b)
{
    const __m512i m = czk__v8_bc(CZK_V8_M52);
    __m512i t[5], c = _mm512_setzero_si512();
    for (int j = 0; j < 5; j++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(a->l[j], b->l[j]), c);
        c = _mm512_srli_epi64(v, 52);
        t[j] = _mm512_and_si512(v, m);
    }
    czk__v8fr_csub(r, t);
}

/* r = a - b mod r. */
CZK_INLINE void czk__v8fr_sub(czk__v8fr *r, const czk__v8fr *a, const czk__v8fr *b)
{
    const __m512i z = _mm512_setzero_si512(), m = czk__v8_bc(CZK_V8_M52);
    __m512i t[5], bor = z, c = z;
    for (int j = 0; j < 5; j++) {
        __m512i v = _mm512_sub_epi64(_mm512_sub_epi64(a->l[j], b->l[j]), bor);
        bor = _mm512_srli_epi64(v, 63);
        t[j] = _mm512_and_si512(v, m);
    }
    __mmask8 neg = _mm512_cmpneq_epi64_mask(bor, z);
    for (int j = 0; j < 5; j++) {
        __m512i rj = _mm512_maskz_mov_epi64(neg, czk__v8_bc(czk__v8_r52[j]));
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(t[j], rj), c);
        c = _mm512_srli_epi64(v, 52);
        r->l[j] = _mm512_and_si512(v, m);
    }
}

#endif /* __AVX512IFMA__ */
#endif
