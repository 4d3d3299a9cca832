/* SnapDeals shapes and constants, v28 parameter names, public inputs and
 * challenges (czk/snap.h). The constants are storage-proofs-update's
 * (constants.rs), as functions of the sector's node count; the challenge
 * derivation is its challenges.rs (docs/filecoin.md "SnapDeals"). */
#include <stdio.h>
#include <string.h>

#include "czk/poseidon.h"
#include "czk/snap.h"

#define KIB_NODES(k) ((uint64_t)(k) * 1024 / 32)
#define MIB_NODES(m) ((uint64_t)(m) * 1024 * 1024 / 32)

static const char *const update_names[CZK_SNAP_UPDATE_PROOFS] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1", "StackedDrg64GiBV1",
};

/* filecoin-proofs parameters.json: the EmptySectorUpdate circuits (tree R
 * shape in the name, then the SHA-256 of the parameter set's identifier). */
static const char *const update_param_ids[CZK_SNAP_UPDATE_PROOFS] = {
    "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
    "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194",
    "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
    "92180959e1918d26350b8e6cfe217bbdd0a2d8de51ebec269078b364b715ad63",
    "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
    "61fa69f38b9cc771ba27b670124714b4ea77fbeae05e377fb859c4a43b73a30c",
    "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-0-"
    "3b7f44a9362e3985369454947bc94022e118211e49fd672d52bec1cbfd599d18",
    "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
    "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7",
};

const char *czk_snap_proof_name(int p)
{
    if (p == CZK_SNAP_PROOF_CUSTOM) return "CzkCustom";
    return p >= 0 && p < CZK_SNAP_UPDATE_PROOFS ? update_names[p] : NULL;
}

czk_status czk_snap_proof_from_name(int *p, const char *name)
{
    for (int i = 0; name && i < CZK_SNAP_UPDATE_PROOFS; i++)
        if (!strcmp(name, update_names[i])) {
            *p = i;
            return CZK_OK;
        }
    return czk_error(CZK_ERR_INVALID_ARG, "registered update proof \"%s\": StackedDrg2KiBV1, StackedDrg8MiBV1, "
                                          "StackedDrg512MiBV1, StackedDrg32GiBV1 or StackedDrg64GiBV1",
                     name ? name : "");
}

const char *czk_snap_param_id(int p)
{
    return p >= 0 && p < CZK_SNAP_UPDATE_PROOFS ? update_param_ids[p] : NULL;
}

czk_status czk_snap_param_path(char *out, size_t cap, const char *dir, const czk_snap_shape *s, const char *ext)
{
    const char *id = czk_snap_param_id(s->update_proof);
    if (!id) return czk_error(CZK_ERR_INVALID_ARG, "no known v28 name for a custom SnapDeals shape; pass --params");
    int n = snprintf(out, cap, "%s/%s%s", dir, id, ext);
    if (n < 0 || (size_t)n >= cap) return czk_error(CZK_ERR_INVALID_ARG, "parameter path under %s is too long", dir);
    return CZK_OK;
}

static uint32_t log2_u64(uint64_t x)
{
    uint32_t k = 0;
    while ((1ULL << k) < x) k++;
    return k;
}

/* constants.rs as functions of the node count */
static void snap_constants(czk_snap_shape *s, uint64_t nodes)
{
    s->partitions = nodes <= KIB_NODES(8) ? 1 : nodes <= KIB_NODES(32) ? 2 : nodes <= MIB_NODES(16) ? 4 : 16;
    s->challenges = nodes <= MIB_NODES(16) ? 10 : 86;
    s->apex_leaves = nodes <= KIB_NODES(8) ? 8 : 128;
    for (int i = 0; i < CZK_SNAP_HS; i++) s->hs[i] = nodes <= KIB_NODES(32) ? 1 : 7 + (uint32_t)i;
    s->h = s->hs[3];
    s->challenge_bits = log2_u64(nodes);
    s->partition_bits = log2_u64(s->partitions);
    s->apex_bits = log2_u64(s->apex_leaves);
}

/* The constants fit the tree: every h of hs is at most a challenge's bits
 * (the circuit takes each hs value's high bits), and the apex tree and the
 * partition tree fit inside tree D. */
static czk_status snap_fits(const czk_snap_shape *s)
{
    uint32_t hmax = 0;
    for (int i = 0; i < CZK_SNAP_HS; i++) hmax = s->hs[i] > hmax ? s->hs[i] : hmax;
    if (s->challenge_bits < hmax || s->challenge_bits < s->partition_bits + s->apex_bits + 1)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "SnapDeals shape: %llu nodes (%u challenge bits) cannot hold %u partitions of %u apex leaves "
                         "and h up to %u",
                         (unsigned long long)s->tree.nodes, s->challenge_bits, s->partitions, s->apex_leaves, hmax);
    return CZK_OK;
}

czk_status czk_snap_shape_of_proof(czk_snap_shape *s, int p)
{
    if (p < 0 || p >= CZK_SNAP_UPDATE_PROOFS)
        return czk_error(CZK_ERR_INVALID_ARG, "registered update proof %d: 0 .. 4 (2KiB .. 64GiB)", p);
    memset(s, 0, sizeof *s);
    CZK_TRY(czk_fc_shape_of_proof(&s->tree, (czk_fc_proof)(CZK_FC_2KIB_V1_1 + p)));
    s->update_proof = p;
    snap_constants(s, s->tree.nodes);
    return snap_fits(s);
}

