/* A PoRep request as Curio sends it (czk/kind.h, decode): the C1 output in
 * its envelope (lib/ffi/cuzk_funcs.go wrapC1Output; ProofShare's Go
 * re-encoding reads the same), the registered proof taken from the C1. */
#include <stdio.h>
#include <stdlib.h>

#include "czk/czk.h"
#include "czk/filecoin.h"
#include "porep/porep_internal.h"

czk_status czk__porep_decode(void **data, char what[96], const czk_kind_request *r)
{
    *data = NULL;
    if (!r->payload.len)
        return czk_error(CZK_ERR_INVALID_ARG, "vanilla_proof: empty (a PoRep job carries the C1 output JSON)");
    czk_fc_c1 *c1 = malloc(sizeof *c1);
    if (!c1) return czk_error(CZK_ERR_NOMEM, "C1");
    czk_status st = czk_fc_c1_parse(c1, (const char *)r->payload.data, r->payload.len, "vanilla_proof");
    if (st != CZK_OK) {
        free(c1);
        return st;
    }
    if (r->sector_size && r->sector_size != c1->shape.sector_size) {
        unsigned long long a = (unsigned long long)r->sector_size, b = (unsigned long long)c1->shape.sector_size;
        czk__porep_free(c1);
        return czk_error(CZK_ERR_INVALID_ARG, "sector_size %llu, but the C1 is of a %llu-byte sector", a, b);
    }
    snprintf(what, 96, "PoRep %s sector %lld", czk_fc_proof_name(c1->shape.proof),
             (long long)(c1->has_envelope ? c1->sector_num : (int64_t)r->sector_number));
    *data = c1;
    return CZK_OK;
}

void czk__porep_free(void *data)
{
    if (!data) return;
    czk_fc_c1_free(data);
    free(data);
}

uint64_t czk__porep_sector_size(const void *data) { return ((const czk_fc_c1 *)data)->shape.sector_size; }
