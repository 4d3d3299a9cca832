/* Synthetic C1 generator. The sector is never materialised: only the nodes
 * a proof opens exist. Labels of challenged nodes are computed with the
 * real label function from their parents' labels (layer by layer, nodes in
 * increasing order, so a challenged node that is another's parent is
 * computed first); every other label, data leaf and off-path tree node is
 * pseudo-random (SHA-256 of a generator key, a tag, a level and an index,
 * truncated to 254 bits). Trees are sparse: level l + 1 holds the parents of
 * the level-l nodes that exist, each hashed from its children. */
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin.h"
#include "czk/poseidon.h"
#include "czk/sha256.h"
#include "filecoin/internal.h"

void czk__fc_prf_fr(czk_fr *out, const czk__fc_prf *p, uint32_t tag, uint32_t level, uint64_t index)
{
    uint8_t buf[48], d[32];
    memcpy(buf, p->key, 32);
    memcpy(buf + 32, &tag, 4);
    memcpy(buf + 36, &level, 4);
    memcpy(buf + 40, &index, 8);
    czk_sha256(d, buf, sizeof buf);
    d[31] &= 0x3f;
    czk_status s = czk_fr_from_bytes(out, d);
    CZK_ASSERT(s == CZK_OK);
    (void)s;
}

enum { TAG_LABEL = 1, TAG_DATA, TAG_TREE_D, TAG_TREE_C, TAG_TREE_R };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static size_t uniq(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i]) v[m++] = v[i];
    return m;
}

