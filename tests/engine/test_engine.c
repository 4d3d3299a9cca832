/* The pipelined proving engine on a small random circuit
 * (tests/common/random_circuit.h) through a circuit provider: ordering,
 * priorities, failures confined to their job, memory budgets, shutdown.
 * The batched prover itself is tested in tests/groth16/test_prove_batch.c. */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "runner.h"

#define CZK_LCV vec /* builds its LCs with the vec variant (cs/lc.h) */
#include "cs/lc_lcv.h"

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
    int extra_mul;   /* another circuit: this many more multiplications than the parameters' */
    uint32_t bad_part;
    /* gate: synthesis of any partition waits until *gate != 0 */
    volatile int *gate;
    pthread_mutex_t *gate_mu;
    pthread_cond_t *gate_cv;
    volatile int *nice_seen; /* the synthesizing thread's nice value, when set */
} inst;

static czk_status t_sizes(czk_cs_sizes *out, const void *data, uint32_t k)
{
    const inst *in = data;
    (void)k;
    out->n_inputs = 1 + N_IN;
    out->n_aux = N_FREE + n_mul() + (size_t)in->extra_mul;
    out->n_constraints = n_mul() + (size_t)in->extra_mul + N_FREE + 1 + N_IN;
    return CZK_OK;
}

static czk_status t_synth(czk_cs *cs, const void *data, uint32_t k)
{
    const inst *in = data;
    if (in->nice_seen) *in->nice_seen = getpriority(PRIO_PROCESS, 0); /* this thread's (Linux) */
    if (in->gate) {
        pthread_mutex_lock(in->gate_mu);
        while (!*in->gate) pthread_cond_wait(in->gate_cv, in->gate_mu);
        pthread_mutex_unlock(in->gate_mu);
    }
    czk_fr pub[N_IN];
    CZK_TRY(czk_test_random_circuit(cs, SHAPE_SEED, in->value_seed * 1000 + k, N_IN, N_FREE,
                                    n_mul() + (size_t)in->extra_mul, pub));
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
    czk_status s = czk_test_random_circuit(cs, SHAPE_SEED, in->value_seed * 1000 + k, N_IN, N_FREE,
                                           n_mul() + (size_t)in->extra_mul, out);
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
    ins[5].extra_mul = 5;   /* another circuit than the parameters': caught after synthesis */
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
        } else if (i == 5) {
            CHECK(s == CZK_ERR_INVALID_ARG);
            CHECK_MSG(strstr(czk_last_error(), "parameters: parameters have") != NULL, "message: %s",
                      czk_last_error());
        } else {
            CHECK_OK(s);
            if (s == CZK_OK) check_proofs(&ins[i], pr, 3);
        }
    }
    /* the mismatched job never reached a prover */
    czk_engine_event *ev;
    size_t nev;
    REQUIRE_OK(czk_engine_events(e, &ev, &nev));
    for (size_t i = 0; i < nev; i++)
        if (ev[i].job == ids[5]) CHECK(ev[i].prove_worker == -1 && ev[i].status != CZK_OK);
    free(ev);
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

/* Streamed parameters (the file left on disk, each prover pass reading it)
 * through the engine: every proof verifies; with room for two witnesses and
 * one prover pass the next partition is synthesized while this one is being
 * proven; with the budget of one task (its witness and its streamed pass)
 * the partitions run one after another. */
