/* czk — the FallbackPoSt partition circuit (WindowPoSt and WinningPoSt),
 * compiled once per LC variant (cs/lc.h); post.c chooses the variant. The
 * order of allocations and constraints is storage-proofs-post's
 * FallbackPoStCircuit (docs/filecoin.md "FallbackPoSt"); the names are its
 * bellpepper namespaces. */
#include <stdio.h>

#include "circuits/post_internal.h"
#include "cs/lc_lcv.h"
#include "gadgets/gadgets_lc.h"

static void post_ns_push_idx(czk_cs *cs, const char *prefix, uint32_t i)
{
    if (!cs->wants_names) return;
    char buf[48];
    snprintf(buf, sizeof buf, "%s%u", prefix, i);
    czk__cs_ns_push(cs, buf, CZK_NOIDX);
}

/* One circuit sector (namespace "sector_i" pushed by the caller). */
static czk_status post_sector(czk_cs *cs, const post_ctx *x, uint32_t i)
{
    const int vals = x->v != NULL;
    const czk_post_sector_proof *p = vals ? &x->v->proofs[czk__post_vanilla_sector(x, x->v->n, i, 0)] : NULL;
    czk_anum comm_r_last, comm_c, comm_r;
    CZK_TRY(czk__anum_alloc_ns(cs, &comm_r_last, vals ? &p->comm_r_last : NULL, "comm_r_last"));
    CZK_TRY(czk__anum_alloc_ns(cs, &comm_c, vals ? &p->comm_c : NULL, "comm_c"));
    CZK_TRY(czk__anum_alloc_ns(cs, &comm_r, vals ? &p->comm_r : NULL, "comm_r"));
    CZK_TRY(czk__anum_inputize_ns(cs, &comm_r, "comm_r_input"));
    CZK_TRY(czk__comm_r_check(cs, &comm_r, &comm_c, &comm_r_last, vals, "enforce_comm_c_comm_r_last_hash_comm_r"));

    /* PoRCircuit per challenge: private leaf ("value"), existing private
     * root comm_r_last, the index bits packed into one public input */
    for (uint32_t j = 0; j < x->challenges; j++) {
        const czk_fc_merkle *m = NULL;
        if (vals) m = &x->v->proofs[czk__post_vanilla_sector(x, x->v->n, i, j)].inclusion[czk__post_inclusion(x, i, j)];
        post_ns_push_idx(cs, "challenge_inclusion_", j);
        czk_status s = czk_merkle_por_circuit(cs, &x->tree, NULL, vals ? &m->leaf : NULL, vals ? m->siblings : NULL,
                                   vals ? m->index : 0, &comm_r_last.var, NULL, 1);
        czk__cs_ns_pop(cs);
        CZK_TRY(s);
    }
    return CZK_OK;
}

czk_status czk__post_sector(czk_cs *cs, const post_ctx *x, uint32_t i)
{
    post_ns_push_idx(cs, "sector_", i);
    czk_status s = post_sector(cs, x, i);
    czk__cs_ns_pop(cs);
    return s;
}

/* FallbackPoStCircuit::synthesize (its sequential form): every sector in
 * "outer namespace". */
czk_status czk__post_synth(czk_cs *cs, const post_ctx *x)
{
    czk_status s = CZK_OK;
    czk__cs_ns_push(cs, "outer namespace", CZK_NOIDX);
    for (uint32_t i = 0; i < x->sectors && s == CZK_OK; i++) s = czk__post_sector(cs, x, i);
    czk__cs_ns_pop(cs);
    return s;
}
