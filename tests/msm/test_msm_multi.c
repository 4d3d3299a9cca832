/* Multi-scalar-set MSM (czk_msm_*_var_multi): k scalar vectors over the same
 * bases in one bucket pass, against k separate czk_msm_*_var calls and the
 * naive reference, with density masks, edge scalars (0, 1, r - 1, equal and
 * opposite sets), infinity / duplicate / negated bases, every kernel and
 * several thread counts and windows; plus its plan, scratch and errors. */
#include <stdlib.h>
#include <string.h>

#include "czk/msm.h"
#include "runner.h"

static int asan(void) { return getenv("CZK_TEST_ASAN") != NULL; }

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) abort();
    return p;
}

#define MAXK 4

/* Random G1 points r_i G, with duplicates, negations and infinity mixed in. */
static void g1_random_bases(czk_g1_affine *out, size_t n, czk_rng *rng)
{
    czk_g1_affine g;
    czk_g1_jac gj, *j = xmalloc(n * sizeof *j);
    czk_fp *scr = xmalloc(n * sizeof *scr);
    czk_fr k;
    czk_g1_generator(&g);
    czk_g1_jac_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        czk_fr_random(&k, rng);
        czk_g1_mul_var(&j[i], &gj, &k);
    }
    czk_g1_jac_batch_to_affine(out, j, n, scr);
    for (size_t i = 1; i < n; i++) {
        switch (czk_rng_below(rng, 16)) {
        case 0: out[i] = out[czk_rng_below(rng, i)]; break;
        case 1: czk_g1_affine_neg(&out[i], &out[czk_rng_below(rng, i)]); break;
        case 2: out[i].inf = 1; break;
        default: break;
        }
    }
    free(j);
    free(scr);
}

static void g2_random_bases(czk_g2_affine *out, size_t n, czk_rng *rng)
{
    czk_g2_affine g;
    czk_g2_jac gj, *j = xmalloc(n * sizeof *j);
    czk_fp2 *scr = xmalloc(n * sizeof *scr);
    czk_fr k;
    czk_g2_generator(&g);
    czk_g2_jac_from_affine(&gj, &g);
    for (size_t i = 0; i < n; i++) {
        czk_fr_random(&k, rng);
        czk_g2_mul_var(&j[i], &gj, &k);
    }
    czk_g2_jac_batch_to_affine(out, j, n, scr);
    for (size_t i = 1; i < n; i++) {
        switch (czk_rng_below(rng, 16)) {
        case 0: out[i] = out[czk_rng_below(rng, i)]; break;
        case 1: czk_g2_affine_neg(&out[i], &out[czk_rng_below(rng, i)]); break;
        case 2: out[i].inf = 1; break;
        default: break;
        }
    }
    free(j);
    free(scr);
}

/* Scalar set t: uniform, edge-biased, a copy of set 0, or the negation of set 0. */
static void make_sets(czk_fr *s[MAXK], size_t k, size_t n, czk_rng *rng)
{
    for (size_t t = 0; t < k; t++) {
        unsigned kind = t == 0 ? 1 : (unsigned)czk_rng_below(rng, 4);
        for (size_t i = 0; i < n; i++) {
            switch (kind) {
            case 0: czk_fr_random(&s[t][i], rng); break;
            case 1:
                switch (czk_rng_below(rng, 8)) {
                case 0: s[t][i] = CZK_FR_ZERO; break;
                case 1: s[t][i] = CZK_FR_ONE; break;
                case 2: czk_fr_neg(&s[t][i], &CZK_FR_ONE); break;
                case 3: czk_fr_from_u64(&s[t][i], czk_rng_below(rng, 20)); break;
                default: czk_fr_random(&s[t][i], rng); break;
                }
                break;
            case 2: s[t][i] = s[0][i]; break;
            default: czk_fr_neg(&s[t][i], &s[0][i]); break;
            }
        }
    }
}

/* A random density mask over n scalars with about pct% set bits (stray bits
 * past n, which must be ignored); returns the popcount. */
static size_t make_density(uint64_t *dens, size_t n, unsigned pct, czk_rng *rng)
{
    size_t nw = (n + 63) / 64, m = 0;
    memset(dens, 0, (nw ? nw : 1) * sizeof *dens);
    for (size_t i = 0; i < n; i++)
        if (czk_rng_below(rng, 100) < pct) {
            dens[i / 64] |= 1ull << (i % 64);
            m++;
        }
    if (nw && n % 64) dens[nw - 1] |= ~0ull << (n % 64);
    return m;
}

static czk_msm_opts opts_of(int threads, unsigned window, czk_msm_algo algo)
{
    czk_msm_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.window = window;
    o.algo = algo;
    return o;
}

