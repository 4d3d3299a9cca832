/* The pipelined proving engine on a small random circuit
 * (tests/common/random_circuit.h) through a circuit provider: ordering,
 * priorities, failures confined to their job, memory budgets, shutdown,
 * and the batched prover against the verifier. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#include "common/random_circuit.h"
#include "czk/czk.h"
#include "czk/engine.h"
#include "czk/groth16.h"

#define N_IN 3
#define N_FREE 6
#define SHAPE_SEED 77

static size_t n_mul(void) { return getenv("CZK_TEST_ASAN") ? 60 : 300; }

/* One circuit instance: partition k uses values from value_seed * 1000 + k. */
typedef struct inst {
    uint64_t value_seed;
    int bad_witness; /* partition bad_part gets an unsatisfied extra constraint */
    int bad_inputs;  /* partition bad_part's public inputs are reported wrong */
    uint32_t bad_part;
    /* gate: synthesis of any partition waits until *gate != 0 */
    volatile int *gate;
    pthread_mutex_t *gate_mu;
    pthread_cond_t *gate_cv;
} inst;

static czk_status t_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    (void)data;
    (void)k;
    out->n_inputs = 1 + N_IN;
    out->n_aux = N_FREE + n_mul();
    out->n_constraints = n_mul() + N_FREE + 1 + N_IN;
    return CZK_OK;
}

static czk_status t_synth(czk_cs *cs, const void *data, uint32_t k)
{
    const inst *in = data;
    if (in->gate) {
        pthread_mutex_lock(in->gate_mu);
        while (!*in->gate) pthread_cond_wait(in->gate_cv, in->gate_mu);
        pthread_mutex_unlock(in->gate_mu);
    }
    czk_fr pub[N_IN];
    CZK_TRY(czk_test_random_circuit(cs, SHAPE_SEED, in->value_seed * 1000 + k, N_IN, N_FREE, n_mul(), pub));
    if (in->bad_witness && k == in->bad_part) {
        /* ONE * ONE = 2 ONE: as a tampered label would, the witness breaks a constraint */
        czk_lc_vec a, c;
        czk_lc_init_vec(&a);
        czk_lc_init_vec(&c);
        czk_fr two;
        czk_fr_from_u64(&two, 2);
        czk_lc_add_var_vec(&a, CZK_VAR_ONE);
        czk_lc_add_term_vec(&c, &two, CZK_VAR_ONE);
        czk_status s = czk_enforce_vec(cs, &a, &a, &c, "tampered", CZK_NOIDX);
        czk_lc_free_vec(&a);
        czk_lc_free_vec(&c);
        return s;
    }
    return CZK_OK;
}

static czk_status t_inputs(czk_fr *out, size_t n, const void *data, uint32_t k)
{
    const inst *in = data;
    if (n != N_IN) return czk_error(CZK_ERR_INVALID_ARG, "want %d inputs, got %zu", N_IN, n);
    czk_cs *cs;
    CZK_TRY(czk_cs_create(&cs, CZK_CS_WITNESS, CZK_LC_VEC, NULL));
    czk_status s = czk_test_random_circuit(cs, SHAPE_SEED, in->value_seed * 1000 + k, N_IN, N_FREE, n_mul(), out);
    czk_cs_destroy(cs);
    if (in->bad_inputs && k == in->bad_part) czk_fr_add(&out[0], &out[0], &CZK_FR_ONE);
    return s;
}

static const czk_engine_circuit test_circuit = {"random", t_sizes, t_synth, t_inputs};

static czk_groth16_params g_params;
static czk_groth16_pvk g_pvk;
static int g_have_params;

static void get_params(void)
{
    if (g_have_params) return;
    czk_cs *cs = NULL;
    czk_fr pub[N_IN];
    czk_csr A = {0}, B = {0}, C = {0};
    REQUIRE_OK(czk_cs_create(&cs, CZK_CS_SHAPE, CZK_LC_VEC, NULL));
    REQUIRE_OK(czk_test_random_circuit(cs, SHAPE_SEED, 1, N_IN, N_FREE, n_mul(), pub));
    REQUIRE_OK(czk_cs_finalize(cs));
    REQUIRE_OK(czk_cs_shape_csr(cs, &A, &B, &C));
    czk_groth16_setup_opts o = {0};
    o.use_seed = 1;
    o.seed = 1234;
    REQUIRE_OK(czk_groth16_setup(&g_params, &A, &B, &C, cs->n_inputs, &o));
    czk_csr_clear(&A);
    czk_csr_clear(&B);
    czk_csr_clear(&C);
    czk_cs_destroy(cs);
    REQUIRE_OK(czk_groth16_pvk_prepare(&g_pvk, &g_params.vk));
    g_have_params = 1;
}

