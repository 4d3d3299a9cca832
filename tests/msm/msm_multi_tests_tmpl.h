/* The multi-scalar-set MSM tests of one group (czk_msm_*_var_multi), written
 * once over the group descriptor (src/ec/group.h) and included by
 * test_msm_multi.c for G1 and for G2 (no include guard): k scalar vectors
 * over the same bases in one bucket pass, against k separate czk_msm_*_var
 * calls and the naive reference, with density masks, edge scalars (0, 1,
 * r - 1, equal and opposite sets), infinity / duplicate / negated bases,
 * every kernel and several thread counts and windows; plus its plan,
 * scratch and errors. */
#include "msm_group_util_tmpl.h"

/* msm_multi_g1_<name> / msm_multi_g2_<name> */
#define MT(name) G_CAT(G_CAT(msm_multi_, G_ID), G_CAT(_, name))

BOTH_KERNELS_TEST(MT(vs_single_and_ref))
{
    czk_rng *rng = czk_test_rng();
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 64, 200, 1000, 3000};
    size_t nmax = (asan() ? 200 : 3000) / MT_DIV;
    AFF *bases = xmalloc(nmax * sizeof *bases);
    czk_fr *s[MAXK];
    for (size_t t = 0; t < MAXK; t++) s[t] = xmalloc(nmax * sizeof **s);
    uint64_t *dens = xmalloc((nmax / 64 + 1) * sizeof *dens);
    G_LOCAL(random_bases)(bases, nmax, rng);
    size_t rounds = czk_test_iters(asan() ? 1 : 2);
    for (size_t r = 0; r < rounds; r++) {
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && sizes[si] <= nmax; si++) {
            size_t n = sizes[si];
            size_t k = 1 + (size_t)czk_rng_below(rng, MAXK);
            make_sets(s, k, n, rng);
            unsigned pct = (unsigned)czk_rng_below(rng, 3) == 0 ? 100 : (unsigned)czk_rng_below(rng, 101);
            const uint64_t *dp = NULL;
            size_t m = n;
            if (pct < 100 || czk_rng_below(rng, 2)) {
                m = make_density(dens, n, pct, rng);
                dp = dens;
            }
            int threads = 1 + (int)czk_rng_below(rng, 3);
            czk_msm_algo algo = (czk_msm_algo)czk_rng_below(rng, 3);
            unsigned window = czk_rng_below(rng, 3) == 0 ? 1 + (unsigned)czk_rng_below(rng, 12) : 0;
            czk_msm_opts o = opts_of(threads, window, algo);
            JAC got[MAXK], one;
            czk_status st = G_MSM(var_multi)(got, k, bases, m, (const czk_fr *const *)s, n, dp, &o);
            CHECK_MSG(st == CZK_OK, "%s n=%zu k=%zu: status %d (%s)", G_STR, n, k, (int)st, czk_last_error());
            if (st != CZK_OK) continue;
            for (size_t t = 0; t < k; t++) {
                REQUIRE_OK(G_MSM(var)(&one, bases, m, s[t], n, dp, &o));
                CHECK_MSG(G_FN(jac_eq)(&got[t], &one),
                          "%s n=%zu m=%zu k=%zu set %zu threads=%d c=%u algo=%d: multi != single", G_STR, n, m, k, t,
                          threads, window, (int)algo);
                if (n <= 200 / MT_DIV) {
                    REQUIRE_OK(G_MSM(ref)(&one, bases, m, s[t], n, dp));
                    CHECK_MSG(G_FN(jac_eq)(&got[t], &one), "%s n=%zu k=%zu set %zu: multi != ref", G_STR, n, k, t);
                }
            }
        }
    }
    /* every kernel and a spread of windows on one input, 4 sets */
    size_t n = (asan() ? 100 : 700) / MT_DIV;
    make_sets(s, MAXK, n, rng);
    JAC want[MAXK], got[MAXK];
    for (size_t t = 0; t < MAXK; t++) REQUIRE_OK(G_MSM(ref)(&want[t], bases, n, s[t], n, NULL));
    static const unsigned cs[] = {0, 1, 2, 5, 8, 11, 14};
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
        for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
            czk_msm_opts o = opts_of(2, cs[ci], (czk_msm_algo)a);
            REQUIRE_OK(G_MSM(var_multi)(got, MAXK, bases, n, (const czk_fr *const *)s, n, NULL, &o));
            for (size_t t = 0; t < MAXK; t++)
                CHECK_MSG(G_FN(jac_eq)(&got[t], &want[t]), "%s c=%u algo=%d set %zu: multi != ref", G_STR, cs[ci], a,
                          t);
        }
    }
    free(bases);
    for (size_t t = 0; t < MAXK; t++) free(s[t]);
    free(dens);
}

