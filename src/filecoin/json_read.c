/* C1 reader: jansson DOM, then a validating walk that names the JSON path of
 * the first bad field. Layout: src/filecoin/README.md. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "czk/filecoin.h"
#include "filecoin/internal.h"

typedef struct jpath {
    char buf[768];
    size_t len;
    const char *name; /* file name for messages */
} jpath;

static size_t jp_key(jpath *p, const char *key)
{
    size_t old = p->len;
    int n = snprintf(p->buf + p->len, sizeof p->buf - p->len, "%s%s", p->len ? "." : "", key);
    if (n > 0) p->len = p->len + (size_t)n < sizeof p->buf ? p->len + (size_t)n : sizeof p->buf - 1;
    return old;
}

static size_t jp_idx(jpath *p, size_t i)
{
    size_t old = p->len;
    int n = snprintf(p->buf + p->len, sizeof p->buf - p->len, "[%zu]", i);
    if (n > 0) p->len = p->len + (size_t)n < sizeof p->buf ? p->len + (size_t)n : sizeof p->buf - 1;
    return old;
}

static void jp_pop(jpath *p, size_t old)
{
    p->len = old;
    p->buf[old] = 0;
}

static czk_status CZK_PRINTF(3, 4) jp_err(czk_status s, const jpath *p, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return czk_error(s, "%s: %s: %s", p->name, p->len ? p->buf : "(top level)", msg);
}

static const char *jtype(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number with a fraction";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    default: return "null";
    }
}

/* Field `key` of object j (which the caller checked is an object). The path
 * is extended by key; the caller pops. */
static czk_status get_field(json_t **out, json_t *j, const char *key, jpath *p)
{
    jp_key(p, key);
    *out = json_object_get(j, key);
    if (!*out) return jp_err(CZK_ERR_FORMAT, p, "missing field");
    return CZK_OK;
}

static czk_status want_object(json_t *j, const jpath *p)
{
    if (!json_is_object(j)) return jp_err(CZK_ERR_FORMAT, p, "expected an object, found %s", jtype(j));
    return CZK_OK;
}

static czk_status want_array(json_t *j, size_t n, const jpath *p)
{
    if (!json_is_array(j)) return jp_err(CZK_ERR_FORMAT, p, "expected an array, found %s", jtype(j));
    if (n != (size_t)-1 && json_array_size(j) != n)
        return jp_err(CZK_ERR_FORMAT, p, "expected %zu elements, found %zu", n, json_array_size(j));
    return CZK_OK;
}

static czk_status read_uint(uint64_t *v, json_t *j, uint64_t max, const jpath *p)
{
    if (!json_is_integer(j)) return jp_err(CZK_ERR_FORMAT, p, "expected an integer, found %s", jtype(j));
    json_int_t x = json_integer_value(j);
    if (x < 0 || (uint64_t)x > max)
        return jp_err(CZK_ERR_FORMAT, p, "%lld out of range 0..%llu", (long long)x, (unsigned long long)max);
    *v = (uint64_t)x;
    return CZK_OK;
}

static czk_status read_bytes32(uint8_t out[32], json_t *j, jpath *p)
{
    if (!json_is_array(j)) return jp_err(CZK_ERR_FORMAT, p, "expected an array of 32 bytes, found %s", jtype(j));
    size_t n = json_array_size(j);
    if (n == 4)
        return jp_err(CZK_ERR_UNSUPPORTED, p,
                      "4 elements: the pre-2021 four-u64-limb encoding is not supported (expected 32 bytes)");
    if (n != 32) return jp_err(CZK_ERR_FORMAT, p, "expected 32 bytes, found %zu elements", n);
    for (size_t i = 0; i < 32; i++) {
        json_t *e = json_array_get(j, i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 255) {
            size_t o = jp_idx(p, i);
            czk_status s = json_is_integer(e)
                               ? jp_err(CZK_ERR_FORMAT, p, "%lld is not a byte", (long long)json_integer_value(e))
                               : jp_err(CZK_ERR_FORMAT, p, "expected an integer (a byte), found %s", jtype(e));
            jp_pop(p, o);
            return s;
        }
        out[i] = (uint8_t)json_integer_value(e);
    }
    return CZK_OK;
}

static czk_status read_fr(czk_fr *out, json_t *j, jpath *p)
{
    uint8_t b[32];
    CZK_TRY(read_bytes32(b, j, p));
    if (czk_fr_from_bytes(out, b) != CZK_OK)
        return jp_err(CZK_ERR_NOT_CANONICAL, p, "32-byte value is not a field element (>= r)");
    return CZK_OK;
}

