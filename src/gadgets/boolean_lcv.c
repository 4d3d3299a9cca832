/* Boolean gadgets (bellpepper-core gadgets/boolean.rs semantics), compiled
 * once per LC variant (cs/lc.h). */
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

enum { CZK__BIT_XOR, CZK__BIT_AND, CZK__BIT_AND_NOT, CZK__BIT_NOR };

/* Value pointer for a bit allocation: NULL when the CS keeps no values. */
static inline const czk_fr *bitval(const czk_cs *cs, int v)
{
    return cs->has_values ? (v ? &CZK_FR_ONE : &CZK_FR_ZERO) : NULL;
}

void czk_lc_add_bool(czk_lc *lc, const czk_bool *b, const czk_fr *coeff)
{
    switch (b->kind) {
    case CZK_BOOL_CONST:
        if (b->value) czk_lc_add_term(lc, coeff, CZK_VAR_ONE);
        break;
    case CZK_BOOL_IS: czk_lc_add_term(lc, coeff, b->var); break;
    default:
        czk_lc_add_term(lc, coeff, CZK_VAR_ONE);
        czk_lc_sub_term(lc, coeff, b->var);
        break;
    }
}

czk_status czk_bit_alloc(czk_cs *cs, czk_bool *out, int value)
{
    czk_var v;
    value = value != 0;
    CZK_TRY(czk__cs_alloc(cs, &v, bitval(cs, value), "boolean", CZK_NOIDX));
    if (cs->needs_constraints) {
        /* (1 - b) * b = 0 */
        czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
        czk_lc_add_var(a, CZK_VAR_ONE);
        czk_lc_sub_var(a, v);
        czk_lc_add_var(b, v);
        CZK_TRY(czk_enforce(cs, a, b, c, "boolean constraint", CZK_NOIDX));
    }
    out->var = v;
    out->kind = CZK_BOOL_IS;
    out->value = (uint8_t)value;
    return CZK_OK;
}

czk_status czk_bit_alloc_conditionally(czk_cs *cs, czk_bool *out, int value, const czk_bool *must_be_false)
{
    czk_var v;
    value = value != 0;
    CZK_TRY(czk__cs_alloc(cs, &v, bitval(cs, value), "boolean", CZK_NOIDX));
    if (cs->needs_constraints) {
        /* (1 - must_be_false - b) * b = 0 */
        czk_lc *a = czk_lc_scratch(cs, 0), *b = czk_lc_scratch(cs, 1), *c = czk_lc_scratch(cs, 2);
        czk_lc_add_var(a, CZK_VAR_ONE);
        czk_lc_sub_var(a, must_be_false->var);
        czk_lc_sub_var(a, v);
        czk_lc_add_var(b, v);
        CZK_TRY(czk_enforce(cs, a, b, c, "boolean constraint", CZK_NOIDX));
    }
    out->var = v;
    out->kind = CZK_BOOL_IS;
    out->value = (uint8_t)value;
    return CZK_OK;
}

/* The four AllocatedBit operations; a, b are variables of allocated bits with
 * values av, bv. */

static czk_status bit_op(czk_cs *cs, czk_bool *out, int op, czk_var a, int av, czk_var b, int bv)
{
    static const char *const rname[4] = {"xor result", "and result", "and not result", "nor result"};
    static const char *const cname[4] = {"xor constraint", "and constraint", "and not constraint",
                                         "nor constraint"};
    int r;
    switch (op) {
    case CZK__BIT_XOR: r = av ^ bv; break;
    case CZK__BIT_AND: r = av & bv; break;
    case CZK__BIT_AND_NOT: r = av & !bv; break;
    default: r = !av & !bv; break;
    }
    czk_var rv;
    CZK_TRY(czk__cs_alloc(cs, &rv, bitval(cs, r), rname[op], CZK_NOIDX));
    if (cs->needs_constraints) {
        czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        switch (op) {
        case CZK__BIT_XOR: /* (a + a) * b = a + b - r */
            czk_lc_add_var(la, a);
            czk_lc_add_var(la, a);
            czk_lc_add_var(lb, b);
            czk_lc_add_var(lc, a);
            czk_lc_add_var(lc, b);
            czk_lc_sub_var(lc, rv);
            break;
        case CZK__BIT_AND: /* a * b = r */
            czk_lc_add_var(la, a);
            czk_lc_add_var(lb, b);
            czk_lc_add_var(lc, rv);
            break;
        case CZK__BIT_AND_NOT: /* a * (1 - b) = r */
            czk_lc_add_var(la, a);
            czk_lc_add_var(lb, CZK_VAR_ONE);
            czk_lc_sub_var(lb, b);
            czk_lc_add_var(lc, rv);
            break;
        default: /* (1 - a) * (1 - b) = r */
            czk_lc_add_var(la, CZK_VAR_ONE);
            czk_lc_sub_var(la, a);
            czk_lc_add_var(lb, CZK_VAR_ONE);
            czk_lc_sub_var(lb, b);
            czk_lc_add_var(lc, rv);
            break;
        }
        CZK_TRY(czk_enforce(cs, la, lb, lc, cname[op], CZK_NOIDX));
    }
    out->var = rv;
    out->kind = CZK_BOOL_IS;
    out->value = (uint8_t)r;
    return CZK_OK;
}

