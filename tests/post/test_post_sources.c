/* The FallbackPoSt circuit's parallel synthesis and PCE: the parallel
 * prover's assignment (sectors split across threads) and the PCE's (parallel
 * witness + sparse mat-vec) equal the sequential PROVE backend's bit for bit
 * (input, aux, a, b, c, densities) on custom and production shapes, short
 * partitions, every thread count and two LC variants; the streamed
 * validation agrees; an altered witness fails the a*b = c check naming a
 * row; a PCE of another shape is refused by name; the kinds' three sources
 * give the same proof bytes under one proof-randomness stream. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/kind.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"

static int asan(void)
{
    return getenv("CZK_TEST_ASAN") != NULL;
}

/* The sequential PROVE synthesis of v (the reference). */
static czk_cs *prove_seq(const czk_post_vanilla *v, czk_lc_kind lc)
{
    czk_post_counts n;
    czk_post_circuit_counts(&n, &v->shape);
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    czk_cs *cs = NULL;
    if (czk_cs_create(&cs, CZK_CS_PROVE, lc, &z) != CZK_OK) return NULL;
    if (czk_post_synthesize(cs, &v->shape, v) != CZK_OK || czk_cs_finalize(cs) != CZK_OK) {
        czk_cs_destroy(cs);
        return NULL;
    }
    return cs;
}

static int same_bits(const uint64_t *a, const uint64_t *b, size_t nbits)
{
    for (size_t i = 0; i < nbits / 64; i++)
        if (a[i] != b[i]) return 0;
    if (nbits % 64) {
        uint64_t m = ((uint64_t)1 << (nbits % 64)) - 1;
        if ((a[nbits / 64] ^ b[nbits / 64]) & m) return 0;
    }
    return 1;
}

static void check_same(const czk_cs_assignment *got, const czk_cs_assignment *want, const char *what)
{
    CHECK_EQ_U64(got->n_input, want->n_input);
    CHECK_EQ_U64(got->n_aux, want->n_aux);
    CHECK_EQ_U64(got->n_constraints, want->n_constraints);
    if (got->n_input != want->n_input || got->n_aux != want->n_aux || got->n_constraints != want->n_constraints)
        return;
    const size_t fr = sizeof(czk_fr);
    CHECK_MSG(!memcmp(got->input, want->input, got->n_input * fr), "%s: input differs", what);
    CHECK_MSG(!memcmp(got->aux, want->aux, got->n_aux * fr), "%s: aux differs", what);
    CHECK_MSG(!memcmp(got->a, want->a, got->n_constraints * fr), "%s: a differs", what);
    CHECK_MSG(!memcmp(got->b, want->b, got->n_constraints * fr), "%s: b differs", what);
    CHECK_MSG(!memcmp(got->c, want->c, got->n_constraints * fr), "%s: c differs", what);
    CHECK_MSG(same_bits(got->a_aux_density, want->a_aux_density, got->n_aux), "%s: A-aux density", what);
    CHECK_MSG(same_bits(got->b_aux_density, want->b_aux_density, got->n_aux), "%s: B-aux density", what);
    CHECK_MSG(same_bits(got->b_input_density, want->b_input_density, got->n_input), "%s: B-input density", what);
    CHECK_EQ_U64(got->a_aux_popcount, want->a_aux_popcount);
    CHECK_EQ_U64(got->b_aux_popcount, want->b_aux_popcount);
    CHECK_EQ_U64(got->b_input_popcount, want->b_input_popcount);
}

/* Open kind k's source (parallel or PCE), synthesize v on `threads`
 * threads, compare with want; the instance is checked (a*b = c). */
