/* The batched prover (czk_groth16_prove_batch) on a small random circuit
 * (tests/common/random_circuit.h): every proof verifies with its own inputs;
 * a batch of n with an rng equals n single proofs on the same stream bit for
 * bit, through the multi-scalar-set MSMs and through the per-witness
 * fallback; bad arguments are rejected; timings and memory sizing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs_internal.h"
#include "runner.h"

#include "common/random_circuit.h"
#include "czk/czk.h"
#include "czk/groth16.h"
#include "groth16/groth16_internal.h"

#define N_IN 3
#define N_FREE 6
#define SHAPE_SEED 77
#define NB 4

static size_t n_mul(void) { return getenv("CZK_TEST_ASAN") ? 60 : 300; }

typedef struct fixture {
    czk_groth16_params p;
    czk_groth16_pvk pvk;
    czk_cs *cs[NB];
    czk_cs_assignment w[NB];
    const czk_cs_assignment *wp[NB];
    czk_fr pub[NB][N_IN];
} fixture;

static czk_status fixture_init(fixture *f, uint64_t value_seed)
{
    memset(f, 0, sizeof *f);
    czk_cs *cs = NULL;
    czk_fr pub[N_IN];
    czk_csr A = {0}, B = {0}, C = {0};
    CZK_TRY(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    czk_status s = czk_test_random_circuit(cs, SHAPE_SEED, 1, N_IN, N_FREE, n_mul(), pub);
    if (s == CZK_OK) s = czk_cs_finalize(cs);
    if (s == CZK_OK) s = czk_cs_shape_csr(cs, &A, &B, &C);
    if (s == CZK_OK) {
        czk_groth16_setup_opts o = {0};
        o.use_seed = 1;
        o.seed = 1234;
        s = czk_groth16_setup(&f->p, &A, &B, &C, cs->n_inputs, &o);
    }
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    czk_cs_destroy(cs);
    CZK_TRY(s);
    CZK_TRY(czk_groth16_pvk_prepare(&f->pvk, &f->p.vk));
    for (int i = 0; i < NB; i++) {
        CZK_TRY(czk_cs_create(&f->cs[i], CZK_CS_PROVE, CZK_LC_VEC, NULL));
        CZK_TRY(czk_test_random_circuit(f->cs[i], SHAPE_SEED, value_seed + (uint64_t)i, N_IN, N_FREE, n_mul(),
                                        f->pub[i]));
        CZK_TRY(czk_cs_finalize(f->cs[i]));
        CZK_TRY(czk_cs_prove_get(f->cs[i], &f->w[i]));
        f->wp[i] = &f->w[i];
    }
    return CZK_OK;
}

static void fixture_clear(fixture *f)
{
    for (int i = 0; i < NB; i++) czk_cs_destroy(f->cs[i]);
    czk_groth16_params_clear(&f->p);
}

static czk_status prove_batch(czk_groth16_proof *out, const fixture *f, const czk_cs_assignment *const *w, size_t n,
                              int threads, czk_rng *rng)
{
    czk_groth16_prove_opts o = {0};
    o.threads = threads;
    o.rng = rng;
    return czk_groth16_prove_batch(out, &f->p, w, n, &o);
}

static int same_proof(const czk_groth16_proof *x, const czk_groth16_proof *y)
{
    uint8_t ex[CZK_GROTH16_PROOF_BYTES], ey[CZK_GROTH16_PROOF_BYTES];
    czk_groth16_proof_encode(ex, x);
    czk_groth16_proof_encode(ey, y);
    return memcmp(ex, ey, sizeof ex) == 0;
}

CZK_TEST(batch_prover_matches_verifier)
{
    fixture f;
    REQUIRE_OK(fixture_init(&f, 500));
    czk_groth16_proof pr[NB];
    for (int threads = 1; threads <= 2; threads++) {
        REQUIRE_OK(prove_batch(pr, &f, f.wp, NB, threads, czk_test_rng()));
        for (int i = 0; i < NB; i++) {
            CHECK_OK(czk_groth16_verify(&f.pvk, &pr[i], f.pub[i], N_IN));
            CHECK(czk_groth16_verify(&f.pvk, &pr[i], f.pub[(i + 1) % NB], N_IN) == CZK_ERR_VERIFY);
        }
    }
    /* opts NULL: r, s from getrandom, all threads */
    REQUIRE_OK(czk_groth16_prove_batch(pr, &f.p, f.wp, 2, NULL));
    CHECK_OK(czk_groth16_verify(&f.pvk, &pr[0], f.pub[0], N_IN));
    CHECK_OK(czk_groth16_verify(&f.pvk, &pr[1], f.pub[1], N_IN));

    /* n = 0 writes nothing */
    czk_groth16_proof keep = pr[0], none[1] = {pr[0]};
    CHECK_OK(prove_batch(none, &f, f.wp, 0, 1, czk_test_rng()));
    CHECK(same_proof(&none[0], &keep));
    /* more witnesses than CZK_GROTH16_MAX_BATCH: an error */
    const czk_cs_assignment *many[CZK_GROTH16_MAX_BATCH + 1];
    for (int i = 0; i <= CZK_GROTH16_MAX_BATCH; i++) many[i] = &f.w[0];
    CHECK(prove_batch(pr, &f, many, CZK_GROTH16_MAX_BATCH + 1, 1, czk_test_rng()) == CZK_ERR_INVALID_ARG);
    /* NULL arguments */
    CHECK(czk_groth16_prove_batch(NULL, &f.p, f.wp, 1, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_groth16_prove_batch(pr, NULL, f.wp, 1, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_groth16_prove_batch(pr, &f.p, NULL, 1, NULL) == CZK_ERR_INVALID_ARG);
    const czk_cs_assignment *with_null[2] = {&f.w[0], NULL};
    CHECK(prove_batch(pr, &f, with_null, 2, 1, czk_test_rng()) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(czk_last_error(), "witness 1") != NULL, "%s", czk_last_error());

    /* a witness of another circuit is rejected, naming it */
    czk_cs *other;
    czk_cs_assignment wo;
    czk_fr po[N_IN];
    REQUIRE_OK(czk_cs_create(&other, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    REQUIRE_OK(czk_test_random_circuit(other, SHAPE_SEED, 9, N_IN, N_FREE, n_mul() + 5, po));
    REQUIRE_OK(czk_cs_finalize(other));
    REQUIRE_OK(czk_cs_prove_get(other, &wo));
    const czk_cs_assignment *mixed[3] = {&f.w[0], &wo, &f.w[2]};
    CHECK(prove_batch(pr, &f, mixed, 3, 1, czk_test_rng()) != CZK_OK);
    CHECK_MSG(strstr(czk_last_error(), "witness 1") != NULL, "%s", czk_last_error());
    /* alone, through the single-proof entry point */
    czk_groth16_prove_opts o = {0};
    o.rng = czk_test_rng();
    CHECK(czk_groth16_prove(&pr[0], &f.p, &wo, &o) != CZK_OK);
    czk_cs_destroy(other);
    fixture_clear(&f);
}

/* A batch of n proofs is n czk_groth16_prove calls: with r, s from the same
 * stream (the batch draws r, s per witness in order, as n calls would) the
 * proofs are equal bit for bit, through the multi-scalar-set MSMs (equal
 * densities) and through the per-witness fallback (densities differ). */
CZK_TEST(batch_equals_single_proofs)
{
    fixture f;
    REQUIRE_OK(fixture_init(&f, 600));
    CHECK(czk__groth16_batch_is_multi(f.wp, NB));
    CHECK(!czk__groth16_batch_is_multi(f.wp, 1));
    uint64_t seed = czk_rng_u64(czk_test_rng());
    czk_groth16_proof pb[CZK_GROTH16_MAX_BATCH], ps[CZK_GROTH16_MAX_BATCH];
    /* batch sizes 1 and 3 on one thread, 2 and 4 on two */
    for (int threads = 1; threads <= 2; threads++) {
        for (size_t n = (size_t)threads; n <= NB; n += 2) {
            czk_rng r1, r2;
            czk_rng_seed(&r1, seed + n);
            czk_rng_seed(&r2, seed + n);
            REQUIRE_OK(prove_batch(pb, &f, f.wp, n, threads, &r1));
            czk_groth16_prove_opts po = {0};
            po.threads = threads;
            po.rng = &r2;
            for (size_t i = 0; i < n; i++) REQUIRE_OK(czk_groth16_prove(&ps[i], &f.p, f.wp[i], &po));
            for (size_t i = 0; i < n; i++) {
                CHECK_MSG(same_proof(&pb[i], &ps[i]), "batch of %zu, %d threads: proof %zu differs", n, threads, i);
                CHECK_OK(czk_groth16_verify(&f.pvk, &pb[i], f.pub[i], N_IN));
            }
            /* the streams were consumed alike: the next draws agree */
            CHECK(czk_rng_u64(&r1) == czk_rng_u64(&r2));
        }
    }
    /* the largest batch: every witness several times, each proof its own r, s */
    const czk_cs_assignment *many[CZK_GROTH16_MAX_BATCH];
    for (int i = 0; i < CZK_GROTH16_MAX_BATCH; i++) many[i] = f.wp[i % NB];
    CHECK(czk__groth16_batch_is_multi(many, CZK_GROTH16_MAX_BATCH));
    {
        czk_rng r1, r2;
        czk_rng_seed(&r1, seed ^ 0x64);
        czk_rng_seed(&r2, seed ^ 0x64);
        REQUIRE_OK(prove_batch(pb, &f, many, CZK_GROTH16_MAX_BATCH, 2, &r1));
        czk_groth16_prove_opts po = {0};
        po.threads = 1;
        po.rng = &r2;
        for (int i = 0; i < CZK_GROTH16_MAX_BATCH; i++) {
            REQUIRE_OK(czk_groth16_prove(&ps[i], &f.p, many[i], &po));
            CHECK_MSG(same_proof(&pb[i], &ps[i]), "batch of %d: proof %d differs", CZK_GROTH16_MAX_BATCH, i);
        }
        CHECK(!same_proof(&pb[0], &pb[NB]));
        czk_fr pubs[CZK_GROTH16_MAX_BATCH][N_IN];
        for (int i = 0; i < CZK_GROTH16_MAX_BATCH; i++) memcpy(pubs[i], f.pub[i % NB], sizeof pubs[i]);
        CHECK_OK(czk_groth16_verify_batch(&f.pvk, pb, CZK_GROTH16_MAX_BATCH, &pubs[0][0], N_IN, czk_test_rng()));
    }

    /* witness 1 with a different a-density mask (one bit moved, same
     * popcount): the batch falls back to one MSM per witness and still
     * equals the single prover on the same (now meaningless) witnesses */
    czk_cs_assignment *w1 = &f.w[1];
    size_t words = (w1->n_aux + 63) / 64;
    uint64_t *dens = malloc(words * sizeof *dens);
    REQUIRE(dens);
    memcpy(dens, w1->a_aux_density, words * sizeof *dens);
    size_t set = SIZE_MAX, clear = SIZE_MAX;
    for (size_t i = 0; i < w1->n_aux && (set == SIZE_MAX || clear == SIZE_MAX); i++) {
        int bit = (int)((dens[i / 64] >> (i % 64)) & 1);
        if (bit && set == SIZE_MAX) set = i;
        if (!bit && clear == SIZE_MAX) clear = i;
    }
    REQUIRE(set != SIZE_MAX && clear != SIZE_MAX);
    dens[set / 64] ^= UINT64_C(1) << (set % 64);
    dens[clear / 64] ^= UINT64_C(1) << (clear % 64);
    czk_cs_assignment moved = *w1;
    moved.a_aux_density = dens;
    const czk_cs_assignment *wp[3] = {f.wp[0], &moved, f.wp[2]};
    CHECK(!czk__groth16_batch_is_multi(wp, 3));
    czk_rng r1, r2;
    czk_rng_seed(&r1, seed);
    czk_rng_seed(&r2, seed);
    REQUIRE_OK(prove_batch(pb, &f, wp, 3, 2, &r1));
    czk_groth16_prove_opts po = {0};
    po.threads = 2;
    po.rng = &r2;
    for (size_t i = 0; i < 3; i++) {
        REQUIRE_OK(czk_groth16_prove(&ps[i], &f.p, wp[i], &po));
        CHECK_MSG(same_proof(&pb[i], &ps[i]), "fallback batch: proof %zu differs", i);
    }
    CHECK(czk_groth16_verify(&f.pvk, &pb[1], f.pub[1], N_IN) == CZK_ERR_VERIFY);
    CHECK_OK(czk_groth16_verify(&f.pvk, &pb[0], f.pub[0], N_IN));
    CHECK_OK(czk_groth16_verify(&f.pvk, &pb[2], f.pub[2], N_IN));
    free(dens);
    fixture_clear(&f);
}

/* Timings: per query for one proof, the pass's totals for a batch. */
CZK_TEST(prove_timings)
{
    fixture f;
    REQUIRE_OK(fixture_init(&f, 700));
    czk_groth16_timings tm;
    memset(&tm, 0xff, sizeof tm);
    czk_groth16_prove_opts o = {0};
    o.threads = 2;
    o.rng = czk_test_rng();
    o.timings = &tm;
    czk_groth16_proof pr[NB];
    for (size_t n = 1; n <= NB; n += NB - 1) {
        REQUIRE_OK(czk_groth16_prove_batch(pr, &f.p, f.wp, n, &o));
        double parts[] = {tm.h_s, tm.msm_h_s, tm.msm_l_s, tm.msm_a_s, tm.msm_b_g1_s, tm.msm_b_g2_s};
        double g1 = 0;
        for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
            CHECK_MSG(parts[k] >= 0 && parts[k] < 1e6, "batch of %zu: part %zu = %g", n, k, parts[k]);
            if (k < 5) g1 += parts[k];
        }
        /* G2 runs beside the G1 work: the total covers the G1 parts, not their sum with G2 */
        CHECK_MSG(tm.total_s > 0 && tm.total_s >= g1, "batch of %zu: total %g, G1 parts %g", n, tm.total_s, g1);
        CHECK(tm.total_s >= tm.msm_b_g2_s);
    }
    /* a failed call leaves zeros, not stale values */
    memset(&tm, 0xff, sizeof tm);
    const czk_cs_assignment *bad[1] = {NULL};
    CHECK(czk_groth16_prove_batch(pr, &f.p, bad, 1, &o) == CZK_ERR_INVALID_ARG);
    CHECK(tm.total_s == 0 && tm.h_s == 0);
    fixture_clear(&f);
}

/* The memory sizing the engine reserves with: at least the padded vectors
 * and twiddles, a batch share at least a single proof's, batch clamped. */
CZK_TEST(prove_bytes)
{
    fixture f;
    REQUIRE_OK(fixture_init(&f, 800));
    czk_cs_sizes s = {f.w[0].n_input, f.w[0].n_aux, f.w[0].n_constraints};
    uint64_t m = 1;
    while (m < s.n_constraints) m <<= 1;
    for (int threads = 1; threads <= 4; threads++) {
        uint64_t one = czk_groth16_prove_bytes(&s, &f.p, threads, 1);
        CHECK(one >= 4 * m * sizeof(czk_fr));
        CHECK_EQ_U64(czk_groth16_prove_bytes(&s, &f.p, threads, 0), one);
        uint64_t four = czk_groth16_prove_bytes(&s, &f.p, threads, 4);
        CHECK(four >= one);
        CHECK_EQ_U64(czk_groth16_prove_bytes(&s, &f.p, threads, 1000),
                     czk_groth16_prove_bytes(&s, &f.p, threads, CZK_GROTH16_MAX_BATCH));
        CHECK(czk_groth16_prove_bytes(&s, NULL, threads, 1) >= 4 * m * sizeof(czk_fr));
    }
    fixture_clear(&f);
}
