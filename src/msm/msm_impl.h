/* czk msm — Pippenger kernel, instantiated once per group (msm_g1.c, msm_g2.c).
 *
 * The including file defines:
 *   FE                 coordinate field element type (czk_fp / czk_fp2)
 *   FE_MUL FE_SQR FE_ADD FE_SUB FE_NEG FE_DBL FE_INV FE_IS_ZERO FE_SET_ONE FE_EQ
 *   AFF JAC XYZZ       point types of czk/ec.h
 *   G(x)               czk_g1_##x / czk_g2_##x
 *   FN(x)              x##_g1 / x##_g2 (file-local names)
 *   CURVE              "g1" / "g2"
 *   COSTS              the czk__msm_costs of this group
 *
 * Formulas: "xyzz" coordinates of short Weierstrass curves with a = 0,
 * Explicit-Formulas Database (hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html):
 * madd-2008-s, mdbl-2008-s-1, add-2008-s, dbl-2008-s-1. Batch-affine: the
 * chord/tangent rule with the denominators of a whole batch inverted together
 * (Montgomery 1987, "Speeding the Pollard and elliptic curve methods", §10.3.1).
 */

#include <stdlib.h>
#include <string.h>
#include <omp.h>

typedef struct FN(aff) {
    FE x, y;
} FN(aff);

/* One pending batch-affine addition: bucket += ±point (or bucket doubled). */
typedef struct FN(entry) {
    const AFF *p;
    uint32_t bucket;
    uint32_t flags; /* bit 0: subtract the point; bit 1: doubling */
} FN(entry);

#define ENT_NEG 1u
#define ENT_DBL 2u
#define ST_AFF 1u  /* affine bucket holds a point */
#define ST_XYZZ 2u /* XYZZ conflict bucket holds a point */

CZK_INLINE void FN(xyzz_inf)(XYZZ *r) { memset(r, 0, sizeof *r); }
CZK_INLINE int FN(xyzz_is_inf)(const XYZZ *a) { return FE_IS_ZERO(&a->zz); }

CZK_INLINE void FN(xyzz_set_aff)(XYZZ *r, const FE *x, const FE *y)
{
    r->x = *x;
    r->y = *y;
    FE_SET_ONE(&r->zz);
    FE_SET_ONE(&r->zzz);
}

/* r = 2 (x, y), mdbl-2008-s-1. y = 0 gives ZZ = 0, infinity. */
static void FN(xyzz_mdbl)(XYZZ *r, const FE *x, const FE *y)
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

/* r = 2 a, dbl-2008-s-1 (a = 0). */
static void FN(xyzz_dbl)(XYZZ *r, const XYZZ *a)
{
    if (FN(xyzz_is_inf)(a)) {
        FN(xyzz_inf)(r);
        return;
    }
    FE u, v, w, s, m, t, y1 = a->y;
    FE_DBL(&u, &a->y);       /* U = 2 Y1 */
    FE_SQR(&v, &u);          /* V = U^2 */
    FE_MUL(&w, &u, &v);      /* W = U V */
    FE_MUL(&s, &a->x, &v);   /* S = X1 V */
    FE_SQR(&m, &a->x);
    FE_DBL(&t, &m);
    FE_ADD(&m, &m, &t);      /* M = 3 X1^2 */
    FE_MUL(&r->zz, &a->zz, &v);    /* ZZ3 = V ZZ1 */
    FE_MUL(&r->zzz, &a->zzz, &w);  /* ZZZ3 = W ZZZ1 */
    FE_SQR(&t, &m);
    FE_SUB(&t, &t, &s);
    FE_SUB(&t, &t, &s);      /* X3 = M^2 - 2 S */
    FE_SUB(&s, &s, &t);
    FE_MUL(&s, &s, &m);
    FE_MUL(&m, &w, &y1);
    FE_SUB(&r->y, &s, &m);   /* Y3 = M (S - X3) - W Y1 */
    r->x = t;
}

