/* Witness-only SHA-256 compression on 32-bit words (sha256_witness.c). */
#ifndef CZK_SHA256_WITNESS_H
#define CZK_SHA256_WITNESS_H

#include "czk/gadgets.h"

/* czk_sha256_compression under the WITNESS backend: writes exactly the aux
 * values (and output words) the bit-level gadget would, straight into the
 * backend's value vector. Returns 0 without doing anything when it does not
 * apply (another backend, names wanted, or too little reserved aux
 * capacity): the caller then runs the bit-level gadget. */
int czk__sha256_compression_witness(czk_cs *cs, czk_u32 out[8], const czk_bool in[512], const czk_u32 iv[8]);

#endif
