/* czk ec — the group operations of czk/ec.h, written once over the group
 * descriptor (ec/group.h) and included by g1.c and g2.c after
 * ec/group_g1.h / ec/group_g2.h. Both curves are y^2 = x^3 + b (a = 0).
 *
 * Formulas (Explicit-Formulas Database, hyperelliptic.org/EFD, "g1p/shortw"):
 *   Jacobian: add-2007-bl, madd-2007-bl, dbl-2009-l (a = 0), here.
 *   XYZZ:     add-2008-s, madd-2008-s, dbl-2008-s-1, mdbl-2008-s-1, in
 *             ec/ec_formulas_tmpl.h (shared with the MSM and io's sums);
 *             the public XYZZ functions below wrap them.
 *   Projective (constant-time multiplication): Renes, Costello, Batina,
 *   "Complete addition formulas for prime order elliptic curves" (2016),
 *   Algorithms 7 (addition) and 9 (doubling) for a = 0.
 * The Jacobian and XYZZ routines branch on special cases (infinity, P = Q,
 * P = -Q): they are complete but variable time; the projective routines are
 * branch-free.
 */

#include "ec/ec_formulas_tmpl.h"

/* Constant-time r = flag ? a : r on any struct of 64-bit words. */
static inline void fe_words_cmov(void *r, const void *a, size_t bytes, uint64_t flag)
{
    uint64_t *rw = (uint64_t *)r;
    const uint64_t *aw = (const uint64_t *)a;
    uint64_t m = 0 - (flag & 1);
    for (size_t i = 0; i < bytes / 8; i++) rw[i] ^= m & (rw[i] ^ aw[i]);
}

static inline uint64_t fe_ct_is_zero(const FE *a)
{
    const uint64_t *w = (const uint64_t *)a;
    uint64_t acc = 0;
    for (size_t i = 0; i < sizeof(FE) / 8; i++) acc |= w[i];
    return 1 ^ ((acc | (0 - acc)) >> 63);
}

/* ---- Jacobian ------------------------------------------------------------- */

void G_FN(jac_set_inf)(JAC *r) { G_LOCAL(jac_set_inf)(r); }

int G_FN(jac_is_inf)(const JAC *a) { return FE_IS_ZERO(&a->z); }

void G_FN(jac_from_affine)(JAC *r, const AFF *a)
{
    if (a->inf) {
        G_FN(jac_set_inf)(r);
        return;
    }
    r->x = a->x;
    r->y = a->y;
    FE_SET_ONE(&r->z);
}

void G_FN(jac_to_affine)(AFF *r, const JAC *a)
{
    if (FE_IS_ZERO(&a->z)) {
        FE_SET_ZERO(&r->x);
        FE_SET_ZERO(&r->y);
        r->inf = 1;
        return;
    }
    FE zi, zi2;
    FE_INV_VAR(&zi, &a->z);
    FE_SQR(&zi2, &zi);
    FE_MUL(&r->y, &a->y, &zi2);
    FE_MUL(&r->y, &r->y, &zi);
    FE_MUL(&r->x, &a->x, &zi2);
    r->inf = 0;
}

/* Montgomery's trick. Reverse pass: scratch[i] = 1 / Z_i; forward pass: the
 * conversions, so that r may overlap a (r[i] never covers a[j] for j > i). */
void G_FN(jac_batch_to_affine)(AFF *r, const JAC *a, size_t n, FE *scratch)
{
    FE acc, inv, t;
    FE_SET_ONE(&acc);
    for (size_t i = 0; i < n; i++) {
        scratch[i] = acc;
        if (!FE_IS_ZERO(&a[i].z)) FE_MUL(&acc, &acc, &a[i].z);
    }
    FE_INV_VAR(&inv, &acc);
    for (size_t i = n; i-- > 0;) {
        if (FE_IS_ZERO(&a[i].z)) continue;
        FE_MUL(&t, &inv, &scratch[i]); /* 1 / Z_i */
        FE_MUL(&inv, &inv, &a[i].z);
        scratch[i] = t;
    }
    for (size_t i = 0; i < n; i++) {
        if (FE_IS_ZERO(&a[i].z)) {
            FE_SET_ZERO(&r[i].x);
            FE_SET_ZERO(&r[i].y);
            r[i].inf = 1;
            continue;
        }
        FE zi2, x, y;
        FE_SQR(&zi2, &scratch[i]);
        FE_MUL(&x, &a[i].x, &zi2);
        FE_MUL(&y, &a[i].y, &zi2);
        FE_MUL(&y, &y, &scratch[i]);
        r[i].x = x;
        r[i].y = y;
        r[i].inf = 0;
    }
}

