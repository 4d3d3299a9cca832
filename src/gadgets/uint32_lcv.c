/* uint32 + multi-eq gadgets (bellpepper gadgets/uint32.rs, gadgets/multieq.rs),
 * compiled once per LC variant (cs/lc.h). The value helpers are uint32.c's. */
#include <string.h>

#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

/* Fr::CAPACITY for BLS12-381: 254. */
#define CZK__FR_CAPACITY 254

void czk_multieq_init(czk_multieq *me, czk_cs *cs)
{
    me->cs = cs;
    me->ops = 0;
    me->bits_used = 0;
    czk_lc_init(&me->lhs);
    czk_lc_init(&me->rhs);
}

/* lhs * 1 = rhs, named "multieq <ops>". */
static czk_status multieq_accumulate(czk_multieq *me)
{
    czk_cs *cs = me->cs;
    czk_lc *one = czk_lc_scratch(cs, 1);
    czk_lc_add_var(one, CZK_VAR_ONE);
    czk_status s = czk_enforce(cs, &me->lhs, one, &me->rhs, "multieq", me->ops);
    czk_lc_clear(&me->lhs);
    czk_lc_clear(&me->rhs);
    me->bits_used = 0;
    me->ops++;
    return s;
}

czk_status czk_multieq_enforce_equal(czk_multieq *me, uint32_t num_bits, const czk_lc *lhs, const czk_lc *rhs)
{
    if (!me->cs->needs_constraints) return CZK_OK;
    if (CZK__FR_CAPACITY <= me->bits_used + num_bits) CZK_TRY(multieq_accumulate(me));
    if (CZK__FR_CAPACITY <= me->bits_used + num_bits)
        return czk_error(CZK_ERR_INVALID_ARG, "multieq: %u bits exceed the field capacity", num_bits);
    if (me->bits_used == 0) {
        czk_lc_add_lc(&me->lhs, lhs);
        czk_lc_add_lc(&me->rhs, rhs);
    } else {
        const czk_fr *k = czk__fr_pow2(me->bits_used);
        czk_lc_add_scaled(&me->lhs, k, lhs);
        czk_lc_add_scaled(&me->rhs, k, rhs);
    }
    me->bits_used += num_bits;
    return CZK_OK;
}

czk_status czk_multieq_finish(czk_multieq *me)
{
    czk_status s = CZK_OK;
    if (me->bits_used > 0) s = multieq_accumulate(me);
    czk_lc_free(&me->lhs);
    czk_lc_free(&me->rhs);
    return s;
}

czk_status czk_u32_alloc(czk_cs *cs, czk_u32 *out, uint32_t v)
{
    for (unsigned i = 0; i < 32; i++) {
        czk__cs_ns_push(cs, "allocated bit", i);
        czk_status s = czk_bit_alloc(cs, &out->bits[i], (int)(v >> i) & 1);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    out->value = v;
    return CZK_OK;
}

czk_status czk_u64_alloc(czk_cs *cs, czk_u64 *out, uint64_t v)
{
    for (unsigned i = 0; i < 64; i++) {
        czk__cs_ns_push(cs, "allocated bit", i);
        czk_status s = czk_bit_alloc(cs, &out->bits[i], (int)(v >> i) & 1);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    out->value = v;
    return CZK_OK;
}

czk_status czk_u32_xor(czk_cs *cs, czk_u32 *out, const czk_u32 *a, const czk_u32 *b)
{
    czk_u32 r;
    for (unsigned i = 0; i < 32; i++) {
        czk__cs_ns_push(cs, "xor of bit", i);
        czk_status s = czk_bool_xor(cs, &r.bits[i], &a->bits[i], &b->bits[i]);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    r.value = a->value ^ b->value;
    *out = r;
    return CZK_OK;
}

czk_status czk_u32_sha256_ch(czk_cs *cs, czk_u32 *out, const czk_u32 *a, const czk_u32 *b, const czk_u32 *c)
{
    czk_u32 r;
    for (unsigned i = 0; i < 32; i++) {
        czk__cs_ns_push(cs, "ch", i);
        czk_status s = czk_bool_sha256_ch(cs, &r.bits[i], &a->bits[i], &b->bits[i], &c->bits[i]);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    r.value = (a->value & b->value) ^ (~a->value & c->value);
    *out = r;
    return CZK_OK;
}

czk_status czk_u32_sha256_maj(czk_cs *cs, czk_u32 *out, const czk_u32 *a, const czk_u32 *b, const czk_u32 *c)
{
    czk_u32 r;
    for (unsigned i = 0; i < 32; i++) {
        czk__cs_ns_push(cs, "maj", i);
        czk_status s = czk_bool_sha256_maj(cs, &r.bits[i], &a->bits[i], &b->bits[i], &c->bits[i]);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    r.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    *out = r;
    return CZK_OK;
}

czk_status czk_u32_addmany(czk_cs *cs, czk_multieq *me, czk_u32 *out, const czk_u32 *ops, size_t n)
{
    if (n < 2 || n > 10) return czk_error(CZK_ERR_INVALID_ARG, "addmany: %zu operands (2..10)", n);
    uint64_t max_value = (uint64_t)n * 0xffffffffull, sum = 0;
    int all_const = 1, build = cs->needs_constraints;
    czk_lc *lc = build ? czk_lc_scratch(cs, 3) : NULL;
    /* sum_k sum_j 2^j bit_kj, as bellpepper's lc + &bit.lc(ONE, 2^j) term by
     * term: constant-true and NOT bits add 2^j to ONE, NOT bits add -2^j to
     * their variable. Appended unsorted, then sorted and merged once. */
    czk_fr one_coeff = CZK_FR_ZERO;
    int has_one = 0;
    for (size_t k = 0; k < n; k++) {
        sum += ops[k].value;
        for (unsigned j = 0; j < 32; j++) {
            const czk_bool *b = &ops[k].bits[j];
            all_const &= b->kind == CZK_BOOL_CONST;
            if (!build) continue;
            switch (b->kind) {
            case CZK_BOOL_CONST:
                if (b->value) {
                    czk_fr_add(&one_coeff, &one_coeff, czk__fr_pow2(j));
                    has_one = 1;
                }
                break;
            case CZK_BOOL_IS: czk_lc_push_unsorted(lc, czk__fr_pow2(j), b->var); break;
            default:
                czk_fr_add(&one_coeff, &one_coeff, czk__fr_pow2(j));
                has_one = 1;
                czk_lc_push_unsorted(lc, czk__fr_pow2_neg(j), b->var);
                break;
            }
        }
    }
    if (build) {
        czk_lc_normalize(lc);
        if (has_one) czk_lc_add_term(lc, &one_coeff, CZK_VAR_ONE);
    }
    if (all_const) {
        czk_u32_constant(out, (uint32_t)sum);
        return CZK_OK;
    }
    czk_lc *rlc = build ? czk_lc_scratch(cs, 4) : NULL;
    czk_u32 r;
    unsigned i = 0;
    while (max_value) {
        czk_bool b;
        czk__cs_ns_push(cs, "result bit", i);
        czk_status s = czk_bit_alloc(cs, &b, (int)(sum >> i) & 1);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
        if (build) czk_lc_add_term(rlc, czk__fr_pow2(i), b.var);
        if (i < 32) r.bits[i] = b;
        max_value >>= 1;
        i++;
    }
    if (build) CZK_TRY(czk_multieq_enforce_equal(me, i, lc, rlc));
    r.value = (uint32_t)sum;
    *out = r;
    return CZK_OK;
}

#undef CZK__FR_CAPACITY
