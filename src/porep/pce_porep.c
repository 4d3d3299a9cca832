/* The PoRep partition circuit's shape for the generic code (its PCE key and
 * recording, sizes, czk's parameter file name: kinds/pce_kind.h), and
 * PoRep's own PCE workspace (czk/pce.h): witness + evaluation, validation. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "czk/czk.h"
#include "czk/pce.h"
#include "czk/porep.h"
#include "circuits/porep_internal.h"
#include "kinds/pce_kind.h"
#include "pce/pce_internal.h"
#include "porep/porep_internal.h"


static void pce_key(char out[CZK_PCE_KEY_MAX], const czk_fc_shape *s)
{
    snprintf(out, CZK_PCE_KEY_MAX, "porep %s ss=%llu nodes=%llu L=%u P=%u C=%u tree=%u,%u,%u h=%u d=%u v1_1=%d %s",
             czk_fc_proof_name(s->proof), (unsigned long long)s->sector_size, (unsigned long long)s->nodes,
             s->layers, s->partitions, s->challenges, s->base_arity, s->sub_arity, s->top_arity, s->base_height,
             s->d_height, s->api_v1_1, CZK_PCE_POREP_VERSION);
}

static czk_status porep_record(czk_cs *cs, const void *shape)
{
    return czk_porep_synthesize(cs, shape, NULL, 0);
}

static void porep_key(char out[CZK_PCE_KEY_MAX], const void *shape) { pce_key(out, shape); }

static void porep_label(char *out, size_t cap, const void *shape)
{
    const czk_fc_shape *s = shape;
    snprintf(out, cap, "%s-%llu-L%u-C%u", czk_fc_proof_name(s->proof), (unsigned long long)s->sector_size, s->layers,
             s->challenges);
}

static czk_status porep_sizes(czk_cs_sizes *out, const void *shape) { return czk_porep_sizes(out, shape); }

/* czk's cached parameters: the proof's name, or the custom shape's numbers */
static void porep_params_name(char *out, size_t cap, const void *shape)
{
    const czk_fc_shape *s = shape;
    if (s->proof == CZK_FC_PROOF_CUSTOM)
        snprintf(out, cap, "porep-custom-n%llu-l%u-c%u-t%u.%u.%u-czk%s.params", (unsigned long long)s->nodes,
                 s->layers, s->challenges, s->base_arity, s->sub_arity, s->top_arity, CZK_VERSION_STRING);
    else
        snprintf(out, cap, "porep-%s-czk%s.params", czk_fc_proof_name(s->proof), CZK_VERSION_STRING);
}

const czk__kind_shape czk__porep_shape_ops = {"porep", porep_key, porep_label, porep_sizes, porep_record,
                                              porep_params_name};

struct czk_pce_porep_work {
    czk_pce_work *g; /* the witness and a, b, c */
    czk_fc_shape shape;
    int threads;
};

void czk_pce_porep_work_destroy(czk_pce_porep_work *w)
{
    if (!w) return;
    czk_pce_work_destroy(w->g);
    free(w);
}

czk_status czk_pce_porep_work_create(czk_pce_porep_work **out, const czk_pce *p, const czk_fc_shape *shape)
{
    *out = NULL;
    czk_cs_sizes z;
    CZK_TRY(czk_porep_sizes(&z, shape));
    if (z.n_inputs != p->n_inputs || z.n_inputs + z.n_aux != p->cols || z.n_constraints != p->rows)
        return czk_error(CZK_ERR_INVALID_ARG, "PCE '%s' does not match the shape (%llu x %llu)", p->key,
                         (unsigned long long)z.n_constraints, (unsigned long long)(z.n_inputs + z.n_aux));
    czk_pce_porep_work *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "PCE work");
    czk_status st = czk_pce_work_create(&w->g, p);
    if (st != CZK_OK) {
        free(w);
        return st;
    }
    w->shape = *shape;
    *out = w;
    return CZK_OK;
}

czk_status czk_pce_porep_work_reserve(czk_pce_porep_work *w, int threads)
{
    return czk_pce_work_reserve(w->g, threads);
}

