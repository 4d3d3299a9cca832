/* The checking backend, CZK_CS_TEST (bellpepper's TestConstraintSystem):
 * keeps values, constraints and namespaced names so that a gadget can be
 * checked (satisfiability, the name of the first failing constraint, a
 * tampered value, the system's hash). Library code, used by the tests and by
 * the R1CS digest; not built for speed. */
#define _GNU_SOURCE
#include <stdio.h>

#include "cs/cs_internal.h"
#include "czk/sha256.h"

typedef struct test_con {
    uint64_t off[6]; /* a.in, a.aux, b.in, b.aux, c.in, c.aux into terms */
    uint32_t n[6];
    char *name;
} test_con;

typedef struct test_impl {
    czk__cs_values v; /* first member (czk__cs_values_of) */
    char **in_names, **aux_names;
    size_t cap_in_names, cap_aux_names;
    czk_lc_term *terms;
    size_t n_terms, cap_terms;
    test_con *cons;
    size_t cap_cons;
    char **ns;
    size_t n_ns, cap_ns;
} test_impl;

static char *component(const char *name, uint64_t idx)
{
    char *s;
    if (!name) name = "";
    int n = idx == CZK_NOIDX ? asprintf(&s, "%s", name) : asprintf(&s, "%s %llu", name, (unsigned long long)idx);
    return n < 0 ? NULL : s;
}

/* "ns1/ns2/name idx" */
static char *path(const test_impl *t, const char *name, uint64_t idx)
{
    char *leaf = component(name, idx);
    if (!leaf) return NULL;
    size_t len = strlen(leaf) + 1;
    for (size_t i = 0; i < t->n_ns; i++) len += strlen(t->ns[i]) + 1;
    char *s = malloc(len);
    if (!s) {
        free(leaf);
        return NULL;
    }
    char *q = s;
    for (size_t i = 0; i < t->n_ns; i++) {
        size_t l = strlen(t->ns[i]);
        memcpy(q, t->ns[i], l);
        q[l] = '/';
        q += l + 1;
    }
    strcpy(q, leaf);
    free(leaf);
    return s;
}

static czk_status t_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    test_impl *t = cs->impl;
    uint32_t i = cs->n_aux;
    if (!value)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of aux variable %u (%s): no value", i, name ? name : "");
    CZK_TRY(czk__cs_reserve_big((void **)&t->v.aux, &t->v.cap_aux, (size_t)i + 1, sizeof(czk_fr)));
    CZK_TRY(czk__cs_reserve((void **)&t->aux_names, &t->cap_aux_names, (size_t)i + 1, sizeof(char *)));
    t->aux_names[i] = path(t, name, idx);
    if (!t->aux_names[i]) return czk_error(CZK_ERR_NOMEM, "test backend: out of memory");
    t->v.aux[i] = *value;
    cs->n_aux = i + 1;
    *out = czk_var_aux(i);
    return CZK_OK;
}

static czk_status t_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    test_impl *t = cs->impl;
    uint32_t i = cs->n_inputs;
    if (!value)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of input %u (%s): no value", i, name ? name : "");
    CZK_TRY(czk__cs_reserve_big((void **)&t->v.input, &t->v.cap_input, (size_t)i + 1, sizeof(czk_fr)));
    CZK_TRY(czk__cs_reserve((void **)&t->in_names, &t->cap_in_names, (size_t)i + 1, sizeof(char *)));
    t->in_names[i] = path(t, name, idx);
    if (!t->in_names[i]) return czk_error(CZK_ERR_NOMEM, "test backend: out of memory");
    t->v.input[i] = *value;
    cs->n_inputs = i + 1;
    *out = czk_var_input(i);
    return CZK_OK;
}

static czk_status t_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                            const char *name, uint64_t idx)
{
    test_impl *t = cs->impl;
    size_t r = cs->n_constraints;
    const czk_lc_view *v[3] = {a, b, c};
    size_t need = t->n_terms;
    for (int k = 0; k < 3; k++) {
        for (uint32_t i = 0; i < v[k]->n_in; i++)
            if (v[k]->in[i].index >= cs->n_inputs)
                return czk_error(CZK_ERR_INVALID_ARG, "constraint %zu (%s): input %u not allocated", r,
                                 name ? name : "", v[k]->in[i].index);
        for (uint32_t i = 0; i < v[k]->n_aux; i++)
            if (v[k]->aux[i].index >= cs->n_aux)
                return czk_error(CZK_ERR_INVALID_ARG, "constraint %zu (%s): aux %u not allocated", r,
                                 name ? name : "", v[k]->aux[i].index);
        need += v[k]->n_in + v[k]->n_aux;
    }
    CZK_TRY(czk__cs_reserve((void **)&t->terms, &t->cap_terms, need, sizeof(czk_lc_term)));
    CZK_TRY(czk__cs_reserve((void **)&t->cons, &t->cap_cons, r + 1, sizeof(test_con)));
    test_con *tc = &t->cons[r];
    for (int k = 0; k < 3; k++) {
        tc->off[2 * k] = t->n_terms;
        tc->n[2 * k] = v[k]->n_in;
        if (v[k]->n_in) memcpy(t->terms + t->n_terms, v[k]->in, (size_t)v[k]->n_in * sizeof(czk_lc_term));
        t->n_terms += v[k]->n_in;
        tc->off[2 * k + 1] = t->n_terms;
        tc->n[2 * k + 1] = v[k]->n_aux;
        if (v[k]->n_aux) memcpy(t->terms + t->n_terms, v[k]->aux, (size_t)v[k]->n_aux * sizeof(czk_lc_term));
        t->n_terms += v[k]->n_aux;
    }
    tc->name = path(t, name, idx);
    if (!tc->name) return czk_error(CZK_ERR_NOMEM, "test backend: out of memory");
    cs->n_constraints = r + 1;
    return CZK_OK;
}

