/* czk — the FallbackPoSt circuit (czk/post.h): the closed-form
 * counts, the entry point of the synthesis (post_lcv.c, per LC variant), the
 * public inputs and a counting pass (its shapes: src/filecoin/post_shape.c).
 * Costs and shapes: docs/filecoin.md
 * "FallbackPoSt". */
#include <stdlib.h>
#include <string.h>

#include "circuits/count.h"
#include "circuits/post_internal.h"
#include "cs/lc.h"

/* ---- shapes --------------------------------------------------------------- */

static czk_status post_shape_check(const czk_post_shape *s)
{
    if (!s) return czk_error(CZK_ERR_INVALID_ARG, "post: NULL shape");
    if (s->sectors < 1 || s->sectors > CZK_POST_MAX_SECTORS || s->challenges < 1 || s->challenges > CZK_POST_MAX_CHALLENGES)
        return czk_error(CZK_ERR_INVALID_ARG, "post: shape has %u sectors of %u challenges", s->sectors,
                         s->challenges);
    if (s->sector_challenges < s->challenges || s->sector_challenges % s->challenges ||
        ((uint64_t)s->sectors * s->challenges) % s->sector_challenges)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "post: %u inclusion proofs per vanilla sector do not split into %u sectors of %u challenges",
                         s->sector_challenges, s->sectors, s->challenges);
    return CZK_OK;
}

static czk_status post_ctx_init(post_ctx *x, const czk_post_shape *s, const czk_post_vanilla *v)
{
    CZK_TRY(post_shape_check(s));
    memset(x, 0, sizeof *x);
    x->v = v;
    x->sectors = s->sectors;
    x->challenges = s->challenges;
    x->sector_challenges = s->sector_challenges;
    x->tree.hasher = CZK_MERKLE_POSEIDON;
    x->tree.base_arity = s->tree.base_arity;
    x->tree.base_height = s->tree.base_height;
    x->tree.sub_arity = s->tree.sub_arity;
    x->tree.top_arity = s->tree.top_arity;
    CZK_TRY(czk_merkle_shape_check(&x->tree));
    if (czk_merkle_leaves(&x->tree) != s->tree.nodes)
        return czk_error(CZK_ERR_INVALID_ARG, "post: tree %u,%u,%u of height %u has %llu leaves, the shape says %llu",
                         s->tree.base_arity, s->tree.sub_arity, s->tree.top_arity, s->tree.base_height,
                         (unsigned long long)czk_merkle_leaves(&x->tree), (unsigned long long)s->tree.nodes);
    return CZK_OK;
}

/* The vanilla proofs fit the shape (a reader or generator filled them). */
static czk_status post_vanilla_check(const czk_post_vanilla *v, const czk_post_shape *s)
{
    const czk_post_shape *t = &v->shape;
    if (t->kind != s->kind || t->sectors != s->sectors || t->challenges != s->challenges ||
        t->sector_challenges != s->sector_challenges || t->tree.nodes != s->tree.nodes ||
        t->tree.base_arity != s->tree.base_arity || t->tree.sub_arity != s->tree.sub_arity ||
        t->tree.top_arity != s->tree.top_arity)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "post: the vanilla proofs (%s, %llu nodes, %u x %u challenges) do not have the circuit's shape "
                         "(%s, %llu nodes, %u x %u challenges)",
                         czk_post_kind_name(t->kind), (unsigned long long)t->tree.nodes, t->sectors, t->challenges,
                         czk_post_kind_name(s->kind), (unsigned long long)s->tree.nodes, s->sectors, s->challenges);
    const uint32_t nv = czk_post_vanilla_sectors(s);
    if (v->n < 1 || v->n > nv || !v->proofs)
        return czk_error(CZK_ERR_INVALID_ARG, "post: %u vanilla sector proofs (a partition takes 1..%u)", v->n, nv);
    for (uint32_t k = 0; k < v->n; k++) {
        const czk_post_sector_proof *p = &v->proofs[k];
        if (p->n_inclusion != s->sector_challenges || !p->inclusion)
            return czk_error(CZK_ERR_INVALID_ARG, "post: vanilla sector %u (id %llu) has %u inclusion proofs, expected %u",
                             k, (unsigned long long)p->sector_id, p->n_inclusion, s->sector_challenges);
        for (uint32_t j = 0; j < p->n_inclusion; j++) {
            const czk_fc_merkle *m = &p->inclusion[j];
            if (!m->siblings || m->index >= s->tree.nodes)
                return czk_error(CZK_ERR_INVALID_ARG,
                                 "post: vanilla sector %u inclusion proof %u: %s (leaf %llu of %llu)", k, j,
                                 m->siblings ? "leaf index out of range" : "no path", (unsigned long long)m->index,
                                 (unsigned long long)s->tree.nodes);
        }
    }
    return CZK_OK;
}

/* ---- counts (docs/filecoin.md "FallbackPoSt", Costs) ------------------------- */

/* One PoR level of arity 2 / 4 / 8: log2(a) index bits, the insertion's
 * picks and Poseidon(a): 314 / 387 / 530 constraints. Its aux: one per
 * constraint (bits, picks, Poseidon) plus the a - 1 siblings. */
static uint64_t post_level_constraints(unsigned a)
{
    return a == 2 ? 314 : a == 4 ? 387 : 530;
}

#define POST_POR_OVERHEAD 2    /* index packing, root equality */
#define POST_SECTOR_CHECK 313  /* inputize comm_r, Poseidon2 (311), equality */
#define POST_SECTOR_AUX 314    /* comm_r_last, comm_c, comm_r, Poseidon2 (311) */

