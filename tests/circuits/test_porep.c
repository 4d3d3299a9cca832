/* StackedDRG PoRep partition circuit: exact counts (docs/filecoin.md#porep-counts for 32GiB is
 * checked by `czk bench synth-only --count`; here 2KiB and custom shapes),
 * satisfiability on generated sectors, named failures when the witness is
 * altered, and agreement of every backend and LC variant. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "czk/porep.h"

static int asan(void)
{
    return getenv("CZK_TEST_ASAN") != NULL;
}

static void shape_2kib(czk_fc_shape *s)
{
    REQUIRE_OK(czk_fc_shape_of_size(s, 2048));
}

/* The smallest shape with a real label cost: 8 nodes (tree C/R_last one
 * 8-ary level, tree D three binary levels), 2 layers, one challenge. */
static void shape_tiny(czk_fc_shape *s)
{
    REQUIRE_OK(czk_fc_shape_custom(s, 8, 2, 1, 1, 8, 0, 0));
}

/* 2KiB, derived in src/circuits/README.md ("Counts") from the gadget counts. */
CZK_TEST(porep_2kib_counts_exact)
{
    czk_fc_shape s;
    shape_2kib(&s);
    czk_porep_counts n;
    REQUIRE_OK(czk_porep_count(&n, &s, CZK_LC_VEC));
    CHECK_EQ_U64(n.n_inputs, 40);
    CHECK_EQ_U64(n.n_aux, 2685673);
    CHECK_EQ_U64(n.n_circuit_constraints, 2687921);
    CHECK_EQ_U64(n.n_constraints, 2687961);
    CHECK_EQ_U64(n.terms[0], 6421005);
    CHECK_EQ_U64(n.terms[1], 2689006);
    CHECK_EQ_U64(n.terms[2], 5824682);
    /* no coefficient sums to zero in this circuit: every term is a non-zero */
    CHECK_EQ_U64(n.nnz[0], 6421005);
    CHECK_EQ_U64(n.nnz[1], 2689006);
    CHECK_EQ_U64(n.nnz[2], 5824682);
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    CHECK_EQ_U64(z.n_inputs, n.n_inputs);
    CHECK_EQ_U64(z.n_aux, n.n_aux);
    CHECK_EQ_U64(z.n_constraints, n.n_constraints);
    CHECK_EQ_U64(czk_porep_num_inputs(&s), 40);
}

/* czk_porep_sizes (a formula) against a counting synthesis for several
 * shapes: tree D heights, Poseidon arities 2/4/8, sub and top trees, 2/4/11
 * layers, several challenges. */
CZK_TEST(porep_sizes_formula_matches_count)
{
    static const uint32_t cfg[][6] = {
        /* nodes, layers, challenges, base, sub, top */
        {8, 2, 1, 8, 0, 0},   {16, 2, 2, 2, 0, 0}, {64, 4, 1, 4, 0, 0},
        {128, 2, 1, 8, 8, 2}, {64, 11, 1, 8, 8, 0}, {128, 2, 3, 4, 4, 2},
    };
    size_t n = asan() ? 2 : sizeof cfg / sizeof cfg[0];
    for (size_t i = 0; i < n; i++) {
        czk_fc_shape s;
        REQUIRE_OK(czk_fc_shape_custom(&s, cfg[i][0], cfg[i][1], 1, cfg[i][2], cfg[i][3], cfg[i][4], cfg[i][5]));
        czk_porep_counts c;
        czk_cs_sizes z;
        REQUIRE_OK(czk_porep_count(&c, &s, (czk_lc_kind)(i % CZK_LC_KIND_COUNT)));
        REQUIRE_OK(czk_porep_sizes(&z, &s));
        CHECK_MSG(z.n_inputs == c.n_inputs && z.n_aux == c.n_aux && z.n_constraints == c.n_constraints,
                  "shape %zu: formula %llu/%llu/%llu, counted %llu/%llu/%llu", i, (unsigned long long)z.n_inputs,
                  (unsigned long long)z.n_aux, (unsigned long long)z.n_constraints, (unsigned long long)c.n_inputs,
                  (unsigned long long)c.n_aux, (unsigned long long)c.n_constraints);
        CHECK_EQ_U64(c.n_inputs, czk_porep_num_inputs(&s));
    }
}

