/* czk msm — the Pippenger MSM and its public functions, written once over the
 * group descriptor (ec/group.h) and instantiated per group by msm.c, which
 * includes ec/group_g1.h or ec/group_g2.h and defines
 *   MSM_COST_INV   one variable-time inversion of the coordinate field, and
 *   MSM_COST_LOAD  reading a base and its digits once more (multi MSM),
 * both in multiplications of that field (see README.md "Cost model").
 *
 * Point formulas: ec/ec_formulas_tmpl.h (XYZZ madd-2008-s, add-2008-s,
 * dbl-2008-s-1, mdbl-2008-s-1; the affine chord and tangent with a given
 * inverse). Batch-affine: the chord/tangent rule with the denominators of a
 * whole batch inverted together (Montgomery 1987, "Speeding the Pollard and
 * elliptic curve methods", §10.3.1).
 */

#include <stdlib.h>
#include <string.h>
#include <omp.h>

#include "ec/ec_formulas_tmpl.h"
#include "ec/ec_batch.h"
#include "common/bigmem.h"

typedef struct G_LOCAL(aff) {
    FE x, y;
} G_LOCAL(aff);

/* One pending batch-affine addition: bucket += ±point (or bucket doubled). */
typedef struct G_LOCAL(entry) {
    const AFF *p;
    uint32_t bucket;
    uint32_t flags; /* bit 0: subtract the point; bit 1: doubling */
} G_LOCAL(entry);

#define ENT_NEG 1u
#define ENT_DBL 2u
#define ST_AFF 1u  /* affine bucket holds a point */
#define ST_XYZZ 2u /* XYZZ conflict bucket holds a point */

/* t += g s for a small g >= 1 (left-to-right double-and-add). */
static void G_LOCAL(xyzz_add_mul_small)(XYZZ *t, const XYZZ *s, size_t g)
{
    if (g == 1) {
        G_LOCAL(xyzz_add)(t, t, s);
        return;
    }
    XYZZ r = *s;
    for (int i = 62 - __builtin_clzll((unsigned long long)g); i >= 0; i--) {
        G_LOCAL(xyzz_dbl)(&r, &r);
        if ((g >> i) & 1) G_LOCAL(xyzz_add)(&r, &r, s);
    }
    G_LOCAL(xyzz_add)(t, t, &r);
}

/* Bucket sum  sum_b (b + 1) bucket[b]  by running sums from the top bucket
 * down: S_b = sum_{b' >= b} bucket[b'], result = sum_b S_b. S only changes at
 * non-empty buckets, so a stretch of g equal terms is added as g S (cheap
 * when forced windows leave most buckets empty). */
typedef struct G_LOCAL(bsum) {
    XYZZ s, t;
    size_t gap; /* steps whose S is still to be added to t */
} G_LOCAL(bsum);

CZK_INLINE void G_LOCAL(bsum_init)(G_LOCAL(bsum) *z)
{
    G_LOCAL(xyzz_set_inf)(&z->s);
    G_LOCAL(xyzz_set_inf)(&z->t);
    z->gap = 0;
}

/* Flush before S changes. */
CZK_INLINE void G_LOCAL(bsum_flush)(G_LOCAL(bsum) *z)
{
    if (z->gap && !G_LOCAL(xyzz_is_inf)(&z->s)) G_LOCAL(xyzz_add_mul_small)(&z->t, &z->s, z->gap);
    z->gap = 0;
}

static void G_LOCAL(bucket_sum_xyzz)(XYZZ *res, const XYZZ *bk, size_t nb)
{
    G_LOCAL(bsum) z;
    G_LOCAL(bsum_init)(&z);
    for (size_t b = nb; b-- > 0;) {
        if (!G_LOCAL(xyzz_is_inf)(&bk[b])) {
            G_LOCAL(bsum_flush)(&z);
            G_LOCAL(xyzz_add)(&z.s, &z.s, &bk[b]);
        }
        z.gap++;
    }
    G_LOCAL(bsum_flush)(&z);
    *res = z.t;
}

/* The sparse pre-pass's +-1 list: index | sign (msm_internal.h). */
#define SPARSE_IDX CZK__MSM_SPARSE_IDX

/* Look-ahead distances (points, batch entries) for prefetching. */
#define MSM_PF CZK__MSM_PF
#define FLUSH_PF 6

/* One task of the XYZZ kernel: window w over points [lo, hi), for the S
 * scalar sets k[j S + s] (bucket set s at bk + s nb); res[s] its bucket sum.
 * dq: MSM_PF x S look-ahead digits. */
/* Point j of a task: j itself, or idx[j] when the task runs over an index
 * list (the dense scalars left by the 0 / +-1 pre-pass; S = 1 then). */
#define PT(j) (idx ? (size_t)idx[j] : (j))