CZK_TEST(msm_multi_g1_vs_single_and_ref)
{
    czk_rng *rng = czk_test_rng();
    static const size_t sizes[] = {0, 1, 2, 3, 5, 17, 64, 200, 1000, 3000};
    size_t nmax = asan() ? 200 : 3000;
    czk_g1_affine *bases = xmalloc(nmax * sizeof *bases);
    czk_fr *s[MAXK];
    for (size_t t = 0; t < MAXK; t++) s[t] = xmalloc(nmax * sizeof **s);
    uint64_t *dens = xmalloc((nmax / 64 + 1) * sizeof *dens);
    g1_random_bases(bases, nmax, rng);
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
            czk_g1_jac got[MAXK], one;
            czk_status st = czk_msm_g1_var_multi(got, k, bases, m, (const czk_fr *const *)s, n, dp, &o);
            CHECK_MSG(st == CZK_OK, "n=%zu k=%zu: status %d (%s)", n, k, (int)st, czk_last_error());
            if (st != CZK_OK) continue;
            for (size_t t = 0; t < k; t++) {
                REQUIRE_OK(czk_msm_g1_var(&one, bases, m, s[t], n, dp, &o));
                CHECK_MSG(czk_g1_jac_eq(&got[t], &one),
                          "n=%zu m=%zu k=%zu set %zu threads=%d c=%u algo=%d: multi != single", n, m, k, t,
                          threads, window, (int)algo);
                if (n <= 200) {
                    REQUIRE_OK(czk_msm_g1_ref(&one, bases, m, s[t], n, dp));
                    CHECK_MSG(czk_g1_jac_eq(&got[t], &one), "n=%zu k=%zu set %zu: multi != ref", n, k, t);
                }
            }
        }
    }
    /* every kernel and a spread of windows on one input, 4 sets */
    size_t n = asan() ? 100 : 700;
    make_sets(s, MAXK, n, rng);
    czk_g1_jac want[MAXK], got[MAXK];
    for (size_t t = 0; t < MAXK; t++) REQUIRE_OK(czk_msm_g1_ref(&want[t], bases, n, s[t], n, NULL));
    static const unsigned cs[] = {0, 1, 2, 5, 8, 11, 14};
    for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++) {
        for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
            czk_msm_opts o = opts_of(2, cs[ci], (czk_msm_algo)a);
            REQUIRE_OK(czk_msm_g1_var_multi(got, MAXK, bases, n, (const czk_fr *const *)s, n, NULL, &o));
            for (size_t t = 0; t < MAXK; t++)
                CHECK_MSG(czk_g1_jac_eq(&got[t], &want[t]), "c=%u algo=%d set %zu: multi != ref", cs[ci], a, t);
        }
    }
    free(bases);
    for (size_t t = 0; t < MAXK; t++) free(s[t]);
    free(dens);
}

CZK_TEST(msm_multi_g2_vs_single_and_ref)
{
    czk_rng *rng = czk_test_rng();
    static const size_t sizes[] = {0, 1, 2, 7, 40, 300};
    size_t nmax = asan() ? 40 : 300;
    czk_g2_affine *bases = xmalloc(nmax * sizeof *bases);
    czk_fr *s[MAXK];
    for (size_t t = 0; t < MAXK; t++) s[t] = xmalloc(nmax * sizeof **s);
    uint64_t *dens = xmalloc((nmax / 64 + 1) * sizeof *dens);
    g2_random_bases(bases, nmax, rng);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && sizes[si] <= nmax; si++) {
        size_t n = sizes[si];
        size_t k = 1 + si % MAXK;
        make_sets(s, k, n, rng);
        size_t m = make_density(dens, n, si & 1 ? 60 : 100, rng);
        for (int a = CZK_MSM_AUTO; a <= CZK_MSM_BATCH_AFFINE; a++) {
            czk_msm_opts o = opts_of(1 + a % 2, a == CZK_MSM_AUTO ? 0 : 5, (czk_msm_algo)a);
            czk_g2_jac got[MAXK], one;
            REQUIRE_OK(czk_msm_g2_var_multi(got, k, bases, m, (const czk_fr *const *)s, n, dens, &o));
            for (size_t t = 0; t < k; t++) {
                REQUIRE_OK(czk_msm_g2_var(&one, bases, m, s[t], n, dens, &o));
                CHECK_MSG(czk_g2_jac_eq(&got[t], &one), "g2 n=%zu k=%zu set %zu algo=%d: multi != single", n, k,
                          t, a);
                if (n <= 40) {
                    REQUIRE_OK(czk_msm_g2_ref(&one, bases, m, s[t], n, dens));
                    CHECK_MSG(czk_g2_jac_eq(&got[t], &one), "g2 n=%zu k=%zu set %zu: multi != ref", n, k, t);
                }
            }
        }
    }
    free(bases);
    for (size_t t = 0; t < MAXK; t++) free(s[t]);
    free(dens);
}

