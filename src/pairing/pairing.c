/* czk pairing — optimal ate pairing on BLS12-381 (see czk/pairing.h).
 *
 * Lines. The twist map E'(Fp2) -> E(Fp12) is (x, y) -> (x w^-2, y w^-3)
 * (w^6 = xi, b = b'/xi). A line through points of the twist, evaluated at
 * P = (xP, yP) in E(Fp) and multiplied by w^3 (which lies in Fp4 and so dies
 * in the final exponentiation), has the shape
 *     l = c0 + (c1 xP) v + (c4 yP) v w      (coefficients of w^0, w^2, w^3),
 * which czk_fp12_mul_by_014 multiplies in. For T = (X : Y : Z) homogeneous:
 *   tangent at T:   c0 = Y^2 - 3b'Z^2, c1 = -3X^2, c4 = 2YZ;
 *   chord T, Q:     theta = Y - yQ Z, lambda = X - xQ Z,
 *                   c0 = theta xQ - lambda yQ, c1 = -theta, c4 = lambda
 * (each scaled by a factor in Fp2, also killed by the final exponentiation).
 * Point updates: Costello, Lange, Naehrig (PKC 2010) §5 for a = 0, with the
 * doubling scaled by 4 to avoid halving:
 *   X3 = 2XY(Y^2 - 9b'Z^2), Y3 = (Y^2 + 9b'Z^2)^2 - 108 b'^2 Z^4, Z3 = 8Y^3 Z;
 *   addition: C = theta^2, D = lambda^2, E = lambda D, F = Z C, G = X D,
 *   H = E + F - 2G, X3 = lambda H, Y3 = theta (G - H) - Y E, Z3 = Z E.
 */
#include "czk/pairing.h"

#include "ec/ec_internal.h"

typedef struct twist_proj {
    czk_fp2 x, y, z;
} twist_proj;

static void dbl_step(czk_fp2 c[3], twist_proj *t)
{
    const czk_fp2 *b = czk__g2_b();
    czk_fp2 B, C, E, F, H, xx, xy, s;
    czk_fp2_sqr(&B, &t->y);   /* Y^2 */
    czk_fp2_sqr(&C, &t->z);   /* Z^2 */
    czk_fp2_mul(&E, &C, b);   /* b' Z^2 */
    czk_fp2_dbl(&s, &E);
    czk_fp2_add(&E, &E, &s);  /* E = 3 b' Z^2 */
    czk_fp2_dbl(&F, &E);
    czk_fp2_add(&F, &F, &E);  /* F = 9 b' Z^2 */
    czk_fp2_add(&H, &t->y, &t->z);
    czk_fp2_sqr(&H, &H);
    czk_fp2_sub(&H, &H, &B);
    czk_fp2_sub(&H, &H, &C);  /* H = 2 Y Z */
    czk_fp2_sqr(&xx, &t->x);
    czk_fp2_mul(&xy, &t->x, &t->y);
    /* line */
    czk_fp2_sub(&c[0], &B, &E);
    czk_fp2_dbl(&s, &xx);
    czk_fp2_add(&s, &s, &xx);
    czk_fp2_neg(&c[1], &s);
    c[2] = H;
    /* X3 = 2 X Y (B - F) */
    czk_fp2_sub(&s, &B, &F);
    czk_fp2_mul(&t->x, &xy, &s);
    czk_fp2_dbl(&t->x, &t->x);
    /* Y3 = (B + F)^2 - 12 E^2 */
    czk_fp2_add(&s, &B, &F);
    czk_fp2_sqr(&s, &s);
    czk_fp2_sqr(&E, &E);
    czk_fp2_dbl(&F, &E);
    czk_fp2_add(&F, &F, &E);
    czk_fp2_dbl(&F, &F);
    czk_fp2_dbl(&F, &F);
    czk_fp2_sub(&t->y, &s, &F);
    /* Z3 = 4 B H = 8 Y^3 Z */
    czk_fp2_mul(&t->z, &B, &H);
    czk_fp2_dbl(&t->z, &t->z);
    czk_fp2_dbl(&t->z, &t->z);
}

