/* czk ec — G1: y^2 = x^3 + 4 over Fp. */
#include <pthread.h>

#include "czk/ec.h"
#include "ec/ec_internal.h"
#include "ff/field_impl.h"
#include "ff/tower_internal.h"

#include "ec/group_g1.h"
#include "ec/curve_impl.h"
#include "ec/group_end.h"

/* ---- constants -------------------------------------------------------------- */

static czk_g1_affine g1_gen;
static czk_fp g1_beta; /* cube root of unity with phi(P) = [-x^2] P on G1 */
static pthread_once_t g1_once = PTHREAD_ONCE_INIT;

static const char G1_GEN_X[] =
    "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G1_GEN_Y[] =
    "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";

/* x^2 for the BLS parameter x = -0xd201000000010000 */
static void bls_x_squared(uint64_t out[2])
{
    unsigned __int128 s = (unsigned __int128)CZK_BLS_X_ABS * CZK_BLS_X_ABS;
    out[0] = (uint64_t)s;
    out[1] = (uint64_t)(s >> 64);
}

static void g1_init(void)
{
    czk_status s1 = czk_fp_from_hex(&g1_gen.x, G1_GEN_X);
    czk_status s2 = czk_fp_from_hex(&g1_gen.y, G1_GEN_Y);
    CZK_ASSERT(s1 == CZK_OK && s2 == CZK_OK);
    (void)s1;
    (void)s2;
    g1_gen.inf = 0;
    /* beta = g^((p-1)/3) for the first g that is not a cube; of beta and
     * beta^2 keep the one whose endomorphism acts as -x^2 on the generator
     * (Scott, "A note on group membership tests for G1, G2 and GT on BLS
     * pairing-friendly curves", ePrint 2021/1130, §6). */
    uint64_t pm1[CZK_FP_LIMBS], e[CZK_FP_LIMBS];
    for (int i = 0; i < CZK_FP_LIMBS; i++) pm1[i] = CZK_FP_MODULUS[i];
    pm1[0] -= 1;
    uint64_t rem = czk__limbs_div_small(e, pm1, CZK_FP_LIMBS, 3);
    CZK_ASSERT(rem == 0);
    (void)rem;
    czk_fp beta;
    for (uint64_t g = 2;; g++) {
        czk_fp gf;
        czk_fp_from_u64(&gf, g);
        czk_fp_pow(&beta, &gf, e, CZK_FP_LIMBS);
        if (!czk_fp_is_one(&beta)) break;
    }
    uint64_t x2[2];
    bls_x_squared(x2);
    czk_g1_jac g, gx2, ph;
    czk_g1_jac_from_affine(&g, &g1_gen);
    czk_g1_mul_limbs_var(&gx2, &g, x2, 2);
    czk_g1_jac_neg(&gx2, &gx2);
    for (int attempt = 0; attempt < 2; attempt++) {
        czk_g1_jac_from_affine(&ph, &g1_gen);
        czk_fp_mul(&ph.x, &ph.x, &beta);
        if (czk_g1_jac_eq(&ph, &gx2)) break;
        CZK_ASSERT(attempt == 0);
        czk_fp_sqr(&beta, &beta);
    }
    g1_beta = beta;
}

void czk__g1_init(void) { pthread_once(&g1_once, g1_init); }

void czk_g1_generator(czk_g1_affine *r)
{
    czk__g1_init();
    *r = g1_gen;
}

void czk_g1_affine_set_inf(czk_g1_affine *r)
{
    r->x = CZK_FP_ZERO;
    r->y = CZK_FP_ZERO;
    r->inf = 1;
}

void czk__g1_endo(czk_g1_jac *r, const czk_g1_jac *a)
{
    czk__g1_init();
    czk_fp_mul(&r->x, &a->x, &g1_beta);
    r->y = a->y;
    r->z = a->z;
}

/* P in G1 iff phi(P) = [-x^2] P (Scott 2021/1130, §6, for BLS12 curves). */
int czk_g1_affine_in_subgroup(const czk_g1_affine *a)
{
    if (a->inf) return 1;
    czk_g1_jac p, m, ph;
    mul_x_abs_affine(&m, a);
    mul_x_abs(&m, &m);
    czk_g1_jac_neg(&m, &m);
    czk_g1_jac_from_affine(&p, a);
    czk__g1_endo(&ph, &p);
    return czk_g1_jac_eq(&ph, &m);
}

/* ---- batched subgroup test ------------------------------------------------------ */

/* Up to SG_LANES points run the same chain (63 doublings and 5 additions per
 * multiplication by |x|) in lockstep, so the out-of-order core overlaps the
 * independent field multiplications of one step; field calls go through the
 * inline dispatchers of ff/field_impl.h. */
#define SG_LANES 4

/* dbl-2009-l (a = 0) on k points: A = X^2, B = Y^2, C = B^2,
 * D = 2((X + B)^2 - A - C), E = 3A, X3 = E^2 - 2D, Y3 = E(D - X3) - 8C,
 * Z3 = 2 Y Z */
