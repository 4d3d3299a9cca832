/* The strict bincode reader and writer that the vanilla-proof formats share
 * (post_vanilla.c: FallbackPoStSectorProof, snap_vanilla.c: PartitionProof):
 * a cursor over little-endian integers, field elements and Vec lengths whose
 * errors name the proof, the field and the byte offset, and the MerkleProof
 * enum (Single / Sub / Top) of a tree of czk_fc_shape. Layout: docs/formats.md
 * "Vanilla proofs as bincode". */
#ifndef CZK_FILECOIN_BINCODE_H
#define CZK_FILECOIN_BINCODE_H

#include "common/bytes.h"
#include "czk/filecoin.h"

/* ---- reader ----------------------------------------------------------------- */

/* A field, spelled out only for an error message:
 * "[<group> k, ][<proof>, ]<part>[path element l, ]<name>[[j]]" where group
 * and proof are NULL, and k, l and j negative, when absent. */
typedef struct czk__bc_field {
    const char *group; /* "inclusion proof", "challenge" (numbered k) */
    int64_t k;
    const char *proof; /* the proof within group k: "proof_r_old", ... */
    const char *part;  /* "", "base ", "sub ", "top " */
    const char *name;
    int64_t l, j;
} czk__bc_field;

/* A field with its name alone. */
static inline czk__bc_field czk__bc_named(const char *name)
{
    return (czk__bc_field){NULL, -1, NULL, "", name, -1, -1};
}

/* The cursor: the span's bytes (buf[pos..end), pos from 0). `who` opens
 * every message it writes ("snap partition proof 3"). */
typedef struct czk__bc_reader {
    czk__span s;
    char who[80];
} czk__bc_reader;

/* Set the error "<who>: <field>: <fmt...> (byte offset at)", or without
 * "<field>: " for f NULL; returns st. */
czk_status CZK_PRINTF(5, 6) czk__bc_err(czk_status st, const czk__bc_reader *r, size_t at, const czk__bc_field *f,
                                        const char *fmt, ...);

czk_status czk__bc_u64(uint64_t *v, czk__bc_reader *r, const czk__bc_field *f);
czk_status czk__bc_u32(uint32_t *v, czk__bc_reader *r, const czk__bc_field *f);
/* A field element's 32 bytes, refused when not canonical (>= r). */
czk_status czk__bc_fr(czk_fr *v, czk__bc_reader *r, const czk__bc_field *f);
/* A Vec's u64 length, which must be `want`. */
czk_status czk__bc_len(czk__bc_reader *r, uint64_t want, const czk__bc_field *f);

/* A MerkleProof of tree t into m (m->siblings: czk_fc_shape_tree_siblings(t)
 * slots): the variant t's shape needs, root, leaf, every path's hashes, and
 * m->index from the paths' element indices. `at` names the proof (group, k,
 * proof; its other members are ignored). */
czk_status czk__bc_merkle(czk_fc_merkle *m, czk__bc_reader *r, const czk_fc_shape *t, const czk__bc_field *at);

/* Bytes of one MerkleProof of tree t. */
size_t czk__bc_merkle_bytes(const czk_fc_shape *t);

/* ---- writer ----------------------------------------------------------------- */

typedef struct czk__bc_writer {
    uint8_t *p;
} czk__bc_writer;

static inline void czk__bc_put_u64(czk__bc_writer *w, uint64_t v)
{
    for (int i = 0; i < 8; i++) *w->p++ = (uint8_t)(v >> (8 * i));
}

static inline void czk__bc_put_fr(czk__bc_writer *w, const czk_fr *v)
{
    czk_fr_to_bytes(w->p, v);
    w->p += 32;
}

/* m as a MerkleProof of tree t (czk__bc_merkle_bytes(t) bytes); m->index < t->nodes. */
void czk__bc_put_merkle(czk__bc_writer *w, const czk_fc_merkle *m, const czk_fc_shape *t);

#endif
