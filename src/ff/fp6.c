/* czk ff — Fp6 = Fp2[v] / (v^3 - xi), xi = u + 1.
 *
 * Karatsuba multiplication (6 Fp2 products) and the CH-SQR2 squaring of
 * Chung and Hasan, both from Devegili, O hEigeartaigh, Scott, Dahab,
 * "Multiplication and Squaring on Pairing-Friendly Fields" (2006), §4.
 */
#include "czk/tower.h"

void czk_fp6_add(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b)
{
    czk_fp2_add(&r->c0, &a->c0, &b->c0);
    czk_fp2_add(&r->c1, &a->c1, &b->c1);
    czk_fp2_add(&r->c2, &a->c2, &b->c2);
}

void czk_fp6_sub(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b)
{
    czk_fp2_sub(&r->c0, &a->c0, &b->c0);
    czk_fp2_sub(&r->c1, &a->c1, &b->c1);
    czk_fp2_sub(&r->c2, &a->c2, &b->c2);
}

void czk_fp6_neg(czk_fp6 *r, const czk_fp6 *a)
{
    czk_fp2_neg(&r->c0, &a->c0);
    czk_fp2_neg(&r->c1, &a->c1);
    czk_fp2_neg(&r->c2, &a->c2);
}

void czk_fp6_mul(czk_fp6 *r, const czk_fp6 *a, const czk_fp6 *b)
{
    czk_fp2 v0, v1, v2, s, t, c0, c1, c2;
    czk_fp2_mul(&v0, &a->c0, &b->c0);
    czk_fp2_mul(&v1, &a->c1, &b->c1);
    czk_fp2_mul(&v2, &a->c2, &b->c2);
    /* c0 = xi((a1 + a2)(b1 + b2) - v1 - v2) + v0 */
    czk_fp2_add(&s, &a->c1, &a->c2);
    czk_fp2_add(&t, &b->c1, &b->c2);
    czk_fp2_mul(&s, &s, &t);
    czk_fp2_sub(&s, &s, &v1);
    czk_fp2_sub(&s, &s, &v2);
    czk_fp2_mul_by_nonresidue(&s, &s);
    czk_fp2_add(&c0, &s, &v0);
    /* c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2 */
    czk_fp2_add(&s, &a->c0, &a->c1);
    czk_fp2_add(&t, &b->c0, &b->c1);
    czk_fp2_mul(&s, &s, &t);
    czk_fp2_sub(&s, &s, &v0);
    czk_fp2_sub(&s, &s, &v1);
    czk_fp2_mul_by_nonresidue(&t, &v2);
    czk_fp2_add(&c1, &s, &t);
    /* c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1 */
    czk_fp2_add(&s, &a->c0, &a->c2);
    czk_fp2_add(&t, &b->c0, &b->c2);
    czk_fp2_mul(&s, &s, &t);
    czk_fp2_sub(&s, &s, &v0);
    czk_fp2_sub(&s, &s, &v2);
    czk_fp2_add(&c2, &s, &v1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

void czk_fp6_sqr(czk_fp6 *r, const czk_fp6 *a)
{
    czk_fp2 s0, s1, s2, s3, s4, t;
    /* s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2 */
    czk_fp2_sqr(&s0, &a->c0);
    czk_fp2_mul(&s1, &a->c0, &a->c1);
    czk_fp2_dbl(&s1, &s1);
    czk_fp2_sub(&t, &a->c0, &a->c1);
    czk_fp2_add(&t, &t, &a->c2);
    czk_fp2_sqr(&s2, &t);
    czk_fp2_mul(&s3, &a->c1, &a->c2);
    czk_fp2_dbl(&s3, &s3);
    czk_fp2_sqr(&s4, &a->c2);
    /* c0 = xi s3 + s0, c1 = xi s4 + s1, c2 = s1 + s2 + s3 - s0 - s4 */
    czk_fp2_mul_by_nonresidue(&t, &s3);
    czk_fp2_add(&r->c0, &t, &s0);
    czk_fp2_add(&t, &s1, &s2);
    czk_fp2_add(&t, &t, &s3);
    czk_fp2_sub(&t, &t, &s0);
    czk_fp2_sub(&r->c2, &t, &s4);
    czk_fp2_mul_by_nonresidue(&t, &s4);
    czk_fp2_add(&r->c1, &t, &s1);
}

/* Inverse by the adjugate: with t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1,
 * t2 = a1^2 - a0 a2, a^-1 = (t0 + t1 v + t2 v^2) / (a0 t0 + xi (a2 t1 + a1 t2)). */
void czk_fp6_inv(czk_fp6 *r, const czk_fp6 *a)
{
    czk_fp2 t0, t1, t2, s, d;
    czk_fp2_sqr(&t0, &a->c0);
    czk_fp2_mul(&s, &a->c1, &a->c2);
    czk_fp2_mul_by_nonresidue(&s, &s);
    czk_fp2_sub(&t0, &t0, &s);
    czk_fp2_sqr(&t1, &a->c2);
    czk_fp2_mul_by_nonresidue(&t1, &t1);
    czk_fp2_mul(&s, &a->c0, &a->c1);
    czk_fp2_sub(&t1, &t1, &s);
    czk_fp2_sqr(&t2, &a->c1);
    czk_fp2_mul(&s, &a->c0, &a->c2);
    czk_fp2_sub(&t2, &t2, &s);
    czk_fp2_mul(&d, &a->c2, &t1);
    czk_fp2_mul(&s, &a->c1, &t2);
    czk_fp2_add(&d, &d, &s);
    czk_fp2_mul_by_nonresidue(&d, &d);
    czk_fp2_mul(&s, &a->c0, &t0);
    czk_fp2_add(&d, &d, &s);
    czk_fp2_inv(&d, &d);
    czk_fp2_mul(&r->c0, &t0, &d);
    czk_fp2_mul(&r->c1, &t1, &d);
    czk_fp2_mul(&r->c2, &t2, &d);
}

/* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
void czk_fp6_mul_by_nonresidue(czk_fp6 *r, const czk_fp6 *a)
{
    czk_fp2 t;
    czk_fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

/* (a0 + a1 v + a2 v^2)(b0 + b1 v)
 *   = (a0 b0 + xi a2 b1) + (a0 b1 + a1 b0) v + (a1 b1 + a2 b0) v^2, Karatsuba (5 products) */
void czk_fp6_mul_by_01(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b0, const czk_fp2 *b1)
{
    czk_fp2 t0, t1, s, u, c0, c1, c2;
    czk_fp2_mul(&t0, &a->c0, b0);
    czk_fp2_mul(&t1, &a->c1, b1);
    /* c0 = xi ((a1 + a2) b1 - t1) + t0 */
    czk_fp2_add(&s, &a->c1, &a->c2);
    czk_fp2_mul(&s, &s, b1);
    czk_fp2_sub(&s, &s, &t1);
    czk_fp2_mul_by_nonresidue(&s, &s);
    czk_fp2_add(&c0, &s, &t0);
    /* c1 = (a0 + a1)(b0 + b1) - t0 - t1 */
    czk_fp2_add(&s, &a->c0, &a->c1);
    czk_fp2_add(&u, b0, b1);
    czk_fp2_mul(&s, &s, &u);
    czk_fp2_sub(&s, &s, &t0);
    czk_fp2_sub(&c1, &s, &t1);
    /* c2 = (a0 + a2) b0 - t0 + t1 */
    czk_fp2_add(&s, &a->c0, &a->c2);
    czk_fp2_mul(&s, &s, b0);
    czk_fp2_sub(&s, &s, &t0);
    czk_fp2_add(&c2, &s, &t1);
    r->c0 = c0;
    r->c1 = c1;
    r->c2 = c2;
}

/* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
void czk_fp6_mul_by_1(czk_fp6 *r, const czk_fp6 *a, const czk_fp2 *b1)
{
    czk_fp2 t;
    czk_fp2_mul(&t, &a->c2, b1);
    czk_fp2_mul_by_nonresidue(&t, &t);
    czk_fp2_mul(&r->c2, &a->c1, b1);
    czk_fp2_mul(&r->c1, &a->c0, b1);
    r->c0 = t;
}

int czk_fp6_eq(const czk_fp6 *a, const czk_fp6 *b)
{
    return czk_fp2_eq(&a->c0, &b->c0) & czk_fp2_eq(&a->c1, &b->c1) & czk_fp2_eq(&a->c2, &b->c2);
}

int czk_fp6_is_zero(const czk_fp6 *a)
{
    return czk_fp2_is_zero(&a->c0) & czk_fp2_is_zero(&a->c1) & czk_fp2_is_zero(&a->c2);
}

void czk_fp6_set_zero(czk_fp6 *r)
{
    czk_fp2_set_zero(&r->c0);
    czk_fp2_set_zero(&r->c1);
    czk_fp2_set_zero(&r->c2);
}

void czk_fp6_set_one(czk_fp6 *r)
{
    czk_fp2_set_one(&r->c0);
    czk_fp2_set_zero(&r->c1);
    czk_fp2_set_zero(&r->c2);
}
