/* PoRep's files (czk/kind.h, read / read_public): a C1 output JSON file
 * (lotus-bench's envelope or the plain C1), which is the job data and the
 * public data alike. */
#include <stdlib.h>

#include "czk/czk.h"
#include "czk/porep.h"
#include "porep/porep_internal.h"

czk_status czk__porep_read(void **data, const char *path)
{
    *data = NULL;
    czk_fc_c1 *c1 = calloc(1, sizeof *c1);
    if (!c1) return czk_error(CZK_ERR_NOMEM, "C1");
    czk_status st = czk_fc_c1_read(c1, path);
    if (st != CZK_OK) {
        free(c1);
        return st;
    }
    *data = c1;
    return CZK_OK;
}

const void *czk__porep_shape_of(const void *data) { return &((const czk_fc_c1 *)data)->shape; }

uint32_t czk__porep_partitions(const void *data) { return ((const czk_fc_c1 *)data)->shape.partitions; }

const char *czk__porep_name(const void *data) { return czk_fc_proof_name(((const czk_fc_c1 *)data)->shape.proof); }

czk_status czk__porep_inputs(czk_fr *out, size_t n, const void *data, uint32_t k)
{
    const czk_fc_c1 *c1 = data;
    size_t want = czk_porep_num_inputs(&c1->shape) - 1;
    if (n != want)
        return czk_error(CZK_ERR_INVALID_ARG, "the verifying key has %zu public inputs, this sector's circuit %zu",
                         n + 1, want + 1);
    return czk_porep_public_inputs(out, c1, k);
}