/* dbl-2009-l: A = X^2, B = Y^2, C = B^2, D = 2((X + B)^2 - A - C), E = 3A,
 * F = E^2, X3 = F - 2D, Y3 = E(D - X3) - 8C, Z3 = 2 Y Z */
void G_FN(jac_dbl)(JAC *r, const JAC *a)
{
    FE A, B, C, D, E, F, t;
    FE_SQR(&A, &a->x);
    FE_SQR(&B, &a->y);
    FE_SQR(&C, &B);
    FE_ADD(&D, &a->x, &B);
    FE_SQR(&D, &D);
    FE_SUB(&D, &D, &A);
    FE_SUB(&D, &D, &C);
    FE_DBL(&D, &D);
    FE_DBL(&E, &A);
    FE_ADD(&E, &E, &A);
    FE_SQR(&F, &E);
    FE_MUL(&r->z, &a->y, &a->z);
    FE_DBL(&r->z, &r->z);
    FE_DBL(&t, &D);
    FE_SUB(&r->x, &F, &t);
    FE_SUB(&t, &D, &r->x);
    FE_MUL(&t, &E, &t);
    FE_DBL(&C, &C);
    FE_DBL(&C, &C);
    FE_DBL(&C, &C);
    FE_SUB(&r->y, &t, &C);
}

/* H = 0 in an addition: the two points are equal (R = 0: double) or
 * opposite (the sum is infinity). Returns 1 when it wrote r. */
static inline int G_FN(jac_add_degenerate)(JAC *r, const JAC *a, const FE *h, const FE *rr)
{
    if (!FE_IS_ZERO(h))
        return 0;
    if (FE_IS_ZERO(rr))
        G_FN(jac_dbl)(r, a);
    else
        G_FN(jac_set_inf)(r);
    return 1;
}

/* The tail add-2007-bl and madd-2007-bl share, with R already doubled:
 * X3 = R^2 - J - 2V, Y3 = R(V - X3) - 2 Y J, where Y is S1 (add) or Y1
 * (madd). Reads rr, j, v, y before writing r->x and r->y. */
static inline void G_FN(jac_add_xy)(JAC *r, const FE *rr, const FE *j, const FE *v, const FE *y)
{
    FE t, yj;
    FE_MUL(&yj, y, j);
    FE_DBL(&yj, &yj);
    FE_SQR(&t, rr);
    FE_SUB(&t, &t, j);
    FE_SUB(&t, &t, v);
    FE_SUB(&r->x, &t, v);
    FE_SUB(&t, v, &r->x);
    FE_MUL(&t, rr, &t);
    FE_SUB(&r->y, &t, &yj);
}

/* add-2007-bl: U1 = X1 Z2^2, U2 = X2 Z1^2, S1 = Y1 Z2^3, S2 = Y2 Z1^3,
 * H = U2 - U1, I = (2H)^2, J = H I, R = 2(S2 - S1), V = U1 I,
 * X3 = R^2 - J - 2V, Y3 = R(V - X3) - 2 S1 J, Z3 = ((Z1 + Z2)^2 - Z1^2 - Z2^2) H */
