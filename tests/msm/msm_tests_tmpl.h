/* The MSM tests of one group, written once over the group descriptor
 * (src/ec/group.h) and included by test_msm.c for G1 and for G2 (no include
 * guard). Pippenger (both bucket kernels, every window size, 1..many
 * threads, density masks) against the closed form for bases i G, against the
 * naive sum of scalar multiplications (czk_msm_*_ref), and on edge inputs
 * (n = 0 and 1, zero scalars, r - 1, infinity, duplicate, negated and
 * all-equal bases, sparse and all-equal digits). */
#include "msm_group_util_tmpl.h"

/* msm_g1_<name> / msm_g2_<name> */
#define MT(name) G_CAT(G_CAT(msm_, G_ID), G_CAT(_, name))

/* Every size 1..64 (auto plan, both kernels, 1 and 2 threads), then larger
 * ones around powers of two. */
BOTH_KERNELS_TEST(MT(closed_form_sizes))
{
    czk_rng *rng = czk_test_rng();
    size_t nmax = (asan() ? 1024 : 4096) / MT_DIV;
    AFF *bases = xmalloc(nmax * sizeof *bases);
    czk_fr *s = xmalloc(nmax * sizeof *s);
    G_LOCAL(multiples)(bases, nmax);
    JAC want;
    size_t small = asan() ? 16 : 64;
    for (size_t n = 1; n <= small; n++) {
        random_scalars(s, n, rng, 1);
        G_LOCAL(closed_form)(&want, s, n, NULL);
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(1, 0, CZK_MSM_AUTO), "sizes");
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_XYZZ), "sizes");
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(2, 0, CZK_MSM_BATCH_AFFINE), "sizes");
    }
    static const size_t big[] = {65, 100, 127, 128, 129, 1000, 1023, 1024, 2047, 4096};
    for (size_t i = 0; i < sizeof big / sizeof big[0] && big[i] <= nmax; i++) {
        size_t n = big[i];
        random_scalars(s, n, rng, i & 1);
        G_LOCAL(closed_form)(&want, s, n, NULL);
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(0, 0, CZK_MSM_AUTO), "sizes");
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(1, 0, CZK_MSM_XYZZ), "sizes");
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(3, 0, CZK_MSM_BATCH_AFFINE), "sizes");
    }
    free(bases);
    free(s);
}

/* Random bases (not multiples of one another in a pattern) against the naive sum. */
BOTH_KERNELS_TEST(MT(vs_ref))
{
    czk_rng *rng = czk_test_rng();
    size_t n = (asan() ? 40 : 300) / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases);
    JAC *jb = xmalloc(n * sizeof *jb), want;
    FE *scr = xmalloc(n * sizeof *scr);
    czk_fr *s = xmalloc(n * sizeof *s), k;
    for (size_t i = 0; i < n; i++) {
        czk_fr_random(&k, rng);
        G_LOCAL(gen_mul)(&jb[i], &k);
    }
    G_FN(jac_batch_to_affine)(bases, jb, n, scr);
    static const size_t sizes[] = {1, 2, 3, 5, 13, 17, 64, 100, 300};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && sizes[i] <= n; i++) {
        size_t m = sizes[i];
        random_scalars(s, m, rng, 1);
        REQUIRE_OK(G_MSM(ref)(&want, bases, m, s, m, NULL));
        for (int a = CZK_MSM_AUTO; a <= CZK_MSM_BATCH_AFFINE; a++)
            G_LOCAL(check)(&want, bases, m, s, m, NULL, opts_of(2, 0, (czk_msm_algo)a), "vs ref");
    }
    free(bases);
    free(jb);
    free(scr);
    free(s);
}

/* Every window size 1..CZK_MSM_MAX_WINDOW with both kernels; the widest on
 * few points (mostly empty buckets). */
