/* czk ff — Fp12 = Fp6[w] / (w^2 - v), so w^6 = v^3 = xi = u + 1.
 *
 * Karatsuba multiplication and complex squaring over Fp6 (Devegili et al.
 * 2006, §5), the sparse product with Miller-loop lines, Frobenius maps, and
 * the Granger-Scott cyclotomic squaring.
 */
#include <pthread.h>

#include "czk/tower.h"
#include "ff/tower_internal.h"

void czk_fp12_add(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b)
{
    czk_fp6_add(&r->c0, &a->c0, &b->c0);
    czk_fp6_add(&r->c1, &a->c1, &b->c1);
}

void czk_fp12_sub(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b)
{
    czk_fp6_sub(&r->c0, &a->c0, &b->c0);
    czk_fp6_sub(&r->c1, &a->c1, &b->c1);
}

void czk_fp12_mul(czk_fp12 *r, const czk_fp12 *a, const czk_fp12 *b)
{
    czk_fp6 t0, t1, s, t;
    czk_fp6_mul(&t0, &a->c0, &b->c0);
    czk_fp6_mul(&t1, &a->c1, &b->c1);
    /* c1 = (a0 + a1)(b0 + b1) - t0 - t1, c0 = t0 + v t1 */
    czk_fp6_add(&s, &a->c0, &a->c1);
    czk_fp6_add(&t, &b->c0, &b->c1);
    czk_fp6_mul(&s, &s, &t);
    czk_fp6_sub(&s, &s, &t0);
    czk_fp6_sub(&r->c1, &s, &t1);
    czk_fp6_mul_by_nonresidue(&t1, &t1);
    czk_fp6_add(&r->c0, &t0, &t1);
}

void czk_fp12_sqr(czk_fp12 *r, const czk_fp12 *a)
{
    czk_fp6 t, s, u;
    /* t = a0 a1; c0 = (a0 + a1)(a0 + v a1) - t - v t; c1 = 2 t */
    czk_fp6_mul(&t, &a->c0, &a->c1);
    czk_fp6_add(&s, &a->c0, &a->c1);
    czk_fp6_mul_by_nonresidue(&u, &a->c1);
    czk_fp6_add(&u, &u, &a->c0);
    czk_fp6_mul(&s, &s, &u);
    czk_fp6_sub(&s, &s, &t);
    czk_fp6_mul_by_nonresidue(&u, &t);
    czk_fp6_sub(&r->c0, &s, &u);
    czk_fp6_add(&r->c1, &t, &t);
}

/* (a0 + a1 w)^-1 = (a0 - a1 w) / (a0^2 - v a1^2) */
void czk_fp12_inv(czk_fp12 *r, const czk_fp12 *a)
{
    czk_fp6 t0, t1;
    czk_fp6_sqr(&t0, &a->c0);
    czk_fp6_sqr(&t1, &a->c1);
    czk_fp6_mul_by_nonresidue(&t1, &t1);
    czk_fp6_sub(&t0, &t0, &t1);
    czk_fp6_inv(&t0, &t0);
    czk_fp6_mul(&r->c0, &a->c0, &t0);
    czk_fp6_mul(&t1, &a->c1, &t0);
    czk_fp6_neg(&r->c1, &t1);
}

void czk_fp12_conj(czk_fp12 *r, const czk_fp12 *a)
{
    r->c0 = a->c0;
    czk_fp6_neg(&r->c1, &a->c1);
}

/* a (L0 + L1 w) with L0 = o0 + o1 v, L1 = o4 v:
 *   t0 = a0 L0, t1 = a1 L1, c0 = t0 + v t1, c1 = (a0 + a1)(L0 + L1) - t0 - t1 */
void czk_fp12_mul_by_014(czk_fp12 *r, const czk_fp12 *a, const czk_fp2 *o0, const czk_fp2 *o1,
                         const czk_fp2 *o4)
{
    czk_fp6 t0, t1, s;
    czk_fp2 o14;
    czk_fp6_mul_by_01(&t0, &a->c0, o0, o1);
    czk_fp6_mul_by_1(&t1, &a->c1, o4);
    czk_fp2_add(&o14, o1, o4);
    czk_fp6_add(&s, &a->c0, &a->c1);
    czk_fp6_mul_by_01(&s, &s, o0, &o14);
    czk_fp6_sub(&s, &s, &t0);
    czk_fp6_sub(&r->c1, &s, &t1);
    czk_fp6_mul_by_nonresidue(&t1, &t1);
    czk_fp6_add(&r->c0, &t0, &t1);
}

