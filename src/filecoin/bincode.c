/* The vanilla proofs' shared bincode reader and writer (bincode.h). Layout:
 * docs/formats.md "Vanilla proofs as bincode". */
#include <stdarg.h>
#include <stdio.h>

#include "filecoin/bincode.h"

enum { VARIANT_SINGLE = 0, VARIANT_SUB = 1, VARIANT_TOP = 2 };

static const char *const VARIANT_NAME[3] = {"Single", "Sub", "Top"};

static uint32_t tree_variant(const czk_fc_shape *t)
{
    return !t->sub_arity ? VARIANT_SINGLE : !t->top_arity ? VARIANT_SUB : VARIANT_TOP;
}

/* (first level, levels) of each path a proof of tree t holds. */
static uint32_t tree_parts(const czk_fc_shape *t, uint32_t first[3], uint32_t nlev[3])
{
    uint32_t v = tree_variant(t);
    if (v == VARIANT_SINGLE) {
        first[0] = 0, nlev[0] = czk_fc_shape_tree_levels(t);
        return 1;
    }
    first[0] = 0, nlev[0] = t->base_height;
    first[1] = t->base_height, nlev[1] = 1;
    first[2] = t->base_height + 1, nlev[2] = 1;
    return v == VARIANT_SUB ? 2 : 3;
}

size_t czk__bc_merkle_bytes(const czk_fc_shape *t)
{
    uint32_t first[3], nlev[3], np = tree_parts(t, first, nlev);
    /* variant, root, leaf; per path the Vec length, then per element the
     * hashes' Vec length, arity - 1 values and the index */
    size_t b = 4 + 32 + 32;
    for (uint32_t i = 0; i < np; i++) {
        b += 8;
        for (uint32_t l = first[i]; l < first[i] + nlev[i]; l++)
            b += 8 + 32 * (size_t)(czk_fc_shape_level_arity(t, l) - 1) + 8;
    }
    return b;
}

/* ---- reader ----------------------------------------------------------------- */

static void field_str(char *out, size_t cap, const czk__bc_field *f)
{
    char group[96] = "", elem[24] = "";
    if (f->group)
        snprintf(group, sizeof group, "%s %lld, %s%s", f->group, (long long)f->k, f->proof ? f->proof : "",
                 f->proof ? ", " : "");
    if (f->j >= 0) snprintf(elem, sizeof elem, "[%lld]", (long long)f->j);
    if (f->l >= 0)
        snprintf(out, cap, "%s%spath element %lld, %s%s", group, f->part, (long long)f->l, f->name, elem);
    else
        snprintf(out, cap, "%s%s%s%s", group, f->part, f->name, elem);
}

czk_status czk__bc_err(czk_status st, const czk__bc_reader *r, size_t at, const czk__bc_field *f, const char *fmt,
                       ...)
{
    char msg[256], field[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!f) return czk_error(st, "%s: %s (byte offset %zu)", r->who, msg, at);
    field_str(field, sizeof field, f);
    return czk_error(st, "%s: %s: %s (byte offset %zu)", r->who, field, msg, at);
}

static czk_status need(const czk__bc_reader *r, size_t k, const czk__bc_field *f)
{
    if (czk__span_left(&r->s) < k)
        return czk__bc_err(CZK_ERR_FORMAT, r, r->s.pos, f, "input ends after %zu bytes, %zu more needed",
                           (size_t)r->s.end, k - (size_t)czk__span_left(&r->s));
    return CZK_OK;
}

czk_status czk__bc_u64(uint64_t *v, czk__bc_reader *r, const czk__bc_field *f)
{
    CZK_TRY(need(r, 8, f));
    *v = czk__rd64(czk__span_take(&r->s, 8));
    return CZK_OK;
}

czk_status czk__bc_u32(uint32_t *v, czk__bc_reader *r, const czk__bc_field *f)
{
    CZK_TRY(need(r, 4, f));
    *v = czk__rd32(czk__span_take(&r->s, 4));
    return CZK_OK;
}

czk_status czk__bc_fr(czk_fr *v, czk__bc_reader *r, const czk__bc_field *f)
{
    CZK_TRY(need(r, 32, f));
    if (czk_fr_from_bytes(v, r->s.buf + r->s.pos) != CZK_OK)
        return czk__bc_err(CZK_ERR_NOT_CANONICAL, r, r->s.pos, f, "32-byte value is not a field element (>= r)");
    r->s.pos += 32;
    return CZK_OK;
}

czk_status czk__bc_len(czk__bc_reader *r, uint64_t want, const czk__bc_field *f)
{
    size_t at = (size_t)r->s.pos;
    uint64_t n;
    CZK_TRY(czk__bc_u64(&n, r, f));
    if (n != want)
        return czk__bc_err(CZK_ERR_FORMAT, r, at, f, "expected %llu elements, found %llu", (unsigned long long)want,
                           (unsigned long long)n);
    return CZK_OK;
}