static czk_engine_job make_job(const inst *in, uint32_t parts, int prio)
{
    czk_engine_job j = {0};
    j.circuit = &test_circuit;
    j.data = in;
    j.params = &g_params;
    j.n_partitions = parts;
    j.priority = prio;
    return j;
}

/* Every proof verifies against its own partition's inputs, and proof 0
 * does not verify against partition 1's (order). */
static void check_proofs(const inst *in, const czk_groth16_proof *pr, uint32_t parts)
{
    czk_fr pub[N_IN];
    for (uint32_t k = 0; k < parts; k++) {
        REQUIRE_OK(t_inputs(pub, N_IN, in, k));
        CHECK_OK(czk_groth16_verify(&g_pvk, &pr[k], pub, N_IN));
        if (parts > 1) {
            REQUIRE_OK(t_inputs(pub, N_IN, in, (k + 1) % parts));
            CHECK(czk_groth16_verify(&g_pvk, &pr[k], pub, N_IN) == CZK_ERR_VERIFY);
        }
    }
}

CZK_TEST(batch_prover_matches_verifier)
{
    get_params();
    enum { NB = 3 };
    czk_cs *cs[NB];
    czk_cs_assignment w[NB];
    const czk_cs_assignment *wp[NB];
    czk_fr pub[NB][N_IN];
    for (int i = 0; i < NB; i++) {
        REQUIRE_OK(czk_cs_create(&cs[i], CZK_CS_PROVE, CZK_LC_VEC, NULL));
        REQUIRE_OK(czk_test_random_circuit(cs[i], SHAPE_SEED, 500 + (uint64_t)i, N_IN, N_FREE, n_mul(), pub[i]));
        REQUIRE_OK(czk_cs_finalize(cs[i]));
        REQUIRE_OK(czk_cs_prove_get(cs[i], &w[i]));
        wp[i] = &w[i];
    }
    czk_groth16_proof pr[NB];
    for (int threads = 1; threads <= 2; threads++) {
        REQUIRE_OK(czk_engine_prove_batch(pr, &g_params, wp, NB, threads, czk_test_rng()));
        for (int i = 0; i < NB; i++) {
            CHECK_OK(czk_groth16_verify(&g_pvk, &pr[i], pub[i], N_IN));
            CHECK(czk_groth16_verify(&g_pvk, &pr[i], pub[(i + 1) % NB], N_IN) == CZK_ERR_VERIFY);
        }
    }
    /* a witness of another circuit is rejected, naming it */
    czk_cs *other;
    czk_cs_assignment wo;
    czk_fr po[N_IN];
    REQUIRE_OK(czk_cs_create(&other, CZK_CS_PROVE, CZK_LC_VEC, NULL));
    REQUIRE_OK(czk_test_random_circuit(other, SHAPE_SEED, 9, N_IN, N_FREE, n_mul() + 5, po));
    REQUIRE_OK(czk_cs_finalize(other));
    REQUIRE_OK(czk_cs_prove_get(other, &wo));
    wp[1] = &wo;
    CHECK(czk_engine_prove_batch(pr, &g_params, wp, NB, 1, czk_test_rng()) != CZK_OK);
    CHECK(strstr(czk_last_error(), "witness 1") != NULL);
    czk_cs_destroy(other);
    for (int i = 0; i < NB; i++) czk_cs_destroy(cs[i]);
}