/* r += (x2, y2), madd-2008-s; r may be infinity, (x2, y2) is finite. */
CZK_INLINE void FN(xyzz_madd)(XYZZ *r, const FE *x2, const FE *y2)
{
    if (FN(xyzz_is_inf)(r)) {
        FN(xyzz_set_aff)(r, x2, y2);
        return;
    }
    FE u2, s2, p, rr, pp, ppp, q, t;
    FE_MUL(&u2, x2, &r->zz);   /* U2 = X2 ZZ1 */
    FE_MUL(&s2, y2, &r->zzz);  /* S2 = Y2 ZZZ1 */
    FE_SUB(&p, &u2, &r->x);    /* P = U2 - X1 */
    FE_SUB(&rr, &s2, &r->y);   /* R = S2 - Y1 */
    if (CZK_UNLIKELY(FE_IS_ZERO(&p))) {
        if (FE_IS_ZERO(&rr)) FN(xyzz_mdbl)(r, x2, y2);
        else FN(xyzz_inf)(r);
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

/* r = a + b, add-2008-s; complete (infinities, a = b, a = -b). */
static void FN(xyzz_add)(XYZZ *r, const XYZZ *a, const XYZZ *b)
{
    if (FN(xyzz_is_inf)(a)) {
        *r = *b;
        return;
    }
    if (FN(xyzz_is_inf)(b)) {
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
        if (FE_IS_ZERO(&rr)) FN(xyzz_dbl)(r, a);
        else FN(xyzz_inf)(r);
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

/* Jacobian (X', Y', Z') = (X ZZ ZZZ^2, Y ZZ^3 ZZZ^2, ZZ ZZZ): x = X'/Z'^2 = X/ZZ,
 * y = Y'/Z'^3 = Y/ZZZ. */
static void FN(xyzz_to_jac)(JAC *r, const XYZZ *a)
{
    if (FN(xyzz_is_inf)(a)) {
        G(jac_set_inf)(r);
        return;
    }
    FE z3sq, zz2, t;
    FE_SQR(&z3sq, &a->zzz);
    FE_MUL(&t, &a->zz, &z3sq);
    FE_MUL(&r->x, &a->x, &t);
    FE_SQR(&zz2, &a->zz);
    FE_MUL(&zz2, &zz2, &a->zz);
    FE_MUL(&zz2, &zz2, &z3sq);
    FE_MUL(&r->y, &a->y, &zz2);
    FE_MUL(&r->z, &a->zz, &a->zzz);
}

/* t += g s for a small g >= 1 (left-to-right double-and-add). */
static void FN(xyzz_add_mul_small)(XYZZ *t, const XYZZ *s, size_t g)
{
    if (g == 1) {
        FN(xyzz_add)(t, t, s);
        return;
    }
    XYZZ r = *s;
    for (int i = 62 - __builtin_clzll((unsigned long long)g); i >= 0; i--) {
        FN(xyzz_dbl)(&r, &r);
        if ((g >> i) & 1) FN(xyzz_add)(&r, &r, s);
    }
    FN(xyzz_add)(t, t, &r);
}

/* Bucket sum  sum_b (b + 1) bucket[b]  by running sums from the top bucket
 * down: S_b = sum_{b' >= b} bucket[b'], result = sum_b S_b. S only changes at
 * non-empty buckets, so a stretch of g equal terms is added as g S (cheap
 * when forced windows leave most buckets empty). */
typedef struct FN(bsum) {
    XYZZ s, t;
    size_t gap; /* steps whose S is still to be added to t */
} FN(bsum);

CZK_INLINE void FN(bsum_init)(FN(bsum) *z)
{
    FN(xyzz_inf)(&z->s);
    FN(xyzz_inf)(&z->t);
    z->gap = 0;
}

/* Flush before S changes. */
CZK_INLINE void FN(bsum_flush)(FN(bsum) *z)
{
    if (z->gap && !FN(xyzz_is_inf)(&z->s)) FN(xyzz_add_mul_small)(&z->t, &z->s, z->gap);
    z->gap = 0;
}

static void FN(bucket_sum_xyzz)(XYZZ *res, const XYZZ *bk, size_t nb)
{
    FN(bsum) z;
    FN(bsum_init)(&z);
    for (size_t b = nb; b-- > 0;) {
        if (!FN(xyzz_is_inf)(&bk[b])) {
            FN(bsum_flush)(&z);
            FN(xyzz_add)(&z.s, &z.s, &bk[b]);
        }
        z.gap++;
    }
    FN(bsum_flush)(&z);
    *res = z.t;
}

/* Look-ahead distances (points, batch entries) for prefetching. */
#define MSM_PF CZK__MSM_PF
#define FLUSH_PF 6

/* One task of the XYZZ kernel: window w over points [lo, hi), for the S
 * scalar sets k[j S + s] (bucket set s at bk + s nb); res[s] its bucket sum.
 * dq: MSM_PF x S look-ahead digits. */
CZK_INLINE void FN(task_xyzz_s)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S, size_t lo,
                                size_t hi, unsigned w, unsigned c, XYZZ *bk, int *dq)
{
    size_t nb = (size_t)1 << (c - 1);
    memset(bk, 0, S * nb * sizeof *bk);
    for (size_t j = lo; j < hi && j < lo + MSM_PF; j++)
        for (size_t t = 0; t < S; t++) dq[((j - lo) % MSM_PF) * S + t] = czk__msm_booth_digit(&k[j * S + t], w, c);
    for (size_t j = lo; j < hi; j++) {
        int *dj = &dq[((j - lo) % MSM_PF) * S];
        const int ahead = j + MSM_PF < hi, inf = bases[j].inf;
        if (ahead) __builtin_prefetch(&bases[j + MSM_PF]);
        for (size_t t = 0; t < S; t++) {
            int d = dj[t];
            XYZZ *b = bk + t * nb;
            if (ahead) {
                int dn = czk__msm_booth_digit(&k[(j + MSM_PF) * S + t], w, c);
                dj[t] = dn;
                if (dn) __builtin_prefetch(&b[(dn < 0 ? -dn : dn) - 1], 1);
            }
            if (d == 0 || inf) continue;
            if (czk__msm_scalar_neg(&k[j * S + t])) d = -d;
            if (d > 0) {
                FN(xyzz_madd)(&b[d - 1], &bases[j].x, &bases[j].y);
            } else {
                FE ny;
                FE_NEG(&ny, &bases[j].y);
                FN(xyzz_madd)(&b[-d - 1], &bases[j].x, &ny);
            }
        }
    }
    for (size_t t = 0; t < S; t++) FN(bucket_sum_xyzz)(&res[t], bk + t * nb, nb);
}

/* Per-thread storage of the batch-affine kernel (carved from scratch). */
typedef struct FN(ba) {
    FN(aff) *A;       /* affine buckets */
    XYZZ *X;          /* XYZZ twins: deferred points that found the queue full */
    uint8_t *st;      /* ST_AFF | ST_XYZZ per bucket */
    uint32_t *mark;   /* batch number that last scheduled the bucket */
    FN(entry) *e;     /* pending additions of the current batch */
    FN(entry) *q;     /* points deferred because their bucket was pending */
    FE *den, *pre;
    unsigned batch;   /* capacity of e and of q */
    size_t cnt, qn;   /* entries in e, in q */
    uint32_t epoch;   /* current batch number (mark[b] == epoch: b is pending) */
    size_t nb;        /* buckets of all sets */
    size_t nbs;       /* buckets of one set (set t owns [t nbs, (t + 1) nbs)) */
    size_t twins;     /* XYZZ twins in use */
    unsigned lanes;   /* lanes of the batch-affine bucket sum (0: XYZZ running sum) */
    AFF *ls, *lt, *lo;            /* per lane: S, T, snapshot of S */
    struct FN(lentry) *le;        /* pending lane additions (2 per lane) */
} FN(ba);

/* One pending lane addition: *t += (ax[0], ax[1]) (or *t doubled). */
typedef struct FN(lentry) {
    AFF *t;
    const FE *ax; /* x, followed by y */
    uint32_t dbl;
} FN(lentry);

/* Apply the pending additions: den_i = x_P - x_B (2 y_B when doubling),
 * one inversion of prod den_i, then for each i (backwards)
 *   1/den_i = pre_{i-1} * inv,  inv *= den_i,
 *   l = (y_P - y_B) / den_i  (3 x_B^2 / den_i),  x3 = l^2 - x_B - x_P,
 *   y3 = l (x_B - x3) - y_B. */
static void FN(ba_flush)(FN(ba) *s, size_t cnt)
{
    if (!cnt) return;
    FN(entry) *e = s->e;
    FE *den = s->den, *pre = s->pre;
    for (size_t i = 0; i < cnt; i++) {
        if (i + FLUSH_PF < cnt) {
            __builtin_prefetch(e[i + FLUSH_PF].p);
            __builtin_prefetch(&s->A[e[i + FLUSH_PF].bucket]);
        }
        FN(aff) *a = &s->A[e[i].bucket];
        if (e[i].flags & ENT_DBL) FE_DBL(&den[i], &a->y);
        else FE_SUB(&den[i], &e[i].p->x, &a->x);
        if (i) FE_MUL(&pre[i], &pre[i - 1], &den[i]);
        else pre[0] = den[0];
    }
    FE inv, di, l, num, t;
    FE_INV(&inv, &pre[cnt - 1]);
    for (size_t i = cnt; i-- > 0;) {
        if (i >= FLUSH_PF) {
            const FN(entry) *f = &e[i - FLUSH_PF];
            __builtin_prefetch((const char *)f->p + sizeof(FE));
            __builtin_prefetch(f->p);
            __builtin_prefetch(&s->A[f->bucket], 1);
            __builtin_prefetch((const char *)&s->A[f->bucket] + sizeof(FE), 1);
        }
        if (i) {
            FE_MUL(&di, &inv, &pre[i - 1]);
            FE_MUL(&inv, &inv, &den[i]);
        } else {
            di = inv;
        }
        FN(aff) *a = &s->A[e[i].bucket];
        const AFF *p = e[i].p;
        if (e[i].flags & ENT_DBL) {
            FE_SQR(&num, &a->x);
            FE_DBL(&t, &num);
            FE_ADD(&num, &num, &t);            /* 3 x_B^2 */
            FE_MUL(&l, &num, &di);
            FE_SQR(&t, &l);
            FE_SUB(&t, &t, &a->x);
            FE_SUB(&t, &t, &a->x);             /* x3 = l^2 - 2 x_B */
            FE_SUB(&num, &a->x, &t);
        } else {
            /* Subtracting P: l' = (y_P + y_B) / den = -l, x3 = l'^2 - x_B - x_P,
             * y3 = l' (x3 - x_B) - y_B, with no negation. */
            if (e[i].flags & ENT_NEG) FE_ADD(&num, &p->y, &a->y);
            else FE_SUB(&num, &p->y, &a->y);   /* y_P - y_B */
            FE_MUL(&l, &num, &di);
            FE_SQR(&t, &l);
            FE_SUB(&t, &t, &a->x);
            FE_SUB(&t, &t, &p->x);             /* x3 = l^2 - x_B - x_P */
            if (e[i].flags & ENT_NEG) FE_SUB(&num, &t, &a->x);
            else FE_SUB(&num, &a->x, &t);
        }
        FE_MUL(&num, &num, &l);
        FE_SUB(&a->y, &num, &a->y);            /* y3 = l (x_B - x3) - y_B */
        a->x = t;
    }
}

/* Offer bucket b += (neg ? -p : p) to the batch. Returns 1 if b already has
 * an addition pending in this batch (the caller defers the point), else
 * handles it: an empty bucket takes the point, B + (-B) empties the bucket,
 * otherwise an addition (or a doubling when B = P) is scheduled. */
CZK_INLINE int FN(ba_offer)(FN(ba) *s, const AFF *p, uint32_t b, uint32_t neg)
{
    if (s->mark[b] == s->epoch) return 1;
    FN(aff) *a = &s->A[b];
    if (!(s->st[b] & ST_AFF)) {
        a->x = p->x;
        if (neg) FE_NEG(&a->y, &p->y);
        else a->y = p->y;
        s->st[b] |= ST_AFF;
        return 0;
    }
    uint32_t flags = neg;
    if (CZK_UNLIKELY(FE_EQ(&a->x, &p->x))) {
        FE y;
        if (neg) FE_NEG(&y, &p->y);
        else y = p->y;
        if (!FE_EQ(&y, &a->y) || FE_IS_ZERO(&y)) { /* B + (-B) = O (and 2B = O when y = 0) */
            s->st[b] &= (uint8_t)~ST_AFF;
            return 0;
        }
        flags |= ENT_DBL;
    }
    FN(entry) *e = &s->e[s->cnt++];
    e->p = p;
    e->bucket = b;
    e->flags = flags;
    s->mark[b] = s->epoch;
    return 0;
}

/* Flush the batch and start a new one. */
static void FN(ba_next)(FN(ba) *s)
{
    FN(ba_flush)(s, s->cnt);
    s->cnt = 0;
    if (++s->epoch == 0) {
        memset(s->mark, 0, s->nb * sizeof *s->mark);
        s->epoch = 1;
    }
}

/* Re-offer the deferred points to the (new) batch; those that meet a pending
 * bucket again stay deferred. */
static void FN(ba_drain)(FN(ba) *s)
{
    size_t keep = 0;
    for (size_t i = 0; i < s->qn; i++) {
        FN(entry) q = s->q[i];
        if (FN(ba_offer)(s, q.p, q.bucket, q.flags & ENT_NEG)) s->q[keep++] = q;
        else if (s->cnt == s->batch) FN(ba_next)(s);
    }
    s->qn = keep;
}

/* ---- batch-affine bucket sum ----------------------------------------------
 * The nb buckets are cut into K lanes of L = nb / K consecutive buckets. Each
 * lane runs the running sum of its own buckets from the top (S += B_b; T += S)
 * in affine coordinates; step i updates every lane at once, so the K + K
 * additions of a step share one inversion (Montgomery's trick). T += S is
 * lagged by one step so both additions of a step read the same old S (kept
 * as a snapshot). With S_l, T_l the lane results,
 *   sum_b (b + 1) B_b = sum_l T_l + L sum_l l S_l,
 * the last sum by an XYZZ running sum over the lanes. Buckets' XYZZ twins
 * (queue overflow) are summed separately by the XYZZ running sum. */

/* Schedule *t += (ax, ay); infinity, t = a and t = -a are settled at once. */
CZK_INLINE void FN(lane_offer)(FN(ba) *s, size_t *cnt, AFF *t, const FE *ax)
{
    const FE *ay = ax + 1;
    if (t->inf) {
        t->x = *ax;
        t->y = *ay;
        t->inf = 0;
        return;
    }
    uint32_t dbl = 0;
    if (CZK_UNLIKELY(FE_EQ(&t->x, ax))) {
        if (!FE_EQ(&t->y, ay) || FE_IS_ZERO(ay)) {
            t->inf = 1;
            return;
        }
        dbl = 1;
    }
    FN(lentry) *e = &s->le[(*cnt)++];
    e->t = t;
    e->ax = ax;
    e->dbl = dbl;
}

/* Same chord / tangent formulas as ba_flush, on lane entries. */
static void FN(lane_flush)(FN(ba) *s, size_t cnt)
{
    if (!cnt) return;
    FN(lentry) *e = s->le;
    FE *den = s->den, *pre = s->pre;
    for (size_t i = 0; i < cnt; i++) {
        if (e[i].dbl) FE_DBL(&den[i], &e[i].t->y);
        else FE_SUB(&den[i], e[i].ax, &e[i].t->x);
        if (i) FE_MUL(&pre[i], &pre[i - 1], &den[i]);
        else pre[0] = den[0];
    }
    FE inv, di, l, num, t;
    FE_INV(&inv, &pre[cnt - 1]);
    for (size_t i = cnt; i-- > 0;) {
        if (i) {
            FE_MUL(&di, &inv, &pre[i - 1]);
            FE_MUL(&inv, &inv, &den[i]);
        } else {
            di = inv;
        }
        AFF *a = e[i].t;
        if (e[i].dbl) {
            FE_SQR(&num, &a->x);
            FE_DBL(&t, &num);
            FE_ADD(&num, &num, &t);            /* 3 x^2 */
            FE_MUL(&l, &num, &di);
            FE_SQR(&t, &l);
            FE_SUB(&t, &t, &a->x);
            FE_SUB(&t, &t, &a->x);             /* x3 = l^2 - 2 x */
        } else {
            FE_SUB(&num, e[i].ax + 1, &a->y);  /* y_A - y_T */
            FE_MUL(&l, &num, &di);
            FE_SQR(&t, &l);
            FE_SUB(&t, &t, &a->x);
            FE_SUB(&t, &t, e[i].ax);           /* x3 = l^2 - x_T - x_A */
        }
        FE_SUB(&num, &a->x, &t);
        FE_MUL(&num, &num, &l);
        FE_SUB(&a->y, &num, &a->y);            /* y3 = l (x_T - x3) - y_T */
        a->x = t;
    }
}

/* Bucket sum of the set whose buckets start at `off`. */
static void FN(lane_sum)(XYZZ *res, FN(ba) *s, size_t off)
{
    const size_t K = s->lanes, L = s->nbs / K;
    AFF *S = s->ls, *T = s->lt, *O = s->lo;
    for (size_t l = 0; l < K; l++) S[l].inf = T[l].inf = 1;
    for (size_t i = 0; i < L; i++) {
        size_t cnt = 0;
        for (size_t l = 0; l < K; l++) {
            if (!S[l].inf) {
                O[l] = S[l];
                FN(lane_offer)(s, &cnt, &T[l], &O[l].x);
            }
            size_t b = off + l * L + (L - 1 - i);
            if (s->st[b] & ST_AFF) FN(lane_offer)(s, &cnt, &S[l], &s->A[b].x);
        }
        FN(lane_flush)(s, cnt);
    }
    size_t cnt = 0;
    for (size_t l = 0; l < K; l++)
        if (!S[l].inf) FN(lane_offer)(s, &cnt, &T[l], &S[l].x);
    FN(lane_flush)(s, cnt);

    /* tot = sum_l T_l + L sum_l l S_l */
    XYZZ tot, u, v;
    FN(xyzz_inf)(&tot);
    FN(xyzz_inf)(&u);
    FN(xyzz_inf)(&v);
    for (size_t l = 0; l < K; l++)
        if (!T[l].inf) FN(xyzz_madd)(&tot, &T[l].x, &T[l].y);
    for (size_t l = K; l-- > 1;) {
        if (!S[l].inf) FN(xyzz_madd)(&u, &S[l].x, &S[l].y);
        if (!FN(xyzz_is_inf)(&u)) FN(xyzz_add)(&v, &v, &u);
    }
    for (size_t m = L; m > 1; m >>= 1) FN(xyzz_dbl)(&v, &v);
    FN(xyzz_add)(&tot, &tot, &v);

    if (s->twins) {
        FN(bsum) z;
        FN(bsum_init)(&z);
        for (size_t b = off + s->nbs; b-- > off;) {
            if (s->st[b] & ST_XYZZ) {
                FN(bsum_flush)(&z);
                FN(xyzz_add)(&z.s, &z.s, &s->X[b]);
            }
            z.gap++;
        }
        FN(bsum_flush)(&z);
        FN(xyzz_add)(&tot, &tot, &z.t);
    }
    *res = tot;
}

/* One task of the batch-affine kernel: window w over points [lo, hi), for the
 * S scalar sets k[j S + s] (set s owns buckets [s nb, (s + 1) nb)); res[s] is
 * its bucket sum. The sets share the batch (and so its inversions).
 * A point whose bucket already has an addition pending in the batch is
 * deferred to a queue and re-offered after the next flush; when the queue is
 * full it goes to that bucket's XYZZ twin instead (all points in a few
 * buckets, e.g. boolean scalars, then cost what the XYZZ kernel costs). */
CZK_INLINE void FN(task_ba_s)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S, size_t lo,
                              size_t hi, unsigned w, unsigned c, FN(ba) *s, int *dq)
{
    size_t nb = (size_t)1 << (c - 1);
    memset(s->st, 0, S * nb);
    memset(s->mark, 0, S * nb * sizeof *s->mark);
    s->nb = S * nb;
    s->nbs = nb;
    s->epoch = 1;
    s->cnt = s->qn = s->twins = 0;
    for (size_t j = lo; j < hi && j < lo + MSM_PF; j++)
        for (size_t t = 0; t < S; t++) dq[((j - lo) % MSM_PF) * S + t] = czk__msm_booth_digit(&k[j * S + t], w, c);
    for (size_t j = lo; j < hi; j++) {
        int *dj = &dq[((j - lo) % MSM_PF) * S];
        const int ahead = j + MSM_PF < hi;
        const AFF *p = &bases[j];
        if (ahead) __builtin_prefetch(&bases[j + MSM_PF]);
        for (size_t t = 0; t < S; t++) {
            int d = dj[t];
            if (ahead) {
                int dn = czk__msm_booth_digit(&k[(j + MSM_PF) * S + t], w, c);
                dj[t] = dn;
                if (dn) __builtin_prefetch(&s->A[t * nb + (size_t)(dn < 0 ? -dn : dn) - 1]);
            }
            if (d == 0 || p->inf) continue;
            uint32_t b = (uint32_t)(t * nb) + (uint32_t)(d < 0 ? -d : d) - 1;
            uint32_t neg = (uint32_t)(d < 0) ^ (uint32_t)czk__msm_scalar_neg(&k[j * S + t]);
            if (FN(ba_offer)(s, p, b, neg)) {
                if (s->qn < s->batch) {
                    FN(entry) *q = &s->q[s->qn++];
                    q->p = p;
                    q->bucket = b;
                    q->flags = neg;
                } else {
                    FE y;
                    if (neg) FE_NEG(&y, &p->y);
                    else y = p->y;
                    if (s->st[b] & ST_XYZZ) {
                        FN(xyzz_madd)(&s->X[b], &p->x, &y);
                    } else {
                        FN(xyzz_set_aff)(&s->X[b], &p->x, &y);
                        s->st[b] |= ST_XYZZ;
                        s->twins++;
                    }
                }
            } else if (s->cnt == s->batch) {
                FN(ba_next)(s);
                FN(ba_drain)(s);
            }
        }
    }
    while (s->cnt || s->qn) {
        FN(ba_next)(s);
        FN(ba_drain)(s);
    }

    for (size_t t = 0; t < S; t++) {
        size_t off = t * nb;
        if (s->lanes) {
            FN(lane_sum)(&res[t], s, off);
            continue;
        }
        FN(bsum) z;
        FN(bsum_init)(&z);
        for (size_t b = off + nb; b-- > off;) {
            if (s->st[b]) {
                FN(bsum_flush)(&z);
                if (s->st[b] & ST_AFF) FN(xyzz_madd)(&z.s, &s->A[b].x, &s->A[b].y);
                if (s->st[b] & ST_XYZZ) FN(xyzz_add)(&z.s, &z.s, &s->X[b]);
            }
            z.gap++;
        }
        FN(bsum_flush)(&z);
        res[t] = z.t;
    }
}

/* The task kernels compiled twice: for one scalar set (S = 1 constant, the
 * plain MSM) and for any S. */
static void FN(task_ba)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S, size_t lo, size_t hi,
                        unsigned w, unsigned c, FN(ba) *s, int *dq)
{
    if (S == 1) FN(task_ba_s)(res, bases, k, 1, lo, hi, w, c, s, dq);
    else FN(task_ba_s)(res, bases, k, S, lo, hi, w, c, s, dq);
}

static void FN(task_xyzz)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S, size_t lo,
                          size_t hi, unsigned w, unsigned c, XYZZ *bk, int *dq)
{
    if (S == 1) FN(task_xyzz_s)(res, bases, k, 1, lo, hi, w, c, bk, dq);
    else FN(task_xyzz_s)(res, bases, k, S, lo, hi, w, c, bk, dq);
}