/* Squaring in Fp4 = Fp2[s] / (s^2 - xi): (x + y s)^2 = (x^2 + xi y^2) + 2 x y s. */
static void fp4_sqr(czk_fp2 *r0, czk_fp2 *r1, const czk_fp2 *x, const czk_fp2 *y)
{
    czk_fp2 t0, t1, t;
    czk_fp2_sqr(&t0, x);
    czk_fp2_sqr(&t1, y);
    czk_fp2_add(&t, x, y);
    czk_fp2_sqr(&t, &t);
    czk_fp2_sub(&t, &t, &t0);
    czk_fp2_sub(r1, &t, &t1);
    czk_fp2_mul_by_nonresidue(&t1, &t1);
    czk_fp2_add(r0, &t0, &t1);
}

/* 3 t - 2 z and 3 t + 2 z */
static void three_minus_two(czk_fp2 *z, const czk_fp2 *t)
{
    czk_fp2 d;
    czk_fp2_sub(&d, t, z);
    czk_fp2_dbl(&d, &d);
    czk_fp2_add(z, &d, t);
}

static void three_plus_two(czk_fp2 *z, const czk_fp2 *t)
{
    czk_fp2 d;
    czk_fp2_add(&d, t, z);
    czk_fp2_dbl(&d, &d);
    czk_fp2_add(z, &d, t);
}

/* Granger, Scott, "Faster Squaring in the Cyclotomic Subgroup of Sixth Degree
 * Extensions" (PKC 2010), §3.1. Viewing Fp12 = Fp4[t] / (t^3 - s), t = w,
 * s = w^3, a = A0 + A1 t + A2 t^2 with A0 = g0 + g3 s, A1 = g1 + g4 s,
 * A2 = g2 + g5 s (g_j the coefficient of w^j):
 *   a^2 = (3 A0^2 - 2 conj(A0)) + (3 s A2^2 + 2 conj(A1)) t + (3 A1^2 - 2 conj(A2)) t^2. */
void czk_fp12_cyclotomic_sqr(czk_fp12 *r, const czk_fp12 *a)
{
    czk_fp2 g0 = a->c0.c0, g1 = a->c1.c0, g2 = a->c0.c1, g3 = a->c1.c1, g4 = a->c0.c2,
            g5 = a->c1.c2;
    czk_fp2 a0, b0, a1, b1, a2, b2;
    fp4_sqr(&a0, &b0, &g0, &g3);
    fp4_sqr(&a1, &b1, &g1, &g4);
    fp4_sqr(&a2, &b2, &g2, &g5);
    three_minus_two(&g0, &a0);
    three_plus_two(&g3, &b0);
    three_minus_two(&g2, &a1);
    three_plus_two(&g5, &b1);
    czk_fp2_mul_by_nonresidue(&b2, &b2);
    three_plus_two(&g1, &b2);
    three_minus_two(&g4, &a2);
    r->c0.c0 = g0;
    r->c1.c0 = g1;
    r->c0.c1 = g2;
    r->c1.c1 = g3;
    r->c0.c2 = g4;
    r->c1.c2 = g5;
}

int czk_fp12_eq(const czk_fp12 *a, const czk_fp12 *b)
{
    return czk_fp6_eq(&a->c0, &b->c0) & czk_fp6_eq(&a->c1, &b->c1);
}

int czk_fp12_is_one(const czk_fp12 *a)
{
    return czk_fp2_is_one(&a->c0.c0) & czk_fp2_is_zero(&a->c0.c1) & czk_fp2_is_zero(&a->c0.c2) &
           czk_fp6_is_zero(&a->c1);
}

void czk_fp12_set_one(czk_fp12 *r)
{
    czk_fp6_set_one(&r->c0);
    czk_fp6_set_zero(&r->c1);
}

void czk_fp12_set_zero(czk_fp12 *r)
{
    czk_fp6_set_zero(&r->c0);
    czk_fp6_set_zero(&r->c1);
}

