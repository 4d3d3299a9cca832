/* The FallbackPoSt circuit for the generic code of src/kinds: its parallel
 * plan (the circuit sectors across threads: the parallel prover and PCE's
 * witness) and its shape (the PCE cache key and recording, sizes, czk's
 * parameter file name). The drivers over them are src/kinds'; the PCE
 * cache, workspace and evaluation src/pce's. */
#include <stdio.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/post_kind.h"
#include "circuits/post_internal.h"
#include "kinds/pce_kind.h"
#include "pce/pce_internal.h"
#include "post/post_internal.h"

static czk_status post_plan(czk__par_circuit *c, void *ctx, const void *shape, const void *data, uint32_t k,
                            czk_lc_kind lc)
{
    if (k != 0) return czk_error(CZK_ERR_INVALID_ARG, "partition %u of a PoSt job (it proves one, 0)", k);
    return czk__post_par_init(c, ctx, shape, data, lc);
}

const czk__kind_plan czk__post_plan = {"post", post_plan, sizeof(czk__post_par), sizeof(czk_post_shape)};

/* The circuit depends on the tree and the sector x challenge layout only:
 * WindowPoSt and WinningPoSt of one layout (and both API versions) share
 * their matrices. */
static void pce_key(char out[CZK_PCE_KEY_MAX], const czk_post_shape *s)
{
    const czk_fc_shape *t = &s->tree;
    snprintf(out, CZK_PCE_KEY_MAX, "post nodes=%llu tree=%u,%u,%u h=%u sectors=%u challenges=%u %s",
             (unsigned long long)t->nodes, t->base_arity, t->sub_arity, t->top_arity, t->base_height, s->sectors,
             s->challenges, CZK_PCE_POST_VERSION);
}

static czk_status post_record(czk_cs *cs, const void *shape)
{
    return czk_post_synthesize(cs, shape, NULL);
}

static void post_key(char out[CZK_PCE_KEY_MAX], const void *shape) { pce_key(out, shape); }

static void post_label(char *out, size_t cap, const void *shape)
{
    const czk_post_shape *s = shape;
    snprintf(out, cap, "post-%llu-S%u-C%u", (unsigned long long)s->tree.sector_size, s->sectors, s->challenges);
}

static czk_status post_sizes(czk_cs_sizes *out, const void *shape)
{
    czk_post_counts n;
    czk_post_circuit_counts(&n, shape);
    *out = (czk_cs_sizes){n.inputs, n.aux, n.constraints + n.inputs};
    return CZK_OK;
}

/* czk's cached parameters: the circuit depends on the kind, the tree and
 * sectors x challenges only */
static void post_params_name(char *out, size_t cap, const void *shape)
{
    const czk_post_shape *s = shape;
    const czk_fc_shape *t = &s->tree;
    if (t->proof == CZK_FC_PROOF_CUSTOM)
        snprintf(out, cap, "%s-custom-n%llu-t%u.%u.%u-s%u-c%u-czk%s.params", czk_post_kind_name(s->kind),
                 (unsigned long long)t->nodes, t->base_arity, t->sub_arity, t->top_arity, s->sectors, s->challenges,
                 CZK_VERSION_STRING);
    else
        snprintf(out, cap, "%s-%lluB-czk%s.params", czk_post_kind_name(s->kind), (unsigned long long)(t->nodes * 32),
                 CZK_VERSION_STRING);
}

const czk__kind_shape czk__post_shape_ops = {"post", post_key, post_label, post_sizes, post_record, post_params_name};

size_t czk_post_pce_validate_bytes(const czk_pce_work *w, const czk_post_shape *s, int threads)
{
    if (threads <= 0) threads = czk_threads() > 0 ? czk_threads() : 1;
    czk_post_shape one = *s;
    one.sectors = 1;
    czk_post_counts n;
    czk_post_circuit_counts(&n, &one);
    uint64_t units = (uint64_t)threads < s->sectors ? (uint64_t)threads : s->sectors;
    /* the stream's window: `threads` sectors' rows, or the input rows */
    uint64_t window = n.constraints * units, inputs = 1 + (uint64_t)s->sectors * (n.inputs - 1);
    if (window < inputs) window = inputs;
    return czk_pce_work_compare_stream_bytes(w, window);
}
