/* The bodies of test_cs.c's per-variant tests, compiled once per LC variant
 * (cs/lc.h; names in cs/cs_lcv.h). */
#include <stdlib.h>

#include "cs/cs_lcv.h"
#include "cs/lc_lcv.h"
#include "runner.h"

/* Random add/sub/scaled operations against a dense reference model: the LC
 * must stay sorted, merged, with the same coefficients (zeros included). */
void lc_random_ops(czk_rng *rng)
{
    enum { NV = 24 };
    czk_fr ref[2][NV];
    int present[2][NV];
    czk_lc lc, other;
    czk_lc_init(&lc);
    czk_lc_init(&other);
    memset(present, 0, sizeof(present));
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < NV; i++) ref[k][i] = CZK_FR_ZERO;
    for (int step = 0; step < 400; step++) {
        unsigned op = (unsigned)czk_rng_below(rng, 6);
        czk_var v = (czk_var)czk_rng_below(rng, NV);
        int isin = (int)czk_rng_below(rng, 3) == 0;
        czk_fr c;
        if (czk_rng_below(rng, 4) == 0) c = CZK_FR_ONE;
        else czk_fr_from_u64(&c, czk_rng_below(rng, 5));
        if (isin) v = czk_var_input(v);
        int k = isin ? 0 : 1;
        uint32_t i = czk_var_index(v);
        switch (op) {
        case 0: czk_lc_add_term(&lc, &c, v); czk_fr_add(&ref[k][i], &ref[k][i], &c); present[k][i] = 1; break;
        case 1: czk_lc_sub_term(&lc, &c, v); czk_fr_sub(&ref[k][i], &ref[k][i], &c); present[k][i] = 1; break;
        case 2: czk_lc_add_var(&lc, v); czk_fr_add(&ref[k][i], &ref[k][i], &CZK_FR_ONE); present[k][i] = 1; break;
        case 3: czk_lc_sub_var(&lc, v); czk_fr_sub(&ref[k][i], &ref[k][i], &CZK_FR_ONE); present[k][i] = 1; break;
        default: {
            /* lc +/- (c, other) with a small random other */
            czk_lc_clear(&other);
            int m = (int)czk_rng_below(rng, 5);
            czk_fr oc[2][NV];
            int op2[2][NV];
            memset(op2, 0, sizeof(op2));
            for (int j = 0; j < m; j++) {
                czk_var w = (czk_var)czk_rng_below(rng, NV);
                int win = (int)czk_rng_below(rng, 3) == 0;
                czk_fr d;
                czk_fr_from_u64(&d, 1 + czk_rng_below(rng, 7));
                if (win) w = czk_var_input(w);
                int kk = win ? 0 : 1;
                uint32_t ii = czk_var_index(w);
                if (!op2[kk][ii]) oc[kk][ii] = CZK_FR_ZERO;
                czk_fr_add(&oc[kk][ii], &oc[kk][ii], &d);
                op2[kk][ii] = 1;
                czk_lc_add_term(&other, &d, w);
            }
            if (op == 4) czk_lc_add_scaled(&lc, &c, &other);
            else czk_lc_sub_scaled(&lc, &c, &other);
            for (int kk = 0; kk < 2; kk++)
                for (int ii = 0; ii < NV; ii++)
                    if (op2[kk][ii]) {
                        czk_fr t;
                        czk_fr_mul(&t, &oc[kk][ii], &c);
                        if (op == 4) czk_fr_add(&ref[kk][ii], &ref[kk][ii], &t);
                        else czk_fr_sub(&ref[kk][ii], &ref[kk][ii], &t);
                        present[kk][ii] = 1;
                    }
            break;
        }
        }
    }
    czk_lc_view view;
    czk_lc_view_of(&view, &lc);
    for (int k = 0; k < 2; k++) {
        const czk_lc_term *t = k ? view.aux : view.in;
        uint32_t n = k ? view.n_aux : view.n_in, j = 0;
        for (int i = 0; i < NV; i++) {
            if (!present[k][i]) continue;
            REQUIRE(j < n);
            CHECK_EQ_U64(t[j].index, (uint64_t)i);
            CHECK(czk_fr_eq(&t[j].coeff, &ref[k][i]));
            j++;
        }
        CHECK_EQ_U64(j, n);
    }
    /* copy equals */
    czk_lc cp;
    czk_lc_init(&cp);
    czk_lc_copy(&cp, &lc);
    czk_lc_view v2;
    czk_lc_view_of(&v2, &cp);
    CHECK_EQ_U64(v2.n_in, view.n_in);
    CHECK_EQ_U64(v2.n_aux, view.n_aux);
    if (v2.n_aux == view.n_aux && view.n_aux) CHECK_MEM(v2.aux, view.aux, view.n_aux * sizeof(czk_lc_term));
    czk_lc_free(&cp);
    czk_lc_free(&lc);
    czk_lc_free(&other);
}

/* push_unsorted + normalize equals term-by-term add_term; pow2-tagged
 * coefficients scale exactly like multiplied ones. */
