/* czk ff — Fp2 = Fp[u] / (u^2 + 1).
 *
 * Karatsuba multiplication (3 Fp products) and complex squaring (2 products),
 * as in Devegili, O hEigeartaigh, Scott, Dahab, "Multiplication and Squaring
 * on Pairing-Friendly Fields" (2006), §3.
 */
#include <string.h>

#include "czk/tower.h"

void czk_fp2_add(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b)
{
    czk_fp_add(&r->c0, &a->c0, &b->c0);
    czk_fp_add(&r->c1, &a->c1, &b->c1);
}

void czk_fp2_sub(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b)
{
    czk_fp_sub(&r->c0, &a->c0, &b->c0);
    czk_fp_sub(&r->c1, &a->c1, &b->c1);
}

void czk_fp2_neg(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp_neg(&r->c0, &a->c0);
    czk_fp_neg(&r->c1, &a->c1);
}

void czk_fp2_dbl(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp_dbl(&r->c0, &a->c0);
    czk_fp_dbl(&r->c1, &a->c1);
}

void czk_fp2_mul(czk_fp2 *r, const czk_fp2 *a, const czk_fp2 *b)
{
    czk_fp t0, t1, s0, s1;
    czk_fp_mul(&t0, &a->c0, &b->c0);
    czk_fp_mul(&t1, &a->c1, &b->c1);
    czk_fp_add(&s0, &a->c0, &a->c1);
    czk_fp_add(&s1, &b->c0, &b->c1);
    czk_fp_mul(&s0, &s0, &s1);
    /* c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 ; c0 = a0 b0 - a1 b1 */
    czk_fp_sub(&s0, &s0, &t0);
    czk_fp_sub(&r->c1, &s0, &t1);
    czk_fp_sub(&r->c0, &t0, &t1);
}

void czk_fp2_sqr(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp s, d, m;
    /* c0 = (a0 + a1)(a0 - a1), c1 = 2 a0 a1 */
    czk_fp_add(&s, &a->c0, &a->c1);
    czk_fp_sub(&d, &a->c0, &a->c1);
    czk_fp_mul(&m, &a->c0, &a->c1);
    czk_fp_mul(&r->c0, &s, &d);
    czk_fp_dbl(&r->c1, &m);
}

void czk_fp2_mul_fp(czk_fp2 *r, const czk_fp2 *a, const czk_fp *b)
{
    czk_fp_mul(&r->c0, &a->c0, b);
    czk_fp_mul(&r->c1, &a->c1, b);
}

/* (a0 + a1 u)^-1 = (a0 - a1 u) / (a0^2 + a1^2) */
void czk_fp2_inv(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp t0, t1;
    czk_fp_sqr(&t0, &a->c0);
    czk_fp_sqr(&t1, &a->c1);
    czk_fp_add(&t0, &t0, &t1);
    czk_fp_inv(&t0, &t0);
    czk_fp_mul(&r->c0, &a->c0, &t0);
    czk_fp_mul(&t1, &a->c1, &t0);
    czk_fp_neg(&r->c1, &t1);
}

void czk_fp2_inv_var(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp t0, t1;
    czk_fp_sqr(&t0, &a->c0);
    czk_fp_sqr(&t1, &a->c1);
    czk_fp_add(&t0, &t0, &t1);
    czk_fp_inv_var(&t0, &t0);
    czk_fp_mul(&r->c0, &a->c0, &t0);
    czk_fp_mul(&t1, &a->c1, &t0);
    czk_fp_neg(&r->c1, &t1);
}

void czk_fp2_conj(czk_fp2 *r, const czk_fp2 *a)
{
    r->c0 = a->c0;
    czk_fp_neg(&r->c1, &a->c1);
}

/* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
void czk_fp2_mul_by_nonresidue(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp t;
    czk_fp_sub(&t, &a->c0, &a->c1);
    czk_fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

int czk_fp2_eq(const czk_fp2 *a, const czk_fp2 *b)
{
    return czk_fp_eq(&a->c0, &b->c0) & czk_fp_eq(&a->c1, &b->c1);
}

int czk_fp2_is_zero(const czk_fp2 *a) { return czk_fp_is_zero(&a->c0) & czk_fp_is_zero(&a->c1); }

int czk_fp2_is_one(const czk_fp2 *a) { return czk_fp_is_one(&a->c0) & czk_fp_is_zero(&a->c1); }

void czk_fp2_set_one(czk_fp2 *r)
{
    r->c0 = CZK_FP_ONE;
    r->c1 = CZK_FP_ZERO;
}

void czk_fp2_set_zero(czk_fp2 *r)
{
    r->c0 = CZK_FP_ZERO;
    r->c1 = CZK_FP_ZERO;
}

void czk_fp2_cmov(czk_fp2 *r, const czk_fp2 *a, uint64_t flag)
{
    uint64_t m = 0 - (flag & 1);
    for (int i = 0; i < CZK_FP_LIMBS; i++) {
        r->c0.l[i] ^= m & (r->c0.l[i] ^ a->c0.l[i]);
        r->c1.l[i] ^= m & (r->c1.l[i] ^ a->c1.l[i]);
    }
}

void czk_fp2_random(czk_fp2 *r, czk_rng *rng)
{
    czk_fp_random(&r->c0, rng);
    czk_fp_random(&r->c1, rng);
}

void czk_fp2_pow_var(czk_fp2 *r, const czk_fp2 *a, const uint64_t *e, size_t nlimbs)
{
    czk_fp2 acc, base = *a;
    czk_fp2_set_one(&acc);
    for (size_t i = nlimbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            czk_fp2_sqr(&acc, &acc);
            if ((e[i] >> b) & 1) czk_fp2_mul(&acc, &acc, &base);
        }
    }
    *r = acc;
}

int czk_fp2_is_lex_largest(const czk_fp2 *a)
{
    if (!czk_fp_is_zero(&a->c1)) return czk_fp_is_lex_largest(&a->c1);
    return czk_fp_is_lex_largest(&a->c0);
}

/* Square root through the norm (p = 3 mod 4, u^2 = -1): for a = a0 + a1 u with
 * a1 != 0, a root x0 + x1 u has x0^2 = (a0 +- sqrt(a0^2 + a1^2)) / 2 and
 * x1 = a1 / (2 x0). See e.g. Scott, "Implementing cryptographic pairings"
 * (2007), §5.3. The result is checked by squaring. */
int czk_fp2_sqrt(czk_fp2 *r, const czk_fp2 *a)
{
    czk_fp2 x;
    if (czk_fp_is_zero(&a->c1)) {
        czk_fp s, na;
        if (czk_fp_sqrt(&s, &a->c0)) {
            x.c0 = s;
            x.c1 = CZK_FP_ZERO;
        } else {
            /* -1 is a non-residue, so -a0 is a square: (s u)^2 = -s^2 = a0 */
            czk_fp_neg(&na, &a->c0);
            if (!czk_fp_sqrt(&s, &na)) goto fail;
            x.c0 = CZK_FP_ZERO;
            x.c1 = s;
        }
    } else {
        czk_fp n, t, s, half, x0, d;
        czk_fp_sqr(&n, &a->c0);
        czk_fp_sqr(&t, &a->c1);
        czk_fp_add(&n, &n, &t);
        if (!czk_fp_sqrt(&s, &n)) goto fail;
        czk_fp_from_u64(&half, 2);
        czk_fp_inv_var(&half, &half);
        czk_fp_add(&t, &a->c0, &s);
        czk_fp_mul(&t, &t, &half);
        if (!czk_fp_sqrt(&x0, &t)) {
            czk_fp_sub(&t, &a->c0, &s);
            czk_fp_mul(&t, &t, &half);
            if (!czk_fp_sqrt(&x0, &t)) goto fail;
        }
        czk_fp_dbl(&d, &x0);
        czk_fp_inv_var(&d, &d);
        x.c0 = x0;
        czk_fp_mul(&x.c1, &a->c1, &d);
    }
    {
        czk_fp2 chk;
        czk_fp2_sqr(&chk, &x);
        if (!czk_fp2_eq(&chk, a)) goto fail;
    }
    *r = x;
    return 1;
fail:
    czk_fp2_set_zero(r);
    return 0;
}