static const czk__msm_costs *FN(costs)(void)
{
    static const czk__msm_costs k = COSTS;
    return &k;
}

static size_t FN(scratch_size)(size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    czk_msm_plan plan;
    czk__msm_make_plan(&plan, nbases, nsets, opts, FN(costs)());
    return plan.scratch;
}

/* out[t] = sum_i scalars[t][i] bases[j(i)] for t < S; `what` names the
 * public function in messages (multi: the _multi API, else S = 1). */
static czk_status FN(msm)(const char *what, int multi, JAC *out, size_t S, const AFF *bases, size_t nbases,
                          const czk_fr *const *scalars, size_t n, const uint64_t *density,
                          const czk_msm_opts *opts)
{
    if (S > CZK_MSM_MAX_SETS)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: nsets = %zu exceeds CZK_MSM_MAX_SETS = %d", what, S,
                         CZK_MSM_MAX_SETS);
    if (out)
        for (size_t t = 0; t < S; t++) G(jac_set_inf)(&out[t]);
    if (!out && S) return czk_error(CZK_ERR_INVALID_ARG, "%s: out is NULL", what);
    if (S == 0) return CZK_OK;
    if (!scalars) return czk_error(CZK_ERR_INVALID_ARG, "%s: scalars is NULL but nsets = %zu", what, S);
    for (size_t t = multi ? 0 : 1; t < S; t++) {
        if (n && !scalars[t])
            return czk_error(CZK_ERR_INVALID_ARG, "%s: scalars[%zu] is NULL but n = %zu", what, t, n);
    }
    CZK_TRY(czk__msm_check_args(what, out, bases, nbases, scalars[0], n, density, opts));
    if (nbases == 0) return CZK_OK;

    const czk__msm_costs *kc = FN(costs)();
    czk_msm_plan plan;
    czk__msm_make_plan(&plan, nbases, S, opts, kc);
    czk__msm_layout lay;
    czk__msm_layout_of(&lay, &plan, nbases, kc);

    uint8_t *mem, *owned = NULL;
    if (opts && opts->scratch) {
        if (opts->scratch_size < lay.total)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->scratch_size = %zu bytes, need %zu",
                             what, opts->scratch_size, lay.total);
        if ((uintptr_t)opts->scratch & 63)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: opts->scratch %p is not 64-byte aligned", what,
                             opts->scratch);
        mem = opts->scratch;
    } else {
        owned = aligned_alloc(64, (lay.total + 63) & ~(size_t)63);
        if (!owned)
            return czk_error(CZK_ERR_NOMEM, "%s: cannot allocate %zu bytes of scratch", what, lay.total);
        mem = owned;
    }

    czk__msm_scalar *plain = (czk__msm_scalar *)(mem + lay.plain_off);
    XYZZ *res = (XYZZ *)(mem + lay.res_off);
    const unsigned c = plan.window, W = plan.windows, P = plan.chunks;
    const size_t m = nbases;
    const long ntasks = (long)W * P;