void lc_bulk_ops(czk_rng *rng)
{
    czk_lc a, b, s1, s2;
    czk_lc_init(&a);
    czk_lc_init(&b);
    czk_lc_init(&s1);
    czk_lc_init(&s2);
    unsigned n = 1 + (unsigned)czk_rng_below(rng, 200);
    for (unsigned i = 0; i < n; i++) {
        czk_var v = (czk_var)czk_rng_below(rng, 90);
        if (czk_rng_below(rng, 8) == 0) v = czk_var_input((uint32_t)czk_rng_below(rng, 3));
        unsigned e = (unsigned)czk_rng_below(rng, 40);
        int neg = (int)czk_rng_below(rng, 2);
        const czk_fr *c = neg ? &czk__pow2_neg_table[e] : &czk__pow2_table[e];
        czk_lc_add_term(&a, c, v);
        czk_lc_push_unsorted(&b, c, v);
    }
    czk_lc_normalize(&b);
    czk_lc_view va, vb;
    czk_lc_view_of(&va, &a);
    czk_lc_view_of(&vb, &b);
    REQUIRE(va.n_in == vb.n_in && va.n_aux == vb.n_aux);
    for (uint32_t i = 0; i < va.n_aux; i++) {
        CHECK_EQ_U64(va.aux[i].index, vb.aux[i].index);
        CHECK(czk_fr_eq(&va.aux[i].coeff, &vb.aux[i].coeff));
    }
    for (uint32_t i = 0; i < va.n_in; i++) CHECK(czk_fr_eq(&va.in[i].coeff, &vb.in[i].coeff));
    /* s1 = x + 2^e * b (table pointer: lookups), s2 = x + k * b with k a copy
     * of 2^e (not in the table: multiplications) */
    unsigned e = (unsigned)czk_rng_below(rng, 200);
    czk_fr k = czk__pow2_table[e];
    czk_var x = (czk_var)czk_rng_below(rng, 90);
    czk_lc_add_var(&s1, x);
    czk_lc_add_var(&s2, x);
    if (czk_rng_below(rng, 2)) {
        czk_lc_add_scaled(&s1, &czk__pow2_table[e], &b);
        czk_lc_add_scaled(&s2, &k, &b);
    } else {
        czk_lc_sub_scaled(&s1, &czk__pow2_table[e], &b);
        czk_lc_sub_scaled(&s2, &k, &b);
    }
    czk_lc_sub_lc(&s1, &a);
    czk_lc_sub_lc(&s2, &a);
    czk_lc_add_lc(&s1, &s1); /* aliasing */
    czk_lc_add_lc(&s2, &s2);
    czk_lc_view_of(&va, &s1);
    czk_lc_view_of(&vb, &s2);
    REQUIRE(va.n_in == vb.n_in && va.n_aux == vb.n_aux);
    for (uint32_t i = 0; i < va.n_aux; i++) {
        CHECK_EQ_U64(va.aux[i].index, vb.aux[i].index);
        CHECK(czk_fr_eq(&va.aux[i].coeff, &vb.aux[i].coeff));
    }
    for (uint32_t i = 0; i < va.n_in; i++) CHECK(czk_fr_eq(&va.in[i].coeff, &vb.in[i].coeff));
    czk_lc_free(&a);
    czk_lc_free(&b);
    czk_lc_free(&s1);
    czk_lc_free(&s2);
}

/* A small circuit exercising interleaved inputs, zero coefficients and
 * densities. Values: x = 3, y = 5. */
czk_status small_circuit(czk_cs *cs)
{
    czk_fr f3, f5, f15, f8, f40;
    czk_fr_from_u64(&f3, 3);
    czk_fr_from_u64(&f5, 5);
    czk_fr_from_u64(&f15, 15);
    czk_fr_from_u64(&f8, 8);
    czk_fr_from_u64(&f40, 40);
    int hv = cs->has_values;
    czk_var x, y, w, pub, t, u;
    czk_cs_ns_push(cs, "ns", CZK_NOIDX);
    CZK_TRY(czk_cs_alloc(cs, &x, hv ? &f3 : NULL, "x", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc(cs, &y, hv ? &f5 : NULL, "y", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc(cs, &w, hv ? &f15 : NULL, "w", CZK_NOIDX));
    czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, x);
    czk_lc_add_var(b, y);
    czk_lc_add_var(c, w);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 0));
    CZK_TRY(czk_cs_alloc_input(cs, &pub, hv ? &f15 : NULL, "pub", CZK_NOIDX));
    a = czk_lc_scratch(cs, 0), b = czk_lc_scratch(cs, 1), c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, pub);
    czk_lc_add_var(b, CZK_VAR_ONE);
    czk_lc_add_var(c, w);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 1));
    CZK_TRY(czk_cs_alloc(cs, &t, hv ? &f8 : NULL, "t", CZK_NOIDX));
    a = czk_lc_scratch(cs, 0), b = czk_lc_scratch(cs, 1), c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, t); /* added out of order: x < t */
    czk_lc_add_var(a, x);
    czk_lc_sub_var(a, t); /* t's coefficient becomes 0 and stays */
    czk_lc_add_var(b, CZK_VAR_ONE);
    czk_lc_add_var(c, x);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 2));
    CZK_TRY(czk_cs_alloc(cs, &u, hv ? &f40 : NULL, "u", CZK_NOIDX));
    a = czk_lc_scratch(cs, 0), b = czk_lc_scratch(cs, 1), c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, t);
    czk_lc_add_var(b, y);
    czk_lc_add_var(b, x);
    czk_lc_sub_var(b, x);
    czk_lc_add_var(c, u);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 3));
    czk_cs_ns_pop(cs);
    return CZK_OK;
}
