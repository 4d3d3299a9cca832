/* The PROVE-backend witness source (czk/witness.h): a circuit's synthesis
 * function run into a recycled PROVE backend, one thread per partition. */
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/witness.h"

typedef struct cs_state {
    czk_witness_synth_fn synth;
    czk_lc_kind lc;
} cs_state;

struct czk_witness {
    czk_cs *cs;
    const cs_state *st;
};

uint64_t czk_witness_cs_bytes(const czk_cs_sizes *z)
{
    uint64_t fr = sizeof(czk_fr);
    /* a, b, c per constraint; values per variable; 3 density bitmaps; LC buffers */
    return 3 * z->n_constraints * fr + (z->n_aux + z->n_inputs) * fr + 3 * ((z->n_aux + z->n_inputs) / 8 + 8) +
           (1u << 20);
}

static uint64_t cs_bytes(const czk_witness_source *s, const czk_cs_sizes *z)
{
    (void)s;
    return czk_witness_cs_bytes(z);
}

static czk_status cs_create(czk_witness **out, const czk_witness_source *s, const czk_cs_sizes *z)
{
    czk_witness *w = calloc(1, sizeof *w);
    if (!w) return czk_error(CZK_ERR_NOMEM, "witness instance");
    w->st = s->state;
    czk_status st = czk_cs_create(&w->cs, CZK_CS_PROVE, w->st->lc, z);
    if (st != CZK_OK) {
        free(w);
        return st;
    }
    *out = w;
    return CZK_OK;
}

static czk_status cs_synthesize(czk_witness *w, const void *data, uint32_t k, int threads)
{
    (void)threads;
    czk_cs_reset(w->cs);
    CZK_TRY(w->st->synth(w->cs, data, k));
    return czk_cs_finalize(w->cs);
}

static czk_status cs_check(czk_witness *w, int threads)
{
    (void)threads;
    return czk_cs_prove_check(w->cs);
}

static czk_status cs_get(czk_witness *w, czk_cs_assignment *out) { return czk_cs_prove_get(w->cs, out); }

static void cs_destroy(czk_witness *w)
{
    if (!w) return;
    czk_cs_destroy(w->cs);
    free(w);
}

static void cs_close(czk_witness_source *s) { free(s->state); }

static const czk_witness_ops cs_ops = {"prove", 0, cs_bytes, cs_create, cs_synthesize, cs_check,
                                       cs_get, cs_destroy, cs_close, NULL, NULL, NULL};

czk_status czk_witness_source_cs(czk_witness_source *out, czk_witness_synth_fn synth, czk_lc_kind lc)
{
    memset(out, 0, sizeof *out);
    if (!synth) return czk_error(CZK_ERR_INVALID_ARG, "witness source: no synthesis function");
    cs_state *st = malloc(sizeof *st);
    if (!st) return czk_error(CZK_ERR_NOMEM, "witness source");
    st->synth = synth;
    st->lc = lc;
    out->ops = &cs_ops;
    out->state = st;
    return CZK_OK;
}

void czk_witness_source_close(czk_witness_source *s)
{
    if (!s) return;
    if (s->ops && s->ops->close) s->ops->close(s);
    memset(s, 0, sizeof *s);
}