static ptrdiff_t find(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (v[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && v[lo] == x ? (ptrdiff_t)lo : -1;
}

void czk__fc_tree_free(czk__fc_sparse_tree *t)
{
    for (uint32_t l = 0; l <= t->levels; l++) {
        free(t->idx[l]);
        free(t->val[l]);
    }
}

void czk__fc_tree_get(czk_fr *out, const czk__fc_sparse_tree *t, const czk__fc_prf *p, uint32_t level,
                      uint64_t index)
{
    ptrdiff_t k = find(t->idx[level], t->n[level], index);
    if (k >= 0) *out = t->val[level][k];
    else czk__fc_prf_fr(out, p, t->tag, level, index);
}

czk_status czk__fc_tree_build(czk__fc_sparse_tree *t, const czk_fc_shape *s, int is_tree_d, uint32_t tag,
                              uint64_t *leaves, czk_fr *vals, size_t n, const czk__fc_prf *p)
{
    memset(t, 0, sizeof *t);
    t->is_tree_d = is_tree_d;
    t->tag = tag;
    t->levels = czk__fc_levels(s, is_tree_d);
    t->idx[0] = leaves;
    t->val[0] = vals;
    t->n[0] = n;
    for (uint32_t l = 0; l < t->levels; l++) {
        uint32_t ar = czk__fc_arity(s, is_tree_d, l);
        uint64_t *pi = malloc((t->n[l] ? t->n[l] : 1) * sizeof *pi);
        if (!pi) return czk_error(CZK_ERR_NOMEM, "synthetic C1: sparse tree level %u", l + 1);
        size_t m = 0;
        for (size_t i = 0; i < t->n[l]; i++)
            if (m == 0 || pi[m - 1] != t->idx[l][i] / ar) pi[m++] = t->idx[l][i] / ar;
        czk_fr *pv = malloc((m ? m : 1) * sizeof *pv);
        t->idx[l + 1] = pi;
        t->val[l + 1] = pv;
        t->n[l + 1] = m;
        if (!pv) return czk_error(CZK_ERR_NOMEM, "synthetic C1: sparse tree level %u", l + 1);
        for (size_t i = 0; i < m; i++) {
            czk_fr ch[16];
            for (uint32_t j = 0; j < ar; j++) czk__fc_tree_get(&ch[j], t, p, l, pi[i] * ar + j);
            CZK_TRY(czk__fc_tree_node(&pv[i], ch, ar, is_tree_d));
        }
    }
    CZK_ASSERT(t->n[t->levels] == 1 && t->idx[t->levels][0] == 0);
    return CZK_OK;
}

void czk__fc_tree_proof(czk_fc_merkle *m, const czk__fc_sparse_tree *t, const czk_fc_shape *s,
                        const czk__fc_prf *p, uint64_t leaf)
{
    m->index = leaf;
    m->root = t->val[t->levels][0];
    czk__fc_tree_get(&m->leaf, t, p, 0, leaf);
    czk_fr *sib = m->siblings;
    uint64_t idx = leaf;
    for (uint32_t l = 0; l < t->levels; l++) {
        uint32_t ar = czk__fc_arity(s, t->is_tree_d, l);
        uint64_t base = idx / ar * ar;
        for (uint32_t j = 0; j < ar; j++)
            if (base + j != idx) czk__fc_tree_get(sib++, t, p, l, base + j);
        idx /= ar;
    }
}

typedef struct gen_state {
    const czk_fc_shape *s;
    czk__fc_prf p;
    size_t nch;
    uint64_t *chal;       /* nch, in proof order */
    uint32_t *par;        /* nch x 14 */
    uint64_t *cols;       /* sorted unique nodes with a column (challenges + parents) */
    size_t ncols;
    czk_fr *labels;       /* ncols x layers */
    uint64_t *cnodes;     /* sorted unique challenged nodes */
    size_t ncnodes;
} gen_state;

static const czk_fr *label_of(const gen_state *g, uint64_t node, uint32_t layer)
{
    ptrdiff_t k = find(g->cols, g->ncols, node);
    CZK_ASSERT(k >= 0);
    return &g->labels[(size_t)k * g->s->layers + layer - 1];
}

static void gen_free(gen_state *g)
{
    free(g->chal);
    free(g->par);
    free(g->cols);
    free(g->labels);
    free(g->cnodes);
}

static void progress_step(czk_fc_progress_fn fn, void *ctx, const char *stage, uint64_t done, uint64_t total)
{
    if (fn) fn(ctx, stage, done, total);
}

/* The challenges of every partition, their parents, and the sorted unique
 * nodes that need a column (challenges and parents) or are challenged. */
static czk_status gen_challenges(gen_state *g, const czk__fc_graph *graph, const czk_fc_c1 *c,
                                 czk_fc_progress_fn progress, void *ctx)
{
    const czk_fc_shape *s = g->s;
    g->nch = (size_t)s->partitions * s->challenges;
    g->chal = malloc(g->nch * sizeof *g->chal);
    g->par = malloc(g->nch * CZK_FC_PARENTS * sizeof *g->par);
    g->cols = malloc(g->nch * (1 + CZK_FC_PARENTS) * sizeof *g->cols);
    g->cnodes = malloc(g->nch * sizeof *g->cnodes);
    if (!g->chal || !g->par || !g->cols || !g->cnodes)
        return czk_error(CZK_ERR_NOMEM, "synthetic C1: %zu challenges", g->nch);
    for (size_t n = 0; n < g->nch; n++) {
        g->chal[n] = czk__fc_challenge(s, &c->replica_id, c->seed, (uint32_t)n);
        czk__fc_drg_parents(&g->par[n * CZK_FC_PARENTS], graph, g->chal[n]);
        czk__fc_exp_parents(&g->par[n * CZK_FC_PARENTS + CZK_FC_DRG_DEGREE], graph, g->chal[n]);
        g->cols[n * (1 + CZK_FC_PARENTS)] = g->chal[n];
        for (int j = 0; j < CZK_FC_PARENTS; j++)
            g->cols[n * (1 + CZK_FC_PARENTS) + 1 + j] = g->par[n * CZK_FC_PARENTS + j];
        g->cnodes[n] = g->chal[n];
        progress_step(progress, ctx, "challenges and parents", n + 1, g->nch);
    }
    g->ncols = uniq(g->cols, g->nch * (1 + CZK_FC_PARENTS));
    g->ncnodes = uniq(g->cnodes, g->nch);
    return CZK_OK;
}

/* Every column's labels: the PRF's everywhere, then the true label of each
 * challenged node, layer by layer, from its parents' labels. */
static czk_status gen_labels(gen_state *g, const czk__fc_graph *graph, const czk_fc_c1 *c,
                             czk_fc_progress_fn progress, void *ctx)
{
    const czk_fc_shape *s = g->s;
    g->labels = malloc(g->ncols * s->layers * sizeof *g->labels);
    if (!g->labels) return czk_error(CZK_ERR_NOMEM, "synthetic C1: labels of %zu columns", g->ncols);
    for (size_t i = 0; i < g->ncols; i++)
        for (uint32_t l = 1; l <= s->layers; l++)
            czk__fc_prf_fr(&g->labels[i * s->layers + l - 1], &g->p, TAG_LABEL, l, g->cols[i]);
    for (uint32_t l = 1; l <= s->layers; l++) {
        for (size_t i = 0; i < g->ncnodes; i++) {
            uint64_t node = g->cnodes[i];
            uint32_t par[CZK_FC_PARENTS];
            czk__fc_drg_parents(par, graph, node);
            czk__fc_exp_parents(par + CZK_FC_DRG_DEGREE, graph, node);
            czk_fr drg[CZK_FC_DRG_DEGREE], exp[CZK_FC_EXP_DEGREE], slots[CZK_FC_LABEL_PARENTS];
            for (int j = 0; j < CZK_FC_DRG_DEGREE; j++) drg[j] = *label_of(g, par[j], l);
            for (int j = 0; j < CZK_FC_EXP_DEGREE; j++)
                exp[j] = *label_of(g, par[CZK_FC_DRG_DEGREE + j], l > 1 ? l - 1 : 1);
            czk_fc_label_parents(slots, l, drg, exp);
            czk_fc_label((czk_fr *)label_of(g, node, l), &c->replica_id, l, node, slots);
        }
        progress_step(progress, ctx, "labels", l, s->layers);
    }
    return CZK_OK;
}

/* Tree C over the columns' hashes. */
static czk_status gen_tree_c(czk__fc_sparse_tree *tc, const gen_state *g, czk_fc_progress_fn progress, void *ctx)
{
    const czk_fc_shape *s = g->s;
    uint64_t *ci = malloc(g->ncols * sizeof *ci);
    czk_fr *cv = malloc(g->ncols * sizeof *cv);
    czk_status st = CZK_OK;
    if (!ci || !cv) {
        free(ci);
        free(cv);
        return czk_error(CZK_ERR_NOMEM, "synthetic C1: tree C leaves");
    }
    memcpy(ci, g->cols, g->ncols * sizeof *ci);
    for (size_t i = 0; i < g->ncols && st == CZK_OK; i++) {
        st = czk_fc_column_hash(&cv[i], &g->labels[i * s->layers], s->layers);
        if (i % 64 == 63 || i + 1 == g->ncols) progress_step(progress, ctx, "column hashes", i + 1, g->ncols);
    }
    if (st != CZK_OK) {
        free(ci);
        free(cv);
        return st;
    }
    progress_step(progress, ctx, "tree C", 0, 1);
    CZK_TRY(czk__fc_tree_build(tc, s, 0, TAG_TREE_C, ci, cv, g->ncols, &g->p));
    progress_step(progress, ctx, "tree C", 1, 1);
    return CZK_OK;
}

/* Tree D (the data) and tree R_last (data + the last layer's label) over
 * the challenged nodes. */
static czk_status gen_trees_dr(czk__fc_sparse_tree *td, czk__fc_sparse_tree *tr, const gen_state *g,
                               czk_fc_progress_fn progress, void *ctx)
{
    const czk_fc_shape *s = g->s;
    uint64_t *di = malloc(g->ncnodes * sizeof *di), *ri = malloc(g->ncnodes * sizeof *ri);
    czk_fr *dv = malloc(g->ncnodes * sizeof *dv), *rv = malloc(g->ncnodes * sizeof *rv);
    if (!di || !ri || !dv || !rv) {
        free(di);
        free(ri);
        free(dv);
        free(rv);
        return czk_error(CZK_ERR_NOMEM, "synthetic C1: tree D / R leaves");
    }
    for (size_t i = 0; i < g->ncnodes; i++) {
        di[i] = ri[i] = g->cnodes[i];
        czk__fc_prf_fr(&dv[i], &g->p, TAG_DATA, 0, g->cnodes[i]);
        czk_fr_add(&rv[i], label_of(g, g->cnodes[i], s->layers), &dv[i]);
    }
    czk_status st = czk__fc_tree_build(td, s, 1, TAG_TREE_D, di, dv, g->ncnodes, &g->p);
    if (st != CZK_OK) {
        free(ri);
        free(rv);
        return st;
    }
    CZK_TRY(czk__fc_tree_build(tr, s, 0, TAG_TREE_R, ri, rv, g->ncnodes, &g->p));
    progress_step(progress, ctx, "trees D and R_last", 1, 1);
    return CZK_OK;
}

/* Challenge n's proof: its tree D and R_last paths, its columns with their
 * tree C paths, and its labeling and encoding proofs. */
static void gen_challenge_proof(czk_fc_challenge_proof *p, const gen_state *g, size_t n, const czk__fc_sparse_tree *td,
                                const czk__fc_sparse_tree *tc, const czk__fc_sparse_tree *tr)
{
    const czk_fc_shape *s = g->s;
    uint64_t node = g->chal[n];
    czk__fc_tree_proof(&p->comm_d, td, s, &g->p, node);
    czk__fc_tree_proof(&p->comm_r_last, tr, s, &g->p, node);
    czk_fc_column_proof *cols[1 + CZK_FC_PARENTS];
    cols[0] = &p->c_x;
    for (int j = 0; j < CZK_FC_DRG_DEGREE; j++) cols[1 + j] = &p->drg[j];
    for (int j = 0; j < CZK_FC_EXP_DEGREE; j++) cols[1 + CZK_FC_DRG_DEGREE + j] = &p->exp[j];
    for (int j = 0; j <= CZK_FC_PARENTS; j++) {
        uint64_t u = j == 0 ? node : g->par[n * CZK_FC_PARENTS + j - 1];
        cols[j]->index = (uint32_t)u;
        memcpy(cols[j]->rows, label_of(g, u, 1), s->layers * sizeof(czk_fr));
        czk__fc_tree_proof(&cols[j]->proof, tc, s, &g->p, u);
    }
    for (uint32_t l = 1; l <= s->layers; l++) {
        czk_fr drg[CZK_FC_DRG_DEGREE], exp[CZK_FC_EXP_DEGREE];
        for (int j = 0; j < CZK_FC_DRG_DEGREE; j++) drg[j] = p->drg[j].rows[l - 1];
        for (int j = 0; j < CZK_FC_EXP_DEGREE; j++) exp[j] = p->exp[j].rows[l > 1 ? l - 2 : 0];
        czk_fc_labeling_proof *lp = &p->labeling[l - 1];
        lp->layer_index = l;
        lp->node = node;
        czk_fc_label_parents(lp->parents, l, drg, exp);
    }
    p->encoding.layer_index = s->layers;
    p->encoding.node = node;
    memcpy(p->encoding.parents, p->labeling[s->layers - 1].parents, CZK_FC_LABEL_PARENTS * sizeof(czk_fr));
}

czk_status czk_fc_gen_c1(czk_fc_c1 *c, const czk_fc_shape *s, uint64_t seed, czk_fc_progress_fn progress, void *ctx)
{
    if (czk_fc_proof_is_synthetic(s->proof) || czk_fc_proof_is_ni(s->proof))
        return czk_error(CZK_ERR_UNSUPPORTED, "synthetic C1: %s: its challenges depend on comm_r, which a sparse "
                         "sector only knows after its challenges", czk_fc_proof_name(s->proof));
    if (!czk_poseidon_arity_supported(s->layers))
        return czk_error(CZK_ERR_UNSUPPORTED,
                         "synthetic C1: %u layers: the column hash needs Poseidon arity %u (czk has 2, 4, 8, 11)",
                         s->layers, s->layers);
    CZK_TRY(czk_fc_c1_alloc(c, s));
    gen_state g = {.s = s};
    czk__fc_sparse_tree td = {0}, tc = {0}, tr = {0};
    czk_rng rng;
    czk_rng_seed(&rng, seed);
    czk_rng_bytes(&rng, g.p.key, 32);
    uint8_t rb[32];
    czk_rng_bytes(&rng, rb, 32);
    rb[31] &= 0x3f; /* replica_id is a truncated SHA-256 digest */
    czk_status st = czk_fr_from_bytes(&c->replica_id, rb);
    CZK_ASSERT(st == CZK_OK);
    czk_rng_bytes(&rng, c->seed, 32);
    czk_rng_bytes(&rng, c->ticket, 32);
    c->sector_num = (int64_t)(seed & 0x7fffffff);

    czk__fc_graph graph;
    czk__fc_graph_init(&graph, s);
    st = gen_challenges(&g, &graph, c, progress, ctx);
    if (st == CZK_OK) st = gen_labels(&g, &graph, c, progress, ctx);
    if (st == CZK_OK) st = gen_tree_c(&tc, &g, progress, ctx);
    if (st == CZK_OK) st = gen_trees_dr(&td, &tr, &g, progress, ctx);
    if (st == CZK_OK) {
        c->comm_d = td.val[td.levels][0];
        czk_poseidon_hash2(&c->comm_r, &tc.val[tc.levels][0], &tr.val[tr.levels][0]);
        for (size_t n = 0; n < g.nch; n++) gen_challenge_proof(&c->proofs[n], &g, n, &td, &tc, &tr);
    }
    czk__fc_tree_free(&td);
    czk__fc_tree_free(&tc);
    czk__fc_tree_free(&tr);
    gen_free(&g);
    if (st != CZK_OK) czk_fc_c1_free(c);
    return st;
}