static czk_status read_fr_field(czk_fr *out, json_t *obj, const char *key, jpath *p)
{
    json_t *j;
    size_t o = p->len;
    czk_status s = get_field(&j, obj, key, p);
    if (s == CZK_OK) s = read_fr(out, j, p);
    jp_pop(p, o);
    return s;
}

static czk_status read_uint_field(uint64_t *v, json_t *obj, const char *key, uint64_t max, jpath *p)
{
    json_t *j;
    size_t o = p->len;
    czk_status s = get_field(&j, obj, key, p);
    if (s == CZK_OK) s = read_uint(v, j, max, p);
    jp_pop(p, o);
    return s;
}

static czk_status read_fr_array(czk_fr *out, size_t n, json_t *obj, const char *key, jpath *p)
{
    json_t *j;
    size_t o = p->len;
    czk_status s = get_field(&j, obj, key, p);
    if (s == CZK_OK) s = want_array(j, n, p);
    for (size_t i = 0; s == CZK_OK && i < n; i++) {
        size_t o2 = jp_idx(p, i);
        s = read_fr(&out[i], json_array_get(j, i), p);
        if (s == CZK_OK) jp_pop(p, o2);
    }
    if (s == CZK_OK) jp_pop(p, o);
    return s;
}

/* An InclusionPath: {"path": [{"hashes": [...], "index": n}, ...]} (a bare
 * array is accepted too). Levels first_level .. first_level + nlev - 1. */
static czk_status read_inclusion_path(czk_fc_merkle *m, czk_fr **sib, uint64_t *mul, json_t *j,
                                      const czk_fc_shape *s, int is_tree_d, uint32_t first_level,
                                      uint32_t nlev, jpath *p)
{
    size_t o = p->len;
    if (json_is_object(j)) {
        json_t *inner;
        CZK_TRY(get_field(&inner, j, "path", p));
        j = inner;
    }
    CZK_TRY(want_array(j, nlev, p));
    for (uint32_t l = 0; l < nlev; l++) {
        uint32_t ar = czk__fc_arity(s, is_tree_d, first_level + l);
        json_t *e = json_array_get(j, l);
        size_t o2 = jp_idx(p, l);
        CZK_TRY(want_object(e, p));
        CZK_TRY(read_fr_array(*sib, ar - 1, e, "hashes", p));
        *sib += ar - 1;
        uint64_t d;
        CZK_TRY(read_uint_field(&d, e, "index", ar - 1, p));
        m->index += d * *mul;
        *mul *= ar;
        jp_pop(p, o2);
    }
    jp_pop(p, o);
    return CZK_OK;
}

static czk_status read_merkle(czk_fc_merkle *m, json_t *j, const czk_fc_shape *s, int is_tree_d, jpath *p)
{
    size_t o = p->len;
    CZK_TRY(want_object(j, p));
    json_t *data;
    CZK_TRY(get_field(&data, j, "data", p));
    CZK_TRY(want_object(data, p));
    const char *kind = is_tree_d || !s->sub_arity ? "Single" : !s->top_arity ? "Sub" : "Top";
    if (json_object_size(data) != 1 || !json_object_get(data, kind)) {
        const char *found = json_object_size(data) ? json_object_iter_key(json_object_iter(data)) : "nothing";
        return jp_err(CZK_ERR_FORMAT, p, "expected \"%s\" (the %s shape), found \"%s\"", kind,
                      is_tree_d ? "tree D" : "tree C/R", found);
    }
    json_t *pr;
    CZK_TRY(get_field(&pr, data, kind, p));
    CZK_TRY(want_object(pr, p));
    CZK_TRY(read_fr_field(&m->root, pr, "root", p));
    CZK_TRY(read_fr_field(&m->leaf, pr, "leaf", p));
    m->index = 0;
    uint64_t mul = 1;
    czk_fr *sib = m->siblings;
    json_t *part;
    size_t o2;
    if (kind[1] == 'i') {
        o2 = p->len;
        CZK_TRY(get_field(&part, pr, "path", p));
        CZK_TRY(read_inclusion_path(m, &sib, &mul, part, s, is_tree_d, 0, czk__fc_levels(s, is_tree_d), p));
        jp_pop(p, o2);
    } else {
        o2 = p->len;
        CZK_TRY(get_field(&part, pr, "base_proof", p));
        CZK_TRY(read_inclusion_path(m, &sib, &mul, part, s, 0, 0, s->base_height, p));
        jp_pop(p, o2);
        CZK_TRY(get_field(&part, pr, "sub_proof", p));
        CZK_TRY(read_inclusion_path(m, &sib, &mul, part, s, 0, s->base_height, 1, p));
        jp_pop(p, o2);
        if (s->top_arity) {
            CZK_TRY(get_field(&part, pr, "top_proof", p));
            CZK_TRY(read_inclusion_path(m, &sib, &mul, part, s, 0, s->base_height + 1, 1, p));
            jp_pop(p, o2);
        }
    }
    jp_pop(p, o);
    return CZK_OK;
}

