/* WindowPoSt / WinningPoSt vanilla proofs: the strict bincode reader and
 * writer of FallbackPoStSectorProof, the challenges, WinningPoSt's sector
 * choice and the native check. Layout: docs/formats.md "Vanilla proofs as
 * bincode"; challenges: docs/filecoin.md "FallbackPoSt"; notes in
 * src/filecoin/README.md ("Vanilla PoSt proofs"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/post_vanilla.h"
#include "czk/poseidon.h"
#include "czk/sha256.h"
#include "filecoin/bincode.h"
#include "filecoin/internal.h"

size_t czk_post_merkle_proof_bytes(const czk_fc_shape *tree)
{
    return czk__bc_merkle_bytes(tree);
}

size_t czk_post_sector_proof_bytes(const czk_fc_shape *tree, uint32_t n_inclusion)
{
    /* sector_id, comm_r, Vec<SectorProof> length, Vec<MerkleProof> length,
     * the proofs, comm_c, comm_r_last */
    return 8 + 32 + 8 + 8 + (size_t)n_inclusion * czk_post_merkle_proof_bytes(tree) + 32 + 32;
}

size_t czk_post_sector_proof_storage_size(const czk_fc_shape *tree, uint32_t n_inclusion)
{
    return (size_t)n_inclusion * (sizeof(czk_fc_merkle) + czk_fc_shape_tree_siblings(tree) * sizeof(czk_fr));
}

/* ---- reader ----------------------------------------------------------------- */

static int shape_ok(const czk_fc_shape *s)
{
    uint32_t lv = czk_fc_shape_tree_levels(s);
    if (lv < 1 || lv >= CZK_FC_MAX_LEVELS || s->nodes < 1) return 0;
    uint64_t cap = 1;
    for (uint32_t l = 0; l < lv; l++) {
        uint32_t a = czk_fc_shape_level_arity(s, l);
        if (a != 2 && a != 4 && a != 8) return 0;
        cap *= a;
    }
    return cap == s->nodes && (!s->top_arity || s->sub_arity);
}

czk_status czk_post_sector_proof_decode(czk_post_sector_proof *out, void *storage, size_t storage_size,
                                        const uint8_t *data, size_t len, const czk_fc_shape *tree,
                                        uint32_t n_inclusion, uint32_t position)
{
    if (!shape_ok(tree))
        return czk_error(CZK_ERR_INVALID_ARG, "czk_post_sector_proof_decode: tree shape out of range");
    if (storage_size < czk_post_sector_proof_storage_size(tree, n_inclusion) || ((uintptr_t)storage & 7))
        return czk_error(CZK_ERR_INVALID_ARG, "czk_post_sector_proof_decode: storage of %zu bytes, %zu needed",
                         storage_size, czk_post_sector_proof_storage_size(tree, n_inclusion));
    memset(out, 0, sizeof *out);
    czk__bc_reader r = {.s = {data, 0, data ? len : 0}};
    snprintf(r.who, sizeof r.who, "vanilla PoSt sector proof %u", position);
    czk__bc_field f = czk__bc_named("sector_id");
    CZK_TRY(czk__bc_u64(&out->sector_id, &r, &f));
    snprintf(r.who, sizeof r.who, "vanilla PoSt sector proof %u (sector %llu)", position,
             (unsigned long long)out->sector_id);
    f = czk__bc_named("comm_r");
    CZK_TRY(czk__bc_fr(&out->comm_r, &r, &f));
    f = czk__bc_named("vanilla_proof.sectors");
    CZK_TRY(czk__bc_len(&r, 1, &f));
    f = czk__bc_named("inclusion_proofs");
    CZK_TRY(czk__bc_len(&r, n_inclusion, &f));
    size_t t = czk_fc_shape_tree_siblings(tree);
    czk_fc_merkle *inc = storage;
    czk_fr *pool = (czk_fr *)(inc + n_inclusion);
    f.group = "inclusion proof";
    for (uint32_t k = 0; k < n_inclusion; k++) {
        inc[k].siblings = pool + (size_t)k * t;
        f.k = k;
        CZK_TRY(czk__bc_merkle(&inc[k], &r, tree, &f));
    }
    f = czk__bc_named("comm_c");
    CZK_TRY(czk__bc_fr(&out->comm_c, &r, &f));
    f = czk__bc_named("comm_r_last");
    CZK_TRY(czk__bc_fr(&out->comm_r_last, &r, &f));
    if (r.s.pos != r.s.end) {
        f = czk__bc_named("end of the proof");
        return czk__bc_err(CZK_ERR_FORMAT, &r, (size_t)r.s.pos, &f, "%zu trailing bytes", (size_t)czk__span_left(&r.s));
    }
    CZK_ASSERT(r.s.pos == czk_post_sector_proof_bytes(tree, n_inclusion));
    out->n_inclusion = n_inclusion;
    out->inclusion = inc;
    return CZK_OK;
}