CZK_TEST(mixed_priority_jobs_in_order)
{
    get_params();
    int njobs = getenv("CZK_TEST_ASAN") ? 8 : 20;
    inst *ins = calloc((size_t)njobs, sizeof *ins);
    uint64_t *ids = calloc((size_t)njobs, sizeof *ids);
    uint32_t *parts = calloc((size_t)njobs, sizeof *parts);
    REQUIRE(ins && ids && parts);
    czk_engine_opts o = {0};
    o.synth_workers = 2;
    o.prove_threads = 2;
    o.batch = 3;
    o.batch_timeout_s = 0.01;
    o.rng = czk_test_rng();
    char trace[512];
    snprintf(trace, sizeof trace, "%s/engine_mixed.json", czk_test_tmpdir());
    o.trace_path = trace;
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    for (int i = 0; i < njobs; i++) {
        ins[i].value_seed = 100 + (uint64_t)i;
        parts[i] = 1 + (uint32_t)(i % 3);
        czk_engine_job j = make_job(&ins[i], parts[i], (int)czk_rng_below(czk_test_rng(), 4));
        REQUIRE_OK(czk_engine_submit(e, &ids[i], &j));
    }
    for (int i = 0; i < njobs; i++) {
        czk_groth16_proof pr[3];
        CHECK_OK(czk_engine_wait(e, ids[i], pr, parts[i]));
        check_proofs(&ins[i], pr, parts[i]);
    }
    /* waiting twice is an error, not a hang */
    CHECK(czk_engine_wait(e, ids[0], NULL, parts[0]) == CZK_ERR_INVALID_ARG);
    czk_engine_event *ev;
    size_t nev;
    REQUIRE_OK(czk_engine_events(e, &ev, &nev));
    size_t total = 0, batched = 0;
    for (int i = 0; i < njobs; i++) total += parts[i];
    CHECK_EQ_U64(nev, total);
    for (size_t i = 0; i < nev; i++) {
        CHECK(ev[i].status == CZK_OK);
        CHECK(ev[i].queued <= ev[i].synth_start && ev[i].synth_start <= ev[i].synth_end);
        CHECK(ev[i].synth_end <= ev[i].prove_start && ev[i].prove_start <= ev[i].prove_end);
        if (ev[i].batch > 1) batched++;
    }
    CHECK_MSG(batched > 0, "no partition was proven in a batch");
    free(ev);
    czk_engine_destroy(e);
    FILE *f = fopen(trace, "r");
    REQUIRE(f);
    char line[512];
    size_t n_synth = 0, n_prove = 0;
    while (fgets(line, sizeof line, f)) {
        if (strstr(line, "\"cat\":\"synthesis\",\"ph\":\"X\"")) n_synth++;
        if (strstr(line, "\"cat\":\"prove\",\"ph\":\"X\"")) n_prove++;
    }
    fclose(f);
    CHECK_EQ_U64(n_synth, total);
    CHECK_EQ_U64(n_prove, total);
    free(ins);
    free(ids);
    free(parts);
}

CZK_TEST(bad_job_fails_alone)
{
    get_params();
    enum { NJ = 6 };
    inst ins[NJ];
    uint64_t ids[NJ];
    memset(ins, 0, sizeof ins);
    czk_engine_opts o = {0};
    o.synth_workers = 2;
    o.batch = 2;
    o.rng = czk_test_rng();
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    for (int i = 0; i < NJ; i++) {
        ins[i].value_seed = 300 + (uint64_t)i;
        ins[i].bad_part = 1;
    }
    ins[2].bad_witness = 1; /* synthesis check fails */
    ins[4].bad_inputs = 1;  /* the proof does not verify */
    for (int i = 0; i < NJ; i++) {
        czk_engine_job j = make_job(&ins[i], 3, i % 2);
        REQUIRE_OK(czk_engine_submit(e, &ids[i], &j));
    }
    for (int i = 0; i < NJ; i++) {
        czk_groth16_proof pr[3];
        czk_status s = czk_engine_wait(e, ids[i], pr, 3);
        if (i == 2) {
            CHECK(s == CZK_ERR_UNSATISFIED);
            CHECK_MSG(strstr(czk_last_error(), "partition 1") != NULL, "message: %s", czk_last_error());
        } else if (i == 4) {
            CHECK(s == CZK_ERR_VERIFY);
            CHECK_MSG(strstr(czk_last_error(), "partition 1") != NULL, "message: %s", czk_last_error());
        } else {
            CHECK_OK(s);
            if (s == CZK_OK) check_proofs(&ins[i], pr, 3);
        }
    }
    czk_engine_destroy(e);
}

