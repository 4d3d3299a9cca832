/* czk ff — operations shared by Fr and Fp, instantiated once per field.
 *
 * Internal template: the including file defines
 *   T        element type (czk_fr)
 *   FN(x)    public name (czk_fr_##x)
 *   NAME     "fr" / "fp" for messages
 *   N        limbs; NBYTES bytes; NBITS bits of the modulus
 *   K(x)     generated constant (CZK__FR_##x)
 *   HMUL, HSQR, HADD, HSUB  dispatched hot operations
 * and then includes this file once.
 */
#include <string.h>

#include "ff/field_constants.h"
#include "ff/limbs.h"

static const uint64_t M_[N] = K(M);
static const uint64_t R1_[N] = K(R1);
static const uint64_t R2_[N] = K(R2);
static const uint64_t R3_[N] = K(R3);
static const uint64_t M_MINUS_1_HALF_[N] = K(M_MINUS_1_HALF);

/* ---- simple arithmetic --------------------------------------------------- */

void FN(neg)(T *r, const T *a) { czk__mod_neg(r->l, a->l, M_, N); }

void FN(dbl)(T *r, const T *a) { HADD(r, a, a); }

int FN(eq)(const T *a, const T *b) { return (int)(czk__limbs_eq_mask(a->l, b->l, N) & 1); }

int FN(is_zero)(const T *a) { return (int)(czk__limbs_is_zero_mask(a->l, N) & 1); }

int FN(is_one)(const T *a) { return (int)(czk__limbs_eq_mask(a->l, R1_, N) & 1); }

static void to_mont(T *r, const uint64_t *v)
{
    T t, r2;
    memcpy(t.l, v, sizeof t.l);
    memcpy(r2.l, R2_, sizeof r2.l);
    HMUL(r, &t, &r2);
}

void FN(from_u64)(T *r, uint64_t v)
{
    uint64_t t[N] = {v};
    to_mont(r, t);
}

czk_status FN(from_limbs)(T *r, const uint64_t v[N])
{
    if (!czk__limbs_lt(v, M_, N))
        return czk_error(CZK_ERR_NOT_CANONICAL, "czk_" NAME "_from_limbs: value >= modulus");
    to_mont(r, v);
    return CZK_OK;
}

/* Plain value: a R^-1 = MontMul(a, 1). */
void FN(to_limbs)(uint64_t v[N], const T *a)
{
    T one = {{1}};
    T t;
    HMUL(&t, a, &one);
    memcpy(v, t.l, sizeof t.l);
}

/* ---- exponentiation ------------------------------------------------------- */

/* Fixed 4-bit window, table read by constant-time scan: the sequence of
 * operations depends only on nlimbs. */
void FN(pow)(T *r, const T *a, const uint64_t *e, size_t nlimbs)
{
    T tab[16], acc, sel;
    memcpy(tab[0].l, R1_, sizeof tab[0].l);
    tab[1] = *a;
    for (int i = 2; i < 16; i++) HMUL(&tab[i], &tab[i - 1], a);
    memcpy(acc.l, R1_, sizeof acc.l);
    for (size_t li = nlimbs; li-- > 0;) {
        for (int nib = 15; nib >= 0; nib--) {
            uint64_t w = (e[li] >> (4 * nib)) & 15;
            for (int s = 0; s < 4; s++) HSQR(&acc, &acc);
            sel = tab[0];
            for (uint64_t j = 1; j < 16; j++) {
                uint64_t mask = 0 - (uint64_t)(j == w);
                czk__limbs_select(sel.l, mask, tab[j].l, sel.l, N);
            }
            HMUL(&acc, &acc, &sel);
        }
    }
    *r = acc;
}

void FN(pow_u64)(T *r, const T *a, uint64_t e)
{
    T base = *a, acc;
    memcpy(acc.l, R1_, sizeof acc.l);
    while (e) {
        if (e & 1) HMUL(&acc, &acc, &base);
        e >>= 1;
        if (e) HSQR(&base, &base);
    }
    *r = acc;
}

static const uint64_t INV_FIX_[N] = K(INV_FIX);
static const uint64_t M_SHL32_[N + 1] = K(M_SHL32);

