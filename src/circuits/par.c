/* Parallel synthesis of a partition made of a common part and n units of
 * identical cost (par.h): the prover (PROVE semantics), the witness-only
 * backend and the row-window stream. The evaluation and density rules are
 * the PROVE backend's (docs/groth16.md "Densities"; src/cs/cs_prove.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/par.h"
#include "common/bigmem.h"
#include "cs/cs_eval.h"
#include "cs/lc.h"

uint64_t czk__par_inputs(const czk__par_circuit *c)
{
    return c->top.i + c->unit.i * c->units;
}

uint64_t czk__par_aux(const czk__par_circuit *c)
{
    return c->top.a + c->unit.a * c->units;
}

uint64_t czk__par_rows(const czk__par_circuit *c)
{
    return c->top.c + c->unit.c * c->units + czk__par_inputs(c);
}

/* What the PROVE-semantics backends write into; starts with the values
 * (czk_cs_value and the allocators read cs->impl as a czk__cs_values). */
typedef struct par_shared {
    czk__cs_values v;
    czk_fr *a, *b, *c; /* rows [row0, row0 + row_cap) */
    uint64_t row0, row_cap;
    uint64_t *a_aux, *b_in, *b_aux;
    const char *what;
} par_shared;

/* Allocation writes the value in place. */
static czk_status par_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)idx;
    czk__cs_values *v = cs->impl;
    uint32_t i = cs->n_aux;
    if (CZK_UNLIKELY(!value))
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of aux variable %u (%s): no value", i, name ? name : "");
    if (CZK_UNLIKELY(i >= v->cap_aux))
        return czk_error(CZK_ERR_INTERNAL, "parallel synthesis: aux variable %u beyond the partition's %zu", i,
                         v->cap_aux);
    v->aux[i] = *value;
    cs->n_aux = i + 1;
    *out = czk_var_aux(i);
    return CZK_OK;
}

static czk_status par_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx)
{
    (void)idx;
    czk__cs_values *v = cs->impl;
    uint32_t i = cs->n_inputs;
    if (!value) return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "alloc of input %u (%s): no value", i, name ? name : "");
    if (i >= v->cap_input)
        return czk_error(CZK_ERR_INTERNAL, "parallel synthesis: input %u beyond the partition's %zu", i,
                         v->cap_input);
    v->input[i] = *value;
    cs->n_inputs = i + 1;
    *out = czk_var_input(i);
    return CZK_OK;
}

/* acc += sum coeff * value (cs/cs_eval.h); neighbouring units share bitmap
 * words at their boundaries, and the common variables' bits: set atomically. */
static inline int par_eval(czk_fr *acc, const czk_lc_term *t, uint32_t n, const czk_fr *vals, uint32_t nvals,
                           uint64_t *bm)
{
    return czk__lc_eval(acc, t, n, vals, nvals, bm, NULL, 1);
}

static czk_status par_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                              const char *name, uint64_t idx)
{
    (void)idx;
    par_shared *p = cs->impl;
    uint64_t r = cs->n_constraints;
    const czk_fr *in = p->v.input, *aux = p->v.aux;
    uint32_t ni = cs->n_inputs, na = cs->n_aux;
    czk_fr va = CZK_FR_ZERO, vb = CZK_FR_ZERO, vc = CZK_FR_ZERO;
    int ok = par_eval(&va, a->in, a->n_in, in, ni, NULL) & par_eval(&va, a->aux, a->n_aux, aux, na, p->a_aux) &
             par_eval(&vb, b->in, b->n_in, in, ni, p->b_in) & par_eval(&vb, b->aux, b->n_aux, aux, na, p->b_aux) &
             par_eval(&vc, c->in, c->n_in, in, ni, NULL) & par_eval(&vc, c->aux, c->n_aux, aux, na, NULL);
    if (CZK_UNLIKELY(!ok))
        return czk_error(CZK_ERR_INVALID_ARG, "constraint %llu (%s): refers to an unallocated variable",
                         (unsigned long long)r, name ? name : "");
    if (CZK_UNLIKELY(r - p->row0 >= p->row_cap))
        return czk_error(CZK_ERR_INTERNAL, "%s prover: constraint %llu outside the rows [%llu, %llu) held", p->what,
                         (unsigned long long)r, (unsigned long long)p->row0,
                         (unsigned long long)(p->row0 + p->row_cap));
    p->a[r - p->row0] = va;
    p->b[r - p->row0] = vb;
    p->c[r - p->row0] = vc;
    cs->n_constraints = r + 1;
    return CZK_OK;
}