void czk_post_circuit_counts(czk_post_counts *out, const czk_post_shape *s)
{
    memset(out, 0, sizeof *out);
    uint64_t por_c = POST_POR_OVERHEAD, por_a = 1; /* the leaf */
    uint32_t levels = czk_fc_shape_tree_levels(&s->tree);
    for (uint32_t l = 0; l < levels; l++) {
        unsigned a = czk_fc_shape_level_arity(&s->tree, l);
        por_c += post_level_constraints(a);
        por_a += post_level_constraints(a) + (a - 1);
    }
    const uint64_t n = s->sectors, c = s->challenges;
    out->inputs = 1 + n * (1 + c); /* ONE; per sector comm_r and one packed index per challenge */
    out->aux = n * (POST_SECTOR_AUX + c * por_a);
    out->constraints = n * (POST_SECTOR_CHECK + c * por_c);
}

size_t czk_post_public_input_count(const czk_post_shape *s)
{
    return (size_t)s->sectors * (1 + (size_t)s->challenges);
}

/* ---- synthesis ------------------------------------------------------------------ */

czk_status czk_post_synthesize(czk_cs *cs, const czk_post_shape *s, const czk_post_vanilla *v)
{
    if (!cs) return czk_error(CZK_ERR_INVALID_ARG, "post: NULL constraint system");
    if (czk__cs_has_values(cs) && !v)
        return czk_error(CZK_ERR_MISSING_ASSIGNMENT, "post: the %s backend needs the vanilla proofs (v is NULL)",
                         czk_cs_backend_name(cs->backend));
    post_ctx x;
    CZK_TRY(post_ctx_init(&x, s, czk__cs_has_values(cs) ? v : NULL));
    if (x.v) CZK_TRY(post_vanilla_check(x.v, s));
    return CZK_LC_DISPATCH(cs->lc_kind, czk__post_synth, (cs, &x));
}

/* ---- parallel synthesis (circuits/par.h) ------------------------------------------ */

static czk_status post_par_unit(czk_cs *cs, void *ctx, uint32_t i)
{
    const czk__post_par *p = ctx;
    return CZK_LC_DISPATCH(p->lc, czk__post_sector, (cs, &p->x, i));
}

czk_status czk__post_par_init(czk__par_circuit *out, czk__post_par *p, const czk_post_shape *s,
                              const czk_post_vanilla *v, czk_lc_kind lc)
{
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "post: LC kind %d", (int)lc);
    memset(p, 0, sizeof *p);
    CZK_TRY(post_ctx_init(&p->x, s, v));
    if (v) CZK_TRY(post_vanilla_check(v, s));
    p->lc = lc;
    /* one circuit sector: the closed form of a one-sector shape, less ONE */
    czk_post_shape one = *s;
    one.sectors = 1;
    czk_post_counts n;
    czk_post_circuit_counts(&n, &one);
    memset(out, 0, sizeof *out);
    out->top = (czk__par_cost){0, 0, 1};
    out->unit = (czk__par_cost){n.constraints, n.aux, n.inputs - 1};
    out->units = s->sectors;
    out->lc = lc;
    out->top_fn = NULL;
    out->unit_fn = post_par_unit;
    out->ctx = p;
    out->what = "post";
    return CZK_OK;
}

czk_status czk_post_public_inputs(czk_fr *out, const czk_post_shape *s, const czk_fr *comm_r, uint32_t n,
                                  const uint64_t *leaves)
{
    if (!out || !comm_r || !leaves) return czk_error(CZK_ERR_INVALID_ARG, "post public inputs: NULL argument");
    post_ctx x;
    CZK_TRY(post_ctx_init(&x, s, NULL));
    const uint32_t nv = czk_post_vanilla_sectors(s);
    if (n < 1 || n > nv)
        return czk_error(CZK_ERR_INVALID_ARG, "post public inputs: %u sectors (a partition takes 1..%u)", n, nv);
    size_t o = 0;
    for (uint32_t i = 0; i < s->sectors; i++) {
        out[o++] = comm_r[czk__post_vanilla_sector(&x, n, i, 0)];
        for (uint32_t j = 0; j < s->challenges; j++) {
            uint64_t leaf = leaves[(size_t)czk__post_vanilla_sector(&x, n, i, j) * s->sector_challenges +
                                   czk__post_inclusion(&x, i, j)];
            if (leaf >= s->tree.nodes)
                return czk_error(CZK_ERR_INVALID_ARG, "post public inputs: sector %u challenge %u: leaf %llu >= %llu",
                                 i, j, (unsigned long long)leaf, (unsigned long long)s->tree.nodes);
            czk_fr_from_u64(&out[o++], leaf);
        }
    }
    return CZK_OK;
}

/* ---- counting pass ------------------------------------------------------------------ */

czk_status czk_post_count(czk_post_counts *out, const czk_post_shape *s, czk_lc_kind lc)
{
    if ((unsigned)lc >= CZK_LC_KIND_COUNT) return czk_error(CZK_ERR_INVALID_ARG, "post count: LC kind %d", (int)lc);
    post_ctx x;
    CZK_TRY(post_ctx_init(&x, s, NULL));
    czk__count ci;
    czk_cs cs;
    CZK_TRY(czk__count_cs_init(&cs, &ci, lc));
    czk_status st = CZK_LC_DISPATCH(lc, czk__post_synth, (&cs, &x));
    czk__count_cs_clear(&cs);
    CZK_TRY(st);
    out->inputs = cs.n_inputs;
    out->aux = cs.n_aux;
    out->constraints = cs.n_constraints;
    return CZK_OK;
}