/* p = x f0 + y g0 + add and q = x f1 + y g1 + add as (N+1)-limb two's
 * complement numbers, for x, y < 2^(64N-1), |f|, |g| <= 2^31, add (N+1 limbs,
 * may be NULL) < 2^(64N+32). With f' = f + 2^31 >= 0 (and so on) every
 * product is unsigned: x f + y g = x f' + y g' - (x + y) 2^31, exact limb by
 * limb in __int128. */
CZK_INLINE void lin_comb2(uint64_t *p, uint64_t *q, const uint64_t *x, const uint64_t *y,
                          int64_t f0, int64_t g0, int64_t f1, int64_t g1, const uint64_t *add)
{
    uint64_t f0p = (uint64_t)(f0 + 0x80000000), g0p = (uint64_t)(g0 + 0x80000000);
    uint64_t f1p = (uint64_t)(f1 + 0x80000000), g1p = (uint64_t)(g1 + 0x80000000);
    __int128 cp = 0, cq = 0;
    for (int i = 0; i < N; i++) {
        __int128 s = (__int128)(((czk__u128)x[i] + y[i]) << 31) - (add ? (__int128)add[i] : 0);
        __int128 vp = (__int128)((czk__u128)x[i] * f0p + (czk__u128)y[i] * g0p) - s + cp;
        __int128 vq = (__int128)((czk__u128)x[i] * f1p + (czk__u128)y[i] * g1p) - s + cq;
        p[i] = (uint64_t)vp;
        q[i] = (uint64_t)vq;
        cp = vp >> 64;
        cq = vq >> 64;
    }
    p[N] = (uint64_t)cp + (add ? add[N] : 0);
    q[N] = (uint64_t)cq + (add ? add[N] : 0);
}

/* In place: p (N+1 limbs, two's complement) >> 31 to its absolute value in
 * out (N limbs); returns the sign mask. */
CZK_INLINE uint64_t abs_shift31(uint64_t *out, uint64_t *p)
{
    uint64_t s = (uint64_t)((int64_t)p[N] >> 63);
    uint64_t cy = s & 1;
    for (int i = 0; i <= N; i++) {
        czk__u128 t = (czk__u128)(p[i] ^ s) + cy;
        p[i] = (uint64_t)t;
        cy = (uint64_t)(t >> 64);
    }
    for (int i = 0; i < N; i++) out[i] = (p[i] >> 31) | (p[i + 1] << 33);
    return s;
}

/* out = p 2^-64 mod m for 0 <= p < 2^33 m (N+1 limbs): one Montgomery
 * reduction step ((p + k m) / 2^64 < 2m) and a conditional subtraction. */
CZK_INLINE void redc64(uint64_t *out, uint64_t *p)
{
    uint64_t k = p[0] * K(INV);
    czk__u128 t = (czk__u128)k * M_[0] + p[0];
    uint64_t c = (uint64_t)(t >> 64);
    for (int i = 1; i < N; i++) {
        t = (czk__u128)k * M_[i] + p[i] + c;
        p[i - 1] = (uint64_t)t;
        c = (uint64_t)(t >> 64);
    }
    p[N - 1] = p[N] + c; /* < 2^(64N): no carry out */
    czk__limbs_reduce_once(out, p, M_, N);
}

/* Inversion by Pornin's optimized binary GCD ("Optimized Binary GCD for
 * Modular Inversion", IACR ePrint 2020/972, algorithm 2, k = 32): each outer
 * iteration runs 31 binary-GCD steps on 64-bit approximations of a and b
 * (their low 31 bits and top 33 bits), then applies the accumulated
 * update factors to the full values. ceil((2 bits - 1) / 31) iterations
 * always suffice. Constant time: the same operations for every input.
 * Invariants: a = u y lambda, b = v y lambda (mod m), lambda = 2^(33 i)
 * after i iterations; at the end b = 1, so y^-1 = v 2^(33 t). With y = a R
 * (Montgomery), a^-1 R = v 2^(33 t) R^2 = MontMul(v, INV_FIX). 0 -> 0. */