static void source_matches(const czk_post_vanilla *v, int pce, czk_lc_kind lc, int threads,
                           const czk_cs_assignment *want, const char *what)
{
    czk_source_opts o;
    memset(&o, 0, sizeof o);
    o.lc = lc;
    o.parallel = !pce;
    o.pce = pce ? CZK_PCE_MODE_ON : CZK_PCE_MODE_OFF;
    czk_witness_source src;
    REQUIRE_OK(czk_kind_source_open(&src, czk_post_proof_kind(v->shape.kind), v, &o));
    CHECK(!strcmp(src.ops->name, pce ? "pce" : "parallel"));
    CHECK(src.ops->multithreaded == 1);
    if (pce) CHECK(src.shared_bytes > 0);
    czk_post_counts n;
    czk_post_circuit_counts(&n, &v->shape);
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    CHECK(src.ops->bytes(&src, &z) >= z.n_constraints * 3 * sizeof(czk_fr));
    czk_witness *w;
    REQUIRE_OK(src.ops->create(&w, &src, &z));
    for (int rep = 0; rep < 2; rep++) { /* the instance is reused */
        czk_status st = src.ops->synthesize(w, v, 0, threads);
        CHECK_MSG(st == CZK_OK, "%s: %s", what, czk_last_error());
        if (st != CZK_OK) break;
        CHECK_OK(src.ops->check(w, threads));
        czk_cs_assignment got;
        REQUIRE_OK(src.ops->get(w, &got));
        char d[160];
        snprintf(d, sizeof d, "%s, %s, %d threads, pass %d", what, pce ? "pce" : "parallel", threads, rep);
        check_same(&got, want, d);
    }
    CHECK(src.ops->synthesize(w, v, 1, threads) == CZK_ERR_INVALID_ARG);
    /* the streamed prover's ops: PCE offers the witness alone, then one
     * matrix at a time into a padded vector; the rows checked in windows */
    CHECK(!src.ops->synthesize_witness == !pce && !src.ops->fill == !pce);
    if (pce) {
        REQUIRE_OK(src.ops->synthesize_witness(w, v, 0, threads));
        CHECK_OK(src.ops->check(w, threads));
        czk_cs_assignment lean;
        REQUIRE_OK(src.ops->get(w, &lean));
        CHECK(!lean.a && !lean.b && !lean.c);
        CHECK_EQ_U64(lean.n_aux, want->n_aux);
        CHECK(memcmp(lean.aux, want->aux, want->n_aux * sizeof(czk_fr)) == 0);
        size_t m = 1;
        while (m < want->n_constraints + 3) m <<= 1;
        czk_fr *vec = malloc(m * sizeof *vec);
        REQUIRE(vec);
        for (int which = 0; which < 3; which++) {
            for (size_t i = 0; i < m; i++) vec[i] = CZK_FR_ONE; /* the padding must be overwritten */
            REQUIRE_OK(src.ops->fill(w, which, vec, m, threads));
            const czk_fr *ref = which == 0 ? want->a : which == 1 ? want->b : want->c;
            CHECK_MSG(memcmp(vec, ref, want->n_constraints * sizeof(czk_fr)) == 0, "%s: fill %d", what, which);
            int zero = 1;
            for (size_t i = want->n_constraints; i < m; i++) zero &= czk_fr_is_zero(&vec[i]);
            CHECK_MSG(zero, "%s: fill %d: padding not zero", what, which);
        }
        CHECK(src.ops->fill(w, 3, vec, m, threads) == CZK_ERR_INVALID_ARG);
        CHECK(src.ops->fill(w, 0, vec, want->n_constraints - 1, threads) == CZK_ERR_INVALID_ARG);
        free(vec);
        /* a wrong aux value: the windowed check names an unsatisfied row */
        czk_fr *aux = (czk_fr *)(uintptr_t)lean.aux, saved = aux[lean.n_aux / 2];
        czk_fr_add(&aux[lean.n_aux / 2], &saved, &CZK_FR_ONE);
        CHECK(src.ops->check(w, threads) == CZK_ERR_UNSATISFIED);
        CHECK(strstr(czk_last_error(), "is not satisfied") != NULL);
        aux[lean.n_aux / 2] = saved;
        CHECK_OK(src.ops->check(w, threads));
    }
    src.ops->destroy(w);
    czk_witness_source_close(&src);
}

/* Shapes: custom single-level, custom base+sub+top (8,4,2), a short
 * partition, and the 2KiB production Window and Winning shapes. */
typedef struct shape_case {
    const char *name;
    int production;
    czk_post_kind kind;
    uint64_t nodes_or_size;
    uint32_t base, sub, top, sectors, challenges, n;
} shape_case;