void G_FN(jac_add)(JAC *r, const JAC *a, const JAC *b)
{
    if (FE_IS_ZERO(&a->z)) {
        *r = *b;
        return;
    }
    if (FE_IS_ZERO(&b->z)) {
        *r = *a;
        return;
    }
    FE z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;
    FE_SQR(&z1z1, &a->z);
    FE_SQR(&z2z2, &b->z);
    FE_MUL(&u1, &a->x, &z2z2);
    FE_MUL(&u2, &b->x, &z1z1);
    FE_MUL(&s1, &a->y, &b->z);
    FE_MUL(&s1, &s1, &z2z2);
    FE_MUL(&s2, &b->y, &a->z);
    FE_MUL(&s2, &s2, &z1z1);
    FE_SUB(&h, &u2, &u1);
    FE_SUB(&rr, &s2, &s1);
    if (G_FN(jac_add_degenerate)(r, a, &h, &rr))
        return;
    FE_DBL(&i, &h);
    FE_SQR(&i, &i);
    FE_MUL(&j, &h, &i);
    FE_DBL(&rr, &rr);
    FE_MUL(&v, &u1, &i);
    FE_ADD(&t, &a->z, &b->z);
    FE_SQR(&t, &t);
    FE_SUB(&t, &t, &z1z1);
    FE_SUB(&t, &t, &z2z2);
    FE_MUL(&r->z, &t, &h);
    G_FN(jac_add_xy)(r, &rr, &j, &v, &s1);
}

/* madd-2007-bl: U2 = X2 Z1^2, S2 = Y2 Z1^3, H = U2 - X1, HH = H^2, I = 4 HH,
 * J = H I, R = 2(S2 - Y1), V = X1 I, X3 = R^2 - J - 2V,
 * Y3 = R(V - X3) - 2 Y1 J, Z3 = (Z1 + H)^2 - Z1^2 - HH */
void G_FN(jac_add_affine)(JAC *r, const JAC *a, const AFF *b)
{
    if (b->inf) {
        *r = *a;
        return;
    }
    if (FE_IS_ZERO(&a->z)) {
        G_FN(jac_from_affine)(r, b);
        return;
    }
    FE z1z1, u2, s2, h, hh, i, j, rr, v, t;
    FE_SQR(&z1z1, &a->z);
    FE_MUL(&u2, &b->x, &z1z1);
    FE_MUL(&s2, &b->y, &a->z);
    FE_MUL(&s2, &s2, &z1z1);
    FE_SUB(&h, &u2, &a->x);
    FE_SUB(&rr, &s2, &a->y);
    if (G_FN(jac_add_degenerate)(r, a, &h, &rr))
        return;
    FE_SQR(&hh, &h);
    FE_DBL(&i, &hh);
    FE_DBL(&i, &i);
    FE_MUL(&j, &h, &i);
    FE_DBL(&rr, &rr);
    FE_MUL(&v, &a->x, &i);
    FE_ADD(&t, &a->z, &h);
    FE_SQR(&t, &t);
    FE_SUB(&t, &t, &z1z1);
    FE_SUB(&r->z, &t, &hh);
    G_FN(jac_add_xy)(r, &rr, &j, &v, &a->y); /* r may be a: Z3 leaves Y1 alone */
}

void G_FN(jac_neg)(JAC *r, const JAC *a)
{
    r->x = a->x;
    FE_NEG(&r->y, &a->y);
    r->z = a->z;
}

void G_FN(affine_neg)(AFF *r, const AFF *a)
{
    r->x = a->x;
    FE_NEG(&r->y, &a->y);
    r->inf = a->inf;
}

/* X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3 */
int G_FN(jac_eq)(const JAC *a, const JAC *b)
{
    int ia = FE_IS_ZERO(&a->z), ib = FE_IS_ZERO(&b->z);
    if (ia || ib) return ia && ib;
    FE z1z1, z2z2, l, rt;
    FE_SQR(&z1z1, &a->z);
    FE_SQR(&z2z2, &b->z);
    FE_MUL(&l, &a->x, &z2z2);
    FE_MUL(&rt, &b->x, &z1z1);
    if (!FE_EQ(&l, &rt)) return 0;
    FE_MUL(&z2z2, &z2z2, &b->z);
    FE_MUL(&z1z1, &z1z1, &a->z);
    FE_MUL(&l, &a->y, &z2z2);
    FE_MUL(&rt, &b->y, &z1z1);
    return FE_EQ(&l, &rt);
}