CZK_INLINE void inv_core(T *r, const T *y, int var)
{
    uint64_t a[N], b[N], u[N] = {1}, v[N] = {0};
    memcpy(a, y->l, sizeof a);
    memcpy(b, M_, sizeof b);
    for (int it = 0; it < K(INV_ITERS); it++) {
        /* approximations: n = max(len(a), len(b), 64);
         * abar = (a mod 2^31) + 2^31 floor(a / 2^(n - 33)) */
        uint64_t ah = 0, al = 0, bh = 0, bl = 0, top = 0, hz = 0;
        for (int i = 0; i < N; i++) {
            uint64_t c = a[i] | b[i];
            uint64_t nz = 0 - ((c | (0 - c)) >> 63);
            ah = (a[i] & nz) | (ah & ~nz);
            bh = (b[i] & nz) | (bh & ~nz);
            al = ((i ? a[i - 1] : 0) & nz) | (al & ~nz);
            bl = ((i ? b[i - 1] : 0) & nz) | (bl & ~nz);
            top = (c & nz) | (top & ~nz);
            hz = (((uint64_t)(i == 0) - 1) & nz) | (hz & ~nz); /* all ones: top limb > 0 */
        }
        unsigned z = (unsigned)__builtin_clzll(top | 1) & (unsigned)hz;
        uint64_t abar = (uint64_t)((((czk__u128)ah << 64 | al) << z) >> 95);
        uint64_t bbar = (uint64_t)((((czk__u128)bh << 64 | bl) << z) >> 95);
        abar = (abar << 31) | (a[0] & 0x7fffffff);
        bbar = (bbar << 31) | (b[0] & 0x7fffffff);
        /* The update factors travel packed and biased, P = (f + B) + 2^32 (g + B)
         * with B = 2^31 - 1 (Pornin, section 4): after j <= 31 steps f, g lie in
         * [-(2^31 - 1), 2^31], so each biased half fits 32 bits, and the packed
         * form is linear: one subtraction or doubling updates f and g. */
        const uint64_t B = 0x7fffffff, BB = B | (B << 32);
        uint64_t p0 = (1 + B) | (B << 32), p1 = B | ((1 + B) << 32);
        if (var) {
            /* Same steps, but a run of k even values is shifted at once
             * (k doublings of p1 are p1 2^k - (2^k - 1) BB), so the loop
             * runs once per subtraction. The data-dependent a < b choice
             * stays branch-free: it is unpredictable. */
            for (unsigned j = 0; j < 31;) {
                uint64_t odd = 0 - (abar & 1);
                uint64_t sw = odd & (0 - (uint64_t)(abar < bbar));
                uint64_t t = (abar ^ bbar) & sw;
                abar ^= t, bbar ^= t;
                t = (p0 ^ p1) & sw;
                p0 ^= t, p1 ^= t;
                abar -= bbar & odd;
                p0 -= (p1 - BB) & odd;
                unsigned k = abar ? (unsigned)__builtin_ctzll(abar) : 31;
                if (k > 31 - j) k = 31 - j;
                abar >>= k;
                p1 = (p1 << k) - ((1ULL << k) - 1) * BB;
                j += k;
            }
        } else {
            for (int j = 0; j < 31; j++) {
                uint64_t odd = 0 - (abar & 1);
                uint64_t d = abar - bbar;
                uint64_t lt = 0 - (uint64_t)(abar < bbar);
                uint64_t sw = odd & lt;
                bbar ^= (abar ^ bbar) & sw;          /* odd, a < b: b = a */
                d = (d ^ lt) - lt;                   /* |a - b| */
                abar = ((d & odd) | (abar & ~odd)) >> 1;
                uint64_t t = (p0 ^ p1) & sw;
                p0 ^= t, p1 ^= t;
                p0 -= (p1 - BB) & odd;               /* f0 -= f1, g0 -= g1 */
                p1 = p1 + p1 - BB;                   /* f1 *= 2, g1 *= 2 */
            }
        }
        int64_t f0 = (int64_t)(p0 & 0xffffffff) - (int64_t)B;
        int64_t g0 = (int64_t)(p0 >> 32) - (int64_t)B;
        int64_t f1 = (int64_t)(p1 & 0xffffffff) - (int64_t)B;
        int64_t g1 = (int64_t)(p1 >> 32) - (int64_t)B;
        /* a = |a f0 + b g0| / 2^31, b = |a f1 + b g1| / 2^31, negating the
         * factors of a negative result */
        uint64_t pa[N + 1], pb[N + 1];
        lin_comb2(pa, pb, a, b, f0, g0, f1, g1, NULL);
        uint64_t sa = abs_shift31(a, pa);
        uint64_t sb = abs_shift31(b, pb);
        f0 = (int64_t)(((uint64_t)f0 ^ sa) - sa);
        g0 = (int64_t)(((uint64_t)g0 ^ sa) - sa);
        f1 = (int64_t)(((uint64_t)f1 ^ sb) - sb);
        g1 = (int64_t)(((uint64_t)g1 ^ sb) - sb);
        /* u = (u f0 + v g0 + 2^32 m) / 2^64 mod m, v likewise (the added
         * 2^32 m makes the sums positive) */
        lin_comb2(pa, pb, u, v, f0, g0, f1, g1, M_SHL32_);
        redc64(u, pa);
        redc64(v, pb);
    }
    T t, fix;
    memcpy(t.l, v, sizeof t.l);
    memcpy(fix.l, INV_FIX_, sizeof fix.l);
    HMUL(r, &t, &fix);
}

