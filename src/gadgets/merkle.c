/* czk — native Merkle trees and paths in Filecoin's shapes (see czk/merkle.h). */
#include "czk/merkle.h"

#include <stdlib.h>
#include <string.h>

#include "czk/poseidon.h"

static int arity_ok(unsigned a) { return a == 2 || a == 4 || a == 8; }
static unsigned log2u(unsigned a) { return a == 2 ? 1 : a == 4 ? 2 : 3; }

czk_status czk_merkle_shape_check(const czk_merkle_shape *s) {
    if (!s) return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: NULL");
    if (s->hasher != CZK_MERKLE_POSEIDON && s->hasher != CZK_MERKLE_SHA256)
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: unknown hasher %d", (int)s->hasher);
    if (!arity_ok(s->base_arity))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: base arity %u is not 2, 4 or 8", s->base_arity);
    if (s->sub_arity && !arity_ok(s->sub_arity))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: sub-tree arity %u is not 0, 2, 4 or 8",
                         s->sub_arity);
    if (s->top_arity && !arity_ok(s->top_arity))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: top-tree arity %u is not 0, 2, 4 or 8",
                         s->top_arity);
    if (s->top_arity && !s->sub_arity)
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: a top-tree (arity %u) needs a sub-tree",
                         s->top_arity);
    if (s->hasher == CZK_MERKLE_SHA256 && (s->sub_arity || s->top_arity))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: SHA-256 trees have no sub- or top-tree");
    size_t levels = (size_t)s->base_height + (s->sub_arity != 0) + (s->top_arity != 0);
    if (levels == 0 || levels > CZK_MERKLE_MAX_LEVELS)
        return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: %zu levels (1 .. %d allowed)", levels,
                         CZK_MERKLE_MAX_LEVELS);
    size_t bits = (size_t)s->base_height * log2u(s->base_arity) + (s->sub_arity ? log2u(s->sub_arity) : 0) +
                  (s->top_arity ? log2u(s->top_arity) : 0);
    if (bits > 63) return czk_error(CZK_ERR_INVALID_ARG, "merkle shape: %zu index bits (at most 63)", bits);
    return CZK_OK;
}

size_t czk_merkle_levels(const czk_merkle_shape *s) {
    return (size_t)s->base_height + (s->sub_arity != 0) + (s->top_arity != 0);
}

unsigned czk_merkle_level_arity(const czk_merkle_shape *s, size_t level) {
    if (level < s->base_height) return s->base_arity;
    if (level == s->base_height && s->sub_arity) return s->sub_arity;
    if (level == (size_t)s->base_height + 1 && s->top_arity) return s->top_arity;
    return 0;
}

size_t czk_merkle_index_bits(const czk_merkle_shape *s) {
    size_t n = 0, levels = czk_merkle_levels(s);
    for (size_t l = 0; l < levels; l++) n += log2u(czk_merkle_level_arity(s, l));
    return n;
}

size_t czk_merkle_path_len(const czk_merkle_shape *s) {
    size_t n = 0, levels = czk_merkle_levels(s);
    for (size_t l = 0; l < levels; l++) n += czk_merkle_level_arity(s, l) - 1;
    return n;
}

uint64_t czk_merkle_leaves(const czk_merkle_shape *s) { return 1ULL << czk_merkle_index_bits(s); }

czk_status czk__merkle_sha256_node(czk_fr *out, const czk_fr *children, size_t n);

czk_status czk_merkle_hash_node(czk_fr *out, czk_merkle_hasher h, const czk_fr *children, size_t n) {
    if (n != 2 && n != 4 && n != 8)
        return czk_error(CZK_ERR_INVALID_ARG, "merkle node: arity %zu is not 2, 4 or 8", n);
    if (h == CZK_MERKLE_POSEIDON) return czk_poseidon_hash(out, children, n);
    if (h == CZK_MERKLE_SHA256) return czk__merkle_sha256_node(out, children, n);
    return czk_error(CZK_ERR_INVALID_ARG, "merkle node: unknown hasher %d", (int)h);
}

/* preimage = siblings[0..pos) || cur || siblings[pos..a-1) */
static void insert_at(czk_fr *pre, const czk_fr *cur, const czk_fr *sib, unsigned a, unsigned pos) {
    for (unsigned i = 0, k = 0; i < a; i++) pre[i] = i == pos ? *cur : sib[k++];
}

czk_status czk_merkle_root_from_path(czk_fr *root, const czk_merkle_shape *s, const czk_fr *leaf,
                                     const czk_fr *siblings, uint64_t index) {
    CZK_TRY(czk_merkle_shape_check(s));
    if (!root || !leaf || !siblings) return czk_error(CZK_ERR_INVALID_ARG, "merkle path: NULL argument");
    if (index >= czk_merkle_leaves(s))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle path: leaf index %llu >= %llu leaves",
                         (unsigned long long)index, (unsigned long long)czk_merkle_leaves(s));
    czk_fr cur = *leaf, pre[CZK_MERKLE_MAX_ARITY];
    size_t levels = czk_merkle_levels(s);
    for (size_t l = 0; l < levels; l++) {
        unsigned a = czk_merkle_level_arity(s, l);
        insert_at(pre, &cur, siblings, a, (unsigned)(index & (a - 1)));
        siblings += a - 1;
        index >>= log2u(a);
        CZK_TRY(czk_merkle_hash_node(&cur, s->hasher, pre, a));
    }
    *root = cur;
    return CZK_OK;
}

czk_status czk_merkle_tree_path(czk_fr *root, czk_fr *siblings, const czk_merkle_shape *s,
                                const czk_fr *leaves, uint64_t index) {
    CZK_TRY(czk_merkle_shape_check(s));
    if (!root || !leaves) return czk_error(CZK_ERR_INVALID_ARG, "merkle tree: NULL argument");
    uint64_t n = czk_merkle_leaves(s);
    if (index >= n)
        return czk_error(CZK_ERR_INVALID_ARG, "merkle tree: leaf index %llu >= %llu leaves",
                         (unsigned long long)index, (unsigned long long)n);
    if (n > (1ULL << 24))
        return czk_error(CZK_ERR_INVALID_ARG, "merkle tree: %llu leaves is too many to build in memory",
                         (unsigned long long)n);
    czk_fr *cur = malloc(n * sizeof(czk_fr));
    if (!cur) return czk_error(CZK_ERR_NOMEM, "merkle tree: %llu nodes", (unsigned long long)n);
    memcpy(cur, leaves, n * sizeof(czk_fr));
    size_t levels = czk_merkle_levels(s);
    czk_status st = CZK_OK;
    for (size_t l = 0; l < levels && st == CZK_OK; l++) {
        unsigned a = czk_merkle_level_arity(s, l);
        uint64_t pos = index & (a - 1), first = index - pos;
        if (siblings)
            for (unsigned i = 0; i < a; i++)
                if (i != pos) *siblings++ = cur[first + i];
        for (uint64_t j = 0; j < n / a && st == CZK_OK; j++)
            st = czk_merkle_hash_node(&cur[j], s->hasher, &cur[j * a], a);
        n /= a;
        index >>= log2u(a);
    }
    if (st == CZK_OK) *root = cur[0];
    free(cur);
    return st;
}