CZK_TEST(streamed_parameters_pipelined)
{
    get_params();
    char path[4200];
    snprintf(path, sizeof path, "%s/random.params", czk_test_tmpdir());
    REQUIRE_OK(czk_groth16_params_write_pinned(path, &g_params));
    czk_groth16_params sp;
    REQUIRE_OK(czk_groth16_params_open_streamed(&sp, path, CZK_GROTH16_CHECK_PINNED, 1 << 20, 2));
    CHECK(czk_groth16_params_streamed(&sp) && !strcmp(czk_groth16_params_path(&sp), path));
    CHECK(sp.n_l == g_params.n_l && sp.n_h == g_params.n_h && sp.vk.n_ic == g_params.vk.n_ic && !sp.h && !sp.l);
    CHECK(czk_engine_params_bytes(&sp) < czk_engine_params_bytes(&g_params) / 8);
    enum { NP = 3 };
    for (int tight = 0; tight < 2; tight++) {
        inst in;
        memset(&in, 0, sizeof in);
        in.value_seed = 900 + (uint64_t)tight;
        czk_engine_opts o = {0};
        o.synth_workers = 1;
        o.prove_threads = 2;
        o.rng = czk_test_rng();
        czk_engine_job j = make_job(&in, NP, 0);
        j.params = &sp;
        uint64_t min;
        REQUIRE_OK(czk_engine_job_min_budget(&min, &j, &o));
        o.memory_budget = tight ? min : 4 * min;
        czk_engine *e;
        REQUIRE_OK(czk_engine_create(&e, &o));
        uint64_t id;
        REQUIRE_OK(czk_engine_submit(e, &id, &j));
        czk_groth16_proof pr[NP];
        CHECK_OK(czk_engine_wait(e, id, pr, NP));
        check_proofs(&in, pr, NP);
        CHECK(czk_engine_peak_reserved(e) <= o.memory_budget);
        czk_engine_event *ev;
        size_t nev;
        REQUIRE_OK(czk_engine_events(e, &ev, &nev));
        REQUIRE(nev == NP);
        for (size_t k = 0; k < nev; k++) {
            CHECK(ev[k].streamed == 1 && ev[k].lean == 0 && ev[k].params_check == CZK_GROTH16_CHECK_PINNED);
            CHECK(ev[k].params_bytes_read > 0 && ev[k].batch == 1);
        }
        for (size_t k = 0; k + 1 < nev; k++) {
            if (tight)
                CHECK_MSG(ev[k + 1].synth_start >= ev[k].prove_end,
                          "one task's budget: partition %zu synthesized (%.4f) before %zu was proven (%.4f)", k + 1,
                          ev[k + 1].synth_start, k, ev[k].prove_end);
            else
                CHECK_MSG(ev[k + 1].synth_start < ev[k].prove_end,
                          "room for two witnesses: partition %zu synthesized at %.4f, after %zu was proven (%.4f)",
                          k + 1, ev[k + 1].synth_start, k, ev[k].prove_end);
        }
        free(ev);
        czk_engine_destroy(e);
    }
    czk_groth16_params_clear(&sp);
}

/* A streamed pass below the urgent lane's priority waits between its chunks
 * while urgent work is in flight: an urgent job held in its synthesis, then
 * a streamed regular job whose pass must wait until the urgent job is
 * proven (its event says so); without the lane it does not wait. */