CZK_INLINE void G_LOCAL(task_xyzz_s)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S,
                                     const uint32_t *idx, size_t lo, size_t hi, unsigned w, unsigned c, XYZZ *bk,
                                     int *dq)
{
    size_t nb = (size_t)1 << (c - 1);
    memset(bk, 0, S * nb * sizeof *bk);
    for (size_t j = lo; j < hi && j < lo + MSM_PF; j++)
        for (size_t t = 0; t < S; t++)
            dq[((j - lo) % MSM_PF) * S + t] = czk__msm_booth_digit(&k[PT(j) * S + t], w, c);
    for (size_t j = lo; j < hi; j++) {
        int *dj = &dq[((j - lo) % MSM_PF) * S];
        const AFF *p = &bases[PT(j)];
        const int ahead = j + MSM_PF < hi, inf = p->inf;
        if (ahead) __builtin_prefetch(&bases[PT(j + MSM_PF)]);
        for (size_t t = 0; t < S; t++) {
            int d = dj[t];
            XYZZ *b = bk + t * nb;
            if (ahead) {
                int dn = czk__msm_booth_digit(&k[PT(j + MSM_PF) * S + t], w, c);
                dj[t] = dn;
                if (dn) __builtin_prefetch(&b[(dn < 0 ? -dn : dn) - 1], 1);
            }
            if (d == 0 || inf) continue;
            if (czk__msm_scalar_neg(&k[PT(j) * S + t])) d = -d;
            if (d > 0) {
                G_LOCAL(xyzz_madd)(&b[d - 1], &p->x, &p->y);
            } else {
                FE ny;
                FE_NEG(&ny, &p->y);
                G_LOCAL(xyzz_madd)(&b[-d - 1], &p->x, &ny);
            }
        }
    }
    for (size_t t = 0; t < S; t++) G_LOCAL(bucket_sum_xyzz)(&res[t], bk + t * nb, nb);
}

/* Per-thread storage of the batch-affine kernel (carved from scratch). */
typedef struct G_LOCAL(ba) {
    G_LOCAL(aff) *A;       /* affine buckets */
    XYZZ *X;          /* XYZZ twins: deferred points that found the queue full */
    uint8_t *st;      /* ST_AFF | ST_XYZZ per bucket */
    uint32_t *mark;   /* batch number that last scheduled the bucket */
    G_LOCAL(entry) *e;     /* pending additions of the current batch */
    G_LOCAL(entry) *q;     /* points deferred because their bucket was pending */
    FE *den, *pre;
    unsigned batch;   /* capacity of e and of q */
    size_t cnt, qn;   /* entries in e, in q */
    uint32_t epoch;   /* current batch number (mark[b] == epoch: b is pending) */
    size_t nb;        /* buckets of all sets */
    size_t nbs;       /* buckets of one set (set t owns [t nbs, (t + 1) nbs)) */
    size_t twins;     /* XYZZ twins in use */
    unsigned lanes;   /* lanes of the batch-affine bucket sum (0: XYZZ running sum) */
    AFF *ls, *lt, *lo;            /* per lane: S, T, snapshot of S */
    struct G_LOCAL(lentry) *le;        /* pending lane additions (2 per lane) */
    uintptr_t *vdst, *vsrc;   /* the IFMA kernel's operands (batch entries each) */
    uint8_t *vneg;
} G_LOCAL(ba);

/* One pending lane addition: *t += (ax[0], ax[1]) (or *t doubled). */
typedef struct G_LOCAL(lentry) {
    AFF *t;
    const FE *ax; /* x, followed by y */
    uint32_t dbl;
} G_LOCAL(lentry);

/* Batches smaller than this stay on the scalar path (the 8-lane kernel
 * inverts 8 lane products and has a fixed cost of about 30 multiplications). */
#define VEC_MIN 16

/* Apply the pending additions: den_i = x_P - x_B (2 y_B when doubling),
 * one inversion of prod den_i, then for each i (backwards)
 *   1/den_i = pre_{i-1} * inv,  inv *= den_i,
 * and the chord (tangent) step B = B +- P (2B) with that inverse.
 * With the IFMA kernels on and no doubling in the batch, the same steps run
 * 8 additions at a time (ec/ec_batch.h; the den and pre arrays are its scratch). */
