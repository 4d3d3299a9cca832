/* SHA-256 compression gadget, witness-only, on 32-bit words.
 *
 * Under the WITNESS backend the gadget's only effect is the sequence of aux
 * values it allocates (every one a bit: 0 or 1) and the output words. This
 * file computes FIPS 180-4 §6.2 on native words and writes exactly the values
 * the bit-level gadget (sha256_lcv.c, uint32_lcv.c, boolean_lcv.c) would
 * allocate, in the same order, without going through the constraint system
 * per bit.
 *
 * A gadget word is kept as three masks: v (the logical value of each bit),
 * c (bits that are constants) and n (bits that are the negation of an
 * allocated bit; n & c = 0). The underlying value of an allocated bit is
 * v ^ n. With them:
 *   xor(a, b)   allocates, in bit order, one bit where neither side is a
 *               constant, holding (a.v ^ b.v) ^ (a.n ^ b.n); the result is
 *               v = a.v ^ b.v, c = a.c & b.c, n = (a.n ^ b.n ^ (a.c & a.v) ^
 *               (b.c & b.v)) & ~c (boolean.rs Boolean::xor case by case).
 *   ch, maj     with no constant bit: ch allocates ch_i per bit; maj
 *               allocates maj_i then (b & c)_i per bit (AllocatedBit::and,
 *               and_not and nor all hold the logical AND). Bits with a
 *               constant operand follow the gadget's case analysis bit by bit.
 *   addmany     allocates the bits of the 64-bit sum (as many as
 *               n * (2^32 - 1) has), unless every operand bit is constant.
 *   multieq     builds constraints only: nothing under WITNESS.
 * Tested against the bit-level gadget on the TEST backend with random
 * constant / allocated / negated inputs (tests/gadgets/test_sha256.c). */
#include <string.h>

#include "cs/cs_internal.h"
#include "czk/sha256.h"
#include "gadgets/sha256_witness.h"

typedef struct ww {
    uint32_t v, c, n;
    uint32_t base; /* first aux index when `alloc` (an addmany result: bits base..base+31, all IS) */
    int alloc;
} ww;

typedef struct emitter {
    czk_fr *aux;
    uint32_t p;
} emitter;

static inline void put(emitter *e, uint32_t bit)
{
    e->aux[e->p++] = bit ? CZK_FR_ONE : CZK_FR_ZERO;
}

/* Allocate the bits of `m` in increasing order with values from u. */
static inline void put_mask(emitter *e, uint32_t m, uint32_t u)
{
    if (m == 0xffffffffu) {
        for (unsigned i = 0; i < 32; i++) put(e, (u >> i) & 1);
        return;
    }
    while (m) {
        unsigned i = (unsigned)__builtin_ctz(m);
        put(e, (u >> i) & 1);
        m &= m - 1;
    }
}

static inline ww w_const(uint32_t v)
{
    ww r = {v, 0xffffffffu, 0, 0, 0};
    return r;
}

static inline uint32_t rotr32(uint32_t x, unsigned r)
{
    return r ? (x >> r) | (x << (32 - r)) : x;
}

static inline ww w_rotr(ww a, unsigned r)
{
    ww o = {rotr32(a.v, r), rotr32(a.c, r), rotr32(a.n, r), 0, 0};
    return o;
}

/* shr fills constant false bits at the top */
static inline ww w_shr(ww a, unsigned r)
{
    ww o = {a.v >> r, (a.c >> r) | ~(0xffffffffu >> r), a.n >> r, 0, 0};
    return o;
}

static inline ww w_xor(emitter *e, ww a, ww b)
{
    ww o;
    o.v = a.v ^ b.v;
    o.c = a.c & b.c;
    o.n = (a.n ^ b.n ^ (a.c & a.v) ^ (b.c & b.v)) & ~o.c;
    o.base = 0;
    o.alloc = 0;
    put_mask(e, ~a.c & ~b.c, o.v ^ o.n);
    return o;
}

/* ---- one bit, for the words with constant bits (boolean_lcv.c's cases) ---- */

typedef struct sb {
    uint32_t v, c, n;
} sb;

static inline sb b_of(const ww *w, unsigned i)
{
    sb r = {(w->v >> i) & 1, (w->c >> i) & 1, (w->n >> i) & 1};
    return r;
}

static inline sb b_not(sb a)
{
    if (!a.c) a.n ^= 1;
    a.v ^= 1;
    return a;
}

static inline sb b_new(emitter *e, uint32_t v)
{
    sb r = {v, 0, 0};
    put(e, v);
    return r;
}

static inline int b_is(sb a, uint32_t v)
{
    return a.c && a.v == v;
}

/* Boolean::and: every allocating case (and, and_not, nor) holds a & b */
static sb b_and(emitter *e, sb a, sb b)
{
    if (b_is(a, 0) || b_is(b, 0)) return (sb){0, 1, 0};
    if (a.c) return b;
    if (b.c) return a;
    return b_new(e, a.v & b.v);
}

