/* AllocatedNum / Num gadgets (bellpepper-core gadgets/num.rs semantics) and
 * multipack::pack_bits, compiled once per LC variant (cs/lc.h). */
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

static inline const czk_fr *numval(const czk_cs *cs, const czk_fr *v)
{
    return cs->has_values ? v : NULL;
}

czk_status czk_anum_alloc(czk_cs *cs, czk_anum *out, const czk_fr *value)
{
    CZK_TRY(czk__cs_alloc(cs, &out->var, numval(cs, value), "num", CZK_NOIDX));
    out->value = cs->has_values ? *value : CZK_FR_ZERO;
    return CZK_OK;
}

czk_status czk_anum_alloc_input(czk_cs *cs, czk_anum *out, const czk_fr *value)
{
    CZK_TRY(czk__cs_alloc_input(cs, &out->var, numval(cs, value), "input num", CZK_NOIDX));
    out->value = cs->has_values ? *value : CZK_FR_ZERO;
    return CZK_OK;
}

/* Enforce (x1 [+ x2]) * y = z for variables; x2 / y may be 0 = absent marker
 * handled by the caller's choice of op. */
static czk_status enforce_vars(czk_cs *cs, czk_var a1, int has_a2, czk_var a2, czk_var b, czk_var c,
                               const char *name)
{
    if (!cs->needs_constraints) return CZK_OK;
    czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
    czk_lc_add_var(la, a1);
    if (has_a2) czk_lc_add_var(la, a2);
    czk_lc_add_var(lb, b);
    czk_lc_add_var(lc, c);
    return czk_enforce(cs, la, lb, lc, name, CZK_NOIDX);
}

czk_status czk_anum_inputize(czk_cs *cs, const czk_anum *a)
{
    czk_var in;
    CZK_TRY(czk__cs_alloc_input(cs, &in, numval(cs, &a->value), "input variable", CZK_NOIDX));
    return enforce_vars(cs, in, 0, 0, CZK_VAR_ONE, a->var, "enforce input is correct");
}

czk_status czk_anum_add(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b)
{
    czk_fr v;
    czk_fr_add(&v, &a->value, &b->value);
    czk_var r;
    CZK_TRY(czk__cs_alloc(cs, &r, numval(cs, &v), "sum num", CZK_NOIDX));
    CZK_TRY(enforce_vars(cs, a->var, 1, b->var, CZK_VAR_ONE, r, "addition constraint"));
    out->var = r;
    out->value = v;
    return CZK_OK;
}

czk_status czk_anum_mul(czk_cs *cs, czk_anum *out, const czk_anum *a, const czk_anum *b)
{
    czk_fr v;
    czk_fr_mul(&v, &a->value, &b->value);
    czk_var r;
    CZK_TRY(czk__cs_alloc(cs, &r, numval(cs, &v), "product num", CZK_NOIDX));
    CZK_TRY(enforce_vars(cs, a->var, 0, 0, b->var, r, "multiplication constraint"));
    out->var = r;
    out->value = v;
    return CZK_OK;
}

czk_status czk_anum_square(czk_cs *cs, czk_anum *out, const czk_anum *a)
{
    czk_fr v;
    czk_fr_sqr(&v, &a->value);
    czk_var r;
    CZK_TRY(czk__cs_alloc(cs, &r, numval(cs, &v), "squared num", CZK_NOIDX));
    CZK_TRY(enforce_vars(cs, a->var, 0, 0, a->var, r, "squaring constraint"));
    out->var = r;
    out->value = v;
    return CZK_OK;
}

static czk_status inverse(czk_cs *cs, czk_anum *out, const czk_anum *a, const char *vname,
                          const char *cname)
{
    czk_fr v = CZK_FR_ZERO;
    if (cs->has_values) {
        if (czk_fr_is_zero(&a->value))
            return czk_error(CZK_ERR_DIV_BY_ZERO, "%s of variable %#x: the value is zero", vname, a->var);
        czk_fr_inv(&v, &a->value);
    }
    czk_var r;
    CZK_TRY(czk__cs_alloc(cs, &r, numval(cs, &v), vname, CZK_NOIDX));
    CZK_TRY(enforce_vars(cs, a->var, 0, 0, r, CZK_VAR_ONE, cname));
    if (out) {
        out->var = r;
        out->value = v;
    }
    return CZK_OK;
}

czk_status czk_anum_inverse(czk_cs *cs, czk_anum *out, const czk_anum *a)
{
    return inverse(cs, out, a, "inverse", "inverse constraint");
}

