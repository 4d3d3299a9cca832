/* Sector shapes of the registered seal proofs (filecoin-proofs constants.rs:
 * LAYERS, POREP_PARTITIONS, get_porep_interactive_minimum_challenges,
 * SectorShape*; rust-filecoin-proofs-api registry.rs: REGISTERED_PROOF_IDS,
 * porep_id). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/filecoin.h"

static const char *const proof_names[CZK_FC_PROOF_COUNT] = {
    "StackedDrg2KiBV1",     "StackedDrg8MiBV1",     "StackedDrg512MiBV1",
    "StackedDrg32GiBV1",    "StackedDrg64GiBV1",    "StackedDrg2KiBV1_1",
    "StackedDrg8MiBV1_1",   "StackedDrg512MiBV1_1", "StackedDrg32GiBV1_1",
    "StackedDrg64GiBV1_1",  "StackedDrg2KiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg8MiBV1_1_Feat_SyntheticPoRep",   "StackedDrg512MiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg32GiBV1_1_Feat_SyntheticPoRep",  "StackedDrg64GiBV1_1_Feat_SyntheticPoRep",
    "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep",   "StackedDrg8MiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep",
    "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep",
};

static const char *const vanilla_keys[5] = {
    "StackedDrg2KiBV1", "StackedDrg8MiBV1", "StackedDrg512MiBV1", "StackedDrg32GiBV1",
    "StackedDrg64GiBV1",
};

const char *czk_fc_proof_name(czk_fc_proof p)
{
    if (p == CZK_FC_PROOF_CUSTOM) return "CzkCustom";
    if ((unsigned)p >= CZK_FC_PROOF_COUNT) return "?";
    return proof_names[p];
}

const char *czk_fc_proof_vanilla_key(czk_fc_proof p)
{
    if (p == CZK_FC_PROOF_CUSTOM) return "CzkCustom";
    if ((unsigned)p >= CZK_FC_PROOF_COUNT) return "?";
    return vanilla_keys[p % 5];
}

czk_status czk_fc_proof_from_name(czk_fc_proof *p, const char *name)
{
    for (int i = 0; i < CZK_FC_PROOF_COUNT; i++)
        if (!strcmp(name, proof_names[i])) {
            *p = (czk_fc_proof)i;
            return CZK_OK;
        }
    if (!strcmp(name, "CzkCustom")) {
        *p = CZK_FC_PROOF_CUSTOM;
        return CZK_OK;
    }
    return czk_error(CZK_ERR_UNSUPPORTED, "unknown registered proof \"%s\"", name);
}

void czk_fc_porep_id(uint8_t out[32], czk_fc_proof p)
{
    uint64_t id = p == CZK_FC_PROOF_CUSTOM ? (uint64_t)CZK_FC_2KIB_V1_1 : (uint64_t)p;
    memset(out, 0, 32);
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)(id >> (8 * i));
}

static unsigned log2_exact(uint64_t x)
{
    unsigned k = 0;
    while ((1ULL << k) < x) k++;
    return k;
}

czk_status czk_fc_shape_of_proof(czk_fc_shape *s, czk_fc_proof p)
{
    if ((unsigned)p >= CZK_FC_PROOF_COUNT)
        return czk_error(CZK_ERR_INVALID_ARG, "czk_fc_shape_of_proof: not a registered proof (%d)", (int)p);
    memset(s, 0, sizeof *s);
    s->proof = p;
    s->api_v1_1 = p >= CZK_FC_2KIB_V1_1;
    s->base_arity = 8;
    switch (p % 5) {
    case 0: s->sector_size = 1ULL << 11; break;
    case 1: s->sector_size = 1ULL << 23; break;
    case 2: s->sector_size = 1ULL << 29; break;
    case 3: s->sector_size = 1ULL << 35; s->sub_arity = 8; break;
    default: s->sector_size = 1ULL << 36; s->sub_arity = 8; s->top_arity = 2; break;
    }
    int big = p % 5 >= 3;
    s->nodes = s->sector_size / CZK_FC_NODE_BYTES;
    s->layers = big ? 11 : 2;
    /* ceil(min challenges / partitions): interactive 176 / 10 -> 18, 2 / 1 -> 2;
     * NI-PoRep 2253 / 126 -> 18, 26 / 13 -> 2 */
    s->partitions = czk_fc_proof_is_ni(p) ? (big ? 126 : 13) : (big ? 10 : 1);
    s->challenges = big ? 18 : 2;
    uint64_t base = s->nodes / (s->sub_arity ? s->sub_arity : 1) / (s->top_arity ? s->top_arity : 1);
    s->base_height = log2_exact(base) / 3;
    s->d_height = log2_exact(s->nodes);
    return CZK_OK;
}

czk_status czk_fc_shape_of_size(czk_fc_shape *s, uint64_t sector_size)
{
    static const uint64_t sizes[5] = {1ULL << 11, 1ULL << 23, 1ULL << 29, 1ULL << 35, 1ULL << 36};
    for (int i = 0; i < 5; i++)
        if (sizes[i] == sector_size) return czk_fc_shape_of_proof(s, (czk_fc_proof)(CZK_FC_2KIB_V1_1 + i));
    return czk_error(CZK_ERR_UNSUPPORTED,
                     "sector size %llu: expected 2KiB, 8MiB, 512MiB, 32GiB or 64GiB",
                     (unsigned long long)sector_size);
}

static int arity_ok(uint32_t a) { return a == 2 || a == 4 || a == 8; }