static sb b_ch(emitter *e, sb a, sb b, sb c)
{
    uint32_t chv = (a.v & b.v) ^ ((a.v ^ 1) & c.v);
    if (a.c && b.c && c.c) return (sb){chv, 1, 0};
    if (b_is(a, 0)) return c;
    if (b_is(b, 0)) return b_and(e, b_not(a), c);
    if (b_is(c, 0)) return b_and(e, a, b);
    if (b_is(c, 1)) return b_not(b_and(e, a, b_not(b)));
    if (b_is(b, 1)) return b_not(b_and(e, b_not(a), b_not(c)));
    return b_new(e, chv);
}

static sb b_maj(emitter *e, sb a, sb b, sb c)
{
    uint32_t mv = (a.v & b.v) ^ (a.v & c.v) ^ (b.v & c.v);
    if (a.c && b.c && c.c) return (sb){mv, 1, 0};
    if (b_is(a, 0)) return b_and(e, b, c);
    if (b_is(b, 0)) return b_and(e, a, c);
    if (b_is(c, 0)) return b_and(e, a, b);
    if (b_is(c, 1) || b_is(b, 1) || b_is(a, 1)) {
        sb x = a, y = b;
        if (!b_is(c, 1)) {
            if (b_is(b, 1)) y = c;
            else {
                x = b;
                y = c;
            }
        }
        return b_not(b_and(e, b_not(x), b_not(y)));
    }
    sb r = b_new(e, mv);
    (void)b_and(e, b, c);
    return r;
}

static inline void w_set(ww *w, unsigned i, sb b)
{
    w->v |= b.v << i;
    w->c |= b.c << i;
    w->n |= b.n << i;
}

static ww w_ch(emitter *e, ww a, ww b, ww c)
{
    ww o = {0, 0, 0, 0, 0};
    if (((a.c | b.c | c.c)) == 0) {
        o.v = (a.v & b.v) ^ (~a.v & c.v);
        put_mask(e, 0xffffffffu, o.v);
        return o;
    }
    for (unsigned i = 0; i < 32; i++) w_set(&o, i, b_ch(e, b_of(&a, i), b_of(&b, i), b_of(&c, i)));
    return o;
}

static ww w_maj(emitter *e, ww a, ww b, ww c)
{
    ww o = {0, 0, 0, 0, 0};
    if (((a.c | b.c | c.c)) == 0) {
        o.v = (a.v & b.v) ^ (a.v & c.v) ^ (b.v & c.v);
        const uint32_t bc = b.v & c.v;
        for (unsigned i = 0; i < 32; i++) {
            put(e, (o.v >> i) & 1);
            put(e, (bc >> i) & 1);
        }
        return o;
    }
    for (unsigned i = 0; i < 32; i++) w_set(&o, i, b_maj(e, b_of(&a, i), b_of(&b, i), b_of(&c, i)));
    return o;
}

/* UInt32::addmany (uint32_lcv.c czk_u32_addmany), 2..10 operands */
static ww w_addmany(emitter *e, const ww *ops, unsigned n)
{
    uint64_t sum = 0, max_value = (uint64_t)n * 0xffffffffull;
    uint32_t allc = 0xffffffffu;
    for (unsigned k = 0; k < n; k++) {
        sum += ops[k].v;
        allc &= ops[k].c;
    }
    if (allc == 0xffffffffu) return w_const((uint32_t)sum);
    ww o = {(uint32_t)sum, 0, 0, e->p, 1};
    unsigned nb = 64u - (unsigned)__builtin_clzll(max_value);
    for (unsigned i = 0; i < nb; i++) put(e, (unsigned)(sum >> i) & 1);
    return o;
}

static ww w_of_u32(const czk_u32 *a)
{
    ww r = {a->value, 0, 0, 0, 0};
    for (unsigned i = 0; i < 32; i++) {
        const czk_bool *b = &a->bits[i];
        if (b->kind == CZK_BOOL_CONST) r.c |= 1u << i;
        else if (b->kind == CZK_BOOL_NOT) r.n |= 1u << i;
    }
    return r;
}

static inline ww w_xor3(emitter *e, ww x, unsigned r1, unsigned r2, unsigned r3, int shr3)
{
    ww t = w_xor(e, w_rotr(x, r1), w_rotr(x, r2));
    return w_xor(e, t, shr3 ? w_shr(x, r3) : w_rotr(x, r3));
}

/* bellpepper's Maybe: concrete (n == 0: v[0]) or a pending sum */
typedef struct maybe {
    ww v[8];
    unsigned n;
} maybe;

static ww compute(emitter *e, maybe *m, const ww *extra)
{
    if (m->n == 0) return m->v[0];
    if (extra) m->v[m->n++] = *extra;
    return w_addmany(e, m->v, m->n);
}

