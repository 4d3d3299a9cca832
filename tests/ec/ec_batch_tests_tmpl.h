/* The 8-lane batched affine addition (src/ec/ec_batch.h) of one group
 * against the scalar group law, written once over the group descriptor and
 * included by test_ec_batch.c for G1 and G2 (no include guard). */

#define EB(name) G_CAT(G_CAT(ec_batch_, G_ID), G_CAT(_, name))

/* n additions *dst[i] += +-*src[i] on random points, every n in 1..40 and
 * a few larger (partial last groups, one group, many groups); sources may
 * repeat and be negations of one another; destinations are distinct. The
 * kernel's results must equal jac_add_affine's, converted to affine, bit for
 * bit, and nothing else in the destination array may change. */
GROUP_TEST(EB(vs_group_law))
{
    if (czk_field_ifma_select(1) != CZK_OK) {
        printf("  (skipped: no IFMA kernels on this CPU or build)\n");
        return;
    }
    czk_rng *rng = czk_test_rng();
    static const size_t big[] = {63, 64, 65, 200, 1001};
    size_t nmax = 1001;
    AFF *src = malloc(nmax * sizeof *src), *dst = malloc((nmax + 8) * sizeof *dst);
    AFF *want = malloc((nmax + 8) * sizeof *want);
    uintptr_t *ad = malloc(nmax * sizeof *ad), *as = malloc(nmax * sizeof *as);
    uint8_t *neg = malloc(nmax);
    void *scr = aligned_alloc(64, G_CAT(G_CAT(czk__, G_ID), _batch_add_scratch)(nmax) + 64);
    JAC *j = malloc((2 * nmax + 8) * sizeof *j);
    FE *fs = malloc((2 * nmax + 8) * sizeof *fs);
    if (!src || !dst || !want || !ad || !as || !neg || !scr || !j || !fs) abort();
    for (size_t t = 0; t < 40 + sizeof big / sizeof big[0]; t++) {
        size_t n = t < 40 ? t + 1 : big[t - 40];
        /* random points k G (k random), n + 8 destinations and n sources */
        AFF g;
        JAC gj;
        G_FN(generator)(&g);
        G_FN(jac_from_affine)(&gj, &g);
        for (size_t i = 0; i < 2 * n + 8; i++) {
            czk_fr k;
            czk_fr_random(&k, rng);
            G_FN(mul_var)(&j[i], &gj, &k);
        }
        G_FN(jac_batch_to_affine)(dst, j, n + 8, fs);
        G_FN(jac_batch_to_affine)(src, j + n + 8, n, fs);
        for (size_t i = 1; i < n; i++) {
            size_t o = czk_rng_below(rng, i);
            switch (czk_rng_below(rng, 8)) {
            case 0: src[i] = src[o]; break;                      /* the same source twice */
            case 1: G_FN(affine_neg)(&src[i], &src[o]); break;   /* its negation */
            default: break;
            }
        }
        /* destination i is dst[perm(i)]: a shuffle, so addresses are not in order */
        size_t *perm = malloc((n + 8) * sizeof *perm);
        for (size_t i = 0; i < n + 8; i++) perm[i] = i;
        for (size_t i = n + 8; i-- > 1;) {
            size_t r = czk_rng_below(rng, i + 1), x = perm[i];
            perm[i] = perm[r], perm[r] = x;
        }
        memcpy(want, dst, (n + 8) * sizeof *dst);
        for (size_t i = 0; i < n; i++) {
            neg[i] = (uint8_t)czk_rng_below(rng, 2);
            AFF *d = &want[perm[i]], s = src[i];
            if (neg[i]) G_FN(affine_neg)(&s, &s);
            JAC acc;
            G_FN(jac_from_affine)(&acc, d);
            G_FN(jac_add_affine)(&acc, &acc, &s);
            G_FN(jac_to_affine)(d, &acc);
            ad[i] = (uintptr_t)&dst[perm[i]];
            as[i] = (uintptr_t)&src[i];
        }
        G_CAT(G_CAT(czk__, G_ID), _batch_add_ifma)(ad, as, neg, n, scr);
        for (size_t i = 0; i < n + 8; i++)
            CHECK_MSG(memcmp(&dst[i].x, &want[i].x, sizeof dst[i].x) == 0 &&
                          memcmp(&dst[i].y, &want[i].y, sizeof dst[i].y) == 0,
                      "%s: n = %zu, destination %zu differs from the group law", G_STR, n, i);
        free(perm);
    }
    free(src), free(dst), free(want), free(ad), free(as), free(neg), free(scr), free(j), free(fs);
    CHECK_OK(czk_field_ifma_select(czk_cpu_has_avx512ifma()));
}

#undef EB