/* One path (levels first .. first + nlev - 1 of tree t), named by `at`
 * (its part set). Adds the element indices to m->index in the mixed radix
 * (*mul: the weight of level `first`). */
static czk_status read_path(czk_fc_merkle *m, czk_fr **sib, uint64_t *mul, czk__bc_reader *r, const czk_fc_shape *t,
                            uint32_t first, uint32_t nlev, const czk__bc_field *at)
{
    czk__bc_field f = *at;
    f.name = "path";
    CZK_TRY(czk__bc_len(r, nlev, &f));
    for (uint32_t l = 0; l < nlev; l++) {
        uint32_t ar = czk_fc_shape_level_arity(t, first + l);
        f.l = l;
        f.name = "hashes";
        CZK_TRY(czk__bc_len(r, ar - 1, &f));
        for (uint32_t j = 0; j < ar - 1; j++) {
            f.j = j;
            CZK_TRY(czk__bc_fr(&(*sib)[j], r, &f));
        }
        f.j = -1;
        *sib += ar - 1;
        f.name = "index";
        size_t o = (size_t)r->s.pos;
        uint64_t d;
        CZK_TRY(czk__bc_u64(&d, r, &f));
        if (d >= ar)
            return czk__bc_err(CZK_ERR_FORMAT, r, o, &f, "%llu out of range 0..%u (the level's arity is %u)",
                               (unsigned long long)d, ar - 1, ar);
        m->index += d * *mul;
        *mul *= ar;
    }
    return CZK_OK;
}

czk_status czk__bc_merkle(czk_fc_merkle *m, czk__bc_reader *r, const czk_fc_shape *t, const czk__bc_field *at)
{
    static const char *const PART[3] = {"base ", "sub ", "top "};
    uint32_t want = tree_variant(t), v, first[3], nlev[3], np = tree_parts(t, first, nlev);
    czk__bc_field f = *at, froot, fleaf;
    f.part = "";
    f.l = f.j = -1;
    froot = fleaf = f;
    froot.name = "root";
    fleaf.name = "leaf";
    f.name = "variant";
    size_t o = (size_t)r->s.pos;
    CZK_TRY(czk__bc_u32(&v, r, &f));
    if (v != want)
        return czk__bc_err(CZK_ERR_FORMAT, r, o, &f, "expected %u (%s, the tree's shape), found %u%s%s%s", want,
                           VARIANT_NAME[want], v, v <= 2 ? " (" : " (no such variant", v <= 2 ? VARIANT_NAME[v] : "",
                           ")");
    m->index = 0;
    uint64_t mul = 1;
    czk_fr *sib = m->siblings;
    if (want == VARIANT_SINGLE) {
        CZK_TRY(czk__bc_fr(&m->root, r, &froot));
        CZK_TRY(czk__bc_fr(&m->leaf, r, &fleaf));
        CZK_TRY(read_path(m, &sib, &mul, r, t, first[0], nlev[0], &f));
    } else {
        for (uint32_t i = 0; i < np; i++) {
            f.part = PART[i];
            CZK_TRY(read_path(m, &sib, &mul, r, t, first[i], nlev[i], &f));
        }
        CZK_TRY(czk__bc_fr(&m->root, r, &froot));
        CZK_TRY(czk__bc_fr(&m->leaf, r, &fleaf));
    }
    CZK_ASSERT(sib == m->siblings + czk_fc_shape_tree_siblings(t));
    return CZK_OK;
}

/* ---- writer ----------------------------------------------------------------- */

void czk__bc_put_merkle(czk__bc_writer *w, const czk_fc_merkle *m, const czk_fc_shape *t)
{
    uint32_t v = tree_variant(t), first[3], nlev[3], np = tree_parts(t, first, nlev);
    for (int i = 0; i < 4; i++) *w->p++ = (uint8_t)(v >> (8 * i));
    const czk_fr *sib = m->siblings;
    uint64_t idx = m->index;
    if (v == VARIANT_SINGLE) {
        czk__bc_put_fr(w, &m->root);
        czk__bc_put_fr(w, &m->leaf);
    }
    for (uint32_t i = 0; i < np; i++) {
        czk__bc_put_u64(w, nlev[i]);
        for (uint32_t l = first[i]; l < first[i] + nlev[i]; l++) {
            uint32_t ar = czk_fc_shape_level_arity(t, l);
            czk__bc_put_u64(w, ar - 1);
            for (uint32_t j = 0; j < ar - 1; j++) czk__bc_put_fr(w, &sib[j]);
            sib += ar - 1;
            czk__bc_put_u64(w, idx % ar);
            idx /= ar;
        }
    }
    if (v != VARIANT_SINGLE) {
        czk__bc_put_fr(w, &m->root);
        czk__bc_put_fr(w, &m->leaf);
    }
}