void czk_pce_porep_work_set_threads(czk_pce_porep_work *w, int threads)
{
    w->threads = threads;
}

czk_status czk_pce_porep_witness(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, const czk_fr **input,
                                 size_t *n_input, const czk_fr **aux, size_t *n_aux)
{
    int threads = w->threads > 0 ? w->threads : czk_threads();
    CZK_TRY(czk__porep_witness_par(&w->g->v, &w->shape, c1, k, CZK_LC_DEFAULT, threads > 0 ? threads : 1));
    *input = w->g->v.input;
    *n_input = w->g->n_input;
    *aux = w->g->v.aux;
    *n_aux = w->g->n_aux;
    return CZK_OK;
}

czk_status czk_pce_porep_synthesize(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads,
                                    czk_cs_assignment *out, czk_pce_timings *t)
{
    const czk_fr *in, *aux;
    size_t ni, na;
    double t0 = czk_now(), c0 = czk_cpu_now();
    const int saved = w->threads;
    if (threads > 0) w->threads = threads;
    czk_status ws = czk_pce_porep_witness(w, c1, k, &in, &ni, &aux, &na);
    w->threads = saved;
    CZK_TRY(ws);
    double t1 = czk_now(), c1t = czk_cpu_now();
    CZK_TRY(czk_pce_work_eval(w->g, threads, out));
    double t2 = czk_now(), c2 = czk_cpu_now();
    if (t) {
        t->witness_s = t1 - t0;
        t->eval_s = t2 - t1;
        t->witness_cpu_s = c1t - c0;
        t->eval_cpu_s = c2 - c1t;
    }
    return CZK_OK;
}

/* ---- validation against the PROVE synthesis ------------------------------------ */

/* Threads of the streamed PROVE synthesis: at most one per challenge. */
static int stream_threads(const czk_pce_porep_work *w, int threads)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    if ((uint32_t)threads > w->shape.challenges) threads = (int)w->shape.challenges;
    return threads;
}

size_t czk_pce_porep_validate_bytes(const czk_pce_porep_work *w, int streamed, int threads)
{
    const czk_pce_work *g = w->g;
    const size_t fr = sizeof(czk_fr), cols = g->n_input + g->n_aux, bits = (cols + 63) / 64 * 8 * 3;
    const czk_pce *p = g->p;
    if (!streamed) return cols * fr + 3 * (size_t)p->rows * fr + bits;
    /* window: at most the rows of `threads` challenges or the common part */
    uint64_t per = (p->rows - p->n_inputs) / w->shape.challenges + 1;
    return czk_pce_work_compare_stream_bytes(g, per * (uint64_t)stream_threads(w, threads));
}

typedef struct porep_stream {
    const czk_fc_shape *shape;
    const czk_fc_c1 *c1;
    uint32_t k;
    int threads;
} porep_stream;

static czk_status porep_stream_fn(void *ctx, czk_fr *input, size_t n_input, czk_fr *aux, size_t n_aux,
                                  uint64_t *dens[3], czk_pce_rows_fn rows, void *rows_ctx)
{
    const porep_stream *s = ctx;
    czk__cs_values v = {input, aux, n_input, n_aux};
    return czk__porep_prove_stream(&v, dens, s->shape, s->c1, s->k, CZK_LC_DEFAULT, s->threads, rows, rows_ctx);
}

czk_status czk_pce_porep_validate(czk_pce_porep_work *w, const czk_fc_c1 *c1, uint32_t k, int threads, int streamed)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    if (!streamed) {
        czk_porep_prover *pr;
        CZK_TRY(czk_porep_prover_create(&pr, &w->shape, CZK_LC_DEFAULT));
        czk_status s = czk_porep_prover_synthesize(pr, c1, k, threads);
        czk_cs_assignment r;
        if (s == CZK_OK) s = czk_porep_prover_get(pr, &r);
        if (s == CZK_OK) s = czk_pce_work_compare(w->g, &r, k);
        czk_porep_prover_destroy(pr);
        return s;
    }
    porep_stream ps = {&w->shape, c1, k, stream_threads(w, threads)};
    return czk_pce_work_compare_stream(w->g, porep_stream_fn, &ps, k, threads);
}
