/* Per-group helpers of the MSM tests, written once over the group
 * descriptor (src/ec/group.h); included by the MSM test templates once per
 * group (no include guard). */

/* Test sizes are divided by this: an Fp2 multiplication costs about 3 Fp
 * multiplications, so G2 runs the same tests on about a third of the points. */
#define MT_DIV (sizeof(FE) == sizeof(czk_fp) ? 1 : 3)

/* out[i] = (i + 1) G. */
CZK_UNUSED static void G_LOCAL(multiples)(AFF *out, size_t n)
{
    AFF g;
    G_FN(generator)(&g);
    JAC *j = xmalloc(n * sizeof *j);
    FE *scr = xmalloc(n * sizeof *scr);
    JAC acc;
    G_FN(jac_set_inf)(&acc);
    for (size_t i = 0; i < n; i++) {
        G_FN(jac_add_affine)(&acc, &acc, &g);
        j[i] = acc;
    }
    G_FN(jac_batch_to_affine)(out, j, n, scr);
    free(j);
    free(scr);
}

/* r = k G. */
CZK_UNUSED static void G_LOCAL(gen_mul)(JAC *r, const czk_fr *k)
{
    AFF g;
    JAC gj;
    G_FN(generator)(&g);
    G_FN(jac_from_affine)(&gj, &g);
    G_FN(mul_var)(r, &gj, k);
}

/* Random points r_i G, with duplicates, negations and infinity mixed in. */
CZK_UNUSED static void G_LOCAL(random_bases)(AFF *out, size_t n, czk_rng *rng)
{
    JAC *j = xmalloc(n * sizeof *j);
    FE *scr = xmalloc(n * sizeof *scr);
    czk_fr k;
    for (size_t i = 0; i < n; i++) {
        czk_fr_random(&k, rng);
        G_LOCAL(gen_mul)(&j[i], &k);
    }
    G_FN(jac_batch_to_affine)(out, j, n, scr);
    for (size_t i = 1; i < n; i++) {
        switch (czk_rng_below(rng, 16)) {
        case 0: out[i] = out[czk_rng_below(rng, i)]; break;
        case 1: G_FN(affine_neg)(&out[i], &out[czk_rng_below(rng, i)]); break;
        case 2: out[i].inf = 1; break;
        default: break;
        }
    }
    free(j);
    free(scr);
}

/* The MSM over G_LOCAL(multiples) in closed form: (sum_i s_i (j(i) + 1)) G. */
CZK_UNUSED static void G_LOCAL(closed_form)(JAC *r, const czk_fr *s, size_t n, const uint64_t *density)
{
    czk_fr k;
    closed_form_scalar(&k, s, n, density);
    G_LOCAL(gen_mul)(r, &k);
}

/* Run the MSM with these options and compare with `want`. */
CZK_UNUSED static void G_LOCAL(check)(const JAC *want, const AFF *bases, size_t nbases, const czk_fr *s, size_t n,
                                      const uint64_t *density, czk_msm_opts o, const char *what)
{
    JAC got;
    czk_status st = G_MSM(var)(&got, bases, nbases, s, n, density, &o);
    CHECK_MSG(st == CZK_OK, "%s %s: n=%zu threads=%d c=%u %s: status %d (%s)", G_STR, what, n, o.threads, o.window,
              algo_name(o.algo), (int)st, czk_last_error());
    if (st == CZK_OK)
        CHECK_MSG(G_FN(jac_eq)(&got, want), "%s %s: n=%zu threads=%d c=%u %s: wrong sum", G_STR, what, n, o.threads,
                  o.window, algo_name(o.algo));
}