static void add_step(czk_fp2 c[3], twist_proj *t, const czk_g2_affine *q)
{
    czk_fp2 theta, lambda, C, D, E, F, G, H, s;
    czk_fp2_mul(&s, &q->y, &t->z);
    czk_fp2_sub(&theta, &t->y, &s);
    czk_fp2_mul(&s, &q->x, &t->z);
    czk_fp2_sub(&lambda, &t->x, &s);
    /* line */
    czk_fp2_mul(&c[0], &theta, &q->x);
    czk_fp2_mul(&s, &lambda, &q->y);
    czk_fp2_sub(&c[0], &c[0], &s);
    czk_fp2_neg(&c[1], &theta);
    c[2] = lambda;
    /* point */
    czk_fp2_sqr(&C, &theta);
    czk_fp2_sqr(&D, &lambda);
    czk_fp2_mul(&E, &lambda, &D);
    czk_fp2_mul(&F, &t->z, &C);
    czk_fp2_mul(&G, &t->x, &D);
    czk_fp2_add(&H, &E, &F);
    czk_fp2_sub(&H, &H, &G);
    czk_fp2_sub(&H, &H, &G);
    czk_fp2_mul(&t->x, &lambda, &H);
    czk_fp2_sub(&s, &G, &H);
    czk_fp2_mul(&s, &theta, &s);
    czk_fp2_mul(&G, &t->y, &E);
    czk_fp2_sub(&t->y, &s, &G);
    czk_fp2_mul(&t->z, &t->z, &E);
}

void czk_g2_prepare(czk_g2_prepared *r, const czk_g2_affine *q)
{
    r->inf = q->inf;
    if (q->inf) return;
    twist_proj t;
    t.x = q->x;
    t.y = q->y;
    czk_fp2_set_one(&t.z);
    int k = 0;
    for (int i = 62; i >= 0; i--) {
        dbl_step(r->coeffs[k++], &t);
        if ((CZK_BLS_X_ABS >> i) & 1) add_step(r->coeffs[k++], &t, q);
    }
    CZK_ASSERT(k == CZK_PAIRING_LINES);
}

/* f = f * (c0 + (c1 xP) v + (c4 yP) v w) */
static void mul_line(czk_fp12 *f, const czk_fp2 c[3], const czk_g1_affine *p)
{
    czk_fp2 o1, o4;
    czk_fp2_mul_fp(&o1, &c[1], &p->x);
    czk_fp2_mul_fp(&o4, &c[2], &p->y);
    czk_fp12_mul_by_014(f, f, &c[0], &o1, &o4);
}

/* f_{|x|,Q}(P) by the bits of |x| from the second highest; x < 0, so the
 * result is conjugated (f^-1 and conj(f) agree after the final exponentiation,
 * as conj(f) = f^(p^6)). */
void czk_pairing_miller_loop_prepared(czk_fp12 *out, const czk_g1_affine *p,
                                      const czk_g2_prepared *q, size_t n)
{
    czk_fp12 f;
    czk_fp12_set_one(&f);
    int k = 0;
    for (int i = 62; i >= 0; i--) {
        if (i != 62) czk_fp12_sqr(&f, &f);
        for (size_t j = 0; j < n; j++)
            if (!p[j].inf && !q[j].inf) mul_line(&f, q[j].coeffs[k], &p[j]);
        k++;
        if ((CZK_BLS_X_ABS >> i) & 1) {
            for (size_t j = 0; j < n; j++)
                if (!p[j].inf && !q[j].inf) mul_line(&f, q[j].coeffs[k], &p[j]);
            k++;
        }
    }
    czk_fp12_conj(out, &f);
}

#define MILLER_BATCH 8

void czk_pairing_miller_loop(czk_fp12 *out, const czk_g1_affine *p, const czk_g2_affine *q,
                             size_t n)
{
    /* Projective twist points advanced in lock-step, up to MILLER_BATCH at a
     * time; batches multiply together. */
    czk_fp12 acc;
    czk_fp12_set_one(&acc);
    for (size_t base = 0; base < n; base += MILLER_BATCH) {
        size_t m = n - base < MILLER_BATCH ? n - base : MILLER_BATCH;
        twist_proj t[MILLER_BATCH];
        int live[MILLER_BATCH];
        for (size_t j = 0; j < m; j++) {
            live[j] = !p[base + j].inf && !q[base + j].inf;
            t[j].x = q[base + j].x;
            t[j].y = q[base + j].y;
            czk_fp2_set_one(&t[j].z);
        }
        czk_fp12 f;
        czk_fp2 c[3];
        czk_fp12_set_one(&f);
        for (int i = 62; i >= 0; i--) {
            if (i != 62) czk_fp12_sqr(&f, &f);
            for (size_t j = 0; j < m; j++) {
                if (!live[j]) continue;
                dbl_step(c, &t[j]);
                mul_line(&f, c, &p[base + j]);
            }
            if ((CZK_BLS_X_ABS >> i) & 1) {
                for (size_t j = 0; j < m; j++) {
                    if (!live[j]) continue;
                    add_step(c, &t[j], &q[base + j]);
                    mul_line(&f, c, &p[base + j]);
                }
            }
        }
        czk_fp12_mul(&acc, &acc, &f);
    }
    czk_fp12_conj(out, &acc);
}