/* Plan and scratch of the multi call; caller scratch; argument errors. */
CZK_TEST(msm_multi_plan_scratch_errors)
{
    czk_rng *rng = czk_test_rng();
    size_t n = 300;
    czk_g1_affine *bases = xmalloc(n * sizeof *bases);
    czk_fr *s[MAXK];
    for (size_t t = 0; t < MAXK; t++) s[t] = xmalloc(n * sizeof **s);
    g1_random_bases(bases, n, rng);
    make_sets(s, MAXK, n, rng);
    const czk_fr *const *cs = (const czk_fr *const *)s;

    czk_msm_plan p1, pk;
    czk_msm_opts o = opts_of(2, 0, CZK_MSM_AUTO);
    czk_msm_g1_plan(&p1, 1u << 16, &o);
    czk_msm_g1_multi_plan(&pk, 1u << 16, 1, &o);
    CHECK_EQ_U64(pk.scratch, p1.scratch);
    CHECK_EQ_U64(pk.window, p1.window);
    CHECK_EQ_U64(p1.sets, 1);
    czk_msm_g1_multi_plan(&pk, 1u << 16, 4, &o);
    CHECK_EQ_U64(pk.sets, 4);
    CHECK_EQ_U64(czk_msm_g1_multi_scratch_size(1u << 16, 4, &o), pk.scratch);
    CHECK_MSG(pk.scratch > p1.scratch, "4 sets need more scratch (%zu) than 1 (%zu)", pk.scratch, p1.scratch);
    CHECK_MSG(pk.cost < 4 * p1.cost, "model: one pass over 4 sets (%g) should beat 4 passes (%g)", pk.cost,
              4 * p1.cost);
    czk_msm_g2_multi_plan(&pk, 5000, 3, &o);
    CHECK_EQ_U64(czk_msm_g2_multi_scratch_size(5000, 3, &o), pk.scratch);

    czk_g1_jac want[MAXK], got[MAXK];
    for (size_t t = 0; t < MAXK; t++) REQUIRE_OK(czk_msm_g1_var(&want[t], bases, n, s[t], n, NULL, NULL));
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        o = opts_of(2, 0, (czk_msm_algo)a);
        size_t sz = czk_msm_g1_multi_scratch_size(n, 3, &o);
        void *mem = aligned_alloc(64, (sz + 64 + 63) & ~(size_t)63);
        REQUIRE(mem);
        memset(mem, 0x5a, sz);
        o.scratch = mem;
        o.scratch_size = sz;
        REQUIRE_OK(czk_msm_g1_var_multi(got, 3, bases, n, cs, n, NULL, &o));
        for (size_t t = 0; t < 3; t++) CHECK_MSG(czk_g1_jac_eq(&got[t], &want[t]), "caller scratch set %zu", t);
        o.scratch_size = sz - 1;
        CHECK(czk_msm_g1_var_multi(got, 3, bases, n, cs, n, NULL, &o) == CZK_ERR_INVALID_ARG);
        CHECK(strstr(czk_last_error(), "scratch") != NULL);
        for (size_t t = 0; t < 3; t++) CHECK(czk_g1_jac_is_inf(&got[t]));
        free(mem);
    }
    /* nothing to do */
    CHECK_OK(czk_msm_g1_var_multi(NULL, 0, bases, n, NULL, n, NULL, NULL));
    CHECK_OK(czk_msm_g1_var_multi(got, 2, NULL, 0, cs, 0, NULL, NULL));
    CHECK(czk_g1_jac_is_inf(&got[0]) && czk_g1_jac_is_inf(&got[1]));
    /* errors name the argument */
    CHECK(czk_msm_g1_var_multi(got, CZK_MSM_MAX_SETS + 1, bases, n, cs, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "nsets") != NULL);
    CHECK(czk_msm_g1_var_multi(NULL, 2, bases, n, cs, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_msm_g1_var_multi(got, 2, bases, n, NULL, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "scalars") != NULL);
    const czk_fr *holes[2] = {s[0], NULL};
    CHECK(czk_msm_g1_var_multi(got, 2, bases, n, holes, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "scalars[1]") != NULL);
    CHECK(czk_msm_g1_var_multi(got, 2, bases, n - 1, cs, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "nbases") != NULL);
    uint64_t dens[(300 + 63) / 64];
    size_t m = make_density(dens, n, 50, rng);
    CHECK(czk_msm_g1_var_multi(got, 2, bases, m + 1, cs, n, dens, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "density") != NULL);
    CHECK(strstr(czk_last_error(), "czk_msm_g1_var_multi") != NULL);
    czk_g2_jac g2got[2];
    czk_g2_affine b2;
    czk_g2_generator(&b2);
    CHECK(czk_msm_g2_var_multi(g2got, 2, &b2, 1, holes, 1, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(czk_g2_jac_is_inf(&g2got[0]));
    free(bases);
    for (size_t t = 0; t < MAXK; t++) free(s[t]);
}
