/* Poseidon circuit: counts of docs/filecoin.md#gadget-counts, satisfiability, native == circuit,
 * tampered witnesses named, every LC variant and backend agreeing. */
#include <stdlib.h>

#include "cs/cs_internal.h"
#include "czk/poseidon.h"
#include "runner.h"

static const size_t ARITIES[4] = {2, 4, 8, 11};
static const uint64_t COUNTS[4] = {311, 377, 505, 598};

/* Allocate n random inputs named "x i" in cs, hash them in namespace "h". */
static czk_status synth(czk_cs *cs, size_t n, const czk_fr *vals, czk_var *out, czk_fr *out_val) {
    czk_var in[CZK_POSEIDON_MAX_ARITY];
    for (size_t i = 0; i < n; i++) CZK_TRY(czk_cs_alloc(cs, &in[i], cs->has_values ? &vals[i] : NULL, "x", i));
    czk_cs_ns_push(cs, "h", CZK_NOIDX);
    czk_status st = czk_poseidon_circuit_any(cs, out, out_val, in, cs->has_values ? vals : NULL, n);
    czk_cs_ns_pop(cs);
    return st;
}

CZK_TEST(poseidon_circuit_counts_and_values) {
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 1 : 3);
    for (int a = 0; a < 4; a++) {
        size_t n = ARITIES[a];
        CHECK_EQ_U64(czk_poseidon_circuit_constraints(n), COUNTS[a]);
        for (size_t it = 0; it < iters; it++) {
            czk_fr vals[CZK_POSEIDON_MAX_ARITY], want, got, got2;
            for (size_t i = 0; i < n; i++) czk_fr_random(&vals[i], rng);
            if (it == 0)
                for (size_t i = 0; i < n; i++) czk_fr_from_u64(&vals[i], i);
            REQUIRE_OK(czk_poseidon_hash(&want, vals, n));
            czk_cs *cs;
            czk_var out;
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
            REQUIRE_OK(synth(cs, n, vals, &out, &got));
            CHECK_EQ_U64(cs->n_constraints, COUNTS[a]);
            CHECK_EQ_U64(cs->n_inputs, 1);
            CHECK_OK(czk_cs_test_check(cs));
            CHECK_MSG(czk_fr_eq(&got, &want), "arity %zu: circuit output != native", n);
            REQUIRE_OK(czk_cs_value(cs, &got2, out));
            CHECK(czk_fr_eq(&got2, &want));
            czk_cs_destroy(cs);
        }
    }
}

/* Changing one witness value breaks a named constraint. */
CZK_TEST(poseidon_circuit_tamper) {
    czk_rng *rng = czk_test_rng();
    for (int a = 0; a < 4; a++) {
        size_t n = ARITIES[a];
        czk_fr vals[CZK_POSEIDON_MAX_ARITY], got;
        for (size_t i = 0; i < n; i++) czk_fr_random(&vals[i], rng);
        czk_cs *cs;
        czk_var out;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(synth(cs, n, vals, &out, &got));
        REQUIRE_OK(czk_cs_test_check(cs));
        /* every 7th variable plus the input, the output */
        uint32_t naux = cs->n_aux;
        for (uint32_t v = 0; v < naux; v += (v < n ? 1 : 7)) {
            czk_fr old, bad;
            czk_var var = czk_var_aux(v);
            REQUIRE_OK(czk_cs_value(cs, &old, var));
            czk_fr_add(&bad, &old, &CZK_FR_ONE);
            REQUIRE_OK(czk_cs_test_set(cs, var, &bad));
            CHECK_MSG(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED, "arity %zu: aux %u altered, still satisfied", n, v);
            int64_t w = czk_cs_test_which_unsatisfied(cs);
            CHECK(w >= 0);
            const char *name = w >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)w) : NULL;
            CHECK_MSG(name && strncmp(name, "h/", 2) == 0, "arity %zu aux %u: failing constraint '%s'", n, v,
                      name ? name : "(null)");
            REQUIRE_OK(czk_cs_test_set(cs, var, &old));
        }
        czk_fr old, bad;
        REQUIRE_OK(czk_cs_value(cs, &old, out));
        czk_fr_add(&bad, &old, &CZK_FR_ONE);
        REQUIRE_OK(czk_cs_test_set(cs, out, &bad));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        const char *name = czk_cs_test_constraint_name(cs, (uint64_t)czk_cs_test_which_unsatisfied(cs));
        CHECK_MSG(name && strstr(name, "hash result") != NULL, "output altered: '%s'", name ? name : "(null)");
        REQUIRE_OK(czk_cs_test_set(cs, out, &old));
        CHECK_OK(czk_cs_test_check(cs));
        czk_cs_destroy(cs);
    }
}