/* A 2KiB generated sector satisfies the TEST backend; altering a label, a
 * tree-D sibling, comm_r or a public input makes a named constraint fail. */
CZK_TEST(porep_2kib_test_satisfied_and_tamper)
{
    czk_fc_shape s;
    if (asan()) shape_tiny(&s); /* ASan: the smaller shape, fewer cases */
    else shape_2kib(&s);
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, czk_rng_u64(czk_test_rng()), NULL, NULL));
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, &z));
    REQUIRE_OK(czk_porep_synthesize(cs, &s, &c1, 0));
    CHECK_EQ_U64(cs->n_inputs, z.n_inputs);
    CHECK_EQ_U64(cs->n_aux, z.n_aux);
    CHECK_EQ_U64(cs->n_constraints + cs->n_inputs, z.n_constraints);
    CHECK_OK(czk_cs_test_check(cs));

    static const struct {
        const char *var;  /* variable to alter */
        const char *fail; /* the first failing constraint's name contains */
    } cases[] = {
        {"comm_r/num", "comm_r_input/enforce input is correct"},
        {"challenge_1/labeling_2/create_label/result_num/input/num", "challenge_1/labeling_2/create_label/result_num/packing constraint"},
        {"challenge_0/comm_d_inclusion/base/merkle tree hash 3/path element 0/num",
         "challenge_0/comm_d_inclusion/base/merkle tree hash 3/"},
        {"challenge_1/exp_parent_5_num/column/column_num_row_1/num", "challenge_1/exp_parent_5_constraint/"},
    };
    size_t ncases = asan() ? 1 : sizeof cases / sizeof cases[0];
    for (size_t i = 0; i < ncases; i++) {
        czk_var v;
        czk_fr old, bad;
        REQUIRE_OK(czk_cs_test_find_var(cs, &v, cases[i].var));
        REQUIRE_OK(czk_cs_value(cs, &old, v));
        czk_fr_add(&bad, &old, &CZK_FR_ONE);
        REQUIRE_OK(czk_cs_test_set(cs, v, &bad));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        CHECK_MSG(strstr(czk_last_error(), cases[i].fail) != NULL, "altered %s: %s", cases[i].var,
                  czk_last_error());
        REQUIRE_OK(czk_cs_test_set(cs, v, &old));
    }
    /* a public input: the packed tree-C index of challenge 0's first DRG parent */
    {
        czk_var v = czk_var_input(4 + 1);
        czk_fr old, bad;
        REQUIRE_OK(czk_cs_value(cs, &old, v));
        czk_fr_add(&bad, &old, &CZK_FR_ONE);
        REQUIRE_OK(czk_cs_test_set(cs, v, &bad));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        CHECK_MSG(strstr(czk_last_error(), "challenge_0/drg_parent_0_inclusion/path/packing constraint 0") != NULL,
                  "%s", czk_last_error());
        REQUIRE_OK(czk_cs_test_set(cs, v, &old));
        CHECK_OK(czk_cs_test_check(cs));
    }
    czk_cs_destroy(cs);
    czk_fc_c1_free(&c1);
}

/* Alter the C1 data itself (the circuit then gets a consistent but wrong
 * witness): comm_r, a parent's label in its column, a tree-D sibling. */
CZK_TEST(porep_tampered_c1_unsatisfied)
{
    czk_fc_shape s;
    shape_tiny(&s);
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, czk_rng_u64(czk_test_rng()), NULL, NULL));
    for (int what = 0; what < (asan() ? 1 : 3); what++) {
        czk_fc_challenge_proof *p = czk_fc_c1_proof(&c1, 0, 0);
        czk_fr *f = what == 0 ? &c1.comm_r : what == 1 ? &p->drg[2].rows[1] : &p->comm_d.siblings[1];
        const char *want = what == 0   ? "enforce comm_r = H(comm_c || comm_r_last)"
                           : what == 1 ? "challenge_0/drg_parent_2_inclusion/enforce root is correct"
                                       : "challenge_0/comm_d_inclusion/enforce root is correct";
        czk_fr old = *f;
        czk_fr_add(f, f, &CZK_FR_ONE);
        czk_cs *cs;
        REQUIRE_OK(czk_cs_create(&cs, CZK_CS_TEST, CZK_LC_VEC, NULL));
        REQUIRE_OK(czk_porep_synthesize(cs, &s, &c1, 0));
        CHECK(czk_cs_test_check(cs) == CZK_ERR_UNSATISFIED);
        CHECK_MSG(strstr(czk_last_error(), want) != NULL, "case %d: %s", what, czk_last_error());
        czk_cs_destroy(cs);
        *f = old;
    }
    czk_fc_c1_free(&c1);
}