static void sg_dbl(czk_g1_jac *p, int k)
{
    czk_fp A[SG_LANES], B[SG_LANES], C[SG_LANES], D[SG_LANES], E[SG_LANES], t[SG_LANES];
    for (int i = 0; i < k; i++) czk__fp_sqr(&A[i], &p[i].x);
    for (int i = 0; i < k; i++) czk__fp_sqr(&B[i], &p[i].y);
    for (int i = 0; i < k; i++) czk__fp_mul(&p[i].z, &p[i].y, &p[i].z);
    for (int i = 0; i < k; i++) czk__fp_sqr(&C[i], &B[i]);
    for (int i = 0; i < k; i++) {
        czk__fp_add(&D[i], &p[i].x, &B[i]);
        czk__fp_sqr(&D[i], &D[i]);
    }
    for (int i = 0; i < k; i++) {
        czk__fp_sub(&D[i], &D[i], &A[i]);
        czk__fp_sub(&D[i], &D[i], &C[i]);
        czk__fp_dbl(&D[i], &D[i]);
        czk__fp_dbl(&E[i], &A[i]);
        czk__fp_add(&E[i], &E[i], &A[i]);
        czk__fp_sqr(&t[i], &E[i]);
    }
    for (int i = 0; i < k; i++) {
        czk__fp_dbl(&p[i].z, &p[i].z);
        czk__fp_sub(&t[i], &t[i], &D[i]);
        czk__fp_sub(&p[i].x, &t[i], &D[i]);
        czk__fp_sub(&t[i], &D[i], &p[i].x);
        czk__fp_mul(&t[i], &E[i], &t[i]);
    }
    for (int i = 0; i < k; i++) {
        czk__fp_dbl(&C[i], &C[i]);
        czk__fp_dbl(&C[i], &C[i]);
        czk__fp_dbl(&C[i], &C[i]);
        czk__fp_sub(&p[i].y, &t[i], &C[i]);
    }
}

/* ok[i] = (phi(P_i) == [-x^2] P_i) for k finite points (Scott 2021/1130, §6). */
static void sg_lanes(int *ok, const czk_g1_affine *const *a, int k)
{
    czk_g1_jac acc[SG_LANES], m1[SG_LANES];
    for (int i = 0; i < k; i++) czk_g1_jac_from_affine(&acc[i], a[i]);
    /* [|x|] P; the additions keep the generic formulas (exceptional cases) */
    for (int b = 62; b >= 0; b--) {
        sg_dbl(acc, k);
        if ((CZK_BLS_X_ABS >> b) & 1)
            for (int i = 0; i < k; i++) czk_g1_jac_add_affine(&acc[i], &acc[i], a[i]);
    }
    for (int i = 0; i < k; i++) m1[i] = acc[i];
    /* [x^2] P = [|x|]([|x|] P) */
    for (int b = 62; b >= 0; b--) {
        sg_dbl(acc, k);
        if ((CZK_BLS_X_ABS >> b) & 1)
            for (int i = 0; i < k; i++) czk_g1_jac_add(&acc[i], &acc[i], &m1[i]);
    }
    /* phi(P) = (beta x, y) equals -[x^2] P = (X/Z^2, -Y/Z^3) */
    for (int i = 0; i < k; i++) {
        if (czk_fp_is_zero(&acc[i].z)) {
            ok[i] = 0;
            continue;
        }
        czk_fp z2, l, r;
        czk__fp_sqr(&z2, &acc[i].z);
        czk__fp_mul(&l, &a[i]->x, &g1_beta);
        czk__fp_mul(&l, &l, &z2);
        if (!czk_fp_eq(&l, &acc[i].x)) {
            ok[i] = 0;
            continue;
        }
        czk__fp_mul(&z2, &z2, &acc[i].z);
        czk__fp_mul(&l, &a[i]->y, &z2);
        czk_fp_neg(&r, &acc[i].y);
        ok[i] = czk_fp_eq(&l, &r);
    }
}

size_t czk_g1_affine_first_not_in_subgroup(const czk_g1_affine *a, size_t n)
{
    czk__g1_init();
    size_t i = 0;
    while (i < n) {
        const czk_g1_affine *lane[SG_LANES];
        size_t idx[SG_LANES];
        int k = 0, ok[SG_LANES];
        for (; i < n && k < SG_LANES; i++)
            if (!a[i].inf) lane[k] = &a[i], idx[k++] = i;
        sg_lanes(ok, lane, k);
        for (int j = 0; j < k; j++)
            if (!ok[j]) return idx[j];
    }
    return n;
}

int czk_g1_affine_in_subgroup_ref(const czk_g1_affine *a)
{
    czk_g1_jac p, q;
    czk_g1_jac_from_affine(&p, a);
    czk_g1_mul_limbs_var(&q, &p, CZK_FR_MODULUS, CZK_FR_LIMBS);
    return czk_g1_jac_is_inf(&q);
}
