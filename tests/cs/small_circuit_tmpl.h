/* A small circuit exercising interleaved inputs, zero coefficients and
 * densities; included by test_cs.c once per variant. Values: x = 3, y = 5. */
static czk_status CZK_V(small_circuit)(czk_cs *cs)
{
    czk_fr f3, f5, f15, f8, f40;
    czk_fr_from_u64(&f3, 3);
    czk_fr_from_u64(&f5, 5);
    czk_fr_from_u64(&f15, 15);
    czk_fr_from_u64(&f8, 8);
    czk_fr_from_u64(&f40, 40);
    int hv = cs->has_values;
    czk_var x, y, w, pub, t, u;
    czk_cs_ns_push(cs, "ns", CZK_NOIDX);
    CZK_TRY(czk_cs_alloc(cs, &x, hv ? &f3 : NULL, "x", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc(cs, &y, hv ? &f5 : NULL, "y", CZK_NOIDX));
    CZK_TRY(czk_cs_alloc(cs, &w, hv ? &f15 : NULL, "w", CZK_NOIDX));
    czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, x);
    czk_lc_add_var(b, y);
    czk_lc_add_var(c, w);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 0));
    CZK_TRY(czk_cs_alloc_input(cs, &pub, hv ? &f15 : NULL, "pub", CZK_NOIDX));
    a = czk_lc_scratch(cs, 0), b = czk_lc_scratch(cs, 1), c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, pub);
    czk_lc_add_var(b, CZK_VAR_ONE);
    czk_lc_add_var(c, w);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 1));
    CZK_TRY(czk_cs_alloc(cs, &t, hv ? &f8 : NULL, "t", CZK_NOIDX));
    a = czk_lc_scratch(cs, 0), b = czk_lc_scratch(cs, 1), c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, t); /* added out of order: x < t */
    czk_lc_add_var(a, x);
    czk_lc_sub_var(a, t); /* t's coefficient becomes 0 and stays */
    czk_lc_add_var(b, CZK_VAR_ONE);
    czk_lc_add_var(c, x);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 2));
    CZK_TRY(czk_cs_alloc(cs, &u, hv ? &f40 : NULL, "u", CZK_NOIDX));
    a = czk_lc_scratch(cs, 0), b = czk_lc_scratch(cs, 1), c = czk_lc_scratch(cs, 2);
    czk_lc_add_var(a, t);
    czk_lc_add_var(b, y);
    czk_lc_add_var(b, x);
    czk_lc_sub_var(b, x);
    czk_lc_add_var(c, u);
    CZK_TRY(czk_enforce(cs, a, b, c, "c", 3));
    czk_cs_ns_pop(cs);
    return CZK_OK;
}