/* Witness only: constraints are counted, nothing is evaluated. */
static czk_status pw_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                             const char *name, uint64_t idx)
{
    (void)a, (void)b, (void)c, (void)name, (void)idx;
    cs->n_constraints++;
    return CZK_OK;
}

static const czk_cs_ops par_ops = {par_alloc, par_alloc_input, par_enforce, czk__cs_ns_push_none, czk__cs_ns_pop_none};
static const czk_cs_ops pw_ops = {par_alloc, par_alloc_input, pw_enforce, czk__cs_ns_push_none, czk__cs_ns_pop_none};

/* A hand-made constraint system over impl (a par_shared, or the bare values
 * with witness = 1). */
static void par_cs_init(czk_cs *cs, void *impl, int witness, czk_lc_kind lc, void *scratch)
{
    memset(cs, 0, sizeof *cs);
    cs->ops = witness ? &pw_ops : &par_ops;
    cs->backend = witness ? CZK_CS_WITNESS : CZK_CS_PROVE;
    cs->lc_kind = lc;
    cs->has_values = 1;
    cs->needs_constraints = !witness;
    cs->impl = impl;
    cs->lc_scratch = scratch;
}

static czk_status par_expect(const czk_cs *cs, const czk__par_circuit *c, uint64_t n, int witness, const char *part,
                             uint32_t i)
{
    const uint64_t ec = c->top.c + n * c->unit.c, ea = c->top.a + n * c->unit.a, ei = c->top.i + n * c->unit.i;
    if (cs->n_aux == ea && cs->n_inputs == ei && (witness || cs->n_constraints == ec)) return CZK_OK;
    return czk_error(CZK_ERR_INTERNAL,
                     "%s parallel synthesis: %s %u ended at constraint %llu, aux %u, input %u; expected %llu, %llu, %llu",
                     c->what, part, i, (unsigned long long)cs->n_constraints, cs->n_aux, cs->n_inputs,
                     (unsigned long long)ec, (unsigned long long)ea, (unsigned long long)ei);
}

/* The common part on this thread: ONE, then top_fn. */
static czk_status run_top(const czk__par_circuit *c, void *impl, czk__cs_values *v, int witness)
{
    void *scratch = czk__lc_scratch_create(c->lc);
    if (!scratch) return czk_error(CZK_ERR_NOMEM, "%s parallel synthesis: out of memory", c->what);
    czk_cs cs;
    par_cs_init(&cs, impl, witness, c->lc, scratch);
    v->input[0] = CZK_FR_ONE;
    cs.n_inputs = 1;
    czk_status st = c->top_fn ? c->top_fn(&cs, c->ctx) : CZK_OK;
    if (st == CZK_OK) st = par_expect(&cs, c, 0, witness, "the common part", 0);
    czk__lc_scratch_destroy(c->lc, scratch);
    return st;
}

/* Units [i0, i0 + m) on up to `threads` threads, each through a constraint
 * system whose counters start at the unit's offsets. The first error wins
 * (its message kept). */
static czk_status run_units(const czk__par_circuit *c, void *impl, int witness, uint32_t i0, uint32_t m, int threads)
{
    if (threads < 1) threads = 1;
    if ((uint32_t)threads > m) threads = (int)m;
    if (m == 0) return CZK_OK;
    czk_status first_err = CZK_OK;
    char msg[512] = "";
#pragma omp parallel num_threads(threads)
    {
        void *scratch = czk__lc_scratch_create(c->lc);
        czk_status ts =
            scratch ? CZK_OK : czk_error(CZK_ERR_NOMEM, "%s parallel synthesis: out of memory", c->what);
#pragma omp for schedule(dynamic, 1)
        for (uint32_t j = 0; j < m; j++) {
            if (ts != CZK_OK || __atomic_load_n(&first_err, __ATOMIC_RELAXED) != CZK_OK) continue;
            const uint32_t i = i0 + j;
            czk_cs cs;
            par_cs_init(&cs, impl, witness, c->lc, scratch);
            cs.n_constraints = c->top.c + (uint64_t)i * c->unit.c;
            cs.n_aux = (uint32_t)(c->top.a + (uint64_t)i * c->unit.a);
            cs.n_inputs = (uint32_t)(c->top.i + (uint64_t)i * c->unit.i);
            ts = c->unit_fn(&cs, c->ctx, i);
            if (ts == CZK_OK) ts = par_expect(&cs, c, (uint64_t)i + 1, witness, "unit", i);
        }
        if (ts != CZK_OK) {
#pragma omp critical(czk_par_units_err)
            if (first_err == CZK_OK) {
                first_err = ts;
                snprintf(msg, sizeof msg, "%s", czk_last_error());
            }
        }
        czk__lc_scratch_destroy(c->lc, scratch);
    }
    if (first_err != CZK_OK) return czk_error(first_err, "%s", msg);
    return CZK_OK;
}