czk_status czk_anum_assert_nonzero(czk_cs *cs, const czk_anum *a)
{
    return inverse(cs, NULL, a, "ephemeral inverse", "nonzero assertion constraint");
}

czk_status czk_anum_conditionally_reverse(czk_cs *cs, czk_anum *c, czk_anum *d, const czk_anum *a,
                                          const czk_anum *b, const czk_bool *cond)
{
    int sw = cond->value;
    czk_anum a0 = *a, b0 = *b; /* c, d may alias a, b */
    czk__cs_ns_push(cs, "conditional reversal result 1", CZK_NOIDX);
    czk_status s = czk_anum_alloc(cs, c, sw ? &b0.value : &a0.value);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    if (cs->needs_constraints) {
        /* (a - b) * cond = a - c */
        czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        czk_lc_add_var(la, a0.var);
        czk_lc_sub_var(la, b0.var);
        czk_lc_add_bool(lb, cond, &CZK_FR_ONE);
        czk_lc_add_var(lc, a0.var);
        czk_lc_sub_var(lc, c->var);
        CZK_TRY(czk_enforce(cs, la, lb, lc, "first conditional reversal", CZK_NOIDX));
    }
    czk__cs_ns_push(cs, "conditional reversal result 2", CZK_NOIDX);
    s = czk_anum_alloc(cs, d, sw ? &a0.value : &b0.value);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    if (cs->needs_constraints) {
        /* (b - a) * cond = b - d */
        czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        czk_lc_add_var(la, b0.var);
        czk_lc_sub_var(la, a0.var);
        czk_lc_add_bool(lb, cond, &CZK_FR_ONE);
        czk_lc_add_var(lc, b0.var);
        czk_lc_sub_var(lc, d->var);
        CZK_TRY(czk_enforce(cs, la, lb, lc, "second conditional reversal", CZK_NOIDX));
    }
    return CZK_OK;
}

/* 0 * 0 = sum_i 2^i bits_le[i] - x ("unpacking constraint"). */
static czk_status unpack(czk_cs *cs, const czk_bool *bits_le, size_t n, czk_var x)
{
    if (!cs->needs_constraints) return CZK_OK;
    czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
    for (size_t i = 0; i < n; i++) czk_lc_add_term(lc, czk__fr_pow2((unsigned)i), bits_le[i].var);
    czk_lc_sub_var(lc, x);
    return czk_enforce(cs, la, lb, lc, "unpacking constraint", CZK_NOIDX);
}

czk_status czk_anum_to_bits_le(czk_cs *cs, czk_bool out[255], const czk_anum *a)
{
    CZK_TRY(czk_bits_alloc_field_le(cs, out, &a->value));
    return unpack(cs, out, 255, a->var);
}

/* kary_and: AND of v[0..n) as a chain, namespaces "and i". */
static czk_status kary_and(czk_cs *cs, czk_bool *out, const czk_bool *v, size_t n)
{
    czk_bool cur = v[0];
    for (size_t i = 1; i < n; i++) {
        czk_bool nx;
        czk__cs_ns_push(cs, "and", i);
        czk_status s = czk_bool_and(cs, &nx, &cur, &v[i]);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
        cur = nx;
    }
    *out = cur;
    return CZK_OK;
}

czk_status czk_anum_to_bits_le_strict(czk_cs *cs, czk_bool out[255], const czk_anum *a)
{
    /* Bits of a from the most significant (bit 254) down, alongside those of
     * r - 1: where r - 1 has a one the bit is free; where it has a zero the
     * bit must be zero if all bits of the preceding runs of ones are set
     * (alloc_conditionally against the AND of those runs). */
    uint64_t av[4] = {0, 0, 0, 0}, rm1[4];
    if (cs->has_values) czk_fr_to_limbs(av, &a->value);
    for (int k = 0; k < 4; k++) rm1[k] = CZK_FR_MODULUS[k];
    rm1[0] -= 1; /* r is odd */
    czk_bool result[255]; /* most significant first */
    czk_bool run[255];
    size_t nrun = 0, nres = 0;
    czk_bool last_run;
    int have_last = 0;
    size_t i = 0;
    for (int bit = 254; bit >= 0; bit--, i++) {
        int bb = (int)(rm1[bit / 64] >> (bit % 64)) & 1;
        int ab = (int)(av[bit / 64] >> (bit % 64)) & 1;
        czk_status s;
        if (bb) {
            czk__cs_ns_push(cs, "bit", i);
            s = czk_bit_alloc(cs, &result[nres], ab);
            czk__cs_ns_pop(cs);
            CZK_TRY(s);
            run[nrun++] = result[nres++];
        } else {
            if (nrun) {
                if (have_last) run[nrun++] = last_run;
                czk__cs_ns_push(cs, "run ending at", i);
                s = kary_and(cs, &last_run, run, nrun);
                czk__cs_ns_pop(cs);
                CZK_TRY(s);
                have_last = 1;
                nrun = 0;
            }
            czk__cs_ns_push(cs, "bit", i);
            s = czk_bit_alloc_conditionally(cs, &result[nres], ab, &last_run);
            czk__cs_ns_pop(cs);
            CZK_TRY(s);
            nres++;
        }
    }
    CZK_ASSERT(nres == 255 && nrun == 0);
    for (size_t k = 0; k < 255; k++) out[k] = result[254 - k];
    return unpack(cs, out, 255, a->var);
}