/* ---- writer ------------------------------------------------------------------ */

czk_status czk_post_sector_proof_encode(uint8_t *out, size_t cap, size_t *len, const czk_post_sector_proof *p,
                                        const czk_fc_shape *tree)
{
    if (!shape_ok(tree)) return czk_error(CZK_ERR_INVALID_ARG, "czk_post_sector_proof_encode: tree shape out of range");
    size_t need = czk_post_sector_proof_bytes(tree, p->n_inclusion);
    if (cap < need)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_post_sector_proof_encode: %zu bytes of room, %zu needed", cap, need);
    for (uint32_t k = 0; k < p->n_inclusion; k++)
        if (p->inclusion[k].index >= tree->nodes)
            return czk_error(CZK_ERR_INVALID_ARG,
                             "czk_post_sector_proof_encode: sector %llu, inclusion proof %u: index %llu beyond the "
                             "tree's %llu leaves",
                             (unsigned long long)p->sector_id, k, (unsigned long long)p->inclusion[k].index,
                             (unsigned long long)tree->nodes);
    czk__bc_writer w = {out};
    czk__bc_put_u64(&w, p->sector_id);
    czk__bc_put_fr(&w, &p->comm_r);
    czk__bc_put_u64(&w, 1);
    czk__bc_put_u64(&w, p->n_inclusion);
    for (uint32_t k = 0; k < p->n_inclusion; k++) czk__bc_put_merkle(&w, &p->inclusion[k], tree);
    czk__bc_put_fr(&w, &p->comm_c);
    czk__bc_put_fr(&w, &p->comm_r_last);
    CZK_ASSERT((size_t)(w.p - out) == need);
    *len = need;
    return CZK_OK;
}

/* ---- a partition's proofs ------------------------------------------------- */

void czk_post_vanilla_free(czk_post_vanilla *v)
{
    if (!v) return;
    free(v->arena);
    memset(v, 0, sizeof *v);
}

czk_status czk_post_vanilla_read(czk_post_vanilla *v, const czk_post_shape *s, const uint8_t *const *proofs,
                                 const size_t *lens, uint32_t n, const uint8_t randomness[32],
                                 const uint8_t prover_id[32], uint32_t partition)
{
    memset(v, 0, sizeof *v);
    const czk_fc_shape *tree = &s->tree;
    if (!shape_ok(tree) || s->sector_challenges < 1 || s->challenges < 1 || s->sectors < 1)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_post_vanilla_read: shape out of range");
    uint64_t slots = (uint64_t)s->sectors * s->challenges;
    if (n < 1 || (uint64_t)n * s->sector_challenges > slots)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "vanilla PoSt: %u sector proofs of %u challenges do not fit a %s partition of %u sectors of "
                         "%u challenges",
                         n, s->sector_challenges, s->kind == CZK_POST_WINNING ? "WinningPoSt" : "WindowPoSt",
                         s->sectors, s->challenges);
    czk_fr t;
    if (czk_fr_from_bytes(&t, randomness) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "vanilla PoSt: randomness is not a field element (>= r)");
    if (czk_fr_from_bytes(&t, prover_id) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "vanilla PoSt: prover_id is not a field element (>= r)");
    size_t per = czk_post_sector_proof_storage_size(tree, s->sector_challenges);
    size_t head = (size_t)n * sizeof(czk_post_sector_proof);
    head = (head + 7) & ~(size_t)7;
    size_t total = head + (size_t)n * per;
    uint8_t *arena = malloc(total);
    if (!arena) return czk_error(CZK_ERR_NOMEM, "vanilla PoSt: %zu bytes for %u sector proofs", total, n);
    czk_post_sector_proof *ps = (czk_post_sector_proof *)arena;
    for (uint32_t i = 0; i < n; i++) {
        czk_status st = czk_post_sector_proof_decode(&ps[i], arena + head + (size_t)i * per, per, proofs[i], lens[i],
                                                     tree, s->sector_challenges, i);
        if (st != CZK_OK) {
            free(arena);
            return st;
        }
    }
    v->shape = *s;
    memcpy(v->randomness, randomness, 32);
    memcpy(v->prover_id, prover_id, 32);
    v->partition = partition;
    v->n = n;
    v->proofs = ps;
    v->arena = arena;
    v->arena_bytes = total;
    return CZK_OK;
}

/* ---- challenges ------------------------------------------------------------ */

uint64_t czk_post_challenge_index(czk_post_api api, uint64_t sector_index, uint32_t challenge_count, uint32_t n)
{
    /* V1_0_0 / V1_1_0: sector_index * challenge_count + n; V1_2_0: n */
    return api == CZK_POST_API_V1_2 ? n : sector_index * challenge_count + n;
}

static void put_le64(uint8_t out[8], uint64_t v)
{
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(v >> (8 * i));
}

