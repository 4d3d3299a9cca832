/* A synthetic, consistent SnapDeals update (czk_snap_gen, czk/snap.h).
 *
 * The sector is a real one, only repetitive: the old replica and the new
 * data repeat one pseudo-random tile of T nodes (T = the whole sector up to
 * 2^18 nodes, else 512, at most one rho region), and the new replica is
 * encoded from them with rho per region of 2^(challenge_bits - h) nodes as
 * filecoin-proofs encodes it. Its three trees are whole trees, but a node's
 * value depends only on its level, its offset in the tile (when it covers
 * less than a tile) and its region (when it lies in one; else its index), so
 * each distinct subtree is hashed once (a memo keyed that way): a 32GiB
 * update costs about 10^5 hashes. Challenges come from the commitments, as
 * the verifier derives them. */
#include <stdlib.h>
#include <string.h>

#include "czk/merkle.h"
#include "czk/poseidon.h"
#include "czk/sha256.h"
#include "czk/snap.h"
#include "filecoin/internal.h"

enum { SNAP_TAG_DATA = 1, SNAP_TAG_OLD, SNAP_TAG_COMM_C };
enum { TREE_D = 0, TREE_R_OLD, TREE_R_NEW };

#define SNAP_GEN_FULL (1ULL << 18) /* up to this many nodes, no repetition */
#define SNAP_GEN_TILE 512ULL

typedef struct memo_ent {
    uint64_t k1, k2; /* k1 = level << 56 | offset + 1 (0: empty) */
    czk_fr v;
} memo_ent;

typedef struct gtree {
    int kind;
    uint32_t levels;
    uint32_t arity[CZK_FC_MAX_LEVELS];
    uint64_t width[CZK_FC_MAX_LEVELS + 1]; /* leaves under a node of level l */
    uint64_t tile, region;                 /* region: nodes for tree D and R old */
    const czk_fr *data, *old, *rho;        /* tiles; rho per region (R new) */
    memo_ent *tab;
    size_t cap, used;
} gtree;

static czk_status gtree_init(gtree *t, int kind, const czk_snap_shape *s, uint64_t tile, uint64_t region,
                             const czk_fr *data, const czk_fr *old, const czk_fr *rho)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->levels = kind == TREE_D ? s->challenge_bits : czk_fc_shape_tree_levels(&s->tree);
    t->width[0] = 1;
    for (uint32_t l = 0; l < t->levels; l++) {
        t->arity[l] = kind == TREE_D ? 2 : czk_fc_shape_level_arity(&s->tree, l);
        t->width[l + 1] = t->width[l] * t->arity[l];
    }
    t->tile = tile;
    t->region = region;
    t->data = data;
    t->old = old;
    t->rho = rho;
    t->cap = 1024;
    t->tab = calloc(t->cap, sizeof *t->tab);
    if (!t->tab) return czk_error(CZK_ERR_NOMEM, "snap generator: tree memo");
    return CZK_OK;
}

static void gtree_free(gtree *t)
{
    free(t->tab);
    t->tab = NULL;
}

static size_t memo_slot(const gtree *t, uint64_t k1, uint64_t k2)
{
    uint64_t h = k1 * 0x9e3779b97f4a7c15ULL ^ (k2 + 0x632be59bd9b4e019ULL) * 0xc2b2ae3d27d4eb4fULL;
    h ^= h >> 29;
    return (size_t)h & (t->cap - 1);
}

static memo_ent *memo_find(gtree *t, uint64_t k1, uint64_t k2)
{
    for (size_t i = memo_slot(t, k1, k2);; i = (i + 1) & (t->cap - 1))
        if (!t->tab[i].k1 || (t->tab[i].k1 == k1 && t->tab[i].k2 == k2)) return &t->tab[i];
}

