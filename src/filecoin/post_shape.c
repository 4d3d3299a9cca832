/* The FallbackPoSt shapes in one place (czk/post.h): the two kinds, the
 * production shape of each sector size, custom shapes, and the v28
 * parameter names filecoin-proofs gives them. */
#include <stdio.h>
#include <string.h>

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "czk/post.h"


const char *czk_post_kind_name(czk_post_kind k)
{
    switch (k) {
    case CZK_POST_WINDOW: return "window-post";
    case CZK_POST_WINNING: return "winning-post";
    }
    return "?";
}

czk_status czk_post_kind_parse(czk_post_kind *out, const char *s)
{
    for (int k = CZK_POST_WINDOW; k <= CZK_POST_WINNING; k++) {
        const char *name = czk_post_kind_name((czk_post_kind)k);
        size_t n = strlen(name) - strlen("-post");
        if (s && (!strcmp(s, name) || (strlen(s) == n && !strncmp(s, name, n)))) {
            *out = (czk_post_kind)k;
            return CZK_OK;
        }
    }
    return czk_error(CZK_ERR_INVALID_ARG, "PoSt kind '%s': window or winning", s ? s : "");
}

/* Window: every vanilla sector is one circuit sector. Winning: one vanilla
 * sector whose inclusion proofs are spread over all circuit sectors. */
static czk_status post_shape_fill(czk_post_shape *s, czk_post_kind k, const czk_fc_shape *tree, uint32_t sectors,
                                  uint32_t challenges)
{
    if (k != CZK_POST_WINDOW && k != CZK_POST_WINNING)
        return czk_error(CZK_ERR_INVALID_ARG, "post shape: unknown proof kind %d", (int)k);
    if (sectors < 1 || sectors > CZK_POST_MAX_SECTORS)
        return czk_error(CZK_ERR_INVALID_ARG, "post shape: %u sectors per partition (1..%u)", sectors, CZK_POST_MAX_SECTORS);
    if (challenges < 1 || challenges > CZK_POST_MAX_CHALLENGES)
        return czk_error(CZK_ERR_INVALID_ARG, "post shape: %u challenges per sector (1..%u)", challenges,
                         CZK_POST_MAX_CHALLENGES);
    if (k == CZK_POST_WINNING && (uint64_t)sectors * challenges > CZK_POST_MAX_CHALLENGES)
        return czk_error(CZK_ERR_INVALID_ARG, "post shape: WinningPoSt with %u x %u challenges (at most %u)", sectors,
                         challenges, CZK_POST_MAX_CHALLENGES);
    memset(s, 0, sizeof *s);
    s->kind = k;
    s->api = CZK_POST_API_V1_2;
    s->tree = *tree;
    s->sectors = sectors;
    s->challenges = challenges;
    s->sector_challenges = k == CZK_POST_WINNING ? sectors * challenges : challenges;
    return CZK_OK;
}

czk_status czk_post_shape_of(czk_post_shape *s, czk_post_kind k, uint64_t sector_size)
{
    czk_fc_shape tree;
    CZK_TRY(czk_fc_shape_of_size(&tree, sector_size));
    if (k == CZK_POST_WINNING) return post_shape_fill(s, k, &tree, 66, 1);
    uint32_t sectors = sector_size == (1ULL << 35) ? 2349 : sector_size == (1ULL << 36) ? 2300 : 2;
    return post_shape_fill(s, k, &tree, sectors, 10);
}

czk_status czk_post_shape_custom(czk_post_shape *s, czk_post_kind k, uint64_t nodes, uint32_t base_arity,
                                 uint32_t sub_arity, uint32_t top_arity, uint32_t sectors, uint32_t challenges)
{
    czk_fc_shape tree;
    /* the layer count plays no part in PoSt; 2 satisfies the PoRep check */
    CZK_TRY(czk_fc_shape_custom(&tree, nodes, 2, 1, 1, base_arity, sub_arity, top_arity));
    return post_shape_fill(s, k, &tree, sectors, challenges);
}

uint32_t czk_post_vanilla_sectors(const czk_post_shape *s)
{
    return (uint32_t)((uint64_t)s->sectors * s->challenges / s->sector_challenges);
}

/* Parameter set identities of the FallbackPoSt circuits (WindowPoSt,
 * WinningPoSt) by sector size, as filecoin-proofs names them
 * (docs/filecoin-params.md): every production size, checked against
 * filecoin-proofs' own names (tests/oracle, param-names). */
static const struct {
    czk_post_kind kind;
    uint64_t sector_size;
    const char *id;
} post_param_ids[] = {
    {CZK_POST_WINDOW, 2048,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0"},
    {CZK_POST_WINNING, 2048,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e"},
    {CZK_POST_WINDOW, 8ull << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "5294475db5237a2e83c3e52fd6c2b03859a1831d45ed08c4f35dbf9a803165a9"},
    {CZK_POST_WINNING, 8ull << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331"},
    {CZK_POST_WINDOW, 512ull << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9"},
    {CZK_POST_WINNING, 512ull << 20,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
     "7d739b8cf60f1b0709eeebee7730e297683552e4b69cab6984ec0285663c5781"},
    {CZK_POST_WINDOW, 32ull << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc"},
    {CZK_POST_WINNING, 32ull << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
     "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e"},
    {CZK_POST_WINDOW, 64ull << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def"},
    {CZK_POST_WINNING, 64ull << 30,
     "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
     "b62098629d07946e9028127e70295ed996fe3ed25b0f9f88eb610a0ab4385a3c"},
};

const char *czk_post_param_id(czk_post_kind k, uint64_t sector_size)
{
    for (size_t i = 0; i < sizeof post_param_ids / sizeof post_param_ids[0]; i++)
        if (post_param_ids[i].kind == k && post_param_ids[i].sector_size == sector_size) return post_param_ids[i].id;
    return NULL;
}

czk_status czk_post_param_path(char *out, size_t cap, const char *dir, const czk_post_shape *s, const char *ext)
{
    const char *id = s->tree.proof == CZK_FC_PROOF_CUSTOM ? NULL : czk_post_param_id(s->kind, s->tree.nodes * 32);
    if (!id) {
        if (s->tree.proof == CZK_FC_PROOF_CUSTOM)
            return czk_error(CZK_ERR_INVALID_ARG, "no known v28 name for a custom %s shape; pass --params",
                             czk_post_kind_name(s->kind));
        return czk_error(CZK_ERR_INVALID_ARG, "no known v28 name for %llu-byte %s; pass --params",
                         (unsigned long long)(s->tree.nodes * 32), czk_post_kind_name(s->kind));
    }
    int n = snprintf(out, cap, "%s/%s%s", dir, id, ext);
    if (n < 0 || (size_t)n >= cap) return czk_error(CZK_ERR_INVALID_ARG, "parameter path under %s is too long", dir);
    return CZK_OK;
}