static void t_ns_push(czk_cs *cs, const char *name, uint64_t idx)
{
    test_impl *t = cs->impl;
    char *c = component(name, idx);
    if (c && czk__cs_reserve((void **)&t->ns, &t->cap_ns, t->n_ns + 1, sizeof(char *)) == CZK_OK)
        t->ns[t->n_ns++] = c;
    else
        free(c);
}

static void t_ns_pop(czk_cs *cs)
{
    test_impl *t = cs->impl;
    if (t->n_ns) free(t->ns[--t->n_ns]);
}

static const czk_cs_ops test_ops = {t_alloc, t_alloc_input, t_enforce, t_ns_push, t_ns_pop};

czk_status czk__cs_test_create(czk_cs *cs, const czk_cs_sizes *sizes)
{
    test_impl *t = calloc(1, sizeof(*t));
    if (!t) return czk_error(CZK_ERR_NOMEM, "test backend: out of memory");
    cs->impl = t;
    cs->ops = &test_ops;
    cs->has_values = 1;
    cs->needs_constraints = 1;
    cs->wants_names = 1;
    return czk__cs_values_init(&t->v, sizes);
}

static void free_names(test_impl *t, const czk_cs *cs)
{
    for (size_t i = 0; i < cs->n_inputs; i++) free(t->in_names[i]);
    for (size_t i = 0; i < cs->n_aux; i++) free(t->aux_names[i]);
    for (size_t i = 0; i < cs->n_constraints; i++) free(t->cons[i].name);
    for (size_t i = 0; i < t->n_ns; i++) free(t->ns[i]);
    t->n_ns = 0;
    t->n_terms = 0;
}

void czk__cs_test_destroy(czk_cs *cs)
{
    test_impl *t = cs->impl;
    free_names(t, cs);
    czk__cs_values_clear(&t->v);
    free(t->in_names);
    free(t->aux_names);
    free(t->terms);
    free(t->cons);
    free(t->ns);
    free(t);
    cs->impl = NULL;
}

void czk__cs_test_reset(czk_cs *cs) { free_names(cs->impl, cs); }

static void con_views(const test_impl *t, const test_con *tc, czk_lc_view v[3])
{
    for (int k = 0; k < 3; k++) {
        v[k].in = t->terms + tc->off[2 * k];
        v[k].n_in = tc->n[2 * k];
        v[k].aux = t->terms + tc->off[2 * k + 1];
        v[k].n_aux = tc->n[2 * k + 1];
    }
}

int64_t czk_cs_test_which_unsatisfied(const czk_cs *cs)
{
    if (cs->backend != CZK_CS_TEST) return -1;
    const test_impl *t = cs->impl;
    for (size_t r = 0; r < cs->n_constraints; r++) {
        czk_lc_view v[3];
        czk_fr a, b, c;
        con_views(t, &t->cons[r], v);
        czk_lc_view_eval(&a, &v[0], t->v.input, t->v.aux);
        czk_lc_view_eval(&b, &v[1], t->v.input, t->v.aux);
        czk_lc_view_eval(&c, &v[2], t->v.input, t->v.aux);
        czk_fr_mul(&a, &a, &b);
        if (!czk_fr_eq(&a, &c)) return (int64_t)r;
    }
    return -1;
}

czk_status czk_cs_test_check(const czk_cs *cs)
{
    if (cs->backend != CZK_CS_TEST)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_test_check on a %s backend", czk_cs_backend_name(cs->backend));
    int64_t r = czk_cs_test_which_unsatisfied(cs);
    if (r < 0) return CZK_OK;
    const test_impl *t = cs->impl;
    return czk_error(CZK_ERR_UNSATISFIED, "constraint %lld '%s' is not satisfied", (long long)r,
                     t->cons[r].name);
}