czk_status czk_bool_xor(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b)
{
    if (a->kind == CZK_BOOL_CONST && !a->value) {
        *out = *b;
        return CZK_OK;
    }
    if (b->kind == CZK_BOOL_CONST && !b->value) {
        *out = *a;
        return CZK_OK;
    }
    if (a->kind == CZK_BOOL_CONST) { /* true */
        *out = czk_bool_not(*b);
        return CZK_OK;
    }
    if (b->kind == CZK_BOOL_CONST) {
        *out = czk_bool_not(*a);
        return CZK_OK;
    }
    if (a->kind != b->kind) {
        /* xor(is, not) = !(is ^ bit(not)) */
        const czk_bool *is = a->kind == CZK_BOOL_IS ? a : b, *nt = a->kind == CZK_BOOL_IS ? b : a;
        czk_bool r;
        CZK_TRY(bit_op(cs, &r, CZK__BIT_XOR, is->var, czk_bool_bit_value(is), nt->var,
                       czk_bool_bit_value(nt)));
        *out = czk_bool_not(r);
        return CZK_OK;
    }
    return bit_op(cs, out, CZK__BIT_XOR, a->var, czk_bool_bit_value(a), b->var, czk_bool_bit_value(b));
}

czk_status czk_bool_and(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b)
{
    if ((a->kind == CZK_BOOL_CONST && !a->value) || (b->kind == CZK_BOOL_CONST && !b->value)) {
        *out = czk_bool_const(0);
        return CZK_OK;
    }
    if (a->kind == CZK_BOOL_CONST) {
        *out = *b;
        return CZK_OK;
    }
    if (b->kind == CZK_BOOL_CONST) {
        *out = *a;
        return CZK_OK;
    }
    if (a->kind == CZK_BOOL_IS && b->kind == CZK_BOOL_NOT)
        return bit_op(cs, out, CZK__BIT_AND_NOT, a->var, czk_bool_bit_value(a), b->var,
                      czk_bool_bit_value(b));
    if (a->kind == CZK_BOOL_NOT && b->kind == CZK_BOOL_IS)
        return bit_op(cs, out, CZK__BIT_AND_NOT, b->var, czk_bool_bit_value(b), a->var,
                      czk_bool_bit_value(a));
    if (a->kind == CZK_BOOL_NOT)
        return bit_op(cs, out, CZK__BIT_NOR, a->var, czk_bool_bit_value(a), b->var, czk_bool_bit_value(b));
    return bit_op(cs, out, CZK__BIT_AND, a->var, czk_bool_bit_value(a), b->var, czk_bool_bit_value(b));
}

czk_status czk_bool_or(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b)
{
    czk_bool na = czk_bool_not(*a), nb = czk_bool_not(*b), r;
    czk__cs_ns_push(cs, "not and (not a) (not b)", CZK_NOIDX);
    czk_status s = czk_bool_and(cs, &r, &na, &nb);
    czk__cs_ns_pop(cs);
    if (s == CZK_OK) *out = czk_bool_not(r);
    return s;
}

