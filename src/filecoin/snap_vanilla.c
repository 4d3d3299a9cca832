/* SnapDeals vanilla proofs (czk/snap.h): the strict bincode reader and
 * writer of PartitionProof, an update's proofs as one arena, and the native
 * check of a partition against the challenges its commitments derive.
 * Layout: docs/formats.md "Vanilla proofs as bincode"; checks:
 * docs/filecoin.md "SnapDeals". */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/poseidon.h"
#include "czk/snap.h"
#include "filecoin/bincode.h"
#include "filecoin/internal.h"

/* Tree D of s as a czk_fc_shape (binary, challenge_bits levels): its
 * d_height drives czk_fc_merkle_root's tree D mode, base_* the sizes here. */
static czk_fc_shape tree_d_of(const czk_snap_shape *s)
{
    czk_fc_shape d;
    memset(&d, 0, sizeof d);
    d.nodes = s->tree.nodes;
    d.base_arity = 2;
    d.base_height = s->challenge_bits;
    d.d_height = s->challenge_bits;
    return d;
}

size_t czk_snap_tree_r_proof_bytes(const czk_snap_shape *s)
{
    return czk__bc_merkle_bytes(&s->tree);
}

size_t czk_snap_tree_d_proof_bytes(const czk_snap_shape *s)
{
    czk_fc_shape d = tree_d_of(s);
    return czk__bc_merkle_bytes(&d);
}

size_t czk_snap_partition_proof_bytes(const czk_snap_shape *s)
{
    /* comm_c, Vec<apex leaf>, Vec<ChallengeProof {r_old, d_new, r_new}> */
    return 32 + 8 + 32 * (size_t)s->apex_leaves + 8 +
           (size_t)s->challenges * (2 * czk_snap_tree_r_proof_bytes(s) + czk_snap_tree_d_proof_bytes(s));
}

/* siblings of one challenge: two tree R paths and one tree D path */
static size_t challenge_siblings(const czk_snap_shape *s)
{
    return 2 * (size_t)czk_fc_shape_tree_siblings(&s->tree) + s->challenge_bits;
}

size_t czk_snap_partition_storage_size(const czk_snap_shape *s)
{
    return (size_t)s->apex_leaves * sizeof(czk_fr) +
           (size_t)s->challenges * (sizeof(czk_snap_challenge_proof) + challenge_siblings(s) * sizeof(czk_fr));
}

void czk__snap_partition_layout(czk_snap_partition *p, void *storage, const czk_snap_shape *s)
{
    czk_fr *leaves = storage;
    czk_snap_challenge_proof *cps = (czk_snap_challenge_proof *)(leaves + s->apex_leaves);
    czk_fr *pool = (czk_fr *)(cps + s->challenges);
    const size_t sr = czk_fc_shape_tree_siblings(&s->tree);
    for (uint32_t c = 0; c < s->challenges; c++) {
        czk_fr *sib = pool + (size_t)c * challenge_siblings(s);
        cps[c].r_old.siblings = sib;
        cps[c].d_new.siblings = sib + sr;
        cps[c].r_new.siblings = sib + sr + s->challenge_bits;
    }
    p->apex_leaves = leaves;
    p->proofs = cps;
}

/* ---- reader --------------------------------------------------------------------- */

static int shape_ok(const czk_snap_shape *s)
{
    const czk_fc_shape *t = &s->tree;
    uint32_t lv = czk_fc_shape_tree_levels(t);
    if (lv < 1 || lv >= CZK_FC_MAX_LEVELS || s->challenge_bits < 1 || s->challenge_bits >= CZK_FC_MAX_LEVELS ||
        s->challenges < 1 || s->apex_leaves < 1 || s->partitions < 1)
        return 0;
    uint64_t cap = 1;
    for (uint32_t l = 0; l < lv; l++) {
        uint32_t a = czk_fc_shape_level_arity(t, l);
        if (a != 2 && a != 4 && a != 8) return 0;
        cap *= a;
    }
    return cap == t->nodes && t->nodes == 1ULL << s->challenge_bits;
}