void FN(inv)(T *r, const T *a) { inv_core(r, a, 0); }

/* The same iterations, the 31-step inner loop with branches. */
void FN(inv_var)(T *r, const T *a) { inv_core(r, a, 1); }

/* Montgomery's trick (Montgomery 1987, "Speeding the Pollard and elliptic
 * curve methods", section 10.3.1): prefix products, one inversion, then a
 * backward pass. Zeros are replaced by one in the products and masked out
 * of the result, in constant time. */
void FN(batch_inv)(T *out, const T *in, size_t n, T *scratch)
{
    if (n == 0) return;
    T acc, x, t;
    memcpy(acc.l, R1_, sizeof acc.l);
    for (size_t i = 0; i < n; i++) {
        uint64_t z = czk__limbs_is_zero_mask(in[i].l, N);
        czk__limbs_select(x.l, z, R1_, in[i].l, N);
        scratch[i] = acc; /* product of in[0..i) */
        HMUL(&acc, &acc, &x);
    }
    FN(inv)(&acc, &acc); /* acc = (prod in[0..n))^-1 */
    for (size_t i = n; i-- > 0;) {
        uint64_t z = czk__limbs_is_zero_mask(in[i].l, N);
        czk__limbs_select(x.l, z, R1_, in[i].l, N);
        HMUL(&t, &acc, &scratch[i]);  /* in[i]^-1 */
        HMUL(&acc, &acc, &x);         /* (prod in[0..i))^-1 */
        memset(&out[i], 0, sizeof out[i]);
        czk__limbs_select(out[i].l, ~z, t.l, out[i].l, N);
    }
}

/* Euler's criterion a^((m-1)/2). */
int FN(legendre)(const T *a)
{
    T t;
    FN(pow)(&t, a, M_MINUS_1_HALF_, N);
    int one = FN(is_one)(&t), zero = FN(is_zero)(&t);
    return one - (1 - one - zero);
}

/* ---- encodings ------------------------------------------------------------ */

static czk_status from_bytes_le(T *r, const uint8_t *in, const char *fn)
{
    uint64_t v[N];
    for (int i = 0; i < N; i++) {
        uint64_t w = 0;
        for (int j = 7; j >= 0; j--) w = (w << 8) | in[8 * i + j];
        v[i] = w;
    }
    if (!czk__limbs_lt(v, M_, N))
        return czk_error(CZK_ERR_NOT_CANONICAL, "%s: encoded value is >= the " NAME " modulus", fn);
    to_mont(r, v);
    return CZK_OK;
}

static void to_bytes_le(uint8_t *out, const T *a)
{
    uint64_t v[N];
    FN(to_limbs)(v, a);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < 8; j++) out[8 * i + j] = (uint8_t)(v[i] >> (8 * j));
}

static czk_status from_bytes_be(T *r, const uint8_t *in, const char *fn)
{
    uint8_t le[NBYTES];
    for (int i = 0; i < NBYTES; i++) le[i] = in[NBYTES - 1 - i];
    return from_bytes_le(r, le, fn);
}

static void to_bytes_be(uint8_t *out, const T *a)
{
    uint8_t le[NBYTES];
    to_bytes_le(le, a);
    for (int i = 0; i < NBYTES; i++) out[i] = le[NBYTES - 1 - i];
}

/* Uniform sample: candidates with the top bits above NBITS cleared, rejected
 * when >= m (acceptance > 1/2). A uniform value taken as the Montgomery
 * representative is a uniform element. */