CZK_TEST(streamed_pass_yields_to_urgent)
{
    get_params();
    char path[4200];
    snprintf(path, sizeof path, "%s/yield.params", czk_test_tmpdir());
    REQUIRE_OK(czk_groth16_params_write_pinned(path, &g_params));
    czk_groth16_params sp;
    REQUIRE_OK(czk_groth16_params_open_streamed(&sp, path, CZK_GROTH16_CHECK_PINNED, 1 << 20, 2));
    for (int lane = 1; lane >= 0; lane--) {
        pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
        pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
        volatile int gate = 0;
        inst urg, reg;
        memset(&urg, 0, sizeof urg);
        memset(&reg, 0, sizeof reg);
        urg.value_seed = 611;
        urg.gate = &gate;
        urg.gate_mu = &mu;
        urg.gate_cv = &cv;
        reg.value_seed = 612;
        czk_engine_opts o = {0};
        o.synth_workers = 2; /* one holds the urgent job, the other synthesizes the regular one */
        o.prove_workers = 1;
        o.prove_threads = 1;
        o.urgent_priority = lane ? 4 : 0;
        o.rng = czk_test_rng();
        czk_engine *e;
        REQUIRE_OK(czk_engine_create(&e, &o));
        czk_engine_job ju = make_job(&urg, 1, 4), jr = make_job(&reg, 1, 0);
        jr.params = &sp;
        uint64_t uid, rid;
        REQUIRE_OK(czk_engine_submit(e, &uid, &ju));
        for (int started = 0; !started;) { /* the urgent job is held in its synthesis */
            czk_engine_event *ev;
            size_t nev;
            REQUIRE_OK(czk_engine_job_events(e, uid, &ev, &nev));
            started = nev == 1 && ev[0].synth_start >= 0;
            free(ev);
            if (!started) sched_yield();
        }
        REQUIRE_OK(czk_engine_submit(e, &rid, &jr));
        if (lane) { /* its pass starts, then waits: the gate opens 0.2 s later */
            for (int proving = 0; !proving;) {
                czk_engine_event *ev;
                size_t nev;
                REQUIRE_OK(czk_engine_job_events(e, rid, &ev, &nev));
                proving = nev == 1 && ev[0].prove_start >= 0;
                free(ev);
                if (!proving) sched_yield();
            }
            nanosleep(&(struct timespec){0, 200000000}, NULL);
        }
        czk_groth16_proof pu[1], pr[1];
        /* without the lane the regular job is proven while the urgent one is held */
        if (!lane) CHECK_OK(czk_engine_wait(e, rid, pr, 1));
        pthread_mutex_lock(&mu);
        gate = 1;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
        CHECK_OK(czk_engine_wait(e, uid, pu, 1));
        if (lane) CHECK_OK(czk_engine_wait(e, rid, pr, 1));
        check_proofs(&urg, pu, 1);
        check_proofs(&reg, pr, 1);
        czk_engine_event *eu, *er;
        size_t nu, nr;
        REQUIRE_OK(czk_engine_job_events(e, uid, &eu, &nu));
        REQUIRE_OK(czk_engine_job_events(e, rid, &er, &nr));
        REQUIRE(nu == 1 && nr == 1);
        CHECK(er[0].streamed == 1);
        if (lane) {
            CHECK_MSG(er[0].yields >= 1 && er[0].yield_s >= 0.1, "the streamed pass waited %d times, %.3f s",
                      er[0].yields, er[0].yield_s);
            CHECK(eu[0].prove_end <= er[0].prove_end);
        } else {
            CHECK(er[0].yields == 0 && er[0].yield_s == 0);
            CHECK(er[0].prove_end <= eu[0].synth_end);
        }
        free(eu);
        free(er);
        czk_engine_destroy(e);
    }
    czk_groth16_params_clear(&sp);
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

/* The progress callback runs outside the engine lock: it may query the
 * engine and even submit a job. A watchdog turns a deadlock into a failure. */
typedef struct reenter_ctx {
    czk_engine *e;
    inst *extra;
    pthread_mutex_t mu; /* guards extra_id, submitted, submit_status for the main thread */
    pthread_cond_t cv;
    uint64_t extra_id;
    int submitted, submit_status;
    uint64_t calls, nested, query_fail, out_of_order;
    uint64_t last_proven, last_synth, last_jobs_done;
    double last_elapsed;
    int depth;
} reenter_ctx;

static void reenter_progress(void *ctx, const czk_engine_progress *p)
{
    reenter_ctx *c = ctx;
    c->calls++;
    if (c->depth > 0) c->nested++;
    if (p->tasks_proven < c->last_proven || p->tasks_synthesized < c->last_synth ||
        p->jobs_done < c->last_jobs_done || p->elapsed_s < c->last_elapsed)
        c->out_of_order++;
    c->last_proven = p->tasks_proven;
    c->last_synth = p->tasks_synthesized;
    c->last_jobs_done = p->jobs_done;
    c->last_elapsed = p->elapsed_s;
    czk_engine_progress now;
    czk_engine_progress_get(c->e, &now);
    if (now.tasks_total < p->tasks_total || now.tasks_proven < p->tasks_proven) c->query_fail++;
    czk_engine_event *ev = NULL;
    size_t nev = 0;
    if (czk_engine_events(c->e, &ev, &nev) != CZK_OK || nev < p->tasks_total) c->query_fail++;
    free(ev);
    if (czk_engine_peak_reserved(c->e) < now.memory_used) c->query_fail++;
    /* once a task is synthesized, submit one more job from inside the callback */
    if (c->depth == 0 && p->tasks_synthesized > 0) {
        pthread_mutex_lock(&c->mu);
        int first = !c->submitted;
        pthread_mutex_unlock(&c->mu);
        if (first) {
            czk_engine_job j = make_job(c->extra, 2, 1);
            uint64_t id = 0;
            c->depth++;
            czk_status st = czk_engine_submit(c->e, &id, &j);
            c->depth--;
            pthread_mutex_lock(&c->mu);
            c->extra_id = id;
            c->submit_status = st;
            c->submitted = 1;
            pthread_cond_broadcast(&c->cv);
            pthread_mutex_unlock(&c->mu);
        }
    }
}

typedef struct watchdog {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int done;
    double seconds;
} watchdog;

static void *watchdog_main(void *arg)
{
    watchdog *w = arg;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += (time_t)w->seconds;
    pthread_mutex_lock(&w->mu);
    int rc = 0;
    while (!w->done && rc == 0) rc = pthread_cond_timedwait(&w->cv, &w->mu, &ts);
    int done = w->done;
    pthread_mutex_unlock(&w->mu);
    if (!done) {
        fprintf(stderr, "progress_callback_reenters_engine: no progress for %.0f s: deadlock\n", w->seconds);
        abort();
    }
    return NULL;
}

CZK_TEST(progress_callback_reenters_engine)
{
    get_params();
    enum { NJ = 3 };
    inst ins[NJ + 1];
    uint64_t ids[NJ];
    memset(ins, 0, sizeof ins);
    watchdog wd = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, getenv("CZK_TEST_ASAN") ? 600 : 120};
    pthread_t wt;
    REQUIRE(pthread_create(&wt, NULL, watchdog_main, &wd) == 0);
    reenter_ctx c;
    memset(&c, 0, sizeof c);
    pthread_mutex_init(&c.mu, NULL);
    pthread_cond_init(&c.cv, NULL);
    ins[NJ].value_seed = 2000;
    c.extra = &ins[NJ];
    czk_engine_opts o = {0};
    o.synth_workers = 2;
    o.prove_threads = 1;
    o.batch = 2;
    o.rng = czk_test_rng();
    o.progress = reenter_progress;
    o.progress_ctx = &c;
    REQUIRE_OK(czk_engine_create(&c.e, &o));
    for (int i = 0; i < NJ; i++) {
        ins[i].value_seed = 1900 + (uint64_t)i;
        czk_engine_job j = make_job(&ins[i], 2, 0);
        REQUIRE_OK(czk_engine_submit(c.e, &ids[i], &j));
    }
    czk_groth16_proof pr[2];
    for (int i = 0; i < NJ; i++) {
        CHECK_OK(czk_engine_wait(c.e, ids[i], pr, 2));
        check_proofs(&ins[i], pr, 2);
    }
    pthread_mutex_lock(&c.mu);
    while (!c.submitted) pthread_cond_wait(&c.cv, &c.mu);
    uint64_t extra_id = c.extra_id;
    czk_status extra_st = c.submit_status;
    pthread_mutex_unlock(&c.mu);
    CHECK_OK(extra_st);
    if (extra_st == CZK_OK) {
        CHECK_OK(czk_engine_wait(c.e, extra_id, pr, 2));
        check_proofs(&ins[NJ], pr, 2);
    }
    czk_engine_destroy(c.e); /* joins the threads: no callback runs after this */
    pthread_mutex_lock(&wd.mu);
    wd.done = 1;
    pthread_cond_signal(&wd.cv);
    pthread_mutex_unlock(&wd.mu);
    pthread_join(wt, NULL);
    CHECK_EQ_U64(c.last_proven, 2 * (NJ + 1));
    CHECK_EQ_U64(c.last_jobs_done, NJ + 1);
    CHECK(c.calls >= 2 * (NJ + 1));
    CHECK_EQ_U64(c.nested, 1); /* the submit inside the callback called it once, directly */
    CHECK_EQ_U64(c.query_fail, 0);
    CHECK_EQ_U64(c.out_of_order, 0);
    pthread_mutex_destroy(&c.mu);
    pthread_cond_destroy(&c.cv);
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

/* Cancel: a job whose partition is being synthesized (held at a gate)
 * stops at that stage's end; a queued job is dropped at once; both waits
 * return CZK_ERR_CANCELLED, the reservations are released, a later job is
 * proven, and cancelling a finished or unknown job says so. */
CZK_TEST(cancel_queued_and_running)
{
    get_params();
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
    volatile int gate = 0;
    inst run, queued, after;
    memset(&run, 0, sizeof run);
    memset(&queued, 0, sizeof queued);
    memset(&after, 0, sizeof after);
    run.value_seed = 501;
    run.gate = &gate;
    run.gate_mu = &mu;
    run.gate_cv = &cv;
    queued.value_seed = 502;
    after.value_seed = 503;
    czk_engine_opts o = {0};
    o.synth_workers = 1;
    o.prove_workers = 1;
    o.prove_threads = 1;
    o.rng = czk_test_rng();
    czk_engine_job jr = make_job(&run, 3, 0), jq = make_job(&queued, 2, 0);
    /* room for one task only: a reservation the cancel leaked would stall the last job */
    REQUIRE_OK(czk_engine_job_min_budget(&o.memory_budget, &jr, &o));
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    uint64_t rid, qid, aid;
    REQUIRE_OK(czk_engine_submit(e, &rid, &jr));
    REQUIRE_OK(czk_engine_submit(e, &qid, &jq));
    for (int started = 0; !started;) { /* the worker holds the first job's first partition */
        czk_engine_event *ev;
        size_t nev;
        REQUIRE_OK(czk_engine_events(e, &ev, &nev));
        started = nev > 0 && ev[0].synth_start >= 0;
        free(ev);
        if (!started) sched_yield();
    }
    int running = -1;
    CHECK_OK(czk_engine_cancel(e, qid, &running));
    CHECK_EQ_U64((uint64_t)running, 0);
    CHECK_OK(czk_engine_cancel(e, rid, &running));
    CHECK_EQ_U64((uint64_t)running, 1);
    czk_groth16_proof pr[3];
    /* the queued job is done without any synthesis */
    CHECK(czk_engine_wait(e, qid, pr, 2) == CZK_ERR_CANCELLED);
    CHECK(strstr(czk_last_error(), "cancelled") != NULL);
    pthread_mutex_lock(&mu);
    gate = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    CHECK(czk_engine_wait(e, rid, pr, 3) == CZK_ERR_CANCELLED);
    czk_engine_progress p;
    czk_engine_progress_get(e, &p);
    CHECK_EQ_U64(p.tasks_proven, 0);
    czk_engine_job ja = make_job(&after, 2, 0);
    REQUIRE_OK(czk_engine_submit(e, &aid, &ja));
    CHECK(czk_engine_cancel(e, 99999, &running) == CZK_ERR_NOT_FOUND);
    CHECK_OK(czk_engine_wait(e, aid, pr, 2));
    check_proofs(&after, pr, 2);
    /* the events: the cancelled job's other partitions never started synthesis */
    czk_engine_event *ev;
    size_t nev;
    REQUIRE_OK(czk_engine_events(e, &ev, &nev));
    REQUIRE(nev == 7);
    CHECK(ev[1].synth_start < 0 && ev[2].synth_start < 0 && ev[3].synth_start < 0 && ev[4].synth_start < 0);
    CHECK(ev[0].prove_start < 0);
    CHECK(ev[0].status == CZK_ERR_CANCELLED && ev[3].status == CZK_ERR_CANCELLED);
    free(ev);
    czk_engine_destroy(e);
}

/* A long-running service reads a waited job's timeline entries and drops
 * them: the others (and a live job's, whose tasks index into the
 * timeline) stay intact, and jobs keep running after compaction. */
CZK_TEST(forget_waited_jobs_timeline)
{
    get_params();
    czk_engine_opts o = {0};
    o.synth_workers = 1;
    o.prove_workers = 1;
    o.prove_threads = 1;
    o.rng = czk_test_rng();
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    inst a, b, c;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    a.value_seed = 601;
    b.value_seed = 602;
    c.value_seed = 603;
    uint64_t ia, ib, ic;
    czk_engine_job ja = make_job(&a, 2, 0), jb = make_job(&b, 3, 0), jc = make_job(&c, 2, 0);
    REQUIRE_OK(czk_engine_submit(e, &ia, &ja));
    REQUIRE_OK(czk_engine_submit(e, &ib, &jb));
    czk_groth16_proof pr[3];
    CHECK_OK(czk_engine_wait(e, ia, pr, 2));
    czk_engine_event *ev;
    size_t n;
    REQUIRE_OK(czk_engine_job_events(e, ia, &ev, &n));
    CHECK_EQ_U64(n, 2);
    CHECK(n == 2 && ev[0].partition == 0 && ev[1].partition == 1 && ev[1].prove_end >= ev[1].prove_start);
    free(ev);
    czk_engine_forget(e, ib); /* not waited yet: ignored */
    czk_engine_forget(e, ia);
    REQUIRE_OK(czk_engine_job_events(e, ia, &ev, &n));
    CHECK_EQ_U64(n, 0);
    REQUIRE_OK(czk_engine_job_events(e, ib, &ev, &n));
    CHECK_EQ_U64(n, 3);
    free(ev);
    REQUIRE_OK(czk_engine_submit(e, &ic, &jc));
    CHECK_OK(czk_engine_wait(e, ib, pr, 3));
    check_proofs(&b, pr, 3);
    CHECK_OK(czk_engine_wait(e, ic, pr, 2));
    check_proofs(&c, pr, 2);
    czk_engine_forget(e, ib);
    REQUIRE_OK(czk_engine_events(e, &ev, &n));
    CHECK_EQ_U64(n, 2);
    CHECK(n == 2 && ev[0].job == ic && ev[1].job == ic && ev[0].prove_end >= 0 && ev[1].prove_end >= 0);
    free(ev);
    czk_engine_destroy(e);
}

/* ---- a caller's source kept across jobs ---------------------------------------------- */

static const czk_witness_ops *g_base_ops;
static int g_creates, g_destroys;

static czk_status counting_create(czk_witness **out, const czk_witness_source *s, const czk_cs_sizes *z)
{
    __atomic_add_fetch(&g_creates, 1, __ATOMIC_RELAXED);
    return g_base_ops->create(out, s, z);
}

static void counting_destroy(czk_witness *w)
{
    __atomic_add_fetch(&g_destroys, 1, __ATOMIC_RELAXED);
    g_base_ops->destroy(w);
}

/* Jobs run one after the other on a caller's source: without
 * czk_engine_source_keep each job allocates its own witness instance (the
 * partition's buffers) and frees it when it ends; kept, the second job
 * reuses the first one's instance, and czk_engine_source_release frees it. */
CZK_TEST(kept_source_reuses_instances_across_jobs)
{
    get_params();
    czk_witness_source src;
    REQUIRE_OK(czk_witness_source_cs(&src, t_synth, CZK_LC_VEC));
    g_base_ops = src.ops;
    czk_witness_ops ops = *src.ops;
    ops.create = counting_create;
    ops.destroy = counting_destroy;
    src.ops = &ops;
    czk_engine_opts o = {0};
    o.synth_workers = 1;
    o.prove_threads = 1;
    o.rng = czk_test_rng();
    czk_engine *e;
    REQUIRE_OK(czk_engine_create(&e, &o));
    for (int kept = 0; kept < 2; kept++) {
        g_creates = g_destroys = 0;
        if (kept) REQUIRE_OK(czk_engine_source_keep(e, &src));
        for (int i = 0; i < 2; i++) {
            inst in;
            memset(&in, 0, sizeof in);
            in.value_seed = 900 + (uint64_t)(2 * kept + i);
            czk_engine_job j = make_job(&in, 1, 0);
            j.source = &src;
            uint64_t id;
            REQUIRE_OK(czk_engine_submit(e, &id, &j));
            czk_groth16_proof pr[1];
            CHECK_OK(czk_engine_wait(e, id, pr, 1));
            check_proofs(&in, pr, 1);
            CHECK_MSG(g_destroys == (kept ? 0 : i + 1), "kept %d, job %d: %d instances destroyed", kept, i,
                      g_destroys);
        }
        CHECK_MSG(g_creates == (kept ? 1 : 2), "kept %d: %d instances created for 2 jobs", kept, g_creates);
        if (kept) {
            czk_engine_source_release(e, &src);
            CHECK_EQ_U64(g_destroys, 1);
        }
    }
    czk_engine_destroy(e);
    czk_witness_source_close(&src);
}

/* The urgent lane: with urgent_priority set, a task of that priority is
 * synthesized and proven while the only regular synthesis worker is held
 * (a gate in the low-priority job's synthesis) by a worker of the lane;
 * without it, the urgent task waits for the held worker. */
static int all_proven(czk_engine *e, uint64_t job, uint32_t parts)
{
    czk_engine_event *ev;
    size_t n;
    if (czk_engine_job_events(e, job, &ev, &n) != CZK_OK) return 0;
    uint32_t done = 0;
    for (size_t i = 0; i < n; i++) done += ev[i].prove_end >= 0;
    free(ev);
    return done == parts;
}

/* Threads of this process whose nice value (field 19 of /proc/self/task/T/stat) is v. */
static int threads_at_nice(int v)
{
    DIR *d = opendir("/proc/self/task");
    if (!d) return -1;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/self/task/%s/stat", de->d_name);
        FILE *f = fopen(path, "r");
        if (!f) continue;
        size_t got = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[got] = 0;
        const char *q = strrchr(buf, ')'); /* after the command name: state is field 3 */
        int field = 2, nice = 0, ok = 0;
        for (; q && *q; q++)
            if (*q == ' ' && ++field == 19) {
                ok = sscanf(q + 1, "%d", &nice) == 1;
                break;
            }
        n += ok && nice == v;
    }
    closedir(d);
    return n;
}