czk_status czk_snap_partition_decode(czk_snap_partition *out, void *storage, size_t storage_size,
                                     const uint8_t *data, size_t len, const czk_snap_shape *s, uint32_t k)
{
    if (!shape_ok(s)) return czk_error(CZK_ERR_INVALID_ARG, "czk_snap_partition_decode: shape out of range");
    if (storage_size < czk_snap_partition_storage_size(s) || ((uintptr_t)storage & 7))
        return czk_error(CZK_ERR_INVALID_ARG, "czk_snap_partition_decode: storage of %zu bytes, %zu needed",
                         storage_size, czk_snap_partition_storage_size(s));
    memset(out, 0, sizeof *out);
    const czk_fc_shape td = tree_d_of(s);
    czk__bc_reader r = {.s = {data, 0, data ? len : 0}};
    snprintf(r.who, sizeof r.who, "snap partition proof %u", k);
    czk_snap_partition lay;
    czk__snap_partition_layout(&lay, storage, s);
    czk_fr *leaves = lay.apex_leaves;
    czk_snap_challenge_proof *cps = lay.proofs;
    czk__bc_field f = czk__bc_named("comm_c");
    CZK_TRY(czk__bc_fr(&out->comm_c, &r, &f));
    f = czk__bc_named("apex_leafs");
    CZK_TRY(czk__bc_len(&r, s->apex_leaves, &f));
    for (uint32_t i = 0; i < s->apex_leaves; i++) {
        f.j = i;
        CZK_TRY(czk__bc_fr(&leaves[i], &r, &f));
    }
    f = czk__bc_named("challenge_proofs");
    CZK_TRY(czk__bc_len(&r, s->challenges, &f));
    f.group = "challenge";
    for (uint32_t c = 0; c < s->challenges; c++) {
        czk_snap_challenge_proof *cp = &cps[c];
        f.k = c;
        f.proof = "proof_r_old";
        CZK_TRY(czk__bc_merkle(&cp->r_old, &r, &s->tree, &f));
        f.proof = "proof_d_new";
        CZK_TRY(czk__bc_merkle(&cp->d_new, &r, &td, &f));
        f.proof = "proof_r_new";
        CZK_TRY(czk__bc_merkle(&cp->r_new, &r, &s->tree, &f));
    }
    if (r.s.pos != r.s.end)
        return czk__bc_err(CZK_ERR_FORMAT, &r, (size_t)r.s.pos, NULL, "%zu trailing bytes after the proof", (size_t)czk__span_left(&r.s));
    CZK_ASSERT(r.s.pos == czk_snap_partition_proof_bytes(s));
    out->apex_leaves = leaves;
    out->proofs = cps;
    return CZK_OK;
}

/* ---- writer --------------------------------------------------------------------- */

czk_status czk_snap_partition_encode(uint8_t *out, size_t cap, size_t *len, const czk_snap_partition *p,
                                     const czk_snap_shape *s)
{
    if (!shape_ok(s)) return czk_error(CZK_ERR_INVALID_ARG, "czk_snap_partition_encode: shape out of range");
    size_t need = czk_snap_partition_proof_bytes(s);
    if (cap < need)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_snap_partition_encode: %zu bytes of room, %zu needed", cap, need);
    for (uint32_t c = 0; c < s->challenges; c++) {
        const czk_snap_challenge_proof *cp = &p->proofs[c];
        if (cp->r_old.index >= s->tree.nodes || cp->d_new.index >= s->tree.nodes || cp->r_new.index >= s->tree.nodes)
            return czk_error(CZK_ERR_INVALID_ARG, "czk_snap_partition_encode: challenge %u: an index beyond the %llu "
                                                  "nodes",
                             c, (unsigned long long)s->tree.nodes);
    }
    const czk_fc_shape td = tree_d_of(s);
    czk__bc_writer w = {out};
    czk__bc_put_fr(&w, &p->comm_c);
    czk__bc_put_u64(&w, s->apex_leaves);
    for (uint32_t i = 0; i < s->apex_leaves; i++) czk__bc_put_fr(&w, &p->apex_leaves[i]);
    czk__bc_put_u64(&w, s->challenges);
    for (uint32_t c = 0; c < s->challenges; c++) {
        czk__bc_put_merkle(&w, &p->proofs[c].r_old, &s->tree);
        czk__bc_put_merkle(&w, &p->proofs[c].d_new, &td);
        czk__bc_put_merkle(&w, &p->proofs[c].r_new, &s->tree);
    }
    CZK_ASSERT((size_t)(w.p - out) == need);
    *len = need;
    return CZK_OK;
}

/* ---- an update's proofs ------------------------------------------------------------ */

void czk_snap_vanilla_free(czk_snap_vanilla *v)
{
    if (!v) return;
    free(v->arena);
    memset(v, 0, sizeof *v);
}

