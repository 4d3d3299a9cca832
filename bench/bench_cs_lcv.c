/* The benchmark circuits of `czk bench cs`, compiled once per LC variant
 * (cs/lc.h); bench_cs.c chooses the variant. */
#include <string.h>

#include "bench_cs.h"
#include "cs/lc_lcv.h"
#include "czk/sha256.h"
#include "gadgets/gadgets_lc.h"

/* 512 allocated message bits, then `blocks` chained SHA-256 compressions
 * (state_{i+1} = compress(state_i, message)), starting from the constant IV. */
czk_status bench_sha_chain(czk_cs *cs, const uint8_t msg[64], unsigned blocks, czk_u32 out[8])
{
    czk_bool in[512];
    czk_u32 st[8], nx[8];
    for (unsigned i = 0; i < 512; i++) {
        czk_cs_ns_push(cs, "input bit", i);
        czk_status s = czk_bit_alloc(cs, &in[i], (msg[i / 8] >> (7 - i % 8)) & 1);
        czk_cs_ns_pop(cs);
        CZK_TRY(s);
    }
    for (int i = 0; i < 8; i++) czk_u32_constant(&st[i], CZK_SHA256_IV[i]);
    for (unsigned b = 0; b < blocks; b++) {
        czk_cs_ns_push(cs, "block", b);
        czk_status s = czk_sha256_compression(cs, nx, in, st);
        czk_cs_ns_pop(cs);
        CZK_TRY(s);
        memcpy(st, nx, sizeof(st));
    }
    memcpy(out, st, sizeof(st));
    return CZK_OK;
}

/* `paths` Poseidon Merkle inclusion proofs (rust-fil-proofs PoRCircuit) of
 * one shape, each with its leaf, siblings, index and root (public). */
czk_status bench_merkle_paths(czk_cs *cs, const czk_merkle_shape *s, unsigned paths, const czk_fr *leaves,
                              const czk_fr *siblings, const uint64_t *index, const czk_fr *roots)
{
    size_t plen = czk_merkle_path_len(s);
    int hv = cs->has_values;
    for (unsigned p = 0; p < paths; p++) {
        czk_cs_ns_push(cs, "path", p);
        czk_status st = czk_merkle_por_circuit(cs, s, NULL, hv ? &leaves[p] : NULL, hv ? siblings + p * plen : NULL,
                                               index[p], NULL, hv ? &roots[p] : NULL, 0);
        czk_cs_ns_pop(cs);
        CZK_TRY(st);
    }
    return CZK_OK;
}