static void G_LOCAL(ba_flush)(G_LOCAL(ba) *s, size_t cnt)
{
    if (!cnt) return;
    G_LOCAL(entry) *e = s->e;
    if (czk__field_use_ifma && cnt >= VEC_MIN) {
        size_t i = 0;
        for (; i < cnt && !(e[i].flags & ENT_DBL); i++) {
            s->vdst[i] = (uintptr_t)&s->A[e[i].bucket];
            s->vsrc[i] = (uintptr_t)e[i].p;
            s->vneg[i] = (uint8_t)(e[i].flags & ENT_NEG);
        }
        if (i == cnt) {
            MSM_BATCH_IFMA(s->vdst, s->vsrc, s->vneg, cnt, s->den);
            return;
        }
    }
    FE *den = s->den, *pre = s->pre;
    for (size_t i = 0; i < cnt; i++) {
        if (i + FLUSH_PF < cnt) {
            __builtin_prefetch(e[i + FLUSH_PF].p);
            __builtin_prefetch(&s->A[e[i + FLUSH_PF].bucket]);
        }
        G_LOCAL(aff) *a = &s->A[e[i].bucket];
        if (e[i].flags & ENT_DBL) FE_DBL(&den[i], &a->y);
        else FE_SUB(&den[i], &e[i].p->x, &a->x);
        if (i) FE_MUL(&pre[i], &pre[i - 1], &den[i]);
        else pre[0] = den[0];
    }
    FE inv, di;
    FE_INV_VAR(&inv, &pre[cnt - 1]);
    for (size_t i = cnt; i-- > 0;) {
        if (i >= FLUSH_PF) {
            const G_LOCAL(entry) *f = &e[i - FLUSH_PF];
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
        G_LOCAL(aff) *a = &s->A[e[i].bucket];
        const AFF *p = e[i].p;
        if (e[i].flags & ENT_DBL) G_LOCAL(aff_dbl_inv)(&a->x, &a->y, &a->x, &a->y, &di);
        else G_LOCAL(aff_add_inv)(&a->x, &a->y, &a->x, &a->y, &p->x, &p->y, e[i].flags & ENT_NEG, &di);
    }
}

/* Offer bucket b += (neg ? -p : p) to the batch. Returns 1 if b already has
 * an addition pending in this batch (the caller defers the point), else
 * handles it: an empty bucket takes the point, B + (-B) empties the bucket,
 * otherwise an addition (or a doubling when B = P) is scheduled. */
CZK_INLINE int G_LOCAL(ba_offer)(G_LOCAL(ba) *s, const AFF *p, uint32_t b, uint32_t neg)
{
    if (s->mark[b] == s->epoch) return 1;
    G_LOCAL(aff) *a = &s->A[b];
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
    G_LOCAL(entry) *e = &s->e[s->cnt++];
    e->p = p;
    e->bucket = b;
    e->flags = flags;
    s->mark[b] = s->epoch;
    return 0;
}

/* Flush the batch and start a new one. */
static void G_LOCAL(ba_next)(G_LOCAL(ba) *s)
{
    G_LOCAL(ba_flush)(s, s->cnt);
    s->cnt = 0;
    if (++s->epoch == 0) {
        memset(s->mark, 0, s->nb * sizeof *s->mark);
        s->epoch = 1;
    }
}

/* Re-offer the deferred points to the (new) batch; those that meet a pending
 * bucket again stay deferred. */
static void G_LOCAL(ba_drain)(G_LOCAL(ba) *s)
{
    size_t keep = 0;
    for (size_t i = 0; i < s->qn; i++) {
        G_LOCAL(entry) q = s->q[i];
        if (G_LOCAL(ba_offer)(s, q.p, q.bucket, q.flags & ENT_NEG)) s->q[keep++] = q;
        else if (s->cnt == s->batch) G_LOCAL(ba_next)(s);
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
CZK_INLINE void G_LOCAL(lane_offer)(G_LOCAL(ba) *s, size_t *cnt, AFF *t, const FE *ax)
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
    G_LOCAL(lentry) *e = &s->le[(*cnt)++];
    e->t = t;
    e->ax = ax;
    e->dbl = dbl;
}

/* The same on lane entries: *t += (ax[0], ax[1]) or *t doubled. */
static void G_LOCAL(lane_flush)(G_LOCAL(ba) *s, size_t cnt)
{
    if (!cnt) return;
    G_LOCAL(lentry) *e = s->le;
    if (czk__field_use_ifma && cnt >= VEC_MIN) {
        size_t i = 0;
        for (; i < cnt && !e[i].dbl; i++) {
            s->vdst[i] = (uintptr_t)e[i].t;
            s->vsrc[i] = (uintptr_t)e[i].ax;
            s->vneg[i] = 0;
        }
        if (i == cnt) {
            MSM_BATCH_IFMA(s->vdst, s->vsrc, s->vneg, cnt, s->den);
            return;
        }
    }
    FE *den = s->den, *pre = s->pre;
    for (size_t i = 0; i < cnt; i++) {
        if (e[i].dbl) FE_DBL(&den[i], &e[i].t->y);
        else FE_SUB(&den[i], e[i].ax, &e[i].t->x);
        if (i) FE_MUL(&pre[i], &pre[i - 1], &den[i]);
        else pre[0] = den[0];
    }
    FE inv, di;
    FE_INV_VAR(&inv, &pre[cnt - 1]);
    for (size_t i = cnt; i-- > 0;) {
        if (i) {
            FE_MUL(&di, &inv, &pre[i - 1]);
            FE_MUL(&inv, &inv, &den[i]);
        } else {
            di = inv;
        }
        AFF *a = e[i].t;
        if (e[i].dbl) G_LOCAL(aff_dbl_inv)(&a->x, &a->y, &a->x, &a->y, &di);
        else G_LOCAL(aff_add_inv)(&a->x, &a->y, &a->x, &a->y, e[i].ax, e[i].ax + 1, 0, &di);
    }
}

/* Bucket sum of the set whose buckets start at `off`. */
static void G_LOCAL(lane_sum)(XYZZ *res, G_LOCAL(ba) *s, size_t off)
{
    const size_t K = s->lanes, L = s->nbs / K;
    AFF *S = s->ls, *T = s->lt, *O = s->lo;
    for (size_t l = 0; l < K; l++) S[l].inf = T[l].inf = 1;
    for (size_t i = 0; i < L; i++) {
        size_t cnt = 0;
        for (size_t l = 0; l < K; l++) {
            if (!S[l].inf) {
                O[l] = S[l];
                G_LOCAL(lane_offer)(s, &cnt, &T[l], &O[l].x);
            }
            size_t b = off + l * L + (L - 1 - i);
            if (s->st[b] & ST_AFF) G_LOCAL(lane_offer)(s, &cnt, &S[l], &s->A[b].x);
        }
        G_LOCAL(lane_flush)(s, cnt);
    }
    size_t cnt = 0;
    for (size_t l = 0; l < K; l++)
        if (!S[l].inf) G_LOCAL(lane_offer)(s, &cnt, &T[l], &S[l].x);
    G_LOCAL(lane_flush)(s, cnt);

    /* tot = sum_l T_l + L sum_l l S_l */
    XYZZ tot, u, v;
    G_LOCAL(xyzz_set_inf)(&tot);
    G_LOCAL(xyzz_set_inf)(&u);
    G_LOCAL(xyzz_set_inf)(&v);
    for (size_t l = 0; l < K; l++)
        if (!T[l].inf) G_LOCAL(xyzz_madd)(&tot, &T[l].x, &T[l].y);
    for (size_t l = K; l-- > 1;) {
        if (!S[l].inf) G_LOCAL(xyzz_madd)(&u, &S[l].x, &S[l].y);
        if (!G_LOCAL(xyzz_is_inf)(&u)) G_LOCAL(xyzz_add)(&v, &v, &u);
    }
    for (size_t m = L; m > 1; m >>= 1) G_LOCAL(xyzz_dbl)(&v, &v);
    G_LOCAL(xyzz_add)(&tot, &tot, &v);

    if (s->twins) {
        G_LOCAL(bsum) z;
        G_LOCAL(bsum_init)(&z);
        for (size_t b = off + s->nbs; b-- > off;) {
            if (s->st[b] & ST_XYZZ) {
                G_LOCAL(bsum_flush)(&z);
                G_LOCAL(xyzz_add)(&z.s, &z.s, &s->X[b]);
            }
            z.gap++;
        }
        G_LOCAL(bsum_flush)(&z);
        G_LOCAL(xyzz_add)(&tot, &tot, &z.t);
    }
    *res = tot;
}

/* bucket b += (neg ? -p : p) through the batch: offered; if b is pending,
 * deferred to the queue, or (queue full) added into b's XYZZ twin; a full
 * batch is flushed and the queue re-offered. */
CZK_INLINE void G_LOCAL(ba_put)(G_LOCAL(ba) *s, const AFF *p, uint32_t b, uint32_t neg)
{
    if (G_LOCAL(ba_offer)(s, p, b, neg)) {
        if (s->qn < s->batch) {
            G_LOCAL(entry) *q = &s->q[s->qn++];
            q->p = p;
            q->bucket = b;
            q->flags = neg;
        } else {
            FE y;
            if (neg) FE_NEG(&y, &p->y);
            else y = p->y;
            if (s->st[b] & ST_XYZZ) {
                G_LOCAL(xyzz_madd)(&s->X[b], &p->x, &y);
            } else {
                G_LOCAL(xyzz_set_affine)(&s->X[b], &p->x, &y);
                s->st[b] |= ST_XYZZ;
                s->twins++;
            }
        }
    } else if (s->cnt == s->batch) {
        G_LOCAL(ba_next)(s);
        G_LOCAL(ba_drain)(s);
    }
}

/* Clear nb buckets (all sets) and start the first batch. */
CZK_INLINE void G_LOCAL(ba_start)(G_LOCAL(ba) *s, size_t nb, size_t nbs)
{
    memset(s->st, 0, nb);
    memset(s->mark, 0, nb * sizeof *s->mark);
    s->nb = nb;
    s->nbs = nbs;
    s->epoch = 1;
    s->cnt = s->qn = s->twins = 0;
}

/* Flush until nothing is pending or deferred. */
CZK_INLINE void G_LOCAL(ba_finish)(G_LOCAL(ba) *s)
{
    while (s->cnt || s->qn) {
        G_LOCAL(ba_next)(s);
        G_LOCAL(ba_drain)(s);
    }
}

/* One task of the batch-affine kernel: window w over points [lo, hi), for the
 * S scalar sets k[j S + s] (set s owns buckets [s nb, (s + 1) nb)); res[s] is
 * its bucket sum. The sets share the batch (and so its inversions).
 * A point whose bucket already has an addition pending in the batch is
 * deferred to a queue and re-offered after the next flush; when the queue is
 * full it goes to that bucket's XYZZ twin instead (all points in a few
 * buckets, e.g. boolean scalars, then cost what the XYZZ kernel costs). */
CZK_INLINE void G_LOCAL(task_ba_s)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S,
                                   const uint32_t *idx, size_t lo, size_t hi, unsigned w, unsigned c, G_LOCAL(ba) *s,
                                   int *dq)
{
    size_t nb = (size_t)1 << (c - 1);
    G_LOCAL(ba_start)(s, S * nb, nb);
    for (size_t j = lo; j < hi && j < lo + MSM_PF; j++)
        for (size_t t = 0; t < S; t++)
            dq[((j - lo) % MSM_PF) * S + t] = czk__msm_booth_digit(&k[PT(j) * S + t], w, c);
    for (size_t j = lo; j < hi; j++) {
        int *dj = &dq[((j - lo) % MSM_PF) * S];
        const int ahead = j + MSM_PF < hi;
        const AFF *p = &bases[PT(j)];
        if (ahead) __builtin_prefetch(&bases[PT(j + MSM_PF)]);
        for (size_t t = 0; t < S; t++) {
            int d = dj[t];
            if (ahead) {
                int dn = czk__msm_booth_digit(&k[PT(j + MSM_PF) * S + t], w, c);
                dj[t] = dn;
                if (dn) __builtin_prefetch(&s->A[t * nb + (size_t)(dn < 0 ? -dn : dn) - 1]);
            }
            if (d == 0 || p->inf) continue;
            uint32_t b = (uint32_t)(t * nb) + (uint32_t)(d < 0 ? -d : d) - 1;
            uint32_t neg = (uint32_t)(d < 0) ^ (uint32_t)czk__msm_scalar_neg(&k[PT(j) * S + t]);
            G_LOCAL(ba_put)(s, p, b, neg);
        }
    }
    G_LOCAL(ba_finish)(s);

    for (size_t t = 0; t < S; t++) {
        size_t off = t * nb;
        if (s->lanes) {
            G_LOCAL(lane_sum)(&res[t], s, off);
            continue;
        }
        G_LOCAL(bsum) z;
        G_LOCAL(bsum_init)(&z);
        for (size_t b = off + nb; b-- > off;) {
            if (s->st[b]) {
                G_LOCAL(bsum_flush)(&z);
                if (s->st[b] & ST_AFF) G_LOCAL(xyzz_madd)(&z.s, &s->A[b].x, &s->A[b].y);
                if (s->st[b] & ST_XYZZ) G_LOCAL(xyzz_add)(&z.s, &z.s, &s->X[b]);
            }
            z.gap++;
        }
        G_LOCAL(bsum_flush)(&z);
        res[t] = z.t;
    }
}

/* The task kernels compiled three times: one scalar set (S = 1, the plain
 * MSM), one set over an index list (the sparse pre-pass's dense scalars),
 * and any S. */
static void G_LOCAL(task_ba)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S, const uint32_t *idx,
                             size_t lo, size_t hi, unsigned w, unsigned c, G_LOCAL(ba) *s, int *dq)
{
    if (idx) G_LOCAL(task_ba_s)(res, bases, k, 1, idx, lo, hi, w, c, s, dq);
    else if (S == 1) G_LOCAL(task_ba_s)(res, bases, k, 1, NULL, lo, hi, w, c, s, dq);
    else G_LOCAL(task_ba_s)(res, bases, k, S, NULL, lo, hi, w, c, s, dq);
}