int G_FN(affine_eq)(const AFF *a, const AFF *b)
{
    if (a->inf || b->inf) return a->inf && b->inf;
    return FE_EQ(&a->x, &b->x) && FE_EQ(&a->y, &b->y);
}

int G_FN(affine_is_on_curve)(const AFF *a)
{
    if (a->inf) return 1;
    FE y2, x3, b;
    FE_SQR(&y2, &a->y);
    FE_SQR(&x3, &a->x);
    FE_MUL(&x3, &x3, &a->x);
    FE_SET_B(&b);
    FE_ADD(&x3, &x3, &b);
    return FE_EQ(&y2, &x3);
}

/* ---- projective, branch-free (RCB 2016) --------------------------------------- */

typedef struct proj_pt {
    FE x, y, z;
} proj_pt;

/* Algorithm 7 (a = 0): complete addition, 12M + 2 m_3b + 19a. */
static void proj_add(proj_pt *r, const proj_pt *p, const proj_pt *q)
{
    FE t0, t1, t2, t3, t4, x3, y3, z3;
    FE_MUL(&t0, &p->x, &q->x);
    FE_MUL(&t1, &p->y, &q->y);
    FE_MUL(&t2, &p->z, &q->z);
    FE_ADD(&t3, &p->x, &p->y);
    FE_ADD(&t4, &q->x, &q->y);
    FE_MUL(&t3, &t3, &t4);
    FE_ADD(&t4, &t0, &t1);
    FE_SUB(&t3, &t3, &t4);
    FE_ADD(&t4, &p->y, &p->z);
    FE_ADD(&x3, &q->y, &q->z);
    FE_MUL(&t4, &t4, &x3);
    FE_ADD(&x3, &t1, &t2);
    FE_SUB(&t4, &t4, &x3);
    FE_ADD(&x3, &p->x, &p->z);
    FE_ADD(&y3, &q->x, &q->z);
    FE_MUL(&x3, &x3, &y3);
    FE_ADD(&y3, &t0, &t2);
    FE_SUB(&y3, &x3, &y3);
    FE_DBL(&x3, &t0);
    FE_ADD(&t0, &x3, &t0);
    FE_MUL_B3(&t2, &t2);
    FE_ADD(&z3, &t1, &t2);
    FE_SUB(&t1, &t1, &t2);
    FE_MUL_B3(&y3, &y3);
    FE_MUL(&x3, &t4, &y3);
    FE_MUL(&t2, &t3, &t1);
    FE_SUB(&x3, &t2, &x3);
    FE_MUL(&y3, &y3, &t0);
    FE_MUL(&t1, &t1, &z3);
    FE_ADD(&y3, &t1, &y3);
    FE_MUL(&t0, &t0, &t3);
    FE_MUL(&z3, &z3, &t4);
    FE_ADD(&z3, &z3, &t0);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* Algorithm 9 (a = 0): doubling, 6M + 2S + 1 m_3b + 9a. */
static void proj_dbl(proj_pt *r, const proj_pt *p)
{
    FE t0, t1, t2, x3, y3, z3;
    FE_SQR(&t0, &p->y);
    FE_DBL(&z3, &t0);
    FE_DBL(&z3, &z3);
    FE_DBL(&z3, &z3);
    FE_MUL(&t1, &p->y, &p->z);
    FE_SQR(&t2, &p->z);
    FE_MUL_B3(&t2, &t2);
    FE_MUL(&x3, &t2, &z3);
    FE_ADD(&y3, &t0, &t2);
    FE_MUL(&z3, &t1, &z3);
    FE_DBL(&t1, &t2);
    FE_ADD(&t2, &t1, &t2);
    FE_SUB(&t0, &t0, &t2);
    FE_MUL(&y3, &t0, &y3);
    FE_ADD(&y3, &x3, &y3);
    FE_MUL(&t1, &p->x, &p->y);
    FE_MUL(&x3, &t0, &t1);
    FE_DBL(&x3, &x3);
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* Jacobian (X, Y, Z) -> projective (X Z, Y, Z^3); infinity -> (0 : 1 : 0). */
static void proj_from_jac(proj_pt *r, const JAC *a)
{
    proj_pt inf;
    FE t;
    uint64_t is_inf = fe_ct_is_zero(&a->z);
    FE_MUL(&r->x, &a->x, &a->z);
    r->y = a->y;
    FE_SQR(&t, &a->z);
    FE_MUL(&r->z, &t, &a->z);
    FE_SET_ZERO(&inf.x);
    FE_SET_ONE(&inf.y);
    FE_SET_ZERO(&inf.z);
    fe_words_cmov(r, &inf, sizeof(proj_pt), is_inf);
}

/* projective (X : Y : Z) -> Jacobian (X Z, Y Z^2, Z); infinity -> (1, 1, 0). */
static void proj_to_jac(JAC *r, const proj_pt *a)
{
    JAC inf;
    FE t;
    uint64_t is_inf = fe_ct_is_zero(&a->z);
    FE_SQR(&t, &a->z);
    FE_MUL(&r->y, &a->y, &t);
    FE_MUL(&r->x, &a->x, &a->z);
    r->z = a->z;
    G_FN(jac_set_inf)(&inf);
    fe_words_cmov(r, &inf, sizeof(JAC), is_inf);
}

#define CT_WINDOW 4

/* Fixed 4-bit windows from the top, a table of 0..15 multiples read in full
 * for every window (constant-time lookup), complete projective formulas:
 * 252 doublings and 64 additions for every scalar. */
void G_FN(mul_ct)(JAC *r, const JAC *a, const czk_fr *k)
{
    uint64_t e[CZK_FR_LIMBS];
    czk_fr_to_limbs(e, k);
    proj_pt tab[1 << CT_WINDOW], acc, sel;
    FE_SET_ZERO(&tab[0].x);
    FE_SET_ONE(&tab[0].y);
    FE_SET_ZERO(&tab[0].z);
    proj_from_jac(&tab[1], a);
    for (int i = 2; i < (1 << CT_WINDOW); i++) {
        if (i & 1)
            proj_add(&tab[i], &tab[i - 1], &tab[1]);
        else
            proj_dbl(&tab[i], &tab[i / 2]);
    }
    const int nwin = (CZK_FR_LIMBS * 64) / CT_WINDOW;
    acc = tab[0];
    for (int w = nwin - 1; w >= 0; w--) {
        if (w != nwin - 1)
            for (int d = 0; d < CT_WINDOW; d++) proj_dbl(&acc, &acc);
        unsigned bitpos = (unsigned)w * CT_WINDOW;
        uint64_t idx = (e[bitpos / 64] >> (bitpos % 64)) & ((1u << CT_WINDOW) - 1);
        sel = tab[0];
        for (uint64_t j = 1; j < (1u << CT_WINDOW); j++) {
            uint64_t diff = j ^ idx;
            uint64_t eq = 1 ^ ((diff | (0 - diff)) >> 63);
            fe_words_cmov(&sel, &tab[j], sizeof(proj_pt), eq);
        }
        proj_add(&acc, &acc, &sel);
    }
    proj_to_jac(r, &acc);
    for (int i = 0; i < CZK_FR_LIMBS; i++) ((volatile uint64_t *)e)[i] = 0;
}

/* ---- variable-time multiplication ---------------------------------------- */

#define VAR_WINDOW 5
#define VAR_MAX_LIMBS 16

/* Signed 5-bit windows: digit_i in [-16, 16) from bits 5i..5i+4 plus a carry
 * from the window below; odd and even multiples 1..16 P in a table. */
void G_FN(mul_limbs_var)(JAC *r, const JAC *a, const uint64_t *k, size_t nlimbs)
{
    CZK_ASSERT(nlimbs <= VAR_MAX_LIMBS);
    while (nlimbs > 0 && k[nlimbs - 1] == 0) nlimbs--;
    if (nlimbs == 0 || FE_IS_ZERO(&a->z)) {
        G_FN(jac_set_inf)(r);
        return;
    }
    size_t nbits = nlimbs * 64;
    size_t ndig = nbits / VAR_WINDOW + 2;
    signed char dig[VAR_MAX_LIMBS * 64 / VAR_WINDOW + 2];
    int carry = 0;
    for (size_t i = 0; i < ndig; i++) {
        size_t pos = i * VAR_WINDOW;
        uint64_t v = 0;
        if (pos < nbits) {
            v = k[pos / 64] >> (pos % 64);
            if (pos % 64 > 64 - VAR_WINDOW && pos / 64 + 1 < nlimbs)
                v |= k[pos / 64 + 1] << (64 - pos % 64);
            v &= (1u << VAR_WINDOW) - 1;
        }
        int d = (int)v + carry;
        if (d >= (1 << (VAR_WINDOW - 1))) {
            d -= 1 << VAR_WINDOW;
            carry = 1;
        } else {
            carry = 0;
        }
        dig[i] = (signed char)d;
    }
    CZK_ASSERT(carry == 0);
    JAC tab[1 << (VAR_WINDOW - 1)]; /* tab[i] = (i + 1) P */
    tab[0] = *a;
    G_FN(jac_dbl)(&tab[1], a);
    for (int i = 2; i < (1 << (VAR_WINDOW - 1)); i++) G_FN(jac_add)(&tab[i], &tab[i - 1], a);
    JAC acc;
    G_FN(jac_set_inf)(&acc);
    size_t top = ndig;
    while (top > 0 && dig[top - 1] == 0) top--;
    for (size_t i = top; i-- > 0;) {
        if (i + 1 != top)
            for (int d = 0; d < VAR_WINDOW; d++) G_FN(jac_dbl)(&acc, &acc);
        int d = dig[i];
        if (d > 0) {
            G_FN(jac_add)(&acc, &acc, &tab[d - 1]);
        } else if (d < 0) {
            JAC n;
            G_FN(jac_neg)(&n, &tab[-d - 1]);
            G_FN(jac_add)(&acc, &acc, &n);
        }
    }
    *r = acc;
}

/* r = [|x|] a, |x| = 0xd201000000010000 (Hamming weight 6): 63 doublings and
 * 5 mixed additions along its bits; a finite affine point. */
static void mul_x_abs_affine(JAC *r, const AFF *a)
{
    JAC acc;
    G_FN(jac_from_affine)(&acc, a);
    for (int i = 62; i >= 0; i--) {
        G_FN(jac_dbl)(&acc, &acc);
        if ((CZK_BLS_X_ABS >> i) & 1) G_FN(jac_add_affine)(&acc, &acc, a);
    }
    *r = acc;
}

/* The same for a Jacobian point. */
CZK_UNUSED static void mul_x_abs(JAC *r, const JAC *a)
{
    JAC acc = *a;
    for (int i = 62; i >= 0; i--) {
        G_FN(jac_dbl)(&acc, &acc);
        if ((CZK_BLS_X_ABS >> i) & 1) G_FN(jac_add)(&acc, &acc, a);
    }
    *r = acc;
}

void G_FN(mul_var)(JAC *r, const JAC *a, const czk_fr *k)
{
    uint64_t e[CZK_FR_LIMBS];
    czk_fr_to_limbs(e, k);
    G_FN(mul_limbs_var)(r, a, e, CZK_FR_LIMBS);
}

/* ---- XYZZ (the formulas of ec/ec_formulas_tmpl.h) ------------------------------ */

void G_FN(xyzz_set_inf)(XYZZ *r) { G_LOCAL(xyzz_set_inf)(r); }

void G_FN(xyzz_dbl)(XYZZ *r, const XYZZ *a) { G_LOCAL(xyzz_dbl)(r, a); }

void G_FN(xyzz_add_affine)(XYZZ *r, const XYZZ *a, const AFF *b)
{
    if (r != a) *r = *a;
    if (!b->inf) G_LOCAL(xyzz_madd)(r, &b->x, &b->y);
}

void G_FN(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b) { G_LOCAL(xyzz_add)(r, a, b); }

void G_FN(xyzz_to_jac)(JAC *r, const XYZZ *a) { G_LOCAL(xyzz_to_jac)(r, a); }

void G_FN(xyzz_from_jac)(XYZZ *r, const JAC *a) { G_LOCAL(xyzz_from_jac)(r, a); }