CZK_TEST(budget_smaller_than_a_task_is_an_error)
{
    get_params();
    inst in = {.value_seed = 7};
    czk_engine_job j = make_job(&in, 2, 0);
    czk_engine_opts o = {0};
    o.synth_workers = 1;
    o.prove_threads = 1;
    uint64_t min;
    REQUIRE_OK(czk_engine_job_min_budget(&min, &j, &o));
    CHECK(min > czk_engine_params_bytes(&g_params));
    o.memory_budget = min - 1;
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    uint64_t id;
    CHECK(czk_engine_submit(e, &id, &j) == CZK_ERR_NOMEM);
    CHECK(strstr(czk_last_error(), "memory budget") != NULL);
    czk_engine_destroy(e);
}

CZK_TEST(budget_of_one_task_completes_every_job)
{
    get_params();
    enum { NJ = 5 };
    inst ins[NJ];
    uint64_t ids[NJ];
    memset(ins, 0, sizeof ins);
    czk_engine_opts o = {0};
    o.synth_workers = 2;
    o.prove_threads = 1;
    o.batch = 2;
    o.rng = czk_test_rng();
    czk_engine_job j0 = make_job(&ins[0], 2, 0);
    uint64_t min;
    REQUIRE_OK(czk_engine_job_min_budget(&min, &j0, &o));
    o.memory_budget = min;
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    for (int i = 0; i < NJ; i++) {
        ins[i].value_seed = 700 + (uint64_t)i;
        czk_engine_job j = make_job(&ins[i], 2, i % 3);
        REQUIRE_OK(czk_engine_submit(e, &ids[i], &j));
    }
    for (int i = 0; i < NJ; i++) {
        czk_groth16_proof pr[2];
        CHECK_OK(czk_engine_wait(e, ids[i], pr, 2));
        check_proofs(&ins[i], pr, 2);
    }
    CHECK(czk_engine_peak_reserved(e) <= min);
    /* witness buffers are recycled: one backend serves every task */
    czk_engine_progress pg;
    czk_engine_progress_get(e, &pg);
    CHECK_EQ_U64(pg.backends_created, 1);
    CHECK_EQ_U64(pg.backends_reused, 2 * NJ - 1);
    CHECK_EQ_U64(pg.tasks_proven, 2 * NJ);
    /* one task at a time: no two tasks' [synthesis start, prove end] overlap */
    czk_engine_event *ev;
    size_t nev;
    REQUIRE_OK(czk_engine_events(e, &ev, &nev));
    CHECK_EQ_U64(nev, 2 * NJ);
    for (size_t a = 0; a < nev; a++)
        for (size_t b = a + 1; b < nev; b++)
            CHECK(ev[a].prove_end <= ev[b].synth_start || ev[b].prove_end <= ev[a].synth_start);
    free(ev);
    czk_engine_destroy(e);
}

