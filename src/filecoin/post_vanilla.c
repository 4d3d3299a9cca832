/* WindowPoSt / WinningPoSt vanilla proofs: the strict bincode reader and
 * writer of FallbackPoStSectorProof, the challenges, WinningPoSt's sector
 * choice and the native check. Layout: docs/formats.md "Vanilla proofs as
 * bincode"; challenges: docs/filecoin.md "FallbackPoSt"; notes in
 * src/filecoin/README.md ("Vanilla PoSt proofs"). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/post_vanilla.h"
#include "czk/poseidon.h"
#include "czk/sha256.h"
#include "filecoin/internal.h"

enum { VARIANT_SINGLE = 0, VARIANT_SUB = 1, VARIANT_TOP = 2 };

static const char *const VARIANT_NAME[3] = {"Single", "Sub", "Top"};

static uint32_t shape_variant(const czk_fc_shape *s)
{
    return !s->sub_arity ? VARIANT_SINGLE : !s->top_arity ? VARIANT_SUB : VARIANT_TOP;
}

/* Bytes of one path of levels first .. first + nlev - 1: the Vec length, then
 * per element the hashes' Vec length, arity - 1 values and the index. */
static size_t path_bytes(const czk_fc_shape *s, uint32_t first, uint32_t nlev)
{
    size_t b = 8;
    for (uint32_t l = first; l < first + nlev; l++) b += 8 + 32 * (size_t)(czk_fc_shape_level_arity(s, l) - 1) + 8;
    return b;
}

/* The paths of a proof of shape s: (first level, levels) of each part. */
static uint32_t shape_parts(const czk_fc_shape *s, uint32_t first[3], uint32_t nlev[3])
{
    uint32_t v = shape_variant(s);
    if (v == VARIANT_SINGLE) {
        first[0] = 0, nlev[0] = czk_fc_shape_tree_levels(s);
        return 1;
    }
    first[0] = 0, nlev[0] = s->base_height;
    first[1] = s->base_height, nlev[1] = 1;
    first[2] = s->base_height + 1, nlev[2] = 1;
    return v == VARIANT_SUB ? 2 : 3;
}

