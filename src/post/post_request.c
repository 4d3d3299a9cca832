/* WindowPoSt and WinningPoSt requests as Curio sends them (czk/kind.h,
 * decode): one bincode FallbackPoStSectorProof per sector (skipped sectors
 * removed), the randomness (Curio clears the top two bits of byte 31), the
 * miner id (its prover id derived here), WindowPoSt's partition index
 * (Curio sends 0 for every partition of a deadline). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "czk/czk.h"
#include "kinds/request.h"
#include "czk/filecoin.h"
#include "czk/post_kind.h"
#include "czk/post_vanilla.h"
#include "post/post_internal.h"

static const char *const size_names[5] = {"2KiB", "8MiB", "512MiB", "32GiB", "64GiB"};

/* The registered PoSt proof's name from its number (Winning 0..4, Window
 * V1 5..9, Window V1_2 10..14). */
static czk_status proof_name(char *out, size_t cap, uint64_t n, czk_post_kind want)
{
    if (n > 14) return czk_error(CZK_ERR_INVALID_ARG, "registered_proof %llu: not a PoSt proof (0 .. 14)",
                                 (unsigned long long)n);
    int winning = n < 5;
    if (winning != (want == CZK_POST_WINNING))
        return czk_error(CZK_ERR_INVALID_ARG, "registered_proof %llu is a %s proof, the request's proof_kind %s",
                         (unsigned long long)n, winning ? "WinningPoSt" : "WindowPoSt",
                         want == CZK_POST_WINNING ? "WINNING_POST" : "WINDOW_POST_PARTITION");
    snprintf(out, cap, "StackedDrg%s%s%s", winning ? "Winning" : "Window", size_names[n % 5], n >= 10 ? "V1_2" : "V1");
    return CZK_OK;
}

static czk_status decode(void **data, char what[96], const czk_kind_request *r, czk_post_kind want)
{
    *data = NULL;
    char name[64];
    CZK_TRY(proof_name(name, sizeof name, r->registered_proof, want));
    czk_post_shape s;
    CZK_TRY(czk_post_proof_shape(&s, name));
    if (r->sector_size && r->sector_size != s.tree.sector_size)
        return czk_error(CZK_ERR_INVALID_ARG, "sector_size %llu, but registered_proof %llu (%s) is of %llu-byte sectors",
                         (unsigned long long)r->sector_size, (unsigned long long)r->registered_proof, name,
                         (unsigned long long)s.tree.sector_size);
    if (r->randomness.len != 32)
        return czk_error(CZK_ERR_INVALID_ARG, "randomness: %zu bytes, wanted 32", r->randomness.len);
    if (r->n_proofs == 0)
        return czk_error(CZK_ERR_INVALID_ARG, "vanilla_proofs: empty (one bincode sector proof per sector)");
    if (r->n_proofs > UINT32_MAX) return czk_error(CZK_ERR_INVALID_ARG, "vanilla_proofs: too many");
    uint32_t n = (uint32_t)r->n_proofs;
    const uint8_t **pp;
    size_t *lens;
    CZK_TRY(czk__kind_proof_lists(r, &pp, &lens));
    czk_post_vanilla *v = calloc(1, sizeof *v);
    if (!v) {
        free((void *)pp);
        free(lens);
        return czk_error(CZK_ERR_NOMEM, "vanilla_proofs");
    }
    uint8_t prover[32];
    czk_fc_prover_id(prover, r->miner_id);
    uint32_t part = want == CZK_POST_WINNING ? 0 : r->partition_index;
    czk_status st = czk_post_vanilla_read(v, &s, pp, lens, n, r->randomness.data, prover, part);
    free((void *)pp);
    free(lens);
    if (st == CZK_OK) {
        st = czk_post_vanilla_check(v);
        if (st != CZK_OK) czk_post_vanilla_free(v);
    }
    if (st != CZK_OK) {
        free(v);
        return czk_error_context(st, "vanilla_proofs (%s)", name);
    }
    snprintf(what, 96, "%s partition %u, %u sector%s", name, part, n, n > 1 ? "s" : "");
    *data = v;
    return CZK_OK;
}

czk_status czk__window_decode(void **data, char what[96], const czk_kind_request *r)
{
    return decode(data, what, r, CZK_POST_WINDOW);
}

czk_status czk__winning_decode(void **data, char what[96], const czk_kind_request *r)
{
    return decode(data, what, r, CZK_POST_WINNING);
}

void czk__post_free(void *data)
{
    if (!data) return;
    czk_post_vanilla_free(data);
    free(data);
}

uint64_t czk__post_sector_size(const void *data) { return ((const czk_post_vanilla *)data)->shape.tree.sector_size; }