/* PROVE, SHAPE, TEST, WITNESS x vec, inline1, inline2, inline4 agree: the
 * same counts; TEST hashes equal; PROVE satisfied with the input vector
 * [ONE, czk_porep_public_inputs] and the aux vector of WITNESS; SHAPE's
 * matrices have the counted terms. */
CZK_TEST(porep_backends_and_lc_variants_agree)
{
    czk_fc_shape s;
    shape_tiny(&s);
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, czk_rng_u64(czk_test_rng()), NULL, NULL));
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    czk_porep_counts cnt;
    REQUIRE_OK(czk_porep_count(&cnt, &s, CZK_LC_VEC));
    size_t nin = czk_porep_num_inputs(&s);
    czk_fr *pub = calloc(nin, sizeof *pub);
    REQUIRE(pub);
    pub[0] = CZK_FR_ONE;
    REQUIRE_OK(czk_porep_public_inputs(pub + 1, &c1, 0));
    char hash0[65] = "";
    czk_fr *aux0 = NULL;
    size_t naux0 = 0;
    for (int lc = 0; lc < (asan() ? 1 : CZK_LC_KIND_COUNT); lc++) {
        for (int b = 0; b < CZK_CS_BACKEND_COUNT; b++) {
            czk_cs *cs;
            REQUIRE_OK(czk_cs_create(&cs, (czk_cs_backend)b, (czk_lc_kind)lc, &z));
            REQUIRE_OK(czk_porep_synthesize(cs, &s, b == CZK_CS_SHAPE ? NULL : &c1, 0));
            CHECK_EQ_U64(cs->n_inputs, z.n_inputs);
            CHECK_EQ_U64(cs->n_aux, z.n_aux);
            if (b != CZK_CS_WITNESS) CHECK_EQ_U64(cs->n_constraints + cs->n_inputs, z.n_constraints);
            REQUIRE_OK(czk_cs_finalize(cs));
            if (b == CZK_CS_TEST) {
                char h[65];
                CHECK_OK(czk_cs_test_check(cs));
                czk_cs_test_hash(cs, h);
                if (!hash0[0]) memcpy(hash0, h, sizeof h);
                CHECK_MSG(strcmp(h, hash0) == 0, "lc %s: TEST hash %s != %s", czk_lc_kind_name((czk_lc_kind)lc), h,
                          hash0);
            } else if (b == CZK_CS_PROVE) {
                czk_cs_assignment a;
                REQUIRE_OK(czk_cs_prove_get(cs, &a));
                CHECK_OK(czk_cs_prove_check(cs));
                CHECK_EQ_U64(a.n_input, nin);
                CHECK_EQ_U64(a.n_constraints, z.n_constraints);
                CHECK(a.n_input == nin && memcmp(a.input, pub, nin * sizeof *pub) == 0);
                if (!aux0) {
                    aux0 = malloc(a.n_aux * sizeof *aux0);
                    REQUIRE(aux0);
                    memcpy(aux0, a.aux, a.n_aux * sizeof *aux0);
                    naux0 = a.n_aux;
                } else {
                    CHECK(a.n_aux == naux0 && memcmp(a.aux, aux0, naux0 * sizeof *aux0) == 0);
                }
            } else if (b == CZK_CS_WITNESS) {
                const czk_fr *in, *aux;
                size_t ni, na;
                REQUIRE_OK(czk_cs_witness_get(cs, &in, &ni, &aux, &na));
                CHECK(ni == nin && memcmp(in, pub, nin * sizeof *pub) == 0);
                CHECK(aux0 && na == naux0 && memcmp(aux, aux0, na * sizeof *aux) == 0);
            } else {
                czk_csr m[3];
                REQUIRE_OK(czk_cs_shape_csr(cs, &m[0], &m[1], &m[2]));
                for (int k = 0; k < 3; k++) {
                    CHECK_EQ_U64(m[k].n_rows, z.n_constraints);
                    CHECK_EQ_U64(m[k].nnz, cnt.terms[k]);
                    czk_csr_clear(&m[k]);
                }
            }
            czk_cs_destroy(cs);
        }
    }
    free(aux0);
    free(pub);
    czk_fc_c1_free(&c1);
}