czk_status czk_bool_enforce_equal(czk_cs *cs, const czk_bool *a, const czk_bool *b)
{
    if (a->kind == CZK_BOOL_CONST && b->kind == CZK_BOOL_CONST) {
        if (a->value == b->value) return CZK_OK;
        return czk_error(CZK_ERR_UNSATISFIED, "enforce_equal of constants %d and %d", a->value, b->value);
    }
    if (!cs->needs_constraints) return CZK_OK;
    czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
    const czk_bool *x;
    if ((a->kind == CZK_BOOL_CONST && a->value) || (b->kind == CZK_BOOL_CONST && b->value)) {
        x = a->kind == CZK_BOOL_CONST ? b : a;
        czk_lc_add_var(lc, CZK_VAR_ONE);
        czk_lc_add_bool(lc, x, &CZK_FR_MINUS_ONE);
        return czk_enforce(cs, la, lb, lc, "enforce equal to one", CZK_NOIDX);
    }
    if (a->kind == CZK_BOOL_CONST || b->kind == CZK_BOOL_CONST) {
        x = a->kind == CZK_BOOL_CONST ? b : a;
        czk_lc_add_bool(lc, x, &CZK_FR_ONE);
        return czk_enforce(cs, la, lb, lc, "enforce equal to zero", CZK_NOIDX);
    }
    czk_lc_add_bool(lc, a, &CZK_FR_ONE);
    czk_lc_add_bool(lc, b, &CZK_FR_MINUS_ONE);
    return czk_enforce(cs, la, lb, lc, "enforce equal", CZK_NOIDX);
}

static inline int is_const(const czk_bool *x, int v)
{
    return x->kind == CZK_BOOL_CONST && x->value == v;
}

czk_status czk_bool_sha256_ch(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b, const czk_bool *c)
{
    int chv = (a->value & b->value) ^ ((a->value ^ 1) & c->value);
    czk_bool t, u, r;
    if (a->kind == CZK_BOOL_CONST && b->kind == CZK_BOOL_CONST && c->kind == CZK_BOOL_CONST) {
        *out = czk_bool_const(chv);
        return CZK_OK;
    }
    if (is_const(a, 0)) {
        *out = *c;
        return CZK_OK;
    }
    if (is_const(b, 0)) {
        t = czk_bool_not(*a);
        return czk_bool_and(cs, out, &t, c);
    }
    if (is_const(c, 0)) return czk_bool_and(cs, out, a, b);
    if (is_const(c, 1)) {
        t = czk_bool_not(*b);
        CZK_TRY(czk_bool_and(cs, &r, a, &t));
        *out = czk_bool_not(r);
        return CZK_OK;
    }
    if (is_const(b, 1)) {
        t = czk_bool_not(*a);
        u = czk_bool_not(*c);
        CZK_TRY(czk_bool_and(cs, &r, &t, &u));
        *out = czk_bool_not(r);
        return CZK_OK;
    }
    czk_var ch;
    CZK_TRY(czk__cs_alloc(cs, &ch, bitval(cs, chv), "ch", CZK_NOIDX));
    if (cs->needs_constraints) {
        /* (b - c) * a = ch - c */
        czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        czk_lc_add_bool(la, b, &CZK_FR_ONE);
        czk_lc_add_bool(la, c, &CZK_FR_MINUS_ONE);
        czk_lc_add_bool(lb, a, &CZK_FR_ONE);
        czk_lc_add_var(lc, ch);
        czk_lc_add_bool(lc, c, &CZK_FR_MINUS_ONE);
        CZK_TRY(czk_enforce(cs, la, lb, lc, "ch computation", CZK_NOIDX));
    }
    out->var = ch;
    out->kind = CZK_BOOL_IS;
    out->value = (uint8_t)chv;
    return CZK_OK;
}