static czk_status read_column(czk_fc_column_proof *c, json_t *j, const czk_fc_shape *s, jpath *p)
{
    size_t o = p->len;
    CZK_TRY(want_object(j, p));
    json_t *col, *inc;
    CZK_TRY(get_field(&col, j, "column", p));
    CZK_TRY(want_object(col, p));
    uint64_t idx;
    CZK_TRY(read_uint_field(&idx, col, "index", s->nodes - 1, p));
    c->index = (uint32_t)idx;
    CZK_TRY(read_fr_array(c->rows, s->layers, col, "rows", p));
    jp_pop(p, o);
    CZK_TRY(get_field(&inc, j, "inclusion_proof", p));
    CZK_TRY(read_merkle(&c->proof, inc, s, 0, p));
    jp_pop(p, o);
    return CZK_OK;
}

static czk_status read_labeling(czk_fc_labeling_proof *lp, json_t *j, const czk_fc_shape *s, jpath *p)
{
    CZK_TRY(want_object(j, p));
    CZK_TRY(read_fr_array(lp->parents, CZK_FC_LABEL_PARENTS, j, "parents", p));
    uint64_t v;
    CZK_TRY(read_uint_field(&v, j, "layer_index", s->layers, p));
    if (v < 1) {
        size_t o = jp_key(p, "layer_index");
        czk_status st = jp_err(CZK_ERR_FORMAT, p, "layer 0 out of range 1..%u", s->layers);
        jp_pop(p, o);
        return st;
    }
    lp->layer_index = (uint32_t)v;
    CZK_TRY(read_uint_field(&lp->node, j, "node", s->nodes - 1, p));
    return CZK_OK;
}

static czk_status read_challenge(czk_fc_challenge_proof *cp, json_t *j, const czk_fc_shape *s, jpath *p)
{
    size_t o = p->len;
    json_t *f, *g;
    CZK_TRY(want_object(j, p));
    CZK_TRY(get_field(&f, j, "comm_d_proofs", p));
    CZK_TRY(read_merkle(&cp->comm_d, f, s, 1, p));
    jp_pop(p, o);
    CZK_TRY(get_field(&f, j, "comm_r_last_proof", p));
    CZK_TRY(read_merkle(&cp->comm_r_last, f, s, 0, p));
    jp_pop(p, o);
    CZK_TRY(get_field(&f, j, "replica_column_proofs", p));
    CZK_TRY(want_object(f, p));
    size_t o2 = p->len;
    CZK_TRY(get_field(&g, f, "c_x", p));
    CZK_TRY(read_column(&cp->c_x, g, s, p));
    jp_pop(p, o2);
    CZK_TRY(get_field(&g, f, "drg_parents", p));
    CZK_TRY(want_array(g, CZK_FC_DRG_DEGREE, p));
    for (size_t i = 0; i < CZK_FC_DRG_DEGREE; i++) {
        size_t o3 = jp_idx(p, i);
        CZK_TRY(read_column(&cp->drg[i], json_array_get(g, i), s, p));
        jp_pop(p, o3);
    }
    jp_pop(p, o2);
    CZK_TRY(get_field(&g, f, "exp_parents", p));
    CZK_TRY(want_array(g, CZK_FC_EXP_DEGREE, p));
    for (size_t i = 0; i < CZK_FC_EXP_DEGREE; i++) {
        size_t o3 = jp_idx(p, i);
        CZK_TRY(read_column(&cp->exp[i], json_array_get(g, i), s, p));
        jp_pop(p, o3);
    }
    jp_pop(p, o);
    CZK_TRY(get_field(&f, j, "labeling_proofs", p));
    CZK_TRY(want_array(f, s->layers, p));
    for (size_t l = 0; l < s->layers; l++) {
        size_t o3 = jp_idx(p, l);
        CZK_TRY(read_labeling(&cp->labeling[l], json_array_get(f, l), s, p));
        jp_pop(p, o3);
    }
    jp_pop(p, o);
    CZK_TRY(get_field(&f, j, "encoding_proof", p));
    CZK_TRY(read_labeling(&cp->encoding, f, s, p));
    jp_pop(p, o);
    return CZK_OK;
}