static const shape_case cases[] = {
    {"custom window 64 x 8", 0, CZK_POST_WINDOW, 64, 8, 0, 0, 4, 2, 4},
    {"custom window 8,4,2", 0, CZK_POST_WINDOW, 512, 8, 4, 2, 3, 3, 3},
    {"custom window short (2 of 5)", 0, CZK_POST_WINDOW, 64, 8, 0, 0, 5, 2, 2},
    {"custom winning 8,8", 0, CZK_POST_WINNING, 512, 8, 8, 0, 6, 1, 1},
    {"2KiB window", 1, CZK_POST_WINDOW, 2048, 0, 0, 0, 0, 0, 2},
    {"2KiB winning", 1, CZK_POST_WINNING, 2048, 0, 0, 0, 0, 0, 1},
};

static czk_status case_shape(czk_post_shape *s, const shape_case *c)
{
    if (c->production) return czk_post_shape_of(s, c->kind, c->nodes_or_size);
    return czk_post_shape_custom(s, c->kind, c->nodes_or_size, c->base, c->sub, c->top, c->sectors, c->challenges);
}

CZK_TEST(post_parallel_and_pce_equal_sequential)
{
    char dir[] = "/tmp/czk-post-pce.XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    setenv("CZK_CACHE_DIR", dir, 1);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        czk_post_shape s;
        REQUIRE_OK(case_shape(&s, &cases[i]));
        czk_post_vanilla v;
        REQUIRE_OK(czk_post_gen_vanilla(&v, &s, czk_rng_u64(czk_test_rng()), NULL));
        v.n = cases[i].n; /* the generator's last sectors go unused when short */
        for (int l = 0; l < 2; l++) {
            const czk_lc_kind lc = l ? CZK_LC_INLINE2 : CZK_LC_VEC;
            czk_cs *cs = prove_seq(&v, lc);
            REQUIRE(cs != NULL);
            czk_cs_assignment want;
            REQUIRE_OK(czk_cs_prove_get(cs, &want));
            for (int t = 1; t <= 3; t++) {
                source_matches(&v, 0, lc, t, &want, cases[i].name);
                if (l == 0) source_matches(&v, 1, lc, t, &want, cases[i].name);
            }
            czk_cs_destroy(cs);
        }
        /* the PCE was cached by the first open: auto finds it */
        CHECK(czk_kind_pce_cached(czk_post_proof_kind(s.kind), &s));
        czk_post_gen_vanilla_free(&v);
    }
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    unsetenv("CZK_CACHE_DIR");
}

/* The workspace API: witness + eval = PROVE; the streamed validation agrees;
 * an altered sibling makes the witness unsatisfying (named row), and the
 * streamed validation still compares equal (both syntheses see the same
 * witness); a PCE of another shape is refused. */
