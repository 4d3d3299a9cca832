/* Internal to src/porep: what porep_kind.c's registry entry takes from the
 * kind's other files (porep_request.c, porep_dir.c). */
#ifndef CZK_POREP_POREP_INTERNAL_H
#define CZK_POREP_POREP_INTERNAL_H

#include "czk/kind.h"

/* A request's C1 envelope (or inner C1 JSON) into a czk_fc_c1. */
czk_status czk__porep_decode(void **data, char what[96], const czk_kind_request *r) CZK_WUR;
void czk__porep_free(void *data);
uint64_t czk__porep_sector_size(const void *data);

/* porep_dir.c: the C1 file as job and public data. */
czk_status czk__porep_read(void **data, const char *path) CZK_WUR;
const void *czk__porep_shape_of(const void *data);
uint32_t czk__porep_partitions(const void *data);
const char *czk__porep_name(const void *data);
czk_status czk__porep_inputs(czk_fr *out, size_t n, const void *data, uint32_t k) CZK_WUR;

/* pce_porep.c: the shape for src/kinds' generic code. */
struct czk__kind_shape;
extern const struct czk__kind_shape czk__porep_shape_ops;

#endif
