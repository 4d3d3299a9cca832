/* czk ec — the point formulas that hot loops outside src/ec run inline
 * (the MSM bucket kernels, io's addition trees), written once over the group
 * descriptor (ec/group.h) and instantiated per group: include it after
 * ec/group_g1.h or ec/group_g2.h (once per group and file: a second include
 * under the same descriptor is empty; ec/group_end.h resets that).
 * src/ec/curve_impl.h builds the public XYZZ functions of czk/ec.h on them.
 *
 * XYZZ coordinates (X, Y, ZZ, ZZZ): x = X / ZZ, y = Y / ZZZ, ZZ^3 = ZZZ^2
 * (every formula keeps the invariant: it multiplies ZZ by a square s^2 and
 * ZZZ by s^3). The point at infinity is ZZ = 0 (ZZZ = 0 with it; X and Y
 * mean nothing). xyzz_set_inf writes all-zero coordinates, so zero-filled
 * memory holds infinities (the MSM clears its buckets with memset).
 *
 * Formulas (Explicit-Formulas Database, hyperelliptic.org/EFD,
 * g1p/auto-shortw-xyzz.html, a = 0): add-2008-s 12M+2S, madd-2008-s 8M+2S,
 * dbl-2008-s-1 6M+3S, mdbl-2008-s-1 4M+3S. Affine chord and tangent with the
 * inverse of the denominator given (the batch-affine kernels share one
 * inversion among many additions, Montgomery 1987, "Speeding the Pollard and
 * elliptic curve methods", §10.3.1): 1M+1S (add), 1M+2S (double) each.
 * All variable time (they branch on infinity and on P = +-Q).
 */
#ifndef G_FORMULAS
#define G_FORMULAS

CZK_INLINE void G_LOCAL(xyzz_set_inf)(XYZZ *r) { memset(r, 0, sizeof *r); }

CZK_INLINE int G_LOCAL(xyzz_is_inf)(const XYZZ *a) { return FE_IS_ZERO(&a->zz); }

/* r = (x, y, 1, 1), a finite affine point. */
CZK_INLINE void G_LOCAL(xyzz_set_affine)(XYZZ *r, const FE *x, const FE *y)
{
    r->x = *x;
    r->y = *y;
    FE_SET_ONE(&r->zz);
    FE_SET_ONE(&r->zzz);
}

/* Jacobian infinity: (1, 1, 0); any point with Z = 0 is infinity. */
CZK_INLINE void G_LOCAL(jac_set_inf)(JAC *r)
{
    FE_SET_ONE(&r->x);
    FE_SET_ONE(&r->y);
    FE_SET_ZERO(&r->z);
}

/* r = 2 (x, y), mdbl-2008-s-1. y = 0 gives ZZ = 0, infinity. */
CZK_UNUSED static void G_LOCAL(xyzz_mdbl)(XYZZ *r, const FE *x, const FE *y)
{
    FE u, v, w, s, m, t;
    FE_DBL(&u, y);           /* U = 2 Y1 */
    FE_SQR(&v, &u);          /* V = U^2 */
    FE_MUL(&w, &u, &v);      /* W = U V */
    FE_MUL(&s, x, &v);       /* S = X1 V */
    FE_SQR(&m, x);
    FE_DBL(&t, &m);
    FE_ADD(&m, &m, &t);      /* M = 3 X1^2 */
    FE_SQR(&t, &m);
    FE_SUB(&t, &t, &s);
    FE_SUB(&t, &t, &s);      /* X3 = M^2 - 2 S */
    FE_SUB(&s, &s, &t);
    FE_MUL(&s, &s, &m);
    FE_MUL(&m, &w, y);
    FE_SUB(&r->y, &s, &m);   /* Y3 = M (S - X3) - W Y1 */
    r->x = t;
    r->zz = v;               /* ZZ3 = V */
    r->zzz = w;              /* ZZZ3 = W */
}