static czk_status memo_put(gtree *t, uint64_t k1, uint64_t k2, const czk_fr *v)
{
    if (2 * (t->used + 1) > t->cap) {
        memo_ent *old = t->tab;
        size_t oc = t->cap;
        t->cap *= 2;
        t->tab = calloc(t->cap, sizeof *t->tab);
        if (!t->tab) {
            t->tab = old;
            t->cap = oc;
            return czk_error(CZK_ERR_NOMEM, "snap generator: tree memo of %zu entries", 2 * oc);
        }
        for (size_t i = 0; i < oc; i++)
            if (old[i].k1) *memo_find(t, old[i].k1, old[i].k2) = old[i];
        free(old);
    }
    memo_ent *e = memo_find(t, k1, k2);
    e->k1 = k1;
    e->k2 = k2;
    e->v = *v;
    t->used++;
    return CZK_OK;
}

static void leaf_value(czk_fr *out, const gtree *t, uint64_t j)
{
    uint64_t o = j % t->tile;
    if (t->kind == TREE_D) *out = t->data[o];
    else if (t->kind == TREE_R_OLD) *out = t->old[o];
    else {
        /* leaf_r_new = leaf_r_old + leaf_d_new * rho(region) */
        czk_fr_mul(out, &t->data[o], &t->rho[j / t->region]);
        czk_fr_add(out, out, &t->old[o]);
    }
}

/* The value of node j of level l (level 0: the leaves). */
static czk_status node_value(czk_fr *out, gtree *t, uint32_t l, uint64_t j)
{
    if (l == 0) {
        leaf_value(out, t, j);
        return CZK_OK;
    }
    const uint64_t w = t->width[l], first = j * w;
    uint64_t off = w < t->tile ? first % t->tile : 0, grp = w <= t->region ? first / t->region : j;
    uint64_t k1 = (uint64_t)l << 56 | (off + 1), k2 = grp;
    memo_ent *e = memo_find(t, k1, k2);
    if (e->k1) {
        *out = e->v;
        return CZK_OK;
    }
    const uint32_t a = t->arity[l - 1];
    czk_fr ch[8];
    for (uint32_t c = 0; c < a; c++) CZK_TRY(node_value(&ch[c], t, l - 1, j * a + c));
    if (t->kind == TREE_D) czk_fc_sha_node(out, &ch[0], &ch[1]);
    else CZK_TRY(czk_poseidon_hash(out, ch, a));
    return memo_put(t, k1, k2, out);
}

/* The inclusion proof of `node`: leaf, siblings level by level, root. */
static czk_status tree_proof(czk_fc_merkle *m, gtree *t, uint64_t node)
{
    m->index = node;
    CZK_TRY(node_value(&m->leaf, t, 0, node));
    czk_fr *sib = m->siblings;
    uint64_t j = node;
    for (uint32_t l = 0; l < t->levels; l++) {
        const uint32_t a = t->arity[l];
        const uint64_t parent = j / a;
        for (uint32_t c = 0; c < a; c++)
            if (parent * a + c != j) CZK_TRY(node_value(sib++, t, l, parent * a + c));
        j = parent;
    }
    return node_value(&m->root, t, t->levels, 0);
}

static void gen_key(czk__fc_prf *p, uint64_t seed)
{
    uint8_t buf[24];
    memcpy(buf, "czk snap update ", 16);
    memcpy(buf + 16, &seed, 8);
    czk_sha256(p->key, buf, sizeof buf);
}