BOTH_KERNELS_TEST(MT(every_window))
{
    czk_rng *rng = czk_test_rng();
    size_t n = (asan() ? 40 : 200) / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    G_LOCAL(multiples)(bases, n);
    JAC want;
    random_scalars(s, n, rng, 1);
    G_LOCAL(closed_form)(&want, s, n, NULL);
    unsigned cmax = asan() ? 14 : CZK_MSM_MAX_WINDOW;
    for (unsigned c = 1; c <= cmax; c++) {
        size_t m = c <= 16 ? n : 24;
        JAC w2 = want;
        if (m != n) G_LOCAL(closed_form)(&w2, s, m, NULL);
        G_LOCAL(check)(&w2, bases, m, s, m, NULL, opts_of(c <= 16 ? 2 : 1, c, CZK_MSM_XYZZ), "window");
        G_LOCAL(check)(&w2, bases, m, s, m, NULL, opts_of(c <= 16 ? 2 : 1, c, CZK_MSM_BATCH_AFFINE), "window");
    }
    free(bases);
    free(s);
}

/* The result does not depend on the thread count (1, 2, 3, 7, 16) or on how
 * the points are split. */
BOTH_KERNELS_TEST(MT(threads))
{
    czk_rng *rng = czk_test_rng();
    size_t n = (asan() ? 300 : 3000) / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    G_LOCAL(multiples)(bases, n);
    random_scalars(s, n, rng, 0);
    JAC want;
    G_LOCAL(closed_form)(&want, s, n, NULL);
    static const int th[] = {1, 2, 3, 7, 16};
    for (size_t i = 0; i < sizeof th / sizeof th[0]; i++) {
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(th[i], 0, CZK_MSM_XYZZ), "threads");
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(th[i], 0, CZK_MSM_BATCH_AFFINE), "threads");
        G_LOCAL(check)(&want, bases, n, s, n, NULL, opts_of(th[i], 9, CZK_MSM_AUTO), "threads");
    }
    free(bases);
    free(s);
}

/* Zero scalars, r - 1 everywhere (every point in the same buckets: batch
 * conflicts and bucket doublings), all-equal scalars, booleans, a single
 * non-zero; then all-equal bases (one point n times: every bucket meets
 * itself) with random and with equal scalars; n = 1 with each kernel. */
BOTH_KERNELS_TEST(MT(edge_scalars))
{
    czk_rng *rng = czk_test_rng();
    size_t n = (asan() ? 100 : 1000) / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases), *same = xmalloc(n * sizeof *same);
    czk_fr *s = xmalloc(n * sizeof *s), mone, k;
    G_LOCAL(multiples)(bases, n);
    JAC want, got;
    czk_fr_neg(&mone, &CZK_FR_ONE);
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        czk_msm_opts o = opts_of(2, 0, (czk_msm_algo)a);
        for (size_t i = 0; i < n; i++) s[i] = CZK_FR_ZERO;
        REQUIRE_OK(G_MSM(var)(&got, bases, n, s, n, NULL, &o));
        CHECK_MSG(G_FN(jac_is_inf)(&got), "%s %s: zero scalars give infinity", G_STR, algo_name(o.algo));
        s[n / 2] = CZK_FR_ONE;
        G_LOCAL(closed_form)(&want, s, n, NULL);
        G_LOCAL(check)(&want, bases, n, s, n, NULL, o, "single one");
        for (size_t i = 0; i < n; i++) s[i] = mone;
        G_LOCAL(closed_form)(&want, s, n, NULL);
        G_LOCAL(check)(&want, bases, n, s, n, NULL, o, "all r-1");
        for (size_t i = 0; i < n; i++) czk_fr_from_u64(&s[i], 5);
        G_LOCAL(closed_form)(&want, s, n, NULL);
        G_LOCAL(check)(&want, bases, n, s, n, NULL, o, "all 5");
        for (size_t i = 0; i < n; i++) s[i] = i % 2 ? CZK_FR_ONE : CZK_FR_ZERO;
        G_LOCAL(closed_form)(&want, s, n, NULL);
        G_LOCAL(check)(&want, bases, n, s, n, NULL, o, "booleans");
        /* all-equal bases: sum_i s_i (7 G) */
        for (size_t i = 0; i < n; i++) same[i] = bases[6];
        random_scalars(s, n, rng, 1);
        REQUIRE_OK(G_MSM(ref)(&want, same, n, s, n, NULL));
        G_LOCAL(check)(&want, same, n, s, n, NULL, o, "all-equal bases");
        czk_fr_from_u64(&k, 3);
        for (size_t i = 0; i < n; i++) s[i] = k;
        REQUIRE_OK(G_MSM(ref)(&want, same, n, s, n, NULL));
        G_LOCAL(check)(&want, same, n, s, n, NULL, o, "all-equal bases and scalars");
        /* n = 1 */
        edge_scalar(&s[0], rng);
        G_LOCAL(closed_form)(&want, s, 1, NULL);
        for (unsigned c = 1; c <= 16; c += 5) G_LOCAL(check)(&want, bases, 1, s, 1, NULL, opts_of(1, c, o.algo), "n = 1");
    }
    free(bases);
    free(same);
    free(s);
}

