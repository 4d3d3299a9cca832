/* czk ec — G2: y^2 = x^3 + 4(u + 1) over Fp2 (the M-type sextic twist). */
#include <pthread.h>

#include "czk/ec.h"
#include "ec/ec_internal.h"
#include "ff/tower_internal.h"

#include "ec/group_g2.h"
#include "ec/curve_impl.h"
#include "ec/group_end.h"

/* ---- constants -------------------------------------------------------------- */

static czk_g2_affine g2_gen;
static czk_fp2 g2_b; /* 4(u + 1) */
static czk_fp2 psi_cx, psi_cy;
static pthread_once_t g2_once = PTHREAD_ONCE_INIT;

static const char G2_GEN_X0[] =
    "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
static const char G2_GEN_X1[] =
    "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
static const char G2_GEN_Y0[] =
    "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
static const char G2_GEN_Y1[] =
    "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";

static void g2_init(void)
{
    int s = 0;
    s |= (int)czk_fp_from_hex(&g2_gen.x.c0, G2_GEN_X0);
    s |= (int)czk_fp_from_hex(&g2_gen.x.c1, G2_GEN_X1);
    s |= (int)czk_fp_from_hex(&g2_gen.y.c0, G2_GEN_Y0);
    s |= (int)czk_fp_from_hex(&g2_gen.y.c1, G2_GEN_Y1);
    CZK_ASSERT(s == 0);
    (void)s;
    g2_gen.inf = 0;
    czk__ec_g2_set_b(&g2_b);
    /* psi(x, y) = (conj(x) w^(2(1-p)), conj(y) w^(3(1-p))) with w^6 = xi:
     * 1 / gamma_1[2] and 1 / gamma_1[3]. */
    czk_fp2_inv_var(&psi_cx, czk__fp12_frob_coeff(1, 2));
    czk_fp2_inv_var(&psi_cy, czk__fp12_frob_coeff(1, 3));
}

void czk__g2_init(void) { pthread_once(&g2_once, g2_init); }

const czk_fp2 *czk__g2_b(void)
{
    czk__g2_init();
    return &g2_b;
}

void czk_g2_generator(czk_g2_affine *r)
{
    czk__g2_init();
    *r = g2_gen;
}

void czk_g2_affine_set_inf(czk_g2_affine *r)
{
    czk_fp2_set_zero(&r->x);
    czk_fp2_set_zero(&r->y);
    r->inf = 1;
}

/* On Jacobian coordinates: psi(X, Y, Z) = (conj(X) cx, conj(Y) cy, conj(Z)),
 * since conjugation is a field automorphism. */
void czk__g2_psi(czk_g2_jac *r, const czk_g2_jac *a)
{
    czk__g2_init();
    czk_fp2 t;
    czk_fp2_conj(&t, &a->x);
    czk_fp2_mul(&r->x, &t, &psi_cx);
    czk_fp2_conj(&t, &a->y);
    czk_fp2_mul(&r->y, &t, &psi_cy);
    czk_fp2_conj(&r->z, &a->z);
}

/* Q in G2 iff psi(Q) = [x] Q (Scott, ePrint 2021/1130, §4, for BLS12). */
int czk_g2_affine_in_subgroup(const czk_g2_affine *a)
{
    if (a->inf) return 1;
    czk_g2_jac p, m, ps;
    czk_g2_jac_from_affine(&p, a);
    mul_x_abs_affine(&m, a);
    czk_g2_jac_neg(&m, &m); /* x < 0 */
    czk__g2_psi(&ps, &p);
    return czk_g2_jac_eq(&ps, &m);
}

size_t czk_g2_affine_first_not_in_subgroup(const czk_g2_affine *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!czk_g2_affine_in_subgroup(&a[i])) return i;
    return n;
}

int czk_g2_affine_in_subgroup_ref(const czk_g2_affine *a)
{
    czk_g2_jac p, q;
    czk_g2_jac_from_affine(&p, a);
    czk_g2_mul_limbs_var(&q, &p, CZK_FR_MODULUS, CZK_FR_LIMBS);
    return czk_g2_jac_is_inf(&q);
}