/* Compound trees (sub and top levels) and several challenges and
 * partitions are satisfied too; the partition's inputs are its own. */
CZK_TEST(porep_compound_tree_partitions_satisfied)
{
    if (asan()) return;
    czk_fc_shape s;
    REQUIRE_OK(czk_fc_shape_custom(&s, 128, 2, 2, 1, 8, 8, 2));
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, czk_rng_u64(czk_test_rng()), NULL, NULL));
    size_t nin = czk_porep_num_inputs(&s);
    czk_fr *pub = calloc(nin, sizeof *pub);
    REQUIRE(pub);
    pub[0] = CZK_FR_ONE;
    REQUIRE_OK(czk_porep_public_inputs(pub + 1, &c1, 1));
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_INLINE2, NULL));
    REQUIRE_OK(czk_porep_synthesize(cs, &s, &c1, 1));
    REQUIRE_OK(czk_cs_finalize(cs));
    CHECK_OK(czk_cs_prove_check(cs));
    czk_cs_assignment a;
    REQUIRE_OK(czk_cs_prove_get(cs, &a));
    CHECK(a.n_input == nin && memcmp(a.input, pub, nin * sizeof *pub) == 0);
    czk_cs_destroy(cs);
    free(pub);
    czk_fc_c1_free(&c1);
}

CZK_TEST(porep_bad_arguments)
{
    czk_fc_shape s, t;
    shape_tiny(&s);
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, 7, NULL, NULL));
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    CHECK(czk_porep_synthesize(cs, &s, NULL, 0) == CZK_ERR_MISSING_ASSIGNMENT);
    CHECK(czk_porep_synthesize(cs, &s, &c1, 1) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "partition 1") != NULL);
    shape_2kib(&t);
    CHECK(czk_porep_synthesize(cs, &t, &c1, 0) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "shape") != NULL);
    czk_fr out[64];
    CHECK(czk_porep_public_inputs(out, &c1, 3) == CZK_ERR_INVALID_ARG);
    czk_cs_destroy(cs);
    czk_fc_c1_free(&c1);
}

static int bits_equal(const uint64_t *a, const uint64_t *b, size_t nbits)
{
    for (size_t i = 0; i < nbits; i++)
        if (((a[i / 64] >> (i % 64)) & 1) != ((b[i / 64] >> (i % 64)) & 1)) return 0;
    return 1;
}

/* The parallel prover (challenges on several threads, written in place)
 * gives exactly the sequential PROVE backend's assignment and densities. */