void czk_num_init(czk_num *n)
{
    czk_lc_init(&n->lc);
    n->value = CZK_FR_ZERO;
}

void czk_num_free(czk_num *n) { czk_lc_free(&n->lc); }

void czk_num_from_anum(czk_num *n, const czk_anum *a)
{
    czk_lc_set_var(&n->lc, a->var);
    n->value = a->value;
}

void czk_num_add_bool_with_coeff(czk_num *n, const czk_bool *b, const czk_fr *coeff)
{
    if (b->value) czk_fr_add(&n->value, &n->value, coeff);
    czk_lc_add_bool(&n->lc, b, coeff);
}

void czk_num_add(czk_num *n, const czk_num *o)
{
    czk_lc_add_lc(&n->lc, &o->lc);
    czk_fr_add(&n->value, &n->value, &o->value);
}

void czk_num_scale(czk_num *n, const czk_fr *k)
{
    czk_lc_view v;
    czk_lc_view_of(&v, &n->lc);
    czk_lc_term *t = (czk_lc_term *)v.in;
    for (uint32_t i = 0; i < v.n_in; i++) {
        czk_fr_mul(&t[i].coeff, &t[i].coeff, k);
        t[i].reserved_ = 0;
    }
    t = (czk_lc_term *)v.aux;
    for (uint32_t i = 0; i < v.n_aux; i++) {
        czk_fr_mul(&t[i].coeff, &t[i].coeff, k);
        t[i].reserved_ = 0;
    }
    czk_fr_mul(&n->value, &n->value, k);
}

czk_status czk_bits_pack(czk_cs *cs, czk_anum *out, const czk_bool *bits, size_t n)
{
    czk_num num;
    czk_num_init(&num);
    if (n > 254) n = 254;
    if (cs->needs_constraints) {
        for (size_t i = 0; i < n; i++) czk_num_add_bool_with_coeff(&num, &bits[i], czk__fr_pow2((unsigned)i));
    } else {
        for (size_t i = 0; i < n; i++)
            if (bits[i].value) czk_fr_add(&num.value, &num.value, czk__fr_pow2((unsigned)i));
    }
    czk__cs_ns_push(cs, "input", CZK_NOIDX);
    czk_status s = czk_anum_alloc(cs, out, &num.value);
    czk__cs_ns_pop(cs);
    if (s == CZK_OK && cs->needs_constraints) {
        czk_lc *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        czk_lc_add_var(lb, CZK_VAR_ONE);
        czk_lc_add_var(lc, out->var);
        s = czk_enforce(cs, &num.lc, lb, lc, "packing constraint", CZK_NOIDX);
    }
    czk_num_free(&num);
    return s;
}

czk_status czk_bits_pack_into_inputs(czk_cs *cs, const czk_bool *bits, size_t n)
{
    for (size_t off = 0, i = 0; off < n; off += 254, i++) {
        size_t m = n - off < 254 ? n - off : 254;
        czk_num num;
        czk_num_init(&num);
        for (size_t j = 0; j < m; j++) {
            if (cs->needs_constraints) czk_num_add_bool_with_coeff(&num, &bits[off + j], czk__fr_pow2((unsigned)j));
            else if (bits[off + j].value) czk_fr_add(&num.value, &num.value, czk__fr_pow2((unsigned)j));
        }
        czk_var in;
        czk_status s = czk__cs_alloc_input(cs, &in, cs->has_values ? &num.value : NULL, "input", i);
        if (s == CZK_OK && cs->needs_constraints) {
            czk_lc *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
            czk_lc_add_var(lb, CZK_VAR_ONE);
            czk_lc_add_var(lc, in);
            s = czk_enforce(cs, &num.lc, lb, lc, "packing constraint", i);
        }
        czk_num_free(&num);
        CZK_TRY(s);
    }
    return CZK_OK;
}