static czk_status read_custom_shape(czk_fc_shape *s, json_t *top, jpath *p)
{
    json_t *j;
    size_t o = p->len;
    CZK_TRY(get_field(&j, top, "czk_shape", p));
    CZK_TRY(want_object(j, p));
    uint64_t nodes, layers, parts, chal, tree[3] = {0, 0, 0};
    CZK_TRY(read_uint_field(&nodes, j, "nodes", 1ULL << 32, p));
    CZK_TRY(read_uint_field(&layers, j, "layers", CZK_FC_MAX_LAYERS, p));
    CZK_TRY(read_uint_field(&parts, j, "partitions", 1000, p));
    CZK_TRY(read_uint_field(&chal, j, "challenges", 100000, p));
    json_t *t;
    CZK_TRY(get_field(&t, j, "tree", p));
    if (!json_is_array(t) || json_array_size(t) < 1 || json_array_size(t) > 3)
        return jp_err(CZK_ERR_FORMAT, p, "expected an array of 1 to 3 arities");
    for (size_t i = 0; i < json_array_size(t); i++) {
        size_t o2 = jp_idx(p, i);
        CZK_TRY(read_uint(&tree[i], json_array_get(t, i), 64, p));
        jp_pop(p, o2);
    }
    if (czk_fc_shape_custom(s, nodes, (uint32_t)layers, (uint32_t)parts, (uint32_t)chal, (uint32_t)tree[0],
                            (uint32_t)tree[1], (uint32_t)tree[2]) != CZK_OK)
        return jp_err(CZK_ERR_FORMAT, p, "%s", czk_last_error());
    jp_pop(p, o);
    return CZK_OK;
}

static czk_status read_inner(czk_fc_c1 *c, json_t *top, jpath *p)
{
    json_t *j;
    CZK_TRY(want_object(top, p));
    CZK_TRY(get_field(&j, top, "registered_proof", p));
    if (!json_is_string(j)) return jp_err(CZK_ERR_FORMAT, p, "expected a string, found %s", jtype(j));
    czk_fc_proof proof;
    if (czk_fc_proof_from_name(&proof, json_string_value(j)) != CZK_OK)
        return jp_err(CZK_ERR_UNSUPPORTED, p, "unknown registered proof \"%s\"", json_string_value(j));
    jp_pop(p, 0);
    czk_fc_shape s;
    if (proof == CZK_FC_PROOF_CUSTOM) CZK_TRY(read_custom_shape(&s, top, p));
    else CZK_TRY(czk_fc_shape_of_proof(&s, proof));
    /* counts first: nothing is allocated for a file whose shape is wrong */
    CZK_TRY(get_field(&j, top, "vanilla_proofs", p));
    CZK_TRY(want_object(j, p));
    const char *key = czk_fc_proof_vanilla_key(proof);
    if (json_object_size(j) != 1 || !json_object_get(j, key)) {
        const char *found = json_object_size(j) ? json_object_iter_key(json_object_iter(j)) : "nothing";
        return jp_err(CZK_ERR_FORMAT, p, "expected \"%s\" for %s, found \"%s\"", key, czk_fc_proof_name(proof),
                      found);
    }
    json_t *parts;
    CZK_TRY(get_field(&parts, j, key, p));
    if (!json_is_array(parts)) return jp_err(CZK_ERR_FORMAT, p, "expected an array of partitions, found %s", jtype(parts));
    if (json_array_size(parts) != s.partitions)
        return jp_err(CZK_ERR_FORMAT, p, "expected %u partitions for %s, found %zu", s.partitions,
                      czk_fc_proof_name(proof), json_array_size(parts));
    for (uint32_t k = 0; k < s.partitions; k++) {
        size_t o = jp_idx(p, k);
        json_t *part = json_array_get(parts, k);
        if (!json_is_array(part))
            return jp_err(CZK_ERR_FORMAT, p, "expected an array of challenge proofs, found %s", jtype(part));
        if (json_array_size(part) != s.challenges)
            return jp_err(CZK_ERR_FORMAT, p, "expected %u challenge proofs, found %zu", s.challenges,
                          json_array_size(part));
        jp_pop(p, o);
    }
    jp_pop(p, 0);

    CZK_TRY(czk_fc_c1_alloc(c, &s));
    CZK_TRY(read_fr_field(&c->comm_r, top, "comm_r", p));
    CZK_TRY(read_fr_field(&c->comm_d, top, "comm_d", p));
    CZK_TRY(read_fr_field(&c->replica_id, top, "replica_id", p));
    CZK_TRY(get_field(&j, top, "seed", p));
    CZK_TRY(read_bytes32(c->seed, j, p));
    jp_pop(p, 0);
    CZK_TRY(get_field(&j, top, "ticket", p));
    CZK_TRY(read_bytes32(c->ticket, j, p));
    jp_pop(p, 0);

    jp_key(p, "vanilla_proofs");
    jp_key(p, key);
    for (uint32_t k = 0; k < s.partitions; k++) {
        size_t o = jp_idx(p, k);
        json_t *part = json_array_get(parts, k);
        for (uint32_t i = 0; i < s.challenges; i++) {
            size_t o2 = jp_idx(p, i);
            CZK_TRY(read_challenge(czk_fc_c1_proof(c, k, i), json_array_get(part, i), &s, p));
            jp_pop(p, o2);
        }
        jp_pop(p, o);
    }
    jp_pop(p, 0);
    return CZK_OK;
}