czk_status czk_snap_vanilla_read(czk_snap_vanilla *v, const czk_snap_shape *s, const uint8_t *const *proofs,
                                 const size_t *lens, uint32_t n, const uint8_t comm_r_old[32],
                                 const uint8_t comm_d_new[32], const uint8_t comm_r_new[32])
{
    memset(v, 0, sizeof *v);
    if (!shape_ok(s)) return czk_error(CZK_ERR_INVALID_ARG, "czk_snap_vanilla_read: shape out of range");
    if (n != s->partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals: %u partition proofs, a %s update has %u", n,
                         czk_snap_proof_name(s->update_proof), s->partitions);
    czk_fr cro, cdn, crn;
    const struct {
        const char *name;
        const uint8_t *b;
        czk_fr *out;
    } comms[3] = {{"comm_r_old", comm_r_old, &cro}, {"comm_d_new", comm_d_new, &cdn}, {"comm_r_new", comm_r_new, &crn}};
    for (int i = 0; i < 3; i++)
        if (czk_fr_from_bytes(comms[i].out, comms[i].b) != CZK_OK)
            return czk_error(CZK_ERR_NOT_CANONICAL, "SnapDeals: %s is not a field element (>= r)", comms[i].name);
    const size_t per = czk_snap_partition_storage_size(s);
    size_t head = ((size_t)n * sizeof(czk_snap_partition) + 7) & ~(size_t)7;
    size_t total = head + (size_t)n * per;
    uint8_t *arena = malloc(total);
    if (!arena) return czk_error(CZK_ERR_NOMEM, "SnapDeals: %zu bytes for %u partition proofs", total, n);
    czk_snap_partition *parts = (czk_snap_partition *)arena;
    for (uint32_t k = 0; k < n; k++) {
        czk_status st =
            czk_snap_partition_decode(&parts[k], arena + head + (size_t)k * per, per, proofs[k], lens[k], s, k);
        if (st != CZK_OK) {
            free(arena);
            return st;
        }
    }
    v->shape = *s;
    v->comm_r_old = cro;
    v->comm_d_new = cdn;
    v->comm_r_new = crn;
    v->h = s->h;
    v->n = n;
    v->parts = parts;
    v->arena = arena;
    v->arena_bytes = total;
    return CZK_OK;
}

/* ---- native check ------------------------------------------------------------------ */

static czk_status CZK_PRINTF(4, 5) verr(uint32_t k, uint32_t c, uint64_t node, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c == UINT32_MAX) return czk_error(CZK_ERR_VERIFY, "SnapDeals partition %u: %s", k, msg);
    return czk_error(CZK_ERR_VERIFY, "SnapDeals partition %u challenge %u (node %llu): %s", k, c,
                     (unsigned long long)node, msg);
}

/* A Merkle proof of tree t (tree D: is_d) against its index and root. */
static czk_status check_path(const czk_fc_merkle *m, const czk_fc_shape *t, int is_d, uint64_t node,
                             const czk_fr *root, uint32_t k, uint32_t c, const char *what)
{
    if (m->index != node) return verr(k, c, node, "%s proves node %llu", what, (unsigned long long)m->index);
    if (!czk_fr_eq(&m->root, root))
        return verr(k, c, node, "%s: its root is not %s", what, is_d ? "comm_d_new" : "challenge 0's root");
    czk_fr r;
    czk_status st = czk_fc_merkle_root(&r, t, is_d, m);
    if (st != CZK_OK) return czk_error_context(st, "SnapDeals partition %u challenge %u, %s", k, c, what);
    if (!czk_fr_eq(&r, root)) return verr(k, c, node, "%s: the path does not hash to its root", what);
    return CZK_OK;
}