static void G_LOCAL(task_xyzz)(XYZZ *res, const AFF *bases, const czk__msm_scalar *k, size_t S, const uint32_t *idx,
                               size_t lo, size_t hi, unsigned w, unsigned c, XYZZ *bk, int *dq)
{
    if (idx) G_LOCAL(task_xyzz_s)(res, bases, k, 1, idx, lo, hi, w, c, bk, dq);
    else if (S == 1) G_LOCAL(task_xyzz_s)(res, bases, k, 1, NULL, lo, hi, w, c, bk, dq);
    else G_LOCAL(task_xyzz_s)(res, bases, k, S, NULL, lo, hi, w, c, bk, dq);
}

/* Sum of the points bases[L[i] & IDX], negated where bit 31 of L[i] is set,
 * i in [lo, hi) (the scalars +-1 of the sparse pre-pass): point i goes to
 * accumulator i mod K, K = the batch's capacity or more, so consecutive
 * points meet distinct accumulators and the batch-affine additions run
 * without conflicts; then the K accumulators are summed. */
static void G_LOCAL(task_pm1)(XYZZ *res, const AFF *bases, const uint32_t *L, size_t lo, size_t hi, size_t K,
                              G_LOCAL(ba) *s)
{
    G_LOCAL(ba_start)(s, K, K);
    for (size_t i = lo, b = 0; i < hi; i++) {
        if (i + MSM_PF < hi) __builtin_prefetch(&bases[L[i + MSM_PF] & SPARSE_IDX]);
        const AFF *p = &bases[L[i] & SPARSE_IDX];
        if (p->inf) continue;
        G_LOCAL(ba_put)(s, p, (uint32_t)b, L[i] >> 31);
        if (++b == K) b = 0;
    }
    G_LOCAL(ba_finish)(s);
    XYZZ acc;
    G_LOCAL(xyzz_set_inf)(&acc);
    for (size_t b = 0; b < K; b++) {
        if (s->st[b] & ST_AFF) G_LOCAL(xyzz_madd)(&acc, &s->A[b].x, &s->A[b].y);
        if (s->st[b] & ST_XYZZ) G_LOCAL(xyzz_add)(&acc, &acc, &s->X[b]);
    }
    *res = acc;
}