/* Infinity bases contribute nothing; duplicate bases double in one bucket;
 * P and -P with the same scalar cancel in one bucket. Checked against the
 * naive reference and the closed form. */
BOTH_KERNELS_TEST(MT(infinity_duplicate_negated))
{
    czk_rng *rng = czk_test_rng();
    size_t n = (asan() ? 64 : 400) / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    czk_fr *dl = xmalloc(n * sizeof *dl); /* discrete log of each base */
    G_LOCAL(multiples)(bases, n);
    random_scalars(s, n, rng, 0);
    for (size_t i = 0; i < n; i++) czk_fr_from_u64(&dl[i], i + 1);
    for (size_t i = 0; i + 3 < n; i += 4) {
        bases[i + 1] = bases[i]; /* duplicate, same scalar */
        dl[i + 1] = dl[i];
        s[i + 1] = s[i];
        G_FN(affine_neg)(&bases[i + 2], &bases[i]); /* negated, same scalar: cancels */
        czk_fr_neg(&dl[i + 2], &dl[i]);
        s[i + 2] = s[i];
        if (i % 8 == 0) {
            bases[i + 3].inf = 1; /* infinity */
            dl[i + 3] = CZK_FR_ZERO;
        }
    }
    JAC want, ref;
    REQUIRE_OK(G_MSM(ref)(&ref, bases, n, s, n, NULL));
    czk_fr k = CZK_FR_ZERO, t;
    for (size_t i = 0; i < n; i++) {
        czk_fr_mul(&t, &s[i], &dl[i]);
        czk_fr_add(&k, &k, &t);
    }
    G_LOCAL(gen_mul)(&want, &k);
    CHECK_MSG(G_FN(jac_eq)(&ref, &want), "%s: reference disagrees with the closed form", G_STR);
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++)
        for (unsigned c = 1; c <= 12; c += 3)
            G_LOCAL(check)(&ref, bases, n, s, n, NULL, opts_of(2, c, (czk_msm_algo)a), "dup/neg/inf");
    /* All bases infinity. */
    for (size_t i = 0; i < n; i++) bases[i].inf = 1;
    JAC got;
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        czk_msm_opts o = opts_of(2, 0, (czk_msm_algo)a);
        REQUIRE_OK(G_MSM(var)(&got, bases, n, s, n, NULL, &o));
        CHECK(G_FN(jac_is_inf)(&got));
    }
    free(bases);
    free(s);
    free(dl);
}

/* Density masks: bases hold only the set-bit entries; against the closed
 * form, the reference, and the same MSM on explicitly compacted scalars. */