const char *czk_cs_test_constraint_name(const czk_cs *cs, uint64_t i)
{
    if (cs->backend != CZK_CS_TEST || i >= cs->n_constraints) return NULL;
    return ((const test_impl *)cs->impl)->cons[i].name;
}

const char *czk_cs_test_var_name(const czk_cs *cs, czk_var v)
{
    if (cs->backend != CZK_CS_TEST) return NULL;
    const test_impl *t = cs->impl;
    uint32_t i = czk_var_index(v);
    if (czk_var_is_input(v)) return i < cs->n_inputs ? t->in_names[i] : NULL;
    return i < cs->n_aux ? t->aux_names[i] : NULL;
}

czk_status czk_cs_test_find_var(const czk_cs *cs, czk_var *out, const char *p)
{
    if (cs->backend != CZK_CS_TEST)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_test_find_var on a %s backend", czk_cs_backend_name(cs->backend));
    const test_impl *t = cs->impl;
    for (uint32_t i = 0; i < cs->n_aux; i++)
        if (strcmp(t->aux_names[i], p) == 0) {
            *out = czk_var_aux(i);
            return CZK_OK;
        }
    for (uint32_t i = 0; i < cs->n_inputs; i++)
        if (strcmp(t->in_names[i], p) == 0) {
            *out = czk_var_input(i);
            return CZK_OK;
        }
    return czk_error(CZK_ERR_INVALID_ARG, "no variable at path '%s'", p);
}

czk_status czk_cs_test_set(czk_cs *cs, czk_var v, const czk_fr *value)
{
    if (cs->backend != CZK_CS_TEST)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_test_set on a %s backend", czk_cs_backend_name(cs->backend));
    test_impl *t = cs->impl;
    uint32_t i = czk_var_index(v);
    if (czk_var_is_input(v)) {
        if (i >= cs->n_inputs) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_test_set: no input %u", i);
        t->v.input[i] = *value;
    } else {
        if (i >= cs->n_aux) return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_test_set: no aux %u", i);
        t->v.aux[i] = *value;
    }
    return CZK_OK;
}

czk_status czk_cs_test_constraint(const czk_cs *cs, uint64_t i, czk_lc_view *a, czk_lc_view *b, czk_lc_view *c)
{
    if (cs->backend != CZK_CS_TEST || i >= cs->n_constraints)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_cs_test_constraint: no constraint %llu", (unsigned long long)i);
    czk_lc_view v[3];
    con_views(cs->impl, &((const test_impl *)cs->impl)->cons[i], v);
    *a = v[0];
    *b = v[1];
    *c = v[2];
    return CZK_OK;
}

static void put_be64(uint8_t *p, uint64_t x)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(x >> (56 - 8 * i));
}

/* bellpepper's hash_lc: number of non-zero terms, then per term 'I'|'A',
 * index (u64 BE), coefficient (32 bytes BE); inputs before aux, each by index. */
static void hash_lc(czk_sha256_ctx *h, const czk_lc_view *v)
{
    uint8_t buf[41];
    uint64_t n = 0;
    for (uint32_t i = 0; i < v->n_in; i++) n += !czk__fr_is_zero(&v->in[i].coeff);
    for (uint32_t i = 0; i < v->n_aux; i++) n += !czk__fr_is_zero(&v->aux[i].coeff);
    put_be64(buf, n);
    czk_sha256_update(h, buf, 8);
    for (int part = 0; part < 2; part++) {
        const czk_lc_term *t = part ? v->aux : v->in;
        uint32_t m = part ? v->n_aux : v->n_in;
        for (uint32_t i = 0; i < m; i++) {
            if (czk__fr_is_zero(&t[i].coeff)) continue;
            buf[0] = part ? 'A' : 'I';
            put_be64(buf + 1, t[i].index);
            czk_fr_to_bytes_be(buf + 9, &t[i].coeff);
            czk_sha256_update(h, buf, 41);
        }
    }
}

void czk_cs_test_hash(const czk_cs *cs, char out[65])
{
    czk_sha256_ctx h;
    uint8_t buf[24], d[32];
    czk_sha256_init(&h);
    put_be64(buf, cs->n_inputs);
    put_be64(buf + 8, cs->n_aux);
    put_be64(buf + 16, cs->n_constraints);
    czk_sha256_update(&h, buf, 24);
    if (cs->backend == CZK_CS_TEST) {
        const test_impl *t = cs->impl;
        for (size_t r = 0; r < cs->n_constraints; r++) {
            czk_lc_view v[3];
            con_views(t, &t->cons[r], v);
            for (int k = 0; k < 3; k++) hash_lc(&h, &v[k]);
        }
    }
    czk_sha256_final(&h, d);
    for (int i = 0; i < 32; i++) snprintf(out + 2 * i, 3, "%02x", d[i]);
}