czk_status czk_snap_partition_check(const czk_snap_vanilla *v, uint32_t k)
{
    const czk_snap_shape *s = &v->shape;
    if (k >= v->n || !v->parts) return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals: no partition %u (%u)", k, v->n);
    const czk_snap_partition *p = &v->parts[k];
    const czk_fc_shape td = tree_d_of(s);
    const czk_fr *root_old = &p->proofs[0].r_old.root, *root_new = &p->proofs[0].r_new.root;
    czk_fr t, phi;
    czk_poseidon_hash2(&t, &p->comm_c, root_old);
    if (!czk_fr_eq(&t, &v->comm_r_old)) return verr(k, UINT32_MAX, 0, "comm_r_old != Poseidon2(comm_c, root_r_old)");
    czk_poseidon_hash2(&t, &p->comm_c, root_new);
    if (!czk_fr_eq(&t, &v->comm_r_new)) return verr(k, UINT32_MAX, 0, "comm_r_new != Poseidon2(comm_c, root_r_new)");
    uint64_t hsel;
    CZK_TRY(czk_snap_h_select(&hsel, s, v->h));
    czk_snap_phi(&phi, &v->comm_d_new, &v->comm_r_old);

    /* the apex tree, then the partition path (challenge 0's) to comm_d_new */
    const uint32_t B = s->challenge_bits, to_apex = B - s->partition_bits - s->apex_bits;
    const uint32_t top = B - s->partition_bits;
    czk_fr row[256], cur;
    if (s->apex_leaves > 256) return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals: %u apex leaves", s->apex_leaves);
    memcpy(row, p->apex_leaves, s->apex_leaves * sizeof(czk_fr));
    for (uint32_t w = s->apex_leaves; w > 1; w /= 2)
        for (uint32_t i = 0; i < w / 2; i++) czk_fc_sha_node(&row[i], &row[2 * i], &row[2 * i + 1]);
    cur = row[0];
    for (uint32_t i = 0; i < s->partition_bits; i++) {
        const czk_fr *sib = &p->proofs[0].d_new.siblings[top + i];
        if ((k >> i) & 1) czk_fc_sha_node(&cur, sib, &cur);
        else czk_fc_sha_node(&cur, &cur, sib);
    }
    if (!czk_fr_eq(&cur, &v->comm_d_new))
        return verr(k, UINT32_MAX, 0, "the apex leaves and the partition path do not hash to comm_d_new");

    uint64_t *ch = malloc((size_t)s->challenges * sizeof *ch);
    if (!ch) return czk_error(CZK_ERR_NOMEM, "SnapDeals challenges");
    czk_status st = czk_snap_challenges(ch, s, &v->comm_r_new, k);
    for (uint32_t c = 0; c < s->challenges && st == CZK_OK; c++) {
        const czk_snap_challenge_proof *cp = &p->proofs[c];
        const uint64_t node = ch[c];
        st = check_path(&cp->r_old, &s->tree, 0, node, root_old, k, c, "proof_r_old");
        if (st == CZK_OK) st = check_path(&cp->d_new, &td, 1, node, &v->comm_d_new, k, c, "proof_d_new");
        if (st == CZK_OK) st = check_path(&cp->r_new, &s->tree, 0, node, root_new, k, c, "proof_r_new");
        if (st != CZK_OK) break;
        /* leaf_r_new = leaf_r_old + leaf_d_new * rho(node >> (B - h)) */
        czk_fr rho, e;
        czk_snap_rho(&rho, &phi, node >> (B - v->h));
        czk_fr_mul(&e, &cp->d_new.leaf, &rho);
        czk_fr_add(&e, &e, &cp->r_old.leaf);
        if (!czk_fr_eq(&e, &cp->r_new.leaf)) {
            st = verr(k, c, node, "leaf_r_new != leaf_r_old + leaf_d_new * rho");
            break;
        }
        /* tree D up to the apex leaf the challenge selects; one partition path */
        cur = cp->d_new.leaf;
        for (uint32_t l = 0; l < to_apex; l++) {
            const czk_fr *sib = &cp->d_new.siblings[l];
            if ((node >> l) & 1) czk_fc_sha_node(&cur, sib, &cur);
            else czk_fc_sha_node(&cur, &cur, sib);
        }
        uint64_t a = (node >> to_apex) & (s->apex_leaves - 1);
        if (!czk_fr_eq(&cur, &p->apex_leaves[a])) {
            st = verr(k, c, node, "proof_d_new does not pass through apex leaf %llu", (unsigned long long)a);
            break;
        }
        for (uint32_t i = 0; i < s->partition_bits; i++)
            if (!czk_fr_eq(&cp->d_new.siblings[top + i], &p->proofs[0].d_new.siblings[top + i])) {
                st = verr(k, c, node, "proof_d_new's partition path differs from challenge 0's at level %u", top + i);
                break;
            }
    }
    free(ch);
    return st;
}

czk_status czk_snap_vanilla_check(const czk_snap_vanilla *v)
{
    if (!v || !v->parts || v->n != v->shape.partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals: %u partition proofs, the update has %u", v ? v->n : 0,
                         v ? v->shape.partitions : 0);
    uint32_t first_bad = UINT32_MAX;
#pragma omp parallel for schedule(dynamic, 1) reduction(min : first_bad) if (v->n > 1)
    for (uint32_t k = 0; k < v->n; k++)
        if (czk_snap_partition_check(v, k) != CZK_OK) first_bad = k < first_bad ? k : first_bad;
    return first_bad == UINT32_MAX ? CZK_OK : czk_snap_partition_check(v, first_bad);
}