CZK_TEST(post_pce_workspace_validate_and_refusals)
{
    czk_post_shape s, other;
    REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINDOW, 512, 8, 8, 0, 4, 3));
    REQUIRE_OK(czk_post_shape_custom(&other, CZK_POST_WINDOW, 512, 8, 8, 0, 5, 3));
    czk_pce *p, *q;
    REQUIRE_OK(czk_kind_pce_build(&p, czk_post_proof_kind(s.kind), &s, NULL, NULL));
    REQUIRE_OK(czk_kind_pce_build(&q, czk_post_proof_kind(other.kind), &other, NULL, NULL));
    czk_pce_info info;
    czk_pce_info_get(p, &info);
    czk_post_counts n;
    czk_post_circuit_counts(&n, &s);
    CHECK_EQ_U64(info.rows, n.constraints + n.inputs);
    CHECK_EQ_U64(info.n_inputs, n.inputs);
    CHECK_EQ_U64(info.cols, n.inputs + n.aux);
    char key[CZK_PCE_KEY_MAX];
    czk_kind_pce_key(key, &czk_kind_window_post, &s);
    CHECK(!strcmp(info.key, key));

    czk_post_vanilla v;
    REQUIRE_OK(czk_post_gen_vanilla(&v, &s, czk_rng_u64(czk_test_rng()), NULL));
    czk_pce_work *w;
    REQUIRE_OK(czk_pce_work_create(&w, p));
    REQUIRE_OK(czk_kind_pce_witness(w, czk_post_proof_kind(v.shape.kind), &v, 0, 2));
    czk_cs_assignment got;
    REQUIRE_OK(czk_pce_work_eval(w, 2, &got));
    CHECK_OK(czk_pce_check(&got, 2));
    czk_cs *cs = prove_seq(&v, CZK_LC_VEC);
    REQUIRE(cs != NULL);
    czk_cs_assignment want;
    REQUIRE_OK(czk_cs_prove_get(cs, &want));
    CHECK_OK(czk_pce_work_compare(w, &want, 0));
    CHECK_OK(czk_kind_pce_validate(w, czk_post_proof_kind(v.shape.kind), &v, 0, 1));
    CHECK_OK(czk_kind_pce_validate(w, czk_post_proof_kind(v.shape.kind), &v, 0, 3));
    CHECK(czk_post_pce_validate_bytes(w, &s, 2) > (n.inputs + n.aux) * sizeof(czk_fr));
    czk_cs_destroy(cs);

    /* a workspace of another shape's PCE */
    czk_pce_work *wq;
    REQUIRE_OK(czk_pce_work_create(&wq, q));
    CHECK(czk_kind_pce_witness(wq, czk_post_proof_kind(v.shape.kind), &v, 0, 2) == CZK_ERR_INVALID_ARG);
    CHECK_MSG(strstr(czk_last_error(), "sectors=5") && strstr(czk_last_error(), "sectors=4"), "message: %s",
              czk_last_error());
    czk_pce_work_destroy(wq);

    /* an altered sibling: the witness no longer satisfies the circuit */
    v.proofs[1].inclusion[2].siblings[0].l[0] ^= 1;
    REQUIRE_OK(czk_kind_pce_witness(w, czk_post_proof_kind(v.shape.kind), &v, 0, 2));
    REQUIRE_OK(czk_pce_work_eval(w, 2, &got));
    CHECK(czk_pce_check(&got, 2) == CZK_ERR_UNSATISFIED);
    CHECK_MSG(strstr(czk_last_error(), "constraint ") != NULL, "message: %s", czk_last_error());
    CHECK_OK(czk_kind_pce_validate(w, czk_post_proof_kind(v.shape.kind), &v, 0, 2));
    v.proofs[1].inclusion[2].siblings[0].l[0] ^= 1;

    czk_pce_work_destroy(w);
    czk_pce_destroy(p);
    czk_pce_destroy(q);
    czk_post_gen_vanilla_free(&v);
}

/* A cached file of the right name but another circuit's key is rebuilt, not
 * used. */
CZK_TEST(post_pce_cache_rebuilds_a_mismatched_file)
{
    if (asan()) {
        printf("  note: skipped under ASan (covered by the Release run)\n");
        return;
    }
    char dir[] = "/tmp/czk-post-pcec.XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    setenv("CZK_CACHE_DIR", dir, 1);
    czk_post_shape s, other;
    REQUIRE_OK(czk_post_shape_custom(&s, CZK_POST_WINDOW, 64, 8, 0, 0, 2, 2));
    REQUIRE_OK(czk_post_shape_custom(&other, CZK_POST_WINDOW, 64, 8, 0, 0, 3, 2));
    char path[600], opath[600];
    REQUIRE_OK(czk_kind_pce_path(path, sizeof path, czk_post_proof_kind(s.kind), &s));
    REQUIRE_OK(czk_kind_pce_path(opath, sizeof opath, czk_post_proof_kind(other.kind), &other));
    CHECK(strcmp(path, opath) != 0);
    CHECK(!czk_kind_pce_cached(czk_post_proof_kind(s.kind), &s));
    czk_pce *p;
    int built = 0;
    REQUIRE_OK(czk_kind_pce_get(&p, czk_post_proof_kind(other.kind), &other, NULL, NULL, &built));
    CHECK(built == 1);
    czk_pce_destroy(p);
    /* other's file under s's name */
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", opath, path);
    REQUIRE(system(cmd) == 0);
    REQUIRE_OK(czk_kind_pce_get(&p, czk_post_proof_kind(s.kind), &s, NULL, NULL, &built));
    CHECK(built == 1);
    char key[CZK_PCE_KEY_MAX];
    czk_kind_pce_key(key, &czk_kind_window_post, &s);
    czk_pce_info info;
    czk_pce_info_get(p, &info);
    CHECK(!strcmp(info.key, key));
    czk_pce_destroy(p);
    REQUIRE_OK(czk_kind_pce_get(&p, czk_post_proof_kind(s.kind), &s, NULL, NULL, &built));
    CHECK(built == 0);
    czk_pce_destroy(p);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    unsetenv("CZK_CACHE_DIR");
}
