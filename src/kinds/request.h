/* What the kinds' request decoders share (internal). */
#ifndef CZK_KINDS_REQUEST_H
#define CZK_KINDS_REQUEST_H

#include "czk/kind.h"

/* r's vanilla proofs as the two arrays the bincode readers take
 * (*pp[i], *lens[i]; free both with free()); CZK_ERR_NOMEM. */
czk_status czk__kind_proof_lists(const czk_kind_request *r, const uint8_t ***pp, size_t **lens) CZK_WUR;

#endif
