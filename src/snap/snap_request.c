/* A SnapDeals request as Curio sends it (czk/kind.h, decode): one bincode
 * PartitionProof per partition (the update's vanilla proofs), the update
 * proof's number, comm_r_old, comm_r_new and comm_d_new (32 bytes each). */
#include <stdio.h>
#include <stdlib.h>

#include "czk/czk.h"
#include "kinds/request.h"
#include "czk/snap_kind.h"
#include "snap/snap_internal.h"

czk_status czk__snap_decode(void **data, char what[96], const czk_kind_request *r)
{
    *data = NULL;
    const struct { const char *name; const czk_bytes *b; } comms[] = {
        {"comm_r_old", &r->comm_r_old}, {"comm_r_new", &r->comm_r_new}, {"comm_d_new", &r->comm_d_new}};
    for (size_t i = 0; i < 3; i++)
        if (comms[i].b->len != 32)
            return czk_error(CZK_ERR_INVALID_ARG, "%s: %zu bytes, wanted 32", comms[i].name, comms[i].b->len);
    if (r->registered_proof >= CZK_SNAP_UPDATE_PROOFS)
        return czk_error(CZK_ERR_INVALID_ARG, "registered_proof %llu: not an update proof (0 .. 4)",
                         (unsigned long long)r->registered_proof);
    czk_snap_shape s;
    CZK_TRY(czk_snap_shape_of_proof(&s, (int)r->registered_proof));
    const char *name = czk_snap_proof_name(s.update_proof);
    if (r->sector_size && r->sector_size != s.tree.sector_size)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "sector_size %llu, but registered_proof %llu (%s) is of %llu-byte sectors",
                         (unsigned long long)r->sector_size, (unsigned long long)r->registered_proof, name,
                         (unsigned long long)s.tree.sector_size);
    if (r->n_proofs != s.partitions)
        return czk_error(CZK_ERR_INVALID_ARG,
                         "vanilla_proofs: %zu partition proofs, a %s update has %u (one bincode PartitionProof each)",
                         r->n_proofs, name, s.partitions);
    const uint32_t n = s.partitions;
    const uint8_t **pp;
    size_t *lens;
    CZK_TRY(czk__kind_proof_lists(r, &pp, &lens));
    czk_snap_vanilla *v = calloc(1, sizeof *v);
    if (!v) {
        free((void *)pp);
        free(lens);
        return czk_error(CZK_ERR_NOMEM, "vanilla_proofs");
    }
    czk_status st = czk_snap_vanilla_read(v, &s, pp, lens, n, r->comm_r_old.data, r->comm_d_new.data,
                                          r->comm_r_new.data);
    free((void *)pp);
    free(lens);
    if (st == CZK_OK) {
        st = czk_snap_vanilla_check(v);
        if (st != CZK_OK) czk_snap_vanilla_free(v);
    }
    if (st != CZK_OK) {
        free(v);
        return czk_error_context(st, "vanilla_proofs (%s)", name);
    }
    snprintf(what, 96, "SnapDeals %s update, %u partition%s", name, n, n > 1 ? "s" : "");
    *data = v;
    return CZK_OK;
}

void czk__snap_free(void *data)
{
    if (!data) return;
    czk_snap_vanilla_free(data);
    free(data);
}

uint64_t czk__snap_sector_size(const void *data) { return ((const czk_snap_vanilla *)data)->shape.tree.sector_size; }