void czk_fp12_random(czk_fp12 *r, czk_rng *rng)
{
    czk_fp2 *c[6] = {&r->c0.c0, &r->c0.c1, &r->c0.c2, &r->c1.c0, &r->c1.c1, &r->c1.c2};
    for (int i = 0; i < 6; i++) czk_fp2_random(c[i], rng);
}

void czk_fp12_pow_var(czk_fp12 *r, const czk_fp12 *a, const uint64_t *e, size_t nlimbs)
{
    czk_fp12 acc, base = *a;
    czk_fp12_set_one(&acc);
    int started = 0;
    for (size_t i = nlimbs; i-- > 0;) {
        for (int b = 63; b >= 0; b--) {
            if (started) czk_fp12_sqr(&acc, &acc);
            if ((e[i] >> b) & 1) {
                czk_fp12_mul(&acc, &acc, &base);
                started = 1;
            }
        }
    }
    *r = acc;
}

/* ---- Frobenius ------------------------------------------------------------- */

uint64_t czk__limbs_div_small(uint64_t *out, const uint64_t *in, size_t n, uint64_t d)
{
    unsigned __int128 rem = 0;
    for (size_t i = n; i-- > 0;) {
        unsigned __int128 cur = (rem << 64) | in[i];
        out[i] = (uint64_t)(cur / d);
        rem = cur % d;
    }
    return (uint64_t)rem;
}

static czk_fp2 frob_gamma[3][6];
static pthread_once_t frob_once = PTHREAD_ONCE_INIT;

/* gamma_1[j] = xi^(j (p-1)/6); gamma_2[j] = gamma_1[j] conj(gamma_1[j]) (the
 * Frobenius applied twice: conj(conj(c) g) g = c g conj(g)); gamma_3[j] =
 * gamma_1[j] gamma_2[j] (gamma_2 is in Fp, fixed by conjugation). */
static void frob_init(void)
{
    uint64_t e[CZK_FP_LIMBS];
    uint64_t pm1[CZK_FP_LIMBS];
    for (int i = 0; i < CZK_FP_LIMBS; i++) pm1[i] = CZK_FP_MODULUS[i];
    pm1[0] -= 1; /* p is odd */
    uint64_t rem = czk__limbs_div_small(e, pm1, CZK_FP_LIMBS, 6);
    CZK_ASSERT(rem == 0);
    czk_fp2 xi, g;
    czk_fp2_set_one(&xi);
    xi.c1 = CZK_FP_ONE;
    czk_fp2_pow_var(&g, &xi, e, CZK_FP_LIMBS);
    czk_fp2_set_one(&frob_gamma[0][0]);
    for (int j = 1; j < 6; j++) czk_fp2_mul(&frob_gamma[0][j], &frob_gamma[0][j - 1], &g);
    for (int j = 0; j < 6; j++) {
        czk_fp2 c;
        czk_fp2_conj(&c, &frob_gamma[0][j]);
        czk_fp2_mul(&frob_gamma[1][j], &frob_gamma[0][j], &c);
        czk_fp2_mul(&frob_gamma[2][j], &frob_gamma[0][j], &frob_gamma[1][j]);
    }
}

const czk_fp2 *czk__fp12_frob_coeff(unsigned k, unsigned j)
{
    pthread_once(&frob_once, frob_init);
    CZK_ASSERT(k >= 1 && k <= 3 && j < 6);
    return &frob_gamma[k - 1][j];
}

/* (sum g_j w^j)^(p^k) = sum conj^k(g_j) gamma_k[j] w^j */
void czk_fp12_frobenius(czk_fp12 *r, const czk_fp12 *a, unsigned k)
{
    if (k == 0) {
        *r = *a;
        return;
    }
    CZK_ASSERT(k <= 3);
    pthread_once(&frob_once, frob_init);
    const czk_fp2 *in[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
    czk_fp2 *out[6] = {&r->c0.c0, &r->c1.c0, &r->c0.c1, &r->c1.c1, &r->c0.c2, &r->c1.c2};
    for (int j = 0; j < 6; j++) {
        czk_fp2 c;
        if (k & 1)
            czk_fp2_conj(&c, in[j]);
        else
            c = *in[j];
        if (k == 2)
            czk_fp2_mul_fp(out[j], &c, &frob_gamma[1][j].c0);
        else
            czk_fp2_mul(out[j], &c, &frob_gamma[k - 1][j]);
    }
}