czk_status czk_snap_shape_of(czk_snap_shape *s, uint64_t sector_size)
{
    static const uint64_t sizes[CZK_SNAP_UPDATE_PROOFS] = {1ULL << 11, 1ULL << 23, 1ULL << 29, 1ULL << 35,
                                                           1ULL << 36};
    for (int i = 0; i < CZK_SNAP_UPDATE_PROOFS; i++)
        if (sizes[i] == sector_size) return czk_snap_shape_of_proof(s, i);
    return czk_error(CZK_ERR_UNSUPPORTED, "SnapDeals sector size %llu: expected 2KiB, 8MiB, 512MiB, 32GiB or 64GiB",
                     (unsigned long long)sector_size);
}

czk_status czk_snap_shape_custom(czk_snap_shape *s, uint64_t nodes, uint32_t base_arity, uint32_t sub_arity,
                                 uint32_t top_arity)
{
    if (nodes < 32 || nodes > (1ULL << 32) || (nodes & (nodes - 1)))
        return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals shape: %llu nodes: a power of two in 32 .. 2^32",
                         (unsigned long long)nodes);
    memset(s, 0, sizeof *s);
    CZK_TRY(czk_fc_shape_custom(&s->tree, nodes, 2, 1, 1, base_arity, sub_arity, top_arity));
    s->update_proof = CZK_SNAP_PROOF_CUSTOM;
    snap_constants(s, nodes);
    return snap_fits(s);
}

czk_status czk_snap_shape_challenges(czk_snap_shape *s, uint32_t challenges)
{
    if (challenges < 1 || challenges > s->challenges)
        return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals test shape: %u challenges per partition: 1 .. %u",
                         challenges, s->challenges);
    if (challenges < s->challenges) s->update_proof = CZK_SNAP_PROOF_CUSTOM;
    s->challenges = challenges;
    return CZK_OK;
}

/* ---- public inputs ------------------------------------------------------------------ */

czk_status czk_snap_h_select(uint64_t *out, const czk_snap_shape *s, uint32_t h)
{
    for (int i = 0; i < CZK_SNAP_HS; i++)
        if (s->hs[i] == h) {
            *out = 1ULL << i;
            return CZK_OK;
        }
    return czk_error(CZK_ERR_INVALID_ARG,
                     "SnapDeals: h = %u is not one of the sector size's hs (%u, %u, %u, %u, %u, %u)", h, s->hs[0],
                     s->hs[1], s->hs[2], s->hs[3], s->hs[4], s->hs[5]);
}

czk_status czk_snap_public_inputs(czk_fr out[CZK_SNAP_PUBLIC_INPUTS], const czk_snap_shape *s, uint32_t k,
                                  uint32_t h, const czk_fr *comm_r_old, const czk_fr *comm_d_new,
                                  const czk_fr *comm_r_new)
{
    if (k >= s->partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals public inputs: partition %u of %u", k, s->partitions);
    uint64_t hsel;
    CZK_TRY(czk_snap_h_select(&hsel, s, h));
    czk_fr_from_u64(&out[0], (uint64_t)k | hsel << s->partition_bits);
    out[1] = *comm_r_old;
    out[2] = *comm_d_new;
    out[3] = *comm_r_new;
    return CZK_OK;
}

/* ---- phi, rho, challenges ----------------------------------------------------------- */

void czk_snap_phi(czk_fr *out, const czk_fr *comm_d_new, const czk_fr *comm_r_old)
{
    czk_poseidon_hash2_gr(out, comm_d_new, comm_r_old);
}

void czk_snap_rho(czk_fr *out, const czk_fr *phi, uint64_t high)
{
    czk_fr h;
    czk_fr_from_u64(&h, high);
    czk_poseidon_hash2_gr(out, phi, &h);
}

uint32_t czk_snap_digests(const czk_snap_shape *s)
{
    uint32_t bits = s->challenge_bits - s->partition_bits, per = 254 / bits;
    return (s->challenges + per - 1) / per;
}

czk_status czk_snap_challenges(uint64_t *out, const czk_snap_shape *s, const czk_fr *comm_r_new, uint32_t k)
{
    if (k >= s->partitions)
        return czk_error(CZK_ERR_INVALID_ARG, "SnapDeals challenges: partition %u of %u", k, s->partitions);
    const uint32_t bits = s->challenge_bits - s->partition_bits, per = 254 / bits, digests = czk_snap_digests(s);
    uint32_t c = 0;
    for (uint32_t j = 0; j < digests && c < s->challenges; j++) {
        /* digest = PoseidonGR(comm_r_new, k * digests + j), 255 bits little-endian */
        czk_fr idx, d;
        uint8_t b[32];
        czk_fr_from_u64(&idx, (uint64_t)k * digests + j);
        czk_poseidon_hash2_gr(&d, comm_r_new, &idx);
        czk_fr_to_bytes(b, &d);
        for (uint32_t i = 0; i < per && c < s->challenges; i++, c++) {
            uint64_t v = 0;
            for (uint32_t t = 0; t < bits; t++) {
                uint32_t pos = i * bits + t;
                v |= (uint64_t)((b[pos / 8] >> (pos % 8)) & 1) << t;
            }
            out[c] = v | (uint64_t)k << bits;
        }
    }
    return CZK_OK;
}