static czk_status circuit_check(const czk__par_circuit *c)
{
    if (!c || !c->unit_fn || !c->what) return czk_error(CZK_ERR_INVALID_ARG, "parallel synthesis: incomplete circuit");
    if ((unsigned)c->lc >= CZK_LC_KIND_COUNT)
        return czk_error(CZK_ERR_INVALID_ARG, "%s parallel synthesis: LC kind %d", c->what, (int)c->lc);
    if (c->top.i < 1) return czk_error(CZK_ERR_INVALID_ARG, "%s parallel synthesis: the common part lacks ONE", c->what);
    if (czk__par_inputs(c) > UINT32_MAX || czk__par_aux(c) > UINT32_MAX)
        return czk_error(CZK_ERR_INVALID_ARG, "%s parallel synthesis: %llu inputs, %llu aux variables (32-bit indices)",
                         c->what, (unsigned long long)czk__par_inputs(c), (unsigned long long)czk__par_aux(c));
    return czk__cs_tables_init();
}

/* ---- prover ----------------------------------------------------------------------- */

struct czk__par_prover {
    par_shared sh;
    czk__par_cost top, unit;
    uint32_t units;
    uint64_t n_inputs, n_aux, n_rows; /* n_rows includes the input constraints */
    size_t words_aux, words_in;
    size_t pop_a_aux, pop_b_in, pop_b_aux;
    int done;
};

void czk__par_prover_destroy(czk__par_prover *p)
{
    if (!p) return;
    czk__big_free(p->sh.v.input);
    czk__big_free(p->sh.v.aux);
    czk__big_free(p->sh.a);
    czk__big_free(p->sh.b);
    czk__big_free(p->sh.c);
    czk__big_free(p->sh.a_aux);
    czk__big_free(p->sh.b_aux);
    czk__big_free(p->sh.b_in);
    free(p);
}

czk_status czk__par_prover_create(czk__par_prover **out, const czk__par_circuit *c)
{
    *out = NULL;
    CZK_TRY(circuit_check(c));
    czk__par_prover *p = calloc(1, sizeof *p);
    if (!p) return czk_error(CZK_ERR_NOMEM, "%s prover: out of memory", c->what);
    p->top = c->top;
    p->unit = c->unit;
    p->units = c->units;
    p->n_inputs = czk__par_inputs(c);
    p->n_aux = czk__par_aux(c);
    p->n_rows = czk__par_rows(c);
    p->words_aux = (size_t)(p->n_aux + 63) / 64;
    p->words_in = (size_t)(p->n_inputs + 63) / 64;
    par_shared *h = &p->sh;
    h->what = c->what;
    h->v.input = czk__big_alloc((size_t)p->n_inputs * sizeof(czk_fr));
    h->v.aux = czk__big_alloc((size_t)(p->n_aux ? p->n_aux : 1) * sizeof(czk_fr));
    h->v.cap_input = (size_t)p->n_inputs;
    h->v.cap_aux = (size_t)p->n_aux;
    h->a = czk__big_alloc((size_t)p->n_rows * sizeof(czk_fr));
    h->b = czk__big_alloc((size_t)p->n_rows * sizeof(czk_fr));
    h->c = czk__big_alloc((size_t)p->n_rows * sizeof(czk_fr));
    h->a_aux = czk__big_alloc((p->words_aux + 1) * sizeof(uint64_t));
    h->b_aux = czk__big_alloc((p->words_aux + 1) * sizeof(uint64_t));
    h->b_in = czk__big_alloc((p->words_in + 1) * sizeof(uint64_t));
    h->row0 = 0;
    h->row_cap = p->n_rows;
    if (!h->v.input || !h->v.aux || !h->a || !h->b || !h->c || !h->a_aux || !h->b_aux || !h->b_in) {
        czk__par_prover_destroy(p);
        return czk_error(CZK_ERR_NOMEM, "%s prover: cannot allocate the vectors of %llu rows", c->what,
                         (unsigned long long)p->n_rows);
    }
    /* fault every page in now (in parallel, zero-filled by the kernel only),
     * not during the first synthesis */
    czk__big_populate(h->a, (size_t)p->n_rows * sizeof(czk_fr), 0);
    czk__big_populate(h->b, (size_t)p->n_rows * sizeof(czk_fr), 0);
    czk__big_populate(h->c, (size_t)p->n_rows * sizeof(czk_fr), 0);
    czk__big_populate(h->v.aux, (size_t)p->n_aux * sizeof(czk_fr), 0);
    *out = p;
    return CZK_OK;
}

