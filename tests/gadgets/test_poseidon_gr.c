/* PoseidonGR (SnapDeals' "gen randomness" Poseidon: arity 2, domain tag
 * 2^40): native against the plain permutation and the reference's known
 * answers, the circuit's count (311), values, tampering, and its replayed
 * R1CS (PROVE / SHAPE) against the direct one (TEST). */
#include <stdlib.h>

#include "cs/cs_internal.h"
#include "czk/poseidon.h"
#include "gadgets/poseidon_params.h"
#include "runner.h"

static czk_status synth_gr(czk_cs *cs, const czk_fr vals[2], czk_var *out, czk_fr *out_val)
{
    czk_var in[2];
    for (size_t i = 0; i < 2; i++) CZK_TRY(czk_cs_alloc(cs, &in[i], cs->has_values ? &vals[i] : NULL, "x", i));
    czk_cs_ns_push(cs, "gr", CZK_NOIDX);
    czk_status st = czk_poseidon_gr_circuit_any(cs, out, out_val, in, cs->has_values ? vals : NULL);
    czk_cs_ns_pop(cs);
    return st;
}

CZK_TEST(poseidon_gr_native)
{
    czk_rng *rng = czk_test_rng();
    czk_fr tag, two40;
    czk_poseidon_gr_tag(&tag);
    czk_fr_from_u64(&two40, 1);
    for (int i = 0; i < 40; i++) czk_fr_dbl(&two40, &two40);
    CHECK(czk_fr_eq(&tag, &two40));
    for (size_t it = 0; it < czk_test_iters(8); it++) {
        czk_fr in[2], a, b, c, m;
        czk_fr_random(&in[0], rng);
        czk_fr_random(&in[1], rng);
        if (it == 0) in[0] = in[1] = CZK_FR_ZERO;
        if (it == 1) czk_fr_neg(&in[1], &CZK_FR_ONE);
        czk_poseidon_hash2_gr(&a, &in[0], &in[1]);
        REQUIRE_OK(czk_poseidon_hash_tag_ref(&b, &tag, in, 2));
        REQUIRE_OK(czk_poseidon_hash_tag(&c, &tag, in, 2));
        czk_poseidon_hash2(&m, &in[0], &in[1]);
        CHECK_MSG(czk_fr_eq(&a, &b), "PoseidonGR: optimized != plain permutation (iteration %zu)", it);
        CHECK(czk_fr_eq(&a, &c));
        CHECK_MSG(!czk_fr_eq(&a, &m), "PoseidonGR equals the Merkle-tag hash");
    }
}

CZK_TEST(poseidon_gr_circuit)
{
    czk_rng *rng = czk_test_rng();
    size_t iters = czk_test_iters(getenv("CZK_TEST_ASAN") ? 1 : 3);
    for (size_t it = 0; it < iters; it++) {
        czk_fr vals[2], want, got, got2;
        czk_fr_random(&vals[0], rng);
        czk_fr_random(&vals[1], rng);
        czk_poseidon_hash2_gr(&want, &vals[0], &vals[1]);
        czk_cs *cs;
        czk_var out;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        REQUIRE_OK(synth_gr(cs, vals, &out, &got));
        CHECK_EQ_U64(cs->n_constraints, 311);
        CHECK_EQ_U64(cs->n_aux, 2 + 311);
        CHECK_OK(czk_cs_test_check(cs));
        CHECK_MSG(czk_fr_eq(&got, &want), "PoseidonGR circuit output != native");
        REQUIRE_OK(czk_cs_value(cs, &got2, out));
        CHECK(czk_fr_eq(&got2, &want));
        /* one value changed: a constraint of the hash, named, fails */
        for (uint32_t v = 0; v < cs->n_aux; v += (v < 2 ? 1 : 13)) {
            czk_fr old, bad;
            czk_var var = czk_var_aux(v);
            REQUIRE_OK(czk_cs_value(cs, &old, var));
            czk_fr_add(&bad, &old, &CZK_FR_ONE);
            REQUIRE_OK(czk_cs_test_set(cs, var, &bad));
            CHECK_MSG(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED, "aux %u altered, still satisfied", v);
            int64_t w = czk_cs_test_which_unsatisfied(cs);
            const char *name = w >= 0 ? czk_cs_test_constraint_name(cs, (uint64_t)w) : NULL;
            CHECK_MSG(name && strncmp(name, "gr/", 3) == 0, "aux %u: failing constraint '%s'", v,
                      name ? name : "(null)");
            REQUIRE_OK(czk_cs_test_set(cs, var, &old));
        }
        CHECK_OK(czk_cs_test_check(cs));
        czk_cs_destroy(cs);
    }
}