/* The model's constants (README.md "Cost model"); with the IFMA kernels the
 * batch-affine addition and the inversion of a flush (one inversion and the
 * 8 lanes' Montgomery trick) cost what MSM_COST_BA_IFMA / MSM_COST_INV_IFMA
 * say, and a bucket miss half as much (a flush has 8 gathers in flight);
 * far per doubling of a thread's buckets past its L3 share (msm.c). */
static const czk__msm_costs *G_LOCAL(costs)(void)
{
    static const czk__msm_costs k = {.madd = 11, .add = 15, .dbl = 10, .ba_add = 6.8, .inv = MSM_COST_INV,
                                     .miss = 0.5, .far = MSM_COST_FAR, .load = MSM_COST_LOAD,
                                     .xyzz_bytes = sizeof(XYZZ), .aff_bytes = sizeof(G_LOCAL(aff)),
                                     .fe_bytes = sizeof(FE), .entry_bytes = sizeof(G_LOCAL(entry)),
                                     .point_bytes = sizeof(AFF)};
    static const czk__msm_costs kv = {.madd = 11, .add = 15, .dbl = 10, .ba_add = MSM_COST_BA_IFMA,
                                      .inv = MSM_COST_INV_IFMA, .miss = 0.25, .far = MSM_COST_FAR_IFMA,
                                      .load = MSM_COST_LOAD, .xyzz_bytes = sizeof(XYZZ),
                                      .aff_bytes = sizeof(G_LOCAL(aff)), .fe_bytes = sizeof(FE),
                                      .entry_bytes = sizeof(G_LOCAL(entry)), .point_bytes = sizeof(AFF)};
    return czk__field_use_ifma ? &kv : &k;
}