static size_t popcount_words(const uint64_t *w, size_t n)
{
    size_t t = 0;
    for (size_t i = 0; i < n; i++) t += (size_t)__builtin_popcountll(w[i]);
    return t;
}

czk_status czk__par_prover_synthesize(czk__par_prover *p, const czk__par_circuit *c, int threads)
{
    if (!p) return czk_error(CZK_ERR_INVALID_ARG, "parallel prover: NULL");
    CZK_TRY(circuit_check(c));
    if (memcmp(&c->top, &p->top, sizeof p->top) || memcmp(&c->unit, &p->unit, sizeof p->unit) ||
        c->units != p->units)
        return czk_error(CZK_ERR_INVALID_ARG, "%s prover: the circuit's counts are not those it was made for", c->what);
    par_shared *h = &p->sh;
    memset(h->a_aux, 0, p->words_aux * sizeof(uint64_t));
    memset(h->b_aux, 0, p->words_aux * sizeof(uint64_t));
    memset(h->b_in, 0, p->words_in * sizeof(uint64_t));
    p->done = 0;
    CZK_TRY(run_top(c, h, &h->v, 0));
    CZK_TRY(run_units(c, h, 0, 0, c->units, threads));
    /* bellperson's input constraints (input_i) * 0 = 0 */
    const uint64_t r0 = p->n_rows - p->n_inputs;
    for (uint64_t i = 0; i < p->n_inputs; i++) {
        h->a[r0 + i] = h->v.input[i];
        h->b[r0 + i] = CZK_FR_ZERO;
        h->c[r0 + i] = CZK_FR_ZERO;
    }
    p->pop_a_aux = popcount_words(h->a_aux, p->words_aux);
    p->pop_b_aux = popcount_words(h->b_aux, p->words_aux);
    p->pop_b_in = popcount_words(h->b_in, p->words_in);
    p->done = 1;
    return CZK_OK;
}

czk_status czk__par_prover_get(const czk__par_prover *p, czk_cs_assignment *out)
{
    if (!p || !p->done) return czk_error(CZK_ERR_INVALID_ARG, "parallel prover: nothing synthesized");
    const par_shared *h = &p->sh;
    out->input = h->v.input;
    out->n_input = (size_t)p->n_inputs;
    out->aux = h->v.aux;
    out->n_aux = (size_t)p->n_aux;
    out->a = h->a;
    out->b = h->b;
    out->c = h->c;
    out->n_constraints = (size_t)p->n_rows;
    out->a_aux_density = h->a_aux;
    out->a_aux_popcount = p->pop_a_aux;
    out->b_input_density = h->b_in;
    out->b_input_popcount = p->pop_b_in;
    out->b_aux_density = h->b_aux;
    out->b_aux_popcount = p->pop_b_aux;
    return CZK_OK;
}

czk_status czk__par_prover_check(const czk__par_prover *p, int threads)
{
    czk_cs_assignment a;
    CZK_TRY(czk__par_prover_get(p, &a));
    int64_t bad = -1;
    if (threads < 1) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(max : bad)
    for (int64_t r = 0; r < (int64_t)a.n_constraints; r++) {
        czk_fr t;
        czk_fr_mul(&t, &a.a[r], &a.b[r]);
        if (!czk_fr_eq(&t, &a.c[r]) && bad < 0) bad = r;
    }
    if (bad >= 0) return czk_error(CZK_ERR_UNSATISFIED, "%s prover: row %lld: a * b != c", p->sh.what, (long long)bad);
    return CZK_OK;
}