/* r = 2 a, dbl-2008-s-1; infinity gives infinity (ZZ3 = V ZZ1 = 0). */
CZK_UNUSED static void G_LOCAL(xyzz_dbl)(XYZZ *r, const XYZZ *a)
{
    FE u, v, w, s, m, t;
    FE_DBL(&u, &a->y);             /* U = 2 Y1 */
    FE_SQR(&v, &u);                /* V = U^2 */
    FE_MUL(&w, &u, &v);            /* W = U V */
    FE_MUL(&s, &a->x, &v);         /* S = X1 V */
    FE_SQR(&m, &a->x);
    FE_DBL(&t, &m);
    FE_ADD(&m, &m, &t);            /* M = 3 X1^2 */
    FE_MUL(&r->zz, &a->zz, &v);    /* ZZ3 = V ZZ1 */
    FE_MUL(&r->zzz, &a->zzz, &w);  /* ZZZ3 = W ZZZ1 */
    FE_SQR(&t, &m);
    FE_SUB(&t, &t, &s);
    FE_SUB(&t, &t, &s);            /* X3 = M^2 - 2 S */
    FE_SUB(&s, &s, &t);
    FE_MUL(&s, &s, &m);
    FE_MUL(&m, &w, &a->y);
    FE_SUB(&r->y, &s, &m);         /* Y3 = M (S - X3) - W Y1 */
    r->x = t;
}

/* r += (x2, y2), madd-2008-s, in place; r may be infinity, (x2, y2) is a
 * finite affine point. */
CZK_INLINE void G_LOCAL(xyzz_madd)(XYZZ *r, const FE *x2, const FE *y2)
{
    if (G_LOCAL(xyzz_is_inf)(r)) {
        G_LOCAL(xyzz_set_affine)(r, x2, y2);
        return;
    }
    FE u2, s2, p, rr, pp, ppp, q, t;
    FE_MUL(&u2, x2, &r->zz);   /* U2 = X2 ZZ1 */
    FE_MUL(&s2, y2, &r->zzz);  /* S2 = Y2 ZZZ1 */
    FE_SUB(&p, &u2, &r->x);    /* P = U2 - X1 */
    FE_SUB(&rr, &s2, &r->y);   /* R = S2 - Y1 */
    if (CZK_UNLIKELY(FE_IS_ZERO(&p))) {
        if (FE_IS_ZERO(&rr)) G_LOCAL(xyzz_mdbl)(r, x2, y2);
        else G_LOCAL(xyzz_set_inf)(r);
        return;
    }
    FE_SQR(&pp, &p);           /* PP = P^2 */
    FE_MUL(&ppp, &p, &pp);     /* PPP = P PP */
    FE_MUL(&q, &r->x, &pp);    /* Q = X1 PP */
    FE_SQR(&t, &rr);
    FE_SUB(&t, &t, &ppp);
    FE_SUB(&t, &t, &q);
    FE_SUB(&t, &t, &q);        /* X3 = R^2 - PPP - 2 Q */
    FE_SUB(&q, &q, &t);
    FE_MUL(&q, &q, &rr);
    FE_MUL(&s2, &r->y, &ppp);
    FE_SUB(&r->y, &q, &s2);    /* Y3 = R (Q - X3) - Y1 PPP */
    r->x = t;
    FE_MUL(&r->zz, &r->zz, &pp);    /* ZZ3 = ZZ1 PP */
    FE_MUL(&r->zzz, &r->zzz, &ppp); /* ZZZ3 = ZZZ1 PPP */
}

/* r = a + b, add-2008-s; complete (infinities, a = b, a = -b). r may be a or b. */
CZK_UNUSED static void G_LOCAL(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b)
{
    if (G_LOCAL(xyzz_is_inf)(a)) {
        *r = *b;
        return;
    }
    if (G_LOCAL(xyzz_is_inf)(b)) {
        *r = *a;
        return;
    }
    FE u1, u2, s1, s2, p, rr, pp, ppp, q, t, zz, zzz;
    FE_MUL(&u1, &a->x, &b->zz);   /* U1 = X1 ZZ2 */
    FE_MUL(&u2, &b->x, &a->zz);   /* U2 = X2 ZZ1 */
    FE_MUL(&s1, &a->y, &b->zzz);  /* S1 = Y1 ZZZ2 */
    FE_MUL(&s2, &b->y, &a->zzz);  /* S2 = Y2 ZZZ1 */
    FE_SUB(&p, &u2, &u1);         /* P = U2 - U1 */
    FE_SUB(&rr, &s2, &s1);        /* R = S2 - S1 */
    if (CZK_UNLIKELY(FE_IS_ZERO(&p))) {
        if (FE_IS_ZERO(&rr)) G_LOCAL(xyzz_dbl)(r, a);
        else G_LOCAL(xyzz_set_inf)(r);
        return;
    }
    FE_SQR(&pp, &p);              /* PP = P^2 */
    FE_MUL(&ppp, &p, &pp);        /* PPP = P PP */
    FE_MUL(&q, &u1, &pp);         /* Q = U1 PP */
    FE_MUL(&zz, &a->zz, &b->zz);
    FE_MUL(&zz, &zz, &pp);        /* ZZ3 = ZZ1 ZZ2 PP */
    FE_MUL(&zzz, &a->zzz, &b->zzz);
    FE_MUL(&zzz, &zzz, &ppp);     /* ZZZ3 = ZZZ1 ZZZ2 PPP */
    FE_SQR(&t, &rr);
    FE_SUB(&t, &t, &ppp);
    FE_SUB(&t, &t, &q);
    FE_SUB(&t, &t, &q);           /* X3 = R^2 - PPP - 2 Q */
    FE_SUB(&q, &q, &t);
    FE_MUL(&q, &q, &rr);
    FE_MUL(&s1, &s1, &ppp);
    FE_SUB(&r->y, &q, &s1);       /* Y3 = R (Q - X3) - S1 PPP */
    r->x = t;
    r->zz = zz;
    r->zzz = zzz;
}