static czk_status load(json_t **out, const char *buf, size_t len, const char *name, const char *what)
{
    json_error_t e;
    *out = json_loadb(buf, len, 0, &e);
    if (!*out)
        return czk_error(CZK_ERR_FORMAT, "%s: %sinvalid JSON at line %d column %d: %s", name, what, e.line,
                         e.column, e.text);
    return CZK_OK;
}

czk_status czk_fc_c1_parse(czk_fc_c1 *c, const char *buf, size_t len, const char *name)
{
    memset(c, 0, sizeof *c);
    jpath p = {.len = 0, .name = name};
    p.buf[0] = 0;
    json_t *top;
    CZK_TRY(load(&top, buf, len, name, ""));
    czk_status s;
    json_t *env = json_is_object(top) ? json_object_get(top, "Phase1Out") : NULL;
    if (!env) {
        s = read_inner(c, top, &p);
        json_decref(top);
        if (s != CZK_OK) czk_fc_c1_free(c);
        return s;
    }
    uint64_t num = 0, size = 0;
    uint8_t *raw = NULL;
    json_t *inner = NULL;
    s = read_uint_field(&num, top, "SectorNum", INT64_MAX, &p);
    if (s == CZK_OK) s = read_uint_field(&size, top, "SectorSize", INT64_MAX, &p);
    if (s == CZK_OK && !json_is_string(env)) {
        jp_key(&p, "Phase1Out");
        s = jp_err(CZK_ERR_FORMAT, &p, "expected a base64 string, found %s", jtype(env));
    }
    if (s == CZK_OK) {
        size_t elen = json_string_length(env), rlen = 0;
        raw = malloc(elen / 4 * 3 + 4);
        if (!raw) s = czk_error(CZK_ERR_NOMEM, "%s: Phase1Out: %zu bytes", name, elen);
        else if (czk_fc_base64_decode(raw, &rlen, json_string_value(env), elen) != CZK_OK)
            s = czk_error_context(CZK_ERR_FORMAT, "%s: Phase1Out", name);
        else {
            json_decref(top);
            top = NULL;
            char inner_name[600];
            snprintf(inner_name, sizeof inner_name, "%s: Phase1Out", name);
            s = load(&inner, (const char *)raw, rlen, inner_name, "");
            free(raw);
            raw = NULL;
            if (s == CZK_OK) {
                p.name = inner_name;
                s = read_inner(c, inner, &p);
                p.name = name;
            }
            if (s == CZK_OK && size != c->shape.sector_size)
                s = czk_error(CZK_ERR_FORMAT, "%s: SectorSize: %llu does not match %s (%llu bytes)", name,
                              (unsigned long long)size, czk_fc_proof_name(c->shape.proof),
                              (unsigned long long)c->shape.sector_size);
        }
    }
    free(raw);
    json_decref(inner);
    json_decref(top);
    if (s != CZK_OK) {
        czk_fc_c1_free(c);
        return s;
    }
    c->has_envelope = 1;
    c->sector_num = (int64_t)num;
    return CZK_OK;
}

czk_status czk_fc_c1_read(czk_fc_c1 *c, const char *path)
{
    memset(c, 0, sizeof *c);
    FILE *f = fopen(path, "rb");
    if (!f) return czk_error(CZK_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 1 << 20;
            char *nb = realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(f);
                return czk_error(CZK_ERR_NOMEM, "%s: reading %zu bytes", path, cap);
            }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0) break;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        free(buf);
        return czk_error(CZK_ERR_IO, "%s: read error", path);
    }
    czk_status s = czk_fc_c1_parse(c, buf, len, path);
    free(buf);
    return s;
}