/* Every LC variant builds the same system; the other backends agree. */
CZK_TEST(poseidon_circuit_variants_backends) {
    czk_rng *rng = czk_test_rng();
    for (int a = 0; a < 4; a++) {
        size_t n = ARITIES[a];
        czk_fr vals[CZK_POSEIDON_MAX_ARITY], want, got;
        for (size_t i = 0; i < n; i++) czk_fr_random(&vals[i], rng);
        REQUIRE_OK(czk_poseidon_hash(&want, vals, n));
        char h0[65] = {0}, h[65];
        uint32_t naux0 = 0;
        czk_fr *aux0 = NULL;
        for (int k = 0; k < CZK_LC_KIND_COUNT; k++) {
            czk_cs *cs;
            czk_var out;
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, (czk_lc_kind)k, NULL));
            REQUIRE_OK(synth(cs, n, vals, &out, &got));
            CHECK_OK(czk_cs_test_check(cs));
            CHECK(czk_fr_eq(&got, &want));
            czk_cs_test_hash(cs, h);
            if (k == 0) {
                memcpy(h0, h, sizeof h);
                naux0 = cs->n_aux;
                aux0 = malloc(naux0 * sizeof(czk_fr));
                REQUIRE(aux0);
                for (uint32_t v = 0; v < naux0; v++) REQUIRE_OK(czk_cs_value(cs, &aux0[v], czk_var_aux(v)));
            }
            CHECK_MSG(strcmp(h, h0) == 0, "arity %zu: LC %s hash %s != vec %s", n, czk_lc_kind_name((czk_lc_kind)k), h, h0);
            czk_cs_destroy(cs);

            /* WITNESS: same variables and values, no constraints. */
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_WITNESS, (czk_lc_kind)k, NULL));
            REQUIRE_OK(synth(cs, n, vals, &out, &got));
            CHECK(czk_fr_eq(&got, &want));
            CHECK_EQ_U64(cs->n_aux, naux0);
            const czk_fr *win, *waux;
            size_t nwin, nwaux;
            REQUIRE_OK(czk_cs_witness_get(cs, &win, &nwin, &waux, &nwaux));
            CHECK_EQ_U64(nwaux, naux0);
            CHECK(nwaux == naux0 && memcmp(waux, aux0, naux0 * sizeof(czk_fr)) == 0);
            czk_cs_destroy(cs);

            /* PROVE: a * b = c everywhere. */
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, (czk_lc_kind)k, NULL));
            REQUIRE_OK(synth(cs, n, vals, &out, &got));
            CHECK_EQ_U64(cs->n_constraints, COUNTS[a]);
            CHECK_OK(czk_cs_prove_check(cs));
            czk_cs_destroy(cs);

            /* SHAPE: no values needed. */
            REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, (czk_lc_kind)k, NULL));
            REQUIRE_OK(synth(cs, n, NULL, &out, NULL));
            CHECK_EQ_U64(cs->n_constraints, COUNTS[a]);
            CHECK_EQ_U64(cs->n_aux, naux0);
            czk_cs_destroy(cs);
        }
        free(aux0);
    }
}

CZK_TEST(poseidon_circuit_errors) {
    czk_cs *cs;
    czk_var in[3] = {0, 0, 0}, out;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
    CHECK(czk_poseidon_circuit_any(cs, &out, NULL, in, NULL, 3) == CZK_ERR_UNSUPPORTED);
    CHECK(czk_poseidon_circuit_any(cs, &out, NULL, in, NULL, 2) == CZK_ERR_MISSING_ASSIGNMENT);
    czk_cs_destroy(cs);
}

/* PROVE and SHAPE synthesize by replaying a recorded per-arity template; TEST
 * runs the direct construction. Same R1CS: SHAPE's CSR rows equal TEST's
 * constraints term by term (zero coefficients included), PROVE's a/b/c and aux
 * equal TEST's evaluations. Inputs include a public input and a repeated variable. */
