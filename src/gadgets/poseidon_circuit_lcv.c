/* czk — Poseidon circuit, compiled once per LC variant (cs/lc.h).
 *
 * The R1CS of neptune's circuit::poseidon_hash (filecoin-project/neptune,
 * src/circuit.rs), rebuilt from its semantics. The state is a vector of
 * "elements", each either an allocated variable or a linear combination (LC)
 * with its value. Per round, in neptune's optimized structure (poseidon_params.h):
 *
 *   first full round  element 0 is the constant tag: its S-box is a constant;
 *                     elements 1..n are the allocated inputs x:
 *                       l2 = (x + pre)^2, l4 = l2^2, l5 = l4 * (x + pre) + post
 *                     (3 constraints, round constants folded into the LCs);
 *   other S-boxes     the element is an LC: allocate it (1 constraint, lc * 1 = v),
 *                     then l2 = v^2, l4 = l2^2, l5 = l4 * v + post (3 constraints);
 *   linear layers     no constraint: LCs are combined (dense MDS, the pre-sparse
 *                     matrix, or per partial round the sparse matrix).
 * The output state[1] is an LC, allocated with one more constraint. Hence
 * 3 n + 4 (t R_F + R_P - t) + 1 = 3 (t R_F + R_P - 1) + (t R_F + R_P - n).
 */
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"
#include "gadgets/poseidon_params.h"

typedef struct czk__pelt {
    czk_lc lc;    /* valid when !alloc */
    czk_fr val;   /* valid when the backend has values */
    czk_var var;  /* valid when alloc */
    int alloc;
} czk__pelt;