uint64_t czk_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                 uint64_t nodes)
{
    /* LE_u64(SHA-256(randomness || sector_id LE || challenge_index LE)[0..8]) mod nodes */
    uint8_t buf[48], h[32];
    memcpy(buf, randomness, 32);
    put_le64(buf + 32, sector_id);
    put_le64(buf + 40, challenge_index);
    czk_sha256(h, buf, sizeof buf);
    CZK_ASSERT(nodes >= 1);
    return czk__rd64(h) % nodes;
}

/* Sector proofs per partition: a Window partition's circuit sectors, one for
 * Winning (its 66 circuit sectors are one sector's 66 challenges). */
static uint64_t vanilla_sectors_per_partition(const czk_post_shape *s)
{
    return (uint64_t)s->sectors * s->challenges / s->sector_challenges;
}

uint64_t czk_post_vanilla_challenge(const czk_post_vanilla *v, uint32_t i, uint32_t n)
{
    const czk_post_shape *s = &v->shape;
    uint64_t sector_index = (uint64_t)v->partition * vanilla_sectors_per_partition(s) + i;
    uint64_t ci = czk_post_challenge_index(s->api, sector_index, s->sector_challenges, n);
    return czk_post_leaf_challenge(v->randomness, v->proofs[i].sector_id, ci, s->tree.nodes);
}

czk_status czk_post_winning_sectors(uint64_t *out, uint32_t count, const uint8_t randomness[32],
                                    const uint8_t prover_id[32], uint64_t sector_set_len)
{
    if (sector_set_len == 0) return czk_error(CZK_ERR_INVALID_ARG, "WinningPoSt sector choice: empty sector set");
    czk_fr t;
    if (czk_fr_from_bytes(&t, randomness) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "WinningPoSt sector choice: randomness is not a field element (>= r)");
    if (czk_fr_from_bytes(&t, prover_id) != CZK_OK)
        return czk_error(CZK_ERR_NOT_CANONICAL, "WinningPoSt sector choice: prover_id is not a field element (>= r)");
    uint8_t buf[72], h[32];
    memcpy(buf, prover_id, 32);
    memcpy(buf + 32, randomness, 32);
    for (uint32_t k = 0; k < count; k++) {
        /* LE_u64(SHA-256(prover_id || randomness || k LE)[0..8]) mod sector_set_len */
        put_le64(buf + 64, k);
        czk_sha256(h, buf, sizeof buf);
        out[k] = czk__rd64(h) % sector_set_len;
    }
    return CZK_OK;
}

/* Sector proof i of v, as czk_post_vanilla_check describes. */
static czk_status check_sector(const czk_post_vanilla *v, uint32_t i)
{
    const czk_fc_shape *tree = &v->shape.tree;
    {
        const czk_post_sector_proof *p = &v->proofs[i];
        char who[64];
        snprintf(who, sizeof who, "vanilla PoSt sector proof %u (sector %llu)", i, (unsigned long long)p->sector_id);
        czk_fr t;
        czk_poseidon_hash2(&t, &p->comm_c, &p->comm_r_last);
        if (!czk_fr_eq(&t, &p->comm_r))
            return czk_error(CZK_ERR_VERIFY, "%s: comm_r != Poseidon2(comm_c, comm_r_last)", who);
        for (uint32_t k = 0; k < p->n_inclusion; k++) {
            const czk_fc_merkle *m = &p->inclusion[k];
            uint64_t want = czk_post_vanilla_challenge(v, i, k);
            if (m->index != want)
                return czk_error(CZK_ERR_VERIFY, "%s: challenge %u: proves leaf %llu, the challenge is leaf %llu", who,
                                 k, (unsigned long long)m->index, (unsigned long long)want);
            if (!czk_fr_eq(&m->root, &p->comm_r_last))
                return czk_error(CZK_ERR_VERIFY, "%s: challenge %u (leaf %llu): root differs from comm_r_last", who, k,
                                 (unsigned long long)want);
            czk_fr r;
            czk_status st = czk_fc_merkle_root(&r, tree, 0, m);
            if (st != CZK_OK)
                return czk_error_context(st, "%s: challenge %u (leaf %llu)", who, k, (unsigned long long)want);
            if (!czk_fr_eq(&r, &m->root))
                return czk_error(CZK_ERR_VERIFY, "%s: challenge %u (leaf %llu): path does not hash to comm_r_last", who,
                                 k, (unsigned long long)want);
        }
    }
    return CZK_OK;
}

czk_status czk_post_vanilla_check(const czk_post_vanilla *v)
{
    /* sectors in parallel (a 32GiB partition: 23,490 paths); the first bad
     * sector is checked again on this thread, whose error message counts */
    uint32_t first_bad = UINT32_MAX;
#pragma omp parallel for schedule(dynamic, 8) reduction(min : first_bad)
    for (uint32_t i = 0; i < v->n; i++)
        if (i < first_bad && check_sector(v, i) != CZK_OK) first_bad = i;
    return first_bad == UINT32_MAX ? CZK_OK : check_sector(v, first_bad);
}