static size_t G_LOCAL(scratch_size)(size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    czk_msm_plan plan;
    czk__msm_make_plan(&plan, nbases, nsets, opts, G_LOCAL(costs)());
    return plan.scratch;
}

/* A thread's batch-affine state in its scratch area tm (layout lay, plan plan). */
static void G_LOCAL(ba_bind)(G_LOCAL(ba) *ba, uint8_t *tm, const czk__msm_layout *lay, const czk_msm_plan *plan)
{
    ba->A = (G_LOCAL(aff) *)(tm + lay->aff_off);
    ba->X = (XYZZ *)(tm + lay->xyzz_off);
    ba->st = tm + lay->state_off;
    ba->mark = (uint32_t *)(tm + lay->mark_off);
    ba->e = (G_LOCAL(entry) *)(tm + lay->entry_off);
    ba->q = (G_LOCAL(entry) *)(tm + lay->queue_off);
    ba->den = (FE *)(tm + lay->den_off);
    ba->pre = (FE *)(tm + lay->pre_off);
    ba->batch = plan->batch;
    ba->lanes = plan->lanes;
    ba->ls = (AFF *)(tm + lay->lane_off);
    ba->lt = ba->ls + plan->lanes;
    ba->lo = ba->lt + plan->lanes;
    ba->le = (G_LOCAL(lentry) *)(ba->lo + plan->lanes);
    ba->vdst = (uintptr_t *)(tm + lay->vec_off);
    ba->vsrc = ba->vdst + plan->batch;
    ba->vneg = (uint8_t *)(ba->vsrc + plan->batch);
}

