/* The circuits of `czk bench cs`, compiled once per LC variant
 * (bench_cs_lcv.c; cs/lc.h): their generic names and the four compiled names
 * of each. */
#ifndef CZK_BENCH_CS_H
#define CZK_BENCH_CS_H

#include "cs/lc.h"
#include "czk/gadgets.h"
#include "czk/merkle.h"

#define bench_sha_chain                                                                 \
    CZK_LCV_NAME(bench_sha_chain_vec, bench_sha_chain_inline1, bench_sha_chain_inline2, bench_sha_chain_inline4)
#define bench_merkle_paths                                                              \
    CZK_LCV_NAME(bench_merkle_paths_vec, bench_merkle_paths_inline1, bench_merkle_paths_inline2,        \
                 bench_merkle_paths_inline4)

/* 512 allocated message bits, then `blocks` chained SHA-256 compressions. */
#define CZK__BENCH_SHA_CHAIN(name)                                                      \
    czk_status name(czk_cs *cs, const uint8_t msg[64], unsigned blocks, czk_u32 out[8]) CZK_WUR;
/* `paths` Poseidon Merkle inclusion proofs, each with its leaf, siblings,
 * index and (public) root. */
#define CZK__BENCH_MERKLE_PATHS(name)                                                   \
    czk_status name(czk_cs *cs, const czk_merkle_shape *s, unsigned paths, const czk_fr *leaves,        \
                    const czk_fr *siblings, const uint64_t *index, const czk_fr *roots) CZK_WUR;
CZK__BENCH_SHA_CHAIN(bench_sha_chain_vec)
CZK__BENCH_SHA_CHAIN(bench_sha_chain_inline1)
CZK__BENCH_SHA_CHAIN(bench_sha_chain_inline2)
CZK__BENCH_SHA_CHAIN(bench_sha_chain_inline4)
CZK__BENCH_MERKLE_PATHS(bench_merkle_paths_vec)
CZK__BENCH_MERKLE_PATHS(bench_merkle_paths_inline1)
CZK__BENCH_MERKLE_PATHS(bench_merkle_paths_inline2)
CZK__BENCH_MERKLE_PATHS(bench_merkle_paths_inline4)
#undef CZK__BENCH_SHA_CHAIN
#undef CZK__BENCH_MERKLE_PATHS

#endif