void FN(random)(T *r, czk_rng *rng)
{
    uint64_t v[N];
    do {
        for (int i = 0; i < N; i++) v[i] = czk_rng_u64(rng);
        v[N - 1] &= (1ULL << (NBITS - 64 * (N - 1))) - 1;
    } while (!czk__limbs_lt(v, M_, N));
    memcpy(r->l, v, sizeof r->l);
}

static int hex_val(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

czk_status FN(from_hex)(T *r, const char *hex)
{
    static const char fn[] = "czk_" NAME "_from_hex";
    if (!hex) return czk_error(CZK_ERR_INVALID_ARG, "%s: NULL string", fn);
    const char *s = hex;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    if (!*s) return czk_error(CZK_ERR_FORMAT, "%s: no digits in \"%.40s\"", fn, hex);
    uint64_t v[N] = {0};
    size_t sig = 0;
    for (const char *p = s; *p; p++) {
        int d = hex_val(*p);
        if (d < 0)
            return czk_error(CZK_ERR_FORMAT, "%s: character '%c' at offset %zu is not a hex digit",
                             fn, *p, (size_t)(p - hex));
        if (sig == 0 && d == 0) continue;
        if (++sig > 16 * N)
            return czk_error(CZK_ERR_NOT_CANONICAL, "%s: value has more than %d bits", fn, 64 * N);
        for (int i = N - 1; i > 0; i--) v[i] = (v[i] << 4) | (v[i - 1] >> 60);
        v[0] = (v[0] << 4) | (uint64_t)d;
    }
    if (!czk__limbs_lt(v, M_, N))
        return czk_error(CZK_ERR_NOT_CANONICAL, "%s: value is >= the " NAME " modulus", fn);
    to_mont(r, v);
    return CZK_OK;
}

void FN(to_hex)(char out[2 * NBYTES + 3], const T *a)
{
    static const char digits[] = "0123456789abcdef";
    uint8_t be[NBYTES];
    to_bytes_be(be, a);
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < NBYTES; i++) {
        out[2 + 2 * i] = digits[be[i] >> 4];
        out[3 + 2 * i] = digits[be[i] & 15];
    }
    out[2 + 2 * NBYTES] = 0;
}

czk_status FN(from_dec)(T *r, const char *dec)
{
    static const char fn[] = "czk_" NAME "_from_dec";
    if (!dec) return czk_error(CZK_ERR_INVALID_ARG, "%s: NULL string", fn);
    if (!*dec) return czk_error(CZK_ERR_FORMAT, "%s: empty string", fn);
    uint64_t v[N] = {0};
    for (const char *p = dec; *p; p++) {
        if (*p < '0' || *p > '9')
            return czk_error(CZK_ERR_FORMAT,
                             "%s: character '%c' at offset %zu is not a decimal digit", fn, *p,
                             (size_t)(p - dec));
        uint64_t c = (uint64_t)(*p - '0');
        for (int i = 0; i < N; i++) {
            czk__u128 t = (czk__u128)v[i] * 10 + c;
            v[i] = (uint64_t)t;
            c = (uint64_t)(t >> 64);
        }
        if (c)
            return czk_error(CZK_ERR_NOT_CANONICAL, "%s: value has more than %d bits", fn, 64 * N);
    }
    if (!czk__limbs_lt(v, M_, N))
        return czk_error(CZK_ERR_NOT_CANONICAL, "%s: value is >= the " NAME " modulus", fn);
    to_mont(r, v);
    return CZK_OK;
}

/* Repeated division by 10^19 (the largest power of ten below 2^64). */
static void to_dec(char *out, const T *a)
{
    uint64_t v[N];
    FN(to_limbs)(v, a);
    char buf[24 * N];
    size_t len = 0;
    const uint64_t d = 10000000000000000000ULL;
    for (;;) {
        uint64_t rem = 0;
        int nz = 0;
        for (int i = N - 1; i >= 0; i--) {
            czk__u128 cur = ((czk__u128)rem << 64) | v[i];
            v[i] = (uint64_t)(cur / d);
            rem = (uint64_t)(cur % d);
            nz |= v[i] != 0;
        }
        for (int k = 0; k < 19; k++) {
            buf[len++] = (char)('0' + rem % 10);
            rem /= 10;
            if (!nz && rem == 0) break;
        }
        if (!nz) break;
    }
    for (size_t i = 0; i < len; i++) out[i] = buf[len - 1 - i];
    out[len] = 0;
}