BOTH_KERNELS_TEST(MT(density))
{
    czk_rng *rng = czk_test_rng();
    size_t n = (asan() ? 200 : 2000) / MT_DIV;
    size_t nw = (n + 63) / 64;
    uint64_t *dens = xmalloc(nw * sizeof *dens);
    AFF *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s), *cs = xmalloc(n * sizeof *cs);
    G_LOCAL(multiples)(bases, n);
    random_scalars(s, n, rng, 1);
    static const unsigned pct[] = {0, 3, 50, 97, 100};
    for (size_t q = 0; q < sizeof pct / sizeof pct[0]; q++) {
        size_t m = make_density(dens, n, pct[q], rng), c = 0;
        for (size_t i = 0; i < n; i++)
            if ((dens[i / 64] >> (i % 64)) & 1) cs[c++] = s[i];
        CHECK_EQ_U64(c, m);
        JAC want, ref;
        G_LOCAL(closed_form)(&want, s, n, dens);
        G_LOCAL(check)(&want, bases, m, s, n, dens, opts_of(2, 0, CZK_MSM_AUTO), "density");
        G_LOCAL(check)(&want, bases, m, s, n, dens, opts_of(3, 0, CZK_MSM_XYZZ), "density");
        G_LOCAL(check)(&want, bases, m, s, n, dens, opts_of(1, 0, CZK_MSM_BATCH_AFFINE), "density");
        G_LOCAL(check)(&want, bases, m, cs, m, NULL, opts_of(2, 0, CZK_MSM_AUTO), "compacted");
        if (m <= 300 / MT_DIV) {
            REQUIRE_OK(G_MSM(ref)(&ref, bases, m, s, n, dens));
            CHECK(G_FN(jac_eq)(&ref, &want));
        }
        /* popcount mismatch is an error naming the counts */
        JAC got;
        czk_msm_opts o = opts_of(1, 0, CZK_MSM_AUTO);
        czk_status st = G_MSM(var)(&got, bases, m + 1, s, n, dens, &o);
        CHECK(st == CZK_ERR_INVALID_ARG);
        CHECK(strstr(czk_last_error(), "density") != NULL);
        CHECK(G_FN(jac_is_inf)(&got));
    }
    free(dens);
    free(bases);
    free(s);
    free(cs);
}

/* Caller scratch (no allocation), too-small or misaligned scratch, bad
 * arguments, n = 0. */