#pragma omp parallel num_threads(plan.threads)
    {
        int tid = omp_get_thread_num(), nt = omp_get_num_threads();
        for (size_t t = 0; t < S; t++) czk__msm_prepare_scalars(plain + t, S, scalars[t], n, density, tid, nt);
        uint8_t *tm = mem + lay.thread_off + (size_t)tid * lay.per_thread;
        int *dq = (int *)(tm + lay.digit_off);
        FN(ba) ba;
        if (plan.algo == CZK_MSM_BATCH_AFFINE) {
            ba.A = (FN(aff) *)(tm + lay.aff_off);
            ba.X = (XYZZ *)(tm + lay.xyzz_off);
            ba.st = tm + lay.state_off;
            ba.mark = (uint32_t *)(tm + lay.mark_off);
            ba.e = (FN(entry) *)(tm + lay.entry_off);
            ba.q = (FN(entry) *)(tm + lay.queue_off);
            ba.den = (FE *)(tm + lay.den_off);
            ba.pre = (FE *)(tm + lay.pre_off);
            ba.batch = plan.batch;
            ba.lanes = plan.lanes;
            ba.ls = (AFF *)(tm + lay.lane_off);
            ba.lt = ba.ls + plan.lanes;
            ba.lo = ba.lt + plan.lanes;
            ba.le = (FN(lentry) *)(ba.lo + plan.lanes);
        }
#pragma omp barrier
#pragma omp for schedule(dynamic, 1)
        for (long t = 0; t < ntasks; t++) {
            unsigned w = (unsigned)(t / P), p = (unsigned)(t % P);
            size_t lo = m * p / P, hi = m * (p + 1) / P;
            if (plan.algo == CZK_MSM_BATCH_AFFINE)
                FN(task_ba)(&res[(size_t)t * S], bases, plain, S, lo, hi, w, c, &ba, dq);
            else
                FN(task_xyzz)(&res[(size_t)t * S], bases, plain, S, lo, hi, w, c, (XYZZ *)(tm + lay.xyzz_off), dq);
        }
    }

    /* out = sum_w 2^(w c) R_w (Horner from the top window), R_w = sum_p res[(w P + p) S + t]. */
    for (size_t t = 0; t < S; t++) {
        XYZZ acc;
        FN(xyzz_inf)(&acc);
        for (unsigned w = W; w-- > 0;) {
            if (w + 1 < W)
                for (unsigned i = 0; i < c; i++) FN(xyzz_dbl)(&acc, &acc);
            for (unsigned p = 0; p < P; p++) FN(xyzz_add)(&acc, &acc, &res[((size_t)w * P + p) * S + t]);
        }
        FN(xyzz_to_jac)(&out[t], &acc);
    }
    free(owned);
    return CZK_OK;
}

static czk_status FN(ref)(JAC *out, const AFF *bases, size_t nbases, const czk_fr *scalars, size_t n,
                          const uint64_t *density)
{
    static const char *what = "czk_msm_" CURVE "_ref";
    if (out) G(jac_set_inf)(out);
    CZK_TRY(czk__msm_check_args(what, out, bases, nbases, scalars, n, density, NULL));
    JAC acc, t;
    G(jac_set_inf)(&acc);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        const AFF *p = &bases[j++];
        if (p->inf) continue;
        G(jac_from_affine)(&t, p);
        G(mul_var)(&t, &t, &scalars[i]);
        G(jac_add)(&acc, &acc, &t);
    }
    *out = acc;
    return CZK_OK;
}

#undef ENT_NEG
#undef ENT_DBL
#undef ST_AFF
#undef ST_XYZZ
#undef MSM_PF
#undef FLUSH_PF
