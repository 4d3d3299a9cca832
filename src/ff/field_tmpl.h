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
static const uint64_t M_MINUS_2_[N] = K(M_MINUS_2);
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

/* a^(m-2) = a^-1 (Fermat); 0 -> 0. */
void FN(inv)(T *r, const T *a) { FN(pow)(r, a, M_MINUS_2_, N); }

/* x = x / 2^k mod m for x < m, 1 <= k <= 63: add q m with
 * q = x (-m^-1) mod 2^k so the low k bits vanish, then shift
 * ((x + q m) / 2^k < m since q < 2^k). */
static void div_pow2_var(uint64_t *x, unsigned k)
{
    uint64_t q = (x[0] * K(INV)) & ((1ULL << k) - 1);
    uint64_t t[N + 1];
    uint64_t c = 0;
    for (int i = 0; i < N; i++) {
        czk__u128 p = (czk__u128)q * M_[i] + x[i] + c;
        t[i] = (uint64_t)p;
        c = (uint64_t)(p >> 64);
    }
    t[N] = c;
    for (int i = 0; i < N; i++) x[i] = (t[i] >> k) | (t[i + 1] << (64 - k));
}

/* Strip the factors of two of u (u != 0), dividing x by the same power. */
static void shift_out_twos_var(uint64_t *u, uint64_t *x)
{
    while (!(u[0] & 1)) {
        unsigned k = u[0] ? (unsigned)__builtin_ctzll(u[0]) : 63;
        for (int i = 0; i < N - 1; i++) u[i] = (u[i] >> k) | (u[i + 1] << (64 - k));
        u[N - 1] >>= k;
        div_pow2_var(x, k);
    }
}

/* Binary extended Euclid on the plain representative A = a R of the
 * Montgomery element (Knuth TAOCP vol. 2, 4.5.2, Algorithm B adapted to
 * inversion; invariant A x1 = u, A x2 = v mod m). The result A^-1 is
 * brought back to Montgomery form as MontMul(A^-1, R^3) = a^-1 R. */
void FN(inv_var)(T *r, const T *a)
{
    if (FN(is_zero)(a)) {
        memset(r->l, 0, sizeof r->l);
        return;
    }
    uint64_t u[N], v[N], x1[N] = {1}, x2[N] = {0};
    memcpy(u, a->l, sizeof u);
    memcpy(v, M_, sizeof v);
    static const uint64_t one[N] = {1};
    for (;;) {
        shift_out_twos_var(u, x1);
        if (memcmp(u, one, sizeof u) == 0) break;
        shift_out_twos_var(v, x2);
        if (memcmp(v, one, sizeof v) == 0) {
            memcpy(x1, x2, sizeof x1);
            break;
        }
        if (!czk__limbs_lt(u, v, N)) {
            czk__limbs_sub(u, u, v, N);
            czk__mod_sub(x1, x1, x2, M_, N);
        } else {
            czk__limbs_sub(v, v, u, N);
            czk__mod_sub(x2, x2, x1, M_, N);
        }
    }
    T t, r3;
    memcpy(t.l, x1, sizeof t.l);
    memcpy(r3.l, R3_, sizeof r3.l);
    HMUL(r, &t, &r3);
}

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
        if (c) return czk_error(CZK_ERR_NOT_CANONICAL, "%s: value has more than %d bits", fn, 64 * N);
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