/* XYZZ -> Jacobian with Z = ZZZ: X' = X ZZ^2, Y' = Y ZZZ^2, since
 * X'/Z^2 = X ZZ^2 / ZZZ^2 = X / ZZ and Y'/Z^3 = Y / ZZZ (ZZ^3 = ZZZ^2). 2M+2S. */
CZK_UNUSED static void G_LOCAL(xyzz_to_jac)(JAC *r, const XYZZ *a)
{
    if (G_LOCAL(xyzz_is_inf)(a)) {
        G_LOCAL(jac_set_inf)(r);
        return;
    }
    FE t;
    FE_SQR(&t, &a->zz);
    FE_MUL(&r->x, &a->x, &t);
    FE_SQR(&t, &a->zzz);
    FE_MUL(&r->y, &a->y, &t);
    r->z = a->zzz;
}

/* Jacobian (X, Y, Z) -> XYZZ (X, Y, Z^2, Z^3). */
CZK_UNUSED static void G_LOCAL(xyzz_from_jac)(XYZZ *r, const JAC *a)
{
    if (FE_IS_ZERO(&a->z)) {
        G_LOCAL(xyzz_set_inf)(r);
        return;
    }
    FE zz;
    FE_SQR(&zz, &a->z);
    FE_MUL(&r->zzz, &zz, &a->z);
    r->zz = zz;
    r->x = a->x;
    r->y = a->y;
}

/* (x3, y3) = (x1, y1) + (x2, neg ? -y2 : y2), x1 != x2, given
 * inv = 1 / (x2 - x1): l = (y2 - y1) inv, x3 = l^2 - x1 - x2,
 * y3 = l (x1 - x3) - y1. For -y2 the slope is taken as l' = -l =
 * (y2 + y1) inv, so y3 = l' (x3 - x1) - y1 and nothing is negated.
 * (x3, y3) may be (x1, y1). */
CZK_INLINE void G_LOCAL(aff_add_inv)(FE *x3, FE *y3, const FE *x1, const FE *y1, const FE *x2, const FE *y2,
                                     int neg, const FE *inv)
{
    FE l, t, u;
    if (neg) FE_ADD(&u, y2, y1);
    else FE_SUB(&u, y2, y1);
    FE_MUL(&l, &u, inv);
    FE_SQR(&t, &l);
    FE_SUB(&t, &t, x1);
    FE_SUB(&t, &t, x2);        /* x3 = l^2 - x1 - x2 */
    if (neg) FE_SUB(&u, &t, x1);
    else FE_SUB(&u, x1, &t);
    FE_MUL(&u, &u, &l);
    FE_SUB(y3, &u, y1);        /* y3 = l (x1 - x3) - y1 */
    *x3 = t;
}

/* (x3, y3) = 2 (x1, y1), y1 != 0, given inv = 1 / (2 y1): l = 3 x1^2 inv,
 * x3 = l^2 - 2 x1, y3 = l (x1 - x3) - y1. (x3, y3) may be (x1, y1). */
CZK_INLINE void G_LOCAL(aff_dbl_inv)(FE *x3, FE *y3, const FE *x1, const FE *y1, const FE *inv)
{
    FE l, t, u;
    FE_SQR(&u, x1);
    FE_DBL(&t, &u);
    FE_ADD(&u, &u, &t);        /* 3 x1^2 */
    FE_MUL(&l, &u, inv);
    FE_SQR(&t, &l);
    FE_SUB(&t, &t, x1);
    FE_SUB(&t, &t, x1);        /* x3 = l^2 - 2 x1 */
    FE_SUB(&u, x1, &t);
    FE_MUL(&u, &u, &l);
    FE_SUB(y3, &u, y1);        /* y3 = l (x1 - x3) - y1 */
    *x3 = t;
}

#endif