/* r = a^|x| in the cyclotomic subgroup */
static void cyc_exp_x_abs(czk_fp12 *r, const czk_fp12 *a)
{
    czk_fp12 acc = *a;
    for (int i = 62; i >= 0; i--) {
        czk_fp12_cyclotomic_sqr(&acc, &acc);
        if ((CZK_BLS_X_ABS >> i) & 1) czk_fp12_mul(&acc, &acc, a);
    }
    *r = acc;
}

/* r = a^x = conj(a^|x|) (a^-1 = conj(a) in the cyclotomic subgroup) */
static void cyc_exp_x(czk_fp12 *r, const czk_fp12 *a)
{
    cyc_exp_x_abs(r, a);
    czk_fp12_conj(r, r);
}

/* Easy part f^((p^6 - 1)(p^2 + 1)), then the hard part with the exponent
 * 3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3 (Hayashida,
 * Hayasaka, Teruya, ePrint 2020/875, §4). The result is e(P, Q)^3 for the
 * plain exponent (p^12 - 1)/r: still a non-degenerate bilinear pairing
 * (3 does not divide r), and the value blst and zkcrypto's bls12_381 (hence
 * bellperson) compute, so Gt elements agree with theirs. */
void czk_pairing_final_exp(czk_fp12 *out, const czk_fp12 *f)
{
    czk_fp12 t, g, a, b, c;
    /* easy part */
    czk_fp12_inv(&t, f);
    czk_fp12_conj(&g, f);
    czk_fp12_mul(&g, &g, &t);
    czk_fp12_frobenius(&t, &g, 2);
    czk_fp12_mul(&g, &g, &t);
    /* a = g^((x - 1)^2) = g^((|x| + 1)^2): u = g^(|x|+1), a = u^(|x|+1) */
    cyc_exp_x_abs(&t, &g);
    czk_fp12_mul(&t, &t, &g);
    cyc_exp_x_abs(&a, &t);
    czk_fp12_mul(&a, &a, &t);
    /* b = a^(x + p) */
    cyc_exp_x(&b, &a);
    czk_fp12_frobenius(&t, &a, 1);
    czk_fp12_mul(&b, &b, &t);
    /* c = b^(x^2 + p^2 - 1) */
    cyc_exp_x_abs(&c, &b);
    cyc_exp_x_abs(&c, &c);
    czk_fp12_frobenius(&t, &b, 2);
    czk_fp12_mul(&c, &c, &t);
    czk_fp12_conj(&t, &b);
    czk_fp12_mul(&c, &c, &t);
    /* out = c g^3 */
    czk_fp12_cyclotomic_sqr(&t, &g);
    czk_fp12_mul(&t, &t, &g);
    czk_fp12_mul(out, &c, &t);
}

void czk_pairing(czk_fp12 *out, const czk_g1_affine *p, const czk_g2_affine *q)
{
    czk_pairing_multi(out, p, q, 1);
}

void czk_pairing_multi(czk_fp12 *out, const czk_g1_affine *p, const czk_g2_affine *q, size_t n)
{
    czk_fp12 f;
    czk_pairing_miller_loop(&f, p, q, n);
    czk_pairing_final_exp(out, &f);
}

int czk_pairing_check(const czk_g1_affine *p, const czk_g2_affine *q, size_t n)
{
    czk_fp12 r;
    czk_pairing_multi(&r, p, q, n);
    return czk_fp12_is_one(&r);
}

int czk_pairing_check_prepared(const czk_g1_affine *p, const czk_g2_prepared *q, size_t n)
{
    czk_fp12 f, r;
    czk_pairing_miller_loop_prepared(&f, p, q, n);
    czk_pairing_final_exp(&r, &f);
    return czk_fp12_is_one(&r);
}