BOTH_KERNELS_TEST(MT(scratch_and_errors))
{
    czk_rng *rng = czk_test_rng();
    size_t n = 500 / MT_DIV;
    AFF *bases = xmalloc(n * sizeof *bases);
    czk_fr *s = xmalloc(n * sizeof *s);
    G_LOCAL(multiples)(bases, n);
    random_scalars(s, n, rng, 0);
    JAC want, got;
    G_LOCAL(closed_form)(&want, s, n, NULL);
    for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++) {
        czk_msm_opts o = opts_of(2, 0, (czk_msm_algo)a);
        size_t sz = G_MSM(scratch_size)(n, &o);
        void *mem = aligned_alloc(64, (sz + 64 + 63) & ~(size_t)63);
        REQUIRE(mem);
        memset(mem, 0xa5, sz);
        o.scratch = mem;
        o.scratch_size = sz;
        G_LOCAL(check)(&want, bases, n, s, n, NULL, o, "caller scratch");
        o.scratch_size = sz - 1;
        CHECK(G_MSM(var)(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
        CHECK(strstr(czk_last_error(), "scratch") != NULL);
        o.scratch = (char *)mem + 8;
        o.scratch_size = sz;
        CHECK(G_MSM(var)(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
        CHECK(G_FN(jac_is_inf)(&got));
        free(mem);
    }
    czk_msm_opts o = opts_of(1, CZK_MSM_MAX_WINDOW + 1, CZK_MSM_AUTO);
    CHECK(G_MSM(var)(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "window") != NULL);
    o = opts_of(1, 0, (czk_msm_algo)7);
    CHECK(G_MSM(var)(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
    o = opts_of(-1, 0, CZK_MSM_AUTO);
    CHECK(G_MSM(var)(&got, bases, n, s, n, NULL, &o) == CZK_ERR_INVALID_ARG);
    CHECK(G_MSM(var)(NULL, bases, n, s, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(G_MSM(var)(&got, NULL, n, s, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(G_MSM(var)(&got, bases, n, NULL, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(G_MSM(var)(&got, bases, n - 1, s, n, NULL, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "nbases") != NULL);
    CHECK(strstr(czk_last_error(), "czk_msm_" G_STR "_var") != NULL);
    CHECK(G_MSM(ref)(&got, bases, n - 1, s, n, NULL) == CZK_ERR_INVALID_ARG);
    CHECK(strstr(czk_last_error(), "czk_msm_" G_STR "_ref") != NULL);
    /* empty MSM */
    CHECK_OK(G_MSM(var)(&got, NULL, 0, NULL, 0, NULL, NULL));
    CHECK(G_FN(jac_is_inf)(&got));
    CHECK_OK(G_MSM(ref)(&got, NULL, 0, NULL, 0, NULL));
    CHECK(G_FN(jac_is_inf)(&got));
    uint64_t zero = 0;
    CHECK_OK(G_MSM(var)(&got, NULL, 0, s, 64, &zero, NULL)); /* 64 scalars, none selected */
    CHECK(G_FN(jac_is_inf)(&got));
    /* opts NULL: defaults */
    CHECK_OK(G_MSM(var)(&got, bases, n, s, n, NULL, NULL));
    CHECK(G_FN(jac_eq)(&got, &want));
    free(bases);
    free(s);
}

/* Small scalars (|k| <= 12) over bases drawn from {P, -P, 2P, 7P, infinity}:
 * bucket and lane running sums meet equal points (doublings), opposite points
 * (cancellation) and infinity all the time. Against the naive reference. */
BOTH_KERNELS_TEST(MT(special_sums_small_scalars))
{
    czk_rng *rng = czk_test_rng();
    AFF pool[5], mult[7];
    G_LOCAL(multiples)(mult, 7);
    pool[0] = mult[0];
    pool[1] = mult[1];
    G_FN(affine_neg)(&pool[2], &mult[0]);
    pool[3] = mult[6];
    pool[4] = mult[0];
    pool[4].inf = 1;
    enum { N = 48 };
    AFF b[N];
    czk_fr s[N];
    size_t rounds = czk_test_iters(asan() ? 4 : 30) / MT_DIV + 1;
    for (size_t r = 0; r < rounds; r++) {
        for (size_t i = 0; i < N; i++) {
            b[i] = pool[czk_rng_below(rng, 5)];
            czk_fr_from_u64(&s[i], czk_rng_below(rng, 13));
            if (czk_rng_below(rng, 2)) czk_fr_neg(&s[i], &s[i]);
        }
        size_t n = 2 + (size_t)czk_rng_below(rng, N - 1);
        JAC ref;
        REQUIRE_OK(G_MSM(ref)(&ref, b, n, s, n, NULL));
        static const unsigned cs[] = {1, 3, 6, 8, 10};
        for (size_t ci = 0; ci < sizeof cs / sizeof cs[0]; ci++)
            for (int a = CZK_MSM_XYZZ; a <= CZK_MSM_BATCH_AFFINE; a++)
                G_LOCAL(check)(&ref, b, n, s, n, NULL, opts_of(1, cs[ci], (czk_msm_algo)a), "small scalars");
    }
    /* the batch-affine bucket sum runs in lanes at the two widest of these windows */
    for (unsigned c = 8; c <= 10; c += 2) {
        czk_msm_plan plan;
        czk_msm_opts o = opts_of(1, c, CZK_MSM_BATCH_AFFINE);
        G_MSM(plan)(&plan, N, &o);
        CHECK_MSG(plan.lanes >= 8, "%s c=%u: %u lanes", G_STR, c, plan.lanes);
    }
}

/* The sparse pre-pass (automatic kernel, >= 4096 bases): scalars 0 skipped,
 * +-1 summed through round-robin accumulators, the rest by Pippenger over
 * an index list. Bases are k_j G with known k_j (duplicates, negations and
 * infinity mixed in, so the accumulators meet doublings and cancellations),
 * against the closed form (sum s_j k_j) G; mixes from all-zero to all-dense,
 * 1..3 threads, with and without a density mask. */
BOTH_KERNELS_TEST(MT(sparse_01))
{
    czk_rng *rng = czk_test_rng();
    size_t nmax = asan() || MT_DIV > 1 ? 4500 : 9000;
    AFF *bases = xmalloc(nmax * sizeof *bases);
    JAC *jb = xmalloc(nmax * sizeof *jb), want, got;
    FE *scr = xmalloc(nmax * sizeof *scr);
    czk_fr *logs = xmalloc(nmax * sizeof *logs), *s = xmalloc((nmax + 100) * sizeof *s), acc, t;
    AFF g;
    JAC gj;
    G_FN(generator)(&g);
    G_FN(jac_from_affine)(&gj, &g);
    /* k_j = 1 + j for a third, then random; the last part repeats, negates and drops earlier ones */
    for (size_t j = 0; j < nmax; j++) {
        if (j < nmax / 3) czk_fr_from_u64(&logs[j], j + 1);
        else czk_fr_random(&logs[j], rng);
    }
    for (size_t j = nmax / 2; j < nmax; j++) {
        size_t o = czk_rng_below(rng, nmax / 2);
        switch (czk_rng_below(rng, 8)) {
        case 0: logs[j] = logs[o]; break;
        case 1: czk_fr_neg(&logs[j], &logs[o]); break;
        case 2: logs[j] = CZK_FR_ZERO; break;
        default: break;
        }
    }
    for (size_t j = 0; j < nmax; j++) G_FN(mul_var)(&jb[j], &gj, &logs[j]);
    G_FN(jac_batch_to_affine)(bases, jb, nmax, scr);
    for (size_t j = 0; j < nmax; j++)
        if (czk_fr_is_zero(&logs[j])) bases[j].inf = 1; /* 0 G: the identity, flagged */
    static const size_t sizes[] = {4096, 4500, 9000};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        size_t n = sizes[si];
        if (n > nmax) break;
        for (int mix = 0; mix < 7; mix++) {
            for (size_t j = 0; j < n; j++) {
                unsigned r = (unsigned)czk_rng_below(rng, 100);
                switch (mix) {
                case 0: r = r < 90 ? r % 3 : 3; break;   /* 90% 0, 1, -1 */
                case 1: r = 1; break;                    /* all 1 */
                case 2: r = 2; break;                    /* all -1 */
                case 3: r = r < 99 ? 0 : 3; break;       /* nearly all 0 */
                case 4: r = r < 50 ? 0 : 3; break;       /* zeros and dense, no +-1 */
                case 5: r = r < 20 ? 1 + r % 2 : 3; break; /* 20% +-1: just above the threshold with zeros none */
                default: r = 3; break;                   /* dense: the pre-pass stays off */
                }
                if (r == 0) s[j] = CZK_FR_ZERO;
                else if (r == 1) s[j] = CZK_FR_ONE;
                else if (r == 2) czk_fr_neg(&s[j], &CZK_FR_ONE);
                else czk_fr_random(&s[j], rng);
            }
            acc = CZK_FR_ZERO;
            for (size_t j = 0; j < n; j++) {
                czk_fr_mul(&t, &s[j], &logs[j]);
                czk_fr_add(&acc, &acc, &t);
            }
            G_LOCAL(gen_mul)(&want, &acc);
            for (int th = 1; th <= 3; th++) {
                czk_msm_opts o = opts_of(th, 0, CZK_MSM_AUTO);
                czk_status st = G_MSM(var)(&got, bases, n, s, n, NULL, &o);
                CHECK_MSG(st == CZK_OK && G_FN(jac_eq)(&got, &want), "%s sparse: n=%zu mix %d threads %d: %s", G_STR,
                          n, mix, th, st == CZK_OK ? "wrong sum" : czk_last_error());
            }
            /* the same under a density mask: 100 extra scalars whose bits are clear */
            if (mix == 0 || mix == 1) {
                size_t nn = n + 100;
                uint64_t *dens = xmalloc((nn + 63) / 64 * sizeof *dens);
                czk_fr *ss = xmalloc(nn * sizeof *ss);
                memset(dens, 0, (nn + 63) / 64 * sizeof *dens);
                size_t j = 0;
                for (size_t i = 0; i < nn; i++) {
                    int on = j < n && (nn - i <= n - j || czk_rng_below(rng, 8) != 0);
                    if (on) {
                        dens[i / 64] |= 1ull << (i % 64);
                        ss[i] = s[j++];
                    } else {
                        czk_fr_random(&ss[i], rng);
                    }
                }
                czk_msm_opts o = opts_of(2, 0, CZK_MSM_AUTO);
                czk_status st = G_MSM(var)(&got, bases, n, ss, nn, dens, &o);
                CHECK_MSG(st == CZK_OK && G_FN(jac_eq)(&got, &want), "%s sparse with density: n=%zu mix %d", G_STR,
                          n, mix);
                free(dens);
                free(ss);
            }
        }
    }
    free(bases), free(jb), free(scr), free(logs), free(s);
}

#undef MT
#undef MT_DIV