CZK_TEST(urgent_lane_runs_beside_held_work)
{
    get_params();
    for (int lane = 1; lane >= 0; lane--) {
        pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
        pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
        volatile int gate = 0;
        inst low, urg;
        memset(&low, 0, sizeof low);
        memset(&urg, 0, sizeof urg);
        low.value_seed = 601;
        low.gate = &gate;
        low.gate_mu = &mu;
        low.gate_cv = &cv;
        urg.value_seed = 602;
        /* the regular workers lower their priority beside the lane only */
        volatile int nice_low = -100, nice_urg = -100;
        low.nice_seen = &nice_low;
        urg.nice_seen = &nice_urg;
        const int base = getpriority(PRIO_PROCESS, 0), bg = 7;
        const int want_low = lane ? (base + bg > 19 ? 19 : base + bg) : base;
        czk_engine_opts o = {0};
        o.synth_workers = 1;
        o.prove_workers = 1;
        o.prove_threads = 1;
        o.urgent_priority = lane ? 4 : 0;
        o.background_nice = bg;
        o.rng = czk_test_rng();
        czk_engine *e;
        REQUIRE_OK(czk_engine_create(&e, &o));
        czk_engine_job jl = make_job(&low, 1, 0), ju = make_job(&urg, 2, 4);
        uint64_t lid, uid;
        REQUIRE_OK(czk_engine_submit(e, &lid, &jl));
        for (int started = 0; !started;) { /* the regular worker holds the low job */
            czk_engine_event *ev;
            size_t nev;
            REQUIRE_OK(czk_engine_events(e, &ev, &nev));
            started = nev > 0 && ev[0].synth_start >= 0;
            free(ev);
            if (!started) sched_yield();
        }
        REQUIRE_OK(czk_engine_submit(e, &uid, &ju));
        /* with the lane the urgent job completes while the gate is shut (up
         * to 60 s); without it nothing of it starts in 0.5 s */
        double t0 = czk_now(), limit = lane ? 60 : 0.5;
        int proven = 0;
        while (!proven && czk_now() - t0 < limit) {
            proven = all_proven(e, uid, 2);
            if (!proven) nanosleep(&(struct timespec){0, 2000000}, NULL);
        }
        czk_engine_event *ev;
        size_t nev;
        REQUIRE_OK(czk_engine_job_events(e, uid, &ev, &nev));
        REQUIRE(nev == 2);
        CHECK_MSG(nice_low == want_low, "regular synthesis worker at nice %d, want %d (base %d)", nice_low, want_low,
                  base);
        if (lane) {
            CHECK_MSG(proven, "the urgent job was not proven beside the held worker");
            for (size_t i = 0; i < nev; i++) CHECK_EQ_U64((uint64_t)ev[i].synth_worker, 1); /* the lane's */
            CHECK_MSG(nice_urg == base, "the lane's synthesis worker at nice %d, want %d", nice_urg, base);
            /* the regular prover too: two threads at least (synthesis, prover) at the lowered value */
            if (want_low != base)
                CHECK_MSG(threads_at_nice(want_low) >= 2, "fewer than 2 threads at nice %d", want_low);
        } else {
            CHECK(!proven);
            CHECK(ev[0].synth_start < 0 && ev[1].synth_start < 0);
        }
        free(ev);
        pthread_mutex_lock(&mu);
        gate = 1;
        pthread_cond_broadcast(&cv);
        pthread_mutex_unlock(&mu);
        czk_groth16_proof pl[1], pu[2];
        CHECK_OK(czk_engine_wait(e, uid, pu, 2));
        CHECK_OK(czk_engine_wait(e, lid, pl, 1));
        check_proofs(&urg, pu, 2);
        check_proofs(&low, pl, 1);
        REQUIRE_OK(czk_engine_job_events(e, uid, &ev, &nev));
        czk_engine_event *el;
        size_t nel;
        REQUIRE_OK(czk_engine_job_events(e, lid, &el, &nel));
        REQUIRE(nev == 2 && nel == 1);
        if (lane) CHECK(ev[1].prove_end < el[0].synth_end); /* done before the held synthesis ended */
        else CHECK(ev[0].synth_start >= el[0].synth_end);  /* started after it */
        free(ev);
        free(el);
        czk_engine_destroy(e);
    }
}