/* The GR circuit is the Merkle-tag circuit with other constants: same
 * counts, another R1CS; PROVE and SHAPE (replayed template) build the TEST
 * backend's constraints term for term, and every LC variant the same. */
CZK_TEST(poseidon_gr_circuit_replay)
{
    czk_rng *rng = czk_test_rng();
    czk_fr vals[2];
    czk_fr_random(&vals[0], rng);
    czk_fr_random(&vals[1], rng);
    char h_gr[65], h_m[65];
    {
        czk_cs *cs;
        czk_var in[2], out;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_DEFAULT, NULL));
        for (size_t i = 0; i < 2; i++) REQUIRE_OK(czk_cs_alloc(cs, &in[i], &vals[i], "x", i));
        REQUIRE_OK(czk_poseidon_circuit_any(cs, &out, NULL, in, vals, 2));
        czk_cs_test_hash(cs, h_m);
        czk_cs_destroy(cs);
    }
    for (int k = 0; k < CZK_LC_KIND_COUNT; k++) {
        czk_cs *t, *p, *s;
        czk_var o1, o2, o3;
        REQUIRE_OK(czk_cs_create(&t, CZK_CS_TEST, (czk_lc_kind)k, NULL));
        REQUIRE_OK(czk_cs_create(&p, CZK_CS_PROVE, (czk_lc_kind)k, NULL));
        REQUIRE_OK(czk_cs_create(&s, CZK_CS_SHAPE, (czk_lc_kind)k, NULL));
        REQUIRE_OK(synth_gr(t, vals, &o1, NULL));
        REQUIRE_OK(synth_gr(p, vals, &o2, NULL));
        REQUIRE_OK(synth_gr(s, NULL, &o3, NULL));
        CHECK(o1 == o2 && o2 == o3);
        czk_cs_test_hash(t, h_gr);
        CHECK_MSG(strcmp(h_gr, h_m) != 0, "LC %s: the GR circuit's R1CS equals the Merkle-tag circuit's",
                  czk_lc_kind_name((czk_lc_kind)k));
        CHECK(p->n_constraints == 311 && s->n_constraints == 311 && s->n_aux == t->n_aux && p->n_aux == t->n_aux);
        CHECK_OK(czk_cs_prove_check(p));
        czk_cs_assignment as;
        czk_csr m[3];
        memset(m, 0, sizeof m);
        REQUIRE_OK(czk_cs_prove_get(p, &as));
        REQUIRE_OK(czk_cs_shape_csr(s, &m[0], &m[1], &m[2]));
        size_t bad = 0;
        for (uint64_t r = 0; r < t->n_constraints; r++) {
            czk_lc_view vw[3];
            REQUIRE_OK(czk_cs_test_constraint(t, r, &vw[0], &vw[1], &vw[2]));
            const czk_fr *pe[3] = {as.a, as.b, as.c};
            for (int q = 0; q < 3; q++) {
                czk_fr e;
                czk_lc_view_eval(&e, &vw[q], as.input, as.aux);
                int ok = czk_fr_eq(&e, &pe[q][r]);
                uint64_t b = m[q].row_ptr[r], end = m[q].row_ptr[r + 1];
                if (end - b != (uint64_t)vw[q].n_in + vw[q].n_aux) ok = 0;
                else {
                    for (uint32_t i = 0; i < vw[q].n_in; i++, b++)
                        if (m[q].col[b] != vw[q].in[i].index || !czk_fr_eq(&m[q].val[b], &vw[q].in[i].coeff)) ok = 0;
                    for (uint32_t i = 0; i < vw[q].n_aux; i++, b++)
                        if (m[q].col[b] != t->n_inputs + vw[q].aux[i].index ||
                            !czk_fr_eq(&m[q].val[b], &vw[q].aux[i].coeff))
                            ok = 0;
                }
                if (!ok && bad++ == 0)
                    CHECK_MSG(0, "LC %s: row %llu side %d differs between replay and direct",
                              czk_lc_kind_name((czk_lc_kind)k), (unsigned long long)r, q);
            }
        }
        for (int q = 0; q < 3; q++) czk_csr_clear(&m[q]);
        czk_cs_destroy(t);
        czk_cs_destroy(p);
        czk_cs_destroy(s);
    }
}