/* out[t] = sum_w 2^(w c) R_w (Horner from the top window), R_w = sum_p res[(w P + p) S + t],
 * plus the npm1 +-1 sums. */
static void G_LOCAL(sum_windows)(JAC *out, size_t S, const XYZZ *res, unsigned W, unsigned P, unsigned c, long ntasks,
                                 const XYZZ *res_pm1, long npm1)
{
    for (size_t t = 0; t < S; t++) {
        XYZZ acc;
        G_LOCAL(xyzz_set_inf)(&acc);
        for (unsigned w = W; ntasks && w-- > 0;) {
            if (w + 1 < W)
                for (unsigned i = 0; i < c; i++) G_LOCAL(xyzz_dbl)(&acc, &acc);
            for (unsigned p = 0; p < P; p++) G_LOCAL(xyzz_add)(&acc, &acc, &res[((size_t)w * P + p) * S + t]);
        }
        for (long i = 0; i < npm1; i++) G_LOCAL(xyzz_add)(&acc, &acc, &res_pm1[i]);
        G_LOCAL(xyzz_to_jac)(&out[t], &acc);
    }
}

/* out[t] = sum_i scalars[t][i] bases[j(i)] for t < S; `what` names the
 * public function in messages (multi: the _multi API, else S = 1). */
static czk_status G_LOCAL(msm)(const char *what, int multi, JAC *out, size_t S, const AFF *bases, size_t nbases,
                          const czk_fr *const *scalars, size_t n, const uint64_t *density,
                          const czk_msm_opts *opts)
{
    if (S > CZK_MSM_MAX_SETS)
        return czk_error(CZK_ERR_INVALID_ARG, "%s: nsets = %zu exceeds CZK_MSM_MAX_SETS = %d", what, S,
                         CZK_MSM_MAX_SETS);
    if (out)
        for (size_t t = 0; t < S; t++) G_FN(jac_set_inf)(&out[t]);
    if (!out && S) return czk_error(CZK_ERR_INVALID_ARG, "%s: out is NULL", what);
    if (S == 0) return CZK_OK;
    if (!scalars) return czk_error(CZK_ERR_INVALID_ARG, "%s: scalars is NULL but nsets = %zu", what, S);
    for (size_t t = multi ? 0 : 1; t < S; t++) {
        if (n && !scalars[t])
            return czk_error(CZK_ERR_INVALID_ARG, "%s: scalars[%zu] is NULL but n = %zu", what, t, n);
    }
    CZK_TRY(czk__msm_check_args(what, out, bases, nbases, scalars[0], n, density, opts));
    if (nbases == 0) return CZK_OK;

    const czk__msm_costs *kc = G_LOCAL(costs)();
    czk_msm_plan plan;
    czk__msm_make_plan(&plan, nbases, S, opts, kc);
    czk__msm_layout lay;
    czk__msm_layout_of(&lay, &plan, nbases, kc);
    uint8_t *mem, *owned;
    CZK_TRY(czk__msm_scratch(&mem, &owned, what, opts, lay.total));

    czk__msm_scalar *plain = (czk__msm_scalar *)(mem + lay.plain_off);
    const size_t m = nbases;
    /* The sparse pre-pass (plan.sparse): if the folded scalars 0 and 1 are
     * at least an eighth, the zeros are dropped, the +-1 go to task_pm1 and
     * the rest (index list `dense`) to Pippenger, planned again for their
     * number. */
    size_t n_dense = m, n_pm1 = 0;
    int sparse = czk__msm_prepass(plain, mem, &lay, &plan, m, S, scalars, n, density, &n_dense, &n_pm1);
    czk__msm_layout lay2 = lay;
    czk_msm_plan plan2 = plan;
    if (sparse && !czk__msm_replan_sparse(&plan2, &lay2, &plan, &lay, m, n_dense, opts, kc)) {
        /* no room for the second plan: no pre-pass, every scalar as it is */
        plan2 = plan, lay2 = lay;
        sparse = 0, n_dense = m, n_pm1 = 0;
    }
    uint32_t *dense = sparse ? (uint32_t *)(mem + lay.sparse_off) : NULL, *pm1 = sparse ? dense + m : NULL;

    XYZZ *res = (XYZZ *)(mem + lay2.res_off);
    const unsigned c = plan2.window, W = plan2.windows, P = plan2.chunks;
    const long ntasks = n_dense ? (long)W * P : 0;
    /* the +-1 points in chunks, one task each, scheduled first */
    const long npm1 = n_pm1 ? (long)((n_pm1 + 65535) / 65536 < (size_t)plan2.threads ? (n_pm1 + 65535) / 65536
                                                                                       : (size_t)plan2.threads)
                            : 0;
    XYZZ *res_pm1 = res + (size_t)W * P * S;

#pragma omp parallel num_threads(plan2.threads)
    {
        int tid = omp_get_thread_num();
        uint8_t *tm = mem + lay2.thread_off + (size_t)tid * lay2.per_thread;
        int *dq = (int *)(tm + lay2.digit_off);
        G_LOCAL(ba) ba;
        if (plan2.algo == CZK_MSM_BATCH_AFFINE) G_LOCAL(ba_bind)(&ba, tm, &lay2, &plan2);
#pragma omp for schedule(dynamic, 1)
        for (long t = 0; t < npm1 + ntasks; t++) {
            if (t < npm1) {
                size_t lo = n_pm1 * (size_t)t / (size_t)npm1, hi = n_pm1 * (size_t)(t + 1) / (size_t)npm1;
                size_t K = 2 * (size_t)plan2.batch, nbk = (size_t)1 << (c - 1);
                G_LOCAL(task_pm1)(&res_pm1[t], bases, pm1, lo, hi, K < nbk ? K : nbk, &ba);
                continue;
            }
            long u = t - npm1;
            unsigned w = (unsigned)(u / P), p = (unsigned)(u % P);
            size_t lo = n_dense * p / P, hi = n_dense * (p + 1) / P;
            if (plan2.algo == CZK_MSM_BATCH_AFFINE)
                G_LOCAL(task_ba)(&res[(size_t)u * S], bases, plain, S, dense, lo, hi, w, c, &ba, dq);
            else
                G_LOCAL(task_xyzz)(&res[(size_t)u * S], bases, plain, S, dense, lo, hi, w, c,
                                   (XYZZ *)(tm + lay2.xyzz_off), dq);
        }
    }
    G_LOCAL(sum_windows)(out, S, res, W, P, c, ntasks, res_pm1, npm1);
    czk__big_free(owned);
    return CZK_OK;
}

