/* czk — Poseidon circuit: the entry point that chooses the LC variant (the
 * circuit is poseidon_circuit_lcv.c's), and the per-arity constraint templates
 * that PROVE / SHAPE synthesis replays.
 *
 * Template: the constraints of one hash, recorded once per arity by running the
 * direct synthesis (vec variant) against a private recording backend, with
 * variables as local ids: 0 = ONE, 1..n = the inputs, n + 1 + k = the k-th
 * variable the hash allocates. Poseidon's R1CS depends on nothing else: the
 * coefficients are constants, inputs appear only in first-round S-box
 * constraints (one input per LC), and every other variable is fresh. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/gadgets_lc.h"
#include "gadgets/poseidon_params.h"

czk_status czk_poseidon_circuit_any(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var *in,
                                    const czk_fr *in_val, size_t n) {
    return CZK_LC_DISPATCH(cs->lc_kind, czk_poseidon_circuit, (cs, out, out_val, in, in_val, n));
}

czk_status czk_poseidon_gr_circuit_any(czk_cs *cs, czk_var *out, czk_fr *out_val, const czk_var in[2],
                                       const czk_fr *in_val) {
    czk_fr tag;
    czk_poseidon_gr_tag(&tag);
    return CZK_LC_DISPATCH(cs->lc_kind, czk_poseidon_circuit_tag, (cs, out, out_val, in, in_val, 2, &tag));
}

uint64_t czk_poseidon_circuit_constraints(size_t n) {
    unsigned r_f = czk_poseidon_full_rounds(n), r_p = czk_poseidon_partial_rounds(n);
    if (!r_f) return 0;
    uint64_t sboxes = (uint64_t)(n + 1) * r_f + r_p;
    return 3 * (sboxes - 1) + (sboxes - n);
}

/* ---- recording backend ---------------------------------------------------- */

typedef struct recorder {
    czk__ptmpl t;
    size_t cap_terms, cap_off, n_terms;
    int oom;
} recorder;

static czk_status rec_alloc(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx) {
    (void)value;
    (void)name;
    (void)idx;
    *out = czk_var_aux(cs->n_aux++);
    return CZK_OK;
}

static czk_status rec_alloc_input(czk_cs *cs, czk_var *out, const czk_fr *value, const char *name, uint64_t idx) {
    (void)cs;
    (void)out;
    (void)value;
    (void)name;
    (void)idx;
    return czk_error(CZK_ERR_INTERNAL, "poseidon template: unexpected public input");
}

static int rec_reserve(recorder *r, size_t terms, size_t offs) {
    if (terms > r->cap_terms) {
        size_t nc = r->cap_terms ? r->cap_terms : 1024;
        while (nc < terms) nc *= 2;
        uint32_t *id = realloc(r->t.id, nc * sizeof(uint32_t));
        if (!id) return 0;
        r->t.id = id;
        czk_fr *co = realloc(r->t.coeff, nc * sizeof(czk_fr));
        if (!co) return 0;
        r->t.coeff = co;
        r->cap_terms = nc;
    }
    if (offs > r->cap_off) {
        size_t nc = r->cap_off ? r->cap_off : 1024;
        while (nc < offs) nc *= 2;
        uint32_t *off = realloc(r->t.off, nc * sizeof(uint32_t));
        if (!off) return 0;
        r->t.off = off;
        r->cap_off = nc;
    }
    return 1;
}

static czk_status rec_enforce(czk_cs *cs, const czk_lc_view *a, const czk_lc_view *b, const czk_lc_view *c,
                              const char *name, uint64_t idx) {
    (void)name;
    (void)idx;
    recorder *r = cs->impl;
    const czk_lc_view *v[3] = {a, b, c};
    size_t need = r->n_terms;
    for (int k = 0; k < 3; k++) need += v[k]->n_in + v[k]->n_aux;
    if (!rec_reserve(r, need, 3 * ((size_t)r->t.n_cons + 1) + 1))
        return czk_error(CZK_ERR_NOMEM, "poseidon template: out of memory");
    for (int k = 0; k < 3; k++) {
        r->t.off[3 * r->t.n_cons + k] = (uint32_t)r->n_terms;
        for (uint32_t i = 0; i < v[k]->n_in; i++) {
            if (v[k]->in[i].index != 0) return czk_error(CZK_ERR_INTERNAL, "poseidon template: input term");
            r->t.id[r->n_terms] = 0;
            r->t.coeff[r->n_terms++] = v[k]->in[i].coeff;
        }
        for (uint32_t i = 0; i < v[k]->n_aux; i++) {
            r->t.id[r->n_terms] = v[k]->aux[i].index + 1;
            r->t.coeff[r->n_terms++] = v[k]->aux[i].coeff;
        }
    }
    r->t.n_cons++;
    r->t.off[3 * r->t.n_cons] = (uint32_t)r->n_terms;
    cs->n_constraints++;
    return CZK_OK;
}