czk_status czk_snap_gen(czk_snap_vanilla *out, const czk_snap_shape *s, uint64_t seed)
{
    if (!out || !s) return czk_error(CZK_ERR_INVALID_ARG, "snap generator: NULL argument");
    memset(out, 0, sizeof *out);
    const uint64_t nodes = s->tree.nodes;
    if (s->challenge_bits < 2 || nodes != 1ULL << s->challenge_bits || s->h > s->challenge_bits ||
        czk_fc_shape_tree_levels(&s->tree) >= CZK_FC_MAX_LEVELS || s->challenge_bits >= CZK_FC_MAX_LEVELS)
        return czk_error(CZK_ERR_INVALID_ARG, "snap generator: shape out of range");
    const uint64_t region = nodes >> s->h, regions = 1ULL << s->h;
    const uint64_t tile = nodes <= SNAP_GEN_FULL ? nodes : region < SNAP_GEN_TILE ? region : SNAP_GEN_TILE;

    const size_t per = czk_snap_partition_storage_size(s);
    const size_t head = ((size_t)s->partitions * sizeof(czk_snap_partition) + 7) & ~(size_t)7;
    const size_t total = head + (size_t)s->partitions * per;
    czk_fr *data = malloc(tile * sizeof *data), *old = malloc(tile * sizeof *old);
    czk_fr *rho = malloc(regions * sizeof *rho);
    uint64_t *ch = malloc((size_t)s->challenges * sizeof *ch);
    uint8_t *arena = calloc(1, total);
    gtree td, tro, trn;
    memset(&td, 0, sizeof td);
    memset(&tro, 0, sizeof tro);
    memset(&trn, 0, sizeof trn);
    czk_status st = CZK_OK;
    if (!data || !old || !rho || !ch || !arena) {
        st = czk_error(CZK_ERR_NOMEM, "snap generator: %zu bytes", total);
        goto out;
    }
    czk__fc_prf key;
    gen_key(&key, seed);
    for (uint64_t i = 0; i < tile; i++) {
        /* tree D leaves are 32-byte nodes with the top two bits clear */
        czk__fc_prf_fr(&data[i], &key, SNAP_TAG_DATA, 0, i);
        czk__fc_prf_fr(&old[i], &key, SNAP_TAG_OLD, 0, i);
    }
    czk_snap_partition *parts = (czk_snap_partition *)arena;
    for (uint32_t k = 0; k < s->partitions; k++) czk__snap_partition_layout(&parts[k], arena + head + k * per, s);
    czk_fr comm_c, root_old, root_new, phi;
    czk__fc_prf_fr(&comm_c, &key, SNAP_TAG_COMM_C, 0, 0);

    /* tree D and tree R old, then the commitments they fix */
    if ((st = gtree_init(&td, TREE_D, s, tile, nodes, data, old, NULL)) != CZK_OK) goto out;
    if ((st = gtree_init(&tro, TREE_R_OLD, s, tile, nodes, data, old, NULL)) != CZK_OK) goto out;
    if ((st = node_value(&out->comm_d_new, &td, td.levels, 0)) != CZK_OK) goto out;
    if ((st = node_value(&root_old, &tro, tro.levels, 0)) != CZK_OK) goto out;
    czk_poseidon_hash2(&out->comm_r_old, &comm_c, &root_old);
    /* the new replica: rho per region of the h high bits */
    czk_snap_phi(&phi, &out->comm_d_new, &out->comm_r_old);
    for (uint64_t g = 0; g < regions; g++) czk_snap_rho(&rho[g], &phi, g);
    if ((st = gtree_init(&trn, TREE_R_NEW, s, tile, region, data, old, rho)) != CZK_OK) goto out;
    if ((st = node_value(&root_new, &trn, trn.levels, 0)) != CZK_OK) goto out;
    czk_poseidon_hash2(&out->comm_r_new, &comm_c, &root_new);

    const uint32_t to_apex = s->challenge_bits - s->partition_bits - s->apex_bits;
    for (uint32_t k = 0; k < s->partitions && st == CZK_OK; k++) {
        czk_snap_partition *p = &parts[k];
        p->comm_c = comm_c;
        for (uint32_t i = 0; i < s->apex_leaves && st == CZK_OK; i++)
            st = node_value(&p->apex_leaves[i], &td, to_apex, (uint64_t)k * s->apex_leaves + i);
        if (st == CZK_OK) st = czk_snap_challenges(ch, s, &out->comm_r_new, k);
        for (uint32_t c = 0; c < s->challenges && st == CZK_OK; c++) {
            st = tree_proof(&p->proofs[c].r_old, &tro, ch[c]);
            if (st == CZK_OK) st = tree_proof(&p->proofs[c].d_new, &td, ch[c]);
            if (st == CZK_OK) st = tree_proof(&p->proofs[c].r_new, &trn, ch[c]);
        }
    }
    if (st != CZK_OK) goto out;
    out->shape = *s;
    out->h = s->h;
    out->n = s->partitions;
    out->parts = parts;
    out->arena = arena;
    out->arena_bytes = total;
    arena = NULL;
out:
    gtree_free(&td);
    gtree_free(&tro);
    gtree_free(&trn);
    free(data);
    free(old);
    free(rho);
    free(ch);
    free(arena);
    if (st != CZK_OK) memset(out, 0, sizeof *out);
    return st;
}
