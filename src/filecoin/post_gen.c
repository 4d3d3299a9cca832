/* Synthetic, consistent FallbackPoSt vanilla proofs (czk/post.h). Per vanilla
 * sector, its challenged leaves are the only leaves that exist in a sparse
 * tree R_last (gen.c's: the leaves' ancestors are hashed level by level with
 * the tree's arities, every other node is pseudo-random), so all of the
 * sector's paths end at one root, comm_r_last; comm_c is pseudo-random and
 * comm_r = Poseidon2(comm_c, comm_r_last). A 32GiB tree is never built: a
 * partition costs its paths only. */
#include <stdlib.h>
#include <string.h>

#include "czk/post.h"
#include "czk/post_vanilla.h"
#include "czk/poseidon.h"
#include "czk/sha256.h"
#include "filecoin/internal.h"

enum { POST_TAG_TREE = 1, POST_TAG_COMM_C, POST_TAG_LEAF_INDEX, POST_TAG_BYTES };

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The generator key of vanilla sector k (k = UINT32_MAX: the partition's). */
static void post_key(czk__fc_prf *p, uint64_t seed, uint32_t k)
{
    uint8_t buf[28];
    memcpy(buf, "czk post vanilla", 16);
    memcpy(buf + 16, &seed, 8);
    memcpy(buf + 24, &k, 4);
    czk_sha256(p->key, buf, sizeof buf);
}

static uint64_t post_random_leaf(const czk__fc_prf *p, uint32_t j, uint64_t nodes)
{
    czk_fr f;
    uint8_t b[32];
    czk__fc_prf_fr(&f, p, POST_TAG_LEAF_INDEX, 0, j);
    czk_fr_to_bytes(b, &f);
    uint64_t x;
    memcpy(&x, b, 8);
    return x % nodes;
}

void czk_post_gen_vanilla_free(czk_post_vanilla *v)
{
    if (!v) return;
    free(v->arena);
    memset(v, 0, sizeof *v);
}

/* One vanilla sector: its sparse tree over the challenged leaves, then the
 * paths (in challenge order, repeats allowed). */
static czk_status post_gen_sector(czk_post_sector_proof *p, const czk_post_shape *s, const czk__fc_prf *key,
                                  const uint64_t *leaves)
{
    const uint32_t c = s->sector_challenges;
    uint64_t *idx = malloc((size_t)c * sizeof *idx);
    czk_fr *val = malloc((size_t)c * sizeof *val);
    if (!idx || !val) {
        free(idx);
        free(val);
        return czk_error(CZK_ERR_NOMEM, "post vanilla generator: %u leaves", c);
    }
    memcpy(idx, leaves, (size_t)c * sizeof *idx);
    qsort(idx, c, sizeof *idx, cmp_u64);
    size_t m = 0;
    for (uint32_t i = 0; i < c; i++)
        if (m == 0 || idx[m - 1] != idx[i]) idx[m++] = idx[i];
    for (size_t i = 0; i < m; i++) czk__fc_prf_fr(&val[i], key, POST_TAG_TREE, 0, idx[i]);
    czk__fc_sparse_tree t;
    czk_status st = czk__fc_tree_build(&t, &s->tree, 0, POST_TAG_TREE, idx, val, m, key);
    if (st == CZK_OK) {
        for (uint32_t j = 0; j < c; j++) czk__fc_tree_proof(&p->inclusion[j], &t, &s->tree, key, leaves[j]);
        p->comm_r_last = p->inclusion[0].root;
        czk__fc_prf_fr(&p->comm_c, key, POST_TAG_COMM_C, 0, 0);
        /* comm_r = Poseidon2(comm_c, comm_r_last), Merkle tag */
        czk_poseidon_hash2(&p->comm_r, &p->comm_c, &p->comm_r_last);
    }
    czk__fc_tree_free(&t);
    return st;
}

czk_status czk_post_gen_vanilla(czk_post_vanilla *out, const czk_post_shape *s, uint64_t seed, const uint64_t *leaves)
{
    if (!out || !s) return czk_error(CZK_ERR_INVALID_ARG, "post vanilla generator: NULL argument");
    memset(out, 0, sizeof *out);
    const uint32_t nv = czk_post_vanilla_sectors(s), c = s->sector_challenges;
    const uint32_t levels = czk_fc_shape_tree_levels(&s->tree), sib = czk_fc_shape_tree_siblings(&s->tree);
    if (nv < 1 || c < 1 || levels < 1 || levels > CZK_FC_MAX_LEVELS || s->tree.nodes < 2)
        return czk_error(CZK_ERR_INVALID_ARG, "post vanilla generator: shape with %u sectors of %u challenges, %u levels",
                         nv, c, levels);
    if (leaves)
        for (size_t i = 0; i < (size_t)nv * c; i++)
            if (leaves[i] >= s->tree.nodes)
                return czk_error(CZK_ERR_INVALID_ARG, "post vanilla generator: leaf %zu is %llu, the tree has %llu", i,
                                 (unsigned long long)leaves[i], (unsigned long long)s->tree.nodes);
    const size_t b_proofs = (size_t)nv * sizeof(czk_post_sector_proof);
    const size_t b_incl = (size_t)nv * c * sizeof(czk_fc_merkle);
    const size_t b_sib = (size_t)nv * c * sib * sizeof(czk_fr);
    const size_t b_leaves = (size_t)nv * c * sizeof(uint64_t);
    uint8_t *arena = calloc(1, b_proofs + b_incl + b_sib + b_leaves);
    if (!arena)
        return czk_error(CZK_ERR_NOMEM, "post vanilla generator: %zu bytes for %u sectors", b_proofs + b_incl + b_sib,
                         nv);
    out->arena = arena;
    out->arena_bytes = b_proofs + b_incl + b_sib + b_leaves;
    out->shape = *s;
    out->n = nv;
    out->proofs = (czk_post_sector_proof *)arena;
    czk_fc_merkle *incl = (czk_fc_merkle *)(arena + b_proofs);
    czk_fr *sibs = (czk_fr *)(arena + b_proofs + b_incl);
    uint64_t *all = (uint64_t *)(arena + b_proofs + b_incl + b_sib); /* the sectors' leaves */

    czk__fc_prf pk;
    post_key(&pk, seed, UINT32_MAX);
    czk_fr f;
    czk__fc_prf_fr(&f, &pk, POST_TAG_BYTES, 0, 0);
    czk_fr_to_bytes(out->randomness, &f);
    out->randomness[31] &= 0x3f;
    czk__fc_prf_fr(&f, &pk, POST_TAG_BYTES, 0, 1);
    czk_fr_to_bytes(out->prover_id, &f);

    /* sectors are independent: in parallel (2,349 at 32GiB) */
    int failed = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(| : failed)
    for (uint32_t k = 0; k < nv; k++) {
        czk_post_sector_proof *p = &out->proofs[k];
        p->sector_id = k;
        p->n_inclusion = c;
        p->inclusion = incl + (size_t)k * c;
        for (uint32_t j = 0; j < c; j++) p->inclusion[j].siblings = sibs + ((size_t)k * c + j) * sib;
        czk__fc_prf key;
        post_key(&key, seed, k);
        uint64_t *mine = all + (size_t)k * c;
        for (uint32_t j = 0; j < c; j++)
            mine[j] = leaves ? leaves[(size_t)k * c + j] : post_random_leaf(&key, j, s->tree.nodes);
        if (post_gen_sector(p, s, &key, mine) != CZK_OK) failed = 1;
    }
    if (failed) {
        czk_post_gen_vanilla_free(out);
        return czk_error(CZK_ERR_NOMEM, "post vanilla generator: out of memory building the sectors' trees");
    }
    return CZK_OK;
}

/* ---- a whole synthetic PoSt (czk gen-post) ---------------------------------------- */

/* n ascending sector ids (filecoin-proofs orders a WindowPoSt's replicas by
 * sector id): a pseudo-random start below 2^30, then steps of 1..16. */
static void post_gen_ids(uint64_t *ids, uint32_t n, const czk__fc_prf *pk)
{
    czk_fr f;
    uint8_t b[32];
    for (uint32_t i = 0; i < n; i++) {
        czk__fc_prf_fr(&f, pk, POST_TAG_BYTES, 1, i);
        czk_fr_to_bytes(b, &f);
        uint64_t x;
        memcpy(&x, b, 8);
        ids[i] = i == 0 ? x % (1u << 30) : ids[i - 1] + 1 + x % 16;
    }
}

czk_status czk_post_gen(czk_post_vanilla *v, czk_post_json *m, const czk_post_shape *s, uint32_t n,
                        uint32_t sector_set, uint64_t seed)
{
    return czk_post_gen_ex(v, m, s, n, sector_set, seed, NULL);
}

czk_status czk_post_gen_ex(czk_post_vanilla *v, czk_post_json *m, const czk_post_shape *s, uint32_t n,
                           uint32_t sector_set, uint64_t seed, const czk_post_gen_opts *o)
{
    memset(v, 0, sizeof *v);
    memset(m, 0, sizeof *m);
    if (!s) return czk_error(CZK_ERR_INVALID_ARG, "post generator: NULL shape");
    CZK_TRY(czk_post_proof_name(m->proof, s));
    const uint32_t nv = czk_post_vanilla_sectors(s), c = s->sector_challenges;
    const int win = s->kind == CZK_POST_WINNING;
    if (n < 1 || n > nv)
        return czk_error(CZK_ERR_INVALID_ARG, "post generator: %u sectors (a %s partition holds 1..%u)", n, m->proof,
                         nv);
    if (sector_set < 1 || (!win && sector_set != n))
        return czk_error(CZK_ERR_INVALID_ARG, "post generator: a sector set of %u for %u proven sectors%s", sector_set,
                         n, win ? "" : " (WindowPoSt proves every sector of its set)");
    m->shape = *s;
    czk__fc_prf pk;
    post_key(&pk, seed, UINT32_MAX);
    czk_fr f;
    czk__fc_prf_fr(&f, &pk, POST_TAG_BYTES, 0, 0);
    czk_fr_to_bytes(m->randomness, &f);
    m->randomness[31] &= 0x3f;
    if (o && o->randomness) {
        czk_fr chk;
        if (czk_fr_from_bytes(&chk, o->randomness) != CZK_OK)
            return czk_error(CZK_ERR_NOT_CANONICAL, "post generator: the randomness is not a canonical field element "
                                                    "(Curio clears the top two bits of byte 31)");
        memcpy(m->randomness, o->randomness, 32);
    }
    /* a miner id (1000 .. 2^32 + 999), and its prover id as Curio derives it */
    czk__fc_prf_fr(&f, &pk, POST_TAG_BYTES, 0, 1);
    uint8_t mb[32];
    czk_fr_to_bytes(mb, &f);
    m->miner_id = 1000 + (((uint64_t)mb[0] | (uint64_t)mb[1] << 8 | (uint64_t)mb[2] << 16 | (uint64_t)mb[3] << 24));
    if (o && o->has_miner_id) m->miner_id = o->miner_id;
    m->has_miner_id = 1;
    czk_fc_prover_id(m->prover_id, m->miner_id);

    czk_status st = CZK_OK;
    uint64_t *set = malloc((size_t)sector_set * sizeof *set);
    uint64_t *leaves = calloc((size_t)nv * c, sizeof *leaves);
    m->n_sectors = n;
    m->n_challenges = n * c;
    m->sector_ids = malloc((size_t)n * sizeof *m->sector_ids);
    m->comm_r = malloc((size_t)n * sizeof *m->comm_r);
    m->challenges = malloc((size_t)n * c * sizeof *m->challenges);
    if (!set || !leaves || !m->sector_ids || !m->comm_r || !m->challenges) {
        st = czk_error(CZK_ERR_NOMEM, "post generator: %u sectors", n);
        goto out;
    }
    post_gen_ids(set, sector_set, &pk);
    if (win) {
        /* WinningPoSt proves the one sector the randomness picks from the set */
        uint64_t pick;
        st = czk_post_winning_sectors(&pick, 1, m->randomness, m->prover_id, sector_set);
        if (st != CZK_OK) goto out;
        m->sector_ids[0] = set[pick];
    } else {
        memcpy(m->sector_ids, set, (size_t)n * sizeof *set);
    }
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < c; j++) {
            uint64_t ci = czk_post_challenge_index(s->api, i, c, j); /* partition 0: sector index = position */
            leaves[(size_t)i * c + j] = czk_post_leaf_challenge(m->randomness, m->sector_ids[i], ci, s->tree.nodes);
        }
    memcpy(m->challenges, leaves, (size_t)n * c * sizeof *leaves);
    st = czk_post_gen_vanilla(v, s, seed, leaves);
    if (st != CZK_OK) goto out;
    memcpy(v->randomness, m->randomness, 32);
    memcpy(v->prover_id, m->prover_id, 32);
    v->partition = 0;
    v->n = n;
    for (uint32_t i = 0; i < n; i++) {
        v->proofs[i].sector_id = m->sector_ids[i];
        czk_fr_to_bytes(m->comm_r[i], &v->proofs[i].comm_r);
    }
out:
    free(set);
    free(leaves);
    if (st != CZK_OK) {
        czk_post_gen_vanilla_free(v);
        czk_post_json_free(m);
    }
    return st;
}