czk_status czk_bool_sha256_maj(czk_cs *cs, czk_bool *out, const czk_bool *a, const czk_bool *b,
                               const czk_bool *c)
{
    int mv = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    czk_bool t, u, r;
    if (a->kind == CZK_BOOL_CONST && b->kind == CZK_BOOL_CONST && c->kind == CZK_BOOL_CONST) {
        *out = czk_bool_const(mv);
        return CZK_OK;
    }
    if (is_const(a, 0)) return czk_bool_and(cs, out, b, c);
    if (is_const(b, 0)) return czk_bool_and(cs, out, a, c);
    if (is_const(c, 0)) return czk_bool_and(cs, out, a, b);
    if (is_const(c, 1) || is_const(b, 1) || is_const(a, 1)) {
        /* maj(x, y, 1) = !(!x & !y), with (x, y) = (a, b), (a, c), (b, c) in that order */
        const czk_bool *x = a, *y = b;
        if (!is_const(c, 1)) {
            if (is_const(b, 1)) y = c;
            else {
                x = b;
                y = c;
            }
        }
        t = czk_bool_not(*x);
        u = czk_bool_not(*y);
        CZK_TRY(czk_bool_and(cs, &r, &t, &u));
        *out = czk_bool_not(r);
        return CZK_OK;
    }
    czk_var maj;
    czk_bool bc;
    CZK_TRY(czk__cs_alloc(cs, &maj, bitval(cs, mv), "maj", CZK_NOIDX));
    czk__cs_ns_push(cs, "b and c", CZK_NOIDX);
    czk_status s = czk_bool_and(cs, &bc, b, c);
    czk__cs_ns_pop(cs);
    CZK_TRY(s);
    if (cs->needs_constraints) {
        /* (bc + bc - b - c) * a = bc - maj */
        czk_lc *la = czk_lc_scratch(cs, 0), *lb = czk_lc_scratch(cs, 1), *lc = czk_lc_scratch(cs, 2);
        czk_lc_add_bool(la, &bc, &CZK_FR_ONE);
        czk_lc_add_bool(la, &bc, &CZK_FR_ONE);
        czk_lc_add_bool(la, b, &CZK_FR_MINUS_ONE);
        czk_lc_add_bool(la, c, &CZK_FR_MINUS_ONE);
        czk_lc_add_bool(lb, a, &CZK_FR_ONE);
        czk_lc_add_bool(lc, &bc, &CZK_FR_ONE);
        czk_lc_sub_var(lc, maj);
        CZK_TRY(czk_enforce(cs, la, lb, lc, "maj computation", CZK_NOIDX));
    }
    out->var = maj;
    out->kind = CZK_BOOL_IS;
    out->value = (uint8_t)mv;
    return CZK_OK;
}

static czk_status bits_alloc_ns(czk_cs *cs, czk_bool *out, size_t i, int v)
{
    czk__cs_ns_push(cs, "bit", i);
    czk_status s = czk_bit_alloc(cs, out, v);
    czk__cs_ns_pop(cs);
    return s;
}

czk_status czk_bits_alloc_u64_le(czk_cs *cs, czk_bool out[64], uint64_t v)
{
    for (unsigned i = 0; i < 64; i++) CZK_TRY(bits_alloc_ns(cs, &out[i], i, (int)(v >> i) & 1));
    return CZK_OK;
}

czk_status czk_bits_alloc_bytes_le(czk_cs *cs, czk_bool *out, const uint8_t *bytes, size_t nbytes)
{
    if (cs->has_values && !bytes) return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "bytes_into_boolean_vec: no value");
    for (size_t i = 0; i < 8 * nbytes; i++)
        CZK_TRY(bits_alloc_ns(cs, &out[i], i, bytes ? (bytes[i / 8] >> (i % 8)) & 1 : 0));
    return CZK_OK;
}

czk_status czk_bits_alloc_bytes_be(czk_cs *cs, czk_bool *out, const uint8_t *bytes, size_t nbytes)
{
    if (cs->has_values && !bytes)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "bytes_into_boolean_vec_be: no value");
    for (size_t i = 0; i < 8 * nbytes; i++)
        CZK_TRY(bits_alloc_ns(cs, &out[i], i, bytes ? (bytes[i / 8] >> (7 - i % 8)) & 1 : 0));
    return CZK_OK;
}

czk_status czk_bits_alloc_field_le(czk_cs *cs, czk_bool out[255], const czk_fr *v)
{
    uint64_t l[4] = {0, 0, 0, 0};
    if (cs->has_values) {
        if (!v) return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "field_into_allocated_bits_le: no value");
        czk_fr_to_limbs(l, v);
    }
    for (unsigned i = 0; i < 255; i++) CZK_TRY(bits_alloc_ns(cs, &out[i], i, (int)(l[i / 64] >> (i % 64)) & 1));
    return CZK_OK;
}
