/* The EmptySectorUpdate circuit's parallel synthesis and PCE: the parallel
 * prover's assignment (challenges split across threads) and the PCE's
 * (parallel witness + sparse mat-vec) equal the sequential PROVE backend's
 * bit for bit (input, aux, a, b, c, densities) for the real 2KiB update,
 * a generated custom shape (2 partitions: both) and 1 .. 3 threads; the
 * streamed validation agrees; a PCE of another shape is refused by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runner.h"

#include "czk/czk.h"
#include "czk/kind.h"
#include "czk/snap_kind.h"

static int asan(void)
{
    return getenv("CZK_TEST_ASAN") != NULL;
}

static czk_cs *prove_seq(const czk_snap_vanilla *v, uint32_t k, czk_lc_kind lc)
{
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, &v->shape);
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    czk_cs *cs = NULL;
    if (czk_cs_create(&cs, CZK_CS_PROVE, lc, &z) != CZK_OK) return NULL;
    if (czk_snap_synthesize(cs, &v->shape, v, k) != CZK_OK || czk_cs_finalize(cs) != CZK_OK) {
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

/* The kind's parallel or PCE source synthesizes partition k of v on
 * `threads` threads (twice: the instance is reused) as want. */
static void source_matches(const czk_snap_vanilla *v, uint32_t k, int pce, int threads, const czk_cs_assignment *want,
                           const char *what)
{
    czk_source_opts o;
    memset(&o, 0, sizeof o);
    o.lc = CZK_LC_DEFAULT;
    o.parallel = !pce;
    o.pce = pce ? CZK_PCE_MODE_ON : CZK_PCE_MODE_OFF;
    czk_witness_source src;
    REQUIRE_OK(czk_kind_source_open(&src, &czk_kind_snap, v, &o));
    CHECK(!strcmp(src.ops->name, pce ? "pce" : "parallel"));
    czk_snap_counts n;
    czk_snap_circuit_counts(&n, &v->shape);
    const czk_cs_sizes z = {n.inputs, n.aux, n.constraints + n.inputs};
    czk_witness *w;
    REQUIRE_OK(src.ops->create(&w, &src, &z));
    for (int rep = 0; rep < 2; rep++) {
        czk_status st = src.ops->synthesize(w, v, k, threads);
        CHECK_MSG(st == CZK_OK, "%s: %s", what, czk_last_error());
        if (st != CZK_OK) break;
        CHECK_OK(src.ops->check(w, threads));
        czk_cs_assignment got;
        REQUIRE_OK(src.ops->get(w, &got));
        char d[160];
        snprintf(d, sizeof d, "%s, partition %u, %s, %d threads, pass %d", what, k, pce ? "pce" : "parallel",
                 threads, rep);
        check_same(&got, want, d);
    }
    CHECK(src.ops->synthesize(w, v, v->n, threads) == CZK_ERR_INVALID_ARG);
    src.ops->destroy(w);
    czk_witness_source_close(&src);
}

static void vectors_dir(char *out, size_t n)
{
    snprintf(out, n, "%s/tests/filecoin/vectors", CZK_SOURCE_DIR);
}

CZK_TEST(snap_parallel_and_pce_equal_sequential)
{
    char dir[] = "/tmp/czk-snap-pce.XXXXXX";
    REQUIRE(mkdtemp(dir) != NULL);
    setenv("CZK_CACHE_DIR", dir, 1);
    /* the real 2KiB update, and a generated 16KiB one (2 partitions, tree 8,8) */
    for (int which = 0; which < 2; which++) {
        if (which == 1 && asan()) break;
        czk_snap_vanilla v;
        if (which == 0) {
            char vd[4200];
            czk_snap_json m;
            vectors_dir(vd, sizeof vd);
            REQUIRE_OK(czk_snap_dir_read(&v, &m, vd));
        } else {
            czk_snap_shape s;
            REQUIRE_OK(czk_snap_shape_custom(&s, 512, 8, 8, 0));
            REQUIRE_OK(czk_snap_gen(&v, &s, 77));
        }
        const char *what = which == 0 ? "real 2KiB update" : "generated 16KiB update";
        for (uint32_t k = 0; k < v.n; k++) {
            czk_cs *cs = prove_seq(&v, k, CZK_LC_DEFAULT);
            REQUIRE(cs);
            czk_cs_assignment want;
            REQUIRE_OK(czk_cs_prove_get(cs, &want));
            for (int t = which ? 2 : 1; t <= 3; t += asan() || which ? 2 : 1) {
                source_matches(&v, k, 0, t, &want, what);
                source_matches(&v, k, 1, t, &want, what);
            }
            czk_cs_destroy(cs);
        }
        /* the streamed validation of each partition, and a PCE of another
         * shape refused */
        czk_pce *p;
        REQUIRE_OK(czk_kind_pce_get(&p, &czk_kind_snap, &v.shape, NULL, NULL, NULL));
        CHECK(czk_kind_pce_cached(&czk_kind_snap, &v.shape));
        czk_pce_work *w;
        REQUIRE_OK(czk_pce_work_create(&w, p));
        for (uint32_t k = 0; k < v.n; k++) {
            REQUIRE_OK(czk_kind_pce_witness(w, &czk_kind_snap, &v, k, 2));
            CHECK_OK(czk_kind_pce_validate(w, &czk_kind_snap, &v, k, 2));
        }
        czk_snap_vanilla other;
        czk_snap_shape os;
        REQUIRE_OK(czk_snap_shape_custom(&os, 32, 8, 4, 0));
        REQUIRE_OK(czk_snap_gen(&other, &os, 5));
        CHECK(czk_kind_pce_witness(w, &czk_kind_snap, &other, 0, 2) == CZK_ERR_INVALID_ARG);
        CHECK_MSG(strstr(czk_last_error(), "snap nodes=32 tree=8,4,0") != NULL, "%s", czk_last_error());
        czk_snap_vanilla_free(&other);
        czk_pce_work_destroy(w);
        czk_pce_destroy(p);
        czk_snap_vanilla_free(&v);
    }
    unsetenv("CZK_CACHE_DIR");
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}