/* ---- witness only ------------------------------------------------------------------ */

czk_status czk__par_witness(czk__cs_values *v, const czk__par_circuit *c, int threads)
{
    if (!v) return czk_error(CZK_ERR_INVALID_ARG, "parallel witness: NULL values");
    CZK_TRY(circuit_check(c));
    if (v->cap_input < czk__par_inputs(c) || v->cap_aux < czk__par_aux(c))
        return czk_error(CZK_ERR_INVALID_ARG, "%s witness: vectors of %zu inputs, %zu aux; the partition has %llu, %llu",
                         c->what, v->cap_input, v->cap_aux, (unsigned long long)czk__par_inputs(c),
                         (unsigned long long)czk__par_aux(c));
    CZK_TRY(run_top(c, v, v, 1));
    return run_units(c, v, 1, 0, c->units, threads);
}

/* ---- PROVE synthesis streamed by row windows ------------------------------------------ */

czk_status czk__par_prove_stream(czk__cs_values *v, uint64_t *dens[3], const czk__par_circuit *c, int threads,
                                 czk__par_rows_fn fn, void *fn_ctx)
{
    if (!v || !dens || !fn) return czk_error(CZK_ERR_INVALID_ARG, "parallel prove stream: NULL argument");
    CZK_TRY(circuit_check(c));
    const uint64_t n_in = czk__par_inputs(c), n_aux = czk__par_aux(c);
    const uint64_t rows_end = c->top.c + c->unit.c * c->units;
    if (v->cap_input < n_in || v->cap_aux < n_aux)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "%s prove stream: vectors of %zu inputs, %zu aux; the partition has %llu, %llu", c->what,
                         v->cap_input, v->cap_aux, (unsigned long long)n_in, (unsigned long long)n_aux);
    if (threads < 1) threads = 1;
    if (c->units && (uint32_t)threads > c->units) threads = (int)c->units;
    uint64_t win = c->unit.c * (uint64_t)threads;
    if (win < c->top.c) win = c->top.c;
    if (win < n_in) win = n_in;
    if (win < 1) win = 1;
    par_shared sh;
    memset(&sh, 0, sizeof sh);
    sh.v = *v;
    sh.a_aux = dens[0];
    sh.b_in = dens[1];
    sh.b_aux = dens[2];
    sh.row_cap = win;
    sh.what = c->what;
    sh.a = czk__big_alloc((size_t)win * sizeof(czk_fr));
    sh.b = czk__big_alloc((size_t)win * sizeof(czk_fr));
    sh.c = czk__big_alloc((size_t)win * sizeof(czk_fr));
    czk_status st = CZK_OK;
    if (!sh.a || !sh.b || !sh.c)
        st = czk_error(CZK_ERR_NOMEM, "%s prove stream: a, b, c windows of %llu rows", c->what,
                       (unsigned long long)win);
    if (st == CZK_OK) st = run_top(c, &sh, &sh.v, 0);
    if (st == CZK_OK) st = fn(fn_ctx, 0, c->top.c, sh.a, sh.b, sh.c);
    for (uint32_t i0 = 0; i0 < c->units && st == CZK_OK; i0 += (uint32_t)threads) {
        const uint32_t m = c->units - i0 < (uint32_t)threads ? c->units - i0 : (uint32_t)threads;
        sh.row0 = c->top.c + (uint64_t)i0 * c->unit.c;
        st = run_units(c, &sh, 0, i0, m, threads);
        if (st == CZK_OK) st = fn(fn_ctx, sh.row0, sh.row0 + (uint64_t)m * c->unit.c, sh.a, sh.b, sh.c);
    }
    if (st == CZK_OK) {
        /* bellperson's input constraints (input_i) * 0 = 0 */
        for (uint64_t i = 0; i < n_in; i++) {
            sh.a[i] = sh.v.input[i];
            sh.b[i] = CZK_FR_ZERO;
            sh.c[i] = CZK_FR_ZERO;
        }
        st = fn(fn_ctx, rows_end, rows_end + n_in, sh.a, sh.b, sh.c);
    }
    czk__big_free(sh.a);
    czk__big_free(sh.b);
    czk__big_free(sh.c);
    return st;
}