static czk_status G_LOCAL(ref)(JAC *out, const AFF *bases, size_t nbases, const czk_fr *scalars, size_t n,
                          const uint64_t *density)
{
    static const char *what = "czk_msm_" G_STR "_ref";
    if (out) G_FN(jac_set_inf)(out);
    CZK_TRY(czk__msm_check_args(what, out, bases, nbases, scalars, n, density, NULL));
    JAC acc, t;
    G_FN(jac_set_inf)(&acc);
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        const AFF *p = &bases[j++];
        if (p->inf) continue;
        G_FN(jac_from_affine)(&t, p);
        G_FN(mul_var)(&t, &t, &scalars[i]);
        G_FN(jac_add)(&acc, &acc, &t);
    }
    *out = acc;
    return CZK_OK;
}

/* ---- the public functions of czk/msm.h for this group ---------------------------- */

void G_MSM(plan)(czk_msm_plan *plan, size_t nbases, const czk_msm_opts *opts)
{
    czk__msm_make_plan(plan, nbases, 1, opts, G_LOCAL(costs)());
}

void G_MSM(multi_plan)(czk_msm_plan *plan, size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    czk__msm_make_plan(plan, nbases, nsets, opts, G_LOCAL(costs)());
}

size_t G_MSM(scratch_size)(size_t nbases, const czk_msm_opts *opts)
{
    return G_LOCAL(scratch_size)(nbases, 1, opts);
}

size_t G_MSM(multi_scratch_size)(size_t nbases, size_t nsets, const czk_msm_opts *opts)
{
    return G_LOCAL(scratch_size)(nbases, nsets, opts);
}

czk_status G_MSM(var)(JAC *out, const AFF *bases, size_t nbases, const czk_fr *scalars, size_t n,
                      const uint64_t *density, const czk_msm_opts *opts)
{
    static const char *what = "czk_msm_" G_STR "_var";
    if (!out) return czk_error(CZK_ERR_INVALID_ARG, "%s: out is NULL", what);
    return G_LOCAL(msm)(what, 0, out, 1, bases, nbases, &scalars, n, density, opts);
}

czk_status G_MSM(var_multi)(JAC *out, size_t nsets, const AFF *bases, size_t nbases, const czk_fr *const *scalars,
                            size_t n, const uint64_t *density, const czk_msm_opts *opts)
{
    return G_LOCAL(msm)("czk_msm_" G_STR "_var_multi", 1, out, nsets, bases, nbases, scalars, n, density, opts);
}

czk_status G_MSM(ref)(JAC *out, const AFF *bases, size_t nbases, const czk_fr *scalars, size_t n,
                      const uint64_t *density)
{
    return G_LOCAL(ref)(out, bases, nbases, scalars, n, density);
}

#undef ENT_NEG
#undef ENT_DBL
#undef ST_AFF
#undef ST_XYZZ
#undef MSM_PF
#undef FLUSH_PF
#undef VEC_MIN
#undef PT
#undef SPARSE_IDX