size_t czk_post_merkle_proof_bytes(const czk_fc_shape *tree)
{
    uint32_t first[3], nlev[3], np = shape_parts(tree, first, nlev);
    size_t b = 4 + 32 + 32;
    for (uint32_t i = 0; i < np; i++) b += path_bytes(tree, first[i], nlev[i]);
    return b;
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

typedef struct rd {
    const uint8_t *d;
    size_t n, off;
    uint32_t position;
    int has_id;
    uint64_t id;
} rd;

/* A field's name, spelled out only for an error message: `name` alone (k <
 * 0), or within inclusion proof k: "inclusion proof k, <part><name>" (l < 0),
 * "inclusion proof k, <part>path element l, <name>" or "...<name>[j]". */
typedef struct fld {
    const char *name;
    int64_t k;
    const char *part; /* "", "base ", "sub ", "top " */
    int64_t l, j;
} fld;

static fld top_field(const char *name) { return (fld){name, -1, "", -1, -1}; }

static void fld_str(char *out, size_t cap, const fld *f)
{
    long long k = f->k, l = f->l, j = f->j;
    if (k < 0) snprintf(out, cap, "%s", f->name);
    else if (l < 0) snprintf(out, cap, "inclusion proof %lld, %s%s", k, f->part, f->name);
    else if (j < 0) snprintf(out, cap, "inclusion proof %lld, %spath element %lld, %s", k, f->part, l, f->name);
    else snprintf(out, cap, "inclusion proof %lld, %spath element %lld, %s[%lld]", k, f->part, l, f->name, j);
}

static czk_status CZK_PRINTF(5, 6) rd_err(czk_status st, const rd *r, size_t at, const fld *f, const char *fmt, ...)
{
    char msg[256], who[64], field[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->has_id)
        snprintf(who, sizeof who, "sector proof %u (sector %llu)", r->position, (unsigned long long)r->id);
    else
        snprintf(who, sizeof who, "sector proof %u", r->position);
    fld_str(field, sizeof field, f);
    return czk_error(st, "vanilla PoSt %s: %s: %s (byte offset %zu)", who, field, msg, at);
}

static czk_status rd_need(const rd *r, size_t k, const fld *f)
{
    if (r->n - r->off < k)
        return rd_err(CZK_ERR_FORMAT, r, r->off, f, "input ends after %zu bytes, %zu more needed", r->n,
                      k - (r->n - r->off));
    return CZK_OK;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static czk_status rd_u64(uint64_t *v, rd *r, const fld *f)
{
    CZK_TRY(rd_need(r, 8, f));
    *v = le64(r->d + r->off);
    r->off += 8;
    return CZK_OK;
}

static czk_status rd_u32(uint32_t *v, rd *r, const fld *f)
{
    CZK_TRY(rd_need(r, 4, f));
    const uint8_t *p = r->d + r->off;
    *v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    r->off += 4;
    return CZK_OK;
}

static czk_status rd_fr(czk_fr *v, rd *r, const fld *f)
{
    CZK_TRY(rd_need(r, 32, f));
    if (czk_fr_from_bytes(v, r->d + r->off) != CZK_OK)
        return rd_err(CZK_ERR_NOT_CANONICAL, r, r->off, f, "32-byte value is not a field element (>= r)");
    r->off += 32;
    return CZK_OK;
}

/* A Vec's u64 length, which must be `want`. */
static czk_status rd_len(rd *r, uint64_t want, const fld *f)
{
    size_t at = r->off;
    uint64_t n;
    CZK_TRY(rd_u64(&n, r, f));
    if (n != want)
        return rd_err(CZK_ERR_FORMAT, r, at, f, "expected %llu elements, found %llu", (unsigned long long)want,
                      (unsigned long long)n);
    return CZK_OK;
}

/* One path (levels first .. first + nlev - 1) of inclusion proof k; `part`
 * names it ("", "base ", "sub ", "top "). Adds the element indices to
 * m->index in the mixed radix (*mul: the weight of level `first`). */
static czk_status rd_path(czk_fc_merkle *m, czk_fr **sib, uint64_t *mul, rd *r, const czk_fc_shape *s,
                          uint32_t first, uint32_t nlev, uint32_t k, const char *part)
{
    fld f = {"path", k, part, -1, -1};
    CZK_TRY(rd_len(r, nlev, &f));
    for (uint32_t l = 0; l < nlev; l++) {
        uint32_t ar = czk_fc_shape_level_arity(s, first + l);
        f = (fld){"hashes", k, part, l, -1};
        CZK_TRY(rd_len(r, ar - 1, &f));
        for (uint32_t j = 0; j < ar - 1; j++) {
            f.j = j;
            CZK_TRY(rd_fr(&(*sib)[j], r, &f));
        }
        *sib += ar - 1;
        f = (fld){"index", k, part, l, -1};
        size_t at = r->off;
        uint64_t d;
        CZK_TRY(rd_u64(&d, r, &f));
        if (d >= ar)
            return rd_err(CZK_ERR_FORMAT, r, at, &f, "%llu out of range 0..%u (the level's arity is %u)",
                          (unsigned long long)d, ar - 1, ar);
        m->index += d * *mul;
        *mul *= ar;
    }
    return CZK_OK;
}

static czk_status rd_merkle(czk_fc_merkle *m, rd *r, const czk_fc_shape *s, uint32_t k)
{
    static const char *const PART[3] = {"base ", "sub ", "top "};
    uint32_t want = shape_variant(s), v, first[3], nlev[3], np = shape_parts(s, first, nlev);
    fld fv = {"variant", k, "", -1, -1}, froot = {"root", k, "", -1, -1}, fleaf = {"leaf", k, "", -1, -1};
    size_t at = r->off;
    CZK_TRY(rd_u32(&v, r, &fv));
    if (v != want)
        return rd_err(CZK_ERR_FORMAT, r, at, &fv, "expected %u (%s, the tree's shape), found %u%s%s%s", want,
                      VARIANT_NAME[want], v, v <= 2 ? " (" : " (no such variant", v <= 2 ? VARIANT_NAME[v] : "",
                      ")");
    m->index = 0;
    uint64_t mul = 1;
    czk_fr *sib = m->siblings;
    if (want == VARIANT_SINGLE) {
        CZK_TRY(rd_fr(&m->root, r, &froot));
        CZK_TRY(rd_fr(&m->leaf, r, &fleaf));
        CZK_TRY(rd_path(m, &sib, &mul, r, s, first[0], nlev[0], k, ""));
    } else {
        for (uint32_t i = 0; i < np; i++) CZK_TRY(rd_path(m, &sib, &mul, r, s, first[i], nlev[i], k, PART[i]));
        CZK_TRY(rd_fr(&m->root, r, &froot));
        CZK_TRY(rd_fr(&m->leaf, r, &fleaf));
    }
    CZK_ASSERT(sib == m->siblings + czk_fc_shape_tree_siblings(s));
    return CZK_OK;
}

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
    rd r = {.d = data, .n = data ? len : 0, .position = position};
    fld f = top_field("sector_id");
    CZK_TRY(rd_u64(&out->sector_id, &r, &f));
    r.has_id = 1;
    r.id = out->sector_id;
    f = top_field("comm_r");
    CZK_TRY(rd_fr(&out->comm_r, &r, &f));
    f = top_field("vanilla_proof.sectors");
    CZK_TRY(rd_len(&r, 1, &f));
    f = top_field("inclusion_proofs");
    CZK_TRY(rd_len(&r, n_inclusion, &f));
    size_t t = czk_fc_shape_tree_siblings(tree);
    czk_fc_merkle *inc = storage;
    czk_fr *pool = (czk_fr *)(inc + n_inclusion);
    for (uint32_t k = 0; k < n_inclusion; k++) {
        inc[k].siblings = pool + (size_t)k * t;
        CZK_TRY(rd_merkle(&inc[k], &r, tree, k));
    }
    f = top_field("comm_c");
    CZK_TRY(rd_fr(&out->comm_c, &r, &f));
    f = top_field("comm_r_last");
    CZK_TRY(rd_fr(&out->comm_r_last, &r, &f));
    if (r.off != r.n) {
        f = top_field("end of the proof");
        return rd_err(CZK_ERR_FORMAT, &r, r.off, &f, "%zu trailing bytes", r.n - r.off);
    }
    CZK_ASSERT(r.off == czk_post_sector_proof_bytes(tree, n_inclusion));
    out->n_inclusion = n_inclusion;
    out->inclusion = inc;
    return CZK_OK;
}

/* ---- writer ------------------------------------------------------------------ */

typedef struct wr {
    uint8_t *p;
} wr;

static void put_u64(wr *w, uint64_t v)
{
    for (int i = 0; i < 8; i++) *w->p++ = (uint8_t)(v >> (8 * i));
}

static void put_u32(wr *w, uint32_t v)
{
    for (int i = 0; i < 4; i++) *w->p++ = (uint8_t)(v >> (8 * i));
}

static void put_fr(wr *w, const czk_fr *v)
{
    czk_fr_to_bytes(w->p, v);
    w->p += 32;
}

static void put_path(wr *w, const czk_fr **sib, uint64_t *idx, const czk_fc_shape *s, uint32_t first, uint32_t nlev)
{
    put_u64(w, nlev);
    for (uint32_t l = first; l < first + nlev; l++) {
        uint32_t ar = czk_fc_shape_level_arity(s, l);
        put_u64(w, ar - 1);
        for (uint32_t j = 0; j < ar - 1; j++) put_fr(w, &(*sib)[j]);
        *sib += ar - 1;
        put_u64(w, *idx % ar);
        *idx /= ar;
    }
}

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
    wr w = {out};
    uint32_t v = shape_variant(tree), first[3], nlev[3], np = shape_parts(tree, first, nlev);
    put_u64(&w, p->sector_id);
    put_fr(&w, &p->comm_r);
    put_u64(&w, 1);
    put_u64(&w, p->n_inclusion);
    for (uint32_t k = 0; k < p->n_inclusion; k++) {
        const czk_fc_merkle *m = &p->inclusion[k];
        const czk_fr *sib = m->siblings;
        uint64_t idx = m->index;
        put_u32(&w, v);
        if (v == VARIANT_SINGLE) {
            put_fr(&w, &m->root);
            put_fr(&w, &m->leaf);
            put_path(&w, &sib, &idx, tree, first[0], nlev[0]);
        } else {
            for (uint32_t i = 0; i < np; i++) put_path(&w, &sib, &idx, tree, first[i], nlev[i]);
            put_fr(&w, &m->root);
            put_fr(&w, &m->leaf);
        }
    }
    put_fr(&w, &p->comm_c);
    put_fr(&w, &p->comm_r_last);
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
    return le64(h) % nodes;
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
        out[k] = le64(h) % sector_set_len;
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