static czk_status synth_mixed(czk_cs *cs, size_t n, const czk_fr *vals, czk_var *out) {
    czk_var in[CZK_POSEIDON_MAX_ARITY], pub, aux;
    czk_fr iv[CZK_POSEIDON_MAX_ARITY];
    const int hv = cs->has_values;
    CZK_TRY(czk_cs_alloc(cs, &aux, hv ? &vals[0] : NULL, "a", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc_input(cs, &pub, hv ? &vals[1] : NULL, "p", CZK_NOIDX));
    for (size_t i = 0; i < n; i++) {
        in[i] = i == 1 ? pub : i == n - 1 ? aux : czk_var_aux(0);
        iv[i] = i == 1 ? vals[1] : vals[0];
    }
    for (size_t i = 2; i + 1 < n; i++) {
        CZK_TRY(czk_cs_alloc(cs, &in[i], hv ? &vals[i] : NULL, "x", i));
        iv[i] = vals[i];
    }
    czk_var h1;
    CZK_TRY(czk_poseidon_circuit_any(cs, &h1, NULL, in, hv ? iv : NULL, n));
    in[0] = h1;
    if (hv) CZK_TRY(czk_cs_value(cs, &iv[0], h1));
    return czk_poseidon_circuit_any(cs, out, NULL, in, hv ? iv : NULL, n);
}

CZK_TEST(poseidon_circuit_replay_equals_direct) {
    czk_rng *rng = czk_test_rng();
    for (int a = 0; a < 4; a++) {
        size_t n = ARITIES[a];
        czk_fr vals[CZK_POSEIDON_MAX_ARITY];
        for (size_t i = 0; i < n; i++) czk_fr_random(&vals[i], rng);
        for (int k = 0; k < CZK_LC_KIND_COUNT; k++) {
            czk_cs *t, *p, *s;
            czk_var o1, o2, o3;
            REQUIRE_OK(czk_cs_create(&t, CZK_CS_TEST, (czk_lc_kind)k, NULL));
            REQUIRE_OK(czk_cs_create(&p, CZK_CS_PROVE, (czk_lc_kind)k, NULL));
            REQUIRE_OK(czk_cs_create(&s, CZK_CS_SHAPE, (czk_lc_kind)k, NULL));
            REQUIRE_OK(synth_mixed(t, n, vals, &o1));
            REQUIRE_OK(synth_mixed(p, n, vals, &o2));
            REQUIRE_OK(synth_mixed(s, n, vals, &o3));
            CHECK_OK(czk_cs_test_check(t));
            CHECK(o1 == o2 && o2 == o3);
            CHECK_EQ_U64(t->n_constraints, 2 * COUNTS[a]);
            CHECK(p->n_constraints == t->n_constraints && s->n_constraints == t->n_constraints);
            CHECK(p->n_aux == t->n_aux && s->n_aux == t->n_aux && s->n_inputs == t->n_inputs);
            czk_cs_assignment as;
            czk_csr m[3];
            memset(m, 0, sizeof m);
            REQUIRE_OK(czk_cs_prove_get(p, &as));
            REQUIRE_OK(czk_cs_shape_csr(s, &m[0], &m[1], &m[2]));
            REQUIRE(as.n_aux == t->n_aux && as.n_input == t->n_inputs);
            const czk_fr *tin = as.input, *taux = as.aux;
            size_t bad_vals = 0, bad_rows = 0;
            for (uint32_t v = 0; v < t->n_aux; v++) {
                czk_fr x;
                REQUIRE_OK(czk_cs_value(t, &x, czk_var_aux(v)));
                if (!czk_fr_eq(&x, &taux[v])) bad_vals++;
            }
            for (uint64_t r = 0; r < t->n_constraints; r++) {
                czk_lc_view vw[3];
                REQUIRE_OK(czk_cs_test_constraint(t, r, &vw[0], &vw[1], &vw[2]));
                const czk_fr *pe[3] = {as.a, as.b, as.c};
                int ok = 1;
                for (int q = 0; q < 3; q++) {
                    czk_fr e;
                    czk_lc_view_eval(&e, &vw[q], tin, taux);
                    if (!czk_fr_eq(&e, &pe[q][r])) ok = 0;
                    uint64_t b = m[q].row_ptr[r], end = m[q].row_ptr[r + 1];
                    if (end - b != (uint64_t)vw[q].n_in + vw[q].n_aux) {
                        ok = 0;
                        continue;
                    }
                    for (uint32_t i = 0; i < vw[q].n_in; i++, b++)
                        if (m[q].col[b] != vw[q].in[i].index || !czk_fr_eq(&m[q].val[b], &vw[q].in[i].coeff)) ok = 0;
                    for (uint32_t i = 0; i < vw[q].n_aux; i++, b++)
                        if (m[q].col[b] != t->n_inputs + vw[q].aux[i].index ||
                            !czk_fr_eq(&m[q].val[b], &vw[q].aux[i].coeff))
                            ok = 0;
                }
                if (!ok && bad_rows++ == 0)
                    CHECK_MSG(0, "arity %zu LC %s: row %llu (%s) differs between replay and direct", n,
                              czk_lc_kind_name((czk_lc_kind)k), (unsigned long long)r,
                              czk_cs_test_constraint_name(t, r));
            }
            CHECK_MSG(bad_vals == 0 && bad_rows == 0, "arity %zu: %zu values, %zu rows differ", n, bad_vals, bad_rows);
            for (int q = 0; q < 3; q++) czk_csr_clear(&m[q]);
            czk_cs_destroy(t);
            czk_cs_destroy(p);
            czk_cs_destroy(s);
        }
    }
}