/* Plan and scratch of the multi call; caller scratch; argument errors. */
BOTH_KERNELS_TEST(MT(plan_scratch_errors))
{
    czk_rng *rng = czk_test_rng();
    size_t n = 300 / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases);
    czk_fr *s[MAXK];
    for (size_t t = 0; t < MAXK; t++) s[t] = xmalloc(n * sizeof **s);
    G_LOCAL(random_bases)(bases, n, rng);
    make_sets(s, MAXK, n, rng);
    const czk_fr *const *cs = (const czk_fr *const *)s;

    czk_msm_plan p1, pk;
    czk_msm_opts o = opts_of(2, 0, CZK_MSM_AUTO);
    G_MSM(plan)(&p1, 1u << 16, &o);
    G_MSM(multi_plan)(&pk, 1u << 16, 1, &o);
    CHECK_EQ_U64(pk.scratch, p1.scratch);
    CHECK_EQ_U64(pk.window, p1.window);
    CHECK_EQ_U64(p1.sets, 1);
    G_MSM(multi_plan)(&pk, 1u << 16, 4, &o);
    CHECK_EQ_U64(pk.sets, 4);
    CHECK_EQ_U64(G_MSM(multi_scratch_size)(1u << 16, 4, &o), pk.scratch);
    CHECK_MSG(pk.scratch > p1.scratch, "4 sets need more scratch (%zu) than 1 (%zu)", pk.scratch, p1.scratch);
    CHECK_MSG(pk.cost < 4 * p1.cost, "model: one pass over 4 sets (%g) should beat 4 passes (%g)", pk.cost,
              4 * p1.cost);
    G_MSM(multi_plan)(&pk, 5000, 3, &o);
    CHECK_EQ_U64(G_MSM(multi_scratch_size)(5000, 3, &o), pk.scratch);

    JAC want[MAXK], got[MAXK];
    for (size_t t = 0; t < MAXK; t++) REQUIRE_OK(G_MSM(var)(&want[t], bases, n, s[t], n, NULL, NULL));
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        o = opts_of(2, 0, (czk_msm_algo)a);
        size_t sz = G_MSM(multi_scratch_size)(n, 3, &o);
        void *mem = aligned_alloc(64, (sz + 64 + 63) & ~(size_t)63);
        REQUIRE(mem);
        memset(mem, 0x5a, sz);
        o.scratch = mem;
        o.scratch_size = sz;
        REQUIRE_OK(G_MSM(var_multi)(got, 3, bases, n, cs, n, NULL, &o));
        for (size_t t = 0; t < 3; t++) CHECK_MSG(G_FN(jac_eq)(&got[t], &want[t]), "caller scratch set %zu", t);
        o.scratch_size = sz - 1;
        CHECK(G_MSM(var_multi)(got, 3, bases, n, cs, n, NULL, &o) == CZK_ERR_INVALID_ARG);
        CHECK(strstr(czk_last_error(), "scratch") != NULL);
        for (size_t t = 0; t < 3; t++) CHECK(G_FN(jac_is_inf)(&got[t]));
        free(mem);
    }
    /* nothing to do */
    CHECK_OK(G_MSM(var_multi)(NULL, 0, bases, n, NULL, n, NULL, NULL));
    CHECK_OK(G_MSM(var_multi)(got, 2, NULL, 0, cs, 0, NULL, NULL));
    CHECK(G_FN(jac_is_inf)(&got[0]) && G_FN(jac_is_inf)(&got[1]));
    /* errors name the argument */
    CHECK(G_MSM(var_multi)(got, CZK_MSM_MAX_SETS + 1, bases, n, cs, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "nsets") != NULL);
    CHECK(G_MSM(var_multi)(NULL, 2, bases, n, cs, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(G_MSM(var_multi)(got, 2, bases, n, NULL, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "scalars") != NULL);
    const czk_fr *holes[2] = {s[0], NULL};
    CHECK(G_MSM(var_multi)(got, 2, bases, n, holes, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "scalars[1]") != NULL);
    CHECK(G_FN(jac_is_inf)(&got[0]));
    CHECK(G_MSM(var_multi)(got, 2, bases, n - 1, cs, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "nbases") != NULL);
    uint64_t dens[(300 + 63) / 64];
    size_t m = make_density(dens, n, 50, rng);
    CHECK(G_MSM(var_multi)(got, 2, bases, m + 1, cs, n, dens, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "density") != NULL);
    CHECK(strstr(czk_last_error(), "czk_msm_" G_STR "_var_multi") != NULL);
    free(bases);
    for (size_t t = 0; t < MAXK; t++) free(s[t]);
}

#undef MT
#undef MT_DIV