/* ensure_allocated: an LC element becomes a variable v with lc * 1 = v. */
static czk_status czk__pelt_ensure(czk_cs *cs, czk__pelt *e, int vals, int lcs) {
    if (e->alloc) return CZK_OK;
    czk__cs_ns_push(cs, "S-box input", CZK_NOIDX);
    czk__cs_ns_push(cs, "allocate for Elt::Num", CZK_NOIDX);
    CZK_TRY(czk__cs_alloc(cs, &e->var, vals ? &e->val : NULL, "num", CZK_NOIDX));
    czk__cs_ns_pop(cs);
    if (lcs) {
        czk_lc *one = czk_lc_scratch(cs, 0), *c = czk_lc_scratch(cs, 1);
        czk_lc_add_var(one, CZK_VAR_ONE);
        czk_lc_add_var(c, e->var);
        CZK_TRY(czk_enforce(cs, &e->lc, one, c, "enforce num allocation preserves lc", CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    e->alloc = 1;
    return CZK_OK;
}

/* l5 = (x + pre)^5 + post for an allocated x. pre / post NULL when absent.
 * The caller has pushed the S-box namespace. */
static czk_status czk__psbox(czk_cs *cs, czk__pelt *e, const czk_fr *pre, const czk_fr *post,
                             int vals, int lcs) {
    czk_var x = e->var, l2, l4, l5;
    czk_fr xp, v2, v4, v5;
    if (vals) {
        xp = e->val;
        if (pre) czk_fr_add(&xp, &xp, pre);
        czk_fr_sqr(&v2, &xp);
        czk_fr_sqr(&v4, &v2);
        czk_fr_mul(&v5, &v4, &xp);
        if (post) czk_fr_add(&v5, &v5, post);
    }
    czk_lc *a = NULL, *b = NULL, *c = NULL;
    /* l2 */
    czk__cs_ns_push(cs, pre ? "(l+rk)^2" : "l^2", CZK_NOIDX);
    if (pre) czk__cs_ns_push(cs, "squared sum", CZK_NOIDX);
    CZK_TRY(czk__cs_alloc(cs, &l2, vals ? &v2 : NULL, pre ? "num" : "squared num", CZK_NOIDX));
    if (pre) czk__cs_ns_pop(cs);
    if (lcs) {
        a = czk_lc_scratch(cs, 0);
        c = czk_lc_scratch(cs, 1);
        czk_lc_add_var(a, x);
        if (pre) czk_lc_add_term(a, pre, CZK_VAR_ONE);
        czk_lc_add_var(c, l2);
        CZK_TRY(czk_enforce(cs, a, a, c, pre ? "squared sum constraint" : "squaring constraint", CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    /* l4 */
    czk__cs_ns_push(cs, "l^4", CZK_NOIDX);
    CZK_TRY(czk__cs_alloc(cs, &l4, vals ? &v4 : NULL, "squared num", CZK_NOIDX));
    if (lcs) {
        a = czk_lc_scratch(cs, 0);
        c = czk_lc_scratch(cs, 1);
        czk_lc_add_var(a, l2);
        czk_lc_add_var(c, l4);
        CZK_TRY(czk_enforce(cs, a, a, c, "squaring constraint", CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    /* l5: (x + pre) * l4 = l5 - post */
    czk__cs_ns_push(cs, pre ? "l4 * (l + rk)" : "(l4 * l) + rk)", CZK_NOIDX);
    czk__cs_ns_push(cs, "mul_sum", CZK_NOIDX);
    CZK_TRY(czk__cs_alloc(cs, &l5, vals ? &v5 : NULL, "num", CZK_NOIDX));
    czk__cs_ns_pop(cs);
    if (lcs) {
        a = czk_lc_scratch(cs, 0);
        b = czk_lc_scratch(cs, 1);
        c = czk_lc_scratch(cs, 2);
        czk_lc_add_var(a, x);
        if (pre) czk_lc_add_term(a, pre, CZK_VAR_ONE);
        czk_lc_add_var(b, l4);
        czk_lc_add_var(c, l5);
        if (post) czk_lc_sub_term(c, post, CZK_VAR_ONE);
        CZK_TRY(czk_enforce(cs, a, b, c,
                            post ? (pre ? "mul sum constraint pre-post-add" : "mul sum constraint post-add")
                                 : (pre ? "mul sum constraint pre-add" : "mul sum constraint"),
                            CZK_NOIDX));
    }
    czk__cs_ns_pop(cs);
    e->var = l5;
    e->alloc = 1;
    if (vals) e->val = v5;
    return CZK_OK;
}

/* dst[j] = sum_i src[i] * m[i][j] (an LC; no constraint). */
static void czk__pmix_dense(czk__pelt *dst, const czk__pelt *src, const czk_fr *m,
                            unsigned t, int vals, int lcs) {
    for (unsigned j = 0; j < t; j++) {
        czk__pelt *d = &dst[j];
        if (lcs) {
            czk_lc_clear(&d->lc);
            for (unsigned i = 0; i < t; i++) {
                if (src[i].alloc) czk_lc_add_term(&d->lc, &m[i * t + j], src[i].var);
                else czk_lc_add_scaled(&d->lc, &m[i * t + j], &src[i].lc);
            }
        }
        if (vals) {
            czk_fr tmp;
            czk_fr_mul(&d->val, &src[0].val, &m[j]);
            for (unsigned i = 1; i < t; i++) {
                czk_fr_mul(&tmp, &src[i].val, &m[i * t + j]);
                czk_fr_add(&d->val, &d->val, &tmp);
            }
        }
        d->alloc = 0;
    }
}

/* Sparse layer: new[0] = sum_i w_hat[i] s[i]; new[j] = s[j] + v_rest[j-1] s[0].
 * s[0] is allocated (the partial round's S-box output), s[j>0] are LCs.
 * new[0] is built in *tmp0, then swapped into s[0]. */
static void czk__pmix_sparse(czk__pelt *s, czk__pelt *tmp0, const czk_fr *w_hat,
                             const czk_fr *v_rest, unsigned t, int vals, int lcs) {
    CZK_ASSERT(s[0].alloc);
    if (lcs) {
        czk_lc_clear(&tmp0->lc);
        czk_lc_add_term(&tmp0->lc, &w_hat[0], s[0].var);
        for (unsigned i = 1; i < t; i++) {
            CZK_ASSERT(!s[i].alloc);
            czk_lc_add_scaled(&tmp0->lc, &w_hat[i], &s[i].lc);
        }
        for (unsigned j = 1; j < t; j++) czk_lc_add_term(&s[j].lc, &v_rest[j - 1], s[0].var);
    }
    if (vals) {
        czk_fr tmp;
        czk_fr_mul(&tmp0->val, &s[0].val, &w_hat[0]);
        for (unsigned i = 1; i < t; i++) {
            czk_fr_mul(&tmp, &s[i].val, &w_hat[i]);
            czk_fr_add(&tmp0->val, &tmp0->val, &tmp);
        }
        for (unsigned j = 1; j < t; j++) {
            czk_fr_mul(&tmp, &s[0].val, &v_rest[j - 1]);
            czk_fr_add(&s[j].val, &s[j].val, &tmp);
        }
    }
    tmp0->alloc = 0;
    czk__pelt sw = s[0];
    s[0] = *tmp0;
    *tmp0 = sw;
}

static czk_status czk__poseidon_body(czk_cs *cs, czk__pelt *sa, czk__pelt *sb,
                                     const czk__poseidon_params *p, const czk_fr *tag, czk_var *out,
                                     czk_fr *out_val, const czk_var *in, const czk_fr *in_val, int vals, int lcs) {
    const unsigned t = p->t, half = p->r_f / 2;
    czk__pelt *s = sa, *nx = sb;
    const czk_fr *k = p->crc;
    unsigned round = 0;

    /* state = [tag, inputs] */
    if (lcs) czk_lc_add_term(&s[0].lc, tag, CZK_VAR_ONE);
    s[0].val = *tag;
    s[0].alloc = 0;
    for (unsigned i = 1; i < t; i++) {
        s[i].var = in[i - 1];
        s[i].alloc = 1;
        if (vals) s[i].val = in_val[i - 1];
    }

#define MIX()                                                                                            \
    do {                                                                                                 \
        if (round == half - 1 || round < half - 1 || round >= half + p->r_p) {                           \
            czk__pmix_dense(nx, s, round == half - 1 ? p->pre_sparse : p->mds, t, vals, lcs);    \
            czk__pelt *sw_ = s;                                                                   \
            s = nx;                                                                                      \
            nx = sw_;                                                                                    \
        } else {                                                                                         \
            unsigned r_ = round - half;                                                                  \
            czk__pmix_sparse(s, &nx[0], &p->w_hat[r_ * t], &p->v_rest[r_ * (t - 1)], t, vals, lcs); \
        }                                                                                                \
        round++;                                                                                         \
    } while (0)

    /* first full round: pre keys k[0..t), post keys k[t..2t) */
    czk__cs_ns_push(cs, "first round", CZK_NOIDX);
    {
        const czk_fr *pre = k, *post = k + t;
        czk_fr c;
        czk_fr_add(&c, tag, &pre[0]);
        {
            czk_fr c2, c4;
            czk_fr_sqr(&c2, &c);
            czk_fr_sqr(&c4, &c2);
            czk_fr_mul(&c, &c4, &c);
            czk_fr_add(&c, &c, &post[0]);
        }
        if (lcs) {
            czk_lc_clear(&s[0].lc);
            czk_lc_add_term(&s[0].lc, &c, CZK_VAR_ONE);
        }
        s[0].val = c;
        for (unsigned i = 1; i < t; i++) {
            czk__cs_ns_push(cs, "quintic s-box", i);
            CZK_TRY(czk__psbox(cs, &s[i], &pre[i], &post[i], vals, lcs));
            czk__cs_ns_pop(cs);
        }
        k += 2 * t;
    }
    czk__cs_ns_pop(cs);
    MIX();

    for (unsigned r = 1; r < half; r++) {
        czk__cs_ns_push(cs, "initial full round", r);
        for (unsigned i = 0; i < t; i++) {
            czk__cs_ns_push(cs, "quintic s-box", i);
            CZK_TRY(czk__pelt_ensure(cs, &s[i], vals, lcs));
            CZK_TRY(czk__psbox(cs, &s[i], NULL, &k[i], vals, lcs));
            czk__cs_ns_pop(cs);
        }
        k += t;
        czk__cs_ns_pop(cs);
        MIX();
    }
    for (unsigned r = 0; r < p->r_p; r++) {
        czk__cs_ns_push(cs, "partial round", r);
        czk__cs_ns_push(cs, "solitary quintic s-box", CZK_NOIDX);
        CZK_TRY(czk__pelt_ensure(cs, &s[0], vals, lcs));
        CZK_TRY(czk__psbox(cs, &s[0], NULL, k, vals, lcs));
        k++;
        czk__cs_ns_pop(cs);
        czk__cs_ns_pop(cs);
        MIX();
    }
    for (unsigned r = 0; r < half; r++) {
        int last = r + 1 == half;
        czk__cs_ns_push(cs, last ? "terminal full round" : "final full round", last ? CZK_NOIDX : r);
        for (unsigned i = 0; i < t; i++) {
            czk__cs_ns_push(cs, "quintic s-box", i);
            CZK_TRY(czk__pelt_ensure(cs, &s[i], vals, lcs));
            CZK_TRY(czk__psbox(cs, &s[i], NULL, last ? NULL : &k[i], vals, lcs));
            czk__cs_ns_pop(cs);
        }
        if (!last) k += t;
        czk__cs_ns_pop(cs);
        MIX();
    }
#undef MIX
    CZK_ASSERT(k == p->crc + p->r_f * t + p->r_p);
    CZK_ASSERT(round == p->r_f + p->r_p);

    czk__cs_ns_push(cs, "hash result", CZK_NOIDX);
    CZK_TRY(czk__pelt_ensure(cs, &s[1], vals, lcs));
    czk__cs_ns_pop(cs);
    *out = s[1].var;
    if (out_val && vals) *out_val = s[1].val;
    return CZK_OK;
}

/* Replay (backends without names: PROVE, SHAPE): allocate every variable
 * through the value-only path, then emit the constraints of the recorded
 * template (poseidon_circuit.c) with local ids mapped to variables. The
 * result is the same R1CS (same variable order, constraint order, LC terms and
 * coefficients) without the field multiplications of LC building. */
static czk_status czk__poseidon_replay(czk_cs *cs, const czk__ptmpl *tp, const czk__poseidon_params *p,
                                       const czk_fr *tag, czk_var *out, czk_fr *out_val, const czk_var *in,
                                       const czk_fr *in_val, int vals) {
    czk__pelt sa[CZK__POSEIDON_MAX_T], sb[CZK__POSEIDON_MAX_T];
    const uint32_t first = cs->n_aux;
    CZK_TRY(czk__poseidon_body(cs, sa, sb, p, tag, out, out_val, in, in_val, vals, 0));
    if (cs->n_aux - first != tp->n_alloc || *out != czk_var_aux(first + tp->n_alloc - 1))
        return czk_error(CZK_ERR_INTERNAL, "poseidon circuit: replay allocated %u variables, template has %u",
                         cs->n_aux - first, tp->n_alloc);
    const uint32_t n = p->arity;
    czk_lc *lc[3];
    for (uint32_t r = 0; r < tp->n_cons; r++) {
        for (int k = 0; k < 3; k++) {
            lc[k] = czk_lc_scratch(cs, (unsigned)k);
            for (uint32_t j = tp->off[3 * r + k]; j < tp->off[3 * r + k + 1]; j++) {
                uint32_t id = tp->id[j];
                czk_var v = id == 0 ? CZK_VAR_ONE : id <= n ? in[id - 1] : czk_var_aux(first + id - n - 1);
                czk_lc_add_term(lc[k], &tp->coeff[j], v);
            }
        }
        CZK_TRY(czk_enforce(cs, lc[0], lc[1], lc[2], "poseidon", r));
    }
    return CZK_OK;
}

czk_status czk_poseidon_circuit_tag(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *in,
                                    const czk_fr *in_val, size_t n, const czk_fr *tag) {
    const czk__poseidon_params *p = n <= CZK_POSEIDON_MAX_ARITY ? czk__poseidon_params_get((unsigned)n) : NULL;
    if (!p)
        return czk_error(CZK_ERR_UNSUPPORTED, "poseidon circuit: arity %zu has no parameters (2, 4, 8, 11)", n);
    if (!out || (!in && n))
        return czk_error(CZK_ERR_INVALID_ARG, "poseidon circuit: %s is NULL", !out ? "out" : "in");
    if (!tag) tag = &p->merkle_tag;
    const int vals = czk__cs_has_values(cs), lcs = czk__cs_needs_constraints(cs);
    if (vals && !in_val)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "poseidon circuit: input values are needed by the %s backend",
                         czk_cs_backend_name(cs->backend));
    if (lcs && !cs->wants_names) {
        const czk__ptmpl *tp = czk__poseidon_template(p, tag);
        if (tp) return czk__poseidon_replay(cs, tp, p, tag, out, out_val, in, in_val, vals);
    }
    czk__pelt sa[CZK__POSEIDON_MAX_T], sb[CZK__POSEIDON_MAX_T];
    if (lcs)
        for (unsigned i = 0; i < p->t; i++) {
            czk_lc_init(&sa[i].lc);
            czk_lc_init(&sb[i].lc);
        }
    /* The element LCs are swapped between sa and sb as the rounds go, so free
     * both arrays' LCs, whichever state each ended in. */
    czk_status st = czk__poseidon_body(cs, sa, sb, p, tag, out, out_val, in, in_val, vals, lcs);
    if (lcs)
        for (unsigned i = 0; i < p->t; i++) {
            czk_lc_free(&sa[i].lc);
            czk_lc_free(&sb[i].lc);
        }
    return st;
}

czk_status czk_poseidon_circuit(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *in,
                                const czk_fr *in_val, size_t n) {
    return czk_poseidon_circuit_tag(cs, out, out_val, in, in_val, n, NULL);
}