/* Upper bound of the bits one compression allocates: message schedule
 * 48 x (4 x 32 + 34), rounds 64 x (4 x 32 + 32 + 2 x 32 + 2 x 35), final 8 x 35. */
#define SHA_WITNESS_MAX_ALLOCS (48u * 162u + 64u * 294u + 8u * 35u)

int czk__sha256_compression_witness(czk_cs *cs, czk_u32 out[8], const czk_bool in[512], const czk_u32 iv_in[8])
{
    if (cs->backend != CZK_CS_WITNESS || cs->needs_constraints || !cs->has_values || cs->wants_names) return 0;
    const czk__cs_values *vals = czk__cs_values_of(cs);
    if (!vals || !vals->aux || cs->n_aux > vals->cap_aux || vals->cap_aux - cs->n_aux < SHA_WITNESS_MAX_ALLOCS ||
        (uint64_t)cs->n_aux + SHA_WITNESS_MAX_ALLOCS > CZK_VAR_MAX_INDEX)
        return 0;
    emitter e = {vals->aux, cs->n_aux};
    ww w[64];
    for (unsigned i = 0; i < 16; i++) {
        czk_u32 t;
        czk_u32_from_bits_be(&t, in + 32 * i);
        w[i] = w_of_u32(&t);
    }
    for (unsigned i = 16; i < 64; i++) {
        ww ops[4];
        ops[1] = w_xor3(&e, w[i - 15], 7, 18, 3, 1);
        ops[3] = w_xor3(&e, w[i - 2], 17, 19, 10, 1);
        ops[0] = w[i - 16];
        ops[2] = w[i - 7];
        w[i] = w_addmany(&e, ops, 4);
    }
    ww iv[8];
    for (unsigned i = 0; i < 8; i++) iv[i] = w_of_u32(&iv_in[i]);
    maybe a, ee;
    ww b = iv[1], c = iv[2], d = iv[3], f = iv[5], g = iv[6], h = iv[7];
    a.v[0] = iv[0];
    a.n = 0;
    ee.v[0] = iv[4];
    ee.n = 0;
    for (unsigned i = 0; i < 64; i++) {
        ww new_e = compute(&e, &ee, NULL);
        ww s1 = w_xor3(&e, new_e, 6, 11, 25, 0);
        ww ch = w_ch(&e, new_e, f, g);
        ww new_a = compute(&e, &a, NULL);
        ww s0 = w_xor3(&e, new_a, 2, 13, 22, 0);
        ww maj = w_maj(&e, new_a, b, c);
        /* temp1 = [h, s1, ch, K[i], w[i]]; e = temp1 + d; a = temp1 + [s0, maj] */
        ee.v[0] = h;
        ee.v[1] = s1;
        ee.v[2] = ch;
        ee.v[3] = w_const(CZK_SHA256_K[i]);
        ee.v[4] = w[i];
        memcpy(a.v, ee.v, 5 * sizeof(ww));
        ee.v[5] = d;
        ee.n = 6;
        a.v[5] = s0;
        a.v[6] = maj;
        a.n = 7;
        h = g;
        g = f;
        f = new_e;
        d = c;
        c = b;
        b = new_a;
    }
    ww o[8], ops[2];
    o[0] = compute(&e, &a, &iv[0]);
    ops[0] = iv[1], ops[1] = b;
    o[1] = w_addmany(&e, ops, 2);
    ops[0] = iv[2], ops[1] = c;
    o[2] = w_addmany(&e, ops, 2);
    ops[0] = iv[3], ops[1] = d;
    o[3] = w_addmany(&e, ops, 2);
    o[4] = compute(&e, &ee, &iv[4]);
    ops[0] = iv[5], ops[1] = f;
    o[5] = w_addmany(&e, ops, 2);
    ops[0] = iv[6], ops[1] = g;
    o[6] = w_addmany(&e, ops, 2);
    ops[0] = iv[7], ops[1] = h;
    o[7] = w_addmany(&e, ops, 2);
    /* every output is an addmany result: allocated bits base..base+31, or a constant */
    for (unsigned j = 0; j < 8; j++) {
        CZK_ASSERT(o[j].alloc || o[j].c == 0xffffffffu);
        if (o[j].alloc) {
            for (unsigned i = 0; i < 32; i++) {
                out[j].bits[i].var = czk_var_aux(o[j].base + i);
                out[j].bits[i].kind = CZK_BOOL_IS;
                out[j].bits[i].value = (uint8_t)((o[j].v >> i) & 1);
            }
            out[j].value = o[j].v;
        } else
            czk_u32_constant(&out[j], o[j].v);
    }
    CZK_ASSERT(e.p - cs->n_aux <= SHA_WITNESS_MAX_ALLOCS);
    cs->n_aux = e.p;
    return 1;
}
