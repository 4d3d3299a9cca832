/* Group-independent helpers of the MSM tests: scalars biased to edges,
 * scalar sets, density masks, options. */
#ifndef CZK_TESTS_MSM_TEST_UTIL_H
#define CZK_TESTS_MSM_TEST_UTIL_H

#include <stdlib.h>
#include <string.h>

#include "czk/msm.h"
#include "both_kernels.h"
#include "runner.h"

CZK_UNUSED static int asan(void) { return getenv("CZK_TEST_ASAN") != NULL; }

/* A group test whose body runs under both kernels (both_kernels). */
#define BOTH_KERNELS_TEST(name)                                                          \
    static void G_CAT(name, _body)(void);                                               \
    GROUP_TEST(name) { both_kernels(G_CAT(name, _body)); }                              \
    static void G_CAT(name, _body)(void)

CZK_UNUSED static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) abort();
    return p;
}

/* Random scalars biased to edges: 0, 1, 2, r - 1, r - 2, small, one bit set,
 * long runs of ones, and uniform. */
CZK_UNUSED static void edge_scalar(czk_fr *s, czk_rng *rng)
{
    uint64_t v[4] = {0, 0, 0, 0};
    switch (czk_rng_below(rng, 10)) {
    case 0: *s = CZK_FR_ZERO; return;
    case 1: *s = CZK_FR_ONE; return;
    case 2: czk_fr_from_u64(s, czk_rng_below(rng, 1000)); return;
    case 3: czk_fr_from_u64(s, 1 + czk_rng_below(rng, 3)); czk_fr_neg(s, s); return; /* r-1.. r-3 */
    case 4: {
        unsigned bit = (unsigned)czk_rng_below(rng, 255);
        v[bit / 64] = 1ull << (bit % 64);
        czk_fr_from_limbs_reduce(s, v);
        return;
    }
    case 5: { /* a run of ones */
        unsigned lo = (unsigned)czk_rng_below(rng, 254), len = 1 + (unsigned)czk_rng_below(rng, 255 - lo);
        for (unsigned b = lo; b < lo + len; b++) v[b / 64] |= 1ull << (b % 64);
        czk_fr_from_limbs_reduce(s, v);
        return;
    }
    default: czk_fr_random(s, rng); return;
    }
}

CZK_UNUSED static void random_scalars(czk_fr *s, size_t n, czk_rng *rng, int edges)
{
    for (size_t i = 0; i < n; i++) {
        if (edges) edge_scalar(&s[i], rng);
        else czk_fr_random(&s[i], rng);
    }
}

/* sum_i s_i (j(i) + 1) in Fr, j(i) the base paired with scalar i: the
 * discrete log of the MSM over the bases (j + 1) G. */
CZK_UNUSED static void closed_form_scalar(czk_fr *r, const czk_fr *s, size_t n, const uint64_t *density)
{
    czk_fr acc = CZK_FR_ZERO, t, k;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (density && !((density[i / 64] >> (i % 64)) & 1)) continue;
        czk_fr_from_u64(&k, (uint64_t)(j + 1));
        j++;
        czk_fr_mul(&t, &s[i], &k);
        czk_fr_add(&acc, &acc, &t);
    }
    *r = acc;
}

#define MAXK 4

/* Scalar set t: uniform, edge-biased, a copy of set 0, or the negation of set 0. */
CZK_UNUSED static void make_sets(czk_fr *s[MAXK], size_t k, size_t n, czk_rng *rng)
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

/* A random density mask over n scalars with about pct% set bits (and stray
 * bits past n, which must be ignored); returns the popcount. */
CZK_UNUSED static size_t make_density(uint64_t *dens, size_t n, unsigned pct, czk_rng *rng)
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

CZK_UNUSED static czk_msm_opts opts_of(int threads, unsigned window, czk_msm_algo algo)
{
    czk_msm_opts o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.window = window;
    o.algo = algo;
    return o;
}

CZK_UNUSED static const char *algo_name(czk_msm_algo a)
{
    return a == CZK_MSM_XYZZ ? "xyzz" : a == CZK_MSM_BATCH_AFFINE ? "batch-affine" : "auto";
}

#endif