static void rec_ns_push(czk_cs *cs, const char *name, uint64_t idx) {
    (void)cs;
    (void)name;
    (void)idx;
}
static void rec_ns_pop(czk_cs *cs) { (void)cs; }

static const czk_cs_ops rec_ops = {rec_alloc, rec_alloc_input, rec_enforce, rec_ns_push, rec_ns_pop};

/* One per arity with the Merkle tag, then arity 2 with the "gen randomness"
 * tag (SnapDeals' phi, rho and challenge digests). */
#define N_TEMPLATES (CZK__POSEIDON_NPARAMS + 1)
static czk__ptmpl templates[N_TEMPLATES];
static int template_ok[N_TEMPLATES];
static czk_fr gr_tag;
static pthread_once_t template_once = PTHREAD_ONCE_INIT;

static int record(czk__ptmpl *out, const czk__poseidon_params *p, const czk_fr *tag) {
    recorder r;
    memset(&r, 0, sizeof r);
    void *scratch = czk__lc_scratch_create(CZK_LC_VEC);
    if (!scratch) return 0;
    czk_cs cs;
    memset(&cs, 0, sizeof cs);
    cs.ops = &rec_ops;
    cs.backend = CZK_CS_SHAPE;
    cs.lc_kind = CZK_LC_VEC;
    cs.needs_constraints = 1;
    cs.wants_names = 1; /* forces the direct path (no replay while recording) */
    cs.n_inputs = 1;
    cs.lc_scratch = scratch;
    cs.impl = &r;
    czk_var in[CZK_POSEIDON_MAX_ARITY], res;
    for (unsigned i = 0; i < p->arity; i++) in[i] = czk_var_aux(cs.n_aux++);
    int ok = czk_poseidon_circuit_tag_vec(&cs, &res, NULL, in, NULL, p->arity, tag) == CZK_OK &&
             cs.n_constraints == czk_poseidon_circuit_constraints(p->arity) &&
             res == czk_var_aux(cs.n_aux - 1);
    czk__lc_scratch_destroy(CZK_LC_VEC, scratch);
    if (!ok) {
        free(r.t.off);
        free(r.t.id);
        free(r.t.coeff);
        czk_error_clear();
        return 0;
    }
    r.t.n_alloc = cs.n_aux - p->arity;
    *out = r.t;
    return 1;
}

static void templates_init(void) {
    for (unsigned i = 0; i < CZK__POSEIDON_NPARAMS; i++) {
        const czk__poseidon_params *p = &czk__poseidon_params_table[i];
        template_ok[i] = record(&templates[i], p, &p->merkle_tag);
    }
    czk_poseidon_gr_tag(&gr_tag);
    const czk__poseidon_params *p2 = czk__poseidon_params_get(2);
    template_ok[CZK__POSEIDON_NPARAMS] = p2 && record(&templates[CZK__POSEIDON_NPARAMS], p2, &gr_tag);
}

const czk__ptmpl *czk__poseidon_template(const czk__poseidon_params *p, const czk_fr *tag) {
    pthread_once(&template_once, templates_init);
    unsigned i = (unsigned)(p - czk__poseidon_params_table);
    if (i >= CZK__POSEIDON_NPARAMS) return NULL;
    if (czk_fr_eq(tag, &p->merkle_tag)) return template_ok[i] ? &templates[i] : NULL;
    if (p->arity == 2 && czk_fr_eq(tag, &gr_tag))
        return template_ok[CZK__POSEIDON_NPARAMS] ? &templates[CZK__POSEIDON_NPARAMS] : NULL;
    return NULL;
}