CZK_TEST(porep_parallel_prover_equals_sequential)
{
    czk_fc_shape s;
    if (asan()) shape_tiny(&s);
    else REQUIRE_OK(czk_fc_shape_custom(&s, 16, 2, 2, 3, 2, 0, 0));
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &s, czk_rng_u64(czk_test_rng()), NULL, NULL));
    const uint32_t k = s.partitions - 1;
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    czk_cs *cs;
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_PROVE, CZK_LC_VEC, &z));
    REQUIRE_OK(czk_porep_synthesize(cs, &s, &c1, k));
    REQUIRE_OK(czk_cs_finalize(cs));
    czk_cs_assignment want;
    REQUIRE_OK(czk_cs_prove_get(cs, &want));
    for (int run = 0; run < (asan() ? 1 : 2); run++) {
        czk_porep_prover *p;
        REQUIRE_OK(czk_porep_prover_create(&p, &s, run ? CZK_LC_INLINE2 : CZK_LC_VEC));
        REQUIRE_OK(czk_porep_prover_synthesize(p, &c1, k, run ? 3 : 2));
        if (run) REQUIRE_OK(czk_porep_prover_synthesize(p, &c1, k, 2)); /* reuse */
        czk_cs_assignment got;
        REQUIRE_OK(czk_porep_prover_get(p, &got));
        CHECK_OK(czk_porep_prover_check(p, 2));
        CHECK_EQ_U64(got.n_input, want.n_input);
        CHECK_EQ_U64(got.n_aux, want.n_aux);
        CHECK_EQ_U64(got.n_constraints, want.n_constraints);
        REQUIRE(got.n_input == want.n_input && got.n_aux == want.n_aux && got.n_constraints == want.n_constraints);
        CHECK(memcmp(got.input, want.input, want.n_input * sizeof(czk_fr)) == 0);
        CHECK(memcmp(got.aux, want.aux, want.n_aux * sizeof(czk_fr)) == 0);
        CHECK(memcmp(got.a, want.a, want.n_constraints * sizeof(czk_fr)) == 0);
        CHECK(memcmp(got.b, want.b, want.n_constraints * sizeof(czk_fr)) == 0);
        CHECK(memcmp(got.c, want.c, want.n_constraints * sizeof(czk_fr)) == 0);
        CHECK_EQ_U64(got.a_aux_popcount, want.a_aux_popcount);
        CHECK_EQ_U64(got.b_aux_popcount, want.b_aux_popcount);
        CHECK_EQ_U64(got.b_input_popcount, want.b_input_popcount);
        CHECK(bits_equal(got.a_aux_density, want.a_aux_density, want.n_aux));
        CHECK(bits_equal(got.b_aux_density, want.b_aux_density, want.n_aux));
        CHECK(bits_equal(got.b_input_density, want.b_input_density, want.n_input));
        czk_porep_prover_destroy(p);
    }
    /* a bad witness is caught by the row check */
    {
        czk_fc_challenge_proof *pr = czk_fc_c1_proof(&c1, k, 0);
        czk_fr_add(&pr->comm_d.siblings[0], &pr->comm_d.siblings[0], &CZK_FR_ONE);
        czk_porep_prover *p;
        REQUIRE_OK(czk_porep_prover_create(&p, &s, CZK_LC_VEC));
        REQUIRE_OK(czk_porep_prover_synthesize(p, &c1, k, 2));
        CHECK(czk_porep_prover_check(p, 2) == CZK_ERR_UNSATISFIED);
        czk_porep_prover_destroy(p);
    }
    czk_cs_destroy(cs);
    czk_fc_c1_free(&c1);
}

/* `czk bench synth-only`: a custom shape, parallel and sequential, JSON with
 * the exact counts; --c1 and a shape together are a usage error. */
CZK_TEST(cli_bench_synth_only)
{
    const char *cli = czk_test_cli();
    if (!strchr(cli, '/') || asan()) {
        printf("  note: CZK_CLI not set (run through ctest) or ASan; skipped\n");
        return;
    }
    czk_fc_shape s;
    shape_tiny(&s);
    czk_cs_sizes z;
    REQUIRE_OK(czk_porep_sizes(&z, &s));
    char out[8192], want[128];
    snprintf(want, sizeof want, "\"aux\":%llu,\"constraints\":%llu", (unsigned long long)z.n_aux,
             (unsigned long long)z.n_constraints);
    const char *modes[] = {"--threads 2", "--seq --lc inline4", "--backend witness --lc inline1", "--backend shape"};
    for (int m = 0; m < 4; m++) {
        CHECK_EQ_U64(czk_test_run(out, sizeof out,
                             "'%s' bench synth-only --nodes 8 --layers 2 --challenges 1 --tree 8 -i 1 %s --json", cli,
                             modes[m]),
                     0);
        CHECK_MSG(strstr(out, want) && strstr(out, "\"ok\":true"), "%s: %s", modes[m], out);
    }
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' bench synth-only --c1 x.json --sector-size 2KiB 2>&1", cli), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' bench synth-only --sector-size 2KiB --partition 3 2>&1", cli), 2);
    CHECK_EQ_U64(czk_test_run(out, sizeof out, "'%s' bench synth-only --c1 /nonexistent/c1.json 2>&1", cli), 1);
}