czk_status czk_fc_shape_custom(czk_fc_shape *s, uint64_t nodes, uint32_t layers,
                               uint32_t partitions, uint32_t challenges, uint32_t base_arity,
                               uint32_t sub_arity, uint32_t top_arity)
{
    if (layers != 2 && layers != 4 && layers != 8 && layers != 11)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "custom shape: %u layers: the column hash is Poseidon of arity = layers (2, 4, 8 or 11)",
                         layers);
    if (partitions < 1 || challenges < 1 || partitions > 1000 || challenges > 100000)
        return czk_error(CZK_ERR_INVALID_ARG, "custom shape: %u partitions x %u challenges out of range",
                         partitions, challenges);
    if (!arity_ok(base_arity) || (sub_arity && !arity_ok(sub_arity)) || (top_arity && !arity_ok(top_arity)))
        return czk_error(CZK_ERR_INVALID_ARG, "custom shape: tree arities %u,%u,%u: each must be 2, 4 or 8",
                         base_arity, sub_arity, top_arity);
    if (top_arity && !sub_arity)
        return czk_error(CZK_ERR_INVALID_ARG, "custom shape: a top arity needs a sub arity");
    if (nodes < 4 || nodes > (1ULL << 32) || (nodes & (nodes - 1)))
        return czk_error(CZK_ERR_INVALID_ARG, "custom shape: nodes %llu must be a power of two in 4..2^32",
                         (unsigned long long)nodes);
    uint64_t base = nodes;
    if (sub_arity) {
        if (base % sub_arity) goto bad;
        base /= sub_arity;
    }
    if (top_arity) {
        if (base % top_arity) goto bad;
        base /= top_arity;
    }
    uint32_t h = 0;
    while (base > 1) {
        if (base % base_arity) goto bad;
        base /= base_arity;
        h++;
    }
    if (h == 0) goto bad;
    memset(s, 0, sizeof *s);
    s->proof = CZK_FC_PROOF_CUSTOM;
    s->api_v1_1 = 1;
    s->sector_size = nodes * CZK_FC_NODE_BYTES;
    s->nodes = nodes;
    s->layers = layers;
    s->partitions = partitions;
    s->challenges = challenges;
    s->base_arity = base_arity;
    s->sub_arity = sub_arity;
    s->top_arity = top_arity;
    s->base_height = h;
    s->d_height = log2_exact(nodes);
    return CZK_OK;
bad:
    return czk_error(CZK_ERR_INVALID_ARG,
                     "custom shape: %llu nodes is not base^h * sub * top for tree %u,%u,%u (h >= 1)",
                     (unsigned long long)nodes, base_arity, sub_arity, top_arity);
}

uint32_t czk_fc_shape_tree_levels(const czk_fc_shape *s)
{
    return s->base_height + (s->sub_arity ? 1 : 0) + (s->top_arity ? 1 : 0);
}

uint32_t czk_fc_shape_level_arity(const czk_fc_shape *s, uint32_t level)
{
    if (level < s->base_height) return s->base_arity;
    if (level == s->base_height && s->sub_arity) return s->sub_arity;
    return s->top_arity;
}

uint32_t czk_fc_shape_tree_siblings(const czk_fc_shape *s)
{
    uint32_t n = 0, lv = czk_fc_shape_tree_levels(s);
    for (uint32_t i = 0; i < lv; i++) n += czk_fc_shape_level_arity(s, i) - 1;
    return n;
}

int czk_fc_proof_is_ni(czk_fc_proof p) { return p >= CZK_FC_2KIB_V1_2_NI && p < CZK_FC_PROOF_COUNT; }

/* Parameter set identities of the PoRep partition circuits, by sector size
 * (filecoin-proofs parameters.json; the hash is SHA-256 of the public
 * parameters' identifier string). */
static const char *const porep_param_ids[5] = {
    "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
    "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f",
    "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
    "ecd683648512ab1765faa2a5f14bab48f676e633467f0aa8aad4b55dcb0652bb",
    "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
    "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472",
    "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-"
    "82a357d2f2ca81dc61bb45f4a762807aedee1b0a53fd6c4e77b46a01bfef7820",
    "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
    "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2",
};

const char *czk_fc_porep_param_id(czk_fc_proof p)
{
    if ((unsigned)p >= CZK_FC_PROOF_COUNT || czk_fc_proof_is_ni(p)) return NULL;
    return porep_param_ids[p % 5];
}

void czk_fc_prover_id(uint8_t out[32], uint64_t miner)
{
    memset(out, 0, 32);
    size_t i = 0;
    do {
        uint8_t b = miner & 0x7f;
        miner >>= 7;
        out[i++] = b | (miner ? 0x80 : 0);
    } while (miner);
}

const char *czk_fc_param_cache_dir(void)
{
    const char *d = getenv("FIL_PROOFS_PARAMETER_CACHE");
    return d && *d ? d : "/var/tmp/filecoin-proof-parameters";
}

czk_status czk_fc_param_path(char *out, size_t cap, const char *dir, czk_fc_proof p, const char *ext)
{
    const char *id = czk_fc_porep_param_id(p);
    if (!id)
        return czk_error(CZK_ERR_INVALID_ARG, "%s has no Filecoin (v28) parameter file; pass the file itself",
                         czk_fc_proof_name(p));
    int n = snprintf(out, cap, "%s/%s%s", dir, id, ext);
    if (n < 0 || (size_t)n >= cap) return czk_error(CZK_ERR_INVALID_ARG, "parameter path under %s is too long", dir);
    return CZK_OK;
}
