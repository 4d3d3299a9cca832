/* The C1 data model: one arena per file. */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin.h"
#include "filecoin/internal.h"

size_t czk__fc_challenge_values(const czk_fc_shape *s)
{
    size_t t = czk_fc_shape_tree_siblings(s);
    return s->d_height + t + (1 + CZK_FC_PARENTS) * (s->layers + t) +
           (size_t)(s->layers + 1) * CZK_FC_LABEL_PARENTS;
}

static void col_init(czk_fc_column_proof *col, czk_fr **pool, const czk_fc_shape *s, size_t t)
{
    col->rows = *pool;
    *pool += s->layers;
    col->proof.siblings = *pool;
    *pool += t;
}

czk_status czk_fc_c1_alloc(czk_fc_c1 *c, const czk_fc_shape *s)
{
    memset(c, 0, sizeof *c);
    if (s->layers < 1 || s->layers > CZK_FC_MAX_LAYERS || s->d_height >= CZK_FC_MAX_LEVELS ||
        czk_fc_shape_tree_levels(s) >= CZK_FC_MAX_LEVELS)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_fc_c1_alloc: shape out of range");
    size_t nch = (size_t)s->partitions * s->challenges;
    size_t per = czk__fc_challenge_values(s);
    size_t t = czk_fc_shape_tree_siblings(s);
    size_t b_ch = nch * sizeof(czk_fc_challenge_proof);
    size_t b_lab = nch * s->layers * sizeof(czk_fc_labeling_proof);
    size_t b_val = nch * per * sizeof(czk_fr);
    size_t total = b_ch + b_lab + b_val;
    uint8_t *arena = calloc(1, total ? total : 1);
    if (!arena)
        return czk_error(CZK_ERR_NOMEM, "czk_fc_c1_alloc: %zu bytes for %zu challenge proofs", total, nch);
    c->shape = *s;
    c->arena = arena;
    c->arena_bytes = total;
    c->proofs = (czk_fc_challenge_proof *)arena;
    czk_fc_labeling_proof *lab = (czk_fc_labeling_proof *)(arena + b_ch);
    czk_fr *pool = (czk_fr *)(arena + b_ch + b_lab);
    for (size_t n = 0; n < nch; n++) {
        czk_fc_challenge_proof *p = &c->proofs[n];
        p->comm_d.siblings = pool;
        pool += s->d_height;
        p->comm_r_last.siblings = pool;
        pool += t;
        col_init(&p->c_x, &pool, s, t);
        for (int j = 0; j < CZK_FC_DRG_DEGREE; j++) col_init(&p->drg[j], &pool, s, t);
        for (int j = 0; j < CZK_FC_EXP_DEGREE; j++) col_init(&p->exp[j], &pool, s, t);
        p->labeling = lab;
        lab += s->layers;
        for (uint32_t l = 0; l < s->layers; l++) {
            p->labeling[l].parents = pool;
            pool += CZK_FC_LABEL_PARENTS;
        }
        p->encoding.parents = pool;
        pool += CZK_FC_LABEL_PARENTS;
    }
    CZK_ASSERT((uint8_t *)pool == arena + total);
    return CZK_OK;
}

void czk_fc_c1_free(czk_fc_c1 *c)
{
    if (!c) return;
    free(c->arena);
    memset(c, 0, sizeof *c);
}