CZK_TEST(priorities_overtake)
{
    get_params();
    enum { NL = 5 };
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    volatile int gate = 0;
    inst low[NL], high;
    memset(low, 0, sizeof low);
    memset(&high, 0, sizeof high);
    uint64_t lid[NL], hid;
    czk_engine_opts o = {0};
    o.synth_workers = 1;
    o.prove_workers = 1;
    o.prove_threads = 1;
    o.rng = czk_test_rng();
    char trace[512];
    snprintf(trace, sizeof trace, "%s/engine_prio.json", czk_test_tmpdir());
    o.trace_path = trace;
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    /* the first low job's synthesis is held until every job is queued */
    low[0].gate = &gate;
    low[0].gate_mu = &mu;
    low[0].gate_cv = &cv;
    for (int i = 0; i < NL; i++) {
        low[i].value_seed = 900 + (uint64_t)i;
        czk_engine_job j = make_job(&low[i], 2, 0);
        REQUIRE_OK(czk_engine_submit(e, &lid[i], &j));
        if (i == 0) { /* wait until the worker holds job 1's first partition */
            for (int started = 0; !started;) {
                czk_engine_event *ev;
                size_t nev;
                REQUIRE_OK(czk_engine_events(e, &ev, &nev));
                started = nev > 0 && ev[0].synth_start >= 0;
                free(ev);
                if (!started) sched_yield();
            }
        }
    }
    high.value_seed = 999;
    czk_engine_job jh = make_job(&high, 2, 5);
    REQUIRE_OK(czk_engine_submit(e, &hid, &jh));
    pthread_mutex_lock(&mu);
    gate = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    czk_groth16_proof pr[2];
    CHECK_OK(czk_engine_wait(e, hid, pr, 2));
    check_proofs(&high, pr, 2);
    for (int i = 0; i < NL; i++) CHECK_OK(czk_engine_wait(e, lid[i], pr, 2));
    czk_engine_destroy(e);
    /* from the trace: after job 1's first partition (already running), the
     * high job's two partitions are synthesized before any other low task */
    FILE *f = fopen(trace, "r");
    REQUIRE(f);
    char line[512];
    double high_last = -1, low_first_after = 1e30, low1_first = 1e30;
    int n_synth = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strstr(line, "\"cat\":\"synthesis\",\"ph\":\"X\"")) continue;
        double ts;
        unsigned long long jb;
        unsigned part;
        const char *p = strstr(line, "\"ts\":"), *q = strstr(line, "\"job\":"), *r = strstr(line, "\"partition\":");
        REQUIRE(p && q && r);
        REQUIRE(sscanf(p, "\"ts\":%lf", &ts) == 1 && sscanf(q, "\"job\":%llu", &jb) == 1 &&
                sscanf(r, "\"partition\":%u", &part) == 1);
        n_synth++;
        if (jb == hid) {
            if (ts > high_last) high_last = ts;
        } else if (jb == lid[0] && part == 0) {
            if (ts < low1_first) low1_first = ts;
        } else if (ts < low_first_after) {
            low_first_after = ts;
        }
    }
    fclose(f);
    CHECK_EQ_U64((uint64_t)n_synth, 2 * (NL + 1));
    CHECK(low1_first < high_last);
    CHECK_MSG(high_last < low_first_after, "high job's last synthesis at %.0f us, a low task at %.0f us", high_last,
              low_first_after);
}

CZK_TEST(shutdown_with_unwaited_jobs)
{
    get_params();
    enum { NJ = 4 };
    inst ins[NJ];
    memset(ins, 0, sizeof ins);
    czk_engine_opts o = {0};
    o.synth_workers = 2;
    o.prove_workers = 2;
    o.prove_threads = 1;
    o.rng = czk_test_rng();
    for (int round = 0; round < 2; round++) {
        czk_engine *e;
        REQUIRE_OK(czk_engine_create(&e, &o));
        uint64_t id;
        for (int i = 0; i < (round ? NJ : 0); i++) {
            ins[i].value_seed = 40 + (uint64_t)i;
            czk_engine_job j = make_job(&ins[i], 2, 0);
            REQUIRE_OK(czk_engine_submit(e, &id, &j));
        }
        czk_engine_progress pg;
        czk_engine_progress_get(e, &pg);
        CHECK_EQ_U64(pg.tasks_total, round ? 2 * NJ : 0);
        czk_engine_destroy(e); /* finishes the queued work, then stops */
    }
    /* invalid jobs */
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    uint64_t id;
    czk_engine_job j = make_job(&ins[0], 0, 0);
    CHECK(czk_engine_submit(e, &id, &j) == CZK_ERR_INVALID_ARG);
    j = make_job(&ins[0], 1, 0);
    j.params = NULL;
    CHECK(czk_engine_submit(e, &id, &j) == CZK_ERR_INVALID_ARG);
    CHECK(czk_engine_wait(e, 12345, NULL, 0) == CZK_ERR_INVALID_ARG);
    czk_engine_destroy(e);
    czk_engine_destroy(NULL);
    if (g_have_params) {
        czk_groth16_params_clear(&g_params);
        g_have_params = 0;
    }
}

CZK_TEST(porep_one_call_rejects_bad_partition)
{
    /* the PoRep provider checks the partition before anything is reserved */
    czk_fc_shape shape;
    REQUIRE_OK(czk_fc_shape_custom(&shape, 64, 2, 2, 1, 8, 0, 0));
    czk_fc_c1 c1;
    REQUIRE_OK(czk_fc_gen_c1(&c1, &shape, 5, NULL, NULL));
    get_params();
    uint32_t parts[1] = {2};
    czk_groth16_proof pr[1];
    czk_engine_opts o = {0};
    o.synth_workers = 1;
    CHECK(czk_engine_prove_porep(pr, &c1, parts, 1, &g_params, &o) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(czk_last_error(), "partition 2") != NULL, "message: %s", czk_last_error());
    czk_fc_c1_free(&c1);
}
